"""A figure's exports: the numbers behind it (CSV) and a standalone HTML page.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

__all__ = [
    "figure_data",
    "figure_html",
]


def _trace_values(values, size: int):
    if values is None:
        return None
    arr = np.asarray(values, dtype=object).reshape(-1)
    return arr if arr.size == size else None


def _levels_joined(values, size: int):
    """The points of a two-level category axis (a sequence of ``size`` outer labels and
    one of ``size`` inner ones) as "outer | inner"; None for any other values."""
    if values is None or len(values) != 2:
        return None
    outer, inner = values
    if (isinstance(outer, str) or isinstance(inner, str) or not hasattr(outer, "__len__")
            or not hasattr(inner, "__len__") or len(outer) != size or len(inner) != size):
        return None
    return np.asarray([f"{a} | {b}" for a, b in zip(outer, inner)], dtype=object)


def figure_data(fig: go.Figure) -> pd.DataFrame:
    """The numbers behind a figure, one row per plotted point, for a CSV export.

    Columns: ``trace`` (the legend name, or "trace i"), ``subplot`` (its x
    axis, e.g. "x2", when the figure has several), ``x``, ``y`` and, where a
    trace has them, ``error_low`` / ``error_high`` (the ends of its error
    bars) and ``text``. A point of a two-level category axis has ``x`` "outer |
    inner". Histograms give their raw values in ``x`` (or ``y``).
    Shapes and annotations (reference lines, labels) are not data and are
    left out.
    """
    frames = []
    several = len({getattr(t, "xaxis", None) for t in fig.data}) > 1
    for i, trace in enumerate(fig.data):
        name = trace.name if trace.name else f"trace {i}"
        x, y = getattr(trace, "x", None), getattr(trace, "y", None)
        if y is not None:
            joined = _levels_joined(x, len(y))
            x = x if joined is None else joined
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
