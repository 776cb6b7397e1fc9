"""dpviz.risk: two privacy levels side by side, bar for bar the numbers of dpcore.risk."""

from __future__ import annotations

import math

import pytest

from dpcore.risk import Guarantee, side_by_side
from dpviz.risk import percent, side_by_side_figure


def _bars(fig):
    return {trace.name: (list(trace.x), list(trace.y), list(trace.text)) for trace in fig.data}


def test_pure_levels_show_the_odds_bound_beside_the_prior():
    fig = side_by_side_figure(side_by_side(Guarantee.pure(1.0), Guarantee.pure(10.0)),
                              ("ε = 1", "ε = 10"))
    bars = _bars(fig)
    assert list(bars) == ["without the release", "ε = 1", "ε = 10"]
    assert bars["without the release"][:2] == (["1%", "10%", "50%"], [0.01, 0.1, 0.5])
    for name, eps in (("ε = 1", 1.0), ("ε = 10", 10.0)):
        x, y, text = bars[name]
        expected = [math.exp(eps) * p / (math.exp(eps) * p + 1 - p) for p in (0.01, 0.1, 0.5)]
        assert y == pytest.approx(expected, abs=1e-12)
        assert text == [percent(v) for v in expected]
    assert bars["ε = 10"][2][2] == "99.995%"  # the example, told apart from 100%
    assert fig.layout.yaxis.title.text == "most sure after"


def test_an_unbounded_level_puts_both_on_the_best_guess():
    """μ-GDP has no posterior bound: both levels are drawn as the best guess, one scale."""
    table = side_by_side(Guarantee.pure(1.0), Guarantee.gaussian(1.0))
    bars = _bars(side_by_side_figure(table, ("ε = 1", "μ = 1")))
    assert bars["without the release"][1] == pytest.approx([0.99, 0.9, 0.5])
    # G_1 at π = 1/2: the Bayes test errs with probability Φ(−1/2)
    assert bars["μ = 1"][1][2] == pytest.approx(1 - 0.3085375387259869, abs=1e-12)
    assert bars["ε = 1"][1][2] == pytest.approx(math.e / (1 + math.e), abs=1e-12)


@pytest.mark.parametrize("v,text", [(0.0267, "2.67%"), (0.5, "50%"), (0.99, "99%"),
                                    (0.9996, "99.96%"), (0.99995460, "99.995%"), (1.0, "100%")])
def test_percent_keeps_the_digits_that_tell_it_from_100(v, text):
    assert percent(v) == text


def test_level_names_are_inert():
    fig = side_by_side_figure(side_by_side(Guarantee.pure(1.0), Guarantee.pure(2.0)),
                              ("<b>ε</b> = 1", "ε = 2"))
    assert "<b>" not in fig.data[1].name
