"""Page: the class game "Be the attacker" (issue 37, activity 2).

Without ``?code=`` in the address: the teacher's setup (the mechanism, its level, the rounds
per student). With it: the teacher's view (their browser holds the activity's key:
ui.classroom) with the join code and the live trade-off plot of the class's guesses, or a
student's game, its rounds drawn and kept on the server (ui/pages/class_attack.py).

Layout and widgets only: the settings, the game, the verdict and the sentences are
ui/pages/class_attack.py's; the database and who is who are ui.classroom's.
"""

from __future__ import annotations

import streamlit as st

from dpclass import activities, storage
from ui import classroom, registry
from ui.format import fmt_number, headed
from ui.kit import PageKit
from ui.pages import class_attack as page
from ui.text import t


# --- The teacher's setup -------------------------------------------------------------------

def setup() -> None:
    st.markdown(t("A game for the whole class: each student plays the **attacker** of a "
                  "private count. Round after round their phone shows a number released with "
                  "privacy noise, and they guess whether it came from a data set D or from D′, "
                  "the same with one person more. Each student's false alarms and misses land "
                  "as a point on the mechanism's trade-off plot, live on the teacher's screen: "
                  "nobody gets beyond the curve by more than chance."))
    st.page_link(registry.CLASS_JOIN.script, label=t("A student? Join with the code instead"),
                 icon=":material/login:",
                 help=t("Opens the Class page, where students type their teacher's code."))
    with st.form("class_attack_setup", border=True, enter_to_submit=False):
        st.subheader(t("Start a game"), anchor=False)
        mechanism = st.radio(
            t("Mechanism"), page.MECHANISMS, horizontal=True, key="class_attack_mechanism",
            format_func=lambda m: t(page.MECHANISM_LABELS[m]),
            help=t("The noise added to the count: Laplace noise of scale 1/ε (ε-DP), or "
                   "Gaussian noise of standard deviation 1/μ (μ-GDP)."))
        level = st.select_slider(
            t("Privacy level: ε (Laplace) or μ (Gaussian)"), options=page.LEVEL_GRID,
            value=page.DEFAULT_LEVEL, format_func=fmt_number, key="class_attack_level",
            help=t("Smaller: more noise, more privacy, and guesses closer to a coin toss. "
                   "Log scale, {low} to {high}.", low=fmt_number(activities.EPS_MIN),
                   high=fmt_number(activities.EPS_MAX)))
        rounds = st.slider(
            t("Rounds per student"), activities.ROUNDS_MIN, activities.ROUNDS_MAX,
            page.DEFAULT_ROUNDS, step=page.ROUNDS_STEP, key="class_attack_rounds",
            help=t("How many numbers each student guesses. More rounds, shorter error bars; "
                   "20 take about two minutes."))
        started = st.form_submit_button(
            t("Start the game"), type="primary", icon=":material/play_arrow:",
            help=t("Creates the game and opens its teacher's view, with the join code and "
                   "QR code to project."))
    if started:
        with classroom.refusals():
            classroom.start("attack", page.config(mechanism, level, rounds))


# --- The results (teacher and student) -----------------------------------------------------

def forget(kit: PageKit) -> None:
    """Take out of the kit what the live results gave it on their last run (a fragment's
    rerun draws them again)."""
    page.forget(kit, st.session_state.pop(page.VERDICT_SAID, None))


def tallies_of(code: str):
    """The class's tallies, or None with the refusal shown."""
    found = classroom.read("attack_tallies", code)
    return None if found is None else page.tallies(found)


def verdict_said(kit: PageKit, v) -> None:
    """The verdict as a sentence on the screen and the report's finding."""
    said = page.verdict_sentence(v)
    if v.flagged:
        st.warning(said, icon=":material/priority_high:")
    else:
        st.success(said, icon=":material/verified_user:")
    kit.finding(said)
    st.session_state[page.VERDICT_SAID] = said


def live_results(kit: PageKit, code: str, settings: dict) -> None:
    """The teacher's plot and verdict, read again every few seconds (a fragment: the page
    around it does not rerun)."""
    forget(kit)
    counts = tallies_of(code)
    if counts is None:
        return
    v = page.verdict(counts, settings["mechanism"], settings["level"])
    plot, words = st.columns([3, 2], gap="medium")
    with plot:
        kit.chart(page.figure(settings, v), key="class_attack_fig", name=t(page.CLASS_NAME))
    with words:
        n = len(counts)
        kit.metric(t("Students who finished"), n, f"{n:,}", border=True,
                   help=t("Students who played all their rounds and whose results the class "
                          "database holds. Refreshed every {s} seconds.",
                          s=f"{classroom.LIVE_EVERY_S:g}"))
        if v is None:
            st.info(t("Each student's point appears when they finish their rounds."),
                    icon=":material/hourglass_empty:")
        else:
            verdict_said(kit, v)
        st.markdown(page.best_sentence(settings))
    if v is None:
        return
    st.caption(page.interval_caption(v))
    with st.expander(t(page.TABLE_NAME), icon=":material/table_rows:"):
        percent = st.column_config.NumberColumn(format="percent")
        kit.table(page.results_table(v), key="class_attack_table", name=t(page.TABLE_NAME),
                  hide_index=True, column_config=headed(
                      {c: t(h) for c, h in page.TABLE_HEADERS.items()},
                      {c: percent for c in ("alpha", "alpha from", "alpha to", "beta",
                                            "beta from", "beta to")}))


def student_results(kit: PageKit, code: str, settings: dict, own) -> None:
    """A student's point against the curve (``own``: their tally, None when this browser
    played in an earlier session), with the class's once the teacher shows the results
    (looked for again every few seconds)."""
    forget(kit)
    activity = classroom.read("get", code)
    if activity is None:
        return
    mine = page.verdict([own], settings["mechanism"], settings["level"]) if own else None
    you = mine.students[0] if mine is not None else None
    if not activity.shared:
        if mine is not None:
            kit.chart(page.figure(settings, None, you=you, you_verdict=mine, height=480),
                      key="class_attack_fig_own", name=t(page.OWN_NAME))
            st.caption(t("Error bars: the exact Clopper–Pearson {confidence} interval of each "
                         "of your rates: how far chance alone moves a point in {rounds} "
                         "rounds.", confidence=page.percent(mine.confidence),
                         rounds=own.rounds))
        st.info(t("Your teacher will show the class's results here."),
                icon=":material/co_present:")
        return
    counts = tallies_of(code)
    if counts is None:
        return
    st.subheader(t("The class's results"), anchor=False)
    v = page.verdict(counts, settings["mechanism"], settings["level"])
    kit.chart(page.figure(settings, v, you=you, height=480), key="class_attack_fig_class",
              name=t(page.CLASS_NAME))
    if v is not None:
        verdict_said(kit, v)
        st.caption(page.interval_caption(v))


# --- The teacher's view --------------------------------------------------------------------

def teacher(kit: PageKit, visit: classroom.Visit) -> None:
    activity = visit.activity
    settings = activity.config
    classroom.join_panel(activity)
    st.subheader(t("Be the attacker: {mechanism} = {level}",
                   mechanism=t(page.MECHANISM_LABELS[settings["mechanism"]]),
                   level=fmt_number(settings["level"])), anchor=False)
    st.caption(page.setup_caption(settings))
    if activity.closed:
        st.info(t("This game is closed: it takes no more results. The plot below is final."),
                icon=":material/lock:")
    kit.settings(page.report_settings(settings))
    live = classroom.live(live_results, every=None if activity.closed
                       else classroom.LIVE_EVERY_S)
    live(kit, activity.code, settings)
    classroom.teacher_tools(visit, on_close=t(
        "Takes no more results; the plot stays on this screen until the activity is "
        "deleted."))


# --- A student's view ----------------------------------------------------------------------

def play(kit: PageKit, code: str, token: str, settings: dict, game: page.Game) -> None:
    """The round to guess, or the game's end: its results sent to the class database."""
    if game.played:
        right, said = page.round_feedback(game)
        if right:
            st.success(said, icon=":material/check_circle:")
        else:
            st.warning(said, icon=":material/cancel:")
    st.progress(game.played / game.rounds, text=page.progress_text(game))
    if not game.done:
        i = game.played
        st.metric(t("Round {i} of {n}: the released count", i=i + 1, n=game.rounds),
                  f"{game.released[i]:.2f}", border=True)
        st.markdown(t("Which data set did it come from?"))
        st.button(page.world_label(False), key="class_attack_guess_d", width="stretch",
                  on_click=page.guess, args=(code, i, False), icon=":material/group:",
                  help=t("Guess D: the count without the extra person."))
        st.button(page.world_label(True), key="class_attack_guess_alt", width="stretch",
                  on_click=page.guess, args=(code, i, True), icon=":material/group_add:",
                  help=t("Guess D′: the count with one person more."))
        return
    if game.state == "playing":
        page.submit(code, token, game)
    if game.state == "sent":
        st.success(t("Game over: your results are in the teacher's plot."),
                   icon=":material/task_alt:")
    elif game.state == "pending":
        st.error(game.problem, icon=":material/error:")
        st.button(t("Send my results again"), key="class_attack_resend", type="primary",
                  icon=":material/send:", on_click=page.submit, args=(code, token, game),
                  help=t("Sends the same results: your rounds are kept in this session."))
    else:
        st.error(game.problem, icon=":material/error:")
    own = game.tally()
    mine = page.verdict([own], settings["mechanism"], settings["level"])
    said = page.own_sentence(settings, own, mine.students[0])
    st.markdown(said)
    kit.finding(said)
    st.markdown(page.best_sentence(settings))


def student(kit: PageKit, visit: classroom.Visit) -> None:
    activity = visit.activity
    settings = activity.config
    code = activity.code
    st.subheader(t("Be the attacker"), anchor=False)
    token = classroom.student_token()
    game = page.game_of(code)
    if game is None or not game.played:
        st.markdown(page.explain(settings))
    else:  # once playing, the round stays on a phone's first screen
        with st.expander(t("How the game works"), icon=":material/help:"):
            st.markdown(page.explain(settings))
    kit.settings(page.report_settings(settings))
    played_before = False
    if game is None:
        answered = classroom.read("has_answered", code, token)
        played_before = bool(answered)
        if played_before:
            st.info(t("This browser has already played this game: its first results are "
                      "kept."), icon=":material/task_alt:")
        elif answered is not None and activity.closed:
            st.error(classroom.error_text(storage.Closed("")), icon=":material/lock:")
        elif answered is not None:
            game = page.start_game(code, settings)
    if game is not None:
        play(kit, code, token, settings, game)
    finished = game is not None and game.done
    if finished or played_before:
        classroom.live(student_results, every=None if activity.closed
                    else page.STUDENT_EVERY_S)(kit, code, settings,
                                               game.tally() if finished else None)


# ------------------------------------------------------------------------------------------

classroom.run_page(registry.CLASS_ATTACK, "attack", setup=setup, teacher=teacher, student=student)
