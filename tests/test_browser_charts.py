"""The chart checker of the browser tests (tests/chartkit.py, issue 23), on boxes drawn by
hand: it must name a label drawn over another, over the legend, outside the chart or
across an axis line, and an SI-prefixed tick, and pass a chart that reads right. The
browser walk itself runs in tests/test_browser.py (every page, English and Korean)."""

from __future__ import annotations

from chartkit import chart_problems

PAPER = [0, 0, 600, 400]
PLOT = [60, 80, 580, 350]  # left, top, right, bottom


def chart(annotations=(), legend=(60, 10, 400, 40), ticks=("0", "0.5", "1")):
    return {"paper": PAPER, "plots": [PLOT], "legend": list(legend) if legend else None,
            "annotations": [{"text": text, "box": list(box)} for text, box in annotations],
            "ticks": list(ticks)}


def test_a_chart_that_reads_right_passes():
    assert chart_problems([chart(annotations=[("panel A", (60, 50, 200, 70)),
                                              ("panel B", (300, 50, 440, 70))],
                                 ticks=("1×10⁻⁵", "20,000", "0.1", "5%"))]) == []


def test_labels_drawn_over_each_other_or_the_legend_are_named():
    problems = chart_problems([chart(annotations=[
        ("95% critical value 467,952", (300, 100, 480, 120)),
        ("observed T = 528,049", (310, 105, 470, 125)),
        ("note", (100, 20, 180, 35)),  # inside the legend's box
    ])])
    assert any("overlaps 'observed T" in p for p in problems), problems
    assert any("'note' overlaps the legend" in p for p in problems), problems


def test_a_label_outside_the_chart_or_on_an_axis_line_is_named():
    problems = chart_problems([chart(annotations=[
        ("observed T = 108.2", (400, 340, 520, 360)),  # across the x-axis line at y = 350
        ("ε = 1", (40, 200, 80, 215)),  # across the y-axis line at x = 60
        ("far", (590, 200, 640, 215)),  # beyond the right edge of the chart
    ])])
    assert any("'observed T = 108.2' lies on an axis line" in p for p in problems), problems
    assert any("'ε = 1' lies on an axis line" in p for p in problems), problems
    assert any("'far' leaves the chart" in p for p in problems), problems


def test_si_prefixed_ticks_are_named_and_scientific_ones_pass():
    problems = chart_problems([chart(ticks=("50µ", "40μ", "2k", "1.5M", "3G", "0",
                                           "5×10⁻⁵", "1,000,000", "85+", "10%"))])
    assert sorted(p.split("SI tick ")[1] for p in problems) == sorted(
        ["'50µ'", "'40μ'", "'2k'", "'1.5M'", "'3G'"])


def test_group_labels_over_each_other_or_across_a_divider_are_named():
    """Issue 36: the calibration page's "(ε_A, ε_B) = (1, 1)" group labels ran into each
    other and across the dividers between the groups of a two-level axis."""
    c = chart()
    c["tick_boxes"] = [
        {"text": "(ε_A, ε_B) = (1, 1)", "box": [100, 380, 230, 395], "group": "x3tick2"},
        {"text": "(ε_A, ε_B) = (1, 0.1)", "box": [200, 380, 330, 395], "group": "x3tick2"},
        {"text": "1k/1k", "box": [100, 355, 110, 375], "group": "x3tick"},
        {"text": "1k/10k", "box": [120, 355, 130, 375], "group": "x3tick"},
    ]
    c["dividers"] = [[215, 350, 215, 398]]
    problems = chart_problems([c])
    assert any("'(ε_A, ε_B) = (1, 1)' overlaps '(ε_A, ε_B) = (1, 0.1)'" in p
               for p in problems), problems
    assert any("group label '(ε_A, ε_B) = (1, 1)' crosses a divider" in p
               for p in problems), problems
    assert not any("1k/1k" in p for p in problems), problems
    # short labels within their groups read right
    c["tick_boxes"][:2] = [
        {"text": "(1, 1)", "box": [150, 380, 190, 395], "group": "x3tick2"},
        {"text": "(1, 0.1)", "box": [240, 380, 290, 395], "group": "x3tick2"},
    ]
    assert chart_problems([c]) == []


def test_a_log_axis_bare_minor_digit_is_named():
    """Issue 36: Plotly labels a log axis's minor ticks "2" and "5"."""
    c = chart()
    c["log_minor"] = ["2", "5"]
    assert sorted(p.split("tick ")[1] for p in chart_problems([c])) == [
        "'2' on a log axis", "'5' on a log axis"]
