"""AppTest tests of the page "Class poll: randomized response" (views/class_poll.py, issue 37):
the teacher's setup makes an activity and the teacher's view (the key never in the address
nor on the screen), a student sees the question and answers through the device's buttons
(driven as the browser drives them), the answers reach the teacher's live estimate (checked
against dpcore), and every refusal is a plain error: a wrong code, a closed poll, a double
answer, an unreachable database, bad settings and hostile text.

Every test runs on its own SQLite class database in a temporary folder (never .data/).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from classkit import (HOSTILE, answer_buttons, code_of, cookie_writes, cookies,  # noqa: F401
                      database_down, every_text, new_activity, page_texts, press,
                      refused_start, store, student_page, submit_setup, tap, trace_values)
from conftest import open_page, run, without_help
from dpclass import activities, storage
from dpcore import ldp
from pagekit import chart, errors, kit, markdown_text
from ui import classroom, registry
from ui.pages import class_poll as page
from ui.text import esc

SCRIPT = registry.CLASS_POLL.script
TITLE = "Class poll: randomized response"


def teacher_page(question: str = "Did you sleep?", answers: str = "Yes\nNo",
                 eps: float = 1.0, query: dict[str, str] | None = None) -> AppTest:
    """The setup filled in and submitted: the teacher's view of a new poll."""
    return submit_setup(SCRIPT, TITLE, "Start the poll", {
        "class_poll_question": ("text_area", question),
        "class_poll_answers": ("text_area", answers),
        "class_poll_eps": ("select_slider", eps)}, query)


def results_frame(at: AppTest) -> pd.DataFrame:
    [frame] = [d.value for d in at.dataframe if "estimated share" in d.value.columns]
    return frame


# --- the teacher's setup -------------------------------------------------------------------

def test_the_setup_opens_with_help_on_every_control(store):
    at = open_page(SCRIPT, TITLE)
    assert at.text_area(key="class_poll_question").value
    assert at.text_area(key="class_poll_answers").value.splitlines() == ["Yes", "No"]
    assert at.select_slider(key="class_poll_eps").options == [
        f"{e:g}" for e in page.EPS_GRID]
    assert page.EPS_GRID[0] == activities.EPS_MIN and page.EPS_GRID[-1] == activities.EPS_MAX
    assert "perturbs their answer with k-ary randomized response at this ε" in "\n".join(
        c.value for c in at.caption)
    seen: list[str] = []
    assert without_help(at.main, seen) == []
    assert not errors(at)
    assert store.table_counts()["activities"] == 0


def test_starting_a_poll_opens_the_teachers_view_and_never_shows_the_key(store):
    at = teacher_page("Did you sleep?", "Yes\nNo\nMaybe", 2.0)
    # the join code is shown for the projector; the key nowhere, nor in the address, but in
    # this browser's cookie
    activity, _key = new_activity(at, store, "poll")
    assert activity.config == {"question": "Did you sleep?", "answers": ["Yes", "No", "Maybe"],
                               "eps": 2.0}
    assert any(s.value == "Did you sleep?" for s in at.subheader)
    # the teacher's tools and the live count; the estimate waits for two answers
    assert at.sidebar.button(key="class_close") is not None
    assert {m.label: m.value for m in at.metric}["Answers received"] == "0"
    assert any("appears once at least 2 students have answered" in i.value for i in at.info)
    assert kit(at).code_builder is None
    assert "class database" in kit(at).code_problem


@pytest.mark.parametrize(("question", "answers", "fragment"), [
    ("Q?", "\n".join(f"answer {i}" for i in range(11)), "answers"),
    ("Q?", "only one", "answers"),
    ("Q?", "Yes\nNo\nYes", "answers must all differ"),
    ("Q?", "Yes\n" + "x" * 81, "answers"),
    ("", "Yes\nNo", "question"),
    ("  \n ", "Yes\nNo", "question"),
])
def test_bad_settings_are_named_and_nothing_is_made(store, question, answers, fragment):
    at = submit_setup(SCRIPT, TITLE, "Start the poll", {
        "class_poll_question": ("text_area", question),
        "class_poll_answers": ("text_area", answers)})
    message = refused_start(at, store)
    assert fragment in message, message


def test_an_unreachable_database_at_the_start_is_a_plain_error_and_keeps_the_form(
        store, monkeypatch):
    with monkeypatch.context() as patch:
        patch.setattr(storage.Store, "create", database_down)
        at = teacher_page("My question?", "A\nB")
    [message] = errors(at)
    assert "cannot be reached" in message and "try again" in message
    assert classroom.CODE_PARAM not in at.query_params
    assert at.text_area(key="class_poll_question").value == "My question?"  # nothing lost
    press(at, "Start the poll")
    assert store.get(code_of(at)).config["question"] == "My question?"


def test_an_over_long_question_cannot_be_typed_and_is_refused_by_name(store):
    """The text area takes at most 300 characters (Streamlit cuts what the browser sends,
    which shows a counter); a longer question is refused by the settings' check too."""
    at = teacher_page("x" * 301, "Yes\nNo")
    assert store.get(code_of(at)).config["question"] == "x" * activities.QUESTION_MAX
    with pytest.raises(ValueError, match="`question` must be at most 300 characters"):
        page.config("x" * 301, "Yes\nNo", 1.0)


# --- students --------------------------------------------------------------------------------

def test_a_student_sees_the_question_and_the_buttons_not_the_teachers_tools(store):
    activity, key = store.create("poll", activities.poll_config("Did you sleep?",
                                                                ["Yes", "No"], 1.0))
    at = student_page(SCRIPT, activity.code)
    assert [s.value for s in at.subheader][0] == "Did you sleep?"
    buttons = answer_buttons(at)
    p, q = ldp.krr_probabilities(1.0, 2)
    assert json.loads(buttons.json) == {"labels": ["Yes", "No"], "p": p, "q": q,
                                        "sent": None, "question": "Did you sleep?"}
    assert not at.sidebar.get("button")  # no Close, no Delete
    assert not [s for s in at.sidebar.subheader if s.value == "Teacher"]
    assert key not in every_text(at)
    assert any("teacher will show" in i.value for i in at.info)
    assert any("One answer per browser" in c.value for c in at.caption)
    assert at.expander and any("Are you the teacher" in e.label for e in at.expander)


def test_a_students_tap_is_kept_and_explained_with_the_numbers(store):
    activity, _key = store.create("poll", activities.poll_config("Q?", ["Yes", "No", "Maybe"],
                                                                 1.0))
    at = student_page(SCRIPT, activity.code, token="student-token-1")
    tap(at, 2)
    assert store.poll_counts(activity.code).tolist() == [0, 0, 1]
    assert store.has_answered(activity.code, "student-token-1")
    [success] = at.success
    p, q = ldp.krr_probabilities(1.0, 3)
    assert "Your phone sent: «Maybe»" in success.value
    assert f"p = {100 * p:.3g}%" in success.value and f"q = {100 * q:.3g}%" in success.value
    assert "one of the 2 other answers, each with probability q" in success.value
    assert "2.718 times more likely" in success.value
    assert "nobody, not even the teacher or the server, saw it" in success.value
    # a rerun still says what was sent; the buttons stay locked on it
    run(at)
    assert "Your phone sent: «Maybe»" in at.success[0].value
    assert json.loads(answer_buttons(at).json)["sent"] == 2
    assert store.poll_counts(activity.code).tolist() == [0, 0, 1]


def test_a_second_visit_of_a_browser_that_answered_keeps_the_first_answer(store):
    activity, _key = store.create("poll", activities.poll_config("Q?", ["Yes", "No"], 1.0))
    store.answer_poll(activity.code, "tok", 0)
    at = student_page(SCRIPT, activity.code, token="tok")
    assert answer_buttons(at) is None
    assert any("already answered: your first answer is kept" in i.value for i in at.info)


def test_a_double_submit_is_refused_in_plain_words(store, monkeypatch):
    activity, _key = store.create("poll", activities.poll_config("Q?", ["Yes", "No"], 1.0))
    at = student_page(SCRIPT, activity.code, token="tok")
    store.answer_poll(activity.code, "tok", 1)  # the same browser, from another tab
    # the next run sees the answer: no buttons, the first answer kept
    tap(at, 0)
    assert answer_buttons(at) is None and not at.success
    assert any("already answered: your first answer is kept" in i.value for i in at.info)
    # a report arriving between the check and the write: refused by the database
    at = student_page(SCRIPT, activity.code, token="tok")
    monkeypatch.setattr(storage.Store, "has_answered", lambda self, code, token: False)
    run(at)
    tap(at, 0)
    [message] = errors(at)
    assert "already answered: your first answer is kept" in message
    assert not at.success
    assert store.poll_counts(activity.code).tolist() == [0, 1]


def test_an_unreachable_database_loses_nothing_and_sends_the_same_report_again(
        store, monkeypatch):
    activity, _key = store.create("poll", activities.poll_config("Q?", ["Yes", "No"], 1.0))
    at = student_page(SCRIPT, activity.code, token="tok")
    with monkeypatch.context() as patch:
        patch.setattr(storage.Store, "answer_poll", database_down)
        tap(at, 1)
    [message] = errors(at)
    assert "cannot be reached" in message and "try again" in message
    assert store.poll_counts(activity.code).tolist() == [0, 0]
    run(at)
    assert any("not saved yet" in w.value for w in at.warning)
    assert answer_buttons(at) is None  # no second draw of the same true answer
    at.button(key="class_poll_resend").click()
    run(at)
    assert store.poll_counts(activity.code).tolist() == [0, 1]  # the same report
    assert "Your phone sent: «No»" in at.success[0].value


def test_a_wrong_code_is_a_plain_error(store):
    at = student_page(SCRIPT, "ZZZZ-ZZZZ")
    msg = " ".join(errors(at))
    assert "There is no activity with this code" in msg
    assert answer_buttons(at) is None


def test_a_closed_poll_is_a_plain_error_for_a_student(store):
    activity, key = store.create("poll", activities.poll_config("Q?", ["Yes", "No"], 1.0))
    store.close(activity.code, key)
    at = student_page(SCRIPT, activity.code)
    [message] = errors(at)
    assert "closed this activity" in message
    assert answer_buttons(at) is None


def test_an_expired_poll_is_a_plain_error(store, monkeypatch):
    activity, _key = store.create("poll", activities.poll_config("Q?", ["Yes", "No"], 1.0))
    monkeypatch.setattr(store, "clock", lambda: activity.expires_at + 1)
    at = student_page(SCRIPT, activity.code)
    [message] = errors(at)
    assert "time is up" in message


def test_hostile_text_is_shown_inert(store):
    answers = ["<b>yes</b>", "[no](https://evil.example)", "**maybe**"]
    activity, _key = store.create("poll", activities.poll_config(HOSTILE, answers, 1.0))
    at = student_page(SCRIPT, activity.code, token="tok")
    assert at.subheader[0].value == esc(HOSTILE)
    assert json.loads(answer_buttons(at).json)["labels"] == answers  # drawn as text
    tap(at, 1)
    assert f"«{esc(answers[1])}»" in at.success[0].value
    # the teacher's view too: the question, the chart's labels, the table
    at = teacher_page(HOSTILE, "\n".join(answers))
    for a in range(3):
        store.answer_poll(code_of(at), f"other-{a}", a)
    run(at)
    assert esc(HOSTILE) in [s.value for s in at.subheader]
    shown = page_texts(at)
    unescaped = re.compile(r"(?<!\\)[<\[*`$#]")  # Markdown or HTML not escaped by ui.text.esc
    assert not [v for v in shown if "script" in v and unescaped.search(
        v.replace(esc(HOSTILE), ""))]
    assert not [v for v in shown if "evil" in v and esc(HOSTILE) not in v
                and esc(answers[1]) not in v]
    spec = json.loads(chart(at, "class_poll_fig_shares").proto.spec)
    assert spec["data"][0]["y"][0] == spec["layout"]["yaxis"]["ticktext"][0] \
        == "&lt;b&gt;yes&lt;/b&gt;"  # Plotly shows the entities as the characters typed
    assert results_frame(at)["answer"].tolist() == answers  # a table cell is text


# --- the teacher's live results --------------------------------------------------------------

def test_the_class_answers_reach_the_teachers_estimate(store):
    at = teacher_page("Q?", "Yes\nNo\nMaybe", 1.0)
    code = code_of(at)
    reported = [0] * 14 + [1] * 9 + [2] * 7
    for i, j in enumerate(reported):
        store.answer_poll(code, f"student-{i}", j)
    run(at)
    assert {m.label: m.value for m in at.metric}["Answers received"] == "30"
    frame = results_frame(at)
    counts = np.array([14, 9, 7])
    assert frame["answer"].tolist() == ["Yes", "No", "Maybe"]
    assert frame["reported"].tolist() == counts.tolist()
    np.testing.assert_allclose(frame["reported share"], counts / 30)
    # independently of krr_share_estimate: the unbiased counts over n, and ± 1.96 sd from
    # krr_variance at the estimated shares clipped at 0 and renormalised (the plug-in)
    shares = ldp.krr_estimate(counts, 1.0) / 30
    plug = np.maximum(shares, 0) / np.maximum(shares, 0).sum() * 30
    half = 1.96 * np.sqrt(ldp.krr_variance(plug, 1.0)) / 30
    np.testing.assert_allclose(frame["estimated share"], shares, rtol=1e-12)
    np.testing.assert_allclose(frame["interval from"], shares - half, rtol=1e-12)
    np.testing.assert_allclose(frame["interval to"], shares + half, rtol=1e-12)
    # the chart draws the same numbers, its error bars the interval
    bars = json.loads(chart(at, "class_poll_fig_shares").proto.spec)["data"]
    np.testing.assert_allclose(trace_values(bars[1]["x"]), shares, rtol=1e-12)
    np.testing.assert_allclose(
        trace_values(bars[1]["x"]) + trace_values(bars[1]["error_x"]["array"]),
        shares + half, rtol=1e-12)
    # how it narrows: 4x the students halves the widest half-width
    text = markdown_text(at)
    assert f"± {100 * half.max():.1f} points" in text
    assert f"± {100 * half.max() / 2:.1f} points" in text and "(120 instead of 30)" in text
    caption = " ".join(c.value for c in at.caption)
    assert "approximate 95 % normal interval" in caption and "± 1.96 standard errors" in caption
    assert "plug-in" in caption
    # the report holds each chart and table once
    names = [name for name, _fig in kit(at).figures]
    assert names.count(page.SHARES_NAME) == 1 and names.count(page.SCALING_NAME) == 1
    assert sum(f.startswith("30 students answered") for f in kit(at).findings) == 1


def test_a_refresh_of_the_live_results_replaces_their_report_entries():
    """The live results are a fragment: its timer reruns it alone, with the page's kit of
    the last full run; before drawing again it takes out what it gave that kit."""
    from types import SimpleNamespace

    shares, scaling, table = (page.SHARES_NAME, page.SCALING_NAME, page.TABLE_NAME)
    other = ("Another chart", object())
    the_kit = SimpleNamespace(
        figures=[other, (shares, object()), (scaling, object())],
        tables=[("Another table", pd.DataFrame()), (table, pd.DataFrame())],
        findings=["a finding of the page", "30 students answered."])
    page.forget(the_kit, "30 students answered.")
    assert the_kit.figures == [other]
    assert [name for name, _f in the_kit.tables] == ["Another table"]
    assert the_kit.findings == ["a finding of the page"]
    page.forget(the_kit, None)  # nothing given yet: nothing else taken
    assert the_kit.figures == [other] and the_kit.findings == ["a finding of the page"]


def test_shared_results_reach_the_students_screen(store):
    activity, key = store.create("poll", activities.poll_config("Q?", ["Yes", "No"], 2.0))
    for i, j in enumerate([0, 0, 0, 1, 1]):
        store.answer_poll(activity.code, f"s{i}", j)
    at = student_page(SCRIPT, activity.code)
    assert not [c for c in at.get("plotly_chart")]
    store.share(activity.code, key, True)
    run(at)
    spec = json.loads(chart(at, "class_poll_fig_shares").proto.spec)
    shares, lower, upper = ldp.krr_share_estimate([3, 2], 2.0, z=1.96)
    assert np.allclose(trace_values(spec["data"][1]["x"]), shares)
    assert f"«Yes»: about {100 * shares[0]:.1f}%" in markdown_text(at)
    assert not at.columns  # nothing side by side on a phone


def test_a_student_with_the_key_file_becomes_the_teacher(store):
    activity, key = store.create("poll", activities.poll_config("Q?", ["Yes", "No"], 1.0))
    at = student_page(SCRIPT, activity.code)
    at.text_input(key="class_key_typed").set_value(key)
    run(at)
    assert at.sidebar.button(key="class_close") is not None
    assert key not in every_text(at)


def test_the_teachers_view_presents_on_a_projector(store):
    at = teacher_page("Q?", "Yes\nNo", 2.0, query={"present": "1"})
    code = code_of(at)
    for i, j in enumerate([0] * 6 + [1] * 4):
        store.answer_poll(code, f"s{i}", j)
    run(at)
    assert at.query_params["present"] in ("1", ["1"])
    assert activities.shown_code(code) in markdown_text(at)
    spec = json.loads(chart(at, "class_poll_fig_shares").proto.spec)
    [(_name, fig)] = [(n, f) for n, f in kit(at).figures if n == page.SHARES_NAME]
    assert spec["layout"]["height"] > fig.layout.height  # enlarged
    assert not at.get("download_button") or all(
        "class_poll" not in (d.key or "") for d in at.get("download_button"))


def test_closing_the_poll_keeps_the_results_and_stops_the_answers(store):
    at = teacher_page("Q?", "Yes\nNo", 1.0)
    code = code_of(at)
    for i, j in enumerate([0, 1, 1]):
        store.answer_poll(code, f"s{i}", j)
    at.sidebar.button(key="class_close").click()
    run(at)
    assert store.get(code).closed
    assert any("This poll is closed" in i.value for i in at.info)
    assert results_frame(at)["reported"].tolist() == [1, 2]
    student = student_page(SCRIPT, code)
    assert "closed this activity" in errors(student)[0]


def test_the_teachers_next_visit_opens_the_teachers_view_from_the_cookie(store, cookies):
    activity, key = store.create("poll", activities.poll_config("Q?", ["Yes", "No"], 1.0))
    cookies[classroom.TEACHER_COOKIE + activity.code] = key
    at = student_page(SCRIPT, activity.code)  # a new session of the teacher's browser
    assert at.sidebar.button(key="class_close") is not None
    assert answer_buttons(at) is None
    assert not [c for c in cookie_writes(at) if c["name"].startswith(classroom.TEACHER_COOKIE)]
    assert key not in every_text(at)


def test_the_report_and_the_exports_hold_the_class_results_inert(store, deferred):
    answers = ["<b>yes</b>", "no & more"]
    at = teacher_page(HOSTILE, "\n".join(answers), 2.0)
    code = code_of(at)
    for i, j in enumerate([0, 0, 1, 0, 1]):
        store.answer_poll(code, f"s{i}", j)
    run(at)
    report = deferred["class_poll_randomized_response_report.html"]()
    assert "<script>alert" not in report and "&lt;script&gt;alert" in report
    assert "5 students answered" in report
    assert "&lt;b&gt;yes&lt;/b&gt;" in report and "<b>yes</b>" not in report
    assert code not in kit(at).parameters.values()  # the settings, not who is who
    csv = deferred["the_class_s_answers_reported_and_estimated_shares.csv"]()
    assert "<b>yes</b>" in csv and "no & more" in csv  # the CSV holds the answers as typed
