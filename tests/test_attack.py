"""Tests of dpcore.attack: the "be the attacker" game of f-DP ([DRS22]).

Monte Carlo checks use seeded generators and tolerances of 4 Monte Carlo standard
errors (a 6e-5 chance of a false failure each), so each would fail if the noise, the
errors or the intervals were wrong.
"""

import numpy as np
import pytest
from scipy import stats

from dpcore import attack, fdp, risk
from dpcore.attack import (
    AttackTally,
    beyond_curve,
    best_guess_errors,
    best_guesses,
    clopper_pearson,
    draw_rounds,
    mechanism_tradeoff,
    pool_tallies,
    tally,
    threshold_errors,
)

SETTINGS = [("laplace", 0.5), ("laplace", 2.0), ("gaussian", 1.0), ("gaussian", 0.3)]


# --- the game ---------------------------------------------------------------------------

@pytest.mark.parametrize("mechanism, privacy", SETTINGS)
def test_the_released_numbers_have_the_mechanisms_noise(mechanism, privacy):
    rounds, count = 100_000, 7
    worlds, released = draw_rounds(mechanism, privacy, rounds, count=count,
                                   rng=np.random.default_rng(1))
    assert worlds.dtype == bool and worlds.shape == released.shape == (rounds,)
    assert abs(worlds.mean() - 0.5) < 4 * np.sqrt(0.25 / rounds)
    noise = released - count - worlds
    # The noise is Lap(0, 1/eps) or N(0, 1/mu^2), the same in both worlds: compare
    # quantiles with scipy's distribution, in each world.
    ref = (stats.laplace(scale=1 / privacy) if mechanism == "laplace"
           else stats.norm(scale=1 / privacy))
    for in_world in (noise[worlds], noise[~worlds]):
        n = in_world.size
        for q in (0.05, 0.25, 0.5, 0.75, 0.95):
            assert abs(np.mean(in_world <= ref.ppf(q)) - q) < 4 * np.sqrt(q * (1 - q) / n)


def test_draw_rounds_is_seeded_and_moves_continuously_with_the_level():
    a = draw_rounds("gaussian", 1.0, 50, rng=3)
    b = draw_rounds("gaussian", 1.0, 50, rng=np.random.default_rng(3))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    w1, x1 = draw_rounds("laplace", 0.5, 50, count=4, rng=5)
    w2, x2 = draw_rounds("laplace", 2.0, 50, count=4, rng=5)
    assert np.array_equal(w1, w2)
    np.testing.assert_allclose(x1 - 4 - w1, 4 * (x2 - 4 - w2))


def test_tally_counts_each_kind_of_error():
    worlds = np.array([0, 0, 0, 1, 1, 1, 1], dtype=bool)
    guesses = np.array([1, 0, 1, 0, 1, 1, 0], dtype=bool)
    t = tally(worlds, guesses)
    assert t == AttackTally(false_alarms=2, null_rounds=3, misses=2, alt_rounds=4)
    assert t.false_alarm_rate == pytest.approx(2 / 3) and t.miss_rate == 0.5 and t.rounds == 7
    assert tally([0, 1], [1, 1]) == AttackTally(1, 1, 0, 1)  # 0/1 work as bools
    empty = tally([], [])
    assert empty == AttackTally(0, 0, 0, 0)
    assert empty.false_alarm_rate is None and empty.miss_rate is None


def test_a_rate_without_rounds_is_none_and_its_interval_is_everything():
    t = AttackTally(false_alarms=0, null_rounds=0, misses=3, alt_rounds=10)
    assert t.false_alarm_rate is None and t.miss_rate == 0.3
    (a_lo, a_hi), (b_lo, b_hi) = t.intervals()
    assert (a_lo, a_hi) == (0.0, 1.0)
    assert 0 < b_lo < 0.3 < b_hi < 1
    # alpha_upper = 1 and f(1) = 0: such a point is never beyond, however few misses.
    verdict = beyond_curve([AttackTally(0, 0, 0, 1000)], mechanism_tradeoff("laplace", 5.0))
    assert not verdict.students[0].beyond and verdict.students[0].alpha is None


# --- (a) the optimal attacker lands on the curve ----------------------------------------

@pytest.mark.parametrize("mechanism, privacy", SETTINGS)
def test_the_likelihood_ratio_attacker_lands_on_the_curve(mechanism, privacy):
    worlds, released = draw_rounds(mechanism, privacy, attack.MAX_ROUNDS, count=12,
                                   rng=np.random.default_rng(2))
    t = tally(worlds, best_guesses(released, count=12))
    a, b = t.false_alarm_rate, t.miss_rate
    exact = best_guess_errors(mechanism, privacy)
    assert abs(a - exact[0]) < 4 * np.sqrt(exact[0] * (1 - exact[0]) / t.null_rounds)
    assert abs(b - exact[1]) < 4 * np.sqrt(exact[1] * (1 - exact[1]) / t.alt_rounds)
    # The point (a, b) is on the curve: b - f(a) within its delta-method standard error.
    f = mechanism_tradeoff(mechanism, privacy)
    slope = (fdp.laplace_slope(a, privacy) if mechanism == "laplace"
             else fdp.gdp_slope(a, privacy))
    se = np.sqrt(b * (1 - b) / t.alt_rounds + slope**2 * a * (1 - a) / t.null_rounds)
    assert abs(b - float(f(a))) < 4 * se


@pytest.mark.parametrize("mechanism, privacy", SETTINGS)
def test_best_guess_errors_closed_form_is_the_diagonal_point_and_the_fewest_errors(
        mechanism, privacy):
    a, b = best_guess_errors(mechanism, privacy)
    assert a == b
    f = mechanism_tradeoff(mechanism, privacy)
    assert float(f(a)) == pytest.approx(a, rel=1e-9)  # on the curve, on the diagonal
    grid = np.linspace(0, 1, 200_001)
    assert (a + b) == pytest.approx(np.min(grid + f(grid)), abs=1e-8)  # least alpha + beta
    guarantee = (risk.Guarantee.laplace(privacy) if mechanism == "laplace"
                 else risk.Guarantee.gaussian(privacy))
    assert (a + b) / 2 == pytest.approx(float(risk.guess_error(guarantee, 0.5)), rel=1e-12)
    # The threshold c + 1/2 of best_guesses is the threshold of these errors.
    ta, tb = threshold_errors(mechanism, privacy, 10.5, count=10)
    assert (float(ta), float(tb)) == pytest.approx((a, b), rel=1e-12)


@pytest.mark.parametrize("mechanism, privacy", SETTINGS)
def test_every_threshold_attacker_is_on_the_curve_and_simulation_agrees(mechanism, privacy):
    thresholds = np.array([-np.inf, 8.0, 9.7, 10.0, 10.3, 11.0, 12.5, np.inf])
    a, b = threshold_errors(mechanism, privacy, thresholds, count=10)
    np.testing.assert_allclose(b, mechanism_tradeoff(mechanism, privacy)(a), atol=1e-12)
    assert (a[0], b[0], a[-1], b[-1]) == (1.0, 0.0, 0.0, 1.0)
    assert np.all(np.diff(a) <= 0) and np.all(np.diff(b) >= 0)
    worlds, released = draw_rounds(mechanism, privacy, 50_000, count=10, rng=4)
    for t, ea, eb in zip(thresholds[1:-1], a[1:-1], b[1:-1]):
        s = tally(worlds, released > t)
        assert abs(s.false_alarm_rate - ea) < 4 * np.sqrt(ea * (1 - ea) / s.null_rounds) + 1e-12
        assert abs(s.miss_rate - eb) < 4 * np.sqrt(eb * (1 - eb) / s.alt_rounds) + 1e-12


def test_mechanism_tradeoff_is_the_laplace_curve_or_g_mu():
    a = np.linspace(0, 1, 11)
    np.testing.assert_array_equal(mechanism_tradeoff("laplace", 0.7)(a),
                                  fdp.laplace_tradeoff(a, 0.7))
    np.testing.assert_array_equal(mechanism_tradeoff("gaussian", 0.7)(a),
                                  fdp.gdp_tradeoff(a, 0.7))


# --- (b) random guessing ----------------------------------------------------------------

@pytest.mark.parametrize("p", [0.0, 0.3, 0.5, 0.9, 1.0])
def test_a_random_guesser_lands_on_the_diagonal_and_is_never_beyond(p):
    rng = np.random.default_rng(5)
    worlds, _ = draw_rounds("laplace", 1.0, 20_000, rng=rng)
    t = tally(worlds, rng.random(worlds.size) < p)
    se = np.sqrt(p * (1 - p) / min(t.null_rounds, t.alt_rounds))
    assert abs(t.false_alarm_rate - p) <= 4 * se and abs(t.miss_rate - (1 - p)) <= 4 * se
    assert not beyond_curve([t], mechanism_tradeoff("laplace", 1.0)).students[0].beyond


def test_a_class_of_random_guessers_raises_no_flag():
    rng = np.random.default_rng(6)
    students, rounds = 300, 30
    n0 = rng.binomial(rounds, 0.5, size=students)
    p = rng.random(students)  # each guesser says D' with their own probability
    tallies = [AttackTally(rng.binomial(a, q), a, rng.binomial(rounds - a, 1 - q), rounds - a)
               for a, q in zip(n0, p)]
    for mechanism, privacy in SETTINGS:
        verdict = beyond_curve(tallies, mechanism_tradeoff(mechanism, privacy))
        assert verdict.flagged == () and not verdict.pooled.beyond


# --- (c) the family-wise false-flag rate ------------------------------------------------

def _honest_classes(classes, students, rounds, alpha, beta, rng):
    """Tallies of honest students whose tests have errors (alpha, beta), drawn directly."""
    n0 = rng.binomial(rounds, 0.5, size=(classes, students))
    fa = rng.binomial(n0, alpha)
    mi = rng.binomial(rounds - n0, beta)
    return fa, n0, mi, rounds - n0


def test_honest_students_on_the_curve_are_falsely_flagged_at_most_at_the_level():
    level, classes, students, rounds = 0.05, 1000, 20, 100
    eps = 0.5
    alpha, beta = best_guess_errors("laplace", eps)  # on the curve
    fa, n0, mi, n1 = _honest_classes(classes, students, rounds, alpha, beta,
                                     np.random.default_rng(7))
    f = mechanism_tradeoff("laplace", eps)
    any_flag = [bool(v.flagged) or v.pooled.beyond for v in (
        beyond_curve(list(zip(*(x[c] for x in (fa, n0, mi, n1)))), f, level=level)
        for c in range(classes))]
    rate = np.mean(any_flag)
    assert rate <= level + 3 * np.sqrt(level * (1 - level) / classes)


def test_the_bonferroni_correction_holds_the_family_wise_level_where_it_matters():
    # Against a flat bound f = beta (non-increasing, and met by these students with
    # equality), a flag means beta_upper < beta: exactly a miss of the upper bound, so the
    # family-wise rate comes close to its limit. Uncorrected, the same bounds flag some
    # student in far more than `level` of the classes.
    level, classes, students, rounds = 0.05, 1000, 20, 60
    alpha, beta = 0.3, 0.4
    fa, n0, mi, n1 = _honest_classes(classes, students, rounds, alpha, beta,
                                     np.random.default_rng(8))

    def flat(a):
        return np.full(np.shape(a), beta)

    verdicts = [beyond_curve(list(zip(*(x[c] for x in (fa, n0, mi, n1)))), flat, level=level)
                for c in range(classes)]
    assert {v.tests for v in verdicts} == {students + 1}
    rate = np.mean([bool(v.flagged) or v.pooled.beyond for v in verdicts])
    assert rate <= level + 3 * np.sqrt(level * (1 - level) / classes)
    _, upper = clopper_pearson(mi, n1, confidence=1 - level)  # one student at a time
    uncorrected = np.mean(np.any(upper < beta, axis=1))
    assert uncorrected > 3 * level
    # Each corrected interval's upper end misses beta at most level/(2m) of the time.
    m = students + 1
    _, upper = clopper_pearson(mi, n1, confidence=1 - level / m)
    n = upper.size
    assert np.mean(upper < beta) <= level / (2 * m) + 4 * np.sqrt(level / (2 * m) / n)


def test_the_corner_region_covers_the_true_errors_at_its_confidence():
    rng = np.random.default_rng(9)
    level, m, reps, rounds = 0.05, 5, 200_000, 40
    alpha, beta = 0.2, 0.55
    fa, n0, mi, n1 = _honest_classes(reps, 1, rounds, alpha, beta, rng)
    _, a_hi = clopper_pearson(fa, n0, confidence=1 - level / m)
    _, b_hi = clopper_pearson(mi, n1, confidence=1 - level / m)
    miss = np.mean((a_hi < alpha) | (b_hi < beta))
    assert miss <= level / m + 4 * np.sqrt(level / m / reps)


# --- (d) a point far below the curve ----------------------------------------------------

def test_no_errors_in_a_hundred_rounds_at_eps_half_is_flagged():
    f = mechanism_tradeoff("laplace", 0.5)
    verdict = beyond_curve([AttackTally(0, 50, 0, 50)], f)
    [point] = verdict.students
    assert point.beyond and verdict.pooled.beyond and verdict.flagged == (0,)
    assert verdict.tests == 1 and verdict.confidence == pytest.approx(0.95)
    # The corner: alpha_upper = 1 - 0.025^(1/50) (Clopper-Pearson at k = 0).
    assert point.alpha_interval == pytest.approx((0.0, 1 - 0.025 ** (1 / 50)))
    assert point.curve_at_corner == pytest.approx(float(f(point.alpha_interval[1])))


def test_a_large_sample_slightly_below_the_curve_is_flagged_and_one_on_it_is_not():
    f = mechanism_tradeoff("laplace", 0.5)
    on = best_guess_errors("laplace", 0.5)[0]  # 0.389
    n = 100_000
    below = AttackTally(round(0.35 * n), n, round(0.35 * n), n)  # f(0.35) = 0.433
    exact = AttackTally(round(on * n), n, round(on * n), n)
    verdict = beyond_curve([below, exact], f)
    assert verdict.flagged == (0,)


def test_the_verdict_is_the_definition_checked_on_the_whole_region():
    # "Beyond" means every (alpha, beta) with alpha <= alpha_upper and beta <= beta_upper
    # has beta < f(alpha): checked on a grid of the region, for many tallies.
    rng = np.random.default_rng(10)
    f = mechanism_tradeoff("gaussian", 0.5)
    n0, n1 = rng.integers(0, 100, size=300), rng.integers(0, 100, size=300)
    tallies = [AttackTally(rng.integers(0, a // 2 + 1), a, rng.integers(0, b // 2 + 1), b)
               for a, b in zip(n0, n1)]
    verdict = beyond_curve(tallies, f, level=0.2)
    seen = set()
    for point in verdict.students:
        a_hi, b_hi = point.alpha_interval[1], point.beta_interval[1]
        ga, gb = np.meshgrid(np.linspace(0, a_hi, 41), np.linspace(0, b_hi, 41))
        assert point.beyond == bool(np.all(gb < f(ga)))
        seen.add(point.beyond)
    assert seen == {True, False}


# --- the pooled point -------------------------------------------------------------------

def test_pooling_sums_the_counts_and_the_class_point_is_tested_too():
    tallies = [AttackTally(1, 4, 2, 6), AttackTally(3, 5, 0, 5), (0, 3, 1, 2)]
    pooled = pool_tallies(tallies)
    assert pooled == AttackTally(4, 12, 3, 13)
    verdict = beyond_curve(tallies, mechanism_tradeoff("gaussian", 1.0), level=0.1)
    assert verdict.pooled.tally == pooled and verdict.tests == 4
    assert verdict.confidence == pytest.approx(1 - 0.1 / 4)
    assert verdict.students[2].tally == AttackTally(0, 3, 1, 2)


@pytest.mark.parametrize("mechanism, privacy", SETTINGS)
def test_equal_weights_pool_honest_tests_on_or_above_the_curve(mechanism, privacy):
    # Students on the curve at different points, each with the same numbers of rounds of
    # each kind: the pooled errors are the mixture test's, on or above the convex curve.
    f = mechanism_tradeoff(mechanism, privacy)
    alphas = np.array([0.0, 0.01, 0.1, 0.3, 0.6, 0.95, 1.0])
    betas = f(alphas)
    w = np.full(alphas.size, 1 / alphas.size)
    assert float(np.sum(w * betas)) >= float(f(np.sum(w * alphas))) - 1e-12
    rng = np.random.default_rng(11)
    for _ in range(200):
        w = rng.dirichlet(np.ones(alphas.size))
        assert float(np.sum(w * betas)) >= float(f(np.sum(w * alphas))) - 1e-12


def test_unequal_weights_can_pool_honest_students_below_the_curve():
    # The documented caveat: always-D with mostly D rounds, always-D' with mostly D' rounds.
    f = mechanism_tradeoff("laplace", 0.5)
    always_d = AttackTally(false_alarms=0, null_rounds=900, misses=100, alt_rounds=100)
    always_d_prime = AttackTally(false_alarms=100, null_rounds=100, misses=0, alt_rounds=900)
    verdict = beyond_curve([always_d, always_d_prime], f)
    assert verdict.flagged == ()
    assert verdict.pooled.alpha == verdict.pooled.beta == 0.1 and verdict.pooled.beyond


# --- (e) the exact intervals ------------------------------------------------------------

@pytest.mark.parametrize("confidence", [0.5, 0.9, 0.95, 0.999, 1 - 1e-6])
def test_clopper_pearson_matches_scipy_binomtest(confidence):
    for n in (1, 2, 7, 30, 250):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence,
                                                     method="exact")
            lower, upper = clopper_pearson(k, n, confidence=confidence)
            # scipy finds the ends by root-finding, to about 1e-12 absolute.
            assert (float(lower), float(upper)) == pytest.approx((ci.low, ci.high), rel=1e-9,
                                                                 abs=1e-12)


@pytest.mark.parametrize("confidence", [0.9, 1 - 1e-6, 1 - 1e-12])
def test_clopper_pearson_closed_forms_at_zero_and_one_success(confidence):
    # k = 0: upper = 1 - tail^(1/n); k = 1: lower = 1 - (1 - tail)^(1/n); tail = (1 - c)/2.
    tail = (1 - confidence) / 2
    n = np.array([1, 2, 7, 30, 250, 10_000])
    _, upper = clopper_pearson(0, n, confidence=confidence)
    lower, _ = clopper_pearson(1, n, confidence=confidence)
    np.testing.assert_allclose(upper, -np.expm1(np.log(tail) / n), rtol=1e-10)
    np.testing.assert_allclose(lower, -np.expm1(np.log1p(-tail) / n), rtol=1e-8)
    # The mirror image: k = n - 1 and k = n.
    lower_n, _ = clopper_pearson(n, n, confidence=confidence)
    _, upper_n = clopper_pearson(n - 1, n, confidence=confidence)
    np.testing.assert_allclose(1 - lower_n, upper, rtol=1e-8, atol=1e-15)
    np.testing.assert_allclose(1 - upper_n, lower, rtol=1e-6, atol=1e-15)  # 1 - x cancels


def test_clopper_pearson_is_vectorised_and_empty_trials_give_everything():
    k = np.array([[0, 3], [5, 0]])
    n = np.array([[10, 10], [5, 0]])
    lower, upper = clopper_pearson(k, n, confidence=0.9)
    assert lower.shape == upper.shape == (2, 2)
    for i in range(2):
        for j in range(2):
            assert (lower[i, j], upper[i, j]) == tuple(
                float(x) for x in clopper_pearson(int(k[i, j]), int(n[i, j]), confidence=0.9))
    assert (lower[1, 1], upper[1, 1]) == (0.0, 1.0)
    t = AttackTally(3, 10, 5, 5)
    assert t.intervals(0.9) == ((float(lower[0, 1]), float(upper[0, 1])),
                                (float(lower[1, 0]), float(upper[1, 0])))


# --- (f) refusals -----------------------------------------------------------------------

@pytest.mark.parametrize("call, name", [
    (lambda: draw_rounds("exponential", 1.0, 10), "mechanism"),
    (lambda: draw_rounds("laplace", 0.0, 10), "privacy"),
    (lambda: draw_rounds("laplace", np.inf, 10), "privacy"),
    (lambda: draw_rounds("gaussian", 1.0, 0), "rounds"),
    (lambda: draw_rounds("gaussian", 1.0, attack.MAX_ROUNDS + 1), "rounds"),
    (lambda: draw_rounds("gaussian", 1.0, 2.5), "rounds"),
    (lambda: draw_rounds("gaussian", 1.0, 10, count=-1), "count"),
    (lambda: draw_rounds("gaussian", 1.0, 10, count=1.5), "count"),
    (lambda: AttackTally(3, 2, 0, 0), "false_alarms"),
    (lambda: AttackTally(0, 2, 1, 0), "misses"),
    (lambda: AttackTally(0, -1, 0, 0), "null_rounds"),
    (lambda: AttackTally(0, 1, 0, 1.5), "alt_rounds"),
    (lambda: tally([0, 1, 2], [0, 1, 1]), "worlds"),
    (lambda: tally([0, 1], [0, 0.5]), "guesses"),
    (lambda: tally([[0, 1]], [[0, 1]]), "worlds"),
    (lambda: tally([0, 1], [0, 1, 1]), "guesses"),
    (lambda: pool_tallies([]), "tallies"),
    (lambda: pool_tallies([3]), "tallies"),
    (lambda: clopper_pearson(3, 2), "successes"),
    (lambda: clopper_pearson(-1, 2), "successes"),
    (lambda: clopper_pearson(1.5, 2), "successes"),
    (lambda: clopper_pearson(1, np.nan), "trials"),
    (lambda: clopper_pearson(1, 2, confidence=1.0), "confidence"),
    (lambda: beyond_curve([AttackTally(0, 1, 0, 1)], 0.5), "tradeoff"),
    (lambda: beyond_curve([AttackTally(0, 1, 0, 1)], np.sqrt, level=0), "level"),
    (lambda: beyond_curve([], np.sqrt), "tallies"),
    (lambda: mechanism_tradeoff("laplace", -1), "privacy"),
    (lambda: best_guess_errors("krr", 1.0), "mechanism"),
    (lambda: best_guesses([1.0, np.nan]), "released"),
    (lambda: best_guesses([1.0], count=10**7), "count"),
    (lambda: threshold_errors("laplace", 1.0, np.nan), "threshold"),
    (lambda: threshold_errors("laplace", 1.0, "high"), "threshold"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        call()
