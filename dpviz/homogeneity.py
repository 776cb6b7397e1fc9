"""Figures of the two-histogram homogeneity tests and of their calibration.

The pages "Compare two histograms" and "Test calibration": the original and
private histograms, the bootstrap null distribution, the debiasing of eq.
(4.1), the naive statistic's null distribution with and without DP, and the
rejection rates of a simulation or of the paper's calibration study
(Son, Park & Jung 2022).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
from plotly.subplots import make_subplots
from scipy import stats

from dpcore.homogeneity import debias_thresholds, expected_noisy_count
from dpviz.style import (_LAYOUT, _TEST_COLORS, _TEST_NAMES, COLORS, COUNT_AXIS,
                         PROBABILITY_AXIS, TEMPLATE_NAME, _rgba, _test_name, axes_of, figure,
                         inert, inert_labels, legend_entry, legend_span, log_axis_ticks,
                         merged, panels)
from dpviz.text import N_, _

__all__ = [
    "debias_figure",
    "extended_null_figure",
    "histograms_figure",
    "null_distribution_figure",
    "null_statistics_figure",
    "rejection_figure",
    "study_figure",
]


def histograms_figure(
    labels,
    private_a,
    private_b,
    *,
    original_a=None,
    original_b=None,
    name_a: str = "A",
    name_b: str = "B",
) -> go.Figure:
    """Original and private histograms A and B in two panels side by side.

    ``original_a``/``original_b`` may be None (inputs already private); the
    private bars are then shown alone.
    """
    labels = inert_labels(labels)  # user text: shown as typed, never as HTML
    name_a, name_b = inert(name_a), inert(name_b)
    series = (
        ("original", _("original C"), _("bin %{x}<br>original %{y:,.0f}<extra></extra>")),
        ("private", _("private X = max(0, C + Z)"),
         _("bin %{x}<br>private %{y:,.1f}<extra></extra>")),
    )
    data = [
        dict(type="bar", x=labels, y=np.asarray(y), name=name, marker=dict(color=COLORS[kind]),
             legendgroup=kind, showlegend=col == 1, hovertemplate=hover,
             **axes_of(1, col, cols=2))
        for col, values in ((1, (original_a, private_a)), (2, (original_b, private_b)))
        for (kind, name, hover), y in zip(series, values) if y is not None
    ]
    bins = dict(title=dict(text=_("bin")), type="category")
    layout = merged(
        panels(1, 2, shared_yaxes=True, subplot_titles=(name_a, name_b), horizontal_spacing=0.04),
        dict(barmode="group", bargap=0.1, bargroupgap=0.0, height=400, legend=dict(y=1.14),
             margin=dict(t=80), xaxis=bins, xaxis2=bins,
             yaxis=dict(title=dict(text=_("count")), **COUNT_AXIS), yaxis2=COUNT_AXIS))
    return figure(data, layout)


def null_distribution_figure(
    null_distribution,
    statistic: float,
    critical_value: float,
    *,
    df: int | None = None,
    level: float = 0.05,
    reference: str | None = None,
) -> go.Figure:
    """Bootstrap null distribution with the observed T and the critical value.

    With ``df`` the chi-square(df) density is overlaid, named
    "χ²(df) (``reference``)": for Algorithm 1 the reference the naive test
    uses, so the gap between the two distributions shows (by default "naive test's
    reference").
    Both lines are named in the legend, with their values. When T lies far
    beyond the null distribution the axis is not stretched to it: the legend
    gives its value, and an arrow at the right edge points to it.
    """
    if reference is None:
        reference = _("naive test's reference")
    null = np.asarray(null_distribution, dtype=float)
    hi = max(float(np.quantile(null, 0.995)) * 1.15, critical_value * 1.2)
    if df is not None:
        hi = max(hi, float(stats.chi2.ppf(0.999, df)))
    off_chart = statistic > hi
    if not off_chart:
        hi = max(hi, statistic * 1.1)
    data = [dict(
        type="histogram", x=null, histnorm="probability density",
        name=_("bootstrap null (B = {b})", b=f"{null.size:,}"),
        marker=dict(color=COLORS["estimate"]), opacity=0.65, nbinsx=60,
        hovertemplate=_("T_b %{x:,.1f}<br>density %{y:.3~r}<extra></extra>"),
    )]
    if df is not None:
        grid = np.linspace(0.0, hi, 400)
        data.append(dict(
            type="scatter", x=grid, y=stats.chi2.pdf(grid, df), mode="lines",
            name=f"χ²({df}) ({reference})",
            line=dict(color=COLORS["theory"], width=2, dash="dot"),
            hovertemplate=_("%{x:.1f}<extra>χ² density</extra>"),
        ))
    # The two lines' labels in the legend: beside their lines they met one another (at
    # the smallest ε T lies next to the critical value) or the x-axis line.
    critical_line, critical_entry = legend_span(
        "vline", _("{level}% critical value {value}", level=f"{100 * (1 - level):g}",
                   value=f"{critical_value:,.1f}"),
        x=critical_value, line=dict(color=COLORS["reference"], dash="dash", width=2),
    )
    shapes, annotations, entries = [critical_line], [], [critical_entry]
    if off_chart:
        # T beyond the axis: named in the legend, with an arrow (no text) at the right edge
        # of the plot, mid-height, where no label or line is.
        entries.append(legend_entry(
            _("observed T = {t} (beyond the right edge)", t=f"{statistic:,.1f}"),
            color=COLORS["statistic"], kind="mark", symbol="arrow-right"))
        annotations.append(dict(
            x=hi, y=0.5, xref="x", yref="paper", ax=-40, ay=0, showarrow=True, text="",
            arrowhead=2, arrowsize=1.5, arrowwidth=2, arrowcolor=COLORS["statistic"],
        ))
    else:
        statistic_line, statistic_entry = legend_span(
            "vline", _("observed T = {t}", t=f"{statistic:,.1f}"), x=statistic,
            line=dict(color=COLORS["statistic"], width=3),
        )
        shapes.append(statistic_line)
        entries.append(statistic_entry)
    return figure(data + entries, dict(
        height=380, shapes=shapes, annotations=annotations,
        xaxis=dict(title=dict(text=_("statistic")), range=[0, hi], **COUNT_AXIS),
        # tiny densities as 10⁻⁴, never 1e-4 nor 100µ
        yaxis=dict(title=dict(text=_("density")), exponentformat="power"),
    ))


def debias_figure(
    alpha_a: float,
    alpha_b: float,
    private_a,
    private_b,
    debiased_a,
    debiased_b,
    *,
    name_a: str = "A",
    name_b: str = "B",
    zoom: bool = False,
) -> go.Figure:
    """g(C) = E[X | C] of eq. (4.1) against C, with the observed counts.

    Draws g for each privacy level (one curve when they are equal), the
    line X = C, the thresholds 1/alpha and k(alpha) of eq. (4.2) (labelled 1/ε and k(ε):
    the dashboard writes Son, Park & Jung's privacy level α as ε), and each
    observed private count X_j at (C-tilde_j, X_j), i.e. at its debiased
    value. The axes cover every observed count, or with ``zoom`` only the
    region where debiasing acts (up to 3 k(alpha), as the paper's Figure 4);
    counts beyond it are used as they are and their number is noted. The
    thresholds (1/ε dotted, k(ε) dash-dotted) and that note are legend entries.
    """
    name_a, name_b = inert(name_a), inert(name_b)  # user text: shown as typed, never as HTML
    th = {name_a: debias_thresholds(alpha_a), name_b: debias_thresholds(alpha_b)}
    c_max = max(3.0 * max(t.upper, t.lower) for t in th.values())
    if not zoom:
        largest = max(np.max(private_a, initial=0.0), np.max(private_b, initial=0.0))
        c_max = max(c_max, 1.05 * float(largest))
    grid = np.linspace(0.0, c_max, 400)
    data = [dict(
        type="scatter", x=grid, y=grid, mode="lines", name=_("X = C (no bias)"),
        line=dict(color=COLORS["reference"], width=1.5), hoverinfo="skip",
    )]
    shapes, entries = [], []
    same = th[name_a].alpha == th[name_b].alpha
    curves = [(_("{a} and {b}", a=name_a, b=name_b), th[name_a], "solid")] if same else [
        (name_a, th[name_a], "solid"), (name_b, th[name_b], "dash"),
    ]
    for label, t, dash in curves:
        data.append(dict(
            type="scatter", x=grid, y=expected_noisy_count(grid, t.alpha), mode="lines",
            name=f"g(C), ε = {t.alpha:g}" + ("" if same else f" ({label})"),
            line=dict(color=COLORS["theory"], width=3, dash=dash),
            hovertemplate="C %{x:.1f}<br>g(C) %{y:.1f}<extra></extra>",
        ))
        # The thresholds' labels in the legend: beside their lines they met one another
        # (1/ε and k(ε) are close at large ε) and the other curve's.
        for y, what in ((t.lower, "1/ε"), (t.upper, "k(ε)")):
            if what == "k(ε)" and t.upper == t.lower:
                continue
            line, entry = legend_span(
                "hline", f"{what} = {y:,.1f}" + ("" if same else f" ({label})"), y=y,
                line=dict(color=COLORS["theory"], width=1, dash="dot" if what == "1/ε"
                          else "dashdot"),
            )
            shapes.append(line)
            entries.append(entry)
    beyond = 0
    for name, x, c, symbol, color in (
        (name_a, private_a, debiased_a, "circle", COLORS["A"]),
        (name_b, private_b, debiased_b, "diamond", COLORS["B"]),
    ):
        x = np.asarray(x, dtype=float)
        c = np.asarray(c, dtype=float)
        shown = x <= c_max
        beyond += int(np.count_nonzero(~shown))
        data.append(dict(
            type="scatter", x=c[shown], y=x[shown], mode="markers",
            name=_("observed X → C̃ ({name})", name=name),
            marker=dict(color=color, symbol=symbol, size=9, line=dict(width=1, color="white")),
            hovertemplate="X %{y:.1f} → C̃ %{x:.1f}<extra>" + name + "</extra>",
        ))
    if beyond:  # in the legend: in the plot's corner it met g(C) at small ε
        entries.append(legend_entry(
            _("{n} counts above {c} off the chart (there C̃ = X)", n=beyond,
              c=f"{c_max:,.0f}"), color=COLORS["reference"], kind="mark", symbol="arrow-right"))
    y_max = max(c_max, float(expected_noisy_count(0.0, min(alpha_a, alpha_b))) * 1.1)
    return figure(data + entries, dict(
        height=420, margin=dict(t=80), legend=dict(y=1.1), shapes=shapes,
        xaxis=dict(title=dict(text=_("C (true count) / C̃ (debiased)")), range=[0, c_max],
                   **COUNT_AXIS),
        yaxis=dict(title=dict(text=_("X (noisy count), g(C)")), range=[0, y_max],
                   **COUNT_AXIS),
    ))


def null_statistics_figure(without_dp, with_dp, df: int, *, alpha: float) -> go.Figure:
    """Figures 2-3: the naive statistic under H0 without and with DP, and chi-square(df)."""
    without_dp = np.asarray(without_dp, dtype=float)
    with_dp = np.asarray(with_dp, dtype=float)
    hi = float(max(np.quantile(with_dp, 0.995), np.quantile(without_dp, 0.995),
                   stats.chi2.ppf(0.999, df)))
    bins = dict(start=0.0, end=hi, size=hi / 80)
    data = [
        dict(type="histogram", x=values, histnorm="probability density", name=name,
             marker=dict(color=color), opacity=0.6, xbins=bins,
             hovertemplate=_("statistic %{x}<br>density %{y:.3g}<extra></extra>"))
        for values, name, color in (
            (without_dp, _("without DP (counts C)"), COLORS["original"]),
            (with_dp, _("with DP (X = max(0, C + Lap(2/ε)), ε = {eps})", eps=f"{alpha:g}"),
             COLORS["private"]),
        )
    ]
    grid = np.linspace(0.0, hi, 400)
    data.append(dict(
        type="scatter", x=grid, y=stats.chi2.pdf(grid, df), mode="lines",
        name=_("χ²({df}) density", df=df), line=dict(color=COLORS["theory"], width=3),
        hoverinfo="skip",
    ))
    line, entry = legend_span("vline", _("χ² 5% critical value"),
                              x=float(stats.chi2.ppf(0.95, df)),
                              line=dict(color=COLORS["reference"], dash="dash", width=2))
    data.append(entry)
    return figure(data, dict(
        barmode="overlay", height=420, shapes=[line],
        xaxis=dict(title=dict(text=_("chi-square statistic (2.3)")), range=[0, hi],
                   **COUNT_AXIS),
        yaxis=dict(title=dict(text=_("density"))),
    ))


# Axis titles (in English: translated where shown, _(REJECTION_N_TITLE)).
REJECTION_N_TITLE = N_("N per histogram (log scale)")
REJECTION_RATE_TITLE = N_("rejection rate (share of replicates)")


def rejection_figure(
    table, *, color: str = "test", facet_col: str | None = None,
    facet_row: str | None = None, level: float = 0.05, height: int = 420,
    category_orders: dict | None = None,
) -> go.Figure:
    """Rejection rate against N (log axis, titled so) with 95% intervals and the level line.

    ``table`` is tidy: one row per (setting, N, test) with columns ``n``,
    ``rate``, ``ci_low``, ``ci_high``, ``test`` and those named by ``color``,
    ``facet_col`` and ``facet_row``. The naive test is dashed, Algorithm 1
    solid, the normal-score contrast bootstrap dash-dotted, the calibrated one dotted.
    """
    data = table.copy()
    names = {k: _test_name(k) for k in _TEST_NAMES}
    data["test"] = data["test"].map(lambda t: names.get(t, t))
    data["err_plus"] = data["ci_high"] - data["rate"]
    data["err_minus"] = data["rate"] - data["ci_low"]
    palette = [COLORS[k] for k in ("estimate", "private", "original", "theory", "statistic")]
    if color == "test":
        color_map = {names[k]: c for k, c in _TEST_COLORS.items()}
    else:
        color_map = dict(zip(pd.unique(data[color]), palette))
    fig = px.line(
        data.sort_values("n"), x="n", y="rate", color=color, line_dash="test",
        line_dash_map={names["bootstrap"]: "solid", names["chisq"]: "dash",
                       names["normal_score"]: "dashdot", names["calibrated"]: "dot"},
        color_discrete_map=color_map, facet_col=facet_col, facet_row=facet_row,
        error_y="err_plus", error_y_minus="err_minus", log_x=True, markers=True,
        category_orders=category_orders or {},
        hover_data={"ci_low": ":.3f", "ci_high": ":.3f", "err_plus": False, "err_minus": False},
        # the names of the columns in the hover text (and px's facet titles, cut below)
        labels={"n": _("N (per histogram)"), "rate": _("rejection rate"), "test": _("test"),
                "pair": _("pair"), "privacy": _("privacy"), "ci_low": _("ci_low"),
                "ci_high": _("ci_high")},
    )
    # The level line on every panel, named once in the legend (beside the line its label
    # met the curves and error bars near the level).
    level_line = dict(color=COLORS["reference"], dash="dot", width=1.5)
    fig.add_hline(y=level, line=level_line)
    fig.add_trace(go.Scatter(legend_entry(_("{level} level", level=f"{level:.0%}"),
                                          **level_line)))
    fig.update_yaxes(range=[-0.02, 1.02], **PROBABILITY_AXIS)
    # N written whole (1,000, 2,000, 5,000) or, over many decades, as powers of ten (10⁶),
    # never Plotly's bare minor digits "2", "5" (issue 36)
    n_ticks = log_axis_ticks(data["n"])
    fig.update_xaxes(**n_ticks, **(COUNT_AXIS if "tickvals" in n_ticks
                                  else dict(exponentformat="power")))
    # Axis titles say the N axis is logarithmic and what a rate counts. Set on the axes
    # that px titled (one row and one column of a facet grid): px's labels also name the
    # values in the hover text, which keeps the short names.
    n_title, rate_title = _(REJECTION_N_TITLE), _(REJECTION_RATE_TITLE)
    fig.for_each_xaxis(lambda ax: ax.update(title_text=n_title) if ax.title.text else None)
    fig.for_each_yaxis(lambda ax: ax.update(title_text=rate_title) if ax.title.text else None)
    # Facet titles read "M = 86" rather than "M=M = 86".
    fig.for_each_annotation(lambda a: a.update(text=a.text.split("=", 1)[-1].strip()))
    fig.update_layout(height=height, template=TEMPLATE_NAME, font=dict(size=13),
                      margin=dict(l=60, r=20, t=60, b=50))
    if facet_col or facet_row:  # a long legend goes above the grid of panels
        fig.update_layout(legend=dict(orientation="h", yanchor="bottom", y=1 + 50 / height,
                                      xanchor="left", x=0, title_text=""),
                          margin=dict(t=130))
    return fig


# The calibration study's pairs of populations and their effects (dpcore.study.PAIRS), as
# the legend names them: "korea vs usa (large effect)".
_PAIR_NAMES = {"korea_vs_korea": N_("korea vs korea"), "korea_vs_usa": N_("korea vs usa"),
               "central_vs_noncentral": N_("central vs noncentral")}
_EFFECT_NAMES = {"type-I error": N_("type-I error"), "large effect": N_("large effect"),
                 "medium effect": N_("medium effect")}


def study_figure(table) -> go.Figure:
    """The calibration study's grid: rows by privacy levels, columns by M, colour by pair."""
    data = table.copy()
    data["privacy"] = [
        f"ε = {a:g}" if a == b else f"ε_A = {a:g}, ε_B = {b:g}"
        for a, b in zip(data["alpha1"], data["alpha2"])
    ]
    data["M"] = data["m"].map(lambda m: f"M = {m}")
    data["pair"] = [_("{pair} ({effect})",
                      pair=_(_PAIR_NAMES[pair]) if pair in _PAIR_NAMES else pair.replace("_", " "),
                      effect=_(_EFFECT_NAMES[effect]) if effect in _EFFECT_NAMES else effect)
                    for pair, effect in zip(data["pair"], data["effect"])]
    # Equal levels first, weakest privacy first (the paper's Figures 9-11), then Figure 12's.
    levels = data.drop_duplicates("privacy")
    order = sorted(zip(levels["alpha1"], levels["alpha2"], levels["privacy"]),
                   key=lambda t: (t[0] != t[1], -t[0], -t[1]))
    rows = data["privacy"].nunique()
    return rejection_figure(
        data, color="pair", facet_col="M", facet_row="privacy", height=max(460, 260 * rows),
        category_orders={
            "M": [f"M = {m}" for m in sorted(data["m"].unique(), reverse=True)],
            "privacy": [label for _a1, _a2, label in order],
        },
    )


EXTENDED_Y_TITLE = N_("type-I error (share of replicates)")
EXTENDED_X_TITLE = N_("privacy ε_A, ε_B (groups) and sizes N_A/N_B (ticks)")
_TEST_SYMBOLS = {"bootstrap": "circle", "chisq": "x", "normal_score": "diamond",
                 "calibrated": "square"}


def _short_count(n: float) -> str:
    """A histogram size as a tick: 1k, 10k, 100k, 1M, 10M (else its digits)."""
    n = float(n)
    for div, unit in ((1e6, "M"), (1e3, "k")):
        if n >= div:
            return f"{n / div:g}{unit}"
    return f"{n:g}"


def extended_null_figure(
    table, *, level: float = 0.05, band: tuple[float, float] = (0.025, 0.075),
) -> go.Figure:
    """Type-I error of each test in every setting of the extended null grid.

    ``table`` is tidy: one row per (M, alpha1, alpha2, N_A, N_B, test) with
    columns ``m``, ``alpha1``, ``alpha2``, ``n`` (N_A), ``n2`` (N_B),
    ``test``, ``rate``, ``ci_low`` and ``ci_high``. One row of panels per M
    (largest first), sharing a two-level category axis: the privacy pair
    (alpha1, alpha2) outside, weakest privacy first, and the sizes N_A/N_B
    inside, smallest first. Each test is a colour and a marker, side by side
    within a setting, with its 95% interval as error bars. The nominal
    ``level`` is a dotted line and the target ``band`` is shaded, each named
    in the legend.
    """
    data = pd.DataFrame(table).copy()
    data = data.sort_values(["alpha1", "alpha2", "n", "n2"],
                            ascending=[False, False, True, True], kind="stable")
    # The pair alone ("(1, 0.01)"): the axis title names it; "(ε_A, ε_B) = (1, 0.01)" was
    # wider than its group of ticks and ran into its neighbours and the dividers (issue 36).
    data["outer"] = [f"({a:g}, {b:g})" for a, b in zip(data["alpha1"], data["alpha2"])]
    data["inner"] = [f"{_short_count(a)}/{_short_count(b)}"
                     for a, b in zip(data["n"], data["n2"])]
    ms = sorted(pd.unique(data["m"]), reverse=True)
    tests = [x for x in _TEST_NAMES if x in set(data["test"])] + \
        [x for x in pd.unique(data["test"]) if x not in _TEST_NAMES]
    fig = make_subplots(rows=len(ms), cols=1, shared_xaxes=True, vertical_spacing=0.06,
                        row_titles=[f"M = {m}" for m in ms])
    for row, m in enumerate(ms, start=1):
        for test in tests:
            rows = data[(data["m"] == m) & (data["test"] == test)]
            if rows.empty:
                continue
            rate = rows["rate"].to_numpy(float)
            custom = np.array([
                [float(low), float(high), f"{int(a):,}", f"{int(b):,}"]
                for low, high, a, b in zip(rows["ci_low"], rows["ci_high"], rows["n"],
                                           rows["n2"])
            ], dtype=object)
            fig.add_trace(go.Scatter(
                x=[rows["outer"].tolist(), rows["inner"].tolist()], y=rate, mode="markers",
                name=_test_name(test), legendgroup=test, showlegend=row == 1,
                # each test its slot within a setting; the legend entries below take none
                offsetgroup=test,
                marker=dict(color=_TEST_COLORS.get(test, COLORS["theory"]), size=7,
                            symbol=_TEST_SYMBOLS.get(test, "square")),
                error_y=dict(type="data", array=rows["ci_high"].to_numpy(float) - rate,
                             arrayminus=rate - rows["ci_low"].to_numpy(float), thickness=1,
                             width=0),
                customdata=custom,
                hovertemplate=_("M = {m}, %{x}<br>N_A = %{customdata[2]}, "
                                "N_B = %{customdata[3]}<br>type-I error %{y:.1%} "
                                "(95% interval %{customdata[0]:.1%} to %{customdata[1]:.1%})"
                                "<extra>{test}</extra>", m=m, test=_test_name(test)),
            ), row=row, col=1)
    low, high = band
    fill = _rgba(COLORS["estimate"], 0.15)
    level_line = dict(color=COLORS["reference"], dash="dot", width=1.5)
    fig.add_hrect(y0=low, y1=high, row="all", col=1, layer="below", line_width=0,
                  fillcolor=fill)
    fig.add_hline(y=level, row="all", col=1, line=level_line)
    # Named in the legend (a note above the plot met the legend when it wrapped).
    fig.add_trace(go.Scatter(legend_entry(_("{level} level", level=f"{level:.0%}"),
                                          **level_line)))
    fig.add_trace(go.Scatter(legend_entry(
        _("target {low} to {high}", low=f"{low:.1%}", high=f"{high:.1%}"), color=fill,
        kind="band", edge=COLORS["estimate"])))
    top = float(np.nanmax(data["ci_high"].to_numpy(float), initial=high))
    fig.update_yaxes(range=[0, max(top, high) * 1.05 + 0.005], tickformat=".0%",
                     title_text=_(EXTENDED_Y_TITLE) if len(ms) == 1 else None)
    if len(ms) > 1:
        fig.update_yaxes(title_text=_(EXTENDED_Y_TITLE), row=(len(ms) + 1) // 2, col=1)
    fig.update_xaxes(type="multicategory", tickangle=-90, tickfont=dict(size=10))
    fig.update_xaxes(title_text=_(EXTENDED_X_TITLE), row=len(ms), col=1)
    height = 170 + 240 * len(ms)
    fig.update_layout(height=height, scattermode="group", scattergap=0.4, **_LAYOUT)
    fig.update_layout(legend=dict(y=1 + 40 / height), margin=dict(t=90, b=140))
    return fig
