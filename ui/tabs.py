"""The flow of a page with tabs: its controls above tabs of which only the open one runs, and
its links to other pages with what a link could not carry (views/ldp.py,
views/substitution.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import streamlit as st

from ui.kit import PageKit
from ui.text import t


def settings_or_stop(kit: PageKit, read_controls: Callable[[], tuple]):
    """The settings the page's controls (in a bordered box) give; the page stops with what
    it waits for (a file) or why they cannot be used."""
    with st.container(border=True):
        settings, problem, waiting = read_controls()
    if settings is None:
        if waiting:
            kit.wait(problem)
        kit.fail(problem)
    return settings


def run_open_tab(kit: PageKit, settings, sections: dict[str, Callable], *, key: str,
                 fail: Callable[[ValueError], str] | None = None) -> None:
    """Tabs labelled by ``sections``' keys, bound to the URL parameter ``key`` (so the open
    one is tracked); only the open tab runs, as ``section(kit, settings)`` with its label as
    ``settings.tab``. With ``fail``, a ValueError stops the page with ``fail(error)``."""
    tabs = st.tabs([t(label) for label in sections], key=key, bind="query-params")
    for (label, section), tab in zip(sections.items(), tabs):
        with tab:
            if tab.open is not False:
                try:
                    section(kit, replace(settings, tab=label))
                except ValueError as exc:
                    if fail is None:
                        raise
                    kit.fail(fail(exc))


def show_links(items, helps) -> None:
    """Each (link, label, notes) of ``items`` with its help, its notes as captions."""
    for (link, label, notes), help_ in zip(items, helps):
        link.show(label, help=help_)
        for note in notes:
            st.caption(note)
