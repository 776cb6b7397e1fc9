"""Shared helpers for the page tests (AppTest) and the browser tests (Playwright).

`routed_pages` gives the pages app.py routes to (ui.registry), so the page
smoke tests are parametrised over exactly what the app serves: a page added to
the registry is tested without touching the tests. Any test that takes an
``app_page`` argument is parametrised over these pages.
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile

import socket
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import dpviz.style
from ui import registry

# Every figure a test builds, directly or through a page, is checked by plotly property by
# property (the server builds them from their spec unchecked, for speed).
dpviz.style.VALIDATE_FIGURES = True


def _apptest_as_a_server_runs() -> None:
    """Make AppTest do once a process what a Streamlit server does once:

    - scan all installed distributions for component manifests: every new AppTest did it on
      its first run (0.1 to 0.3 s, against 0.03 s for a page run from the cache; the suite
      makes thousands of AppTests), and the installed distributions do not change during a
      run;
    - compile each script: a server's Runtime keeps one ScriptCache for all its sessions
      and reruns, AppTest made a new one on every run and compiled the page again with
      Streamlit's magic AST pass (about 40% of a page's run from the cache).

    The pages run unchanged. The private names used are pinned by
    tests/test_ui_internals.py::test_apptest_runs_as_a_server_does."""
    from streamlit.components.v2 import manifest_scanner
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    scan = manifest_scanner.scan_component_manifests
    if not hasattr(scan, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.lru_cache(maxsize=None)(scan)
    cache = ScriptCache()
    for module in (app_test, local_script_runner):
        if hasattr(module, "ScriptCache"):
            module.ScriptCache = lambda: cache


_apptest_as_a_server_runs()

# The class database of every page the tests open (AppTest here, and the servers the browser
# tests start, which inherit the environment): a SQLite file in a directory of this run,
# never the repository's .data/. A test that needs a database of its own sets
# DPCLASS_DATABASE_URL (tests/test_page_class_*.py) or takes the database_url fixture.
os.environ.setdefault("DPCLASS_DATA_DIR", tempfile.mkdtemp(prefix="dpclass-tests-"))

REPO_ROOT = Path(__file__).resolve().parents[1]
APP_PATH = REPO_ROOT / "app.py"


def routed_pages() -> list[registry.PageSpec]:
    """Every page app.py routes to (ui.registry), in menu order."""
    return list(registry.PAGES)


# The kit of the page run last in this process: AppTest runs the script in this process, so
# the page tests read what a page gave its report from here (see ``page_kits``).
LAST_KIT: list = []


@pytest.fixture(autouse=True)
def page_kits(monkeypatch):
    """Record the kit of every page that ends in this test (newest last)."""
    from ui.kit import PageKit

    original = PageKit.end

    def end(self):
        LAST_KIT.append(self)
        del LAST_KIT[:-1]
        return original(self)

    monkeypatch.setattr(PageKit, "end", end)
    LAST_KIT.clear()
    return LAST_KIT


def free_port() -> int:
    """A TCP port free on this machine now (for a Streamlit server)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(url: str) -> bool:
    """Whether the Streamlit server at ``url`` answers its health check."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
            return resp.status == 200 and resp.read().decode().strip() == "ok"
    except (urllib.error.URLError, OSError):
        return False


# The extended tier (``scripts/test.sh --all``; README, "Tests"): exhaustive sweeps and the
# per-state checks the journey tester (tests/test_journeys.py) now covers step by step, kept
# for a release check. Each entry is a test file, or a file::test name prefix, with why.
EXTENDED = {
    # every control's value against dpcore's arguments over link states: the journeys check
    # it after every step ("every control shows the value in use")
    "tests/test_values_in_use.py": "covered by the journeys",
    # the whole keyboard walk of every page, and Chromium sweeps of hostile text, cut labels
    # and values: one browser case a guarantee stays in the default tier (test_browser.py)
    "tests/test_browser_keyboard.py": "exhaustive sweep",
    "tests/test_browser_hostile.py": "exhaustive sweep",
    "tests/test_browser_values.py": "exhaustive sweep",
    "tests/test_protocol_vs_browser.py": "exhaustive sweep",
    # every page opened in Korean in Chromium: the AppTest Korean checks and the Korean
    # journeys (AppTest and Chromium) cover it
    "tests/test_browser.py::test_every_page_opens_in_korean": "covered by the journeys",
    # HAProxy in front of two servers, killed and flooded: minutes of servers and browsers
    "tests/test_replicas.py": "exhaustive sweep",
    # controls moved in Chromium against the mathematics, and presenting mode laid out in
    # Chromium: the AppTest page tests check the numbers, the journeys move every control
    # and toggle presenting mode after every kind of step
    "tests/test_browser.py::test_controls_change_the_numbers": "covered by the journeys",
    "tests/test_browser.py::test_presenting_fits_a_projector": "exhaustive sweep",
    # presenting mode read at 3 m (issue 36) on every page at two sizes: one page stays in
    # the default tier (test_presenting_reads_at_3_m)
    "tests/test_browser.py::test_presenting_reads_at_3_m_on_every_page": "exhaustive sweep",
    # nine files of every kind uploaded in Chromium one after another: the Chromium upload
    # journeys (a good file, a bad one, the good one again, across a move and a language
    # switch) and the AppTest upload tests (every kind of bad file) cover it
    "tests/test_browser.py::test_links_and_uploads[compare_histograms-uploads]":
        "covered by the journeys",
    # every chart with the first sliders at their ends and pairs of ends, in Chromium: the
    # default tier reads every chart at the defaults and on every tab
    # (test_every_page_opens_clean), and the journeys move every slider to its ends
    "tests/test_browser.py::test_charts_read_right_at_the_sliders_ends": "exhaustive sweep",
    # no table column, select box or header button cut off on any tab of any page, in both
    # languages, at 1,400 and 1,280 px (issue 36): the default tier checks one page
    "tests/test_browser_layout.py::test_nothing_is_cut_on_any_tab": "exhaustive sweep",
    "tests/test_browser_layout.py::test_nothing_is_cut_in_the_planners_frontier":
        "exhaustive sweep",
    # (and the Chromium journeys in the other language of each page, "-other]": the default
    # tier takes one language a page, English and Korean in turn)
    # every widget at the ends of its range, and no e-notation on any page: the journeys
    # draw values from each widget's whole range, its ends included, and read every text
    # for e-notation after every step
    "tests/test_hardening.py::test_every_widget_at_its_extremes": "covered by the journeys",
    "tests/test_notation.py": "covered by the journeys",
    "tests/test_page_gaussian.py::test_no_e_notation_anywhere_on_the_page":
        "covered by the journeys",
    "tests/test_page_substitution.py::test_no_e_notation_and_no_probability_rounded_to_0_or_1":
        "covered by the journeys",
    # the attacker game and the class histogram run end to end in Chromium by a teacher and
    # three phones, and presenting with a second teacher device (issue 37): the default tier
    # runs the poll end to end in Chromium, with axe and a student in Korean; the class
    # journeys (AppTest) run every activity, presenting and the second device after every
    # kind of step
    "tests/test_browser_class.py::test_attacker_game": "covered by the journeys",
    "tests/test_browser_class.py::test_histogram_budget_and_comparison":
        "covered by the journeys",
    "tests/test_browser_class.py::test_presenting_and_a_second_teacher_device":
        "covered by the journeys",
    # the wheel installed in a fresh venv: tests/test_handover.py installs the wheel the
    # Code button gives and runs every page's script with it
    "tests/test_wheel.py::test_the_wheel_installs_and_runs_in_a_fresh_venv":
        "covered by test_handover",
}


# Left out of the quick tier (``scripts/test.sh --quick``, marked ``slow``): the slowest
# tests outside the browser, each 6 to 40 s on two busy cores; the default tier runs them.
SLOW = (
    "tests/test_links_kept.py", "tests/test_dpcode.py::test_the_notebook_runs",
    "tests/test_dpcode.py::test_the_script_prints_every_number_the_page_shows",
    "tests/test_planner.py::test_progress", "tests/test_planner.py::test_frontier",
    "tests/test_planner.py::test_interval", "tests/test_page_contract.py",
    "tests/test_hardening.py::test_bad_uploads", "tests/test_hardening.py::test_compare_limits",
    "tests/test_study.py::test_same_csv", "tests/test_substitution.py::test_extended_matches_literal",
    "tests/test_api_docs.py::test_the_docs_command", "tests/test_ui_pages_fdp.py::test_every_curves",
    "tests/test_fdp.py::test_laplace_epsilon_against", "tests/test_homogeneity.py::test_normal_score_test_keeps",
    "tests/test_protocol_client.py", "tests/test_ui_i18n.py::test_every_tab_opens_in_korean",
    "tests/test_ui_i18n.py::test_every_try_this", "tests/test_uploads_fuzz.py",
    "tests/test_page_fdp.py::test_extreme_values", "tests/test_page_gaussian.py::test_extremes",
    "tests/test_page_substitution.py::test_extremes",
)


# Run first: the longest tests (the planner's journeys take 2 to 3 minutes, the others 20 s
# to 1 min). xdist hands the first tests out to its workers in turn, so these start at once
# on both cores and the rest fills in around them, instead of one long test left running
# alone at the end.
FIRST = ("tests/test_journeys.py::test_journeys[planner]",
         "tests/test_journeys.py::test_journeys[", "tests/test_handover.py::")


def pytest_collection_modifyitems(config, items):
    """Mark the tests of the extended tier (EXTENDED) ``extended``, and those left out of
    the quick tier (SLOW) ``slow``; put the longest (FIRST) first."""
    def rank(item) -> int:
        return next((i for i, prefix in enumerate(FIRST) if item.nodeid.startswith(prefix)),
                    len(FIRST))

    items.sort(key=rank)  # (stable: the rest keeps its order)
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
        if any(item.nodeid == key or item.nodeid.startswith(key if "::" in key else key + "::")
               for key in EXTENDED) or (
                item.nodeid.startswith("tests/test_browser_journeys.py::")
                and item.nodeid.endswith("-other]")):
            item.add_marker(pytest.mark.extended)


def pytest_configure(config):
    config._journeys_since = __import__("time").time()


def pytest_terminal_summary(terminalreporter, config):
    """The journey tester's counts of this run, page by page (tests/test_journeys.py writes
    them to test-artifacts/journeys/: its workers' output does not reach this terminal)."""
    import json

    folder = REPO_ROOT / "test-artifacts" / "journeys"
    since = getattr(config, "_journeys_since", 0)
    found = sorted(f for f in folder.glob("*.json") if f.stat().st_mtime >= since) \
        if folder.is_dir() else []
    if not found:
        return
    terminalreporter.section("journeys: steps and checks per page")
    for f in found:
        run = json.loads(f.read_text(encoding="utf-8"))
        counts = ", ".join(f"{k} {v}" for k, v in sorted(run["counts"].items()))
        terminalreporter.write_line(
            f"{f.stem}: {run['steps']} steps in {run['seconds']} s: {counts}")


def pytest_generate_tests(metafunc):
    if "app_page" in metafunc.fixturenames:
        pages = routed_pages()
        metafunc.parametrize("app_page", pages, ids=[p.script for p in pages])


def assert_clean(at) -> None:
    """No uncaught exception, and no error text that looks like a traceback."""
    assert not at.exception, "\n\n".join(
        f"{e.message}\n{''.join(e.stack_trace)}" for e in at.exception
    )
    for e in at.error:
        assert "Traceback" not in e.value and 'File "' not in e.value, e.value


def open_page(page: str, title: str | None, query: dict[str, str] | None = None, *,
              timeout: float = 60):
    """An AppTest of the routed app switched to ``page`` after a fresh start.

    ``query`` is the URL's query string on arrival; the page's title is checked unless
    ``title`` is None. ``timeout`` is the AppTest's time limit for each run, in seconds.
    """
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP_PATH), default_timeout=timeout)
    run(at)
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at.switch_page(page)
    run(at)
    if title is not None:
        assert at.title[0].value == title
    return at


def upload_file(at, prefix: str, data: bytes, kind: str):
    """Choose the upload source of a page whose widget keys start with ``prefix``, pick
    the file kind and upload ``data`` as data.csv; returns the AppTest after the run."""
    at.selectbox(key=f"{prefix}_source").set_value("upload")
    run(at)
    assert any("Upload a CSV file" in i.value for i in at.info)
    at.radio(key=f"{prefix}_file_kind").set_value(kind)
    at.file_uploader(key=f"{prefix}_file").set_value(("data.csv", data, "text/csv"))
    return run(at)


def run(at):
    """Run an AppTest and check it is clean."""
    at.run()
    assert_clean(at)
    return at


class DeferredDownloads(dict):
    """The files of download buttons whose data is deferred (the page kit's exports and
    report are made on a click): file name -> the callable registered last for it;
    ``every[file name]``: all the callables registered for it, in the order registered."""

    def __init__(self):
        super().__init__()
        self.every: dict[str, list] = {}

    def add(self, file_name: str | None, data_callable) -> None:
        self[file_name] = data_callable
        self.every.setdefault(file_name, []).append(data_callable)


@pytest.fixture
def deferred(monkeypatch) -> DeferredDownloads:
    """The callables registered by download buttons whose data is deferred, by file name
    (see DeferredDownloads)."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    found = DeferredDownloads()
    original = MediaFileManager.add_deferred

    def spy(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        found.add(file_name, data_callable)
        return original(self, data_callable, mimetype, coordinates, file_name=file_name,
                        **kwargs)

    monkeypatch.setattr(MediaFileManager, "add_deferred", spy)
    return found


# A pinned machine speed, about this machine's with both cores busy (measured: 0.98e-7 s
# per drawn bin): whether a large request is refused, and what its message says, do not
# depend on how fast, or how busy, the test machine is.
SECONDS_PER_UNIT = 1e-7


@pytest.fixture
def fixed_machine_speed(monkeypatch):
    """Fix the pages' machine speed (an st.cache_resource over
    ``simulation.seconds_per_unit``) at SECONDS_PER_UNIT; clear the cached one before and
    after. Pages that estimate run times use it for every test:
    ``pytestmark = pytest.mark.usefixtures("fixed_machine_speed")``."""
    import streamlit as st

    from dpcore import simulation

    monkeypatch.setattr(simulation, "seconds_per_unit", lambda **_: SECONDS_PER_UNIT)
    st.cache_resource.clear()
    yield
    st.cache_resource.clear()


@pytest.fixture(autouse=True)
def error_details():
    """Show exceptions with their message and stack (.streamlit/config.toml hides them)."""
    from streamlit import config

    old = config.get_option("client.showErrorDetails")
    config.set_option("client.showErrorDetails", "full")
    yield
    config.set_option("client.showErrorDetails", old)


# Widgets that must carry a help tooltip (checked by the page tests through without_help).
HELP_KINDS = ("slider", "select_slider", "radio", "toggle", "number_input", "selectbox",
              "button_group", "button", "download_button", "page_link", "file_uploader",
              "checkbox", "text_input", "multiselect")

def without_help(node, seen: list[str]) -> list[str]:
    """The controls (and popovers) under ``node`` without a help tooltip; ``seen``
    collects every one checked."""
    missing = []
    kind = getattr(node, "type", None)
    if kind in HELP_KINDS:
        name = f"{kind} {getattr(node, 'key', None) or node.proto.label}"
        seen.append(name)
        if not node.proto.help.strip():
            missing.append(name)
    elif kind == "popover":
        seen.append(f"popover {node.proto.popover.label}")
        if not node.proto.popover.help.strip():
            missing.append(f"popover {node.proto.popover.label}")
    for child in getattr(node, "children", {}).values():
        missing += without_help(child, seen)
    return missing


class ProgressLog:
    """A dpcore progress callback, ``progress(fraction, label)``, that keeps its calls."""

    def __init__(self):
        self.calls: list[tuple[float, str]] = []

    def __call__(self, fraction: float, label: str) -> None:
        self.calls.append((fraction, label))

    @property
    def fractions(self) -> list[float]:
        return [f for f, _ in self.calls]

    @property
    def labels(self) -> list[str]:
        return [text for _, text in self.calls]

    def check(self) -> None:
        """(float, str) calls, fractions in [0, 1], non-decreasing and ending at 1.0."""
        assert self.calls, "no progress reported"
        assert all(isinstance(f, float) and isinstance(t, str) for f, t in self.calls), self.calls
        assert all(0.0 <= f <= 1.0 for f in self.fractions), self.fractions
        assert self.fractions == sorted(self.fractions), self.fractions
        assert self.fractions[-1] == 1.0, self.fractions


@pytest.fixture
def progress_log() -> ProgressLog:
    return ProgressLog()


@contextlib.contextmanager
def thread_speaking(code: str):
    """AppTest writes the widgets' values back with their format functions in the test's
    own thread: it must speak the page's language to write a Korean page's options."""
    from ui import text

    token = text._LANGUAGE.set(code)
    try:
        yield
    finally:
        text._LANGUAGE.reset(token)


# --- PostgreSQL: the class database's tests (issue 37; tests/pgkit.py) --------------------------

@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory):
    """The URL (postgresql+psycopg://…/dpclass) of a real PostgreSQL server of this pytest
    process (one per xdist worker), started with ``scripts/postgres.sh start DIR --fast`` in
    a temporary directory, deleted at the end of the session. Cannot start: the tests that
    use it skip, with the reason; on CI (CI set) they fail. ``pgkit.restart(url)`` and
    ``with pgkit.down(url):`` make it go away and come back."""
    import pgkit

    try:
        server = pgkit.start(tmp_path_factory.mktemp("postgres"))
    except pgkit.Unavailable as exc:
        pgkit.unavailable(f"no PostgreSQL server for the class database tests: {exc}")
    yield server.url
    pgkit.delete(server)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """A fresh, empty database for each test, with each backend: ``sqlite``, a file in the
    test's tmp_path; ``postgresql``, a new database on the ``postgres_url`` server (CREATE
    DATABASE), dropped after the test (skips as that fixture does)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'class.db'}"
        return
    import pgkit

    url = pgkit.create_database(request.getfixturevalue("postgres_url"))
    yield url
    pgkit.drop_database(url)
