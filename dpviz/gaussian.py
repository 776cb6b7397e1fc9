"""Figures of the page "Gaussian mechanism".

The privacy-loss density with both δ's, σ per calibration, repeated releases
of one number and one release of a histogram.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from scipy import stats

from dpviz.fdp import FDP_COLORS
from dpviz.style import COLORS, COUNT_AXIS, _rgba, figure, inert_labels, legend_span, span
from dpviz.text import _

__all__ = [
    "CALIBRATION_COLORS",
    "calibration_figure",
    "privacy_loss_figure",
    "release_distribution_figure",
    "histogram_release_figure",
]


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _num(v: float, digits: int = 4) -> str:
    """A chart label's number in the statistician's notation, never in e-notation:
    703,500 (not 7.035e+05), 2.9·10⁻⁵, 0.05, 3.731."""
    v = float(v)
    if not np.isfinite(v):
        return "∞" if v > 0 else "−∞" if v < 0 else "—"
    if 1e4 <= abs(v) < 1e12:
        return f"{float(f'{v:.{digits}g}'):,.0f}"
    text = f"{v + 0.0:.{digits}g}"
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return f"{mantissa}·10{str(int(exponent)).translate(_SUPERSCRIPT)}"


# The exact (analytic) calibration is the μ-GDP curve, so it shares G_μ's colour.
CALIBRATION_COLORS = {
    "analytic": FDP_COLORS["gdp"],
    "tail": COLORS["private"],
    "classical": COLORS["B"],
}


def privacy_loss_figure(mean: float, var: float, eps: float, *, tail_delta: float,
                        exact_delta: float, log_y: bool = False, points: int = 801) -> go.Figure:
    """The privacy-loss density N(mean, var) with the ε line and two shaded areas.

    The whole tail L > ε has area P(L > ε) (the tail bound's δ); the part
    weighted by (1 − e^{ε − L}) has area E[(1 − e^{ε − L})₊], the exact δ.
    The numbers are passed in, computed by :mod:`dpcore.gaussian`; the
    figure only draws them. ``log_y`` draws the density on a log axis, where
    small tails are visible.
    """
    sd = float(np.sqrt(var))
    lo = min(mean - 4.5 * sd, eps - 0.5 * sd)
    hi = max(mean + 4.5 * sd, eps + 1.5 * sd)
    x = np.linspace(lo, hi, points)
    x = np.union1d(x, [eps])
    pdf = stats.norm.pdf(x, loc=mean, scale=sd)
    tail = x >= eps
    weighted = np.zeros_like(x)
    weighted[tail] = -np.expm1(eps - x[tail]) * pdf[tail]  # (1 − e^{ε−L})₊: 0 below ε
    data = [
        dict(type="scatter", x=x[tail], y=pdf[tail], fill="tozeroy", mode="none",
             name=f"P(L > ε) = {_num(tail_delta, 3)}",
             fillcolor=_rgba(CALIBRATION_COLORS["tail"], 0.35), hoverinfo="skip"),
        dict(type="scatter", x=x[tail], y=weighted[tail], fill="tozeroy", mode="lines",
             name=_("exact δ = E[(1 − e^(ε−L))₊] = {delta}", delta=_num(exact_delta, 3)),
             line=dict(color=CALIBRATION_COLORS["analytic"], width=1.5),
             fillcolor=_rgba(CALIBRATION_COLORS["analytic"], 0.55),
             hovertemplate=_("L %{x:,.4~r}<br>(1 − e^(ε−L)) · density %{y:.3~r}"
                             "<extra></extra>")),
        dict(type="scatter", x=x, y=pdf, mode="lines",
             name=_("density of L ~ N({mean}, {var})", mean=_num(mean, 3), var=_num(var, 3)),
             line=dict(color=COLORS["original"], width=3),
             hovertemplate=_("L %{x:,.4~r}<br>density %{y:.3~r}<extra></extra>")),
    ]
    line, entry = legend_span("vline", f"ε = {_num(eps, 6)}", x=eps,
                              line=dict(color=COLORS["statistic"], width=2, dash="dash"))
    data.append(entry)
    yaxis = dict(title=dict(text=_("density")))
    if log_y:
        floor = max(float(pdf.max()) * 1e-16, 1e-300)
        yaxis.update(type="log", exponentformat="power",
                     range=[np.log10(floor), np.log10(float(pdf.max()) * 2)])
    return figure(data, dict(
        height=420, legend=dict(y=1.1), margin=dict(t=90), shapes=[line],
        xaxis=dict(title=dict(text=_("privacy loss L = ln p₁(o)/p₂(o)")),
                   range=[float(lo), float(hi)]),
        yaxis=yaxis,
    ))


def calibration_figure(table) -> go.Figure:
    """Horizontal bars of σ per calibration (a frame from ``gaussian.calibration_table``).

    Calibrations with no guarantee (``valid`` False) are drawn hatched and
    say why on hover; missing σ (no solution) are left out.
    """
    table = pd.DataFrame(table)
    table = table[np.isfinite(table["sigma"].astype(float))]
    data = []
    for row in table.itertuples():
        label = row.name if row.valid else _("{name} (no guarantee)", name=row.name)
        data.append(dict(
            type="bar", y=[row.name], x=[row.sigma], orientation="h", name=label,
            marker=dict(color=CALIBRATION_COLORS[row.method],
                        pattern=dict(shape="" if row.valid else "/")),
            text=[_("σ = {sigma} ({ratio}× exact)", sigma=_num(row.sigma),
                    ratio=_num(row.ratio, 3))], textposition="auto",
            hovertemplate=_("{name}<br>σ %{x:,.5~r}<br>{note}<extra></extra>", name=row.name,
                            note=row.note or _("valid")),
            showlegend=False,
        ))
    return figure(data, dict(
        height=260, margin=dict(l=20, r=20, t=20, b=50),
        xaxis=dict(title=dict(text=_("noise standard deviation σ"))),
        yaxis=dict(autorange="reversed"),
    ))


def release_distribution_figure(releases, true_value: float, sigma: float, *,
                                half_width: float, nbins: int = 60) -> go.Figure:
    """Histogram of repeated releases of one number, with the N(true, σ²) density,
    the true value, the interval true ± half_width, and the releases below 0 marked."""
    releases = np.asarray(releases, dtype=float)
    lo = min(float(releases.min()), true_value - 4 * sigma)
    hi = max(float(releases.max()), true_value + 4 * sigma)
    edges = np.linspace(lo, hi, nbins + 1)
    counts, _edges = np.histogram(releases, bins=edges)
    width = edges[1] - edges[0]
    density = counts / (releases.size * width)
    mids = (edges[:-1] + edges[1:]) / 2
    # The bands' and the true value's labels in the legend: on the plot they met one
    # another when the true value is near 0 or the interval is narrow.
    spans = [legend_span("vrect", _("95% of releases"), x0=true_value - half_width,
                         x1=true_value + half_width, fillcolor=_rgba(COLORS["estimate"], 0.12),
                         line_width=0, edge=COLORS["estimate"])]
    if lo < 0:
        spans.append(legend_span("vrect", _("negative"), x0=lo, x1=min(0.0, hi),
                                 fillcolor=_rgba(COLORS["statistic"], 0.12), line_width=0,
                                 edge=COLORS["statistic"]))
    grid = np.linspace(lo, hi, 400)
    data = [
        dict(type="bar", x=mids, y=density, width=width,
             name=_("{n} simulated releases", n=f"{releases.size:,}"),
             marker=dict(color=COLORS["private"]), opacity=0.85,
             hovertemplate=_("released %{x:,.4~r}<br>density %{y:.3~r}<extra></extra>")),
        dict(type="scatter", x=grid, y=stats.norm.pdf(grid, loc=true_value, scale=sigma),
             mode="lines", name=_("theory N(true, σ²), σ = {sigma}", sigma=_num(sigma)),
             line=dict(color=COLORS["theory"], width=3), hoverinfo="skip"),
    ]
    spans.append(legend_span("vline", _("true {value}", value=_num(true_value)), x=true_value,
                             line=dict(color=COLORS["original"], width=3)))
    data += [entry for _shape, entry in spans]
    return figure(data, dict(
        height=380, bargap=0, legend=dict(y=1.1), margin=dict(t=80),
        shapes=[shape for shape, _entry in spans],
        xaxis=dict(title=dict(text=_("released value"))),
        yaxis=dict(title=dict(text=_("density"))),
    ))


def histogram_release_figure(labels, true_counts, released, *, half_width: float) -> go.Figure:
    """True counts and one Gaussian release per bin, the release with ± half_width bars."""
    labels = inert_labels(labels)  # user text: shown as typed, never as HTML
    data = [
        dict(type="bar", x=labels, y=np.asarray(true_counts, float), name=_("true count"),
             marker=dict(color=COLORS["original"]),
             hovertemplate=_("bin %{x}<br>true %{y:,.0f}<extra></extra>")),
        dict(type="bar", x=labels, y=np.asarray(released, float),
             name=_("released (true + N(0, σ²))"), marker=dict(color=COLORS["private"]),
             error_y=dict(type="constant", value=float(half_width), color=COLORS["reference"],
                          thickness=1),
             hovertemplate=_("bin %{x}<br>released %{y:,.1f}<extra></extra>")),
    ]
    zero, _label = span("hline", y=0, line=dict(color=COLORS["reference"], width=1))
    return figure(data, dict(
        barmode="group", bargap=0.15, height=400, shapes=[zero],
        xaxis=dict(title=dict(text=_("bin")), type="category"),
        yaxis=dict(title=dict(text=_("count")), **COUNT_AXIS),
    ))
