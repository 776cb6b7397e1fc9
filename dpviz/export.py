"""Exports: the numbers behind a figure (CSV), a standalone HTML page, and every CSV file
the app writes, made safe to open in a spreadsheet.
"""

from __future__ import annotations

import html
import numbers

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dpviz.style import is_legend_entry

__all__ = [
    "FORMULA_START",
    "csv_text",
    "figure_data",
    "figure_html",
]

# A text cell starting with one of these is run as a formula by spreadsheets (OWASP, "CSV
# Injection"): "=1+2", "+cmd|calc", "-2+3", "@SUM(1)", and tab or carriage return before one.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _as_text_cell(value):
    """A text cell that a spreadsheet would run as a formula, prefixed with ' so that it
    shows as the text it is (OWASP's advice); numbers and every other value unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_text(frame: pd.DataFrame, *, index: bool = False) -> str:
    """``frame`` as CSV text that no spreadsheet runs as formulas.

    Every text cell, column name and index label that starts with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return gets a leading ``'`` (OWASP's CSV-injection advice):
    a spreadsheet then shows it as text. Numbers stay numbers, negative ones included (a
    numeric column is written as it is; a number in a column of mixed values too). The
    frame itself is not changed: the data in memory keep the user's labels; only what
    leaves the app is neutralised. Lines end in CR LF (RFC 4180).
    """
    out = frame.copy(deep=False)
    for i in range(out.shape[1]):
        values = out.iloc[:, i]
        if not (pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values)):
            out.isetitem(i, values.map(_as_text_cell))
    out.columns = [_as_text_cell(str(c)) if not isinstance(c, numbers.Number) else c
                   for c in out.columns]
    if index:
        out.index = out.index.map(_as_text_cell)
        if out.index.name is not None:
            out.index.name = _as_text_cell(str(out.index.name))
    # RFC 4180's line break: Python's csv writer then quotes every cell holding a carriage
    # return too (with "\n" it would not, and a cell "'\r=1+2" would start a row "=1+2").
    return out.to_csv(index=index, lineterminator="\r\n")


def _trace_values(values, size: int):
    if values is None:
        return None
    arr = np.asarray(values, dtype=object).reshape(-1)
    return arr if arr.size == size else None


def _as_typed(values):
    """Text values as the user typed them: the entities dpviz.style.inert wrote for Plotly
    turned back (``&lt;b&gt;`` is ``<b>``); numbers unchanged."""
    if values is None:
        return None
    return np.asarray([html.unescape(v) if isinstance(v, str) else v for v in values],
                      dtype=object)


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
    left out, and so are the legend entries that name them
    (:func:`dpviz.style.legend_entry`).
    """
    frames = []
    several = len({getattr(t, "xaxis", None) for t in fig.data if not is_legend_entry(t)}) > 1
    for i, trace in enumerate(fig.data):
        if is_legend_entry(trace):
            continue
        name = html.unescape(trace.name) if trace.name else f"trace {i}"
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
        xs, ys = _as_typed(_trace_values(x, n)), _as_typed(_trace_values(y, n))
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
        text = _as_typed(_trace_values(getattr(trace, "text", None), n))
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
