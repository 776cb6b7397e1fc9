"""Page: the private class histogram with a privacy budget (issue 37, activity 3).

Without ``?code=`` in the address: the teacher's setup (what students enter, the bins, the
groups, the total privacy budget). With it: the teacher's view (their browser holds the
activity's key: ui.classroom), with the join code, the live number of values, the release
control and the budget meter, the releases and a comparison of two groups; or a student's,
who sends their value once and sees the releases when the teacher shows them.

The teacher's screen is projected: it never shows the class's raw counts, only releases
(each the truncated Laplace histogram of Son, Park & Jung 2022, eq. 2.4).

Layout and widgets only: the settings, the budget, the comparison and the sentences are
ui/pages/class_histogram.py's; the database and who is who are ui.classroom's.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import dpviz.classhist
from dpclass import activities, storage
from ui import classroom, registry
from ui.format import fmt_number
from ui.kit import PageKit
from ui.pages import class_histogram as page
from ui.text import esc, t

RELEASE_KEY = "class_hist_release"  # the teacher's chooser of the release shown (+ _n)
JUST_RELEASED = "class_hist_just_released"  # session state: (k, α) of the release just made
STUDENT_SAID = "class_hist_student_said"  # session state: the findings the fragment gave


# --- The teacher's setup -------------------------------------------------------------------

def setup() -> None:
    st.markdown(t("A class histogram with **differential privacy**: each student sends one "
                  "value from their phone, and the teacher's screen shows only noisy "
                  "releases of the class's histogram, never the true counts. Each release "
                  "spends part of a total **privacy budget**; when it is spent, no more "
                  "releases can be made."))
    st.page_link(registry.CLASS_JOIN.script, label=t("A student? Join with the code instead"),
                 icon=":material/login:",
                 help=t("Opens the Class page, where students type their teacher's code."))
    with st.form("class_hist_setup", border=True, enter_to_submit=False):
        st.subheader(t("Start a class histogram"), anchor=False)
        question = st.text_area(
            t("What students enter"), value=t(page.DEFAULT_QUESTION),
            max_chars=activities.QUESTION_MAX, height=90, key="class_hist_question",
            help=t("The question the students answer: at most {n} characters. It is shown "
                   "as typed.", n=activities.QUESTION_MAX))
        bins = st.text_area(
            t("Bins, one per line"), value="\n".join(page.DEFAULT_BINS), height=170,
            key="class_hist_bins",
            help=t("The answers a student chooses from, in order: {low} to {high} bins, each "
                   "on its own line, at most {n} characters, all different.",
                   low=activities.BINS_MIN, high=activities.BINS_MAX, n=activities.ANSWER_MAX))
        groups = st.text_area(
            t("Groups, one per line"), value="\n".join(t(g) for g in page.DEFAULT_GROUPS),
            height=90, key="class_hist_groups",
            help=t("1 to {high} groups a student belongs to (e.g. two sections), each on its "
                   "own line, all different. With two or more, the page compares them.",
                   high=activities.GROUPS_MAX))
        budget = st.select_slider(
            t("Total privacy budget α"), options=page.BUDGET_GRID, value=page.DEFAULT_BUDGET,
            format_func=fmt_number, key="class_hist_budget",
            help=t("The most all releases together may spend: the sum of their α. Smaller, "
                   "more privacy and noisier releases. Log scale, 0.1 to 20."))
        st.caption(t("Each release adds Laplace noise of scale 2/α to every count and sets "
                     "counts below 0 to 0 (Son, Park & Jung 2022, eq. 2.4); the releases' α "
                     "add up to at most the budget."))
        started = st.form_submit_button(
            t("Start"), type="primary", icon=":material/play_arrow:",
            help=t("Creates the activity and opens its teacher's view, with the join code and "
                   "QR code to project."))
    if started:
        with classroom.refusals():
            classroom.start("histogram", page.config(question, bins, groups, budget))


# --- What teacher and student share ----------------------------------------------------------

def releases_of(code: str) -> list[tuple[float, np.ndarray]] | None:
    """The activity's releases, oldest first, or None with the refusal shown."""
    return classroom.read("releases", code)


def show_release(kit: PageKit, config: dict, releases, *, key: str, chart_key: str,
                 horizontal: bool) -> tuple[int, float, np.ndarray, str]:
    """The chooser of the release shown (the latest first) and its chart; returns the
    release's number k (1 the oldest), α, noisy counts and the finding it gave. The chooser
    is keyed by the number of releases: a new release (from this screen or another) is
    shown at once, and its options' labels never go stale in the browser."""
    n = len(releases)
    k = st.selectbox(t("Release shown"), list(range(n, 0, -1)), key=f"{key}_{n}",
                     format_func=lambda j: page.release_label(j, releases[j - 1][0], n),
                     help=t("Every release made, the latest first; each spent its α of the "
                            "budget."))
    alpha, noisy = releases[k - 1]
    kit.chart(dpviz.classhist.release_figure(config["bins"], config["groups"], noisy,
                                             horizontal=horizontal),
              key=chart_key, name=t(page.RELEASE_NAME))
    st.caption(page.release_caption(alpha))
    finding = page.release_finding(k, alpha, config["bins"], config["groups"], noisy)
    kit.finding(finding)
    return k, alpha, noisy, finding


# --- The teacher's view --------------------------------------------------------------------

def live_count(kit: PageKit, code: str) -> None:
    """How many values have arrived, read again every few seconds (a fragment). Never the
    counts themselves: the screen is projected."""
    n = classroom.read("count", code)
    if n is None:
        return
    kit.metric(t("Values received"), n, f"{n:,}", border=True,
               help=t("How many students have sent their value (refreshed every {s} "
                      "seconds). The values themselves are never shown.",
                      s=f"{classroom.LIVE_EVERY_S:g}"))


def release_control(visit: classroom.Visit, m: page.Meter) -> None:
    """The next release's α and the Release button; a release the budget cannot pay for is
    refused by the class database in plain words, and nothing is recorded."""
    activity = visit.activity
    budget = activity.config["budget"]
    alpha = st.select_slider(
        t("Privacy level α of the next release"), options=page.alpha_options(budget),
        value=page.default_alpha(budget), format_func=fmt_number, key="class_hist_alpha",
        help=t("Each count gets Laplace noise of scale 2/α. Smaller α: more noise, less of "
               "the budget spent. Log scale, {low} up to the whole budget.",
               low=fmt_number(page.ALPHA_MIN)))
    if alpha > m.left * (1 + 1e-9):
        st.caption(page.over_budget_hint(alpha, m))
    just = st.session_state.pop(JUST_RELEASED, None)
    if st.button(t("Release"), type="primary", key="class_hist_release_button",
                 icon=":material/publish:",
                 help=t("Releases every group's histogram at this α, with fresh noise, and "
                        "spends α of the budget.")):
        with classroom.refusals():
            classroom.store().release(activity.code, visit.key, alpha, page.fresh_release)
            st.session_state[JUST_RELEASED] = alpha
            st.rerun()
    elif just is not None:
        st.success(t("Released at α = {alpha}.", alpha=fmt_number(just)),
                   icon=":material/publish:")


def budget_meter(kit: PageKit, m: page.Meter, alphas: list[float], groups: int) -> None:
    """The budget meter: spent of total as a progress bar with the numbers, how it is
    counted, and each release's share of it."""
    st.subheader(t("The privacy budget"), anchor=False)
    with kit.leading(chart_height=300):  # presenting: first under the title
        st.progress(m.fraction, text=page.meter_text(m))
    kit.number(t("Budget spent α"), m.spent)
    kit.number(t("Budget left α"), m.left)
    st.caption(page.meter_caption(groups))
    if m.exhausted:
        st.info(t("The whole budget is spent: no more releases can be made."),
                icon=":material/block:")
    if alphas:
        kit.chart(dpviz.classhist.budget_figure(alphas, m.total), key="class_hist_fig_budget",
                  name=t(page.BUDGET_NAME))
    kit.finding(page.meter_finding(m))


def compare_groups(kit: PageKit, config: dict, k: int, alpha: float, noisy) -> None:
    """Two groups of the release shown, tested as the compare page tests two histograms."""
    groups = config["groups"]
    st.subheader(t("Compare two groups"), anchor=False)
    if len(groups) == 2:
        a, b = 0, 1
    else:
        left, right = st.columns(2)
        names = list(range(len(groups)))
        a = left.selectbox(t("First group"), names, index=0, format_func=lambda i: groups[i],
                           key="class_hist_cmp_a",
                           help=t("One of the two groups to compare on the release shown."))
        b = right.selectbox(t("Second group"), names, index=1,
                            format_func=lambda i: groups[i], key="class_hist_cmp_b",
                            help=t("The other group."))
        if a == b:
            st.info(t("Choose two different groups."), icon=":material/compare_arrows:")
            return
    noisy = np.asarray(noisy, dtype=float)
    try:
        c = page.compare(tuple(noisy[a].tolist()), tuple(noisy[b].tolist()), float(alpha),
                         page.comparison_seed(k, a, b))
    except ValueError as error:
        kit.error(page.comparison_error(error))
        return
    alert = st.warning if c.finds_difference else st.success
    alert(page.comparison_sentence(groups[a], groups[b], c), icon=":material/balance:")
    kit.finding(page.comparison_sentence(groups[a], groups[b], c, markdown=False))
    kit.metric(t("p-value"), c.result.pvalue, page.p_text(c.result), border=True,
               help=t("The Monte Carlo p-value (1 + the number of T_b ≥ T) / (B + 1) of "
                      "{n:,} bootstrap replicates T_b: never 0.", n=c.result.n_boot))
    st.caption(page.test_choice(groups[a], groups[b], c, alpha))
    st.caption(page.power_caption(alpha))


def teacher(kit: PageKit, visit: classroom.Visit) -> None:
    activity = visit.activity
    config = activity.config
    classroom.join_panel(activity)
    st.subheader(esc(config["question"]), anchor=False)
    st.caption(page.teacher_caption(config))
    kit.settings(page.report_settings(config))
    if activity.closed:
        st.info(t("This activity is closed: it takes no more values, and the students' raw "
                  "values are deleted, so no release can be made. The releases below stay "
                  "until the activity is deleted."), icon=":material/lock:")
    else:
        classroom.live(live_count, every=classroom.LIVE_EVERY_S)(kit, activity.code)
    releases = releases_of(activity.code)
    if releases is not None:
        m = page.meter(releases, config["budget"])
        budget_meter(kit, m, [a for a, _counts in releases], len(config["groups"]))
        if not activity.closed:
            st.subheader(t("Release"), anchor=False)
            release_control(visit, m)
        if releases:
            with kit.leading(chart_height=300):
                if not kit.in_lead:
                    st.subheader(t("The releases"), anchor=False)
                k, alpha, noisy, _said = show_release(
                    kit, config, releases, key=RELEASE_KEY, chart_key="class_hist_fig_release",
                    horizontal=False)
            if len(config["groups"]) > 1:
                compare_groups(kit, config, k, alpha, noisy)
        else:
            st.info(t("No release yet: once the students have sent their values, choose α "
                      "and press Release."), icon=":material/hourglass_empty:")
    classroom.teacher_tools(visit, on_close=t(
        "Takes no more values and deletes the raw values the students sent, at once: no "
        "release can be made after that. The releases already made stay on this screen "
        "until the activity is deleted."))


# --- A student's view ----------------------------------------------------------------------

def send_value(activity: storage.Activity, token: str) -> None:
    """The student's group and value and the Send button; or what was sent, or why there
    is nothing to send."""
    code, config = activity.code, activity.config
    bins, groups = config["bins"], config["groups"]
    sent = page.sent_value(code)
    if sent is not None:
        st.success(page.sent_text(bins, groups, *sent), icon=":material/verified_user:")
        st.caption(page.kept_note())
        return
    answered = classroom.read("has_answered", code, token)
    if answered is None:
        return
    if answered:
        st.info(classroom.error_text(storage.AlreadyAnswered("")), icon=":material/task_alt:")
        st.caption(page.kept_note())
        return
    if activity.closed:
        st.error(classroom.error_text(storage.Closed("")), icon=":material/lock:")
        return
    with st.form("class_hist_send", border=True, enter_to_submit=False):
        group = 0
        if len(groups) > 1:
            group = st.radio(t("Your group"), list(range(len(groups))), index=None,
                             format_func=lambda i: esc(groups[i]), key="class_hist_group",
                             help=t("The group you belong to, as your teacher named them."))
        value = st.radio(t("Your answer"), list(range(len(bins))), index=None,
                         format_func=lambda j: esc(bins[j]), key="class_hist_value",
                         help=t("Choose the one that fits you. It is sent once."))
        pressed = st.form_submit_button(
            t("Send"), type="primary", icon=":material/send:", width="stretch",
            help=t("Sends your choice to the class database, once."))
    st.caption(t("Only noisy releases of the whole class's histogram are ever shown, on any "
                 "screen."))
    if not pressed:
        return
    if group is None or value is None:
        st.warning(t("Choose your group and your answer first.") if len(groups) > 1
                   else t("Choose your answer first."), icon=":material/touch_app:")
        return
    with classroom.refusals():
        classroom.store().submit_value(code, token, group=group, value=value)
        page.keep_sent(code, group, value)
        st.rerun()


def shared_releases(kit: PageKit, code: str, config: dict) -> None:
    """The class's releases on a student's screen, once the teacher shows them (looked for
    again every few seconds)."""
    page.forget(kit, st.session_state.pop(STUDENT_SAID, []))
    if classroom.shared(code, t("Your teacher will show the class's releases here.")) is None:
        return
    releases = releases_of(code)
    if releases is None:
        return
    st.subheader(t("The class's releases"), anchor=False)
    if not releases:
        st.info(t("No release yet."), icon=":material/hourglass_empty:")
        return
    m = page.meter(releases, config["budget"])
    st.progress(m.fraction, text=page.meter_text(m))
    *_rest, finding = show_release(kit, config, releases, key="class_hist_release_student",
                                   chart_key="class_hist_fig_release_student", horizontal=True)
    st.session_state[STUDENT_SAID] = [finding]


def student(kit: PageKit, visit: classroom.Visit) -> None:
    activity = visit.activity
    config = activity.config
    st.subheader(esc(config["question"]), anchor=False)
    send_value(activity, classroom.student_token())
    kit.settings(page.report_settings(config))
    classroom.live(shared_releases, every=None if activity.closed
                else page.STUDENT_EVERY_S)(kit, activity.code, config)


# ------------------------------------------------------------------------------------------

classroom.run_page(registry.CLASS_HISTOGRAM, "histogram", setup=setup, teacher=teacher, student=student)
