"""ui.pages.planner: the planner page's settings, comparison, costs, sentences and tables, from
dpcore.planner's structured results (pure functions, tested without the page)."""

from __future__ import annotations

import json
import re
import math
from dataclasses import fields, replace
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pandas as pd
import pytest

from dpcore import datasets, planner, simulation, study, uploads
from shown import as_read
from ui.format import estimate_parts
from ui import sources
from ui.pages import planner as page
from ui.pages import planner_text as words

M9 = study.cell_probabilities("central_vs_noncentral", 9)
CHEAP = dict(reps=200, n_boot=100)
EMPTY = pd.DataFrame()


def sample_size_plan(**changes) -> planner.SampleSizePlan:
    fields = dict(n=7914, interval=(7500.0, 8350.0), points=EMPTY, status="found", power=0.8,
                  level=0.05, test="bootstrap", alpha1=0.1, alpha2=0.1, reps=500, n_boot=500,
                  simulated=12, recalled=0)
    return planner.SampleSizePlan(**{**fields, **changes})


def privacy_plan(**changes) -> planner.PrivacyPlan:
    fields = dict(alpha=0.0512, interval=(0.045, 0.06), points=EMPTY, status="found", power=0.8,
                  level=0.05, test="bootstrap", n=20_000, alpha_ratio=1.0, reps=500, n_boot=500,
                  simulated=12, recalled=0)
    return planner.PrivacyPlan(**{**fields, **changes})


def test_plain_sentences_carry_the_numbers_of_real_plans():
    p1, p2 = M9
    plan = planner.required_sample_size(p1, p2, 0.1, 0.1, rng=2, **CHEAP)
    text = words.describe_sample_size(plan, "a difference as large as A vs B")
    estimate, low, high = estimate_parts(plan.n, *plan.interval)
    assert f"about {estimate} ({low}–{high}, allowing for simulation error) people" in text
    assert "ε = 0.1" in text and "80%" in text and "A vs B" in text
    priv = planner.strongest_privacy(p1, p2, 20_000, rng=2, **CHEAP)
    text = words.describe_privacy(priv, "it")
    assert f"ε of {words.alpha_with_interval(priv, error=True)} is the strongest" in text
    assert "20,000" in text and "stronger" not in text
    never = planner.required_sample_size(p1, p1 * 0 + 1 / 9, 0.001, 0.001, n_range=(100, 1000),
                                         rng=2, **CHEAP)
    assert never.status == "unreachable" and never.n is None
    assert "not enough" in words.describe_sample_size(never, "it")


def test_sample_size_sentence_for_each_status():
    found = words.describe_sample_size(sample_size_plan(), "it")
    # The estimate 7,914 to the precision of its interval (7,500–8,350: hundreds).
    assert found == ("At privacy level ε = 0.1 for both releases, about 7,900 (7,500–8,350, "
                     "allowing for simulation error) people per group are needed so that the "
                     "DP bootstrap test at the 5% significance level detects it 80% of the time.")
    open_ended = sample_size_plan(interval=(7500.0, math.inf), alpha2=0.05, test="chisq")
    text = words.describe_sample_size(open_ended, "it")
    assert "above 7,500" in text and "ε_A = 0.1 and ε_B = 0.05" in text
    assert "naive chi-square test" in text
    lower = words.describe_sample_size(
        sample_size_plan(status="at_lower_bound", n=100), "it")
    assert "even 100 people per group are enough" in lower
    stopped = words.describe_sample_size(sample_size_plan(status="stopped", n=None), "it")
    assert "cap on simulations" in stopped


def test_privacy_sentence_for_each_status():
    found = words.describe_privacy(privacy_plan(), "it")
    assert "privacy level ε of about 0.05 (0.045–0.06, allowing for simulation error)" in found
    assert "a smaller ε less often" in found
    ratio = words.describe_privacy(privacy_plan(alpha_ratio=0.5), "it")
    assert "(and ε_B = 0.5 ε_A)" in ratio
    lower = words.describe_privacy(
        privacy_plan(status="at_lower_bound", alpha=0.001), "it")
    assert "ε = 0.001, the strongest searched, is affordable" in lower
    never = words.describe_privacy(
        privacy_plan(status="unreachable", alpha=None, interval=(10.0, math.inf)), "it")
    assert "no privacy level up to ε = 10 is weak enough" in never
    stopped = words.describe_privacy(privacy_plan(status="stopped", alpha=None), "it")
    assert "cap on simulations" in stopped


@pytest.mark.parametrize("label, text", [
    ("quantity=power test=bootstrap n=12000 alpha1=0.1 alpha2=0.1",
     "power of the bootstrap test at N = 12,000, ε = 0.1"),
    ("quantity=type1 test=chisq n=500 alpha1=0.1 alpha2=0.05",
     "type-I error of the chi-square test at N = 500, ε = (0.1, 0.05)"),
    ("quantity=power test=normal_score n=1000 alpha1=0.3 alpha2=0.3",
     "power of the normal-score test at N = 1,000, ε = 0.3"),
    ("done", "done"),
    ("", ""),
])
def test_progress_text(label, text):
    assert words.progress_text(label) == text


def test_progress_text_reads_the_labels_the_planner_sends(progress_log):
    p1, p2 = M9
    planner.required_sample_size(p1, p2, 0.3, 0.3, rng=1, progress=progress_log, **CHEAP)
    shown = [words.progress_text(label) for label in progress_log.labels[:-1]]
    assert shown and all(t.startswith("power of the bootstrap test at N = ") for t in shown)
    assert all(t.endswith(", ε = 0.3") for t in shown)


def test_alphas_in_the_sentences_have_three_significant_digits():
    text = words.describe_privacy(privacy_plan(alpha=0.123456, interval=(0.1, 10.0)), "it")
    # Kept to one significant digit where the interval is wider than the estimate.
    assert "ε of about 0.1 (0.1–10, allowing" in text


# --- the settings -----------------------------------------------------------------------------

def test_the_default_settings_are_the_pages_defaults():
    assert page.Settings() == page.Settings(
        mode="two", source_a="korea_central", source_b="korea_noncentral", base="korea",
        effect="shift", direction="older", shift=1, distance=0.05, width=10, test="bootstrap",
        level=0.05,
        power=0.8, alpha1=0.1, separate=False, alpha2=0.1, n=10_000, reps=200, n_boot=200,
        seed=2022, frontier_range=(0.01, 1.0), frontier_points=5, tab="How much data?")
    assert all(getattr(page.Settings.unset(), f.name) is None for f in fields(page.Settings))


def test_every_setting_has_its_url_parameter_and_links_carry_them_all():
    keys = page.Settings.KEYS
    assert list(keys) == [f.name for f in fields(page.Settings)]
    assert all(key.startswith("plan_") for key in keys.values())
    recorded = json.loads((Path(__file__).parent / "fixtures" / "links_2026_11.json")
                          .read_text(encoding="utf-8"))["links"]
    in_links = {key for link in recorded if link["url_path"] == "planner"
                for key in parse_qs(urlsplit(link["url"]).query)}
    # Settings added since the links were recorded; each has a default, so the old links
    # open as before (tests/test_links_kept.py).
    added = {"test": "plan_test"}
    assert in_links == set(keys.values()) - set(added.values())
    assert all(keys[name] == key and getattr(page.DEFAULT, name) is not None
               for name, key in added.items())
    assert page.DEFAULT.test == "bootstrap"  # Algorithm 1, as before the choice


def test_the_report_names_the_test_chosen():
    s = page.Settings(test="normal_score", level=0.01)
    assert s.report_items()["Test"] == "normal-score test (this project) at the 1% significance level"
    assert list(s.report_items()) == list(page.Settings().report_items())
    # The planner plans for Algorithm 1 or the normal-score test (not the calibrated one,
    # whose searches would cost twice as much).
    assert set(page.TESTS) == set(simulation.BOOTSTRAP_TESTS) - {"calibrated"}


def test_the_report_lists_todays_settings():
    s = page.Settings(reps=50, n_boot=500, seed=7, n=50_000)
    assert s.report_items() == {
        "Test": "parametric bootstrap test (Algorithm 1) at the 5% significance level",
        "Target power": "80%", "Privacy level": "ε = 0.1",
        "People per group N (plan)": "50,000", "Replicates R, bootstrap B": "50, 500",
        "Seed": "7"}
    two = replace(s, separate=True, alpha2=1.0, level=0.01)
    assert two.report_items()["Privacy level"] == "ε_A = 0.1, ε_B = 1"
    assert two.ratio == 10 and not two.same_alpha
    comp = comparison()
    assert comp.report_items() == {"Comparison": "Korea central vs Korea noncentral",
                                   "Difference (total-variation distance)": f"{comp.tv:.4f}",
                                   "Bins M": "9"}
    table = words.report_table(comp, s)
    assert list(table.columns) == ["setting", "value"]
    assert list(table["setting"]) == [*comp.report_items(), *s.report_items()]
    assert words.report_notes()[-1] == f"Source: {page.SOURCE_NOTE}"
    assert "compute the frontier on its tab" in words.report_caption(False)
    assert "the frontier)" in words.report_caption(True)


# --- the comparison ---------------------------------------------------------------------------

def korea(width: int = 10) -> tuple[np.ndarray, np.ndarray]:
    return tuple(datasets.proportions(datasets.age_histogram(name, width).to_numpy())
                 for name in ("korea_central", "korea_noncentral"))


def comparison(s: page.Settings = page.DEFAULT, columns=None) -> page.Comparison:
    p1, p2 = korea(s.width)
    return page.make_comparison(s, p1, p2, datasets.age_bin_labels(s.width), columns or {})


EFFECT = page.Settings(mode="effect", source_a=None, source_b=None)


@pytest.mark.parametrize("s, b, difference, what", [
    (page.DEFAULT, "Korea noncentral",
     "a difference as large as Korea central vs Korea noncentral",
     "Korea central vs Korea noncentral"),
    (EFFECT, "Korea, 1 age group (10 years) older",
     "a difference as large as Korea against the same population 1 age group (10 years) older",
     "Korea against itself 1 age group (10 years) older"),
    (replace(EFFECT, direction="younger", shift=2), "Korea, 2 age groups (20 years) younger",
     "a difference as large as Korea against the same population 2 age groups (20 years) "
     "younger", "Korea against itself 2 age groups (20 years) younger"),
    (replace(EFFECT, width=1), "Korea, 1 age group older", None, None),
    (replace(EFFECT, width=None, base="upload", shift=2, direction="younger"),
     'your column "x", shifted 2 bins towards the first bins', None, None),
    (replace(EFFECT, effect="tilt", distance=0.1), "Korea, tilted (d = 0.1)",
     "a difference of total-variation distance 0.1 from Korea (towards older ages)",
     "Korea against its tilt towards older ages at distance 0.1"),
    (replace(EFFECT, effect="tilt", distance=0.1, width=None, direction="younger"), None,
     None, "Korea against its tilt towards the first bins at distance 0.1"),
], ids=["two", "shift", "shift younger", "single years", "bins", "tilt", "tilt bins"])
def test_the_difference_in_words(s, b, difference, what):
    _, name_b, diff, what_ = page.phrases(s, {"A": "x"})
    assert (name_b, diff, what_) == (b or name_b, difference or diff, what or what_)


def test_uploaded_names_are_escaped_for_markdown_only():
    s = page.Settings(source_a="upload", width=10)
    comp = comparison(s, {"A": "my_col*"})
    assert comp.name_a == 'your column "my_col*"'
    assert comp.difference == 'a difference as large as your column "my_col*" vs Korea noncentral'
    assert comp.difference_md == \
        'a difference as large as your column "my\\_col\\*" vs Korea noncentral'
    assert comp.what == 'your column "my_col*" vs Korea noncentral'
    assert "my\\_col\\*" in words.data_intro(comp, s) and "my\\_col\\*" in \
        words.privacy_intro(comp, s)


def test_an_effect_builds_b_from_a():
    p, _ = korea()
    shift = replace(EFFECT, direction="younger", shift=2)
    np.testing.assert_array_equal(page.effect_distribution(p, shift),
                                  planner.shift_distribution(p, -2))
    tilt = replace(EFFECT, effect="tilt", distance=0.1)
    assert planner.total_variation(p, page.effect_distribution(p, tilt)) == \
        pytest.approx(0.1)
    with pytest.raises(ValueError, match="must be below"):
        page.effect_distribution(p, replace(tilt, distance=0.99))


def upload(data: bytes, kind: str = "counts") -> sources.Upload:
    return sources.Upload(uploads.read_csv_upload(data), kind)


def test_a_side_from_a_population_or_a_column():
    p1, _ = korea()
    np.testing.assert_array_equal(
        page.side_probabilities("korea_central", "A", None, None, 10, 9), p1)
    counts = upload(b"group,a,b\nx,500,400\ny,300,300\nz,200,300\n")
    np.testing.assert_allclose(page.side_probabilities("upload", "B", counts, "b", None, 3),
                               [0.4, 0.3, 0.3])
    assert page.bin_labels(None, 3, counts) == ["x", "y", "z"]
    assert page.bin_labels(None, 3, upload(b"a\n1\n2\n3\n")) == ["1", "2", "3"]
    assert page.bin_labels(10, 9, None) == datasets.age_bin_labels(10)
    assert page.only_counts(["upload", "upload"], counts)
    assert not page.only_counts(["upload", "korea"], counts)
    ages = upload(b"age\n" + b"\n".join(str(a).encode() for a in range(0, 90, 3)), "values")
    np.testing.assert_allclose(
        page.side_probabilities("upload", "A", ages, "age", 10, 9),
        datasets.proportions(datasets.bin_values(np.arange(0, 90, 3), width=10)))


@pytest.mark.parametrize("data, kind, column, message", [
    (b"a\n10\n20\n30\n", "counts", "a",
     'Column "a" has 3 bins but the age groups chosen have 9. Pick the age grouping with 3 '
     "bins, if there is one, or upload counts for 86, 18 or 9 age groups."),
    (b"my_a\n10\n20\n30\n", "counts", "my_a", 'Column "my_a" has 3 bins'),
    (b"a,b\n1,2\n2,3\n4\n", "counts", "b", "same number of rows"),
    (b"age,b\n3,1\n-3,1\n40,1\n", "values", "age",
     'Column "age" has a negative value (-3); ages must be 0 or more.'),
    (b"a,b\n1,\n2,\n", "values", "b", 'Column "b" has no values.'),
], ids=["wrong length", "escaped name", "rows differ", "negative age", "empty column"])
def test_an_unusable_column_is_a_plain_error(data, kind, column, message):
    with pytest.raises(uploads.UploadError) as error:
        page.side_probabilities("upload", "A", upload(data, kind), column, 10, 9)
    assert message in str(error.value)  # as typed: the page escapes the message whole
    assert as_read(page.error_text(error.value)) == str(error.value)
    assert "\\" not in str(error.value)


def test_a_column_name_in_a_message_is_shown_as_text():
    with pytest.raises(uploads.UploadError) as error:
        page.side_probabilities("upload", "A", upload(b"[x](https://e.org)\n1\n2\n", "counts"),
                                "[x](https://e.org)", 10, 9)
    assert "[x](https://e.org)" in str(error.value)
    assert "\\[x\\]\\(https" in page.error_text(error.value)


def test_the_same_distribution_is_a_problem():
    p1, _ = korea()
    same = page.make_comparison(page.DEFAULT, p1, p1.copy(), datasets.age_bin_labels(10), {})
    assert page.same_distribution(same).message.startswith(
        "A and B have the same distribution: there is no difference to detect.")
    assert page.same_distribution(comparison()) is None


# --- costs and refusals (a pinned speed: 1e-7 s per drawn bin) ---------------------------------

SPEED = 1e-7


def test_a_search_beyond_the_cap_is_refused_with_its_time():
    cheap = page.Settings(reps=50, n_boot=50)
    assert page.search_refusal(comparison(cheap), cheap, SPEED) is None
    big = page.Settings(reps=2000, n_boot=2000, width=1)
    one = simulation.work_units(86, 2000, 2000)
    seconds = planner.TYPICAL_CELLS * one * SPEED
    assert page.search_refusal(comparison(big), big, SPEED) == (
        f"This search would take about {seconds / 60:.1f} minutes here: about "
        f"{planner.TYPICAL_CELLS} settings of R·2M·(B + 1) = {one:,.0f} drawn bins each, more "
        "than the page's cap of 200,000,000 per search. Lower R or B (in the accuracy "
        "settings) or use wider age groups (fewer bins M).")
    assert page.accuracy_caption(9, cheap, SPEED).startswith(
        "One simulated setting draws R·2M·(B + 1) = 45,900 bins, about 0.0046 s here; a search "
        f"simulates about {planner.TYPICAL_CELLS} settings: about under a second.")


def test_the_frontier_says_its_cost_and_refuses_beyond_its_cap():
    s = page.Settings(reps=50, n_boot=50, separate=True, alpha2=0.2)
    alphas = page.frontier_alphas(s)
    assert alphas == [1.0, 0.3, 0.1, 0.03, 0.01]
    assert page.frontier_caption(9, s, alphas, SPEED).startswith(
        "ε = 1, 0.3, 0.1, 0.03, 0.01 (ε_B = 2 ε_A): about 10 searches, ")
    assert page.frontier_refusal(9, s, alphas, SPEED) is None
    big = replace(s, reps=2000, n_boot=2000, frontier_points=10)
    refusal = page.frontier_refusal(86, big, page.frontier_alphas(big), SPEED)
    assert refusal.startswith("This frontier would take about ") and \
        "more than the page's cap of 1,000,000,000). Use fewer points" in refusal


def test_costs_count_only_the_chosen_test():
    """One search is of the chosen test, a frontier of it and the naive test: the work of
    each (simulation.work_units, weighted by cost) and nothing for the other bootstrap test."""
    s = page.Settings(reps=50, n_boot=50)
    ns = replace(s, test="normal_score")
    alphas = page.frontier_alphas(s)
    per_alpha = planner.TYPICAL_CELLS + 1  # a search and a type-I check
    for settings in (s, ns):
        assert page.frontier_tests(settings) == (settings.test, "chisq")
        assert page.search_units(9, settings) == \
            planner.TYPICAL_CELLS * simulation.work_units(9, 50, 50, settings.test)
        assert page.frontier_units(9, settings, alphas) == len(alphas) * per_alpha * (
            simulation.work_units(9, 50, 50, settings.test)
            + simulation.work_units(9, 50, 50, "chisq"))
    assert page.search_units(9, ns) > page.search_units(9, s)
    # Algorithm 1's words are those of the page before the choice of test.
    assert page.accuracy_caption(9, s, SPEED).startswith(
        "One simulated setting draws R·2M·(B + 1) = 45,900 bins, about 0.0046 s here;")
    units = simulation.work_units(9, 50, 50, "normal_score")
    assert units > 45_900
    assert page.accuracy_caption(9, ns, SPEED).startswith(
        "One simulated setting of the normal-score test draws R·2M·(B + 1) = 45,900 bins, "
        f"counted as {units:,.0f} at its cost per bin, about {units * SPEED:.2g} s here;")
    # A search Algorithm 1 can afford and the normal-score test cannot.
    big = page.Settings(reps=500, n_boot=1000)
    assert page.search_refusal(comparison(big), big, SPEED) is None
    refusal = page.search_refusal(comparison(big), replace(big, test="normal_score"), SPEED)
    one = simulation.work_units(9, 500, 1000, "normal_score")
    assert refusal.startswith("This search would take about ") and (
        f"settings of R·2M·(B + 1) = {simulation.work_units(9, 500, 1000):,.0f} drawn bins "
        f"each, counted as {one:,.0f} each at the cost per bin of the normal-score test, more "
        "than the page's cap of 200,000,000 per search.") in refusal
    assert refusal.endswith("or choose the parametric bootstrap test.")
    # A frontier likewise (5 ε; Algorithm 1 fits under the cap, the normal-score test not).
    wide = page.Settings(reps=500, n_boot=1000)
    assert page.frontier_refusal(9, wide, alphas, SPEED) is None
    refusal = page.frontier_refusal(9, replace(wide, test="normal_score"), alphas, SPEED)
    units = page.frontier_units(9, replace(wide, test="normal_score"), alphas)
    assert refusal.startswith("This frontier would take about ") and \
        f"({units:,.0f} drawn bins counted at each test's cost per bin, more than" in refusal


def test_a_frontier_is_shown_again_only_for_its_settings():
    comp, s = comparison(), page.Settings(reps=50, n_boot=50)
    params = page.frontier_params(comp, s, [1.0, 0.1])
    last = {"params": params, "table": pd.DataFrame({"x": [1]})}
    assert page.frontier_for(last, comp, replace(s, frontier_points=9)) is last["table"]
    assert page.frontier_for(last, comp, replace(s, power=0.9)) is None
    assert params["test"] == "bootstrap"
    assert page.frontier_for(last, comp, replace(s, test="normal_score")) is None
    assert page.frontier_for(None, comp, s) is None


# --- numbers and sentences --------------------------------------------------------------------

def test_the_estimates_in_words():
    assert (words.n_text(sample_size_plan()), words.n_interval_text(sample_size_plan())) == \
        ("about 7,900", "7,500–8,350")
    assert words.n_text(sample_size_plan(n=451_043, interval=(436_000.0, 486_000.0))) == \
        "about 450,000"
    lower = sample_size_plan(status="at_lower_bound", n=100, interval=(0.0, 100.0))
    assert (words.n_text(lower), words.n_interval_text(lower)) == ("≤ 100", "≤ 100")
    never = sample_size_plan(status="unreachable", n=None, interval=(5e7, math.inf))
    assert (words.n_text(never), words.n_interval_text(never)) == ("> 50,000,000", "–")
    assert words.n_interval_text(sample_size_plan(interval=(7500.0, math.inf))) == "above 7,500"
    assert words.n_text(sample_size_plan(status="stopped", n=None)) == "not found"
    assert (words.alpha_text(privacy_plan()), words.alpha_interval_text(privacy_plan())) == \
        ("about 0.05", "0.045–0.06")
    assert words.alpha_text(privacy_plan(alpha=None, status="unreachable",
                                        interval=(10.0, math.inf))) == "> 10"
    assert words.good_news(lower) and not words.good_news(never)


def points(x: str, rows) -> pd.DataFrame:
    """A plan's simulated points: (value, power, ci_low, ci_high) at ``x``."""
    return pd.DataFrame(rows, columns=[x, "power", "ci_low", "ci_high"])


def test_your_n_against_the_interval_of_the_n_needed():
    """Enough at or above the interval's upper end, not enough at or below its lower end,
    undetermined in between, whichever side of the estimate 7,914 (7,910 shown)."""
    s = page.Settings(reps=200)
    verdicts = {n: words.data_verdict(sample_size_plan(reps=200), replace(s, n=n))
                for n in (5000, 7500, 7600, 7914, 8000, 8350, 10_000)}
    assert {n: (v.state, v.label) for n, v in verdicts.items()} == {
        5000: ("not_reached", "not enough"), 7500: ("not_reached", "not enough"),
        7600: ("undetermined", "undetermined at R = 200"),
        7914: ("undetermined", "undetermined at R = 200"),
        8000: ("undetermined", "undetermined at R = 200"),
        8350: ("reached", "enough"), 10_000: ("reached", "enough")}
    assert verdicts[10_000].sentence == (
        "Your N = 10,000 per group is enough: it is at or above 8,350, the upper end of the "
        "Monte Carlo interval of the N needed, so the test detects the difference at least 80% "
        "of the time (under monotone power, allowing for simulation error).")
    assert verdicts[5000].sentence.startswith(
        "Your N = 5,000 per group is not enough: it is at or below 7,500, the lower end of the "
        "Monte Carlo interval of the N needed, so the test detects the difference less than "
        "80% of the time")
    assert verdicts[8000].sentence == (
        "Whether your N = 8,000 per group is enough cannot be told at R = 200 replicates: it "
        "lies inside the Monte Carlo interval of the N needed, 7,500–8,350. More replicates "
        "narrow it: raise *Replicates R per setting* (under *Accuracy of the simulation*; 200 "
        "now, up to 2,000); the Wilson intervals behind the verdict shrink as 1/√R, four times "
        "R about halving them. Or plan on N = 8,350 or more, the upper end of the interval.")
    # At the page's largest R, only the upper end is left to advise.
    most = words.data_verdict(sample_size_plan(reps=2000), replace(s, n=8000, reps=2000))
    assert most.sentence.endswith("R is already the page's largest, 2,000. Instead, plan on "
                                  "N = 8,350 or more, the upper end of the interval.")
    # The issue's case: N = 37,800 above the estimate, inside the interval.
    issue = sample_size_plan(n=35_900, interval=(32_800.0, 60_400.0))
    assert words.data_verdict(issue, replace(s, n=37_800)).label == "undetermined at R = 500"


@pytest.mark.parametrize("seed", range(5))
def test_the_planner_never_says_enough_where_the_interval_holds_the_planned_n(seed):
    rng = np.random.default_rng(seed)
    for _ in range(200):
        low = float(np.exp(rng.uniform(np.log(1000), np.log(1e7))))
        high = low * float(np.exp(rng.uniform(0.01, 1.0)))
        estimate = int(np.exp(rng.uniform(np.log(low), np.log(high))))
        plan = sample_size_plan(n=estimate, interval=(low, high))
        for n in {int(low), int(low) + 1, estimate, estimate + 1, int(high) - 1,
                  int(np.ceil(high)), 1000, 50_000_000}:
            verdict = words.data_verdict(plan, page.Settings(n=n))
            if low < n < high:
                assert verdict.state == "undetermined" and "enough" not in verdict.label
            elif n >= high:
                assert verdict.label == "enough"
            else:
                assert verdict.label == "not enough"


def test_your_n_at_the_ends_of_the_range_and_after_a_stopped_search():
    s = page.Settings(n=5000)
    clear = sample_size_plan(status="unreachable", n=None, interval=(1e8, math.inf),
                             points=points("n", [(1e8, 0.3, 0.24, 0.37)]))
    assert words.data_verdict(clear, s) == words.Verdict(
        "not_reached", "not enough", "Your N = 5,000 per group is not enough: even "
        "100,000,000 people per group, the most searched, detect the difference less than "
        "80% of the time.")
    unclear = replace(clear, points=points("n", [(1e8, 0.78, 0.72, 0.83)]))
    verdict = words.data_verdict(unclear, s)
    assert verdict.label == "undetermined at R = 500" and (
        "the power simulated at 100,000,000, the end of the range searched, is below 80% but "
        "within Monte Carlo error of it. More replicates narrow it") in verdict.sentence
    assert "Or plan on" not in verdict.sentence
    lower = sample_size_plan(status="at_lower_bound", n=100, interval=(0.0, 100.0),
                             points=points("n", [(100, 0.82, 0.76, 0.87)]))
    assert "the power simulated at 100, the end of the range searched, is at or above 80% " \
        "but within Monte Carlo error" in words.data_verdict(lower, s).sentence
    assert words.data_verdict(replace(lower, points=points("n", [(100, 0.95, 0.9, 0.97)])),
                              s).label == "enough"
    stopped = words.data_verdict(sample_size_plan(status="stopped", n=None,
                                                  interval=(7500.0, math.inf)), s)
    assert stopped == words.Verdict(
        "undetermined", "unknown", "Whether your N = 5,000 per group is enough is unknown: the "
        "search stopped at its cap on simulations before bracketing the N needed.")


def test_your_alpha_against_the_interval_of_the_strongest_affordable():
    s = page.Settings(n=20_000)
    shown = {a: words.privacy_verdict(privacy_plan(), replace(s, alpha1=a, alpha2=a))
             for a in (0.04, 0.045, 0.05, 0.06, 0.1)}
    assert {a: v.label for a, v in shown.items()} == {
        0.04: "too strong for the target", 0.045: "too strong for the target",
        0.05: "undetermined at R = 500", 0.06: "affordable", 0.1: "affordable"}
    assert shown[0.1].sentence.startswith(
        "Your ε = 0.1 is affordable: it is at or above 0.06, the upper end of the Monte Carlo "
        "interval of the strongest affordable ε, so with N = 20,000 per group the test detects "
        "the difference at least 80% of the time")
    assert shown[0.05].sentence.startswith(
        "Whether your ε = 0.05 is affordable cannot be told at R = 500 replicates: it lies "
        "inside the Monte Carlo interval of the strongest affordable ε, 0.045–0.06.")
    assert shown[0.05].sentence.endswith(
        "Or choose ε = 0.06 or more (weaker privacy), the upper end of the interval.")
    two = words.privacy_verdict(privacy_plan(alpha_ratio=2.0),
                                replace(s, alpha1=0.05, separate=True, alpha2=0.1))
    assert two.sentence.startswith("Whether your ε_A = 0.05 is affordable")
    never = privacy_plan(status="unreachable", alpha=None, interval=(10.0, math.inf),
                         points=points("alpha1", [(10.0, 0.4, 0.33, 0.47)]))
    assert words.privacy_verdict(never, s).sentence == (
        "Your ε = 0.1 is too strong for the target: even ε = 10, the weakest privacy searched, "
        "detects the difference less than 80% of the time with N = 20,000 per group.")


def frontier_table(n, n_low, chisq_type1, test="bootstrap") -> pd.DataFrame:
    """A frontier at ε = 1, 0.1, 0.01: the bootstrap test's N, the naive test's type-I error."""
    alphas = [1.0, 0.1, 0.01]
    boot = pd.DataFrame({"alpha1": alphas, "test": test, "n": n, "n_low": n_low,
                         "type1": 0.05, "valid": True})
    chisq = pd.DataFrame({"alpha1": alphas, "test": "chisq", "n": [100.0] * 3,
                          "n_low": [50.0] * 3, "type1": chisq_type1,
                          "valid": [t < 0.1 for t in chisq_type1]})
    return pd.concat([boot, chisq], ignore_index=True)


def test_the_frontier_in_words():
    table = frontier_table([500.0, 5000.0, np.nan], [400.0, 4000.0, 5e7], [0.05, 0.3, 0.62])
    assert words.frontier_sentence(table, 0.8) == (
        "For 80% power the parametric bootstrap test needs N = 500 at ε = 1; N = 5,000 at "
        "ε = 0.1; more than 50,000,000 at ε = 0.01 per group.")
    assert words.frontier_summary(table, 0.05) == (
        "The naive χ² test seems to need fewer people at ε = 0.1, 0.01, but it does not hold "
        "its 5% level there: with no difference at all it rejects up to 62% of the time (at "
        "ε = 0.01), so its 'power' means nothing. Only the bootstrap test's N can be planned "
        "on.")
    valid = frontier_table([500.0, np.nan, np.nan], [400.0, np.nan, 0.0], [0.05] * 3)
    assert words.frontier_findings(valid, 0.05, 0.9) == [
        "For 90% power the parametric bootstrap test needs N = 500 at ε = 1; an N not found at "
        "ε = 0.1; an N not found at ε = 0.01 per group."]
    assert words.frontier_intro("bootstrap") == (
        "The N per group needed for the target power across privacy levels, for the parametric "
        "bootstrap test and for the naive χ² test, with each test's type-I error checked at the "
        "N it needs (the data drawn from the pooled distribution, no difference). A test whose "
        "type-I error is clearly above the level is marked *invalid*.")
    assert words.frontier_caption(table) == (
        "Solid: the parametric bootstrap test; dashed: the naive χ² test; bars: the Monte Carlo "
        "intervals of N. The star is your plan: well above the bootstrap curve and its bars "
        "there is enough data for the target power, well below not; near them the curve does "
        "not decide it: the tab *How much data?* does, at your ε, from its Monte Carlo "
        "interval.")


def test_the_normal_score_test_is_named_in_every_sentence():
    found = words.describe_sample_size(sample_size_plan(test="normal_score"), "it")
    assert "so that the normal-score test at the 5% significance level detects it 80% of the time" in found
    never = words.describe_sample_size(
        sample_size_plan(test="normal_score", status="unreachable", n=None,
                         interval=(5e7, math.inf)), "it")
    assert "not enough for the normal-score test at the 5% significance level to detect it" in never
    privacy = words.describe_privacy(privacy_plan(test="normal_score", level=0.1), "it")
    assert "the normal-score test at the 10% significance level still detects it" in privacy
    for text in (found, never, privacy):
        assert "bootstrap" not in text
    table = frontier_table([500.0, 5000.0, np.nan], [400.0, 4000.0, 5e7], [0.05, 0.3, 0.62],
                           test="normal_score")
    assert words.frontier_test(table) == "normal_score"
    assert words.frontier_sentence(table, 0.8) == (
        "For 80% power the normal-score test needs N = 500 at ε = 1; N = 5,000 at ε = 0.1; "
        "more than 50,000,000 at ε = 0.01 per group.")
    assert words.frontier_summary(table, 0.05).endswith(
        "Only the normal-score test's N can be planned on.")
    assert words.frontier_intro("normal_score").startswith(
        "The N per group needed for the target power across privacy levels, for the "
        "normal-score test and for the naive χ² test,")
    caption = words.frontier_caption(table)
    assert caption.startswith("Solid: the normal-score test; dashed: the naive χ² test;")
    assert "well above the normal-score curve" in caption and "bootstrap" not in caption
    # A frontier of the naive test alone (or none) is read as Algorithm 1's, as before.
    assert words.frontier_test(table[table["test"] == "chisq"]) == "bootstrap"


# --- issue 18: no false precision next to a Monte Carlo interval -------------------------------

def test_n_needed_is_shown_to_the_precision_of_its_monte_carlo_interval():
    """ "N needed 451,043" beside a Monte Carlo interval of 436,000–486,000 was false
    precision: the metric says "about 450,000", the interval beside it and every sentence
    say "about 450,000 (436,000–486,000)", as ui.format.fmt_estimate writes it."""
    from ui.format import fmt_estimate

    plan = sample_size_plan(n=451_043, interval=(436_112.0, 486_020.0))
    assert words.n_text(plan) == "about 450,000"
    assert words.n_interval_text(plan) == "436,000–486,000"
    assert words.n_full(plan) == fmt_estimate(451_043, 436_112, 486_020) == \
        "about 450,000 (436,000–486,000)"
    text = words.describe_sample_size(plan, "it")
    assert "about 450,000 (436,000–486,000, allowing for simulation error) people" in text
    assert "451,043" not in text and "451,000" not in text
    # The frontier's sentence too, where its table gives the interval.
    table = frontier_table([451_043.0, 5000.0, np.nan], [436_112.0, 4000.0, 5e7],
                           [0.05, 0.05, 0.05]).assign(n_high=[486_020.0, 6000.0, np.inf] * 2)
    assert "N = about 450,000 (436,000–486,000) at ε = 1" in words.frontier_sentence(table, 0.8)


def test_the_strongest_epsilon_is_shown_to_the_precision_of_its_interval():
    plan = privacy_plan(alpha=0.05123, interval=(0.0451, 0.0602))
    assert words.alpha_text(plan) == "about 0.05"
    assert words.alpha_interval_text(plan) == "0.0451–0.0602"
    assert words.alpha_full(plan) == "about 0.05 (0.0451–0.0602)"
    assert "ε of about 0.05 (0.0451–0.0602, allowing for simulation error) is the strongest" \
        in words.describe_privacy(plan, "it")
    # Never rounded to 0 where the interval is wider than the estimate.
    assert words.alpha_text(privacy_plan(alpha=0.123, interval=(0.1, 10.0))) == "about 0.1"


def test_no_e_notation_in_the_planners_words():
    texts = [words.n_full(sample_size_plan(n=3.2e7, interval=(2.9e7, 3.5e7))),
             words.alpha_full(privacy_plan(alpha=0.00123, interval=(0.001, 0.0015))),
             words.describe_sample_size(sample_size_plan(n=3.2e7, interval=(2.9e7, 3.5e7)),
                                        "it"),
             words.describe_privacy(privacy_plan(alpha=0.00123, interval=(0.001, 0.0015)),
                                    "it")]
    for text in texts:
        assert not re.search(r"\d[eE][-+]?\d", text), text


def test_the_frontier_table_shows_n_to_the_precision_of_its_interval():
    table = frontier_table([451_043.0, 5043.0, np.nan], [436_112.0, 4000.0, 5e7],
                           [0.05, 0.05, 0.05]).assign(n_high=[486_020.0, 6000.0, np.inf] * 2)
    texts = words.frontier_n_texts(table)
    assert texts[:3] == ["about 450,000", "about 5,000", "–"]
