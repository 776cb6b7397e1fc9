"""Tests of dpcore.ldp (k-ary randomized response) against closed forms and Monte Carlo.

Monte Carlo tolerances are 4 standard errors of the quantity tested, computed from the
number of replicates; every generator is seeded.
"""

import numpy as np
import pytest
from scipy import stats

from dpcore import datasets, ldp

SKEWED = np.array([6000, 2500, 1000, 400, 100])  # N = 10,000 over k = 5


# ---------------------------------------------------------------------------
# p and q
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("eps, k", [(0.01, 2), (1.0, 2), (1.0, 3), (3.0, 100), (50.0, 10**6),
                                    (1e-6, 10**6)])
def test_probabilities_closed_form(eps, k):
    p, q = ldp.krr_probabilities(eps, k)
    # p = e^ε/(e^ε + k − 1) and q = (1 − p)/(k − 1), in exact-enough float arithmetic
    # from the source's own form where it does not overflow
    e = np.exp(min(eps, 700))
    assert p == pytest.approx(e / (e + k - 1), rel=1e-12)
    assert p + (k - 1) * q == pytest.approx(1.0, rel=1e-12)
    assert np.log(p / q) == pytest.approx(eps, rel=1e-9, abs=1e-12)
    assert 0 < q < p < 1 or (eps == 50.0 and p <= 1)


def test_source_example_two_answers():
    # p = 0.75 in the source's yes/no example corresponds to ε = ln 3
    p, q = ldp.krr_probabilities(np.log(3), 2)
    assert (p, q) == pytest.approx((0.75, 0.25))


# ---------------------------------------------------------------------------
# Perturbation: the guarantee and the two samplers
# ---------------------------------------------------------------------------


def test_report_probabilities_and_ratio_by_monte_carlo():
    eps, k, n = 1.2, 4, 400_000
    rng = np.random.default_rng(1)
    p, q = ldp.krr_probabilities(eps, k)
    from_v = ldp.krr_perturb(np.zeros(n, int), eps, k, rng=rng)  # everyone's truth is 0
    from_w = ldp.krr_perturb(np.ones(n, int), eps, k, rng=rng)  # everyone's truth is 1
    p_hat = np.mean(from_v == 0)
    q_hat = np.mean(from_w == 0)
    assert abs(p_hat - p) < 4 * np.sqrt(p * (1 - p) / n)
    assert abs(q_hat - q) < 4 * np.sqrt(q * (1 - q) / n)
    # the ratio P(report v | v)/P(report v | w) ≈ e^ε (delta method for its log)
    se_log = np.sqrt((1 - p) / (n * p) + (1 - q) / (n * q))
    assert abs(np.log(p_hat / q_hat) - eps) < 4 * se_log
    # the other values are equally likely: chi-square goodness of fit on reports ≠ 0
    others = np.bincount(from_v[from_v != 0], minlength=k)[1:]
    assert stats.chisquare(others).pvalue > 1e-3


def test_perturb_and_perturb_counts_have_the_same_distribution():
    """Per-user k-RR and the O(k) count sampler: a two-sample chi-square test per category
    and on the joint counts, over many draws."""
    counts = np.array([30, 10, 5, 0, 55])
    values = np.repeat(np.arange(counts.size), counts)
    eps, reps = 0.7, 4000
    rng = np.random.default_rng(7)
    per_user = np.stack([np.bincount(ldp.krr_perturb(values, eps, 5, rng=rng), minlength=5)
                         for _ in range(reps)])
    direct = ldp.krr_perturb_counts(np.broadcast_to(counts, (reps, 5)), eps, rng=rng)
    assert direct.shape == (reps, 5) and np.all(direct.sum(axis=1) == counts.sum())
    for v in range(5):
        hi = int(max(per_user[:, v].max(), direct[:, v].max())) + 1
        a = np.bincount(per_user[:, v], minlength=hi)
        b = np.bincount(direct[:, v].astype(int), minlength=hi)
        keep = (a + b) >= 10
        table = np.vstack([np.append(a[keep], a[~keep].sum()), np.append(b[keep], b[~keep].sum())])
        table = table[:, table.sum(axis=0) > 0]
        assert stats.chi2_contingency(table).pvalue > 1e-3, v
    # and the covariance of two categories agrees (a joint property)
    c_user = np.cov(per_user[:, 0], per_user[:, 4])[0, 1]
    c_direct = np.cov(direct[:, 0], direct[:, 4])[0, 1]
    sd = np.sqrt(per_user[:, 0].var() * per_user[:, 4].var() / reps)  # SE scale of a covariance
    assert abs(c_user - c_direct) < 4 * np.sqrt(2) * sd


def test_same_seed_same_result():
    a = ldp.krr_perturb(np.arange(10) % 3, 1.0, 3, rng=5)
    np.testing.assert_array_equal(a, ldp.krr_perturb(np.arange(10) % 3, 1.0, 3, rng=5))
    b = ldp.krr_perturb_counts(SKEWED, 1.0, rng=5)
    np.testing.assert_array_equal(b, ldp.krr_perturb_counts(SKEWED, 1.0, rng=5))
    assert not np.array_equal(b, ldp.krr_perturb_counts(SKEWED, 1.0, rng=6))


# ---------------------------------------------------------------------------
# The unbiased estimator and its variance
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("eps", [0.3, 1.0, 3.0])
def test_unbiased_and_exact_variance_by_monte_carlo(eps):
    reps = 20_000
    reported = ldp.krr_perturb_counts(np.broadcast_to(SKEWED, (reps, 5)), eps, rng=11)
    est = ldp.krr_estimate(reported, eps)
    var = ldp.krr_variance(SKEWED, eps)
    # mean within 4 SE of the truth
    assert np.all(np.abs(est.mean(axis=0) - SKEWED) < 4 * np.sqrt(var / reps))
    # sample variance within 4 SE of the formula (Var of a sample variance ≈ 2σ⁴/(R − 1),
    # the estimates being close to normal)
    assert np.all(np.abs(est.var(axis=0, ddof=1) - var) < 4 * var * np.sqrt(2 / (reps - 1)))
    # and the formula is what the binomial decomposition gives, term by term
    p, q = ldp.krr_probabilities(eps, 5)
    n = SKEWED.sum()
    direct = (SKEWED * p * (1 - p) + (n - SKEWED) * q * (1 - q)) / (p - q) ** 2
    np.testing.assert_allclose(var, direct, rtol=1e-12)


def test_unbiased_estimate_inverts_the_expected_reports():
    eps, k = 0.8, 5
    p, q = ldp.krr_probabilities(eps, k)
    expected_reports = p * SKEWED + q * (SKEWED.sum() - SKEWED)
    np.testing.assert_allclose(ldp.krr_estimate(expected_reports, eps), SKEWED, rtol=1e-12)


# ---------------------------------------------------------------------------
# Constrained estimators
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["clip", "simplex", "ibu"])
def test_constrained_estimates_are_nonnegative_and_sum_to_n(method):
    reported = ldp.krr_perturb_counts(np.broadcast_to(SKEWED, (200, 5)), 0.2, rng=3)
    raw = ldp.krr_estimate(reported, 0.2)
    assert np.any(raw < 0), "the setting must produce negative unbiased estimates"
    est = ldp.krr_estimate(reported, 0.2, method=method)
    assert np.all(est >= 0)
    np.testing.assert_allclose(est.sum(axis=1), SKEWED.sum(), rtol=1e-9)


def test_simplex_projection_is_the_nearest_point():
    # Compare with a general-purpose solver: minimise ||x − y||² over the simplex.
    from scipy import optimize

    reported = ldp.krr_perturb_counts(SKEWED, 0.2, rng=4)
    raw = ldp.krr_estimate(reported, 0.2)
    n = SKEWED.sum()
    ours = ldp.krr_estimate(reported, 0.2, method="simplex")
    res = optimize.minimize(lambda x: np.sum((x - raw) ** 2), np.full(5, n / 5),
                            jac=lambda x: 2 * (x - raw), bounds=[(0, None)] * 5,
                            constraints=[dict(type="eq", fun=lambda x: x.sum() - n)],
                            method="SLSQP", options=dict(ftol=1e-14, maxiter=500))
    np.testing.assert_allclose(ours, res.x, atol=1e-3 * n / 1000)
    # where no coordinate is negative the projection keeps the unbiased estimate
    fine = ldp.krr_perturb_counts(SKEWED * 100, 3.0, rng=4)
    np.testing.assert_allclose(ldp.krr_estimate(fine, 3.0, method="simplex"),
                               ldp.krr_estimate(fine, 3.0), rtol=1e-12)


def test_ibu_is_the_maximum_likelihood_estimate():
    """IBU converges to the MLE: no other distribution has a higher multinomial likelihood."""
    eps, k = 0.5, 5
    p, q = ldp.krr_probabilities(eps, k)
    reported = ldp.krr_perturb_counts(SKEWED, eps, rng=9)
    pi = ldp.krr_estimate(reported, eps, method="ibu") / SKEWED.sum()

    def loglik(dist):
        return float(reported @ np.log(q + (p - q) * dist))

    best = loglik(pi)
    rng = np.random.default_rng(0)
    for _ in range(200):
        other = np.clip(pi + rng.normal(0, 0.01, k), 0, None)
        assert loglik(other / other.sum()) <= best + 1e-9
    # and where the unbiased estimate is inside the simplex it is the MLE itself
    big = ldp.krr_perturb_counts(SKEWED * 100, 2.0, rng=9)
    np.testing.assert_allclose(ldp.krr_estimate(big, 2.0, method="ibu"),
                               ldp.krr_estimate(big, 2.0), rtol=1e-6)


def test_ibu_beats_unbiased_at_small_eps_on_skewed_data():
    """Setting: the skewed 5-category histogram (60/25/10/4/1%, N = 10,000), ε = 0.2,
    500 replicates. IBU's MSE per category must not exceed the unbiased estimator's
    (its theoretical MSE is the mean exact variance), beyond 4 Monte Carlo SE."""
    table = ldp.krr_mse(SKEWED, [0.2], methods=("unbiased", "ibu"), reps=500, rng=21)
    row = table.set_index("method")
    assert row.loc["unbiased", "mse"] == pytest.approx(row.loc["unbiased", "theory"],
                                                       abs=4 * row.loc["unbiased", "se"])
    assert row.loc["ibu", "mse"] <= row.loc["unbiased", "mse"] + 4 * row.loc["ibu", "se"]
    assert row.loc["ibu", "mse"] < 0.8 * row.loc["unbiased", "theory"]  # clearly better here


def test_mse_table_progress_and_theory(progress_log):
    table = ldp.krr_mse(SKEWED, [0.5, 2.0], reps=300, rng=2, progress=progress_log)
    progress_log.check()
    assert progress_log.calls == [(0.5, "eps=0.5"), (1.0, "eps=2")]
    assert set(table.method) == set(ldp.ESTIMATORS)
    unb = table[table.method == "unbiased"].set_index("eps")
    for eps in (0.5, 2.0):
        assert unb.loc[eps, "theory"] == pytest.approx(ldp.krr_variance(SKEWED, eps).mean())
        assert abs(unb.loc[eps, "mse"] - unb.loc[eps, "theory"]) < 4 * unb.loc[eps, "se"]
    assert table.loc[table.method != "unbiased", "theory"].isna().all()


# ---------------------------------------------------------------------------
# Teaching table, intervals, bad input
# ---------------------------------------------------------------------------


def test_demo_table():
    values = np.array([0, 1, 2] * 7)[:20]
    table = ldp.krr_demo_table(values, 1.0, 3, labels=["A", "B", "C"], rng=0)
    p, _ = ldp.krr_probabilities(1.0, 3)
    assert list(table.columns) == ["user", "true", "coin", "told_truth", "reported"]
    assert len(table) == 20 and list(table.user) == list(range(1, 21))
    assert (table.told_truth == (table.coin < p)).all()
    assert (table.reported[table.told_truth] == table.true[table.told_truth]).all()
    assert (table.reported[~table.told_truth] != table.true[~table.told_truth]).all()
    assert list(table.true) == [["A", "B", "C"][v] for v in values]


def test_interval_is_two_exact_standard_errors():
    est = ldp.krr_estimate(ldp.krr_perturb_counts(SKEWED, 1.0, rng=1), 1.0)
    lo, hi = ldp.krr_interval(est, SKEWED, 1.0)
    np.testing.assert_allclose((hi - lo) / 4, np.sqrt(ldp.krr_variance(SKEWED, 1.0)))


def test_age_groups_for_k_categories():
    for k in (2, 9, 86):
        groups = datasets.age_groups("korea", k)
        assert len(groups) == k
        assert groups.sum() == datasets.age_histogram("korea").sum()
    assert list(datasets.age_groups("korea", 86).to_numpy()) == list(
        datasets.age_histogram("korea", 1).to_numpy())


@pytest.mark.parametrize("call, name", [
    (lambda: ldp.krr_probabilities(0.0, 3), "eps"),
    (lambda: ldp.krr_probabilities(1.0, 1), "k"),
    (lambda: ldp.krr_probabilities(1.0, 10**6 + 1), "k"),
    (lambda: ldp.krr_perturb([0, 3], 1.0, 3), "values"),
    (lambda: ldp.krr_perturb([0.5], 1.0, 3), "values"),
    (lambda: ldp.krr_perturb_counts([1, -1], 1.0), "counts"),
    (lambda: ldp.krr_perturb_counts([1.5, 1], 1.0), "counts"),
    (lambda: ldp.krr_perturb_counts([5], 1.0), "counts"),
    (lambda: ldp.krr_estimate([1, 2], 1.0, method="mle"), "method"),
    (lambda: ldp.krr_estimate([0, 0], 1.0), "reported_counts"),
    (lambda: ldp.krr_estimate([1, np.nan], 1.0), "reported_counts"),
    (lambda: ldp.krr_variance([1, 2], -1.0), "eps"),
    (lambda: ldp.krr_mse([1, 2], [1.0], reps=0), "reps"),
    (lambda: ldp.krr_demo_table([0, 1], 1.0, 2, labels=["a"]), "labels"),
    (lambda: datasets.age_groups("korea", 87), "k"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize("eps", [0.2, 1.0, 4.0])
def test_closed_form_mle_is_the_limit_of_the_em_iterations(eps):
    """The closed form used for "ibu" against the literal IBU/EM iterations run long."""
    from dpcore.ldp import _ibu

    k = 30
    true = np.round(1e5 / (np.arange(k) + 3) ** 1.5)
    reported = ldp.krr_perturb_counts(true, eps, rng=12)
    p, q = ldp.krr_probabilities(eps, k)
    closed = ldp.krr_estimate(reported, eps, method="ibu") / reported.sum()
    short = _ibu(reported / reported.sum(), p, q, max_iter=5_000)
    long = _ibu(reported / reported.sum(), p, q, max_iter=100_000)

    def loglik(dist):
        return float(reported @ np.log(q + (p - q) * dist))

    # nothing the iterations reach is better, and they keep closing in on the closed form
    # (slowly where categories sit at 0: EM then converges sublinearly)
    assert loglik(closed) >= loglik(long) - 1e-9 and loglik(long) >= loglik(short) - 1e-9
    gap_short, gap_long = np.abs(short - closed).max(), np.abs(long - closed).max()
    assert gap_long <= 1e-6 or gap_long < 0.25 * gap_short
    # KKT: equal marginal likelihood d N_w/(q + d π_w) on the active set, and no more on zeros
    d = p - q
    grad = d * reported / (q + d * closed)
    active = closed > 0
    np.testing.assert_allclose(grad[active], grad[active].mean(), rtol=1e-9)
    assert np.all(grad[~active] <= grad[active].mean() * (1 + 1e-9))
