"""AppTest tests of the page "f-DP and Gaussian DP" (views/fdp.py): what the view draws
from its controls. Its numbers: tests/test_ui_pages_fdp.py; every page's promises:
tests/test_page_contract.py.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from streamlit.testing.v1 import AppTest

from conftest import assert_clean, open_page, run, without_help
import pagekit
from pagekit import (TabbedPage, assert_values, assert_widgets_keyed_with_help, chart_traces,
                     kit, metrics, seen_kinds)
from ui.pages import fdp as page
from ui.pages.fdp import Settings

TITLE = "f-DP and Gaussian DP"
ATTACKER, CURVES, GROUP, COMPOSITION, CONVERSIONS, AUDITOR = TABS = page.TABS
FDP = TabbedPage("views/fdp.py", TITLE, "fdp_tab", TABS)
start, open_tab = FDP.start, FDP.open_tab
# The widgets that must be keyed fdp_… and have a tooltip.
WIDGET_KINDS = ("slider", "select_slider", "radio", "toggle", "number_input")


def assert_quiet(at: AppTest) -> None:
    """Clean, and no error or warning box on the page either."""
    assert_clean(at)
    assert not at.error, [e.value for e in at.error]
    assert not at.warning, [w.value for w in at.warning]


def plain_words(at: AppTest) -> str:
    [text] = [m.value for m in at.markdown if "In plain words" in m.value]
    return text


def curve_table(at: AppTest):
    [table] = [d.value for d in at.dataframe if "tightest μ" in d.value.columns]
    return table.set_index("curve")


def test_only_the_open_tab_runs_under_the_plain_words_box():
    at = start()
    assert [t.label for t in at.tabs] == list(TABS)
    # the attacker's test, and what the shift means for one person (ui/oneperson.py)
    assert len(at.get("plotly_chart")) == 3
    for tab in TABS:
        open_tab(at, tab)
        assert_quiet(at)
        assert at.get("plotly_chart"), f"{tab} shows no chart"
        assert_widgets_keyed_with_help(at, "fdp_", WIDGET_KINDS)
        assert plain_words(at) == page.plain_words(Settings())[0]


def test_the_threshold_test_is_shown_and_marked_on_its_curve():
    at = start()
    at.radio(key="fdp_family").set_value("laplace")
    at.slider(key="fdp_mu").set_value(1.5)
    at.select_slider(key="fdp_say_alpha").set_value(0.2)
    run(at)
    test = page.attacker_test(Settings(family="laplace", mu=1.5, say_alpha=0.2))
    shown = metrics(at)
    assert {k: shown[k] for k in page.attacker_metrics(test)} == page.attacker_metrics(test)
    [point] = [tr for tr in chart_traces(at, "fdp_fig_test_curve")
               if tr["name"].startswith("threshold t")]
    assert (point["x"][0], point["y"][0]) == pytest.approx((test.alpha, test.beta))
    assert plain_words(at) == page.plain_words(Settings(family="laplace", mu=1.5,
                                                        say_alpha=0.2))[0]


def test_switching_curves_on_and_off():
    at = start(CURVES)
    at.toggle(key="fdp_show_rs").set_value(True)
    at.toggle(key="fdp_show_hist").set_value(True)
    run(at)  # their sliders are disabled until the curves are switched on
    at.select_slider(key="fdp_rs_gamma").set_value(5.0)
    run(at)
    assert_quiet(at)
    assert list(curve_table(at).index) == [c.name for c in page.curves(
        Settings(show_rs=True, show_hist=True, rs_gamma=5.0))]
    assert "one person moves from one bin to another" in " ".join(c.value for c in at.caption)
    for key in ("fdp_show_g", "fdp_show_ed", "fdp_show_gauss", "fdp_show_lap", "fdp_show_krr",
                "fdp_show_rs", "fdp_show_hist"):
        at.toggle(key=key).set_value(False)
    run(at)
    assert_clean(at)
    assert not [d for d in at.dataframe if "tightest μ" in d.value.columns]
    assert any("Switch on at least one curve" in i.value for i in at.info)


def test_a_curve_below_the_target_is_shaded_and_a_value_survives_a_tab_switch():
    at = start(CURVES)
    at.select_slider(key="fdp_gauss_sigma").set_value(0.5)
    run(at)
    open_tab(at, COMPOSITION)
    open_tab(at, CURVES)
    assert at.select_slider(key="fdp_gauss_sigma").value == 0.5
    for sigma, shaded in ((0.5, True), (2.0, False)):  # μ = 2 and 0.5 against μ* = 1
        at.select_slider(key="fdp_gauss_sigma").set_value(sigma)
        run(at)
        failing = [tr["name"] for tr in chart_traces(at, "fdp_fig_curves")
                   if tr["name"].endswith("below the target")]
        assert any(name.startswith("Gaussian mechanism") for name in failing) == shaded
        assert curve_table(at).loc[f"Gaussian mechanism, σ = {sigma:g}, Δ = 1",
                                   "meets the target"] == ("no" if shaded else "yes")


def test_metrics_show_the_pages_numbers():
    at = start(COMPOSITION, {"fdp_comp_n": "16", "fdp_comp_mu": "0.5", "fdp_comp_eps": "0.5"})
    c = page.composition(Settings(comp_n=16, comp_mu=0.5, comp_eps=0.5))
    assert metrics(at)["μ of 16 composed 0.5-GDP mechanisms"] == f"{c.total_mu:.4g}" == "2"
    assert metrics(at)["μ of the CLT approximation"] == f"{c.clt:.4g}"
    s = Settings(conv_mu=2.0, conv_eps=3.0, inv_eps=0.0, inv_delta=1e-12)
    at = start(CONVERSIONS, {"fdp_conv_mu": "2", "fdp_conv_eps": "3", "fdp_inv_eps": "0",
                             "fdp_inv_delta": "1e-12"})
    assert metrics(at)["δ(ε) at ε = 3 for μ = 2"] == f"{page.delta_reading(s)[2]:.4g}"
    inv = page.inverse(s)
    assert metrics(at)["Largest μ with δ(ε) ≤ target δ"] == "2.50663·10⁻¹²"  # μ = inv.mu
    assert float(metrics(at)["Largest μ with δ(ε) ≤ target δ"].split("·")[0]) == \
        pytest.approx(inv.mu / 1e-12, abs=1e-5)
    [check] = [c.value for c in at.caption if c.value.startswith("Check: δ(")]
    assert check.endswith("is 1·10⁻¹².")


def test_auditor_caps_reps_and_runs_small():
    at = start(AUDITOR)
    reps = at.select_slider(key="fdp_aud_reps")
    assert reps.value == 10_000 and reps.options[-1] == "100,000"
    assert any("capped at 100,000" in c.value for c in at.caption)
    for mech in ("gaussian", "laplace", "krr"):
        at.radio(key="fdp_aud_mech").set_value(mech)
        at.select_slider(key="fdp_aud_reps").set_value(100)
        run(at)
        assert_quiet(at)
        [table] = [d.value for d in at.dataframe if "β̂ (empirical)" in d.value.columns]
        assert list(table["α"]) == [0.01, 0.05, 0.1, 0.25, 0.5]
        assert table["β̂ (empirical)"].between(0, 1).all()
        assert any(tr["name"] == "empirical, R = 100" for tr in chart_traces(at, "fdp_fig_audit"))


# --- extremes: no exception, no warning (warnings are errors in this suite) --------------------

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
        "fdp_conv_eps": "10", "fdp_say_alpha": "50%",
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
        "fdp_family": "Laplace: Lap(0,1) vs Lap(ε,1)", "fdp_mu": "10", "fdp_say_alpha": "0.1%",
        "fdp_gauss_sigma": "0.1", "fdp_gauss_sens": "5", "fdp_lap_b": "0.1",
        "fdp_lap_sens": "5", "fdp_show_hist": "true", "fdp_hist_alpha": "0.001",
        "fdp_ed_delta": "0.2", "fdp_aud_mech": "Laplace", "fdp_aud_b": "0.1",
        "fdp_aud_reps": "100,000",
    },
}
LAPLACE = "Laplace: Lap(0,1) vs Lap(ε,1)"


def test_the_laplace_shift_reaches_eps_10_and_the_gaussian_keeps_mu_up_to_5():
    """Issue 36: Laplace at ε = 10 (the compare and k-RR pages' largest ε) opens from a
    link; μ keeps 0 … 5 and old links open as before; a change of outputs keeps the shift,
    clamped into the new range and said so."""
    at = start(query={"fdp_family": LAPLACE, "fdp_mu": "10"})
    shift = at.slider(key="fdp_mu")
    assert (shift.value, shift.max) == (10.0, 10.0)
    # β at α = 5% of Lap(0,1) against Lap(10,1): 1 − e^10·α is negative there, so the curve
    # is e^{−10}/(4α) for e^{−10}/2 ≤ α ≤ 1/2 (dpcore.fdp.laplace_tradeoff's middle piece)
    assert kit(at).numbers["Type-II error β"] == pytest.approx(math.exp(-10) / (4 * 0.05))
    at.radio(key="fdp_family").set_value("gaussian").run()
    assert (at.slider(key="fdp_mu").value, at.slider(key="fdp_mu").max) == (5.0, 5.0)
    assert any("10 is beyond this range; 5 is used" in c.value for c in at.caption)
    # A shift within both ranges is kept as it is (from a link: AppTest does not write a
    # moved bound slider into the address, a browser does; tests/test_browser.py).
    at = start(query={"fdp_mu": "2.5"})
    at.radio(key="fdp_family").set_value("laplace").run()
    assert (at.slider(key="fdp_mu").value, at.slider(key="fdp_mu").max) == (2.5, 10.0)
    assert not any("beyond this range" in c.value for c in at.caption)
    old = start(query={"fdp_mu": "5"})
    assert (old.slider(key="fdp_mu").value, old.slider(key="fdp_mu").max) == (5.0, 5.0)
    beyond = start(query={"fdp_mu": "7"})  # μ = 7 was never a value: named, default used
    assert beyond.slider(key="fdp_mu").value == 1.0
    assert "fdp_mu" not in beyond.query_params


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
    if text.endswith("%"):
        return float(text[:-1]) / 100
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
        for kind in WIDGET_KINDS:
            values.update({w.key: w.value for w in getattr(at, kind) if w.key in query})
    # Every URL value was taken (a value a widget rejects would leave its default).
    assert set(values) == set(query)
    for key, text in query.items():
        assert values[key] == url_value(text), key


# --- the page kit: the report's settings, the optional controls' help --------------------------

def test_a_link_reproduces_the_plain_sentence_and_the_auditor():
    values = [("fdp_family", "radio", "laplace", "Laplace: Lap(0,1) vs Lap(ε,1)"),
              ("fdp_mu", "slider", 2.5, "2.5"), ("fdp_say_alpha", "select_slider", 0.01, "1%"),
              ("fdp_aud_mech", "radio", "krr", "k-RR"),
              ("fdp_aud_eps", "select_slider", 2.0, "2"), ("fdp_aud_k", "slider", 5, "5"),
              ("fdp_aud_reps", "select_slider", 1000, "1,000"),
              ("fdp_seed", "number_input", 7, "7")]
    at = start(ATTACKER, {"fdp_tab": AUDITOR, **{key: url for key, _k, _v, url in values}})
    assert_quiet(at)
    assert_values(at, values)
    s = Settings(tab=AUDITOR, family="laplace", mu=2.5, say_alpha=0.01, aud_mech="krr",
                 aud_eps=2.0, aud_k=5, aud_reps=1000, seed=7)
    assert plain_words(at) == page.plain_words(s)[0]
    assert kit(at).parameters == {k: str(v) for k, v in s.report_items().items()}


def test_the_report_gets_the_settings_findings_and_notes_of_the_open_tab():
    at = start(ATTACKER, {"fdp_aud_reps": "100"})
    for tab in TABS:
        open_tab(at, tab)
        found = kit(at)
        s = Settings(tab=tab, aud_reps=100)
        assert found.parameters == {k: str(v) for k, v in s.report_items().items()}, tab
        # The plain-words box's finding first, then the tab's own.
        assert found.findings[0] == page.plain_words(s)[1] and len(found.findings) >= 2, tab
    open_tab(at, CURVES)
    assert kit(at).findings[1:] == page.curve_findings(
        page.curve_table(page.curves(Settings()), Settings())[0], Settings())
    assert any("values of α" in n for n in kit(at).notes)


def test_the_optional_controls_have_help():
    # The (ε*, δ*) target, the curves off by default, every mechanism of the auditor.
    at = start(CURVES, {"fdp_target": "f_ε*,δ*", "fdp_show_rs": "true",
                        "fdp_show_hist": "true", "fdp_aud_reps": "100"})
    seen: list[str] = []
    assert not without_help(at.main, seen)
    open_tab(at, AUDITOR)
    for mech in ("gaussian", "laplace", "krr"):
        at.radio(key="fdp_aud_mech").set_value(mech)
        run(at)
        assert not without_help(at.main, seen), mech
    assert {"slider", "select_slider", "radio", "toggle", "number_input", "button"} <= \
        seen_kinds(seen)
    assert {"fdp_target_eps", "fdp_rs_gamma", "fdp_hist_alpha", "fdp_aud_eps", "fdp_aud_b",
            "fdp_aud_sigma", "fdp_seed", "fdp_seed_new"} <= {name.split()[1] for name in seen}


# --- issue 18: one α, numbers without e-notation, readable legends, try this ----------------

E_NOTATION = re.compile(r"\d[eE][-+]?\d")


def test_the_sentence_speaks_of_the_alpha_and_beta_the_attackers_test_shows():
    at = start()
    shown = metrics(at)
    text = plain_words(at)
    assert f"(type-I error α = {shown['Type-I error α']})" in text
    assert f"= {shown['Type-II error β']})" in text
    assert (shown["Type-I error α"], shown["Type-II error β"]) == ("0.05", "0.7405")
    assert "fdp_t" not in [w.key for w in at.slider]  # no second α: t is solved from it


def page_texts(at: AppTest) -> list[str]:
    """Every text the page shows: prose, captions, metrics, infos, chart names and labels."""
    texts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    texts += [f"{m.label} {m.value}" for m in at.metric] + [i.value for i in at.info]
    texts += [w.label for kind in WIDGET_KINDS for w in getattr(at, kind)]
    for c in at.get("plotly_chart"):
        spec = json.loads(c.proto.spec)
        texts += [tr.get("name") or "" for tr in spec["data"]]
        texts += [a.get("text") or "" for a in spec["layout"].get("annotations", [])]
    return texts


@pytest.mark.parametrize("query", [EXTREMES["mu five"], EXTREMES["delta tiny"],
                                   {"fdp_comp_n": "1", "fdp_show_rs": "true",
                                    "fdp_show_hist": "true"}], ids=["mu5", "delta", "n1"])
def test_no_e_notation_raw_notation_or_false_zero_anywhere_on_the_page(query):
    at = start(ATTACKER, query)
    for tab in TABS:
        open_tab(at, tab)
        for text in page_texts(at):
            assert not E_NOTATION.search(text), (tab, text)
            assert "0.0000" not in text, (tab, text)
        for c in at.get("plotly_chart"):
            for tr in json.loads(c.proto.spec)["data"]:
                name = tr.get("name") or ""
                assert not any(m in name for m in ("^", "_", "⊗")), (tab, name)


def test_formula_blocks_are_collapsed_in_expanders():
    at = start()
    for tab in TABS:
        open_tab(at, tab)
        inside = sum(len(e.get("latex")) for e in at.expander)
        assert len(at.latex) == inside, tab
        assert all(not e.proto.expanded for e in at.expander), tab


def test_alpha_and_beta_are_named_once_as_the_attackers_errors():
    at = start(CURVES, {"fdp_show_rs": "true", "fdp_show_hist": "true"})
    prose = "\n".join(m.value for m in at.markdown)
    assert prose.count("α and β are the type-I and type-II errors of the attacker's test") == 1
    labels = [w.label for kind in WIDGET_KINDS for w in getattr(at, kind)]
    assert "categories k (N in Kang, Lee & Hong 2009)" in labels
    assert "Privacy level ε (α in Son, Park & Jung 2022) of the histogram" in labels
    assert not [label for label in labels if "α" in label and "ε" not in label
                and "type-I" not in label and "False accusations" not in label]


def open_experiment(i: int):
    return pagekit.open_experiment(FDP.path, page.EXPERIMENTS, i)


def test_try_this_compose_ten_releases_of_eps_dp():
    ex = page.EXPERIMENTS[0]
    at = open_experiment(0)
    assert_quiet(at)
    assert at.session_state["fdp_tab"] == COMPOSITION
    assert (at.slider(key="fdp_comp_n").value, at.select_slider(key="fdp_comp_eps").value,
            at.slider(key="fdp_comp_mu").value) == (10, 1.0, 1.0)
    assert any(ex.title in i.value for i in at.info)
    shown = metrics(at)
    # What the notice says: close to 2.923-GDP (within 0.075), 3.162-GDP for the ten 1-GDP.
    assert shown["μ of the CLT approximation"] == "2.923" and "2.923" in ex.notice
    assert float(shown["Largest gap, exact vs CLT"]) < 0.075 and "within 0.075" in ex.notice
    assert shown["μ of 10 composed 1-GDP mechanisms"] == "3.162" and "3.162-GDP" in ex.notice
    names = [tr["name"] for tr in chart_traces(at, "fdp_fig_comp_eps")]
    assert "(nε, 0)-DP, nε = 10 (textbook composition)" in names


def test_try_this_read_the_attackers_best_beta_at_five_percent():
    ex = page.EXPERIMENTS[1]
    at = open_experiment(1)
    assert_quiet(at)
    assert (at.slider(key="fdp_mu").value, at.select_slider(key="fdp_say_alpha").value) == (
        1.0, 0.05)
    assert any(ex.title in i.value for i in at.info)
    shown = metrics(at)
    assert shown["Type-II error β"] == "0.7405" and "0.7405" in ex.notice
    assert "misses the truth at least 74% of the time" in plain_words(at)
    assert "74% of the time (β = 0.7405)" in ex.notice


def test_radio_options_read_as_words_and_earlier_links_still_open_them():
    at = start(CURVES, {"fdp_target": "f_ε*,δ*"})  # the label links made before carry
    assert_quiet(at)
    assert at.radio(key="fdp_target").value == "epsdelta"
    assert list(at.radio(key="fdp_target").options) == ["μ*-GDP", "(ε*, δ*)-DP"]
    at = start(GROUP, {"fdp_group_curve": "f_ε,0 (any ε-DP mechanism)"})
    assert_quiet(at)
    assert at.radio(key="fdp_group_curve").value == "epsdp"
    for r in at.radio:
        assert not any("_" in o for o in r.options), r.options


def test_sources_are_cited_by_name_never_as_the_source():
    at = start(CURVES)
    prose = [m.value for m in at.markdown] + [c.value for c in at.caption] + kit(at).notes
    assert not [p for p in prose if "reviewed source" in p or "the source" in p]
    assert any("Korean blog review of Dong, Roth & Su (2022)" in p for p in prose)


def test_the_target_delta_reads_in_powers_of_ten_and_earlier_links_keep_it():
    # A link made when target δ was a number box showing "1.000e-06".
    at = start(CONVERSIONS, {"fdp_inv_delta": "1e-06", "fdp_inv_eps": "2"})
    assert_quiet(at)
    control = at.select_slider(key="fdp_inv_delta")
    assert control.value == 1e-6 and "fdp_inv_delta" not in [w.key for w in at.number_input]
    assert not [o for o in control.options if E_NOTATION.search(o)]
    assert {"10⁻¹²", "2·10⁻⁶", "10⁻⁵", "0.5"} <= set(control.options)
    assert metrics(at)["Largest μ with δ(ε) ≤ target δ"] == "0.448335"  # as the link showed


@pytest.mark.parametrize("query,alpha,says", [
    ({"fdp_t": "0.5"}, 0.3, "the link opens at the nearest α on the slider, 30%"),
    ({"fdp_t": "0.5", "fdp_say_alpha": "1%"}, 0.01, "the threshold now follows the link's α"),
    ({"fdp_t": "abc"}, 0.05, "which is not a number: it was left out"),
])
def test_a_link_with_the_earlier_threshold_control_says_what_became_of_it(query, alpha, says):
    """Links made when the attacker's threshold t was a control of its own (fdp_t) open at
    one α, the one their t gives (to the nearest step) unless they set α too, and say so."""
    at = open_page(FDP.path, None, query)
    assert at.select_slider(key="fdp_say_alpha").value == alpha
    assert any(says in c.value for c in at.caption), [c.value for c in at.caption]
    assert any(says in note for note in kit(at).notes)


def test_an_old_links_plain_number_stays_in_the_share_link():
    """A journey's shrunk example: a link recorded before the target δ had named steps
    (``fdp_inv_delta=1e-06``) opens at δ = 10⁻⁶, and the view's Share link opens the same
    μ: it names the step as the control writes it (it once dropped it, and reopened at the
    default δ = 10⁻⁵ with another μ)."""
    from urllib.parse import parse_qs, urlsplit

    query = {"fdp_tab": "Conversions", "fdp_conv_mu": "2", "fdp_conv_eps": "3",
             "fdp_inv_eps": "2", "fdp_inv_delta": "1e-06"}
    at = open_page(page.PAGE_SPEC.script, page.PAGE_SPEC.title, query)
    label = "Largest μ with δ(ε) ≤ target δ"
    [shown] = [m.value for m in at.metric if m.label == label]
    link = pagekit.kit(at).source
    again = open_page(page.PAGE_SPEC.script, page.PAGE_SPEC.title,
                      {k: v[-1] for k, v in parse_qs(urlsplit(link).query).items()})
    assert [m.value for m in again.metric if m.label == label] == [shown], link
