"""Load test: one Streamlit server, concurrent browser sessions moving the controls.

    .venv/bin/python benchmarks/load_test.py                      # 10 sessions, 120 s
    .venv/bin/python benchmarks/load_test.py --duration 30 --sessions 4 --pages ldp,fdp

Starts `streamlit run app.py` as the browser tests do (tests/test_browser.py), opens one
headless Chromium (Debian's /usr/bin/chromium, never `playwright install`) with one browser
context per session, each session on a page (the sessions cycle through the pages), and
changes the page's controls in a loop for --duration seconds:

- sliders through the keyboard (focus the thumb, an `<input type="range">` of role slider in
  this Streamlit version, and press ArrowRight / ArrowLeft, alternating, so the value stays
  near its default), selectboxes (another option, then the default again; never
  "upload"), radios (likewise), the page's tabs when they rerun the script (tabs bound to
  the URL), and the cheap buttons "New draw" and "Flip again";
- never a control inside a form, a file uploader, or any other button: the calibration
  page's "Run simulation", the planner's "Compute the frontier" and random substitution's
  "Run the paper grid" start long simulations on purpose.

Latency of a change: from the key press (or click) until the script run it triggers has
finished and the browser has painted the result. The page records (an init script) the
messages of the app's WebSocket, sent and received, the second animation frame after the
last one received, and the changes of Streamlit's script state (`data-test-script-state`
of `stApp`, behind the running indicator). A change is done when a message was sent after
it and answered, no message has come for QUIET_S, the script state is not "running", the
browser has painted and no element is still a placeholder (`stSkeleton`, an element whose
code is still loading). The messages, not the script state alone, because a busy browser
may handle a whole run's messages at once and never show "running". A change that starts
several runs (a callback, st.rerun) is measured to the end of the last one. The time is
also split into three parts: to the first message received (the request, the slider's
debounce, the wait for the server), the run (to the last message received), the painting.
A run during which a progress bar (`stProgress`) was shown is a simulation with a progress
bar (the planner's searches, the auditor's and the error simulations): excepted from the
1 s target, reported separately.

Errors (must be 0): exception boxes (`stException`), "Traceback" on the page or in the
server log, browser console errors, uncaught page errors, crashed pages, and changes whose
run did not finish within --timeout seconds.

Memory: the resident set (VmRSS) of the server process and its children, every second.
CPU: the core-seconds used, while the sessions change controls, by the server, by this
script's browser (which shares the machine with it) and by everything else on the machine,
so that a run on a busy machine can be read for what it is.

Benchmarks report; they do not assert: the script prints a table and PASS/FAIL lines and
exits 0 (1 only when it could not run at all).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from playwright.async_api import TimeoutError as PlaywrightTimeout

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests")]  # ui/ and the tests helpers
# Chromium, the server, and the JavaScript that records runs (INIT_SCRIPT) and tells when
# the page is idle (WAIT_IDLE): one definition, shared with the browser tests.
from browserkit import (  # noqa: E402
    CHROMIUM, CHROMIUM_ARGS, INIT_SCRIPT, SKELETON, WAIT_IDLE, start_streamlit, stop_streamlit)
from conftest import free_port, routed_pages  # noqa: E402

VIEWPORT = {"width": 1400, "height": 1000}
TARGET_S = 1.0  # p95 of every interactive control
QUIET_S = 0.3  # no message from the server for this long: the change's run(s) are over
START_TIMEOUT_S = 60.0
ACT_TIMEOUT_MS = 15_000  # to find and operate a control
LOAD_TIMEOUT_S = 180.0  # first load of a page, all sessions at once
CHEAP_BUTTONS = ("New draw", "Flip again")  # buttons that only redraw; all others are skipped
AVOID_OPTION = "upload"  # options that need a file (case-insensitive)

# Lists the controls a session may change, marks each with data-lt-id. Controls in forms,
# in the sidebar, hidden (closed tabs and expanders) or disabled are left out.
LIST_CONTROLS = """
(args) => {
  const [cheapButtons] = args;
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main) return [];
  const out = [];
  const visible = e => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  const label = e => {
    const l = e.querySelector('[data-testid="stWidgetLabel"]');
    return l ? l.innerText.trim().split('\\n')[0] : '';
  };
  for (const e of document.querySelectorAll('[data-lt-id]')) e.removeAttribute('data-lt-id');
  const seen = {};
  const add = (e, kind, name, extra) => {
    if (!visible(e) || e.closest('[data-testid="stForm"]')) return;
    let id = `${kind}:${name}`;
    seen[id] = (seen[id] || 0) + 1;
    if (seen[id] > 1) id += ` #${seen[id]}`;  // two controls with the same label
    e.setAttribute('data-lt-id', id);
    out.push({id, kind, name: id.slice(kind.length + 1), ...extra});
  };
  for (const e of main.querySelectorAll('[data-testid="stSlider"]')) {
    // The thumb: a (visually hidden) <input type="range"> in this Streamlit version.
    const thumb = e.querySelector('input[type="range"], [role="slider"]');
    if (!thumb || thumb.disabled || thumb.getAttribute('aria-disabled') === 'true') continue;
    const attr = (a, b) => thumb.getAttribute(a) ?? thumb.getAttribute(b);
    add(e, 'slider', label(e), {value: thumb.value ?? thumb.getAttribute('aria-valuenow'),
        min: attr('min', 'aria-valuemin'), max: attr('max', 'aria-valuemax')});
  }
  for (const e of main.querySelectorAll('[data-testid="stSelectbox"]')) {
    const input = e.querySelector('input');
    if (!input || input.disabled) continue;
    add(e, 'selectbox', label(e), {value: input.value});
  }
  for (const e of main.querySelectorAll('[data-testid="stRadio"]')) {
    const inputs = [...e.querySelectorAll('input[type="radio"]')];
    if (!inputs.length || inputs.every(i => i.disabled)) continue;
    // The option labels (the widget's own label is a <label> too).
    const options = inputs.map(i => (i.closest('label') || i.parentElement).innerText.trim());
    const checked = inputs.findIndex(i => i.checked);
    add(e, 'radio', label(e), {options, checked});
  }
  for (const e of main.querySelectorAll('[data-testid="stButton"] button')) {
    const name = e.innerText.trim().split('\\n').pop().trim();
    if (!cheapButtons.includes(name) || e.disabled) continue;
    add(e, 'button', name, {});
  }
  // The first tab bar of the page (its main sections).
  const bar = main.querySelector('[data-testid="stTabs"] [role="tablist"]');
  if (bar) {
    for (const t of bar.querySelectorAll(':scope > [role="tab"], [role="tab"]')) {
      if (t.closest('[role="tablist"]') !== bar) continue;
      if (t.getAttribute('aria-selected') === 'true') continue;
      add(t, 'tab', t.innerText.trim(), {});
    }
  }
  return out;
}
"""

PAGE_HEALTH = """
() => ({
  exceptions: document.querySelectorAll('[data-testid="stException"]').length,
  traceback: document.body ? document.body.innerText.includes('Traceback') : false,
})
"""

WAIT_RUN_DONE = """
([t0, quiet, skeleton]) => {
  const lt = window.__lt;
  const busy = s => s === 'running' || s === 'rerunRequested';
  const app = document.querySelector('[data-testid="stApp"]');
  if (document.querySelector(skeleton)) { lt.skeleton = performance.now(); return false; }
  if (!app || busy(app.getAttribute('data-test-script-state'))) return false;
  const ws = lt.ws.filter(e => e[1] >= t0);
  const sent = ws.findIndex(e => e[0] === 'sent');
  if (sent < 0) return false;
  const after = ws.slice(sent + 1);
  const recv = after.filter(e => e[0] === 'recv');
  if (!recv.length) return false;
  const last = recv[recv.length - 1][1];
  if (!after.some(e => e[0] === 'painted' && e[1] >= last)) return false;
  return performance.now() - last >= quiet;
}
"""

RUN_RESULT = """
(t0) => {
  const lt = window.__lt;
  const ev = lt.events.filter(e => e[1] >= t0);
  const ws = lt.ws.filter(e => e[1] >= t0);
  const sent = ws.findIndex(e => e[0] === 'sent');
  const after = ws.slice(sent + 1);
  const recv = after.filter(e => e[0] === 'recv');
  const last = recv[recv.length - 1][1];
  const painted = after.filter(e => e[0] === 'painted' && e[1] >= last);
  let end = painted.length ? painted[0][1] : null;
  if (end !== null && lt.skeleton >= t0) end = Math.max(end, lt.skeleton);
  return {runs: ev.filter(e => e[0] === 'running').length, end, scriptEnd: last,
          started: recv[0][1], progress: lt.progress >= t0};
}
"""


# ---------------------------------------------------------------------------
# the pages app.py routes to (tests/conftest.py:routed_pages reads them)
# ---------------------------------------------------------------------------

def routes() -> list:
    """Every page app.py routes to, in order (as the tests read them)."""
    return routed_pages()


def choose_pages(spec: str | None) -> list:
    """--pages: url paths or file paths, comma-separated; default every page with controls
    (the start page has none)."""
    all_routes = routes()
    if not spec:
        return [r for r in all_routes if r.script != "views/home.py"]
    chosen = []
    for item in (s.strip() for s in spec.split(",") if s.strip()):
        match = [r for r in all_routes
                 if item in (r.script, r.url_path, Path(r.script).stem, r.title)]
        if not match:
            sys.exit(f"--pages: no page {item!r}; pages: "
                     + ", ".join(Path(r.script).stem for r in all_routes))
        chosen.append(match[0])
    return chosen


# ---------------------------------------------------------------------------
# the server and its memory
# ---------------------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")


def process_tree() -> dict[int, list[int]]:
    """Children of every process, from /proc/<pid>/stat."""
    children = defaultdict(list)
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children[ppid].append(int(entry.name))
    return children


def descendants(pid: int, children: dict[int, list[int]]) -> list[int]:
    """``pid`` and all its descendants."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, ()))
    return out


def rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_s(pid: int) -> float | None:
    """User + system CPU time of a process, in seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return sum(int(v) for v in fields[11:13]) / TICK  # utime stime (children separately)


def machine_busy_s() -> float:
    """CPU time the whole machine spent busy (all cores, not idle or waiting), in seconds."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return (sum(values[:8]) - values[3] - values[4]) / TICK


class MemorySampler(threading.Thread):
    """Every second: the server's memory (VmRSS of its process tree), and the CPU time used
    so far by the server, by this script's browser (its other descendants) and by the
    machine. A process's CPU time is kept at its last sample after it exits."""

    def __init__(self, pid: int, every: float = 1.0):
        super().__init__(daemon=True)
        self.pid, self.every = pid, every
        # (time, server RSS KiB, server CPU s, browser CPU s, machine busy s)
        self.samples: list[tuple[float, int, float, float, float]] = []
        self.stopped = threading.Event()
        self._server_cpu: dict[int, float] = {}
        self._client_cpu: dict[int, float] = {}

    def sample(self) -> None:
        children = process_tree()
        server = descendants(self.pid, children)
        client = [p for p in descendants(os.getpid(), children)
                  if p not in server and p != os.getpid()]
        for pids, seen in ((server, self._server_cpu), (client, self._client_cpu)):
            for p in pids:
                t = cpu_s(p)
                if t is not None:
                    seen[p] = max(t, seen.get(p, 0.0))
        self.samples.append((time.monotonic(), sum(rss_kib(p) for p in server),
                             sum(self._server_cpu.values()), sum(self._client_cpu.values()),
                             machine_busy_s()))

    def run(self) -> None:
        while not self.stopped.is_set():
            self.sample()
            self.stopped.wait(self.every)

    def between(self, t0: float, t1: float) -> tuple[float, float, float, float] | None:
        """CPU seconds of the server, the browser, the machine, and the wall time, between
        the samples nearest to t0 and t1."""
        if len(self.samples) < 2:
            return None
        a = min(self.samples, key=lambda x: abs(x[0] - t0))
        b = min(self.samples, key=lambda x: abs(x[0] - t1))
        if b[0] <= a[0]:
            return None
        return b[2] - a[2], b[3] - a[3], b[4] - a[4], b[0] - a[0]


# ---------------------------------------------------------------------------
# the sessions
# ---------------------------------------------------------------------------

@dataclass
class Sample:
    page: str
    control: str  # kind: name
    latency: float  # seconds
    runs: int
    progress: bool  # a progress bar was shown: excepted from the target
    paint_s: float | None  # from the end of the run to the painted frame
    start_s: float | None  # from the change to the start of the run (request, queue)
    run_s: float | None  # the script run(s), as the browser sees them


@dataclass
class Session:
    index: int
    route: object
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    load_s: float | None = None
    benign: list[str] = field(default_factory=list)  # console messages that are not errors
    noops: int = 0
    misses: list[str] = field(default_factory=list)  # controls this script failed to operate
    used: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    direction: dict[str, int] = field(default_factory=dict)
    original: dict[str, object] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return Path(self.route.script).stem

    def error(self, text: str) -> None:
        self.errors.append(f"[session {self.index} {self.name}] {text}")


def first_line(exc: BaseException) -> str:
    """An exception's message without Playwright's appended browser log."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""


def benign_console(text: str, url: str) -> str | None:
    """Why a console error is not the app's, or None (it counts as an error).

    Two kinds are expected: (1) an external resource that cannot be fetched because the
    machine is offline: the tab icon of a Material icon (":material/…") is an SVG from
    fonts.gstatic.com; (2) Streamlit's probe of its base path: opened at /<page>, the
    browser first asks /<page>/_stcore/health and /<page>/_stcore/host-config (404), then
    the server root, which answers.
    """
    if not text.startswith("Failed to load resource"):
        return None
    parts = urllib.parse.urlsplit(url)
    if parts.hostname not in ("127.0.0.1", "localhost"):
        return f"external resource not reachable (offline machine): {parts.hostname}"
    if re.fullmatch(r"/[^/]+/_stcore/(health|host-config)", parts.path) and "404" in text:
        return "Streamlit's base-path probe (404, then the root answers)"
    return None


def console(s: Session, msg) -> None:
    if msg.type != "error":
        return
    url = (msg.location or {}).get("url", "")
    why = benign_console(msg.text, url)
    if why is None:
        s.error(f"console error: {msg.text} ({url})")
    else:
        s.benign.append(why)


async def wait_run(page, t0: float, timeout: float) -> dict:
    await page.wait_for_function(WAIT_RUN_DONE, arg=[t0, QUIET_S * 1000, SKELETON],
                                 polling=50, timeout=timeout * 1000)
    return await page.evaluate(RUN_RESULT, t0)


async def query(page) -> dict[str, str]:
    search = await page.evaluate("window.location.search")
    return dict(urllib.parse.parse_qsl(search.lstrip("?")))


async def act(page, s: Session, c: dict, rng: random.Random) -> bool:
    """Change control ``c``; False if nothing changed (no run to wait for)."""
    target = page.locator(f'[data-lt-id="{c["id"]}"]').first
    kind = c["kind"]
    if kind == "slider":
        thumb = target.get_by_role("slider").first  # <input type="range">
        d = s.direction.get(c["id"], 1)
        value, lo, hi = (float(c[k]) for k in ("value", "min", "max"))
        if (d > 0 and value >= hi) or (d < 0 and value <= lo):
            d = -d
        s.direction[c["id"]] = -d  # alternate: the value stays near where it started
        await thumb.focus(timeout=ACT_TIMEOUT_MS)
        await page.keyboard.press("ArrowRight" if d > 0 else "ArrowLeft")
        return await thumb.evaluate("t => t.value ?? t.getAttribute('aria-valuenow')") != c["value"]
    if kind == "selectbox":
        s.original.setdefault(c["id"], c["value"])
        await target.click(timeout=ACT_TIMEOUT_MS)
        options = page.locator('[role="option"]')
        await options.first.wait_for(timeout=ACT_TIMEOUT_MS)
        names = [n.strip() for n in await options.all_inner_texts()]
        home = s.original[c["id"]]
        if c["value"] != home and home in names:
            choice = home
        else:
            choice = rng.choice([n for n in names if n != c["value"]
                                 and AVOID_OPTION not in n.lower()] or [None])
        if choice is None:
            await page.keyboard.press("Escape")
            return False
        await options.nth(names.index(choice)).click(timeout=ACT_TIMEOUT_MS)
        return True
    if kind == "radio":
        s.original.setdefault(c["id"], c["checked"])
        home = s.original[c["id"]]
        options = c["options"]
        if c["checked"] != home:
            i = home
        else:
            others = [i for i, o in enumerate(options)
                      if i != c["checked"] and AVOID_OPTION not in o.lower()]
            if not others:
                return False
            i = rng.choice(others)
        option = target.locator('label:has(input[type="radio"])').nth(i)
        await option.click(timeout=ACT_TIMEOUT_MS)
        return await option.locator("input").is_checked()
    if kind == "tab":
        # Tabs bound to the URL rerun the script (the pages run only the open tab); the
        # others switch in the browser only: nothing to measure. Bound: a URL parameter
        # takes the tab's name as its value, or loses it (the first tab is the default).
        before = await query(page)
        await target.click(timeout=ACT_TIMEOUT_MS)
        for _ in range(20):
            after = await query(page)
            changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
            if any(c["name"] in (before.get(k), after.get(k)) or k not in after
                   for k in changed):
                return True
            await asyncio.sleep(0.1)
        return False
    if kind == "button":
        await target.click(timeout=ACT_TIMEOUT_MS)
        return True
    raise ValueError(kind)


async def run_session(s: Session, browser, base_url: str, start: asyncio.Event,
                      deadline_box: list, timeout: float) -> None:
    ctx = await browser.new_context(viewport=VIEWPORT)
    ctx.set_default_timeout(timeout * 1000)
    await ctx.add_init_script(INIT_SCRIPT)
    page = await ctx.new_page()
    page.on("console", lambda m: console(s, m))
    page.on("pageerror", lambda e: s.error(f"page error: {e}"))
    page.on("crash", lambda _: s.error("page crashed"))
    rng = random.Random(s.index)
    load_timeout = max(timeout, LOAD_TIMEOUT_S) * 1000
    try:
        t = time.monotonic()
        await page.goto(f"{base_url}/{s.route.url_path}", timeout=load_timeout)
        await page.get_by_role("heading", name=s.route.title).first.wait_for(
            timeout=load_timeout)
        await page.wait_for_function(WAIT_IDLE, arg=[1000, SKELETON], polling=100,
                                     timeout=load_timeout)
        s.load_s = time.monotonic() - t - 1.0  # without the quiet second
    except Exception as exc:  # noqa: BLE001 - reported as an error of the session
        s.error(f"page did not load: {type(exc).__name__}: {first_line(exc)}")
        try:
            await page.screenshot(path=str(artifact(f"load-{s.index}-{s.name}.png")))
        except Exception:  # noqa: BLE001
            pass
        await ctx.close()
        return
    await start.wait()
    deadline = deadline_box[0]
    c = {"id": "(none yet)"}
    while time.monotonic() < deadline:
        try:
            controls = await page.evaluate(LIST_CONTROLS, [list(CHEAP_BUTTONS)])
            if not controls:  # e.g. a run still drawing the page: wait until it is idle
                await page.wait_for_function(WAIT_IDLE, arg=[1000, SKELETON], polling=100,
                                             timeout=timeout * 1000)
                controls = await page.evaluate(LIST_CONTROLS, [list(CHEAP_BUTTONS)])
            if not controls:
                s.error("no control to change")
                break
            fewest = min(s.used[c["id"]] for c in controls)
            c = rng.choice([c for c in controls if s.used[c["id"]] == fewest])
            s.used[c["id"]] += 1
            t0 = await page.evaluate("performance.now()")
            try:
                changed = await act(page, s, c, rng)
            except PlaywrightTimeout as exc:
                # The control could not be operated (e.g. re-drawn under the pointer): a
                # miss of this script, not of the app; a run it may have started is waited.
                s.misses.append(f"{c['id']}: {first_line(exc)}")
                await page.keyboard.press("Escape")
                await page.wait_for_function(WAIT_IDLE, arg=[1000, SKELETON], polling=100,
                                             timeout=timeout * 1000)
                continue
            if not changed:
                s.noops += 1
                continue
            result = await wait_run(page, t0, timeout)
            end = result["end"] or result["scriptEnd"]
            paint = (None if result["end"] is None or result["scriptEnd"] is None
                     else (result["end"] - result["scriptEnd"]) / 1000)
            start_s = None if result["started"] is None else (result["started"] - t0) / 1000
            run_s = (None if result["started"] is None or result["scriptEnd"] is None
                     else (result["scriptEnd"] - result["started"]) / 1000)
            s.samples.append(Sample(s.name, f'{c["kind"]}: {c["name"]}', (end - t0) / 1000,
                                    result["runs"], result["progress"], paint, start_s, run_s))
            health = await page.evaluate(PAGE_HEALTH)
            if health["exceptions"]:
                s.error(f'{c["id"]}: {health["exceptions"]} exception box(es) on the page')
            if health["traceback"]:
                s.error(f'{c["id"]}: "Traceback" on the page')
            if health["exceptions"] or health["traceback"]:
                await page.screenshot(path=str(artifact(f"error-{s.index}-{s.name}.png")),
                                      full_page=True)
                break
        except Exception as exc:  # noqa: BLE001 - a timeout or a crash: an error
            s.error(f"{type(exc).__name__} after changing {c['id']!r}: {first_line(exc)}")
            try:
                await page.screenshot(path=str(artifact(f"error-{s.index}-{s.name}.png")),
                                      full_page=True)
            except Exception:  # noqa: BLE001
                pass
            if len(s.errors) >= 5:
                break
            try:  # start the page afresh and go on
                await page.goto(f"{base_url}/{s.route.url_path}")
                await page.get_by_role("heading", name=s.route.title).first.wait_for(
                    timeout=timeout * 1000)
                await page.wait_for_function(WAIT_IDLE, arg=[1000, SKELETON], polling=100,
                                             timeout=timeout * 1000)
            except Exception:  # noqa: BLE001
                break
        await asyncio.sleep(THINK_S)
    await ctx.close()


def artifact(name: str) -> Path:
    folder = REPO_ROOT / "test-artifacts" / "load_test"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


THINK_S = 0.0


def browser_executable(args) -> Path:
    """Chromium, or with --browser-nice a wrapper that starts it at that niceness.

    The sessions' browsers stand for the users' own machines: with a positive niceness the
    server gets the CPU first and the browsers what is left, as if they ran elsewhere
    (their painting still counts in every latency)."""
    if not args.browser_nice:
        return CHROMIUM
    wrapper = Path(tempfile.mkdtemp(prefix="load_test_")) / "chromium"
    wrapper.write_text(f'#!/bin/sh\nexec nice -n {int(args.browser_nice)} {CHROMIUM} "$@"\n')
    wrapper.chmod(0o755)
    return wrapper


async def drive(args, routes_: list, base_url: str) -> list[Session]:
    from playwright.async_api import async_playwright

    sessions = [Session(i, routes_[i % len(routes_)]) for i in range(args.sessions)]
    start = asyncio.Event()
    deadline_box = [0.0]
    closed: list[float] = []  # when the browser went away, if it did before the end
    phase_box: list[float] = []  # start and end of the changes
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(browser_executable(args)),
                                           args=CHROMIUM_ARGS)
        browser.on("disconnected", lambda _: closed.append(time.monotonic()))
        tasks = [asyncio.create_task(run_session(s, browser, base_url, start, deadline_box,
                                                 args.timeout)) for s in sessions]

        async def all_loaded():
            while not all(s.load_s is not None or s.errors for s in sessions):
                await asyncio.sleep(0.2)

        try:
            await asyncio.wait_for(all_loaded(), timeout=max(args.timeout, LOAD_TIMEOUT_S) + 30)
        except asyncio.TimeoutError:
            print("not every session has loaded its page; starting anyway", flush=True)
        loaded = sum(s.load_s is not None for s in sessions)
        print(f"{loaded} of {len(sessions)} sessions loaded their page; changing controls for "
              f"{args.duration:.0f} s …", flush=True)
        deadline_box[0] = time.monotonic() + args.duration
        t = time.monotonic()
        start.set()
        await asyncio.gather(*tasks)
        wall = time.monotonic() - t
        phase_box[:] = [t, t + wall]
        if closed:
            sessions[0].error("the browser disconnected before the end of the test (crashed, "
                              "or killed from outside)")
        else:
            await browser.close()
    return sessions, wall, tuple(phase_box) or None


# ---------------------------------------------------------------------------
# report
# ---------------------------------------------------------------------------

def stats(values) -> tuple[float, float, float]:
    a = np.asarray(values, dtype=float)
    return float(np.percentile(a, 50)), float(np.percentile(a, 95)), float(a.max())


def fmt_ms(v: float) -> str:
    return f"{v * 1000:,.0f}"


def report(sessions: list[Session], sampler: MemorySampler, server_log: str, args,
           load_before: tuple, load_after: tuple, wall: float,
           phase: tuple[float, float] | None) -> None:
    samples = [x for s in sessions for x in s.samples]
    errors = [e for s in sessions for e in s.errors]
    if "Traceback" in server_log:
        errors.append("the server logged a Traceback:\n" + server_log[-3000:])

    groups: dict[tuple[str, str], list[Sample]] = defaultdict(list)
    for x in samples:
        groups[(x.page, x.control)].append(x)

    header = (f"{'page':<20} {'control':<46} {'n':>4} {'p50 ms':>8} {'p95 ms':>8} "
              f"{'max ms':>8}  {'bar':>3}  target")
    print()
    print(header)
    print("-" * len(header))
    failing = []
    for (page, control), xs in sorted(groups.items()):
        plain = [x.latency for x in xs if not x.progress]
        barred = [x.latency for x in xs if x.progress]
        for label, vals in (("", plain), ("bar", barred)):
            if not vals:
                continue
            p50, p95, mx = stats(vals)
            if label:
                verdict = "excepted"
            elif p95 <= TARGET_S:
                verdict = "PASS"
            else:
                verdict = "FAIL"
                failing.append(f"{page} / {control} (p95 {fmt_ms(p95)} ms)")
            print(f"{page:<20} {control[:46]:<46} {len(vals):>4} {fmt_ms(p50):>8} "
                  f"{fmt_ms(p95):>8} {fmt_ms(mx):>8}  {label:>3}  {verdict}")
    print()
    plain = [x.latency for x in samples if not x.progress]
    barred = [x.latency for x in samples if x.progress]
    if plain:
        p50, p95, mx = stats(plain)
        print(f"overall, interactive controls: n = {len(plain)}, p50 = {fmt_ms(p50)} ms, "
              f"p95 = {fmt_ms(p95)} ms, max = {fmt_ms(mx)} ms")
    if barred:
        p50, p95, mx = stats(barred)
        print(f"overall, runs with a progress bar (excepted): n = {len(barred)}, "
              f"p50 = {fmt_ms(p50)} ms, p95 = {fmt_ms(p95)} ms, max = {fmt_ms(mx)} ms")
    loads = [s.load_s for s in sessions if s.load_s is not None]
    if loads:
        print(f"first page load (all sessions at once): p50 = {fmt_ms(np.median(loads))} ms, "
              f"max = {fmt_ms(max(loads))} ms")
    parts = [(x.start_s, x.run_s, x.paint_s) for x in samples if not x.progress
             and None not in (x.start_s, x.run_s, x.paint_s)]
    if parts:
        a = np.asarray(parts)
        print("interactive changes in three parts, p50 / p95 ms: change to first answer "
              f"{fmt_ms(np.median(a[:, 0]))} / {fmt_ms(np.percentile(a[:, 0], 95))}, "
              f"script run {fmt_ms(np.median(a[:, 1]))} / {fmt_ms(np.percentile(a[:, 1], 95))}, "
              f"run end to painted {fmt_ms(np.median(a[:, 2]))} / "
              f"{fmt_ms(np.percentile(a[:, 2], 95))}; runs per change: max "
              f"{max(x.runs for x in samples)}")
    noops = sum(s.noops for s in sessions)
    misses = [m for s in sessions for m in s.misses]
    if misses:
        print(f"controls this script failed to operate (not app errors): {len(misses)}: "
              + "; ".join(misses[:5]))
    print(f"changes: {len(samples)} measured over {wall:.0f} s in {len(sessions)} sessions "
          f"({len(samples) / max(wall, 1e-9):.1f}/s); {noops} presses that changed nothing "
          "(a slider at its end) not counted")
    rss = [x[1] for x in sampler.samples]
    if rss:
        print(f"server memory (VmRSS, process and children): start {rss[0] / 1024:,.0f} MiB, "
              f"peak {max(rss) / 1024:,.0f} MiB, end {rss[-1] / 1024:,.0f} MiB "
              f"({len(rss)} samples, 1 s apart)")
    cpu = sampler.between(*phase) if phase else None
    if cpu:
        server, browser, machine, span = cpu
        cores = os.cpu_count() or 1
        print(f"CPU while the sessions changed controls ({span:.0f} s, {cores} cores = "
              f"{cores * span:.0f} core-seconds): machine busy {machine:.0f} core-s "
              f"({machine / (cores * span):.0%}); this server {server:.0f}, this script's "
              f"browser {browser:.0f}, everything else {max(machine - server - browser, 0):.0f}")
    print(f"load average (1, 5, 15 min) before: {', '.join(f'{v:.2f}' for v in load_before)}; "
          f"after: {', '.join(f'{v:.2f}' for v in load_after)}; CPUs: {os.cpu_count()}")
    benign = defaultdict(int)
    for s in sessions:
        for why in s.benign:
            benign[why] += 1
    for why, n in sorted(benign.items()):
        print(f"not counted as errors: {n} console message(s): {why}")
    print(f"errors: {len(errors)}")
    for e in errors[:30]:
        print("  " + e)
    if len(errors) > 30:
        print(f"  … and {len(errors) - 30} more")
    print()
    if not plain:
        failing.append("nothing measured")
    print(f"{'PASS' if not failing else 'FAIL'}: p95 ≤ {TARGET_S:g} s for every interactive "
          "control (runs with a progress bar excepted)"
          + ("" if not failing else ": " + "; ".join(failing)))
    print(f"{'PASS' if not errors else 'FAIL'}: no errors")


def main(argv=None) -> int:
    global THINK_S
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=120.0,
                        help="seconds of changes per session, after every page has loaded "
                        "(default 120)")
    parser.add_argument("--sessions", type=int, default=10,
                        help="concurrent browser sessions (default 10)")
    parser.add_argument("--port", type=int, default=0, help="server port (default: a free one)")
    parser.add_argument("--pages", default=None,
                        help="comma-separated pages (url path or file name, e.g. "
                        "ldp,fdp,planner); the sessions cycle through them (default: every "
                        "page but the start page, which has no controls)")
    parser.add_argument("--browser-nice", type=int, default=0,
                        help="start the browser at this niceness (e.g. 19): the server gets "
                        "the CPU first, as if the users' browsers ran on their own machines "
                        "(default 0: browser and server share the cores equally)")
    parser.add_argument("--think", type=float, default=0.5,
                        help="pause of a session between two changes, in seconds (default "
                        "0.5: a student looking at the result)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="longest wait for a run, in seconds; beyond it the change is an "
                        "error (default 60)")
    args = parser.parse_args(argv)
    THINK_S = args.think
    if not CHROMIUM.is_file():
        print(f"{CHROMIUM} is missing (Debian's chromium package)")
        return 1
    routes_ = choose_pages(args.pages)
    port = args.port or free_port()
    print(f"{args.sessions} sessions on {len(routes_)} page(s): "
          + ", ".join(Path(r.script).stem for r in routes_)
          + f"; {args.duration:.0f} s; think time {args.think:g} s; browser niceness "
          f"{args.browser_nice}; server port {port}",
          flush=True)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            server = start_streamlit(Path(tmp) / "server.log", port=port,
                                     timeout=START_TIMEOUT_S)
        except RuntimeError as exc:
            sys.exit(str(exc))
        sampler = MemorySampler(server.proc.pid)
        sampler.start()
        try:
            sessions, wall, phase = asyncio.run(
                drive(args, routes_, f"http://127.0.0.1:{port}"))
        finally:
            sampler.stopped.set()
            sampler.join()
            stop_streamlit(server.proc)
        server_log = server.log()
    report(sessions, sampler, server_log, args, load_before, os.getloadavg(), wall, phase)
    return 0


if __name__ == "__main__":
    sys.exit(main())
