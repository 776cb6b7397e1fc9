"""AppTest tests of the page "Random substitution" (views/substitution.py): that the view
shows what ui.pages.substitution computes (tested in tests/test_ui_pages_substitution.py),
N and l in the URL and clamped, uploads, breaches, the paper grid, extremes and the report.
Every page's promises: tests/test_page_contract.py.
"""

from __future__ import annotations

import math
import re
from urllib.parse import parse_qs

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from conftest import assert_clean, open_page, run, upload_file, without_help
from dpcore import datasets
from dpcore import substitution as rs
import pagekit
from pagekit import (TabbedPage, assert_stopped_page_keeps_link_and_report, chart, errors,
                     kit, link_notes, metrics, open_linked, plain_error, query_id)
from ui import links
from ui.format import fmt_big, fmt_count, fmt_number, fmt_rel
from ui.pages import substitution as page

RELEASE, ACCURACY, COST, PRIVACY, BIAS = TABS = page.TABS
SEED = 2022
N, RECORDS, GAMMA, L, REPS = 50, 5_000, 10.0, 2, 100  # the defaults: normal shape
SOURCE_URL = page.SOURCES  # an option's label is its URL value
SHORT = page.SHORT

RS = TabbedPage("views/substitution.py", page.TITLE, "rs_tab", TABS)
start, open_tab = RS.start, RS.open_tab


def text(at: AppTest) -> str:
    return "\n".join([m.value for m in at.markdown] + [c.value for c in at.caption])


TABLE_COLUMNS = {"rs_counts_table": "X (true)", "rs_breach_table": "largest posterior",
                 "rs_grid_table": ("data", "shape")}


def frames(at: AppTest, key: str) -> list[pd.DataFrame]:
    """The page's tables of that key (AppTest's dataframes carry no key: found by a column)."""
    return [d.value for d in at.dataframe if TABLE_COLUMNS[key] in d.value.columns]


def frame(at: AppTest, key: str) -> pd.DataFrame:
    [df] = frames(at, key)
    return df


def default(**values) -> page.Settings:
    """The page's default settings (the normal shape), with ``values`` changed."""
    values = {"source": "normal", "n_cat": N, "n": RECORDS, "gamma": GAMMA, "l": L,
              "reps": REPS, "seed": SEED} | values
    data = page.builtin_data(values["source"], values["n_cat"], values["n"], values["seed"])
    l = values["l"]
    return page.Settings(data, values["gamma"], l,
                         page.budget_reps(values["reps"], values["n_cat"], l), values["reps"],
                         values["seed"])


def fmt4(v: float) -> str:
    return f"{v + 0.0:.4g}"


def test_default_view_on_every_tab_and_its_one_release():
    at = start()
    assert [t.label for t in at.tabs] == list(TABS)
    assert at.selectbox(key="rs_source").value == "normal"
    assert at.slider(key="rs_N_slider").value == N and at.slider(key="rs_l_slider").value == L
    assert at.select_slider(key="rs_n").value == RECORDS
    assert at.select_slider(key="rs_gamma").value == GAMMA
    assert at.select_slider(key="rs_gamma").options == [
        fmt_number(g) for g in links.SubstitutionParams.GAMMA_GRID]
    assert at.select_slider(key="rs_reps").value == REPS
    assert {"Categories k": "50", "Records N": "5,000", "Keep: γx": "0.1695", "ε_l (l = 2)": "2.39",
            "Each other value: x": fmt4(rs.gamma_diagonal_matrix(N, GAMMA)[1, 0])}.items() \
        <= metrics(at).items()
    assert "ln γ = 2.303-local differential privacy" in text(at)
    assert at.latex
    s = default()
    release = page.one_release(s)
    estimates = page.reconstructions(s, release.counts)
    pd.testing.assert_frame_equal(frame(at, "rs_counts_table"),
                                  page.release_table(s, release.counts, estimates))
    errors_ = page.one_release_errors(s, estimates)
    shown = metrics(at)
    for kind in page.KINDS:
        assert shown[f"‖X̂ − X‖/‖X‖, {SHORT[kind]}"] == fmt4(errors_[kind])
    assert shown["Random draws used"] == f"{release.draws:,}"
    assert shown["N·l"] == f"{RECORDS * L:,}"
    for tab in TABS:
        open_tab(at, tab)
        assert at.get("plotly_chart"), tab


def assert_accuracy(at: AppTest, table: pd.DataFrame) -> None:
    shown = metrics(at)
    for kind in page.KINDS:
        row = table.loc[kind]
        assert shown[f"Simulated, {SHORT[kind]}"] == \
            f"{row['actual']:.4g} ± {row['actual_se']:.2g}"
        assert shown[f"Exact, {SHORT[kind]}"] == fmt4(row["exact"])
    assert shown["Theorem 4.1 bound / √l"] == fmt4(table["bound"].iloc[0])


def test_the_accuracy_tab_follows_r_and_the_seed():
    at = start(ACCURACY)
    assert_accuracy(at, page.errors_of(default()))
    assert "N/√k" in text(at) and "independent" in text(at)
    spec = chart(at, "rs_fig_error").proto.spec
    assert "Theorem 4.1 bound" in spec and "simulated" in spec
    at.select_slider(key="rs_reps").set_value(20)
    at.number_input(key="rs_seed").set_value(7)
    run(at)
    assert_accuracy(at, page.errors_of(default(reps=20, seed=7)))


def test_the_cost_tab_shows_the_draws():
    at = start(COST, {"rs_source": SOURCE_URL["uniform"], "rs_N": "200", "rs_l": "20",
                      "rs_reps": "500"})
    s = default(source="uniform", n_cat=200, l=20, reps=500)
    assert any(f"is reduced to R = {s.reps}" in c.value for c in at.caption)
    cost = page.Cost.of(s)
    assert {"Draws, this release": f"{page.one_release(s).draws:,}",
            f"Mean draws over R = {s.reps}": fmt_count(page.errors_of(s)["draws"].iloc[0]),
            "Expected draws": fmt_count(cost.expected), "N·l": f"{RECORDS * 20:,}",
            "Expected draws / (N·l)": fmt4(cost.expected / (RECORDS * 20)),
            "P[s ≥ 2] (Theorem 5.1)": fmt_big(cost.collision)}.items() <= metrics(at).items()
    assert chart(at, "rs_fig_cost").proto.spec


def test_the_bias_tab_shows_the_bias():
    at = start(BIAS)
    errors_ = page.errors_of(default())
    shown = metrics(at)
    for kind in page.KINDS:
        assert shown[f"Relative bias, {SHORT[kind]}"] == fmt_rel(errors_.loc[kind, "bias"])
        assert shown[f"Exact error, {SHORT[kind]}"] == fmt4(errors_.loc[kind, "exact"])
    assert "Kang, Lee & Hong's (2009) X̂*/l has the smaller total error" in text(at)
    spec = chart(at, "rs_fig_bias").proto.spec
    assert "simulated mean bias" in spec and "R = 100" in spec
    at.slider(key="rs_l_slider").set_value(1)
    run(at)
    assert "At l = 1 there is no re-randomisation" in text(at)


def test_the_privacy_tab_shows_the_privacy_the_breaches_and_the_links():
    at = start(PRIVACY, {"rs_gamma": "1,000", "rs_source": SOURCE_URL["korea"], "rs_N": "86"})
    s = default(source="korea", n_cat=86, gamma=1000.0)
    e = page.Privacy.of(s)
    shown = metrics(at)
    assert shown["γ-amplification"] == "1,000" and shown["ε = ln γ"] == fmt4(e.log_gamma)
    assert shown["Condition number of M"] == page.condition_number(s)
    assert shown["Exact ε_l of the released set"] == fmt4(e.eps_l)
    threshold = rs.breach_gamma(0.05, 0.5)
    table = page.breach_table(
        page.Settings(s.data, 1000.0, L, s.reps, REPS, SEED, rho1=0.05, rho2=0.5), e, threshold)
    pd.testing.assert_frame_equal(frame(at, "rs_breach_table"), page.breach_shown(table),
                                  check_dtype=False)
    assert [csv for name, csv in kit(at).tables if name.startswith("Privacy breaches")][0] \
        .equals(table)  # its CSV and the report keep the numbers
    assert f"{threshold:.4g}" in text(at)
    assert chart(at, "rs_fig_eps").proto.spec
    ldp_link, fdp_link = [k for k in at.page_link if "try=" not in k.proto.query_string]
    for shown_link, (link, label, _) in zip((ldp_link, fdp_link),
                                            (page.ldp_link(s), page.fdp_link(s))):
        assert parse_qs(shown_link.proto.query_string) == {k: [v] for k, v in link.query.items()}
        assert shown_link.proto.label == label
    assert any("nearest value, 7" in c.value for c in at.caption)


def test_breach_with_rho1_not_below_rho2_is_a_plain_error():
    at = start(PRIVACY, {"rs_rho1": "0.6", "rs_rho2": "0.5"})
    [msg] = errors(at)
    assert "cannot be used" in msg and "ρ₁" in msg and "`" not in msg, msg
    assert at.page_link  # the rest of the tab is still there
    at.number_input(key="rs_rho1").set_value(0.1)
    run(at)
    assert not errors(at)
    assert f"{rs.breach_gamma(0.1, 0.5):.4g}" in text(at)


def test_linked_grids_are_the_target_pages_grids():
    fdp_at = open_linked("views/fdp.py", {"fdp_show_rs": ["true"],
                                         "fdp_tab": ["Trade-off curves"]})
    assert fdp_at.select_slider(key="fdp_rs_gamma").options == \
        [fmt_number(g) for g in links.FdpParams.RS_GAMMA_GRID]
    assert [o for o in fdp_at.select_slider(key="fdp_krr_eps").options if o != "0"] == \
        [fmt_number(e) for e in links.FdpParams.KRR_EPS_GRID]  # ε = 0 is never linked
    assert fdp_at.slider(key="fdp_rs_n").max == links.FdpParams.K_MAX


# --- data sources, N and l ---------------------------------------------------------------------

def test_two_age_groups_leave_l_1_only():
    at = start(query={"rs_source": SOURCE_URL["usa"], "rs_N": "2", "rs_n": "2,000"})
    assert at.slider(key="rs_N_slider").max == 86
    assert not [s for s in at.slider if s.key == "rs_l_slider"]
    assert any("l = 1: with k = 2" in c.value for c in at.caption)
    RS.assert_clean_on_every_tab(at)


def test_n_and_l_are_kept_in_the_url_and_clamped_to_their_range():
    """The URL holds N and l as chosen; the sliders show them clamped to their range."""
    at = start()
    at.slider(key="rs_l_slider").set_value(40)
    run(at)
    assert at.query_params["rs_l"] == "40"
    at.selectbox(key="rs_source").set_value("usa")  # N: 2 … 86, its default 10
    run(at)
    assert at.slider(key="rs_N_slider").value == 10 and at.slider(key="rs_l_slider").value == 9
    assert any("40 is outside 1 … 9; 9 is used" in c.value for c in at.caption)
    assert at.query_params["rs_l"] == "40"  # the choice is kept …
    at.slider(key="rs_N_slider").set_value(86)
    run(at)
    assert at.slider(key="rs_l_slider").value == 40  # … and comes back
    assert at.query_params["rs_N"] == "86"
    at.slider(key="rs_N_slider").set_value(2)  # no l slider: l = 1
    run(at)
    assert not [w for w in at.slider if w.key == "rs_l_slider"]
    assert metrics(at)["ε_l (l = 1)"] == fmt4(math.log(GAMMA))
    at.selectbox(key="rs_source").set_value("uniform")  # N = 2 fits its range too
    run(at)
    assert at.slider(key="rs_N_slider").value == 2
    at.slider(key="rs_N_slider").set_value(150)
    run(at)
    assert at.slider(key="rs_l_slider").value == 40
    at.slider(key="rs_l_slider").set_value(2)  # the default: not in the URL
    run(at)
    assert "rs_l" not in at.query_params
    np.testing.assert_array_equal(frame(at, "rs_counts_table")["X (true)"].to_numpy(),
                                  datasets.shape_counts("uniform", 150, RECORDS))


def test_l_from_the_url_beyond_n_is_clamped():
    at = start(BIAS, {"rs_N": "20", "rs_l": "30"})
    assert not errors(at)
    assert at.slider(key="rs_l_slider").value == 19
    assert any("30 is outside 1 … 19; 19 is used" in c.value for c in at.caption)
    assert metrics(at)["ε_l (l = 19)"] == fmt4(rs.extended_epsilon(20, GAMMA, 19))


@pytest.mark.parametrize("query", [{"rs_l": "0"}, {"rs_l": "x"}, {"rs_N": "2.5"},
                                   {"rs_N": "inf"}, {"rs_rho1": "2", "rs_tab": PRIVACY}],
                         ids=query_id)
def test_odd_link_values_of_n_l_and_rho_leave_the_page_clean(query):
    at = start(query=query)
    assert_clean(at)
    assert not errors(at) and metrics(at)["Categories k"]


EARLIER_NORMAL = "Normal (discretised, the source's shape)"  # the label before issue 17


def test_a_link_with_the_normal_shapes_earlier_label_opens_the_normal_shape():
    assert links.EARLIER_LABELS["rs_source"] == {EARLIER_NORMAL: "normal"}
    assert SOURCE_URL["normal"] == "Normal (discretised as in Son, Park & Jung 2022)"
    at = start(query={"rs_source": EARLIER_NORMAL, "rs_N": "20"})
    assert at.selectbox(key="rs_source").value == "normal" and not link_notes(at)
    assert at.slider(key="rs_N_slider").value == 20
    # a label that never was one is still named as unusable
    at = start(query={"rs_source": "Normal (something else)", "rs_N": "20"})
    assert len(link_notes(at)) == 1 and "rs_source" in link_notes(at)[0]


def test_an_earlier_label_selects_its_option_whatever_the_default(monkeypatch):
    monkeypatch.setitem(links.EARLIER_LABELS, "rs_source", {"Flat (old words)": "uniform"})
    at = start(query={"rs_source": "Flat (old words)"})
    assert at.selectbox(key="rs_source").value == "uniform" and not link_notes(at)
    assert not errors(at)


def upload(at: AppTest, data: bytes, kind: str = "categories") -> AppTest:
    return upload_file(at, "rs", data, kind)


def test_upload_values_per_record():
    values = ["b", "a", "c", "a", "b", "a"] * 5
    at = upload(start(), ("value\n" + "\n".join(values) + "\n").encode())
    table = frame(at, "rs_counts_table")
    assert table["category"].tolist() == ["a", "b", "c"]
    assert table["X (true)"].tolist() == [15, 10, 5]
    assert metrics(at)["Records N"] == "30" and metrics(at)["Categories k"] == "3"
    assert any("records N = 30 (n in Kang, Lee & Hong 2009): your file's" in c.value
               for c in at.caption)


def test_upload_counts_with_labels():
    at = upload(start(ACCURACY), b"group,records\nx,300\ny,700\nz,0\n", "counts")
    assert_accuracy(at, rs.error_table(np.array([300, 700, 0]), GAMMA, [L], reps=REPS,
                                       rng=[SEED, 2]).set_index("estimator"))
    open_tab(at, RELEASE)
    assert frame(at, "rs_counts_table")["category"].tolist() == ["x", "y", "z"]


@pytest.mark.parametrize(("data", "kind"), [
    (b"a\n" + b"\n".join(b"1" for _ in range(201)), "counts"),
    ("value\n".encode() + "\n".join(f"c{j}" for j in range(201)).encode(), "categories"),
])
def test_more_categories_than_the_page_takes_is_a_plain_error(data, kind):
    at = upload(start(), data, kind)
    plain_error(at, "at most 200")
    assert not at.tabs
    at.file_uploader(key="rs_file").set_value(("good.csv", b"a\n5\n7\n", "text/csv"))
    run(at)
    assert not errors(at)


# --- the paper grid, extremes, help, the report ------------------------------------------------

def test_paper_grid_button_runs_and_keeps_its_result():
    at = start(ACCURACY, {"rs_reps": "10"})
    assert any("Not run yet" in c.value for c in at.caption)
    at.button(key="rs_grid_run").click()
    run(at)
    assert not errors(at)
    result = page.paper_grid(10, SEED)
    pd.testing.assert_frame_equal(frame(at, "rs_grid_table"), page.grid_layout(result["table"]))
    # Its CSV download (the page kit's) and the report get the full table.
    assert [d for d in at.get("download_button") if d.key == "rs_grid_table_csv"]
    [full] = [t for n, t in kit(at).tables if n == f"The source's grid, R = 10, seed {SEED}"]
    pd.testing.assert_frame_equal(full.reset_index(drop=True),
                                  rs.paper_grid(reps=10, rng=[SEED, 5]))
    # Kept: another tab and back shows it again, without pressing the button.
    results = at.session_state["rs_grid_results"]
    assert list(results) == [(10, SEED)]
    open_tab(at, COST)
    open_tab(at, ACCURACY)
    assert at.session_state["rs_grid_results"][(10, SEED)] is results[(10, SEED)]
    assert frame(at, "rs_grid_table").shape == (8, 16)
    # Other settings: not shown until run again.
    at.select_slider(key="rs_reps").set_value(20)
    run(at)
    assert not frames(at, "rs_grid_table")
    assert any("another R or seed is kept" in c.value for c in at.caption)


EXTREMES = {
    "γ smallest, N largest, l largest": {"rs_gamma": "1.1", "rs_source": SOURCE_URL["uniform"],
                                         "rs_N": "200", "rs_l": "199", "rs_reps": "500"},
    "γ largest, N 3, n largest": {"rs_gamma": "1,000", "rs_N": "3", "rs_l": "2",
                                  "rs_n": "50M"},
    "population one year per group": {"rs_source": SOURCE_URL["usa"], "rs_N": "86",
                                      "rs_l": "85", "rs_gamma": "1.1"},
}


@pytest.mark.parametrize("query", EXTREMES.values(), ids=EXTREMES.keys())
def test_extremes_are_clean_on_every_tab(query):
    RS.assert_clean_on_every_tab(start(query=query))


def test_the_controls_of_every_data_source_have_help():
    at = start()
    for source in ("korea", "upload"):
        at.selectbox(key="rs_source").set_value(source)
        run(at)
        assert not without_help(at.main, []), source


def test_the_report_gets_the_settings_and_findings_of_each_tab():
    """The source's example: γ = 10, l = 4."""
    at = start(query={"rs_l": "4"})
    s = default(l=4)
    errors_ = page.errors_of(s)
    for tab in TABS:
        open_tab(at, tab)
        found = kit(at)
        assert len(found.findings) == (3 if tab == PRIVACY else 2), found.findings
        assert found.findings[0] == page.summary_finding(s)
        expected = s.report_items()
        if tab == PRIVACY:
            expected |= {"breach: prior ρ₁": "0.05", "breach: posterior ρ₂": "0.5"}
        assert found.parameters == {k: str(v) for k, v in expected.items()}
    open_tab(at, ACCURACY)
    assert kit(at).findings[1] == page.accuracy_finding(s, errors_)
    open_tab(at, BIAS)
    assert f"{errors_.loc['source', 'bias']:.3%}" in kit(at).findings[1]


def test_a_stopped_page_still_has_its_link_and_report():
    query = {"rs_source": SOURCE_URL["upload"], "rs_gamma": "5"}
    assert_stopped_page_keeps_link_and_report(start(query=query), query)


# --- issue 18: every control shows the value in use ----------------------------------------------

LABEL_L = "ε_l (l = "


def l_in_metrics(at: AppTest) -> set[int]:
    """Every l the metrics name: in "ε_l (l = …)" labels."""
    return {int(label[len(LABEL_L):-1]) for label in metrics(at) if label.startswith(LABEL_L)}


def test_moving_n_updates_the_l_control_and_every_number_in_one_rerun():
    """Issue 18: at γ = 1,000 and l = 49, N moved to 200 left the l slider at 1 while every
    metric still used l = 49. In one rerun, the l the slider shows is the l of every metric,
    sentence and report setting."""
    at = start(query={"rs_gamma": "1,000", "rs_l": "49"})
    at.slider(key="rs_N_slider").set_value(200)
    run(at)
    shown_l = at.slider(key="rs_l_slider").value
    assert shown_l == 49
    assert l_in_metrics(at) == {shown_l}
    n = int(kit(at).parameters["records N"].replace(",", ""))
    assert metrics(at)["N·l"] == f"{n * shown_l:,}"
    assert kit(at).parameters["values per record l"] == str(shown_l)
    assert f"l = {shown_l}" in kit(at).findings[0]


def test_a_new_data_source_updates_n_and_its_slider_in_one_rerun():
    """The N slider's range changes with the data source (200 shapes, 86 age groups)."""
    at = start(query={"rs_N": "60"})
    at.selectbox(key="rs_source").set_value("usa")
    run(at)
    assert at.slider(key="rs_N_slider").value == 60
    assert metrics(at)["Categories k"] == "60"
    assert kit(at).parameters["categories k"] == "60"


def test_the_r_control_shows_the_r_in_use_when_it_is_reduced():
    """Issue 18: the R slider showed 100 while R was reduced to 2. Its options stop at the R
    the budget allows; the R chosen stays in the URL (and comes back when N or l allow it)."""
    query = {"rs_gamma": "1,000", "rs_source": SOURCE_URL["uniform"], "rs_N": "86",
             "rs_l": "49"}
    at = start(ACCURACY, query)
    s = default(source="uniform", n_cat=86, gamma=1000.0, l=49)
    assert s.reduced and 10 < s.reps < 100
    control = at.select_slider(key="rs_reps")
    assert control.value == s.reps and max(control.options, key=int) == str(s.reps)
    assert f"R = {s.reps} releases" in text(at)
    assert kit(at).parameters["repetitions R"].startswith(f"{s.reps} ")
    at.slider(key="rs_l_slider").set_value(2)  # within the budget again: R = 100 comes back
    run(at)
    assert at.select_slider(key="rs_reps").value == REPS
    assert not any("reduced" in c.value for c in at.caption)


def test_r_reduced_below_every_step_is_shown_as_the_value_in_use():
    """N = 200 and l = 49: R = 2, below the smallest step: no slider shows another R."""
    at = start(query={"rs_gamma": "1,000", "rs_N": "200", "rs_l": "49"})
    s = default(n_cat=200, gamma=1000.0, l=49)
    assert s.reps == 2
    sliders = [w for w in at.select_slider if w.key == "rs_reps"]
    assert not sliders or sliders[0].value == 2
    assert any("Repetitions R = 2" in m.value for m in at.markdown)


# --- issue 18: "Try this" ----------------------------------------------------------------------

def open_experiment(i: int) -> AppTest:
    """The page as experiment ``i``'s link opens it: a fresh visit with its values."""
    return pagekit.open_experiment("views/substitution.py", page.EXPERIMENTS, i)


def test_try_l_10_at_gamma_5_eps_l_grows_while_the_error_falls():
    at = open_experiment(0)
    assert at.select_slider(key="rs_gamma").value == 5.0
    assert at.slider(key="rs_l_slider").value == 10 and at.session_state["rs_tab"] == ACCURACY
    shown = metrics(at)
    eps_l = float(shown["ε_l (l = 10)"])
    assert eps_l > math.log(5) and any(f"ε = ln γ = {math.log(5):.4g}" in c.value
                                       for c in at.caption)
    exact = float(shown["Exact, A⁻¹Y* (unbiased)"])
    [fig] = [f for name, f in kit(at).figures if name == "Relative standard error against l"]
    [curve] = [tr for tr in fig.data
               if (tr.name or "").startswith("exact") and "unbiased" in tr.name]
    at_1 = curve.y[list(curve.x).index(1)]
    assert exact < at_1 / 2  # "less than half its value at l = 1"


def test_try_l_10_the_sources_estimate_stays_biased():
    at = open_experiment(1)
    assert at.slider(key="rs_l_slider").value == 10 and at.session_state["rs_tab"] == BIAS
    shown = metrics(at)
    assert float(shown[f"Relative bias, {SHORT['source']}"].rstrip("%")) > 30
    assert float(shown[f"Relative bias, {SHORT['unbiased']}"].rstrip("%")) == 0


E_NOTATION = re.compile(r"\d[eE][-+]?\d")


def shown_text(at: AppTest) -> list[str]:
    """Every number-bearing text the page shows: metrics, Markdown, captions, notes, tables."""
    texts = [f"{m.label}: {m.value}" for m in at.metric]
    texts += [e.value for kind in ("markdown", "caption", "info", "warning", "error")
              for e in getattr(at, kind)]
    texts += [str(v) for d in at.dataframe for v in d.value.astype(str).to_numpy().ravel()]
    found = kit(at)
    return texts + found.findings + found.notes + list(found.parameters.values())


@pytest.mark.parametrize("query", [*EXTREMES.values(), {"rs_gamma": "1,000", "rs_N": "2"},
                                   {"rs_gamma": "1,000", "rs_N": "200", "rs_l": "49",
                                    "rs_n": "50M"}], ids=query_id)
def test_no_e_notation_and_no_probability_rounded_to_0_or_1(query):
    at = start(query=query)
    for tab in TABS:
        open_tab(at, tab)
        for text in shown_text(at):
            assert not E_NOTATION.search(text), (tab, text)
        shown = metrics(at)
        for label in ("Keep: γx", "Each other value: x"):
            assert shown[label] not in ("0", "1"), (label, shown[label])


def assert_controls_show_the_values_in_use(at: AppTest) -> None:
    """k, N, l and R as the controls show them are those of the metrics, the settings the
    report prints and the sentences."""
    params, shown = kit(at).parameters, metrics(at)
    k = at.slider(key="rs_N_slider").value
    assert shown["Categories k"] == str(k) == params["categories k"]
    ls = [w.value for w in at.slider if w.key == "rs_l_slider"]
    l = ls[0] if ls else 1
    assert l_in_metrics(at) == {l} and params["values per record l"] == str(l)
    assert shown["Records N"] == params["records N"] == \
        f"{at.select_slider(key='rs_n').value:,}"
    reps = [w.value for w in at.select_slider if w.key == "rs_reps"]
    r = reps[0] if reps else int(next(m.value.split("= ")[1] for m in at.markdown
                                      if m.value.startswith("Repetitions R = ")))
    assert params["repetitions R"].split(" ")[0] == f"{r:,}"


@pytest.mark.parametrize("seed", range(4))
def test_random_states_and_moves_keep_every_control_showing_the_value_in_use(seed):
    """Issue 18: random link states, then random moves of k and l: after every rerun the
    controls show the values every number uses."""
    rng = np.random.default_rng(seed)
    query = {"rs_gamma": fmt_number(float(rng.choice(links.SubstitutionParams.GAMMA_GRID))),
             "rs_N": str(int(rng.integers(2, 201))), "rs_l": str(int(rng.integers(1, 200))),
             "rs_reps": str(int(rng.choice(page.REPS_GRID))),
             "rs_source": SOURCE_URL[str(rng.choice(["uniform", "normal", "korea"]))]}
    at = start(query=query)
    assert_controls_show_the_values_in_use(at)
    for _ in range(3):
        n_slider = at.slider(key="rs_N_slider")
        n_slider.set_value(int(rng.integers(n_slider.min, n_slider.max + 1)))
        run(at)
        assert_controls_show_the_values_in_use(at)
        l_slider = [w for w in at.slider if w.key == "rs_l_slider"]
        if l_slider:
            l_slider[0].set_value(int(rng.integers(l_slider[0].min, l_slider[0].max + 1)))
            run(at)
            assert_controls_show_the_values_in_use(at)
