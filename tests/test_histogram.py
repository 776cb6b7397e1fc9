"""Tests of dpcore.histogram: the truncated Laplace mechanism, eq. (2.4)."""

import numpy as np
import pytest
from scipy import stats

from dpcore.histogram import laplace_scale, noise_sd, perturb_histogram, zero_probability


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
