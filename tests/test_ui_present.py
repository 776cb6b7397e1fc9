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
from dpviz.style import PRESENTED
from ui import internals

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
    # Charts are drawn larger; what the kit keeps for exports and the report is not.
    drawn = json.loads(chart(at, "cmp_fig_hist").proto.spec)
    kept = dict(kit(at).figures)["Original and private histograms"]
    assert drawn["layout"]["height"] == pytest.approx((kept.layout.height or 450) * PRESENTED)
    assert drawn["layout"]["font"]["size"] == pytest.approx(kept.layout.font.size * PRESENTED)


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
