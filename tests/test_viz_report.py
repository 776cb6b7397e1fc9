"""Tests of dpviz.report: the one-page HTML report."""

import html

import pandas as pd
import plotly.graph_objects as go

from dpviz import report


def test_html_report_escapes_text_and_inlines_plotly_once():
    fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4]))
    page = report.html_report(
        "Plan <b>", findings=["A <script>alert(1)</script> finding"],
        parameters={"α": "0.1", "Group A": "<img src=x>"},
        figures=[("Power", fig), ("Again", fig)],
        tables=[("Points", pd.DataFrame({"n": [100, 200], "power": [0.1, 0.9]}))],
        notes=["note & caveat"],
    )
    assert "<script>alert(1)" not in page and "&lt;script&gt;" in page
    assert "<img src=x>" not in page and "Plan &lt;b&gt;" in page
    assert page.count("plotly.js v") == 1 and page.count('class="plotly-graph-div"') == 2
    assert "<td>0.9</td>" in page and "note &amp; caveat" in page


def test_each_figure_is_summarised_in_one_sentence_under_its_heading():
    """Issue 24: the report says what each figure shows in the sentence the page gives
    screen readers (dpviz.describe.figure_summary), escaped."""
    from dpviz.describe import figure_summary

    fig = go.Figure([go.Bar(x=["<b>a</b>", "b"], y=[1, 3], name="A & B")])
    fig.update_layout(xaxis_title="category", yaxis_title="users")
    out = report.html_report("T", figures=[("Counts", fig)])
    heading = out.index("<h2>Counts</h2>")
    sentence = out.index('<p class="summary">', heading)
    assert sentence < out.index("plotly", sentence)
    said = out[sentence:out.index("</p>", sentence)].removeprefix('<p class="summary">')
    assert html.unescape(said) == figure_summary(fig)
    assert "A &amp; B" in said and "<b>" not in said
