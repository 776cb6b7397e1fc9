"""Benchmark: calibrating the Gaussian mechanism (``dpcore.gaussian``) against dp-accounting.

Run from the repository root, with the benchmark venv (it has Google's dp-accounting; see
benchmarks/README.md for how to make it):

    .venv-bench/bin/python benchmarks/bench_gaussian.py

or with the project venv, which has no dp-accounting: then only our timings are printed,
and the comparison says "dp-accounting not installed: see benchmarks/README.md".

    .venv/bin/python benchmarks/bench_gaussian.py

What it measures, on the grid eps in {0.01, 0.1, 0.5, 1, 2, 5, 10, 50} x
delta in {1e-12, 1e-9, 1e-6, 1e-5, 1e-3, 0.05, 0.5} (56 settings), sensitivity 1:

* ours   -- the time per call of ``solve_gaussian(eps=, delta=, sensitivity=1.0,
            method="analytic")`` (sigma missing), the exact analytic calibration of
            Balle & Wang (2018); for each setting the median of ``timeit.repeat``, then the
            median and the worst of those per-setting medians. Target: <= 1 ms per solve,
            at the worst setting. Also the other solves (eps, delta, sensitivity missing),
            the tail and classical calibrations, ``gaussian_epsilon(delta, sigma)`` and
            ``calibration_table(eps, delta)`` (what one rerun of the page computes).
* theirs -- ``dp_accounting.gaussian_mechanism.get_sigma_gaussian(eps, delta, tol=1e-12)``
            and ``get_epsilon_gaussian(sigma, delta)``, the established implementation of
            the same mechanism, timed the same way; the ratio theirs / ours of the medians.
* agreement -- max over the grid of |ours - theirs| / theirs, for sigma and for eps
            (target <= 1e-9). dp-accounting's ``tol`` is an absolute tolerance on sigma (or
            eps), so the comparison is repeated with a tighter tol; when mpmath is
            importable (dp-accounting depends on it) both are also compared with a
            40-digit reference solution.

It reports; it never fails: the exit code is always 0.
"""

from __future__ import annotations

import itertools
import os
import platform
import statistics
import sys
import timeit
from pathlib import Path

import numpy as np
import scipy

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dpcore import gaussian  # noqa: E402

try:
    from dp_accounting import gaussian_mechanism as dpa
except ImportError:  # the project venv: see benchmarks/README.md
    dpa = None

EPS = (0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 50.0)
DELTA = (1e-12, 1e-9, 1e-6, 1e-5, 1e-3, 0.05, 0.5)
GRID = tuple(itertools.product(EPS, DELTA))
REPEATS = 5  # timeit repeats per setting; each repeat runs the call `number` times
REPEAT_SECONDS = 2e-3  # `number` is chosen so that one repeat takes about this long
MAX_NUMBER = 50
TARGET_SOLVE_MS = 1.0
TARGET_REL_DIFF = 1e-9
THEIR_TOL = 1e-12  # dp-accounting's default, an absolute tolerance on sigma or eps
TIGHT_TOL = 1e-15  # their brentq's rtol (4 x machine eps) then dominates for sigma > 0.25
REFERENCE_DIGITS = 40
NOT_INSTALLED = "dp-accounting not installed: see benchmarks/README.md"


# ----------------------------------------------------------------------- timing


def per_call_ms(fn) -> float:
    """Median over REPEATS of the time per call, in ms (``timeit.repeat``)."""
    fn()  # warm-up (imports, caches, first-call allocation)
    once = min(timeit.repeat(fn, number=1, repeat=3))
    number = max(1, min(MAX_NUMBER, int(REPEAT_SECONDS / max(once, 1e-9))))
    return 1e3 * statistics.median(timeit.repeat(fn, number=number, repeat=REPEATS)) / number


def time_grid(make_call) -> dict:
    """Per-setting median ms of ``make_call(eps, delta)()``; errors are reported, not raised."""
    out, errors = {}, []
    for eps, delta in GRID:
        try:
            out[(eps, delta)] = per_call_ms(make_call(eps, delta))
        except Exception as exc:  # report, never fail
            errors.append(f"eps = {eps:g}, delta = {delta:g}: {type(exc).__name__}: {exc}")
    for line in errors[:5]:
        print(f"    error at {line}")
    if len(errors) > 5:
        print(f"    ... and {len(errors) - 5} more errors")
    return out


def summary(ms: dict) -> tuple[float, float, tuple]:
    """Median and worst of the per-setting medians, and the worst setting."""
    if not ms:
        return float("nan"), float("nan"), (float("nan"), float("nan"))
    worst = max(ms, key=ms.get)
    return statistics.median(ms.values()), ms[worst], worst


def print_grid(title: str, ms: dict) -> None:
    """An eps x delta table of per-setting medians, in microseconds."""
    print(f"  {title} (us per call, median of {REPEATS} repeats)")
    corner = "eps \\ delta"
    print(f"    {corner:>11}" + "".join(f"{d:>9g}" for d in DELTA))
    for eps in EPS:
        cells = "".join(
            f"{1e3 * ms[(eps, d)]:>9.0f}" if (eps, d) in ms else f"{'error':>9}" for d in DELTA
        )
        print(f"    {eps:>11g}{cells}")


def fmt_ms(x: float) -> str:
    return f"{x:.3f} ms"


# -------------------------------------------------------------------- agreement


def max_rel_diff(ours: dict, theirs: dict) -> tuple[float, tuple]:
    """max |ours - theirs| / |theirs| over the settings both have, and where."""
    rel = {k: abs(ours[k] - theirs[k]) / abs(theirs[k]) for k in ours if k in theirs}
    if not rel:
        return float("nan"), (float("nan"), float("nan"))
    where = max(rel, key=rel.get)
    return rel[where], where


def reference_solutions(sigma_ours: dict, eps_ours: dict):
    """40-digit sigma(eps, delta) and eps(delta, sigma) by mpmath, or None without mpmath."""
    try:
        import mpmath as mp
    except ImportError:
        return None
    mp.mp.dps = REFERENCE_DIGITS

    def log_delta(mu, eps):  # Balle & Wang (2018), Theorem 8, with no cancellation at 40 digits
        return mp.log(mp.ncdf(mu / 2 - eps / mu) - mp.exp(eps) * mp.ncdf(-mu / 2 - eps / mu))

    sigma_ref, eps_ref = {}, {}
    for (eps, delta), sigma in sigma_ours.items():
        e, ld = mp.mpf(eps), mp.log(mp.mpf(delta))
        t = mp.findroot(lambda t: log_delta(mp.exp(t), e) - ld, -mp.log(mp.mpf(sigma)))
        sigma_ref[(eps, delta)] = float(mp.exp(-t))
    for (eps, delta), solved in eps_ours.items():  # eps at the sigma ours solved for
        mu, ld = 1 / mp.mpf(sigma_ours[(eps, delta)]), mp.log(mp.mpf(delta))
        eps_ref[(eps, delta)] = float(mp.findroot(lambda x: log_delta(mu, x) - ld, mp.mpf(solved)))
    return sigma_ref, eps_ref


def values_on_grid(fn) -> dict:
    out = {}
    for eps, delta in GRID:
        try:
            out[(eps, delta)] = float(fn(eps, delta))
        except Exception as exc:  # report, never fail
            print(f"    error at eps = {eps:g}, delta = {delta:g}: {type(exc).__name__}: {exc}")
    return out


# -------------------------------------------------------------------------- main


def machine_info() -> None:
    print(f"machine: {platform.platform()}, {platform.machine()}, "
          f"{os.cpu_count()} logical CPUs, processor {platform.processor() or 'unknown'}")
    versions = f"python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}"
    if dpa is not None:
        from importlib import metadata

        try:
            versions += f", dp-accounting {metadata.version('dp-accounting')}"
        except metadata.PackageNotFoundError:
            versions += ", dp-accounting (version unknown)"
    print(versions)


def main() -> int:
    print("Gaussian mechanism calibration: dpcore.gaussian vs dp-accounting")
    machine_info()
    print(f"grid: {len(EPS)} eps x {len(DELTA)} delta = {len(GRID)} settings, sensitivity 1; "
          f"per setting the median of {REPEATS} timeit repeats")
    print()

    # The settings' exact sigma (ours), used as input by the solves that need a sigma.
    sigma = values_on_grid(lambda e, d: gaussian.gaussian_sigma(e, d))
    sig = lambda e, d: sigma.get((e, d), 1.0)  # noqa: E731

    rows = {}  # name -> per-setting medians

    print("Ours: dpcore.gaussian")
    rows["solve sigma, analytic"] = time_grid(
        lambda e, d: lambda: gaussian.solve_gaussian(eps=e, delta=d, sensitivity=1.0,
                                                     method="analytic"))
    print_grid('solve_gaussian(eps, delta, sensitivity=1.0, method="analytic")',
               rows["solve sigma, analytic"])
    rows["solve eps, analytic"] = time_grid(
        lambda e, d: lambda: gaussian.solve_gaussian(delta=d, sigma=sig(e, d), sensitivity=1.0))
    rows["solve delta, analytic"] = time_grid(
        lambda e, d: lambda: gaussian.solve_gaussian(eps=e, sigma=sig(e, d), sensitivity=1.0))
    rows["solve sensitivity, analytic"] = time_grid(
        lambda e, d: lambda: gaussian.solve_gaussian(eps=e, delta=d, sigma=1.0))
    rows["solve sigma, tail"] = time_grid(
        lambda e, d: lambda: gaussian.solve_gaussian(eps=e, delta=d, sensitivity=1.0,
                                                     method="tail"))
    rows["solve sigma, classical"] = time_grid(
        lambda e, d: lambda: gaussian.solve_gaussian(eps=e, delta=d, sensitivity=1.0,
                                                     method="classical"))
    rows["gaussian_epsilon(delta, sigma)"] = time_grid(
        lambda e, d: lambda: gaussian.gaussian_epsilon(d, sig(e, d)))
    rows["calibration_table(eps, delta)"] = time_grid(
        lambda e, d: lambda: gaussian.calibration_table(e, d))
    print()

    theirs = {}
    if dpa is None:
        print(f"Theirs: {NOT_INSTALLED}")
    else:
        print("Theirs: dp_accounting.gaussian_mechanism")
        theirs["get_sigma_gaussian"] = time_grid(
            lambda e, d: lambda: dpa.get_sigma_gaussian(e, d, tol=THEIR_TOL))
        print_grid(f"get_sigma_gaussian(eps, delta, tol={THEIR_TOL:g})",
                   theirs["get_sigma_gaussian"])
        theirs["get_epsilon_gaussian"] = time_grid(
            lambda e, d: lambda: dpa.get_epsilon_gaussian(sig(e, d), d, tol=THEIR_TOL))
    print()

    # ---------------------------------------------------------------- agreement
    agreement = {}  # name -> (max rel diff, where)
    print("Agreement (max over the grid of |ours - theirs| / theirs)")
    if dpa is None:
        print(f"  {NOT_INSTALLED}")
    else:
        eps_ours = values_on_grid(lambda e, d: gaussian.gaussian_epsilon(d, sig(e, d)))
        for tol in (THEIR_TOL, TIGHT_TOL):
            s_th = values_on_grid(lambda e, d: dpa.get_sigma_gaussian(e, d, tol=tol))
            e_th = values_on_grid(lambda e, d: dpa.get_epsilon_gaussian(sig(e, d), d, tol=tol))
            for name, ours_v, th_v in (("sigma", sigma, s_th), ("eps", eps_ours, e_th)):
                rel, (we, wd) = max_rel_diff(ours_v, th_v)
                agreement[(name, tol)] = (rel, (we, wd))
                if (we, wd) not in th_v:
                    print(f"  {name:<5} tol = {tol:g}: no common settings")
                    continue
                # Their brentq stops within xtol = tol (absolute) + rtol = 4 eps (relative).
                bound = tol / abs(th_v[(we, wd)]) + 4 * np.finfo(float).eps
                print(f"  {name:<5} tol = {tol:g}: max rel diff {rel:.2e} at eps = {we:g}, "
                      f"delta = {wd:g} (ours {ours_v[(we, wd)]:.17g}, "
                      f"theirs {th_v[(we, wd)]:.17g}); their tolerance there is "
                      f"{bound:.1e} relative: "
                      + ("within it, so the difference is their tolerance" if rel <= bound
                         else "beyond it: rounding in evaluating log delta, see the mpmath "
                              "reference below"))
        ref = reference_solutions(sigma, eps_ours)
        if ref is None:
            print("  (mpmath not importable: no high-precision reference)")
        else:
            s_tight = values_on_grid(lambda e, d: dpa.get_sigma_gaussian(e, d, tol=TIGHT_TOL))
            e_tight = values_on_grid(
                lambda e, d: dpa.get_epsilon_gaussian(sig(e, d), d, tol=TIGHT_TOL))
            print(f"  against a {REFERENCE_DIGITS}-digit mpmath solution, max rel error over "
                  "the grid:")
            for name, ours_v, th_v, ref_v in (("sigma", sigma, s_tight, ref[0]),
                                              ("eps", eps_ours, e_tight, ref[1])):
                r_o, w_o = max_rel_diff(ours_v, ref_v)
                r_t, w_t = max_rel_diff(th_v, ref_v)
                agreement[(name, "ref ours")] = (r_o, w_o)
                agreement[(name, "ref theirs")] = (r_t, w_t)
                print(f"    {name:<5} ours {r_o:.2e} (eps = {w_o[0]:g}, delta = {w_o[1]:g});  "
                      f"dp-accounting tol = {TIGHT_TOL:g} {r_t:.2e} "
                      f"(eps = {w_t[0]:g}, delta = {w_t[1]:g})")
    print()

    # ------------------------------------------------------------------ summary
    print("Summary: ms per call; median and worst of the per-setting medians over "
          f"{len(GRID)} settings")
    head = f"  {'row':<48}{'median':>11}{'worst':>11}   {'worst at (eps, delta)':<23}target"
    print(head)
    print("  " + "-" * (len(head) - 2))

    def line(label, ms, target=None):
        med, worst, (we, wd) = summary(ms)
        where = f"({we:g}, {wd:g})"
        verdict = ""
        if target is not None:
            ok = worst <= target and len(ms) == len(GRID)
            verdict = f"worst <= {target:g} ms: {'PASS' if ok else 'FAIL'}"
        print(f"  {label:<48}{med:>8.3f} ms{worst:>8.3f} ms   {where:<23}{verdict}")
        return med

    med_ours = line("ours   solve_gaussian sigma, analytic", rows["solve sigma, analytic"],
                    TARGET_SOLVE_MS)
    for key in ("solve eps, analytic", "solve delta, analytic", "solve sensitivity, analytic",
                "solve sigma, tail", "solve sigma, classical"):
        line(f"ours   solve_gaussian {key.removeprefix('solve ')}", rows[key], TARGET_SOLVE_MS)
    med_eps_ours = line("ours   gaussian_epsilon(delta, sigma)",
                        rows["gaussian_epsilon(delta, sigma)"])
    line("ours   calibration_table(eps, delta)", rows["calibration_table(eps, delta)"])
    if dpa is None:
        print(f"  theirs: {NOT_INSTALLED}")
    else:
        med_th = line(f"theirs get_sigma_gaussian(tol={THEIR_TOL:g})",
                      theirs["get_sigma_gaussian"])
        med_eps_th = line(f"theirs get_epsilon_gaussian(tol={THEIR_TOL:g})",
                          theirs["get_epsilon_gaussian"])
        print()
        print(f"  {'ratio theirs / ours, sigma solve (medians)':<48}{med_th / med_ours:>10.2f}x")
        print(f"  {'ratio theirs / ours, eps solve (medians)':<48}"
              f"{med_eps_th / med_eps_ours:>10.2f}x")
        for name in ("sigma", "eps"):
            rel, _ = agreement.get((name, THEIR_TOL), (float("nan"), None))
            ok = rel <= TARGET_REL_DIFF
            print(f"  {'max rel diff ' + name + f', their tol = {THEIR_TOL:g}':<48}{rel:>11.2e}"
                  f"{'':>37}<= {TARGET_REL_DIFF:g}: {'PASS' if ok else 'FAIL'}")
            rel, _ = agreement.get((name, TIGHT_TOL), (float("nan"), None))
            print(f"  {'max rel diff ' + name + f', their tol = {TIGHT_TOL:g}':<48}{rel:>11.2e}")
            if (name, "ref ours") in agreement:
                r_o = agreement[(name, "ref ours")][0]
                r_t = agreement[(name, "ref theirs")][0]
                print(f"  {'max rel error ' + name + ' vs mpmath: ours / theirs':<48}"
                      f"{r_o:>11.2e} / {r_t:.2e}")
    return 0


if __name__ == "__main__":
    from _report import run

    run(main)
