"""How many students the dashboard holds: p95 latency against class size, for one process
and for replicas behind HAProxy (issue 20).

    .venv-bench/bin/python benchmarks/capacity.py                        # 1 and 2 replicas
    .venv-bench/bin/python benchmarks/capacity.py --replicas 1 --students 20,40 --run-time 30

For each replica count it starts the dashboard as the tests do: 1 is one `streamlit run
app.py` and no proxy (one process: the baseline); N ≥ 2 is `bash scripts/serve.sh
--replicas N`, N Streamlit processes behind HAProxy. It opens every routed page once on each replica (their
first runs import the pages' code), then for each class size runs Locust headless with
benchmarks/classroom.py (simulated students over Streamlit's own protocol, each moving a
slider every Exp(5 s) to a value drawn across its range) for --run-time seconds, while it
samples every process's CPU time and each replica's resident memory.

Per (replicas, students) it prints: changes, failures, latency p50 and p95 (change →
`script_finished`, all pages), the replicas' CPU per change, Locust's own CPU (it shares
the machine's cores with the servers), each replica's peak memory and the cache-hit rate
(ui.cache counts, DPVIZ_CACHE_STATS); then each setup's capacity: the largest class with
p95 ≤ 1 s and no failure. The results go to --out as JSON; benchmarks/capacity_curve.py
draws them (the README's curve). Reports; does not assert.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browserkit import start_streamlit, stop_streamlit  # noqa: E402
from protocolkit import ProtocolSession  # noqa: E402
from replicakit import start_stack, stop_stack  # noqa: E402
from ui import registry  # noqa: E402

TARGET_P95 = 1.0  # seconds


class Setup:
    """The dashboard as served, started as the tests start it (tests/browserkit.py: one
    `streamlit run app.py`; tests/replicakit.py: `scripts/serve.sh --replicas N`): the
    port students use, the Streamlit processes and their own addresses (to warm each one).
    Each counts its cache hits in a file of ``stats_dir``."""

    def __init__(self, replicas: int, stats_dir: Path):
        os.environ["DPVIZ_CACHE_STATS"] = str(stats_dir / "cache-{pid}.json")  # inherited
        self.replicas, self.server, self.stack = replicas, None, None
        if replicas == 1:
            self.server = start_streamlit(stats_dir / "server.log")
            address = urlsplit(self.server.url).netloc
            self.port, self.addresses = int(address.rsplit(":", 1)[1]), [address]
        else:
            self.stack = start_stack(stats_dir, replicas=replicas)
            self.port = self.stack.port
            self.addresses = [f"127.0.0.1:{self.stack.replica_port(name)}"
                              for name in self.stack.names]

    def servers(self) -> list[psutil.Process]:
        """The Streamlit processes (one per replica)."""
        if self.server is not None:
            return [psutil.Process(self.server.proc.pid)]
        return [psutil.Process(self.stack.replica_pid(name)) for name in self.stack.names]

    def stop(self) -> None:
        if self.server is not None:
            stop_streamlit(self.server.proc)
        else:
            stop_stack(self.stack)


def read_summary(path) -> list[list]:
    """The changes a run (benchmarks/classroom.py) appended to ``path``: [ms, ok, page] each."""
    text = Path(path).read_text(encoding="utf-8") if Path(path).exists() else ""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def cpu(procs) -> float:
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def cache_counts(stats_dir: Path) -> tuple[int, int]:
    calls = computed = 0
    for f in stats_dir.glob("cache-*.json"):
        for c, m in json.loads(f.read_text()).values():
            calls, computed = calls + c, computed + m
    return calls, computed


def run_class(setup: Setup, stats_dir: Path, students: int, seconds: int) -> dict:
    servers = setup.servers()
    peaks = {p.pid: p.memory_info().rss / 2**20 for p in servers}
    stop = threading.Event()

    def sample():
        while not stop.wait(0.5):
            for p in servers:
                try:
                    peaks[p.pid] = max(peaks[p.pid], p.memory_info().rss / 2**20)
                except psutil.NoSuchProcess:
                    pass

    summary = Path(tempfile.mkstemp(suffix=".json")[1])
    calls0, computed0 = cache_counts(stats_dir)
    cpu0 = cpu(servers)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    locust = subprocess.Popen(
        [sys.executable, "-m", "locust", "-f", str(ROOT / "benchmarks" / "classroom.py"),
         "--headless", "--host", f"127.0.0.1:{setup.port}", "--users", str(students),
         "--spawn-rate", str(max(1, students // 10)), "--run-time", f"{seconds}s",
         "--only-summary", "--loglevel", "WARNING"],
        env={**os.environ, "CLASSROOM_SUMMARY": str(summary)},
        stdout=open(stats_dir / f"locust-{students}.log", "w"),  # noqa: SIM115
        stderr=subprocess.STDOUT)
    me = psutil.Process(locust.pid)
    locust_cpu = 0.0
    while locust.poll() is None:
        try:
            locust_cpu = cpu([me])
        except psutil.Error:
            pass
        time.sleep(0.5)
    stop.set()
    sampler.join()
    server_cpu = cpu(servers) - cpu0
    calls1, computed1 = cache_counts(stats_dir)
    changes = read_summary(summary)
    calls, computed = calls1 - calls0, computed1 - computed0

    def seconds_at(q, keep=lambda page: True):
        ms = np.asarray([c[0] for c in changes if keep(c[2])], dtype=float)
        return float(np.quantile(ms, q) / 1000) if ms.size else None

    pages = sorted({c[2] for c in changes})
    return {"replicas": setup.replicas, "students": students, "changes": len(changes),
            "failures": sum(not c[1] for c in changes),
            "p50": seconds_at(0.5), "p95": seconds_at(0.95),
            "p95_by_page": {page: seconds_at(0.95, lambda x, page=page: x == page)
                            for page in pages},
            "server_cpu_per_change": server_cpu / max(len(changes), 1),
            "locust_cpu_share": locust_cpu / seconds,  # cores Locust used on average
            "peak_mib": sorted(peaks.values()),
            "cache_calls": calls,
            "cache_hit_rate": (1 - computed / calls) if calls else None}


def warm(setup: Setup) -> None:
    """Open every routed page on every replica (directly, past the proxy)."""
    for address in setup.addresses:
        for page in registry.PAGES:
            with ProtocolSession(address, page.url_path) as session:
                session.open()


def capacity(rows: list[dict]) -> int:
    """The largest class whose p95 latency is within the target, with no failure."""
    return max((r["students"] for r in rows if not r["failures"] and r["p95"] is not None
                and r["p95"] <= TARGET_P95), default=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", default="1,2")
    parser.add_argument("--students", default="10,20,30,40,50,60,80")
    parser.add_argument("--run-time", type=int, default=45, help="seconds per class size")
    parser.add_argument("--stop-after", type=float, default=3.0,
                        help="skip larger classes once p95 exceeds this many seconds")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "capacity.json"))
    args = parser.parse_args()
    print(f"{'replicas':>8} {'students':>8} {'changes':>7} {'fail':>4} {'p50 s':>6} "
          f"{'p95 s':>6} {'CPU/change':>10} {'Locust cores':>12} {'cache hits':>10}  "
          "peak MiB per replica", flush=True)
    results = []
    for replicas in map(int, args.replicas.split(",")):
        stats_dir = Path(tempfile.mkdtemp(prefix=f"capacity-{replicas}-"))
        setup = Setup(replicas, stats_dir)
        rows = []
        try:
            warm(setup)
            for students in map(int, args.students.split(",")):
                r = run_class(setup, stats_dir, students, args.run_time)
                rows.append(r)
                hits = "-" if r["cache_hit_rate"] is None else f"{r['cache_hit_rate']:.0%}"
                print(f"{replicas:>8} {students:>8} {r['changes']:>7} {r['failures']:>4} "
                      f"{r['p50'] or float('nan'):>6.2f} {r['p95'] or float('nan'):>6.2f} "
                      f"{r['server_cpu_per_change']:>10.3f} {r['locust_cpu_share']:>12.2f} "
                      f"{hits:>10}  {', '.join(f'{m:.0f}' for m in r['peak_mib'])}",
                      flush=True)
                if r["p95"] is None or r["p95"] > args.stop_after:
                    break
        finally:
            setup.stop()
        results += rows
        print(f"capacity with {replicas} replica(s): {capacity(rows)} students at p95 ≤ "
              f"{TARGET_P95:g} s with no failure", flush=True)
    Path(args.out).write_text(json.dumps(results, indent=1))
    caps = {n: capacity([r for r in results if r["replicas"] == n])
            for n in sorted({r["replicas"] for r in results})}
    if 1 in caps and caps[1] and len(caps) > 1:
        for n, c in caps.items():
            if n > 1:
                print(f"{n} replicas / 1 process: {c / caps[1]:.2f}× the students")
    print(f"results: {args.out}")


if __name__ == "__main__":
    main()
