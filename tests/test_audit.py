"""Tests of dpcore.audit: the attacker's threshold test, simulated audits, gdp_epsilon.

Expected values come from scipy.stats (normal and Laplace laws), from the
definitions of the mechanisms, and from root finding written out here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

from dpcore import audit, fdp

ALPHA = np.linspace(0.0, 1.0, 1000)


# ---------------------------------------------------------------------------
# threshold_test and densities
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("t", [-3.0, 0.0, 0.4, 1.65, 7.0])
@pytest.mark.parametrize("shift", [0.0, 0.5, 2.0])
def test_threshold_test_gaussian(t, shift):
    alpha, beta = audit.threshold_test("gaussian", shift, t)
    assert alpha == pytest.approx(stats.norm.sf(t), abs=1e-15)
    assert beta == pytest.approx(stats.norm.cdf(t, loc=shift), abs=1e-15)
    # The threshold test is optimal: its point lies on G_mu.
    assert beta == pytest.approx(float(fdp.gdp_tradeoff(alpha, shift)), abs=1e-9)


@pytest.mark.parametrize("t", [-3.0, 0.0, 0.3, 1.0, 4.0])
@pytest.mark.parametrize("shift", [0.0, 0.7, 2.0])
def test_threshold_test_laplace_lies_on_the_laplace_curve(t, shift):
    alpha, beta = audit.threshold_test("laplace", shift, t)
    assert alpha == pytest.approx(stats.laplace.sf(t), abs=1e-15)
    assert beta == pytest.approx(stats.laplace.cdf(t, loc=shift), abs=1e-15)
    assert beta == pytest.approx(float(fdp.laplace_tradeoff(alpha, shift)), abs=1e-9)


def test_threshold_test_is_vectorised_and_monotone():
    t = np.linspace(-4, 6, 50)
    alpha, beta = audit.threshold_test("gaussian", 1.0, t)
    assert alpha.shape == beta.shape == t.shape
    assert np.all(np.diff(alpha) < 0) and np.all(np.diff(beta) > 0)


def test_densities():
    x = np.linspace(-5, 5, 11)
    p0, p1 = audit.densities("gaussian", 1.5, x)
    np.testing.assert_allclose(p0, stats.norm.pdf(x))
    np.testing.assert_allclose(p1, stats.norm.pdf(x, loc=1.5))
    p0, p1 = audit.densities("laplace", 2.0, x)
    np.testing.assert_allclose(p0, 0.5 * np.exp(-np.abs(x)))
    np.testing.assert_allclose(p1, 0.5 * np.exp(-np.abs(x - 2.0)))


@pytest.mark.parametrize("call, name", [
    (lambda: audit.threshold_test("cauchy", 1.0, 0.0), "family"),
    (lambda: audit.threshold_test("gaussian", -1.0, 0.0), "shift"),
    (lambda: audit.threshold_test("gaussian", float("inf"), 0.0), "shift"),
    (lambda: audit.threshold_test("gaussian", "a", 0.0), "shift"),
    (lambda: audit.threshold_test("gaussian", 1.0, float("nan")), "threshold"),
    (lambda: audit.densities("uniform", 1.0, [0.0]), "family"),
])
def test_threshold_test_rejects_bad_arguments(call, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        call()


# ---------------------------------------------------------------------------
# audit_samples
# ---------------------------------------------------------------------------

def test_gaussian_samples_have_the_right_laws():
    reps = 50_000
    s0, s1 = audit.audit_samples("gaussian", {"sigma": 2.0, "sensitivity": 3.0}, reps, rng=1)
    assert s0.shape == s1.shape == (reps,)
    se = 2.0 / math.sqrt(reps)
    assert abs(s0.mean()) < 5 * se
    assert abs(s1.mean() - 3.0) < 5 * se
    assert s0.std() == pytest.approx(2.0, rel=0.02)
    assert stats.kstest(s1, stats.norm(3.0, 2.0).cdf).pvalue > 1e-4


def test_laplace_samples_have_the_right_laws():
    reps = 50_000
    s0, s1 = audit.audit_samples("laplace", {"b": 0.5}, reps, rng=2)
    assert stats.kstest(s0, stats.laplace(0.0, 0.5).cdf).pvalue > 1e-4
    assert stats.kstest(s1, stats.laplace(1.0, 0.5).cdf).pvalue > 1e-4  # default sensitivity 1


@pytest.mark.parametrize("eps, k", [(1.0, 4), (0.0, 3), (3.0, 2), (50.0, 5)])
def test_krr_samples_have_the_right_frequencies(eps, k):
    reps = 40_000
    s0, s1 = audit.audit_samples("krr", {"eps": eps, "k": k}, reps, rng=3)
    p_true = math.exp(eps) / (math.exp(eps) + k - 1)
    p_other = (1 - p_true) / (k - 1)
    for truth, s in ((0, s0), (1, s1)):
        assert set(np.unique(s)) <= set(range(k))
        freq = np.bincount(s.astype(int), minlength=k) / reps
        expected = np.full(k, p_other)
        expected[truth] = p_true
        se = np.sqrt(expected * (1 - expected) / reps)
        assert np.all(np.abs(freq - expected) <= 5 * se + 1e-12), (freq, expected)


def test_same_seed_same_samples_and_generators_accepted():
    a = audit.audit_samples("gaussian", {"sigma": 1.0}, 100, rng=7)
    b = audit.audit_samples("gaussian", {"sigma": 1.0}, 100, rng=7)
    c = audit.audit_samples("gaussian", {"sigma": 1.0}, 100, rng=np.random.default_rng(7))
    d = audit.audit_samples("gaussian", {"sigma": 1.0}, 100, rng=8)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    for x, y in zip(a, c):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], d[0])
    # rng=None draws fresh numbers
    assert audit.audit_samples("laplace", {"b": 1.0}, 10)[0].shape == (10,)


def test_empirical_curve_of_the_samples_approaches_the_exact_curve():
    s0, s1 = audit.audit_samples("gaussian", {"sigma": 1.0}, 100_000, rng=11)
    ea, eb = fdp.empirical_tradeoff(s0, s1)
    exact = fdp.gdp_tradeoff(ea, 1.0)
    # Kolmogorov-type bound: each error rate is within a few 1/sqrt(R) of its law.
    assert np.max(np.abs(eb - exact)) < 0.02


@pytest.mark.parametrize("mechanism, params, reps, name", [
    ("exponential", {"sigma": 1.0}, 10, "mechanism"),
    ("gaussian", [1.0], 10, "params"),
    ("gaussian", {}, 10, "sigma"),
    ("gaussian", {"sigma": 0.0}, 10, "sigma"),
    ("gaussian", {"sigma": float("nan")}, 10, "sigma"),
    ("gaussian", {"sigma": 1.0, "sensitivity": -1.0}, 10, "sensitivity"),
    ("gaussian", {"sigma": 1.0, "b": 1.0}, 10, "params"),
    ("laplace", {"b": "wide"}, 10, "b"),
    ("krr", {"eps": 1.0}, 10, "k"),
    ("krr", {"eps": -1.0, "k": 3}, 10, "eps"),
    ("krr", {"eps": float("inf"), "k": 3}, 10, "eps"),
    ("krr", {"eps": 1.0, "k": 1}, 10, "k"),
    ("krr", {"eps": 1.0, "k": 2.5}, 10, "k"),
    ("krr", {"eps": 1.0, "k": audit.MAX_KRR_K + 1}, 10, "k"),
    ("gaussian", {"sigma": 1.0}, 0, "reps"),
    ("gaussian", {"sigma": 1.0}, 10.0, "reps"),
    ("gaussian", {"sigma": 1.0}, audit.MAX_REPS + 1, "reps"),
])
def test_audit_samples_rejects_bad_arguments(mechanism, params, reps, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        audit.audit_samples(mechanism, params, reps, rng=0)


def test_reps_cap_is_100000():
    assert audit.MAX_REPS == 100_000
    s0, s1 = audit.audit_samples("krr", {"eps": 1.0, "k": 3}, audit.MAX_REPS, rng=0)
    assert s0.size == s1.size == 100_000


def test_rng_is_keyword_only():
    with pytest.raises(TypeError):
        audit.audit_samples("gaussian", {"sigma": 1.0}, 10, 0)


# ---------------------------------------------------------------------------
# beta_hat_sd and krr_beta_hat_sd: the spread of the auditor's estimate
# ---------------------------------------------------------------------------

LEVELS = np.array([0.01, 0.05, 0.1, 0.25, 0.5])  # the f-DP page's auditor levels


def repeated_audits(mechanism, params, reps, repeats, seed):
    """beta-hat at LEVELS from `repeats` independent audits, as the page makes one: the
    empirical curve of `reps` outputs on each input, read at each level."""
    rng = np.random.default_rng(seed)
    return np.array([fdp.curve_at(*fdp.empirical_tradeoff(
        *audit.audit_samples(mechanism, params, reps, rng=rng)), LEVELS)
        for _ in range(repeats)])


@pytest.mark.parametrize("mechanism, params, curve, slope, old_fails", [
    ("gaussian", {"sigma": 1.0}, lambda a: fdp.gdp_tradeoff(a, 1.0),
     lambda a: fdp.gdp_slope(a, 1.0), LEVELS),
    ("laplace", {"b": 1.0}, lambda a: fdp.laplace_tradeoff(a, 1.0),
     lambda a: fdp.laplace_slope(a, 1.0), LEVELS[:4]),  # at 0.5 the slope is -1/e: small
], ids=["gaussian", "laplace"])
def test_beta_hat_sd_is_the_spread_of_repeated_audits(mechanism, params, curve, slope,
                                                      old_fails):
    """K = 1,000 audits of R = 10,000 draws: the empirical sd of beta-hat has a relative
    standard error of about 1/sqrt(2K) = 2.2 %; the delta method lies within 4 of them of it,
    and the old sqrt(beta(1 - beta)/R), which ignores the estimated alpha, does not."""
    reps, repeats = 10_000, 1000
    measured = repeated_audits(mechanism, params, reps, repeats, seed=2022).std(axis=0, ddof=1)
    beta = curve(LEVELS)
    formula = audit.beta_hat_sd(LEVELS, beta, slope(LEVELS), reps)
    old = np.sqrt(beta * (1 - beta) / reps)
    tol = 4 / np.sqrt(2 * repeats)
    print(f"\n{mechanism}: measured {np.round(measured, 4)}, formula {np.round(formula, 4)}, "
          f"old {np.round(old, 4)}")
    np.testing.assert_array_less(np.abs(measured / formula - 1), tol)
    ratio_old = measured[np.isin(LEVELS, old_fails)] / old[np.isin(LEVELS, old_fails)]
    assert np.all(np.abs(ratio_old - 1) > tol), ratio_old  # the check can fail


def test_beta_hat_sd_closed_form_and_sample_sizes():
    # sqrt(beta(1 - beta)/R1 + f'^2 alpha(1 - alpha)/R0), written out
    got = audit.beta_hat_sd(0.05, 0.3, -2.0, 1000, reps1=4000)
    assert got == pytest.approx(math.sqrt(0.3 * 0.7 / 4000 + 4 * 0.05 * 0.95 / 1000), rel=1e-14)
    assert audit.beta_hat_sd(0.05, 0.3, -2.0, 1000) == pytest.approx(
        math.sqrt((0.21 + 4 * 0.0475) / 1000), rel=1e-14)
    # a flat curve leaves only the binomial error of beta-hat
    assert audit.beta_hat_sd(0.2, 0.5, 0.0, 100) == pytest.approx(0.05, rel=1e-14)
    np.testing.assert_allclose(audit.beta_hat_sd(LEVELS, 0.5, -1.0, 100).shape, (5,))


def test_krr_beta_hat_sd_matches_full_audits():
    """Simulated counts (one multinomial pair per audit) give the spread of audits that draw
    every output: two independent estimates of one sd, each with relative standard error
    1/sqrt(2K), agree within 4 standard errors of their ratio."""
    eps, k, reps, repeats = 1.0, 4, 2000, 1000
    full = repeated_audits("krr", {"eps": eps, "k": k}, reps, repeats, seed=7).std(axis=0,
                                                                                  ddof=1)
    counts = audit.krr_beta_hat_sd(eps, k, reps, LEVELS, repeats=repeats, rng=8)
    print(f"\nk-RR: full audits {np.round(full, 4)}, counts {np.round(counts, 4)}")
    np.testing.assert_array_less(np.abs(full / counts - 1), 4 * np.sqrt(2 / (2 * repeats)))
    # seeded: the same seed gives the same spread
    again = audit.krr_beta_hat_sd(eps, k, reps, LEVELS, repeats=repeats, rng=8)
    np.testing.assert_array_equal(counts, again)
    assert np.shape(audit.krr_beta_hat_sd(eps, k, reps, 0.1, repeats=10, rng=0)) == ()


@pytest.mark.parametrize("call, name", [
    (lambda: audit.beta_hat_sd(1.5, 0.5, -1.0, 10), "alpha"),
    (lambda: audit.beta_hat_sd(0.5, -0.1, -1.0, 10), "beta"),
    (lambda: audit.beta_hat_sd(0.5, 0.5, 1.0, 10), "slope"),
    (lambda: audit.beta_hat_sd(0.5, 0.5, np.nan, 10), "slope"),
    (lambda: audit.beta_hat_sd(0.5, 0.5, -1.0, 0), "reps"),
    (lambda: audit.beta_hat_sd(0.5, 0.5, -1.0, 10, reps1=2.5), "reps1"),
    (lambda: audit.krr_beta_hat_sd(1.0, 1, 10, 0.1), "k"),
    (lambda: audit.krr_beta_hat_sd(-1.0, 3, 10, 0.1), "eps"),
    (lambda: audit.krr_beta_hat_sd(1.0, 3, audit.MAX_REPS + 1, 0.1), "reps"),
    (lambda: audit.krr_beta_hat_sd(1.0, 3, 10, 1.1), "alpha"),
    (lambda: audit.krr_beta_hat_sd(1.0, 3, 10, 0.1, repeats=1), "repeats"),
])
def test_spread_functions_reject_bad_arguments(call, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        call()


# ---------------------------------------------------------------------------
# gdp_epsilon
# ---------------------------------------------------------------------------

def _delta(eps, mu):
    """Corollary 2.13 written out with scipy.stats."""
    return stats.norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * stats.norm.cdf(-eps / mu - mu / 2)


@pytest.mark.parametrize("mu, delta", [(0.5, 1e-5), (1.0, 1e-5), (1.0, 1e-3), (2.0, 1e-8),
                                       (5.0, 1e-12), (0.05, 1e-10), (3.0, 0.01)])
def test_gdp_epsilon_inverts_delta(mu, delta):
    eps = fdp.gdp_epsilon(mu, delta)
    assert eps > 0
    assert _delta(eps, mu) == pytest.approx(delta, rel=1e-6)
    expected = optimize.brentq(lambda e: _delta(e, mu) - delta, 0.0, 200.0, xtol=1e-13)
    assert eps == pytest.approx(expected, rel=1e-8)


def test_gdp_epsilon_edge_cases():
    assert fdp.gdp_epsilon(0.0, 0.0) == 0.0
    assert fdp.gdp_epsilon(0.0, 1e-5) == 0.0
    assert fdp.gdp_epsilon(1.0, 0.0) == math.inf
    # delta(0) = 2 Phi(mu/2) - 1: any delta at least that needs no eps at all
    d0 = 2 * stats.norm.cdf(0.25) - 1
    assert fdp.gdp_epsilon(0.5, d0 + 1e-9) == 0.0
    assert fdp.gdp_epsilon(0.5, d0 - 1e-6) > 0.0


def test_gdp_epsilon_agrees_with_the_curve():
    """The exact eps is at least what a dense grid of the curve shows."""
    dense = np.r_[0.0, np.logspace(-14, -1, 4000), np.linspace(0.1, 1.0, 2000)]
    for mu, delta in ((1.0, 1e-5), (0.5, 1e-6)):
        grid_eps = fdp.tightest_epsilon(dense, fdp.gdp_tradeoff(dense, mu), delta)
        exact = fdp.gdp_epsilon(mu, delta)
        assert grid_eps <= exact + 1e-9
        assert grid_eps == pytest.approx(exact, rel=1e-3)


@pytest.mark.parametrize("mu, delta, name", [(-1.0, 0.1, "mu"), (float("nan"), 0.1, "mu"),
                                             ("x", 0.1, "mu"), (1.0, -0.1, "delta"),
                                             (1.0, 1.5, "delta"), (1.0, "y", "delta")])
def test_gdp_epsilon_rejects_bad_arguments(mu, delta, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        fdp.gdp_epsilon(mu, delta)


@pytest.mark.parametrize("family", ["gaussian", "laplace"])
@pytest.mark.parametrize("alpha", [0.001, 0.05, 0.5, 0.9])
def test_threshold_for_alpha_gives_exactly_that_alpha(family, alpha):
    t = audit.threshold_for_alpha(family, alpha)
    assert audit.threshold_test(family, 2.0, t)[0] == pytest.approx(alpha, rel=1e-12)
    with pytest.raises(ValueError, match="alpha"):
        audit.threshold_for_alpha(family, 0.0)
