"""The accessibility audit (issue 24): axe-core in Chromium, on every routed page.

axe-core (bundled by axe-playwright-python: no download at run time) checks the open page
against WCAG 2.0 and 2.1, levels A and AA. tests/test_browser.py's page test runs it on
every routed page at its defaults (every expander of the main area open) and on each of
its tabs as the chart walk opens them (tests/chartkit.py): what the app renders must have
no violation of serious or critical impact. Streamlit's own components that break a rule
are left out of the audit by name (:data:`EXCLUDED`, with the rule; also in the README).
Every violation found, of any impact, is written per page, state and rule to
test-artifacts/axe-<page>.json (the issue's figures).
"""

from __future__ import annotations

import json

from browserkit import ARTIFACTS, wait_idle

# Streamlit's own components, each named with the axe rule it breaks there (README,
# "Accessibility"): the app renders none of their markup or colours.
EXCLUDED = [
    # st.navigation's sidebar menu: list / listitem
    '[data-testid="stSidebarNav"]',
    # st.code's syntax colours (color-contrast) and its scrolling <pre> that a keyboard
    # cannot focus (scrollable-region-focusable)
    '[data-testid="stCode"]',
    # the faded label of a disabled widget (color-contrast; WCAG 1.4.3 sets no contrast
    # for inactive controls): the Gaussian page's solved σ, shown but not editable
    ':is([data-testid="stNumberInput"], [data-testid="stSlider"], [data-testid="stSelectbox"])'
    ':has(input:disabled) [data-testid="stWidgetLabel"]',
]
OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
           "resultTypes": ["violations"]}
SERIOUS = ("serious", "critical")


def audit(page) -> list[dict]:
    """The violations axe-core finds in the open page, outside :data:`EXCLUDED`."""
    from axe_playwright_python.sync_playwright import Axe

    wait_idle(page)
    results = Axe().run(page, context={"exclude": [[s] for s in EXCLUDED]}, options=OPTIONS)
    return results.response["violations"]


CHART_TEXT = "in words and as a table"  # the end of a chart's text-and-table expander


def open_expanders(page, *, chart_text: bool = True) -> None:
    """Open every closed expander the reader can see (not those of hidden tabs);
    ``chart_text`` False: not the charts' text-and-table expanders (each opens with a rerun;
    the page's first view audits them, and they are the same markup on every tab)."""
    closed = page.locator('[data-testid="stMain"] [data-testid="stExpander"] '
                          'details:not([open]) summary').filter(visible=True)
    if not chart_text:
        closed = closed.filter(has_not_text=CHART_TEXT)
    for _ in range(30):
        if not closed.count():
            break
        closed.first.click()
        wait_idle(page)


class Audit:
    """The violations found on one page, state by state (:meth:`record`); :meth:`save`
    writes them to test-artifacts/axe-<page>.json and returns those of serious or critical
    impact."""

    def __init__(self, name: str):
        self.name = name
        self.found: dict[str, list] = {}

    def record(self, page, state: str) -> None:
        for v in audit(page):
            self.found.setdefault(state, []).append(
                {"rule": v["id"], "impact": v["impact"], "nodes": len(v["nodes"]),
                 "targets": [", ".join(n["target"]) for n in v["nodes"]][:5],
                 "html": [n.get("html", "")[:300] for n in v["nodes"]][:3]})

    def save(self) -> dict[str, list]:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"axe-{self.name}.json").write_text(
            json.dumps(self.found, indent=1, ensure_ascii=False), encoding="utf-8")
        return {state: [v for v in found if v["impact"] in SERIOUS]
                for state, found in self.found.items()
                if any(v["impact"] in SERIOUS for v in found)}
