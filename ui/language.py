"""The interface language: a choice in the sidebar, carried by every link (``?lang=ko``).

:func:`choose` runs at the top of every script run (app.py), before the menu is built, and
makes :func:`ui.text.t` speak the session's language. The first run of a session takes the
link's ``lang`` when it names a language (a shared link opens in the sender's language),
else the browser's (``st.context.locale``), else English; a ``lang`` the dashboard does not
speak falls back to English and the page's note on unusable link values names it. The
choice then stays for the session, across pages, and is written back into the URL so that
the page's Share link carries it.

Switching the language keeps the view: settings held as the text of an option or a tab
label (a widget whose options are translated texts) are relabelled into the new language
(:func:`relabel`).
"""

from __future__ import annotations

import contextvars
import functools

import streamlit as st

from ui import internals
from ui.text import (LANGUAGES, SOURCE_LANGUAGE, catalog, language, messages, record_shown,
                     relabelled, t, use_language)

PARAM = "lang"  # the URL parameter, and the control's session-state key
_UNUSABLE: contextvars.ContextVar[bool] = contextvars.ContextVar("lang_unusable", default=False)


def from_browser() -> str:
    """The browser's language if the dashboard speaks it, else English."""
    locale = (getattr(st.context, "locale", None) or "").lower()
    return next((code for code in LANGUAGES if locale.split("-")[0] == code), SOURCE_LANGUAGE)


def unusable_link() -> list[str]:
    """``[PARAM]`` when this session's link named a language the dashboard does not speak
    (on the run that read it), else ``[]``: for the page's note on unusable link values."""
    return [PARAM] if _UNUSABLE.get() else []


@functools.cache
def _messages_of(code: str) -> dict[str, str]:
    """Language ``code``'s text of every message -> the message (the last one where two
    messages share a text: see :func:`message_of`)."""
    return {text: message for message, text in messages(code).items()}


def message_of(text: str, code: str) -> str | None:
    """The message whose text in ``code`` is ``text``: the one this session's last run
    showed it for (two messages may share a Korean text, "Privacy" and "privacy" say), else
    the catalog's; None if ``text`` is no message's text."""
    if code == SOURCE_LANGUAGE:
        return text if text in messages(SOURCE_LANGUAGE) else None
    shown = st.session_state.get(_SHOWN_KEY) or {}
    return shown.get(text) or _messages_of(code).get(text)


def translated(text: str, old: str, new: str) -> str:
    """``text`` written in ``old`` as ``new`` writes it, when it is a message's whole text
    (an option or tab label) or a label made from a template and a name
    (:func:`ui.text.label_family`); other text as it is."""
    message = message_of(text, old) if old != new else None
    if message is None:
        return (relabelled(text, old, new) or text) if old != new else text
    return message if new == SOURCE_LANGUAGE else catalog(new).gettext(message)


def spoken(text: str) -> str:
    """An English option label (a link value written in English) as this run's language
    writes it."""
    return translated(text, SOURCE_LANGUAGE, language())


def _relabelled(value, old: str, new: str):
    if isinstance(value, str):
        return translated(value, old, new)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return [translated(v, old, new) for v in value]
    return value


def relabel(old: str, new: str) -> None:
    """Session values that are labels in ``old`` (a tab, an option given by its text) become
    the same labels in ``new``, so the view stays as it was."""
    for key in list(st.session_state):
        if key.startswith("lang_"):
            continue
        labels = internals.option_labels(key)
        if labels is not None:
            # An option named by a format_func ("classical" shown as "고전적") is the same
            # in every language, but the browser holds its label: set it again, so that the
            # browser is sent the label in ``new`` (it would show, and send back, the old).
            if any(translated(label, old, new) != label for label in labels):
                st.session_state[key] = st.session_state[key]
            continue
        value = st.session_state[key]
        changed = _relabelled(value, old, new)
        if changed != value:
            st.session_state[key] = changed


def localize_link(code: str) -> None:
    """A link's values that are English labels (a link made before ``lang`` existed, a
    page's own link or experiment, written in English) become the labels of ``code``,
    before the controls read them: also where a control holds a value already (a "Try
    this" link opened from the page). A control of a page in ``code`` writes its labels in
    ``code``, which are left as they are."""
    if code != SOURCE_LANGUAGE:
        relabel_link(SOURCE_LANGUAGE, code)


def relabel_link(old: str, new: str) -> None:
    """The address's values that are labels in ``old`` become the same labels in ``new``
    (the language parameter aside)."""
    for key in list(st.query_params):
        if key == PARAM:
            continue
        values = st.query_params.get_all(key)
        changed = [translated(v, old, new) for v in values]
        if changed != values:
            internals.rewrite_link_value(key, changed)


def _switched() -> None:
    """The language control's callback: the view's labels, in the session and in the
    address (an open tab, an option given by its text), follow the new language, so the
    view and its Share link stay as they were."""
    new = st.session_state.get(PARAM)
    old = st.session_state.get(_SPOKEN, SOURCE_LANGUAGE)
    if new is not None and new != old:
        relabel(old, new)
        relabel_link(old, new)


# The language of the previous run, which this session also wrote into the address.
_SPOKEN = "lang_spoken"
_SHOWN_KEY = "lang_shown"  # the texts the last run showed -> their messages (ui.text.t)
# The session's language: state that outlives a page's view (ui.kit.fresh_visit keeps it).
SESSION_KEYS = frozenset({PARAM, _SPOKEN, _SHOWN_KEY})


def choose() -> str:
    """The language of this run: read, set for :func:`ui.text.t`, shown as a sidebar
    control and written into the URL."""
    asked = st.query_params.get_all(PARAM) if PARAM in st.query_params else []
    _UNUSABLE.set(False)
    if PARAM not in st.session_state:  # a session's first run
        st.session_state[PARAM] = from_browser() if not asked else SOURCE_LANGUAGE
    # A link's language: on a session's first run, or when the address now names another
    # language than the one this session wrote into it (not after a switch in the sidebar,
    # which the address follows at the end of the run).
    if asked and asked != [st.session_state.get(_SPOKEN)]:
        if len(asked) == 1 and asked[0] in LANGUAGES:
            st.session_state[PARAM] = asked[0]
        else:
            _UNUSABLE.set(True)
    code = st.session_state[PARAM]
    use_language(code)
    shown: dict[str, str] = {}
    st.session_state[_SHOWN_KEY] = shown
    record_shown(shown)
    localize_link(code)
    st.sidebar.radio(t("Language"), list(LANGUAGES), format_func=LANGUAGES.get, key=PARAM,
                     horizontal=True, on_change=_switched,
                     help=t("The language of the whole dashboard: pages, charts, downloads "
                            "and reports. Links to this view open in it."))
    if asked != [code]:
        st.query_params[PARAM] = code
    st.session_state[_SPOKEN] = code
    mark_document(code)
    return code


def mark_document(code: str) -> None:
    """The page's ``<html lang>`` follows the interface language, so a screen reader reads
    Korean text with a Korean voice (Streamlit writes "en" in its page and offers no
    setting). ``code`` is a key of :data:`LANGUAGES`, never a user's text."""
    internals.mark_language(code)
