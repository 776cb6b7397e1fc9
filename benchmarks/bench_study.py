"""Wall time of the whole calibration study on a local Dask cluster, 1 vs 2 workers.

Runs ``python -m dpcore.study`` twice over the same grid (by default the
paper's full grid with the shipped settings, R = 1000, B = 500), once with
one worker and once with two, into temporary files; prints both wall times
and the speed-up (target >= 1.7x on 2 cores), and checks that the two CSVs
are identical but for the ``seconds`` column.

    .venv/bin/python benchmarks/bench_study.py [--reps 1000 --boot 500] [--keep DIR]

Extra arguments after ``--`` go to ``dpcore.study`` (e.g. ``-- --m 18``).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]


def run(workers: int, out: Path, reps: int, boot: int, extra: list[str]) -> float:
    cmd = [sys.executable, "-m", "dpcore.study", "--reps", str(reps), "--boot", str(boot),
           "--seed", "2022", "--workers", str(workers), "--out", str(out), *extra]
    print("$", " ".join(cmd[1:]), flush=True)
    start = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--boot", type=int, default=500)
    parser.add_argument("--keep", type=Path, default=None, help="copy the CSVs here")
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp())
    times = {}
    for workers in (2, 1):
        times[workers] = run(workers, tmp / f"w{workers}.csv", args.reps, args.boot, args.extra)
        print(f"  {workers} worker(s): {times[workers]:.1f} s", flush=True)
    a, b = (pd.read_csv(tmp / f"w{w}.csv").drop(columns="seconds") for w in (1, 2))
    same = a.equals(b)
    print()
    print(f"cells: {len(a)}; R = {args.reps}, B = {args.boot}")
    print(f"wall time, 1 worker : {times[1]:8.1f} s")
    print(f"wall time, 2 workers: {times[2]:8.1f} s")
    speedup = times[1] / times[2]
    print(f"speed-up 1 -> 2 workers = {speedup:.2f}x   target >= 1.7x: "
          f"{'PASS' if speedup >= 1.7 else 'FAIL'}")
    print(f"CSV identical for 1 and 2 workers (all columns but seconds): {same}")
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        for w in (1, 2):
            shutil.copy(tmp / f"w{w}.csv", args.keep / f"study_{w}_workers.csv")
    shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
