"""Tests of dpviz.export: a figure's numbers and its standalone HTML page."""

import numpy as np
import plotly.graph_objects as go

import dpviz
from dpviz.homogeneity import histograms_figure


def test_figure_data_reads_back_every_plotted_point():
    fig = go.Figure([
        go.Scatter(x=[1.0, 2.0], y=[3.0, 4.0], name="curve",
                   error_y=dict(type="data", array=[0.1, 0.2], arrayminus=[0.3, 0.4])),
        go.Bar(x=["u", "v"], y=[5, 6]),
        go.Histogram(x=[1, 2, 2]),
    ])
    data = dpviz.export.figure_data(fig)
    assert list(data["trace"]) == ["curve"] * 2 + ["trace 1"] * 2 + ["trace 2"] * 3
    np.testing.assert_allclose(data["error_low"][:2], [2.7, 3.6])
    np.testing.assert_allclose(data["error_high"][:2], [3.1, 4.2])
    assert list(data["x"][2:4]) == ["u", "v"] and list(data["y"][2:4]) == [5, 6]
    assert list(data["x"][4:]) == [1, 2, 2]


def test_figure_data_of_a_real_figure_matches_its_inputs():
    rng = np.random.default_rng(0)
    original, private = rng.integers(0, 100, 9), rng.uniform(0, 100, 9)
    fig = histograms_figure([str(i) for i in range(9)], private, private[::-1],
                            original_a=original, original_b=original[::-1])
    data = dpviz.export.figure_data(fig)
    assert len(data) == sum(len(t.x) for t in fig.data)
    expected = np.concatenate([np.asarray(t.y, float) for t in fig.data])
    np.testing.assert_allclose(data["y"].astype(float), expected)
    np.testing.assert_allclose(data["y"][9:18].astype(float), private)  # A, private
    assert set(data["subplot"]) == {"x", "x2"}  # A and B side by side, same legend names


def test_figure_data_marks_subplots():
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2)
    fig.add_trace(go.Scatter(x=[1], y=[2], name="left"), row=1, col=1)
    fig.add_trace(go.Scatter(x=[3], y=[4], name="right"), row=1, col=2)
    assert list(dpviz.export.figure_data(fig)["subplot"]) == ["x", "x2"]


def test_figure_html_is_standalone_and_titled():
    page = dpviz.export.figure_html(go.Figure(go.Scatter(x=[1], y=[2])), "A <b> title")
    assert page.lower().startswith("<!doctype html>") and "plotly.js v" in page
    assert "<title>A &lt;b&gt; title</title>" in page


def test_figure_data_joins_the_two_levels_of_a_category_axis():
    fig = go.Figure([go.Scatter(x=[["a", "a", "b"], ["1", "2", "1"]], y=[5, 6, 7], name="two"),
                     go.Scatter(x=[["only"], ["one"]], y=[8], name="single point")])
    data = dpviz.export.figure_data(fig)
    assert list(data["x"]) == ["a | 1", "a | 2", "b | 1", "only | one"]
    assert list(data["y"]) == [5, 6, 7, 8]
    # Plain categories of two points are not taken for two levels.
    plain = dpviz.export.figure_data(go.Figure(go.Scatter(x=["ab", "cd"], y=[1, 2])))
    assert list(plain["x"]) == ["ab", "cd"]
