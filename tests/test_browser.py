"""Real-browser tests: `streamlit run app.py` driven by Debian's /usr/bin/chromium through
Playwright (without it the tests skip, except on CI, where they fail).

Every routed page opens clean; CASES move each page's main controls and check the numbers
against the mathematics; LINK_CASES follow links, a shared link, link values and uploads.
Waits are Playwright's ``expect`` and browserkit.WAIT_IDLE only. Every test checks for no
traceback, exception or console error (but browserkit.BENIGN_CONSOLE) and a clean server
log. Screenshots go to test-artifacts/ (<url path>-defaults.png, <case>.png).
"""

from __future__ import annotations

import operator
import os
import re
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import parse_qs, quote_plus, urlencode, urlsplit

import numpy as np
import pytest

from browserkit import (
    ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, EXPECT_TIMEOUT_MS, LOAD_TIMEOUT_MS, assert_clean,
    assert_console_clean, assert_no_traceback, assert_nothing_cut, choose, expect,
    expect_metrics, in_url, metric, new_context, number, open_expander, open_page, press_until, read_metrics, screenshot,
    running_server, spinbutton, stop_streamlit, thumb, type_in, wait_idle, watched_page)
from conftest import routed_pages
from ui import registry
from test_page_home import LEARNING_PATH
from dpcore import datasets, fdp, gaussian, ldp, simulation
from dpcore import substitution as rs
from ui.format import fmt_prob

pytestmark = pytest.mark.browser

PAGES = routed_pages()
BOOT_LABEL = "Parametric bootstrap p-value"
NAIVE_LABEL = "Naive χ² test p-value"
SCORE_LABEL = "Normal-score test p-value"


def shown_p(text: str) -> float:
    """A shown p-value (2.68·10⁻¹⁵ too); "< 0.001" (no replicate reached T) is read as its
    bound."""
    return number(text.removeprefix("< "))
LDP_P_LABEL = "p: tell the truth"
RS_AGES = "Age groups k (N in Kang, Lee & Hong 2009)"  # the substitution page's N slider
LDP_SOURCE_LABEL = "Data: the users' true answers"
LDP_ABC = "Three categories A, B, C (k = 3)"


def _unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI must run the browser tests.", pytrace=False)
    pytest.skip(reason)


# --- fixtures: the Streamlit server, the browser, a page ---------------------------------------

@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        _unavailable(f"{CHROMIUM} is missing (install Debian's chromium package)")
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed")
    # expect(...) waits up to 5 s by default: too short for a script run on 2 busy cores.
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def server(browser, tmp_path_factory):
    """`streamlit run app.py` on a free port, for the module's tests."""
    srv = running_server(tmp_path_factory.mktemp("streamlit") / "server.log")
    yield srv
    stop_streamlit(srv.proc)


@pytest.fixture
def fresh_server(browser, tmp_path):
    """A server of its own that has answered no page request yet (unlike `server`)."""
    srv = running_server(tmp_path / "fresh-server.log")
    yield srv
    stop_streamlit(srv.proc)
    assert "Traceback" not in srv.log(), f"the server logged an exception:\n{srv.log()}"


@pytest.fixture(scope="module")
def shared_context(browser):
    """One browser context, whose HTTP cache keeps Streamlit's JavaScript (Plotly's is
    megabytes) between tests; each page is still a session of its own."""
    context = new_context(browser)
    yield context
    context.close()


@pytest.fixture
def page(shared_context, server):
    pg = watched_page(shared_context, server.url)
    log_start = len(server.log())
    try:
        yield pg
        assert_console_clean(pg)
    finally:
        pg.close()
    new_log = server.log()[log_start:]
    assert "Traceback" not in new_log, f"the server logged an exception:\n{new_log}"


# --- every page at its defaults ----------------------------------------------------------------

@pytest.mark.parametrize("routed", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_every_page_opens_clean(page, routed):
    """Every routed page, opened by its URL at its defaults: its title, its run ended, clean."""
    open_page(page, routed.url_path, routed.title)
    wait_idle(page)
    # The address carries the language (English: the browser's), for the page's links.
    assert page.url == f"{page.server_url}/{routed.url_path}?lang=en", page.url
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert_clean(page)
    screenshot(page, f"{routed.url_path or 'home'}-defaults")
    assert_nothing_cut(page)
    charts_named(page)
    charts_read_right(page, routed, "en", audited=True, ends=False)


@pytest.mark.parametrize("routed", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_charts_read_right_at_the_sliders_ends(page, routed):
    """Every page's charts with its first sliders at their ends and pairs of ends, and on
    each tab with its first slider at both ends (tests/chartkit.py), in English; the Korean
    pages walk the same in test_every_page_opens_in_korean."""
    open_page(page, routed.url_path, routed.title)
    wait_idle(page)
    charts_read_right(page, routed, "en")


# Each drawn chart's plot as a screen reader finds it: role, name, description.
CHART_NAMES_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stPlotlyChart"]')]
  .filter(c => c.offsetParent !== null)
  .map(c => { const svg = c.querySelector('svg.main-svg');
              return svg && [svg.getAttribute('role'), svg.getAttribute('aria-label'),
                             svg.getAttribute('aria-description')]; })"""


def charts_named(page) -> None:
    """Issue 24: every chart drawn is an image to a screen reader, named as the page heads
    it, with its one-sentence summary, and its text-and-table expander is there."""
    charts = page.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"]')
    expect(page.locator('[data-testid="stMain"] [data-testid="stPlotlyChart"] '
                        'svg.main-svg[role="img"][aria-description]')).to_have_count(charts.count())
    for role, label, summary in page.evaluate(CHART_NAMES_JS):
        assert role == "img" and label and summary.endswith("."), (label, summary)
        expect(page.locator('[data-testid="stExpander"] summary').get_by_text(
            f"{label}: in words and as a table", exact=True)).to_have_count(1)


def test_a_moved_control_announces_the_changed_finding(page):
    """Issue 24: the live region (role=status, polite) stays silent when the page opens and
    says the findings a moved control changed once its results are drawn."""
    open_page(page, "compare_histograms", "Compare two private histograms")
    wait_idle(page)
    live = page.locator("#dp-live")
    expect(live).to_have_attribute("role", "status")
    expect(live).to_have_attribute("aria-live", "polite")
    expect(live).to_have_text("")
    press_until(page, thumb(page, "Privacy level ε_A (histogram A)"), "End", "10")
    wait_idle(page)
    expect(live).to_contain_text("At the 5% significance level")
    said = live.inner_text()
    verdict = page.locator('[data-testid="stAlert"]').first.inner_text()
    assert said.split(":")[0] in verdict, (said, verdict)


PROJECTORS = [(1280, 720), (1920, 1080)]
# The page scrolls sideways: the document or the main area is wider than its box.
SIDEWAYS_JS = """() => [document.documentElement, document.querySelector('[data-testid="stMain"]')]
  .filter(e => e && e.scrollWidth > e.clientWidth + 1).map(e => e.tagName)"""


@pytest.mark.parametrize("routed", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_presenting_fits_a_projector(page, routed):
    """Issue 24: ``?present=1`` on every page, at 1280×720 and 1920×1080: larger text, the
    sidebar closed, no help icon, the header's button says how to stop; no horizontal
    scroll, no metric or chip cut, and every chart reads right (tests/chartkit.py)."""
    from chartkit import CHARTS_JS, chart_problems
    from browserkit import CUT_JS, FRAMES_JS

    open_page(page, f"{routed.url_path}?present=1", routed.title)
    wait_idle(page)
    assert in_url("present", "1").search(page.url)
    expect(page.locator("html")).to_have_css("font-size", "20px")
    expect(page.locator('[data-testid="stSidebar"]')).to_have_attribute("data-collapsed", "true")
    expect(page.get_by_role("button", name="Help for", exact=False)).to_have_count(0)
    if routed.url_path:  # a tool page: its header
        expect(page.get_by_role("button", name="Stop presenting")).to_be_visible()
    for width, height in PROJECTORS:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(FRAMES_JS)
        wait_idle(page)
        assert page.evaluate(SIDEWAYS_JS) == [], (width, height)
        assert page.evaluate(CUT_JS) == [], (width, height)
        assert chart_problems(page.evaluate(CHARTS_JS)) == [], (width, height)
        screenshot(page, f"{routed.url_path or 'home'}-present-{width}x{height}")
    assert_clean(page)


# Issue 36: presenting mode read at 3 m. The view measured on each page: its defaults, but on
# the k-RR page the aggregate tab (its default tab shows a table of single users, no chart).
PRESENT_VIEWS = {"ldp": {"ldp_tab": "The aggregate"}}
REPRESENTATIVE = "gaussian"  # the page the default tier measures (the sweep: every page)


def read_at_3_m(page, routed) -> dict:
    """Open ``routed`` in presenting mode and, at 1280×720 and 1920×1080, measure it
    (tests/presentkit.py): body and chart text sizes, chart text contrast, and the main result
    and its chart (300 px tall at least) within the first screen at scroll 0; no export or
    chart-table box shown, no chart reading wrong. The figures go to
    test-artifacts/present-<page>.json; returns them."""
    import json

    from browserkit import FRAMES_JS
    from chartkit import CHARTS_JS, chart_problems
    from presentkit import LEAD_KEY, MEASURE_JS, problems

    name = routed.url_path or "home"
    query = urlencode({**PRESENT_VIEWS.get(name, {}), "present": "1"})
    open_page(page, f"{routed.url_path}?{query}", routed.title)
    wait_idle(page)
    figures, found = {}, {}
    for width, height in PROJECTORS:
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(FRAMES_JS)
        wait_idle(page)
        page.evaluate("() => window.scrollTo(0, 0)")
        m = page.evaluate(MEASURE_JS, LEAD_KEY)
        assert m["scroll"] == 0, m
        size = f"{width}x{height}"
        figures[size] = m
        found[size] = problems(m, chart_expected=bool(routed.url_path))
        if routed.url_path:
            found[size] += chart_problems(page.evaluate(CHARTS_JS))
        page.screenshot(path=str(ARTIFACTS / f"{name}-present-first-screen-{size}.png"))
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"present-{name}.json").write_text(json.dumps(figures, indent=1),
                                                     encoding="utf-8")
    assert found == {size: [] for size in found}, found
    assert_clean(page)
    return figures


def test_presenting_reads_at_3_m(page):
    """Issue 36, one page in the default tier (every page: the sweep below): body text 24 px
    and more, chart text 20 px and more at 4.5:1, the main result and its chart in the
    first screen at 1280×720 and 1920×1080, no downloads or chart tables."""
    read_at_3_m(page, next(p for p in PAGES if p.url_path == REPRESENTATIVE))


PRESENTED = [p for p in PAGES if p not in registry.CLASS_PAGES]


@pytest.mark.parametrize("routed", PRESENTED, ids=[p.url_path or "home" for p in PRESENTED])
def test_presenting_reads_at_3_m_on_every_page(page, routed):
    """Issue 36's sweep (extended tier): :func:`read_at_3_m` on every routed page; the home
    page has no result or chart, only its text is measured. A Class page's main result is
    its teacher's live view (tests/test_browser_class.py presents it)."""
    read_at_3_m(page, routed)


# --- every page in Korean ---------------------------------------------------------------------

# Hangul as the page draws a chart's text, against characters no font has (drawn as the
# same empty boxes): equal widths mean Hangul fell back to boxes too.
HANGUL_DRAWN = r"""() => {
    const text = document.querySelector('.js-plotly-plot text.gtitle, .js-plotly-plot text')
        || document.querySelector('h1');
    const family = getComputedStyle(text).fontFamily;
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `16px ${family}`;
    return {family, hangul: ctx.measureText('차등정보보호').width,
            boxes: ctx.measureText('\u{10FFFD}'.repeat(6)).width};
}"""


@pytest.mark.parametrize("routed", PAGES, ids=[p.url_path or "home" for p in PAGES])
def test_every_page_opens_in_korean(page, routed):
    """Every routed page opened by a link with ?lang=ko: its Korean title, clean, no run of
    three English words left in the main area's text (test_ui_i18n.english_sentences: math,
    code, names, units and abbreviations allowed), and Hangul drawn with a real font in its
    charts (not as boxes)."""
    from test_ui_i18n import english_sentences
    from ui.text import messages

    title = messages("ko")[routed.title]
    open_page(page, f"{routed.url_path}?lang=ko", title)
    wait_idle(page)
    assert_clean(page)
    assert in_url("lang", "ko").search(page.url)
    # issue 24: a screen reader reads the page as Korean
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    shown = page.locator('[data-testid="stMain"]').inner_text()
    assert not english_sentences(shown), english_sentences(shown)[:10]
    drawn = page.evaluate(HANGUL_DRAWN)
    assert drawn["hangul"] != drawn["boxes"], drawn
    screenshot(page, f"{routed.url_path or 'home'}-ko")
    charts_read_right(page, routed, "ko")


def charts_read_right(page, routed, lang: str, *, audited: bool = False,
                      ends: bool = True) -> None:
    """Issue 23: every chart of the page, at its defaults and on each tab, and with ``ends``
    at its sliders' ends and pairs of ends (tests/chartkit.py), reads right; the states and charts checked
    go to test-artifacts/charts-<page>-<lang>[-defaults].txt. With ``audited``, issue 24's
    accessibility audit (tests/a11ykit.py) at the defaults, every expander open, and on
    each tab: no serious or critical violation."""
    from a11ykit import Audit, open_expanders
    from chartkit import walk_charts

    audit = Audit(routed.url_path or "home")

    def on_view(state: str) -> None:
        open_expanders(page, chart_text=state == "defaults")
        audit.record(page, state)

    seen = walk_charts(page, on_view if audited else None, ends=ends)
    if audited:
        serious = audit.save()
        assert not serious, serious
    ARTIFACTS.mkdir(exist_ok=True)
    name = f"charts-{routed.url_path or 'home'}-{lang}{'' if ends else '-defaults'}.txt"
    (ARTIFACTS / name).write_text(
        "".join(f"{state}\t{charts}\n" for state, charts in seen), encoding="utf-8")


# --- each page's main controls move its numbers: one table, one test ---------------------------

@dataclass(frozen=True)
class Step:
    """A change of the controls (none: the page as it opens) and what its run then shows."""

    act: Callable | None = None
    metrics: dict[str, str | None] = field(default_factory=dict)  # label -> value (None: any)
    near: dict[str, tuple[float, float]] = field(default_factory=dict)  # -> (value, rel. tol.)
    # (label, op): op(value now, value before this step) holds; unless op is ==, the value
    # is waited for to change.
    versus: tuple[tuple[str, Callable[[float, float], bool]], ...] = ()
    sliders: dict[str, str] = field(default_factory=dict)  # label -> value on the thumb
    boxes: dict[str, str] = field(default_factory=dict)  # number box -> value in it
    shown: tuple[str, ...] = ()  # texts on screen
    query: dict[str, str] = field(default_factory=dict)  # URL parameters, as the URL writes them
    check: Callable | None = None  # anything else: check(page, metrics before, metrics now)


@dataclass(frozen=True)
class Case:
    name: str  # the test id and the screenshot's name
    url: str  # path and query
    title: str
    steps: tuple[Step, ...]


def press(label: str, key: str, shown: str):
    return lambda page: press_until(page, thumb(page, label), key, shown)


def click(role: str, name: str):
    return lambda page: page.get_by_role(role, name=name, exact=True).click()


def calibration(alpha: float, reps: int) -> dict[str, str]:
    """The null-distribution tab's metrics, computed by dpcore for the page's defaults."""
    ns = simulation.null_statistics(
        datasets.shape_probabilities(next(iter(datasets.SHAPES)), 20), 5050, alpha,
        reps=reps, rng=2022)
    crit = simulation.chi2_critical_value(ns.df)
    return {"χ² reference mean (df)": f"{ns.df}",
            "Mean without DP": f"{ns.without_dp.mean():.1f}",
            "Mean with DP": f"{ns.with_dp.mean():.1f}",
            "Naive type-I error without DP": f"{np.mean(ns.without_dp > crit):.1%}",
            "Naive type-I error with DP": f"{np.mean(ns.with_dp > crit):.1%}"}


def histogram_sizes(n: int):
    """Check: the null tab's two histograms (its chart's first) show ``n`` statistics each."""
    def check(page, before, now):
        sizes = ("gd => gd._fullData.filter(t => t.type === 'histogram').map(t => t._length)"
                 ".join()")
        chart = page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot').first
        expect(chart).to_be_visible()
        page.wait_for_function(f"gd => ({sizes})(gd) === '{n},{n}'", arg=chart.element_handle(),
                               polling=100, timeout=EXPECT_TIMEOUT_MS)
    return check


def p_values(page, before, now):
    expect(page.locator('[data-testid="stMetric"]')).to_have_count(5)
    for label in (NAIVE_LABEL, BOOT_LABEL, SCORE_LABEL):
        assert 0 <= shown_p(now[label]) <= 1, now
    assert shown_p(now[SCORE_LABEL]) > 0, now


def same_metrics(page, before, now):
    assert set(now) == set(before), (before, now)


def sigma_solved(eps: float):
    def check(page, before, now):
        box = spinbutton(page, "exact σ")
        expect(box).to_be_disabled()  # it shows the solved σ
        assert float(box.input_value()) == pytest.approx(
            float(gaussian.gaussian_sigma(eps, 1e-5)), rel=1e-5)
    return check


def sigma_typed(page, before, now):
    expect(spinbutton(page, "exact σ")).to_be_enabled()  # σ is an input when solving for δ


def delta_grew(page, before, now):
    """The conversions tab's δ(ε) at ε = 1 (its label names μ) is larger than before."""
    [new] = [k for k in now if k.startswith("δ(ε) at ε = 1")]
    [old] = [k for k in before if k.startswith("δ(ε) at ε = 1")]
    assert number(now[new]) > number(before[old]), (before, now)


def link_note(bad: str | None = None, used: str = ""):
    """Check: one note on unusable link values, naming ``bad`` not ``used`` (no ``bad``: none)."""
    def check(page, before, now):
        note = page.locator('[data-testid="stAlert"]').filter(has_text="could not be used")
        expect(note).to_have_count(1 if bad else 0)
        if bad:
            expect(note).to_contain_text(bad)
            expect(note).not_to_contain_text(used)
    return check


def on_page(title: str, path: str):
    def check(page, before, now):
        expect(page.get_by_role("heading", name=title).first).to_be_visible()
        assert urlsplit(page.url).path == path, page.url
    return check


def attacker(mu: float) -> dict[str, str]:
    """The attacker's test at the page's one α (5%): its threshold is solved from α."""
    from ui.pages import fdp as fdp_page
    return fdp_page.attacker_metrics(fdp_page.attacker_test(fdp_page.Settings(mu=mu)))


def gdp_delta(mu: float) -> dict[str, str]:
    return {f"δ(ε) at ε = 1 for μ = {mu:g}": f"{float(fdp.gdp_delta(1.0, mu)):.4g}"}


def sigma_metric(eps: float) -> dict[str, str]:
    # Six significant digits, as the σ box beside it writes it (%.6g).
    return {"σ (solved)": f"{float(gaussian.gaussian_sigma(eps, 1e-5)):.6g}"}


def krr(eps: float, k: int = 2) -> dict[str, str]:
    p, q = ldp.krr_probabilities(eps, k)
    return {LDP_P_LABEL: fmt_prob(p), "q: tell a given lie": fmt_prob(q)}


def eps_l(n_cat: int, gamma: float, l: int) -> dict[str, str]:
    return {f"ε_l (l = {l})": f"{rs.extended_epsilon(n_cat, gamma, l):.4g}"}


# Gaussian → f-DP: μ of the (ε = 1.5, δ = 10⁻⁵) mechanism, 0.387, on the f-DP slider's
# 0.05 grid: 0.4.
LINKED_MU = round(float(gaussian.gaussian_mu(1.5, 1e-5)) / 0.05) * 0.05
gt, lt, eq, ne = operator.gt, operator.lt, operator.eq, operator.ne

CASES = [
    # Noise Lap(2/ε_A) on A drops from Lap(20) to Lap(0.2): the private histogram A
    # changes, and so does the chi-square p-value computed from it.
    Case("compare_histograms", "compare_histograms", "Compare two private histograms", (
        Step(metrics={NAIVE_LABEL: None, BOOT_LABEL: None},
             sliders={"Privacy level ε_A (histogram A)": "0.1"}, check=p_values),
        Step(press("Privacy level ε_A (histogram A)", "End", "10"), versus=((NAIVE_LABEL, ne),),
             query={"cmp_alpha_a": "10"}, shown=("At the 5% significance level",),
             check=same_metrics),
    )),
    # A smaller ε (more noise) inflates the statistic with DP and its naive type-I error,
    # not the one without DP; fewer replicates redraw both histograms with that many.
    Case("test_calibration-null", "test_calibration", "Test calibration", (
        Step(metrics=calibration(0.5, 1000), check=histogram_sizes(1000)),
        Step(press("Privacy level ε (α in Son, Park & Jung 2022)", "Home", "0.001"),
             metrics=calibration(0.001, 1000),
             versus=(("Mean without DP", eq), ("Mean with DP", gt),
                     ("Naive type-I error with DP", gt))),
        Step(lambda page: (open_expander(page, "Replicates and seed"),
                           press_until(page, thumb(page, "Null replicates"), "Home", "200")),
             metrics=calibration(0.001, 200),
             query={"cal_alpha": "0.001", "cal_reps_null": "200"}, check=histogram_sizes(200)),
    )),
    # A typed ε solves σ; the ε slider follows, the σ box shows the solved σ.
    Case("gaussian", "gaussian", "Gaussian mechanism", (
        Step(metrics=sigma_metric(1.0), boxes={"exact ε": "1"}),
        Step(lambda page: type_in(page, "exact ε", "2"), metrics=sigma_metric(2.0),
             sliders={"ε: privacy-loss bound": "2"}, query={"gauss_eps": "2"},
             check=sigma_solved(2.0)),
    )),
    # Solve for δ: the σ box is then an input (the σ solved so far kept, so δ = 10⁻⁵), and
    # more noise gives a smaller δ.
    Case("gaussian-delta", "gaussian", "Gaussian mechanism", (
        Step(metrics=sigma_metric(1.0)),
        Step(lambda page: page.get_by_role("radiogroup", name="Solve for").get_by_role(
            "radio", name="δ", exact=True).click(), near={"δ (solved)": (1e-5, 0.05)},
             check=sigma_typed),
        *(Step(lambda page, s=sigma: type_in(page, "exact σ", str(s)),
               near={"δ (solved)": (float(gaussian.gaussian_delta(1.0, sigma, 1.0)), 0.05)},
               versus=(("δ (solved)", lt),),
               metrics={"σ": f"{sigma:g}", "μ = Δ/σ": f"{1 / sigma:.4g}"})
          for sigma in (5, 8)),
        Step(query={"gauss_sigma": "8", "gauss_solve": "%CE%B4"}),  # δ
    )),
    # The μ-GDP view links to the f-DP page with μ rounded to that page's slider.
    Case("gaussian-to-fdp", "gaussian?gauss_eps=1.5", "Gaussian mechanism", (
        Step(metrics=sigma_metric(1.5)),
        Step(click("tab", "As μ-GDP"), shown=(
            f"See G_μ with μ = {LINKED_MU:g} on the f-DP page",
            f"is rounded to {LINKED_MU:g} there")),
        Step(click("link", f"See G_μ with μ = {LINKED_MU:g} on the f-DP page"),
             sliders={"μ of Gaussian DP": "0.40"}, query={"fdp_g_mu": "0.4"},
             check=on_page("f-DP and Gaussian DP", "/fdp")),
    )),
    # A larger shift μ between the outputs: the attacker at the same α misses less
    # (β falls, α stays); on the conversions tab, δ(ε) of μ-GDP grows with μ.
    Case("fdp", "fdp", "f-DP and Gaussian DP", (
        Step(metrics=attacker(1.0)),
        Step(press("Shift between the two outputs: μ (ε for Laplace)", "End", "5.00"),
             metrics=attacker(5.0), versus=(("Type-I error α", eq), ("Type-II error β", lt)),
             query={"fdp_mu": "5"}),
        Step(click("tab", "Conversions"), metrics=gdp_delta(1.0)),
        Step(press("μ", "ArrowRight", "1.05"), metrics=gdp_delta(1.05), check=delta_grew),
        Step(press("μ", "End", "5.00"), metrics=gdp_delta(5.0), check=delta_grew,
             query={"fdp_tab": "Conversions", "fdp_conv_mu": "5"}),
    )),
    # A larger ε: more truth.
    Case("ldp", "ldp", "Randomized response (local DP)", (
        Step(metrics=krr(1.0), sliders={"Privacy level ε": "1"}),
        Step(press("Privacy level ε", "End", "10"), metrics=krr(10.0),
             versus=((LDP_P_LABEL, gt),), query={"ldp_eps": "10"}),
    )),
    # γ and l move ε_l. A population (N: 2 … 86, default 10) shows l clamped to 9, keeps
    # l = 49 in the URL, and shows it again once N allows it; the same URL, the same view.
    Case("substitution", "substitution", "Random substitution", (
        Step(metrics=eps_l(50, 10, 2), sliders={"Amplification γ": "10"}),
        Step(press("Amplification γ", "End", "1,000"),  # the top of the γ grid
             metrics={**eps_l(50, 1000, 2), "Keep: γx": f"{1000 / 1049:.4g}"},
             query={"rs_gamma": "1%2C000"}),
        Step(press("Values per record l", "End", "49"), metrics=eps_l(50, 1000, 49)),
        Step(lambda page: choose(page, "Data: the records' true values",
                                 "Population 2020 by age: USA"),
             shown=("49 is outside 1 … 9; 9 is used",), query={"rs_l": "49"},
             sliders={RS_AGES: "10", "Values per record l": "9"}),
        Step(press(RS_AGES, "End", "86"), metrics=eps_l(86, 1000, 49),
             sliders={"Values per record l": "49"}, query={"rs_N": "86", "rs_l": "49"}),
        Step(lambda page: page.reload(), metrics=eps_l(86, 1000, 49),
             sliders={RS_AGES: "86", "Values per record l": "49"}),
    )),
    # R = B = 50: a search takes a fraction of a second. ε from 0.1 to 0.001 (Lap(2,000)
    # noise per count): stronger privacy needs far more people. Opened, the page simulates;
    # after the move it offers Simulate (a seed of its own: nothing simulated before).
    Case("planner", "planner?plan_reps=50&plan_boot=50&plan_seed=31337",
         "Privacy–utility planner", (
             Step(metrics={"N needed per group": None, "Your planned N": "10,000"},
                  sliders={"Privacy level ε (α in Son, Park & Jung 2022)": "0.1"}),
             Step(press("Privacy level ε (α in Son, Park & Jung 2022)", "Home", "0.001"),
                  query={"plan_alpha": "0.001"},
                  shown=("These settings have not been simulated on this server yet",)),
             Step(click("button", "Simulate"),
                  versus=(("N needed per group", lambda now, before: now > 10 * before),),
                  metrics={"Your planned N": "10,000"},
                  shown=("At privacy level ε = 0.001 for both releases",)),
         )),
]


def home_links(page, before, now):
    """The start page has one card link per other page with a card (every tool, and the
    Class section's door), to its path, and its learning path is a numbered link per step
    to that step's page (issue 36)."""
    links = page.locator(HOME_LINKS)
    others = [p for p in PAGES if not p.default and p.thumb]
    path = [p for p, _ in LEARNING_PATH]
    expect(links).to_have_count(len(others) + len(path))
    # Each link is "<material icon name>\n\n<title>": keep the title.
    shown = [(text.strip().splitlines()[-1].strip(), links.nth(i).get_attribute("href"))
             for i, text in enumerate(links.all_inner_texts())]
    steps = [(title, href) for title, href in shown if re.match(r"\d+\. ", title)]
    cards = dict(x for x in shown if x not in steps)
    assert cards == {p.title: p.url_path for p in others}, shown
    assert steps == [(f"{i}. {p.title}", p.url_path) for i, p in enumerate(path, 1)], steps


def upload(name: str, content: str):
    """Upload ``content`` as <name>.csv; done when the uploader shows the file's name."""
    def act(page):
        # The run of the step before has ended: an upload that lands while a run is still
        # drawing its elements was seen (once, on 2 busy cores) to leave no run of its own.
        wait_idle(page)
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
            {"name": f"{name}.csv", "mimeType": "text/csv", "buffer": content.encode()})
        expect(page.locator('[data-testid="stFileChipName"]')).to_have_text(f"{name}.csv")
    return act


def upload_shows(fragment: str | None):
    """Check: a valid upload (``fragment`` None) gives the five metrics, an unusable one a
    plain error with ``fragment`` and no metric; the controls to fix it are still there."""
    def check(page, before, now):
        errors = page.locator('[data-testid="stAlertContentError"]')
        expect(errors).to_have_count(0 if fragment is None else 1)
        expect(page.locator('[data-testid="stMetric"]')).to_have_count(5 if fragment is None
                                                                       else 0)
        if fragment is None:
            assert shown_p(metric(page, BOOT_LABEL).inner_text()) >= 0
        else:
            expect(errors).to_contain_text(fragment)
            expect(errors).to_contain_text(re.compile("cannot be used|cannot be compared"))
        for side in ("Histogram A", "Histogram B"):
            expect(page.get_by_role("combobox", name=side)).to_have_value("Uploaded CSV file")
        expect(page.locator('[data-testid="stFileUploaderDropzone"]')).to_be_visible()
    return check


# Upload cases: file content, a fragment of the expected error (None: valid file).
UPLOADS = [
    ("valid", "a,b\n500,520\n300,310\n200,190\n", None),
    ("empty", "", "The file is empty"),
    ("text", "a,b\n1,x\n2,3\n", '"x" is not a number'),
    ("negative", "a,b\n1,-2\n2,3\n", "negative count"),
    ("nan", "a,b\n1,nan\n2,3\n", '"nan" is not allowed'),
    ("inf", "a,b\n1,inf\n2,3\n", '"inf" is not allowed'),
    ("lengths", "a,b\n1,2\n2,3\n4\n", "same number of rows"),
    ("zeros", "a,b\n0,0\n0,0\n", "all counts equal to 0"),
    ("valid_again", "a,b\n500,520\n300,310\n200,190\n", None),
]


def ldp_view(page) -> dict:
    """What a person sees of the k-RR page's settings and results (once idle)."""
    wait_idle(page)
    return {
        "source": page.get_by_role("combobox", name=LDP_SOURCE_LABEL).input_value(),
        "eps": thumb(page, "Privacy level ε").get_attribute("aria-valuetext"),
        "seed": spinbutton(page, "Seed").input_value(),
        "tab": page.get_by_role("tab", selected=True).inner_text().strip(),
        "metrics": read_metrics(page),
    }


def reopens_the_same_view(page, before, now):
    """The link in the "Share" popover, opened in a new browser context (a new session):
    the same settings, the same tab and the same numbers, random draws included."""
    view = ldp_view(page)
    assert view["seed"] == "7" and view["tab"] == "The aggregate", view
    page.get_by_role("button", name="Share", exact=True).click()
    code = page.locator('[data-testid="stPopoverBody"] [data-testid="stCode"]')
    expect(code).to_be_visible()
    link = code.inner_text().strip()
    assert link == page.evaluate("window.location.href"), link
    assert parse_qs(urlsplit(link).query) == {
        "lang": ["en"], "ldp_source": [LDP_ABC], "ldp_eps": ["1.5"], "ldp_seed": ["7"],
        "ldp_tab": ["The aggregate"]}, link
    page.keyboard.press("Escape")

    context = new_context(page.context.browser)
    other = watched_page(context, page.server_url)
    try:
        other.goto(link)
        expect(other.get_by_text("Total absolute error of the estimate").first).to_be_visible(
            timeout=LOAD_TIMEOUT_MS)
        expect_metrics(other, view["metrics"])
        assert ldp_view(other) == view
        assert_clean(other)
        screenshot(other, "ldp-shared-link")
    finally:
        context.close()


HOME = next(p for p in PAGES if p.default)
HOME_LINKS = '[data-testid="stMain"] [data-testid="stPageLink-NavLink"]'
KRR_TITLE = "Randomized response (local DP)"

LINK_CASES = [
    # The start page's links; a click opens that page.
    Case("home-links", "", HOME.title, (
        Step(check=home_links),
        # the card's link (the learning path's step is "4. Randomized response …")
        Step(lambda page: page.locator(HOME_LINKS).filter(has_text=KRR_TITLE)
             .filter(has_not_text=re.compile(r"\d\. ")).click(),
             metrics={LDP_P_LABEL: krr(1.0)[LDP_P_LABEL]}, check=on_page(KRR_TITLE, "/ldp")),
    )),
    # Set the k-RR page away from its defaults; its share link reopens the same view.
    Case("ldp-share", "ldp", KRR_TITLE, (
        Step(metrics=krr(1.0)),
        Step(lambda page: choose(page, LDP_SOURCE_LABEL, LDP_ABC), metrics={"Categories k": "3"}),
        Step(press("Privacy level ε", "ArrowRight", "1.5"), metrics=krr(1.5, 3)),
        Step(lambda page: type_in(page, "Seed", "7"), query={"ldp_seed": "7"}),
        Step(click("tab", "The aggregate"), metrics={
            "Total absolute error of the estimate": None, "Categories k": "3"},
             check=reopens_the_same_view),
    )),
    # A link with ε = 999 (not on the slider): the page says which setting it could not
    # use, uses the default ε = 1 and the link's other settings, and works on.
    Case("ldp-unusable-link", f"ldp?{urlencode({'ldp_eps': 999, 'ldp_source': LDP_ABC})}",
         KRR_TITLE, (
             Step(metrics={"Categories k": "3", **krr(1.0, 3)},
                  sliders={"Privacy level ε": "1"}, check=link_note("ldp_eps", "ldp_source")),
             Step(press("Privacy level ε", "End", "10"), metrics=krr(10.0, 3),
                  query={"ldp_eps": "10"}),
         )),
    # Seed 0 is a valid seed (0 … 2³¹ − 1): a link with it opens seed 0, no note; typed in
    # the box, it goes into the address, and so does the default seed typed back.
    Case("ldp-seed-0", "ldp?ldp_seed=0", KRR_TITLE, (
        Step(metrics=krr(1.0), boxes={"Seed": "0"}, query={"ldp_seed": "0"},
             check=link_note()),
        Step(lambda page: open_page(page, "ldp", KRR_TITLE),
             metrics=krr(1.0), boxes={"Seed": "2022"}),
        *(Step(lambda page, s=seed: type_in(page, "Seed", s), boxes={"Seed": seed},
               query={"ldp_seed": seed}) for seed in ("0", "2022")),
    )),
    # Plain errors for unusable files, and the controls to fix them.
    Case("compare_histograms-uploads", "compare_histograms", "Compare two private histograms", (
        Step(metrics={BOOT_LABEL: None}),
        Step(lambda page: choose(page, "Histogram A", "Uploaded CSV file")),
        Step(lambda page: choose(page, "Histogram B", "Uploaded CSV file"),
             shown=("Upload a CSV file to use it as a histogram",)),
        *(Step(upload(name, content), check=upload_shows(fragment))
          for name, content, fragment in UPLOADS),
    )),
]


def settle(page, step: Step, before: dict[str, str], timeout: float | None,
           earlier: dict[str, str] | None = None) -> dict[str, str]:
    """Wait for what ``step`` expects once its run has ended, check the rest; the metrics."""
    expect_metrics(page, step.metrics, timeout)
    for label in [*step.near, *(label for label, op in step.versus if op is not eq)]:
        if step.metrics.get(label) is None and label in before:  # wait for a new value
            expect(metric(page, label)).not_to_have_text(before[label], timeout=timeout)
        else:
            expect(metric(page, label)).to_be_visible(timeout=timeout)
    for label, value in step.sliders.items():
        expect(thumb(page, label)).to_have_attribute("aria-valuetext", value, timeout=timeout)
    for name, value in step.boxes.items():
        expect(spinbutton(page, name)).to_have_value(value, timeout=timeout)
    for text in step.shown:
        expect(page.get_by_text(text).first).to_be_visible(timeout=timeout)
    for key, value in step.query.items():
        expect(page).to_have_url(in_url(key, value))
    wait_idle(page)
    now = read_metrics(page)
    for label, (value, rel) in step.near.items():
        assert number(now[label]) == pytest.approx(value, rel=rel), (label, now)
    for label, op in step.versus:
        then = before.get(label, (earlier or {}).get(label))
        assert op(number(now[label]), number(then)), (label, before, now)
    if step.check:
        step.check(page, before, now)
    assert_no_traceback(page)
    return now


def run_case(page, case: Case) -> None:
    """Open ``case.url``, settle each step, then: no error box, and the screenshot."""
    open_page(page, case.url, case.title)
    shown: dict[str, str] = {}
    earlier: dict[str, str] = {}
    for i, step in enumerate(case.steps):
        if step.act:
            step.act(page)
        # A metric a step hides (e.g. while a page waits for a button) keeps its last value
        # for the steps after it to compare with (``versus``).
        earlier = {**earlier, **shown}
        shown = settle(page, step, shown, LOAD_TIMEOUT_MS if i == 0 else None, earlier)
    assert_clean(page)
    screenshot(page, case.name)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_controls_change_the_numbers(page, case):
    """Each page's main controls move its numbers the way the mathematics says."""
    run_case(page, case)


@pytest.mark.parametrize("case", LINK_CASES, ids=[c.name for c in LINK_CASES])
def test_links_and_uploads(page, case):
    """The start page's links, a shared link, uploads: see LINK_CASES."""
    run_case(page, case)


# --- a degenerate link -------------------------------------------------------------------------

def test_degenerate_case_from_url_shows_plain_error(page):
    """Deep link: two uniform bins, N = 1,000, α = 0.001, seed 0 gives N̂ = 0."""
    query = ("?cmp_a=Shape%3A+Uniform&cmp_b=Shape%3A+Uniform&cmp_m=2&cmp_n=1%2C000"
             "&cmp_alpha_a=0.001&cmp_alpha_b=0.001&cmp_seed=0")
    page.goto(f"{page.server_url}/compare_histograms{query}")
    error = page.locator('[data-testid="stAlertContentError"]')
    expect(error).to_contain_text("The bootstrap test cannot be run", timeout=LOAD_TIMEOUT_MS)
    expect(page.get_by_role("combobox", name="Histogram A")).to_have_value("Shape: Uniform")
    expect(page.locator('[data-testid="stMetric"]')).to_have_count(4)
    expect(page.get_by_text("No null distribution for Algorithm 1: see the message above.")
           ).to_be_visible()
    wait_idle(page)
    metrics = read_metrics(page)
    assert NAIVE_LABEL in metrics and BOOT_LABEL not in metrics, metrics
    assert_no_traceback(page)


# --- "Test calibration", first opened by its own URL on a fresh server -------------------------

def test_calibration_page_first_opened_by_url(browser, fresh_server):
    """Regression: a fresh server's first request is a sub-page URL (with the pages in a
    pages/ folder Streamlit bypassed app.py: file names in the sidebar, no wide layout)."""
    context = new_context(browser)
    page = watched_page(context, fresh_server.url)
    try:
        open_page(page, "test_calibration", "Test calibration")
        wait_idle(page)
        expect(page).to_have_url(re.compile(r"/test_calibration/?\?lang=en$"))

        # app.py's st.navigation: the sidebar shows its page titles, in its order.
        nav_titles = [p.title for p in PAGES]
        assert "Test calibration" in nav_titles
        links = page.locator('[data-testid="stSidebarNav"] [data-testid="stSidebarNavLink"]')
        expect(links).to_have_count(len(nav_titles))
        # Each link is "<material icon name>\n\n<title>": keep the title.
        labels = [text.strip().splitlines()[-1].strip() for text in links.all_inner_texts()]
        assert labels == nav_titles, labels
        nav = page.locator('[data-testid="stSidebarNav"]')
        expect(nav).not_to_contain_text("test calibration")
        expect(nav).not_to_contain_text("compare histograms")

        # app.py's set_page_config(layout="wide"): the main column is not capped at
        # the centered layout's 736 px (the viewport is 1,400 px wide).
        width = page.locator('[data-testid="stMainBlockContainer"]').evaluate(
            "e => e.getBoundingClientRect().width")
        assert width > 900, width
        assert_no_traceback(page)

        # The live simulation: change the seed in the form, run, wait for the results.
        page.get_by_role("tab", name="Type-I error and power").click()
        form = page.locator('[data-testid="stForm"]')
        expect(form).to_be_visible()
        # The default run, done when the page opened.
        expect(page.get_by_text("seed 2022. The rate is the type-I error.")).to_be_visible()
        # The run that drew that caption goes on drawing the page below it; a form typed into
        # before it ends can be drawn again with its old seed (a fresh-clone run saw it).
        wait_idle(page)
        open_expander(page, "Bootstrap replicates and seed")
        seed = form.get_by_role("spinbutton", name="Seed", exact=True)
        seed.fill("7")
        seed.press("Tab")
        expect(seed).to_have_value("7")
        form.get_by_role("button", name="Run simulation").click()
        expect(page.get_by_text("seed 7. The rate is the type-I error.")).to_be_visible(
            timeout=LOAD_TIMEOUT_MS)
        wait_idle(page)
        expect(page.locator('[data-testid="stProgress"]')).to_have_count(0)
        live = page.locator('[data-testid="stTabPanel"]:visible')
        expect(live.locator('[data-testid="stPlotlyChart"]')).to_have_count(1)
        expect(live.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
        expect(page.get_by_text("The settings above have changed")).to_have_count(0)
        assert_clean(page)
        screenshot(page, "test_calibration")
    finally:
        context.close()


# Where a button's label and the button lie, and the box (column or main area) around it.
BUTTON_FIT = """(b, [text, around]) => {
    const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode()) && !node.textContent.includes(text)) {}
    const range = document.createRange();
    range.selectNodeContents(node);
    const label = range.getBoundingClientRect(), box = b.getBoundingClientRect();
    const outer = b.closest(around).getBoundingClientRect();
    return {label: [label.left, label.right], button: [box.left, box.right],
            around: [outer.left, outer.right]};
}"""


def assert_button_fits(button, text: str, around: str) -> None:
    fit = button.evaluate(BUTTON_FIT, [text, around])
    (label_left, label_right), (left, right) = fit["label"], fit["button"]
    assert left <= label_left and label_right <= right, fit  # the label is not cut off
    assert fit["around"][0] <= left and right <= fit["around"][1], fit  # nor the button


def test_new_draw_fits_a_narrow_column(page):
    """At 1,100 px the k-RR page's "New draw" (third column), "Share" and "Report" buttons
    show their whole labels: a row too narrow puts them below the seed box or the title."""
    page.set_viewport_size({"width": 1100, "height": 1600})
    open_page(page, "ldp", "Randomized response (local DP)")
    button = page.get_by_role("button", name="New draw")
    expect(button).to_be_visible()
    wait_idle(page)
    assert_button_fits(button, "New draw", '[data-testid="stColumn"]')
    for name in ("Share", "Report"):
        assert_button_fits(page.get_by_role("button", name=name, exact=True), name,
                           '[data-testid="stMain"]')
    seed_before = spinbutton(page, "Seed").input_value()
    button.click()
    expect(page).not_to_have_url(in_url("ldp_seed", seed_before))
    expect(page).to_have_url(re.compile(r"[?&]ldp_seed=\d+(&|$)"))
    wait_idle(page)
    assert_clean(page)


def test_the_f_dp_shift_keeps_its_value_and_its_link_across_outputs(page):
    """Issue 36: a link to Laplace at ε = 10 opens there; the Gaussian outputs (μ up to 5)
    take the shift clamped to 5 and say so; back on Laplace the shift is still 5, and the
    address, the view's Share link, says so: a new load of it opens the same shift (the
    value the page sets when the range changes is written into the address)."""
    laplace, gaussian = "Laplace: Lap(0,1) vs Lap(ε,1)", "Gaussian: N(0,1) vs N(μ,1)"
    open_page(page, "fdp?fdp_family=" + quote_plus(laplace) + "&fdp_mu=10",
              "f-DP and Gaussian DP")
    main = page.locator('[data-testid="stMain"]')
    said = re.compile(r"At ε = 10 \(Laplace\), an attacker who is 50% sure")
    expect(main.get_by_text(said)).to_be_visible()
    main.get_by_text(gaussian, exact=True).click()
    wait_idle(page)
    expect(main.get_by_text("10 is beyond this range; 5 is used.")).to_be_visible()
    expect(main.get_by_text(re.compile(r"At μ = 5, an attacker who is 50% sure"))).to_be_visible()
    assert [float(v) for v in parse_qs(urlsplit(page.url).query)["fdp_mu"]] == [5], page.url
    main.get_by_text(laplace, exact=True).click()
    wait_idle(page)
    said = re.compile(r"At ε = 5 \(Laplace\), an attacker who is 50% sure")
    expect(main.get_by_text(said)).to_be_visible()
    url = page.url
    assert [float(v) for v in parse_qs(urlsplit(url).query)["fdp_mu"]] == [5], url
    page.goto(url)
    wait_idle(page)
    expect(main.get_by_text(said)).to_be_visible()
