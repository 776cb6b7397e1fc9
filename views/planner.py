"""Page: the privacy-utility planner. How much data, how much privacy, for a target power.

The layout and the widgets; the settings, the searches and every sentence are
ui.pages.planner's. Only the open tab runs. A search simulates (for a second or more)
when the page or its tab is opened, or when *Simulate* is pressed; after a control moves,
the tab shows at once the plan the server's cell cache holds for the new settings, or
offers the button: so a class moving sliders costs the server a rerun each, not a search.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from dpcore import datasets, planner
from ui import controls, oneperson, registry, sources
from ui.cache import machine_speed
from ui.format import fmt_number, headed
from ui.kit import PageKit, page_header
from ui.links import to_page
from ui.pages import planner as page
from ui.pages.calibration import number_box, privacy_help, privacy_label_first
from ui.pages import planner_text as words
from ui.text import t

KEYS = page.Settings.KEYS
DEFAULT = page.DEFAULT
FRONTIER_STATE = "plan_frontier"  # session state: the last frontier computed


def labels(mapping: dict):
    """A format_func that shows an option's label."""
    return lambda key: t(mapping[key])


def percent(v: float) -> str:
    return f"{v:.0%}"


# --- 1. What should the test detect? ------------------------------------------------------------

def source_box(label: str, *, field: str) -> str:
    options = list(page.SOURCES)
    return st.selectbox(
        label, options, index=options.index(getattr(DEFAULT, field)),
        format_func=page.source_label, key=KEYS[field], bind="query-params",
        help=t("A population by age in 2020, built in ({populations}), or a column of your own "
               "CSV file (counts per bin, or one value per person such as ages).",
               populations="; ".join(t(name) for name in datasets.POPULATIONS.values())))


def binning(chosen: list[str], upload) -> tuple[int | None, int]:
    """(age-group width, M): the age groups radio, or M from a file of counts alone."""
    if page.only_counts(chosen, upload):
        st.caption(t("Bins: M = {m}, one per row of your file.", m=len(upload.table)))
        return None, len(upload.table)
    widths = list(sources.AGE_BINNINGS)
    width = st.radio(
        t("Age groups (bins M)"), widths, index=widths.index(DEFAULT.width),
        format_func=labels(sources.AGE_BINNINGS), key=KEYS["width"], bind="query-params",
        horizontal=True,
        help=t("How the private histograms will be published: single years (0 … 84, 85+), "
               "5-year or 10-year groups. More bins spread the same people thinner under the "
               "same noise: more data is needed, and each simulation costs more."))
    return int(width), len(datasets.age_bin_labels(width))


def effect_controls(s: page.Settings, m: int, url_in: dict) -> page.Settings:
    """The direction of the effect, and its size: a shift or a distance."""
    direction = st.radio(
        t("Towards"), list(page.DIRECTIONS), format_func=labels(page.DIRECTIONS),
        key=KEYS["direction"], bind="query-params", horizontal=True,
        help=t("Which way B differs from A: more people in the last bins (older), or in the "
               "first bins (younger)."))
    s = replace(s, direction=direction)
    if s.effect == "shift":
        k = controls.ranged_slider(
            t("Shift k (age groups)") if s.width is not None else t("Shift k (bins)"), 1, m - 1,
            default=DEFAULT.shift, key=KEYS["shift"],
            help=t("B is A moved k bins: with 10-year groups, k = 1 is everyone ten years older "
                   "(or younger). Mass that passes the last (or first) bin stays there."))
        return replace(s, shift=int(k))
    d = number_box(
        t("Total-variation distance d"), page.DISTANCE_RANGE[0], page.DISTANCE_RANGE[1],
        default=DEFAULT.distance, step=0.01, format="%.3f", key=KEYS["distance"], symbol="d",
        url_in=url_in,
        help=t("½ Σ|p_j − q_j|: the share of people who would have to change group to turn A "
               "into B. Korea central vs noncentral is 0.057 in 10-year groups."))
    return replace(s, distance=float(d))


def comparison_controls(s: page.Settings, url_in: dict):
    """The controls of 'what should the test detect'; (settings, comparison, problem)."""
    mode = st.radio(
        t("Describe the difference by"), list(page.MODES), format_func=labels(page.MODES),
        key=KEYS["mode"], bind="query-params", horizontal=True,
        help=t("Two populations: the difference between two real distributions, e.g. the "
               "Seoul area against the rest of Korea. One population and an effect: the "
               "smallest difference worth detecting, built from one distribution."))
    c1, c2 = st.columns(2)
    if mode == "two":
        with c1:
            source_a = source_box(t("Population A"), field="source_a")
        with c2:
            source_b = source_box(t("Population B"), field="source_b")
        s = replace(s, mode=mode, source_a=source_a, source_b=source_b)
        chosen = [source_a, source_b]
    else:
        with c1:
            base = source_box(t("Population"), field="base")
            effect = st.radio(
                t("Effect"), list(page.EFFECTS), format_func=labels(page.EFFECTS),
                key=KEYS["effect"], bind="query-params",
                help=t("A shift: everyone k age groups older (or younger), the ends kept open. "
                       "A distance: the exponential tilt of the population whose "
                       "total-variation distance from it is d."))
        s = replace(s, mode=mode, base=base, effect=effect)
        chosen = [base]
    upload, columns = None, {}
    if page.UPLOAD in chosen:
        with st.container(border=True):
            upload, problem = sources.upload_control(key="plan_file")
            if upload is None:
                return s, None, page.Problem(
                    problem or t("Upload a CSV file to use it, or pick a built-in population."),
                    waiting=problem is None)
            cols = st.columns(2)
            for i, (source, side) in enumerate(zip(chosen, ("A", "B"))):
                if source == page.UPLOAD:
                    with cols[i]:
                        columns[side] = sources.column_picker(
                            upload, side if mode == "two" else t("the population"),
                            index=i if chosen.count(page.UPLOAD) == 2 else 0,
                            key=f"plan_col_{side.lower()}")
    width, m = binning(chosen, upload)
    s = replace(s, width=width)
    try:
        p1 = page.side_probabilities(chosen[0], "A", upload, columns.get("A"), width, m)
        if mode == "two":
            p2 = page.side_probabilities(chosen[1], "B", upload, columns.get("B"), width, m)
        else:
            with c2:
                s = effect_controls(s, m, url_in)
            p2 = page.effect_distribution(p1, s)
    except ValueError as exc:  # UploadError and dpcore's argument errors
        return s, None, page.Problem(t("These distributions cannot be used: {error}",
                                       error=page.error_text(exc)))
    comp = page.make_comparison(s, p1, p2, page.bin_labels(width, m, upload), columns, upload)
    return s, comp, page.same_distribution(comp)


def level_power_controls(s: page.Settings) -> page.Settings:
    tests = list(page.TESTS)
    test = st.radio(
        t("Test"), tests, index=tests.index(DEFAULT.test), format_func=labels(page.TESTS),
        key=KEYS["test"], bind="query-params", horizontal=True,
        help=t("The DP test the plan is for. The parametric bootstrap test is Algorithm 1 of "
               "Son, Park & Jung (2022). The normal-score test (this project) keeps its level "
               "in more settings than Algorithm 1 (different N or ε in the two groups, strong "
               "privacy) but not everywhere (see the compare page's measured sizes), and costs "
               "more to simulate: the time estimates count it."))
    c1, c2 = st.columns(2)
    level = c1.select_slider(
        t("Significance level"), page.LEVELS, value=DEFAULT.level, format_func=percent,
        key=KEYS["level"], bind="query-params",
        help=t("The test's level: how often it may find a difference when there is none."))
    power = c2.select_slider(
        t("Target power"), page.POWERS, value=DEFAULT.power, format_func=percent,
        key=KEYS["power"], bind="query-params",
        help=t("How often the test must find the difference described. 80% is the usual "
               "choice; 90% needs more data or weaker privacy."))
    return replace(s, test=test, level=float(level), power=float(power))


def comparison_summary(kit: PageKit, comp: page.Comparison | None,
                       problem: page.Problem | None) -> None:
    """The effect size and the two distributions, or why there are none."""
    if comp is not None:
        kit.metric(t(page.NUMBER_LABELS["tv"]), comp.tv, f"{comp.tv:.3f}", border=True,
                   help=t("½ Σ|p_Aj − p_Bj|: the share of people who would have to change "
                          "group to turn A into B. The smaller, the more data a test needs."))
        kit.chart(page.distributions_figure(comp), key="plan_fig_dist",
                  name=page.distributions_name(comp))
        st.caption(t("M = {m} bins. The test must tell these two distributions apart from "
                     "their private histograms.", m=comp.m))
        kit.number(t(page.NUMBER_LABELS["bins"]), comp.m)
    if problem is not None:
        if problem.waiting:
            st.info(problem.message, icon=":material/upload_file:")
        else:
            kit.error(problem.message)


# --- 2. The plan, and the accuracy of the simulation --------------------------------------------

def choice_controls(s: page.Settings) -> page.Settings:
    c1, c2 = st.columns(2)
    with c1:
        alpha1 = controls.log_slider(
            privacy_label_first(), controls.ALPHA_GRID, default=DEFAULT.alpha1,
            key=KEYS["alpha1"], help=privacy_help(shared=True))
        separate = st.checkbox(
            t("A different level ε_B for B"), key=KEYS["separate"], bind="query-params",
            help=t("The two histograms may be released at different privacy levels (the "
                   "paper's Figure 12). The question 'how much privacy?' then keeps the ratio "
                   "ε_B/ε_A fixed."))
        alpha2 = controls.log_slider(
            t("Privacy level ε_B for B"), controls.ALPHA_GRID, default=DEFAULT.alpha2,
            key=KEYS["alpha2"], help=privacy_help("B")) \
            if separate else alpha1
    with c2:
        n = controls.sample_size_slider(t("People per group N (your plan)"), key=KEYS["n"],
                                        default=DEFAULT.n)
        st.caption(t("The tab *How much data?* starts from your ε, *How much privacy?* from "
                     "your N; the frontier marks both."))
    return replace(s, alpha1=float(alpha1), separate=bool(separate), alpha2=float(alpha2),
                   n=int(n))


def accuracy_controls(s: page.Settings, m: int | None) -> page.Settings:
    c1, c2, c3 = st.columns(3)
    reps = c1.select_slider(
        t("Replicates R per setting"), page.REPS_GRID, value=DEFAULT.reps,
        format_func=fmt_number, key=KEYS["reps"], bind="query-params",
        help=t("Private histogram pairs simulated at each setting (N, ε). More replicates give "
               "narrower Wilson intervals: at 80% power the half-width is about "
               "1.96·√(0.8·0.2/R), 0.055 for R = 200."))
    n_boot = c2.select_slider(
        t("Bootstrap replicates B"), page.BOOT_GRID, value=DEFAULT.n_boot,
        format_func=fmt_number, key=KEYS["n_boot"], bind="query-params",
        help=t("Bootstrap replicates of the test chosen (Algorithm 1 or the normal-score "
               "test). The p-value moves in steps of 1/(B + 1); plans are for the B given."))
    with c3:
        seed = controls.seed_control(KEYS["seed"])
    s = replace(s, reps=int(reps), n_boot=int(n_boot), seed=int(seed))
    if m is not None:
        st.caption(page.accuracy_caption(m, s, machine_speed()))
    return s


# --- The searches, their tables and sentences ---------------------------------------------------

def with_progress(search, *args):
    """``search(*args, progress)`` with a bar shown only while cells are simulated."""
    slot = st.empty()

    def progress(fraction: float, label: str) -> None:
        if fraction < 1:
            slot.progress(min(1.0, max(0.0, fraction)),
                          text=t("Simulating the {what}…", what=words.progress_text(label)))

    try:
        return search(*args, progress)
    finally:
        slot.empty()


def planned(kit: PageKit, comp: page.Comparison, s: page.Settings, searches, *,
            opened: bool, key: str) -> list | None:
    """The plans of ``searches`` (page.sample_size_plan, page.privacy_plan): recalled at
    once when every setting they need was simulated before; else simulated now, with a
    progress bar, when the page or tab was just ``opened`` or on request (kit.ask, button
    ``key``); else None."""
    plans = [page.recalled(search, comp, s) for search in searches]
    missing = sum(plan is None for plan in plans)
    if missing and not opened and not kit.ask(
            page.offer_text(comp, s, missing, machine_speed()), key=key,
            help=t("Simulate the searches at these settings.")):
        return None
    return [plan if plan is not None else with_progress(search, comp, s)
            for plan, search in zip(plans, searches)]


def sentence_box(text: str, ok: bool) -> None:
    (st.success if ok else st.warning)(text, icon=":material/lightbulb:" if ok else
                                       ":material/warning:")


# How a verdict on your plan is shown: its colour under the value, and its box (st.error
# is kept for errors: a plan that is not enough is bad news, shown as the page's other bad
# news is, in a warning).
VERDICT_COLORS = {planner.REACHED: "normal", planner.NOT_REACHED: "inverse",
                  planner.UNDETERMINED: "off"}
VERDICT_BOXES = {planner.REACHED: (st.success, ":material/check_circle:"),
                 planner.NOT_REACHED: (st.warning, ":material/cancel:"),
                 planner.UNDETERMINED: (st.info, ":material/help:")}


def verdict_box(verdict: words.Verdict) -> None:
    box, icon = VERDICT_BOXES[verdict.state]
    box(verdict.sentence, icon=icon)


def points_table(kit: PageKit, points, key: str, name: str, file: str | None = None) -> None:
    kit.table(page.cells_shown(points), csv=points, key=key, name=name, file=file,
              hide_index=True, column_config=headed(
        page.table_headers(), {
        "n": st.column_config.NumberColumn(t("N"), format="localized"),
        "alpha1": st.column_config.NumberColumn(t("ε_A"), format="%.4g"),
        "alpha2": st.column_config.NumberColumn(t("ε_B"), format="%.4g"),
        "power": st.column_config.NumberColumn(format="%.3f"),
        "ci_low": st.column_config.NumberColumn(format="%.3f"),
        "ci_high": st.column_config.NumberColumn(format="%.3f")}))


def metric(kit: PageKit, column, label: str, value, text: str, *, delta: str, help: str,
           color: str = "off", given: bool = False):
    """A metric of a plan: ``text`` shown, ``value`` kept for the view's code."""
    kit.metric(label, value, text, where=column, given=given, border=True, delta=delta,
               delta_color=color, delta_arrow="off", help=help)


def keep_points(kit: PageKit, points, x: str, label: str) -> None:
    """Keep the simulated points' numbers for the view's code: the rejections at each N or
    ε_A (``x``), under ``label`` (a template of x)."""
    for value, rejections in zip(points[x], points["rejections"]):
        kit.number(label.format(x=int(value) if x == "n" else float(value)), int(rejections))


# --- 1. How much data? --------------------------------------------------------------------------

def data_section(kit: PageKit, comp: page.Comparison, s: page.Settings, opened: bool) -> None:
    st.markdown(words.data_intro(comp, s))
    plans = planned(kit, comp, s, [page.sample_size_plan], opened=opened, key="plan_sim_data")
    if plans is None:
        return
    plan, = plans
    verdict = words.data_verdict(plan, s)
    labels = page.number_labels(s)
    c1, c2, c3 = st.columns(3)
    metric(kit, c1, labels["n_needed"], page.estimate_value(plan), words.n_text(plan),
           delta=t("for {power:.0%} power at {alphas}", power=s.power, alphas=s.alpha_words()),
           help=t("The estimate: where the simulated power crosses the target, interpolated on "
                  "a log scale between the two nearest simulated N, rounded to the precision "
                  "of its Monte Carlo interval (beside it)."))
    metric(kit, c2, labels["n_interval"], list(plan.interval), words.n_interval_text(plan),
           delta=t("from {count} simulated N", count=len(plan.points)),
           help=t("From the largest simulated N whose power is clearly below the target to the "
                  "smallest clearly above it (95% Wilson intervals), under monotone power."))
    metric(kit, c3, labels["your_n"], s.n, f"{s.n:,}", delta=verdict.label,
           color=VERDICT_COLORS[verdict.state], given=True,
           help=t("The N of your plan, above, against the Monte Carlo interval of the N "
                  "needed: enough at or above its upper end, not enough at or below its lower "
                  "end, undetermined in between."))
    sentence_box(words.describe_sample_size(plan, comp.difference_md), words.good_news(plan))
    with kit.leading():  # presenting: the verdict and the chart first under the title
        verdict_box(verdict)
    kit.finding(words.describe_sample_size(plan, comp.difference))
    with kit.leading():
        kit.chart(page.data_figure(plan, s), key="plan_fig_data",
                  name=page.data_figure_name(s), file=page.data_figure_file(s))
    st.caption(words.data_caption(plan, s))
    with st.expander(t("The simulated points")):
        points_table(kit, plan.points, "plan_points_data", t("Simulated power against N"))
    keep_points(kit, plan.points, "n", labels["points_n"])
    kit.code(page.code_builder(comp, s))


# --- 2. How much privacy? -----------------------------------------------------------------------

def privacy_section(kit: PageKit, comp: page.Comparison, s: page.Settings,
                    opened: bool) -> None:
    st.markdown(words.privacy_intro(comp, s))
    plans = planned(kit, comp, s, [page.privacy_plan], opened=opened, key="plan_sim_privacy")
    if plans is None:
        return
    plan, = plans
    verdict = words.privacy_verdict(plan, s)
    labels = page.number_labels(s)
    c1, c2, c3 = st.columns(3)
    metric(kit, c1, labels["alpha_needed"], page.estimate_value(plan), words.alpha_text(plan),
           delta=t("for {power:.0%} power with N = {n:,}", power=s.power, n=s.n),
           help=t("The estimate: where the simulated power crosses the target, interpolated on "
                  "a log scale between the two nearest simulated ε, rounded to the precision "
                  "of its Monte Carlo interval (beside it). Smaller ε = stronger privacy = "
                  "more noise."))
    metric(kit, c2, labels["alpha_interval"], list(plan.interval),
           words.alpha_interval_text(plan),
           delta=t("from {count} simulated ε", count=len(plan.points)),
           help=t("From the largest simulated ε whose power is clearly below the target to the "
                  "smallest clearly above it (95% Wilson intervals), under monotone power."))
    metric(kit, c3, labels["your_alpha"], s.alpha1, fmt_number(s.alpha1),
           delta=verdict.label, color=VERDICT_COLORS[verdict.state], given=True,
           help=t("The ε of your plan, above, against the Monte Carlo interval of the "
                  "strongest affordable: affordable at or above its upper end, too strong at "
                  "or below its lower end, undetermined in between."))
    sentence_box(words.describe_privacy(plan, comp.difference_md), words.good_news(plan))
    with kit.leading():  # presenting: the verdict and the chart first under the title
        verdict_box(verdict)
    kit.finding(words.describe_privacy(plan, comp.difference))
    with kit.leading():
        kit.chart(page.privacy_figure(plan, s), key="plan_fig_privacy",
                  name=page.privacy_figure_name(s), file=page.privacy_figure_file(s))
    st.caption(words.privacy_caption(plan, s))
    with st.expander(t("The simulated points")):
        # The name is the download's file name: kept with the symbol it had (α).
        points_table(kit, plan.points, "plan_points_privacy", t(page.PRIVACY_POINTS[0]),
                     page.PRIVACY_POINTS[1])
    keep_points(kit, plan.points, "alpha1", labels["points_alpha"])
    kit.code(page.code_builder(comp, s))


# --- 3. Frontier --------------------------------------------------------------------------------

def frontier_controls(s: page.Settings) -> page.Settings:
    c1, c2 = st.columns([2, 1])
    low, high = c1.select_slider(
        t("Range of ε"), controls.ALPHA_GRID, value=DEFAULT.frontier_range,
        format_func=fmt_number, key=KEYS["frontier_range"], bind="query-params",
        help=t("The privacy levels of the frontier: from the strongest privacy (left) to the "
               "weakest (right). Log scale, 0.001 to 10."))
    points = c2.slider(
        t("Points"), *page.FRONTIER_POINTS, value=DEFAULT.frontier_points,
        key=KEYS["frontier_points"], bind="query-params",
        help=t("How many privacy levels, log-spaced over the range and rounded to one "
               "significant digit."))
    return replace(s, frontier_range=(float(low), float(high)), frontier_points=int(points))


def frontier_section(kit: PageKit, comp: page.Comparison, s: page.Settings,
                     opened: bool) -> None:
    """The frontier: computed on its button alone (opening the tab does not start it)."""
    st.markdown(words.frontier_intro(s.test))
    s = frontier_controls(s)
    alphas = page.frontier_alphas(s)
    st.caption(page.frontier_caption(comp.m, s, alphas, machine_speed()))
    run = st.button(t("Compute the frontier"), type="primary", icon=":material/play_arrow:",
                    key="plan_fr_run",
                    help=t("Runs a search for the N needed at each ε, for both tests, and "
                           "checks each test's type-I error there."))
    params = page.frontier_params(comp, s, alphas)
    if run:
        refusal = page.frontier_refusal(comp.m, s, alphas, machine_speed())
        if refusal is not None:
            kit.error(refusal)
        else:
            st.session_state[FRONTIER_STATE] = {
                "params": params, "table": with_progress(page.frontier, comp, s)}
    last = st.session_state.get(FRONTIER_STATE)
    if last is None:
        st.info(t("Press *Compute the frontier* to draw it."), icon=":material/timeline:")
        kit.code(page.code_builder(comp, s))  # the comparison; the frontier not computed
        return
    stale = last["params"] != params
    if stale:
        st.info(t("The settings have changed since this frontier was computed: it shows the "
                  "last one computed. Press the button to update it."),
                icon=":material/history:")
        kit.note(t("The frontier was computed with other settings than those listed (the last "
                   "one computed is shown)."))
    # The code computes the frontier at these settings: not the one shown when it is stale.
    kit.code(page.code_builder(
        comp, s, frontier=None if stale else ("grid", *s.frontier_range, s.frontier_points),
        frontier_stale=stale))
    frontier_outputs(kit, last["table"], s, last["params"]["level"], last["params"]["power"],
                     "plan", keep=not stale)


def frontier_outputs(kit: PageKit, table, s: page.Settings, level: float, power: float,
                     prefix: str, *, warn: bool = True, keep: bool = True) -> None:
    """The frontier's chart and table (keys start with ``prefix``); its findings go to the
    report, and with ``warn`` the naive test's flaw is shown as a warning; with ``keep``,
    its numbers are kept for the view's code (not those of a frontier of other settings)."""
    if keep:
        for label, value in page.frontier_numbers(table, page.number_labels(s)).items():
            kit.number(label, value)
    kit.chart(page.frontier_figure(table, s, level, power), key=f"{prefix}_fig_frontier",
              name=t("The privacy-utility frontier"))
    st.caption(words.frontier_caption(table))
    summary = words.frontier_summary(table, level)
    if warn and summary:
        st.warning(summary, icon=":material/gpp_bad:")
    for sentence in words.frontier_findings(table, level, power):
        kit.finding(sentence)
    # The N needed shown to the precision of its interval, the type-I error with its
    # interval, in one column each: seven columns, none cut at 1,280 px (issue 36). The
    # CSV keeps every column as numbers.
    shown = page.cells_shown(table.assign(n=words.frontier_n_texts(table),
                                          type1=page.type1_texts(table)))
    kit.table(shown, csv=table, key=f"{prefix}_frontier_table", name=t("The frontier"),
              hide_index=True, column_order=page.FRONTIER_SHOWN,
              column_config=headed(page.table_headers(), {
                  "alpha1": st.column_config.NumberColumn(t("ε_A"), format="%.3g"),
                  "alpha2": st.column_config.NumberColumn(t("ε_B"), format="%.3g"),
                  "n": st.column_config.TextColumn(t("N needed")),
                  "type1": st.column_config.TextColumn(t("type-I error (95% interval)")),
                  "valid": st.column_config.CheckboxColumn(t("holds its level"))}))


# --- 4. Report ----------------------------------------------------------------------------------

def report_section(kit: PageKit, comp: page.Comparison, s: page.Settings,
                   opened: bool) -> None:
    plans = planned(kit, comp, s, [page.sample_size_plan, page.privacy_plan], opened=opened,
                    key="plan_sim_report")
    if plans is None:
        return
    data_plan, privacy = plans
    last = st.session_state.get(FRONTIER_STATE)
    frontier = page.frontier_for(last, comp, s)
    labels = page.number_labels(s)
    st.markdown(t("##### In plain words"))
    c1, c2 = st.columns(2)
    kit.metric(labels["n_needed"], page.estimate_value(data_plan), words.n_text(data_plan),
               where=c1, border=True,
               help=t("At {alphas}, with its Monte Carlo interval: {estimate}; see the tab How "
                      "much data?", alphas=s.alpha_words(), estimate=words.n_full(data_plan)))
    kit.metric(labels["alpha_needed"], page.estimate_value(privacy), words.alpha_text(privacy),
               where=c2, border=True,
               help=t("With N = {n:,} per group, with its Monte Carlo interval: {estimate}; see "
                      "the tab How much privacy?", n=s.n, estimate=words.alpha_full(privacy)))
    kit.code(page.code_builder(
        comp, s, frontier=None if frontier is None else ("levels", last["params"]["alphas"])))
    kit.finding(words.describe_sample_size(data_plan, comp.difference))
    kit.finding(words.describe_privacy(privacy, comp.difference))
    shown = [words.describe_sample_size(data_plan, comp.difference_md),
             words.describe_privacy(privacy, comp.difference_md)]
    if frontier is not None:
        shown += words.frontier_findings(frontier, s.level, s.power)
    st.markdown("\n".join(f"- {sentence}" for sentence in shown))
    st.markdown(t("##### Settings"))
    st.dataframe(words.report_table(comp, s), hide_index=True, key="plan_report_settings")
    kit.report_button(
        key="plan_dl_report",
        help=t("A one-page, self-contained HTML file to send to someone without the dashboard: "
               "the findings, the settings, every chart and table below. The Report button at "
               "the top of the page gives the same file."))
    st.caption(words.report_caption(frontier is not None))
    with st.expander(t("The charts and tables of the report"), expanded=False):
        kit.chart(page.data_figure(data_plan, s), key="plan_report_fig_data",
                  name=page.data_figure_name(s),
              file=page.data_figure_file(s))
        points_table(kit, data_plan.points, "plan_report_points_data",
                     t("Simulated power against N"))
        kit.chart(page.privacy_figure(privacy, s), key="plan_report_fig_privacy",
                  name=page.privacy_figure_name(s),
              file=page.privacy_figure_file(s))
        points_table(kit, privacy.points, "plan_report_points_privacy",
                     t(page.PRIVACY_POINTS[0]),
                     page.PRIVACY_POINTS[1])
        keep_points(kit, data_plan.points, "n", labels["points_n"])
        keep_points(kit, privacy.points, "alpha1", labels["points_alpha"])
        if frontier is not None:
            frontier_outputs(kit, frontier, s, s.level, s.power, "plan_report", warn=False)


# --- Explanation --------------------------------------------------------------------------------

def explanation() -> None:
    with st.expander(t("What the planner computes, and what it assumes"), expanded=False):
        st.markdown(t(
            "**Power.** Two histograms of N people each are released with the Laplace "
            "mechanism, $X_i = \\max\\{0,\\, C_i + \\mathrm{Lap}(2/\\varepsilon_i)\\}$. The "
            "parametric bootstrap test (Algorithm 1) asks whether the two populations differ. "
            "Its **power** is how often it finds the difference you described; the planner "
            "estimates it by simulation (Algorithm 2): R replicate pairs are drawn and tested, "
            "and the power is the share of rejections."))
        st.latex(t(r"\widehat{\mathrm{power}}(N, \varepsilon) = \frac{1}{R}\sum_{r=1}^{R} "
                 r"I\big(p_r < \text{level}\big),\qquad "
                 r"\mathrm{TV}(p_A, p_B) = \tfrac12 \sum_{j=1}^{M} |p_{Aj} - p_{Bj}|"))
        st.markdown(t(
            "**The two questions.** With π the target power, the planner finds the smallest N "
            "at your ε, and the smallest ε (the strongest privacy) at your N:"))
        st.latex(t(r"N^*(\varepsilon) = \min\{N : \mathrm{power}(N, \varepsilon) \ge \pi\},\qquad "
                 r"\varepsilon^*(N) = \min\{\varepsilon : \mathrm{power}(N, \varepsilon) \ge \pi\}"))
        st.markdown(t(
            "**Monotonicity.** Power is assumed to grow with N (more data) and with ε (less "
            "noise). It is what the paper's Figures 11 and 12(b) show, but not a theorem for a "
            "simulated test. The search brackets the target by factors of 10, then bisects on "
            "a log scale to 5%, and interpolates between the two nearest points.\n\n"
            "**Monte Carlo interval.** Each point has a 95% Wilson interval. The interval of "
            "the estimate runs from the largest simulated value whose power is clearly below "
            "the target to the smallest clearly above it. It holds the true crossing when those "
            "two Wilson intervals do. More replicates R narrow it.\n\n"
            "**Which test.** The parametric bootstrap test is Algorithm 1 of Son, Park & Jung "
            "(2022). The "
            "normal-score test (this project) estimates each group's N from the noisy total and "
            "builds its statistic from normal scores; it keeps its level in more settings than "
            "Algorithm 1 (different N or ε in the two groups, strong privacy) but is 6.5–8% "
            "where counts and noise are of one size, at a higher cost per simulated setting. The control *Test* chooses which one the plan is for; the "
            "frontier runs it beside the naive χ² test.\n\n"
            "**Reproducible.** Every setting (N, ε_A, ε_B, test) draws from its own random "
            "stream, derived from the seed, so the same address with the same seed gives the "
            "same numbers. Settings already simulated on this server are reused.\n\n"
            "**The naive χ² test** compares the noisy counts with the χ² distribution, as if "
            "there were no noise. On private histograms it rejects far too often, even when "
            "there is no difference. The *Frontier* tab shows that its type-I error is far "
            "above the level wherever it seems to need less data."))
        to_page(registry.CALIBRATION).show(
            t("Type-I error of both tests: see the page Test calibration"),
            help=t("How often each test rejects when there is no difference, against N, as in "
                   "the paper's Figures 9, 10 and 12(a)."))
        st.caption(words.source_line())


# ------------------------------------------------------------------------------------------------

SECTIONS = {page.DATA_TAB: data_section, page.PRIVACY_TAB: privacy_section,
            page.FRONTIER_TAB: frontier_section, page.REPORT_TAB: report_section}


def main() -> None:
    kit = page_header(t(page.TITLE))
    kit.try_this(registry.PLANNER, list(page.EXPERIMENTS))
    st.markdown(t(
        "Differential privacy costs accuracy: the smaller the privacy level ε, the more noise, "
        "and the more people are needed to see a difference between two groups. Following "
        "Son, Park & Jung (2022, section 5), this page measures utility as the **power** of the "
        "parametric bootstrap test: how often it finds the difference that matters to you. It "
        "answers two questions: *how much data* does a privacy level need, and *how much "
        "privacy* can a sample size afford?"))
    # Whether this run opens the page or its tab (then the tab's search simulates by itself),
    # read before anything can stop the page: a run that ends in an error still counts as
    # having shown its tab, so fixing the error is a moved control like any other.
    opened = kit.opened(st.session_state.get("plan_tab", t(page.DATA_TAB)))
    s = page.Settings.unset()
    with st.container(border=True):
        st.markdown(t("##### 1. What should the test detect?"))
        left, right = st.columns([1.3, 1], gap="large")
        with left:
            s, comp, problem = comparison_controls(s, kit.url_in)
            s = level_power_controls(s)
        with right:
            comparison_summary(kit, comp, problem)
    with st.container(border=True):
        st.markdown(t("##### 2. Your plan: privacy level and people per group"))
        s = choice_controls(s)
    with st.expander(t("Accuracy of the simulation: replicates, bootstrap, seed and cost")):
        s = accuracy_controls(s, comp.m if comp is not None else None)
    if problem is not None:
        if not problem.waiting:  # the Code button says why this view has no code
            kit.code_problem = problem.message
        explanation()
        kit.stop()

    kit.settings(comp)
    kit.settings(s)
    for note in words.report_notes():
        kit.note(note)
    refusal = page.search_refusal(comp, s, machine_speed())
    # The key written out: tests/test_hardening.py finds a page's tabs in its source.
    tabs = st.tabs([t(name) for name in SECTIONS], key="plan_tab", bind="query-params")
    for tab, (name, section) in zip(tabs, SECTIONS.items()):
        with tab:
            if tab.open is False:
                continue
            if refusal is not None and section is not frontier_section:
                kit.error(refusal)
                kit.code_problem = refusal  # no search: no code, and the Code button says why
                continue
            try:
                section(kit, comp, replace(s, tab=name), opened)
            except ValueError as exc:  # dpcore's argument errors, in plain words
                message = t("These settings cannot be used: {error}", error=page.error_text(exc))
                kit.error(message)
                kit.code_builder, kit.code_problem = None, message
    oneperson.section(kit, s.one_person(), oneperson.eps_comparison(), key="plan_op")
    explanation()
    kit.end()


main()
