"""Monte Carlo calibration of the homogeneity tests of private histograms.

Son, Park & Jung (2022):

- section 2.3, Figures 2-3: the null distribution of the chi-square
  statistic (2.3) with and without the truncated Laplace noise (2.4);
- section 4.2, Algorithm 2 (REJECTRATE), Figures 9-12: the rejection rate of
  the naive chi-square test and of the parametric bootstrap test (Algorithm 1)
  under the null (type-I error) and under alternatives (power);
- beyond the source, the same for the normal-score contrast bootstrap
  (:func:`dpcore.homogeneity.normal_score_test`).

Every bootstrap p-value is the Monte Carlo p-value (1 + #{T_b >= T}) / (B + 1)
(see :mod:`dpcore.homogeneity`); a replicate rejects when it is < level.

Note on the source: Algorithm 2 line 4 prints the noise as Lap(alpha_i /
alpha_j); it is Lap(2 / alpha_i), the mechanism (2.4), which is what is
simulated here.

Everything is vectorised over replicates and bootstrap draws, in chunks that
bound memory.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from dpcore.errors import ArgumentError
from dpcore.validation import (
    one_of,
    positive_integer,
    positive_scalar,
    probabilities,
    probability,
    probability_pair,
    sample_sizes,
)
from dpcore.homogeneity import (
    MAX_BOOT,
    bootstrap_null,
    calibrated_null,
    fast_double_pvalue,
    chisq_statistic,
    chisq_test,
    estimate_null,
    monte_carlo_pvalue,
    normal_score_estimates,
    normal_score_null,
)

__all__ = [
    "TESTS",
    "NullStatistics",
    "RejectRateResult",
    "binomial_interval",
    "chi2_critical_value",
    "estimate_seconds",
    "null_statistics",
    "reject_rate",
    "rejection_curve",
    "size_check",
    "seconds_per_unit",
    "work_units",
]

#: The tests whose rejection rate can be simulated: Algorithm 1 of the source, the
#: naive chi-square test, the normal-score contrast bootstrap and that test calibrated by
#: a fast double bootstrap (both beyond the source). A test's position here feeds the
#: random streams of the studies (dpcore.study), so new tests go at the end.
TESTS = ("bootstrap", "chisq", "normal_score", "calibrated")

#: The bootstrap tests (the others use no replicates).
BOOTSTRAP_TESTS = ("bootstrap", "normal_score", "calibrated")

# Cost of one drawn bin relative to Algorithm 1's (the normal-score test also
# re-estimates its null and computes normal scores on every replicate): 3.7 to 3.8 times
# Algorithm 1 in benchmarks/bench_bootstrap.py at M = 86, B = 1000; the calibrated test
# draws and scores a second level as large as the first.
_COST = {"bootstrap": 1.0, "chisq": 1.0, "normal_score": 3.7, "calibrated": 7.4}

MAX_REPS = 100_000
MAX_N = 10**9

# Replicates are simulated in chunks of about this many bins (drawn
# histograms x bins); the progress callback is called after each chunk.
# Progress callbacks, here as everywhere in dpcore: progress(fraction, label), fraction in
# [0, 1] and non-decreasing, label a short "key=value ..." text of what is running.
_CHUNK_BINS = 1 << 21


def chi2_critical_value(df: int, level: float = 0.05) -> float:
    """Critical value of the naive test: the (1 - level) quantile of chi-square(df).

    Source: [SPJ22] section 2.3, where the statistic (2.3) of two histograms of
    M bins is referred to chi-square with M - 1 degrees of freedom (Figure 3's
    chi-square(19) and chi-square(99) for M = 20 and 100); the level 0.05 is
    that of Algorithm 2.

    Parameters
    ----------
    df : int
        Degrees of freedom, M - 1 for histograms of M bins.
    level : float, optional
        Significance level of the test (default 0.05).

    Returns
    -------
    float
        ``scipy.stats.chi2.isf(level, df)``. Neither argument is checked: a df
        or level scipy cannot use gives NaN.

    Examples
    --------
    >>> round(chi2_critical_value(19), 4)
    30.1435
    >>> round(chi2_critical_value(85, level=0.01), 4)
    118.2357
    """
    return float(stats.chi2.isf(level, df))


def binomial_interval(successes, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (via scipy.stats.binomtest).

    Source: beyond the source: [SPJ22] Figure 10 shows a confidence interval
    around each simulated rate without naming its method; this project uses
    Wilson's score interval.

    Parameters
    ----------
    successes : int
        Number of successes (here: rejections), 0 <= successes <= trials;
        converted with ``int()`` (a float is truncated).
    trials : int
        Number of trials (here: replicates R), >= 1.
    confidence : float, optional
        Confidence level of the interval (default 0.95).

    Returns
    -------
    tuple of (float, float)
        The interval's ends (low, high), within [0, 1].

    Raises
    ------
    ValueError
        From ``scipy.stats.binomtest``, e.g. if `successes` exceeds `trials`.

    Examples
    --------
    >>> low, high = binomial_interval(19, 20)
    >>> round(low, 4), round(high, 4)
    (0.7639, 0.9911)
    >>> binomial_interval(0, 10)[0]
    0.0
    """
    ci = stats.binomtest(int(successes), int(trials)).proportion_ci(
        confidence_level=confidence, method="wilson"
    )
    return float(ci.low), float(ci.high)


@dataclass(frozen=True)
class RejectRateResult:
    """Rejection rate of one test at one setting (Algorithm 2).

    ``rate`` = share of replicates with p-value < level (bootstrap tests:
    the Monte Carlo p-value (1 + #{T_b >= T}) / (B + 1)); ``ci_low``,
    ``ci_high``: its 95% Wilson score interval; ``pvalues``: one per
    replicate, NaN where the bootstrap test is undefined (an estimated total
    N-hat of 0, see :class:`dpcore.homogeneity.DegenerateNullError`), which
    counts as not rejecting; ``n_undefined`` counts those.

    Source: the Rate of [SPJ22] Algorithm 2 (REJECTRATE), line 6; the Wilson
    interval and the Monte Carlo p-value ([DH97] section 4.2.1) are this
    project's. Returned by :func:`reject_rate`.

    Attributes
    ----------
    test : str
        The test simulated: ``"bootstrap"``, ``"chisq"`` or ``"normal_score"``.
    rate : float
        Share of the `reps` replicates that rejected, ``rejections / reps``:
        the type-I error under p1 = p2, otherwise the power.
    ci_low : float
        Lower end of the 95% Wilson score interval for the rate.
    ci_high : float
        Upper end of that interval.
    reps : int
        Number of replicates R.
    n_boot : int or None
        Bootstrap replicates B of the bootstrap tests; None for ``"chisq"``.
    level : float
        Significance level: a replicate rejects when its p-value is below it.
    pvalues : numpy.ndarray
        float array of `reps` p-values, NaN where the test is undefined.
    n_undefined : int
        Number of NaN p-values (they count as not rejecting).
    rejections : int
        Number of replicates with p-value < `level`.

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> res = reject_rate(p, p, 1000, 1.0, 1.0, reps=50, n_boot=50, rng=1)
    >>> res.rejections, res.reps, res.rate, res.n_undefined
    (1, 50, 0.02, 0)
    >>> round(res.ci_low, 4), round(res.ci_high, 4)
    (0.0035, 0.105)
    """

    test: str
    rate: float
    ci_low: float
    ci_high: float
    reps: int
    n_boot: int | None
    level: float
    pvalues: np.ndarray
    n_undefined: int
    rejections: int


def _release(p, sizes, scale, r, rng) -> tuple[np.ndarray, np.ndarray]:
    """r replicates of (X_1, X_2): Multinomial draws (2.1) and the mechanism (2.4)."""
    c = rng.multinomial(sizes, p, size=(r, 2))  # (r, 2, M)
    x = c + scale * rng.laplace(0.0, 1.0, size=c.shape)
    np.maximum(x, 0.0, out=x)
    return x[:, 0], x[:, 1]


def _bootstrap_pvalues(x1, x2, alpha1, alpha2, n_boot, rng) -> np.ndarray:
    """p-values of Algorithm 1 for a batch of private pairs (NaN where undefined)."""
    statistic = chisq_statistic(x1, x2)  # line 2
    est = estimate_null(x1, x2, alpha1, alpha2)  # lines 3-6
    n_hat = np.stack([est.n1_hat, est.n2_hat], axis=-1)
    ok = np.all(n_hat >= 1, axis=-1)
    pvalues = np.full(x1.shape[0], np.nan)
    if np.any(ok):
        null = bootstrap_null(n_hat[ok], est.p0_hat[ok], alpha1, alpha2, n_boot=n_boot, rng=rng)
        pvalues[ok] = monte_carlo_pvalue(null, statistic[ok])
    return pvalues


def _normal_score_pvalues(x1, x2, alpha1, alpha2, n_boot, rng) -> np.ndarray:
    """p-values of the normal-score contrast bootstrap for a batch of private pairs."""
    statistic, est = normal_score_estimates(x1, x2, alpha1, alpha2)
    n_hat = np.stack([est.n1_hat, est.n2_hat], axis=-1)
    null = normal_score_null(n_hat, est.p0_hat, alpha1, alpha2, n_boot=n_boot, rng=rng)
    return monte_carlo_pvalue(null, statistic)


def _calibrated_pvalues(x1, x2, alpha1, alpha2, n_boot, rng) -> np.ndarray:
    """p-values of the calibrated normal-score test (fast double bootstrap) for a batch."""
    statistic, est = normal_score_estimates(x1, x2, alpha1, alpha2)
    n_hat = np.stack([est.n1_hat, est.n2_hat], axis=-1)
    null, second = calibrated_null(n_hat, est.p0_hat, alpha1, alpha2, n_boot=n_boot, rng=rng)
    return fast_double_pvalue(null, second, statistic)


_PVALUES = {"bootstrap": _bootstrap_pvalues, "normal_score": _normal_score_pvalues,
            "calibrated": _calibrated_pvalues}


def reject_rate(
    p1,
    p2,
    n,
    alpha1,
    alpha2,
    *,
    test: str = "bootstrap",
    reps: int = 1000,
    n_boot: int = 1000,
    level: float = 0.05,
    rng=None,
    progress=None,
) -> RejectRateResult:
    """Rejection rate of a homogeneity test at one setting: Algorithm 2.

    Each of ``reps`` replicates draws C_i ~ Multinomial(n_i, p_i), releases
    X_i = max(0, C_i + Lap(2/alpha_i)) and runs the test: ``"bootstrap"``
    (Algorithm 1 with ``n_boot`` replicates), ``"normal_score"`` (the
    normal-score contrast bootstrap with ``n_boot`` replicates), ``"calibrated"``
    (that test calibrated by a fast double bootstrap, ``n_boot`` replicates at each
    of its two levels) or ``"chisq"``
    (the naive test, chi-square with M - 1 df). Under p1 = p2 the rate
    estimates the type-I error, otherwise the power.

    Source: [SPJ22] Algorithm 2 (REJECTRATE), section 4.2, with the draws of
    eq. (2.1), the mechanism eq. (2.4) and the test of Algorithm 1 (PARABOOT).
    The source fixes R = 1000, the level 0.05 and one N for both histograms;
    here they are parameters. Algorithm 2 line 4 prints the noise as
    Lap(alpha_i / alpha_j); the mechanism (2.4), Lap(2 / alpha_i), is what is
    simulated. Beyond the source: the normal-score test, the Monte Carlo
    p-value (1 + #{T_b >= T}) / (B + 1) of [DH97] section 4.2.1 (Algorithm 1
    line 11 has #{T_b > T} / B) and the Wilson interval.

    Parameters
    ----------
    p1 : array_like
        Bin probabilities of population A.
    p2 : array_like
        Bin probabilities of population B (same number of bins M).
    n : int or (int, int)
        Histogram sizes N (one for both, or a pair), each from 1 to 10**9.
    alpha1 : float
        Privacy level of the release of A, > 0.
    alpha2 : float
        Privacy level of the release of B, > 0.
    test : {"bootstrap", "chisq", "normal_score", "calibrated"}, optional
        Which test (keyword-only; default ``"bootstrap"``).
    reps : int, optional
        Replicates R, 1 to 100,000 (keyword-only; default 1000).
    n_boot : int, optional
        Bootstrap replicates B of the bootstrap tests (keyword-only; default
        1000); unused by ``"chisq"``.
    level : float, optional
        Test level, in (0, 1) (keyword-only; default 0.05).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness (keyword-only), normalised with
        ``np.random.default_rng``.
    progress : callable, optional
        ``progress(fraction, label)`` after each chunk: the fraction of
        replicates done (0 < fraction <= 1, ending at 1) and ``"test=<test>"``.

    Returns
    -------
    RejectRateResult
        The rate, its Wilson interval, the p-values and the counts of
        rejections and undefined replicates.

    Raises
    ------
    ValueError
        If `p1` or `p2` is not a probability vector or they differ in M; if `n`,
        `alpha1`, `alpha2`, `test`, `reps`, `n_boot` or `level` is refused (the
        message names it).

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> q = shape_probabilities("increasing", 5)
    >>> reject_rate(p, p, 1000, 1.0, 1.0, reps=50, n_boot=50, rng=1).rate  # type-I error
    0.02
    >>> reject_rate(p, q, 200, 0.1, 0.1, test="chisq", reps=50, rng=1).n_boot is None
    True
    >>> reject_rate(p, p, 1000, 1.0, 1.0, test="exact")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `test` must be one of 'bootstrap', 'chisq', 'normal_score',
    'calibrated', got 'exact'.
    """
    p1, p2 = probability_pair(p1, p2)
    sizes = sample_sizes(n, maximum=MAX_N)
    alpha1 = positive_scalar(alpha1, "alpha1")
    alpha2 = positive_scalar(alpha2, "alpha2")
    test = one_of(test, "test", TESTS)
    reps = positive_integer(reps, "reps", maximum=MAX_REPS)
    n_boot = positive_integer(n_boot, "n_boot", maximum=MAX_BOOT)
    level = probability(level, "level")
    rng = np.random.default_rng(rng)

    p = np.stack([p1, p2])
    scale = np.array([[2.0 / alpha1], [2.0 / alpha2]])
    m = p1.size
    work_per_rep = 2 * m * (1 + (n_boot * (2 if test == "calibrated" else 1)
                                 if test in BOOTSTRAP_TESTS else 0))
    chunk = max(1, min(reps, _CHUNK_BINS // work_per_rep))
    pvalues = np.empty(reps)
    for r0 in range(0, reps, chunk):
        r = min(chunk, reps - r0)
        x1, x2 = _release(p, sizes, scale, r, rng)
        if test == "chisq":
            pvalues[r0 : r0 + r] = chisq_test(x1, x2).pvalue
        else:
            pvalues[r0 : r0 + r] = _PVALUES[test](x1, x2, alpha1, alpha2, n_boot, rng)
        if progress is not None:
            progress((r0 + r) / reps, f"test={test}")
    rejections = int(np.sum(pvalues < level))  # NaN compares False: not rejected
    low, high = binomial_interval(rejections, reps)
    return RejectRateResult(
        test=test,
        rate=rejections / reps,
        ci_low=low,
        ci_high=high,
        reps=reps,
        n_boot=n_boot if test in BOOTSTRAP_TESTS else None,
        level=level,
        pvalues=pvalues,
        n_undefined=int(np.sum(np.isnan(pvalues))),
        rejections=rejections,
    )


# ---------------------------------------------------------------------------
# Figures 2-3: the naive statistic's null distribution with and without DP
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class NullStatistics:
    """Chi-square statistics (2.3) of null pairs, without and with DP.

    The statistics of ``reps`` null pairs: ``without_dp`` on the counts C,
    ``with_dp`` on their releases X = max(0, C + Lap(2/alpha)); the same C in
    both. ``df`` = M - 1.

    Source: [SPJ22] section 2.3, Figures 2-3 (the framework and the null
    distributions it gives). Returned by :func:`null_statistics`.

    Attributes
    ----------
    without_dp : numpy.ndarray
        float array of ``reps`` statistics (2.3) on the true counts C.
    with_dp : numpy.ndarray
        float array of ``reps`` statistics (2.3) on the releases X of the same C.
    df : int
        M - 1, the degrees of freedom of the chi-square reference.

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> res = null_statistics(shape_probabilities("uniform", 20), 5050, 0.5, reps=200, rng=1)
    >>> res.df, res.without_dp.shape, res.with_dp.shape
    (19, (200,), (200,))
    """

    without_dp: np.ndarray
    with_dp: np.ndarray
    df: int


def null_statistics(p0, n: int, alpha, *, reps: int = 1000, rng=None) -> NullStatistics:
    """Figure 2's procedure: the naive statistic under H0 with and without DP.

    Two histograms of N = ``n`` counts each are drawn from Multinomial(n, p0)
    (the paper's total 5,050 per histogram), the statistic (2.3) is computed
    on them and on their releases at level ``alpha``; ``reps`` times.

    Source: [SPJ22] section 2.3, Figure 2 (procedure) and Figure 3 (the null
    distributions, with 1000 repetitions at alpha = 0.5), eqs. (2.1), (2.3)
    and (2.4).

    Parameters
    ----------
    p0 : array_like
        Bin probabilities under H0, e.g. a shape of
        :func:`dpcore.datasets.shape_probabilities`.
    n : int or (int, int)
        Size N of each histogram (or a pair of sizes), 1 to 10**9.
    alpha : float
        Privacy level of both releases, > 0.
    reps : int, optional
        Number of null pairs, 1 to 100,000 (keyword-only; default 1000).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness (keyword-only), normalised with
        ``np.random.default_rng``.

    Returns
    -------
    NullStatistics
        The ``reps`` statistics without and with DP, and df = M - 1.

    Raises
    ------
    ValueError
        If `p0` is not a probability vector, or `n`, `alpha` or `reps` is
        refused (the message names it).

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> res = null_statistics(shape_probabilities("uniform", 20), 5050, 0.5, reps=200, rng=1)
    >>> round(float(res.without_dp.mean()), 2)  # near df = 19
    18.96
    >>> round(float(res.with_dp.mean()), 2)  # shifted right by the noise
    21.16
    """
    p0 = probabilities(p0, "p0")
    sizes = sample_sizes(n, maximum=MAX_N)
    alpha = positive_scalar(alpha, "alpha")
    reps = positive_integer(reps, "reps", maximum=MAX_REPS)
    rng = np.random.default_rng(rng)
    c = rng.multinomial(sizes, np.stack([p0, p0]), size=(reps, 2)).astype(float)
    x = np.maximum(0.0, c + (2.0 / alpha) * rng.laplace(0.0, 1.0, size=c.shape))
    return NullStatistics(
        without_dp=chisq_statistic(c[:, 0], c[:, 1]),
        with_dp=chisq_statistic(x[:, 0], x[:, 1]),
        df=p0.size - 1,
    )


# ---------------------------------------------------------------------------
# Run-time estimates
# ---------------------------------------------------------------------------


def work_units(m: int, reps: int, n_boot: int, test: str = "bootstrap") -> float:
    """Bins drawn by one call of :func:`reject_rate`, weighted by the test's cost per bin.

    The weight is relative to Algorithm 1 (the run time is about linear in it):
    R x 2 M x (1 + c B), with c = 1 for ``"bootstrap"``, 3.7 for
    ``"normal_score"`` (measured in ``benchmarks/bench_bootstrap.py``) and B
    taken as 0 for ``"chisq"``.

    Source: none (a run-time model of this project, for the study's and the
    dashboard's time estimates).

    Parameters
    ----------
    m : int
        Number of bins M.
    reps : int
        Replicates R.
    n_boot : int
        Bootstrap replicates B (ignored for ``"chisq"``).
    test : {"bootstrap", "chisq", "normal_score", "calibrated"}, optional
        The test (default ``"bootstrap"``). Not validated: another name raises
        ``KeyError``.

    Returns
    -------
    float
        The weighted number of drawn bins.

    Examples
    --------
    >>> work_units(86, 1000, 500)
    86172000.0
    >>> work_units(86, 1000, 500, "chisq")
    172000.0
    """
    boot = n_boot if test in BOOTSTRAP_TESTS else 0
    return float(reps) * 2 * m * (1 + _COST[test] * boot)


def seconds_per_unit(*, repeats: int = 3) -> float:
    """Seconds per drawn bin on this machine, from a short timed run (~0.1 s).

    Times :func:`reject_rate` (M = 86, R = 4, B = 100, the bootstrap test) and
    keeps the fastest of `repeats` runs, divided by its :func:`work_units`.

    Source: none (a run-time model of this project).

    Parameters
    ----------
    repeats : int, optional
        Number of timed runs (keyword-only; default 3); the fastest counts.

    Returns
    -------
    float
        Seconds per work unit; it varies from run to run and machine to machine.

    Examples
    --------
    >>> seconds_per_unit(repeats=1) > 0
    True
    """
    p = np.full(86, 1 / 86)
    m, reps, n_boot = 86, 4, 100
    best = np.inf
    for seed in range(repeats):
        start = time.perf_counter()
        reject_rate(p, p, 50_000, 0.1, 0.1, reps=reps, n_boot=n_boot, rng=seed)
        best = min(best, time.perf_counter() - start)
    return best / work_units(m, reps, n_boot)


def estimate_seconds(units: float, per_unit: float, *, workers: int = 1) -> float:
    """Run time of ``units`` drawn bins spread over ``workers`` processes.

    Source: none (a run-time model of this project): ``units * per_unit /
    max(1, workers)``.

    Parameters
    ----------
    units : float
        Work, as from :func:`work_units`.
    per_unit : float
        Seconds per unit, as from :func:`seconds_per_unit`.
    workers : int, optional
        Worker processes sharing the work (keyword-only; default 1; values
        below 1 count as 1).

    Returns
    -------
    float
        Estimated seconds.

    Examples
    --------
    >>> round(estimate_seconds(1e6, 2e-7, workers=2), 4)
    0.1
    """
    return units * per_unit / max(1, workers)


def rejection_curve(
    p1, p2, ns, alpha1, alpha2, *, tests=TESTS, reps: int = 1000, n_boot: int = 1000,
    level: float = 0.05, rng=None, progress=None,
):
    """Rejection rates over a grid of N for one or more tests (Figures 9-12).

    The point (N, test) draws from a stream derived from ``rng``'s seed
    sequence and from (N, test) alone, so a point does not change when other
    N values or tests are added to the grid.

    ``progress(fraction, label)``, if given, is called as replicates finish:
    the share of the grid's work done (ending at 1) and ``"test=<test> n=<N>"``.

    Source: [SPJ22] section 4.2, Figures 9-12: the rate of Algorithm 2
    (REJECTRATE, see :func:`reject_rate`) as a function of N.

    Parameters
    ----------
    p1 : array_like
        Bin probabilities of population A.
    p2 : array_like
        Bin probabilities of population B (same number of bins M).
    ns : iterable of int or (int, int)
        The sizes N, each as the `n` of :func:`reject_rate`; at least one.
    alpha1 : float
        Privacy level of the release of A, > 0.
    alpha2 : float
        Privacy level of the release of B, > 0.
    tests : iterable of str, optional
        Non-empty subset of `TESTS` (keyword-only; default all three).
    reps : int, optional
        Replicates R per point (keyword-only; default 1000).
    n_boot : int, optional
        Bootstrap replicates B (keyword-only; default 1000).
    level : float, optional
        Test level (keyword-only; default 0.05).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness (keyword-only), normalised with
        ``np.random.default_rng``; only its seed sequence is used, so the same
        Generator gives the same curve each time.
    progress : callable, optional
        ``progress(fraction, label)`` as described above (keyword-only).

    Returns
    -------
    pandas.DataFrame
        One row per (N, test): ``n``, ``test``, ``rate``, ``ci_low``,
        ``ci_high``, ``rejections``, ``undefined``, ``reps``, ``n_boot``.

    Raises
    ------
    ValueError
        If `ns` is empty ("`ns` must hold at least one sample size"), `tests`
        is empty or names an unknown test, or any argument is refused by
        :func:`reject_rate`.

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> q = shape_probabilities("increasing", 5)
    >>> curve = rejection_curve(p, q, [100, 1000], 0.1, 0.1, tests=("chisq", "bootstrap"),
    ...                         reps=40, n_boot=40, rng=1)
    >>> curve[["n", "test", "rate"]]
          n       test   rate
    0   100      chisq  1.000
    1   100  bootstrap  0.000
    2  1000      chisq  1.000
    3  1000  bootstrap  0.875
    """
    ns = list(ns)
    tests = list(tests)
    if not ns:
        raise ArgumentError("`{name}` must hold at least one sample size.", name="ns")
    if not tests or any(t not in TESTS for t in tests):
        raise ArgumentError("`{name}` must be a non-empty subset of {choices}.", name="tests",
                            choices=TESTS)
    cells = [(n, t) for n in ns for t in tests]
    p1, p2 = probability_pair(p1, p2)
    units = [work_units(p1.size, reps, n_boot, t) for _, t in cells]
    total, done = sum(units), 0.0
    base = np.random.default_rng(rng).bit_generator.seed_seq
    rows = []
    for (n, test), cell_units in zip(cells, units):
        sizes = sample_sizes(n, maximum=MAX_N)
        stream = np.random.SeedSequence(
            base.entropy,
            spawn_key=(*base.spawn_key, int(sizes[0]), int(sizes[1]), TESTS.index(test)),
        )

        def step(fraction, label, _base=done, _units=cell_units, _n=n):
            if progress is not None:
                n_text = _n if np.isscalar(_n) else ",".join(map(str, _n))
                progress(min(1.0, (_base + fraction * _units) / total), f"{label} n={n_text}")

        res = reject_rate(p1, p2, n, alpha1, alpha2, test=test, reps=reps, n_boot=n_boot,
                          level=level, rng=np.random.default_rng(stream), progress=step)
        done += cell_units
        rows.append(dict(n=n if np.isscalar(n) else tuple(n), test=test, rate=res.rate,
                         ci_low=res.ci_low, ci_high=res.ci_high, rejections=res.rejections,
                         undefined=res.n_undefined, reps=reps,
                         n_boot=res.n_boot if res.n_boot is not None else np.nan))
    return pd.DataFrame(rows)


#: The size check of one setting (:func:`size_check`): its tests, replicates R and
#: bootstrap replicates B (at each of the calibrated test's two levels). With R = 1000 a
#: true size of 7.5% gives a 95% interval wholly above 5% (65 rejections or more) with
#: probability about 0.9, and a true 5% one wholly above 5% with probability 0.025.
SIZE_CHECK_TESTS = ("bootstrap", "calibrated")
SIZE_CHECK_REPS = 1000
SIZE_CHECK_BOOT = 200


def size_check(p0, n1, n2, alpha1, alpha2, *, reps: int = SIZE_CHECK_REPS,
               n_boot: int = SIZE_CHECK_BOOT, rng=None, progress=None) -> pd.DataFrame:
    """Type-I error of Algorithm 1 and of the calibrated test at one setting.

    Both histograms are drawn from the same ``p0`` (the data's fitted null: p0-hat,
    N-hat_1, N-hat_2 and the privacy levels), released with eq. (2.4) and tested,
    ``reps`` times per test, as :func:`rejection_curve` does: each test's rate, its
    Wilson interval and the counts.

    Source: [SPJ22] Algorithm 2 (REJECTRATE) at one setting, under the null fitted
    to the user's data (beyond the source: the calibrated test and the fitted null).

    Parameters
    ----------
    p0 : array_like
        Bin probabilities under 'no difference' (M >= 2, summing to 1).
    n1 : int
        Size N_A (1 to 10**9).
    n2 : int
        Size N_B (1 to 10**9).
    alpha1 : float
        Privacy level of A, > 0.
    alpha2 : float
        Privacy level of B, > 0.
    reps : int, optional
        Replicates R per test (keyword-only; default `SIZE_CHECK_REPS`).
    n_boot : int, optional
        Bootstrap replicates B (keyword-only; default `SIZE_CHECK_BOOT`).
    rng : None, int or numpy.random.Generator, optional
        Source of randomness (keyword-only), as in :func:`rejection_curve`.
    progress : callable, optional
        ``progress(fraction, label)`` as in :func:`rejection_curve` (keyword-only).

    Returns
    -------
    pandas.DataFrame
        One row per test of `SIZE_CHECK_TESTS`, columns as :func:`rejection_curve`'s.

    Raises
    ------
    ValueError
        As :func:`rejection_curve`.

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> check = size_check(p, 1000, 2000, 0.5, 0.5, reps=40, n_boot=40, rng=1)
    >>> list(check["test"]), list(check["reps"])
    (['bootstrap', 'calibrated'], [40, 40])
    """
    return rejection_curve(p0, p0, [(n1, n2)], alpha1, alpha2, tests=SIZE_CHECK_TESTS,
                           reps=reps, n_boot=n_boot, rng=rng, progress=progress)
