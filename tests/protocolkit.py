"""A client of Streamlit's own protocol, as the browser speaks it (issue 20's load
generator builds on it): a websocket to ``/_stcore/stream`` carrying ``BackMsg`` protobufs
out and ``ForwardMsg`` protobufs in, from the installed ``streamlit`` package.

A :class:`ProtocolSession` opens a routed page with its query string, learns the widgets
(their ids and ranges) from the deltas it receives, and sends widget changes the way the
browser does (tests/test_protocol_vs_browser.py checks it against Chromium):

- it connects as the frontend does: first the two requests the frontend makes before its
  websocket (``/_stcore/health``, which sets the XSRF cookie ``_streamlit_xsrf``, and
  ``/_stcore/host-config``), then the websocket with the cookies they set and the XSRF
  token as second subprotocol (behind HAProxy the cookies also keep the session, and its
  uploads, on one replica);
- every ``rerun_script`` carries the browser's context (time zone, locale, the page's
  address, colour scheme: ``st.context``), the page by name on the first run and by its
  script hash afterwards, and the state of every widget on screen that has a value: the
  value it was drawn with, or the one the client gave it (buttons and download buttons
  have none until used, and the client never uses them; a file uploader holds an empty
  list of files until :meth:`ProtocolSession.upload` gives it one; the kinds of widget it
  does not know, such as date inputs, it leaves out, and the server keeps the value it
  holds for them);
- a file is uploaded as the frontend's ``FileUploader`` does it: a ``file_urls_request``
  for the file's name, answered by a ``file_urls_response`` with its id and upload URL; a
  multipart PUT of the file to that URL with the XSRF token in ``X-Xsrftoken`` (and, when
  it replaces a file, a DELETE of the old one); then a rerun with the uploader's state
  naming the file;
- moving a slider bound to the address (``bind="query-params"``) writes its value into the
  query string sent with the change, as the frontend does;
- large elements are cached as the frontend caches them: the client names the cached ones
  in ``cached_message_hashes`` and the server sends a reference (``ref_hash``) in place
  of an element the client already holds, which the client resolves;
- cookies the browser already holds for the site (``cookies=``: a class's student token)
  go with its first requests and the websocket's handshake, as the browser's would;
- a custom component (``st.components.v2``) that sends a trigger value
  (``setTriggerValue(event, value)`` in its JavaScript) is answered as the frontend's
  ``WidgetStateManager`` sends it (:meth:`ProtocolSession.trigger`): one rerun whose
  widget states are those on screen plus the component's ``json_trigger_value``, the JSON
  array ``[{"event":…,"value":…}]``, which the frontend then deletes (never sent again);
- a fragment that reruns by itself (``st.fragment(run_every=…)``: the server sends
  ``auto_rerun`` with its id and interval) is rerun as the frontend's timer does
  (:meth:`ProtocolSession.rerun_fragment`): the widget states, the fragment's id and
  ``is_auto_rerun``;
- a dropped connection is taken up again as the frontend's connection manager does
  (:meth:`ProtocolSession.reconnect`): it pings ``/_stcore/health`` and
  ``/_stcore/host-config`` with its back-off until both answer, opens a new websocket with
  the last session's id as third subprotocol and asks for a run with the widget states it
  holds (behind HAProxy, on whichever replica now takes the session).

Each run returns its :class:`Run`: the seconds from sending to ``script_finished``, the new
elements, and the exceptions among them (and the request and messages, as on the wire).

For the comparison with the browser: :class:`BrowserFrames` records a Playwright page's
frames on the same websocket, :func:`comparable` puts a rerun request in a form where two
equivalent ones are equal, and :func:`resolved` resolves references to cached elements.
"""

from __future__ import annotations

import json
import math
import mimetypes
import random
import time
import uuid
from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from decimal import Decimal
from http.cookiejar import Cookie, CookieJar
from urllib.error import HTTPError
from urllib.parse import parse_qsl, quote, urljoin
from urllib.request import HTTPCookieProcessor, Request, build_opener

from google.protobuf import text_format
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ContextInfo
from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.NumberInput_pb2 import NumberInput
from streamlit.proto.WidgetStates_pb2 import WidgetState
from urllib3 import encode_multipart_formdata
from websockets.sync.client import connect

FINISHED = ForwardMsg.ScriptFinishedStatus  # enum of script_finished
XSRF_COOKIE = "_streamlit_xsrf"  # Streamlit's XSRF cookie (server.enableXsrfProtection)
# What the frontend sends as second subprotocol when it has no XSRF cookie.
NO_XSRF_TOKEN = "PLACEHOLDER_AUTH_TOKEN"


@dataclass
class Run:
    """One script run as the client saw it."""

    seconds: float  # from sending the request to script_finished
    status: int  # ForwardMsg.ScriptFinishedStatus
    elements: list[Element] = field(default_factory=list)
    query: str | None = None  # the address's query string, when the run changed it
    request: BackMsg | None = None  # the rerun request sent
    messages: list[ForwardMsg] = field(default_factory=list)  # as received, references too

    @property
    def exceptions(self) -> list[str]:
        return [e.exception.message for e in self.elements if e.WhichOneof("type") == "exception"]

    @property
    def ok(self) -> bool:
        return self.status in (FINISHED.FINISHED_SUCCESSFULLY,
                               FINISHED.FINISHED_FRAGMENT_RUN_SUCCESSFULLY) \
            and not self.exceptions

    def texts(self) -> list[str]:
        """The texts this run drew: markdown, alerts (st.info, st.success, …), headings
        and captions, in order."""
        out = []
        for e in self.elements:
            kind = e.WhichOneof("type")
            if kind in ("markdown", "alert", "heading", "text"):
                out.append(getattr(e, kind).body)
        return out


def other_value(slider, rng) -> float | str:
    """A value of ``slider`` (a Slider proto) drawn across its whole range, never the one it
    was drawn with: a number on its steps, or an option as shown (a select slider)."""
    if slider.options:  # default holds the option's index
        values = [o for i, o in enumerate(slider.options) if [i] != list(slider.default)]
    else:
        steps = int(round((slider.max - slider.min) / slider.step))
        values = [v for v in (slider.min + k * slider.step for k in range(steps + 1))
                  if [v] != list(slider.default)]
    return values[int(rng.integers(len(values)))]


def widget_state(wid: str, element: Element) -> WidgetState | None:
    """The state the frontend holds for a widget just drawn, before anyone touches it: the
    value the script set (``set_value``), else the default; None for a widget with no value
    (a button, a download button, a chart without selection) or one not emulated here."""
    kind = element.WhichOneof("type")
    w = getattr(element, kind)
    state = WidgetState(id=wid)
    if kind == "slider":
        if w.options:  # a select slider: the options shown
            state.string_array_value.data.extend(
                w.raw_value if w.set_value else [w.options[int(i)] for i in w.default])
        else:
            state.double_array_value.data.extend(w.value if w.set_value else w.default)
    elif kind in ("selectbox", "radio"):  # the option shown
        if w.set_value and w.HasField("raw_value"):
            state.string_value = w.raw_value
        elif not w.set_value and w.HasField("default"):
            state.string_value = w.options[w.default]
        else:
            return None  # nothing selected
    elif kind == "multiselect":
        state.string_array_value.data.extend(
            w.raw_values if w.set_value else [w.options[int(i)] for i in w.default])
    elif kind == "button_group":  # st.segmented_control, st.pills
        state.string_array_value.data.extend(
            w.raw_values if w.set_value else [w.options[int(i)].content for i in w.default])
    elif kind == "number_input":
        if not (w.set_value and w.HasField("value")) and not w.HasField("default"):
            return None  # empty
        value = w.value if w.set_value else w.default
        if w.data_type == NumberInput.INT:
            state.int_value = int(value)
        else:
            state.double_value = value
    elif kind == "checkbox":  # st.checkbox, st.toggle
        state.bool_value = w.value if w.set_value else w.default
    elif kind == "text_input":
        if not (w.set_value and w.HasField("value")) and not w.HasField("default"):
            return None
        state.string_value = w.value if w.set_value else w.default
    elif kind == "file_uploader":  # mounted with no file: an empty list of files
        state.file_uploader_state_value.SetInParent()
    else:
        return None
    return state


def site_cookie(host: str, name: str, value: str) -> Cookie:
    """A cookie the browser holds for the site at ``host`` (``name=value``, Path=/, no
    expiry), as a :class:`CookieJar` keeps one the server set."""
    domain = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return Cookie(version=0, name=name, value=value, port=None, port_specified=False,
                  domain=domain, domain_specified=False, domain_initial_dot=False, path="/",
                  path_specified=True, secure=False, expires=None, discard=True, comment=None,
                  comment_url=None, rest={})


def trigger_id(component_id: str) -> str:
    """The widget id under which the frontend sends a v2 custom component's trigger values
    (its BidiComponent: ``$$STREAMLIT_INTERNAL_KEY_<component id>__events``; the server's
    trigger aggregator, ``streamlit.components.v2.bidi_component.main._make_trigger_id``)."""
    return f"$$STREAMLIT_INTERNAL_KEY_{component_id}__events"


def js_number(x: float) -> str:
    """``String(x)`` in JavaScript: how the frontend writes a number into the address."""
    if math.isfinite(x) and x == int(x) and abs(x) < 1e21:
        return str(int(x))
    sign, digits, exponent = Decimal(repr(float(x))).normalize().as_tuple()
    digits_ = "".join(map(str, digits))
    k, n = len(digits_), len(digits_) + exponent  # x = 0.digits · 10^n
    if 0 < n <= 21:
        text = digits_[:n] + "." + digits_[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits_
    else:
        e = n - 1
        text = (digits_[0] + ("." + digits_[1:] if k > 1 else "")
                + f"e{'+' if e > 0 else '-'}{abs(e)}")
    return ("-" if sign else "") + text


def with_param(query: str, key: str, values: list[str] | None) -> str:
    """``query`` with the parameter ``key`` set to ``values`` (repeated), or removed (None),
    written as the frontend writes it (the ``query-string`` package: keys sorted,
    strict percent-encoding, spaces as "+")."""
    params: dict[str, list[str]] = {}
    for k, v in parse_qsl(query, keep_blank_values=True):
        params.setdefault(k, []).append(v)
    if values is None:
        params.pop(key, None)
    else:
        params[key] = values
    return "&".join(f"{quote(k, safe='')}={quote(v, safe='')}"
                    for k in sorted(params) for v in params[k]).replace("%20", "+")


def comparable(msg: BackMsg) -> str:
    """A rerun request as text, its widget states ordered by id and its cached hashes
    sorted: the frontend lists its states in the order its widgets mounted, the client in
    the order they were drawn, and the server reads them into a dict by id (and the
    hashes into a set), so two requests that differ only in these orders are the same."""
    copy = BackMsg()
    copy.CopyFrom(msg)
    rerun = copy.rerun_script
    states = sorted(rerun.widget_states.widgets, key=lambda w: w.id)
    del rerun.widget_states.widgets[:]
    rerun.widget_states.widgets.extend(states)
    hashes = sorted(rerun.cached_message_hashes)
    del rerun.cached_message_hashes[:]
    rerun.cached_message_hashes.extend(hashes)
    return text_format.MessageToString(copy)


def resolved(messages: list[ForwardMsg], cache: dict[str, ForwardMsg]) -> list[ForwardMsg]:
    """``messages`` with each reference (``ref_hash``) replaced by the cacheable message it
    names, kept in ``cache`` (hash -> message) from earlier ones, as the frontend does."""
    out = []
    for fm in messages:
        if fm.WhichOneof("type") == "ref_hash":
            full = ForwardMsg()
            full.CopyFrom(cache[fm.ref_hash])
            full.metadata.CopyFrom(fm.metadata)
            fm = full
        elif fm.metadata.cacheable and fm.hash:
            cache[fm.hash] = fm
        out.append(fm)
    return out


@dataclass
class BrowserRun:
    """A rerun request a browser sent and what answered it, with the times (perf_counter
    seconds) at which this process heard of each frame."""

    request: BackMsg
    sent_at: float
    replies: list[ForwardMsg] = field(default_factory=list)
    finished_at: float | None = None
    status: int = -1  # script_finished, once it came


class BrowserFrames:
    """The frames of a Playwright page's websocket to Streamlit (``/_stcore/stream``):
    the BackMsgs the frontend sends and the ForwardMsgs the server answers, in order.
    Create it before the page loads its address."""

    def __init__(self, page):
        self.frames: list[tuple[str, float, bytes]] = []  # ("sent" | "recv", time, payload)
        self.ws = None
        page.on("websocket", self._watch)

    def _watch(self, ws) -> None:
        if ws.url.split("?")[0].endswith("/_stcore/stream"):
            self.ws = ws
            ws.on("framesent", lambda p: self.frames.append(("sent", time.perf_counter(), p)))
            ws.on("framereceived",
                  lambda p: self.frames.append(("recv", time.perf_counter(), p)))

    def runs(self) -> list[BrowserRun]:
        """Each rerun request and the messages that answered it, up to the next request."""
        out: list[BrowserRun] = []
        for direction, at, payload in self.frames:
            if direction == "sent":
                msg = BackMsg.FromString(payload)
                if msg.WhichOneof("type") == "rerun_script":
                    out.append(BrowserRun(msg, at))
            elif out:
                fm = ForwardMsg.FromString(payload)
                out[-1].replies.append(fm)
                if fm.WhichOneof("type") == "script_finished":
                    out[-1].finished_at, out[-1].status = at, fm.script_finished
        return out


def multipart_form(name: str, data: bytes) -> tuple[bytes, str]:
    """The body and content type of the frontend's upload request (a ``FormData`` with the
    file appended under its own name): one part whose field and file name are ``name``
    (quotes and line breaks percent-encoded, as browsers do: urllib3's HTML5 form), its
    type guessed from the name's extension."""
    kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return encode_multipart_formdata({name: (name, data, kind)})


def is_script_finished(payload: bytes) -> bool:
    """Whether a ForwardMsg's bytes say the script run finished (a predicate for
    Playwright's ``framereceived`` events)."""
    return ForwardMsg.FromString(payload).WhichOneof("type") == "script_finished"


class ProtocolSession:
    """One browser tab's session, spoken at the protocol level."""

    def __init__(self, host: str, page: str, query: str = "", *, timeout: float = 60.0,
                 cookies: Mapping[str, str] | None = None):
        self.page, self.query, self.timeout = page, query, timeout
        self.page_hash = ""
        self.states: dict[str, WidgetState] = {}  # widget id -> its state, as last sent
        self.widgets: dict[str, Element] = {}  # widget id -> its element, as last drawn
        # What Chromium tells the server about itself (st.context); the pages show the
        # address of the view (ui.links.view_link) from the URL.
        self.context_info = ContextInfo(timezone="UTC", timezone_offset=0, locale="en-US",
                                        url=f"http://{host}/{page}", is_embedded=False,
                                        color_scheme="light")
        # The frontend's cache of large elements: hash -> [message, script runs at its last
        # use]; an entry unused for more than max_age runs is dropped (global.
        # maxCachedMessageAge, from new_session).
        self.cache: dict[str, list] = {}
        self._script_runs, self._max_age = 0, 2
        self.host, self.session_id = host, ""  # the server's id of the session (new_session)
        # Fragments that rerun by themselves: fragment id -> interval in seconds (auto_rerun).
        self.auto_reruns: dict[str, float] = {}
        # The browser's cookies for the server: the XSRF cookie, and behind HAProxy the
        # replica's; and those it held already (``cookies``, e.g. a class's student token).
        # The frontend asks for /_stcore/health and /_stcore/host-config before it opens its
        # websocket; the first sets the XSRF cookie.
        self.cookies = CookieJar()
        for name, value in (cookies or {}).items():
            self.cookies.set_cookie(site_cookie(host, name, value))
        self._http = build_opener(HTTPCookieProcessor(self.cookies))
        for path in ("_stcore/health", "_stcore/host-config"):
            try:
                with self._http.open(f"http://{host}/{path}", timeout=timeout) as response:
                    response.read()
            except HTTPError as exc:  # e.g. 503 while starting: the websocket decides
                exc.close()
        self._stack = ExitStack()  # the connection is a context manager (websockets ≥ 16)
        self.ws = self._open_websocket()

    def _open_websocket(self, session_id: str = ""):
        """The websocket, with the cookies and the XSRF token (and, on a reconnection, the
        last session's id as third subprotocol, as the frontend sends it)."""
        host = self.host
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.cookies)
        subprotocols = ["streamlit", self._xsrf_token()] + ([session_id] if session_id else [])
        return self._stack.enter_context(connect(
            f"ws://{host}/_stcore/stream", subprotocols=subprotocols,
            origin=f"http://{host}", additional_headers={"Cookie": cookies} if cookies else None,
            max_size=None, open_timeout=self.timeout))

    def close(self) -> None:
        self._stack.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def open(self) -> Run:
        """The page's first run (as loading its address does)."""
        return self._run()

    def trigger(self, key: str, event: str, value) -> Run:
        """The custom component (``st.components.v2``) whose key is ``key`` sends the
        trigger ``event`` with ``value`` (its JavaScript's ``setTriggerValue(event,
        value)``), as the frontend does: one rerun with the widget states on screen and the
        component's ``json_trigger_value``, ``[{"event":…,"value":…}]`` (JSON.stringify's
        compact form), under the id of the component's trigger aggregator (its id with
        Streamlit's internal prefix and ``__events``: :func:`trigger_id`); the trigger is
        then dropped, never sent again."""
        state = WidgetState(id=trigger_id(self.widget_id(key)), json_trigger_value=json.dumps(
            [{"event": event, "value": value}], separators=(",", ":"), ensure_ascii=False))
        return self._run(extra=[state])

    def rerun_fragment(self, fragment_id: str | None = None) -> Run:
        """A fragment's rerun as the frontend's timer sends it for ``st.fragment(run_every=
        …)``: the widget states on screen, the fragment's id, ``is_auto_rerun``. Without an
        id: the one fragment that reruns by itself (:attr:`auto_reruns`)."""
        if fragment_id is None:
            [fragment_id] = self.auto_reruns
        return self._run(fragment_id=fragment_id, auto=True)

    def reconnect(self, *, within: float | None = None, rng=None) -> tuple[Run, int]:
        """Take the session up again after its connection dropped, as the frontend's
        connection manager does, and ask for the run it then asks for; the run and the
        number of pings it took.

        The frontend pings ``/_stcore/health`` and ``/_stcore/host-config`` (with the
        cookies it holds) until both answer 200, waiting before each ping a back-off drawn
        as its ``nextReconnectDelayMs``: 250–500 ms before the first, then uniform in
        [d/2, d], d = min(4 s, 0.5 s · 2^(n−1)); then opens a new websocket with the XSRF
        token and the last session's id (third subprotocol), and, since the page was shown
        before, sends a rerun with the widget states it holds (no trigger: those were
        deleted once sent). A server that no longer knows the session (another replica,
        or the same one restarted) starts a new one for it. ``within`` seconds at most
        (default: the session's timeout); else TimeoutError. ``rng``: what draws the
        back-off, anything with ``random()`` (a numpy Generator, ``random.Random``;
        default: the ``random`` module)."""
        rng = rng if rng is not None else random
        deadline = time.monotonic() + (self.timeout if within is None else within)
        try:
            self._stack.close()
        except Exception:  # already dropped
            pass
        self._stack = ExitStack()
        attempt = 0
        while True:
            attempt += 1
            ceiling = min(4.0, 0.5 * 2 ** (attempt - 1))
            floor = 0.25 if attempt == 1 else ceiling / 2
            time.sleep(float(floor + rng.random() * (ceiling - floor)))
            if self._pinged():
                try:
                    self.ws = self._open_websocket(self.session_id)
                    break
                except Exception:  # refused, or dropped in the handshake: ping again
                    pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"no connection to {self.host} after {attempt} pings")
        return self._run(), attempt

    def _pinged(self) -> bool:
        """Whether /_stcore/health and /_stcore/host-config both answer 200."""
        for path in ("_stcore/health", "_stcore/host-config"):
            try:
                with self._http.open(f"http://{self.host}/{path}",
                                     timeout=min(self.timeout, 10)) as response:
                    response.read()
                    if response.status != 200:
                        return False
            except HTTPError as exc:
                exc.close()
                return False
            except OSError:
                return False
        return True

    def set_slider(self, key: str, value: float | str) -> Run:
        """Move the slider whose widget key is ``key`` to ``value``: a number in its range,
        or, for a select slider (``st.select_slider``: options), an option as it shows it."""
        wid = self.widget_id(key)
        slider = self.widgets[wid].slider
        state = WidgetState(id=wid)
        if slider.options:
            shown, default = [str(value)], [slider.options[int(i)] for i in slider.default]
            state.string_array_value.data.extend(shown)
        else:
            shown, default = [js_number(value)], [js_number(d) for d in slider.default]
            state.double_array_value.data.append(float(value))
        self.states[wid] = state
        if slider.query_param_key:  # the frontend writes it into the address first
            self.query = with_param(self.query, slider.query_param_key,
                                    None if shown == default else shown)
        return self._run()

    def upload(self, key: str, name: str, data: bytes) -> Run:
        """Upload ``data`` as the file ``name`` into the file uploader whose widget key is
        ``key``, as the frontend does, and rerun (the run that follows the upload).

        1. ``file_urls_request`` (BackMsg) for the one file name, with the session's id;
           the server answers ``file_urls_response`` with the file's id and its upload and
           delete URLs (/_stcore/upload_file/<session id>/<file id>).
        2. A single-file uploader holding a file drops it first: a DELETE of its URL.
        3. A multipart PUT of the file to its upload URL (the form field and the file named
           ``name``, the file's type from its extension), with the XSRF cookie and the same
           token in ``X-Xsrftoken``; the server answers 204 and holds the file for the
           session.
        4. The uploader's state becomes a ``file_uploader_state_value`` listing the file
           (id, name, size in bytes, URLs), and the change reruns the script; the state is
           sent with every later rerun while the uploader is on screen.
        """
        wid = self.widget_id(key)
        uploader = self.widgets[wid].file_uploader
        request_id = str(uuid.uuid4())  # the frontend's: a random UUID
        request = BackMsg()
        request.file_urls_request.request_id = request_id
        request.file_urls_request.file_names.append(name)
        request.file_urls_request.session_id = self.session_id
        self.ws.send(request.SerializeToString())
        while True:  # the answer comes on the websocket, outside any script run
            fm = self._through_cache(ForwardMsg.FromString(self.ws.recv(timeout=self.timeout)))
            if (fm.WhichOneof("type") == "file_urls_response"
                    and fm.file_urls_response.response_id == request_id):
                break
        if fm.file_urls_response.error_msg:
            raise RuntimeError(f"file_urls_response: {fm.file_urls_response.error_msg}")
        [urls] = fm.file_urls_response.file_urls
        held = self.states.get(wid)
        if held is not None and not uploader.multiple_files:
            for info in held.file_uploader_state_value.uploaded_file_info:
                if info.file_urls.delete_url:
                    self._xsrf_request("DELETE", info.file_urls.delete_url,
                                       json.dumps({"sessionId": self.session_id}).encode(),
                                       "application/json")
        body, content_type = multipart_form(name, data)
        self._xsrf_request("PUT", urls.upload_url, body, content_type)
        state = WidgetState(id=wid)
        files = state.file_uploader_state_value.uploaded_file_info
        if held is not None and uploader.multiple_files:
            files.extend(held.file_uploader_state_value.uploaded_file_info)
        files.add(file_id=urls.file_id, name=name, size=len(data)).file_urls.CopyFrom(urls)
        self.states[wid] = state
        return self._run()

    def _xsrf_token(self) -> str:
        """The XSRF token the frontend sends: its XSRF cookie as it is."""
        return next((c.value for c in self.cookies if c.name == XSRF_COOKIE), NO_XSRF_TOKEN)

    def _xsrf_request(self, method: str, url: str, body: bytes, content_type: str) -> int:
        """An HTTP request of the frontend's upload client (its ``csrfRequest``): with the
        session's cookies and the XSRF token in ``X-Xsrftoken``; its status (an error
        status raises urllib's HTTPError)."""
        request = Request(urljoin(f"http://{self.host}/", url), data=body, method=method,
                          headers={"Content-Type": content_type,
                                   "X-Xsrftoken": self._xsrf_token(),
                                   "Origin": f"http://{self.host}"})
        with self._http.open(request, timeout=self.timeout) as response:
            response.read()
            return response.status

    def widget_id(self, key: str) -> str:
        [wid] = [w for w in self.widgets if w.endswith(f"-{key}")]
        return wid

    def sliders(self) -> dict[str, Element]:
        """The sliders and select sliders on screen that run the page when moved, by widget
        key: not those of a form (a browser sends a form's values only when it is
        submitted, by its button)."""
        return {wid.rsplit("-", 1)[-1]: el for wid, el in self.widgets.items()
                if el.WhichOneof("type") == "slider" and not el.slider.form_id}

    def rerun_message(self, *, extra: list[WidgetState] = (), fragment_id: str = "",
                      auto: bool = False) -> BackMsg:
        """The ``rerun_script`` the browser would send now (with the widget states
        ``extra`` after those held, e.g. a trigger; for the fragment ``fragment_id``;
        ``auto``: by a fragment's timer)."""
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = self.query
        if self.page_hash:  # known after the first run: the page by its script's hash
            rerun.page_script_hash = self.page_hash
        else:
            rerun.page_name = self.page
        rerun.widget_states.SetInParent()  # sent, empty, on the first run too
        rerun.widget_states.widgets.extend(self.states.values())
        rerun.widget_states.widgets.extend(extra)
        if fragment_id:
            rerun.fragment_id = fragment_id
        if auto:
            rerun.is_auto_rerun = True
        rerun.cached_message_hashes.extend(self.cache)
        rerun.context_info.CopyFrom(self.context_info)
        return msg

    def _run(self, *, extra: list[WidgetState] = (), fragment_id: str = "",
             auto: bool = False) -> Run:
        msg = self.rerun_message(extra=extra, fragment_id=fragment_id, auto=auto)
        start = time.perf_counter()
        self.ws.send(msg.SerializeToString())
        run, drawn, new_session = Run(0.0, -1, request=msg), {}, False
        while True:
            fm = ForwardMsg()
            fm.ParseFromString(self.ws.recv(timeout=self.timeout))
            run.messages.append(fm)
            fm = self._through_cache(fm)
            kind = fm.WhichOneof("type")
            if kind == "new_session":
                new_session = True
                self.session_id = fm.new_session.initialize.session_id
                self._max_age = fm.new_session.config.max_cached_message_age
                if not fm.metadata.run.fragment_ids:  # a full run: the frontend drops its
                    self.auto_reruns.clear()  # fragments' timers (the run sends its own)
            elif kind == "navigation":  # the page this run drew (app.py routes by st.navigation)
                self.page_hash = fm.navigation.page_script_hash
            elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                element = fm.delta.new_element
                run.elements.append(element)
                widget = getattr(element, element.WhichOneof("type") or "", None)
                if getattr(widget, "id", "").startswith("$$ID-"):
                    drawn[widget.id] = element
            elif kind == "page_info_changed":
                run.query = self.query = fm.page_info_changed.query_string
            elif kind == "auto_rerun":
                self.auto_reruns[fm.auto_rerun.fragment_id] = fm.auto_rerun.interval
            elif kind == "stop_auto_rerun":
                for fid in fm.stop_auto_rerun.fragment_ids:
                    self.auto_reruns.pop(fid, None)
            elif kind == "script_finished":
                run.seconds, run.status = time.perf_counter() - start, fm.script_finished
                # The widgets are those of this run (a widget not drawn is forgotten, and one
                # whose parameters changed is drawn under a new id). Each keeps the value it
                # holds unless the script set one; a new one starts at its drawn value. A
                # fragment's run draws that fragment only: the others stay as they were.
                if fragment_id:
                    drawn = {**self.widgets, **drawn}
                self.widgets = drawn
                states = {}
                for wid, element in drawn.items():
                    if wid in self.states and not getattr(
                            getattr(element, element.WhichOneof("type")), "set_value", False):
                        states[wid] = self.states[wid]
                    elif (state := widget_state(wid, element)) is not None:
                        states[wid] = state
                self.states = states
                if new_session and fm.script_finished != FINISHED.FINISHED_EARLY_FOR_RERUN:
                    self._age_cache()
                return run

    def _through_cache(self, fm: ForwardMsg) -> ForwardMsg:
        """Keep a cacheable message; resolve a reference to one kept (as the frontend)."""
        if fm.WhichOneof("type") == "ref_hash":
            entry = self.cache[fm.ref_hash]
            entry[1] = self._script_runs
            full = ForwardMsg()
            full.CopyFrom(entry[0])
            full.metadata.CopyFrom(fm.metadata)
            return full
        if fm.metadata.cacheable and fm.hash:
            self.cache.setdefault(fm.hash, [fm, 0])[1] = self._script_runs
        return fm

    def _age_cache(self) -> None:
        self._script_runs += 1
        for h in [h for h, (_, used) in self.cache.items()
                  if self._script_runs - used > self._max_age]:
            del self.cache[h]
