"""Benchmark: the two bootstrap homogeneity tests at M = 86, B = 1000.

Run from the repository root:

    .venv/bin/python benchmarks/bench_bootstrap.py

Times, side by side in one run, on two DP histograms of the shipped Korea population by
single year of age (86 bins), for each of two inputs:

* A -- N = 50,000 per histogram, alpha1 = alpha2 = 0.1 (the input this benchmark always had);
* B -- N = (1,000, 1,000), alpha = (0.01, 0.1): unequal privacy levels and a small alpha,
       where Algorithm 1's N-hat is biased upward and its level drifts (see the module
       docstring of ``dpcore.homogeneity``); the normal-score test is meant for this.

Rows per input:

* ours   -- ``dpcore.homogeneity.parametric_bootstrap_test`` (Algorithm 1, vectorised);
* normal -- ``dpcore.homogeneity.normal_score_test`` (refits p0-hat, N-hat and the normal
            scores on every replicate);
* loop   -- a literal per-replicate Python loop of Algorithm 1, written below in plain
            numpy: the baseline to beat;
* floor  -- what numpy needs just to draw the random numbers a test needs (one multinomial
            call and one Laplace call for all B replicates), at Algorithm 1's N-hat and
            at the normal-score test's N-hat (they differ on input B).

Before timing it checks, on each input, that the loop and ours give null distributions
with the same mean (4,000 replicates each), and that ``normal_score_test`` does too
against a literal loop of its own definition (1,000 each), within a few Monte Carlo
standard errors. It reports; it never fails: the exit code is always 0.
"""

from __future__ import annotations

import platform
import statistics
import sys
import timeit
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dpcore.histogram import perturb_histogram  # noqa: E402
from dpcore.homogeneity import (  # noqa: E402
    contrast_statistic,
    estimate_null,
    normal_score_test,
    parametric_bootstrap_test,
)

M_EXPECTED = 86
B = 1000
# name: (N1, N2, alpha1, alpha2)
INPUTS = {"A": (50_000, 50_000, 0.1, 0.1), "B": (1_000, 1_000, 0.01, 0.1)}
SEED = 20220101
REPEATS = {"ours": 30, "normal": 10, "loop": 5, "floor": 30, "floor_ns": 30}
TARGET_MS = 30.0
TARGET_FLOOR_RATIO = 1.5
TARGET_NORMAL_MS = 1000.0
CHECK_REPLICATES = 4000  # per implementation, Algorithm 1's faithfulness check
CHECK_REPLICATES_NS = 1000  # per implementation, the normal-score test's
CHECK_Z = 4.0  # allowed |difference of means| in Monte Carlo standard errors


# --------------------------------------------------------------------------- input


def korea_probabilities() -> np.ndarray:
    """Korea 2020 population by single year of age (86 bins), normalised."""
    try:
        from dpcore.datasets import age_histogram

        counts = np.asarray(age_histogram("korea", 1), dtype=float)
    except (ImportError, AttributeError):
        import pandas as pd

        counts = pd.read_csv(ROOT / "dpcore" / "data" / "population_age_2020.csv")[
            "korea"
        ].to_numpy(dtype=float)
    counts = counts.ravel()
    if counts.size != M_EXPECTED:
        print(f"note: expected {M_EXPECTED} bins, the Korea table has {counts.size}")
    return counts / counts.sum()


def make_input(rng: np.random.Generator, n1, n2, alpha1, alpha2):
    """Multinomial(N_i, p) histograms, each released with the Laplace mechanism."""
    c1, c2 = rng.multinomial([n1, n2], korea_probabilities())
    return perturb_histogram(c1, alpha1, rng=rng), perturb_histogram(c2, alpha2, rng=rng)


# ------------------------------------------------------------------ the baselines


def chi2_statistic(y1: np.ndarray, y2: np.ndarray, n1: float, n2: float) -> float:
    """sum_ij (Y_ij - E_ij)^2 / E_ij, E_ij = N_i (Y_1j + Y_2j) / (N_1 + N_2).

    Bins where Y_1j + Y_2j = 0 are skipped.
    """
    col = y1 + y2
    keep = col > 0
    col = col[keep]
    e1 = n1 * col / (n1 + n2)
    e2 = n2 * col / (n1 + n2)
    return float(np.sum((y1[keep] - e1) ** 2 / e1) + np.sum((y2[keep] - e2) ** 2 / e2))


def loop_null_statistics(x1, x2, alpha1, alpha2, n_boot, rng) -> np.ndarray:
    """Algorithm 1, one replicate at a time: the bootstrap null statistics T_1..T_B."""
    null = estimate_null(x1, x2, alpha1, alpha2)
    n1, n2 = int(round(null.n1_hat)), int(round(null.n2_hat))
    p0 = np.asarray(null.p0_hat, dtype=float)
    m = p0.size
    b1, b2 = 2.0 / alpha1, 2.0 / alpha2
    t = np.empty(n_boot)
    for b in range(n_boot):
        u1 = rng.multinomial(n1, p0)
        u2 = rng.multinomial(n2, p0)
        y1 = np.maximum(0.0, u1 + rng.laplace(0.0, b1, m))
        y2 = np.maximum(0.0, u2 + rng.laplace(0.0, b2, m))
        t[b] = chi2_statistic(y1, y2, n1, n2)
    return t


def loop_test(x1, x2, alpha1, alpha2, n_boot, rng) -> float:
    """The whole test with the loop baseline: returns the bootstrap p-value."""
    t_obs = chi2_statistic(x1, x2, x1.sum(), x2.sum())  # line 2: n_i = sum_j X_ij
    t = loop_null_statistics(x1, x2, alpha1, alpha2, n_boot, rng)
    return float(np.mean(t > t_obs))  # line 11


def loop_normal_score_null(n1, n2, p0, alpha1, alpha2, n_boot, rng) -> np.ndarray:
    """The normal-score test's null statistics by its definition, one replicate at a time.

    U_i ~ Multinomial(n_i, p0), Y_i = max(0, U_i + Lap(2/alpha_i)), and
    T_b = ``contrast_statistic(Y_1, Y_2, alpha1, alpha2)`` (estimates refitted on Y).
    """
    m = p0.size
    t = np.empty(n_boot)
    for b in range(n_boot):
        y1 = np.maximum(0.0, rng.multinomial(n1, p0) + rng.laplace(0.0, 2.0 / alpha1, m))
        y2 = np.maximum(0.0, rng.multinomial(n2, p0) + rng.laplace(0.0, 2.0 / alpha2, m))
        t[b] = contrast_statistic(y1, y2, alpha1, alpha2)
    return t


# --------------------------------------------------------------------- the floor


def floor_draws(n1: int, n2: int, p0: np.ndarray, n_boot: int, rng) -> None:
    """Only the random numbers a bootstrap test needs, each drawn in one numpy call."""
    m = p0.size
    rng.multinomial([n1, n2], p0, size=(n_boot, 2))
    rng.laplace(size=(n_boot, 2, m))


# ----------------------------------------------------------------------- helpers


def median_ms(fn, repeats: int) -> float:
    fn()  # warm-up (imports, caches, first-call allocation)
    times = timeit.repeat(fn, number=1, repeat=repeats)
    return 1e3 * statistics.median(times)


def compare_means(label: str, name_ref: str, t_ref, name_ours: str, t_ours) -> None:
    m_ref, m_ours = t_ref.mean(), t_ours.mean()
    se = np.sqrt(t_ref.var(ddof=1) / t_ref.size + t_ours.var(ddof=1) / t_ours.size)
    z = (m_ours - m_ref) / se
    verdict = "PASS" if abs(z) <= CHECK_Z else "FAIL"
    print(
        f"  {label:<13}{name_ref} {m_ref:9.2f} (sd {t_ref.std(ddof=1):6.2f})  {name_ours} "
        f"{m_ours:9.2f} (sd {t_ours.std(ddof=1):6.2f})  z = {z:+.2f}  {verdict}"
    )


def faithfulness_checks(key, x1, x2, a1, a2, est, ns) -> None:
    n = CHECK_REPLICATES
    t_loop = loop_null_statistics(x1, x2, a1, a2, n, np.random.default_rng(SEED + 1))
    res = parametric_bootstrap_test(x1, x2, a1, a2, n_boot=n, rng=SEED + 2)
    compare_means(f"{key} Alg. 1", "loop", t_loop, "ours  ", res.null_distribution)
    n = CHECK_REPLICATES_NS
    t_lit = loop_normal_score_null(ns.n1_hat, ns.n2_hat, np.asarray(ns.p0_hat), a1, a2, n,
                                   np.random.default_rng(SEED + 5))
    res = normal_score_test(x1, x2, a1, a2, n_boot=n, rng=SEED + 6)
    compare_means(f"{key} normal", "loop", t_lit, "normal", res.null_distribution)


# -------------------------------------------------------------------------- main

LABELS = {
    "ours": "ours   (parametric_bootstrap_test)",
    "normal": "normal (normal_score_test)",
    "loop": "loop   (Algorithm 1, Python loop)",
    "floor": "floor  (draws at Alg. 1's N-hat)",
    "floor_ns": "floor  (draws at normal's N-hat)",
}


def time_input(x1, x2, a1, a2, est, ns) -> dict[str, float]:
    rng_loop = np.random.default_rng(SEED + 3)
    rng_floor = np.random.default_rng(SEED + 4)
    seeds = iter(range(SEED + 10, SEED + 10_000))
    p0, p0_ns = np.asarray(est.p0_hat, dtype=float), np.asarray(ns.p0_hat, dtype=float)
    fns = {
        "ours": lambda: parametric_bootstrap_test(x1, x2, a1, a2, n_boot=B, rng=next(seeds)),
        "normal": lambda: normal_score_test(x1, x2, a1, a2, n_boot=B, rng=next(seeds)),
        "loop": lambda: loop_test(x1, x2, a1, a2, B, rng_loop),
        "floor": lambda: floor_draws(est.n1_hat, est.n2_hat, p0, B, rng_floor),
        "floor_ns": lambda: floor_draws(ns.n1_hat, ns.n2_hat, p0_ns, B, rng_floor),
    }
    return {key: median_ms(fn, REPEATS[key]) for key, fn in fns.items()}


def main() -> int:
    print("Bootstrap homogeneity tests: Algorithm 1 and the normal-score test")
    print(f"python {platform.python_version()}, numpy {np.__version__}; M = {M_EXPECTED}, B = {B}")
    data = {}
    for key, (n1, n2, a1, a2) in INPUTS.items():
        x1, x2 = make_input(np.random.default_rng(SEED), n1, n2, a1, a2)
        est = estimate_null(x1, x2, a1, a2)
        ns = normal_score_test(x1, x2, a1, a2, n_boot=1, rng=0).estimate
        data[key] = (x1, x2, a1, a2, est, ns)
        print(
            f"input {key}: N = ({n1:,}, {n2:,}), alpha = ({a1:g}, {a2:g}); sum x = "
            f"({x1.sum():,.0f}, {x2.sum():,.0f}); N-hat Alg. 1 = ({est.n1_hat:,}, "
            f"{est.n2_hat:,}), normal = ({ns.n1_hat:,}, {ns.n2_hat:,})"
        )
    print()

    print(
        f"Faithfulness checks: mean of the bootstrap null statistic, literal loop vs ours "
        f"({CHECK_REPLICATES} replicates each for Algorithm 1, {CHECK_REPLICATES_NS} for "
        f"the normal-score test; |z| <= {CHECK_Z:g} Monte Carlo SE)"
    )
    for key, args in data.items():
        faithfulness_checks(key, *args)
    print()

    ms = {key: time_input(*args) for key, args in data.items()}
    print(f"{'input':<7}{'implementation':<37}{'repeats':>8}{'median ms':>12}")
    for key in INPUTS:
        for row, label in LABELS.items():
            print(f"{key:<7}{label:<37}{REPEATS[row]:>8}{ms[key][row]:>12.2f}")
    print()
    ratios = (
        ("speed-up  loop / ours          ", "loop", "ours"),
        ("overhead  ours / floor         ", "ours", "floor"),
        ("cost      normal / ours        ", "normal", "ours"),
        ("overhead  normal / floor       ", "normal", "floor_ns"),
    )
    for name, num, den in ratios:
        values = "   ".join(f"{key} {ms[key][num] / ms[key][den]:7.2f}x" for key in INPUTS)
        print(f"{name}{values}")
    print("(normal / floor uses the floor at the normal-score test's own N-hat)")
    print()
    for key in INPUTS:
        t = ms[key]
        rows = (
            (f"median <= {TARGET_MS:g} ms", f"{t['ours']:.2f} ms", t["ours"] <= TARGET_MS),
            (
                f"ours <= {TARGET_FLOOR_RATIO:g} x floor",
                f"{t['ours'] / t['floor']:.2f} x",
                t["ours"] <= TARGET_FLOOR_RATIO * t["floor"],
            ),
            (
                f"normal_score_test median <= {TARGET_NORMAL_MS:g} ms at M = 86, B = 1000",
                f"{t['normal']:.2f} ms",
                t["normal"] <= TARGET_NORMAL_MS,
            ),
        )
        for name, value, ok in rows:
            print(f"target {key}: {name:<58}{value:>12}   {'PASS' if ok else 'FAIL'}")
    return 0


if __name__ == "__main__":
    from _report import run

    run(main)
