"""Hostile uploads reach no spreadsheet as formulas (OWASP: CSV injection).

A file whose labels (bin labels, group names, category answers) and column names are
OWASP's CSV-injection payloads is uploaded on every page that takes uploads; every CSV the
page then offers, on every tab (figures' "Data (CSV)", tables' "Table (CSV)"), is read
back cell by cell: no cell starts as a formula (``=``, ``+``, ``@``, tab, carriage return,
or ``-`` before anything but a number), and the payloads are there, prefixed with ``'``
(so the test cannot pass on a page whose exports left the labels out). The data in
memory keep the user's labels: the escaping happens on the way out
(:func:`dpviz.export.csv_text`), which its unit tests check in test_viz_export.py.
"""

from __future__ import annotations

import csv
import io

import pytest
from streamlit.testing.v1 import AppTest

import dpviz
from pagekit import kit
from test_hardening import CMP, GAUSS, LDP, PLAN, RS, TAB_KEYS, UPLOAD_PAGES, _upload, start

# OWASP's CSV-injection payloads. (The readers strip a cell's surrounding white space, so
# a payload behind a tab or carriage return arrives as the payload itself; csv_text's unit
# tests cover those starts.)
PAYLOADS = ("=1+2", "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3+cmd|' /C calc'!A0",
            '=HYPERLINK("https://example.org","x")', "+1", "-1-1")
RISKY_START = ("=", "+", "@", "\t", "\r")



def csv_file(header: list[str], rows: list[list]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header, *rows])
    return out.getvalue()


def answers(payloads, n: int = 3) -> list[list[str]]:
    """Each payload as a user's answer, ``n`` + i times (categories with counts)."""
    return [[p] for i, p in enumerate(payloads) for _ in range(n + i)]


# Radio values that open a view where the file's labels are shown: the Gaussian page
# releases the uploaded counts as a histogram (its bins are the labels).
SHOWN_BY = {GAUSS: {"gauss_query": "histogram"}}


def uploaded(path: str, kind: str, name: str, text: str) -> AppTest:
    """The page ``path`` (at its upload tab) with ``text`` uploaded as a file of ``kind``
    for every histogram or data source it has, in the view that shows its labels."""
    page = UPLOAD_PAGES[path]
    at = start(path, {TAB_KEYS[path]: page.tab} if page.tab else None)
    for key in page.sources:
        at.selectbox(key=key).set_value("upload")
    at.run()
    at.radio(key=f"{page.prefix}_file_kind").set_value(kind)
    at.run()
    _upload(at, page, name, text.encode("utf-8"))
    shown_by = {r.key for r in at.radio} & set(SHOWN_BY.get(path, {}))
    for key in shown_by:  # not there when the file is refused
        at.radio(key=key).set_value(SHOWN_BY[path][key]).run()
    assert not at.exception, at.exception
    return at


def other_tabs(at: AppTest, path: str):
    """Open each of the page's tabs after the one open, in turn (a page with a tab key)."""
    tab_key = TAB_KEYS.get(path)
    for tab in [t.label for t in at.tabs][1:] if tab_key else []:
        at.session_state[tab_key] = tab
        at.run()
        assert not at.exception, tab
        yield tab


# (page, kind of file, the file): payloads as labels and as column names.
HOSTILE_FILES = {
    CMP: ("counts", csv_file(["=bin", "+a", "@b"],
                             [[p, 50 + 10 * i, 60 + 5 * i] for i, p in enumerate(PAYLOADS)])),
    PLAN: ("counts", csv_file(["=group", "a", "b"],
                              [[p, 500 + 10 * i, 400 + 20 * i] for i, p in enumerate(PAYLOADS)])),
    LDP: ("categories", csv_file(["=answer"], answers(PAYLOADS))),
    RS: ("categories", csv_file(["=value"], answers(PAYLOADS))),
    # Released as a histogram (gauss_query below), its bins are the labels.
    GAUSS: ("counts", csv_file(["=bin", "+a"],
                               [[p, 50 + 10 * i] for i, p in enumerate(PAYLOADS)])),
}


def risky(cell: str) -> bool:
    """Whether a spreadsheet would run ``cell`` as a formula."""
    if cell.startswith(RISKY_START):
        return True
    if cell.startswith("-"):
        try:
            float(cell)
        except ValueError:
            return True
    return False


def test_every_upload_page_is_covered():
    assert set(HOSTILE_FILES) == set(UPLOAD_PAGES)


@pytest.mark.parametrize("path", list(HOSTILE_FILES), ids=lambda p: p.split("/")[-1])
def test_exports_of_a_hostile_upload_run_no_formula(path, deferred, capsys):
    kind, text = HOSTILE_FILES[path]
    at = uploaded(path, kind, "hostile.csv", text)
    assert not at.error, [e.value for e in at.error]
    # The labels stay in the page's data as the user wrote them (escaped on the way out).
    frames = [frame for _, frame in kit(at).tables]
    frames += [dpviz.export.figure_data(fig) for _, fig in kit(at).figures]
    in_memory = {str(v) for frame in frames
                 for v in [*frame.to_numpy().ravel(), *frame.index, *frame.columns]}
    for _ in other_tabs(at, path):
        pass
    files = {name: make() for name, make in deferred.items() if name.endswith(".csv")}
    assert files, "no CSV export after the upload"
    cells = []
    for name, data in files.items():
        text_out = data.decode("utf-8") if isinstance(data, bytes) else data
        for row in csv.reader(io.StringIO(text_out, newline="")):
            cells += [(name, cell) for cell in row]
    bad = [(name, cell) for name, cell in cells if risky(cell)]
    assert not bad, bad[:10]
    exported = {cell for _, cell in cells}
    reached = [p for p in PAYLOADS if "'" + p in exported]
    assert reached, f"no payload reached an export: {sorted(exported)[:20]}"
    assert in_memory & set(PAYLOADS), sorted(in_memory)[:20]
    with capsys.disabled():
        print(f"\n{path}: {len(files)} CSV files, {len(cells):,} cells, {len(reached)} of "
              f"{len(PAYLOADS)} payloads exported (with '), 0 formulas")
