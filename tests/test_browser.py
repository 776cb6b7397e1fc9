"""Real-browser tests: `streamlit run app.py` driven by Chromium through Playwright.

Debian's /usr/bin/chromium is used (never `playwright install`). Without it the
tests skip, except on CI (CI=true), where they fail: CI must run them.

Every routed page is opened at its defaults (test_every_page_opens_clean), then each page
has a test of its own that moves its main controls and checks that the numbers on screen
move the way the mathematics says. Every test checks that no traceback, exception or
error box is shown and that the browser console logged no error (see BENIGN_CONSOLE for
the two kinds that are not the app's). Screenshots go to test-artifacts/: <page>.png after
the controls moved, <page>-defaults.png as the page opens.
"""

from __future__ import annotations

import contextlib

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from conftest import REPO_ROOT, free_port, healthy, routed_pages

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
VIEWPORT = {"width": 1400, "height": 2600}
ARTIFACTS = REPO_ROOT / "test-artifacts"
STARTUP_TIMEOUT = 60.0
RUN_TIMEOUT_MS = 60_000  # one script rerun, bootstrap included, on 2 busy cores
LOAD_TIMEOUT_MS = 120_000  # a page's first results, in a browser context that loads it all
# expect(...): a value drawn on screen. Streamlit draws most elements from code it loads
# on demand (a skeleton meanwhile): on 2 busy cores a new context can take 30 s to parse
# Plotly's and draw the charts and metrics after the script run has ended.
EXPECT_TIMEOUT_MS = 60_000

ALPHA_A_LABEL = "Privacy level α₁ (histogram A)"
BOOT_LABEL = "Parametric bootstrap p-value"
NAIVE_LABEL = "Naive χ² test p-value"


def _unavailable(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI must run the browser tests.", pytrace=False)
    pytest.skip(reason)


# ---------------------------------------------------------------------------
# fixtures: the Streamlit server, the browser, a page
# ---------------------------------------------------------------------------

@dataclass
class Server:
    url: str
    proc: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def _stop(proc: subprocess.Popen) -> None:
    """Terminate the server's process group (we started it in its own session)."""
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def _start_server(log_path: Path) -> Server:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = log_path.open("w", encoding="utf-8")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    venv_python = REPO_ROOT / ".venv" / "bin" / "python"
    python = str(venv_python) if venv_python.exists() else sys.executable
    proc = subprocess.Popen(
        [python, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.headless", "true", "--browser.gatherUsageStats", "false"],
        cwd=REPO_ROOT, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
    )
    log.close()
    server = Server(url, proc, log_path)
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return server  # exited: the caller retries (e.g. the port was taken meanwhile)
        # The answer must come from our process: it is still running and did not
        # report the port as taken by someone else.
        if healthy(url) and proc.poll() is None and "is not available" not in server.log():
            return server
        time.sleep(0.2)
    _stop(proc)
    pytest.fail(f"streamlit did not answer {url}/_stcore/health within {STARTUP_TIMEOUT:.0f} s."
                f"\n--- server log ---\n{server.log()}")


@pytest.fixture(scope="module")
def chromium_path() -> str:
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        _unavailable(f"{CHROMIUM} is missing (install Debian's chromium package)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("the playwright package is not installed")
    return str(CHROMIUM)


@contextlib.contextmanager
def _running_server(log_dir, name: str):
    """Start `streamlit run app.py` (up to three tries on a free port); stop it on exit."""
    for attempt in range(3):
        srv = _start_server(log_dir / f"{name}-{attempt}.log")
        if srv.proc.poll() is None:
            break
    else:
        pytest.fail(f"streamlit exited at start-up three times.\n--- server log ---\n{srv.log()}")
    try:
        yield srv
    finally:
        _stop(srv.proc)


@pytest.fixture(scope="module")
def server(chromium_path, tmp_path_factory):
    """`streamlit run app.py` on a free port; yields a Server; stopped at teardown."""
    with _running_server(tmp_path_factory.mktemp("streamlit"), "server") as srv:
        yield srv


@pytest.fixture(scope="module")
def browser(chromium_path):
    from playwright.sync_api import expect, sync_playwright

    # expect(...) waits up to 5 s by default: too short for a script run on 2 busy cores.
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_page(browser, server_url: str):
    """A new browser context (its own cookies and cache) and a watched_page in it."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(RUN_TIMEOUT_MS)
    return context, watched_page(context, server_url)


def watched_page(context, server_url: str):
    """A new page (a new Streamlit session) in ``context``.

    The page records what the app must not produce: uncaught JavaScript errors
    (``page_errors``) and console messages of type "error" (``console_errors``, as
    (text, URL of the resource) pairs), with the HTTP errors and failed requests
    that tell the benign ones apart (see BENIGN_CONSOLE).
    """
    pg = context.new_page()
    pg.server_url = server_url
    pg.page_errors = []
    pg.console_errors = []
    pg.http_errors = {}  # URL -> status, for responses with status >= 400
    pg.failed_requests = {}  # URL -> reason, for requests with no response at all
    pg.on("pageerror", lambda exc: pg.page_errors.append(str(exc)))
    pg.on("console", lambda msg: pg.console_errors.append(
        (msg.text, (msg.location or {}).get("url", ""))) if msg.type == "error" else None)
    pg.on("response", lambda resp: pg.http_errors.__setitem__(resp.url, resp.status)
          if resp.status >= 400 else None)
    pg.on("requestfailed", lambda req: pg.failed_requests.__setitem__(req.url, req.failure))
    return pg


@pytest.fixture(scope="module")
def shared_context(browser):
    """One browser context for the tests' pages: its HTTP cache keeps Streamlit's
    JavaScript (Plotly's is megabytes) between tests. Each page is still a session of its
    own; the shared-link test opens its link in a context of its own."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(RUN_TIMEOUT_MS)
    try:
        yield context
    finally:
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


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def wait_idle(page) -> None:
    """Wait until the app is connected and no script run is in progress.

    The app's own state attributes, not the status widget: the widget also shows
    "Source file changed" while someone edits a page, which is not a run.
    """
    page.wait_for_function(
        """() => {
            const app = document.querySelector('[data-testid="stApp"]');
            if (!app) return false;
            const run = app.getAttribute('data-test-script-state');
            const conn = app.getAttribute('data-test-connection-state');
            return run !== 'running' && (conn === null || conn === 'CONNECTED');
        }""",
        timeout=RUN_TIMEOUT_MS,
    )


def wait_drawn(page) -> None:
    """wait_idle, then until the main area shows no placeholder skeleton: every element
    of the run is drawn (see EXPECT_TIMEOUT_MS)."""
    wait_idle(page)
    page.wait_for_function(
        """() => !document.querySelector('[data-testid="stMain"] [data-testid="stSkeleton"]')""",
        timeout=LOAD_TIMEOUT_MS,
    )


def open_app(page, server, query: str = "") -> None:
    """The page "Compare two private histograms" at its defaults (or ``query``)."""
    page.goto(f"{server.url}/compare_histograms{query}")
    page.locator('[data-testid="stMain"]').wait_for()
    page.get_by_text(BOOT_LABEL).first.wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)


def read_metrics(page) -> dict[str, str]:
    return page.evaluate(
        """() => Object.fromEntries(
            [...document.querySelectorAll('[data-testid="stMetric"]')].map(m => [
                m.querySelector('[data-testid="stMetricLabel"]').innerText.trim(),
                m.querySelector('[data-testid="stMetricValue"]').innerText.trim(),
            ]))"""
    )


def slider_to_end(page, thumb, top: str) -> None:
    """Press End on a slider thumb until it shows ``top``, the last value of its grid.

    Pressing End again is harmless, so the press is retried when it landed while the
    widget was being re-mounted by a script run.
    """
    press_until(page, thumb, "End", top)


# Console errors that are not the app's. Each is recognised by the URL of the resource
# it is about (the console message's location) and by what the network said about that
# URL, never by its text alone:
#  - "sub-path probe": a page opened at its own path (/ldp) makes Streamlit's frontend
#    probe <page path>/_stcore/health and <page path>/_stcore/host-config first; the
#    server answers 404 there (it serves them at /_stcore/...), Chromium logs the 404,
#    and the frontend goes on with the server's root, which answers.
#  - "offline icon": the Material Symbols icon of the page (page_icon, the favicon) comes
#    from fonts.gstatic.com; with no internet (here, CI) the request fails without a
#    response (net::ERR_NAME_NOT_RESOLVED). Other external hosts are not excused.
BENIGN_CONSOLE = ("sub-path probe", "offline icon")
STCORE_PROBES = ("/_stcore/health", "/_stcore/host-config")
OFFLINE_HOSTS = frozenset({"fonts.gstatic.com"})
SUB_PATHS = frozenset(p.url_path for p in routed_pages() if p.url_path)


def benign_console_error(page, url: str) -> str | None:
    """Which kind of BENIGN_CONSOLE a console error about ``url`` is, or None."""
    parts = urlsplit(url)
    if (parts.netloc == urlsplit(page.server_url).netloc
            and page.http_errors.get(url) == 404
            and any(parts.path == f"/{sub}{probe}" for sub in SUB_PATHS
                    for probe in STCORE_PROBES)):
        return "sub-path probe"
    if parts.hostname in OFFLINE_HOSTS and url in page.failed_requests:
        return "offline icon"
    return None


def assert_console_clean(page) -> None:
    """No console error but the BENIGN_CONSOLE ones, and no uncaught JavaScript error."""
    errors = [(text, url) for text, url in page.console_errors
              if benign_console_error(page, url) is None]
    assert not errors, f"console errors: {errors}"
    assert not page.page_errors, page.page_errors


def assert_no_traceback(page) -> None:
    body = page.locator("body").inner_text()
    assert "Traceback" not in body, body
    assert page.locator('[data-testid="stException"]').count() == 0, body
    assert_console_clean(page)


def assert_clean(page) -> None:
    """No traceback, exception or console error, and no error box either."""
    assert_no_traceback(page)
    errors = page.locator('[data-testid="stAlertContentError"]')
    assert errors.count() == 0, errors.all_inner_texts()


def screenshot(page, name: str) -> None:
    """test-artifacts/<name>.png, the whole page (the wait for web fonts can be long
    on a busy machine)."""
    wait_drawn(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, timeout=90_000)


def choose(page, selectbox_label: str, option: str) -> None:
    """Pick an option of a Streamlit selectbox: click it, then click the option."""
    from playwright.sync_api import expect

    page.locator('[data-testid="stSelectbox"]').filter(has_text=selectbox_label).click()
    page.get_by_role("option", name=option, exact=True).click()
    expect(page.get_by_role("combobox", name=selectbox_label)).to_have_value(option)


def widget(page, testid: str, label: str):
    """The Streamlit widget of type ``testid`` (e.g. "stSlider") whose label is ``label``."""
    return page.locator(f'[data-testid="{testid}"]').filter(
        has=page.locator('[data-testid="stWidgetLabel"]').get_by_text(label, exact=True))


def thumb(page, label: str):
    """The thumb of the slider labelled ``label``: keyboard focus, aria-valuetext."""
    return widget(page, "stSlider", label).get_by_role("slider")


def press_until(page, thumb, key: str, shown: str, tries: int = 3) -> None:
    """Press ``key`` on a slider thumb until it shows ``shown``.

    For keys that land on one value whatever the slider showed (End, Home), or a
    single step checked right away: a press that landed while a script run re-mounted
    the widget is pressed again.
    """
    from playwright.sync_api import expect

    for _ in range(tries):
        if thumb.get_attribute("aria-valuetext") == shown:
            break
        thumb.focus()
        page.keyboard.press(key)
        try:
            expect(thumb).to_have_attribute("aria-valuetext", shown, timeout=5_000)
            break
        except AssertionError:
            continue
    expect(thumb).to_have_attribute("aria-valuetext", shown)


def metric_value(page, label: str):
    """The value of the metric labelled exactly ``label``."""
    return page.locator('[data-testid="stMetric"]').filter(
        has=page.locator('[data-testid="stMetricLabel"]').get_by_text(label, exact=True)
    ).locator('[data-testid="stMetricValue"]')


def settled_text(page, locator, before: str | None = None) -> str:
    """The text of ``locator`` once it differs from ``before`` (if given), read between
    script runs: a run in progress can show a transitional page."""
    deadline = time.monotonic() + RUN_TIMEOUT_MS / 1000
    while True:
        wait_idle(page)
        text = locator.inner_text().strip()
        if before is None or text != before:
            return text
        assert time.monotonic() < deadline, f"{locator} still shows {before!r}"
        page.wait_for_timeout(200)


def wait_for_metrics(page, expected: dict[str, str]) -> dict[str, str]:
    """Wait until the metrics named in ``expected`` show those values between two script
    runs; returns every metric then. On time-out the assertion shows what is on screen."""
    deadline = time.monotonic() + RUN_TIMEOUT_MS / 1000
    while True:
        wait_idle(page)
        metrics = read_metrics(page)
        if {k: metrics.get(k) for k in expected} == expected or time.monotonic() > deadline:
            break
        page.wait_for_timeout(200)
    assert {k: metrics.get(k) for k in expected} == expected, metrics
    return metrics


_SUPERSCRIPTS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def number(text: str) -> float:
    """A number as the pages show it: 1,234; 3.7e-05; 1.0·10⁻⁵; 10⁻⁸; 12.5%."""
    t = text.strip().replace(",", "").replace("−", "-")
    scale = 0.01 if t.endswith("%") else 1.0
    t = t.rstrip("%")
    if "10" in t and t[-1] in "⁰¹²³⁴⁵⁶⁷⁸⁹":
        mantissa, _, exponent = t.rpartition("10")
        mantissa = mantissa.rstrip("·") or "1"
        return scale * float(mantissa) * 10.0 ** int(exponent.translate(_SUPERSCRIPTS))
    return scale * float(t)


# ---------------------------------------------------------------------------
# tests
# ---------------------------------------------------------------------------

def test_every_page_opens_clean(page, server, app_page):
    """Every page app.py routes to, opened by its URL at its defaults: its title, then the
    end of its script run; no traceback, exception, error box or console error."""
    page.goto(f"{server.url}/{app_page.url_path}")
    page.locator('[data-testid="stMain"]').wait_for()
    if app_page.title:
        page.get_by_role("heading", name=app_page.title).first.wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_drawn(page)
    assert page.url.rstrip("/") == f"{server.url}/{app_page.url_path}".rstrip("/"), page.url
    assert_clean(page)
    screenshot(page, f"{Path(app_page.path).stem}-defaults")


# ---------------------------------------------------------------------------
# The home page
# ---------------------------------------------------------------------------

def test_home_links_open_their_pages(page, server):
    """The start page has one link per other page, to its path; a click opens that page."""
    from playwright.sync_api import expect

    from dpcore import ldp

    home = next(p for p in routed_pages() if p.default)
    page.goto(f"{server.url}/")
    page.get_by_role("heading", name=home.title).first.wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)
    links = page.locator('[data-testid="stMain"] [data-testid="stPageLink-NavLink"]')
    others = [p for p in routed_pages() if not p.default]
    expect(links).to_have_count(len(others))
    # Each link is "<material icon name>\n\n<title>": keep the title.
    shown = {text.strip().splitlines()[-1].strip(): href for text, href in zip(
        links.all_inner_texts(), [links.nth(i).get_attribute("href")
                                  for i in range(links.count())])}
    assert shown == {p.title: p.url_path for p in others}, shown
    assert_clean(page)  # its screenshot: home-defaults.png (test_every_page_opens_clean)

    links.filter(has_text="Randomized response (local DP)").click()
    page.get_by_role("heading", name="Randomized response (local DP)").first.wait_for(
        timeout=LOAD_TIMEOUT_MS)
    expect(metric_value(page, "p: tell the truth")).to_have_text(
        f"{ldp.krr_probabilities(1.0, 2)[0]:.4g}", timeout=RUN_TIMEOUT_MS)
    wait_idle(page)
    assert urlsplit(page.url).path == "/ldp", page.url
    assert_clean(page)


# ---------------------------------------------------------------------------
# "Compare two private histograms"
# ---------------------------------------------------------------------------

def test_alpha_slider_changes_the_pvalue(page, server):
    from playwright.sync_api import expect

    open_app(page, server)
    expect(page.locator('[data-testid="stMetric"]')).to_have_count(4)
    before = read_metrics(page)
    assert {NAIVE_LABEL, BOOT_LABEL} <= set(before), before
    for label in (NAIVE_LABEL, BOOT_LABEL):
        assert 0 <= float(before[label]) <= 1, before

    slider = page.locator('[data-testid="stSlider"]').filter(has_text=ALPHA_A_LABEL)
    thumb = slider.get_by_role("slider")
    expect(thumb).to_have_attribute("aria-valuetext", "0.1")
    # End moves α₁ to the top of its grid, 10.
    slider_to_end(page, thumb, "10")

    # Wait for the naive p-value itself to change, reading only between script runs: any
    # metric changing is not enough, as a run in progress can show a transitional page.
    deadline = time.monotonic() + RUN_TIMEOUT_MS / 1000
    while True:
        wait_idle(page)
        after = read_metrics(page)
        if after.get(NAIVE_LABEL, before[NAIVE_LABEL]) != before[NAIVE_LABEL]:
            break
        assert time.monotonic() < deadline, (before, after)
        page.wait_for_timeout(200)
    wait_idle(page)
    after = read_metrics(page)
    assert set(after) == set(before)
    # Noise Lap(2/α₁) on A drops from Lap(20) to Lap(0.2): the private histogram
    # A changes, and so does the chi-square p-value computed from it.
    assert after[NAIVE_LABEL] != before[NAIVE_LABEL]
    assert (after[NAIVE_LABEL], after[BOOT_LABEL]) != (before[NAIVE_LABEL], before[BOOT_LABEL])
    assert "cmp_alpha_a=10" in page.url  # the setting is bound to the URL
    expect(page.get_by_text("At the 5% level", exact=False)).to_be_visible()
    assert_no_traceback(page)

    screenshot(page, "compare_histograms")


def test_degenerate_case_from_url_shows_plain_error(page, server):
    """Deep link: two uniform bins, N = 1,000, α = 0.001, seed 0 gives N̂ = 0."""
    from playwright.sync_api import expect

    query = ("?cmp_a=Shape%3A+Uniform&cmp_b=Shape%3A+Uniform&cmp_m=2&cmp_n=1%2C000"
             "&cmp_alpha_a=0.001&cmp_alpha_b=0.001&cmp_seed=0")
    page.goto(f"{server.url}/compare_histograms{query}")
    error = page.locator('[data-testid="stAlertContentError"]')
    expect(error).to_contain_text("The bootstrap test cannot be run", timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)
    expect(page.get_by_role("combobox", name="Histogram A")).to_have_value("Shape: Uniform")
    # The run may end before the browser has drawn every element: wait for them.
    expect(page.locator('[data-testid="stMetric"]')).to_have_count(3)
    expect(page.get_by_text("No null distribution: see the message above.")).to_be_visible()
    metrics = read_metrics(page)
    assert NAIVE_LABEL in metrics and BOOT_LABEL not in metrics, metrics
    assert_no_traceback(page)


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


def test_uploads_show_plain_errors(page, server, tmp_path):
    from playwright.sync_api import expect

    open_app(page, server)
    choose(page, "Histogram A", "Uploaded CSV file")
    choose(page, "Histogram B", "Uploaded CSV file")
    expect(page.get_by_text("Upload a CSV file to use it as a histogram")).to_be_visible()
    wait_idle(page)

    file_input = page.locator('[data-testid="stFileUploaderDropzoneInput"]')
    errors = page.locator('[data-testid="stAlertContentError"]')
    for name, content, fragment in UPLOADS:
        path = tmp_path / f"{name}.csv"
        path.write_text(content, encoding="utf-8")
        file_input.set_input_files(str(path))
        expect(page.locator('[data-testid="stFileChipName"]')).to_have_text(path.name)
        if fragment is None:
            expect(errors).to_have_count(0)
            expect(page.locator('[data-testid="stMetric"]')).to_have_count(4)
            wait_idle(page)
            metrics = read_metrics(page)
            assert float(metrics[BOOT_LABEL]) >= 0, metrics
        else:
            expect(errors).to_have_count(1)
            expect(errors).to_contain_text(fragment)
            wait_idle(page)
            text = errors.inner_text()
            assert "cannot be used" in text or "cannot be compared" in text, text
            expect(page.locator('[data-testid="stMetric"]')).to_have_count(0)
        # The controls to fix the input are still there.
        expect(page.get_by_role("combobox", name="Histogram A")).to_have_value("Uploaded CSV file")
        expect(page.get_by_role("combobox", name="Histogram B")).to_have_value("Uploaded CSV file")
        expect(page.locator('[data-testid="stFileUploaderDropzone"]')).to_be_visible()
        assert_no_traceback(page)


# ---------------------------------------------------------------------------
# "Test calibration", first opened by its own URL on a fresh server
# ---------------------------------------------------------------------------

# Every page's title as app.py routes it, in order (the sidebar shows exactly these).
NAV_TITLES = [page.title for page in routed_pages()]


@pytest.fixture
def fresh_server(chromium_path, tmp_path):
    """A server of its own that has answered no page request yet (unlike `server`)."""
    with _running_server(tmp_path, "fresh-server") as srv:
        yield srv
    assert "Traceback" not in srv.log(), f"the server logged an exception:\n{srv.log()}"


def test_calibration_page_first_opened_by_url(browser, fresh_server):
    """Regression: a fresh server's first request is the sub-page URL.

    With the page scripts in a folder named pages/, Streamlit served such a
    request in its multipage v1 mode, bypassing app.py: the sidebar listed file
    names ("test calibration") and set_page_config (wide layout) never ran.
    """
    from playwright.sync_api import expect

    context, page = new_page(browser, fresh_server.url)
    try:
        page.goto(f"{fresh_server.url}/test_calibration")
        page.get_by_role("heading", name="Test calibration").first.wait_for(timeout=LOAD_TIMEOUT_MS)
        wait_idle(page)
        assert page.url.rstrip("/").endswith("/test_calibration"), page.url

        # app.py's st.navigation: the sidebar shows its page titles, in its order.
        links = page.locator('[data-testid="stSidebarNav"] [data-testid="stSidebarNavLink"]')
        expect(links).to_have_count(len(NAV_TITLES))
        # Each link is "<material icon name>\n\n<title>": keep the title.
        labels = [text.strip().splitlines()[-1].strip() for text in links.all_inner_texts()]
        assert labels == NAV_TITLES, labels
        nav = page.locator('[data-testid="stSidebarNav"]').inner_text()
        assert "test calibration" not in nav and "compare histograms" not in nav, nav
        assert "Test calibration" in NAV_TITLES

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
        caption = page.get_by_text("seed 2022. The rate is the type-I error.")
        expect(caption).to_be_visible()  # the default run, done when the page opened
        seed = form.get_by_role("spinbutton", name="Seed", exact=True)
        seed.fill("7")
        seed.press("Tab")
        form.get_by_role("button", name="Run simulation").click()
        expect(page.get_by_text("seed 7. The rate is the type-I error.")).to_be_visible(
            timeout=LOAD_TIMEOUT_MS)
        wait_idle(page)
        expect(page.locator('[data-testid="stProgress"]')).to_have_count(0)
        live = page.locator('[data-testid="stTabPanel"]:visible')
        expect(live.locator('[data-testid="stPlotlyChart"]')).to_have_count(1)
        expect(live.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
        expect(page.get_by_text("The settings above have changed")).to_have_count(0)
        assert_no_traceback(page)
        assert page.locator('[data-testid="stAlertContentError"]').count() == 0
        screenshot(page, "test_calibration")
    finally:
        context.close()


def test_calibration_null_controls_move_the_statistics(page, server):
    """Null distributions tab: a smaller α (more noise) inflates the statistic with DP
    and its naive type-I error, not the one without DP; fewer replicates redraw both
    histograms with that many statistics. The numbers are dpcore's for the same seed."""
    from playwright.sync_api import expect

    import numpy as np

    from dpcore import datasets, simulation

    def expected(alpha: float, reps: int) -> dict[str, str]:
        ns = simulation.null_statistics(
            datasets.shape_probabilities(next(iter(datasets.SHAPES)), 20), 5050, alpha,
            reps=reps, rng=2022)
        crit = simulation.chi2_critical_value(ns.df)
        return {"χ² reference mean (df)": f"{ns.df}",
                "Mean without DP": f"{ns.without_dp.mean():.1f}",
                "Mean with DP": f"{ns.with_dp.mean():.1f}",
                "Naive type-I error without DP": f"{np.mean(ns.without_dp > crit):.1%}",
                "Naive type-I error with DP": f"{np.mean(ns.with_dp > crit):.1%}"}

    def histogram_sizes() -> list[int]:
        """Values in the null tab's two histograms (its chart's first two traces)."""
        return page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot').first.evaluate(
            "gd => gd._fullData.filter(t => t.type === 'histogram').map(t => t._length)")

    page.goto(f"{server.url}/test_calibration")
    page.get_by_role("heading", name="Test calibration").first.wait_for(timeout=LOAD_TIMEOUT_MS)
    expect(metric_value(page, "Mean with DP")).to_be_visible(timeout=RUN_TIMEOUT_MS)
    before = expected(0.5, 1000)
    wait_for_metrics(page, before)
    assert histogram_sizes() == [1000, 1000]

    # Home: α to the bottom of its grid, 0.001, noise Lap(2,000) on counts of about 250.
    press_until(page, thumb(page, "Privacy level α"), "Home", "0.001")
    after = expected(0.001, 1000)
    wait_for_metrics(page, after)
    assert after["Mean without DP"] == before["Mean without DP"]
    assert number(after["Mean with DP"]) > number(before["Mean with DP"])
    assert number(after["Naive type-I error with DP"]) > number(
        before["Naive type-I error with DP"])

    # Home: null replicates to 200.
    press_until(page, thumb(page, "Null replicates"), "Home", "200")
    wait_for_metrics(page, expected(0.001, 200))
    assert histogram_sizes() == [200, 200]
    query = search(page)
    assert "cal_alpha=0.001" in query and "cal_reps_null=200" in query, query
    assert_clean(page)
    screenshot(page, "test_calibration-null")


# ---------------------------------------------------------------------------
# "Gaussian mechanism"
# ---------------------------------------------------------------------------

GAUSS_SIGMA_LABEL = "σ (solved)"


def open_gaussian(page, server, query: str = "") -> None:
    page.goto(f"{server.url}/gaussian{query}")
    page.get_by_role("heading", name="Gaussian mechanism").first.wait_for(timeout=LOAD_TIMEOUT_MS)
    page.get_by_text(GAUSS_SIGMA_LABEL).first.wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)


def test_gaussian_typed_eps_solves_sigma(page, server):
    from playwright.sync_api import expect

    from dpcore import gaussian

    open_gaussian(page, server)
    before = read_metrics(page)
    assert before[GAUSS_SIGMA_LABEL] == f"{float(gaussian.gaussian_sigma(1.0, 1e-5)):.5g}", before

    box = page.get_by_role("spinbutton", name="exact ε", exact=True)
    expect(box).to_have_value("1")
    box.fill("2")
    box.press("Enter")
    expected = float(gaussian.gaussian_sigma(2.0, 1e-5))
    sigma_metric = page.locator('[data-testid="stMetric"]').filter(has_text=GAUSS_SIGMA_LABEL)
    expect(sigma_metric.locator('[data-testid="stMetricValue"]')).to_have_text(
        f"{expected:.5g}", timeout=RUN_TIMEOUT_MS)
    wait_idle(page)
    # The exact σ box shows the solved value; the ε slider moved to 2.
    sigma_box = page.get_by_role("spinbutton", name="exact σ", exact=True)
    expect(sigma_box).to_be_disabled()
    assert float(sigma_box.input_value()) == pytest.approx(expected, rel=1e-5)
    eps_slider = page.locator('[data-testid="stSlider"]').filter(
        has_text="ε: privacy-loss bound").get_by_role("slider")
    expect(eps_slider).to_have_attribute("aria-valuetext", "2")
    assert "gauss_eps=2" in page.url
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    assert_no_traceback(page)
    screenshot(page, "gaussian")


def test_gaussian_link_opens_fdp_with_mu(page, server):
    from playwright.sync_api import expect

    from dpcore import gaussian

    open_gaussian(page, server, "?gauss_eps=1.5")
    page.get_by_role("tab", name="As μ-GDP").click()
    mu = float(gaussian.gaussian_mu(1.5, 1e-5))  # 0.387: the f-DP slider's step is 0.05
    linked = round(mu / 0.05) * 0.05
    assert linked == pytest.approx(0.4)
    link = page.get_by_role("link", name=f"See G_μ with μ = {linked:g} on the f-DP page")
    expect(link).to_be_visible()
    expect(page.get_by_text(f"is rounded to {linked:g} there")).to_be_visible()
    assert_no_traceback(page)
    link.click()
    page.get_by_role("heading", name="f-DP and Gaussian DP").first.wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)
    assert "fdp_g_mu=0.4" in page.url, page.url
    slider = page.locator('[data-testid="stSlider"]').filter(has_text="μ of G_μ")
    expect(slider.get_by_role("slider")).to_have_attribute("aria-valuetext", f"{linked:.2f}")
    assert_no_traceback(page)


def test_gaussian_larger_sigma_gives_smaller_delta(page, server):
    """Solve for δ: the σ box is then an input, and more noise gives a smaller δ."""
    from playwright.sync_api import expect

    from dpcore import gaussian

    open_gaussian(page, server)
    page.get_by_role("radiogroup", name="Solve for").get_by_role(
        "radio", name="δ", exact=True).click()
    delta = metric_value(page, "δ (solved)")
    expect(delta).to_be_visible(timeout=RUN_TIMEOUT_MS)
    sigma_box = page.get_by_role("spinbutton", name="exact σ", exact=True)
    expect(sigma_box).to_be_enabled()
    # The σ solved so far is kept: δ is the one it was solved for, 10⁻⁵.
    shown = settled_text(page, delta)
    assert number(shown) == pytest.approx(1e-5, rel=0.05), shown

    for sigma in (5, 8):
        sigma_box.fill(str(sigma))
        sigma_box.press("Enter")
        want = float(gaussian.gaussian_delta(1.0, sigma, 1.0))
        now = settled_text(page, delta, shown)
        assert number(now) == pytest.approx(want, rel=0.05), (sigma, now, want)
        assert number(now) < number(shown), (sigma, shown, now)  # more noise, smaller δ
        expect(metric_value(page, "σ")).to_have_text(f"{sigma:g}")
        expect(metric_value(page, "μ = Δ/σ")).to_have_text(f"{1 / sigma:.5g}")
        shown = now
    query = search(page)
    assert "gauss_sigma=8" in query and "gauss_solve=" in query, query
    assert_clean(page)
    screenshot(page, "gaussian-delta")


# ---------------------------------------------------------------------------
# "f-DP and Gaussian DP"
# ---------------------------------------------------------------------------

def test_fdp_mu_moves_the_tradeoff_and_delta(page, server):
    """A larger shift μ between the outputs: the attacker at the same threshold misses
    less (β falls, α stays); on the conversions tab, δ(ε) of μ-GDP grows with μ."""
    from dpcore import audit, fdp

    page.goto(f"{server.url}/fdp")
    page.get_by_role("heading", name="f-DP and Gaussian DP").first.wait_for(timeout=LOAD_TIMEOUT_MS)

    def attacker(mu: float) -> dict[str, str]:
        a, b = (float(v) for v in audit.threshold_test("gaussian", mu, 1.65))
        return {"Type-I error α": f"{a:.4f}", "Type-II error β": f"{b:.4f}",
                "α + β": f"{a + b:.4f}"}

    before = wait_for_metrics(page, attacker(1.0))
    # End: μ to the top of its range, 5.
    press_until(page, thumb(page, "Shift between the two outputs: μ (ε for Laplace)"),
                "End", "5.00")
    after = wait_for_metrics(page, attacker(5.0))
    assert after["Type-I error α"] == before["Type-I error α"]
    assert number(after["Type-II error β"]) < number(before["Type-II error β"])
    assert "fdp_mu=5" in search(page), search(page)
    assert_clean(page)

    page.get_by_role("tab", name="Conversions").click()
    label = "δ(ε) at ε = 1 for μ = {:g}"
    wait_for_metrics(page, {label.format(1): f"{float(fdp.gdp_delta(1.0, 1.0)):.4g}"})
    press_until(page, thumb(page, "μ"), "ArrowRight", "1.05")
    wait_for_metrics(page, {label.format(1.05): f"{float(fdp.gdp_delta(1.0, 1.05)):.4g}"})
    press_until(page, thumb(page, "μ"), "End", "5.00")
    wait_for_metrics(page, {label.format(5): f"{float(fdp.gdp_delta(1.0, 5.0)):.4g}"})
    deltas = [float(fdp.gdp_delta(1.0, mu)) for mu in (1.0, 1.05, 5.0)]
    assert deltas == sorted(deltas)  # the values shown grow with μ
    query = search(page)
    assert "fdp_tab=Conversions" in query and "fdp_conv_mu=5" in query, query
    assert_clean(page)
    screenshot(page, "fdp")


# ---------------------------------------------------------------------------
# "Randomized response (local DP)"
# ---------------------------------------------------------------------------

LDP_P_LABEL = "p: tell the truth"


def test_ldp_eps_slider_changes_p(page, server):
    from playwright.sync_api import expect

    from dpcore import ldp

    page.goto(f"{server.url}/ldp")
    page.get_by_role("heading", name="Randomized response (local DP)").first.wait_for(
        timeout=LOAD_TIMEOUT_MS)
    page.get_by_text(LDP_P_LABEL).first.wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)
    p_value = page.locator('[data-testid="stMetric"]').filter(
        has_text=LDP_P_LABEL).locator('[data-testid="stMetricValue"]')
    expect(p_value).to_have_text(f"{ldp.krr_probabilities(1.0, 2)[0]:.4g}")

    thumb = page.locator('[data-testid="stSlider"]').filter(
        has_text="Privacy level ε").get_by_role("slider")
    expect(thumb).to_have_attribute("aria-valuetext", "1")
    # End moves ε to the top of its grid, 10.
    slider_to_end(page, thumb, "10")
    p_10, q_10 = ldp.krr_probabilities(10.0, 2)
    assert p_10 > ldp.krr_probabilities(1.0, 2)[0]  # larger ε, more truth
    expect(p_value).to_have_text(f"{p_10:.4g}", timeout=RUN_TIMEOUT_MS)
    wait_idle(page)
    metrics = read_metrics(page)
    assert metrics["q: tell a given lie"] == f"{q_10:.4g}", metrics
    assert "ldp_eps=10" in page.url
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    assert_no_traceback(page)
    screenshot(page, "ldp")


LDP_SOURCE_LABEL = "Data: the users' true answers"
LDP_ABC = "Three categories A, B, C (k = 3)"


def open_ldp(page, url: str) -> None:
    page.goto(url)
    page.get_by_role("heading", name="Randomized response (local DP)").first.wait_for(
        timeout=LOAD_TIMEOUT_MS)
    page.get_by_text(LDP_P_LABEL).first.wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)


def ldp_view(page) -> dict:
    """What a person sees of the k-RR page's settings and results."""
    wait_idle(page)
    return {
        "source": page.get_by_role("combobox", name=LDP_SOURCE_LABEL).input_value(),
        "eps": thumb(page, "Privacy level ε").get_attribute("aria-valuetext"),
        "seed": page.get_by_role("spinbutton", name="Seed", exact=True).input_value(),
        "tab": page.get_by_role("tab", selected=True).inner_text().strip(),
        "metrics": read_metrics(page),
    }


def test_shared_link_opens_the_same_view(browser, page, server):
    """Set the k-RR page away from its defaults, take the link from its "Share" popover
    and open it in a new browser context (a new session): the same settings, the same
    tab and the same numbers, random draws included."""
    from playwright.sync_api import expect

    from dpcore import ldp

    open_ldp(page, f"{server.url}/ldp")
    choose(page, LDP_SOURCE_LABEL, LDP_ABC)
    expect(metric_value(page, "Categories k")).to_have_text("3", timeout=RUN_TIMEOUT_MS)
    wait_idle(page)
    press_until(page, thumb(page, "Privacy level ε"), "ArrowRight", "1.5")
    expect(metric_value(page, LDP_P_LABEL)).to_have_text(
        f"{ldp.krr_probabilities(1.5, 3)[0]:.4g}", timeout=RUN_TIMEOUT_MS)
    wait_idle(page)
    seed = page.get_by_role("spinbutton", name="Seed", exact=True)
    seed.fill("7")
    seed.press("Enter")
    page.get_by_role("tab", name="The aggregate").click()
    error = metric_value(page, "Total absolute error of the estimate")
    expect(error).to_be_visible(timeout=RUN_TIMEOUT_MS)
    wait_for_metrics(page, {"Categories k": "3"})
    view = ldp_view(page)
    assert view["seed"] == "7" and view["tab"] == "The aggregate", view
    assert_clean(page)

    page.get_by_role("button", name="Share", exact=True).click()
    code = page.locator('[data-testid="stPopoverBody"] [data-testid="stCode"]')
    expect(code).to_be_visible()
    link = code.inner_text().strip()
    assert link == page.evaluate("window.location.href"), link
    assert parse_qs(urlsplit(link).query) == {
        "ldp_source": [LDP_ABC], "ldp_eps": ["1.5"], "ldp_seed": ["7"],
        "ldp_tab": ["The aggregate"]}, link
    page.keyboard.press("Escape")

    context, other = new_page(browser, server.url)
    try:
        other.goto(link)
        other.get_by_text("Total absolute error of the estimate").first.wait_for(
            timeout=LOAD_TIMEOUT_MS)
        wait_for_metrics(other, view["metrics"])
        assert ldp_view(other) == view
        assert_clean(other)
        screenshot(other, "ldp-shared-link")
    finally:
        context.close()


def test_link_with_an_unusable_value_says_so(page, server):
    """A link with ε = 999 (not on the slider): the page says which setting it could not
    use, uses the default ε = 1 and the link's other settings, and works on."""
    from playwright.sync_api import expect

    from dpcore import ldp

    open_ldp(page, f"{server.url}/ldp?{urlencode({'ldp_eps': 999, 'ldp_source': LDP_ABC})}")
    note = page.locator('[data-testid="stAlert"]').filter(has_text="could not be used")
    expect(note).to_be_visible(timeout=RUN_TIMEOUT_MS)
    expect(note).to_contain_text("ldp_eps")
    expect(note).not_to_contain_text("ldp_source")  # that one was used
    wait_for_metrics(page, {"Categories k": "3",
                            LDP_P_LABEL: f"{ldp.krr_probabilities(1.0, 3)[0]:.4g}"})
    eps = thumb(page, "Privacy level ε")
    expect(eps).to_have_attribute("aria-valuetext", "1")
    assert_clean(page)

    press_until(page, eps, "End", "10")
    wait_for_metrics(page, {LDP_P_LABEL: f"{ldp.krr_probabilities(10.0, 3)[0]:.4g}"})
    assert "ldp_eps=10" in search(page), search(page)
    assert_clean(page)
    screenshot(page, "ldp-unusable-link")


def test_link_with_seed_zero_keeps_it(page, server):
    """Seed 0 is a valid seed (0 … 2³¹ − 1): a link with it opens seed 0, no note; typed
    in the box, it goes into the address, and so does the default seed typed back."""
    from playwright.sync_api import expect

    open_ldp(page, f"{server.url}/ldp?ldp_seed=0")
    seed = page.get_by_role("spinbutton", name="Seed", exact=True)
    expect(seed).to_have_value("0", timeout=5_000)
    assert page.get_by_text("could not be used").count() == 0
    assert "ldp_seed=0" in search(page), search(page)

    open_ldp(page, f"{server.url}/ldp")
    expect(seed).to_have_value("2022", timeout=5_000)
    for typed in ("0", "2022"):
        seed.fill(typed)
        seed.press("Enter")
        page.wait_for_function(f"() => window.location.search.includes('ldp_seed={typed}')",
                               timeout=RUN_TIMEOUT_MS)
        wait_idle(page)
    assert_clean(page)


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


def test_new_draw_fits_a_narrow_column(page, server):
    """At a 1,100 px wide window the k-RR page's "New draw" button (in its third column)
    and the header's "Share" and "Report" show their whole labels: the button goes below
    the seed box, and the header's buttons below the title, when the row is too narrow."""
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1100, "height": 1600})
    open_ldp(page, f"{server.url}/ldp")
    button = page.get_by_role("button", name="New draw")
    expect(button).to_be_visible()
    assert_button_fits(button, "New draw", '[data-testid="stColumn"]')
    for name in ("Share", "Report"):
        assert_button_fits(page.get_by_role("button", name=name, exact=True), name,
                           '[data-testid="stMain"]')
    seed_before = page.get_by_role("spinbutton", name="Seed", exact=True).input_value()
    button.click()
    page.wait_for_function(f"() => !window.location.search.includes('ldp_seed={seed_before}')"
                           " && window.location.search.includes('ldp_seed=')",
                           timeout=RUN_TIMEOUT_MS)
    wait_idle(page)
    assert_clean(page)


# ---------------------------------------------------------------------------
# "Random substitution"
# ---------------------------------------------------------------------------

def search(page) -> str:
    """The page's query string as the browser shows it (page.url can lag a replaceState)."""
    return page.evaluate("window.location.search")


def rs_metric(page, prefix: str):
    """The value of the metric whose label starts with ``prefix``."""
    return page.locator('[data-testid="stMetric"]').filter(has_text=prefix).locator(
        '[data-testid="stMetricValue"]')


def test_substitution_sliders_change_the_metrics(page, server):
    from playwright.sync_api import expect

    from dpcore import substitution as rs

    page.goto(f"{server.url}/substitution")
    page.get_by_role("heading", name="Random substitution").first.wait_for(timeout=LOAD_TIMEOUT_MS)
    page.get_by_text("ε_l (l = 2)").first.wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)
    expect(rs_metric(page, "ε_l (l = 2)")).to_have_text(f"{rs.extended_epsilon(50, 10, 2):.4g}")

    gamma = page.locator('[data-testid="stSlider"]').filter(
        has_text="Amplification γ").get_by_role("slider")
    expect(gamma).to_have_attribute("aria-valuetext", "10")
    slider_to_end(page, gamma, "1,000")  # the top of the γ grid
    expect(rs_metric(page, "ε_l (l = 2)")).to_have_text(
        f"{rs.extended_epsilon(50, 1000, 2):.4g}", timeout=RUN_TIMEOUT_MS)
    expect(rs_metric(page, "Keep: γx")).to_have_text(f"{1000 / 1049:.4g}")
    wait_idle(page)
    assert "rs_gamma=1%2C000" in search(page), search(page)

    # l to the top of its range, N − 1 = 49. A population (N: 2 … 86, default 10) shows
    # l clamped to 9, keeps l = 49 in the URL, and shows it again once N allows it.
    l_thumb = page.locator('[data-testid="stSlider"]').filter(
        has_text="Values per record l").get_by_role("slider")
    slider_to_end(page, l_thumb, "49")
    expect(rs_metric(page, "ε_l (l = 49)")).to_have_text(
        f"{rs.extended_epsilon(50, 1000, 49):.4g}", timeout=RUN_TIMEOUT_MS)
    wait_idle(page)
    choose(page, "Data: the records' true values", "Population 2020 by age: USA")
    expect(page.get_by_text("49 is outside 1 … 9; 9 is used")).to_be_visible(
        timeout=RUN_TIMEOUT_MS)
    wait_idle(page)
    n_thumb = page.locator('[data-testid="stSlider"]').filter(
        has_text="Categories N (age groups)").get_by_role("slider")
    expect(n_thumb).to_have_attribute("aria-valuetext", "10")
    expect(l_thumb).to_have_attribute("aria-valuetext", "9")
    assert "rs_l=49" in search(page), search(page)
    slider_to_end(page, n_thumb, "86")
    expect(l_thumb).to_have_attribute("aria-valuetext", "49", timeout=RUN_TIMEOUT_MS)
    expect(rs_metric(page, "ε_l (l = 49)")).to_have_text(
        f"{rs.extended_epsilon(86, 1000, 49):.4g}", timeout=RUN_TIMEOUT_MS)
    wait_idle(page)
    assert "rs_N=86" in search(page) and "rs_l=49" in search(page), search(page)
    # The same URL shows the same view.
    page.reload()
    page.get_by_text("ε_l (l = 49)").first.wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)
    expect(n_thumb).to_have_attribute("aria-valuetext", "86")
    expect(l_thumb).to_have_attribute("aria-valuetext", "49")
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    assert_no_traceback(page)
    screenshot(page, "substitution")


# ---------------------------------------------------------------------------
# "Privacy–utility planner"
# ---------------------------------------------------------------------------

PLAN_N_LABEL = "N needed per group"


def test_planner_alpha_slider_changes_the_n_needed(page, server):
    from playwright.sync_api import expect

    # R = B = 50: a search takes a fraction of a second.
    page.goto(f"{server.url}/planner?plan_reps=50&plan_boot=50")
    page.get_by_role("heading", name="Privacy–utility planner").first.wait_for(
        timeout=LOAD_TIMEOUT_MS)
    page.get_by_text(PLAN_N_LABEL).first.wait_for(timeout=LOAD_TIMEOUT_MS)
    wait_idle(page)
    n_needed = rs_metric(page, PLAN_N_LABEL)
    before = int(n_needed.inner_text().replace(",", ""))
    expect(rs_metric(page, "Your planned N")).to_have_text("10,000")

    thumb = page.locator('[data-testid="stSlider"]').filter(
        has_text="Privacy level α (α₁ for A)").get_by_role("slider")
    expect(thumb).to_have_attribute("aria-valuetext", "0.1")
    # Home moves α to the bottom of its grid, 0.001: Lap(2,000) noise per count.
    press_until(page, thumb, "Home", "0.001")
    deadline = time.monotonic() + RUN_TIMEOUT_MS / 1000
    while True:
        wait_idle(page)
        text = n_needed.inner_text()
        if text != f"{before:,}":
            break
        assert time.monotonic() < deadline, text
        page.wait_for_timeout(200)
    wait_idle(page)
    after = int(n_needed.inner_text().replace(",", ""))
    assert after > 10 * before, (before, after)  # stronger privacy needs far more people
    expect(page.get_by_text("At privacy level α = 0.001 for both releases")).to_be_visible()
    expect(rs_metric(page, "Your planned N")).to_have_text("10,000")
    assert "plan_alpha=0.001" in search(page), search(page)
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    assert_no_traceback(page)
    screenshot(page, "planner")
