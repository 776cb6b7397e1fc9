"""Numbers of people N on screen (issue 36): never "50M" beside M, the number of bins.

N is shown in words in English ("50 million") and in 만 / 억 units in Korean ("5천만"); its
link value keeps the form links have always had ("ldp_n=50M", "cmp_n=1,000"), so an old
link and a new one open the same view.
"""

from __future__ import annotations

import pytest

from conftest import open_page, run, thread_speaking
from pagekit import link_notes, link_view
from ui import registry
from ui.controls import N_GRID, people_from_link
from ui.format import fmt_people


@pytest.mark.parametrize(("n", "english", "korean"), [
    (1_000, "1,000", "1,000"), (5_000, "5,000", "5,000"), (10_000, "10,000", "1만"),
    (50_000, "50,000", "5만"), (200_000, "200,000", "20만"), (1_000_000, "1 million", "100만"),
    (5_000_000, "5 million", "500만"), (10_000_000, "10 million", "1천만"),
    (50_000_000, "50 million", "5천만"), (100_000_000, "100 million", "1억"),
    (1_500_000, "1.5 million", "150만"), (123_456, "123,456", "123,456"),
])
def test_n_is_written_in_words_in_english_and_in_man_units_in_korean(n, english, korean):
    with thread_speaking("en"):
        assert fmt_people(n) == english
    with thread_speaking("ko"):
        assert fmt_people(n) == korean


def test_a_link_value_is_read_in_its_old_forms():
    assert people_from_link("50M", N_GRID) == 50_000_000
    assert people_from_link("1,000", N_GRID) == 1_000
    assert people_from_link("50000000", N_GRID) == 50_000_000
    assert people_from_link("50 million", N_GRID) is None  # never written in a link
    assert people_from_link("7", N_GRID) is None and people_from_link(None, N_GRID) is None


def _shown_options(at, key: str) -> list[str]:
    return list(at.select_slider(key=key).proto.options)


def test_an_old_link_opens_the_same_view_and_keeps_its_form():
    """?ldp_n=50M (as links have always written it): the slider is at 50,000,000, shows
    "5천만" (no "M" anywhere among its labels), and the address, so the Share link, still
    says 50M; the new link opens the same view as the old one."""
    with thread_speaking("ko"):
        old = open_page(registry.LDP.script, None, {"lang": "ko", "ldp_n": "50M"})
        slider = old.select_slider(key="ldp_n")
        assert slider.value == 50_000_000
        assert "5천만" in _shown_options(old, "ldp_n")
        assert not [o for o in _shown_options(old, "ldp_n") if o.endswith("M")]
        assert old.query_params["ldp_n"] == "50M" and not link_notes(old)
        again = open_page(registry.LDP.script, None,
                          {k: old.query_params[k] for k in old.query_params})
        assert link_view(again) == link_view(old)
    english = open_page(registry.LDP.script, None, {"ldp_n": "50000000"})
    assert english.select_slider(key="ldp_n").value == 50_000_000
    assert "50 million" in _shown_options(english, "ldp_n")


def test_moving_the_slider_writes_the_link_form_and_leaves_the_default_out():
    at = open_page(registry.LDP.script, None, {})
    at.select_slider(key="ldp_n").set_value(20_000_000)
    run(at)
    assert at.query_params["ldp_n"] == "20M"
    at.select_slider(key="ldp_n").set_value(10_000)  # the default
    run(at)
    assert "ldp_n" not in at.query_params
    assert at.select_slider(key="ldp_n").value == 10_000


def test_an_unusable_n_in_a_link_is_reset_and_named():
    at = open_page(registry.LDP.script, None, {"ldp_n": "50X"})
    assert at.select_slider(key="ldp_n").value == 10_000
    [note] = link_notes(at)
    assert "ldp_n" in note and "ldp_n" not in at.query_params


def test_the_calibration_forms_n_chips_are_words_and_their_link_keeps_its_form():
    """The chips of the live simulation's N sat beside "Bins M" as "1M … 50M"."""
    with thread_speaking("ko"):
        at = open_page(registry.CALIBRATION.script, None,
                       {"lang": "ko", "cal_tab": "Type-I error and power",
                        "cal_ns": ["1M", "50M"]}, timeout=180)
        box = at.multiselect(key="cal_ns")
        assert box.value == [1_000_000, 50_000_000]
        assert {"100만", "5천만"} <= set(box.options) and not link_notes(at)
        assert at.query_params["cal_ns"] == ["1M", "50M"]
