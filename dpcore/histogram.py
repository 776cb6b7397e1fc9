"""The truncated Laplace histogram mechanism.

Son, Park & Jung (2022), eq. (2.4): each count of a histogram C is released as

    X_j = max(0, C_j + Z_j),   Z_j ~ Lap(2/alpha)  i.i.d.,

("boosted perturbed histogram", Wasserman & Zhou 2010), which is alpha-DP for
histograms that differ by one person moving between bins (sensitivity 2).
"""

from __future__ import annotations

import numpy as np

from dpcore.validation import count_array, positive_scalar

__all__ = ["laplace_scale", "noise_sd", "perturb_histogram", "zero_probability"]


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
