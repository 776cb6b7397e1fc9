"""The UI kit (ui/): the page kit's exports, the report, the link, and the note on unusable link values."""

from __future__ import annotations

import ast
import re

import dpviz
import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from pagekit import kit as ended_kit
from ui import controls, links, sources
from ui import format as fmt
from conftest import open_page


def kit_page():
    import plotly.graph_objects as go
    import pandas as pd
    import streamlit as st

    from ui.kit import page_header

    kit = page_header("Kit <page>")
    x = st.slider("x", 0.0, 1.0, 0.5, key="kx", bind="query-params", help="x")
    name = st.selectbox("name", ["alpha", "beta"], key="kname", bind="query-params", help="n")
    kit.settings({"x": x, "name": name})
    kit.chart(go.Figure(go.Scatter(x=[1, 2], y=[x, 2 * x], name="line")), key="kfig",
                  name="The line")
    kit.table(pd.DataFrame({"a": [1, 2], "b": [x, x]}), key="ktab", name="The table")
    kit.finding(f"x is {x:g}")
    if x == 1.0:
        kit.fail("x may not be 1 here.")
    kit.note("a caveat")
    st.write("end of page")
    kit.end()


def run(page=kit_page, **params) -> AppTest:
    """``page`` run once, opened with the link values ``params``; checked free of exceptions."""
    at = AppTest.from_function(page, default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    return at


def warnings_text(at) -> str:
    return " ".join(w.value for w in at.warning)


def test_kit_collects_settings_findings_charts_and_tables_for_the_report():
    at = run(kx="0.25")
    kit = ended_kit(at)
    assert kit.title == "Kit <page>" and kit.findings == ["x is 0.25"]
    assert kit.parameters == {"x": "0.25", "name": "alpha"}
    assert [name for name, _ in kit.figures] == ["The line"]
    assert [name for name, _ in kit.tables] == ["The table"]
    assert kit.notes == ["a caveat"] and not warnings_text(at)
    html = dpviz.report.html_report(kit.title, findings=kit.findings, parameters=kit.parameters,
                              figures=kit.figures, tables=kit.tables, notes=kit.notes)
    assert "Kit &lt;page&gt;" in html and "x is 0.25" in html and "The line" in html
    assert "a caveat" in html and html.count("plotly.js v") == 1


def closed_tab_page():
    import pandas as pd
    import plotly.graph_objects as go

    from ui.kit import page_header

    kit = page_header("Kit")
    kit.chart(go.Figure(go.Scatter(x=[1, 2], y=[1, 2])), key="kc", name="Shown chart")
    kit.chart(go.Figure(go.Scatter(x=[1, 2], y=[2, 1])), key="kh", name="Hidden chart",
              drawn=False)
    kit.table(pd.DataFrame({"a": [1]}), key="kt", name="Hidden table", drawn=False,
              column_config={"a": {"label": "Headed a"}})
    kit.end()


def test_outputs_of_a_closed_tab_go_to_the_report_only(deferred):
    """drawn=False: nothing on the page (no chart, table or download), all in the report."""
    at = run(closed_tab_page)
    kit = ended_kit(at)
    assert [name for name, _ in kit.figures] == ["Shown chart", "Hidden chart"]
    assert [name for name, _ in kit.tables] == ["Hidden table"]
    assert list(kit.tables[0][1].columns) == ["a"]  # the CSV's column name
    assert list(kit.report_tables()[0][1].columns) == ["Headed a"]  # the page's header
    assert len(at.get("plotly_chart")) == 1 and not at.dataframe
    assert sorted(deferred) == ["kit_report.html", "shown_chart.csv", "shown_chart.html"]


@pytest.mark.parametrize("params, bad", [
    (dict(kx="7"), ["kx"]),
    (dict(kx="abc", kname="beta"), ["kx"]),
    (dict(kname="gamma"), ["kname"]),
])
def test_unusable_link_values_are_named_and_the_rest_applies(params, bad):
    at = run(**params)
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
    assert [e.value for e in at.error] == ["x may not be 1 here."]
    assert ended_kit(at).findings == ["x is 1"]
    assert not any("end of page" in m.value for m in at.markdown)


@pytest.mark.parametrize("url, value, same", [
    (["0.1"], 0.1, True), (["1"], 1, True), (["1.0"], 1, True), (["x"], "X", True),
    (["true"], True, True), (["1"], True, True), (["a", "b"], ["a", "b"], True),
    (["0.2"], 0.1, False), (["a"], ["a", "b"], False), (["no"], True, False),
    (["1", "2"], (1.0, 2.0), True), (["nan"], "x", False),
    (["1.0", "0.01"], (0.01, 1.0), True),  # a range, high end first
    (["0.1", "5"], (0.1, 1.0), False), ([""], None, True), (["0"], None, False),
])
def test_same_compares_link_text_with_widget_values(url, value, same):
    """links.same: link text against widget values, ranges in any order, empty values."""
    assert links.same(url, value) is same


@pytest.mark.parametrize("name, slug", [
    ("Error against privacy (ε)", "error_against_privacy_epsilon"),
    ("Power against α", "power_against_alpha"),
    ("Power against α with N = 10,000 per group", "power_against_alpha_with_n_10_000_per_group"),
    ("Null distribution of χ²", "null_distribution_of_chi2"),
    ("(ε, δ)-DP: δ(ε) against ε", "epsilon_delta_dp_delta_epsilon_against_epsilon"),
    ("Privacy levels α₁ and α₂", "privacy_levels_alpha1_and_alpha2"),
    ("εδ", "epsilon_delta"), ("2σ band", "2_sigma_band"), ("µ-GDP", "mu_gdp"),
    ("Σ, Γ, Λ and ς", "sigma_gamma_lambda_and_sigma"), ("ϵ-DP", "epsilon_dp"),
    ("Privacy–utility planner", "privacy_utility_planner"), ("Café", "cafe"),
    ("***", "export"), ("—", "export"),
])
def test_slug_makes_file_names_that_keep_the_meaning(name, slug):
    assert fmt.slug(name) == slug


def test_slug_names_every_greek_letter():
    assert len(set(fmt.GREEK_NAMES.values())) == 24  # σ and final ς: both sigma
    for letter, name in fmt.GREEK_NAMES.items():
        assert fmt.slug(letter) == fmt.slug(letter.upper()) == name


def ranged_page():
    import streamlit as st

    from ui import controls
    from ui.kit import page_header

    kit = page_header("Ranged")
    st.write(f"value {controls.ranged_slider('N', 2, 10, default=5, key='rn', help='N')}")
    kit.end()


@pytest.mark.parametrize("raw, value, named", [("7", 7, False), ("abc", 5, True),
                                                ("2.5", 5, True), ("40", 10, False)])
def test_ranged_slider_link_values(raw, value, named):
    at = run(ranged_page, rn=raw)
    assert any(f"value {value}" in m.value for m in at.markdown)
    assert ("rn" in warnings_text(at)) is named


def test_moving_a_ranged_slider_back_to_its_default_is_not_named():
    at = run(ranged_page, rn="7")
    at.slider(key="rn_slider").set_value(5).run()
    assert not at.exception
    assert any("value 5" in m.value for m in at.markdown)
    assert not warnings_text(at)


# --- Links: which values the page could use, for each kind of control bound to the URL ---------

def bound_page():
    import streamlit as st

    from ui import format as fmt
    from ui import sources
    from ui.kit import page_header

    kit = page_header("Bound")
    st.radio("width", [1, 5, 10], index=1, format_func=sources.AGE_BINNINGS.get, key="bw",
             bind="query-params")
    st.selectbox("source", ["korea", "usa"], format_func={"korea": "Korea", "usa": "USA"}.get,
                 key="bs", bind="query-params")
    st.select_slider("N", options=[1000, 10_000, 100_000], value=10_000, key="bn",
                     format_func=fmt.fmt_number, bind="query-params")
    st.select_slider("range", options=[0.01, 0.1, 1.0], value=(0.01, 1.0), key="br",
                     bind="query-params")
    st.multiselect("tests", ["chisq", "bootstrap", "exact"], default=["bootstrap"], key="bm",
                   bind="query-params")
    st.slider("x", 0.0, 1.0, 0.5, key="bx", bind="query-params")
    st.slider("span", 0, 10, (2, 8), key="bsp", bind="query-params")
    st.checkbox("private", key="bc", bind="query-params")
    st.toggle("log", value=True, key="bt", bind="query-params")
    st.number_input("k", 2, 100, 5, key="bk", bind="query-params")
    st.text_input("name", "A", key="bname", bind="query-params")
    st.write("values " + repr({k: st.session_state[k] for k in (
        "bw", "bs", "bn", "br", "bm", "bx", "bsp", "bc", "bt", "bk", "bname")}))
    kit.end()


def bound_values(at: AppTest) -> dict:
    [text] = [m.value for m in at.markdown if m.value.startswith("values ")]
    return ast.literal_eval(text.removeprefix("values "))


@pytest.mark.parametrize("params, values", [
    # An option given by the label it is shown with: Streamlit's form for options. A default
    # is then dropped from the URL (Streamlit keeps no defaults there) but it was used.
    ({"bw": "5-year groups (18 bins)"}, {"bw": 5}),
    ({"bw": "10-year groups (9 bins)"}, {"bw": 10}),
    ({"bs": "Korea"}, {"bs": "korea"}), ({"bs": "USA"}, {"bs": "usa"}),
    ({"bn": "10,000"}, {"bn": 10_000}), ({"bn": "100,000"}, {"bn": 100_000}),
    ({"br": ["1.0", "0.01"]}, {"br": (0.01, 1.0)}),
    ({"br": ["0.01", "0.1"]}, {"br": (0.01, 0.1)}),
    ({"bm": ["exact", "chisq"]}, {"bm": ["exact", "chisq"]}), ({"bm": "bootstrap"}, {}),
    ({"bm": ""}, {"bm": []}),  # an empty multiselect
    ({"bx": "0.50"}, {"bx": 0.5}), ({"bx": "0.3"}, {"bx": 0.3}),
    ({"bsp": ["8", "2"]}, {}), ({"bsp": ["0", "10"]}, {"bsp": (0, 10)}),
    ({"bc": "TRUE"}, {"bc": True}), ({"bc": "false"}, {"bc": False}),
    ({"bt": "False"}, {"bt": False}), ({"bt": "true"}, {"bt": True}),
    ({"bk": "7.0"}, {"bk": 7}), ({"bk": "5"}, {"bk": 5}), ({"bk": "2"}, {"bk": 2}),
    ({"bname": "B and C"}, {"bname": "B and C"}), ({"bname": "A"}, {"bname": "A"}),
])
def test_link_values_the_controls_use_are_not_named(params, values):
    at = run(bound_page, **params)
    assert not warnings_text(at), params
    shown = bound_values(at)
    for key, value in values.items():
        assert shown[key] == value, (key, shown[key])


@pytest.mark.parametrize("params, bad", [
    ({"bw": "7-year groups"}, ["bw"]), ({"bw": "10"}, ["bw"]),  # 10 is shown as a label
    ({"bs": "Japan"}, ["bs"]), ({"bn": "3"}, ["bn"]), ({"bn": "100000"}, ["bn"]),
    ({"bm": ["exact", "fisher"]}, ["bm"]),  # one usable value of two: used in part
    ({"bm": ["fisher"]}, ["bm"]),
    ({"br": ["0.1", "5"]}, ["br"]),  # one end off the options goes back to its default
    ({"br": ["1", "0.01"]}, ["br"]),  # the option 1.0 is shown as "1.0"
    ({"bx": "7"}, ["bx"]), ({"bx": "x"}, ["bx"]), ({"bsp": ["3", "20"]}, ["bsp"]),
    ({"bsp": "4"}, ["bsp"]), ({"bc": "1"}, ["bc"]), ({"bt": "yes"}, ["bt"]),
    ({"bk": "700"}, ["bk"]), ({"bk": "1"}, ["bk"]), ({"bk": "five"}, ["bk"]),
    ({"bw": "5", "bm": ["exact", "fisher"], "bx": "0.25", "bk": "3"}, ["bm"]),
])
def test_link_values_the_controls_cannot_use_are_named(params, bad):
    at = run(bound_page, **params)
    text = warnings_text(at)
    assert "could not be used" in text, params
    named = text.split("defaults: ", 1)[1].split(". Everything", 1)[0].split(", ")
    assert named == bad


def test_a_multiselect_link_keeps_its_usable_values_and_names_the_rest():
    at = run(bound_page, bm=["exact", "fisher", "chisq"])
    assert bound_values(at)["bm"] == ["exact", "chisq"]
    assert "defaults: bm." in warnings_text(at)
    assert at.query_params["bm"] == ["exact", "chisq"]
    at.run()  # the next run: the link now holds what is used
    assert not warnings_text(at)


@pytest.mark.parametrize("width", [5, 10])
def test_a_label_link_is_not_named_on_a_page(width):
    """The compare page's binning given by its label, as the page's own links write it."""
    at = open_page("views/compare_histograms.py", "Compare two private histograms",
                   {"cmp_width": sources.AGE_BINNINGS[width]})
    assert at.radio(key="cmp_width").value == width
    assert "could not be used" not in warnings_text(at)


# --- The seed: every seed, 0 included, through the URL -----------------------------------------

def seed_page():
    import streamlit as st

    from ui import controls
    from ui.kit import page_header

    kit = page_header("Seeded")
    seed = controls.seed_control("sd")
    st.write(f"seed {seed}")
    kit.end()


def shown_seed(at: AppTest) -> int:
    [text] = [m.value for m in at.markdown if m.value.startswith("seed ")]
    return int(text.removeprefix("seed "))


@pytest.mark.parametrize("raw, seed", [("0", 0), ("1", 1), ("2022", 2022), ("987654", 987654),
                                       (str(2**31 - 1), 2**31 - 1)])
def test_a_link_seed_is_used_and_kept_in_the_link(raw, seed):
    at = run(seed_page, sd=raw)
    assert shown_seed(at) == seed and at.number_input(key="sd").value == seed
    assert not warnings_text(at)
    assert at.query_params.get("sd") == raw
    at.run()  # and on the next run
    assert shown_seed(at) == seed and at.query_params.get("sd") == raw


@pytest.mark.parametrize("raw, seed", [("-1", controls.DEFAULT_SEED), ("abc", controls.DEFAULT_SEED),
                                       (str(2**31), controls.DEFAULT_SEED),
                                       ("1.5", 1)])  # Streamlit keeps the whole part
def test_an_unusable_link_seed_is_named(raw, seed):
    at = run(seed_page, sd=raw)
    assert shown_seed(at) == seed
    assert "defaults: sd." in warnings_text(at)


def test_the_seed_defaults_and_new_draw_puts_its_seed_in_the_link():
    """(A seed typed in the box goes into the URL in the browser: see test_browser.py.)"""
    at = run(seed_page)
    assert shown_seed(at) == controls.DEFAULT_SEED and not warnings_text(at)
    at.number_input(key="sd").set_value(0).run()
    assert shown_seed(at) == 0 and not warnings_text(at)
    at.button(key="sd_new").click().run()
    new = shown_seed(at)
    assert at.query_params.get("sd") == str(new) and not warnings_text(at)
    assert shown_seed(run(seed_page, sd=str(new))) == new  # the link reopens it


def test_new_draw_after_a_link_seed_is_not_named():
    at = run(seed_page, sd="5")
    at.button(key="sd_new").click().run()
    assert shown_seed(at) != 5 or at.query_params.get("sd") == "5"
    assert not warnings_text(at)


def test_a_cleared_seed_box_gets_the_last_seed_back():
    at = run(seed_page, sd="41")
    at.number_input(key="sd").set_value(None).run()
    assert not at.exception
    assert shown_seed(at) == 41 and at.number_input(key="sd").value == 41


# --- The report: the header's button and report_button give the same file ----------------------

def report_page():
    import plotly.graph_objects as go
    import streamlit as st

    from ui.kit import page_header

    kit = page_header("Report → α")
    kit.settings({"ε": 1})
    kit.finding("first finding")
    kit.report_button(key="own_report", help="This page's report.")
    # Given after the button: still in its report.
    kit.chart(go.Figure(go.Scatter(x=[1, 2], y=[3, 4], name="late line")), key="rfig",
                  name="Power against α")
    kit.finding("second finding")
    st.write("end")
    kit.end()


def test_report_button_gives_the_headers_report(monkeypatch):
    from streamlit.runtime.media_file_manager import MediaFileManager

    made = []
    original = MediaFileManager.add_deferred

    def spy(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        made.append((file_name, data_callable))
        return original(self, data_callable, mimetype, coordinates, file_name=file_name,
                        **kwargs)

    monkeypatch.setattr(MediaFileManager, "add_deferred", spy)
    at = run(report_page, x="1")
    buttons = {b.key: b for b in at.download_button}
    assert buttons["own_report"].label == buttons["page_report_download"].label
    assert buttons["own_report"].help == "This page's report."
    reports = [(name, build) for name, build in made if name.endswith("_report.html")]
    assert [name for name, _ in reports] == ["report_alpha_report.html"] * 2
    own, header = (build() for _, build in reports)
    uuid = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"  # a chart's div id
    assert re.sub(uuid, "id", own) == re.sub(uuid, "id", header)
    assert "first finding" in own and "second finding" in own and "Power against α" in own
    assert "x=1" in own  # the link to this view
    assert [name for name, _ in made if name.endswith(".csv")] == ["power_against_alpha.csv"]


def test_numbers_in_scientific_notation_as_people_write_them():
    assert fmt.times_ten(78_500_000, 2) == "7.85·10⁷"
    assert fmt.times_ten(1e-5, 1) == "1.0·10⁻⁵"
    assert fmt.times_ten(3e-12, 0) == "3·10⁻¹²"
    assert fmt.fmt_big(1234.4) == "1234"
    assert fmt.fmt_big(12_345) == "1.23·10⁴"
    assert fmt.fmt_big(-0.0) == "0"
    assert fmt.fmt_big(float("inf")) == "∞"


def test_counts_to_the_significant_digits_of_their_interval():
    assert fmt.fmt_sig_count(451_043) == "451,000"
    assert fmt.fmt_sig_count(7_914) == "7,910" and fmt.fmt_sig_count(100) == "100"
    assert fmt.fmt_sig_count(12_345_678, 2) == "12,000,000"


def test_percentages_read_apart_from_the_target_they_are_judged_against():
    # 0.797 is no "80%" beside an 80% target; 80% is only 80%.
    assert [fmt.fmt_percent_apart(v, 0.8) for v in (0.797, 0.8, 0.7996, 0.80004, 0.95)] == [
        "79.7%", "80%", "79.96%", "80.004%", "95%"]
    assert fmt.percent_decimals_apart([0.5, 0.7975, 0.8], 0.8) == 1
    assert fmt.percent_decimals_apart([0.5, 0.9], 0.8) == 0
    for k in range(1, 1000):  # every rate of R = 1,000 but 800/1,000
        text = fmt.fmt_percent_apart(k / 1000, 0.8)
        assert (text == "80%") == (k == 800), (k, text)


def test_a_p_value_is_never_shown_as_0():
    from ui import format as fmt
    from dpcore.homogeneity import chisq_test

    assert fmt.fmt_p(0.0123456) == "0.0123" and fmt.fmt_p(1.0) == "1"
    assert fmt.fmt_p(2.68e-15) == "2.68·10⁻¹⁵"  # never e-notation (issue 18)
    # A statistic so far in the tail that the p-value underflows to 0.
    res = chisq_test([10_000.0, 1.0, 5.0], [1.0, 10_000.0, 5.0])
    assert res.pvalue == 0.0 and fmt.fmt_p(res.pvalue) == "< 10⁻³⁰⁰"


# --- numbers as people write them (issue 18) ---------------------------------------------------

def test_no_formatter_writes_e_notation():
    """Every number formatter, over numbers from 10⁻³⁰⁰ to 10³⁰⁰: never "e-05" or "e+05"."""
    values = [s * m * 10.0 ** k for k in range(-300, 301, 7) for m in (1, 2.5, 9.999)
              for s in (1, -1)]
    for f in (fmt.fmt_sig, fmt.fmt_big, fmt.fmt_param, fmt.fmt_p, fmt.fmt_prob, fmt.fmt_pct,
              fmt.fmt_count, fmt.fmt_sci, lambda v: fmt.sig_text(v, 6)):
        for v in values:
            text = f(v)
            assert not re.search(r"\d[eE][+\-]?\d", text), (f, v, text)
            if "·10" in text:  # the same number, read back
                mantissa, exponent = text.rstrip("%").split("·10")
                back = float(mantissa) * 10.0 ** int(exponent.translate(
                    str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")))
                assert back == pytest.approx(v * (100 if text.endswith("%") else 1), rel=0.01)
    assert fmt.fmt_sig(2.9e-5) == "2.9·10⁻⁵" and fmt.fmt_number(1e-5) == "1·10⁻⁵"


@pytest.mark.parametrize("p,shown", [(0.99995, "0.99995"), (0.999954, "0.99995"),
                                     (1 - 1e-9, "0.999999999"), (4.54e-5, "4.54·10⁻⁵"),
                                     (0.5, "0.5"), (1.0, "1"), (0.0, "0")])
def test_a_probability_is_never_rounded_to_0_or_1(p, shown):
    assert fmt.fmt_prob(p) == shown


def test_a_percentage_is_never_rounded_to_0_or_100():
    assert fmt.fmt_pct(0.999995) not in ("100%",) and fmt.fmt_pct(1.0) == "100%"
    assert fmt.fmt_pct(2.9e-7) == "2.9·10⁻⁵%" and fmt.fmt_pct(0.05) == "5%"
    for k in range(1, 1000):
        assert fmt.fmt_pct(k / 1e6) != "0%" and fmt.fmt_pct(1 - k / 1e6) != "100%"


def test_an_estimate_is_rounded_to_the_precision_of_its_interval():
    assert fmt.fmt_estimate(451_043, 436_112, 486_020) == "about 450,000 (436,000–486,000)"
    assert fmt.fmt_estimate(5_195, 4_860, 5_420) == "about 5,200 (4,860–5,420)"
    assert fmt.fmt_estimate(0.0574, 0.0486, 0.0626, count=False) == \
        "about 0.06 (0.0486–0.0626)"
    assert fmt.fmt_estimate(0.123, 0.1, 10, count=False).startswith("about 0.1 (")
    # The estimate's rounding step never exceeds the interval's width: it stays inside.
    rng = np.random.default_rng(18)
    for low in rng.uniform(10, 1e6, 200):
        high = low * rng.uniform(1.01, 3)
        v = rng.uniform(low, high)
        estimate, lo, hi = fmt.estimate_parts(v, low, high)
        e = float(estimate.replace(",", ""))
        assert abs(e - v) <= (high - low) / 2 + 1e-9
    assert fmt.estimate_parts(5.0, 5.0, 5.0) is None
