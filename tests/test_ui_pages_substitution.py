"""ui.pages.substitution: the random substitution page's settings, data, computations and
sentences, tested directly (no AppTest). Expected numbers come from dpcore.substitution and
dpcore.datasets with the page's documented random streams: a population's records from
``[seed, 0]`` (the shapes' counts are fixed), the release of the first tab from
``[seed, 1]``, the R releases of the tabs Accuracy, Cost and Bias from ``[seed, 2]`` and
the paper grid from ``[seed, 5]``. R is reduced to max(2, 5·10⁶ // (N²(l + 1))) when the
slider's R is above it."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpcore import datasets
from dpcore import substitution as rs
from ui import links
from ui.format import fmt_big, fmt_number, fmt_rel
from ui.pages import substitution as page
from ui.sources import CategoryCounts

SEED = 2022
N, RECORDS, GAMMA, L, REPS = 50, 5_000, 10.0, 2, 100  # the defaults: normal shape


def settings(source="normal", n_cat=N, n=RECORDS, gamma=GAMMA, l=L, reps=REPS, seed=SEED,
             data=None, **values) -> page.Settings:
    data = data if data is not None else page.builtin_data(source, n_cat, n, seed)
    return page.Settings(data, gamma, l, page.budget_reps(reps, len(data.labels), l), reps,
                         seed, **values)


def fmt4(v: float) -> str:
    return f"{v + 0.0:.4g}"


def expected_errors(x, gamma=GAMMA, l=L, reps=REPS, seed=SEED) -> pd.DataFrame:
    return rs.error_table(x, gamma, [l], reps=reps, rng=[seed, 2]).set_index("estimator")


# --- data and settings -----------------------------------------------------------------------

@pytest.mark.parametrize(("source", "n_cat"), [("uniform", 7), ("normal", 100), ("usa", 2),
                                               ("korea", 86), ("korea_central", 9)])
def test_the_data_are_the_shapes_counts_or_drawn_from_a_population(source, n_cat):
    data = page.builtin_data(source, n_cat, 2000, SEED)
    if source in page.SHAPES:
        np.testing.assert_array_equal(data.counts, datasets.shape_counts(source, n_cat, 2000))
        assert data.labels == [str(j) for j in range(1, n_cat + 1)]
    else:
        groups = datasets.age_groups(source, n_cat)
        np.testing.assert_array_equal(data.counts, datasets.draw_histogram(
            datasets.proportions(groups.to_numpy()), 2000, rng=[SEED, 0]))
        assert data.labels == list(groups.index)
    assert data.source == source and data.what.startswith("2,000 records")


def test_a_files_counts_and_its_text_escaped_for_markdown():
    upload = CategoryCounts(["x", "y", "z"], np.array([300.0, 700.0, 0.0]), None,
                            'the counts in column "n_records"')
    data = page.file_data(upload)
    assert data.counts.dtype == np.int64 and data.source == page.UPLOAD
    assert 'column "n\\_records"' in page.in_plain_words(settings(data=data))


def test_reps_are_reduced_to_the_budget_and_the_report_says_so():
    s = settings("uniform", 200, l=20, reps=500)
    assert s.reps == 5_000_000 // (200 * 200 * 21) == 5 and s.reduced
    assert "reduced to R = 5" in page.reduced_caption(s) and "R = 500" in page.reduced_caption(s)
    assert s.report_items()["repetitions R"] == "5 (reduced from the 500 chosen)"
    assert page.reps_cap(200, 20) == 5 and page.reps_options(5, 5) == (5,)
    assert page.reps_options(13, 13) == (10, 13) and page.reps_options(100, 1000) == page.REPS_GRID
    assert [page.reps_from_url(v) for v in ("13", "1,000", "500", "1", "x", "2.5")] == \
        [13, None, 500, None, None, None]
    assert settings("uniform", 200, l=199, reps=10).reps == page.MIN_REPS
    items = settings(rho1=0.1, rho2=0.6).report_items()
    assert items == {"data": items["data"], "categories k": N, "records N": "5,000",
                     "amplification γ": "10", "ε = ln γ (one substitution)": "2.303",
                     "values per record l": L, "repetitions R": "100", "seed": SEED,
                     "breach: prior ρ₁": "0.1", "breach: posterior ρ₂": "0.6"}


def test_the_default_mechanism_in_numbers_and_words():
    s = settings()
    keep, other = page.keep_and_move(s)
    m = rs.gamma_diagonal_matrix(N, GAMMA)
    assert (keep, other) == (m[0, 0], m[1, 0]) and fmt4(keep) == "0.1695"
    assert fmt4(page.epsilon_l(s)) == fmt4(rs.extended_epsilon(N, GAMMA, L)) == "2.39"
    assert "ln γ = 2.303-local differential privacy" in page.in_plain_words(s)
    bound = 4 * math.log(GAMMA)
    assert (f"release is ε_l = {rs.extended_epsilon(N, GAMMA, 4):.3g}-locally differentially "
            f"private, against {bound:.3g} for Kang, Lee & Hong's (2009) bound") in \
        page.summary_finding(settings(l=4))


# --- 1. Release and reconstruction -------------------------------------------------------------

@pytest.mark.parametrize(("source", "n_cat", "n", "gamma", "l"), [
    ("normal", N, RECORDS, GAMMA, L), ("normal", N, RECORDS, 3.0, 1),
    ("uniform", 100, 50_000, 1000.0, 4)])
def test_one_release_and_its_reconstructions_are_dpcores(source, n_cat, n, gamma, l):
    s = settings(source, n_cat, n, gamma, l)
    release = page.one_release(s)
    expected = rs.extended_random_substitution(s.x, gamma, l, rng=[SEED, 1])
    np.testing.assert_array_equal(release.counts, expected.counts)
    assert release.counts.sum() == n * l
    estimates = page.reconstructions(s, release.counts)
    np.testing.assert_allclose(estimates["source"], rs.reconstruct(release.counts, gamma, l=l))
    np.testing.assert_allclose(estimates["unbiased"],
                               rs.reconstruct_unbiased(release.counts, gamma, l))
    errors = page.one_release_errors(s, estimates)
    for kind in page.KINDS:
        assert errors[kind] == pytest.approx(
            np.linalg.norm(estimates[kind] - s.x) / np.linalg.norm(s.x))
    table = page.release_table(s, release.counts, estimates)
    assert list(table.columns) == ["category", "X (true)",
                                   "Y (released)" if l == 1 else "Y* (released)",
                                   "X̂*/l (source)", "A⁻¹Y* (unbiased)"]


# --- 2. Accuracy, 3. Cost, 5. Bias: the R releases of [seed, 2] --------------------------------

@pytest.mark.parametrize(("gamma", "l", "n_cat", "reps", "seed"), [
    (GAMMA, L, N, REPS, SEED), (5.0, 4, N, REPS, SEED), (5.0, 4, 100, 20, 7)])
def test_the_simulated_errors_are_error_tables(gamma, l, n_cat, reps, seed):
    s = settings("normal", n_cat, gamma=gamma, l=l, reps=reps, seed=seed)
    table = expected_errors(s.x, gamma, l, reps, seed)
    pd.testing.assert_frame_equal(page.errors_of(s), table)
    assert table.loc["source", "exact"] == pytest.approx(rs.expected_standard_error(s.x, gamma, l))
    assert table["bound"].iloc[0] == pytest.approx(rs.standard_error_bound(n_cat, RECORDS, gamma,
                                                                          l))
    finding = page.accuracy_finding(s, table)
    assert f"exactly {table.loc['source', 'exact']:.3g} and " \
        f"{table.loc['unbiased', 'exact']:.3g}" in finding


def test_the_error_curves_and_where_the_bound_stops_bounding():
    s = settings()
    curves = page.error_curves(s)
    assert curves["l"].tolist() == list(range(1, 21))
    first = page.first_l_above_bound(curves)
    above = curves[(curves["source"] > curves["bound"]) | (curves["unbiased"] > curves["bound"])]
    assert first == (int(above["l"].min()) if len(above) else None)
    assert "N/√k" in page.accuracy_caption(first) and "independent" in page.accuracy_caption(first)
    assert list(page.l_values(settings("uniform", 7, l=6))) == list(range(1, 7))


def test_the_cost_is_dpcores_and_nothing_at_l_1():
    s = settings()
    cost = page.Cost.of(s)
    assert cost.expected == rs.expected_draws(RECORDS, N, GAMMA, L)
    assert cost.collision == rs.collision_probability(N, GAMMA, L)
    assert page.cost_table(s)["l"].tolist() == list(range(1, 21))
    one = page.Cost.of(settings(l=1))
    assert fmt_big(one.collision) == "0"  # not "-0"
    assert one.expected / RECORDS == 1
    assert page.one_release(settings(l=1)).draws == RECORDS  # one draw a record
    assert page.cost_finding(settings(l=1), one, RECORDS) == \
        "At l = 1 every record takes one random draw: no re-draws."


def test_the_bias_is_dpcores():
    s = settings()
    errors = page.errors_of(s)
    bias = np.linalg.norm(rs.reconstruction_bias(s.x, GAMMA, L)) / np.linalg.norm(s.x)
    assert fmt_rel(errors.loc["source", "bias"]) == f"{bias:.3%}" == "5.722%"
    assert fmt_rel(errors.loc["unbiased", "bias"]) == "0.000%"
    assert f"π = {rs.inclusion_probability(N, GAMMA, L):.4g}" in page.bias_caption(s)
    # At these settings the biased estimator has the smaller total error.
    assert "Kang, Lee & Hong's (2009) X̂*/l has the smaller total error" in \
        page.bias_against_variance(errors)
    for s in (settings(l=1), settings("uniform", l=4)):
        assert fmt_rel(page.errors_of(s).loc["source", "bias"]) == "0.000%"
    estimates = page.estimates_of(s)
    release = rs.extended_random_substitution(s.x, s.gamma, s.l, size=s.reps, rng=[SEED, 2])
    np.testing.assert_allclose(estimates["unbiased"],
                               rs.reconstruct_unbiased(release.counts, s.gamma, s.l))


def test_the_paper_grid_is_dpcores_in_the_sources_layout():
    result = page.paper_grid(10, SEED)
    expected = rs.paper_grid(reps=10, rng=[SEED, 5])
    pd.testing.assert_frame_equal(result["table"], expected)
    wide = page.grid_layout(result["table"])
    assert wide.shape == (8, 4 + 3 * 4)
    assert list(dict.fromkeys(c[0] for c in wide.columns)) == ["data", "l = 1", "l = 2", "l = 4"]
    assert [c[1] for c in wide.columns[:8]] == ["shape", "k", "γ", "N", "X̂*/l", "A⁻¹Y*",
                                                 "bound", "draws"]
    assert wide[("data", "shape")].tolist() == ["Uniform"] * 4 + ["Normal"] * 4
    assert wide[("data", "k")].tolist() == [50, 50, 100, 100] * 2
    assert wide[("data", "N")].tolist() == [5000, 50000] * 4
    cells = [(row, group) for row in range(len(wide)) for group in ("l = 1", "l = 2", "l = 4")]
    for (row, group), (_, cell) in zip(cells, expected.groupby(
            ["shape", "N", "gamma", "n", "l"], sort=False)):
        by = cell.set_index("estimator")
        assert wide.loc[row, (group, "X̂*/l")] == pytest.approx(by.loc["source", "actual"])
        assert wide.loc[row, (group, "A⁻¹Y*")] == pytest.approx(by.loc["unbiased", "actual"])
        assert wide.loc[row, (group, "bound")] == pytest.approx(by.loc["source", "bound"])
        assert wide.loc[row, (group, "draws")] == pytest.approx(by.loc["source", "draws"])


# --- 4. Privacy --------------------------------------------------------------------------------

@pytest.mark.parametrize(("gamma", "l", "n_cat"), [(10.0, 2, 50), (1.1, 30, 40), (1000.0, 4, 7)])
def test_privacy_and_breaches_are_dpcores(gamma, l, n_cat):
    s = settings("normal", n_cat, gamma=gamma, l=l, rho1=0.05, rho2=0.5)
    e = page.Privacy.of(s)
    assert e.log_gamma == math.log(gamma) and e.eps_bound == l * math.log(gamma)
    assert e.eps_l == rs.extended_epsilon(n_cat, gamma, l)
    assert e.eps_ordered == rs.extended_epsilon(n_cat, gamma, l, ordered=True)
    assert page.condition_number(s) == fmt4(1 + n_cat / (gamma - 1))
    threshold = rs.breach_gamma(0.05, 0.5)
    breach = page.breach_table(s, e, threshold)
    eps = [math.log(gamma), e.eps_l, l * math.log(gamma)]
    np.testing.assert_allclose(breach["ε"].to_numpy(), eps, rtol=1e-12)
    assert breach["no 0.05→0.5 breach"].tolist() == \
        ["yes" if v < math.log(threshold) else "no" for v in eps]
    np.testing.assert_allclose(breach["largest posterior"].to_numpy(),
                               [rs.posterior_bound(0.05, math.exp(v)) for v in eps])
    assert f"{threshold:.4g}" in page.breach_caption(threshold)
    assert page.epsilon_table(s)["l"].tolist() == list(range(1, n_cat))


@pytest.mark.parametrize(("source", "n_cat", "gamma", "eps", "k", "n"), [
    ("normal", 50, 10.0, 2.0, None, 50),  # ln 10 = 2.303: nearest 2
    ("korea", 86, 1.1, 0.1, 86, 86),
    ("uniform", 150, 1000.0, 7.0, None, 100),
])
def test_the_links_to_randomized_response_and_f_dp(source, n_cat, gamma, eps, k, n):
    s = settings(source, n_cat, gamma=gamma)
    link, label, notes = page.ldp_link(s)
    expected = {"ldp_tab": "The guarantee", "ldp_eps": f"{eps:g}"}
    if k is not None:
        expected |= {"ldp_source": links.POPULATION_AGE_LABELS[source], "ldp_k": str(k)}
        assert f"the same k = {k} age groups" in label
    assert link.query == expected and f"k-RR at ε = {eps:g}" in label
    assert notes == [f"ln γ = {math.log(gamma):.4g} is not on that page's ε slider: the link "
                     f"opens it at the nearest value, {eps:g}."]
    link, label, notes = page.fdp_link(s)
    assert link.query == {"fdp_tab": "Trade-off curves", "fdp_show_krr": "false",
                          "fdp_show_rs": "true", "fdp_rs_gamma": fmt_number(gamma),
                          "fdp_rs_n": str(n)}
    assert notes == ([] if n == n_cat else
                     [f"That page's k slider stops at 100: the link opens it at k = 100, not "
                      f"{n_cat}."])
