"""ui.pages.ldp: the randomized response page's settings, data, computations and sentences,
tested directly (no AppTest). Expected numbers come from dpcore.ldp and dpcore.datasets with
the page's documented random streams: the data from ``[seed, 0]``, the reported counts from
``[seed, 1]``, the MSE simulation from ``[seed, 2]``, the coins of the demo from
``[seed, 3, flips]`` and its users from ``[seed, 4]``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpcore import datasets, ldp
from ui import links
from ui.format import fmt_big, fmt_pct
from ui.pages import ldp as page
from ui.sources import CategoryCounts

SEED = 2022


def builtin(source="survey", n=10_000, seed=SEED, **chosen) -> page.Data:
    labels, probs, what = page.builtin_probabilities(source, **chosen)
    return page.sampled_data(labels, probs, n, seed, what)


def settings(data=None, **values) -> page.Settings:
    return page.Settings(data if data is not None else builtin(), **{"seed": SEED, **values})


def fmt4(v: float) -> str:
    """4 significant digits, powers of ten as people write them (never e-notation)."""
    text = f"{v:.4g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}·10" + str(int(exponent)).translate(str.maketrans("-0123456789",
                                                                           "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return text


# --- data ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("source", "chosen", "labels", "shares"), [
    ("survey", {"yes": 40}, ["yes", "no"], [40, 60]),
    ("abc", {"shares": (50, 30, 70)}, ["A", "B", "C"], [50, 30, 70]),
    *[(population, {"k": k}, None, None) for population in datasets.POPULATIONS
      for k in (2, 9, 86)],
])
def test_builtin_data_are_drawn_from_the_documented_streams(source, chosen, labels, shares):
    data = builtin(source, n=1000, **chosen)
    if labels is None:  # a population's ages in k groups
        groups = datasets.age_groups(source, chosen["k"])
        labels, probs = list(groups.index), datasets.proportions(groups.to_numpy())
        assert data.what == (f"1,000 users drawn from ages of {datasets.POPULATIONS[source]} "
                             f"(2020) in {chosen['k']} groups")
    else:
        probs = datasets.proportions(shares)
    assert data.labels == labels and data.k == len(labels) and data.sampled
    np.testing.assert_array_equal(data.counts,
                                  datasets.draw_histogram(probs, 1000, rng=[SEED, 0]))
    np.testing.assert_array_equal(data.demo, np.random.default_rng([SEED, 4]).choice(
        len(labels), size=20, p=probs))
    assert data.users == "1,000"


def test_shares_all_zero_cannot_be_used_and_shares_used_are_said():
    with pytest.raises(ValueError):
        page.builtin_probabilities("abc", shares=(0, 0, 0))
    _, probs, _ = page.builtin_probabilities("abc", shares=(50, 30, 70))
    assert page.shares_used(probs) == "Shares used: A 33.3%, B 20%, C 46.7% (a skewed default: " \
        "50/30/20%)."
    assert builtin().what == "10,000 users drawn from a yes/no survey with 30% true “yes”"


def test_a_files_demo_shows_its_first_users_and_its_text_is_escaped_for_markdown():
    values = CategoryCounts(["maybe", "no", "yes"], np.array([5.0, 15.0, 10.0]),
                            np.array([2, 1, 1, 0, 2, 1] * 5), 'the 30 answers in column "a_b"')
    data = page.file_data(values, SEED)
    np.testing.assert_array_equal(data.demo, values.first[:20])
    assert not data.sampled and data.users == "30"
    assert 'column "a\\_b"' in page.in_plain_words(settings(data))
    counts = CategoryCounts(["yes", "no"], np.array([300.0, 700.0]), None, "the counts")
    np.testing.assert_array_equal(page.file_data(counts, SEED).demo,
                                  np.random.default_rng([SEED, 4]).choice(2, size=20,
                                                                          p=[0.3, 0.7]))


# --- the guarantee and the report's settings ----------------------------------------------------

@pytest.mark.parametrize(("eps", "source", "k"), [(0.01, "survey", 2), (0.5, "korea", 10),
                                                  (1.0, "korea", 86), (10.0, "abc", 3),
                                                  (3.0, "usa", 40)])
def test_p_and_q_are_dpcores_and_the_report_says_them(eps, source, k):
    s = settings(builtin(source, k=k), source=source, k=k, eps=eps)
    p, q = ldp.krr_probabilities(eps, k)
    assert s.pq == (p, q) and s.data.k == k
    items = s.report_items()
    assert list(items) == ["data", "categories k", "users N", "privacy ε", "p (truth)",
                           "q (a given lie)", "seed"]
    assert items["p (truth)"] == fmt4(p) and items["q (a given lie)"] == fmt4(q)
    assert items["privacy ε"] == f"{eps:g}" and items["seed"] == SEED
    assert f"truth with probability {fmt_pct(p, 4)}" in page.guarantee_finding(s)
    assert f"{eps:g}-local differential privacy" in page.in_plain_words(s)


def test_the_default_guarantee_in_words_and_the_tabs_settings_in_the_report():
    s = settings()
    assert "tells the truth with probability p = 73.11%" in page.in_plain_words(s)
    assert "p/q = $e^{1}$ = 2.718 times" in page.in_plain_words(s)
    items = settings(flips=2, method="simplex", reps=1000).report_items()
    assert list(items)[-3:] == ["coin flips of the demo", "estimator", "replicates R per ε"]
    assert (items["coin flips of the demo"], items["estimator"],
            items["replicates R per ε"]) == (2, "project onto the simplex", "1,000")


# --- 1. One user at a time -------------------------------------------------------------------

@pytest.mark.parametrize("flips", [0, 1, 5])
def test_the_demo_flips_the_documented_coins(flips):
    s = settings(flips=flips)
    table = page.demo_table(s)
    expected = ldp.krr_demo_table(s.data.demo, 1.0, 2, labels=["yes", "no"],
                                  rng=[SEED, 3, flips])
    assert list(table.columns) == ["user", "true answer", "coin u", "u < p: tells the truth",
                                   "reported answer"]
    np.testing.assert_array_equal(table["coin u"], expected["coin"])
    assert table["reported answer"].tolist() == expected["reported"].tolist()
    told = int(expected["told_truth"].sum())
    assert page.demo_caption(told, 20, s.pq[0]).startswith(f"{told} of 20 users told the truth")


# --- 2. The aggregate --------------------------------------------------------------------------

@pytest.mark.parametrize("method", list(ldp.ESTIMATORS))
@pytest.mark.parametrize("eps", [0.1, 2.0])
def test_the_aggregate_is_dpcores(method, eps):
    s = settings(builtin("korea", k=18), source="korea", k=18, eps=eps, method=method)
    a = page.aggregate(s)
    true = s.data.counts
    np.testing.assert_array_equal(a.reported, ldp.krr_perturb_counts(true, eps, rng=[SEED, 1]))
    estimate = ldp.krr_estimate(a.reported, eps, method=method)
    np.testing.assert_allclose(a.estimate, estimate, rtol=1e-12)
    np.testing.assert_allclose(a.two_se, 2 * np.sqrt(ldp.krr_variance(true, eps)), rtol=1e-12)
    assert a.error == pytest.approx(np.abs(estimate - true).sum())
    assert a.negatives == int(np.sum(estimate < 0))
    if method != "unbiased":  # their whiskers are cut at 0
        assert (a.lower >= 0).all()
    table = page.counts_table(s, a)
    assert list(table.columns) == ["category", "true n_v", "reported N_v", "estimate n̂_v",
                                   "± 2 SE"]
    assert f"the {page.ESTIMATOR_LABELS[method]} estimate is off" in page.aggregate_finding(s, a)


def test_the_unbiased_estimate_can_be_negative():
    s = settings(builtin("korea", k=86), source="korea", k=86, eps=0.1, method="unbiased")
    assert page.aggregate(s).negatives > 0


# --- Category by category: the whiskers' coverage and each estimator against the unbiased one --

ISSUE_17 = CategoryCounts(list("ABCDEFGH"), np.array([5000.0, 3000, 1500, 400, 80, 15, 5, 0]),
                          None, "issue 17's counts")


def issue_17(method: str) -> tuple[page.Settings, pd.DataFrame]:
    s = settings(page.file_data(ISSUE_17, SEED), source="upload", eps=0.5, method=method)
    return s, page.category_errors(tuple(s.data.counts), 0.5, SEED)


def test_the_per_category_comparison_is_dpcores():
    s, errors = issue_17("clip")
    assert page.category_reps(8) == 5000
    pd.testing.assert_frame_equal(errors, ldp.krr_category_errors(
        s.data.counts, 0.5, reps=5000, rng=[SEED, 5]))
    assert page.category_reps(86) == 5000 and page.category_reps(1000) == 1600
    assert page.category_reps(10**6) == page.REPS_GRID[0]


def test_the_caption_does_not_call_clip_better_on_the_largest_category():
    """Issue 17: at ε = 0.5 with these counts clip-and-renormalise has the larger MSE on the
    largest category, A, and its whiskers cover less there than elsewhere."""
    s, errors = issue_17("clip")
    rows = page.method_errors(errors, "clip")
    assert rows.loc[0, "verdict"] == "larger" and rows.loc[0, "ratio"] > 1.1
    assert (rows.loc[[4, 5, 6, 7], "verdict"] == "smaller").all()
    caption = page.whisker_caption(s, errors)
    head = caption[caption.index("On the largest category"):].split(". ")[0]
    assert head == (f"On the largest category, A (5,000 users), the mean squared error of the "
                    f"estimate (clip and renormalise) is {rows.loc[0, 'ratio']:#.3g} times the "
                    f"unbiased estimator's: larger")
    assert "smaller on C, D, E, F, G, H" in caption or "smaller on D, E, F, G, H" in caption
    assert "not this estimator's own standard errors" in caption
    # the whiskers' coverage as measured, lowest on A
    low = rows["coverage"].min()
    assert rows["coverage"].idxmin() == 0 and low < 0.9545 - 3 * rows.loc[0, "coverage_se"]
    assert f"true count in {low:.1%} (A) to {rows['coverage'].max():.1%}" in caption
    assert f"{low:.1%} on the largest category" in caption
    assert "R = 5,000 simulated reports" in caption
    # the hover says the same per category
    notes = page.whisker_notes(s, errors)
    assert len(notes) == 8
    assert notes[0] == (f"whisker contained the true count in {low:.1%} of 5,000 simulated "
                        f"reports<br>MSE {rows.loc[0, 'ratio']:#.3g} times the unbiased "
                        f"estimator's: larger")
    assert page.whisker_name(s) == "± 2 SE of the unbiased estimator"
    # and the MSE tab's list and the report's note name every constrained estimator
    listed = page.per_category_list(s, errors).splitlines()
    assert len(listed) == 3 and listed[0] == "- " + page.comparison(s, errors, "clip")
    assert "estimate (project onto the simplex)" in listed[1]
    assert page.comparison(s, errors, "clip", md=False) in page.per_category_note(s, errors)


def test_the_unbiased_whiskers_say_their_coverage():
    s, errors = issue_17("unbiased")
    rows = page.method_errors(errors, "unbiased")
    assert (rows["verdict"] == "same").all()
    caption = page.whisker_caption(s, errors)
    assert caption.startswith("Whiskers: ± 2 standard errors of the unbiased estimator")
    assert "On the largest category" not in caption
    assert f"{rows.loc[0, 'coverage']:.1%} on the largest category" in caption
    assert page.whisker_notes(s, errors)[3] == (
        f"whisker contained the true count in {rows.loc[3, 'coverage']:.1%} of 5,000 "
        "simulated reports")
    assert page.whisker_name(s) == "± 2 SE"


def test_verdicts_count_only_differences_beyond_the_monte_carlo_error():
    errors = pd.DataFrame(dict(method="clip", category=range(5),
                               diff=[0.0, 3.1, -3.1, 2.9, 0.0], diff_se=[0.0, 1, 1, 1, 1],
                               ratio=[1.0, 1.2, 0.8, 1.1, 1.0]))
    assert page.method_errors(errors, "clip")["verdict"].tolist() == [
        "same", "larger", "smaller", "unclear", "unclear"]


def test_equal_coverage_is_said_once_and_ratios_keep_three_digits():
    s = settings(method="clip")  # the survey: k = 2
    errors = pd.DataFrame(dict(method="clip", category=[0, 1], diff=[-5.0, 0.0],
                               diff_se=[1.0, 1.0], ratio=[0.995, 1.0],
                               coverage=[0.9554, 0.9546], coverage_se=[0.003, 0.003]))
    assert "true count in 95.5% of them, in every category" in page.coverage_sentence(
        s, errors, "clip")
    text = page.comparison(s, errors, "clip")
    assert "is 1.00 times the unbiased estimator's: not clearly different" in text
    assert text.endswith("On the other categories: smaller on yes (0.995 times).")


def test_many_categories_are_counted_and_a_files_labels_escaped():
    labels = [f"c_{j}" for j in range(20)]
    counts = CategoryCounts(labels, np.arange(20.0, 0.0, -1.0) * 1000, None, "many")
    s = settings(page.file_data(counts, SEED), source="upload", eps=0.5, method="clip")
    errors = page.category_errors(tuple(s.data.counts), 0.5, SEED)
    text = page.comparison(s, errors, "clip")
    assert text.startswith("On the largest category, c\\_0 (20,000 users)")
    assert " categories" in text and "c\\_19" not in text  # more than LISTED: counted
    assert page.comparison(s, errors, "clip", md=False).startswith(
        "On the largest category, c_0 (20,000 users)")


# --- 3. Error versus privacy -------------------------------------------------------------------

@pytest.mark.parametrize(("source", "k", "reps"), [("survey", None, 200), ("usa", 86, 1000)])
def test_the_mse_is_dpcores(source, k, reps):
    data = builtin(source, k=k) if k else builtin()
    s = settings(data, eps=0.1, reps=reps)
    table = page.mse_table(tuple(data.counts), reps, SEED)
    pd.testing.assert_frame_equal(
        table, ldp.krr_mse(data.counts, links.LdpParams.EPS_GRID, reps=reps, rng=[SEED, 2]))
    shown = page.mse_shown(table)
    assert list(shown.columns) == ["ε", "method", "MSE", "SE", "exact MSE"]
    assert set(shown["method"]) == set(page.ESTIMATOR_LABELS.values())
    here = page.mse_at(table, 0.1)
    assert f"per category is {fmt_big(here.loc['unbiased', 'mse'])}" in page.mse_finding(s, here)


def test_replicates_are_capped_for_many_categories():
    assert page.reps_grid(2) == page.REPS_GRID
    assert max(page.reps_grid(1000)) <= 400_000 // 1000 and page.reps_grid(1000)


# --- 4. The guarantee: links to random substitution and f-DP -----------------------------------

@pytest.mark.parametrize(("eps", "source", "k", "gamma"), [
    (1.0, "survey", 2, 3.0),  # e = 2.718: γ = 3
    (0.01, "korea", 86, 1.1),
    (10.0, "abc", 3, 1000.0),
    (2.0, "usa", 9, 7.0),
])
def test_the_links_carry_eps_k_and_the_age_groups(eps, source, k, gamma):
    s = settings(builtin(source, k=k), source=source, k=k, eps=eps)
    link, label, notes = page.substitution_link(s)
    expected = {"rs_tab": "Privacy", "rs_gamma": f"{gamma:,g}"}
    if source in datasets.POPULATIONS:
        expected |= {"rs_source": links.POPULATION_AGE_LABELS[source], "rs_N": str(k)}
        assert f"the same N = {k} age groups" in label
    assert link.query == expected and f"γ = {gamma:,g}" in label
    [note] = notes  # e^ε is never on the γ grid
    assert note.endswith(f"is not on that page's γ slider: the link opens it at the nearest "
                         f"value, {gamma:,g}.")
    link, label, notes = page.fdp_link(s)
    assert link.query == {"fdp_tab": "Trade-off curves", "fdp_krr_eps": f"{eps:g}",
                          "fdp_krr_k": str(k)}
    assert f"{k}-RR at ε = {eps:g}" in label and not notes


def test_the_fdp_link_caps_k_and_says_so():
    counts = CategoryCounts([f"c{j}" for j in range(150)], np.arange(1.0, 151.0), None, "c")
    link, _, notes = page.fdp_link(settings(page.file_data(counts, SEED), source="upload"))
    assert link.query["fdp_krr_k"] == "100"
    assert notes == ["That page's k slider stops at 100: the link opens it at k = 100, not 150."]
