"""Issue 36: no table column and no select box cut off, and the header's buttons beside the
title, at 1,400 and 1,280 pixels wide (Chromium).

- A table (``st.dataframe``, drawn on a canvas) whose columns are wider than its box hides
  its last columns behind a scroll ("비고" on the Gaussian page, the f-DP auditor's table);
  a cut column is one the grid's scroller must scroll to (scroll width beyond its width).
- A select box shows its choice in an input that cuts it without an ellipsis ("Did you
  exercise yester"): the choice's text, measured in the input's font, is wider than the
  input's content box.
- The header's buttons (Share, Report, Code, Present) share one row.

The default tier checks one page (the randomized-response page, whose select box and header
were cut); the extended tier every tab of every page, in English and in Korean. The fixtures
are test_browser.py's; waits are ``expect`` and the idle wait only.
"""

from __future__ import annotations

import pytest

from browserkit import FRAMES_JS, expect, open_page, wait_idle
from conftest import routed_pages
from test_browser import browser, page, server, shared_context  # noqa: F401  (fixtures)
from ui.text import messages

pytestmark = pytest.mark.browser

WIDTHS = (1400, 1280)
HEIGHT = 1600

CUT_OFF_JS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const shown = e => e.offsetParent !== null && e.getBoundingClientRect().width > 0;
  const out = {tables: [], selects: [], header: []};
  main.querySelectorAll('[data-testid="stDataFrame"]').forEach((d, i) => {
    const s = d.querySelector('.dvn-scroller');
    if (shown(d) && s && s.scrollWidth > s.clientWidth + 1)
      out.tables.push(`table ${i}: ${s.scrollWidth - s.clientWidth} px of columns cut off`);
  });
  const ctx = document.createElement('canvas').getContext('2d');
  document.querySelectorAll('[data-testid="stSelectbox"]').forEach(sel => {
    const input = sel.querySelector('input');
    if (!shown(sel) || !input || !input.value) return;
    const cs = getComputedStyle(input);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    if (ctx.measureText(input.value).width > room + 1) out.selects.push(input.value);
  });
  const header = document.querySelector('.st-key-page_header');
  if (header) {
    const tops = [...header.querySelectorAll('button')].filter(shown)
      .map(b => Math.round(b.getBoundingClientRect().top));
    if (new Set(tops).size > 1) out.header.push(`buttons on ${new Set(tops).size} rows`);
  }
  return out;
}"""


def cut_off(page) -> dict[int, dict]:
    """What is cut off on the open view at each width of WIDTHS (only what is)."""
    found = {}
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": HEIGHT})
        page.evaluate(FRAMES_JS)
        wait_idle(page)
        got = {k: v for k, v in page.evaluate(CUT_OFF_JS).items() if v}
        if got:
            found[width] = got
    return found


def sweep(page, tabs: bool = True) -> dict[str, dict]:
    """:func:`cut_off` at the open page's defaults and, with ``tabs``, on each other tab."""
    wait_idle(page)
    found = {}
    main = page.locator('[data-testid="stMain"]')
    names = [main.get_by_role("tab").nth(i).inner_text()
             for i in range(main.get_by_role("tab").count())] if tabs else []
    if got := cut_off(page):
        found["defaults"] = got
    for n, name in enumerate(names[1:], start=1):
        tab = main.get_by_role("tab").nth(n)
        tab.click()
        expect(tab).to_have_attribute("aria-selected", "true")
        wait_idle(page)
        if got := cut_off(page):
            found[f"tab {name}"] = got
    return found


def test_nothing_is_cut_on_the_randomized_response_page(page):
    """The default tier's representative: the page whose data choice and header were cut,
    at its defaults (its first tab holds a table)."""
    [ldp] = [p for p in routed_pages() if p.url_path == "ldp"]
    open_page(page, ldp.url_path, ldp.title)
    assert sweep(page, tabs=False) == {}


PAGES = routed_pages()


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("routed", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_nothing_is_cut_on_any_tab(page, routed, lang):
    """The extended tier: every tab of every page, in both languages."""
    title = messages(lang)[routed.title] if lang != "en" else routed.title
    open_page(page, f"{routed.url_path}?lang={lang}", title)
    assert sweep(page) == {}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_nothing_is_cut_in_the_planners_frontier(page, lang):
    """The extended tier: the planner's frontier table (issue 36 found it cut), which the
    page draws only once *Compute the frontier* is pressed; R = B = 50 keep it quick."""
    [planner] = [p for p in routed_pages() if p.url_path == "planner"]
    said = messages(lang) if lang != "en" else {}
    open_page(page, f"planner?lang={lang}&plan_reps=50&plan_boot=50",
              said.get(planner.title, planner.title))
    main = page.locator('[data-testid="stMain"]')
    main.get_by_role("tab", name=said.get("Frontier", "Frontier"), exact=True).click()
    main.get_by_role("button", name=said.get("Compute the frontier",
                                             "Compute the frontier")).click()
    expect(main.locator('[data-testid="stDataFrame"]').first).to_be_visible(timeout=120_000)
    wait_idle(page)
    assert cut_off(page) == {}
