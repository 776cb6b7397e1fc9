"""AppTest tests of the page "Class game: be the attacker" (views/class_attack.py, issue 37):
the teacher's setup makes a game and the teacher's view (the key never in the address nor on
the screen), a student plays every round by clicking and their counts reach the class
database (checked against the session's secret worlds and the clicks, not the page's own
tally), the teacher's verdict names a student beyond the curve, and every refusal is a plain
error: a closed game, a double submit, an unreachable database, an expired game.

Every test runs on its own SQLite class database in a temporary folder (never .data/).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from classkit import (code_of, cookie_writes, cookies, database_down, every_text,  # noqa: F401
                      new_activity, press, refused_start, store, student_page, submit_setup,
                      trace_values)
from conftest import open_page, run, without_help
from dpclass import activities, storage
from dpcore import attack
from pagekit import errors, kit, markdown_text
from ui import classroom, registry
from ui.pages import class_attack as page

SCRIPT = registry.CLASS_ATTACK.script
TITLE = "Class game: be the attacker"


def teacher_page(mechanism: str = "laplace", level: float = 1.0, rounds: int = 20,
                 query: dict[str, str] | None = None) -> AppTest:
    """The setup filled in and submitted: the teacher's view of a new game."""
    return submit_setup(SCRIPT, TITLE, "Start the game", {
        "class_attack_mechanism": ("radio", mechanism),
        "class_attack_level": ("select_slider", level),
        "class_attack_rounds": ("slider", rounds)}, query)


def game(at: AppTest, code: str) -> page.Game:
    """The session's game: its secret worlds, released numbers and guesses (server side)."""
    return at.session_state[page.GAME][code]


def guess_buttons(at: AppTest) -> list:
    return [b for b in at.button if b.key in ("class_attack_guess_d", "class_attack_guess_alt")]


def click(at: AppTest, alt: bool) -> AppTest:
    at.button(key="class_attack_guess_alt" if alt else "class_attack_guess_d").click()
    return run(at)


def chart_spec(at: AppTest, key: str) -> dict:
    [chart] = [c for c in at.get("plotly_chart") if c.proto.id.endswith(key)]
    return json.loads(chart.proto.spec)


def traces(spec: dict) -> dict[str, dict]:
    return {d.get("name"): d for d in spec["data"]}


def create(store: storage.Store, mechanism="laplace", level=1.0, rounds=20):
    return store.create("attack", activities.attack_config(mechanism, level, rounds))


# --- the teacher's setup -------------------------------------------------------------------

def test_the_setup_opens_with_help_on_every_control(store):
    at = open_page(SCRIPT, TITLE)
    assert at.radio(key="class_attack_mechanism").options == ["Laplace at ε", "Gaussian at μ"]
    assert at.select_slider(key="class_attack_level").options == [
        f"{e:g}" for e in page.LEVEL_GRID]
    assert page.LEVEL_GRID[0] == activities.EPS_MIN and page.LEVEL_GRID[-1] == activities.EPS_MAX
    rounds = at.slider(key="class_attack_rounds")
    assert (rounds.min, rounds.max, rounds.value) == (5, 100, 20)
    seen: list[str] = []
    assert without_help(at.main, seen) == []
    assert not errors(at)
    assert store.table_counts()["activities"] == 0


def test_starting_a_game_opens_the_teachers_view_and_never_shows_the_key(store):
    at = teacher_page("gaussian", 0.5, 30)
    # the join code is shown; the key nowhere, nor in the address, but in this browser's cookie
    activity, _key = new_activity(at, store, "attack")
    assert activity.config == {"mechanism": "gaussian", "level": 0.5, "rounds": 30}
    assert at.sidebar.button(key="class_close") is not None
    assert {m.label: m.value for m in at.metric}["Students who finished"] == "0"
    assert any("appears when they finish" in i.value for i in at.info)
    # the curve and the best attacker are there before anyone played
    spec = chart_spec(at, "class_attack_fig")
    curve = traces(spec)["trade-off curve f: Gaussian mechanism, μ = 0.5"]
    x = trace_values(curve["x"])
    np.testing.assert_allclose(trace_values(curve["y"]),
                               attack.mechanism_tradeoff("gaussian", 0.5)(x), rtol=1e-12)
    best = traces(spec)["the best possible attacker (says D′ above c + ½)"]
    np.testing.assert_allclose([best["x"][0], best["y"][0]],
                               attack.best_guess_errors("gaussian", 0.5))
    assert kit(at).code_builder is None
    assert "class database" in kit(at).code_problem


def test_the_teachers_next_visit_opens_the_teachers_view_from_the_cookie(store, cookies):
    activity, key = create(store)
    cookies[classroom.TEACHER_COOKIE + activity.code] = key
    at = student_page(SCRIPT, activity.code)  # a new session of the teacher's browser
    assert at.sidebar.button(key="class_close") is not None
    assert not guess_buttons(at) and page.GAME not in at.session_state
    assert not [c for c in cookie_writes(at) if c["name"].startswith(classroom.TEACHER_COOKIE)]
    assert key not in every_text(at)


def test_bad_settings_are_named_and_nothing_is_made(store, monkeypatch):
    """The controls cannot give a bad setting; the settings' check names one all the same."""
    with pytest.raises(ValueError, match="rounds"):
        page.config("laplace", 1.0, 101)
    with pytest.raises(ValueError, match="level"):
        page.config("gaussian", 20.0, 20)
    at = open_page(SCRIPT, TITLE)
    monkeypatch.setattr(page, "config", lambda *a: activities.attack_config("laplace", 1.0, 4))
    assert "rounds" in refused_start(press(at, "Start the game"), store)


# --- a student's game ----------------------------------------------------------------------

def test_a_student_plays_every_round_and_the_tally_reaches_the_class_database(store):
    activity, key = create(store, "laplace", 1.0, 12)
    at = student_page(SCRIPT, activity.code, token="student-token-1")
    assert [s.value for s in at.subheader][0] == "Be the attacker"
    said = markdown_text(at)
    assert "**false alarm**" in said and "**miss**" in said and "count is 10" in said
    assert not at.columns  # nothing side by side on a phone
    assert not at.sidebar.get("button")  # no teacher's tools
    assert key not in every_text(at)
    g = game(at, activity.code)
    assert g.rounds == 12 and g.played == 0
    rng = np.random.default_rng(7)
    clicks = rng.random(12) < 0.5
    for i, alt in enumerate(clicks):
        # the round's number is shown, and never a world not yet guessed
        [metric] = [m for m in at.metric if m.label.startswith(f"Round {i + 1} of 12")]
        assert metric.value == f"{g.released[i]:.2f}"
        assert [b.label for b in guess_buttons(at)] == ["D (10 people)", "D′ (11 people)"]
        click(at, alt)
        [feedback] = [e for e in [*at.success, *at.warning] if e.value.startswith("Round ")]
        assert feedback.value.startswith(f"Round {i + 1}: ")
        right = bool(g.worlds[i]) == bool(alt)
        assert ("right" in feedback.value) == right
    assert g.guesses == clicks.tolist()
    assert not guess_buttons(at)
    # the counts, from the session's secret worlds and the clicks
    worlds = np.asarray(g.worlds, dtype=bool)
    expected = [int(np.sum(clicks & ~worlds)), int(np.sum(~worlds)),
                int(np.sum(~clicks & worlds)), int(np.sum(worlds))]
    assert store.attack_tallies(activity.code).tolist() == [expected]
    assert expected[1] + expected[3] == 12
    assert store.has_answered(activity.code, "student-token-1")
    assert any("Game over" in s.value for s in at.success)
    text = markdown_text(at)
    assert (f"You made {expected[0]} false alarm(s) in {expected[1]} rounds from D" in text
            and f"{expected[2]} miss(es) in {expected[3]} rounds from D′" in text)
    # their point on the curve, with its 95 % intervals (the teacher has not shared)
    spec = chart_spec(at, "class_attack_fig_own")
    you = traces(spec)["you"]
    if expected[1] and expected[3]:
        assert trace_values(you["x"])[0] == pytest.approx(expected[0] / expected[1])
        assert trace_values(you["y"])[0] == pytest.approx(expected[2] / expected[3])
    assert "students" not in traces(spec)
    assert any("teacher will show" in i.value for i in at.info)
    assert any("One answer per browser" in c.value for c in at.caption)
    # a rerun sends nothing more
    run(at)
    assert store.attack_tallies(activity.code).tolist() == [expected]
    assert not errors(at)


def test_a_double_click_on_a_round_guesses_it_once():
    worlds, released = attack.draw_rounds("laplace", 1.0, 5, rng=1)
    g = page.Game(worlds, released)
    state = {page.GAME: {"CODE": g}}
    import streamlit as st
    from unittest import mock

    with mock.patch.object(st, "session_state", state):
        page.guess("CODE", 0, True)
        page.guess("CODE", 0, False)  # the same round's second click
        page.guess("CODE", 1, False)
    assert g.guesses == [True, False]


def test_a_student_who_played_before_is_told_so(store):
    activity, _key = create(store, rounds=5)
    store.submit_attack(activity.code, "tok", false_alarms=1, null_rounds=2, misses=0,
                        alt_rounds=3)
    at = student_page(SCRIPT, activity.code, token="tok")
    assert not guess_buttons(at)
    assert any("already played this game" in i.value for i in at.info)
    assert page.GAME not in at.session_state or activity.code not in at.session_state[page.GAME]


def finish_but_one(at: AppTest, code: str) -> AppTest:
    for _ in range(game(at, code).rounds - 1):
        click(at, False)
    return at


def test_a_closed_game_refuses_a_students_results_in_plain_words(store):
    activity, key = create(store, rounds=5)
    at = finish_but_one(student_page(SCRIPT, activity.code, token="tok"), activity.code)
    store.close(activity.code, key)
    click(at, True)
    [message] = errors(at)
    assert "closed this activity: it takes no more answers" in message
    assert store.attack_tallies(activity.code).tolist() == []
    # a closed game opened afresh: no rounds at all
    other = student_page(SCRIPT, activity.code, token="other")
    assert "closed this activity" in errors(other)[0] and not guess_buttons(other)


def test_a_double_submit_is_refused_and_the_first_results_kept(store):
    activity, _key = create(store, rounds=5)
    at = finish_but_one(student_page(SCRIPT, activity.code, token="tok"), activity.code)
    store.submit_attack(activity.code, "tok", false_alarms=0, null_rounds=5, misses=0,
                        alt_rounds=0)  # the same browser, from another tab
    click(at, True)
    [message] = errors(at)
    assert "already answered: your first answer is kept" in message
    assert store.attack_tallies(activity.code).tolist() == [[0, 5, 0, 0]]


def test_an_unreachable_database_loses_nothing_and_sends_the_same_results_again(
        store, monkeypatch):
    activity, _key = create(store, rounds=5)
    at = finish_but_one(student_page(SCRIPT, activity.code, token="tok"), activity.code)
    with monkeypatch.context() as patch:
        patch.setattr(storage.Store, "submit_attack", database_down)
        click(at, True)
    [message] = errors(at)
    assert "cannot be reached" in message and "try again" in message
    assert store.attack_tallies(activity.code).tolist() == []
    g = game(at, activity.code)
    assert g.state == "pending" and g.done
    at.button(key="class_attack_resend").click()
    run(at)
    c = attack.tally(g.worlds, g.guesses)
    assert store.attack_tallies(activity.code).tolist() == [
        [c.false_alarms, c.null_rounds, c.misses, c.alt_rounds]]
    assert any("Game over" in s.value for s in at.success) and not errors(at)


def test_an_expired_game_is_a_plain_error(store, monkeypatch):
    activity, _key = create(store)
    monkeypatch.setattr(store, "clock", lambda: activity.expires_at + 1)
    at = student_page(SCRIPT, activity.code)
    [message] = errors(at)
    assert "time is up" in message
    assert not guess_buttons(at)


def test_shared_results_show_the_class_and_the_students_own_point(store):
    activity, key = create(store, "laplace", 1.0, 5)
    for i, row in enumerate([(1, 2, 1, 3), (0, 3, 2, 2)]):
        store.submit_attack(activity.code, f"s{i}", false_alarms=row[0], null_rounds=row[1],
                            misses=row[2], alt_rounds=row[3])
    at = student_page(SCRIPT, activity.code, token="tok")
    for _ in range(5):
        click(at, False)
    store.share(activity.code, key, True)
    run(at)
    spec = chart_spec(at, "class_attack_fig_class")
    names = traces(spec)
    assert "you" in names and "students" in names
    assert len(trace_values(names["students"]["x"])) == 3
    assert "the class pooled (everyone's counts summed)" in names
    assert any("Nobody got beyond the curve" in s.value for s in at.success)


# --- the teacher's live results --------------------------------------------------------------

def test_the_verdict_names_a_student_beyond_the_curve_by_number(store):
    at = teacher_page("laplace", 0.5, 100)
    code = code_of(at)
    store.submit_attack(code, "s0", false_alarms=20, null_rounds=50, misses=22, alt_rounds=50)
    store.submit_attack(code, "s1", false_alarms=0, null_rounds=50, misses=0, alt_rounds=50)
    store.submit_attack(code, "s2", false_alarms=30, null_rounds=52, misses=15, alt_rounds=48)
    run(at)
    assert {m.label: m.value for m in at.metric}["Students who finished"] == "3"
    [warning] = [w.value for w in at.warning if "Beyond the curve" in w.value]
    assert "student 2" in warning and "student 1" not in warning and "student 3" not in warning
    assert "Bonferroni over 3 students and the pooled point, family-wise level 5 %" in warning
    verdict = attack.beyond_curve(
        [(20, 50, 22, 50), (0, 50, 0, 50), (30, 52, 15, 48)],
        attack.mechanism_tradeoff("laplace", 0.5))
    assert verdict.flagged == (1,)
    # the plot: the students' points with exactly the verdict's intervals as error bars
    spec = chart_spec(at, "class_attack_fig")
    names = traces(spec)
    honest_trace = names["students"]
    flagged_trace = names["beyond the curve by more than chance"]
    assert honest_trace["text"] == ["student 1", "student 3"]
    assert flagged_trace["text"] == ["student 2"]
    for trace, points in ((honest_trace, [verdict.students[0], verdict.students[2]]),
                          (flagged_trace, [verdict.students[1]])):
        x, y = trace_values(trace["x"]), trace_values(trace["y"])
        np.testing.assert_allclose(x, [p.alpha for p in points])
        np.testing.assert_allclose(y, [p.beta for p in points])
        np.testing.assert_allclose(x + trace_values(trace["error_x"]["array"]),
                                   [p.alpha_interval[1] for p in points])
        np.testing.assert_allclose(x - trace_values(trace["error_x"]["arrayminus"]),
                                   [p.alpha_interval[0] for p in points], atol=1e-12)
        np.testing.assert_allclose(y + trace_values(trace["error_y"]["array"]),
                                   [p.beta_interval[1] for p in points])
    pooled = names["the class pooled (everyone's counts summed)"]
    assert trace_values(pooled["x"])[0] == pytest.approx(50 / 152)
    caption = " ".join(c.value for c in at.caption)
    assert f"{100 * verdict.confidence:.4g}" in caption and "Bonferroni" in caption
    assert "Clopper–Pearson" in caption
    # the report holds the chart, the table and the finding once
    names_in_kit = [name for name, _fig in kit(at).figures]
    assert names_in_kit.count(page.CLASS_NAME) == 1
    assert sum("Beyond the curve" in f for f in kit(at).findings) == 1
    [table] = [frame for name, frame in kit(at).tables if name == page.TABLE_NAME]
    assert table["student"].tolist() == [1, 2, 3]
    assert table["beyond"].tolist() == [False, True, False]


def test_an_honest_class_gets_the_nobody_sentence(store):
    at = teacher_page("gaussian", 1.0, 20)
    code = code_of(at)
    rng = np.random.default_rng(3)
    for i in range(6):
        worlds, released = attack.draw_rounds("gaussian", 1.0, 20, rng=rng)
        c = attack.tally(worlds, attack.best_guesses(released))
        store.submit_attack(code, f"s{i}", false_alarms=c.false_alarms,
                            null_rounds=c.null_rounds, misses=c.misses,
                            alt_rounds=c.alt_rounds)
    run(at)
    assert any("Nobody got beyond the curve by more than chance (Bonferroni over 6 students "
               "and the pooled point, family-wise level 5 %)." in s.value for s in at.success)


def test_the_teachers_view_presents_on_a_projector(store):
    at = teacher_page("laplace", 1.0, 20, query={"present": "1"})
    code = code_of(at)
    store.submit_attack(code, "s0", false_alarms=3, null_rounds=9, misses=4, alt_rounds=11)
    run(at)
    assert at.query_params["present"] in ("1", ["1"])
    assert activities.shown_code(code) in markdown_text(at)
    spec = chart_spec(at, "class_attack_fig")
    [(_name, fig)] = [(n, f) for n, f in kit(at).figures if n == page.CLASS_NAME]
    assert spec["layout"]["height"] > fig.layout.height  # enlarged
    assert not [d for d in at.get("download_button") if "class_attack" in (d.key or "")]


def test_closing_the_game_keeps_the_plot(store):
    at = teacher_page("laplace", 1.0, 5)
    code = code_of(at)
    store.submit_attack(code, "s0", false_alarms=1, null_rounds=2, misses=1, alt_rounds=3)
    at.sidebar.button(key="class_close").click()
    run(at)
    assert store.get(code).closed
    assert any("This game is closed" in i.value for i in at.info)
    assert {m.label: m.value for m in at.metric}["Students who finished"] == "1"
