"""The protocol client (tests/protocolkit.py) against Chromium, on one server (issue 20:
"the same page and change must give the same deltas").

For a page, Chromium opens it and moves one slider by one keyboard step while the test
records the websocket's frames (Playwright's ``framesent``/``framereceived``: the BackMsgs
the frontend sends, the ForwardMsgs the server answers). Then a ProtocolSession opens the
same page and sends the same change: the slider the browser moved, to the value the
browser sent. The client says what the browser says, each request alike (page, query
string, every widget's state, cached elements, browser context), and the server answers
both with the same page, run after run, each run ending successfully.

What is normalised, and why it may be:

- the order of the widget states and of the cached hashes in a request
  (protocolkit.comparable): the server reads them into a dict by widget id and a set;
- references to cached elements (``ref_hash``) are resolved to the element they name, as
  both clients do (protocolkit.resolved);
- a run is compared by what it leaves at each place on the page (``drawn``), not delta by
  delta, and with one field blanked: see ``drawn``.

Widget ids need no normalisation: they are hashes of a widget's key and parameters, the
same in every session. The server time of a change (browser vs client) is measured, not
asserted, by benchmarks/validate_client.py. The fixtures (server, browser) are
test_browser.py's; waits are Playwright's (expect_event, wait_for_function), never sleeps.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from google.protobuf import text_format
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from browserkit import INIT_SCRIPT, VIEWPORT, open_page, wait_idle
from protocolkit import (FINISHED, BrowserFrames, ProtocolSession, comparable,
                         is_script_finished, resolved)
from test_browser import browser, server  # noqa: F401  (fixtures)
from ui import registry

pytestmark = pytest.mark.browser

# (page, the widget key of the slider moved): a select slider whose option needs
# percent-encoding in the address ("20,000"), and a number slider stepping to 1.05.
CASES = [(registry.LDP, "ldp_n"), (registry.FDP, "fdp_mu")]


def drawn(messages: list[ForwardMsg]) -> dict[tuple[int, ...], str]:
    """What a run leaves on the page: at each place (delta_path), the last delta sent
    there, every field but one.

    - The last, not each one: the server's outgoing queue (runtime/forward_msg_queue.py)
      merges a delta into a queued earlier one for the same place (a placeholder
      ``st.empty()``, then what fills it) unless the queue was flushed in between, which
      depends on when its event loop ran, not on who the client is.
    - A download button whose file is made when clicked (``deferred_file_id``) names it by
      a random id (uuid4) that the server draws for each session and run, to find the
      callable when the click comes: it is blanked.
    """
    out = {}
    for fm in messages:
        if fm.WhichOneof("type") != "delta":
            continue
        delta = fm.delta
        if (delta.WhichOneof("type") == "new_element"
                and delta.new_element.WhichOneof("type") == "download_button"
                and delta.new_element.download_button.HasField("deferred_file_id")):
            delta = type(fm.delta)()
            delta.CopyFrom(fm.delta)
            delta.new_element.download_button.deferred_file_id = "(drawn per session and run)"
        out[tuple(fm.metadata.delta_path)] = text_format.MessageToString(delta)
    return out


@pytest.mark.parametrize("spec,key", CASES, ids=[spec.url_path for spec, _ in CASES])
def test_the_client_speaks_as_the_browser_and_gets_the_same_page(browser, server, spec, key):
    # Chromium, with the locale, time zone and colour scheme the client declares.
    context = browser.new_context(viewport=VIEWPORT, locale="en-US", timezone_id="UTC",
                                  color_scheme="light")
    context.add_init_script(INIT_SCRIPT)  # for wait_idle
    try:
        page = context.new_page()
        page.server_url = server.url
        frames = BrowserFrames(page)
        open_page(page, spec.url_path, spec.title)
        wait_idle(page)
        page.locator(f".st-key-{key}").get_by_role("slider").focus()
        with frames.ws.expect_event("framereceived", predicate=is_script_finished):
            page.keyboard.press("ArrowRight")
        wait_idle(page)  # and nothing follows
    finally:
        context.close()
    runs = frames.runs()
    assert len(runs) == 2, [comparable(r.request) for r in runs]
    assert [r.status for r in runs] == [FINISHED.FINISHED_SUCCESSFULLY] * 2
    cache: dict[str, ForwardMsg] = {}
    b_open, b_change = (resolved(r.replies, cache) for r in runs)

    with ProtocolSession(urlsplit(server.url).netloc, spec.url_path) as session:
        first = session.open()
        # The one state in the browser's change that the client does not hold as it is
        # is the slider the browser moved: every other widget's state is the same.
        moved = [s for s in runs[1].request.rerun_script.widget_states.widgets
                 if session.states.get(s.id) != s]
        assert [s.id for s in moved] == [session.widget_id(key)], moved
        value = (moved[0].string_array_value.data[0] if session.sliders()[key].slider.options
                 else moved[0].double_array_value.data[0])
        change = session.set_slider(key, value)
    assert first.ok and change.ok, (first.exceptions, change.exceptions)

    # The client says what the browser says: page, query string, widget states, cached
    # elements, browser context.
    assert [comparable(r.request) for r in (first, change)] == \
        [comparable(r.request) for r in runs]
    # The server answers both alike.
    cache = {}
    c_open, c_change = (resolved(r.messages, cache) for r in (first, change))
    assert drawn(c_open) == drawn(b_open)
    assert drawn(c_change) == drawn(b_change)
    # The client's own elements are those of the run, references resolved.
    assert change.elements == [fm.delta.new_element for fm in c_change
                               if fm.WhichOneof("type") == "delta"
                               and fm.delta.WhichOneof("type") == "new_element"]
