"""Play a class at the protocol level (issue 20): Locust students against one server.

    # a server: scripts/dashboard.sh (port 8501), or any `streamlit run app.py`
    .venv-bench/bin/locust -f benchmarks/classroom.py --headless --host 127.0.0.1:8501 \\
        --users 40 --spawn-rate 4 --run-time 120s --csv /tmp/class

Each simulated student (a Locust user) opens one routed page, picked at random, over
Streamlit's own websocket protocol (tests/protocolkit.py: the messages a browser tab
sends and receives), then moves one of that page's sliders every Exp(mean 5 s), to a
value drawn across the slider's whole range, never the value it holds. Locust reports,
per page, the latency of each change from sending it to `script_finished` ("change
<page>") and of the first run ("open <page>"), with percentiles, in its CSV files. A run
that does not end `FINISHED_SUCCESSFULLY`, that draws an exception element, or that does
not finish within the client's timeout, and a dropped connection, count as failures.

Sliders only for now: the pages' main controls are sliders and select sliders; buttons
that start long simulations on purpose are never pressed.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from locust import User, events, task

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from protocolkit import ProtocolSession, other_value  # noqa: E402
from ui import registry  # noqa: E402

MEAN_THINK_S = float(os.environ.get("CLASSROOM_THINK_S", 5.0))  # Exp(mean) between changes
# With CLASSROOM_SUMMARY set (benchmarks/capacity.py, class_load.py), every change's latency
# (ms), outcome and page are appended there as a JSON line as it happens: percentiles over
# all pages at once, or over some. Written at once, not when Locust quits: gevent may abort
# Locust at shutdown while the students' websockets close (a libev assertion), which must
# not lose the class's changes.
SUMMARY = os.environ.get("CLASSROOM_SUMMARY")


@events.request.add_listener
def _record(request_type, name, response_time, exception, **_):
    if request_type == "change" and SUMMARY:
        with open(SUMMARY, "a", encoding="utf-8") as fh:
            fh.write(json.dumps([response_time, exception is None, name.split(" ", 1)[1]])
                     + "\n")


PAGES = [p.url_path for p in registry.TOOL_PAGES]  # the tool pages


class Student(User):
    """One student: one page, a slider moved every Exp(MEAN_THINK_S) seconds."""

    def wait_time(self):
        return float(self.rng.exponential(MEAN_THINK_S))

    def on_start(self):
        self.rng, self.session = np.random.default_rng(), None
        self.page = PAGES[int(self.rng.integers(len(PAGES)))]
        start = time.perf_counter()
        try:
            self.session = ProtocolSession(self.host, self.page)
            run = self.session.open()
            error = None if run.ok else RuntimeError(f"run failed: {run.exceptions[:1]}")
        except Exception as exc:  # a refused or dropped connection is a failure
            self._drop()
            error = exc
        self._report("open", start, error)

    def on_stop(self):
        self._drop()

    def _drop(self) -> None:
        """Close the student's connection (a new one is opened at the next task)."""
        session, self.session = self.session, None
        if session is not None:
            try:
                session.close()
            except Exception:  # already dropped
                pass

    @task
    def change(self):
        if self.session is None:
            return self.on_start()
        sliders = self.session.sliders()
        if not sliders:
            return None
        key = list(sliders)[int(self.rng.integers(len(sliders)))]
        value = other_value(sliders[key].slider, self.rng)
        start = time.perf_counter()
        try:
            run = self.session.set_slider(key, value)
            error = None if run.ok else RuntimeError(f"{key}={value}: {run.exceptions[:1]}")
        except Exception as exc:
            self._drop()
            error = exc
        self._report("change", start, error)


    def _report(self, kind: str, start: float, error: Exception | None) -> None:
        self.environment.events.request.fire(
            request_type=kind, name=f"{kind} {self.page}",
            response_time=(time.perf_counter() - start) * 1000, response_length=0,
            exception=error, context={})
