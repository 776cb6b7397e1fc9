"""Benchmark: the parametric bootstrap homogeneity test (Algorithm 1) at M = 86, B = 1000.

Run from the repository root:

    .venv/bin/python benchmarks/bench_bootstrap.py

Times, side by side in one run, on two DP histograms of the shipped Korea population by
single year of age (86 bins):

* ours  -- ``dpcore.homogeneity.parametric_bootstrap_test`` (vectorised);
* loop  -- a literal per-replicate Python loop of Algorithm 1, written below in plain
           numpy: the baseline to beat;
* floor -- what numpy needs just to draw the same random numbers (one multinomial call
           and one Laplace call for all B replicates).

Before timing it checks that the loop and ours give null distributions with the same
mean (within a few Monte Carlo standard errors), so the baseline is a faithful
implementation. It reports; it never fails: the exit code is always 0.
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
from dpcore.homogeneity import estimate_null, parametric_bootstrap_test  # noqa: E402

M_EXPECTED = 86
B = 1000
N = 50_000
ALPHA1 = ALPHA2 = 0.1
SEED = 20220101
REPEATS = {"ours": 30, "floor": 30, "loop": 5}
TARGET_MS = 30.0
TARGET_FLOOR_RATIO = 1.5
CHECK_REPLICATES = 4000  # per implementation, for the faithfulness check
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


def make_input(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two Multinomial(N, p) histograms, each released with the Laplace mechanism."""
    p = korea_probabilities()
    c1, c2 = rng.multinomial(N, p, size=2)
    x1 = perturb_histogram(c1, ALPHA1, rng=rng)
    x2 = perturb_histogram(c2, ALPHA2, rng=rng)
    return x1, x2


# ------------------------------------------------------------------ the baseline


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


# --------------------------------------------------------------------- the floor


def floor_draws(n1: int, n2: int, p0: np.ndarray, n_boot: int, rng) -> None:
    """Only the random numbers Algorithm 1 needs, each drawn in one numpy call."""
    m = p0.size
    rng.multinomial([n1, n2], p0, size=(n_boot, 2))
    rng.laplace(size=(n_boot, 2, m))


# ----------------------------------------------------------------------- helpers


def null_statistics_of(result, n_boot: int) -> np.ndarray | None:
    """The bootstrap null statistics held by ``parametric_bootstrap_test``'s result."""
    names = (
        "null_statistics",
        "boot_statistics",
        "bootstrap_statistics",
        "null_distribution",
        "t_boot",
        "statistics",
    )
    candidates = [getattr(result, n, None) for n in names]
    if hasattr(result, "__dict__"):
        candidates += list(vars(result).values())
    elif hasattr(result, "_asdict"):
        candidates += list(result._asdict().values())
    for value in candidates:
        if value is None:
            continue
        arr = np.asarray(value)
        if arr.dtype.kind == "f" and arr.shape == (n_boot,):
            return arr
    return None


def median_ms(fn, repeats: int) -> float:
    fn()  # warm-up (imports, caches, first-call allocation)
    times = timeit.repeat(fn, number=1, repeat=repeats)
    return 1e3 * statistics.median(times)


def faithfulness_check(x1, x2) -> None:
    n = CHECK_REPLICATES
    t_loop = loop_null_statistics(x1, x2, ALPHA1, ALPHA2, n, np.random.default_rng(SEED + 1))
    res = parametric_bootstrap_test(x1, x2, ALPHA1, ALPHA2, n_boot=n, rng=SEED + 2)
    t_ours = null_statistics_of(res, n)
    print(f"Faithfulness check ({n} replicates each): mean of the bootstrap null statistic")
    if t_ours is None:
        print("  SKIPPED: the result of parametric_bootstrap_test exposes no array of")
        print(f"  {n} null statistics; result was {type(res).__name__}")
        return
    m_loop, m_ours = t_loop.mean(), t_ours.mean()
    se = np.sqrt(t_loop.var(ddof=1) / n + t_ours.var(ddof=1) / n)
    z = (m_ours - m_loop) / se
    ok = abs(z) <= CHECK_Z
    print(f"  loop  {m_loop:10.2f}  (sd {t_loop.std(ddof=1):.2f})")
    print(f"  ours  {m_ours:10.2f}  (sd {t_ours.std(ddof=1):.2f})")
    print(
        f"  difference {m_ours - m_loop:+.2f} = {z:+.2f} Monte Carlo SE "
        f"(|z| <= {CHECK_Z:g}): {'PASS' if ok else 'FAIL'}"
    )


# -------------------------------------------------------------------------- main


def main() -> int:
    print("Parametric bootstrap homogeneity test, Algorithm 1")
    print(
        f"python {platform.python_version()}, numpy {np.__version__}; "
        f"M = {M_EXPECTED}, B = {B}, N = {N:,} per histogram, "
        f"alpha1 = {ALPHA1}, alpha2 = {ALPHA2}"
    )
    x1, x2 = make_input(np.random.default_rng(SEED))
    null = estimate_null(x1, x2, ALPHA1, ALPHA2)
    n1, n2 = int(round(null.n1_hat)), int(round(null.n2_hat))
    p0 = np.asarray(null.p0_hat, dtype=float)
    print(
        f"input: sum x1 = {x1.sum():,.0f}, sum x2 = {x2.sum():,.0f}; "
        f"N1hat = {n1:,}, N2hat = {n2:,}"
    )
    print()

    faithfulness_check(x1, x2)
    print()

    rng_loop = np.random.default_rng(SEED + 3)
    rng_floor = np.random.default_rng(SEED + 4)
    seeds = iter(range(SEED + 10, SEED + 10_000))
    ms = {
        "ours": median_ms(
            lambda: parametric_bootstrap_test(x1, x2, ALPHA1, ALPHA2, n_boot=B, rng=next(seeds)),
            REPEATS["ours"],
        ),
        "loop": median_ms(
            lambda: loop_test(x1, x2, ALPHA1, ALPHA2, B, rng_loop), REPEATS["loop"]
        ),
        "floor": median_ms(lambda: floor_draws(n1, n2, p0, B, rng_floor), REPEATS["floor"]),
    }
    labels = {
        "ours": "ours  (parametric_bootstrap_test)",
        "loop": "loop  (per-replicate Python loop)",
        "floor": "floor (numpy random draws only)",
    }
    print(f"{'implementation':<36}{'repeats':>8}{'median ms':>12}")
    for key in ("ours", "loop", "floor"):
        print(f"{labels[key]:<36}{REPEATS[key]:>8}{ms[key]:>12.2f}")
    print()
    print(f"speed-up  loop / ours  = {ms['loop'] / ms['ours']:6.2f}x")
    print(f"overhead  ours / floor = {ms['ours'] / ms['floor']:6.2f}x")
    print()
    ok_time = ms["ours"] <= TARGET_MS
    ok_floor = ms["ours"] <= TARGET_FLOOR_RATIO * ms["floor"]
    rows = (
        (f"median <= {TARGET_MS:g} ms", f"{ms['ours']:.2f} ms", ok_time),
        (f"ours <= {TARGET_FLOOR_RATIO:g} x floor", f"{ms['ours'] / ms['floor']:.2f} x", ok_floor),
    )
    for name, value, ok in rows:
        print(f"target: {name:<24}{value:>12}   {'PASS' if ok else 'FAIL'}")
    return 0


if __name__ == "__main__":
    from _report import run

    run(main)
