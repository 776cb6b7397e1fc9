"""Keyboard-only walkthrough of every routed page (WCAG 2.1.1 Keyboard, 2.4.7 Focus Visible):
`streamlit run app.py` in Debian's Chromium through Playwright, with test_browser.py's
fixtures. A page is opened by its URL; from then on nothing is clicked: only keys are pressed.

From the top of the page, Tab goes through everything the keyboard reaches, to the last
element and round to the first again. On the way, the walk:

- opens the header's popovers: Share (Enter shows the view's link; Escape closes it and gives
  the focus back to the button), Report (Enter, then to "Download the report (HTML)" and
  Enter: a <page>_report.html file) and Code (Enter, then to "Python script (.py)" and Enter:
  a script Python compiles). Streamlit draws a popover's content after the page's last
  element, not after its button: Tab from the button goes on through the whole page, so the
  walk reaches the content the short way, Shift+Tab across the top of the page;
- opens the first expander it meets (Enter) and walks its content;
- changes the main controls it meets in the main area, above the tabs and in the first tab's
  panel (not in a form): up to three sliders (ArrowRight; ArrowLeft at the end), the first
  selectbox (ArrowDown, Enter), number box (ArrowUp), radio group (ArrowDown), checkbox or
  toggle (Space) and segmented control (Enter on an option not chosen). Each change reruns
  the page (the browser asks for a run and the server answers) and the control keeps the
  focus and its new value. The sidebar holds the menu and the language choice: walked, not
  changed;
- at the tabs (Streamlit 1.67 opens a tab with the arrow keys, no Enter needed): walks the
  first tab's panel, comes back to the tab (Shift+Tab), then opens each other tab with
  ArrowRight (the page reruns, the tab keeps the focus), enters its panel with Tab and comes
  back; the last tab's panel is walked on to the end of the page. The first "Data (CSV)"
  under a chart, in whichever panel comes first, is downloaded with Enter: a CSV file with a
  header row;
- on the start page (no header, no controls), follows the first page link with Enter.

At every stop the focus must be visible: the focused element has an outline of 2 px or more,
or a box shadow, at an opacity a reader sees and with part of it inside every box that clips
it (an ancestor's overflow), once what the focus set moving (a toolbar fading in, an expander
opening) has ended. React Aria's radios, checkboxes, toggles and slider thumbs take the focus
on an <input> clipped to 1 px: for them the component around it (data-focus-visible) must
show it. The data grid of st.dataframe draws its focused cell in its canvas, which no style
tells: those stops are counted apart. Every stop where the focus is not visible is named at
the end, not only the first.

Streamlit now and then drops the focus to the document when the page reruns after a key (a
tab opened, a control changed): the walk notes it in the artifact and reaches the element
again (Chromium goes on from where the focus was).

Waits are Playwright's expect and wait_for_function (the browser asked for a run and heard
back) and browserkit.wait_idle; nothing sleeps. Each page's stops and actions, with their
counts, go to test-artifacts/keyboard-<url path or "home">.txt.
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections import Counter
from urllib.parse import urlsplit

import pytest

from browserkit import ARTIFACTS, EXPECT_TIMEOUT_MS, assert_clean, expect, open_page, wait_idle
from conftest import routed_pages
from ui import registry
from test_browser import browser, page, server, shared_context  # noqa: F401

pytestmark = pytest.mark.browser

PAGES = routed_pages()
MAX_STOPS = 1500  # the checked key presses of one page's walk (they are 50 to 300)

# The element that has the keyboard's focus: what it is, where, its state, and whether its focus
# is visible. null: the document itself (between the page's last element and its first).
STOP_JS = r"""
async () => {
  const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return null;
  // A toolbar fades in when it gets the focus, an expander opens: what they show once their
  // animations have ended (getAnimations also starts those the focus has just set off). They
  // are finished at once, and their handlers run in the next frames.
  const running = document.getAnimations().filter(a => a.effect && a.effect.target
    && a.effect.target.contains(e) && a.effect.getComputedTiming().iterations !== Infinity);
  if (running.length) {
    running.forEach(a => a.finish());
    for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
  }
  const lines = n => (n.innerText || '').split('\n').map(x => x.trim()).filter(Boolean);
  const box = n => n.getBoundingClientRect();
  const testid = (e.closest('[data-testid]') || {dataset: {}}).dataset.testid || '';
  const widget = e.closest('[data-testid="stSlider"], [data-testid="stSelectbox"], ' +
    '[data-testid="stNumberInput"], [data-testid="stRadio"], [data-testid="stCheckbox"], ' +
    '[data-testid="stButtonGroup"]');
  const kind =
    testid === 'stSkipToContent' ? 'skip'
    : e.getAttribute('role') === 'tab' ? 'tab'
    : e.type === 'range' ? 'slider'
    : e.getAttribute('role') === 'combobox' && widget && widget.dataset.testid === 'stSelectbox'
      ? 'selectbox'
    : e.tagName === 'INPUT' && widget && widget.dataset.testid === 'stNumberInput' ? 'number'
    : e.type === 'radio' ? 'radio'
    : e.type === 'checkbox' ? 'checkbox'
    : e.getAttribute('role') === 'radio' && widget && widget.dataset.testid === 'stButtonGroup'
      ? 'segment'
    : e.tagName === 'SUMMARY' && e.closest('[data-testid="stExpander"]') ? 'expander'
    : testid === 'stPopoverButton' ? 'popover'
    : testid === 'stPageLink-NavLink' ? 'pagelink'
    : e.closest('[data-testid="stDataFrame"]') && !e.closest('[data-testid="stElementToolbar"]')
      ? 'grid'
    : e.tagName.toLowerCase();
  // The control's label (a radio's and a segment's: its group's), and its value.
  const group = e.closest('[role="radiogroup"]');
  const label = (kind === 'radio' || kind === 'segment') && group
    ? group.getAttribute('aria-label') || ''
    : e.getAttribute('aria-label') || lines(e.closest('label') || e).join(' ');
  let value = null;
  if (kind === 'slider') value = e.getAttribute('aria-valuetext') || e.value;
  else if (kind === 'selectbox' || kind === 'number') value = e.value;
  else if (kind === 'checkbox') value = String(e.checked);
  else if (kind === 'radio' && group) {
    const on = group.querySelector('input:checked');
    value = on
      ? lines(on.closest('[data-testid="stRadioOption"]') || on.parentElement).join(' ') : '';
  } else if (kind === 'segment' && group)
    value = [...group.querySelectorAll('[aria-checked="true"]')]
      .map(b => lines(b).join(' ')).join(', ');
  else if (kind === 'tab') value = e.getAttribute('aria-selected');
  const panel = e.closest('[role="tabpanel"]');
  const panelTab = panel && document.getElementById(panel.getAttribute('aria-labelledby'));
  const tablist = kind === 'tab' ? e.closest('[role="tablist"]') : null;
  const info = {
    kind, tag: e.tagName.toLowerCase(), type: e.getAttribute('type') || '',
    role: e.getAttribute('role') || '', testid, label,
    name: (e.getAttribute('aria-label') || lines(e).join(' ') || e.value || '').slice(0, 70),
    lines: lines(e).slice(0, 6), value, raw: e.value || null, max: e.max || null,
    selected: e.getAttribute('aria-selected') === 'true', checked: !!e.checked,
    ariaChecked: e.getAttribute('aria-checked'),
    href: e.href || null,
    tabs: tablist
      ? [...tablist.querySelectorAll('[role="tab"]')].map(t => lines(t).join(' ')) : null,
    where: e.closest('[data-testid="stSidebar"]') ? 'sidebar'
      : e.closest('[data-testid="stPopoverBody"]') ? 'popover'
      : e.closest('[data-testid="stMain"]') ? 'main' : 'page',
    form: !!e.closest('[data-testid="stForm"]'),
    panel: panelTab ? lines(panelTab).join(' ') : null,
  };
  // Focus visibility. The data grid draws its focused cell in its canvas: no style tells.
  if (kind === 'grid') return {...info, visible: null, shownBy: 'the grid\'s canvas', how: ''};
  // React Aria's radios, checkboxes, toggles and slider thumbs take the focus on an <input>
  // clipped to 1 px: the component around it (data-focus-visible) shows the focus.
  const clipped = n => { for (let a = n, i = 0; a && i < 4; a = a.parentElement, i++) {
      const r = box(a), s = getComputedStyle(a);
      if ((r.width <= 1 || r.height <= 1) && (s.overflow !== 'visible' || s.clipPath !== 'none'))
        return true; } return false; };
  const shown = clipped(e) ? e.parentElement && e.parentElement.closest('[data-focus-visible]') : e;
  info.shownBy = shown === e ? 'itself'
    : shown ? shown.tagName.toLowerCase() + '[data-focus-visible]' : 'nothing';
  if (!shown) return {...info, visible: false, how: '',
    why: 'it is clipped to 1 px and no component around it shows the focus'};
  const cs = getComputedStyle(shown);
  let inner, outer, how;
  const ow = parseFloat(cs.outlineWidth) || 0, oo = parseFloat(cs.outlineOffset) || 0;
  if (cs.outlineStyle !== 'none' && ow >= 2) {
    inner = oo; outer = oo + ow; how = `outline ${ow}px ${cs.outlineColor}`;
  } else if (cs.boxShadow !== 'none') {
    const px = (cs.boxShadow.replace(/rgba?\([^)]*\)/g, '').match(/-?[\d.]+px/g) || [])
      .map(parseFloat);
    const [x = 0, y = 0, blur = 0, spread = 0] = px;
    const reach = Math.max(Math.abs(x), Math.abs(y)) + blur + spread;
    if (cs.boxShadow.includes('inset')) { inner = -reach; outer = 0; }
    else { inner = 0; outer = reach; }
    how = `box-shadow ${cs.boxShadow}`;
  } else {
    return {...info, visible: false, how: '',
      why: `no outline (${cs.outlineStyle} ${cs.outlineWidth}) and no box-shadow on ` +
           `${shown === e ? 'it' : info.shownBy} (background ${cs.backgroundColor})`};
  }
  let opacity = 1;
  for (let a = shown; a; a = a.parentElement) opacity *= parseFloat(getComputedStyle(a).opacity);
  if (opacity < 0.3 || cs.visibility !== 'visible')
    return {...info, visible: false, how, why: `its ${how} is not seen (opacity ${opacity})`};
  // Some of the ring lies inside every box that clips it.
  const r = box(shown);
  let clip = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
  for (let a = shown.parentElement; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
      const q = box(a);
      clip = {left: Math.max(clip.left, q.left), top: Math.max(clip.top, q.top),
              right: Math.min(clip.right, q.right), bottom: Math.min(clip.bottom, q.bottom)};
    }
  }
  const out = {left: Math.max(clip.left, r.left - outer), top: Math.max(clip.top, r.top - outer),
               right: Math.min(clip.right, r.right + outer),
               bottom: Math.min(clip.bottom, r.bottom + outer)};
  const seen = out.right > out.left && out.bottom > out.top && (
    out.left < r.left - inner - 1 || out.top < r.top - inner - 1 ||
    out.right > r.right + inner + 1 || out.bottom > r.bottom + inner + 1);
  return {...info, visible: seen, how,
          why: seen ? '' : `its ${how} is cut off by an ancestor's overflow`};
}
"""

# The messages the browser sent the server (a changed control asks for a run), and whether one
# sent after the first ``n`` has been answered (browserkit.INIT_SCRIPT records them).
SENT_JS = "() => window.__lt.ws.filter(e => e[0] === 'sent').length"
ANSWERED_JS = """(n) => {
  const ws = window.__lt.ws, sent = ws.filter(e => e[0] === 'sent');
  return sent.length > n && ws.some(e => e[0] === 'recv' && e[1] > sent[n][1]);
}"""

POPOVER_BODY = '[data-testid="stPopoverBody"]'
REPORT_BUTTON = "Download the report (HTML)"
SCRIPT_BUTTON = "Python script (.py)"
CHART_CSV = "Data (CSV)"
CHANGED = ("slider", "selectbox", "number", "radio", "checkbox", "segment")
LIMITS = {"slider": 3}  # how many of a kind the walk changes (else one)


def describe(stop: dict | None) -> str:
    """A focus stop for people: where, the element, its role, its name."""
    if stop is None:
        return "(the document)"
    tag = stop["tag"] + (f"[{stop['type']}]" if stop["type"] else "")
    role = f" role={stop['role']}" if stop["role"] else ""
    name = stop["label"] if stop["kind"] in CHANGED else stop["name"]
    return f"{stop['where']} {tag}{role} {stop['testid']} {name!r}"


class Walk:
    """One page's keyboard walk: every focus stop checked and logged, the counts."""

    def __init__(self, page, name: str):
        self.page, self.name = page, name
        self.log: list[str] = []
        self.stops = 0
        self.seen: set[str] = set()  # distinct stops
        self.hidden: dict[str, str] = {}  # focus not visible: stop -> why
        self.grid: set[str] = set()  # drawn by the data grid in its canvas
        self.counts: Counter = Counter()
        self.lost: list[str] = []  # the focus fell to the document when the page reran
        self.start = time.monotonic()

    def note(self, text: str) -> None:
        self.log.append(f"    [{time.monotonic() - self.start:5.1f} s] {text}")

    def refocus(self, stop: dict, after: str) -> dict:
        """The page reran after ``after`` and the focus fell to the document (Streamlit does
        so now and then): noted, and ``stop``'s control (a tab: that tab, open) reached again.
        Chromium goes on from where the focus was: Tab, then Shift+Tab back to it."""
        self.lost.append(f"{describe(stop)} after {after}")
        self.note(f"FOCUS LOST: the document has the focus once the page reran after {after}; "
                  "Tab, then Shift+Tab back to the element")
        self.press("Tab")
        return self.tab_to(lambda s: same_control(s, stop) and (
            s["kind"] != "tab" or s["selected"] and s["lines"][:1] == stop["lines"][:1]),
            key="Shift+Tab")

    def current(self) -> dict | None:
        return self.page.evaluate(STOP_JS)

    def press(self, key: str = "Tab") -> dict | None:
        """Press ``key``; check and log the stop it lands on."""
        self.page.keyboard.press(key)
        stop = self.current()
        self.stops += 1
        assert self.stops <= MAX_STOPS, f"{self.name}: no end after {MAX_STOPS} key presses"
        text = describe(stop)
        self.seen.add(text)
        if stop is None:
            verdict = ""
        elif stop["visible"] is None:
            verdict = f"  [{stop['shownBy']}]"
            self.grid.add(text)
        elif stop["visible"]:
            verdict = f"  [{stop['how'] if stop['shownBy'] == 'itself' else stop['shownBy']}]"
        else:
            verdict = f"  FOCUS NOT VISIBLE: {stop['why']}"
            self.hidden[text] = stop["why"]
        self.log.append(f"{key}: {text}{verdict}")
        return stop

    def tab_to(self, wanted, key: str = "Tab", limit: int = 250) -> dict:
        """Press ``key`` (Tab or Shift+Tab) until the focus is on a stop that ``wanted``
        accepts; fail with the stops visited when none is within ``limit`` presses."""
        visited = []
        for _ in range(limit):
            stop = self.press(key)
            if stop is not None and wanted(stop):
                return stop
            visited.append(describe(stop))
        raise AssertionError(f"{self.name}: {key} x {limit} never reached the element; visited:\n"
                             + "\n".join(visited))

    def sent(self) -> int:
        return self.page.evaluate(SENT_JS)

    def rerun(self, sent_before: int) -> None:
        """Until the browser has asked for a run since ``sent_before`` messages and the server
        has answered, then until the page is idle."""
        self.page.wait_for_function(ANSWERED_JS, arg=sent_before, polling=100,
                                    timeout=EXPECT_TIMEOUT_MS)
        wait_idle(self.page)

    def artifact(self) -> str:
        head = [
            f"Keyboard walk of /{self.name if self.name != 'home' else ''}",
            f"key presses: {self.stops}; distinct focus stops: {len(self.seen)}",
            f"controls changed: {sum(self.counts[k] for k in CHANGED)} "
            f"({', '.join(f'{k} {self.counts[k]}' for k in CHANGED if self.counts[k])})",
            f"tab panels visited: {self.counts['panel']} ({self.counts['tab']} opened with "
            f"ArrowRight); expanders opened: {self.counts['expander']}; "
            f"popovers opened: {self.counts['popover']}; downloads: {self.counts['download']}; "
            f"links followed: {self.counts['link']}",
            f"focus lost to the document when the page reran: {len(self.lost)} times",
            *(f"  - {text}" for text in self.lost),
            f"focus not visible: {len(self.hidden)} distinct stops",
            *(f"  - {text}: {why}" for text, why in sorted(self.hidden.items())),
            f"drawn by the data grid in its canvas (not checked by style): {len(self.grid)} "
            "distinct stops",
            "",
        ]
        return "\n".join(head + self.log) + "\n"


MARK = "data-keyboard-walk"  # the control being changed
MARK_JS = f"""(group) => {{
  for (const e of document.querySelectorAll('[{MARK}]')) e.removeAttribute('{MARK}');
  const e = document.activeElement;
  (group ? e.closest('[role="radiogroup"]') : e).setAttribute('{MARK}', '');
}}"""


def same_control(stop: dict | None, before: dict) -> bool:
    return stop is not None and all(stop[k] == before[k] for k in ("kind", "label", "where"))


def change(walk: Walk, stop: dict) -> None:
    """Change the control ``stop`` with its keys; the page reruns and the control keeps the
    focus and its new value."""
    page, kind = walk.page, stop["kind"]
    # The control (a radio's group) is marked, so that what its keys did is read off it even
    # when the focus falls to the document before the run (see Walk.refocus).
    page.evaluate(MARK_JS, kind == "radio")
    control = page.locator(f"[{MARK}]")
    sent = walk.sent()
    if kind == "slider":
        at_end = stop["max"] is not None and stop["raw"] == stop["max"]
        key = "ArrowLeft" if at_end else "ArrowRight"
        page.keyboard.press(key)
        expect(control).not_to_have_attribute("aria-valuetext", stop["value"])
    elif kind == "selectbox":
        key = "ArrowDown, Enter"
        page.keyboard.press("ArrowDown")
        expect(page.get_by_role("listbox")).to_be_visible()
        page.keyboard.press("Enter")
        expect(page.get_by_role("listbox")).to_have_count(0)
        expect(control).not_to_have_value(stop["value"])
    elif kind == "number":
        key = "ArrowUp"
        page.keyboard.press(key)
        expect(control).not_to_have_value(stop["value"])
    elif kind == "radio":
        key = "ArrowDown"
        page.keyboard.press(key)
        expect(control.locator('[data-testid="stRadioOption"]:has(input:checked)')
               ).not_to_have_text(stop["value"])
    elif kind == "checkbox":
        key = "Space"
        page.keyboard.press(key)
        expect(control).to_be_checked(checked=not stop["checked"])
    else:  # a segment not chosen
        key = "Enter"
        page.keyboard.press(key)
        expect(control).to_have_attribute("aria-checked", "true")
    walk.rerun(sent)
    after = walk.current() or walk.refocus(stop, key)
    assert same_control(after, stop), (
        f"{walk.name}: {describe(stop)} lost the focus when the page reran after {key}: "
        f"now on {describe(after)}")
    assert after["value"] != stop["value"], (  # the new value kept by the run
        f"{walk.name}: {describe(stop)} is back at {stop['value']!r} once the page reran "
        f"after {key}")
    walk.counts[kind] += 1
    walk.note(f"{key}: {stop['label']!r} {stop['value']!r} -> {after['value']!r}; the page "
              f"reran; address {urlsplit(page.url).query or '(no query)'}")


def download(walk: Walk, stop: dict, suffix: str) -> tuple[str, str]:
    """Enter on the download button ``stop``: the file's name (ending in ``suffix``) and text."""
    with walk.page.expect_download() as info:
        walk.page.keyboard.press("Enter")
    got = info.value
    path = got.path()
    assert got.failure() is None, (walk.name, stop["name"], got.failure())
    name = got.suggested_filename
    assert name.endswith(suffix), (walk.name, stop["name"], name)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    walk.counts["download"] += 1
    walk.note(f"Enter: downloaded {name} ({len(text):,} characters)")
    return name, text


def open_popover(walk: Walk, button: str):
    """Enter on the header button ``button``: its popover opens; the popover's body."""
    walk.page.keyboard.press("Enter")
    body = walk.page.locator(POPOVER_BODY)
    expect(body).to_be_visible()
    walk.counts["popover"] += 1
    walk.note(f"Enter: the {button} popover opened")
    return body


def popover_item(walk: Walk, item: str) -> dict:
    """Reach the open popover's ``item`` with Shift+Tab: Streamlit puts the popover's content
    after the page's last element, so back across the top of the page is the short way."""
    return walk.tab_to(lambda s: s["where"] == "popover" and item in s["lines"],
                       key="Shift+Tab", limit=80)


def close_popover(walk: Walk, button: str) -> None:
    """Escape: the popover closes and the focus is back on its button."""
    walk.page.keyboard.press("Escape")
    expect(walk.page.locator(POPOVER_BODY)).to_have_count(0)
    back = walk.current()
    assert back is not None and back["kind"] == "popover" and button in back["lines"], (
        f"{walk.name}: after Escape the focus is on {describe(back)}, not on {button!r}")
    walk.note(f"Escape: the {button} popover closed, the focus back on its button")


def header_popover(walk: Walk, stop: dict) -> None:
    page = walk.page
    if "Share" in stop["lines"]:
        page.keyboard.press("Enter")
        code = page.locator(f'{POPOVER_BODY} [data-testid="stCode"]')
        expect(code).to_be_visible()
        link = code.inner_text().strip()
        assert urlsplit(link).path == urlsplit(page.url).path, (walk.name, link, page.url)
        walk.counts["popover"] += 1
        walk.note(f"Enter: the Share popover shows {link}")
        close_popover(walk, "Share")
    elif "Report" in stop["lines"]:
        open_popover(walk, "Report")
        name, text = download(walk, popover_item(walk, REPORT_BUTTON), "_report.html")
        assert text.startswith("<!DOCTYPE html>"), (walk.name, name, text[:80])
        close_popover(walk, "Report")
    elif "Code" in stop["lines"]:
        body = open_popover(walk, "Code")
        if body.get_by_role("button").count() == 0:  # no code for this view: it says why
            walk.note(f"the Code popover says {body.inner_text().strip()!r}")
        else:
            name, text = download(walk, popover_item(walk, SCRIPT_BUTTON), ".py")
            compile(text, name, "exec")
        close_popover(walk, "Code")


def chart_csv(walk: Walk, stop: dict) -> None:
    name, text = download(walk, stop, ".csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert len(rows) >= 2 and rows[0], (walk.name, name, text[:200])
    numeric = re.compile(r"^-?[\d.,eE+-]+$")
    assert all(cell.strip() and not numeric.match(cell) for cell in rows[0]), (
        f"{walk.name}: {name} has no header row: {rows[0]}")


class PageWalk:
    """What the walk does at each stop: the actions above, each once (sliders three times)."""

    def __init__(self, walk: Walk):
        self.walk = walk
        self.tabs_done = False

    def act(self, stop: dict | None, panel_index: int | None = None) -> dict | None:
        """Act on ``stop`` (``panel_index``: in the panel of that tab, opened by open_tabs);
        returns the stop the focus is on when the action moved it on (else None)."""
        walk = self.walk
        if stop is None or stop["where"] not in ("main", "popover"):
            return None
        kind = stop["kind"]
        # Above the tabs, or in the first tab's panel
        first_view = stop["panel"] is None if panel_index is None else panel_index == 0
        if kind == "popover" and stop["where"] == "main":
            header_popover(walk, stop)
        elif (kind in CHANGED and first_view and not stop["form"]
              and walk.counts[kind] < LIMITS.get(kind, 1)
              and (kind != "segment" or stop["ariaChecked"] != "true")):
            change(walk, stop)
        elif kind == "expander" and not walk.counts["expander"]:
            walk.page.keyboard.press("Enter")
            expect(walk.page.locator("details[open] > summary:focus")).to_have_count(1)
            walk.counts["expander"] += 1
            walk.note(f"Enter: the expander {stop['name']!r} opened")
        elif kind == "button" and CHART_CSV in stop["lines"] and not walk.counts["csv"]:
            chart_csv(walk, stop)
            walk.counts["csv"] += 1
        elif kind == "tab" and stop["selected"] and not self.tabs_done and panel_index is None:
            self.tabs_done = True
            return self.open_tabs(stop)
        return None

    def open_tab(self, tab: dict, name: str) -> dict:
        """ArrowRight on the open tab ``tab`` opens the next one, ``name``; the page reruns,
        the tab keeps the focus. Returns the tab's stop."""
        walk, page = self.walk, self.walk.page
        selected = page.locator('[data-testid="stMain"] [role="tab"][aria-selected="true"]')
        sent = walk.sent()
        page.keyboard.press("ArrowRight")
        expect(selected).to_have_text(name)
        walk.rerun(sent)
        now = walk.current() or walk.refocus(
            {**tab, "lines": [name], "label": name, "name": name}, "ArrowRight")
        assert now["kind"] == "tab" and now["selected"] and now["lines"][:1] == [name], (
            f"{walk.name}: after ArrowRight to the tab {name!r} the focus is on {describe(now)}")
        expect(selected).to_have_count(1)
        expect(selected).to_have_text(name)
        walk.counts["tab"] += 1
        walk.note(f"ArrowRight: the tab {name!r} is open; address {urlsplit(page.url).query}")
        return now

    def panel(self, name: str, index: int) -> int:
        """Tab through the open panel ``name`` (the ``index``-th tab's), acting on its stops,
        until the focus leaves it (after the first tab's: as soon as a chart's CSV has been
        downloaded, before or in it); then Shift+Tab back to its tab. Returns the Tab
        presses."""
        walk, page = self.walk, self.walk.page
        walk.counts["panel"] += 1
        presses = 0
        while True:
            stop = walk.press("Tab")
            presses += 1
            if stop is None or stop["panel"] != name:
                break
            self.act(stop, panel_index=index)
            if index and walk.counts["csv"]:
                break
        # Back over the stops just checked: Shift+Tab unchecked but for the last two (a
        # control changed on the way may have added or taken stops).
        for _ in range(presses - 2):
            page.keyboard.press("Shift+Tab")
        walk.note(f"Shift+Tab x {max(presses - 2, 0)} unchecked, back over the panel")
        walk.tab_to(lambda s: s["kind"] == "tab" and s["selected"] and s["lines"][:1] == [name],
                    key="Shift+Tab")
        return presses

    def open_tabs(self, tab: dict) -> dict | None:
        """From the first tab, open: its panel walked (the page's first view: its controls are
        changed), then each other tab in turn, opened with ArrowRight, its panel entered
        (walked until a chart's CSV if none was downloaded yet) and left with Shift+Tab back
        to the tab. The last tab's panel is left to the walk: returns its first stop."""
        walk = self.walk
        names = tab["tabs"]
        assert names and names[0] == tab["lines"][0], (walk.name, names, tab["lines"])
        self.panel(names[0], 0)
        for i, name in enumerate(names[1:], start=1):
            tab = self.open_tab(tab, name)
            if i < len(names) - 1:
                self.panel(name, i)
        if len(names) == 1:
            return None
        walk.counts["panel"] += 1
        return walk.press("Tab")


def walk_page(page, routed) -> Walk:
    name = routed.url_path or "home"
    walk = Walk(page, name)
    try:
        first = walk.tab_to(lambda s: s["kind"] == "skip", limit=5)
        assert first["visible"], (name, first)
        actor = PageWalk(walk)
        stop = walk.press("Tab")
        while stop is None or stop["kind"] != "skip":  # round to the first element again
            stop = actor.act(stop) or walk.press("Tab")
        if routed.default:  # the start page: follow its first page link
            link = walk.tab_to(lambda s: s["kind"] == "pagelink" and s["where"] == "main")
            target = next(p for p in PAGES if p.url_path
                          and urlsplit(link["href"]).path.strip("/") == p.url_path)
            page.keyboard.press("Enter")
            expect(page).to_have_url(re.compile(rf"/{re.escape(target.url_path)}/?(\?|$)"))
            expect(page.get_by_role("heading", name=target.title).first).to_be_visible()
            wait_idle(page)
            walk.counts["link"] += 1
            walk.note(f"Enter: followed the link to {target.title!r}")
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"keyboard-{name}.txt").write_text(walk.artifact(), encoding="utf-8")
    return walk


@pytest.mark.parametrize("routed", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_every_page_by_keyboard(page, routed):
    """Every routed page, by keyboard alone: its controls, tabs, popovers and exports are
    reached and work, and every focus stop shows the focus (see the module's docstring)."""
    open_page(page, routed.url_path, routed.title)
    wait_idle(page)
    walk = walk_page(page, routed)
    if routed.default:
        assert walk.counts["link"] == 1
    else:
        assert walk.counts["popover"] >= 3, walk.counts  # Share, Report, Code
        # A Class page without an activity is a form (a teacher's setup, a code to type):
        # its fields change nothing until it is sent (tests/test_browser_class.py sends it).
        assert sum(walk.counts[k] for k in CHANGED) >= 1 or routed in registry.CLASS_PAGES, \
            walk.counts
        charts = page.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"]').count()
        assert walk.counts["csv"] or not charts, f"{routed.url_path}: no chart's CSV reached"
    assert_clean(page)
    assert not walk.hidden, (
        f"{routed.url_path or 'home'}: the focus is not visible at {len(walk.hidden)} stops:\n"
        + "\n".join(f"- {text}: {why}" for text, why in sorted(walk.hidden.items())))
