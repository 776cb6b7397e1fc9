"""Replicas behind HAProxy for the tests (tests/test_replicas.py): the stack that
``scripts/serve.sh`` starts (N `streamlit run app.py` processes and HAProxy, see
deploy/haproxy.cfg), started on free ports in a state directory of its own, and what the
tests ask of it: which replica a client is on, a replica killed, a replica routed to again.

Which replica answered is in the stickiness cookie HAProxy sets (``dpviz_replica=s1``) and in
the ``X-Dpviz-Replica`` header it adds to every response, the websocket's 101 too.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from conftest import REPO_ROOT, free_port

SERVE = REPO_ROOT / "scripts" / "serve.sh"
TEMPLATE = REPO_ROOT / "deploy" / "haproxy.cfg"
COOKIE = "dpviz_replica"  # deploy/haproxy.cfg: cookie dpviz_replica insert indirect nocache
REPLICA_HEADER = "X-Dpviz-Replica"  # deploy/haproxy.cfg: http-response set-header
READY = "serving the dashboard at"  # what serve.sh prints once HAProxy runs


def haproxy() -> str | None:
    """Debian's haproxy (in /usr/sbin, which a user's PATH may lack), or None."""
    return shutil.which("haproxy") or ("/usr/sbin/haproxy" if os.access("/usr/sbin/haproxy",
                                                                         os.X_OK) else None)


def template_limit(pattern: str) -> int:
    """The number that ``pattern`` (a regex with one group; ^ and $ match at each line)
    finds first in deploy/haproxy.cfg."""
    found = re.search(pattern, TEMPLATE.read_text("utf-8"), re.MULTILINE)
    assert found, f"{pattern} not in {TEMPLATE}"
    return int(found.group(1))


def wait_until(condition, timeout: float, what: str, interval: float = 0.2) -> None:
    """Poll ``condition()`` until true (a state reached, not a duration measured); else
    TimeoutError naming ``what``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"not within {timeout:.0f} s: {what}")
        time.sleep(interval)


@dataclass
class Stack:
    """A running `scripts/serve.sh`: the proxy at ``url``, replicas s1 … sN behind it."""

    url: str
    port: int
    replicas: int
    state_dir: Path
    proc: subprocess.Popen
    log_path: Path

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def names(self) -> list[str]:
        return [f"s{i}" for i in range(1, self.replicas + 1)]

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def replica_log(self, name: str) -> str:
        return (self.state_dir / f"replica-{name[1:]}.log").read_text("utf-8", "replace")

    def replica_pid(self, name: str) -> int:
        """The process id of replica ``name``'s Streamlit (serve.sh writes it)."""
        return int((self.state_dir / f"replica-{name[1:]}.pid").read_text().strip())

    def replica_port(self, name: str) -> int:
        return self.port + int(name[1:])

    def kill_replica(self, name: str) -> int:
        """SIGKILL replica ``name``'s Streamlit process (no clean shutdown); its pid."""
        pid = self.replica_pid(name)
        os.kill(pid, signal.SIGKILL)
        return pid

    def routed_to(self, cookie: str | None = None) -> str | None:
        """The replica that answers a request through the proxy (with the stickiness
        cookie ``cookie``, e.g. "s1": the replica HAProxy keeps it on while that one is up)."""
        request = urllib.request.Request(f"{self.url}/_stcore/health")
        if cookie:
            request.add_header("Cookie", f"{COOKIE}={cookie}")
        try:
            with urllib.request.urlopen(request, timeout=5) as resp:
                return resp.headers.get(REPLICA_HEADER) if resp.status == 200 else None
        except (urllib.error.URLError, OSError):
            return None

    def wait_all_routed(self, timeout: float = 120.0) -> None:
        """Until every replica runs and HAProxy routes its cookie to it (after a replica was
        killed, serve.sh starts it again and the health checks see it up)."""
        for name in self.names:
            wait_until(lambda n=name: self.routed_to(n) == n, timeout, f"replica {name} routed")


def replica_of_response(headers) -> str | None:
    """The replica named by a response's headers (a websocket's 101 too)."""
    return headers.get(REPLICA_HEADER)


def _copy_output(proc: subprocess.Popen, log_path: Path, ready: threading.Event) -> None:
    with proc.stdout, log_path.open("w", encoding="utf-8") as log:
        for line in proc.stdout:
            log.write(line)
            log.flush()
            if READY in line:
                ready.set()
    ready.set()


def _ports_free(ports) -> bool:
    for port in ports:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                return False
    return True


def start_stack(state_dir: Path, *, replicas: int = 2, timeout: float = 180.0,
                tries: int = 3) -> Stack:
    """``bash scripts/serve.sh --replicas N`` on free ports (the proxy on 127.0.0.1 only),
    its state in ``state_dir``, once the proxy answers; else RuntimeError with its output.
    SERVE_SKIP_VENV=1: the tests' .venv is used as it is."""
    output = "not started"
    for attempt in range(tries):
        port = free_port()
        if port + replicas > 65535 or not _ports_free(range(port, port + replicas + 1)):
            continue
        log_path = state_dir / f"serve-{attempt}.log"
        proc = subprocess.Popen(
            ["bash", str(SERVE), "--replicas", str(replicas), "--port", str(port),
             "--bind", "127.0.0.1", "--state-dir", str(state_dir)],
            cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            encoding="utf-8", errors="replace", start_new_session=True,
            env={**os.environ, "SERVE_SKIP_VENV": "1", "PYTHONUNBUFFERED": "1"})
        stack = Stack(f"http://127.0.0.1:{port}", port, replicas, state_dir, proc, log_path)
        ready = threading.Event()
        threading.Thread(target=_copy_output, args=(proc, log_path, ready), daemon=True).start()
        if ready.wait(timeout) and proc.poll() is None:
            try:
                stack.wait_all_routed(timeout=60)
                return stack
            except TimeoutError as exc:
                output = f"{exc}\n{stack.log()}"
        else:
            output = stack.log() if log_path.exists() else "no output"
        stop_stack(stack)
        if "is taken" not in output:
            break
    raise RuntimeError(f"scripts/serve.sh did not start.\n--- its output ---\n{output}")


def stop_stack(stack: Stack, timeout: float = 30.0) -> int | None:
    """SIGTERM to serve.sh (its trap stops HAProxy and the replicas); its exit status, or
    None if it had to be killed (its process group, which it was started in)."""
    if stack.proc.poll() is not None:
        return stack.proc.returncode
    stack.proc.send_signal(signal.SIGTERM)
    try:
        return stack.proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(stack.proc.pid, signal.SIGKILL)
        stack.proc.wait(timeout=10)
        return None


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def environ_of(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.split("=", 1) for item in raw.decode(errors="replace").split("\0")
                if "=" in item)


def cmdline_of(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
        errors="replace")
