"""Benchmark: the privacy-utility planner (``dpcore.planner``) against a grid scan.

Run from the repository root, with either venv:

    .venv/bin/python benchmarks/bench_planner.py            # dask cluster rows, no statsmodels
    .venv-bench/bin/python benchmarks/bench_planner.py      # statsmodels peer; no dask there
    .venv/bin/python benchmarks/bench_planner.py --quick    # R = B = 200, smaller frontier

The question: "how many records per histogram does the DP parametric bootstrap test of
homogeneity need to detect this difference 80% of the time?" Populations: Korea central
vs noncentral (the paper's medium effect) in 5-year age groups, M = 18
(``dpcore.study.cell_probabilities("central_vs_noncentral", 18)``); alpha1 = alpha2 = 0.1,
target power 0.8 at the 5% level, R = 500 replicates per cell and B = 500 bootstrap
replicates (the planner's defaults), seed 2022. Side by side in one run:

1. ``required_sample_size`` at M = 18: sequential (batch 1, no executor), then on a dask
   ``LocalCluster`` of 2 single-threaded worker processes (the cluster of ``python -m
   dpcore.study``; ``executor=client``, batch 2). Cluster start-up is timed separately and
   not counted. Wall time, cells simulated, cells sent to the executor (counted by a thin
   wrapper around ``submit``), N and its interval; the progress callback's lines are
   printed (at most one a second) with the number of updates and the longest gap between
   two. Also Korea vs USA (large effect) sequentially, and ``strongest_privacy`` at
   N = 20,000 both ways. Where dask is not installed (``.venv-bench``) the cluster rows use
   ``concurrent.futures.ProcessPoolExecutor(2)`` and say so.
   Target: each query <= 30 s on the 2-core machine, with progress shown.
2. Cache reuse: the same ``CellCache`` for a second query (power 0.9 after 0.8) and for
   the same query again: time, cells simulated and recalled. No target.
3. Baseline: the naive answer without the planner. ``reject_rate`` at the same R, B, seed
   policy over the paper's grid of N (``dpcore.study.PAPER_N``: 10^3, 5 x 10^3, ...,
   5 x 10^7) from the smallest, stopping at the first N that reaches the target: its time
   and the bracket it leaves (a factor 2 or 5). A grid fine enough for the planner's 5%
   resolution over the same range (223 points) is not run: its time is estimated from the
   measured per-cell time, as printed. Ratios baseline / planner for time and resolution.
   No target.
4. Correctness, independently of the search: ``reject_rate`` with another seed and
   R = 2000 at the planner's N and at the two ends of its interval (power should be about
   0.8 at N, below it at the low end, at or above it at the high end). And the no-privacy
   reference: the N per histogram at which the chi-square homogeneity test without noise
   has power 0.8, in closed form from the noncentral chi-square (``scipy.stats.ncx2``,
   df = M - 1, lambda = N sum_j (p1j - p2j)^2 / (p1j + p2j) for two histograms of N each,
   solved with ``scipy.optimize.brentq``) and from ``statsmodels.stats.power.
   GofChisquarePower`` (where installed: Cohen's w of the 2 x M table, w^2 =
   sum_j (p1j - p2j)^2 / (2 (p1j + p2j)), nobs = 2N, n_bins = M), against the planner's
   ``required_sample_size(..., test="chisq", alpha1 = alpha2 = 1e4)`` (noise scale 2e-4,
   negligible). Check: the closed form lies in the planner's interval. Printed: the price
   of privacy, N needed at alpha = 0.1 (bootstrap) / N needed without privacy.
5. ``frontier`` at M = 18 over alpha in {1, 0.3, 0.1, 0.03, 0.01}, both tests, with the
   type-I error at each N found, on the cluster: time and cells. No target.

It reports; it never fails: the exit code is always 0. About 3-4 minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import scipy
from scipy import optimize, stats

from _report import fmt_s, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from dpcore import planner, simulation, study  # noqa: E402

try:
    from dask.distributed import Client, LocalCluster
except ImportError:  # .venv-bench: the project venv has dask (requirements-dev.txt)
    Client = LocalCluster = None
try:
    from statsmodels.stats.power import GofChisquarePower
except ImportError:  # the project venv: see benchmarks/README.md
    GofChisquarePower = None

PAIR, M = "central_vs_noncentral", 18
ALPHA, POWER, LEVEL, SEED = 0.1, 0.8, 0.05, 2022
CHECK_SEED, CHECK_REPS = 7, 2000
PRIVACY_N = 20_000
FRONTIER_ALPHAS = (1.0, 0.3, 0.1, 0.03, 0.01)
NO_NOISE_ALPHA = 1e4  # Laplace scale 2e-4: no privacy to speak of
WORKERS = 2
TARGET_S = 30.0
RTOL = 0.05  # the planner's default resolution
PROGRESS_EVERY_S = 1.0


# ------------------------------------------------------------------ helpers


class Progress:
    """The planner's progress callback: prints at most one line a second; keeps statistics."""

    def __init__(self, indent: str = "    "):
        self.indent = indent
        self.start = time.perf_counter()
        self.times: list[float] = []
        self.fractions: list[float] = []
        self.last_print = -math.inf

    def __call__(self, fraction: float, label: str) -> None:
        now = time.perf_counter() - self.start
        self.times.append(now)
        self.fractions.append(fraction)
        if now - self.last_print >= PROGRESS_EVERY_S or label == "done":
            print(f"{self.indent}[{now:5.1f} s] {fraction:4.0%}  {label}", flush=True)
            self.last_print = now

    def summary(self, wall: float) -> str:
        if not self.times:
            return "no progress updates"
        stamps = [0.0, *self.times, wall]
        gap = max(b - a for a, b in zip(stamps, stamps[1:]))
        back = max([a - b for a, b in zip(self.fractions, self.fractions[1:])] + [0.0])
        last_before_done = self.fractions[-2] if len(self.fractions) > 1 else self.fractions[-1]
        return (f"{len(self.times)} updates, longest gap {gap:.1f} s, fraction "
                + ("non-decreasing" if back <= 0 else
                   f"NOT monotone (largest step back {back:.0%})")
                + f", {last_before_done:.0%} before 'done'")


class Counting:
    """Wraps an executor to count the cells the planner sends to it."""

    def __init__(self, inner):
        self.inner = inner
        self.submitted = 0

    def submit(self, fn, *args, **kwargs):
        self.submitted += 1
        return self.inner.submit(fn, *args, **kwargs)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def fmt_n(x) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    return f"{int(round(x)):,}"


def fmt_interval(lo, hi, fmt=fmt_n) -> str:
    return f"({fmt(lo)}, {fmt(hi)})"


def machine_info() -> None:
    print(f"machine: {platform.platform()}, {os.cpu_count()} logical CPUs, "
          f"processor {platform.processor() or 'unknown'}")
    versions = (f"python {platform.python_version()}, numpy {np.__version__}, "
                f"scipy {scipy.__version__}")
    from importlib import metadata

    for lib in ("dask", "distributed", "statsmodels"):
        try:
            versions += f", {lib} {metadata.version(lib)}"
        except metadata.PackageNotFoundError:
            versions += f", {lib} not installed"
    print(versions)
    load = os.getloadavg()[0]
    print(f"load average (1 min) at start: {load:.2f}"
          + ("  -- other processes are running: every time below is inflated"
             if load > 0.5 else ""))


def _warm(*_) -> bool:
    """Imports dpcore on a worker, so that the first timed query does not pay for it."""
    import dpcore.planner  # noqa: F401

    return True


class Executor:
    """The dask LocalCluster of dpcore.study (2 single-threaded worker processes), or a
    ProcessPoolExecutor(2) where dask is not installed."""

    def __init__(self):
        start = time.perf_counter()
        if LocalCluster is not None:
            import logging

            self.cluster = LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True,
                                        host="127.0.0.1", dashboard_address=":0",
                                        silence_logs=logging.ERROR)
            self.client = Client(self.cluster)
            # Import dpcore on the workers now, so the first query does not pay for it.
            self.client.run(_warm)
            self.name = (f"dask LocalCluster, {WORKERS} worker processes x 1 thread "
                         "(as python -m dpcore.study)")
        else:
            self.cluster = None
            self.client = ProcessPoolExecutor(WORKERS)
            list(self.client.map(_warm, range(WORKERS)))
            self.name = (f"concurrent.futures.ProcessPoolExecutor({WORKERS}) -- dask not "
                         "installed in this venv (use .venv for the dask rows)")
        self.startup = time.perf_counter() - start

    def close(self) -> None:
        if self.cluster is not None:
            self.client.close()
            self.cluster.close()
        else:
            self.client.shutdown()


def timed_query(label: str, fn, **kwargs):
    """Runs a planner query with a printed Progress; returns (result, wall, progress)."""
    print(f"  {label}", flush=True)
    progress = Progress()
    start = time.perf_counter()
    progress.start = start
    cpu = time.process_time()
    out = fn(progress=progress, **kwargs)
    wall = time.perf_counter() - start
    progress.cpu = time.process_time() - cpu  # of this process only (not the workers)
    return out, wall, progress


# ------------------------------------------------------------------ no-privacy reference


def noncentrality_per_n(p1, p2) -> float:
    """lambda / N for the chi-square homogeneity test of two histograms of N each."""
    s = p1 + p2
    ok = s > 0
    return float(np.sum((p1[ok] - p2[ok]) ** 2 / s[ok]))


def closed_form_n(p1, p2, power: float, level: float) -> float:
    df = int(np.count_nonzero(p1 + p2)) - 1
    crit = stats.chi2.ppf(1 - level, df)
    k = noncentrality_per_n(p1, p2)

    def gap(n):
        return stats.ncx2.sf(crit, df, n * k) - power

    return optimize.brentq(gap, 1.0, 1e10, xtol=1e-6, rtol=1e-12)


def statsmodels_n(p1, p2, power: float, level: float) -> float:
    w = math.sqrt(noncentrality_per_n(p1, p2) / 2)  # Cohen's w of the 2 x M table
    nobs = GofChisquarePower().solve_power(effect_size=w, nobs=None, alpha=level, power=power,
                                           n_bins=int(np.count_nonzero(p1 + p2)))
    return float(np.squeeze(nobs)) / 2  # nobs counts both histograms


# ------------------------------------------------------------------ main


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=500, help="R per cell (planner default 500)")
    parser.add_argument("--boot", type=int, default=500, help="B (planner default 500)")
    parser.add_argument("--quick", action="store_true",
                        help="R = B = 200, checks at R = 1000, frontier over 3 alphas")
    args = parser.parse_args()
    reps, boot = (200, 200) if args.quick else (args.reps, args.boot)
    check_reps = 1000 if args.quick else CHECK_REPS
    alphas = FRONTIER_ALPHAS[::2] if args.quick else FRONTIER_ALPHAS
    at_target = reps == 500 and boot == 500
    note = "" if at_target else f"  (R = {reps}, B = {boot}: not the target's setting)"

    p1, p2 = study.cell_probabilities(PAIR, M)
    common = dict(power=POWER, level=LEVEL, reps=reps, n_boot=boot, rng=SEED)

    print("Planner benchmark: dpcore.planner vs a grid scan of reject_rate, and the "
          "no-privacy chi-square")
    machine_info()
    print(f"populations: Korea central vs noncentral (medium effect), M = {p1.size}, "
          f"total variation {planner.total_variation(p1, p2):.4f}; alpha1 = alpha2 = {ALPHA}; "
          f"target power {POWER} at level {LEVEL}; R = {reps}, B = {boot}; seed {SEED}")
    print()

    summary = []  # (label, line)
    executor = None
    try:
        # -------------------------------------------------------------- 1. the queries
        print(f"1. required_sample_size at M = {M}, alpha = {ALPHA}")
        cache_seq = planner.CellCache()
        seq, seq_s, seq_prog = timed_query(
            "sequential (batch 1, no executor):", planner.required_sample_size,
            p1=p1, p2=p2, alpha1=ALPHA, alpha2=ALPHA, cache=cache_seq, **common)

        print("  starting the cluster ...", flush=True)
        executor = Executor()
        print(f"  {executor.name}: start-up {executor.startup:.1f} s (not counted below)")
        counting = Counting(executor.client)
        par, par_s, par_prog = timed_query(
            "on the cluster (executor, batch 2):", planner.required_sample_size,
            p1=p1, p2=p2, alpha1=ALPHA, alpha2=ALPHA, executor=counting, batch=2,
            cache=planner.CellCache(), **common)
        par_sent = counting.submitted

        pu1, pu2 = study.cell_probabilities("korea_vs_usa", M)
        usa, usa_s, usa_prog = timed_query(
            f"Korea vs USA (large effect; total variation "
            f"{planner.total_variation(pu1, pu2):.4f}), "
            "sequential:", planner.required_sample_size,
            p1=pu1, p2=pu2, alpha1=ALPHA, alpha2=ALPHA, **common)

        sp_seq, sp_seq_s, sp_seq_prog = timed_query(
            f"strongest_privacy at N = {PRIVACY_N:,}, sequential:", planner.strongest_privacy,
            p1=p1, p2=p2, n=PRIVACY_N, **common)
        counting = Counting(executor.client)
        sp_par, sp_par_s, sp_par_prog = timed_query(
            f"strongest_privacy at N = {PRIVACY_N:,}, on the cluster (batch 2):",
            planner.strongest_privacy, p1=p1, p2=p2, n=PRIVACY_N, executor=counting, batch=2,
            **common)
        sp_sent = counting.submitted
        print()

        rows = [
            ("N, central vs noncentral, sequential", seq_s, seq.simulated, 0, seq.n,
             seq.interval, seq.status, seq_prog),
            ("N, central vs noncentral, cluster", par_s, par.simulated, par_sent, par.n,
             par.interval, par.status, par_prog),
            ("N, Korea vs USA, sequential", usa_s, usa.simulated, 0, usa.n, usa.interval,
             usa.status, usa_prog),
            (f"alpha at N = {PRIVACY_N:,}, sequential", sp_seq_s, sp_seq.simulated, 0,
             sp_seq.alpha, sp_seq.interval, sp_seq.status, sp_seq_prog),
            (f"alpha at N = {PRIVACY_N:,}, cluster", sp_par_s, sp_par.simulated, sp_sent,
             sp_par.alpha, sp_par.interval, sp_par.status, sp_par_prog),
        ]
        print(f"  {'query':40} {'wall':>10} {'cpu':>7} {'cells':>5} {'sent':>5} {'s/cell':>7} "
              f"{'answer':>8} {'interval':>20} {'high/low':>8}  status")
        for label, wall, cells, sent, ans, (lo, hi), status, prog in rows:
            is_alpha = label.startswith("alpha")
            f = (lambda v: "-" if v is None else f"{v:.4g}") if is_alpha else fmt_n
            ratio = hi / lo if lo and math.isfinite(hi) else math.inf
            print(f"  {label:40} {fmt_s(wall):>10} {prog.cpu:6.1f}s {cells:5d} {sent:5d} "
                  f"{wall / max(cells, 1):6.2f}s {f(ans):>8} {fmt_interval(lo, hi, f):>20} "
                  f"{ratio:8.3f}  {status}")
        print("  (cpu: of this process only; cells: simulated by the query; sent: of those, "
              "submitted to the executor -- rounds with a single new cell run in the calling "
              "process)")
        busy = [label for label, wall, *_, prog in rows
                if "sequential" in label and prog.cpu < 0.85 * wall]
        if busy:
            print(f"  BUSY MACHINE: the sequential queries {busy} got less than 85% of a core "
                  "(cpu / wall): their times are inflated by other processes")
        for label, wall, *_, prog in rows:
            print(f"  progress, {label}: {prog.summary(wall)}")
        print()
        for label, wall, *_ in rows:
            line = (f"{label}: {fmt_s(wall)}   target <= {TARGET_S:.0f} s: "
                    f"{verdict(wall <= TARGET_S)}")
            print(line + note)
            summary.append(line + note)
        seq_per_cell = seq_s / max(seq.simulated, 1)
        overlap = max(seq.interval[0], par.interval[0]) <= min(seq.interval[1], par.interval[1])
        print(f"sequential and cluster answers: N = {fmt_n(seq.n)} and {fmt_n(par.n)} "
              f"(different cells, same seed); intervals overlap: {overlap}")
        print(f"speed-up sequential / cluster: {seq_s / par_s:.2f}x for N, "
              f"{sp_seq_s / sp_par_s:.2f}x for alpha")
        print()

        # -------------------------------------------------------------- 2. cache reuse
        print("2. cache reuse (the sequential query's CellCache, same seed)")
        before = len(cache_seq)
        start = time.perf_counter()
        p09 = planner.required_sample_size(p1, p2, ALPHA, ALPHA, cache=cache_seq,
                                           **{**common, "power": 0.9})
        p09_s = time.perf_counter() - start
        start = time.perf_counter()
        again = planner.required_sample_size(p1, p2, ALPHA, ALPHA, cache=cache_seq, **common)
        again_s = time.perf_counter() - start
        print(f"  cache held {before} cells")
        print(f"  power 0.9 after 0.8 : {fmt_s(p09_s):>9}, {p09.simulated} simulated, "
              f"{p09.recalled} recalled; N = {fmt_n(p09.n)} {fmt_interval(*p09.interval)}")
        print(f"  power 0.8 again     : {fmt_s(again_s):>9}, {again.simulated} simulated, "
              f"{again.recalled} recalled; N = {fmt_n(again.n)} (first time {fmt_n(seq.n)}, "
              f"identical: {again.n == seq.n and again.interval == seq.interval})")
        summary.append(f"cache: power 0.9 after 0.8 {fmt_s(p09_s)} ({p09.simulated} simulated, "
                       f"{p09.recalled} recalled); same query again {fmt_s(again_s)}")
        print()

        # -------------------------------------------------------------- 3. baseline
        print(f"3. baseline: reject_rate over the paper's grid of N (R = {reps}, B = {boot}), "
              "smallest first, stopping at the first N with power >= target")
        scan_times, found = [], None
        lower = None
        for n in study.PAPER_N:
            start = time.perf_counter()
            res = simulation.reject_rate(p1, p2, n, ALPHA, ALPHA, reps=reps, n_boot=boot,
                                         level=LEVEL, rng=np.random.default_rng([SEED, n]))
            scan_times.append(time.perf_counter() - start)
            print(f"    N = {n:>10,}: power {res.rate:.3f} [{res.ci_low:.3f}, {res.ci_high:.3f}]"
                  f"  {fmt_s(scan_times[-1])}", flush=True)
            if res.rate >= POWER:
                found = n
                break
            lower = n
        scan_s = sum(scan_times)
        per_cell = scan_s / len(scan_times)
        full_s = per_cell * len(study.PAPER_N)
        fine_pts = math.ceil(math.log(study.PAPER_N[-1] / study.PAPER_N[0]) / math.log1p(RTOL)) + 1
        # A fine scan from the bottom stops near the crossing, taken as the planner's N.
        fine_needed = (math.ceil(math.log(seq.n / study.PAPER_N[0]) / math.log1p(RTOL)) + 1
                       if seq.n else fine_pts)
        seq_res = seq.interval[1] / seq.interval[0]
        coarse_res = found / lower if found and lower else math.inf
        print(f"  scan: {len(scan_times)} cells, {fmt_s(scan_s)} ({fmt_s(per_cell)} per cell); "
              f"answer N = {fmt_n(found)}, i.e. somewhere in ({fmt_n(lower)}, {fmt_n(found)}]: "
              f"resolution x{coarse_res:.2f}")
        print(f"  whole paper grid (10 N, as python -m dpcore.study runs it): "
              f"{fmt_s(full_s)} estimated from the per-cell time, not run")
        print(f"  fine grid at the planner's {RTOL:.0%} steps, {study.PAPER_N[0]:,} to "
              f"{study.PAPER_N[-1]:,}: {fine_pts} points; stopping at the first that reaches "
              f"the target (near the planner's N): about {fine_needed} cells, "
              f"{fmt_s(fine_needed * per_cell)}; "
              f"all {fine_pts}: {fmt_s(fine_pts * per_cell)} -- estimated from the per-cell time, "
              "not run")
        print(f"  planner (sequential): {seq.simulated} cells, {fmt_s(seq_s)} "
              f"({fmt_s(seq_per_cell)} per cell); N = {fmt_n(seq.n)} in "
              f"{fmt_interval(*seq.interval)}: resolution x{seq_res:.3f} (Monte Carlo "
              "error included)")
        print()
        print(f"  {'method':44} {'time':>10} {'/ planner':>9} {'resolution':>10}")
        for label, t, resol in [
            ("planner, sequential", seq_s, f"x{seq_res:.3f}"),
            ("planner, cluster", par_s,
             f"x{par.interval[1] / par.interval[0]:.3f}"),
            ("paper grid, stop at first hit (run)", scan_s, f"x{coarse_res:.2f}"),
            ("paper grid, all 10 N (estimated)", full_s, "x2 or x5"),
            ("5% grid, stop at first hit (estimated)", fine_needed * per_cell, "x1.05*"),
            (f"5% grid, all {fine_pts} N (estimated)", fine_pts * per_cell, "x1.05*"),
        ]:
            print(f"  {label:44} {fmt_s(t):>10} {t / seq_s:8.2f}x {resol:>10}")
        print("  * grid step only: a scan's first hit at R = "
              f"{reps} is itself uncertain by the Monte Carlo error, which the planner's "
              "interval includes")
        summary.append(f"baseline: paper-grid scan {fmt_s(scan_s)} ({len(scan_times)} cells, "
                       f"N = {fmt_n(found)}, x{coarse_res:.2f}) = {scan_s / seq_s:.2f}x planner; "
                       f"5% grid to first hit ~{fmt_s(fine_needed * per_cell)} "
                       f"(est.) = {fine_needed * per_cell / seq_s:.1f}x planner; planner "
                       f"x{seq_res:.3f}")
        print()

        # -------------------------------------------------------------- 4. correctness
        print(f"4. correctness, independent of the search: reject_rate at R = {check_reps}, "
              f"seed {CHECK_SEED} (the planner used {SEED})")
        checks = []
        lo, hi = seq.interval
        for what, n in (("planner's N", seq.n), ("interval low", lo), ("interval high", hi)):
            if n is None or not math.isfinite(n) or n < 1:
                print(f"    {what}: not available")
                continue
            n = int(round(n))
            start = time.perf_counter()
            res = simulation.reject_rate(p1, p2, n, ALPHA, ALPHA, reps=check_reps, n_boot=boot,
                                         level=LEVEL, rng=np.random.default_rng([CHECK_SEED, n]))
            t = time.perf_counter() - start
            se = math.sqrt(res.rate * (1 - res.rate) / check_reps)
            print(f"    {what:14} N = {n:>8,}: power {res.rate:.4f} "
                  f"[{res.ci_low:.4f}, {res.ci_high:.4f}] (SE {se:.4f}), "
                  f"{(res.rate - POWER) / se:+.1f} SE from {POWER}  {fmt_s(t)}", flush=True)
            checks.append((what, res))
        ok_checks = []
        for what, res in checks:
            if what == "planner's N":
                # The planner's N carries the Monte Carlo error of its R-replicate cells.
                se_both = math.sqrt(POWER * (1 - POWER) * (1 / check_reps + 1 / reps))
                ok = abs(res.rate - POWER) <= 3 * se_both
                print(f"  power at the planner's N within 3 SE of {POWER} (SE of R = {check_reps} "
                      f"and R = {reps} combined, {se_both:.4f}): {verdict(ok)}")
            elif what == "interval low":
                ok = res.rate < POWER
                print(f"  power at the interval's low end below {POWER}: {verdict(ok)}")
            else:
                ok = res.rate >= POWER
                print(f"  power at the interval's high end at or above {POWER}: {verdict(ok)}")
            ok_checks.append(ok)

        print()
        print(f"  no privacy: the chi-square homogeneity test without noise, power {POWER} at "
              f"level {LEVEL}, df = {M - 1}, lambda/N = {noncentrality_per_n(p1, p2):.6f}")
        n_cf = closed_form_n(p1, p2, POWER, LEVEL)
        print(f"    closed form, scipy.stats.ncx2 + brentq         N = {n_cf:10,.1f}")
        n_sm = None
        if GofChisquarePower is None:
            print("    statsmodels GofChisquarePower: statsmodels not installed: see "
                  "benchmarks/README.md")
        else:
            n_sm = statsmodels_n(p1, p2, POWER, LEVEL)
            w = math.sqrt(noncentrality_per_n(p1, p2) / 2)
            print(f"    statsmodels GofChisquarePower (w = {w:.5f}, "
                  f"nobs = 2N)  N = {n_sm:10,.1f}  (rel. diff {abs(n_sm / n_cf - 1):.1e})")
        start = time.perf_counter()
        chi = planner.required_sample_size(p1, p2, NO_NOISE_ALPHA, NO_NOISE_ALPHA, test="chisq",
                                           **common)
        chi_s = time.perf_counter() - start
        inside = chi.interval[0] <= n_cf <= chi.interval[1]
        print(f"    planner, test='chisq', alpha = {NO_NOISE_ALPHA:g}           "
              f"N = {fmt_n(chi.n):>10} "
              f"in {fmt_interval(*chi.interval)}  ({chi.simulated} cells, {fmt_s(chi_s)}; "
              f"{chi.n / n_cf - 1:+.1%} from the closed form)")
        print(f"  closed form inside the planner's interval: {verdict(inside)}")
        if n_sm is not None:
            print(f"  statsmodels agrees with the closed form to 1e-6: "
                  f"{verdict(abs(n_sm / n_cf - 1) <= 1e-6)}")
        price = seq.n / n_cf
        print(f"  price of privacy: N needed at alpha = {ALPHA} (bootstrap test) / N without "
              f"privacy = {fmt_n(seq.n)} / {n_cf:,.0f} = {price:.2f}x "
              f"(interval {seq.interval[0] / n_cf:.2f}x to {seq.interval[1] / n_cf:.2f}x)")
        summary.append(f"check: power at planner's N {checks[0][1].rate:.4f} (R = {check_reps}); "
                       f"low end {checks[1][1].rate:.4f}, high end {checks[2][1].rate:.4f}: "
                       f"{verdict(all(ok_checks))}" if len(checks) == 3 else
                       "check: incomplete")
        summary.append(f"no privacy: closed form N = {n_cf:,.1f}"
                       + (f", statsmodels {n_sm:,.1f}" if n_sm is not None else "")
                       + f"; planner chisq N = {fmt_n(chi.n)} {fmt_interval(*chi.interval)}: "
                       f"{verdict(inside)}; price of privacy {price:.2f}x")
        print()

        # -------------------------------------------------------------- 5. frontier
        print(f"5. frontier at M = {M} over alpha in {list(alphas)}, both tests, type-I error "
              f"at each N, {executor.name.split(' --')[0]}")
        counting = Counting(executor.client)
        front, front_s, front_prog = timed_query(
            "frontier (bootstrap and chisq, from the largest alpha down):", planner.frontier,
            p1=p1, p2=p2, alphas=alphas, executor=counting, cache=planner.CellCache(), **common)
        cols = ["alpha1", "test", "n", "n_low", "n_high", "status", "type1", "type1_low",
                "type1_high", "valid", "simulated"]
        with_pd_opts(lambda: print(front[cols].to_string(index=False)))
        per_row = front["simulated"] + front["type1"].notna()
        total = int(per_row.sum())
        boot_cells = int(per_row[front["test"] == "bootstrap"].sum())
        print(f"  frontier: {fmt_s(front_s)} wall, {total} cells ({boot_cells} bootstrap; "
              f"{counting.submitted} sent to the executor); progress: "
              f"{front_prog.summary(front_s)}")
        est = boot_cells * seq_per_cell
        print(f"  sequentially its {boot_cells} bootstrap cells would take about {fmt_s(est)} at "
              f"the sequential query's {fmt_s(seq_per_cell)} per cell (estimated, not run; the "
              f"chi-square cells cost milliseconds): {est / front_s:.2f}x the cluster's time")
        summary.append(f"frontier ({len(alphas)} alphas x 2 tests + type-I): {fmt_s(front_s)}, "
                       f"{total} cells; sequential estimate {fmt_s(est)} "
                       f"({est / front_s:.2f}x)")
    finally:
        if executor is not None:
            executor.close()

    print()
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.2f}")
    print("Summary")
    for line in summary:
        print(f"  {line}")
    return 0


def with_pd_opts(fn):
    import pandas as pd

    with pd.option_context("display.width", 200, "display.max_columns", 20,
                           "display.float_format", lambda v: f"{v:.4g}"):
        fn()


if __name__ == "__main__":
    run(main)
