"""What the browser tests (tests/test_browser.py) and the load test (benchmarks/load_test.py)
share: Chromium, a `streamlit run app.py` server, and the JavaScript that tells when a
script run has ended (INIT_SCRIPT records, WAIT_IDLE waits); then the browser tests' own
helpers (Playwright's sync API): a watched page, waits, locators, checks, screenshots.

Nothing here sleeps: the server is ready when it prints its URL (its output is read as it
comes), and the page is idle when WAIT_IDLE, polled by Playwright's wait_for_function, says so.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import REPO_ROOT, free_port, healthy, routed_pages

CHROMIUM = Path("/usr/bin/chromium")  # Debian's; never `playwright install`
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]

# Installed in every page before Streamlit's code (context.add_init_script): records the
# script-state transitions, the app's WebSocket messages and when the browser painted after
# them, and whether a progress bar was on screen (window.__lt).
INIT_SCRIPT = """
(() => {
  const lt = window.__lt = {events: [], ws: [], progress: 0, skeleton: 0};
  // The app's WebSocket: when the browser sent a message (a widget change asks for a run)
  // and received one (the run's start, its elements, its end), and when the browser painted
  // after the last message received. A busy browser may handle a whole run's messages at
  // once, so that the script state never shows "running": the messages still tell.
  let paintPending = false;
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => {
        lt.ws.push(['recv', performance.now()]);
        if (paintPending) return;
        paintPending = true;
        setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => {
          paintPending = false;
          lt.ws.push(['painted', performance.now()]);
        })), 0);
      });
    }
    send(data) {
      lt.ws.push(['sent', performance.now()]);
      return super.send(data);
    }
  };
  const busy = s => s === 'running' || s === 'rerunRequested';
  let last = null;
  const observer = new MutationObserver(records => {
    for (const r of records) {
      if (r.attributeName !== 'data-test-script-state') continue;
      const s = r.target.getAttribute('data-test-script-state');
      if (s === last) continue;
      last = s;
      const t = performance.now();
      lt.events.push([s, t]);
      if (!busy(s)) {
        requestAnimationFrame(() => requestAnimationFrame(
          () => lt.events.push(['painted', performance.now()])));
      }
    }
  });
  observer.observe(document, {subtree: true, attributes: true,
                              attributeFilter: ['data-test-script-state']});
  const bar = '[data-testid="stProgress"]';
  new MutationObserver(records => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (n.nodeType === 1 && (n.matches(bar) || n.querySelector(bar))) {
          lt.progress = performance.now();
          return;
        }
      }
    }
  }).observe(document, {subtree: true, childList: true});
  setInterval(() => { if (document.querySelector(bar)) lt.progress = performance.now(); }, 40);
})();
"""

# Placeholders of elements whose code is still being fetched (Streamlit loads a widget's or
# chart's code the first time one is shown): the page is not drawn yet.
SKELETON = ('[data-testid="stMain"] [data-testid="stSkeleton"], '
            '[data-testid="stMain"] [data-testid="stSkeletonElement"]')

# Idle (needs INIT_SCRIPT; see wait_idle): connected, no run, no placeholder, and no run or
# message for `quiet` ms (a first run can be followed by another as URL-bound widgets settle).
# The app's state attributes, not the status widget, which also shows "Source file changed".
WAIT_IDLE = """
([quiet, skeleton]) => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || document.querySelector(skeleton)) return false;
  const conn = app.getAttribute('data-test-connection-state');
  if (conn !== null && conn !== 'CONNECTED') return false;
  if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  const ev = [...window.__lt.events, ...window.__lt.ws];
  return !ev.length || performance.now() - Math.max(...ev.map(e => e[1])) >= quiet;
}
"""


# --- the server --------------------------------------------------------------------------------

@dataclass
class Server:
    url: str
    proc: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def _copy_output(proc: subprocess.Popen, log_path: Path, ready: threading.Event) -> None:
    """Copy the server's output to ``log_path``; set ``ready`` on its URL, a taken port or EOF."""
    with proc.stdout, log_path.open("w", encoding="utf-8") as log:
        for line in proc.stdout:
            log.write(line)
            log.flush()
            if "URL: http" in line or "is not available" in line:
                ready.set()
    ready.set()


def start_streamlit(log_path: Path, *, port: int | None = None, timeout: float = 60.0,
                    tries: int = 3, env: dict[str, str] | None = None,
                    script: str = "app.py") -> Server:
    """`streamlit run <script>` (the app, or a test's harness) on ``port`` (else a free one,
    ``tries`` times), its output in ``log_path``, once healthy; else RuntimeError with the
    server's log. ``env``: variables added to the server's environment (e.g. a class
    database of the test's own)."""
    venv_python = REPO_ROOT / ".venv" / "bin" / "python"
    python = str(venv_python) if venv_python.exists() else sys.executable
    reason = "not started"
    for attempt in range(1 if port else tries):
        port_ = port or free_port()
        url = f"http://127.0.0.1:{port_}"
        proc = subprocess.Popen(
            [python, "-m", "streamlit", "run", script, "--server.port", str(port_),
             "--server.headless", "true", "--browser.gatherUsageStats", "false"],
            cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            encoding="utf-8", errors="replace", start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        )
        server = Server(url, proc, log_path.with_name(f"{log_path.stem}-{attempt}.log"))
        ready = threading.Event()
        threading.Thread(target=_copy_output, args=(proc, server.log_path, ready),
                         daemon=True).start()
        if not ready.wait(timeout):
            reason = f"no answer within {timeout:.0f} s"
        elif proc.poll() is not None or "is not available" in server.log():
            reason = "exited at start-up (its port taken?)"
        elif healthy(url):  # the answer comes from this process: it runs and has the port
            return server
        else:
            reason = f"{url}/_stcore/health did not answer"
        stop_streamlit(proc)
    raise RuntimeError(f"streamlit run {script}: {reason}.\n--- server log ---\n{server.log()}")


def running_server(log_path: Path, env: dict[str, str] | None = None,
                   script: str = "app.py") -> Server:
    """:func:`start_streamlit` for a test's fixture: the test fails with the server's log
    when it does not start."""
    try:
        return start_streamlit(log_path, env=env, script=script)
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)


def stop_streamlit(proc: subprocess.Popen) -> None:
    """Terminate the server's process group (it was started in its own session)."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


# --- the browser tests' pages (Playwright's sync API) ------------------------------------------

VIEWPORT = {"width": 1400, "height": 2600}
ARTIFACTS = REPO_ROOT / "test-artifacts"
LOAD_TIMEOUT_MS = 120_000  # a page's first results, in a browser context that loads it all
# expect(...): a value drawn after a script run on 2 busy cores; a new context can take 30 s
# to load and parse the on-demand code of Plotly's charts (a skeleton meanwhile).
EXPECT_TIMEOUT_MS = 60_000
QUIET_MS = 300  # idle: no run and no message from the server for this long


def new_context(browser):
    """A browser context (its own cookies and cache) whose pages record their runs."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(EXPECT_TIMEOUT_MS)
    context.add_init_script(INIT_SCRIPT)  # for WAIT_IDLE
    return context


def watched_page(context, server_url: str):
    """A new page (a new Streamlit session) in ``context``, recording uncaught JavaScript
    errors, console errors as (text, resource URL), and the HTTP errors and failed requests
    that tell the benign ones apart (see BENIGN_CONSOLE)."""
    pg = context.new_page()
    pg.server_url = server_url
    pg.page_errors, pg.console_errors = [], []
    pg.http_errors = {}  # URL -> status, for responses with status >= 400
    pg.failed_requests = {}  # URL -> reason, for requests with no response at all
    pg.on("pageerror", lambda exc: pg.page_errors.append(str(exc)))
    pg.on("console", lambda msg: pg.console_errors.append(
        (msg.text, (msg.location or {}).get("url", ""))) if msg.type == "error" else None)
    pg.on("response", lambda resp: pg.http_errors.__setitem__(resp.url, resp.status)
          if resp.status >= 400 else None)
    pg.on("requestfailed", lambda req: pg.failed_requests.__setitem__(req.url, req.failure))
    return pg


def expect(target):
    """Playwright's expect, imported when used (the tests skip without Playwright)."""
    from playwright.sync_api import expect as expect_

    return expect_(target)


# What WAIT_IDLE waits for, as it stands: said when the wait times out.
IDLE_STATE = """
(skeleton) => {
  const app = document.querySelector('[data-testid="stApp"]');
  const lt = window.__lt || {events: [], ws: []};
  const ev = [...lt.events, ...lt.ws].sort((a, b) => a[1] - b[1]);
  const now = performance.now();
  return {
    app: !!app, skeletons: document.querySelectorAll(skeleton).length,
    connection: app && app.getAttribute('data-test-connection-state'),
    script: app && app.getAttribute('data-test-script-state'),
    events: ev.length,
    last: ev.slice(-12).map(e => `${e[0]} ${Math.round(now - e[1])} ms ago`),
  };
}
"""


def wait_idle(page) -> None:
    """Until the script run has ended and the page is drawn (browserkit.WAIT_IDLE); else an
    AssertionError that says which condition never held."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_function(WAIT_IDLE, arg=[QUIET_MS, SKELETON], polling=100,
                               timeout=LOAD_TIMEOUT_MS)
    except PlaywrightTimeoutError:
        state = page.evaluate(IDLE_STATE, SKELETON)
        raise AssertionError(f"the page at {page.url} never became idle: {state}") from None


def open_page(page, url: str, title: str) -> None:
    """Go to ``url`` (path and query, no leading "/"); wait for the heading ``title``."""
    page.goto(f"{page.server_url}/{url}")
    expect(page.get_by_role("heading", name=title).first).to_be_visible(timeout=LOAD_TIMEOUT_MS)


def in_url(key: str, value: str) -> re.Pattern:
    """The URL has the query parameter ``key=value`` (``value`` as the URL writes it)."""
    return re.compile(rf"[?&]{re.escape(key)}={re.escape(value)}(&|$)")


def read_metrics(page) -> dict[str, str]:
    return page.evaluate(
        """() => Object.fromEntries(
            [...document.querySelectorAll('[data-testid="stMetric"]')].map(m => [
                m.querySelector('[data-testid="stMetricLabel"]').innerText.trim(),
                m.querySelector('[data-testid="stMetricValue"]').innerText.trim(),
            ]))"""
    )


def metric(page, label: str):
    """The value of the metric labelled exactly ``label``."""
    return page.locator('[data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]').get_by_text(label, exact=True)
    ).locator('[data-testid="stMetricValue"]')


def expect_metrics(page, expected: dict[str, str | None], timeout: float | None = None) -> None:
    """Wait until each metric shows its value (None: any value)."""
    for label, text in expected.items():
        if text is None:
            expect(metric(page, label)).to_be_visible(timeout=timeout)
        else:
            expect(metric(page, label)).to_have_text(text, timeout=timeout)


def thumb(page, label: str):
    """The thumb of the slider labelled ``label``: keyboard focus, aria-valuetext."""
    return page.locator('[data-testid="stSlider"]').filter(
        has=page.locator('[data-testid="stWidgetLabel"]').get_by_text(label, exact=True)
    ).get_by_role("slider")


def open_expander(page, title: str) -> None:
    """Open the collapsed section ``title`` (an ``st.expander``), as a reader clicks it."""
    details = page.locator('[data-testid="stExpander"] details').filter(
        has=page.locator("summary").get_by_text(title, exact=True))
    expect(details).to_have_count(1)
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    expect(details).to_have_attribute("open", "")


def spinbutton(page, name: str):
    return page.get_by_role("spinbutton", name=name, exact=True)


def press_until(page, thumb, key: str, shown: str, tries: int = 3) -> None:
    """Press ``key`` on a slider thumb until it shows ``shown`` (End, Home, or one step): a
    press that landed while a script run re-mounted the widget is pressed again."""
    for _ in range(tries):
        if thumb.get_attribute("aria-valuetext") == shown:
            break
        thumb.focus()
        page.keyboard.press(key)
        try:
            expect(thumb).to_have_attribute("aria-valuetext", shown, timeout=5_000)
            break
        except AssertionError:
            continue
    expect(thumb).to_have_attribute("aria-valuetext", shown)


def choose(page, selectbox_label: str, option: str) -> None:
    """Pick an option of a Streamlit selectbox: click it, then click the option."""
    page.locator('[data-testid="stSelectbox"]').filter(has_text=selectbox_label).click()
    page.get_by_role("option", name=option, exact=True).click()
    expect(page.get_by_role("combobox", name=selectbox_label)).to_have_value(option)


def type_in(page, name: str, text: str) -> None:
    """Type ``text`` in the number box ``name`` and press Enter."""
    box = spinbutton(page, name)
    box.fill(text)
    box.press("Enter")


_SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def number(text: str) -> float:
    """A number as the pages show it: 1,234; 3.7e-05; 1.0·10⁻⁵; 10⁻⁸; 12.5%; an estimate
    "about 5,200" as 5,200."""
    t = text.strip().removeprefix("about ").replace(",", "").replace("−", "-")
    scale = 0.01 if t.endswith("%") else 1.0
    t = t.rstrip("%")
    if "10" in t and t[-1] in "⁰¹²³⁴⁵⁶⁷⁸⁹":
        mantissa, _, exponent = t.rpartition("10")
        mantissa = mantissa.rstrip("·") or "1"
        return scale * float(mantissa) * 10.0 ** int(exponent.translate(_SUPERSCRIPTS))
    return scale * float(t)


# Console errors that are not the app's, recognised by the resource's URL and what the
# network said about it, never by their text alone:
#  - "sub-path probe": a page opened at its path (/ldp) makes the frontend probe <page
#    path>/_stcore/health and /host-config first; the server answers 404 there (Chromium
#    logs it) and the frontend goes on with the server's root, which answers.
#  - "offline icon": the page icon comes from fonts.gstatic.com; offline (CI) the request
#    fails without a response. Other external hosts are not excused.
BENIGN_CONSOLE = ("sub-path probe", "offline icon")
STCORE_PROBES = ("/_stcore/health", "/_stcore/host-config")
OFFLINE_HOSTS = frozenset({"fonts.gstatic.com"})
SUB_PATHS = frozenset(p.url_path for p in routed_pages() if p.url_path)


def benign_console_error(page, url: str) -> str | None:
    """Which kind of BENIGN_CONSOLE a console error about ``url`` is, or None."""
    parts = urlsplit(url)
    if (parts.netloc == urlsplit(page.server_url).netloc
            and page.http_errors.get(url) == 404
            and any(parts.path == f"/{sub}{probe}" for sub in SUB_PATHS
                    for probe in STCORE_PROBES)):
        return "sub-path probe"
    if parts.hostname in OFFLINE_HOSTS and url in page.failed_requests:
        return "offline icon"
    return None


def assert_console_clean(page) -> None:
    """No console error but the BENIGN_CONSOLE ones, and no uncaught JavaScript error."""
    errors = [(text, url) for text, url in page.console_errors
              if benign_console_error(page, url) is None]
    assert not errors, f"console errors: {errors}"
    assert not page.page_errors, page.page_errors


def assert_no_traceback(page) -> None:
    body = page.locator("body").inner_text()
    assert "Traceback" not in body, body
    assert page.locator('[data-testid="stException"]').count() == 0, body
    assert_console_clean(page)


def assert_clean(page) -> None:
    """No traceback, exception or console error, and no error box either."""
    assert_no_traceback(page)
    errors = page.locator('[data-testid="stAlertContentError"]')
    assert errors.count() == 0, errors.all_inner_texts()


def screenshot(page, name: str) -> None:
    """test-artifacts/<name>.png, the whole page once drawn (the wait for web fonts can
    be long on a busy machine)."""
    wait_idle(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, timeout=90_000)


# Elements whose text is cut when it overflows its box: its scroll width exceeds its width.
CUT_JS = """() => [...document.querySelectorAll(
    '[data-testid="stMetricValue"], [data-testid="stMetricValue"] *, [data-testid="stMetricLabel"], ' +
    '[data-testid="stMetricLabel"] *, [data-baseweb="tag"], [data-baseweb="tag"] *')]
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.innerText.trim())"""

# Two painted frames: layout that follows the viewport in JavaScript (ResizeObserver) has run.
FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def assert_nothing_cut(page) -> None:
    """No metric value or label and no multiselect chip of the open page is cut by an
    ellipsis, at the browser tests' viewport and a narrow one (columns side by side,
    narrower); the viewport is set back after."""
    cut = {}
    for width in (760, VIEWPORT["width"]):
        page.set_viewport_size({"width": width, "height": VIEWPORT["height"]})
        page.evaluate(FRAMES_JS)
        wait_idle(page)
        cut[width] = page.evaluate(CUT_JS)
    assert cut == {760: [], VIEWPORT["width"]: []}
