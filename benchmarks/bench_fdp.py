"""Benchmark: every curve of the page "f-DP and Gaussian DP" on a 1,000-point α grid.

Run from the repository root:

    .venv/bin/python benchmarks/bench_fdp.py

Times what one rerun of the page computes with its default settings, on the page's grid
``np.linspace(0, 1, 1000)``: G_μ, f_ε,δ, the Laplace curve, k-RR and random substitution
(exact polygons evaluated on the grid), the truncated Laplace histogram mechanism, the group
curve for k = 5, the 50-fold composition of ε-DP with its CLT curve, δ(ε) of μ-GDP on 500
values of ε and the inverse μ(ε, δ), and the tightest μ and smallest ε of every curve.
Reports the median over 50 repeats of the whole set and of each item, against the target of
50 ms for the whole set. It reports; it never fails: the exit code is always 0.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dpcore import fdp  # noqa: E402

ALPHA = np.linspace(0.0, 1.0, 1000)
REPEATS = 50
TARGET_MS = 50.0
DELTA = 1e-5

# The page's defaults.
MU, SIGMA, G_SENS = 0.5, 1.5, 1.0
ED_EPS, ED_DELTA = 1.0, 0.0
LAP_B, LAP_SENS = 1.0, 1.0
KRR_EPS, KRR_K = 1.0, 4
RS_GAMMA, RS_N = 3.0, 10
HIST_LEVEL = 0.5
GROUP_K, GROUP_EPS = 5, 0.5
COMP_N, COMP_EPS = 50, 0.5
CONV_MU = 1.0


def _polygon(va, vb):
    return fdp.tradeoff_on_grid(va, vb, ALPHA), (va, vb)


def _tight(beta, vertices=None, gauss_mu=None):
    """Tightest μ and smallest ε at DELTA, as the page computes them."""
    if vertices is not None:
        va, vb = vertices
        return fdp.tightest_gdp_mu(va, vb), fdp.tightest_epsilon(va, vb, DELTA)
    mu = fdp.tightest_gdp_mu(ALPHA, beta)
    if gauss_mu is not None:
        return mu, fdp.gdp_epsilon(gauss_mu, DELTA)
    return mu, fdp.tightest_epsilon(ALPHA, beta, DELTA)


def item_gdp():
    return _tight(fdp.gdp_tradeoff(ALPHA, MU), gauss_mu=MU)


def item_epsdelta():
    beta = fdp.epsdelta_tradeoff(ALPHA, ED_EPS, ED_DELTA)
    kink = (1 - ED_DELTA) / (1 + np.exp(ED_EPS))
    va = np.array([0.0, kink, 1 - ED_DELTA, 1.0])
    vb = np.array([1 - ED_DELTA, kink, 0.0, 0.0])
    return beta, _tight(beta, vertices=(va, vb))


def item_gaussian():
    mu = G_SENS / SIGMA
    return _tight(fdp.gdp_tradeoff(ALPHA, mu), gauss_mu=mu)


def item_laplace():
    return _tight(fdp.laplace_tradeoff(ALPHA, LAP_SENS / LAP_B))


def item_krr():
    beta, vertices = _polygon(*fdp.krr_tradeoff(KRR_EPS, KRR_K))
    return beta, _tight(beta, vertices=vertices)


def item_substitution():
    beta, vertices = _polygon(*fdp.krr_tradeoff(float(np.log(RS_GAMMA)), RS_N))
    return beta, _tight(beta, vertices=vertices)


def item_histogram():
    return _tight(fdp.laplace_histogram_tradeoff(ALPHA, HIST_LEVEL))


def item_group():
    g = fdp.gdp_tradeoff(ALPHA, GROUP_K * MU)
    f = fdp.group_tradeoff(lambda a: fdp.laplace_tradeoff(a, GROUP_EPS), GROUP_K, ALPHA)
    return _tight(g, gauss_mu=GROUP_K * MU), _tight(f)


def item_composition():
    with np.errstate(invalid="ignore"):  # see the notes on fdp.tradeoff_discrete
        va, vb = fdp.composition_epsdp(COMP_EPS, COMP_N)
    exact = fdp.tradeoff_on_grid(va, vb, ALPHA)
    clt = fdp.clt_mu(COMP_EPS, COMP_N)
    clt_beta = fdp.gdp_tradeoff(ALPHA, clt)
    return float(np.max(np.abs(exact - clt_beta))), _tight(exact, vertices=(va, vb))


def item_conversions():
    delta = fdp.gdp_delta(np.linspace(0.0, 10.0, 500), CONV_MU)
    return delta, fdp.gdp_mu(1.0, DELTA)


ITEMS = {
    "G_mu (+ tightest mu, exact eps)": item_gdp,
    "f_eps,delta (polygon)": item_epsdelta,
    "Gaussian mechanism": item_gaussian,
    "Laplace mechanism": item_laplace,
    "k-RR (polygon on the grid)": item_krr,
    "random substitution": item_substitution,
    "histogram mechanism": item_histogram,
    f"group curves, k = {GROUP_K}": item_group,
    f"composition n = {COMP_N} + CLT curve": item_composition,
    "delta(eps) on 500 points + inverse mu": item_conversions,
}


def all_items():
    for fn in ITEMS.values():
        fn()


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def main() -> int:
    print(f"f-DP page curves on a {ALPHA.size:,}-point α grid, median of {REPEATS} repeats")
    print(f"python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    for _ in range(3):  # warm-up: imports, caches, first calls
        all_items()
    print()
    width = max(map(len, ITEMS))
    for name, fn in ITEMS.items():
        print(f"  {name:<{width}}  {median_ms(fn, REPEATS):8.3f} ms")
    total = median_ms(all_items, REPEATS)
    verdict = "PASS" if total <= TARGET_MS else "FAIL"
    print(f"\n  {'all curves together':<{width}}  {total:8.3f} ms   target <= {TARGET_MS:g} ms: "
          f"{verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
