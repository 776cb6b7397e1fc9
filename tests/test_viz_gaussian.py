"""Tests of dpviz.gaussian: the figures of the page "Gaussian mechanism"."""

import numpy as np
import pytest
from scipy import stats

import dpviz
from dpviz.style import COLORS
from vizkit import data_traces, legend_entries, serialises, vline_x0


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
    fig = dpviz.gaussian.privacy_loss_figure(mean, var, eps, tail_delta=tail, exact_delta=exact,
                                             points=4001)
    tail_trace, exact_trace, density = data_traces(fig)
    assert _trapezoid(tail_trace.x, tail_trace.y) == pytest.approx(tail, rel=2e-3, abs=1e-6)
    assert _trapezoid(exact_trace.x, exact_trace.y) == pytest.approx(exact, rel=2e-3, abs=1e-6)
    assert _trapezoid(density.x, density.y) == pytest.approx(1.0, abs=1e-4)
    assert min(tail_trace.x) == eps and min(exact_trace.x) == eps
    assert f"{tail:.3g}" in tail_trace.name and f"{exact:.3g}" in exact_trace.name
    assert vline_x0(fig) == [eps]
    assert list(legend_entries(fig)) == [f"ε = {eps:g}"] and not fig.layout.annotations
    serialises(fig)


def test_privacy_loss_figure_log_axis():
    fig = dpviz.gaussian.privacy_loss_figure(0.02, 0.04, 1.0, tail_delta=1e-6, exact_delta=1e-7,
                                             log_y=True)
    assert fig.layout.yaxis.type == "log"
    serialises(fig)


def test_calibration_figure_bars_and_invalid_hatching():
    from dpcore import gaussian

    table = gaussian.calibration_table(2.0, 1e-5, 1.0)
    fig = dpviz.gaussian.calibration_figure(table)
    by_name = {t.y[0]: t for t in fig.data}
    for row in table.itertuples():
        bar = by_name[row.name]
        assert bar.x[0] == pytest.approx(row.sigma)
        assert bar.marker.color == dpviz.gaussian.CALIBRATION_COLORS[row.method]
        assert bar.marker.pattern.shape == ("" if row.valid else "/")
    assert by_name[table.name[table.method == "classical"].iloc[0]].marker.pattern.shape == "/"
    # a calibration without a solution (NaN σ) is left out
    fig = dpviz.gaussian.calibration_figure(gaussian.calibration_table(0.0, 1e-3))
    assert len(fig.data) == 1
    serialises(fig)


def test_release_distribution_figure_density_and_interval():
    rng = np.random.default_rng(0)
    releases = 10 + 3 * rng.standard_normal(20_000)
    fig = dpviz.gaussian.release_distribution_figure(releases, 10.0, 3.0, half_width=1.96 * 3)
    bars, theory = data_traces(fig)
    width = bars.width
    assert float(np.sum(np.asarray(bars.y)) * width) == pytest.approx(1.0, rel=1e-9)
    np.testing.assert_allclose(theory.y, stats.norm.pdf(theory.x, 10.0, 3.0))
    rects = [s for s in fig.layout.shapes if s.type == "rect"]
    assert any(r.x0 == pytest.approx(10 - 5.88) and r.x1 == pytest.approx(10 + 5.88)
               for r in rects)
    assert any(r.x1 == 0.0 for r in rects), "the negative region is marked"
    # The bands and the true value named in the legend, in their colours, not on the plot.
    entries = legend_entries(fig)
    assert list(entries) == ["95% of releases", "negative", "true 10"]
    assert entries["95% of releases"].marker.line.color == COLORS["estimate"]
    assert entries["negative"].marker.line.color == COLORS["statistic"]
    assert entries["true 10"].line.color == COLORS["original"]
    assert not fig.layout.annotations
    serialises(fig)


def test_histogram_release_figure():
    fig = dpviz.gaussian.histogram_release_figure(["a", "b"], [3, 4], [2.5, -1.0], half_width=2.0)
    true, released = fig.data
    assert list(true.y) == [3, 4] and list(released.y) == [2.5, -1.0]
    assert released.error_y.value == 2.0
    assert true.marker.color == COLORS["original"] and released.marker.color == COLORS["private"]
    serialises(fig)


def test_chart_labels_are_never_in_e_notation():
    """Issue 18: bar labels read "σ = 7.035e+05"; every label, legend name and annotation is
    written as a statistician writes it (703,500; 9.02·10⁻⁵)."""
    import re

    from dpcore import gaussian

    e_notation = re.compile(r"\d[eE][+\-]?\d")
    fig = dpviz.gaussian.calibration_figure(gaussian.calibration_table(0.01, 1e-12, 1000.0))
    labels = [text for trace in fig.data for text in trace.text]
    assert labels and not any(e_notation.search(text) for text in labels), labels
    assert any(re.search(r"σ = \d{3},\d{3} ", text) for text in labels), labels
    fig = dpviz.gaussian.privacy_loss_figure(2e-9, 4e-9, 1e-4, tail_delta=9.024e-5,
                                             exact_delta=1.2e-7)
    fig2 = dpviz.gaussian.release_distribution_figure([1.2e6, 1.3e6], 1.25e6, 7.035e5,
                                                      half_width=1.4e6)
    texts = [t.name for t in (*fig.data, *fig2.data)]
    assert not any(e_notation.search(text) for text in texts), texts
    assert "P(L > ε) = 9.02·10⁻⁵" in texts and "true 1,250,000" in texts
