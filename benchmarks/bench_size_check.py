"""Benchmark: the compare page's *Check this setting* at M = 86, and the calibrated test.

Run from the repository root:

    .venv/bin/python benchmarks/bench_size_check.py

Issue 35 asks the size check (R = 1,000 pairs, B = 200 replicates, Algorithm 1 and the
calibrated normal-score test) to take at most 60 s at M = 86 on a 2-core machine. The
input is the first setting of the issue's table: Korea 2020 by single year of age
(86 bins), N = 10,000 each, ε = (0.01, 0.01), one release; the check runs under the null
fitted to it (the calibrated test's p̂₀ and N̂), as the page runs it.

Side by side, in one run:

* check      -- ``simulation.size_check`` as the page runs it: time and both rates with
                their 95% intervals (the target: at most 60 s);
* single     -- the uncalibrated normal-score test's size at the same setting, R and B
                (``simulation.rejection_curve``): the baseline the calibration corrects,
                and its cost;
* one test   -- one ``calibrated_test`` against one ``normal_score_test`` at the page's
                default B = 1,000 (the calibration's price per comparison, about 2).

It reports; it never fails: the exit code is always 0.
"""

from __future__ import annotations

import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from _report import fmt_s, run  # noqa: E402
from dpcore import datasets, simulation  # noqa: E402
from dpcore.histogram import perturb_histogram  # noqa: E402
from dpcore.homogeneity import calibrated_test, normal_score_test  # noqa: E402

N, EPS, SEED = 10_000, 0.01, 35
TARGET_S = 60.0


def rates_line(table) -> str:
    return "  ".join(f"{r.test} {r.rate:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]"
                     for r in table.itertuples())


def main() -> None:
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"{os.cpu_count()} cores")
    rng = np.random.default_rng(SEED)
    p = datasets.proportions(datasets.age_histogram("korea", 1).to_numpy())
    c1, c2 = rng.multinomial([N, N], p)
    x1, x2 = perturb_histogram(c1, EPS, rng=rng), perturb_histogram(c2, EPS, rng=rng)
    fitted = calibrated_test(x1, x2, EPS, EPS, n_boot=200, rng=SEED).estimate
    n1, n2 = max(1, fitted.n1_hat), max(1, fitted.n2_hat)
    print(f"M = {p.size}, N = ({N:,}, {N:,}), ε = ({EPS}, {EPS}); fitted N̂ = ({n1:,}, {n2:,})")
    reps, boot = simulation.SIZE_CHECK_REPS, simulation.SIZE_CHECK_BOOT

    start = time.perf_counter()
    check = simulation.size_check(fitted.p0_hat, n1, n2, EPS, EPS, rng=SEED)
    took = time.perf_counter() - start
    verdict = "meets" if took <= TARGET_S else "MISSES"
    print(f"check   R = {reps:,}, B = {boot}: {fmt_s(took)} ({verdict} the {TARGET_S:.0f} s "
          f"target)  {rates_line(check)}")

    start = time.perf_counter()
    single = simulation.rejection_curve(fitted.p0_hat, fitted.p0_hat, [(n1, n2)], EPS, EPS,
                                        tests=("normal_score",), reps=reps, n_boot=boot,
                                        rng=SEED)
    took_single = time.perf_counter() - start
    print(f"single  R = {reps:,}, B = {boot}: {fmt_s(took_single)}  {rates_line(single)}")
    print(f"ratio   check / single normal-score size: {took / took_single:.2f}")

    timings = {}
    for name, test in (("normal", normal_score_test), ("calibrated", calibrated_test)):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            test(x1, x2, EPS, EPS, n_boot=1000, rng=SEED)
            best = min(best, time.perf_counter() - start)
        timings[name] = best
    print(f"one test at B = 1,000: normal-score {fmt_s(timings['normal'])}, calibrated "
          f"{fmt_s(timings['calibrated'])}, ratio {timings['calibrated'] / timings['normal']:.2f}")


if __name__ == "__main__":
    run(main)
