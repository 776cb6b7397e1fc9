"""Tests of dpviz.style: the colour scheme, the template and the lines across a plot."""

import plotly.graph_objects as go
import plotly.io as pio
import pytest
from plotly.subplots import make_subplots

from dpviz import style
from dpviz.style import COLORS, OKABE_ITO


def test_every_colour_but_the_reference_grey_is_okabe_ito():
    assert set(COLORS.values()) - set(OKABE_ITO.values()) == {COLORS["reference"]}


def test_the_slim_template_draws_our_traces_and_axes_as_plotly_white_does():
    slim, full = pio.templates[style.TEMPLATE_NAME], pio.templates["plotly_white"]
    assert style._LAYOUT["template"] == style.TEMPLATE_NAME
    for key, value in slim.layout.to_plotly_json().items():
        assert value == full.layout.to_plotly_json()[key], key
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
