"""A class against one server: simulated students, their latency and the server's cost.

    .venv-bench/bin/python benchmarks/class_load.py --users 10,20,40 --run-time 60

For each `runner.postScriptGC` setting asked (--gc on,off), starts `streamlit run app.py`
with it, opens every tool page once (so the first runs' imports are not counted), then for
each class size runs Locust headless with benchmarks/classroom.py (students over
Streamlit's protocol, a slider change every Exp(5 s) each) for --run-time seconds, while
sampling the server's resident memory and CPU time every 0.5 s. Prints per class size:
changes, failures, latency p50 / p95 (change → script_finished, all pages), the server's
CPU per change and its peak memory. Reports; does not assert.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browserkit import start_streamlit, stop_streamlit  # noqa: E402
from protocolkit import ProtocolSession  # noqa: E402
sys.path.insert(0, str(ROOT / "benchmarks"))
from capacity import read_summary  # noqa: E402
from ui import registry  # noqa: E402


def sample(proc: psutil.Process, stop: threading.Event, peak: list[float]) -> None:
    while not stop.wait(0.5):
        peak[0] = max(peak[0], proc.memory_info().rss / 2**20)


def run_class(host: str, proc: psutil.Process, users: int, seconds: int) -> dict:
    summary = Path(tempfile.mkstemp(suffix=".json")[1])
    peak, stop = [proc.memory_info().rss / 2**20], threading.Event()
    sampler = threading.Thread(target=sample, args=(proc, stop, peak), daemon=True)
    times = proc.cpu_times()
    cpu0 = times.user + times.system
    sampler.start()
    subprocess.run(
        [sys.executable, "-m", "locust", "-f", str(ROOT / "benchmarks" / "classroom.py"),
         "--headless", "--host", host, "--users", str(users),
         "--spawn-rate", str(max(1, users // 10)), "--run-time", f"{seconds}s",
         "--only-summary", "--loglevel", "WARNING"],
        env={**os.environ, "CLASSROOM_SUMMARY": str(summary)}, check=False,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stop.set()
    sampler.join()
    times = proc.cpu_times()
    changes = read_summary(summary)
    ms = np.asarray([c[0] for c in changes], dtype=float)
    return {"changes": len(changes), "failures": sum(not c[1] for c in changes),
            "p50": np.median(ms) / 1000 if ms.size else float("nan"),
            "p95": np.quantile(ms, 0.95) / 1000 if ms.size else float("nan"),
            "cpu": (times.user + times.system - cpu0) / max(len(changes), 1),
            "peak": peak[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", default="10,20,40")
    parser.add_argument("--run-time", type=int, default=60)
    parser.add_argument("--gc", default="on,off", help="runner.postScriptGC settings")
    args = parser.parse_args()
    print("setting            students  changes  failures  p50 (s)  p95 (s)  "
          "CPU/change (core-s, incl. opens)  peak memory (MiB)")
    for gc_on in args.gc.split(","):
        os.environ["STREAMLIT_RUNNER_POST_SCRIPT_GC"] = "true" if gc_on == "on" else "false"
        server = start_streamlit(Path(tempfile.mkdtemp()) / "server.log")
        try:
            host, proc = urlsplit(server.url).netloc, psutil.Process(server.proc.pid)
            for page in registry.PAGES:  # warm: the pages' first runs import their code
                with ProtocolSession(host, page.url_path) as session:
                    session.open()
            for users in map(int, args.users.split(",")):
                r = run_class(host, proc, users, args.run_time)
                print(f"postScriptGC {gc_on:<5} {users:>9} {r['changes']:>8} "
                      f"{r['failures']:>9} {r['p50']:>8.2f} {r['p95']:>8.2f} "
                      f"{r['cpu']:>33.3f} {r['peak']:>19.0f}", flush=True)
        finally:
            stop_streamlit(server.proc)


if __name__ == "__main__":
    main()
