"""What a release means for one person: two privacy levels side by side.

For each of the attacker's priors, how sure the attacker can become at most (under pure ε)
or how often the best attacker guesses right at most (when no bound below certainty holds
for every outcome), at each of two levels, beside where the attacker stands without the
release. The numbers are :func:`dpcore.risk.side_by_side`'s.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from dpviz.style import COLORS, PROBABILITY_AXIS, figure, inert
from dpviz.text import _

__all__ = ["percent", "side_by_side_figure"]

LEVEL_COLORS = (COLORS["original"], COLORS["private"])


def percent(v: float) -> str:
    """A share as a percentage: three significant digits, and near 100% as many decimals
    as tell it from 100% (99.995%, not 100%)."""
    if v >= 1.0:
        return "100%"
    text = f"{100 * v:.3g}"
    if text == "100":  # 99.95% or more: the decimals that tell it from 100%
        text = f"{100 * v:.{math.ceil(-math.log10(100 * (1 - v)))}f}"
    return f"{text}%"


def side_by_side_figure(table: pd.DataFrame, names: tuple[str, str], *,
                        height: int = 320) -> go.Figure:
    """Grouped bars, one group per prior: the two levels' readings and the prior's own.

    ``table`` is :func:`dpcore.risk.side_by_side`'s; ``names`` the two levels as the page
    writes them ("ε = 1", "ε = 10"). When both levels have a posterior bound the bars show
    it ("at most … sure after"); otherwise they show the best attacker's chance of guessing
    right, for both levels, so the two are always read on one scale."""
    bounded = not table["posterior_bound"].isna().any()
    column = "posterior_bound" if bounded else "guess_right_after"
    before = "prior" if bounded else "guess_right_before"
    first = table[table["level"] == 0]
    priors = [f"{100 * p:g}%" for p in first["prior"]]
    what = (_("at most this sure after") if bounded
            else _("guesses right at most this often"))
    data = [dict(type="bar", x=priors, y=first[before].to_numpy(dtype=float),
                 name=_("without the release"), marker=dict(color=COLORS["reference"]),
                 text=[percent(v) for v in first[before]], textposition="outside",
                 hovertemplate=_("prior %{x}<br>without the release: %{text}"
                                 "<extra></extra>"))]
    for level, (name, color) in enumerate(zip(names, LEVEL_COLORS)):
        rows = table[table["level"] == level]
        values = rows[column].to_numpy(dtype=float)
        data.append(dict(
            type="bar", x=priors, y=values, name=inert(name), marker=dict(color=color),
            text=[percent(v) for v in values], textposition="outside",
            hovertemplate=_("prior %{x}<br>{name}: {what} %{text}<extra></extra>",
                            name=inert(name), what=what)))
    return figure(data, dict(
        barmode="group", bargap=0.2, height=height, uniformtext=dict(mode="hide", minsize=11),
        xaxis=dict(title=dict(text=_("the attacker's belief before (prior)")),
                   type="category"),
        yaxis=dict(title=dict(text=(_("most sure after") if bounded
                                    else _("best chance of guessing right"))),
                   range=[0, 1.12], tickformat=".0%", **{k: v for k, v in PROBABILITY_AXIS.items()
                                                        if k != "tickformat"}),
        legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0, xanchor="left"),
        margin=dict(t=40),
    ))
