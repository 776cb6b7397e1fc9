"""Text on its way to the screen: translation, escaping of what users wrote, plain errors.

Two functions every page uses, so that each of these is a one-place change:

- :func:`t` -- every string the dashboard itself shows passes through it and comes out in
  the reader's language: GNU gettext catalogs (``locale/<language>/LC_MESSAGES/messages.po``,
  kept with Babel: ``python scripts/i18n.py``), compiled to ``.mo`` files when missing or
  older than their ``.po`` file.
- :func:`esc` -- every string a user provided (file names, column names, bin labels,
  category names, URL values echoed back) passes through it before it reaches Markdown:
  ``st.markdown``, alerts, captions, metric labels and the report's findings.
"""

from __future__ import annotations

import contextvars
import functools
import gettext
import re
from pathlib import Path

from dpcore.errors import ArgumentError, Phrase, parameter_fields
from dpviz import text as dpviz_text

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


LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
DOMAIN = "messages"
#: The interface languages, code -> its name in itself (English is the source language).
LANGUAGES = {"en": "English", "ko": "한국어"}
SOURCE_LANGUAGE = "en"
# The reader's language on this script run. Streamlit runs each session's script in its own
# thread (a thread starts with the default), and ui.language sets it at the top of every run.
_LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("language",
                                                                default=SOURCE_LANGUAGE)


def use_language(code: str) -> None:
    """Speak ``code`` (a key of :data:`LANGUAGES`) on this script run, in this thread."""
    if code not in LANGUAGES:
        raise ValueError(f"language must be one of {sorted(LANGUAGES)}, not {code!r}")
    _LANGUAGE.set(code)
    # The figures, the report and the view's code speak it too (dpviz knows no Streamlit).
    dpviz_text.use_translation(None if code == SOURCE_LANGUAGE else catalog(code).gettext)


def language() -> str:
    """The reader's language on this script run."""
    return _LANGUAGE.get()


def speaking(fn):
    """``fn`` made to run in this run's language wherever it is called: a download's file
    is written when the button is pressed, in a thread of the server that speaks no
    language of its own. Each call runs in a fresh context, so nothing leaks into that
    thread."""
    code = language()

    def call(*args, **kwargs):
        def run():
            use_language(code)
            return fn(*args, **kwargs)
        return contextvars.Context().run(run)
    return call


def N_(text: str, /) -> str:  # noqa: N802 - gettext's name for "translate later"
    """``text`` as it is: marks a message kept in a table and translated where it is shown
    (``t(TABLE[key])``), so that the catalog's extraction finds it."""
    return text


def compiled(code: str) -> Path:
    """The compiled catalog of language ``code``: compiled from its ``.po`` file (with
    Babel) when the ``.mo`` file is missing or older, as after a fresh clone."""
    po = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    mo = po.with_suffix(".mo")
    if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
        from babel.messages.mofile import write_mo  # noqa: PLC0415 - only when compiling
        from babel.messages.pofile import read_po

        with po.open("rb") as source:
            catalog = read_po(source, locale=code)
        tmp = mo.with_suffix(f".{id(catalog)}.tmp")  # another process may compile it too
        with tmp.open("wb") as target:
            write_mo(target, catalog)
        tmp.replace(mo)
    return mo


@functools.cache
def messages(code: str) -> dict[str, str]:
    """Language ``code``'s catalog as it is written: message -> its text (translated
    messages only)."""
    from babel.messages.pofile import read_po  # noqa: PLC0415

    with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as po:
        return {m.id: m.string for m in read_po(po, locale=code)
                if m.id and isinstance(m.id, str) and m.string}


@functools.cache
def catalog(code: str) -> gettext.GNUTranslations:
    """Language ``code``'s messages (compiled on first use, when needed)."""
    with compiled(code).open("rb") as mo:
        return gettext.GNUTranslations(mo)


# The texts this run showed in a language other than English -> their messages, the first
# message kept (controls and tabs come before the results that may share their words):
# switching back to English reads a label's message here (ui.language.relabel).
_SHOWN: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar("shown",
                                                                             default=None)


def record_shown(shown: dict[str, str] | None) -> None:
    """Keep the texts this run shows, and their messages, in ``shown`` (None: do not)."""
    _SHOWN.set(shown)


# Option labels made from a template and a name ("Population 2020: Korea", "Korea vs USA
# (large effect)"): no message's whole text, so ui.language finds them here to say a link's
# or a session's label in another language. Each family: its keys, and key -> its label.
_LABEL_FAMILIES: list[tuple[tuple, object]] = []


def label_family(keys):
    """Decorator: register a function (key -> an option label made from a template, in the
    reader's language) over ``keys``, so that :func:`relabelled` can say those labels in
    another language. The function is returned as it is."""
    def register(label):
        _LABEL_FAMILIES.append((tuple(keys), label))
        return label
    return register


def _labels_in(code: str, keys: tuple, label) -> dict[str, object]:
    def run():
        use_language(code)
        return {label(key): key for key in keys}
    return contextvars.Context().run(run)


@functools.cache
def _family_labels(code: str, index: int) -> dict[str, object]:
    keys, label = _LABEL_FAMILIES[index]
    return _labels_in(code, keys, label)


def relabelled(text: str, old: str, new: str) -> str | None:
    """An option label of a registered family (:func:`label_family`) written in ``old``, as
    ``new`` writes it; None if ``text`` is none of them."""
    for index, (keys, label) in enumerate(_LABEL_FAMILIES):
        key = _family_labels(old, index).get(text)
        if key is not None:
            return next(other for other, k in _family_labels(new, index).items() if k == key)
    return None


def t(text: str, /, **values) -> str:
    """``text`` in the reader's language, with ``{name}`` fields filled from ``values``.

    English is the source language: its text is returned as it is. Values are inserted
    after translation, so a translator moves them freely; a value that a user provided must
    already have passed through :func:`esc`.
    """
    code = _LANGUAGE.get()
    if code != SOURCE_LANGUAGE:
        message, text = text, catalog(code).gettext(text)
        shown = _SHOWN.get()
        if shown is not None and not values:
            shown.setdefault(text, message)
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
    """An error's message as a page shows it: in the reader's language, in plain words
    (:func:`plain`) and inert (:func:`esc`).

    dpcore's refusals (:class:`dpcore.errors.ArgumentError`, uploads' errors among them)
    are said from their template and fields, never from their English text: the template
    is looked up in the catalog (``scripts/i18n.py`` extracts dpcore's templates), its
    fields are filled in, parameter names (``name``, ``name_…``) become the page's
    ``symbols``, and phrases (:class:`dpcore.errors.Phrase`) are said the same way.
    Messages quote the user's cells, column names and categories as they are, so the whole
    message is escaped, once, here."""
    return esc(error_words(error, symbols))


def error_words(error: BaseException | str, symbols: dict[str, str] | None = None) -> str:
    """:func:`error_text` not yet escaped: for a message that quotes no user's text (a
    refused setting), where the caller escapes or formats it."""
    message = _said(error, symbols or {}) if isinstance(error, ArgumentError) else str(error)
    return plain(message, symbols)


def _said(error: ArgumentError | Phrase, symbols: dict[str, str]) -> str:
    """An ArgumentError's or a Phrase's text in the reader's language."""
    text = t(error.template)
    if not error.fields:
        return text
    names = set(parameter_fields(error.fields))
    fields = {key: (symbols.get(str(value), str(value)) if key in names
                    else _said(value, symbols) if isinstance(value, Phrase) else value)
              for key, value in error.fields.items()}
    return text.format(**fields)


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
