"""Real-browser tests: `streamlit run app.py` driven by Chromium through Playwright.

Debian's /usr/bin/chromium is used (never `playwright install`). Without it the
tests skip, except on CI (CI=true), where they fail: CI must run them.
A screenshot of the page goes to test-artifacts/compare_histograms.png.
"""

from __future__ import annotations

import contextlib

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import REPO_ROOT, routed_pages

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
VIEWPORT = {"width": 1400, "height": 2600}
ARTIFACTS = REPO_ROOT / "test-artifacts"
STARTUP_TIMEOUT = 60.0
RUN_TIMEOUT_MS = 30_000  # one script rerun, bootstrap included

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


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
            return resp.status == 200 and resp.read().decode().strip() == "ok"
    except (urllib.error.URLError, OSError):
        return False


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
    port = _free_port()
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
        if _healthy(url) and proc.poll() is None and "is not available" not in server.log():
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
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(RUN_TIMEOUT_MS)
    pg = context.new_page()
    pg.page_errors = []  # uncaught JavaScript errors in the page
    pg.on("pageerror", lambda exc: pg.page_errors.append(str(exc)))
    log_start = len(server.log())
    try:
        yield pg
    finally:
        context.close()
    new_log = server.log()[log_start:]
    assert "Traceback" not in new_log, f"the server logged an exception:\n{new_log}"


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def wait_idle(page) -> None:
    """Wait until the app is connected and no script run is in progress."""
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


def open_app(page, server, path: str = "") -> None:
    page.goto(f"{server.url}/{path}")
    page.locator('[data-testid="stMain"]').wait_for()
    page.get_by_text(BOOT_LABEL).first.wait_for(timeout=60_000)
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
    from playwright.sync_api import expect

    for _ in range(3):
        thumb.focus()
        page.keyboard.press("End")
        try:
            expect(thumb).to_have_attribute("aria-valuetext", top, timeout=3_000)
            break
        except AssertionError:
            continue
    expect(thumb).to_have_attribute("aria-valuetext", top)


def assert_no_traceback(page) -> None:
    body = page.locator("body").inner_text()
    assert "Traceback" not in body, body
    assert page.locator('[data-testid="stException"]').count() == 0, body
    assert not page.page_errors, page.page_errors


def choose(page, selectbox_label: str, option: str) -> None:
    """Pick an option of a Streamlit selectbox: click it, then click the option."""
    from playwright.sync_api import expect

    page.locator('[data-testid="stSelectbox"]').filter(has_text=selectbox_label).click()
    page.get_by_role("option", name=option, exact=True).click()
    expect(page.get_by_role("combobox", name=selectbox_label)).to_have_value(option)


# ---------------------------------------------------------------------------
# tests
# ---------------------------------------------------------------------------

def test_every_page_loads(page, server, app_page):
    page.goto(f"{server.url}/{app_page.url_path}")
    page.locator('[data-testid="stMain"]').wait_for()
    if app_page.title:
        page.get_by_role("heading", name=app_page.title).first.wait_for(timeout=60_000)
    wait_idle(page)
    assert_no_traceback(page)
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0


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

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "compare_histograms.png"), full_page=True)


def test_degenerate_case_from_url_shows_plain_error(page, server):
    """Deep link: two uniform bins, N = 1,000, α = 0.001, seed 0 gives N̂ = 0."""
    from playwright.sync_api import expect

    query = ("?cmp_a=Shape%3A+Uniform&cmp_b=Shape%3A+Uniform&cmp_m=2&cmp_n=1%2C000"
             "&cmp_alpha_a=0.001&cmp_alpha_b=0.001&cmp_seed=0")
    page.goto(f"{server.url}/{query}")
    error = page.locator('[data-testid="stAlertContentError"]')
    expect(error).to_contain_text("The bootstrap test cannot be run", timeout=60_000)
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

    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(RUN_TIMEOUT_MS)
    page = context.new_page()
    page.page_errors = []
    page.on("pageerror", lambda exc: page.page_errors.append(str(exc)))
    try:
        page.goto(f"{fresh_server.url}/test_calibration")
        page.get_by_role("heading", name="Test calibration").first.wait_for(timeout=60_000)
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
        seed = form.get_by_label("Seed")
        seed.fill("7")
        seed.press("Tab")
        form.get_by_role("button", name="Run simulation").click()
        expect(page.get_by_text("seed 7. The rate is the type-I error.")).to_be_visible(
            timeout=60_000)
        wait_idle(page)
        expect(page.locator('[data-testid="stProgress"]')).to_have_count(0)
        live = page.locator('[data-testid="stTabPanel"]:visible')
        expect(live.locator('[data-testid="stPlotlyChart"]')).to_have_count(1)
        expect(live.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
        expect(page.get_by_text("The settings above have changed")).to_have_count(0)
        assert_no_traceback(page)
        assert page.locator('[data-testid="stAlertContentError"]').count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "test_calibration.png"), full_page=True)
    finally:
        context.close()


# ---------------------------------------------------------------------------
# "Gaussian mechanism"
# ---------------------------------------------------------------------------

GAUSS_SIGMA_LABEL = "σ (solved)"


def open_gaussian(page, server, query: str = "") -> None:
    page.goto(f"{server.url}/gaussian{query}")
    page.get_by_role("heading", name="Gaussian mechanism").first.wait_for(timeout=60_000)
    page.get_by_text(GAUSS_SIGMA_LABEL).first.wait_for(timeout=60_000)
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
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "gaussian.png"), full_page=True)


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
    page.get_by_role("heading", name="f-DP and Gaussian DP").first.wait_for(timeout=60_000)
    wait_idle(page)
    assert "fdp_g_mu=0.4" in page.url, page.url
    slider = page.locator('[data-testid="stSlider"]').filter(has_text="μ of G_μ")
    expect(slider.get_by_role("slider")).to_have_attribute("aria-valuetext", f"{linked:.2f}")
    assert_no_traceback(page)


# ---------------------------------------------------------------------------
# "Randomized response (local DP)"
# ---------------------------------------------------------------------------

LDP_P_LABEL = "p: tell the truth"


def test_ldp_eps_slider_changes_p(page, server):
    from playwright.sync_api import expect

    from dpcore import ldp

    page.goto(f"{server.url}/ldp")
    page.get_by_role("heading", name="Randomized response (local DP)").first.wait_for(
        timeout=60_000)
    page.get_by_text(LDP_P_LABEL).first.wait_for(timeout=60_000)
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
    expect(p_value).to_have_text(f"{p_10:.4g}", timeout=RUN_TIMEOUT_MS)
    wait_idle(page)
    metrics = read_metrics(page)
    assert metrics["q: tell a given lie"] == f"{q_10:.4g}", metrics
    assert "ldp_eps=10" in page.url
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    assert_no_traceback(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ldp.png"), full_page=True)


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
    page.get_by_role("heading", name="Random substitution").first.wait_for(timeout=60_000)
    page.get_by_text("ε_l (l = 2)").first.wait_for(timeout=60_000)
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
    page.get_by_text("ε_l (l = 49)").first.wait_for(timeout=60_000)
    wait_idle(page)
    expect(n_thumb).to_have_attribute("aria-valuetext", "86")
    expect(l_thumb).to_have_attribute("aria-valuetext", "49")
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    assert_no_traceback(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "substitution.png"), full_page=True)


# ---------------------------------------------------------------------------
# "Privacy–utility planner"
# ---------------------------------------------------------------------------

PLAN_N_LABEL = "N needed per group"


def test_planner_alpha_slider_changes_the_n_needed(page, server):
    from playwright.sync_api import expect

    # R = B = 50: a search takes a fraction of a second.
    page.goto(f"{server.url}/planner?plan_reps=50&plan_boot=50")
    page.get_by_role("heading", name="Privacy–utility planner").first.wait_for(timeout=60_000)
    page.get_by_text(PLAN_N_LABEL).first.wait_for(timeout=60_000)
    wait_idle(page)
    n_needed = rs_metric(page, PLAN_N_LABEL)
    before = int(n_needed.inner_text().replace(",", ""))
    expect(rs_metric(page, "Your planned N")).to_have_text("10,000")

    thumb = page.locator('[data-testid="stSlider"]').filter(
        has_text="Privacy level α (α₁ for A)").get_by_role("slider")
    expect(thumb).to_have_attribute("aria-valuetext", "0.1")
    # Home moves α to the bottom of its grid, 0.001: Lap(2,000) noise per count.
    for _ in range(3):
        thumb.focus()
        page.keyboard.press("Home")
        try:
            expect(thumb).to_have_attribute("aria-valuetext", "0.001", timeout=3_000)
            break
        except AssertionError:
            continue
    expect(thumb).to_have_attribute("aria-valuetext", "0.001")
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
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "planner.png"), full_page=True)
