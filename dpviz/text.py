"""The figures' words in the reader's language. dpviz speaks English; the dashboard plugs
its translation in with use_translation(gettext) for the current script run (a context
variable, so each session's thread has its own), and every text passes through _().

dpcode's Markdown cells and the labels its programs print pass through the same _().
Messages are extracted by the catalog's keywords ``_`` and ``N_`` (babel.cfg)."""

from __future__ import annotations

import contextvars
import re
from collections.abc import Callable

__all__ = ["N_", "_", "use_translation"]

_TRANSLATE: contextvars.ContextVar[Callable[[str], str] | None] = contextvars.ContextVar(
    "dpviz_translate", default=None)

# Plotly's hover-template fields (%{x}, %{y:.3f}, %{customdata[0]:,.1f}): kept as they are
# when a message's {name} fields are filled.
_PLOTLY_FIELD = re.compile(r"(%\{[^{}]*\})")


def use_translation(gettext: Callable[[str], str] | None) -> None:
    """Translate every text of dpviz (and dpcode) with ``gettext`` (a callable str -> str)
    on this script run, in this thread; None: English, the source language."""
    if gettext is not None and not callable(gettext):
        raise TypeError("use_translation needs a callable str -> str, or None")
    _TRANSLATE.set(gettext)


def _(text: str, /, **values) -> str:
    """``text`` in the reader's language, then its ``{name}`` fields filled from ``values``
    (``text.format(**values)``; Plotly's ``%{…}`` fields are left as they are). Without
    values the text is returned as translated, braces and all."""
    translate = _TRANSLATE.get()
    if translate is not None:
        text = translate(text)
    if not values:
        return text
    parts = _PLOTLY_FIELD.split(text)
    return "".join(part if i % 2 else part.format(**values) for i, part in enumerate(parts))


def N_(text: str, /) -> str:  # noqa: N802 - gettext's name for "translate later"
    """``text`` as it is: marks a message kept in a constant or a table and translated where
    it is shown (``_(TABLE[key])``), so that the catalog's extraction finds it."""
    return text
