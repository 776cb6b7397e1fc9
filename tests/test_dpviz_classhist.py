"""Tests of dpviz.classhist: a release of the class histogram, one bar per bin and group, and
the privacy budget the releases have spent."""

import numpy as np
import pytest

import dpviz.describe
import dpviz.export
from dpviz import classhist
from dpviz.style import COLORS, inert_labels, presented
from vizkit import bar_traces, serialises

BINS = ["< 5", "5–6", "6–7", "≥ 7"]
GROUPS = ["Section A", "Section B"]
SHOWN = inert_labels(BINS)  # "< 5" as "&lt; 5": Plotly shows it as typed
NOISY = np.array([[3.25, 9.5, 0.0, 4.0], [0.0, 7.75, 12.125, 1.5]])


def test_a_release_draws_each_groups_noisy_counts_in_the_bins_order():
    fig = classhist.release_figure(BINS, GROUPS, NOISY)
    bars = bar_traces(fig)
    assert [b.name for b in bars] == GROUPS
    for bar, row, color in zip(bars, NOISY, classhist.GROUP_COLORS):
        assert list(bar.x) == SHOWN and bar.orientation in (None, "v")
        np.testing.assert_allclose(bar.y, row)
        assert bar.marker.color == color
        assert bar.showlegend is True
        assert list(bar.text) == [f"{v:,.1f}" for v in row]  # 8 bars: each says its value
    assert classhist.GROUP_COLORS[:2] == (COLORS["A"], COLORS["B"])
    assert fig.layout.barmode == "group"
    assert fig.layout.xaxis.type == "category" and list(fig.layout.xaxis.tickvals) == SHOWN
    assert fig.layout.yaxis.title.text == "noisy count"
    low, high = fig.layout.yaxis.range
    assert low == 0 and high > NOISY.max()  # room for the values above the bars
    assert fig.layout.height == 400
    serialises(fig)


def test_a_release_across_for_a_phone_puts_the_first_bin_on_top():
    fig = classhist.release_figure(BINS, GROUPS, NOISY, horizontal=True)
    for bar, row in zip(bar_traces(fig), NOISY):
        assert bar.orientation == "h" and list(bar.y) == SHOWN
        np.testing.assert_allclose(bar.x, row)
    assert fig.layout.yaxis.autorange == "reversed"
    assert fig.layout.xaxis.title.text == "noisy count"
    assert fig.layout.height == 140 + 34 * 8 + 24 * 4
    serialises(fig)


def test_one_group_is_one_trace_without_a_legend_and_a_1d_release_is_accepted():
    fig = classhist.release_figure(BINS, ["The whole class"], NOISY[0])
    [bar] = bar_traces(fig)
    assert bar.showlegend is False and bar.name == "The whole class"
    np.testing.assert_allclose(bar.y, NOISY[0])


def test_many_bars_leave_out_their_values_and_an_empty_release_keeps_an_axis():
    bins = [f"bin {i}" for i in range(20)]
    fig = classhist.release_figure(bins, ["A", "B", "C", "D"], np.zeros((4, 20)))
    assert all(bar.text is None for bar in bar_traces(fig))
    assert [bar.marker.color for bar in bar_traces(fig)] == list(classhist.GROUP_COLORS)
    assert tuple(fig.layout.yaxis.range) == (0, 1.0)  # all 0: the axis still runs to 1
    serialises(fig)


@pytest.mark.parametrize(("groups", "noisy", "match"), [
    (GROUPS, NOISY[:, :3], r"groups × bins = \(2, 4\)"),
    (["A"], NOISY, r"groups × bins = \(1, 4\)"),
    (["A", "B", "C", "D", "E"], np.zeros((5, 4)), "1 to 4 groups"),
    (GROUPS, NOISY - 1, "finite counts ≥ 0"),
    (GROUPS, np.where(NOISY > 5, np.nan, NOISY), "finite counts ≥ 0"),
])
def test_a_release_of_the_wrong_shape_or_with_negative_counts_is_refused(groups, noisy, match):
    with pytest.raises(ValueError, match=match):
        classhist.release_figure(BINS, groups, noisy)


def test_the_teachers_text_is_inert_and_wrapped_on_the_axis_only():
    bins = ["<b>few</b>", "<a href='https://evil.example'>x</a> & more", "y" * 30]
    groups = ["<i>A</i>"]
    fig = classhist.release_figure(bins, groups, [[1.0, 2.0, 3.0]])
    inert = ["&lt;b&gt;few&lt;/b&gt;", "&lt;a href='https://evil.example'&gt;x&lt;/a&gt; "
             "&amp; more", "y" * 30]
    [bar] = bar_traces(fig)
    assert list(bar.x) == inert and bar.name == "&lt;i&gt;A&lt;/i&gt;"
    ticks = list(fig.layout.xaxis.ticktext)
    assert ticks[0] == inert[0]
    assert "<br>" in ticks[2] and ticks[2].replace("<br>", "") == "y" * 30
    assert "<a " not in "".join(ticks) and "<b>" not in "".join(ticks)
    # the exports read the labels as typed
    data = dpviz.export.figure_data(fig)
    assert set(bins) <= set(data.astype(str).to_numpy().ravel())


def test_the_budget_is_a_bar_of_the_releases_alphas_then_what_is_left():
    fig = classhist.budget_figure([0.5, 0.25, 0.25], 2.0)
    bars = bar_traces(fig)
    assert [b.name for b in bars] == ["release 1: α = 0.5", "release 2: α = 0.25",
                                      "release 3: α = 0.25", "left"]
    assert [float(b.x[0]) for b in bars] == [0.5, 0.25, 0.25, 1.0]
    assert all(b.orientation == "h" for b in bars)
    assert fig.layout.barmode == "stack"
    assert bars[0].marker.color == COLORS["private"] != bars[1].marker.color
    assert bars[0].marker.color == bars[2].marker.color  # neighbours alternate
    assert tuple(fig.layout.xaxis.range) == pytest.approx((0, 2.0), rel=1e-2)
    assert "add up" in fig.layout.xaxis.title.text
    assert "%{x:.4~g}" in bars[0].hovertemplate
    serialises(fig)


def test_a_budget_without_releases_is_all_left_and_a_spent_one_has_nothing_left():
    [left] = bar_traces(classhist.budget_figure([], 1.0))
    assert left.name == "left" and float(left.x[0]) == 1.0
    bars = bar_traces(classhist.budget_figure([0.1, 0.2], 0.3))
    assert float(bars[-1].x[0]) == 0.0  # 0.1 + 0.2 is the whole 0.3: nothing left, not < 0
    assert [b.name for b in bars[:2]] == ["release 1: α = 0.1", "release 2: α = 0.2"]


@pytest.mark.parametrize(("alphas", "total"), [([0.5], 0.0), ([0.5], float("nan")),
                                               ([0.0], 1.0), ([-0.5], 1.0),
                                               ([float("inf")], 1.0)])
def test_a_budget_with_a_bad_alpha_or_total_is_refused(alphas, total):
    with pytest.raises(ValueError):
        classhist.budget_figure(alphas, total)


def test_both_figures_are_described_and_present_larger():
    for fig in (classhist.release_figure(BINS, GROUPS, NOISY),
                classhist.budget_figure([0.5, 1.0], 2.0)):
        summary = dpviz.describe.figure_summary(fig)
        assert summary.startswith("Bar chart")
        frame, total = dpviz.describe.figure_table(fig)
        assert total == len(frame) > 0
        spec = presented(fig)
        assert spec["layout"]["height"] == pytest.approx(1.25 * fig.layout.height)
        assert spec["layout"]["font"]["size"] >= 20
