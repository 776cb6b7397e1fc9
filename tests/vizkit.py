"""Helpers shared by the tests of dpviz's figure builders (tests/test_viz_*.py)."""

import json

import plotly.graph_objects as go
import plotly.io as pio

from dpviz.style import TEMPLATE_NAME, is_legend_entry


def serialises(fig):
    """``fig`` is a Plotly figure whose JSON parses, drawn on the dashboard's template with
    the defaults of each of its trace types (the slim template keeps only the types drawn:
    a new type must be added to it to look as plotly_white draws it)."""
    assert isinstance(fig, go.Figure)
    json.loads(fig.to_json())
    assert fig.layout.template.to_plotly_json() == pio.templates[TEMPLATE_NAME].to_plotly_json()
    kept = set(pio.templates[TEMPLATE_NAME].data.to_plotly_json())
    assert {trace.type for trace in fig.data} <= kept


def bar_traces(fig):
    """The figure's bar traces, in order."""
    return [t for t in fig.data if t.type == "bar"]


def vline_x0(fig):
    """The x of every vertical line shape, sorted."""
    return sorted(float(s.x0) for s in fig.layout.shapes if s.type == "line" and s.x0 == s.x1)


def legend_entries(fig):
    """The legend entries that name the figure's lines and bands
    (:func:`dpviz.style.legend_entry`), as {name: trace}."""
    return {t.name: t for t in fig.data if is_legend_entry(t)}


def data_traces(fig):
    """The figure's traces that carry data: every trace but its legend entries."""
    return [t for t in fig.data if not is_legend_entry(t)]


def every_figure():
    """Every figure builder of dpviz, called at representative inputs (those of the
    tests/test_viz_*.py files, and the edge cases where labels used to meet: T next to the
    critical value, T beyond the axis, counts off the debiasing chart, releases below 0,
    a power chart without points). A list of (label, figure, builder), builder the
    function's "module.name"."""
    import math

    import numpy as np
    import pandas as pd
    from scipy import stats

    import dpviz
    from dpcore import gaussian as dp_gaussian

    out = []

    def call(label, builder, *args, **kwargs):
        out.append((label, builder(*args, **kwargs),
                    f"{builder.__module__.removeprefix('dpviz.')}.{builder.__name__}"))

    fdp, gauss, hom = dpviz.fdp, dpviz.gaussian, dpviz.homogeneity
    ldp, plan, sub = dpviz.ldp, dpviz.planner, dpviz.substitution
    rng = np.random.default_rng(0)

    # f-DP
    a = np.linspace(0, 1, 11)
    g1 = stats.norm.cdf(stats.norm.ppf(1 - a) - 1.0)
    g2 = stats.norm.cdf(stats.norm.ppf(1 - a) - 2.0)
    call("tradeoff", fdp.tradeoff_figure, [("G_2", a, g2, "#000000", "solid")],
         target=("G_1", a, g1), failing=[("G_2", a[g2 < g1], g2[g2 < g1])],
         point=(0.05, 0.74), corner=True)
    x = np.linspace(-4, 5, 181)
    call("attacker", fdp.attacker_test_figure, x, stats.norm.pdf(x), stats.norm.pdf(x, 1.0),
         1.234, alpha=0.1086, beta=0.59)
    eps = np.linspace(0, 10, 50)
    delta = stats.norm.cdf(-eps + 0.5) - np.exp(eps) * stats.norm.cdf(-eps - 0.5)
    call("delta log", fdp.delta_curve_figure, eps, delta, mu=1.0, point=(1.0, 0.127))
    call("delta zero", fdp.delta_curve_figure, eps, np.zeros(50), mu=0.0, point=(2.0, 0.0))

    # Gaussian mechanism
    call("privacy loss", gauss.privacy_loss_figure, 0.32, 0.64, 0.5, tail_delta=0.4,
         exact_delta=0.1)
    call("privacy loss log", gauss.privacy_loss_figure, 2e-9, 4e-9, 1e-4, tail_delta=9e-5,
         exact_delta=1.2e-7, log_y=True)
    call("calibration", gauss.calibration_figure,
         dp_gaussian.calibration_table(0.01, 1e-12, 1000.0))
    call("releases", gauss.release_distribution_figure, 3 + 3 * rng.standard_normal(5000),
         3.0, 3.0, half_width=5.88)
    call("releases large", gauss.release_distribution_figure, [1.2e6, 1.3e6], 1.25e6, 7.035e5,
         half_width=1.4e6)
    call("histogram release", gauss.histogram_release_figure, ["a", "b"], [30_000, 4],
         [29_990.5, -1.0], half_width=2.0)

    # Compare two histograms and the tests' calibration
    null = rng.chisquare(5, 2000)
    call("histograms", hom.histograms_figure, ["0–4", "5–9"], [11.5, 20_000.0], [38.0, 0.5],
         original_a=[10, 20_001], original_b=[40, 0], name_a="Seoul", name_b="Busan")
    crit = float(np.quantile(null, 0.95))
    call("null in range", hom.null_distribution_figure, null, 8.5, crit)
    call("null T at the critical value", hom.null_distribution_figure, null * 1e4,
         crit * 1e4 + 1, crit * 1e4, df=None)
    call("null T beyond", hom.null_distribution_figure, null, 1e6, crit, df=5, level=0.01)
    call("debias equal", hom.debias_figure, 0.1, 0.1, [0.0, 3.0, 12.0], [1.0, 15.0, 25.0],
         [0.0, 0.5, 8.0], [0.0, 11.0, 25.0])
    call("debias differ", hom.debias_figure, 0.05, 0.2, [1.0, 2.0], [3.0, 4.0], [0.0, 0.0],
         [0.0, 0.0], name_a="A", name_b="B")
    call("debias zoom", hom.debias_figure, 0.01, 0.01, [0.0, 12.0, 5000.0], [2.0, 56.0],
         [0.0, 7.0, 5000.0], [0.0, 56.0], zoom=True)
    call("null statistics", hom.null_statistics_figure, rng.chisquare(19, 500),
         rng.chisquare(19, 500) + 5, 19, alpha=0.5)
    rows = [dict(n=n, test=test, rate=rate, ci_low=rate - 0.01, ci_high=rate + 0.02)
            for n in (1000, 10_000, 1_000_000)
            for test, rate in (("bootstrap", 0.05), ("chisq", 0.6), ("normal_score", 0.048))]
    rates = pd.DataFrame(rows)
    call("rejection", hom.rejection_figure, rates)
    study = pd.concat([rates.assign(m=m, alpha1=a1, alpha2=a2, pair="korea_vs_usa",
                                    effect="large effect")
                       for m in (9, 86) for a1, a2 in ((0.1, 0.05), (1.0, 1.0))],
                      ignore_index=True)
    call("study", hom.study_figure, study)
    extended = pd.DataFrame([
        dict(m=m, alpha1=a1, alpha2=a2, n=n, n2=n2, test=test, rate=0.05, ci_low=0.04,
             ci_high=0.07)
        for m in (9, 86) for a1, a2 in ((0.01, 0.1), (1.0, 1.0))
        for n, n2 in ((10_000, 100_000), (1000, 1000))
        for test in ("normal_score", "chisq", "bootstrap")])
    call("extended", hom.extended_null_figure, extended)

    # k-ary randomized response
    est = np.array([310.0, 20_720.0, -30.0])
    call("krr counts", ldp.krr_counts_figure, ["yes", "no", "3"], [300.0, 20_700.0, 0.0],
         [350.0, 20_640.0, 10.0], est, est - 40, est + 40, estimator_name="unbiased")
    mse = pd.DataFrame([dict(eps=e, method=m, mse=t, se=t * 0.01,
                             theory=t if m == "unbiased" else np.nan)
                        for e, t in ((0.1, 4e6), (1.0, 9e3), (10.0, 2.0))
                        for m in ("unbiased", "clip", "simplex", "ibu")])
    call("krr mse", ldp.krr_mse_figure, mse, current_eps=1.0)

    # The planner
    def points(var):
        xs = [10_000, 1_000, 3_160] if var == "n" else [0.1, 0.01, 0.0316]
        return pd.DataFrame({var: xs, "test": "bootstrap", "power": [1.0, 0.06, 0.26],
                             "ci_low": [0.98, 0.03, 0.2], "ci_high": [1.0, 0.1, 0.33]})

    call("power n", plan.planner_power_figure, points("n"), target=0.8, estimate=5_000.0,
         interval=(4_220, 5_620), level=0.05)
    call("power eps", plan.planner_power_figure, points("alpha1"), x="alpha1", target=0.1,
         estimate=0.05, interval=(0.0, math.inf), level=0.05)
    call("power empty", plan.planner_power_figure, points("n").iloc[:0], target=0.5,
         level=0.05)
    frontier = pd.DataFrame(
        [(1.0, "bootstrap", 1520, 1480.0, 1840.0, 0.015, True),
         (0.01, "bootstrap", 46700, 41900.0, math.inf, 0.06, True),
         (0.001, "bootstrap", None, 1e8, math.inf, math.nan, True),
         (0.1, "chisq", 100, 0.0, 100.0, 1.0, False)],
        columns=["alpha1", "test", "n", "n_low", "n_high", "type1", "valid"])
    call("frontier", plan.planner_frontier_figure, frontier, current=(0.1, 10_000), level=0.05,
         power=0.8)
    call("distributions", plan.planner_distributions_figure, ["0–9", "10+"], [0.4, 0.6],
         [0.5, 0.5])

    # Random substitution
    call("substitution counts", sub.substitution_counts_figure, ["a", "b"], [10.0, 20_000.0],
         [24.0, 40_000.0], [11.0, 19_999.5], [9.0, 20_001.0], l=2)
    curves = pd.DataFrame({"l": [1, 2, 3], "bound": [0.6, 0.45, 0.3],
                           "source": [0.5, 0.36, 0.31], "unbiased": [0.5, 0.38, 0.33]})
    call("substitution error", sub.substitution_error_figure, curves, current_l=2,
         points=pd.DataFrame({"estimator": ["source", "unbiased"], "actual": [0.35, 0.39],
                              "actual_se": [0.01, 0.02]}))
    lg = math.log(10)
    call("substitution epsilon", sub.substitution_epsilon_figure,
         pd.DataFrame({"l": [1, 2, 3], "bound": [lg, 2 * lg, 3 * lg], "ordered": [lg, 2.47, 2.6],
                       "exact": [lg, 2.39, 2.5]}), current_l=1, log_gamma=lg)
    call("substitution cost", sub.substitution_cost_figure,
         pd.DataFrame({"l": [1, 2, 4], "draws_ratio": [1.0, 1.02, 1.07],
                       "collision": [0.0, 0.04, 0.2]}), current_l=2)
    original = np.array([10.0, 20.0, 30.0])
    call("substitution bias", sub.substitution_bias_figure, ["a", "b", "c"], original,
         [1.5, 0.0, -1.5], {"source": original + rng.normal(0, 2, (50, 3)),
                            "unbiased": original + rng.normal(0, 3, (50, 3))})
    return out
