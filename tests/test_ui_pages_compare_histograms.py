"""The logic of "Compare two private histograms" (ui/pages/compare_histograms.py), tested
directly: its settings and report items, the bootstrap's work cap, the computation, the
sentences and the tables. The page itself is tested in tests/test_page_compare_histograms.py."""

from __future__ import annotations

import numpy as np
import pytest

from dpcore import datasets, histogram, study
from ui.pages import compare_histograms as logic
from ui.sources import PairInput, SideInput


def shapes_pair(a="uniform", b="normal", m=5) -> PairInput:
    side = {s: SideInput(datasets.SHAPES[s], datasets.shape_probabilities(s, m), False)
            for s in (a, b)}
    return PairInput([str(j) for j in range(1, m + 1)], side[a], side[b])


def uploaded_pair(a=(10, 30, 50), b=(20, 40, 60), *, private=False) -> PairInput:
    labels = [str(j) for j in range(1, len(a) + 1)]
    return PairInput(labels, SideInput('your column "a"', np.array(a, float), True),
                     SideInput('your column "we*ird_[c]"', np.array(b, float), True), private)


def settings(pair=None, **changes) -> logic.Settings:
    pair = pair or shapes_pair()
    values = dict(pair=pair, source_a="uniform", source_b="normal", width=None,
                  bins=len(pair.labels), n_a=1000, separate_n=False, n_b=1000, alpha_a=0.1,
                  alpha_b=0.1, boot=200, seed=5)
    return logic.Settings(**(values | changes))


def compare(s: logic.Settings):
    return logic.run_comparison(s.pair, s.n_a, s.n_b, s.alpha_a, s.alpha_b, s.n_boot, s.seed)


def test_report_items_are_the_reports_labels_and_values():
    assert settings(n_a=2000, n_b=5000, separate_n=True, seed=7).report_items() == {
        "Histogram A": "Uniform", "Histogram B": "Normal", "Bins M": "5",
        "People N in A": "2,000", "People N in B": "5,000",
        "Privacy level ε_A (A)": "0.1", "Privacy level ε_B (B)": "0.1",
        "Bootstrap replicates B": "200", "Seed": "7", "Significance level": "5%",
        "Null distribution shown": "Algorithm 1"}
    uploaded = settings(uploaded_pair(), n_a=None, n_b=None).report_items()
    assert uploaded["People N in A"] == "90 (as uploaded)"
    assert uploaded["Histogram B"] == 'your column "we*ird_[c]"'  # plain: the report escapes
    private = settings(uploaded_pair(private=True), n_a=None, n_b=None).report_items()
    assert private["People N in B"] == "unknown (already private counts)"


def test_uses_age_groups_when_a_population_is_chosen():
    assert logic.uses_age_groups("usa", "normal") and logic.uses_age_groups("upload", "korea")
    assert not logic.uses_age_groups("uniform", "upload")


def test_the_bootstrap_is_limited_to_the_work_cap():
    assert logic.limited_boot(1000, 86) == 1000
    assert logic.limited_boot(1000, 5000) == logic.MAX_BOOT_CELLS // 5000 == 440
    assert logic.limited_boot(1000, 10**6) == logic.MIN_BOOT
    s = settings(shapes_pair(m=5000), boot=1000)
    assert s.n_boot == 440 and s.report_items()["Bootstrap replicates B"] == "440"
    assert logic.boot_limit_info(5000, 1000, 440, 4.2) == (
        "With M = 5,000 bins the bootstrap is limited to B = 440 replicates to keep the page "
        "responsive: B = 1,000 would take about 4 s here.")
    assert logic.boot_limit_note(5000, 800).endswith("limited to B = 800 replicates to keep "
                                                      "the page responsive.")


def test_the_comparison_is_reproducible_and_alpha_a_leaves_b_alone():
    s = settings()
    first = compare(s)
    logic.run_comparison.clear()  # computed again, not taken from the cache
    again = compare(s)
    assert again.naive.pvalue == first.naive.pvalue
    assert again.bootstrap.pvalue == first.bootstrap.pvalue
    assert compare(settings(seed=6)).naive.statistic != first.naive.statistic
    # Noise Lap(20) -> Lap(2) on A changes A's release, hence the statistic; B's release
    # and its debiasing do not depend on α₁.
    other = compare(settings(alpha_a=1.0))
    assert other.naive.statistic != first.naive.statistic
    assert other.estimate.n2_hat == first.estimate.n2_hat
    np.testing.assert_array_equal(other.private2, first.private2)


def test_the_verdict_on_the_page_and_in_the_report():
    s = settings(uploaded_pair((500, 300, 200), (520, 310, 190)), n_a=None, n_b=None)
    result = compare(s)
    shown, plain = logic.verdict(s, result), logic.verdict(s, result, markdown=False)
    found = "finds" if logic.finds_difference(result) else "does not find"
    ours = "finds" if logic.finds_difference(result, "calibrated") else "does not find"
    assert plain == ('At the 5% significance level, between histogram A (your column "a") and '
                     'histogram B (your column "we*ird_[c]"): the parametric bootstrap test '
                     f"(Algorithm 1) {found} a difference (p = {result.bootstrap.pvalue:.3g} from "
                     f"200 replicates); the calibrated normal-score test {ours} a difference (p = "
                     f"{result.calibrated.pvalue:.3g} from 200 replicates at each of two levels; "
                     f"uncalibrated p = {result.normal_score.pvalue:.3g}).")
    assert result.calibrated.pvalue_single == result.normal_score.pvalue
    # On the page the finding is bold and a user's column name cannot become Markdown.
    assert f"**{found}**" in shown and r'(your column "we\*ird\_\[c\]")' in shown
    assert logic.naive_finding(result).startswith(
        f"The naive χ² test, which treats the noisy counts as exact, gives p = "
        f"{result.naive.pvalue:.3g} (χ² = {result.naive.statistic:,.1f}, df = 2); ")


def test_a_degenerate_bootstrap_is_said_in_words():
    s = settings(uploaded_pair((1, 2), (3, 4), private=True), n_a=None, n_b=None,
                 alpha_a=0.001, alpha_b=0.001)
    result = compare(s)
    assert result.bootstrap is None
    assert logic.bootstrap_error(result).startswith(
        "The bootstrap test cannot be run on these histograms. Histogram A")
    assert logic.bootstrap_error_finding(result).startswith(
        "The parametric bootstrap test cannot be run on these histograms: ")
    assert [e.caption for e in logic.size_estimates(result)] == [
        "true N unknown (private input)"] * 2


def test_a_histogram_that_is_mostly_noise_is_named():
    # N = 10,000 in 18 bins at α = 0.1: noise sd 28 against ~556 a bin.
    pop = datasets.age_histogram("korea_central", 5).to_numpy()
    big = PairInput([str(j) for j in range(len(pop))],
                    SideInput("A", datasets.proportions(pop), False),
                    SideInput("B", datasets.proportions(pop), False))
    assert logic.noisy_sides(settings(big, n_a=10_000, n_b=10_000), compare(
        settings(big, n_a=10_000, n_b=10_000))) == []
    # N = 1,000 in 5 bins at α = 0.001: noise sd 2,828 against 200 a bin, on both sides.
    s = settings(alpha_a=0.001, alpha_b=0.001)
    [a, b] = logic.noisy_sides(s, compare(s))
    assert (a.label, b.label) == ("A", "B") and a.noise == histogram.noise_sd(0.001)
    assert a.mean_count == 200
    assert logic.noise_warning(a) == (
        "Histogram A is mostly noise: at ε_A = 0.001 the noise on each count has standard "
        "deviation 2,828, more than the average count per bin (200.0). N̂ and both tests are "
        "unreliable here; increase N or ε_A, or use wider bins.")
    assert logic.noise_note(a).endswith("(200.0); N̂ and both tests are unreliable here.")


def test_metrics_captions_and_estimates():
    s = settings(uploaded_pair(), n_a=None, n_b=None)
    result = compare(s)
    assert logic.naive_caption(result) == f"χ² = {result.naive.statistic:,.1f}, df = 2"
    for boot in (result.bootstrap, result.normal_score):
        assert logic.bootstrap_caption(boot) == (
            f"T = {boot.statistic:,.1f}; 5% critical value {boot.critical_value(0.05):,.1f}")
    a, b = logic.size_estimates(result)
    assert (a.label, a.caption, b.caption) == ("Estimated N̂ (A)", "true N = 90", "true N = 120")
    assert a.value == f"{result.estimate.n1_hat:,}"
    assert a.delta == f"{result.estimate.n1_hat - 90:+,.0f} vs true N"
    assert logic.trace_names(s) == ('A: your column "a", ε_A = 0.1',
                                    'B: your column "we*ird_[c]", ε_B = 0.1')


def test_tables():
    s = settings()
    result = compare(s)
    per_bin = logic.per_bin_table(s, result)
    assert list(per_bin.columns) == ["bin", "original_A", "private_A", "debiased_A",
                                      "rescaled_A", "original_B", "private_B", "debiased_B",
                                      "rescaled_B", "p0_hat"]
    assert list(per_bin["bin"]) == s.pair.labels
    assert [logic.per_bin_format(c) for c in ("p0_hat", "original_A", "private_B")] == [
        "%.4f", "%.0f", "%.1f"]
    summary = result.summary_table()
    shown = logic.summary_shown(summary)
    assert list(shown.columns) == list(summary.columns) == ["quantity", "value"]
    values = dict(zip(shown["quantity"], shown["value"]))
    assert values["people N in A"] == "1,000" and values["Algorithm 1: replicates B"] == "200"
    assert values["Algorithm 1: p-value (1 + #{T_b ≥ T}) / (B + 1)"] == (
        f"{result.bootstrap.pvalue:.4g}")
    assert len(shown) == len(summary) and not set(shown["quantity"]) & set(summary["quantity"])


def test_a_pvalue_below_resolution_is_said_as_a_bound():
    """Korea vs USA at N = 10^5 each, α = 1: no replicate reaches T; the page never says 0."""
    pop = [datasets.age_histogram(name, 5).to_numpy() for name in ("korea", "usa")]
    pair = PairInput([str(j) for j in range(len(pop[0]))],
                     SideInput("Korea", datasets.proportions(pop[0]), False),
                     SideInput("USA", datasets.proportions(pop[1]), False))
    s = settings(pair, n_a=100_000, n_b=100_000, alpha_a=1.0, alpha_b=1.0, boot=500)
    result = compare(s)
    for boot in (result.bootstrap, result.normal_score):
        assert boot.below_resolution and boot.pvalue == 1 / 501
        assert logic.pvalue_text(boot) == "< 0.002"
    verdict = logic.verdict(s, result, markdown=False)
    assert "p < 1/(B + 1) = 0.002 (none of the 500 replicates reached T)" in verdict
    assert "p = 0 " not in verdict and "p = 0)" not in verdict
    naive = logic.naive_finding(result)
    assert result.naive.pvalue == 0.0 and "gives p = <" not in naive
    assert "gives p < 10⁻³⁰⁰ (" in naive
    summary = dict(result.summary_table().values)
    assert summary["bootstrap_pvalue"] == 1 / 501
    assert summary["bootstrap_pvalue_source_line11"] == 0.0


def _size_table(alg1, ours=(0.05, 0.04, 0.06)):
    """A one-setting null grid: M = 5, α = (0.1, 0.1), N = (1,000, 1,000); ``alg1`` and
    ``ours`` are (rate, ci_low, ci_high) of Algorithm 1 and of the calibrated test."""
    import pandas as pd

    rows = []
    for test, (rate, low, high) in (("bootstrap", alg1), ("normal_score", (0.07, 0.06, 0.08)),
                                    ("calibrated", ours), ("chisq", (0.4, 0.37, 0.43))):
        rows.append(dict(pair="korea_vs_korea", m=5, alpha1=0.1, alpha2=0.1, n=1000, n2=1000,
                         test=test, rate=rate, ci_low=low, ci_high=high, reps=1000))
    return pd.DataFrame(rows)


KEEPS, LIBERAL, CONSERVATIVE = (0.05, 0.04, 0.062), (0.079, 0.068, 0.091), (0.002, 0.0006, 0.007)


@pytest.mark.parametrize("alg1, ours, kind, says", [
    (KEEPS, KEEPS, "ok", "Either can be trusted here."),
    (CONSERVATIVE, KEEPS, "ok", "Either can be trusted here."),
    (LIBERAL, KEEPS, "alg1", "Trust the calibrated normal-score test here."),
    (KEEPS, LIBERAL, "ours", "Trust Algorithm 1 here."),
    (LIBERAL, LIBERAL, "none", "Neither keeps its level here"),
])
def test_the_calibration_sentence_says_which_test_to_trust(monkeypatch, alg1, ours, kind, says):
    """Issue 35: a verdict from the measured size's 95% interval, one-sided: too liberal
    when it lies above 5%, conservative (still trusted) when below; never "neither" when
    one test keeps its level (the bug when only Algorithm 1 did)."""
    monkeypatch.setattr(study, "_null_table", lambda: _size_table(alg1, ours))
    s = settings()
    result = compare(s)
    got_kind, text = logic.calibration_sentence(s, result)
    assert got_kind == kind and says in text
    assert text.startswith("Under 'no difference', at these settings: Algorithm 1 rejected "
                           f"{alg1[0]:.1%} (95% interval {alg1[1]:.1%}–{alg1[2]:.1%})")
    words = {KEEPS: "keeping its 5% significance level", LIBERAL: "too liberal", CONSERVATIVE: "conservative"}
    first, second = text.split("; the calibrated normal-score test rejected ")
    assert words[alg1] in first and words[ours] in second
    assert not logic.needs_check(s, result)
    # Far from the grid (N 100 times larger, other ε): the nearest setting is named, how far
    # it is, and the page offers to check the setting itself.
    far = settings(n_a=100_000, n_b=100_000, alpha_a=1.0, alpha_b=1.0)
    _, text = logic.calibration_sentence(far, compare(far))
    assert "nearest simulated setting (M = 5, ε_A = 0.1, ε_B = 0.1, N = (1,000, 1,000))" in text
    assert "a factor 100 from yours on one axis and outside the simulated range" in text
    assert text.endswith("The grid does not answer for your setting: check it below.")
    assert logic.needs_check(far, compare(far))


def test_the_sentence_uses_only_settings_where_both_tests_were_simulated(monkeypatch):
    """Issue 35: the nearest setting is taken among those where Algorithm 1 and the
    calibrated test were both simulated, not one where only one of them was."""
    import pandas as pd

    both = _size_table(KEEPS)
    alone = both[both["test"] == "bootstrap"].assign(n=2000, n2=2000)  # nearer, one test
    monkeypatch.setattr(study, "_null_table", lambda: pd.concat([both, alone]))
    s = settings(n_a=2000, n_b=2000)
    _, text = logic.calibration_sentence(s, compare(s))
    assert "nearest simulated setting (M = 5, ε_A = 0.1, ε_B = 0.1, N = (1,000, 1,000))" in text
    assert not text.startswith("Under 'no difference', at these settings")


def test_measured_size_finds_the_nearest_setting_either_way_round():
    import pandas as pd

    rows = [dict(pair="korea_vs_korea", m=86, alpha1=a1, alpha2=a2, n=n, n2=n2,
                 test="bootstrap", rate=0.05, ci_low=0.04, ci_high=0.06, reps=1000)
            for a1, a2, n, n2 in ((0.01, 1.0, 1000, 100_000), (1.0, 1.0, 1000, 1000))]
    table = pd.DataFrame(rows)
    # A query with A and B exchanged is matched to the grid's (B, A) setting.
    size = study.measured_size(86, 1.0, 0.01, 100_000, 1000, table=table)
    assert size.swapped and size.exact
    assert (size.alpha1, size.alpha2, size.n1, size.n2) == (1.0, 0.01, 100_000, 1000)
    near = study.measured_size(80, 0.9, 1.1, 1200, 900, table=table)
    assert not near.exact and (near.alpha1, near.n1) == (1.0, 1000)
    assert study.measured_size(86, 1, 1, 1000, 1000, table=table.iloc[:0]) is None


def test_the_results_table_shows_names_in_words_and_numbers_without_e_notation():
    """Issue 18: the shown results table names each quantity in the page's notation (ε,
    not alpha) and writes a tiny p-value as 2.7·10⁻¹⁵, never 2.7e-15; its CSV keeps the
    quantities' names and the numbers as they are."""
    import pandas as pd

    summary = pd.DataFrame({"quantity": ["alpha_A", "alpha_B", "N_hat_A", "chisq_pvalue",
                                         "chisq_statistic", "bootstrap_pvalue_source_line11"],
                            "value": [0.1, 0.5, 10_123.0, 2.68e-15, 6159.07, 0.0]})
    shown = logic.summary_shown(summary)
    assert list(shown["quantity"][:2]) == ["privacy level ε_A", "privacy level ε_B"]
    assert list(shown["value"]) == ["0.1", "0.5", "10,123", "2.68·10⁻¹⁵", "6,159.1", "0"]
    # A naive p-value that underflowed to 0 is not shown as 0.
    underflow = logic.summary_shown(summary.assign(value=[0.1, 0.5, 1.0, 0.0, 1.0, 0.0]))
    assert underflow["value"].iloc[3] == "< 10⁻³⁰⁰"
    assert not shown.to_string().count("alpha") and "e-15" not in shown.to_string()
    assert "Son, Park & Jung (2022)" in shown["quantity"].iloc[-1]
    assert list(summary["quantity"])[0] == "alpha_A"  # the CSV's frame is untouched


def test_the_per_bin_tables_headers_are_symbols_its_csv_columns_stay():
    s = settings(uploaded_pair(), n_a=None, n_b=None)
    table = logic.per_bin_table(s, compare(s))
    assert list(table.columns)[:3] == ["bin", "original_A", "private_A"]
    headers = {c: logic.per_bin_header(c) for c in table.columns}
    assert headers["original_A"] == "C (A)" and headers["private_A"] == "X (A)"
    assert headers["debiased_B"] == "C̃ (B)" and headers["rescaled_B"] == "Ĉ (B)"
    assert headers["p0_hat"] == "p̂₀"


def test_p_values_are_shown_without_e_notation():
    assert logic.shown_p(0.0) == "< 10⁻³⁰⁰"
    assert logic.shown_p(2.68e-15) == "2.68·10⁻¹⁵"
    assert logic.shown_p(0.00170123) == "0.0017"


def test_a_size_check_is_said_with_its_intervals_and_its_verdict():
    import pandas as pd

    s = settings()
    check = logic.size_check_of(s, compare(s))
    table = pd.DataFrame([dict(test="bootstrap", rate=0.079, ci_low=0.068, ci_high=0.091),
                          dict(test="calibrated", rate=0.052, ci_low=0.040, ci_high=0.067)])
    kind, text = logic.size_check_sentence(check, table)
    assert kind == "alg1"
    assert text.startswith("Under 'no difference', at your setting, under the null fitted to "
                           f"your data (N̂ = ({check.n1:,}, {check.n2:,})): Algorithm 1 rejected "
                           "7.9% (95% interval 6.8%–9.1%) of the time: too liberal")
    assert "the calibrated normal-score test rejected 5.2% (95% interval 4.0%–6.7%) of the " \
           "time, keeping its 5% significance level" in text
    assert text.endswith(f"seed {s.seed}). Trust the calibrated normal-score test here.")
