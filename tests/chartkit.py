"""The charts of a page as Chromium drew them, read and walked for issue 23.

:func:`walk_charts` checks every chart of the open page at its defaults, with the first two
sliders of its first tab walked through their ends and the four pairs of ends, and on each
other tab at its defaults and with its first slider at both ends. At each state, on every
chart (:func:`chart_problems`):

- no annotation (a panel title or any other label) or axis title overlaps another or the
  legend;
- every annotation and the legend lie inside the chart;
- no annotation lies across a plot's x-axis line or y-axis line;
- no tick label uses an SI prefix (µ, m, k, M, G, …): Plotly's default writes a density
  of 5·10⁻⁵ as "50µ";
- no tick label overlaps another of its axis and level, and no group label of a two-level
  (multicategory) axis crosses a divider between groups (issue 36: "(ε_A, ε_B) = (1, 1)"
  ran into its neighbours and the dividers);
- no log axis labels a minor tick with a bare digit ("2", "5" for 20 and 50).

The sliders move by keyboard (Home, End), as a reader without a mouse would; waits are
browserkit's (Playwright's ``expect`` and the idle wait), never sleeps. Used by
tests/test_browser.py's page tests in English and in Korean; tests/test_browser_charts.py
checks :func:`chart_problems` itself on boxes drawn by hand.
"""

from __future__ import annotations

import re

from browserkit import expect, wait_idle

# Each visible chart of the main area as drawn: its box, its plots' boxes, its annotations'
# and legend's boxes, and its tick labels ([left, top, right, bottom] in CSS pixels).
CHARTS_JS = """() => {
  const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  return [...document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')]
    .filter(p => p.offsetParent !== null && p.getBoundingClientRect().width > 0)
    .map(p => ({
      paper: box(p.querySelector('.main-svg')),
      plots: [...p.querySelectorAll('.draglayer .nsewdrag')].map(box),
      annotations: [...p.querySelectorAll('.infolayer g.annotation')]
        .filter(a => a.textContent.trim())
        .map(a => ({text: a.textContent.trim(),
                    box: box(a.querySelector('.annotation-text-g') || a)}))
        .concat([...p.querySelectorAll('.infolayer .g-xtitle text, .infolayer .g-ytitle text, '
                                       + '.infolayer [class^="g-x"][class$="title"] text, '
                                       + '.infolayer [class^="g-y"][class$="title"] text')]
          .filter((t, i, all) => t.textContent.trim() && all.indexOf(t) === i)
          .map(t => ({text: t.textContent.trim(), box: box(t), title: true}))),
      legend: (() => { const l = p.querySelector('.infolayer g.legend .bg');
                       return l ? box(l) : null; })(),
      ticks: [...p.querySelectorAll('.xaxislayer-above text, .yaxislayer-above text')]
        .map(t => t.textContent.trim()).filter(Boolean),
      // each tick label with its box, axis and level ("x3tick", "x3tick2")
      tick_boxes: [...p.querySelectorAll('.xaxislayer-above g[class*="tick"], '
                                         + '.yaxislayer-above g[class*="tick"]')]
        .filter(g => g.textContent.trim() && g.querySelector('text'))
        .map(g => ({text: g.textContent.trim(), box: box(g.querySelector('text')),
                    group: g.getAttribute('class'),
                    // a turned label's box is not its outline: boxes of neighbours overlap
                    turned: /rotate\\((?!0[,)])/.test(g.querySelector('text').getAttribute('transform') || '')})),
      dividers: [...p.querySelectorAll('path[class$="divider"]')].map(box),
      // the bare minor digits Plotly writes on a log axis (drawn at 75% of the tick size)
      log_minor: [...p.querySelectorAll('.xaxislayer-above text, .yaxislayer-above text')]
        .filter(t => /^[2-9]$/.test(t.textContent.trim()) && t.parentElement
                && [...t.parentElement.parentElement.querySelectorAll('text')].some(
                     o => o !== t && parseFloat(o.style.fontSize) > parseFloat(t.style.fontSize)))
        .map(t => t.textContent.trim()),
    }));
}"""

TOL = 1.0  # px: boxes that only touch do not overlap
SI_TICK = r"^[−\-]?[\d.,]+\s?[yzafpnµμmkMGTPEZY]$"


def _overlap(a, b) -> bool:
    return (a[0] < b[2] - TOL and b[0] < a[2] - TOL and a[1] < b[3] - TOL
            and b[1] < a[3] - TOL)


def _inside(inner, outer) -> bool:
    return (inner[0] >= outer[0] - TOL and inner[1] >= outer[1] - TOL
            and inner[2] <= outer[2] + TOL and inner[3] <= outer[3] + TOL)


def _across_axis(b, plot) -> bool:
    """``b`` lies across the plot's x-axis line (its bottom edge) or y-axis line (its left
    edge), where either is drawn."""
    left, top, right, bottom = plot
    across_x = b[1] < bottom - TOL and b[3] > bottom + TOL and b[0] < right and b[2] > left
    across_y = b[0] < left - TOL and b[2] > left + TOL and b[1] < bottom and b[3] > top
    return across_x or across_y


def chart_problems(charts: list[dict]) -> list[str]:
    """What reads wrong in the charts as drawn (see the module's list)."""
    problems = []
    for i, c in enumerate(charts):
        labels = [(a["text"], a["box"]) for a in c["annotations"]]
        for j, (text, b) in enumerate(labels):
            for other, b2 in labels[j + 1:]:
                if _overlap(b, b2):
                    problems.append(f"chart {i}: {text!r} overlaps {other!r}")
            if c["legend"] and _overlap(b, c["legend"]):
                problems.append(f"chart {i}: {text!r} overlaps the legend")
            if not _inside(b, c["paper"]):
                problems.append(f"chart {i}: {text!r} leaves the chart")
            if not c["annotations"][j].get("title") and any(
                    _across_axis(b, plot) for plot in c["plots"]):
                problems.append(f"chart {i}: {text!r} lies on an axis line")
        if c["legend"] and not _inside(c["legend"], c["paper"]):
            problems.append(f"chart {i}: the legend leaves the chart")
        problems += [f"chart {i}: SI tick {tick!r}" for tick in c["ticks"]
                     if re.match(SI_TICK, tick)]
        problems += _tick_problems(i, c)
    return problems


def _tick_problems(i: int, c: dict) -> list[str]:
    """Tick labels of one axis and level drawn over each other, group labels across a
    divider, bare minor digits of a log axis."""
    problems = []
    ticks = c.get("tick_boxes", [])
    for j, a in enumerate(ticks):
        for b in ticks[j + 1:]:
            if (a["group"] == b["group"] and not (a.get("turned") or b.get("turned"))
                    and _overlap(a["box"], b["box"])):
                problems.append(f"chart {i}: tick {a['text']!r} overlaps {b['text']!r}")
        if a["group"].endswith("tick2"):  # a group label of a two-level axis
            left, top, right, bottom = a["box"]
            for d in c.get("dividers", []):
                x = (d[0] + d[2]) / 2
                if (left + TOL < x < right - TOL and d[1] < bottom - TOL
                        and d[3] > top + TOL):
                    problems.append(f"chart {i}: group label {a['text']!r} crosses a divider")
                    break
    problems += [f"chart {i}: bare minor tick {t!r} on a log axis"
                 for t in c.get("log_minor", [])]
    return problems


def check(page, where: str, seen: list) -> None:
    wait_idle(page)
    charts = page.evaluate(CHARTS_JS)
    seen.append((where, len(charts)))
    problems = chart_problems(charts)
    assert not problems, (where, problems)


def _sliders(scope):
    """The slider thumbs in ``scope`` (range inputs: their role is implicit)."""
    return scope.locator('[data-testid="stSlider"]').get_by_role("slider")


def _press(page, thumb, key: str, tries: int = 3) -> None:
    """Press Home or End on a slider thumb until it is at that end (a press that landed
    while a run re-mounted the widget is pressed again)."""
    end = thumb.get_attribute("min" if key == "Home" else "max")
    for _ in range(tries):
        if thumb.input_value() == end:
            return
        thumb.focus()
        page.keyboard.press(key)
        try:
            expect(thumb).to_have_value(end, timeout=5_000)
            return
        except AssertionError:
            continue
    expect(thumb).to_have_value(end)


def walk_charts(page, on_view=None, *, ends: bool = True) -> list[tuple[str, int]]:
    """Walk the open page's tabs and sliders (see the module), checking its charts at each
    state; returns (state, charts checked) for each state. ``on_view(state)`` is called at
    the defaults and on each tab as it opens (the accessibility audit). Without ``ends``,
    the sliders stay at their defaults: the defaults and each tab only."""
    main = page.locator('[data-testid="stMain"]')
    seen: list = []
    check(page, "defaults", seen)
    if on_view:
        on_view("defaults")
    tabs = main.get_by_role("tab")
    names = [tabs.nth(i).inner_text() for i in range(tabs.count())] or [None]
    for n, name in enumerate(names):
        if name is not None and n > 0:
            tabs.nth(n).click()
            expect(tabs.nth(n)).to_have_attribute("aria-selected", "true")
            check(page, f"tab {name}", seen)
            if on_view:
                on_view(f"tab {name}")
        scope = main if n == 0 else main.get_by_role("tabpanel").filter(visible=True).first
        thumbs = _sliders(scope)
        count = min(thumbs.count(), 2 if n == 0 else 1) if ends else 0
        first = thumbs.nth(0) if count else None
        second = thumbs.nth(1) if count > 1 else None
        # the first to its low and high end; with a second, the four pairs of ends:
        # (high, low), (high, high), (low, high), (low, low)
        walk = [(first, "Home"), (first, "End")] if count else []
        if count > 1:
            walk += [(second, "Home"), (second, "End"), (first, "Home"), (second, "Home")]
        for thumb, key in walk:
            label = thumb.get_attribute("aria-label") or "slider"
            _press(page, thumb, key)
            check(page, f"tab {name}: {label} {key}", seen)
    return seen
