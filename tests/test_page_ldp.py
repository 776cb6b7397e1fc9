"""AppTest tests of the page "Randomized response (local DP)" (views/ldp.py): that the view
shows what ui.pages.ldp computes (tested in tests/test_ui_pages_ldp.py), the demo's flips in
the URL, uploads, links, extremes and the report. Every page's promises:
tests/test_page_contract.py.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from conftest import open_page, run, upload_file, without_help
from dpcore import datasets, ldp
import pagekit
from shown import as_read
from pagekit import (TabbedPage, assert_only_bad_value_reset,
                     assert_stopped_page_keeps_link_and_report, errors, kit, metrics,
                     markdown_text, plain_error, query_id, warnings)
from ui import links
from ui.format import fmt_big, fmt_count, fmt_number, fmt_pct, fmt_prob
from ui.pages import ldp as page

DEMO, AGGREGATE, MSE, GUARANTEE = TABS = page.TABS
SEED = 2022
SOURCE_URL = page.SOURCES  # an option's label is its URL value

LDP = TabbedPage("views/ldp.py", page.TITLE, "ldp_tab", TABS)
start, open_tab = LDP.start, LDP.open_tab


def frame(at: AppTest, column: str) -> pd.DataFrame:
    [df] = [d.value for d in at.dataframe if column in d.value.columns]
    return df


def counts_table(at: AppTest) -> pd.DataFrame:
    return frame(at, "reported N_v")


def test_default_view():
    at = start()
    assert [t.label for t in at.tabs] == list(TABS)
    p, q = ldp.krr_probabilities(1.0, 2)
    assert metrics(at) == {"Categories k": "2", "Users N": "10,000", "p: tell the truth": "0.7311",
                           "q: tell a given lie": "0.2689", "p/q = e^ε": "2.718"}
    assert f"{p:.4g}" == "0.7311" and f"{q:.4g}" == "0.2689"
    assert "tells the truth with probability p = 73.11%" in markdown_text(at)
    assert "1-local differential privacy" in markdown_text(at)
    assert at.latex  # the formulas
    assert at.select_slider(key="ldp_eps").value == 1.0
    assert at.select_slider(key="ldp_eps").options == [fmt_number(e)
                                                       for e in links.LdpParams.EPS_GRID]


def test_abc_shares_move_the_data():
    at = start(AGGREGATE, {"ldp_source": SOURCE_URL["abc"]})
    at.slider(key="ldp_share_c").set_value(70)
    run(at)
    assert counts_table(at)["category"].tolist() == ["A", "B", "C"]
    expected = datasets.draw_histogram(datasets.proportions([50, 30, 70]), 10_000,
                                       rng=[SEED, 0])
    np.testing.assert_array_equal(counts_table(at)["true n_v"].to_numpy(), expected)
    assert any("A 33.3%, B 20%, C 46.7%" in c.value for c in at.caption)


def test_the_aggregate_shows_the_chosen_estimate():
    at = start(AGGREGATE, {"ldp_source": SOURCE_URL["korea"], "ldp_k": "18", "ldp_eps": "0.1",
                           "ldp_method": page.ESTIMATOR_LABELS["ibu"], "ldp_seed": "7"})
    assert at.radio(key="ldp_method").value == "ibu"
    labels, probs, what = page.builtin_probabilities("korea", k=18)
    s = page.Settings(page.sampled_data(labels, probs, 10_000, 7, what), source="korea", k=18,
                      eps=0.1, seed=7, method="ibu")
    a = page.aggregate(s)
    pd.testing.assert_frame_equal(counts_table(at), page.counts_table(s, a))
    shown = metrics(at)
    assert shown["Total absolute error of the estimate"] == fmt_count(a.error)
    assert shown["Negative estimates"] == str(a.negatives)
    assert [c for c in at.get("plotly_chart") if "ldp_fig_counts" in c.proto.id]
    # the whiskers: what they covered and where IBU does better or worse, as measured
    errors = page.category_errors(tuple(s.data.counts), 0.1, 7)
    assert page.whisker_caption(s, errors) in [c.value for c in at.caption]
    assert page.whisker_caption(s, errors, md=False) in kit(at).notes


def test_demo_table_and_flip_again():
    at = start()
    first = frame(at, "coin u")
    users = np.random.default_rng([SEED, 4]).choice(2, size=20, p=[0.3, 0.7])
    expected = ldp.krr_demo_table(users, 1.0, 2, labels=["yes", "no"], rng=[SEED, 3, 0])
    np.testing.assert_array_equal(first["coin u"].to_numpy(), expected["coin"].to_numpy())
    told = int(expected["told_truth"].sum())
    assert any(f"{told} of 20 users told the truth" in c.value for c in at.caption)
    at.button(key="ldp_flip_btn").click()
    run(at)
    second = frame(at, "coin u")
    assert second["true answer"].tolist() == first["true answer"].tolist()  # same users
    again = ldp.krr_demo_table(users, 1.0, 2, labels=["yes", "no"], rng=[SEED, 3, 1])
    np.testing.assert_array_equal(second["coin u"].to_numpy(), again["coin"].to_numpy())
    # The flips are counted in the URL: a link shows the same coins, on every tab.
    assert at.query_params["ldp_flip"] == "1"
    linked = start(query={"ldp_flip": "1"})
    pd.testing.assert_frame_equal(frame(linked, "coin u"), second)
    assert not warnings(linked)
    at.query_params.pop("ldp_tab", None)
    LDP.assert_same_on_every_tab(linked, at)


@pytest.mark.parametrize("query", [{"ldp_flip": "x", "ldp_eps": "0.5"}, {"ldp_flip": "-1"}],
                         ids=query_id)
def test_flips_a_link_cannot_use_are_named_and_reset(query):
    at = start(query=query)
    assert not errors(at)
    assert_only_bad_value_reset(at, query, "ldp_flip", 0)


def test_the_mse_tab_shows_the_simulation():
    at = start(MSE)
    true = datasets.draw_histogram(datasets.proportions([30, 70]), 10_000, rng=[SEED, 0])
    table = page.mse_table(tuple(true.astype(float)), 200, SEED)
    pd.testing.assert_frame_equal(frame(at, "MSE"), page.mse_shown(table))
    here = page.mse_at(table, 1.0)
    assert metrics(at)["unbiased"] == fmt_big(here.loc["unbiased", "mse"])
    assert [c for c in at.get("plotly_chart") if "ldp_fig_mse" in c.proto.id]
    s = page.Settings(page.sampled_data(["yes", "no"], datasets.proportions([30, 70]), 10_000,
                                        SEED, "x"), seed=SEED, reps=200)
    errors = page.category_errors(tuple(true.astype(float)), 1.0, SEED)
    assert page.per_category_list(s, errors) in markdown_text(at)
    assert page.per_category_note(s, errors) in kit(at).notes


# --- uploads (every bad file of tests/test_hardening.py's matrix is tried there) ---------------

def upload(at: AppTest, data: bytes, kind: str = "categories") -> AppTest:
    return upload_file(at, "ldp", data, kind)


def test_upload_text_categories():
    answers = ["yes", "no", "no", "maybe", "yes", "no"] * 5
    at = upload(start(AGGREGATE), ("answer\n" + "\n".join(answers) + "\n").encode())
    table = counts_table(at)
    assert table["category"].tolist() == ["maybe", "no", "yes"]
    assert table["true n_v"].tolist() == [5, 15, 10]
    assert metrics(at)["Users N"] == "30" and metrics(at)["Categories k"] == "3"
    open_tab(at, DEMO)
    assert frame(at, "coin u")["true answer"].tolist() == answers[:20]  # the file's first


def test_upload_number_categories_and_two_columns():
    at = upload(start(AGGREGATE), b"id,group\n1,3\n2,1\n3,3\n4,2\n5,3\n")
    at.selectbox(key="ldp_col").set_value("group")
    run(at)
    table = counts_table(at)
    assert table["category"].tolist() == ["1", "2", "3"]
    assert table["true n_v"].tolist() == [1, 1, 3]


def test_upload_counts_with_labels():
    at = upload(start(AGGREGATE), b"answer,users\nyes,300\nno,700\n", "counts")
    assert counts_table(at)["true n_v"].tolist() == [300, 700]
    assert metrics(at)["Users N"] == "1,000"


@pytest.mark.parametrize(("data", "kind"), [
    ("answer\n".encode() + "\n".join(f"c{j}" for j in range(1001)).encode(), "categories"),
    (b"a\n" + b"\n".join(b"1" for _ in range(1001)), "counts"),
])
def test_more_categories_than_the_page_takes_is_a_plain_error(data, kind):
    at = upload(start(AGGREGATE), data, kind)
    plain_error(at, "at most 1,000")
    at.file_uploader(key="ldp_file").set_value(("good.csv", b"a\n5\n7\n", "text/csv"))
    run(at)
    assert not errors(at)


# --- a file's kind found from the file (the default), said on the page -------------------------

HISTOGRAM = b"label,count\na,10\nb,20\nc,5\nd,0\ne,7\nf,3\n"
COUNTS_URL = "counts per category (one row per category)"
ANSWERS_URL = "one answer per user (a column of categories)"


def upload_as_found(at: AppTest, data: bytes) -> AppTest:
    """Upload ``data`` with the file kind left at its default."""
    at.selectbox(key="ldp_source").set_value("upload")
    run(at)
    at.file_uploader(key="ldp_file").set_value(("data.csv", data, "text/csv"))
    return run(at)


def said(at: AppTest) -> str:
    """What the page says it read of the file."""
    [text] = [as_read(i.value) for i in at.info if "Read as" in i.value]
    return text


def code_text(at: AppTest) -> str:
    return "\n".join(c.text for c in kit(at).code_builder("link").cells)


def test_a_histogram_file_is_read_as_counts_and_the_page_says_so():
    at = upload_as_found(start(AGGREGATE), HISTOGRAM)
    assert at.radio(key="ldp_file_kind").value == "detect"
    assert metrics(at)["Categories k"] == "6" and metrics(at)["Users N"] == "45"
    table = counts_table(at)
    assert table["category"].tolist() == list("abcdef")
    assert table["true n_v"].tolist() == [10, 20, 5, 0, 7, 3]
    assert said(at) == ('Read as counts per category: 6 categories, 45 users, from column '
                        '"count". If your file holds one answer per user, choose that above.')
    assert not errors(at)
    code = code_text(at)  # the Code download follows the kind used
    assert "counts = np.array([10, 20, 5, 0, 7, 3], dtype=float)  # counts per category" in code
    data_cell = kit(at).code_builder("link").cells[1].text
    assert "answers" not in data_cell and "users drawn from the counts" in data_cell
    done: dict = {}
    exec(data_cell, done)  # the code's users of the demo are drawn from the counts, as the page's
    open_tab(at, DEMO)
    assert [done["labels"][i] for i in done["demo"]] == frame(at, "coin u")["true answer"].tolist()


def test_a_file_of_answers_is_read_as_answers_and_the_page_says_so():
    answers = ["yes", "no", "no", "maybe", "yes", "no"] * 5
    at = upload_as_found(start(AGGREGATE), ("answer\n" + "\n".join(answers) + "\n").encode())
    assert metrics(at)["Categories k"] == "3" and metrics(at)["Users N"] == "30"
    assert said(at) == ('Read as one answer per user: 30 answers in column "answer", '
                        "3 categories. If your file holds counts per category, choose that "
                        "above.")
    assert "counted per category" in code_text(at)


@pytest.mark.parametrize(("bad", "fragment"), [
    ("x", 'Row 3, column "count": "x" is not a number'),
    ("-3", "negative count (-3 in row 3)"),
    ("nan", "is not allowed"),
    ("2.5", "not a whole number"),
])
def test_bad_counts_of_a_histogram_file_are_refused(bad, fragment):
    at = upload_as_found(start(AGGREGATE), f"label,count\na,10\nb,{bad}\nc,5\n".encode())
    message = plain_error(at, fragment)
    assert "counts per category" in message and "one answer per user" in message
    assert not at.metric


def test_the_old_kinds_keep_their_meaning():
    at = upload(start(AGGREGATE), HISTOGRAM, "categories")
    assert metrics(at)["Categories k"] == "6" and metrics(at)["Users N"] == "6"
    assert said(at).startswith('Read as one answer per user: 6 answers in column "label"')
    at.radio(key="ldp_file_kind").set_value("counts")
    run(at)
    assert metrics(at)["Users N"] == "45"
    # Links name a kind by its label: one made before "found from the file" keeps its kind.
    for label, kind in ((COUNTS_URL, "counts"), (ANSWERS_URL, "categories")):
        at = start(AGGREGATE, {"ldp_source": SOURCE_URL["upload"], "ldp_file_kind": label})
        assert at.radio(key="ldp_file_kind").value == kind
        assert not pagekit.link_notes(at)


# --- the guarantee's links, extremes, help, the report -----------------------------------------

def test_the_guarantee_shows_its_links_and_what_they_cannot_carry():
    rows = "\n".join(f"c{j},{j + 1}" for j in range(150))
    at = upload(start(GUARANTEE), f"category,count\n{rows}\n".encode(), "counts")
    rs_link, fdp_link = [k for k in at.page_link if "try=" not in k.proto.query_string]
    assert parse_qs(rs_link.proto.query_string) == {"rs_tab": ["Privacy"], "rs_gamma": ["3"]}
    assert parse_qs(fdp_link.proto.query_string) == {
        "fdp_tab": ["Trade-off curves"], "fdp_krr_eps": ["1"], "fdp_krr_k": ["100"]}
    assert "random substitution" in markdown_text(at)
    assert any("nearest value, 3" in c.value for c in at.caption)
    assert any("stops at 100" in c.value for c in at.caption)


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


def test_the_controls_of_every_data_source_have_help():
    at = start()
    for source in ("abc", "korea", "upload"):
        at.selectbox(key="ldp_source").set_value(source)
        run(at)
        assert not without_help(at.main, []), source


def test_the_report_gets_the_settings_and_findings_of_each_tab():
    at = start(query={"ldp_reps": "50", "ldp_eps": "0.5"})
    p, q = ldp.krr_probabilities(0.5, 2)
    tab_setting = {DEMO: "coin flips of the demo", AGGREGATE: "estimator",
                   MSE: "replicates R per ε", GUARANTEE: None}
    for tab, setting in tab_setting.items():
        open_tab(at, tab)
        found = kit(at)
        assert len(found.findings) == 2, found.findings
        assert f"truth with probability {fmt_pct(p, 4)}" in found.findings[0]
        assert list(found.parameters) == ["data", "categories k", "users N", "privacy ε",
                                          "p (truth)", "q (a given lie)", "seed",
                                          *([setting] if setting else [])]
        assert (found.parameters["seed"], found.parameters["p (truth)"],
                found.parameters["q (a given lie)"]) == (str(SEED), f"{p:.4g}", f"{q:.4g}")
    open_tab(at, DEMO)
    told = int(frame(at, "coin u")["u < p: tells the truth"].sum())
    assert f"{told} of 20 users told the truth" in kit(at).findings[1]
    open_tab(at, MSE)
    assert kit(at).parameters["replicates R per ε"] == "50"
    assert kit(at).findings[1].startswith("At ε = 0.5 the unbiased estimate's mean squared")


def test_a_stopped_page_still_has_its_link_and_report():
    query = {"ldp_source": SOURCE_URL["upload"], "ldp_eps": "0.5"}
    assert_stopped_page_keeps_link_and_report(start(query=query), query)


# --- issue 18: probabilities as people write them -------------------------------------------------

E_NOTATION = re.compile(r"\d[eE][-+]?\d")


def test_at_eps_10_p_tell_the_truth_is_not_rounded_to_1():
    """Issue 18: at ε = 10, "p: tell the truth" showed 1 (it is e^10/(e^10 + 1) = 0.99995)."""
    at = start(GUARANTEE, {"ldp_eps": "10"})
    p, q = ldp.krr_probabilities(10.0, 2)
    shown = metrics(at)
    assert shown["p: tell the truth"] == "0.99995" == fmt_prob(p)
    assert shown["q: tell a given lie"] == fmt_prob(q) == "4.54·10⁻⁵"
    found = kit(at)
    assert found.parameters["p (truth)"] == "0.99995"
    assert "99.995%" in found.findings[0] and "p = 0.99995" in found.findings[-1]
    words = "\n".join([markdown_text(at)] + [c.value for c in at.caption] + found.findings
                      + list(found.parameters.values()))
    assert "p = 1," not in words and "100%" not in words and "100.00%" not in words
    assert not E_NOTATION.search(words) and not any(E_NOTATION.search(v) for v in shown.values())
    open_tab(at, DEMO)
    assert "u < p = 0.99995" in markdown_text(at)
    open_tab(at, AGGREGATE)
    assert any("p = 0.99995" in c.value for c in at.caption)


# --- issue 18: "Try this" ----------------------------------------------------------------------

def open_experiment(i: int) -> AppTest:
    """The page as experiment ``i``'s link opens it: a fresh visit with its values."""
    return pagekit.open_experiment("views/ldp.py", page.EXPERIMENTS, i)


def test_try_eps_0_1_the_estimates_scatter_around_the_truth():
    at = open_experiment(0)
    assert at.select_slider(key="ldp_eps").value == 0.1
    assert at.session_state["ldp_tab"] == AGGREGATE
    p, _ = ldp.krr_probabilities(0.1, 2)
    assert 0.5 < p < 0.55 and metrics(at)["p: tell the truth"] == fmt_prob(p)
    table = counts_table(at)
    assert (table["± 2 SE"] > 1000).all()  # "more than ± 1,000 people wide"
    assert table.loc[table["category"] == "yes", "true n_v"].iloc[0] == pytest.approx(3000, abs=200)
    assert metrics(at)["Users N"] == "10,000"


def test_try_k_20_at_eps_1_most_reports_are_lies():
    at = open_experiment(1)
    assert at.selectbox(key="ldp_source").value == "korea"
    assert at.slider(key="ldp_k").value == 20 and at.select_slider(key="ldp_eps").value == 1.0
    p = float(metrics(at)["p: tell the truth"])
    assert round(p, 2) == 0.13 and 1 - p == pytest.approx(7 / 8, abs=0.01)  # "about 7 in 8"
    demo = frame(at, "coin u")
    assert len(demo) == 20 and demo["u < p: tells the truth"].sum() < 10


def shown_text(at: AppTest) -> list[str]:
    """Every number-bearing text the page shows: metrics, Markdown, captions, notes, tables."""
    texts = [f"{m.label}: {m.value}" for m in at.metric]
    texts += [e.value for kind in ("markdown", "caption", "info", "warning", "error")
              for e in getattr(at, kind)]
    texts += [str(v) for d in at.dataframe for v in d.value.astype(str).to_numpy().ravel()]
    found = kit(at)
    return texts + found.findings + found.notes + list(found.parameters.values())


@pytest.mark.parametrize("query", [
    {"ldp_eps": "10"}, {"ldp_eps": "0.01"},
    {"ldp_source": SOURCE_URL["usa"], "ldp_k": "86", "ldp_eps": "10"},
    {"ldp_source": SOURCE_URL["usa"], "ldp_k": "86", "ldp_eps": "0.01", "ldp_n": "50M"},
], ids=query_id)
def test_no_e_notation_and_no_probability_rounded_to_0_or_1(query):
    at = start(query=query)
    for tab in TABS:
        open_tab(at, tab)
        for text in shown_text(at):
            assert not E_NOTATION.search(text), (tab, text)
        shown = metrics(at)
        for label in ("p: tell the truth", "q: tell a given lie"):
            assert shown[label] not in ("0", "1"), (label, shown[label])
        assert all(v not in ("0", "1") for k, v in kit(at).parameters.items()
                   if k in ("p (truth)", "q (a given lie)"))
