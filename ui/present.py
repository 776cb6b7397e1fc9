"""Presenting mode: the dashboard on a projector (``?present=1``).

:func:`choose` runs at the top of every script run (app.py), after the language. A link with
``present=1`` opens the view in presenting mode, with every other setting of the link; the
header's *Present* button switches it on and off. The mode then stays for the session,
across pages, and is written back into the URL (so the page's Share link carries it), as
the language is; ``present=0`` switches it off.

In presenting mode the sidebar starts collapsed, text is larger (body text 24 px, captions
in the text's colour), controls show no help icons, and charts are drawn larger, their text
20 px at least and dark (:func:`dpviz.style.presented`). Downloads and each chart's "in words
and as a table" box are left out (:func:`shows_exports`). Each tool page draws its main
result, its verdict or key numbers and its main chart, first, right under the title
(:func:`lead`, the page kit's ``leading()``), so that a projector's first screen shows it at
1280×720; the rest follows as usual. The numbers, exports and reports are the same.
"""

from __future__ import annotations

import contextvars

import streamlit as st

from ui import internals

PARAM = "present"  # the URL parameter, and the session-state key
ON, OFF = "1", "0"
# The session's mode: state that outlives a page's view (ui.kit.fresh_visit keeps it).
SESSION_KEYS = frozenset({PARAM})
_UNUSABLE: contextvars.ContextVar[bool] = contextvars.ContextVar("present_unusable",
                                                                default=False)


def presenting() -> bool:
    """Whether this session presents (set by :func:`choose` on every run)."""
    return bool(st.session_state.get(PARAM, False))


# The container of a view's main result in presenting mode (its class: st-key-present_lead).
LEAD_KEY = "present_lead"
# The main chart's height there (px): at least 300 px, and with the title row and a verdict
# of two or three lines above it, all within a 1280×720 projector's first screen.
LEAD_CHART_HEIGHT = 380


def lead():
    """In presenting mode, a container right under the page's header for its main result
    (keyed :data:`LEAD_KEY`); else None: the page draws its result where it always does."""
    return st.container(key=LEAD_KEY, gap="small") if presenting() else None


def shows_exports() -> bool:
    """Whether the page shows its downloads (CSV, HTML) and its charts' "in words and as a
    table" boxes: not in presenting mode, where they only take room on the screen (the
    report and the downloads of the normal view are the same; screen readers still have
    each chart's one-sentence summary, its description)."""
    return not presenting()


def unusable_link() -> list[str]:
    """``[PARAM]`` when this run's link gave ``present`` a value other than 1 or 0 (the
    page's note on unusable link values names it), else ``[]``."""
    return [PARAM] if _UNUSABLE.get() else []


def choose() -> bool:
    """Presenting mode for this run: from the link (``present=1`` or ``0``) or else as the
    session had it, written back into the URL."""
    asked = st.query_params.get_all(PARAM) if PARAM in st.query_params else []
    _UNUSABLE.set(False)
    if asked:
        if asked in ([ON], [OFF]):
            st.session_state[PARAM] = asked == [ON]
        else:
            _UNUSABLE.set(True)
    on = presenting()
    st.session_state[PARAM] = on
    if on and asked != [ON]:
        st.query_params[PARAM] = ON
    elif not on and PARAM in st.query_params:
        del st.query_params[PARAM]
    if on:
        internals.present_style()
    return on


def switch() -> None:
    """The header button's action: presenting on or off (the URL follows on this run)."""
    st.session_state[PARAM] = not presenting()
    if presenting():
        st.query_params[PARAM] = ON
    elif PARAM in st.query_params:
        del st.query_params[PARAM]
