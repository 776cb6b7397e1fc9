"""Tests of dpviz.homogeneity: the histograms, null distribution, debiasing and
calibration figures.

Expected values are computed here independently of dpcore: g(C) and k(alpha)
from the formulas of Son, Park & Jung (2022) eqs. (4.1) and (4.2) with numpy,
the chi-square density with scipy.stats.
"""

import math

import numpy as np
import pytest
from scipy import stats

import dpviz
from dpviz.homogeneity import debias_figure, histograms_figure, null_distribution_figure
from dpviz.style import COLORS
from vizkit import bar_traces, data_traces, legend_entries, serialises, vline_x0


def _g(c, alpha):
    """g(C) = C + exp(-alpha C / 2) / alpha, eq. (4.1)."""
    c = np.asarray(c, dtype=float)
    return c + np.exp(-alpha * c / 2.0) / alpha


def _k(alpha):
    """k(alpha) = c* + 5 with c* = -2 ln(5 alpha) / alpha, valid for alpha <= 0.2."""
    assert alpha <= 0.2
    return -2.0 * math.log(5.0 * alpha) / alpha + 5.0


def _annotation_texts(fig):
    return [a.text for a in fig.layout.annotations]


def _entry_names(fig):
    """The names of the legend entries of the figure's lines and bands."""
    return list(legend_entries(fig))


# ---------------------------------------------------------------------------
# histograms_figure
# ---------------------------------------------------------------------------

LABELS = ["0\u20134", "5\u20139", "10+"]
ORIG_A, ORIG_B = [10, 20, 30], [40, 50, 60]
PRIV_A, PRIV_B = [11.5, 0.0, 29.25], [38.0, 51.75, 0.5]


def test_histograms_with_originals():
    fig = histograms_figure(LABELS, PRIV_A, PRIV_B, original_a=ORIG_A, original_b=ORIG_B,
                            name_a="Seoul", name_b="Busan")
    bars = bar_traces(fig)
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
    serialises(fig)


def test_histograms_without_originals():
    fig = histograms_figure([0, 1, 2], PRIV_A, PRIV_B)
    bars = bar_traces(fig)
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
    serialises(fig)


def test_histograms_only_one_original():
    fig = histograms_figure(LABELS, PRIV_A, PRIV_B, original_a=ORIG_A)
    originals = [t for t in bar_traces(fig) if t.marker.color == COLORS["original"]]
    assert len(originals) == 1 and originals[0].xaxis == "x"
    assert np.array_equal(np.asarray(originals[0].y, dtype=float), ORIG_A)


# ---------------------------------------------------------------------------
# null_distribution_figure
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def null():
    return np.random.default_rng(20220).chisquare(5, size=2000)


def test_null_distribution_with_statistic_in_range(null):
    crit = float(np.quantile(null, 0.95))
    statistic = 8.5
    fig = null_distribution_figure(null, statistic, crit)
    hists = [t for t in fig.data if t.type == "histogram"]
    assert len(hists) == 1
    assert np.array_equal(np.asarray(hists[0].x, dtype=float), null)
    assert not any(t.type == "scatter" for t in data_traces(fig))  # no df, no density
    assert vline_x0(fig) == sorted([crit, statistic])
    lo, hi = fig.layout.xaxis.range
    assert lo == 0 and hi > max(crit, statistic)
    # Both lines named in the legend, in their colours; no label on the plot.
    entries = legend_entries(fig)
    assert list(entries) == [f"95% critical value {crit:,.1f}", "observed T = 8.5"]
    assert entries["observed T = 8.5"].line.color == COLORS["statistic"]
    assert entries[f"95% critical value {crit:,.1f}"].line.dash == "dash"
    assert not fig.layout.annotations
    serialises(fig)


def test_null_distribution_labels_never_meet_at_the_smallest_epsilon(null):
    """The issue's case: T right next to the critical value (both labels were drawn on
    top of each other, "observed T" on the x-axis line) and the density axis in 10⁻ⁿ."""
    fig = null_distribution_figure(null * 1e4, 27.7e4, 27.6e4, df=None)
    assert not fig.layout.annotations
    assert _entry_names(fig) == ["95% critical value 276,000.0", "observed T = 277,000.0"]
    assert fig.layout.yaxis.exponentformat == "power"
    assert fig.layout.xaxis.exponentformat == "none" and fig.layout.xaxis.separatethousands


def test_null_distribution_statistic_far_beyond(null):
    crit = float(np.quantile(null, 0.95))
    fig = null_distribution_figure(null, 1e6, crit, df=5)
    # Only the critical value's line; T is named in the legend instead, and a bare arrow
    # (no text, nothing to collide with) points beyond the right edge.
    assert vline_x0(fig) == [crit]
    entries = legend_entries(fig)
    assert list(entries) == [f"95% critical value {crit:,.1f}",
                             "observed T = 1,000,000.0 (beyond the right edge)"]
    assert entries["observed T = 1,000,000.0 (beyond the right edge)"].marker.symbol == \
        "arrow-right"
    [arrow] = fig.layout.annotations
    assert arrow.text == "" and arrow.showarrow and arrow.x == fig.layout.xaxis.range[1]
    # The axis is not stretched to T.
    assert fig.layout.xaxis.range[1] < 1e3
    serialises(fig)


def test_null_distribution_density_only_with_df(null):
    crit = float(np.quantile(null, 0.95))
    without = null_distribution_figure(null, 3.0, crit)
    assert [t.type for t in data_traces(without)] == ["histogram"]
    fig = null_distribution_figure(null, 3.0, crit, df=5, level=0.01)
    curves = [t for t in data_traces(fig) if t.type == "scatter"]
    assert len(curves) == 1
    x = np.asarray(curves[0].x, dtype=float)
    y = np.asarray(curves[0].y, dtype=float)
    assert x.size > 50 and x[0] == 0.0
    np.testing.assert_allclose(y, stats.chi2.pdf(x, 5), rtol=1e-12, atol=0)
    # The density reaches at least the chi-square's 99.9% quantile.
    assert x[-1] >= stats.chi2.ppf(0.999, 5) - 1e-9
    assert any("99%" in t for t in _entry_names(fig))
    serialises(fig)


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
    serialises(fig)


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
    serialises(fig)


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
    notes = [t for t in _entry_names(fig) if "off the chart" in t]
    assert len(notes) == 1 and notes[0].startswith(f"{off} counts")
    assert not fig.layout.annotations  # in the legend: in the corner it met g(C)
    serialises(fig)


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
    serialises(fig)


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
    fig = dpviz.homogeneity.null_statistics_figure(without, with_dp, 19, alpha=0.5)
    hists = [t for t in fig.data if t.type == "histogram"]
    np.testing.assert_array_equal(hists[0].x, without)
    np.testing.assert_array_equal(hists[1].x, with_dp)
    assert hists[0].marker.color == COLORS["original"]
    assert hists[1].marker.color == COLORS["private"]
    [curve] = [t for t in data_traces(fig) if t.type == "scatter"]
    np.testing.assert_allclose(curve.y, stats.chi2.pdf(curve.x, 19))
    assert fig.layout.shapes[0].x0 == pytest.approx(stats.chi2.ppf(0.95, 19))
    assert _entry_names(fig) == ["χ² 5% critical value"] and not fig.layout.annotations
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
    fig = dpviz.homogeneity.rejection_figure(_rates())
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
    assert _entry_names(fig) == ["5% level"] and not fig.layout.annotations
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
    fig = dpviz.homogeneity.study_figure(pd.concat(parts, ignore_index=True))
    titles = [a.text for a in fig.layout.annotations]
    assert [t for t in titles if t.startswith("M =")] == ["M = 86", "M = 18", "M = 9"]
    privacy = [t for t in titles if t.startswith("ε")]
    # plotly lists row titles bottom to top
    assert privacy[::-1] == ["ε = 1", "ε = 0.01", "ε_A = 0.1, ε_B = 0.05"]
    # Every panel's N axis is logarithmic; the titled ones (the bottom row, the first
    # column) say so and what a rate counts.
    xs, ys = _axis_titles(fig)
    assert {kind for kind, _ in xs} == {"log"}
    assert [t for _, t in xs if t] == ["N per histogram (log scale)"] * 3
    assert [t for t in ys if t] == ["rejection rate (share of replicates)"] * 3
    fig.to_json()


def test_rejection_figure_draws_the_normal_score_test_apart():
    import pandas as pd

    table = pd.concat([_rates(), _rates().query("test == 'bootstrap'").assign(
        test="normal_score", rate=0.048)], ignore_index=True)
    by_name = {t.name: t for t in data_traces(dpviz.homogeneity.rejection_figure(table))}
    assert set(by_name) == {"parametric bootstrap", "naive χ²", "normal-score contrast"}
    colors = {name: t.line.color for name, t in by_name.items()}
    assert colors == {"parametric bootstrap": COLORS["estimate"], "naive χ²": COLORS["statistic"],
                      "normal-score contrast": COLORS["original"]}
    assert by_name["normal-score contrast"].line.dash == "dashdot"
    np.testing.assert_allclose(by_name["normal-score contrast"].y, [0.048, 0.048])


# ---------------------------------------------------------------------------
# extended_null_figure
# ---------------------------------------------------------------------------

def _extended_table():
    """Two M, two privacy pairs, two size pairs and three tests, with distinct made-up rates
    (the rate is 1% per row, its interval 1 point below and 2 above)."""
    import pandas as pd

    rows = []
    for m in (9, 86):
        for a1, a2 in ((0.01, 0.1), (1.0, 1.0)):
            for n, n2 in ((10_000, 100_000), (1000, 1000)):
                for test in ("normal_score", "chisq", "bootstrap"):
                    rate = 0.01 * (len(rows) + 1)
                    rows.append(dict(m=m, alpha1=a1, alpha2=a2, n=n, n2=n2, test=test,
                                     rate=rate, ci_low=rate - 0.01, ci_high=rate + 0.02))
    return pd.DataFrame(rows)


def test_extended_null_figure_panels_points_and_intervals():
    table = _extended_table()
    fig = dpviz.homogeneity.extended_null_figure(table)
    # One row of panels per M, the largest first, named on the right.
    assert [a.text for a in fig.layout.annotations if a.text.startswith("M =")] == [
        "M = 86", "M = 9"]
    by_axis = {"M = 86": "x", "M = 9": "x2"}
    # A trace per (M, test), in the tests' order; each test in the legend once.
    assert [(t.xaxis, t.name) for t in data_traces(fig)] == [
        (axis, name) for axis in ("x", "x2")
        for name in ("parametric bootstrap", "naive χ²", "normal-score contrast")]
    assert [t.name for t in data_traces(fig) if t.showlegend] == [
        "parametric bootstrap", "naive χ²", "normal-score contrast"]
    assert {t.marker.color for t in fig.data if t.name == "normal-score contrast"} == {
        COLORS["original"]}
    for trace in data_traces(fig):
        m = 86 if trace.xaxis == by_axis["M = 86"] else 9
        test = {"parametric bootstrap": "bootstrap", "naive χ²": "chisq",
                "normal-score contrast": "normal_score"}[trace.name]
        rows = table[(table["m"] == m) & (table["test"] == test)]
        outer, inner = trace.x
        # Weakest privacy first, then the sizes, smallest first.
        assert list(outer) == ["(1, 1)"] * 2 + ["(0.01, 0.1)"] * 2
        assert list(inner) == ["1k/1k", "10k/100k"] * 2
        expected = rows.set_index(["alpha1", "n"]).loc[
            [(1.0, 1000), (1.0, 10_000), (0.01, 1000), (0.01, 10_000)]]
        np.testing.assert_allclose(trace.y, expected["rate"])
        np.testing.assert_allclose(trace.error_y.array, [0.02] * 4)
        np.testing.assert_allclose(trace.error_y.arrayminus, [0.01] * 4)
        assert [list(c[2:]) for c in trace.customdata] == [
            ["1,000", "1,000"], ["10,000", "100,000"]] * 2
    assert all(ax.type == "multicategory" for ax in (fig.layout.xaxis, fig.layout.xaxis2))
    assert fig.layout.scattermode == "group"  # the tests side by side within a setting
    serialises(fig)


def test_extended_null_figure_shades_the_band_and_draws_the_level():
    fig = dpviz.homogeneity.extended_null_figure(_extended_table(), level=0.05,
                                                 band=(0.025, 0.075))
    rects = [s for s in fig.layout.shapes if s.type == "rect"]
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    # In each of the two panels: the band shaded and the level line.
    assert sorted((s.y0, s.y1) for s in rects) == [(0.025, 0.075)] * 2
    assert {s.yref for s in rects} == {"y", "y2"}
    assert [(s.y0, s.y1) for s in lines] == [(0.05, 0.05)] * 2
    assert fig.layout.yaxis.range[0] == 0 and fig.layout.yaxis.range[1] > 0.26  # every interval
    assert fig.layout.yaxis.tickformat == ".0%"
    # The level line and the band named in the legend (their note above the plot met the
    # legend): the line dotted, the band a square of its fill.
    entries = legend_entries(fig)
    assert list(entries) == ["5% level", "target 2.5% to 7.5%"]
    assert entries["5% level"].line.dash == "dot"
    assert entries["target 2.5% to 7.5%"].marker.color == rects[0].fillcolor
    # the only annotations left are the panels' titles (M = …)
    assert [a.text for a in fig.layout.annotations] == ["M = 86", "M = 9"]
    # the entries take no slot among the tests within a setting
    assert {t.offsetgroup for t in data_traces(fig)} == {"bootstrap", "chisq", "normal_score"}
    # One M: one panel, titled on its own axis.
    one = dpviz.homogeneity.extended_null_figure(_extended_table().query("m == 9"))
    assert len({t.xaxis for t in data_traces(one)}) == 1
    assert one.layout.yaxis.title.text == dpviz.homogeneity.EXTENDED_Y_TITLE
    serialises(one)


def test_extended_null_figure_exports_its_settings():
    fig = dpviz.homogeneity.extended_null_figure(_extended_table())
    data = dpviz.export.figure_data(fig)
    assert list(data.columns) == ["trace", "subplot", "x", "y", "error_low", "error_high"]
    assert len(data) == len(_extended_table())
    assert list(data["x"][:2]) == ["(1, 1) | 1k/1k", "(1, 1) | 10k/100k"]
    np.testing.assert_allclose(data["error_high"] - data["y"].astype(float), 0.02)


def test_compare_page_figures_write_epsilon_and_no_e_notation():
    """Issue 18: the debiasing chart labels the privacy level ε (1/ε, k(ε), g(C) at ε = …),
    never α; the null distribution's tiny densities are written in powers of ten, not
    e-notation, on the axis and on hover."""
    fig = debias_figure(0.05, 0.2, [1.0, 2.0], [3.0, 4.0], [0.0, 0.0], [0.0, 0.0])
    words = [t.name or "" for t in fig.data]
    assert not [w for w in words if "α" in w], words
    assert any(w.startswith("1/ε = ") for w in words) and any(w.startswith("k(ε) = ")
                                                               for w in words)
    assert [t.name for t in _g_curves(fig)] == ["g(C), ε = 0.05 (A)", "g(C), ε = 0.2 (B)"]
    null = np.random.default_rng(0).chisquare(5, 500) * 1e4
    fig = null_distribution_figure(null, 3e4, 1e5, df=5)
    assert fig.layout.yaxis.exponentformat == "power"
    assert "%{y:.3~r}" in fig.data[0].hovertemplate and "g}" not in fig.data[0].hovertemplate
