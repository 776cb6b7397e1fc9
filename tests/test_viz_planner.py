"""Tests of dpviz.planner: power, frontier and distributions figures."""

import math

import numpy as np
import pandas as pd
import pytest

import dpviz
from dpviz.style import COLORS
from vizkit import bar_traces, legend_entries, serialises


def _power_points(x="n"):
    import pandas as pd

    xs = [10_000, 1_000, 3_160, 5_620, 4_220] if x == "n" else [0.1, 0.01, 0.0316, 0.0562, 0.0422]
    power = [1.0, 0.06, 0.26, 0.87, 0.62]
    low = [0.98, 0.03, 0.2, 0.82, 0.55]
    high = [1.0, 0.1, 0.33, 0.91, 0.68]
    return pd.DataFrame({x: xs, "test": "bootstrap", "power": power, "ci_low": low,
                         "ci_high": high})


def _power_trace(fig):
    [trace] = [t for t in fig.data if t.name and t.name.startswith("simulated power")]
    return trace


@pytest.mark.parametrize("x", ["n", "alpha1"])
def test_planner_power_figure_points_bars_target_and_estimate(x):
    points = _power_points(x)
    estimate = 5_000.0 if x == "n" else 0.05
    interval = (4_220, 5_620) if x == "n" else (0.0422, 0.0562)
    fig = dpviz.planner.planner_power_figure(points, x=x, target=0.8, estimate=estimate,
                                             interval=interval, level=0.05)
    trace = _power_trace(fig)
    ordered = points.sort_values(x)
    np.testing.assert_allclose(trace.x, ordered[x])  # sorted by x
    np.testing.assert_allclose(trace.y, ordered["power"])
    np.testing.assert_allclose(trace.error_y.array, ordered["ci_high"] - ordered["power"])
    np.testing.assert_allclose(trace.error_y.arrayminus, ordered["power"] - ordered["ci_low"])
    assert trace.line.color == dpviz.planner.PLANNER_COLORS["bootstrap"]
    assert fig.layout.xaxis.type == "log"
    # The target (dashed) and the level (dotted) as horizontal lines.
    hlines = {s.y0: s for s in fig.layout.shapes if s.y0 == s.y1}
    assert set(hlines) == {0.8, 0.05}
    assert hlines[0.8].line.dash == "dash" and hlines[0.05].line.dash == "dot"
    # ... named in the legend, drawn as they are, and no label on the plot
    entries = legend_entries(fig)
    assert list(entries) == ["target power 80%", "5% level: nothing to detect"]
    assert entries["target power 80%"].line.dash == "dash"
    assert entries["5% level: nothing to detect"].line.dash == "dot"
    assert not fig.layout.annotations
    assert fig.layout.yaxis.tickformat == "~r"  # power as a decimal
    # The estimate: a marker at (estimate, target) and a dotted line down to 0.
    [est] = [t for t in fig.data if t.name and t.name.startswith("estimate")]
    assert list(est.x) == [estimate] and list(est.y) == [0.8]
    assert any(list(t.x) == [estimate, estimate] and list(t.y) == [0, 0.8] for t in fig.data)
    # The interval: a band from low to high over the whole power axis.
    [band] = [t for t in fig.data if t.fill == "toself"]
    assert min(band.x) == interval[0] and max(band.x) == interval[1]
    assert min(band.y) == 0 and max(band.y) == 1
    # The axis range covers every point and the interval (log10 units).
    lo, hi = fig.layout.xaxis.range
    assert 10 ** lo < min(points[x]) and 10 ** hi > max(points[x])
    serialises(fig)


def test_planner_power_figure_infinite_or_zero_interval_ends_go_to_the_axis_edge():
    points = _power_points()
    fig = dpviz.planner.planner_power_figure(points, target=0.8, estimate=5_000.0,
                                             interval=(0.0, math.inf))
    [band] = [t for t in fig.data if t.fill == "toself"]
    lo, hi = fig.layout.xaxis.range
    assert all(np.isfinite(band.x))
    assert min(band.x) == pytest.approx(10 ** lo) and max(band.x) == pytest.approx(10 ** hi)
    serialises(fig)


def test_planner_power_figure_without_estimate_and_with_two_tests():
    import pandas as pd

    points = pd.concat([_power_points(), _power_points().assign(test="chisq")])
    fig = dpviz.planner.planner_power_figure(points, target=0.9)
    names = [t.name for t in fig.data]
    assert not any(n and n.startswith("estimate") for n in names)
    assert not any(t.fill == "toself" for t in fig.data)
    curves = [t for t in fig.data if t.name and "simulated power" in t.name]
    assert [c.line.dash for c in curves] == ["solid", "dash"]
    assert "naive χ²" in curves[1].name
    with pytest.raises(ValueError, match="`x` must be one of"):
        dpviz.planner.planner_power_figure(points, x="m", target=0.9)


def _frontier_table():
    import pandas as pd

    inf = math.inf
    rows = [
        # alpha1, test, n, n_low, n_high, status, type1, valid
        (1.0, "bootstrap", 1520, 1480.0, 1840.0, "found", 0.015, True),
        (0.1, "bootstrap", 5216, 4630.0, 5350.0, "found", 0.055, True),
        (0.01, "bootstrap", 46700, 41900.0, inf, "found", 0.06, True),
        (0.001, "bootstrap", None, 1e8, inf, "unreachable", math.nan, True),
        (1.0, "chisq", 1403, 1240.0, 1660.0, "found", 0.07, True),
        (0.1, "chisq", 100, 0.0, 100.0, "at_lower_bound", 1.0, False),
        (0.01, "chisq", 100, 0.0, 100.0, "at_lower_bound", 1.0, False),
    ]
    table = pd.DataFrame(rows, columns=["alpha1", "test", "n", "n_low", "n_high", "status",
                                        "type1", "valid"])
    return table.assign(alpha2=table["alpha1"])


def test_planner_frontier_figure_curves_bars_invalid_points_and_current():
    table = _frontier_table()
    fig = dpviz.planner.planner_frontier_figure(table, current=(0.1, 10_000), level=0.05, power=0.8)
    by_name = {t.name: t for t in fig.data}
    # One line per test, through the found points, sorted by α; the naive test dashed.
    boot_line, chisq_line = by_name["parametric bootstrap"], by_name["naive χ²"]
    assert list(boot_line.x) == [0.01, 0.1, 1.0] and list(boot_line.y) == [46700, 5216, 1520]
    assert list(chisq_line.x) == [0.01, 0.1, 1.0] and list(chisq_line.y) == [100, 100, 1403]
    assert boot_line.line.dash == "solid" and chisq_line.line.dash == "dash"
    # Valid bootstrap markers with error bars n_low … n_high; an infinite end has no bar.
    [boot] = [t for t in fig.data if t.name == "parametric bootstrap: holds the 5% level"]
    assert list(boot.y) == [46700, 5216, 1520]
    np.testing.assert_allclose(boot.error_y.array, [0, 5350 - 5216, 1840 - 1520])
    np.testing.assert_allclose(boot.error_y.arrayminus, [46700 - 41900, 5216 - 4630, 40])
    # The invalid χ² points: their own trace and legend entry, open crosses labelled.
    [bad] = [t for t in fig.data if "invalid" in t.name]
    assert bad.name.startswith("naive χ²: invalid, does not hold its level")
    assert "5% level" in bad.name and bad.showlegend is not False
    assert list(bad.x) == [0.01, 0.1] and list(bad.y) == [100, 100]
    assert bad.marker.symbol == "x-thin-open" and list(bad.text) == ["invalid", "invalid"]
    np.testing.assert_allclose(bad.error_y.arrayminus, [0, 0])  # n_low = 0 is not drawn
    [good_chisq] = [t for t in fig.data if t.name == "naive χ²: holds the 5% level"]
    assert list(good_chisq.x) == [1.0] and good_chisq.marker.symbol == "circle"
    # The unreachable α: an upward triangle at the largest N searched.
    [beyond] = [t for t in fig.data if "more than the largest N" in t.name]
    assert list(beyond.x) == [0.001] and list(beyond.y) == [1e8]
    # The current choice.
    [star] = [t for t in fig.data if t.name.startswith("your choice")]
    assert list(star.x) == [0.1] and list(star.y) == [10_000] and star.marker.symbol == "star"
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert "80% power" in fig.layout.yaxis.title.text
    lo, hi = fig.layout.yaxis.range
    assert 10 ** lo < 100 and 10 ** hi > 1e8  # every point and the star are in view
    serialises(fig)


def test_planner_frontier_figure_all_valid_has_no_invalid_entry():
    table = _frontier_table()
    table["valid"] = True
    fig = dpviz.planner.planner_frontier_figure(table)
    assert not any("invalid" in t.name for t in fig.data)
    assert not any(t.name.startswith("your choice") for t in fig.data)
    assert all(t.showlegend is False for t in fig.data if t.name.endswith("holds the level"))
    serialises(fig)


def test_planner_frontier_figure_names_the_normal_score_test_apart_from_algorithm_1():
    """The planner's frontier of the normal-score test (and dpcore's of all three tests): a
    solid line of its own colour and name, never drawn or named as Algorithm 1."""
    table = _frontier_table()
    ours = table[table["test"] == "bootstrap"].assign(test="normal_score")
    fig = dpviz.planner.planner_frontier_figure(pd.concat([ours, table[table["test"] == "chisq"]]),
                                                level=0.05)
    lines = [t for t in fig.data if t.mode == "lines"]
    assert [t.name for t in lines] == ["normal-score", "naive χ²"]
    assert lines[0].line.dash == "solid" and lines[1].line.dash == "dash"
    color = dpviz.planner.PLANNER_COLORS["normal_score"]
    assert lines[0].line.color == color != dpviz.planner.PLANNER_COLORS["bootstrap"]
    assert color not in (dpviz.planner.PLANNER_COLORS["chisq"],
                         dpviz.planner.PLANNER_COLORS["current"])
    [points] = [t for t in fig.data if t.name == "normal-score: holds the 5% level"]
    assert points.marker.color == color and list(points.y) == [46700, 5216, 1520]
    assert any(t.name == "normal-score: more than the largest N searched" for t in fig.data)
    every = pd.concat([table, ours])
    lines = [t for t in dpviz.planner.planner_frontier_figure(every).data if t.mode == "lines"]
    assert [t.name for t in lines] == ["parametric bootstrap", "normal-score", "naive χ²"]
    power = dpviz.planner.planner_power_figure(_power_points().assign(test="normal_score"),
                                               target=0.8)
    assert _power_trace(power).line.color == color
    serialises(fig)


def test_planner_distributions_figure():
    fig = dpviz.planner.planner_distributions_figure(["0–9", "10+"], [0.4, 0.6], [0.5, 0.5],
                                                     name_a="Seoul", name_b="Busan")
    bars = bar_traces(fig)
    assert [b.name for b in bars] == ["Seoul", "Busan"]
    assert list(bars[0].y) == [0.4, 0.6] and list(bars[1].x) == ["0–9", "10+"]
    assert bars[0].marker.color == COLORS["A"] and bars[1].marker.color == COLORS["B"]
    serialises(fig)


def test_planner_power_figure_names_epsilon_and_the_estimate_as_the_page_writes_it():
    """Issue 18: the privacy axis is ε (α in Son, Park & Jung 2022 is said on the page), and
    the estimate's legend entry is the page's text, to the precision of its interval."""
    fig = dpviz.planner.planner_power_figure(
        _power_points("alpha1"), x="alpha1", target=0.8, estimate=0.0512,
        interval=(0.0422, 0.0562), estimate_text="about 0.05 (0.0422–0.0562)")
    assert fig.layout.xaxis.title.text.startswith("privacy level ε (log scale")
    assert "estimate: about 0.05 (0.0422–0.0562)" in {t.name for t in fig.data}
    frontier = pd.DataFrame({"alpha1": [0.1], "test": "bootstrap", "n": [5000.0],
                             "n_low": [4000.0], "n_high": [6000.0], "type1": [0.05],
                             "valid": [True]})
    fig = dpviz.planner.planner_frontier_figure(frontier, current=(0.1, 10_000), level=0.05,
                                                power=0.8)
    assert "α" not in fig.layout.xaxis.title.text and "ε" in fig.layout.xaxis.title.text
    assert any(t.name == "your choice: ε = 0.1, N = 10,000" for t in fig.data)
