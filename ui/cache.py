"""Resources computed once per server and shared by every session and page."""

from __future__ import annotations

import streamlit as st

from dpcore import simulation


@st.cache_resource(max_entries=1, show_spinner=False)
def machine_speed() -> float:
    """Seconds per unit of simulation work on this machine (for run-time estimates)."""
    return simulation.seconds_per_unit()
