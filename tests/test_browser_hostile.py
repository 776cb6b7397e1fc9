"""Real-browser check that hostile names and labels stay inert text (issue 19).

On the compare page, both histograms come from an uploaded file whose column names and
bin labels are Markdown links and images, raw HTML with a script, a LaTeX ``\\href`` and
an autolink (tests/test_hostile_text.py's corpus). Chromium then renders the page, its
Markdown, its metrics and its Plotly charts (tick labels, legends, subplot titles): no
element links to or loads from the corpus's host, no request leaves for it, and the labels
are on screen as the text typed.

The fixtures (server, browser, page) are test_browser.py's; waits are ``expect`` only.
"""

from __future__ import annotations

import pytest

from browserkit import choose, expect, open_page, wait_idle
from test_browser import browser, page, server, shared_context  # noqa: F401  (fixtures)
from test_hardening import CMP
from test_hostile_text import HOSTILE_FILES
from ui import registry

pytestmark = pytest.mark.browser

# Elements that link to or load from the corpus's host (HTML and SVG, xlink:href too).
LIVE_JS = """() => [...document.querySelectorAll('*')].filter(e =>
    [...e.attributes].some(a => /^(href|src|xlink:href|srcset|action)$/i.test(a.name)
                                && a.value.includes('example.org')))
  .map(e => [e.closest('[data-testid^="st"]')?.getAttribute('data-testid'),
              e.parentElement?.outerHTML.slice(0, 300)].join(': '))"""


def test_hostile_upload_on_the_compare_page_renders_as_text(page):
    requested = []
    page.on("request", lambda req: requested.append(req.url)
            if "example.org" in req.url else None)
    open_page(page, "compare_histograms", registry.COMPARE.title)
    wait_idle(page)
    choose(page, "Histogram A", "Uploaded CSV file")
    wait_idle(page)
    choose(page, "Histogram B", "Uploaded CSV file")
    _, text = HOSTILE_FILES[CMP]
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        {"name": "hostile.csv", "mimeType": "text/csv", "buffer": text.encode()})
    expect(page.locator('[data-testid="stFileChipName"]')).to_have_text("hostile.csv")
    expect(page.locator('[data-testid="stMetric"]').first).to_be_visible()
    wait_idle(page)
    expect(page.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
    wait_idle(page)
    assert page.evaluate(LIVE_JS) == []
    assert requested == []
    # The labels are there, as typed: in the chart's tick labels and the page's text.
    ticks = page.locator('[data-testid="stPlotlyChart"] .xtick text').evaluate_all(
        "els => els.map(e => e.textContent)")
    assert "[x](https://example.org/a)" in ticks, ticks[:10]
    assert "<script>alert(1)</script>" in ticks, ticks[:10]
    body = page.locator('[data-testid="stMain"]').inner_text()
    assert "[x](https://example.org/a)" in body
