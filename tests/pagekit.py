"""Helpers shared by the page tests (AppTest): what a page shows, pages whose tabs run one
at a time, and the page kit every page has (the link that reproduces a view, the note on
unusable link values, help on every control, the report and the exports).

The fixtures the page tests share (``deferred``, ``fixed_machine_speed``) are in
conftest.py, with the AppTest basics (``open_page``, ``run``, ``upload_file``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import parse_qs

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Block

from conftest import LAST_KIT, assert_clean, open_page, run
from shown import as_read

LINK_NOTE = "could not be used"  # in the page kit's note on unusable link values


# --- what a page shows -------------------------------------------------------------------------

def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def errors(at: AppTest) -> list[str]:
    """The page's errors as a reader reads them (escapes resolved)."""
    return [as_read(e.value) for e in at.error]


def warnings(at: AppTest) -> list[str]:
    return [as_read(w.value) for w in at.warning]


def markdown_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def chart(at: AppTest, key: str):
    """The page's one Plotly chart whose element id holds ``key``."""
    [c] = [c for c in at.get("plotly_chart") if key in c.proto.id]
    return c


def chart_traces(at: AppTest, key: str) -> list[dict]:
    return json.loads(chart(at, key).proto.spec)["data"]


def link_notes(at: AppTest) -> list[str]:
    """The page kit's notes on link values that could not be used."""
    return [w.value for w in at.warning if LINK_NOTE in w.value]


# Keyed elements whose value is not a setting of the view: what a button or a download
# button holds is whether it was pressed; charts and tables are outputs.
NOT_SETTINGS = ("button", "download_button", "form_submit_button", "plotly_chart",
                "arrow_data_frame", "dataframe", "page_link", "file_uploader")


def plain(value):
    """``value`` as JSON holds it: tuples as lists, numpy scalars as Python numbers."""
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):  # a numpy scalar
        return value.item()
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise TypeError(f"{value!r} ({type(value).__name__}) has no JSON form")


def link_view(at: AppTest) -> dict[str, dict]:
    """What a link opens: every keyed setting (key -> JSON-ready value; an open tab as its
    label) and every metric (label -> value; a label shown again is "label #2")."""
    settings = {}

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            key = getattr(child, "key", None)
            if child.type == "tab_container":
                settings[key] = at.session_state[key]
            elif key and child.type not in NOT_SETTINGS and not isinstance(child, Block):
                settings[key] = plain(child.value)
            walk(child)

    walk(at.main)
    walk(at.sidebar)
    shown = {}
    for m in at.metric:  # a label shown again: "label #2", in page order
        n = sum(1 for label in shown if label == m.label or label.startswith(f"{m.label} #"))
        shown[m.label if not n else f"{m.label} #{n + 1}"] = m.value
    return {"widgets": settings, "metrics": shown}


def widget_keys(at: AppTest) -> set[str]:
    """The keys of every widget the page shows, in its main area and its sidebar."""
    out = set()

    def walk(node):
        if getattr(node, "key", None):
            out.add(node.key)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    walk(at.sidebar)
    return out


def kit(at: AppTest):
    """What the page gave its page kit for the report: findings, settings, charts, tables."""
    assert LAST_KIT, "no page ended in this test"
    return LAST_KIT[-1]


def query_id(value) -> str | None:
    """A test id for a query (``key=value&…``); None (pytest's own id) for anything else."""
    if isinstance(value, dict):
        return "&".join(f"{k}={v}" for k, v in value.items())
    return None


# The kinds of widgets whose keys and tooltips assert_widgets_keyed_with_help checks.
KEYED_KINDS = ("slider", "select_slider", "radio", "number_input", "selectbox", "button",
               "file_uploader")


def assert_widgets_keyed_with_help(at: AppTest, prefix: str, kinds=KEYED_KINDS) -> None:
    """Every widget of those kinds in the page's main area is keyed ``prefix``… (or
    ``page_…``: the page header's, ui.kit) and has a tooltip (the sidebar holds the app's
    language control, ui.language)."""
    for kind in kinds:
        for w in at.main.get(kind):
            assert w.key and w.key.startswith((prefix, "page_")), (kind, w.key)
            assert w.help, f"{w.key} has no help"


def plain_error(at: AppTest, fragment: str) -> str:
    """The page's one error, checked to say ``fragment`` in words (no code in backticks)."""
    assert_clean(at)
    [msg] = errors(at)
    assert fragment in msg and "`" not in msg, msg
    return msg


# --- pages whose tabs run one at a time --------------------------------------------------------

def tab_containers(at: AppTest) -> list[tuple[str, list[str]]]:
    """The page's keyed tab containers: (key, their tabs' labels)."""
    found = []

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            if child.type == "tab_container" and getattr(child, "key", None):
                found.append((child.key, [tab.label for tab in child.children.values()]))
            walk(child)

    walk(at.main)
    return found


def select_tab(at: AppTest, key: str, label: str) -> None:
    """Select the tab ``label`` of the tabs bound to ``key``, as a click on it does: in the
    session, and in the address when a link named a tab there (the address wins otherwise)."""
    at.session_state[key] = label
    if key in at.query_params:
        at.query_params[key] = label


@dataclass(frozen=True)
class TabbedPage:
    """A page whose open tab is bound to the session-state key ``tab_key``: only it runs."""

    path: str      # as app.py routes to it
    title: str
    tab_key: str
    tabs: tuple[str, ...]  # the first one is open on arrival

    def start(self, tab: str | None = None, query: dict[str, str] | None = None) -> AppTest:
        """The page after a fresh start on ``tab`` (the first by default); ``query`` is the
        URL's query string on arrival."""
        at = open_page(self.path, self.title, query)
        return self.open_tab(at, tab) if tab not in (None, self.tabs[0]) else at

    def open_tab(self, at: AppTest, tab: str) -> AppTest:
        """Select a tab of the page, as a click on it does, and run the page."""
        select_tab(at, self.tab_key, tab)
        return run(at)

    def assert_clean_on_every_tab(self, at: AppTest) -> None:
        for tab in self.tabs:
            self.open_tab(at, tab)
            assert_clean(at)
            assert not errors(at), tab

    def shown_on_every_tab(self, at: AppTest) -> dict[str, tuple]:
        """Each tab's metrics, tables and the findings it gives the report."""
        shown = {}
        for tab in self.tabs:
            self.open_tab(at, tab)
            assert not errors(at), tab
            shown[tab] = (metrics(at), [d.value for d in at.dataframe], list(kit(at).findings))
        return shown

    def assert_same_on_every_tab(self, got: AppTest, expected: AppTest) -> None:
        """Every tab shows the same metrics, tables and findings (numbers included) in both
        sessions."""
        expected_, got_ = self.shown_on_every_tab(expected), self.shown_on_every_tab(got)
        for tab in self.tabs:
            assert got_[tab][0] == expected_[tab][0], tab  # the metrics
            assert len(got_[tab][1]) == len(expected_[tab][1]), tab
            for a, b in zip(got_[tab][1], expected_[tab][1]):
                pd.testing.assert_frame_equal(a, b)
            assert got_[tab][2] == expected_[tab][2], tab  # the findings, numbers included


# --- the page kit ------------------------------------------------------------------------------

def open_linked(page: str, params: dict[str, list[str]]) -> AppTest:
    """``page`` after a fresh start, opened by a link whose query string is ``params``
    (as parse_qs reads it: one value a key)."""
    return open_page(page, None, {key: value for key, [value] in params.items()})


def assert_reset_note(at: AppTest, key: str) -> None:
    """One note on unusable link values, naming ``key`` alone."""
    [note] = link_notes(at)
    assert f"reset to their defaults: {key}." in note, note


def assert_only_bad_value_reset(at: AppTest, query: dict[str, str], bad: str, default, *,
                                notes=None) -> None:
    """A link ``query`` with one unusable value ``bad``: the page's one warning (with
    ``notes=link_notes``: its one link note) names it alone, ``bad`` is dropped from the URL
    and back at its ``default``, and every other value of the link is kept."""
    [note] = (notes or warnings)(at)
    assert LINK_NOTE in note and bad in note, note
    assert not [k for k in set(query) - {bad} if k in note], note
    assert bad not in at.query_params
    assert at.session_state[bad] == default
    for key, value in query.items():
        if key != bad:
            assert at.query_params[key] == value


def seen_kinds(seen: list[str]) -> set[str]:
    """The kinds of controls among those ``without_help`` saw."""
    return {name.split()[0] for name in seen}


def assert_stopped_page_keeps_link_and_report(at: AppTest, query: dict[str, str]) -> None:
    """A page stopped to wait for a file (opened with ``query``) still shows its share link,
    with the query, and its page kit's caption, with nothing to report."""
    assert any("Upload a CSV file" in i.value for i in at.info)
    [link] = [c.value for c in at.code]
    assert parse_qs(link.split("?", 1)[1]) == {"lang": ["en"], **{key: [value] for key, value
                                                                   in query.items()}}
    assert any(c.value == "0 finding(s), 0 chart(s), 0 table(s)." for c in at.caption)


# --- a view set by hand against the same view from a link ------------------------------------

def widget(at: AppTest, kind: str, key: str):
    return getattr(at, kind)(key=key)


def shown(at: AppTest) -> tuple:
    """What the view shows: its metrics, tables and the findings and settings it reports."""
    return (metrics(at), [d.value.to_csv() for d in at.dataframe], list(kit(at).findings),
            dict(kit(at).parameters))


def set_by_hand(at: AppTest, values, *, run_after: tuple[str, ...] = ()) -> AppTest:
    """Set (key, kind, value, url) through the widgets, in order; a widget that appears or
    is enabled only once an earlier value is set is set in a later run. A widget of a kind
    in ``run_after`` gets a run of its own at once (e.g. a control that greys out others)."""
    todo = list(values)
    for _ in range(3):
        later = []
        for key, kind, value, url in todo:
            try:
                w = widget(at, kind, key)
            except KeyError:
                later.append((key, kind, value, url))
                continue
            if w.disabled:
                later.append((key, kind, value, url))
                continue
            w.set_value(value)
            if kind in run_after:
                run(at)
        run(at)
        todo = later
        if not todo:
            return at
    raise AssertionError(f"never shown or enabled: {[k for k, *_ in todo]}")


def assert_values(at: AppTest, values) -> None:
    for key, kind, value, _url in values:
        got = widget(at, kind, key).value
        if isinstance(value, float):
            assert got == pytest.approx(value, rel=1e-12), key
        else:
            assert got == value, key


def open_experiment(script: str, experiments, index: int, *, timeout: float = 60) -> AppTest:
    """The page ``script`` as the link of its experiment ``index`` (``experiments``: the
    page's EXPERIMENTS) opens it from another view of the page, as its "Try this" box
    gives it: the experiment's values and ``try``, nothing else. Checked clean, naming the
    experiment, with every link value used."""
    from ui.kit import TRY_PARAM

    ex = experiments[index]
    at = open_page(script, None, timeout=timeout)
    for key in list(at.query_params):
        del at.query_params[key]
    for key, value in {**ex.query, TRY_PARAM: str(index)}.items():
        at.query_params[key] = value
    at.switch_page(script)
    run(at)
    assert any(ex.title in box.value for box in at.info), [b.value for b in at.info]
    assert not link_notes(at), link_notes(at)
    return at
