"""Page: type-I error and power of the homogeneity tests on private histograms.

Layout only: the settings, the computations, the sentences and the tables are in
ui/pages/calibration.py.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

import dpviz
from dpcore import datasets, simulation, study
from ui import controls, links, oneperson, registry
from ui.cache import machine_speed
from ui.format import fmt_number, headed
from ui.kit import PageKit, page_header
from ui.pages import calibration as logic
from ui.pages.calibration import (TABS, TITLE, ExtendedFilter, LiveSettings, NullSettings,
                                  Settings, StudyFilter)
from ui.text import N_, t

RESULT_KEY = "cal_result"  # session state: the last completed live run, {"params", "table"}
NULL_DRAWN = "cal_null_drawn"  # session state: the null settings drawn in this session


def rate_columns(sizes: tuple[str, str] = (N_("N"), N_("N_B"))) -> dict:
    """How the tables of rates show their numbers and headers (the CSV keeps them as they
    are): the sizes n and n2 (titled ``sizes``) with thousands separators, rates to 3
    decimals, the other columns headed in the reader's language."""
    return headed({column: t(label) for column, label in logic.RATE_HEADERS.items()}, {
        "n": st.column_config.NumberColumn(t(sizes[0]), format="localized"),
        "n2": st.column_config.NumberColumn(t(sizes[1]), format="localized"),
        "alpha1": st.column_config.NumberColumn(t("ε_A"), format="%g"),
        "alpha2": st.column_config.NumberColumn(t("ε_B"), format="%g"),
        **{col: st.column_config.NumberColumn(format="%.3f")
           for col in ("rate", "ci_low", "ci_high")}})


# The columns the study's tables show on screen: with all of them (populations, effect,
# replicates, seed, seconds, …) they ran far past their edge (issue 36); the CSV and the
# report keep every column.
ON_SCREEN = ("pair", "m", "alpha1", "alpha2", "n", "n2", "test", "rate", "ci_low", "ci_high")


def on_screen(table: pd.DataFrame) -> list[str]:
    """The columns of a study's table shown on screen (:data:`ON_SCREEN`), in its order."""
    return [c for c in ON_SCREEN if c in table.columns]


# --- Figures 2-3 ------------------------------------------------------------------------------


def read_null_settings(kit: PageKit) -> NullSettings:
    c1, c2 = st.columns(2)
    with c1:
        shape = st.selectbox(t("Shape p₀"), list(datasets.SHAPES),
                             format_func=lambda s: t(datasets.SHAPES[s]), key="cal_shape",
                             bind="query-params",
                             help=t("The paper's three null proportions (section 2.3)."))
        m = st.select_slider(t("Bins M"), logic.NULL_M_OPTIONS, value=logic.NULL_M_DEFAULT,
                             key="cal_m", bind="query-params",
                             help=t("The paper shows M = 20 and M = 100."))
    with c2:
        n = logic.number_box(
            t("People per histogram N"), logic.NULL_N_MIN, logic.NULL_N_MAX,
            default=logic.NULL_N_DEFAULT, step=logic.NULL_N_STEP, key="cal_n", symbol="N",
            url_in=kit.url_in,
            help=t("People per histogram, from {low:,} to {high:,}; the paper uses 5,050 "
                   "(= 1 + 2 + … + 100).", low=logic.NULL_N_MIN, high=logic.NULL_N_MAX))
        alpha = controls.log_slider(logic.privacy_label_first(), controls.ALPHA_GRID,
                                    default=logic.NULL_ALPHA_DEFAULT, key="cal_alpha",
                                    help=logic.privacy_help())
    # Rarely changed: collapsed.
    with st.expander(t("Replicates and seed"), expanded=False):
        c3, c4 = st.columns(2)
        reps = c3.select_slider(
            t("Null replicates"), logic.NULL_REPS_OPTIONS, value=logic.NULL_REPS_DEFAULT,
            key="cal_reps_null", bind="query-params",
            help=t("How many pairs of histograms are drawn under 'no difference'. More "
                   "replicates, smoother histograms and more precise type-I errors."))
        with c4:
            seed = controls.seed_control("cal_seed")
    return NullSettings(shape, int(m), int(n), alpha, reps, seed)


def null_tab(kit: PageKit, opened: bool, shown: bool) -> NullSettings:
    """The null distributions; ``shown`` False (a closed tab): its controls, and its results
    for the report only."""
    if shown:
        intro_null()
    null = read_null_settings(kit)
    # Large draws on request only, after a moved control (kit.ask); those drawn before in
    # this session are in the server's cache, and show at once.
    if not kit.requested(NULL_DRAWN, null, quick=null.quick, opened=opened,
                         message=logic.null_offer(null), key="cal_null_run", ask=shown,
                         help=t("Draw the null statistics at these settings.")):
        return null
    ns = logic.null_stats(null.shape, null.m, null.n, null.alpha, null.reps, null.seed)
    summary = logic.null_summary(ns)
    # Presenting: the chart and the type-I errors first under the title.
    with kit.leading(chart_height=320):
        kit.chart(logic.null_figure(null), key="cal_fig_null", drawn=shown,
                  name=t("Naive statistic under no difference, with and without DP"))
        if shown:
            null_metrics(kit, summary)
    if shown:
        kit.code(logic.code_builder(null))
    kit.finding(logic.null_finding(null, summary))
    return null


def intro_null() -> None:
    st.markdown(t(
        "Under 'no difference' the naive statistic should follow the χ²(M − 1) density. Without "
        "privacy it does; with privacy the noise shifts it right and spreads it, by an amount "
        "that depends on the shape and on M (the paper's Figures 2–3)."))
    with st.expander(t("The naive statistic and its type-I error, as formulas"),
                     expanded=False):
        st.latex(t(r"T = \sum_{i=1}^{2}\sum_{j=1}^{M}\frac{(X_{ij}-E_{ij})^2}{E_{ij}} "
                 r"\;\overset{H_0}{\sim}\; \chi^2_{M-1}\ \text{(without DP)},\qquad "
                 r"\text{naive type-I error} = P\big(T > \chi^2_{M-1,\,0.95}\big)"))


def null_metrics(kit: PageKit, summary) -> None:
    k1, k2, k3 = st.columns(3)
    label = {key: t(text) for key, text in logic.NULL_LABELS.items()}
    kit.metric(label["df"], summary.df, f"{summary.df}", where=k1,
               help=t("The mean of the χ²(M − 1) density is its degrees of freedom, M − 1."))
    kit.metric(label["mean_without"], summary.mean_without, f"{summary.mean_without:.1f}",
               where=k2, help=t("Should be close to df."))
    kit.metric(label["mean_with"], summary.mean_with, f"{summary.mean_with:.1f}", where=k3,
               help=t("The noise inflates the statistic."))
    kit.metric(label["type1_without"], summary.type1_without, f"{summary.type1_without:.1%}",
               where=k1,
               help=t("Share of null statistics above the χ² 5% critical value: about 5%."))
    kit.metric(label["type1_with"], summary.type1_with, f"{summary.type1_with:.1%}", where=k2,
               help=t("The same share on the private histograms: far above 5%."))


# --- Figures 9-12, live ------------------------------------------------------------------------


def read_live_settings() -> tuple[LiveSettings, bool]:
    """The simulation's form: its settings, and whether it was just submitted."""
    with st.form("cal_form", border=True):
        f1, f2, f3 = st.columns(3)
        with f1:
            pair = st.selectbox(
                t("Populations A vs B"), list(study.PAIRS), format_func=logic.pair_label,
                key="cal_pair", bind="query-params",
                help=t("The paper's three pairs of 2020 age distributions. Korea vs Korea: no "
                       "difference, so the rate is the type-I error. The others differ, so the "
                       "rate is the power."))
            m = st.radio(
                t("Bins M"), list(logic.M_LABELS), index=list(logic.M_LABELS).index(
                    logic.LIVE_M_DEFAULT), format_func=logic.m_label, key="cal_m_live",
                horizontal=True, bind="query-params",
                help=t("The paper's three age groupings: single years, 5-year or 10-year "
                       "groups."))
        with f2:
            a1 = controls.log_slider(t("Privacy level ε_A (A)"), controls.ALPHA_GRID,
                                     default=logic.LIVE_ALPHA_DEFAULT, key="cal_a1",
                                     help=logic.privacy_help("A"))
            a2 = controls.log_slider(t("Privacy level ε_B (B)"), controls.ALPHA_GRID,
                                     default=logic.LIVE_ALPHA_DEFAULT, key="cal_a2",
                                     help=logic.privacy_help("B"))
            tests = st.multiselect(
                t("Tests"), list(simulation.TESTS), default=list(logic.PAPER_TESTS),
                format_func=logic.test_label, key="cal_tests", bind="query-params",
                help=t("The parametric bootstrap test (Algorithm 1), the naive χ² test "
                       "that treats the noisy counts as exact, and this project's "
                       "normal-score contrast bootstrap (about twice the cost of "
                       "Algorithm 1)."))
        with f3:
            reps = st.select_slider(
                t("Replicates R per point"), logic.LIVE_REPS_OPTIONS,
                value=logic.LIVE_REPS_DEFAULT, format_func=fmt_number, key="cal_reps",
                bind="query-params",
                help=t("More replicates, narrower intervals: the interval half-width at 5% is "
                       "about $1.96\\sqrt{0.05 \\cdot 0.95 / R}$."))
        ns = controls.people_multiselect(
            t("People per histogram N (one point each)"), controls.N_GRID,
            default=list(study.PAPER_N), key="cal_ns", in_form=True,
            help=t("People per histogram, one point of the curve each. The paper's grid is "
                   "$10^k$ and $5 \\cdot 10^k$ for $k = 3, \\dots, 7$."))
        # Rarely changed: collapsed.
        with st.expander(t("Bootstrap replicates and seed"), expanded=False):
            b1, b2 = st.columns(2)
            n_boot = b1.select_slider(
                t("Bootstrap replicates B"), logic.LIVE_BOOT_OPTIONS,
                value=logic.LIVE_BOOT_DEFAULT, format_func=fmt_number, key="cal_boot",
                bind="query-params",
                help=t("Bootstrap replicates of each bootstrap test (Algorithm 1): its p-value "
                       "moves in steps of 1/B."))
            seed = b2.number_input(
                t("Seed"), min_value=0, max_value=2**31 - 1, value=controls.DEFAULT_SEED,
                key="cal_live_seed", bind="query-params",
                help=t("Random seed of the simulation. The same seed and settings reproduce "
                       "exactly the same rates."))
        submitted = st.form_submit_button(
            t("Run simulation"), type="primary", icon=":material/play_arrow:",
            on_click=controls.write_people_link, args=("cal_ns", study.PAPER_N, controls.N_GRID),
            help=t("Simulate the rejection rates with these settings (the link to this view "
                   "then carries them)."))
    live = LiveSettings(pair=pair, m=int(m), ns=tuple(sorted(ns)), a1=a1, a2=a2,
                        tests=tuple(tests), reps=int(reps), n_boot=int(n_boot), seed=int(seed))
    return live, submitted


def run_live(kit: PageKit, live: LiveSettings) -> dict | None:
    """Run the simulation of the form's settings (unless it is too large); the run, or None."""
    if not live.ns or not live.tests:
        kit.error(t("Choose at least one sample size N and one test."))
        return None
    seconds = simulation.estimate_seconds(live.units, machine_speed())
    if live.units > logic.MAX_UNITS:
        kit.error(logic.too_long(live, seconds))
        return None
    bar = st.progress(0.0, text=t("Simulating… about {seconds:.0f} s", seconds=seconds))
    table = logic.simulate(live, lambda f, _: bar.progress(
        f, text=t("Simulating… {done:.0%}", done=f)))
    bar.empty()
    return {"params": live, "table": table}


def live_intro() -> None:
    st.markdown(t(
        "Rejection rate at the 5% significance level against N, for the naive χ² test and "
        "the parametric bootstrap test, each point with its 95% Wilson interval. Korea vs Korea has no "
        "difference (the rate is the type-I error: it should stay near the dotted 5% line); "
        "the other pairs differ (the rate is the power: higher is better)."))


def live_tab(kit: PageKit, shown_tab: bool) -> tuple[LiveSettings, LiveSettings | None]:
    """The form and the last completed run: the form's settings and those of the run shown
    (``shown_tab`` False, a closed tab: the run for the report only)."""
    if shown_tab:
        live_intro()
    live, submitted = read_live_settings()
    last = st.session_state.get(RESULT_KEY)
    if submitted or last is None:
        run = run_live(kit, live)
        if run is not None:
            st.session_state[RESULT_KEY] = last = run
    if last is None:
        return live, None
    if last["params"] != live:
        if shown_tab:
            st.info(t("The settings above differ from the last completed run: the chart below "
                      "shows that run, described in its caption."), icon=":material/history:")
        kit.note(t("The rejection rates shown are from the last completed run, whose settings "
                   "are listed; the form's settings differ."))
    shown, table = last["params"], last["table"]
    kit.chart(logic.rates_figure(shown, table), key="cal_fig_live", drawn=shown_tab,
              name=t("Rejection rate against N"))
    if shown_tab:
        st.caption(logic.live_caption(shown))
    kit.table(logic.rates_shown(table), csv=table, key="cal_table_live",
              name=t("Rejection rates"), hide_index=True, column_config=rate_columns(),
              drawn=shown_tab)
    if shown_tab:
        for label, value in logic.live_numbers(table).items():
            kit.number(label, value)
        kit.code(logic.code_builder(shown))
    for finding in logic.live_findings(shown, table):
        kit.finding(finding)
    kit.note(t("Rejection rates at the 5% significance level are the share of R simulated "
               "pairs of private histograms in which the test rejected, with 95% Wilson intervals. A bootstrap "
               "replicate whose debiased total N̂ is 0 cannot be tested; it counts as not "
               "rejecting (column 'undefined')."))
    return live, shown


# --- The shipped study -------------------------------------------------------------------------


def read_study_filter(results: pd.DataFrame) -> StudyFilter:
    g1, g2, g3, g4 = st.columns(4)
    pairs = g1.multiselect(
        t("Pairs"), list(study.PAIRS), default=list(study.PAIRS), format_func=logic.pair_label,
        key="cal_f_pairs", bind="query-params",
        help=t("Which pairs of populations to show. Korea vs Korea has no difference: its rate "
               "is the type-I error."))
    ms = g2.multiselect(
        t("Bins M"), list(logic.STUDY_M_OPTIONS), default=list(logic.STUDY_M_OPTIONS),
        key="cal_f_m", bind="query-params",
        help=t("Bins: 86 single years, 18 five-year or 9 ten-year age groups."))
    levels = logic.privacy_levels(results)
    privacy = g3.multiselect(
        t("Privacy (ε_A, ε_B)"), levels, default=levels, format_func=logic.privacy_label,
        key="cal_f_priv", bind="query-params",
        help=t("The privacy levels of histograms A and B: smaller is stronger privacy, more "
               "noise."))
    tests = g4.multiselect(
        t("Tests"), list(simulation.TESTS), default=list(logic.PAPER_TESTS),
        format_func=logic.test_label, key="cal_f_tests", bind="query-params",
        help=t("The paper's parametric bootstrap test and naive χ² test, and this "
               "project's normal-score contrast bootstrap (in results files made since it "
               "was added)."))
    return StudyFilter(tuple(pairs), tuple(ms), tuple(privacy), tuple(tests))


def study_tab(kit: PageKit, shown_tab: bool) -> StudyFilter | None:
    """The shipped study, filtered (``shown_tab`` False, a closed tab: its filters, and its
    results for the report only)."""
    results = logic.shipped_results(study.results_stamp())
    if results is None or results.empty:
        st.info(logic.missing_study())
        return None
    if shown_tab:
        with st.expander(t("How this study was made: its commands"), expanded=False):
            st.markdown(logic.study_intro(results))
            st.code(study.PAPER_COMMAND, language="bash")
            st.caption(t("The normal-score test on the two pairs with an effect (its type-I "
                         "error is in the last tab), in its own file and seed:"))
            st.code(study.SCORE_COMMAND, language="bash")
        partial = logic.partial_study(results)
        if partial:
            st.warning(partial)
    chosen_filter = read_study_filter(results)
    shown = logic.study_shown(study.results_stamp(), chosen_filter)
    if shown.figure is None:
        if shown_tab:
            st.info(t("No settings match these filters."))
        return chosen_filter
    kit.chart(shown.figure, key="cal_fig_paper", drawn=shown_tab,
              name=t("The paper's study: rejection rate against N"))
    kit.table(logic.rates_shown(shown.table), csv=shown.table, key="cal_table_paper",
              drawn=shown_tab, column_order=on_screen(shown.table),
              name=t("The paper's study: the selected settings"), hide_index=True,
              column_config=rate_columns())
    if shown_tab:
        for label, value in logic.study_numbers(shown.chosen).items():
            kit.number(label, value)
        kit.code(logic.code_builder(chosen_filter, results))
    for finding in shown.findings:
        kit.finding(finding)
    return chosen_filter


# --- Beyond the paper: the extended null grid ------------------------------------------------


def read_extended_filter() -> ExtendedFilter:
    g1, g2, g3 = st.columns(3)
    ms = g1.multiselect(
        t("Bins M"), list(logic.EXTENDED_M_OPTIONS), default=list(logic.EXTENDED_M_OPTIONS),
        key="cal_x_m", bind="query-params",
        help=t("Bins: 86 single years, 18 five-year or 9 ten-year age groups."))
    tests = g2.multiselect(
        t("Tests"), list(simulation.TESTS), default=list(simulation.TESTS),
        format_func=logic.test_label, key="cal_x_tests", bind="query-params",
        help=t("Algorithm 1 (the parametric bootstrap), the naive χ² test and this project's "
               "normal-score contrast bootstrap."))
    a1 = g3.multiselect(
        t("ε_A (histogram A)"), list(logic.EXTENDED_ALPHA_OPTIONS),
        default=list(logic.EXTENDED_ALPHA_OPTIONS), format_func=logic.alpha_label,
        key="cal_x_a1", bind="query-params",
        help=t("The privacy level of histogram A: smaller is stronger privacy, more noise."))
    g4, g5, g6 = st.columns(3)
    a2 = g4.multiselect(
        t("ε_B (histogram B)"), list(logic.EXTENDED_ALPHA_OPTIONS),
        default=list(logic.EXTENDED_ALPHA_OPTIONS), format_func=logic.alpha_label,
        key="cal_x_a2", bind="query-params",
        help=t("The privacy level of histogram B."))
    ns = controls.people_multiselect(
        t("N_A (people in A)"), logic.EXTENDED_N_OPTIONS,
        default=list(logic.EXTENDED_N_OPTIONS), key="cal_x_n", where=g5,
        help=t("The size of histogram A."))
    ratios = g6.multiselect(
        t("N_B / N_A"), list(logic.EXTENDED_RATIO_OPTIONS),
        default=list(logic.EXTENDED_RATIO_OPTIONS), format_func=logic.ratio_label,
        key="cal_x_ratio", bind="query-params",
        help=t("How many times larger histogram B is than A: 1 is equal sizes, as in the "
               "paper."))
    return ExtendedFilter(tuple(int(m) for m in ms), tuple(tests), tuple(a1), tuple(a2),
                          tuple(int(n) for n in ns), tuple(ratios))


def extended_tab(kit: PageKit, shown_tab: bool) -> ExtendedFilter | None:
    """The extended null grid, filtered (``shown_tab`` as :func:`study_tab`)."""
    results = logic.extended_results(study.results_stamp(study.EXTENDED_FILES))
    if results is None or results.empty:
        st.info(logic.missing_extended())
        return None
    if shown_tab:
        with st.expander(t("How this grid was made: its settings and command"),
                         expanded=False):
            st.caption(logic.extended_caption(results))
            st.code(study.EXTENDED_COMMAND, language="bash")
        partial = logic.partial_extended(results)
        if partial:
            st.warning(partial)
    chosen_filter = read_extended_filter()
    shown = logic.extended_shown(study.results_stamp(study.EXTENDED_FILES), chosen_filter)
    if shown.figure is None:
        if shown_tab:
            st.info(t("No settings match these filters."))
        return chosen_filter
    kit.chart(shown.figure, key="cal_fig_extended", drawn=shown_tab,
              name=t("Beyond the paper: type-I error per setting"))
    kit.table(logic.rates_shown(shown.table), csv=shown.table, key="cal_table_extended",
              drawn=shown_tab, column_order=on_screen(shown.table),
              name=t("Beyond the paper: the selected settings"), hide_index=True,
              column_config=rate_columns((N_("N_A"), N_("N_B"))))
    if shown_tab:
        for label, value in logic.extended_numbers(shown.chosen).items():
            kit.number(label, value)
        kit.code(logic.code_builder(chosen_filter, results))
    for finding in shown.findings:
        kit.finding(finding)
    return chosen_filter


def what_the_curves_say() -> None:
    with st.expander(t("What the curves say"), expanded=False):
        st.markdown(t(
            "- **The naive χ² test does not hold its level.** On private histograms its type-I "
            "error is far above 5% — often near 100% — and falls to 5% only when the counts are "
            "so large that the noise no longer matters: tens of millions of people at ε = 0.01. "
            "Its high 'power' is the same defect: it rejects everything.\n"
            "- **The parametric bootstrap test holds its level** in the paper's settings, close "
            "to 5%, once N is large enough for the noise, with one or with different privacy "
            "levels for A and B (Figure 12); at ε = 0.01 and N = 1,000 it rejects too rarely "
            "(1.3% at M = 86). Beyond them, with privacy levels or sizes "
            "far apart, it need not: the tab *Beyond the paper* measures it there, beside "
            "this project's normal-score contrast bootstrap.\n"
            "- **Power costs data.** The bootstrap test's power rises with N; stronger privacy "
            "(smaller ε), more bins M and smaller differences all need more people for the same "
            "power: Korea vs USA is found with thousands, the Seoul area vs the rest of Korea "
            "needs tens of thousands at ε = 0.1.\n"
            "- When privacy is so strong that a histogram's debiased total N̂ is 0, the "
            "bootstrap test cannot be run; such replicates count as not rejecting and are "
            "listed as *undefined*."))


def main() -> None:
    kit = page_header(t(TITLE))
    kit.try_this(registry.CALIBRATION, list(logic.EXPERIMENTS))
    st.markdown(t(
        "Can the tests of the *Compare two private histograms* page be trusted, and how much "
        "data do they need? A test's **type-I error** is how often it finds a difference when "
        "there is none; at the 5% significance level it should be 5%. Its **power** is how "
        "often it finds a difference that is there. Both are estimated here by simulation, as in section 4.2 of "
        "Son, Park & Jung (2022): draw two histograms, release them with Laplace noise, test, "
        "repeat R times, count the rejections."))
    # The open tab is kept in the URL. Every tab runs, so that the report holds all four,
    # but a closed tab draws only its controls (they keep their values): its results go to
    # the report alone, made from what the server keeps (study_shown, null_figure, …).
    links.use_earlier_label("cal_tab")  # a link may name a tab by its earlier label
    tabs = st.tabs([t(x) for x in TABS], key="cal_tab", bind="query-params")
    tab_null, tab_live, tab_paper, tab_extended = tabs
    # Whether this run opens the page or a tab (large null draws then run by themselves).
    opened = kit.opened(st.session_state.get("cal_tab", t(TABS[0])))
    with tab_null:
        null = null_tab(kit, opened, tab_null.open is not False)
    with tab_live:
        live, shown = live_tab(kit, tab_live.open is not False)
    with tab_paper:
        study_filter = study_tab(kit, tab_paper.open is not False)
    with tab_extended:
        extended_filter = extended_tab(kit, tab_extended.open is not False)
    settings = Settings(tab=st.session_state.get("cal_tab", t(TABS[0])), null=null, live=live,
                        study=study_filter, extended=extended_filter)
    # The report lists the settings behind the results: the live run's are those of the run
    # shown, which may differ from the form's.
    kit.settings(replace(settings, live=shown))
    oneperson.section(kit, logic.one_person(settings.tab, null, live),
                      oneperson.eps_comparison(), key="cal_op")
    what_the_curves_say()
    kit.end()


main()
