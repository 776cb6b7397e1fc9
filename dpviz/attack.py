"""Figures of the class game "Be the attacker" (issue 37): the students' guessing errors on
the mechanism's trade-off plot.

Each point is a guessing rule's observed errors (α̂, β̂): its false-alarm rate (said D′, the
truth was D) and its miss rate (said D, the truth was D′). No rule's true errors lie below
the mechanism's trade-off curve f ([DRS22]); the observed ones may, by chance, and the error
bars (exact intervals, computed by the caller with :func:`dpcore.attack.beyond_curve`) say
how far chance reaches. Pure Plotly: every number is given, nothing is computed here.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from dpviz.fdp import FDP_COLORS
from dpviz.style import COLORS, OKABE_ITO, PROBABILITY_AXIS, _rgba, figure, legend_entry
from dpviz.text import _

__all__ = [
    "ATTACK_COLORS",
    "attack_figure",
]

# One colour per kind of mark (the curve takes the mechanism's colour of FDP_COLORS).
ATTACK_COLORS = {
    "students": COLORS["estimate"],  # each student's point
    "flagged": COLORS["statistic"],  # a student beyond the curve by more than chance
    "pooled": COLORS["theory"],  # the class's summed counts
    "best": OKABE_ITO["black"],  # the best possible attacker
    "you": COLORS["B"],  # the student's own point on their phone
    "random": FDP_COLORS["identity"],  # random guessing, β = 1 − α
    "impossible": _rgba(COLORS["reference"], 0.18),  # below the curve
}


def _axes() -> dict:
    """α and β from 0 to 1, one unit as long on both (as dpviz.fdp's trade-off plots)."""
    common = dict(range=[-0.02, 1.02], constrain="domain", dtick=0.2, zeroline=False,
                  **PROBABILITY_AXIS)
    return dict(
        xaxis=dict(title=dict(text=_("false-alarm rate α (said D′, it was D)")), **common),
        yaxis=dict(title=dict(text=_("miss rate β (said D, it was D′)")), scaleanchor="x",
                   scaleratio=1, **common),
    )


def _points(values, name: str) -> np.ndarray:
    """Rows (α̂, β̂, α_low, α_high, β_low, β_high) as an n × 6 float array."""
    out = np.asarray(values, dtype=float)
    if out.ndim == 1:
        out = out.reshape(1, -1)
    if out.ndim != 2 or out.shape[1] != 6:
        raise ValueError(f"`{name}` must be rows of six numbers (α̂, β̂, α_low, α_high, β_low, "
                         f"β_high), got shape {np.shape(values)}.")
    return out


def _marks(rows: np.ndarray, names: list[str], *, name: str, color: str, symbol: str,
           size: int, interval_name: str, outline: str = "white") -> dict:
    """Points with their intervals as error bars in α and β, named in the hover; rows of
    two numbers (α̂, β̂): points without bars."""
    marker = dict(color=color, size=size, symbol=symbol, line=dict(color=outline, width=1.5))
    if rows.shape[1] == 2:
        return dict(type="scatter", x=rows[:, 0], y=rows[:, 1], mode="markers", name=name,
                    text=names, marker=marker,
                    hovertemplate="%{text}<br>α̂ = %{x:.3r}<br>β̂ = %{y:.3r}<extra></extra>")
    a, b, a_lo, a_hi, b_lo, b_hi = rows.T
    # the bars lighter than the points: a class's bars cross one another
    bars = dict(type="data", symmetric=False, color=_rgba(color, 0.55), thickness=1.5, width=4)
    return dict(
        type="scatter", x=a, y=b, mode="markers", name=name, text=names,
        marker=marker,
        error_x=dict(bars, array=a_hi - a, arrayminus=a - a_lo),
        error_y=dict(bars, array=b_hi - b, arrayminus=b - b_lo),
        customdata=np.column_stack([a_lo, a_hi, b_lo, b_hi]),
        hovertemplate=_("%{text}<br>α̂ = %{x:.3r} ({interval}: %{customdata[0]:.3r} … "
                        "%{customdata[1]:.3r})<br>β̂ = %{y:.3r} (%{customdata[2]:.3r} … "
                        "%{customdata[3]:.3r})<extra></extra>", interval=interval_name),
    )


def attack_figure(alpha, beta, *, curve_name: str, color: str | None = None,
                  students=None, student_names=None, flagged=None, pooled=None,
                  best=None, you=None, interval_name: str | None = None,
                  students_name: str | None = None, pooled_name: str | None = None,
                  best_name: str | None = None, you_name: str | None = None,
                  height: int = 560) -> go.Figure:
    """The trade-off plot of the game: the mechanism's curve, random guessing, and the
    guessing errors of the students, of the class pooled, of the best attacker.

    Parameters
    ----------
    alpha, beta : array_like
        The curve f: false-alarm rates α in [0, 1] and f(α), one length. Drawn in
        ``color`` (default: FDP_COLORS["gdp"]), named ``curve_name``, with the region below
        it shaded: no guessing rule's errors lie there in the long run.
    students : array_like, optional
        n rows (α̂, β̂, α_low, α_high, β_low, β_high): each student's observed rates and
        the ends of their intervals, drawn as error bars. A row whose α̂ or β̂ is not finite
        (no round of that kind) is not drawn.
    student_names : sequence of str, optional
        The n names of the hover (default "student 1", "student 2", …).
    flagged : array_like of bool, optional
        n flags: the students beyond the curve by more than chance, drawn apart
        (vermillion crosses).
    pooled : array_like, optional
        One row of six: the class's summed counts' rates and intervals.
    best : (float, float), optional
        The best attacker's errors (α, β), a black star.
    you : array_like, optional
        One row of six, or (α̂, β̂) without intervals: the reader's own point, drawn large.
    interval_name : str, optional
        What the error bars are (legend and hover); default "exact interval".
    students_name, pooled_name, best_name, you_name : str, optional
        The legend's names of those marks.
    height : int
        The figure's height in px.
    """
    alpha = np.asarray(alpha, dtype=float)
    beta = np.asarray(beta, dtype=float)
    if alpha.ndim != 1 or alpha.shape != beta.shape or alpha.size < 2:
        raise ValueError("`alpha` and `beta` must be 1-D arrays of one length (2 or more).")
    interval_name = interval_name or _("exact interval")
    color = color or FDP_COLORS["gdp"]
    ends = np.array([0.0, 1.0])
    data = [
        dict(type="scatter", x=ends, y=1.0 - ends, mode="lines",
             name=_("random guessing: β = 1 − α"),
             line=dict(color=ATTACK_COLORS["random"], width=1.5, dash="dot"),
             hoverinfo="skip"),
        dict(type="scatter", x=alpha, y=beta, mode="lines", name=curve_name,
             line=dict(color=color, width=3), fill="tozeroy",
             fillcolor=ATTACK_COLORS["impossible"],
             hovertemplate="α %{x:.3r}<br>f(α) %{y:.3r}<extra></extra>"),
    ]
    if students is not None:
        rows = _points(students, "students")
        n = len(rows)
        names = (list(student_names) if student_names is not None
                 else [_("student {i}", i=i + 1) for i in range(n)])
        marked = (np.zeros(n, dtype=bool) if flagged is None
                  else np.asarray(flagged, dtype=bool).reshape(-1))
        if len(names) != n or marked.shape != (n,):
            raise ValueError("`student_names` and `flagged` must have one entry per student.")
        drawn = np.isfinite(rows[:, 0]) & np.isfinite(rows[:, 1])
        for keep, trace_name, colour, symbol in (
                (drawn & ~marked, students_name or _("students"), ATTACK_COLORS["students"],
                 "circle"),
                (drawn & marked, _("beyond the curve by more than chance"),
                 ATTACK_COLORS["flagged"], "x")):
            if keep.any():
                data.append(_marks(rows[keep], [names[i] for i in np.flatnonzero(keep)],
                                   name=trace_name, color=colour, symbol=symbol, size=10,
                                   interval_name=interval_name))
    if pooled is not None:
        row = _points(pooled, "pooled")
        if np.isfinite(row[0, :2]).all():
            data.append(_marks(row, [_("the class pooled")],
                               name=pooled_name or _("the class pooled"),
                               color=ATTACK_COLORS["pooled"], symbol="diamond", size=15,
                               interval_name=interval_name))
    if best is not None:
        a, b = float(best[0]), float(best[1])
        data.append(dict(
            type="scatter", x=[a], y=[b], mode="markers",
            name=best_name or _("the best possible attacker"),
            marker=dict(color=ATTACK_COLORS["best"], size=16, symbol="star",
                        line=dict(color="white", width=1)),
            hovertemplate=_("the best possible attacker<br>α = %{x:.3r}, β = %{y:.3r}"
                            "<extra></extra>")))
    if you is not None:
        point = np.asarray(you, dtype=float).reshape(-1)
        row = point.reshape(1, 2) if point.size == 2 else _points(point, "you")
        if np.isfinite(row[0, :2]).all():
            data.append(_marks(row, [you_name or _("you")], name=you_name or _("you"),
                               color=ATTACK_COLORS["you"], symbol="circle", size=18,
                               interval_name=interval_name, outline="#000000"))
    data.append(legend_entry(_("below the curve: out of reach of any guessing rule"),
                             color=ATTACK_COLORS["impossible"], kind="band",
                             edge=COLORS["reference"]))
    return figure(data, dict(height=height, margin=dict(l=60, r=20, t=30, b=50), **_axes()))
