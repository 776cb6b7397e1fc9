"""Figures of the privacy-utility planner.

Simulated power against N or ε, the ε-N frontier of each test, and the two
distributions to tell apart.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dpviz.style import (_TEST_NAMES, COLORS, OKABE_ITO, PROBABILITY_AXIS, _log_range, _log_ticks,
                         _rgba, figure, inert, inert_labels, legend_span)
from dpviz.text import N_, _

__all__ = [
    "PLANNER_COLORS",
    "planner_distributions_figure",
    "planner_frontier_figure",
    "planner_power_figure",
]


PLANNER_COLORS = {
    "bootstrap": COLORS["estimate"],  # the parametric bootstrap test (as in rejection_figure)
    "chisq": COLORS["statistic"],  # the naive chi-square test
    # The normal-score test (dpcore.homogeneity.normal_score_test): black, the one colour of
    # the palette these figures leave free, so it stays apart from Algorithm 1 in one figure.
    "normal_score": OKABE_ITO["black"],
    "target": COLORS["original"],  # the target power, the estimate and its interval
    "current": COLORS["theory"],  # the user's current choice (alpha, N)
    "A": COLORS["A"],
    "B": COLORS["B"],
}

# The tests as the legends name them: the calibration figures' names, and this project's
# normal-score test (solid, as Algorithm 1; only the naive test is dashed). Translated where
# shown (_test_name).
_PLANNER_TEST_NAMES = {**_TEST_NAMES, "normal_score": N_("normal-score")}
_ORDER = ("bootstrap", "normal_score", "chisq")  # the legend's order

# x -> (axis title, translated where shown; the hover's x; the estimate's number format)
_PLANNER_X = {
    "n": (N_("N per group (log scale)"), "N %{x:,.0f}", ",.0f"),
    "alpha1": (N_("privacy level ε (log scale; smaller = stronger privacy)"), "ε %{x:.3g}",
               ".3g"),
}


def _test_name(test) -> str:
    """A test's name as the planner's legends write it, in the reader's language."""
    return _(_PLANNER_TEST_NAMES[test]) if test in _PLANNER_TEST_NAMES else test


def planner_power_figure(points, *, x: str = "n", target: float, estimate=None, interval=None,
                         level=None, height: int = 420,
                         estimate_text: str | None = None) -> go.Figure:
    """Simulated power against N or ε (log x) with Wilson bars, the target and the estimate.

    ``points``: rows of ``dpcore.planner`` (columns ``x``, ``power``, ``ci_low``,
    ``ci_high`` and, optionally, ``test``); ``x`` is ``"n"`` or ``"alpha1"``.
    ``target``: the target power (a dashed line). ``estimate``: the x found
    (a dotted vertical line and a marker at the target). ``interval`` =
    (low, high): its Monte Carlo interval, a shaded band; an end at 0 or at
    infinity is drawn to the edge of the axis. ``level``: the test's level
    (dotted), the power of a test when there is nothing to detect. ``estimate_text``: the
    estimate as the legend names it (default: to three significant digits or whole).
    """
    if x not in _PLANNER_X:
        raise ValueError(f"`x` must be one of {tuple(_PLANNER_X)}, got {x!r}.")
    title, hover_x, fmt = _PLANNER_X[x]
    title = _(title)
    data = pd.DataFrame(points).sort_values(x)
    xs = data[x].to_numpy(float)
    power = data["power"].to_numpy(float)
    low_end, high_end = (None, None) if interval is None else interval
    lo, hi = _log_range([*xs, estimate, low_end, high_end])
    traces = []
    if interval is not None:
        left = low_end if low_end is not None and np.isfinite(low_end) and low_end > 0 \
            else 10 ** lo
        right = high_end if high_end is not None and np.isfinite(high_end) else 10 ** hi
        traces.append(dict(
            type="scatter", x=[left, right, right, left, left], y=[0, 0, 1, 1, 0], mode="lines",
            fill="toself", fillcolor=_rgba(PLANNER_COLORS["target"], 0.12), line=dict(width=0),
            name=_("Monte Carlo interval of the estimate"), hoverinfo="skip",
        ))
    tests = data["test"].unique() if "test" in data else [None]
    for test in tests:
        rows = data if test is None else data[data["test"] == test]
        color = PLANNER_COLORS.get(test, PLANNER_COLORS["bootstrap"])
        if test is not None and len(tests) > 1:
            name = _("{test}: simulated power (95% Wilson interval)", test=_test_name(test))
        else:
            name = _("simulated power (95% Wilson interval)")
        p = rows["power"].to_numpy(float)
        traces.append(dict(
            type="scatter", x=rows[x].to_numpy(float), y=p, mode="lines+markers", name=name,
            line=dict(color=color, width=1.5, dash="dash" if test == "chisq" else "solid"),
            marker=dict(color=color, size=8),
            error_y=dict(type="data", array=rows["ci_high"].to_numpy(float) - p,
                         arrayminus=p - rows["ci_low"].to_numpy(float), thickness=1.5,
                         color=color),
            hovertemplate=_("{point}<br>power %{y:.3f}<extra></extra>", point=hover_x),
        ))
    # The lines' labels in the legend: beside their lines they met the points and their
    # bars (and one another at a low target).
    spans = [legend_span("hline", _("target power {power}", power=f"{target:.0%}"),
                         y=float(target),
                         line=dict(color=PLANNER_COLORS["target"], width=2, dash="dash"))]
    if level is not None:
        spans.append(legend_span("hline", _("{level} level: nothing to detect",
                                            level=f"{level:.0%}"), y=float(level),
                                 line=dict(color=COLORS["reference"], width=1.5, dash="dot")))
    if estimate is not None and np.isfinite(estimate):
        traces.append(dict(
            type="scatter", x=[estimate, estimate], y=[0, float(target)], mode="lines",
            line=dict(color=PLANNER_COLORS["target"], width=2, dash="dot"), showlegend=False,
            hoverinfo="skip",
        ))
        traces.append(dict(
            type="scatter", x=[estimate], y=[float(target)], mode="markers",
            name=_("estimate: {value}", value=estimate_text or format(estimate, fmt)),
            marker=dict(color=PLANNER_COLORS["target"], size=13, symbol="diamond",
                        line=dict(width=1.5, color="white")),
            hovertemplate=_("estimate {point}<extra></extra>", point=hover_x),
        ))
    traces += [entry for _line, entry in spans]
    annotations = []
    if len(power) == 0:  # the one label on the plot, in its middle, clear of lines behind it
        annotations.append(dict(text=_("no simulated points"), showarrow=False, xref="paper",
                                yref="paper", x=0.5, y=0.5, bgcolor="white"))
    xaxis = dict(title=dict(text=title), type="log", range=[lo, hi])
    if hi - lo <= 3.5:  # up to three decades: ticks 1, 2, 3, 5 × 10^k, in plain numbers
        xaxis.update(tickvals=_log_ticks([10 ** lo, 10 ** hi]), tickformat=",.3~r")
    return figure(traces, dict(
        height=height, legend=dict(y=1.04), margin=dict(t=80),
        shapes=[line for line, _label in spans], annotations=annotations, xaxis=xaxis,
        yaxis=dict(title=dict(text=_("power (rejection rate)")), range=[-0.02, 1.02],
                   **PROBABILITY_AXIS),
    ))

def _frontier_errors(rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Error bar lengths n_high − n and n − n_low; 0 where an end is infinite or 0."""
    n = rows["n"].to_numpy(float)
    high = rows["n_high"].to_numpy(float)
    low = rows["n_low"].to_numpy(float)
    plus = np.where(np.isfinite(high) & (high >= n), high - n, 0.0)
    minus = np.where(np.isfinite(low) & (low > 0) & (low <= n), n - low, 0.0)
    return plus, minus


def _frontier_name(test: str, ok: bool, level: str | None) -> str:
    """The legend name of a test's points on the frontier: whether the test holds its level
    (``level`` as text, "5%", or None)."""
    if ok:
        return (_("{test}: holds the level", test=test) if level is None else
                _("{test}: holds the {level} level", test=test, level=level))
    if level is None:
        return _("{test}: invalid, does not hold its level (type-I error above the level)",
                 test=test)
    return _("{test}: invalid, does not hold its level (type-I error above the {level} level)",
             test=test, level=level)


def planner_frontier_figure(table, *, current=None, level=None, power=None,
                            height: int = 480) -> go.Figure:
    """The privacy-utility frontier: N needed against ε, log-log, one curve per test.

    ``table``: rows of :func:`dpcore.planner.frontier` (``alpha1``, ``test``,
    ``n``, ``n_low``, ``n_high``, ``status``, ``valid`` and, optionally,
    ``type1``). Error bars run from ``n_low`` to ``n_high`` (an infinite or
    zero end is left out). Points whose test does not hold its level
    (``valid`` False: the naive χ² test under DP) get an open cross, the text
    "invalid" and a legend entry of their own. Settings where even the
    largest N searched is not enough (no ``n``) are drawn as upward triangles
    at ``n_low``. ``current`` = (ε, N): the user's choice, a star. ``level``
    and ``power`` name the level and the target power in the legend and axis.
    """
    data = pd.DataFrame(table).copy()
    data["n"] = pd.to_numeric(data["n"], errors="coerce")
    data = data.sort_values("alpha1")
    level_text = None if level is None else f"{level:.0%}"
    traces = []
    for test in [t for t in _ORDER if t in set(data["test"])] + \
            [t for t in pd.unique(data["test"]) if t not in _ORDER]:
        rows = data[data["test"] == test]
        found = rows[rows["n"].notna()]
        color = PLANNER_COLORS.get(test, COLORS["reference"])
        name = _test_name(test)
        dash = "dash" if test == "chisq" else "solid"
        valid = found["valid"].astype(bool) if "valid" in found else pd.Series(True, found.index)
        traces.append(dict(
            type="scatter", x=found["alpha1"].to_numpy(float), y=found["n"].to_numpy(float),
            mode="lines", name=name, legendgroup=test, line=dict(color=color, width=2, dash=dash),
            hoverinfo="skip",
        ))
        for ok, part in ((True, found[valid]), (False, found[~valid])):
            if part.empty:
                continue
            plus, minus = _frontier_errors(part)
            type1 = (part["type1"].to_numpy(float) if "type1" in part
                     else np.full(len(part), np.nan))
            marker = (dict(color=color, size=9, symbol="circle") if ok else
                      dict(color=color, size=14, symbol="x-thin-open", line=dict(width=3,
                                                                                color=color)))
            trace = dict(
                type="scatter", x=part["alpha1"].to_numpy(float), y=part["n"].to_numpy(float),
                mode="markers" if ok else "markers+text", textposition="top center",
                textfont=dict(color=color),
                name=_frontier_name(name, ok, level_text),
                legendgroup=test, showlegend=not ok,
                marker=marker,
                error_y=dict(type="data", array=plus, arrayminus=minus, thickness=1.5,
                             color=color),
                customdata=np.column_stack([part["n_low"].to_numpy(float),
                                            part["n_high"].to_numpy(float), type1]),
                hovertemplate=_("ε %{x:.3g}<br>N needed %{y:,.0f}<br>interval "
                                "%{customdata[0]:,.0f} – %{customdata[1]:,.0f}<br>type-I error "
                                "%{customdata[2]:.3f}<extra>{test}</extra>", test=name),
            )
            if not ok:
                trace["text"] = [_("invalid")] * len(part)
            traces.append(trace)
        beyond = rows[rows["n"].isna() & np.isfinite(pd.to_numeric(rows["n_low"],
                                                                   errors="coerce"))]
        if not beyond.empty:
            traces.append(dict(
                type="scatter", x=beyond["alpha1"].to_numpy(float),
                y=beyond["n_low"].to_numpy(float),
                mode="markers", name=_("{test}: more than the largest N searched", test=name),
                legendgroup=test, marker=dict(color=color, size=12, symbol="triangle-up-open",
                                              line=dict(width=2, color=color)),
                hovertemplate=_("ε %{x:.3g}<br>N above %{y:,.0f}<extra>{test}</extra>",
                                test=name),
            ))
    shown_x = list(data["alpha1"])
    shown_y = list(data["n"].dropna()) + list(pd.to_numeric(data["n_low"], errors="coerce")) + \
        list(pd.to_numeric(data["n_high"], errors="coerce"))
    if current is not None:
        alpha, n = current
        traces.append(dict(
            type="scatter", x=[float(alpha)], y=[float(n)], mode="markers",
            name=_("your choice: ε = {eps}, N = {n}", eps=f"{alpha:.3g}", n=f"{n:,.0f}"),
            marker=dict(color=PLANNER_COLORS["current"], size=18, symbol="star",
                        line=dict(width=1, color="white")),
            hovertemplate=_("your choice<br>ε %{x:.3g}<br>N %{y:,.0f}<extra></extra>"),
        ))
        shown_x.append(alpha)
        shown_y.append(n)
    ytitle = _("N per group needed (log scale)") if power is None else \
        _("N per group needed for {power} power (log scale)", power=f"{power:.0%}")
    x_range = _log_range(shown_x, 1.4)
    xaxis = dict(title=dict(text=_(_PLANNER_X["alpha1"][0])), type="log", range=x_range)
    if x_range[1] - x_range[0] <= 3.5:
        xaxis.update(tickvals=_log_ticks([10 ** v for v in x_range]), tickformat=",.3~r")
    return figure(traces, dict(
        height=height, legend=dict(y=1.04), margin=dict(t=110), xaxis=xaxis,
        yaxis=dict(title=dict(text=ytitle), type="log", range=_log_range(shown_y, 1.6),
                   exponentformat="power"),
    ))


def planner_distributions_figure(labels, p1, p2, *, name_a: str = "A", name_b: str = "B",
                                 height: int = 260) -> go.Figure:
    """The two distributions to tell apart, as grouped bars of shares."""
    labels = inert_labels(labels)  # user text: shown as typed, never as HTML
    name_a, name_b = inert(name_a), inert(name_b)
    data = [
        dict(type="bar", x=labels, y=np.asarray(values, dtype=float), name=name,
             marker=dict(color=PLANNER_COLORS[key]),
             hovertemplate=_("%{x}<br>share %{y:.2%}<extra>{name}</extra>", name=name))
        for key, values, name in (("A", p1, name_a), ("B", p2, name_b))
    ]
    return figure(data, dict(
        barmode="group", bargap=0.15, bargroupgap=0.0, height=height,
        margin=dict(l=50, r=10, t=40, b=40), font=dict(size=12), legend=dict(y=1.02),
        xaxis=dict(type="category"),
        yaxis=dict(title=dict(text=_("share")), tickformat=".1~%"),
    ))
