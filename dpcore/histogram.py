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
    """Scale b = 2/alpha of the Laplace noise of eq. (2.4)."""
    return 2.0 / positive_scalar(alpha, "alpha")


def noise_sd(alpha: float) -> float:
    """Standard deviation of the noise Lap(2/alpha): sqrt(2) * 2/alpha."""
    return float(np.sqrt(2.0) * laplace_scale(alpha))


def perturb_histogram(counts, alpha: float, *, rng=None) -> np.ndarray:
    """Release a histogram with the truncated Laplace mechanism, eq. (2.4).

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

    Notes
    -----
    The noise is drawn as ``scale * L`` from one stream of standard Laplace
    variates, so with a fixed seed the release moves continuously with alpha.
    """
    c = count_array(counts, "counts")
    scale = laplace_scale(alpha)
    rng = np.random.default_rng(rng)
    z = rng.laplace(0.0, 1.0, size=c.shape)
    return np.maximum(0.0, c + scale * z)


def zero_probability(counts, alpha: float) -> np.ndarray:
    """P(X_j = 0) = P(Z_j <= -C_j) = exp(-alpha C_j / 2) / 2 for C_j >= 0."""
    c = count_array(counts, "counts")
    return 0.5 * np.exp(-positive_scalar(alpha, "alpha") * c / 2.0)
