"""Shared entry point of the benchmarks: they report, they never fail.

A benchmark script ends with ``run(main)``: ``main`` prints its figures; an
exception is printed as one line instead of a traceback, and the exit code is
always 0. (Scripts run from any directory: Python puts this folder on sys.path.)
"""

from __future__ import annotations

import sys


def run(main) -> None:
    try:
        main()
    except Exception as exc:  # report, never fail
        print(f"benchmark error: {type(exc).__name__}: {exc}")
    sys.exit(0)
