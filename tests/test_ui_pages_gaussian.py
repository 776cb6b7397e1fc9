"""ui/pages/gaussian.py: the Gaussian mechanism page's settings, solving and sentences,
tested directly (no Streamlit run)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from dpcore import datasets, fdp, gaussian
from shown import as_read
from ui.pages import gaussian as page
from ui.pages.gaussian import Release, Settings, Solution


def test_the_classical_calibration_above_its_proved_range_gets_a_note():
    table = gaussian.calibration_table(2.0, 1e-5)
    noted = page.calibration_notes(table, 2.0).set_index("method")
    assert noted.loc["classical", "note"] == ("not a guarantee: the classical formula is proved "
                                              "for ε < 1 only (here ε = 2)")
    assert noted.loc["analytic", "note"] == noted.loc["tail", "note"] == ""
    assert table.note.eq("").all()  # the input is left as it was


def test_valid_rows_and_reasons_for_no_solution_are_kept():
    table = gaussian.calibration_table(0.5, 1e-5)
    assert page.calibration_notes(table, 0.5).equals(table)
    none = gaussian.calibration_table(0.0, 1e-3)
    noted = page.calibration_notes(none, 0.0).set_index("method")
    refusal = none.set_index("method").loc["tail", "note"]
    # dpcore's refusal, said in plain words with the page's symbols
    assert noted.loc["tail", "note"] == str(refusal).replace("`", "").replace(
        "eps", "ε").replace("delta", "δ")
    assert noted.loc["tail", "note"].startswith("No noise level meets the tail bound at ε = 0")


def test_a_refusal_is_said_in_korean_from_its_template_with_the_page_symbols():
    from conftest import thread_speaking
    from ui.text import catalog

    none = gaussian.calibration_table(0.0, 1e-3)
    refusal = none.set_index("method").loc["tail", "note"]
    with thread_speaking("ko"):
        noted = page.calibration_notes(none, 0.0).set_index("method")
    korean = catalog("ko").gettext(refusal.template)
    assert korean != refusal.template and "{name_a}" in korean
    assert noted.loc["tail", "note"] == korean.replace("`", "").format(
        **{**refusal.fields, "name_a": "ε", "name_b": "δ"})


# ---------------------------------------------------------------------------
# the settings: solving, the results, the report
# ---------------------------------------------------------------------------

GIVEN = {"eps": 0.5, "delta": 1e-6, "sigma": 5.0, "sensitivity": 2.0}


def settings(solve: str = "sigma", **kw) -> Settings:
    """Settings solving for ``solve`` (its value None), the others as given."""
    values = {name: kw.pop(name, getattr(Settings(), name) or page.DEFAULTS[name])
              for name in page.QUANTITIES}
    return Settings(solve=solve, **{**values, solve: None}, **kw)


def solution(s: Settings) -> Solution:
    setting, problem = page.solve(s)
    values = {k: getattr(setting or s, k) for k in page.QUANTITIES}
    return Solution(values, setting, problem)


@pytest.mark.parametrize("name", list(page.QUANTITIES))
def test_solve_for_each(name):
    given = {k: v for k, v in GIVEN.items() if k != name}
    s = settings(name, **given)
    setting, problem = page.solve(s)
    assert problem is None
    expected = getattr(gaussian.solve_gaussian(**given, **{name: None}), name)
    assert getattr(setting, name) == expected
    shown = {label: shown for label, shown, _ in page.result_metrics(s, solution(s))}
    label = f"{page.QUANTITIES[name].symbol} (solved)"
    assert shown[label] == page.fmt_shown(expected)
    assert shown["μ = Δ/σ"] == f"{setting.mu:.4g}"


def test_the_default_results_and_report():
    s = Settings()
    sigma = float(gaussian.gaussian_sigma(1.0, 1e-5))
    assert page.DEFAULTS["sigma"] == sigma and sigma == pytest.approx(3.7306, abs=1e-4)
    assert {label: shown for label, shown, _ in page.result_metrics(s, solution(s))} == {
        "ε": "1", "δ": "1.0·10⁻⁵", "σ (solved)": "3.73063", "Δ": "1",
        "μ = Δ/σ": f"{1 / sigma:.4g}"}
    assert s.report_items() == {
        "solved for": "σ", "calibration": "analytic (exact)", "ε: privacy-loss bound": "1",
        "δ: failure probability": "1.0·10⁻⁵", "σ: noise standard deviation": f"{sigma:.6g}",
        "Δ: L2 sensitivity of the query": "1"}
    assert replace(s, tab=page.LOSS, loss_log=False).report_items()[
        "privacy-loss density axis"] == "linear"
    sentence, verdict = page.plain_sentence(page.solve(s)[0])
    assert sentence.startswith("**In plain words.** Adding Gaussian noise with σ = 3.73063")
    assert "$e^{1}$ times more likely" in sentence
    assert verdict == (f"With σ = {page.fmt_shown(sigma)}, the release of a count of sensitivity Δ = 1 is "
                       f"(1, 1.0·10⁻⁵)-DP, and μ-GDP with μ = Δ/σ = {1 / sigma:.4g}.")


@pytest.mark.parametrize("method", ["tail", "classical"])
def test_other_calibrations_state_the_exact_delta(method):
    setting, _ = page.solve(settings(method=method, eps=0.5))
    assert setting.sigma == float(gaussian.gaussian_sigma(0.5, 1e-5, 1.0, method=method))
    sentence, verdict = page.plain_sentence(setting)
    assert "over-protects" in sentence and "over-protects" in verdict


@pytest.mark.parametrize("method", ["tail", "classical"])
def test_no_solution_is_said_in_plain_words(method):
    s = settings(method=method, eps=0.0)
    setting, problem = page.solve(s)
    assert setting is None and "`" not in problem and "eps" not in problem
    sol = Solution({**{k: getattr(s, k) for k in ("eps", "delta", "sensitivity")}, "sigma": 3.0},
                   None, problem)
    assert {label: shown for label, shown, _ in page.result_metrics(s, sol)}["σ: no solution"] == "—"
    assert s.report_items()["σ: noise standard deviation"] == "no solution"


def test_classical_is_flagged_at_eps_one_and_above():
    note, warning = page.classical_results_texts(2.0)
    assert note.startswith("Not a guarantee: the classical formula")
    assert warning.startswith("**Not a guarantee.**") and "at ε = 2 it may give" in warning
    table = page.calibrations(2.0, 1e-5, 1.0).set_index("method")
    note, warning = page.classical_texts(2.0, table.loc["classical"])
    assert note.startswith("Classical formula: not a guarantee at ε = 2")
    shown = page.calibration_frame(table.reset_index()).set_index("calibration")
    assert shown.loc[gaussian.METHOD_NAMES["classical"], "guarantee"] == "no"
    assert list(shown.columns) == ["σ", "× the exact σ", "extra noise (%)",
                                   "variance factor (data needed)", "guarantee", "note"]


def test_three_calibrations_texts():
    table = gaussian.calibration_table(1.0, 1e-5, 1.0).set_index("method")
    tail = table.loc["tail"]
    finding, paragraph = page.tail_bound_texts(table.loc["analytic", "sigma"], tail)
    assert f"{tail.extra_noise:.1%} more noise" in paragraph
    assert f"would need {tail.variance_ratio:.3g}× as many people" in paragraph
    assert finding.startswith(f"The exact (analytic) calibration needs σ = "
                              f"{page.fmt_shown(table.loc['analytic', 'sigma'])}")


# ---------------------------------------------------------------------------
# the privacy loss, as μ-GDP
# ---------------------------------------------------------------------------

def test_privacy_loss_numbers():
    setting, _ = page.solve(Settings())
    loss = page.privacy_loss(setting)
    assert loss.exact == pytest.approx(1e-5, rel=1e-9)
    assert loss.tail == float(gaussian.gaussian_delta(1.0, setting.sigma, method="tail"))
    finding, paragraph = page.privacy_loss_texts(setting, loss)
    assert f"{loss.tail / 1e-5:.3g} times smaller" in paragraph
    assert "$1 - e^{\\varepsilon - L}$" in paragraph and "over-states it" in finding


def test_gdp_curve_and_markers():
    setting, _ = page.solve(Settings())
    curve = page.privacy_curve(setting)
    markers, tail = curve.others
    assert markers["name"] == "analytic calibration δ(ε) at σ, Δ" and len(markers["eps"]) == 15
    # The analytic calibration's δ(ε) lies on the μ-GDP curve, μ = Δ/σ.
    np.testing.assert_allclose(markers["delta"], fdp.gdp_delta(markers["eps"], setting.mu),
                               rtol=1e-9)
    assert tail["dash"] == "dash"
    assert np.all(tail["delta"][1:] >= fdp.gdp_delta(tail["eps"][1:], setting.mu))
    assert curve.exact == pytest.approx(1e-5, rel=1e-9)


# ---------------------------------------------------------------------------
# releasing a statistic
# ---------------------------------------------------------------------------

def korea_by_age(seed=2022, n=10_000):
    rng = np.random.default_rng(seed)
    probs = datasets.proportions(datasets.age_histogram("korea", 1).to_numpy())
    return datasets.draw_histogram(probs, n, rng=rng)


def data(r: Release, table=None) -> page.Data:
    return page.release_data(r, table, np.random.default_rng(r.seed))


def test_release_built_in_data():
    by_age = korea_by_age()
    assert data(Release()).true_value == by_age[65:].sum()
    assert data(Release(ages=(0, 17))).true_value == by_age[:18].sum()
    assert data(Release(query="sum", ages=None, upper=60.0)).true_value == pytest.approx(
        np.arange(86).clip(0, 60) @ by_age)
    hist = data(Release(query="histogram", ages=None, width=10, neighbours="histogram"))
    assert hist.labels == datasets.age_bin_labels(10)
    np.testing.assert_array_equal(hist.counts, np.bincount(
        datasets.age_bin_index(np.arange(86), 10), weights=by_age, minlength=9))
    assert page.query_words(Release()) == "people aged 65 and over"
    assert page.query_words(Release(ages=(20, 40))) == "people aged 20–40"


def test_release_uploads_and_their_words():
    counts = pd.DataFrame({"people": [100, 50, 0]}, index=["0-9", "10-19", "20-29"])
    up = Release(source=page.UPLOAD, n=None, column="people", file_kind="counts")
    assert data(up, counts).true_value == 150
    hist = data(replace(up, query="histogram", neighbours="histogram"), counts)
    assert hist.labels == ["0-9", "10-19", "20-29"] and list(hist.counts) == [100, 50, 0]
    values = pd.DataFrame({"my_age": [3, 20, 30, 45, 45, 90]})
    up = Release(source=page.UPLOAD, n=None, column="my_age", file_kind="values", ages=None)
    assert data(up, values).true_value == 6  # the number of values
    summed = replace(up, query="sum", upper=85.0)
    assert data(summed, values).true_value == 3 + 20 + 30 + 45 + 45 + 85
    # The column's name is escaped for Markdown, kept as it is for the report.
    assert page.query_words(summed) == 'the sum of "my\\_age" clipped to [0, 85]'
    assert page.query_words(summed, name=str) == 'the sum of "my_age" clipped to [0, 85]'
    binned = data(replace(up, query="histogram", width=10, neighbours="histogram"), values)
    np.testing.assert_array_equal(binned.counts, datasets.bin_values(values["my_age"], width=10))


@pytest.mark.parametrize(("frame", "kind", "query", "fragment"), [
    ({"a": ["1", "x"]}, "counts", "count", "must contain only numbers"),
    ({"a": [1, -2]}, "counts", "count", "negative count"),
    ({"age": [3, -4]}, "values", "histogram", "negative value"),
    ({"age": [None, None]}, "values", "count", 'Column "age" has no values.'),
])
def test_unreleasable_data_is_said_in_plain_words(frame, kind, query, fragment):
    r = Release(source=page.UPLOAD, n=None, column=list(frame)[0], file_kind=kind, query=query,
                width=5, neighbours="histogram", ages=None)
    with pytest.raises(page.Unreleasable) as exc:
        data(r, pd.DataFrame(frame))
    shown = as_read(str(exc.value))  # the message is Markdown, its quoted text escaped
    assert fragment in shown and "`" not in shown


def test_the_release_reports_its_settings():
    items = replace(Settings(), release=Release()).report_items()
    assert list(items)[6:] == ["data", "query", "people N", "seed", "age group"]
    assert (items["data"], items["query"], items["people N"], items["seed"],
            items["age group"]) == ("Population 2020: Korea", "a count", "10,000", 2022, "65–85")
    hist = Release(source=page.UPLOAD, n=None, column="c", file_kind="counts",
                   query="histogram", ages=None, neighbours="histogram_replace").report_items()
    assert hist == {"data": 'Uploaded CSV file, column "c"', "query": "a histogram",
                    "neighbouring data sets differ by": "replace one person (Δ = √2)"}
    assert Release(query="sum", ages=None, upper=60.0).report_items()["clipping bound U"] == "60"
    assert page.guarantee_finding(Release(), 3.73, 1.0, 1.0, 1e-5) == (
        "Releasing a count with σ = 3.73 (query sensitivity Δ = 1) is (1, 1.0·10⁻⁵)-DP.")


# ---------------------------------------------------------------------------
# the σ table
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("sens", [1.0, 85.0])
def test_sigma_tables(sens):
    table = page.sigma_table(sens)
    expected = gaussian.sigma_table(page.TABLE_EPS, page.TABLE_DELTA, sensitivity=sens)
    pd.testing.assert_frame_equal(table, expected)
    pivot = page.sigma_pivot(table)
    assert list(pivot.index) == [f"ε = {e:g}" for e in page.TABLE_EPS]
    assert pivot.shape == (len(page.TABLE_EPS), len(page.TABLE_DELTA))
    assert pivot.loc["ε = 1", "δ = 1.0·10⁻⁵"] == float(gaussian.gaussian_sigma(1.0, 1e-5, sens))
    assert list(page.sigma_full(table).columns) == [
        "ε", "δ", "σ analytic", "σ tail bound", "σ classical", "classical valid (ε < 1)",
        "tail / analytic", "classical / analytic"]
