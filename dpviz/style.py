"""The one colour scheme and the layout shared by every figure, and shared axis helpers.

Okabe & Ito's colour-blind-safe palette: original data, privatised data,
estimates and theory curves keep the same colour on every page. Besides the
palette: the common layout (template, margins, legend, font), translucent
fills, the names of the two homogeneity tests, and log-axis ticks and ranges.
"""

from __future__ import annotations

import html

import numpy as np

__all__ = [
    "COLORS",
    "OKABE_ITO",
    "inert",
    "inert_labels",
]


def inert(text: object) -> str:
    """A user's text (a bin label, a column name) made inert for Plotly, which renders a
    subset of HTML (``<a href>``, ``<b>``, ``<br>``, entities) in tick labels, legends,
    subplot titles and hover text: ``<``, ``>`` and ``&`` become entities, which Plotly
    shows as the characters typed. dpviz.export.figure_data turns them back, so a figure's
    CSV holds the text as the user wrote it."""
    return html.escape(str(text), quote=False)


def inert_labels(labels) -> list[str]:
    """:func:`inert` of every label (category axis values), as text."""
    return [inert(v) for v in labels]


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


# The homogeneity tests as legends name them (calibration and planner figures), and the
# colour of each on the calibration figures.
_TEST_NAMES = {"bootstrap": "parametric bootstrap", "chisq": "naive χ²",
               "normal_score": "normal-score contrast"}
_TEST_COLORS = {"bootstrap": COLORS["estimate"], "chisq": COLORS["statistic"],
                "normal_score": COLORS["original"]}


# Log axes (substitution and planner figures): tick values and padded ranges.
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


def _finite_positive(values) -> np.ndarray:
    v = np.asarray([np.nan if x is None else x for x in values], dtype=float)
    return v[np.isfinite(v) & (v > 0)]


def _log_range(values, pad: float = 1.6) -> tuple[float, float]:
    """A log axis range (log10 units) around the finite positive ``values``, padded by ``pad``."""
    v = _finite_positive(values)
    if v.size == 0:
        return 0.0, 1.0
    return float(np.log10(v.min() / pad)), float(np.log10(v.max() * pad))
