"""Be the attacker: a guessing game whose errors can never beat the trade-off curve.

A class activity on f-DP [DRS22]. In each round the server secretly picks one of two
neighbouring data sets, each with probability 1/2: D, whose count is c, or D′, which
holds one person more (count c + 1). It releases the count plus noise: Laplace with
scale 1/ε (the Laplace mechanism with sensitivity 1) or Gaussian with standard deviation
1/μ. The student sees the released number and guesses D or D′.

- A **false alarm** is guessing D′ when the truth is D: the type I error, rate α.
- A **miss** is guessing D when the truth is D′: the type II error, rate β.

Every test of D against D′, randomized or not, has β ≥ f(α), where f is the mechanism's
trade-off function: T(Lap(0, 1), Lap(ε, 1)) (:func:`dpcore.fdp.laplace_tradeoff`) for
the Laplace mechanism, G_μ (:func:`dpcore.fdp.gdp_tradeoff`) for the Gaussian one (the
released number, shifted by c and multiplied by ε or μ, is Lap(0, 1) or N(0, 1) under D
and the same shifted by ε or μ under D′). So a student's observed point (α̂, β̂) lies on or
above the curve up to chance, and :func:`beyond_curve` says, with exact Clopper-Pearson
bounds and a Bonferroni correction over the class, whether any student's point lies below
it by more than chance allows.

The functions:

- :func:`draw_rounds`: the secret worlds and the released numbers of a game;
- :func:`tally` and :class:`AttackTally`: a student's false alarms and misses;
- :func:`clopper_pearson`: exact intervals for the two rates;
- :func:`mechanism_tradeoff`: the curve f of a mechanism;
- :func:`beyond_curve`: the verdict per student and for the class pooled;
- :func:`best_guesses`, :func:`best_guess_errors`, :func:`threshold_errors`: what the
  likelihood-ratio attacker ("say D′ when the number exceeds a threshold") reaches.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
from scipy import special, stats

from dpcore import audit, fdp
from dpcore.errors import ArgumentError
from dpcore.validation import (
    category_indices,
    finite_array,
    integer_in_range,
    one_of,
    positive_integer,
    positive_scalar,
    probability,
    real_vector,
)

__all__ = [
    "MAX_COUNT",
    "MAX_ROUNDS",
    "MECHANISMS",
    "AttackTally",
    "CurveVerdict",
    "PointVerdict",
    "beyond_curve",
    "best_guess_errors",
    "best_guesses",
    "clopper_pearson",
    "draw_rounds",
    "mechanism_tradeoff",
    "pool_tallies",
    "tally",
    "threshold_errors",
]

#: The noise of the released number: Laplace with scale 1/ε, or Gaussian with sd 1/μ.
MECHANISMS = ("laplace", "gaussian")
#: The most rounds one call of :func:`draw_rounds` plays (a class plays tens; simulations
#: of an attacker's long-run errors use many more).
MAX_ROUNDS = 100_000
#: The largest count c of the world D.
MAX_COUNT = 10**6
_MAX_TALLY = 10**12  # rounds of one kind in a (pooled) tally


def _mechanism(mechanism, privacy) -> tuple[str, float]:
    return one_of(mechanism, "mechanism", MECHANISMS), positive_scalar(privacy, "privacy")


def draw_rounds(mechanism: str, privacy, rounds: int, *, count: int = 10, rng=None):
    """The secret worlds and the released numbers of a game of ``rounds`` rounds.

    In each round the world is D′ with probability 1/2 (independently), and the release
    is c + [world is D′] + noise: Lap(0, 1/ε) for ``"laplace"``, N(0, 1/μ²) for
    ``"gaussian"``. The noise is drawn as a standard Laplace or normal variate divided by
    ``privacy``, so with a fixed seed the releases move continuously with the privacy
    level.

    Parameters
    ----------
    mechanism : {"laplace", "gaussian"}
        The noise (``MECHANISMS``).
    privacy : float
        The privacy level: ε for ``"laplace"`` (noise scale 1/ε), μ for ``"gaussian"``
        (noise sd 1/μ); a finite number > 0.
    rounds : int
        The number of rounds, from 1 to ``MAX_ROUNDS``.
    count : int, optional
        Keyword-only: the count c of the world D, a whole number from 0 to
        ``MAX_COUNT`` (default 10); D′ has c + 1.
    rng : None, int or numpy.random.Generator, optional
        Keyword-only: the random source, normalised by ``np.random.default_rng``.

    Returns
    -------
    worlds : numpy.ndarray of bool
        One per round: True when the secret world is D′ (one person more).
    released : numpy.ndarray of float
        The numbers the server releases, one per round.

    Raises
    ------
    ValueError
        If ``mechanism`` is not one of ``MECHANISMS``, ``privacy`` is not a finite
        number > 0, ``rounds`` is not an integer from 1 to ``MAX_ROUNDS``, or ``count``
        is not a whole number from 0 to ``MAX_COUNT``; the message names the parameter.

    Notes
    -----
    The Laplace mechanism at sensitivity 1 and the Gaussian mechanism, whose trade-off
    functions between D and D′ are :func:`dpcore.fdp.laplace_tradeoff` at ε and G_μ
    [DRS22]; the game itself is this project's.

    Examples
    --------
    >>> from dpcore.attack import draw_rounds
    >>> worlds, released = draw_rounds("laplace", 1.0, 5, count=10, rng=1)
    >>> worlds
    array([False, False,  True, False,  True])
    >>> released.round(2)
    array([ 9.83, 11.07, 10.8 , 10.1 ,  8.1 ])
    """
    rng = np.random.default_rng(rng)
    mechanism, privacy = _mechanism(mechanism, privacy)
    rounds = positive_integer(rounds, "rounds", maximum=MAX_ROUNDS)
    count = integer_in_range(count, "count", minimum=0, maximum=MAX_COUNT)
    worlds = rng.random(rounds) < 0.5
    if mechanism == "laplace":
        noise = rng.laplace(0.0, 1.0, size=rounds)
    else:
        noise = rng.standard_normal(rounds)
    return worlds, count + worlds + noise / privacy


@dataclass(frozen=True)
class AttackTally:
    """A student's errors: false alarms among the D rounds, misses among the D′ rounds.

    The counts are checked and stored as ints. A rate is undefined when no round of its
    kind was played: the property is then None (the point is not drawn), never NaN, and
    its Clopper-Pearson interval (:meth:`intervals`) is all of [0, 1].

    Source: this project's bookkeeping of the type I and type II errors of [DRS22]'s
    hypothesis-testing view of privacy.

    Parameters
    ----------
    false_alarms : int
        Rounds in world D in which the student guessed D′; 0 to ``null_rounds``.
    null_rounds : int
        Rounds played in world D, ≥ 0.
    misses : int
        Rounds in world D′ in which the student guessed D; 0 to ``alt_rounds``.
    alt_rounds : int
        Rounds played in world D′, ≥ 0.

    Attributes
    ----------
    false_alarm_rate : float or None
        α̂ = false_alarms/null_rounds, None when ``null_rounds`` is 0.
    miss_rate : float or None
        β̂ = misses/alt_rounds, None when ``alt_rounds`` is 0.
    rounds : int
        null_rounds + alt_rounds.

    Raises
    ------
    ValueError
        If a count is not a whole number ≥ 0, or ``false_alarms`` exceeds
        ``null_rounds`` or ``misses`` exceeds ``alt_rounds``; the message names it.

    Examples
    --------
    >>> from dpcore.attack import AttackTally
    >>> t = AttackTally(false_alarms=3, null_rounds=10, misses=4, alt_rounds=8)
    >>> t.false_alarm_rate, t.miss_rate, t.rounds
    (0.3, 0.5, 18)
    >>> AttackTally(0, 0, 2, 5).false_alarm_rate is None
    True
    """

    false_alarms: int
    null_rounds: int
    misses: int
    alt_rounds: int

    def __post_init__(self):
        for name in ("null_rounds", "alt_rounds"):
            object.__setattr__(self, name, integer_in_range(getattr(self, name), name,
                                                            minimum=0, maximum=_MAX_TALLY))
        for name, of in (("false_alarms", "null_rounds"), ("misses", "alt_rounds")):
            object.__setattr__(self, name, integer_in_range(getattr(self, name), name,
                                                            minimum=0, maximum=getattr(self, of)))

    @property
    def rounds(self) -> int:
        """null_rounds + alt_rounds."""
        return self.null_rounds + self.alt_rounds

    @property
    def false_alarm_rate(self) -> float | None:
        """α̂ = false_alarms/null_rounds; None when no round was played in D."""
        return self.false_alarms / self.null_rounds if self.null_rounds else None

    @property
    def miss_rate(self) -> float | None:
        """β̂ = misses/alt_rounds; None when no round was played in D′."""
        return self.misses / self.alt_rounds if self.alt_rounds else None

    def intervals(self, confidence: float = 0.95):
        """The two-sided Clopper-Pearson intervals of α and β (:func:`clopper_pearson`).

        Each has the given ``confidence`` on its own; an interval is [0, 1] when no round
        of its kind was played. Returns ((α_lower, α_upper), (β_lower, β_upper)).
        """
        a = clopper_pearson(self.false_alarms, self.null_rounds, confidence=confidence)
        b = clopper_pearson(self.misses, self.alt_rounds, confidence=confidence)
        return (float(a[0]), float(a[1])), (float(b[0]), float(b[1]))


def tally(worlds, guesses) -> AttackTally:
    """Count a student's false alarms and misses from the worlds and the guesses.

    Parameters
    ----------
    worlds : array_like of bool
        The secret worlds, one per round, True (or 1) for D′, False (or 0) for D
        (1-D, as :func:`draw_rounds` returns them).
    guesses : array_like of bool
        The student's guesses, True (or 1) for D′; the same length.

    Returns
    -------
    AttackTally
        false_alarms = guesses of D′ in D rounds, misses = guesses of D in D′ rounds,
        with the numbers of rounds of each kind.

    Raises
    ------
    ValueError
        If ``worlds`` or ``guesses`` is not a 1-D array of 0/1 (or bool) values, or the
        two differ in length.

    Notes
    -----
    The type I and type II errors of [DRS22]'s testing view, counted; this project's.

    Examples
    --------
    >>> from dpcore.attack import tally
    >>> tally([False, False, True, True, True], [True, False, False, True, True])
    AttackTally(false_alarms=1, null_rounds=2, misses=1, alt_rounds=3)
    """
    w = category_indices(real_vector(worlds, "worlds"), "worlds", 2).astype(bool)
    g = category_indices(real_vector(guesses, "guesses"), "guesses", 2).astype(bool)
    if w.size != g.size:
        raise ArgumentError("`{name_a}` and `{name_b}` must have the same length.",
                            name_a="worlds", name_b="guesses")
    return AttackTally(false_alarms=int(np.sum(g & ~w)), null_rounds=int(np.sum(~w)),
                       misses=int(np.sum(~g & w)), alt_rounds=int(np.sum(w)))


def pool_tallies(tallies) -> AttackTally:
    """The class's pooled tally: every count summed over the students.

    Parameters
    ----------
    tallies : sequence of AttackTally
        The students' tallies (a tuple (false_alarms, null_rounds, misses, alt_rounds)
        is taken as one); at least one.

    Returns
    -------
    AttackTally
        The sums; its rates are the students' rates averaged with weights
        null_rounds/Σ null_rounds (α) and alt_rounds/Σ alt_rounds (β), see
        :func:`beyond_curve` on what that means.

    Raises
    ------
    ValueError
        If ``tallies`` is empty or an entry is neither an AttackTally nor four valid
        counts.

    Notes
    -----
    This project's; the pooled point is discussed in :func:`beyond_curve` ([DRS22]'s
    trade-off functions are convex).

    Examples
    --------
    >>> from dpcore.attack import AttackTally, pool_tallies
    >>> pool_tallies([AttackTally(1, 4, 2, 6), AttackTally(3, 5, 0, 5)])
    AttackTally(false_alarms=4, null_rounds=9, misses=2, alt_rounds=11)
    """
    ts = _tallies(tallies)
    return AttackTally(*(sum(getattr(t, f) for t in ts)
                         for f in ("false_alarms", "null_rounds", "misses", "alt_rounds")))


def _tallies(tallies) -> list[AttackTally]:
    try:
        items = list(tallies)
    except TypeError:
        raise ArgumentError("`{name}` must be an array of numbers.", name="tallies") from None
    if not items:
        raise ArgumentError("`{name}` must not be empty.", name="tallies")
    out = []
    for t in items:
        if isinstance(t, AttackTally):
            out.append(t)
            continue
        try:
            out.append(AttackTally(*t))
        except TypeError:
            raise ArgumentError("`{name}` must be an array of numbers.", name="tallies") from None
    return out


def clopper_pearson(successes, trials, *, confidence: float = 0.95):
    """Exact (Clopper-Pearson) two-sided interval of a binomial proportion, vectorised.

    lower = the a/2 quantile of Beta(k, n − k + 1) (0 when k = 0), upper = the 1 − a/2
    quantile of Beta(k + 1, n − k) (1 when k = n), a = 1 − confidence. Each end is a
    one-sided bound at level a/2: P(p > upper) ≤ a/2 and P(p < lower) ≤ a/2 whatever p.
    With no trials (n = 0) the interval is [0, 1]. The upper quantile is computed as an
    inverse survival function, so tiny a keeps its precision.

    Parameters
    ----------
    successes : int or array_like
        k, whole numbers from 0 to ``trials``.
    trials : int or array_like
        n, whole numbers ≥ 0, broadcasting with ``successes``.
    confidence : float, optional
        Keyword-only: 1 − a, strictly between 0 and 1 (default 0.95).

    Returns
    -------
    lower, upper : numpy.float64 or numpy.ndarray
        The interval's ends, in the broadcast shape.

    Raises
    ------
    ValueError
        If ``successes`` or ``trials`` holds a negative, fractional or non-finite
        number, a success count exceeds its trials, or ``confidence`` is not strictly
        between 0 and 1.

    Notes
    -----
    Source: the exact interval of Clopper & Pearson (1934), as
    ``scipy.stats.binomtest(k, n).proportion_ci(method="exact")`` computes it; used by
    this project for the error rates of [DRS22]'s tests.

    Examples
    --------
    >>> from dpcore.attack import clopper_pearson
    >>> lower, upper = clopper_pearson(3, 10)
    >>> round(float(lower), 4), round(float(upper), 4)
    (0.0667, 0.6525)
    >>> lower, upper = clopper_pearson([0, 10, 0], [10, 10, 0])
    >>> lower.round(4), upper.round(4)
    (array([0.    , 0.6915, 0.    ]), array([0.3085, 1.    , 1.    ]))
    """
    k = finite_array(successes, "successes", sign="nonnegative")
    n = finite_array(trials, "trials", sign="nonnegative")
    confidence = probability(confidence, "confidence")
    if np.any(k != np.round(k)):
        raise ArgumentError("`{name}` must be whole numbers (counts of records or users).",
                            name="successes")
    if np.any(n != np.round(n)):
        raise ArgumentError("`{name}` must be whole numbers (counts of records or users).",
                            name="trials")
    k, n = np.broadcast_arrays(k, n)
    if np.any(k > n):
        i = np.argmax(k > n)
        raise ArgumentError("`{name}` must be at most {maximum:,}, got {value:,}.",
                            name="successes", maximum=int(n.flat[i]), value=int(k.flat[i]))
    tail = (1.0 - confidence) / 2.0
    lower = np.where(k == 0, 0.0,
                     stats.beta.ppf(tail, np.maximum(k, 1), np.maximum(n - k + 1, 1)))
    upper = np.where(k == n, 1.0,
                     stats.beta.isf(tail, k + 1, np.maximum(n - k, 1)))
    return lower[()], upper[()]


def mechanism_tradeoff(mechanism: str, privacy):
    """The trade-off function f of the game's mechanism, as a vectorised callable f(α).

    Parameters
    ----------
    mechanism : {"laplace", "gaussian"}
        The noise (``MECHANISMS``).
    privacy : float
        ε for ``"laplace"``, μ for ``"gaussian"``; a finite number > 0.

    Returns
    -------
    callable
        α ↦ :func:`dpcore.fdp.laplace_tradeoff` (α, ε) or :func:`dpcore.fdp.gdp_tradeoff`
        (α, μ): the smallest miss rate of any test with false-alarm rate α.

    Raises
    ------
    ValueError
        If ``mechanism`` is not one of ``MECHANISMS`` or ``privacy`` is not a finite
        number > 0.

    Notes
    -----
    [DRS22]: T(M(D), M(D′)); for the Laplace mechanism at sensitivity 1 and scale 1/ε it
    is T(Lap(0, 1), Lap(ε, 1)), for the Gaussian one with sd 1/μ it is G_μ.

    Examples
    --------
    >>> from dpcore.attack import mechanism_tradeoff
    >>> f = mechanism_tradeoff("gaussian", 1.0)
    >>> round(float(f(0.05)), 4)
    0.7405
    >>> mechanism_tradeoff("laplace", 1.0)([0.1, 0.3]).round(4)
    array([0.7282, 0.3066])
    """
    mechanism, privacy = _mechanism(mechanism, privacy)
    if mechanism == "laplace":
        return partial(fdp.laplace_tradeoff, eps=privacy)
    return partial(fdp.gdp_tradeoff, mu=privacy)


@dataclass(frozen=True)
class PointVerdict:
    """One point of :func:`beyond_curve`: a student's (or the class's) errors and verdict.

    Source: this project's check of [DRS22]'s bound β ≥ f(α) on observed errors.

    Attributes
    ----------
    tally : AttackTally
        The counts.
    alpha : float or None
        The false-alarm rate α̂ (None when no D round was played: not drawn).
    beta : float or None
        The miss rate β̂ (None when no D′ round was played: not drawn).
    alpha_interval : tuple of (float, float)
        The Clopper-Pearson interval of α at the verdict's confidence
        (:attr:`CurveVerdict.confidence`); [0, 1] without D rounds.
    beta_interval : tuple of (float, float)
        The same for β.
    curve_at_corner : float
        f(α_upper), the curve at the upper end of ``alpha_interval``.
    beyond : bool
        True when β_upper < f(α_upper): the whole region α ≤ α_upper, β ≤ β_upper lies
        below the curve, more than chance allows.

    Examples
    --------
    >>> from dpcore.attack import AttackTally, beyond_curve, mechanism_tradeoff
    >>> verdict = beyond_curve([AttackTally(0, 50, 0, 50)], mechanism_tradeoff("laplace", 0.5))
    >>> point = verdict.students[0]
    >>> point.alpha, point.beta, point.beyond
    (0.0, 0.0, True)
    """

    tally: AttackTally
    alpha: float | None
    beta: float | None
    alpha_interval: tuple[float, float]
    beta_interval: tuple[float, float]
    curve_at_corner: float
    beyond: bool


@dataclass(frozen=True)
class CurveVerdict:
    """The result of :func:`beyond_curve`: one verdict per student, one for the class.

    Source: this project's Bonferroni-corrected check of [DRS22]'s bound β ≥ f(α).

    Attributes
    ----------
    students : tuple of PointVerdict
        One per student, in the order given.
    pooled : PointVerdict
        The class's summed counts (:func:`pool_tallies`).
    level : float
        The family-wise level: the chance that any honest point (students and pooled) is
        flagged is at most this.
    tests : int
        m, the number of points tested: students + 1 (the pooled point), or 1 for a
        single student (the pooled point is then the student's).
    confidence : float
        1 − level/m, the confidence of each interval; each upper end is a one-sided
        bound at level/(2m).
    flagged : tuple of int
        The indices of the students found beyond the curve.

    Examples
    --------
    >>> from dpcore.attack import AttackTally, beyond_curve, mechanism_tradeoff
    >>> verdict = beyond_curve([AttackTally(3, 10, 4, 10), AttackTally(0, 50, 0, 50)],
    ...                        mechanism_tradeoff("laplace", 0.5))
    >>> verdict.tests, round(verdict.confidence, 4), verdict.flagged
    (3, 0.9833, (1,))
    """

    students: tuple[PointVerdict, ...]
    pooled: PointVerdict
    level: float
    tests: int
    confidence: float

    @property
    def flagged(self) -> tuple[int, ...]:
        """The indices of the students found beyond the curve."""
        return tuple(i for i, s in enumerate(self.students) if s.beyond)


def beyond_curve(tallies, tradeoff, *, level: float = 0.05) -> CurveVerdict:
    """Which students' errors lie below the trade-off curve by more than chance allows.

    For m points (the students and, with two or more students, the class's pooled
    counts), each rate gets an exact Clopper-Pearson interval with confidence
    1 − level/m, so that its upper end is a one-sided upper bound at level/(2m):
    P(α > α_upper) ≤ level/(2m) and P(β > β_upper) ≤ level/(2m). The region
    R = {α ≤ α_upper, β ≤ β_upper} then holds the true (α, β) with probability at least
    1 − level/m. A point is **beyond** the curve when every (α, β) in R has β < f(α);
    f does not increase, so that is the corner: β_upper < f(α_upper).

    Why the family-wise error is at most ``level``: if a point's true errors satisfy
    β ≥ f(α) (every honest test does) and it is flagged, then α > α_upper or
    β > β_upper (otherwise f(α_upper) ≤ f(α) ≤ β ≤ β_upper); that has probability at
    most level/m per point, so at most ``level`` for any of the m (Bonferroni). Both
    the correction and the corner are conservative: the actual rate is well below.

    The pooled point. Its rates are the students' rates averaged with weights
    w_i = N0_i/ΣN0 for α (N0_i the D rounds of student i) and v_i = N1_i/ΣN1 for β
    (N1_i the D′ rounds). When w = v, as when every student played the same numbers
    of rounds of each kind, the pooled pair's expectation (Σ w_i α_i, Σ w_i β_i) is the
    errors of a test, the randomized test "pick student i with probability w_i and
    answer as they would"; so it is on or above f, equivalently by convexity
    f(Σ w_i α_i) ≤ Σ w_i f(α_i) ≤ Σ w_i β_i. When w ≠ v the pair mixes two different
    weightings and need not be any test's errors: a student who always says D and
    played mostly D rounds, pooled with one who always says D′ and played mostly D′
    rounds, makes few errors of either kind. With the worlds drawn at random, 1/2 each,
    and equal numbers of rounds, w and v agree on average and differ little when the
    students' strategies are alike; the pooled verdict is to be read with that caveat.
    Its counts are sums of binomials with different rates; the binomial's one-sided
    bounds remain valid for such sums in the small tails used here (Hoeffding 1956,
    Theorem 4).

    A rate without rounds (no D rounds, say) has the interval [0, 1]: α_upper = 1,
    f(1) = 0 and the point is never beyond.

    Parameters
    ----------
    tallies : sequence of AttackTally
        The students' tallies (a tuple (false_alarms, null_rounds, misses, alt_rounds)
        is taken as one); at least one.
    tradeoff : callable
        The trade-off function f, vectorised over α in [0, 1] and non-increasing
        (:func:`mechanism_tradeoff`).
    level : float, optional
        Keyword-only: the family-wise level, strictly between 0 and 1 (default 0.05).

    Returns
    -------
    CurveVerdict
        The students' and the pooled :class:`PointVerdict`, the level, the number of
        tests m and the per-interval confidence 1 − level/m.

    Raises
    ------
    ValueError
        If ``tradeoff`` is not callable, ``level`` is not strictly between 0 and 1,
        ``tallies`` is empty, or an entry is not a valid tally.

    Notes
    -----
    The bound β ≥ f(α) for every test is [DRS22]'s definition of the trade-off
    function; the exact intervals are Clopper & Pearson's (1934); the Bonferroni
    rectangle and the pooled point are this project's.

    Examples
    --------
    Zero errors in 100 rounds is out of reach of any honest attacker at ε = 0.5, 40 % of
    each is above the curve; the class pooled, holding the first student's rounds,
    is beyond it too:

    >>> from dpcore.attack import AttackTally, beyond_curve, mechanism_tradeoff
    >>> f = mechanism_tradeoff("laplace", 0.5)
    >>> verdict = beyond_curve([AttackTally(0, 50, 0, 50), AttackTally(20, 50, 20, 50)], f)
    >>> [s.beyond for s in verdict.students], verdict.pooled.beyond
    ([True, False], True)
    >>> [round(x, 3) for x in verdict.students[0].alpha_interval]
    [0.0, 0.091]
    """
    if not callable(tradeoff):
        raise ArgumentError("`{name}` must be a callable trade-off function.", name="tradeoff")
    level = probability(level, "level")
    students = _tallies(tallies)
    pooled = pool_tallies(students)
    m = len(students) + 1 if len(students) > 1 else 1
    confidence = 1.0 - level / m
    points = [*students, pooled]
    counts = np.array([[t.false_alarms, t.null_rounds, t.misses, t.alt_rounds] for t in points])
    a_lo, a_hi = clopper_pearson(counts[:, 0], counts[:, 1], confidence=confidence)
    b_lo, b_hi = clopper_pearson(counts[:, 2], counts[:, 3], confidence=confidence)
    f_at = np.broadcast_to(np.asarray(tradeoff(a_hi), dtype=float), a_hi.shape)
    beyond = b_hi < f_at
    verdicts = [PointVerdict(tally=t, alpha=t.false_alarm_rate, beta=t.miss_rate,
                             alpha_interval=(float(a_lo[i]), float(a_hi[i])),
                             beta_interval=(float(b_lo[i]), float(b_hi[i])),
                             curve_at_corner=float(f_at[i]), beyond=bool(beyond[i]))
                for i, t in enumerate(points)]
    return CurveVerdict(students=tuple(verdicts[:-1]), pooled=verdicts[-1], level=level,
                        tests=m, confidence=confidence)


def best_guesses(released, *, count: int = 10) -> np.ndarray:
    """The likelihood-ratio attacker's guesses: D′ exactly when the release exceeds c + 1/2.

    For both mechanisms the likelihood ratio of D′ to D does not decrease in the
    released number, so "say D′ above a threshold" tests are the most powerful
    (Neyman-Pearson), and the threshold c + 1/2, halfway between the two counts, is the
    one with the fewest wrong guesses when both worlds are equally likely
    (:func:`best_guess_errors`).

    Parameters
    ----------
    released : float or array_like
        The released numbers (finite).
    count : int, optional
        Keyword-only: the count c of the world D, 0 to ``MAX_COUNT`` (default 10).

    Returns
    -------
    numpy.ndarray of bool
        True (guess D′) where released > c + 1/2, shaped like ``released``.

    Raises
    ------
    ValueError
        If ``released`` holds a non-finite or non-numeric entry, or ``count`` is not a
        whole number from 0 to ``MAX_COUNT``.

    Notes
    -----
    The most powerful tests of [DRS22]'s derivation of the trade-off functions; the
    game's attacker is this project's.

    Examples
    --------
    >>> from dpcore.attack import best_guesses
    >>> best_guesses([9.2, 10.4, 10.6, 12.0], count=10)
    array([False, False,  True,  True])
    """
    x = finite_array(released, "released")
    count = integer_in_range(count, "count", minimum=0, maximum=MAX_COUNT)
    return x > count + 0.5


def best_guess_errors(mechanism: str, privacy) -> tuple[float, float]:
    """The errors (α, β) of :func:`best_guesses`: the best an attacker can do at odds 1:1.

    The threshold c + 1/2 gives α = β = e^{−ε/2}/2 for the Laplace mechanism and
    α = β = Φ(−μ/2) for the Gaussian one. It minimises the chance of a wrong guess,
    (α + β)/2, over all tests, randomized or not, when D and D′ are equally likely: no
    student can expect fewer wrong guesses in the long run.

    Parameters
    ----------
    mechanism : {"laplace", "gaussian"}
        The noise (``MECHANISMS``).
    privacy : float
        ε for ``"laplace"``, μ for ``"gaussian"``; a finite number > 0.

    Returns
    -------
    tuple of (float, float)
        (α, β), the false-alarm and miss rates; the point of the curve on the diagonal.

    Raises
    ------
    ValueError
        If ``mechanism`` is not one of ``MECHANISMS`` or ``privacy`` is not a finite
        number > 0.

    Notes
    -----
    [DRS22]'s trade-off curves are symmetric, and the smallest α + β over the curve is
    at its point on the diagonal α = β; the closed forms are this project's (for the
    Laplace pair, α = e^{−t}/2 and β = e^{t − ε}/2 at the standardized threshold t, whose
    sum is least at t = ε/2). They agree with :func:`dpcore.risk.guess_error` at the
    prior 1/2.

    Examples
    --------
    >>> from dpcore.attack import best_guess_errors
    >>> [round(x, 4) for x in best_guess_errors("laplace", 1.0)]
    [0.3033, 0.3033]
    >>> [round(x, 4) for x in best_guess_errors("gaussian", 1.0)]
    [0.3085, 0.3085]
    """
    mechanism, privacy = _mechanism(mechanism, privacy)
    if mechanism == "laplace":
        error = 0.5 * float(np.exp(-privacy / 2.0))
    else:
        error = float(special.ndtr(-privacy / 2.0))
    return error, error


def threshold_errors(mechanism: str, privacy, threshold, *, count: int = 10):
    """The errors of the attacker who says D′ exactly when the release exceeds ``threshold``.

    Every such test lies on the trade-off curve; moving the threshold from −∞ to +∞
    traces it from (1, 0) to (0, 1).

    Parameters
    ----------
    mechanism : {"laplace", "gaussian"}
        The noise (``MECHANISMS``).
    privacy : float
        ε for ``"laplace"``, μ for ``"gaussian"``; a finite number > 0.
    threshold : float or array_like
        The thresholds, on the scale of the released numbers; ±inf allowed, not NaN.
    count : int, optional
        Keyword-only: the count c of the world D, 0 to ``MAX_COUNT`` (default 10).

    Returns
    -------
    alpha, beta : numpy.float64 or numpy.ndarray
        The false-alarm rate P(release > threshold | D) and the miss rate
        P(release ≤ threshold | D′), shaped like ``threshold``.

    Raises
    ------
    ValueError
        If ``mechanism`` is not one of ``MECHANISMS``, ``privacy`` is not a finite
        number > 0, ``threshold`` holds NaN, or ``count`` is not a whole number from 0
        to ``MAX_COUNT``.

    Notes
    -----
    :func:`dpcore.audit.threshold_test` on the standardized release (release − c)·ε or
    (release − c)·μ, which is Lap(0, 1) or N(0, 1) under D and shifted by ε or μ under
    D′ ([DRS22]).

    Examples
    --------
    >>> from dpcore.attack import threshold_errors
    >>> alpha, beta = threshold_errors("laplace", 1.0, [10.0, 10.5, 11.0], count=10)
    >>> alpha.round(4), beta.round(4)
    (array([0.5   , 0.3033, 0.1839]), array([0.1839, 0.3033, 0.5   ]))
    """
    mechanism, privacy = _mechanism(mechanism, privacy)
    count = integer_in_range(count, "count", minimum=0, maximum=MAX_COUNT)
    try:
        t = np.asarray(threshold, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be a number or an array of numbers.",
                            name="threshold") from None
    if np.any(np.isnan(t)):
        raise ArgumentError("`{name}` must be a number (not NaN).", name="threshold")
    return audit.threshold_test(mechanism, privacy, (t - count) * privacy)
