"""Shared entry point of the benchmarks: they report, they never fail.

A benchmark script ends with ``run(main)``: ``main`` prints its figures; an
exception is printed as one line instead of a traceback, and the exit code is
always 0. (Scripts run from any directory: Python puts this folder on sys.path.)
"""

from __future__ import annotations

import sys


def fmt_s(x: float) -> str:
    """A duration in seconds, in s, ms or µs (written us) as fits."""
    if x != x:
        return "nan"
    if x >= 1:
        return f"{x:.3f} s"
    if x >= 1e-3:
        return f"{1e3 * x:.3f} ms"
    return f"{1e6 * x:.1f} us"


def run(main) -> None:
    try:
        main()
    except Exception as exc:  # report, never fail
        print(f"benchmark error: {type(exc).__name__}: {exc}")
    sys.exit(0)
