"""Tests of dpviz.fdp: trade-off curves, the attacker's test and δ(ε) of μ-GDP.

G_μ and δ(ε) are computed here with scipy.stats, independently of dpcore.
"""

import re

import numpy as np
import pytest
from scipy import stats

import dpviz
from dpviz.style import COLORS, OKABE_ITO
from vizkit import data_traces, legend_entries, serialises


_ALPHA = np.linspace(0.0, 1.0, 11)


def _gdp(alpha, mu):
    """G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu), with scipy.stats."""
    return stats.norm.cdf(stats.norm.ppf(1.0 - np.asarray(alpha)) - mu)


def _by_name(fig):
    return {t.name: t for t in fig.data}


def _identity(fig):
    return [t for t in fig.data if t.name and t.name.startswith("Id(α)")]


def test_tradeoff_figure_places_curves_exactly_with_identity_and_square_axes():
    b1, b2 = _gdp(_ALPHA, 1.0), _gdp(_ALPHA, 2.0)
    fig = dpviz.fdp.tradeoff_figure([
        ("G_1", _ALPHA, b1, dpviz.fdp.FDP_COLORS["gdp"], "solid"),
        ("G_2", _ALPHA, b2, COLORS["original"], "dash"),
    ])
    by = _by_name(fig)
    np.testing.assert_array_equal(np.asarray(by["G_1"].x, float), _ALPHA)
    np.testing.assert_array_equal(np.asarray(by["G_1"].y, float), b1)
    np.testing.assert_array_equal(np.asarray(by["G_2"].y, float), b2)
    assert by["G_1"].line.color == dpviz.fdp.FDP_COLORS["gdp"] == COLORS["theory"]
    assert by["G_2"].line.color == COLORS["original"] and by["G_2"].line.dash == "dash"
    [ident] = _identity(fig)
    ix, iy = np.asarray(ident.x, float), np.asarray(ident.y, float)
    np.testing.assert_allclose(iy, 1.0 - ix)
    assert ix.min() == 0.0 and ix.max() == 1.0
    # Square unit axes, labelled.
    assert tuple(fig.layout.xaxis.range) == (0, 1) and tuple(fig.layout.yaxis.range) == (0, 1)
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis.scaleratio == 1
    assert fig.layout.xaxis.title.text == "type-I error α"
    assert fig.layout.yaxis.title.text == "type-II error β"
    # Nothing else without the options: identity + the two curves.
    assert len(fig.data) == 3
    serialises(fig)


def test_tradeoff_figure_identity_alone_for_no_curves():
    fig = dpviz.fdp.tradeoff_figure([])
    assert len(fig.data) == 1 and len(_identity(fig)) == 1
    serialises(fig)


def test_tradeoff_figure_failing_region_only_where_given():
    beta = _gdp(_ALPHA, 2.0)
    target = _gdp(_ALPHA, 1.0)
    below = beta < target - 1e-9
    assert below.any() and not below.all()
    curves = [("G_2", _ALPHA, beta, COLORS["original"], "solid"),
              ("G_0.5", _ALPHA, _gdp(_ALPHA, 0.5), COLORS["private"], "solid")]
    fig = dpviz.fdp.tradeoff_figure(
        curves, target=("G_1", _ALPHA, target),
        failing=[("G_2", _ALPHA[below], beta[below]), ("G_0.5", _ALPHA[:0], _ALPHA[:0])],
    )
    fails = [t for t in fig.data if t.name.endswith("below the target")]
    assert [t.name for t in fails] == ["G_2: below the target"]  # none for the empty one
    np.testing.assert_array_equal(np.asarray(fails[0].x, float), _ALPHA[below])
    np.testing.assert_array_equal(np.asarray(fails[0].y, float), beta[below])
    assert fails[0].mode == "markers"
    assert fails[0].marker.color == dpviz.fdp.FDP_COLORS["target"]
    [tgt] = [t for t in fig.data if t.name == "target: G_1"]
    np.testing.assert_array_equal(np.asarray(tgt.y, float), target)
    assert tgt.line.color == dpviz.fdp.FDP_COLORS["target"]
    # Without `failing`, no failing markers at all.
    plain = dpviz.fdp.tradeoff_figure(curves, target=("G_1", _ALPHA, target))
    assert not [t for t in plain.data if t.name.endswith("below the target")]
    assert len(plain.data) == len(fig.data) - 1
    serialises(fig)


def test_tradeoff_figure_point_and_corner():
    fig = dpviz.fdp.tradeoff_figure([("G_1", _ALPHA, _gdp(_ALPHA, 1.0), "#000000", "solid")],
                                    point=(0.05, 0.74, "threshold t = 1.65"), corner=True)
    by = _by_name(fig)
    pt = by["threshold t = 1.65"]
    assert list(pt.x) == [0.05] and list(pt.y) == [0.74] and pt.mode == "markers"
    corner = by["perfect attacker (0, 0)"]
    assert list(corner.x) == [0.0] and list(corner.y) == [0.0]
    # Default label names the point's errors.
    fig2 = dpviz.fdp.tradeoff_figure([], point=(0.25, 0.5))
    assert any(t.name == "test: α = 0.25, β = 0.5" for t in fig2.data)
    assert not any("perfect attacker" in (t.name or "") for t in fig2.data)
    serialises(fig)


def test_fdp_colors_come_from_the_scheme():
    okabe_ito_black = OKABE_ITO["black"]
    assert set(dpviz.fdp.FDP_COLORS.values()) <= set(COLORS.values()) | {okabe_ito_black}
    curve_kinds = ("gdp", "epsdelta", "gaussian", "laplace", "krr", "histogram", "target")
    assert len({dpviz.fdp.FDP_COLORS[k] for k in curve_kinds}) == len(curve_kinds)


def _fills(fig):
    return [t for t in fig.data if t.fill == "tozeroy"]


def test_attacker_test_figure_shades_both_errors_at_the_threshold():
    x = np.linspace(-4, 5, 901)
    p0, p1 = stats.norm.pdf(x), stats.norm.pdf(x, loc=1.0)
    t = 1.234
    fig = dpviz.fdp.attacker_test_figure(x, p0, p1, t, alpha=0.1086, beta=0.59,
                                         names=("on D", "on D′"))
    by = _by_name(fig)
    np.testing.assert_array_equal(np.asarray(by["on D"].y, float), p0)
    np.testing.assert_array_equal(np.asarray(by["on D′"].y, float), p1)
    shaded = _fills(fig)
    assert len(shaded) == 2
    [a_area] = [s for s in shaded if s.name.startswith("type-I error α = 0.109")]
    [b_area] = [s for s in shaded if s.name.startswith("type-II error β = 0.59:")]
    ax, ay = np.asarray(a_area.x, float), np.asarray(a_area.y, float)
    bx, by_ = np.asarray(b_area.x, float), np.asarray(b_area.y, float)
    # α: under the density on D, right of t; β: under the density on D′, left of t.
    assert ax.min() == t and np.all(ax >= t) and ax.max() == x.max()
    assert bx.max() == t and np.all(bx <= t) and bx.min() == x.min()
    np.testing.assert_allclose(ay, stats.norm.pdf(ax), atol=1e-4)
    np.testing.assert_allclose(by_, stats.norm.pdf(bx, loc=1.0), atol=1e-4)
    # The shaded areas are the errors (trapezoid rule on the fine grid).
    assert np.trapezoid(ay, ax) == pytest.approx(stats.norm.sf(t), abs=1e-4)
    assert np.trapezoid(by_, bx) == pytest.approx(stats.norm.cdf(t - 1.0), abs=1e-4)
    assert [s.x0 for s in fig.layout.shapes] == [t]  # the threshold line, named in the legend
    [entry] = legend_entries(fig).values()
    assert entry.name == "threshold t = 1.23: reject D if X > t"  # 3 digits
    assert (entry.line.color, entry.line.dash) == ("#000000", "dash")
    assert len(data_traces(fig)) == 4 and not fig.layout.annotations
    assert fig.layout.xaxis.title.text == "output X"
    serialises(fig)


def test_attacker_test_figure_threshold_outside_the_range():
    x = np.linspace(-4, 5, 91)
    p0, p1 = stats.norm.pdf(x), stats.norm.pdf(x, loc=1.0)
    fig = dpviz.fdp.attacker_test_figure(x, p0, p1, 9.0)  # nothing right of t: no α area
    assert [s.name.split(":")[0] for s in _fills(fig)] == ["type-II error β"]
    fig = dpviz.fdp.attacker_test_figure(x, p0, p1, -9.0)  # nothing left of t: no β area
    assert [s.name.split(":")[0] for s in _fills(fig)] == ["type-I error α"]
    serialises(fig)


def _delta(eps, mu):
    return stats.norm.cdf(-eps / mu + mu / 2) - np.exp(eps) * stats.norm.cdf(-eps / mu - mu / 2)


def test_delta_curve_figure_log_axis_and_point():
    eps = np.linspace(0.0, 10.0, 50)
    delta = _delta(eps, 1.0)
    fig = dpviz.fdp.delta_curve_figure(eps, delta, mu=1.0, point=(1.0, float(_delta(1.0, 1.0))))
    line = fig.data[0]
    np.testing.assert_array_equal(np.asarray(line.x, float), eps)
    np.testing.assert_allclose(np.asarray(line.y, float), delta)
    assert fig.layout.yaxis.type == "log"
    [pt] = [t for t in fig.data if t.mode == "markers"]
    assert list(pt.x) == [1.0] and pt.y[0] == pytest.approx(0.126936, rel=1e-4)
    assert fig.layout.xaxis.title.text == "ε" and fig.layout.yaxis.title.text == "δ(ε)"
    serialises(fig)


def test_delta_curve_figure_zeros():
    eps = np.linspace(0.0, 10.0, 5)
    # Zeros are left out on the log axis ...
    delta = np.array([0.3, 1e-3, 1e-9, 0.0, 0.0])
    fig = dpviz.fdp.delta_curve_figure(eps, delta, mu=1.0)
    np.testing.assert_array_equal(np.asarray(fig.data[0].y, float), delta[:3])
    np.testing.assert_array_equal(np.asarray(fig.data[0].x, float), eps[:3])
    # ... and an all-zero curve (mu = 0) is drawn on a linear axis.
    fig = dpviz.fdp.delta_curve_figure(eps, np.zeros(5), mu=0.0, point=(2.0, 0.0))
    assert fig.layout.yaxis.type != "log"
    assert len(fig.data[0].y) == 5
    assert any(t.mode == "markers" for t in fig.data)
    serialises(fig)


def test_delta_curve_figure_other_curves():
    eps = np.linspace(0, 5, 11)
    fig = dpviz.fdp.delta_curve_figure(eps, _delta(eps, 1.0), mu=1.0, others=[
        dict(name="markers", eps=eps[:3], delta=[0.3, 0.0, 0.1], color="#000000", mode="markers"),
    ])
    extra = fig.data[1]
    assert extra.mode == "markers" and list(extra.y) == [0.3, 0.1]  # zero dropped on log axis
    serialises(fig)


def test_no_legend_or_hover_name_shows_raw_notation():
    a = np.linspace(0, 1, 11)
    figs = [dpviz.fdp.tradeoff_figure([("Gaussian DP, μ = 1", a, _gdp(a, 1.0), "#000", "solid")],
                                      point=(0.05, 2.9e-7), corner=True),
            dpviz.fdp.attacker_test_figure(np.linspace(-4, 9, 50), np.ones(50), np.ones(50),
                                           1.6448536, alpha="0.05", beta="2.867·10⁻⁷",
                                           threshold_text="1.645"),
            dpviz.fdp.delta_curve_figure(np.linspace(0, 10, 20), np.geomspace(1, 1e-20, 20),
                                         mu=1.0, point=(3.0, 1.2e-9, "ε = 3 → δ = 1.2·10⁻⁹"))]
    for fig in figs:
        texts = [tr.name or "" for tr in fig.data] + [tr.hovertemplate or "" for tr in fig.data]
        texts += [a.text or "" for a in fig.layout.annotations]
        for text in texts:
            assert not any(mark in text for mark in ("^", "_", "⊗")), text
            assert not re.search(r"\d[eE][-+]?\d", text), text
    names = [tr.name for tr in figs[1].data]
    assert "type-II error β = 2.867·10⁻⁷: D′, but X ≤ t" in names
    # the threshold named in the legend (on the plot its label met the densities' peak)
    assert list(legend_entries(figs[1])) == ["threshold t = 1.645: reject D if X > t"]
    assert not figs[1].layout.annotations


def test_hover_labels_write_small_errors_in_decimals_not_zero_or_e_notation():
    a = np.linspace(0, 1, 11)
    figs = [dpviz.fdp.tradeoff_figure([("c", a, _gdp(a, 5.0), "#000", "solid")],
                                      point=(0.5, 2.9e-7), target=("t", a, _gdp(a, 1.0))),
            dpviz.fdp.delta_curve_figure(np.linspace(0, 10, 20), np.geomspace(1, 1e-20, 20),
                                         mu=1.0, point=(3.0, 1.2e-9))]
    for fig in figs:
        for tr in fig.data:
            # β and δ in d3's "r": decimal notation rounded to significant digits
            # (0.0000002867), neither ".4f" (0.0000) nor ".3g" (2.87e-7).
            for fmt in re.findall(r"%\{y:([^}]*)\}", tr.hovertemplate or ""):
                assert fmt.endswith("r"), (tr.name, fmt)
