"""Benchmark: k-ary randomized response (``dpcore.ldp``) against multi-freq-ldpy and pure-ldp.

Run from the repository root, with the benchmark venv (it has the two peer libraries; see
benchmarks/README.md for how to make it):

    .venv-bench/bin/python benchmarks/bench_ldp.py

or with the project venv, which has neither: then only our timings are printed, and each
peer row says "<library> not installed: see benchmarks/README.md".

    .venv/bin/python benchmarks/bench_ldp.py

What it measures (k = 100 categories, a skewed true distribution: n_v proportional to
1/(v + 5), v = 0 ... 99, rounded to sum to N exactly):

* ours   -- ``krr_perturb_counts`` + ``krr_estimate`` for N = 10^7 users (reported counts
            drawn from the true counts in O(k)); target <= 0.1 s. ``krr_perturb`` for
            N = 10^6 users (one report per user, vectorised); target <= 0.1 s. At
            N = 10^6, eps = 1, the whole simulation of a collection, two ways:
            "per-user" = ``krr_perturb`` + ``np.bincount`` + ``krr_estimate`` and
            "from counts" = ``krr_perturb_counts`` + ``krr_estimate``, each with the
            estimator that matches the peer's (unbiased, clip-and-renormalise, IBU).
* theirs -- at N = 10^6, k = 100, eps = 1, the full client (every user perturbed, one
            call per user, as each library's README does it: neither has a vectorised
            client) and the aggregator:
            multi-freq-ldpy: ``GRR_Client(value, k, eps)`` per user (numba-jitted), then
            ``GRR_Aggregator_MI(reports, k, eps)`` (clip at 0 and renormalise) or
            ``GRR_Aggregator_IBU(reports, k, eps)`` (iterative Bayesian update);
            pure-ldp: ``DEClient(eps, k).privatise(value + 1)`` per user (its items are
            1 ... k), then ``DEServer(eps, k)``: ``aggregate_all(reports)`` and
            ``estimate_all(range(1, k + 1))`` (unbiased counts).
            The ratio theirs / ours (client + aggregator over ours per-user and over
            ours from counts, same estimator); target >= 100x. Also printed, with no
            target: their estimators alone on the reported counts (``MI`` and the jitted
            ``IBU`` of ``multi_freq_ldpy.estimators.Histogram_estimator``; their
            aggregators first count the reports in a Python loop), and client alone /
            ``krr_perturb``.
* agreement -- at eps = 1 and eps = 4, N = 10^6, in units of SE_v = sqrt(krr_variance(n, eps))
            (the exact standard error of the unbiased estimate of count v):
            (a) same reports: each peer aggregator against ``krr_estimate`` with the same
                estimator applied to the bincount of that peer's own reports (target
                <= 1e-3 SE: the same arithmetic; their IBU, which stops at an iteration cap, is reported against ours, the exact limit, with no target);
            (b) sampling: each estimate (ours and theirs, every estimator) against the
                truth, and each peer's estimate against ours from independent
                perturbations (difference / (sqrt(2) SE)); target: max over the k
                categories <= 5 SE;
            (c) no target: our IBU against the exact maximum-likelihood estimate of the
                same reports (k-RR's likelihood is separable, so the MLE is a closed-form
                "water-filling"; see ``exact_mle``). Where the MLE has zeros (small eps)
                EM converges sublinearly and both IBUs stop at their 10,000-iteration cap.

Times are medians of ``timeit.repeat`` (7 repeats for ours, 3 for the peers, one run per
repeat for the peers); numba's compilation (first call) is done before timing and printed
separately. The whole run takes about 20 s (6 s without the peers). It reports; it never
fails: the exit code is always 0.
"""

from __future__ import annotations

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

from dpcore import ldp  # noqa: E402

PEER_ERRORS = {}  # library -> why it is missing
try:
    from multi_freq_ldpy.pure_frequency_oracles import GRR as mfl_grr
except ImportError as exc:  # the project venv: see benchmarks/README.md
    mfl_grr = None
    PEER_ERRORS["multi-freq-ldpy"] = exc
try:
    from pure_ldp.frequency_oracles.direct_encoding import DEClient, DEServer
except ImportError as exc:  # the project venv, or pure-ldp without scikit-learn/statsmodels
    DEClient = DEServer = None
    PEER_ERRORS["pure-ldp"] = exc

K = 100
N_COUNTS = 10**7  # ours from counts
N_USERS = 10**6  # ours per-user, and the side-by-side comparison
EPS_TIME = 1.0
EPS_AGREE = (1.0, 4.0)
SEED = 20240601
OURS_REPEATS = 7
PEER_REPEATS = 3
REPEAT_SECONDS = 0.05  # ours: `number` is chosen so that one repeat takes about this long
MAX_NUMBER = 10_000
TARGET_COUNTS_S = 0.1
TARGET_PERTURB_S = 0.1
TARGET_RATIO = 100.0
TARGET_SAME_SE = 1e-3
TARGET_SAMPLING_SE = 5.0
MATCH = {"MI": "clip", "IBU": "ibu", "DE": "unbiased"}  # peer aggregator -> our method


def not_installed(lib: str) -> str:
    exc = PEER_ERRORS.get(lib)
    if exc is not None and getattr(exc, "name", None) not in (None, lib.replace("-", "_")):
        return f"{lib} not importable ({exc}): see benchmarks/README.md"
    return f"{lib} not installed: see benchmarks/README.md"


# ----------------------------------------------------------------------- data


def skewed_counts(n: int, k: int = K) -> np.ndarray:
    """n_v proportional to 1/(v + 5), rounded (largest remainder) to sum to n exactly."""
    w = 1.0 / (np.arange(k) + 5.0)
    exact = n * w / w.sum()
    counts = np.floor(exact).astype(np.int64)
    short = n - counts.sum()
    counts[np.argsort(counts - exact)[:short]] += 1
    return counts


def users_from_counts(counts: np.ndarray, rng) -> np.ndarray:
    """One value per user (0 ... k − 1), in random order."""
    values = np.repeat(np.arange(counts.size), counts)
    rng.shuffle(values)
    return values


# ----------------------------------------------------------------------- timing


def ours_seconds(fn) -> float:
    """Median over OURS_REPEATS of the time per call, in s (``timeit.repeat``)."""
    fn()  # warm-up
    once = min(timeit.repeat(fn, number=1, repeat=3))
    number = max(1, min(MAX_NUMBER, int(REPEAT_SECONDS / max(once, 1e-9))))
    return statistics.median(timeit.repeat(fn, number=number, repeat=OURS_REPEATS)) / number


def peer_seconds(fn):
    """Median over PEER_REPEATS single runs, in s, and the last run's result."""
    box = {}

    def run():
        box["out"] = fn()

    times = timeit.repeat(run, number=1, repeat=PEER_REPEATS)
    return statistics.median(times), box["out"]


def row(label: str, seconds: float, extra: str = "") -> None:
    print(f"  {label:<49}{fmt_s(seconds):>12}{extra}")


# ----------------------------------------------------------------------- peers


def seed_numba(seed: int) -> None:
    """numba's np.random has its own state, seeded only from jitted code."""
    try:
        import numba
    except ImportError:
        return
    numba.njit(lambda s: np.random.seed(s))(seed)


def mfl_client(values: np.ndarray, eps: float) -> list:
    """multi-freq-ldpy's README: one GRR_Client call per user."""
    return [mfl_grr.GRR_Client(v, K, eps) for v in values]


def mfl_aggregate(reports: list, eps: float, which: str) -> np.ndarray:
    """Their estimate as counts (they return normalised frequencies)."""
    fn = mfl_grr.GRR_Aggregator_MI if which == "MI" else mfl_grr.GRR_Aggregator_IBU
    return np.asarray(fn(reports, K, eps)) * len(reports)


def de_client(values_1based, eps: float) -> list:
    """pure-ldp's README: one privatise call per user; items are 1 ... k (index_mapper x − 1)."""
    client = DEClient(epsilon=eps, d=K)
    return [client.privatise(v) for v in values_1based]


def de_aggregate(reports: list, eps: float) -> np.ndarray:
    server = DEServer(epsilon=eps, d=K)
    server.aggregate_all(reports)  # reports are 0-based indices (privatise maps x -> x − 1)
    return server.estimate_all(range(1, K + 1), suppress_warnings=True)


def reported_counts(reports) -> np.ndarray:
    return np.bincount(np.asarray(reports, dtype=np.int64), minlength=K)


def exact_mle(reported: np.ndarray, eps: float) -> np.ndarray:
    """The k-RR maximum-likelihood counts in closed form (a reference for IBU).

    P(report w) = q + (p − q) pi_w, so the log-likelihood sum_w N_w log(q + (p − q) pi_w) is
    separable; its maximum on the simplex is pi_w = max(f_w / lam − c, 0), c = q/(p − q),
    f = N_w/N, with lam fixed by sum pi = 1 over the m largest f_w ("water-filling").
    """
    p, q = ldp.krr_probabilities(eps, reported.size)
    c = q / (p - q)
    total = reported.sum()
    f = reported / total
    s = np.sort(f)[::-1]
    m = np.arange(1, f.size + 1)
    lam = np.cumsum(s) / (1 + m * c)
    m_star = np.nonzero(s / lam > c)[0].max()  # the largest m whose m-th largest f is kept
    return np.maximum(f / lam[m_star] - c, 0.0) * total


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
    print("k-ary randomized response: dpcore.ldp vs multi-freq-ldpy (GRR) and pure-ldp (DE)")
    machine_info()
    print(f"k = {K}; true counts n_v ~ 1/(v + 5), max/min = {(K + 4) / 5:g}; "
          f"ours: median of {OURS_REPEATS} timeit repeats; peers: median of {PEER_REPEATS} runs")
    print()
    rng = np.random.default_rng(SEED)
    counts7 = skewed_counts(N_COUNTS)
    counts6 = skewed_counts(N_USERS)
    values6 = users_from_counts(counts6, rng)
    eps = EPS_TIME
    p, q = ldp.krr_probabilities(eps, K)
    print(f"eps = {eps:g}: p = {p:.6f}, q = {q:.6f} "
          "(p = e^eps/(e^eps + k - 1), in all three libraries)")
    print()

    # ------------------------------------------------------------------ ours
    ours = {}
    print("Ours: dpcore.ldp")
    ours["counts 1e7"] = ours_seconds(
        lambda: ldp.krr_estimate(ldp.krr_perturb_counts(counts7, eps, rng=rng), eps))
    row("krr_perturb_counts + krr_estimate, N = 10^7", ours["counts 1e7"])
    ours["perturb 1e6"] = ours_seconds(lambda: ldp.krr_perturb(values6, eps, K, rng=rng))
    row("krr_perturb, N = 10^6", ours["perturb 1e6"])
    ours["bincount 1e6"] = ours_seconds(
        lambda: np.bincount(values6, minlength=K))
    row("np.bincount(reports, minlength=k), N = 10^6", ours["bincount 1e6"])
    reported6 = reported_counts(ldp.krr_perturb(values6, eps, K, rng=rng))
    for method in ("unbiased", "clip", "ibu"):
        ours[f"estimate {method}"] = ours_seconds(
            lambda m=method: ldp.krr_estimate(reported6, eps, method=m))
        ours[f"per-user {method}"] = ours_seconds(
            lambda m=method: ldp.krr_estimate(
                np.bincount(ldp.krr_perturb(values6, eps, K, rng=rng), minlength=K), eps,
                method=m))
        ours[f"from counts {method}"] = ours_seconds(
            lambda m=method: ldp.krr_estimate(ldp.krr_perturb_counts(counts6, eps, rng=rng),
                                              eps, method=m))
        print(f"  N = 10^6, {method:<8}: estimate alone {fmt_s(ours[f'estimate {method}']):>10}; "
              f"per-user {fmt_s(ours[f'per-user {method}']):>10}; "
              f"from counts {fmt_s(ours[f'from counts {method}']):>10}")
    print()

    # ---------------------------------------------------------------- theirs
    theirs = {}  # (library, part) -> seconds
    compile_s = {}
    print(f"Theirs: N = 10^6 users, k = {K}, eps = {eps:g}")
    if mfl_grr is None:
        print(f"  {not_installed('multi-freq-ldpy')}")
    else:
        seed_numba(SEED)
        t0 = time.perf_counter()
        mfl_grr.GRR_Client(int(values6[0]), K, eps)
        compile_s["GRR_Client"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        mfl_grr.GRR_Aggregator_IBU([0, 1], K, eps)
        compile_s["GRR_Aggregator_IBU"] = time.perf_counter() - t0
        print(f"  multi-freq-ldpy: numba compilation (first call, not timed below): GRR_Client "
              f"{fmt_s(compile_s['GRR_Client'])}, IBU {fmt_s(compile_s['GRR_Aggregator_IBU'])}")
        theirs[("GRR", "client")], grr_reports = peer_seconds(lambda: mfl_client(values6, eps))
        theirs[("GRR", "MI")], _ = peer_seconds(lambda: mfl_aggregate(grr_reports, eps, "MI"))
        theirs[("GRR", "IBU")], _ = peer_seconds(lambda: mfl_aggregate(grr_reports, eps, "IBU"))
        t = theirs[("GRR", "client")]
        row("multi-freq-ldpy GRR_Client x 10^6 users", t,
            f"  ({1e6 * t / N_USERS:.3f} us per user)")
        row("multi-freq-ldpy GRR_Aggregator_MI", theirs[("GRR", "MI")])
        row("multi-freq-ldpy GRR_Aggregator_IBU", theirs[("GRR", "IBU")])
        # Their aggregators count the reports in a Python loop, then call the estimator.
        from multi_freq_ldpy.estimators.Histogram_estimator import IBU, MI
        rep = reported_counts(grr_reports).astype(float)
        a = np.full((K, K), q)
        np.fill_diagonal(a, p)
        theirs[("GRR", "MI alone")] = ours_seconds(lambda: MI(rep, N_USERS, p, q))
        theirs[("GRR", "IBU alone")] = ours_seconds(
            lambda: IBU(K, a, rep / N_USERS, 10000, 1e-12, "max_abs"))
        print(f"    of which the estimator alone, from the counts: MI "
              f"{fmt_s(theirs[('GRR', 'MI alone')])}, IBU {fmt_s(theirs[('GRR', 'IBU alone')])} "
              f"(ours: clip {fmt_s(ours['estimate clip'])}, ibu {fmt_s(ours['estimate ibu'])})")
    if DEClient is None:
        print(f"  {not_installed('pure-ldp')}")
    else:
        values6_1 = values6 + 1
        theirs[("DE", "client")], de_reports = peer_seconds(lambda: de_client(values6_1, eps))
        theirs[("DE", "DE")], _ = peer_seconds(lambda: de_aggregate(de_reports, eps))
        t = theirs[("DE", "client")]
        row("pure-ldp DEClient.privatise x 10^6 users", t,
            f"  ({1e6 * t / N_USERS:.3f} us per user)")
        row("pure-ldp DEServer aggregate_all + estimate_all", theirs[("DE", "DE")])
    print()

    # ------------------------------------------------------------- agreement
    agree = {}  # (check, eps) -> max in SE units
    mle_gap = {}  # eps -> max |ours ibu - exact MLE| / SE (reported, no target)
    their_ibu_gap = {}  # eps -> max |multi-freq-ldpy IBU - ours (the exact MLE)| / SE
    print(f"Agreement at N = 10^6 (max over the {K} categories, in units of "
          "SE_v = sqrt(krr_variance(n, eps)))")
    rng = np.random.default_rng(SEED + 1)  # its own stream: the timings drew a varying number
    for e in EPS_AGREE:
        se = np.sqrt(ldp.krr_variance(counts6, e))
        truth = counts6.astype(float)
        print(f"  eps = {e:g}: SE from {se.min():.0f} to {se.max():.0f} users "
              f"(true counts {counts6.min()} ... {counts6.max()})")
        ours_c = {m: ldp.krr_estimate(ldp.krr_perturb_counts(counts6, e, rng=rng), e, method=m)
                  for m in ("unbiased", "clip", "ibu")}
        rep_u = reported_counts(ldp.krr_perturb(values6, e, K, rng=rng))
        ours_u = {m: ldp.krr_estimate(rep_u, e, method=m) for m in ("unbiased", "clip", "ibu")}
        for m in ("unbiased", "clip", "ibu"):
            for how, est in (("from counts", ours_c[m]), ("per-user", ours_u[m])):
                z = float(np.max(np.abs(est - truth) / se))
                agree[(f"ours {how} {m} vs truth", e)] = z
                print(f"    ours {how:<11} {m:<8} vs truth {z:6.2f} SE")
        z = float(np.max(np.abs(ours_u["ibu"] - exact_mle(rep_u, e)) / se))
        mle_gap[e] = z
        print(f"    ours per-user    ibu      vs the exact MLE of the same reports {z:9.2e} SE "
              f"({int(np.sum(ours_u['unbiased'] < 0))} unbiased estimates < 0)")
        peers = []  # (label, estimate, our method)
        if mfl_grr is not None:
            seed_numba(SEED + int(10 * e))
            reports = mfl_client(values6, e)
            rep = reported_counts(reports)
            z = float(np.max(np.abs(ldp.krr_estimate(rep, e) - truth) / se))
            agree[("GRR_Client reports, unbiased (ours) vs truth", e)] = z
            print(f"    multi-freq-ldpy GRR_Client reports through our unbiased estimate vs "
                  f"truth {z:6.2f} SE")
            for which in ("MI", "IBU"):
                est = mfl_aggregate(reports, e, which)
                same = ldp.krr_estimate(rep, e, method=MATCH[which])
                z = float(np.max(np.abs(est - same) / se))
                if which == "IBU":
                    # Their EM stops at its iteration cap; ours is the exact limit (the MLE),
                    # so this gap is their distance from convergence: reported, no target.
                    their_ibu_gap[e] = z
                else:
                    agree[(f"GRR {which} same reports", e)] = z
                print(f"    multi-freq-ldpy GRR_Aggregator_{which:<3} vs ours {MATCH[which]:<5} "
                      f"on the same reports {z:9.2e} SE")
                peers.append((f"multi-freq-ldpy GRR {which}", est, MATCH[which]))
        if DEClient is not None:
            random.seed(SEED + int(10 * e))  # pure-ldp draws from Python's `random`
            reports = de_client(values6 + 1, e)
            est = de_aggregate(reports, e)
            same = ldp.krr_estimate(reported_counts(reports), e)
            z = float(np.max(np.abs(est - same) / se))
            agree[("DE same reports", e)] = z
            print(f"    pure-ldp DEServer estimate_all       vs ours unbiased on the same reports "
                  f"{z:9.2e} SE")
            peers.append(("pure-ldp DE", est, "unbiased"))
        for label, est, m in peers:
            zt = float(np.max(np.abs(est - truth) / se))
            zo = float(np.max(np.abs(est - ours_c[m]) / (np.sqrt(2) * se)))
            agree[(f"{label} vs truth", e)] = zt
            agree[(f"{label} vs ours", e)] = zo
            print(f"    {label:<24} vs truth {zt:6.2f} SE; vs ours from counts ({m}) "
                  f"{zo:6.2f} sqrt(2) SE")
        if not peers:
            for lib in ("multi-freq-ldpy", "pure-ldp"):
                print(f"    {not_installed(lib)}")
    print()

    # ---------------------------------------------------------------- summary
    print("Summary")

    def verdict(ok: bool) -> str:
        return "PASS" if ok else "FAIL"

    t = ours["counts 1e7"]
    print(f"  ours krr_perturb_counts + krr_estimate, N = 10^7  {fmt_s(t):>12}   "
          f"<= {TARGET_COUNTS_S:g} s: {verdict(t <= TARGET_COUNTS_S)}")
    t = ours["perturb 1e6"]
    print(f"  ours krr_perturb, N = 10^6                        {fmt_s(t):>12}   "
          f"<= {TARGET_PERTURB_S:g} s: {verdict(t <= TARGET_PERTURB_S)}")
    rows = []
    if mfl_grr is not None:
        rows += [("multi-freq-ldpy GRR + MI", ("GRR", "client"), ("GRR", "MI"), "clip"),
                 ("multi-freq-ldpy GRR + IBU", ("GRR", "client"), ("GRR", "IBU"), "ibu")]
    if DEClient is not None:
        rows += [("pure-ldp DE", ("DE", "client"), ("DE", "DE"), "unbiased")]
    if rows:
        print(f"  N = 10^6, eps = {eps:g}: theirs (client + aggregator) / ours (same estimator)")
    for label, client, aggregator, m in rows:
        total = theirs[client] + theirs[aggregator]
        r_user = total / ours[f"per-user {m}"]
        r_counts = total / ours[f"from counts {m}"]
        print(f"  {label:<26} {fmt_s(total):>10}  vs ours per-user "
              f"{fmt_s(ours[f'per-user {m}']):>10}: "
              f"{r_user:8.1f}x {verdict(r_user >= TARGET_RATIO)};  vs ours from counts "
              f"{fmt_s(ours[f'from counts {m}']):>9}: {r_counts:9.0f}x "
              f"{verdict(r_counts >= TARGET_RATIO)}   (target >= {TARGET_RATIO:g}x)")
    for label, client in (("multi-freq-ldpy GRR_Client", ("GRR", "client")),
                          ("pure-ldp DEClient.privatise", ("DE", "client"))):
        if client in theirs:
            print(f"  client alone: {label:<27} / krr_perturb "
                  f"{theirs[client] / ours['perturb 1e6']:8.1f}x (no target)")
    for lib in ("multi-freq-ldpy", "pure-ldp"):
        if lib in PEER_ERRORS:
            print(f"  {not_installed(lib)}")
    if their_ibu_gap:
        print("  multi-freq-ldpy IBU vs the exact MLE = ours (no target; their EM stops at "
              "its iteration cap): " + ", ".join(f"eps = {e:g}: {z:.2e} SE"
                                                 for e, z in their_ibu_gap.items()))
    if mle_gap:
        print("  ours ibu vs the exact MLE (no target): "
              + ", ".join(f"eps = {e:g}: {z:.2e} SE" for e, z in mle_gap.items()))
    if agree:
        same = {k: v for k, v in agree.items() if "same reports" in k[0]}
        sampling = {k: v for k, v in agree.items() if "same reports" not in k[0]}
        if same:
            worst = max(same, key=same.get)
            print(f"  agreement, same reports: max {same[worst]:.2e} SE ({worst[0]}, eps = "
                  f"{worst[1]:g})   <= {TARGET_SAME_SE:g} SE: "
                  f"{verdict(same[worst] <= TARGET_SAME_SE)}")
        worst = max(sampling, key=sampling.get)
        print(f"  agreement, sampling: max {sampling[worst]:.2f} SE ({worst[0]}, eps = "
              f"{worst[1]:g})   <= {TARGET_SAMPLING_SE:g} SE: "
              f"{verdict(sampling[worst] <= TARGET_SAMPLING_SE)}")
    return 0


if __name__ == "__main__":
    from _report import run

    run(main)
