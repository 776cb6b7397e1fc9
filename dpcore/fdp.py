"""f-differential privacy and Gaussian differential privacy.

Dong, Roth & Su (2022), "Gaussian differential privacy", JRSSB 84(1): 3-37.
Privacy as hypothesis testing: an attacker tests H0 "the data set is D"
against H1 "it is D'" from the mechanism's output; the trade-off function
T(P, Q)(alpha) is the smallest type-II error of any test of level alpha.

- G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu) = T(N(0, 1), N(mu, 1));
- f_{eps,delta}(alpha) = max(0, 1 - delta - e^eps alpha,
  e^{-eps}(1 - delta - alpha)). The reviewed source writes the last term
  with e^{eps}; the correct factor is e^{-eps} (Dong et al., eq. 5), which
  makes f_{eps,delta} symmetric and convex, as tested;
- mu-GDP implies (eps, delta(eps))-DP for every eps >= 0 with
  delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Corollary 2.13);
- groups of k: f-DP implies [1 - (1 - f)^{o k}]-DP; mu-GDP gives k mu-GDP
  (Theorem 2.14);
- composition: G_mu1 (x) G_mu2 = G_sqrt(mu1^2 + mu2^2) (Corollary 3.3), and
  the central limit theorem for n-fold compositions (Theorem 3.5).

All functions are vectorised over alpha and work in log space where e^eps
or tiny tails would overflow or underflow.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize, special, stats

from dpcore import gaussian
from dpcore.errors import ArgumentError
from dpcore.validation import (
    category_count,
    finite_array,
    nonnegative_scalar,
    positive_integer,
    positive_scalar,
    probability,
    probability_array,
)

__all__ = [
    "clt_mu",
    "composition_epsdp",
    "empirical_tradeoff",
    "below_target",
    "curve_at",
    "epsdelta_epsilon",
    "epsdelta_gdp_mu",
    "epsdelta_tradeoff",
    "epsdelta_vertices",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_mu",
    "gdp_slope",
    "gdp_tradeoff",
    "group_tradeoff",
    "identity_tradeoff",
    "krr_tradeoff",
    "laplace_delta",
    "laplace_epsilon",
    "laplace_gdp_mu",
    "laplace_histogram_delta",
    "laplace_histogram_epsilon",
    "laplace_histogram_errors",
    "laplace_histogram_gdp_mu",
    "laplace_histogram_tradeoff",
    "laplace_slope",
    "laplace_tradeoff",
    "tightest_epsilon",
    "tightest_gdp_mu",
    "tradeoff_discrete",
    "tradeoff_on_grid",
]


def identity_tradeoff(alpha):
    """Id(alpha) = 1 - alpha: perfect privacy, no test beats guessing.

    Parameters
    ----------
    alpha : float or array_like
        Type-I errors, in [0, 1].

    Returns
    -------
    numpy.float64 or numpy.ndarray
        1 - alpha, shaped like `alpha`.

    Raises
    ------
    ValueError
        If an entry of `alpha` is not in [0, 1] (NaN included).

    Notes
    -----
    Source: [DRS22]: Id = T(P, P) is the largest trade-off function (every trade-off
    function f has f(alpha) <= 1 - alpha), and a mechanism whose curve is Id is
    perfectly indistinguishable, as the review seed 001 puts it.

    Examples
    --------
    >>> from dpcore.fdp import identity_tradeoff
    >>> identity_tradeoff([0.0, 0.25, 1.0])
    array([1.  , 0.75, 0.  ])
    """
    return 1.0 - probability_array(alpha, "alpha", closed=True)


def gdp_tradeoff(alpha, mu):
    """G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu), the trade-off of N(0,1) vs N(mu,1).

    Phi^{-1}(1 - alpha) is computed as -Phi^{-1}(alpha): 1 - alpha would round to 1 for
    alpha below 1e-16 and give G_mu = 1 there whatever mu.

    Parameters
    ----------
    alpha : float or array_like
        Type-I errors, in [0, 1].
    mu : float
        The GDP parameter, >= 0; mu = 0 gives Id, larger mu a weaker guarantee.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        G_mu(alpha), shaped like `alpha`: the smallest type-II error of a test of
        N(0, 1) against N(mu, 1) at level alpha.

    Raises
    ------
    ValueError
        If an entry of `alpha` is not in [0, 1], or `mu` is not a finite number >= 0.

    Notes
    -----
    Source: [DRS22], G_mu = T(N(0, 1), N(mu, 1)), the curve that defines mu-GDP
    (T(M(D), M(D')) >= G_mu for all neighbours D, D'). The review seed 001 derives
    the closed form from the most powerful test "reject when X > t" (Neyman-Pearson),
    t = Phi^{-1}(1 - alpha). Evaluating it through the lower tail is this project's
    numerics.

    Examples
    --------
    At the 5 % level, the test of N(0, 1) against N(1, 1) still misses in 74 % of
    the cases; the miss rate falls as mu grows:

    >>> from dpcore.fdp import gdp_tradeoff
    >>> round(float(gdp_tradeoff(0.05, 1.0)), 4)
    0.7405
    >>> [round(float(gdp_tradeoff(0.05, mu)), 4) for mu in (0.5, 1.0, 2.0)]
    [0.8739, 0.7405, 0.3612]
    >>> gdp_tradeoff([0.0, 0.5, 1.0], 0.0)  # mu = 0 is Id
    array([1. , 0.5, 0. ])
    >>> bool(gdp_tradeoff(1e-20, 1.0) < 1.0)  # 1 - 1e-20 would round to 1
    True
    """
    a = probability_array(alpha, "alpha", closed=True)
    mu = nonnegative_scalar(mu, "mu")
    return special.ndtr(-special.ndtri(a) - mu) if mu > 0 else 1.0 - a


def gdp_slope(alpha, mu):
    """G_mu'(alpha) = -exp(mu z - mu^2/2), z = Phi^{-1}(1 - alpha).

    Parameters
    ----------
    alpha : float or array_like
        Type-I errors in [0, 1].
    mu : float
        The GDP parameter, >= 0.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        The slope of :func:`gdp_tradeoff` at `alpha`: -phi(z - mu)/phi(z), the
        ratio of the two normal densities at the threshold z of the test of
        level alpha (-inf at alpha = 0, 0 at alpha = 1 for mu > 0).

    Raises
    ------
    ValueError
        If an entry of `alpha` is not in [0, 1], or `mu` is not a finite number >= 0.

    Notes
    -----
    Source: this project's derivative of [DRS22]'s G_mu (chain rule on
    Phi(Phi^{-1}(1 - alpha) - mu)); it gives the `slope` argument of
    :func:`dpcore.audit.beta_hat_sd`.

    Examples
    --------
    At alpha = 1/2, z = 0 and the slope is -exp(-mu^2/2):

    >>> import numpy as np
    >>> from dpcore.fdp import gdp_slope
    >>> round(float(gdp_slope(0.5, 1.0)), 4), round(float(-np.exp(-0.5)), 4)
    (-0.6065, -0.6065)
    >>> np.round(gdp_slope([0.05, 0.5], 1.0), 4)
    array([-3.142 , -0.6065])
    """
    a = probability_array(alpha, "alpha", closed=True)
    mu = nonnegative_scalar(mu, "mu")
    with np.errstate(over="ignore"):
        return -np.exp(mu * -special.ndtri(a) - mu * mu / 2.0)[()]


def epsdelta_tradeoff(alpha, eps, delta=0.0):
    """f_{eps,delta}(alpha) = max(0, 1 - delta - e^eps alpha, e^{-eps}(1 - delta - alpha)).

    Parameters
    ----------
    alpha : float or array_like
        Type-I errors, in [0, 1].
    eps : float
        The privacy parameter eps, >= 0.
    delta : float, default 0
        The privacy parameter delta, in [0, 1].

    Returns
    -------
    numpy.float64 or numpy.ndarray
        f_{eps,delta}(alpha), shaped like `alpha`.

    Raises
    ------
    ValueError
        If an entry of `alpha` is not in [0, 1], `eps` is not a finite number >= 0,
        or `delta` is not a number in [0, 1].

    Notes
    -----
    Source: [DRS22] eq. (5): a mechanism is (eps, delta)-DP if and only if it is
    f_{eps,delta}-DP (also stated in the review seed 001). The seed writes the last
    term with e^{eps}; the code uses e^{-eps}, as [DRS22] does, which makes the curve
    symmetric and convex and keeps it below 1 - alpha (module notes). e^eps alpha is
    computed as exp(eps + log alpha), so large eps does not overflow.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.fdp import epsdelta_tradeoff
    >>> a = np.array([0.0, 0.1, 0.5, 0.9])
    >>> np.round(epsdelta_tradeoff(a, 1.0), 4)
    array([1.    , 0.7282, 0.1839, 0.0368])
    >>> np.round(epsdelta_tradeoff(a, 1.0, 0.05), 4)
    array([0.95  , 0.6782, 0.1655, 0.0184])
    >>> bool(np.all(epsdelta_tradeoff(a, 1.0, 0.05) <= 1 - a))
    True
    """
    a = probability_array(alpha, "alpha", closed=True)
    eps = nonnegative_scalar(eps, "eps")
    delta = probability(delta, "delta", closed=True)
    first = 1.0 - delta - _exp_times(eps, a)
    return np.maximum(0.0, np.maximum(first, np.exp(-eps) * (1.0 - delta - a)))


def _exp_times(eps: float, a: np.ndarray) -> np.ndarray:
    """e^eps * a, as exp(eps + log a): 0 at a = 0 and no overflow for large eps."""
    with np.errstate(divide="ignore", over="ignore"):
        return np.exp(eps + np.log(a))


def epsdelta_vertices(eps, delta=0.0) -> tuple[np.ndarray, np.ndarray]:
    """Vertices of the polygon f_{eps,delta}.

    They are (0, 1 - delta), its kink on the diagonal
    alpha = beta = (1 - delta)/(1 + e^eps), (1 - delta, 0) and (1, 0).

    Parameters
    ----------
    eps : float
        The privacy parameter eps, >= 0.
    delta : float, default 0
        The privacy parameter delta, in [0, 1].

    Returns
    -------
    alpha, beta : tuple of numpy.ndarray
        The four vertices' type-I errors (increasing) and type-II errors, each of
        length 4. Between them f_{eps,delta} (:func:`epsdelta_tradeoff`) is linear.

    Raises
    ------
    ValueError
        If `eps` is not a finite number >= 0, or `delta` is not a number in [0, 1].

    Notes
    -----
    Source: the curve f_{eps,delta} of [DRS22] eq. (5); its vertices are this
    project's: the two sloped pieces 1 - delta - e^eps alpha and
    e^{-eps}(1 - delta - alpha) meet at the kink, computed as
    (1 - delta) expit(-eps) so that large eps does not overflow.

    Examples
    --------
    With e^eps = 3 the kink is at alpha = beta = 1/4:

    >>> import numpy as np
    >>> from dpcore.fdp import epsdelta_tradeoff, epsdelta_vertices
    >>> a, b = epsdelta_vertices(np.log(3.0))
    >>> np.round(a, 4), np.round(b, 4)
    (array([0.  , 0.25, 1.  , 1.  ]), array([1.  , 0.25, 0.  , 0.  ]))
    >>> a, b = epsdelta_vertices(1.0, 0.1)
    >>> bool(np.allclose(epsdelta_tradeoff(a, 1.0, 0.1), b))
    True
    """
    eps = nonnegative_scalar(eps, "eps")
    delta = probability(delta, "delta", closed=True)
    kink = (1.0 - delta) * special.expit(-eps)
    return np.array([0.0, kink, 1.0 - delta, 1.0]), np.array([1.0 - delta, kink, 0.0, 0.0])


def laplace_tradeoff(alpha, eps):
    """T(Lap(0, 1), Lap(eps, 1))(alpha), in closed form.

    Rejecting for X > t: 1 - e^eps alpha for alpha < e^{-eps}/2;
    e^{-eps}/(4 alpha) for e^{-eps}/2 <= alpha <= 1/2; e^{-eps}(1 - alpha)
    above 1/2. The Laplace mechanism with scale b and sensitivity Delta has
    eps = Delta/b.

    Parameters
    ----------
    alpha : float or array_like
        Type-I errors, in [0, 1].
    eps : float
        The shift eps = Delta/b, >= 0.

    Returns
    -------
    numpy.ndarray
        The curve at `alpha`, shaped like `alpha` (a 0-d array for a number).

    Raises
    ------
    ValueError
        If an entry of `alpha` is not in [0, 1], or `eps` is not a finite number >= 0.

    Notes
    -----
    Source: [DRS22]'s trade-off function T(P, Q) for P = Lap(0, 1) and
    Q = Lap(eps, 1); the closed form is this project's derivation. The likelihood
    ratio of Q to P increases with x, so the threshold tests are the most powerful
    (Neyman-Pearson); for 0 <= t <= eps, alpha = e^{-t}/2 and
    beta = e^{t - eps}/2 = e^{-eps}/(4 alpha). The curve lies above f_{eps,0}
    (the mechanism is eps-DP) and coincides with it for alpha <= e^{-eps}/2 and
    alpha >= 1/2.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.fdp import epsdelta_tradeoff, laplace_tradeoff
    >>> np.round(laplace_tradeoff([0.1, 0.3, 0.7], 1.0), 4)
    array([0.7282, 0.3066, 0.1104])
    >>> round(float(laplace_tradeoff(laplace_tradeoff(0.3, 1.0), 1.0)), 4)  # symmetric
    0.3
    >>> a = np.linspace(0, 1, 101)
    >>> bool(np.all(laplace_tradeoff(a, 1.0) >= epsdelta_tradeoff(a, 1.0)))
    True
    """
    a = probability_array(alpha, "alpha", closed=True)
    eps = nonnegative_scalar(eps, "eps")
    corner = 0.5 * np.exp(-eps)
    low = 1.0 - _exp_times(eps, a)
    with np.errstate(divide="ignore", invalid="ignore"):  # used only where a >= corner > 0
        mid = np.exp(-eps) / (4.0 * a)
    high = np.exp(-eps) * (1.0 - a)
    return np.where(a <= corner, low, np.where(a <= 0.5, mid, high))


def laplace_slope(alpha, eps):
    """Slope of the Laplace curve :func:`laplace_tradeoff` at `alpha`.

    Parameters
    ----------
    alpha : float or array_like
        Type-I errors in [0, 1].
    eps : float
        The shift eps = Delta/b, >= 0.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        -e^eps for alpha < e^{-eps}/2, -e^{-eps}/(4 alpha^2) up to 1/2 and
        -e^{-eps} above: the derivative of each piece. The pieces' slopes agree
        at both joins, so the curve is continuously differentiable.

    Raises
    ------
    ValueError
        If an entry of `alpha` is not in [0, 1], or `eps` is not a finite number >= 0.

    Notes
    -----
    Source: this project's derivative of the closed form of :func:`laplace_tradeoff`;
    it gives the `slope` argument of :func:`dpcore.audit.beta_hat_sd`.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.fdp import laplace_slope
    >>> np.round(laplace_slope([0.1, 0.3, 0.7], 1.0), 4)
    array([-2.7183, -1.0219, -0.3679])
    """
    a = probability_array(alpha, "alpha", closed=True)
    eps = nonnegative_scalar(eps, "eps")
    corner = 0.5 * np.exp(-eps)
    with np.errstate(divide="ignore", over="ignore"):  # each piece used on its own range
        mid = -np.exp(-eps) / (4.0 * a * a)
    return np.where(a < corner, -np.exp(eps), np.where(a <= 0.5, mid, -np.exp(-eps)))[()]


# ---------------------------------------------------------------------------
# Conversions between mu-GDP and (eps, delta)-DP, Corollary 2.13
# ---------------------------------------------------------------------------


def gdp_delta(eps, mu):
    """delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Corollary 2.13).

    Vectorised over eps; the second term is computed as
    exp(eps + log Phi(...)) so that eps up to 700 neither overflows nor
    loses the difference.

    Parameters
    ----------
    eps : float or array_like
        The eps at which delta is read, finite and >= 0.
    mu : float
        The GDP parameter, >= 0.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        delta(eps) in [0, 1], shaped like `eps`: mu-GDP implies (eps, delta(eps))-DP.
        It decreases in eps, from 2 Phi(mu/2) - 1 at eps = 0; it is 0 for mu = 0.

    Raises
    ------
    ValueError
        If `eps` holds a negative or non-finite entry, or `mu` is not a finite
        number >= 0.

    Notes
    -----
    Source: [DRS22] Corollary 2.13: a mechanism is mu-GDP if and only if it is
    (eps, delta(eps))-DP for every eps >= 0. The same curve is the exact delta of the
    Gaussian mechanism with Delta/sigma = mu, [BW18] Theorem 8
    (:func:`dpcore.gaussian.gaussian_delta`). The log-space evaluation and the clip
    at 0 (against rounding) are this project's.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import stats
    >>> from dpcore.fdp import epsdelta_tradeoff, gdp_delta, gdp_tradeoff
    >>> round(float(gdp_delta(1.0, 1.0)), 4)
    0.1269
    >>> np.round(gdp_delta([0.0, 1.0, 2.0], 1.0), 4)
    array([0.3829, 0.1269, 0.0209])
    >>> round(float(2 * stats.norm.cdf(0.5) - 1), 4)  # delta(0) = 2 Phi(mu/2) - 1
    0.3829

    G_1 lies above f_{1, delta(1)}, as Corollary 2.13 says:

    >>> a = np.linspace(0, 1, 1001)
    >>> d = gdp_delta(1.0, 1.0)
    >>> bool(np.all(gdp_tradeoff(a, 1.0) >= epsdelta_tradeoff(a, 1.0, d) - 1e-12))
    True
    """
    eps = finite_array(eps, "eps", sign="nonnegative")
    mu = nonnegative_scalar(mu, "mu")
    if mu == 0:
        return np.zeros_like(eps)[()]
    first = special.ndtr(-eps / mu + mu / 2)
    second = np.exp(eps + special.log_ndtr(-eps / mu - mu / 2))
    return np.maximum(first - second, 0.0)[()]


def gdp_mu(eps, delta):
    """The largest mu whose delta(eps) is at most `delta` (inverse of gdp_delta in mu).

    delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) increases with
    mu (G_mu decreases in mu, so a larger mu is a weaker guarantee), hence
    every mu up to the root of delta(eps) = `delta` gives (eps, delta)-DP and
    none above it does. mu-GDP is the Gaussian mechanism with
    sensitivity/sigma = mu, so this is :func:`dpcore.gaussian.gaussian_mu`
    (Brent's method on log delta, in log mu). Vectorised over matching eps
    and delta.

    Parameters
    ----------
    eps : float or array_like
        The eps of the target (eps, delta)-DP, finite and >= 0.
    delta : float or array_like
        The delta of the target, strictly between 0 and 1; broadcast against `eps`.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        mu > 0, in the broadcast shape of `eps` and `delta`.

    Raises
    ------
    ValueError
        As :func:`dpcore.gaussian.gaussian_mu`: if `eps` holds a negative or
        non-finite entry, `delta` an entry not strictly between 0 and 1, or the
        shapes do not broadcast.

    Notes
    -----
    Source: the inverse in mu of [DRS22] Corollary 2.13 (see :func:`gdp_delta`); the
    root finding is this project's.

    Examples
    --------
    >>> from dpcore.fdp import gdp_delta, gdp_mu
    >>> mu = gdp_mu(1.0, 1e-5)
    >>> round(float(mu), 4)
    0.2681
    >>> print(f"{float(gdp_delta(1.0, mu)):.6g}")
    1e-05
    >>> gdp_mu([0.5, 1.0, 2.0], 1e-5).round(4)
    array([0.1422, 0.2681, 0.5016])
    """
    return gaussian.gaussian_mu(eps, delta)


def gdp_epsilon(mu, delta) -> float:
    """The smallest eps >= 0 with delta(eps) <= ``delta`` for mu-GDP (Corollary 2.13).

    delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) decreases
    from 2 Phi(mu/2) - 1 at eps = 0 to 0, so the root is unique; it is
    :func:`dpcore.gaussian.gaussian_epsilon` with sigma = 1 and sensitivity
    mu. Returns 0 when delta(0) <= delta already (and for mu = 0), and inf
    for delta = 0 and mu > 0: no finite eps gives (eps, 0)-DP.

    Parameters
    ----------
    mu : float
        The GDP parameter, >= 0.
    delta : float
        The delta at which eps is read, in [0, 1].

    Returns
    -------
    float
        The smallest eps >= 0 for which mu-GDP implies (eps, delta)-DP; 0.0 or inf
        in the cases above.

    Raises
    ------
    ValueError
        If `mu` is not a finite number >= 0, or `delta` is not a number in [0, 1].

    Notes
    -----
    Source: the inverse in eps of [DRS22] Corollary 2.13 (see :func:`gdp_delta`); the
    root finding is this project's.

    Examples
    --------
    >>> from dpcore.fdp import gdp_delta, gdp_epsilon
    >>> eps = gdp_epsilon(1.0, 1e-5)
    >>> round(eps, 4)
    4.3772
    >>> print(f"{float(gdp_delta(eps, 1.0)):.6g}")
    1e-05
    >>> gdp_epsilon(1.0, 0.0), gdp_epsilon(0.5, 0.5)
    (inf, 0.0)
    """
    mu = nonnegative_scalar(mu, "mu")
    delta = probability(delta, "delta", closed=True)
    if mu == 0 or delta == 1:
        return 0.0
    if delta == 0:
        return float("inf")
    return float(gaussian.gaussian_epsilon(delta, 1.0, mu))


# ---------------------------------------------------------------------------
# Exact curves of discrete mechanisms
# ---------------------------------------------------------------------------


def tradeoff_discrete(p, q) -> tuple[np.ndarray, np.ndarray]:
    """Vertices (alpha, beta) of the exact trade-off T(P, Q) of two discrete laws.

    Neyman-Pearson: reject the outcomes in decreasing order of the
    likelihood ratio q/p; the curve is the polygon through the resulting
    (type-I, type-II) pairs, from (0, 1) to (1, 0) (randomised tests fill the
    segments). Outcomes with equal ratio are merged.

    Parameters
    ----------
    p : array_like
        1-D probability vector: the law P of the output under D (hypothesis H0).
    q : array_like
        1-D probability vector of the same length: the law Q under D' (H1).

    Returns
    -------
    alpha, beta : tuple of numpy.ndarray
        The polygon's vertices, alpha increasing from 0 to 1 and beta decreasing
        from 1 to 0; one vertex per distinct likelihood ratio, plus (0, 1).
        Read them at any alpha with :func:`tradeoff_on_grid`.

    Raises
    ------
    ValueError
        If `p` and `q` are not 1-D arrays of the same length, or either is not a
        probability vector (an entry negative or not finite, or a sum off 1 by more
        than 1e-9).

    Notes
    -----
    Source: [DRS22]'s trade-off function T(P, Q), the smallest type-II error at each
    level; the review seed 001 notes that it is attained by the likelihood-ratio
    test (Neyman-Pearson lemma). The construction (merged ties, infinite ratios
    where p = 0, type-II errors summed from the far end so that tiny values keep
    their digits) is this project's.

    Examples
    --------
    >>> from dpcore.fdp import tradeoff_discrete
    >>> tradeoff_discrete([0.5, 0.5], [0.25, 0.75])
    (array([0. , 0.5, 1. ]), array([1.  , 0.25, 0.  ]))

    Randomised response that tells the truth with probability 3/4 has the curve
    f_{log 3, 0}, with its kink at (1/4, 1/4) (:func:`epsdelta_vertices`):

    >>> tradeoff_discrete([0.75, 0.25], [0.25, 0.75])
    (array([0.  , 0.25, 1.  ]), array([1.  , 0.25, 0.  ]))
    """
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    if p.shape != q.shape or p.ndim != 1:
        raise ArgumentError("`{name_a}` and `{name_b}` must be 1-D arrays of the same length.",
                            name_a="p", name_b="q")
    for name, v in (("p", p), ("q", q)):
        if np.any(~np.isfinite(v)) or np.any(v < 0) or abs(v.sum() - 1) > 1e-9:
            raise ArgumentError("`{name}` must be a probability vector.", name=name)
    keep = (p > 0) | (q > 0)
    p, q = p[keep], q[keep]
    # log-ratio with +inf where p = 0, sorted decreasingly (stable for ties)
    with np.errstate(divide="ignore"):
        log_ratio = np.log(q) - np.log(p)
    order = np.argsort(-log_ratio, kind="stable")
    lr, p, q = log_ratio[order], p[order], q[order]
    # merge equal ratios into one step (compared directly: inf - inf would be NaN)
    groups = np.r_[0, np.flatnonzero(lr[1:] != lr[:-1]) + 1]
    gp, gq = np.add.reduceat(p, groups), np.add.reduceat(q, groups)
    alpha = np.r_[0.0, np.cumsum(gp)]
    # beta = Q-mass not yet rejected, summed from the far end so that tiny type-II
    # errors keep their digits instead of rounding 1 - (1 - tiny) to 0
    beta = np.r_[np.cumsum(gq[::-1])[::-1], 0.0]
    alpha[-1], beta[0] = 1.0, 1.0
    return np.clip(alpha, 0, 1), np.clip(beta, 0, 1)


def tradeoff_on_grid(alpha_vertices, beta_vertices, alpha):
    """Evaluate a polygonal trade-off curve (vertices sorted by alpha) at `alpha`.

    Parameters
    ----------
    alpha_vertices : array_like
        The vertices' type-I errors, increasing (as :func:`tradeoff_discrete`,
        :func:`krr_tradeoff` or :func:`epsdelta_vertices` return them). Not checked.
    beta_vertices : array_like
        The vertices' type-II errors, same length. Not checked.
    alpha : float or array_like
        Type-I errors at which the curve is read, in [0, 1].

    Returns
    -------
    numpy.float64 or numpy.ndarray
        The curve at `alpha`, shaped like `alpha`: linear between vertices
        (``numpy.interp``).

    Raises
    ------
    ValueError
        If an entry of `alpha` is not in [0, 1].

    Notes
    -----
    Source: this project's. Linear interpolation is exact for the polygon: a point
    between two vertices is reached by randomising between their two tests, so it is
    on [DRS22]'s T(P, Q) of a discrete pair.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.fdp import tradeoff_on_grid
    >>> np.round(tradeoff_on_grid([0.0, 0.25, 1.0], [1.0, 0.25, 0.0], [0.1, 0.5]), 4)
    array([0.7   , 0.1667])
    """
    a = probability_array(alpha, "alpha", closed=True)
    return np.interp(a, alpha_vertices, beta_vertices)


def krr_tradeoff(eps, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact trade-off between two rows of the k-ary randomised response channel.

    Row v reports v with probability p = e^eps/(e^eps + k - 1) and each
    other value with q = 1/(e^eps + k - 1). Random substitution with a
    gamma-diagonal matrix over N categories is the same channel with
    e^eps = gamma and k = N.

    Parameters
    ----------
    eps : float
        k-RR's eps, >= 0.
    k : int
        The number of categories, 2 to 1,000,000.

    Returns
    -------
    alpha, beta : tuple of numpy.ndarray
        The vertices of the polygon T(row v, row v') (:func:`tradeoff_discrete`),
        from (0, 1) to (1, 0): for eps > 0, four vertices for k >= 3 and three for
        k = 2 (where the curve is f_{eps,0}); at eps = 0 the two ends of Id.

    Raises
    ------
    ValueError
        If `eps` is not a finite number >= 0, or `k` is not an integer from 2 to
        1,000,000.

    Notes
    -----
    Source: k-RR and its p and q are [KBR16]'s; the gamma-diagonal matrix is
    [KLH09] eq. (1). The exact curve is this project's computation of [DRS22]'s
    T(P, Q) for two rows: only the outcomes v, v' and "any other" (likelihood ratio
    1, merged) matter.

    Examples
    --------
    With e^eps = 2 and k = 3, p = 1/2 and q = 1/4; the curve is exactly
    log 2-DP:

    >>> import numpy as np
    >>> from dpcore.fdp import krr_tradeoff, tightest_epsilon
    >>> a, b = krr_tradeoff(np.log(2.0), 3)
    >>> np.round(a, 4), np.round(b, 4)
    (array([0.  , 0.25, 0.5 , 1.  ]), array([1.  , 0.5 , 0.25, 0.  ]))
    >>> round(tightest_epsilon(a, b), 4)
    0.6931
    """
    eps = nonnegative_scalar(eps, "eps")
    k = category_count(k, "k", maximum=10**6)
    # Only three outcomes matter: v, v' and the k - 2 others (ratio 1), merged.
    # p = 1/(1 + (k-1)e^{-eps}) and q = e^{-eps} p, without overflow or cancellation.
    t = np.exp(-eps)
    p = 1.0 / (1.0 + (k - 1) * t)
    q = t * p
    row0 = np.array([p, q, (k - 2) * q])
    row1 = np.array([q, p, (k - 2) * q])
    return tradeoff_discrete(row0, row1)


def composition_epsdp(eps, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact trade-off of the n-fold composition of eps-DP, f_{eps,0}^{(x) n}.

    f_{eps,0} is the trade-off of randomised response with
    q = 1/(1 + e^eps), so its n-fold product is that of
    Binomial(n, q) against Binomial(n, 1 - q) (Dong et al., section 3).

    Parameters
    ----------
    eps : float
        The eps of each mechanism, >= 0.
    n : int
        The number of mechanisms composed, 1 to 10,000.

    Returns
    -------
    alpha, beta : tuple of numpy.ndarray
        The vertices of the polygon (:func:`tradeoff_discrete`), from (0, 1) to
        (1, 0): n + 2 of them for eps > 0 (fewer when binomial probabilities
        underflow to 0, for eps of a hundred or more).

    Raises
    ------
    ValueError
        If `eps` is not a finite number >= 0, or `n` is not an integer from 1 to
        10,000.

    Notes
    -----
    Source: composition of trade-off functions as [DRS22] section 3 defines it (the
    trade-off of the product laws). The binomial laws are those of the count of
    one of the two responses, a sufficient statistic; the polygon is computed by
    this project (:func:`tradeoff_discrete`). The composition is itself exactly
    (n eps)-DP and no better, and close to G_mu with mu from :func:`clt_mu`.

    Examples
    --------
    >>> from dpcore.fdp import clt_mu, composition_epsdp, tightest_epsilon, tightest_gdp_mu
    >>> a, b = composition_epsdp(0.3, 20)
    >>> a.size
    22
    >>> round(tightest_epsilon(a, b), 4)
    6.0
    >>> round(tightest_gdp_mu(a, b), 4), round(clt_mu(0.3, 20), 4)
    (1.3557, 1.3317)
    """
    eps = nonnegative_scalar(eps, "eps")
    n = positive_integer(n, "n", maximum=10_000)
    q = special.expit(-eps)
    ks = np.arange(n + 1)
    return tradeoff_discrete(stats.binom.pmf(ks, n, q), stats.binom.pmf(ks, n, 1 - q))


def clt_mu(eps, n: int) -> float:
    """mu of the Gaussian approximation G_mu to f_{eps,0}^{(x) n} (Theorem 3.5).

    With kl(f_{eps,0}) = eps tanh(eps/2) and kappa_2 = eps^2 the theorem
    gives mu = 2 K / s = 2 sqrt(n) tanh(eps/2) (about sqrt(n) eps for small eps).

    Parameters
    ----------
    eps : float
        The eps of each mechanism, >= 0.
    n : int
        The number of mechanisms composed, >= 1.

    Returns
    -------
    float
        2 sqrt(n) tanh(eps/2).

    Raises
    ------
    ValueError
        If `eps` is not a finite number >= 0, or `n` is not a positive integer.

    Notes
    -----
    Source: [DRS22] Theorem 3.5, the central limit theorem for composition: if
    sum_i kl(f_i) -> K and sum_i kappa_2(f_i) -> s^2 (with max_i kl(f_i) and
    sum_i kappa_3(f_i) -> 0), the composition tends to G_{2K/s}. The values of
    kl = -int log|f'| and kappa_2 = int log^2|f'| for f_{eps,0} (with |f'| = e^eps
    on [0, q] and e^{-eps} on [q, 1], q = 1/(1 + e^eps)) are this project's. The
    theorem is a limit: at a fixed n the result is an approximation, not a privacy
    guarantee; :func:`composition_epsdp` gives the exact curve.

    Examples
    --------
    >>> from dpcore.fdp import clt_mu, composition_epsdp, curve_at, gdp_tradeoff
    >>> mu = clt_mu(0.3, 20)
    >>> round(mu, 4)
    1.3317
    >>> a, b = composition_epsdp(0.3, 20)
    >>> round(float(curve_at(a, b, 0.05)), 4), round(float(gdp_tradeoff(0.05, mu)), 4)
    (0.6268, 0.6229)
    """
    eps = nonnegative_scalar(eps, "eps")
    n = positive_integer(n, "n")
    return float(2.0 * np.sqrt(n) * np.tanh(eps / 2.0))


def laplace_histogram_tradeoff(alpha, level, *, grid: int = 4001):
    """Trade-off of the histogram mechanism X = max(0, C + Lap(2/level)), eq. (2.4).

    Neighbouring histograms differ by one person moving between two bins
    (one count -1, another +1), the relation under which Lap(2/level) noise
    gives level-DP. Only the two changed bins carry information, each a
    Laplace shift of 1 with scale b = 2/level, so the curve is the product
    T(Lap(0,b), Lap(1,b)) (x) T(Lap(0,b), Lap(1,b)). The truncation at 0 is
    post-processing: it cannot lower the curve, and for counts far from 0
    (the worst case over data sets) it does not change it, so this is the
    mechanism's exact trade-off.

    Computed from the privacy-loss distribution: the log-likelihood ratio of
    one bin takes values in [-1/b, 1/b] with atoms at both ends; it is
    discretised on `grid` points, convolved with itself, and Q-probabilities
    follow exactly from dQ = e^L dP. The result is accurate to about the
    grid step (1/b)/grid in eps terms; :func:`laplace_histogram_errors` gives
    the same curve in closed form, parametrised by the threshold of L.

    Parameters
    ----------
    alpha : float or array_like
        Type-I errors, in [0, 1].
    level : float
        The histogram's privacy level (the eps of its noise Lap(2/level); [SPJ22]
        writes it alpha), > 0.
    grid : int, default 4001
        Keyword-only: the number of grid points of one bin's privacy loss. Not
        checked (it needs at least 2).

    Returns
    -------
    numpy.float64 or numpy.ndarray
        The curve at `alpha`, shaped like `alpha`.

    Raises
    ------
    ValueError
        If an entry of `alpha` is not in [0, 1], or `level` is not a finite number > 0.

    Notes
    -----
    Source: the mechanism is [SPJ22] eq. (2.4). Its trade-off curve goes beyond
    [SPJ22]: it is this project's analysis with [DRS22]'s trade-off functions, the
    two bins' curves combined by composition ([DRS22] section 3) and the truncation
    treated as post-processing (also in the review seed 001).

    Examples
    --------
    The discretised curve agrees with the closed form to 4 digits:

    >>> import numpy as np
    >>> from dpcore.fdp import curve_at, laplace_histogram_errors, laplace_histogram_tradeoff
    >>> np.round(laplace_histogram_tradeoff([0.05, 0.5], 1.0), 4)
    array([0.8641, 0.2582])
    >>> a, b = laplace_histogram_errors(np.linspace(-1.0, 1.0, 2001), 1.0)
    >>> np.round(curve_at(a, b, [0.05, 0.5]), 4)
    array([0.8641, 0.2582])
    """
    a = probability_array(alpha, "alpha", closed=True)
    level = positive_scalar(level, "level")
    b = 2.0 / level
    eps1 = 1.0 / b
    # Distribution of L = (|x| - |x - 1|)/b under P: X ~ Lap(0, b).
    edges = np.linspace(-eps1, eps1, grid)
    xs = (edges * b + 1.0) / 2.0  # L = (2x - 1)/b on 0 < x < 1
    cdf = stats.laplace.cdf(xs, scale=b)
    mass = np.diff(cdf)  # continuous part between grid points, put at midpoints
    values = np.r_[-eps1, 0.5 * (edges[:-1] + edges[1:]), eps1]
    pmf = np.r_[stats.laplace.cdf(0.0, scale=b), mass, stats.laplace.sf(1.0, scale=b)]
    pmf = pmf / pmf.sum()
    # Two independent bins: convolve on the uniform grid of step h.
    h = edges[1] - edges[0]
    idx = np.rint((values + eps1) / h).astype(int)
    single = np.zeros(grid)
    np.add.at(single, idx, pmf)
    total = np.convolve(single, single)
    l_values = -2 * eps1 + h * np.arange(total.size)
    keep = total > 0
    p_l = total[keep] / total[keep].sum()
    q_l = p_l * np.exp(l_values[keep])
    q_l = q_l / q_l.sum()
    av, bv = tradeoff_discrete(p_l, q_l)
    return np.interp(a, av, bv)


# ---------------------------------------------------------------------------
# Group privacy, Theorem 2.14
# ---------------------------------------------------------------------------


def group_tradeoff(f, k: int, alpha):
    """1 - (1 - f)^{o k}(alpha): the curve for groups of k of an f-DP mechanism.

    (1 - f)^{o k} is the k-fold composition of the map x -> 1 - f(x) with
    itself (Theorem 2.14). For f = G_mu it gives G_{k mu}.

    Parameters
    ----------
    f : callable
        A trade-off function, vectorised: maps an array of type-I errors in [0, 1]
        to type-II errors (e.g. ``lambda x: gdp_tradeoff(x, 0.5)``).
    k : int
        The group size, 1 to 10,000.
    alpha : float or array_like
        Type-I errors, in [0, 1].

    Returns
    -------
    numpy.float64 or numpy.ndarray
        1 - (1 - f)^{o k}(alpha), shaped like `alpha`; f itself for k = 1.

    Raises
    ------
    ValueError
        If `f` is not callable, `k` is not an integer from 1 to 10,000, or an entry
        of `alpha` is not in [0, 1].

    Notes
    -----
    Source: [DRS22] Theorem 2.14 (also in the review seed 001): an f-DP mechanism
    is [1 - (1 - f)^{o k}]-DP for groups of k, and a mu-GDP mechanism is k mu-GDP.
    Clipping each step to [0, 1] is this project's guard against rounding.

    Examples
    --------
    For G_0.5 and groups of 3 the curve is G_1.5:

    >>> import numpy as np
    >>> from dpcore.fdp import gdp_tradeoff, group_tradeoff
    >>> np.round(group_tradeoff(lambda x: gdp_tradeoff(x, 0.5), 3, [0.05, 0.5]), 4)
    array([0.5576, 0.0668])
    >>> np.round(gdp_tradeoff([0.05, 0.5], 1.5), 4)
    array([0.5576, 0.0668])
    """
    if not callable(f):
        raise ArgumentError("`{name}` must be a callable trade-off function.", name="f")
    k = positive_integer(k, "k", maximum=10_000)
    x = probability_array(alpha, "alpha", closed=True).astype(float)
    for _ in range(k):
        x = np.clip(1.0 - np.asarray(f(x), dtype=float), 0.0, 1.0)
    return 1.0 - x


# ---------------------------------------------------------------------------
# Reading privacy parameters off a curve
# ---------------------------------------------------------------------------


def _curve_points(alpha, beta) -> tuple[np.ndarray, np.ndarray]:
    a = probability_array(alpha, "alpha", closed=True).ravel()
    b = probability_array(beta, "beta", closed=True).ravel()
    if a.shape != b.shape:
        raise ArgumentError("`{name_a}` and `{name_b}` must have the same length.",
                            name_a="alpha", name_b="beta")
    return a, b


def tightest_gdp_mu(alpha, beta) -> float:
    """The smallest mu with beta >= G_mu(alpha) at every point of a curve.

    At a point, G_mu(alpha) = beta for mu = Phi^{-1}(1 - alpha) - Phi^{-1}(beta);
    the curve is mu-GDP for mu at least the largest of these. For a polygon
    given by its vertices this is exact (G_mu is convex, so it lies below
    every chord); for a smooth curve it is exact on the points given.
    Returns inf when no mu works (e.g. beta = 0 at some alpha < 1).

    Parameters
    ----------
    alpha : array_like
        Type-I errors of the curve's points, in [0, 1].
    beta : array_like
        Type-II errors of the same points, in [0, 1], same length.

    Returns
    -------
    float
        The smallest mu >= 0 (0.0 when no point has alpha < 1 and beta < 1), or inf.

    Raises
    ------
    ValueError
        If an entry of `alpha` or `beta` is not in [0, 1], or their lengths differ.

    Notes
    -----
    Source: this project's reading of [DRS22]'s mu-GDP (the curve must lie on or
    above G_mu) off a curve given by points.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.fdp import epsdelta_gdp_mu, epsdelta_vertices, gdp_tradeoff, tightest_gdp_mu
    >>> a = np.linspace(0, 1, 1001)
    >>> round(tightest_gdp_mu(a, gdp_tradeoff(a, 1.2)), 4)
    1.2
    >>> round(tightest_gdp_mu(*epsdelta_vertices(1.0)), 4), round(epsdelta_gdp_mu(1.0), 4)
    (1.232, 1.232)
    """
    a, b = _curve_points(alpha, beta)
    inner = (a < 1) & (b < 1)  # points with alpha = 1 or beta = 1 constrain nothing
    if not np.any(inner):
        return 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        # Phi^{-1}(1 - a) written as -Phi^{-1}(a): keeps its digits for tiny a
        mus = -special.ndtri(a[inner]) - special.ndtri(b[inner])
    mus = np.where(np.isnan(mus), np.inf, mus)
    return float(max(0.0, np.max(mus)))


def tightest_epsilon(alpha, beta, delta=0.0) -> float:
    """The smallest eps with beta >= f_{eps,delta}(alpha) at every point of a curve.

    Needs e^eps >= (1 - delta - beta)/alpha and e^eps >= (1 - delta - alpha)/beta
    wherever the numerators are positive; exact for polygons given by their
    vertices (f_{eps,delta} is convex). Returns inf when no eps works.

    Parameters
    ----------
    alpha : array_like
        Type-I errors of the curve's points, in [0, 1].
    beta : array_like
        Type-II errors of the same points, in [0, 1], same length.
    delta : float, default 0
        The delta at which eps is read, in [0, 1].

    Returns
    -------
    float
        The smallest eps >= 0 for which the points are (eps, delta)-DP, or inf.

    Raises
    ------
    ValueError
        If an entry of `alpha` or `beta` is not in [0, 1], their lengths differ, or
        `delta` is not a number in [0, 1].

    Notes
    -----
    Source: this project's reading of [DRS22]'s f_{eps,delta} (eq. (5)) off a curve
    given by points: the curve is (eps, delta)-DP when it lies on or above
    f_{eps,delta}.

    Examples
    --------
    >>> from dpcore.fdp import epsdelta_epsilon, epsdelta_vertices, tightest_epsilon
    >>> a, b = epsdelta_vertices(1.0)
    >>> round(tightest_epsilon(a, b), 4)
    1.0
    >>> round(tightest_epsilon(a, b, 0.1), 4), round(epsdelta_epsilon(1.0, 0.0, 0.1), 4)
    (0.8529, 0.8529)
    """
    a, b = _curve_points(alpha, beta)
    delta = probability(delta, "delta", closed=True)
    need = [0.0]
    with np.errstate(divide="ignore", invalid="ignore"):
        for num, den in ((1 - delta - b, a), (1 - delta - a, b)):
            mask = num > 1e-15
            if np.any(mask & (den <= 0)):
                return float("inf")
            ratio = num[mask] / den[mask]
            if ratio.size:
                need.append(float(np.log(np.max(ratio))))
    return max(need)


def empirical_tradeoff(samples0, samples1) -> tuple[np.ndarray, np.ndarray]:
    """Empirical trade-off curve from outputs on two neighbouring inputs.

    Integer-valued outputs with at most 1,000 distinct values (e.g. k-RR
    reports) use their empirical distributions and the exact discrete
    Neyman-Pearson polygon; other outputs use the tests "reject when the
    output exceeds t" over all thresholds t (optimal when the likelihood
    ratio increases with the output, as for Gaussian and Laplace noise).
    Returns the (alpha, beta) points, from (0, 1) to (1, 0).

    Parameters
    ----------
    samples0 : array_like
        Outputs of the mechanism on D (hypothesis H0), any shape (flattened).
    samples1 : array_like
        Outputs on the neighbour D' (H1), any shape; the sizes may differ.

    Returns
    -------
    alpha, beta : tuple of numpy.ndarray
        The points of the empirical curve, alpha increasing from 0 to 1: the
        vertices of :func:`tradeoff_discrete` for integer outputs, otherwise one
        point per distinct pooled output plus (1, 0). Read it with :func:`curve_at`.

    Raises
    ------
    ValueError
        If `samples0` or `samples1` is empty or holds a non-finite value.

    Notes
    -----
    Source: this project's estimator of [DRS22]'s T(P, Q) from samples (the
    auditor of the f-DP page). For continuous outputs whose likelihood ratio does
    not increase, it is the curve of the threshold tests, not an estimate of
    T(P, Q).

    Examples
    --------
    >>> from dpcore.fdp import curve_at, empirical_tradeoff, gdp_tradeoff
    >>> empirical_tradeoff([0, 0, 1, 1], [0, 1, 1, 1])
    (array([0. , 0.5, 1. ]), array([1.  , 0.25, 0.  ]))

    An audit of the Gaussian mechanism with sigma = sensitivity (1-GDP):

    >>> from dpcore.audit import audit_samples
    >>> x0, x1 = audit_samples("gaussian", {"sigma": 1.0}, 20_000, rng=1)
    >>> a, b = empirical_tradeoff(x0, x1)
    >>> round(float(curve_at(a, b, 0.05)), 2), round(float(gdp_tradeoff(0.05, 1.0)), 2)
    (0.74, 0.74)
    """
    s0 = np.asarray(samples0, dtype=float).ravel()
    s1 = np.asarray(samples1, dtype=float).ravel()
    if s0.size == 0 or s1.size == 0:
        raise ArgumentError("`{name_a}` and `{name_b}` must not be empty.",
                            name_a="samples0", name_b="samples1")
    if np.any(~np.isfinite(s0)) or np.any(~np.isfinite(s1)):
        raise ArgumentError("samples must be finite numbers.")
    pooled = np.unique(np.r_[s0, s1])
    if pooled.size <= 1000 and np.all(pooled == np.round(pooled)):
        p = np.searchsorted(pooled, s0)
        q = np.searchsorted(pooled, s1)
        pp = np.bincount(p, minlength=pooled.size) / s0.size
        qq = np.bincount(q, minlength=pooled.size) / s1.size
        return tradeoff_discrete(pp, qq)
    s0, s1 = np.sort(s0), np.sort(s1)
    # threshold t = each pooled value: alpha = P0(X > t), beta = P1(X <= t)
    alpha = 1.0 - np.searchsorted(s0, pooled, side="right") / s0.size
    beta = np.searchsorted(s1, pooled, side="right") / s1.size
    # increasing t gives decreasing alpha: reverse, and add "reject everything" (1, 0)
    return np.r_[alpha[::-1], 1.0], np.r_[beta[::-1], 0.0]


def curve_at(alpha_points, beta_points, at):
    """Read a curve given as (alpha, beta) points at the type-I errors ``at``.

    Where several points share an alpha the smallest beta counts (the best
    test of that level); between points the curve is linear (randomising
    between the two neighbouring tests).

    Parameters
    ----------
    alpha_points : array_like
        Type-I errors of the points, in [0, 1], in any order.
    beta_points : array_like
        Type-II errors of the same points, in [0, 1], same length.
    at : float or array_like
        Type-I errors at which the curve is read, in [0, 1].

    Returns
    -------
    numpy.float64 or numpy.ndarray
        The curve at `at`, shaped like `at`.

    Raises
    ------
    ValueError
        If an entry of `alpha_points`, `beta_points` or `at` is not in [0, 1], or the
        two point arrays differ in length.

    Notes
    -----
    Source: this project's (used to read empirical and exact polygons of
    [DRS22]-style trade-off curves at given levels).

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.fdp import curve_at
    >>> np.round(curve_at([0.0, 0.5, 0.5, 1.0], [1.0, 0.4, 0.3, 0.0], [0.25, 0.5]), 4)
    array([0.65, 0.3 ])
    """
    a, b = _curve_points(alpha_points, beta_points)
    order = np.argsort(a, kind="stable")
    sa, sb = a[order], b[order]
    ua, first = np.unique(sa, return_index=True)
    return np.interp(probability_array(at, "at", closed=True), ua, np.minimum.reduceat(sb, first))


def below_target(alpha, beta, target, *, vertices=None, tol: float = 1e-9):
    """Where a curve dips below a target trade-off function.

    Returns (fails, below): ``below`` marks the points of (alpha, beta) with
    beta < target(alpha) - tol; ``fails`` is True if any does, or, for a
    polygon, if any of its ``vertices`` (alpha, beta) does (a polygon can dip
    below a convex target between grid points only at a vertex).

    Parameters
    ----------
    alpha : array_like
        Type-I errors of the curve's points, in [0, 1].
    beta : array_like
        Type-II errors of the same points, in [0, 1], same length.
    target : callable
        The target trade-off function, vectorised (e.g.
        ``lambda x: gdp_tradeoff(x, 1.0)``).
    vertices : tuple of two array_like, optional
        Keyword-only: the (alpha, beta) vertices of the curve when it is a polygon;
        None (default) checks the points only.
    tol : float, default 1e-9
        Keyword-only: the tolerance below the target before a point counts.

    Returns
    -------
    fails : bool
        True if a point or a vertex lies below the target.
    below : numpy.ndarray of bool
        One flag per point of (`alpha`, `beta`) (flattened).

    Raises
    ------
    ValueError
        If `target` is not callable, or `alpha`, `beta` or the `vertices` arrays hold
        entries outside [0, 1] or differ in length.

    Notes
    -----
    Source: this project's check of [DRS22]'s f-DP condition, T >= f pointwise,
    for f = `target`.

    Examples
    --------
    The Laplace curve with eps = 1 is mu-GDP for mu = 1.0301
    (:func:`laplace_gdp_mu`), not for mu = 1:

    >>> import numpy as np
    >>> from dpcore.fdp import below_target, gdp_tradeoff, laplace_gdp_mu, laplace_tradeoff
    >>> a = np.linspace(0, 1, 1001)
    >>> fails, below = below_target(a, laplace_tradeoff(a, 1.0), lambda x: gdp_tradeoff(x, 1.0))
    >>> fails, int(below.sum())
    (True, 152)
    >>> mu = laplace_gdp_mu(1.0)
    >>> below_target(a, laplace_tradeoff(a, 1.0), lambda x: gdp_tradeoff(x, mu))[0]
    False

    A polygon checked on a coarse grid needs its vertices:

    >>> from dpcore.fdp import epsdelta_tradeoff, krr_tradeoff, tradeoff_on_grid
    >>> va, vb = krr_tradeoff(1.0, 2)
    >>> grid = np.array([0.0, 1.0])
    >>> curve = tradeoff_on_grid(va, vb, grid)
    >>> below_target(grid, curve, lambda x: epsdelta_tradeoff(x, 0.9))[0]
    False
    >>> below_target(grid, curve, lambda x: epsdelta_tradeoff(x, 0.9), vertices=(va, vb))[0]
    True
    """
    if not callable(target):
        raise ArgumentError("`{name}` must be a callable trade-off function.", name="target")
    a, b = _curve_points(alpha, beta)
    below = b < np.asarray(target(a)) - tol
    fails = bool(np.any(below))
    if vertices is not None:
        va, vb = _curve_points(*vertices)
        fails = fails or bool(np.any(vb < np.asarray(target(va)) - tol))
    return fails, below



# ---------------------------------------------------------------------------
# Exact tightest mu and smallest eps of the named curves
# ---------------------------------------------------------------------------
# tightest mu = sup_alpha [Phi^{-1}(1 - alpha) - Phi^{-1}(f(alpha))] and smallest eps at
# delta = the root of delta_f(eps) = delta, where delta_f(eps) = sup_alpha
# [1 - f(alpha) - e^eps alpha] (for the symmetric curves here the mirrored condition
# 1 - alpha - e^eps f(alpha) <= delta gives the same supremum).


def laplace_gdp_mu(eps) -> float:
    """Tightest mu of the Laplace curve: 2 Phi^{-1}(1 - e^{-eps/2}/2).

    Parameters
    ----------
    eps : float
        eps = Delta/b of T(Lap(0, 1), Lap(eps, 1)) (:func:`laplace_tradeoff`), >= 0.

    Returns
    -------
    float
        The smallest mu with the curve >= G_mu, computed as
        -2 Phi^{-1}(e^{-eps/2}/2) from the small tail, so that eps = 50 keeps
        full precision.

    Raises
    ------
    ValueError
        If `eps` is not a finite number >= 0.

    Notes
    -----
    The curve is linear for alpha < e^{-eps}/2 and alpha > 1/2 and equals
    c/alpha, c = e^{-eps}/4, in between. G_mu is convex, so on the linear
    pieces only their ends matter, and (0, 1) lies on every G_mu. On the
    middle piece, with u = log alpha, the bound is
    h(u) = -Phi^{-1}(e^u) - Phi^{-1}(c e^{-u}). The map z -> log Phi(z) is
    concave and increasing, so its inverse u -> Phi^{-1}(e^u) is convex: h is
    concave and symmetric about u = (log c)/2, and its maximum is at
    alpha = beta = sqrt(c) = e^{-eps/2}/2.

    Source: this project's derivation (above), for [DRS22]'s G_mu and the Laplace
    curve; the references do not give this formula.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.fdp import laplace_gdp_mu, laplace_tradeoff, tightest_gdp_mu
    >>> round(laplace_gdp_mu(1.0), 4)
    1.0301
    >>> a = np.linspace(0, 1, 100_001)
    >>> round(tightest_gdp_mu(a, laplace_tradeoff(a, 1.0)), 4)
    1.0301
    >>> round(laplace_gdp_mu(50.0), 4)
    13.5181
    """
    eps = nonnegative_scalar(eps, "eps")
    return float(-2.0 * special.ndtri(0.5 * np.exp(-eps / 2.0)))


def laplace_delta(eps, eps0):
    """delta(eps) of the Laplace curve with parameter eps0: 1 - e^{(eps - eps0)/2}, 0 beyond eps0.

    Parameters
    ----------
    eps : float or array_like
        The eps at which delta is read, >= 0.
    eps0 : float
        The curve's parameter (:func:`laplace_tradeoff` (alpha, eps0)), >= 0.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        sup_alpha [1 - f(alpha) - e^eps alpha], shaped like `eps`.

    Raises
    ------
    ValueError
        If `eps` holds a negative or non-finite entry, or `eps0` is not a finite
        number >= 0.

    Notes
    -----
    For 0 <= eps <= eps0 the slope -e^{-eps0}/(4 alpha^2) of the middle piece
    equals -e^eps at alpha = e^{-(eps0 + eps)/2}/2, where
    1 - f(alpha) - e^eps alpha = 1 - e^{(eps - eps0)/2}; for eps >= eps0 the
    supremum is 0, at alpha = 0.

    Source: this project's derivation (above). The supremum is the smallest delta
    with f >= f_{eps,delta} ([DRS22] eq. (5)): for a symmetric curve the mirrored
    condition 1 - alpha - e^eps f(alpha) <= delta gives the same supremum.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.fdp import laplace_delta
    >>> np.round(laplace_delta([0.0, 0.5, 1.0, 2.0], 1.0), 4)
    array([0.3935, 0.2212, 0.    , 0.    ])
    """
    eps = finite_array(eps, "eps", sign="nonnegative")
    eps0 = nonnegative_scalar(eps0, "eps0")
    return np.maximum(-np.expm1(np.minimum(eps - eps0, 0.0) / 2.0), 0.0)[()]


def laplace_epsilon(eps, delta) -> float:
    """Smallest eps' with T(Lap(0, 1), Lap(eps, 1)) >= f_{eps',delta}.

    Parameters
    ----------
    eps : float
        The Laplace curve's parameter Delta/b, >= 0.
    delta : float
        The delta at which eps' is read, in [0, 1].

    Returns
    -------
    float
        max(0, eps + 2 log(1 - delta)), the root of :func:`laplace_delta`
        (eps', eps) = delta; eps itself at delta = 0 (the Laplace mechanism is
        eps-DP and no better), 0 at delta = 1.

    Raises
    ------
    ValueError
        If `eps` is not a finite number >= 0, or `delta` is not a number in [0, 1].

    Notes
    -----
    Source: this project's, the inverse of :func:`laplace_delta` in eps.

    Examples
    --------
    >>> from dpcore.fdp import laplace_delta, laplace_epsilon
    >>> laplace_epsilon(1.0, 0.0)
    1.0
    >>> e = laplace_epsilon(1.0, 0.1)
    >>> round(e, 4), round(float(laplace_delta(e, 1.0)), 4)
    (0.7893, 0.1)
    """
    eps = nonnegative_scalar(eps, "eps")
    delta = probability(delta, "delta", closed=True)
    if delta == 1:
        return 0.0
    return max(0.0, eps + 2.0 * float(np.log1p(-delta)))


def epsdelta_gdp_mu(eps, delta=0.0) -> float:
    """Tightest mu of f_{eps,delta}: -2 Phi^{-1}(1/(1 + e^eps)) at delta = 0, inf for delta > 0.

    Parameters
    ----------
    eps : float
        The curve's eps, >= 0.
    delta : float, default 0
        The curve's delta, in [0, 1].

    Returns
    -------
    float
        2 Phi^{-1}(e^eps/(1 + e^eps)), computed from the small tail
        1/(1 + e^eps); inf when delta > 0.

    Raises
    ------
    ValueError
        If `eps` is not a finite number >= 0, or `delta` is not a number in [0, 1].

    Notes
    -----
    f_{eps,0} is the polygon (0, 1), (k, k), (1, 0) with k = 1/(1 + e^eps).
    G_mu is convex and passes through (0, 1) and (1, 0), so only the kink
    binds: mu = Phi^{-1}(1 - k) - Phi^{-1}(k) = -2 Phi^{-1}(k). For delta > 0
    the curve starts at 1 - delta < 1 = G_mu(0), so no mu works.

    Source: this project's derivation (above), for [DRS22]'s f_{eps,delta} and G_mu.

    Examples
    --------
    >>> from dpcore.fdp import epsdelta_gdp_mu
    >>> round(epsdelta_gdp_mu(1.0), 4)
    1.232
    >>> epsdelta_gdp_mu(1.0, 1e-6)
    inf
    """
    eps = nonnegative_scalar(eps, "eps")
    delta = probability(delta, "delta", closed=True)
    if delta > 0:
        return float("inf")
    return float(-2.0 * special.ndtri(special.expit(-eps)))


def epsdelta_epsilon(eps, delta, at_delta) -> float:
    """Smallest eps' with f_{eps,delta} >= f_{eps',at_delta}.

    Parameters
    ----------
    eps : float
        The curve f_{eps,delta}'s eps, >= 0.
    delta : float
        The curve's delta, in [0, 1].
    at_delta : float
        The delta at which eps' is read, in [0, 1].

    Returns
    -------
    float
        max(0, log(r (1 + e^eps) - 1)) with r = (1 - at_delta)/(1 - delta),
        written as eps + log r + log(1 - (1/r - 1) e^{-eps}) so that large eps
        does not overflow; eps itself when at_delta = delta, inf when
        at_delta < delta (the curve starts below 1 - at_delta).

    Raises
    ------
    ValueError
        If `eps` is not a finite number >= 0, or `delta` or `at_delta` is not a
        number in [0, 1].

    Notes
    -----
    On the vertices (0, 1 - delta), (k, k), (1 - delta, 0) of f_{eps,delta},
    k = (1 - delta)/(1 + e^eps), sup_alpha [1 - f(alpha) - e^{eps'} alpha] is
    max(delta, 1 - k (1 + e^{eps'})) (the last vertex gives at most delta), so
    the curve is (eps', at_delta)-DP iff at_delta >= delta and
    e^{eps'} >= r (1 + e^eps) - 1.

    Source: this project's derivation (above), for [DRS22]'s f_{eps,delta}.

    Examples
    --------
    >>> from dpcore.fdp import epsdelta_epsilon
    >>> epsdelta_epsilon(1.0, 0.0, 0.0), epsdelta_epsilon(1.0, 0.1, 0.0)
    (1.0, inf)
    >>> round(epsdelta_epsilon(1.0, 0.0, 0.1), 4)
    0.8529
    """
    eps = nonnegative_scalar(eps, "eps")
    delta = probability(delta, "delta", closed=True)
    at_delta = probability(at_delta, "at_delta", closed=True)
    if at_delta < delta:
        return float("inf")
    if at_delta == 1:
        return 0.0
    log_r = float(np.log1p(-at_delta) - np.log1p(-delta))
    inner = -np.expm1(-log_r) * np.exp(-eps)  # (1 - 1/r) e^{-eps} <= 0
    if inner <= -1.0:
        return 0.0
    return max(0.0, eps + log_r + float(np.log1p(inner)))


def _histogram_mass(z1, z2, s):
    """Integral over [z1, z2] of the density g of the histogram's privacy loss under P.

    g(z) = e^{-w/2} [1/4 + m(w)/16] with w = z + 2s on [0, 4s] and
    m(w) = min(w, 4s - w): the pieces e^{-w/2} and w e^{-w/2} integrate in
    closed form.
    """
    w1 = np.clip(np.asarray(z1, dtype=float) + 2 * s, 0.0, 4 * s)
    w2 = np.clip(np.asarray(z2, dtype=float) + 2 * s, 0.0, 4 * s)
    w2 = np.maximum(w1, w2)

    def e0(a, b):  # int_a^b e^{-w/2} dw
        return -2.0 * np.exp(-a / 2) * np.expm1(-(b - a) / 2)

    def e1(a, b):  # int_a^b w e^{-w/2} dw
        return (2 * a + 4) * np.exp(-a / 2) - (2 * b + 4) * np.exp(-b / 2)

    lo_a, lo_b = w1, np.maximum(w1, np.minimum(w2, 2 * s))  # the part with w <= 2s
    hi_a = np.minimum(w2, np.maximum(w1, 2 * s))  # the part with w >= 2s
    m = e1(lo_a, lo_b) + 4 * s * e0(hi_a, w2) - e1(hi_a, w2)
    return e0(w1, w2) / 4 + m / 16


def _histogram_sf(t, s):
    """P(L > t) for the histogram's privacy loss L under P (atoms at -2s, 0, 2s)."""
    t = np.asarray(t, dtype=float)
    inside = _histogram_mass(t, 2 * s, s)
    atoms = (np.where(t < -2 * s, 0.25, 0.0) + np.where(t < 0, 0.5 * np.exp(-s), 0.0)
             + np.where(t < 2 * s, 0.25 * np.exp(-2 * s), 0.0))
    return np.where(t >= 2 * s, 0.0, inside + atoms)


def laplace_histogram_errors(t, level):
    """Errors of the test "reject when L > t" for the histogram mechanism, in closed form.

    Parameters
    ----------
    t : float or array_like
        Thresholds of the log-likelihood ratio L = L_1 + L_2 (one term per
        changed bin), finite.
    level : float
        The histogram's privacy level (noise Lap(2/level)), > 0.

    Returns
    -------
    alpha, beta : numpy.float64 or numpy.ndarray
        alpha = P(L > t) and beta = Q(L <= t), shaped like `t`: the exact
        curve that :func:`laplace_histogram_tradeoff` discretises.

    Raises
    ------
    ValueError
        If `t` holds a non-finite entry, or `level` is not a finite number > 0.

    Notes
    -----
    With s = level/2 = 1/b, under P each L_i has atoms 1/2 at -s and e^{-s}/2
    at s and density e^{-(l + s)/2}/4 on (-s, s). Every term of their
    convolution is proportional to e^{-(z + 2s)/2}, so under P, L has atoms
    1/4 at -2s, e^{-s}/2 at 0, e^{-2s}/4 at 2s and density
    g(z) = e^{-(z + 2s)/2} [1/4 + (2s - |z|)/16] on (-2s, 2s). Under Q its law
    is e^z times this, the law of -L under P, so beta = P(L >= -t). The
    thresholds in (-2s, 2s) trace the curve (Neyman-Pearson); at the atoms it
    is linear (randomised tests).

    Source: this project's derivation (above), beyond [SPJ22], which gives the
    mechanism (eq. (2.4)) but not its trade-off curve.

    Examples
    --------
    At t = 0, beta - alpha is the atom e^{-s}/2 of L at 0 (s = 1/2 here):

    >>> import numpy as np
    >>> from dpcore.fdp import laplace_histogram_errors
    >>> a, b = laplace_histogram_errors([-1.0, 0.0, 0.5, 1.0], 1.0)
    >>> np.round(a, 4), np.round(b, 4)
    (array([0.75  , 0.2274, 0.1476, 0.    ]), array([0.092 , 0.5307, 0.6328, 1.    ]))
    >>> round(float(b[1] - a[1]), 4), round(float(np.exp(-0.5) / 2), 4)
    (0.3033, 0.3033)
    """
    t = finite_array(t, "t")
    s = positive_scalar(level, "level") / 2.0
    alpha = _histogram_sf(t, s)
    at_minus_t = (np.where(t == 2 * s, 0.25, 0.0) + np.where(t == 0, 0.5 * np.exp(-s), 0.0)
                  + np.where(t == -2 * s, 0.25 * np.exp(-2 * s), 0.0))
    beta = _histogram_sf(-t, s) + at_minus_t
    return alpha[()], beta[()]


def laplace_histogram_gdp_mu(level) -> float:
    """Tightest mu of the histogram mechanism's exact curve.

    Parameters
    ----------
    level : float
        The histogram's privacy level (noise Lap(2/level)), > 0.

    Returns
    -------
    float
        sup [Phi^{-1}(1 - alpha) - Phi^{-1}(beta)] over the curve of
        :func:`laplace_histogram_errors`.

    Raises
    ------
    ValueError
        If `level` is not a finite number > 0.

    Notes
    -----
    The curve is symmetric (t -> -t swaps alpha and beta), so t in [0, 2s)
    covers it. On its linear pieces only their ends count (G_mu is convex):
    the vertices at t = 0 (alpha = P(L > 0), beta = P(L >= 0)) and at t -> 2s
    (alpha = e^{-2s}/4, beta = 3/4). On the smooth piece t in (0, 2s) the
    maximum is found by a scan of 257 points refined by a bounded
    ``scipy.optimize.minimize_scalar`` between the best point's neighbours.

    Source: this project's, beyond [SPJ22] (which gives the mechanism, eq. (2.4)),
    for [DRS22]'s G_mu.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.fdp import laplace_histogram_errors, laplace_histogram_gdp_mu, tightest_gdp_mu
    >>> round(laplace_histogram_gdp_mu(1.0), 4)
    0.7076
    >>> a, b = laplace_histogram_errors(np.linspace(-1.0, 1.0, 20_001), 1.0)
    >>> round(tightest_gdp_mu(a, b), 4)
    0.7076
    """
    s = positive_scalar(level, "level") / 2.0

    def h(t):
        alpha, beta = _histogram_sf(t, s), _histogram_sf(-t, s)  # no atom at -t in (0, 2s)
        return -special.ndtri(alpha) - special.ndtri(beta)

    a0 = float(_histogram_sf(0.0, s))
    vertices = [-special.ndtri(a0) - special.ndtri(a0 + 0.5 * np.exp(-s)),
                -special.ndtri(0.25 * np.exp(-2 * s)) - special.ndtri(0.75)]
    ts = np.linspace(0.0, 2 * s, 257)[1:-1]
    values = h(ts)
    i = int(np.argmax(values))
    lo, hi = (ts[i - 1] if i > 0 else 0.0), (ts[i + 1] if i + 1 < ts.size else 2 * s)
    res = optimize.minimize_scalar(lambda x: -float(h(x)), bounds=(lo, hi), method="bounded",
                                   options={"xatol": 1e-12 * s})
    return float(max(*vertices, values[i], -res.fun))


def laplace_histogram_delta(eps, level):
    """delta(eps) of the histogram mechanism: Q(L > eps) - e^eps P(L > eps).

    Parameters
    ----------
    eps : float or array_like
        The eps at which delta is read, >= 0.
    level : float
        The histogram's privacy level (noise Lap(2/level)), > 0.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        sup_alpha [1 - f(alpha) - e^eps alpha], shaped like `eps`: the total
        variation distance at eps = 0, decreasing to 0 at eps = level.

    Raises
    ------
    ValueError
        If `eps` holds a negative or non-finite entry, or `level` is not a finite
        number > 0.

    Notes
    -----
    The supremum is attained by the Neyman-Pearson test at threshold eps. It
    is the atom at 2s, (1 - e^{eps - 2s})/4, plus the integral of
    (e^z - e^eps) g(z) over (eps, 2s); with e^z g(z) = g(-z) that is
    mass(-2s, -eps) - e^eps mass(eps, 2s) (g and its atoms as in
    :func:`laplace_histogram_errors`).

    Source: this project's derivation (above), beyond [SPJ22] (which gives the
    mechanism, eq. (2.4)).

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.fdp import laplace_histogram_delta
    >>> np.round(laplace_histogram_delta([0.0, 0.5, 1.0, 2.0], 1.0), 4)
    array([0.2418, 0.1238, 0.    , 0.    ])
    """
    eps = finite_array(eps, "eps", sign="nonnegative")
    s = positive_scalar(level, "level") / 2.0
    e = np.minimum(eps, 2 * s)
    out = (-0.25 * np.expm1(e - 2 * s) + _histogram_mass(-2 * s, -e, s)
           - np.exp(e) * _histogram_mass(e, 2 * s, s))
    return np.maximum(out, 0.0)[()]


def laplace_histogram_epsilon(level, delta) -> float:
    """Smallest eps with the histogram mechanism's curve >= f_{eps,delta}.

    Parameters
    ----------
    level : float
        The histogram's privacy level (noise Lap(2/level)), > 0.
    delta : float
        The delta at which eps is read, in [0, 1].

    Returns
    -------
    float
        The root of :func:`laplace_histogram_delta` (eps, level) = delta on
        [0, level] (Brent's method); `level` at delta = 0 (the mechanism is
        level-DP and no better), 0 when delta is at least delta(0).

    Raises
    ------
    ValueError
        If `level` is not a finite number > 0, or `delta` is not a number in [0, 1].

    Notes
    -----
    Source: this project's, the inverse of :func:`laplace_histogram_delta` in eps;
    beyond [SPJ22], which states the mechanism's guarantee as level-DP (delta = 0),
    after [WZ10].

    Examples
    --------
    >>> from dpcore.fdp import laplace_histogram_delta, laplace_histogram_epsilon
    >>> laplace_histogram_epsilon(1.0, 0.0)
    1.0
    >>> e = laplace_histogram_epsilon(1.0, 0.05)
    >>> round(e, 4), round(float(laplace_histogram_delta(e, 1.0)), 4)
    (0.7997, 0.05)
    """
    level = positive_scalar(level, "level")
    delta = probability(delta, "delta", closed=True)
    if delta == 0:
        return level
    if float(laplace_histogram_delta(0.0, level)) <= delta:
        return 0.0
    return float(optimize.brentq(lambda e: float(laplace_histogram_delta(e, level)) - delta,
                                 0.0, level, xtol=1e-15 * level, rtol=4 * np.finfo(float).eps))
