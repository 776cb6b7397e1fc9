"""Page: compare two differentially private histograms (Son, Park & Jung 2022)."""

from __future__ import annotations

import streamlit as st
import dpviz

from ui import controls, sources
from ui.kit import page_header
from dpcore import histogram, homogeneity, simulation
from dpcore.homogeneity import HomogeneityResult

TITLE = "Compare two private histograms"
LEVEL = 0.05
# Work cap per request: bootstrap replicates x bins. A cell draws 2 bins (about 2.5e-7 s
# here, simulation.seconds_per_unit), so the cap is about a second of random draws.
MAX_BOOT_CELLS = 4_000_000


@st.cache_resource(max_entries=1, show_spinner=False)
def machine_speed() -> float:
    return simulation.seconds_per_unit()


@st.cache_data(max_entries=64, show_spinner=False)
def run_comparison(pair: sources.PairInput, n_a, n_b, alpha_a, alpha_b, n_boot, seed) -> HomogeneityResult:
    if pair.private:
        return homogeneity.release_and_test(
            pair.a.values, pair.b.values, alpha_a, alpha_b, n_boot=n_boot, private=True, rng=seed
        )
    return homogeneity.sample_and_test(
        pair.a.values, pair.b.values,
        None if pair.a.fixed else n_a, None if pair.b.fixed else n_b,
        alpha_a, alpha_b, n_boot=n_boot, rng=seed,
    )


kit = page_header(TITLE)
st.markdown(
    "Two histograms are released with differential privacy: Laplace noise is added to every "
    "count and negative results are set to 0. Are the two populations behind them the same? "
    "The usual chi-square test gets this wrong on noisy counts; the **parametric bootstrap "
    "test** of Son, Park & Jung (2022) uses only the private histograms and their privacy "
    "levels α, and keeps its error rate."
)

with st.container(border=True):
    pair = sources.histogram_pair_control(key="cmp")
    c1, c2, c3 = st.columns(3)
    with c1:
        n_a = n_b = None
        if pair.sampled:
            n_a = controls.sample_size_slider("Sample size N (people per histogram)", key="cmp_n",
                                             default=10_000)
            if st.checkbox("Different N for B", key="cmp_n_sep", bind="query-params",
                           help="Draw histogram B with its own sample size N (the paper's "
                           "Figure 11); otherwise A and B have the same N."):
                n_b = controls.sample_size_slider("Sample size N for B", key="cmp_n_b",
                                                 default=n_a)
            else:
                n_b = n_a
        else:
            st.caption("Both histograms are used as uploaded; no sampling.")
    with c2:
        alpha_a = controls.alpha_slider("Privacy level α₁ (histogram A)", key="cmp_alpha_a")
        alpha_b = controls.alpha_slider("Privacy level α₂ (histogram B)", key="cmp_alpha_b")
    with c3:
        n_boot = controls.log_slider(
            "Bootstrap replicates B", controls.BOOT_GRID, default=1000, key="cmp_boot",
            help="Number of null histograms simulated by the parametric bootstrap. More "
            "replicates give a more precise p-value (its standard error is at most 0.5/√B).",
        )
        seed = controls.seed_control("cmp_seed")

pair.stop_if_unusable(kit)
m = len(pair.labels)
if n_boot * m > MAX_BOOT_CELLS:
    wanted, n_boot = n_boot, max(10, MAX_BOOT_CELLS // m)
    seconds = simulation.estimate_seconds(simulation.work_units(m, 1, wanted), machine_speed())
    st.info(f"With M = {m:,} bins the bootstrap is limited to B = {n_boot:,} replicates "
            f"to keep the page responsive: B = {wanted:,} would take about {seconds:,.0f} s "
            "here.", icon=":material/speed:")
    kit.note(f"With M = {m:,} bins the bootstrap was limited to B = {n_boot:,} "
                        "replicates to keep the page responsive.")

try:
    result = run_comparison(pair, n_a, n_b, alpha_a, alpha_b, n_boot, seed)
except ValueError as exc:
    kit.fail(f"The comparison cannot be computed: {exc}")

boot = result.bootstrap


def people(side: sources.SideInput, n) -> str:
    """The N of one histogram in words, for the report's settings."""
    if pair.private:
        return "unknown (already private counts)"
    if side.fixed:
        return f"{side.values.sum():,.0f} (as uploaded)"
    return f"{n:,}"


kit.settings({
    "Histogram A": pair.a.name, "Histogram B": pair.b.name, "Bins M": f"{m:,}",
    "People N in A": people(pair.a, n_a), "People N in B": people(pair.b, n_b),
    "Privacy level α₁ (A)": f"{alpha_a:g}", "Privacy level α₂ (B)": f"{alpha_b:g}",
    "Bootstrap replicates B": f"{n_boot:,}", "Seed": f"{seed}",
    "Test level": f"{LEVEL:.0%}",
})

# --- Verdict -----------------------------------------------------------------
if boot is None:
    kit.error(f"The bootstrap test cannot be run on these histograms. {result.bootstrap_error}")
    kit.finding(f"The parametric bootstrap test cannot be run on these histograms: "
                    f"{result.bootstrap_error}")
else:
    finds = boot.pvalue < LEVEL
    verdict = (
        f"At the 5% level the parametric bootstrap test **{'finds' if finds else 'does not find'}"
        f"** a difference between histogram A ({pair.a.name}) and histogram B ({pair.b.name}): "
        f"p = {boot.pvalue:.3g} from {boot.n_boot:,} bootstrap replicates."
    )
    (st.success if not finds else st.warning)(verdict, icon=":material/balance:")
    kit.finding(verdict.replace("**", ""))
kit.finding(
    f"The naive χ² test, which treats the noisy counts as exact, gives p = "
    f"{result.naive.pvalue:.3g} (χ² = {result.naive.statistic:,.1f}, df = {result.naive.df}); "
    "on private histograms it rejects far more often than its level, so it is shown for "
    "comparison only.")

for label, alpha, orig, n_hat in (
    ("A", alpha_a, result.original1, result.estimate.n1_hat),
    ("B", alpha_b, result.original2, result.estimate.n2_hat),
):
    mean_count = (n_hat if orig is None else orig.sum()) / m
    noise = histogram.noise_sd(alpha)
    if noise > mean_count:
        st.warning(
            f"Histogram {label} is mostly noise: at α = {alpha:g} the noise on each count has "
            f"standard deviation {noise:,.0f}, more than the average count per bin "
            f"({mean_count:,.1f}). N̂ and both tests are unreliable here; increase N or α, or "
            "use wider bins.",
            icon=":material/blur_on:",
        )
        kit.note(
            f"Histogram {label} is mostly noise: at α = {alpha:g} the noise on each count has "
            f"standard deviation {noise:,.0f}, more than the average count per bin "
            f"({mean_count:,.1f}); N̂ and both tests are unreliable here.")

m1, m2, m3, m4 = st.columns(4)
m1.metric("Naive χ² test p-value", f"{result.naive.pvalue:.3g}",
          help=f"χ² = {result.naive.statistic:,.1f} on df = M − 1 = {result.naive.df}, "
          "referred to the χ² distribution as if the counts were not noisy.",
          border=True)
m1.caption(f"χ² = {result.naive.statistic:,.1f}, df = {result.naive.df}")
if boot is not None:
    m2.metric("Parametric bootstrap p-value", f"{boot.pvalue:.3g}", border=True,
              help="Share of the B bootstrap statistics T_b above the observed T (Algorithm 1).")
    m2.caption(f"T = {boot.statistic:,.1f}; 5% critical value {boot.critical_value(LEVEL):,.1f}")
for col, label, n_hat, orig in (
    (m3, "A", result.estimate.n1_hat, result.original1),
    (m4, "B", result.estimate.n2_hat, result.original2),
):
    delta = None if orig is None else f"{n_hat - orig.sum():+,.0f} vs true N"
    col.metric(f"Estimated N̂ ({label})", f"{n_hat:,}", delta=delta, delta_color="off",
               border=True, help="Nearest integer of the sum of the debiased counts C̃, eq. (4.3).")
    col.caption("true N unknown (private input)" if orig is None else f"true N = {orig.sum():,.0f}")

# --- Histograms ----------------------------------------------------------------
st.subheader("Original and private histograms")
kit.chart(
    dpviz.homogeneity.histograms_figure(
        pair.labels, result.private1, result.private2,
        original_a=result.original1, original_b=result.original2,
        name_a=f"A: {pair.a.name}, α₁ = {alpha_a:g}", name_b=f"B: {pair.b.name}, α₂ = {alpha_b:g}",
    ),
    key="cmp_fig_hist", name="Original and private histograms",
)

# --- Null distribution ---------------------------------------------------------
left, right = st.columns(2)
with left:
    st.subheader("Bootstrap null distribution")
    if boot is not None:
        kit.chart(
            dpviz.homogeneity.null_distribution_figure(
                boot.null_distribution, boot.statistic, boot.critical_value(LEVEL),
                df=result.naive.df, level=LEVEL,
            ),
            key="cmp_fig_null", name="Bootstrap null distribution",
        )
        st.caption(
            "Green: the statistic on B histograms simulated under 'no difference' from the "
            "estimated N̂ᵢ and p̂₀, with the same noise. Dotted: the χ²(M − 1) density the "
            "naive test assumes; where the two differ, the naive p-value is wrong."
        )
    else:
        st.info("No null distribution: see the message above.")
with right:
    st.subheader("Debiasing the noisy counts")
    zoom = st.toggle("Zoom on small counts, where debiasing acts", key="cmp_zoom",
                     bind="query-params",
                     help="Show C up to 3 k(α), as the paper's Figure 4, instead of every count.")
    kit.chart(
        dpviz.homogeneity.debias_figure(
            alpha_a, alpha_b, result.private1, result.private2,
            result.estimate.c1_tilde, result.estimate.c2_tilde, name_a="A", name_b="B",
            zoom=zoom,
        ),
        key="cmp_fig_debias", name="Debiasing the noisy counts",
    )
    st.caption(
        "Truncating at 0 biases small counts upwards: E[X | C] = g(C) lies above the line X = C. "
        "Each noisy count X is mapped back to C̃ (the inverse of g in between the thresholds), "
        "as in the paper's Figure 4."
    )

# --- The numbers ---------------------------------------------------------------
st.subheader("The numbers")
t1, t2 = st.columns([2, 1])
with t1:
    per_bin = result.histogram_table(pair.labels).reset_index()
    kit.table(per_bin, key="cmp_table_hist", name="Counts per bin", hide_index=True,
                  column_config={col: st.column_config.NumberColumn(
                      format="%.4f" if col == "p0_hat" else
                      "%.0f" if col.startswith("original") else "%.1f")
                      for col in per_bin.columns if col != "bin"})
    st.caption("Per bin: the true counts C (when known), the private counts X, the debiased "
               "counts C̃ and the rescaled Ĉ, and the pooled proportions p̂₀ under 'no "
               "difference'.")
with t2:
    summary = result.summary_table()
    kit.table(summary.assign(value=[f"{v:,.0f}" if float(v).is_integer() else f"{v:.4g}"
                                        for v in summary["value"]]),
                  csv=summary, key="cmp_table_results", name="Tests and estimates",
                  hide_index=True)
kit.note(
    "The parametric bootstrap test of Son, Park & Jung (2022, Algorithm 1) refers the "
    "statistic T to B histograms simulated under 'no difference' with the same noise; its "
    "p-value has a Monte Carlo standard error of at most 0.5/√B. The naive χ² test refers T to "
    "χ²(M − 1) as if the counts were not noisy.")

# --- Explanation ---------------------------------------------------------------
with st.expander("How it works: the mechanism, the estimators and the test", expanded=False):
    st.markdown("**The release (2.4).** Every count $C_j$ gets Laplace noise and is truncated "
                "at 0:")
    st.latex(r"X_j = \max\{0,\; C_j + Z_j\},\qquad Z_j \sim \mathrm{Lap}(2/\alpha)")
    st.markdown("**The statistic (2.3)**, computed on the private histograms:")
    st.latex(
        r"T = \sum_{i=1}^{2}\sum_{j=1}^{M}\frac{(X_{ij}-E_{ij})^2}{E_{ij}},\qquad "
        r"E_{ij} = \frac{n_i\,(X_{1j}+X_{2j})}{n_1+n_2},\quad n_i = \sum_j X_{ij}"
    )
    st.markdown(
        "The naive test refers $T$ to $\\chi^2_{M-1}$. But the noise inflates $T$, by an amount "
        "that depends on the unknown counts, so the naive test rejects far too often (section "
        "2.3)."
    )
    st.markdown("**Debiasing (4.1)–(4.2).** Because of the truncation, small counts come out "
                "too large on average:")
    st.latex(r"g(C) = E[X \mid C] = C + \frac{1}{\alpha} e^{-\alpha C/2}")
    st.latex(
        r"\tilde C = \begin{cases} 0 & X \le 1/\alpha \\ g^{-1}(X) & 1/\alpha < X < k(\alpha) \\ "
        r"X & \text{otherwise} \end{cases},\qquad g^{-1}(x) = x + \tfrac{2}{\alpha}\,"
        r"W_0\!\left(-\tfrac12 e^{-\alpha x/2}\right)"
    )
    st.markdown(
        "where $k(\\alpha) = g(C^*)$ and $C^*$ is where the bias $g(C) - C$ falls below 5; "
        "$W_0$ is the Lambert W function, which gives the inverse in closed form."
    )
    st.markdown("**Estimates under 'no difference' (4.3):**")
    st.latex(
        r"\hat N_i = \operatorname{round}\Big(\sum_j \tilde C_{ij}\Big),\quad "
        r"\hat C_{ij} = \tilde C_{ij}\,\frac{\hat N_i}{\sum_j \tilde C_{ij}},\quad "
        r"\hat p_0 = \frac{\hat C_1 + \hat C_2}{\hat N_1 + \hat N_2}"
    )
    st.markdown(
        "**The parametric bootstrap (Algorithm 1).** $B$ times: draw "
        "$U_i \\sim \\mathrm{Multinomial}(\\hat N_i, \\hat p_0)$, release them with the same "
        "noise, $Y_i = \\max\\{0, U_i + \\mathrm{Lap}(2/\\alpha_i)\\}$, and compute $T_b$ with "
        "$E_{ij} = \\hat N_i (Y_{1j} + Y_{2j}) / (\\hat N_1 + \\hat N_2)$. The p-value is the "
        "share of $T_b$ above $T$."
    )
    st.latex(r"p = \frac{1}{B}\sum_{b=1}^{B} I(T_b > T)")

kit.end()
