"""A figure in words and as a table, for readers who do not see it (screen readers) and for
the report: :func:`figure_summary` says in one sentence what a figure shows, from its own
axes and data; :func:`figure_table` gives its numbers under its axes' titles.

Both read only what the figure draws (its data traces, not the legend entries that name
lines and bands), so they stay true at every setting without a page saying anything.
"""

from __future__ import annotations

import html
import math
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dpviz.export import figure_data
from dpviz.style import is_legend_entry
from dpviz.text import N_, _

__all__ = ["figure_summary", "figure_table", "TABLE_ROWS"]

TABLE_ROWS = 50  # rows of a figure's table shown on a page (its CSV has all)
SERIES_NAMED = 5  # series named in a summary; more are counted

# The kind of chart, by the types of its data traces (all of one kind, else "Chart").
_KINDS = {"bar": N_("Bar chart"), "histogram": N_("Histogram"), "lines": N_("Line chart"),
          "markers": N_("Scatter plot"), "heatmap": N_("Heat map")}

# One whole sentence for each shape of figure (a translator reorders each as a whole):
# (what the category axis is: "numbers" | "categories" | "histogram", series named?)
_SENTENCES = {
    ("numbers", True): N_("{kind} of {y} against {x}, for {series}: {x} from {x0} to {x1}, "
                          "{y} from {y0} to {y1}."),
    ("numbers", False): N_("{kind} of {y} against {x}: {x} from {x0} to {x1}, {y} from {y0} "
                           "to {y1}."),
    ("categories", True): N_("{kind} of {y} for {count} values of {x} ({first} to {last}), "
                             "for {series}: {y} from {y0} to {y1}."),
    ("categories", False): N_("{kind} of {y} for {count} values of {x} ({first} to {last}): "
                              "{y} from {y0} to {y1}."),
    ("histogram", True): N_("{kind} of {x}, for {series}: values from {x0} to {x1}."),
    ("histogram", False): N_("{kind} of {x}: values from {x0} to {x1}."),
}
_EMPTY = N_("{kind} with no data at these settings.")
_MORE = N_("{names} and {count} more")

_TAG = re.compile(r"<[^>]+>")
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _plain(text) -> str:
    """An axis title or trace name as text: no HTML tags or character references."""
    return " ".join(html.unescape(_TAG.sub(" ", str(text or ""))).split())


def _number(value: float) -> str:
    """A number as the summary says it: 4 significant digits, thousands separated, and
    powers of ten (5×10⁻⁵, as the axes write them) for very small and large values."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    magnitude = abs(value)
    if 1e-3 <= magnitude < 1e9:
        # 4 significant digits, or every digit of a whole part of 4 or more (20,001 people)
        return f"{value:,.0f}" if magnitude >= 999.95 else f"{value:.4g}"
    mantissa, exponent = f"{value:.3e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    power = f"10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    return power if mantissa == "1" else f"{mantissa}×{power}"


def _data_traces(fig: go.Figure) -> list:
    return [t for t in fig.data if not is_legend_entry(t)
            and any(getattr(t, a, None) is not None and len(getattr(t, a)) for a in ("x", "y"))]


def _kind(traces) -> str:
    kinds = set()
    for trace in traces:
        if trace.type == "scatter":
            mode = trace.mode or "lines+markers"
            kinds.add("lines" if "lines" in mode else "markers")
        else:
            kinds.add(trace.type)
    return _(_KINDS.get(kinds.pop(), N_("Chart"))) if len(kinds) == 1 else _("Chart")


def _axis_title(fig: go.Figure, axis: str, fallback: str) -> str:
    layout = fig.layout[axis]
    title = _plain(layout.title.text if layout is not None and layout.title else "")
    return title or fallback


def _numeric(values) -> np.ndarray | None:
    """``values`` as finite floats, or None when they are not numbers (categories)."""
    if values is None:
        return None
    numbers = pd.to_numeric(pd.Series(np.asarray(values, dtype=object).ravel()),
                            errors="coerce").to_numpy(float)
    if np.isnan(numbers).all() or np.isnan(numbers).sum() > 0.5 * len(numbers):
        return None
    return numbers[np.isfinite(numbers)]


def _series(traces) -> str | None:
    names = list(dict.fromkeys(_plain(t.name) for t in traces if t.name and _plain(t.name)))
    if not names:
        return None
    # Series names have commas of their own ("g(C), ε = 0.1"): a semicolon separates them.
    if len(names) <= SERIES_NAMED:
        return "; ".join(names)
    return _(_MORE, names="; ".join(names[:SERIES_NAMED]), count=len(names) - SERIES_NAMED)


def figure_summary(fig: go.Figure) -> str:
    """One sentence saying what ``fig`` shows: its kind, its axes' titles, its series and
    the range of its values, e.g. "Line chart of δ(ε) against ε, for δ(ε) of μ-GDP, μ = 1:
    ε from 0 to 5, δ(ε) from 2.9×10⁻⁷ to 0.3829." Made from the figure alone (its data
    traces and axis titles), in the reader's language (:func:`dpviz.text._`)."""
    traces = _data_traces(fig)
    kind = _kind(traces) if traces else _("Chart")
    if not traces:
        return _(_EMPTY, kind=kind)
    series = _series(traces)
    horizontal = all(getattr(t, "orientation", None) == "h" for t in traces)
    # The axis along which the values are measured, and the one that places them.
    value_axis, place_axis = ("x", "y") if horizontal else ("y", "x")
    x_title = _axis_title(fig, f"{place_axis}axis", _("category"))
    y_title = _axis_title(fig, f"{value_axis}axis", _("value"))
    places = [getattr(t, place_axis) for t in traces if getattr(t, place_axis) is not None]
    values = [getattr(t, value_axis) for t in traces if getattr(t, value_axis) is not None]
    fields = {"kind": kind, "x": x_title, "y": y_title, "series": series}
    if all(t.type == "histogram" for t in traces):
        raw = np.concatenate([_numeric(v) for v in places + values if _numeric(v) is not None]
                             or [np.array([0.0])])
        shape = "histogram"
        fields |= {"x0": _number(float(raw.min())), "x1": _number(float(raw.max()))}
    else:
        numbers = [_numeric(v) for v in values]
        ys = np.concatenate([v for v in numbers if v is not None] or [np.array([0.0])])
        fields |= {"y0": _number(float(ys.min()) if ys.size else 0.0),
                   "y1": _number(float(ys.max()) if ys.size else 0.0)}
        xs = [_numeric(v) for v in places]
        if places and all(v is not None for v in xs):
            shape = "numbers"
            xs_all = np.concatenate(xs)
            fields |= {"x0": _number(float(xs_all.min())), "x1": _number(float(xs_all.max()))}
        else:
            shape = "categories"
            labels = list(dict.fromkeys(
                _plain(" ".join(map(str, v)) if isinstance(v, (list, tuple)) else v)
                for trace_places in places for v in _categories(trace_places)))
            fields |= {"count": len(labels), "first": labels[0] if labels else "",
                       "last": labels[-1] if labels else ""}
    return _(_SENTENCES[(shape, series is not None)], **fields)


def _categories(values) -> list:
    """A trace's category positions, one per point (a two-level axis: "outer inner")."""
    values = list(values)
    if len(values) == 2 and all(isinstance(v, (list, tuple, np.ndarray)) for v in values):
        return [f"{a} {b}" for a, b in zip(values[0], values[1])]
    return values


def figure_table(fig: go.Figure, rows: int | None = TABLE_ROWS) -> tuple[pd.DataFrame, int]:
    """The numbers ``fig`` plots (:func:`dpviz.export.figure_data`) as a reader's table:
    its axes' titles and the reader's words as headers, panels numbered 1, 2, … in the
    order they are drawn, numbers written as :func:`figure_summary` writes them (4
    significant digits; the Data (CSV) export keeps them whole). The first ``rows`` rows
    (all when None), and the number of rows in all."""
    data = figure_data(fig)
    total = len(data)
    shown = (data if rows is None else data.head(rows)).copy()
    if "subplot" in shown:
        order = {axis: str(i) for i, axis in enumerate(dict.fromkeys(data["subplot"]), 1)}
        shown["subplot"] = shown["subplot"].map(order)
    for column in shown.columns.difference(["trace", "subplot", "text"]):
        numbers = pd.to_numeric(shown[column], errors="coerce")
        if numbers.notna().sum() == shown[column].notna().sum():  # numbers, not categories
            shown[column] = [_number(float(v)) if pd.notna(v) else "–" for v in numbers]
    headers = {"trace": _("series"), "subplot": _("panel"),
               "x": _axis_title(fig, "xaxis", "x"), "y": _axis_title(fig, "yaxis", "y"),
               "error_low": _("lower end of the error bar"),
               "error_high": _("upper end of the error bar"), "text": _("label")}
    names: dict[str, str] = {}
    for column in shown.columns:
        header = headers.get(column, column)
        while header in names.values():  # two axes of the same title
            header = f"{header} ({column})"
        names[column] = header
    return shown.rename(columns=names), total
