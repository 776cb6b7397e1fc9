"""Tests of dpcore.homogeneity against closed forms, independent numerics and theory."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, optimize, stats

from dpcore import datasets, homogeneity
from dpcore.histogram import perturb_histogram
from dpcore.homogeneity import (
    DegenerateNullError,
    chisq_statistic,
    chisq_test,
    debias_counts,
    debias_thresholds,
    estimate_null,
    expected_noisy_count,
    inverse_expected_noisy_count,
    parametric_bootstrap_test,
    release_and_test,
    sample_and_test,
)


def g_reference(c, alpha):
    """E[max(0, c + Z)], Z ~ Lap(2/alpha), by numerical integration."""
    b = 2 / alpha
    dens = stats.laplace(scale=b).pdf
    value, _ = integrate.quad(lambda z: (c + z) * dens(z), -c, np.inf)
    return value


def g_inverse_reference(x, alpha):
    """Root of g(C) = x on C >= 0 by bracketing (no Lambert W)."""
    return optimize.brentq(lambda c: c + np.exp(-alpha * c / 2) / alpha - x, 0, x, xtol=1e-13)


# --------------------------------------------------------------------------- g and g^-1


@pytest.mark.parametrize("alpha", [1.0, 0.1, 0.01])
@pytest.mark.parametrize("c", [0.0, 1.0, 7.5, 40.0])
def test_g_matches_numerical_integration(c, alpha):
    assert expected_noisy_count(c, alpha) == pytest.approx(g_reference(c, alpha), rel=1e-7)


@pytest.mark.parametrize("c, alpha", [(0.0, 1.0), (2.0, 0.5), (10.0, 0.1)])
def test_g_matches_monte_carlo_mean(c, alpha):
    n = 400_000
    x = perturb_histogram(np.full(n, c), alpha, rng=np.random.default_rng(2022))
    se = x.std() / np.sqrt(n)
    assert abs(x.mean() - expected_noisy_count(c, alpha)) < 4 * se


@pytest.mark.parametrize("alpha", [1.0, 0.1, 0.01, 0.001])
def test_g_of_g_inverse_is_identity(alpha):
    x = np.concatenate([[1 / alpha], np.geomspace(1 / alpha * 1.0001, 200 / alpha, 200)])
    np.testing.assert_allclose(
        expected_noisy_count(inverse_expected_noisy_count(x, alpha), alpha), x, rtol=1e-10
    )


@pytest.mark.parametrize("alpha", [1.0, 0.1, 0.01])
def test_g_inverse_matches_root_finding(alpha):
    xs = np.linspace(1.05 / alpha, 30 / alpha, 25)
    expected = [g_inverse_reference(x, alpha) for x in xs]
    np.testing.assert_allclose(inverse_expected_noisy_count(xs, alpha), expected,
                               rtol=1e-9, atol=1e-9 / alpha)
    assert inverse_expected_noisy_count(1 / alpha, alpha) == pytest.approx(0, abs=1e-9 / alpha)


@settings(max_examples=60, deadline=None)
@given(
    alpha=st.floats(1e-3, 10), c=st.floats(0, 1e6, allow_nan=False, allow_infinity=False)
)
def test_g_inverse_of_g_property(alpha, c):
    back = inverse_expected_noisy_count(expected_noisy_count(c, alpha), alpha)
    assert back == pytest.approx(c, rel=1e-8, abs=1e-7 / alpha)


def test_g_inverse_rejects_values_below_its_range():
    with pytest.raises(ValueError, match="`x`"):
        inverse_expected_noisy_count([0.5], 1.0)
    with pytest.raises(ValueError, match="`alpha`"):
        expected_noisy_count(1.0, 0)
    with pytest.raises(ValueError, match="`c`"):
        expected_noisy_count(-1.0, 1.0)


# --------------------------------------------------------------------------- (4.2)


@pytest.mark.parametrize("alpha", [1.0, 0.1, 0.01])
def test_thresholds_of_eq_4_2(alpha):
    th = debias_thresholds(alpha)
    assert th.lower == pytest.approx(1 / alpha)
    gap = lambda c: np.exp(-alpha * c / 2) / alpha  # g(C) - C
    if gap(0) < 5:  # alpha = 1: the gap is below 5 everywhere
        assert alpha == 1.0 and th.c_star == 0 and th.upper == pytest.approx(1.0)
    else:
        c_star = optimize.brentq(lambda c: gap(c) - 5, 0, 1e6, xtol=1e-12)
        assert th.c_star == pytest.approx(c_star, rel=1e-10)
        assert th.upper == pytest.approx(c_star + 5, rel=1e-10)
        assert gap(th.c_star * 1.001) < 5 < gap(th.c_star * 0.999)
    expected = {1.0: (1.0, 1.0), 0.1: (10.0, 18.8629436), 0.01: (100.0, 604.1464547)}[alpha]
    assert (th.lower, th.upper) == pytest.approx(expected, rel=1e-8)


def test_debias_counts_branches():
    alpha = 0.1  # 1/alpha = 10, k = 18.86
    x = np.array([0.0, 5.0, 10.0, 12.0, 18.8, 18.9, 25.0, 1e6])
    c = debias_counts(x, alpha)
    assert c[0] == c[1] == c[2] == 0.0  # X <= 1/alpha
    for i in (3, 4):  # 1/alpha < X < k: g^{-1}
        assert c[i] == pytest.approx(g_inverse_reference(x[i], alpha), rel=1e-9)
    np.testing.assert_array_equal(c[5:], x[5:])  # X >= k: as is
    assert c[3] < x[3]  # debiasing lowers small counts


def test_debias_counts_keeps_batch_shape():
    x = np.array([[0.0, 15.0, 100.0], [9.0, 11.0, 19.0]])
    c = debias_counts(x, 0.1)
    assert c.shape == x.shape
    np.testing.assert_array_equal(c[0], debias_counts(x[0], 0.1))


# --------------------------------------------------------------------------- (2.3)


def test_chisq_statistic_matches_scipy_contingency():
    rng = np.random.default_rng(4)
    for m in (2, 9, 86):
        c1 = rng.multinomial(5000, np.full(m, 1 / m)) + 1
        c2 = rng.multinomial(7000, np.full(m, 1 / m)) + 1
        ref = stats.chi2_contingency(np.vstack([c1, c2]), correction=False)
        assert chisq_statistic(c1, c2) == pytest.approx(ref.statistic, rel=1e-12)
        res = chisq_test(c1, c2)
        assert res.df == m - 1 == ref.dof
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)


def test_chisq_statistic_batched_and_given_totals():
    rng = np.random.default_rng(5)
    x1 = rng.uniform(0, 50, size=(4, 3, 7))
    x2 = rng.uniform(0, 50, size=(4, 3, 7))
    n1 = rng.uniform(100, 400, size=(4, 3))
    n2 = 250.0
    out = chisq_statistic(x1, x2, n1=n1, n2=n2)
    assert out.shape == (4, 3)
    for idx in np.ndindex(4, 3):
        s = x1[idx] + x2[idx]
        e1 = n1[idx] * s / (n1[idx] + n2)
        e2 = n2 * s / (n1[idx] + n2)
        direct = sum((x1[idx][j] - e1[j]) ** 2 / e1[j] + (x2[idx][j] - e2[j]) ** 2 / e2[j]
                     for j in range(7))
        assert out[idx] == pytest.approx(direct, rel=1e-12)


def test_empty_bins_contribute_zero():
    x1, x2 = np.array([10.0, 20, 30]), np.array([15.0, 10, 40])
    base = chisq_statistic(x1, x2)
    padded = chisq_statistic(np.r_[x1, 0, 0], np.r_[x2, 0, 0])
    assert padded == pytest.approx(base, rel=1e-14)
    assert chisq_statistic([0.0, 0.0], [0.0, 0.0]) == 0.0
    assert chisq_statistic([0.0, 0.0], [3.0, 4.0]) == 0.0  # an all-zero histogram


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), scale=st.floats(0.5, 100))
def test_chisq_statistic_symmetry_and_scaling(seed, scale):
    rng = np.random.default_rng(seed)
    x1, x2 = rng.uniform(0, 30, 10), rng.uniform(0, 30, 10)
    t = chisq_statistic(x1, x2)
    assert t >= 0
    assert chisq_statistic(x2, x1) == pytest.approx(t, rel=1e-10)
    assert chisq_statistic(scale * x1, scale * x2) == pytest.approx(scale * t, rel=1e-9)


def test_chisq_argument_errors():
    with pytest.raises(ValueError, match="same shape"):
        chisq_statistic([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="`x2`.*negative"):
        chisq_statistic([1, 2], [1, -2])
    with pytest.raises(ValueError, match="`n1`"):
        chisq_statistic([1, 2], [1, 2], n1=0)
    with pytest.raises(ValueError, match="`x1`.*at least 2 bins"):
        chisq_test([1], [2])


# --------------------------------------------------------------------------- (4.3)


def test_estimate_null_on_large_counts_is_exact():
    x1 = np.array([1000.4, 2000.0, 3000.0])
    x2 = np.array([500.0, 500.0, 1000.0])
    est = estimate_null(x1, x2, 0.1, 0.5)
    np.testing.assert_array_equal(est.c1_tilde, x1)  # every X >= k(alpha)
    assert (est.n1_hat, est.n2_hat) == (6000, 2000)
    assert est.c1_hat.sum() == pytest.approx(6000)
    np.testing.assert_allclose(est.p0_hat, (x1 * 6000 / x1.sum() + x2) / 8000)
    assert est.p0_hat.sum() == pytest.approx(1.0)


def test_estimate_null_rounds_to_nearest_integer():
    assert estimate_null([100.5, 200.0], [10.0, 10.0], 1.0, 1.0).n1_hat == 301
    assert estimate_null([100.49, 200.0], [10.0, 10.0], 1.0, 1.0).n1_hat == 300


def test_estimate_null_rejects_totals_beyond_int64_range():
    with pytest.raises(ValueError, match="`x2`.*too large"):
        estimate_null([10.0, 10.0], [1e20, 5.0], 1.0, 1.0)


def test_estimate_null_all_below_threshold_and_batches():
    est = estimate_null([1.0, 5.0], [3.0, 2.0], 0.1, 0.1)  # every X <= 1/alpha = 10
    assert est.n1_hat == est.n2_hat == 0
    assert np.all(np.isnan(est.p0_hat))
    x1 = np.array([[50.0, 60.0, 12.0], [1.0, 2.0, 3.0]])
    x2 = np.array([[40.0, 30.0, 0.0], [100.0, 200.0, 300.0]])
    batch = estimate_null(x1, x2, 0.1, 0.1)
    for i in range(2):
        one = estimate_null(x1[i], x2[i], 0.1, 0.1)
        assert batch.n1_hat[i] == one.n1_hat and batch.n2_hat[i] == one.n2_hat
        np.testing.assert_allclose(batch.p0_hat[i], one.p0_hat)


# --------------------------------------------------------------------------- Algorithm 1


def korea_p(width):
    return datasets.proportions(datasets.age_histogram("korea", width).to_numpy())


def private_pair(p1, p2, n, alpha1, alpha2, rng, size=None):
    c1 = rng.multinomial(n, p1, size=size)
    c2 = rng.multinomial(n, p2, size=size)
    return perturb_histogram(c1, alpha1, rng=rng), perturb_histogram(c2, alpha2, rng=rng)


def test_bootstrap_same_seed_same_result():
    x1, x2 = private_pair(korea_p(5), korea_p(5), 20_000, 0.1, 0.1, np.random.default_rng(1))
    a = parametric_bootstrap_test(x1, x2, 0.1, 0.1, n_boot=300, rng=99)
    b = parametric_bootstrap_test(x1, x2, 0.1, 0.1, n_boot=300, rng=99)
    c = parametric_bootstrap_test(x1, x2, 0.1, 0.1, n_boot=300, rng=100)
    np.testing.assert_array_equal(a.null_distribution, b.null_distribution)
    assert a.pvalue == b.pvalue
    assert not np.array_equal(a.null_distribution, c.null_distribution)
    # Line 11 kept as pvalue_source; the reported p-value counts T itself (never 0).
    assert a.pvalue_source == np.mean(a.null_distribution > a.statistic)
    assert a.pvalue == (1 + np.sum(a.null_distribution >= a.statistic)) / 301
    # Line 2 with n_i = sum X_i.
    assert a.statistic == pytest.approx(chisq_statistic(x1, x2))
    assert a.null_distribution.shape == (300,)


def loop_null(x1, x2, alpha1, alpha2, n_boot, rng):
    """Algorithm 1 lines 7-10 written literally, one replicate at a time."""
    est = estimate_null(x1, x2, alpha1, alpha2)
    p0 = est.p0_hat / est.p0_hat.sum()
    out = []
    for _ in range(n_boot):
        u1 = rng.multinomial(est.n1_hat, p0)
        u2 = rng.multinomial(est.n2_hat, p0)
        y1 = np.maximum(0, u1 + rng.laplace(0, 2 / alpha1, u1.size))
        y2 = np.maximum(0, u2 + rng.laplace(0, 2 / alpha2, u2.size))
        t = 0.0
        for j in range(y1.size):
            s = y1[j] + y2[j]
            if s > 0:
                e1 = est.n1_hat * s / (est.n1_hat + est.n2_hat)
                e2 = est.n2_hat * s / (est.n1_hat + est.n2_hat)
                t += (y1[j] - e1) ** 2 / e1 + (y2[j] - e2) ** 2 / e2
        out.append(t)
    return np.array(out)


def test_bootstrap_null_matches_literal_algorithm(monkeypatch):
    rng = np.random.default_rng(12)
    x1, x2 = private_pair(korea_p(10), korea_p(10), 5000, 0.05, 0.2, rng)
    # Small chunks exercise the memory-bounded path as well.
    monkeypatch.setattr(homogeneity, "_CHUNK_ELEMENTS", 64)
    ours = parametric_bootstrap_test(x1, x2, 0.05, 0.2, n_boot=4000, rng=3).null_distribution
    ref = loop_null(x1, x2, 0.05, 0.2, 1500, np.random.default_rng(4))
    se = np.sqrt(ours.var() / ours.size + ref.var() / ref.size)
    assert abs(ours.mean() - ref.mean()) < 4 * se
    assert stats.ks_2samp(ours, ref).pvalue > 0.001


def test_bootstrap_pvalues_uniform_under_the_null():
    # The paper (Fig. 10) finds the test calibrated for N >= 50,000 even with M = 86 and
    # strong privacy; the naive test rejects almost always there (Fig. 9).
    rng = np.random.default_rng(2024)
    p, alpha, reps = korea_p(1), 0.01, 400
    x1, x2 = private_pair(p, p, 50_000, alpha, alpha, rng, size=reps)
    pvals = np.array([
        parametric_bootstrap_test(x1[r], x2[r], alpha, alpha, n_boot=200, rng=rng).pvalue
        for r in range(reps)
    ])
    assert stats.ks_1samp(pvals, stats.uniform.cdf).pvalue > 0.01
    rejections = int(np.sum(pvals < 0.05))
    assert stats.binomtest(rejections, reps, 0.05).pvalue > 0.001
    naive = np.sum(chisq_test(x1, x2).pvalue < 0.05)
    assert stats.binomtest(int(naive), reps, 0.05, alternative="greater").pvalue < 1e-6


def test_bootstrap_rejects_a_clear_alternative():
    rng = np.random.default_rng(8)
    p_kr = korea_p(5)
    p_us = datasets.proportions(datasets.age_histogram("usa", 5).to_numpy())
    pvals = []
    for _ in range(20):
        x1, x2 = private_pair(p_kr, p_us, 10_000, 0.1, 0.1, rng)
        pvals.append(parametric_bootstrap_test(x1, x2, 0.1, 0.1, n_boot=200, rng=rng).pvalue)
    assert max(pvals) < 0.01


def test_bootstrap_argument_errors():
    x = np.array([100.0, 200.0, 300.0])
    for kwargs, match in [
        (dict(n_boot=0), "`n_boot`"), (dict(n_boot=2.5), "`n_boot`"),
        (dict(n_boot=10**7), "`n_boot`"),
    ]:
        with pytest.raises(ValueError, match=match):
            parametric_bootstrap_test(x, x, 1.0, 1.0, **kwargs)
    with pytest.raises(ValueError, match="`alpha2`"):
        parametric_bootstrap_test(x, x, 1.0, -1.0)
    with pytest.raises(ValueError, match="same shape"):
        parametric_bootstrap_test(x, x[:2], 1.0, 1.0)
    with pytest.raises(ValueError, match="`x1`.*1-D"):
        parametric_bootstrap_test(np.vstack([x, x]), np.vstack([x, x]), 1.0, 1.0)
    with pytest.raises(ValueError, match="`x1`.*2 bins"):
        parametric_bootstrap_test([5.0], [5.0], 1.0, 1.0)


def test_bootstrap_degenerate_null():
    with pytest.raises(DegenerateNullError, match="`x2`") as info:
        parametric_bootstrap_test([500.0, 800.0], [3.0, 0.0], 0.1, 0.1)
    assert info.value.which == 2
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("n_boot", [19, 20, 199, 500, 999, 1000])
@pytest.mark.parametrize("level", [0.01, 0.05, 0.1])
def test_critical_value_and_pvalue_give_one_verdict(n_boot, level):
    """T > critical value exactly when (1 + #{T_b >= T}) / (B + 1) < level, for every T,
    ties with replicates included, and the p-value is never 0."""
    x1, x2 = private_pair(korea_p(10), korea_p(10), 10_000, 1.0, 1.0, np.random.default_rng(3))
    res = parametric_bootstrap_test(x1, x2, 1.0, 1.0, n_boot=n_boot, rng=1)
    null = np.sort(res.null_distribution)
    crit = res.critical_value(level)
    candidates = np.concatenate([null, np.nextafter(null, np.inf), np.nextafter(null, -np.inf),
                                 [null[0] - 1, null[-1] + 1, crit]])
    pvals = homogeneity.monte_carlo_pvalue(np.broadcast_to(null, (candidates.size, n_boot)),
                                           candidates)
    np.testing.assert_array_equal(candidates > crit, pvals < level)
    assert pvals.min() == 1 / (n_boot + 1) > 0
    # A direct count of the largest admissible number of replicates >= T.
    limit = max((c for c in range(n_boot + 1) if (1 + c) / (n_boot + 1) < level), default=-1)
    assert homogeneity.rejection_limit(n_boot, level) == limit
    if limit >= 0:
        assert crit == null[n_boot - 1 - limit]
    with pytest.raises(ValueError, match="`level`"):
        res.critical_value(1.5)


def test_too_few_replicates_can_never_reject():
    # (1 + c) / (B + 1) >= 1/20 for every c when B = 18.
    x1, x2 = private_pair(korea_p(10), korea_p(10), 10_000, 1.0, 1.0, np.random.default_rng(3))
    res = parametric_bootstrap_test(x1, x2, 1.0, 1.0, n_boot=18, rng=1)
    assert res.critical_value(0.05) == np.inf
    assert not res.rejects(0.05)


def test_pvalue_is_never_zero_on_a_large_difference():
    # Korea vs USA, 5-year groups, N = 10^5 each, alpha = 1: no replicate reaches T.
    p_us = datasets.proportions(datasets.age_histogram("usa", 5).to_numpy())
    res = sample_and_test(korea_p(5), p_us, 100_000, 100_000, 1.0, 1.0, n_boot=500, rng=1)
    boot = res.bootstrap
    assert boot.pvalue_source == 0.0
    assert boot.below_resolution
    assert boot.pvalue == 1 / 501
    assert boot.rejects(0.05) and boot.statistic > boot.critical_value(0.05)


# --------------------------------------------------------------------------- end to end


def test_release_and_test_streams_are_independent():
    c1 = np.array([500.0, 800.0, 300.0, 50.0])
    c2 = np.array([450.0, 820.0, 310.0, 40.0])
    a = release_and_test(c1, c2, 0.1, 0.1, n_boot=200, rng=5)
    b = release_and_test(c1, c2, 1.0, 0.1, n_boot=200, rng=5)
    c = release_and_test(c1, c2, 0.1, 0.1, n_boot=500, rng=5)
    np.testing.assert_array_equal(a.private2, b.private2)  # alpha_1 does not touch B
    both = (a.private1 > 0) & (b.private1 > 0)
    np.testing.assert_allclose((a.private1 - c1)[both], 10 * (b.private1 - c1)[both])
    np.testing.assert_array_equal(a.private1, c.private1)  # B does not touch the release
    assert a.naive.statistic == c.naive.statistic


def test_release_and_test_private_input_passes_through():
    x1, x2 = np.array([500.5, 800.0, 0.0]), np.array([400.0, 790.0, 12.0])
    res = release_and_test(x1, x2, 0.5, 0.5, n_boot=100, private=True, rng=1)
    assert res.original1 is None
    np.testing.assert_array_equal(res.private1, x1)
    assert "N_A" not in set(res.summary_table()["quantity"])


def test_sample_and_test_tables_and_reproducibility():
    p = korea_p(10)
    a = sample_and_test(p, p, 3000, 4000, 0.5, 0.5, n_boot=100, rng=11)
    b = sample_and_test(p, p, 3000, 4000, 0.5, 0.5, n_boot=100, rng=11)
    assert a.original1.sum() == 3000 and a.original2.sum() == 4000
    np.testing.assert_array_equal(a.private1, b.private1)
    np.testing.assert_array_equal(a.bootstrap.null_distribution, b.bootstrap.null_distribution)
    c = sample_and_test(p, p, 3000, 9000, 0.5, 0.5, n_boot=100, rng=11)
    np.testing.assert_array_equal(a.original1, c.original1)  # N_B does not change A
    table = a.histogram_table(datasets.age_bin_labels(10))
    assert list(table.index) == datasets.age_bin_labels(10)
    np.testing.assert_array_equal(table["original_A"], a.original1)
    np.testing.assert_array_equal(table["private_B"], a.private2)
    summary = dict(zip(*a.summary_table().to_dict("list").values()))
    assert summary["bootstrap_pvalue"] == a.bootstrap.pvalue
    assert summary["chisq_df"] == 8
    fixed = np.array([10.0, 20, 30, 40, 50, 60, 70, 80, 90])
    d = sample_and_test(fixed, p, None, 1000, 0.5, 0.5, n_boot=100, rng=1)
    np.testing.assert_array_equal(d.original1, fixed)


def test_degenerate_comparison_reports_instead_of_raising():
    # Every private count of A is at or below 1/alpha = 1000, so N-hat_A = 0.
    res = release_and_test([0.0, 0.0, 1.0], [4000.0, 3000.0, 2000.0], 0.001, 1.0, n_boot=50,
                           private=True, rng=2)
    assert res.bootstrap is None and "Histogram A" in str(res.bootstrap_error)
    assert res.estimate.n1_hat == 0


# --------------------------------------------------------------------------- normal-score test


@pytest.mark.parametrize("alpha", [1.0, 0.1, 0.01])
@pytest.mark.parametrize("c", [0.0, 3.0, 40.0, 900.0])
def test_noisy_count_variance_matches_numerical_integration(c, alpha):
    b = 2 / alpha
    dens = stats.laplace(scale=b).pdf
    # Split at the density's peak z = 0 so that quad sees its mass at any c.
    first = sum(integrate.quad(lambda z: (c + z) * dens(z), lo, hi)[0]
                for lo, hi in ((-c, 0.0), (0.0, np.inf)))
    second = sum(integrate.quad(lambda z: (c + z) ** 2 * dens(z), lo, hi)[0]
                 for lo, hi in ((-c, 0.0), (0.0, np.inf)))
    ref = second - first ** 2
    assert homogeneity.noisy_count_variance(c, alpha) == pytest.approx(ref, rel=1e-7)


def test_noisy_count_variance_limits_and_monte_carlo():
    b = 2 / 0.1
    assert homogeneity.noisy_count_variance(0.0, 0.1) == pytest.approx(0.75 * b * b)
    assert homogeneity.noisy_count_variance(1e4, 0.1) == pytest.approx(2 * b * b)
    n = 400_000
    x = perturb_histogram(np.full(n, 12.0), 0.1, rng=np.random.default_rng(5))
    # The sample variance's standard error is about var * sqrt(2 / n) (kurtosis of a
    # truncated Laplace is moderate; 5 standard errors leave room for it).
    v = homogeneity.noisy_count_variance(12.0, 0.1)
    assert abs(x.var() - v) < 5 * v * np.sqrt(2 / n) * 2


@pytest.mark.parametrize("alpha", [1.0, 0.1, 0.01])
def test_moment_total_solves_its_equation(alpha):
    rng = np.random.default_rng(9)
    p0 = korea_p(5)
    for n_true in (0, 300, 5_000, 2_000_000):
        x = perturb_histogram(rng.multinomial(n_true, p0), alpha, rng=rng)
        n = homogeneity.moment_total(x, p0, alpha)
        if x.sum() <= p0.size / alpha:
            assert n == 0
        else:
            expected = expected_noisy_count(n * p0, alpha).sum()
            assert expected == pytest.approx(x.sum(), rel=1e-9)
            # Independent root finder on the same equation.
            ref = optimize.brentq(
                lambda t: expected_noisy_count(t * p0, alpha).sum() - x.sum(), 0, x.sum())
            assert n == pytest.approx(ref, rel=1e-8, abs=1e-6)


def test_moment_total_is_unbiased_where_algorithm_1_is_not():
    # Issue measurement: M = 86, alpha = 0.01, N = 1,000: Algorithm 1's N-hat has median
    # about 7,100. The moment total's mean is close to N (it is truncated at 0, which
    # only raises the mean), while Algorithm 1's median is several times N.
    rng = np.random.default_rng(10)
    p0, reps = korea_p(1), 2000
    c = rng.multinomial(1000, p0, size=reps)
    x = perturb_histogram(c, 0.01, rng=rng)
    ours = homogeneity.moment_total(x, p0, 0.01)
    theirs = estimate_null(x, x, 0.01, 0.01).n1_hat
    assert np.median(theirs) > 5 * 1000
    assert abs(np.median(ours) - 1000) < 1000


def test_contrast_statistic_is_pearsons_without_noise():
    rng = np.random.default_rng(11)
    for m, n1, n2 in ((2, 300, 900), (9, 5_000, 20_000), (86, 100_000, 1_000_000)):
        p = np.full(m, 1 / m)
        c1, c2 = rng.multinomial(n1, p) + 1.0, rng.multinomial(n2, p) + 1.0
        t = homogeneity.contrast_statistic(c1, c2, 1e9, 1e9)
        assert t == pytest.approx(chisq_statistic(c1, c2), rel=1e-9)
        ref = stats.chi2_contingency(np.vstack([c1, c2]), correction=False).statistic
        assert t == pytest.approx(ref, rel=1e-9)


def test_contrast_statistic_is_its_formula():
    """T written out from the docstring with the public estimators, term by term."""
    rng = np.random.default_rng(12)
    p = korea_p(10)
    x1, x2 = private_pair(p, p, 50_000, 0.1, 0.02, rng)
    p0 = homogeneity.pooled_proportions(x1, x2, 0.1, 0.02)
    terms = []
    for x, alpha in ((x1, 0.1), (x2, 0.02)):
        n = homogeneity.moment_total(x, p0, alpha)
        lam = n * p0
        slope = n * (1 - 0.5 * np.exp(-alpha * lam / 2))
        var = homogeneity.noisy_count_variance(lam, alpha) + (slope / n) ** 2 * lam
        terms.append((homogeneity.normal_scores(x, lam, alpha), slope / np.sqrt(var)))
    (z1, a1), (z2, a2) = terms
    ref = np.sum((a2 * z1 - a1 * z2) ** 2 / (a1 ** 2 + a2 ** 2))
    assert homogeneity.contrast_statistic(x1, x2, 0.1, 0.02) == pytest.approx(ref, rel=1e-9)


@pytest.mark.parametrize("sigma, b, w", [(0.0, 20.0, -5.0), (3.0, 20.0, -5.0), (30.0, 2.0, -40.0),
                                         (300.0, 2.0, -10.0), (1.0, 200.0, -300.0),
                                         (12.0, 10.0, 0.0)])
def test_gauss_laplace_cdf_matches_numerical_convolution(sigma, b, w):
    f = homogeneity._gauss_laplace_cdf(np.array([w]), np.array([sigma]), b)[0]
    if sigma == 0:
        ref = stats.laplace(scale=b).cdf(w)
    else:
        ref, _ = integrate.quad(lambda g: stats.laplace(scale=b).cdf(w - g)
                                * stats.norm(scale=sigma).pdf(g), -40 * sigma, 40 * sigma,
                                points=[w], limit=200)
    assert float(f) == pytest.approx(ref, rel=1e-9)


@pytest.mark.parametrize("lam, alpha", [(0.0, 0.01), (12.0, 0.1), (40.0, 0.01), (500.0, 1.0),
                                        (3.0, 1.0)])
def test_normal_scores_have_mean_0_and_variance_1(lam, alpha):
    """Under the model the scores are standardised: mean 0, variance 1 (Monte Carlo,
    4 standard errors), and where there is no atom at 0 they are N(0, 1)."""
    rng = np.random.default_rng(14)
    n = 200_000
    c = rng.poisson(lam, size=n) if lam > 30 else rng.normal(lam, np.sqrt(lam), size=n)
    x = perturb_histogram(c if lam > 30 else c, alpha, rng=rng) if lam > 30 else \
        np.maximum(c + (2 / alpha) * rng.laplace(size=n), 0.0)
    z = homogeneity.normal_scores(x, np.full(n, lam), alpha)
    assert abs(z.mean()) < 4 / np.sqrt(n)
    assert abs(z.var() - 1) < 4 * np.sqrt(2 / n) * 1.5
    if lam == 500.0:
        assert stats.kstest(z[:20_000], "norm").pvalue > 0.001


def test_normal_scores_without_noise_are_pearson_residuals():
    x = np.array([90.0, 100.0, 130.0, 5000.0])
    lam = np.array([100.0, 100.0, 100.0, 4900.0])
    np.testing.assert_allclose(homogeneity.normal_scores(x, lam, 1e9), (x - lam) / np.sqrt(lam),
                               rtol=1e-9)


def test_pooled_proportions_weights():
    p = korea_p(10)
    # One histogram all below 1/alpha: weight 0, p0-hat is the other's proportions.
    x1 = np.full(p.size, 0.5)
    x2 = 1e6 * p
    np.testing.assert_allclose(homogeneity.pooled_proportions(x1, x2, 1.0, 10.0),
                               debias_counts(x2, 10.0) / debias_counts(x2, 10.0).sum())
    np.testing.assert_allclose(homogeneity.pooled_proportions(x1, x1, 1.0, 1.0),
                               np.full(p.size, 1 / p.size))
    both = homogeneity.pooled_proportions(np.vstack([x2, x2]), np.vstack([x2, x2]), 1.0, 1.0)
    assert both.shape == (2, p.size)
    np.testing.assert_allclose(both.sum(axis=-1), 1.0)


def test_normal_score_test_same_seed_same_result_and_defined_everywhere():
    x1, x2 = private_pair(korea_p(5), korea_p(5), 20_000, 0.1, 0.1, np.random.default_rng(1))
    a = homogeneity.normal_score_test(x1, x2, 0.1, 0.1, n_boot=300, rng=99)
    b = homogeneity.normal_score_test(x1, x2, 0.1, 0.1, n_boot=300, rng=99)
    np.testing.assert_array_equal(a.null_distribution, b.null_distribution)
    assert a.test == "normal_score" and a.pvalue == b.pvalue
    assert a.pvalue == (1 + np.sum(a.null_distribution >= a.statistic)) / 301
    assert a.statistic == pytest.approx(homogeneity.contrast_statistic(x1, x2, 0.1, 0.1))
    # Where Algorithm 1 has no null (N-hat = 0), the normal-score test simulates pure noise.
    pure = homogeneity.normal_score_test([3.0, 0.0, 1.0], [0.0, 2.0, 0.0], 0.1, 0.1,
                                                   n_boot=200, rng=1)
    assert pure.n1_hat == pure.n2_hat == 0
    assert 0 < pure.pvalue <= 1
    with pytest.raises(DegenerateNullError):
        parametric_bootstrap_test([3.0, 0.0, 1.0], [0.0, 2.0, 0.0], 0.1, 0.1)


def test_normal_score_null_replicates_are_the_statistic_of_released_draws():
    """The batched replicates against a literal loop: draw, release, recompute."""
    rng = np.random.default_rng(13)
    p = korea_p(10)
    x1, x2 = private_pair(p, p, 3_000, 0.5, 0.05, rng)
    ours = homogeneity.normal_score_test(x1, x2, 0.5, 0.05, n_boot=3000,
                                                  rng=3).null_distribution
    est = homogeneity.normal_score_test(x1, x2, 0.5, 0.05, n_boot=1, rng=3).estimate
    loop_rng = np.random.default_rng(4)
    ref = []
    for _ in range(1500):
        y1 = perturb_histogram(loop_rng.multinomial(est.n1_hat, est.p0_hat), 0.5, rng=loop_rng)
        y2 = perturb_histogram(loop_rng.multinomial(est.n2_hat, est.p0_hat), 0.05, rng=loop_rng)
        ref.append(homogeneity.contrast_statistic(y1, y2, 0.5, 0.05))
    ref = np.array(ref)
    assert stats.ks_2samp(ours, ref).pvalue > 0.001


def null_rejection_rate(test, m, alphas, sizes, reps, n_boot, seed):
    rng = np.random.default_rng(seed)
    p = korea_p({9: 10, 18: 5, 86: 1}[m])
    x1 = perturb_histogram(rng.multinomial(sizes[0], p, size=reps), alphas[0], rng=rng)
    x2 = perturb_histogram(rng.multinomial(sizes[1], p, size=reps), alphas[1], rng=rng)
    run = homogeneity.BOOTSTRAP_TESTS[test]
    rejected = 0
    for r in range(reps):
        try:
            rejected += run(x1[r], x2[r], *alphas, n_boot=n_boot, rng=rng).rejects(0.05)
        except DegenerateNullError:
            pass
    return rejected


def test_normal_score_test_keeps_its_level_where_algorithm_1_does_not():
    """M = 9, alpha = 0.01 for both, N = (1,000, 10,000): Algorithm 1's size is about 0.02
    (R = 1000 in the shipped extended grid); the normal-score test's is 0.05. The bounds
    are binomial: 0.05 +- 3.5 standard errors, and Algorithm 1 below 0.05 - 3.5 SE."""
    reps = 1500
    se = np.sqrt(0.05 * 0.95 / reps)
    ours = null_rejection_rate("normal_score", 9, (0.01, 0.01), (1000, 10_000), reps, 199, 21)
    assert abs(ours / reps - 0.05) < 3.5 * se, ours / reps
    theirs = null_rejection_rate("bootstrap", 9, (0.01, 0.01), (1000, 10_000), reps, 199, 21)
    assert theirs / reps < 0.05 - 3.5 * se, theirs / reps


# ---------------------------------------------------------------------------
# The calibrated normal-score test: fast double bootstrap
# ---------------------------------------------------------------------------


def _fdb_by_hand(null, second, t):
    """[DM07] eq. (10) in the never-0 form, one test at a time with numpy's quantile."""
    b = len(null)
    p_single = (1 + np.sum(null >= t)) / (b + 1)
    q = np.quantile(second, 1 - p_single)
    return (1 + np.sum(null >= q)) / (b + 1)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 300), st.floats(0.001, 0.5), st.integers(0, 2**32 - 1))
def test_fast_double_pvalue_matches_a_direct_computation_and_its_critical_value(b, level,
                                                                                 seed):
    rng = np.random.default_rng(seed)
    null = rng.gamma(3.0, size=b)
    second = rng.gamma(3.0, size=b) * rng.uniform(0.5, 2.0)
    ts = np.concatenate([rng.gamma(3.0, size=5) * rng.uniform(0.5, 3.0), null[:3]])
    got = homogeneity.fast_double_pvalue(np.tile(null, (ts.size, 1)),
                                         np.tile(second, (ts.size, 1)), ts)
    crit = homogeneity._fdb_critical_value(null, second, level)
    for t, p in zip(ts, got):
        assert p == pytest.approx(_fdb_by_hand(null, second, t), abs=1e-12)
        assert 1 / (b + 1) <= p <= 1
        assert (p < level) == (t > crit)


def test_fast_double_pvalue_moves_with_the_second_levels_tail():
    null = np.arange(1.0, 200.0)
    t = 190.5  # p* = 10 / 200
    same = homogeneity.fast_double_pvalue(null, null, t)
    assert same == pytest.approx(0.05, abs=0.01)
    assert homogeneity.fast_double_pvalue(null, null * 0.8, t) > same  # bootstrap too light
    assert homogeneity.fast_double_pvalue(null, null * 1.2, t) < same  # too heavy


def test_calibrated_test_shares_the_normal_score_tests_first_level():
    x1, x2 = [30, 4, 12, 55, 8], [25, 15, 9, 70, 3]
    single = homogeneity.normal_score_test(x1, x2, 0.1, 0.5, n_boot=200, rng=7)
    cal = homogeneity.calibrated_test(x1, x2, 0.1, 0.5, n_boot=200, rng=7)
    np.testing.assert_array_equal(cal.null_distribution, single.null_distribution)
    assert cal.statistic == single.statistic and cal.pvalue_single == single.pvalue
    assert cal.pvalue == homogeneity.fast_double_pvalue(cal.null_distribution,
                                                        cal.second_level, cal.statistic)
    again = homogeneity.calibrated_test(x1, x2, 0.1, 0.5, n_boot=200, rng=7)
    np.testing.assert_array_equal(again.second_level, cal.second_level)
    res = homogeneity.release_and_test(x1, x2, 0.1, 0.5, n_boot=200, private=True, rng=3)
    assert res.calibrated.pvalue_single == res.normal_score.pvalue
    np.testing.assert_array_equal(res.calibrated.null_distribution,
                                  res.normal_score.null_distribution)


def test_second_level_is_drawn_from_the_null_reestimated_on_each_replicate():
    """With the second level's draws made from the first level's own estimates, the
    second level is another sample of the same kind: at a setting where the single
    bootstrap is accurate (little noise), T** and T* agree in distribution."""
    x = np.full(6, 2000.0)
    t, est = homogeneity.normal_score_estimates(x, x, 5.0, 5.0)
    null, second = homogeneity.calibrated_null([[est.n1_hat, est.n2_hat]], [est.p0_hat],
                                               5.0, 5.0, n_boot=4000, rng=11)
    assert null.shape == second.shape == (1, 4000)
    # Both near chi-square with M - 1 = 5 df; a two-sample KS test at 0.1%.
    assert stats.ks_2samp(null[0], second[0]).pvalue > 1e-3
    assert stats.kstest(second[0], stats.chi2(5).cdf).pvalue > 1e-3


def test_pooled_proportions_never_exceed_1_and_every_test_runs_there():
    """One bin holding all the debiased mass used to be pooled as 1 + 2^-52, which
    numpy's multinomial refuses ("pvals < 0, pvals > 1 or pvals contains NaNs"): the
    normal-score test and the comparison raised that English message (found on the compare
    page in a Korean view)."""
    x1, x2 = [0.0, 1486.0382013541457], [0.0, 2940.5256337993337]
    assert homogeneity.pooled_proportions(x1, x2, 0.001, 0.001).max() <= 1.0
    homogeneity.normal_score_test(x1, x2, 0.001, 0.001, n_boot=50, rng=1)
    homogeneity.calibrated_test(x1, x2, 0.001, 0.001, n_boot=50, rng=1)
    res = homogeneity.release_and_test(x1, x2, 0.001, 0.001, n_boot=50, private=True, rng=1)
    assert 0 < res.calibrated.pvalue <= 1
    rng = np.random.default_rng(0)
    x = np.maximum(0, rng.laplace(0, 2000, size=(20_000, 2, 2)) + [0.0, 3498.0])
    p = homogeneity.pooled_proportions(x[:, 0], x[:, 1], 0.001, 0.001)
    assert p.max() <= 1.0 and np.allclose(p.sum(axis=-1), 1.0)
