"""Presenting mode read from the back of a room (issue 36): what tests/test_browser.py
measures on a page opened with ``?present=1`` in Chromium.

:data:`MEASURE_JS` returns, for the page as drawn at the current viewport:

- ``body``: the smallest computed font size (px) of the main area's body text (Markdown
  paragraphs and list items, captions, metric labels), with its text;
- ``chart``: the smallest font size (px) of any text of the charts drawn (ticks, legends,
  axis and chart titles, annotations, text on bars), and the lowest contrast of any of them
  against what lies behind it (the annotation's box, else the plot area where the text sits
  inside one, else the paper, else the page), with their texts;
- ``lead``: the page's main result, the container the page keys ``present_lead``
  (:func:`ui.present.lead`): where it lies at scroll 0 and whether it is wholly within the
  viewport, and the same of its main chart (its tallest Plotly chart), with its height;
- ``shown``: exports and the "in words and as a table" expanders that are on screen.
"""

from __future__ import annotations

LEAD_KEY = "present_lead"  # ui.present.LEAD_KEY: its container's class is st-key-<key>
# What a projector at 3 m needs (issue 36).
MIN_BODY_PX = 24.0
MIN_CHART_PX = 20.0
MIN_CONTRAST = 4.5
MIN_CHART_HEIGHT = 300.0

MEASURE_JS = r"""(leadKey) => {
  const main = document.querySelector('[data-testid="stMain"]');
  const seen = e => {
    if (!e || !e.isConnected) return false;
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    for (let a = e; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === 'none' || s.visibility === 'hidden' || parseFloat(s.opacity) === 0)
        return false;
      if (a.tagName === 'DETAILS' && !a.open && !a.contains(e.closest('summary'))) return false;
      // visually hidden (kept for screen readers): clipped to nothing
      if ((s.clip === 'rect(0px, 0px, 0px, 0px)' || s.clipPath === 'inset(50%)')
          && a.getBoundingClientRect().width <= 1) return false;
    }
    return true;
  };
  const px = e => parseFloat(getComputedStyle(e).fontSize);
  // --- body text -------------------------------------------------------------------------
  const bodySel = '[data-testid="stMarkdownContainer"] p, [data-testid="stMarkdownContainer"] li, ' +
    '[data-testid="stCaptionContainer"], [data-testid="stMetricLabel"]';
  const body = [...main.querySelectorAll(bodySel)]
    .filter(e => !e.closest('label, summary, button, [role="tab"], [data-testid="stTooltipContent"]'))
    .filter(e => e.innerText.trim() && seen(e))
    .map(e => [px(e), e.innerText.trim().slice(0, 60)]);
  body.sort((a, b) => a[0] - b[0]);
  // --- chart text ------------------------------------------------------------------------
  const rgba = c => {
    const m = (c || '').match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const v = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1];
  };
  const over = (top, below) => {  // top (with its alpha) composed over an opaque colour
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + below[i] * (1 - a)).concat([1]);
  };
  const lum = c => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
                            return (x + 0.05) / (y + 0.05); };
  const pageBg = (() => { for (let a = main; a; a = a.parentElement) {
      const c = rgba(getComputedStyle(a).backgroundColor);
      if (c && c[3] > 0) return over(c, [255, 255, 255, 1]); }
    return [255, 255, 255, 1]; })();
  const inside = (r, b) => { const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
                             return x >= b.left && x <= b.right && y >= b.top && y <= b.bottom; };
  const chartText = [];
  const charts = [...main.querySelectorAll('.js-plotly-plot')].filter(seen);
  for (const plot of charts) {
    const svg = plot.querySelector('svg.main-svg');
    const paper = rgba(svg && getComputedStyle(svg).backgroundColor) || [0, 0, 0, 0];
    const paperBg = over(paper, pageBg);
    const plots = [...plot.querySelectorAll('.bglayer rect.bg')].map(r => ({
      box: r.getBoundingClientRect(), fill: rgba(getComputedStyle(r).fill) }));
    for (const text of plot.querySelectorAll('svg text')) {
      if (!text.textContent.trim() || !seen(text)) continue;
      if (text.closest('.hoverlayer, .modebar')) continue;
      const s = getComputedStyle(text);
      const box = text.getBoundingClientRect();
      let bg = paperBg;
      const area = plots.find(p => p.fill && inside(box, p.box));
      if (area) bg = over(area.fill, paperBg);
      const bar = text.closest('g.point');  // text on a bar: the bar behind it
      const barPath = bar && bar.querySelector('path');
      if (barPath && inside(box, barPath.getBoundingClientRect())) {
        const f = rgba(getComputedStyle(barPath).fill);
        if (f) { f[3] *= parseFloat(getComputedStyle(barPath).fillOpacity || '1')
                        * parseFloat(getComputedStyle(bar).opacity || '1');
                 if (f[3] > 0) bg = over(f, bg); } }
      const ann = text.closest('g.annotation, g.legend');
      const own = ann && ann.querySelector('rect.bg');
      if (own) { const f = rgba(getComputedStyle(own).fill);
                 const o = parseFloat(getComputedStyle(own).fillOpacity || '1');
                 if (f) { f[3] *= o; if (f[3] > 0) bg = over(f, bg); } }
      const fill = rgba(s.fill) || [0, 0, 0, 1];
      fill[3] *= parseFloat(s.fillOpacity || '1') * parseFloat(s.opacity || '1');
      chartText.push([px(text), ratio(over(fill, bg), bg), text.textContent.trim().slice(0, 40)]);
    }
  }
  const bySize = [...chartText].sort((a, b) => a[0] - b[0]);
  const byContrast = [...chartText].sort((a, b) => a[1] - b[1]);
  // --- the main result at scroll 0 -------------------------------------------------------
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const within = r => r.top >= -0.5 && r.left >= -0.5 && r.bottom <= vh + 0.5 && r.right <= vw + 0.5;
  const rect = e => { const r = e.getBoundingClientRect();
                      return {top: r.top, bottom: r.bottom, height: r.height, inside: within(r)}; };
  const lead = main.querySelector('.st-key-' + leadKey);
  let leadOut = null, chartOut = null;
  if (lead && seen(lead)) {
    leadOut = rect(lead);
    const inLead = [...lead.querySelectorAll('[data-testid="stPlotlyChart"]')].filter(seen)
      .sort((a, b) => b.getBoundingClientRect().height - a.getBoundingClientRect().height);
    if (inLead.length) chartOut = rect(inLead[0]);
  }
  // --- what presenting hides -------------------------------------------------------------
  const shown = [...main.querySelectorAll('[data-testid="stDownloadButton"], [data-testid="stExpander"]')]
    .filter(seen).map(e => e.innerText.trim()).filter(t => /\(CSV\)|\(HTML\)|in words and as a table/.test(t));
  return {
    body: body.length ? {px: body[0][0], text: body[0][1]} : null,
    chart: chartText.length ? {px: bySize[0][0], text: bySize[0][2],
                               contrast: byContrast[0][1], low: byContrast[0][2]} : null,
    charts: charts.length, scroll: window.scrollY + (main.scrollTop || 0),
    viewport: [vw, vh], lead: leadOut, leadChart: chartOut, shown,
  };
}"""


def problems(m: dict, *, chart_expected: bool = True) -> list[str]:
    """What a measurement (:data:`MEASURE_JS`) falls short of, in words; [] when nothing.
    ``chart_expected`` False (the home page): no main result or chart is asked for."""
    out = []
    if m["body"] and m["body"]["px"] < MIN_BODY_PX - 0.01:
        out.append(f"body text {m['body']['px']} px: {m['body']['text']!r}")
    if m["chart"]:
        if m["chart"]["px"] < MIN_CHART_PX - 0.01:
            out.append(f"chart text {m['chart']['px']} px: {m['chart']['text']!r}")
        if m["chart"]["contrast"] < MIN_CONTRAST:
            out.append(f"chart text contrast {m['chart']['contrast']:.2f}: {m['chart']['low']!r}")
    if not chart_expected:  # the home page: no result, no chart
        pass
    elif m["lead"] is None:
        out.append("no main result (no container keyed present_lead)")
    elif not m["lead"]["inside"]:
        out.append(f"the main result lies at {m['lead']['top']:.0f}–{m['lead']['bottom']:.0f} px "
                   f"of {m['viewport'][1]}")
    if chart_expected:
        c = m["leadChart"]
        if c is None:
            out.append("no chart in the main result")
        elif c["height"] < MIN_CHART_HEIGHT - 0.5 or not c["inside"]:
            out.append(f"the main chart, {c['height']:.0f} px tall, lies at {c['top']:.0f}–"
                       f"{c['bottom']:.0f} px of {m['viewport'][1]}")
    if m["shown"]:
        out.append(f"shown though presenting hides them: {m['shown']}")
    return out
