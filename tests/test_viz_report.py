"""Tests of dpviz.report: the one-page HTML report."""

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
