"""Hostile names and labels stay inert text on every page that takes uploads (issue 19).

A file whose column names and labels (bin labels, group names, category answers) are
Markdown links and images, raw HTML, a LaTeX ``\\href`` and a formula between dollars is
uploaded on every upload page; on every tab, every text Streamlit renders as Markdown
(prose, captions, alerts, metric labels and values, widget labels) is rendered with
CommonMark (markdown-it-py, as tests/test_ui_text.py does): no link, image or HTML element
comes from the corpus, and no formula either; the report's HTML holds none of the corpus's
elements. The count of texts checked is printed with ``-s -n 0``.
"""

from __future__ import annotations

import html
import re

import pytest
from markdown_it import MarkdownIt

from pagekit import kit
from test_hardening import CMP, GAUSS, LDP, PLAN, RS, UPLOAD_PAGES
from test_hostile_exports import answers, csv_file, other_tabs, uploaded
from test_ui_text import AUTOLINK_LITERAL

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
LINK = "[x](https://example.org/a)"
IMAGE = "![i](https://example.org/p.png)"
HTML = "<a href='https://example.org/h'>h</a><img src='https://example.org/q.png'>"
SCRIPT = "<script>alert(1)</script>"
LATEX = r"$\href{https://example.org/l}{l}$"
AUTOLINK = "<https://example.org/auto>"
BARE = "see https://example.org/bare or www.example.org and me@example.org"
LONG = "L" * 3000 + " [x](https://example.org/long)"  # a link at the end of a long label
RTL = "\u202e[x](https://example.org/rtl)\u202c سلام שלום"  # an override, Arabic, Hebrew
ZERO_WIDTH = "\u200b[x](https://example.org/zw)\u200d\ufeff"  # zero-width space, joiner, BOM
# Each payload once as a label and in a column name; "example.org" marks what came from it.
PAYLOADS = (LINK, IMAGE, HTML, SCRIPT, LATEX, AUTOLINK, "**bold** _em_ # h", BARE, LONG, RTL,
            ZERO_WIDTH)
# What CommonMark would make live of the corpus: a link or image to its host, raw HTML,
# its emphasis and heading.
LIVE = re.compile(r"<(?:a|img)\b[^>]*example\.org[^>]*>|<script|<strong>bold</strong>"
                  r"|<em>em</em>|<h1>h</h1>", re.I)


HOSTILE_FILES = {
    CMP: ("counts", csv_file(["bin", LINK, IMAGE],
                             [[p, 50 + 10 * i, 60 + 5 * i] for i, p in enumerate(PAYLOADS)])),
    PLAN: ("counts", csv_file(["group", LINK, HTML],
                              [[p, 500 + 10 * i, 400 + 20 * i] for i, p in enumerate(PAYLOADS)])),
    LDP: ("categories", csv_file([LINK], answers(PAYLOADS))),
    RS: ("categories", csv_file([IMAGE], answers(PAYLOADS))),
    GAUSS: ("counts", csv_file(["bin", LINK],
                               [[p, 50 + 10 * i] for i, p in enumerate(PAYLOADS)])),
}


def rendered_texts(at) -> list[str]:
    """Every text of the page that Streamlit renders as Markdown."""
    out = [m.value for m in at.markdown] + [c.value for c in at.caption]
    out += [e.value for kind in ("info", "warning", "error", "success") for e in at.get(kind)]
    out += [f"{m.label} {m.value}" for m in at.metric]
    for kind in ("slider", "select_slider", "number_input", "selectbox", "radio", "toggle",
                 "multiselect", "segmented_control", "file_uploader"):
        out += [str(getattr(w, "label", "")) for w in at.get(kind)]
    return [str(x) for x in out]


def report_live(at) -> list[str]:
    """Live HTML from the corpus in the page's report (its findings, settings, notes and
    tables are HTML-escaped; the charts' data are JSON)."""
    html = kit(at).report_builder("")()
    return re.findall(r"<a href='https://example\.org|<img src='https://example\.org"
                      r"|<script>alert", html)


def live_parts(text: str) -> list[str]:
    """What CommonMark makes live of ``text`` from the corpus: links and images to its host,
    raw HTML, its emphasis; and a formula holding it (Streamlit typesets $ … $)."""
    rendered = MD.render(text)
    live = LIVE.findall(rendered)
    # GitHub's autolink literals (Streamlit renders them; CommonMark does not) would link a
    # URL or address in the text as displayed.
    shown = html.unescape(re.sub(r"<[^>]+>", "", rendered))
    live += AUTOLINK_LITERAL.findall(shown)
    live += re.findall(r"(?<!\\)\$[^$]*example\.org[^$]*(?<!\\)\$", text)
    return live


def test_every_upload_page_is_covered():
    assert set(HOSTILE_FILES) == set(UPLOAD_PAGES)


@pytest.mark.parametrize("path", list(HOSTILE_FILES), ids=lambda p: p.split("/")[-1])
def test_hostile_names_and_labels_stay_inert_text(path, capsys):
    kind, text = HOSTILE_FILES[path]
    at = uploaded(path, kind, "[f](https://example.org/file).csv", text)
    texts = rendered_texts(at)
    for _ in other_tabs(at, path):
        texts += rendered_texts(at)
    shown = [t for t in texts if "example" in t]  # escaped, its dot reads "example\\.org"
    in_report = [v for v in kit(at).parameters.values() if "example" in v]
    assert shown or in_report, "the corpus reached no text: the test would check nothing"
    live = [(t[:120], live_parts(t)) for t in texts if live_parts(t)]
    assert not live, live[:5]
    assert report_live(at) == []
    with capsys.disabled():
        print(f"\n{path}: {len(texts)} texts, {len(shown)} holding the corpus, "
              f"{len(in_report)} report settings holding it, 0 live")


# Files each page refuses with a message that quotes the user's text (a cell, a column
# name, a category): the message is shown as text too. (kind, file) per page and case.
REFUSED = {
    "cell": ("counts", csv_file(["a", "b"], [[1, LINK], [2, 3]])),
    "column": ("counts", csv_file(["a", IMAGE], [[1, ""], [2, ""]])),
    "category": ("categories", csv_file([LINK], [[AUTOLINK]] * 3)),
}


@pytest.mark.parametrize("path", list(HOSTILE_FILES), ids=lambda p: p.split("/")[-1])
@pytest.mark.parametrize("case", list(REFUSED))
def test_messages_quoting_the_users_text_stay_inert(path, case):
    kind, text = REFUSED[case]
    if kind == "categories" and path not in (LDP, RS):
        pytest.skip("only the k-RR and substitution pages read a column of categories")
    at = uploaded(path, kind, "f.csv", text)
    errors = [e.value for e in at.error]
    assert any("example" in e for e in errors), errors  # refused, quoting the user's text
    live = [(e[:160], live_parts(e)) for e in errors if live_parts(e)]
    assert not live, live
