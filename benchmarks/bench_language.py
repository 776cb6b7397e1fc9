"""What speaking Korean costs a page (issue 22): the median rerun of every page in Korean
against English, side by side.

    .venv/bin/python benchmarks/bench_language.py              # every page, 9 reruns each
    .venv/bin/python benchmarks/bench_language.py --reruns 15 --pages ldp,fdp

Each page of ui.registry is opened twice in AppTest in this process, once with ``?lang=en``
and once with ``?lang=ko``, at its defaults; both are warmed by one rerun (caches filled),
then rerun ``--reruns`` times each, the two languages interleaved so that a slow moment of
the machine hits both. Prints the medians, the ratio Korean / English per page and
PASS/FAIL of the target: every page's ratio ≤ 1.10. Reports; does not assert.
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

TARGET = 1.10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=9, help="timed reruns per language")
    parser.add_argument("--pages", default="", help="comma-separated page names (default all)")
    args = parser.parse_args()

    from conftest import open_page
    from ui import registry
    from ui.text import use_language

    logging.disable(logging.WARNING)  # AppTest's bare-mode warnings
    wanted = {p for p in args.pages.split(",") if p}
    print(f"{'page':<22} {'English':>10} {'Korean':>10} {'ko/en':>7}")
    worst = 0.0
    for page in registry.PAGES:
        if wanted and page.name not in wanted:
            continue
        tests = {}
        for lang in ("en", "ko"):
            use_language(lang)
            tests[lang] = open_page(page.script, None, {"lang": lang})
        times: dict[str, list[float]] = {"en": [], "ko": []}
        # AppTest writes the widgets' values back with their format functions in this
        # thread: it speaks the page's language for each run.
        for lang, at in tests.items():
            use_language(lang)
            at.run()  # warm
        for _ in range(args.reruns):
            for lang, at in tests.items():
                use_language(lang)
                start = time.perf_counter()
                at.run()
                times[lang].append(time.perf_counter() - start)
        en, ko = statistics.median(times["en"]), statistics.median(times["ko"])
        worst = max(worst, ko / en)
        print(f"{page.name:<22} {fmt_s(en):>10} {fmt_s(ko):>10} {ko / en:>7.2f}")
    use_language("en")
    verdict = "PASS" if worst <= TARGET else "FAIL"
    print(f"{verdict}: Korean reruns at most {worst:.2f}× English (target ≤ {TARGET:.2f}×)")


if __name__ == "__main__":
    run(main)
