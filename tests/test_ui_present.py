"""Presenting mode (issue 24, ui/present.py): ``?present=1`` opens a view for a projector
with every other setting of its link; the header's button switches it on and off; it stays
for the session across pages and in the URL; a value other than 1 or 0 is named. The
layout at projector sizes is checked in Chromium (tests/test_browser.py); the figures'
scaling here and in tests/test_viz_style.py."""

from __future__ import annotations

import json

import pytest

from conftest import open_page, run
from pagekit import chart, kit, link_notes
from dpviz.style import PRESENTED, PRESENTED_MIN_FONT
from ui import internals, present, registry

COMPARE = "views/compare_histograms.py"
TITLE = "Compare two private histograms"


def present_button(at):
    return at.button(key="page_present")


def styled(at) -> bool:
    return any(h.proto.body == internals.PRESENT_CSS for h in at.get("html"))


def test_a_present_link_opens_the_view_for_a_projector_with_its_settings():
    at = open_page(COMPARE, TITLE, {"present": "1", "cmp_alpha_a": "0.5"})
    assert at.session_state["present"] is True
    assert at.query_params["present"] == "1"
    assert at.select_slider(key="cmp_alpha_a").value == 0.5  # the link's other setting applies
    assert present_button(at).label == "Stop presenting"
    assert styled(at)
    assert not link_notes(at)
    # Charts are drawn larger; what the kit keeps for exports and the report is not. The
    # main chart, first under the title, is drawn at the lead's height (issue 36).
    drawn = json.loads(chart(at, "cmp_fig_null").proto.spec)
    kept = dict(kit(at).figures)["Bootstrap null distribution"]
    assert drawn["layout"]["height"] == pytest.approx((kept.layout.height or 450) * PRESENTED)
    assert drawn["layout"]["font"]["size"] == pytest.approx(
        max(kept.layout.font.size * PRESENTED, PRESENTED_MIN_FONT))
    lead = json.loads(chart(at, "cmp_fig_hist").proto.spec)
    assert 300 <= lead["layout"]["height"] <= 450  # under the title row, within 720 px


def test_the_header_button_switches_presenting_off_and_on_and_the_url_follows():
    at = open_page(COMPARE, TITLE)
    assert at.session_state["present"] is False and "present" not in at.query_params
    assert present_button(at).label == "Present" and not styled(at)
    present_button(at).click()
    run(at)
    assert at.query_params["present"] == "1" and styled(at)
    assert present_button(at).label == "Stop presenting"
    present_button(at).click()
    run(at)
    assert "present" not in at.query_params and not styled(at)
    assert present_button(at).label == "Present"


def test_presenting_stays_across_pages_and_present_0_ends_it():
    at = open_page(COMPARE, TITLE, {"present": "1"})
    at.switch_page("views/gaussian.py")
    run(at)
    assert at.session_state["present"] is True and at.query_params["present"] == "1"
    assert styled(at)
    at.query_params["present"] = "0"
    run(at)
    assert at.session_state["present"] is False and "present" not in at.query_params


@pytest.mark.parametrize("bad", ["yes", "2", ""])
def test_an_unusable_present_value_is_named_and_the_view_is_not_presented(bad):
    at = open_page(COMPARE, TITLE, {"present": bad, "cmp_alpha_a": "0.5"})
    assert at.session_state["present"] is False and "present" not in at.query_params
    assert at.select_slider(key="cmp_alpha_a").value == 0.5
    notes = link_notes(at)
    assert notes and "present" in notes[0], notes


# --- issue 36: read from the back of the room --------------------------------------------------

def in_order(node, out=None) -> list[tuple[str, str | None]]:
    """Every element and block under ``node`` in the order the page draws them: (type, key)."""
    out = [] if out is None else out
    for child in getattr(node, "children", {}).values():
        out.append((child.type, getattr(child, "key", None)))
        in_order(child, out)
    return out


def lead_block(at):
    """The presenting mode's container of the main result (ui.present.LEAD_KEY), or None."""
    found = [b for b in at.main.children.values() if getattr(b, "key", None) == present.LEAD_KEY]
    assert len(found) <= 1
    return found[0] if found else None


# Each tool page's main result in presenting mode: its link, and the charts (keys) and kinds
# of element its lead holds (the ldp page's default tab has no chart: its aggregate does).
LEADS = {
    "views/compare_histograms.py": ({}, ["cmp_fig_hist"], {"warning", "success"}),
    "views/gaussian.py": ({}, ["gauss_fig_cal"], {"metric"}),
    "views/fdp.py": ({}, ["fdp_fig_test_curve"], {"markdown"}),
    "views/ldp.py": ({"ldp_tab": "The aggregate"}, ["ldp_fig_counts"], {"metric"}),
    "views/substitution.py": ({}, ["rs_fig_counts"], {"metric"}),
}


@pytest.mark.parametrize("script", LEADS, ids=[s.split("/")[1][:-3] for s in LEADS])
def test_presenting_draws_the_main_result_first_under_the_title(script):
    """In presenting mode the page's verdict or key numbers and its main chart come right
    under the header (before the intro, Try this and every control), the chart at the lead's
    height; the normal view keeps its order and has no such container."""
    query, charts, kinds = LEADS[script]
    spec = registry.by_name(script.split("/")[1][:-3])
    at = open_page(script, spec.title, {"present": "1", **query})
    top = [getattr(b, "key", None) or b.type for b in at.main.children.values()]
    assert present.LEAD_KEY in top, top
    # Only the header (and its empty note slot and script elements) come before it.
    before = top[:top.index(present.LEAD_KEY)]
    assert set(before) <= {"html", "page_header", "flex_container"}, before
    held = in_order(lead_block(at))
    assert [k for kind, k in held if kind == "plotly_chart"] == charts, held
    assert kinds & {kind for kind, _ in held}, held
    for key in charts:
        height = json.loads(chart(at, key).proto.spec)["layout"]["height"]
        assert 300 <= height <= 450, (key, height)  # within 720 px, under the title
    # The normal view: no lead, the chart after the page's first control, as before.
    normal = open_page(script, spec.title, query)
    assert lead_block(normal) is None
    order = in_order(normal.main)
    first_control = next(i for i, (kind, _) in enumerate(order)
                         if kind in ("slider", "select_slider", "radio", "selectbox",
                                     "segmented_control", "number_input"))
    assert all(order.index(("plotly_chart", key)) > first_control for key in charts)


def test_presenting_hides_downloads_and_chart_tables_but_the_report_is_the_same():
    """Issue 36: no CSV or HTML download and no "in words and as a table" box in presenting
    mode; the charts keep their one-sentence description for screen readers, and what the
    page kit holds for the report and the exports is the same as in the normal view."""
    normal = open_page(COMPARE, TITLE)
    normal_kit = kit(normal)
    normal_downloads = [d.key for d in normal.get("download_button")]
    assert any(k.endswith("_csv") for k in normal_downloads)
    assert any("in words and as a table" in e.label for e in normal.expander)
    at = open_page(COMPARE, TITLE, {"present": "1"})
    shown = kit(at)
    downloads = [d.key for d in at.get("download_button")]
    # The header's Report and Code downloads stay; the charts' and tables' go.
    assert not [k for k in downloads if k.endswith(("_csv", "_html"))], downloads
    assert not [e.label for e in at.expander if "in words and as a table" in e.label]
    assert [n for n, _ in shown.figures] == [n for n, _ in normal_kit.figures]
    assert [n for n, _ in shown.tables] == [n for n, _ in normal_kit.tables]
    assert shown.findings == normal_kit.findings
    assert set(shown.described) == set(normal_kit.described)  # every chart still described


def _fonts(node, path=""):
    """(path, font) of every font dict in a figure spec."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("font") and isinstance(value, dict):
                yield f"{path}.{key}", value
            yield from _fonts(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _fonts(value, f"{path}[{i}]")


def _contrast(a: str, b: str) -> float:
    def lum(c):
        rgb = [int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        rgb = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
        return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_presented_figures_read_at_3_m():
    """dpviz.style.presented: no font below 20 px, every axis's ticks and title, the legend
    and the annotations in a colour of 4.5:1 or more on white (Streamlit's theme would draw
    them light grey), text on bars in white or dark, whichever reads on the bar, and the
    height asked for; the figure itself (exports, report) is left as it was."""
    from plotly.subplots import make_subplots
    import plotly.graph_objects as go
    from dpviz import style

    fig = make_subplots(rows=1, cols=2)
    fig.add_trace(go.Bar(x=["a", "b"], y=[1, 2], text=["x", "y"],
                         marker_color=style.OKABE_ITO["orange"]), row=1, col=1)
    fig.add_trace(go.Scatter(x=[1, 2], y=[3, 4], name="line"), row=1, col=2)
    fig.add_annotation(text="note", x=1, y=1, font=dict(size=10, color="#AAAAAA"))
    fig.update_layout(font=dict(size=11), legend=dict(font=dict(size=9)), height=400)
    before = fig.to_dict()
    spec = style.presented(fig, height=350)
    assert fig.to_dict() == before
    layout = spec["layout"]
    assert layout["height"] == 350
    assert style.presented(fig)["layout"]["height"] == 400 * style.PRESENTED
    small = [(path, f["size"]) for path, f in _fonts(spec) if "size" in f
             and f["size"] < style.PRESENTED_MIN_FONT and ".template" not in path]
    assert not small, small
    for axis in ("xaxis", "yaxis", "xaxis2", "yaxis2"):
        for font in (layout[axis]["tickfont"], layout[axis]["title"]["font"]):
            assert font["size"] >= style.PRESENTED_MIN_FONT
            assert _contrast(font["color"], "#FFFFFF") >= 4.5, (axis, font)
    for font in (layout["legend"]["font"], layout["annotations"][0]["font"], layout["font"]):
        assert _contrast(font["color"], "#FFFFFF") >= 4.5, font
    bar = spec["data"][0]
    assert _contrast(bar["insidetextfont"]["color"], style.OKABE_ITO["orange"]) >= 4.5
