"""Page: compare two differentially private histograms (Son, Park & Jung 2022).

Layout only: the settings, the computation, the sentences and the tables are in
ui/pages/compare_histograms.py.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

import dpviz
from dpcore import simulation
from dpcore.homogeneity import HomogeneityResult
from ui import controls, oneperson, registry, sources
from ui.cache import machine_speed
from ui.format import headed
from ui.kit import PageKit, page_header
from ui.pages import compare_histograms as logic
from ui.pages.compare_histograms import LEVEL, TITLE, Settings
from ui.text import t

RAN = "cmp_ran"  # session state: the comparisons (Settings.run_key) run in this session


def read_settings(kit: PageKit) -> Settings:
    """The data sources and the controls; stops the page when the sources cannot be used."""
    with st.container(border=True):
        pair = sources.histogram_pair_control(key="cmp")
        c1, c2, c3 = st.columns(3)
        with c1:
            n_a = n_b = None
            separate = False
            if pair.sampled:
                n_a = controls.sample_size_slider(t("Sample size N (people per histogram)"),
                                                  key="cmp_n", default=10_000)
                separate = st.checkbox(
                    t("Different N for B"), key="cmp_n_sep", bind="query-params",
                    help=t("Draw histogram B with its own sample size N (Son, Park & Jung "
                           "(2022), section 4.2, give each histogram its own total N_i; their "
                           "simulations use one N for both); otherwise A and B have the same "
                           "N."))
                n_b = n_a
                if separate:
                    # Its default follows A's N, so the address always names B's own N:
                    # left out, a link would reopen B at A's N of the moment.
                    n_b = controls.sample_size_slider(t("Sample size N for B"),
                                                      key="cmp_n_b", default=n_a,
                                                      always_in_link=True)
            else:
                st.caption(t("Both histograms are used as uploaded; no sampling."))
        with c2:
            st.caption(logic.privacy_caption())
            alpha_a = controls.log_slider(
                t("Privacy level ε_A (histogram A)"), controls.ALPHA_GRID, default=0.1,
                key="cmp_alpha_a", help=logic.privacy_help("A", first=True))
            alpha_b = controls.log_slider(
                t("Privacy level ε_B (histogram B)"), controls.ALPHA_GRID, default=0.1,
                key="cmp_alpha_b", help=logic.privacy_help("B", first=False))
        with c3:
            with st.expander(t("Advanced: bootstrap replicates and seed"), expanded=False,
                             icon=":material/tune:"):
                boot = controls.log_slider(
                    t("Bootstrap replicates B"), controls.BOOT_GRID, default=1000,
                    key="cmp_boot",
                    help=t("Number of null histograms simulated by the parametric bootstrap. "
                           "More replicates give a more precise p-value (its standard error "
                           "is at most 0.5/√B)."))
                seed = controls.seed_control("cmp_seed")
            st.caption(logic.advanced_caption(boot, seed))
    pair.stop_if_unusable(kit)
    if pair.note is not None:  # shown with the upload; the report says it too
        kit.note(pair.note)
    source_a, source_b = st.session_state["cmp_a"], st.session_state["cmp_b"]
    width = (int(st.session_state["cmp_width"]) if logic.uses_age_groups(source_a, source_b)
             else None)
    return Settings(pair=pair, source_a=source_a, source_b=source_b, width=width,
                    bins=len(pair.labels), n_a=n_a, separate_n=separate, n_b=n_b,
                    alpha_a=alpha_a, alpha_b=alpha_b, boot=boot, seed=seed)


def wait_for_request(kit: PageKit, settings: Settings) -> None:
    """After a moved control, run large bootstraps on request only and stop the page until
    then (kit.requested)."""
    if not kit.requested(RAN, settings.run_key(), quick=settings.quick, opened=kit.opened(),
                         message=logic.boot_offer(settings.bins, settings.n_boot),
                         key="cmp_run", help=t("Run both bootstrap tests at these settings.")):
        kit.stop()


def announce_boot_limit(kit: PageKit, settings: Settings) -> None:
    """Say when the work cap lowers the bootstrap replicates, and how long they would take."""
    if settings.n_boot == settings.boot:
        return
    units = simulation.work_units(settings.bins, 1, settings.boot)
    seconds = simulation.estimate_seconds(units, machine_speed())
    st.info(logic.boot_limit_info(settings.bins, settings.boot, settings.n_boot, seconds),
            icon=":material/speed:")
    kit.note(logic.boot_limit_note(settings.bins, settings.n_boot))


def show_verdict(kit: PageKit, settings: Settings, result: HomogeneityResult) -> None:
    """Both bootstrap tests' verdicts (or why Algorithm 1 cannot be run), what the null
    grids say about their level here, the naive test's verdict, the noise."""
    if result.bootstrap is None:
        kit.error(logic.bootstrap_error(result))
        kit.finding(logic.bootstrap_error_finding(result))
    found = logic.finds_difference(result, "calibrated")
    alert = st.warning if found else st.success
    with kit.leading():  # presenting: first under the title, with the histograms
        alert(logic.verdict(settings, result), icon=":material/balance:")
    kit.finding(logic.verdict(settings, result, markdown=False))
    slot = st.empty()  # what the simulations say about both tests here, shown above the check
    check = logic.size_check_of(settings, result)
    table = check_this_setting(settings, result, check)
    level = (logic.size_check_sentence(check, table) if table is not None
             else logic.calibration_sentence(settings, result))
    if level is not None:
        kind, text = level
        shown = slot.info if kind == "ok" else slot.warning
        shown(text, icon=":material/science:" if table is not None else ":material/straighten:")
        kit.finding(text)
    kit.finding(logic.naive_finding(result))
    for side in logic.noisy_sides(settings, result):
        st.warning(logic.noise_warning(side), icon=":material/blur_on:")
        kit.note(logic.noise_note(side))


def check_this_setting(settings: Settings, result: HomogeneityResult,
                       check: logic.SizeCheck):
    """The size check at these settings: its table when it was run on this server or is run
    now; else, where the grids do not answer for these settings, the offer and its button
    (pressed: simulated with a progress bar and kept on the server), and None."""
    table = logic.checked_size(check)
    if table is not None or not logic.needs_check(settings, result):
        return table
    seconds = simulation.estimate_seconds(check.units, machine_speed())
    st.caption(logic.size_check_offer(check, seconds))
    if not st.button(t("Check this setting"), key="cmp_check", icon=":material/science:",
                     help=t("Simulate the size of Algorithm 1 and of the calibrated test at "
                            "your own setting.")):
        return None
    bar = st.progress(0.0, text=t("Simulating… about {seconds:.0f} s", seconds=seconds))
    table = logic.run_size_check(check, lambda f, _: bar.progress(
        f, text=t("Simulating… {done:.0%}", done=f)))
    bar.empty()
    return table


def show_metrics(kit: PageKit, result: HomogeneityResult) -> None:
    """The three p-values and the two estimated sizes N̂."""
    m1, m2, m3 = st.columns(3)
    kit.metric(t("Naive χ² test p-value"), result.naive.pvalue,
               logic.shown_p(result.naive.pvalue), where=m1, help=logic.naive_help(result),
               border=True)
    m1.caption(logic.naive_caption(result))
    kit.number(t("χ² statistic T"), result.naive.statistic)
    kit.number(t("Degrees of freedom"), result.naive.df)
    if result.bootstrap is not None:
        kit.metric(t("Parametric bootstrap p-value"), result.bootstrap.pvalue,
                   logic.pvalue_text(result.bootstrap), where=m2, border=True,
                   help=t("Algorithm 1: (1 + #{T_b ≥ T}) / (B + 1), where T_b are "
                          "the B bootstrap statistics; never 0."))
        m2.caption(logic.bootstrap_caption(result.bootstrap))
    kit.metric(t("Calibrated normal-score test p-value"), result.calibrated.pvalue,
               logic.pvalue_text(result.calibrated), where=m3, border=True,
               help=t("The normal-score contrast bootstrap (this project), calibrated by a "
                      "fast double bootstrap (Davidson & MacKinnon 2007): a second level of "
                      "replicates moves its critical value by as much as the simulated null "
                      "is off; never 0."))
    m3.caption(logic.calibrated_caption(result.calibrated))
    sizes = st.columns(3)[:2]
    for col, size in zip(sizes, logic.size_estimates(result)):
        kit.metric(size.label, size.n_hat, size.value, where=col, delta=size.delta,
                   delta_color="off", border=True,
                   help=t("Nearest integer of the sum of the debiased counts C̃, eq. (4.3)."))
        col.caption(size.caption)


def show_histograms(kit: PageKit, settings: Settings, result: HomogeneityResult) -> None:
    if not kit.in_lead:  # presenting: right under the verdict, its heading left out
        st.subheader(t("Original and private histograms"))
    name_a, name_b = logic.trace_names(settings)
    kit.chart(
        dpviz.homogeneity.histograms_figure(
            settings.pair.labels, result.private1, result.private2,
            original_a=result.original1, original_b=result.original2,
            name_a=name_a, name_b=name_b,
        ),
        key="cmp_fig_hist", name=t("Original and private histograms"),
    )


def read_null_test(settings: Settings) -> Settings:
    """The settings with the test whose null distribution the chart shows."""
    test = st.segmented_control(
        t("Test"), list(logic.BOOT_TESTS), default="bootstrap", key="cmp_null_test",
        bind="query-params", format_func=lambda v: t(logic.TEST_NAMES[v]),
        help=t("Whose bootstrap null distribution to show."))
    return replace(settings, null_test=test or "bootstrap")


def show_null_distribution(kit: PageKit, settings: Settings, result: HomogeneityResult) -> None:
    boot = logic.null_result(result, settings.null_test)
    if boot is None:
        st.info(t("No null distribution for Algorithm 1: see the message above."))
        return
    reference = (t("naive test's reference") if settings.null_test == "bootstrap"
                 else t("large-sample reference"))
    kit.chart(
        dpviz.homogeneity.null_distribution_figure(
            boot.null_distribution, boot.statistic, boot.critical_value(LEVEL),
            df=result.naive.df, level=LEVEL, reference=reference,
        ),
        key="cmp_fig_null", name=t("Bootstrap null distribution"),
    )
    st.caption(logic.null_caption(settings.null_test))


def read_zoom(settings: Settings) -> Settings:
    """The settings with the debiasing chart's zoom."""
    zoom = st.toggle(t("Zoom on small counts, where debiasing acts"), key="cmp_zoom",
                     bind="query-params",
                     help=t("Show C up to 3 k(ε), the small counts where g(C) lies above C "
                            "(Figure 4 of Son, Park & Jung 2022), instead of every count."))
    return replace(settings, zoom=zoom)


def show_debiasing(kit: PageKit, settings: Settings, result: HomogeneityResult) -> None:
    kit.chart(
        dpviz.homogeneity.debias_figure(
            settings.alpha_a, settings.alpha_b, result.private1, result.private2,
            result.estimate.c1_tilde, result.estimate.c2_tilde, name_a=t("A"), name_b=t("B"),
            zoom=settings.zoom,
        ),
        key="cmp_fig_debias", name=t("Debiasing the noisy counts"),
    )
    st.caption(t("Truncating at 0 biases small counts upwards: E[X | C] = g(C) lies above the "
                 "line X = C, as in Figure 4 of Son, Park & Jung (2022). Each noisy count X is "
                 "mapped back to C̃ (the inverse of g in between the thresholds, their eq. "
                 "(4.2))."))


def show_numbers(kit: PageKit, settings: Settings, result: HomogeneityResult) -> None:
    st.subheader(t("The numbers"))
    t1, t2 = st.columns([2, 1])
    with t1:
        per_bin = logic.per_bin_table(settings, result)
        formats = {col: st.column_config.NumberColumn(logic.per_bin_header(col),
                                                      format=logic.per_bin_format(col))
                   for col in per_bin.columns if col != "bin"}
        formats = headed({"bin": t("bin")}, formats)
        kit.table(per_bin, key="cmp_table_hist", name=t("Counts per bin"), hide_index=True,
                  column_config=formats)
        st.caption(t("Per bin: the true counts C (when known), the private counts X, the "
                     "debiased counts C̃ and the rescaled Ĉ, and the pooled proportions p̂₀ "
                     "under 'no difference'."))
    with t2:
        summary = result.summary_table()
        kit.table(logic.summary_shown(summary), csv=summary, key="cmp_table_results",
                  name=t("Tests and estimates"), hide_index=True,
                  column_config=headed({"quantity": t("quantity"), "value": t("value")}))


def explain() -> None:
    """The mechanism, the estimators and the test, with the equations of Son, Park & Jung
    (2022); their privacy level α is written ε here."""
    with st.expander(t("How it works: the mechanism, the estimators and the test"),
                     expanded=False):
        st.markdown(t("**The release (2.4).** Every count $C_j$ gets Laplace noise and is "
                      "truncated at 0:"))
        st.latex(r"X_j = \max\{0,\; C_j + Z_j\},\qquad Z_j \sim \mathrm{Lap}(2/\varepsilon)")
        st.markdown(t("**The statistic (2.3)**, computed on the private histograms:"))
        st.latex(
            r"T = \sum_{i=1}^{2}\sum_{j=1}^{M}\frac{(X_{ij}-E_{ij})^2}{E_{ij}},\qquad "
            r"E_{ij} = \frac{n_i\,(X_{1j}+X_{2j})}{n_1+n_2},\quad n_i = \sum_j X_{ij}"
        )
        st.markdown(t(
            "The naive test refers $T$ to $\\chi^2_{M-1}$. But the noise inflates $T$, by an "
            "amount that depends on the unknown counts, so the naive test rejects far too often "
            "(section 2.3)."))
        st.markdown(t("**Debiasing (4.1)–(4.2).** Because of the truncation, small counts come "
                      "out too large on average:"))
        st.latex(r"g(C) = E[X \mid C] = C + \frac{1}{\varepsilon} e^{-\varepsilon C/2}")
        st.latex(t(
            r"\tilde C = \begin{cases} 0 & X \le 1/\varepsilon \\ g^{-1}(X) & 1/\varepsilon < X"
            r" < k(\varepsilon) \\ X & \text{otherwise} \end{cases},\qquad g^{-1}(x) = x + "
            r"\tfrac{2}{\varepsilon}\,W_0\!\left(-\tfrac12 e^{-\varepsilon x/2}\right)"
        ))
        st.markdown(t(
            "where $k(\\varepsilon) = g(C^*)$ and $C^*$ is where the bias $g(C) - C$ falls "
            "below 5; $W_0$ is the Lambert W function, which gives the inverse in closed "
            "form."))
        st.markdown(t("**Estimates under 'no difference' (4.3):**"))
        st.latex(t(
            r"\hat N_i = \operatorname{round}\Big(\sum_j \tilde C_{ij}\Big),\quad "
            r"\hat C_{ij} = \tilde C_{ij}\,\frac{\hat N_i}{\sum_j \tilde C_{ij}},\quad "
            r"\hat p_0 = \frac{\hat C_1 + \hat C_2}{\hat N_1 + \hat N_2}"
        ))
        st.markdown(t(
            "**The parametric bootstrap (Algorithm 1).** $B$ times: draw "
            "$U_i \\sim \\mathrm{Multinomial}(\\hat N_i, \\hat p_0)$, release them with the same "
            "noise, $Y_i = \\max\\{0, U_i + \\mathrm{Lap}(2/\\varepsilon_i)\\}$ ($\\varepsilon_1 "
            "= \\varepsilon_A$, $\\varepsilon_2 = \\varepsilon_B$), and compute $T_b$ with "
            "$E_{ij} = \\hat N_i (Y_{1j} + Y_{2j}) / (\\hat N_1 + \\hat N_2)$. Line 11 of "
            "Algorithm 1 in Son, Park & Jung (2022) takes the share of $T_b$ above $T$, which "
            "is 0 when no replicate reaches $T$; the page reports the Monte Carlo p-value, "
            "which counts $T$ itself among the $B + 1$ values and is never 0:"))
        st.latex(r"p = \frac{1 + \#\{b : T_b \ge T\}}{B + 1}")
        st.markdown(t(
            "**The normal-score test (this project).** Algorithm 1 computes $T$ with "
            "$n_i = \\sum_j X_{ij}$ but each $T_b$ with $\\hat N_i$, and $\\hat N_i$ is far too "
            "large when ε is small, so with unequal N or ε its significance level drifts far "
            "from 5%. The normal-score test estimates $N_i$ by matching the expected noisy "
            "total, $\\sum_j g_i(N_i \\hat p_{0j}) = \\sum_j X_{ij}$, turns each private count "
            "into a normal score $z_{ij} = \\Phi^{-1}(F_{ij}(X_{ij}))$ under the fitted null "
            "(Laplace noise on a normal count, truncated at 0; standardised), and compares the "
            "two histograms bin by bin:"))
        st.latex(r"T = \sum_{j=1}^{M} \frac{(a_{2j} z_{1j} - a_{1j} z_{2j})^2}{a_{1j}^2 + a_{2j}^2}")
        st.markdown(t(
            "where $a_{ij}$ is about how much $z_{ij}$ moves with $p_{0j}$, so an error in "
            "$\\hat p_0$ cancels to first order when the noise is small next to the counts. Each "
            "bootstrap replicate recomputes every estimate, exactly as on the data. Without noise "
            "$T$ is the χ² statistic (2.3)."))
        st.markdown(t(
            "**The calibrated normal-score test (this project).** Where a bin's count is about "
            "the size of its noise, the cancellation is partial and the null simulated from "
            "$\\hat p_0$ is lighter than the true one: the normal-score test then rejects 6.5–8% "
            "of the time at the 5% significance level. The fast double bootstrap (Davidson & "
            "MacKinnon 2007) measures that: from the estimates refitted on each replicate $b$ it "
            "draws one more "
            "pair and its statistic $T^{\\ast\\ast}_b$, and moves the critical value by as much "
            "as the $T^{\\ast\\ast}_b$ fall lighter than the $T_b$:"))
        st.latex(t(r"p^{*} = \frac{1 + \#\{b : T_b \ge T\}}{B + 1},\quad Q^{**} = "
                 r"\mathrm{quantile}_{1 - p^{*}}(T^{**}),\quad p = "
                 r"\frac{1 + \#\{b : T_b \ge Q^{**}\}}{B + 1}"))
        st.markdown(t(
            "It costs twice the normal-score test. The page's verdict follows it; what the "
            "simulations measured for both tests, with their intervals, is said above the "
            "numbers, and off the simulated grid *Check this setting* measures it at yours."))


def main() -> None:
    kit = page_header(t(TITLE))
    kit.try_this(registry.COMPARE, list(logic.EXPERIMENTS))
    st.markdown(t(
        "Two histograms are released with differential privacy: Laplace noise is added to every "
        "count and negative results are set to 0. Are the two populations behind them the same? "
        "The usual chi-square test gets this wrong on noisy counts. The **parametric bootstrap "
        "test** of Son, Park & Jung (2022) uses only the private histograms and their privacy "
        "levels ε, and keeps its error rate when both histograms have the same N and ε and "
        "enough people per bin; the **calibrated normal-score test** added here is built to "
        "keep it also with different N or ε. Below, the page says what the simulations "
        "measured for both at your settings, and which to trust."))
    settings = read_settings(kit)
    announce_boot_limit(kit, settings)
    wait_for_request(kit, settings)
    try:
        result = logic.run_comparison(settings.pair, settings.n_a, settings.n_b,
                                      settings.alpha_a, settings.alpha_b, settings.n_boot,
                                      settings.seed)
    except ValueError as exc:
        kit.fail(logic.comparison_error(exc))
    kit.settings(settings)
    show_verdict(kit, settings, result)
    show_metrics(kit, result)
    check = logic.size_check_of(settings, result)
    kit.code(logic.code_builder(
        settings, size_check=check if logic.checked_size(check) is not None else None))
    with kit.leading(chart_height=320):  # under the verdict's four lines, at 1280×720
        show_histograms(kit, settings, result)
    left, right = st.columns(2)
    with left:
        st.subheader(t("Bootstrap null distribution"))
        settings = read_null_test(settings)
        show_null_distribution(kit, settings, result)
    with right:
        st.subheader(t("Debiasing the noisy counts"))
        settings = read_zoom(settings)
        show_debiasing(kit, settings, result)
    show_numbers(kit, settings, result)
    kit.note(logic.method_note())
    oneperson.section(kit, logic.one_person(settings), oneperson.eps_comparison(),
                      key="cmp_op")
    explain()
    kit.end()


main()
