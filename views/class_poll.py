"""Page: the class poll by randomized response (issue 37, activity 1).

Without ``?code=`` in the address: the teacher's setup (the question, its answers, ε). With
it: the teacher's view (their browser holds the activity's key: ui.classroom) with the join
code and the live results, or a student's, whose phone randomizes their answer before
sending it (ui.device).

Layout and widgets only: the settings, the results, the student's submit and the sentences
are ui/pages/class_poll.py's; the database and who is who are ui.classroom's.
"""

from __future__ import annotations

import streamlit as st

import dpviz.poll
from dpclass import activities, storage
from ui import classroom, device, registry
from ui.format import fmt_number, headed
from ui.kit import PageKit
from ui.pages import class_poll as page
from ui.text import esc, t

FINDING = "class_poll_finding"  # session state: the finding the live results gave last


# --- The teacher's setup -------------------------------------------------------------------

def setup() -> None:
    st.markdown(t("A sensitive question for the whole class, answered by **randomized "
                  "response**: each student taps their true answer on their phone, and the "
                  "phone itself sends either that answer or, by chance, another one. The "
                  "teacher's screen estimates how many students gave each answer, and how "
                  "sure that estimate is, without anyone ever seeing a true answer."))
    st.page_link(registry.CLASS_JOIN.script, label=t("A student? Join with the code instead"),
                 icon=":material/login:",
                 help=t("Opens the Class page, where students type their teacher's code."))
    with st.form("class_poll_setup", border=True, enter_to_submit=False):
        st.subheader(t("Start a poll"), anchor=False)
        question = st.text_area(
            t("Question"), value=t(page.DEFAULT_QUESTION), max_chars=activities.QUESTION_MAX,
            height=90, key="class_poll_question",
            help=t("What the students answer: at most {n} characters. It is shown as typed.",
                   n=activities.QUESTION_MAX))
        answers = st.text_area(
            t("Answers, one per line"), value="\n".join(t(a) for a in page.DEFAULT_ANSWERS),
            height=120, key="class_poll_answers",
            help=t("{low} to {high} answers, each on its own line, at most {n} characters, "
                   "all different.", low=activities.ANSWERS_MIN, high=activities.ANSWERS_MAX,
                   n=activities.ANSWER_MAX))
        eps = st.select_slider(
            t("Privacy level ε"), options=page.EPS_GRID, value=page.DEFAULT_EPS,
            format_func=fmt_number, key="class_poll_eps",
            help=t("Each student's privacy: what their phone sends is at most e^ε times more "
                   "likely under one true answer than under another. Smaller ε, more random "
                   "answers, more privacy, a wider interval. Log scale, 0.05 to 10."))
        st.caption(t("Each student's phone perturbs their answer with k-ary randomized "
                     "response at this ε before sending it: the true answer never leaves the "
                     "phone."))
        started = st.form_submit_button(
            t("Start the poll"), type="primary", icon=":material/play_arrow:",
            help=t("Creates the poll and opens its teacher's view, with the join code and "
                   "QR code to project."))
    if started:
        with classroom.refusals():
            classroom.start("poll", page.config(question, answers, eps))


# --- The results (teacher and student) -----------------------------------------------------

def forget(kit: PageKit) -> None:
    """Take out of the kit what the live results gave it on their last run (a fragment's
    rerun draws them again)."""
    page.forget(kit, st.session_state.pop(FINDING, None))


def shares_chart(kit: PageKit, answers: list[str], r: page.Results, *, key: str) -> None:
    kit.chart(dpviz.poll.poll_shares_figure(
        answers, r.reported, r.estimate, r.lower, r.upper,
        interval_name=t("approx. 95 % interval")), key=key, name=t(page.SHARES_NAME))
    finding = page.estimate_finding(answers, r)
    kit.finding(finding)
    st.session_state[FINDING] = finding


def counts_of(code: str):
    """The reported counts, or None with the refusal shown."""
    return classroom.read("poll_counts", code)


def live_results(kit: PageKit, code: str, answers: list[str], eps: float) -> None:
    """The teacher's results, read again every few seconds (a fragment: the page around it
    does not rerun)."""
    forget(kit)
    counts = counts_of(code)
    if counts is None:
        return
    n = int(counts.sum())
    kit.metric(t("Answers received"), n, f"{n:,}", border=True,
               help=t("How many students' phones have sent their answer, read again every "
                      "{s} seconds while the poll is open.", s=f"{classroom.LIVE_EVERY_S:g}"))
    r = page.results(counts, eps)
    if r is None:
        st.info(t("The estimate appears once at least {m} students have answered.",
                  m=page.MIN_ANSWERS), icon=":material/hourglass_empty:")
        return
    shares_chart(kit, answers, r, key="class_poll_fig_shares")
    st.caption(page.interval_caption())
    percent = st.column_config.NumberColumn(format="percent")
    kit.table(page.results_table(answers, r), key="class_poll_table", name=t(page.TABLE_NAME),
              hide_index=True, column_config=headed(
                  {c: t(h) for c, h in page.TABLE_HEADERS.items()},
                  {"answer": st.column_config.TextColumn(width="medium"),
                   **{c: percent for c in ("reported share", "estimated share",
                                           "interval from", "interval to")}}))
    sizes = page.class_sizes(r.n)
    now, later = page.widest_halfwidth(r, eps, [r.n, 4 * r.n])
    st.markdown(page.scaling_sentence(r.n, now, later))
    with st.expander(t(page.SCALING_NAME), icon=":material/trending_down:"):
        kit.chart(dpviz.poll.poll_scaling_figure(sizes, page.widest_halfwidth(r, eps, sizes),
                                                 current=r.n),
                  key="class_poll_fig_scaling", name=t(page.SCALING_NAME))
        st.caption(t("The widest of the answers' half-widths at {sizes} students, at the "
                     "shares estimated now.", sizes=", ".join(f"{s:,}" for s in sizes)))


def shared_results(kit: PageKit, code: str, answers: list[str], eps: float) -> None:
    """A student's view of the class's results, once the teacher shows them (looked for
    again every few seconds)."""
    forget(kit)
    if classroom.shared(code, t("Your teacher will show the class's results here.")) is None:
        return
    counts = counts_of(code)
    if counts is None:
        return
    st.subheader(t("The class's results"), anchor=False)
    r = page.results(counts, eps)
    if r is None:
        st.info(t("The estimate appears once at least {m} students have answered.",
                  m=page.MIN_ANSWERS), icon=":material/hourglass_empty:")
        return
    shares_chart(kit, answers, r, key="class_poll_fig_shares_student")
    st.markdown(page.estimate_list(answers, r))
    st.caption(page.interval_caption())


# --- The teacher's view --------------------------------------------------------------------

def teacher(kit: PageKit, visit: classroom.Visit) -> None:
    activity = visit.activity
    config = activity.config
    answers, eps = config["answers"], config["eps"]
    classroom.join_panel(activity)
    st.subheader(esc(config["question"]), anchor=False)
    st.caption(page.pq_caption(eps, len(answers)))
    if activity.closed:
        st.info(t("This poll is closed: it takes no more answers. The results below are "
                  "final."), icon=":material/lock:")
    kit.settings(page.report_settings(config))
    live = classroom.live(live_results, every=None if activity.closed
                       else classroom.LIVE_EVERY_S)
    live(kit, activity.code, answers, eps)
    classroom.teacher_tools(visit, on_close=t(
        "Takes no more answers; the results stay on this screen until the activity is "
        "deleted."))


# --- A student's view ----------------------------------------------------------------------

def answer(code: str, token: str, answers: list[str], eps: float, question: str,
           activity: storage.Activity) -> int | None:
    """The answer buttons, or why there are none; the index this browser's phone sent, once
    the class database holds it."""
    p, q = page.pq(eps, len(answers))
    sent = page.sent_answer(code)
    if sent is not None:
        device.krr_answer(answers, p, q, key=page.ANSWER_KEY, sent=sent, question=question)
        return sent
    pending = page.pending_answer(code)
    if pending is not None:
        st.warning(t("Your phone's answer is not saved yet: the class database could not be "
                     "reached."), icon=":material/cloud_off:")
        if st.button(t("Send it again"), key="class_poll_resend", type="primary",
                     icon=":material/send:",
                     help=t("Sends the same answer your phone drew: no new draw, so it says "
                            "nothing more about your true answer.")):
            return pending if page.submit(code, token, pending) else None
        return None
    answered = classroom.read("has_answered", code, token)
    if answered is None:
        return None
    if answered:
        st.info(classroom.error_text(storage.AlreadyAnswered("")), icon=":material/task_alt:")
        return None
    if activity.closed:
        st.error(classroom.error_text(storage.Closed("")), icon=":material/lock:")
        return None
    hint = st.empty()  # the instruction, gone once the answer is sent
    hint.markdown(t("Tap your **true** answer. Your phone then sends either it or, by chance, "
                    "another answer: only what it sends leaves the phone."))
    j = device.krr_answer(answers, p, q, key=page.ANSWER_KEY, question=question)
    if j is not None and page.submit(code, token, j):
        hint.empty()
        return j
    return None


def student(kit: PageKit, visit: classroom.Visit) -> None:
    activity = visit.activity
    config = activity.config
    question, answers, eps = config["question"], config["answers"], config["eps"]
    st.subheader(esc(question), anchor=False)
    token = classroom.student_token()
    sent = answer(activity.code, token, answers, eps, question, activity)
    if sent is not None:
        st.success(page.sent_text(answers, sent, eps), icon=":material/verified_user:")
    kit.settings(page.report_settings(config))
    classroom.live(shared_results, every=None if activity.closed
                else page.STUDENT_EVERY_S)(kit, activity.code, answers, eps)


# ------------------------------------------------------------------------------------------

classroom.run_page(registry.CLASS_POLL, "poll", setup=setup, teacher=teacher, student=student)
