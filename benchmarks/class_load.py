"""A class against one server, with Streamlit's full garbage collection after every rerun
(`runner.postScriptGC`) on and off: simulated students, their latency and the server's cost.

    .venv-bench/bin/python benchmarks/class_load.py --users 10,20,40 --run-time 60

For each setting asked (--gc on,off), starts one `streamlit run app.py` with it and runs
the classes of benchmarks/capacity.py (its Setup, warm-up and run_class: Locust students
over Streamlit's protocol, a slider change every Exp(5 s) each, the server's memory and
CPU sampled). Prints per class size: changes, failures, latency p50 / p95 (change →
script_finished, all pages), the server's CPU per change and its peak memory. Reports;
does not assert. It decided `postScriptGC = false` in .streamlit/config.toml.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from capacity import Setup, run_class, warm  # noqa: E402


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
        stats_dir = Path(tempfile.mkdtemp(prefix=f"class-load-{gc_on}-"))
        setup = Setup(1, stats_dir)
        try:
            warm(setup)
            for users in map(int, args.users.split(",")):
                r = run_class(setup, stats_dir, users, args.run_time)
                print(f"postScriptGC {gc_on:<5} {users:>9} {r['changes']:>8} "
                      f"{r['failures']:>9} {r['p50'] or float('nan'):>8.2f} "
                      f"{r['p95'] or float('nan'):>8.2f} {r['server_cpu_per_change']:>33.3f} "
                      f"{max(r['peak_mib']):>19.0f}", flush=True)
        finally:
            setup.stop()


if __name__ == "__main__":
    main()
