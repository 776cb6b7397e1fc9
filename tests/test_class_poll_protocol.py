"""One student of the class poll at the protocol level (tests/protocolkit.py), as the load
benchmark's students are (benchmarks/class_poll_load.py, class_poll_students.py), on one
local server with a SQLite class database of its own (issue 37).

- The student's token goes in the cookie ``dpclass_student`` of its requests and
  websocket handshake; the page shows the question and the answer buttons; the tap is the
  component's one trigger value (ProtocolSession.trigger); the page acknowledges it ("Your
  phone sent: …", the buttons locked) and the class database holds exactly that report,
  under that token; the fragment the page reruns every few seconds reruns; after a dropped
  connection (ProtocolSession.reconnect) and on a second device with the same cookie the
  page knows the answer, and nothing more is stored.
- Against Chromium (marker ``browser``): the same page, a fixed random draw, the same tap.
  The protocol student's requests (first run, tap) are the browser's, field for field
  (protocolkit.comparable), the trigger included: its widget id and its JSON.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from browserkit import start_streamlit, stop_streamlit
from dpclass import activities, storage
from dpcore.ldp import krr_probabilities
from protocolkit import FINISHED, ProtocolSession, comparable, trigger_id
from streamlit.proto.Alert_pb2 import Alert
from test_browser import browser  # noqa: F401  (the fixture)
from ui.device import reported_for

pytestmark = pytest.mark.slow

PAGE = "class_poll"
KEY = "class_poll_answer"  # ui/pages/class_poll.py ANSWER_KEY
COOKIE = "dpclass_student"  # ui/classroom.py STUDENT_COOKIE
ANSWERS = ["Yes", "No", "Not sure"]
EPS = 1.5
TWO_32 = 2 ** 32


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`streamlit run app.py` with its class database a SQLite file of this module's."""
    data = tmp_path_factory.mktemp("class-data")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(storage.DATA_DIR_VARIABLE, str(data))
        mp.delenv(storage.URL_VARIABLE, raising=False)
        srv = start_streamlit(data / "server.log")
    srv.data = data
    try:
        yield srv
    finally:
        stop_streamlit(srv.proc)
    assert "Traceback" not in srv.log(), srv.log()


@pytest.fixture
def poll(server):
    store = storage.Store(f"sqlite:///{server.data / 'class.db'}")
    activity, _key = store.create("poll", activities.poll_config("Which?", ANSWERS, EPS))
    yield store, activity.code
    store.dispose()


def component(run):
    """The answer buttons' element data (ui.device.krr_answer), or None."""
    found = [e.bidi_component for e in run.elements if e.WhichOneof("type") == "bidi_component"
             and e.bidi_component.id.endswith(f"-{KEY}")]
    return json.loads(found[-1].json) if found else None


def alerts(run, fmt) -> list[str]:
    return [e.alert.body for e in run.elements
            if e.WhichOneof("type") == "alert" and e.alert.format == fmt]


def test_one_protocol_student_answers_and_the_page_and_the_database_agree(server, poll):
    store, code = poll
    host = urlsplit(server.url).netloc
    token = activities.new_secret()
    p, q = krr_probabilities(EPS, len(ANSWERS))
    with ProtocolSession(host, PAGE, f"code={code}", cookies={COOKIE: token}) as student:
        first = student.open()
        assert first.ok, first.exceptions
        assert "Which?" in first.texts()
        data = component(first)
        assert data["labels"] == ANSWERS and data["sent"] is None
        assert data["p"] == pytest.approx(p) and data["q"] == pytest.approx(q)
        assert not alerts(first, Alert.ERROR)
        assert not store.has_answered(code, token)
        # The frontend's timer reruns the students' shared results (a fragment).
        assert len(student.auto_reruns) == 1
        fragment = student.rerun_fragment()
        assert fragment.status == FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY and fragment.ok

        tap = student.trigger(KEY, "reported", 2)
        [state] = [w for w in tap.request.rerun_script.widget_states.widgets
                   if w.WhichOneof("value") == "json_trigger_value"]
        assert state.id == trigger_id(student.widget_id(KEY))
        assert state.json_trigger_value == '[{"event":"reported","value":2}]'
        assert tap.ok, tap.exceptions
        [sent] = alerts(tap, Alert.SUCCESS)
        assert sent.startswith("Your phone sent: «Not sure».")
        assert component(tap)["sent"] == 2  # the buttons locked, the report marked
        assert store.has_answered(code, token)
        assert store.poll_counts(code).tolist() == [0, 0, 1]
        # The trigger is sent once: the next run carries none.
        again = student.rerun_fragment()
        assert not [w for w in again.request.rerun_script.widget_states.widgets
                    if w.WhichOneof("value") == "json_trigger_value"]

        # The connection drops; the student takes it up again with the same cookies.
        student.ws.close()
        run, pings = student.reconnect(within=60)
        assert run.ok and pings >= 1
        assert component(run)["sent"] == 2 or any(
            a.startswith("This browser has already answered") for a in alerts(run, Alert.INFO))

    # Another device with the same cookie: already answered, nothing more stored.
    with ProtocolSession(host, PAGE, f"code={code}", cookies={COOKIE: token}) as device:
        run = device.open()
        assert run.ok
        assert alerts(run, Alert.INFO)[0].startswith("This browser has already answered")
        assert component(run) is None
    assert store.count(code) == 1

    # Another student (another token) gets the buttons.
    with ProtocolSession(host, PAGE, f"code={code}",
                         cookies={COOKIE: activities.new_secret()}) as other:
        assert component(other.open())["sent"] is None


# --- against Chromium ------------------------------------------------------------------------

@pytest.mark.browser
def test_the_protocol_student_taps_as_chromium_does(server, poll, browser):
    from browserkit import INIT_SCRIPT, LOAD_TIMEOUT_MS, VIEWPORT, expect, wait_idle
    from protocolkit import BrowserFrames
    from test_browser_device import fixed_draw

    store, code = poll
    k, truth, j = len(ANSWERS), 0, 1
    p, q = krr_probabilities(EPS, k)
    x = next(x for x in range(0, TWO_32, 2 ** 20) if reported_for(truth, x / TWO_32, p, q, k) == j)
    token = activities.new_secret()
    context = browser.new_context(viewport=VIEWPORT, locale="en-US", timezone_id="UTC",
                                  color_scheme="light")
    context.add_cookies([{"name": COOKIE, "value": token, "url": server.url}])
    context.add_init_script(INIT_SCRIPT)
    context.add_init_script(fixed_draw(x))
    try:
        page = context.new_page()
        frames = BrowserFrames(page)
        page.goto(f"{server.url}/{PAGE}?code={code}")
        button = page.get_by_role("button", name=ANSWERS[truth], exact=True)
        expect(button).to_be_enabled(timeout=LOAD_TIMEOUT_MS)
        wait_idle(page)
        button.click()
        expect(page.get_by_text("Your phone sent:", exact=False)).to_be_visible()
        wait_idle(page)
    finally:
        context.close()
    runs = [r for r in frames.runs() if not r.request.rerun_script.fragment_id]
    assert len(runs) == 2, [comparable(r.request) for r in runs]
    assert store.has_answered(code, token)

    with ProtocolSession(urlsplit(server.url).netloc, PAGE, f"code={code}",
                         cookies={COOKIE: activities.new_secret()}) as student:
        first = student.open()
        tap = student.trigger(KEY, "reported", j)
    assert first.ok and tap.ok
    assert [comparable(r.request) for r in (first, tap)] == \
        [comparable(r.request) for r in runs]
    assert store.count(code) == 2
