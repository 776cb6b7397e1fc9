"""AppTest tests of the page "Privacy–utility planner" (views/planner.py).

The page is driven through its widgets by key (all keys start with ``plan_``) and through
the URL query parameters they are bound to. Only the open tab runs; tests open a tab
through its key ``plan_tab``. Expected numbers come from dpcore.planner called with the
page's settings and ``rng=seed``: every simulated setting draws from a stream of its own,
so the page's plan and a direct call agree exactly.

The tests use cheap settings (R = B = 50, 10-year age groups, M = 9): a search takes a
fraction of a second. The machine speed behind the page's time estimates is pinned, so
whether a request is refused and what its message says do not depend on the machine.
"""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ui import controls, sources
from conftest import run
from dpcore import datasets, planner, simulation
from pagekit import (kit as ended_kit, KEYED_KINDS, TabbedPage, assert_report_page, assert_reset_note,
                     assert_widgets_keyed_with_help, errors, every_control_with_help, link_notes,
                     metrics, plain_error, query_id)
from ui.pages import planner as page

PAGE = "views/planner.py"
TITLE = "Privacy–utility planner"
DATA, PRIVACY, FRONTIER, REPORT = TABS = ("How much data?", "How much privacy?", "Frontier",
                                          "Report")
FAST = {"plan_reps": "50", "plan_boot": "50"}
SEED = controls.DEFAULT_SEED
N_NEEDED, N_INTERVAL = "N needed per group", "Monte Carlo interval for N"
ALPHA_NEEDED, ALPHA_INTERVAL = "Strongest privacy α", "Monte Carlo interval for α"
TV = "Effect size: total-variation distance"

# The machine speed behind the time estimates is pinned (conftest.py).
pytestmark = pytest.mark.usefixtures("fixed_machine_speed")

PLANNER = TabbedPage(PAGE, TITLE, "plan_tab", TABS)
open_tab = PLANNER.open_tab


def start(tab: str = DATA, query: dict[str, str] | None = None, *, fast: bool = True) -> AppTest:
    return PLANNER.start(tab, {**(FAST if fast else {}), **(query or {})})


def metric(at: AppTest, label: str):
    [m] = [m for m in at.metric if m.label == label]
    return m


def number(text: str) -> float:
    return float(text.replace(",", ""))


def korea(width: int = 10) -> tuple[np.ndarray, np.ndarray]:
    return tuple(datasets.proportions(datasets.age_histogram(name, width).to_numpy())
                 for name in ("korea_central", "korea_noncentral"))


def chart(at: AppTest, key: str) -> list[dict]:
    [c] = [c for c in at.get("plotly_chart") if key in c.proto.id]
    return json.loads(c.proto.spec)["data"]


def trace_values(values) -> np.ndarray:
    """x or y of a Plotly trace as JSON: a list, or numpy's binary encoding."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    return np.asarray(values, dtype=float)


# ---------------------------------------------------------------------------
# default view
# ---------------------------------------------------------------------------

def test_default_view():
    at = start(fast=False)
    assert not errors(at)
    assert [t.label for t in at.tabs] == list(TABS)
    assert at.radio(key="plan_mode").value == "two"
    assert at.selectbox(key="plan_a").value == "korea_central"
    assert at.selectbox(key="plan_b").value == "korea_noncentral"
    assert at.radio(key="plan_width").value == 10
    assert at.select_slider(key="plan_level").value == 0.05
    assert at.select_slider(key="plan_power").value == 0.8
    assert at.select_slider(key="plan_alpha").value == 0.1
    assert at.select_slider(key="plan_n").value == 10_000
    assert at.select_slider(key="plan_reps").value == 200
    assert at.select_slider(key="plan_boot").value == 200
    assert at.number_input(key="plan_seed").value == SEED
    assert_widgets_keyed_with_help(at, "plan_", KEYED_KINDS + ("checkbox",))
    p1, p2 = korea()
    shown = metrics(at)
    assert shown[TV] == f"{planner.total_variation(p1, p2):.3f}" == "0.057"
    plan = planner.required_sample_size(p1, p2, 0.1, 0.1, reps=200, n_boot=200, rng=SEED)
    assert shown[N_NEEDED] == f"{plan.n:,}"
    assert shown[N_INTERVAL] == f"{plan.interval[0]:,.0f} – {plan.interval[1]:,.0f}"
    assert metric(at, "Your planned N").value == "10,000"
    sentence = page.describe_sample_size(
        plan, "a difference as large as Korea central vs Korea noncentral")
    assert [s.value for s in at.success] == [sentence]
    assert chart(at, "plan_fig_data")
    assert at.latex  # the explanation


def test_privacy_tab_shows_the_strongest_alpha():
    at = start(PRIVACY)
    assert not errors(at)
    p1, p2 = korea()
    plan = planner.strongest_privacy(p1, p2, 10_000, reps=50, n_boot=50, rng=SEED)
    assert plan.status == "found"
    shown = metrics(at)
    assert shown[ALPHA_NEEDED] == f"{plan.alpha:.3g}"
    assert shown[ALPHA_INTERVAL] == f"{plan.interval[0]:.3g} – {plan.interval[1]:.3g}"
    assert shown["Your α"] == "0.1"
    assert metric(at, "Your α").delta == ("affordable" if plan.alpha <= 0.1
                                          else "too strong for the target")
    [sentence] = [s.value for s in at.success]
    assert sentence == page.describe_privacy(
        plan, "a difference as large as Korea central vs Korea noncentral")
    traces = chart(at, "plan_fig_privacy")
    [points] = [t for t in traces if t.get("name", "").startswith("simulated power")]
    np.testing.assert_allclose(trace_values(points["x"]), plan.points["alpha1"])
    np.testing.assert_allclose(trace_values(points["y"]), plan.points["power"])


# ---------------------------------------------------------------------------
# the answers move the right way
# ---------------------------------------------------------------------------

def test_stronger_privacy_needs_more_data():
    at = start()
    before = number(metrics(at)[N_NEEDED])
    at.select_slider(key="plan_alpha").set_value(0.01)
    run(at)
    after = number(metrics(at)[N_NEEDED])
    # Lap(200) instead of Lap(20) noise per count: about ten times more people.
    assert after > 3 * before, (before, after)
    assert metric(at, "Your planned N").delta.endswith("short")


def test_more_data_affords_stronger_privacy():
    at = start(PRIVACY, {"plan_n": "100,000"})
    small_alpha = number(metrics(at)[ALPHA_NEEDED])
    at.select_slider(key="plan_n").set_value(5000)
    run(at)
    large_alpha = number(metrics(at)[ALPHA_NEEDED])
    assert large_alpha > 3 * small_alpha, (small_alpha, large_alpha)


def test_higher_power_needs_more_data():
    at = start()
    before = number(metrics(at)[N_NEEDED])
    at.select_slider(key="plan_power").set_value(0.95)
    run(at)
    assert number(metrics(at)[N_NEEDED]) > before


# ---------------------------------------------------------------------------
# the URL
# ---------------------------------------------------------------------------

URL_VIEW = {"plan_alpha": "0.5", "plan_n": "50,000", "plan_width": "5-year groups (18 bins)",
            "plan_seed": "7", "plan_power": "90%", "plan_alpha_sep": "true",
            "plan_alpha2": "1"}


def test_query_params_set_the_view_and_reproduce_the_numbers():
    at = start(query=URL_VIEW)
    assert not errors(at)
    assert at.select_slider(key="plan_alpha").value == 0.5
    assert at.select_slider(key="plan_alpha2").value == 1.0
    assert at.select_slider(key="plan_n").value == 50_000
    assert at.radio(key="plan_width").value == 5
    assert at.select_slider(key="plan_power").value == 0.9
    assert at.number_input(key="plan_seed").value == 7
    p1, p2 = korea(5)
    plan = planner.required_sample_size(p1, p2, 0.5, 1.0, power=0.9, reps=50, n_boot=50, rng=7)
    first = metrics(at)
    assert first[N_NEEDED] == f"{plan.n:,}"
    assert "privacy levels α₁ = 0.5 and α₂ = 1" in [s.value for s in at.success][0]
    # The same URL in a new session shows the same numbers.
    st.cache_resource.clear()  # nothing reused: simulated again
    assert metrics(start(query=URL_VIEW)) == first
    # Another seed gives other draws.
    other = start(query={**URL_VIEW, "plan_seed": "8"})
    assert metrics(other)[N_INTERVAL] != first[N_INTERVAL] \
        or metrics(other)[N_NEEDED] != first[N_NEEDED]


def test_tab_from_the_url_and_the_ratio_of_privacy_levels():
    at = start(query={"plan_tab": PRIVACY, "plan_alpha_sep": "true", "plan_alpha2": "0.2",
                      "plan_n": "50,000"})
    assert at.session_state["plan_tab"] == PRIVACY
    p1, p2 = korea()
    plan = planner.strongest_privacy(p1, p2, 50_000, alpha_ratio=2.0, reps=50, n_boot=50,
                                     rng=SEED)
    assert metrics(at)["Strongest privacy α₁"] == f"{plan.alpha:.3g}"
    assert "(and α₂ = 2 α₁)" in [s.value for s in at.success][0]


@pytest.mark.parametrize("query", [
    {"plan_alpha": "abc"}, {"plan_alpha": "0.123"}, {"plan_reps": "7"}, {"plan_seed": "x"},
    {"plan_width": "7"}, {"plan_a": "nope"}, {"plan_shift": "x"}, {"plan_tab": "Nowhere"},
    {"plan_level": "50%"}, {"plan_fr_points": "1000"},
], ids=query_id)
def test_bad_query_params_are_ignored(query):
    at = start(query=query)
    assert not errors(at)
    assert N_NEEDED in metrics(at) or at.session_state["plan_tab"] != DATA


# ---------------------------------------------------------------------------
# one population and an effect
# ---------------------------------------------------------------------------

def test_shift_effect():
    at = start(query={"plan_mode": "One population and an effect"})
    assert at.radio(key="plan_effect").value == "shift"
    assert at.slider(key="plan_shift_slider").value == 1
    p = datasets.proportions(datasets.age_histogram("korea", 10).to_numpy())
    q = planner.shift_distribution(p, 1)
    assert metrics(at)[TV] == f"{planner.total_variation(p, q):.3f}"
    [sentence] = [s.value for s in at.success]
    assert "Korea against the same population 1 age group (10 years) older" in sentence
    plan = planner.required_sample_size(p, q, 0.1, 0.1, reps=50, n_boot=50, rng=SEED)
    assert metrics(at)[N_NEEDED] == f"{plan.n:,}"
    # Younger, by two groups: the shift is kept in the URL.
    at.radio(key="plan_direction").set_value("younger")
    at.slider(key="plan_shift_slider").set_value(2)
    run(at)
    assert at.query_params["plan_shift"] == "2"
    q = planner.shift_distribution(p, -2)
    assert metrics(at)[TV] == f"{planner.total_variation(p, q):.3f}"
    assert "2 age groups (20 years) younger" in [s.value for s in at.success][0]


def test_distance_effect():
    at = start(query={"plan_mode": "One population and an effect",
                      "plan_effect": "A total-variation distance", "plan_tv": "0.1"})
    assert not errors(at)
    assert metrics(at)[TV] == "0.100"
    p = datasets.proportions(datasets.age_histogram("korea", 10).to_numpy())
    q = planner.tilt_to_distance(p, 0.1)
    plan = planner.required_sample_size(p, q, 0.1, 0.1, reps=50, n_boot=50, rng=SEED)
    assert metrics(at)[N_NEEDED] == f"{plan.n:,}"
    assert "a difference of total-variation distance 0.1 from Korea (towards older ages)" in \
        [s.value for s in at.success][0]


# ---------------------------------------------------------------------------
# bad input: plain errors, the controls stay
# ---------------------------------------------------------------------------

def assert_plain_error(at: AppTest, fragment: str) -> None:
    msg = plain_error(at, fragment)
    assert "Traceback" not in msg
    assert N_NEEDED not in metrics(at) and not at.tabs
    # The controls are all still there, and the explanation.
    for key in ("plan_alpha", "plan_n", "plan_reps", "plan_boot", "plan_level", "plan_power"):
        assert at.select_slider(key=key).value is not None
    assert at.latex


def test_distance_too_large_is_a_plain_error():
    at = start(query={"plan_mode": "One population and an effect",
                      "plan_effect": "A total-variation distance"})
    at.number_input(key="plan_tv").set_value(0.99)
    run(at)
    assert_plain_error(at, "These distributions cannot be used: d must be below 0.9613")
    # A possible distance brings the page back.
    at.number_input(key="plan_tv").set_value(0.2)
    run(at)
    assert not errors(at) and N_NEEDED in metrics(at)


def test_same_distribution_is_a_plain_error():
    at = start(query={"plan_a": "Korea", "plan_b": "Korea"})
    assert_plain_error(at, "A and B have the same distribution")
    assert metrics(at)[TV] == "0.000"


def upload(at: AppTest, data: bytes, *, kind: str = "counts") -> AppTest:
    at.selectbox(key="plan_a").set_value("upload")
    run(at)
    assert any("Upload a CSV file" in i.value for i in at.info)
    assert not at.tabs
    at.radio(key="plan_file_kind").set_value(kind)
    at.file_uploader(key="plan_file").set_value(("data.csv", data, "text/csv"))
    return run(at)


def test_upload_of_the_wrong_length_is_a_plain_error():
    at = upload(start(), b"a\n10\n20\n30\n")
    assert_plain_error(at, 'Column "a" has 3 bins but the age groups chosen have 9')


def test_upload_with_columns_of_different_lengths_is_a_plain_error():
    at = start()
    at.selectbox(key="plan_b").set_value("upload")
    at = upload(at, b"a,b\n1,2\n2,3\n4\n")
    assert_plain_error(at, "same number of rows")


def test_uploaded_counts_are_compared():
    at = start()
    at.selectbox(key="plan_b").set_value("upload")
    at = upload(at, b"group,a,b\nx,500,400\ny,300,300\nz,200,300\n")
    assert not errors(at)
    assert at.selectbox(key="plan_col_a").value == "a"
    assert at.selectbox(key="plan_col_b").value == "b"
    assert any("Bins: M = 3, one per row of your file." in c.value for c in at.caption)
    p1, p2 = np.array([0.5, 0.3, 0.2]), np.array([0.4, 0.3, 0.3])
    assert metrics(at)[TV] == f"{planner.total_variation(p1, p2):.3f}" == "0.100"
    plan = planner.required_sample_size(p1, p2, 0.1, 0.1, reps=50, n_boot=50, rng=SEED)
    assert metrics(at)[N_NEEDED] == f"{plan.n:,}"
    assert 'your column "a" vs your column "b"' in [s.value for s in at.success][0]


def test_uploaded_ages_are_binned():
    at = upload(start(), b"age\n" + b"\n".join(str(a).encode() for a in range(0, 90, 3)),
                kind="values")
    assert not errors(at), errors(at)
    assert N_NEEDED in metrics(at)


def test_a_search_beyond_the_cap_is_refused_with_its_time():
    at = start(query={"plan_reps": "2,000", "plan_boot": "2,000",
                      "plan_width": "Single years (86 bins)"})
    [msg] = errors(at)
    units = simulation.work_units(86, 2000, 2000)
    assert msg.startswith("This search would take about ")
    assert f"{units:,.0f} drawn bins each" in msg and "Lower R or B" in msg
    assert N_NEEDED not in metrics(at)
    assert [t.label for t in at.tabs] == list(TABS)  # the page is still there


# ---------------------------------------------------------------------------
# frontier and report
# ---------------------------------------------------------------------------

def run_frontier(at: AppTest) -> AppTest:
    at.select_slider(key="plan_fr_range").set_value((0.01, 1.0))
    at.slider(key="plan_fr_points").set_value(3)
    run(at)
    assert any("α = 1, 0.1, 0.01" in c.value for c in at.caption)
    at.button(key="plan_fr_run").click()
    return run(at)


def test_frontier_button_marks_the_naive_test_invalid():
    at = start(FRONTIER)
    assert any("Press *Compute the frontier*" in i.value for i in at.info)
    at = run_frontier(at)
    assert not errors(at)
    [table] = [d.value for d in at.dataframe]
    p1, p2 = korea()
    expected = planner.frontier(p1, p2, [1, 0.1, 0.01], reps=50, n_boot=50, rng=SEED)
    assert table[["alpha1", "test", "n", "valid"]].equals(
        expected[["alpha1", "test", "n", "valid"]])
    assert set(table["test"]) == {"bootstrap", "chisq"}
    chisq = table[table["test"] == "chisq"]
    assert not chisq["valid"].all()  # the naive test does not hold its level under DP
    assert table[table["test"] == "bootstrap"]["n"].is_monotonic_increasing
    traces = chart(at, "plan_fig_frontier")
    [bad] = [t for t in traces if "invalid" in t.get("name", "")]
    assert len(trace_values(bad["x"])) == int((~chisq["valid"]).sum())
    [star] = [t for t in traces if t.get("name", "").startswith("your choice")]
    assert list(trace_values(star["x"])) == [0.1] and list(trace_values(star["y"])) == [10_000]
    [warning] = [w.value for w in at.warning]
    assert "does not hold its 5% level" in warning
    assert {b.key for b in at.download_button} == {
        "page_report_download", "plan_fig_dist_csv", "plan_fig_dist_html",
        "plan_fig_frontier_csv", "plan_fig_frontier_html", "plan_frontier_table_csv"}
    kit = ended_kit(at)
    assert kit.findings == [frontier_sentence(table, 0.8), warning]
    assert [name for name, _ in kit.tables] == ["The frontier"]
    # Other settings: the last frontier is shown with a note until it is run again.
    at.select_slider(key="plan_power").set_value(0.9)
    run(at)
    assert any("The settings have changed" in i.value for i in at.info)


REPORT_FILE = "privacy_utility_planner_report.html"


def tab_report(deferred) -> str:
    """The report of the Report tab's button, checked to be the header's Report button's:
    the last run registered the tab's button, then the header's (at the page's end)."""
    tab_button, header_button = deferred.every[REPORT_FILE][-2:]
    html_, header_html = tab_button(), header_button()
    uuid = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"  # a chart's div id
    assert re.sub(uuid, "id", html_) == re.sub(uuid, "id", header_html)
    return html_


def frontier_sentence(table, power: float) -> str:
    """The page's sentence on the N the bootstrap test needs along a frontier."""
    rows = table[table["test"] == "bootstrap"].sort_values("alpha1", ascending=False)
    return (f"For {power:.0%} power the parametric bootstrap test needs "
            + "; ".join(f"N = {n:,.0f} at α = {a:g}" for a, n in zip(rows["alpha1"], rows["n"]))
            + " per group.")


def test_report_download_builds_the_html_report(deferred):
    at = start(REPORT)
    assert not errors(at)
    shown = metrics(at)
    p1, p2 = korea()
    data_plan = planner.required_sample_size(p1, p2, 0.1, 0.1, reps=50, n_boot=50, rng=SEED)
    privacy = planner.strongest_privacy(p1, p2, 10_000, reps=50, n_boot=50, rng=SEED)
    assert shown[N_NEEDED] == f"{data_plan.n:,}"
    assert shown[ALPHA_NEEDED] == f"{privacy.alpha:.3g}"
    difference = "a difference as large as Korea central vs Korea noncentral"
    findings = [page.describe_sample_size(data_plan, difference),
                page.describe_privacy(privacy, difference)]
    text = "\n".join(m.value for m in at.markdown)
    for sentence in findings:
        assert sentence in text
    # One report: the page kit's, from the header's button and from this tab's.
    kit = ended_kit(at)
    assert kit.findings == findings
    assert kit.parameters["Comparison"] == "Korea central vs Korea noncentral"
    assert kit.parameters["Seed"] == str(SEED)
    assert [name for name, _ in kit.figures] == [
        "The two distributions: Korea central and Korea noncentral",
        "Power against N at α = 0.1", "Power against α with N = 10,000 per group"]
    assert [name for name, _ in kit.tables] == ["Simulated power against N",
                                               "Simulated power against α"]
    assert any(note.startswith("Source: Son, J.") for note in kit.notes)
    buttons = {b.key: b for b in at.download_button}
    button, header_button = buttons["plan_dl_report"], buttons["page_report_download"]
    assert button.label == header_button.label == "Download the report (HTML)"
    assert "The Report button at the top of the page gives the same file." in button.help
    assert {b.key for b in at.download_button} >= {
        "page_report_download", "plan_report_fig_data_csv", "plan_report_points_data_csv",
        "plan_report_fig_privacy_html", "plan_report_points_privacy_csv"}
    html_ = tab_report(deferred)
    assert_report_page(html_, findings)
    assert "plan_reps=50" in html_  # the link to this view
    assert "Korea central vs Korea noncentral" in html_ and "Seed" in html_
    assert html_.count("<table") == 3  # the settings and the two tables of points
    assert "The privacy-utility frontier" not in html_
    assert html_.count("Privacy–utility planner") >= 2  # its title


def test_report_includes_the_frontier_once_computed(deferred):
    at = run_frontier(start(FRONTIER))
    table = at.session_state["plan_frontier"]["table"]
    open_tab(at, REPORT)
    text = "\n".join(m.value for m in at.markdown)
    assert "does not hold its 5% level" in text
    assert frontier_sentence(table, 0.8) in text
    assert not [w for w in at.warning if "does not hold" in w.value]  # a finding, not a warning
    html_ = tab_report(deferred)
    assert "The privacy-utility frontier" in html_ and "does not hold its 5% level" in html_
    assert html_.count("<table") == 4
    kit = ended_kit(at)
    assert len(kit.findings) == 4 and len(kit.figures) == 4 and len(kit.tables) == 3


# ---------------------------------------------------------------------------
# the page kit: every bound control from a link, unusable link values, help
# ---------------------------------------------------------------------------

# Links with every bound control of a view at a value other than its default:
# key: (kind, value, as the link writes it). The tab comes from the session state.
TWO = {
    "plan_a": ("selectbox", "usa", "USA"),
    "plan_b": ("selectbox", "korea", "Korea"),
    "plan_width": ("radio", 5, sources.AGE_BINNINGS[5]),
    "plan_level": ("select_slider", 0.1, "10%"),
    "plan_power": ("select_slider", 0.7, "70%"),
    "plan_alpha": ("select_slider", 0.05, "0.05"),
    "plan_alpha_sep": ("checkbox", True, "true"),
    "plan_alpha2": ("select_slider", 0.2, "0.2"),
    "plan_n": ("select_slider", 5000, "5,000"),
    "plan_reps": ("select_slider", 50, "50"),
    "plan_boot": ("select_slider", 50, "50"),
    "plan_seed": ("number_input", 9, "9"),
}
TILT = {
    "plan_mode": ("radio", "effect", "One population and an effect"),
    "plan_base": ("selectbox", "usa", "USA"),
    "plan_effect": ("radio", "tilt", "A total-variation distance"),
    "plan_direction": ("radio", "younger", "younger (first bins)"),
    "plan_tv": ("number_input", 0.08, "0.08"),
    "plan_reps": ("select_slider", 50, "50"),
    "plan_boot": ("select_slider", 50, "50"),
}
SHIFT = {
    "plan_mode": ("radio", "effect", "One population and an effect"),
    "plan_shift": ("slider", 3, "3"),  # a ranged slider (the effect is a shift by default)
    "plan_reps": ("select_slider", 50, "50"),
    "plan_boot": ("select_slider", 50, "50"),
}
FRONTIER_LINK = {
    "plan_fr_range": ("select_slider", (0.05, 0.5), ["0.05", "0.5"]),
    "plan_fr_points": ("slider", 2, "2"),
    "plan_reps": ("select_slider", 50, "50"),
    "plan_boot": ("select_slider", 50, "50"),
}
LINKS = {"two_populations": (TWO, PRIVACY), "tilt": (TILT, DATA), "shift": (SHIFT, DATA),
         "frontier": (FRONTIER_LINK, FRONTIER)}


def link_widget(at: AppTest, key: str, kind: str):
    return getattr(at, kind)(key=f"{key}_slider" if key == "plan_shift" else key)


@pytest.mark.parametrize("name", list(LINKS))
def test_a_link_reproduces_the_view(name):
    """Every bound control read from the URL, and the same numbers as set by hand."""
    values, tab = LINKS[name]
    at = start(tab, {key: text for key, (_, _, text) in values.items()}
               | ({"plan_tab": tab} if tab != DATA else {}), fast=False)
    assert not link_notes(at)
    assert at.session_state["plan_tab"] == tab
    for key, (kind, value, _) in values.items():
        assert link_widget(at, key, kind).value == value, key
    if tab == FRONTIER:
        at.button(key="plan_fr_run").click()
        run(at)
    from_link = metrics(at)
    assert len(from_link) >= 3 if tab != FRONTIER else len(from_link) == 1

    st.cache_resource.clear()  # simulated again, not reused
    by_hand = start(fast=False)
    open_tab(by_hand, tab)
    for key, (kind, value, _) in values.items():  # in page order: a control may show another
        link_widget(by_hand, key, kind).set_value(value)
        run(by_hand)
    if tab == FRONTIER:
        by_hand.button(key="plan_fr_run").click()
        run(by_hand)
        assert by_hand.session_state["plan_frontier"]["table"].equals(
            at.session_state["plan_frontier"]["table"])
    assert metrics(by_hand) == from_link
    assert ended_kit(by_hand).findings == ended_kit(at).findings


@pytest.mark.parametrize("query", [
    {"plan_alpha": "abc"}, {"plan_reps": "7"}, {"plan_width": "7"}, {"plan_a": "nope"},
    {"plan_level": "50%"}, {"plan_seed": "-1"},
], ids=query_id)
def test_an_unusable_link_value_is_reset_with_a_note(query):
    at = start(query=query)
    [key] = query
    assert_reset_note(at, key)
    assert not errors(at) and N_NEEDED in metrics(at)


def test_an_unusable_value_of_a_hidden_control_is_kept_quietly():
    """plan_fr_points is drawn only on the frontier tab: no note on another tab."""
    at = start(query={"plan_fr_points": "1000"})
    assert not link_notes(at)
    assert N_NEEDED in metrics(at)


@pytest.mark.parametrize("tab", TABS)
def test_every_control_has_help(tab):
    seen = every_control_with_help(start(tab, {"plan_alpha_sep": "true"}))
    assert len(seen) >= 15, seen
