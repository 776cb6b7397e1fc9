"""The class poll under load (issue 37): a class of students joins a randomized-response poll
and answers within a minute, against 2 replicas behind HAProxy sharing PostgreSQL; then the
same with one replica killed in the middle.

    .venv-bench/bin/python benchmarks/class_poll_load.py            # 200 students, 60 s, both
    .venv-bench/bin/python benchmarks/class_poll_load.py --students 50 --run-time 40 \\
        --scenarios kill --kill-at 15

For each scenario it starts the dashboard as a class is served (``scripts/serve.sh
--replicas 2`` in a temporary state directory, through tests/replicakit.py: HAProxy, two
Streamlit replicas, and the durable PostgreSQL server serve.sh starts for them), creates
the poll directly in that database (``dpclass.storage.Store(url).create("poll", …)``, the
URL the replicas were given), opens the poll once on each replica (their first run imports
the page's code, as a class's server has done long before the lesson), and keeps the
teacher's view open through the proxy (the teacher key's cookie; its live results rerun
every 3 s, as the projected page does). Then Locust, headless, runs
benchmarks/class_poll_students.py: --students students spawned evenly over the first
--spawn-over seconds, each opening the poll with its own token cookie, tapping an answer
after Uniform(--think) seconds and staying on the page (its fragment rerun every 6 s) until
--run-time seconds from the start. In the "kill" scenario replica s1's Streamlit process is
killed with SIGKILL (as tests/replicakit.py kills one) --kill-at seconds after the start;
serve.sh starts it again 2 s later.

It reports (and does not assert; the exit status is 0):

- students, joined, answered within the run time, answers acknowledged (the page's "Your
  phone sent" after the tap, or "already answered" after a reconnection for an answer
  stored before the drop), answers stored (``Store.count`` at the end), acknowledged
  answers whose token the database does not hold (lost), stored answers never
  acknowledged;
- errors: failed runs (an error or exception on the page, a run not finished within the
  client's timeout), students unfinished at the end (no acknowledged answer), dropped
  connections not recovered;
- p50 / p95 / max latency of the answers (sending the tap to the acknowledging run's
  script_finished), of the joins (the first run) and of the fragment reruns;
- for the kill: the students on the killed replica, those who had to reconnect, how their
  reconnection went (pings, seconds, what the page showed), and where they landed;
- the machine: Locust's own CPU, the replicas' and the load average (the load generator
  shares the two cores with the servers).

Targets (issue 37): answer p95 ≤ 1 s, 0 errors, stored = acknowledged, 0 acknowledged
answers lost with a replica killed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from dpclass import activities, storage  # noqa: E402
from protocolkit import ProtocolSession  # noqa: E402
from replicakit import environ_of, start_stack, stop_stack  # noqa: E402

STUDENTS_FILE = ROOT / "benchmarks" / "class_poll_students.py"
PAGE = "class_poll"
TEACHER_COOKIE = "dpclass_teacher_"  # ui/classroom.py TEACHER_COOKIE, + the code
TARGET_P95 = 1.0  # seconds, answer latency
QUESTION = "Have you ever copied homework from a classmate?"
ANSWERS = ["Yes", "No"]
EPS = 2.0


def quantiles(values) -> dict:
    a = np.asarray(values, dtype=float)
    if not a.size:
        return {"n": 0, "p50": None, "p95": None, "max": None}
    return {"n": int(a.size), "p50": float(np.quantile(a, 0.5)),
            "p95": float(np.quantile(a, 0.95)), "max": float(a.max())}


def fmt_q(q: dict) -> str:
    if not q["n"]:
        return "none"
    return f"p50 {q['p50']:.3f} s, p95 {q['p95']:.3f} s, max {q['max']:.3f} s (n = {q['n']})"


class Teacher(threading.Thread):
    """The teacher's projected view: the poll opened with the teacher key's cookie, its live
    results (a fragment) rerun as the frontend's timer does; reconnects when dropped."""

    def __init__(self, host: str, code: str, key: str, stop: threading.Event):
        super().__init__(daemon=True)
        self.host, self.code, self.key, self.stop = host, code, key, stop
        self.runs: list[float] = []
        self.failures: list[str] = []
        self.reconnects = 0
        self.shown: str | None = None  # the last "Answers received" shown

    def _read(self, run) -> None:
        for e in run.elements:
            if e.WhichOneof("type") == "metric":
                self.shown = e.metric.body

    def run(self) -> None:
        try:
            session = ProtocolSession(self.host, PAGE, f"code={self.code}", timeout=30,
                                      cookies={TEACHER_COOKIE + self.code: self.key})
            first = session.open()
            self._read(first)
            if not first.ok:
                self.failures.append(f"open: {first.exceptions[:1]}")
        except Exception as exc:
            self.failures.append(f"open: {exc!r}")
            return
        try:
            while not self.stop.is_set():
                interval = min(session.auto_reruns.values(), default=3.0)
                if self.stop.wait(interval):
                    break
                try:
                    if not session.auto_reruns:
                        continue
                    run = session.rerun_fragment(next(iter(session.auto_reruns)))
                except Exception:
                    self.reconnects += 1
                    try:
                        run, _ = session.reconnect(within=60)
                    except Exception as exc:
                        self.failures.append(f"reconnect: {exc!r}")
                        return
                self.runs.append(run.seconds)
                self._read(run)
                if not run.ok:
                    self.failures.append(f"run: {run.exceptions[:1]}")
        finally:
            session.close()


def read_events(path: Path) -> list[dict]:
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:  # a line cut by an abort at shutdown
                pass
    return out


def wait_for_start(path: Path, proc: subprocess.Popen, timeout: float = 60.0) -> float | None:
    """The epoch at which Locust started the test (the students file logs it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        for e in read_events(path):
            if e.get("ev") == "start":
                return float(e["at"])
        time.sleep(0.1)
    return None


def cpu_seconds(procs) -> float:
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


REPLICA_PORTS: set[int] = set()  # this scenario's replicas (other servers may run too)


def kind_of(proc: psutil.Process) -> str:
    """Which part of the setup a process is, for the CPU breakdown."""
    try:
        cmd = " ".join(proc.cmdline())
        name = proc.name()
    except psutil.Error:
        return "gone"
    if proc.pid == os.getpid():
        return "runner (teacher)"
    if "streamlit run" in cmd:
        ours = any(f"--server.port {port} " in f"{cmd} " for port in REPLICA_PORTS)
        return "replicas" if ours else "other: streamlit"
    if "locust" in cmd:
        return "locust (students)"
    if name.startswith("postgres") or "postgres:" in cmd:
        return "postgresql (any cluster)"
    if "haproxy" in name:
        return "haproxy"
    return f"other: {name}"


def cpu_snapshot(known: dict | None = None) -> dict[int, tuple[str, float]]:
    """Each process's kind and CPU seconds (a process that is exiting keeps the kind
    ``known`` gave it)."""
    out = {}
    for proc in psutil.process_iter():
        try:
            t = proc.cpu_times()
            kind = kind_of(proc)
            if kind == "gone" and known and proc.pid in known:
                kind = known[proc.pid][0]
            out[proc.pid] = (kind, t.user + t.system)
        except psutil.Error:
            pass
    return out


def cpu_by_kind(before: dict, after: dict, seconds: float) -> dict[str, float]:
    """Cores used by each kind of process between two snapshots (``after``: each process's
    last reading, a process that ended meanwhile too; one that started meanwhile counts in
    full)."""
    out: Counter = Counter()
    for pid, (kind, cpu) in after.items():
        out[kind] += cpu - (before[pid][1] if pid in before and before[pid][0] == kind else 0)
    return {k: round(v / max(seconds, 1e-9), 3) for k, v in out.most_common()
            if v > 0.005 * seconds}


def run_scenario(name: str, args) -> dict:
    state_dir = Path(tempfile.mkdtemp(prefix=f"class-poll-{name}-"))
    print(f"\n=== scenario {name}: {args.students} students, {args.run_time:g} s, "
          f"state {state_dir}", flush=True)
    stack = start_stack(state_dir, replicas=2)
    result: dict = {"scenario": name}
    try:
        url = environ_of(stack.replica_pid("s1"))["DPCLASS_DATABASE_URL"]
        store = storage.Store(url)
        activity, key = store.create("poll", activities.poll_config(QUESTION, ANSWERS, EPS))
        code = activity.code
        print(f"poll {code} in {storage.masked(url)}", flush=True)
        for name_ in stack.names:  # warm each replica: the page's first run imports its code
            with ProtocolSession(f"127.0.0.1:{stack.replica_port(name_)}", PAGE,
                                 f"code={code}", timeout=120) as s:
                s.open()
        replicas = {n: psutil.Process(stack.replica_pid(n)) for n in stack.names}
        REPLICA_PORTS.clear()
        REPLICA_PORTS.update(stack.replica_port(n) for n in stack.names)
        replica_cpu: dict[int, float] = {}  # pid -> CPU seconds last read (a killed one's too)
        summary = state_dir / "students.jsonl"
        stop_teacher = threading.Event()
        teacher = Teacher(stack.host, code, key, stop_teacher)
        teacher.start()
        cpu_all0 = psutil.cpu_times()
        snapshot0 = cpu_snapshot()
        snapshot1 = dict(snapshot0)  # each process's last reading (read every 2 s)
        read_at = time.monotonic()
        replica_cpu0 = cpu_seconds(replicas.values())
        replica_cpu.update({p.pid: cpu_seconds([p]) for p in replicas.values()})
        load0 = os.getloadavg()
        log = open(state_dir / "locust.log", "w")  # noqa: SIM115
        locust = subprocess.Popen(
            [sys.executable, "-m", "locust", "-f", str(STUDENTS_FILE), "--headless",
             "--host", stack.host, "--users", str(args.students),
             "--spawn-rate", f"{args.students / args.spawn_over:.4f}",
             "--run-time", f"{int(args.run_time + args.grace)}s", "--only-summary",
             "--loglevel", "WARNING"],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
            env={**os.environ, "CLASS_POLL_CODE": code, "CLASS_POLL_SUMMARY": str(summary),
                 "CLASS_POLL_RUN_TIME": str(args.run_time), "CLASS_POLL_THINK": args.think,
                 "CLASS_POLL_FRAGMENTS": "0" if args.no_fragments else "1"})
        me = psutil.Process(locust.pid)
        t0 = wait_for_start(summary, locust)
        killed = None
        locust_cpu = 0.0
        if t0 is None:
            print("Locust did not start: see its log", state_dir / "locust.log", flush=True)
        while locust.poll() is None:
            if (name == "kill" and killed is None and t0 is not None
                    and time.time() >= t0 + args.kill_at):
                pid = stack.kill_replica("s1")
                killed = {"replica": "s1", "pid": pid, "at": round(time.time() - t0, 2)}
                print(f"killed replica s1 (pid {pid}) at {killed['at']} s", flush=True)
            try:
                locust_cpu = cpu_seconds([me, *me.children(recursive=True)])
            except psutil.Error:
                pass
            for n in stack.names:  # a replica started again: count its CPU too
                try:
                    pid = stack.replica_pid(n)
                    if all(p.pid != pid for p in replicas.values()):
                        replicas[f"{n}@{pid}"] = psutil.Process(pid)
                        replica_cpu[pid] = 0.0  # started during the run: all of it counts
                except (OSError, ValueError, psutil.Error):
                    pass
            for p in replicas.values():
                try:
                    t = p.cpu_times()
                    replica_cpu[p.pid] = t.user + t.system
                except psutil.Error:  # killed: its last reading stays
                    pass
            if time.monotonic() - read_at >= 2:
                snapshot1.update(cpu_snapshot(snapshot1))
                read_at = time.monotonic()
            time.sleep(0.2)
        elapsed = time.time() - (t0 or time.time())
        stop_teacher.set()
        teacher.join(timeout=40)
        cpu_all1 = psutil.cpu_times()
        snapshot1.update(cpu_snapshot(snapshot1))
        for p in replicas.values():
            try:
                t = p.cpu_times()
                replica_cpu[p.pid] = t.user + t.system
            except psutil.Error:
                pass
        busy = lambda c: c.user + c.nice + c.system + c.irq + c.softirq + c.steal  # noqa: E731
        result.update(analyse(read_events(summary), store, code, args, killed))
        stored = store.count(code)
        result.update({
            "code": code, "stored": stored, "killed": killed,
            "teacher": {"runs": quantiles(teacher.runs), "failures": teacher.failures,
                        "reconnects": teacher.reconnects, "shown": teacher.shown},
            "machine": {"locust_cores": locust_cpu / max(elapsed, 1e-9),
                        "replica_cores": (sum(replica_cpu.values()) - replica_cpu0)
                        / max(elapsed, 1e-9),
                        "busy_cores": (busy(cpu_all1) - busy(cpu_all0)) / max(elapsed, 1e-9),
                        "by_kind": cpu_by_kind(snapshot0, snapshot1, elapsed),
                        "cores": psutil.cpu_count(), "load_before": load0,
                        "load_after": os.getloadavg()},
            "locust_exit": locust.returncode})
        store.dispose()
    finally:
        stop_stack(stack)
        subprocess.run(["bash", str(ROOT / "scripts" / "postgres.sh"), "delete",
                        str(state_dir / "postgres")], cwd=ROOT, capture_output=True)
        if args.keep:
            print(f"kept: {state_dir}")
        else:
            shutil.rmtree(state_dir, ignore_errors=True)
    report(result)
    return result


def analyse(events: list[dict], store: storage.Store, code: str, args, killed) -> dict:
    by_student: dict[int, dict] = {}
    for e in events:
        if "id" not in e:
            continue
        s = by_student.setdefault(e["id"], {"token": e["token"], "events": []})
        s["events"].append(e)
    joins = [e for e in events if e["ev"] == "join"]
    answers = [e for e in events if e["ev"] == "answer"]
    frags = [e for e in events if e["ev"] == "fragment"]
    reconnects = [e for e in events if e["ev"] == "reconnect"]
    acked, within, lost, unacked_stored = {}, 0, [], []
    failed_runs = [e for e in events if e["ev"] == "error"]
    unfinished = [e for e in events if e["ev"] == "unfinished"]
    not_recovered = [e for e in events if e["ev"] == "reconnect_failed"]
    lost_seen = [e for e in events if e["ev"] == "lost_seen"]
    for sid, s in by_student.items():
        how = None
        for e in s["events"]:
            if e["ev"] == "answer" and e["state"] in ("sent", "already"):
                how, at = e["state"], e["t"]
            elif e["ev"] == "reconnect" and e["state"] == "already" and how is None:
                how, at = "already after reconnect", e["t"]
            elif e["ev"] == "lost_seen":
                how = None
        if how is not None:
            acked[sid] = how
            within += at <= args.run_time
        is_stored = store.has_answered(code, s["token"])
        if how is not None and not is_stored:
            lost.append(sid)
        if how is None and is_stored:
            unacked_stored.append(sid)
    on_killed = set()
    if killed is not None:
        for e in events:
            if (e["ev"] in ("join", "reconnect") and e.get("replica") == killed["replica"]
                    and e["t"] <= killed["at"]):
                on_killed.add(e["id"])
    return {
        "students": len(by_student), "spawned": args.students,
        "joined": len({e["id"] for e in joins}),
        "join_retries": sum(e["ev"] == "join_retry" for e in events),
        "acknowledged": len(acked), "ack_kinds": dict(Counter(acked.values())),
        "answered_within_run_time": within,
        "lost": len(lost), "stored_not_acknowledged": len(unacked_stored),
        "lost_seen_on_page": len(lost_seen),
        "errors": {"failed_runs": len(failed_runs), "unfinished": len(unfinished),
                   "not_recovered": len(not_recovered),
                   "students": len({e["id"] for e in failed_runs + unfinished
                                    + not_recovered}),
                   "examples": [{k: e.get(k) for k in ("id", "where", "state", "errors",
                                                       "error", "why")}
                                for e in (failed_runs + unfinished + not_recovered)[:5]]},
        "answer_latency": quantiles([e["s"] for e in answers if e["state"] == "sent"]),
        "answer_attempts": len(answers) + sum(e["ev"] == "dropped" and e["where"] == "answer"
                                              for e in events),
        "join_latency": quantiles([e["s"] for e in joins]),
        "fragment_latency": quantiles([e["s"] for e in frags]),
        "fragment_failures": sum(not e["ok"] for e in frags),
        "replicas_at_join": dict(Counter(e.get("replica") for e in joins)),
        "on_killed_replica": len(on_killed),
        "reconnected_students": len({e["id"] for e in reconnects}),
        "reconnects": len(reconnects),
        "reconnect_seconds": quantiles([e["s"] for e in reconnects]),
        "reconnect_run_seconds": quantiles([e["run_s"] for e in reconnects]),
        "answer_latency_after_kill": quantiles(
            [e["s"] for e in answers if e["state"] == "sent" and killed is not None
             and killed["at"] <= e["sent_at"] <= killed["at"] + 15]),
        "answer_latency_before_kill": quantiles(
            [e["s"] for e in answers if e["state"] == "sent" and killed is not None
             and e["sent_at"] < killed["at"]]),
        "reconnect_pings": quantiles([e["pings"] for e in reconnects]),
        "reconnect_showed": dict(Counter(e["state"] for e in reconnects)),
        "reconnect_landed_on": dict(Counter(e.get("replica") for e in reconnects)),
        "dropped_during": dict(Counter(e["where"] for e in events if e["ev"] == "dropped")),
    }


def report(r: dict) -> None:
    ok = lambda cond: "PASS" if cond else "FAIL"  # noqa: E731
    err = r["errors"]
    n_err = err["failed_runs"] + err["unfinished"] + err["not_recovered"]
    lat = r["answer_latency"]
    print(f"--- {r['scenario']}: poll {r['code']}")
    print(f"students {r['students']} of {r['spawned']} spawned, joined {r['joined']} "
          f"(join retries {r['join_retries']}), on replicas {r['replicas_at_join']}")
    print(f"answers acknowledged {r['acknowledged']} {r['ack_kinds']}, within the run time "
          f"{r['answered_within_run_time']}; stored (Store.count) {r['stored']}; "
          f"acknowledged but not stored (lost) {r['lost']}; stored, never acknowledged "
          f"{r['stored_not_acknowledged']}; answer attempts {r['answer_attempts']}")
    print(f"errors {n_err}: failed runs {err['failed_runs']}, unfinished students "
          f"{err['unfinished']}, drops not recovered {err['not_recovered']} (students "
          f"with any: {err['students']})")
    for ex in err["examples"]:
        print(f"  e.g. {ex}")
    print(f"answer latency {fmt_q(lat)}")
    print(f"join (first run, with connecting) {fmt_q(r['join_latency'])}")
    print(f"fragment reruns {fmt_q(r['fragment_latency'])}, failed "
          f"{r['fragment_failures']}")
    t = r["teacher"]
    print(f"teacher: live results {fmt_q(t['runs'])}, failures {len(t['failures'])}, "
          f"reconnects {t['reconnects']}, last shown 'Answers received' {t['shown']}")
    if r["killed"]:
        print(f"killed {r['killed']['replica']} at {r['killed']['at']} s: students on it "
              f"{r['on_killed_replica']}, reconnected {r['reconnected_students']} "
              f"({r['reconnects']} reconnections, dropped while {r['dropped_during']}); "
              f"reconnection {fmt_q(r['reconnect_seconds'])}, pings "
              f"{fmt_q(r['reconnect_pings']).replace(' s', '')}; its rerun "
              f"{fmt_q(r['reconnect_run_seconds'])}; the page then showed "
              f"{r['reconnect_showed']}; landed on {r['reconnect_landed_on']}; "
              f"acknowledged answers the page forgot {r['lost_seen_on_page']}")
        print(f"answer latency before the kill {fmt_q(r['answer_latency_before_kill'])}; "
              f"in the 15 s after it {fmt_q(r['answer_latency_after_kill'])}")
    m = r["machine"]
    print(f"machine: {m['cores']} cores; Locust {m['locust_cores']:.2f} cores, replicas "
          f"{m['replica_cores']:.2f}, all busy {m['busy_cores']:.2f}; load average "
          f"{m['load_before'][0]:.2f} before, {m['load_after'][0]:.2f} after")
    ours = sum(v for k, v in m["by_kind"].items() if not k.startswith("other"))
    print(f"  cores by process (from all processes' CPU clocks): {m['by_kind']}; "
          f"this benchmark's {ours:.2f}, everything else {m['busy_cores'] - ours:.2f}")
    print(f"target answer p95 ≤ {TARGET_P95:g} s: "
          f"{ok(lat['p95'] is not None and lat['p95'] <= TARGET_P95)}")
    print(f"target 0 errors: {ok(n_err == 0)}")
    print(f"target stored = acknowledged: {ok(r['stored'] == r['acknowledged'])}")
    print(f"target every student acknowledged: {ok(r['acknowledged'] == r['spawned'])}")
    if r["killed"]:
        print(f"target 0 acknowledged answers lost: {ok(r['lost'] == 0)}")
    print(flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--run-time", type=float, default=60.0,
                        help="seconds in which students join, answer and stay")
    parser.add_argument("--spawn-over", type=float, default=40.0,
                        help="seconds over which the students join (evenly)")
    parser.add_argument("--think", default="3,12",
                        help="seconds from the page shown to the tap: uniform low,high")
    parser.add_argument("--scenarios", default="normal,kill")
    parser.add_argument("--kill-at", type=float, default=20.0,
                        help="kill scenario: seconds after the start when s1 is killed")
    parser.add_argument("--grace", type=float, default=15.0,
                        help="seconds Locust runs past --run-time (runs in flight finish)")
    parser.add_argument("--no-fragments", action="store_true",
                        help="students do not rerun the page's fragment every 6 s")
    parser.add_argument("--out", help="write the results as JSON here")
    parser.add_argument("--keep", action="store_true", help="keep the state directories")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {psutil.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f}", flush=True)
    results = [run_scenario(name, args) for name in args.scenarios.split(",")]
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1, default=str))
        print(f"results: {args.out}")


if __name__ == "__main__":
    main()
