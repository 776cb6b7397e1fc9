"""A progress bar for a computation cached with st.cache_data (views/ldp.py,
views/substitution.py).

A cached function cannot update a bar created outside it: Streamlit records every element
call made while it runs and replays them for a cached result, and a bar from outside does
not exist for the replay. So the bar is created, moved and emptied by the progress
callback itself, during the computation: a cached result replays them in an instant.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st


class ProgressBar:
    """A ``progress(fraction, label)`` callback: its first call shows a bar at 0 with the text
    ``start``; every later call moves it to ``fraction`` with the text ``step(fraction)``,
    and the call with fraction 1 empties it."""

    def __init__(self, start: str, step: Callable[[float], str]):
        self.start, self.step = start, step
        self.bar = None

    def __call__(self, fraction: float, label: str = "") -> None:
        if self.bar is None:
            self.bar = st.progress(0.0, text=self.start)
            if fraction == 0:
                return
        self.bar.progress(fraction, text=self.step(fraction))
        if fraction >= 1:
            self.bar.empty()
