"""ui.device in Chromium (Debian's /usr/bin/chromium through Playwright), on the harness page
tests/fixtures/device_app.py served by `streamlit run`.

The key test: the browser's random draw fixed (crypto.getRandomValues replaced by an init
script), two true answers that the draw turns into the same report make the same traffic,
frame for frame and request for request, from the page load to the server's
acknowledgement; and one true answer turned into two different reports does not (the
recording sees the report). Then: the app receives reported_for's report; the browser's
reportedFor is reported_for at every cut; the cookie writer; the buttons on a phone.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

import pytest

from browserkit import (EXPECT_TIMEOUT_MS, INIT_SCRIPT, LOAD_TIMEOUT_MS, expect, running_server,
                        stop_streamlit, wait_idle)
from conftest import REPO_ROOT
from dpcore.ldp import krr_probabilities
from test_ui_device import TWO_32, draws_for
from test_browser import browser  # noqa: F401  (the fixture)
from ui.device import reported_for

pytestmark = pytest.mark.browser

APP = "tests/fixtures/device_app.py"
PHONE = {"width": 390, "height": 844}
COOKIE, COOKIE_VALUE = "device_test", "v-123_abc"  # as tests/fixtures/device_app.py sets it


def label(t: int) -> str:
    return f"Answer {chr(ord('A') + t)}"  # tests/fixtures/device_app.py's labels


# --- fixtures: the browser, the harness server --------------------------------------------------

@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):
    # The harness imports ui.device from the repository (PYTHONPATH: streamlit runs it from
    # tests/fixtures).
    server = running_server(tmp_path_factory.mktemp("device") / "server.log",
                            env={"PYTHONPATH": str(REPO_ROOT)}, script=APP)
    try:
        yield server
    finally:
        stop_streamlit(server.proc)
    assert "Traceback" not in server.log(), server.log()


def fixed_draw(x: int) -> str:
    """An init script: the page's crypto.getRandomValues gives ``x`` for a one-value
    Uint32Array (device.js's draw), and real random values for anything else."""
    assert 0 <= x < TWO_32
    return f"""(() => {{
  const original = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = (array) => {{
    if (array instanceof Uint32Array && array.length === 1) {{ array[0] = {x}; return array; }}
    return original(array);
  }};
}})();"""


def phone_context(browser, x: int | None = None):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(EXPECT_TIMEOUT_MS)
    context.add_init_script(INIT_SCRIPT)  # for wait_idle
    if x is not None:
        context.add_init_script(fixed_draw(x))
    return context


def open_harness(page, server, k: int, eps: float) -> None:
    page.goto(f"{server.url}/?{urlencode({'k': k, 'eps': eps})}")
    expect(page.get_by_text("No report yet")).to_be_visible(timeout=LOAD_TIMEOUT_MS)
    expect(page.get_by_role("button", name=label(k - 1))).to_be_enabled()
    wait_idle(page)


def draw_giving(t: int, j: int, p: float, q: float, k: int) -> int:
    """A 32-bit draw in the middle of those that make the report j for the true answer t."""
    counts = draws_for(t, p, q, k)
    start = sum(counts[:j])
    x = start + counts[j] // 2
    assert reported_for(t, x / TWO_32, p, q, k) == j
    return x


# --- the key test: the traffic does not depend on the true answer ------------------------------

@dataclass
class Recording:
    """What left (or could leave) the browser of one session, from the page load to the
    server's acknowledgement of the report."""
    before: list = field(default_factory=list)  # HTTP requests before the tap: method, URL, body
    after: list = field(default_factory=list)  # HTTP requests from the tap on
    sockets: list = field(default_factory=list)  # the WebSocket URLs opened
    frames: list = field(default_factory=list)  # every frame the browser sent, decoded
    console: list = field(default_factory=list)  # every console message: type, text
    end: dict = field(default_factory=dict)  # the address, cookies and storage at the end


# The one normalisation of the HTTP requests: the browser names the blob that holds a
# component's JavaScript (Streamlit's BidiComponent imports a component's inline JS from
# URL.createObjectURL) with a random UUID of its own making, new on every page load. The
# blob holds device.js, the same text for every answer, and it is made when the buttons are
# first drawn, before any answer is given.
BLOB = re.compile(r"^blob:(http://[^/]+)/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def _request(request) -> tuple:
    url = BLOB.sub(r"blob:\1/<object URL>", request.url)
    return request.method, url, request.post_data


def _frame(payload) -> dict:
    """A frame the browser sent: Streamlit's BackMsg, field by field (a dict of its fields
    as the protobuf names them); a text frame, should one be sent, as its text."""
    from google.protobuf.json_format import MessageToDict
    from streamlit.proto.BackMsg_pb2 import BackMsg

    if isinstance(payload, str):
        return {"text": payload}
    return MessageToDict(BackMsg.FromString(payload), preserving_proto_field_name=True)


# The one normalisation of the page's state at the end: Streamlit's server gives every page
# load an XSRF cookie of its own (a random token and the time), before any answer is given
# (server.enableXsrfProtection in .streamlit/config.toml).
XSRF = re.compile(r"(_streamlit_xsrf=)[^;]*")

END_STATE = """() => ({
  url: location.href,
  cookie: document.cookie,
  local: Object.entries(localStorage).sort(),
  session: Object.entries(sessionStorage).sort(),
})"""


def record(browser, server, *, k: int, eps: float, t: int, x: int) -> Recording:
    """Open the harness in a new browser context whose draw is ``x``, tap answer ``t``, and
    wait for the server to say it received reported_for's report."""
    p, q = krr_probabilities(eps, k)
    j = reported_for(t, x / TWO_32, p, q, k)
    rec = Recording()
    context = phone_context(browser, x)
    try:
        page = context.new_page()
        tapped = []
        page.on("request", lambda r: (rec.after if tapped else rec.before).append(_request(r)))
        page.on("console", lambda m: rec.console.append((m.type, m.text)))

        def on_socket(ws):
            rec.sockets.append(ws.url)
            ws.on("framesent", lambda payload: rec.frames.append(_frame(payload)))

        page.on("websocket", on_socket)
        open_harness(page, server, k, eps)
        tapped.append(True)
        page.get_by_role("button", name=label(t)).click()
        expect(page.get_by_text(f"Received report: {j}", exact=True)).to_be_visible()
        wait_idle(page)  # and no frame after it for a while
        rec.end = page.evaluate(END_STATE)
        rec.end["cookie"] = XSRF.sub(r"\1<token>", rec.end["cookie"])
        rec.end["cookies"] = sorted((c["name"], "<token>" if c["name"] == "_streamlit_xsrf"
                                     else c["value"]) for c in context.cookies())
    finally:
        context.close()
    # The HTTP requests of one phase are compared as a sorted list: the browser fetches the
    # page's files in parallel, and the order in which it starts them follows load timing
    # (the same files, in the same code path, for every answer).
    rec.before.sort(key=repr)
    rec.after.sort(key=repr)
    return rec


def differences(a, b, path="") -> list[str]:
    """Where two decoded recordings differ, field by field."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for key in sorted(set(a) | set(b), key=str)
                for d in differences(a.get(key), b.get(key), f"{path}.{key}")]
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items against {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r} against {b!r}"]


def _as_dict(rec: Recording) -> dict:
    return {"before": rec.before, "after": rec.after, "sockets": rec.sockets,
            "frames": rec.frames, "console": rec.console, "end": rec.end}


def _trigger(rec: Recording) -> list[dict]:
    """The trigger values the browser sent (the widget states that carry one)."""
    return [w for f in rec.frames for w in f.get("rerun_script", {})
            .get("widget_states", {}).get("widgets", []) if "json_trigger_value" in w]


def test_two_true_answers_with_the_same_report_make_the_same_traffic(browser, server):
    k, eps, j = 4, 1.0, 2
    p, q = krr_probabilities(eps, k)
    a, b = 0, 3  # true answers other than j and each other: reports drawn with q
    rec_a = record(browser, server, k=k, eps=eps, t=a, x=draw_giving(a, j, p, q, k))
    rec_b = record(browser, server, k=k, eps=eps, t=b, x=draw_giving(b, j, p, q, k))
    rec_j = record(browser, server, k=k, eps=eps, t=j, x=draw_giving(j, j, p, q, k))

    # The recording holds the session and the report: a page load, a WebSocket, the first
    # run's frame and the tap's, whose trigger is the report and nothing more.
    assert rec_a.sockets and rec_a.before and len(rec_a.frames) >= 2
    [tap] = _trigger(rec_a)
    assert tap["json_trigger_value"] == f'[{{"event":"reported","value":{j}}}]'
    assert rec_a.end["url"].endswith(f"/?{urlencode({'k': k, 'eps': eps})}")  # unchanged
    assert rec_a.after == []  # no HTTP request from the tap on: the report went by WebSocket

    assert differences(_as_dict(rec_a), _as_dict(rec_b)) == []
    assert differences(_as_dict(rec_a), _as_dict(rec_j)) == []  # the truth told, too


def test_the_same_true_answer_with_different_reports_makes_different_traffic(browser, server):
    """The recording is sensitive: the report changes it, at the trigger's value only."""
    k, eps, t = 4, 1.0, 1
    p, q = krr_probabilities(eps, k)
    rec_1 = record(browser, server, k=k, eps=eps, t=t, x=draw_giving(t, 1, p, q, k))
    rec_3 = record(browser, server, k=k, eps=eps, t=t, x=draw_giving(t, 3, p, q, k))
    found = differences(_as_dict(rec_1), _as_dict(rec_3))
    assert len(found) == 1, found
    assert re.fullmatch(r"\.frames\[\d+\]\.rerun_script\.widget_states\.widgets\[0\]"
                        r"\.json_trigger_value: .*\"value\":1.* against .*\"value\":3.*",
                        found[0]), found


# --- the report the app receives; the browser's draw is reported_for --------------------------

def _last_draw(t: int, j: int, p: float, q: float, k: int) -> int:
    counts = draws_for(t, p, q, k)
    return sum(counts[:j + 1]) - 1


@pytest.mark.parametrize(("k", "eps", "t", "where"), [
    (2, 0.5, 1, "first"),       # u = 0: the first answer, whatever the truth
    (10, 2.0, 9, "last of 8"),  # the last draw before the cut to the truth
    (10, 2.0, 0, "final"),      # u = 1 − 2⁻³²: the last answer
])
def test_the_app_receives_reported_for(browser, server, k, eps, t, where):
    p, q = krr_probabilities(eps, k)
    x = {"first": 0, "last of 8": _last_draw(t, 8, p, q, k), "final": TWO_32 - 1}[where]
    j = reported_for(t, x / TWO_32, p, q, k)
    assert j == {"first": 0, "last of 8": 8, "final": k - 1}[where]
    context = phone_context(browser, x)
    try:
        page = context.new_page()
        open_harness(page, server, k, eps)
        page.get_by_role("button", name=label(t)).click()
        expect(page.get_by_text(f"Received report: {j}", exact=True)).to_be_visible()
        # locked, the report marked (not the answer tapped)
        sent = page.get_by_role("button", name=label(j), exact=True)
        expect(sent).to_have_attribute("aria-current", "true")
        for i in range(k):
            expect(page.get_by_role("button", name=label(i), exact=True)).to_be_disabled()
        assert page.locator("[aria-current]").count() == 1
    finally:
        context.close()


MIRROR = """async ([source, cases]) => {
  const url = URL.createObjectURL(new Blob([source], {type: 'text/javascript'}));
  const {reportedFor} = await import(url);
  return cases.map(([t, x, p, q, k]) => reportedFor(t, x / 4294967296, p, q, k));
}"""


def test_the_browsers_draw_is_reported_for_at_every_cut(browser):
    """device.js's reportedFor, run by Chromium, against reported_for on each side of every
    cut between two reports, for k = 2 to 10 and every true answer."""
    cases = []
    for k in range(2, 11):
        for eps in (0.1, 1.0, 3.0):
            p, q = krr_probabilities(eps, k)
            for t in range(k):
                ends = [0]
                for count in draws_for(t, p, q, k):
                    ends.append(ends[-1] + count)
                for x in {0, TWO_32 - 1, *(e - 1 for e in ends[1:]), *ends[1:-1]}:
                    cases.append((t, x, p, q, k))
    source = (REPO_ROOT / "ui/static/device.js").read_text(encoding="utf-8")
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_content("<!doctype html><title>mirror</title>")
        got = page.evaluate(MIRROR, [source, cases])
    finally:
        context.close()
    want = [reported_for(t, x / TWO_32, p, q, k) for t, x, p, q, k in cases]
    assert got == want
    assert len(cases) > 1000


# --- the cookie writer -------------------------------------------------------------------------

def test_a_cookie_written_is_read_by_the_next_session_and_forgotten(browser, server):
    context = phone_context(browser)
    try:
        page = context.new_page()
        open_harness(page, server, 3, 1.0)
        expect(page.get_by_text("Cookie at session start: (none)")).to_be_visible()
        page.get_by_role("button", name="Set the cookie").click()
        page.wait_for_function(
            "c => document.cookie.split('; ').includes(c)", arg=f"{COOKIE}={COOKIE_VALUE}")
        [cookie] = [c for c in context.cookies() if c["name"] == COOKIE]
        assert (cookie["value"], cookie["path"], cookie["sameSite"]) == (
            COOKIE_VALUE, "/", "Strict")
        assert not cookie["secure"] and not cookie["httpOnly"]  # http here; a page script's
        assert abs(cookie["expires"] - (time.time() + 3600)) < 120
        # this session does not see it; the next one does
        expect(page.get_by_text("Cookie at session start: (none)")).to_be_visible()
        page.reload()
        expect(page.get_by_text(f"Cookie at session start: {COOKIE_VALUE}")).to_be_visible(
            timeout=LOAD_TIMEOUT_MS)

        page.get_by_role("button", name="Forget the cookie").click()
        page.wait_for_function("c => !document.cookie.includes(c)", arg=f"{COOKIE}=")
        assert not [c for c in context.cookies() if c["name"] == COOKIE]
        page.reload()
        expect(page.get_by_text("Cookie at session start: (none)")).to_be_visible(
            timeout=LOAD_TIMEOUT_MS)
    finally:
        context.close()


# --- on a phone: real buttons, big enough, focus seen, no serious axe violation ---------------

FOCUSED = """() => {
  let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  if (!e || e.tagName !== 'BUTTON') return null;
  const s = getComputedStyle(e);
  return {text: e.textContent, outline: s.outlineStyle, width: s.outlineWidth};
}"""


def test_the_answers_are_phone_sized_buttons_with_a_visible_focus(browser, server):
    from a11ykit import SERIOUS, audit

    k = 10
    context = phone_context(browser, x=0)
    try:
        page = context.new_page()
        open_harness(page, server, k, 1.0)
        buttons = [page.get_by_role("button", name=label(i), exact=True) for i in range(k)]
        for button in buttons:
            box = button.bounding_box()
            assert box["height"] >= 44 and box["width"] >= 300, box
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        group = page.get_by_role("group", name="Which answer?")
        expect(group.get_by_role("button")).to_have_count(k)

        focus = None
        for _ in range(12):  # the keyboard reaches the first answer
            page.keyboard.press("Tab")
            focus = page.evaluate(FOCUSED)
            if focus and focus["text"] == label(0):
                break
        assert focus == {"text": label(0), "outline": "solid", "width": "3px"}, focus
        assert [v for v in audit(page) if v["impact"] in SERIOUS] == []

        page.keyboard.press("Enter")  # a tap by keyboard: draw 0 reports the first answer
        expect(page.get_by_text("Received report: 0", exact=True)).to_be_visible()
        expect(buttons[0]).to_have_attribute("aria-current", "true")
        assert [v for v in audit(page) if v["impact"] in SERIOUS] == []
    finally:
        context.close()
