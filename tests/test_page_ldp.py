"""AppTest tests of the page "Randomized response (local DP)" (views/ldp.py).

The page is driven through its widgets by key (all keys start with ``ldp_``) and through
the URL query parameters they are bound to. Only the open tab runs; tests open a tab
through its key ``ldp_tab``. Expected numbers come from dpcore.ldp and dpcore.datasets
with the page's documented random streams: the data from ``[seed, 0]``, the reported
counts from ``[seed, 1]``, the MSE simulation from ``[seed, 2]``, the coins of the demo
from ``[seed, 3, flips]`` and its users from ``[seed, 4]``.
"""

from __future__ import annotations

from urllib.parse import parse_qs

import numpy as np
import dpviz
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from ui import format as fmt
from conftest import assert_clean, run, upload_file
from dpcore import datasets, ldp
from pagekit import (kit, TabbedPage, assert_kit_of_tab, assert_only_bad_value_reset,
                     assert_stopped_page_keeps_link_and_report, assert_upload_controls_have_help,
                     assert_widgets_keyed_with_help, errors, kit, kit_report, metrics,
                     open_linked, plain_error, query_id, warnings)

PAGE = "views/ldp.py"
TITLE = "Randomized response (local DP)"
DEMO, AGGREGATE, MSE, GUARANTEE = TABS = (
    "One user at a time", "The aggregate", "Error versus privacy", "The guarantee")
EPS_GRID = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0)
SEED = 2022
N = 10_000
SOURCE_URL = {
    "survey": "Survey: “Did you exercise yesterday?” (yes/no, k = 2)",
    "abc": "Three categories A, B, C (k = 3)",
    **{k: f"Population 2020 by age: {v}" for k, v in datasets.POPULATIONS.items()},
    "upload": "Uploaded CSV file",
}
METHOD_URL = {"unbiased": "unbiased", "clip": "clip and renormalise",
              "simplex": "project onto the simplex", "ibu": "IBU (maximum likelihood)"}


LDP = TabbedPage(PAGE, TITLE, "ldp_tab", TABS)
start, open_tab = LDP.start, LDP.open_tab


def frame(at: AppTest, column: str) -> pd.DataFrame:
    [df] = [d.value for d in at.dataframe if column in d.value.columns]
    return df


def counts_table(at: AppTest) -> pd.DataFrame:
    return frame(at, "reported N_v")


def fmt4(v: float) -> str:
    return f"{v:.4g}"


def sampled_counts(probs, n=N, seed=SEED) -> np.ndarray:
    return datasets.draw_histogram(probs, n, rng=[seed, 0]).astype(float)


# ---------------------------------------------------------------------------
# default view
# ---------------------------------------------------------------------------

def test_default_view():
    at = start()
    assert not errors(at)
    assert [t.label for t in at.tabs] == list(TABS)
    p, q = ldp.krr_probabilities(1.0, 2)
    shown = metrics(at)
    assert shown["p: tell the truth"] == fmt4(p) == "0.7311"
    assert shown["q: tell a given lie"] == fmt4(q) == "0.2689"
    assert shown["p/q = e^ε"] == fmt4(np.e)
    assert shown["Categories k"] == "2" and shown["Users N"] == "10,000"
    text = "\n".join(m.value for m in at.markdown)
    assert "tells the truth with probability p = 73.11%" in text
    assert "1-local differential privacy" in text
    assert at.latex  # the formulas
    assert at.select_slider(key="ldp_eps").value == 1.0
    assert at.select_slider(key="ldp_eps").options == [f"{e:g}" for e in EPS_GRID]
    for tab in TABS:
        open_tab(at, tab)
        assert not errors(at)
        assert_widgets_keyed_with_help(at, "ldp_")


@pytest.mark.parametrize(("eps", "k"), [(0.01, 2), (0.5, 10), (1.0, 86), (10.0, 3), (3.0, 40)])
def test_p_and_q_match_dpcore(eps, k):
    query = {"ldp_eps": f"{eps:g}", "ldp_source": SOURCE_URL["korea"], "ldp_k": str(k)}
    if k == 3:
        query = {"ldp_eps": f"{eps:g}", "ldp_source": SOURCE_URL["abc"]}
    elif k == 2:
        query = {"ldp_eps": f"{eps:g}"}
    at = start(query=query)
    assert not errors(at)
    p, q = ldp.krr_probabilities(eps, k)
    shown = metrics(at)
    assert shown["Categories k"] == str(k)
    assert shown["p: tell the truth"] == fmt4(p)
    assert shown["q: tell a given lie"] == fmt4(q)


def test_changing_eps_keeps_the_data_and_changes_p():
    at = start(AGGREGATE)
    before = counts_table(at)["true n_v"].to_numpy()
    at.select_slider(key="ldp_eps").set_value(0.1)
    run(at)
    assert metrics(at)["p: tell the truth"] == fmt4(ldp.krr_probabilities(0.1, 2)[0])
    np.testing.assert_array_equal(counts_table(at)["true n_v"].to_numpy(), before)


# ---------------------------------------------------------------------------
# data sources
# ---------------------------------------------------------------------------

def test_survey_source():
    at = start(AGGREGATE, {"ldp_yes": "40"})
    table = counts_table(at)
    assert table["category"].tolist() == ["yes", "no"]
    expected = sampled_counts(datasets.proportions([40, 60]))
    np.testing.assert_array_equal(table["true n_v"].to_numpy(), expected)


def test_abc_source_with_shares():
    at = start(AGGREGATE, {"ldp_source": SOURCE_URL["abc"]})
    table = counts_table(at)
    assert table["category"].tolist() == ["A", "B", "C"]
    np.testing.assert_array_equal(table["true n_v"].to_numpy(),
                                  sampled_counts(datasets.proportions([50, 30, 20])))
    at.slider(key="ldp_share_c").set_value(70)
    run(at)
    np.testing.assert_array_equal(counts_table(at)["true n_v"].to_numpy(),
                                  sampled_counts(datasets.proportions([50, 30, 70])))
    assert any("A 33%, B 20%, C 47%" in c.value for c in at.caption)


def test_abc_all_shares_zero_is_a_plain_error():
    at = start(query={"ldp_source": SOURCE_URL["abc"], "ldp_share_a": "0", "ldp_share_b": "0",
                      "ldp_share_c": "0"})
    [msg] = errors(at)
    assert "shares cannot be used" in msg and "`" not in msg
    assert at.slider(key="ldp_share_a")  # the controls to fix it are still there


@pytest.mark.parametrize("population", list(datasets.POPULATIONS))
@pytest.mark.parametrize("k", [2, 9, 86])
def test_population_source(population, k):
    at = start(AGGREGATE, {"ldp_source": SOURCE_URL[population], "ldp_k": str(k),
                           "ldp_n": "1,000"})
    assert not errors(at)
    groups = datasets.age_groups(population, k)
    table = counts_table(at)
    assert table["category"].tolist() == list(groups.index)
    np.testing.assert_array_equal(
        table["true n_v"].to_numpy(),
        sampled_counts(datasets.proportions(groups.to_numpy()), n=1000))
    assert metrics(at)["Categories k"] == str(k)


# ---------------------------------------------------------------------------
# the aggregate
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("method", list(ldp.ESTIMATORS))
@pytest.mark.parametrize("eps", [0.1, 2.0])
def test_each_estimator(method, eps):
    at = start(AGGREGATE, {"ldp_source": SOURCE_URL["korea"], "ldp_k": "18",
                           "ldp_eps": f"{eps:g}", "ldp_method": METHOD_URL[method]})
    assert not errors(at)
    assert at.radio(key="ldp_method").value == method
    table = counts_table(at)
    true = table["true n_v"].to_numpy()
    reported = table["reported N_v"].to_numpy()
    # The reported counts are k-RR's draw from the true counts with the page's stream.
    np.testing.assert_array_equal(reported, ldp.krr_perturb_counts(true, eps, rng=[SEED, 1]))
    expected = ldp.krr_estimate(reported, eps, method=method)
    np.testing.assert_allclose(table["estimate n̂_v"].to_numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(table["± 2 SE"].to_numpy(),
                               2 * np.sqrt(ldp.krr_variance(true, eps)), rtol=1e-12)
    shown = metrics(at)
    assert shown["Total absolute error of the estimate"] == (
        f"{np.abs(expected - true).sum():,.1f}" if np.abs(expected - true).sum() < 1e4
        else f"{np.abs(expected - true).sum():,.0f}")
    assert shown["Negative estimates"] == str(int(np.sum(expected < 0)))
    # The chart: the estimate's bars and whiskers.
    [chart] = [c for c in at.get("plotly_chart") if "ldp_fig_counts" in c.proto.id]
    assert chart.proto.spec


def test_unbiased_estimate_can_be_negative():
    at = start(AGGREGATE, {"ldp_source": SOURCE_URL["korea"], "ldp_k": "86",
                           "ldp_eps": "0.1"})
    table = counts_table(at)
    assert (table["estimate n̂_v"] < 0).any()
    assert int(metrics(at)["Negative estimates"]) == int((table["estimate n̂_v"] < 0).sum())


# ---------------------------------------------------------------------------
# one user at a time
# ---------------------------------------------------------------------------

def test_demo_table_and_flip_again():
    at = start()
    first = frame(at, "coin u")
    assert len(first) == 20
    assert list(first.columns) == ["user", "true answer", "coin u", "u < p: tells the truth",
                                   "reported answer"]
    users = np.random.default_rng([SEED, 4]).choice(2, size=20, p=[0.3, 0.7])
    expected = ldp.krr_demo_table(users, 1.0, 2, labels=["yes", "no"], rng=[SEED, 3, 0])
    np.testing.assert_array_equal(first["coin u"].to_numpy(), expected["coin"].to_numpy())
    assert first["reported answer"].tolist() == expected["reported"].tolist()
    assert first["true answer"].tolist() == expected["true"].tolist()
    p, _ = ldp.krr_probabilities(1.0, 2)
    assert (first["u < p: tells the truth"] == (first["coin u"] < p)).all()
    told = int(expected["told_truth"].sum())
    assert any(f"{told} of 20 users told the truth" in c.value for c in at.caption)

    at.button(key="ldp_flip_btn").click()
    run(at)
    second = frame(at, "coin u")
    assert len(second) == 20
    assert second["true answer"].tolist() == first["true answer"].tolist()  # same users
    assert not np.array_equal(second["coin u"].to_numpy(), first["coin u"].to_numpy())
    again = ldp.krr_demo_table(users, 1.0, 2, labels=["yes", "no"], rng=[SEED, 3, 1])
    np.testing.assert_array_equal(second["coin u"].to_numpy(), again["coin"].to_numpy())
    # The flips are counted in the URL: a link shows the same coins.
    assert at.query_params["ldp_flip"] == "1"
    linked = start(query={"ldp_flip": "1"})
    pd.testing.assert_frame_equal(frame(linked, "coin u"), second)


# ---------------------------------------------------------------------------
# error versus privacy
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(("query", "reps"), [
    ({}, 200),
    ({"ldp_source": SOURCE_URL["usa"], "ldp_k": "86", "ldp_reps": "1,000", "ldp_eps": "0.1"},
     1000),
])
def test_mse_matches_dpcore(query, reps):
    at = start(MSE, query)
    assert not errors(at)
    open_tab(at, AGGREGATE)
    true = counts_table(at)["true n_v"].to_numpy()
    open_tab(at, MSE)
    assert at.select_slider(key="ldp_reps").value == reps
    shown = frame(at, "MSE")
    expected = ldp.krr_mse(true, EPS_GRID, reps=reps, rng=[SEED, 2])
    np.testing.assert_allclose(shown["ε"].to_numpy(), expected["eps"].to_numpy())
    assert shown["method"].tolist() == [METHOD_URL[m] for m in expected["method"]]
    np.testing.assert_allclose(shown["MSE"].to_numpy(), expected["mse"].to_numpy(), rtol=1e-12)
    np.testing.assert_allclose(shown["SE"].to_numpy(), expected["se"].to_numpy(), rtol=1e-12)
    np.testing.assert_allclose(shown["exact MSE"].to_numpy(), expected["theory"].to_numpy(),
                               rtol=1e-12)
    eps = at.select_slider(key="ldp_eps").value
    here = expected[expected["eps"] == eps].set_index("method")
    unbiased = metrics(at)["unbiased"]
    mse = here.loc["unbiased", "mse"]
    assert unbiased == fmt_big(mse)  # 4 significant digits, or 7.85·10⁷
    [chart] = [c for c in at.get("plotly_chart") if "ldp_fig_mse" in c.proto.id]
    assert chart.proto.spec


def test_reps_are_capped_for_many_categories():
    rows = "\n".join(f"c{j},{j + 1}" for j in range(1000))
    at = upload(start(MSE), f"category,count\n{rows}\n".encode(), "counts")
    assert not errors(at)
    assert max(float(o.replace(",", "")) for o in at.select_slider(key="ldp_reps").options) \
        <= 400
    assert any("R stops at" in c.value for c in at.caption)


# ---------------------------------------------------------------------------
# uploads
# ---------------------------------------------------------------------------

def upload(at: AppTest, data: bytes, kind: str = "categories") -> AppTest:
    return upload_file(at, "ldp", data, kind)


def test_upload_text_categories():
    answers = ["yes", "no", "no", "maybe", "yes", "no"] * 5
    at = upload(start(AGGREGATE), ("answer\n" + "\n".join(answers) + "\n").encode())
    assert not errors(at)
    table = counts_table(at)
    assert table["category"].tolist() == ["maybe", "no", "yes"]
    assert table["true n_v"].tolist() == [5, 15, 10]
    assert metrics(at)["Users N"] == "30" and metrics(at)["Categories k"] == "3"
    np.testing.assert_array_equal(table["reported N_v"].to_numpy(),
                                  ldp.krr_perturb_counts([5, 15, 10], 1.0, rng=[SEED, 1]))
    open_tab(at, DEMO)
    demo = frame(at, "coin u")
    assert demo["true answer"].tolist() == answers[:20]  # the file's first users


def test_upload_number_categories_and_two_columns():
    at = upload(start(AGGREGATE), b"id,group\n1,3\n2,1\n3,3\n4,2\n5,3\n")
    assert not errors(at)
    at.selectbox(key="ldp_col").set_value("group")
    run(at)
    table = counts_table(at)
    assert table["category"].tolist() == ["1", "2", "3"]
    assert table["true n_v"].tolist() == [1, 1, 3]


def test_upload_counts_with_labels():
    at = upload(start(AGGREGATE), b"answer,users\nyes,300\nno,700\n", "counts")
    assert not errors(at)
    table = counts_table(at)
    assert table["category"].tolist() == ["yes", "no"]
    assert table["true n_v"].tolist() == [300, 700]
    assert metrics(at)["Users N"] == "1,000"


@pytest.mark.parametrize(("data", "kind", "fragment"), [
    (b"", "categories", "The file is empty"),
    (b"", "counts", "The file is empty"),
    (b"\x00\x01\x02binary", "categories", "binary data"),
    (b"\x00\x01\x02binary", "counts", "binary data"),
    (b"PK\x03\x04zip", "categories", "Excel"),
    (b"a\n1\n-2\n", "counts", "negative count"),
    (b"a\n1\nx\n", "counts", '"x" is not a number'),
    (b"a\n1\nnan\n", "counts", "not allowed"),
    (b"a\n1.5\n2\n", "counts", "not a whole number"),
    (b"a\n0\n0\n", "counts", "all counts equal to 0"),
    (b"a\n5\n", "counts", "at least 2 bins"),
    (b"answer\nyes\nyes\n", "categories", "single category"),
    (b"answer\n\n", "categories", "no data rows"),
    (b"id,answer\n1,\n2,\n", "categories", "has no values"),
    ("answer\n".encode() + "\n".join(f"c{j}" for j in range(1001)).encode(), "categories",
     "at most 1,000"),
    (b"a\n" + b"\n".join(b"1" for _ in range(1001)), "counts", "at most 1,000"),
    ("answer\nja\nnein\n".encode("utf-16"), "categories", "UTF-16"),
    ("answer\n가\n나\n".encode("euc-kr"), "categories", "not UTF-8"),
])
def test_bad_upload_shows_plain_error(data, kind, fragment):
    at = upload(start(AGGREGATE), data, kind)
    plain_error(at, fragment)
    assert at.file_uploader(key="ldp_file")  # the controls to fix it are still there
    at.file_uploader(key="ldp_file").set_value(("good.csv", b"a\n5\n7\n", "text/csv"))
    run(at)
    assert not errors(at)


# ---------------------------------------------------------------------------
# the guarantee and the link to the f-DP page
# ---------------------------------------------------------------------------

def open_fdp(params: dict[str, list[str]]) -> AppTest:
    return open_linked("views/fdp.py", params)


def fdp_link(at: AppTest):
    [link] = [p for p in at.page_link if p.proto.page.endswith("fdp")]
    return link


def substitution_link(at: AppTest):
    [link] = [p for p in at.page_link if p.proto.page.endswith("substitution")]
    return link


@pytest.mark.parametrize(("query", "eps", "k"), [
    ({}, 1.0, 2),
    ({"ldp_eps": "0.01", "ldp_source": SOURCE_URL["korea"], "ldp_k": "86"}, 0.01, 86),
    ({"ldp_eps": "10", "ldp_source": SOURCE_URL["abc"]}, 10.0, 3),
    ({"ldp_eps": "0.7", "ldp_source": SOURCE_URL["usa"], "ldp_k": "40"}, 0.7, 40),
])
def test_link_opens_fdp_with_eps_and_k(query, eps, k):
    at = start(GUARANTEE, query)
    assert not errors(at)
    assert len(at.page_link) == 2
    link = fdp_link(at)
    params = parse_qs(link.proto.query_string)
    assert params == {"fdp_tab": ["Trade-off curves"], "fdp_krr_eps": [f"{eps:g}"],
                      "fdp_krr_k": [str(k)]}
    assert f"{k}-RR at ε = {eps:g}" in link.proto.label
    text = "\n".join(m.value for m in at.markdown)
    assert "random substitution" in text and "coming" not in text
    fdp_at = open_fdp(params)
    assert fdp_at.select_slider(key="fdp_krr_eps").value == eps
    assert fdp_at.slider(key="fdp_krr_k").value == k
    assert fdp_at.session_state["fdp_tab"] == "Trade-off curves"


def test_link_caps_k_at_the_fdp_slider():
    rows = "\n".join(f"c{j},{j + 1}" for j in range(150))
    at = upload(start(GUARANTEE), f"category,count\n{rows}\n".encode(), "counts")
    params = parse_qs(fdp_link(at).proto.query_string)
    assert params["fdp_krr_k"] == ["100"]
    assert any("stops at 100" in c.value for c in at.caption)
    fdp_at = open_fdp(params)
    assert fdp_at.slider(key="fdp_krr_k").value == 100


# The random substitution page's γ grid (views/substitution.py: rs_gamma).
RS_GAMMA_GRID = (1.1, 1.25, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0, 100.0, 200.0,
                 500.0, 1000.0)


def nearest_gamma(eps: float) -> float:
    return min(RS_GAMMA_GRID, key=lambda g: abs(np.log(g) - eps))


@pytest.mark.parametrize(("query", "eps", "population", "k"), [
    ({}, 1.0, None, 2),  # e = 2.718: γ = 3
    ({"ldp_eps": "0.01", "ldp_source": SOURCE_URL["korea"], "ldp_k": "86"}, 0.01, "korea", 86),
    ({"ldp_eps": "10", "ldp_source": SOURCE_URL["abc"]}, 10.0, None, 3),  # γ = 1,000
    ({"ldp_eps": "2", "ldp_source": SOURCE_URL["usa"], "ldp_k": "9"}, 2.0, "usa", 9),
])
def test_link_opens_random_substitution_with_gamma(query, eps, population, k):
    at = start(GUARANTEE, query)
    link = substitution_link(at)
    gamma = nearest_gamma(eps)
    params = parse_qs(link.proto.query_string)
    expected = {"rs_tab": ["Privacy"], "rs_gamma": [f"{gamma:,g}"]}
    if population is not None:
        expected |= {"rs_source": [SOURCE_URL[population]], "rs_N": [str(k)]}
    assert params == expected
    assert f"γ = {gamma:,g}" in link.proto.label
    assert any(f"nearest value, {gamma:,g}" in c.value for c in at.caption)
    rs_at = open_linked("views/substitution.py", params)
    assert not errors(rs_at)
    assert rs_at.select_slider(key="rs_gamma").value == gamma
    assert rs_at.session_state["rs_tab"] == "Privacy"
    if population is not None:
        assert rs_at.selectbox(key="rs_source").value == population
        assert rs_at.slider(key="rs_N_slider").value == k
    shown = metrics(rs_at)  # its tab Privacy
    assert shown["γ-amplification"] == f"{gamma:,g}"
    assert shown["ε = ln γ"] == f"{np.log(gamma):.4g}"


# ---------------------------------------------------------------------------
# URL parameters and extremes
# ---------------------------------------------------------------------------

def test_query_params_set_the_view():
    at = start(query={"ldp_tab": AGGREGATE, "ldp_eps": "0.5", "ldp_n": "50M", "ldp_seed": "7",
                      "ldp_source": SOURCE_URL["korea_central"], "ldp_k": "9",
                      "ldp_method": METHOD_URL["simplex"]})
    assert not errors(at)
    assert at.select_slider(key="ldp_eps").value == 0.5
    assert at.select_slider(key="ldp_n").value == 50_000_000
    assert at.number_input(key="ldp_seed").value == 7
    assert at.radio(key="ldp_method").value == "simplex"
    groups = datasets.age_groups("korea_central", 9)
    np.testing.assert_array_equal(
        counts_table(at)["true n_v"].to_numpy(),
        sampled_counts(datasets.proportions(groups.to_numpy()), n=50_000_000, seed=7))


@pytest.mark.parametrize("query", [
    {"ldp_eps": "abc"}, {"ldp_eps": "0"}, {"ldp_n": "-5"}, {"ldp_k": "1"}, {"ldp_k": "500"},
    {"ldp_source": "nope"}, {"ldp_method": "nope"}, {"ldp_tab": "nope"}, {"ldp_reps": "9"},
    {"ldp_yes": "200"},
], ids=query_id)
def test_bad_query_params_are_ignored(query):
    at = start(query=query)
    assert_clean(at)
    assert not errors(at)


EXTREMES = {
    "eps smallest, k 86, N largest": {"ldp_eps": "0.01", "ldp_source": SOURCE_URL["korea"],
                                      "ldp_k": "86", "ldp_n": "50M", "ldp_reps": "2,000"},
    "eps largest, k 2, N smallest": {"ldp_eps": "10", "ldp_source": SOURCE_URL["usa"],
                                     "ldp_k": "2", "ldp_n": "1,000"},
    "eps smallest, survey, nobody": {"ldp_eps": "0.01", "ldp_yes": "0", "ldp_n": "1,000"},
    "eps largest, survey, everybody": {"ldp_eps": "10", "ldp_yes": "100", "ldp_n": "50M"},
    "abc one category": {"ldp_source": SOURCE_URL["abc"], "ldp_share_a": "0",
                         "ldp_share_b": "0", "ldp_share_c": "100", "ldp_eps": "0.01"},
}


@pytest.mark.parametrize("query", EXTREMES.values(), ids=EXTREMES.keys())
def test_extremes_are_clean_on_every_tab(query):
    LDP.assert_clean_on_every_tab(start(query=query))


# ---------------------------------------------------------------------------
# the page kit: a shareable view, the report, help on every control
# ---------------------------------------------------------------------------

# Every control bound to the URL at a value other than its default (ldp_tab aside), for
# each kind of data source; ldp_flip counts the presses of "Flip again".
COMMON = {"ldp_eps": "0.5", "ldp_n": "20,000", "ldp_seed": "7",
          "ldp_method": METHOD_URL["simplex"], "ldp_reps": "100", "ldp_flip": "2"}
SHARED = {
    "abc": {"ldp_source": SOURCE_URL["abc"], "ldp_share_a": "20", "ldp_share_b": "30",
            "ldp_share_c": "50"},
    "survey": {"ldp_yes": "40"},
    "population": {"ldp_source": SOURCE_URL["korea"], "ldp_k": "9"},
}
# What each tab gives the report: its charts and its tables, by name; its exports.
KIT = {DEMO: ([], ["One user at a time"]),
       AGGREGATE: (["True, reported and estimated counts"], ["Counts per category"]),
       MSE: (["Error against privacy"], ["Simulated error against privacy"]),
       GUARANTEE: ([], [])}
DOWNLOADS = {DEMO: ("ldp_demo_table_csv",),
             AGGREGATE: ("ldp_fig_counts_csv", "ldp_fig_counts_html", "ldp_counts_table_csv"),
             MSE: ("ldp_fig_mse_csv", "ldp_fig_mse_html", "ldp_mse_table_csv"),
             GUARANTEE: ()}


def set_by_hand(at: AppTest, source: str) -> AppTest:
    """The values of SHARED[source] and COMMON, set through the widgets."""
    if source == "abc":
        at.selectbox(key="ldp_source").set_value("abc")
        run(at)
        for c, v in zip("abc", (20, 30, 50)):
            at.slider(key=f"ldp_share_{c}").set_value(v)
    elif source == "survey":
        at.slider(key="ldp_yes").set_value(40)
    else:
        at.selectbox(key="ldp_source").set_value("korea")
        run(at)
        at.slider(key="ldp_k").set_value(9)
    at.select_slider(key="ldp_eps").set_value(0.5)
    at.select_slider(key="ldp_n").set_value(20_000)
    at.number_input(key="ldp_seed").set_value(7)
    run(at)
    for _ in range(2):
        at.button(key="ldp_flip_btn").click()
        run(at)
    open_tab(at, AGGREGATE)
    at.radio(key="ldp_method").set_value("simplex")
    run(at)
    open_tab(at, MSE)
    at.select_slider(key="ldp_reps").set_value(100)
    return run(at)


@pytest.mark.parametrize("source", SHARED)
def test_a_link_reproduces_the_view_set_by_hand(source):
    linked = start(MSE, SHARED[source] | COMMON | {"ldp_tab": MSE})
    assert not warnings(linked)
    assert linked.session_state["ldp_tab"] == MSE
    if source == "abc":
        assert linked.selectbox(key="ldp_source").value == "abc"
        assert [linked.slider(key=f"ldp_share_{c}").value for c in "abc"] == [20, 30, 50]
    elif source == "survey":
        assert linked.selectbox(key="ldp_source").value == "survey"
        assert linked.slider(key="ldp_yes").value == 40
    else:
        assert linked.selectbox(key="ldp_source").value == "korea"
        assert linked.slider(key="ldp_k").value == 9
    assert linked.select_slider(key="ldp_eps").value == 0.5
    assert linked.select_slider(key="ldp_n").value == 20_000
    assert linked.number_input(key="ldp_seed").value == 7
    assert linked.select_slider(key="ldp_reps").value == 100
    # A browser rewrites ldp_tab in the URL when another tab is opened; AppTest keeps the
    # link's value, so it is dropped here before the tabs are opened one by one.
    linked.query_params.pop("ldp_tab")
    open_tab(linked, AGGREGATE)
    assert linked.radio(key="ldp_method").value == "simplex"
    by_hand = set_by_hand(start(), source)
    assert by_hand.query_params["ldp_flip"] == "2"
    LDP.assert_same_on_every_tab(linked, by_hand)
    k = {"abc": 3, "survey": 2, "population": 9}[source]
    assert metrics(linked)["p: tell the truth"] == fmt4(ldp.krr_probabilities(0.5, k)[0])


@pytest.mark.parametrize(("query", "bad", "default"), [
    ({"ldp_eps": "abc"}, "ldp_eps", 1.0),
    ({"ldp_eps": "0.4", "ldp_n": "20,000"}, "ldp_eps", 1.0),  # not on the slider
    ({"ldp_flip": "x", "ldp_eps": "0.5"}, "ldp_flip", 0),
    ({"ldp_flip": "-1"}, "ldp_flip", 0),
    ({"ldp_source": "nope", "ldp_seed": "7"}, "ldp_source", "survey"),
    ({"ldp_yes": "200"}, "ldp_yes", 30),
    ({"ldp_source": SOURCE_URL["usa"], "ldp_k": "500"}, "ldp_k", 10),
    ({"ldp_seed": "x"}, "ldp_seed", SEED),
    ({"ldp_tab": AGGREGATE, "ldp_method": "nope", "ldp_eps": "0.5"}, "ldp_method", "unbiased"),
    ({"ldp_tab": MSE, "ldp_reps": "9"}, "ldp_reps", 200),
    ({"ldp_tab": "nope"}, "ldp_tab", DEMO),
], ids=query_id)
def test_an_unusable_link_value_is_reset_with_a_note(query, bad, default):
    at = start(query=query)
    assert not errors(at)
    assert_only_bad_value_reset(at, query, bad, default)
    # Everything else is as the link says, and the page works.
    if "ldp_eps" in query and bad != "ldp_eps":
        assert at.select_slider(key="ldp_eps").value == 0.5
    if "ldp_seed" in query and bad != "ldp_seed":
        assert at.number_input(key="ldp_seed").value == 7
    assert metrics(at)["p: tell the truth"]
    tab = at.session_state["ldp_tab"]
    assert [n for n, _ in kit(at).tables] == KIT[tab][1]
    assert len(kit(at).findings) == 2




def test_every_control_has_help():
    at = start(query={"ldp_reps": "50"})
    seen: list[str] = []
    for source in ("survey", "abc", "korea"):
        at.selectbox(key="ldp_source").set_value(source)
        LDP.help_on_every_tab(at, seen, source)
    assert_upload_controls_have_help(at, "ldp_source", seen)


fmt_big = fmt.fmt_big  # the page's number format


def test_the_report_gets_findings_settings_charts_and_tables():
    at = start(query={"ldp_reps": "50", "ldp_eps": "0.5"})
    p, q = ldp.krr_probabilities(0.5, 2)
    for tab, (charts, tables) in KIT.items():
        open_tab(at, tab)
        assert_kit_of_tab(at, tab, charts, tables, DOWNLOADS[tab])
        found = kit(at)
        assert all(len(dpviz.export.figure_data(f)) for _, f in found.figures)
        assert len(found.findings) == 2, found.findings
        assert f"truth with probability {p:.2%}" in found.findings[0]
        assert found.parameters["seed"] == str(SEED)
        assert found.parameters["privacy ε"] == "0.5"
        assert found.parameters["p (truth)"] == fmt4(p)
        assert found.parameters["q (a given lie)"] == fmt4(q)
    # The tab findings carry the tabs' numbers.
    open_tab(at, DEMO)
    told = int(frame(at, "coin u")["u < p: tells the truth"].sum())
    assert f"{told} of 20 users told the truth" in kit(at).findings[1]
    assert kit(at).parameters["coin flips of the demo"] == "0"
    open_tab(at, MSE)
    mse = frame(at, "MSE")
    here = mse[(mse["ε"] == 0.5) & (mse["method"] == "unbiased")].iloc[0]
    assert f"per category is {fmt_big(here['MSE'])}" in kit(at).findings[1]
    assert kit(at).parameters["replicates R per ε"] == "50"
    html = kit_report(at)
    assert "Error against privacy" in html and "replicates R per ε" in html


def test_a_stopped_page_still_has_its_link_and_report():
    query = {"ldp_source": SOURCE_URL["upload"], "ldp_eps": "0.5"}
    assert_stopped_page_keeps_link_and_report(start(query=query), query)
