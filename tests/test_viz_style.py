"""Tests of dpviz.style: the colour scheme, the template and the lines across a plot."""

import plotly.graph_objects as go
import plotly.io as pio
import pytest
from plotly.subplots import make_subplots

from dpviz import style
from dpviz.style import COLORS, OKABE_ITO
from vizkit import data_traces, every_figure, legend_entries


def test_every_colour_but_the_reference_grey_is_okabe_ito():
    assert set(COLORS.values()) - set(OKABE_ITO.values()) == {COLORS["reference"]}


def test_the_slim_template_draws_our_traces_and_axes_as_plotly_white_does():
    """As plotly_white, but for the numbers of the axes' ticks: powers of ten, never SI
    prefixes, and thousands separated."""
    slim, full = pio.templates[style.TEMPLATE_NAME], pio.templates["plotly_white"]
    assert style._LAYOUT["template"] == style.TEMPLATE_NAME
    for key, value in slim.layout.to_plotly_json().items():
        expected = full.layout.to_plotly_json()[key]
        if key in ("xaxis", "yaxis"):
            expected = {**expected, "exponentformat": "power", "separatethousands": True}
        assert value == expected, key
    kept = set(slim.layout.to_plotly_json())
    assert {"xaxis", "yaxis", "colorway", "font", "plot_bgcolor"} <= kept
    for trace, defaults in slim.data.to_plotly_json().items():
        assert defaults == full.data.to_plotly_json()[trace], trace
    assert len(slim.to_plotly_json().__repr__()) < len(full.to_plotly_json().__repr__()) / 2


SPANS = [("vline", dict(x=1.5)), ("hline", dict(y=2.0)), ("vrect", dict(x0=0.5, x1=1.0)),
         ("hrect", dict(y0=1.0, y1=2.0))]
POSITIONS = [None, "top", "bottom", "left", "right", "top left", "top right", "bottom left",
             "bottom right"]


@pytest.mark.parametrize("shape_type, where", SPANS, ids=[s for s, _ in SPANS])
def test_span_is_what_plotly_adds(shape_type, where):
    """style.span against plotly's own fig.add_vline / add_hline / add_vrect / add_hrect:
    the same shapes and annotations, on a single plot and on each subplot."""
    def single():
        return go.Figure(go.Scatter(x=[0, 1, 2], y=[1, 2, 3]))

    def panels():
        fig = make_subplots(rows=1, cols=2)
        for col in (1, 2):
            fig.add_trace(go.Scatter(x=[0, 1], y=[1, 2]), row=1, col=col)
        return fig

    style_kw = (dict(line=dict(color="#000000", width=2, dash="dot")) if "line" in shape_type
                else dict(fillcolor="rgba(0,0,0,0.1)", line_width=0))
    for position in POSITIONS:
        kw = {**where, **style_kw}
        if position:
            kw.update(annotation_text="label", annotation_position=position)
        for make, where_panel, axes in [(single, {}, {}),
                                        (panels, dict(row=1, col=1), dict(xref="x", yref="y")),
                                        (panels, dict(row=1, col=2),
                                         dict(xref="x2", yref="y2"))]:
            ours, theirs = make(), make()
            shape, annotation = style.span(shape_type, **kw, **axes)
            ours.add_shape(shape)
            if annotation is not None:
                ours.add_annotation(annotation)
            getattr(theirs, f"add_{shape_type}")(**kw, **where_panel)
            assert ours.layout.shapes == theirs.layout.shapes, (position, where_panel)
            assert ours.layout.annotations == theirs.layout.annotations, (position, where_panel)
            assert len(ours.layout.shapes) == 1


def test_figures_are_validated_in_the_tests_and_the_switch_is_plotlys_own():
    """dpviz.style.figure builds with plotly's private ``_validate`` switch: checked here in
    both positions, so a plotly release that drops or renames it fails this test."""
    assert style.VALIDATE_FIGURES  # tests/conftest.py: every test figure is checked
    def bad():  # opacity lies in [0, 1]
        return [dict(type="bar", x=[1], y=[2], opacity=7)]

    with pytest.raises(ValueError, match="opacity"):
        style.figure(bad(), {})
    style.VALIDATE_FIGURES = False
    try:
        fig = style.figure(bad(), dict(height=300))
    finally:
        style.VALIDATE_FIGURES = True
    assert fig.layout.height == 300 and fig.data[0].type == "bar"


def test_a_figure_from_its_spec_is_what_plotlys_calls_make():
    spec = style.figure([dict(type="scatter", x=[0, 1], y=[1, 2], name="a",
                              line=dict(color=COLORS["theory"]))],
                        dict(height=300, legend=dict(y=1.1), xaxis=dict(title=dict(text="x"))))
    fig = go.Figure(go.Scatter(x=[0, 1], y=[1, 2], name="a", line_color=COLORS["theory"]))
    fig.update_layout(height=300, **style._LAYOUT)
    fig.update_layout(legend_y=1.1, xaxis_title_text="x")
    assert spec.to_plotly_json() == fig.to_plotly_json()


def test_panels_are_make_subplots_layout_and_axes_of_names_its_axes():
    for titles in [("a", "b", "c", "d", "e", "f"), ("Korea <b>", "", "a much longer title",
                                                     "d", "", "f")]:
        fig = make_subplots(rows=2, cols=3, subplot_titles=titles, shared_yaxes=True)
        assert style.panels(2, 3, subplot_titles=titles, shared_yaxes=True) == \
            fig.to_plotly_json()["layout"], titles
    layout = style.panels(2, 3, subplot_titles=("a", "b", "c", "d", "e", "f"))
    fig = make_subplots(rows=2, cols=3, subplot_titles=("a", "b", "c", "d", "e", "f"))
    assert layout == fig.to_plotly_json()["layout"]
    layout["xaxis"]["title"] = "changed"  # a copy: the next figure starts afresh
    assert "title" not in style.panels(2, 3, subplot_titles=("a", "b", "c", "d", "e", "f"))["xaxis"]
    for row in (1, 2):
        for col in (1, 2, 3):
            sub = fig.get_subplot(row, col)
            names = style.axes_of(row, col, cols=3)
            assert sub.xaxis.plotly_name.replace("axis", "") == names["xaxis"]
            assert sub.yaxis.plotly_name.replace("axis", "") == names["yaxis"]


def test_a_sent_figure_sends_what_its_figure_sends_and_keeps_its_arrays():
    import json

    import numpy as np
    import plotly.io as pio_
    from plotly.tools import return_figure_from_figure_or_data

    fig = go.Figure(go.Scatter(x=np.arange(5.0), y=np.arange(5.0) ** 2, name="a"))
    fig.update_layout(**style._LAYOUT)
    sent = style.SentFigure(fig)

    def as_streamlit_sends(f):  # st.plotly_chart's conversion, in its own words, parsed
        return json.loads(pio_.to_json(return_figure_from_figure_or_data(f, True),
                                       validate=False))

    assert as_streamlit_sends(sent) == as_streamlit_sends(fig)
    assert as_streamlit_sends(sent) == as_streamlit_sends(sent)  # drawing it changes nothing
    assert list(sent.data[0].y) == [0.0, 1.0, 4.0, 9.0, 16.0]  # the exports read arrays


# --- labels that never meet, and tick numbers per quantity (issue 23) ------------------------


def test_legend_entry_names_a_line_band_or_mark_and_carries_no_data():
    line = style.legend_entry("observed T = 108.2", color=COLORS["statistic"], width=3)
    assert line == dict(type="scatter", x=[None], y=[None], name="observed T = 108.2",
                        showlegend=True, hoverinfo="skip", meta=style.LEGEND_ENTRY,
                        mode="lines", line=dict(color=COLORS["statistic"], width=3,
                                                dash="solid"))
    band = style.legend_entry("target", color="rgba(0,158,115,0.15)", kind="band",
                              edge=COLORS["estimate"], xaxis="x2", yaxis="y2")
    assert band["mode"] == "markers" and band["marker"]["symbol"] == "square"
    assert band["marker"]["color"] == "rgba(0,158,115,0.15)"
    assert band["marker"]["line"]["color"] == COLORS["estimate"]
    assert (band["xaxis"], band["yaxis"]) == ("x2", "y2")
    mark = style.legend_entry("beyond", color="#000000", kind="mark", symbol="arrow-right")
    assert mark["marker"]["symbol"] == "arrow-right"
    with pytest.raises(ValueError, match="kind"):
        style.legend_entry("x", color="#000000", kind="arrow")
    fig = style.figure([dict(type="scatter", x=[1, 2], y=[3, 4], name="data"), line, band],
                       {})
    assert [style.is_legend_entry(t) for t in fig.data] == [False, True, True]
    # Plotly leaves a trace without points out of the legend: one missing point each
    assert all(list(t.x) == [None] and list(t.y) == [None] for t in fig.data[1:])


@pytest.mark.parametrize("shape_type, where", SPANS, ids=[s for s, _ in SPANS])
def test_legend_span_is_the_span_and_an_entry_drawn_as_it(shape_type, where):
    kw = (dict(line=dict(color="#000000", width=3, dash="dot")) if "line" in shape_type
          else dict(fillcolor="rgba(0,0,0,0.1)", line_width=0))
    shape, entry = style.legend_span(shape_type, "the name", **where, **kw, xref="x2",
                                     yref="y2")
    assert shape == style.span(shape_type, **where, **kw, xref="x2", yref="y2")[0]
    assert entry["name"] == "the name" and style.is_legend_entry(entry)
    if "line" in shape_type:
        assert entry["line"] == dict(color="#000000", width=3, dash="dot")
    else:
        assert entry["marker"]["color"] == "rgba(0,0,0,0.1)"
    assert (entry["xaxis"], entry["yaxis"]) == ("x2", "y2")
    with pytest.raises(TypeError, match="annotation"):
        style.legend_span(shape_type, "n", **where, annotation_text="label")


FIGURES = every_figure()


def test_every_figure_builder_of_dpviz_is_checked():
    import dpviz

    builders = {f"{module}.{name}" for module in ("fdp", "gaussian", "homogeneity", "ldp",
                                                  "planner", "substitution")
                for name in getattr(dpviz, module).__all__ if name.endswith("_figure")}
    assert builders == {builder for _label, _fig, builder in FIGURES}


def _domains(layout: dict, letter: str) -> list[tuple[float, float]]:
    return [tuple(v.get("domain", (0.0, 1.0))) for k, v in layout.items()
            if k.startswith(f"{letter}axis")] or [(0.0, 1.0)]


def _is_panel_title(a: dict, layout: dict) -> bool:
    """A panel's title as make_subplots (and plotly express's facets) place it, in paper
    units: a column title centred over a panel, on its top edge; a row title turned along
    a panel's right edge, centred on it. Placed by the panels' domains, apart from the
    plots' lines and from one another."""
    if a.get("xref") != "paper" or a.get("yref") != "paper" or a.get("showarrow", True):
        return False
    xs, ys = _domains(layout, "x"), _domains(layout, "y")
    near = lambda v, options: any(abs(v - o) < 1e-9 for o in options)  # noqa: E731
    column = (a.get("xanchor") == "center" and a.get("yanchor") == "bottom"
              and near(a["x"], [(lo + hi) / 2 for lo, hi in xs])
              and near(a["y"], [hi for _lo, hi in ys]))
    row = (a.get("textangle") == 90 and a.get("xanchor") == "left"
           and a.get("yanchor") == "middle" and near(a["x"], [hi for _lo, hi in xs])
           and near(a["y"], [(lo + hi) / 2 for lo, hi in ys]))
    return column or row


@pytest.mark.parametrize("label, fig, builder", FIGURES, ids=[f[0] for f in FIGURES])
def test_no_label_of_a_line_or_band_is_drawn_on_the_plot(label, fig, builder):
    """(a) Every label of a line or band is a legend entry. The annotations left are:
    panel titles (placed by make_subplots apart from the plots' lines and one another); the
    bare arrow, without text, that points to an observed T beyond the axis (at the right
    edge, mid-height: no text to meet anything, and T is named in the legend); and the
    one note on a power chart without points, centred, on white, with no other label."""
    layout = fig.to_plotly_json()["layout"]
    for a in layout.get("annotations", []):
        if _is_panel_title(a, layout):
            continue
        if a.get("text") == "":
            assert builder == "homogeneity.null_distribution_figure", label
            assert a["showarrow"] and a["x"] == layout["xaxis"]["range"][1]
            assert (a["y"], a["ay"], a["yref"]) == (0.5, 0, "paper")
            assert any("beyond the right edge" in name for name in legend_entries(fig))
            continue
        assert a["text"] == "no simulated points", (label, a)
        assert builder == "planner.planner_power_figure" and not any(
            len(t.x) for t in data_traces(fig) if t.type == "scatter" and "power" in t.name)
        assert (a["x"], a["y"], a["bgcolor"]) == (0.5, 0.5, "white")
        assert len(layout["annotations"]) == 1
    # A figure with lines or bands labelled in its legend shows its legend, which pushes
    # the top (or bottom) margin as it wraps: never drawn over the plot.
    if legend_entries(fig):
        assert layout.get("showlegend") is not False, label
    assert layout.get("margin", {}).get("autoexpand", True) is not False, label
    legend = layout.get("legend", {})
    if legend.get("orientation") == "h":
        assert ((legend.get("yanchor") == "bottom" and legend["y"] >= 1)
                or (legend.get("yanchor") == "top" and legend["y"] <= 0)), (label, legend)


# Axis titles of counts (written in full: 20,000) and of probabilities, rates and shares
# (decimals or percentages), as the builders write them in English.
COUNT_TITLES = {"count", "users", "records", "statistic", "chi-square statistic (2.3)",
                "C (true count) / C̃ (debiased)", "X (noisy count), g(C)",
                "E X̂ − X (records)"}
PROBABILITY_TITLES = {"type-I error α", "type-II error β", "power (rejection rate)",
                      "rejection rate (share of replicates)", "probability", "share",
                      "type-I error (share of replicates)"}
SI_FORMATS = {"B", "SI", "SI extended"}


@pytest.mark.parametrize("label, fig, builder", FIGURES, ids=[f[0] for f in FIGURES])
def test_no_axis_writes_si_prefixes_and_counts_are_written_in_full(label, fig, builder):
    """(b) Every axis (xaxis, xaxis2, …, yaxis, …) resolves to an exponent format other
    than Plotly's SI prefixes ("B", the default: 50µ, 20k): its own, else the template's;
    no d3 tick format of SI type ("~s"). Count axes are written in full with thousands
    separators, probability axes as decimals or percentages."""
    layout = fig.to_plotly_json()["layout"]
    template = fig.layout.template.layout
    axes = {k: v for k, v in layout.items() if k.startswith(("xaxis", "yaxis"))}
    assert axes, label
    for name, axis in axes.items():
        fallback = template.xaxis if name.startswith("x") else template.yaxis
        fmt = axis.get("exponentformat", fallback.exponentformat)
        assert fmt is not None and fmt not in SI_FORMATS, (label, name, fmt)
        tickformat = axis.get("tickformat", fallback.tickformat) or ""
        assert not tickformat.endswith("s"), (label, name, tickformat)
        title = (axis.get("title") or {}).get("text")
        if title in COUNT_TITLES:
            assert fmt == "none" and axis.get("separatethousands", True), (label, name)
        if title in PROBABILITY_TITLES:
            assert tickformat.endswith(("r", "%")), (label, name, tickformat)


@pytest.mark.parametrize("label, fig, builder", FIGURES, ids=[f[0] for f in FIGURES])
def test_legend_entries_carry_no_data_and_leave_the_csv_as_it_was(label, fig, builder):
    """(c) A legend entry has one missing point, no hover, and no row in the figure's CSV:
    the export of the figure is that of the figure without its entries."""
    import plotly.graph_objects as go

    from dpviz import export

    for entry in legend_entries(fig).values():
        assert list(entry.x) == [None] and list(entry.y) == [None], label
        assert entry.hoverinfo == "skip" and entry.showlegend
    without = go.Figure(data=data_traces(fig), layout=fig.layout)
    expected = export.figure_data(without)
    got = export.figure_data(fig)
    assert got.equals(expected), label
    assert not set(got["trace"]) & set(legend_entries(fig)), label


def test_the_csv_of_a_figure_with_legend_entries_has_no_rows_for_them():
    from dpviz import export
    from dpviz.homogeneity import null_distribution_figure

    null = [1.0, 2.0, 3.0, 4.0]
    fig = null_distribution_figure(null, 3.5, 3.0)
    assert set(legend_entries(fig)) == {"95% critical value 3.0", "observed T = 3.5"}
    data = export.figure_data(fig)
    assert list(data.columns) == ["trace", "x", "y"]  # one plot: no subplot column
    assert list(data["trace"]) == ["bootstrap null (B = 4)"] * 4
    assert list(data["x"]) == null


def test_the_chart_html_export_and_the_report_draw_with_the_same_tick_formats():
    """The Chart (HTML) download and the report draw the figure the page draws: the same
    template (no SI prefixes) and the same count axes, written into their HTML."""
    import json

    from dpviz import export, report

    from vizkit import every_figure

    label, fig, _builder = next(f for f in every_figure() if f[0].startswith("null"))
    layout = fig.to_plotly_json()["layout"]
    for html in (export.figure_html(fig, "t"),
                 report.html_report("t", findings=[], parameters={}, figures=[("t", fig)],
                                    tables=[], notes=[])):
        assert '"exponentformat":"power"' in html.replace(" ", ""), label
        assert '"separatethousands":true' in html.replace(" ", ""), label
        assert json.dumps(layout["xaxis"]["exponentformat"]) in html, label


def _luminance(hex_color: str) -> float:
    """WCAG 2.1's relative luminance of "#rrggbb"."""
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """WCAG 2.1's contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_is_wcags_formula():
    assert contrast("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert contrast("#777777", "#FFFFFF") == pytest.approx(4.48, abs=0.01)  # WebAIM's example
    # as published, Okabe & Ito's orange, sky blue and yellow are below 3:1 on white
    from dpviz import style

    published = style.OKABE_ITO_PUBLISHED
    assert [name for name, c in published.items() if contrast(c, "#FFFFFF") < 3] == [
        "orange", "sky blue", "yellow"]


def test_every_colour_of_a_line_marker_or_bar_has_3_to_1_against_the_plot():
    """Issue 24: WCAG 2.1 1.4.11 (graphics, 3:1) for every colour the figures draw lines,
    markers and bars with, against the plot's background (the template's white); each
    keeps the hue of its Okabe-Ito original."""
    import colorsys

    from dpviz import fdp, gaussian, ldp, style

    background = {"white": "#FFFFFF"}.get(
        pio.templates[style.TEMPLATE_NAME].layout.plot_bgcolor)
    palettes = {"COLORS": style.COLORS, "OKABE_ITO": style.OKABE_ITO,
                "FDP_COLORS": fdp.FDP_COLORS, "CALIBRATION_COLORS": gaussian.CALIBRATION_COLORS,
                "KRR_ESTIMATOR_COLORS": ldp.KRR_ESTIMATOR_COLORS, "tests": style._TEST_COLORS}
    low = {f"{name}[{key}]": round(contrast(c, background), 2)
           for name, palette in palettes.items() for key, c in palette.items()
           if contrast(c, background) < 3.0}
    assert not low, (background, low)

    def hue(c: str) -> float:
        return colorsys.rgb_to_hls(*(int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)))[0]

    for name, shade in style.OKABE_ITO.items():
        original = style.OKABE_ITO_PUBLISHED[name]
        assert abs(hue(shade) - hue(original)) < 0.01, name  # the same hue, only darker


def _font_sizes(node, path=()):
    """Every font size in a figure's JSON, by where it is."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("font") and isinstance(value, dict) and "size" in value:
                yield path + (key,), value["size"]
            yield from _font_sizes(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _font_sizes(value, path + (i,))


@pytest.mark.parametrize(("label", "fig", "builder"), FIGURES, ids=[f[0] for f in FIGURES])
def test_a_presented_figure_is_the_figure_larger_and_the_figure_is_left_as_it_was(
        label, fig, builder):
    """Issue 24's presenting mode: every font of the figure (its own, titles, ticks, legend,
    annotations, trace labels), its height and margins times PRESENTED; same data."""
    from dpviz.style import PRESENTED, PRESENTED_MIN_FONT, presented

    before, sent = fig.to_dict(), fig.to_json()
    spec = presented(fig)
    assert fig.to_json() == sent
    assert [t.get("type") for t in spec["data"]] == [t.get("type") for t in before["data"]]
    sizes = dict(_font_sizes(before))
    for where, size in _font_sizes(spec):  # 20 px at least, read at 3 m (issue 36)
        if where in sizes:
            assert size == pytest.approx(max(sizes[where] * PRESENTED, PRESENTED_MIN_FONT)), where
    assert spec["layout"]["font"]["size"] == pytest.approx(
        max((fig.layout.font.size or 12) * PRESENTED, PRESENTED_MIN_FONT))
    assert spec["layout"]["height"] == pytest.approx((fig.layout.height or 450) * PRESENTED)
    for side in "lrb":
        if fig.layout.margin[side] is not None:
            assert spec["layout"]["margin"][side] == pytest.approx(
                fig.layout.margin[side] * PRESENTED)
    # A legend above the plot is placed in pixels at the larger text (_legend_above): its
    # bottom a title's height above the plot when there are subplot titles, the top margin
    # its row and that; other figures keep their top margin, scaled.
    legend = spec["layout"]["legend"]
    base = spec["layout"]["font"]["size"]
    if legend.get("orientation", "h") == "h" and legend.get("y", 1.02) >= 1:
        titled = any((a.get("y") or 0) >= 1 for a in spec["layout"].get("annotations", []))
        above = 2.4 * base if titled else 0.2 * base
        top = spec["layout"]["margin"]["t"]
        assert top == pytest.approx(above + 1.8 * base + 12)
        plot = spec["layout"]["height"] - top - spec["layout"]["margin"]["b"]
        assert (legend["y"] - 1) * plot == pytest.approx(above, rel=1e-9)
    elif fig.layout.margin.t is not None:
        assert spec["layout"]["margin"]["t"] == pytest.approx(fig.layout.margin.t * PRESENTED)
    # y ticks: at most one per 2.5 lines of text
    for key, axis in spec["layout"].items():
        if key.startswith("yaxis") and "nticks" in axis and "tickvals" not in axis:
            assert axis["nticks"] >= 2


# --- issue 36: log axes never label a minor tick with a bare digit ----------------------------

def test_a_log_axis_is_labelled_at_decades_or_in_full():
    """A log axis that sets no ticks: over more than two decades, decades only (every n-th
    when more than eight would be labelled); over fewer, 1, 2, 3, 5 × 10^k, which Plotly
    writes whole ("2×10⁻⁵", "0.2"), never its bare minor digits "2" and "5"."""
    from dpviz.style import LOG_MAX_TICKS, figure, log_axis_ticks

    assert log_axis_ticks([1e-5, 1e-1]) == {"dtick": 1}
    assert log_axis_ticks([1e-23, 1.0]) == {"dtick": 3}  # 23 decades: at most 8 labelled
    assert 23 / log_axis_ticks([1e-23, 1.0])["dtick"] <= LOG_MAX_TICKS
    assert log_axis_ticks([0.1, 3.0])["tickvals"] == pytest.approx([0.1, 0.2, 0.3, 0.5, 1, 2, 3])
    fig = figure([dict(type="scatter", x=[0.1, 10], y=[1e-5, 4e-5]),
                  dict(type="scatter", x=[1, 2], y=[1, 2], yaxis="y2")],
                 dict(xaxis=dict(type="log"), yaxis=dict(type="log", exponentformat="power"),
                      yaxis2=dict(type="log", range=[-30, 0]),
                      xaxis2=dict(type="log", tickvals=[1, 10])))
    assert list(fig.layout.xaxis.tickvals) == pytest.approx([0.1, 0.2, 0.3, 0.5, 1, 2, 3, 5, 10])
    assert list(fig.layout.yaxis.tickvals) == pytest.approx([1e-5, 2e-5, 3e-5, 5e-5])
    assert fig.layout.yaxis2.dtick == 4  # its range, 30 decades
    assert list(fig.layout.xaxis2.tickvals) == [1, 10]  # its own ticks kept


def test_every_log_axis_of_the_pages_figures_sets_its_ticks():
    """Every dpviz figure with a log axis labels it by decades or by tick values."""
    import numpy as np

    import dpviz

    figs = [dpviz.fdp.delta_curve_figure(np.linspace(0, 10, 50), np.logspace(-1, -23, 50),
                                         mu=1.0),
            dpviz.fdp.delta_curve_figure(np.linspace(0, 2, 50), np.logspace(-1, -2, 50),
                                         mu=1.0)]
    for fig in figs:
        for axis in (fig.layout.xaxis, fig.layout.yaxis):
            if axis.type == "log":
                assert axis.dtick is not None or axis.tickvals is not None, axis
