"""Figures of the private class histogram (issue 37, activity 3): a release's noisy counts,
one bar per bin and group, and the privacy budget the releases have spent.

Each release is the truncated Laplace histogram of Son, Park & Jung (2022), eq. (2.4): every
count of every group released as max(0, C + Lap(2/α)). Only released numbers are drawn here:
the class's raw counts never reach a figure.

The bins and the groups are the teacher's text: shown as typed (:func:`dpviz.style.inert`),
never as HTML, and wrapped onto short lines on the axis only (the traces keep each label
whole, so the exports and the chart's description read it as typed).
"""

from __future__ import annotations

import textwrap

import numpy as np

from dpviz.style import COLORS, COUNT_AXIS, OKABE_ITO, figure, inert, inert_labels
from dpviz.text import _

__all__ = [
    "GROUP_COLORS",
    "budget_figure",
    "release_figure",
]

# One colour a group (at most 4), colour-blind safe: histogram A's and B's of the compare
# page first, then two more hues of the palette.
GROUP_COLORS = (COLORS["A"], COLORS["B"], OKABE_ITO["reddish purple"], OKABE_ITO["yellow"])
WRAP_V = 12  # characters per line of a bin under a vertical bar
WRAP_H = 22  # characters per line of a bin beside a horizontal bar
MAX_BAR_TEXTS = 24  # bars that show their value as text (more would run into each other)


def _wrapped(label: str, width: int) -> str:
    """A label on lines of about ``width`` characters, joined by Plotly's <br> (each line
    made inert on its own: the <br> is ours, never the teacher's)."""
    lines = textwrap.wrap(str(label), width, break_long_words=True, break_on_hyphens=False)
    return "<br>".join(inert(line) for line in lines) or inert(label)


def _table(noisy, groups: int, bins: int) -> np.ndarray:
    values = np.asarray(noisy, dtype=float)
    if values.ndim == 1:
        values = values[None, :]
    if values.shape != (groups, bins):
        raise ValueError(f"`noisy` must be groups × bins = ({groups}, {bins}), got shape "
                         f"{values.shape}.")
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError("`noisy` must hold finite counts ≥ 0 (a release is truncated at 0).")
    return values


def _alpha_text(alpha: float) -> str:
    """α as the legend writes it: up to 6 significant digits, never in e-notation."""
    return np.format_float_positional(float(alpha), precision=6, unique=True, fractional=False,
                                      trim="-")


def release_figure(bins, groups, noisy, *, horizontal: bool = False,
                   height: int | None = None):
    """One release of the class histogram: each group's noisy counts as bars, one colour a
    group, the bins in the teacher's order.

    ``bins``: the bins' labels (M); ``groups``: the groups' labels (G, 1 to 4); ``noisy``:
    the released counts, G × M (a 1-D array is one group), each max(0, C + Lap(2/α)).
    ``horizontal``: bars across, the first bin on top (a phone's narrow screen); else
    upright, the bins along the bottom (a projector). With few bars each shows its value.
    """
    typed_bins = [str(v) for v in bins]
    typed_groups = [str(v) for v in groups]
    m, g = len(typed_bins), len(typed_groups)
    if m < 1 or not 1 <= g <= len(GROUP_COLORS):
        raise ValueError(f"A release has at least one bin and 1 to {len(GROUP_COLORS)} "
                         f"groups, got {m} bins and {g} groups.")
    values = _table(noisy, g, m)
    labels = inert_labels(typed_bins)
    texts = m * g <= MAX_BAR_TEXTS
    hover = (_("%{y}<br>%{fullData.name}: %{x:,.1f}<extra></extra>") if horizontal
             else _("%{x}<br>%{fullData.name}: %{y:,.1f}<extra></extra>"))
    data = []
    for i, (name, row) in enumerate(zip(typed_groups, values)):
        bars = dict(type="bar", name=inert(name), marker=dict(color=GROUP_COLORS[i]),
                    hovertemplate=hover, showlegend=g > 1)
        if horizontal:
            bars.update(orientation="h", y=labels, x=row)
        else:
            bars.update(x=labels, y=row)
        if texts:
            bars.update(text=[f"{v:,.1f}" for v in row], textposition="outside",
                        cliponaxis=False)
        data.append(bars)
    top = float(values.max()) if values.size else 0.0
    counts = dict(title=dict(text=_("noisy count")), rangemode="tozero",
                  range=[0, max(top * (1.18 if texts else 1.05), 1.0)], **COUNT_AXIS)
    wrap = WRAP_H if horizontal else WRAP_V
    categories = dict(title=dict(text=""), type="category", tickmode="array",
                      tickvals=labels, ticktext=[_wrapped(v, wrap) for v in typed_bins],
                      automargin=True)
    if horizontal:
        layout = dict(height=height or 140 + 34 * m * g + 24 * m,
                      xaxis=counts, yaxis=dict(categories, autorange="reversed"),
                      margin=dict(l=20, r=30, t=50 if g > 1 else 20, b=50))
    else:
        layout = dict(height=height or 400, xaxis=categories, yaxis=counts,
                      margin=dict(l=60, r=20, t=50 if g > 1 else 20, b=50))
    return figure(data, dict(barmode="group", bargap=0.2, bargroupgap=0.05, **layout))


def budget_figure(alphas, total: float, *, height: int = 190):
    """The privacy budget as one bar from 0 to ``total``: a segment for each release's α in
    turn (``alphas``, oldest first; sequential composition adds them up), then what is left.

    Each release's segment is named "release k: α = …" in its hover and the legend; the
    segments alternate two shades of the private data's colour so that neighbours stay
    apart."""
    alphas = np.asarray(alphas, dtype=float).ravel()
    total = float(total)
    if not np.isfinite(total) or total <= 0:
        raise ValueError("`total` must be a finite number > 0.")
    if np.any(~np.isfinite(alphas)) or np.any(alphas <= 0):
        raise ValueError("`alphas` must be finite numbers > 0.")
    spent = float(alphas.sum())
    left = max(total - spent, 0.0)
    where = [_("privacy budget")]
    shades = (COLORS["private"], "#8A5F00")  # the private colour, and a darker shade
    data = [dict(type="bar", orientation="h", y=where, x=[a],
                 name=_("release {k}: α = {alpha}", k=k, alpha=_alpha_text(a)),
                 marker=dict(color=shades[(k - 1) % 2], line=dict(color="white", width=2)),
                 hovertemplate=_("release {k}: α = %{x:.4~g}<extra></extra>", k=k),
                 showlegend=False)
            for k, a in enumerate(alphas, start=1)]
    data.append(dict(type="bar", orientation="h", y=where, x=[left], name=_("left"),
                     marker=dict(color="#E6E6E6", line=dict(color=COLORS["reference"],
                                                            width=1)),
                     hovertemplate=_("left: α = %{x:.4~g}<extra></extra>"),
                     showlegend=False))
    return figure(data, dict(
        barmode="stack", height=height, bargap=0.35,
        margin=dict(l=20, r=20, t=20, b=60),
        xaxis=dict(title=dict(text=_("α spent, release by release (they add up)")),
                   range=[0, max(total, spent) * 1.001], tickformat="~r"),
        yaxis=dict(title=dict(text=""), showticklabels=False),
    ))
