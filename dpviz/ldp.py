"""Figures of k-ary randomized response (local DP).

True, reported and estimated counts per category, and each estimator's MSE
against ε.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dpviz.style import COLORS, COUNT_AXIS, OKABE_ITO, figure, inert_labels, legend_span, span
from dpviz.text import _

__all__ = [
    "KRR_ESTIMATOR_COLORS",
    "krr_counts_figure",
    "krr_mse_figure",
]


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


def krr_counts_figure(labels, true, reported, estimate, lower, upper, *,
                      estimator_name: str, whisker_name: str | None = None, whisker_notes=None,
                      height: int = 420) -> go.Figure:
    """True, reported and estimated counts per category as grouped bars.

    The estimate carries asymmetric error bars from ``lower`` to ``upper``, named
    ``whisker_name`` in the legend and the hover (by default "± 2 SE");
    ``whisker_notes``, one text per category, is added to its hover (e.g. what share
    of simulated estimates the whisker covered). A line at 0 shows estimates below it.
    """
    labels = inert_labels(labels)  # user text: shown as typed, never as HTML
    if whisker_name is None:
        whisker_name = _("± 2 SE")
    est = np.asarray(estimate, dtype=float)
    lower = np.asarray(lower, dtype=float)
    upper = np.asarray(upper, dtype=float)
    notes = [""] * est.size if whisker_notes is None else [f"<br>{v}" for v in whisker_notes]
    if len(notes) != est.size:
        raise ValueError("`whisker_notes` must have one text per category.")
    data = [
        dict(type="bar", x=labels, y=np.asarray(true, dtype=float), name=_("true count n_v"),
             marker=dict(color=COLORS["original"]),
             hovertemplate=_("%{x}<br>true %{y:,.0f}<extra></extra>")),
        dict(type="bar", x=labels, y=np.asarray(reported, dtype=float),
             name=_("reported count N_v"), marker=dict(color=COLORS["private"]),
             hovertemplate=_("%{x}<br>reported %{y:,.0f}<extra></extra>")),
        dict(type="bar", x=labels, y=est,
             name=_("estimate n̂_v ({estimator}) {whisker}", estimator=estimator_name,
                    whisker=whisker_name),
             marker=dict(color=COLORS["estimate"]),
             error_y=dict(type="data", symmetric=False, array=upper - est, arrayminus=est - lower,
                          color=COLORS["reference"], thickness=1.5),
             customdata=np.column_stack([lower, upper, np.asarray(notes, dtype=object)]),
             hovertemplate=_("%{x}<br>estimate %{y:,.1f}<br>{whisker}: %{customdata[0]:,.1f} "
                             "… %{customdata[1]:,.1f}%{customdata[2]}<extra></extra>",
                             whisker=whisker_name)),
    ]
    zero, _label = span("hline", y=0, line=dict(color=COLORS["reference"], width=1))
    return figure(data, dict(
        barmode="group", bargap=0.15, bargroupgap=0.0, height=height, shapes=[zero],
        xaxis=dict(title=dict(text=_("category")), type="category"),
        yaxis=dict(title=dict(text=_("users")), **COUNT_AXIS),
    ))


def krr_mse_figure(table, *, current_eps: float, names=None, height: int = 460) -> go.Figure:
    """MSE per category of each estimator against ε, log-log, with ± 2 SE bars.

    ``table`` has the columns of ``dpcore.ldp.krr_mse``: ``eps``, ``method``,
    ``mse``, ``se`` and ``theory`` (the exact MSE, where not NaN: drawn as a
    dashed line). ``names`` maps methods to legend names. A vertical line
    marks ``current_eps``.
    """
    table = pd.DataFrame(table)
    names = names or {}
    data = []
    theory = table.dropna(subset=["theory"]).drop_duplicates("eps").sort_values("eps")
    if len(theory):
        data.append(dict(
            type="scatter", x=theory["eps"].to_numpy(float), y=theory["theory"].to_numpy(float),
            mode="lines", name=_("exact MSE of the unbiased estimator (theory)"),
            line=dict(color=COLORS["theory"], width=3, dash="dash"),
            hovertemplate=_("ε %{x:~g}<br>exact MSE %{y:,.4~r}<extra>theory</extra>"),
        ))
    for method, rows in table.groupby("method", sort=False):
        rows = rows.sort_values("eps")
        se = rows["se"].to_numpy(float)
        data.append(dict(
            type="scatter", x=rows["eps"].to_numpy(float), y=rows["mse"].to_numpy(float),
            mode="lines+markers", name=names.get(method, method),
            line=dict(color=KRR_ESTIMATOR_COLORS.get(method, COLORS["reference"]), width=2),
            marker=dict(size=7),
            error_y=dict(type="data", array=2 * np.nan_to_num(se), thickness=1),
            hovertemplate=_("ε %{x:~g}<br>MSE %{y:,.4~r}<extra>{name}</extra>",
                            name=names.get(method, method)),
        ))
    # the current ε named in the legend (above the plot its label met the legend)
    line, entry = legend_span("vline", f"ε = {current_eps:g}", x=float(current_eps),
                              line=dict(color=COLORS["reference"], width=2, dash="dot"))
    data.append(entry)
    return figure(data, dict(
        height=height, legend=dict(y=1.08), margin=dict(t=90), shapes=[line],
        # ε written out (0.1, 1, 10), not as powers of ten
        xaxis=dict(title=dict(text=_("ε (log scale)")), type="log", exponentformat="none"),
        yaxis=dict(title=dict(text=_("MSE per category (users², log scale)")), type="log",
                   exponentformat="power"),
    ))
