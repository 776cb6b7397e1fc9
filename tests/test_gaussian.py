"""Tests of dpcore.gaussian against high-precision references, numerical integration,
Monte Carlo and the inequalities between the three calibrations."""

import itertools
import math

import mpmath
import numpy as np
import pytest
from scipy import integrate, optimize, stats

from dpcore import fdp, gaussian

EPS = (0.0, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0)
DELTAS = (1e-12, 1e-9, 1e-6, 1e-5, 1e-3, 0.05, 0.2, 0.5)
SIGMAS = (0.05, 0.2, 0.5, 1.0, 2.0, 5.0, 20.0, 100.0)

mpmath.mp.dps = 60


def mp_delta(eps, mu, method="analytic"):
    """Reference δ in 60-digit arithmetic, straight from the formulas."""
    eps, mu = mpmath.mpf(eps), mpmath.mpf(mu)
    a = mu / 2 - eps / mu
    if method == "tail":
        return mpmath.ncdf(a)
    return mpmath.ncdf(a) - mpmath.exp(eps) * mpmath.ncdf(-mu / 2 - eps / mu)


def mp_mu(eps, delta, method="analytic"):
    """Reference μ solving δ(ε; μ) = δ, in 60-digit arithmetic (bisection on log μ)."""
    target = mpmath.mpf(delta)
    lo, hi = mpmath.mpf(-30), mpmath.mpf(10)
    for _ in range(200):
        mid = (lo + hi) / 2
        if mp_delta(eps, mpmath.exp(mid), method) < target:
            lo = mid
        else:
            hi = mid
    return float(mpmath.exp((lo + hi) / 2))


def integrated_delta(eps, mu):
    """E[(1 − e^{ε − L})₊] with L ~ N(μ²/2, μ²), by numerical integration.

    Integrated in the standardised variable z = (L − μ²/2)/μ from the point
    where L = ε, up to where the normal density has vanished.
    """
    z0 = (eps - mu * mu / 2) / mu

    def integrand(z):
        return -np.expm1(eps - mu * mu / 2 - mu * z) * stats.norm.pdf(z)

    upper = max(z0, 0.0) + 40.0
    value, err = integrate.quad(integrand, z0, upper, epsabs=0, epsrel=1e-13, limit=200,
                                points=[z0 + 1.0 / mu] if 1.0 / mu < 40 else None)
    return value


def hockey_stick(eps, mu):
    """sup_S P(N(μ, 1) ∈ S) − e^ε P(N(0, 1) ∈ S), integrated over the output space."""
    # The optimal S is {o : density ratio > e^ε} = {o > ε/μ + μ/2}.
    t = eps / mu + mu / 2
    # p₁(o) − e^ε p₂(o) = p₁(o)(1 − e^{ε − μo + μ²/2}), written with expm1 so that a tiny μ
    # does not cancel the two densities.
    value, _ = integrate.quad(lambda o: -stats.norm.pdf(o, mu) * np.expm1(eps - mu * o + mu * mu / 2),
                              t, t + 60, epsabs=0, epsrel=1e-13, limit=200)
    return value


# ---------------------------------------------------------------------------
# δ(ε) against references
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["analytic", "tail"])
def test_delta_matches_60_digit_reference(method):
    worst = 0.0
    for eps, sigma in itertools.product(EPS, SIGMAS):
        ours = float(gaussian.gaussian_delta(eps, sigma, method=method))
        ref = float(mp_delta(eps, 1 / sigma, method))
        if ref < 1e-300:
            assert ours < 1e-290
            continue
        worst = max(worst, abs(ours - ref) / ref)
    assert worst < 1e-11, worst


def test_analytic_delta_equals_integrated_privacy_loss_tail():
    for eps, delta in itertools.product((0.0, 0.1, 1.0, 3.0, 10.0), (1e-12, 1e-6, 1e-3, 0.1)):
        mu = float(gaussian.gaussian_mu(eps, delta))
        assert integrated_delta(eps, mu) == pytest.approx(delta, rel=1e-8)
        assert hockey_stick(eps, mu) == pytest.approx(delta, rel=1e-8)


def test_tail_delta_is_the_probability_that_the_loss_exceeds_eps():
    # P(L > ε) for L ~ N(μ²/2, μ²), computed with scipy's normal survival function.
    for eps, sigma in itertools.product((0.0, 0.5, 2.0), (0.3, 1.0, 4.0)):
        mean, var = gaussian.privacy_loss_moments(sigma)
        tail = stats.norm.sf(eps, loc=mean, scale=np.sqrt(var))
        assert gaussian.gaussian_delta(eps, sigma, method="tail") == pytest.approx(tail, rel=1e-12)


def test_privacy_loss_distribution_by_monte_carlo():
    """L = ln p₁(o)/p₂(o) for o ~ f(D₁) + N(0, σ²): its mean, variance and P(L > ε)."""
    rng = np.random.default_rng(5)
    q1, q2, sigma, eps, n = 3.0, 2.2, 0.9, 0.5, 400_000
    sens = abs(q1 - q2)
    o = q1 + rng.normal(0, sigma, n)
    loss = stats.norm.logpdf(o, q1, sigma) - stats.norm.logpdf(o, q2, sigma)
    mean, var = gaussian.privacy_loss_moments(sigma, sens)
    assert mean == pytest.approx(sens**2 / (2 * sigma**2)) and var == pytest.approx(sens**2 / sigma**2)
    assert abs(loss.mean() - mean) < 4 * np.sqrt(var / n)
    # variance of the sample variance of a normal: 2σ⁴/(n − 1)
    assert abs(loss.var(ddof=1) - var) < 4 * var * np.sqrt(2 / (n - 1))
    p = float(gaussian.gaussian_delta(eps, sigma, sens, method="tail"))
    assert abs(np.mean(loss > eps) - p) < 4 * np.sqrt(p * (1 - p) / n)
    # and the exact δ is the mean of (1 − e^{ε − L})₊
    exact = float(gaussian.gaussian_delta(eps, sigma, sens))
    weights = np.maximum(-np.expm1(eps - loss), 0.0)
    assert abs(weights.mean() - exact) < 4 * weights.std() / np.sqrt(n)


def test_mu_gdp_delta_curve_coincides_with_the_analytic_calibration():
    # dpcore.fdp.gdp_delta evaluates Dong et al.'s Corollary 2.13 with its own formula.
    eps = np.linspace(0, 30, 301)
    for sigma, sens in ((0.3, 1.0), (1.0, 1.0), (3.0, 2.0), (40.0, 5.0)):
        ours = gaussian.gaussian_delta(eps, sigma, sens)
        theirs = fdp.gdp_delta(eps, sens / sigma)
        keep = theirs > 1e-12
        np.testing.assert_allclose(ours[keep], theirs[keep], rtol=1e-9)


# ---------------------------------------------------------------------------
# The calibrations compared
# ---------------------------------------------------------------------------


def test_tail_bound_always_over_states_delta():
    eps, sigma = np.meshgrid(np.linspace(0, 50, 201), np.geomspace(0.01, 1000, 201))
    tail = gaussian.gaussian_delta(eps, sigma, method="tail")
    exact = gaussian.gaussian_delta(eps, sigma)
    assert np.all(tail >= exact)
    resolvable = (exact > 1e-300) & (exact < 0.5)  # strictly, where doubles tell them apart
    assert np.all(tail[resolvable] > exact[resolvable])
    # so the tail bound always needs more noise
    for eps_, delta in itertools.product(EPS[1:], DELTAS):
        assert (gaussian.gaussian_sigma(eps_, delta, method="tail")
                > gaussian.gaussian_sigma(eps_, delta))


def test_classical_needs_more_noise_where_it_is_valid():
    for eps, delta in itertools.product((0.01, 0.1, 0.3, 0.5, 0.9, 0.999), DELTAS):
        if delta >= 0.5:
            continue
        assert (gaussian.gaussian_sigma(eps, delta, method="classical")
                > gaussian.gaussian_sigma(eps, delta))


def test_classical_formula_and_its_failure_outside_its_range():
    assert gaussian.gaussian_sigma(0.5, 1e-5, 2.0, method="classical") == pytest.approx(
        2.0 * np.sqrt(2 * np.log(1.25e5)) / 0.5, rel=1e-14)
    # At large ε the classical σ is smaller than the exact one: it is not a guarantee there.
    sigma = gaussian.gaussian_sigma(10.0, 1e-5, method="classical")
    assert gaussian.gaussian_delta(10.0, sigma) > 1e-5


def test_tail_sigma_closed_form():
    # Φ(Δ/2σ − εσ/Δ) = δ solved by a root finder on the source's formula.
    for eps, delta, sens in ((1.0, 1e-5, 1.0), (0.1, 1e-12, 3.0), (50.0, 1e-12, 0.5),
                             (2.0, 0.3, 1.0)):
        root = optimize.brentq(lambda s: stats.norm.cdf(sens / (2 * s) - eps * s / sens) - delta,
                               1e-6, 1e6, xtol=1e-15, rtol=1e-15)
        assert gaussian.gaussian_sigma(eps, delta, sens, method="tail") == pytest.approx(
            root, rel=1e-10)


# ---------------------------------------------------------------------------
# Solving: accuracy, round trips, the completed set
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["analytic", "tail"])
def test_sigma_accurate_to_1e9_against_60_digit_reference(method):
    for eps, delta in itertools.product((0.01, 0.5, 1.0, 5.0, 50.0), (1e-12, 1e-6, 1e-3, 0.4)):
        ref = 1.0 / mp_mu(eps, delta, method)
        assert gaussian.gaussian_sigma(eps, delta, method=method) == pytest.approx(ref, rel=1e-9)


@pytest.mark.parametrize("method", gaussian.METHODS)
def test_round_trips(method):
    for eps, delta in itertools.product((0.01, 0.3, 1.0, 8.0, 50.0), DELTAS[:-1]):
        sigma = gaussian.gaussian_sigma(eps, delta, 2.5, method=method)
        assert gaussian.gaussian_delta(eps, sigma, 2.5, method=method) == pytest.approx(
            delta, rel=1e-9)
        assert gaussian.gaussian_epsilon(delta, sigma, 2.5, method=method) == pytest.approx(
            eps, rel=1e-9)
    for delta, sigma in itertools.product((1e-12, 1e-5, 0.01), (0.2, 1.0, 30.0)):
        eps = gaussian.gaussian_epsilon(delta, sigma, method=method)
        if eps > 0:
            assert gaussian.gaussian_sigma(eps, delta, method=method) == pytest.approx(
                sigma, rel=1e-9)


def test_epsilon_is_zero_when_delta_already_holds_at_zero():
    sigma = 10.0  # δ(0) = 2Φ(1/20) − 1 ≈ 0.0399
    delta0 = float(gaussian.gaussian_delta(0.0, sigma))
    assert delta0 == pytest.approx(2 * stats.norm.cdf(0.05) - 1, rel=1e-12)
    assert gaussian.gaussian_epsilon(0.05, sigma) == 0.0
    assert gaussian.gaussian_epsilon(0.03, sigma) > 0
    # analytic solve at ε = 0 uses δ(0) = erf(μ/2√2)
    assert gaussian.gaussian_sigma(0.0, delta0) == pytest.approx(sigma, rel=1e-12)


def test_solve_gaussian_completes_every_missing_value():
    base = dict(eps=0.8, delta=1e-6, sensitivity=2.0)
    full = gaussian.solve_gaussian(**base)
    assert full.solved == "sigma" and full.method == "analytic"
    assert full.sigma == pytest.approx(float(gaussian.gaussian_sigma(0.8, 1e-6, 2.0)), rel=1e-14)
    assert full.mu == pytest.approx(2.0 / full.sigma)
    for missing in ("eps", "delta", "sensitivity"):
        given = {k: v for k, v in full.as_dict().items() if k in ("eps", "delta", "sigma",
                                                                   "sensitivity") and k != missing}
        again = gaussian.solve_gaussian(**given)
        assert again.solved == missing
        assert getattr(again, missing) == pytest.approx(getattr(full, missing), rel=1e-9)
    tail = gaussian.solve_gaussian(eps=0.8, delta=1e-6, sigma=1.0, method="tail")
    assert tail.sensitivity == pytest.approx(
        1.0 / float(gaussian.gaussian_sigma(0.8, 1e-6, method="tail")), rel=1e-12)


def test_vectorised_equals_elementwise():
    eps = np.array([[0.1], [1.0], [7.0]])
    sigma = np.array([0.5, 2.0, 9.0, 40.0])
    grid = gaussian.gaussian_delta(eps, sigma)
    assert grid.shape == (3, 4)
    for i, j in itertools.product(range(3), range(4)):
        assert grid[i, j] == gaussian.gaussian_delta(float(eps[i, 0]), float(sigma[j]))
    mus = gaussian.gaussian_mu([0.5, 2.0], [1e-5, 1e-8])
    assert mus[1] == gaussian.gaussian_mu(2.0, 1e-8)
    eps_back = gaussian.gaussian_epsilon([1e-5, 1e-8], 1.0 / mus)
    np.testing.assert_allclose(eps_back, [0.5, 2.0], rtol=1e-9)


def test_limits_of_no_noise_and_no_information():
    assert gaussian.gaussian_delta(1.0, 1e-300) == 1.0  # μ overflows to ∞: no noise
    assert gaussian.gaussian_delta(1.0, 1e300) == 0.0  # μ = 1e-300: nothing leaks beyond ε
    assert gaussian.gaussian_delta(0.0, 1e6) == pytest.approx(2 * stats.norm.cdf(5e-7) - 1,
                                                               rel=1e-6)


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("call, name", [
    (lambda: gaussian.gaussian_delta(-1.0, 1.0), "eps"),
    (lambda: gaussian.gaussian_delta(np.nan, 1.0), "eps"),
    (lambda: gaussian.gaussian_delta(1.0, 0.0), "sigma"),
    (lambda: gaussian.gaussian_delta(1.0, 1.0, -2.0), "sensitivity"),
    (lambda: gaussian.gaussian_delta(1.0, 1.0, method="laplace"), "method"),
    (lambda: gaussian.gaussian_sigma(1.0, 0.0), "delta"),
    (lambda: gaussian.gaussian_sigma(1.0, 1.0), "delta"),
    (lambda: gaussian.gaussian_sigma(1.0, "x"), "delta"),
    (lambda: gaussian.gaussian_epsilon(1e-5, np.inf), "sigma"),
    (lambda: gaussian.solve_gaussian(eps=1.0, delta=1e-5), "one of"),
    (lambda: gaussian.solve_gaussian(eps=1.0, delta=1e-5, sigma=1.0, sensitivity=1.0), "one of"),
    (lambda: gaussian.solve_gaussian(eps=-1.0, delta=1e-5, sigma=1.0), "eps"),
    (lambda: gaussian.privacy_loss_moments(0.0), "sigma"),
    (lambda: gaussian.query_sensitivity("sum"), "upper"),
    (lambda: gaussian.query_sensitivity("mean"), "query"),
    (lambda: gaussian.release([1.0, np.nan], 1.0), "true_value"),
    (lambda: gaussian.release(1.0, 1.0, size=0), "size"),
    (lambda: gaussian.release_summary([1.0], 1.0, level=1.0), "level"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_solve_gaussian_refuses_a_value_beyond_floats():
    """A solved σ or Δ that is not a finite positive float is no solution: a ValueError
    naming it (the page shows it in words), not ∞ or 0 passed on as a value."""
    # At ε = 0 and tiny δ, δ = erf(μ/2√2) ≈ μ/√(2π): μ = δ√(2π) = 2.5e-300, so σ = Δ/μ
    # is 4.0e307 for Δ = 1e8 (the largest that fits) and beyond 1.8e308 for Δ = 1e9.
    mu = 1e-300 * math.sqrt(2 * math.pi)
    fits = gaussian.solve_gaussian(eps=0.0, delta=1e-300, sensitivity=1e8)
    assert fits.sigma == pytest.approx(1e8 / mu, rel=1e-12) and math.isfinite(fits.sigma)
    with pytest.raises(ValueError, match=r"^The `sigma` needed at `mu` = 2\.51e-300 is beyond "
                                         r"the range of floating-point numbers"):
        gaussian.solve_gaussian(eps=0.0, delta=1e-300, sensitivity=1e9)
    # Δ = μσ: overflows to ∞ (μ ≈ 1.97 at ε = 1, δ = 1/2; σ = 1e308), underflows to 0.
    assert float(gaussian.gaussian_mu(1.0, 0.5)) > np.finfo(float).max / 1e308
    with pytest.raises(ValueError, match=r"^The `sensitivity` needed .* floating-point"):
        gaussian.solve_gaussian(eps=1.0, delta=0.5, sigma=1e308)
    with pytest.raises(ValueError, match=r"^The `sensitivity` needed .* floating-point"):
        gaussian.solve_gaussian(eps=0.0, delta=1e-300, sigma=1e-300)
    for method in ("tail", "classical"):  # every calibration goes through the same check
        with pytest.raises(ValueError, match="`sigma` needed"):
            gaussian.solve_gaussian(eps=1.0, delta=1e-300, sensitivity=1e308, method=method)


def test_requests_without_a_solution_say_why():
    with pytest.raises(ValueError, match="at least 0.5"):
        gaussian.gaussian_sigma(0.0, 0.1, method="tail")
    with pytest.raises(ValueError, match="eps > 0"):
        gaussian.solve_gaussian(eps=0.0, delta=0.1, sensitivity=1.0, method="classical")
    # ... while the exact calibration has one: δ(0) = 2Φ(μ/2) − 1 takes every value in (0, 1).
    assert np.isfinite(gaussian.gaussian_sigma(0.0, 0.1))


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------


def test_calibration_table():
    table = gaussian.calibration_table(0.5, 1e-5, 3.0).set_index("method")
    for method in gaussian.METHODS:
        assert table.loc[method, "sigma"] == pytest.approx(
            float(gaussian.gaussian_sigma(0.5, 1e-5, 3.0, method=method)), rel=1e-14)
    assert table.loc["analytic", "ratio"] == 1.0
    assert table.loc["tail", "ratio"] > 1 and table.loc["classical", "ratio"] > 1
    assert table.loc["tail", "variance_ratio"] == pytest.approx(table.loc["tail", "ratio"] ** 2)
    assert table.valid.all()
    flagged = gaussian.calibration_table(2.0, 1e-5).set_index("method")
    assert not flagged.loc["classical", "valid"] and flagged.loc["classical", "note"] == ""
    assert np.isfinite(flagged.loc["classical", "sigma"])
    none = gaussian.calibration_table(0.0, 1e-3).set_index("method")
    assert np.isnan(none.loc["tail", "sigma"]) and not none.loc["tail", "valid"]
    assert np.isfinite(none.loc["analytic", "sigma"])


def test_sigma_table():
    table = gaussian.sigma_table([0.1, 1.0, 4.0], [1e-5, 1e-10], sensitivity=2.0)
    assert len(table) == 6
    for row in table.itertuples():
        for method in gaussian.METHODS:
            assert getattr(row, f"sigma_{method}") == pytest.approx(
                float(gaussian.gaussian_sigma(row.eps, row.delta, 2.0, method=method)))
        assert row.classical_valid == (row.eps < 1)
    assert (table.tail_over_analytic > 1).all()


# ---------------------------------------------------------------------------
# Releases
# ---------------------------------------------------------------------------


def test_query_sensitivities():
    assert gaussian.query_sensitivity("count") == 1.0
    assert gaussian.query_sensitivity("histogram") == 1.0
    assert gaussian.query_sensitivity("histogram_replace") == pytest.approx(np.sqrt(2))
    assert gaussian.query_sensitivity("sum", upper=85) == 85.0


def test_release_is_reproducible_and_has_the_stated_error():
    a = gaussian.release(100.0, 7.0, size=50_000, rng=1)
    b = gaussian.release(100.0, 7.0, size=50_000, rng=1)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, gaussian.release(100.0, 7.0, size=50_000, rng=2))
    n = a.size
    summary = gaussian.release_summary(100.0, 7.0)
    assert summary.rmse == 7.0
    assert summary.half_width == pytest.approx(stats.norm.ppf(0.975) * 7.0, rel=1e-12)
    rmse = np.sqrt(np.mean((a - 100.0) ** 2))
    assert abs(rmse**2 - 49.0) < 4 * 49.0 * np.sqrt(2 / n)
    inside = np.mean(np.abs(a - 100.0) <= summary.half_width)
    assert abs(inside - 0.95) < 4 * np.sqrt(0.95 * 0.05 / n)
    # the chance of a negative count, Φ(−c/σ)
    c = gaussian.release(5.0, 4.0, size=n, rng=3)
    p = float(gaussian.release_summary(5.0, 4.0).p_negative)
    assert p == pytest.approx(stats.norm.cdf(-5 / 4), rel=1e-12)
    assert abs(np.mean(c < 0) - p) < 4 * np.sqrt(p * (1 - p) / n)


def test_histogram_release_shape_and_negative_bins():
    counts = np.array([0.0, 1.0, 10.0, 1000.0])
    one = gaussian.release(counts, 2.0, rng=0)
    assert one.shape == (4,)
    many = gaussian.release(counts, 2.0, size=(20_000), rng=0)
    assert many.shape == (20_000, 4)
    summary = gaussian.release_summary(counts, 2.0)
    np.testing.assert_allclose(summary.p_negative, stats.norm.cdf(-counts / 2.0))
    expected = summary.expected_negative
    observed = np.mean(np.sum(many < 0, axis=1))
    sd = np.sqrt(np.sum(summary.p_negative * (1 - summary.p_negative)) / many.shape[0])
    assert abs(observed - expected) < 4 * sd


def test_clipped_sum_and_simulated_error():
    assert gaussian.clipped_sum([-3.0, 2.0, 10.0], 5.0) == 7.0
    assert gaussian.clipped_sum([0, 1, 90], 85, weights=[4, 2, 1]) == 2 + 85
    with pytest.raises(ValueError, match="weights"):
        gaussian.clipped_sum([1, 2], 3, weights=[1])
    sim = gaussian.summarise_releases([-1.0, 1.0, 3.0, 5.0], 2.0, half_width=1.0)
    assert sim.rmse == pytest.approx(np.sqrt((9 + 1 + 1 + 9) / 4))
    assert sim.negative_share == 0.25 and sim.inside_share == 0.5


def mp_rmse(errors) -> float:
    """√ mean(e²) in 60-digit arithmetic: no overflow, no rounding to speak of."""
    return float(mpmath.sqrt(mpmath.fsum(mpmath.mpf(e) ** 2 for e in errors) / len(errors)))


@pytest.mark.parametrize("scale", [1e200, 1e300, 1e-200, 1.0])
def test_simulated_rmse_does_not_overflow_or_underflow(scale):
    """RMSE of errors whose squares overflow (1e200² = 1e400) or underflow to 0."""
    with np.errstate(all="raise"):  # no intermediate inf or 0
        sim = gaussian.summarise_releases([3 * scale, -4 * scale], 0.0, half_width=1.0)
    assert sim.rmse == pytest.approx(scale * math.sqrt((9 + 16) / 2), rel=1e-15)
    # 10,000 normal errors (the page's release demo at its largest solved σ, 4e299).
    errors = np.random.default_rng(3).normal(0.0, scale, 10_000)
    true_value = 7.0 * scale
    with np.errstate(all="raise"):
        sim = gaussian.summarise_releases(true_value + errors, true_value, half_width=scale)
    exact = mp_rmse((true_value + errors) - true_value)
    assert sim.rmse == pytest.approx(exact, rel=1e-14)
    assert sim.rmse == pytest.approx(scale, rel=0.03)  # ≈ σ
    assert sim.inside_share == pytest.approx(0.68, abs=0.02)


def test_simulated_rmse_edge_values():
    assert gaussian.summarise_releases([2.0, 2.0], 2.0, half_width=0.0).rmse == 0.0
    # The largest float: RMSE = max, to 1 ulp (not ∞); an infinite release gives ∞.
    big = np.finfo(float).max
    assert gaussian.summarise_releases([big, -big], 0.0, half_width=1.0).rmse == \
        pytest.approx(big, rel=3e-16)
    with np.errstate(over="ignore", invalid="ignore"):
        assert gaussian.summarise_releases([np.inf, 1.0], 0.0, half_width=1.0).rmse == np.inf
    with pytest.raises(ValueError, match="empty"):
        gaussian.summarise_releases([], 0.0, half_width=1.0)


def test_huge_mu_stays_finite_and_monotone():
    # μ = 10¹⁵: ε near μ²/2 lies beyond exp's range; δ(ε) is still evaluated without overflow
    # and a smaller δ still needs a larger ε.
    strict = gaussian.gaussian_epsilon(1e-12, 1e-6, 1e9)
    loose = gaussian.gaussian_epsilon(1e-5, 1e-6, 1e9)
    assert np.isfinite(strict) and strict > loose > 0
    assert gaussian.gaussian_delta(1e20, 1.0, 1e12) == pytest.approx(
        float(mp_delta(1e20, 1e12)), rel=1e-9)
