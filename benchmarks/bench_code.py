"""What the Code button costs a page (issue 21): the time its code adds to a rerun, and the
time to write the script and the notebook when a file is asked for.

    .venv/bin/python benchmarks/bench_code.py              # every view tests/test_dpcode.py runs
    .venv/bin/python benchmarks/bench_code.py --reruns 9

Each view of ``tests/test_dpcode.py``'s CASES is opened in AppTest (in this process) and
rerun ``--reruns`` times. Per rerun it times, side by side:

- **rerun**: the page's whole script run (``AppTest.run``);
- **code**: what the Code button adds to it, ``PageKit.code_buttons`` (the view's
  ``dpcode.Program`` is built and the two download buttons registered; the files themselves
  are deferred to a click);
- **on click**: ``dpcode.script_text`` plus ``dpcode.notebook_text`` of that program, which
  Streamlit calls only when a file is downloaded.

It prints the medians, the ratio code / rerun, and PASS/FAIL of the target: code ≤ 20 ms a
rerun. Reports; does not assert.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from _report import fmt_s, run  # noqa: E402

TARGET_S = 0.020


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=5, help="timed reruns per view")
    parser.add_argument("--pages", default="", help="comma-separated page names (default all)")
    args = parser.parse_args()

    import dpcode
    import test_dpcode
    from conftest import LAST_KIT
    from ui.kit import PageKit

    ended, buttons = PageKit.end, PageKit.code_buttons
    spent: list[float] = []

    def end(self):
        LAST_KIT[:] = [self]
        return ended(self)

    def code_buttons(self):
        start = time.perf_counter()
        try:
            return buttons(self)
        finally:
            spent.append(time.perf_counter() - start)

    PageKit.end, PageKit.code_buttons = end, code_buttons
    # AppTest in bare mode warns of a missing ScriptRunContext on every page: not our figures
    logging.disable(logging.WARNING)
    wanted = {p for p in args.pages.split(",") if p}
    print(f"{'view':<38} {'rerun':>10} {'code':>10} {'code/rerun':>10} {'on click':>10}")
    worst = 0.0
    for name, (page, title, cases) in test_dpcode.CASES.items():
        if wanted and name not in wanted:
            continue
        for case, (query, upload) in cases.items():
            at, _ = test_dpcode.view(page, title, query, upload)
            reruns, codes = [], []
            for _ in range(args.reruns):
                spent.clear()
                start = time.perf_counter()
                at.run()
                reruns.append(time.perf_counter() - start)
                codes.append(sum(spent))
            kit = LAST_KIT[-1]
            if kit.code_builder is None:
                print(f"{name}-{case:<30} no code: {kit.code_problem}")
                continue
            program = kit.code_builder("http://localhost/view")
            clicks = []
            for _ in range(3):
                start = time.perf_counter()
                dpcode.script_text(program)
                dpcode.notebook_text(program)
                clicks.append(time.perf_counter() - start)
            rerun, code = statistics.median(reruns), statistics.median(codes)
            worst = max(worst, code)
            print(f"{name + '-' + case:<38} {fmt_s(rerun):>10} {fmt_s(code):>10} "
                  f"{code / rerun:>10.1%} {fmt_s(statistics.median(clicks)):>10}")
    verdict = "PASS" if worst <= TARGET_S else "FAIL"
    print(f"{verdict}: the Code button adds at most {fmt_s(worst)} to a rerun "
          f"(target ≤ {fmt_s(TARGET_S)})")


if __name__ == "__main__":
    run(main)
