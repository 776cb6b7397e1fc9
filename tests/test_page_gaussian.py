"""AppTest tests of the page "Gaussian mechanism" (views/gaussian.py): what the view draws
from its controls. Its solving and sentences: tests/test_ui_pages_gaussian.py; every page's
promises: tests/test_page_contract.py.
"""

from __future__ import annotations

import io
import json
import math
import re
from urllib.parse import parse_qs

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from conftest import assert_clean, open_page, run, upload_file, without_help
from shown import as_read
from dpcore import datasets, gaussian
import pagekit
from pagekit import (TabbedPage, assert_widgets_keyed_with_help, chart_traces, errors, kit,
                     markdown_text, metrics, warnings)
from ui import links
from ui.format import fmt_sci
from ui.pages import gaussian as page
from ui.pages.gaussian import Release, Settings

CALIBRATIONS, LOSS, GDP, RELEASE, TABLE = TABS = page.TABS
GAUSS = TabbedPage("views/gaussian.py", "Gaussian mechanism", "gauss_tab", TABS)
start, open_tab = GAUSS.start, GAUSS.open_tab
KEYS = {name: q.key for name, q in page.QUANTITIES.items()}
SYMBOLS = {name: q.symbol for name, q in page.QUANTITIES.items()}
METHOD_URL = page.METHOD_LABELS
WIDGET_KINDS = ("slider", "select_slider", "radio", "toggle", "number_input", "selectbox",
                "segmented_control", "button", "file_uploader")
SIGMA = float(gaussian.gaussian_sigma(1.0, 1e-5))  # the default view's


def value(at: AppTest, name: str) -> float:
    return at.number_input(key=KEYS[name]).value


def set_values(at: AppTest, **values) -> AppTest:
    for name, v in values.items():
        at.number_input(key=KEYS[name]).set_value(v)
    return run(at)


def solve_for(at: AppTest, name: str) -> AppTest:
    at.segmented_control(key="gauss_solve").set_value(name)
    return run(at)


def use_method(at: AppTest, method: str) -> AppTest:
    at.segmented_control(key="gauss_method").set_value(method)
    return run(at)


def fmt5(v: float) -> str:
    """ε, δ, σ or Δ as its control shows it (issue 18: every metric prints the box's value)."""
    return page.fmt_shown(v)


def option_value(text: str) -> float:
    """A slider option as a number: "0.3", "10,000", "2·10⁻⁷"."""
    if "·10" in text:
        mantissa, power = text.split("·10")
        return float(mantissa) * 10.0 ** int(power.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹",
                                                                           "-0123456789")))
    return float(text.replace(",", ""))


def nearest(options: list[str], v: float) -> float:
    """The slider option nearest to v in log scale (options as the slider formats them)."""
    grid = [option_value(o) for o in options]
    return min(grid, key=lambda g: abs(math.log(g) - math.log(v)))


def chart_labels(at: AppTest, key: str, trace: str) -> list:
    return next(t["x"] for t in chart_traces(at, key) if t.get("name") == trace)


# --- the four values: the default view, solving, the synced inputs -----------------------------

def test_default_view_solves_sigma_with_its_slider_grids_and_every_tab_shows_something():
    """The default view: σ solved, the sliders' grids, something shown on every tab."""
    at = start()
    assert value(at, "sigma") == SIGMA
    assert (value(at, "eps"), value(at, "delta"), value(at, "sensitivity")) == (1.0, 1e-5, 1.0)
    s = Settings()
    setting, _ = page.solve(s)
    sol = page.Solution({k: getattr(setting, k) for k in KEYS}, setting)
    assert {label: shown for label, shown, _ in page.result_metrics(s, sol)}.items() <= metrics(at).items()
    # The solved row is greyed out, the others are not; the sliders show the grid.
    assert at.number_input(key="gauss_sigma").disabled
    assert at.select_slider(key="gauss_sigma_slider").disabled
    assert not any(at.number_input(key=KEYS[n]).disabled for n in ("eps", "delta", "sensitivity"))
    # The solved σ = 3.73 lies between two steps of the grid: the slider shows it, not 3.
    assert at.select_slider(key="gauss_sigma_slider").value == SIGMA
    assert at.select_slider(key="gauss_eps_slider").value == 1.0
    assert at.select_slider(key="gauss_delta_slider").value == 1e-5
    assert page.plain_sentence(setting)[0] in markdown_text(at)
    # The only flag of the default view: the classical formula at ε = 1.
    assert len(warnings(at)) == 1 and "not a guarantee at ε = 1" in warnings(at)[0]
    eps = [float(o) for o in at.select_slider(key="gauss_eps_slider").options]
    assert eps[0] == 0.01 and eps[-1] == 50
    assert {0.01, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50} <= set(eps)
    assert eps == sorted(eps) and len(eps) > 11
    delta = at.select_slider(key="gauss_delta_slider").options
    assert len(delta) == 36 and delta[-1] == "0.5" and delta[0] == "1·10⁻¹²"
    sigma = at.select_slider(key="gauss_sigma_slider").options
    assert sigma[0] == "0.01" and sigma[-1] == "10,000"
    sens = at.select_slider(key="gauss_sens_slider").options
    assert sens[0] == "0.01" and sens[-1] == "1,000"
    for tab in TABS:
        open_tab(at, tab)
        assert at.get("plotly_chart") or at.dataframe, f"{tab} shows nothing"
        assert_widgets_keyed_with_help(at, "gauss_", WIDGET_KINDS)


GIVEN = {"eps": 0.5, "delta": 1e-6, "sigma": 5.0, "sensitivity": 2.0}


@pytest.mark.parametrize("name", list(KEYS))
def test_solve_for_each(name):
    at = start()
    solve_for(at, name)
    given = {k: v for k, v in GIVEN.items() if k != name}
    set_values(at, **given)
    expected = getattr(gaussian.solve_gaussian(**given, **{name: None}), name)
    assert value(at, name) == pytest.approx(expected, rel=1e-12)
    assert at.number_input(key=KEYS[name]).disabled
    assert all(value(at, k) == v for k, v in given.items())
    assert f"{SYMBOLS[name]} (solved)" in metrics(at)


@pytest.mark.parametrize("method", ["analytic", "tail", "classical"])
def test_each_method(method):
    at = use_method(start(), method)
    set_values(at, eps=0.5)
    expected = float(gaussian.gaussian_sigma(0.5, 1e-5, 1.0, method=method))
    assert value(at, "sigma") == pytest.approx(expected, rel=1e-12)
    assert metrics(at)["σ (solved)"] == fmt5(expected)
    assert not errors(at) and not warnings(at)  # ε < 1: every formula is valid


def test_slider_moves_the_number_and_back():
    at = start()
    at.select_slider(key="gauss_eps_slider").set_value(2.0)
    run(at)
    assert value(at, "eps") == 2.0
    assert value(at, "sigma") == pytest.approx(float(gaussian.gaussian_sigma(2.0, 1e-5)),
                                               rel=1e-12)
    # Exact values in the boxes: each slider shows the exact value as a step of its own,
    # never the nearest step of its grid (issue 18: the value shown is the value used).
    set_values(at, eps=0.37, delta=3e-7, sensitivity=7.5)
    for name, v in (("eps", 0.37), ("delta", 3e-7), ("sensitivity", 7.5)):
        slider = at.select_slider(key=f"{KEYS[name]}_slider")
        assert slider.value == v and value(at, name) == v, name
    # The exact value is a step of its own only while it is in use.
    assert "0.37" in at.select_slider(key="gauss_eps_slider").options
    assert value(at, "sigma") == pytest.approx(
        float(gaussian.gaussian_sigma(0.37, 3e-7, 7.5)), rel=1e-12)
    at.select_slider(key="gauss_delta_slider").set_value(1e-3)
    run(at)
    assert value(at, "delta") == 1e-3 and value(at, "eps") == 0.37


def test_solved_value_beyond_the_slider_is_shown_exactly_by_slider_and_box():
    """Issue 18: at ε = 0.01, δ = 10⁻¹², Δ = 1000 the σ slider showed 10,000 (its end)
    while σ = 578,998 was used. The slider's range now grows to the value in use."""
    at = set_values(start(), eps=0.01, delta=1e-12, sensitivity=1000.0)
    expected = float(gaussian.gaussian_sigma(0.01, 1e-12, 1000.0))
    assert expected > 10_000
    assert value(at, "sigma") == pytest.approx(expected, rel=1e-12)
    slider = at.select_slider(key="gauss_sigma_slider")
    assert slider.value == pytest.approx(expected, rel=1e-12)
    assert slider.options[-1] == slider.format_func(slider.value)


def test_solved_value_beyond_the_box_is_shown_in_the_box():
    """Issue 18: solving for ε at σ = 0.01 gave ε = 5425.5 while the ε slider showed 50 and
    the box kept its last value; both now show the ε found."""
    at = solve_for(start(), "eps")
    set_values(at, sigma=0.01, sensitivity=1000.0)
    expected = gaussian.solve_gaussian(eps=None, delta=1e-5, sigma=0.01, sensitivity=1000.0).eps
    assert expected > 10_000  # beyond the ε box's own range
    assert value(at, "eps") == pytest.approx(expected, rel=1e-12)
    assert at.select_slider(key="gauss_eps_slider").value == pytest.approx(expected, rel=1e-12)
    assert not any("outside this box's range" in c.value for c in at.caption)


def test_classical_is_flagged_at_eps_one_and_above():
    at = use_method(start(), "classical")
    set_values(at, eps=2.0)
    assert warnings(at) == [page.classical_results_texts(2.0)[1], page.classical_texts(
        2.0, page.calibrations(2.0, 1e-5, 1.0).set_index("method").loc["classical"])[1]]
    assert any(n.startswith("Classical formula: not a guarantee at ε = 2") for n in kit(at).notes)
    set_values(at, eps=0.5)
    assert not warnings(at)


@pytest.mark.parametrize("method", ["tail", "classical"])
def test_no_solution_shows_a_plain_error(method):
    at = use_method(start(), method)
    set_values(at, eps=0.0)
    [msg] = errors(at)
    assert msg.startswith("No σ fits these values") and "`" not in msg and "eps" not in msg
    assert metrics(at)["σ: no solution"] == "—"
    # The rest of the page still works.
    [table] = [d.value for d in at.dataframe if "guarantee" in d.value.columns]
    assert table.set_index("calibration").loc[gaussian.METHOD_NAMES[method], "σ"] == "—"
    open_tab(at, TABLE)
    assert at.download_button(key="gauss_full_table_csv")
    open_tab(at, LOSS)
    assert any("needs a complete setting" in i.value for i in at.info)
    # A δ that makes the tail bound solvable at ε = 0 recovers the page.
    if method == "tail":
        set_values(at, delta=0.6)
        assert not errors(at)
        assert value(at, "sigma") == pytest.approx(
            float(gaussian.gaussian_sigma(0.0, 0.6, method="tail")), rel=1e-12)


# --- the tabs ----------------------------------------------------------------------------------

def test_three_calibrations_and_the_privacy_loss():
    at = start()
    table = gaussian.calibration_table(1.0, 1e-5, 1.0).set_index("method")
    for method in ("analytic", "tail", "classical"):
        assert metrics(at)[f"σ, {gaussian.METHOD_NAMES[method]}"] == \
            page.fmt_shown(table.loc[method, 'sigma'])
    assert page.tail_bound_texts(table.loc["analytic", "sigma"], table.loc["tail"])[1] in \
        markdown_text(at)
    open_tab(at, LOSS)
    loss = page.privacy_loss(page.solve(Settings())[0])
    assert metrics(at)["Exact δ(ε)"] == "1.0·10⁻⁵"
    assert metrics(at)["P(L > ε): tail bound"] == fmt_sci(loss.tail)
    assert at.toggle(key="gauss_loss_log").value is True
    at.toggle(key="gauss_loss_log").set_value(False)
    run(at)
    assert at.get("plotly_chart") and kit(at).parameters["privacy-loss density axis"] == "linear"


@pytest.mark.parametrize(("eps", "delta", "note"), [
    (1.0, 1e-5, "is rounded to 0.25"),     # μ = 0.268
    (50.0, 0.5, "beyond that page's slider"),  # μ ≈ 10
])
def test_link_to_fdp_carries_mu(eps, delta, note):
    at = set_values(start(GDP), eps=eps, delta=delta)
    expected = links.to_fdp_gaussian(float(gaussian.gaussian_mu(eps, delta)))
    [link] = [p for p in at.page_link if p.proto.page.endswith("fdp")]
    assert parse_qs(link.proto.query_string) == {k: [v] for k, v in expected.query.items()}
    assert any(note in c.value for c in at.caption)


def korea_by_age(seed=2022, n=10_000):
    """The people the page draws: the same generator, first used for the data."""
    rng = np.random.default_rng(seed)
    probs = datasets.proportions(datasets.age_histogram("korea", 1).to_numpy())
    return datasets.draw_histogram(probs, n, rng=rng)


def true_answer(at: AppTest) -> float:
    [line] = [m.value for m in at.markdown if m.value.startswith("**Query:**")]
    return float(line.split("True answer **")[1].split("**")[0].replace(",", ""))


def query_eps(at: AppTest) -> str:
    [label] = [k for k in metrics(at) if k.startswith("ε for this query")]
    return metrics(at)[label]


def test_release_count():
    at = start(RELEASE)
    by_age = korea_by_age()
    assert true_answer(at) == by_age[65:].sum()
    summary = gaussian.release_summary(by_age[65:].sum(), SIGMA)
    shown = metrics(at)
    assert shown["RMSE (theory = σ)"] == page.fmt_shown(SIGMA)
    assert shown["95% of releases within"] == f"± {summary.half_width:.4g}"
    assert abs(float(shown["One release"].replace(",", "")) - true_answer(at)) < 6 * SIGMA
    assert query_eps(at) == "1"  # Δ = 1: the page's ε
    assert "gauss_use_sens" not in [b.key for b in at.button]
    at.slider(key="gauss_ages").set_value((0, 17))
    run(at)
    assert true_answer(at) == by_age[:18].sum()


def test_release_small_count_can_be_negative():
    at = set_values(start(RELEASE), eps=0.1)
    at.slider(key="gauss_ages").set_value((85, 85))
    at.select_slider(key="gauss_n").set_value(1000)
    run(at)
    count = korea_by_age(n=1000)[85]
    p = float(gaussian.release_summary(count, float(gaussian.gaussian_sigma(0.1, 1e-5)))
              .p_negative)
    assert true_answer(at) == count
    assert metrics(at)["Chance of a negative release"] == f"{100 * p:.3g}%"


def test_release_sum_and_use_its_sensitivity():
    at = start(RELEASE)
    at.radio(key="gauss_query").set_value("sum")
    run(at)
    assert query_eps(at) == fmt5(float(gaussian.gaussian_epsilon(1e-5, SIGMA, 85.0)))
    assert any("sensitivity is Δ = 85" in i.value for i in at.info)
    at.number_input(key="gauss_upper").set_value(60.0)
    run(at)
    assert true_answer(at) == pytest.approx(np.arange(86).clip(0, 60) @ korea_by_age())
    at.button(key="gauss_use_sens").click()
    run(at)
    assert at.segmented_control(key="gauss_solve").value == "sigma"
    assert value(at, "sensitivity") == 60.0
    assert at.select_slider(key="gauss_sens_slider").value == 60.0  # the value in use, not a step
    assert value(at, "sigma") == pytest.approx(float(gaussian.gaussian_sigma(1.0, 1e-5, 60.0)),
                                               rel=1e-12)
    assert query_eps(at) == "1"
    assert not any("sensitivity is Δ" in i.value for i in at.info)


def test_use_sensitivity_switches_solve_to_sigma():
    at = solve_for(start(RELEASE), "eps")
    at.radio(key="gauss_query").set_value("sum")
    run(at)
    at.button(key="gauss_use_sens").click()
    run(at)
    assert at.segmented_control(key="gauss_solve").value == "sigma"
    assert value(at, "sensitivity") == 85.0
    assert not at.number_input(key="gauss_sens").disabled


@pytest.mark.parametrize(("neighbours", "sens"), [("histogram", 1.0),
                                                    ("histogram_replace", math.sqrt(2))])
@pytest.mark.parametrize("width", [5, 10])
def test_release_histogram(neighbours, sens, width):
    at = start(RELEASE)
    at.radio(key="gauss_query").set_value("histogram")
    run(at)
    at.radio(key="gauss_width").set_value(width)
    at.radio(key="gauss_neighbours").set_value(neighbours)
    run(at)
    data = page.release_data(Release(query="histogram", ages=None, width=width,
                                     neighbours=neighbours), None, np.random.default_rng(2022))
    summary = gaussian.release_summary(data.counts, SIGMA)
    assert metrics(at)["Expected negative bins"] == f"{summary.expected_negative:.3g}"
    assert metrics(at)["RMSE per bin (= σ)"] == page.fmt_shown(SIGMA)
    assert query_eps(at) == fmt5(float(gaussian.gaussian_epsilon(1e-5, SIGMA, sens)))
    assert (sens != 1.0) == any("sensitivity is Δ = 1.41421" in i.value for i in at.info)
    assert list(chart_labels(at, "gauss_fig_hist", "true count")) == data.labels


def upload(at: AppTest, data: bytes, kind: str = "counts") -> AppTest:
    return upload_file(at, "gauss", data, kind)


def test_upload_counts_and_values():
    at = upload(start(RELEASE), b"group,people\n0-9,100\n10-19,50\n20-29,0\n")
    assert not errors(at) and true_answer(at) == 150
    assert at.radio(key="gauss_query").options == ["a count", "a histogram"]
    at.radio(key="gauss_query").set_value("histogram")
    run(at)
    assert list(chart_labels(at, "gauss_fig_hist", "true count")) == ["0-9", "10-19", "20-29"]
    at = upload(start(RELEASE), b"my_age\n3\n20\n30\n45\n45\n90\n", kind="values")
    at.radio(key="gauss_query").set_value("sum")
    run(at)
    assert true_answer(at) == 3 + 20 + 30 + 45 + 45 + 85
    # The column's name, escaped for Markdown on the page, is as it is in the report.
    assert '"my\\_age"' in markdown_text(at)
    assert kit(at).findings[-1].startswith('The true answer (the sum of "my_age" clipped')
    assert kit(at).parameters["data"] == 'Uploaded CSV file, column "my_age"'


def test_the_upload_is_kept_while_another_tab_is_open():
    """Streamlit forgets a widget a run does not draw: the file, its kind and its column come
    back with the tab (ui.sources.kept_upload), and the page says which file it uses."""
    at = upload(start(RELEASE), b"a,age\n5,3\n7,20\n9,30\n", kind="values")
    at.selectbox(key="gauss_col").set_value("age")
    run(at)
    before = true_answer(at)
    for tab in (LOSS, RELEASE):
        GAUSS.open_tab(at, tab)
    assert not errors(at) and true_answer(at) == before == 3
    assert at.radio(key="gauss_file_kind").value == "values"
    assert at.selectbox(key="gauss_col").value == "age"
    assert at.file_uploader(key="gauss_file").value is None  # Streamlit forgot it
    assert any("Using data.csv, uploaded earlier" in as_read(c.value) for c in at.caption)
    # Another file replaces it; the one removed is forgotten.
    at.file_uploader(key="gauss_file").set_value(("two.csv", b"x\n1\n2\n", "text/csv"))
    run(at)
    assert true_answer(at) == 2 and not any("uploaded earlier" in c.value for c in at.caption)
    at.file_uploader(key="gauss_file").set_value(None)
    run(at)
    assert any("Upload a CSV file" in i.value for i in at.info)


@pytest.mark.parametrize(("data", "kind", "query", "fragment"), [
    (b"a\n1\nx\n", "counts", None, '"x" is not a number'),
    (b"", "counts", None, "The file is empty"),
    (b"a\n1\n-2\n", "counts", None, "negative count"),
    (b"age\n3\n-4\n", "values", "histogram", "negative value"),
])
def test_bad_upload_shows_plain_error(data, kind, query, fragment):
    at = upload(start(RELEASE), data, kind=kind)
    if query is not None:
        at.radio(key="gauss_query").set_value(query)
        run(at)
    [msg] = errors(at)
    assert fragment in msg and "`" not in msg
    assert at.file_uploader(key="gauss_file")  # the controls to fix it are still there
    # The rest of the page still works.
    assert metrics(at)["σ (solved)"] == fmt5(SIGMA)
    at.file_uploader(key="gauss_file").set_value(("good.csv", b"a\n5\n7\n", "text/csv"))
    run(at)
    assert not errors(at)


def test_same_seed_same_release():
    def one_release(seed):
        at = start(RELEASE)
        at.number_input(key="gauss_seed").set_value(seed)
        run(at)
        return metrics(at)["One release"]
    assert one_release(7) == one_release(7) != one_release(8)


def test_the_pivot_csv_keeps_its_row_labels(deferred):
    start(TABLE, {"gauss_sens": "85"})
    pivot = pd.read_csv(io.StringIO(deferred["noise_table_sigma_exact_calibration.csv"]()))
    assert pivot["ε"].tolist() == [f"ε = {e:g}" for e in page.TABLE_EPS]
    assert pivot.loc[3, "δ = 1.0·10⁻⁵"] == pytest.approx(
        float(gaussian.gaussian_sigma(1.0, 1e-5, 85.0)), rel=1e-12)


# --- URL query parameters ----------------------------------------------------------------------

def test_query_params_set_the_view():
    at = start(query={"gauss_eps": "2", "gauss_delta": "1e-06", "gauss_sigma": "3",
                      "gauss_solve": "Δ", "gauss_method": METHOD_URL["tail"]})
    assert at.segmented_control(key="gauss_solve").value == "sensitivity"
    assert at.segmented_control(key="gauss_method").value == "tail"
    expected = gaussian.solve_gaussian(eps=2.0, delta=1e-6, sigma=3.0, sensitivity=None,
                                       method="tail").sensitivity
    assert value(at, "sensitivity") == pytest.approx(expected, rel=1e-12)
    assert at.number_input(key="gauss_sens").disabled
    assert metrics(at)["Δ (solved)"] == fmt5(expected)
    assert kit(at).parameters["solved for"] == "Δ"
    assert kit(at).parameters["calibration"] == "tail bound"
    # The solved row is not a setting: it stays out of the link.
    assert "gauss_sens" not in at.query_params


def test_query_param_eps_zero_is_taken():
    at = start(query={"gauss_eps": "0", "gauss_method": METHOD_URL["classical"]})
    assert value(at, "eps") == 0.0
    [msg] = errors(at)
    assert "classical calibration needs ε > 0" in msg


def test_query_param_of_the_solved_row_is_overridden():
    assert value(start(query={"gauss_sigma": "7"}), "sigma") == SIGMA


@pytest.mark.parametrize("query", [
    {"gauss_eps": "abc"}, {"gauss_delta": "2"}, {"gauss_delta": "0"}, {"gauss_sens": "-1"},
    {"gauss_solve": "x"}, {"gauss_method": "nope"}, {"gauss_tab": "nope"},
    {"gauss_tab": RELEASE, "gauss_n": "3", "gauss_seed": "7"},
    {"gauss_tab": RELEASE, "gauss_seed": "-5", "gauss_n": "5,000"},
    {"gauss_tab": RELEASE, "gauss_query": "a median", "gauss_seed": "7"},
], ids=lambda q: "&".join(f"{k}={v}" for k, v in q.items()))
def test_bad_query_params_are_ignored(query):
    at = start(query=query)
    assert not errors(at)
    assert value(at, "sigma") == pytest.approx(SIGMA, rel=1e-12)
    if query.get("gauss_tab") == RELEASE:  # the rest of the link applies
        n = 5000 if query.get("gauss_n") == "5,000" else 10_000
        seed = 7 if query.get("gauss_seed") == "7" else 2022
        assert true_answer(at) == korea_by_age(seed=seed, n=n)[65:].sum()


EXTREMES = {
    "huge mu": {"gauss_solve": "ε", "gauss_sigma": "1e-06", "gauss_sens": "1000000000"},
    "tiny mu": {"gauss_solve": "δ", "gauss_sigma": "1000000000", "gauss_sens": "1e-06",
                "gauss_eps": "10000"},
    "tiny delta": {"gauss_delta": "1e-300", "gauss_eps": "0.01"},
    "delta near one": {"gauss_delta": "0.999", "gauss_eps": "0"},
    "classical delta one": {"gauss_solve": "δ", "gauss_method": "classical",
                            "gauss_sigma": "0.01", "gauss_sens": "1000"},
    "tail delta zero": {"gauss_solve": "δ", "gauss_method": "tail", "gauss_sigma": "100",
                        "gauss_sens": "0.01", "gauss_eps": "50"},
}


@pytest.mark.parametrize("query", EXTREMES.values(), ids=EXTREMES.keys())
def test_extremes_are_clean_on_every_tab(query):
    at = start(query=query)
    for tab in TABS:
        open_tab(at, tab)
        assert_clean(at)
        for e in errors(at):
            assert "`" not in e


# --- the page kit: the report's settings and findings, the release tab's controls' help --------

def test_the_report_gets_the_settings_and_findings_of_the_open_tab():
    at = start()
    verdict = page.plain_sentence(page.solve(Settings())[0])[1]
    for tab in TABS:
        open_tab(at, tab)
        found = kit(at)
        s = Settings(tab=tab, release=Release() if tab == RELEASE else None)
        assert found.parameters == {k: str(v) for k, v in s.report_items().items()}, tab
        assert found.findings[0] == verdict, found.findings
        assert len(found.findings) >= (1 if tab == TABLE else 2), (tab, found.findings)
    open_tab(at, RELEASE)
    assert kit(at).findings[1] == page.guarantee_finding(Release(), SIGMA, 1.0, 1.0, 1e-5)


def test_the_release_tabs_controls_have_help():
    at = start(RELEASE)
    seen: list[str] = []
    for query in ("sum", "histogram"):  # the sum's U and its "use this Δ" button; the bins
        at.radio(key="gauss_query").set_value(query)
        run(at)
        assert not without_help(at.main, seen), query
    upload(at, b"age\n3\n20\n30\n", kind="values")
    assert not without_help(at.main, seen)
    keys = {name.split()[1] for name in seen}
    assert {"gauss_upper", "gauss_use_sens", "gauss_width", "gauss_neighbours", "gauss_seed",
            "gauss_seed_new", "gauss_col", "gauss_file", "gauss_file_kind"} <= keys, keys


# --- issue 18: the value shown is the value used; numbers as people write them ----------------

E_NOTATION = re.compile(r"\d(?:\.\d+)?[eE][+\-−]?\d")


def shown_number(text: str) -> float:
    """A number as the page writes it: "578,998", "1.00001·10⁻⁵", "± 7.3"."""
    return option_value(text.strip("± "))


def page_texts(at: AppTest) -> list[str]:
    """Everything the page writes: metrics (label and value), Markdown, captions, notes,
    LaTeX."""
    out = [f"{m.label} {m.value}" for m in at.metric]
    for kind in ("markdown", "caption", "info", "warning", "error", "latex"):
        out += [e.value for e in getattr(at, kind)]
    return out


def test_a_sensitivity_left_by_the_solve_modes_is_not_called_different_from_itself():
    """Issue 18: /gaussian?gauss_sens=0.9999999999975212&gauss_tab=Release+a+statistic, and
    a Δ solved as 1.00000016, said "This query's sensitivity is Δ = 1, not the Δ = 1 set
    above": two values that read the same are one value."""
    at = start(query={"gauss_sens": "0.9999999999975212", "gauss_tab": RELEASE})
    assert not any("sensitivity is Δ" in i.value for i in at.info)
    assert "gauss_use_sens" not in [b.key for b in at.button]
    assert query_eps(at) == metrics(at)["ε"] == "1"
    solve_for(at, "sensitivity")
    assert metrics(at)["Δ (solved)"] == "1"
    assert not any("sensitivity is Δ" in i.value for i in at.info)
    assert query_eps(at) == metrics(at)["ε"]
    # A Δ that reads otherwise is named as it reads, different from the query's.
    at = start(RELEASE, {"gauss_sens": "1.00001"})
    [info] = [i.value for i in at.info if "sensitivity is Δ" in i.value]
    assert "Δ = 1, not the Δ = 1.00001 set above" in info


@pytest.mark.parametrize("method", ["tail", "classical"])
def test_a_release_at_a_positive_eps_is_never_called_0_dp(method):
    """Issue 18: the release tab said "(0, 1.0·10⁻⁵)-DP" beside a page at ε > 0. Its ε was
    the exact (analytic) ε of a σ calibrated by the tail bound or the classical formula,
    which at ε = 10⁻⁴ is 0. The query's ε now comes from the page's calibration (the page's
    ε itself for the page's Δ); the exact ε is said beside it, named."""
    at = start(RELEASE, {"gauss_eps": "0.0001", "gauss_method": METHOD_URL[method]})
    assert metrics(at)["ε"] == "1.0·10⁻⁴" == query_eps(at)
    assert not any("(0, " in c.value for c in at.caption if "this release is" in c.value)
    assert not any("(0, " in f for f in kit(at).findings)
    exact = float(gaussian.gaussian_epsilon(1e-5, value(at, "sigma"), 1.0))
    assert any("exact (analytic) ε of this σ" in c.value for c in at.caption), exact


@pytest.mark.parametrize("query", [
    {"gauss_eps": "0.01", "gauss_delta": "1e-12", "gauss_sens": "1000"},
    {"gauss_solve": "ε", "gauss_sigma": "0.01", "gauss_sens": "1000"},
    {"gauss_solve": "δ", "gauss_sigma": "3.73063", "gauss_eps": "1"},
    {"gauss_solve": "Δ", "gauss_sigma": "3.73063"},
    {"gauss_eps": "0.0001234567", "gauss_delta": "0.0000123456"},
], ids=lambda q: "&".join(f"{k}={v}" for k, v in q.items()))
def test_metrics_sentences_and_report_print_the_value_the_control_shows(query):
    """Issue 18: every metric, sentence and report setting of ε, δ, σ and Δ prints the
    number its box shows (six significant digits), written as people write numbers."""
    at = start(query=query)
    solved = at.segmented_control(key="gauss_solve").value
    shown = metrics(at)
    settings = kit(at).parameters
    sentence = next(m.value for m in at.markdown if m.value.startswith("**In plain words.**"))
    for name, q in page.QUANTITIES.items():
        box = float(page.BOX_FORMAT % value(at, name))
        label = f"{q.symbol} (solved)" if name == solved else q.symbol
        assert shown_number(shown[label]) == pytest.approx(box, rel=1e-12), name
        assert shown_number(settings[q.label]) == pytest.approx(box, rel=1e-12), name
        assert shown[label] == settings[q.label] == page.fmt_shown(value(at, name))
        # The slider holds the value in use; the box shows it to six digits.
        assert float(page.BOX_FORMAT % at.select_slider(key=f"{q.key}_slider").value) == box
    for name in ("sigma", "sensitivity"):
        assert f"{page.QUANTITIES[name].symbol} = {page.fmt_shown(value(at, name))}" in sentence
    assert f"({page.fmt_shown(value(at, 'eps'))}, {page.fmt_shown(value(at, 'delta'))})" \
        in sentence


@pytest.mark.parametrize("query", [
    {"gauss_eps": "0.0001", "gauss_sens": "1000"},  # ε = 10⁻⁴: e^{1e-04} in LaTeX
    {"gauss_eps": "0.01", "gauss_delta": "1e-12", "gauss_sens": "1000"},  # σ = 578,998
    *EXTREMES.values(),
], ids=lambda q: "&".join(f"{k}={v}" for k, v in q.items()))
def test_no_e_notation_anywhere_on_the_page(query):
    """Issue 18: prose printed "e^{9.024e−05}" unrendered and chart bars "7.035e+05"; no
    metric, sentence, caption, formula, table or chart label is in e-notation."""
    at = start(query=query)
    for tab in TABS:
        open_tab(at, tab)
        for text in page_texts(at):
            assert not E_NOTATION.search(text), (tab, text)
        for frame in at.dataframe:
            for c in frame.value.columns:
                if frame.value[c].dtype == object:
                    assert not any(E_NOTATION.search(str(v)) for v in frame.value[c]), (tab, c)
        for fig in at.get("plotly_chart"):
            for trace in json.loads(fig.proto.spec)["data"]:
                for text in [trace.get("name") or "", *(trace.get("text") or [])]:
                    assert not E_NOTATION.search(str(text)), (tab, text)


def test_the_plain_words_render_their_power_of_e_as_latex():
    at = start(query={"gauss_eps": "0.00009024", "gauss_sens": "1000"})
    sentence = next(m.value for m in at.markdown if m.value.startswith("**In plain words.**"))
    assert r"$e^{9.024 \cdot 10^{-5}}$" in sentence


def test_delta_is_introduced_with_a_cited_symbol_and_no_bare_source():
    """Δ is introduced with the textbook's own symbol, cited by its authors (issue 36: an
    internal reference, "source 002", is no citation)."""
    at = start()
    intro = markdown_text(at)
    assert "(Δ₂f in Dwork & Roth 2014)" in intro
    for tab in TABS:
        open_tab(at, tab)
        assert "the source " not in " ".join(page_texts(at)), tab


def test_long_formula_blocks_are_collapsed():
    """Issue 18: the calibrations' formulas and the privacy loss's are in expanders, closed
    by default: no formula is drawn outside one."""
    at = start()
    for tab in (CALIBRATIONS, LOSS, GDP):
        open_tab(at, tab)
        assert at.latex, tab
        in_expanders = sum(len(e.latex) for e in at.expander)
        assert in_expanders == len(at.latex), tab
        assert all(not e.proto.expanded for e in at.expander if e.latex), tab


@pytest.mark.parametrize("i", range(len(page.EXPERIMENTS)))
def test_each_experiment_sets_the_page_up_and_shows_what_it_says(i):
    ex = page.EXPERIMENTS[i]
    at = pagekit.open_experiment("views/gaussian.py", page.EXPERIMENTS, i)
    texts = " ".join(page_texts(at))
    if i == 0:
        assert value(at, "delta") == 1e-12 and value(at, "eps") == 1.0
        sigma = value(at, "sigma")
        assert metrics(at)["σ (solved)"] == "6.55782" and "6.55782" in ex.notice
        assert "3.73063" in ex.notice and page.fmt_shown(SIGMA) == "3.73063"
        assert sigma / SIGMA < 2 and sigma == pytest.approx(
            SIGMA * math.sqrt(math.log(1 / 1e-12) / math.log(1 / 1e-5)), rel=0.15)
    else:
        assert at.segmented_control(key="gauss_method").value == "classical"
        assert value(at, "eps") == 10.0
        assert metrics(at)["σ (solved)"] == "0.484481" and "0.484481" in ex.notice
        assert metrics(at)[f"σ, {gaussian.METHOD_NAMES['analytic']}"] == "0.499889" and "0.499889" in ex.notice
        assert "larger: this is not a guarantee" in texts
        assert "exact δ at this σ and ε is 2.26537·10⁻⁵" in texts and "2.3·10⁻⁵" in ex.notice
        assert any("would **not** be (ε, δ)-DP" in w for w in warnings(at))


def test_a_value_solved_beyond_its_box_is_brought_into_range_when_given_again():
    """Issue 34's open finding: σ solved below its box's range (Δ = 10⁻⁶, ε = 563: about
    3.4·10⁻⁸ against a smallest σ of 10⁻⁶) left the box empty once σ was given again, and the
    Share link wrote a σ the box refuses. Now the box's nearest end is used and said, and
    the link reopens the same numbers."""
    at = open_page(GAUSS.path, GAUSS.title,
                   {"gauss_sens": "1e-06", "gauss_eps": "563.171", "gauss_solve": "σ"})
    assert at.number_input(key="gauss_sigma").value < 1e-6  # solved, bounds widened
    at.segmented_control(key="gauss_solve").set_value("delta")
    run(at)
    assert at.number_input(key="gauss_sigma").value == 1e-6
    [said] = [c.value for c in at.caption if "outside this box's range" in c.value]
    assert said.startswith("σ: noise standard deviation: the value found before, 3.37911·10⁻⁸")
    assert said.endswith("1·10⁻⁶ is used.")
    assert at.query_params["gauss_sigma"] in ("1e-06", ["1e-06"])
    again = open_page(GAUSS.path, GAUSS.title, {"gauss_sens": "1e-06", "gauss_eps": "563.171",
                                                "gauss_solve": "δ", "gauss_sigma": "1e-06"})
    assert [m.value for m in again.metric][:4] == [m.value for m in at.metric][:4]
