"""Figures of the class poll (issue 37): each answer's share among the reports the class's
phones sent and its estimated true share with an interval, and how that interval narrows
with more students.

The answers are the teacher's text: shown as typed (:func:`dpviz.style.inert_labels`),
never as HTML, and wrapped onto short lines on the axis only (the traces keep each answer
whole, so the exports and the chart's description read it as typed).
"""

from __future__ import annotations

import textwrap

import numpy as np

from dpviz.style import COLORS, figure, inert, inert_labels, span
from dpviz.text import _

__all__ = [
    "poll_scaling_figure",
    "poll_shares_figure",
]

WRAP = 22  # characters per line of an answer on the axis


def _wrapped(label: str, width: int = WRAP) -> str:
    """An answer on lines of about ``width`` characters, joined by Plotly's <br> (each
    line made inert on its own: the <br> is ours, never the teacher's)."""
    lines = textwrap.wrap(str(label), width, break_long_words=True, break_on_hyphens=False)
    return "<br>".join(inert(line) for line in lines) or inert(label)


def _shares(values, name: str, k: int) -> np.ndarray:
    out = np.asarray(values, dtype=float)
    if out.shape != (k,):
        raise ValueError(f"`{name}` must have one share per answer ({k}), got shape "
                         f"{out.shape}.")
    return out


def poll_shares_figure(labels, reported, estimate, lower, upper, *,
                       interval_name: str | None = None, height: int | None = None):
    """Each answer's reported share and estimated true share, as horizontal grouped bars,
    the first answer on top.

    ``reported``: the shares of the reports (each answer's reported count over the number
    of reports); ``estimate``: the unbiased estimates of the true shares, with error bars
    from ``lower`` to ``upper`` (named ``interval_name`` in the legend and the hover, by
    default "approx. 95 % interval"). Shares are fractions (0.25 is drawn as 25 %). An
    estimate may be below 0 or above 1: a line marks 0 and the axis reaches every end.
    """
    typed = [str(v) for v in labels]
    labels = inert_labels(typed)  # the teacher's text: shown as typed
    k = len(labels)
    reported = _shares(reported, "reported", k)
    est = _shares(estimate, "estimate", k)
    lower = _shares(lower, "lower", k)
    upper = _shares(upper, "upper", k)
    if interval_name is None:
        interval_name = _("approx. 95 % interval")
    data = [
        dict(type="bar", orientation="h", y=labels, x=reported,
             name=_("reported share (what the phones sent)"),
             marker=dict(color=COLORS["private"]),
             hovertemplate=_("%{y}<br>reported %{x:.1%}<extra></extra>")),
        dict(type="bar", orientation="h", y=labels, x=est,
             name=_("estimated true share, {interval}", interval=interval_name),
             marker=dict(color=COLORS["estimate"]),
             error_x=dict(type="data", symmetric=False, array=upper - est,
                          arrayminus=est - lower, color=COLORS["reference"], thickness=2,
                          width=6),
             customdata=np.column_stack([lower, upper]),
             hovertemplate=_("%{y}<br>estimate %{x:.1%}<br>{interval}: %{customdata[0]:.1%} "
                             "… %{customdata[1]:.1%}<extra></extra>",
                             interval=interval_name)),
    ]
    values = np.concatenate([reported, est, lower, upper, [0.0, 1.0]])
    values = values[np.isfinite(values)]
    low, high = float(values.min()), float(values.max())
    pad = 0.03 * (high - low)
    # A line at 0 when an estimate goes below it (else 0 is the axis's start).
    shapes = [] if low >= 0 else [span("vline", x=0.0, line=dict(
        color=COLORS["reference"], width=1))[0]]
    rows = max(k, 2)
    return figure(data, dict(
        barmode="group", bargap=0.25, bargroupgap=0.05,
        height=height or 150 + 70 * rows, shapes=shapes,
        margin=dict(l=20, r=20, t=60, b=50),
        xaxis=dict(title=dict(text=_("share of the class")), tickformat=".0%",
                   range=[low - pad, high + pad], zeroline=False),
        yaxis=dict(title=dict(text=""), type="category", autorange="reversed",
                   tickmode="array", tickvals=labels,
                   ticktext=[_wrapped(v) for v in typed], automargin=True),
    ))


def poll_scaling_figure(students, halfwidth, *, current: int, height: int = 360):
    """The widest half-width of the answers' intervals (a share: 0.1 is ± 10 points)
    against the number of students, on a log axis, the class's size ``current`` marked.

    ``students`` and ``halfwidth`` are the same length: the class sizes (n, 2n, 4n, …)
    and the half-width at each."""
    students = np.asarray(students, dtype=float)
    halfwidth = np.asarray(halfwidth, dtype=float)
    if students.ndim != 1 or students.shape != halfwidth.shape or students.size < 1:
        raise ValueError("`students` and `halfwidth` must be 1-D arrays of one length.")
    mark = students == current
    data = [
        dict(type="scatter", x=students, y=halfwidth, mode="lines+markers",
             name=_("± half-width of the widest interval"),
             line=dict(color=COLORS["estimate"], width=3), marker=dict(size=9),
             hovertemplate=_("%{x:,.0f} students<br>± %{y:.1%}<extra></extra>")),
        dict(type="scatter", x=students[mark], y=halfwidth[mark], mode="markers",
             name=_("this class"),
             marker=dict(color=COLORS["statistic"], size=16, symbol="diamond"),
             hovertemplate=_("this class: %{x:,.0f} students<br>± %{y:.1%}"
                             "<extra></extra>")),
    ]
    return figure(data, dict(
        height=height,
        xaxis=dict(title=dict(text=_("students (log scale)")), type="log",
                   tickvals=students.tolist(), ticktext=[f"{v:,.0f}" for v in students]),
        yaxis=dict(title=dict(text=_("± half-width (share)")), tickformat=".0%",
                   rangemode="tozero"),
    ))
