"""widgets' page kit: exports, the report, the link, and the note on unusable link values."""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import widgets


def kit_page():
    import plotly.graph_objects as go
    import pandas as pd
    import streamlit as st

    import widgets

    widgets.page_header("Kit <page>")
    x = st.slider("x", 0.0, 1.0, 0.5, key="kx", bind="query-params", help="x")
    name = st.selectbox("name", ["alpha", "beta"], key="kname", bind="query-params", help="n")
    widgets.settings({"x": x, "name": name})
    widgets.chart(go.Figure(go.Scatter(x=[1, 2], y=[x, 2 * x], name="line")), key="kfig",
                  name="The line")
    widgets.table(pd.DataFrame({"a": [1, 2], "b": [x, x]}), key="ktab", name="The table")
    widgets.finding(f"x is {x:g}")
    if x == 1.0:
        widgets.show_error("x may not be 1 here.")
    widgets.report_note("a caveat")
    st.write("end of page")
    widgets.page_footer()


def run(**params) -> AppTest:
    at = AppTest.from_function(kit_page, default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def warnings_text(at) -> str:
    return " ".join(w.value for w in at.warning)


def test_kit_collects_settings_findings_charts_and_tables():
    at = run(kx="0.25")
    assert not at.exception
    kit = at.session_state["_page_kit"]
    assert kit.title == "Kit <page>" and kit.findings == ["x is 0.25"]
    assert kit.parameters == {"x": "0.25", "name": "alpha"}
    assert [name for name, _ in kit.figures] == ["The line"]
    assert [name for name, _ in kit.tables] == ["The table"]
    assert kit.notes == ["a caveat"] and not warnings_text(at)


def test_the_report_holds_the_page(tmp_path):
    at = run(kx="0.25")
    kit = at.session_state["_page_kit"]
    from dpcore import report

    html = report.html_report(kit.title, findings=kit.findings, parameters=kit.parameters,
                              figures=kit.figures, tables=kit.tables, notes=kit.notes)
    assert "Kit &lt;page&gt;" in html and "x is 0.25" in html and "The line" in html
    assert "a caveat" in html and html.count("plotly.js v") == 1


@pytest.mark.parametrize("params, bad", [
    (dict(kx="7"), ["kx"]),
    (dict(kx="abc", kname="beta"), ["kx"]),
    (dict(kname="gamma"), ["kname"]),
])
def test_unusable_link_values_are_named_and_the_rest_applies(params, bad):
    at = run(**params)
    assert not at.exception
    text = warnings_text(at)
    assert "could not be used" in text
    for key in bad:
        assert key in text
    assert at.slider(key="kx").value == 0.5
    assert at.selectbox(key="kname").value == params.get("kname", "alpha").replace(
        "gamma", "alpha")
    assert any("end of page" in m.value for m in at.markdown)


@pytest.mark.parametrize("params", [dict(kx="0.5"), dict(kx="0.50", kname="alpha"), {},
                                    dict(kx="0.3", kname="beta")])
def test_usable_link_values_give_no_note(params):
    at = run(**params)
    assert not warnings_text(at)
    if "kx" in params:
        assert at.slider(key="kx").value == pytest.approx(float(params["kx"]))


def test_an_early_stop_still_ends_the_page():
    at = run(kx="1.0")
    assert not at.exception
    assert [e.value for e in at.error] == ["x may not be 1 here."]
    assert at.session_state["_page_kit"].findings == ["x is 1"]
    assert not any("end of page" in m.value for m in at.markdown)


@pytest.mark.parametrize("url, value, same", [
    (["0.1"], 0.1, True), (["1"], 1, True), (["1.0"], 1, True), (["x"], "X", True),
    (["true"], True, True), (["1"], True, True), (["a", "b"], ["a", "b"], True),
    (["0.2"], 0.1, False), (["a"], ["a", "b"], False), (["no"], True, False),
    (["1", "2"], (1.0, 2.0), True), (["nan"], "x", False),
])
def test_same_compares_link_text_with_widget_values(url, value, same):
    assert widgets._same(url, value) is same


def test_slug_makes_file_names():
    assert widgets._slug("Error against privacy (ε)") == "error_against_privacy"
    assert widgets._slug("***") == "export"


def ranged_page():
    import streamlit as st

    import widgets

    widgets.page_header("Ranged")
    st.write(f"value {widgets.ranged_slider('N', 2, 10, default=5, key='rn', help='N')}")
    widgets.page_footer()


@pytest.mark.parametrize("raw, value, named", [("7", 7, False), ("abc", 5, True),
                                                ("2.5", 5, True), ("40", 10, False)])
def test_ranged_slider_link_values(raw, value, named):
    at = AppTest.from_function(ranged_page, default_timeout=30)
    at.query_params["rn"] = raw
    at.run()
    assert not at.exception
    assert any(f"value {value}" in m.value for m in at.markdown)
    assert ("rn" in warnings_text(at)) is named


def test_moving_a_ranged_slider_back_to_its_default_is_not_named():
    at = AppTest.from_function(ranged_page, default_timeout=30)
    at.query_params["rn"] = "7"
    at.run()
    at.slider(key="rn_slider").set_value(5).run()
    assert not at.exception
    assert any("value 5" in m.value for m in at.markdown)
    assert not warnings_text(at)
