"""AppTest tests of the page "Random substitution" (views/substitution.py).

The page is driven through its widgets by key (all keys start with ``rs_``) and through
the URL query parameters they are bound to. Only the open tab runs; tests open a tab
through its key ``rs_tab``. Expected numbers come from dpcore.substitution and
dpcore.datasets with the page's documented random streams: a population's records from
``[seed, 0]`` (the shapes' counts are fixed: ``datasets.shape_counts``), the release of the
first tab (and its draws on the tab Cost) from ``[seed, 1]``, the R releases of the tabs
Accuracy, Cost and Bias from ``[seed, 2]`` (``error_table`` for the chosen l, and the same
releases for the bias), and the paper grid from ``[seed, 5]``. R is reduced to
max(2, 5·10⁶ // (N²(l + 1))) when the slider's R is above it.
"""

from __future__ import annotations

import math
from urllib.parse import parse_qs

import numpy as np
import dpviz
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from ui import links
from ui import format as fmt
from conftest import assert_clean, run, upload_file
from dpcore import datasets
from dpcore import substitution as rs
from pagekit import (kit, TabbedPage, assert_kit_of_tab, assert_only_bad_value_reset,
                     assert_stopped_page_keeps_link_and_report, assert_upload_controls_have_help,
                     assert_widgets_keyed_with_help, errors, kit, kit_report, metrics,
                     open_linked, plain_error, query_id, warnings)

PAGE = "views/substitution.py"
TITLE = "Random substitution"
RELEASE, ACCURACY, COST, PRIVACY, BIAS = TABS = (
    "Release and reconstruction", "Accuracy", "Cost", "Privacy", "Bias")
GAMMA_GRID = (1.1, 1.25, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0, 100.0, 200.0,
              500.0, 1000.0)
SEED = 2022
N, RECORDS, GAMMA, L, REPS = 50, 5_000, 10.0, 2, 100  # the defaults: normal shape
SOURCE_URL = {
    "uniform": "Uniform (the source's shape)",
    "normal": "Normal (discretised, the source's shape)",
    **{k: f"Population 2020 by age: {v}" for k, v in datasets.POPULATIONS.items()},
    "upload": "Uploaded CSV file",
}
SHORT = {"source": "X̂*/l (source)", "unbiased": "A⁻¹Y* (unbiased)"}


RS = TabbedPage(PAGE, TITLE, "rs_tab", TABS)
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


def chart(at: AppTest, key: str):
    [c] = [c for c in at.get("plotly_chart") if key in c.proto.id]
    return c


def fmt4(v: float) -> str:
    return f"{v + 0.0:.4g}"


def fmt_count(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 1e4 else f"{v:,.1f}"


def shape(name: str = "normal", n_cat: int = N, n: int = RECORDS) -> np.ndarray:
    return datasets.shape_counts(name, n_cat, n)


def population(name: str, n_cat: int, n: int = RECORDS, seed: int = SEED) -> np.ndarray:
    groups = datasets.age_groups(name, n_cat)
    return datasets.draw_histogram(datasets.proportions(groups.to_numpy()), n, rng=[seed, 0])


def table_counts(at: AppTest) -> np.ndarray:
    return frame(at, "rs_counts_table")["X (true)"].to_numpy()


# ---------------------------------------------------------------------------
# default view
# ---------------------------------------------------------------------------

def test_default_view_on_every_tab():
    at = start()
    assert not errors(at)
    assert [t.label for t in at.tabs] == list(TABS)
    assert at.selectbox(key="rs_source").value == "normal"
    assert at.slider(key="rs_N_slider").value == N and at.slider(key="rs_l_slider").value == L
    assert at.select_slider(key="rs_n").value == RECORDS
    assert at.select_slider(key="rs_gamma").value == GAMMA
    assert at.select_slider(key="rs_gamma").options == [fmt.fmt_number(g) for g in GAMMA_GRID]
    assert at.select_slider(key="rs_reps").value == REPS
    shown = metrics(at)
    m = rs.gamma_diagonal_matrix(N, GAMMA)
    assert shown["Categories N"] == "50" and shown["Records n"] == "5,000"
    assert shown["Keep: γx"] == fmt4(m[0, 0]) == "0.1695"
    assert shown["Each other value: x"] == fmt4(m[1, 0])
    assert shown["ε_l (l = 2)"] == fmt4(rs.extended_epsilon(N, GAMMA, L)) == "2.39"
    assert "ln γ = 2.303-local differential privacy" in text(at)
    assert at.latex
    for tab in TABS:
        open_tab(at, tab)
        assert not errors(at), tab
        assert_widgets_keyed_with_help(at, "rs_")
        assert at.get("plotly_chart"), tab


# ---------------------------------------------------------------------------
# release and reconstruction
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(("query", "x", "gamma", "l"), [
    ({}, shape(), GAMMA, L),
    ({"rs_l": "1", "rs_gamma": "3"}, shape(), 3.0, 1),
    ({"rs_source": SOURCE_URL["uniform"], "rs_N": "100", "rs_n": "50,000", "rs_l": "4",
      "rs_gamma": "1,000"}, shape("uniform", 100, 50_000), 1000.0, 4),
])
def test_release_matches_dpcore(query, x, gamma, l):
    at = start(query=query)
    assert not errors(at)
    table = frame(at, "rs_counts_table")
    released = "Y (released)" if l == 1 else "Y* (released)"
    assert list(table.columns) == ["category", "X (true)", released, "X̂*/l (source)",
                                   "A⁻¹Y* (unbiased)"]
    np.testing.assert_array_equal(table["X (true)"].to_numpy(), x)
    release = rs.extended_random_substitution(x, gamma, l, rng=[SEED, 1])
    np.testing.assert_array_equal(table[released].to_numpy(), release.counts)
    assert table[released].sum() == x.sum() * l
    source = rs.reconstruct(release.counts, gamma, l=l)
    unbiased = rs.reconstruct_unbiased(release.counts, gamma, l)
    np.testing.assert_allclose(table["X̂*/l (source)"].to_numpy(), source, rtol=1e-12)
    np.testing.assert_allclose(table["A⁻¹Y* (unbiased)"].to_numpy(), unbiased, rtol=1e-12)
    shown = metrics(at)
    for kind, est in (("source", source), ("unbiased", unbiased)):
        error = np.linalg.norm(est - x) / np.linalg.norm(x)
        assert shown[f"‖X̂ − X‖/‖X‖, {SHORT[kind]}"] == fmt4(error)
    assert shown["Random draws used"] == f"{release.draws:,}"
    assert shown["n·l"] == f"{x.sum() * l:,}"
    assert chart(at, "rs_fig_counts").proto.spec


# ---------------------------------------------------------------------------
# accuracy, cost, bias: the R releases of [seed, 2]
# ---------------------------------------------------------------------------

def expected_errors(x, gamma=GAMMA, l=L, reps=REPS, seed=SEED) -> pd.DataFrame:
    return rs.error_table(x, gamma, [l], reps=reps, rng=[seed, 2]).set_index("estimator")


def assert_accuracy(at: AppTest, table: pd.DataFrame) -> None:
    shown = metrics(at)
    for kind in ("source", "unbiased"):
        row = table.loc[kind]
        assert shown[f"Simulated, {SHORT[kind]}"] == \
            f"{row['actual']:.4g} ± {row['actual_se']:.2g}"
        assert shown[f"Exact, {SHORT[kind]}"] == fmt4(row["exact"])
    assert shown["Theorem 4.1 bound / √l"] == fmt4(table["bound"].iloc[0])


def test_accuracy_matches_error_table():
    at = start(ACCURACY)
    assert not errors(at)
    x = shape()
    table = expected_errors(x)
    assert_accuracy(at, table)
    assert table.loc["source", "exact"] == pytest.approx(rs.expected_standard_error(x, GAMMA, L))
    assert table["bound"].iloc[0] == pytest.approx(rs.standard_error_bound(N, RECORDS, GAMMA, L))
    assert "n/√N" in text(at) and "independent" in text(at)
    spec = chart(at, "rs_fig_error").proto.spec
    assert "Theorem 4.1 bound" in spec and "simulated" in spec


def test_sliders_change_the_numbers_as_dpcore_says():
    at = start(ACCURACY)
    at.select_slider(key="rs_gamma").set_value(5.0)
    at.slider(key="rs_l_slider").set_value(4)
    run(at)
    assert not errors(at)
    assert metrics(at)["ε_l (l = 4)"] == fmt4(rs.extended_epsilon(N, 5.0, 4))
    assert_accuracy(at, expected_errors(shape(), 5.0, 4))
    at.select_slider(key="rs_reps").set_value(20)
    at.slider(key="rs_N_slider").set_value(100)
    run(at)
    assert_accuracy(at, expected_errors(shape("normal", 100), 5.0, 4, reps=20))
    at.number_input(key="rs_seed").set_value(7)
    run(at)
    assert_accuracy(at, expected_errors(shape("normal", 100), 5.0, 4, reps=20, seed=7))


def test_reps_are_reduced_to_the_budget():
    at = start(COST, {"rs_source": SOURCE_URL["uniform"], "rs_N": "200", "rs_l": "20",
                      "rs_reps": "500"})
    assert not errors(at)
    reps = 5_000_000 // (200 * 200 * 21)
    assert reps == 5
    assert any(f"R is reduced to {reps}" in c.value and "R = 500" in c.value
               for c in at.caption)
    x = shape("uniform", 200)
    table = expected_errors(x, l=20, reps=reps)
    shown = metrics(at)
    assert shown[f"Mean draws over R = {reps}"] == fmt_count(table["draws"].iloc[0])


def test_cost_matches_dpcore():
    at = start(COST)
    assert not errors(at)
    x = shape()
    n = int(x.sum())
    shown = metrics(at)
    release = rs.extended_random_substitution(x, GAMMA, L, rng=[SEED, 1])
    assert shown["Draws, this release"] == f"{release.draws:,}"
    table = expected_errors(x)
    assert shown[f"Mean draws over R = {REPS}"] == fmt_count(table["draws"].iloc[0])
    expected = rs.expected_draws(n, N, GAMMA, L)
    assert shown["Expected draws"] == fmt_count(expected)
    assert shown["n·l"] == f"{n * L:,}"
    assert shown["Expected draws / (n·l)"] == fmt4(expected / (n * L))
    assert shown["P[s ≥ 2] (Theorem 5.1)"] == fmt4(rs.collision_probability(N, GAMMA, L))
    assert chart(at, "rs_fig_cost").proto.spec


def test_cost_at_l_1_has_no_redraws():
    at = start(COST, {"rs_l": "1"})
    shown = metrics(at)
    assert shown["P[s ≥ 2] (Theorem 5.1)"] == "0"  # not "-0"
    assert shown["Expected draws / (n·l)"] == "1"
    assert shown["Draws, this release"] == "5,000"


def test_bias_matches_dpcore():
    at = start(BIAS)
    assert not errors(at)
    x = shape()
    table = expected_errors(x)
    shown = metrics(at)
    bias = np.linalg.norm(rs.reconstruction_bias(x, GAMMA, L)) / np.linalg.norm(x)
    assert shown[f"Relative bias, {SHORT['source']}"] == f"{bias:.3%}" == "5.722%"
    assert shown[f"Relative bias, {SHORT['unbiased']}"] == "0.000%"
    for kind in ("source", "unbiased"):
        assert shown[f"Exact error, {SHORT[kind]}"] == fmt4(table.loc[kind, "exact"])
    pi = rs.inclusion_probability(N, GAMMA, L)
    assert f"π = {pi:.4g}" in text(at)
    # At these settings the biased estimator has the smaller total error.
    assert table.loc["source", "exact"] < table.loc["unbiased", "exact"]
    assert "the source's X̂*/l has the smaller total error" in text(at)
    spec = chart(at, "rs_fig_bias").proto.spec
    assert "simulated mean bias" in spec and "R = 100" in spec


def test_bias_at_l_1_and_on_uniform_data_is_zero():
    at = start(BIAS, {"rs_l": "1"})
    assert not errors(at)
    assert metrics(at)[f"Relative bias, {SHORT['source']}"] == "0.000%"
    assert "At l = 1 there is no re-randomisation" in text(at)
    at = start(BIAS, {"rs_source": SOURCE_URL["uniform"], "rs_l": "4"})
    assert metrics(at)[f"Relative bias, {SHORT['source']}"] == "0.000%"


# ---------------------------------------------------------------------------
# data sources
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["uniform", "normal"])
def test_shape_sources(name):
    at = start(query={"rs_source": SOURCE_URL[name], "rs_N": "7", "rs_n": "1,000"})
    assert not errors(at)
    np.testing.assert_array_equal(table_counts(at), shape(name, 7, 1000))
    assert frame(at, "rs_counts_table")["category"].tolist() == [str(j) for j in range(1, 8)]
    assert at.slider(key="rs_l_slider").max == 6


@pytest.mark.parametrize(("name", "n_cat"), [("usa", 2), ("korea", 86), ("korea_central", 9),
                                             ("korea_noncentral", 18)])
def test_population_sources(name, n_cat):
    at = start(query={"rs_source": SOURCE_URL[name], "rs_N": str(n_cat), "rs_n": "2,000"})
    assert not errors(at)
    assert at.slider(key="rs_N_slider").max == 86
    np.testing.assert_array_equal(table_counts(at), population(name, n_cat, 2000))
    assert frame(at, "rs_counts_table")["category"].tolist() == \
        list(datasets.age_groups(name, n_cat).index)
    assert metrics(at)["Categories N"] == str(n_cat)
    if n_cat == 2:  # l < N leaves l = 1 only
        assert not [s for s in at.slider if s.key == "rs_l_slider"]
        assert any("l = 1: with N = 2" in c.value for c in at.caption)
        for tab in TABS[1:]:
            open_tab(at, tab)
            assert not errors(at), tab


def upload(at: AppTest, data: bytes, kind: str = "categories") -> AppTest:
    return upload_file(at, "rs", data, kind)


def test_upload_values_per_record():
    values = ["b", "a", "c", "a", "b", "a"] * 5
    at = upload(start(), ("value\n" + "\n".join(values) + "\n").encode())
    assert not errors(at)
    table = frame(at, "rs_counts_table")
    assert table["category"].tolist() == ["a", "b", "c"]
    assert table["X (true)"].tolist() == [15, 10, 5]
    assert metrics(at)["Records n"] == "30" and metrics(at)["Categories N"] == "3"
    release = rs.extended_random_substitution([15, 10, 5], GAMMA, 2, rng=[SEED, 1])
    np.testing.assert_array_equal(table["Y* (released)"].to_numpy(), release.counts)
    assert any("records n = 30: your file's" in c.value for c in at.caption)


def test_upload_counts_with_labels():
    at = upload(start(ACCURACY), b"group,records\nx,300\ny,700\nz,0\n", "counts")
    assert not errors(at)
    assert_accuracy(at, expected_errors(np.array([300, 700, 0])))
    open_tab(at, RELEASE)
    table = frame(at, "rs_counts_table")
    assert table["category"].tolist() == ["x", "y", "z"]
    assert table["X (true)"].tolist() == [300, 700, 0]


@pytest.mark.parametrize(("data", "kind", "fragment"), [
    (b"", "counts", "The file is empty"),
    (b"", "categories", "The file is empty"),
    (b"a\n1\nx\n", "counts", '"x" is not a number'),
    (b"a\n1\n-2\n", "counts", "negative count"),
    (b"a\n1\nnan\n", "counts", "not allowed"),
    (b"a\n1.5\n2\n", "counts", "not a whole number"),
    (b"a\n0\n0\n", "counts", "all counts equal to 0"),
    (b"a\n5\n", "counts", "at least 2 bins"),
    (b"value\nu\nu\n", "categories", "single category"),
    (b"a\n" + b"\n".join(b"1" for _ in range(201)), "counts", "at most 200"),
    ("value\n".encode() + "\n".join(f"c{j}" for j in range(201)).encode(), "categories",
     "at most 200"),
])
def test_bad_upload_shows_plain_error(data, kind, fragment):
    at = upload(start(), data, kind)
    plain_error(at, fragment)
    assert not at.tabs
    at.file_uploader(key="rs_file").set_value(("good.csv", b"a\n5\n7\n", "text/csv"))
    run(at)
    assert not errors(at)


# ---------------------------------------------------------------------------
# privacy, breaches and the links
# ---------------------------------------------------------------------------

@pytest.mark.parametrize(("gamma", "l", "n_cat"), [(10.0, 2, 50), (1.1, 30, 40), (1000.0, 4, 7)])
def test_privacy_matches_dpcore(gamma, l, n_cat):
    at = start(PRIVACY, {"rs_gamma": fmt.fmt_number(gamma), "rs_l": str(l),
                         "rs_N": str(n_cat)})
    assert not errors(at)
    shown = metrics(at)
    assert shown["γ-amplification"] == fmt.fmt_number(gamma)
    assert shown["ε = ln γ"] == fmt4(math.log(gamma))
    assert shown["Condition number of M"] == fmt4(1 + n_cat / (gamma - 1))
    assert shown["Source's bound γ^l: ε = l × ln γ"] == fmt4(l * math.log(gamma))
    assert shown["Exact ε_l of the released set"] == fmt4(rs.extended_epsilon(n_cat, gamma, l))
    assert shown["ε if the order were released"] == \
        fmt4(rs.extended_epsilon(n_cat, gamma, l, ordered=True))
    breach = frame(at, "rs_breach_table")
    threshold = rs.breach_gamma(0.05, 0.5)
    eps = [math.log(gamma), rs.extended_epsilon(n_cat, gamma, l), l * math.log(gamma)]
    np.testing.assert_allclose(breach["ε"].to_numpy(), eps, rtol=1e-12)
    assert breach["no 0.05→0.5 breach"].tolist() == \
        ["yes" if e < math.log(threshold) else "no" for e in eps]
    np.testing.assert_allclose(breach["largest posterior"].to_numpy(),
                               [rs.posterior_bound(0.05, math.exp(e)) for e in eps])
    assert f"{threshold:.4g}" in text(at)
    assert chart(at, "rs_fig_eps").proto.spec


def test_breach_with_rho1_not_below_rho2_is_a_plain_error():
    at = start(PRIVACY, {"rs_rho1": "0.6", "rs_rho2": "0.5"})
    [msg] = errors(at)
    assert "cannot be used" in msg and "ρ₁" in msg and "`" not in msg, msg
    assert at.page_link  # the rest of the tab is still there
    at.number_input(key="rs_rho1").set_value(0.1)
    run(at)
    assert not errors(at)
    threshold = rs.breach_gamma(0.1, 0.5)
    assert f"{threshold:.4g}" in text(at)


@pytest.mark.parametrize(("query", "eps", "k", "gamma", "n_cat"), [
    ({}, 2.0, None, 10.0, 50),  # ln 10 = 2.303: nearest 2
    ({"rs_gamma": "1.1", "rs_source": SOURCE_URL["korea"], "rs_N": "86"}, 0.1, 86, 1.1, 86),
    ({"rs_gamma": "1,000", "rs_source": SOURCE_URL["uniform"], "rs_N": "150"}, 7.0, None,
     1000.0, 100),
])
def test_links_to_the_ldp_and_fdp_pages(query, eps, k, gamma, n_cat):
    at = start(PRIVACY, query)
    ldp_link, fdp_link = at.page_link
    assert ldp_link.proto.page.endswith("ldp") and fdp_link.proto.page.endswith("fdp")
    ldp_params = parse_qs(ldp_link.proto.query_string)
    expected = {"ldp_tab": ["The guarantee"], "ldp_eps": [f"{eps:g}"]}
    if k is not None:
        expected |= {"ldp_source": [SOURCE_URL["korea"]], "ldp_k": [str(k)]}
    assert ldp_params == expected
    fdp_params = parse_qs(fdp_link.proto.query_string)
    assert fdp_params == {"fdp_tab": ["Trade-off curves"], "fdp_show_krr": ["false"],
                          "fdp_show_rs": ["true"], "fdp_rs_gamma": [fmt.fmt_number(gamma)],
                          "fdp_rs_n": [str(n_cat)]}
    if n_cat != int(query.get("rs_N", n_cat)):
        assert any("stops at 100" in c.value for c in at.caption)
    ldp_at = open_linked("views/ldp.py", ldp_params)
    assert ldp_at.select_slider(key="ldp_eps").value == eps
    assert ldp_at.session_state["ldp_tab"] == "The guarantee"
    if k is not None:
        assert ldp_at.slider(key="ldp_k").value == k
    fdp_at = open_linked("views/fdp.py", fdp_params)
    assert fdp_at.toggle(key="fdp_show_rs").value is True
    assert fdp_at.toggle(key="fdp_show_krr").value is False
    assert fdp_at.select_slider(key="fdp_rs_gamma").value == gamma
    assert fdp_at.slider(key="fdp_rs_n").value == n_cat


def test_linked_grids_are_the_target_pages_grids():
    ldp_at = open_linked("views/ldp.py", {})
    assert ldp_at.select_slider(key="ldp_eps").options == \
        [fmt.fmt_number(e) for e in links.LdpParams.EPS_GRID]
    fdp_at = open_linked("views/fdp.py", {"fdp_show_rs": ["true"],
                                         "fdp_tab": ["Trade-off curves"]})
    assert fdp_at.select_slider(key="fdp_rs_gamma").options == \
        [fmt.fmt_number(g) for g in links.FdpParams.RS_GAMMA_GRID]
    assert [o for o in fdp_at.select_slider(key="fdp_krr_eps").options if o != "0"] == \
        [fmt.fmt_number(e) for e in links.FdpParams.KRR_EPS_GRID]  # ε = 0 is never linked
    assert fdp_at.slider(key="fdp_rs_n").max == links.FdpParams.K_MAX


# ---------------------------------------------------------------------------
# the paper grid
# ---------------------------------------------------------------------------

def test_paper_grid_button_runs_and_keeps_its_result():
    at = start(ACCURACY, {"rs_reps": "10"})
    assert any("Not run yet" in c.value for c in at.caption)
    at.button(key="rs_grid_run").click()
    run(at)
    assert not errors(at)
    wide = frame(at, "rs_grid_table")
    assert wide.shape == (8, 4 + 3 * 4)
    assert list(dict.fromkeys(c[0] for c in wide.columns)) == ["data", "l = 1", "l = 2", "l = 4"]
    assert [c[1] for c in wide.columns[:8]] == ["shape", "N", "γ", "n", "X̂*/l", "A⁻¹Y*",
                                                 "bound", "draws"]
    cells = [(row, group) for row in range(len(wide)) for group in ("l = 1", "l = 2", "l = 4")]
    assert len(cells) == 24
    expected = rs.paper_grid(reps=10, rng=[SEED, 5])
    assert wide[("data", "shape")].tolist() == ["Uniform"] * 4 + ["Normal"] * 4
    assert wide[("data", "N")].tolist() == [50, 50, 100, 100] * 2
    assert wide[("data", "n")].tolist() == [5000, 50000] * 4
    for (row, group), cell in zip(cells, expected.groupby(
            ["shape", "N", "gamma", "n", "l"], sort=False)):
        by = cell[1].set_index("estimator")
        assert wide.loc[row, (group, "X̂*/l")] == pytest.approx(by.loc["source", "actual"])
        assert wide.loc[row, (group, "A⁻¹Y*")] == pytest.approx(by.loc["unbiased", "actual"])
        assert wide.loc[row, (group, "bound")] == pytest.approx(by.loc["source", "bound"])
        assert wide.loc[row, (group, "draws")] == pytest.approx(by.loc["source", "draws"])
    # Its CSV download (the page kit's) and the report get the full table.
    assert [d for d in at.get("download_button") if d.key == "rs_grid_table_csv"]
    name = f"The source's grid, R = 10, seed {SEED}"
    [full] = [t for n, t in kit(at).tables if n == name]
    pd.testing.assert_frame_equal(full.reset_index(drop=True), expected.reset_index(drop=True))
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


# ---------------------------------------------------------------------------
# URL parameters and extremes
# ---------------------------------------------------------------------------

def test_query_params_set_the_view_and_follow_the_widgets():
    at = start(query={"rs_tab": COST, "rs_gamma": "5", "rs_l": "3", "rs_N": "20",
                      "rs_n": "50,000", "rs_reps": "50", "rs_seed": "7",
                      "rs_source": SOURCE_URL["korea_central"]})
    assert not errors(at)
    assert at.session_state["rs_tab"] == COST
    assert at.select_slider(key="rs_gamma").value == 5.0
    assert at.slider(key="rs_l_slider").value == 3 and at.slider(key="rs_N_slider").value == 20
    assert at.select_slider(key="rs_n").value == 50_000
    assert at.select_slider(key="rs_reps").value == 50
    assert at.number_input(key="rs_seed").value == 7
    x = population("korea_central", 20, 50_000, seed=7)
    table = expected_errors(x, 5.0, 3, reps=50, seed=7)
    assert metrics(at)["Mean draws over R = 50"] == fmt_count(table["draws"].iloc[0])


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
    np.testing.assert_array_equal(table_counts(at), shape("uniform", 150))
    assert not errors(at)


def test_l_from_the_url_beyond_n_is_clamped():
    at = start(BIAS, {"rs_N": "20", "rs_l": "30"})
    assert not errors(at)
    assert at.slider(key="rs_l_slider").value == 19
    assert any("30 is outside 1 … 19; 19 is used" in c.value for c in at.caption)
    assert metrics(at)["ε_l (l = 19)"] == fmt4(rs.extended_epsilon(20, GAMMA, 19))


@pytest.mark.parametrize("query", [
    {"rs_gamma": "abc"}, {"rs_gamma": "1"}, {"rs_l": "50"}, {"rs_l": "0"}, {"rs_l": "x"},
    {"rs_N": "1"}, {"rs_N": "500"}, {"rs_N": "2.5"}, {"rs_N": "inf"}, {"rs_source": "nope"},
    {"rs_tab": "nope"}, {"rs_reps": "7"},
    {"rs_n": "-5"}, {"rs_rho1": "2"}, {"rs_seed": "x"},
], ids=query_id)
def test_bad_query_params_are_ignored(query):
    at = start(query=query)
    assert_clean(at)
    assert not errors(at)


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


# ---------------------------------------------------------------------------
# the page kit: a shareable view, the report, help on every control
# ---------------------------------------------------------------------------

# Every control bound to the URL, at a value other than its default (rs_tab aside).
SHARED = {"rs_source": SOURCE_URL["korea_central"], "rs_N": "20", "rs_l": "3",
          "rs_n": "20,000", "rs_gamma": "5", "rs_reps": "50", "rs_seed": "7",
          "rs_rho1": "0.1", "rs_rho2": "0.6"}
# What each tab gives the report: its charts and its tables, by name.
KIT = {RELEASE: (["One release: true, released and reconstructed counts"],
                 ["One release: counts per category"]),
       ACCURACY: (["Relative standard error against l"], []),
       COST: (["Cost of re-draws against l"], []),
       PRIVACY: (["Privacy ε against l"], ["Privacy breaches (Theorem 3.1)"]),
       BIAS: (["Bias per category"], [])}
DOWNLOADS = {RELEASE: ("rs_fig_counts_csv", "rs_fig_counts_html", "rs_counts_table_csv"),
             ACCURACY: ("rs_fig_error_csv", "rs_fig_error_html"),
             COST: ("rs_fig_cost_csv", "rs_fig_cost_html"),
             PRIVACY: ("rs_fig_eps_csv", "rs_fig_eps_html", "rs_breach_table_csv"),
             BIAS: ("rs_fig_bias_csv", "rs_fig_bias_html")}


def set_by_hand(at: AppTest) -> AppTest:
    """The values of SHARED, set through the widgets; the tab Privacy open."""
    at.selectbox(key="rs_source").set_value("korea_central")
    run(at)
    at.slider(key="rs_N_slider").set_value(20)
    run(at)
    at.slider(key="rs_l_slider").set_value(3)
    at.select_slider(key="rs_n").set_value(20_000)
    at.select_slider(key="rs_gamma").set_value(5.0)
    at.select_slider(key="rs_reps").set_value(50)
    at.number_input(key="rs_seed").set_value(7)
    run(at)
    open_tab(at, PRIVACY)
    at.number_input(key="rs_rho1").set_value(0.1)
    at.number_input(key="rs_rho2").set_value(0.6)
    return run(at)


def test_a_link_reproduces_the_view_set_by_hand():
    linked = start(PRIVACY, SHARED | {"rs_tab": PRIVACY})
    assert not warnings(linked)
    assert linked.session_state["rs_tab"] == PRIVACY
    assert linked.selectbox(key="rs_source").value == "korea_central"
    assert linked.slider(key="rs_N_slider").value == 20
    assert linked.slider(key="rs_l_slider").value == 3
    assert linked.select_slider(key="rs_n").value == 20_000
    assert linked.select_slider(key="rs_gamma").value == 5.0
    assert linked.select_slider(key="rs_reps").value == 50
    assert linked.number_input(key="rs_seed").value == 7
    assert linked.number_input(key="rs_rho1").value == 0.1
    assert linked.number_input(key="rs_rho2").value == 0.6
    # A browser rewrites rs_tab in the URL when another tab is opened; AppTest keeps the
    # link's value, so it is dropped here before the tabs are opened one by one.
    linked.query_params.pop("rs_tab")
    by_hand = set_by_hand(start())
    # The ranged sliders write their value to the URL themselves.
    assert by_hand.query_params["rs_N"] == "20" and by_hand.query_params["rs_l"] == "3"
    RS.assert_same_on_every_tab(linked, by_hand)
    assert metrics(linked)["ε_l (l = 3)"] == fmt4(rs.extended_epsilon(20, 5.0, 3))


@pytest.mark.parametrize(("query", "bad", "default"), [
    ({"rs_gamma": "abc"}, "rs_gamma", GAMMA),
    ({"rs_gamma": "1", "rs_l": "3", "rs_seed": "7"}, "rs_gamma", GAMMA),
    ({"rs_source": "nope", "rs_gamma": "5"}, "rs_source", "normal"),
    ({"rs_reps": "7"}, "rs_reps", REPS),
    ({"rs_n": "-5"}, "rs_n", RECORDS),
    ({"rs_seed": "x"}, "rs_seed", SEED),
    ({"rs_tab": "nope"}, "rs_tab", RELEASE),
    ({"rs_tab": PRIVACY, "rs_rho1": "2", "rs_rho2": "0.6"}, "rs_rho1", 0.05),
], ids=query_id)
def test_an_unusable_link_value_is_reset_with_a_note(query, bad, default):
    at = start(query=query)
    assert not errors(at)
    assert_only_bad_value_reset(at, query, bad, default)
    # Everything else is as the link says, and the page works.
    if "rs_l" in query:
        assert at.slider(key="rs_l_slider").value == 3
    if "rs_gamma" in query and bad != "rs_gamma":
        assert at.select_slider(key="rs_gamma").value == 5.0
    if "rs_rho2" in query:
        assert at.number_input(key="rs_rho2").value == 0.6
    tab = at.session_state["rs_tab"]
    assert [n for n, _ in kit(at).figures] == KIT[tab][0]
    assert len(kit(at).findings) >= 2




def test_every_control_has_help():
    at = start(query={"rs_reps": "10"})
    seen: list[str] = []
    RS.help_on_every_tab(at, seen)
    assert_upload_controls_have_help(at, "rs_source", seen)


def test_the_report_gets_findings_settings_charts_and_tables():
    """The source's example: γ = 10, l = 4."""
    at = start(query={"rs_l": "4"})
    eps, bound = rs.extended_epsilon(N, GAMMA, 4), 4 * math.log(GAMMA)
    errors_ = expected_errors(shape(), l=4)
    for tab, (charts, tables) in KIT.items():
        open_tab(at, tab)
        assert_kit_of_tab(at, tab, charts, tables, DOWNLOADS[tab])
        found = kit(at)
        assert all(len(dpviz.export.figure_data(f)) for _, f in found.figures)
        assert len(found.findings) == (3 if tab == PRIVACY else 2), found.findings
        assert (f"release is ε = {eps:.3g}-locally differentially private, against "
                f"{bound:.3g} for the source's bound") in found.findings[0]
        assert found.parameters["seed"] == str(SEED)
        assert found.parameters["values per record l"] == "4"
        assert found.parameters["amplification γ"] == "10"
        assert found.parameters["records n"] == "5,000"
    # The tab findings carry the tabs' numbers.
    open_tab(at, ACCURACY)
    assert f"exactly {errors_.loc['source', 'exact']:.3g} and " \
        f"{errors_.loc['unbiased', 'exact']:.3g}" in kit(at).findings[1]
    open_tab(at, BIAS)
    assert f"{errors_.loc['source', 'bias']:.3%}" in kit(at).findings[1]
    open_tab(at, PRIVACY)
    assert kit(at).parameters["breach: prior ρ₁"] == "0.05"
    html = kit_report(at)
    assert "Privacy breaches (Theorem 3.1)" in html and "overstates the exact" in html


def test_a_stopped_page_still_has_its_link_and_report():
    query = {"rs_source": SOURCE_URL["upload"], "rs_gamma": "5"}
    assert_stopped_page_keeps_link_and_report(start(query=query), query)
