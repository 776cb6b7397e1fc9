"""Tests of dpcore.histogram: the truncated Laplace mechanism, eq. (2.4)."""

import numpy as np
import pytest
from scipy import stats

from dpcore.histogram import (
    budget_check,
    budget_spent,
    laplace_scale,
    noise_sd,
    perturb_histogram,
    release_groups,
    zero_probability,
)


def test_shape_and_truncation():
    c = np.arange(12.0).reshape(3, 4)
    x = perturb_histogram(c, 0.5, rng=1)
    assert x.shape == c.shape
    assert x.dtype == float
    assert np.all(x >= 0)
    assert np.any(x == 0)  # small counts with noise of scale 4 hit the floor


def test_atom_at_zero_matches_closed_form():
    # P(X = 0) = P(Z <= -C) = exp(-alpha C / 2) / 2 for Z ~ Lap(2/alpha).
    c, alpha, n = 3.0, 0.5, 200_000
    x = perturb_histogram(np.full(n, c), alpha, rng=np.random.default_rng(7))
    p = float(zero_probability([c], alpha)[0])
    assert p == pytest.approx(0.5 * np.exp(-0.75))
    se = np.sqrt(p * (1 - p) / n)
    assert abs(np.mean(x == 0) - p) < 4 * se


@pytest.mark.parametrize("alpha", [1.0, 0.1])
def test_positive_part_follows_shifted_laplace(alpha):
    # For x > 0, P(X <= x) = F(x) with F the Lap(C, 2/alpha) CDF (scipy as reference).
    c, n = 5.0, 100_000
    x = perturb_histogram(np.full(n, c), alpha, rng=np.random.default_rng(11))
    ref = stats.laplace(loc=c, scale=2 / alpha)
    for q in (0.6, 0.75, 0.9, 0.99):
        point = ref.ppf(q)
        if point <= 0:
            continue
        se = np.sqrt(q * (1 - q) / n)
        assert abs(np.mean(x <= point) - q) < 4 * se


def test_noise_variance_for_large_counts():
    # Far from zero the truncation never acts: Var(X) = 2 b^2 with b = 2/alpha.
    alpha, n = 0.2, 100_000
    x = perturb_histogram(np.full(n, 10_000.0), alpha, rng=3)
    var = 2 * laplace_scale(alpha) ** 2
    assert noise_sd(alpha) ** 2 == pytest.approx(var)
    # Var of the sample variance of a Laplace: (mu4 - sigma^4)/n, mu4 = 24 b^4 = 6 var^2.
    se = np.sqrt((6 * var**2 - var**2) / n)
    assert abs(np.var(x) - var) < 4 * se
    assert abs(np.mean(x) - 10_000) < 4 * np.sqrt(var / n)


def test_batches_get_independent_noise():
    c = np.full((2, 50), 100.0)
    x = perturb_histogram(c, 1.0, rng=5)
    assert not np.array_equal(x[0], x[1])


def test_same_seed_same_result_and_generator_accepted():
    c = np.array([0.0, 5.0, 50.0, 500.0])
    assert np.array_equal(perturb_histogram(c, 0.1, rng=42), perturb_histogram(c, 0.1, rng=42))
    assert not np.array_equal(perturb_histogram(c, 0.1, rng=42), perturb_histogram(c, 0.1, rng=43))
    g1, g2 = np.random.default_rng(9), np.random.default_rng(9)
    assert np.array_equal(perturb_histogram(c, 0.1, rng=g1), perturb_histogram(c, 0.1, rng=g2))


def test_noise_rescales_with_alpha_under_a_fixed_seed():
    # The documented property: one stream of standard Laplace variates, scaled by 2/alpha.
    c = np.full(1000, 10_000.0)
    z1 = perturb_histogram(c, 0.1, rng=8) - c
    z2 = perturb_histogram(c, 1.0, rng=8) - c
    np.testing.assert_allclose(z1, 10 * z2, rtol=1e-9, atol=1e-9)


def test_laplace_scale():
    assert laplace_scale(0.5) == 4.0


@pytest.mark.parametrize("alpha", [0, -1, np.nan, np.inf, "a", None])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match="`alpha`"):
        perturb_histogram([1, 2], alpha)


@pytest.mark.parametrize(
    "counts, message",
    [([1, -1], "negative"), ([1, np.nan], "finite"), ([1, np.inf], "finite"), (3, "array"),
     (["a", "b"], "numbers")],
)
def test_bad_counts(counts, message):
    with pytest.raises(ValueError, match=f"`counts`.*{message}"):
        perturb_histogram(counts, 1.0)


# --- several groups at once, and the budget (issue 37) ---------------------------------

def test_release_groups_is_eq_2_4_on_the_groups_by_bins_table():
    c = np.array([[3, 5, 2, 0], [40, 0, 6, 1], [0, 0, 0, 9]])
    x = release_groups(c, 0.8, rng=4)
    assert x.shape == (3, 4) and x.dtype == float and np.all(x >= 0)
    np.testing.assert_array_equal(x, perturb_histogram(c, 0.8, rng=4))
    one = release_groups([3, 5, 2], 0.8, rng=4)  # a 1-D histogram is one group
    assert one.shape == (1, 3)


@pytest.mark.parametrize("alpha", [0.2, 1.0, 4.0])
def test_release_groups_noise_has_scale_2_over_alpha_and_is_independent(alpha):
    # Counts far from 0 are never truncated, so X - C is the noise Lap(2/alpha):
    # E|Z| = b (SE b/sqrt(R): |Z| is exponential), Var Z = 2 b^2, and the groups' noises
    # are uncorrelated (SE of a correlation about 1/sqrt(R)).
    reps, b = 40_000, 2 / alpha
    c = np.full((reps, 3, 2), 1e6)
    z = release_groups(c, alpha, rng=np.random.default_rng(21)) - c
    assert z.shape == (reps, 3, 2)
    assert np.all(np.abs(np.mean(np.abs(z), axis=0) - b) < 4 * b / np.sqrt(reps))
    # Var of a sample variance of Laplace: (mu4 - sigma^4)/R with mu4 = 24 b^4, sigma^2 = 2 b^2
    var_se = np.sqrt((24 - 4) * b**4 / reps)
    assert np.all(np.abs(z.var(axis=0) - 2 * b**2) < 4 * var_se)
    flat = z.reshape(reps, 6)
    corr = np.corrcoef(flat, rowvar=False)[np.triu_indices(6, 1)]
    assert np.all(np.abs(corr) < 4 / np.sqrt(reps))


def test_budget_spent_adds_the_releases():
    assert budget_spent([0.5, 0.25, 0.25]) == 1.0
    assert budget_spent(0.3) == 0.3
    assert budget_spent([]) == 0.0
    rng = np.random.default_rng(3)
    alphas = rng.uniform(0.01, 1, size=50)
    assert budget_spent(alphas) == pytest.approx(sum(alphas.tolist()), rel=1e-12)
    assert budget_spent(alphas[::-1]) == pytest.approx(budget_spent(alphas), rel=1e-12)


def test_budget_check_allows_up_to_the_total_and_refuses_beyond_naming_alpha():
    assert budget_check(0.0, 0.5, 1.0) == 0.5
    assert budget_check(0.5, 0.5, 1.0) == 1.0  # exactly the total fits
    spent = 0.0
    for _ in range(10):  # 0.1 ten times sums to 0.9999999999999999 in floating point
        spent = budget_check(spent, 0.1, 1.0)
    assert spent == pytest.approx(1.0)
    assert budget_check(0.1, 0.2, 0.3) == pytest.approx(0.3)  # 0.30000000000000004 fits
    with pytest.raises(ValueError, match=r"`alpha` must be at most 0.25, got 0.5"):
        budget_check(0.75, 0.5, 1.0)
    with pytest.raises(ValueError, match="`alpha`"):
        budget_check(1.0, 1e-6, 1.0)  # nothing left
    with pytest.raises(ValueError, match=r"`alpha` must be at most 0.0,"):
        budget_check(1.5, 0.1, 1.0)  # already over
    with pytest.raises(ValueError, match="`alpha`"):
        budget_check(0.0, 1.0 + 1e-6, 1.0)  # beyond the tolerance


@pytest.mark.parametrize("call, name", [
    (lambda: release_groups([[1, -1]], 1.0), "counts_by_group"),
    (lambda: release_groups([[1, np.nan]], 1.0), "counts_by_group"),
    (lambda: release_groups([[1, 2]], 0.0), "alpha"),
    (lambda: budget_spent([0.5, 0.0]), "alphas"),
    (lambda: budget_spent([0.5, np.inf]), "alphas"),
    (lambda: budget_spent(["a"]), "alphas"),
    (lambda: budget_check(-0.1, 0.5, 1.0), "spent"),
    (lambda: budget_check(0.0, 0.0, 1.0), "alpha"),
    (lambda: budget_check(0.0, 0.5, np.inf), "total"),
])
def test_groups_and_budget_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        call()
