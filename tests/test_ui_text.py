"""ui.text: the one translation function and the one escaping function for user text."""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from shown import as_read
from ui.text import WORD_JOINER, error_text, esc, plain, t

REPO = Path(__file__).resolve().parents[1]

# CommonMark with the extensions Streamlit's Markdown also renders (tables, strikethrough).
MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])

# What GitHub's autolink literals (remark-gfm, in Streamlit's Markdown) link in the text as
# displayed, escapes and character references read: a URL, a www. address, an e-mail address.
AUTOLINK_LITERAL = re.compile(r"(?i)https?://|www\.|[\w.+-]@[\w-]")

HOSTILE = [
    "[x](https://example.org) ![i](https://example.org/p.png)",
    "<b>bold</b> <a href='https://example.org'>a</a> <img src=x onerror=alert(1)>",
    "# heading", "- item", "1. item", "> quote", "`code`", "*em* _em_ **strong** __strong__",
    "~~gone~~", "| a | b |", "$x^2$", ":material/home: :smile:", "=HYPERLINK(\"x\")",
    "a\\b", "line one\nline two", "<https://example.org>", "[ref]: https://example.org",
    "&amp; &lt;", "column_with_underscores_", "", "see https://example.org/x now",
    "www.example.org", "mail me@example.org", "https\\://example.org", "a\\@b.c",
]


def rendered_text(markdown: str) -> tuple[str, str]:
    """(the HTML CommonMark makes of ``markdown``, its visible text)."""
    out = MD.render(markdown)
    visible = html.unescape(re.sub(r"<[^>]+>", "", out)).strip()
    return out, visible


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_user_text_renders_as_typed_and_inert(text):
    out, visible = rendered_text(esc(text))
    assert not re.search(r"<(?!/?p>)", out), out  # no element but the paragraph
    assert visible.replace(WORD_JOINER, "") == " ".join(text.split())
    assert not AUTOLINK_LITERAL.search(visible), visible


def test_right_to_left_text_is_isolated_from_the_sentence_around_it():
    for text in ("\u202egnp.exe", "abc\u202bdef", "x\u2067y"):
        out = esc(text)
        assert out.startswith("\u2068") and out.endswith("\u2069"), repr(out)
        assert rendered_text(out)[1].strip("\u2068\u2069") == text
    assert esc("zero\u200bwidth") == "zero\u200bwidth"  # kept as typed, nothing to isolate


def test_without_escaping_the_same_text_would_be_live():
    """The check above can fail: unescaped, CommonMark makes links, images and emphasis."""
    out, _ = rendered_text(HOSTILE[0])
    assert "<a href" in out and "<img" in out
    assert "<em>" in rendered_text(HOSTILE[7])[0]


def test_t_is_the_text_itself_until_a_catalogue_exists():
    assert t("Share") == "Share"
    assert t("N = {n}, α = {a}", n="1,000", a=0.5) == "N = 1,000, α = 0.5"
    # Without values a text is never formatted: braces of LaTeX stay as they are.
    assert t(r"e^{\varepsilon}") == r"e^{\varepsilon}"


def test_plain_names_parameters_by_the_pages_symbols():
    message = "`eps` must be positive; eps = -1 and `delta` = 2."
    assert plain(message, {"eps": "ε", "delta": "δ"}) == "ε must be positive; ε = -1 and δ = 2."
    assert plain("`k` must be an integer.") == "k must be an integer."


def test_error_text_shows_a_message_as_typed_in_plain_words():
    message = 'Row 2, column "b": "[x](https://example.org)" is not a number; `eps` > 0.'
    shown = error_text(ValueError(message), {"eps": "ε"})
    out, visible = rendered_text(shown)
    assert "<a" not in out and "<code>" not in out
    assert visible.replace(WORD_JOINER, "") == message.replace("`eps`", "ε")
    assert as_read(shown) == message.replace("`eps`", "ε")


# A caught exception may reach the screen only through error_text. These calls pass it on
# to a function that does: each is named with that function.
PASSED_ON = {
    "views/compare_histograms.py": ("logic.comparison_error(exc)", "comparison_error"),
    "ui/tabs.py": ("fail(exc)", "fail"),  # a page's fail= (views/substitution.py) escapes it
    # page.Unreleasable's message is Markdown built with error_text (ui/pages/gaussian.py).
    "views/gaussian.py": ("str(exc)", "Unreleasable"),
    # The group a degenerate null belongs to: a number, not a message.
    "ui/pages/class_histogram.py": ("error.which", "DegenerateNullError.which"),
    "views/class_histogram.py": ("page.comparison_error(error)", "comparison_error"),
}


def test_every_caught_exceptions_message_is_shown_through_error_text():
    """In ui/ and views/, a caught exception is used only as error_text's argument, as a
    raise's cause, or passed on as PASSED_ON lists: its message quotes the user's text."""
    unchecked = []
    for path in sorted([*REPO.joinpath("ui").rglob("*.py"), *REPO.joinpath("views").glob("*.py")]):
        tree = ast.parse(path.read_text("utf-8"))
        parents = {c: n for n in ast.walk(tree) for c in ast.iter_child_nodes(n)}
        for handler in ast.walk(tree):
            if not (isinstance(handler, ast.ExceptHandler) and handler.name):
                continue
            for use in ast.walk(handler):
                if not (isinstance(use, ast.Name) and use.id == handler.name):
                    continue
                parent = parents[use]
                if isinstance(parent, ast.Raise) and parent.cause is use:
                    continue
                if (isinstance(parent, ast.Call) and parent.args and parent.args[0] is use
                        and ast.unparse(parent.func).endswith("error_text")):
                    continue
                where = path.relative_to(REPO).as_posix()
                if PASSED_ON.get(where, ("",))[0] == ast.unparse(parent):
                    continue
                unchecked.append(f"{where}:{use.lineno}: {ast.unparse(parent)}")
    assert not unchecked, unchecked
    # The functions it is passed on to escape it.
    assert "error=error_text(error)" in (REPO / "ui/pages/compare_histograms.py").read_text()
    assert "error_text(exc" in (REPO / "views/substitution.py").read_text()
    assert "why=error_text(exc, SYMBOLS)" in (REPO / "ui/pages/gaussian.py").read_text()
