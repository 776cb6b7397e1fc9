"""The server's memory per session with an upload (issue 20: "per session with an upload
at 40 sessions").

    .venv/bin/python benchmarks/upload_memory.py                  # 40 sessions per case
    .venv/bin/python benchmarks/upload_memory.py --sessions 10 --cases plain,values

Each case has its own `streamlit run app.py` (tests/browserkit.start_streamlit). One
session opens compare_histograms as the case has it and stays open (the page's code is
imported and its caches filled); the server's resident memory (RSS, psutil) is read once
it is stable; then N more sessions, each as the case has it, are opened one after another
and all kept open, and the RSS is read again once stable. Stable: no Python collection is
forced in the server; its RSS is sampled every 0.5 s until six samples in a row (3 s)
lie within 0.5 MiB, or for 60 s at most (then it says so). The sessions are
tests/protocolkit.ProtocolSession: Streamlit's protocol as the browser speaks it, uploads
included (the file_urls_request, the multipart PUT with the XSRF token, the uploader's
state in the rerun).

Cases (histogram B is the page's default, a built-in population):

- plain: the page's default address, two built-in populations, no upload;
- waiting: histogram A from an uploaded file (in the address), no file yet: the page waits;
- counts: A from an uploaded file; each session uploads its own CSV of 86 single-year
  counts (the address sets 1-year age groups), used as they are;
- values: A from an uploaded file; each session uploads its own CSV of 100,000 ages (one
  row per person, whole years 0–99) read as raw values (the file kind "raw values",
  chosen in the rerun of the upload) and binned into the default 5-year groups.

Per case it prints the file's size, the RSS before and after, and (after − before) / N in
MiB per session, the median seconds of a session's last run (the upload's rerun, or the
first run without upload), the seconds to open all N, and how many of the N sessions
failed: a run that did not end successfully, or (but while waiting) a last run that did
not compute the comparison. Reports; never asserts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "benchmarks")]

from _report import run as report_run  # noqa: E402
from browserkit import start_streamlit, stop_streamlit  # noqa: E402
from protocolkit import ProtocolSession, with_param  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState  # noqa: E402
from ui import registry  # noqa: E402
from ui.sources import AGE_BINNINGS, SOURCE_LABELS, UPLOAD  # noqa: E402

MIB = 1024 * 1024
PAGE = registry.COMPARE.url_path
UPLOAD_QUERY = with_param("", "cmp_a", [SOURCE_LABELS[UPLOAD]])  # histogram A: the upload
CASES = ("plain", "waiting", "counts", "values")


def counts_csv(rng) -> bytes:
    """86 single-year counts (ages 0 … 84, 85+), one column with a header."""
    counts = rng.integers(100, 5_000, size=86)
    return ("count\n" + "\n".join(map(str, counts)) + "\n").encode()


def values_csv(rng) -> bytes:
    """100,000 ages, one per person, one column with a header."""
    ages = rng.integers(0, 100, size=100_000)
    return ("age\n" + "\n".join(map(str, ages)) + "\n").encode()


def choose(session: ProtocolSession, key: str, starts: str) -> None:
    """Set the radio ``key`` to its option shown as starting with ``starts``; the change
    goes with the session's next rerun."""
    wid = session.widget_id(key)
    [option] = [o for o in session.widgets[wid].radio.options if o.startswith(starts)]
    session.states[wid] = WidgetState(id=wid, string_value=option)


def computed(run) -> bool:
    """Whether the run computed the comparison: the captions under the estimated sizes
    N̂ give the true N of each histogram."""
    return any(e.markdown.body.startswith("true N = ") for e in run.elements
               if e.WhichOneof("type") == "markdown")


def one_session(case: str, host: str, rng, stack: ExitStack) -> tuple[float, bool, int]:
    """Open one session as ``case`` has it and keep it open (in ``stack``): the seconds
    of its last run, whether all its runs ended successfully (and the last one computed
    the comparison, but in the case "waiting"), the bytes uploaded."""
    if case == "plain":
        query = ""
    elif case == "counts":
        query = with_param(UPLOAD_QUERY, "cmp_width", [AGE_BINNINGS[1]])
    else:
        query = UPLOAD_QUERY
    session = stack.enter_context(ProtocolSession(host, PAGE, query, timeout=300))
    run = session.open()
    ok = run.ok
    if case in ("counts", "values"):
        data = counts_csv(rng) if case == "counts" else values_csv(rng)
        if case == "values":
            choose(session, "cmp_file_kind", "raw values")
        run = session.upload("cmp_file", f"{case}.csv", data)
        return run.seconds, ok and run.ok and computed(run), len(data)
    return run.seconds, ok and (case == "waiting" or computed(run)), 0


def settled_rss(proc: psutil.Process, *, window: int = 6, spread: float = 0.5 * MIB,
                limit: float = 60.0) -> tuple[int, bool]:
    """The process's RSS once stable (see the module's docstring), and whether it was."""
    samples: list[int] = []
    deadline = time.monotonic() + limit
    while True:
        samples.append(proc.memory_info().rss)
        last = samples[-window:]
        if len(last) == window and max(last) - min(last) <= spread:
            return last[-1], True
        if time.monotonic() > deadline:
            return last[-1], False
        time.sleep(0.5)


def measure(case: str, sessions: int, log_dir: Path) -> dict:
    server = start_streamlit(log_dir / f"{case}.log")
    try:
        host = urlsplit(server.url).netloc
        proc = psutil.Process(server.proc.pid)
        rng = np.random.default_rng(20)
        with ExitStack() as stack:
            one_session(case, host, rng, stack)  # warm: stays open
            before, settled_before = settled_rss(proc)
            seconds, failed, size = [], 0, 0
            start = time.perf_counter()
            for _ in range(sessions):
                s, ok, size = one_session(case, host, rng, stack)
                seconds.append(s)
                failed += not ok
            opening = time.perf_counter() - start
            after, settled_after = settled_rss(proc)
        return dict(case=case, size=size, before=before, after=after,
                    settled=settled_before and settled_after, seconds=seconds,
                    failed=failed, opening=opening)
    finally:
        stop_streamlit(server.proc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--cases", default=",".join(CASES),
                        help=f"comma-separated, of {', '.join(CASES)}")
    args = parser.parse_args()
    cases = [c for c in args.cases.split(",") if c]
    unknown = set(cases) - set(CASES)
    if unknown:
        raise ValueError(f"unknown cases: {sorted(unknown)}")
    n = args.sessions
    print(f"compare_histograms: 1 warm session, then {n} more kept open; one server per "
          f"case; RSS of the server process (MiB)")
    print(f"{'case':<8} {'file':>9} {'RSS before':>11} {'RSS after':>10} "
          f"{'MiB/session':>12} {'run p50':>9} {'open all':>9} {'failed':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            r = measure(case, n, Path(tmp))
            size = f"{r['size'] / 1024:.1f} KiB" if r["size"] else "-"
            note = "" if r["settled"] else "  (RSS not stable within 60 s)"
            print(f"{case:<8} {size:>9} {r['before'] / MIB:>11.1f} {r['after'] / MIB:>10.1f} "
                  f"{(r['after'] - r['before']) / MIB / n:>12.2f} "
                  f"{statistics.median(r['seconds']):>8.2f}s {r['opening']:>8.1f}s "
                  f"{r['failed']:>7}{note}", flush=True)


if __name__ == "__main__":
    report_run(main)
