"""What the tests of the Class pages share (issue 37): a class database of the test's own, a
browser's cookies and address as a session sees them, a student's session on a page, the
student's device driven as Chromium drives it, the cookies a run writes, and everything a
page sends the browser as text.

AppTest has no browser: ``st.context.cookies`` and ``st.context.ip_address`` are mocks there.
:class:`Browser` stands in for one: its cookie jar is what the session reads when it starts,
and it takes the cookies a run's final elements write (ui.device.set_cookie's elements:
a cookie written in a run that ends with st.rerun() never reaches a real browser either).
"""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest

from conftest import APP_PATH, assert_clean, open_page, run
from dpclass import activities, storage
from pagekit import errors, markdown_text
from ui import classroom

COOKIE_COMPONENT = "device_cookie"
ANSWER_COMPONENT = "device_krr"
HOSTILE = ("<script>alert('x')</script> **bold** [link](https://evil.example) "
           "<img src=x onerror=alert(1)> `code` $x^2$ # heading")


class Browser:
    """One browser: its cookies and its address. ``open`` makes a new session (a tab, a
    reload) that sees the cookies as they are now."""

    current: Browser | None = None  # the browser whose session runs now

    def __init__(self, address: str = "203.0.113.7"):
        self.jar: dict[str, str] = {}
        self.address = address

    def run(self, at: AppTest) -> AppTest:
        """Run ``at`` as this browser's session, then keep the cookies its elements write."""
        Browser.current = self
        try:
            run(at)
        finally:
            Browser.current = None
        self.keep_cookies(at)
        return at

    def keep_cookies(self, at: AppTest) -> None:
        for data in cookie_writes(at):
            if data["maxAge"] > 0:
                self.jar[data["name"]] = data["value"]
            else:
                self.jar.pop(data["name"], None)

    def open(self, script: str, query: dict[str, str] | None = None) -> AppTest:
        """A new session of this browser on ``script`` with the address's ``query``."""
        at = AppTest.from_file(str(APP_PATH), default_timeout=60)
        self.run(at)
        for key, value in (query or {}).items():
            at.query_params[key] = value
        at.switch_page(script)
        return self.run(at)


def _browsers(monkeypatch) -> Browser:
    """Sessions read the cookies and address of the :class:`Browser` that runs them; a
    session run outside one, those of the browser returned (no cookies, 203.0.113.7)."""
    from streamlit.runtime.context import ContextProxy

    nobody = Browser()
    monkeypatch.setattr(ContextProxy, "cookies",
                        property(lambda self: (Browser.current or nobody).jar))
    monkeypatch.setattr(ContextProxy, "ip_address",
                        property(lambda self: (Browser.current or nobody).address))
    return nobody


@pytest.fixture
def browsers(monkeypatch) -> Browser:
    """Sessions read the cookies and address of the :class:`Browser` that runs them (a
    session run outside one sees no cookies, from 203.0.113.7)."""
    return _browsers(monkeypatch)


@pytest.fixture(autouse=True)
def cookies(monkeypatch) -> dict[str, str]:
    """The browser's cookies as a session sees them when it starts (st.context.cookies; in
    AppTest a mock), and its address: a browser without cookies unless a test adds some.
    Autouse in every test module that imports it."""
    return _browsers(monkeypatch).jar


def _class_database(monkeypatch, tmp_path):
    """The class database of this test: a SQLite file in tmp_path, the pages' too."""
    monkeypatch.setenv(storage.URL_VARIABLE, f"sqlite:///{tmp_path / 'class.db'}")
    classroom._store.clear()
    yield classroom.store()
    classroom.store().dispose()
    classroom._store.clear()


class_store = pytest.fixture(_class_database, name="class_store")
store = pytest.fixture(_class_database, name="store")  # the same, as the page tests name it


def database_down(*args, **kwargs):
    """A method of :class:`~dpclass.storage.Store` patched in when the database cannot be
    reached."""
    raise storage.Unavailable("down")


def press(at: AppTest, label: str) -> AppTest:
    """The run after a click on the page's one button labelled ``label``."""
    [button] = [b for b in at.button if b.label == label]
    button.click()
    return run(at)


def submit_setup(script: str, title: str, start: str, settings: dict[str, tuple[str, object]],
                 query: dict[str, str] | None = None) -> AppTest:
    """The teacher's setup of ``script`` filled in (``settings``: a widget's key, its kind and
    its value) and its button ``start`` pressed: the teacher's view of a new activity."""
    at = open_page(script, title, query)
    for key, (kind, value) in settings.items():
        getattr(at, kind)(key=key).set_value(value)
    return press(at, start)


def refused_start(at: AppTest, store: storage.Store) -> str:
    """The one error a refused start of a setup shows, in plain words (no traceback), after
    which nothing is made: no code in the address, no activity in the class database."""
    [message] = errors(at)
    assert "Traceback" not in message, message
    assert classroom.CODE_PARAM not in at.query_params
    assert store.table_counts()["activities"] == 0
    return message


def new_activity(at: AppTest, store: storage.Store, kind: str) -> tuple[storage.Activity, str]:
    """The activity of ``kind`` whose teacher's view ``at`` opened on its start, and its
    teacher key, checked: its code alone in the address (with the reader's language at
    most), the only key this session holds and the activity's own; the key nowhere on the
    page nor in the address, written to this browser's teacher cookie only; the join code
    shown for the projector."""
    code = code_of(at)
    assert set(at.query_params) <= {classroom.CODE_PARAM, "lang"}  # (the reader's language)
    keys = at.session_state[classroom._TEACHER_KEYS]
    assert list(keys) == [code]
    key = keys[code]
    assert store.is_teacher(code, key)
    activity = store.get(code)
    assert activity.kind == kind
    assert activities.shown_code(code) in markdown_text(at)
    assert key not in every_text(at)
    # the key goes to this browser's cookie only (its next visits open the teacher's view)
    assert teacher_cookies(at, code) == [key]
    assert all(key not in v for values in at.query_params.values() for v in values)
    return activity, key


def student_page(script: str, code: str, token: str | None = None) -> AppTest:
    """A student's browser opening the join link of ``script`` (no teacher key); ``token``
    is the browser's student token, when given."""
    at = AppTest.from_file(str(APP_PATH), default_timeout=60)
    run(at)
    if token is not None:
        at.session_state[classroom._STUDENT_KEY] = token
    at.query_params[classroom.CODE_PARAM] = code
    at.switch_page(script)
    return run(at)


def code_of(at: AppTest) -> str:
    """The join code in the page's address."""
    value = at.query_params[classroom.CODE_PARAM]
    return value if isinstance(value, str) else value[0]


def cookie_writes(at: AppTest) -> list[dict]:
    """The cookies the page writes in the browser in this run (ui.device.set_cookie)."""
    return [json.loads(e.proto.json) for e in at.get("bidi_component")
            if e.proto.component_name == COOKIE_COMPONENT]


def teacher_cookies(at: AppTest, code: str) -> list[str]:
    """The values the page writes to this browser's teacher-key cookie of ``code``."""
    return [c["value"] for c in cookie_writes(at) if c["name"] == classroom.TEACHER_COOKIE + code]


def trace_values(values) -> np.ndarray:
    """A trace's numbers as Plotly's JSON holds them (a list, or a typed array: base64 and
    dtype)."""
    if isinstance(values, dict) and "bdata" in values:
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    return np.asarray(values, dtype=float)


def page_texts(at: AppTest) -> list[str]:
    """The Markdown, subheaders, captions and messages a reader reads, one string each."""
    kinds = ("markdown", "subheader", "caption", "success", "info", "error", "warning")
    return [e.value for kind in kinds for e in at.get(kind)]


def every_text(at: AppTest) -> str:
    """Everything the page sends the browser, element by element (labels, bodies, values,
    help, the components' data), as one text: all but the cookie writer's data, which the
    browser keeps as a cookie and never shows."""
    out = []

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None and getattr(proto, "component_name", "") != COOKIE_COMPONENT:
            out.append(str(proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(out)


def answer_buttons(at: AppTest):
    """The device's answer buttons (ui.device.krr_answer), or None."""
    found = [e.proto for e in at.get("bidi_component")
             if e.proto.component_name == ANSWER_COMPONENT]
    return found[0] if found else None


def tap(at: AppTest, reported: int, browser: Browser | None = None) -> AppTest:
    """The run the browser asks for when the phone reports ``reported``: the component's
    trigger alone, as Chromium sends it (tests/test_browser_device.py reads those frames;
    tests/test_ui_internals.py pins AppTest's ``_run`` and the trigger's widget id)."""
    states = WidgetStates()
    state = states.widgets.add()
    state.id = f"$$STREAMLIT_INTERNAL_KEY_{answer_buttons(at).id}__events"
    state.json_trigger_value = json.dumps([{"event": "reported", "value": reported}])
    Browser.current = browser
    try:
        at._run(states)
    finally:
        Browser.current = None
    if browser is not None:
        browser.keep_cookies(at)
    assert_clean(at)
    return at
