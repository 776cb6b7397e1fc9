"""Benchmark: random substitution and l-extended random substitution (``dpcore.substitution``).

Run from the repository root, with the benchmark venv (it has the two peer libraries; see
benchmarks/README.md for how to make it):

    .venv-bench/bin/python benchmarks/bench_substitution.py

or with the project venv, which has neither: then the peer rows say "<library> not
installed: see benchmarks/README.md" and everything else is the same.

    .venv/bin/python benchmarks/bench_substitution.py

Symbols as in the module: N categories, n records, gamma the amplification of the
gamma-diagonal matrix M = xG (gamma x on the diagonal, x = 1/(gamma + N - 1) off it), l
the number of distinct values each record releases under Algorithm 2.

What it measures (true counts ``datasets.shape_counts("normal", N, n)``, gamma = 10):

* ours    -- ``random_substitution_counts`` (Algorithm 1 from the counts, O(N)) at
             n = 10^6, N = 100; target <= 50 ms. ``extended_random_substitution`` (Algorithm
             2 from the counts: the other values by column, O(N^2 l), or by record, O(n l),
             whichever its cost model picks; at this size by record; the path is printed) at
             n = 50,000, N = 100, l = 4; target <= 0.5 s. Also ``random_substitution`` (one
             output per record, vectorised) at n = 10^6.
* literal -- the source's algorithms as per-record Python loops, written here: for each
             record r ~ U(0, 1] and h with sum_{i<h} m_ik < r <= sum_{i<=h} m_ik, found by
             ``np.searchsorted`` on the cumulative sums of column k of M; Algorithm 2 draws
             again while h is already in the record's set and counts every draw. Same data,
             same process; the ratio literal / ours, target >= 100x for each. Algorithm 1
             runs once on all 10^6 records (about 1.5 s); it is timed on a subset and scaled
             linearly only if a pilot run predicts more than 60 s. Algorithm 2: median of 3.
* peers   -- l = 1 with the gamma-diagonal matrix is k-ary randomized response (GRR) with
             k = N and e^eps = gamma. Perturbing the same 10^6 records at k = 100,
             eps = ln 10, one call per record as in bench_ldp.py: multi-freq-ldpy
             ``GRR_Client(value, k, eps)`` (numba-jitted; compiled before timing) and
             pure-ldp ``DEClient(eps, k).privatise(value + 1)``; median of 3 runs; the ratio
             theirs / ours against ``random_substitution`` and ``random_substitution_counts``
             (no target). Their reports' counts are also compared with E[Y] = MX.
* sanity  -- N = 10, gamma = 5, n = 200 (normal shape), l = 3, 400 replicates of each
             sampler: the mean counts (and for Algorithm 2 the mean number of draws) of the
             literal loops against ours, two-sample z per category, and each against its
             exact expectation (MX; AX with A = aI + bJ; ``expected_draws``). At this size
             Algorithm 2 draws the other values by column, so also: at the timed setting
             (N = 100, n = 50,000, l = 4, by record) 200 releases of ours against AX and
             ``expected_draws``. Target: every |z| <= 4.
* grid    -- ``paper_grid(reps=100, rng=0)``, the source's Section 6 experiment (24 cells),
             timed once and printed: per cell the actual error of the source's estimator
             M^-1 Y*/l, its exact value, Theorem 4.1's bound / sqrt(l), the mean draws and
             draws / (n l).

Ours is timed as the median of 7 ``timeit.repeat`` repeats (each as many calls as fit in
about 50 ms). The whole run takes about 11 s (about 7 s without the peers). It reports;
it never fails: the exit code is always 0.
"""

from __future__ import annotations

import math
import os
import platform
import random
import statistics
import sys
import time
import timeit
from pathlib import Path

import numpy as np

from _report import fmt_s

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dpcore import datasets, substitution as rs  # noqa: E402

PEER_ERRORS = {}  # library -> why it is missing
try:
    from multi_freq_ldpy.pure_frequency_oracles import GRR as mfl_grr
except ImportError as exc:  # the project venv: see benchmarks/README.md
    mfl_grr = None
    PEER_ERRORS["multi-freq-ldpy"] = exc
try:
    from pure_ldp.frequency_oracles.direct_encoding import DEClient
except ImportError as exc:  # the project venv, or pure-ldp without scikit-learn/statsmodels
    DEClient = None
    PEER_ERRORS["pure-ldp"] = exc

SHAPE = "normal"
N_CAT = 100
GAMMA = 10.0
EPS = math.log(GAMMA)  # GRR with e^eps = gamma
N_COUNTS = 10**6  # Algorithm 1: counts, per record, literal, peers
N_EXT = 50_000  # Algorithm 2
L_EXT = 4
SEED = 20240601
OURS_REPEATS = 7
PEER_REPEATS = 3
LITERAL1_REPEATS = 1  # about 1.5 s per run at n = 10^6
LITERAL2_REPEATS = 3
REPEAT_SECONDS = 0.05  # ours: `number` is chosen so that one repeat takes about this long
MAX_NUMBER = 10_000
PILOT = 10_000  # records timed first, to predict the literal loop's full run
MAX_LITERAL_S = 60.0  # above this prediction the literal loop runs on a subset, scaled
TARGET_COUNTS_S = 0.05
TARGET_EXT_S = 0.5
TARGET_RATIO = 100.0
# sanity check: small enough for a few hundred replicates of the literal loops
SANITY_N_CAT, SANITY_GAMMA, SANITY_N, SANITY_L, SANITY_REPS = 10, 5.0, 200, 3, 400
TIMED_REPS = 200  # releases of Algorithm 2 at the timed setting, against the exact expectations
TARGET_Z = 4.0


def not_installed(lib: str) -> str:
    exc = PEER_ERRORS.get(lib)
    if exc is not None and getattr(exc, "name", None) not in (None, lib.replace("-", "_")):
        return f"{lib} not importable ({exc}): see benchmarks/README.md"
    return f"{lib} not installed: see benchmarks/README.md"


# ----------------------------------------------------------------------- data


def records(counts: np.ndarray, rng) -> np.ndarray:
    """One category index (0 ... N - 1) per record, in random order."""
    values = np.repeat(np.arange(counts.size), counts)
    rng.shuffle(values)
    return values


# --------------------------------------------------------- the literal algorithms


def column_cdfs(n_cat: int, gamma: float) -> list:
    """The cumulative sums of each column of M, as contiguous arrays; the last is set to 1."""
    cum = np.cumsum(rs.gamma_diagonal_matrix(n_cat, gamma), axis=0)
    cum[-1] = 1.0  # 1 up to rounding; r may be exactly 1
    return [np.ascontiguousarray(cum[:, k]) for k in range(n_cat)]


def literal_algorithm1(values, gamma: float, n_cat: int, rng) -> np.ndarray:
    """Algorithm 1, record by record: r ~ U(0, 1], h with cum_{h-1} < r <= cum_h. Returns Y."""
    cdf = column_cdfs(n_cat, gamma)
    y = [0] * n_cat
    for k in values:
        r = 1.0 - rng.random()
        y[int(np.searchsorted(cdf[k], r, side="left"))] += 1
    return np.array(y, dtype=np.int64)


def literal_algorithm2(values, gamma: float, n_cat: int, l: int, rng):
    """Algorithm 2, record by record: l distinct values, a repeat is drawn again.

    Returns (Y*, draws), draws counting every draw including the repeats.
    """
    cdf = column_cdfs(n_cat, gamma)
    y = [0] * n_cat
    draws = 0
    for k in values:
        col = cdf[k]
        chosen = set()
        while len(chosen) < l:
            r = 1.0 - rng.random()
            h = int(np.searchsorted(col, r, side="left"))
            draws += 1
            chosen.add(h)
        for h in chosen:
            y[h] += 1
    return np.array(y, dtype=np.int64), draws


# ----------------------------------------------------------------------- timing


def ours_seconds(fn) -> float:
    """Median over OURS_REPEATS of the time per call, in s (``timeit.repeat``)."""
    fn()  # warm-up
    once = min(timeit.repeat(fn, number=1, repeat=3))
    number = max(1, min(MAX_NUMBER, int(REPEAT_SECONDS / max(once, 1e-9))))
    return statistics.median(timeit.repeat(fn, number=number, repeat=OURS_REPEATS)) / number


def median_runs(fn, repeats: int):
    """Median over `repeats` single runs, in s, and the last run's result."""
    box = {}

    def run():
        box["out"] = fn()

    times = timeit.repeat(run, number=1, repeat=repeats)
    return statistics.median(times), box["out"]


def literal_seconds(make_fn, values, repeats: int):
    """Time ``make_fn(values)`` on all records, or on a subset scaled linearly to all.

    A pilot run on PILOT records predicts the full run; only if that exceeds MAX_LITERAL_S
    is the loop timed on the share that would take about MAX_LITERAL_S / 2 and scaled.
    Returns (seconds for all records, how it was timed, the last result).
    """
    n = len(values)
    pilot = values[:PILOT]
    t0 = time.perf_counter()
    make_fn(pilot)
    predicted = (time.perf_counter() - t0) * n / len(pilot)
    runs = "1 run" if repeats == 1 else f"median of {repeats} runs"
    if predicted <= MAX_LITERAL_S:
        seconds, out = median_runs(lambda: make_fn(values), repeats)
        return seconds, f"all {n:,} records, {runs}", out
    m = max(PILOT, int(n * MAX_LITERAL_S / 2 / predicted))
    seconds, out = median_runs(lambda: make_fn(values[:m]), repeats)
    return seconds * n / m, (f"{m:,} of {n:,} records, {runs}, scaled linearly to all "
                             f"(pilot predicted {predicted:.0f} s)"), out


def row(label: str, seconds: float, extra: str = "") -> None:
    print(f"  {label:<56}{fmt_s(seconds):>12}{extra}")


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


# ----------------------------------------------------------------------- peers


def seed_numba(seed: int) -> None:
    """numba's np.random has its own state, seeded only from jitted code."""
    try:
        import numba
    except ImportError:
        return
    numba.njit(lambda s: np.random.seed(s))(seed)


def mfl_client(values, eps: float) -> list:
    """multi-freq-ldpy's README: one GRR_Client call per record (k must be a Python int)."""
    return [mfl_grr.GRR_Client(v, N_CAT, eps) for v in values]


def de_client(values_1based, eps: float) -> list:
    """pure-ldp's README: one privatise call per record; items are 1 ... k, reports 0-based."""
    client = DEClient(epsilon=eps, d=N_CAT)
    return [client.privatise(v) for v in values_1based]


# ----------------------------------------------------------------------- checks


def y_sd(counts: np.ndarray, gamma: float) -> np.ndarray:
    """Standard deviation of each Y_h under Algorithm 1: sum_k X_k m_hk (1 - m_hk)."""
    m = rs.gamma_diagonal_matrix(counts.size, gamma)
    return np.sqrt((m * (1 - m)) @ counts)


def two_sample_z(a: np.ndarray, b: np.ndarray) -> float:
    """max over columns of |mean a - mean b| / its standard error (rows are replicates)."""
    se = np.sqrt(a.var(axis=0, ddof=1) / len(a) + b.var(axis=0, ddof=1) / len(b))
    diff = np.abs(a.mean(axis=0) - b.mean(axis=0))
    return float(np.max(np.where(se > 0, diff / np.where(se > 0, se, 1), 0.0)))


def exact_z(a: np.ndarray, expected) -> float:
    """max over columns of |mean a - expected| / the standard error of the mean."""
    se = a.std(axis=0, ddof=1) / math.sqrt(len(a))
    diff = np.abs(a.mean(axis=0) - expected)
    return float(np.max(np.where(se > 0, diff / np.where(se > 0, se, 1), 0.0)))


def sanity(rng) -> dict:
    """Literal loops vs our samplers: mean Y, mean Y* and mean draws, in standard errors."""
    n_cat, g, l, reps = SANITY_N_CAT, SANITY_GAMMA, SANITY_L, SANITY_REPS
    x = datasets.shape_counts(SHAPE, n_cat, SANITY_N)
    vals = records(x, rng).tolist()
    lit1 = np.array([literal_algorithm1(vals, g, n_cat, rng) for _ in range(reps)])
    counts1 = rs.random_substitution_counts(x, g, size=reps, rng=rng)
    vals_arr = np.asarray(vals)
    per1 = np.array([np.bincount(rs.random_substitution(vals_arr, g, n_cat, rng=rng),
                                 minlength=n_cat) for _ in range(reps)])
    lit2 = [literal_algorithm2(vals, g, n_cat, l, rng) for _ in range(reps)]
    lit2_y = np.array([y for y, _ in lit2])
    lit2_d = np.array([[d] for _, d in lit2], dtype=float)
    ext = rs.extended_random_substitution(x, g, l, size=reps, rng=rng)
    ext_d = np.asarray(ext.draws, dtype=float)[:, None]
    mx = rs.gamma_diagonal_matrix(n_cat, g) @ x
    ax = rs.expectation_matrix(n_cat, g, l) @ x
    e_draws = rs.expected_draws(SANITY_N, n_cat, g, l)
    z = {
        "Alg 1: literal vs random_substitution_counts, mean Y": two_sample_z(lit1, counts1),
        "Alg 1: literal vs random_substitution, mean Y": two_sample_z(lit1, per1),
        "Alg 1: literal vs exact MX": exact_z(lit1, mx),
        "Alg 1: random_substitution_counts vs exact MX": exact_z(counts1, mx),
        "Alg 1: random_substitution vs exact MX": exact_z(per1, mx),
        "Alg 2: literal vs extended_random_substitution, mean Y*": two_sample_z(lit2_y,
                                                                                ext.counts),
        "Alg 2: literal vs extended_random_substitution, mean draws": two_sample_z(lit2_d,
                                                                                   ext_d),
        "Alg 2: literal vs exact AX": exact_z(lit2_y, ax),
        "Alg 2: extended_random_substitution vs exact AX": exact_z(ext.counts, ax),
        "Alg 2: literal draws vs expected_draws": exact_z(lit2_d, e_draws),
        "Alg 2: extended_random_substitution draws vs expected_draws": exact_z(ext_d, e_draws),
    }
    # the timed setting (too large for the literal loop): ours against the exact expectations
    x_t = datasets.shape_counts(SHAPE, N_CAT, N_EXT)
    timed = rs.extended_random_substitution(x_t, GAMMA, L_EXT, size=TIMED_REPS, rng=rng)
    path = others_path(N_EXT, N_CAT, L_EXT, TIMED_REPS)
    timed_d = np.asarray(timed.draws, dtype=float)[:, None]
    z[f"Alg 2 timed setting ({path}): ours vs exact AX"] = exact_z(
        timed.counts, rs.expectation_matrix(N_CAT, GAMMA, L_EXT) @ x_t)
    z[f"Alg 2 timed setting ({path}): ours draws vs expected_draws"] = exact_z(
        timed_d, rs.expected_draws(N_EXT, N_CAT, GAMMA, L_EXT))
    means = {"literal": float(lit2_d.mean()), "ours": float(ext_d.mean()), "exact": e_draws}
    return {"z": z, "draws": means, "x": x}


def others_path(n: int, n_cat: int, l: int, reps: int = 1) -> str:
    """How ``extended_random_substitution`` draws the other values: 'by column' or 'by record'."""
    return f"by {rs._others_path(n, n_cat, l, reps)}"


# -------------------------------------------------------------------------- main


def machine_info() -> None:
    import scipy
    from importlib import metadata

    print(f"machine: {platform.platform()}, {platform.machine()}, "
          f"{os.cpu_count()} logical CPUs, processor {platform.processor() or 'unknown'}")
    versions = [f"python {platform.python_version()}", f"numpy {np.__version__}",
                f"scipy {scipy.__version__}"]
    for dist in ("multi-freq-ldpy", "numba", "pure-ldp"):
        try:
            versions.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            pass
    print(", ".join(versions))


def main() -> int:
    start = time.perf_counter()
    print("Random substitution (Algorithm 1) and l-extended random substitution (Algorithm 2): "
          "dpcore.substitution")
    machine_info()
    x = 1.0 / (GAMMA + N_CAT - 1)
    print(f"N = {N_CAT}, gamma = {GAMMA:g}: m_kk = gamma x = {GAMMA * x:.6f}, m_hk = x = "
          f"{x:.6f}; true counts shape_counts({SHAPE!r}, N, n); ours: median of "
          f"{OURS_REPEATS} timeit repeats")
    print()
    rng = np.random.default_rng(SEED)
    counts6 = datasets.shape_counts(SHAPE, N_CAT, N_COUNTS)
    counts_ext = datasets.shape_counts(SHAPE, N_CAT, N_EXT)
    values6 = records(counts6, rng)
    values_ext = records(counts_ext, rng)
    values6_list = values6.tolist()  # the literal loops iterate over Python ints
    values_ext_list = values_ext.tolist()

    # ------------------------------------------------------------------ ours
    ours = {}
    print("Ours: dpcore.substitution")
    ours["counts"] = ours_seconds(lambda: rs.random_substitution_counts(counts6, GAMMA, rng=rng))
    row("random_substitution_counts, n = 10^6", ours["counts"])
    ours["per record"] = ours_seconds(
        lambda: rs.random_substitution(values6, GAMMA, N_CAT, rng=rng))
    row("random_substitution (per record, vectorised), n = 10^6", ours["per record"],
        f"  ({1e9 * ours['per record'] / N_COUNTS:.1f} ns per record)")
    ours["ext"] = ours_seconds(
        lambda: rs.extended_random_substitution(counts_ext, GAMMA, L_EXT, rng=rng))
    row(f"extended_random_substitution, n = {N_EXT:,}, l = {L_EXT}", ours["ext"],
        f"  (other values {others_path(N_EXT, N_CAT, L_EXT)})")
    print()

    # --------------------------------------------------------------- literal
    literal = {}
    print("Literal per-record Python loops (np.searchsorted on the column's cumulative sums)")
    literal["alg1"], how1, y1 = literal_seconds(
        lambda v: literal_algorithm1(v, GAMMA, N_CAT, rng), values6_list, LITERAL1_REPEATS)
    row("Algorithm 1, n = 10^6", literal["alg1"],
        f"  ({1e6 * literal['alg1'] / N_COUNTS:.2f} us per record; {how1})")
    literal["alg2"], how2, (y2, d2) = literal_seconds(
        lambda v: literal_algorithm2(v, GAMMA, N_CAT, L_EXT, rng), values_ext_list,
        LITERAL2_REPEATS)
    row(f"Algorithm 2, n = {N_EXT:,}, l = {L_EXT}", literal["alg2"],
        f"  ({1e6 * literal['alg2'] / N_EXT:.2f} us per record; {how2})")
    if "scaled" not in how2:
        print(f"    last run: {d2:,} draws for {N_EXT * L_EXT:,} values "
              f"(draws / (n l) = {d2 / (N_EXT * L_EXT):.4f}; exact expectation "
              f"{rs.expected_draws(N_EXT, N_CAT, GAMMA, L_EXT) / (N_EXT * L_EXT):.4f})")
    print()

    # ---------------------------------------------------------------- theirs
    theirs = {}
    print(f"Theirs: GRR on the same 10^6 records, k = {N_CAT}, eps = ln {GAMMA:g} = {EPS:.6f} "
          f"(median of {PEER_REPEATS} runs)")
    mx6 = rs.gamma_diagonal_matrix(N_CAT, GAMMA) @ counts6
    sd6 = y_sd(counts6, GAMMA)
    peer_z = {}
    if mfl_grr is None:
        print(f"  {not_installed('multi-freq-ldpy')}")
    else:
        seed_numba(SEED)
        t0 = time.perf_counter()
        mfl_grr.GRR_Client(int(values6[0]), N_CAT, EPS)
        print(f"  multi-freq-ldpy: numba compilation of GRR_Client (first call, not timed "
              f"below) {fmt_s(time.perf_counter() - t0)}")
        theirs["multi-freq-ldpy GRR_Client"], reports = median_runs(
            lambda: mfl_client(values6, EPS), PEER_REPEATS)
        peer_z["multi-freq-ldpy GRR_Client"] = float(np.max(np.abs(
            np.bincount(np.asarray(reports, dtype=np.int64), minlength=N_CAT) - mx6) / sd6))
    if DEClient is None:
        print(f"  {not_installed('pure-ldp')}")
    else:
        random.seed(SEED)  # pure-ldp draws from Python's `random`
        values6_1 = values6 + 1
        theirs["pure-ldp DEClient.privatise"], reports = median_runs(
            lambda: de_client(values6_1, EPS), PEER_REPEATS)
        peer_z["pure-ldp DEClient.privatise"] = float(np.max(np.abs(
            np.bincount(np.asarray(reports, dtype=np.int64), minlength=N_CAT) - mx6) / sd6))
    for label, t in theirs.items():
        row(f"{label} x 10^6 records", t, f"  ({1e6 * t / N_COUNTS:.3f} us per record)")
    our_z = {
        "ours random_substitution": float(np.max(np.abs(np.bincount(
            rs.random_substitution(values6, GAMMA, N_CAT, rng=rng), minlength=N_CAT) - mx6) / sd6)),
        "ours random_substitution_counts": float(np.max(np.abs(
            rs.random_substitution_counts(counts6, GAMMA, rng=rng) - mx6) / sd6)),
        "literal Algorithm 1 (last timed run)": float(np.max(np.abs(y1 - mx6) / sd6))
        if "scaled" not in how1 else float("nan"),
    }
    print("  counts of one release vs E[Y] = MX, max over the 100 categories of |Y_h - E Y_h| / "
          "SD(Y_h):")
    for label, z in {**peer_z, **our_z}.items():
        if z == z:
            print(f"    {label:<40} {z:5.2f} SD")
    print()

    # ---------------------------------------------------------------- sanity
    print(f"Sanity: literal loops vs ours, N = {SANITY_N_CAT}, gamma = {SANITY_GAMMA:g}, "
          f"n = {SANITY_N}, l = {SANITY_L}, {SANITY_REPS} replicates each "
          f"(max over categories of |difference| / its standard error)")
    check = sanity(np.random.default_rng(SEED + 1))
    print(f"  true counts X = {check['x'].tolist()}")
    for label, z in check["z"].items():
        print(f"  {label:<62} {z:5.2f} SE")
    dm = check["draws"]
    print(f"  mean draws per release: literal {dm['literal']:.2f}, ours {dm['ours']:.2f}, "
          f"exact {dm['exact']:.2f} (n l = {SANITY_N * SANITY_L})")
    print()

    # ------------------------------------------------------------------ grid
    print("The source's Section 6 experiment: paper_grid(reps=100, rng=0)")
    t0 = time.perf_counter()
    grid = rs.paper_grid(reps=100, rng=0)
    grid_s = time.perf_counter() - t0
    print(f"  time (one run): {fmt_s(grid_s)}")
    src = grid[grid["estimator"] == "source"]
    unb = grid[grid["estimator"] == "unbiased"].set_index(["shape", "N", "gamma", "n", "l"])
    print("  error = sqrt(mean ||X^ - X||^2)/||X|| of the source's estimator M^-1 Y*/l "
          "(+- Monte Carlo SE), its exact value;")
    print("  bound = Theorem 4.1's bound / sqrt(l); unbiased = the same error of A^-1 Y*")
    print(f"  {'shape':<8}{'N':>4}{'gamma':>6}{'n':>7}{'l':>3}{'error':>17}{'exact':>9}"
          f"{'bound':>8}{'unbiased':>10}{'mean draws':>12}{'draws/(nl)':>11}")
    for _, r in src.iterrows():
        u = unb.loc[(r["shape"], r["N"], r["gamma"], r["n"], r["l"]), "actual"]
        print(f"  {r['shape']:<8}{r['N']:>4}{r['gamma']:>6g}{r['n']:>7}{r['l']:>3}"
              f"{r['actual']:>9.4f} ± {r['actual_se']:.4f}{r['exact']:>9.4f}{r['bound']:>8.4f}"
              f"{u:>10.4f}{r['draws']:>12.1f}{r['draws'] / r['nl']:>11.4f}")
    print()

    # ---------------------------------------------------------------- summary
    print("Summary")
    t = ours["counts"]
    print(f"  random_substitution_counts, n = 10^6, N = {N_CAT}, gamma = {GAMMA:g}: "
          f"{fmt_s(t)}   <= {1e3 * TARGET_COUNTS_S:g} ms: {verdict(t <= TARGET_COUNTS_S)}")
    t = ours["ext"]
    print(f"  extended_random_substitution, n = {N_EXT:,}, l = {L_EXT}: "
          f"{fmt_s(t)}   <= {TARGET_EXT_S:g} s: {verdict(t <= TARGET_EXT_S)}")
    for label, lit, our in (("Algorithm 1 literal / random_substitution_counts", "alg1", "counts"),
                            ("Algorithm 2 literal / extended_random_substitution", "alg2", "ext")):
        r = literal[lit] / ours[our]
        print(f"  {label:<58} {fmt_s(literal[lit]):>10} / {fmt_s(ours[our]):>9} = "
              f"{r:10,.0f}x   >= {TARGET_RATIO:g}x: {verdict(r >= TARGET_RATIO)}")
    r = literal["alg1"] / ours["per record"]
    print(f"  {'Algorithm 1 literal / random_substitution':<58} {fmt_s(literal['alg1']):>10} / "
          f"{fmt_s(ours['per record']):>9} = {r:10,.0f}x   (no target)")
    for label, t in theirs.items():
        print(f"  {label + ' / random_substitution':<58} {fmt_s(t):>10} / "
              f"{fmt_s(ours['per record']):>9} = {t / ours['per record']:10,.1f}x   (no target)")
        print(f"  {label + ' / random_substitution_counts':<58} {fmt_s(t):>10} / "
              f"{fmt_s(ours['counts']):>9} = {t / ours['counts']:10,.0f}x   (no target)")
    for lib in ("multi-freq-ldpy", "pure-ldp"):
        if lib in PEER_ERRORS:
            print(f"  {not_installed(lib)}")
    worst = max(check["z"], key=check["z"].get)
    z = check["z"][worst]
    print(f"  sanity, literal loops vs ours and vs the exact expectations: max {z:.2f} SE "
          f"({worst})   <= {TARGET_Z:g} SE: {verdict(z <= TARGET_Z)}")
    print(f"  paper_grid(reps=100, rng=0): {fmt_s(grid_s)} (no target)")
    print(f"  total run time: {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    from _report import run

    run(main)
