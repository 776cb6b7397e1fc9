"""Figures of random substitution against l, the values released per record.

One release and both reconstructions, their error, the privacy ε, the cost
in draws and collisions, and the bias per category.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dpviz.style import (COLORS, COUNT_AXIS, PROBABILITY_AXIS, _log_ticks, _rgba, axes_of, figure,
                         inert_labels, legend_entry, legend_span, merged, panels, span)
from dpviz.text import N_, _

__all__ = [
    "SUBSTITUTION_COLORS",
    "SUBSTITUTION_NAMES",
    "substitution_bias_figure",
    "substitution_cost_figure",
    "substitution_counts_figure",
    "substitution_epsilon_figure",
    "substitution_error_figure",
]


# The two reconstructions of dpcore.substitution (its ESTIMATORS) and the curves against l.
SUBSTITUTION_COLORS = {
    "source": COLORS["statistic"],  # the source's X̂*/l = M⁻¹Y*/l
    "unbiased": COLORS["estimate"],  # A⁻¹Y*
    "bound": COLORS["theory"],  # Theorem 4.1 / √l, and the source's γ^l
    "exact": COLORS["original"],  # the exact ε_l of the released set
    "ordered": COLORS["B"],  # ε if the order of the l values were released
    "draws": COLORS["private"],
    "collision": COLORS["theory"],
}
# The two reconstructions as the legends name them (in English: translated where shown,
# _(SUBSTITUTION_NAMES[kind])).
SUBSTITUTION_NAMES = {"source": N_("X̂*/l = M⁻¹Y*/l (source)"),
                      "unbiased": N_("A⁻¹Y* (unbiased)")}


def _estimator(kind: str) -> str:
    """A reconstruction's legend name in the reader's language."""
    return _(SUBSTITUTION_NAMES[kind])


def _lines(points: int) -> str:
    """Scatter mode of a curve against l: lines, or a marker when it has one point only."""
    return "lines" if points > 1 else "markers"


_CURRENT_L_LINE = dict(color=COLORS["reference"], width=2, dash="dot")


def _current_l_line(current_l: int, **where) -> dict:
    """The dotted vertical line at the chosen l, a shape of the figure's spec (in the panel
    whose axes ``where`` names: ``xref="x2", yref="y2"``)."""
    line, _label = span("vline", x=float(current_l), line=_CURRENT_L_LINE, **where)
    return line


def _current_l_entry(current_l: int) -> dict:
    """The legend entry naming the line at the chosen l (above the plot its label met the
    legend)."""
    return legend_entry(f"l = {current_l}", **_CURRENT_L_LINE)


def substitution_counts_figure(labels, original, released, source, unbiased, *, l: int = 1,
                               height: int = 440) -> go.Figure:
    """One release per category: X and Y*/l as bars, both reconstructions as markers.

    ``released`` are the released counts Y* (Y at l = 1), drawn divided by l
    so that they share the scale of X; ``source`` is X̂*/l = M⁻¹Y*/l and
    ``unbiased`` A⁻¹Y*. At l = 1 both reconstructions are Theorem 3.2's and
    their markers coincide (a cross inside a circle).
    """
    labels = inert_labels(labels)  # user text: shown as typed, never as HTML
    l = int(l)
    released = np.asarray(released, dtype=float)
    shown = released / l
    name_released = _("released Y") if l == 1 else _("released Y*/l (Y*/{l})", l=l)
    data = [
        dict(type="bar", x=labels, y=np.asarray(original, dtype=float), name=_("original X"),
             marker=dict(color=COLORS["original"]),
             hovertemplate="%{x}<br>X %{y:,.0f}<extra></extra>"),
        dict(type="bar", x=labels, y=shown, name=name_released,
             marker=dict(color=COLORS["private"]), customdata=released,
             hovertemplate="%{x}<br>" + ("Y %{y:,.0f}" if l == 1 else
                                         f"Y* %{{customdata:,.0f}}, Y*/{l} %{{y:,.1f}}")
                           + "<extra></extra>"),
    ]
    for kind, values, symbol in (("unbiased", unbiased, "circle-open"),
                                 ("source", source, "x-thin-open")):
        data.append(dict(
            type="scatter", x=labels, y=np.asarray(values, dtype=float), mode="markers",
            name=_estimator(kind),
            marker=dict(color=SUBSTITUTION_COLORS[kind], symbol=symbol, size=9,
                        line=dict(width=2, color=SUBSTITUTION_COLORS[kind])),
            hovertemplate=_("%{x}<br>estimate %{y:,.1f}<extra>{name}</extra>",
                            name=_estimator(kind)),
        ))
    zero, _label = span("hline", y=0, line=dict(color=COLORS["reference"], width=1))
    return figure(data, dict(
        barmode="group", bargap=0.15, bargroupgap=0.0, height=height, legend=dict(y=1.08),
        margin=dict(t=80), shapes=[zero],
        xaxis=dict(title=dict(text=_("category")), type="category"),
        yaxis=dict(title=dict(text=_("records")), **COUNT_AXIS),
    ))


def substitution_error_figure(curves, *, current_l: int, points=None,
                              height: int = 460) -> go.Figure:
    """Relative standard error σ_X̂/‖X‖ against l, log y.

    ``curves`` has the columns ``l``, ``bound`` (Theorem 4.1's bound / √l),
    ``source`` and ``unbiased`` (the exact errors of both reconstructions).
    ``points`` (optional) has rows with ``estimator``, ``actual`` and
    ``actual_se`` (rows of ``dpcore.substitution.error_table``): drawn at
    ``current_l`` with ± 2 SE bars.
    """
    curves = pd.DataFrame(curves).sort_values("l")
    l_values = curves["l"].to_numpy(float)
    data = [dict(
        type="scatter", x=l_values, y=curves["bound"].to_numpy(float),
        mode=_lines(len(l_values)), name=_("Theorem 4.1 bound / √l"),
        line=dict(color=SUBSTITUTION_COLORS["bound"], width=3, dash="dash"),
        hovertemplate=_("l %{x}<br>bound / √l %{y:,.4~r}<extra></extra>"),
    )]
    for kind in ("source", "unbiased"):
        data.append(dict(
            type="scatter", x=l_values, y=curves[kind].to_numpy(float),
            mode=_lines(len(l_values)), name=_("exact error, {name}", name=_estimator(kind)),
            line=dict(color=SUBSTITUTION_COLORS[kind], width=2),
            hovertemplate=_("l %{x}<br>exact %{y:,.4~r}<extra>{name}</extra>",
                            name=_estimator(kind)),
        ))
    if points is not None:
        for row in pd.DataFrame(points).itertuples():
            data.append(dict(
                type="scatter", x=[float(current_l)], y=[float(row.actual)], mode="markers",
                name=_("simulated, {name} (± 2 SE)", name=_estimator(row.estimator)),
                marker=dict(color=SUBSTITUTION_COLORS[row.estimator], size=10,
                            symbol="diamond", line=dict(width=1, color="white")),
                error_y=dict(type="data", array=[2 * float(np.nan_to_num(row.actual_se))],
                             thickness=1.5, color=SUBSTITUTION_COLORS[row.estimator]),
                hovertemplate=_("l %{x}<br>simulated %{y:,.4~r}<extra>{name}</extra>",
                                name=_estimator(row.estimator)),
            ))
    shown = [curves[c].to_numpy(float) for c in ("bound", "source", "unbiased")]
    if points is not None:
        shown.append(pd.DataFrame(points)["actual"].to_numpy(float))
    data.append(_current_l_entry(current_l))
    return figure(data, dict(
        height=height, legend=dict(y=1.08), margin=dict(t=110),
        shapes=[_current_l_line(current_l)],
        xaxis=dict(title=dict(text=_("l (values released per record)"))),
        yaxis=dict(title=dict(text=_("σ_X̂ / ‖X‖ (log scale)")), type="log",
                   tickvals=_log_ticks(np.concatenate(shown)), tickformat=",.3~r"),
    ))


def substitution_epsilon_figure(table, *, current_l: int, log_gamma: float,
                                height: int = 440) -> go.Figure:
    """ε of the l-extended release against l, log y, with ln γ (l = 1) as reference.

    ``table`` has the columns ``l``, ``bound`` (the source's l × ln γ, from
    γ^l), ``ordered`` (ε if the order of the l values were released) and
    ``exact`` (the exact ε_l of the released set).
    """
    table = pd.DataFrame(table).sort_values("l")
    l_values = table["l"].to_numpy(float)
    series = (("bound", _("Kang, Lee & Hong's bound l × ln γ (from γ^l)"), "dash", 3),
              ("ordered", _("exact ε if the order were released"), "solid", 2),
              ("exact", _("exact ε_l of the released set"), "solid", 3))
    data = [
        dict(type="scatter", x=l_values, y=table[kind].to_numpy(float),
             mode=_lines(len(l_values)), name=name,
             line=dict(color=SUBSTITUTION_COLORS[kind], width=width, dash=dash),
             hovertemplate="l %{x}<br>ε %{y:,.4~r}<extra>" + name + "</extra>")
        for kind, name, dash, width in series
    ]
    # ln γ and the chosen l named in the legend: on the plot their labels met the curves,
    # which start at ln γ, and the legend
    reference, entry = legend_span("hline", f"ln γ = {log_gamma:.3g} (l = 1, k-RR)",
                                   y=float(log_gamma),
                                   line=dict(color=COLORS["reference"], width=1.5,
                                             dash="dashdot"))
    data += [entry, _current_l_entry(current_l)]
    shown = np.concatenate([table[c].to_numpy(float) for c in ("bound", "ordered", "exact")])
    return figure(data, dict(
        height=height, legend=dict(y=1.08), margin=dict(t=90),
        shapes=[reference, _current_l_line(current_l)],
        xaxis=dict(title=dict(text=_("l (values released per record)"))),
        yaxis=dict(title=dict(text=_("ε (log scale)")), type="log", tickvals=_log_ticks(shown),
                   tickformat=",.3~r"),
    ))


def substitution_cost_figure(table, *, current_l: int, height: int = 380) -> go.Figure:
    """Two panels against l: expected draws / (N·l), and the collision probability.

    ``table`` has the columns ``l``, ``draws_ratio`` (E[draws]/(N·l), 1 means no
    re-draws) and ``collision`` (Theorem 5.1's P[s ≥ 2]).
    """
    table = pd.DataFrame(table).sort_values("l")
    l_values = table["l"].to_numpy(float)
    data = [
        dict(type="scatter", x=l_values, y=table["draws_ratio"].to_numpy(float),
             mode="lines+markers", name=_("expected draws / (N·l)"),
             line=dict(color=SUBSTITUTION_COLORS["draws"], width=2), marker=dict(size=5),
             hovertemplate=_("l %{x}<br>draws / (N·l) %{y:,.4~r}<extra></extra>"),
             **axes_of(1, 1, cols=2)),
        dict(type="scatter", x=l_values, y=table["collision"].to_numpy(float),
             mode="lines+markers", name=_("collision probability (Theorem 5.1)"),
             line=dict(color=SUBSTITUTION_COLORS["collision"], width=2), marker=dict(size=5),
             hovertemplate="l %{x}<br>P[s ≥ 2] %{y:,.4~r}<extra></extra>",
             **axes_of(1, 2, cols=2)),
    ]
    one, _label = span("hline", y=1.0, line=dict(color=COLORS["reference"], width=1))
    shapes = [one] + [_current_l_line(current_l, xref=f"x{n}", yref=f"y{n}")
                      for n in ("", "2")]
    l_axis = dict(title=dict(text=_("l (values released per record)")))
    return figure(data, merged(
        panels(1, 2, horizontal_spacing=0.12, subplot_titles=(
            _("expected draws / (N·l)"), _("P[s ≥ 2]: a repeat among l independent draws"))),
        dict(height=height, showlegend=False, shapes=shapes, xaxis=l_axis, xaxis2=l_axis,
             yaxis=dict(title=dict(text=_("draws / (N·l)"))),
             yaxis2=dict(title=dict(text=_("probability")), range=[0, 1.02],
                         **PROBABILITY_AXIS)),
    ))


def substitution_bias_figure(labels, original, exact_bias, estimates, *,
                             height: int = 440) -> go.Figure:
    """Bias per category: exact E[X̂*/l] − X as bars, 0 for A⁻¹Y*, simulated means ± 2 SE.

    ``exact_bias`` is the source's estimator's exact bias per category;
    ``estimates`` maps ``"source"`` and/or ``"unbiased"`` to replicate
    estimates, shape (R, k), R ≥ 2: each is drawn as its mean minus
    ``original`` with ± 2 standard errors of that mean (sample standard
    deviation / √R).
    """
    labels = inert_labels(labels)  # user text: shown as typed, never as HTML
    x = np.asarray(original, dtype=float)
    data = [
        dict(type="bar", x=labels, y=np.asarray(exact_bias, dtype=float),
             name=_("exact bias, {name}", name=_estimator("source")),
             marker=dict(color=_rgba(SUBSTITUTION_COLORS["source"], 0.45)),
             hovertemplate=_("%{x}<br>exact bias %{y:,.2f}<extra></extra>")),
        dict(type="scatter", x=labels, y=np.zeros(len(labels)), mode="lines",
             name=_("exact bias, {name}: 0", name=_estimator("unbiased")),
             line=dict(color=SUBSTITUTION_COLORS["unbiased"], width=2), hoverinfo="skip"),
    ]
    for kind, symbol in (("source", "x-thin-open"), ("unbiased", "circle-open")):
        if kind not in estimates:
            continue
        est = np.asarray(estimates[kind], dtype=float)
        mean = est.mean(axis=0) - x
        se = est.std(axis=0, ddof=1) / np.sqrt(est.shape[0])
        data.append(dict(
            type="scatter", x=labels, y=mean, mode="markers", offsetgroup=kind,
            name=_("simulated mean bias, {name} (± 2 SE, R = {reps})", name=_estimator(kind),
                   reps=f"{est.shape[0]:,}"),
            marker=dict(color=SUBSTITUTION_COLORS[kind], symbol=symbol, size=8,
                        line=dict(width=2, color=SUBSTITUTION_COLORS[kind])),
            error_y=dict(type="data", array=2 * se, thickness=1,
                         color=SUBSTITUTION_COLORS[kind]),
            hovertemplate=_("%{x}<br>mean bias %{y:,.2f}<extra>{name}</extra>",
                            name=_estimator(kind)),
        ))
    return figure(data, dict(
        height=height, bargap=0.15, scattermode="group", scattergap=0.5, legend=dict(y=1.08),
        margin=dict(t=110),
        xaxis=dict(title=dict(text=_("category")), type="category"),
        yaxis=dict(title=dict(text=_("E X̂ − X (records)")), **COUNT_AXIS),
    ))
