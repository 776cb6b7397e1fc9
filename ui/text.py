"""Text on its way to the screen: translation, escaping of what users wrote, plain errors.

Two functions every page uses, so that each of these is a one-place change:

- :func:`t` -- every string the dashboard itself shows passes through it (identity while
  the dashboard speaks English only; the translation catalogue plugs in here).
- :func:`esc` -- every string a user provided (file names, column names, bin labels,
  category names, URL values echoed back) passes through it before it reaches Markdown:
  ``st.markdown``, alerts, captions, metric labels and the report's findings.
"""

from __future__ import annotations

import re

# Characters that Markdown (CommonMark as Streamlit renders it, with its extensions:
# LaTeX between $…$, :material/…: and :emoji: codes, colour directives) reads as syntax;
# "&" would start an entity (&amp;).
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:=^&])")
WORD_JOINER = "\u2060"
# The places where an autolink literal starts: "://", "www." and "@" (its last character is
# kept after the word joiner).
_AUTOLINK = re.compile(r":/|www\.|@.", re.I)
# Unicode's explicit direction controls (embeddings, overrides, isolates, marks).
_BIDI = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def t(text: str, /, **values) -> str:
    """``text`` in the reader's language, with ``{name}`` fields filled from ``values``.

    English is the source language, so today this returns ``text`` itself (formatted when
    values are given). Values are inserted after translation, so a translator moves them
    freely; a value that a user provided must already have passed through :func:`esc`.
    """
    return text.format(**values) if values else text


def esc(text: object) -> str:
    """A user's text made inert for Markdown: shown as typed, never a link, image,
    formula, heading or emphasis. Newlines become spaces (a label is one line)."""
    flat = " ".join(str(text).split())
    # GitHub's autolink literals, which Streamlit renders, link a bare URL, www. address or
    # e-mail address found in the text as displayed, after escapes and character references
    # are read: an invisible word joiner (U+2060) inside "://", after "www" and after "@"
    # keeps them text.
    flat = _AUTOLINK.sub(lambda m: m.group()[:-1] + WORD_JOINER + m.group()[-1], flat)
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", flat)
    # A right-to-left override or embedding in it stays inside it: the text is isolated
    # (U+2068 … U+2069), so the sentence around it reads in its own order.
    return f"\u2068{escaped}\u2069" if _BIDI.search(flat) else escaped


def error_text(error: BaseException | str, symbols: dict[str, str] | None = None) -> str:
    """An error's message as a page shows it: in plain words (:func:`plain`) and inert
    (:func:`esc`). Messages are plain text that quotes the user's cells, column names and
    categories as they are, so the whole message is escaped, once, here."""
    return esc(plain(str(error), symbols))


def plain(message: str, symbols: dict[str, str] | None = None) -> str:
    """dpcore's messages in plain words: no code quotes, argument names as the page's symbols.

    ``symbols`` maps argument names to what the page calls them (``{"eps": "ε"}``);
    a mapped name is replaced wherever it stands as a word, quoted or not.
    """
    symbols = symbols or {}
    text = re.sub(r"`(\w+)`", lambda m: symbols.get(m.group(1), m.group(1)), message)
    for name, symbol in symbols.items():
        text = re.sub(rf"\b{re.escape(name)}\b", symbol, text)
    return text
