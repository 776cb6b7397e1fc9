"""Server CPU per control change, read from the server process's CPU clock (issue 20).

    .venv/bin/python benchmarks/change_cpu.py                  # 20 changes a page
    .venv/bin/python benchmarks/change_cpu.py --changes 40 --pages ldp,fdp

Starts two `streamlit run app.py` servers side by side, one with Streamlit's default
`runner.postScriptGC = true` (a full `gc.collect(2)` after every rerun) and one with it
off, and plays the same changes on both, one at a time, over Streamlit's own protocol
(tests/protocolkit.py): for each tool page, a session opens it and moves its sliders and
select sliders to values drawn across their ranges (seeded, so both servers get the same
changes). For each change it reads the server's CPU time (user + system, psutil) before
sending it and after `script_finished`: the core-seconds the change cost. Prints, per page
and overall, the median, p90 and largest cost on each server, their ratio, the latency
and each server's resident memory at the end. Reports; does not assert.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browserkit import start_streamlit, stop_streamlit  # noqa: E402
from protocolkit import ProtocolSession, other_value  # noqa: E402
from ui import registry  # noqa: E402

SETTINGS = {"postScriptGC on (default)": "true", "postScriptGC off": "false"}
LIMIT = 0.15  # issue 20: no change above this many core-seconds


def cpu(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return times.user + times.system


def play(host: str, proc: psutil.Process, page: str, changes: int, seed: int):
    """(core-seconds, seconds, what moved) of each change on ``page``."""
    rng = np.random.default_rng(seed)
    costs, waits, moves = [], [], []
    with ProtocolSession(host, page) as session:
        session.open()
        for _ in range(changes):
            sliders = session.sliders()
            key = sorted(sliders)[int(rng.integers(len(sliders)))]
            value = other_value(sliders[key].slider, rng)
            before = cpu(proc)
            run = session.set_slider(key, value)
            costs.append(cpu(proc) - before)
            waits.append(run.seconds)
            moves.append(f"{key}={value}")
            if not run.ok:
                print(f"  ! {page} {key}={value}: {run.exceptions[:1]}")
    return costs, waits, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=20, help="changes per page")
    parser.add_argument("--pages", default=",".join(p.url_path for p in registry.PAGES
                                                    if p.url_path))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--gc", choices=["both", "off"], default="both",
                        help="'off': the served setting (config.toml) only")
    args = parser.parse_args()
    pages = args.pages.split(",")
    servers = {}
    log_dir = Path(tempfile.mkdtemp())
    try:
        settings = SETTINGS if args.gc == "both" else {"postScriptGC off": "false"}
        for name, gc_on in settings.items():
            os.environ["STREAMLIT_RUNNER_POST_SCRIPT_GC"] = gc_on
            servers[name] = start_streamlit(log_dir / f"{gc_on}.log")
        os.environ.pop("STREAMLIT_RUNNER_POST_SCRIPT_GC")
        results = {name: {} for name in servers}
        for i, page in enumerate(pages):
            for name, server in servers.items():  # the same changes on both, in turn
                results[name][page] = play(urlsplit(server.url).netloc,
                                           psutil.Process(server.proc.pid), page,
                                           args.changes, args.seed + i)
        print(f"Server CPU per change (core-seconds), {args.changes} changes a page, "
              "one at a time")
        print(f"{'page':22}" + "".join(f"{n:>36}" for n in servers) + "   ratio (median)")
        rows = [*pages, "all pages"]
        for page in rows:
            cells, medians = [], []
            for name in servers:
                costs = (np.concatenate([results[name][p][0] for p in pages])
                         if page == "all pages" else np.asarray(results[name][page][0]))
                med, p90, top = np.median(costs), np.quantile(costs, 0.9), costs.max()
                medians.append(med)
                cells.append(f"median {med:.3f}  p90 {p90:.3f}  max {top:.3f}")
            ratio = (f"   {medians[0] / medians[1]:.2f}×" if len(medians) == 2 and medians[1] > 0
                     else "")
            print(f"{page:22}" + "".join(f"{c:>36}" for c in cells) + ratio)
        for name in servers:
            costly = sorted(((cost, page, move) for page in pages
                             for cost, move in zip(results[name][page][0],
                                                   results[name][page][2])
                             if cost > LIMIT), reverse=True)
            print(f"{name}: {len(costly)} change(s) above {LIMIT} core-s"
                  + "".join(f"\n  {cost:.3f}  {page}  {move}" for cost, page, move in costly))
        for name, server in servers.items():
            waits = np.concatenate([results[name][p][1] for p in pages])
            rss = psutil.Process(server.proc.pid).memory_info().rss / 2**20
            print(f"{name}: latency p50 {np.median(waits):.3f} s, p95 "
                  f"{np.quantile(waits, 0.95):.3f} s; resident memory at the end {rss:.0f} MiB")
    finally:
        for server in servers.values():
            stop_streamlit(server.proc)


if __name__ == "__main__":
    main()
