"""Tests of dpviz.poll: the class poll's shares figure and how its interval narrows."""

import numpy as np
import pytest

import dpviz.describe
import dpviz.export
import dpviz.poll
from dpviz.style import COLORS, presented
from vizkit import bar_traces, serialises

LABELS = ["Yes", "No", "Maybe"]
REPORTED = np.array([14, 9, 7]) / 30
ESTIMATE = np.array([0.55, 0.32, 0.13])
HALF = np.array([0.21, 0.2, 0.19])


def shares_figure(labels=LABELS, **kwargs):
    return dpviz.poll.poll_shares_figure(labels, REPORTED, ESTIMATE, ESTIMATE - HALF,
                                         ESTIMATE + HALF, **kwargs)


def test_the_shares_figure_draws_the_reported_and_estimated_shares():
    fig = shares_figure()
    reported, estimate = bar_traces(fig)
    assert len(fig.data) == 2
    for bar in (reported, estimate):
        assert bar.orientation == "h" and list(bar.y) == LABELS
    np.testing.assert_allclose(reported.x, REPORTED)
    np.testing.assert_allclose(estimate.x, ESTIMATE)
    assert (reported.marker.color, estimate.marker.color) == (COLORS["private"],
                                                               COLORS["estimate"])
    assert reported.error_x.array is None
    assert "approx. 95 % interval" in estimate.name
    assert fig.layout.yaxis.autorange == "reversed"  # the first answer on top
    assert fig.layout.xaxis.tickformat == ".0%"
    assert fig.layout.barmode == "group"
    serialises(fig)


def test_the_error_bars_are_exactly_the_interval_given():
    lower = ESTIMATE - [0.1, 0.25, 0.3]  # not symmetric: each end as given
    upper = ESTIMATE + [0.2, 0.05, 0.1]
    fig = dpviz.poll.poll_shares_figure(LABELS, REPORTED, ESTIMATE, lower, upper,
                                        interval_name="± 1.96 SE")
    e = bar_traces(fig)[1]
    assert e.error_x.symmetric is False
    np.testing.assert_allclose(np.asarray(e.x) + np.asarray(e.error_x.array), upper)
    np.testing.assert_allclose(np.asarray(e.x) - np.asarray(e.error_x.arrayminus), lower)
    np.testing.assert_allclose(np.asarray(e.customdata, dtype=float), np.c_[lower, upper])
    assert e.name == "estimated true share, ± 1.96 SE"
    assert "± 1.96 SE: %{customdata[0]:.1%}" in e.hovertemplate


def test_an_estimate_below_0_gets_a_line_at_0_and_the_axis_reaches_every_end():
    lower = np.array([0.3, 0.1, -0.2])
    upper = np.array([0.8, 0.6, 1.1])
    fig = dpviz.poll.poll_shares_figure(LABELS, REPORTED, [0.55, 0.35, -0.05], lower, upper)
    low, high = fig.layout.xaxis.range
    assert low < -0.2 and high > 1.1
    assert [(s.x0, s.x1) for s in fig.layout.shapes] == [(0.0, 0.0)]
    inside = dpviz.poll.poll_shares_figure(LABELS, REPORTED, ESTIMATE, ESTIMATE - 0.1,
                                           ESTIMATE + 0.1)
    assert not inside.layout.shapes  # all ≥ 0: 0 is the axis's start
    low, high = inside.layout.xaxis.range
    assert low <= 0 and high >= 1  # the whole scale, 0 to 100 %


def test_the_teachers_text_is_inert_and_wrapped_on_the_axis_only():
    labels = ["<b>yes</b>", "<a href='https://evil.example'>no</a> & more", "x" * 50,
              "a rather long answer with several words in it"]
    fig = dpviz.poll.poll_shares_figure(labels, [0.25] * 4, [0.25] * 4, [0.1] * 4, [0.4] * 4)
    inert = ["&lt;b&gt;yes&lt;/b&gt;",
             "&lt;a href='https://evil.example'&gt;no&lt;/a&gt; &amp; more", "x" * 50,
             "a rather long answer with several words in it"]
    for bar in bar_traces(fig):
        assert list(bar.y) == inert  # whole: the exports and descriptions read it as typed
    ticks = list(fig.layout.yaxis.ticktext)
    assert list(fig.layout.yaxis.tickvals) == inert
    assert ticks[0] == inert[0]
    assert "<" not in ticks[1].replace("<br>", "")
    assert ticks[2] == "<br>".join(["x" * 22, "x" * 22, "x" * 6])
    assert ticks[3] == "a rather long answer<br>with several words in<br>it"
    # the CSV of the figure holds the answers as typed
    data = dpviz.export.figure_data(fig)
    assert labels[1] in set(data["y"])
    assert "Bar chart" in dpviz.describe.figure_summary(fig)
    serialises(fig)


def test_the_shares_figure_checks_its_lengths():
    with pytest.raises(ValueError, match="estimate"):
        dpviz.poll.poll_shares_figure(LABELS, REPORTED, ESTIMATE[:2], ESTIMATE, ESTIMATE)


def test_the_scaling_figure_marks_this_class():
    students = np.array([30, 60, 120, 240, 480, 960])
    half = 0.3 / np.sqrt(students / 30)
    fig = dpviz.poll.poll_scaling_figure(students, half, current=30)
    line, mark = fig.data
    np.testing.assert_allclose(line.x, students)
    np.testing.assert_allclose(line.y, half)
    assert list(mark.x) == [30] and list(mark.y) == [pytest.approx(0.3)]
    assert fig.layout.xaxis.type == "log"
    assert list(fig.layout.xaxis.tickvals) == students.tolist()
    assert list(fig.layout.xaxis.ticktext) == ["30", "60", "120", "240", "480", "960"]
    assert fig.layout.yaxis.tickformat == ".0%"
    serialises(fig)
    with pytest.raises(ValueError, match="one length"):
        dpviz.poll.poll_scaling_figure(students, half[:-1], current=30)


def test_both_figures_enlarge_for_a_projector():
    for fig in (shares_figure(), dpviz.poll.poll_scaling_figure([10, 20], [0.3, 0.2],
                                                                current=10)):
        spec = presented(fig)
        assert spec["layout"]["height"] > fig.layout.height
