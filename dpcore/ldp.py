"""Local differential privacy: k-ary randomized response (k-RR) and its estimators.

[KBR16]. Each of N users holds one of k values and reports it through k-RR:
the true value with probability p, otherwise one of the k − 1 other values
uniformly at random, each with probability q = (1 − p)/(k − 1). The ratio
P(report v | true v)/P(report v | true w) = p/q = e^ε gives ε-LDP when

    p = e^ε/(e^ε + k − 1),   q = 1/(e^ε + k − 1).

The server sees the reported counts N_v, with E[N_v] = p n_v + q (N − n_v),
and estimates the true counts by n̂_v = (N_v − N q)/(p − q) (unbiased), or by
one of three estimators that respect n_v ≥ 0 and Σ n_v = N: clip and
renormalise, Euclidean projection onto the simplex, or the iterative Bayesian
update (the EM algorithm for the multinomial with the known k-RR channel).

Exact variance: N_v = Bin(n_v, p) + Bin(N − n_v, q), so
Var(n̂_v) = [n_v p(1 − p) + (N − n_v) q(1 − q)]/(p − q)²
        = N q(1 − q)/(p − q)² + n_v (1 − p − q)/(p − q).

Drawing the reported counts directly (``krr_perturb_counts``) uses that k-RR is
the mixture "keep the true value with probability p − q, otherwise report a
uniform draw from all k values": (p − q) + q = p and q for every other value.
So N_v = K_v + U_v with K_v ~ Bin(n_v, p − q) and (U_v) ~ Multinomial(N − Σ K, 1/k):
O(k) work, whatever N.

The constrained estimators are biased, and not better everywhere: they gain on the
small categories (where the unbiased estimate goes below 0) and can lose on the large
ones. ``krr_category_errors`` measures that per category by simulation, with the
coverage (``krr_coverage``) of the whiskers n̂_v ± 2 sd_v, sd_v the unbiased
estimator's exact standard deviation, around each estimator's estimate.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from dpcore.errors import ArgumentError
from dpcore.validation import (
    category_count,
    category_indices,
    count_array,
    finite_array,
    one_of,
    positive_integer,
    positive_scalar,
    whole_count_array,
)

__all__ = [
    "ESTIMATORS",
    "krr_category_errors",
    "krr_coverage",
    "krr_demo_table",
    "krr_estimate",
    "krr_interval",
    "krr_interval_halfwidth",
    "krr_mse",
    "krr_perturb",
    "krr_perturb_counts",
    "krr_probabilities",
    "krr_share_estimate",
    "krr_variance",
]

ESTIMATORS = {
    "unbiased": "unbiased (N_v − Nq)/(p − q)",
    "clip": "clipped at 0 and renormalised",
    "simplex": "projected onto the simplex",
    "ibu": "iterative Bayesian update (EM)",
}
MAX_K = 10**6
_IBU_TOL = 1e-10
_IBU_MAX_ITER = 10_000


def krr_probabilities(eps, k) -> tuple[float, float]:
    """(p, q) of k-RR: p = e^ε/(e^ε + k − 1), q = (1 − p)/(k − 1) = p e^{−ε}.

    Written as p = 1/(1 + (k − 1)e^{−ε}), which neither overflows for large ε
    nor loses q to rounding.

    Parameters
    ----------
    eps : float
        ε > 0, the local privacy budget.
    k : int
        The number of categories, an integer from 2 to ``MAX_K``.

    Returns
    -------
    tuple of (float, float)
        p, the probability of reporting the true value, and q, that of reporting
        each one of the k − 1 other values; p + (k − 1)q = 1 and p/q = e^ε.

    Raises
    ------
    ValueError
        If ``eps`` is not a finite number > 0, or ``k`` is not an integer from 2 to
        ``MAX_K``.

    Notes
    -----
    [KBR16]: the seed sets p/q = e^ε with q = (1 − p)/(k − 1) and solves for
    p = e^ε/(e^ε + k − 1). At k = 2 it is randomized response [W65].

    Examples
    --------
    At k = 2 and ε = ln 3, the truth is told with probability 3/4:

    >>> import math
    >>> from dpcore.ldp import krr_probabilities
    >>> krr_probabilities(math.log(3), 2)
    (0.75, 0.25)
    >>> p, q = krr_probabilities(1.0, 4)
    >>> round(p, 4), round(q, 4), round(p / q, 6), round(p + 3 * q, 12)
    (0.4754, 0.1749, 2.718282, 1.0)
    """
    eps, k = positive_scalar(eps, "eps"), category_count(k, "k", maximum=MAX_K)
    t = (k - 1) * np.exp(-eps)
    p = 1.0 / (1.0 + t)
    q = np.exp(-eps) / (1.0 + t)
    return float(p), float(q)


def _p_minus_q(eps: float, k: int) -> float:
    p, _ = krr_probabilities(eps, k)
    return float(-np.expm1(-eps) * p)  # p(1 − e^{−ε}), exact for small ε


def krr_perturb(values, eps, k, *, rng=None) -> np.ndarray:
    """One k-RR report per user, literally as the source describes it.

    With probability p the user reports the true value; otherwise a value drawn
    uniformly from the k − 1 others (a draw from 0 … k − 2, shifted past the
    true value). Vectorised over users.

    Parameters
    ----------
    values : array_like of int
        The users' true values, category indices 0 … k − 1 (any shape;
        integer-valued floats are accepted).
    eps : float
        ε > 0, the local privacy budget.
    k : int
        The number of categories, from 2 to ``MAX_K``.
    rng : None, int or numpy.random.Generator, optional
        The random source, normalised by ``np.random.default_rng``.

    Returns
    -------
    numpy.ndarray of int64
        The reported values, in the shape of ``values``.

    Raises
    ------
    ValueError
        If ``k`` is not an integer from 2 to ``MAX_K``, ``eps`` is not a finite
        number > 0, or ``values`` holds anything but whole numbers 0 … k − 1.

    Notes
    -----
    The client side of k-RR as the [KBR16] seed describes it, with (p, q) from
    :func:`krr_probabilities`.

    Examples
    --------
    >>> from dpcore.ldp import krr_perturb
    >>> krr_perturb([0, 1, 2, 3, 0, 1], 1.0, 4, rng=1)
    array([1, 3, 2, 1, 0, 1])

    The share of truthful reports is close to p = 0.4754:

    >>> reports = krr_perturb(np.zeros(100_000, dtype=int), 1.0, 4, rng=1)
    >>> round(float(np.mean(reports == 0)), 3)
    0.476
    """
    rng = np.random.default_rng(rng)
    k = category_count(k, "k", maximum=MAX_K)
    eps = positive_scalar(eps, "eps")
    values = category_indices(values, "values", k)
    p, _ = krr_probabilities(eps, k)
    truth = rng.random(values.shape) < p
    other = rng.integers(0, k - 1, size=values.shape)
    other += other >= values
    return np.where(truth, values, other)


def krr_perturb_counts(counts, eps, *, rng=None) -> np.ndarray:
    """Reported counts drawn from the true counts directly, in O(k) whatever N.

    The same distribution as perturbing each user with ``krr_perturb`` and
    counting (see the module notes). ``counts`` may carry leading batch axes;
    categories are on the last axis, k = its length.

    Parameters
    ----------
    counts : array_like
        The true counts n_v: whole numbers ≥ 0, categories on the last axis (at
        least 2, at most ``MAX_K``), any leading axes independent histograms.
    eps : float
        ε > 0, the local privacy budget.
    rng : None, int or numpy.random.Generator, optional
        The random source, normalised by ``np.random.default_rng``.

    Returns
    -------
    numpy.ndarray of float
        The reported counts N_v, in the shape of ``counts``; each histogram keeps
        its total N.

    Raises
    ------
    ValueError
        If ``counts`` is not an array of whole numbers ≥ 0 with 2 to ``MAX_K``
        categories on its last axis, or ``eps`` is not a finite number > 0.

    Notes
    -----
    k-RR as in [KBR16], drawn by this project's mixture representation (module
    notes): N_v = K_v + U_v, K_v ~ Bin(n_v, p − q) and
    (U_v) ~ Multinomial(N − Σ K, 1/k).

    Examples
    --------
    >>> from dpcore.ldp import krr_perturb_counts
    >>> krr_perturb_counts([500, 300, 150, 50], 1.0, rng=1)
    array([326., 241., 242., 191.])
    >>> krr_perturb_counts([[500, 300, 150, 50]] * 3, 1.0, rng=1).sum(axis=-1)
    array([1000., 1000., 1000.])
    """
    rng = np.random.default_rng(rng)
    n = whole_count_array(counts, "counts", min_bins=2)
    k = category_count(n.shape[-1], "k", maximum=MAX_K)
    eps = positive_scalar(eps, "eps")
    kept = rng.binomial(n, _p_minus_q(eps, k))
    uniform = (n - kept).sum(axis=-1)
    spread = rng.multinomial(uniform, np.full(k, 1.0 / k))
    return (kept + spread).astype(float)


def _project_simplex(x: np.ndarray, total: np.ndarray) -> np.ndarray:
    """Euclidean projection of each row of x onto {y ≥ 0, Σ y = total} (Duchi et al. 2008)."""
    k = x.shape[-1]
    s = -np.sort(-x, axis=-1)
    cumsum = np.cumsum(s, axis=-1) - total[..., None]
    idx = np.arange(1, k + 1)
    cond = s - cumsum / idx > 0
    rho = k - 1 - np.argmax(cond[..., ::-1], axis=-1)  # last index where cond holds
    theta = np.take_along_axis(cumsum, rho[..., None], axis=-1) / (rho[..., None] + 1)
    return np.maximum(x - theta, 0.0)


def _mle(reported: np.ndarray, p: float, q: float) -> np.ndarray:
    """The maximum-likelihood distribution π, the fixed point of IBU, in closed form.

    The log-likelihood Σ_w N_w log(q + (p − q) π_w) is concave on the simplex;
    its KKT conditions give water-filling: π_w = max(N_w t − c, 0) with
    c = q/(p − q) and t set so that Σ π_w = 1. With the m largest counts
    active, t = (1 + m c)/(sum of those m counts); m is the largest for which
    the m-th largest count still gets π > 0. When every category is active,
    t = 1/(N (p − q)) and π is the unbiased estimate divided by N. Rows are
    batched.
    """
    k = reported.shape[-1]
    c = q / (p - q)
    desc = -np.sort(-reported, axis=-1)
    m = np.arange(1, k + 1)
    t = (1.0 + m * c) / np.cumsum(desc, axis=-1)
    active = desc * t - c > 0
    last = k - 1 - np.argmax(active[..., ::-1], axis=-1)  # the largest active m, minus 1
    t_star = np.take_along_axis(t, last[..., None], axis=-1)
    pi = np.maximum(reported * t_star - c, 0.0)
    return pi / pi.sum(axis=-1, keepdims=True)  # exact up to rounding


def _ibu(freq: np.ndarray, p: float, q: float, *, max_iter: int = _IBU_MAX_ITER) -> np.ndarray:
    """EM for the true distribution π given observed report frequencies, k-RR channel.

    π_v ← π_v Σ_w f_w P(w | v)/Σ_u P(w | u) π_u with P(w | v) = q + (p − q)[w = v];
    the denominator is q + (p − q) π_w, so each step is O(k). Rows are batched.
    """
    k = freq.shape[-1]
    pi = np.full(freq.shape, 1.0 / k)
    d = p - q
    for _ in range(max_iter):
        ratio = freq / (q + d * pi)
        new = pi * (q * ratio.sum(axis=-1, keepdims=True) + d * ratio)
        new /= new.sum(axis=-1, keepdims=True)
        if np.max(np.abs(new - pi)) < _IBU_TOL:
            return new
        pi = new
    return pi


def krr_estimate(reported_counts, eps, *, method: str = "unbiased") -> np.ndarray:
    """Estimated true counts from k-RR reported counts (k = the last axis's length).

    - ``"unbiased"``: n̂_v = (N_v − N q)/(p − q) [KBR16]; may be negative;
    - ``"clip"``: max(n̂, 0) rescaled to sum to N (uniform if every n̂_v ≤ 0);
    - ``"simplex"``: the nearest point to n̂ (Euclidean) with n ≥ 0, Σ n = N;
    - ``"ibu"``: the iterative Bayesian update's limit, the maximum-likelihood
      estimate. The EM iterations converge to it slowly (thousands of steps)
      when some categories' estimate is 0, as at small ε; it is computed
      exactly instead, in closed form (see ``_mle``), and tested against the
      iterations.

    Leading axes are batches.

    Parameters
    ----------
    reported_counts : array_like
        The reported counts N_v: finite, ≥ 0, categories on the last axis (2 to
        ``MAX_K``); each histogram must count at least one user.
    eps : float
        ε > 0, the budget the reports were made with.
    method : {"unbiased", "clip", "simplex", "ibu"}, optional
        The estimator, a key of ``ESTIMATORS``; default ``"unbiased"``.

    Returns
    -------
    numpy.ndarray of float
        The estimated true counts n̂_v, in the shape of ``reported_counts``; every
        estimator's histogram sums to N = Σ N_v (up to rounding).

    Raises
    ------
    ValueError
        If ``method`` is not a key of ``ESTIMATORS``, ``reported_counts`` is not an
        array of finite counts ≥ 0 with 2 to ``MAX_K`` categories, a histogram of it
        sums to 0, or ``eps`` is not a finite number > 0.

    Notes
    -----
    Only ``"unbiased"`` is from the [KBR16] seed, which solves
    N_v = p n_v + q (N − n_v) for n_v. The three estimators that respect n_v ≥ 0
    and Σ n_v = N go beyond the seed; they are this project's (the simplex
    projection after Duchi et al. 2008, the IBU as the EM algorithm for the
    multinomial with the known k-RR channel).

    Examples
    --------
    >>> from dpcore.ldp import krr_estimate
    >>> reported = [400, 300, 200, 100]
    >>> krr_estimate(reported, 1.0).round(1)
    array([ 749.2,  416.4,   83.6, -249.2])
    >>> for method in ("clip", "simplex", "ibu"):
    ...     print(method, krr_estimate(reported, 1.0, method=method).round(1).tolist())
    clip [599.7, 333.3, 66.9, 0.0]
    simplex [666.1, 333.3, 0.5, 0.0]
    ibu [638.4, 333.3, 28.2, 0.0]
    """
    one_of(method, "method", ESTIMATORS)
    reported = count_array(reported_counts, "reported_counts", min_bins=2)
    k = category_count(reported.shape[-1], "k", maximum=MAX_K)
    eps = positive_scalar(eps, "eps")
    p, q = krr_probabilities(eps, k)
    total = reported.sum(axis=-1)
    if np.any(total <= 0):
        raise ArgumentError("`{name}` must count at least one user.", name="reported_counts")
    unbiased = (reported - total[..., None] * q) / _p_minus_q(eps, k)
    if method == "unbiased":
        return unbiased
    if method == "clip":
        pos = np.maximum(unbiased, 0.0)
        mass = pos.sum(axis=-1, keepdims=True)
        safe = np.where(mass > 0, mass, 1.0)
        return np.where(mass > 0, pos * total[..., None] / safe, total[..., None] / k)
    if method == "simplex":
        return _project_simplex(unbiased, total)
    return _mle(reported, p, q) * total[..., None]


def krr_variance(true_counts, eps) -> np.ndarray:
    """Exact Var(n̂_v) of the unbiased estimator: N q(1−q)/(p−q)² + n_v(1 − p − q)/(p − q).

    Parameters
    ----------
    true_counts : array_like
        The true counts n_v: finite, ≥ 0, categories on the last axis (2 to
        ``MAX_K``); leading axes are batches.
    eps : float
        ε > 0, the local privacy budget.

    Returns
    -------
    numpy.ndarray of float
        Var(n̂_v) per category, in the shape of ``true_counts``; N is the total of
        each histogram.

    Raises
    ------
    ValueError
        If ``true_counts`` is not an array of finite counts ≥ 0 with 2 to ``MAX_K``
        categories, or ``eps`` is not a finite number > 0.

    Notes
    -----
    For the unbiased estimator of [KBR16]. The variance is not in the seed: this
    project derives it from N_v = Bin(n_v, p) + Bin(N − n_v, q), so
    Var(n̂_v) = [n_v p(1 − p) + (N − n_v) q(1 − q)]/(p − q)².

    Examples
    --------
    >>> from dpcore.ldp import krr_variance
    >>> krr_variance([500, 300, 150, 50], 1.0).round(1)
    array([2180. , 1947.3, 1772.7, 1656.3])
    """
    counts = count_array(true_counts, "true_counts", min_bins=2)
    k = category_count(counts.shape[-1], "k", maximum=MAX_K)
    eps = positive_scalar(eps, "eps")
    p, q = krr_probabilities(eps, k)
    d = _p_minus_q(eps, k)
    n = counts.sum(axis=-1, keepdims=True)
    return n * q * (1 - q) / d**2 + counts * (1 - p - q) / d


def krr_mse(true_counts, eps_values, *, methods=tuple(ESTIMATORS), reps: int = 200,
            rng=None, progress=None) -> pd.DataFrame:
    """Mean squared error per category of each estimator against ε, by simulation.

    For every ε: ``reps`` independent reported histograms (``krr_perturb_counts``),
    every estimator applied, MSE = mean over replicates and categories of
    (n̂_v − n_v)², with its Monte Carlo standard error. The unbiased estimator's
    exact MSE, mean_v Var(n̂_v), is in the column ``theory``.
    ``progress(fraction, label)`` is called after each ε: the share of the ε
    values done (ending at 1) and ``"eps=<ε>"``.

    Parameters
    ----------
    true_counts : array_like
        One histogram of true counts (1-D, whole numbers ≥ 0, 2 to ``MAX_K`` bins).
    eps_values : float or array_like
        The ε values, each > 0.
    methods : iterable of str, optional
        Keys of ``ESTIMATORS`` (default: all four, in that order).
    reps : int, optional
        Replicates per ε, 1 to 100,000 (default 200).
    rng : None, int or numpy.random.Generator, optional
        The random source, normalised by ``np.random.default_rng``.
    progress : callable, optional
        ``progress(fraction, label)``, as above; None (default) for none.

    Returns
    -------
    pandas.DataFrame
        One row per (ε, method), with the columns ``eps``, ``method``, ``mse``, ``se``
        (its Monte Carlo standard error, NaN when ``reps`` is 1) and ``theory``
        (NaN except for ``"unbiased"``).

    Raises
    ------
    ValueError
        If ``true_counts`` is not one histogram of counts ≥ 0 with at least 2 bins,
        ``reps`` is not an integer from 1 to 100,000, a ``methods`` entry is not a
        key of ``ESTIMATORS``, or an ε is not a finite number > 0 (raised by
        :func:`krr_perturb_counts`, whose message names ``eps``).

    Notes
    -----
    This project's simulation study of the [KBR16] k-RR estimators; the
    ``theory`` column is the mean of :func:`krr_variance`.

    Examples
    --------
    >>> from dpcore.ldp import krr_mse
    >>> krr_mse([500, 300, 150, 50], [1.0, 2.0], methods=("unbiased",), reps=200,
    ...         rng=1).round(1)
       eps    method     mse     se  theory
    0  1.0  unbiased  1962.6  108.7  1889.1
    1  2.0  unbiased   317.5   16.9   308.3
    """
    rng = np.random.default_rng(rng)
    counts = count_array(true_counts, "true_counts", min_bins=2)
    if counts.ndim != 1:
        raise ArgumentError("`{name}` must be one histogram (a 1-D array).", name="true_counts")
    reps = positive_integer(reps, "reps", maximum=100_000)
    eps_values = np.atleast_1d(np.asarray(eps_values, dtype=float))
    for method in methods:
        one_of(method, "methods", ESTIMATORS)
    rows = []
    batch = np.broadcast_to(counts, (reps, counts.size))
    for i, eps in enumerate(eps_values):
        reported = krr_perturb_counts(batch, eps, rng=rng)
        theory = float(np.mean(krr_variance(counts, eps)))
        for method in methods:
            sq = (krr_estimate(reported, eps, method=method) - counts) ** 2
            per_rep = sq.mean(axis=-1)
            rows.append(dict(eps=float(eps), method=method, mse=float(per_rep.mean()),
                             se=float(per_rep.std(ddof=1) / np.sqrt(reps)) if reps > 1 else np.nan,
                             theory=theory if method == "unbiased" else np.nan))
        if progress is not None:
            progress((i + 1) / eps_values.size, f"eps={eps:g}")
    return pd.DataFrame(rows)


def krr_demo_table(values, eps, k, *, labels=None, rng=None) -> pd.DataFrame:
    """One row per user for teaching: the true answer, the coin flip and the report.

    Columns: ``user`` (1, 2, …), ``true``, ``coin`` (a uniform draw u; the user
    tells the truth when u < p), ``told_truth``, ``reported``. ``labels`` names
    the categories (default 0 … k − 1).

    Parameters
    ----------
    values : array_like of int
        The users' true values, category indices 0 … k − 1.
    eps : float
        ε > 0, the local privacy budget.
    k : int
        The number of categories, from 2 to ``MAX_K``.
    labels : sequence, optional
        k names for the categories (default: the indices).
    rng : None, int or numpy.random.Generator, optional
        The random source, normalised by ``np.random.default_rng``.

    Returns
    -------
    pandas.DataFrame
        One row per user with the columns above; ``true`` and ``reported`` hold
        labels.

    Raises
    ------
    ValueError
        If ``k`` is not an integer from 2 to ``MAX_K``, ``eps`` is not a finite
        number > 0, ``values`` holds anything but whole numbers 0 … k − 1, or
        ``labels`` does not name exactly k categories.

    Notes
    -----
    The same randomisation as :func:`krr_perturb` (the k-RR of [KBR16]), with the
    coin shown; the table is this project's.

    Examples
    --------
    >>> from dpcore.ldp import krr_demo_table
    >>> krr_demo_table([0, 1, 2, 0], 1.0, 3, labels=["A", "B", "C"], rng=1).round(3)
       user true   coin  told_truth reported
    0     1    A  0.512        True        A
    1     2    B  0.950       False        A
    2     3    C  0.144        True        C
    3     4    A  0.949       False        B
    """
    rng = np.random.default_rng(rng)
    k = category_count(k, "k", maximum=MAX_K)
    eps = positive_scalar(eps, "eps")
    values = category_indices(values, "values", k)
    p, _ = krr_probabilities(eps, k)
    coin = rng.random(values.shape)
    truth = coin < p
    other = rng.integers(0, k - 1, size=values.shape)
    other += other >= values
    reported = np.where(truth, values, other)
    names = np.asarray(labels if labels is not None else np.arange(k), dtype=object)
    if names.size != k:
        raise ArgumentError("`{name}` must name the k = {k} categories, got {count}.",
                            name="labels", k=k, count=names.size)
    return pd.DataFrame(dict(user=np.arange(1, values.size + 1), true=names[values],
                             coin=coin, told_truth=truth, reported=names[reported]))


def krr_interval(estimates, true_counts_or_estimates, eps, *, z: float = 2.0):
    """± z standard errors of the unbiased estimate, from the exact variance.

    The variance needs the true counts; pass the estimates (clipped at 0) to
    plug them in when the truth is unknown.

    Parameters
    ----------
    estimates : array_like
        The estimates n̂_v the interval is centred on (categories on the last axis).
    true_counts_or_estimates : array_like
        The counts at which the variance is evaluated (clipped at 0 here): the true
        counts, or the estimates as a plug-in.
    eps : float
        ε > 0, the local privacy budget.
    z : float, optional
        The number of standard deviations (default 2). Not checked here.

    Returns
    -------
    tuple of numpy.ndarray
        (lower, upper) = n̂_v ∓ z sd_v, sd_v the square root of
        :func:`krr_variance`, in the broadcast shape of ``estimates`` and the
        variance.

    Raises
    ------
    ValueError
        If ``true_counts_or_estimates`` has non-finite entries or fewer than 2
        categories, ``eps`` is not a finite number > 0 (both from
        :func:`krr_variance`), or the shapes do not broadcast.

    Notes
    -----
    A normal-approximation interval of this project, around the [KBR16]
    estimator, from the exact variance of :func:`krr_variance`.

    Examples
    --------
    >>> from dpcore.ldp import krr_interval
    >>> lower, upper = krr_interval([502.9, 220.0, 223.4, 53.7], [500, 300, 150, 50], 1.0)
    >>> lower.round(1), upper.round(1)
    (array([409.5, 131.7, 139.2, -27.7]), array([596.3, 308.3, 307.6, 135.1]))
    """
    plug = np.maximum(np.asarray(true_counts_or_estimates, dtype=float), 0.0)
    sd = np.sqrt(krr_variance(plug, eps))
    est = np.asarray(estimates, dtype=float)
    return est - z * sd, est + z * sd



def krr_coverage(estimates, true_counts, eps, *, z: float = 2.0):
    """How often the whisker n̂_v ± z·sd_v contains the true count, per category.

    ``estimates`` holds replicates on its leading axes (categories last); sd_v is the
    unbiased estimator's exact standard deviation at the true counts, as in
    ``krr_interval``. Returns (coverage, its Monte Carlo standard error
    √(c(1 − c)/R)), one value per category. Cutting the lower end at 0, as is done
    for the estimators that never go below 0, changes nothing: n_v ≥ 0.
    For the unbiased estimator at large counts n̂_v is close to normal and the
    coverage close to P(|Z| ≤ z) (0.9545 at z = 2); for the others it is whatever
    their bias and spread make it.

    Parameters
    ----------
    estimates : array_like
        Replicated estimates n̂_v, categories on the last axis.
    true_counts : array_like
        The true counts n_v (finite, ≥ 0, at least 2 categories on the last axis).
    eps : float
        ε > 0, the local privacy budget.
    z : float, optional
        z > 0, the whisker's half-width in standard deviations (default 2).

    Returns
    -------
    tuple of numpy.ndarray
        (coverage, se): per category, the share c of the R replicates whose whisker
        contains n_v, and √(c(1 − c)/R).

    Raises
    ------
    ValueError
        If ``true_counts`` is not an array of finite counts ≥ 0 with at least 2
        categories, ``estimates`` does not have one column per category, ``z`` is
        not a finite number > 0, or ``eps`` is not a finite number > 0.

    Notes
    -----
    This project's check of the [KBR16] estimators by simulation.

    Examples
    --------
    >>> from dpcore.ldp import krr_coverage, krr_estimate, krr_perturb_counts
    >>> counts = np.array([500, 300, 150, 50])
    >>> reported = krr_perturb_counts(np.broadcast_to(counts, (4000, 4)), 1.0, rng=1)
    >>> coverage, se = krr_coverage(krr_estimate(reported, 1.0), counts, 1.0)
    >>> coverage.round(3), se.round(3)
    (array([0.956, 0.959, 0.957, 0.958]), array([0.003, 0.003, 0.003, 0.003]))
    """
    counts = count_array(true_counts, "true_counts", min_bins=2)
    est = np.asarray(estimates, dtype=float)
    if est.shape[-1] != counts.shape[-1]:
        raise ArgumentError("`{name}` must have one column per category of `{name_b}`.",
                            name="estimates", name_b="true_counts")
    z = positive_scalar(z, "z")
    lower, upper = krr_interval(est, counts, eps, z=z)
    inside = ((lower <= counts) & (counts <= upper)).reshape(-1, counts.shape[-1])
    reps = inside.shape[0]
    share = inside.mean(axis=0)
    return share, np.sqrt(share * (1 - share) / reps)


def krr_category_errors(true_counts, eps, *, reps: int = 2000, methods=tuple(ESTIMATORS),
                        z: float = 2.0, rng=None) -> pd.DataFrame:
    """Each estimator against the unbiased one, category by category, at one ε, by simulation.

    ``reps`` reported histograms are drawn from the true counts (``krr_perturb_counts``)
    and every estimator is applied to the same ones. One row per (method, category):

    - ``mse``, ``mse_se``: the mean over replicates of (n̂_v − n_v)², and its Monte
      Carlo standard error;
    - ``diff``, ``diff_se``: that MSE minus the unbiased estimator's, from the paired
      per-replicate differences of squared errors, and its standard error (0 when the
      two estimators agree in every replicate);
    - ``ratio``: ``mse`` over the unbiased estimator's simulated MSE (NaN where that is 0);
    - ``coverage``, ``coverage_se``: the share of replicates whose whisker
      n̂_v ± z·sd_v (``krr_coverage``) contains n_v, and its standard error.

    The unbiased estimator is always simulated (the comparisons need it); ``category``
    is the category's index.

    Parameters
    ----------
    true_counts : array_like
        One histogram of true counts (1-D, whole numbers ≥ 0, 2 to ``MAX_K`` bins).
    eps : float
        ε > 0, the local privacy budget.
    reps : int, optional
        Replicates, 2 to 1,000,000 (default 2000).
    methods : iterable of str, optional
        Keys of ``ESTIMATORS`` (default: all four); ``"unbiased"`` is added first
        if missing, and duplicates are dropped.
    z : float, optional
        z > 0, the whisker's half-width in standard deviations (default 2).
    rng : None, int or numpy.random.Generator, optional
        The random source, normalised by ``np.random.default_rng``.

    Returns
    -------
    pandas.DataFrame
        One row per (method, category), ``"unbiased"`` first, with the columns
        ``method``, ``category``, ``mse``, ``mse_se``, ``diff``, ``diff_se``,
        ``ratio``, ``coverage``, ``coverage_se`` described above.

    Raises
    ------
    ValueError
        If ``true_counts`` is not one histogram of counts ≥ 0 with at least 2 bins,
        ``reps`` is not an integer from 2 to 1,000,000, ``eps`` or ``z`` is not a
        finite number > 0, or a ``methods`` entry is not a key of ``ESTIMATORS``.

    Notes
    -----
    This project's simulation study of the [KBR16] estimators; beyond the seed,
    which gives the unbiased estimator only.

    Examples
    --------
    The constrained estimators gain most on the smallest category:

    >>> from dpcore.ldp import krr_category_errors
    >>> table = krr_category_errors([500, 300, 150, 50], 1.0, reps=500, rng=1)
    >>> table.pivot(index="category", columns="method", values="ratio").round(2)
    method    clip   ibu  simplex  unbiased
    category
    0         0.96  0.97     0.98       1.0
    1         0.97  0.97     0.98       1.0
    2         1.00  1.00     1.00       1.0
    3         0.82  0.82     0.82       1.0
    """
    rng = np.random.default_rng(rng)
    counts = count_array(true_counts, "true_counts", min_bins=2)
    if counts.ndim != 1:
        raise ArgumentError("`{name}` must be one histogram (a 1-D array).", name="true_counts")
    reps = positive_integer(reps, "reps", maximum=1_000_000)
    if reps < 2:
        raise ArgumentError("`{name}` must be at least 2: a standard error needs two replicates.",
                            name="reps")
    eps = positive_scalar(eps, "eps")
    for method in methods:
        one_of(method, "methods", ESTIMATORS)
    methods = ["unbiased", *[m for m in dict.fromkeys(methods) if m != "unbiased"]]
    reported = krr_perturb_counts(np.broadcast_to(counts, (reps, counts.size)), eps, rng=rng)
    base_sq = None
    frames = []
    for method in methods:
        est = krr_estimate(reported, eps, method=method)
        sq = (est - counts) ** 2
        if base_sq is None:
            base_sq = sq
        mse = sq.mean(axis=0)
        base = base_sq.mean(axis=0)
        diff = sq - base_sq
        coverage, coverage_se = krr_coverage(est, counts, eps, z=z)
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(base > 0, mse / np.where(base > 0, base, 1.0), np.nan)
        frames.append(pd.DataFrame(dict(
            method=method, category=np.arange(counts.size), mse=mse,
            mse_se=sq.std(axis=0, ddof=1) / np.sqrt(reps), diff=diff.mean(axis=0),
            diff_se=diff.std(axis=0, ddof=1) / np.sqrt(reps), ratio=ratio,
            coverage=coverage, coverage_se=coverage_se)))
    return pd.concat(frames, ignore_index=True)


def _plug_in_shares(shares: np.ndarray) -> np.ndarray:
    """Each row of ``shares`` clipped at 0 and renormalised to sum to 1 (uniform if none is
    > 0)."""
    pi = np.maximum(shares, 0.0)
    mass = pi.sum(axis=-1, keepdims=True)
    safe = np.where(mass > 0, mass, 1.0)
    return np.where(mass > 0, pi / safe, 1.0 / pi.shape[-1])


def _share_variance_per_user(pi: np.ndarray, eps: float) -> np.ndarray:
    """N·Var(n̂_v/N) at the true shares π (categories last): krr_variance at N π over N."""
    k = category_count(pi.shape[-1], "k", maximum=MAX_K)
    p, q = krr_probabilities(eps, k)
    d = _p_minus_q(eps, k)
    return q * (1 - q) / d**2 + pi * (1 - p - q) / d


def krr_interval_halfwidth(shares, n, eps, *, z: float = 2.0) -> np.ndarray:
    """Half-width z·sd of each category's estimated share, for classes of ``n`` users.

    The share estimate is n̂_v/N (the unbiased estimate over the number of users N). At
    true shares π_v and N users its variance is :func:`krr_variance` at the counts N π_v,
    divided by N²:

        Var(n̂_v/N) = [q(1 − q)/(p − q)² + π_v (1 − p − q)/(p − q)]/N,

    so the half-width z·sd falls as 1/√N. The shares are the assumed truth; when it is
    unknown, pass the current estimate: it is clipped at 0 and renormalised to sum to 1
    (uniform if no share is > 0) before use, as :func:`krr_share_estimate` does.

    Parameters
    ----------
    shares : array_like
        The assumed true shares π_v, one per category (1-D, at least 2, finite; negative
        entries are clipped at 0, then the whole is renormalised).
    n : float or array_like
        The numbers of users N, each > 0 (any shape: one half-width row per entry).
    eps : float
        ε > 0, the local privacy budget.
    z : float, optional
        Keyword-only: the number of standard deviations, > 0 (default 2; 1.96 for an
        approximate 95 % normal interval).

    Returns
    -------
    numpy.ndarray of float
        Shape ``np.shape(n) + (k,)``: the half-width of each category's share interval
        at each N.

    Raises
    ------
    ValueError
        If ``shares`` is not a 1-D array of at least 2 finite numbers, ``n`` holds a
        number that is not finite and > 0, or ``eps`` or ``z`` is not a finite number > 0.

    Notes
    -----
    The variance of the [KBR16] unbiased estimator (this project's
    :func:`krr_variance`), rescaled to shares; the use for planning a poll is this
    project's.

    Examples
    --------
    >>> from dpcore.ldp import krr_interval_halfwidth
    >>> krr_interval_halfwidth([0.5, 0.3, 0.2], [25, 100], 1.0).round(3)
    array([[0.498, 0.479, 0.469],
           [0.249, 0.239, 0.235]])

    Four times the class halves the half-width.
    """
    pi = finite_array(shares, "shares")
    if pi.ndim != 1 or pi.size < 2:
        raise ArgumentError("`{name}` must be a 1-D array of at least 2 probabilities.",
                            name="shares")
    size = finite_array(n, "n", sign="positive")
    eps = positive_scalar(eps, "eps")
    z = positive_scalar(z, "z")
    per_user = _share_variance_per_user(_plug_in_shares(pi), eps)
    return z * np.sqrt(per_user / size[..., None])


def krr_share_estimate(reported_counts, eps, *, z: float = 2.0):
    """Unbiased shares from k-RR reported counts, with a plug-in ± z·sd interval each.

    The shares are krr_estimate(reported_counts, eps)/N (N the number of reports); they
    sum to 1 and may be negative or above 1. The half-width of each interval is that of
    :func:`krr_interval_halfwidth` at the estimated shares clipped at 0 and
    renormalised (the plug-in), for N users. Leading axes are independent polls.

    What the interval covers: with z = 1.96 each is an approximate 95 % normal interval
    for its category's true share, pointwise (category by category, not for all at
    once), and only approximate, through the normal approximation and the plug-in, both
    poor for small classes or shares near 0. z = 2 (the default) is the two-standard-error
    whisker used elsewhere (about 95.4 % nominal). The ends are not cut to [0, 1]; a
    caller may cut them for display.

    Parameters
    ----------
    reported_counts : array_like
        The reported counts N_v: finite, ≥ 0, categories on the last axis (2 to
        ``MAX_K``), each histogram counting at least one user; leading axes are batches.
    eps : float
        ε > 0, the budget the reports were made with.
    z : float, optional
        Keyword-only: the number of standard deviations, > 0 (default 2).

    Returns
    -------
    shares, lower, upper : numpy.ndarray
        The unbiased share estimates and the interval ends shares ∓ z·sd, each in the
        shape of ``reported_counts``.

    Raises
    ------
    ValueError
        If ``reported_counts`` is not an array of finite counts ≥ 0 with 2 to ``MAX_K``
        categories, a histogram of it sums to 0, or ``eps`` or ``z`` is not a finite
        number > 0.

    Notes
    -----
    The unbiased estimator is [KBR16]'s; its variance (:func:`krr_variance`) and the
    plug-in normal interval are this project's.

    Examples
    --------
    >>> from dpcore.ldp import krr_share_estimate
    >>> shares, lower, upper = krr_share_estimate([40, 35, 25], 2.0, z=1.96)
    >>> shares.round(3), lower.round(3), upper.round(3)
    (array([0.431, 0.358, 0.211]), array([0.329, 0.258, 0.115]), array([0.534, 0.458, 0.307]))
    """
    z = positive_scalar(z, "z")
    counts = krr_estimate(reported_counts, eps)  # checks reported_counts and eps
    total = np.sum(reported_counts, axis=-1, keepdims=True, dtype=float)
    shares = counts / total
    half = z * np.sqrt(_share_variance_per_user(_plug_in_shares(shares), eps) / total)
    return shares, shares - half, shares + half
