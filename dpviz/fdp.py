"""Figures of f-DP and Gaussian DP: trade-off curves, the attacker's test, δ(ε).

The page "f-DP and Gaussian DP"; :data:`FDP_COLORS` gives one colour per
kind of trade-off curve.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from dpviz.style import COLORS, OKABE_ITO, PROBABILITY_AXIS, _rgba, figure, legend_span, span
from dpviz.text import N_, _

__all__ = [
    "FDP_COLORS",
    "attacker_test_figure",
    "delta_curve_figure",
    "tradeoff_figure",
]


# One colour per kind of curve on the page "f-DP and Gaussian DP", taken from COLORS
# (Okabe-Ito) plus the palette's black for the eighth curve.
FDP_COLORS = {
    "gdp": COLORS["theory"],  # G_mu
    "epsdelta": COLORS["B"],  # f_{eps,delta}
    "gaussian": COLORS["original"],  # Gaussian mechanism
    "laplace": COLORS["private"],  # Laplace mechanism
    "krr": COLORS["estimate"],  # k-ary randomised response (and random substitution)
    "histogram": OKABE_ITO["black"],  # truncated Laplace histogram mechanism
    "target": COLORS["statistic"],  # the target curve, and where curves fail it
    "identity": COLORS["reference"],  # Id(alpha) = 1 - alpha
}

# Hover labels use d3's "r" format: significant digits in decimal notation, never "2.9e-7".
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _num(v, digits: int = 3) -> str:
    """A label's number: text as given; a number to ``digits`` significant digits, never in
    e-notation (2.9·10⁻⁷) and never a positive number written as 0."""
    if isinstance(v, str):
        return v
    text = f"{float(v) + 0.0:.{digits}g}"
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return f"{mantissa}·10{str(int(exponent)).translate(_SUPERSCRIPT)}"


_ALPHA_TITLE = N_("type-I error α")
_BETA_TITLE = N_("type-II error β")


def _square_unit_axes() -> dict:
    """α and β axes from 0 to 1, one unit as long on both (the layout's xaxis and yaxis)."""
    return dict(
        xaxis=dict(range=[0, 1], title=dict(text=_(_ALPHA_TITLE)), constrain="domain", dtick=0.2,
                   zeroline=False, **PROBABILITY_AXIS),
        yaxis=dict(range=[0, 1], title=dict(text=_(_BETA_TITLE)), scaleanchor="x", scaleratio=1,
                   constrain="domain", dtick=0.2, zeroline=False, **PROBABILITY_AXIS),
    )


def tradeoff_figure(
    curves,
    *,
    failing=None,
    point=None,
    target=None,
    corner: bool = False,
    height: int = 560,
) -> go.Figure:
    """Trade-off curves on the unit square, with the identity line Id(α) = 1 − α.

    ``curves`` is a sequence of ``(name, alpha, beta, color, dash)``: one
    line each, in order. Optional:

    - ``target``: ``(name, alpha, beta)``, the curve to meet, drawn thick
      and dash-dotted in ``FDP_COLORS["target"]``;
    - ``failing``: a sequence of ``(name, alpha, beta)``, the points where a
      curve lies below the target; each non-empty one is drawn as a band of
      translucent vermillion dots under the curves (nothing is drawn for
      ``None`` or empty arrays);
    - ``point``: ``(alpha, beta)`` or ``(alpha, beta, label)``, one test
      marked by a large dot;
    - ``corner``: mark (0, 0), the perfect attacker who never errs.
    """
    grid = np.array([0.0, 1.0])
    data = [dict(
        type="scatter", x=grid, y=1.0 - grid, mode="lines",
        name=_("Id(α) = 1 − α (perfect privacy)"),
        line=dict(color=FDP_COLORS["identity"], width=1.5, dash="dot"), hoverinfo="skip",
    )]
    if corner:
        data.append(dict(
            type="scatter", x=[0.0], y=[0.0], mode="markers+text",
            name=_("perfect attacker (0, 0)"),
            marker=dict(color="#000000", size=11, symbol="star"),
            text=[_("perfect attacker")], textposition="top right", cliponaxis=False,
            hovertemplate=_("α = 0, β = 0: never wrong<extra></extra>"),
        ))
    if target is not None:
        name, alpha, beta = target
        data.append(dict(
            type="scatter", x=np.asarray(alpha, dtype=float), y=np.asarray(beta, dtype=float),
            mode="lines", name=_("target: {name}", name=name),
            line=dict(color=FDP_COLORS["target"], width=4, dash="dashdot"),
            hovertemplate=_("α %{x:.3f}<br>β %{y:.4r}<extra>target</extra>"),
        ))
    for name, alpha, beta in failing or ():
        alpha = np.asarray(alpha, dtype=float)
        if alpha.size == 0:
            continue
        data.append(dict(
            type="scatter", x=alpha, y=np.asarray(beta, dtype=float), mode="markers",
            name=_("{name}: below the target", name=name),
            marker=dict(color=FDP_COLORS["target"], symbol="circle", size=14, opacity=0.25),
            hovertemplate=_("α %{x:.3f}<br>β %{y:.4r}<extra>fails the target</extra>"),
        ))
    for name, alpha, beta, color, dash in curves:
        data.append(dict(
            type="scatter", x=np.asarray(alpha, dtype=float), y=np.asarray(beta, dtype=float),
            mode="lines", name=name, line=dict(color=color, width=2.5, dash=dash),
            hovertemplate="α %{x:.3f}<br>β %{y:.4r}<extra>" + name + "</extra>",
        ))
    if point is not None:
        a, b = float(point[0]), float(point[1])
        label = point[2] if len(point) > 2 else _("test: α = {alpha}, β = {beta}",
                                                  alpha=_num(a), beta=_num(b))
        data.append(dict(
            type="scatter", x=[a], y=[b], mode="markers", name=label,
            marker=dict(color=COLORS["statistic"], size=14, line=dict(color="white", width=2)),
            hovertemplate="α %{x:.4r}<br>β %{y:.4r}<extra></extra>",
        ))
    return figure(data, dict(
        # the legend above the plot, as on every figure (the top margin grows with it): below
        # it, at a fraction of the height, it met the α axis title on short figures
        height=height, margin=dict(l=60, r=20, t=30, b=50),
        **_square_unit_axes(),
    ))


def attacker_test_figure(
    x,
    pdf0,
    pdf1,
    threshold: float,
    *,
    alpha: float | None = None,
    beta: float | None = None,
    names=None,
    threshold_text: str | None = None,
    height: int = 420,
) -> go.Figure:
    """The attacker's threshold test: two densities, the threshold, both errors shaded.

    The test rejects "the data set is D" when the output exceeds
    ``threshold``: its type-I error α is the area under ``pdf0`` right of
    the threshold, its type-II error β the area under ``pdf1`` left of it.
    ``alpha`` and ``beta`` (their values, or their text as the page writes them) only label
    the shaded areas; ``threshold_text`` the threshold line (by default t to 3 digits).
    ``names``: the two densities' legend names (by default "output on D", "output on D′").
    """
    if names is None:
        names = (_("output on D"), _("output on D′"))
    x = np.asarray(x, dtype=float)
    pdf0 = np.asarray(pdf0, dtype=float)
    pdf1 = np.asarray(pdf1, dtype=float)
    t = float(threshold)
    right = x > t
    left = x <= t
    y0_t = float(np.interp(t, x, pdf0))
    y1_t = float(np.interp(t, x, pdf1))
    a_name = (_("type-I error α: D, but X > t") if alpha is None else
              _("type-I error α = {alpha}: D, but X > t", alpha=_num(alpha)))
    b_name = (_("type-II error β: D′, but X ≤ t") if beta is None else
              _("type-II error β = {beta}: D′, but X ≤ t", beta=_num(beta)))
    # Shaded areas first, the density lines on top of them.
    data = []
    if t <= x[-1]:
        data.append(dict(
            type="scatter", x=np.r_[t, x[right]], y=np.r_[y0_t, pdf0[right]], mode="lines",
            fill="tozeroy", name=a_name, line=dict(width=0),
            fillcolor=_rgba(COLORS["original"], 0.35), hoverinfo="skip",
        ))
    if t >= x[0]:
        data.append(dict(
            type="scatter", x=np.r_[x[left], t], y=np.r_[pdf1[left], y1_t], mode="lines",
            fill="tozeroy", name=b_name, line=dict(width=0),
            fillcolor=_rgba(COLORS["private"], 0.40), hoverinfo="skip",
        ))
    for y, name, color in ((pdf0, names[0], COLORS["original"]),
                           (pdf1, names[1], COLORS["private"])):
        data.append(dict(
            type="scatter", x=x, y=y, mode="lines", name=name, line=dict(color=color, width=3),
            hovertemplate=_("x %{x:.2f}<br>density %{y:.3f}<extra>{name}</extra>", name=name),
        ))
    # the threshold's label in the legend: beside its line it met the densities' peak
    line, entry = legend_span(
        "vline", _("threshold t = {t}: reject D if X > t", t=threshold_text or _num(t)),
        x=t, line=dict(color="#000000", width=2, dash="dash"))
    data.append(entry)
    return figure(data, dict(
        height=height, margin=dict(t=90), legend=dict(y=1.08),
        shapes=[line],
        xaxis=dict(title=dict(text=_("output X")), range=[float(x[0]), float(x[-1])]),
        yaxis=dict(title=dict(text=_("density")),
                   range=[0, 1.08 * float(max(pdf0.max(), pdf1.max()))]),
    ))


def delta_curve_figure(eps, delta, *, mu: float, point=None, height: int = 420,
                       others=()) -> go.Figure:
    """δ(ε) of μ-GDP against ε, log-scaled when δ is positive somewhere.

    ``point`` = ``(eps, delta)`` or ``(eps, delta, label)`` marks one reading of the curve
    with guide lines to both axes. Zero values cannot be drawn on a log axis and are
    left out there (δ = 0 exactly only for μ = 0 or once it underflows).
    ``others``: more curves, dicts with ``name``, ``eps``, ``delta``,
    ``color`` and optionally ``dash`` and ``mode`` ("lines" or "markers").
    """
    eps = np.asarray(eps, dtype=float)
    delta = np.asarray(delta, dtype=float)
    positive = delta > 0
    log_y = bool(np.any(positive))
    data = [dict(
        type="scatter", x=eps[positive] if log_y else eps,
        y=delta[positive] if log_y else delta, mode="lines",
        name=_("δ(ε) of μ-GDP, μ = {mu}", mu=f"{mu:g}"),
        line=dict(color=FDP_COLORS["gdp"], width=3),
        hovertemplate="ε %{x:.3f}<br>δ %{y:.3r}<extra></extra>",
    )]
    for other in others:
        ox = np.asarray(other["eps"], dtype=float)
        oy = np.asarray(other["delta"], dtype=float)
        keep = oy > 0 if log_y else np.ones(oy.shape, bool)
        mode = other.get("mode", "lines")
        data.append(dict(
            type="scatter", x=ox[keep], y=oy[keep], mode=mode, name=other["name"],
            line=dict(color=other["color"], width=2, dash=other.get("dash", "dash")),
            marker=dict(color=other["color"], size=8, symbol="circle-open", line=dict(width=2)),
            hovertemplate="ε %{x:.3f}<br>δ %{y:.3r}<extra></extra>",
        ))
    yaxis = dict(title=dict(text="δ(ε)"))
    if log_y:
        yaxis.update(type="log", exponentformat="power")
    layout = dict(height=height, yaxis=yaxis,
                  xaxis=dict(title=dict(text="ε"), range=[float(eps.min()), float(eps.max())]))
    if point is not None:
        e, d = float(point[0]), float(point[1])
        if d > 0 or not log_y:
            data.append(dict(
                type="scatter", x=[e], y=[d], mode="markers",
                name=point[2] if len(point) > 2 else f"ε = {_num(e)} → δ = {_num(d)}",
                marker=dict(color=COLORS["statistic"], size=13, line=dict(color="white", width=2)),
                hovertemplate="ε %{x:.3f}<br>δ %{y:.3r}<extra></extra>",
            ))
        guide, _label = span("vline", x=e,
                             line=dict(color=COLORS["reference"], width=1, dash="dot"))
        layout["shapes"] = [guide]
    return figure(data, layout)
