"""Tests of dpcore.fdp against closed forms, direct numerics and the theorems."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, optimize, stats

from dpcore import fdp

GRID = np.linspace(0.0, 1.0, 2001)


def curves():
    """(name, alpha, beta) of every curve kind, on the grid or as polygon vertices."""
    out = [
        ("G_0.5", GRID, fdp.gdp_tradeoff(GRID, 0.5)),
        ("G_3", GRID, fdp.gdp_tradeoff(GRID, 3.0)),
        ("f_1,0", GRID, fdp.epsdelta_tradeoff(GRID, 1.0)),
        ("f_0.5,0.1", GRID, fdp.epsdelta_tradeoff(GRID, 0.5, 0.1)),
        ("laplace_1", GRID, fdp.laplace_tradeoff(GRID, 1.0)),
        ("laplace_5", GRID, fdp.laplace_tradeoff(GRID, 5.0)),
        ("histogram_0.5", GRID, fdp.laplace_histogram_tradeoff(GRID, 0.5)),
        ("krr_1_2", *fdp.krr_tradeoff(1.0, 2)),
        ("krr_2_10", *fdp.krr_tradeoff(2.0, 10)),
        ("composition", *fdp.composition_epsdp(0.3, 20)),
    ]
    return out


@pytest.mark.parametrize("name, a, b", curves(), ids=[c[0] for c in curves()])
def test_every_curve_is_a_tradeoff_function(name, a, b):
    assert np.all(np.diff(a) >= 0)
    assert np.all(np.diff(b) <= 1e-12), "non-increasing"
    assert np.all(b <= 1 - a + 1e-12), "below Id"
    assert np.all((b >= 0) & (b <= 1))
    # convex: slopes non-decreasing (on distinct alpha)
    da = np.diff(a)
    slopes = np.diff(b)[da > 1e-12] / da[da > 1e-12]
    assert np.all(np.diff(slopes) >= -1e-6 * (1 + np.abs(slopes[1:])))


SYMMETRIC = {
    "G_0.5": lambda a: fdp.gdp_tradeoff(a, 0.5),
    "G_3": lambda a: fdp.gdp_tradeoff(a, 3.0),
    "f_1,0": lambda a: fdp.epsdelta_tradeoff(a, 1.0),
    "laplace_1": lambda a: fdp.laplace_tradeoff(a, 1.0),
    "laplace_5": lambda a: fdp.laplace_tradeoff(a, 5.0),
}


@pytest.mark.parametrize("name", list(SYMMETRIC))
def test_symmetric_curves_are_their_own_inverse(name):
    # Location families symmetric about their midpoint give symmetric T(P, Q):
    # f(f(alpha)) = alpha wherever f is strictly decreasing.
    f = SYMMETRIC[name]
    b = f(GRID)
    inner = (b > 1e-9) & (GRID > 1e-9)
    np.testing.assert_allclose(f(b[inner]), GRID[inner], atol=1e-9)


def test_gdp_is_the_gaussian_test():
    # G_mu(alpha) = P1(X <= t) with t the (1 - alpha) quantile of N(0, 1).
    for mu in (0.3, 1.0, 4.0):
        t = stats.norm.isf(GRID[1:-1])
        np.testing.assert_allclose(fdp.gdp_tradeoff(GRID[1:-1], mu), stats.norm.cdf(t, loc=mu))
    np.testing.assert_array_equal(fdp.gdp_tradeoff(GRID, 0.0), 1 - GRID)
    assert fdp.gdp_tradeoff(0.0, 50.0) == 1.0 and fdp.gdp_tradeoff(1.0, 50.0) == 0.0
    # tiny alpha: 1 - alpha rounds to 1, the tail quantile does not
    tiny = np.array([1e-40, 1e-20, 1e-12])
    for mu in (0.5, 5.0, 50.0):
        np.testing.assert_allclose(fdp.gdp_tradeoff(tiny, mu),
                                   stats.norm.cdf(stats.norm.isf(tiny) - mu), rtol=1e-12)


@pytest.mark.parametrize("name, f, slope", [
    ("G_0.5", lambda a: fdp.gdp_tradeoff(a, 0.5), lambda a: fdp.gdp_slope(a, 0.5)),
    ("G_3", lambda a: fdp.gdp_tradeoff(a, 3.0), lambda a: fdp.gdp_slope(a, 3.0)),
    ("laplace_1", lambda a: fdp.laplace_tradeoff(a, 1.0), lambda a: fdp.laplace_slope(a, 1.0)),
    ("laplace_4", lambda a: fdp.laplace_tradeoff(a, 4.0), lambda a: fdp.laplace_slope(a, 4.0)),
], ids=["G_0.5", "G_3", "laplace_1", "laplace_4"])
def test_slopes_are_the_curves_derivatives(name, f, slope):
    # central differences, away from the Laplace curve's joins (where both sides agree)
    a = np.r_[np.linspace(0.001, 0.999, 999), 0.004, 0.3]
    h = 1e-6
    numeric = (f(a + h) - f(a - h)) / (2 * h)
    np.testing.assert_allclose(slope(a), numeric, rtol=1e-5, atol=1e-9)
    # G_mu' = -phi(z - mu)/phi(z), the ratio of the densities at the test's threshold
    if name.startswith("G"):
        mu = float(name[2:])
        z = stats.norm.isf(a)
        np.testing.assert_allclose(slope(a), -stats.norm.pdf(z - mu) / stats.norm.pdf(z),
                                   rtol=1e-12)
    else:  # Laplace: continuous slope at both joins, e^{-eps}/2 and 1/2
        eps = float(name.split("_")[1])
        for join in (np.exp(-eps) / 2, 0.5):
            below, above = slope(join * (1 - 1e-12)), slope(join * (1 + 1e-12))
            assert below == pytest.approx(above, rel=1e-9)


def test_laplace_curve_is_the_threshold_test():
    eps = 1.3
    ts = np.linspace(-4, 6, 301)
    alpha = stats.laplace.sf(ts)
    beta = stats.laplace.cdf(ts, loc=eps)
    np.testing.assert_allclose(fdp.laplace_tradeoff(alpha, eps), beta, atol=1e-12)


def test_epsdelta_uses_e_to_minus_eps():
    # The source's misprint (e^{+eps} in the last term) would exceed 1 - alpha.
    a = np.array([0.6, 0.8])
    np.testing.assert_allclose(fdp.epsdelta_tradeoff(a, 1.0), np.exp(-1.0) * (1 - a))
    assert fdp.epsdelta_tradeoff(0.0, 50.0) == 1.0


def test_identity():
    np.testing.assert_array_equal(fdp.identity_tradeoff(GRID), 1 - GRID)


def test_group_privacy_of_gdp_is_k_mu():
    for mu, k in ((0.5, 3), (1.0, 2), (0.2, 10)):
        got = fdp.group_tradeoff(lambda x, mu=mu: fdp.gdp_tradeoff(x, mu), k, GRID)
        np.testing.assert_allclose(got, fdp.gdp_tradeoff(GRID, k * mu), atol=1e-12)


def test_group_privacy_of_pure_dp_is_at_least_k_eps():
    # 1 - (1 - f_{eps,0})^{o k} is k eps-DP: above f_{k eps, 0}, equal to it near 0 and 1
    # (where each step multiplies the slope by e^eps), strictly above in between.
    got = fdp.group_tradeoff(lambda x: fdp.epsdelta_tradeoff(x, 0.4), 3, GRID)
    f = fdp.epsdelta_tradeoff(GRID, 1.2)
    assert np.all(got >= f - 1e-12)
    ends = (GRID < 0.1) | (GRID > 0.5)
    np.testing.assert_allclose(got[ends], f[ends], atol=1e-12)
    assert np.max(got - f) > 0.01
    a, b = GRID, got
    assert fdp.tightest_epsilon(a, b) == pytest.approx(1.2, rel=1e-6)


def test_composition_of_gdp():
    # G_mu1 (x) G_mu2 = T(N(0, I), N((mu1, mu2), I)) = G_sqrt(mu1^2 + mu2^2):
    # the likelihood-ratio test on two independent coordinates, integrated numerically.
    mu1, mu2 = 0.8, 1.5
    norm = np.hypot(mu1, mu2)
    for alpha in (0.01, 0.1, 0.5):
        # LLR is linear in (x1, x2): reject when mu1 x1 + mu2 x2 > c, c from alpha.
        c = stats.norm.isf(alpha) * norm
        beta = integrate.quad(
            lambda x1: stats.norm.pdf(x1, mu1) * stats.norm.cdf((c - mu1 * x1) / mu2, mu2),
            -np.inf, np.inf)[0]
        assert beta == pytest.approx(fdp.gdp_tradeoff(alpha, norm), abs=1e-8)


def test_gdp_delta_against_direct_supremum():
    # delta(eps) = sup_alpha [1 - e^eps alpha - G_mu(alpha)] (Corollary 2.13's dual form).
    for mu, eps in ((0.5, 0.2), (1.0, 1.0), (2.0, 3.0)):
        res = optimize.minimize_scalar(
            lambda a: -(1 - np.exp(eps) * a - fdp.gdp_tradeoff(a, mu)),
            bounds=(0, 1), method="bounded", options={"xatol": 1e-12})
        assert fdp.gdp_delta(eps, mu) == pytest.approx(-res.fun, abs=1e-8)


def test_gdp_delta_is_stable_at_extremes():
    assert fdp.gdp_delta(50.0, 1.0) == pytest.approx(0.0, abs=1e-300)
    assert fdp.gdp_delta(0.0, 1.0) == pytest.approx(2 * stats.norm.cdf(0.5) - 1)
    assert fdp.gdp_delta(1.0, 0.0) == 0.0
    assert 0 < fdp.gdp_delta(1.0, 1e-3) < 1e-100 or fdp.gdp_delta(1.0, 1e-3) == 0.0
    assert fdp.gdp_delta(1.0, 40.0) == pytest.approx(1.0, abs=1e-6)
    vals = fdp.gdp_delta(np.linspace(0, 50, 200), 2.0)
    assert np.all(np.diff(vals) <= 1e-15)  # decreasing in eps


@settings(max_examples=40, deadline=None)
@given(mu=st.floats(0.05, 6), eps=st.floats(0, 20))
def test_gdp_implies_eps_delta_on_a_grid(mu, eps):
    delta = float(fdp.gdp_delta(eps, mu))
    g = fdp.gdp_tradeoff(GRID, mu)
    assert np.all(g >= fdp.epsdelta_tradeoff(GRID, eps, min(delta, 1.0)) - 1e-9)


def test_gdp_mu_inverts_gdp_delta():
    for eps, delta in ((1.0, 1e-5), (0.5, 1e-3), (3.0, 1e-10), (0.0, 0.3)):
        mu = fdp.gdp_mu(eps, delta)
        assert fdp.gdp_delta(eps, mu) == pytest.approx(delta, rel=1e-6)
    np.testing.assert_allclose(fdp.gdp_mu([1.0, 2.0], 1e-5),
                               [fdp.gdp_mu(1.0, 1e-5), fdp.gdp_mu(2.0, 1e-5)])
    with pytest.raises(ValueError, match="`delta`"):
        fdp.gdp_mu(1.0, 0.0)


def test_gdp_mu_is_the_largest_mu_with_delta_at_most_the_target():
    # delta(eps) grows with mu, so the mu returned is the largest that meets delta:
    # a little more breaks (eps, delta)-DP, a little less keeps it.
    mus = np.linspace(0.05, 5.0, 400)
    for eps, delta in ((1.0, 1e-5), (0.5, 1e-3), (3.0, 1e-10)):
        deltas = np.array([fdp.gdp_delta(eps, m) for m in mus])
        assert np.all(np.diff(deltas) >= 0)
        mu = fdp.gdp_mu(eps, delta)
        assert fdp.gdp_delta(eps, mu * (1 + 1e-6)) > delta
        assert fdp.gdp_delta(eps, mu * (1 - 1e-6)) < delta
        # the largest grid mu that meets delta lies just below the returned mu
        assert mus[deltas <= delta].max() <= mu < mus[deltas > delta].min()


def test_krr_with_two_categories_is_f_eps_0():
    for eps in (0.1, 1.0, 5.0):
        a, b = fdp.krr_tradeoff(eps, 2)
        np.testing.assert_allclose(
            fdp.tradeoff_on_grid(a, b, GRID), fdp.epsdelta_tradeoff(GRID, eps), atol=1e-12)


@pytest.mark.parametrize("eps, k", [(1.0, 3), (0.5, 10), (3.0, 100)])
def test_krr_above_f_eps_0_touching_at_its_vertices(eps, k):
    a, b = fdp.krr_tradeoff(eps, k)
    curve = fdp.tradeoff_on_grid(a, b, GRID)
    f = fdp.epsdelta_tradeoff(GRID, eps)
    assert np.all(curve >= f - 1e-12)
    assert np.max(curve - f) > 1e-3  # strictly above somewhere
    # touches at its two inner vertices (alpha = q and 1 - q)
    inner = (a > 0) & (a < 1)
    touching = np.isclose(b[inner], fdp.epsdelta_tradeoff(a[inner], eps), atol=1e-12)
    assert touching[0] and touching[-1]
    assert fdp.tightest_epsilon(a, b) == pytest.approx(eps, rel=1e-9)


def test_tradeoff_discrete_by_hand():
    # Outcomes with ratios q/p = 3, 1, 1/3 in that order of rejection.
    a, b = fdp.tradeoff_discrete([0.2, 0.3, 0.5], [0.6, 0.3, 1 / 6 + 1e-12 * 0][:2] + [0.1])
    np.testing.assert_allclose(a, [0, 0.2, 0.5, 1])
    np.testing.assert_allclose(b, [1, 0.4, 0.1, 0])
    # an outcome impossible under P is rejected first at no cost
    a, b = fdp.tradeoff_discrete([0.5, 0.5, 0.0], [0.25, 0.25, 0.5])
    np.testing.assert_allclose(a, [0, 0, 1])
    np.testing.assert_allclose(b, [1, 0.5, 0])
    with pytest.raises(ValueError, match="`p`"):
        fdp.tradeoff_discrete([0.5, 0.6], [0.5, 0.5])


def test_histogram_mechanism_is_two_laplace_shifts():
    # The product of two Laplace shifts of 1 with scale b = 2/level: compare with a
    # Monte Carlo Neyman-Pearson test on the summed log-likelihood ratio.
    level = 0.8
    b = 2 / level
    rng = np.random.default_rng(1)
    n = 400_000

    def llr(x):  # (|x| - |x - 1|)/b, written so that its atoms at -1/b and 1/b are exact
        return np.clip((2 * x - 1) / b, -1 / b, 1 / b).sum(axis=1)

    l0 = llr(rng.laplace(0, b, size=(n, 2)))
    l1 = llr(rng.laplace(1, b, size=(n, 2)))
    for alpha in (0.05, 0.2, 0.5):
        # L has atoms (e.g. at 2/b, when both coordinates exceed 1): the Neyman-Pearson
        # test rejects L > t and a fraction gamma of L = t, so that its level is alpha.
        t = np.quantile(l0, 1 - alpha)
        above0, at0 = np.mean(l0 > t), np.mean(l0 == t)
        gamma = (alpha - above0) / at0 if at0 > 0 else 0.0
        beta_mc = 1 - np.mean(l1 > t) - gamma * np.mean(l1 == t)
        se = np.sqrt(beta_mc * (1 - beta_mc) / n) + 2e-3  # + the threshold's own error
        assert abs(fdp.laplace_histogram_tradeoff(alpha, level) - beta_mc) < 4 * se
    # It is level-DP and no better: tightest eps equals the level.
    curve = fdp.laplace_histogram_tradeoff(GRID, level)
    assert fdp.tightest_epsilon(GRID, curve) == pytest.approx(level, abs=2e-3)


def test_composition_of_pure_dp_and_its_clt():
    a, b = fdp.composition_epsdp(0.5, 1)
    np.testing.assert_allclose(fdp.tradeoff_on_grid(a, b, GRID),
                               fdp.epsdelta_tradeoff(GRID, 0.5), atol=1e-12)
    a, b = fdp.composition_epsdp(0.05, 200)
    mu = fdp.clt_mu(0.05, 200)
    assert mu == pytest.approx(2 * np.sqrt(200) * np.tanh(0.025))
    assert np.max(np.abs(b - fdp.gdp_tradeoff(a, mu))) < 0.01  # the CLT is close


def test_tightest_parameters_recover_the_nominal_ones():
    assert fdp.tightest_gdp_mu(GRID, fdp.gdp_tradeoff(GRID, 0.7)) == pytest.approx(0.7)
    assert fdp.tightest_epsilon(GRID, fdp.laplace_tradeoff(GRID, 0.8)) == pytest.approx(0.8)
    assert fdp.tightest_epsilon(GRID, fdp.epsdelta_tradeoff(GRID, 1.0, 0.05), 0.05) == \
        pytest.approx(1.0)
    assert fdp.tightest_gdp_mu(GRID, fdp.identity_tradeoff(GRID)) == pytest.approx(0, abs=1e-12)
    # pure DP is not mu-GDP for any finite mu? It is: f_{eps,0} >= G_mu for mu large enough.
    assert np.isfinite(fdp.tightest_gdp_mu(*fdp.krr_tradeoff(1.0, 2)))
    # a perfect attacker: beta = 0 at alpha = 0.5 -> no mu, no eps
    a, b = np.array([0, 0.5, 1]), np.array([1, 0, 0])
    assert fdp.tightest_gdp_mu(a, b) == np.inf
    assert fdp.tightest_epsilon(a, b) == np.inf


def test_empirical_curve_converges_within_dkw_bands():
    mu, n = 1.0, 20_000
    rng = np.random.default_rng(3)
    a, b = fdp.empirical_tradeoff(rng.normal(0, 1, n), rng.normal(mu, 1, n))
    # DKW: each empirical CDF is within e of the truth, uniformly, w.p. >= 1 - 2 * 1e-4.
    e = np.sqrt(np.log(2 / 1e-4) / (2 * n))
    assert np.all(b >= fdp.gdp_tradeoff(np.clip(a + e, 0, 1), mu) - e)
    assert np.all(b <= fdp.gdp_tradeoff(np.clip(a - e, 0, 1), mu) + e)
    # and with 100x more draws the worst vertical gap shrinks
    a2, b2 = fdp.empirical_tradeoff(rng.normal(0, 1, 100 * n // 10), rng.normal(mu, 1, 100 * n // 10))
    gap = lambda a, b: np.max(np.abs(b - fdp.gdp_tradeoff(a, mu)))
    assert gap(a2, b2) < gap(a, b)


def test_empirical_curve_of_discrete_outputs():
    rng = np.random.default_rng(4)
    eps, k, n = 1.0, 4, 50_000
    p = np.exp(eps) / (np.exp(eps) + k - 1)
    q = (1 - p) / (k - 1)
    s0 = rng.choice(k, size=n, p=[p, q, q, q])
    s1 = rng.choice(k, size=n, p=[q, p, q, q])
    a, b = fdp.empirical_tradeoff(s0, s1)
    ta, tb = fdp.krr_tradeoff(eps, k)
    assert np.max(np.abs(fdp.tradeoff_on_grid(a, b, GRID) - fdp.tradeoff_on_grid(ta, tb, GRID))) \
        < 4 * np.sqrt(0.25 / n) * 3


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: fdp.gdp_tradeoff([0.5, 1.5], 1.0), "`alpha`"),
        (lambda: fdp.gdp_tradeoff(0.5, -1.0), "`mu`"),
        (lambda: fdp.epsdelta_tradeoff(0.5, 1.0, 2.0), "`delta`"),
        (lambda: fdp.laplace_tradeoff(0.5, np.nan), "`eps`"),
        (lambda: fdp.krr_tradeoff(1.0, 1), "`k`"),
        (lambda: fdp.group_tradeoff(3, 2, 0.5), "`f`"),
        (lambda: fdp.group_tradeoff(fdp.identity_tradeoff, 0, 0.5), "`k`"),
        (lambda: fdp.empirical_tradeoff([], [1.0]), "`samples0`"),
        (lambda: fdp.tightest_gdp_mu([0.1, 0.2], [0.5]), "same length"),
        (lambda: fdp.laplace_histogram_tradeoff(0.5, 0.0), "`level`"),
    ],
)
def test_argument_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_no_warnings_at_extremes():
    # The suite turns warnings into errors: these must stay quiet.
    for mu in (0.0, 1e-9, 50.0):
        fdp.gdp_tradeoff(GRID, mu)
    for eps in (0.0, 50.0):
        fdp.epsdelta_tradeoff(GRID, eps, 1e-12)
        fdp.laplace_tradeoff(GRID, eps)
        fdp.krr_tradeoff(eps, 10**6)
        fdp.gdp_delta(eps, 5.0)
    fdp.laplace_histogram_tradeoff(GRID, 10.0)
    fdp.laplace_histogram_tradeoff(GRID, 0.001)


def test_tiny_type_two_errors_keep_their_digits():
    # beta summed from the far end: a composition of strong eps-DP has beta ~ 1e-30 near
    # alpha = 1 - small, not 0, so the curve still has a finite tightest eps (n eps at most).
    a, b = fdp.composition_epsdp(0.5, 50)
    assert np.all(b[:-1] > 0)
    assert fdp.tightest_epsilon(a, b) <= 25 + 1e-9
    assert np.isfinite(fdp.tightest_gdp_mu(a, b))
    a, b = fdp.krr_tradeoff(50.0, 10)
    assert fdp.tightest_epsilon(a, b) == pytest.approx(50.0, rel=1e-9)


def test_infinite_ratios_and_huge_eps_raise_no_warning():
    fdp.composition_epsdp(50.0, 50)
    fdp.composition_epsdp(4.0, 200)
    fdp.empirical_tradeoff([0, 0, 1, 2], [1, 3, 3, 4])  # outcomes seen under one input only
    assert fdp.epsdelta_tradeoff(0.0, 800.0) == 1.0
    assert fdp.laplace_tradeoff(0.0, 800.0) == 1.0
    assert np.all(np.isfinite(fdp.epsdelta_tradeoff(GRID, 800.0)))


def test_gdp_mu_is_accurate_for_tiny_roots():
    for eps, delta in ((0.0, 1e-12), (0.0, 1e-6), (2.0, 1e-300)):
        mu = fdp.gdp_mu(eps, delta)
        assert fdp.gdp_delta(eps, mu) == pytest.approx(delta, rel=1e-8)


def test_gdp_epsilon_inverts_gdp_delta():
    for mu, delta in ((0.5, 1e-5), (1.0, 1e-3), (3.0, 1e-10)):
        eps = fdp.gdp_epsilon(mu, delta)
        assert fdp.gdp_delta(eps, mu) == pytest.approx(delta, rel=1e-8)
    assert fdp.gdp_epsilon(1.0, 0.0) == np.inf


def test_epsdelta_vertices_trace_the_curve():
    for eps, delta in ((1.0, 0.0), (0.3, 0.1), (50.0, 1e-12)):
        a, b = fdp.epsdelta_vertices(eps, delta)
        np.testing.assert_allclose(fdp.tradeoff_on_grid(a, b, GRID),
                                   fdp.epsdelta_tradeoff(GRID, eps, delta), atol=1e-12)


def test_curve_at_takes_the_best_test_of_each_level():
    a = np.array([0.0, 0.2, 0.2, 1.0])
    b = np.array([1.0, 0.5, 0.3, 0.0])
    np.testing.assert_allclose(fdp.curve_at(a, b, [0.0, 0.1, 0.2, 0.6]), [1.0, 0.65, 0.3, 0.15])


def test_below_target_finds_the_failing_region():
    fails, below = fdp.below_target(GRID, fdp.gdp_tradeoff(GRID, 1.0),
                                    lambda x: fdp.gdp_tradeoff(x, 0.5))
    assert fails and below[1:-1].all()  # G_1 lies below G_0.5 on (0, 1)
    fails, below = fdp.below_target(GRID, fdp.gdp_tradeoff(GRID, 0.5),
                                    lambda x: fdp.gdp_tradeoff(x, 1.0))
    assert not fails and not below.any()
    # a polygon that passes on the grid but not at its vertex
    va, vb = np.array([0.0, 0.30005, 1.0]), np.array([1.0, 0.1, 0.0])
    coarse = np.array([0.0, 0.3, 1.0])
    fails, _ = fdp.below_target(coarse, fdp.tradeoff_on_grid(va, vb, coarse),
                                lambda x: fdp.epsdelta_tradeoff(x, 1.0), vertices=(va, vb))
    assert fails
    with pytest.raises(ValueError, match="`target`"):
        fdp.below_target(GRID, GRID, 0.5)


# ---------------------------------------------------------------------------
# exact tightest mu and smallest eps of the named curves
# ---------------------------------------------------------------------------

# The Laplace mechanism's eps = Δ/b on the f-DP page runs from 0.1/10 to 5/0.1 = 50.
LAPLACE_EPS = (0.0, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0)
# 10^6 type-I errors from 1e-40 to 1, log-spaced: the worst point of a curve with eps = 50
# (alpha = e^{-25}/2 = 7e-12) lies far inside.
SCAN = np.logspace(-40, 0, 10**6)


def scan_mu(alpha, beta, miss=None):
    """max [Phi^{-1}(1 - alpha) - Phi^{-1}(beta)] over the given points, from the tails:
    ``miss`` = 1 - beta computed without rounding, where beta is near 1 (Phi^{-1}(beta) =
    Phi^{-1}(1 - miss)). Points with alpha = 1 or beta = 1 constrain nothing."""
    if miss is None:
        miss = 1 - beta
    inner = (alpha < 1) & (miss > 0)
    a, b, m = alpha[inner], beta[inner], miss[inner]
    return float(np.max(stats.norm.isf(a) - np.where(b > 0.5, stats.norm.isf(m),
                                                     stats.norm.ppf(b))))


def low_piece_miss(alpha, beta, eps, corner):
    """1 - beta on a curve whose first piece is 1 - e^eps alpha (alpha <= corner)."""
    return np.where(alpha <= corner, np.exp(eps + np.log(alpha)), 1 - beta)


@pytest.mark.parametrize("eps", LAPLACE_EPS)
def test_laplace_gdp_mu_is_the_closed_form_and_the_scans_maximum(eps):
    closed = 2 * stats.norm.ppf(1 - np.exp(-eps / 2) / 2) if eps < 30 else \
        2 * stats.norm.isf(np.exp(-eps / 2) / 2)  # 1 - tiny rounds in ppf's argument
    got = fdp.laplace_gdp_mu(eps)
    assert got == pytest.approx(closed, abs=1e-6)
    beta = fdp.laplace_tradeoff(SCAN, eps)
    scanned = scan_mu(SCAN, beta, low_piece_miss(SCAN, beta, eps, np.exp(-eps) / 2))
    # never below the scan (the unsafe side), and the scan comes within its step of it
    assert got >= scanned - 1e-9
    assert got == pytest.approx(scanned, abs=1e-6)
    # the bounded maximiser on log alpha over the middle piece, from logsf-free tails
    c = np.exp(-eps) / 4
    lo, hi = np.log(max(2 * c, 1e-300)), np.log(0.5)
    res = optimize.minimize_scalar(
        lambda u: stats.norm.ppf(np.exp(u)) + stats.norm.ppf(c / np.exp(u)),
        bounds=(lo, hi), method="bounded", options={"xatol": 1e-10})
    assert got == pytest.approx(max(-res.fun, 0.0), abs=1e-6)


def test_laplace_gdp_mu_exceeds_the_old_grid_reading_at_large_eps():
    # The 1,000-point grid misses the worst point once e^{-eps/2}/2 < 1/999.
    grid = np.linspace(0.0, 1.0, 1000)
    for eps, old, exact in ((15.0, 6.876, 6.907), (30.0, 9.671, 10.240),
                            (50.0, 12.183, 13.518)):
        assert fdp.tightest_gdp_mu(grid, fdp.laplace_tradeoff(grid, eps)) == \
            pytest.approx(old, abs=1e-3)
        assert fdp.laplace_gdp_mu(eps) == pytest.approx(exact, abs=1e-3)


def direct_delta(f, eps, alpha=SCAN):
    """sup_alpha [1 - f(alpha) - e^eps alpha] on a scan, with its mirror 1 - alpha - e^eps f."""
    b = f(alpha)
    return float(max(np.max(1 - b - np.exp(eps) * alpha), np.max(1 - alpha - np.exp(eps) * b)))


@pytest.mark.parametrize("eps0", [0.01, 1.0, 5.0, 15.0, 50.0])
@pytest.mark.parametrize("delta", [0.0, 1e-8, 1e-5, 0.01, 0.2])
def test_laplace_epsilon_against_a_direct_supremum(eps0, delta):
    eps = fdp.laplace_epsilon(eps0, delta)
    assert eps == pytest.approx(max(0.0, eps0 + 2 * np.log(1 - delta)), abs=1e-12)
    lin = np.linspace(0.0, 1.0, 10**6 + 1)
    grid = np.unique(np.r_[SCAN, lin])

    def f(a):
        return fdp.laplace_tradeoff(a, eps0)

    # The curve is (eps, delta)-DP: the supremum at eps is delta (up to the scan) ...
    assert direct_delta(f, eps, grid) <= delta + 1e-9
    assert float(fdp.laplace_delta(eps, eps0)) == pytest.approx(
        direct_delta(f, eps, grid), abs=1e-9)
    # ... and a smaller eps breaks it.
    if eps > 1e-3:
        smaller = eps - 1e-3
        assert direct_delta(f, smaller, grid) > delta + 1e-6


@pytest.mark.parametrize("eps", [0.0, 0.1, 1.0, 5.0, 20.0, 50.0])
def test_epsdp_gdp_mu_closed_form_against_its_vertices_and_a_scan(eps):
    got = fdp.epsdelta_gdp_mu(eps)
    assert got == pytest.approx(2 * stats.norm.isf(1 / (1 + np.exp(eps))), abs=1e-9)
    assert got == pytest.approx(fdp.tightest_gdp_mu(*fdp.epsdelta_vertices(eps)), rel=1e-12)
    beta = fdp.epsdelta_tradeoff(SCAN, eps)
    scanned = scan_mu(SCAN, beta, low_piece_miss(SCAN, beta, eps, 1 / (1 + np.exp(eps))))
    assert got >= scanned - 1e-9 and got == pytest.approx(scanned, abs=1e-3)
    assert fdp.epsdelta_gdp_mu(eps, 1e-12) == np.inf


@pytest.mark.parametrize("eps", [0.0, 0.5, 3.0, 20.0, 50.0])
@pytest.mark.parametrize("delta, at_delta", [(0.0, 0.0), (0.0, 1e-5), (0.0, 0.2), (1e-6, 1e-6),
                                             (1e-6, 1e-3), (0.1, 0.3), (0.1, 0.05), (0.3, 1.0)])
def test_epsdelta_epsilon_against_its_vertices(eps, delta, at_delta):
    got = fdp.epsdelta_epsilon(eps, delta, at_delta)
    expected = fdp.tightest_epsilon(*fdp.epsdelta_vertices(eps, delta), at_delta)
    if np.isinf(expected):
        assert np.isinf(got) and at_delta < delta
    else:
        assert got == pytest.approx(expected, abs=1e-9)
    if delta == at_delta:
        assert got == pytest.approx(eps, abs=1e-12)


# The histogram's level runs over controls.ALPHA_GRID, 0.001 to 10.
HIST_LEVELS = (0.001, 0.01, 0.2, 0.8, 2.0, 5.0, 10.0)


def single_bin_sf(u, s):
    """P(L_1 > u) for one bin: L_1 = clip(2x - 1, -1, 1) s with x ~ Lap(0, 1/s)."""
    return stats.laplace.sf((u / s + 1) / 2, scale=1 / s) if -s <= u < s else float(u < -s)


def quad_sf(t, level):
    """P(L_1 + L_2 > t), integrating the second bin's tail over the first bin's output."""
    s = level / 2

    def integrand(x):
        return single_bin_sf(t - np.clip(2 * x - 1, -1, 1) * s, s) * \
            stats.laplace.pdf(x, scale=1 / s)

    # the second bin's tail jumps where t - L_1(x) = -s or s, x = (t/s + 1 -+ 1)/2
    jumps = [x for x in ((t / s) / 2 + 1, (t / s) / 2) if 0 < x < 1]
    pieces = ((-np.inf, 0.0), (0.0, 1.0), (1.0, np.inf))
    return sum(integrate.quad(integrand, lo, hi, points=jumps if lo == 0 and jumps else None,
                              epsabs=1e-14, epsrel=1e-12, limit=200)[0]
               for lo, hi in pieces)


@pytest.mark.parametrize("level", [0.01, 0.8, 5.0])
def test_histogram_errors_against_integration(level):
    s = level / 2
    for t in np.array([-0.999, -0.6, -0.2, 0.0, 0.15, 0.5, 0.999]) * 2 * s:
        alpha, beta = fdp.laplace_histogram_errors(t, level)
        assert alpha == pytest.approx(quad_sf(t, level), abs=1e-12)
        # beta = Q(L <= t) = P(L >= -t): off the atoms, P(L > -t)
        if t != 0:
            assert beta == pytest.approx(quad_sf(-t, level), abs=1e-12)
    # the curve from one end to the other
    a, b = fdp.laplace_histogram_errors(np.array([-2 * s - 1, 2 * s]), level)
    np.testing.assert_allclose(a, [1, 0], atol=1e-15)
    np.testing.assert_allclose(b, [0, 1], atol=1e-15)
    # and the discretised convolution lies on it
    ts = np.linspace(-2 * s, 2 * s, 41)[1:-1]
    a, b = fdp.laplace_histogram_errors(ts, level)
    np.testing.assert_allclose(fdp.laplace_histogram_tradeoff(a, level, grid=8001), b,
                               atol=1e-4)


@pytest.mark.parametrize("level", HIST_LEVELS)
def test_histogram_gdp_mu_is_the_maximum_of_a_fine_scan(level):
    got = fdp.laplace_histogram_gdp_mu(level)
    s = level / 2
    # 10^6 thresholds over the whole curve, plus its vertices (the atoms, from both sides)
    ts = np.r_[np.linspace(-2 * s, 2 * s, 10**6), 0.0, -2 * s, 2 * s]
    a, b = fdp.laplace_histogram_errors(ts, level)
    a0 = fdp.laplace_histogram_errors(np.nextafter(0.0, 1.0), level)[0]
    a = np.r_[a, a0, 0.25 * np.exp(-2 * s)]
    b = np.r_[b, a0 + 0.5 * np.exp(-s), 0.75]
    keep = (a > 0) & (b > 0)
    scanned = scan_mu(a[keep], b[keep])
    assert got >= scanned - 1e-12 * max(1.0, got)
    assert got == pytest.approx(scanned, rel=1e-7)
    # the independent discretised curve, on 10^6 type-I errors, agrees to its grid step
    alpha = np.logspace(-12, 0, 10**6)
    approx = fdp.tightest_gdp_mu(alpha, fdp.laplace_histogram_tradeoff(alpha, level,
                                                                       grid=8001))
    assert got == pytest.approx(approx, rel=2e-4)


def quad_delta(eps, level):
    """E_P[(e^L - e^eps)_+] = Q(L > eps) - e^eps P(L > eps), integrated over both bins."""
    s = level / 2

    def loss(x):
        return min(max(2 * x - 1, -1.0), 1.0) * s

    def pdf(x):  # Lap(0, 1/s)
        return 0.5 * s * math.exp(-s * abs(x))

    def inner(l1):
        # the kink where l1 + L_2 = eps, inside the second bin's (0, 1) if at all
        kink = ((eps - l1) / s + 1) / 2
        mid = integrate.quad(lambda x: max(math.exp(l1 + loss(x)) - math.exp(eps), 0.0) * pdf(x),
                             0.0, 1.0, points=[kink] if 0 < kink < 1 else None,
                             epsabs=1e-15)[0]
        # outside (0, 1) the second bin's loss is -s (mass 1/2) or s (mass e^{-s}/2)
        return (mid + 0.5 * max(math.exp(l1 - s) - math.exp(eps), 0.0)
                + 0.5 * math.exp(-s) * max(math.exp(l1 + s) - math.exp(eps), 0.0))

    # the first bin likewise: (0, 1) integrated, the two tails as their masses
    mid = integrate.quad(lambda x: inner(loss(x)) * pdf(x), 0.0, 1.0, epsabs=1e-15,
                         epsrel=1e-10, limit=200)[0]
    return mid + 0.5 * inner(-s) + 0.5 * math.exp(-s) * inner(s)


@pytest.mark.parametrize("level", [0.01, 0.8, 5.0])
def test_histogram_delta_against_integration_and_its_epsilon_root(level):
    for frac in (0.0, 0.3, 0.95, 1.0):
        eps = frac * level
        assert fdp.laplace_histogram_delta(eps, level) == pytest.approx(
            quad_delta(eps, level), rel=1e-7, abs=1e-13)
    for delta in (1e-12, 1e-8, 1e-5, 1e-3):
        eps = fdp.laplace_histogram_epsilon(level, delta)
        if eps == 0:
            assert fdp.laplace_histogram_delta(0.0, level) <= delta
            continue
        assert fdp.laplace_histogram_delta(eps, level) == pytest.approx(delta, rel=1e-6)
        assert fdp.laplace_histogram_delta(eps * (1 - 1e-6), level) > delta
    assert fdp.laplace_histogram_epsilon(level, 0.0) == level  # level-DP and no better
    assert fdp.laplace_histogram_delta(level, level) == 0.0


@pytest.mark.parametrize("level", HIST_LEVELS)
def test_histogram_epsilon_against_the_discretised_curve(level):
    alpha = np.unique(np.r_[np.logspace(-12, 0, 10**5), np.linspace(0, 1, 10**5)])
    curve = fdp.laplace_histogram_tradeoff(alpha, level, grid=8001)
    for delta in (1e-5, 1e-3):
        assert fdp.laplace_histogram_epsilon(level, delta) == pytest.approx(
            fdp.tightest_epsilon(alpha, curve, delta), abs=2e-4 * level + 1e-9)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: fdp.laplace_gdp_mu(-1.0), "`eps`"),
        (lambda: fdp.laplace_epsilon(1.0, 1.5), "`delta`"),
        (lambda: fdp.laplace_delta(1.0, np.nan), "`eps0`"),
        (lambda: fdp.epsdelta_gdp_mu(1.0, -0.1), "`delta`"),
        (lambda: fdp.epsdelta_epsilon(1.0, 0.0, 2.0), "`at_delta`"),
        (lambda: fdp.laplace_histogram_errors(0.1, 0.0), "`level`"),
        (lambda: fdp.laplace_histogram_gdp_mu(-1.0), "`level`"),
        (lambda: fdp.laplace_histogram_delta(-0.1, 1.0), "`eps`"),
        (lambda: fdp.laplace_histogram_epsilon(1.0, 1.1), "`delta`"),
    ],
)
def test_exact_parameters_name_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()
