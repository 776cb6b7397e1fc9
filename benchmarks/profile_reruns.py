"""Where a control change's server time goes, page by page (issue 20): cProfile of every
script run on a real server, driven by the protocol client.

    .venv/bin/python benchmarks/profile_reruns.py                    # every tool page
    .venv/bin/python benchmarks/profile_reruns.py --pages fdp --changes 20 --top 40

Starts `streamlit run app.py` in a child process whose script runner profiles each run
(`ScriptRunner._run_script`, the thread that executes the page) and writes one stats file
per run; then opens each page with tests/protocolkit.py, moves its sliders to values drawn
across their ranges (seeded), and prints, per page, the functions with the most cumulative
time over the changes (the first run, which fills caches, is left out). Reports; does not
assert.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def serve(out_dir: str, port: str) -> None:
    """The server: Streamlit's own command line, with each script run profiled."""
    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.web import cli

    original = script_runner.ScriptRunner._run_script
    counter = iter(range(10**9))

    def profiled(self, rerun_data):
        profile = cProfile.Profile()
        profile.enable()
        try:
            return original(self, rerun_data)
        finally:
            profile.disable()
            profile.dump_stats(os.path.join(out_dir, f"{next(counter):06d}.prof"))

    script_runner.ScriptRunner._run_script = profiled
    sys.argv = ["streamlit", "run", "app.py", "--server.port", port,
                "--server.headless", "true"]
    cli.main()


def main() -> None:
    import numpy as np

    from browserkit import free_port, healthy
    from protocolkit import ProtocolSession, other_value
    from ui import registry

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default=",".join(p.url_path for p in registry.PAGES
                                                    if p.url_path))
    parser.add_argument("--changes", type=int, default=12)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sort", default="cumulative", help="pstats sort key")
    parser.add_argument("--match", default="",
                        help="only functions whose file:line(name) matches this regex, "
                             "e.g. 'dpviz|dpcore|views|ui/'")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="reruns-"))
    port = str(free_port())
    proc = subprocess.Popen([sys.executable, __file__, "--serve", str(out), port], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(600):
            if healthy(url):
                break
            time.sleep(0.1)
        for i, page in enumerate(args.pages.split(",")):
            rng = np.random.default_rng(args.seed + i)
            with ProtocolSession(f"127.0.0.1:{port}", page) as session:
                session.open()
                first = len(list(out.glob("*.prof")))
                for _ in range(args.changes):
                    sliders = session.sliders()
                    key = sorted(sliders)[int(rng.integers(len(sliders)))]
                    session.set_slider(key, other_value(sliders[key].slider, rng))
            files = sorted(out.glob("*.prof"))[first:]
            stats = pstats.Stats(*map(str, files))
            total = stats.total_tt  # type: ignore[attr-defined]
            print(f"\n=== {page}: {len(files)} runs, {total / max(len(files), 1):.3f} s of "
                  "profiled script time per run ===")
            stats.sort_stats(args.sort).print_stats(*([args.match] if args.match else []), args.top)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(sys.argv[2], sys.argv[3])
    else:
        main()
