"""AppTest tests of the page "Gaussian mechanism" (views/gaussian.py).

The page is driven through its widgets by key (all keys start with ``gauss_``) and
through the URL query parameters they are bound to. Only the open tab runs; tests
open a tab through its key ``gauss_tab``. Expected numbers come from
dpcore.gaussian, dpcore.fdp and dpcore.datasets, never from the page.
"""

from __future__ import annotations

import base64
import io
import json
import math
from urllib.parse import parse_qs

import numpy as np
import pandas as pd
import pytest
from streamlit.runtime import media_file_manager
from streamlit.testing.v1 import AppTest

from ui import sources
from conftest import APP_PATH, assert_clean, open_page, run, upload_file, without_help
from dpcore import datasets, fdp, gaussian
from pagekit import assert_only_bad_value_reset, kit, assert_values, set_by_hand, shown

PAGE = "views/gaussian.py"
TITLE = "Gaussian mechanism"
CALIBRATIONS, LOSS, GDP, RELEASE, TABLE = TABS = (
    "Three calibrations", "Privacy loss", "As μ-GDP", "Release a statistic", "σ table",
)
KEYS = {"eps": "gauss_eps", "delta": "gauss_delta", "sigma": "gauss_sigma",
        "sensitivity": "gauss_sens"}
SYMBOLS = {"eps": "ε", "delta": "δ", "sigma": "σ", "sensitivity": "Δ"}
METHOD_URL = {"analytic": "analytic (exact)", "tail": "tail bound", "classical": "classical"}
TABLE_EPS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
TABLE_DELTA = (1e-3, 1e-5, 1e-6, 1e-8, 1e-10, 1e-12)
DEFAULT_SEED = 2022
DEFAULT_N = 10_000


def start(tab: str = CALIBRATIONS, query: dict[str, str] | None = None) -> AppTest:
    """The page after a fresh start on ``tab``; ``query`` is the URL's query string on arrival."""
    at = open_page(PAGE, TITLE, query)
    if tab != CALIBRATIONS:
        open_tab(at, tab)
    return at


def open_tab(at: AppTest, tab: str) -> AppTest:
    at.session_state["gauss_tab"] = tab
    return run(at)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


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


def errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error]


def warnings(at: AppTest) -> list[str]:
    return [w.value for w in at.warning]


def markdown_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def fmt5(v: float) -> str:
    return f"{v:.5g}"


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


def trace_values(values) -> np.ndarray:
    """x or y of a Plotly trace as JSON: a list, or numpy's binary encoding."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    return np.asarray(values, dtype=float)


def chart_traces(at: AppTest, key: str) -> dict[str, dict]:
    [chart] = [c for c in at.get("plotly_chart") if key in c.proto.id]
    return {t.get("name"): t for t in json.loads(chart.proto.spec)["data"]}


def assert_widgets_keyed_with_help(at: AppTest) -> None:
    for kind in ("slider", "select_slider", "radio", "toggle", "number_input", "selectbox",
                 "segmented_control", "button", "file_uploader"):
        for w in getattr(at, kind):
            assert w.key and w.key.startswith("gauss_"), (kind, w.key)
            assert w.help, f"{w.key} has no help"


# ---------------------------------------------------------------------------
# default view
# ---------------------------------------------------------------------------

def test_default_view_solves_sigma():
    at = start()
    assert_clean(at)
    assert not errors(at)
    assert [t.label for t in at.tabs] == list(TABS)
    expected = float(gaussian.gaussian_sigma(1.0, 1e-5, 1.0))
    assert value(at, "sigma") == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx(3.7306, abs=1e-4)
    assert (value(at, "eps"), value(at, "delta"), value(at, "sensitivity")) == (1.0, 1e-5, 1.0)
    shown = metrics(at)
    assert shown["σ (solved)"] == fmt5(expected)
    assert shown["ε"] == "1" and shown["Δ"] == "1"
    assert shown["δ"] == "1.0·10⁻⁵"
    assert shown["μ = Δ/σ"] == fmt5(1 / expected)
    # The solved row is greyed out, the others are not; the sliders show the grid.
    assert at.number_input(key="gauss_sigma").disabled
    assert at.select_slider(key="gauss_sigma_slider").disabled
    assert not any(at.number_input(key=KEYS[n]).disabled for n in ("eps", "delta", "sensitivity"))
    assert at.select_slider(key="gauss_sigma_slider").value == 3.0  # nearest to 3.73 in log (3 and 5 on the grid)
    assert at.select_slider(key="gauss_eps_slider").value == 1.0
    assert at.select_slider(key="gauss_delta_slider").value == 1e-5
    assert "In plain words" in markdown_text(at)
    assert_widgets_keyed_with_help(at)
    # The only flag of the default view: the classical formula at ε = 1.
    assert len(warnings(at)) == 1 and "not a guarantee at ε = 1" in warnings(at)[0]


def test_slider_grids():
    at = start()
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


@pytest.mark.parametrize("tab", TABS[1:])
def test_every_tab_is_clean(tab):
    at = start(tab)
    assert_clean(at)
    assert not errors(at)
    assert at.get("plotly_chart") or at.dataframe, f"{tab} shows nothing"
    assert_widgets_keyed_with_help(at)


# ---------------------------------------------------------------------------
# controls: solve for, methods, slider <-> number
# ---------------------------------------------------------------------------

GIVEN = {"eps": 0.5, "delta": 1e-6, "sigma": 5.0, "sensitivity": 2.0}


@pytest.mark.parametrize("name", list(KEYS))
def test_solve_for_each(name):
    at = start()
    solve_for(at, name)
    given = {k: v for k, v in GIVEN.items() if k != name}
    set_values(at, **given)
    assert_clean(at)
    expected = getattr(gaussian.solve_gaussian(**given, **{name: None}), name)
    assert value(at, name) == pytest.approx(expected, rel=1e-12)
    assert at.number_input(key=KEYS[name]).disabled
    for k, v in given.items():
        assert value(at, k) == v
    label = f"{SYMBOLS[name]} (solved)"
    shown = metrics(at)[label]
    if name == "delta":
        assert shown == f"{expected:.3g}"  # 0.0256: from 0.001 up, δ is shown plainly
    else:
        assert shown == fmt5(expected)


@pytest.mark.parametrize("method", ["analytic", "tail", "classical"])
def test_each_method(method):
    at = start()
    use_method(at, method)
    set_values(at, eps=0.5)
    assert_clean(at)
    expected = float(gaussian.gaussian_sigma(0.5, 1e-5, 1.0, method=method))
    assert value(at, "sigma") == pytest.approx(expected, rel=1e-12)
    assert metrics(at)["σ (solved)"] == fmt5(expected)
    assert not errors(at) and not warnings(at)  # ε < 1: every formula is valid
    if method != "analytic":  # the sentence states the exact δ at this σ
        exact = float(gaussian.gaussian_delta(0.5, expected, 1.0))
        assert exact < 1e-5
        assert "over-protects" in markdown_text(at)


def test_slider_moves_the_number_and_back():
    at = start()
    at.select_slider(key="gauss_eps_slider").set_value(2.0)
    run(at)
    assert value(at, "eps") == 2.0
    assert value(at, "sigma") == pytest.approx(float(gaussian.gaussian_sigma(2.0, 1e-5)),
                                               rel=1e-12)
    # Exact values in the boxes: the sliders go to the nearest step in log scale.
    set_values(at, eps=0.37, delta=3e-7, sensitivity=7.5)
    for name, v in (("eps", 0.37), ("delta", 3e-7), ("sensitivity", 7.5)):
        slider = at.select_slider(key=f"{KEYS[name]}_slider")
        assert slider.value == nearest(slider.options, v), name
        assert value(at, name) == v
    assert at.select_slider(key="gauss_eps_slider").value == 0.3
    assert at.select_slider(key="gauss_delta_slider").value == 2e-7
    assert value(at, "sigma") == pytest.approx(
        float(gaussian.gaussian_sigma(0.37, 3e-7, 7.5)), rel=1e-12)
    at.select_slider(key="gauss_delta_slider").set_value(1e-3)
    run(at)
    assert value(at, "delta") == 1e-3 and value(at, "eps") == 0.37


def test_solved_value_beyond_the_slider_puts_it_at_its_end():
    at = start()
    set_values(at, eps=0.01, delta=1e-12, sensitivity=1000.0)
    expected = float(gaussian.gaussian_sigma(0.01, 1e-12, 1000.0))
    assert expected > 10_000
    assert value(at, "sigma") == pytest.approx(expected, rel=1e-12)
    assert at.select_slider(key="gauss_sigma_slider").value == 10_000


def test_solved_value_beyond_the_box_is_shown_in_the_results_only():
    at = start()
    solve_for(at, "eps")
    set_values(at, sigma=0.01, sensitivity=1000.0)
    assert_clean(at)
    expected = gaussian.solve_gaussian(eps=None, delta=1e-5, sigma=0.01, sensitivity=1000.0).eps
    assert expected > 10_000  # the ε box stops at 10,000
    assert value(at, "eps") == pytest.approx(1.0)  # the value found before, kept
    assert at.select_slider(key="gauss_eps_slider").value == 50.0
    assert any("outside this box's range" in c.value for c in at.caption)
    assert metrics(at)["ε (solved)"].startswith(f"{expected:.4e}".split("e")[0])


def test_classical_is_flagged_at_eps_one_and_above():
    at = start()
    use_method(at, "classical")
    set_values(at, eps=2.0)
    assert_clean(at)
    flags = warnings(at)
    assert any(w.startswith("**Not a guarantee.**") for w in flags), flags
    assert any("not a guarantee at ε = 2" in w for w in flags), flags
    classical = float(gaussian.gaussian_sigma(2.0, 1e-5, method="classical"))
    assert value(at, "sigma") == pytest.approx(classical, rel=1e-12)
    [table] = [d.value for d in at.dataframe if "guarantee" in d.value.columns]
    row = table.set_index("calibration").loc[gaussian.METHOD_NAMES["classical"]]
    assert row["guarantee"] == "no"
    set_values(at, eps=0.5)
    assert not warnings(at)


@pytest.mark.parametrize("method", ["tail", "classical"])
def test_no_solution_shows_a_plain_error(method):
    at = start()
    use_method(at, method)
    set_values(at, eps=0.0)
    assert_clean(at)
    [msg] = errors(at)
    assert msg.startswith("No σ fits these values")
    assert "`" not in msg and "eps" not in msg
    assert metrics(at)["σ: no solution"] == "—"
    # The rest of the page still works.
    [table] = [d.value for d in at.dataframe if "guarantee" in d.value.columns]
    assert not np.isfinite(table.set_index("calibration").loc[
        gaussian.METHOD_NAMES[method], "σ"])
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


# ---------------------------------------------------------------------------
# sections
# ---------------------------------------------------------------------------

def test_three_calibrations():
    at = start()
    table = gaussian.calibration_table(1.0, 1e-5, 1.0).set_index("method")
    shown = metrics(at)
    for method in ("analytic", "tail", "classical"):
        assert shown[f"σ, {gaussian.METHOD_NAMES[method]}"] == f"{table.loc[method, 'sigma']:.4g}"
    tail = table.loc["tail"]
    text = markdown_text(at)
    assert f"{tail.extra_noise:.1%} more noise" in text
    assert f"would need {tail.variance_ratio:.3g}× as many people" in text
    assert at.get("plotly_chart")


def test_privacy_loss_numbers():
    at = start(LOSS)
    sigma = float(gaussian.gaussian_sigma(1.0, 1e-5))
    tail = float(gaussian.gaussian_delta(1.0, sigma, method="tail"))
    shown = metrics(at)
    assert shown["Exact δ(ε)"] == "1.0·10⁻⁵"
    mantissa, power = f"{tail:.1e}".split("e")
    assert shown["P(L > ε): tail bound"].startswith(mantissa + "·10")
    assert f"{tail / 1e-5:.3g} times smaller" in markdown_text(at)
    assert at.toggle(key="gauss_loss_log").value is True
    at.toggle(key="gauss_loss_log").set_value(False)
    run(at)
    assert at.get("plotly_chart")


@pytest.mark.parametrize(("eps", "delta", "linked", "note"), [
    (1.0, 1e-5, 0.25, "is rounded to 0.25"),     # μ = 0.268
    (50.0, 0.5, 5.0, "beyond that page's slider"),  # μ ≈ 10
])
def test_link_to_fdp_carries_mu(eps, delta, linked, note):
    at = start(GDP)
    set_values(at, eps=eps, delta=delta)
    assert_clean(at)
    mu = float(gaussian.gaussian_mu(eps, delta))
    assert round(min(mu, 5.0) / 0.05) * 0.05 == pytest.approx(linked)
    [link] = at.page_link
    assert link.proto.page.endswith("fdp")
    params = parse_qs(link.proto.query_string)
    assert params == {"fdp_tab": ["Trade-off curves"], "fdp_g_mu": [f"{linked:g}"]}
    assert any(note in c.value for c in at.caption)
    # The f-DP page opened with these parameters shows G_μ at that μ.
    fdp_at = AppTest.from_file(str(APP_PATH), default_timeout=60)
    run(fdp_at)
    for key, [v] in params.items():
        fdp_at.query_params[key] = v
    fdp_at.switch_page("views/fdp.py")
    run(fdp_at)
    assert fdp_at.slider(key="fdp_g_mu").value == pytest.approx(linked)


def test_gdp_curve_and_markers():
    at = start(GDP)
    sigma = float(gaussian.gaussian_sigma(1.0, 1e-5))
    traces = chart_traces(at, "gauss_fig_gdp")
    markers = traces["analytic calibration δ(ε) at σ, Δ"]
    xs, ys = trace_values(markers["x"]), trace_values(markers["y"])
    assert markers["mode"] == "markers" and len(xs) == 15
    # The analytic calibration's δ(ε) lies on the μ-GDP curve, μ = Δ/σ.
    np.testing.assert_allclose(ys, fdp.gdp_delta(xs, 1 / sigma), rtol=1e-9)
    tail = traces["tail bound P(L > ε)"]
    assert tail["line"]["dash"] == "dash"
    assert np.all(trace_values(tail["y"])[1:] >= fdp.gdp_delta(trace_values(tail["x"])[1:],
                                                                1 / sigma))


# ---------------------------------------------------------------------------
# release demo
# ---------------------------------------------------------------------------

def korea_by_age(seed=DEFAULT_SEED, n=DEFAULT_N):
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
    assert_clean(at)
    assert not errors(at)
    by_age = korea_by_age()
    assert true_answer(at) == by_age[65:].sum()
    sigma = float(gaussian.gaussian_sigma(1.0, 1e-5))
    summary = gaussian.release_summary(by_age[65:].sum(), sigma)
    shown = metrics(at)
    assert shown["RMSE (theory = σ)"] == f"{sigma:.4g}"
    assert shown["95% of releases within"] == f"± {summary.half_width:.4g}"
    assert abs(float(shown["One release"].replace(",", "")) - true_answer(at)) < 6 * sigma
    assert query_eps(at) == "1"  # Δ = 1: the page's ε
    assert "gauss_use_sens" not in [b.key for b in at.button]
    at.slider(key="gauss_ages").set_value((0, 17))
    run(at)
    assert true_answer(at) == by_age[:18].sum()


def test_release_small_count_can_be_negative():
    at = start(RELEASE)
    set_values(at, eps=0.1)
    at.slider(key="gauss_ages").set_value((85, 85))
    at.select_slider(key="gauss_n").set_value(1000)
    run(at)
    count = korea_by_age(n=1000)[85]
    sigma = float(gaussian.gaussian_sigma(0.1, 1e-5))
    p = float(gaussian.release_summary(count, sigma).p_negative)
    assert true_answer(at) == count
    assert metrics(at)["Chance of a negative release"] == f"{100 * p:.3g}%"


def test_release_sum_and_use_its_sensitivity():
    at = start(RELEASE)
    at.radio(key="gauss_query").set_value("sum")
    run(at)
    by_age = korea_by_age()
    assert true_answer(at) == pytest.approx(np.arange(86).clip(0, 85) @ by_age)
    sigma = float(gaussian.gaussian_sigma(1.0, 1e-5))
    expected = float(gaussian.gaussian_epsilon(1e-5, sigma, 85.0))
    assert query_eps(at) == f"{expected:.4g}"
    assert any("sensitivity is Δ = 85" in i.value for i in at.info)
    at.number_input(key="gauss_upper").set_value(60.0)
    run(at)
    assert true_answer(at) == pytest.approx(np.arange(86).clip(0, 60) @ by_age)
    at.button(key="gauss_use_sens").click()
    run(at)
    assert_clean(at)
    assert at.segmented_control(key="gauss_solve").value == "sigma"
    assert value(at, "sensitivity") == 60.0
    assert at.select_slider(key="gauss_sens_slider").value == 70.0  # nearest to 60 in log (50 and 70 on the grid)
    assert value(at, "sigma") == pytest.approx(float(gaussian.gaussian_sigma(1.0, 1e-5, 60.0)),
                                               rel=1e-12)
    assert query_eps(at) == "1"
    assert not any("sensitivity is Δ" in i.value for i in at.info)


def test_use_sensitivity_switches_solve_to_sigma():
    at = start(RELEASE)
    solve_for(at, "eps")
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
    assert_clean(at)
    by_age = korea_by_age()
    labels = datasets.age_bin_labels(width)
    counts = np.bincount(datasets.age_bin_index(np.arange(86), width), weights=by_age,
                         minlength=len(labels))
    sigma = float(gaussian.gaussian_sigma(1.0, 1e-5))
    summary = gaussian.release_summary(counts, sigma)
    shown = metrics(at)
    assert shown["Expected negative bins"] == f"{summary.expected_negative:.3g}"
    assert shown["RMSE per bin (= σ)"] == f"{sigma:.4g}"
    assert query_eps(at) == f"{float(gaussian.gaussian_epsilon(1e-5, sigma, sens)):.4g}"
    assert (sens != 1.0) == any("sensitivity is Δ = 1.414" in i.value for i in at.info)
    assert list(chart_traces(at, "gauss_fig_hist")["true count"]["x"]) == labels


def upload(at: AppTest, data: bytes, kind: str = "counts") -> AppTest:
    return upload_file(at, "gauss", data, kind)


def test_upload_counts():
    at = upload(start(RELEASE), b"group,people\n0-9,100\n10-19,50\n20-29,0\n")
    assert not errors(at)
    assert at.radio(key="gauss_query").options == ["a count", "a histogram"]
    assert true_answer(at) == 150
    at.radio(key="gauss_query").set_value("histogram")
    run(at)
    sigma = float(gaussian.gaussian_sigma(1.0, 1e-5))
    summary = gaussian.release_summary([100, 50, 0], sigma)
    assert metrics(at)["Expected negative bins"] == f"{summary.expected_negative:.3g}"
    assert list(chart_traces(at, "gauss_fig_hist")["true count"]["x"]) == ["0-9", "10-19",
                                                                            "20-29"]


def test_upload_values():
    at = upload(start(RELEASE), b"age\n3\n20\n30\n45\n45\n90\n", kind="values")
    assert not errors(at)
    assert true_answer(at) == 6  # the number of values
    at.radio(key="gauss_query").set_value("sum")
    run(at)
    assert true_answer(at) == 3 + 20 + 30 + 45 + 45 + 85
    at.radio(key="gauss_query").set_value("histogram")
    run(at)
    at.radio(key="gauss_width").set_value(10)
    run(at)
    assert_clean(at)
    assert not errors(at)
    sigma = float(gaussian.gaussian_sigma(1.0, 1e-5))
    counts = datasets.bin_values([3, 20, 30, 45, 45, 90], width=10)
    summary = gaussian.release_summary(counts, sigma)
    assert metrics(at)["Expected negative bins"] == f"{summary.expected_negative:.3g}"


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
    assert_clean(at)
    [msg] = errors(at)
    assert fragment in msg and "`" not in msg
    assert at.file_uploader(key="gauss_file")  # the controls to fix it are still there
    # The rest of the page still works.
    assert metrics(at)["σ (solved)"] == fmt5(float(gaussian.gaussian_sigma(1.0, 1e-5)))
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


# ---------------------------------------------------------------------------
# σ table and download
# ---------------------------------------------------------------------------

@pytest.fixture
def downloads(monkeypatch):
    """The files of the download buttons: file name -> the callable that makes the file
    (the page kit's exports are made on a click, so they are registered as deferred)."""
    seen = {}
    original = media_file_manager.MediaFileManager.add_deferred

    def add_deferred(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        seen[file_name] = data_callable
        return original(self, data_callable, mimetype, coordinates, file_name, **kwargs)

    monkeypatch.setattr(media_file_manager.MediaFileManager, "add_deferred", add_deferred)
    return seen


def download_csv(downloads, file_name: str) -> pd.DataFrame:
    data = downloads[file_name]()
    return pd.read_csv(io.StringIO(data) if isinstance(data, str) else io.BytesIO(data))


@pytest.mark.parametrize("sens", [1.0, 85.0])
def test_sigma_table_and_download(downloads, sens):
    at = start(TABLE, {"gauss_sens": f"{sens:g}"})
    assert_clean(at)
    expected = gaussian.sigma_table(TABLE_EPS, TABLE_DELTA, sensitivity=sens)
    button = at.download_button(key="gauss_full_table_csv")
    assert button.proto.label == "Table (CSV)" and button.help
    table = download_csv(downloads, "noise_table_sigma_all_three_calibrations.csv")
    columns = {"ε": "eps", "δ": "delta", "σ analytic": "sigma_analytic",
               "σ tail bound": "sigma_tail", "σ classical": "sigma_classical",
               "classical valid (ε < 1)": "classical_valid",
               "tail / analytic": "tail_over_analytic",
               "classical / analytic": "classical_over_analytic"}
    assert [columns[c] for c in table.columns] == list(expected.columns)
    table = table.rename(columns=columns)
    assert len(table) == len(TABLE_EPS) * len(TABLE_DELTA)
    for column in ("sigma_analytic", "sigma_tail", "sigma_classical"):
        np.testing.assert_allclose(table[column], expected[column], rtol=1e-15)
    assert table["classical_valid"].tolist() == expected["classical_valid"].tolist()
    # The pivot's CSV keeps its row labels.
    pivot_csv = download_csv(downloads, "noise_table_sigma_exact_calibration.csv")
    assert pivot_csv["ε"].tolist() == [f"ε = {e:g}" for e in TABLE_EPS]
    [pivot] = [d.value for d in at.dataframe if "δ = 0.001" in d.value.columns]
    assert pivot.shape == (len(TABLE_EPS), len(TABLE_DELTA))
    assert pivot.loc["ε = 1", "δ = 1.0·10⁻⁵"] == pytest.approx(
        float(gaussian.gaussian_sigma(1.0, 1e-5, sens)), rel=1e-12)


# ---------------------------------------------------------------------------
# URL query parameters
# ---------------------------------------------------------------------------

def test_query_params_set_the_view():
    at = start(query={"gauss_eps": "2", "gauss_delta": "1e-06", "gauss_sigma": "3",
                      "gauss_solve": "Δ", "gauss_method": METHOD_URL["tail"]})
    assert_clean(at)
    assert at.segmented_control(key="gauss_solve").value == "sensitivity"
    assert at.segmented_control(key="gauss_method").value == "tail"
    expected = gaussian.solve_gaussian(eps=2.0, delta=1e-6, sigma=3.0, sensitivity=None,
                                       method="tail").sensitivity
    assert value(at, "sensitivity") == pytest.approx(expected, rel=1e-12)
    assert metrics(at)["Δ (solved)"] == fmt5(expected)


def test_query_param_eps_zero_is_taken():
    at = start(query={"gauss_eps": "0", "gauss_method": METHOD_URL["classical"]})
    assert value(at, "eps") == 0.0
    [msg] = errors(at)
    assert "classical calibration needs ε > 0" in msg


def test_query_param_of_the_solved_row_is_overridden():
    at = start(query={"gauss_sigma": "7"})
    assert_clean(at)
    expected = float(gaussian.gaussian_sigma(1.0, 1e-5))
    assert value(at, "sigma") == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("query", [
    {"gauss_eps": "abc"}, {"gauss_delta": "2"}, {"gauss_delta": "0"}, {"gauss_sens": "-1"},
    {"gauss_solve": "x"}, {"gauss_method": "nope"}, {"gauss_tab": "nope"},
], ids=lambda q: "&".join(f"{k}={v}" for k, v in q.items()))
def test_bad_query_params_are_ignored(query):
    at = start(query=query)
    assert_clean(at)
    assert not errors(at)
    assert value(at, "sigma") == pytest.approx(float(gaussian.gaussian_sigma(1.0, 1e-5)),
                                               rel=1e-12)


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


# ---------------------------------------------------------------------------
# the page kit: a link reproduces the view, unusable link values, help, report
# ---------------------------------------------------------------------------

# Views as (key, kind, value, the value as the URL writes it): the segmented controls
# and radios by their labels, select sliders by their formatted options. "Solve for" and
# the values typed for the given rows are in the link.
LINKED = {
    "solve Δ, tail bound": (CALIBRATIONS, [
        ("gauss_solve", "segmented_control", "sensitivity", "Δ"),
        ("gauss_method", "segmented_control", "tail", METHOD_URL["tail"]),
        ("gauss_eps", "number_input", 2.0, "2"),
        ("gauss_delta", "number_input", 1e-6, "1e-06"),
        ("gauss_sigma", "number_input", 3.0, "3")]),
    "solve δ, linear loss": (LOSS, [
        ("gauss_solve", "segmented_control", "delta", "δ"),
        ("gauss_eps", "number_input", 0.5, "0.5"),
        ("gauss_sigma", "number_input", 5.0, "5"),
        ("gauss_sens", "number_input", 2.0, "2"),
        ("gauss_loss_log", "toggle", False, "false")]),
    "solve ε": (GDP, [
        ("gauss_solve", "segmented_control", "eps", "ε"),
        ("gauss_delta", "number_input", 1e-8, "1e-08"),
        ("gauss_sigma", "number_input", 2.0, "2"),
        ("gauss_sens", "number_input", 1.5, "1.5")]),
    "release a count": (RELEASE, [
        ("gauss_eps", "number_input", 0.5, "0.5"),
        ("gauss_source", "selectbox", "usa", "Population 2020: " + datasets.POPULATIONS["usa"]),
        ("gauss_n", "select_slider", 5000, "5,000"),
        ("gauss_seed", "number_input", 7, "7"),
        ("gauss_ages", "slider", (20, 40), ["20", "40"])]),
    "release a sum": (RELEASE, [
        ("gauss_query", "radio", "sum", "a sum of clipped values"),
        ("gauss_upper", "number_input", 60.0, "60"),
        ("gauss_seed", "number_input", 11, "11")]),
    "release a histogram": (RELEASE, [
        ("gauss_solve", "segmented_control", "delta", "δ"),
        ("gauss_query", "radio", "histogram", "a histogram"),
        ("gauss_width", "radio", 10, sources.AGE_BINNINGS[10]),
        ("gauss_neighbours", "radio", "histogram_replace", "replace one person (Δ = √2)"),
        ("gauss_seed", "number_input", 3, "3")]),
    "σ table": (TABLE, [("gauss_sens", "number_input", 85.0, "85")]),
}
KIT = {
    CALIBRATIONS: (["Noise σ of the three calibrations"], ["The three calibrations"]),
    LOSS: (["The privacy-loss distribution"], []),
    GDP: (["Privacy curve δ(ε) as Gaussian DP"], []),
    RELEASE: (["Simulated releases of the answer"], []),
    TABLE: ([], ["Noise table (σ): exact calibration",
                 "Noise table (σ): all three calibrations"]),
}
DOWNLOADS = {
    CALIBRATIONS: ("gauss_fig_cal_csv", "gauss_fig_cal_html", "gauss_cal_table_csv"),
    LOSS: ("gauss_fig_loss_csv", "gauss_fig_loss_html"),
    GDP: ("gauss_fig_gdp_csv", "gauss_fig_gdp_html"),
    RELEASE: ("gauss_fig_release_csv", "gauss_fig_release_html"),
    TABLE: ("gauss_pivot_csv", "gauss_full_table_csv"),
}
REPORT_FILE = "gaussian_mechanism_report.html"
LINK_NOTE = "could not be used"


def link_notes(at: AppTest) -> list[str]:
    return [w for w in warnings(at) if LINK_NOTE in w]










@pytest.mark.parametrize("view", LINKED)
def test_a_link_reproduces_the_view_set_by_hand(view):
    tab, values = LINKED[view]
    query = {"gauss_tab": tab, **{key: url for key, _kind, _value, url in values}}
    by_link = start(query=query)
    assert_clean(by_link)
    assert not errors(by_link) and not link_notes(by_link)
    assert at_tab(by_link) == tab
    assert_values(by_link, values)
    by_hand = start(tab)
    set_by_hand(by_hand, values, run_after=("segmented_control",))  # it greys out rows
    assert_clean(by_hand)
    assert_values(by_hand, values)
    assert shown(by_link) == shown(by_hand)
    assert shown(by_link) != shown(start(tab))  # not the default view


def at_tab(at: AppTest) -> str:
    return at.session_state["gauss_tab"]


def test_a_link_gives_the_solved_value_of_the_view():
    tab, values = LINKED["solve Δ, tail bound"]
    at = start(query={key: url for key, _kind, _value, url in values})
    expected = gaussian.solve_gaussian(eps=2.0, delta=1e-6, sigma=3.0, sensitivity=None,
                                       method="tail").sensitivity
    assert value(at, "sensitivity") == pytest.approx(expected, rel=1e-12)
    assert at.number_input(key="gauss_sens").disabled
    assert metrics(at)["Δ (solved)"] == fmt5(expected)
    assert kit(at).parameters["solved for"] == "Δ"
    assert kit(at).parameters["calibration"] == "tail bound"
    # The solved row is not a setting: it stays out of the link.
    assert "gauss_sens" not in at.query_params


@pytest.mark.parametrize(("query", "bad", "default"), [
    ({"gauss_eps": "abc", "gauss_delta": "1e-06"}, "gauss_eps", 1.0),
    ({"gauss_delta": "2", "gauss_eps": "0.5"}, "gauss_delta", 1e-5),
    ({"gauss_sens": "-1"}, "gauss_sens", 1.0),
    ({"gauss_solve": "x", "gauss_eps": "2"}, "gauss_solve", "sigma"),
    ({"gauss_method": "nope", "gauss_eps": "0.5"}, "gauss_method", "analytic"),
    ({"gauss_tab": RELEASE, "gauss_n": "3", "gauss_seed": "7"}, "gauss_n", 10_000),
    ({"gauss_tab": RELEASE, "gauss_seed": "-5", "gauss_n": "5,000"}, "gauss_seed", 2022),
    ({"gauss_tab": RELEASE, "gauss_query": "a median", "gauss_seed": "7"}, "gauss_query",
     "count"),
    ({"gauss_tab": "nope"}, "gauss_tab", CALIBRATIONS),
], ids=lambda v: "&".join(f"{k}={x}" for k, x in v.items()) if isinstance(v, dict) else None)
def test_an_unusable_link_value_is_reset_with_a_note(query, bad, default):
    at = start(query=query)
    assert_clean(at)
    assert not errors(at)
    assert_only_bad_value_reset(at, query, bad, default, notes=link_notes)
    # Everything else is as the link says (above), and the page works.
    eps = 2.0 if query.get("gauss_eps") == "2" else 0.5 if query.get("gauss_eps") == "0.5" \
        else 1.0
    delta = 1e-6 if query.get("gauss_delta") == "1e-06" else 1e-5
    sigma = float(gaussian.gaussian_sigma(eps, delta))
    assert value(at, "sigma") == pytest.approx(sigma, rel=1e-12)
    assert metrics(at)["σ (solved)"] == fmt5(sigma)
    if at_tab(at) == RELEASE:
        n = 5000 if query.get("gauss_n") == "5,000" else DEFAULT_N
        seed = 7 if query.get("gauss_seed") == "7" else DEFAULT_SEED
        assert true_answer(at) == korea_by_age(seed=seed, n=n)[65:].sum()
    assert kit(at).findings and kit(at).figures




def test_every_control_has_help():
    at = start()
    seen: list[str] = []
    for tab in TABS:
        open_tab(at, tab)
        assert not without_help(at.main, seen), tab
    open_tab(at, RELEASE)
    for query in ("sum", "histogram"):  # the sum's U and its "use this Δ" button; the bins
        at.radio(key="gauss_query").set_value(query)
        run(at)
        assert not without_help(at.main, seen), query
    upload(at, b"age\n3\n20\n30\n", kind="values")
    assert not without_help(at.main, seen)
    kinds = {name.split()[0] for name in seen}
    assert {"slider", "select_slider", "radio", "toggle", "number_input", "selectbox",
            "button_group", "button", "download_button", "page_link",
            "file_uploader"} <= kinds, kinds
    keys = {name.split()[1] for name in seen}
    assert {"gauss_solve", "gauss_method", "gauss_eps", "gauss_eps_slider", "gauss_sigma",
            "gauss_upper", "gauss_use_sens", "gauss_width", "gauss_neighbours", "gauss_seed",
            "gauss_seed_new", "gauss_col", "gauss_file", "gauss_file_kind",
            "gauss_loss_log"} <= keys, keys


def test_the_report_gets_findings_settings_charts_and_tables(downloads):
    at = start()
    sigma = float(gaussian.gaussian_sigma(1.0, 1e-5))
    verdict = (f"With σ = {sigma:.4g}, the release of a count of sensitivity Δ = 1 is "
               f"(1, 1.0·10⁻⁵)-DP, and μ-GDP with μ = Δ/σ = {1 / sigma:.4g}.")
    for tab, (charts, tables) in KIT.items():
        open_tab(at, tab)
        found = kit(at)
        assert found.title == TITLE
        assert [n for n, _ in found.figures] == charts, tab
        assert [n for n, _ in found.tables] == tables, tab
        assert found.findings[0] == verdict, found.findings
        assert len(found.findings) >= (1 if tab == TABLE else 2), (tab, found.findings)
        assert found.parameters["solved for"] == "σ"
        assert found.parameters["calibration"] == "analytic (exact)"
        assert found.parameters["σ: noise standard deviation"] == f"{sigma:.6g}"
        assert found.parameters["δ: failure probability"] == "1.0·10⁻⁵"
        assert any(f"{len(found.findings)} finding(s), {len(charts)} chart(s), "
                   f"{len(tables)} table(s)." == c.value for c in at.caption)
        assert {d.key for d in at.get("download_button")} == {
            "page_report_download", *DOWNLOADS[tab]}, tab
    # The release tab's own finding and settings.
    open_tab(at, RELEASE)
    found = kit(at)
    assert "Releasing a count with σ" in found.findings[1] and "(1, 1.0·10⁻⁵)-DP" in \
        found.findings[1]
    assert found.parameters["seed"] == str(DEFAULT_SEED)
    assert found.parameters["people N"] == "10,000"
    assert found.parameters["age group"] == "65–85"
    html = downloads[REPORT_FILE]()
    assert TITLE in html and "Simulated releases of the answer" in html
    assert "release of a count of sensitivity" in html and "age group" in html
    # The classical formula's caveat at ε = 1 goes to the report.
    open_tab(at, CALIBRATIONS)
    assert any("Classical formula: not a guarantee at ε = 1" in n for n in kit(at).notes)
    csv = pd.read_csv(io.StringIO(downloads["the_three_calibrations.csv"]()))
    assert sorted(csv["calibration"]) == sorted(gaussian.METHOD_NAMES.values())
    assert "extra noise (%)" in csv.columns
