"""Tests of dpviz.export: a figure's numbers, its standalone HTML page, and CSV text that
no spreadsheet runs as formulas."""

import csv
import io

import numpy as np
import pandas as pd
import plotly.graph_objects as go

import dpviz
from dpviz import export
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


# --- CSV files that no spreadsheet runs as formulas (OWASP: CSV injection) -------------------

CSV_PAYLOADS = ["=1+2", "+cmd|' /C calc'!A0", "-2+3", "@SUM(1)", "\t=1+2", "\r=1+2",
                '=HYPERLINK("https://example.org","x")']


def test_csv_text_prefixes_every_formula_start_and_keeps_numbers():
    frame = pd.DataFrame({"label": CSV_PAYLOADS, "count": np.arange(-3, 4),
                          "share": np.linspace(-0.5, 0.5, 7),
                          "mixed": [1.5, -2, "=a", "-x", None, "plain", "0–4"]})
    frame.index = pd.Index(CSV_PAYLOADS, name="=bin")
    text = export.csv_text(frame, index=True)
    # As a spreadsheet splits it (a cell holding a carriage return is one cell, quoted).
    header, *rows = list(csv.reader(io.StringIO(text, newline="")))
    assert header == ["'=bin", "label", "count", "share", "mixed"] and len(rows) == 7
    assert [r[0] for r in rows] == [r[1] for r in rows] == ["'" + p for p in CSV_PAYLOADS]
    assert [int(r[2]) for r in rows] == list(range(-3, 4))  # negative counts stay numbers
    np.testing.assert_allclose([float(r[3]) for r in rows], np.linspace(-0.5, 0.5, 7))
    assert [r[4] for r in rows] == ["1.5", "-2", "'=a", "'-x", "", "plain", "0–4"]
    # The frame itself keeps the user's labels.
    assert list(frame["label"]) == CSV_PAYLOADS and frame.index.name == "=bin"


def test_csv_text_names_a_column_safely_and_leaves_plain_files_as_to_csv_writes_them():
    hostile = pd.DataFrame({"@SUM(1)": [1, 2], "-x": ["a", "b"]})
    assert export.csv_text(hostile).splitlines()[0] == "'@SUM(1),'-x"
    plain = pd.DataFrame({"bin": ["0–4", "5–9"], "count": [-1, 2], "p": [0.25, 0.75]})
    assert export.csv_text(plain) == plain.to_csv(index=False, lineterminator="\r\n")


# --- user text in figures: shown as typed, never as Plotly's HTML ----------------------------

HOSTILE_LABELS = ["<a href='https://example.org'>x</a>", "<b>b</b><br>", "&lt;", "0–4"]


def _user_text_figures():
    from dpviz import gaussian, homogeneity, ldp, planner, substitution

    k = len(HOSTILE_LABELS)
    ones = np.ones(k)
    name = "<a href='https://example.org/n'>A</a>"
    yield homogeneity.histograms_figure(HOSTILE_LABELS, ones, ones, original_a=ones,
                                        original_b=ones, name_a=name, name_b="<b>B</b>")
    yield gaussian.histogram_release_figure(HOSTILE_LABELS, ones, ones, half_width=1.0)
    yield ldp.krr_counts_figure(HOSTILE_LABELS, ones, ones, ones, ones - 1, ones + 1,
                                estimator_name="unbiased")
    yield planner.planner_distributions_figure(HOSTILE_LABELS, ones / k, ones / k,
                                               name_a=name, name_b="<b>B</b>")
    yield substitution.substitution_counts_figure(HOSTILE_LABELS, ones, ones, ones, ones)


def test_user_labels_and_names_reach_plotly_as_entities_and_the_csv_as_typed():
    figures = list(_user_text_figures())
    for fig in figures:
        shown = [str(v) for tr in fig.data for v in (getattr(tr, "x", None) or ())]
        shown += [str(tr.name or "") for tr in fig.data]
        shown += [str(a.text or "") for a in fig.layout.annotations or ()]  # subplot titles
        assert not any("<a" in s or "<b>" in s for s in shown), shown
        assert any("&lt;a href=" in s for s in shown), shown  # the label itself is there
        data = export.figure_data(fig)
        assert set(HOSTILE_LABELS) <= set(data["x"].astype(str)), set(data["x"])
    assert "<a href='https://example.org/n'>A</a>" in set(
        export.figure_data(figures[0])["trace"].astype(str)) | set(
        export.figure_data(figures[3])["trace"].astype(str))
