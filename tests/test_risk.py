"""dpcore.risk: the attacker's odds and best guess, against closed forms written out here,
numerical minimisation over dpcore.fdp's trade-off curves, and a Monte Carlo attacker."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpcore import fdp, substitution
from dpcore.risk import Guarantee, guess_error, posterior_bound, risk_table, side_by_side

EPS = [0.0, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0]
PRIORS = [0.001, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99]
TOL = 1e-9


def _odds_bound(eps: float, prior: float) -> float:
    return math.exp(eps) * prior / (math.exp(eps) * prior + 1 - prior)


@pytest.mark.parametrize("eps", EPS)
def test_pure_posterior_is_the_odds_bound(eps):
    for prior in PRIORS:
        for g in (Guarantee.pure(eps), Guarantee.laplace(eps), Guarantee.approximate(eps, 0)):
            assert float(posterior_bound(g, prior)) == pytest.approx(_odds_bound(eps, prior),
                                                                     abs=TOL)
        # the same bound as random substitution's γ-amplification with γ = e^ε
        assert float(Guarantee.pure(eps).posterior(prior)) == pytest.approx(
            substitution.posterior_bound(prior, math.exp(eps)), abs=TOL)


def test_the_issue_examples():
    assert float(Guarantee.pure(1.0).posterior(0.5)) == pytest.approx(0.731059, abs=1e-6)
    assert float(Guarantee.pure(10.0).posterior(0.5)) == pytest.approx(0.9999546, abs=1e-7)


def _test_posterior(g: Guarantee, prior: float, alpha: np.ndarray) -> np.ndarray:
    """The posterior of a test that says "in" at false-alarm rate α (Bayes' rule); G_μ's
    power Φ̄(Φ̄⁻¹(α) − μ) written with the upper tail, so tiny rates keep their digits."""
    if g.kind == "gdp":
        power = stats.norm.sf(stats.norm.isf(alpha) - g.mu)
    else:
        power = 1.0 - g.tradeoff(alpha)
    return prior * power / (prior * power + (1 - prior) * alpha)


@pytest.mark.parametrize("make", [Guarantee.pure, Guarantee.laplace])
@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0, 10.0])
def test_posterior_bound_is_the_supremum_over_the_curve(make, eps):
    """On dpcore.fdp's curves: no test's posterior exceeds the bound, and the steepest tests
    (small α, where 1 − f(α) = e^ε α) reach it."""
    g = make(eps)
    # from α = 10⁻⁶ on: 1 − f(α) keeps ten digits there (below it cancels)
    alpha = np.concatenate([np.geomspace(1e-6, 1e-3, 200), np.linspace(1e-3, 1, 20_001)])
    for prior in PRIORS:
        bound = float(g.posterior(prior))
        post = _test_posterior(g, prior, alpha)
        assert post.max() <= bound + TOL
        assert post[0] == pytest.approx(bound, abs=TOL)


@pytest.mark.parametrize("g", [Guarantee.approximate(1.0, 1e-5), Guarantee.approximate(0.1, 0.01),
                               Guarantee.gaussian(0.5), Guarantee.gaussian(2.0)])
def test_unbounded_guarantees_reach_certainty_on_their_curves(g):
    """δ > 0 or μ > 0: tests with tiny false-alarm rates make the attacker nearly sure."""
    assert not g.bounded
    alpha = np.geomspace(1e-300, 1e-3, 400)
    for prior in (0.01, 0.5):
        assert float(g.posterior(prior)) == 1.0
        assert _test_posterior(g, prior, alpha).max() > 1 - 1e-6
    assert math.isnan(risk_table(g)["posterior_bound"].iloc[0])


def _numerical_error(g: Guarantee, prior: float, *, swapped: bool = False) -> float:
    """min over α of (1 − π)α + πf(α) (or πα + (1 − π)f(α)) on the curve from dpcore.fdp, by
    golden-section search: the loss is convex (f is), kinks included, so the bracket keeps
    the minimum while it shrinks to the float resolution."""
    wa, wf = (prior, 1 - prior) if swapped else (1 - prior, prior)

    def loss(a):
        return wa * a + wf * float(g.tradeoff(a))

    lo, hi, ratio = 0.0, 1.0, (math.sqrt(5) - 1) / 2
    for _ in range(200):
        x1, x2 = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        if loss(x1) <= loss(x2):
            hi = x2
        else:
            lo = x1
    return min(loss(lo), loss(hi), loss(0.0), loss(1.0))


KINDS = [Guarantee.pure(0.5), Guarantee.pure(2.0), Guarantee.approximate(1.0, 1e-5),
         Guarantee.approximate(0.3, 0.05), Guarantee.laplace(0.5), Guarantee.laplace(2.0),
         Guarantee.laplace(10.0), Guarantee.gaussian(0.25), Guarantee.gaussian(1.0),
         Guarantee.gaussian(4.0), Guarantee.gaussian(0.0)]


@pytest.mark.parametrize("g", KINDS, ids=repr)
def test_guess_error_is_the_minimum_over_the_curve(g):
    for prior in PRIORS:
        closed = float(guess_error(g, prior))
        assert closed == pytest.approx(_numerical_error(g, prior), abs=TOL)
        # the issue's form, with the roles of "in" and "out" swapped (f is symmetric)
        assert closed == pytest.approx(_numerical_error(g, prior, swapped=True), abs=TOL)
        assert 0.0 <= closed <= min(prior, 1 - prior) + 1e-15


@pytest.mark.parametrize("eps,delta", [(0.5, 0.0), (1.0, 1e-5), (3.0, 0.1)])
def test_epsdelta_error_at_the_polygon_vertices(eps, delta):
    """f_{ε,δ} is a polygon: the minimum of a linear loss is at one of its vertices."""
    a, b = fdp.epsdelta_vertices(eps, delta)
    for prior in PRIORS:
        at_vertices = float(np.min((1 - prior) * a + prior * b))
        assert float(guess_error(Guarantee.approximate(eps, delta), prior)) == pytest.approx(
            at_vertices, abs=TOL)


@pytest.mark.parametrize("eps", EPS)
def test_pure_best_guess_agrees_with_the_odds_at_one_half(eps):
    g = Guarantee.pure(eps)
    assert float(g.guess_right(0.5)) == pytest.approx(_odds_bound(eps, 0.5), abs=TOL)


@pytest.mark.parametrize("eps,delta", [(0.0, 0.0), (1.0, 0.0), (1.0, 1e-5), (0.2, 0.3), (10, 0)])
def test_power_at_five_percent_closed_form(eps, delta):
    """1 − f_{ε,δ}(α) = min(1, e^ε α + δ, 1 − e^{−ε}(1 − δ − α))."""
    alpha = 0.05
    expected = min(1.0, math.exp(eps) * alpha + delta, 1 - math.exp(-eps) * (1 - delta - alpha))
    assert float(Guarantee.approximate(eps, delta).power(alpha)) == pytest.approx(expected,
                                                                                  abs=TOL)


@pytest.mark.parametrize("mu", [0.0, 0.5, 1.0, 3.0])
def test_gaussian_power_closed_form(mu):
    expected = stats.norm.cdf(mu - stats.norm.ppf(0.95))
    assert float(Guarantee.gaussian(mu).power(0.05)) == pytest.approx(expected, abs=TOL)


def test_delta_adds_to_the_guess_at_most_delta_times_the_pure_error():
    for prior in PRIORS:
        pure = float(guess_error(Guarantee.pure(1.0), prior))
        approx = float(guess_error(Guarantee.approximate(1.0, 1e-3), prior))
        assert pure - approx == pytest.approx(1e-3 * pure, abs=TOL)


@pytest.mark.parametrize("g,prior", [(Guarantee.gaussian(1.0), 0.5), (Guarantee.gaussian(2.0), 0.1),
                                     (Guarantee.laplace(1.0), 0.3)])
def test_a_simulated_bayes_attacker_matches(g, prior):
    """An independent check: draw who is in, draw the mechanism's output, let the attacker
    say "in" when the posterior exceeds 1/2; its error rate is the closed form, within
    4 Monte Carlo standard errors."""
    rng = np.random.default_rng(20261128)
    n = 400_000
    inside = rng.random(n) < prior
    if g.kind == "gdp":
        x = rng.normal(size=n) + g.mu * inside
        log_lr = g.mu * x - g.mu ** 2 / 2
    else:
        x = rng.laplace(size=n) + g.eps * inside
        log_lr = np.abs(x) - np.abs(x - g.eps)
    says_in = log_lr + math.log(prior / (1 - prior)) > 0
    errors = np.mean(says_in != inside)
    expected = float(guess_error(g, prior))
    se = math.sqrt(expected * (1 - expected) / n)
    assert abs(errors - expected) < 4 * se


def test_side_by_side_rows_and_power():
    t = side_by_side(Guarantee.pure(1.0), Guarantee.gaussian(1.0))
    assert list(t["level"]) == [0, 0, 0, 1, 1, 1]
    assert t["power"].iloc[0] == pytest.approx(min(1, math.e * 0.05), abs=TOL)
    assert t["posterior_bound"].iloc[3:].isna().all()


@pytest.mark.parametrize("call,name", [
    (lambda: Guarantee("poll"), "kind"),
    (lambda: Guarantee.pure(-1), "eps"),
    (lambda: Guarantee.pure(float("nan")), "eps"),
    (lambda: Guarantee.gaussian(-0.1), "mu"),
    (lambda: Guarantee.approximate(1, 1.5), "delta"),
    (lambda: Guarantee("eps", eps=1, delta=0.1), "delta"),
    (lambda: Guarantee.pure(1).posterior(0.0), "prior"),
    (lambda: Guarantee.pure(1).guess_right(1.0), "prior"),
    (lambda: risk_table(Guarantee.pure(1), priors=[0.5, float("nan")]), "prior"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
