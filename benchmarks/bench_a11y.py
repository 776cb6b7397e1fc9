"""What accessibility and presenting mode cost a page (issue 24): the time they add to a
rerun, side by side with the rerun itself.

    .venv/bin/python benchmarks/bench_a11y.py              # every page at its defaults
    .venv/bin/python benchmarks/bench_a11y.py --reruns 9 --pages ldp,fdp

Each page is opened in AppTest (in this process), at its defaults, and rerun ``--reruns``
times, once as usual and once in presenting mode (``?present=1``). Per rerun it times:

- **rerun**: the page's whole script run (``AppTest.run``), as usual;
- **a11y**: what the charts' accessibility adds to it: each chart's one-sentence summary
  (``dpviz.describe.figure_summary``), its text-and-table expander (closed: the table is
  made only when it is opened) and the end-of-page script that names the charts and fills
  the live region (``ui.internals.describe_charts``);
- **present**: the same rerun in presenting mode, and its ratio to the usual rerun (each
  chart is drawn from ``dpviz.style.presented``'s larger copy).
- **table**: making one chart's table when its expander is opened
  (``dpviz.describe.figure_table``), the slowest chart of the page.

It prints the medians and PASS/FAIL of the target: a11y ≤ 10% of a rerun and presenting
≤ 1.10 × the usual rerun. Reports; does not assert.
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

A11Y_SHARE = 0.10
PRESENT_RATIO = 1.10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=5, help="timed reruns per page and mode")
    parser.add_argument("--pages", default="", help="comma-separated URL paths (default all)")
    args = parser.parse_args()

    import dpviz
    from conftest import LAST_KIT, open_page, routed_pages
    from ui import internals
    from ui.kit import PageKit

    spent: list[float] = []

    def timed(owner, name, static=False):
        original = getattr(owner, name)

        def wrapper(*a, **k):
            start = time.perf_counter()
            try:
                return original(*a, **k)
            finally:
                spent.append(time.perf_counter() - start)
        setattr(owner, name, staticmethod(wrapper) if static else wrapper)

    ended = PageKit.end

    def end(self):
        LAST_KIT[:] = [self]
        return ended(self)

    PageKit.end = end
    timed(dpviz.describe, "figure_summary")
    timed(PageKit, "chart_text", static=True)
    timed(internals, "describe_charts")
    logging.disable(logging.WARNING)  # AppTest's bare-mode warnings are not our figures
    wanted = {p for p in args.pages.split(",") if p}
    print(f"{'page':<22} {'charts':>6} {'rerun':>9} {'a11y':>9} {'a11y/rerun':>10} "
          f"{'present':>9} {'ratio':>7} {'table':>9}")
    worst_share, worst_ratio = 0.0, 0.0
    for routed in routed_pages():
        if not routed.url_path or (wanted and routed.url_path not in wanted):
            continue
        # The two modes' reruns alternate, so both see the same machine.
        ats = {mode: open_page(routed.script, None, query, timeout=300)
               for mode, query in (("present", {"present": "1"}), ("usual", {}))}
        reruns = {mode: [] for mode in ats}
        extra = {mode: [] for mode in ats}
        for _ in range(args.reruns):
            for mode, at in ats.items():
                spent.clear()
                start = time.perf_counter()
                at.run()
                reruns[mode].append(time.perf_counter() - start)
                extra[mode].append(sum(spent))
        times = {mode: (statistics.median(reruns[mode]), statistics.median(extra[mode]))
                 for mode in ats}
        kit = LAST_KIT[-1]
        tables = []
        for _, fig in kit.figures:
            start = time.perf_counter()
            dpviz.describe.figure_table(fig)
            tables.append(time.perf_counter() - start)
        rerun, a11y = times["usual"]
        share, ratio = a11y / rerun, times["present"][0] / rerun
        worst_share, worst_ratio = max(worst_share, share), max(worst_ratio, ratio)
        print(f"{routed.url_path:<22} {len(kit.described):>6} {fmt_s(rerun):>9} "
              f"{fmt_s(a11y):>9} {share:>10.1%} {fmt_s(times['present'][0]):>9} "
              f"{ratio:>7.2f} {fmt_s(max(tables, default=0.0)):>9}")
    verdict = ("PASS" if worst_share <= A11Y_SHARE and worst_ratio <= PRESENT_RATIO
               else "FAIL")
    print(f"{verdict}: accessibility adds at most {worst_share:.1%} to a rerun (target ≤ "
          f"{A11Y_SHARE:.0%}); presenting at most {worst_ratio:.2f} × (target ≤ "
          f"{PRESENT_RATIO:.2f})")


if __name__ == "__main__":
    run(main)
