"""Hardening: bad input on every page, widgets at their extremes, resource limits.

The issue's bad-input matrix, with AppTest through app.py (as a user reaches the pages):

1. every slider, select slider, number input, radio, select box, segmented control and
   multiselect of every page (every tab) at its smallest and its largest value; the page
   must stay clean (no exception, no traceback text) and still show its title and a result;
2. the named extreme parameters (ε = 50, δ = 1e-12, γ close to 1, l = N − 1, N = 1
   category, k = 1 category, α at both ends);
3. bad uploads on every page that takes one: a plain error (or warning) in words, the
   controls still there, and the page usable again in the same session;
4. resource safety: bounded caches, no unsafe HTML, the server's upload and XSRF settings,
   and every simulation cap refusing (or reducing) a request with an estimate of its time.

The widgets are found at run time (data-driven): a widget added to a page is covered
without touching this file. Option widgets are set by their displayed option (select
sliders and multiselects: the first and the last; radios, select boxes and segmented
controls: each option in turn, with the widgets that option brings), so no knowledge of
the values behind a format_func is needed. Pages that simulate on every run (the planner,
the test calibration) move all their widgets to the minimum together, then to the maximum.

Time (the whole suite must stay well under 15 minutes on 2 cores): each page and app.py
are compiled once per test process, as a server does (AppTest recompiled them on every
run); sessions open straight on the page and tab under test, from the URL; one session
goes through many settings (every bad file of a page, the four Gaussian solves); a bad
file that leaves nothing behind is followed by the next one before the good file. The
dpcore fixes these tests prompted have their unit tests in tests/test_gaussian.py.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest

from browserkit import number
from conftest import APP_PATH, REPO_ROOT, assert_clean, routed_pages
from pagekit import widget_keys
from shown import as_read
from test_page_contract import CONTRACTS
from ui import links, registry
from dpcore import simulation, uploads

PAGES = {p.script: p.title for p in routed_pages()}
SECONDS_PER_UNIT = 1e-7  # a pinned machine speed: the caps' messages do not depend on load

# Pages whose open tab is bound to a session-state key (only that tab runs): the page
# contract's table names it (a page may build its tabs from a constant, e.g. a link
# target's LdpParams.TAB, so its source need not spell the key out).
TAB_KEYS = {c.page.script: c.tab_key for c in CONTRACTS if c.tab_key}
# Cheap settings first on pages that simulate on every run (a search, a live run).
CHEAP_QUERY = {
    "views/planner.py": {"plan_reps": "50", "plan_boot": "50"},
}
# Pages whose widgets are moved all together (first all to the minimum, then all to the
# maximum) instead of one at a time: each of their runs simulates.
TOGETHER = {"views/planner.py", "views/calibration.py"}
# Buttons are not clicked by the generic test, except form submit buttons with every
# setting at its minimum (the cheapest run); these long runs never are (their caps are
# tested below).
NOT_CLICKED = {"plan_fr_run", "rs_grid_run"}
# Simulate buttons that stop the whole page until pressed (kit.requested): pressed after
# every change, as a user would, so that the page's later widgets stay to be tested.
PRESSED = {"cmp_run"}

TRACEBACK = ("Traceback", 'File "', "Error:", "Exception:")


@pytest.fixture(autouse=True)
def fixed_machine_speed(monkeypatch):
    monkeypatch.setattr(simulation, "seconds_per_unit", lambda **_: SECONDS_PER_UNIT)
    st.cache_resource.clear()
    yield
    st.cache_resource.clear()


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def texts(at: AppTest) -> list[str]:
    """Every text the page shows to a reader (messages, markdown, captions, metrics)."""
    out = []
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "exception",
                 "code", "text", "title", "header", "subheader"):
        out += [str(e.value) for e in getattr(at, kind)]
    for m in at.metric:
        out += [str(m.label), str(m.value)]
    return out


def assert_page_ok(at: AppTest, title: str) -> None:
    """Clean (no exception, no traceback text), the title and some result are shown."""
    assert_clean(at)
    for text in texts(at):
        for marker in TRACEBACK[:2]:
            assert marker not in text, text
    for text in messages(at):  # st.error / st.warning: no exception names either
        assert not re.search(r"\b[A-Z]\w*(Error|Exception)\b", text), text
    assert at.title and at.title[0].value == title, [t.value for t in at.title]
    shown = len(at.metric) + len(at.get("plotly_chart")) + len(at.markdown) + len(at.dataframe)
    assert shown, "the page shows no result"


def errors(at: AppTest) -> list[str]:
    return [as_read(e.value) for e in at.error]


def messages(at: AppTest) -> list[str]:
    """The page's errors and warnings as a reader reads them."""
    return [as_read(e.value) for e in (*at.error, *at.warning)]


def assert_plain(message: str) -> None:
    """A message in words: no traceback, no Python exception names, some words."""
    for marker in TRACEBACK:
        assert marker not in message, message
    assert not re.search(r"\b\w+Error\b", message), message
    assert len(re.findall(r"[A-Za-z]{3,}", message)) >= 4, message


_CHOSEN = object()
_RAW_CLASSES: dict[type, type] = {}


def choose(w, chosen: list[str]):
    """Set an option widget to options shown as ``chosen`` (their displayed text).

    AppTest's ``set_value`` takes the value behind an option and formats it; a page's
    format_func is not invertible in general, so this sends the displayed options as the
    browser does (the widget state holds the formatted option).
    """
    base = type(w)
    if base not in _RAW_CLASSES:
        array = w.type in ("select_slider", "multiselect", "button_group")

        def _widget_state(self, base=base, array=array):
            if self._value is not _CHOSEN:
                return base._widget_state.fget(self)
            ws = WidgetState()
            ws.id = self.id
            if array:
                ws.string_array_value.data[:] = self._chosen
            else:
                ws.string_value = self._chosen[0]
            return ws

        _RAW_CLASSES[base] = type(f"Raw{base.__name__}", (base,),
                                  {"_widget_state": property(_widget_state)})
    w._assert_can_interact()
    w.__class__ = _RAW_CLASSES[base]
    w._chosen = list(chosen)
    w._value = _CHOSEN
    return w


def widget_of(at: AppTest, kind: str, key: str):
    found = [w for w in getattr(at, kind) if w.key == key]
    return found[0] if found else None


def extremes(w) -> list:
    """[(what, setter)] for the smallest and the largest value of a widget."""
    kind = w.type
    if kind in ("slider", "number_input"):
        lo, hi = w.min, w.max
        if lo is None or hi is None:
            return []
        value = w.value
        ints = isinstance(value, (int, np.integer)) or (
            isinstance(value, (tuple, list)) and isinstance(value[0], (int, np.integer)))
        if ints:
            lo, hi = int(lo), int(hi)
        if isinstance(value, (tuple, list)):  # a range: both ends at one end
            return [("min", lambda w: w.set_value((lo, lo))),
                    ("max", lambda w: w.set_value((hi, hi)))]
        return [("min", lambda w: w.set_value(lo)), ("max", lambda w: w.set_value(hi))]
    options = list(w.options)
    if not options:
        return []
    if kind == "multiselect":
        return [("min", lambda w: choose(w, options[:1])), ("max", lambda w: choose(w, options))]
    if kind == "select_slider" and isinstance(w.value, (tuple, list)):
        return [("min", lambda w: choose(w, [options[0]] * 2)),
                ("max", lambda w: choose(w, [options[-1]] * 2)),
                ("full", lambda w: choose(w, [options[0], options[-1]]))]
    return [("min", lambda w: choose(w, options[:1])), ("max", lambda w: choose(w, options[-1:]))]


def restorer(w):
    """A setter that puts the widget back to its current value."""
    kind = w.type
    if kind in ("slider", "number_input"):
        value = w.value
        return lambda w: w.set_value(value)
    if kind == "select_slider":
        value = w.value
        shown = [w.format_func(v) for v in value] if isinstance(value, (tuple, list)) \
            else [w.format_func(value)]
        return lambda w: choose(w, shown)
    if kind == "multiselect":
        shown = [w.format_func(v) for v in w.value]
        return lambda w: choose(w, shown)
    if kind == "button_group":
        return lambda w: choose(w, list(w.formatted_values)) if w.formatted_values else None
    index = w.index
    if index is None:
        return lambda w: None
    shown = w.options[index]
    return lambda w: choose(w, [shown])


KINDS = ("slider", "select_slider", "number_input", "radio", "selectbox", "button_group",
         "multiselect")


def enabled_widgets(at: AppTest) -> list[tuple[str, str]]:
    """(kind, key) of every enabled widget with a key of the page, in page order (not the
    sidebar's language control: the pages in Korean are tests/test_ui_i18n.py's)."""
    out = []
    for kind in KINDS:
        for w in at.main.get(kind):
            if w.key and not getattr(w.proto, "disabled", False):
                out.append((kind, w.key))
    return out


def switch_everything_on(at: AppTest, title: str) -> AppTest:
    """Every toggle and checkbox on (it enables the widgets they grey out)."""
    changed = False
    for w in (*at.toggle, *at.checkbox):
        if w.key and not w.value and not getattr(w.proto, "disabled", False):
            w.set_value(True)
            changed = True
    if changed:
        at.run()
        assert_page_ok(at, title)
    return at


def tabs_of(at: AppTest) -> list[str]:
    return [t.label for t in at.tabs]


def open_tab(at: AppTest, path: str, label: str) -> AppTest:
    if path in TAB_KEYS:
        key = TAB_KEYS[path]
        at.session_state[key] = label
        if key in at.query_params:  # a tab given in the URL on arrival: the URL follows
            at.query_params[key] = label
        at.run()
    return at


def start(path: str, query: dict[str, str] | None = None) -> AppTest:
    """A new session arriving at ``path`` with ``query`` in its URL, as a link opens it.

    The static home page runs first (it holds no state): AppTest finds a page with a URL
    path of its own (the calibration page's) only after a first run. A tab key in ``query``
    opens that tab on arrival."""
    at = AppTest.from_file(str(APP_PATH), default_timeout=60)
    if path != registry.HOME.script:
        at.run()
    for key, value in {**CHEAP_QUERY.get(path, {}), **(query or {})}.items():
        at.query_params[key] = value
    at.switch_page(path)
    at.run()
    assert_clean(at)
    assert at.title and at.title[0].value == PAGES[path], [t.value for t in at.title]
    return at


# ---------------------------------------------------------------------------
# 1. every widget at its extremes, on every page
# ---------------------------------------------------------------------------

def run_requested(at: AppTest) -> None:
    """Run the page, and again with its Simulate button pressed if it asks for one."""
    at.run()
    for b in at.button:
        if b.key in PRESSED:
            b.click()
            at.run()
            return


def _click_submits(at: AppTest) -> None:
    """Click the form submit buttons (the test calibration's 'Run simulation')."""
    for b in at.button:
        if b.key not in NOT_CLICKED and getattr(b.proto, "is_form_submitter", False):
            b.click()


OPTION_KINDS = ("radio", "selectbox", "button_group")
MAX_OPTIONS = 12  # options tried per radio / select box (all of them on every page today)


def _explore(at: AppTest, path: str, tab: str | None, done: set, depth: int = 0) -> int:
    """Every widget not tested yet at its minimum, then its maximum, then back.

    A radio, select box or segmented control goes through each of its options instead,
    and the widgets an option brings (a source's own sliders, an upload's controls) are
    explored under it, once each.
    """
    title = PAGES[path]
    count = 0
    for kind, key in enabled_widgets(at):
        if key in done:
            continue
        done.add(key)
        w = widget_of(at, kind, key)
        back = restorer(w)
        settings = ([(f"option {o!r}", lambda w, o=o: choose(w, [o]))
                     for o in w.options[:MAX_OPTIONS]] if kind in OPTION_KINDS
                    else extremes(w))
        for what, setter in settings:
            w = widget_of(at, kind, key)
            if w is None or getattr(w.proto, "disabled", False):
                break
            setter(w)
            run_requested(at)
            try:
                assert_page_ok(at, title)
            except AssertionError as exc:
                raise AssertionError(f"{path}, tab {tab!r}: {key} at its {what}: {exc}") from exc
            count += 1
            if kind in OPTION_KINDS and depth < 3:
                count += _explore(at, path, tab, done, depth + 1)
        w = widget_of(at, kind, key)
        if w is not None and not getattr(w.proto, "disabled", False):
            back(w)
    return count


def _all_together(at: AppTest, path: str, which: str) -> int:
    """Every widget of the open tab at its minimum (or maximum) at once.

    Forms are submitted at the minimum only: the largest settings of a form are a long
    run, or one refused by its cap (tested below, with its message)."""
    title = PAGES[path]
    count, done = 0, set()
    while True:  # widgets shown only after a change get their turn in another run
        todo = [(kind, key) for kind, key in enabled_widgets(at) if key not in done]
        if not todo:
            return count
        for kind, key in todo:
            done.add(key)
            w = widget_of(at, kind, key)
            setters = dict(extremes(w))
            if which in setters:
                setters[which](w)
                count += 1
        if which == "min":
            _click_submits(at)
        run_requested(at)
        try:
            assert_page_ok(at, title)
        except AssertionError as exc:
            raise AssertionError(f"{path}: every widget at its {which}: {exc}") from exc


@pytest.mark.parametrize("path", list(PAGES))
def test_every_widget_at_its_extremes(path):
    """Each tab in a new session opened on it (its URL); there every widget at its ends,
    one at a time, then all at their minimum, then all at their maximum."""
    at = start(path)
    title = PAGES[path]
    assert_page_ok(at, title)
    labels = tabs_of(at) if path in TAB_KEYS else [None]
    done: set = set()
    changed = found = 0
    for i, tab in enumerate(labels):
        if i:  # a new session on the next tab, at the page's cheap settings
            at = start(path, {TAB_KEYS[path]: tab})
        elif tab is not None and at.session_state[TAB_KEYS[path]] != tab:
            open_tab(at, path, tab)
        if tab is not None:
            assert at.session_state[TAB_KEYS[path]] == tab
        assert_page_ok(at, title)
        switch_everything_on(at, title)
        found += len(enabled_widgets(at))
        if path not in TOGETHER:
            changed += _explore(at, path, tab, done)
        # Then every widget of the tab at its minimum at once, and at its maximum: the
        # ends combined (ε = 0 with δ = 10⁻³⁰⁰, N = 50M with B = 10,000, …).
        for which in ("min", "max"):
            changed += _all_together(at, path, which)
    assert changed > 0 or not found  # a page without widgets (the home page) just renders


# ---------------------------------------------------------------------------
# 2. the named extreme parameters
# ---------------------------------------------------------------------------

def each_tab(at: AppTest, path: str):
    """Every tab of the page in turn, the open one first (it has just run, so it is not run
    again), then the others; the page must stay clean on each."""
    labels = tabs_of(at)
    key = TAB_KEYS[path]
    first = at.session_state[key] if key in at.session_state else labels[0]
    for label in [first, *(t for t in labels if t != first)]:
        if label != first:
            open_tab(at, path, label)
        assert at.session_state[key] == label
        assert_page_ok(at, PAGES[path])
        yield label


def option(w, shown: str):
    """Choose the option displayed as ``shown`` (it must be one of the widget's)."""
    assert shown in w.options, (w.key, shown, w.options)
    return choose(w, [shown])


GAUSS = "views/gaussian.py"


SYMBOLS = {"eps": "ε", "delta": "δ", "sigma": "σ", "sensitivity": "Δ"}  # URL values


def test_gaussian_eps_50_and_delta_1e_12():
    """ε = 50 and δ = 10⁻¹² (the ends of the page's grids), solving for each quantity in
    turn in one session (σ first, from the URL; then ε, δ and Δ on the control), every tab
    at each. The three given values stay, so each solve gives back the same set, to the six
    significant digits a box shows: a solved value becomes a given one as its box shows it
    (σ = 0.19071), so the next solve may move in the sixth digit (ε = 50.0001)."""
    at = start(GAUSS, {"gauss_eps": "50", "gauss_delta": "1e-12", "gauss_solve": "σ"})
    first = None
    for solve in ("sigma", "eps", "delta", "sensitivity"):
        if solve != "sigma":
            option(at.button_group(key="gauss_solve"), SYMBOLS[solve])
            at.run()
        assert_page_ok(at, PAGES[GAUSS])
        shown = {m.label: m.value for m in at.metric}
        assert f"{SYMBOLS[solve]} (solved)" in shown, shown
        assert not errors(at), errors(at)
        values = {name: shown.get(sym, shown.get(f"{sym} (solved)"))
                  for name, sym in SYMBOLS.items()}
        numbers = {name: number(text) for name, text in values.items()}
        assert numbers["eps"] == pytest.approx(50, rel=5e-6), values
        assert numbers["delta"] == pytest.approx(1e-12, rel=5e-6), values
        first = first or numbers
        assert numbers == pytest.approx(first, rel=5e-6), (solve, values, first)
        for _ in each_tab(at, GAUSS):
            for e in errors(at):
                assert_plain(e)


@pytest.mark.parametrize("query", [
    {"gauss_solve": "ε", "gauss_delta": "0.999", "gauss_sigma": "1e9", "gauss_sens": "1e-6"},
    {"gauss_solve": "ε", "gauss_delta": "1e-300", "gauss_sigma": "1e-6", "gauss_sens": "1e9"},
    {"gauss_solve": "δ", "gauss_eps": "0", "gauss_sigma": "1e-6", "gauss_sens": "1e9"},
    {"gauss_solve": "σ", "gauss_eps": "0", "gauss_delta": "1e-300"},
    {"gauss_solve": "σ", "gauss_eps": "0", "gauss_delta": "1e-300", "gauss_sens": "1e9"},
    {"gauss_solve": "Δ", "gauss_eps": "10000", "gauss_delta": "0.999", "gauss_sigma": "1e9"},
], ids=["eps-no-room", "eps-huge", "delta-eps0", "sigma-huge", "sigma-overflow", "sens-huge"])
def test_gaussian_typed_extremes(query, request):
    """The number boxes' ends, typed: a solution, or a plain error; every tab still works.

    Found here: σ = 4·10²⁹⁹ (ε = 0, δ = 10⁻³⁰⁰) drew no privacy-loss density (its variance
    underflows) and overflowed the release demo's RMSE; with Δ = 10⁹ the solved σ was
    infinite and the page stopped with an exception."""
    case = request.node.callspec.id
    at = start(GAUSS, query)
    assert_page_ok(at, PAGES[GAUSS])
    assert f"{query['gauss_solve']} (solved)" in {m.label for m in at.metric} or errors(at)
    if case == "sigma-overflow":  # σ = Δ/μ = 10⁹/(2.5·10⁻³⁰⁰) is beyond floats: said so
        [msg] = errors(at)
        assert msg.startswith("No σ fits these values") and "The σ needed at μ = " in msg \
            and "beyond the range of floating-point numbers" in msg, msg
    for tab in each_tab(at, GAUSS):
        for e in errors(at):
            assert_plain(e)
        if case == "sigma-huge" and tab == "Privacy loss":  # μ² underflows: said, no chart
            assert any("the privacy loss is 0 to machine precision" in i.value
                       for i in at.info), [i.value for i in at.info]
            # no chart but the one of what μ means for one person (ui/oneperson.py)
            assert [c.key for c in at.get("plotly_chart")] == ["gauss_op_side_by_side"]
        if tab == "Release a statistic" and widget_of(at, "radio", "gauss_query"):
            for shown in at.radio(key="gauss_query").options:
                choose(at.radio(key="gauss_query"), [shown])
                at.run()
                assert_page_ok(at, PAGES[GAUSS])
                if case == "sigma-huge" and shown in ("a count", "a sum of clipped values"):
                    [rmse] = [m for m in at.metric if m.label.startswith("RMSE")]
                    assert "inf" not in rmse.value + str(rmse.proto.delta), rmse.proto


FDP = "views/fdp.py"


def test_fdp_eps_50_and_delta_1e_12_everywhere():
    at = start(FDP, {"fdp_tab": "Trade-off curves", "fdp_target": "f_ε*,δ*"})
    assert_page_ok(at, PAGES[FDP])
    switch_everything_on(at, PAGES[FDP])
    for key, shown in (("fdp_ed_eps", "50"), ("fdp_ed_delta", "10⁻¹²"),
                       ("fdp_target_eps", "50"), ("fdp_target_delta", "10⁻¹²"),
                       ("fdp_table_delta", "10⁻¹²"), ("fdp_krr_eps", "20"),
                       ("fdp_rs_gamma", "1.1")):
        option(at.select_slider(key=key), shown)
    at.slider(key="fdp_krr_k").set_value(100)
    at.slider(key="fdp_rs_n").set_value(2)
    at.run()
    assert_page_ok(at, PAGES[FDP])
    [table] = [d.value for d in at.dataframe if "tightest μ" in d.value.columns]
    assert len(table) >= 6 and set(table["meets the target"]) <= {"yes", "no"}
    # Group privacy, composition and conversions at ε = 50, δ = 10⁻¹².
    open_tab(at, FDP, "Group privacy")
    option(at.select_slider(key="fdp_group_eps"), "50")
    at.slider(key="fdp_group_k").set_value(10)
    at.run()
    assert_page_ok(at, PAGES[FDP])
    open_tab(at, FDP, "Composition")
    option(at.select_slider(key="fdp_comp_eps"), "50")
    at.slider(key="fdp_comp_n").set_value(200)
    at.run()
    assert_page_ok(at, PAGES[FDP])
    open_tab(at, FDP, "Conversions")
    at.number_input(key="fdp_inv_eps").set_value(50.0)
    option(at.select_slider(key="fdp_inv_delta"), "10⁻¹²")
    at.run()
    assert_page_ok(at, PAGES[FDP])
    mu = float([m.value for m in at.metric if m.label.startswith("Largest μ")][0])
    assert np.isfinite(mu) and mu > 0
    open_tab(at, FDP, "An auditor's view")
    choose(at.radio(key="fdp_aud_mech"), [at.radio(key="fdp_aud_mech").options[-1]])  # k-RR
    at.run()
    option(at.select_slider(key="fdp_aud_eps"), "20")
    at.slider(key="fdp_aud_k").set_value(100)
    at.run()
    assert_page_ok(at, PAGES[FDP])


RS = "views/substitution.py"
RS_UNIFORM = "Uniform (the source's shape)"


@pytest.mark.parametrize("n_cat", [3, 200])
def test_substitution_gamma_near_1_and_l_is_n_minus_1(n_cat):
    """γ = 1.1 (the slider's end nearest 1), l = N − 1 (the largest), on every tab."""
    at = start(RS, {"rs_source": RS_UNIFORM, "rs_N": str(n_cat), "rs_l": str(n_cat - 1),
                    "rs_gamma": "1.1", "rs_reps": "10"})
    assert_page_ok(at, PAGES[RS])
    shown = {m.label: m.value for m in at.metric}
    assert shown["Categories k"] == str(n_cat), shown
    assert f"ε_l (l = {n_cat - 1})" in shown, shown
    for _ in each_tab(at, RS):
        assert not errors(at), errors(at)


@pytest.mark.parametrize("n_cat", ["1", "0", "-5", "1e9", "abc"])
def test_substitution_n_below_2_from_the_url_is_clamped(n_cat):
    """N = 1 cannot be set on the slider; from a URL it is clamped to 2 and said so."""
    at = start(RS, {"rs_source": RS_UNIFORM, "rs_N": n_cat})
    assert_page_ok(at, PAGES[RS])
    n = int({m.label: m.value for m in at.metric}["Categories k"])
    assert 2 <= n <= 200
    if n_cat in ("1", "0", "-5"):
        assert n == 2
        assert any("is outside 2 … 200; 2 is used" in c.value for c in at.caption)


LDP = "views/ldp.py"


@pytest.mark.parametrize("k", ["1", "0", "87", "x"])
def test_ldp_k_out_of_range_from_the_url(k):
    """k = 1 cannot be set on the slider (2 … 86); a URL value out of range is not used."""
    at = start(LDP, {"ldp_source": links.POPULATION_AGE_LABELS["korea"], "ldp_k": k})
    assert_page_ok(at, PAGES[LDP])
    shown = int({m.label: m.value for m in at.metric}["Categories k"])
    assert 2 <= shown <= 86
    for _ in each_tab(at, LDP):
        pass


def test_ldp_all_shares_zero_is_a_plain_error():
    at = start(LDP, {"ldp_source": "Three categories A, B, C (k = 3)", "ldp_share_a": "0",
                     "ldp_share_b": "0", "ldp_share_c": "0"})
    assert_clean(at)
    [msg] = errors(at)
    assert msg.startswith("These shares cannot be used"), msg
    assert_plain(msg)
    at.slider(key="ldp_share_b").set_value(10)
    at.run()
    assert_page_ok(at, PAGES[LDP])
    assert not errors(at)


CMP = "views/compare_histograms.py"


@pytest.mark.parametrize("alphas", [("0.001", "10"), ("10", "10"), ("0.001", "0.001")])
def test_compare_alpha_at_both_ends(alphas):
    """α₁, α₂ at the ends of their grid with single-year bins (86) and N at both ends."""
    for n in ("1,000", "50M"):
        at = start(CMP, {"cmp_alpha_a": alphas[0], "cmp_alpha_b": alphas[1], "cmp_width": "1",
                         "cmp_n": n, "cmp_boot": "100"})
        assert_page_ok(at, PAGES[CMP])
        assert {"Naive χ² test p-value", "Estimated N̂ (A)"} <= {m.label for m in at.metric}
        for e in errors(at):  # only the documented degenerate bootstrap case
            assert "bootstrap test cannot be run" in e, e
            assert_plain(e)


PLAN = "views/planner.py"


@pytest.mark.parametrize("alphas", [("0.001", "10"), ("10", "0.001")])
def test_planner_alpha_at_both_ends(alphas):
    """α₁ and α₂ at opposite ends of the grid, N at its ends, on every tab."""
    for n in ("1,000", "50M"):
        at = start(PLAN, {"plan_alpha": alphas[0], "plan_alpha_sep": "true",
                          "plan_alpha2": alphas[1], "plan_n": n})
        assert_page_ok(at, PAGES[PLAN])
        for _ in each_tab(at, PLAN):
            for e in errors(at):
                assert_plain(e)


# ---------------------------------------------------------------------------
# 3. bad uploads on every page that takes one
# ---------------------------------------------------------------------------

RNG_BYTES = np.random.default_rng(7).integers(0, 256, 4000, dtype=np.uint8).tobytes()
TWO_COLUMNS = {CMP, PLAN}  # pages that compare two uploaded columns A and B

# case: (file, kinds it is tried with, fragments one of which the message must hold)
NUMERIC, CATEGORIES = "counts", "categories"
BAD_FILES = {
    "empty": (b"", "any", ("The file is empty",)),
    "blank": (b"\n  \n\n", "any", ("The file is empty",)),
    "binary": (b"\x00" + RNG_BYTES, "any", ("binary data",)),
    "random_bytes": (RNG_BYTES.replace(b"\x00", b"\x01"), "any", ("not UTF-8", "binary")),
    "excel": (b"PK\x03\x04" + RNG_BYTES[:200], "any", ("Excel workbook",)),
    "latin1": ("âge,n\n1,2\n3,4\n".encode("latin-1"), "any", ("not UTF-8",)),
    "utf16": ("a,b\n1,2\n3,4\n".encode("utf-16"), "any", ("UTF-16",)),
    "header_only": (b"a,b\n", "any", ("no data rows",)),
    "too_many_rows": (b"a\n" + b"1\n" * 100_001, "any", ("at most 100,000",)),
    "too_many_columns": ((",".join(["1"] * 21) + "\n") .encode() * 3, "any",
                         ("at most 20 columns",)),
    # The bad value is in both columns: whichever column the page uses meets it.
    "text_in_counts": (b"a,b\n1,2\n2,x\n3,4\n", NUMERIC, ("is not a number",)),
    "negative": (b"a,b\n1,2\n-2,-3\n3,4\n", NUMERIC, ("negative count",)),
    "nan": (b"a,b\n1,2\nnan,nan\n3,4\n", NUMERIC, ("is not allowed",)),
    "inf": (b"a,b\n1,2\ninf,inf\n3,4\n", NUMERIC, ("is not allowed",)),
    "minus_inf": (b"a,b\n1,2\n-inf,-inf\n3,4\n", NUMERIC, ("is not allowed",)),
    "huge": (b"a,b\n1,2\n1e300,1e300\n3,4\n", NUMERIC, ("too large",)),
    "huge_total": (b"a,b\n9e14,9e14\n9e14,9e14\n", NUMERIC, ("totals up to 1e15",)),
    "fractional": (b"a,b\n1.5,2.5\n3,3\n3,4\n", "whole", ("whole number",)),
    "all_zero": (b"a,b\n0,0\n0,0\n0,0\n", NUMERIC, ("equal to 0",)),
    "one_bin": (b"a,b\n5,6\n", NUMERIC, ("at least 2",)),  # N = 1 (k = 1) category
    "mismatched": (b"a,b\n1,2\n2,3\n4\n", NUMERIC, ("same number of rows",)),
    "one_category": (b"answer\nyes\nyes\n", CATEGORIES, ("single category",)),
    "blank_answers": (b"answer,other\n,1\n,2\n", CATEGORIES, ("no values",)),
    "too_many_categories": (b"answer\n" + b"".join(f"c{i}\n".encode() for i in range(1001)),
                            CATEGORIES, ("at most",)),
    # Raw values read as ages (the planner's only binning); elsewhere negatives are fine.
    "negative_ages": (b"age\n3\n-3\n40\n", "ages", ("negative value",)),
}


class UploadPage:
    def __init__(self, prefix, sources, builtin, good, kinds, tab=None):
        self.prefix, self.sources, self.builtin = prefix, sources, builtin
        self.good, self.kinds, self.tab = good, kinds, tab


UPLOAD_PAGES = {
    CMP: UploadPage("cmp", ("cmp_a", "cmp_b"),
                    {"cmp_a": "korea_central", "cmp_b": "korea_noncentral"},
                    b"a,b\n500,520\n300,310\n200,190\n", ("counts", "values")),
    PLAN: UploadPage("plan", ("plan_a", "plan_b"),
                     {"plan_a": "korea_central", "plan_b": "korea_noncentral"},
                     {"counts": b"group,a,b\nx,500,400\ny,300,300\nz,200,300\n",
                      "values": b"a,b\n5,50\n15,60\n25,70\n35,40\n"}, ("counts", "values")),
    GAUSS: UploadPage("gauss", ("gauss_source",), {"gauss_source": "korea"},
                      b"a\n5\n7\n", ("counts", "values"), tab="Release a statistic"),
    LDP: UploadPage("ldp", ("ldp_source",), {"ldp_source": "survey"}, b"a\n5\n7\n",
                    ("counts", "categories")),
    RS: UploadPage("rs", ("rs_source",), {"rs_source": "normal"}, b"a\n5\n7\n",
                   ("counts", "categories")),
}


def test_every_upload_is_in_the_matrix():
    """Every page with a file uploader (in its source) is listed in UPLOAD_PAGES."""
    uploading = {p for p in PAGES
                 if re.search(r"upload_control|category_upload|histogram_pair_control"
                              r"|file_uploader", (REPO_ROOT / p).read_text("utf-8"))}
    assert uploading == set(UPLOAD_PAGES), uploading ^ set(UPLOAD_PAGES)


def _cases_for(path: str, kind: str) -> list[str]:
    out = []
    for case, (_, kinds, _) in BAD_FILES.items():
        if case == "mismatched" and path not in TWO_COLUMNS:
            continue  # one column is used: a shorter other column does not matter
        if kinds == "whole":  # counts of users or records: whole numbers
            kinds = NUMERIC if path in (LDP, RS) else None
        if kinds == "ages":
            kinds = "values" if path == PLAN else None
        if kinds == "any" or kinds == kind or (kinds == NUMERIC and kind == "counts"):
            out.append(case)
    return out


def _upload(at: AppTest, page: UploadPage, name: str, data: bytes) -> None:
    at.file_uploader(key=f"{page.prefix}_file").set_value((name, data, "text/csv"))
    at.run()


def _assert_controls_remain(at: AppTest, page: UploadPage) -> None:
    for key in page.sources:
        assert at.selectbox(key=key).value == "upload", key
    assert at.file_uploader(key=f"{page.prefix}_file")
    assert widget_of(at, "radio", f"{page.prefix}_file_kind") is not None


def state_keys(at: AppTest) -> set[str]:
    """The keys of every widget the page shows (controls, pickers, buttons) and of the
    session's state."""
    return set(at.session_state.keys()) | widget_keys(at)


@pytest.mark.parametrize(("path", "kind"), [(p, k) for p, page in UPLOAD_PAGES.items()
                                             for k in page.kinds])
def test_bad_uploads_give_plain_errors_and_the_page_recovers(path, kind):
    """Every bad file of the matrix in one session: a plain message naming the problem,
    the controls still there, and the page usable again with a good file; at the end
    built-in data works again.

    A file that leaves nothing behind (the page shows the widgets it shows without a file,
    and the session holds the same keys: checked after each file) may be followed by the
    next bad file, the good one coming later; a file that left something (a column picker,
    say) is followed by the good file at once, and so is the last."""
    page = UPLOAD_PAGES[path]
    title = PAGES[path]
    at = start(path, {TAB_KEYS[path]: page.tab} if page.tab else None)
    for key in page.sources:
        at.selectbox(key=key).set_value("upload")
    at.run()
    assert_page_ok(at, title)
    assert any("Upload a CSV file" in i.value for i in at.info), [i.value for i in at.info]
    at.radio(key=f"{page.prefix}_file_kind").set_value(kind)
    at.run()
    without_file = state_keys(at)
    good = page.good[kind] if isinstance(page.good, dict) else page.good
    problems = []
    cases = _cases_for(path, kind)
    assert len(cases) >= 10, cases
    for i, case in enumerate(cases):
        data, _, fragments = BAD_FILES[case]
        _upload(at, page, f"{case}.csv", data)
        try:
            assert_page_ok(at, title)
            shown = messages(at)
            assert shown, "no error or warning"
            assert any(f in m for m in shown for f in fragments), shown
            for m in shown:
                assert_plain(m)
            _assert_controls_remain(at, page)
            if state_keys(at) == without_file and i + 1 < len(cases):
                continue  # nothing of it is left (widgets, session keys): the next file
            # The page is usable again in the same session: a good file.
            _upload(at, page, "good.csv", good)
            assert_page_ok(at, title)
            assert not errors(at), errors(at)
            assert at.metric
        except AssertionError as exc:
            problems.append(f"{kind}/{case}: {exc}")
    assert not problems, "\n".join(problems)
    # Back to built-in data in the same session.
    for key, value in page.builtin.items():
        at.selectbox(key=key).set_value(value)
    at.run()
    assert_page_ok(at, title)
    assert not errors(at) and at.metric


# ---------------------------------------------------------------------------
# 4. resource safety
# ---------------------------------------------------------------------------

UI_FILES = sorted([REPO_ROOT / "app.py", *(REPO_ROOT / "ui").rglob("*.py"),
                   *(REPO_ROOT / "views").glob("*.py")])


def _calls(path: Path):
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    return tree, [n for n in ast.walk(tree) if isinstance(n, ast.Call)]


def _name(node) -> str:
    return ast.unparse(node.func if isinstance(node, ast.Call) else node)


def test_every_cache_is_bounded():
    """Every st.cache_data / st.cache_resource has max_entries or ttl (also inside
    ui.cache.counted, which counts its hits)."""
    found = []
    for path in UI_FILES:
        tree, _ = _calls(path)
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for dec in fn.decorator_list:
                if isinstance(dec, ast.Call) and _name(dec) == "counted":
                    dec = dec.args[0]
                name = _name(dec)
                if not name.endswith(("cache_data", "cache_resource")):
                    continue
                where = f"{path.relative_to(REPO_ROOT)}:{fn.name}"
                found.append(where)
                assert isinstance(dec, ast.Call), f"{where}: @{name} without max_entries or ttl"
                keys = {k.arg for k in dec.keywords}
                assert keys & {"max_entries", "ttl"}, f"{where}: unbounded @{name}"
    assert found  # the pages do cache


def test_no_unsafe_html():
    """No page or widget renders raw HTML (so no user text can reach it). The exceptions:
    ui/internals.py's style sheets NO_CLIP_CSS and PRESENT_CSS, constants (metrics and chips
    wrap; presenting mode's larger text), its
    LANG_SCRIPTS, one constant script per interface language (the page's <html lang>), and
    its A11Y_SCRIPT, a constant script fed only JSON data made inert by script_data (charts'
    names for screen readers, the live region's findings)."""
    for path in UI_FILES:
        tree, calls = _calls(path)
        for call in calls:
            where = f"{path.relative_to(REPO_ROOT)}:{call.lineno}"
            for k in call.keywords:
                if k.arg == "unsafe_allow_html":
                    assert isinstance(k.value, ast.Constant) and k.value.value is False, where
            name = _name(call)
            if (path.name == "internals.py" and name == "st.html" and len(call.args) == 1
                    and isinstance(call.args[0], ast.Name)
                    and call.args[0].id in ("NO_CLIP_CSS", "PRESENT_CSS")):
                continue
            if (path.name == "internals.py" and name == "st.html" and len(call.args) == 1
                    and isinstance(call.args[0], ast.Subscript)
                    and getattr(call.args[0].value, "id", None) == "LANG_SCRIPTS"):
                continue  # a fixed script per language, keyed by the language's code
            if (path.name == "internals.py" and name == "st.html" and len(call.args) == 1
                    and isinstance(call.args[0], ast.BinOp)
                    and getattr(call.args[0].left, "id", None) == "A11Y_SCRIPT"
                    and isinstance(call.args[0].right, ast.Call)
                    and getattr(call.args[0].right.func, "id", None) == "script_data"):
                continue  # a fixed script; its only data is script_data's inert JSON
            assert not name.endswith(("st.html", "components.html", "components.iframe")), where


def test_uploads_are_read_in_memory_only():
    """Files are read with getvalue() in ui/sources.py; no page or widget writes a file. The
    files written: ui/cache.py's hit counts, when a benchmark names one (DPVIZ_CACHE_STATS),
    and ui/text.py's compiled catalogs (locale/, from the repository's .po files), never
    anything a user sent."""
    uploaders = []
    for path in UI_FILES:
        tree, calls = _calls(path)
        for call in calls:
            name = _name(call)
            where = f"{path.relative_to(REPO_ROOT)}:{call.lineno}"
            if path.name == "cache.py" and name == "tmp.write_text":
                continue
            if path.name == "text.py" and name.endswith(".open"):  # the catalogs (locale/)
                continue
            if name.endswith("file_uploader"):
                uploaders.append(where)
            assert name not in ("open", "tempfile.NamedTemporaryFile", "tempfile.mkstemp"), where
            assert not name.endswith((".write_bytes", ".write_text", ".open")), where
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                assert "tempfile" not in names and "shutil" not in names, path
    assert uploaders and all(u.startswith("ui/sources.py") for u in uploaders), uploaders
    assert "file.getvalue()" in (REPO_ROOT / "ui" / "sources.py").read_text("utf-8")


def test_the_server_refuses_no_file_the_parsers_accept():
    """The server's upload limit (MB) and the parsers' byte limit agree: a file the server
    takes is one the parser reads, and the parser's message names the limit a user meets."""
    import inspect

    config = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text("utf-8"))
    limit = config["server"]["maxUploadSize"] * 1_000_000
    for parser in (uploads.read_csv_upload, uploads.read_answers_upload):
        assert inspect.signature(parser).parameters["max_bytes"].default == limit, parser


TOO_LONG = "would take about"


def test_calibration_refuses_an_oversize_run_with_its_time():
    path = "views/calibration.py"
    at = start(path)
    option(at.select_slider(key="cal_reps"), "1,000")
    option(at.select_slider(key="cal_boot"), "1,000")
    at.radio(key="cal_m_live").set_value(86)
    choose(at.multiselect(key="cal_ns"), at.multiselect(key="cal_ns").options)
    _click_submits(at)
    at.run()
    assert_page_ok(at, PAGES[path])
    [msg] = errors(at)
    assert TOO_LONG in msg and "minutes" in msg, msg


def test_planner_refuses_an_oversize_search_and_frontier_with_their_time():
    at = start(PLAN, {"plan_reps": "2,000", "plan_boot": "2,000", "plan_width": "1"})
    assert_page_ok(at, PAGES[PLAN])
    [msg] = errors(at)
    assert msg.startswith("This search would take about") and "cap" in msg, msg
    open_tab(at, PLAN, "Frontier")
    at.slider(key="plan_fr_points").set_value(10)
    at.run()
    at.button(key="plan_fr_run").click()
    at.run()
    assert_page_ok(at, PAGES[PLAN])
    [msg] = errors(at)
    assert msg.startswith("This frontier would take about") and "cap" in msg, msg


def test_compare_limits_the_bootstrap_with_its_time():
    rows = 5000
    data = b"a,b\n" + b"".join(f"{100 + i % 7},{100 + i % 5}\n".encode() for i in range(rows))
    at = start(CMP, {"cmp_boot": "1,000"})
    at.selectbox(key="cmp_a").set_value("upload")
    at.selectbox(key="cmp_b").set_value("upload")
    at.run()
    at.file_uploader(key="cmp_file").set_value(("big.csv", data, "text/csv"))
    at.run()
    assert [b.key for b in at.button if b.key in PRESSED] == ["cmp_run"]  # 800 x 5,000 cells
    run_requested(at)
    assert_page_ok(at, PAGES[CMP])
    [msg] = [i.value for i in at.info if "bootstrap is limited" in i.value]
    assert f"With M = {rows:,} bins" in msg and "B = 1,000 " + TOO_LONG in msg, msg
    assert "Parametric bootstrap p-value" in {m.label for m in at.metric}


def test_substitution_reduces_r_and_says_how_long():
    at = start(RS, {"rs_source": RS_UNIFORM, "rs_N": "200", "rs_l": "199", "rs_reps": "500"})
    assert_page_ok(at, PAGES[RS])
    [cap] = [c.value for c in at.caption if "is reduced to R =" in c.value]
    assert "R = 500" in cap and "second" in cap, cap


def test_ldp_caps_the_replicates_for_many_categories():
    rows = "\n".join(f"c{i},{i % 13 + 1}" for i in range(1000))
    at = start(LDP, {"ldp_tab": "Error versus privacy", "ldp_reps": "2,000"})
    at.selectbox(key="ldp_source").set_value("upload")
    at.run()
    at.radio(key="ldp_file_kind").set_value("counts")
    at.file_uploader(key="ldp_file").set_value(("many.csv", f"category,count\n{rows}\n".encode(),
                                                "text/csv"))
    at.run()
    assert_page_ok(at, PAGES[LDP])
    open_tab(at, LDP, "Error versus privacy")
    assert_page_ok(at, PAGES[LDP])
    reps = at.select_slider(key="ldp_reps")
    assert max(int(o.replace(",", "")) for o in reps.options) <= 400_000 // 1000
    assert any("R stops at" in c.value and "second" in c.value for c in at.caption)


def test_fdp_audit_draws_are_capped():
    at = start(FDP, {"fdp_tab": "An auditor's view", "fdp_aud_reps": "1,000,000"})
    assert_page_ok(at, PAGES[FDP])
    from dpcore import audit
    assert at.select_slider(key="fdp_aud_reps").value <= audit.MAX_REPS
    assert any(f"capped at {audit.MAX_REPS:,}" in c.value and "second" in c.value
               for c in at.caption)


def test_every_server_setting_is_an_option_of_the_pinned_streamlit():
    """.streamlit/config.toml's options exist in this Streamlit (a renamed one would be
    ignored without a word), and the measured choices hold: no full collection after every
    rerun (benchmarks/change_cpu.py), no file watcher."""
    from streamlit import config as st_config

    config = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text("utf-8"))
    known = st_config.get_config_options()
    names = [f"{section}.{name}" for section, options in config.items() for name in options]
    assert [n for n in names if n not in known] == []
    assert config["runner"]["postScriptGC"] is False
    assert config["server"]["fileWatcherType"] == "none"
    # No element cached in the browser (a cache miss disconnects it for good).
    assert config["global"]["minCachedMessageSize"] >= 1e12
