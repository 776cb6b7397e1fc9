"""AppTest tests of the page "Test calibration" (views/calibration.py): the null
distributions, the live simulation in its form, the full-scale study's table and the
extended null grid beyond the paper. Every
page's promises: tests/test_page_contract.py; its numbers: tests/test_ui_pages_calibration.py.
The machine speed is pinned (``fixed_machine_speed``) so refusals do not depend on the
machine; the study's tests read its results afresh (st.cache_data cleared).
"""

from __future__ import annotations

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ui import controls
from conftest import open_page, run
from dpcore import simulation, study
import pagekit
from pagekit import (kit as ended_kit, assert_reset_note, chart_traces, errors, link_notes,
                     metrics)
from ui.pages import calibration as logic

PAGE = "views/calibration.py"
TITLE = "Test calibration"
SUBMIT = "FormSubmitter:cal_form-Run simulation"

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


# --- fixtures and helpers ----------------------------------------------------------------------

def start(query: dict | None = None) -> AppTest:
    """The page after a fresh start; ``query`` is the URL's query string on arrival."""
    return open_page(PAGE, TITLE, query, timeout=120)


def submit(at: AppTest) -> AppTest:
    at.button(key=SUBMIT).click()
    return run(at)


def infos(at: AppTest) -> list[str]:
    return [i.value for i in at.info]


def on_tab(at: AppTest, index: int):
    """Tab ``index``, opened as a click on it does (a closed tab draws only its controls;
    its results go to the report)."""
    label = at.tabs[index].label
    if at.session_state["cal_tab"] != label:
        pagekit.select_tab(at, "cal_tab", label)
        run(at)
    return at.tabs[index]


def live_tab(at: AppTest):
    return on_tab(at, 1)


def paper_tab(at: AppTest):
    return on_tab(at, 2)


def extended_tab(at: AppTest):
    return on_tab(at, 3)


def named(shown: pd.DataFrame) -> pd.DataFrame:
    """A table of rates as shown (pairs, populations, effects and tests in words, issue 36)
    with its cells named as its CSV names them."""
    pairs = list(study.PAIRS)
    every = pd.DataFrame({
        "pair": pairs, "effect": [study.PAIRS[p][2] for p in pairs],
        "population_a": [study.PAIRS[p][0] for p in pairs],
        "population_b": [study.PAIRS[p][1] for p in pairs]})
    every = pd.concat([every, pd.DataFrame({"test": list(simulation.TESTS)})])
    said = logic.rates_shown(every)
    out = shown.copy()
    for column in said.columns:
        if column in out:
            back = {w: n for w, n in zip(said[column], every[column]) if isinstance(n, str)}
            out[column] = out[column].map(lambda w, back=back: back.get(w, w))
    return out


def live_table(at: AppTest) -> pd.DataFrame:
    [table] = live_tab(at).dataframe
    return named(table.value)


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


# --- default view ------------------------------------------------------------------------------

def test_default_view():
    at = start()
    assert not errors(at), errors(at)
    assert [t.label for t in at.tabs] == [
        "Null distributions", "Type-I error and power", "The paper at full scale",
        "Beyond the paper: unequal N and ε"]

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
    # With DP the naive test rejects more often (the numbers: test_ui_pages_calibration.py).
    assert float(shown[TYPE1_DP][:-1]) > float(shown[TYPE1_NO_DP][:-1]), shown

    # The live tab ran its default simulation without a press of the button.
    table = live_table(at)
    assert len(table) == 2 * 10
    assert sorted(set(table["n"])) == list(study.PAPER_N)
    assert set(table["test"]) == {"bootstrap", "chisq"}
    assert set(table["reps"]) == {100}
    assert_rates(table)
    assert live_caption(at).startswith(
        "Korea vs Korea (type-I error), M = 18, ε_A = 0.1, ε_B = 0.1,")
    assert not [i for i in infos(at) if CHANGED in i]


# --- the live simulation (a form) --------------------------------------------------------------

def test_submitted_small_run_updates_the_table_and_the_report():
    """A submitted power run (Korea vs USA) replaces the table and the report's findings."""
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
    kit = ended_kit(at)
    found = [f for f in kit.findings if f.startswith("Korea vs USA (large effect)")]
    assert len(found) == 2
    assert "the parametric bootstrap test's power is " in found[0]
    assert "This 'power' is not to be trusted" in found[1]
    assert kit.parameters["Simulation: populations A vs B"] == "Korea vs USA (large effect)"


def test_unsubmitted_change_waits_for_the_button():
    """A form holds its edits: a rerun for another reason keeps the shown results (edits
    inside st.form reach the script only on submit, so an edit alone never shows CHANGED)."""
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
    at.multiselect(key="cal_tests").set_value(list(logic.PAPER_TESTS))
    submit(at)
    # Its numbers and command: test_ui_pages_calibration.py.
    [msg] = errors(at)
    assert TOO_LONG in msg and "`python -m dpcore.study --pairs korea_vs_usa --m 86 " in msg, msg
    # The previous results stay, marked as not matching the settings.
    pd.testing.assert_frame_equal(live_table(at), shown)
    assert live_caption(at) == cap
    assert any(CHANGED in i for i in infos(at)), infos(at)

    # A smaller request afterwards runs again.
    set_small_run(at, ns=[1000])
    at.radio(key="cal_m_live").set_value(9)
    submit(at)
    assert not errors(at)
    assert list(live_table(at)["n"]) == [1000, 1000]
    assert not [i for i in infos(at) if CHANGED in i]


@pytest.mark.parametrize("empty", ["cal_ns", "cal_tests"])
def test_empty_selection_asks_for_one(empty):
    at = start()
    before = live_table(at)
    at.multiselect(key=empty).set_value([])
    submit(at)
    assert errors(at) == ["Choose at least one sample size N and one test."]
    pd.testing.assert_frame_equal(live_table(at), before)
    assert any(CHANGED in i for i in infos(at)), infos(at)
    # With no run to show yet either: the error, no table, no exception.
    del at.session_state["cal_result"]
    at.multiselect(key=empty).set_value([])
    submit(at)
    assert errors(at) == ["Choose at least one sample size N and one test."]
    assert not live_tab(at).dataframe


# --- the full-scale study ----------------------------------------------------------------------

def _paper_rows(at: AppTest) -> pd.DataFrame:
    [table] = paper_tab(at).dataframe
    return named(table.value)


def _synthetic_results(tmp_path, tests=logic.PAPER_TESTS) -> pd.DataFrame:
    """A results file for the paper's whole grid, with made-up rates, read back as CSV (of
    the paper's two tests, as the file shipped before the normal-score test, or ``tests``
    with the column n2, as the file made since)."""
    rows = []
    for c in study.paper_grid(tests=tests):
        rate = (c.index % 101) / 100
        a, b, effect = study.PAIRS[c.pair]
        rows.append({
            "cell": c.index, "pair": c.pair, "effect": effect, "population_a": a,
            "population_b": b, "m": c.m, "alpha1": c.alpha1, "alpha2": c.alpha2, "n": c.n,
            "n2": c.n2 if "normal_score" in tests else None, "test": c.test, "rate": rate,
            "ci_low": max(0.0, rate - 0.01),
            "ci_high": min(1.0, rate + 0.01), "rejections": round(rate * 1000),
            "undefined": 0, "reps": 1000,
            "n_boot": 500 if c.test in simulation.BOOTSTRAP_TESTS else "",
            "level": 0.05, "seed": 2022, "seconds": 0.1,
        })
    path = tmp_path / study.RESULTS_FILE
    pd.DataFrame(rows, columns=study.COLUMNS).to_csv(path, index=False)
    return pd.read_csv(path)


def test_full_scale_filters_on_a_results_table(synthetic_study):
    """The study's tab on a stand-in table, whatever the state of the shipped file: its
    command, its filters narrowing the table (the rows kept: test_ui_pages_calibration.py),
    and a plain message instead of an empty table when nothing is chosen."""
    results = synthetic_study
    at = start()
    assert study.PAPER_COMMAND in [c.value for c in paper_tab(at).code]
    assert not paper_tab(at).warning  # the whole grid of its two tests
    assert f"{len(results):,} settings" in " ".join(m.value for m in at.markdown)
    assert len(at.multiselect(key="cal_f_priv").options) == len(study.PAPER_ALPHAS)
    assert len(_paper_rows(at)) == len(results)
    at.multiselect(key="cal_f_m").set_value([9])
    at.multiselect(key="cal_f_tests").set_value(["chisq"])
    run(at)
    assert len(_paper_rows(at)) == ((results["m"] == 9) & (results["test"] == "chisq")).sum() > 0
    at.multiselect(key="cal_f_pairs").set_value([])
    run(at)
    assert not paper_tab(at).dataframe
    assert [i.value for i in paper_tab(at).info] == ["No settings match these filters."]


@pytest.mark.parametrize("rows", ["header_only", "chisq_only"])
def test_results_file_without_bootstrap_rows_does_not_crash(synthetic_study, monkeypatch, rows):
    """A study interrupted before its first cell leaves a header-only CSV."""
    results = synthetic_study
    results = results.iloc[:0] if rows == "header_only" else results[results["test"] == "chisq"]
    monkeypatch.setattr(study, "load_results", lambda: results)
    monkeypatch.setattr(study, "load_extended", lambda: None)
    at = start()  # checked clean: no exception
    if rows == "header_only":  # no results: how to make them
        assert any(study.PAPER_COMMAND in i for i in infos(at)), infos(at)
    else:
        assert "B = – bootstrap replicates" in " ".join(m.value for m in paper_tab(at).markdown)


# --- links and the report ----------------------------------------------------------------------

@pytest.fixture
def synthetic_study(monkeypatch, tmp_path):
    """The study's results: a made-up table, read afresh (st.cache_data cleared)."""
    st.cache_data.clear()
    results = _synthetic_results(tmp_path)
    monkeypatch.setattr(study, "load_results", lambda: results)
    monkeypatch.setattr(study, "load_extended", lambda: None)
    yield results
    st.cache_data.clear()


def test_a_link_runs_its_simulation_and_filters_the_study(synthetic_study):
    """The form's settings from a link are run on arrival, without a press of its button;
    the study's filters apply. (That the link and a view set by hand agree:
    test_page_contract.py; every setting of such a link: test_links_kept.py.)"""
    at = start({"cal_tab": "The paper at full scale", "cal_pair": "Korea vs USA (large effect)",
                "cal_m_live": "9 (10-year groups)", "cal_a1": "1", "cal_a2": "0.5",
                "cal_reps": "50", "cal_tests": "parametric bootstrap", "cal_f_m": ["18", "9"],
                "cal_ns": ["1,000", "10,000"], "cal_f_pairs": "Korea vs Korea (type-I error)",
                "cal_f_tests": "naive χ²"})
    assert not link_notes(at) and not errors(at), (link_notes(at), errors(at))
    table = live_table(at)
    assert sorted(set(table["n"])) == [1000, 10_000] and set(table["test"]) == {"bootstrap"}
    assert set(table["reps"]) == {50}
    assert live_caption(at).startswith("Korea vs USA (large effect), M = 9, ε_A = 1, ε_B = 0.5,")
    rows = _paper_rows(at)
    assert (rows["pair"] == "korea_vs_korea").all() and set(rows["m"]) == {9, 18}
    assert (rows["test"] == "chisq").all() and len(rows) > 0


@pytest.mark.parametrize("query, default", [({"cal_reps": "7"}, 100),
                                            ({"cal_ns": "3"}, list(study.PAPER_N))],
                         ids=["cal_reps", "cal_ns"])
def test_an_unusable_form_value_in_a_link_is_named(query, default):
    at = start(query)
    [key] = query
    assert_reset_note(at, key)
    assert at.session_state[key] == default
    assert_rates(live_table(at))  # the form's defaults are run


def test_report_holds_the_type_i_error_verdicts(synthetic_study):
    at = start()
    kit = ended_kit(at)
    null, boot, naive, *study_findings = kit.findings
    shown = metrics(at)
    assert null.startswith("Null distributions (Uniform, M = 20, N = 5,050, ε = 0.5)")
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
    assert "Full-scale study: made by" in kit.parameters
    # with what ε means for one person (ui/oneperson.py): its chart and table
    assert len(kit.figures) == 4 and len(kit.tables) == 3


def test_the_full_scale_study_with_the_normal_score_test_and_n2(monkeypatch, tmp_path):
    """A results file made since the normal-score test: three tests and the column n2. The
    paper's two tests are shown first; the third is one more choice, with its label, its
    curve and its verdict; n2 (equal to n in the paper's grid) is left out of the table."""
    st.cache_data.clear()
    results = _synthetic_results(tmp_path, tests=simulation.TESTS)
    assert (results["n2"] == results["n"]).all()
    monkeypatch.setattr(study, "load_results", lambda: results)
    monkeypatch.setattr(study, "load_extended", lambda: None)
    at = start()
    assert not paper_tab(at).warning  # the whole grid of its three tests
    assert set(_paper_rows(at)["test"]) == {"bootstrap", "chisq"}
    at.multiselect(key="cal_f_tests").set_value(list(simulation.TESTS))
    run(at)
    rows = _paper_rows(at)
    assert len(rows) == len(results) and "n2" not in rows.columns
    names = {trace.get("name", "") for trace in chart_traces(at, "cal_fig_paper")}
    assert any("normal-score contrast" in name for name in names), names
    verdicts = [f for f in ended_kit(at).findings if f.startswith("Full-scale study")]
    assert len(verdicts) == 4 and "the normal-score contrast test's type-I error" in verdicts[2]
    assert (ended_kit(at).parameters["Full-scale study: tests"]
            == "parametric bootstrap, naive χ², normal-score contrast, calibrated normal-score")
    st.cache_data.clear()


# --- beyond the paper: the extended null grid ----------------------------------------------

def synthetic_extended_grid() -> pd.DataFrame:
    """The extended grid's whole table with made-up type-I errors: Algorithm 1 at 30% where
    α₁ ≠ α₂ and 5% elsewhere, the naive test at 90%, the normal-score test at 5% but 10% at
    N_B / N_A = 100 and M = 9, the calibrated test at 5%; each with its 95% Wilson interval
    of R = 1,000."""
    rows = []
    for c in study.extended_grid():
        rate = {"bootstrap": 0.3 if c.alpha1 != c.alpha2 else 0.05, "chisq": 0.9,
                "normal_score": 0.1 if (c.n2 == 100 * c.n and c.m == 9) else 0.05,
                "calibrated": 0.05}[c.test]
        low, high = simulation.binomial_interval(round(rate * 1000), 1000)
        a, b, effect = study.PAIRS[c.pair]
        rows.append({
            "cell": c.index, "pair": c.pair, "effect": effect, "population_a": a,
            "population_b": b, "m": c.m, "alpha1": c.alpha1, "alpha2": c.alpha2, "n": c.n,
            "n2": c.n2, "test": c.test, "rate": rate, "ci_low": low, "ci_high": high,
            "rejections": round(rate * 1000), "undefined": 0, "reps": 1000,
            "n_boot": 500 if c.test in simulation.BOOTSTRAP_TESTS else None, "level": 0.05,
            "seed": 2026, "seconds": 0.1,
        })
    return pd.DataFrame(rows, columns=study.COLUMNS)


@pytest.fixture
def synthetic_extended(synthetic_study, monkeypatch):
    """The extended grid's results: a made-up table (the paper's too), read afresh."""
    st.cache_data.clear()
    results = synthetic_extended_grid()
    monkeypatch.setattr(study, "load_extended", lambda: results)
    yield results
    st.cache_data.clear()


def _extended_rows(at: AppTest) -> pd.DataFrame:
    [table] = extended_tab(at).dataframe
    return named(table.value)


def _extended_findings(at: AppTest) -> list[str]:
    return [f for f in ended_kit(at).findings if f.startswith("Beyond the paper")]


def test_the_extended_grid_shows_its_chart_table_findings_and_command(synthetic_extended):
    results = synthetic_extended
    at = start({"cal_tab": "Beyond the paper: unequal N and ε"})
    tab = extended_tab(at)
    assert [c.value for c in tab.code] == [study.EXTENDED_COMMAND]
    [caption] = [c.value for c in tab.caption if "regenerate the files" in c.value]
    assert "R = 1,000 replicates" in caption and "B = 500 bootstrap" in caption
    assert "(1 + #{T_b ≥ T})/(B + 1)" in caption and "interval holds 5%" in caption
    assert not tab.warning and not tab.info  # the whole grid
    table = _extended_rows(at)
    assert list(table.columns) == study.COLUMNS and len(table) == len(results) == 972
    # The chart: a trace per (M, test), the three M as rows of panels.
    from dpviz.style import LEGEND_ENTRY

    traces = [tr for tr in chart_traces(at, "cal_fig_extended") if tr.get("meta") != LEGEND_ENTRY]
    assert len(traces) == 12 and sum(len(tr["customdata"]) for tr in traces) == 972
    assert {tr["name"] for tr in traces} == {"parametric bootstrap", "naive χ²",
                                            "normal-score contrast", "calibrated normal-score"}
    # The verdicts, one per test, in the order of the tests, each setting by its 95%
    # interval. (Too liberal as made above: Algorithm 1 at the 6 of 9 privacy pairs with
    # α₁ ≠ α₂, the normal-score test at M = 9 with N_B = 100 N_A, 27 settings.)
    liberal = results[results["ci_low"] > 0.05]
    assert liberal["test"].value_counts().to_dict() == {"bootstrap": 162, "chisq": 243,
                                                        "normal_score": 27}
    boot, naive, score, calibrated = _extended_findings(at)
    assert "parametric bootstrap test, over 243 settings" in boot
    assert "above 5% (too liberal) in 162," in boot
    assert "naive χ² test" in naive and "above 5% (too liberal) in 243," in naive
    assert "normal-score contrast test" in score and "above 5% (too liberal) in 27," in score
    assert "calibrated normal-score test" in calibrated
    assert "holds 5% (it keeps its level) in 243." in calibrated
    kit = ended_kit(at)
    assert kit.parameters["Beyond the paper: made by"] == study.EXTENDED_COMMAND
    assert kit.parameters["Beyond the paper: N_A"] == "1,000, 10,000, 100,000"
    names = [name for name, _ in kit.tables]
    assert "Beyond the paper: the selected settings" in names


def test_the_extended_grid_filters_narrow_the_table_and_the_findings(synthetic_extended):
    results = synthetic_extended
    at = start()
    at.multiselect(key="cal_x_m").set_value([9])
    at.multiselect(key="cal_x_tests").set_value(["normal_score"])
    at.multiselect(key="cal_x_ratio").set_value([10, 100])
    at.multiselect(key="cal_x_a1").set_value([0.01])
    run(at)
    table = _extended_rows(at)
    expected = results[(results["m"] == 9) & (results["test"] == "normal_score")
                       & (results["n2"] != results["n"]) & (results["alpha1"] == 0.01)]
    assert len(table) == len(expected) == 3 * 3 * 2
    pd.testing.assert_frame_equal(table.reset_index(drop=True),
                                  expected.reset_index(drop=True), check_dtype=False)
    # N_B = 100 N_A: 9 of the 18 settings are out of the band (made so above).
    [score] = _extended_findings(at)
    assert "over 18 settings" in score and "above 5% (too liberal) in 9," in score
    assert "The farthest from 5%: 10.0% at M = 9" in score
    assert ended_kit(at).parameters["Beyond the paper: N_B / N_A"] == "10, 100"
    # Nothing chosen: a plain message, no table, no finding.
    at.multiselect(key="cal_x_n").set_value([])
    run(at)
    assert not extended_tab(at).dataframe and not _extended_findings(at)
    assert [i.value for i in extended_tab(at).info] == ["No settings match these filters."]


def test_a_link_filters_the_extended_grid(synthetic_extended):
    at = start({"cal_tab": "Beyond the paper: unequal N and ε", "cal_x_m": "86",
                "cal_x_tests": "parametric bootstrap", "cal_x_a1": ["1", "0.1"],
                "cal_x_a2": "0.01", "cal_x_n": "100,000", "cal_x_ratio": "1"})
    assert not link_notes(at) and not errors(at), (link_notes(at), errors(at))
    table = _extended_rows(at)
    assert len(table) == 2 and set(table["alpha1"]) == {1.0, 0.1}
    assert set(table["m"]) == {86} and set(table["n2"]) == {100_000}
    [boot] = _extended_findings(at)
    assert "over 2 settings" in boot and "above 5% (too liberal) in 2," in boot


def test_without_the_extended_file_the_tab_says_how_to_make_it(synthetic_study):
    at = start()  # synthetic_study: no extended file
    [note] = [i.value for i in extended_tab(at).info]
    assert study.EXTENDED_FILE in note and study.EXTENDED_COMMAND in note
    assert not extended_tab(at).dataframe and not _extended_findings(at)


# --- issue 18: the number box shows the value in use -------------------------------------------

def _captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


@pytest.mark.parametrize("typed, used", [(10, 100), (50_000_000, 10_000_000)],
                         ids=["below", "above"])
def test_a_typed_n_outside_the_range_is_used_clamped_and_said(typed, used):
    """Typing N = 10 in the box of the null distributions was silently ignored (the box
    turned red, "Press Enter to apply", and the page kept computing with N = 5,050): the
    value is now taken to the nearest end of the range, the box shows it, a caption says
    so, and the metrics, finding and report are of that N."""
    at = start()
    at.number_input(key="cal_n").set_value(typed)
    run(at)
    assert at.number_input(key="cal_n").value == used
    said = [c for c in _captions(at) if f"N = {used:,} is used" in c]
    assert said and f"{typed:,}" in said[0], _captions(at)
    kit = ended_kit(at)
    assert kit.parameters["Null distributions: histogram size N"] == f"{used:,}"
    assert any(f"N = {used:,}" in f for f in kit.findings), kit.findings
    # A value inside the range is taken as typed, and the note goes.
    at.number_input(key="cal_n").set_value(2000)
    run(at)
    assert at.number_input(key="cal_n").value == 2000
    assert not [c for c in _captions(at) if "is used" in c]


def test_a_linked_n_outside_the_range_is_used_clamped_and_said():
    at = start({"cal_n": "10"})
    assert at.number_input(key="cal_n").value == 100
    assert [c for c in _captions(at) if "N = 100 is used" in c], _captions(at)
    assert not link_notes(at), link_notes(at)
    assert ended_kit(at).parameters["Null distributions: histogram size N"] == "100"


# --- issue 18: "Try this" ------------------------------------------------------------------------

def open_experiment(index: int) -> AppTest:
    """The page as the experiment's link opens it (after another visit)."""
    at = pagekit.open_experiment(PAGE, logic.EXPERIMENTS, index, timeout=180)
    assert not errors(at), errors(at)
    return at


def _percent(text: str) -> float:
    return float(text.rstrip("%")) / 100


def test_experiment_naive_test_rejects_identical_histograms():
    at = open_experiment(0)
    assert at.select_slider(key="cal_alpha").value == 0.01
    assert at.number_input(key="cal_n").value == logic.NULL_N_DEFAULT  # the rest at defaults
    shown = metrics(at)
    # What the notice says to notice: far above 5% (near 100%) with DP, near 5% without.
    assert _percent(shown[TYPE1_DP]) > 0.9, shown
    assert _percent(shown[TYPE1_NO_DP]) < 0.1, shown


def test_experiment_power_falls_at_strong_privacy():
    at = open_experiment(1)
    assert at.selectbox(key="cal_pair").value == "korea_vs_usa"
    assert at.select_slider(key="cal_a1").value == at.select_slider(key="cal_a2").value == 0.01
    assert at.multiselect(key="cal_tests").value == ["bootstrap"]
    table = live_table(at).set_index("n")
    assert set(table["test"]) == {"bootstrap"} and set(table["reps"]) == {50}
    # Close to 0 at N = 10,000; found from about N = 50,000 on.
    assert table.loc[10_000, "rate"] < 0.2, table
    assert (table.loc[table.index >= 50_000, "rate"] >= 0.8).all(), table
    assert live_caption(at).startswith("Korea vs USA (large effect), M = 18, ε_A = 0.01, "
                                       "ε_B = 0.01,")


# --- issue 18: one notation, no e-notation --------------------------------------------------------

# Where "α" may still be shown: Son, Park & Jung (2022)'s symbol, said beside ε; and the tab
# whose label is its URL value (links made before the notation name it so).
ALPHA_ALLOWED = ("(α in Son, Park & Jung 2022)",)


def assert_notation_and_numbers(at: AppTest) -> None:
    from shown import shown_texts, with_e_notation

    texts = shown_texts(at)
    assert not with_e_notation(texts), with_e_notation(texts)
    bare = [s for s in texts if "α" in s and not any(ok in s for ok in ALPHA_ALLOWED)]
    assert not bare, bare
    assert "Privacy level ε (α in Son, Park & Jung 2022)" in texts  # said once, at the first
    kit = ended_kit(at)
    report = [*kit.findings, *kit.parameters, *kit.parameters.values(), *kit.notes]
    assert not [s for s in report if "α" in s], report
    assert not with_e_notation(report), with_e_notation(report)


def test_the_privacy_level_is_epsilon_and_no_number_is_in_e_notation():
    assert_notation_and_numbers(start())
    assert_notation_and_numbers(open_experiment(1))


def test_a_link_to_the_tab_by_its_earlier_label_still_opens_it():
    """The tab "Beyond the paper" was labelled with α before ε became the privacy level on
    every page: a link made then opens the same tab, and no link value is named unusable."""
    at = start({"cal_tab": "Beyond the paper: unequal N and α"})
    assert at.session_state["cal_tab"] == "Beyond the paper: unequal N and ε"
    assert not link_notes(at)


def test_large_null_draws_wait_for_simulate_after_a_moved_control():
    """A moved control that asks for more null draws than NULL_QUICK_DRAWS shows the
    Simulate button and no numbers (none of other settings); pressed, the draws. Moved away
    and back, the settings drawn before in this session show at once. Opened by a link, the
    page draws even large settings by itself."""
    at = start()
    assert logic.NullSettings("uniform", 200, 5050, 0.5, 1000, 1).reps * 200 > \
        logic.NULL_QUICK_DRAWS
    at.select_slider(key="cal_m").set_value(200)
    run(at)
    assert "Mean with DP" not in metrics(at) and not errors(at)
    [button] = [b for b in at.button if b.key == "cal_null_run"]
    assert any("1,000 pairs of histograms of M = 200 bins" in i.value for i in at.info)
    button.click()
    run(at)
    assert metrics(at)["χ² reference mean (df)"] == "199"
    at.select_slider(key="cal_m").set_value(20)
    run(at)
    assert metrics(at)["χ² reference mean (df)"] == "19"
    at.select_slider(key="cal_m").set_value(200)
    run(at)
    assert metrics(at)["χ² reference mean (df)"] == "199"
    assert not [b for b in at.button if b.key == "cal_null_run"]
    linked = start({"cal_m": "200"})
    assert metrics(linked)["χ² reference mean (df)"] == "199"
