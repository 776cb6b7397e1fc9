"""AppTest tests of the page "Test calibration" (views/calibration.py).

The page is driven through its widgets by key (keys from the page and from
ui/): the null distributions (Figures 2-3), the live rejection-rate
simulation in its form, and the table of the full-scale study.

Two things are pinned so the tests mean the same on every machine:

- the machine speed behind the page's run-time estimate (``machine_speed``,
  an st.cache_resource over ``simulation.seconds_per_unit``) is fixed at
  ``SECONDS_PER_UNIT`` (conftest.py's fixture ``fixed_machine_speed``); otherwise
  whether a large request is refused would depend on how fast, and how busy, the
  test machine is;
- the study results are read afresh (st.cache_data is cleared) by the tests
  of the full-scale tab, since ``dpcore/data/calibration_study.csv`` may
  appear while the tests run.
"""

from __future__ import annotations

import html
import re
import shlex

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ui import controls
from conftest import APP_PATH, REPO_ROOT, assert_clean, open_page, run
from dpcore import datasets, simulation, study
from pagekit import (kit as ended_kit, assert_report_page, assert_reset_note, errors, every_control_with_help,
                     link_notes, metrics, query_id)

PAGE = "views/calibration.py"
TITLE = "Test calibration"
SUBMIT = "FormSubmitter:cal_form-Run simulation"
RESULTS_PATH = REPO_ROOT / "dpcore" / "data" / study.RESULTS_FILE

DF = "χ² reference mean (df)"
MEAN_NO_DP = "Mean without DP"
MEAN_DP = "Mean with DP"
TYPE1_NO_DP = "Naive type-I error without DP"
TYPE1_DP = "Naive type-I error with DP"
METRICS = {DF, MEAN_NO_DP, MEAN_DP, TYPE1_NO_DP, TYPE1_DP}

CHANGED = "The settings above differ from the last completed run"
TOO_LONG = "would take about"
RATE_COLUMNS = ["n", "test", "rate", "ci_low", "ci_high", "rejections", "undefined", "reps",
                "n_boot"]

pytestmark = pytest.mark.usefixtures("fixed_machine_speed")


# ---------------------------------------------------------------------------
# fixtures and helpers
# ---------------------------------------------------------------------------

def start(query: dict | None = None) -> AppTest:
    """The page after a fresh start; ``query`` is the URL's query string on arrival."""
    return open_page(PAGE, TITLE, query, timeout=120)


def submit(at: AppTest) -> AppTest:
    at.button(key=SUBMIT).click()
    return run(at)


def percent(text: str) -> float:
    assert text.endswith("%"), text
    value = float(text[:-1]) / 100
    assert 0.0 <= value <= 1.0, text
    return value


def infos(at: AppTest) -> list[str]:
    return [i.value for i in at.info]


def live_tab(at: AppTest):
    return at.tabs[1]


def paper_tab(at: AppTest):
    return at.tabs[2]


def live_table(at: AppTest) -> pd.DataFrame:
    [table] = live_tab(at).dataframe
    return table.value


def live_caption(at: AppTest) -> str:
    [cap] = [c.value for c in live_tab(at).caption if "per point" in c.value]
    return cap


def assert_rates(table: pd.DataFrame) -> None:
    assert list(table.columns) == RATE_COLUMNS
    for col in ("rate", "ci_low", "ci_high"):
        assert table[col].between(0.0, 1.0).all(), table
    assert (table["ci_low"] <= table["rate"]).all() and (table["rate"] <= table["ci_high"]).all()
    assert (table["rejections"] == (table["rate"] * table["reps"]).round()).all()


def set_small_run(at: AppTest, ns=(1000, 100_000)) -> None:
    """R = 50, B = 100, two N, Korea vs USA: well under a second."""
    at.selectbox(key="cal_pair").set_value("korea_vs_usa")
    at.select_slider(key="cal_reps").set_value(50)
    at.select_slider(key="cal_boot").set_value(100)
    at.multiselect(key="cal_ns").set_value(list(ns))


# ---------------------------------------------------------------------------
# default view
# ---------------------------------------------------------------------------

def test_default_view():
    at = start()
    assert not errors(at), errors(at)
    assert [t.label for t in at.tabs] == [
        "Null distributions", "Type-I error and power", "The paper at full scale"]

    # Null distributions: uniform shape, M = 20, N = 5,050, α = 0.5, 1,000 replicates.
    assert at.selectbox(key="cal_shape").value == "uniform"
    assert at.select_slider(key="cal_m").value == 20
    assert at.number_input(key="cal_n").value == 5050
    assert at.select_slider(key="cal_alpha").value == 0.5
    assert at.select_slider(key="cal_reps_null").value == 1000
    assert at.number_input(key="cal_seed").value == controls.DEFAULT_SEED
    shown = metrics(at)
    assert set(shown) == METRICS, shown
    assert shown[DF] == "19"
    # Without DP the naive test holds its level: about 5% of 1,000 null statistics
    # (the binomial sd is 0.7%); with DP it rejects more often.
    no_dp, with_dp = percent(shown[TYPE1_NO_DP]), percent(shown[TYPE1_DP])
    assert 0.025 <= no_dp <= 0.08, shown
    assert with_dp > no_dp, shown
    assert abs(float(shown[MEAN_NO_DP]) - 19) < 1.5, shown
    assert float(shown[MEAN_DP]) > float(shown[MEAN_NO_DP]), shown

    # The live tab ran its default simulation without a press of the button.
    table = live_table(at)
    assert len(table) == 2 * 10
    assert sorted(set(table["n"])) == list(study.PAPER_N)
    assert set(table["test"]) == {"bootstrap", "chisq"}
    assert set(table["reps"]) == {100}
    assert_rates(table)
    assert live_caption(at).startswith(
        "Korea vs Korea (type-I error), M = 18, α₁ = 0.1, α₂ = 0.1,")
    assert not [i for i in infos(at) if CHANGED in i]
    keys = [b.key for b in at.download_button]
    assert {"page_report_download", "cal_fig_null_csv", "cal_fig_null_html", "cal_fig_live_csv",
            "cal_fig_live_html", "cal_table_live_csv"} <= set(keys), keys


# ---------------------------------------------------------------------------
# null distributions
# ---------------------------------------------------------------------------

def test_stronger_privacy_raises_the_type_i_error_with_dp():
    at = start()
    before = metrics(at)
    at.select_slider(key="cal_alpha").set_value(0.05)
    run(at)
    after = metrics(at)
    # Lap(4) -> Lap(40) noise on about 250 people per bin: the private statistic
    # exceeds the χ²(19) critical value far more often (11% -> 100% here).
    assert percent(after[TYPE1_DP]) > percent(before[TYPE1_DP])
    assert float(after[MEAN_DP]) > float(before[MEAN_DP])
    # The histograms without noise are the same draws: α does not touch them.
    for label in (DF, MEAN_NO_DP, TYPE1_NO_DP):
        assert after[label] == before[label], label


def _null_metrics(seed: int) -> dict[str, str]:
    at = start()
    at.number_input(key="cal_seed").set_value(seed)
    run(at)
    return metrics(at)


def test_same_seed_reproduces_the_null_metrics():
    first = _null_metrics(123)
    # Clear st.cache_data so the second run recomputes instead of reusing the cache.
    st.cache_data.clear()
    assert _null_metrics(123) == first
    assert _null_metrics(124) != first


@pytest.mark.parametrize(("shape", "m"), [("increasing", 100), ("normal", 5)])
def test_shape_and_bins_set_the_degrees_of_freedom(shape, m):
    at = start()
    at.selectbox(key="cal_shape").set_value(shape)
    at.select_slider(key="cal_m").set_value(m)
    run(at)
    shown = metrics(at)
    assert shown[DF] == str(m - 1)
    assert abs(float(shown[MEAN_NO_DP]) - (m - 1)) < 0.15 * (m - 1) + 1, shown
    assert not errors(at)


# ---------------------------------------------------------------------------
# the live simulation (a form)
# ---------------------------------------------------------------------------

def test_submitted_small_run_updates_the_table():
    at = start()
    set_small_run(at)
    submit(at)
    assert not errors(at), errors(at)
    table = live_table(at)
    assert len(table) == 2 * 2
    assert sorted(set(table["n"])) == [1000, 100_000]
    assert set(table["reps"]) == {50}
    assert_rates(table)
    cap = live_caption(at)
    assert cap.startswith("Korea vs USA (large effect), M = 18,")
    assert "R = 50 per point, B = 100" in cap and "power (large effect)" in cap
    assert not [i for i in infos(at) if CHANGED in i]
    # Korea vs USA is a large effect: at N = 100,000 the bootstrap test finds it always.
    power = table.set_index(["n", "test"]).loc[(100_000, "bootstrap"), "rate"]
    assert power == 1.0, table


def test_unsubmitted_change_waits_for_the_button():
    """A form holds its edits: a rerun for another reason keeps the shown results.

    (In a browser, as in AppTest, values edited inside st.form reach the script only
    when the form is submitted, so an edit alone never shows "settings have changed".)
    """
    at = start()
    before = live_table(at)
    at.select_slider(key="cal_reps").set_value(50)
    at.multiselect(key="cal_ns").set_value([1000])
    at.select_slider(key="cal_alpha").set_value(1.0)  # outside the form: reruns the page
    run(at)
    pd.testing.assert_frame_equal(live_table(at), before)
    assert live_caption(at).startswith("Korea vs Korea (type-I error), M = 18,")
    assert "R = 100 per point" in live_caption(at)
    assert not [i for i in infos(at) if CHANGED in i]
    # (AppTest rebuilds its widgets after every run and forgets the uncommitted edits,
    # unlike a browser; the submitted path is tested above.)


def test_oversize_request_is_refused_and_keeps_the_results():
    at = start()
    set_small_run(at)
    submit(at)
    shown = live_table(at)
    cap = live_caption(at)

    # R = 1,000, B = 1,000, M = 86, all ten N, both tests: 1.7e9 drawn bins.
    at.select_slider(key="cal_reps").set_value(1000)
    at.select_slider(key="cal_boot").set_value(1000)
    at.radio(key="cal_m_live").set_value(86)
    at.multiselect(key="cal_ns").set_value(list(study.PAPER_N))
    at.multiselect(key="cal_tests").set_value(list(simulation.TESTS))
    submit(at)
    [msg] = errors(at)
    assert TOO_LONG in msg and "minutes" in msg, msg
    assert "python -m dpcore.study" in msg, msg
    units = 10 * sum(simulation.work_units(86, 1000, 1000, t) for t in simulation.TESTS)
    assert f"{units:,.0f} simulated bins" in msg, msg
    # The previous results stay, marked as not matching the settings.
    pd.testing.assert_frame_equal(live_table(at), shown)
    assert live_caption(at) == cap
    assert any(CHANGED in i for i in infos(at)), infos(at)

    # The suggested command is valid and covers the refused request.
    [command] = re.findall(r"`([^`]*dpcore\.study[^`]*)`", msg)
    argv = shlex.split(command)
    assert argv[:3] == ["python", "-m", "dpcore.study"], argv
    grid = _study_grid(argv[3:])
    assert {(c.pair, c.m, c.alpha1, c.alpha2) for c in grid} == {("korea_vs_usa", 86, 0.1, 0.1)}
    assert {c.n for c in grid} >= set(study.PAPER_N)
    assert {c.test for c in grid} == set(simulation.TESTS)
    assert "--reps 1000" in command and "--boot 1000" in command

    # A smaller request afterwards runs again.
    set_small_run(at, ns=[1000])
    at.radio(key="cal_m_live").set_value(9)
    submit(at)
    assert not errors(at)
    assert list(live_table(at)["n"]) == [1000, 1000]
    assert not [i for i in infos(at) if CHANGED in i]


class _Parsed(Exception):
    pass


def _study_grid(args: list[str]) -> list[study.Cell]:
    """The cells `python -m dpcore.study ARGS` would run (argument parsing only)."""
    seen = {}

    def fake_run_study(cells, out, **kwargs):
        seen["cells"] = cells
        raise _Parsed

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(study, "run_study", fake_run_study)
        with pytest.raises(_Parsed):
            study.main(args)
    return seen["cells"]


@pytest.mark.parametrize("empty", ["cal_ns", "cal_tests"])
def test_empty_selection_asks_for_one(empty):
    at = start()
    before = live_table(at)
    at.multiselect(key=empty).set_value([])
    submit(at)
    assert errors(at) == ["Choose at least one sample size N and one test."]
    pd.testing.assert_frame_equal(live_table(at), before)
    assert any(CHANGED in i for i in infos(at)), infos(at)


def test_first_view_with_an_empty_selection_does_not_crash():
    """Nothing to show yet and nothing to run: an error, no table, no exception."""
    at = start()
    del at.session_state["cal_result"]
    at.multiselect(key="cal_tests").set_value([])
    submit(at)
    assert errors(at) == ["Choose at least one sample size N and one test."]
    assert not live_tab(at).dataframe


# ---------------------------------------------------------------------------
# the full-scale study
# ---------------------------------------------------------------------------

@pytest.fixture
def fresh_results():
    """Make the page read the results file (or its absence) again."""
    st.cache_data.clear()
    yield
    st.cache_data.clear()


def _paper_rows(at: AppTest) -> pd.DataFrame:
    [table] = paper_tab(at).dataframe
    return table.value


def _check_filters(at: AppTest, results: pd.DataFrame) -> None:
    assert len(_paper_rows(at)) == len(results)
    at.multiselect(key="cal_f_m").set_value([9])
    at.multiselect(key="cal_f_tests").set_value(["chisq"])
    run(at)
    rows = _paper_rows(at)
    assert len(rows) > 0
    assert (rows["m"] == 9).all() and (rows["test"] == "chisq").all(), rows
    assert len(rows) == ((results["m"] == 9) & (results["test"] == "chisq")).sum()
    # Narrow further to one pair and one privacy level.
    at.multiselect(key="cal_f_pairs").set_value(["korea_vs_korea"])
    priv = at.multiselect(key="cal_f_priv")
    at.multiselect(key="cal_f_priv").set_value([priv.value[0]])
    run(at)
    rows = _paper_rows(at)
    assert (rows["pair"] == "korea_vs_korea").all()
    assert rows[["alpha1", "alpha2"]].drop_duplicates().shape[0] == 1
    # Nothing chosen: a plain message instead of an empty table.
    at.multiselect(key="cal_f_pairs").set_value([])
    run(at)
    assert not paper_tab(at).dataframe
    assert [i.value for i in paper_tab(at).info] == ["No settings match these filters."]


def test_full_scale_tab_shows_the_shipped_study_or_how_to_make_it(fresh_results):
    exists = RESULTS_PATH.is_file()
    at = start()
    if not exists:
        msgs = [i for i in infos(at) if "results file of the full study" in i]
        assert len(msgs) == 1, infos(at)
        assert study.PAPER_COMMAND in msgs[0]
        assert not paper_tab(at).dataframe
        return
    results = pd.read_csv(RESULTS_PATH)
    assert study.PAPER_COMMAND in [c.value for c in paper_tab(at).code]
    _check_filters(at, results)


def _synthetic_results(tmp_path) -> pd.DataFrame:
    """A results file for the paper's whole grid, with made-up rates, read back as CSV."""
    rows = []
    for c in study.paper_grid():
        rate = (c.index % 101) / 100
        a, b, effect = study.PAIRS[c.pair]
        rows.append({
            "cell": c.index, "pair": c.pair, "effect": effect, "population_a": a,
            "population_b": b, "m": c.m, "alpha1": c.alpha1, "alpha2": c.alpha2, "n": c.n,
            "test": c.test, "rate": rate, "ci_low": max(0.0, rate - 0.01),
            "ci_high": min(1.0, rate + 0.01), "rejections": round(rate * 1000),
            "undefined": 0, "reps": 1000, "n_boot": 500 if c.test == "bootstrap" else "",
            "level": 0.05, "seed": 2022, "seconds": 0.1,
        })
    path = tmp_path / study.RESULTS_FILE
    pd.DataFrame(rows, columns=study.COLUMNS).to_csv(path, index=False)
    return pd.read_csv(path)


def test_full_scale_filters_on_a_results_table(fresh_results, monkeypatch, tmp_path):
    """The filters, whatever the state of the shipped file: a stand-in table."""
    results = _synthetic_results(tmp_path)
    monkeypatch.setattr(study, "load_results", lambda: results)
    at = start()
    assert not [i for i in infos(at) if "results file of the full study" in i]
    text = " ".join(m.value for m in at.markdown)
    assert f"{len(results):,} settings" in text and "R = 1,000" in text and "B = 500" in text
    assert study.PAPER_COMMAND in [c.value for c in paper_tab(at).code]
    assert len(at.multiselect(key="cal_f_priv").options) == len(study.PAPER_ALPHAS)
    _check_filters(at, results)


@pytest.mark.parametrize("rows", ["header_only", "chisq_only"])
def test_results_file_without_bootstrap_rows_does_not_crash(fresh_results, monkeypatch,
                                                             tmp_path, rows):
    """A study interrupted before its first cell leaves a header-only CSV."""
    results = _synthetic_results(tmp_path)
    results = results.iloc[:0] if rows == "header_only" else results[results["test"] == "chisq"]
    monkeypatch.setattr(study, "load_results", lambda: results)
    at = AppTest.from_file(str(APP_PATH), default_timeout=120)
    at.run()
    at.switch_page(PAGE)
    at.run()
    for exc in at.exception:
        if "IndexError" in "".join(exc.stack_trace):
            raise IndexError("".join(exc.stack_trace))
    assert_clean(at)


# ---------------------------------------------------------------------------
# the page kit: a link reproduces the view, unusable link values, help, the report
# ---------------------------------------------------------------------------

REPORT_FILE = "test_calibration_report.html"
PAIR_LABEL = {key: label for key, label in zip(study.PAIRS, (
    "Korea vs Korea (type-I error)", "Korea vs USA (large effect)",
    "Korea central vs Korea noncentral (medium effect)"))}

# Every control bound to the URL at a value other than its default: (kind, value, as the
# link writes it: the label the control shows). The tab is read from the session state.
LINK = {
    "cal_shape": ("selectbox", "normal", datasets.SHAPES["normal"]),
    "cal_m": ("select_slider", 10, "10"),
    "cal_n": ("number_input", 1000, "1000"),
    "cal_alpha": ("select_slider", 1.0, "1"),
    "cal_reps_null": ("select_slider", 200, "200"),
    "cal_seed": ("number_input", 3, "3"),
    "cal_pair": ("selectbox", "korea_vs_usa", PAIR_LABEL["korea_vs_usa"]),
    "cal_m_live": ("radio", 9, "9 (10-year groups)"),
    "cal_a1": ("select_slider", 1.0, "1"),
    "cal_a2": ("select_slider", 0.5, "0.5"),
    "cal_tests": ("multiselect", ["bootstrap"], ["parametric bootstrap"]),
    "cal_reps": ("select_slider", 50, "50"),
    "cal_boot": ("select_slider", 200, "200"),
    "cal_live_seed": ("number_input", 5, "5"),
    "cal_ns": ("multiselect", [1000, 10_000], ["1,000", "10,000"]),
    "cal_f_pairs": ("multiselect", ["korea_vs_korea"], [PAIR_LABEL["korea_vs_korea"]]),
    "cal_f_m": ("multiselect", [18, 9], ["18", "9"]),
    "cal_f_priv": ("multiselect", [(0.1, 0.1)], ["0.1, 0.1"]),
    "cal_f_tests": ("multiselect", ["chisq"], ["naive χ²"]),
}
FORM = {"cal_pair", "cal_m_live", "cal_a1", "cal_a2", "cal_tests", "cal_reps", "cal_boot",
        "cal_live_seed", "cal_ns"}


def paper_rows_or_none(at: AppTest):
    tables = paper_tab(at).dataframe
    return tables[0].value if tables else None


@pytest.fixture
def synthetic_study(fresh_results, monkeypatch, tmp_path):
    results = _synthetic_results(tmp_path)
    monkeypatch.setattr(study, "load_results", lambda: results)
    return results


def test_a_link_reproduces_the_view(synthetic_study):
    """Every bound control from the URL, and the same numbers as set by hand."""
    tab = "The paper at full scale"
    at = start({"cal_tab": tab, **{key: text for key, (_, _, text) in LINK.items()}})
    assert not link_notes(at) and not errors(at), (link_notes(at), errors(at))
    assert at.session_state["cal_tab"] == tab
    for key, (kind, value, _) in LINK.items():
        assert getattr(at, kind)(key=key).value == value, key
    table = live_table(at)
    assert sorted(set(table["n"])) == [1000, 10_000] and set(table["test"]) == {"bootstrap"}
    assert set(table["reps"]) == {50}
    assert live_caption(at).startswith("Korea vs USA (large effect), M = 9, α₁ = 1, α₂ = 0.5,")
    rows = _paper_rows(at)
    assert (rows["pair"] == "korea_vs_korea").all() and set(rows["m"]) == {9, 18}
    assert (rows["test"] == "chisq").all() and len(rows) > 0

    st.cache_data.clear()
    by_hand = start()
    # A run forgets a form's uncommitted edits: the form's controls are set last, then sent.
    for key, (kind, value, _) in sorted(LINK.items(), key=lambda item: item[0] in FORM):
        getattr(by_hand, kind)(key=key).set_value(value)
        if key not in FORM:
            run(by_hand)
    submit(by_hand)
    by_hand.session_state["cal_tab"] = tab
    run(by_hand)
    assert metrics(by_hand) == metrics(at)
    pd.testing.assert_frame_equal(live_table(by_hand), table)
    assert live_caption(by_hand) == live_caption(at)
    pd.testing.assert_frame_equal(_paper_rows(by_hand), rows)


@pytest.mark.parametrize("query, default", [
    ({"cal_m": "7"}, 20),
    ({"cal_n": "12"}, 5050),
    ({"cal_reps": "7"}, 100),
    ({"cal_ns": "3"}, list(study.PAPER_N)),
    ({"cal_tab": "Nowhere"}, None),
], ids=lambda v: query_id(v) or "")
def test_an_unusable_link_value_is_reset_with_a_note(query, default):
    at = start(query)
    [key] = query
    if key == "cal_tab":  # an unknown tab opens the first one
        assert at.session_state["cal_tab"] == "Null distributions"
    else:
        assert_reset_note(at, key)
    if default is not None:
        assert at.session_state[key] == default
    # The page still works: the null metrics and a live run.
    assert set(metrics(at)) == METRICS and not errors(at)
    assert_rates(live_table(at))


def test_every_control_has_help(synthetic_study):
    seen = every_control_with_help(start())  # every tab runs: all their controls are there
    assert len(seen) >= 30, seen


def test_report_holds_the_type_i_error_verdicts(synthetic_study, deferred):
    at = start()
    kit = ended_kit(at)
    null, boot, naive, *study_findings = kit.findings
    shown = metrics(at)
    assert null.startswith("Null distributions (Uniform, M = 20, N = 5,050, α = 0.5)")
    assert f"{shown[TYPE1_NO_DP]} of 1,000 histogram pairs without privacy" in null
    assert f"and {shown[TYPE1_DP]} with privacy" in null
    # The default live run: Korea vs Korea, so the rates are type-I errors.
    assert boot.startswith("Korea vs Korea (type-I error): the parametric bootstrap test's "
                           "type-I error is ")
    assert boot.endswith("the test holds its level.")
    assert naive.startswith("Korea vs Korea (type-I error): the naive χ² test's type-I error")
    assert naive.endswith("the test does not hold its level.")
    assert [f.split(":")[0] for f in study_findings] == ["Full-scale study, Korea vs Korea"] * 2
    assert kit.parameters["Simulation: seed"] == str(controls.DEFAULT_SEED)
    assert kit.parameters["Null distributions: bins M"] == "20"
    assert len(kit.figures) == 3 and len(kit.tables) == 2
    page = deferred[REPORT_FILE]()
    assert_report_page(page, kit.findings)
    assert "Simulation: replicates R per point" in page


def test_report_of_a_power_run(deferred):
    at = start()
    set_small_run(at)
    submit(at)
    kit = ended_kit(at)
    power = [f for f in kit.findings if f.startswith("Korea vs USA (large effect)")]
    assert len(power) == 2
    assert "the parametric bootstrap test's power is " in power[0]
    assert "This 'power' is not to be trusted" in power[1]
    assert html.escape(power[0]) in deferred[REPORT_FILE]()
