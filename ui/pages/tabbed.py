"""What views/ldp.py and views/substitution.py share: their controls above tabs of which only
the open one runs, and their links to other pages with what a link could not carry."""

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


def nearest_note(value: str, slider: str, linked: str) -> str:
    """A value a link carries snapped to the target page's slider, in words."""
    return t("{value} is not on that page's {slider}: the link opens it at the nearest value, "
             "{linked}.", value=value, slider=slider, linked=linked)


def capped_note(symbol: str, most: int, linked: int, wanted: int) -> str:
    """A value a link carries cut to the end of the target page's slider, in words."""
    return t("That page's {symbol} slider stops at {most}: the link opens it at "
             "{symbol} = {linked}, not {wanted}.", symbol=symbol, most=most, linked=linked,
             wanted=wanted)

