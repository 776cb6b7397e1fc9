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
    "seconds_per_unit",
    "work_units",
]

#: The tests whose rejection rate can be simulated: Algorithm 1 of the source, the
#: naive chi-square test, and the normal-score contrast bootstrap (beyond the source).
TESTS = ("bootstrap", "chisq", "normal_score")

#: The bootstrap tests (the others use no replicates).
BOOTSTRAP_TESTS = ("bootstrap", "normal_score")

# Cost of one drawn bin relative to Algorithm 1's (the normal-score test also
# re-estimates its null and computes normal scores on every replicate): 3.7 to 3.8 times
# Algorithm 1 in benchmarks/bench_bootstrap.py at M = 86, B = 1000.
_COST = {"bootstrap": 1.0, "chisq": 1.0, "normal_score": 3.7}

MAX_REPS = 100_000
MAX_N = 10**9

# Replicates are simulated in chunks of about this many bins (drawn
# histograms x bins); the progress callback is called after each chunk.
# Progress callbacks, here as everywhere in dpcore: progress(fraction, label), fraction in
# [0, 1] and non-decreasing, label a short "key=value ..." text of what is running.
_CHUNK_BINS = 1 << 21


def chi2_critical_value(df: int, level: float = 0.05) -> float:
    """Critical value of the naive test: the (1 - level) quantile of chi-square(df)."""
    return float(stats.chi2.isf(level, df))


def binomial_interval(successes, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (via scipy.stats.binomtest)."""
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
    normal-score contrast bootstrap with ``n_boot`` replicates) or ``"chisq"``
    (the naive test, chi-square with M - 1 df). Under p1 = p2 the rate
    estimates the type-I error, otherwise the power.

    Parameters
    ----------
    p1, p2 : array_like
        Bin probabilities of populations A and B (same number of bins M).
    n : int or (int, int)
        Histogram sizes N (one for both, or a pair).
    alpha1, alpha2 : float
        Privacy levels.
    test, reps, n_boot, level : keyword-only
        Which test, replicates R, bootstrap replicates B, test level.
    rng : None, int or numpy.random.Generator, keyword-only
    progress : callable, optional
        ``progress(fraction, label)`` after each chunk: the fraction of
        replicates done (0 < fraction <= 1, ending at 1) and ``"test=<test>"``.
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
    work_per_rep = 2 * m * (1 + (n_boot if test in BOOTSTRAP_TESTS else 0))
    chunk = max(1, min(reps, _CHUNK_BINS // work_per_rep))
    pvalues = np.empty(reps)
    for r0 in range(0, reps, chunk):
        r = min(chunk, reps - r0)
        x1, x2 = _release(p, sizes, scale, r, rng)
        if test == "chisq":
            pvalues[r0 : r0 + r] = chisq_test(x1, x2).pvalue
        elif test == "bootstrap":
            pvalues[r0 : r0 + r] = _bootstrap_pvalues(x1, x2, alpha1, alpha2, n_boot, rng)
        else:
            pvalues[r0 : r0 + r] = _normal_score_pvalues(x1, x2, alpha1, alpha2, n_boot, rng)
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
    """Chi-square statistics (2.3) of ``reps`` null pairs: ``without_dp`` on
    the counts C, ``with_dp`` on their releases X = max(0, C + Lap(2/alpha));
    the same C in both. ``df`` = M - 1."""

    without_dp: np.ndarray
    with_dp: np.ndarray
    df: int


def null_statistics(p0, n: int, alpha, *, reps: int = 1000, rng=None) -> NullStatistics:
    """Figure 2's procedure: the naive statistic under H0 with and without DP.

    Two histograms of N = ``n`` counts each are drawn from Multinomial(n, p0)
    (the paper's total 5,050 per histogram), the statistic (2.3) is computed
    on them and on their releases at level ``alpha``; ``reps`` times.
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
    """Bins drawn by one call of :func:`reject_rate`, weighted by the test's cost per bin
    relative to Algorithm 1 (the run time is about linear in it)."""
    boot = n_boot if test in BOOTSTRAP_TESTS else 0
    return float(reps) * 2 * m * (1 + _COST[test] * boot)


def seconds_per_unit(*, repeats: int = 3) -> float:
    """Seconds per drawn bin on this machine, from a short timed run (~0.1 s)."""
    p = np.full(86, 1 / 86)
    m, reps, n_boot = 86, 4, 100
    best = np.inf
    for seed in range(repeats):
        start = time.perf_counter()
        reject_rate(p, p, 50_000, 0.1, 0.1, reps=reps, n_boot=n_boot, rng=seed)
        best = min(best, time.perf_counter() - start)
    return best / work_units(m, reps, n_boot)


def estimate_seconds(units: float, per_unit: float, *, workers: int = 1) -> float:
    """Run time of ``units`` drawn bins spread over ``workers`` processes."""
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

    Returns
    -------
    pandas.DataFrame
        One row per (N, test): ``n``, ``test``, ``rate``, ``ci_low``,
        ``ci_high``, ``rejections``, ``undefined``, ``reps``, ``n_boot``.
    """
    ns = list(ns)
    tests = list(tests)
    if not ns:
        raise ValueError("`ns` must hold at least one sample size.")
    if not tests or any(t not in TESTS for t in tests):
        raise ValueError(f"`tests` must be a non-empty subset of {TESTS}.")
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
