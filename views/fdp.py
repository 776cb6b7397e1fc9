"""Page: f-DP and Gaussian DP, privacy as hypothesis testing (Dong, Roth & Su 2022)."""

from __future__ import annotations

import numpy as np
import dpviz
import pandas as pd
import streamlit as st

from ui import controls
from ui import format as fmt
from ui.kit import page_header
from dpcore import audit, fdp
FDP_COLORS = dpviz.fdp.FDP_COLORS

TITLE = "f-DP and Gaussian DP"
# Every curve of the page is evaluated on this grid of type-I errors.
ALPHA = np.linspace(0.0, 1.0, 1000)
FAIL_TOL = 1e-9  # a curve fails a target where it lies this far below it

EPS_GRID = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
            1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0, 15.0,
            20.0, 30.0, 40.0, 50.0)
# k-RR's exact polygon loses its smallest type-II errors to rounding beyond e^eps ~ 1e15
# (see the notes on dpcore.fdp.tradeoff_discrete): its slider stops at 20.
KRR_EPS_GRID = tuple(e for e in EPS_GRID if e <= 20)
DELTA_GRID = (0.0, 1e-12, 1e-10, 1e-8, 1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.02, 0.05, 0.1, 0.2)
SCALE_GRID = (0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0,
              6.0, 8.0, 10.0)
GAMMA_GRID = (1.1, 1.2, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0, 1000.0)
REPS_GRID = (100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000)
SAY_ALPHA_GRID = (0.001, 0.01, 0.05, 0.1, 0.2, 0.5)
AUDIT_CHUNK = 10_000  # draws per input between two updates of the progress bar
AUDIT_LEVELS = (0.01, 0.05, 0.1, 0.25, 0.5)
MAX_PLOTTED = 2000  # points of an empirical curve drawn (all are used for the numbers)

def fmt_delta(v: float) -> str:
    """0, 10⁻⁵, 0.01: labels for δ."""
    if v == 0:
        return "0"
    if v >= 0.001:
        return f"{v:g}"
    text = fmt.times_ten(v, 0)
    return text.removeprefix("1·")  # 10⁻⁵, not 1·10⁻⁵


def fmt_pct(v: float) -> str:
    """A share in percent, never rounded to a misleading 0% or 100%."""
    text = f"{v:.0%}"
    if text in ("0%", "100%") and 0 < v < 1:
        text = f"{100 * v:.2g}%" if v < 0.5 else f"{100 * v:.4g}%"
        if text == "100%":
            text = "99.99+%"
    return text


def fmt_value(v: float, digits: int = 4) -> str:
    return "∞" if np.isinf(v) else f"{v:.{digits}g}"


def select(label, grid, *, default, key, help, fmt=fmt.fmt_number, disabled=False):
    return st.select_slider(label, options=grid, value=default, format_func=fmt, key=key,
                            help=help, bind="query-params", disabled=disabled)


@st.cache_data(max_entries=32, show_spinner=False)
def histogram_curve(level: float) -> np.ndarray:
    """The truncated Laplace histogram mechanism's curve (a convolution: worth caching)."""
    return fdp.laplace_histogram_tradeoff(ALPHA, level)


def thin(alpha, beta, n=MAX_PLOTTED):
    """At most n points of a long curve, evenly spread along it, both ends kept."""
    if len(alpha) <= n:
        return alpha, beta
    idx = np.unique(np.round(np.linspace(0, len(alpha) - 1, n)).astype(int))
    return alpha[idx], beta[idx]


# --- 1. The attacker's test ------------------------------------------------------------

def attacker_test(family: str, mu: float) -> None:
    """1. The attacker's threshold test on the two output densities, and its trade-off curve."""
    gaussian = family == "gaussian"
    c0, m1, m2, m3 = st.columns([2, 1, 1, 1], vertical_alignment="center")
    with c0:
        t = st.slider(
            "Attacker's threshold t", -4.0, 10.0, 1.65, step=0.05, key="fdp_t",
            bind="query-params",
            help="The attacker rejects 'the data set is D' (accuses) when the output X "
            "exceeds t. Raising t accuses less often: fewer false accusations α, more misses β.",
        )
    alpha_t, beta_t = (float(v) for v in audit.threshold_test(family, mu, t))
    tail = 4.0 if gaussian else 6.0  # Laplace tails are heavier
    xs = np.linspace(min(-tail, t - 1.0), max(mu + tail, t + 1.0), 600)
    pdf0, pdf1 = audit.densities(family, mu, xs)
    curve1 = fdp.gdp_tradeoff(ALPHA, mu) if gaussian else fdp.laplace_tradeoff(ALPHA, mu)
    curve1_name = f"G_μ, μ = {mu:g}" if gaussian else f"Laplace curve, ε = {mu:g}"

    m1.metric("Type-I error α", f"{alpha_t:.4f}", border=True,
              help="α = P₀(X > t): how often the attacker accuses when the data set is "
              "really D.")
    m2.metric("Type-II error β", f"{beta_t:.4f}", border=True,
              help="β = P₁(X ≤ t): how often the attacker misses when the data set is "
              "really D′.")
    m3.metric("α + β", f"{alpha_t + beta_t:.4f}", border=True,
              help="1 for a coin flip (no information); 0 for a perfect attacker.")
    left, right = st.columns([3, 2])
    with left:
        names = (("N(0, 1): output on D", f"N({mu:g}, 1): output on D′") if gaussian
                 else ("Lap(0, 1): output on D", f"Lap({mu:g}, 1): output on D′"))
        kit.chart(dpviz.fdp.attacker_test_figure(xs, pdf0, pdf1, t, alpha=alpha_t,
                                                   beta=beta_t, names=names),
                      key="fdp_fig_test", name="The attacker's threshold test")
    with right:
        kit.chart(
            dpviz.fdp.tradeoff_figure(
                [(curve1_name, ALPHA, curve1, FDP_COLORS["gdp" if gaussian else "laplace"],
                  "solid")],
                point=(alpha_t, beta_t, f"threshold t = {t:g}"), corner=True, height=470,
            ),
            key="fdp_fig_test_curve", name="The test's point on the trade-off curve",
        )
    kit.settings({"attacker's threshold t": f"{t:g}"})
    kit.finding(
        f"The attacker who accuses when the output exceeds t = {t:g} wrongly accuses with "
        f"probability α = {alpha_t:.4f} and misses with probability β = {beta_t:.4f} "
        f"(α + β = {alpha_t + beta_t:.4f}; 1 is a coin flip).")
    st.markdown(
        "Every threshold gives one point (α, β). The best attacker at each α is the "
        "Neyman–Pearson likelihood-ratio test; here the likelihood ratio grows with X, so "
        "the threshold tests *are* the best tests and their points trace the whole trade-off "
        "curve T(P, Q). The diagonal Id(α) = 1 − α is a coin flip (perfect privacy); the "
        "corner (0, 0) an attacker who is never wrong (no privacy)."
    )
    st.latex(r"T(P,Q)(\alpha) = \inf_{\phi}\{\beta_\phi : \alpha_\phi \le \alpha\},\qquad "
             r"G_\mu(\alpha) = T\big(N(0,1), N(\mu,1)\big)(\alpha) = "
             r"\Phi\big(\Phi^{-1}(1-\alpha) - \mu\big)")
    if gaussian:
        st.latex(r"\alpha = P_0(X > t) = 1 - \Phi(t),\qquad \beta = P_1(X \le t) = \Phi(t - \mu)")
    else:
        st.latex(
            r"T\big(\mathrm{Lap}(0,1), \mathrm{Lap}(\varepsilon,1)\big)(\alpha) = "
            r"\begin{cases} 1 - e^{\varepsilon}\alpha & \alpha < e^{-\varepsilon}/2 \\ "
            r"e^{-\varepsilon}/(4\alpha) & e^{-\varepsilon}/2 \le \alpha \le 1/2 \\ "
            r"e^{-\varepsilon}(1-\alpha) & \alpha > 1/2 \end{cases}"
        )


# --- 2. Trade-off curves -------------------------------------------------------------------

def tradeoff_curves() -> None:
    """2. Trade-off curves of mechanisms, their tightest μ and ε, and a target."""
    st.markdown(
        "Each mechanism has its own trade-off curve; the higher the curve, the more private "
        "the mechanism. A curve that stays above the target everywhere meets it. Switch "
        "curves on and off and move their parameters; every curve is computed on "
        f"{ALPHA.size:,} values of α."
    )
    left, chart = st.columns([2, 3])
    curves = []  # dicts: name, beta (on ALPHA), vertices (polygons), gauss_mu, color, dash
    with left:
        with st.container(border=True):
            on = st.toggle("G_μ (Gaussian DP)", value=True, key="fdp_show_g", bind="query-params",
                           help="The trade-off curve of N(0,1) vs N(μ,1).")
            g_mu = st.slider("μ of G_μ", 0.0, 5.0, 0.5, step=0.05, key="fdp_g_mu",
                             bind="query-params", disabled=not on,
                             help="μ-GDP: no test beats G_μ. Smaller μ, more privacy.")
            if on:
                curves.append(dict(name=f"G_μ, μ = {g_mu:g}", beta=fdp.gdp_tradeoff(ALPHA, g_mu),
                                   vertices=None, gauss_mu=g_mu, color=FDP_COLORS["gdp"],
                                   dash="solid"))
        with st.container(border=True):
            on = st.toggle("f_ε,δ ((ε, δ)-DP)", value=True, key="fdp_show_ed",
                           bind="query-params",
                           help="The curve of (ε, δ)-differential privacy.")
            e1, e2 = st.columns(2)
            ed_eps = e1.select_slider(
                "ε of f_ε,δ", EPS_GRID, value=1.0, format_func=fmt.fmt_number,
                key="fdp_ed_eps", bind="query-params", disabled=not on,
                help="(ε, δ)-DP is exactly f_ε,δ-DP.")
            ed_delta = e2.select_slider(
                "δ of f_ε,δ", DELTA_GRID, value=0.0, format_func=fmt_delta, key="fdp_ed_delta",
                bind="query-params", disabled=not on,
                help="The probability with which ε may fail; the curve starts at 1 − δ.")
            if on:
                va, vb = fdp.epsdelta_vertices(ed_eps, ed_delta)
                curves.append(dict(name=f"f_ε,δ, ε = {ed_eps:g}, δ = {fmt_delta(ed_delta)}",
                                   beta=fdp.epsdelta_tradeoff(ALPHA, ed_eps, ed_delta),
                                   vertices=(va, vb), gauss_mu=None,
                                   color=FDP_COLORS["epsdelta"], dash="solid"))
        with st.container(border=True):
            on = st.toggle("Gaussian mechanism", value=True, key="fdp_show_gauss",
                           bind="query-params",
                           help="Adds N(0, σ²) noise to a query of sensitivity Δ: G_{Δ/σ}.")
            e1, e2 = st.columns(2)
            sigma = e1.select_slider("noise σ", SCALE_GRID, value=1.5,
                                     format_func=fmt.fmt_number, key="fdp_gauss_sigma",
                                     bind="query-params", disabled=not on,
                                     help="Standard deviation of the Gaussian noise.")
            g_sens = e2.slider("sensitivity Δ", 0.1, 5.0, 1.0, step=0.1, key="fdp_gauss_sens",
                               bind="query-params", disabled=not on,
                               help="How much one person can change the query's answer.")
            if on:
                mu_g = g_sens / sigma
                curves.append(dict(name=f"Gaussian mechanism, σ = {sigma:g}, Δ = {g_sens:g}",
                                   beta=fdp.gdp_tradeoff(ALPHA, mu_g), vertices=None,
                                   gauss_mu=mu_g, color=FDP_COLORS["gaussian"], dash="dash"))
        with st.container(border=True):
            on = st.toggle("Laplace mechanism", value=True, key="fdp_show_lap",
                           bind="query-params",
                           help="Adds Lap(b) noise to a query of sensitivity Δ: ε = Δ/b.")
            e1, e2 = st.columns(2)
            lap_b = e1.select_slider("noise scale b", SCALE_GRID, value=1.0,
                                     format_func=fmt.fmt_number, key="fdp_lap_b",
                                     bind="query-params", disabled=not on,
                                     help="Scale of the Laplace noise (its sd is √2·b).")
            lap_sens = e2.slider("sensitivity Δ", 0.1, 5.0, 1.0, step=0.1, key="fdp_lap_sens",
                                 bind="query-params", disabled=not on,
                                 help="How much one person can change the query's answer.")
            if on:
                curves.append(dict(name=f"Laplace mechanism, b = {lap_b:g}, Δ = {lap_sens:g}",
                                   beta=fdp.laplace_tradeoff(ALPHA, lap_sens / lap_b),
                                   vertices=None, gauss_mu=None, color=FDP_COLORS["laplace"],
                                   dash="solid"))
        with st.container(border=True):
            on = st.toggle("k-ary randomised response", value=True, key="fdp_show_krr",
                           bind="query-params",
                           help="Reports the true category with probability e^ε/(e^ε + k − 1), "
                           "otherwise one of the k − 1 others at random.")
            e1, e2 = st.columns(2)
            krr_eps = e1.select_slider("ε of k-RR", KRR_EPS_GRID, value=1.0,
                                       format_func=fmt.fmt_number, key="fdp_krr_eps",
                                       bind="query-params", disabled=not on,
                                       help="Its nominal privacy level: k-RR is ε-DP.")
            krr_k = e2.slider("categories k", 2, 100, 4, key="fdp_krr_k", bind="query-params",
                              disabled=not on, help="Number of possible answers.")
            if on:
                va, vb = fdp.krr_tradeoff(krr_eps, krr_k)
                curves.append(dict(name=f"{krr_k}-RR, ε = {krr_eps:g}",
                                   beta=fdp.tradeoff_on_grid(va, vb, ALPHA), vertices=(va, vb),
                                   gauss_mu=None, color=FDP_COLORS["krr"], dash="solid"))
        with st.container(border=True):
            on = st.toggle("Random substitution", value=False, key="fdp_show_rs",
                           bind="query-params",
                           help="Keeps a category with γ times the probability of any other "
                           "(a γ-diagonal matrix): k-RR with e^ε = γ and k = N.")
            e1, e2 = st.columns(2)
            gamma = e1.select_slider("γ (> 1)", GAMMA_GRID, value=3.0,
                                     format_func=fmt.fmt_number, key="fdp_rs_gamma",
                                     bind="query-params", disabled=not on,
                                     help="Ratio of keeping to substituting probabilities.")
            rs_n = e2.slider("categories N", 2, 100, 10, key="fdp_rs_n", bind="query-params",
                             disabled=not on, help="Number of categories.")
            if on:
                va, vb = fdp.krr_tradeoff(float(np.log(gamma)), rs_n)
                curves.append(dict(name=f"random substitution, γ = {gamma:g}, N = {rs_n}",
                                   beta=fdp.tradeoff_on_grid(va, vb, ALPHA), vertices=(va, vb),
                                   gauss_mu=None, color=FDP_COLORS["krr"], dash="dot"))
        with st.container(border=True):
            on = st.toggle("Private histogram (Compare page)", value=False, key="fdp_show_hist",
                           bind="query-params",
                           help="The truncated Laplace histogram X = max(0, C + Lap(2/α)) of "
                           "the page 'Compare two private histograms'.")
            hist_level = st.select_slider(
                "Privacy level α of the histogram", controls.ALPHA_GRID, value=0.5,
                format_func=fmt.fmt_number, key="fdp_hist_alpha", bind="query-params",
                disabled=not on,
                help="Noise Lap(2/α) on every count. Log scale, 0.001 to 10.")
            st.caption(
                "Neighbouring histograms: one person moves from one bin to another, so one "
                "count goes down by 1 and another up by 1. Each of the two bins is a Laplace "
                "shift of 1 at scale 2/α, and the curve is the product of the two; truncating "
                "at 0 is post-processing and cannot lower it."
            )
            if on:
                curves.append(dict(name=f"private histogram, α = {hist_level:g}",
                                   beta=histogram_curve(hist_level), vertices=None,
                                   gauss_mu=None, color=FDP_COLORS["histogram"], dash="solid"))
    with chart, st.container(border=True):
        t1, t2, t3 = st.columns([2, 3, 2])
        target_kind = t1.radio(
            "Target curve", ["gdp", "epsdelta"], horizontal=True, key="fdp_target",
            format_func={"gdp": "G_μ*", "epsdelta": "f_ε*,δ*"}.get, bind="query-params",
            help="The guarantee to check every curve against: μ*-GDP or (ε*, δ*)-DP.")
        if target_kind == "gdp":
            target_mu = t2.slider("target μ*", 0.0, 5.0, 1.0, step=0.05, key="fdp_target_mu",
                                  bind="query-params",
                                  help="A curve meets μ*-GDP if it never dips below G_μ*.")
            target_name = f"G_μ*, μ* = {target_mu:g}"

            def target_fn(a):
                return fdp.gdp_tradeoff(a, target_mu)
        else:
            e1, e2 = t2.columns(2)
            target_eps = e1.select_slider(
                "target ε*", EPS_GRID, value=1.0, format_func=fmt.fmt_number,
                key="fdp_target_eps", bind="query-params",
                help="A curve meets (ε*, δ*)-DP if it never dips below f_ε*,δ*.")
            target_delta = e2.select_slider(
                "target δ*", DELTA_GRID, value=1e-5, format_func=fmt_delta,
                key="fdp_target_delta", bind="query-params",
                help="The δ of the target (ε*, δ*)-DP.")
            target_name = f"f_ε*,δ*, ε* = {target_eps:g}, δ* = {fmt_delta(target_delta)}"

            def target_fn(a):
                return fdp.epsdelta_tradeoff(a, target_eps, target_delta)
        with t3:
            table_delta = select(
                "δ for the table's ε", DELTA_GRID, default=1e-5, key="fdp_table_delta",
                fmt=fmt_delta,
                help="The table gives, for each curve, the smallest ε with (ε, δ)-DP at this δ.")

    target_beta = target_fn(ALPHA)
    rows, failing = [], []
    for c in curves:
        fails, below = fdp.below_target(ALPHA, c["beta"], target_fn, vertices=c["vertices"],
                                        tol=FAIL_TOL)
        if c["vertices"] is not None:
            va, vb = c["vertices"]
            mu_tight = fdp.tightest_gdp_mu(va, vb)
            eps_tight = fdp.tightest_epsilon(va, vb, table_delta)
        else:
            mu_tight = fdp.tightest_gdp_mu(ALPHA, c["beta"])
            if c["gauss_mu"] is not None:  # exact: a grid cannot see G_μ's vertical start
                eps_tight = fdp.gdp_epsilon(c["gauss_mu"], table_delta)
            else:
                eps_tight = fdp.tightest_epsilon(ALPHA, c["beta"], table_delta)
        if np.any(below):
            failing.append((c["name"], ALPHA[below], c["beta"][below]))
        rows.append({"curve": c["name"], "tightest μ": mu_tight,
                     "smallest ε at δ": eps_tight,
                     "meets the target": "no" if fails else "yes"})
    kit.settings({"curves shown": "; ".join(c["name"] for c in curves) or "none",
                      "target": target_name, "δ for the table's ε": fmt_delta(table_delta)})
    with chart:
        kit.chart(
            dpviz.fdp.tradeoff_figure(
                [(c["name"], ALPHA, c["beta"], c["color"], c["dash"]) for c in curves],
                target=(target_name, ALPHA, target_beta), failing=failing, height=780,
            ),
            key="fdp_fig_curves", name="Trade-off curves and the target",
        )
        if rows:
            table = pd.DataFrame(rows)
            meets = [r["curve"] for r in rows if r["meets the target"] == "yes"]
            fails = [r["curve"] for r in rows if r["meets the target"] == "no"]
            kit.finding(
                f"Against the target {target_name}: "
                + (f"meets it: {'; '.join(meets)}" if meets else "no curve meets it")
                + (f"; falls below it: {'; '.join(fails)}." if fails else "."))
            kit.finding(
                f"Tightest μ-GDP and smallest ε at δ = {fmt_delta(table_delta)}: "
                + "; ".join(f"{r['curve']}: μ = {fmt_value(r['tightest μ'])}, "
                            f"ε = {fmt_value(r['smallest ε at δ'])}" for r in rows) + ".")
            kit.table(
                table, key="fdp_table", name="Privacy parameters of the curves",
                hide_index=True,
                column_config={
                    "tightest μ": st.column_config.NumberColumn(
                        format="%.4f", help="Smallest μ with the curve ≥ G_μ everywhere "
                        "(Infinity: no μ works, e.g. when the curve has δ > 0)."),
                    "smallest ε at δ": st.column_config.NumberColumn(
                        format="%.4f", help=f"Smallest ε with the curve ≥ f_ε,δ, "
                        f"δ = {fmt_delta(table_delta)}."),
                },
            )
            st.caption(
                f"δ = {fmt_delta(table_delta)}. Target: {target_name}; where a curve lies "
                f"below it (by more than {FAIL_TOL:g}) it is shaded in red. Polygons (f_ε,δ, "
                "k-RR, random substitution) are read at their vertices, exactly; smooth curves "
                "on the grid. "
                "For the Gaussian curves ε is the exact conversion of μ-GDP (Corollary 2.13): "
                "they start vertically, which no grid can see, and δ = 0 needs ε = ∞."
            )
        else:
            st.info("Switch on at least one curve to see its privacy parameters.")
    kit.note(
        f"Every curve is computed on {ALPHA.size:,} values of α. Polygons (f_ε,δ, k-RR, random "
        "substitution) are read at their vertices, exactly; for the Gaussian curves ε is the "
        "exact conversion of μ-GDP (Corollary 2.13). f_ε,δ(α) = max{0, 1 − δ − e^ε α, "
        "e^(−ε)(1 − δ − α)}: the reviewed source prints the last factor as e^ε; e^(−ε) is "
        "correct (Dong et al., eq. 5).")
    with st.expander("The formulas", expanded=False):
        st.latex(r"f_{\varepsilon,\delta}(\alpha) = \max\big\{0,\; 1 - \delta - e^{\varepsilon}"
                 r"\alpha,\; e^{-\varepsilon}(1 - \delta - \alpha)\big\}")
        st.markdown(
            r"The reviewed source prints the last term with $e^{\varepsilon}$; the correct "
            r"factor is $e^{-\varepsilon}$ (Dong et al., eq. 5): only then is "
            r"$f_{\varepsilon,\delta}$ symmetric and convex, and it is what the page computes."
        )
        st.latex(r"\text{tightest } \mu = \max_\alpha \big[\Phi^{-1}(1-\alpha) - "
                 r"\Phi^{-1}(f(\alpha))\big],\qquad \text{smallest } \varepsilon = "
                 r"\max_\alpha \log\max\Big\{\frac{1-\delta-f(\alpha)}{\alpha},\;"
                 r"\frac{1-\delta-\alpha}{f(\alpha)}\Big\}")


# --- 3. Group privacy ------------------------------------------------------------------

def group_privacy() -> None:
    """3. Group privacy: G_μ to G_kμ, and Theorem 2.14 for a general curve."""
    st.markdown(
        "Protecting a group of k people at once (a family, a household) is weaker: D and D′ "
        r"now differ in k records. An f-DP mechanism is $[1 - (1 - f)^{\circ k}]$-DP for "
        r"groups of k, with $(1 - f)^{\circ k}$ the map $x \mapsto 1 - f(x)$ applied k times "
        r"(Theorem 2.14); for μ-GDP this is exactly kμ-GDP."
    )
    st.latex(r"f \text{ for one person} \;\Longrightarrow\; 1 - (1 - f)^{\circ k} \text{ for "
             r"groups of } k,\qquad G_\mu \;\Longrightarrow\; G_{k\mu}")
    c1, c2, c3, c4 = st.columns(4)
    group_k = c1.slider("Group size k", 1, 10, 3, key="fdp_group_k", bind="query-params",
                        help="Number of people whose data may change together.")
    group_mu = c2.slider("μ (one person)", 0.0, 5.0, 0.5, step=0.05, key="fdp_group_mu",
                         bind="query-params", help="The mechanism's μ-GDP for one person.")
    group_curve = c3.radio(
        "General curve f", ["laplace", "epsdp"], key="fdp_group_curve", bind="query-params",
        format_func={"laplace": "Laplace, Lap(0,1) vs Lap(ε,1)",
                     "epsdp": "f_ε,0 (any ε-DP mechanism)"}.get,
        help="A curve that is not Gaussian, to apply Theorem 2.14 to.")
    group_eps = c4.select_slider("ε (one person)", EPS_GRID, value=0.5,
                                 format_func=fmt.fmt_number, key="fdp_group_eps",
                                 bind="query-params", help="ε of the general curve f.")
    left, right = st.columns(2)
    with left:
        kit.chart(dpviz.fdp.tradeoff_figure([
            (f"G_μ, μ = {group_mu:g} (one person)", ALPHA, fdp.gdp_tradeoff(ALPHA, group_mu),
             FDP_COLORS["gdp"], "solid"),
            (f"G_kμ, kμ = {group_k * group_mu:g} (groups of {group_k})", ALPHA,
             fdp.gdp_tradeoff(ALPHA, group_k * group_mu), FDP_COLORS["gdp"], "dash"),
        ], height=520), key="fdp_fig_group_gdp", name="Group privacy of Gaussian DP")
    with right:
        if group_curve == "laplace":
            def f_one(a):
                return fdp.laplace_tradeoff(a, group_eps)
            one_name = f"Laplace, ε = {group_eps:g}"
            classic = fdp.laplace_tradeoff(ALPHA, group_k * group_eps)
            classic_name = f"Laplace, ε = kε = {group_k * group_eps:g} (exact for the group)"
            color = FDP_COLORS["laplace"]
        else:
            def f_one(a):
                return fdp.epsdelta_tradeoff(a, group_eps)
            one_name = f"f_ε,0, ε = {group_eps:g}"
            classic = fdp.epsdelta_tradeoff(ALPHA, group_k * group_eps)
            classic_name = f"f_kε,0, kε = {group_k * group_eps:g} (textbook group privacy)"
            color = FDP_COLORS["epsdelta"]
        group_beta = fdp.group_tradeoff(f_one, group_k, ALPHA)
        kit.chart(dpviz.fdp.tradeoff_figure([
            (one_name + " (one person)", ALPHA, f_one(ALPHA), color, "solid"),
            (f"1 − (1 − f)^∘{group_k} (groups of {group_k})", ALPHA, group_beta, color, "dash"),
            (classic_name, ALPHA, classic, FDP_COLORS["identity"], "longdash"),
        ], height=520), key="fdp_fig_group_f", name="Group privacy of a general curve")
        kit.settings({"group size k": group_k, "μ (one person)": f"{group_mu:g}",
                          "general curve f": one_name})
        kit.finding(
            f"A {group_mu:g}-GDP mechanism protects groups of {group_k} people at "
            f"{group_k * group_mu:g}-GDP (kμ).")
        if group_curve == "laplace":
            gap = float(np.max(np.abs(group_beta - classic)))
            st.caption(f"For the Laplace curve the group bound is exact: it coincides with "
                       f"Lap(0,1) vs Lap(kε,1) (largest difference {gap:.1e}).")
            kit.finding(f"For the Laplace curve with ε = {group_eps:g} the group bound "
                            f"of Theorem 2.14 is exact: Lap(0,1) vs Lap({group_k * group_eps:g},1) "
                            f"(largest difference {gap:.1e}).")
        else:
            gap = float(np.max(group_beta - classic))
            st.caption(f"The group curve lies above the textbook kε-DP curve by up to {gap:.3f}: "
                       "Theorem 2.14 gives more than 'ε becomes kε'.")
            kit.finding(f"For an {group_eps:g}-DP mechanism, Theorem 2.14's curve for groups "
                            f"of {group_k} lies above the textbook {group_k * group_eps:g}-DP "
                            f"curve by up to {gap:.3f}.")


# --- 4. Composition ----------------------------------------------------------------------

def composition() -> None:
    """4. Composition: √n·μ for Gaussian DP, the exact ε-DP composition and its CLT."""
    st.markdown(
        "Running several private mechanisms on the same data composes their privacy losses. "
        "For Gaussian DP the rule is exact and simple: μ₁-, …, μₙ-GDP compose to "
        r"$\sqrt{\mu_1^2 + \cdots + \mu_n^2}$-GDP, so n runs of μ-GDP give $\sqrt{n}\,\mu$ "
        "(Corollary 3.3). The n-fold "
        "composition of an ε-DP mechanism is not an f_ε,δ curve at all, but by the central "
        "limit theorem (Theorem 3.5) it is close to a Gaussian curve."
    )
    st.latex(r"G_{\mu_1}\otimes\cdots\otimes G_{\mu_n} = G_{\sqrt{\mu_1^2+\cdots+\mu_n^2}},\qquad "
             r"f_{\varepsilon,0}^{\otimes n} \approx G_{2\sqrt{n}\tanh(\varepsilon/2)}")
    c1, c2, c3 = st.columns(3)
    comp_n = c1.slider("Number of mechanisms n", 1, 200, 10, key="fdp_comp_n",
                       bind="query-params", help="How many releases are composed (up to 200).")
    comp_mu = c2.slider("μ of each (Gaussian DP)", 0.0, 5.0, 0.5, step=0.05, key="fdp_comp_mu",
                        bind="query-params", help="Each release is μ-GDP.")
    comp_eps = c3.select_slider("ε of each (ε-DP)", EPS_GRID, value=0.5,
                                format_func=fmt.fmt_number, key="fdp_comp_eps",
                                bind="query-params", help="Each release is ε-DP.")
    total_mu = float(np.sqrt(comp_n) * comp_mu)
    ca, cb = fdp.composition_epsdp(comp_eps, comp_n)
    comp_beta = fdp.tradeoff_on_grid(ca, cb, ALPHA)
    clt = fdp.clt_mu(comp_eps, comp_n)
    clt_beta = fdp.gdp_tradeoff(ALPHA, clt)
    left, right = st.columns(2)
    with left:
        kit.chart(dpviz.fdp.tradeoff_figure([
            (f"G_μ, μ = {comp_mu:g} (one)", ALPHA, fdp.gdp_tradeoff(ALPHA, comp_mu),
             FDP_COLORS["gdp"], "solid"),
            (f"G_√n·μ, √n·μ = {total_mu:.3g} (all {comp_n})", ALPHA,
             fdp.gdp_tradeoff(ALPHA, total_mu), FDP_COLORS["gdp"], "dash"),
        ], height=520), key="fdp_fig_comp_gdp", name="Composition of Gaussian DP")
        st.metric(f"μ of {comp_n} composed {comp_mu:g}-GDP mechanisms", f"{total_mu:.4g}",
                  help="√n·μ, exactly.")
    with right:
        kit.chart(dpviz.fdp.tradeoff_figure([
            (f"f_ε,0, ε = {comp_eps:g} (one)", ALPHA, fdp.epsdelta_tradeoff(ALPHA, comp_eps),
             FDP_COLORS["epsdelta"], "solid"),
            (f"exact f_ε,0^⊗{comp_n}", ALPHA, comp_beta, FDP_COLORS["epsdelta"], "dash"),
            (f"CLT: G_μ, μ = {clt:.3g}", ALPHA, clt_beta, FDP_COLORS["gdp"], "dot"),
        ] + ([  # beyond e^700 the textbook curve is 0 for every α > 0 (and e^nε overflows)
            (f"f_nε,0, nε = {comp_n * comp_eps:g} (textbook composition)", ALPHA,
             fdp.epsdelta_tradeoff(ALPHA, comp_n * comp_eps), FDP_COLORS["identity"], "longdash"),
        ] if comp_n * comp_eps <= 700 else []), height=520), key="fdp_fig_comp_eps",
            name="Composition of ε-DP and its CLT approximation")
        k1, k2 = st.columns(2)
        k1.metric("μ of the CLT approximation", f"{clt:.4g}",
                  help="2√n·tanh(ε/2) (Theorem 3.5); about √n·ε for small ε.")
        clt_gap = float(np.max(np.abs(comp_beta - clt_beta)))
        k2.metric("Largest gap, exact vs CLT", f"{clt_gap:.3f}",
                  help="Largest vertical distance between the two curves on the α grid; it "
                  "shrinks as n grows with √n·ε fixed.")
        st.caption(f"The exact curve: Binomial({comp_n}, q) against Binomial({comp_n}, 1 − q), "
                   "q = 1/(1 + e^ε), the n-fold product of randomised response.")
    kit.settings({"number of mechanisms n": comp_n, "μ of each": f"{comp_mu:g}",
                      "ε of each": f"{comp_eps:g}"})
    kit.finding(f"{comp_n} mechanisms of {comp_mu:g}-GDP compose to exactly "
                    f"{total_mu:.4g}-GDP (√n·μ).")
    kit.finding(f"{comp_n} mechanisms of {comp_eps:g}-DP compose to a curve close to "
                    f"{clt:.4g}-GDP by the central limit theorem (2√n·tanh(ε/2)); the largest "
                    f"gap between the exact curve and the CLT curve is {clt_gap:.3f}.")


# --- 5. Conversions --------------------------------------------------------------------

def conversions() -> None:
    """5. δ(ε) of μ-GDP, and μ from a target (ε, δ)."""
    st.markdown(
        "μ-GDP implies (ε, δ)-DP for **every** ε ≥ 0 at once, with δ given by a whole curve "
        "(Corollary 2.13). Read the δ that goes with your ε off it, or go the other way: which "
        "μ gives the (ε, δ) you were asked for?"
    )
    st.latex(r"\delta(\varepsilon) = \Phi\Big(-\frac{\varepsilon}{\mu} + \frac{\mu}{2}\Big) - "
             r"e^{\varepsilon}\,\Phi\Big(-\frac{\varepsilon}{\mu} - \frac{\mu}{2}\Big)")
    left, right = st.columns([3, 2])
    with left:
        c1, c2 = st.columns(2)
        conv_mu = c1.slider("μ", 0.0, 5.0, 1.0, step=0.05, key="fdp_conv_mu",
                            bind="query-params", help="The mechanism is μ-GDP.")
        conv_eps = c2.slider("ε to read off", 0.0, 10.0, 1.0, step=0.05, key="fdp_conv_eps",
                             bind="query-params", help="Which ε to read the curve at.")
        eps_line = np.linspace(0.0, 10.0, 500)
        delta_line = fdp.gdp_delta(eps_line, conv_mu)
        conv_delta = float(fdp.gdp_delta(conv_eps, conv_mu))
        delta_fig = dpviz.fdp.delta_curve_figure(eps_line, delta_line, mu=conv_mu,
                                               point=(conv_eps, conv_delta))
        if delta_fig.layout.yaxis.type == "log":
            delta_fig.update_yaxes(title_text="δ(ε) (log scale)")
        kit.chart(delta_fig, key="fdp_fig_delta", name="Conversion from μ-GDP to (ε, δ)-DP")
        st.metric(f"δ(ε) at ε = {conv_eps:g} for μ = {conv_mu:g}", f"{conv_delta:.4g}",
                  help="The mechanism is (ε, δ(ε))-DP.")
    with right:
        with st.container(border=True):
            st.markdown("**From (ε, δ) to μ**")
            inv_eps = st.number_input("target ε", min_value=0.0, max_value=50.0, value=1.0,
                                      step=0.1, key="fdp_inv_eps", bind="query-params",
                                      help="The ε you must guarantee.")
            inv_delta = st.number_input("target δ", min_value=1e-12, max_value=0.5, value=1e-5,
                                        step=1e-6, format="%.3e", key="fdp_inv_delta",
                                        bind="query-params",
                                        help="The δ you must guarantee (10⁻¹² to 0.5).")
            inv_mu = float(fdp.gdp_mu(inv_eps, inv_delta))
            check = float(fdp.gdp_delta(inv_eps, inv_mu))
            st.metric("Largest μ with δ(ε) ≤ target δ", f"{inv_mu:.6g}",
                      help="μ = fdp.gdp_mu(ε, δ): any μ-GDP mechanism with this μ or less "
                      "is (ε, δ)-DP.")
            st.caption(f"Check: δ({inv_eps:g}) at μ = {inv_mu:.6g} is {check:.4g}.")
            sigma_needed = 1.0 / inv_mu if inv_mu > 0 else float("inf")
            st.caption(f"The Gaussian mechanism with sensitivity 1 needs noise σ ≥ "
                       f"{fmt_value(sigma_needed)} for this.")
    kit.settings({"μ": f"{conv_mu:g}", "ε to read off": f"{conv_eps:g}",
                      "target ε": f"{inv_eps:g}", "target δ": f"{inv_delta:.3g}"})
    kit.finding(f"μ = {conv_mu:g} GDP implies (ε, δ(ε))-DP for every ε, with "
                    f"δ({conv_eps:g}) = {conv_delta:.4g}.")
    kit.finding(f"({inv_eps:g}, {inv_delta:.3g})-DP holds for any μ-GDP mechanism with "
                    f"μ ≤ {inv_mu:.6g}: for the Gaussian mechanism with sensitivity 1, noise "
                    f"σ ≥ {fmt_value(sigma_needed)}.")


# --- 6. An auditor's view --------------------------------------------------------------

def auditor() -> None:
    """6. Simulated outputs on two neighbouring inputs: the empirical curve."""
    st.markdown(
        "An auditor cannot read the mechanism's code, only run it: on two neighbouring inputs "
        "(query answers 0 and 1), R times each. The empirical trade-off curve of the outputs "
        "estimates the true one; where it falls clearly below the claimed curve, the claim "
        "is false."
    )
    c1, c2, c3 = st.columns(3)
    with c1:
        mech = st.radio(
            "Mechanism", list(audit.MECHANISMS), horizontal=True, key="fdp_aud_mech",
            format_func={"gaussian": "Gaussian", "laplace": "Laplace", "krr": "k-RR"}.get,
            bind="query-params", help="The mechanism the auditor runs.")
        if mech == "gaussian":
            a_sigma = select("noise σ", SCALE_GRID, default=1.0, key="fdp_aud_sigma",
                             help="Gaussian noise N(0, σ²) on a query of sensitivity 1: G_{1/σ}.")
            params = {"sigma": a_sigma}
            theory_name = f"exact: G_μ, μ = {1 / a_sigma:.3g}"
            theory = fdp.gdp_tradeoff(ALPHA, 1.0 / a_sigma)
        elif mech == "laplace":
            a_b = select("noise scale b", SCALE_GRID, default=1.0, key="fdp_aud_b",
                         help="Laplace noise Lap(b) on a query of sensitivity 1: ε = 1/b.")
            params = {"b": a_b}
            theory_name = f"exact: Laplace, ε = {1 / a_b:.3g}"
            theory = fdp.laplace_tradeoff(ALPHA, 1.0 / a_b)
        else:
            e1, e2 = st.columns(2)
            with e1:
                a_eps = select("ε of k-RR", KRR_EPS_GRID, default=1.0, key="fdp_aud_eps",
                               help="k-RR's privacy level.")
            a_k = e2.slider("categories k", 2, 100, 4, key="fdp_aud_k", bind="query-params",
                            help="Number of possible answers.")
            params = {"eps": a_eps, "k": a_k}
            theory_name = f"exact: {a_k}-RR, ε = {a_eps:g}"
            va, vb = fdp.krr_tradeoff(a_eps, a_k)
            theory = fdp.tradeoff_on_grid(va, vb, ALPHA)
    with c2:
        reps = select("Draws R on each input", REPS_GRID, default=10_000, key="fdp_aud_reps",
                      help=f"Runs of the mechanism on each of the two inputs; at most "
                      f"{audit.MAX_REPS:,}.")
        st.caption(f"R is capped at {audit.MAX_REPS:,} draws per input, which keeps a run "
                   "under a second.")
    with c3:
        seed = controls.seed_control("fdp_seed")

    run_key = (mech, tuple(sorted(params.items())), int(reps), int(seed))
    last = st.session_state.get("fdp_audit_last")
    if last is None or last["key"] != run_key:
        rng = np.random.default_rng(seed)
        chunks = []
        bar = st.progress(0.0, text="Running the mechanism…")
        done = 0
        while done < reps:
            size = min(AUDIT_CHUNK, reps - done)
            chunks.append(audit.audit_samples(mech, params, size, rng=rng))
            done += size
            bar.progress(done / reps, text=f"Running the mechanism… {done:,} of {reps:,} draws")
        bar.empty()
        s0 = np.concatenate([c[0] for c in chunks])
        s1 = np.concatenate([c[1] for c in chunks])
        emp_a, emp_b = fdp.empirical_tradeoff(s0, s1)
        last = {"key": run_key, "alpha": emp_a, "beta": emp_b}
        st.session_state["fdp_audit_last"] = last
    emp_a, emp_b = last["alpha"], last["beta"]
    plot_a, plot_b = thin(emp_a, emp_b)
    left, right = st.columns([3, 2])
    with left:
        kit.chart(dpviz.fdp.tradeoff_figure([
            (theory_name, ALPHA, theory, FDP_COLORS["gdp"], "solid"),
            (f"empirical, R = {reps:,}", plot_a, plot_b, FDP_COLORS["laplace"], "solid"),
        ], height=540), key="fdp_fig_audit", name="The auditor's empirical trade-off curve")
    with right:
        # The best test of each level: the empirical curve read at α (fdp.curve_at).
        audit_rows = []
        for level in AUDIT_LEVELS:
            b_hat = float(fdp.curve_at(emp_a, emp_b, level))
            b_true = float(np.interp(level, ALPHA, theory))
            audit_rows.append({"α": level, "β̂ (empirical)": b_hat, "β (exact)": b_true,
                               "μ implied by β̂": fdp.tightest_gdp_mu([level], [b_hat])})
        audit_table = pd.DataFrame(audit_rows)
        kit.table(audit_table, key="fdp_audit_table", name="The auditor's estimates",
                      hide_index=True,
                      column_config={c: st.column_config.NumberColumn(format="%.4f")
                                     for c in ("β̂ (empirical)", "β (exact)", "μ implied by β̂")})
        st.caption(
            "β̂: the empirical curve at α, the best test of level α on these draws. It "
            "scatters around the exact β by about √(β(1 − β)/R), and a little below it where "
            "many tests are tried, so small gaps are noise. μ implied: Φ⁻¹(1 − α) − Φ⁻¹(β̂)."
        )
    audit_gap = float((audit_table["β̂ (empirical)"] - audit_table["β (exact)"]).abs().max())
    kit.settings({"audited mechanism": theory_name.removeprefix("exact: "),
                      "draws R on each input": f"{reps:,}", "seed": seed})
    kit.finding(f"From {reps:,} runs on each of two neighbouring inputs, the empirical "
                    f"trade-off curve of the {theory_name.removeprefix('exact: ')} is within "
                    f"{audit_gap:.4f} of the exact one at α = "
                    + ", ".join(f"{a:g}" for a in AUDIT_LEVELS) + ".")
    kit.note("β̂ scatters around the exact β by about √(β(1 − β)/R), and lies a "
                        "little below it where many tests are tried: small gaps are noise.")


# --- 7. In plain words ----------------------------------------------------------------------

def plain_words() -> tuple[str, float]:
    """The pair of outputs and their shift (shared with the attacker's test), in one sentence."""
    c1, c2, c3 = st.columns([2, 2, 1])
    with c1:
        family = st.radio(
            "Outputs on D and on D′", audit.FAMILIES, horizontal=True, key="fdp_family",
            format_func={"gaussian": "Gaussian: N(0,1) vs N(μ,1)",
                         "laplace": "Laplace: Lap(0,1) vs Lap(ε,1)"}.get,
            bind="query-params",
            help="The two output distributions the attacker must tell apart: the Gaussian "
            "mechanism's (unit noise, the answers differing by μ) or the Laplace mechanism's "
            "(unit scale, the answers differing by ε).",
        )
    with c2:
        mu = st.slider(
            "Shift between the two outputs: μ (ε for Laplace)", 0.0, 5.0, 1.0, step=0.05,
            key="fdp_mu", bind="query-params",
            help="How far apart the answers on D and D′ are, in units of the noise. 0: the "
            "outputs are identically distributed (perfect privacy); 5: easy to tell apart.",
        )
    with c3:
        say_alpha = select(
            "False accusations allowed", SAY_ALPHA_GRID, default=0.05, key="fdp_say_alpha",
            fmt=lambda v: f"{v:.1%}".replace(".0%", "%"),
            help="The attacker's type-I error α in the sentence below: how often it may "
            "accuse wrongly.",
        )
    gaussian = family == "gaussian"
    say_beta = float(fdp.gdp_tradeoff(say_alpha, mu) if gaussian
                     else fdp.laplace_tradeoff(say_alpha, mu))
    st.markdown(
        f"**In plain words.** With {'μ' if gaussian else 'ε'} = {mu:g}"
        f"{'' if gaussian else ' (Laplace)'}, an attacker who wrongly accuses at most "
        f"{fmt_pct(say_alpha)} of the time (type-I error α = {say_alpha:g}) still misses "
        f"the truth at least {fmt_pct(say_beta)} of the time "
        f"(β = {'G_μ' if gaussian else 'f_Lap'}({say_alpha:g}) = {say_beta:.4f}). Without any "
        f"information it would miss {fmt_pct(1 - say_alpha)}; an attacker who can see "
        "everything, never."
    )
    sym = "μ" if gaussian else "ε"
    kit.settings({
        "outputs on D and D′": ("Gaussian: N(0,1) vs N(μ,1)" if gaussian
                                else "Laplace: Lap(0,1) vs Lap(ε,1)"),
        f"shift {sym}": f"{mu:g}", "false accusations allowed α": f"{say_alpha:g}"})
    kit.finding(
        f"With {sym} = {mu:g}{'' if gaussian else ' (Laplace)'}, an attacker who wrongly "
        f"accuses at most {fmt_pct(say_alpha)} of the time still misses the truth at least "
        f"{fmt_pct(say_beta)} of the time (β = {say_beta:.4f}); without any information it "
        f"would miss {fmt_pct(1 - say_alpha)}.")
    return family, mu


# ------------------------------------------------------------------------------------------
kit = page_header(TITLE)
st.markdown(
    "Differential privacy can be read as a promise about an **attacker's hypothesis test**. "
    "The attacker sees the output of a mechanism and must decide: was it run on the data set "
    "D, or on D′, the same data with one person changed? Any decision rule makes two kinds "
    "of mistakes, a false accusation (type-I error α) and a miss (type-II error β). A "
    "mechanism is **f-DP** when no test can have β below f(α): the **trade-off curve** f "
    "*is* the privacy guarantee. The Gaussian curves G_μ give one number, μ, that puts every "
    "mechanism on one scale (Dong, Roth & Su 2022, *Gaussian differential privacy*, JRSSB 84)."
)
with st.container(border=True):
    FAMILY, MU = plain_words()

# Only the open tab runs (the tab is bound to the URL, so it is tracked): a slider change
# recomputes and redraws one section's charts, not all nine.
SECTIONS = {
    "The attacker's test": lambda: attacker_test(FAMILY, MU),
    "Trade-off curves": tradeoff_curves,
    "Group privacy": group_privacy,
    "Composition": composition,
    "Conversions": conversions,
    "An auditor's view": auditor,
}
for tab, section in zip(st.tabs(list(SECTIONS), key="fdp_tab", bind="query-params"),
                        SECTIONS.values()):
    with tab:
        if tab.open is not False:
            section()
kit.end()
