"""One notation across pages (ui/notation.py), checked on what every page shows.

Every page, on every tab, at its defaults: its prose, captions, alerts, metrics, control
labels and help, report findings and settings, chart titles and legends.

- The privacy level is ε. "α" names it only in the one note that gives Son, Park & Jung
  (2022)'s own symbol, "(α in Son, Park & Jung 2022)". On the f-DP page α is the attacker's
  type-I error (Dong, Roth & Su 2022), said in words, and never a privacy level.
- A test's level is its "significance level", never "α = 5%" or "at the 5% level".
- "the source" is never left unnamed: every source is cited by its authors.
"""

from __future__ import annotations

import re

import pytest

from conftest import LAST_KIT, open_page, run
from test_page_contract import CONTRACTS
from test_values_in_use import shown_texts
from ui import notation, registry

TAB_KEYS = {c.page.script: c.tab_key for c in CONTRACTS if c.tab_key}
# The note giving the source's own symbol: "(α in Son, Park & Jung 2022)", "(α₁ in …)",
# "(Lap(2/α) in …)".
SOURCE_ALPHA = re.compile(r"\((?:[^()]|\([^()]*\))*\s+in\s+" + re.escape(notation.SPJ22)
                          + r"\)")
UNNAMED_SOURCE = re.compile(r"\b(the|its|this) source\b(?!-\d)", re.I)


def page_texts(page: registry.PageSpec) -> list[tuple[str, str]]:
    """(tab, text) for every text the page shows on each of its tabs, help included. (A
    module fixture runs before conftest's page_kits: the page's kit is recorded here.)"""
    from ui.kit import PageKit

    original = PageKit.end

    def end(self):
        LAST_KIT[:] = [self]
        return original(self)

    PageKit.end = end
    try:
        LAST_KIT.clear()
        return _page_texts(page)
    finally:
        PageKit.end = original


def _page_texts(page: registry.PageSpec) -> list[tuple[str, str]]:
    at = open_page(page.script, None)
    key = TAB_KEYS.get(page.script)
    labels = [t.label for t in at.tabs] if key else [""]
    out = []
    for label in labels:
        if key and label != labels[0]:
            at.session_state[key] = label
            run(at)
        texts = shown_texts(at)
        for kind in ("slider", "select_slider", "number_input", "selectbox", "radio",
                     "toggle", "multiselect", "segmented_control", "button"):
            texts += [str(w.help or "") for w in at.get(kind) if hasattr(w, "help")]
        texts += [m.help or "" for m in at.metric]
        out += [(label, text) for text in texts if text]
    return out


PAGES = list(registry.TOOL_PAGES)


@pytest.fixture(scope="module", params=PAGES, ids=[p.name for p in PAGES])
def shown(request):
    return request.param, page_texts(request.param)


def test_privacy_level_is_epsilon_and_alpha_only_names_the_sources_symbol(shown):
    page, texts = shown
    for tab, text in texts:
        rest = SOURCE_ALPHA.sub("", text)
        if page is registry.FDP:  # α: the attacker's type-I error, never a privacy level
            assert not re.search(r"privacy (level|parameter)\s*α|α-DP", rest), (tab, text)
        else:
            assert "α" not in rest, (page.name, tab, text)


def test_the_testing_pages_name_the_sources_alpha_once_per_view(shown):
    page, texts = shown
    if page not in (registry.COMPARE, registry.CALIBRATION, registry.PLANNER):
        pytest.skip("not a testing page")
    assert any("α" in m.group() for _, text in texts for m in SOURCE_ALPHA.finditer(text)), \
        page.name


def test_a_tests_level_is_its_significance_level(shown):
    page, texts = shown
    for tab, text in texts:
        assert not re.search(r"\bat the \d+% level\b", text), (page.name, tab, text)
        assert not re.search(r"(?<![\w(])α\s*=\s*\d+(\.\d+)?%", text), (page.name, tab, text)


def test_every_source_is_named(shown):
    page, texts = shown
    for tab, text in texts:
        assert not UNNAMED_SOURCE.search(text), (page.name, tab, text)


def test_the_notation_table_gives_each_symbol_one_meaning():
    symbols = [s.symbol for s in notation.NOTATION]
    assert len(symbols) == len(set(symbols))
    at = open_page(registry.HOME.script, None)
    [table] = at.table
    assert list(table.value.index) == symbols
