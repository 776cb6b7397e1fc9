"""The journey tester of the Class pages (issue 37): a teacher and three students, each in
their own browser, through random sequences of what a class does — start an activity,
follow the join link or type the code (rightly or not), answer, reload, switch to Korean,
present, share the results, resume as the teacher on another device (or fail to, with a
wrong key), close — with the invariants checked after every step:

- no page shows an exception or a traceback;
- the teacher key is nowhere a page sends the browser (no address, Share link, text,
  element or component data; only the cookie writer holds it) on anyone's screen;
- a student's browser never reaches the teacher's controls; the teacher's always does;
- the class database holds an answer of a student exactly when their page said it was
  taken (one per browser), and the teacher's count is the database's;
- a page in Korean speaks Korean all the way (tests/koreankit.py).

Hypothesis draws the journeys under a fixed seed (``derandomize``), as tests/test_journeys.py
does for the tool pages; ``CLASS_JOURNEY_STEPS`` steps an activity (default 120; the
extended tier's ``scripts/test.sh --all`` runs 600).
"""

from __future__ import annotations

import functools
import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as hs
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition,
                                 rule, run_state_machine_as_test)

from classkit import Browser, answer_buttons, browsers, class_store, every_text, tap  # noqa: F401
from conftest import assert_clean
from dpclass import activities
from pagekit import widget_keys
from test_ui_i18n import assert_korean_all_the_way
from ui import classroom, registry

STEPS = int(os.environ.get("CLASS_JOURNEY_STEPS",
                           "600" if os.environ.get("JOURNEY_STEPS", "") == "2000" else "120"))
STEPS_PER_JOURNEY = 12
TEACHER_TOOLS = ("class_close", "class_delete", "class_share")
HOSTILE = "<b>가</b> **나** [다](#) $q$"  # hostile Markdown and HTML, and no English word

SETUPS = {
    "poll": (registry.CLASS_POLL, "Start the poll", {
        "class_poll_question": ("text_area", f"어젯밤 7시간 잤나요? {HOSTILE}"),
        "class_poll_answers": ("text_area", "예\n아니요\n기억 안 남"),
        "class_poll_eps": ("select_slider", 1.0)}),
    "histogram": (registry.CLASS_HISTOGRAM, "Start", {
        "class_hist_question": ("text_area", f"어젯밤 잔 시간 {HOSTILE}"),
        "class_hist_bins": ("text_area", "<5\n5-7\n7+"),
        "class_hist_groups": ("text_area", "1반\n2반"),
        "class_hist_budget": ("select_slider", 2.0)}),
    "attack": (registry.CLASS_ATTACK, "Start the game", {
        "class_attack_mechanism": ("radio", "gaussian"),
        "class_attack_level": ("select_slider", 1.0),
        "class_attack_rounds": ("slider", 5)}),
}


COUNTS: Counter = Counter()  # rule -> times taken, in this test's journeys


def counted(fn):
    """Counts the rule's steps in COUNTS, under its name."""
    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        COUNTS[fn.__name__] += 1
        return fn(self, *args, **kwargs)
    return wrapper


class ClassJourney(RuleBasedStateMachine):
    """One class on one activity: the teacher's browser and three students'."""

    kind = "poll"

    def __init__(self):
        super().__init__()
        self.page, self.start_label, self.fields = SETUPS[self.kind]
        self.teacher = Browser("198.51.100.20")
        self.teachers = {self.teacher}  # the teacher's devices that hold the key
        self.students = [Browser("203.0.113.7") for _ in range(3)]  # one school address
        self.tabs: dict[Browser, object] = {}
        self.korean: set[Browser] = set()
        self.code = self.key = None
        self.taken: set[Browser] = set()  # the students whose page said "taken"
        self.closed = False

    # --- helpers ----------------------------------------------------------------------------
    @property
    def store(self):
        return classroom.store()

    def query(self, browser: Browser, **more) -> dict[str, str]:
        query = {classroom.CODE_PARAM: self.code}
        if browser in self.korean:
            query["lang"] = "ko"
        return {**query, **more}

    def token(self, browser: Browser) -> str | None:
        at = self.tabs.get(browser)
        token = at.session_state[classroom._STUDENT_KEY] if at is not None and \
            classroom._STUDENT_KEY in at.session_state else None
        return token or browser.jar.get(classroom.STUDENT_COOKIE)

    def said_taken(self, at) -> bool:
        """Whether the page says this browser's answer is in (now, or earlier)."""
        texts = [e.value for e in at.success] + [e.value for e in at.info]
        return any(("sent" in s or "results are in" in s or "already" in s
                    or "보냈" in s or "이미" in s) for s in texts)

    # --- the teacher --------------------------------------------------------------------------
    @initialize()
    @counted
    def teacher_starts(self):
        at = self.teacher.open(self.page.script)
        for key, (kind, value) in self.fields.items():
            getattr(at, kind)(key=key).set_value(value)
        [start] = [b for b in at.button if b.label == self.start_label]
        start.click()
        self.teacher.run(at)
        self.tabs[self.teacher] = at
        self.code = at.query_params[classroom.CODE_PARAM]
        self.code = self.code if isinstance(self.code, str) else self.code[0]
        self.key = at.session_state[classroom._TEACHER_KEYS][self.code]
        assert self.store.is_teacher(self.code, self.key)

    @rule()
    @counted
    def teacher_refreshes(self):
        """What the live fragment does every few seconds (a rerun, here)."""
        at = self.tabs.get(self.teacher)
        if at is not None:
            self.teacher.run(at)
            # The count the teacher reads is the database's.
            shown = {m.label: m.value for m in at.metric}
            label = next((x for x in COUNT_LABELS if x in shown), None)
            if label is None:  # a closed histogram: its raw values, and their count, are gone
                assert self.kind == "histogram" and self.closed, shown
                return
            assert shown[label] == f"{self.store.count(self.code):,}", (shown, label)

    @rule(korean=hs.booleans(), present=hs.booleans())
    @counted
    def teacher_reloads(self, korean, present):
        """A reload, the Korean link, or presenting mode in a new tab: the cookie keeps the
        teacher the teacher."""
        (self.korean.add if korean else self.korean.discard)(self.teacher)
        more = {"present": "1"} if present else {}
        self.tabs[self.teacher] = self.teacher.open(self.page.script,
                                                    self.query(self.teacher, **more))
        assert classroom.TEACHER_COOKIE + self.code in self.teacher.jar

    @rule(on=hs.booleans())
    @counted
    def teacher_shares(self, on):
        at = self.tabs[self.teacher]
        toggle = at.toggle(key="class_share")
        toggle.set_value(on)
        self.teacher.run(at)

    @precondition(lambda self: not self.closed)
    @rule(data=hs.data())
    @counted
    def teacher_closes(self, data):
        if not data.draw(hs.integers(0, 5), label="close now (0)") == 0:
            return
        at = self.tabs[self.teacher]
        at.button(key="class_close").click()
        self.teacher.run(at)
        self.closed = True
        assert self.store.get(self.code).closed

    @rule(right=hs.booleans())
    @counted
    def teacher_resumes_on_another_device(self, right):
        """A second device of the teacher's: the join link shows a student's view until
        the key is given (never on screen); a wrong key is refused in plain words."""
        device = Browser("198.51.100.21")
        at = device.open(self.page.script, self.query(device))
        assert not widget_keys(at) & set(TEACHER_TOOLS)
        at.text_input(key="class_key_typed").set_value(self.key if right else self.key[::-1])
        device.run(at)
        if right:
            assert "class_close" in widget_keys(at) or self.closed
            assert "class_share" in widget_keys(at)
            self.teacher = device  # the teacher goes on from here
            self.teachers.add(device)
            self.tabs[device] = at
        else:
            assert any("teacher key" in e.value or "교사" in e.value for e in at.error), \
                [e.value for e in at.error]
            assert not widget_keys(at) & set(TEACHER_TOOLS)

    # --- the students -------------------------------------------------------------------------
    @rule(i=hs.integers(0, 2), korean=hs.booleans())
    @counted
    def student_follows_the_link(self, i, korean):
        s = self.students[i]
        (self.korean.add if korean else self.korean.discard)(s)
        self.tabs[s] = s.open(self.page.script, self.query(s))

    @rule(i=hs.integers(0, 2), right=hs.booleans())
    @counted
    def student_types_the_code(self, i, right):
        s = self.students[i]
        at = s.open(registry.CLASS_JOIN.script, {"lang": "ko"} if s in self.korean else {})
        typed = activities.shown_code(self.code).lower() if right else "ZZZZ-ZZZZ"
        at.text_input(key="class_join_code").set_value(typed)
        [join] = [b for b in at.button if b.label in ("Join", "참여하기")]
        join.click()
        s.run(at)
        if right:
            # The browser now shows the activity's page at its address (st.switch_page); an
            # AppTest stays on the page it ran, so it is moved there as the browser is.
            assert at.title[0].value != registry.CLASS_JOIN.title or at.error, "no join"
            at.query_params[classroom.CODE_PARAM] = self.code
            at.switch_page(self.page.script)
            self.tabs[s] = s.run(at)
        else:
            assert at.error, "a wrong code is said"

    @rule(i=hs.integers(0, 2), data=hs.data())
    @counted
    def student_answers(self, i, data):
        s = self.students[i]
        at = self.tabs.get(s)
        if at is None:  # (a tab is always the activity's page: the join page moves on)
            return
        before = self.store.count(self.code)
        if self.kind == "poll":
            if answer_buttons(at) is None:
                return
            k = len(self.store.get(self.code).config["answers"])
            tap(at, data.draw(hs.integers(0, k - 1), label="reported"), s)
        elif self.kind == "histogram":
            if not _has(at, "radio", "class_hist_value"):
                return
            config = self.store.get(self.code).config
            at.radio(key="class_hist_group").set_value(
                data.draw(hs.integers(0, len(config["groups"]) - 1), label="group"))
            at.radio(key="class_hist_value").set_value(
                data.draw(hs.integers(0, len(config["bins"]) - 1), label="value"))
            [send] = [b for b in at.button if b.label in ("Send", "보내기")][:1] or [None]
            if send is None:
                return
            send.click()
            s.run(at)
        else:
            while _has(at, "button", "class_attack_guess_d"):
                key = data.draw(hs.sampled_from(["class_attack_guess_d",
                                                 "class_attack_guess_alt"]), label="guess")
                at.button(key=key).click()
                s.run(at)
        after = self.store.count(self.code)
        if self.said_taken(at):
            self.taken.add(s)
        if after > before:
            COUNTS["an answer taken"] += 1
        assert after - before in (0, 1)

    @rule(i=hs.integers(0, 2))
    @counted
    def student_reloads(self, i):
        s = self.students[i]
        if s in self.tabs:
            self.tabs[s] = s.open(self.page.script, self.query(s))

    # --- what must hold after every step ---------------------------------------------------
    @invariant()
    def every_page_is_clean_and_hides_the_key(self):
        for browser, at in self.tabs.items():
            assert_clean(at)
            if self.key is None:
                continue
            for name in at.query_params:
                assert self.key not in str(at.query_params[name])
            assert self.key not in every_text(at), "the teacher key reached a page"

    @invariant()
    def only_the_teacher_reaches_the_teachers_controls(self):
        for browser, at in self.tabs.items():
            tools = widget_keys(at) & set(TEACHER_TOOLS)
            if browser in self.teachers:
                assert "class_share" in tools, "the teacher lost their controls"
            else:
                assert not tools, "a student reached the teacher's controls"

    @invariant()
    def the_database_holds_what_the_pages_said(self):
        if self.code is None:
            return
        held = {s for s in self.students if self.token(s) is not None
                and self.store.has_answered(self.code, self.token(s))}
        if self.kind == "histogram" and self.closed:
            assert not held, "a closed histogram kept raw values"
        else:
            assert self.taken <= held, "a page said an answer was taken that is not kept"
        assert self.store.count(self.code) == len(held)

    @invariant()
    def korean_pages_speak_korean(self):
        for browser, at in self.tabs.items():
            if browser in self.korean:
                assert_korean_all_the_way(at, f"{self.kind}: {browser.address}")


# The teacher's count of answers, by page, in English and Korean.
COUNT_LABELS = ("Answers received", "Students who finished", "Values received", "받은 답변 수",
                "끝낸 학생 수", "받은 값 수")


RULES = {"teacher_starts", "teacher_refreshes", "teacher_reloads", "teacher_shares",
         "teacher_closes", "teacher_resumes_on_another_device", "student_follows_the_link",
         "student_types_the_code", "student_answers", "student_reloads"}


def _has(at, kind: str, key: str) -> bool:
    try:
        getattr(at, kind)(key=key)
    except KeyError:
        return False
    return True


@pytest.mark.parametrize("kind", list(SETUPS))
def test_class_journeys(kind, browsers, class_store):  # noqa: F811
    machine = type(f"{kind.title()}Journey", (ClassJourney,), {"kind": kind})
    COUNTS.clear()
    run_state_machine_as_test(machine, settings=settings(
        max_examples=max(2, -(-STEPS // STEPS_PER_JOURNEY)),
        stateful_step_count=STEPS_PER_JOURNEY, derandomize=True, deadline=None, database=None,
        suppress_health_check=list(HealthCheck)), _min_steps=STEPS_PER_JOURNEY)
    print(f"class journeys, {kind}: {dict(COUNTS)}")
    # Every kind of step was taken: a journey that never reaches a rule tests nothing of it.
    assert set(COUNTS) >= RULES | {"an answer taken"}, RULES - set(COUNTS)
