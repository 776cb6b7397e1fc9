"""What the browser tests (tests/test_browser.py) and the load test (benchmarks/load_test.py)
share: Chromium, a `streamlit run app.py` server, and the JavaScript that tells when a
script run has ended (INIT_SCRIPT records, WAIT_IDLE waits).

Nothing here sleeps: the server is ready when it prints its URL (its output is read as it
comes), and the page is idle when WAIT_IDLE, polled by Playwright's wait_for_function, says so.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from conftest import REPO_ROOT, free_port, healthy

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

# Idle (needs INIT_SCRIPT): connected, no run in progress, nothing still a placeholder, and
# no run or message for `quiet` ms (the first run of a page can be followed by another, e.g.
# when widgets bound to the URL settle). The app's state attributes, not the status widget:
# that also shows "Source file changed" while someone edits a page, which is not a run.
# page.wait_for_function(WAIT_IDLE, arg=[quiet_ms, SKELETON], polling=100, timeout=...)
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


# ---------------------------------------------------------------------------
# the server
# ---------------------------------------------------------------------------

@dataclass
class Server:
    url: str
    proc: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def _copy_output(proc: subprocess.Popen, log_path: Path, ready: threading.Event) -> None:
    """Copy the server's output to ``log_path`` as it comes; set ``ready`` once it has
    printed its URL, said its port is taken, or closed its output (it exited)."""
    with proc.stdout, log_path.open("w", encoding="utf-8") as log:
        for line in proc.stdout:
            log.write(line)
            log.flush()
            if "URL: http" in line or "is not available" in line:
                ready.set()
    ready.set()


def start_streamlit(log_path: Path, *, port: int | None = None, timeout: float = 60.0,
                    tries: int = 3) -> Server:
    """`streamlit run app.py` on ``port`` (by default a free one, up to ``tries`` times in
    case another process takes it meanwhile), its output in ``log_path``; returns once it
    answers its health check. Raises RuntimeError, with the server's log, if it does not."""
    venv_python = REPO_ROOT / ".venv" / "bin" / "python"
    python = str(venv_python) if venv_python.exists() else sys.executable
    reason = "not started"
    for attempt in range(1 if port else tries):
        port_ = port or free_port()
        url = f"http://127.0.0.1:{port_}"
        proc = subprocess.Popen(
            [python, "-m", "streamlit", "run", "app.py", "--server.port", str(port_),
             "--server.headless", "true", "--browser.gatherUsageStats", "false"],
            cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            encoding="utf-8", errors="replace", start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
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
    raise RuntimeError(f"streamlit run app.py: {reason}.\n--- server log ---\n{server.log()}")


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
