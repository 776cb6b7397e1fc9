"""The protocol client against the browser: the server's CPU time and the latency of the
same slider changes made by Chromium and by tests/protocolkit.py (issue 20: "the same page
and change must give ... about the same server time").

    .venv/bin/python benchmarks/validate_client.py                  # 5 pages, 10 changes each
    .venv/bin/python benchmarks/validate_client.py --pages ldp,fdp --changes 20 --seed 7

One `streamlit run app.py` server. For each page, three sessions open it side by side: a
Chromium page (Playwright, Debian's /usr/bin/chromium), a ProtocolSession, and a second
Chromium page in a context of its own. Each change is a keyboard step (an arrow, Page Up or
Down, Home or End, seeded) on a slider drawn at random among those on screen, made in
turn:

1. by the first browser page; the value it sends (its BackMsg) is the change's value;
2. by the client, which sends that slider at that value (its request is compared with
   the browser's, protocolkit.comparable: "same requests" below);
3. by the second browser page, the same key on the same slider.

The first browser run of a change is the one that meets the page's caches cold
(st.cache_data is shared by all sessions); the client and the second browser page both
find them warm, so those two are the pair to compare.

Around each change it reads the server process's CPU time (user + system, psutil; Linux
counts it in 10 ms ticks) before the key press or the send, and when the run's
script_finished has arrived: the core-seconds the change cost. Latency: for the client,
from sending to script_finished; for the browser, from the BackMsg the frontend sent to
the script_finished frame, both as Chromium's network stack saw them (DevTools protocol
timestamps), and, apart, from the key press to the BackMsg (the frontend's own delay).
For the browser it also reads the CPU the server spent after script_finished until the
page was idle (no message for 300 ms), the work a browser adds after a run, and
Chromium's own CPU time (all its processes) from the key press to script_finished: on a
machine with few cores the browser competes with the server while the run is drawn.

Prints a table per page and overall: medians. Reports; never asserts.
"""

from __future__ import annotations

import argparse
import base64
import difflib
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browserkit import (  # noqa: E402
    CHROMIUM, CHROMIUM_ARGS, INIT_SCRIPT, VIEWPORT, open_page, start_streamlit,
    stop_streamlit, wait_idle)
from protocolkit import (  # noqa: E402
    BrowserFrames, ProtocolSession, comparable, is_script_finished)
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from ui import registry  # noqa: E402

PAGES = "ldp,fdp,gaussian,substitution,compare_histograms"
KEYS_UP, KEYS_DOWN = ("ArrowRight", "PageUp", "End"), ("ArrowLeft", "PageDown", "Home")
TIMEOUT_MS = 120_000


def cpu(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return times.user + times.system


def chromium_cpu() -> dict[int, float]:
    """CPU time of each Chromium process (Playwright's driver starts them under this one)."""
    out = {}
    for child in psutil.Process().children(recursive=True):
        try:
            if "chrom" in child.name():
                out[child.pid] = cpu(child)
        except psutil.NoSuchProcess:
            continue
    return out


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


@dataclass
class Side:
    """One way of making the changes: per change, server core-seconds and seconds."""

    cpu: list[float] = field(default_factory=list)
    latency: list[float] = field(default_factory=list)
    to_send: list[float] = field(default_factory=list)  # browser: key press -> BackMsg
    tail: list[float] = field(default_factory=list)  # browser: CPU after script_finished
    chromium: list[float] = field(default_factory=list)  # Chromium's own CPU, to finished


class BrowserTab:
    """A Chromium page on one routed page, in a context of its own, its frames recorded."""

    def __init__(self, browser, url: str, spec):
        self.context = browser.new_context(viewport=VIEWPORT, locale="en-US",
                                           timezone_id="UTC", color_scheme="light")
        self.context.add_init_script(INIT_SCRIPT)  # for wait_idle
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.page.server_url = url
        self.frames = BrowserFrames(self.page)
        # The same frames as Chromium's network stack saw them, with its timestamps
        # (DevTools protocol; CLOCK_MONOTONIC, as perf_counter here): the latency from the
        # request leaving to script_finished arriving, without the delay with which
        # Playwright passes frames on to this process.
        self.wire: list[tuple[str, float, bytes]] = []
        self._stream: set[str] = set()
        cdp = self.context.new_cdp_session(self.page)
        cdp.on("Network.webSocketCreated", lambda e: self._stream.add(e["requestId"])
               if e["url"].split("?")[0].endswith("/_stcore/stream") else None)
        cdp.on("Network.webSocketFrameSent", lambda e: self._frame("sent", e))
        cdp.on("Network.webSocketFrameReceived", lambda e: self._frame("recv", e))
        cdp.send("Network.enable")
        self.cdp = cdp
        open_page(self.page, spec.url_path, spec.title)
        wait_idle(self.page)

    def _frame(self, direction: str, event: dict) -> None:
        frame = event["response"]
        if event["requestId"] in self._stream and frame["opcode"] == 2:  # binary
            self.wire.append((direction, event["timestamp"],
                              base64.b64decode(frame["payloadData"])))

    def wire_times(self, since: int) -> tuple[float, float]:
        """(request sent, script_finished received), Chromium's clock, for the first
        rerun request among the frames from index ``since`` on."""
        sent = None
        for direction, at, payload in self.wire[since:]:
            if sent is None and direction == "sent":
                if BackMsg.FromString(payload).WhichOneof("type") == "rerun_script":
                    sent = at
            elif sent is not None and direction == "recv" and is_script_finished(payload):
                return sent, at
        raise RuntimeError("no rerun request answered by script_finished on the wire")

    def thumb(self, key: str):
        return self.page.locator(f".st-key-{key}").get_by_role("slider")

    def keys(self, key: str) -> list[str]:
        """The keys that move the slider ``key`` from where it is; [] if it cannot move
        (hidden in a closed tab or expander, or disabled)."""
        thumb = self.thumb(key)
        if thumb.count() != 1 or not thumb.is_visible() or not thumb.is_enabled():
            return []
        value, low, high = thumb.evaluate("e => [+e.value, +e.min, +e.max]")
        return [*(KEYS_UP if value < high else ()), *(KEYS_DOWN if value > low else ())]

    def change(self, key: str, press: str, proc: psutil.Process, side: Side):
        """Press ``press`` on the slider ``key``; the rerun request the browser sent."""
        thumb = self.thumb(key)
        thumb.focus()
        done, on_wire = len(self.frames.runs()), len(self.wire)
        before, chromium = cpu(proc), chromium_cpu()
        with self.frames.ws.expect_event("framereceived", predicate=is_script_finished,
                                         timeout=TIMEOUT_MS):
            pressed = time.perf_counter()
            self.page.keyboard.press(press)
        after = cpu(proc)
        side.chromium.append(spent(chromium, chromium_cpu()))
        wait_idle(self.page)  # quiet for 300 ms: every frame of the change has come
        side.tail.append(cpu(proc) - after)
        [run] = self.frames.runs()[done:]  # one key, one run
        sent, finished = self.wire_times(on_wire)
        side.cpu.append(after - before)
        side.latency.append(finished - sent)
        side.to_send.append(sent - pressed)
        return run.request

    def close(self) -> None:
        self.context.close()


def play(browser, server, spec, changes: int, seed: int) -> dict:
    proc = psutil.Process(server.proc.pid)
    rng = np.random.default_rng(seed)
    first, client, second = Side(), Side(), Side()
    same, values_agree = 0, 0
    tab1 = BrowserTab(browser, server.url, spec)
    tab2 = BrowserTab(browser, server.url, spec)
    try:
        with ProtocolSession(urlsplit(server.url).netloc, spec.url_path,
                             timeout=TIMEOUT_MS / 1000) as session:
            session.open()
            for _ in range(changes):
                movable = {k: keys for k in sorted(session.sliders())
                           if (keys := tab1.keys(k))}
                key = sorted(movable)[int(rng.integers(len(movable)))]
                press = movable[key][int(rng.integers(len(movable[key])))]
                request = tab1.change(key, press, proc, first)
                wid = session.widget_id(key)
                [state] = [s for s in request.rerun_script.widget_states.widgets
                           if s.id == wid]
                value = (state.string_array_value.data[0]
                         if session.sliders()[key].slider.options
                         else state.double_array_value.data[0])
                before = cpu(proc)
                run = session.set_slider(key, value)
                client.cpu.append(cpu(proc) - before)
                client.latency.append(run.seconds)
                same += comparable(run.request) == comparable(request)
                if comparable(run.request) != comparable(request):
                    diff = difflib.unified_diff(comparable(request).splitlines(),
                                                comparable(run.request).splitlines(),
                                                "browser", "client", n=1, lineterm="")
                    print(f"  {spec.url_path} {key} {press}: requests differ\n    "
                          + "\n    ".join(list(diff)[:30]))
                if not run.ok:
                    print(f"  ! {spec.url_path} {key}={value}: {run.exceptions[:1]}")
                again = tab2.change(key, press, proc, second)
                values_agree += comparable(again) == comparable(request)
    finally:
        tab1.close()
        tab2.close()
    return {"first": first, "client": client, "second": second, "same": same,
            "values_agree": values_agree, "changes": changes}


def med(values) -> float:
    return float(np.median(values)) if len(values) else float("nan")


def report(results: dict) -> None:
    print("\nServer CPU per change (median core-seconds; psutil, 10 ms ticks) and latency "
          "(median seconds to script_finished)")
    head = (f"{'page':20}{'browser 1st':>12}{'client':>9}{'browser 2nd':>12}"
            f"{'2nd/client':>11}{'lat. 1st':>10}{'lat. client':>12}{'lat. 2nd':>10}"
            f"{'key→sent':>10}{'tail':>7}{'Chromium':>10}{'same requests':>15}")
    print(head)
    print("-" * len(head))
    rows = [*results, "all pages"]
    for page in rows:
        chosen = results.values() if page == "all pages" else [results[page]]
        sides = {name: Side(*(sum((getattr(r[name], f) for r in chosen), [])
                              for f in ("cpu", "latency", "to_send", "tail", "chromium")))
                 for name in ("first", "client", "second")}
        first, client, second = sides["first"], sides["client"], sides["second"]
        ratio = med(second.cpu) / med(client.cpu) if med(client.cpu) > 0 else float("nan")
        same = sum(r["same"] for r in chosen)
        agree = sum(r["values_agree"] for r in chosen)
        n = sum(r["changes"] for r in chosen)
        print(f"{page:20}{med(first.cpu):12.3f}{med(client.cpu):9.3f}{med(second.cpu):12.3f}"
              f"{ratio:10.2f}×{med(first.latency):10.3f}{med(client.latency):12.3f}"
              f"{med(second.latency):10.3f}{med(first.to_send + second.to_send):10.3f}"
              f"{med(first.tail + second.tail):7.3f}"
              f"{med(first.chromium + second.chromium):10.3f}{f'{same}/{n} ({agree}/{n})':>15}")
    print("\nbrowser 1st: the first page to make each change (cold caches); client and "
          "browser 2nd: the same change after it (warm).\n2nd/client: ratio of the medians. "
          "key→sent: the frontend's delay from the key press to its BackMsg (not server "
          "time).\ntail: server CPU after script_finished until the browser page was idle. "
          "Chromium: the browser's own CPU from the key press to script_finished\n(every "
          "Chromium process; on a small machine it competes with the server for the cores). "
          "same requests: the client's request equal to the browser's\n(protocolkit."
          "comparable); in brackets, the second browser page's request equal to the first's.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", default=PAGES, help="url paths, comma-separated")
    parser.add_argument("--changes", type=int, default=10, help="changes per page")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server = start_streamlit(Path(tempfile.mkdtemp()) / "server.log")
    results = {}
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                for i, page in enumerate(args.pages.split(",")):
                    spec = registry.by_url_path(page)
                    results[page] = play(browser, server, spec, args.changes, args.seed + i)
                    print(f"{page}: {args.changes} changes", flush=True)
            finally:
                browser.close()
        rss = psutil.Process(server.proc.pid).memory_info().rss / 2**20
    finally:
        stop_streamlit(server.proc)
    report(results)
    print(f"server resident memory at the end: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
