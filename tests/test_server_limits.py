"""Hostile websocket clients against a real `streamlit run app.py` (issue 20, bad input and
faults): garbage and truncated frames, a text frame, oversized messages, well-formed but
nonsensical BackMsgs, a flood of reruns and 200 connections at once. After each, the server
process is alive, ``/_stcore/health`` answers 200, a session opened before the hostile
client (the bystander) and one opened after it still get their runs to end successfully, and
the hostile connection got what the pinned Streamlit gives it (a close code, or nothing).

What Streamlit 1.67 does with each (see the report of issue 20 for file:line references):
the server is uvicorn + Starlette (streamlit/web/server/starlette/); a frame that is not a
BackMsg closes the connection with 1002; a frame larger than ``server.maxWidgetStateSize`` MB
is read, then closed with 1009; a frame announcing more than ``server.maxMessageSize`` MB
(uvicorn's ws_max_size) is refused from its header with 1009; sessions are not capped.
"""

from __future__ import annotations

import os
import struct
import tomllib
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from urllib.parse import urlsplit

import numpy as np
import pytest
from google.protobuf.message import DecodeError
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from browserkit import running_server, stop_streamlit
from conftest import REPO_ROOT
from protocolkit import FINISHED, ProtocolSession, other_value

PAGE = "ldp"  # the cheapest page to run
WAIT = 60.0  # seconds to wait for an answer from the server (a condition, not a timing)

_SERVER = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text("utf-8"))["server"]
# The limits in force, in bytes (Streamlit's defaults when config.toml does not set them).
MAX_MESSAGE = _SERVER.get("maxMessageSize", 200) * 10**6
MAX_CLIENT_MESSAGE = _SERVER.get("maxWidgetStateSize", 25) * 10**6
QUERY_STRING_MAX = 512 * 1024  # streamlit/runtime/state/query_params.py: ignored above


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = running_server(tmp_path_factory.mktemp("limits") / "server.log")
    srv.host = urlsplit(srv.url).netloc
    yield srv
    stop_streamlit(srv.proc)


@pytest.fixture(scope="module")
def bystander(server):
    """A well-behaved session opened before any hostile client, kept open throughout."""
    with ProtocolSession(server.host, PAGE, timeout=WAIT) as session:
        assert session.open().ok
        yield session


@pytest.fixture(scope="module")
def home_hash(server) -> str:
    """The script hash of the default page (the home page)."""
    with opened(server) as ws:
        run = sent(ws, rerun())
        assert run.ok, run.exceptions
        return run.page_hash


@pytest.fixture
def unharmed(server, bystander):
    """After the test: the server is alive and healthy and serves the others as before."""
    yield
    assert server.proc.poll() is None, server.log()[-3000:]
    with urllib.request.urlopen(f"{server.url}/_stcore/health", timeout=WAIT) as resp:
        assert resp.status == 200
    rng = np.random.default_rng(20)
    assert moved(bystander, rng).ok
    with ProtocolSession(server.host, PAGE, timeout=WAIT) as newcomer:
        assert newcomer.open().ok
        assert moved(newcomer, rng).ok


def moved(session: ProtocolSession, rng):
    """The run after moving the session's first slider to another value."""
    key, element = next(iter(session.sliders().items()))
    run = session.set_slider(key, other_value(element.slider, rng))
    assert run.ok, run.exceptions
    return run


def opened(server):
    """A bare websocket to the server, as the browser opens it (no run yet)."""
    return connect(f"ws://{server.host}/_stcore/stream", subprotocols=["streamlit"],
                   origin=f"http://{server.host}", open_timeout=WAIT)


def hostile(server) -> ProtocolSession:
    """A connection that has opened the page as a browser would, then misbehaves."""
    session = ProtocolSession(server.host, PAGE, timeout=WAIT)
    assert session.open().ok
    return session


def close_code(ws) -> int | None:
    """Read until the server closes ``ws``; the code of its close frame (None: no frame)."""
    try:
        while True:
            ws.recv(timeout=WAIT)
    except ConnectionClosed as exc:
        return exc.rcvd.code if exc.rcvd else None


def still_served(ws) -> bool:
    """Whether the server still answers on ``ws``: a heartbeat gets its acknowledgement."""
    msg = BackMsg()
    msg.app_heartbeat = True
    ws.send(msg.SerializeToString())
    return acknowledgement(ws)


def acknowledgement(ws) -> bool:
    """Read ``ws`` up to the acknowledgement of a heartbeat."""
    while True:
        fm = ForwardMsg()
        fm.ParseFromString(ws.recv(timeout=WAIT))
        if fm.WhichOneof("type") == "heartbeat_ack":
            return True


def rerun(page: str = "", *, page_hash: str = "", query: str = "",
          states: list[WidgetState] = ()) -> BackMsg:
    """A ``rerun_script`` BackMsg, its fields as given (none of the kit's bookkeeping)."""
    msg = BackMsg()
    msg.rerun_script.page_name = page
    msg.rerun_script.page_script_hash = page_hash
    msg.rerun_script.query_string = query
    msg.rerun_script.widget_states.SetInParent()
    msg.rerun_script.widget_states.widgets.extend(states)
    return msg


@dataclass
class Finished:
    """A run as read on the wire: how it ended, its page, the exceptions it drew."""

    status: int
    page_hash: str
    exceptions: list[str]

    @property
    def ok(self) -> bool:
        return self.status == FINISHED.FINISHED_SUCCESSFULLY and not self.exceptions


def finished(ws, page_hash: str | None = None) -> Finished:
    """Read ``ws`` up to the end of a run (of the page ``page_hash``, if given)."""
    page, exceptions = "", []
    while True:
        fm = ForwardMsg()
        fm.ParseFromString(ws.recv(timeout=WAIT))
        kind = fm.WhichOneof("type")
        if kind == "new_session":  # a run begins
            page, exceptions = "", []
        elif kind == "navigation":
            page = fm.navigation.page_script_hash
        elif kind == "delta" and fm.delta.new_element.WhichOneof("type") == "exception":
            exceptions.append(fm.delta.new_element.exception.message)
        elif kind == "script_finished" and page_hash in (None, page):
            return Finished(fm.script_finished, page, exceptions)


def sent(ws, msg: BackMsg, page_hash: str | None = None) -> Finished:
    """Send ``msg`` (a rerun) on ``ws``; the run it ends with."""
    ws.send(msg.SerializeToString())
    return finished(ws, page_hash)


# --- frames that are not BackMsgs -----------------------------------------------------------

def truncated_backmsg() -> bytes:
    """A rerun BackMsg without its last byte (inside its last field): not a BackMsg."""
    raw = rerun(PAGE, query="ldp_eps=1").SerializeToString()[:-1]
    try:
        BackMsg().ParseFromString(raw)
    except DecodeError:
        return raw
    raise AssertionError("the truncated message still parses")


@pytest.mark.parametrize("frame", [
    pytest.param(b"\xff\xfe\x00garbage" * 10, id="garbage"),
    pytest.param(truncated_backmsg(), id="truncated"),
])
def test_a_frame_that_is_not_a_backmsg_closes_with_protocol_error(server, unharmed, frame):
    with hostile(server) as session:
        session.ws.send(frame)
        assert close_code(session.ws) == 1002


def test_an_empty_frame_is_an_empty_backmsg_and_ignored(server, unharmed):
    with hostile(server) as session:
        session.ws.send(b"")
        assert still_served(session.ws)


def test_a_text_frame_closes_the_connection(server, unharmed):
    """Streamlit speaks binary frames only. Its handler means to close on a text frame, but
    with Starlette 1.10 receive_bytes raises KeyError, not the RuntimeError it catches: the
    handler fails (a traceback in the server log) and uvicorn drops the connection with no
    close frame. Either way only this connection ends."""
    with hostile(server) as session:
        session.ws.send("a text frame")
        close_code(session.ws)  # returns once the connection is closed (with or without code)


# --- oversized messages -----------------------------------------------------------------------

def test_a_frame_announcing_more_than_the_message_limit_is_refused_from_its_header(
        server, unharmed):
    """The header of a binary frame of MAX_MESSAGE + 1 bytes, written on the socket with no
    payload: the websocket layer (uvicorn's ws_max_size = server.maxMessageSize) closes with
    1009 without waiting for the payload, so it never buffers it."""
    with hostile(server) as session:
        header = struct.pack("!BBQ", 0x82, 0x80 | 127, MAX_MESSAGE + 1) + os.urandom(4)
        session.ws.socket.sendall(header)
        assert close_code(session.ws) == 1009


def test_a_message_over_the_client_limit_closes_with_message_too_big(server, unharmed):
    """A rerun whose query string alone is MAX_CLIENT_MESSAGE bytes (1 MB: a well-formed
    BackMsg): Streamlit reads it and closes the connection with 1009 before parsing it."""
    assert MAX_CLIENT_MESSAGE < MAX_MESSAGE  # otherwise the websocket layer refuses it first
    with hostile(server) as session:
        msg = rerun(PAGE, query="q=" + "x" * MAX_CLIENT_MESSAGE)
        session.ws.send(msg.SerializeToString())
        assert close_code(session.ws) == 1009


# --- well-formed BackMsgs that make no sense ----------------------------------------------------

WRONG_VALUES = {
    "a string": lambda s: setattr(s, "string_value", "a string"),
    "a bool": lambda s: setattr(s, "bool_value", True),
    "a huge int": lambda s: setattr(s, "int_value", 2**62),
    "broken json": lambda s: setattr(s, "json_value", '{"a": [1, 2'),
    "no value": lambda s: None,
    "nan": lambda s: s.double_array_value.data.append(float("nan")),
    "three values": lambda s: s.double_array_value.data.extend([1e308, -1e308, 0.0]),
}


def test_widget_values_of_the_wrong_type_fail_only_that_session(server, unharmed):
    """Every slider of the page is sent values of the wrong type. Streamlit's deserializers
    raise (before the page's code runs), so the hostile session's run ends with an error,
    shown without its details (client.showErrorDetails = "none"): no traceback, no path."""
    with hostile(server) as session:
        runs = []
        for wid in [session.widget_id(key) for key in session.sliders()]:
            for make in WRONG_VALUES.values():
                state = WidgetState(id=wid)
                make(state)
                runs.append(sent(session.ws, rerun(page_hash=session.page_hash,
                                                   states=[state])))
        assert not all(run.ok for run in runs)
        for message in (m for run in runs for m in run.exceptions):
            assert "Traceback" not in message and ".py" not in message, message


@pytest.mark.parametrize(("page", "page_hash"), [
    ("no_such_page", ""), ("", "0" * 32), (PAGE, "f" * 32), ("../../../etc/passwd", ""),
], ids=["unknown name", "unknown hash", "known name, unknown hash", "path"])
def test_an_unknown_page_runs_the_default_page(server, unharmed, home_hash, page, page_hash):
    with opened(server) as ws:
        run = sent(ws, rerun(page, page_hash=page_hash))
        assert run.ok, run.exceptions
        assert run.page_hash == home_hash


def test_a_query_string_over_streamlits_limit_is_ignored(server, unharmed):
    """600 Ki characters (over Streamlit's 512 Ki, under the message limit): the rerun runs
    with no query string (the page's defaults)."""
    query = "q=" + "x" * (600 * 1024)
    assert QUERY_STRING_MAX < len(query) < MAX_CLIENT_MESSAGE
    with opened(server) as ws:
        run = sent(ws, rerun(PAGE, query=query))
        assert run.ok, run.exceptions


def test_thousands_of_unknown_widget_states_are_dropped(server, unharmed):
    """12,000 widget states of ids no page has (0.76 MB, about the most the client limit
    lets through): the run ends successfully."""
    with hostile(server) as session:
        states = [WidgetState(id=f"$$ID-{i:032x}-nothing_{i}", double_value=i)
                  for i in range(12_000)]
        msg = rerun(page_hash=session.page_hash, states=states)
        assert msg.ByteSize() < MAX_CLIENT_MESSAGE
        run = sent(session.ws, msg)
        assert run.ok, run.exceptions


def test_control_messages_of_no_use_to_a_client_are_harmless(server, unharmed):
    """The BackMsgs a page does not need, each a few times: the debug ones (shutting the
    runtime down, dropping the websocket) are refused outside development mode; the others
    are served (clear_cache empties the app's caches for everyone, load_git_info runs git).
    The connection stays open and answered."""
    with hostile(server) as session:
        kinds = ["debug_shutdown_runtime", "debug_disconnect_websocket", "clear_cache",
                 "load_git_info", "stop_script", "set_run_on_save"]
        for kind in kinds:
            msg = BackMsg()
            setattr(msg, kind, True)
            for _ in range(3):
                session.ws.send(msg.SerializeToString())
        files = BackMsg()
        files.file_urls_request.request_id = "r"
        files.file_urls_request.file_names.extend(f"f{i}.csv" for i in range(5_000))
        session.ws.send(files.SerializeToString())
        op = BackMsg()
        op.backend_operation_request.request_id = "x"
        session.ws.send(op.SerializeToString())
        assert still_served(session.ws)
    assert server.proc.poll() is None


# --- many requests, many connections ---------------------------------------------------------

def test_a_flood_of_reruns_from_one_connection(server, unharmed, home_hash):
    """300 rerun requests of the page sent at once, then one of the home page, while the
    answers are read: each request stops the run before it (runner.fastReruns), and the
    last run ends successfully. (A client that reads nothing has its session dropped once
    500 messages wait for it: WEBSOCKET_MAX_SEND_QUEUE_SIZE of Starlette's server.)"""
    with hostile(server) as session, ThreadPoolExecutor(1) as reader:
        last = reader.submit(finished, session.ws, home_hash)
        raw = rerun(page_hash=session.page_hash).SerializeToString()
        for _ in range(300):
            session.ws.send(raw)
        session.ws.send(rerun(page_hash=home_hash).SerializeToString())
        run = last.result()
        assert run.ok, run.exceptions


def test_two_hundred_connections_at_once(server, unharmed, bystander):
    """200 websocket connections held open together, 20 of them opening the page: all are
    accepted (Streamlit caps neither connections nor sessions), and while they are open the
    bystander's run still ends successfully."""
    def one(i: int) -> ProtocolSession:
        session = ProtocolSession(server.host, PAGE, timeout=WAIT)
        try:
            if i % 10 == 0:
                run = session.open()
                assert run.ok, run.exceptions
        except BaseException:
            session.close()
            raise
        return session

    with ExitStack() as stack:
        with ThreadPoolExecutor(20) as pool:
            futures = [pool.submit(one, i) for i in range(200)]
        failed = []
        for future in futures:
            try:
                stack.enter_context(future.result())
            except Exception as exc:  # every connection that opened is closed at the end
                failed.append(exc)
        assert not failed, failed[:3]
        assert moved(bystander, np.random.default_rng(3)).ok


# --- the origin check ---------------------------------------------------------------------------

def test_a_websocket_from_another_origin_is_refused(server, unharmed):
    """Streamlit closes before accepting (1008), which uvicorn sends as HTTP 403. (Before
    refusing, Streamlit looks up the machine's external IP address, by HTTP, on its event
    loop: where outgoing traffic is dropped rather than refused, each such handshake holds
    every session up for up to 2 s; see the report of issue 20.)"""
    with pytest.raises(InvalidStatus) as refused:
        connect(f"ws://{server.host}/_stcore/stream", subprotocols=["streamlit"],
                origin="http://elsewhere.example", open_timeout=WAIT)
    assert refused.value.response.status_code == 403


def test_a_websocket_without_origin_is_accepted(server, unharmed):
    """No Origin header (a client that is not a browser): accepted. Nor does XSRF
    protection stop a websocket with no token: the token only gates the auth cookie."""
    with connect(f"ws://{server.host}/_stcore/stream", subprotocols=["streamlit"],
                 open_timeout=WAIT) as ws:
        assert still_served(ws)
