"""Tests of dpviz.ldp: the k-RR counts and MSE figures."""

import numpy as np
import pytest

import dpviz
from dpviz.style import COLORS, OKABE_ITO
from vizkit import bar_traces, legend_entries, serialises


def test_krr_counts_figure_bars_and_error_bars():
    labels = ["yes", "no", 3]
    true = [300.0, 700.0, 0.0]
    reported = [350.0, 640.0, 10.0]
    estimate = np.array([310.0, 720.0, -30.0])
    lower = estimate - [40.0, 50.0, 20.0]
    upper = estimate + [40.0, 50.0, 25.0]
    fig = dpviz.ldp.krr_counts_figure(labels, true, reported, estimate, lower, upper,
                                      estimator_name="unbiased")
    bars = bar_traces(fig)
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
    serialises(fig)


def test_krr_counts_figure_names_its_whiskers_and_adds_a_note_per_category():
    estimate = np.array([310.0, 720.0])
    notes = ["covered 93.7% of 5,000", "covered 98.7% of 5,000"]
    fig = dpviz.ldp.krr_counts_figure(["a", "b"], [300.0, 700.0], [350.0, 640.0], estimate,
                                      estimate - 40, estimate + 40, estimator_name="clip",
                                      whisker_name="± 2 SE of the unbiased estimator",
                                      whisker_notes=notes)
    e = bar_traces(fig)[2]
    assert e.name == "estimate n̂_v (clip) ± 2 SE of the unbiased estimator"
    assert "± 2 SE of the unbiased estimator: %{customdata[0]" in e.hovertemplate
    assert [row[2] for row in e.customdata] == [f"<br>{n}" for n in notes]
    np.testing.assert_allclose([row[0] for row in e.customdata], estimate - 40)
    np.testing.assert_allclose([row[1] for row in e.customdata], estimate + 40)
    serialises(fig)
    with pytest.raises(ValueError, match="whisker_notes"):
        dpviz.ldp.krr_counts_figure(["a", "b"], [1.0, 2.0], [1.0, 2.0], estimate,
                                    estimate, estimate, estimator_name="clip",
                                    whisker_notes=notes[:1])


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
    fig = dpviz.ldp.krr_mse_figure(table, current_eps=1.0, names=names)
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
        assert trace.line.color == dpviz.ldp.KRR_ESTIMATOR_COLORS[method]
    colours = [dpviz.ldp.KRR_ESTIMATOR_COLORS[m] for m in ("unbiased", "clip", "simplex", "ibu")]
    assert len(set(colours)) == 4 and COLORS["private"] not in colours
    # Okabe-Ito colours; none is the true counts', the reported counts' or the theory's, and
    # the unbiased estimate keeps the estimate colour of every page.
    assert set(colours) <= set(OKABE_ITO.values())
    assert not {COLORS["original"], COLORS["private"], COLORS["theory"]} & set(colours)
    assert dpviz.ldp.KRR_ESTIMATOR_COLORS["unbiased"] == COLORS["estimate"]
    # The current ε: a vertical line at x = 1 (data units), named in the legend.
    [line] = [s for s in fig.layout.shapes if s.x0 == s.x1]
    assert line.x0 == 1.0 and line.xref == "x"
    [entry] = legend_entries(fig).values()
    assert entry.name == "ε = 1" and entry.line.dash == line.line.dash == "dot"
    assert not fig.layout.annotations
    # ε written out on its log axis (0.1, 1, 10); the MSE in powers of ten
    assert fig.layout.xaxis.exponentformat == "none"
    assert fig.layout.yaxis.exponentformat == "power"
    serialises(fig)


def test_krr_mse_figure_marks_any_eps_and_skips_missing_theory():
    table = _mse_table()
    table["theory"] = np.nan
    fig = dpviz.ldp.krr_mse_figure(table, current_eps=0.3)
    assert all("theory" not in t.name for t in fig.data)
    [line] = [s for s in fig.layout.shapes if s.x0 == s.x1]
    assert line.x0 == 0.3
    assert list(legend_entries(fig)) == ["ε = 0.3"]
    serialises(fig)
