"""Students of a class poll at the protocol level (issue 37): Locust users for
benchmarks/class_poll_load.py, which starts the servers, creates the poll and sets the
environment below; it can also be run by hand against a running server:

    CLASS_POLL_CODE=ABCD2345 CLASS_POLL_SUMMARY=/tmp/poll.jsonl \\
    .venv-bench/bin/locust -f benchmarks/class_poll_students.py --headless \\
        --host 127.0.0.1:8501 --users 200 --spawn-rate 5 --run-time 70s

Each student is one phone's browser tab, spoken at Streamlit's protocol level
(tests/protocolkit.py), as a browser does it:

1. it holds its own random student token (``dpclass.activities.new_secret``) in the cookie
   ``dpclass_student`` (ui/classroom.py), sent with its first requests and in the
   websocket's handshake, and kept across a reconnection;
2. it opens ``/class_poll?code=<CODE>`` (the first run: the question and the answer buttons,
   the component ``class_poll_answer`` of ui/device.py);
3. after Uniform(CLASS_POLL_THINK) seconds (default 3 to 12) it taps its true answer, drawn
   uniformly: like ui/static/device.js it draws the reported answer j by k-ary randomized
   response (ui.device.reported_for, with the p and q the page sent to the component and a
   32-bit uniform) and sends the component's one trigger value,
   ``[{"event":"reported","value":j}]`` (ProtocolSession.trigger: what
   tests/test_browser_device.py decodes from Chromium's frames);
4. the answer is acknowledged when that run draws the page's ``st.success`` "Your phone
   sent: …" (views/class_poll.py, ui/pages/class_poll.py ``sent_text``); a page that says
   "This browser has already answered" acknowledges an answer stored earlier;
5. it stays on the page until CLASS_POLL_END, rerunning the page's fragment every 6 s as
   the frontend's timer does (``st.fragment(run_every=…)``, the students' shared results;
   CLASS_POLL_FRAGMENTS=0 leaves that out).

A dropped connection (its replica killed) is noticed at once, as the browser notices it
(the student waits on its websocket), and taken up again as the frontend does it
(ProtocolSession.reconnect: pings with the frontend's back-off, a new websocket with the
same cookies, a rerun): through HAProxy to a replica that runs. The student then reads the
page: "already answered" (its answer was stored) or the buttons again, and answers if it
had not been acknowledged; an acknowledged answer the page no longer knows is reported.

Every event is appended as one JSON line to CLASS_POLL_SUMMARY as it happens (gevent may
abort Locust at shutdown, which must not lose what the class did): ``ev`` (start, join,
answer, dropped, reconnect, fragment, error, unfinished, end), ``id`` (the student's
number), ``token``, ``t`` (seconds since the test started), and what the event measured.
Times in seconds: ``s`` the run's latency (sending the request to its script_finished).

Environment: CLASS_POLL_CODE (required), CLASS_POLL_SUMMARY (required), CLASS_POLL_RUN_TIME
(seconds from the start during which students join, answer and stay; default 60),
CLASS_POLL_THINK ("low,high" seconds; default "3,12"), CLASS_POLL_FRAGMENTS (1/0, default 1),
CLASS_POLL_TIMEOUT (seconds a run may take before it counts as failed; default 30).
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import time
from pathlib import Path

import numpy as np
from locust import User, constant, events, task
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from dpclass.activities import new_secret  # noqa: E402
from protocolkit import ProtocolSession  # noqa: E402
from streamlit.proto.Alert_pb2 import Alert  # noqa: E402
from ui.device import reported_for  # noqa: E402

PAGE = "class_poll"
ANSWER_KEY = "class_poll_answer"  # ui/pages/class_poll.py ANSWER_KEY
STUDENT_COOKIE = "dpclass_student"  # ui/classroom.py STUDENT_COOKIE
SENT = "Your phone sent:"  # the acknowledgement: ui/pages/class_poll.py sent_text, in English
ALREADY = "This browser has already answered"  # ui/classroom.py PROBLEMS[AlreadyAnswered]

CODE = os.environ.get("CLASS_POLL_CODE", "")
SUMMARY = os.environ.get("CLASS_POLL_SUMMARY", "")
RUN_TIME = float(os.environ.get("CLASS_POLL_RUN_TIME", 60))
THINK = tuple(float(x) for x in os.environ.get("CLASS_POLL_THINK", "3,12").split(","))
FRAGMENTS = os.environ.get("CLASS_POLL_FRAGMENTS", "1") != "0"
TIMEOUT = float(os.environ.get("CLASS_POLL_TIMEOUT", 30))
DROPS = (ConnectionClosed, TimeoutError, OSError)  # a dropped or dead connection

T0 = [0.0]  # epoch seconds when the test started (Locust's test_start)
_numbers = itertools.count(1)


def log(event: str, **fields) -> None:
    if SUMMARY:
        fields = {"ev": event, "t": round(time.time() - T0[0], 3), **fields}
        with open(SUMMARY, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(fields) + "\n")


@events.test_start.add_listener
def _started(**_):
    T0[0] = time.time()
    log("start", at=T0[0], run_time=RUN_TIME, think=THINK, fragments=FRAGMENTS)


def page_state(run) -> str:
    """What a run of the student's page shows: "sent" (the acknowledgement), "already"
    (answered before), "error" (an st.error: the database unreachable, …), "buttons" (the
    answer buttons, unlocked), else "other"."""
    alerts = [e.alert for e in run.elements if e.WhichOneof("type") == "alert"]
    if any(a.body.startswith(SENT) for a in alerts):
        return "sent"
    if any(a.body.startswith(ALREADY) for a in alerts):
        return "already"
    if any(a.format == Alert.ERROR for a in alerts) or not run.ok:
        return "error"
    for e in run.elements:
        if (e.WhichOneof("type") == "bidi_component"
                and e.bidi_component.id.endswith(f"-{ANSWER_KEY}")
                and json.loads(e.bidi_component.json).get("sent") is None):
            return "buttons"
    return "other"


def errors_of(run) -> list[str]:
    return [e.alert.body[:120] for e in run.elements
            if e.WhichOneof("type") == "alert" and e.alert.format == Alert.ERROR] \
        + [x[:120] for x in run.exceptions]


class Lost(Exception):
    """The student could not get a connection back before the end."""


class Student(User):
    """One student's phone: join, think, answer, stay (see the module's docstring)."""

    wait_time = constant(1)

    def on_start(self):
        self.id = next(_numbers)
        self.rng = np.random.default_rng()
        self.token = new_secret()
        self.session: ProtocolSession | None = None
        self.done = False
        self.acked: str | None = None  # "sent", "already": how the answer was acknowledged
        self.next_fragment = float("inf")
        self.elements = []  # the page's elements, as its last full run drew them

    def on_stop(self):
        self._close()

    def _close(self):
        session, self.session = self.session, None
        if session is not None:
            try:
                session.close()
            except Exception:
                pass

    def _log(self, event: str, **fields):
        log(event, id=self.id, token=self.token, **fields)

    def _fire(self, kind: str, seconds: float, error=None):
        self.environment.events.request.fire(
            request_type=kind, name=kind, response_time=seconds * 1000, response_length=0,
            exception=error, context={})

    def _replica(self) -> str | None:
        try:
            return self.session.ws.response.headers.get("X-Dpviz-Replica")
        except Exception:
            return None

    # --- a student's life -----------------------------------------------------------------
    @task
    def life(self):
        if self.done:
            return
        self.done = True
        end = T0[0] + RUN_TIME
        try:
            self._join(end)
            self._stay_until(time.time() + float(self.rng.uniform(*THINK)))
            self._answer(end)
            self._stay_until(end)
            self._log("end", acked=self.acked)
        except Lost as exc:
            self._log("unfinished", acked=self.acked, why=str(exc))
        except Exception as exc:  # anything unforeseen is an error, named
            self._log("error", where="life", error=repr(exc)[:300], acked=self.acked)
        finally:
            self._close()

    def _join(self, end: float) -> None:
        """Open the page (retried like the frontend while no server answers)."""
        attempts = 0
        while True:
            attempts += 1
            start = time.perf_counter()
            try:
                self.session = ProtocolSession(self.host, PAGE, f"code={CODE}", timeout=TIMEOUT,
                                               cookies={STUDENT_COOKIE: self.token})
                run = self.session.open()
                break
            except DROPS as exc:
                self._close()
                self._log("join_retry", attempt=attempts, error=repr(exc)[:200])
                if time.time() > end:
                    raise Lost(f"no connection to join: {exc!r}") from exc
                time.sleep(min(4.0, 0.5 * 2 ** (attempts - 1)))
        seconds = time.perf_counter() - start
        state = page_state(run)
        self._log("join", s=round(seconds, 4), run_s=round(run.seconds, 4), ok=run.ok,
                  state=state, replica=self._replica(), attempts=attempts)
        self._fire("join", seconds, None if state == "buttons" else RuntimeError(state))
        self.elements = run.elements
        if state != "buttons":
            self._log("error", where="join", state=state, errors=errors_of(run))
            if state == "already":
                self.acked = "already"
        self._timer_restarted()

    def _timer_restarted(self) -> None:
        """After a full run: the fragment's timer starts again (its new auto_rerun)."""
        self.next_fragment = (time.time() + min(self.session.auto_reruns.values())
                              if FRAGMENTS and self.session.auto_reruns else float("inf"))

    def _answer(self, end: float) -> None:
        """Tap the true answer; until an acknowledgement (or the end)."""
        while self.acked is None:
            if time.time() > end:
                raise Lost("no acknowledged answer by the end")
            run_for = [e.bidi_component for e in self.elements
                       if e.WhichOneof("type") == "bidi_component"
                       and e.bidi_component.id.endswith(f"-{ANSWER_KEY}")]
            data = json.loads(run_for[-1].json)
            k, p, q = len(data["labels"]), data["p"], data["q"]
            truth = int(self.rng.integers(k))
            u = int(self.rng.integers(2 ** 32)) / 2 ** 32  # crypto.getRandomValues / 2³²
            j = reported_for(truth, u, p, q, k)
            sent_at = time.time() - T0[0]
            try:
                run = self.session.trigger(ANSWER_KEY, "reported", j)
            except DROPS as exc:
                self._log("dropped", where="answer", sent_at=round(sent_at, 3),
                          error=repr(exc)[:200])
                if self._recover("answer") == "buttons":
                    self._stay_until(time.time() + float(self.rng.uniform(1, 3)))
                continue
            state = page_state(run)
            self._log("answer", s=round(run.seconds, 4), ok=run.ok, state=state, reported=j,
                      sent_at=round(sent_at, 3), replica=self._replica(),
                      errors=errors_of(run) if state != "sent" else [])
            self._fire("answer", run.seconds, None if state == "sent" else RuntimeError(state))
            self.elements = run.elements
            self._timer_restarted()
            if state in ("sent", "already"):
                self.acked = state
            else:  # refused (database unreachable, …): an error; no second try here
                self._log("error", where="answer", state=state, errors=errors_of(run))
                raise Lost(f"answer not acknowledged: {state}")

    def _recover(self, where: str) -> str:
        """Reconnect as the frontend does; what the page shows then."""
        start = time.perf_counter()
        try:
            run, pings = self.session.reconnect(within=max(10.0, T0[0] + RUN_TIME + 30
                                                           - time.time()), rng=self.rng)
        except Exception as exc:
            self._log("reconnect_failed", where=where, error=repr(exc)[:200])
            raise Lost(f"reconnection failed: {exc!r}") from exc
        seconds = time.perf_counter() - start
        state = page_state(run)
        self._log("reconnect", where=where, s=round(seconds, 4), run_s=round(run.seconds, 4),
                  pings=pings, ok=run.ok, state=state, replica=self._replica(),
                  acked=self.acked)
        self._fire("reconnect", seconds, None if run.ok else RuntimeError(state))
        self.elements = run.elements
        self._timer_restarted()
        if state == "already" and self.acked is None:
            self.acked = "already"  # stored before the drop, never acknowledged until now
        elif self.acked is not None and state == "buttons":
            self._log("lost_seen", where=where)  # acknowledged, and the page forgot it
            self.acked = None
        elif state not in ("already", "buttons"):
            self._log("error", where=f"reconnect {where}", state=state, errors=errors_of(run))
        return state

    def _stay_until(self, until: float) -> None:
        """Stay on the page until ``until``: wait on the websocket (a drop is seen at once),
        rerun the fragment when its timer fires."""
        while (now := time.time()) < until:
            wait = min(until, self.next_fragment) - now
            if wait > 0 and self._idle(wait):
                self._log("dropped", where="idle")
                self._recover("idle")
                continue
            if time.time() >= self.next_fragment:
                self._fragment()

    def _idle(self, seconds: float) -> bool:
        """Wait ``seconds`` on the websocket; True when the connection dropped."""
        until = time.monotonic() + seconds
        while (left := until - time.monotonic()) > 0:
            try:
                self.session.ws.recv(timeout=left)  # nothing is expected between runs
            except TimeoutError:
                return False
            except (ConnectionClosed, OSError, EOFError):
                return True
        return False

    def _fragment(self) -> None:
        interval = min(self.session.auto_reruns.values())
        self.next_fragment += interval
        try:
            run = self.session.rerun_fragment(next(iter(self.session.auto_reruns)))
        except DROPS as exc:
            self._log("dropped", where="fragment", error=repr(exc)[:200])
            self._recover("fragment")
            return
        self._log("fragment", s=round(run.seconds, 4), ok=run.ok)
        self._fire("fragment", run.seconds, None if run.ok else RuntimeError("fragment"))
        if not run.ok:
            self._log("error", where="fragment", errors=errors_of(run))
        if self.next_fragment < time.time():  # a slow run: the timer does not wait for it
            self.next_fragment = time.time()
