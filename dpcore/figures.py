"""Plotly figure builders: pure functions from numbers to figures.

One colour scheme for every page (Okabe & Ito's colour-blind safe palette):
original data, privatised data, estimates and theory curves keep the same
colour everywhere.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.express as px
import plotly.graph_objects as go
from plotly.subplots import make_subplots
from scipy import stats

from dpcore.homogeneity import debias_thresholds, expected_noisy_count

__all__ = [
    "COLORS",
    "OKABE_ITO",
    "figure_data",
    "figure_html",
    "debias_figure",
    "histograms_figure",
    "null_distribution_figure",
    "null_statistics_figure",
    "rejection_figure",
    "study_figure",
]

# The colour-blind-safe palette of Okabe & Ito (2008), "Color Universal Design".
OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
}

# One meaning per colour on every page; all but the grey of reference lines are Okabe-Ito.
COLORS = {
    "original": OKABE_ITO["blue"],
    "private": OKABE_ITO["orange"],
    "estimate": OKABE_ITO["bluish green"],
    "theory": OKABE_ITO["reddish purple"],
    "statistic": OKABE_ITO["vermillion"],
    "reference": "#7F7F7F",  # grey
    "A": OKABE_ITO["orange"],
    "B": OKABE_ITO["sky blue"],
}

_LAYOUT = dict(
    template="plotly_white",
    margin=dict(l=60, r=20, t=60, b=50),
    legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0),
    font=dict(size=14),
)


def _rgba(hex_color: str, alpha: float) -> str:
    """A "#rrggbb" colour of the scheme as a CSS rgba() string with opacity ``alpha``."""
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


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
    labels = [str(v) for v in labels]
    fig = make_subplots(
        rows=1, cols=2, shared_yaxes=True, subplot_titles=(name_a, name_b),
        horizontal_spacing=0.04,
    )
    series = (
        ("original", "original C", ",.0f"),
        ("private", "private X = max(0, C + Z)", ",.1f"),
    )
    for col, values in ((1, (original_a, private_a)), (2, (original_b, private_b))):
        for (kind, name, fmt), y in zip(series, values):
            if y is None:
                continue
            fig.add_trace(
                go.Bar(
                    x=labels, y=np.asarray(y), name=name, marker_color=COLORS[kind],
                    legendgroup=kind, showlegend=col == 1,
                    hovertemplate=f"bin %{{x}}<br>{kind} %{{y:{fmt}}}<extra></extra>",
                ),
                row=1, col=col,
            )
    fig.update_layout(barmode="group", bargap=0.1, bargroupgap=0.0, height=400, **_LAYOUT)
    fig.update_layout(legend=dict(y=1.14), margin=dict(t=80))
    fig.update_yaxes(title_text="count", row=1, col=1)
    fig.update_xaxes(title_text="bin", type="category")
    return fig


def null_distribution_figure(
    null_distribution,
    statistic: float,
    critical_value: float,
    *,
    df: int | None = None,
    level: float = 0.05,
) -> go.Figure:
    """Bootstrap null distribution with the observed T and the critical value.

    With ``df`` the chi-square(df) density the naive test refers to is
    overlaid, so the gap between the two reference distributions shows.
    When T lies far beyond the null distribution the axis is not stretched
    to it; an arrow at the right edge gives its value instead.
    """
    null = np.asarray(null_distribution, dtype=float)
    hi = max(float(np.quantile(null, 0.995)) * 1.15, critical_value * 1.2)
    if df is not None:
        hi = max(hi, float(stats.chi2.ppf(0.999, df)))
    off_chart = statistic > hi
    if not off_chart:
        hi = max(hi, statistic * 1.1)
    fig = go.Figure()
    fig.add_trace(
        go.Histogram(
            x=null, histnorm="probability density", name=f"bootstrap null (B = {null.size:,})",
            marker_color=COLORS["estimate"], opacity=0.65, nbinsx=60,
            hovertemplate="T_b %{x}<br>density %{y:.3g}<extra></extra>",
        )
    )
    if df is not None:
        grid = np.linspace(0.0, hi, 400)
        fig.add_trace(
            go.Scatter(
                x=grid, y=stats.chi2.pdf(grid, df), mode="lines",
                name=f"χ²({df}) (naive test's reference)",
                line=dict(color=COLORS["theory"], width=2, dash="dot"),
                hovertemplate="%{x:.1f}<extra>χ² density</extra>",
            )
        )
    fig.add_vline(
        x=critical_value, line=dict(color=COLORS["reference"], dash="dash", width=2),
        annotation_text=f"{100 * (1 - level):g}% critical value {critical_value:,.1f}",
        annotation_position="top left",
    )
    if off_chart:
        fig.add_annotation(
            x=hi, y=0, xref="x", yref="paper", ax=-80, ay=-60, showarrow=True,
            arrowhead=2, arrowcolor=COLORS["statistic"],
            text=f"observed T = {statistic:,.1f} →", font=dict(color=COLORS["statistic"]),
        )
    else:
        fig.add_vline(
            x=statistic, line=dict(color=COLORS["statistic"], width=3),
            annotation_text=f"observed T = {statistic:,.1f}",
            annotation_position="bottom left" if statistic > 0.7 * hi else "top right",
        )
    fig.update_layout(height=380, xaxis_title="statistic", yaxis_title="density", **_LAYOUT)
    fig.update_xaxes(range=[0, hi])
    return fig


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
    line X = C, the thresholds 1/alpha and k(alpha) of eq. (4.2), and each
    observed private count X_j at (C-tilde_j, X_j), i.e. at its debiased
    value. The axes cover every observed count, or with ``zoom`` only the
    region where debiasing acts (up to 3 k(alpha), as the paper's Figure 4);
    counts beyond it are used as they are and their number is noted.
    """
    th = {name_a: debias_thresholds(alpha_a), name_b: debias_thresholds(alpha_b)}
    c_max = max(3.0 * max(t.upper, t.lower) for t in th.values())
    if not zoom:
        largest = max(np.max(private_a, initial=0.0), np.max(private_b, initial=0.0))
        c_max = max(c_max, 1.05 * float(largest))
    grid = np.linspace(0.0, c_max, 400)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=grid, y=grid, mode="lines", name="X = C (no bias)",
            line=dict(color=COLORS["reference"], width=1.5),
            hoverinfo="skip",
        )
    )
    same = th[name_a].alpha == th[name_b].alpha
    curves = [(f"{name_a} and {name_b}", th[name_a], "solid")] if same else [
        (name_a, th[name_a], "solid"), (name_b, th[name_b], "dash"),
    ]
    for label, t, dash in curves:
        fig.add_trace(
            go.Scatter(
                x=grid, y=expected_noisy_count(grid, t.alpha), mode="lines",
                name=f"g(C), α = {t.alpha:g}" + ("" if same else f" ({label})"),
                line=dict(color=COLORS["theory"], width=3, dash=dash),
                hovertemplate="C %{x:.1f}<br>g(C) %{y:.1f}<extra></extra>",
            )
        )
        for y, what, pos in ((t.lower, "1/α", "bottom right"), (t.upper, "k(α)", "top right")):
            if what == "k(α)" and t.upper == t.lower:
                continue
            fig.add_hline(
                y=y, line=dict(color=COLORS["theory"], width=1, dash="dot"),
                annotation_text=f"{what} = {y:,.1f}" + ("" if same else f" ({label})"),
                annotation_position=pos,
            )
    beyond = 0
    for name, x, c, symbol, color in (
        (name_a, private_a, debiased_a, "circle", COLORS["A"]),
        (name_b, private_b, debiased_b, "diamond", COLORS["B"]),
    ):
        x = np.asarray(x, dtype=float)
        c = np.asarray(c, dtype=float)
        shown = x <= c_max
        beyond += int(np.count_nonzero(~shown))
        fig.add_trace(
            go.Scatter(
                x=c[shown], y=x[shown], mode="markers", name=f"observed X → C̃ ({name})",
                marker=dict(color=color, symbol=symbol, size=9, line=dict(width=1, color="white")),
                hovertemplate="X %{y:.1f} → C̃ %{x:.1f}<extra>" + name + "</extra>",
            )
        )
    if beyond:
        fig.add_annotation(
            x=0.01, y=0.99, xref="paper", yref="paper", xanchor="left", yanchor="top",
            showarrow=False, text=f"{beyond} counts above {c_max:,.0f} off the chart (there C̃ = X)",
        )
    fig.update_layout(
        height=420,
        xaxis_title="C (true count) / C̃ (debiased)", yaxis_title="X (noisy count), g(C)",
        **_LAYOUT,
    )
    fig.update_layout(margin=dict(t=80), legend=dict(y=1.1))
    fig.update_xaxes(range=[0, c_max])
    fig.update_yaxes(range=[0, max(c_max, float(expected_noisy_count(0.0, min(alpha_a, alpha_b))) * 1.1)])
    return fig


def null_statistics_figure(without_dp, with_dp, df: int, *, alpha: float) -> go.Figure:
    """Figures 2-3: the naive statistic under H0 without and with DP, and chi-square(df)."""
    without_dp = np.asarray(without_dp, dtype=float)
    with_dp = np.asarray(with_dp, dtype=float)
    hi = float(max(np.quantile(with_dp, 0.995), np.quantile(without_dp, 0.995),
                   stats.chi2.ppf(0.999, df)))
    bins = dict(start=0.0, end=hi, size=hi / 80)
    fig = go.Figure()
    for values, name, color in (
        (without_dp, "without DP (counts C)", COLORS["original"]),
        (with_dp, f"with DP (X = max(0, C + Lap(2/α)), α = {alpha:g})", COLORS["private"]),
    ):
        fig.add_trace(go.Histogram(
            x=values, histnorm="probability density", name=name, marker_color=color,
            opacity=0.6, xbins=bins,
            hovertemplate="statistic %{x}<br>density %{y:.3g}<extra></extra>",
        ))
    grid = np.linspace(0.0, hi, 400)
    fig.add_trace(go.Scatter(
        x=grid, y=stats.chi2.pdf(grid, df), mode="lines", name=f"χ²({df}) density",
        line=dict(color=COLORS["theory"], width=3), hoverinfo="skip",
    ))
    fig.add_vline(x=float(stats.chi2.ppf(0.95, df)),
                  line=dict(color=COLORS["reference"], dash="dash", width=2),
                  annotation_text="χ² 5% critical value", annotation_position="top right")
    fig.update_layout(barmode="overlay", height=420, xaxis_title="chi-square statistic (2.3)",
                      yaxis_title="density", **_LAYOUT)
    fig.update_xaxes(range=[0, hi])
    return fig


_TEST_NAMES = {"bootstrap": "parametric bootstrap", "chisq": "naive χ²"}
REJECTION_N_TITLE = "N per histogram (log scale)"
REJECTION_RATE_TITLE = "rejection rate (share of replicates)"


def rejection_figure(
    table, *, color: str = "test", facet_col: str | None = None,
    facet_row: str | None = None, level: float = 0.05, height: int = 420,
    category_orders: dict | None = None,
) -> go.Figure:
    """Rejection rate against N (log axis, titled so) with 95% intervals and the level line.

    ``table`` is tidy: one row per (setting, N, test) with columns ``n``,
    ``rate``, ``ci_low``, ``ci_high``, ``test`` and those named by ``color``,
    ``facet_col`` and ``facet_row``. The naive test is dashed, the bootstrap
    solid.
    """
    data = table.copy()
    data["test"] = data["test"].map(lambda t: _TEST_NAMES.get(t, t))
    data["err_plus"] = data["ci_high"] - data["rate"]
    data["err_minus"] = data["rate"] - data["ci_low"]
    palette = [COLORS[k] for k in ("estimate", "private", "original", "theory", "statistic")]
    if color == "test":
        color_map = {"parametric bootstrap": COLORS["estimate"], "naive χ²": COLORS["statistic"]}
    else:
        color_map = dict(zip(pd.unique(data[color]), palette))
    fig = px.line(
        data.sort_values("n"), x="n", y="rate", color=color, line_dash="test",
        line_dash_map={"parametric bootstrap": "solid", "naive χ²": "dash"},
        color_discrete_map=color_map, facet_col=facet_col, facet_row=facet_row,
        error_y="err_plus", error_y_minus="err_minus", log_x=True, markers=True,
        category_orders=category_orders or {},
        hover_data={"ci_low": ":.3f", "ci_high": ":.3f", "err_plus": False, "err_minus": False},
        labels={"n": "N (per histogram)", "rate": "rejection rate", "test": "test"},
    )
    fig.add_hline(y=level, line=dict(color=COLORS["reference"], dash="dot", width=1.5),
                  annotation_text=f"{level:.0%} level", annotation_position="bottom right")
    fig.update_yaxes(range=[-0.02, 1.02])
    # Axis titles say the N axis is logarithmic and what a rate counts. Set on the axes
    # that px titled (one row and one column of a facet grid): px's labels also name the
    # values in the hover text, which keeps the short names.
    fig.for_each_xaxis(lambda ax: ax.update(title_text=REJECTION_N_TITLE) if ax.title.text
                       else None)
    fig.for_each_yaxis(lambda ax: ax.update(title_text=REJECTION_RATE_TITLE) if ax.title.text
                       else None)
    # Facet titles read "M = 86" rather than "M=M = 86".
    fig.for_each_annotation(lambda a: a.update(text=a.text.split("=", 1)[-1].strip()))
    fig.update_layout(height=height, template="plotly_white", font=dict(size=13),
                      margin=dict(l=60, r=20, t=60, b=50))
    if facet_col or facet_row:  # a long legend goes above the grid of panels
        fig.update_layout(legend=dict(orientation="h", yanchor="bottom", y=1 + 50 / height,
                                      xanchor="left", x=0, title_text=""),
                          margin=dict(t=130))
    return fig


def study_figure(table) -> go.Figure:
    """The calibration study's grid: rows by privacy levels, columns by M, colour by pair."""
    data = table.copy()
    data["privacy"] = [
        f"α = {a:g}" if a == b else f"α₁ = {a:g}, α₂ = {b:g}"
        for a, b in zip(data["alpha1"], data["alpha2"])
    ]
    data["M"] = data["m"].map(lambda m: f"M = {m}")
    data["pair"] = data["pair"].str.replace("_", " ") + " (" + data["effect"] + ")"
    # Equal levels first, weakest privacy first (the paper's Figures 9-11), then Figure 12's.
    levels = data.drop_duplicates("privacy")
    order = sorted(zip(levels["alpha1"], levels["alpha2"], levels["privacy"]),
                   key=lambda t: (t[0] != t[1], -t[0], -t[1]))
    rows = data["privacy"].nunique()
    return rejection_figure(
        data, color="pair", facet_col="M", facet_row="privacy", height=max(460, 260 * rows),
        category_orders={
            "M": [f"M = {m}" for m in sorted(data["m"].unique(), reverse=True)],
            "privacy": [label for _, _, label in order],
        },
    )


# ---------------------------------------------------------------------------
# f-DP and Gaussian DP: the attacker's test, trade-off curves, delta(eps)
# ---------------------------------------------------------------------------

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
__all__ += ["FDP_COLORS", "attacker_test_figure", "delta_curve_figure", "tradeoff_figure"]

_ALPHA_TITLE = "type-I error α"
_BETA_TITLE = "type-II error β"


def _square_unit_axes(fig: go.Figure) -> None:
    """α and β axes from 0 to 1, one unit as long on both."""
    fig.update_xaxes(range=[0, 1], title_text=_ALPHA_TITLE, constrain="domain",
                     dtick=0.2, zeroline=False)
    fig.update_yaxes(range=[0, 1], title_text=_BETA_TITLE, scaleanchor="x", scaleratio=1,
                     constrain="domain", dtick=0.2, zeroline=False)


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
    fig = go.Figure()
    grid = np.array([0.0, 1.0])
    fig.add_trace(go.Scatter(
        x=grid, y=1.0 - grid, mode="lines", name="Id(α) = 1 − α (perfect privacy)",
        line=dict(color=FDP_COLORS["identity"], width=1.5, dash="dot"), hoverinfo="skip",
    ))
    if corner:
        fig.add_trace(go.Scatter(
            x=[0.0], y=[0.0], mode="markers+text", name="perfect attacker (0, 0)",
            marker=dict(color="#000000", size=11, symbol="star"),
            text=["perfect attacker"], textposition="top right", cliponaxis=False,
            hovertemplate="α = 0, β = 0: never wrong<extra></extra>",
        ))
    if target is not None:
        name, alpha, beta = target
        fig.add_trace(go.Scatter(
            x=np.asarray(alpha, dtype=float), y=np.asarray(beta, dtype=float), mode="lines",
            name=f"target: {name}",
            line=dict(color=FDP_COLORS["target"], width=4, dash="dashdot"),
            hovertemplate="α %{x:.3f}<br>β %{y:.4f}<extra>target</extra>",
        ))
    for name, alpha, beta in failing or ():
        alpha = np.asarray(alpha, dtype=float)
        if alpha.size == 0:
            continue
        fig.add_trace(go.Scatter(
            x=alpha, y=np.asarray(beta, dtype=float), mode="markers",
            name=f"{name}: below the target",
            marker=dict(color=FDP_COLORS["target"], symbol="circle", size=14, opacity=0.25),
            hovertemplate="α %{x:.3f}<br>β %{y:.4f}<extra>fails the target</extra>",
        ))
    for name, alpha, beta, color, dash in curves:
        fig.add_trace(go.Scatter(
            x=np.asarray(alpha, dtype=float), y=np.asarray(beta, dtype=float), mode="lines",
            name=name, line=dict(color=color, width=2.5, dash=dash),
            hovertemplate="α %{x:.3f}<br>β %{y:.4f}<extra>" + name + "</extra>",
        ))
    if point is not None:
        a, b = float(point[0]), float(point[1])
        label = point[2] if len(point) > 2 else f"test: α = {a:.3f}, β = {b:.3f}"
        fig.add_trace(go.Scatter(
            x=[a], y=[b], mode="markers", name=label,
            marker=dict(color=COLORS["statistic"], size=14, line=dict(color="white", width=2)),
            hovertemplate="α %{x:.4f}<br>β %{y:.4f}<extra></extra>",
        ))
    fig.update_layout(height=height, **_LAYOUT)
    fig.update_layout(margin=dict(l=60, r=20, t=30, b=50),
                      legend=dict(orientation="h", yanchor="top", y=-0.15, xanchor="left", x=0))
    _square_unit_axes(fig)
    return fig


def attacker_test_figure(
    x,
    pdf0,
    pdf1,
    threshold: float,
    *,
    alpha: float | None = None,
    beta: float | None = None,
    names=("output on D", "output on D′"),
    height: int = 420,
) -> go.Figure:
    """The attacker's threshold test: two densities, the threshold, both errors shaded.

    The test rejects "the data set is D" when the output exceeds
    ``threshold``: its type-I error α is the area under ``pdf0`` right of
    the threshold, its type-II error β the area under ``pdf1`` left of it.
    ``alpha`` and ``beta`` (their values) only label the shaded areas.
    """
    x = np.asarray(x, dtype=float)
    pdf0 = np.asarray(pdf0, dtype=float)
    pdf1 = np.asarray(pdf1, dtype=float)
    t = float(threshold)
    fig = go.Figure()
    right = x > t
    left = x <= t
    y0_t = float(np.interp(t, x, pdf0))
    y1_t = float(np.interp(t, x, pdf1))
    a_text = "" if alpha is None else f" = {alpha:.3f}"
    b_text = "" if beta is None else f" = {beta:.3f}"
    # Shaded areas first, the density lines on top of them.
    if t <= x[-1]:
        fig.add_trace(go.Scatter(
            x=np.r_[t, x[right]], y=np.r_[y0_t, pdf0[right]], mode="lines", fill="tozeroy",
            name=f"type-I error α{a_text}: D, but X > t", line=dict(width=0),
            fillcolor=_rgba(COLORS["original"], 0.35), hoverinfo="skip",
        ))
    if t >= x[0]:
        fig.add_trace(go.Scatter(
            x=np.r_[x[left], t], y=np.r_[pdf1[left], y1_t], mode="lines", fill="tozeroy",
            name=f"type-II error β{b_text}: D′, but X ≤ t", line=dict(width=0),
            fillcolor=_rgba(COLORS["private"], 0.40), hoverinfo="skip",
        ))
    for y, name, color in ((pdf0, names[0], COLORS["original"]),
                           (pdf1, names[1], COLORS["private"])):
        fig.add_trace(go.Scatter(
            x=x, y=y, mode="lines", name=name, line=dict(color=color, width=3),
            hovertemplate="x %{x:.2f}<br>density %{y:.3f}<extra>" + name + "</extra>",
        ))
    fig.add_vline(x=t, line=dict(color="#000000", width=2, dash="dash"),
                  annotation_text=f"threshold t = {t:g}: reject D if X > t",
                  annotation_position="top right")
    fig.update_layout(height=height, xaxis_title="output X", yaxis_title="density", **_LAYOUT)
    fig.update_layout(margin=dict(t=90), legend=dict(y=1.08))
    fig.update_xaxes(range=[float(x[0]), float(x[-1])])
    fig.update_yaxes(range=[0, 1.08 * float(max(pdf0.max(), pdf1.max()))])
    return fig


def delta_curve_figure(eps, delta, *, mu: float, point=None, height: int = 420,
                       others=()) -> go.Figure:
    """δ(ε) of μ-GDP against ε, log-scaled when δ is positive somewhere.

    ``point`` = ``(eps, delta)`` marks one reading of the curve with guide
    lines to both axes. Zero values cannot be drawn on a log axis and are
    left out there (δ = 0 exactly only for μ = 0 or once it underflows).
    ``others``: more curves, dicts with ``name``, ``eps``, ``delta``,
    ``color`` and optionally ``dash`` and ``mode`` ("lines" or "markers").
    """
    eps = np.asarray(eps, dtype=float)
    delta = np.asarray(delta, dtype=float)
    positive = delta > 0
    log_y = bool(np.any(positive))
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=eps[positive] if log_y else eps, y=delta[positive] if log_y else delta,
        mode="lines", name=f"δ(ε) of μ-GDP, μ = {mu:g}",
        line=dict(color=FDP_COLORS["gdp"], width=3),
        hovertemplate="ε %{x:.3f}<br>δ %{y:.3g}<extra></extra>",
    ))
    for other in others:
        ox = np.asarray(other["eps"], dtype=float)
        oy = np.asarray(other["delta"], dtype=float)
        keep = oy > 0 if log_y else np.ones(oy.shape, bool)
        mode = other.get("mode", "lines")
        fig.add_trace(go.Scatter(
            x=ox[keep], y=oy[keep], mode=mode, name=other["name"],
            line=dict(color=other["color"], width=2, dash=other.get("dash", "dash")),
            marker=dict(color=other["color"], size=8, symbol="circle-open", line=dict(width=2)),
            hovertemplate="ε %{x:.3f}<br>δ %{y:.3g}<extra></extra>",
        ))
    if point is not None:
        e, d = float(point[0]), float(point[1])
        if d > 0 or not log_y:
            fig.add_trace(go.Scatter(
                x=[e], y=[d], mode="markers", name=f"ε = {e:g} → δ = {d:.3g}",
                marker=dict(color=COLORS["statistic"], size=13, line=dict(color="white", width=2)),
                hovertemplate="ε %{x:.3f}<br>δ %{y:.3g}<extra></extra>",
            ))
        fig.add_vline(x=e, line=dict(color=COLORS["reference"], width=1, dash="dot"))
    fig.update_layout(height=height, xaxis_title="ε", yaxis_title="δ(ε)", **_LAYOUT)
    fig.update_xaxes(range=[float(eps.min()), float(eps.max())])
    if log_y:
        fig.update_yaxes(type="log", exponentformat="power")
    return fig


# ---------------------------------------------------------------------------
# Page "Gaussian mechanism"
# ---------------------------------------------------------------------------

# The exact (analytic) calibration is the μ-GDP curve, so it shares G_μ's colour.
CALIBRATION_COLORS = {
    "analytic": FDP_COLORS["gdp"],
    "tail": COLORS["private"],
    "classical": COLORS["B"],
}
__all__ += ["CALIBRATION_COLORS", "calibration_figure", "privacy_loss_figure",
            "release_distribution_figure", "histogram_release_figure"]


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
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=x[tail], y=pdf[tail], fill="tozeroy", mode="none", name=f"P(L > ε) = {tail_delta:.3g}",
        fillcolor=_rgba(CALIBRATION_COLORS["tail"], 0.35), hoverinfo="skip",
    ))
    fig.add_trace(go.Scatter(
        x=x[tail], y=weighted[tail], fill="tozeroy", mode="lines",
        name=f"exact δ = E[(1 − e^(ε−L))₊] = {exact_delta:.3g}",
        line=dict(color=CALIBRATION_COLORS["analytic"], width=1.5),
        fillcolor=_rgba(CALIBRATION_COLORS["analytic"], 0.55),
        hovertemplate="L %{x:.3f}<br>(1 − e^(ε−L)) · density %{y:.3g}<extra></extra>",
    ))
    fig.add_trace(go.Scatter(
        x=x, y=pdf, mode="lines", name=f"density of L ~ N({mean:.3g}, {var:.3g})",
        line=dict(color=COLORS["original"], width=3),
        hovertemplate="L %{x:.3f}<br>density %{y:.3g}<extra></extra>",
    ))
    fig.add_vline(x=eps, line=dict(color=COLORS["statistic"], width=2, dash="dash"),
                  annotation_text=f"ε = {eps:g}", annotation_position="top")
    fig.update_layout(height=420, xaxis_title="privacy loss L = ln p₁(o)/p₂(o)",
                      yaxis_title="density", **_LAYOUT)
    fig.update_layout(legend=dict(y=1.1), margin=dict(t=90))
    fig.update_xaxes(range=[float(lo), float(hi)])
    if log_y:
        floor = max(float(pdf.max()) * 1e-16, 1e-300)
        fig.update_yaxes(type="log", exponentformat="power",
                         range=[np.log10(floor), np.log10(float(pdf.max()) * 2)])
    return fig


def calibration_figure(table) -> go.Figure:
    """Horizontal bars of σ per calibration (a frame from ``gaussian.calibration_table``).

    Calibrations with no guarantee (``valid`` False) are drawn hatched and
    say why on hover; missing σ (no solution) are left out.
    """
    table = pd.DataFrame(table)
    table = table[np.isfinite(table["sigma"].astype(float))]
    fig = go.Figure()
    for row in table.itertuples():
        label = row.name if row.valid else f"{row.name} (no guarantee)"
        fig.add_trace(go.Bar(
            y=[row.name], x=[row.sigma], orientation="h", name=label,
            marker=dict(color=CALIBRATION_COLORS[row.method],
                        pattern=dict(shape="" if row.valid else "/")),
            text=[f"σ = {row.sigma:.4g} ({row.ratio:.3g}× exact)"], textposition="auto",
            hovertemplate=f"{row.name}<br>σ %{{x:.5g}}<br>{row.note or 'valid'}<extra></extra>",
            showlegend=False,
        ))
    fig.update_layout(height=260, xaxis_title="noise standard deviation σ", **_LAYOUT)
    fig.update_layout(margin=dict(l=20, r=20, t=20, b=50))
    fig.update_yaxes(autorange="reversed")
    return fig


def release_distribution_figure(releases, true_value: float, sigma: float, *,
                                half_width: float, nbins: int = 60) -> go.Figure:
    """Histogram of repeated releases of one number, with the N(true, σ²) density,
    the true value, the interval true ± half_width, and the releases below 0 marked."""
    releases = np.asarray(releases, dtype=float)
    lo = min(float(releases.min()), true_value - 4 * sigma)
    hi = max(float(releases.max()), true_value + 4 * sigma)
    edges = np.linspace(lo, hi, nbins + 1)
    counts, _ = np.histogram(releases, bins=edges)
    width = edges[1] - edges[0]
    density = counts / (releases.size * width)
    mids = (edges[:-1] + edges[1:]) / 2
    fig = go.Figure()
    fig.add_vrect(x0=true_value - half_width, x1=true_value + half_width,
                  fillcolor=_rgba(COLORS["estimate"], 0.12), line_width=0,
                  annotation_text="95% of releases", annotation_position="top left")
    if lo < 0:
        fig.add_vrect(x0=lo, x1=min(0.0, hi), fillcolor=_rgba(COLORS["statistic"], 0.12),
                      line_width=0, annotation_text="negative", annotation_position="top right")
    fig.add_trace(go.Bar(
        x=mids, y=density, width=width, name=f"{releases.size:,} simulated releases",
        marker_color=COLORS["private"], opacity=0.85,
        hovertemplate="released %{x:.4g}<br>density %{y:.3g}<extra></extra>",
    ))
    grid = np.linspace(lo, hi, 400)
    fig.add_trace(go.Scatter(
        x=grid, y=stats.norm.pdf(grid, loc=true_value, scale=sigma), mode="lines",
        name=f"theory N(true, σ²), σ = {sigma:.4g}", line=dict(color=COLORS["theory"], width=3),
        hoverinfo="skip",
    ))
    fig.add_vline(x=true_value, line=dict(color=COLORS["original"], width=3),
                  annotation_text=f"true {true_value:,.4g}", annotation_position="bottom right")
    fig.update_layout(height=380, xaxis_title="released value", yaxis_title="density",
                      bargap=0, **_LAYOUT)
    fig.update_layout(legend=dict(y=1.1), margin=dict(t=80))
    return fig


def histogram_release_figure(labels, true_counts, released, *, half_width: float) -> go.Figure:
    """True counts and one Gaussian release per bin, the release with ± half_width bars."""
    labels = [str(v) for v in labels]
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=labels, y=np.asarray(true_counts, float), name="true count",
        marker_color=COLORS["original"],
        hovertemplate="bin %{x}<br>true %{y:,.0f}<extra></extra>",
    ))
    fig.add_trace(go.Bar(
        x=labels, y=np.asarray(released, float), name="released (true + N(0, σ²))",
        marker_color=COLORS["private"],
        error_y=dict(type="constant", value=float(half_width), color=COLORS["reference"],
                     thickness=1),
        hovertemplate="bin %{x}<br>released %{y:,.1f}<extra></extra>",
    ))
    fig.add_hline(y=0, line=dict(color=COLORS["reference"], width=1))
    fig.update_layout(barmode="group", bargap=0.15, height=400, yaxis_title="count", **_LAYOUT)
    fig.update_xaxes(title_text="bin", type="category")
    return fig


# ---------------------------------------------------------------------------
# Randomized response (local DP): true, reported and estimated counts; MSE against ε
# ---------------------------------------------------------------------------

# One colour per k-RR estimator, all Okabe-Ito (the unbiased one is the page's "estimate"
# colour). The true and reported counts keep COLORS["original"] and COLORS["private"], and
# the exact variance COLORS["theory"], so none of those marks an estimator. Of the palette's
# two colours left, yellow is too pale for a line on white: IBU gets the palette's black.
KRR_ESTIMATOR_COLORS = {
    "unbiased": COLORS["estimate"],
    "clip": COLORS["B"],
    "simplex": COLORS["statistic"],
    "ibu": OKABE_ITO["black"],
}
__all__ += ["KRR_ESTIMATOR_COLORS", "krr_counts_figure", "krr_mse_figure"]


def krr_counts_figure(labels, true, reported, estimate, lower, upper, *,
                      estimator_name: str, height: int = 420) -> go.Figure:
    """True, reported and estimated counts per category as grouped bars.

    The estimate carries asymmetric error bars from ``lower`` to ``upper``
    (e.g. ± 2 standard errors); a line at 0 shows estimates below it.
    """
    labels = [str(v) for v in labels]
    est = np.asarray(estimate, dtype=float)
    lower = np.asarray(lower, dtype=float)
    upper = np.asarray(upper, dtype=float)
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=labels, y=np.asarray(true, dtype=float), name="true count n_v",
        marker_color=COLORS["original"],
        hovertemplate="%{x}<br>true %{y:,.0f}<extra></extra>",
    ))
    fig.add_trace(go.Bar(
        x=labels, y=np.asarray(reported, dtype=float), name="reported count N_v",
        marker_color=COLORS["private"],
        hovertemplate="%{x}<br>reported %{y:,.0f}<extra></extra>",
    ))
    fig.add_trace(go.Bar(
        x=labels, y=est, name=f"estimate n̂_v ({estimator_name}) ± 2 SE",
        marker_color=COLORS["estimate"],
        error_y=dict(type="data", symmetric=False, array=upper - est, arrayminus=est - lower,
                     color=COLORS["reference"], thickness=1.5),
        customdata=np.column_stack([lower, upper]),
        hovertemplate="%{x}<br>estimate %{y:,.1f}<br>± 2 SE: %{customdata[0]:,.1f} … "
                      "%{customdata[1]:,.1f}<extra></extra>",
    ))
    fig.add_hline(y=0, line=dict(color=COLORS["reference"], width=1))
    fig.update_layout(barmode="group", bargap=0.15, bargroupgap=0.0, height=height,
                      yaxis_title="users", **_LAYOUT)
    fig.update_xaxes(title_text="category", type="category")
    return fig


def krr_mse_figure(table, *, current_eps: float, names=None, height: int = 460) -> go.Figure:
    """MSE per category of each estimator against ε, log-log, with ± 2 SE bars.

    ``table`` has the columns of ``dpcore.ldp.krr_mse``: ``eps``, ``method``,
    ``mse``, ``se`` and ``theory`` (the exact MSE, where not NaN: drawn as a
    dashed line). ``names`` maps methods to legend names. A vertical line
    marks ``current_eps``.
    """
    table = pd.DataFrame(table)
    names = names or {}
    fig = go.Figure()
    theory = table.dropna(subset=["theory"]).drop_duplicates("eps").sort_values("eps")
    if len(theory):
        fig.add_trace(go.Scatter(
            x=theory["eps"].to_numpy(float), y=theory["theory"].to_numpy(float), mode="lines",
            name="exact MSE of the unbiased estimator (theory)",
            line=dict(color=COLORS["theory"], width=3, dash="dash"),
            hovertemplate="ε %{x:g}<br>exact MSE %{y:.4g}<extra>theory</extra>",
        ))
    for method, rows in table.groupby("method", sort=False):
        rows = rows.sort_values("eps")
        se = rows["se"].to_numpy(float)
        fig.add_trace(go.Scatter(
            x=rows["eps"].to_numpy(float), y=rows["mse"].to_numpy(float),
            mode="lines+markers", name=names.get(method, method),
            line=dict(color=KRR_ESTIMATOR_COLORS.get(method, COLORS["reference"]), width=2),
            marker=dict(size=7),
            error_y=dict(type="data", array=2 * np.nan_to_num(se), thickness=1),
            hovertemplate="ε %{x:g}<br>MSE %{y:.4g}<extra>" + names.get(method, method)
                          + "</extra>",
        ))
    fig.add_vline(x=float(current_eps), line=dict(color=COLORS["reference"], width=2, dash="dot"))
    fig.add_annotation(x=float(np.log10(current_eps)), y=1, xref="x", yref="paper",
                       text=f"ε = {current_eps:g}", showarrow=False, yanchor="bottom",
                       xanchor="left")
    fig.update_layout(height=height, xaxis_title="ε (log scale)",
                      yaxis_title="MSE per category (users², log scale)", **_LAYOUT)
    fig.update_layout(legend=dict(y=1.08), margin=dict(t=90))
    fig.update_xaxes(type="log")
    fig.update_yaxes(type="log", exponentformat="power")
    return fig


# ---------------------------------------------------------------------------
# Random substitution: release, reconstruction, error, cost, privacy and bias against l
# ---------------------------------------------------------------------------

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
SUBSTITUTION_NAMES = {"source": "X̂*/l = M⁻¹Y*/l (source)", "unbiased": "A⁻¹Y* (unbiased)"}
__all__ += ["SUBSTITUTION_COLORS", "SUBSTITUTION_NAMES", "substitution_bias_figure",
            "substitution_cost_figure", "substitution_counts_figure",
            "substitution_epsilon_figure", "substitution_error_figure"]


def _log_ticks(values) -> list[float]:
    """Ticks 1, 2, 3, 5 × 10^k covering the finite positive ``values``, for a log axis."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v) & (v > 0)]
    if v.size == 0:
        return [1.0]
    lo, hi = np.floor(np.log10(v.min())), np.ceil(np.log10(v.max()))
    ticks = [m * 10.0 ** k for k in range(int(lo), int(hi) + 1) for m in (1, 2, 3, 5)]
    # one tick beyond each end, so the axis range is labelled at both ends
    below = [t for t in ticks if t <= v.min()][-1:]
    above = [t for t in ticks if t >= v.max()][:1]
    return below + [t for t in ticks if v.min() < t < v.max()] + above


def _lines(points: int) -> str:
    """Scatter mode of a curve against l: lines, or a marker when it has one point only."""
    return "lines" if points > 1 else "markers"


def _current_l_line(fig: go.Figure, current_l: int, **where) -> None:
    """A dotted vertical line at the chosen l (in every panel given by ``where``)."""
    fig.add_vline(x=float(current_l), line=dict(color=COLORS["reference"], width=2, dash="dot"),
                  **where)


def substitution_counts_figure(labels, original, released, source, unbiased, *, l: int = 1,
                               height: int = 440) -> go.Figure:
    """One release per category: X and Y*/l as bars, both reconstructions as markers.

    ``released`` are the released counts Y* (Y at l = 1), drawn divided by l
    so that they share the scale of X; ``source`` is X̂*/l = M⁻¹Y*/l and
    ``unbiased`` A⁻¹Y*. At l = 1 both reconstructions are Theorem 3.2's and
    their markers coincide (a cross inside a circle).
    """
    labels = [str(v) for v in labels]
    l = int(l)
    released = np.asarray(released, dtype=float)
    shown = released / l
    name_released = "released Y" if l == 1 else f"released Y*/l (Y*/{l})"
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=labels, y=np.asarray(original, dtype=float), name="original X",
        marker_color=COLORS["original"],
        hovertemplate="%{x}<br>X %{y:,.0f}<extra></extra>",
    ))
    fig.add_trace(go.Bar(
        x=labels, y=shown, name=name_released, marker_color=COLORS["private"],
        customdata=released,
        hovertemplate="%{x}<br>" + ("Y %{y:,.0f}" if l == 1 else
                                    f"Y* %{{customdata:,.0f}}, Y*/{l} %{{y:,.1f}}")
                      + "<extra></extra>",
    ))
    for kind, values, symbol in (("unbiased", unbiased, "circle-open"),
                                 ("source", source, "x-thin-open")):
        fig.add_trace(go.Scatter(
            x=labels, y=np.asarray(values, dtype=float), mode="markers",
            name=SUBSTITUTION_NAMES[kind],
            marker=dict(color=SUBSTITUTION_COLORS[kind], symbol=symbol, size=9,
                        line=dict(width=2, color=SUBSTITUTION_COLORS[kind])),
            hovertemplate="%{x}<br>estimate %{y:,.1f}<extra>" + SUBSTITUTION_NAMES[kind]
                          + "</extra>",
        ))
    fig.add_hline(y=0, line=dict(color=COLORS["reference"], width=1))
    fig.update_layout(barmode="group", bargap=0.15, bargroupgap=0.0, height=height,
                      yaxis_title="records", **_LAYOUT)
    fig.update_layout(legend=dict(y=1.08), margin=dict(t=80))
    fig.update_xaxes(title_text="category", type="category")
    return fig


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
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=l_values, y=curves["bound"].to_numpy(float), mode=_lines(len(l_values)),
        name="Theorem 4.1 bound / √l", line=dict(color=SUBSTITUTION_COLORS["bound"], width=3,
                                                  dash="dash"),
        hovertemplate="l %{x}<br>bound / √l %{y:.4g}<extra></extra>",
    ))
    for kind in ("source", "unbiased"):
        fig.add_trace(go.Scatter(
            x=l_values, y=curves[kind].to_numpy(float), mode=_lines(len(l_values)),
            name=f"exact error, {SUBSTITUTION_NAMES[kind]}",
            line=dict(color=SUBSTITUTION_COLORS[kind], width=2),
            hovertemplate="l %{x}<br>exact %{y:.4g}<extra>" + SUBSTITUTION_NAMES[kind]
                          + "</extra>",
        ))
    if points is not None:
        for row in pd.DataFrame(points).itertuples():
            fig.add_trace(go.Scatter(
                x=[float(current_l)], y=[float(row.actual)], mode="markers",
                name=f"simulated, {SUBSTITUTION_NAMES[row.estimator]} (± 2 SE)",
                marker=dict(color=SUBSTITUTION_COLORS[row.estimator], size=10,
                            symbol="diamond", line=dict(width=1, color="white")),
                error_y=dict(type="data", array=[2 * float(np.nan_to_num(row.actual_se))],
                             thickness=1.5, color=SUBSTITUTION_COLORS[row.estimator]),
                hovertemplate="l %{x}<br>simulated %{y:.4g}<extra>"
                              + SUBSTITUTION_NAMES[row.estimator] + "</extra>",
            ))
    _current_l_line(fig, current_l)
    fig.add_annotation(x=float(current_l), y=1, xref="x", yref="paper", text=f"l = {current_l}",
                       showarrow=False, yanchor="bottom", xanchor="left")
    fig.update_layout(height=height, xaxis_title="l (values released per record)",
                      yaxis_title="σ_X̂ / ‖X‖ (log scale)", **_LAYOUT)
    fig.update_layout(legend=dict(y=1.08), margin=dict(t=110))
    shown = [curves[c].to_numpy(float) for c in ("bound", "source", "unbiased")]
    if points is not None:
        shown.append(pd.DataFrame(points)["actual"].to_numpy(float))
    fig.update_yaxes(type="log", tickvals=_log_ticks(np.concatenate(shown)), tickformat=".3~g")
    return fig


def substitution_epsilon_figure(table, *, current_l: int, log_gamma: float,
                                height: int = 440) -> go.Figure:
    """ε of the l-extended release against l, log y, with ln γ (l = 1) as reference.

    ``table`` has the columns ``l``, ``bound`` (the source's l × ln γ, from
    γ^l), ``ordered`` (ε if the order of the l values were released) and
    ``exact`` (the exact ε_l of the released set).
    """
    table = pd.DataFrame(table).sort_values("l")
    l_values = table["l"].to_numpy(float)
    fig = go.Figure()
    series = (("bound", "source's bound l × ln γ (from γ^l)", "dash", 3),
              ("ordered", "exact ε if the order were released", "solid", 2),
              ("exact", "exact ε_l of the released set", "solid", 3))
    for kind, name, dash, width in series:
        fig.add_trace(go.Scatter(
            x=l_values, y=table[kind].to_numpy(float), mode=_lines(len(l_values)), name=name,
            line=dict(color=SUBSTITUTION_COLORS[kind], width=width, dash=dash),
            hovertemplate="l %{x}<br>ε %{y:.4g}<extra>" + name + "</extra>",
        ))
    fig.add_hline(y=float(log_gamma), line=dict(color=COLORS["reference"], width=1.5, dash="dot"))
    # On a log axis an annotation's y is log10 of the value.
    fig.add_annotation(x=1, xref="paper", y=float(np.log10(log_gamma)), yref="y",
                       text=f"ln γ = {log_gamma:.3g} (l = 1, k-RR)", showarrow=False,
                       xanchor="right", yanchor="top")
    _current_l_line(fig, current_l)
    fig.update_layout(height=height, xaxis_title="l (values released per record)",
                      yaxis_title="ε (log scale)", **_LAYOUT)
    fig.update_layout(legend=dict(y=1.08), margin=dict(t=90))
    shown = np.concatenate([table[c].to_numpy(float) for c in ("bound", "ordered", "exact")])
    fig.update_yaxes(type="log", tickvals=_log_ticks(shown), tickformat=".3~g")
    return fig


def substitution_cost_figure(table, *, current_l: int, height: int = 380) -> go.Figure:
    """Two panels against l: expected draws / (n·l), and the collision probability.

    ``table`` has the columns ``l``, ``draws_ratio`` (E[draws]/(n·l), 1 means no
    re-draws) and ``collision`` (Theorem 5.1's P[s ≥ 2]).
    """
    table = pd.DataFrame(table).sort_values("l")
    l_values = table["l"].to_numpy(float)
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.12, subplot_titles=(
        "expected draws / (n·l)", "P[s ≥ 2]: a repeat among l independent draws"))
    fig.add_trace(go.Scatter(
        x=l_values, y=table["draws_ratio"].to_numpy(float), mode="lines+markers",
        name="expected draws / (n·l)", line=dict(color=SUBSTITUTION_COLORS["draws"], width=2),
        marker=dict(size=5), hovertemplate="l %{x}<br>draws / (n·l) %{y:.4g}<extra></extra>",
    ), row=1, col=1)
    fig.add_trace(go.Scatter(
        x=l_values, y=table["collision"].to_numpy(float), mode="lines+markers",
        name="collision probability (Theorem 5.1)",
        line=dict(color=SUBSTITUTION_COLORS["collision"], width=2), marker=dict(size=5),
        hovertemplate="l %{x}<br>P[s ≥ 2] %{y:.4g}<extra></extra>",
    ), row=1, col=2)
    fig.add_hline(y=1.0, line=dict(color=COLORS["reference"], width=1), row=1, col=1)
    for col in (1, 2):
        _current_l_line(fig, current_l, row=1, col=col)
    fig.update_layout(height=height, showlegend=False, **_LAYOUT)
    fig.update_xaxes(title_text="l (values released per record)")
    fig.update_yaxes(title_text="draws / (n·l)", row=1, col=1)
    fig.update_yaxes(title_text="probability", range=[0, 1.02], row=1, col=2)
    return fig


def substitution_bias_figure(labels, original, exact_bias, estimates, *,
                             height: int = 440) -> go.Figure:
    """Bias per category: exact E[X̂*/l] − X as bars, 0 for A⁻¹Y*, simulated means ± 2 SE.

    ``exact_bias`` is the source's estimator's exact bias per category;
    ``estimates`` maps ``"source"`` and/or ``"unbiased"`` to replicate
    estimates, shape (R, N), R ≥ 2: each is drawn as its mean minus
    ``original`` with ± 2 standard errors of that mean (sample standard
    deviation / √R).
    """
    labels = [str(v) for v in labels]
    x = np.asarray(original, dtype=float)
    fig = go.Figure()
    fig.add_trace(go.Bar(
        x=labels, y=np.asarray(exact_bias, dtype=float),
        name=f"exact bias, {SUBSTITUTION_NAMES['source']}",
        marker_color=_rgba(SUBSTITUTION_COLORS["source"], 0.45),
        hovertemplate="%{x}<br>exact bias %{y:,.2f}<extra></extra>",
    ))
    fig.add_trace(go.Scatter(
        x=labels, y=np.zeros(len(labels)), mode="lines",
        name=f"exact bias, {SUBSTITUTION_NAMES['unbiased']}: 0",
        line=dict(color=SUBSTITUTION_COLORS["unbiased"], width=2), hoverinfo="skip",
    ))
    for kind, symbol in (("source", "x-thin-open"), ("unbiased", "circle-open")):
        if kind not in estimates:
            continue
        est = np.asarray(estimates[kind], dtype=float)
        mean = est.mean(axis=0) - x
        se = est.std(axis=0, ddof=1) / np.sqrt(est.shape[0])
        fig.add_trace(go.Scatter(
            x=labels, y=mean, mode="markers", offsetgroup=kind,
            name=f"simulated mean bias, {SUBSTITUTION_NAMES[kind]} (± 2 SE, R = {est.shape[0]:,})",
            marker=dict(color=SUBSTITUTION_COLORS[kind], symbol=symbol, size=8,
                        line=dict(width=2, color=SUBSTITUTION_COLORS[kind])),
            error_y=dict(type="data", array=2 * se, thickness=1,
                         color=SUBSTITUTION_COLORS[kind]),
            hovertemplate="%{x}<br>mean bias %{y:,.2f}<extra>" + SUBSTITUTION_NAMES[kind]
                          + "</extra>",
        ))
    fig.update_layout(height=height, yaxis_title="E X̂ − X (records)", bargap=0.15,
                      scattermode="group", scattergap=0.5, **_LAYOUT)
    fig.update_layout(legend=dict(y=1.08), margin=dict(t=110))
    fig.update_xaxes(title_text="category", type="category")
    return fig


# ---------------------------------------------------------------------------
# Privacy-utility planner: power against N or alpha, and the alpha-N frontier
# ---------------------------------------------------------------------------

PLANNER_COLORS = {
    "bootstrap": COLORS["estimate"],  # the parametric bootstrap test (as in rejection_figure)
    "chisq": COLORS["statistic"],  # the naive chi-square test
    "target": COLORS["original"],  # the target power, the estimate and its interval
    "current": COLORS["theory"],  # the user's current choice (alpha, N)
    "A": COLORS["A"],
    "B": COLORS["B"],
}
__all__ += ["PLANNER_COLORS", "planner_distributions_figure", "planner_frontier_figure",
            "planner_power_figure"]

_PLANNER_X = {
    "n": ("N per group (log scale)", "N %{x:,.0f}", ",.0f"),
    "alpha1": ("privacy level α (log scale; smaller = stronger privacy)", "α %{x:.3g}", ".3g"),
}


def _finite_positive(values) -> np.ndarray:
    v = np.asarray([np.nan if x is None else x for x in values], dtype=float)
    return v[np.isfinite(v) & (v > 0)]


def _log_range(values, pad: float = 1.6) -> tuple[float, float]:
    """A log axis range (log10 units) around the finite positive ``values``, padded by ``pad``."""
    v = _finite_positive(values)
    if v.size == 0:
        return 0.0, 1.0
    return float(np.log10(v.min() / pad)), float(np.log10(v.max() * pad))


def planner_power_figure(points, *, x: str = "n", target: float, estimate=None, interval=None,
                         level=None, height: int = 420) -> go.Figure:
    """Simulated power against N or α (log x) with Wilson bars, the target and the estimate.

    ``points``: rows of ``dpcore.planner`` (columns ``x``, ``power``, ``ci_low``,
    ``ci_high`` and, optionally, ``test``); ``x`` is ``"n"`` or ``"alpha1"``.
    ``target``: the target power (a dashed line). ``estimate``: the x found
    (a dotted vertical line and a marker at the target). ``interval`` =
    (low, high): its Monte Carlo interval, a shaded band; an end at 0 or at
    infinity is drawn to the edge of the axis. ``level``: the test's level
    (dotted), the power of a test when there is nothing to detect.
    """
    if x not in _PLANNER_X:
        raise ValueError(f"`x` must be one of {tuple(_PLANNER_X)}, got {x!r}.")
    title, hover_x, fmt = _PLANNER_X[x]
    data = pd.DataFrame(points).sort_values(x)
    xs = data[x].to_numpy(float)
    power = data["power"].to_numpy(float)
    low_end, high_end = (None, None) if interval is None else interval
    lo, hi = _log_range([*xs, estimate, low_end, high_end])
    fig = go.Figure()
    if interval is not None:
        left = low_end if low_end is not None and np.isfinite(low_end) and low_end > 0 \
            else 10 ** lo
        right = high_end if high_end is not None and np.isfinite(high_end) else 10 ** hi
        fig.add_trace(go.Scatter(
            x=[left, right, right, left, left], y=[0, 0, 1, 1, 0], mode="lines", fill="toself",
            fillcolor=_rgba(PLANNER_COLORS["target"], 0.12), line=dict(width=0),
            name="Monte Carlo interval of the estimate", hoverinfo="skip",
        ))
    tests = data["test"].unique() if "test" in data else [None]
    for test in tests:
        rows = data if test is None else data[data["test"] == test]
        color = PLANNER_COLORS.get(test, PLANNER_COLORS["bootstrap"])
        name = "simulated power (95% Wilson interval)"
        if test is not None and len(tests) > 1:
            name = f"{_TEST_NAMES.get(test, test)}: {name}"
        p = rows["power"].to_numpy(float)
        fig.add_trace(go.Scatter(
            x=rows[x].to_numpy(float), y=p, mode="lines+markers", name=name,
            line=dict(color=color, width=1.5, dash="dash" if test == "chisq" else "solid"),
            marker=dict(color=color, size=8),
            error_y=dict(type="data", array=rows["ci_high"].to_numpy(float) - p,
                         arrayminus=p - rows["ci_low"].to_numpy(float), thickness=1.5,
                         color=color),
            hovertemplate=f"{hover_x}<br>power %{{y:.3f}}<extra></extra>",
        ))
    fig.add_hline(y=float(target), line=dict(color=PLANNER_COLORS["target"], width=2, dash="dash"),
                  annotation_text=f"target power {target:.0%}", annotation_position="top left")
    if level is not None:
        fig.add_hline(y=float(level), line=dict(color=COLORS["reference"], width=1.5, dash="dot"),
                      annotation_text=f"{level:.0%} level: nothing to detect",
                      annotation_position="top right")
    if estimate is not None and np.isfinite(estimate):
        fig.add_trace(go.Scatter(
            x=[estimate, estimate], y=[0, float(target)], mode="lines",
            line=dict(color=PLANNER_COLORS["target"], width=2, dash="dot"), showlegend=False,
            hoverinfo="skip",
        ))
        fig.add_trace(go.Scatter(
            x=[estimate], y=[float(target)], mode="markers",
            name=f"estimate: {format(estimate, fmt)}",
            marker=dict(color=PLANNER_COLORS["target"], size=13, symbol="diamond",
                        line=dict(width=1.5, color="white")),
            hovertemplate=f"estimate {hover_x}<extra></extra>",
        ))
    fig.update_layout(height=height, xaxis_title=title, yaxis_title="power (rejection rate)",
                      **_LAYOUT)
    fig.update_layout(legend=dict(y=1.04), margin=dict(t=80))
    fig.update_xaxes(type="log", range=[lo, hi])
    if hi - lo <= 3.5:  # up to three decades: ticks 1, 2, 3, 5 × 10^k, in plain numbers
        fig.update_xaxes(tickvals=_log_ticks([10 ** lo, 10 ** hi]), tickformat=",.3~r")
    fig.update_yaxes(range=[-0.02, 1.02])
    if len(power) == 0:
        fig.add_annotation(text="no simulated points", showarrow=False, xref="paper",
                           yref="paper", x=0.5, y=0.5)
    return fig


def _frontier_errors(rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Error bar lengths n_high − n and n − n_low; 0 where an end is infinite or 0."""
    n = rows["n"].to_numpy(float)
    high = rows["n_high"].to_numpy(float)
    low = rows["n_low"].to_numpy(float)
    plus = np.where(np.isfinite(high) & (high >= n), high - n, 0.0)
    minus = np.where(np.isfinite(low) & (low > 0) & (low <= n), n - low, 0.0)
    return plus, minus


def planner_frontier_figure(table, *, current=None, level=None, power=None,
                            height: int = 480) -> go.Figure:
    """The privacy-utility frontier: N needed against α, log-log, one curve per test.

    ``table``: rows of :func:`dpcore.planner.frontier` (``alpha1``, ``test``,
    ``n``, ``n_low``, ``n_high``, ``status``, ``valid`` and, optionally,
    ``type1``). Error bars run from ``n_low`` to ``n_high`` (an infinite or
    zero end is left out). Points whose test does not hold its level
    (``valid`` False: the naive χ² test under DP) get an open cross, the text
    "invalid" and a legend entry of their own. Settings where even the
    largest N searched is not enough (no ``n``) are drawn as upward triangles
    at ``n_low``. ``current`` = (α, N): the user's choice, a star. ``level``
    and ``power`` name the level and the target power in the legend and axis.
    """
    data = pd.DataFrame(table).copy()
    data["n"] = pd.to_numeric(data["n"], errors="coerce")
    data = data.sort_values("alpha1")
    level_text = "the level" if level is None else f"the {level:.0%} level"
    fig = go.Figure()
    for test in [t for t in ("bootstrap", "chisq") if t in set(data["test"])] + \
            [t for t in pd.unique(data["test"]) if t not in ("bootstrap", "chisq")]:
        rows = data[data["test"] == test]
        found = rows[rows["n"].notna()]
        color = PLANNER_COLORS.get(test, COLORS["reference"])
        name = _TEST_NAMES.get(test, test)
        dash = "dash" if test == "chisq" else "solid"
        valid = found["valid"].astype(bool) if "valid" in found else pd.Series(True, found.index)
        fig.add_trace(go.Scatter(
            x=found["alpha1"].to_numpy(float), y=found["n"].to_numpy(float), mode="lines",
            name=name, legendgroup=test, line=dict(color=color, width=2, dash=dash),
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
            fig.add_trace(go.Scatter(
                x=part["alpha1"].to_numpy(float), y=part["n"].to_numpy(float),
                mode="markers" if ok else "markers+text",
                text=None if ok else ["invalid"] * len(part), textposition="top center",
                textfont=dict(color=color),
                name=(f"{name}: holds {level_text}" if ok else
                      f"{name}: invalid, does not hold its level (type-I error above "
                      f"{level_text})"),
                legendgroup=test, showlegend=not ok,
                marker=marker,
                error_y=dict(type="data", array=plus, arrayminus=minus, thickness=1.5,
                             color=color),
                customdata=np.column_stack([part["n_low"].to_numpy(float),
                                            part["n_high"].to_numpy(float), type1]),
                hovertemplate="α %{x:.3g}<br>N needed %{y:,.0f}<br>interval %{customdata[0]:,.0f}"
                              " – %{customdata[1]:,.0f}<br>type-I error %{customdata[2]:.3f}"
                              f"<extra>{name}</extra>",
            ))
        beyond = rows[rows["n"].isna() & np.isfinite(pd.to_numeric(rows["n_low"],
                                                                   errors="coerce"))]
        if not beyond.empty:
            fig.add_trace(go.Scatter(
                x=beyond["alpha1"].to_numpy(float), y=beyond["n_low"].to_numpy(float),
                mode="markers", name=f"{name}: more than the largest N searched",
                legendgroup=test, marker=dict(color=color, size=12, symbol="triangle-up-open",
                                              line=dict(width=2, color=color)),
                hovertemplate="α %{x:.3g}<br>N above %{y:,.0f}<extra>" + name + "</extra>",
            ))
    shown_x = list(data["alpha1"])
    shown_y = list(data["n"].dropna()) + list(pd.to_numeric(data["n_low"], errors="coerce")) + \
        list(pd.to_numeric(data["n_high"], errors="coerce"))
    if current is not None:
        alpha, n = current
        fig.add_trace(go.Scatter(
            x=[float(alpha)], y=[float(n)], mode="markers",
            name=f"your choice: α = {alpha:.3g}, N = {n:,.0f}",
            marker=dict(color=PLANNER_COLORS["current"], size=18, symbol="star",
                        line=dict(width=1, color="white")),
            hovertemplate="your choice<br>α %{x:.3g}<br>N %{y:,.0f}<extra></extra>",
        ))
        shown_x.append(alpha)
        shown_y.append(n)
    ytitle = "N per group needed (log scale)" if power is None else \
        f"N per group needed for {power:.0%} power (log scale)"
    fig.update_layout(height=height, xaxis_title=_PLANNER_X["alpha1"][0], yaxis_title=ytitle,
                      **_LAYOUT)
    fig.update_layout(legend=dict(y=1.04), margin=dict(t=110))
    x_range = _log_range(shown_x, 1.4)
    fig.update_xaxes(type="log", range=x_range)
    if x_range[1] - x_range[0] <= 3.5:
        fig.update_xaxes(tickvals=_log_ticks([10 ** v for v in x_range]), tickformat=",.3~r")
    fig.update_yaxes(type="log", range=_log_range(shown_y, 1.6), exponentformat="power")
    return fig


def planner_distributions_figure(labels, p1, p2, *, name_a: str = "A", name_b: str = "B",
                                 height: int = 260) -> go.Figure:
    """The two distributions to tell apart, as grouped bars of shares."""
    labels = [str(v) for v in labels]
    fig = go.Figure()
    for key, values, name in (("A", p1, name_a), ("B", p2, name_b)):
        fig.add_trace(go.Bar(
            x=labels, y=np.asarray(values, dtype=float), name=name,
            marker_color=PLANNER_COLORS[key],
            hovertemplate="%{x}<br>share %{y:.2%}<extra>" + name + "</extra>",
        ))
    fig.update_layout(barmode="group", bargap=0.15, bargroupgap=0.0, height=height,
                      yaxis_title="share", **_LAYOUT)
    fig.update_layout(margin=dict(l=50, r=10, t=40, b=40), font=dict(size=12),
                      legend=dict(y=1.02))
    fig.update_xaxes(type="category")
    fig.update_yaxes(tickformat=".1~%")
    return fig


# ---------------------------------------------------------------------------
# Exports
# ---------------------------------------------------------------------------


def _trace_values(values, size: int):
    if values is None:
        return None
    arr = np.asarray(values, dtype=object).reshape(-1)
    return arr if arr.size == size else None


def figure_data(fig: go.Figure) -> pd.DataFrame:
    """The numbers behind a figure, one row per plotted point, for a CSV export.

    Columns: ``trace`` (the legend name, or "trace i"), ``subplot`` (its x
    axis, e.g. "x2", when the figure has several), ``x``, ``y`` and, where a
    trace has them, ``error_low`` / ``error_high`` (the ends of its error
    bars) and ``text``. Histograms give their raw values in ``x`` (or ``y``).
    Shapes and annotations (reference lines, labels) are not data and are
    left out.
    """
    frames = []
    several = len({getattr(t, "xaxis", None) for t in fig.data}) > 1
    for i, trace in enumerate(fig.data):
        name = trace.name if trace.name else f"trace {i}"
        x, y = getattr(trace, "x", None), getattr(trace, "y", None)
        n = max((len(v) for v in (x, y) if v is not None), default=0)
        if n == 0:
            continue
        cols = {"trace": [name] * n}
        if several:
            cols["subplot"] = [trace.xaxis or "x"] * n
        xs, ys = _trace_values(x, n), _trace_values(y, n)
        cols["x"] = xs if xs is not None else [None] * n
        cols["y"] = ys if ys is not None else [None] * n
        err = getattr(trace, "error_y", None)
        if err is not None and err.array is not None and ys is not None:
            plus = _trace_values(err.array, n)
            minus = _trace_values(err.arrayminus if err.arrayminus is not None else err.array, n)
            if plus is not None and minus is not None:
                y_num = pd.to_numeric(pd.Series(ys), errors="coerce").to_numpy(float)
                cols["error_low"] = y_num - pd.to_numeric(pd.Series(minus),
                                                          errors="coerce").to_numpy(float)
                cols["error_high"] = y_num + pd.to_numeric(pd.Series(plus),
                                                           errors="coerce").to_numpy(float)
        text = _trace_values(getattr(trace, "text", None), n)
        if text is not None:
            cols["text"] = text
        frames.append(pd.DataFrame(cols))
    if not frames:
        return pd.DataFrame(columns=["trace", "x", "y"])
    return pd.concat(frames, ignore_index=True)


def figure_html(fig: go.Figure, title: str | None = None) -> str:
    """The figure as a standalone HTML page (plotly.js inlined: opens offline)."""
    html = fig.to_html(full_html=True, include_plotlyjs=True, config={"displaylogo": False})
    if title:
        import html as _html

        html = html.replace("<head>", f"<head><title>{_html.escape(title)}</title>", 1)
    return html
