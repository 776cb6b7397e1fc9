"""Caches shared by every session and page, and their hit counts.

:func:`counted` wraps Streamlit's caches (``st.cache_data``, ``st.cache_resource``) so that
each cached function counts its calls and the calls it had to compute. With the environment
variable ``DPVIZ_CACHE_STATS`` set to a file name (``{pid}`` in it stands for the process
id, one file per replica), the server keeps the counts there as JSON,
``{function: [calls, computed]}``: the class benchmarks (benchmarks/capacity.py) report
the hit rate beside the latencies.
"""

from __future__ import annotations

import functools
import json
import os
import threading
from pathlib import Path

import streamlit as st

from dpcore import simulation
from ui.text import language

STATS_ENV = "DPVIZ_CACHE_STATS"
_STATS: dict[str, list[int]] = {}
_LOCK = threading.Lock()


def _count(name: str, computed: bool) -> None:
    with _LOCK:
        counts = _STATS.setdefault(name, [0, 0])
        counts[computed] += 1
        path = os.environ.get(STATS_ENV, "").replace("{pid}", str(os.getpid()))
        if path:
            tmp = Path(f"{path}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(_STATS))
            tmp.replace(path)


def stats() -> dict[str, tuple[int, int]]:
    """(calls, computed) of each counted cache function in this process."""
    with _LOCK:
        return {name: (calls, computed) for name, (calls, computed) in _STATS.items()}


def counted(cache):
    """``cache`` (e.g. ``st.cache_data(max_entries=8, show_spinner=False)``) applied to a
    function that counts its calls (a call) and its computations (a miss).

    The reader's language is part of every key: a cached result may hold text (a label, a
    figure's titles), and a reader of the other language must not get it."""
    def decorate(fn):
        name = f"{fn.__module__}.{fn.__qualname__}"

        @functools.wraps(fn)  # Streamlit keys the cache by fn's name, source and parameters
        def compute(*args, ui_language: str, **kwargs):
            _count(name, computed=True)
            return fn(*args, **kwargs)

        cached = cache(compute)

        @functools.wraps(fn)
        def call(*args, **kwargs):
            _count(name, computed=False)
            return cached(*args, ui_language=language(), **kwargs)

        call.clear = cached.clear
        return call
    return decorate


@counted(st.cache_resource(max_entries=1, show_spinner=False))
def machine_speed() -> float:
    """Seconds per unit of simulation work on this machine (for run-time estimates)."""
    return simulation.seconds_per_unit()
