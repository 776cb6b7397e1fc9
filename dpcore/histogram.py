"""The truncated Laplace histogram mechanism.

Son, Park & Jung (2022), eq. (2.4): each count of a histogram C is released as

    X_j = max(0, C_j + Z_j),   Z_j ~ Lap(2/alpha)  i.i.d.,

("boosted perturbed histogram", Wasserman & Zhou 2010), which is alpha-DP for
histograms that differ by one person moving between bins (sensitivity 2).

Budget. Releases of the same people add up (sequential composition): k releases at
alpha_1, …, alpha_k are (alpha_1 + … + alpha_k)-DP together (``budget_spent``,
``budget_check``). Histograms of disjoint groups of people released together cost alpha
once (parallel composition, ``release_groups``).
"""

from __future__ import annotations

import numpy as np

from dpcore.errors import ArgumentError
from dpcore.validation import count_array, finite_array, nonnegative_scalar, positive_scalar

__all__ = [
    "budget_check",
    "budget_spent",
    "laplace_scale",
    "noise_sd",
    "perturb_histogram",
    "release_groups",
    "zero_probability",
]


def laplace_scale(alpha: float) -> float:
    """Scale b = 2/alpha of the Laplace noise of eq. (2.4).

    The noise Z_j ~ Lap(2/alpha) of the truncated Laplace mechanism,
    [SPJ22] eq. (2.4).

    Parameters
    ----------
    alpha : float
        Privacy level alpha, a finite number > 0.

    Returns
    -------
    float
        The Laplace scale b = 2/alpha.

    Raises
    ------
    ValueError
        If `alpha` is not a finite number > 0.

    Examples
    --------
    >>> laplace_scale(0.5)
    4.0
    >>> laplace_scale(2.0)
    1.0
    """
    return 2.0 / positive_scalar(alpha, "alpha")


def noise_sd(alpha: float) -> float:
    """Standard deviation of the noise Lap(2/alpha): sqrt(2) * 2/alpha.

    The noise is that of [SPJ22] eq. (2.4); its standard deviation sqrt(2) b
    (Lap(b) has variance 2 b^2) is a property of the Laplace distribution that
    this project adds, not a formula of the source. It is the spread before
    truncation at 0; the released counts spread less near 0.

    Parameters
    ----------
    alpha : float
        Privacy level alpha, a finite number > 0.

    Returns
    -------
    float
        sqrt(2) * 2/alpha.

    Raises
    ------
    ValueError
        If `alpha` is not a finite number > 0.

    Examples
    --------
    >>> round(noise_sd(1.0), 4)
    2.8284
    >>> round(noise_sd(0.5) / laplace_scale(0.5), 4)  # sqrt(2)
    1.4142
    """
    return float(np.sqrt(2.0) * laplace_scale(alpha))


def perturb_histogram(counts, alpha: float, *, rng=None) -> np.ndarray:
    """Release a histogram with the truncated Laplace mechanism, eq. (2.4).

    Implements [SPJ22] eq. (2.4), X_j = max(0, C_j + Z_j) with
    Z_j ~ Lap(2/alpha) i.i.d.: the perturbed histogram with negative counts
    set to 0 that [SPJ22] section 2.2 takes from [WZ10].

    Parameters
    ----------
    counts : array_like
        Non-negative counts C, bins on the last axis; leading axes are batches
        (each histogram gets its own independent noise).
    alpha : float
        Privacy level alpha > 0; the noise is Laplace with scale 2/alpha.
    rng : None, int or numpy.random.Generator, optional
        Source of randomness, normalised with ``np.random.default_rng``.

    Returns
    -------
    numpy.ndarray
        Float array X of the same shape, ``X = max(0, C + Z)``.

    Raises
    ------
    ValueError
        If `counts` is not an array of finite, non-negative numbers, or
        `alpha` is not a finite number > 0.

    Notes
    -----
    The noise is drawn as ``scale * L`` from one stream of standard Laplace
    variates, so with a fixed seed the release moves continuously with alpha.

    Examples
    --------
    >>> import numpy as np
    >>> x = perturb_histogram([10, 0, 50], 0.5, rng=1)
    >>> np.round(x, 2)
    array([10.1 ,  9.25, 45.03])
    >>> bool(np.all(x >= 0))
    True
    >>> perturb_histogram(np.zeros((3, 5)), 1.0, rng=1).shape  # 3 histograms, 5 bins
    (3, 5)
    """
    c = count_array(counts, "counts")
    scale = laplace_scale(alpha)
    rng = np.random.default_rng(rng)
    z = rng.laplace(0.0, 1.0, size=c.shape)
    return np.maximum(0.0, c + scale * z)


def zero_probability(counts, alpha: float) -> np.ndarray:
    """P(X_j = 0) = P(Z_j <= -C_j) = exp(-alpha C_j / 2) / 2 for C_j >= 0.

    The atom at 0 of the truncated Laplace mechanism of [SPJ22] eq. (2.4):
    the Laplace lower tail P(Z <= -c) = exp(-c/b) / 2 with b = 2/alpha. The
    source does not state this probability; this project derives it from
    (2.4).

    Parameters
    ----------
    counts : array_like
        Non-negative true counts C, any shape with at least one axis.
    alpha : float
        Privacy level alpha, a finite number > 0.

    Returns
    -------
    numpy.ndarray
        Float array of the same shape: the probability that each released
        count is 0, from 1/2 at C_j = 0 down towards 0.

    Raises
    ------
    ValueError
        If `counts` is not an array of finite, non-negative numbers, or
        `alpha` is not a finite number > 0.

    Examples
    --------
    >>> import numpy as np
    >>> np.round(zero_probability([0, 2, 10], 0.5), 4)
    array([0.5   , 0.3033, 0.041 ])
    """
    c = count_array(counts, "counts")
    return 0.5 * np.exp(-positive_scalar(alpha, "alpha") * c / 2.0)


def release_groups(counts_by_group, alpha: float, *, rng=None) -> np.ndarray:
    """Release the histograms of several disjoint groups at once, each with its own noise.

    Each row (a group: a class section, say) is released by eq. (2.4),
    X_gj = max(0, C_gj + Z_gj) with Z_gj ~ Lap(2/alpha) independent over groups and
    bins. The whole release is alpha-DP, not (groups × alpha)-DP, when every person is
    counted once, in one bin of one group: the groups × bins table is itself one
    histogram, and one person changing their value (in their bin or group, or moving to
    another group) changes it by at most 2 in L1 norm, the sensitivity eq. (2.4) is
    calibrated to. This is parallel composition; a person counted in two groups would
    cost alpha for each.

    Parameters
    ----------
    counts_by_group : array_like
        Non-negative counts, groups × bins (2-D); a 1-D histogram is one group. Further
        leading axes are independent repeated releases.
    alpha : float
        Privacy level alpha > 0 of the whole release; the noise is Laplace with scale
        2/alpha.
    rng : None, int or numpy.random.Generator, optional
        Keyword-only: the random source, normalised with ``np.random.default_rng``.

    Returns
    -------
    numpy.ndarray
        Float array of shape (groups, bins) (or the input's shape if more axes), each
        entry max(0, C + Z).

    Raises
    ------
    ValueError
        If `counts_by_group` is not an array of finite, non-negative counts, or `alpha`
        is not a finite number > 0.

    Notes
    -----
    [SPJ22] eq. (2.4), applied to the table of groups × bins; the parallel composition
    argument is this project's. With the same seed it draws exactly what
    :func:`perturb_histogram` draws for the same table.

    Examples
    --------
    >>> import numpy as np
    >>> x = release_groups([[3, 5, 2], [4, 0, 6]], 1.0, rng=1)
    >>> x.shape
    (2, 3)
    >>> np.round(x, 2)
    array([[3.05, 9.62, 0.  ],
           [8.55, 0.  , 5.67]])
    """
    c = count_array(counts_by_group, "counts_by_group")
    return perturb_histogram(np.atleast_2d(c), alpha, rng=rng)


def budget_spent(alphas) -> float:
    """The privacy spent by several releases of the same people: the sum of their alphas.

    Sequential composition: releases at alpha_1, …, alpha_k are together
    (alpha_1 + … + alpha_k)-DP. A release of disjoint groups made together
    (:func:`release_groups`) counts once, at its alpha (parallel composition).

    Parameters
    ----------
    alphas : float or array_like
        The privacy levels of the releases so far, each a finite number > 0; an empty
        list is no release.

    Returns
    -------
    float
        The total, 0.0 for no release.

    Raises
    ------
    ValueError
        If an entry of `alphas` is not a finite number > 0.

    Notes
    -----
    The basic composition of pure differential privacy, applied to the alpha of
    [SPJ22] eq. (2.4) (the paper does not compose releases; this project does).

    Examples
    --------
    >>> budget_spent([0.5, 0.25, 0.25])
    1.0
    >>> budget_spent([])
    0.0
    """
    a = finite_array(alphas, "alphas", sign="positive")
    return float(a.sum())


def budget_check(spent, alpha, total) -> float:
    """Whether one more release at `alpha` fits the budget; the new total if it does.

    Refuses when spent + alpha exceeds total. A relative tolerance of 1e-9 of the total
    lets sums such as 0.1 + 0.2 reach a total of 0.3 (floating point writes that sum
    as 0.30000000000000004).

    Parameters
    ----------
    spent : float
        The privacy already spent (:func:`budget_spent`), a finite number >= 0.
    alpha : float
        The privacy level of the next release, a finite number > 0.
    total : float
        The whole budget, a finite number > 0.

    Returns
    -------
    float
        spent + alpha, the new total spent.

    Raises
    ------
    ValueError
        If `spent`, `alpha` or `total` is not a valid number, or the release does not
        fit: "`alpha` must be at most <what is left>, got <alpha>." (what is left is
        total − spent rounded to 12 significant digits, 0 if nothing is).

    Notes
    -----
    Sequential composition (:func:`budget_spent`) of the [SPJ22] eq. (2.4) releases;
    the budget is this project's.

    Examples
    --------
    >>> budget_check(0.5, 0.25, 1.0)
    0.75
    >>> round(budget_check(0.1, 0.2, 0.3), 12)
    0.3
    >>> budget_check(0.75, 0.5, 1.0)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `alpha` must be at most 0.25, got 0.5.
    """
    spent = nonnegative_scalar(spent, "spent")
    alpha = positive_scalar(alpha, "alpha")
    total = positive_scalar(total, "total")
    new = spent + alpha
    if new > total * (1.0 + 1e-9):
        left = float(f"{max(total - spent, 0.0):.12g}")
        raise ArgumentError("`{name}` must be at most {maximum:,}, got {value:,}.",
                            name="alpha", maximum=left, value=alpha)
    return new
