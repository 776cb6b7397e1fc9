"""A client of Streamlit's own protocol, as the browser speaks it (issue 20's load
generator builds on it): a websocket to ``/_stcore/stream`` carrying ``BackMsg`` protobufs
out and ``ForwardMsg`` protobufs in, from the installed ``streamlit`` package.

A :class:`ProtocolSession` opens a routed page with its query string, learns the widgets
(their ids and ranges) from the deltas it receives, and sends widget changes the way the
browser does: a ``rerun_script`` with the state of every widget it knows. Each run returns
its :class:`Run`: the seconds from sending to ``script_finished``, the new elements, and
the exceptions among them.
"""

from __future__ import annotations

import time
from contextlib import ExitStack
from dataclasses import dataclass, field

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.sync.client import connect

FINISHED = ForwardMsg.ScriptFinishedStatus  # enum of script_finished


@dataclass
class Run:
    """One script run as the client saw it."""

    seconds: float  # from sending the request to script_finished
    status: int  # ForwardMsg.ScriptFinishedStatus
    elements: list[Element] = field(default_factory=list)
    query: str | None = None  # the address's query string, when the run changed it

    @property
    def exceptions(self) -> list[str]:
        return [e.exception.message for e in self.elements if e.WhichOneof("type") == "exception"]

    @property
    def ok(self) -> bool:
        return self.status == FINISHED.FINISHED_SUCCESSFULLY and not self.exceptions


def other_value(slider, rng) -> float | str:
    """A value of ``slider`` (a Slider proto) drawn across its whole range, never the one it
    was drawn with: a number on its steps, or an option as shown (a select slider)."""
    if slider.options:  # default holds the option's index
        values = [o for i, o in enumerate(slider.options) if [i] != list(slider.default)]
    else:
        steps = int(round((slider.max - slider.min) / slider.step))
        values = [v for v in (slider.min + k * slider.step for k in range(steps + 1))
                  if [v] != list(slider.default)]
    return values[int(rng.integers(len(values)))]


class ProtocolSession:
    """One browser tab's session, spoken at the protocol level."""

    def __init__(self, host: str, page: str, query: str = "", *, timeout: float = 60.0):
        self.page, self.query, self.timeout = page, query, timeout
        self.page_hash = ""
        self.states: dict[str, WidgetState] = {}  # widget id -> its state, as last sent
        self.widgets: dict[str, Element] = {}  # widget id -> its element, as last drawn
        self._stack = ExitStack()  # the connection is a context manager (websockets ≥ 16)
        self.ws = self._stack.enter_context(connect(
            f"ws://{host}/_stcore/stream", subprotocols=["streamlit"], origin=f"http://{host}",
            max_size=None, open_timeout=timeout))

    def close(self) -> None:
        self._stack.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def open(self) -> Run:
        """The page's first run (as loading its address does)."""
        return self._run(with_states=False)

    def set_slider(self, key: str, value: float | str) -> Run:
        """Move the slider whose widget key is ``key`` to ``value``: a number in its range,
        or, for a select slider (``st.select_slider``: options), an option as it shows it."""
        wid = self.widget_id(key)
        state = WidgetState(id=wid)
        if self.widgets[wid].slider.options:
            state.string_array_value.data.append(str(value))
        else:
            state.double_array_value.data.append(float(value))
        self.states[wid] = state
        return self._run()

    def widget_id(self, key: str) -> str:
        [wid] = [w for w in self.widgets if w.endswith(f"-{key}")]
        return wid

    def sliders(self) -> dict[str, Element]:
        """The sliders and select sliders on screen, by widget key."""
        return {wid.rsplit("-", 1)[-1]: el for wid, el in self.widgets.items()
                if el.WhichOneof("type") == "slider"}

    def _run(self, *, with_states: bool = True) -> Run:
        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_name = self.page
        msg.rerun_script.page_script_hash = self.page_hash
        if with_states:
            msg.rerun_script.widget_states.widgets.extend(self.states.values())
        start = time.perf_counter()
        self.ws.send(msg.SerializeToString())
        run, drawn = Run(0.0, -1), {}
        while True:
            fm = ForwardMsg()
            fm.ParseFromString(self.ws.recv(timeout=self.timeout))
            kind = fm.WhichOneof("type")
            if kind == "navigation":  # the page this run drew (app.py routes by st.navigation)
                self.page_hash = fm.navigation.page_script_hash
            elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                element = fm.delta.new_element
                run.elements.append(element)
                widget = getattr(element, element.WhichOneof("type") or "", None)
                if getattr(widget, "id", "").startswith("$$ID-"):
                    drawn[widget.id] = element
            elif kind == "page_info_changed":
                run.query = self.query = fm.page_info_changed.query_string
            elif kind == "script_finished":
                run.seconds, run.status = time.perf_counter() - start, fm.script_finished
                # The widgets are those of this run (a widget not drawn is forgotten, and one
                # whose parameters changed is drawn under a new id).
                self.widgets = drawn
                self.states = {w: v for w, v in self.states.items() if w in drawn}
                return run
