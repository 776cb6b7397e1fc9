"""Homogeneity tests for two differentially private histograms.

Son, Park & Jung (2022), "A parametric bootstrap test for comparing
differentially private histograms", Korean J. Appl. Stat. 35(1).
Equation and line numbers below refer to that paper:

- (2.3)  the chi-square statistic of homogeneity;
- (2.4)  the truncated Laplace mechanism X = max(0, C + Lap(2/alpha))
         (:mod:`dpcore.histogram`);
- (4.1)  g(C) = E[X | C] = C + exp(-alpha C / 2) / alpha;
- (4.2)  the debiased counts C-tilde;
- (4.3)  the estimates N-hat, C-hat and p0-hat;
- Algorithm 1 (PARABOOT), the parametric bootstrap test.

Notes on the source: eq. (4.3) and Algorithm 1 line 4 write the rounding of
sum(C-tilde) with different brackets (a ceiling and a floor); the text says
both mean the nearest integer, which is what is implemented here.

p-values. Algorithm 1 line 11 reports sum_b I(T_b > T) / B, which is 0 when
no replicate reaches T. Every test here reports the Monte Carlo p-value
(1 + #{T_b >= T}) / (B + 1) ([DH97] eq. 4.11) instead, which is never 0; the
source's is kept as ``pvalue_source``. Under H0 it satisfies
P(p <= k/(B+1)) = k/(B+1) only when T and the T_b are exchangeable, which a
parametric bootstrap drawn from estimated N and p0 is not: its size is then
only approximately the nominal level, and is measured (:mod:`dpcore.study`).
The critical value is the order statistic that gives the same decision.

Beyond the source: :func:`normal_score_test` (test name ``"normal_score"``).
Algorithm 1 computes T with n_i = sum_j X_ij but each T_b with N-hat_i, and its
N-hat is biased upward when alpha is small, so its size drifts from the
nominal level with unequal N or alpha and with strong privacy. The
normal-score test

- estimates p0 by a precision-weighted pool of the debiased proportions (4.2),
- estimates each N_i by matching the mean of the noisy total,
  sum_j g_i(N_i p0_j) = sum_j X_ij with g of eq. (4.1),
- turns every private count into a normal score z_ij (the probability integral
  transform under the fitted null, standardised to mean 0 and variance 1), so
  that the statistic's null distribution depends on N and alpha much less than
  that of squared Pearson residuals of truncated Laplace counts (their kurtosis
  runs from 6 to 13 as the truncation grows),
- uses the contrast T = sum_j (a_2j z_1j - a_1j z_2j)^2 / (a_1j^2 + a_2j^2),
  a_ij = slope / sd of X_ij's mean in p0_j, which cancels a common error in
  p0-hat to first order when the noise is small next to the counts; where a
  bin's count is about the size of its noise, a_ij differs from the score's
  average sensitivity (by factors of 1.06-1.52 in an independent review), the
  cancellation is partial and T's null depends on p0,
- and recomputes all of it, identically, on every bootstrap replicate.

Its single bootstrap then keeps the level where noise dominates or is small,
but where counts and noise are of one size (M = 86, alpha = 0.01, N = 10^4
each) its null, drawn from p0-hat, is lighter than the true one and it
rejects 6.5-8% of the time at the 5% level. :func:`calibrated_test` (test
name ``"calibrated"``) calibrates it with a fast double bootstrap ([DM07],
:func:`fast_double_pvalue`): at twice the cost, the sizes measured at
R = 2,000 for the review's four settings fell from 6.5-7.2% to 5.2-6.0%.

Without noise T is the chi-square statistic (2.3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import special, stats

from dpcore.errors import ArgumentError
from dpcore.validation import (
    count_array,
    finite_array,
    positive_integer,
    positive_scalar,
    probability,
    same_shape,
)
from dpcore.datasets import draw_histogram
from dpcore.histogram import perturb_histogram

__all__ = [
    "DEBIAS_GAP",
    "TEST_NAMES",
    "MomentNullEstimate",
    "contrast_statistic",
    "moment_total",
    "monte_carlo_pvalue",
    "noisy_count_variance",
    "pooled_proportions",
    "rejection_limit",
    "source_pvalue",
    "normal_score_test",
    "normal_score_null",
    "calibrated_null",
    "calibrated_test",
    "fast_double_pvalue",
    "CalibratedTestResult",
    "normal_score_estimates",
    "BOOTSTRAP_TESTS",
    "BootstrapTestResult",
    "ChisqTestResult",
    "DebiasThresholds",
    "DegenerateNullError",
    "HomogeneityResult",
    "NullEstimate",
    "chisq_statistic",
    "chisq_test",
    "debias_counts",
    "debias_thresholds",
    "estimate_null",
    "expected_noisy_count",
    "inverse_expected_noisy_count",
    "bootstrap_null",
    "parametric_bootstrap_test",
    "release_and_test",
    "sample_and_test",
]

#: The bootstrap tests by name: Algorithm 1 of the source, and the normal-score
#: contrast bootstrap that keeps its level beyond the source's grid.
TEST_NAMES = {
    "bootstrap": "Parametric bootstrap, Algorithm 1 (Son, Park & Jung 2022)",
    "normal_score": "Normal-score contrast bootstrap (this project)",
    "calibrated": "Normal-score test calibrated by a fast double bootstrap (this project)",
}

#: The gap g(C) - C below which a noisy count is used as it is, eq. (4.2).
DEBIAS_GAP = 5.0

#: Largest number of bootstrap replicates accepted.
MAX_BOOT = 1_000_000

#: Largest histogram total accepted by the estimators (N-hat is an int64 and
#: the bootstrap draws Multinomial(N-hat, p0-hat)).
MAX_TOTAL = 1e15

# Bootstrap replicates are simulated in chunks of at most this many numbers
# per array, which bounds memory for any B.
_CHUNK_ELEMENTS = 1 << 20


class DegenerateNullError(ArgumentError):
    """The null distribution cannot be estimated from the private histograms.

    ``which`` is 1 or 2: the histogram whose estimated total N-hat is 0.

    Raised by :func:`parametric_bootstrap_test` when N-hat_1 or N-hat_2 of
    [SPJ22] eq. (4.3) is 0: E_ij of Algorithm 1 line 10 would then be 0 and
    the null of Algorithm 1 cannot be simulated. An :class:`~dpcore.errors.ArgumentError`
    (so a subclass of ``ValueError``) whose fields hold ``which`` too; as raised,
    also ``name`` (``"x1"`` or ``"x2"``), ``n_hat``, ``alpha`` and ``limit`` (1/alpha).

    Parameters
    ----------
    template : str
        The message's template (see :class:`~dpcore.errors.ArgumentError`).
    which : int
        1 or 2, the histogram whose N-hat is 0; kept among the fields.
    **fields
        The other values of the template's places.

    Attributes
    ----------
    which : int
        1 or 2, the histogram whose N-hat is 0.
    template : str
        As given.
    fields : dict
        As given, with ``which``.

    Examples
    --------
    >>> try:
    ...     parametric_bootstrap_test([0, 1, 0], [30, 40, 50], 0.1, 0.1, n_boot=9, rng=1)
    ... except DegenerateNullError as exc:
    ...     print(exc.which, isinstance(exc, ValueError), exc.parameter, exc.fields["n_hat"])
    1 True x1 0
    """

    def __init__(self, template: str, /, which: int, **fields):
        super().__init__(template, which=which, **fields)
        self.which = which


# ---------------------------------------------------------------------------
# Chi-square statistic and test, eq. (2.3)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ChisqTestResult:
    """Result of the chi-square test of homogeneity.

    Returned by :func:`chisq_test`, the naive test of [SPJ22] section 2.1.

    Attributes
    ----------
    statistic : float or numpy.ndarray
        The chi-square statistic of [SPJ22] eq. (2.3), one per batch element.
    pvalue : float or numpy.ndarray
        Its upper tail probability under the chi-square distribution with
        ``df`` degrees of freedom.
    df : int
        Degrees of freedom, M - 1 for M bins.

    Examples
    --------
    >>> r = chisq_test([10, 20, 30], [20, 20, 20])
    >>> round(float(r.statistic), 4), round(float(r.pvalue), 4), r.df
    (5.3333, 0.0695, 2)
    """

    statistic: float | np.ndarray
    pvalue: float | np.ndarray
    df: int


def _totals(x: np.ndarray, n, name: str) -> np.ndarray:
    if n is None:
        return x.sum(axis=-1)
    n = finite_array(n, name, sign="positive")
    try:
        return np.broadcast_to(n, x.shape[:-1])
    except ValueError:
        raise ArgumentError(
            "`{name}` must be a scalar or match the batch shape {shape}.",
            name=name, shape=x.shape[:-1],
        ) from None


def chisq_statistic(x1, x2, *, n1=None, n2=None):
    """Chi-square statistic of homogeneity of two histograms, eq. (2.3).

    ``sum_i sum_j (x_ij - E_ij)**2 / E_ij`` with
    ``E_ij = n_i (x_1j + x_2j) / (n_1 + n_2)``.

    Parameters
    ----------
    x1 : array_like
        Non-negative counts of the first histogram; bins on the last axis,
        leading axes are batches.
    x2 : array_like
        Non-negative counts of the second histogram, the shape of `x1`.
    n1 : float or array_like, optional
        The total n_1 used in E_1j; default ``sum_j x_1j``. Algorithm 1
        line 10 passes the estimated total N-hat_1 instead. Finite and > 0;
        a scalar or an array of the batch shape.
    n2 : float or array_like, optional
        The total n_2, as `n1`.

    Returns
    -------
    float or numpy.ndarray
        The statistic, one per batch element. A bin that is empty in both
        histograms has E_ij = 0 and contributes 0.

    Raises
    ------
    ValueError
        If `x1` or `x2` is not an array of finite, non-negative counts, if
        their shapes differ, or if `n1` or `n2` is not finite and > 0 or does
        not match the batch shape.

    Notes
    -----
    [SPJ22] eq. (2.3); with the default totals it is T of Algorithm 1 line 2,
    with ``n1``, ``n2`` = N-hat_1, N-hat_2 the T_b of line 10.

    Examples
    --------
    >>> import numpy as np
    >>> round(float(chisq_statistic([10, 20, 30], [20, 20, 20])), 4)
    5.3333
    >>> np.round(chisq_statistic([[10, 20, 30], [5, 5, 5]], [[20, 20, 20], [5, 5, 5]]), 4)
    array([5.3333, 0.    ])
    """
    x1 = count_array(x1, "x1")
    x2 = count_array(x2, "x2")
    same_shape(x1, x2, "x1", "x2")
    t1 = _totals(x1, n1, "n1")[..., None]
    t2 = _totals(x2, n2, "n2")[..., None]
    total = t1 + t2
    s = x1 + x2
    with np.errstate(divide="ignore", invalid="ignore"):
        e1 = t1 * s / total
        e2 = t2 * s / total
        term = (x1 - e1) ** 2 / e1 + (x2 - e2) ** 2 / e2
    # With the default totals E_ij = 0 only where x_ij = 0 too (an empty bin
    # or an all-zero histogram); with given totals n_i > 0 only where s = 0.
    term = np.where((e1 > 0) & (e2 > 0), term, 0.0)
    out = term.sum(axis=-1)
    return out[()] if out.ndim == 0 else out


def chisq_test(x1, x2) -> ChisqTestResult:
    """Naive chi-square test of homogeneity (section 2.1).

    The statistic (2.3) is referred to the chi-square distribution with
    M - 1 degrees of freedom, as for raw counts. Applied to differentially
    private histograms this reference is wrong (section 2.3): the test is
    shown for comparison with the parametric bootstrap.

    Parameters
    ----------
    x1 : array_like
        Non-negative counts of the first histogram, at least 2 bins on the
        last axis; leading axes are batches.
    x2 : array_like
        Non-negative counts of the second histogram, the shape of `x1`.

    Returns
    -------
    ChisqTestResult
        ``statistic`` (eq. 2.3), ``pvalue`` (chi-square upper tail) and
        ``df`` = M - 1.

    Raises
    ------
    ValueError
        If `x1` or `x2` is not an array of finite, non-negative counts, if
        `x1` has fewer than 2 bins, or if the shapes differ.

    Notes
    -----
    [SPJ22] section 2.1 (the test) and eq. (2.3) (the statistic); section 2.3
    shows its null distribution is not chi-square for private histograms.

    Examples
    --------
    >>> r = chisq_test([10, 20, 30], [20, 20, 20])
    >>> round(float(r.statistic), 4), round(float(r.pvalue), 4), r.df
    (5.3333, 0.0695, 2)
    """
    x1 = count_array(x1, "x1", min_bins=2)
    statistic = chisq_statistic(x1, x2)
    df = x1.shape[-1] - 1
    pvalue = stats.chi2.sf(statistic, df)
    return ChisqTestResult(statistic=statistic, pvalue=pvalue[()], df=df)


# ---------------------------------------------------------------------------
# Debiasing, eqs. (4.1) and (4.2)
# ---------------------------------------------------------------------------


def expected_noisy_count(c, alpha):
    """g(C) = E[max(0, C + Z)] = C + exp(-alpha C / 2) / alpha, eq. (4.1).

    Z ~ Lap(2/alpha). Valid for C >= 0; g is increasing there (g' >= 1/2),
    from g(0) = 1/alpha.

    Parameters
    ----------
    c : float or array_like
        True count(s) C >= 0, any shape.
    alpha : float
        Privacy level alpha, a finite number > 0.

    Returns
    -------
    float or numpy.ndarray
        g(C), the mean of the released count [SPJ22] eq. (2.4) given C, in
        the shape of `c`.

    Raises
    ------
    ValueError
        If `c` holds a negative or non-finite number, or `alpha` is not a
        finite number > 0.

    Notes
    -----
    [SPJ22] eq. (4.1).

    Examples
    --------
    >>> import numpy as np
    >>> float(expected_noisy_count(0, 0.5))  # g(0) = 1/alpha
    2.0
    >>> np.round(expected_noisy_count([0, 4, 40], 0.5), 4)
    array([ 2.    ,  4.7358, 40.0001])
    """
    alpha = positive_scalar(alpha, "alpha")
    c = count_array(c, "c") if np.ndim(c) else count_array([c], "c")[0]
    return c + np.exp(-alpha * c / 2.0) / alpha


def inverse_expected_noisy_count(x, alpha):
    """g^{-1}(x) for x >= 1/alpha, in closed form.

    Solving x = C + exp(-alpha C / 2) / alpha for C >= 0 with u = alpha C / 2
    gives (alpha x / 2 - u) e^{-(alpha x / 2 - u)} = e^{-alpha x / 2} / 2, hence

        g^{-1}(x) = x + (2 / alpha) W_0(-exp(-alpha x / 2) / 2),

    with W_0 the principal branch of the Lambert W function. For
    x >= 1/alpha the argument lies in [-exp(-1/2)/2, 0), inside the
    principal branch's domain [-1/e, 0), and W_0 = -1/2 at x = 1/alpha
    gives g^{-1}(1/alpha) = 0.

    Parameters
    ----------
    x : float or array_like
        Value(s) of g, finite and >= 1/alpha (a relative slack of 1e-12
        below 1/alpha is accepted and gives 0), any shape.
    alpha : float
        Privacy level alpha, a finite number > 0.

    Returns
    -------
    float or numpy.ndarray
        C >= 0 with g(C) = x, in the shape of `x`.

    Raises
    ------
    ValueError
        If `x` holds a non-finite number or a value below 1/alpha, or
        `alpha` is not a finite number > 0.

    Notes
    -----
    The inverse g^{-1} used by [SPJ22] eq. (4.2), of g of eq. (4.1). The
    source gives no formula for it; the Lambert W closed form is this
    project's.

    Examples
    --------
    >>> import numpy as np
    >>> x = expected_noisy_count([0, 4, 40], 0.5)
    >>> np.round(inverse_expected_noisy_count(x, 0.5), 6)
    array([ 0.,  4., 40.])
    """
    alpha = positive_scalar(alpha, "alpha")
    x = np.asarray(x, dtype=float)
    if not np.all(np.isfinite(x)):
        raise ArgumentError("`{name}` must contain only finite numbers.", name="x")
    # A relative slack absorbs rounding in x computed as g(0) = 1/alpha.
    if np.any(x < (1.0 - 1e-12) / alpha):
        raise ArgumentError("`{name}` must be >= 1/{name_b} = {limit:g}, the range of g.",
                            name="x", name_b="alpha", limit=1 / alpha)
    w = special.lambertw(-0.5 * np.exp(-alpha * x / 2.0), k=0).real
    return np.maximum(x + (2.0 / alpha) * w, 0.0)


@dataclass(frozen=True)
class DebiasThresholds:
    """The thresholds of eq. (4.2) for one privacy level.

    ``lower`` = 1/alpha: at or below it C-tilde = 0.
    ``c_star``: the smallest C >= 0 with g(C) - C < DEBIAS_GAP (its infimum).
    ``upper`` = k(alpha) = g(c_star): at or above it C-tilde = X.

    Returned by :func:`debias_thresholds`. [SPJ22] eq. (4.2) defines k(alpha)
    as "argmin_C |C - g(C)| < 5"; reading it as g(c_star) is this project's.

    Attributes
    ----------
    alpha : float
        The privacy level alpha > 0.
    lower : float
        1/alpha = g(0): a private count at or below it is debiased to 0.
    c_star : float
        The smallest C >= 0 with g(C) - C < DEBIAS_GAP (its infimum).
    upper : float
        k(alpha) = g(c_star): a private count at or above it is kept as it is.

    Examples
    --------
    >>> th = debias_thresholds(0.1)
    >>> th.lower, round(float(th.c_star), 4), round(float(th.upper), 4)
    (10.0, 13.8629, 18.8629)
    """

    alpha: float
    lower: float
    c_star: float
    upper: float


def debias_thresholds(alpha) -> DebiasThresholds:
    """Thresholds 1/alpha and k(alpha) of eq. (4.2).

    g(C) - C = exp(-alpha C / 2) / alpha < 5 exactly when
    C > -2 ln(5 alpha) / alpha, so c_star = max(0, -2 ln(5 alpha) / alpha)
    and k(alpha) = g(c_star) (= c_star + 5 when alpha <= 1/5; for
    alpha > 1/5 the gap is below 5 everywhere, c_star = 0 and
    k(alpha) = 1/alpha, so the middle branch of (4.2) is empty).

    Parameters
    ----------
    alpha : float
        Privacy level alpha, a finite number > 0.

    Returns
    -------
    DebiasThresholds
        ``alpha``, ``lower`` = 1/alpha, ``c_star`` and ``upper`` = k(alpha).

    Raises
    ------
    ValueError
        If `alpha` is not a finite number > 0.

    Notes
    -----
    [SPJ22] eq. (4.2); the closed form of c_star is this project's.

    Examples
    --------
    >>> th = debias_thresholds(0.1)
    >>> th.lower, round(float(th.c_star), 4), round(float(th.upper), 4)
    (10.0, 13.8629, 18.8629)
    >>> th = debias_thresholds(0.5)  # alpha > 1/5: no middle branch
    >>> th.lower, float(th.c_star), float(th.upper)
    (2.0, 0.0, 2.0)
    """
    alpha = positive_scalar(alpha, "alpha")
    c_star = max(0.0, -2.0 * np.log(DEBIAS_GAP * alpha) / alpha)
    upper = c_star + np.exp(-alpha * c_star / 2.0) / alpha
    return DebiasThresholds(alpha=alpha, lower=1.0 / alpha, c_star=c_star, upper=upper)


def debias_counts(x, alpha) -> np.ndarray:
    """Debiased counts C-tilde of eq. (4.2).

    C-tilde = 0 if X <= 1/alpha; g^{-1}(X) if 1/alpha < X < k(alpha);
    X otherwise. Vectorised over any shape. Note that (4.2) is continuous at
    1/alpha but jumps by DEBIAS_GAP at k(alpha), where g^{-1}(k) = k - 5.

    Parameters
    ----------
    x : array_like
        Private counts X >= 0 (released with eq. 2.4), any shape with at least
        one axis.
    alpha : float
        Privacy level alpha they were released with, a finite number > 0.

    Returns
    -------
    numpy.ndarray
        Float array C-tilde of the shape of `x`.

    Raises
    ------
    ValueError
        If `x` is not an array of finite, non-negative numbers, or `alpha` is
        not a finite number > 0.

    Notes
    -----
    [SPJ22] eq. (4.2), Algorithm 1 line 3; the thresholds are those of
    :func:`debias_thresholds`.

    Examples
    --------
    >>> import numpy as np
    >>> th = debias_thresholds(0.1)  # 1/alpha = 10, k(alpha) = 18.86
    >>> th.lower, round(float(th.upper), 2)
    (10.0, 18.86)
    >>> np.round(debias_counts([5, 12, 15, 20], 0.1), 3)
    array([ 0.   ,  3.681,  8.444, 20.   ])
    """
    x = count_array(x, "x")
    th = debias_thresholds(alpha)
    out = np.where(x <= th.lower, 0.0, x)
    middle = (x > th.lower) & (x < th.upper)
    if np.any(middle):
        out[middle] = inverse_expected_noisy_count(x[middle], th.alpha)
    return out


# ---------------------------------------------------------------------------
# Null estimates, eq. (4.3)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class NullEstimate:
    """Estimates of eq. (4.3) from two private histograms.

    ``c1_tilde``, ``c2_tilde``: debiased counts (4.2); ``n1_hat``,
    ``n2_hat``: nearest integers of their sums; ``c1_hat``, ``c2_hat``:
    C-tilde rescaled to sum to N-hat; ``p0_hat``: pooled proportions
    (NaN where N-hat_1 + N-hat_2 = 0).

    Returned by :func:`estimate_null`; [SPJ22] eqs. (4.2)-(4.3), Algorithm 1
    lines 3-6.

    Attributes
    ----------
    c1_tilde, c2_tilde : numpy.ndarray
        Debiased counts C-tilde_i of eq. (4.2), the shape of the histograms.
    n1_hat, n2_hat : int or numpy.ndarray
        N-hat_i, the nearest integers of sum_j C-tilde_ij (halves rounded up);
        an int for one pair of histograms, an int64 array for a batch.
    c1_hat, c2_hat : numpy.ndarray
        C-hat_i = C-tilde_i N-hat_i / sum_j C-tilde_ij (0 where that sum is 0).
    p0_hat : numpy.ndarray
        p0-hat = (C-hat_1 + C-hat_2) / (N-hat_1 + N-hat_2).

    Examples
    --------
    >>> import numpy as np
    >>> est = estimate_null([30, 4, 12, 55], [25, 15, 9, 70], 0.1, 0.1)
    >>> est.n1_hat, est.n2_hat
    (89, 103)
    >>> np.round(est.p0_hat, 4)
    array([0.2865, 0.0438, 0.0192, 0.6505])
    """

    c1_tilde: np.ndarray
    c2_tilde: np.ndarray
    n1_hat: int | np.ndarray
    n2_hat: int | np.ndarray
    c1_hat: np.ndarray
    c2_hat: np.ndarray
    p0_hat: np.ndarray


def _rescale(c_tilde: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    total = c_tilde.sum(axis=-1)
    if np.any(total > MAX_TOTAL):
        raise ArgumentError("`{name}` sums to more than {maximum:.0e}; the total is too large.",
                            name=name, maximum=MAX_TOTAL)
    # Nearest integer, halves rounded up (eq. 4.3 and Algorithm 1 line 4).
    n_hat = np.floor(total + 0.5).astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where(total > 0, n_hat / total, 0.0)
    return n_hat, c_tilde * factor[..., None]


def estimate_null(x1, x2, alpha1, alpha2) -> NullEstimate:
    """N-hat_i, C-hat_i and p0-hat of eq. (4.3); batched on leading axes.

    Parameters
    ----------
    x1 : array_like
        The private histogram X_1 (eq. 2.4): non-negative counts, bins on the
        last axis, leading axes batches.
    x2 : array_like
        The private histogram X_2, the shape of `x1`.
    alpha1 : float
        Privacy level alpha_1 of `x1`, a finite number > 0.
    alpha2 : float
        Privacy level alpha_2 of `x2`, a finite number > 0.

    Returns
    -------
    NullEstimate
        ``c1_tilde``, ``c2_tilde``, ``n1_hat``, ``n2_hat``, ``c1_hat``,
        ``c2_hat`` and ``p0_hat``; N-hat_i are ints for one pair of
        histograms and int64 arrays for a batch.

    Raises
    ------
    ValueError
        If `x1` or `x2` is not an array of finite, non-negative counts, if
        their shapes differ, if `alpha1` or `alpha2` is not a finite number
        above 0, or if the debiased counts of `x1` or `x2` sum to more than
        ``MAX_TOTAL`` (1e15).

    Notes
    -----
    [SPJ22] eq. (4.3) (Algorithm 1 lines 3-6) on the debiased counts of
    eq. (4.2). N-hat_i is the nearest integer, halves rounded up: the source
    writes a ceiling in (4.3) and a floor in line 4 and says both mean the
    nearest integer.

    Examples
    --------
    >>> import numpy as np
    >>> est = estimate_null([30, 4, 12, 55], [25, 15, 9, 70], 0.1, 0.1)
    >>> np.round(est.c1_tilde, 3)  # 4 <= 1/alpha = 10 -> 0; 12 -> g^{-1}(12)
    array([30.   ,  0.   ,  3.681, 55.   ])
    >>> est.n1_hat, est.n2_hat
    (89, 103)
    >>> round(float(est.p0_hat.sum()), 6)
    1.0
    """
    x1 = count_array(x1, "x1")
    x2 = count_array(x2, "x2")
    same_shape(x1, x2, "x1", "x2")
    c1_tilde = debias_counts(x1, positive_scalar(alpha1, "alpha1"))
    c2_tilde = debias_counts(x2, positive_scalar(alpha2, "alpha2"))
    n1_hat, c1_hat = _rescale(c1_tilde, "x1")
    n2_hat, c2_hat = _rescale(c2_tilde, "x2")
    n = (n1_hat + n2_hat)[..., None]
    with np.errstate(divide="ignore", invalid="ignore"):
        p0_hat = np.where(n > 0, (c1_hat + c2_hat) / n, np.nan)
    if n1_hat.ndim == 0:
        n1_hat, n2_hat = int(n1_hat), int(n2_hat)
    return NullEstimate(c1_tilde, c2_tilde, n1_hat, n2_hat, c1_hat, c2_hat, p0_hat)


# ---------------------------------------------------------------------------
# Monte Carlo p-values and critical values
# ---------------------------------------------------------------------------


def monte_carlo_pvalue(null, statistic):
    """(1 + #{T_b >= T}) / (B + 1): the Monte Carlo p-value, never 0.

    ``null`` holds the B replicates T_b on its last axis; ``statistic`` is T,
    one per leading index. Under H0, with T and the T_b exchangeable,
    P(p <= k / (B + 1)) = k / (B + 1) ([DH97] eq. 4.11).

    Parameters
    ----------
    null : array_like, shape (..., B)
        The bootstrap replicates T_b on the last axis.
    statistic : float or array_like
        The observed T, of the leading shape of `null`.

    Returns
    -------
    float or numpy.ndarray
        The p-value(s), in [1/(B+1), 1].

    Notes
    -----
    Beyond [SPJ22]: Algorithm 1 line 11 reports :func:`source_pvalue`; this
    project reports the p-value of [DH97] eq. 4.11 instead. The inputs are
    not validated.

    Examples
    --------
    >>> null = [1.0, 2.0, 3.0, 4.0]
    >>> float(monte_carlo_pvalue(null, 2.5))  # (1 + 2) / 5
    0.6
    >>> float(monte_carlo_pvalue(null, 10.0))  # no T_b reaches T: 1 / (B + 1), not 0
    0.2
    """
    null = np.asarray(null, dtype=float)
    t = np.asarray(statistic, dtype=float)[..., None]
    out = (1.0 + np.sum(null >= t, axis=-1)) / (null.shape[-1] + 1.0)
    return out[()] if out.ndim == 0 else out


def _fdb_quantiles(second_sorted: np.ndarray, prob: np.ndarray) -> np.ndarray:
    """The ``prob`` quantiles of each row of ``second_sorted`` (sorted on the last axis),
    linear between order statistics (numpy's default ``method="linear"``); ``prob`` has the
    leading shape of ``second_sorted`` plus one axis of queries."""
    b = second_sorted.shape[-1]
    pos = np.clip(prob, 0.0, 1.0) * (b - 1)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, b - 1)
    low = np.take_along_axis(second_sorted, lo, axis=-1)
    high = np.take_along_axis(second_sorted, hi, axis=-1)
    return low + (pos - lo) * (high - low)


def fast_double_pvalue(null, second, statistic):
    """The fast double bootstrap p-value, never 0 ([DM07] eq. 10, in the form of [DH97] 4.11).

    With B first-level replicates T*_b (``null``) and, drawn from the null
    re-estimated on each first-level replicate, one second-level replicate T**_b
    each (``second``):

        p*  = (1 + #{T*_b >= T}) / (B + 1)           (the single bootstrap's p-value),
        Q** = the (1 - p*) quantile of the T**_b      (linear between order statistics),
        p   = (1 + #{T*_b >= Q**}) / (B + 1).

    The second level measures how far the bootstrap's null, estimated from data,
    falls from the null it was estimated from, and moves the critical value by as much:
    where the bootstrap's null is too light (T**'s tail lighter than T*'s), Q** lies
    below T and the p-value grows. The error in rejection probability falls by an
    order in the sample size when T and the re-estimated null are independent
    ([DM07] section 3), at twice the cost of the single bootstrap.

    Parameters
    ----------
    null : array_like, shape (..., B)
        First-level replicates T*_b on the last axis (B >= 1).
    second : array_like, shape (..., B)
        Second-level replicates T**_b, one per first-level replicate.
    statistic : float or array_like
        The observed T, of the leading shape of `null`.

    Returns
    -------
    float or numpy.ndarray
        The p-value(s), in [1/(B+1), 1].

    Notes
    -----
    Beyond [SPJ22]: this project calibrates the normal-score test with the fast
    double bootstrap of Davidson & MacKinnon (2007), "Improving the reliability
    of bootstrap tests with the fast double bootstrap", Comput. Stat. Data Anal.
    51, 3259-3281 ([DM07]), whose eq. (10) counts #{T*_b > Q**} / B; here both
    counts take the never-0 form of [DH97] eq. 4.11. The inputs are not validated.

    Examples
    --------
    >>> import numpy as np
    >>> null = np.arange(1.0, 20.0)  # T*_b = 1..19; T = 17.5: p* = (1 + 2) / 20
    >>> float(monte_carlo_pvalue(null, 17.5)), float(fast_double_pvalue(null, null, 17.5))
    (0.15, 0.2)
    >>> float(fast_double_pvalue(null, null / 2, 17.5))  # a lighter second level: larger p
    0.6
    """
    null = np.asarray(null, dtype=float)
    second = np.sort(np.asarray(second, dtype=float), axis=-1)
    b = null.shape[-1]
    single = monte_carlo_pvalue(null, statistic)
    q = _fdb_quantiles(second, 1.0 - np.asarray(single)[..., None])
    out = (1.0 + np.sum(null >= q, axis=-1)) / (b + 1.0)
    return out[()] if out.ndim == 0 else out


def _fdb_critical_value(null: np.ndarray, second: np.ndarray, level: float) -> float:
    """The replicate T*_(B-c) with: the fast double bootstrap rejects exactly when T > it.

    With c = #{T*_b >= T}, the p-value of :func:`fast_double_pvalue` is a non-decreasing
    function p(c) of c alone; c_max is the largest c with p(c) < level, and T > T*_(B-c_max)
    leaves at most c_max replicates >= T (as in :func:`_critical_value`).
    """
    b = null.size
    first = np.sort(null)
    counts = np.arange(b + 1)
    q = _fdb_quantiles(np.sort(second), 1.0 - (1.0 + counts) / (b + 1.0))
    reached = b - np.searchsorted(first, q, side="left")  # #{T*_b >= Q**}
    below = np.flatnonzero((1.0 + reached) / (b + 1.0) < level)
    if below.size == 0:
        return float("inf")
    c = int(below.max())
    if c >= b:
        return float("-inf")
    return float(first[b - 1 - c])


def source_pvalue(null, statistic):
    """sum_b I(T_b > T) / B, Algorithm 1 line 11 (0 when no T_b exceeds T).

    Parameters
    ----------
    null : array_like, shape (..., B)
        The bootstrap replicates T_b on the last axis.
    statistic : float or array_like
        The observed T, of the leading shape of `null`.

    Returns
    -------
    float or numpy.ndarray
        The p-value(s) of [SPJ22] Algorithm 1 line 11, in [0, 1].

    Notes
    -----
    [SPJ22] Algorithm 1 line 11, kept as ``pvalue_source``; the tests report
    :func:`monte_carlo_pvalue`. The inputs are not validated.

    Examples
    --------
    >>> null = [1.0, 2.0, 3.0, 4.0]
    >>> float(source_pvalue(null, 2.5)), float(source_pvalue(null, 10.0))
    (0.5, 0.0)
    """
    null = np.asarray(null, dtype=float)
    t = np.asarray(statistic, dtype=float)[..., None]
    out = np.mean(null > t, axis=-1)
    return out[()] if out.ndim == 0 else out


def rejection_limit(n_boot: int, level: float) -> int:
    """The largest count c = #{T_b >= T} with (1 + c) / (B + 1) < level; -1 if none.

    The test rejects exactly when at most this many replicates reach T. The
    comparison is the one :func:`monte_carlo_pvalue` makes, in floating
    point, so the limit and the p-value cannot disagree.

    Parameters
    ----------
    n_boot : int
        Number of bootstrap replicates B, from 1 to ``MAX_BOOT`` (1,000,000).
    level : float
        Significance level, in [0, 1].

    Returns
    -------
    int
        The largest c in 0..B with (1 + c) / (B + 1) < level, or -1 when even
        c = 0 gives a p-value of at least `level` (B too small to reject).

    Raises
    ------
    ValueError
        If `n_boot` is not an integer from 1 to 1,000,000, or `level` is not
        in [0, 1].

    Notes
    -----
    Beyond [SPJ22]: this project's decision rule for the p-value of
    :func:`monte_carlo_pvalue` ([DH97] eq. 4.11).

    Examples
    --------
    >>> rejection_limit(99, 0.05)  # reject when at most 3 of 99 replicates reach T
    3
    >>> rejection_limit(19, 0.05)  # (1 + 0) / 20 is not < 0.05: never rejects
    -1
    """
    n_boot = positive_integer(n_boot, "n_boot", maximum=MAX_BOOT)
    level = probability(level, "level", closed=True)
    c = int(np.floor(level * (n_boot + 1.0))) - 1
    while c >= 0 and (1.0 + c) / (n_boot + 1.0) >= level:
        c -= 1
    while c + 1 < n_boot + 1 and (2.0 + c) / (n_boot + 1.0) < level:
        c += 1
    return min(c, n_boot)


def _critical_value(null: np.ndarray, level: float) -> float:
    """The order statistic t with: reject (p-value < level) exactly when T > t.

    With c the :func:`rejection_limit`, t = T_(B-c), the (B - c)-th smallest
    replicate: T > T_(B-c) leaves at most c replicates >= T, and T <= T_(B-c)
    leaves at least c + 1. +inf when no T can be rejected (B too small for the
    level), -inf when every T is.
    """
    c = rejection_limit(null.size, level)
    if c < 0:
        return float("inf")
    if c >= null.size:
        return float("-inf")
    return float(np.partition(null, null.size - 1 - c)[null.size - 1 - c])


# ---------------------------------------------------------------------------
# Parametric bootstrap test, Algorithm 1
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BootstrapTestResult:
    """Result of a parametric bootstrap test of homogeneity.

    ``test``: ``"bootstrap"`` (Algorithm 1) or ``"normal_score"``;
    ``statistic``: T on the private histograms; ``pvalue``: the Monte Carlo
    p-value (1 + #{T_b >= T}) / (B + 1), never 0; ``pvalue_source``:
    sum_b I(T_b > T) / B, Algorithm 1 line 11; ``null_distribution``: the B
    values T_b; ``n1_hat``, ``n2_hat``: the totals the replicates were drawn
    with; ``p0_hat``: the pooled proportions they were drawn from;
    ``estimate``: all the null estimates (:class:`NullEstimate` for
    Algorithm 1, :class:`MomentNullEstimate` for the normal-score test).

    Returned by :func:`parametric_bootstrap_test` ([SPJ22] Algorithm 1) and
    :func:`normal_score_test` (beyond [SPJ22]: this project's test).

    Attributes
    ----------
    statistic : float
        T computed on the private histograms.
    pvalue : float
        The Monte Carlo p-value (1 + #{T_b >= T}) / (B + 1) ([DH97] eq. 4.11),
        in [1/(B+1), 1].
    pvalue_source : float
        sum_b I(T_b > T) / B, [SPJ22] Algorithm 1 line 11 (can be 0).
    null_distribution : numpy.ndarray, shape (B,)
        The replicates T_b.
    n1_hat, n2_hat : int
        The totals the replicates were drawn with.
    p0_hat : numpy.ndarray, shape (M,)
        The pooled proportions the replicates were drawn from.
    estimate : NullEstimate or MomentNullEstimate
        All the null estimates of the test.
    test : str
        ``"bootstrap"`` or ``"normal_score"`` (the keys of ``TEST_NAMES``).
    n_boot : int
        B, the number of replicates (read-only property).
    below_resolution : bool
        True when no replicate reached T (read-only property).

    Examples
    --------
    >>> r = parametric_bootstrap_test([120, 80, 40, 10], [40, 80, 120, 60], 1.0, 1.0,
    ...                               n_boot=99, rng=1)
    >>> r.test, r.n_boot, r.pvalue, r.pvalue_source, r.below_resolution
    ('bootstrap', 99, 0.01, 0.0, True)
    >>> r.rejects(0.05), r.statistic > r.critical_value(0.05)
    (True, True)
    """

    statistic: float
    pvalue: float
    pvalue_source: float
    null_distribution: np.ndarray
    n1_hat: int
    n2_hat: int
    p0_hat: np.ndarray
    estimate: object = field(repr=False)
    test: str = "bootstrap"

    @property
    def n_boot(self) -> int:
        """B, the number of bootstrap replicates (the size of ``null_distribution``)."""
        return self.null_distribution.size

    @property
    def below_resolution(self) -> bool:
        """True when no replicate reached T: the p-value is its smallest, 1/(B+1)."""
        return bool(np.all(self.null_distribution < self.statistic))

    def rejects(self, level: float = 0.05) -> bool:
        """The verdict at ``level``: p-value < level (the same as T > critical value).

        Parameters
        ----------
        level : float, default 0.05
            Significance level, strictly between 0 and 1.

        Returns
        -------
        bool
            True when the test rejects homogeneity at `level`.

        Raises
        ------
        ValueError
            If `level` is not strictly between 0 and 1.
        """
        return bool(self.pvalue < probability(level, "level"))

    def critical_value(self, level: float = 0.05) -> float:
        """The replicate T_(B-c) such that T > it exactly when the test rejects.

        See :func:`rejection_limit`; +inf when B is too small to reject at
        ``level`` at all.

        Parameters
        ----------
        level : float, default 0.05
            Significance level, strictly between 0 and 1.

        Returns
        -------
        float
            The critical value, or +inf.

        Raises
        ------
        ValueError
            If `level` is not strictly between 0 and 1.
        """
        return _critical_value(self.null_distribution, probability(level, "level"))


def _degenerate_error(which: int, n_hat: int, alpha: float, *,
                      histogram: str | None = None) -> DegenerateNullError:
    """Histogram ``which``'s N-hat of 0, about the argument `x1`/`x2`, or, with
    ``histogram`` ("A" or "B"), about the histogram as the dashboard names it."""
    fields = dict(which=which, n_hat=n_hat, alpha=alpha, limit=1 / alpha)
    if histogram is None:
        return DegenerateNullError(
            "`{name}`: the estimated total N̂ is {n_hat}: at α = {alpha:g} (almost) every "
            "noisy count is at or below 1/α = {limit:g}, so the histogram cannot be told apart "
            "from pure noise and the null distribution of Algorithm 1 cannot be simulated. The "
            "normal-score test is defined here; more data or a larger α (weaker privacy) gives "
            "both tests more to work with.",
            name=f"x{which}", **fields,
        )
    return DegenerateNullError(
        "Histogram {histogram}: the estimated total N̂ is {n_hat}: at α = {alpha:g} (almost) every "
        "noisy count is at or below 1/α = {limit:g}, so the histogram cannot be told apart "
        "from pure noise and the null distribution of Algorithm 1 cannot be simulated. The "
        "normal-score test is defined here; more data or a larger α (weaker privacy) gives "
        "both tests more to work with.",
        histogram=histogram, **fields,
    )


def _check_pair(x1, x2, alpha1, alpha2, n_boot):
    x1 = count_array(x1, "x1", min_bins=2)
    x2 = count_array(x2, "x2", min_bins=2)
    if x1.ndim != 1:
        raise ArgumentError("`{name}` must be a 1-D histogram (one test at a time).", name="x1")
    same_shape(x1, x2, "x1", "x2")
    return (x1, x2, positive_scalar(alpha1, "alpha1"), positive_scalar(alpha2, "alpha2"),
            positive_integer(n_boot, "n_boot", maximum=MAX_BOOT))


def parametric_bootstrap_test(
    x1, x2, alpha1, alpha2, *, n_boot: int = 1000, rng=None
) -> BootstrapTestResult:
    """Parametric bootstrap test of homogeneity of two private histograms.

    Algorithm 1 (PARABOOT) of Son, Park & Jung (2022). Only the private
    histograms X_1, X_2 (eq. 2.4) and their privacy levels are used:

    1. T = chi-square statistic (2.3) of X_1, X_2 with n_i = sum_j X_ij;
    2. N-hat_i and p0-hat from the debiased counts, eqs. (4.2)-(4.3);
    3. for b = 1..B: U_i ~ Multinomial(N-hat_i, p0-hat),
       Y_i = max(0, U_i + Lap(2/alpha_i)), T_b = (2.3) of Y_1, Y_2 with
       E_ij = N-hat_i (Y_1j + Y_2j) / (N-hat_1 + N-hat_2);
    4. p-value: (1 + #{T_b >= T}) / (B + 1); line 11's sum_b I(T_b > T) / B
       is kept as ``pvalue_source``.

    The B replicates are simulated as arrays (no loop over b), in chunks
    that bound memory for large B.

    Parameters
    ----------
    x1 : array_like
        The first private histogram X_1 (1-D, M >= 2 bins).
    x2 : array_like
        The second private histogram X_2 (1-D, the same M bins).
    alpha1 : float
        Privacy level alpha_1 of `x1` (> 0).
    alpha2 : float
        Privacy level alpha_2 of `x2` (> 0).
    n_boot : int, keyword-only
        Number of bootstrap replicates B (1 to 1,000,000).
    rng : None, int or numpy.random.Generator, keyword-only
        Source of randomness for the replicates, normalised with
        ``np.random.default_rng``.

    Returns
    -------
    BootstrapTestResult
        With ``test="bootstrap"``: T, ``pvalue``, ``pvalue_source``, the B
        replicates, N-hat_1, N-hat_2, p0-hat and the :class:`NullEstimate`.

    Raises
    ------
    DegenerateNullError
        If N-hat_1 or N-hat_2 is 0: E_ij of line 10 would be 0 and the
        null cannot be simulated.
    ValueError
        If `x1` or `x2` is not a 1-D array of finite, non-negative counts with
        at least 2 bins, if their shapes differ, if `alpha1` or `alpha2` is
        not a finite number > 0, or if `n_boot` is not an integer from 1 to
        1,000,000.

    Notes
    -----
    [SPJ22] Algorithm 1 with eqs. (2.3), (2.4), (4.2) and (4.3). The reported
    ``pvalue`` is beyond [SPJ22]: this project reports the Monte Carlo p-value
    of [DH97] eq. 4.11, never 0, and keeps the source's line 11 as
    ``pvalue_source``.

    Examples
    --------
    >>> r = parametric_bootstrap_test([52, 48, 50, 45], [49, 55, 47, 51], 1.0, 1.0,
    ...                               n_boot=99, rng=1)
    >>> round(r.statistic, 3), r.pvalue, r.rejects(0.05)
    (0.909, 0.88, False)
    >>> r = parametric_bootstrap_test([120, 80, 40, 10], [40, 80, 120, 60], 1.0, 1.0,
    ...                               n_boot=99, rng=1)
    >>> r.n1_hat, r.n2_hat, r.pvalue, r.pvalue == 1 / (r.n_boot + 1)
    (250, 300, 0.01, True)
    """
    x1, x2, alpha1, alpha2, n_boot = _check_pair(x1, x2, alpha1, alpha2, n_boot)
    rng = np.random.default_rng(rng)

    statistic = float(chisq_statistic(x1, x2))
    est = estimate_null(x1, x2, alpha1, alpha2)
    for which, n_hat, alpha in ((1, est.n1_hat, alpha1), (2, est.n2_hat, alpha2)):
        if n_hat < 1:
            raise _degenerate_error(which, n_hat, alpha)

    n_hat = np.array([[est.n1_hat, est.n2_hat]])
    null = bootstrap_null(n_hat, est.p0_hat[None, :], alpha1, alpha2, n_boot=n_boot, rng=rng)[0]
    return BootstrapTestResult(
        statistic=statistic,
        pvalue=float(monte_carlo_pvalue(null, statistic)),
        pvalue_source=float(source_pvalue(null, statistic)),  # line 11
        null_distribution=null,
        n1_hat=est.n1_hat,
        n2_hat=est.n2_hat,
        p0_hat=est.p0_hat,
        estimate=est,
        test="bootstrap",
    )


def _null_replicates(n_hat, p0, alpha1, alpha2, n_boot, rng, statistic, outputs: int = 1):
    """``statistic(y, rows)`` on B replicates (Y_1, Y_2) per test, lines 7-9, in chunks.

    ``y`` has shape (k, b, 2, M): U_i ~ Multinomial(n_hat_i, p0) released with
    (2.4); ``rows`` is the slice of tests it belongs to. Returns (R, B); with
    ``outputs`` > 1, ``statistic`` returns that many (k, b) arrays and so does this.
    """
    scale = np.array([[2.0 / alpha1], [2.0 / alpha2]])
    reps, m = p0.shape
    b_chunk = max(1, min(n_boot, _CHUNK_ELEMENTS // (2 * m * outputs)))
    r_chunk = max(1, _CHUNK_ELEMENTS // (2 * m * outputs * b_chunk))
    out = np.empty((outputs, reps, n_boot))
    for r0 in range(0, reps, r_chunk):
        rows = slice(r0, min(reps, r0 + r_chunk))
        k = rows.stop - rows.start
        n_rows, p_rows = n_hat[rows, None, :], p0[rows, None, None, :]
        for b0 in range(0, n_boot, b_chunk):
            b = min(b_chunk, n_boot - b0)
            y = _release_null(n_rows, p_rows, scale, (k, b, 2), rng)
            out[:, rows, b0 : b0 + b] = statistic(y, rows)
    return out[0] if outputs == 1 else tuple(out)


def _release_null(n, p, scale, size, rng) -> np.ndarray:
    """Lines 8-9: U_i ~ Multinomial(n_i, p) released with (2.4), shape ``size + (M,)``.

    ``n`` broadcasts to ``size`` (whose last axis is the two histograms), ``p`` to
    ``size + (M,)``; ``size=None`` takes the shape of the broadcast ``n``, ``p``.
    """
    u = rng.multinomial(n, p, size=size)  # line 8
    y = u + scale * rng.laplace(0.0, 1.0, size=u.shape)  # line 9
    return np.maximum(y, 0.0, out=y)


def _check_null_inputs(n_hat, p0_hat, n_boot, minimum: int):
    n_hat = np.asarray(n_hat, dtype=np.int64)
    p0 = np.asarray(p0_hat, dtype=float)
    if n_hat.ndim != 2 or n_hat.shape[1] != 2 or p0.ndim != 2 or p0.shape[0] != n_hat.shape[0]:
        raise ArgumentError("`{name}` must have shape (R, 2) and `{name_b}` shape (R, M).",
                            name="n_hat", name_b="p0_hat")
    if np.any(n_hat < minimum):
        raise ArgumentError("`{name}` must be >= {minimum} for every test.", name="n_hat",
                            minimum=minimum)
    if not np.all(np.isfinite(p0)) or np.any(p0 < 0):
        raise ArgumentError("`{name}` must hold probabilities.", name="p0_hat")
    n_boot = positive_integer(n_boot, "n_boot", maximum=MAX_BOOT)
    return n_hat, p0 / p0.sum(axis=1, keepdims=True), n_boot


def bootstrap_null(n_hat, p0_hat, alpha1, alpha2, *, n_boot: int, rng=None) -> np.ndarray:
    """Bootstrap null statistics of Algorithm 1, lines 7-10, for many tests at once.

    Parameters
    ----------
    n_hat : array_like of int, shape (R, 2)
        N-hat_1, N-hat_2 of each of R tests (all >= 1).
    p0_hat : array_like, shape (R, M)
        p0-hat of each test.
    alpha1 : float
        Privacy level alpha_1 of the first histogram (> 0).
    alpha2 : float
        Privacy level alpha_2 of the second histogram (> 0).
    n_boot : int, keyword-only
        Replicates B per test (1 to 1,000,000).
    rng : None, int or numpy.random.Generator, keyword-only
        Source of randomness, normalised with ``np.random.default_rng``.

    Returns
    -------
    numpy.ndarray, shape (R, B)
        T_b of line 10 for every test and replicate. The draws are made as
        arrays in chunks of at most ``_CHUNK_ELEMENTS`` bins, over tests and
        over replicates, so memory stays bounded for any R and B.

    Raises
    ------
    ValueError
        If `n_hat` is not of shape (R, 2) or `p0_hat` not of shape (R, M), if
        an N-hat is below 1, if `p0_hat` holds a negative or non-finite entry,
        if `alpha1` or `alpha2` is not a finite number > 0, or if `n_boot` is
        not an integer from 1 to 1,000,000.

    Notes
    -----
    [SPJ22] Algorithm 1 lines 7-10: U_i ~ Multinomial(N-hat_i, p0-hat),
    Y_i = max(0, U_i + Lap(2/alpha_i)) (eq. 2.4), T_b = (2.3) of Y_1, Y_2 with
    the totals N-hat_i. Each row of `p0_hat` is divided by its sum before
    sampling.

    Examples
    --------
    >>> import numpy as np
    >>> est = estimate_null([30, 4, 12, 55], [25, 15, 9, 70], 0.1, 0.1)
    >>> null = bootstrap_null([[est.n1_hat, est.n2_hat]], [est.p0_hat], 0.1, 0.1,
    ...                       n_boot=5, rng=1)
    >>> null.shape
    (1, 5)
    >>> np.round(null, 2)
    array([[ 44.48,   8.1 ,   1.6 , 174.95,  55.2 ]])
    """
    n_hat, p0, n_boot = _check_null_inputs(n_hat, p0_hat, n_boot, minimum=1)
    a1 = positive_scalar(alpha1, "alpha1")
    a2 = positive_scalar(alpha2, "alpha2")
    return _null_replicates(n_hat, p0, a1, a2, n_boot, np.random.default_rng(rng),
                            lambda y, rows: _chisq_given_totals(y, n_hat[rows]))  # line 10


def _chisq_given_totals(y: np.ndarray, n_hat: np.ndarray) -> np.ndarray:
    """Line 10 on replicates y of shape (R, B, 2, M) with totals n_hat (R, 2) > 0.

    The same quantity as ``chisq_statistic(y[..., 0, :], y[..., 1, :], n1=.., n2=..)``
    without re-validating the simulated arrays.
    """
    w = (n_hat / n_hat.sum(axis=1, keepdims=True))[:, None, :, None]  # E_ij = w_i s_j
    s = y.sum(axis=2, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = (y - w * s) ** 2 / (w * s)
    return np.where(s > 0, term, 0.0).sum(axis=(2, 3))


# ---------------------------------------------------------------------------
# The normal-score contrast bootstrap (beyond the source)
# ---------------------------------------------------------------------------


def noisy_count_variance(c, alpha):
    """Var[max(0, c + Z)] for Z ~ Lap(2/alpha) and a fixed count c >= 0.

    With b = 2/alpha and e = exp(-c/b): E[X] = c + b e / 2 (eq. 4.1) and
    E[X^2] = c^2 + 2 b^2 - b^2 e (the part of E[(c + Z)^2] = c^2 + 2 b^2
    below 0 is b^2 e), so

        Var X = 2 b^2 - b^2 e - c b e - b^2 e^2 / 4,

    from 3 b^2 / 4 at c = 0 (X = max(0, Z)) up to 2 b^2 (no truncation).

    Parameters
    ----------
    c : float or array_like
        Fixed true count(s) c >= 0, any shape (not checked: a negative c
        gives a meaningless number).
    alpha : float
        Privacy level alpha, a finite number > 0.

    Returns
    -------
    float or numpy.ndarray
        Var X in the shape of `c` (a 0-d array for a scalar `c`).

    Raises
    ------
    ValueError
        If `alpha` is not a finite number > 0.

    Notes
    -----
    Beyond [SPJ22]: this project's formula for the mechanism of eq. (2.4),
    built on the mean g of eq. (4.1); it serves the normal-score test.

    Examples
    --------
    >>> import numpy as np
    >>> np.round(noisy_count_variance([0, 10, 1000], 0.5), 4)  # b = 4: 3 b^2/4 ... 2 b^2
    array([12.    , 27.3763, 32.    ])
    """
    alpha = positive_scalar(alpha, "alpha")
    c = np.asarray(c, dtype=float)
    b = 2.0 / alpha
    return _truncated_laplace_variance(c, b, np.exp(-c / b))


def _truncated_laplace_variance(c, b, e):
    """:func:`noisy_count_variance` given b = 2/alpha and e = exp(-c/b)."""
    return 2.0 * b * b - b * b * e - c * b * e - 0.25 * b * b * e * e


def _mean_var_slope(n, p0, alpha):
    """λ_j = n p_j, Var[X_j] and dE[X_j]/dp_j for X = max(0, C + Z), C ~ Multinomial(n, p0).

    The slope is n g'(n p_j) with g of eq. (4.1); the variance is the law of total
    variance to first order, :func:`noisy_count_variance` + g'(n p_j)^2 n p_j, with
    the Poisson variance n p_j of C_j.
    """
    lam = n[..., None] * p0
    e = np.exp(-alpha * lam / 2.0)
    g_prime = 1.0 - 0.5 * e
    b = 2.0 / alpha
    var = _truncated_laplace_variance(lam, b, e) + g_prime ** 2 * lam
    return lam, var, n[..., None] * g_prime


def _gauss_laplace_cdf(w, sigma, b):
    """P(G + L <= w) for w <= 0, G ~ N(0, sigma^2), L ~ Laplace(b) independent.

    Integrating the Laplace CDF against the normal density gives

        F(w) = Phi(w/s) - 1/2 e^{k - w/b} Phi(w/s - s/b) + 1/2 e^{k + w/b} Phi(-w/s - s/b),

    k = s^2 / (2 b^2). With Phi(u) = erfcx(-u/sqrt 2) e^{-u^2/2} / 2 the exponents
    collapse to -w^2 / (2 s^2) (no overflow for s >> b); the last term is taken
    as it is when its Phi argument is positive (its exponent is then below -k).
    sigma = 0 gives the Laplace CDF e^{w/b} / 2. Flat arrays of one shape.
    """
    out = 0.5 * np.exp(w / b)  # sigma = 0
    pos = np.flatnonzero(sigma > 0)
    if pos.size:
        w, s = w[pos], sigma[pos]
        ws = w / s
        u = ws - s / b
        v = -ws - s / b
        gauss = np.exp(-0.5 * ws * ws)
        high = np.empty_like(w)
        neg = v <= 0
        high[neg] = 0.25 * special.erfcx(-v[neg] / np.sqrt(2.0)) * gauss[neg]
        up = ~neg
        high[up] = 0.5 * np.exp(s[up] ** 2 / (2 * b * b) + w[up] / b) * special.ndtr(v[up])
        out[pos] = special.ndtr(ws) - 0.25 * special.erfcx(-u / np.sqrt(2.0)) * gauss + high
    return np.clip(out, 0.0, 0.5)


def normal_scores(x, lam, alpha):
    """Normal scores of private counts X = max(0, C + Z) under C ~ Poisson-like(lam).

    C is taken as N(lam, lam) (the multinomial's Poisson approximation) and
    Z ~ Lap(2/alpha), so C + Z has the CDF of :func:`_gauss_laplace_cdf` around lam.
    A positive X gets z = Phi^{-1}(F(X)); the atom X = 0, of probability
    P0 = F(-lam), gets the mean score over it, -phi(q) / P0 with q = Phi^{-1}(P0).
    The scores are divided by their standard deviation,
    sqrt(1 - P0 + q phi(q) + phi(q)^2 / P0), so that each has mean 0 and
    variance 1 whatever lam: the statistic built on them has nearly the same
    null distribution at every N (without noise, z = (X - lam) / sqrt(lam)).
    Where P0 < 1e-13 (lam > 60 b and lam > 256, b = 2/alpha) the atom is not
    computed: its share of the variance is below 1e-12.
    """
    b = 2.0 / alpha
    shape = np.shape(x)
    x = np.reshape(x, -1)
    lam = np.broadcast_to(lam, shape).reshape(-1)
    sigma = np.sqrt(lam)
    y = x - lam
    tail = _gauss_laplace_cdf(-np.abs(y), sigma, b)  # the smaller tail, <= 1/2
    z = np.sign(y) * -special.ndtri(np.maximum(tail, 1e-300))
    near = np.flatnonzero((lam < 60.0 * b) | (lam < 256.0) | (x <= 0))
    if near.size:
        atom = np.maximum(_gauss_laplace_cdf(-lam[near], sigma[near], b), 1e-300)
        q = special.ndtri(atom)
        phi = np.exp(-0.5 * q * q) / np.sqrt(2.0 * np.pi)
        zn = np.where(x[near] <= 0, -phi / atom, z[near])
        var = 1.0 - atom + q * phi + phi * phi / atom
        z[near] = zn / np.sqrt(np.maximum(var, 1e-12))
    return z.reshape(shape)


def moment_total(x, p0, alpha, *, tol: float = 1e-9, max_iter: int = 100):
    """N solving sum_j g(N p0_j) = sum_j x_j (eq. 4.1's g), batched on leading axes.

    The expected noisy total sum_j g(N p0_j) rises from M / alpha at N = 0
    (slope between 1/2 and 1), so the root is unique; N = 0 when the observed
    total is at or below M / alpha. The function is convex in N and the
    root is at most the observed total, so Newton's method started there
    decreases monotonically to it.

    Parameters
    ----------
    x : array_like
        Private counts X (eq. 2.4) >= 0, bins on the last axis, leading axes
        batches.
    p0 : array_like, shape (..., M)
        Bin proportions under the null (summing to 1; not checked),
        broadcast against the batch shape.
    alpha : float
        Privacy level alpha of `x`, a finite number > 0.
    tol : float, keyword-only
        Relative tolerance of the Newton step, relative to max(1, N).
    max_iter : int, keyword-only
        Largest number of Newton steps.

    Returns
    -------
    float or numpy.ndarray
        The moment total N >= 0 (a real number), one per batch element.

    Raises
    ------
    ValueError
        If `x` is not an array of finite, non-negative counts, or `alpha` is
        not a finite number > 0.

    Notes
    -----
    Beyond [SPJ22]: this project's moment estimator of N_i for the
    normal-score test, built on g of eq. (4.1); [SPJ22] estimates N-hat_i by
    eq. (4.3) instead.

    Examples
    --------
    >>> import numpy as np
    >>> p0 = np.full(4, 0.25)
    >>> n = moment_total([3, 2, 4, 1], p0, 0.5)  # noisy total 10, M / alpha = 8
    >>> round(float(n), 3)
    3.62
    >>> round(float(expected_noisy_count(n * p0, 0.5).sum()), 6)  # matches the total
    10.0
    >>> float(moment_total([1, 1, 1, 1], p0, 0.1))  # total <= M / alpha = 40
    0.0
    """
    x = count_array(x, "x")
    alpha = positive_scalar(alpha, "alpha")
    p0 = np.asarray(p0, dtype=float)
    return _moment_total(x.sum(axis=-1), p0, alpha, tol, max_iter)


def _moment_total(s, p0, alpha, tol=1e-9, max_iter=100):
    m = p0.shape[-1]
    shape = np.shape(s)
    s = np.reshape(s, -1).astype(float)
    p = np.broadcast_to(p0, shape + (m,)).reshape(-1, m)
    n = np.where(s > m / alpha, s, 0.0)
    active = np.flatnonzero(s > m / alpha)
    for _ in range(max_iter):
        if active.size == 0:
            break
        pa, na = p[active], n[active]
        e = np.exp((-0.5 * alpha) * na[:, None] * pa)
        step = (na + e.sum(axis=-1) / alpha - s[active]) / (1.0 - 0.5 * (pa * e).sum(axis=-1))
        n[active] = np.maximum(na - step, 0.0)
        active = active[np.abs(step) > tol * np.maximum(1.0, na)]
    out = n.reshape(shape)
    return out[()] if out.ndim == 0 else out


def pooled_proportions(x1, x2, alpha1, alpha2) -> np.ndarray:
    """p0-hat of the normal-score test: a precision-weighted pool of the debiased proportions.

    p-hat_i = C-tilde_i / sum_j C-tilde_ij (eq. 4.2), weighted by
    w_i = t_i^2 / (t_i + 2 M b_i^2) with t_i = sum_j C-tilde_ij and
    b_i = 2/alpha_i: the inverse of the summed variances of p-hat_i's bins
    (multinomial t_i p_j plus Laplace 2 b_i^2, over t_i^2). A histogram whose
    debiased counts are all 0 gets weight 0; if both do, p0-hat is uniform.
    Batched on leading axes.

    Parameters
    ----------
    x1 : array_like
        The private histogram X_1 (eq. 2.4): non-negative counts, bins on the
        last axis, leading axes batches.
    x2 : array_like
        The private histogram X_2, the shape of `x1`.
    alpha1 : float
        Privacy level alpha_1 of `x1`, a finite number > 0.
    alpha2 : float
        Privacy level alpha_2 of `x2`, a finite number > 0.

    Returns
    -------
    numpy.ndarray
        p0-hat, the shape of `x1`; each histogram's proportions sum to 1.

    Raises
    ------
    ValueError
        If `x1` or `x2` is not an array of finite, non-negative counts, if
        their shapes differ, or if `alpha1` or `alpha2` is not a finite
        number > 0.

    Notes
    -----
    Beyond [SPJ22]: this project's pooled estimate for the normal-score test,
    built on the debiased counts of eq. (4.2); [SPJ22] pools by eq. (4.3).

    Examples
    --------
    >>> import numpy as np
    >>> np.round(pooled_proportions([30, 4, 12, 55], [25, 15, 9, 70], 0.1, 0.1), 4)
    array([0.2827, 0.047 , 0.0176, 0.6527])
    >>> pooled_proportions([0, 0, 0, 0], [1, 2, 3, 4], 0.1, 0.1)  # all counts <= 1/alpha
    array([0.25, 0.25, 0.25, 0.25])
    """
    x1 = count_array(x1, "x1")
    x2 = count_array(x2, "x2")
    same_shape(x1, x2, "x1", "x2")
    return _pooled(x1, x2, positive_scalar(alpha1, "alpha1"), positive_scalar(alpha2, "alpha2"))


def _pooled(x1, x2, alpha1, alpha2):
    m = x1.shape[-1]
    num = np.zeros(x1.shape)
    den = np.zeros(x1.shape[:-1] + (1,))
    for x, alpha in ((x1, alpha1), (x2, alpha2)):
        c = debias_counts(x, alpha)
        t = c.sum(axis=-1, keepdims=True)
        w = t * t / (t + 2.0 * m * (2.0 / alpha) ** 2)
        with np.errstate(divide="ignore", invalid="ignore"):
            num += np.where(t > 0, w * c / t, 0.0)
        den = den + w
    with np.errstate(divide="ignore", invalid="ignore"):
        p0 = np.where(den > 0, num / den, 1.0 / m)
    # num / den rounds a bin holding all the mass to 1 + 2^-52 at times (one bin whose
    # debiased count is the only one above 0), which Generator.multinomial refuses: keep
    # every proportion at most 1.
    return np.minimum(p0, 1.0)


@dataclass(frozen=True)
class MomentNullEstimate:
    """The null estimates of the normal-score test.

    ``p0_hat``: :func:`pooled_proportions`; ``n1_total``, ``n2_total``: the
    moment totals (:func:`moment_total`), real numbers >= 0; ``n1_hat``,
    ``n2_hat``: their nearest integers, the totals the replicates are drawn with.

    Beyond [SPJ22]: the estimates of this project's normal-score test (the
    counterpart of [SPJ22]'s eq. (4.3) estimates in :class:`NullEstimate`).

    Attributes
    ----------
    p0_hat : numpy.ndarray
        Pooled proportions, shape (..., M).
    n1_total, n2_total : float or numpy.ndarray
        Moment totals N_1, N_2 >= 0, one per batch element.
    n1_hat, n2_hat : int or numpy.ndarray
        Their nearest integers (halves rounded up): Python ints from
        :func:`normal_score_test`, int64 arrays from
        :func:`normal_score_estimates`.

    Examples
    --------
    >>> r = normal_score_test([30, 4, 12, 55], [25, 15, 9, 70], 0.1, 0.1, n_boot=9, rng=1)
    >>> est = r.estimate
    >>> round(est.n1_total, 3), round(est.n2_total, 3), est.n1_hat, est.n2_hat
    (79.369, 99.051, 79, 99)
    """

    p0_hat: np.ndarray
    n1_total: float | np.ndarray
    n2_total: float | np.ndarray
    n1_hat: int | np.ndarray
    n2_hat: int | np.ndarray


def _contrast(x1, x2, alpha1, alpha2):
    """T and the null estimates of the normal-score test, batched on leading axes."""
    p0 = _pooled(x1, x2, alpha1, alpha2)
    n1 = _moment_total(x1.sum(axis=-1), p0, alpha1)
    n2 = _moment_total(x2.sum(axis=-1), p0, alpha2)
    terms = []
    for x, n, alpha in ((x1, n1, alpha1), (x2, n2, alpha2)):
        lam, var, slope = _mean_var_slope(np.asarray(n), p0, alpha)
        # a = slope / sd: how far the score moves per unit of p_j; a tiny floor keeps the
        # direction defined when both totals are 0 (then (z_1 - z_2) / sqrt 2).
        terms.append((normal_scores(x, lam, alpha), slope / np.sqrt(var) + 1e-12))
    (z1, a1), (z2, a2) = terms
    statistic = ((a2 * z1 - a1 * z2) ** 2 / (a1 * a1 + a2 * a2)).sum(axis=-1)
    return statistic, p0, n1, n2


def contrast_statistic(x1, x2, alpha1, alpha2):
    """The normal-score contrast statistic T of two private histograms.

    With p0-hat from :func:`pooled_proportions`, N_i from :func:`moment_total`,
    lambda_ij = N_i p0_j, z_ij the :func:`normal_scores` of X_ij at lambda_ij, and
    a_ij = s_ij / sqrt(v_ij) with s_ij = N_i g_i'(lambda_ij) (eq. 4.1) and v_ij the
    variance of X_ij (:func:`noisy_count_variance` plus g_i'^2 lambda_ij),

        T = sum_j (a_2j z_1j - a_1j z_2j)^2 / (a_1j^2 + a_2j^2).

    A common error in p0-hat moves z_1j and z_2j about in proportion to a_1j
    and a_2j and cancels in the contrast to first order when the noise is small
    next to the counts (where they are of one size the cancellation is partial:
    see the module docstring). Without noise (alpha -> infinity)
    z_ij = (X_ij - lambda_ij) / sqrt(lambda_ij) and T equals the chi-square
    statistic (2.3). Batched on leading axes.

    Parameters
    ----------
    x1 : array_like
        The private histogram X_1 (eq. 2.4): non-negative counts, at least 2
        bins on the last axis, leading axes batches.
    x2 : array_like
        The private histogram X_2, the shape of `x1`.
    alpha1 : float
        Privacy level alpha_1 of `x1`, a finite number > 0.
    alpha2 : float
        Privacy level alpha_2 of `x2`, a finite number > 0.

    Returns
    -------
    float or numpy.ndarray
        T >= 0, one per batch element.

    Raises
    ------
    ValueError
        If `x1` or `x2` is not an array of finite, non-negative counts with
        at least 2 bins, if their shapes differ, or if `alpha1` or `alpha2`
        is not a finite number > 0.

    Notes
    -----
    Beyond [SPJ22]: this project's statistic; it reduces to [SPJ22]
    eq. (2.3) without noise.

    Examples
    --------
    >>> import numpy as np
    >>> round(float(contrast_statistic([30, 4, 12, 55], [25, 15, 9, 70], 0.1, 0.1)), 4)
    0.3112
    >>> x1, x2 = [10, 20, 30], [20, 20, 20]  # almost no noise: the chi-square statistic
    >>> t = contrast_statistic(x1, x2, 1e9, 1e9)
    >>> round(float(t), 4), round(float(chisq_statistic(x1, x2)), 4)
    (5.3333, 5.3333)
    """
    x1 = count_array(x1, "x1", min_bins=2)
    x2 = count_array(x2, "x2", min_bins=2)
    same_shape(x1, x2, "x1", "x2")
    statistic = _contrast(x1, x2, positive_scalar(alpha1, "alpha1"),
                          positive_scalar(alpha2, "alpha2"))[0]
    return statistic[()] if statistic.ndim == 0 else statistic


def _nearest(n):
    return np.floor(np.asarray(n) + 0.5).astype(np.int64)


def normal_score_estimates(x1, x2, alpha1, alpha2):
    """The normal-score statistic and its null estimates, batched on leading axes.

    Returns ``(statistic, estimate)``: T of :func:`contrast_statistic` and a
    :class:`MomentNullEstimate` (p0-hat, the moment totals and their nearest
    integers, which the replicates are drawn with). The same numbers as
    :func:`normal_score_test` computes on one pair, without validating
    simulated arrays.

    Parameters
    ----------
    x1 : array_like
        The private histogram X_1 (eq. 2.4): non-negative counts, bins on the
        last axis, leading axes batches.
    x2 : array_like
        The private histogram X_2, the shape of `x1`.
    alpha1 : float
        Privacy level alpha_1 of `x1`, a finite number > 0.
    alpha2 : float
        Privacy level alpha_2 of `x2`, a finite number > 0.

    Returns
    -------
    statistic : float or numpy.ndarray
        T of :func:`contrast_statistic`, one per batch element.
    estimate : MomentNullEstimate
        p0-hat, the moment totals N_1, N_2 and their nearest integers (int64
        arrays, 0-d for one pair).

    Raises
    ------
    ValueError
        There is no check up front; negative or non-finite counts and privacy
        levels that are not finite numbers > 0 are caught inside
        :func:`debias_counts`, whose message names `x` or `alpha` (not `x1`,
        `alpha1`, ...). Shapes that do not match fail in NumPy broadcasting.

    Notes
    -----
    Beyond [SPJ22]: this project's normal-score test; see
    :func:`contrast_statistic`, :func:`pooled_proportions` and
    :func:`moment_total`.

    Examples
    --------
    >>> import numpy as np
    >>> t, est = normal_score_estimates([[30, 4, 12, 55], [52, 48, 50, 45]],
    ...                                 [[25, 15, 9, 70], [49, 55, 47, 51]], 0.1, 0.1)
    >>> np.round(t, 4), est.n1_hat, est.n2_hat
    (array([0.3112, 0.106 ]), array([ 79, 191]), array([ 99, 199]))
    """
    statistic, p0, n1, n2 = _contrast(np.asarray(x1, dtype=float), np.asarray(x2, dtype=float),
                                      alpha1, alpha2)
    return statistic, MomentNullEstimate(p0, n1, n2, _nearest(n1), _nearest(n2))


def normal_score_null(n_hat, p0_hat, alpha1, alpha2, *, n_boot: int, rng=None) -> np.ndarray:
    """Replicates T_b of the normal-score test for R tests at once, shape (R, B).

    Each replicate draws U_i ~ Multinomial(n_hat_i, p0-hat) (n_hat_i >= 0),
    releases it with (2.4) and recomputes :func:`contrast_statistic`, estimates
    included, exactly as on the data.

    Parameters
    ----------
    n_hat : array_like of int, shape (R, 2)
        The totals n_hat_1, n_hat_2 of each of R tests (all >= 0).
    p0_hat : array_like, shape (R, M)
        p0-hat of each test; each row is divided by its sum before sampling.
    alpha1 : float
        Privacy level alpha_1 of the first histogram (> 0).
    alpha2 : float
        Privacy level alpha_2 of the second histogram (> 0).
    n_boot : int, keyword-only
        Replicates B per test (1 to 1,000,000).
    rng : None, int or numpy.random.Generator, keyword-only
        Source of randomness, normalised with ``np.random.default_rng``.

    Returns
    -------
    numpy.ndarray, shape (R, B)
        The replicates T_b of every test.

    Raises
    ------
    ValueError
        If `n_hat` is not of shape (R, 2) or `p0_hat` not of shape (R, M), if
        a total is negative, if `p0_hat` holds a negative or non-finite entry,
        if `alpha1` or `alpha2` is not a finite number > 0, or if `n_boot` is
        not an integer from 1 to 1,000,000.

    Notes
    -----
    Beyond [SPJ22]: this project's normal-score test, simulated as
    [SPJ22] Algorithm 1 lines 7-9 simulate, with eq. (2.4).

    Examples
    --------
    >>> import numpy as np
    >>> t, est = normal_score_estimates([30, 4, 12, 55], [25, 15, 9, 70], 0.1, 0.1)
    >>> null = normal_score_null([[est.n1_hat, est.n2_hat]], [est.p0_hat], 0.1, 0.1,
    ...                          n_boot=5, rng=1)
    >>> null.shape
    (1, 5)
    >>> np.round(null, 2)
    array([[3.87, 0.51, 0.19, 8.62, 3.75]])
    """
    n_hat, p0, n_boot = _check_null_inputs(n_hat, p0_hat, n_boot, minimum=0)
    return _score_replicates(n_hat, p0, positive_scalar(alpha1, "alpha1"),
                             positive_scalar(alpha2, "alpha2"), n_boot,
                             np.random.default_rng(rng), calibrate=False)


def _score_replicates(n_hat, p0, alpha1, alpha2, n_boot, rng, *, calibrate: bool):
    """The normal-score test's replicates T*_b, (R, B); with ``calibrate`` also one
    second-level T**_b each (from a stream spawned from ``rng``, so the first level is
    the same either way): (null, second)."""
    if not calibrate:
        return _null_replicates(n_hat, p0, alpha1, alpha2, n_boot, rng,
                                lambda y, rows: _contrast(y[..., 0, :], y[..., 1, :],
                                                          alpha1, alpha2)[0])
    second_rng = rng.spawn(1)[0]
    return _null_replicates(n_hat, p0, alpha1, alpha2, n_boot, rng,
                            lambda y, rows: _contrast_and_second(y, alpha1, alpha2, second_rng),
                            outputs=2)


def calibrated_null(n_hat, p0_hat, alpha1, alpha2, *, n_boot: int, rng=None):
    """First- and second-level replicates of the calibrated test for R tests at once.

    The first level is exactly :func:`normal_score_null` with the same ``rng``; for
    each first-level pair, one second-level pair is drawn (from a stream spawned from
    ``rng``) from the null re-estimated on it, and its T**_b computed. Feed both to
    :func:`fast_double_pvalue`.

    Parameters
    ----------
    n_hat : array_like of int, shape (R, 2)
        The totals n_hat_1, n_hat_2 of each of R tests (all >= 0).
    p0_hat : array_like, shape (R, M)
        p0-hat of each test; each row is divided by its sum before sampling.
    alpha1 : float
        Privacy level alpha_1 of the first histogram (> 0).
    alpha2 : float
        Privacy level alpha_2 of the second histogram (> 0).
    n_boot : int, keyword-only
        Replicates B per test and level (1 to 1,000,000).
    rng : None, int or numpy.random.Generator, keyword-only
        Source of randomness, normalised with ``np.random.default_rng``.

    Returns
    -------
    null : numpy.ndarray, shape (R, B)
        The first-level replicates T*_b.
    second : numpy.ndarray, shape (R, B)
        The second-level replicates T**_b.

    Raises
    ------
    ValueError
        As :func:`normal_score_null`.

    Notes
    -----
    Beyond [SPJ22]: the fast double bootstrap of [DM07] on this project's
    normal-score test.

    Examples
    --------
    >>> import numpy as np
    >>> t, est = normal_score_estimates([30, 4, 12, 55], [25, 15, 9, 70], 0.1, 0.1)
    >>> args = ([[est.n1_hat, est.n2_hat]], [est.p0_hat], 0.1, 0.1)
    >>> null, second = calibrated_null(*args, n_boot=5, rng=1)
    >>> bool(np.array_equal(null, normal_score_null(*args, n_boot=5, rng=1)))
    True
    >>> second.shape
    (1, 5)
    """
    n_hat, p0, n_boot = _check_null_inputs(n_hat, p0_hat, n_boot, minimum=0)
    return _score_replicates(n_hat, p0, positive_scalar(alpha1, "alpha1"),
                             positive_scalar(alpha2, "alpha2"), n_boot,
                             np.random.default_rng(rng), calibrate=True)


def normal_score_test(
    x1, x2, alpha1, alpha2, *, n_boot: int = 1000, rng=None
) -> BootstrapTestResult:
    """Normal-score contrast bootstrap test of homogeneity (beyond the source).

    1. T = :func:`contrast_statistic` of X_1, X_2, with the null estimates
       p0-hat (:func:`pooled_proportions`) and N_i (:func:`moment_total`);
    2. for b = 1..B: U_i ~ Multinomial(round(N_i), p0-hat),
       Y_i = max(0, U_i + Lap(2/alpha_i)), T_b = :func:`contrast_statistic`
       of Y_1, Y_2 (estimates recomputed on the replicate);
    3. p-value (1 + #{T_b >= T}) / (B + 1).

    Defined for every input: an estimated total of 0 simulates pure noise.
    Same arguments and result type as :func:`parametric_bootstrap_test`.

    Parameters
    ----------
    x1 : array_like
        The first private histogram X_1 (1-D, M >= 2 bins).
    x2 : array_like
        The second private histogram X_2 (1-D, the same M bins).
    alpha1 : float
        Privacy level alpha_1 of `x1` (> 0).
    alpha2 : float
        Privacy level alpha_2 of `x2` (> 0).
    n_boot : int, keyword-only
        Number of bootstrap replicates B (1 to 1,000,000).
    rng : None, int or numpy.random.Generator, keyword-only
        Source of randomness for the replicates, normalised with
        ``np.random.default_rng``.

    Returns
    -------
    BootstrapTestResult
        With ``test="normal_score"``: T, ``pvalue``, ``pvalue_source`` (line
        11's formula on these replicates), the B replicates, the rounded
        totals, p0-hat and the :class:`MomentNullEstimate`.

    Raises
    ------
    ValueError
        If `x1` or `x2` is not a 1-D array of finite, non-negative counts with
        at least 2 bins, if their shapes differ, if `alpha1` or `alpha2` is
        not a finite number > 0, or if `n_boot` is not an integer from 1 to
        1,000,000.

    Notes
    -----
    Beyond [SPJ22]: this project's test (see the module docstring). It
    keeps the structure of [SPJ22] Algorithm 1 (a parametric bootstrap under
    the mechanism of eq. 2.4) with another statistic and other estimates, and
    reports the p-value of [DH97] eq. 4.11.

    Examples
    --------
    >>> r = normal_score_test([52, 48, 50, 45], [49, 55, 47, 51], 1.0, 1.0, n_boot=99, rng=1)
    >>> round(r.statistic, 3), r.pvalue, r.rejects(0.05)
    (0.793, 0.85, False)
    >>> r = normal_score_test([120, 80, 40, 10], [40, 80, 120, 60], 1.0, 1.0, n_boot=99, rng=1)
    >>> r.test, r.pvalue, r.below_resolution
    ('normal_score', 0.01, True)
    >>> r = normal_score_test([0, 1, 0], [30, 40, 50], 0.1, 0.1, n_boot=99, rng=1)
    >>> r.n1_hat, 0.01 <= r.pvalue <= 1  # Algorithm 1 is undefined here (N-hat_1 = 0)
    (0, True)
    """
    x1, x2, alpha1, alpha2, n_boot = _check_pair(x1, x2, alpha1, alpha2, n_boot)
    return _normal_score_run(x1, x2, alpha1, alpha2, n_boot, np.random.default_rng(rng),
                             calibrate=False)[0]


def _normal_score_run(x1, x2, alpha1, alpha2, n_boot, rng, *, calibrate: bool):
    """The normal-score test on one checked pair, and with ``calibrate`` its fast double
    bootstrap: (normal-score result, calibrated result or None).

    The first level draws exactly what :func:`normal_score_test` draws from ``rng``, so
    both tests share their replicates and the single test's numbers do not depend on
    ``calibrate``; the second level draws from a stream spawned from ``rng``.
    """
    statistic, p0, n1, n2 = _contrast(x1, x2, alpha1, alpha2)
    statistic = float(statistic)
    n1_hat, n2_hat = int(_nearest(n1)), int(_nearest(n2))
    n_hat = np.array([[n1_hat, n2_hat]])
    drawn = _score_replicates(n_hat, p0[None, :], alpha1, alpha2, n_boot, rng,
                              calibrate=calibrate)
    null, second = (drawn[0][0], drawn[1][0]) if calibrate else (drawn[0], None)
    est = MomentNullEstimate(p0, float(n1), float(n2), n1_hat, n2_hat)
    single = BootstrapTestResult(
        statistic=statistic,
        pvalue=float(monte_carlo_pvalue(null, statistic)),
        pvalue_source=float(source_pvalue(null, statistic)),
        null_distribution=null,
        n1_hat=n1_hat,
        n2_hat=n2_hat,
        p0_hat=p0,
        estimate=est,
        test="normal_score",
    )
    if not calibrate:
        return single, None
    calibrated = CalibratedTestResult(
        statistic=statistic,
        pvalue=float(fast_double_pvalue(null, second, statistic)),
        pvalue_source=single.pvalue_source,
        null_distribution=null,
        n1_hat=n1_hat,
        n2_hat=n2_hat,
        p0_hat=p0,
        estimate=est,
        test="calibrated",
        second_level=second,
        pvalue_single=single.pvalue,
    )
    return single, calibrated


def _contrast_and_second(y, alpha1, alpha2, rng):
    """T*_b of first-level replicates ``y`` (..., 2, M) and, for each, one T**_b drawn from
    the null re-estimated on it (the fast double bootstrap's second level)."""
    t, p0, n1, n2 = _contrast(y[..., 0, :], y[..., 1, :], alpha1, alpha2)
    n_hat = np.stack([_nearest(n1), _nearest(n2)], axis=-1)
    scale = np.array([[2.0 / alpha1], [2.0 / alpha2]])
    y2 = _release_null(n_hat, p0[..., None, :], scale, None, rng)
    return t, _contrast(y2[..., 0, :], y2[..., 1, :], alpha1, alpha2)[0]


@dataclass(frozen=True)
class CalibratedTestResult(BootstrapTestResult):
    """Result of the calibrated normal-score test: its fast double bootstrap.

    A :class:`BootstrapTestResult` (``test="calibrated"``) whose ``pvalue`` is
    :func:`fast_double_pvalue` and whose :meth:`critical_value` is the one that
    p-value implies; ``null_distribution`` holds the first-level replicates (the
    normal-score test's own), ``second_level`` one second-level replicate per
    first-level one, and ``pvalue_single`` the normal-score test's p-value on the
    same replicates.

    Beyond [SPJ22]: this project's test, returned by :func:`calibrated_test`.

    Attributes
    ----------
    second_level : numpy.ndarray, shape (B,)
        T**_b: for each first-level replicate, T of one pair drawn from the null
        re-estimated on that replicate.
    pvalue_single : float
        (1 + #{T*_b >= T}) / (B + 1), the uncalibrated normal-score p-value.

    Examples
    --------
    >>> r = calibrated_test([52, 48, 50, 45], [49, 55, 47, 51], 1.0, 1.0, n_boot=99, rng=1)
    >>> r.test, r.second_level.shape, r.pvalue_single
    ('calibrated', (99,), 0.85)
    >>> r.rejects(0.05) == (r.statistic > r.critical_value(0.05))
    True
    """

    second_level: np.ndarray = field(default=None, repr=False)
    pvalue_single: float = float("nan")

    @property
    def below_resolution(self) -> bool:
        """True when the p-value is its smallest, 1/(B+1): no first-level replicate
        reached the second level's quantile Q** (see :func:`fast_double_pvalue`)."""
        return bool(self.pvalue * (self.n_boot + 1.0) <= 1.0 + 1e-9)

    def critical_value(self, level: float = 0.05) -> float:
        """The first-level replicate T*_(B-c) such that T > it exactly when this test rejects.

        Parameters
        ----------
        level : float, default 0.05
            Significance level, strictly between 0 and 1.

        Returns
        -------
        float
            The critical value, or +inf when no T would be rejected.

        Raises
        ------
        ValueError
            If `level` is not strictly between 0 and 1.
        """
        return _fdb_critical_value(self.null_distribution, self.second_level,
                                   probability(level, "level"))


def calibrated_test(
    x1, x2, alpha1, alpha2, *, n_boot: int = 1000, rng=None
) -> CalibratedTestResult:
    """The normal-score test calibrated by a fast double bootstrap (beyond the source).

    1. T and the B first-level replicates T*_b exactly as :func:`normal_score_test`
       draws them from ``rng``;
    2. on each first-level replicate, its re-estimated null (p0-hat*, N*_i) gives one
       second-level pair and its T**_b (from a stream spawned from ``rng``);
    3. p-value :func:`fast_double_pvalue`: the single bootstrap's critical value moved
       by how far the second level's tail falls from the first's.

    Where a bin's count is about the size of its noise, the single bootstrap's null,
    drawn from estimates, is lighter than the true null and the normal-score test
    rejects 6-8% of the time at the 5% level (M = 86, alpha = 0.01, N = 10^4); the
    second level measures that and corrects most of it (see
    ``benchmarks/bench_size_check.py`` and the README's calibration section for
    measured sizes). Twice the normal-score test's cost.

    Parameters
    ----------
    x1 : array_like
        The first private histogram X_1 (1-D, M >= 2 bins).
    x2 : array_like
        The second private histogram X_2 (1-D, the same M bins).
    alpha1 : float
        Privacy level alpha_1 of `x1` (> 0).
    alpha2 : float
        Privacy level alpha_2 of `x2` (> 0).
    n_boot : int, keyword-only
        Number of first-level replicates B (1 to 1,000,000); as many second-level ones.
    rng : None, int or numpy.random.Generator, keyword-only
        Source of randomness, normalised with ``np.random.default_rng``.

    Returns
    -------
    CalibratedTestResult
        ``test="calibrated"``; its ``pvalue_single`` is :func:`normal_score_test`'s
        p-value with the same ``rng``.

    Raises
    ------
    ValueError
        As :func:`normal_score_test`.

    Notes
    -----
    Beyond [SPJ22]: the fast double bootstrap of [DM07] (see
    :func:`fast_double_pvalue`) on this project's normal-score test.

    Examples
    --------
    >>> x1, x2 = [120, 80, 40, 10], [40, 80, 120, 60]
    >>> r = calibrated_test(x1, x2, 1.0, 1.0, n_boot=999, rng=1)
    >>> r.pvalue_single == normal_score_test(x1, x2, 1.0, 1.0, n_boot=999, rng=1).pvalue
    True
    >>> r.pvalue, r.rejects(0.05)
    (0.002, True)

    Its p-value rests on a quantile of the second level at 1 - p*: with few replicates
    that quantile is rough, and the smallest p-values need B in the hundreds or more.

    >>> calibrated_test(x1, x2, 1.0, 1.0, n_boot=99, rng=1).pvalue  # T beyond every T*_b
    0.06
    """
    x1, x2, alpha1, alpha2, n_boot = _check_pair(x1, x2, alpha1, alpha2, n_boot)
    return _normal_score_run(x1, x2, alpha1, alpha2, n_boot, np.random.default_rng(rng),
                             calibrate=True)[1]


#: The bootstrap tests by name, as functions of (x1, x2, alpha1, alpha2, n_boot=, rng=).
BOOTSTRAP_TESTS = {
    "bootstrap": parametric_bootstrap_test,
    "normal_score": normal_score_test,
    "calibrated": calibrated_test,
}


# ---------------------------------------------------------------------------
# One comparison end to end, as the dashboard shows it
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HomogeneityResult:
    """Two histograms released with eq. (2.4) and the tests of homogeneity run on them.

    ``original1``/``original2`` are None when the inputs were already
    private. ``naive``: the chi-square test; ``bootstrap``: Algorithm 1, None
    with ``bootstrap_error`` saying why when its null cannot be estimated (see
    DegenerateNullError); ``normal_score``: the normal-score test (defined
    for every input; None only when not run).

    Returned by :func:`release_and_test` and :func:`sample_and_test`: the
    releases of [SPJ22] eq. (2.4), the naive test of section 2.1, Algorithm 1,
    and (beyond [SPJ22]) this project's normal-score test.

    Attributes
    ----------
    alpha1, alpha2 : float
        Privacy levels of histograms A and B.
    original1, original2 : numpy.ndarray or None
        The true counts C_1, C_2; None when the inputs were already private.
    private1, private2 : numpy.ndarray
        The private histograms X_1, X_2.
    naive : ChisqTestResult
        The chi-square test on X_1, X_2 (:func:`chisq_test`).
    estimate : NullEstimate
        The estimates of eq. (4.3) (:func:`estimate_null`).
    bootstrap : BootstrapTestResult or None
        Algorithm 1 (:func:`parametric_bootstrap_test`); None when its null
        cannot be estimated.
    bootstrap_error : DegenerateNullError or None
        Why ``bootstrap`` is None (``str()`` gives the message; its template and
        fields are kept, see :mod:`dpcore.errors`); None otherwise.
    normal_score : BootstrapTestResult or None
        The normal-score test (:func:`normal_score_test`); None only when not
        run.
    calibrated : CalibratedTestResult or None
        The normal-score test calibrated by a fast double bootstrap
        (:func:`calibrated_test`), on the normal-score test's own first-level
        replicates; None only when not run.

    Methods
    -------
    histogram_table(labels=None)
        Per-bin table of the counts and estimates.
    summary_table()
        The tests' results and the estimates as a two-column table.

    Examples
    --------
    >>> res = release_and_test([120, 80, 40, 10], [40, 80, 120, 60], 1.0, 1.0,
    ...                        n_boot=99, rng=1)
    >>> res.naive.df, res.bootstrap.pvalue, res.normal_score.pvalue, res.bootstrap_error
    (3, 0.01, 0.01, None)
    >>> list(res.histogram_table().columns)  # doctest: +NORMALIZE_WHITESPACE
    ['original_A', 'private_A', 'debiased_A', 'rescaled_A',
     'original_B', 'private_B', 'debiased_B', 'rescaled_B', 'p0_hat']
    >>> res.summary_table().shape
    (23, 2)
    """

    alpha1: float
    alpha2: float
    original1: np.ndarray | None
    original2: np.ndarray | None
    private1: np.ndarray
    private2: np.ndarray
    naive: ChisqTestResult
    estimate: NullEstimate
    bootstrap: BootstrapTestResult | None
    bootstrap_error: DegenerateNullError | None = None
    normal_score: BootstrapTestResult | None = None
    calibrated: CalibratedTestResult | None = None

    def histogram_table(self, labels=None) -> pd.DataFrame:
        """Per-bin table: original, private, debiased and rescaled counts.

        Parameters
        ----------
        labels : sequence, optional
            One label per bin for the index (named ``bin``); default 1..M.

        Returns
        -------
        pandas.DataFrame
            One row per bin; columns ``original_A`` (if known), ``private_A``,
            ``debiased_A`` (C-tilde, eq. 4.2), ``rescaled_A`` (C-hat, eq. 4.3),
            the same for B, and ``p0_hat``.
        """
        m = self.private1.size
        cols = {}
        for i, orig, priv, tilde, hat in (
            ("A", self.original1, self.private1, self.estimate.c1_tilde, self.estimate.c1_hat),
            ("B", self.original2, self.private2, self.estimate.c2_tilde, self.estimate.c2_hat),
        ):
            if orig is not None:
                cols[f"original_{i}"] = orig
            cols[f"private_{i}"] = priv
            cols[f"debiased_{i}"] = tilde
            cols[f"rescaled_{i}"] = hat
        cols["p0_hat"] = self.estimate.p0_hat
        index = pd.Index(list(labels) if labels is not None else range(1, m + 1), name="bin")
        return pd.DataFrame(cols, index=index)

    def summary_table(self) -> pd.DataFrame:
        """The tests' results and the estimates as a two-column table.

        Returns
        -------
        pandas.DataFrame
            Columns ``quantity`` and ``value``: the privacy levels, the number
            of bins, the totals (true ones when known), N-hat, and each test's
            statistic, p-value and, for the bootstrap tests, B and the 5%
            critical value.
        """
        rows = [
            ("alpha_A", self.alpha1),
            ("alpha_B", self.alpha2),
            ("bins_M", self.private1.size),
        ]
        if self.original1 is not None:
            rows += [("N_A", self.original1.sum()), ("N_B", self.original2.sum())]
        rows += [
            ("N_hat_A", self.estimate.n1_hat),
            ("N_hat_B", self.estimate.n2_hat),
            ("chisq_statistic", self.naive.statistic),
            ("chisq_df", self.naive.df),
            ("chisq_pvalue", self.naive.pvalue),
        ]
        if self.bootstrap is not None:
            rows += [
                ("bootstrap_statistic_T", self.bootstrap.statistic),
                ("bootstrap_replicates_B", self.bootstrap.n_boot),
                ("bootstrap_critical_value_5pct", self.bootstrap.critical_value(0.05)),
                ("bootstrap_pvalue", self.bootstrap.pvalue),
                ("bootstrap_pvalue_source_line11", self.bootstrap.pvalue_source),
            ]
        if self.normal_score is not None:
            ns = self.normal_score
            rows += [
                ("normal_score_N_hat_A", ns.estimate.n1_total),
                ("normal_score_N_hat_B", ns.estimate.n2_total),
                ("normal_score_statistic_T", ns.statistic),
                ("normal_score_replicates_B", ns.n_boot),
                ("normal_score_critical_value_5pct", ns.critical_value(0.05)),
                ("normal_score_pvalue", ns.pvalue),
            ]
        if self.calibrated is not None:
            cal = self.calibrated
            rows += [
                ("calibrated_critical_value_5pct", cal.critical_value(0.05)),
                ("calibrated_pvalue", cal.pvalue),
            ]
        return pd.DataFrame(rows, columns=["quantity", "value"])


def release_and_test(
    counts1, counts2, alpha1, alpha2, *, n_boot: int = 1000, private: bool = False, rng=None
) -> HomogeneityResult:
    """Release two histograms with eq. (2.4) and run the three tests on them.

    With ``private=True`` the inputs are taken as already private
    histograms and only tested. Independent random streams are spawned for
    the noise of A, the noise of B, Algorithm 1's bootstrap and the
    normal-score test's, so that with a fixed seed changing alpha_1 rescales
    A's noise only, and changing B leaves the releases unchanged.

    Parameters
    ----------
    counts1 : array_like
        Histogram A: 1-D non-negative counts with M >= 2 bins; the true counts
        C_1, or private ones with ``private=True``.
    counts2 : array_like
        Histogram B, as `counts1`, with the same M bins.
    alpha1 : float
        Privacy level alpha_1 of A, a finite number > 0.
    alpha2 : float
        Privacy level alpha_2 of B, a finite number > 0.
    n_boot : int, keyword-only
        Number of bootstrap replicates B of each bootstrap test (1 to
        1,000,000).
    private : bool, keyword-only
        True when `counts1` and `counts2` are already private histograms.
    rng : None, int or numpy.random.Generator, keyword-only
        Source of randomness, normalised with ``np.random.default_rng``.

    Returns
    -------
    HomogeneityResult
        The inputs, the releases, the naive test, the eq. (4.3) estimates,
        Algorithm 1 (or why it cannot run) and the normal-score test.

    Raises
    ------
    ValueError
        If `counts1` or `counts2` is not an array of finite, non-negative
        counts with at least 2 bins, if their shapes differ, if `counts1` is
        not 1-D, if `alpha1` or `alpha2` is not a finite number > 0, or if
        `n_boot` is not an integer from 1 to 1,000,000.

    Notes
    -----
    [SPJ22] eq. (2.4) (the releases), section 2.1 (the naive test) and
    Algorithm 1; beyond [SPJ22], this project's normal-score test.

    Examples
    --------
    >>> import numpy as np
    >>> res = release_and_test([120, 80, 40, 10], [40, 80, 120, 60], 1.0, 1.0,
    ...                        n_boot=99, rng=1)
    >>> np.round(res.private1, 2)
    array([121.02,  77.89,  40.69,   9.11])
    >>> res.bootstrap.pvalue, res.normal_score.pvalue
    (0.01, 0.01)
    >>> res = release_and_test([0, 1, 0], [30, 40, 50], 0.1, 0.1, n_boot=99, private=True,
    ...                        rng=1)
    >>> res.bootstrap is None, res.bootstrap_error is not None, res.normal_score is not None
    (True, True, True)
    """
    c1 = count_array(counts1, "counts1", min_bins=2)
    c2 = count_array(counts2, "counts2", min_bins=2)
    same_shape(c1, c2, "counts1", "counts2")
    if c1.ndim != 1:
        raise ArgumentError("`{name}` must be a 1-D histogram.", name="counts1")
    alpha1 = positive_scalar(alpha1, "alpha1")
    alpha2 = positive_scalar(alpha2, "alpha2")
    noise1, noise2, boot, scores = np.random.default_rng(rng).spawn(4)
    if private:
        x1, x2, o1, o2 = c1, c2, None, None
    else:
        x1 = perturb_histogram(c1, alpha1, rng=noise1)
        x2 = perturb_histogram(c2, alpha2, rng=noise2)
        o1, o2 = c1, c2
    naive = chisq_test(x1, x2)
    try:
        result = parametric_bootstrap_test(x1, x2, alpha1, alpha2, n_boot=n_boot, rng=boot)
        error = None
        est = result.estimate
    except DegenerateNullError as exc:
        result = None
        est = estimate_null(x1, x2, alpha1, alpha2)
        if exc.which == 1:
            error = _degenerate_error(1, est.n1_hat, alpha1, histogram="A")
        else:
            error = _degenerate_error(2, est.n2_hat, alpha2, histogram="B")
    n_boot = positive_integer(n_boot, "n_boot", maximum=MAX_BOOT)
    normal, calibrated = _normal_score_run(x1, x2, alpha1, alpha2, n_boot, scores,
                                           calibrate=True)
    return HomogeneityResult(alpha1, alpha2, o1, o2, x1, x2, naive, est, result, error, normal,
                             calibrated)


def sample_and_test(
    p1, p2, n1: int | None, n2: int | None, alpha1, alpha2, *, n_boot: int = 1000, rng=None
) -> HomogeneityResult:
    """Draw C_i ~ Multinomial(N_i, p_i) (2.1), then :func:`release_and_test`.

    With ``n_i=None``, ``p_i`` is taken as the fixed counts C_i instead (an
    uploaded histogram used as it is). Each histogram is drawn from its own
    spawned stream, so changing N_2 does not change histogram A.

    Parameters
    ----------
    p1 : array_like
        Bin probabilities p_1 of A (1-D, at least 2, non-negative, summing to
        1 within 1e-8); with ``n1=None``, the counts C_1 instead.
    p2 : array_like
        Bin probabilities p_2 of B, as `p1` (the counts C_2 with ``n2=None``).
    n1 : int or None
        Total N_1 of the drawn histogram A (0 to 10**12), or None.
    n2 : int or None
        Total N_2 of the drawn histogram B (0 to 10**12), or None.
    alpha1 : float
        Privacy level alpha_1 of A, a finite number > 0.
    alpha2 : float
        Privacy level alpha_2 of B, a finite number > 0.
    n_boot : int, keyword-only
        Number of bootstrap replicates B of each bootstrap test (1 to
        1,000,000).
    rng : None, int or numpy.random.Generator, keyword-only
        Source of randomness, normalised with ``np.random.default_rng``.

    Returns
    -------
    HomogeneityResult
        As :func:`release_and_test`, with ``original1``, ``original2`` the
        drawn (or given) counts.

    Raises
    ------
    ValueError
        If `p1` or `p2` is not a vector of probabilities (when drawn), `n1` or
        `n2` is not an integer from 0 to 10**12 (these messages come from
        :func:`dpcore.datasets.draw_histogram` and name `p` and `n`), or for
        any reason :func:`release_and_test` gives.

    Notes
    -----
    [SPJ22] eq. (2.1), then :func:`release_and_test`.

    Examples
    --------
    >>> res = sample_and_test([0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4], 500, 500, 1.0, 1.0,
    ...                       n_boot=99, rng=1)
    >>> res.original1
    array([188., 167., 102.,  43.])
    >>> res.bootstrap.pvalue, res.normal_score.pvalue
    (0.01, 0.01)
    """
    draw1, draw2, rest = np.random.default_rng(rng).spawn(3)
    c1 = p1 if n1 is None else draw_histogram(p1, n1, rng=draw1)
    c2 = p2 if n2 is None else draw_histogram(p2, n2, rng=draw2)
    return release_and_test(c1, c2, alpha1, alpha2, n_boot=n_boot, rng=rest)
