"""Benchmark: one cell of Algorithm 2 (REJECTRATE) at the paper's scale.

Run from the repository root:

    .venv/bin/python benchmarks/bench_reject_rate.py [--reps 1000 --boot 1000]

Korea vs Korea by single year of age (M = 86), N = 50,000, alpha = 0.01,
R = 1000 replicates of the parametric bootstrap test with B = 1000. Side by
side in one run:

* ours  -- ``dpcore.simulation.reject_rate`` (replicates and bootstrap draws
           as arrays, in memory-bounded chunks), with its peak memory
           (tracemalloc, which sees numpy's allocations);
* floor -- what numpy needs just to draw the same random numbers: per
           replicate 2 multinomials and 2M Laplace variates for the data, and
           2B multinomials and 2BM Laplace variates for the bootstrap;
* loop  -- Algorithm 2 as a literal loop around Algorithm 1 with a loop over
           b, written below; run on R_loop = R/20 replicates and scaled
           linearly to R (its cost is linear in R), as printed.

Targets: ours <= 1.5 x floor; peak memory <= 1 GB. Reports only; exit code 0.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dpcore import datasets  # noqa: E402
from dpcore.homogeneity import chisq_statistic, estimate_null  # noqa: E402
from dpcore.simulation import reject_rate  # noqa: E402

N, ALPHA, SEED = 50_000, 0.01, 2022


def floor(p, reps, n_boot, rng):
    m = p.size
    scale = 2 / ALPHA
    for _ in range(reps):  # the data: 2 multinomials, 2M Laplace variates
        rng.multinomial(N, p, size=2)
        rng.laplace(0, scale, size=(2, m))
    # The bootstrap: 2B multinomials and 2BM Laplace variates per replicate,
    # drawn in the largest batches numpy allows (one call per replicate).
    for _ in range(reps):
        rng.multinomial([N, N], p, size=(n_boot, 2))
        rng.laplace(0, scale, size=(n_boot, 2, m))


def loop_algorithm_2(p, reps, n_boot, rng):
    """REJECTRATE around PARABOOT, one replicate and one bootstrap draw at a time."""
    rejections = 0
    for _ in range(reps):
        c1, c2 = rng.multinomial(N, p), rng.multinomial(N, p)
        x1 = np.maximum(0, c1 + rng.laplace(0, 2 / ALPHA, p.size))
        x2 = np.maximum(0, c2 + rng.laplace(0, 2 / ALPHA, p.size))
        t = chisq_statistic(x1, x2)
        est = estimate_null(x1, x2, ALPHA, ALPHA)
        if est.n1_hat < 1 or est.n2_hat < 1:
            continue
        p0 = est.p0_hat / est.p0_hat.sum()
        exceed = 0
        for _ in range(n_boot):
            y1 = np.maximum(0, rng.multinomial(est.n1_hat, p0) + rng.laplace(0, 2 / ALPHA, p.size))
            y2 = np.maximum(0, rng.multinomial(est.n2_hat, p0) + rng.laplace(0, 2 / ALPHA, p.size))
            s = y1 + y2
            w1 = est.n1_hat / (est.n1_hat + est.n2_hat)
            e1, e2 = w1 * s, (1 - w1) * s
            ok = s > 0
            tb = np.sum((y1[ok] - e1[ok]) ** 2 / e1[ok] + (y2[ok] - e2[ok]) ** 2 / e2[ok])
            exceed += tb > t
        rejections += exceed / n_boot < 0.05
    return rejections / reps


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--boot", type=int, default=1000)
    args = parser.parse_args()
    p = datasets.proportions(datasets.age_histogram("korea", 1).to_numpy())
    reps, n_boot = args.reps, args.boot
    print(f"Algorithm 2, one cell: Korea vs Korea, M = {p.size}, N = {N:,}, alpha = {ALPHA}, "
          f"R = {reps}, B = {n_boot}; numpy {np.__version__}")

    tracemalloc.start()
    start = time.perf_counter()
    res = reject_rate(p, p, N, ALPHA, ALPHA, reps=reps, n_boot=n_boot, rng=SEED)
    ours = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    start = time.perf_counter()
    floor(p, reps, n_boot, np.random.default_rng(SEED))
    floor_s = time.perf_counter() - start

    r_loop = max(1, reps // 20)
    start = time.perf_counter()
    loop_rate = loop_algorithm_2(p, r_loop, n_boot, np.random.default_rng(SEED))
    loop_s = (time.perf_counter() - start) * reps / r_loop

    print(f"type-I error (ours): {res.rate:.3f}  95% Wilson [{res.ci_low:.3f}, {res.ci_high:.3f}]"
          f"; loop on {r_loop} replicates: {loop_rate:.3f}")
    print()
    print(f"ours   reject_rate                 {ours:8.2f} s   peak memory {peak / 2**20:7.1f} MiB")
    print(f"floor  numpy draws only            {floor_s:8.2f} s")
    print(f"loop   literal loops (R = {r_loop}, x{reps / r_loop:g}) {loop_s:8.2f} s  (scaled)")
    print()
    ratio = ours / floor_s
    print(f"ours / floor = {ratio:.2f}x   target <= 1.5x: {'PASS' if ratio <= 1.5 else 'FAIL'}")
    print(f"loop / ours  = {loop_s / ours:.1f}x speed-up")
    print(f"peak memory  = {peak / 2**20:.1f} MiB   target <= 1024 MiB: "
          f"{'PASS' if peak <= 2**30 else 'FAIL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
