"""The one colour scheme and the layout shared by every figure, and shared axis helpers.

Okabe & Ito's colour-blind-safe palette: original data, privatised data,
estimates and theory curves keep the same colour on every page. Besides the
palette: the common layout (template, margins, legend, font), the tick formats of
each kind of quantity, translucent fills, the names of the two homogeneity tests,
log-axis ticks and ranges, and the lines and bands across a plot with their legend
entries.
"""

from __future__ import annotations

import copy
import functools
import html
import re

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from dpviz.text import N_, _

__all__ = [
    "COLORS",
    "COUNT_AXIS",
    "LEGEND_ENTRY",
    "OKABE_ITO",
    "PRESENTED",
    "PROBABILITY_AXIS",
    "inert",
    "inert_labels",
    "is_legend_entry",
    "legend_entry",
    "legend_span",
    "presented",
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


# The colour-blind-safe palette of Okabe & Ito (2008), "Color Universal Design", as published.
OKABE_ITO_PUBLISHED = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
}
# The palette the figures draw with: the same hues, with orange, sky blue and yellow made
# darker (lightness only, in HLS) until a line, marker or bar of that colour has a contrast
# of at least 3:1 against the white plot, WCAG 2.1's minimum for graphics (1.4.11); as
# published they have 2.25, 2.31 and 1.32. tests/test_viz_style.py computes the ratios.
OKABE_ITO = {
    **OKABE_ITO_PUBLISHED,
    "orange": "#BF8500",
    "sky blue": "#1E9AE0",
    "yellow": "#9E930D",
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


# Tick labels of every axis (the template's xaxis and yaxis apply to each axis of every
# figure, subplots included): large and tiny numbers as powers of ten (2×10⁻⁵), never
# Plotly's default SI prefixes ("B": 20µ, 50k, 1M, 1B), which read as units here, and
# thousands separated (1,000). Axes of one kind of quantity override this below.
_AXIS_NUMBERS = dict(exponentformat="power", separatethousands=True)

# Counts (of people, records, users; noisy counts; the test statistics; N on a linear
# axis) written out in full, thousands separated: 20,000, not 20×10³ nor 20k. Merged into
# those axes of the figures' specs.
COUNT_AXIS = dict(exponentformat="none", separatethousands=True)

# Probabilities, rates and shares on a linear axis: decimals to their significant digits
# (0, 0.2, 0.05; d3's "r", never e-notation nor a prefix, however far the reader zooms).
PROBABILITY_AXIS = dict(tickformat="~r")


def _slim_template(base: str = "plotly_white",
                   traces: tuple[str, ...] = ("bar", "scatter", "histogram")) -> go.layout.Template:
    """Plotly's ``base`` template with only what our figures use: its 2-D layout and the
    defaults of the trace types we draw (a figure looks the same), and our tick numbers
    (:data:`_AXIS_NUMBERS`) on every axis. Plotly copies and validates a figure's template
    each time one is built and sends it with the figure: the full template (about 40 trace
    types, polar, ternary, 3-D and map axes) cost about 20 ms per figure and 7 kB of every
    chart's message; this one, a fraction of both."""
    full = pio.templates[base]
    keep = ("autotypenumbers", "colorway", "font", "hovermode", "hoverlabel", "paper_bgcolor",
            "plot_bgcolor", "coloraxis", "colorscale", "xaxis", "yaxis", "shapedefaults",
            "annotationdefaults", "title")
    layout = {k: v for k, v in full.layout.to_plotly_json().items() if k in keep}
    for axis in ("xaxis", "yaxis"):
        layout[axis] = {**layout.get(axis, {}), **_AXIS_NUMBERS}
    data = {k: v for k, v in full.data.to_plotly_json().items() if k in traces}
    return go.layout.Template(layout=layout, data=data)


# Every figure names this template (in _LAYOUT). Not made plotly's default: Streamlit
# sets its own default template when it is imported, whichever comes first.
TEMPLATE_NAME = "dpviz_white"
pio.templates[TEMPLATE_NAME] = _slim_template()

_LAYOUT = dict(
    template=TEMPLATE_NAME,
    margin=dict(l=60, r=20, t=60, b=50),
    legend=dict(orientation="h", yanchor="bottom", y=1.02, xanchor="left", x=0),
    font=dict(size=14),
)


def _rgba(hex_color: str, alpha: float) -> str:
    """A "#rrggbb" colour of the scheme as a CSS rgba() string with opacity ``alpha``."""
    r, g, b = (int(hex_color[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha})"


# The homogeneity tests as legends name them (calibration and planner figures; translated
# where shown: _(_TEST_NAMES[test])), and the colour of each on the calibration figures.
_TEST_NAMES = {"bootstrap": N_("parametric bootstrap"), "chisq": N_("naive χ²"),
               "normal_score": N_("normal-score contrast"),
               "calibrated": N_("calibrated normal-score")}
_TEST_COLORS = {"bootstrap": COLORS["estimate"], "chisq": COLORS["statistic"],
                "normal_score": COLORS["original"], "calibrated": COLORS["theory"]}


def _test_name(test: str) -> str:
    """A homogeneity test's name as the legends write it, in the reader's language (a test
    without one: its key)."""
    return _(_TEST_NAMES[test]) if test in _TEST_NAMES else test


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


# Plotly labels the minor ticks of a log axis spanning few decades with a bare digit ("2",
# "5" for 20 and 50, issue 36). A log axis that sets no ticks of its own is labelled at its
# decades only when it spans more than LOG_DECADES_ONLY decades, else at 1, 2, 3, 5 × 10^k
# written in full (Plotly writes an explicit tick value whole: "2×10⁻⁵", "0.2").
LOG_DECADES_ONLY = 2.0
LOG_MAX_TICKS = 8  # decades labelled at most: every second, third … decade beyond


def log_axis_ticks(values) -> dict:
    """The tick settings of a log axis showing the finite positive ``values`` (or the ends
    of its range): decades only (``dtick`` 1, or every n-th decade so that at most
    LOG_MAX_TICKS are labelled) or tick values 1, 2, 3, 5 × 10^k; never Plotly's bare minor
    digits."""
    v = _finite_positive(np.ravel(np.asarray(values, dtype=object)))
    if v.size == 0:
        return {"dtick": 1}
    span = float(np.log10(v.max()) - np.log10(v.min()))  # no overflow at 10⁻³⁰⁰ … 10³⁰⁰
    if span > LOG_DECADES_ONLY:
        return {"dtick": max(1, int(np.ceil(span / LOG_MAX_TICKS)))}
    return {"tickvals": _log_ticks(v)}


def _axis_values(data: list[dict], layout: dict, key: str) -> list:
    """The values the axis ``key`` ("xaxis", "yaxis2") shows: the ends of its range if it
    sets one (log10 units), else its traces' values on it."""
    axis = layout.get(key) or {}
    if axis.get("range") is not None and None not in axis["range"]:
        return [10.0 ** float(r) for r in axis["range"]]
    letter, ref = key[0], key[0] + key[5:]
    values: list = []
    for trace in data:
        if (trace.get(f"{letter}axis") or letter) == ref and trace.get(letter) is not None:
            values.extend(np.ravel(np.asarray(trace[letter], dtype=object)).tolist())
    return values


def _label_log_axes(data: list[dict], layout: dict) -> dict:
    """``layout`` with every log axis that sets no ticks labelled by :func:`log_axis_ticks`."""
    out = dict(layout)
    for key, axis in layout.items():
        if (isinstance(axis, dict) and key[1:5] == "axis" and key[0] in "xy"
                and axis.get("type") == "log"
                and not {"tickvals", "dtick", "tickmode"} & set(axis)):
            out[key] = {**axis, **log_axis_ticks(_axis_values(data, layout, key))}
    return out


# Lines and bands across a plot: what plotly's fig.add_vline / add_hline / add_vrect /
# add_hrect add, the same shape and annotation (tests/test_viz_style.py compares them),
# without their cost: those methods search every subplot for data and validate the
# figure's shapes again for each one (about 6 ms a line on a single plot, 25 ms on
# subplots), which was most of a figure's build time on some pages.
_SPAN_SHAPES = {
    "vline": lambda v: dict(type="line", x0=v["x"], x1=v["x"], y0=0, y1=1),
    "hline": lambda v: dict(type="line", x0=0, x1=1, y0=v["y"], y1=v["y"]),
    "vrect": lambda v: dict(type="rect", x0=v["x0"], x1=v["x1"], y0=0, y1=1),
    "hrect": lambda v: dict(type="rect", x0=0, x1=1, y0=v["y0"], y1=v["y1"]),
}
_SPAN_WHERE = {"vline": ("x",), "hline": ("y",), "vrect": ("x0", "x1"), "hrect": ("y0", "y1")}


def span(shape_type: str, *, xref: str = "x", yref: str = "y",
         **kwargs) -> tuple[dict, dict | None]:
    """The shape and the label (or None) that ``fig.add_<shape_type>(**kwargs)`` puts on the
    plot whose axes are ``xref`` and ``yref`` ("x2", "y2" for a second panel), as plain
    dicts for a figure's spec; ``annotation_*`` keywords give its label as plotly's do
    (plotly's own shapeannotation module places it)."""
    from plotly import shapeannotation

    kwargs = dict(kwargs)
    where = {k: kwargs.pop(k) for k in _SPAN_WHERE[shape_type]}
    shape_args = _SPAN_SHAPES[shape_type](where)
    shape_kwargs, annotation_kwargs = shapeannotation.split_dict_by_key_prefix(
        kwargs, "annotation_")
    annotation = shapeannotation.axis_spanning_shape_annotation(
        None, shape_type, shape_args, annotation_kwargs)
    if shape_type[0] == "v":  # spans the plot's height: y in the domain's units
        refs = dict(xref=xref, yref=f"{yref} domain")
    else:
        refs = dict(xref=f"{xref} domain", yref=yref)
    shape = {**shape_args, **_nested(shape_kwargs), **refs}
    return shape, (None if annotation is None else {**annotation, **refs})


# Labels of lines and bands go to the legend, where Plotly never lets two labels overlap
# nor one sit on an axis line (a label beside its line met the next one, or the axis, at
# some setting of the controls). A legend entry is a scatter trace without data, marked so.
LEGEND_ENTRY = "dpviz legend entry"


def legend_entry(name: str, *, color: str, dash: str = "solid", width: float = 2,
                 kind: str = "line", edge: str | None = None, symbol: str = "square",
                 xaxis: str = "x", yaxis: str = "y") -> dict:
    """A legend entry for a shape (a line or band across a plot, an arrow): a scatter trace
    that only shows ``name`` in the legend, for a figure's spec.

    ``kind`` "line": a line of ``color``, ``dash`` and ``width`` (those of the shape);
    "band": a filled square of ``color`` (the band's translucent fill), outlined in
    ``edge`` (by default ``color``); "mark": a marker ``symbol`` of ``color`` (e.g. an
    arrow for a value beyond the axis). ``xaxis``/``yaxis``: the panel of the shape.

    It carries no data: one missing point (Plotly leaves a trace without points out of
    the legend, and draws nothing for a missing one), no hover, and ``meta`` =
    :data:`LEGEND_ENTRY`, by which dpviz.export.figure_data leaves it out of a figure's
    numbers. Put it after the figure's data traces (an axis takes its type from the first
    trace with points)."""
    entry = dict(type="scatter", x=[None], y=[None], name=name, showlegend=True,
                 hoverinfo="skip", meta=LEGEND_ENTRY)
    if kind == "line":
        entry.update(mode="lines", line=dict(color=color, width=width, dash=dash))
    elif kind == "band":
        entry.update(mode="markers", marker=dict(symbol="square", size=15, color=color,
                                                 line=dict(color=edge or color, width=1)))
    elif kind == "mark":
        entry.update(mode="markers", marker=dict(symbol=symbol, size=12, color=color))
    else:
        raise ValueError(f"`kind` must be 'line', 'band' or 'mark', got {kind!r}.")
    if xaxis != "x":
        entry["xaxis"] = xaxis
    if yaxis != "y":
        entry["yaxis"] = yaxis
    return entry


def is_legend_entry(trace) -> bool:
    """Whether ``trace`` (a trace object or dict) is a :func:`legend_entry`."""
    meta = trace.get("meta") if isinstance(trace, dict) else getattr(trace, "meta", None)
    return meta == LEGEND_ENTRY


def legend_span(shape_type: str, name: str, *, xref: str = "x", yref: str = "y",
                edge: str | None = None, **kwargs) -> tuple[dict, dict]:
    """The shape :func:`span` draws (no label on the plot) and its legend entry, ``name``,
    drawn as the shape is: a line in its colour, dash and width; a band as a square of its
    fill, outlined in ``edge``. Keywords as :func:`span`'s, without ``annotation_*``."""
    if any(key.startswith("annotation") for key in kwargs):
        raise TypeError("legend_span labels a shape in the legend: no annotation_* keywords")
    shape, _label = span(shape_type, xref=xref, yref=yref, **kwargs)
    where = dict(xaxis=xref, yaxis=yref)
    if shape["type"] == "line":
        line = shape.get("line", {})
        entry = legend_entry(name, color=line.get("color", COLORS["reference"]),
                             dash=line.get("dash", "solid"), width=line.get("width", 2),
                             **where)
    else:
        entry = legend_entry(name, color=shape.get("fillcolor", COLORS["reference"]),
                             kind="band", edge=edge, **where)
    return shape, entry


def _nested(props: dict) -> dict:
    """Plotly's "magic underscore" keywords (line_width=0) as nested dicts."""
    out: dict = {}
    for key, value in props.items():
        head, _sep, rest = key.partition("_")
        if rest and head in ("line", "font", "marker", "title"):
            out.setdefault(head, {})[rest] = value
        elif isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


# ---------------------------------------------------------------------------
# Figures built from their spec in one step
# ---------------------------------------------------------------------------

# Plotly's check of every property name and value when a figure is built. It costs most
# of a figure's build time, and on the server every figure is rebuilt when a control
# moves; the tests turn it on (tests/conftest.py), so every spec our builders write is
# checked there.
VALIDATE_FIGURES = False
_TEMPLATE_SPEC = pio.templates[TEMPLATE_NAME].to_plotly_json()


def merged(base: dict, *updates: dict) -> dict:
    """``base`` updated by each of ``updates`` in turn, nested dicts merged key by key (as
    fig.update_layout merges), never changing ``base``."""
    out = dict(base)
    for update in updates:
        for key, value in update.items():
            if isinstance(value, dict) and isinstance(out.get(key), dict):
                out[key] = merged(out[key], value)
            else:
                out[key] = value
    return out


def figure(data: list[dict], layout: dict) -> go.Figure:
    """A figure from its spec: ``data`` the traces (dicts with their "type"), ``layout`` the
    layout over the shared one (_LAYOUT, on the dashboard's template), nested dicts merged.

    One step instead of plotly's incremental calls (add_trace, update_layout, add_vline,
    make_subplots), which look up and validate every property on each call: a figure of a
    few traces took 25–50 ms that way, about 1 ms from its spec. ``_validate`` is plotly's
    own switch for this (private: tests/test_viz_style.py fails loudly if it goes)."""
    spec_layout = merged({k: v for k, v in _LAYOUT.items() if k != "template"}, layout)
    spec_layout = _label_log_axes(data, spec_layout)
    spec_layout["template"] = _TEMPLATE_SPEC
    return go.Figure({"data": data, "layout": spec_layout}, _validate=VALIDATE_FIGURES)


@functools.lru_cache(maxsize=64)
def _panels(rows: int, cols: int, options: tuple) -> dict:
    return make_subplots(rows=rows, cols=cols, **dict(options)).to_plotly_json()["layout"]


def panels(rows: int, cols: int, **options) -> dict:
    """The layout make_subplots(rows, cols, **options) gives (each panel's axes and domain,
    and the panel titles as annotations), for a figure's spec; computed once per
    arrangement, whatever the titles say (they are placed by position, not by text).
    Options are hashable values (subplot_titles as a tuple). The traces of panel (row, col)
    name its axes: see :func:`axes_of`."""
    titles = options.pop("subplot_titles", None)
    if titles:  # a title left empty has no annotation: keep it empty
        options["subplot_titles"] = tuple(f"{i}" if text else "" for i, text in
                                          enumerate(titles))
    layout = copy.deepcopy(_panels(rows, cols, tuple(sorted(options.items()))))
    if titles:
        texts = iter(text for text in titles if text)
        for annotation in layout.get("annotations", []):
            annotation["text"] = next(texts)
    return layout


def axes_of(row: int, col: int, cols: int) -> dict:
    """The xaxis/yaxis names ("x2", "y2") of panel (row, col) of a grid ``cols`` wide, as
    make_subplots numbers them (row by row, from 1)."""
    n = (row - 1) * cols + col
    suffix = "" if n == 1 else str(n)
    return dict(xaxis=f"x{suffix}", yaxis=f"y{suffix}")


class SentFigure(go.Figure):
    """A copy of ``figure`` that keeps its dict as plotly sends it, for a figure drawn many
    times unchanged (one a page caches). Streamlit's st.plotly_chart asks the figure for
    ``to_dict()`` on every draw, and plotly then turns each numpy array into a typed array
    again: 110 ms a draw for the calibration study's figure of 288 arrays, 2.5 ms from the
    kept dict (the same JSON). The copy must not be changed afterwards: its dict would not
    follow. Its traces keep their arrays (the exports read them)."""

    def __init__(self, figure: go.Figure):
        super().__init__(figure, _validate=VALIDATE_FIGURES)
        self._sent = figure.to_dict()

    @classmethod
    def of_spec(cls, spec: dict) -> SentFigure:
        """A figure drawn as ``spec`` (a figure's dict, e.g. :func:`presented`'s) and sent as
        it is: Streamlit given the dict itself would build and validate a figure from it
        again on every draw (about 8 ms a chart)."""
        sent = cls.__new__(cls)
        go.Figure.__init__(sent, spec, _validate=VALIDATE_FIGURES)
        sent._sent = spec
        return sent

    def to_dict(self) -> dict:
        return {"data": list(self._sent["data"]), "layout": dict(self._sent["layout"])}


PRESENTED = 1.25  # how much larger a figure is drawn for a projector (presenting mode)
# The smallest text a figure shows on a projector (px), read at 3 m (issue 36), and its colour:
# the theme's text colour (.streamlit/config.toml), 19:1 on white. Streamlit's own chart
# theme draws ticks and legends in a light grey (3.7:1) unless a figure sets their colour.
PRESENTED_MIN_FONT = 20
PRESENTED_TEXT = "#0E1116"
_DEFAULT_HEIGHT = 450  # Plotly's height of a figure that sets none
_AXIS_KEY = re.compile(r"^[xy]axis\d*$")


def _scaled_fonts(node, scale: float, floor: float = 0):
    """``node`` (a figure's JSON) with the size of every font in it times ``scale``, and at
    least ``floor``."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key.endswith("font") and isinstance(value, dict) and "size" in value:
                value = {**value, "size": max(value["size"] * scale, floor)}
            out[key] = _scaled_fonts(value, scale, floor)
        return out
    if isinstance(node, list):
        return [_scaled_fonts(v, scale, floor) for v in node]
    return node


def _luminance(color) -> float | None:
    """WCAG's relative luminance of ``color`` ("#rrggbb", "rgb(...)", "rgba(...)": its alpha
    over white); None for a colour given otherwise (a name)."""
    if not isinstance(color, str):
        return None
    c = color.strip().lower()
    if re.fullmatch(r"#[0-9a-f]{6}", c):
        rgb, alpha = [int(c[i:i + 2], 16) for i in (1, 3, 5)], 1.0
    elif m := re.fullmatch(r"rgba?\(([^)]*)\)", c):
        parts = [float(v) for v in re.split(r"[\s,/]+", m.group(1).strip()) if v]
        rgb, alpha = parts[:3], parts[3] if len(parts) > 3 else 1.0
    else:
        return None
    rgb = [v * alpha + 255 * (1 - alpha) for v in rgb]

    def channel(v: float) -> float:
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])


def _contrast_on_white(color) -> float | None:
    """The WCAG contrast ratio of ``color`` against white (None: see :func:`_luminance`)."""
    lum = _luminance(color)
    return None if lum is None else 1.05 / (lum + 0.05)


def _text_on(color) -> str:
    """White or :data:`PRESENTED_TEXT`, whichever reads better on ``color`` (a bar's)."""
    lum = _luminance(color)
    if lum is None:
        return PRESENTED_TEXT
    dark = _luminance(PRESENTED_TEXT)
    return "#FFFFFF" if 1.05 / (lum + 0.05) > (lum + 0.05) / (dark + 0.05) else PRESENTED_TEXT


def _readable(font: dict | None, size: float) -> dict:
    """``font`` at ``size`` px at least, in :data:`PRESENTED_TEXT` unless its own colour
    reads at 4.5:1 on white."""
    font = dict(font or {})
    font["size"] = max(font.get("size") or 0, size)
    ratio = _contrast_on_white(font.get("color"))
    if ratio is None or ratio < 4.5:
        font["color"] = PRESENTED_TEXT
    return font


def _legend_above(legend: dict, layout: dict, base: float) -> dict:
    """A horizontal legend above the plot, placed in pixels for text ``base`` px tall: a
    legend's y is a share of the plot's height, so the offset that clears the subplot
    titles at the normal size falls onto them in a shorter, larger-lettered chart. It sits
    a title's height above the plot when the plot has titles above it (subplot titles), and
    the top margin makes room for both."""
    if legend.get("orientation", "h") != "h" or legend.get("y", 1.02) < 1:
        return legend
    titled = any(isinstance(a, dict) and a.get("yref", "paper") == "paper"
                 and (a.get("y") or 0) >= 1 for a in layout.get("annotations", []))
    above = 2.4 * base if titled else 0.2 * base
    margin = {**_LAYOUT["margin"], **layout.get("margin", {})}
    margin["t"] = above + 1.8 * base + 12  # the legend's row above the titles, and no more
    layout["margin"] = margin
    plot = max(layout["height"] - margin["t"] - margin["b"], 1.0)
    return {**legend, "yanchor": "bottom", "y": 1 + above / plot}


def presented(fig: go.Figure, scale: float = PRESENTED, *, height: float | None = None) -> dict:
    """``fig`` drawn ``scale`` times larger for a projector: its height, margins and every
    font (the figure's own and those of its titles, ticks, legend, annotations and trace
    labels), none below :data:`PRESENTED_MIN_FONT` px, and its titles, ticks, legend and
    annotations in a dark colour (4.5:1 at least), as a figure spec (a dict that Plotly and
    Streamlit draw as they draw ``fig``; ``fig`` itself, which the exports and the report
    use, is left as it is). ``height``: the height drawn (px), if not ``scale`` times the
    figure's."""
    floor = PRESENTED_MIN_FONT
    spec = _scaled_fonts(fig.to_dict(), scale, floor)
    layout = spec["layout"]
    template_font = fig.layout.template.layout.font.size if fig.layout.template else None
    base = max((fig.layout.font.size or template_font or 12) * scale, floor)
    layout["font"] = {**layout.get("font", {}), "size": base, "color": PRESENTED_TEXT}
    layout["height"] = height or (fig.layout.height or _DEFAULT_HEIGHT) * scale
    if "margin" in layout:
        layout["margin"] = {k: v * scale if isinstance(v, (int, float)) and k in "lrtb" else v
                            for k, v in layout["margin"].items()}
    # Every axis drawn, those only the traces name too: its ticks and title, set on the
    # axis itself (Streamlit's theme sets them on every axis, which the layout's font does
    # not override).
    axes = {key for key in layout if _AXIS_KEY.match(key)} | {"xaxis", "yaxis"}
    for trace in spec.get("data", []):
        for letter in "xy":
            ref = trace.get(f"{letter}axis")
            if isinstance(ref, str) and ref.startswith(letter):
                axes.add(f"{letter}axis{ref[1:]}")
    # A y axis labels at most one tick per 2.5 lines of text (Plotly spaces its ticks for the
    # normal text size: in a short, large-lettered chart they ran into each other).
    margin = {**_LAYOUT["margin"], **layout.get("margin", {})}
    rows = max(2, int((layout["height"] - margin["t"] - margin["b"]) / (2.5 * base)))
    for key in axes:
        axis = dict(layout.get(key, {}))
        if key.startswith("yaxis") and not {"tickvals", "dtick", "nticks"} & set(axis):
            axis["nticks"] = rows
        axis["tickfont"] = _readable(axis.get("tickfont"), base)
        title = axis.get("title")
        title = dict(title) if isinstance(title, dict) else (
            {"text": title} if isinstance(title, str) else {})
        title["font"] = _readable(title.get("font"), base)
        axis["title"] = title
        layout[key] = axis
    legend = dict(layout.get("legend", {}))
    legend["font"] = _readable(legend.get("font"), base)
    if isinstance(legend.get("title"), dict):
        legend["title"] = {**legend["title"],
                           "font": _readable(legend["title"].get("font"), base)}
    layout["legend"] = _legend_above(legend, layout, base)
    title = layout.get("title")
    if isinstance(title, dict):
        layout["title"] = {**title, "font": _readable(title.get("font"), base)}
    layout["annotations"] = [{**a, "font": _readable(a.get("font"), floor)}
                             for a in layout.get("annotations", [])]
    # Text on bars: white or dark, whichever reads better on the bar (Plotly's own choice
    # puts white on the darkened orange, 2.6:1); beside a bar, dark.
    for trace in spec.get("data", []):
        if trace.get("type") == "bar" and trace.get("text") is not None:
            inside = _text_on((trace.get("marker") or {}).get("color"))
            trace["insidetextfont"] = {**trace.get("insidetextfont", {}), "color": inside}
            trace["outsidetextfont"] = {**trace.get("outsidetextfont", {}),
                                        "color": PRESENTED_TEXT}
    return spec
