"""Replicas behind HAProxy (issue 20, "Classroom scale"): the stack `scripts/serve.sh` starts
(two `streamlit run app.py` processes and Debian's HAProxy with deploy/haproxy.cfg), driven
end to end. Functional checks only, no timings:

- the configuration is valid (`haproxy -c`), serve.sh renders it for N replicas, and its
  upload limit follows Streamlit's ``server.maxUploadSize``;
- a browser session with an upload is served end to end through the proxy, every one of its
  requests (page, assets, websocket, upload) by one replica, and two sessions by the two
  replicas; an upload that reaches a replica not holding its session is refused, which is
  why the cookie matters; the replicas share one cookie secret;
- a replica killed while its sessions run: the sessions on the other replica go on with 0
  errors, the killed replica's sessions get their view back from their URL on a live
  replica, and a browser session on it reconnects by itself, then must upload its file
  again (the page says so) and shows the same numbers as before;
- 200 connections from one client, a bad websocket frame, too many connections from one
  address, an oversized or unannounced upload body: the others' runs still end fine.

Waits are for states (Playwright's ``expect``, a websocket opened, a replica routed to),
never sleeps. Without haproxy the tests skip (on CI, where scripts/test.sh installs it, they
fail).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import threading
import tomllib
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from urllib.parse import urlencode

import numpy as np
import pytest
from streamlit.web.server.starlette.starlette_app_utils import generate_xsrf_token_string
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from browserkit import (
    LOAD_TIMEOUT_MS, assert_clean, expect, in_url, new_context,
    number, open_page, press_until, read_metrics, thumb, wait_idle, watched_page)
from conftest import REPO_ROOT, free_port
from protocolkit import ProtocolSession, multipart_form, other_value
from replicakit import (
    COOKIE, SERVE, TEMPLATE, alive, cmdline_of, environ_of, haproxy, replica_of_response,
    start_stack, stop_stack, template_limit)
from test_browser import browser  # noqa: F401  (fixture: Debian's Chromium)

WAIT = 60.0  # seconds to wait for an answer (a condition, not a timing)
PAGE = "ldp"  # the protocol tests' page: the cheapest to run, every slider in the URL

# The browser tests' view: both histograms from one uploaded file (columns a and b).
TITLE = "Compare two private histograms"
UP = "Uploaded CSV file"
UPLOAD_VIEW = "compare_histograms?" + urlencode({"cmp_a": UP, "cmp_b": UP})
SMALL = "a,b\n500,520\n300,310\n200,190\n"  # 1,000 and 1,020 people
LARGE = "a,b\n5000,1000\n3000,3000\n2000,6000\n"  # 10,000 in each
N_A = "Estimated N̂ (A)"
EPS_A = "Privacy level ε_A (histogram A)"
ZOOM = "Zoom on small counts, where debiasing acts"  # a control the numbers do not use
# The page's prompt for a file (kit.wait, an info box): what it says may be reworded.
UPLOAD_PROMPT = re.compile("upload", re.IGNORECASE)

SERVER = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text("utf-8"))["server"]
MIB = 1024 * 1024


def _unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI must run these tests (scripts/test.sh installs haproxy).",
                    pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def haproxy_bin() -> str:
    found = haproxy()
    if found is None:
        _unavailable("haproxy is not installed (Debian: apt-get install haproxy)")
    return found


@pytest.fixture(scope="module")
def stack(haproxy_bin, tmp_path_factory):
    """`bash scripts/serve.sh --replicas 2` on free ports; stopped with SIGTERM, after which
    serve.sh has stopped HAProxy and every replica it started."""
    try:
        running = start_stack(tmp_path_factory.mktemp("serve"))
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    pids = {name: running.replica_pid(name) for name in running.names}
    yield running
    pids.update({name: running.replica_pid(name) for name in running.names})  # restarted
    haproxy_pid = int((running.state_dir / "haproxy.pid").read_text())
    status = stop_stack(running)
    assert status == 143, f"serve.sh ended with {status}:\n{running.log()[-3000:]}"
    left = [p for p in [haproxy_pid, *pids.values()] if alive(p)]
    assert not left, f"serve.sh left processes running: {left}"


# --- the configuration ---------------------------------------------------------------------------

def test_the_configuration_is_valid_and_rendered_for_n_replicas(haproxy_bin, tmp_path):
    checked = subprocess.run([haproxy_bin, "-c", "-f", str(TEMPLATE)], capture_output=True,
                             text=True)
    assert checked.returncode == 0, checked.stderr
    assert "Configuration file is valid" in checked.stdout + checked.stderr
    port = free_port()
    rendered = subprocess.run(
        ["bash", str(SERVE), "--replicas", "3", "--port", str(port), "--state-dir",
         str(tmp_path), "--check"], cwd=REPO_ROOT, capture_output=True, text=True)
    assert rendered.returncode == 0, rendered.stderr
    config = (tmp_path / "haproxy.cfg").read_text("utf-8")
    servers = re.findall(r"^\s*server (s\d) 127\.0\.0\.1:(\d+) cookie (s\d)\s*$", config, re.M)
    assert servers == [(f"s{i}", str(port + i), f"s{i}") for i in (1, 2, 3)]
    assert re.findall(r"^\s*bind (\S+)\s*$", config, re.M) == [f"*:{port}"]
    # Everything else is the template's, line for line.
    def kept(text):
        return [line for line in text.splitlines()
                if not re.match(r"\s*(server|bind) ", line)]
    assert kept(config) == kept(TEMPLATE.read_text("utf-8"))


@pytest.mark.parametrize("args, says", [
    (["--replicas", "0"], "positive whole numbers"),
    (["--port", "eighty"], "positive whole numbers"),
    (["--port", "65535", "--replicas", "2"], "up to 65535"),
    (["--replicas"], "takes a value"),
    (["--bind", ""], "take a value"),
    (["--workers", "2"], "unknown argument '--workers'"),
])
def test_serve_refuses_bad_arguments_in_plain_words(args, says):
    """Before installing or starting anything: exit 2 and a sentence naming the argument."""
    refused = subprocess.run(["bash", str(SERVE), *args], cwd=REPO_ROOT, capture_output=True,
                             text=True, timeout=30)
    assert refused.returncode == 2, refused.stderr
    assert says in refused.stderr and "Traceback" not in refused.stderr


def test_the_proxy_limits_follow_streamlits():
    # An upload announced larger than Streamlit takes (maxUploadSize, in MiB, checked on the
    # Content-Length: streamlit/web/server/starlette/starlette_routes.py) is refused.
    assert template_limit(r"req\.hdr_val\(content-length\) gt (\d+)") == (
        SERVER.get("maxUploadSize", 200) * MIB)
    # Per client address: room for a class behind one NAT address, below the frontend's cap.
    per_source = template_limit(r"sc0_conn_cur gt (\d+)")
    frontend = template_limit(r"^frontend dashboard$[\s\S]*?^\s*maxconn (\d+)$")
    whole = template_limit(r"^global$[\s\S]*?^\s*maxconn (\d+)$")
    assert 300 <= per_source < frontend <= whole


# --- a browser session with an upload ----------------------------------------------------------

def replica_cookie(context) -> str | None:
    """The replica the context's cookie keeps it on."""
    return next((c["value"] for c in context.cookies() if c["name"] == COOKIE), None)


def upload(page, content: str) -> None:
    """Upload ``content`` as data.csv (the run before has ended: see test_browser.upload)."""
    wait_idle(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        {"name": "data.csv", "mimeType": "text/csv", "buffer": content.encode()})


def computed(page) -> dict[str, str]:
    """The comparison's five numbers, once the run that computed them has ended."""
    expect(page.locator('[data-testid="stMetric"]')).to_have_count(5)
    wait_idle(page)
    return read_metrics(page)


def prompt(page):
    """The page's prompt for a file."""
    return page.locator('[data-testid="stAlertContentInfo"]').filter(has_text=UPLOAD_PROMPT)


def served_page(context, stack):
    """A watched page whose responses through the proxy are kept with the replica that
    answered each (``page.served``: (method, URL, status, replica))."""
    page = watched_page(context, stack.url)
    page.served = []
    page.on("response", lambda r: page.served.append(
        (r.request.method, r.url, r.status, r.headers.get("x-dpviz-replica")))
        if r.url.startswith(stack.url) else None)
    return page


@pytest.mark.browser
def test_two_sessions_with_uploads_on_two_replicas(browser, stack):
    """Each session, its page, assets, websocket and upload, stays on one replica (the
    cookie); the second lands on the other replica (leastconn); both compute with their
    file. The upload needs that: a replica refuses an upload for a session it does not
    hold."""
    stack.wait_all_routed()
    contexts, seen = [], []
    try:
        for content, people in ((SMALL, 1_000), (LARGE, 10_000)):
            context = new_context(browser)
            contexts.append(context)
            page = served_page(context, stack)
            with page.expect_websocket() as ws:
                open_page(page, UPLOAD_VIEW, TITLE)
            wait_idle(page)
            expect(prompt(page)).to_be_visible()
            upload(page, content)
            shown = computed(page)
            # A result that depends on the file: N̂ estimates the file's total, 1,000 or
            # 10,000 people, from counts with Laplace noise of scale 2/ε = 20 in each bin.
            assert number(shown[N_A]) == pytest.approx(people, rel=0.2), shown
            assert_clean(page)
            replica = replica_cookie(context)
            uploads = [s for s in page.served if "/_stcore/upload_file/" in s[1]]
            assert [(m, status) for m, _, status, _ in uploads] == [("PUT", 204)], uploads
            # Every response (page, assets, health, upload) came from the cookie's replica;
            # so did the websocket's: the upload names its session, which the replica that
            # took it (204) holds.
            assert {r for *_, r in page.served} == {replica}, page.served
            assert ws.value.url == f"ws://{stack.host}/_stcore/stream"
            seen.append((replica, uploads[0][1]))
        assert {replica for replica, *_ in seen} == set(stack.names), seen
        # The first session's upload sent to the other replica is refused: the session
        # lives in one process only.
        (replica, upload_url), (other, _) = seen
        assert misdirected_upload(upload_url, other, stack) == 400
        # And the replicas sign cookies with one secret, given in their environment.
        secrets = {environ_of(stack.replica_pid(n)).get("STREAMLIT_SERVER_COOKIE_SECRET")
                   for n in stack.names}
        assert secrets == {(stack.state_dir / "cookie_secret").read_text().strip()}, secrets
        assert all(s not in cmdline_of(stack.replica_pid(n)) for s in secrets
                   for n in stack.names)
    finally:
        for context in contexts:
            context.close()


def misdirected_upload(upload_url: str, replica: str, stack) -> int:
    """The status of a PUT of a file to ``upload_url`` sent (by its cookie) to ``replica``,
    with a valid XSRF token pair."""
    token = generate_xsrf_token_string()
    body, content_type = multipart_form("data.csv", SMALL.encode())
    request = urllib.request.Request(upload_url, data=body, method="PUT", headers={
        "Content-Type": content_type,
        "X-Xsrftoken": token, "Cookie": f"{COOKIE}={replica}; _streamlit_xsrf={token}",
        "Origin": stack.url})
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as resp:
            return resp.status
    except urllib.error.HTTPError as exc:
        assert exc.headers.get("X-Dpviz-Replica") == replica
        assert b"Invalid session_id" in exc.read()
        return exc.code


@pytest.mark.browser
def test_a_session_on_a_killed_replica_gets_its_view_back(browser, stack):
    """A replica is killed under a browser session. Streamlit's frontend reconnects by
    itself through the proxy to a live replica (HAProxy moves its cookie) without a run; the
    page still shows its last run. The next run (a control, or the file uploaded again)
    runs on the new replica with the browser's values: the file is not there and the page
    asks for it; uploaded again, the numbers are those shown before. Reloading the page's
    URL gives the same view, once the file is uploaded again."""
    stack.wait_all_routed()
    context = new_context(browser)
    try:
        page = watched_page(context, stack.url)
        open_page(page, UPLOAD_VIEW, TITLE)
        upload(page, SMALL)
        computed(page)
        press_until(page, thumb(page, EPS_A), "End", "10")
        expect(page).to_have_url(in_url("cmp_alpha_a", "10"))
        before = computed(page)
        dead = replica_cookie(context)

        with page.expect_websocket(timeout=LOAD_TIMEOUT_MS):  # the frontend reconnects
            stack.kill_replica(dead)
        wait_idle(page)
        assert replica_cookie(context) not in (None, dead)
        assert read_metrics(page) == before  # no run on reconnection: the page as it was
        # The killed replica back (serve.sh restarts it, the health checks see it up) before
        # the session runs again: the steps below are the session's on its new replica, not
        # a race with the restart.
        stack.wait_all_routed()
        assert replica_cookie(context) not in (None, dead)

        # A control changed: the run on the new replica has every value but the file.
        page.locator('[data-testid="stCheckbox"]').filter(has_text=ZOOM).locator(
            "label").click()
        expect(page).to_have_url(in_url("cmp_zoom", "true"))
        expect(prompt(page)).to_be_visible()
        # The page says why: the file the browser still names is not on this replica.
        expect(page.get_by_text("no longer on the server")).to_be_visible()
        expect(page.locator('[data-testid="stMetric"]')).to_have_count(0)
        expect(thumb(page, EPS_A)).to_have_attribute("aria-valuetext", "10")
        upload(page, SMALL)
        try:
            assert computed(page) == before
        except AssertionError as error:  # what the proxy and the replicas said meanwhile
            raise AssertionError(f"{error}\n--- serve.sh and HAProxy:\n{stack.log()[-3000:]}"
                                 + "".join(f"\n--- replica {name}:\n"
                                           f"{stack.replica_log(name)[-3000:]}"
                                           for name in stack.names)) from None

        # The page's URL, opened again: its view, once the file is uploaded again.
        page.goto(page.url)
        expect(prompt(page)).to_be_visible(timeout=LOAD_TIMEOUT_MS)
        expect(thumb(page, EPS_A)).to_have_attribute("aria-valuetext", "10")
        upload(page, SMALL)
        assert computed(page) == before
        assert_clean(page)
    finally:
        context.close()


# --- sessions of the protocol client while a replica dies ----------------------------------------

def metrics(run) -> list[tuple[str, str]]:
    return [(e.metric.label, e.metric.body) for e in run.elements
            if e.WhichOneof("type") == "metric"]


@dataclass
class Worker:
    """A session moving its sliders in a loop, and what became of its runs."""

    session: ProtocolSession
    replica: str
    runs: int = 0
    after_kill: int = 0
    failed: list = field(default_factory=list)  # runs that did not end successfully
    error: BaseException | None = None  # what ended the loop early
    last_ok: tuple[str, list] | None = None  # (query, metrics) of its last good run


def test_killing_a_replica_mid_run_loses_no_other_session(stack):
    """Four sessions over both replicas keep moving sliders; one replica is killed while
    they run. Every session on the other replica goes on with 0 errors; each session of the
    killed one, opened again from its URL (its query string), gets the same numbers from a
    live replica."""
    stack.wait_all_routed()
    killed, enough = threading.Event(), threading.Event()
    with ExitStack() as opened:
        workers = []
        for _ in range(4):  # leastconn: the sessions alternate between the replicas
            session = opened.enter_context(ProtocolSession(stack.host, PAGE, timeout=WAIT))
            workers.append(Worker(session, replica_of_response(session.ws.response.headers)))
            run = session.open()
            assert run.ok, run.exceptions
            workers[-1].last_ok = (session.query, metrics(run))
        assert {w.replica for w in workers} == set(stack.names), [w.replica for w in workers]
        victim = workers[0].replica

        def work(w: Worker, seed: int) -> None:
            rng = np.random.default_rng(seed)
            try:
                while not (killed.is_set() and w.after_kill >= 3):
                    sliders = w.session.sliders()
                    key = str(rng.choice(sorted(sliders)))
                    run = w.session.set_slider(key, other_value(sliders[key].slider, rng))
                    w.runs += 1
                    w.after_kill += killed.is_set()
                    if run.ok:
                        w.last_ok = (w.session.query, metrics(run))
                    else:
                        w.failed.append((key, run.status, run.exceptions))
                    if min(x.runs for x in workers) >= 2:
                        enough.set()
            except (ConnectionClosed, OSError, TimeoutError) as exc:
                w.error = exc
                enough.set()  # the test fails below if this was before the kill

        with ThreadPoolExecutor(len(workers)) as pool:
            futures = [pool.submit(work, w, i) for i, w in enumerate(workers)]
            assert enough.wait(WAIT * 4)
            stack.kill_replica(victim)  # the sessions are busy: some are mid-run
            killed.set()
            for future in futures:
                future.result()

        survivors = [w for w in workers if w.replica != victim]
        for w in survivors:
            assert w.error is None and not w.failed, (w.replica, w.error, w.failed)
            assert w.after_kill >= 3
        for w in workers:
            if w.replica != victim:
                continue
            assert w.error is not None or w.failed  # its replica is gone
            query, shown = w.last_ok
            with ProtocolSession(stack.host, PAGE, query, timeout=WAIT) as again:
                assert replica_of_response(again.ws.response.headers) in stack.names
                run = again.open()
                assert run.ok, run.exceptions
                assert metrics(run) == shown, query
        # A new session is served too.
        with ProtocolSession(stack.host, PAGE, timeout=WAIT) as newcomer:
            assert newcomer.open().ok
    for name in stack.names:
        if name != victim:
            assert "Traceback" not in stack.replica_log(name)


# --- a hostile client through the proxy -----------------------------------------------------

def websocket_from(address: str, host: str):
    """A bare websocket to the proxy from the local ``address`` (127.0.0.x: another client)."""
    sock = socket.create_connection(("127.0.0.1", int(host.rsplit(":", 1)[1])),
                                    timeout=WAIT, source_address=(address, 0))
    return connect(f"ws://{host}/_stcore/stream", sock=sock, subprotocols=["streamlit"],
                   origin=f"http://{host}", open_timeout=WAIT)


def raw_request(port: int, head: str, *, source: str = "127.0.0.1") -> bytes:
    """Send an HTTP request head (and no body) to the proxy; its answer's first bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT,
                                  source_address=(source, 0)) as sock:
        sock.sendall(head.encode())
        return sock.recv(4096)


def test_a_flood_from_one_client_does_not_stop_the_others(stack):
    """One client (127.0.0.2) opens 200 websockets through the proxy and sends a frame that
    is not a BackMsg; another (127.0.0.3) opens more connections than one address may hold;
    uploads with too large or no announced length, a websocket from another site's page:
    HAProxy and Streamlit refuse what is
    theirs to refuse, and a session opened before (the bystander) and one opened after still
    get their runs to end successfully."""
    stack.wait_all_routed()
    rng = np.random.default_rng(20)
    per_source = template_limit(r"sc0_conn_cur gt (\d+)")

    def moved(session):
        key, element = next(iter(session.sliders().items()))
        return session.set_slider(key, other_value(element.slider, rng))

    with ProtocolSession(stack.host, PAGE, timeout=WAIT) as bystander, ExitStack() as held:
        assert bystander.open().ok
        # 200 websockets at once from one address: all accepted (under its cap).
        with ThreadPoolExecutor(20) as pool:
            futures = [pool.submit(websocket_from, "127.0.0.2", stack.host)
                       for _ in range(200)]
        sockets = [held.enter_context(f.result()) for f in futures]
        assert {replica_of_response(ws.response.headers) for ws in sockets} == set(stack.names)
        # A frame that is not a BackMsg: Streamlit closes that connection (1002), behind the
        # proxy as without it.
        sockets[0].send(b"\xff\xfe\x00garbage" * 10)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                sockets[0].recv(timeout=WAIT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1002
        assert moved(bystander).ok

        # More connections than one address may hold: the extra ones are closed at once.
        extra, conns, answers = 20, [], []
        for _ in range(per_source + extra):
            try:
                conns.append(held.enter_context(socket.create_connection(
                    ("127.0.0.1", stack.port), timeout=WAIT, source_address=("127.0.0.3", 0))))
            except OSError:  # reset while connecting
                answers.append(b"")
        for conn in conns:  # kept open (keep-alive): each still counts for its address
            try:
                conn.sendall(b"GET /_stcore/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                answers.append(conn.recv(64))
            except OSError:  # reset
                answers.append(b"")
        assert sum(a.startswith(b"HTTP/1.1 200") for a in answers) == per_source
        assert answers.count(b"") == extra
        assert moved(bystander).ok
        with ProtocolSession(stack.host, PAGE, timeout=WAIT) as newcomer:
            assert newcomer.open().ok
            assert moved(newcomer).ok

    # Upload bodies: one announced above Streamlit's limit, one without a length. HAProxy
    # answers (no replica header): the replicas never see them.
    cap = template_limit(r"req\.hdr_val\(content-length\) gt (\d+)")
    path = f"/_stcore/upload_file/{uuid.uuid4()}/{uuid.uuid4()}"
    too_large = raw_request(stack.port, f"PUT {path} HTTP/1.1\r\nHost: {stack.host}\r\n"
                            f"Content-Length: {cap + 1}\r\n\r\n")
    assert too_large.startswith(b"HTTP/1.1 413"), too_large
    chunked = raw_request(stack.port, f"PUT {path} HTTP/1.1\r\nHost: {stack.host}\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n")
    assert chunked.startswith(b"HTTP/1.1 400"), chunked
    assert b"x-dpviz-replica" not in (too_large + chunked).lower()
    # At the limit it goes through: the replica answers (here: no XSRF token, 403).
    at_limit = raw_request(stack.port, f"PUT {path} HTTP/1.1\r\nHost: {stack.host}\r\n"
                           f"Content-Length: {cap}\r\n\r\n")
    assert at_limit.startswith(b"HTTP/1.1 403"), at_limit
    assert b"x-dpviz-replica" in at_limit.lower()
    # The websocket of another site's page is refused by HAProxy; this site's goes through.
    handshake = ("GET /_stcore/stream HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                 "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: streamlit\r\n"
                 "Origin: {origin}\r\n\r\n")
    foreign = raw_request(stack.port, handshake.format(host=stack.host,
                                                       origin="http://elsewhere.example"))
    assert foreign.startswith(b"HTTP/1.1 403") and b"x-dpviz-replica" not in foreign.lower()
    own = raw_request(stack.port, handshake.format(host=stack.host,
                                                   origin=f"http://{stack.host}"))
    assert own.startswith(b"HTTP/1.1 101"), own
    assert stack.proc.poll() is None
    assert all(stack.routed_to(n) == n for n in stack.names)
