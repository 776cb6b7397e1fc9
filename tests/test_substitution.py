"""Tests of dpcore.substitution (random substitution, [KLH09]).

Closed forms are checked against direct linear algebra and brute-force enumeration;
the samplers against literal record-by-record implementations of Algorithms 1 and 2
written here. Monte Carlo tolerances are 4 standard errors of the quantity tested,
computed from the number of replicates; every generator is seeded. Two-sample
comparisons use a chi-square test of homogeneity and require p > 10⁻³.
"""

import functools
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpcore import datasets, ldp, substitution as rs

SKEWED = np.array([60, 0, 25, 10, 5])  # n = 100 records over N = 5 categories


# ---------------------------------------------------------------------------
# Literal implementations of the source's algorithms (the references)
# ---------------------------------------------------------------------------


def _column_cdf(n_cat, gamma):
    cum = np.cumsum(rs.gamma_diagonal_matrix(n_cat, gamma), axis=0)
    cum[-1] = 1.0  # the last partial sum is 1 up to rounding
    return cum


def literal_algorithm1(values, gamma, n_cat, rng):
    """Algorithm 1: for each record, r ~ U(0, 1], h with Σ_{i<h} m_ik < r ≤ Σ_{i≤h} m_ik."""
    cum = _column_cdf(n_cat, gamma)
    out = np.empty(len(values), dtype=int)
    for i, k in enumerate(values):
        r = 1.0 - rng.random()
        out[i] = int(np.searchsorted(cum[:, k], r, side="left"))
    return out


def literal_algorithm2(values, gamma, n_cat, l, rng):
    """Algorithm 2: l draws per record, a value already in the record's set is drawn again."""
    cum = _column_cdf(n_cat, gamma)
    counts = np.zeros(n_cat, dtype=int)
    draws = 0
    for k in values:
        chosen = set()
        for _ in range(l):
            while True:
                r = 1.0 - rng.random()
                h = int(np.searchsorted(cum[:, k], r, side="left"))
                draws += 1
                if h not in chosen:
                    chosen.add(h)
                    break
        for h in chosen:
            counts[h] += 1
    return counts, draws


def records(counts):
    return np.repeat(np.arange(len(counts)), counts)


def set_probabilities(n_cat, gamma, l, x, *, ordered=False):
    """P(output | x) of Algorithm 2 by enumerating every ordered sequence of distinct values.

    Each accepted draw of h has probability w_h / (W − weight already drawn), w_x = γ,
    w_h = 1 otherwise, W = γ + N − 1 (rejection of repeats leaves the weights of the
    rest in proportion). Returned per set (or per sequence with ``ordered``).
    """
    w = np.ones(n_cat)
    w[x] = gamma
    out = {}
    for seq in itertools.permutations(range(n_cat), l):
        p, left = 1.0, w.sum()
        for h in seq:
            p *= w[h] / left
            left -= w[h]
        key = seq if ordered else frozenset(seq)
        out[key] = out.get(key, 0.0) + p
    return out


def homogeneous(a, b):
    """Chi-square test of homogeneity of two samples of integers (bins with ≥ 5 expected)."""
    values = np.concatenate([a, b])
    edges = np.unique(np.quantile(values, np.linspace(0, 1, 11)))
    if edges.size < 3:
        edges = np.unique(values)
        edges = np.append(edges, edges[-1] + 1)
    ia = np.clip(np.searchsorted(edges, a, side="right") - 1, 0, edges.size - 2)
    ib = np.clip(np.searchsorted(edges, b, side="right") - 1, 0, edges.size - 2)
    table = np.vstack([np.bincount(ia, minlength=edges.size - 1),
                       np.bincount(ib, minlength=edges.size - 1)])
    table = table[:, table.sum(axis=0) > 0]
    return stats.chi2_contingency(table, correction=False).pvalue


# ---------------------------------------------------------------------------
# The γ-diagonal matrix and Theorem 3.2
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n_cat, gamma", [(2, 1.5), (5, 3.0), (50, 5.0), (100, 10.0), (7, 1e6)])
def test_gamma_diagonal_matrix(n_cat, gamma):
    m = rs.gamma_diagonal_matrix(n_cat, gamma)
    assert m.shape == (n_cat, n_cat)
    np.testing.assert_allclose(m.sum(axis=0), 1.0, rtol=1e-12)
    x = 1 / (gamma + n_cat - 1)
    np.testing.assert_allclose(np.diag(m), gamma * x, rtol=1e-12)
    off = m[~np.eye(n_cat, dtype=bool)]
    np.testing.assert_allclose(off, x, rtol=1e-12)
    # γ-amplification (Definition 3.2): each row's largest ratio is γ
    np.testing.assert_allclose(m.max(axis=1) / m.min(axis=1), gamma, rtol=1e-9)
    assert rs.condition_number(n_cat, gamma) == pytest.approx(np.linalg.cond(m), rel=1e-6)


@pytest.mark.parametrize("n_cat, gamma", [(2, 1.5), (5, 3.0), (50, 5.0), (100, 10.0)])
def test_theorem_3_2_equals_solving_m(n_cat, gamma):
    rng = np.random.default_rng(32)
    y = rng.integers(0, 1000, size=(4, n_cat)).astype(float)
    direct = np.linalg.solve(rs.gamma_diagonal_matrix(n_cat, gamma), y.T).T
    np.testing.assert_allclose(rs.reconstruct(y, gamma), direct, rtol=1e-9, atol=1e-8)
    # divided by l, as the source does for the l-extended release
    np.testing.assert_allclose(rs.reconstruct(y, gamma, l=3), direct / 3, rtol=1e-9, atol=1e-8)


def test_expectation_matrix_at_l_1_is_m_and_columns_sum_to_l():
    np.testing.assert_allclose(rs.expectation_matrix(6, 4.0, 1), rs.gamma_diagonal_matrix(6, 4.0),
                               rtol=1e-12)
    for l in (1, 2, 5):
        np.testing.assert_allclose(rs.expectation_matrix(6, 4.0, l).sum(axis=0), l, rtol=1e-12)


@pytest.mark.parametrize("n_cat, gamma, l", [(3, 2.0, 2), (5, 2.5, 3), (6, 20.0, 2), (6, 1.2, 5)])
def test_inclusion_probability_and_expectation_by_enumeration(n_cat, gamma, l):
    probs = set_probabilities(n_cat, gamma, l, 0)
    assert sum(probs.values()) == pytest.approx(1.0, rel=1e-12)
    included = sum(p for s, p in probs.items() if 0 in s)
    assert rs.inclusion_probability(n_cat, gamma, l) == pytest.approx(included, rel=1e-12)
    expected = np.zeros(n_cat)
    for s, p in probs.items():
        expected[list(s)] += p
    np.testing.assert_allclose(rs.expectation_matrix(n_cat, gamma, l)[:, 0], expected, rtol=1e-12)
    # the source's assumption E[Y*] = l·MX differs from the truth once l > 1
    assert not np.allclose(l * rs.gamma_diagonal_matrix(n_cat, gamma)[:, 0], expected, rtol=1e-3)


# ---------------------------------------------------------------------------
# Algorithm 1: the samplers
# ---------------------------------------------------------------------------


def test_random_substitution_transition_probabilities():
    n_cat, gamma, n = 6, 4.0, 300_000
    rng = np.random.default_rng(1)
    out = rs.random_substitution(np.full(n, 2), gamma, n_cat, rng=rng)
    m = rs.gamma_diagonal_matrix(n_cat, gamma)[:, 2]
    freq = np.bincount(out, minlength=n_cat) / n
    assert np.all(np.abs(freq - m) < 4 * np.sqrt(m * (1 - m) / n))


def test_per_record_count_level_and_literal_samplers_agree():
    n_cat, gamma, reps = 5, 3.0, 1500
    rng = np.random.default_rng(2)
    values = records(SKEWED)
    literal = np.array([np.bincount(literal_algorithm1(values, gamma, n_cat, rng), minlength=n_cat)
                        for _ in range(reps)])
    per_record = np.array([np.bincount(rs.random_substitution(values, gamma, n_cat, rng=rng),
                                       minlength=n_cat) for _ in range(reps)])
    counts = rs.random_substitution_counts(SKEWED, gamma, size=reps, rng=rng)
    extended = rs.extended_random_substitution(SKEWED, gamma, 1, size=reps, rng=rng).counts
    for other in (per_record, counts, extended):
        assert other.shape == (reps, n_cat)
        assert np.all(other.sum(axis=1) == SKEWED.sum())
        for i in range(n_cat):
            assert homogeneous(literal[:, i], other[:, i]) > 1e-3, i
    # the exact mean and variance of each count: Σ_k X_k m_ik and Σ_k X_k m_ik (1 − m_ik)
    m = rs.gamma_diagonal_matrix(n_cat, gamma)
    mean, var = m @ SKEWED, (m * (1 - m)) @ SKEWED
    for sample in (literal, counts, extended):
        assert np.all(np.abs(sample.mean(axis=0) - mean) < 4 * np.sqrt(var / reps))
        # variance of the sample variance of a near-normal count: 2σ⁴/(R − 1)
        assert np.all(np.abs(sample.var(axis=0, ddof=1) - var) < 4 * var * np.sqrt(2 / (reps - 1)))


@pytest.mark.parametrize("n_cat, gamma", [(5, 3.0), (50, 5.0), (100, 10.0)])
def test_variance_formula_by_simulation(n_cat, gamma):
    # Var(Y) = E‖Y − MX‖² = (N − 1)(N + 2γ − 2) n/(γ + N − 1)², whatever X
    x = datasets.shape_counts("normal", n_cat, 20_000)
    reps = 4000
    y = rs.random_substitution_counts(x, gamma, size=reps, rng=np.random.default_rng(3))
    sq = np.sum((y - rs.gamma_diagonal_matrix(n_cat, gamma) @ x) ** 2, axis=1)
    n = x.sum()
    theory = (n_cat - 1) * (n_cat + 2 * gamma - 2) * n / (gamma + n_cat - 1) ** 2
    assert abs(sq.mean() - theory) < 4 * sq.std(ddof=1) / np.sqrt(reps)


def test_reconstruct_is_unbiased_at_l_1():
    gamma, reps = 3.0, 20_000
    y = rs.random_substitution_counts(SKEWED, gamma, size=reps, rng=np.random.default_rng(4))
    est = rs.reconstruct(y, gamma)
    se = est.std(axis=0, ddof=1) / np.sqrt(reps)
    assert np.all(np.abs(est.mean(axis=0) - SKEWED) < 4 * se)


def test_l_1_is_krr_with_exp_eps_gamma():
    gamma, n_cat = 7.0, 4
    p, q = ldp.krr_probabilities(np.log(gamma), n_cat)
    m = rs.gamma_diagonal_matrix(n_cat, gamma)
    assert m[0, 0] == pytest.approx(p, rel=1e-12)
    assert m[1, 0] == pytest.approx(q, rel=1e-12)
    y = np.array([40.0, 30.0, 20.0, 10.0])
    np.testing.assert_allclose(rs.reconstruct(y, gamma), ldp.krr_estimate(y, np.log(gamma)),
                               rtol=1e-10)
    assert rs.extended_epsilon(n_cat, gamma, 1) == pytest.approx(np.log(gamma), rel=1e-12)


# ---------------------------------------------------------------------------
# Algorithm 2 against its literal implementation
# ---------------------------------------------------------------------------


PATHS = [None, "column", "record"]  # None: the one the cost model chooses


@pytest.fixture
def force_path(monkeypatch):
    """force_path(path): make extended_random_substitution draw the other values that way.

    Returns the calls made to each path's function, to show that path ran.
    """
    calls = {"column": 0, "record": 0}

    def spy(path, fn):
        def wrapped(*args, **kwargs):
            calls[path] += 1
            return fn(*args, **kwargs)
        return wrapped

    monkeypatch.setattr(rs, "_draw_others", spy("column", rs._draw_others))
    monkeypatch.setattr(rs, "_draw_others_by_record", spy("record", rs._draw_others_by_record))

    def force(path):
        if path is not None:
            assert path in rs.OTHERS_PATHS
            monkeypatch.setattr(rs, "_others_path", lambda *args: path)
        return calls

    return force


def pair_inclusion(n_cat, gamma, l):
    """Q[h, h'] = P(h ∈ S and h' ∈ S | own value 0) under Algorithm 2 (Q[h, h] = P(h ∈ S)).

    Given whether 0 ∈ S, the other members are a uniform subset of the N − 1 others, of
    size l − 1 (probability π) or l.
    """
    pi = rs.inclusion_probability(n_cat, gamma, l)
    m = n_cat - 1
    q = np.zeros((n_cat, n_cat))
    q[0, 0] = pi
    q[0, 1:] = q[1:, 0] = pi * (l - 1) / m
    if n_cat > 2:
        q[1:, 1:] = (pi * (l - 1) * (l - 2) + (1 - pi) * l * (l - 1)) / (m * (m - 1))
    q[np.arange(1, n_cat), np.arange(1, n_cat)] = (l - pi) / m
    return q


def exact_covariance(x, gamma, l):
    """Cov(Y*) exactly: records are independent, so Σ_k x_k (Q_k − a_k a_kᵀ)."""
    n_cat = x.size
    q0 = pair_inclusion(n_cat, gamma, l)
    cov = np.zeros((n_cat, n_cat))
    for k in range(n_cat):
        order = (np.arange(n_cat) - k) % n_cat  # value h is offset (h − k) mod N from own k
        qk = q0[np.ix_(order, order)]
        a = np.diag(qk)
        cov += x[k] * (qk - np.outer(a, a))
    return cov


@pytest.mark.parametrize("n_cat, gamma, l", [(3, 2.0, 1), (3, 2.0, 2), (5, 2.5, 3), (6, 20.0, 2),
                                             (6, 1.2, 5), (7, 4.0, 3)])
def test_pair_inclusion_by_enumeration(n_cat, gamma, l):
    q = np.zeros((n_cat, n_cat))
    for s, p in set_probabilities(n_cat, gamma, l, 0).items():
        members = list(s)
        q[np.ix_(members, members)] += p
    np.testing.assert_allclose(pair_inclusion(n_cat, gamma, l), q, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(np.diag(q), rs.expectation_matrix(n_cat, gamma, l)[:, 0],
                               rtol=1e-10)


@pytest.mark.parametrize("n_cat, gamma, l", [(4, 3.0, 2), (5, 2.5, 3), (6, 20.0, 2), (6, 1.2, 4)])
def test_other_values_are_uniform_given_the_step_own_entered(n_cat, gamma, l):
    # what both ways of drawing the other values rely on: given the step t at which the own
    # value 0 entered S (or that it never did), the other members of S are a uniform subset
    # of the N − 1 others, of size l − 1 (or l)
    by_step = {}
    for seq, p in set_probabilities(n_cat, gamma, l, 0, ordered=True).items():
        t = seq.index(0) if 0 in seq else None
        others = frozenset(seq) - {0}
        by_step.setdefault(t, {})
        by_step[t][others] = by_step[t].get(others, 0.0) + p
    assert set(by_step) == set(range(l)) | {None}
    for t, sets in by_step.items():
        size = l if t is None else l - 1
        assert len(sets) == math.comb(n_cat - 1, size)  # every subset occurs
        assert all(len(s) == size for s in sets)
        probs = np.array(list(sets.values()))
        np.testing.assert_allclose(probs, probs.mean(), rtol=1e-10)


LITERAL_CASES = {
    (5, 3.0, 2): SKEWED,
    (5, 10.0, 3): SKEWED,
    (8, 1.5, 6): np.array([30, 20, 10, 5, 0, 0, 0, 35]),
    # l ≪ N: the cost model draws the other values by record
    (20, 6.0, 3): np.array([9, 0, 2, 7, 1, 0, 5, 3, 0, 4, 12, 0, 1, 2, 6, 0, 0, 3, 1, 4]),
}
LITERAL_REPS = 1200


@functools.lru_cache(maxsize=None)
def literal_sample(n_cat, gamma, l):
    """LITERAL_REPS runs of the literal Algorithm 2 on LITERAL_CASES[...]: (counts, draws)."""
    rng = np.random.default_rng(5)
    values = records(LITERAL_CASES[n_cat, gamma, l])
    lit = [literal_algorithm2(values, gamma, n_cat, l, rng) for _ in range(LITERAL_REPS)]
    return np.array([c for c, _ in lit]), np.array([d for _, d in lit])


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("n_cat, gamma, l", list(LITERAL_CASES))
def test_extended_matches_literal_algorithm_2(n_cat, gamma, l, path, force_path):
    x = LITERAL_CASES[n_cat, gamma, l]
    reps = LITERAL_REPS
    lit_counts, lit_draws = literal_sample(n_cat, gamma, l)
    calls = force_path(path)
    fast = rs.extended_random_substitution(x, gamma, l, size=reps, rng=np.random.default_rng(6))
    taken = path or rs._others_path(x.sum(), n_cat, l, reps)
    assert calls == {p: int(p == taken) for p in rs.OTHERS_PATHS}
    assert fast.counts.shape == (reps, n_cat) and fast.draws.shape == (reps,)
    assert np.all(fast.counts.sum(axis=1) == l * x.sum())
    assert np.all(fast.counts <= x.sum())  # a set holds each value at most once
    assert np.all(fast.draws >= l * x.sum())
    for i in range(n_cat):
        assert homogeneous(lit_counts[:, i], fast.counts[:, i]) > 1e-3, i
    assert homogeneous(lit_draws, fast.draws) > 1e-3
    # joint behaviour: the draws and a count are correlated alike in both
    corr = [np.corrcoef(c[:, 0], d)[0, 1] for c, d in ((lit_counts, lit_draws),
                                                       (fast.counts, fast.draws))]
    assert abs(corr[0] - corr[1]) < 4 * np.sqrt(2 / reps)
    # the exact means, and the exact variance of each count and of Y*_0 − Y*_1
    mean = rs.expectation_matrix(n_cat, gamma, l) @ x
    cov = exact_covariance(x, gamma, l)
    w = np.zeros(n_cat)
    w[:2] = 1, -1
    for sample in (lit_counts, fast.counts):
        se = sample.std(axis=0, ddof=1) / np.sqrt(reps)
        assert np.all(np.abs(sample.mean(axis=0) - mean) < 4 * np.maximum(se, 1e-9))
        var = np.append(np.diag(cov), w @ cov @ w)
        got = np.append(sample.var(axis=0, ddof=1), (sample @ w).var(ddof=1))
        assert np.all(np.abs(got - var) < 4 * var * np.sqrt(2 / (reps - 1)) + 1e-9)
    expected_draws = rs.expected_draws(x.sum(), n_cat, gamma, l)
    for d in (lit_draws, fast.draws):
        assert abs(d.mean() - expected_draws) < 4 * d.std(ddof=1) / np.sqrt(reps)


def test_cost_model_chooses_the_path():
    # the benchmark's setting: n = 50,000 records, N = 100, l = 4 → by record
    assert rs._others_path(50_000, 100, 4, 1) == "record"
    # many records, few categories → by column (its cost does not grow with n)
    assert rs._others_path(10**6, 100, 4, 1) == "column"
    assert rs._others_path(10**9, 3, 1, 1) == "column"
    # l not ≪ N → by column
    assert rs._others_path(1000, 100, 26, 1) == "column"
    assert rs._others_path(100, 5, 2, 1200) == "column"
    # the literal cases above: by record only where l ≪ N
    for (n_cat, gamma, l), x in LITERAL_CASES.items():
        expected = "record" if n_cat == 20 else "column"
        assert rs._others_path(int(x.sum()), n_cat, l, LITERAL_REPS) == expected


@pytest.mark.parametrize("path", PATHS)
def test_extended_moments_many_categories(path, force_path):
    # N = 40, l = 3 ≪ N: the cost model draws by record. Each Y*_h is a sum of independent
    # indicators over records, so its mean (AX), variance and covariances are exact.
    n_cat, gamma, l, reps = 40, 6.0, 3, 2000
    x = datasets.shape_counts("normal", n_cat, 4000)
    calls = force_path(path)
    y = rs.extended_random_substitution(x, gamma, l, size=reps, rng=17).counts
    taken = path or "record"
    assert calls == {p: int(p == taken) for p in rs.OTHERS_PATHS}
    assert np.all(y.sum(axis=1) == l * x.sum())
    cov = exact_covariance(x, gamma, l)
    mean = rs.expectation_matrix(n_cat, gamma, l) @ x
    sd = np.sqrt(np.diag(cov))
    assert np.all(np.abs(y.mean(axis=0) - mean) < 4 * sd / np.sqrt(reps))
    # variances of each count and of a few sums and differences (these see the covariances)
    rng = np.random.default_rng(18)
    weights = [np.eye(n_cat)[h] for h in range(n_cat)]
    weights += [np.eye(n_cat)[20] + np.eye(n_cat)[21], np.eye(n_cat)[20] - np.eye(n_cat)[21],
                np.ones(n_cat) * (np.arange(n_cat) < 20), rng.choice([-1.0, 1.0], n_cat)]
    for w in weights:
        var = w @ cov @ w
        assert abs((y @ w).var(ddof=1) - var) < 4 * var * np.sqrt(2 / (reps - 1))


@pytest.mark.parametrize("path", PATHS)
def test_extended_single_release_and_seeding(path, force_path):
    x = datasets.shape_counts("normal", 100, 50_000)
    calls = force_path(path)
    a = rs.extended_random_substitution(x, 10.0, 4, rng=7)
    b = rs.extended_random_substitution(x, 10.0, 4, rng=7)
    taken = path or "record"  # the benchmark's setting
    assert calls == {p: 2 * int(p == taken) for p in rs.OTHERS_PATHS}
    assert isinstance(a.draws, int) and a.counts.shape == (100,)
    np.testing.assert_array_equal(a.counts, b.counts)
    assert a.draws == b.draws and a.n == 50_000 and a.l == 4
    assert a.counts.sum() == 200_000
    c = rs.extended_random_substitution(x, 10.0, 4, rng=8)
    assert not np.array_equal(a.counts, c.counts)
    # a batch of one has the same shape rules as larger batches
    d = rs.extended_random_substitution(x, 10.0, 4, size=1, rng=7)
    assert d.counts.shape == (1, 100) and d.draws.shape == (1,)


def test_record_path_in_chunks_of_replicates(force_path, monkeypatch):
    # records drawn in chunks of 75 (a replicate has 250): chunks split replicates and
    # categories; reproducible, each a valid release, right means and variances
    monkeypatch.setattr(rs, "_RECORD_CHUNK", 300)  # picks, l = 4 per record
    calls = force_path("record")
    x = datasets.shape_counts("normal", 12, 250)
    a = rs.extended_random_substitution(x, 4.0, 4, size=300, rng=19)
    b = rs.extended_random_substitution(x, 4.0, 4, size=300, rng=19)
    assert calls["record"] == 2
    np.testing.assert_array_equal(a.counts, b.counts)
    np.testing.assert_array_equal(a.draws, b.draws)
    assert np.all(a.counts.sum(axis=1) == 1000) and np.all(a.counts <= 250)
    assert len({tuple(r) for r in a.counts}) > 290  # the replicates differ
    var = np.diag(exact_covariance(x, 4.0, 4))
    mean = rs.expectation_matrix(12, 4.0, 4) @ x
    assert np.all(np.abs(a.counts.mean(axis=0) - mean) < 4 * np.sqrt(var / 300))
    assert np.all(np.abs(a.counts.var(axis=0, ddof=1) - var) < 4 * var * np.sqrt(2 / 299))


@pytest.mark.parametrize("path", PATHS)
def test_extended_with_every_category_but_one_in_each_set(path, force_path):
    # l = N − 1: each record's set misses exactly one value
    force_path(path)
    x = np.array([10, 0, 3])
    out = rs.extended_random_substitution(x, 4.0, 2, size=50, rng=9)
    assert np.all(out.counts.sum(axis=1) == 26)
    assert np.all(out.counts <= 13)


@pytest.mark.parametrize("path", PATHS)
def test_extended_with_no_records_and_l_1(path, force_path):
    force_path(path)
    empty = rs.extended_random_substitution(np.zeros(4), 3.0, 2, size=3, rng=20)
    np.testing.assert_array_equal(empty.counts, 0)
    np.testing.assert_array_equal(empty.draws, 0)
    one = rs.extended_random_substitution(np.array([7, 0, 2]), 3.0, 1, rng=21)
    assert one.counts.sum() == 9 and one.draws == 9


@pytest.mark.parametrize("path", PATHS)
def test_extended_variance_trace_by_simulation(path, force_path):
    # E‖Y* − E Y*‖² = n [π(1 − π) + (N − 1) b(1 − b)], b = (l − π)/(N − 1)
    n_cat, gamma, l, reps = 20, 6.0, 4, 6000
    x = datasets.shape_counts("normal", n_cat, 2000)
    force_path(path)
    y = rs.extended_random_substitution(x, gamma, l, size=reps, rng=10).counts
    sq = np.sum((y - rs.expectation_matrix(n_cat, gamma, l) @ x) ** 2, axis=1)
    pi = rs.inclusion_probability(n_cat, gamma, l)
    b = (l - pi) / (n_cat - 1)
    theory = x.sum() * (pi * (1 - pi) + (n_cat - 1) * b * (1 - b))
    assert abs(sq.mean() - theory) < 4 * sq.std(ddof=1) / np.sqrt(reps)
    assert theory == pytest.approx(np.trace(exact_covariance(x, gamma, l)), rel=1e-12)


# ---------------------------------------------------------------------------
# Reconstruction under Algorithm 2: bias and error
# ---------------------------------------------------------------------------


def test_unbiased_reconstruction_is_unbiased_and_the_source_s_is_not():
    gamma, l, reps = 3.0, 3, 40_000
    release = rs.extended_random_substitution(SKEWED, gamma, l, size=reps, rng=11)
    unbiased = rs.reconstruct_unbiased(release.counts, gamma, l)
    source = rs.reconstruct(release.counts, gamma, l=l)
    se_u = unbiased.std(axis=0, ddof=1) / np.sqrt(reps)
    assert np.all(np.abs(unbiased.mean(axis=0) - SKEWED) < 4 * se_u)
    se_s = source.std(axis=0, ddof=1) / np.sqrt(reps)
    gap = source.mean(axis=0) - SKEWED
    assert np.max(np.abs(gap) / se_s) > 20  # clearly biased
    bias = rs.reconstruction_bias(SKEWED, gamma, l)
    assert np.all(np.abs(gap - bias) < 4 * se_s)
    np.testing.assert_array_equal(rs.reconstruction_bias(SKEWED, gamma, l, estimator="unbiased"), 0)


def test_reconstruct_unbiased_inverts_the_expectation_matrix():
    for n_cat, gamma, l in [(5, 3.0, 1), (5, 3.0, 3), (30, 12.0, 7)]:
        x = np.arange(1, n_cat + 1, dtype=float) ** 2
        ey = rs.expectation_matrix(n_cat, gamma, l) @ x
        np.testing.assert_allclose(rs.reconstruct_unbiased(ey, gamma, l), x, rtol=1e-9)
        # and equals A⁻¹ y for any y
        y = np.random.default_rng(n_cat).integers(0, 50, n_cat).astype(float)
        direct = np.linalg.solve(rs.expectation_matrix(n_cat, gamma, l), y)
        np.testing.assert_allclose(rs.reconstruct_unbiased(y, gamma, l), direct, rtol=1e-9,
                                   atol=1e-9)


def test_source_reconstruction_is_unbiased_for_uniform_data():
    x = datasets.shape_counts("uniform", 10, 1000)
    assert np.all(x == 100)
    np.testing.assert_allclose(rs.reconstruction_bias(x, 4.0, 3), 0, atol=1e-9)


@pytest.mark.parametrize("estimator", ["source", "unbiased"])
@pytest.mark.parametrize("l", [1, 2, 4])
def test_expected_standard_error_against_simulation(estimator, l):
    x = datasets.shape_counts("normal", 20, 3000)
    table = rs.error_table(x, 5.0, [l], reps=3000, rng=12)
    row = table[table.estimator == estimator].iloc[0]
    assert abs(row.actual - row.exact) < 4 * row.actual_se
    assert row.exact == pytest.approx(
        rs.expected_standard_error(x, 5.0, l, estimator=estimator), rel=1e-12)


def test_expected_standard_error_at_l_1_is_theorem_4_1():
    n_cat, gamma = 50, 5.0
    for shape in ("normal", "uniform"):
        x = datasets.shape_counts(shape, n_cat, 50_000)
        n = x.sum()
        sigma = math.sqrt((n_cat - 1) * (n_cat + 2 * gamma - 2) * n) / (gamma - 1)
        exact = rs.expected_standard_error(x, gamma, 1)
        assert exact == pytest.approx(sigma / np.linalg.norm(x), rel=1e-12)
        bound = rs.standard_error_bound(n_cat, n, gamma)
        # the bound uses ‖X‖ ≥ n/√N, with equality for uniform data
        if shape == "uniform":
            assert exact == pytest.approx(bound, rel=1e-12)
        else:
            assert exact < bound


def test_standard_error_bound_closed_form():
    b = rs.standard_error_bound(100, 50_000, 10.0)
    assert b == pytest.approx(math.sqrt(100 * 99 * 118) / (9 * math.sqrt(50_000)), rel=1e-14)
    assert rs.standard_error_bound(100, 50_000, 10.0, 4) == pytest.approx(b / 2, rel=1e-14)


# ---------------------------------------------------------------------------
# Theorem 5.1, draws and privacy
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("n_cat, gamma, l", [(4, 2.0, 1), (4, 2.0, 3), (5, 7.0, 4), (3, 1.5, 3)])
def test_collision_probability_by_enumeration(n_cat, gamma, l):
    m = rs.gamma_diagonal_matrix(n_cat, gamma)[:, 0]
    distinct = sum(np.prod(m[list(seq)]) for seq in itertools.product(range(n_cat), repeat=l)
                   if len(set(seq)) == l)
    assert rs.collision_probability(n_cat, gamma, l) == pytest.approx(1 - distinct, abs=1e-12)


def test_collision_probability_by_simulation():
    n_cat, gamma, l, reps = 100, 10.0, 4, 200_000
    rng = np.random.default_rng(13)
    m = rs.gamma_diagonal_matrix(n_cat, gamma)[:, 0]
    draws = rng.choice(n_cat, size=(reps, l), p=m)
    s = np.sort(draws, axis=1)
    collide = np.any(s[:, 1:] == s[:, :-1], axis=1)
    p = rs.collision_probability(n_cat, gamma, l)
    assert abs(collide.mean() - p) < 4 * math.sqrt(p * (1 - p) / reps)
    assert rs.collision_probability(5, 2.0, 6) == 1.0


def test_expected_draws_at_l_1_and_growth():
    assert rs.expected_draws(1000, 10, 3.0, 1) == 1000
    # re-draws are rare when l ≪ N: within 1% of n·l at N = 100, l = 4 (Section 5.3)
    e = rs.expected_draws(50_000, 100, 10.0, 4)
    assert 200_000 < e < 202_000 * 1.02


@pytest.mark.parametrize("n_cat", [3, 4, 5, 6])
@pytest.mark.parametrize("gamma", [1.5, 3.0, 20.0])
def test_extended_epsilon_by_enumerating_every_subset(n_cat, gamma):
    for l in range(1, n_cat):
        for ordered in (False, True):
            tables = [set_probabilities(n_cat, gamma, l, x, ordered=ordered) for x in range(n_cat)]
            worst = max(tables[a][s] / tables[b][s] for s in tables[0]
                        for a in range(n_cat) for b in range(n_cat))
            assert rs.extended_epsilon(n_cat, gamma, l, ordered=ordered) == pytest.approx(
                math.log(worst), rel=1e-10), (l, ordered)


@settings(max_examples=200, deadline=None)
@given(n_cat=st.integers(2, 300), gamma=st.floats(1.001, 1e4), frac=st.floats(0, 1))
def test_extended_epsilon_between_ln_gamma_and_the_source_bound(n_cat, gamma, frac):
    l = 1 + int(frac * (n_cat - 2))
    eps = rs.extended_epsilon(n_cat, gamma, l)
    ordered = rs.extended_epsilon(n_cat, gamma, l, ordered=True)
    tol = 1e-9 * l * math.log(gamma)
    assert math.log(gamma) - tol <= eps <= ordered + tol
    assert ordered <= l * math.log(gamma) + tol


@pytest.mark.parametrize("n_cat", [2, 3, 10, 100, 300])
@pytest.mark.parametrize("gamma", [1.01, 3.0, 1e4])
def test_extended_epsilon_grows_with_l(n_cat, gamma):
    eps = [rs.extended_epsilon(n_cat, gamma, l) for l in range(1, n_cat)]
    assert np.all(np.diff(eps) >= -1e-12 * max(eps))


def test_extended_epsilon_at_the_source_s_setting():
    # N = 100, γ = 10: far below the source's bound l·ln γ, a little above ln γ
    out = (99 / 109) * (98 / 108) * (97 / 107) * (96 / 106)  # P(own value never drawn)
    assert rs.extended_epsilon(100, 10.0, 4) == pytest.approx(
        math.log((1 - out) / out * 96 / 4), rel=1e-12)
    assert rs.extended_epsilon(100, 10.0, 4) < 4 * math.log(10) / 3


def test_breach_gamma_and_posterior_bound():
    # Theorem 3.1: ρ₂(1 − ρ₁)/(ρ₁(1 − ρ₂))
    assert rs.breach_gamma(0.05, 0.5) == pytest.approx(0.5 * 0.95 / (0.05 * 0.5))
    # the posterior of a prior-ρ₁ property under the worst γ-amplifying likelihood ratio
    for rho1, gamma in [(0.05, 19.0), (0.3, 2.0), (0.9, 5.0)]:
        posterior = rho1 * gamma / (rho1 * gamma + (1 - rho1) * 1.0)  # Bayes, ratio γ : 1
        assert rs.posterior_bound(rho1, gamma) == pytest.approx(posterior, rel=1e-12)
        assert rs.breach_gamma(rho1, posterior) == pytest.approx(gamma, rel=1e-9)
    assert rs.posterior_bound(0.2, 1.0) == pytest.approx(0.2)
    assert rs.posterior_bound(0.2, math.inf) == 1.0


# ---------------------------------------------------------------------------
# Studies
# ---------------------------------------------------------------------------


def test_error_table_columns_and_progress(progress_log):
    table = rs.error_table(datasets.shape_counts("uniform", 10, 1000), 4.0, [1, 2],
                           reps=20, rng=14, progress=progress_log)
    progress_log.check()
    assert progress_log.calls == [(0.5, "l=1"), (1.0, "l=2")]
    assert set(table.columns) >= {"l", "estimator", "actual", "actual_se", "exact", "bound",
                                  "bias", "draws", "nl", "expected_draws"}
    assert len(table) == 4
    a = rs.error_table(datasets.shape_counts("uniform", 10, 1000), 4.0, [2], reps=20, rng=1)
    b = rs.error_table(datasets.shape_counts("uniform", 10, 1000), 4.0, [2], reps=20, rng=1)
    assert a.equals(b)


def test_paper_grid_layout(progress_log):
    grid = rs.paper_grid(reps=3, rng=15, progress=progress_log)
    progress_log.check()
    assert len(progress_log.calls) == 24
    assert progress_log.labels[0] == "shape=uniform N=50 gamma=5 n=5000 l=1"
    assert len(grid) == 48  # 24 cells × 2 estimators
    cells = grid[["shape", "N", "gamma", "n", "l"]].drop_duplicates()
    assert len(cells) == 24
    assert set(map(tuple, grid[["N", "gamma"]].drop_duplicates().to_numpy())) == {(50, 5.0),
                                                                                  (100, 10.0)}
    assert set(grid.n) == {5000, 50_000} and set(grid.l) == {1, 2, 4}
    # the bound column is Theorem 4.1 / √l
    row = grid.iloc[0]
    assert row.bound == pytest.approx(rs.standard_error_bound(row.N, row.n, row.gamma, row.l))


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("call, name", [
    (lambda: rs.gamma_diagonal_matrix(5, 1.0), "gamma"),
    (lambda: rs.gamma_diagonal_matrix(5, float("nan")), "gamma"),
    (lambda: rs.gamma_diagonal_matrix(5, "x"), "gamma"),
    (lambda: rs.gamma_diagonal_matrix(1, 3.0), "n_categories"),
    (lambda: rs.gamma_diagonal_matrix(2.5, 3.0), "n_categories"),
    (lambda: rs.random_substitution([0, 5], 3.0, 5), "values"),
    (lambda: rs.random_substitution([0.5], 3.0, 5), "values"),
    (lambda: rs.random_substitution_counts([1, -1, 2], 3.0), "counts"),
    (lambda: rs.random_substitution_counts([1, 0.5, 2], 3.0), "counts"),
    (lambda: rs.random_substitution_counts([1, np.nan], 3.0), "counts"),
    (lambda: rs.random_substitution_counts([[1, 2], [3, 4]], 3.0), "counts"),
    (lambda: rs.random_substitution_counts([1, 2], 3.0, size=0), "size"),
    (lambda: rs.extended_random_substitution([1, 2, 3], 3.0, 3), "l"),
    (lambda: rs.extended_random_substitution([1, 2, 3], 3.0, 0), "l"),
    (lambda: rs.extended_random_substitution([1, 2, 3], 3.0, 1.5), "l"),
    (lambda: rs.reconstruct([], 3.0), "y"),
    (lambda: rs.reconstruct_unbiased([1, 2, 3], 3.0, 5), "l"),
    (lambda: rs.expected_standard_error([0, 0, 0], 3.0, 1), "counts"),
    (lambda: rs.expected_standard_error([1, 2, 3], 3.0, 1, estimator="mle"), "estimator"),
    (lambda: rs.standard_error_bound(10, 0, 3.0), "n"),
    (lambda: rs.breach_gamma(0.5, 0.2), "rho1"),
    (lambda: rs.breach_gamma(0.0, 0.2), "rho1"),
    (lambda: rs.breach_gamma(0.1, 1.0), "rho2"),
    (lambda: rs.posterior_bound(0.1, 0.5), "gamma"),
    (lambda: rs.extended_epsilon(10, 3.0, 10), "l"),
    (lambda: rs.error_table([1, 2, 3], 3.0, [1], reps=0), "reps"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        call()


def test_large_gamma_and_large_n_stay_finite():
    assert np.isfinite(rs.extended_epsilon(100, 1e12, 50))
    assert rs.inclusion_probability(100, 1e12, 3) == pytest.approx(1.0)
    assert 0 <= rs.collision_probability(10_000, 1.0001, 2) < 1e-3
    y = rs.extended_random_substitution(np.array([10**9, 2 * 10**9, 0]), 5.0, 2, rng=16).counts
    assert y.sum() == 6 * 10**9
