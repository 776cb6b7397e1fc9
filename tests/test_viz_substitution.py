"""Tests of dpviz.substitution: the random-substitution figures against l."""

import math

import numpy as np

from dpviz.style import COLORS
from dpviz.substitution import (SUBSTITUTION_COLORS, substitution_bias_figure,
                                substitution_cost_figure, substitution_counts_figure,
                                substitution_epsilon_figure, substitution_error_figure)
from vizkit import bar_traces, data_traces, legend_entries, serialises


def test_substitution_counts_figure_bars_markers_and_released_over_l():
    labels = ["a", "b", 3]
    original = [10.0, 20.0, 30.0]
    released = [24.0, 40.0, 56.0]  # Y*, sums to n·l = 60·2
    source = [11.0, 19.5, 29.5]
    unbiased = [9.0, 21.0, 30.0]
    fig = substitution_counts_figure(labels, original, released, source, unbiased, l=2)
    assert [t.type for t in fig.data] == ["bar", "bar", "scatter", "scatter"]
    x_bar, y_bar, unb, src = fig.data
    for trace in fig.data:
        assert list(trace.x) == ["a", "b", "3"]
    assert list(x_bar.y) == original and x_bar.name == "original X"
    np.testing.assert_allclose(y_bar.y, np.array(released) / 2)  # drawn as Y*/l
    np.testing.assert_allclose(y_bar.customdata, released)  # Y* on hover
    assert "Y*/l" in y_bar.name
    assert list(src.y) == source and list(unb.y) == unbiased
    assert src.mode == unb.mode == "markers"
    assert (x_bar.marker.color, y_bar.marker.color) == (COLORS["original"], COLORS["private"])
    assert src.marker.color == SUBSTITUTION_COLORS["source"] == COLORS["statistic"]
    assert unb.marker.color == SUBSTITUTION_COLORS["unbiased"] == COLORS["estimate"]
    assert "source" in src.name and "unbiased" in unb.name
    assert any(s.y0 == 0 and s.y1 == 0 for s in fig.layout.shapes)
    serialises(fig)


def test_substitution_counts_figure_at_l_1_shows_y():
    fig = substitution_counts_figure(["a", "b"], [1, 2], [2, 1], [1.5, 1.5], [1.5, 1.5])
    assert fig.data[1].name == "released Y"
    assert list(fig.data[1].y) == [2.0, 1.0]


def _error_curves():
    import pandas as pd

    return pd.DataFrame({"l": [3, 1, 2], "bound": [0.3, 0.6, 0.45],
                         "source": [0.31, 0.5, 0.36], "unbiased": [0.33, 0.5, 0.38]})


def test_substitution_error_figure_curves_points_and_current_l():
    import pandas as pd

    points = pd.DataFrame({"estimator": ["source", "unbiased"], "actual": [0.35, 0.39],
                           "actual_se": [0.01, 0.02]})
    fig = substitution_error_figure(_error_curves(), current_l=2, points=points)
    by_name = {t.name: t for t in data_traces(fig)}
    bound = by_name["Theorem 4.1 bound / √l"]
    assert list(bound.x) == [1, 2, 3] and list(bound.y) == [0.6, 0.45, 0.3]  # sorted by l
    assert bound.line.dash == "dash" and bound.line.color == COLORS["theory"]
    for kind, ys in (("source", [0.5, 0.36, 0.31]), ("unbiased", [0.5, 0.38, 0.33])):
        [curve] = [t for t in fig.data if t.name.startswith("exact error") and kind in t.name]
        assert list(curve.y) == ys
        assert curve.line.color == SUBSTITUTION_COLORS[kind]
        [point] = [t for t in fig.data if t.name.startswith("simulated") and kind in t.name]
        assert list(point.x) == [2.0]
        row = points.set_index("estimator").loc[kind]
        assert list(point.y) == [row.actual]
        np.testing.assert_allclose(point.error_y.array, [2 * row.actual_se])  # ± 2 SE
    assert fig.layout.yaxis.type == "log"
    ticks = list(fig.layout.yaxis.tickvals)
    assert ticks[0] <= 0.3 and ticks[-1] >= 0.6  # the ticks cover every value
    [line] = [s for s in fig.layout.shapes if s.x0 == s.x1]
    assert line.x0 == 2.0
    assert list(legend_entries(fig)) == ["l = 2"] and not fig.layout.annotations
    serialises(fig)


def test_substitution_error_figure_without_points():
    fig = substitution_error_figure(_error_curves(), current_l=1)
    assert len(data_traces(fig)) == 3
    assert not any(t.name.startswith("simulated") for t in fig.data)


def test_substitution_epsilon_figure_three_curves_and_ln_gamma():
    import pandas as pd

    log_gamma = math.log(10)
    table = pd.DataFrame({"l": [1, 2, 3], "bound": [log_gamma, 2 * log_gamma, 3 * log_gamma],
                          "ordered": [log_gamma, 2.47, 2.6], "exact": [log_gamma, 2.39, 2.5]})
    fig = substitution_epsilon_figure(table, current_l=3, log_gamma=log_gamma)
    assert len(data_traces(fig)) == 3
    for trace, kind in zip(fig.data, ("bound", "ordered", "exact")):
        assert list(trace.x) == [1, 2, 3]
        np.testing.assert_allclose(trace.y, table[kind])
        assert trace.line.color == SUBSTITUTION_COLORS[kind]
    assert fig.data[0].line.dash == "dash" and "γ^l" in fig.data[0].name
    assert "released set" in fig.data[2].name and "order" in fig.data[1].name
    assert fig.layout.yaxis.type == "log"
    horizontal = [s for s in fig.layout.shapes if s.y0 == s.y1]
    assert [s.y0 for s in horizontal] == [log_gamma]
    vertical = [s for s in fig.layout.shapes if s.x0 == s.x1]
    assert [s.x0 for s in vertical] == [3.0]
    # ln γ and the chosen l named in the legend (on the plot they met the curves), each
    # drawn as its line is.
    entries = legend_entries(fig)
    assert list(entries) == ["ln γ = 2.3 (l = 1, k-RR)", "l = 3"]
    assert entries["ln γ = 2.3 (l = 1, k-RR)"].line.dash == horizontal[0].line.dash
    assert entries["l = 3"].line.dash == vertical[0].line.dash
    assert not fig.layout.annotations
    serialises(fig)


def test_substitution_cost_figure_two_panels():
    import pandas as pd

    table = pd.DataFrame({"l": [1, 2, 4], "draws_ratio": [1.0, 1.02, 1.07],
                          "collision": [0.0, 0.04, 0.2]})
    fig = substitution_cost_figure(table, current_l=2)
    draws, collision = fig.data
    assert list(draws.x) == [1, 2, 4] and list(draws.y) == [1.0, 1.02, 1.07]
    assert list(collision.y) == [0.0, 0.04, 0.2]
    assert (draws.xaxis, collision.xaxis) == ("x", "x2")  # one panel each
    assert draws.line.color == SUBSTITUTION_COLORS["draws"]
    assert collision.line.color == SUBSTITUTION_COLORS["collision"]
    vertical = [s for s in fig.layout.shapes if s.x0 == s.x1]
    assert [s.x0 for s in vertical] == [2.0, 2.0]  # in both panels
    assert list(fig.layout.yaxis2.range) == [0, 1.02]
    serialises(fig)


def test_substitution_bias_figure_exact_bars_and_simulated_means():
    labels = ["a", "b", "c"]
    original = np.array([10.0, 20.0, 30.0])
    exact = [1.5, 0.0, -1.5]
    rng = np.random.default_rng(1)
    source = original + rng.normal(0, 2, size=(50, 3)) + exact
    unbiased = original + rng.normal(0, 3, size=(50, 3))
    fig = substitution_bias_figure(labels, original, exact,
                                   {"source": source, "unbiased": unbiased})
    bars = bar_traces(fig)
    assert len(bars) == 1 and list(bars[0].y) == exact
    [zero] = [t for t in fig.data if t.type == "scatter" and t.mode == "lines"]
    assert list(zero.y) == [0, 0, 0]
    assert zero.line.color == SUBSTITUTION_COLORS["unbiased"]
    for kind, est in (("source", source), ("unbiased", unbiased)):
        [trace] = [t for t in fig.data if t.type == "scatter" and t.mode == "markers"
                   and kind in t.name]
        np.testing.assert_allclose(trace.y, est.mean(axis=0) - original)
        # ± 2 standard errors of the mean: 2 s/√R
        se = np.sqrt(((est - est.mean(axis=0)) ** 2).sum(axis=0) / 49) / math.sqrt(50)
        np.testing.assert_allclose(trace.error_y.array, 2 * se)
        assert "R = 50" in trace.name
        assert trace.marker.color == SUBSTITUTION_COLORS[kind]
    serialises(fig)


def test_substitution_bias_figure_one_estimator():
    fig = substitution_bias_figure(["a", "b"], [1, 2], [0.1, -0.1],
                                   {"unbiased": np.array([[1.0, 2.0], [1.2, 1.8]])})
    markers = [t for t in fig.data if t.type == "scatter" and t.mode == "markers"]
    assert len(markers) == 1 and "unbiased" in markers[0].name
    np.testing.assert_allclose(markers[0].y, [0.1, -0.1])


def test_substitution_colours_come_from_the_scheme():
    assert set(SUBSTITUTION_COLORS.values()) <= set(COLORS.values())
    assert SUBSTITUTION_COLORS["source"] != SUBSTITUTION_COLORS["unbiased"]


def test_substitution_curves_of_one_l_are_drawn_as_markers():
    """N = 2 leaves l = 1 only: a line through one point would not show."""
    import pandas as pd

    one = pd.DataFrame({"l": [1], "bound": [0.6], "source": [0.5], "unbiased": [0.5]})
    fig = substitution_error_figure(one, current_l=1)
    assert {t.mode for t in data_traces(fig)} == {"markers"}
    table = pd.DataFrame({"l": [1], "bound": [2.3], "ordered": [2.3], "exact": [2.3]})
    fig = substitution_epsilon_figure(table, current_l=1, log_gamma=2.3)
    assert {t.mode for t in data_traces(fig)} == {"markers"}
    assert substitution_epsilon_figure(
        pd.concat([table, table.assign(l=2)]), current_l=1, log_gamma=2.3).data[0].mode == "lines"
