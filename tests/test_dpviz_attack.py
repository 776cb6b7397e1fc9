"""Tests of dpviz.attack: the class game's trade-off plot (the curve, random guessing, the
students' points with their intervals as error bars, the pooled point, the best attacker)."""

import json

import numpy as np
import pytest

import dpviz.attack
import dpviz.describe
import dpviz.export
from dpcore import attack
from dpviz.attack import ATTACK_COLORS
from dpviz.fdp import FDP_COLORS
from dpviz.style import is_legend_entry, presented
from vizkit import data_traces, legend_entries, serialises

ALPHA = np.linspace(0.0, 1.0, 101)
F = attack.mechanism_tradeoff("laplace", 1.0)
TALLIES = [attack.AttackTally(3, 10, 4, 10), attack.AttackTally(0, 50, 0, 50),
           attack.AttackTally(6, 9, 2, 11)]
VERDICT = attack.beyond_curve(TALLIES, F)


def row(p):
    return [p.alpha, p.beta, *p.alpha_interval, *p.beta_interval]


def class_figure(**kwargs):
    return dpviz.attack.attack_figure(
        ALPHA, F(ALPHA), curve_name="f", color=FDP_COLORS["laplace"],
        students=[row(p) for p in VERDICT.students],
        flagged=[p.beyond for p in VERDICT.students], pooled=row(VERDICT.pooled),
        best=attack.best_guess_errors("laplace", 1.0), **kwargs)


def by_name(fig):
    return {t.name: t for t in data_traces(fig)}


def test_the_curve_is_the_mechanisms_tradeoff_at_the_xs_and_random_guessing_the_diagonal():
    fig = class_figure()
    traces = by_name(fig)
    curve = traces["f"]
    np.testing.assert_array_equal(curve.x, ALPHA)
    np.testing.assert_allclose(curve.y, F(np.asarray(curve.x)), rtol=1e-15)
    assert curve.line.color == FDP_COLORS["laplace"] and curve.fill == "tozeroy"
    diagonal = traces["random guessing: β = 1 − α"]
    np.testing.assert_allclose(np.asarray(diagonal.y), 1 - np.asarray(diagonal.x))
    # the region below the curve is named in the legend, as a band without data
    [band] = legend_entries(fig).values()
    assert "out of reach of any guessing rule" in band.name
    serialises(fig)


def test_the_error_bars_are_exactly_the_intervals_given():
    fig = class_figure(student_names=["A", "B", "C"], interval_name="exact, 98.33 %")
    traces = by_name(fig)
    honest, flagged = traces["students"], traces["beyond the curve by more than chance"]
    assert list(honest.text) == ["A", "C"] and list(flagged.text) == ["B"]
    assert VERDICT.flagged == (1,)
    for trace, points in ((honest, [VERDICT.students[0], VERDICT.students[2]]),
                          (flagged, [VERDICT.students[1]])):
        x, y = np.asarray(trace.x), np.asarray(trace.y)
        np.testing.assert_allclose(x, [p.alpha for p in points])
        np.testing.assert_allclose(y, [p.beta for p in points])
        assert trace.error_x.symmetric is False and trace.error_y.symmetric is False
        np.testing.assert_allclose(x + trace.error_x.array, [p.alpha_interval[1] for p in points])
        np.testing.assert_allclose(x - trace.error_x.arrayminus,
                                   [p.alpha_interval[0] for p in points], atol=1e-15)
        np.testing.assert_allclose(y + trace.error_y.array, [p.beta_interval[1] for p in points])
        np.testing.assert_allclose(y - trace.error_y.arrayminus,
                                   [p.beta_interval[0] for p in points], atol=1e-15)
        np.testing.assert_allclose(np.asarray(trace.customdata, dtype=float),
                                   [[*p.alpha_interval, *p.beta_interval] for p in points])
        assert "exact, 98.33 %" in trace.hovertemplate
    assert honest.marker.color == ATTACK_COLORS["students"]
    assert flagged.marker.color == ATTACK_COLORS["flagged"] and flagged.marker.symbol == "x"


def test_the_pooled_point_and_the_best_attacker_are_drawn():
    traces = by_name(class_figure())
    pooled = traces["the class pooled"]
    assert pooled.x[0] == pytest.approx(9 / 69) and pooled.y[0] == pytest.approx(6 / 71)
    assert pooled.x[0] + pooled.error_x.array[0] == pytest.approx(VERDICT.pooled.alpha_interval[1])
    assert pooled.marker.symbol == "diamond"
    best = traces["the best possible attacker"]
    a = attack.best_guess_errors("laplace", 1.0)[0]
    assert (best.x[0], best.y[0]) == pytest.approx((a, a))
    assert best.y[0] == pytest.approx(float(F(a)))  # on the curve, on the diagonal


def test_a_point_without_a_rate_is_left_out_and_a_bare_point_has_no_bars():
    nan = float("nan")
    fig = dpviz.attack.attack_figure(
        ALPHA, F(ALPHA), curve_name="f",
        students=[[0.2, 0.5, 0.1, 0.4, 0.3, 0.7], [nan, 0.4, 0.0, 1.0, 0.2, 0.6]],
        you=(0.25, 0.45))
    traces = by_name(fig)
    assert list(traces["students"].text) == ["student 1"]
    you = traces["you"]
    assert (you.x[0], you.y[0]) == (0.25, 0.45) and you.error_x.array is None
    # only the curve: no class, no pooled point, no best attacker
    bare = dpviz.attack.attack_figure(ALPHA, F(ALPHA), curve_name="f")
    assert set(by_name(bare)) == {"random guessing: β = 1 − α", "f"}


def test_the_axes_are_the_unit_square_and_the_figure_reads_and_exports():
    fig = class_figure(you=row(VERDICT.students[0]))
    layout = fig.layout
    assert layout.yaxis.scaleanchor == "x" and layout.yaxis.scaleratio == 1
    assert layout.xaxis.tickformat == "~r" and layout.yaxis.tickformat == "~r"
    assert not layout.annotations  # every label in the legend
    assert layout.legend.orientation == "h" and layout.legend.y >= 1
    summary = dpviz.describe.figure_summary(fig)
    assert summary.endswith(".") and "false-alarm rate" in summary
    frame = dpviz.export.figure_data(fig)
    assert "the class pooled" in set(frame["trace"])
    assert not any(is_legend_entry(t) and t.name in set(frame["trace"]) for t in fig.data)
    spec = presented(fig, height=400)
    assert spec["layout"]["height"] == 400
    json.dumps(spec, default=str)
    serialises(fig)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="alpha"):
        dpviz.attack.attack_figure([0.0], [1.0], curve_name="f")
    with pytest.raises(ValueError, match="students"):
        dpviz.attack.attack_figure(ALPHA, F(ALPHA), curve_name="f", students=[[0.1, 0.2]])
    with pytest.raises(ValueError, match="one entry per student"):
        dpviz.attack.attack_figure(ALPHA, F(ALPHA), curve_name="f",
                                   students=[[0.1, 0.2, 0, 1, 0, 1]], flagged=[True, False])
