"""AppTest tests of the page "f-DP and Gaussian DP" (views/fdp.py).

The page is driven through its widgets by key (all keys start with ``fdp_``)
and, for the extremes, through the URL query parameters the widgets are bound
to. Only the open tab of the page runs; tests open a tab through its key
``fdp_tab`` (bound to the URL as well). Expected numbers come from
scipy.stats and from dpcore.fdp.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from scipy import stats
from streamlit.testing.v1 import AppTest

from conftest import assert_clean, run, without_help
from dpcore import audit, fdp
from pagekit import (kit, TabbedPage, assert_kit_of_tab, assert_only_bad_value_reset,
                     assert_values, assert_widgets_keyed_with_help, kit, metrics, query_id,
                     seen_kinds, set_by_hand, shown, widget)

PAGE = "views/fdp.py"
TITLE = "f-DP and Gaussian DP"
ALPHA_METRIC = "Type-I error α"
BETA_METRIC = "Type-II error β"
INVERSE_METRIC = "Largest μ with δ(ε) ≤ target δ"
ATTACKER, CURVES, GROUP, COMPOSITION, CONVERSIONS, AUDITOR = TABS = (
    "The attacker's test", "Trade-off curves", "Group privacy", "Composition", "Conversions",
    "An auditor's view",
)
SENTENCE = re.compile(
    r"With (?P<sym>[με]) = (?P<shift>[0-9.]+).*at most (?P<apct>[0-9.]+)% of the time "
    r"\(type-I error α = (?P<alpha>[0-9.]+)\) still misses the truth at least "
    r"(?P<bpct>[0-9.]+)% of the time \(β = \S+\((?P=alpha)\) = (?P<beta>[0-9.]+)\)"
)


FDP = TabbedPage(PAGE, TITLE, "fdp_tab", TABS)
start, open_tab = FDP.start, FDP.open_tab


def assert_quiet(at: AppTest) -> None:
    """Clean, and no error or warning box on the page either."""
    assert_clean(at)
    assert not at.error, [e.value for e in at.error]
    assert not at.warning, [w.value for w in at.warning]


def sentence(at: AppTest) -> re.Match:
    [text] = [m.value for m in at.markdown if "In plain words" in m.value]
    match = SENTENCE.search(text)
    assert match, text
    return match


def curve_table(at: AppTest):
    [table] = [d.value for d in at.dataframe if "tightest μ" in d.value.columns]
    return table.set_index("curve")


def row(table, prefix: str):
    [name] = [n for n in table.index if n.startswith(prefix)]
    return table.loc[name]


def chart_traces(at: AppTest, key: str) -> list[dict]:
    [chart] = [c for c in at.get("plotly_chart") if c.proto.id.endswith(key)
               or key in c.proto.id]
    return json.loads(chart.proto.spec)["data"]


# ---------------------------------------------------------------------------
# default view
# ---------------------------------------------------------------------------

# The widgets that must be keyed fdp_… and have a tooltip.
WIDGET_KINDS = ("slider", "select_slider", "radio", "toggle", "number_input")


def test_default_view_is_clean_and_complete():
    at = start()
    assert_quiet(at)
    assert [t.label for t in at.tabs] == list(TABS)
    assert {ALPHA_METRIC, BETA_METRIC} <= set(metrics(at))
    match = sentence(at)
    assert match["sym"] == "μ" and float(match["shift"]) == 1.0
    assert_widgets_keyed_with_help(at, "fdp_", WIDGET_KINDS)
    # Only the open tab runs: the two charts of the attacker's test.
    assert len(at.get("plotly_chart")) == 2


@pytest.mark.parametrize("tab", TABS[1:])
def test_every_tab_is_clean(tab):
    at = start(tab)
    assert_quiet(at)
    assert at.get("plotly_chart"), f"{tab} shows no chart"
    assert_widgets_keyed_with_help(at, "fdp_", WIDGET_KINDS)
    assert sentence(at)  # the plain-words box stays above every tab


def test_default_curve_table():
    at = start(CURVES)
    table = curve_table(at)
    assert {"tightest μ", "smallest ε at δ", "meets the target"} <= set(table.columns)
    assert len(table) == 5  # G_μ, f_ε,δ, Gaussian, Laplace, k-RR are on by default


def test_values_survive_a_tab_switch():
    at = start(CURVES)
    at.select_slider(key="fdp_gauss_sigma").set_value(0.5)
    run(at)
    open_tab(at, COMPOSITION)
    open_tab(at, CURVES)
    assert at.select_slider(key="fdp_gauss_sigma").value == 0.5


# ---------------------------------------------------------------------------
# 1. the attacker's test, 7. plain words
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("family", ["gaussian", "laplace"])
def test_moving_the_threshold_changes_alpha_and_beta(family):
    at = start()
    at.radio(key="fdp_family").set_value(family)
    at.slider(key="fdp_mu").set_value(1.5)
    dist = stats.norm if family == "gaussian" else stats.laplace
    seen = set()
    for t in (-1.0, 0.5, 2.5):
        at.slider(key="fdp_t").set_value(t)
        run(at)
        shown = metrics(at)
        alpha, beta = float(shown[ALPHA_METRIC]), float(shown[BETA_METRIC])
        assert alpha == pytest.approx(dist.sf(t), abs=1e-4)
        assert beta == pytest.approx(dist.cdf(t - 1.5), abs=1e-4)
        seen.add((alpha, beta))
    assert len(seen) == 3
    # The tested point is marked on the trade-off chart, on the curve.
    traces = chart_traces(at, "fdp_fig_test_curve")
    [point] = [tr for tr in traces if tr["name"].startswith("threshold t")]
    assert point["x"][0] == pytest.approx(dist.sf(2.5))
    assert point["y"][0] == pytest.approx(dist.cdf(1.0))


@pytest.mark.parametrize("mu", [0.0, 0.5, 1.3, 5.0])
def test_plain_sentence_follows_mu(mu):
    at = start()
    at.slider(key="fdp_mu").set_value(mu)
    run(at)
    match = sentence(at)
    expected = stats.norm.cdf(stats.norm.ppf(0.95) - mu)
    assert float(match["shift"]) == mu
    assert float(match["alpha"]) == 0.05 and match["apct"] == "5"
    assert float(match["beta"]) == pytest.approx(expected, abs=5e-5)
    assert float(match["bpct"]) == pytest.approx(100 * expected, abs=0.51)


def test_plain_sentence_other_alpha_and_laplace():
    at = start()
    at.select_slider(key="fdp_say_alpha").set_value(0.01)
    at.radio(key="fdp_family").set_value("laplace")
    at.slider(key="fdp_mu").set_value(2.0)
    run(at)
    match = sentence(at)
    assert match["sym"] == "ε"
    assert float(match["alpha"]) == 0.01
    # Laplace curve below e^{-ε}/2 = 0.068: 1 - e^ε α
    assert float(match["beta"]) == pytest.approx(1 - math.exp(2.0) * 0.01, abs=5e-5)


# ---------------------------------------------------------------------------
# 2. trade-off curves: table and target
# ---------------------------------------------------------------------------

def test_table_reads_mu_of_gaussian_and_eps_of_krr():
    at = start(CURVES)
    at.select_slider(key="fdp_gauss_sigma").set_value(2.0)
    at.slider(key="fdp_gauss_sens").set_value(1.5)
    at.select_slider(key="fdp_krr_eps").set_value(2.0)
    at.slider(key="fdp_krr_k").set_value(5)
    at.select_slider(key="fdp_table_delta").set_value(0.0)
    run(at)
    table = curve_table(at)
    gauss = row(table, "Gaussian mechanism")
    assert gauss["tightest μ"] == pytest.approx(1.5 / 2.0, abs=1e-9)
    assert math.isinf(gauss["smallest ε at δ"])  # not ε-DP for any ε at δ = 0
    krr = row(table, "5-RR")
    assert krr["smallest ε at δ"] == pytest.approx(2.0, abs=1e-9)
    va, vb = fdp.krr_tradeoff(2.0, 5)
    assert krr["tightest μ"] == pytest.approx(fdp.tightest_gdp_mu(va, vb), rel=1e-12)
    laplace = row(table, "Laplace mechanism")  # b = 1, Δ = 1
    assert laplace["smallest ε at δ"] == pytest.approx(1.0, abs=1e-6)
    ed = row(table, "f_ε,δ")  # ε = 1, δ = 0
    assert ed["smallest ε at δ"] == pytest.approx(1.0, abs=1e-9)


def test_table_eps_at_positive_delta_is_the_exact_conversion():
    at = start(CURVES)
    at.select_slider(key="fdp_table_delta").set_value(1e-6)
    run(at)
    gauss = row(curve_table(at), "Gaussian mechanism")  # σ = 1.5, Δ = 1
    mu = 1 / 1.5
    eps = gauss["smallest ε at δ"]
    assert float(fdp.gdp_delta(eps, mu)) == pytest.approx(1e-6, rel=1e-6)


def test_random_substitution_and_histogram_rows():
    at = start(CURVES)
    at.toggle(key="fdp_show_rs").set_value(True)
    at.toggle(key="fdp_show_hist").set_value(True)
    run(at)  # their sliders are disabled until the curves are switched on
    at.select_slider(key="fdp_rs_gamma").set_value(5.0)
    at.slider(key="fdp_rs_n").set_value(7)
    at.select_slider(key="fdp_hist_alpha").set_value(0.5)
    at.select_slider(key="fdp_table_delta").set_value(0.0)
    run(at)
    assert_quiet(at)
    table = curve_table(at)
    assert row(table, "random substitution")["smallest ε at δ"] == pytest.approx(math.log(5.0))
    # The histogram mechanism at level α is α-DP (two bins, Lap(2/α) each).
    assert row(table, "private histogram")["smallest ε at δ"] == pytest.approx(0.5, abs=1e-3)
    assert "one person moves from one bin to another" in " ".join(c.value for c in at.caption)


def test_gaussian_mechanism_above_the_target_mu_fails():
    at = start(CURVES)
    at.radio(key="fdp_target").set_value("gdp")
    at.slider(key="fdp_target_mu").set_value(1.0)
    at.select_slider(key="fdp_gauss_sigma").set_value(0.5)  # μ = 2 > 1
    run(at)
    assert row(curve_table(at), "Gaussian mechanism")["meets the target"] == "no"
    failing = [tr["name"] for tr in chart_traces(at, "fdp_fig_curves")
               if tr["name"].endswith("below the target")]
    assert any(name.startswith("Gaussian mechanism") for name in failing)
    at.select_slider(key="fdp_gauss_sigma").set_value(2.0)  # μ = 0.5 < 1
    run(at)
    assert row(curve_table(at), "Gaussian mechanism")["meets the target"] == "yes"
    failing = [tr["name"] for tr in chart_traces(at, "fdp_fig_curves")
               if tr["name"].endswith("below the target")]
    assert not any(name.startswith("Gaussian mechanism") for name in failing)


def test_epsdelta_target():
    at = start(CURVES)
    at.radio(key="fdp_target").set_value("epsdelta")
    run(at)
    at.select_slider(key="fdp_target_eps").set_value(1.0)
    at.select_slider(key="fdp_target_delta").set_value(1e-5)
    run(at)
    table = curve_table(at)
    assert row(table, "4-RR")["meets the target"] == "yes"  # 1-DP
    assert row(table, "Laplace mechanism")["meets the target"] == "yes"  # ε = 1
    assert row(table, "f_ε,δ")["meets the target"] == "yes"  # the same curve, δ = 0
    at.select_slider(key="fdp_krr_eps").set_value(2.0)
    run(at)
    assert row(curve_table(at), "4-RR")["meets the target"] == "no"


def test_no_curve_switched_on():
    at = start(CURVES)
    for key in ("fdp_show_g", "fdp_show_ed", "fdp_show_gauss", "fdp_show_lap", "fdp_show_krr"):
        at.toggle(key=key).set_value(False)
    run(at)
    assert_clean(at)
    assert not [d for d in at.dataframe if "tightest μ" in d.value.columns]


# ---------------------------------------------------------------------------
# 3.-5. group privacy, composition, conversions
# ---------------------------------------------------------------------------

def test_composition_numbers():
    at = start(COMPOSITION)
    at.slider(key="fdp_comp_n").set_value(16)
    at.slider(key="fdp_comp_mu").set_value(0.5)
    at.select_slider(key="fdp_comp_eps").set_value(0.5)
    run(at)
    shown = metrics(at)
    assert float(shown["μ of 16 composed 0.5-GDP mechanisms"]) == pytest.approx(2.0)
    assert float(shown["μ of the CLT approximation"]) == pytest.approx(
        2 * 4 * math.tanh(0.25), rel=1e-3)
    names = [tr["name"] for tr in chart_traces(at, "fdp_fig_comp_gdp")]
    assert any("√n·μ = 2 " in n for n in names)


def test_group_curves():
    at = start(GROUP)
    at.slider(key="fdp_group_k").set_value(4)
    at.slider(key="fdp_group_mu").set_value(0.5)
    run(at)
    traces = chart_traces(at, "fdp_fig_group_gdp")
    [group] = [tr for tr in traces if "kμ = 2" in tr["name"]]
    assert group["name"].endswith("(groups of 4)")
    at.radio(key="fdp_group_curve").set_value("epsdp")
    run(at)
    assert_quiet(at)
    assert any("textbook group privacy" in tr["name"]
               for tr in chart_traces(at, "fdp_fig_group_f"))


def test_conversion_inverse_gives_the_target_delta():
    at = start(CONVERSIONS)
    at.number_input(key="fdp_inv_eps").set_value(2.0)
    at.number_input(key="fdp_inv_delta").set_value(1e-6)
    run(at)
    assert_quiet(at)
    mu = float(metrics(at)[INVERSE_METRIC])
    delta = (stats.norm.cdf(-2.0 / mu + mu / 2)
             - math.exp(2.0) * stats.norm.cdf(-2.0 / mu - mu / 2))
    assert delta == pytest.approx(1e-6, rel=1e-4)  # μ is shown to 6 significant digits
    assert mu == pytest.approx(float(fdp.gdp_mu(2.0, 1e-6)), rel=1e-5)


def test_conversion_reads_delta_off_the_curve():
    at = start(CONVERSIONS)
    at.slider(key="fdp_conv_mu").set_value(2.0)
    at.slider(key="fdp_conv_eps").set_value(3.0)
    run(at)
    label = "δ(ε) at ε = 3 for μ = 2"
    expected = stats.norm.cdf(-1.5 + 1.0) - math.exp(3.0) * stats.norm.cdf(-1.5 - 1.0)
    assert float(metrics(at)[label]) == pytest.approx(expected, rel=1e-3)


# ---------------------------------------------------------------------------
# 6. the auditor
# ---------------------------------------------------------------------------

def test_auditor_caps_reps_and_runs_small():
    at = start(AUDITOR, {"fdp_aud_reps": "1,000,000"})  # not an option: reset, and said so
    assert_clean(at)
    assert not at.error
    [note] = [w.value for w in at.warning]
    assert "could not be used" in note and "fdp_aud_reps" in note
    reps = at.select_slider(key="fdp_aud_reps")
    assert reps.value == 10_000
    assert reps.options[-1] == "100,000"
    assert audit.MAX_REPS == 100_000
    assert any("capped at 100,000" in c.value for c in at.caption)
    for mech in ("gaussian", "laplace", "krr"):
        at.radio(key="fdp_aud_mech").set_value(mech)
        at.select_slider(key="fdp_aud_reps").set_value(100)
        run(at)
        assert_quiet(at)
        [table] = [d.value for d in at.dataframe if "β̂ (empirical)" in d.value.columns]
        assert list(table["α"]) == [0.01, 0.05, 0.1, 0.25, 0.5]
        assert table["β̂ (empirical)"].between(0, 1).all()
        traces = chart_traces(at, "fdp_fig_audit")
        assert any(tr["name"] == "empirical, R = 100" for tr in traces)


@pytest.mark.parametrize("mech", ["gaussian", "laplace", "krr"])
def test_auditor_estimate_is_close_to_the_exact_curve(mech):
    at = start(AUDITOR)
    at.radio(key="fdp_aud_mech").set_value(mech)
    at.select_slider(key="fdp_aud_reps").set_value(100_000)
    run(at)
    assert_quiet(at)
    [table] = [d.value for d in at.dataframe if "β̂ (empirical)" in d.value.columns]
    # Standard error at most 0.5/sqrt(R) = 0.0016 per error rate.
    gap = (table["β̂ (empirical)"] - table["β (exact)"]).abs()
    assert gap.max() < 0.01, table


def test_auditor_same_seed_same_curve():
    at = start(AUDITOR)
    at.select_slider(key="fdp_aud_reps").set_value(1000)
    run(at)
    first = [d.value for d in at.dataframe if "β̂ (empirical)" in d.value.columns][0]
    at.number_input(key="fdp_seed").set_value(7)
    run(at)
    other = [d.value for d in at.dataframe if "β̂ (empirical)" in d.value.columns][0]
    at.number_input(key="fdp_seed").set_value(2022)
    run(at)
    again = [d.value for d in at.dataframe if "β̂ (empirical)" in d.value.columns][0]
    assert first.equals(again) and not first.equals(other)


# ---------------------------------------------------------------------------
# extremes: no exception, no warning (warnings are errors in this suite)
# ---------------------------------------------------------------------------

# URL values as the widgets write them: radios by their labels, select sliders by their
# formatted options.

EXTREMES = {
    "mu zero": {
        "fdp_mu": "0", "fdp_g_mu": "0", "fdp_target_mu": "0", "fdp_group_mu": "0",
        "fdp_comp_mu": "0", "fdp_conv_mu": "0", "fdp_ed_eps": "0", "fdp_krr_eps": "0",
        "fdp_comp_eps": "0", "fdp_group_eps": "0",
    },
    "mu five": {
        "fdp_mu": "5", "fdp_g_mu": "5", "fdp_target_mu": "5", "fdp_group_mu": "5",
        "fdp_group_k": "10", "fdp_comp_mu": "5", "fdp_comp_n": "200", "fdp_conv_mu": "5",
        "fdp_conv_eps": "10", "fdp_t": "10",
    },
    "eps fifty": {
        "fdp_ed_eps": "50", "fdp_target": "f_ε*,δ*", "fdp_target_eps": "50",
        "fdp_group_eps": "50", "fdp_group_k": "10",
        "fdp_group_curve": "f_ε,0 (any ε-DP mechanism)", "fdp_comp_eps": "50",
        "fdp_comp_n": "200", "fdp_krr_eps": "20", "fdp_krr_k": "100", "fdp_inv_eps": "50",
        "fdp_aud_mech": "k-RR", "fdp_aud_eps": "20", "fdp_aud_k": "100", "fdp_aud_reps": "100",
    },
    "delta tiny": {
        "fdp_ed_delta": "10⁻¹²", "fdp_table_delta": "10⁻¹²", "fdp_target": "f_ε*,δ*",
        "fdp_target_delta": "10⁻¹²", "fdp_inv_delta": "1e-12", "fdp_inv_eps": "5",
        "fdp_show_rs": "true", "fdp_rs_gamma": "1,000", "fdp_rs_n": "100",
        "fdp_show_hist": "true", "fdp_hist_alpha": "10",
    },
    "weak privacy": {
        "fdp_family": "Laplace: Lap(0,1) vs Lap(ε,1)", "fdp_mu": "5", "fdp_t": "-4",
        "fdp_gauss_sigma": "0.1", "fdp_gauss_sens": "5", "fdp_lap_b": "0.1",
        "fdp_lap_sens": "5", "fdp_show_hist": "true", "fdp_hist_alpha": "0.001",
        "fdp_ed_delta": "0.2", "fdp_aud_mech": "Laplace", "fdp_aud_b": "0.1",
        "fdp_aud_reps": "100,000",
    },
}


RADIO_LABELS = {
    "f_ε*,δ*": "epsdelta", "f_ε,0 (any ε-DP mechanism)": "epsdp", "k-RR": "krr",
    "Laplace": "laplace", "Laplace: Lap(0,1) vs Lap(ε,1)": "laplace",
}


def url_value(text: str):
    """The widget value a URL value stands for."""
    if text in RADIO_LABELS:
        return RADIO_LABELS[text]
    if text in ("true", "false"):
        return text == "true"
    if text.startswith("10⁻"):
        return 10.0 ** -int(text[3:].translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")))
    return float(text.replace(",", ""))


@pytest.mark.parametrize("query", EXTREMES.values(), ids=EXTREMES.keys())
def test_extreme_values_are_quiet(query):
    at = start(ATTACKER, query)
    assert_quiet(at)
    values = {}
    for tab in TABS:
        open_tab(at, tab)
        assert_quiet(at)
        for kind in ("slider", "select_slider", "radio", "toggle", "number_input"):
            values.update({w.key: w.value for w in getattr(at, kind) if w.key in query})
    # Every URL value was taken (a value a widget rejects would leave its default).
    assert set(values) == set(query)
    for key, text in query.items():
        assert values[key] == url_value(text), key


def test_extremes_by_set_value():
    at = start()
    at.slider(key="fdp_mu").set_value(5.0)
    at.slider(key="fdp_t").set_value(-4.0)
    run(at)
    assert_quiet(at)
    at.slider(key="fdp_mu").set_value(0.0)
    at.slider(key="fdp_t").set_value(10.0)
    run(at)
    assert_quiet(at)
    assert float(sentence(at)["beta"]) == pytest.approx(0.95)
    open_tab(at, CURVES)
    at.select_slider(key="fdp_ed_eps").set_value(50.0)
    at.select_slider(key="fdp_ed_delta").set_value(1e-12)
    run(at)
    assert_quiet(at)
    assert math.isinf(row(curve_table(at), "f_ε,δ")["tightest μ"])  # δ > 0: no μ-GDP
    open_tab(at, COMPOSITION)
    at.select_slider(key="fdp_comp_eps").set_value(50.0)
    at.slider(key="fdp_comp_n").set_value(200)
    run(at)
    assert_quiet(at)
    open_tab(at, CONVERSIONS)
    at.number_input(key="fdp_inv_eps").set_value(50.0)
    at.number_input(key="fdp_inv_delta").set_value(1e-12)
    run(at)
    assert_quiet(at)


def test_inverse_is_exact_at_the_smallest_delta():
    """At ε = 0 and δ = 1e-12 the root μ ≈ 2.5e-12 is found to relative accuracy."""
    at = start(CONVERSIONS)
    at.number_input(key="fdp_inv_eps").set_value(0.0)
    at.number_input(key="fdp_inv_delta").set_value(1e-12)
    run(at)
    assert not at.error and not at.warning
    [cap] = [c.value for c in at.caption if c.value.startswith("Check: δ(")]
    assert cap.endswith("is 1e-12.")


# ---------------------------------------------------------------------------
# the page kit: a link reproduces the view, unusable link values, help, report
# ---------------------------------------------------------------------------

# One view per tab, as (key, kind, value, the value as the URL writes it): radios by
# their labels, select sliders by their formatted options.
LINKED = {
    ATTACKER: [("fdp_family", "radio", "laplace", "Laplace: Lap(0,1) vs Lap(ε,1)"),
               ("fdp_mu", "slider", 2.5, "2.5"),
               ("fdp_say_alpha", "select_slider", 0.01, "1%"),
               ("fdp_t", "slider", 0.5, "0.5")],
    CURVES: [("fdp_show_rs", "toggle", True, "true"),
             ("fdp_rs_gamma", "select_slider", 5.0, "5"),
             ("fdp_rs_n", "slider", 7, "7"),
             ("fdp_show_lap", "toggle", False, "false"),
             ("fdp_gauss_sigma", "select_slider", 2.0, "2"),
             ("fdp_target", "radio", "epsdelta", "f_ε*,δ*"),
             ("fdp_target_eps", "select_slider", 2.0, "2"),
             ("fdp_target_delta", "select_slider", 1e-6, "10⁻⁶"),
             ("fdp_table_delta", "select_slider", 0.0, "0")],
    GROUP: [("fdp_group_k", "slider", 4, "4"),
            ("fdp_group_mu", "slider", 0.75, "0.75"),
            ("fdp_group_curve", "radio", "epsdp", "f_ε,0 (any ε-DP mechanism)"),
            ("fdp_group_eps", "select_slider", 1.0, "1")],
    COMPOSITION: [("fdp_comp_n", "slider", 16, "16"),
                  ("fdp_comp_mu", "slider", 0.75, "0.75"),
                  ("fdp_comp_eps", "select_slider", 0.2, "0.2")],
    CONVERSIONS: [("fdp_conv_mu", "slider", 2.0, "2"),
                  ("fdp_conv_eps", "slider", 3.0, "3"),
                  ("fdp_inv_eps", "number_input", 2.0, "2"),
                  ("fdp_inv_delta", "number_input", 1e-6, "1e-06")],
    AUDITOR: [("fdp_aud_mech", "radio", "krr", "k-RR"),
              ("fdp_aud_eps", "select_slider", 2.0, "2"),
              ("fdp_aud_k", "slider", 5, "5"),
              ("fdp_aud_reps", "select_slider", 1000, "1,000"),
              ("fdp_seed", "number_input", 7, "7")],
}
# What each tab gives the report: its charts and tables (the plain-words box above the
# tabs gives a finding and settings on every tab).
KIT = {
    ATTACKER: (["The attacker's threshold test", "The test's point on the trade-off curve"], []),
    CURVES: (["Trade-off curves and the target"], ["Privacy parameters of the curves"]),
    GROUP: (["Group privacy of Gaussian DP", "Group privacy of a general curve"], []),
    COMPOSITION: (["Composition of Gaussian DP", "Composition of ε-DP and its CLT approximation"],
                  []),
    CONVERSIONS: (["Conversion from μ-GDP to (ε, δ)-DP"], []),
    AUDITOR: (["The auditor's empirical trade-off curve"], ["The auditor's estimates"]),
}
CHART_KEYS = {
    ATTACKER: ("fdp_fig_test", "fdp_fig_test_curve"), CURVES: ("fdp_fig_curves",),
    GROUP: ("fdp_fig_group_gdp", "fdp_fig_group_f"),
    COMPOSITION: ("fdp_fig_comp_gdp", "fdp_fig_comp_eps"), CONVERSIONS: ("fdp_fig_delta",),
    AUDITOR: ("fdp_fig_audit",),
}
TABLE_KEYS = {CURVES: ("fdp_table",), AUDITOR: ("fdp_audit_table",)}
REPORT_FILE = "f_dp_and_gaussian_dp_report.html"










@pytest.mark.parametrize("tab", TABS)
def test_a_link_reproduces_the_view_set_by_hand(tab):
    values = LINKED[tab]
    query = {"fdp_tab": tab, **{key: url for key, _kind, _value, url in values}}
    by_link = start(ATTACKER, query)
    assert_quiet(by_link)
    assert_values(by_link, values)
    by_hand = start(tab)
    set_by_hand(by_hand, values)
    assert_quiet(by_hand)
    assert_values(by_hand, values)
    assert shown(by_link) == shown(by_hand)
    # The view is not the default one: the numbers differ from the default view's.
    assert shown(by_link) != shown(start(tab))


def test_a_link_reproduces_the_plain_sentence_and_the_auditor():
    values = LINKED[ATTACKER] + LINKED[AUDITOR]
    query = {"fdp_tab": AUDITOR, **{key: url for key, _kind, _value, url in values}}
    at = start(ATTACKER, query)
    assert_quiet(at)
    match = sentence(at)
    assert match["sym"] == "ε" and float(match["shift"]) == 2.5 and float(match["alpha"]) == 0.01
    assert kit(at).parameters["seed"] == "7"
    assert kit(at).parameters["draws R on each input"] == "1,000"
    assert kit(at).parameters["audited mechanism"] == "5-RR, ε = 2"


@pytest.mark.parametrize(("query", "bad", "default"), [
    ({"fdp_tab": CURVES, "fdp_g_mu": "99", "fdp_gauss_sigma": "2"}, "fdp_g_mu", 0.5),
    ({"fdp_family": "nope", "fdp_mu": "2"}, "fdp_family", "gaussian"),
    ({"fdp_say_alpha": "3%"}, "fdp_say_alpha", 0.05),
    ({"fdp_tab": AUDITOR, "fdp_seed": "x", "fdp_aud_reps": "1,000"}, "fdp_seed", 2022),
    ({"fdp_tab": CONVERSIONS, "fdp_inv_delta": "0.9", "fdp_conv_mu": "2"}, "fdp_inv_delta",
     1e-5),
    ({"fdp_tab": "nope"}, "fdp_tab", ATTACKER),
], ids=query_id)
def test_an_unusable_link_value_is_reset_with_a_note(query, bad, default):
    at = start(ATTACKER, query)
    assert_clean(at)
    assert not at.error
    assert_only_bad_value_reset(at, query, bad, default)
    # Everything else is as the link says, and the page works.
    if "fdp_gauss_sigma" in query:
        assert row(curve_table(at), "Gaussian mechanism")["tightest μ"] == pytest.approx(0.5)
    if "fdp_mu" in query:
        assert float(sentence(at)["shift"]) == 2.0
    if "fdp_aud_reps" in query:
        assert at.select_slider(key="fdp_aud_reps").value == 1000
        [table] = [d.value for d in at.dataframe if "β̂ (empirical)" in d.value.columns]
        assert len(table) == 5
    if "fdp_conv_mu" in query:
        assert "δ(ε) at ε = 1 for μ = 2" in metrics(at)
    assert sentence(at)
    assert kit(at).findings and kit(at).figures




def test_every_control_has_help():
    # The optional controls too: the (ε*, δ*) target, the curves off by default, every
    # mechanism of the auditor.
    at = start(ATTACKER, {"fdp_target": "f_ε*,δ*", "fdp_show_rs": "true",
                          "fdp_show_hist": "true", "fdp_aud_reps": "100"})
    seen: list[str] = []
    FDP.help_on_every_tab(at, seen)
    for mech in ("laplace", "krr"):
        at.radio(key="fdp_aud_mech").set_value(mech)
        run(at)
        assert not without_help(at.main, seen), mech
    kinds = seen_kinds(seen)
    assert {"slider", "select_slider", "radio", "toggle", "number_input", "button",
            "download_button", "popover"} <= kinds, kinds
    keys = {name.split()[1] for name in seen}
    assert {"fdp_target_eps", "fdp_rs_gamma", "fdp_hist_alpha", "fdp_aud_eps", "fdp_aud_b",
            "fdp_aud_sigma", "fdp_seed", "fdp_seed_new"} <= keys


def test_the_report_gets_findings_settings_charts_and_tables(deferred):
    at = start(ATTACKER, {"fdp_aud_reps": "100", "fdp_conv_mu": "1", "fdp_conv_eps": "1"})
    for tab, (charts, tables) in KIT.items():
        open_tab(at, tab)
        assert_quiet(at)
        # The exports under each chart (data, chart) and table, and the report's.
        assert_kit_of_tab(at, tab, charts, tables,
                          [*(f"{k}_{e}" for k in CHART_KEYS[tab] for e in ("csv", "html")),
                           *(f"{k}_csv" for k in TABLE_KEYS.get(tab, ()))])
        found = kit(at)
        assert found.title == TITLE
        # The plain-words box's finding first, then the tab's own.
        assert len(found.findings) >= 2, (tab, found.findings)
        assert found.findings[0].startswith("With μ = 1, an attacker who wrongly accuses at "
                                            "most 5% of the time")
        assert found.parameters["shift μ"] == "1"
    # The f-DP verdict of the conversions: μ-GDP implies (ε, δ(ε))-DP.
    open_tab(at, CONVERSIONS)
    delta = float(fdp.gdp_delta(1.0, 1.0))
    assert f"μ = 1 GDP implies (ε, δ(ε))-DP for every ε, with δ(1) = {delta:.4g}." in \
        kit(at).findings
    assert kit(at).parameters["target δ"] == "1e-05"
    html = deferred[REPORT_FILE]()
    assert TITLE in html and f"δ(1) = {delta:.4g}" in html
    assert "Conversion from μ-GDP to (ε, δ)-DP" in html and "target δ" in html
    # The curves' table, as the report and its CSV have it.
    open_tab(at, CURVES)
    table = curve_table(at)
    [(name, reported)] = kit(at).tables
    assert list(reported["curve"]) == list(table.index)
    csv = deferred["privacy_parameters_of_the_curves.csv"]()
    assert "tightest μ" in csv.splitlines()[0] and "4-RR, ε = 1" in csv
    assert any("meets it:" in f for f in kit(at).findings)
    assert any("values of α" in n for n in kit(at).notes)
