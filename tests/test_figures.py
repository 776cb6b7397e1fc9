"""Tests of dpcore.figures, the pure Plotly figure builders.

Expected values are computed here independently of dpcore: g(C) and k(alpha)
from the formulas of Son, Park & Jung (2022) eqs. (4.1) and (4.2) with numpy,
the chi-square density with scipy.stats.
"""

import json
import math

import numpy as np
import plotly.graph_objects as go
import pytest
from scipy import stats

from dpcore import figures
from dpcore.figures import COLORS, debias_figure, histograms_figure, null_distribution_figure


def _g(c, alpha):
    """g(C) = C + exp(-alpha C / 2) / alpha, eq. (4.1)."""
    c = np.asarray(c, dtype=float)
    return c + np.exp(-alpha * c / 2.0) / alpha


def _k(alpha):
    """k(alpha) = c* + 5 with c* = -2 ln(5 alpha) / alpha, valid for alpha <= 0.2."""
    assert alpha <= 0.2
    return -2.0 * math.log(5.0 * alpha) / alpha + 5.0


def _serialises(fig):
    assert isinstance(fig, go.Figure)
    json.loads(fig.to_json())


def _bars(fig):
    return [t for t in fig.data if t.type == "bar"]


def _annotation_texts(fig):
    return [a.text for a in fig.layout.annotations]


# ---------------------------------------------------------------------------
# histograms_figure
# ---------------------------------------------------------------------------

LABELS = ["0\u20134", "5\u20139", "10+"]
ORIG_A, ORIG_B = [10, 20, 30], [40, 50, 60]
PRIV_A, PRIV_B = [11.5, 0.0, 29.25], [38.0, 51.75, 0.5]


def test_histograms_with_originals():
    fig = histograms_figure(LABELS, PRIV_A, PRIV_B, original_a=ORIG_A, original_b=ORIG_B,
                            name_a="Seoul", name_b="Busan")
    bars = _bars(fig)
    assert len(bars) == len(fig.data) == 4
    # Two panels, titled with the given names.
    assert {t.xaxis for t in bars} == {"x", "x2"}
    assert set(_annotation_texts(fig)) == {"Seoul", "Busan"}
    by_panel = {ax: [t for t in bars if t.xaxis == ax] for ax in ("x", "x2")}
    for ax, orig, priv in (("x", ORIG_A, PRIV_A), ("x2", ORIG_B, PRIV_B)):
        originals = [t for t in by_panel[ax] if t.marker.color == COLORS["original"]]
        privates = [t for t in by_panel[ax] if t.marker.color == COLORS["private"]]
        assert len(originals) == len(privates) == 1
        assert np.array_equal(np.asarray(originals[0].y, dtype=float), orig)
        assert np.array_equal(np.asarray(privates[0].y, dtype=float), priv)
        for t in by_panel[ax]:
            assert list(t.x) == LABELS
    assert COLORS["original"] != COLORS["private"]
    # One legend entry per kind of bar, not per panel.
    assert sum(bool(t.showlegend) for t in bars) == 2
    _serialises(fig)


def test_histograms_without_originals():
    fig = histograms_figure([0, 1, 2], PRIV_A, PRIV_B)
    bars = _bars(fig)
    assert len(bars) == 2
    assert all(t.marker.color == COLORS["private"] for t in bars)
    assert not any(t.marker.color == COLORS["original"] for t in fig.data)
    assert not any("original" in (t.name or "") for t in fig.data)
    panel = {t.xaxis: t for t in bars}
    assert set(panel) == {"x", "x2"}
    assert np.array_equal(np.asarray(panel["x"].y, dtype=float), PRIV_A)
    assert np.array_equal(np.asarray(panel["x2"].y, dtype=float), PRIV_B)
    # Numeric labels become category strings.
    assert list(panel["x"].x) == ["0", "1", "2"]
    assert fig.layout.xaxis.type == "category" and fig.layout.xaxis2.type == "category"
    _serialises(fig)


def test_histograms_only_one_original():
    fig = histograms_figure(LABELS, PRIV_A, PRIV_B, original_a=ORIG_A)
    originals = [t for t in _bars(fig) if t.marker.color == COLORS["original"]]
    assert len(originals) == 1 and originals[0].xaxis == "x"
    assert np.array_equal(np.asarray(originals[0].y, dtype=float), ORIG_A)


# ---------------------------------------------------------------------------
# null_distribution_figure
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def null():
    return np.random.default_rng(20220).chisquare(5, size=2000)


def _vline_x0(fig):
    return sorted(float(s.x0) for s in fig.layout.shapes if s.type == "line" and s.x0 == s.x1)


def test_null_distribution_with_statistic_in_range(null):
    crit = float(np.quantile(null, 0.95))
    statistic = 8.5
    fig = null_distribution_figure(null, statistic, crit)
    hists = [t for t in fig.data if t.type == "histogram"]
    assert len(hists) == 1
    assert np.array_equal(np.asarray(hists[0].x, dtype=float), null)
    assert not any(t.type == "scatter" for t in fig.data)  # no df, no density
    assert _vline_x0(fig) == sorted([crit, statistic])
    lo, hi = fig.layout.xaxis.range
    assert lo == 0 and hi > max(crit, statistic)
    texts = _annotation_texts(fig)
    assert any("observed T = 8.5" in t for t in texts)
    assert any(f"{crit:,.1f}" in t and "95%" in t for t in texts)
    _serialises(fig)


def test_null_distribution_statistic_far_beyond(null):
    crit = float(np.quantile(null, 0.95))
    fig = null_distribution_figure(null, 1e6, crit, df=5)
    # Only the critical value's line; T is given in an annotation instead.
    assert _vline_x0(fig) == [crit]
    texts = _annotation_texts(fig)
    assert any("1,000,000.0" in t for t in texts)
    # The axis is not stretched to T.
    assert fig.layout.xaxis.range[1] < 1e3
    _serialises(fig)


def test_null_distribution_density_only_with_df(null):
    crit = float(np.quantile(null, 0.95))
    without = null_distribution_figure(null, 3.0, crit)
    assert [t.type for t in without.data] == ["histogram"]
    fig = null_distribution_figure(null, 3.0, crit, df=5, level=0.01)
    curves = [t for t in fig.data if t.type == "scatter"]
    assert len(curves) == 1
    x = np.asarray(curves[0].x, dtype=float)
    y = np.asarray(curves[0].y, dtype=float)
    assert x.size > 50 and x[0] == 0.0
    np.testing.assert_allclose(y, stats.chi2.pdf(x, 5), rtol=1e-12, atol=0)
    # The density reaches at least the chi-square's 99.9% quantile.
    assert x[-1] >= stats.chi2.ppf(0.999, 5) - 1e-9
    assert any("99%" in t for t in _annotation_texts(fig))
    _serialises(fig)


# ---------------------------------------------------------------------------
# debias_figure
# ---------------------------------------------------------------------------

def _g_curves(fig):
    return [t for t in fig.data if t.type == "scatter" and t.mode == "lines"
            and (t.name or "").startswith("g(C)")]


def _markers(fig):
    return [t for t in fig.data if t.type == "scatter" and t.mode == "markers"]


def test_debias_one_curve_when_alphas_equal():
    alpha = 0.1
    xa, xb = [0.0, 3.0, 12.0, 40.0], [1.0, 15.0, 25.0, 5.0]
    ca, cb = [0.0, 0.5, 8.0, 40.0], [0.0, 11.0, 25.0, 0.0]
    fig = debias_figure(alpha, alpha, xa, xb, ca, cb)
    curves = _g_curves(fig)
    assert len(curves) == 1
    x = np.asarray(curves[0].x, dtype=float)
    np.testing.assert_allclose(np.asarray(curves[0].y, dtype=float), _g(x, alpha),
                               rtol=1e-12, atol=0)
    assert curves[0].y[0] == pytest.approx(1 / alpha)
    # Markers at (C-tilde, X), all within range without zoom.
    markers = _markers(fig)
    assert len(markers) == 2
    for t, x_obs, c_obs in zip(markers, (xa, xb), (ca, cb)):
        assert np.array_equal(np.asarray(t.x, dtype=float), c_obs)
        assert np.array_equal(np.asarray(t.y, dtype=float), x_obs)
    assert {markers[0].marker.color, markers[1].marker.color} == {COLORS["A"], COLORS["B"]}
    assert not any("off the chart" in t for t in _annotation_texts(fig))
    _serialises(fig)


def test_debias_two_curves_when_alphas_differ():
    alpha_a, alpha_b = 0.05, 0.2
    fig = debias_figure(alpha_a, alpha_b, [1.0, 2.0], [3.0, 4.0], [0.0, 0.0], [0.0, 0.0])
    curves = _g_curves(fig)
    assert len(curves) == 2
    for t, alpha in zip(curves, (alpha_a, alpha_b)):
        x = np.asarray(t.x, dtype=float)
        np.testing.assert_allclose(np.asarray(t.y, dtype=float), _g(x, alpha),
                                   rtol=1e-12, atol=0)
    assert {t.line.dash for t in curves} == {"solid", "dash"}
    # The range covers 3 k(alpha) of the larger threshold (the smaller alpha).
    assert fig.layout.xaxis.range[1] == pytest.approx(3 * max(_k(alpha_a), _k(alpha_b)))
    _serialises(fig)


def test_debias_identity_line():
    fig = debias_figure(0.1, 0.1, [1.0], [2.0], [0.0], [0.0])
    line = [t for t in fig.data if (t.name or "").startswith("X = C")]
    assert len(line) == 1
    assert np.array_equal(np.asarray(line[0].x), np.asarray(line[0].y))


def test_debias_zoom_restricts_range_and_counts_off_chart():
    alpha = 0.1
    c_max = 3 * _k(alpha)  # 3 (13.86 + 5) = 56.6
    assert c_max == pytest.approx(56.588830833596715)
    xa = np.array([0.0, 12.0, 30.0, 80.0, 500.0])
    xb = np.array([2.0, 56.0, 57.0, 1000.0])
    ca = np.array([0.0, 7.0, 30.0, 80.0, 500.0])
    cb = np.array([0.0, 56.0, 57.0, 1000.0])
    fig = debias_figure(alpha, alpha, xa, xb, ca, cb, zoom=True)
    assert fig.layout.xaxis.range[0] == 0
    assert fig.layout.xaxis.range[1] == pytest.approx(c_max)
    curve = _g_curves(fig)[0]
    assert max(curve.x) == pytest.approx(c_max)
    markers = _markers(fig)
    for t, x_obs, c_obs in zip(markers, (xa, xb), (ca, cb)):
        shown = x_obs <= c_max
        assert np.array_equal(np.asarray(t.x, dtype=float), c_obs[shown])
        assert np.array_equal(np.asarray(t.y, dtype=float), x_obs[shown])
    off = int(np.sum(xa > c_max) + np.sum(xb > c_max))
    assert off == 4
    notes = [t for t in _annotation_texts(fig) if "off the chart" in t]
    assert len(notes) == 1 and notes[0].startswith(f"{off} counts")
    _serialises(fig)


def test_debias_without_zoom_covers_largest_count():
    alpha = 0.1
    xa = np.array([0.0, 12.0, 500.0])
    xb = np.array([2.0, 1000.0, 3.0])
    ca, cb = np.array([0.0, 7.0, 500.0]), np.array([0.0, 1000.0, 0.0])
    fig = debias_figure(alpha, alpha, xa, xb, ca, cb, zoom=False)
    hi = fig.layout.xaxis.range[1]
    assert hi >= 1000.0 and hi > 3 * _k(alpha)
    assert fig.layout.yaxis.range[1] >= 1000.0
    markers = _markers(fig)
    assert sum(len(t.x) for t in markers) == xa.size + xb.size
    assert not any("off the chart" in t for t in _annotation_texts(fig))
    _serialises(fig)


def test_debias_zoom_with_small_counts_matches_unzoomed_threshold_range():
    # When every count is within 3 k(alpha), zoom changes nothing of the range.
    alpha = 0.02
    xa, xb = [1.0, 60.0], [100.0, 5.0]
    zoomed = debias_figure(alpha, alpha, xa, xb, [0.0, 10.0], [90.0, 0.0], zoom=True)
    full = debias_figure(alpha, alpha, xa, xb, [0.0, 10.0], [90.0, 0.0], zoom=False)
    assert zoomed.layout.xaxis.range[1] == pytest.approx(3 * _k(alpha))
    assert full.layout.xaxis.range[1] == pytest.approx(3 * _k(alpha))


# --------------------------------------------------------------------------- calibration


def test_null_statistics_figure_overlays_both_and_the_density():
    rng = np.random.default_rng(0)
    without, with_dp = rng.chisquare(19, 500), rng.chisquare(19, 500) + 5
    fig = figures.null_statistics_figure(without, with_dp, 19, alpha=0.5)
    hists = [t for t in fig.data if t.type == "histogram"]
    np.testing.assert_array_equal(hists[0].x, without)
    np.testing.assert_array_equal(hists[1].x, with_dp)
    assert hists[0].marker.color == figures.COLORS["original"]
    assert hists[1].marker.color == figures.COLORS["private"]
    [curve] = [t for t in fig.data if t.type == "scatter"]
    np.testing.assert_allclose(curve.y, stats.chi2.pdf(curve.x, 19))
    assert fig.layout.shapes[0].x0 == pytest.approx(stats.chi2.ppf(0.95, 19))
    fig.to_json()


def _rates():
    import pandas as pd

    rows = []
    for n in (1000, 10_000):
        for test, rate in (("bootstrap", 0.05), ("chisq", 0.6)):
            rows.append(dict(n=n, test=test, rate=rate, ci_low=rate - 0.01, ci_high=rate + 0.02))
    return pd.DataFrame(rows)


def _axis_titles(fig) -> tuple[list, list]:
    xs, ys = [], []
    fig.for_each_xaxis(lambda ax: xs.append((ax.type, ax.title.text)))
    fig.for_each_yaxis(lambda ax: ys.append(ax.title.text))
    return xs, ys


def test_rejection_figure_error_bars_are_the_intervals():
    fig = figures.rejection_figure(_rates())
    assert fig.layout.xaxis.type == "log"
    # The figure itself says that its N axis is logarithmic and what a rate counts.
    assert _axis_titles(fig) == ([("log", "N per histogram (log scale)")],
                                 ["rejection rate (share of replicates)"])
    by_name = {t.name: t for t in fig.data}
    boot, naive = by_name["parametric bootstrap"], by_name["naive χ²"]
    np.testing.assert_allclose(boot.y, [0.05, 0.05])
    np.testing.assert_allclose(boot.error_y.array, [0.02, 0.02])
    np.testing.assert_allclose(boot.error_y.arrayminus, [0.01, 0.01])
    assert naive.line.dash == "dash" and boot.line.dash == "solid"
    assert any(s.y0 == 0.05 and s.y1 == 0.05 for s in fig.layout.shapes)  # the level line
    fig.to_json()


def test_study_figure_facets_in_the_papers_order():
    import pandas as pd

    base = _rates()
    parts = []
    for m in (9, 86, 18):
        for a1, a2 in ((0.1, 0.05), (0.01, 0.01), (1.0, 1.0)):
            part = base.assign(m=m, alpha1=a1, alpha2=a2, pair="korea_vs_usa",
                               effect="large effect")
            parts.append(part)
    fig = figures.study_figure(pd.concat(parts, ignore_index=True))
    titles = [a.text for a in fig.layout.annotations]
    assert [t for t in titles if t.startswith("M =")] == ["M = 86", "M = 18", "M = 9"]
    privacy = [t for t in titles if t.startswith("α")]
    # plotly lists row titles bottom to top
    assert privacy[::-1] == ["α = 1", "α = 0.01", "α₁ = 0.1, α₂ = 0.05"]
    # Every panel's N axis is logarithmic; the titled ones (the bottom row, the first
    # column) say so and what a rate counts.
    xs, ys = _axis_titles(fig)
    assert {kind for kind, _ in xs} == {"log"}
    assert [t for _, t in xs if t] == ["N per histogram (log scale)"] * 3
    assert [t for t in ys if t] == ["rejection rate (share of replicates)"] * 3
    fig.to_json()


# ---------------------------------------------------------------------------
# f-DP figures: tradeoff_figure, attacker_test_figure, delta_curve_figure
# ---------------------------------------------------------------------------

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
    fig = figures.tradeoff_figure([
        ("G_1", _ALPHA, b1, figures.FDP_COLORS["gdp"], "solid"),
        ("G_2", _ALPHA, b2, COLORS["original"], "dash"),
    ])
    by = _by_name(fig)
    np.testing.assert_array_equal(np.asarray(by["G_1"].x, float), _ALPHA)
    np.testing.assert_array_equal(np.asarray(by["G_1"].y, float), b1)
    np.testing.assert_array_equal(np.asarray(by["G_2"].y, float), b2)
    assert by["G_1"].line.color == figures.FDP_COLORS["gdp"] == COLORS["theory"]
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
    _serialises(fig)


def test_tradeoff_figure_identity_alone_for_no_curves():
    fig = figures.tradeoff_figure([])
    assert len(fig.data) == 1 and len(_identity(fig)) == 1
    _serialises(fig)


def test_tradeoff_figure_failing_region_only_where_given():
    beta = _gdp(_ALPHA, 2.0)
    target = _gdp(_ALPHA, 1.0)
    below = beta < target - 1e-9
    assert below.any() and not below.all()
    curves = [("G_2", _ALPHA, beta, COLORS["original"], "solid"),
              ("G_0.5", _ALPHA, _gdp(_ALPHA, 0.5), COLORS["private"], "solid")]
    fig = figures.tradeoff_figure(
        curves, target=("G_1", _ALPHA, target),
        failing=[("G_2", _ALPHA[below], beta[below]), ("G_0.5", _ALPHA[:0], _ALPHA[:0])],
    )
    fails = [t for t in fig.data if t.name.endswith("below the target")]
    assert [t.name for t in fails] == ["G_2: below the target"]  # none for the empty one
    np.testing.assert_array_equal(np.asarray(fails[0].x, float), _ALPHA[below])
    np.testing.assert_array_equal(np.asarray(fails[0].y, float), beta[below])
    assert fails[0].mode == "markers"
    assert fails[0].marker.color == figures.FDP_COLORS["target"]
    [tgt] = [t for t in fig.data if t.name == "target: G_1"]
    np.testing.assert_array_equal(np.asarray(tgt.y, float), target)
    assert tgt.line.color == figures.FDP_COLORS["target"]
    # Without `failing`, no failing markers at all.
    plain = figures.tradeoff_figure(curves, target=("G_1", _ALPHA, target))
    assert not [t for t in plain.data if t.name.endswith("below the target")]
    assert len(plain.data) == len(fig.data) - 1
    _serialises(fig)


def test_tradeoff_figure_point_and_corner():
    fig = figures.tradeoff_figure([("G_1", _ALPHA, _gdp(_ALPHA, 1.0), "#000000", "solid")],
                                  point=(0.05, 0.74, "threshold t = 1.65"), corner=True)
    by = _by_name(fig)
    pt = by["threshold t = 1.65"]
    assert list(pt.x) == [0.05] and list(pt.y) == [0.74] and pt.mode == "markers"
    corner = by["perfect attacker (0, 0)"]
    assert list(corner.x) == [0.0] and list(corner.y) == [0.0]
    # Default label names the point's errors.
    fig2 = figures.tradeoff_figure([], point=(0.25, 0.5))
    assert any(t.name == "test: α = 0.250, β = 0.500" for t in fig2.data)
    assert not any("perfect attacker" in (t.name or "") for t in fig2.data)
    _serialises(fig)


def test_the_palette_is_okabe_ito():
    assert figures.OKABE_ITO == {
        "black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9",
        "bluish green": "#009E73", "yellow": "#F0E442", "blue": "#0072B2",
        "vermillion": "#D55E00", "reddish purple": "#CC79A7"}
    # Every colour but the grey of reference lines is from the palette.
    assert set(COLORS.values()) - set(figures.OKABE_ITO.values()) == {COLORS["reference"]}


def test_fdp_colors_come_from_the_scheme():
    okabe_ito_black = figures.OKABE_ITO["black"]
    assert set(figures.FDP_COLORS.values()) <= set(COLORS.values()) | {okabe_ito_black}
    curve_kinds = ("gdp", "epsdelta", "gaussian", "laplace", "krr", "histogram", "target")
    assert len({figures.FDP_COLORS[k] for k in curve_kinds}) == len(curve_kinds)


def _fills(fig):
    return [t for t in fig.data if t.fill == "tozeroy"]


def test_attacker_test_figure_shades_both_errors_at_the_threshold():
    x = np.linspace(-4, 5, 901)
    p0, p1 = stats.norm.pdf(x), stats.norm.pdf(x, loc=1.0)
    t = 1.234
    fig = figures.attacker_test_figure(x, p0, p1, t, alpha=0.1086, beta=0.59,
                                       names=("on D", "on D′"))
    by = _by_name(fig)
    np.testing.assert_array_equal(np.asarray(by["on D"].y, float), p0)
    np.testing.assert_array_equal(np.asarray(by["on D′"].y, float), p1)
    shaded = _fills(fig)
    assert len(shaded) == 2
    [a_area] = [s for s in shaded if s.name.startswith("type-I error α = 0.109")]
    [b_area] = [s for s in shaded if s.name.startswith("type-II error β = 0.590")]
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
    assert [s.x0 for s in fig.layout.shapes] == [t]  # the threshold line
    assert fig.layout.xaxis.title.text == "output X"
    _serialises(fig)


def test_attacker_test_figure_threshold_outside_the_range():
    x = np.linspace(-4, 5, 91)
    p0, p1 = stats.norm.pdf(x), stats.norm.pdf(x, loc=1.0)
    fig = figures.attacker_test_figure(x, p0, p1, 9.0)  # nothing right of t: no α area
    assert [s.name.split(":")[0] for s in _fills(fig)] == ["type-II error β"]
    fig = figures.attacker_test_figure(x, p0, p1, -9.0)  # nothing left of t: no β area
    assert [s.name.split(":")[0] for s in _fills(fig)] == ["type-I error α"]
    _serialises(fig)


def _delta(eps, mu):
    return stats.norm.cdf(-eps / mu + mu / 2) - np.exp(eps) * stats.norm.cdf(-eps / mu - mu / 2)


def test_delta_curve_figure_log_axis_and_point():
    eps = np.linspace(0.0, 10.0, 50)
    delta = _delta(eps, 1.0)
    fig = figures.delta_curve_figure(eps, delta, mu=1.0, point=(1.0, float(_delta(1.0, 1.0))))
    line = fig.data[0]
    np.testing.assert_array_equal(np.asarray(line.x, float), eps)
    np.testing.assert_allclose(np.asarray(line.y, float), delta)
    assert fig.layout.yaxis.type == "log"
    [pt] = [t for t in fig.data if t.mode == "markers"]
    assert list(pt.x) == [1.0] and pt.y[0] == pytest.approx(0.126936, rel=1e-4)
    assert fig.layout.xaxis.title.text == "ε" and fig.layout.yaxis.title.text == "δ(ε)"
    _serialises(fig)


def test_delta_curve_figure_zeros():
    eps = np.linspace(0.0, 10.0, 5)
    # Zeros are left out on the log axis ...
    delta = np.array([0.3, 1e-3, 1e-9, 0.0, 0.0])
    fig = figures.delta_curve_figure(eps, delta, mu=1.0)
    np.testing.assert_array_equal(np.asarray(fig.data[0].y, float), delta[:3])
    np.testing.assert_array_equal(np.asarray(fig.data[0].x, float), eps[:3])
    # ... and an all-zero curve (mu = 0) is drawn on a linear axis.
    fig = figures.delta_curve_figure(eps, np.zeros(5), mu=0.0, point=(2.0, 0.0))
    assert fig.layout.yaxis.type != "log"
    assert len(fig.data[0].y) == 5
    assert any(t.mode == "markers" for t in fig.data)
    _serialises(fig)


# ---------------------------------------------------------------------------
# Page "Gaussian mechanism"
# ---------------------------------------------------------------------------


def _trapezoid(x, y):
    x, y = np.asarray(x, float), np.asarray(y, float)
    return float(np.sum((y[1:] + y[:-1]) * np.diff(x)) / 2)


@pytest.mark.parametrize("mu, eps", [(0.8, 0.5), (2.0, 1.0), (0.3, 0.05)])
def test_privacy_loss_figure_areas_are_the_two_deltas(mu, eps):
    """The shaded areas integrate to P(L > ε) and E[(1 − e^{ε − L})₊] (scipy, quad)."""
    from scipy import integrate

    mean, var = mu * mu / 2, mu * mu
    tail = stats.norm.sf(eps, mean, mu)
    exact = integrate.quad(lambda x: -np.expm1(eps - x) * stats.norm.pdf(x, mean, mu),
                           eps, eps + 40 * mu)[0]
    fig = figures.privacy_loss_figure(mean, var, eps, tail_delta=tail, exact_delta=exact,
                                      points=4001)
    tail_trace, exact_trace, density = fig.data
    assert _trapezoid(tail_trace.x, tail_trace.y) == pytest.approx(tail, rel=2e-3, abs=1e-6)
    assert _trapezoid(exact_trace.x, exact_trace.y) == pytest.approx(exact, rel=2e-3, abs=1e-6)
    assert _trapezoid(density.x, density.y) == pytest.approx(1.0, abs=1e-4)
    assert min(tail_trace.x) == eps and min(exact_trace.x) == eps
    assert f"{tail:.3g}" in tail_trace.name and f"{exact:.3g}" in exact_trace.name
    assert _vline_x0(fig) == [eps]
    _serialises(fig)


def test_privacy_loss_figure_log_axis():
    fig = figures.privacy_loss_figure(0.02, 0.04, 1.0, tail_delta=1e-6, exact_delta=1e-7,
                                      log_y=True)
    assert fig.layout.yaxis.type == "log"
    _serialises(fig)


def test_calibration_figure_bars_and_invalid_hatching():
    from dpcore import gaussian

    table = gaussian.calibration_table(2.0, 1e-5, 1.0)
    fig = figures.calibration_figure(table)
    by_name = {t.y[0]: t for t in fig.data}
    for row in table.itertuples():
        bar = by_name[row.name]
        assert bar.x[0] == pytest.approx(row.sigma)
        assert bar.marker.color == figures.CALIBRATION_COLORS[row.method]
        assert bar.marker.pattern.shape == ("" if row.valid else "/")
    assert by_name[table.name[table.method == "classical"].iloc[0]].marker.pattern.shape == "/"
    # a calibration without a solution (NaN σ) is left out
    fig = figures.calibration_figure(gaussian.calibration_table(0.0, 1e-3))
    assert len(fig.data) == 1
    _serialises(fig)


def test_release_distribution_figure_density_and_interval():
    rng = np.random.default_rng(0)
    releases = 10 + 3 * rng.standard_normal(20_000)
    fig = figures.release_distribution_figure(releases, 10.0, 3.0, half_width=1.96 * 3)
    bars, theory = fig.data
    width = bars.width
    assert float(np.sum(np.asarray(bars.y)) * width) == pytest.approx(1.0, rel=1e-9)
    np.testing.assert_allclose(theory.y, stats.norm.pdf(theory.x, 10.0, 3.0))
    rects = [s for s in fig.layout.shapes if s.type == "rect"]
    assert any(r.x0 == pytest.approx(10 - 5.88) and r.x1 == pytest.approx(10 + 5.88)
               for r in rects)
    assert any(r.x1 == 0.0 for r in rects), "the negative region is marked"
    _serialises(fig)


def test_histogram_release_figure():
    fig = figures.histogram_release_figure(["a", "b"], [3, 4], [2.5, -1.0], half_width=2.0)
    true, released = fig.data
    assert list(true.y) == [3, 4] and list(released.y) == [2.5, -1.0]
    assert released.error_y.value == 2.0
    assert true.marker.color == COLORS["original"] and released.marker.color == COLORS["private"]
    _serialises(fig)


def test_delta_curve_figure_other_curves():
    eps = np.linspace(0, 5, 11)
    fig = figures.delta_curve_figure(eps, _delta(eps, 1.0), mu=1.0, others=[
        dict(name="markers", eps=eps[:3], delta=[0.3, 0.0, 0.1], color="#000000", mode="markers"),
    ])
    extra = fig.data[1]
    assert extra.mode == "markers" and list(extra.y) == [0.3, 0.1]  # zero dropped on log axis
    _serialises(fig)


# ---------------------------------------------------------------------------
# Randomized response (local DP)
# ---------------------------------------------------------------------------

def test_krr_counts_figure_bars_and_error_bars():
    labels = ["yes", "no", 3]
    true = [300.0, 700.0, 0.0]
    reported = [350.0, 640.0, 10.0]
    estimate = np.array([310.0, 720.0, -30.0])
    lower = estimate - [40.0, 50.0, 20.0]
    upper = estimate + [40.0, 50.0, 25.0]
    fig = figures.krr_counts_figure(labels, true, reported, estimate, lower, upper,
                                    estimator_name="unbiased")
    bars = _bars(fig)
    assert len(bars) == 3
    t, r, e = bars
    for bar in bars:
        assert list(bar.x) == ["yes", "no", "3"]
    assert list(t.y) == true and list(r.y) == reported and list(e.y) == list(estimate)
    assert (t.marker.color, r.marker.color, e.marker.color) == (
        COLORS["original"], COLORS["private"], COLORS["estimate"])
    assert "unbiased" in e.name
    assert e.error_y.symmetric is False
    # The whiskers reach exactly from lower to upper.
    np.testing.assert_allclose(np.asarray(e.y) + np.asarray(e.error_y.array), upper)
    np.testing.assert_allclose(np.asarray(e.y) - np.asarray(e.error_y.arrayminus), lower)
    assert t.error_y.array is None and r.error_y.array is None
    assert fig.layout.barmode == "group"
    assert any(s.y0 == 0 and s.y1 == 0 for s in fig.layout.shapes)  # the zero line
    _serialises(fig)


def _mse_table():
    rows = []
    for eps, theory in ((0.1, 4e6), (1.0, 9e3), (10.0, 2.0)):
        for j, method in enumerate(("unbiased", "clip", "simplex", "ibu")):
            rows.append(dict(eps=eps, method=method, mse=theory * (1 - 0.1 * j),
                             se=theory * 0.01, theory=theory if method == "unbiased" else np.nan))
    import pandas as pd

    return pd.DataFrame(rows)


def test_krr_mse_figure_log_log_with_theory_and_current_eps():
    table = _mse_table()
    names = {"unbiased": "unbiased", "clip": "clip it"}
    fig = figures.krr_mse_figure(table, current_eps=1.0, names=names)
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    by_name = {t.name: t for t in fig.data}
    theory = by_name["exact MSE of the unbiased estimator (theory)"]
    assert list(theory.x) == [0.1, 1.0, 10.0] and list(theory.y) == [4e6, 9e3, 2.0]
    assert theory.line.color == COLORS["theory"] and theory.line.dash == "dash"
    for method in ("unbiased", "clip", "simplex", "ibu"):
        rows = table[table.method == method].sort_values("eps")
        trace = by_name[names.get(method, method)]
        np.testing.assert_allclose(trace.x, rows.eps)
        np.testing.assert_allclose(trace.y, rows.mse)
        np.testing.assert_allclose(trace.error_y.array, 2 * rows.se)  # ± 2 SE
        assert trace.line.color == figures.KRR_ESTIMATOR_COLORS[method]
    colours = [figures.KRR_ESTIMATOR_COLORS[m] for m in ("unbiased", "clip", "simplex", "ibu")]
    assert len(set(colours)) == 4 and COLORS["private"] not in colours
    # Okabe-Ito colours; none is the true counts', the reported counts' or the theory's, and
    # the unbiased estimate keeps the estimate colour of every page.
    assert set(colours) <= set(figures.OKABE_ITO.values())
    assert not {COLORS["original"], COLORS["private"], COLORS["theory"]} & set(colours)
    assert figures.KRR_ESTIMATOR_COLORS["unbiased"] == COLORS["estimate"]
    # The current ε: a vertical line at x = 1 (data units), its label at log10(1) = 0.
    [line] = [s for s in fig.layout.shapes if s.x0 == s.x1]
    assert line.x0 == 1.0 and line.xref == "x"
    [note] = fig.layout.annotations
    assert note.text == "ε = 1" and note.x == 0.0
    _serialises(fig)


def test_krr_mse_figure_marks_any_eps_and_skips_missing_theory():
    table = _mse_table()
    table["theory"] = np.nan
    fig = figures.krr_mse_figure(table, current_eps=0.3)
    assert all("theory" not in t.name for t in fig.data)
    [line] = [s for s in fig.layout.shapes if s.x0 == s.x1]
    assert line.x0 == 0.3
    assert fig.layout.annotations[0].x == pytest.approx(math.log10(0.3))
    _serialises(fig)


# ---------------------------------------------------------------------------
# Random substitution
# ---------------------------------------------------------------------------

def test_substitution_counts_figure_bars_markers_and_released_over_l():
    labels = ["a", "b", 3]
    original = [10.0, 20.0, 30.0]
    released = [24.0, 40.0, 56.0]  # Y*, sums to n·l = 60·2
    source = [11.0, 19.5, 29.5]
    unbiased = [9.0, 21.0, 30.0]
    fig = figures.substitution_counts_figure(labels, original, released, source, unbiased, l=2)
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
    assert src.marker.color == figures.SUBSTITUTION_COLORS["source"] == COLORS["statistic"]
    assert unb.marker.color == figures.SUBSTITUTION_COLORS["unbiased"] == COLORS["estimate"]
    assert "source" in src.name and "unbiased" in unb.name
    assert any(s.y0 == 0 and s.y1 == 0 for s in fig.layout.shapes)
    _serialises(fig)


def test_substitution_counts_figure_at_l_1_shows_y():
    fig = figures.substitution_counts_figure(["a", "b"], [1, 2], [2, 1], [1.5, 1.5], [1.5, 1.5])
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
    fig = figures.substitution_error_figure(_error_curves(), current_l=2, points=points)
    by_name = {t.name: t for t in fig.data}
    bound = by_name["Theorem 4.1 bound / √l"]
    assert list(bound.x) == [1, 2, 3] and list(bound.y) == [0.6, 0.45, 0.3]  # sorted by l
    assert bound.line.dash == "dash" and bound.line.color == COLORS["theory"]
    for kind, ys in (("source", [0.5, 0.36, 0.31]), ("unbiased", [0.5, 0.38, 0.33])):
        [curve] = [t for t in fig.data if t.name.startswith("exact error") and kind in t.name]
        assert list(curve.y) == ys
        assert curve.line.color == figures.SUBSTITUTION_COLORS[kind]
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
    assert fig.layout.annotations[0].text == "l = 2"
    _serialises(fig)


def test_substitution_error_figure_without_points():
    fig = figures.substitution_error_figure(_error_curves(), current_l=1)
    assert len(fig.data) == 3
    assert not any(t.name.startswith("simulated") for t in fig.data)


def test_substitution_epsilon_figure_three_curves_and_ln_gamma():
    import pandas as pd

    log_gamma = math.log(10)
    table = pd.DataFrame({"l": [1, 2, 3], "bound": [log_gamma, 2 * log_gamma, 3 * log_gamma],
                          "ordered": [log_gamma, 2.47, 2.6], "exact": [log_gamma, 2.39, 2.5]})
    fig = figures.substitution_epsilon_figure(table, current_l=3, log_gamma=log_gamma)
    assert len(fig.data) == 3
    for trace, kind in zip(fig.data, ("bound", "ordered", "exact")):
        assert list(trace.x) == [1, 2, 3]
        np.testing.assert_allclose(trace.y, table[kind])
        assert trace.line.color == figures.SUBSTITUTION_COLORS[kind]
    assert fig.data[0].line.dash == "dash" and "γ^l" in fig.data[0].name
    assert "released set" in fig.data[2].name and "order" in fig.data[1].name
    assert fig.layout.yaxis.type == "log"
    horizontal = [s for s in fig.layout.shapes if s.y0 == s.y1]
    assert [s.y0 for s in horizontal] == [log_gamma]
    vertical = [s for s in fig.layout.shapes if s.x0 == s.x1]
    assert [s.x0 for s in vertical] == [3.0]
    # The label of ln γ sits on its line: on a log axis at log10(ln γ).
    [note] = fig.layout.annotations
    assert note.y == pytest.approx(math.log10(log_gamma)) and "ln γ" in note.text
    _serialises(fig)


def test_substitution_cost_figure_two_panels():
    import pandas as pd

    table = pd.DataFrame({"l": [1, 2, 4], "draws_ratio": [1.0, 1.02, 1.07],
                          "collision": [0.0, 0.04, 0.2]})
    fig = figures.substitution_cost_figure(table, current_l=2)
    draws, collision = fig.data
    assert list(draws.x) == [1, 2, 4] and list(draws.y) == [1.0, 1.02, 1.07]
    assert list(collision.y) == [0.0, 0.04, 0.2]
    assert (draws.xaxis, collision.xaxis) == ("x", "x2")  # one panel each
    assert draws.line.color == figures.SUBSTITUTION_COLORS["draws"]
    assert collision.line.color == figures.SUBSTITUTION_COLORS["collision"]
    vertical = [s for s in fig.layout.shapes if s.x0 == s.x1]
    assert [s.x0 for s in vertical] == [2.0, 2.0]  # in both panels
    assert list(fig.layout.yaxis2.range) == [0, 1.02]
    _serialises(fig)


def test_substitution_bias_figure_exact_bars_and_simulated_means():
    labels = ["a", "b", "c"]
    original = np.array([10.0, 20.0, 30.0])
    exact = [1.5, 0.0, -1.5]
    rng = np.random.default_rng(1)
    source = original + rng.normal(0, 2, size=(50, 3)) + exact
    unbiased = original + rng.normal(0, 3, size=(50, 3))
    fig = figures.substitution_bias_figure(labels, original, exact,
                                           {"source": source, "unbiased": unbiased})
    bars = _bars(fig)
    assert len(bars) == 1 and list(bars[0].y) == exact
    [zero] = [t for t in fig.data if t.type == "scatter" and t.mode == "lines"]
    assert list(zero.y) == [0, 0, 0]
    assert zero.line.color == figures.SUBSTITUTION_COLORS["unbiased"]
    for kind, est in (("source", source), ("unbiased", unbiased)):
        [trace] = [t for t in fig.data if t.type == "scatter" and t.mode == "markers"
                   and kind in t.name]
        np.testing.assert_allclose(trace.y, est.mean(axis=0) - original)
        # ± 2 standard errors of the mean: 2 s/√R
        se = np.sqrt(((est - est.mean(axis=0)) ** 2).sum(axis=0) / 49) / math.sqrt(50)
        np.testing.assert_allclose(trace.error_y.array, 2 * se)
        assert "R = 50" in trace.name
        assert trace.marker.color == figures.SUBSTITUTION_COLORS[kind]
    _serialises(fig)


def test_substitution_bias_figure_one_estimator():
    fig = figures.substitution_bias_figure(["a", "b"], [1, 2], [0.1, -0.1],
                                           {"unbiased": np.array([[1.0, 2.0], [1.2, 1.8]])})
    markers = [t for t in fig.data if t.type == "scatter" and t.mode == "markers"]
    assert len(markers) == 1 and "unbiased" in markers[0].name
    np.testing.assert_allclose(markers[0].y, [0.1, -0.1])


def test_substitution_colours_come_from_the_scheme():
    assert set(figures.SUBSTITUTION_COLORS.values()) <= set(COLORS.values())
    assert figures.SUBSTITUTION_COLORS["source"] != figures.SUBSTITUTION_COLORS["unbiased"]


def test_substitution_curves_of_one_l_are_drawn_as_markers():
    """N = 2 leaves l = 1 only: a line through one point would not show."""
    import pandas as pd

    one = pd.DataFrame({"l": [1], "bound": [0.6], "source": [0.5], "unbiased": [0.5]})
    fig = figures.substitution_error_figure(one, current_l=1)
    assert {t.mode for t in fig.data} == {"markers"}
    table = pd.DataFrame({"l": [1], "bound": [2.3], "ordered": [2.3], "exact": [2.3]})
    fig = figures.substitution_epsilon_figure(table, current_l=1, log_gamma=2.3)
    assert {t.mode for t in fig.data} == {"markers"}
    assert figures.substitution_epsilon_figure(
        pd.concat([table, table.assign(l=2)]), current_l=1, log_gamma=2.3).data[0].mode == "lines"


# ---------------------------------------------------------------------------
# Privacy-utility planner
# ---------------------------------------------------------------------------

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
    fig = figures.planner_power_figure(points, x=x, target=0.8, estimate=estimate,
                                       interval=interval, level=0.05)
    trace = _power_trace(fig)
    ordered = points.sort_values(x)
    np.testing.assert_allclose(trace.x, ordered[x])  # sorted by x
    np.testing.assert_allclose(trace.y, ordered["power"])
    np.testing.assert_allclose(trace.error_y.array, ordered["ci_high"] - ordered["power"])
    np.testing.assert_allclose(trace.error_y.arrayminus, ordered["power"] - ordered["ci_low"])
    assert trace.line.color == figures.PLANNER_COLORS["bootstrap"]
    assert fig.layout.xaxis.type == "log"
    # The target (dashed) and the level (dotted) as horizontal lines.
    hlines = {s.y0: s for s in fig.layout.shapes if s.y0 == s.y1}
    assert set(hlines) == {0.8, 0.05}
    assert hlines[0.8].line.dash == "dash" and hlines[0.05].line.dash == "dot"
    assert any("target power 80%" in a.text for a in fig.layout.annotations)
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
    _serialises(fig)


def test_planner_power_figure_infinite_or_zero_interval_ends_go_to_the_axis_edge():
    points = _power_points()
    fig = figures.planner_power_figure(points, target=0.8, estimate=5_000.0,
                                       interval=(0.0, math.inf))
    [band] = [t for t in fig.data if t.fill == "toself"]
    lo, hi = fig.layout.xaxis.range
    assert all(np.isfinite(band.x))
    assert min(band.x) == pytest.approx(10 ** lo) and max(band.x) == pytest.approx(10 ** hi)
    _serialises(fig)


def test_planner_power_figure_without_estimate_and_with_two_tests():
    import pandas as pd

    points = pd.concat([_power_points(), _power_points().assign(test="chisq")])
    fig = figures.planner_power_figure(points, target=0.9)
    names = [t.name for t in fig.data]
    assert not any(n and n.startswith("estimate") for n in names)
    assert not any(t.fill == "toself" for t in fig.data)
    curves = [t for t in fig.data if t.name and "simulated power" in t.name]
    assert [c.line.dash for c in curves] == ["solid", "dash"]
    assert "naive χ²" in curves[1].name
    with pytest.raises(ValueError, match="`x` must be one of"):
        figures.planner_power_figure(points, x="m", target=0.9)


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
    fig = figures.planner_frontier_figure(table, current=(0.1, 10_000), level=0.05, power=0.8)
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
    _serialises(fig)


def test_planner_frontier_figure_all_valid_has_no_invalid_entry():
    table = _frontier_table()
    table["valid"] = True
    fig = figures.planner_frontier_figure(table)
    assert not any("invalid" in t.name for t in fig.data)
    assert not any(t.name.startswith("your choice") for t in fig.data)
    assert all(t.showlegend is False for t in fig.data if t.name.endswith("holds the level"))
    _serialises(fig)


def test_planner_distributions_figure():
    fig = figures.planner_distributions_figure(["0–9", "10+"], [0.4, 0.6], [0.5, 0.5],
                                               name_a="Seoul", name_b="Busan")
    bars = _bars(fig)
    assert [b.name for b in bars] == ["Seoul", "Busan"]
    assert list(bars[0].y) == [0.4, 0.6] and list(bars[1].x) == ["0–9", "10+"]
    assert bars[0].marker.color == COLORS["A"] and bars[1].marker.color == COLORS["B"]
    _serialises(fig)


# --- exports --------------------------------------------------------------------------------

def test_figure_data_reads_back_every_plotted_point():
    fig = go.Figure([
        go.Scatter(x=[1.0, 2.0], y=[3.0, 4.0], name="curve",
                   error_y=dict(type="data", array=[0.1, 0.2], arrayminus=[0.3, 0.4])),
        go.Bar(x=["u", "v"], y=[5, 6]),
        go.Histogram(x=[1, 2, 2]),
    ])
    data = figures.figure_data(fig)
    assert list(data["trace"]) == ["curve"] * 2 + ["trace 1"] * 2 + ["trace 2"] * 3
    np.testing.assert_allclose(data["error_low"][:2], [2.7, 3.6])
    np.testing.assert_allclose(data["error_high"][:2], [3.1, 4.2])
    assert list(data["x"][2:4]) == ["u", "v"] and list(data["y"][2:4]) == [5, 6]
    assert list(data["x"][4:]) == [1, 2, 2]


def test_figure_data_of_a_real_figure_matches_its_inputs():
    rng = np.random.default_rng(0)
    original, private = rng.integers(0, 100, 9), rng.uniform(0, 100, 9)
    fig = histograms_figure([str(i) for i in range(9)], private, private[::-1],
                            original_a=original, original_b=original[::-1])
    data = figures.figure_data(fig)
    assert len(data) == sum(len(t.x) for t in fig.data)
    expected = np.concatenate([np.asarray(t.y, float) for t in fig.data])
    np.testing.assert_allclose(data["y"].astype(float), expected)
    np.testing.assert_allclose(data["y"][9:18].astype(float), private)  # A, private
    assert set(data["subplot"]) == {"x", "x2"}  # A and B side by side, same legend names


def test_figure_data_marks_subplots():
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2)
    fig.add_trace(go.Scatter(x=[1], y=[2], name="left"), row=1, col=1)
    fig.add_trace(go.Scatter(x=[3], y=[4], name="right"), row=1, col=2)
    assert list(figures.figure_data(fig)["subplot"]) == ["x", "x2"]


def test_figure_html_is_standalone_and_titled():
    page = figures.figure_html(go.Figure(go.Scatter(x=[1], y=[2])), "A <b> title")
    assert page.lower().startswith("<!doctype html>") and "plotly.js v" in page
    assert "<title>A &lt;b&gt; title</title>" in page
