"""Page tests with streamlit.testing.v1.AppTest.

Every page app.py routes to is smoke-tested (the list is read from app.py, see
conftest.py). The page "Compare two private histograms" is driven through its
widgets by key (keys from views/compare_histograms.py and ui/): the
default view, α, seed, sources and bins, the degenerate bootstrap case and
uploaded files (AppTest drives st.file_uploader in this Streamlit version),
and its page kit: the link that reproduces a view, the note on unusable link
values, the help of every control and the report.
"""

from __future__ import annotations

import re

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from ui import sources
from conftest import REPO_ROOT, assert_clean, open_page, routed_pages, run
from pagekit import (kit as ended_kit, assert_report_page, assert_reset_note, errors, every_control_with_help,
                     link_notes, metrics, query_id)

PAGE = "views/compare_histograms.py"
TITLE = "Compare two private histograms"
REPORT_FILE = "compare_two_private_histograms_report.html"

NAIVE = "Naive χ² test p-value"
BOOT = "Parametric bootstrap p-value"
NHAT_A = "Estimated N̂ (A)"
NHAT_B = "Estimated N̂ (B)"
METRICS = {NAIVE, BOOT, NHAT_A, NHAT_B}
CANNOT_BOOTSTRAP = "The bootstrap test cannot be run"


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def start(query: dict | None = None) -> AppTest:
    """The page "Compare two private histograms", opened with the link's ``query``."""
    return open_page(PAGE, TITLE, query)


def captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def pvalue(text: str) -> float:
    value = float(text)
    assert 0.0 <= value <= 1.0, text
    return value


def count(text: str) -> int:
    return int(text.replace(",", ""))


def assert_full_result(at: AppTest) -> dict[str, str]:
    """The four metrics and a verdict are shown, with sensible values."""
    shown = metrics(at)
    assert set(shown) == METRICS, shown
    pvalue(shown[NAIVE])
    pvalue(shown[BOOT])
    assert count(shown[NHAT_A]) >= 0 and count(shown[NHAT_B]) >= 0
    verdicts = [v.value for v in (*at.success, *at.warning) if "At the 5% level" in v.value]
    assert len(verdicts) == 1, verdicts
    assert not errors(at), errors(at)
    return shown


# The page kit's report, the CSV and HTML of each chart, the CSV of each table.
DOWNLOADS = {"page_report_download", "cmp_table_hist_csv", "cmp_table_results_csv"} | {
    f"cmp_fig_{name}_{kind}" for name in ("hist", "null", "debias") for kind in ("csv", "html")}


def download_keys(at: AppTest) -> set[str]:
    keys = [b.key for b in at.download_button]
    assert len(keys) == len(set(keys)), keys
    return set(keys)


def degrees_of_freedom(at: AppTest) -> int:
    """df of the naive test, from its caption "χ² = …, df = M − 1"."""
    [cap] = [c for c in captions(at) if c.startswith("χ² =")]
    return int(cap.rsplit("df = ", 1)[1])


# ---------------------------------------------------------------------------
# every routed page
# ---------------------------------------------------------------------------

def test_app_routes_every_page_file():
    """app.py's page list is what the smoke test runs; no page file is left unrouted."""
    pages = routed_pages()
    assert pages, "no st.Page(...) found in app.py"
    paths = [p.script for p in pages]
    assert len(paths) == len(set(paths)), paths
    assert sum(p.default for p in pages) <= 1
    for path in paths:
        assert (REPO_ROOT / path).is_file(), f"app.py routes to a missing file {path}"
    page_files = sorted(
        p.relative_to(REPO_ROOT).as_posix()
        for p in (REPO_ROOT / "views").glob("*.py") if not p.name.startswith("_")
    )
    assert sorted(paths) == page_files, "every views/*.py must be routed in app.py"
    assert PAGE in paths
    # A folder named pages/ beside app.py would make Streamlit route it by itself (its
    # multipage v1 mode) whenever a fresh server's first request is a page URL.
    assert not (REPO_ROOT / "pages").exists()


def test_page_smoke(app_page):
    at = open_page(app_page.script, None)
    assert not at.error, errors(at)
    assert at.main.children, "the page shows nothing"
    if app_page.title is not None and at.title:
        assert at.title[0].value == app_page.title


# ---------------------------------------------------------------------------
# "Compare two private histograms"
# ---------------------------------------------------------------------------

def test_default_view_shows_metrics_and_verdict():
    at = start()
    shown = assert_full_result(at)
    # Built-in populations, 5-year groups (18 bins), N = 10,000 each by default.
    assert degrees_of_freedom(at) == 17
    assert "true N = 10,000" in captions(at)
    assert abs(count(shown[NHAT_A]) - 10_000) < 1_000
    # The verdict quotes the bootstrap p-value shown in the metric.
    [verdict] = [v.value for v in (*at.success, *at.warning)]
    assert f"p = {shown[BOOT]} " in verdict
    assert download_keys(at) == DOWNLOADS


def test_changing_alpha_a_changes_the_pvalues():
    at = start()
    at.select_slider(key="cmp_n").set_value(1000)
    run(at)
    assert at.select_slider(key="cmp_alpha_a").value == 0.1
    before = assert_full_result(at)
    at.select_slider(key="cmp_alpha_a").set_value(1.0)
    run(at)
    after = assert_full_result(at)
    # With N = 1,000 in 18 bins, noise Lap(20) vs Lap(2) on A changes the
    # private histogram A, hence the chi-square statistic and its p-value.
    assert after[NAIVE] != before[NAIVE]
    # B's noise does not depend on α₁ and the debiasing of B is unchanged.
    assert after[NHAT_B] == before[NHAT_B]


def _metrics_for_seed(seed: int) -> dict[str, str]:
    at = start()
    at.number_input(key="cmp_seed").set_value(seed)
    run(at)
    return assert_full_result(at)


def test_same_seed_reproduces_and_new_seed_changes():
    first = _metrics_for_seed(123)
    # Clear st.cache_data so the second app really recomputes instead of
    # returning the cached comparison.
    st.cache_data.clear()
    again = _metrics_for_seed(123)
    assert again == first
    other = _metrics_for_seed(124)
    assert other != first


def test_new_draw_button_picks_a_new_seed():
    at = start()
    seed = at.number_input(key="cmp_seed").value
    before = metrics(at)
    at.button(key="cmp_seed_new").click()
    run(at)
    assert at.number_input(key="cmp_seed").value != seed
    assert metrics(at) != before
    assert_full_result(at)


def test_shape_sources_show_bins_slider():
    at = start()
    assert len(at.radio(key="cmp_width").options) == 3
    at.selectbox(key="cmp_a").set_value("uniform")
    at.selectbox(key="cmp_b").set_value("normal")
    run(at)
    # No population chosen: the age-group radio gives way to the "Bins M" slider.
    assert "cmp_width" not in [r.key for r in at.radio]
    m = at.slider(key="cmp_m")
    assert m.label == "Bins M" and m.value == 20
    assert_full_result(at)
    assert degrees_of_freedom(at) == 19
    m.set_value(5)
    run(at)
    assert_full_result(at)
    assert degrees_of_freedom(at) == 4
    verdict = [v.value for v in (*at.success, *at.warning)][0]
    assert "Uniform" in verdict and "Normal" in verdict


@pytest.mark.parametrize(("width", "bins"), [(1, 86), (5, 18), (10, 9)])
def test_age_binnings(width, bins):
    at = start()
    at.radio(key="cmp_width").set_value(width)
    run(at)
    assert_full_result(at)
    assert degrees_of_freedom(at) == bins - 1


def test_different_n_for_b():
    at = start()
    at.checkbox(key="cmp_n_sep").check()
    run(at)
    at.select_slider(key="cmp_n_b").set_value(1000)
    run(at)
    assert_full_result(at)
    caps = captions(at)
    assert "true N = 10,000" in caps and "true N = 1,000" in caps


def test_zoom_toggle_and_bootstrap_replicates():
    at = start()
    at.toggle(key="cmp_zoom").set_value(True)
    at.select_slider(key="cmp_boot").set_value(200)
    run(at)
    assert_full_result(at)
    verdict = [v.value for v in (*at.success, *at.warning)][0]
    assert "from 200 bootstrap replicates" in verdict


def test_extreme_privacy_with_one_year_bins_does_not_crash():
    """α₁ = α₂ = 0.001, N = 1,000, 86 bins: pure noise, yet no crash.

    Lap(2000) noise on 86 bins leaves about a third of the noisy counts above
    1/α = 1000, so N̂ comes out far above 0 and the bootstrap does run here
    (the degenerate case needs every noisy count at or below 1/α; see below).
    """
    at = start()
    at.radio(key="cmp_width").set_value(1)
    at.select_slider(key="cmp_n").set_value(1000)
    at.select_slider(key="cmp_alpha_a").set_value(0.001)
    at.select_slider(key="cmp_alpha_b").set_value(0.001)
    run(at)
    shown = metrics(at)
    assert NAIVE in shown and NHAT_A in shown and NHAT_B in shown
    if BOOT not in shown:
        assert any(CANNOT_BOOTSTRAP in e for e in errors(at)), errors(at)
    assert degrees_of_freedom(at) == 85
    # The noise (sd 2,828) dwarfs the ~12 people per bin: the page says so for A and B.
    noisy = [w.value for w in at.warning if "is mostly noise" in w.value]
    assert len(noisy) == 2 and "standard deviation 2,828" in noisy[0]


def test_no_noise_warning_when_counts_dominate():
    at = start()  # N = 10,000 in 18 bins, α = 0.1: sd 28 against ~556 per bin
    assert not [w.value for w in at.warning if "is mostly noise" in w.value]


def _assert_degenerate(at: AppTest) -> None:
    """The bootstrap cannot be run: an st.error says so, the rest still shows."""
    assert_clean(at)
    msgs = [e for e in errors(at) if CANNOT_BOOTSTRAP in e]
    assert len(msgs) == 1, errors(at)
    assert "N-hat is 0" in msgs[0] or "N̂" in msgs[0]
    shown = metrics(at)
    assert BOOT not in shown
    assert {NAIVE, NHAT_A, NHAT_B} <= set(shown)
    pvalue(shown[NAIVE])
    assert 0 in (count(shown[NHAT_A]), count(shown[NHAT_B]))
    assert not [v for v in (*at.success, *at.warning) if "At the 5% level" in v.value]
    assert any("No null distribution" in i.value for i in at.info)
    assert download_keys(at) == DOWNLOADS - {"cmp_fig_null_csv", "cmp_fig_null_html"}


def test_degenerate_sampled_histograms_show_error():
    """Two bins, N = 1,000, α = 0.001: often every noisy count is <= 1/α = 1000.

    Among ten seeds some give N̂ = 0 (degenerate), some not; none may crash.
    """
    degenerate = 0
    for seed in range(10):
        at = start()
        at.selectbox(key="cmp_a").set_value("uniform")
        at.selectbox(key="cmp_b").set_value("uniform")
        run(at)
        at.slider(key="cmp_m").set_value(2)
        at.select_slider(key="cmp_n").set_value(1000)
        at.select_slider(key="cmp_alpha_a").set_value(0.001)
        at.select_slider(key="cmp_alpha_b").set_value(0.001)
        at.number_input(key="cmp_seed").set_value(seed)
        run(at)
        if BOOT in metrics(at):
            assert_full_result(at)
        else:
            _assert_degenerate(at)
            degenerate += 1
    assert degenerate >= 1


# ---------------------------------------------------------------------------
# uploads (AppTest drives st.file_uploader)
# ---------------------------------------------------------------------------

def upload_both(data: bytes, *, a: str = "upload", b: str = "upload",
                name: str = "counts.csv") -> AppTest:
    at = start()
    at.selectbox(key="cmp_a").set_value(a)
    at.selectbox(key="cmp_b").set_value(b)
    run(at)
    assert any("Upload a CSV file" in i.value for i in at.info)
    assert not at.metric
    at.file_uploader(key="cmp_file").set_value((name, data, "text/csv"))
    return run(at)


def assert_controls_remain(at: AppTest) -> None:
    """After a bad file every control is still there, the problem is shown below them."""
    assert at.selectbox(key="cmp_a").value == "upload"
    assert at.selectbox(key="cmp_b").value in sources.SOURCE_LABELS
    assert at.file_uploader(key="cmp_file").label.startswith("CSV file")
    assert at.radio(key="cmp_file_kind").value in ("counts", "values")
    for key in ("cmp_n", "cmp_alpha_a", "cmp_alpha_b", "cmp_boot"):
        assert at.select_slider(key=key).value is not None
    assert at.number_input(key="cmp_seed").value >= 0


def test_valid_counts_upload():
    at = upload_both(b"a,b\n10,20\n30,40\n50,60\n")
    shown = assert_full_result(at)
    caps = captions(at)
    assert "Bins: M = 3, one per row of your file." in caps
    assert "Both histograms are used as uploaded; no sampling." in caps
    assert "true N = 90" in caps and "true N = 120" in caps
    assert degrees_of_freedom(at) == 2
    verdict = [v.value for v in (*at.success, *at.warning)][0]
    assert "your column \"a\"" in verdict and "your column \"b\"" in verdict
    assert count(shown[NHAT_A]) >= 0
    # Columns can be swapped.
    at.selectbox(key="cmp_col_a").set_value("b")
    at.selectbox(key="cmp_col_b").set_value("a")
    run(at)
    assert_full_result(at)


BAD_UPLOADS = {
    "empty": (b"", "The file is empty"),
    "blank": (b"\n \n", "The file is empty"),
    "text_in_count": (b"a,b\n1,x\n2,3\n", '"x" is not a number'),
    "negative": (b"a,b\n1,-2\n2,3\n", "negative count"),
    "nan": (b"a,b\n1,nan\n2,3\n", '"nan" is not allowed'),
    "inf": (b"a,b\n1,inf\n2,3\n", '"inf" is not allowed'),
    "different_lengths": (b"a,b\n1,2\n2,3\n4\n", "same number of rows"),
    "all_zeros": (b"a,b\n0,0\n0,0\n", "all counts equal to 0"),
    "one_bin": (b"a,b\n1,2\n", "at least 2 bins"),
    "utf16": ("a,b\n1,2\n3,4\n".encode("utf-16"), "UTF-16"),
    "excel": (b"PK\x03\x04rest-of-a-zip", "Excel workbook"),
    "latin1": ("Åge,b\n1,2\n3,4\n".encode("latin-1"), "not UTF-8"),
    "header_only": (b"a,b\n", "no data rows"),
}


@pytest.mark.parametrize("case", list(BAD_UPLOADS))
def test_bad_upload_shows_plain_error(case):
    data, fragment = BAD_UPLOADS[case]
    at = upload_both(data, name=f"{case}.csv")
    msgs = errors(at)
    assert len(msgs) == 1, msgs
    assert fragment in msgs[0]
    assert msgs[0].startswith(("This file cannot be used:", "These histograms cannot be compared:"))
    assert not at.metric
    assert_controls_remain(at)
    # A good file afterwards recovers the page.
    good = b"a,b\n500,520\n300,310\n200,190\n"
    at.file_uploader(key="cmp_file").set_value(("good.csv", good, "text/csv"))
    run(at)
    assert_full_result(at)


def test_uploaded_counts_must_match_the_age_groups():
    at = upload_both(b"a\n1\n2\n3\n", b="usa")
    [msg] = errors(at)
    assert "has 3 bins but the age groups chosen have 18" in msg
    assert_controls_remain(at)


def test_uploaded_raw_values_are_binned_into_age_groups():
    at = upload_both(b"age\n3\n20\n30\n45\n45\n90\n", b="usa")
    at.radio(key="cmp_file_kind").set_value("values")
    run(at)
    assert_full_result(at)
    assert degrees_of_freedom(at) == 17
    assert "true N = 6" in captions(at)


def test_uploaded_constant_values_are_binned_around_their_value():
    """All values equal: the bins span one unit around them instead of failing."""
    at = upload_both(b"v\n5\n5\n5\n", b="uniform")
    at.radio(key="cmp_file_kind").set_value("values")
    at.radio(key="cmp_use").set_value("sample")
    run(at)
    assert not errors(at)
    assert "true N = 10,000" in captions(at)
    assert degrees_of_freedom(at) == 19  # the default 20 equal-width bins


@pytest.mark.parametrize(
    "data, kind, b, expected",
    [
        (b"age\n3\n-3\n40\n", "values", "korea", 'Column "age" has a negative value (-3); ages'),
        (b"a\n9e14\n9e14\n", "counts", "uniform", "adds up to 1.8e+15; totals up to 1e15"),
    ],
)
def test_upload_problems_are_said_in_plain_words(data, kind, b, expected):
    at = upload_both(data, b=b)
    at.radio(key="cmp_file_kind").set_value(kind)
    run(at)
    [msg] = errors(at)
    assert expected in msg and "`" not in msg
    assert_controls_remain(at)


def test_uploaded_counts_as_proportions_are_sampled():
    at = upload_both(b"label,a,b\n0-4,1,2\n5-9,3,4\n")
    at.radio(key="cmp_use").set_value("sample")
    run(at)
    assert_full_result(at)
    caps = captions(at)
    assert caps.count("true N = 10,000") == 2
    assert "Both histograms are used as uploaded; no sampling." not in caps


def test_private_upload_with_tiny_counts_is_degenerate():
    """Already-private counts all at or below 1/α give N̂ = 0: deterministic error."""
    at = upload_both(b"a,b\n1,3\n2,4\n")
    at.checkbox(key="cmp_private").check()
    at.select_slider(key="cmp_alpha_a").set_value(0.001)
    at.select_slider(key="cmp_alpha_b").set_value(0.001)
    run(at)
    _assert_degenerate(at)
    assert count(metrics(at)[NHAT_A]) == 0 and count(metrics(at)[NHAT_B]) == 0
    assert "true N unknown (private input)" in captions(at)


def test_private_upload_runs_the_test():
    at = upload_both(b"a,b\n120,100\n300,310\n80,95\n")
    at.checkbox(key="cmp_private").check()
    run(at)
    assert_full_result(at)
    assert captions(at).count("true N unknown (private input)") == 2


def test_url_query_parameters_restore_the_view():
    at = start({"cmp_alpha_a": "1"})
    assert at.select_slider(key="cmp_alpha_a").value == 1.0
    assert_full_result(at)
    assert not link_notes(at)


# ---------------------------------------------------------------------------
# the page kit: shareable links, the note on unusable values, help, the report
# ---------------------------------------------------------------------------

# Every control bound to the URL, at a value other than its default, as the link writes it
# (the label the control shows), with the value the control then holds. Two links: the age
# groups radio is shown when a population is chosen, the bins slider when none is.
LINKS = {
    "population_and_shape": {
        "cmp_a": ("usa", sources.SOURCE_LABELS["usa"]),
        "cmp_b": ("normal", sources.SOURCE_LABELS["normal"]),
        "cmp_width": (10, sources.AGE_BINNINGS[10]),
        "cmp_n": (2000, "2,000"),
        "cmp_n_sep": (True, "true"),
        "cmp_n_b": (5000, "5,000"),
        "cmp_alpha_a": (0.5, "0.5"),
        "cmp_alpha_b": (0.2, "0.2"),
        "cmp_boot": (200, "200"),
        "cmp_seed": (7, "7"),
        "cmp_zoom": (True, "true"),
    },
    "two_shapes": {
        "cmp_a": ("increasing", sources.SOURCE_LABELS["increasing"]),
        "cmp_b": ("uniform", sources.SOURCE_LABELS["uniform"]),
        "cmp_m": (12, "12"),
        "cmp_n": (1000, "1,000"),
        "cmp_alpha_a": (1.0, "1"),
        "cmp_alpha_b": (0.05, "0.05"),
        "cmp_boot": (100, "100"),
        "cmp_seed": (11, "11"),
    },
}
KINDS = {"cmp_a": "selectbox", "cmp_b": "selectbox", "cmp_width": "radio", "cmp_m": "slider",
         "cmp_n": "select_slider", "cmp_n_sep": "checkbox", "cmp_n_b": "select_slider",
         "cmp_alpha_a": "select_slider", "cmp_alpha_b": "select_slider",
         "cmp_boot": "select_slider", "cmp_seed": "number_input", "cmp_zoom": "toggle"}


def widget(at: AppTest, key: str):
    return getattr(at, KINDS[key])(key=key)


@pytest.mark.parametrize("link", list(LINKS))
def test_a_link_reproduces_the_view(link):
    """Every bound control read from the URL, and the same numbers as set by hand."""
    values = LINKS[link]
    at = start({key: text for key, (_, text) in values.items()})
    for key, (value, _) in values.items():
        assert widget(at, key).value == value, key
    assert not link_notes(at)
    from_link = assert_full_result(at)

    st.cache_data.clear()  # computed again, not taken from the cache
    by_hand = start()
    for key, (value, _) in values.items():  # in page order: a control may show another
        widget(by_hand, key).set_value(value)
        run(by_hand)
    assert metrics(by_hand) == from_link


@pytest.mark.parametrize("query", [
    {"cmp_alpha_a": "abc"},
    {"cmp_alpha_a": "0.123"},
    {"cmp_seed": "-5"},
    {"cmp_seed": "x"},
    {"cmp_a": "nope"},
    {"cmp_width": "7"},
    {"cmp_n": "3"},
    {"cmp_m": "1000"},
], ids=query_id)
def test_bad_url_query_parameters_are_ignored(query):
    at = start(query)
    assert_full_result(at)
    [key] = query
    if key == "cmp_m":  # not shown with populations: the link keeps it for later
        assert not link_notes(at)
        return
    assert_reset_note(at, key)
    assert at.session_state[key] == widget(at, key).value  # the default


def test_bad_link_value_beside_good_ones():
    at = start({"cmp_m": "7000", "cmp_a": sources.SOURCE_LABELS["uniform"],
                "cmp_b": sources.SOURCE_LABELS["normal"], "cmp_n_sep": "maybe", "cmp_seed": "9"})
    [note] = link_notes(at)
    assert ": cmp_m, cmp_n_sep." in note
    assert at.slider(key="cmp_m").value == 20
    assert at.checkbox(key="cmp_n_sep").value is False
    assert at.selectbox(key="cmp_a").value == "uniform"
    assert at.selectbox(key="cmp_b").value == "normal"
    assert at.number_input(key="cmp_seed").value == 9
    assert_full_result(at)


def test_every_control_has_help():
    at = start()
    assert len(every_control_with_help(at)) >= 20
    at.checkbox(key="cmp_n_sep").check()
    at.selectbox(key="cmp_a").set_value("uniform")
    at.selectbox(key="cmp_b").set_value("normal")
    run(at)
    assert at.slider(key="cmp_m").help
    every_control_with_help(at)
    # The upload controls, and those of an uploaded file.
    at = upload_both(b"a,b\n10,20\n30,40\n50,60\n")
    every_control_with_help(at)
    assert at.checkbox(key="cmp_private").help


def test_report_holds_the_verdict_settings_charts_and_tables(deferred):
    at = start({"cmp_n": "1,000", "cmp_seed": "5"})
    shown = assert_full_result(at)
    [verdict] = [v.value for v in (*at.success, *at.warning) if "At the 5% level" in v.value]
    kit = ended_kit(at)
    # The verdict without its Markdown: no bold, the names unescaped.
    assert kit.findings[0] == re.sub(r"\\(.)", r"\1", verdict.replace("**", ""))
    assert f"gives p = {shown[NAIVE]} " in kit.findings[1]
    assert kit.parameters["People N in A"] == "1,000" and kit.parameters["Seed"] == "5"
    assert [name for name, _ in kit.figures] == [
        "Original and private histograms", "Bootstrap null distribution",
        "Debiasing the noisy counts"]
    assert [name for name, _ in kit.tables] == ["Counts per bin", "Tests and estimates"]
    page = deferred[REPORT_FILE]()
    assert_report_page(page, kit.findings)
    assert "People N in A" in page and "Debiasing the noisy counts" in page
    assert page.count("<table") == 3  # the settings and the two tables
    assert 'class="note"' in page
    # The table exports are the shown tables.
    csv = deferred["counts_per_bin.csv"]()
    assert csv.splitlines()[0].startswith("bin,original_A,private_A,")
    assert len(csv.splitlines()) == 1 + 18


def test_report_of_a_degenerate_bootstrap_says_so(deferred):
    at = start({"cmp_a": sources.SOURCE_LABELS["uniform"],
                "cmp_b": sources.SOURCE_LABELS["uniform"], "cmp_m": "2", "cmp_n": "1,000",
                "cmp_alpha_a": "0.001", "cmp_alpha_b": "0.001", "cmp_seed": "0"})
    if BOOT in metrics(at):
        pytest.skip("this seed is not degenerate")
    _assert_degenerate(at)
    kit = ended_kit(at)
    assert kit.findings[0].startswith("The parametric bootstrap test cannot be run")
    assert len(kit.figures) == 2
    assert "cannot be run" in deferred[REPORT_FILE]()


def test_waiting_for_a_file_still_ends_the_page():
    """No file yet: the page stops early, with its report button and link note."""
    at = start({"cmp_a": sources.SOURCE_LABELS["upload"], "cmp_seed": "x"})
    assert any("Upload a CSV file" in i.value for i in at.info)
    [note] = link_notes(at)
    assert "cmp_seed" in note
    assert "page_report_download" in download_keys(at)
