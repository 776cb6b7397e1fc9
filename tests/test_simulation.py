"""Tests of dpcore.simulation: Algorithm 2 and the null statistics of Figures 2-3."""

import numpy as np
import pytest
from scipy import stats

from dpcore import datasets, homogeneity, simulation
from dpcore.histogram import perturb_histogram
from dpcore.homogeneity import parametric_bootstrap_test
from dpcore.simulation import TESTS, null_statistics, reject_rate, rejection_curve


def ages(population, width):
    return datasets.proportions(datasets.age_histogram(population, width).to_numpy())


def test_bootstrap_holds_its_level_at_the_papers_setting():
    # Figure 10: Korea vs Korea, M = 86, alpha = 0.01, N = 50,000 is calibrated.
    p = ages("korea", 1)
    res = reject_rate(p, p, 50_000, 0.01, 0.01, reps=400, n_boot=200, rng=2022)
    assert res.ci_low <= 0.05 <= res.ci_high, (res.rate, res.ci_low, res.ci_high)
    assert res.n_undefined == 0
    # Under H0 the p-values are close to uniform, not merely right at 5%.
    assert stats.ks_1samp(res.pvalues, stats.uniform.cdf).pvalue > 0.01


def test_naive_test_does_not_hold_its_level():
    # Figure 9: at N = 5,000, alpha = 0.1, M = 86 the naive type-I error is far above 5%.
    p = ages("korea", 1)
    res = reject_rate(p, p, 5000, 0.1, 0.1, test="chisq", reps=400, rng=1)
    assert res.ci_low > 0.5
    assert res.n_boot is None


def test_power_rises_with_n_and_with_alpha():
    p1, p2 = ages("korea_central", 5), ages("korea_noncentral", 5)
    small = reject_rate(p1, p2, 1000, 0.1, 0.1, reps=200, n_boot=100, rng=3)
    large = reject_rate(p1, p2, 50_000, 0.1, 0.1, reps=200, n_boot=100, rng=3)
    assert small.ci_high < large.ci_low
    strong = reject_rate(p1, p2, 10_000, 0.01, 0.01, reps=200, n_boot=100, rng=4)
    weak = reject_rate(p1, p2, 10_000, 1.0, 1.0, reps=200, n_boot=100, rng=4)
    assert strong.ci_high < weak.ci_low


def test_unequal_privacy_levels_and_sizes():
    # Figure 12: alpha_1 = 0.1, alpha_2 = 0.05 still holds the level.
    p = ages("korea", 5)
    res = reject_rate(p, p, (20_000, 30_000), 0.1, 0.05, reps=300, n_boot=200, rng=12)
    assert res.ci_low <= 0.05 <= res.ci_high


def test_same_seed_same_result():
    p = ages("korea", 10)
    a = reject_rate(p, p, 5000, 0.5, 0.5, reps=60, n_boot=50, rng=7)
    b = reject_rate(p, p, 5000, 0.5, 0.5, reps=60, n_boot=50, rng=7)
    c = reject_rate(p, p, 5000, 0.5, 0.5, reps=60, n_boot=50, rng=8)
    np.testing.assert_array_equal(a.pvalues, b.pvalues)
    assert a.rate == b.rate
    assert not np.array_equal(a.pvalues, c.pvalues)


def test_batched_pvalues_agree_with_the_single_test():
    # The same private pair tested 60 times in one batch: the p-values are
    # Binomial(B, p)/B around the single test's p-value (estimated with large B).
    rng = np.random.default_rng(5)
    p = ages("korea", 5)
    x1 = perturb_histogram(rng.multinomial(4000, p), 0.2, rng=rng)
    x2 = perturb_histogram(rng.multinomial(4000, p), 0.2, rng=rng)
    single = parametric_bootstrap_test(x1, x2, 0.2, 0.2, n_boot=40_000, rng=6).pvalue
    batch = simulation._bootstrap_pvalues(np.tile(x1, (60, 1)), np.tile(x2, (60, 1)),
                                          0.2, 0.2, 400, np.random.default_rng(7))
    se = np.sqrt(single * (1 - single) * (1 / (400 * 60) + 1 / 40_000))
    assert abs(batch.mean() - single) < 4 * se + 1e-12


def test_undefined_replicates_count_as_not_rejected():
    # Ten people, five bins, alpha = 0.001: most noisy counts fall below 1/alpha.
    p = np.full(5, 0.2)
    res = reject_rate(p, p, 10, 0.001, 0.001, reps=200, n_boot=20, rng=1)
    assert res.n_undefined == int(np.isnan(res.pvalues).sum()) > 0
    assert res.rejections == int(np.sum(res.pvalues < 0.05))
    assert res.rate == res.rejections / 200


def test_wilson_interval_against_closed_form():
    z = stats.norm.ppf(0.975)
    for k, n in [(0, 100), (5, 100), (50, 100), (100, 100), (37, 1000)]:
        ph = k / n
        centre = (ph + z**2 / (2 * n)) / (1 + z**2 / n)
        half = z * np.sqrt(ph * (1 - ph) / n + z**2 / (4 * n**2)) / (1 + z**2 / n)
        low, high = simulation.binomial_interval(k, n)
        assert low == pytest.approx(max(0.0, centre - half), abs=1e-12)
        assert high == pytest.approx(min(1.0, centre + half), abs=1e-12)


def test_progress_is_reported_up_to_one(progress_log):
    p = ages("korea", 10)
    reject_rate(p, p, 5000, 1.0, 1.0, reps=300, n_boot=2000, rng=1, progress=progress_log)
    progress_log.check()
    assert len(progress_log.calls) > 1 and set(progress_log.labels) == {"test=bootstrap"}


def test_rejection_curve_progress_runs_over_the_whole_grid(progress_log):
    p = ages("korea", 10)
    rejection_curve(p, p, [1000, (2000, 3000)], 0.5, 0.5, reps=20, n_boot=10, rng=3,
                    progress=progress_log)
    progress_log.check()
    assert progress_log.labels[0] == "test=bootstrap n=1000"
    assert progress_log.labels[-1] == f"test={TESTS[-1]} n=2000,3000"


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(p2=np.full(9, 1 / 9)), "same bins"),
        (dict(p1=[0.5, 0.6]), "`p1` must sum to 1"),
        (dict(n=0), "`n`"),
        (dict(n=(10, 20, 30)), "`n`"),
        (dict(n=2.5), "`n`"),
        (dict(alpha2=0), "`alpha2`"),
        (dict(test="t"), "`test`"),
        (dict(reps=0), "`reps`"),
        (dict(n_boot=0), "`n_boot`"),
        (dict(level=1.5), "`level`"),
    ],
)
def test_reject_rate_argument_errors(kwargs, match):
    args = dict(p1=np.full(18, 1 / 18), p2=np.full(18, 1 / 18), n=1000, alpha1=1.0, alpha2=1.0)
    args.update(kwargs)
    extra = {k: args.pop(k) for k in ("test", "reps", "n_boot", "level") if k in args}
    with pytest.raises(ValueError, match=match):
        reject_rate(*args.values(), **extra)


def test_null_statistics_figure_2():
    p0 = datasets.shape_probabilities("uniform", 20)
    res = null_statistics(p0, 5050, 0.5, reps=4000, rng=3)
    assert res.df == 19
    se = np.sqrt(2 * 19 / 4000)
    assert abs(res.without_dp.mean() - 19) < 4 * se  # chi-square(19) without noise
    assert abs(res.without_dp.var() - 38) < 4 * np.sqrt((12 * 19 + 8 * 19**2) / 4000)
    # The noise Lap(4) (variance 32) adds to the multinomial variance ~252 per bin.
    assert res.with_dp.mean() > 19 + 1.5
    crit = simulation.chi2_critical_value(19)
    assert crit == pytest.approx(stats.chi2.ppf(0.95, 19))
    assert np.mean(res.with_dp > crit) > np.mean(res.without_dp > crit)


def test_rejection_curve_points_do_not_depend_on_the_grid():
    p = ages("korea", 10)
    both = rejection_curve(p, p, [1000, 50_000], 0.5, 0.5, tests=["bootstrap", "chisq"],
                           reps=40, n_boot=30, rng=9)
    alone = rejection_curve(p, p, [50_000], 0.5, 0.5, tests=["bootstrap"], reps=40,
                            n_boot=30, rng=9)
    assert list(both["n"]) == [1000, 1000, 50_000, 50_000]
    assert list(both["test"]) == ["bootstrap", "chisq"] * 2
    row = both[(both["n"] == 50_000) & (both["test"] == "bootstrap")].iloc[0]
    assert row["rate"] == alone["rate"].iloc[0]
    assert row["rejections"] == alone["rejections"].iloc[0]
    with pytest.raises(ValueError, match="`ns`"):
        rejection_curve(p, p, [], 0.5, 0.5)
    with pytest.raises(ValueError, match="`tests`"):
        rejection_curve(p, p, [1000], 0.5, 0.5, tests=["x"])


def test_run_time_estimate_scales_with_work():
    per = simulation.seconds_per_unit(repeats=1)
    assert 0 < per < 1e-5
    units = simulation.work_units(86, 1000, 1000)
    assert units == 1000 * 2 * 86 * 1001
    assert simulation.estimate_seconds(units, per, workers=2) == pytest.approx(units * per / 2)


def test_reject_rate_runs_the_normal_score_test_as_the_single_test():
    """The batched p-values of reject_rate(test="normal_score") are those of
    homogeneity.normal_score_test run one pair at a time (same law: a large B makes
    the two Monte Carlo p-values agree within their standard errors)."""
    p = ages("korea", 10)
    rng = np.random.default_rng(5)
    x1 = np.maximum(rng.multinomial(3000, p) + 20 * rng.laplace(size=p.size), 0)
    x2 = np.maximum(rng.multinomial(30_000, p) + 2 * rng.laplace(size=p.size), 0)
    single = homogeneity.normal_score_test(x1, x2, 0.1, 1.0, n_boot=40_000, rng=6).pvalue
    batch = simulation._normal_score_pvalues(np.tile(x1, (30, 1)), np.tile(x2, (30, 1)),
                                             0.1, 1.0, 2000, np.random.default_rng(7))
    se = np.sqrt(single * (1 - single) / 2000)
    assert abs(batch.mean() - single) < 4 * se / np.sqrt(30) + 1e-3
    res = simulation.reject_rate(p, p, (1000, 10_000), 0.1, 1.0, test="normal_score", reps=30,
                                 n_boot=50, rng=1)
    assert res.n_undefined == 0 and res.n_boot == 50
    assert res.pvalues.min() >= 1 / 51


def test_size_check_is_the_rejection_curve_of_both_verdict_tests_under_one_null():
    """Issue 35: the size check simulates Algorithm 1 and the calibrated test with both
    histograms drawn from one p0, as rejection_curve does (same seed, same rates), and the
    calibrated test's size there is 5% within Monte Carlo error (M = 5, ε = 1: little
    noise, where the single bootstrap is already accurate)."""
    from dpcore import simulation

    p = datasets.shape_probabilities("normal", 5)
    check = simulation.size_check(p, 2000, 3000, 1.0, 1.0, reps=600, n_boot=99, rng=4)
    assert list(check["test"]) == ["bootstrap", "calibrated"]
    curve = rejection_curve(p, p, [(2000, 3000)], 1.0, 1.0, tests=("bootstrap", "calibrated"),
                            reps=600, n_boot=99, rng=4)
    assert check.drop(columns="n").equals(curve.drop(columns="n"))
    rate = check.set_index("test").loc["calibrated", "rate"]
    se = np.sqrt(0.05 * 0.95 / 600)
    assert abs(rate - 0.05) < 3.5 * se, rate
