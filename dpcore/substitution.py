"""Random substitution and l-extended random substitution [KLH09].

Symbols as in the source: N categories u_1 … u_N, n records, X the true counts,
Y the counts after perturbation.

**Random substitution** (Algorithm 1). Each record's value u_k is replaced by
u_h with probability m_hk, where M = xG is the γ-diagonal matrix of eq. (1):
m_kk = γx, m_hk = x for h ≠ k, x = 1/(γ + N − 1). Every output is at most γ
times more likely under one input than under another (γ-amplification,
Definition 3.2), i.e. ε = ln γ local differential privacy; l = 1 is k-ary
randomized response with k = N and e^ε = γ (:mod:`dpcore.ldp`).

E[Y] = MX, so X̂ = M⁻¹Y is unbiased, and M⁻¹ = c (I − xJ) with
c = (γ + N − 1)/(γ − 1) gives Theorem 3.2: X̂_i = c Y_i − n/(γ − 1).

Var(Y) := E‖Y − E Y‖² = (N − 1)(N + 2γ − 2) n/(γ + N − 1)² (one record adds
1 − Σ_h m_hk² = 1 − x²(γ² + N − 1)), so E‖X̂ − X‖² = c² Var(Y) and, with
‖X‖ ≥ n/√N, Theorem 4.1: σ_X̂/‖X‖ ≤ √(N(N − 1)(N + 2γ − 2))/((γ − 1)√n).
Correction: the source's proof says the X̂_i are independent. They are not
(they sum to n); E‖X̂ − X‖² = Σ_i Var(X̂_i) holds without independence.

**l-extended random substitution** (Algorithm 2). Each record is substituted l
times; a value already in the record's set is drawn again ("re-randomised"),
so the record releases a set S of l distinct values. Drawing until a new value
appears is sampling without replacement with weights γ (own value) and 1
(others). Hence, for a record with value k:

- the step t at which k enters S, if at all: k is still out after j draws with
  probability Π_{i<j} (N − 1 − i)/(γ + N − 1 − i), and enters at step j with
  probability γ/(γ + N − 1 − j) given that; so the inclusion probability is
  π = P(k ∈ S) = 1 − Π_{j=0}^{l−1} (N − 1 − j)/(γ + N − 1 − j);
- the other members of S: a uniform subset of the N − 1 other values, of
  size l − 1 if k ∈ S and l otherwise (all others have the same weight);
- the number of draws at step j: geometric, with success probability
  (γ + N − 1 − j)/(γ + N − 1) while k ∉ S and (N − j)/(γ + N − 1) once k ∈ S,
  independent of which value is accepted.

**Exact expectation and the unbiased reconstruction.** Each other value is in
S with probability b = (l − π)/(N − 1), so E[Y*] = AX with A = aI + bJ,
a = π − b. The source's X̂*/l = M⁻¹Y*/l assumes E[Y*] = l·MX (independent
draws); with re-randomisation π ≠ lγx, so it is biased unless X is uniform
(both A and lM map the uniform vector to l times itself). Since a + Nb = l,
A⁻¹ = (I − (b/l) J)/a and the unbiased reconstruction is
X̂ᵤ_i = (Y*_i − b n)/a. At l = 1, a = (γ − 1)x and b = x: Theorem 3.2.

**Exact errors.** One record contributes π(1 − π) + (N − 1) b(1 − b) to
E‖Y* − E Y*‖², and both reconstructions are (scaled) Y* plus a multiple of
the all-ones vector fixed by Σ Y* = ln, so
E‖X̂ᵤ − X‖² = n v/a² and E‖M⁻¹Y*/l − X‖² = (c/l)² n v + ‖bias‖²,
v = π(1 − π) + (N − 1) b(1 − b). Theorem 5.2's Var(X̂*/l) = Var(X̂)/l is
exact only for independent draws (no re-randomisation).

**Exact privacy of the released set.** P(S | x) takes two values only,
P_in = π/C(N − 1, l − 1) when x ∈ S and P_out = (1 − π)/C(N − 1, l) when
x ∉ S (S given x ∈ S is uniform among the sets containing x, and so on). So
ε_l = ln(P_in/P_out) = ln[π/(1 − π) · (N − l)/l], which is ln γ at l = 1. The
source's bound γ^l (Section 5.1) is exact for the multiset of l independent
draws without re-randomisation. Correction: the source says the smallest
p[u_i → y*] is at s_i = 1; it is at s_i = 0, as its own formula
1/(γ + N − 1)^l shows. If the order of the l values were released too, the
worst ratio is γ Π_{j=1}^{l−1} (γ + N − 1 − j)/(N − j) (the record's own
value drawn first), and ln γ ≤ ε_l ≤ ε_l(ordered) ≤ l ln γ.

Sampling the counts. ``random_substitution_counts`` uses that the γ-diagonal
column is the mixture "keep the value with probability (γ − 1)x, otherwise
draw uniformly from all N": O(N) work whatever n. ``extended_random_substitution``
draws the inclusion of each record's own value per category (binomial), the
steps and draws per step (multinomial and negative binomial), and then the
uniform subsets of other values, given their sizes, in one of two ways with
the same distribution (whichever a cost estimate says is faster):

- by column, O(N²·l) work whatever n: a record still needing s values among
  the K remaining candidates takes the next one with probability s/K, so the
  records of one category at one need level take it binomially;
- by record, O(n·l) work (for l ≪ N): each record's picks are drawn one after
  another uniformly from the N − 1 values other than its own (an index
  0 … N − 2 shifted past it), a pick equal to an earlier one of the same
  record is drawn again, which is sampling without replacement; then counted.

Either way exactly the distribution of running Algorithm 2 record by record
(tested against a literal implementation): given whether a record's own value
is in S, the other members are a uniform subset of its size, independent of
the step at which the own value entered and of the number of draws.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dpcore.errors import ArgumentError
from dpcore.validation import (
    category_count,
    category_indices,
    count_array,
    one_of,
    positive_integer,
    probability,
    whole_count_array,
)

__all__ = [
    "ESTIMATORS",
    "MAX_CATEGORIES",
    "ExtendedRelease",
    "breach_gamma",
    "collision_probability",
    "condition_number",
    "error_table",
    "expectation_matrix",
    "expected_draws",
    "expected_standard_error",
    "extended_epsilon",
    "extended_random_substitution",
    "gamma_diagonal_matrix",
    "inclusion_probability",
    "paper_grid",
    "posterior_bound",
    "random_substitution",
    "random_substitution_counts",
    "reconstruct",
    "reconstruct_unbiased",
    "reconstruction_bias",
    "standard_error_bound",
]

ESTIMATORS = {
    "source": "X̂*/l = M⁻¹Y*/l (the source's, Theorem 3.2 divided by l)",
    "unbiased": "A⁻¹Y* (from the exact expectation under re-randomisation)",
}
MAX_CATEGORIES = 10_000
MAX_REPS = 100_000
# The source's experiment (Section 6): (N, γ), n, l, data shapes. The source does not say
# which normal; "normal" is datasets.shape_probabilities', from [SPJ22] section 2.3.
PAPER_SETTINGS = ((50, 5.0), (100, 10.0))
PAPER_N = (5_000, 50_000)
PAPER_L = (1, 2, 4)
PAPER_SHAPES = ("uniform", "normal")


# --- argument checks bound to random substitution (the others: dpcore.validation) -------------

def _gamma(gamma) -> float:
    try:
        out = float(gamma)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be a number > 1, got {value!r}.", name="gamma",
                            value=gamma) from None
    if not np.isfinite(out) or out <= 1:
        raise ArgumentError("`{name}` must be a finite number > 1 (γ = 1 hides everything and "
                            "cannot be inverted), got {value!r}.", name="gamma", value=gamma)
    return out


def _categories(n_categories) -> int:
    return category_count(n_categories, "n_categories", maximum=MAX_CATEGORIES)


def _l(l, n_categories: int, *, below: bool = True) -> int:
    l = positive_integer(l, "l")
    if below and l >= n_categories:
        raise ArgumentError("`{name}` must be below the number of categories N = {n_categories} "
                            "(1 ≤ l < N), got {value}.", name="l", n_categories=n_categories,
                            value=l)
    return l


def _whole_counts(counts, name: str) -> np.ndarray:
    arr = whole_count_array(counts, name, min_bins=2)
    _categories(arr.shape[-1])
    return arr


def _one_histogram(counts) -> np.ndarray:
    x = _whole_counts(counts, "counts")
    if x.ndim != 1:
        raise ArgumentError("`{name}` must be one histogram (a 1-D array); use `size` for "
                            "replicates.", name="counts")
    return x


def _size(size) -> tuple[int, ...]:
    if size is None:
        return ()
    return (positive_integer(size, "size", maximum=MAX_REPS),)


# --- the mechanism -----------------------------------------------------------------------------

def gamma_diagonal_matrix(n_categories, gamma) -> np.ndarray:
    """M = xG of eq. (1): m_hk = P(u_k → u_h), γx on the diagonal, x off it; columns sum to 1.

    Parameters
    ----------
    n_categories : int
        N, the number of categories, from 2 to ``MAX_CATEGORIES``.
    gamma : float
        γ > 1, the amplification: the diagonal weight of the γ-diagonal matrix.

    Returns
    -------
    numpy.ndarray
        The N × N matrix M, x = 1/(γ + N − 1).

    Raises
    ------
    ValueError
        If ``n_categories`` is not an integer from 2 to ``MAX_CATEGORIES``, or
        ``gamma`` is not a finite number > 1.

    Notes
    -----
    [KLH09] eq. (1), the transition matrix of random substitution (Algorithm 1).
    Every ratio m_hk₁/m_hk₂ is at most γ (γ-amplification, [KLH09] Definition 3.2).

    Examples
    --------
    >>> from dpcore.substitution import gamma_diagonal_matrix
    >>> M = gamma_diagonal_matrix(4, 3.0)
    >>> M.round(4)
    array([[0.5   , 0.1667, 0.1667, 0.1667],
           [0.1667, 0.5   , 0.1667, 0.1667],
           [0.1667, 0.1667, 0.5   , 0.1667],
           [0.1667, 0.1667, 0.1667, 0.5   ]])
    >>> M.sum(axis=0)
    array([1., 1., 1., 1.])
    """
    n, g = _categories(n_categories), _gamma(gamma)
    x = 1.0 / (g + n - 1)
    return np.full((n, n), x) + np.diag(np.full(n, (g - 1) * x))


def condition_number(n_categories, gamma) -> float:
    """The 2-norm condition number of M: 1 + N/(γ − 1) (eigenvalues 1 and (γ − 1)x).

    Parameters
    ----------
    n_categories : int
        N, the number of categories, from 2 to ``MAX_CATEGORIES``.
    gamma : float
        γ > 1, the amplification: the diagonal weight of the γ-diagonal matrix.

    Returns
    -------
    float
        1 + N/(γ − 1), the ratio of M's eigenvalues 1 and (γ − 1)x.

    Raises
    ------
    ValueError
        If ``n_categories`` is not an integer from 2 to ``MAX_CATEGORIES``, or
        ``gamma`` is not a finite number > 1.

    Notes
    -----
    [KLH09] Section 3.2.1 gives 1 + N/(γ − 1) (after Agrawal and Haritsa); the
    eigenvalue argument is this project's.

    Examples
    --------
    >>> from dpcore.substitution import condition_number, gamma_diagonal_matrix
    >>> condition_number(50, 5.0)
    13.5
    >>> round(float(np.linalg.cond(gamma_diagonal_matrix(50, 5.0))), 6)
    13.5
    """
    n, g = _categories(n_categories), _gamma(gamma)
    return 1.0 + n / (g - 1)


def random_substitution(values, gamma, n_categories, *, rng=None) -> np.ndarray:
    """Algorithm 1 on each record: category indices 0 … N − 1 in, substituted indices out.

    A record keeps its value with probability m_kk = γx; otherwise it gets one
    of the N − 1 other values, uniformly (a draw from 0 … N − 2 shifted past
    its own value). Vectorised over records.

    Parameters
    ----------
    values : array_like of int
        The records' values, category indices 0 … N − 1 (any shape).
    gamma : float
        γ > 1, the amplification: the diagonal weight of the γ-diagonal matrix.
    n_categories : int
        N, the number of categories, from 2 to ``MAX_CATEGORIES``.
    rng : None, int or numpy.random.Generator, optional
        The random source, normalised by ``np.random.default_rng``.

    Returns
    -------
    numpy.ndarray of int64
        The substituted indices, in the shape of ``values``.

    Raises
    ------
    ValueError
        If ``n_categories`` is not an integer from 2 to ``MAX_CATEGORIES``, ``gamma``
        is not a finite number > 1, or ``values`` holds anything but whole numbers
        0 … N − 1.

    Notes
    -----
    [KLH09] Algorithm 1 with M of eq. (1). The source draws r and searches the
    cumulative column of M; this project draws keep-or-other directly, which has
    the same distribution.

    Examples
    --------
    >>> from dpcore.substitution import random_substitution
    >>> random_substitution([0, 1, 2, 3, 0, 1], 3.0, 4, rng=1)
    array([1, 3, 2, 1, 0, 1])
    """
    rng = np.random.default_rng(rng)
    n, g = _categories(n_categories), _gamma(gamma)
    arr = category_indices(values, "values", n)
    keep = rng.random(arr.shape) < g / (g + n - 1)
    other = rng.integers(0, n - 1, size=arr.shape)
    other += other >= arr
    return np.where(keep, arr, other)


def random_substitution_counts(counts, gamma, *, size=None, rng=None) -> np.ndarray:
    """Y drawn from the true counts X directly: the distribution of Algorithm 1, O(N) per draw.

    Keep each record with probability (γ − 1)x (binomial per category); every
    other record takes a uniform value among all N (one multinomial). With
    ``size=R``, R independent releases, shape (R, N).

    Parameters
    ----------
    counts : array_like of int
        X, one histogram of whole counts ≥ 0 (1-D, 2 to ``MAX_CATEGORIES`` bins).
    gamma : float
        γ > 1, the amplification: the diagonal weight of the γ-diagonal matrix.
    size : int, optional
        R, the number of independent releases (1 to 100,000); None (default) for one.
    rng : None, int or numpy.random.Generator, optional
        The random source, normalised by ``np.random.default_rng``.

    Returns
    -------
    numpy.ndarray of int64
        Y, shape (N,), or (R, N) with ``size``; each release sums to n = Σ X.

    Raises
    ------
    ValueError
        If ``counts`` is not one histogram of whole counts ≥ 0 with 2 to
        ``MAX_CATEGORIES`` bins, ``gamma`` is not a finite number > 1, or ``size``
        is not an integer from 1 to 100,000.

    Notes
    -----
    The distribution of [KLH09] Algorithm 1 run on every record, drawn by this
    project's mixture representation (module notes): (γ − 1)x + x = γx = m_kk.

    Examples
    --------
    >>> from dpcore.substitution import random_substitution_counts
    >>> random_substitution_counts([10, 20, 30, 40], 3.0, rng=1)
    array([17, 25, 26, 32])
    >>> random_substitution_counts([10, 20, 30, 40], 3.0, size=3, rng=1).sum(axis=1)
    array([100, 100, 100])
    """
    rng = np.random.default_rng(rng)
    x, g = _one_histogram(counts), _gamma(gamma)
    n_cat = x.size
    shape = _size(size)
    kept = rng.binomial(x, (g - 1) / (g + n_cat - 1), size=shape + (n_cat,))
    spread = rng.multinomial(x.sum() - kept.sum(axis=-1), np.full(n_cat, 1.0 / n_cat))
    return kept + spread


def inclusion_probability(n_categories, gamma, l) -> float:
    """π = P(own value ∈ S) = 1 − Π_{j=0}^{l−1} (N − 1 − j)/(γ + N − 1 − j).

    Parameters
    ----------
    n_categories : int
        N, the number of categories, from 2 to ``MAX_CATEGORIES``.
    gamma : float
        γ > 1, the amplification: the diagonal weight of the γ-diagonal matrix.
    l : int
        The number of values each record releases, 1 ≤ l < N.

    Returns
    -------
    float
        π, the probability that the set S of l distinct values a record releases
        under Algorithm 2 holds the record's own value; γx at l = 1.

    Raises
    ------
    ValueError
        If ``n_categories`` is not an integer from 2 to ``MAX_CATEGORIES``, ``gamma``
        is not a finite number > 1, or ``l`` is not an integer with 1 ≤ l < N.

    Notes
    -----
    For [KLH09] Algorithm 2 with re-randomisation; the formula is not in the
    source, it is this project's (module notes): the draws are sampling without
    replacement with weights γ (own value) and 1 (others).

    Examples
    --------
    >>> from dpcore.substitution import inclusion_probability
    >>> round(inclusion_probability(50, 5.0, 1), 6), round(5 / 54, 6)
    (0.092593, 0.092593)
    >>> round(inclusion_probability(50, 5.0, 4), 4)
    0.33
    """
    n, g = _categories(n_categories), _gamma(gamma)
    l = _l(l, n)
    return float(-np.expm1(_log_out(n, g, l)))


def _log_out(n: int, g: float, l: int) -> float:
    """ln(1 − π) = Σ_{j<l} ln((N − 1 − j)/(γ + N − 1 − j)), without cancellation."""
    j = np.arange(l)
    return float(np.sum(-np.log1p(g / (n - 1 - j))))


def _steps(n: int, g: float, l: int) -> tuple[np.ndarray, float]:
    """P(own value enters S at step t), t = 0 … l − 1, and P(never) = 1 − π."""
    w = g + n - 1
    j = np.arange(l)
    still_out = np.concatenate([[1.0], np.cumprod((n - 1 - j) / (w - j))])
    return still_out[:-1] * g / (w - j), float(still_out[-1])


def expectation_matrix(n_categories, gamma, l) -> np.ndarray:
    """A with E[Y*] = A X under Algorithm 2: π on the diagonal, (l − π)/(N − 1) off it.

    Columns sum to l. At l = 1 it is the γ-diagonal matrix M.

    Parameters
    ----------
    n_categories : int
        N, the number of categories, from 2 to ``MAX_CATEGORIES``.
    gamma : float
        γ > 1, the amplification: the diagonal weight of the γ-diagonal matrix.
    l : int
        The number of values each record releases, 1 ≤ l < N.

    Returns
    -------
    numpy.ndarray
        The N × N matrix A = aI + bJ, b = (l − π)/(N − 1), a = π − b, π from
        :func:`inclusion_probability`.

    Raises
    ------
    ValueError
        If ``n_categories`` is not an integer from 2 to ``MAX_CATEGORIES``, ``gamma``
        is not a finite number > 1, or ``l`` is not an integer with 1 ≤ l < N.

    Notes
    -----
    This project's: [KLH09] Section 5 takes E[Y*] = l·MX, true for independent
    draws but not with the re-randomisation of its Algorithm 2.

    Examples
    --------
    >>> from dpcore.substitution import expectation_matrix, gamma_diagonal_matrix
    >>> expectation_matrix(4, 3.0, 2).round(4)
    array([[0.8, 0.4, 0.4, 0.4],
           [0.4, 0.8, 0.4, 0.4],
           [0.4, 0.4, 0.8, 0.4],
           [0.4, 0.4, 0.4, 0.8]])
    >>> bool(np.allclose(expectation_matrix(4, 3.0, 1), gamma_diagonal_matrix(4, 3.0)))
    True
    """
    n = _categories(n_categories)
    pi = inclusion_probability(n, gamma, l)
    b = (l - pi) / (n - 1)
    return np.full((n, n), b) + np.diag(np.full(n, pi - b))


@dataclass(frozen=True)
class ExtendedRelease:
    """The output of ``extended_random_substitution``.

    ``counts``: Y*, how many records' sets hold each category (sums to n·l);
    ``draws``: how many random draws Algorithm 2 made, re-draws included
    (at least n·l). With ``size=R`` both have a leading axis of length R.

    A container of this project for [KLH09] Algorithm 2's output and cost.

    Attributes
    ----------
    counts : numpy.ndarray of int64
        Y*, shape (N,) or (R, N).
    draws : int or numpy.ndarray of int64
        The number of random draws, re-draws included: an int, or shape (R,).
    n : int
        The number of records, Σ X.
    l : int
        The number of values each record releases.

    Examples
    --------
    >>> from dpcore.substitution import extended_random_substitution
    >>> release = extended_random_substitution([10, 20, 30, 40], 3.0, 2, rng=1)
    >>> release.n, release.l, int(release.counts.sum()), release.draws >= release.n * release.l
    (100, 2, 200, True)
    """

    counts: np.ndarray
    draws: np.ndarray | int
    n: int
    l: int


def _negative_binomial(rng, successes: np.ndarray, p: float) -> np.ndarray:
    """Failures before `successes` successes; 0 where `successes` is 0."""
    if p >= 1.0:
        return np.zeros_like(successes)
    safe = np.maximum(successes, 1)
    return np.where(successes > 0, rng.negative_binomial(safe, p), 0)


def _draw_others(need: np.ndarray, rng) -> np.ndarray:
    """Counts of the uniform subsets of 'other' values that records still need.

    ``need[..., k, s]`` records of category k need s distinct values among the
    N − 1 values other than k. Categories h = 0 … N − 1 are visited in turn: a
    record of category k ≠ h needing s among the K candidates not yet visited
    (h included) takes h with probability s/K, so those records take it
    binomially, and their need drops by one.
    """
    n = need.shape[-2]
    levels = np.arange(1, need.shape[-1], dtype=float)  # need 0 takes nothing
    k = np.arange(n)
    m = need[..., 1:].copy()
    out = np.zeros(need.shape[:-1], dtype=np.int64)
    for h in range(n):
        candidates = (n - h) - (k > h)  # values other than k among h … N − 1
        p = np.minimum(levels[None, :] / candidates[:, None], 1.0)
        p[h] = 0.0
        took = rng.binomial(m, p)
        out[..., h] = took.sum(axis=(-2, -1))
        m -= took
        m[..., :-1] += took[..., 1:]
    return out


# Cost model of the two ways to draw the other values, in seconds (fitted on one machine; only
# their ratio matters). By column: N steps, each a fixed cost plus binomials on R·N·l counts,
# dearer the more records a count holds (μ = n/(N·l) on average). By record: a fixed cost,
# numpy calls for each pick j of the l (one per earlier pick, per round of redraws), and per
# record the picks (redraws included) and the comparisons with earlier picks.
_COLUMN_STEP_S = 2e-5
_COLUMN_CELL_S = 1e-8
_COLUMN_COUNT_S = 7e-8
_RECORD_FIXED_S = 1e-4
_RECORD_CALL_S = 1e-6
_RECORD_PICK_S = 4e-9
_RECORD_COMPARE_S = 1e-9
_RECORD_CHUNK = 1 << 21  # picks drawn at once by record (bounds the memory)
OTHERS_PATHS = ("column", "record")


def _others_path(n: int, n_cat: int, l: int, reps: int) -> str:
    """'record' or 'column': the cheaper way to draw the other values, by the cost model.

    n records, N categories, l values per record, R replicates. By record only
    while l ≤ N/4 (its comparisons grow as l², its redraws with l/N).
    """
    if 4 * l > n_cat:
        return "column"
    mu = n / (n_cat * l)
    cell = _COLUMN_CELL_S + _COLUMN_COUNT_S * mu / (mu + 3)
    column = n_cat * (_COLUMN_STEP_S + reps * n_cat * l * cell)
    j = np.arange(1, l)
    repeat = j / (n_cat - 1)  # P(pick j is one of the record's earlier picks)
    rounds = 1 + np.log(np.maximum(reps * n * repeat, 1.0)) / -np.log(repeat)
    calls = float(np.sum((1 + rounds) * (j + 3)))
    picks = l + float(np.sum(repeat / (1 - repeat)))  # per record, redraws included
    per_record = _RECORD_PICK_S * picks + _RECORD_COMPARE_S * l * (l - 1) / 2
    record = _RECORD_FIXED_S + _RECORD_CALL_S * calls + reps * n * per_record
    return "record" if record < column else "column"


def _draw_others_by_record(x: np.ndarray, own: np.ndarray, l: int, rng) -> np.ndarray:
    """The counts of the other values, record by record (vectorised); shape of ``own``.

    ``own[..., k]`` of the x_k records of category k hold their own value and
    need l − 1 other values, the remaining x_k − own_k need l. For each record,
    pick j is drawn uniformly from the N − 1 values other than its own and
    drawn again while it equals one of its picks 0 … j − 1: a uniform subset
    of the non-own values, of the size needed. The records of all replicates
    (cells r·N + k, each its x_k − own_k records needing l, then its own_k)
    are drawn in chunks of ``_RECORD_CHUNK // l`` records.
    """
    n_cat = x.size
    own_flat = own.reshape(-1)
    short = np.broadcast_to(x, own.shape).reshape(-1) - own_flat  # records needing l
    ends = np.cumsum(short + own_flat)
    starts = np.concatenate([[0], ends[:-1]])
    out = np.zeros(own_flat.size, dtype=np.int64)
    step = max(1, _RECORD_CHUNK // l)
    for lo in range(0, int(ends[-1]), step):
        hi = lo + step
        c0 = int(np.searchsorted(ends, lo, side="right"))  # the cells with records in [lo, hi)
        c1 = int(np.searchsorted(starts, hi, side="left"))
        done = np.maximum(lo - starts[c0:c1], 0)
        take = np.minimum(ends[c0:c1], hi) - starts[c0:c1] - done
        s_part = np.clip(short[c0:c1] - done, 0, take)
        r0, r1 = c0 // n_cat, (c1 - 1) // n_cat + 1  # the replicates they belong to
        out[r0 * n_cat:r1 * n_cat] += _picks_counted(c0, s_part, take - s_part, n_cat, l, rng)
    return out.reshape(own.shape)


def _picks_counted(first: int, short: np.ndarray, own: np.ndarray, n_cat: int, l: int,
                   rng) -> np.ndarray:
    """One chunk of ``_draw_others_by_record``: cells first, first + 1, … (cell r·N + k).

    ``short`` records of each cell need l other values, ``own`` need l − 1.
    Returns the counts of the values picked, for cells r0·N … r1·N − 1 (the
    whole replicates r0 … r1 − 1 the cells belong to).
    """
    r0 = first // n_cat
    span = ((first + short.size - 1) // n_cat + 1 - r0) * n_cat
    cells = np.arange(first - r0 * n_cat, first - r0 * n_cat + short.size, dtype=np.int32)
    # rows: first the records needing l picks, then those needing l − 1
    n_out = int(short.sum())
    key = np.concatenate([np.repeat(cells, short), np.repeat(cells, own)])
    n_rows = key.size
    value_type = np.int16 if n_cat <= 2**15 else np.int32
    one_replicate = span == n_cat
    owner = (key if one_replicate else key % n_cat).astype(value_type)
    picks = rng.integers(0, n_cat - 1, size=(l, n_rows), dtype=value_type)
    picks += picks >= owner
    for j in range(1, l):
        rows = n_rows if j < l - 1 else n_out  # the last pick only for records needing l
        col = picks[j, :rows]
        dup = col == picks[0, :rows]
        for i in range(1, j):
            dup |= col == picks[i, :rows]
        idx = np.flatnonzero(dup)
        while idx.size:
            new = rng.integers(0, n_cat - 1, size=idx.size, dtype=value_type)
            new += new >= owner[idx]
            col[idx] = new
            again = new == picks[0, idx]
            for i in range(1, j):
                again |= new == picks[i, idx]
            idx = idx[again]
    if one_replicate:
        full = np.bincount(picks[: l - 1].ravel(), minlength=span)
        full += np.bincount(picks[l - 1, :n_out], minlength=span)
    else:
        base = key - owner  # (r − r0)·N for the rows of replicate r
        full = np.bincount((picks[: l - 1] + base).ravel(), minlength=span)
        full += np.bincount(picks[l - 1, :n_out] + base[:n_out], minlength=span)
    return full


def extended_random_substitution(counts, gamma, l, *, size=None, rng=None) -> ExtendedRelease:
    """Algorithm 2 (l-extended random substitution with re-randomisation), from the counts.

    The same joint distribution of (Y*, draws) as running Algorithm 2 record
    by record (see the module notes), in O(min(N²·l, n·l)) work: the other
    values by column or by record, whichever ``_others_path`` estimates is
    cheaper. With ``size=R``, R independent releases.

    Parameters
    ----------
    counts : array_like of int
        X, one histogram of whole counts ≥ 0 (1-D, 2 to ``MAX_CATEGORIES`` bins).
    gamma : float
        γ > 1, the amplification: the diagonal weight of the γ-diagonal matrix.
    l : int
        The number of distinct values each record releases, 1 ≤ l < N.
    size : int, optional
        R, the number of independent releases (1 to 100,000); None (default) for one.
    rng : None, int or numpy.random.Generator, optional
        The random source, normalised by ``np.random.default_rng``.

    Returns
    -------
    ExtendedRelease
        ``counts`` (Y*, each release summing to n·l), ``draws`` (re-draws
        included), ``n`` = Σ X and ``l``.

    Raises
    ------
    ValueError
        If ``counts`` is not one histogram of whole counts ≥ 0 with 2 to
        ``MAX_CATEGORIES`` bins, ``gamma`` is not a finite number > 1, ``l`` is not
        an integer with 1 ≤ l < N, or ``size`` is not an integer from 1 to 100,000.

    Notes
    -----
    [KLH09] Algorithm 2 (with M of eq. (1)). The sampling from the counts, by
    inclusion of the own value, step, geometric draws and uniform subsets of the
    other values, is this project's; it is tested against a literal record-by-record
    implementation.

    Examples
    --------
    >>> from dpcore.substitution import expectation_matrix, extended_random_substitution
    >>> release = extended_random_substitution([10, 20, 30, 40], 3.0, 2, rng=1)
    >>> release.counts, release.draws
    (array([51, 41, 53, 55]), 281)

    Over many releases the mean of Y* is A X (:func:`expectation_matrix`):

    >>> many = extended_random_substitution([10, 20, 30, 40], 3.0, 2, size=1000, rng=1)
    >>> many.counts.mean(axis=0).round(1), expectation_matrix(4, 3.0, 2) @ [10, 20, 30, 40]
    (array([44.3, 47.8, 51.9, 56.1]), array([44., 48., 52., 56.]))
    """
    rng = np.random.default_rng(rng)
    x, g = _one_histogram(counts), _gamma(gamma)
    n_cat = x.size
    l = _l(l, n_cat)
    shape = _size(size)
    step_p, never_p = _steps(n_cat, g, l)
    pi = 1.0 - never_p
    own = rng.binomial(x, pi, size=shape + (n_cat,))
    total = int(x.sum())
    path = _others_path(total, n_cat, l, shape[0] if shape else 1)
    if path == "record":
        y = own + _draw_others_by_record(x, own, l, rng)
    elif path == "column":
        need = np.zeros(shape + (n_cat, l + 1), dtype=np.int64)
        need[..., l - 1] = own
        need[..., l] = x - own
        y = own + _draw_others(need, rng)
    else:
        raise ArgumentError("unknown path {path!r}; expected one of {choices}.", path=path,
                            choices=OTHERS_PATHS)

    # Draws: which step each included record took its own value at, then geometric draws per step.
    included = own.sum(axis=-1)
    entered = rng.multinomial(included, step_p / pi) if l > 1 else included[..., None]
    w = g + n_cat - 1
    draws = np.zeros(shape, dtype=np.int64)
    for j in range(l):
        inside = entered[..., :j].sum(axis=-1)  # own value already in S before step j
        outside = total - inside
        draws += outside + _negative_binomial(rng, outside, (w - j) / w)
        draws += inside + _negative_binomial(rng, inside, (n_cat - j) / w)
    return ExtendedRelease(counts=y, draws=draws if shape else int(draws), n=total, l=l)


def expected_draws(n, n_categories, gamma, l) -> float:
    """E[draws] of Algorithm 2 for n records: n Σ_j [P(out) w/(w − j) + P(in) w/(N − j)].

    w = γ + N − 1; P(out) and P(in) are the probabilities that the record's own
    value is not yet, or already, in its set before step j = 0 … l − 1.

    Parameters
    ----------
    n : int
        The number of records, ≥ 1.
    n_categories : int
        N, the number of categories, from 2 to ``MAX_CATEGORIES``.
    gamma : float
        γ > 1, the amplification: the diagonal weight of the γ-diagonal matrix.
    l : int
        The number of values each record releases, 1 ≤ l < N.

    Returns
    -------
    float
        The expected number of random draws, re-draws included (n at l = 1).

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer, ``n_categories`` is not an integer from
        2 to ``MAX_CATEGORIES``, ``gamma`` is not a finite number > 1, or ``l`` is
        not an integer with 1 ≤ l < N.

    Notes
    -----
    The cost measure of [KLH09] Sections 5.3 and 6 (the total number of random
    draws including re-randomisations); the exact expectation is this project's.

    Examples
    --------
    >>> from dpcore.substitution import expected_draws
    >>> expected_draws(100, 4, 3.0, 1), expected_draws(100, 4, 3.0, 2)
    (100.0, 260.0)
    """
    n = positive_integer(n, "n")
    n_cat, g = _categories(n_categories), _gamma(gamma)
    l = _l(l, n_cat)
    w = g + n_cat - 1
    j = np.arange(l)
    out = np.concatenate([[1.0], np.cumprod((n_cat - 1 - j) / (w - j))])[:-1]
    return float(n * np.sum(out * w / (w - j) + (1 - out) * w / (n_cat - j)))


# --- reconstruction ----------------------------------------------------------------------------

def _released(y, name: str = "y") -> np.ndarray:
    arr = count_array(y, name, min_bins=2)
    _categories(arr.shape[-1])
    return arr


def reconstruct(y, gamma, *, l=1) -> np.ndarray:
    """The source's reconstruction: Theorem 3.2 applied to Y (or Y*), divided by l.

    X̂ = [(γ + N − 1) Y − (Σ Y)]/((γ − 1) l). Unbiased at l = 1; with
    re-randomisation (l > 1) biased unless X is uniform. Correction: the proof
    of Theorem 5.2 writes X̂*_j = c Y*_j + nl/(γ − 1); the sign is minus, as in
    Theorem 3.2 and the line that follows in the source.

    Parameters
    ----------
    y : array_like
        Y (or Y*): released counts, finite and ≥ 0, categories on the last axis (2
        to ``MAX_CATEGORIES``); leading axes are replicates.
    gamma : float
        γ > 1, the γ of the γ-diagonal matrix the counts were released with.
    l : int, optional
        The number of values per record (default 1): Y* is divided by l.

    Returns
    -------
    numpy.ndarray of float
        X̂ (or X̂*/l), in the shape of ``y``; each histogram sums to Σ Y/l.

    Raises
    ------
    ValueError
        If ``y`` is not an array of finite counts ≥ 0 with 2 to ``MAX_CATEGORIES``
        categories, ``gamma`` is not a finite number > 1, or ``l`` is not a positive
        integer.

    Notes
    -----
    [KLH09] Theorem 3.2, X̂_i = c Y_i − n/(γ − 1) with c = (γ + N − 1)/(γ − 1),
    i.e. X̂ = M⁻¹Y; for l > 1 the X̂*/l of Section 5.1. Its bias under Algorithm 2
    is :func:`reconstruction_bias`.

    Examples
    --------
    >>> from dpcore.substitution import gamma_diagonal_matrix, reconstruct
    >>> y = [17, 25, 26, 32]
    >>> reconstruct(y, 3.0)
    array([ 1., 25., 28., 46.])
    >>> bool(np.allclose(reconstruct(y, 3.0), np.linalg.solve(gamma_diagonal_matrix(4, 3.0), y)))
    True
    """
    y = _released(y)
    g = _gamma(gamma)
    l = positive_integer(l, "l")
    n_cat = y.shape[-1]
    return ((g + n_cat - 1) * y - y.sum(axis=-1, keepdims=True)) / ((g - 1) * l)


def reconstruct_unbiased(y, gamma, l) -> np.ndarray:
    """A⁻¹Y*: unbiased under Algorithm 2 for any X. X̂_i = (Y*_i − b n)/a, n = ΣY*/l.

    Parameters
    ----------
    y : array_like
        Y*: released counts, finite and ≥ 0, categories on the last axis (2 to
        ``MAX_CATEGORIES``); leading axes are replicates.
    gamma : float
        γ > 1, the γ of the γ-diagonal matrix.
    l : int
        The number of values per record, 1 ≤ l < N.

    Returns
    -------
    numpy.ndarray of float
        X̂ᵤ = A⁻¹Y*, in the shape of ``y``; A = aI + bJ of
        :func:`expectation_matrix`.

    Raises
    ------
    ValueError
        If ``y`` is not an array of finite counts ≥ 0 with 2 to ``MAX_CATEGORIES``
        categories, ``gamma`` is not a finite number > 1, or ``l`` is not an integer
        with 1 ≤ l < N.

    Notes
    -----
    Beyond [KLH09]: this project's, from the exact expectation under
    re-randomisation (module notes). At l = 1 it is Theorem 3.2.

    Examples
    --------
    Applied to the expectation A X it returns X exactly, where the source's
    X̂*/l does not:

    >>> from dpcore.substitution import expectation_matrix, reconstruct, reconstruct_unbiased
    >>> expected = expectation_matrix(4, 3.0, 2) @ [10, 20, 30, 40]
    >>> reconstruct_unbiased(expected, 3.0, 2).round(6), reconstruct(expected, 3.0, l=2)
    (array([10., 20., 30., 40.]), array([16., 22., 28., 34.]))
    """
    y = _released(y)
    n_cat = y.shape[-1]
    g = _gamma(gamma)
    l = _l(l, n_cat)
    a, b = _a_b(n_cat, g, l)
    n = y.sum(axis=-1, keepdims=True) / l
    return (y - b * n) / a


def _a_b(n_cat: int, g: float, l: int) -> tuple[float, float]:
    """A = aI + bJ; a = (Nπ − l)/(N − 1) > 0 computed from 1 − π to keep digits."""
    out = math.exp(_log_out(n_cat, g, l))
    pi = -math.expm1(_log_out(n_cat, g, l))
    b = (l - pi) / (n_cat - 1)
    a = ((n_cat - l) - n_cat * out) / (n_cat - 1)  # = (Nπ − l)/(N − 1)
    return a, b


def reconstruction_bias(counts, gamma, l, *, estimator="source") -> np.ndarray:
    """E[X̂] − X, exactly, for the true counts X under Algorithm 2 (zero for 'unbiased').

    Parameters
    ----------
    counts : array_like
        X: true counts, finite and ≥ 0, categories on the last axis (at least 2).
    gamma : float
        γ > 1, the γ of the γ-diagonal matrix.
    l : int
        The number of values per record, 1 ≤ l < N.
    estimator : {"source", "unbiased"}, optional
        :func:`reconstruct` (``"source"``, default) or :func:`reconstruct_unbiased`.

    Returns
    -------
    numpy.ndarray of float
        E[X̂] − X, in the shape of ``counts``: (c a/l − 1) X + (c/l)(b − l x) n for
        the source's, with c = (γ + N − 1)/(γ − 1), x = 1/(γ + N − 1), n = Σ X;
        zeros for ``"unbiased"``.

    Raises
    ------
    ValueError
        If ``estimator`` is not a key of ``ESTIMATORS``, ``counts`` is not an array
        of finite counts ≥ 0 with at least 2 categories, ``gamma`` is not a finite
        number > 1, or ``l`` is not an integer with 1 ≤ l < N.

    Notes
    -----
    This project's, from E[Y*] = A X (:func:`expectation_matrix`). [KLH09] takes
    the source's X̂*/l as unbiased; with re-randomisation it is only at l = 1 or
    for uniform X.

    Examples
    --------
    >>> from dpcore.substitution import reconstruction_bias
    >>> reconstruction_bias([10, 20, 30, 40], 3.0, 2).round(6)
    array([ 6.,  2., -2., -6.])
    >>> bool(np.allclose(reconstruction_bias([25, 25, 25, 25], 3.0, 2), 0))
    True
    """
    one_of(estimator, "estimator", ESTIMATORS)
    x = count_array(counts, "counts", min_bins=2).astype(float)
    n_cat = x.shape[-1]
    g = _gamma(gamma)
    l = _l(l, n_cat)
    if estimator == "unbiased":
        return np.zeros_like(x)
    a, b = _a_b(n_cat, g, l)
    n = x.sum(axis=-1, keepdims=True)
    c = (g + n_cat - 1) / (g - 1)
    return (c * a / l - 1.0) * x + (c / l) * (b - l / (g + n_cat - 1)) * n


def expected_standard_error(counts, gamma, l=1, *, estimator="source") -> float:
    """√E‖X̂ − X‖² / ‖X‖ exactly (variance plus squared bias; see the module notes).

    Parameters
    ----------
    counts : array_like
        X: one histogram of true counts (1-D, finite, ≥ 0, at least 2 bins, not all 0).
    gamma : float
        γ > 1, the γ of the γ-diagonal matrix.
    l : int, optional
        The number of values per record, 1 ≤ l < N (default 1).
    estimator : {"source", "unbiased"}, optional
        :func:`reconstruct` (``"source"``, default) or :func:`reconstruct_unbiased`.

    Returns
    -------
    float
        The standard error σ_X̂/‖X‖ of [KLH09] Section 4.1, exactly: with
        v = n[π(1 − π) + (N − 1) b(1 − b)], E‖X̂ᵤ − X‖² = v/a² and
        E‖X̂*/l − X‖² = (c/l)² v + ‖bias‖².

    Raises
    ------
    ValueError
        If ``estimator`` is not a key of ``ESTIMATORS``, ``counts`` is not one
        histogram of finite counts ≥ 0 with at least 2 bins, it counts no record,
        ``gamma`` is not a finite number > 1, or ``l`` is not an integer with
        1 ≤ l < N.

    Notes
    -----
    At l = 1 this is √((N − 1)(N + 2γ − 2) n)/((γ − 1)‖X‖), the step of the proof of
    [KLH09] Theorem 4.1 before ‖X‖ ≥ n/√N; it equals the bound for uniform X. For
    l > 1 it is this project's, exact under re-randomisation (where Theorem 5.2's
    Var/l is not).

    Examples
    --------
    >>> from dpcore.substitution import expected_standard_error, standard_error_bound
    >>> uniform = np.full(50, 100)
    >>> exact = expected_standard_error(uniform, 5.0)
    >>> round(exact, 6), round(standard_error_bound(50, 5000, 5.0), 6)
    (1.33276, 1.33276)
    >>> x = [10, 20, 30, 40]
    >>> [round(expected_standard_error(x, 3.0, 2, estimator=e), 4) for e in ("source", "unbiased")]
    [0.3044, 0.4282]
    """
    one_of(estimator, "estimator", ESTIMATORS)
    x = count_array(counts, "counts", min_bins=2).astype(float)
    if x.ndim != 1:
        raise ArgumentError("`{name}` must be one histogram (a 1-D array).", name="counts")
    n_cat = x.size
    g = _gamma(gamma)
    l = _l(l, n_cat)
    norm = float(np.linalg.norm(x))
    if norm == 0:
        raise ArgumentError("`{name}` must count at least one record.", name="counts")
    a, b = _a_b(n_cat, g, l)
    pi = inclusion_probability(n_cat, g, l)
    v = x.sum() * (pi * (1 - pi) + (n_cat - 1) * b * (1 - b))
    if estimator == "unbiased":
        mse = v / a**2
    else:
        c = (g + n_cat - 1) / (g - 1)
        bias = reconstruction_bias(x, g, l, estimator="source")
        mse = (c / l) ** 2 * v + float(bias @ bias)
    return math.sqrt(mse) / norm


def standard_error_bound(n_categories, n, gamma, l=1) -> float:
    """Theorem 4.1's bound √(N(N − 1)(N + 2γ − 2))/((γ − 1)√n), divided by √l (Section 5.2).

    Parameters
    ----------
    n_categories : int
        N, the number of categories, from 2 to ``MAX_CATEGORIES``.
    n : int
        The number of records, ≥ 1.
    gamma : float
        γ > 1, the γ of the γ-diagonal matrix.
    l : int, optional
        The number of values per record, ≥ 1 (default 1).

    Returns
    -------
    float
        The bound on σ_X̂/‖X‖ of [KLH09] Theorem 4.1, divided by √l.

    Raises
    ------
    ValueError
        If ``n_categories`` is not an integer from 2 to ``MAX_CATEGORIES``, ``gamma``
        is not a finite number > 1, or ``n`` or ``l`` is not a positive integer.

    Notes
    -----
    [KLH09] Theorem 4.1, and σ_{X̂*/l}/‖X‖ = σ_X̂/(√l ‖X‖) after Theorem 5.2. At
    l = 1 it bounds :func:`expected_standard_error`. For l > 1, Theorem 5.2 assumes
    independent draws; with the re-randomisation of Algorithm 2 the value is not
    a bound: the unbiased reconstruction can exceed it.

    Examples
    --------
    >>> from dpcore.substitution import expected_standard_error, standard_error_bound
    >>> round(standard_error_bound(4, 100, 3.0), 4), round(standard_error_bound(4, 100, 3.0, 2), 4)
    (0.4899, 0.3464)
    >>> exact = expected_standard_error([10, 20, 30, 40], 3.0, 2, estimator="unbiased")
    >>> round(exact, 4), exact > standard_error_bound(4, 100, 3.0, 2)
    (0.4282, True)
    """
    n_cat, g = _categories(n_categories), _gamma(gamma)
    n = positive_integer(n, "n")
    l = positive_integer(l, "l")
    return math.sqrt(n_cat * (n_cat - 1) * (n_cat + 2 * g - 2)) / ((g - 1) * math.sqrt(n * l))


# --- privacy -----------------------------------------------------------------------------------

def collision_probability(n_categories, gamma, l) -> float:
    """Theorem 5.1: P[s ≥ 2], some value twice among l independent draws from one column of M.

    1 − (N − l + lγ) Π_{i=1}^{l−1} (N − i)/(γ + N − 1)^l; 1 when l > N.

    Parameters
    ----------
    n_categories : int
        N, the number of categories, from 2 to ``MAX_CATEGORIES``.
    gamma : float
        γ > 1, the γ of the γ-diagonal matrix.
    l : int
        The number of independent draws, ≥ 1 (any size: 1 when l > N).

    Returns
    -------
    float
        The probability that the l draws are not all distinct (0 at l = 1).

    Raises
    ------
    ValueError
        If ``n_categories`` is not an integer from 2 to ``MAX_CATEGORIES``, ``gamma``
        is not a finite number > 1, or ``l`` is not a positive integer.

    Notes
    -----
    [KLH09] Theorem 5.1: the chance that Algorithm 2 has to re-randomise at all.
    The value 1 for l > N (pigeonhole) is this project's addition; the product is
    computed in logarithms.

    Examples
    --------
    >>> from dpcore.substitution import collision_probability
    >>> collision_probability(50, 5.0, 1), round(collision_probability(50, 5.0, 2), 6)
    (0.0, 0.025377)
    >>> collision_probability(3, 2.0, 4)
    1.0
    """
    n, g = _categories(n_categories), _gamma(gamma)
    l = positive_integer(l, "l")
    if l > n:
        return 1.0
    i = np.arange(1, l)
    log_p1 = math.log(n - l + l * g) + float(np.sum(np.log(n - i))) - l * math.log(g + n - 1)
    return 0.0 + float(-np.expm1(log_p1))  # 0.0 + turns −0.0 (l = 1) into 0.0


def breach_gamma(rho1, rho2) -> float:
    """ρ₂(1 − ρ₁)/(ρ₁(1 − ρ₂)): a γ-amplifying operator below it allows no ρ₁→ρ₂ breach.

    Theorem 3.1 (Evfimievski, Gehrke & Srikant 2003), 0 < ρ₁ < ρ₂ < 1. At
    equality a breach is possible (the posterior can reach ρ₂ exactly).

    Parameters
    ----------
    rho1 : float
        ρ₁, the prior bound, strictly between 0 and 1.
    rho2 : float
        ρ₂ > ρ₁, the posterior bound, strictly between 0 and 1.

    Returns
    -------
    float
        The γ threshold; a γ-amplifying randomisation with γ below it gives the
        (ρ₁, ρ₂) privacy guarantee (no upward ρ₁ → ρ₂ or downward ρ₂ → ρ₁ breach).

    Raises
    ------
    ValueError
        If ``rho1`` or ``rho2`` is not strictly between 0 and 1, or ``rho1`` is not
        below ``rho2``.

    Notes
    -----
    [KLH09] Theorem 3.1, quoting [EGS03]; [KLH09] Section 3.2.1 writes the
    condition on M as γ ≤ ρ₂(1 − ρ₁)/(ρ₁(1 − ρ₂)), where the theorem needs <.

    Examples
    --------
    >>> from dpcore.substitution import breach_gamma
    >>> round(breach_gamma(0.1, 0.5), 6)
    9.0
    """
    r1, r2 = probability(rho1, "rho1"), probability(rho2, "rho2")
    if not r1 < r2:
        raise ArgumentError("`{name_a}` must be below `{name_b}`, got {value_a!r} and {value_b!r}.",
                            name_a="rho1", name_b="rho2", value_a=r1, value_b=r2)
    return r2 * (1 - r1) / (r1 * (1 - r2))


def posterior_bound(prior, gamma) -> float:
    """The largest posterior of a property with the given prior under γ-amplification.

    γρ/(γρ + 1 − ρ): the ρ₂ at which breach_gamma(ρ, ρ₂) = γ. ``gamma`` ≥ 1
    may be an amplification e^ε of any release.

    Parameters
    ----------
    prior : float
        ρ, the prior probability of the property, strictly between 0 and 1.
    gamma : float
        γ ≥ 1, the amplification (∞ allowed: the posterior bound is then 1).

    Returns
    -------
    float
        γρ/(γρ + 1 − ρ), in [ρ, 1].

    Raises
    ------
    ValueError
        If ``prior`` is not strictly between 0 and 1, or ``gamma`` is not a number
        ≥ 1.

    Notes
    -----
    [KLH09] Theorem 3.1 ([EGS03]) solved for ρ₂ by this project; [KLH09]
    Section 5.1 states it in words for γ^l (no prior ρ₁* can be raised beyond ρ₂*).

    Examples
    --------
    >>> from dpcore.substitution import breach_gamma, posterior_bound
    >>> round(posterior_bound(0.1, 9.0), 6)
    0.5
    >>> round(breach_gamma(0.1, posterior_bound(0.1, 9.0)), 6)
    9.0
    >>> posterior_bound(0.1, float("inf"))
    1.0
    """
    p = probability(prior, "prior")
    try:
        g = float(gamma)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be a number ≥ 1, got {value!r}.", name="gamma",
                            value=gamma) from None
    if np.isnan(g) or g < 1:
        raise ArgumentError("`{name}` must be a number ≥ 1, got {value!r}.", name="gamma",
                            value=gamma)
    if np.isinf(g):
        return 1.0
    return g * p / (g * p + 1 - p)


def extended_epsilon(n_categories, gamma, l, *, ordered=False) -> float:
    """ε_l = ln max_{S, x, x′} P(S | x)/P(S | x′) for the set Algorithm 2 releases, exactly.

    ln[π/(1 − π) · (N − l)/l]; ln γ at l = 1. With ``ordered=True``, the
    same for the sequence of l values in the order drawn:
    ln γ + Σ_{j=1}^{l−1} ln(1 + (γ − 1)/(N − j)).

    Parameters
    ----------
    n_categories : int
        N, the number of categories, from 2 to ``MAX_CATEGORIES``.
    gamma : float
        γ > 1, the γ of the γ-diagonal matrix.
    l : int
        The number of values per record, 1 ≤ l < N.
    ordered : bool, optional
        False (default): the set S is released; True: the l values in the order
        drawn.

    Returns
    -------
    float
        ε_l, the local-DP ε of one record's release; ln γ ≤ ε_l ≤ ε_l(ordered) ≤ l ln γ.

    Raises
    ------
    ValueError
        If ``n_categories`` is not an integer from 2 to ``MAX_CATEGORIES``, ``gamma``
        is not a finite number > 1, or ``l`` is not an integer with 1 ≤ l < N.

    Notes
    -----
    Beyond [KLH09]: this project's exact value (module notes). The source's
    Section 5.1 gives the γ-amplification γ^l, i.e. ε = l ln γ, which is exact
    for the multiset of l independent draws without re-randomisation.

    Examples
    --------
    >>> import math
    >>> from dpcore.substitution import extended_epsilon
    >>> round(extended_epsilon(50, 5.0, 1), 6), round(math.log(5.0), 6)
    (1.609438, 1.609438)
    >>> round(extended_epsilon(50, 5.0, 2), 4), round(extended_epsilon(50, 5.0, 2, ordered=True), 4)
    (1.6494, 1.6879)
    >>> round(2 * math.log(5.0), 4)  # the source's bound, ln γ^l
    3.2189
    """
    n, g = _categories(n_categories), _gamma(gamma)
    l = _l(l, n)
    if ordered:
        j = np.arange(1, l)
        return math.log(g) + float(np.sum(np.log1p((g - 1) / (n - j))))
    log_out = _log_out(n, g, l)
    log_in = math.log(-math.expm1(log_out))
    return log_in - log_out + math.log(n - l) - math.log(l)


# --- error studies -----------------------------------------------------------------------------

def _relative_error(estimates: np.ndarray, x: np.ndarray) -> tuple[float, float]:
    """√(mean ‖X̂ − X‖²)/‖X‖ over replicates, and its Monte Carlo standard error (delta method)."""
    sq = np.sum((estimates - x) ** 2, axis=-1)
    norm = float(np.linalg.norm(x))
    mean = float(sq.mean())
    se = float(sq.std(ddof=1) / math.sqrt(sq.size)) if sq.size > 1 else float("nan")
    root = math.sqrt(mean)
    return root / norm, (se / (2 * root) / norm if root > 0 else float("nan"))


def error_table(counts, gamma, l_values, *, reps=100, rng=None, progress=None) -> pd.DataFrame:
    """Actual and theoretical error of both reconstructions, and the cost, for each l.

    For every l: ``reps`` releases of Algorithm 2 (``extended_random_substitution``);
    per estimator the actual standard error √(mean ‖X̂ − X‖²)/‖X‖ and its
    Monte Carlo standard error, the exact value (``expected_standard_error``),
    the relative bias ‖E X̂ − X‖/‖X‖; per l the Theorem 4.1 bound /√l, the
    mean draws, n·l, the exact expected draws. ``progress(fraction, label)``
    is called after each l: the share of the l values done (ending at 1)
    and ``"l=<l>"``.

    Parameters
    ----------
    counts : array_like of int
        X, one histogram of whole counts ≥ 0 (1-D, 2 to ``MAX_CATEGORIES`` bins,
        not all 0).
    gamma : float
        γ > 1, the amplification: the diagonal weight of the γ-diagonal matrix.
    l_values : int or sequence of int
        The l values, each 1 ≤ l < N.
    reps : int, optional
        Releases per l, 1 to 100,000 (default 100).
    rng : None, int or numpy.random.Generator, optional
        The random source, normalised by ``np.random.default_rng``.
    progress : callable, optional
        ``progress(fraction, label)``, as above; None (default) for none.

    Returns
    -------
    pandas.DataFrame
        One row per (l, estimator), with the columns ``l``, ``n``, ``bound``
        (:func:`standard_error_bound`), ``draws`` (mean over the releases), ``nl``,
        ``expected_draws``, ``estimator`` (``"source"`` or ``"unbiased"``),
        ``actual``, ``actual_se``, ``exact`` (:func:`expected_standard_error`) and
        ``bias`` (‖E X̂ − X‖/‖X‖).

    Raises
    ------
    ValueError
        If ``counts`` is not one histogram of whole counts ≥ 0 with 2 to
        ``MAX_CATEGORIES`` bins, or counts no record; if ``gamma`` is not a finite
        number > 1, ``reps`` is not an integer from 1 to 100,000, or an
        ``l_values`` entry is not an integer with 1 ≤ l < N.

    Notes
    -----
    The quantities of [KLH09] Section 6 (actual standard error, the Theorem 4.1
    bound divided by √l, the number of random draws); the exact values, the bias
    and the unbiased reconstruction go beyond the source and are this project's.

    Examples
    --------
    >>> from dpcore.substitution import error_table
    >>> table = error_table([10, 20, 30, 40], 3.0, [1, 2], reps=200, rng=1)
    >>> table[["l", "estimator", "actual", "exact", "bias", "bound"]].round(3)
       l estimator  actual  exact   bias  bound
    0  1    source   0.452  0.447  0.000  0.490
    1  1  unbiased   0.452  0.447  0.000  0.490
    2  2    source   0.291  0.304  0.163  0.346
    3  2  unbiased   0.411  0.428  0.000  0.346
    """
    rng = np.random.default_rng(rng)
    x = _whole_counts(counts, "counts")
    if x.ndim != 1:
        raise ArgumentError("`{name}` must be one histogram (a 1-D array).", name="counts")
    n = int(x.sum())
    if n == 0:
        raise ArgumentError("`{name}` must count at least one record.", name="counts")
    g = _gamma(gamma)
    reps = positive_integer(reps, "reps", maximum=MAX_REPS)
    ls = [_l(v, x.size) for v in np.atleast_1d(l_values).tolist()]
    norm = float(np.linalg.norm(x))
    rows = []
    for i, l in enumerate(ls):
        release = extended_random_substitution(x, g, l, size=reps, rng=rng)
        estimates = {"source": reconstruct(release.counts, g, l=l),
                     "unbiased": reconstruct_unbiased(release.counts, g, l)}
        common = dict(l=l, n=n, bound=standard_error_bound(x.size, n, g, l),
                      draws=float(np.mean(release.draws)), nl=n * l,
                      expected_draws=expected_draws(n, x.size, g, l))
        for name, est in estimates.items():
            actual, se = _relative_error(est, x)
            bias = reconstruction_bias(x, g, l, estimator=name)
            rows.append(dict(common, estimator=name, actual=actual, actual_se=se,
                             exact=expected_standard_error(x, g, l, estimator=name),
                             bias=float(np.linalg.norm(bias)) / norm))
        if progress is not None:
            progress((i + 1) / len(ls), f"l={l}")
    return pd.DataFrame(rows)


def paper_grid(*, reps=100, rng=None, progress=None) -> pd.DataFrame:
    """The source's Section 6 experiment, computed: every (shape, N, γ, n, l) cell.

    (N, γ) ∈ {(50, 5), (100, 10)}, n ∈ {5,000, 50,000}, l ∈ {1, 2, 4}, uniform
    and normal data (``datasets.shape_counts``), ``reps`` repetitions each. The
    source uses normal-shaped data without saying which normal; the normal rows
    use the discretisation of [SPJ22] section 2.3, so they need not be its data.
    One row per cell and estimator, with the columns of ``error_table`` and
    ``shape``, ``N``, ``gamma``. ``progress(fraction, label)`` after each
    (cell, l): the share of the grid done (ending at 1) and
    ``"shape=<shape> N=<N> gamma=<γ> n=<n> l=<l>"``.

    Parameters
    ----------
    reps : int, optional
        Releases per cell and l, 1 to 100,000 (default 100, as in the source).
    rng : None, int or numpy.random.Generator, optional
        The random source, normalised by ``np.random.default_rng``.
    progress : callable, optional
        ``progress(fraction, label)``, as above; None (default) for none.

    Returns
    -------
    pandas.DataFrame
        48 rows (2 shapes × 2 (N, γ) × 2 n × 3 l × 2 estimators), the columns of
        :func:`error_table` and ``shape``, ``N``, ``gamma``.

    Raises
    ------
    ValueError
        If ``reps`` is not an integer from 1 to 100,000.

    Notes
    -----
    The setting of [KLH09] Section 6 (its tables are withheld from the seed, so
    the numbers cannot be compared here); the normal data are [SPJ22] section 2.3's
    (``datasets.shape_counts``), the source not saying which normal it used.

    Examples
    --------
    The ``exact`` and ``bound`` columns do not depend on the draws; for uniform
    data at l = 1 they coincide:

    >>> from dpcore.substitution import paper_grid
    >>> grid = paper_grid(reps=2, rng=1)
    >>> grid.shape
    (48, 14)
    >>> cell = grid[(grid["shape"] == "uniform") & (grid.N == 50) & (grid.n == 5000)
    ...             & (grid.estimator == "source")]
    >>> cell[["l", "exact", "bound"]].round(4)
       l   exact   bound
    0  1  1.3328  1.3328
    2  2  0.9305  0.9424
    4  4  0.6418  0.6664
    """
    from dpcore import datasets  # noqa: PLC0415 - datasets imports nothing from here

    rng = np.random.default_rng(rng)
    reps = positive_integer(reps, "reps", maximum=MAX_REPS)
    cells = [(shape, n_cat, g, n) for shape in PAPER_SHAPES for n_cat, g in PAPER_SETTINGS
             for n in PAPER_N]
    frames = []
    for i, (shape, n_cat, g, n) in enumerate(cells):
        x = datasets.shape_counts(shape, n_cat, n)

        def step(fraction, label, _i=i, _cell=f"shape={shape} N={n_cat} gamma={g:g} n={n}"):
            if progress is not None:
                progress((_i + fraction) / len(cells), f"{_cell} {label}")

        table = error_table(x, g, PAPER_L, reps=reps, rng=rng, progress=step)
        frames.append(table.assign(shape=shape, N=n_cat, gamma=g))
    return pd.concat(frames, ignore_index=True)
