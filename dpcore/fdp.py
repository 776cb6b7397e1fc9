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
from scipy import special, stats

from dpcore import gaussian
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
    "epsdelta_tradeoff",
    "epsdelta_vertices",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_mu",
    "gdp_tradeoff",
    "group_tradeoff",
    "identity_tradeoff",
    "krr_tradeoff",
    "laplace_histogram_tradeoff",
    "laplace_tradeoff",
    "tightest_epsilon",
    "tightest_gdp_mu",
    "tradeoff_discrete",
    "tradeoff_on_grid",
]


def identity_tradeoff(alpha):
    """Id(alpha) = 1 - alpha: perfect privacy, no test beats guessing."""
    return 1.0 - probability_array(alpha, "alpha", closed=True)


def gdp_tradeoff(alpha, mu):
    """G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu), the trade-off of N(0,1) vs N(mu,1).

    Phi^{-1}(1 - alpha) is computed as -Phi^{-1}(alpha): 1 - alpha would round to 1 for
    alpha below 1e-16 and give G_mu = 1 there whatever mu.
    """
    a = probability_array(alpha, "alpha", closed=True)
    mu = nonnegative_scalar(mu, "mu")
    return special.ndtr(-special.ndtri(a) - mu) if mu > 0 else 1.0 - a


def epsdelta_tradeoff(alpha, eps, delta=0.0):
    """f_{eps,delta}(alpha) = max(0, 1 - delta - e^eps alpha, e^{-eps}(1 - delta - alpha))."""
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
    """Vertices of the polygon f_{eps,delta}: (0, 1 - delta), its kink on the diagonal
    alpha = beta = (1 - delta)/(1 + e^eps), (1 - delta, 0) and (1, 0)."""
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
    """
    a = probability_array(alpha, "alpha", closed=True)
    eps = nonnegative_scalar(eps, "eps")
    corner = 0.5 * np.exp(-eps)
    low = 1.0 - _exp_times(eps, a)
    with np.errstate(divide="ignore", invalid="ignore"):  # used only where a >= corner > 0
        mid = np.exp(-eps) / (4.0 * a)
    high = np.exp(-eps) * (1.0 - a)
    return np.where(a <= corner, low, np.where(a <= 0.5, mid, high))


# ---------------------------------------------------------------------------
# Conversions between mu-GDP and (eps, delta)-DP, Corollary 2.13
# ---------------------------------------------------------------------------


def gdp_delta(eps, mu):
    """delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Corollary 2.13).

    Vectorised over eps; the second term is computed as
    exp(eps + log Phi(...)) so that eps up to 700 neither overflows nor
    loses the difference.
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
    """
    return gaussian.gaussian_mu(eps, delta)


def gdp_epsilon(mu, delta) -> float:
    """The smallest eps >= 0 with delta(eps) <= ``delta`` for mu-GDP (Corollary 2.13).

    delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) decreases
    from 2 Phi(mu/2) - 1 at eps = 0 to 0, so the root is unique; it is
    :func:`dpcore.gaussian.gaussian_epsilon` with sigma = 1 and sensitivity
    mu. Returns 0 when delta(0) <= delta already (and for mu = 0), and inf
    for delta = 0 and mu > 0: no finite eps gives (eps, 0)-DP.
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
    """
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    if p.shape != q.shape or p.ndim != 1:
        raise ValueError("`p` and `q` must be 1-D arrays of the same length.")
    for name, v in (("p", p), ("q", q)):
        if np.any(~np.isfinite(v)) or np.any(v < 0) or abs(v.sum() - 1) > 1e-9:
            raise ValueError(f"`{name}` must be a probability vector.")
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
    """Evaluate a polygonal trade-off curve (vertices sorted by alpha) at `alpha`."""
    a = probability_array(alpha, "alpha", closed=True)
    return np.interp(a, alpha_vertices, beta_vertices)


def krr_tradeoff(eps, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact trade-off between two rows of the k-ary randomised response channel.

    Row v reports v with probability p = e^eps/(e^eps + k - 1) and each
    other value with q = 1/(e^eps + k - 1). Random substitution with a
    gamma-diagonal matrix over N categories is the same channel with
    e^eps = gamma and k = N.
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
    grid step (1/b)/grid in eps terms.
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
    """
    if not callable(f):
        raise ValueError("`f` must be a callable trade-off function.")
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
        raise ValueError("`alpha` and `beta` must have the same length.")
    return a, b


def tightest_gdp_mu(alpha, beta) -> float:
    """The smallest mu with beta >= G_mu(alpha) at every point of a curve.

    At a point, G_mu(alpha) = beta for mu = Phi^{-1}(1 - alpha) - Phi^{-1}(beta);
    the curve is mu-GDP for mu at least the largest of these. For a polygon
    given by its vertices this is exact (G_mu is convex, so it lies below
    every chord); for a smooth curve it is exact on the points given.
    Returns inf when no mu works (e.g. beta = 0 at some alpha < 1).
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
    """
    s0 = np.asarray(samples0, dtype=float).ravel()
    s1 = np.asarray(samples1, dtype=float).ravel()
    if s0.size == 0 or s1.size == 0:
        raise ValueError("`samples0` and `samples1` must not be empty.")
    if np.any(~np.isfinite(s0)) or np.any(~np.isfinite(s1)):
        raise ValueError("samples must be finite numbers.")
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
    """
    if not callable(target):
        raise ValueError("`target` must be a callable trade-off function.")
    a, b = _curve_points(alpha, beta)
    below = b < np.asarray(target(a)) - tol
    fails = bool(np.any(below))
    if vertices is not None:
        va, vb = _curve_points(*vertices)
        fails = fails or bool(np.any(vb < np.asarray(target(va)) - tol))
    return fails, below
