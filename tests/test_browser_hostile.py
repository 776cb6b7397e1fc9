"""Real-browser check that hostile names and labels stay inert text (issue 19).

On every page that takes uploads, a file whose column names and labels are
tests/test_hostile_text.py's corpus (Markdown links and images, raw HTML with a script, a
LaTeX ``\\href``, autolinks and bare URLs, a 3,000-character label, right-to-left and
zero-width characters) is uploaded for every histogram or data source the page has; then
each of the page's tabs is opened in turn and Chromium renders it: its Markdown, metrics,
tables and Plotly charts (tick labels, legends, subplot titles). On no tab does an element
link to or load from the corpus's host, and no request leaves for it; the labels are on
screen as the text typed.

The fixtures (server, browser, page) are test_browser.py's; waits are ``expect`` only.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from browserkit import assert_no_traceback, expect, open_page, wait_idle
from test_browser import browser, page, server, shared_context  # noqa: F401  (fixtures)
from test_hardening import CMP, GAUSS, LDP, PLAN, RS
from test_hostile_text import HOSTILE_FILES, LINK, SCRIPT
from ui import registry

pytestmark = pytest.mark.browser

UP = "Uploaded CSV file"  # every page's label of its upload source
# Each upload page: its spec, and the address (query) that opens it with its sources set
# to the upload, the file kind of HOSTILE_FILES and a view that shows the file's labels.
OPENED = {
    CMP: (registry.COMPARE, {"cmp_a": UP, "cmp_b": UP}),
    PLAN: (registry.PLANNER, {"plan_a": UP, "plan_b": UP}),
    LDP: (registry.LDP, {"ldp_source": UP,
                         "ldp_file_kind": "one answer per user (a column of categories)"}),
    RS: (registry.SUBSTITUTION, {"rs_source": UP,
                                 "rs_file_kind": "one value per record (a column of categories)"}),
    GAUSS: (registry.GAUSSIAN, {"gauss_tab": "Release a statistic", "gauss_source": UP,
                                "gauss_query": "a histogram"}),
}

# Elements that link to or load from the corpus's host (HTML and SVG, xlink:href too).
LIVE_JS = """() => [...document.querySelectorAll('*')].filter(e =>
    [...e.attributes].some(a => /^(href|src|xlink:href|srcset|action)$/i.test(a.name)
                                && a.value.includes('example.org')))
  .map(e => [e.closest('[data-testid^="st"]')?.getAttribute('data-testid'),
              e.parentElement?.outerHTML.slice(0, 300)].join(': '))"""
# The text of the page's main area and of its charts' SVG (tick labels, legends, titles).
SHOWN_JS = """() => [document.querySelector('[data-testid="stMain"]').innerText,
    ...[...document.querySelectorAll('[data-testid="stPlotlyChart"] svg text')]
        .map(e => e.textContent)].join('\\n')"""


def test_every_upload_page_is_opened():
    assert set(OPENED) == set(HOSTILE_FILES)


@pytest.mark.parametrize("path", list(OPENED), ids=lambda p: p.split("/")[-1])
def test_hostile_upload_renders_as_text_on_every_tab(page, path, capsys):
    spec, query = OPENED[path]
    requested = []
    page.on("request", lambda req: requested.append(req.url)
            if "example.org" in req.url else None)
    open_page(page, f"{spec.url_path}?{urlencode(query)}", spec.title)
    wait_idle(page)
    _, text = HOSTILE_FILES[path]
    name = "[f](https://example.org/file).csv"
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        {"name": name, "mimeType": "text/csv", "buffer": text.encode()})
    # The chip shortens a long name in the middle; its title holds it whole.
    expect(page.locator('[data-testid="stFileChipName"]')).to_have_attribute("title", name)
    wait_idle(page)
    tabs = page.locator('[data-testid="stMain"] [role="tab"]')
    # The open tab (the page as the upload left it) first, then each other tab.
    selected = page.locator('[data-testid="stMain"] [role="tab"][aria-selected="true"]')
    first = selected.inner_text() if selected.count() else ""
    names = ["", *page.locator('[data-testid="stMain"] [role="tab"][aria-selected="false"]')
             .all_inner_texts()]
    shown, elements = "", 0
    for tab in names:
        if tab:
            tabs.filter(has_text=tab).first.click()
            expect(page.locator('[data-testid="stMain"] [role="tab"][aria-selected="true"]')
                   ).to_have_text(tab)
        wait_idle(page)
        assert_no_traceback(page)
        assert page.evaluate(LIVE_JS) == [], tab
        shown += page.evaluate(SHOWN_JS)
        elements += page.evaluate("() => document.querySelectorAll('*').length")
    assert requested == []
    # The labels reached the screen (so the test checked something), as typed.
    assert "example.org" in shown
    assert LINK in shown or SCRIPT in shown, shown[:2000]
    if first:  # back to the tab of the upload: the file is still used, in the uploader or
        # (when the uploader was in a tab closed meanwhile) as sources.kept_upload says
        tabs.filter(has_text=first).first.click()
        expect(page.locator(f'[data-testid="stFileChipName"][title="{name}"]').or_(
            page.get_by_text(re.compile(r"Using \[f\]\(https:\W*//example\.org/file\)\.csv, "
                                        "uploaded earlier")))).to_be_visible()
        wait_idle(page)
        assert page.evaluate(LIVE_JS) == []
        assert "example.org" in page.evaluate(SHOWN_JS)
    with capsys.disabled():
        print(f"\n{path}: {len(names)} views (tabs), {elements:,} elements, 0 live, "
              f"0 requests to the corpus's host")
