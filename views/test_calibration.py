"""Page: type-I error and power of the homogeneity tests on private histograms."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import widgets
from dpcore import datasets, figures, simulation, study

# Work cap of a live run: simulated bins R·(B + 1)·2M summed over its points (about a minute
# here). Fixed, so what is accepted does not depend on how busy the server is.
MAX_UNITS = 1e9
PAIR_LABELS = {
    key: f"{datasets.POPULATIONS[a].split(' (')[0]} vs {datasets.POPULATIONS[b].split(' (')[0]}"
    f" ({effect})"
    for key, (a, b, effect) in study.PAIRS.items()
}
M_LABELS = {86: "86 (single years)", 18: "18 (5-year groups)", 9: "9 (10-year groups)"}


@st.cache_data(max_entries=32, show_spinner=False)
def null_stats(shape: str, m: int, n: int, alpha: float, reps: int, seed: int):
    return simulation.null_statistics(
        datasets.shape_probabilities(shape, m), n, alpha, reps=reps, rng=seed
    )


@st.cache_resource(show_spinner=False)
def machine_speed() -> float:
    return simulation.seconds_per_unit()


@st.cache_data(max_entries=4, show_spinner=False)
def shipped_results(stamp: float | None) -> pd.DataFrame | None:
    """The shipped study; ``stamp`` (the file's modification time) renews the cache."""
    return study.load_results()


st.title("Test calibration")
st.markdown(
    "Can the tests of the *Compare two private histograms* page be trusted, and how much data "
    "do they need? A test's **type-I error** is how often it finds a difference when there is "
    "none; at the 5% level it should be 5%. Its **power** is how often it finds a difference "
    "that is there. Both are estimated here by simulation, as in section 4.2 of Son, Park & "
    "Jung (2022): draw two histograms, release them with Laplace noise, test, repeat R times, "
    "count the rejections."
)

tab_null, tab_live, tab_paper = st.tabs(
    ["Null distributions", "Type-I error and power", "The paper at full scale"]
)

# --- Figures 2-3 ----------------------------------------------------------------------
with tab_null:
    st.markdown(
        "Under 'no difference' the naive statistic should follow the χ²(M − 1) density. Without "
        "privacy it does; with privacy the noise shifts it right and spreads it, by an amount "
        "that depends on the shape and on M (the paper's Figures 2–3)."
    )
    c1, c2, c3 = st.columns(3)
    with c1:
        shape = st.selectbox("Shape p₀", list(datasets.SHAPES), format_func=datasets.SHAPES.get,
                             key="cal_shape", bind="query-params",
                             help="The paper's three null proportions (section 2.3).")
        m_null = st.select_slider("Bins M", [5, 10, 20, 50, 100, 200], value=20, key="cal_m",
                                  bind="query-params",
                                  help="The paper shows M = 20 and M = 100.")
    with c2:
        n_null = st.number_input(
            "Histogram size N", min_value=100, max_value=10_000_000, value=5050, step=50,
            key="cal_n", bind="query-params",
            help="Counts per histogram; the paper uses 5,050 (= 1 + 2 + … + 100).",
        )
        alpha_null = widgets.alpha_slider("Privacy level α", key="cal_alpha", default=0.5)
    with c3:
        reps_null = st.select_slider("Null replicates", [200, 500, 1000, 2000, 5000],
                                     value=1000, key="cal_reps_null", bind="query-params")
        seed = widgets.seed_control("cal_seed")
    ns = null_stats(shape, int(m_null), int(n_null), alpha_null, reps_null, seed)
    st.plotly_chart(figures.null_statistics_figure(ns.without_dp, ns.with_dp, ns.df,
                                                   alpha=alpha_null), key="cal_fig_null")
    crit = simulation.chi2_critical_value(ns.df)
    k1, k2, k3 = st.columns(3)
    k1.metric("χ² reference mean (df)", f"{ns.df}")
    k2.metric("Mean without DP", f"{ns.without_dp.mean():.1f}",
              help="Should be close to df.")
    k3.metric("Mean with DP", f"{ns.with_dp.mean():.1f}",
              help="The noise inflates the statistic.")
    k1.metric("Naive type-I error without DP", f"{np.mean(ns.without_dp > crit):.1%}",
              help="Share of null statistics above the χ² 5% critical value: about 5%.")
    k2.metric("Naive type-I error with DP", f"{np.mean(ns.with_dp > crit):.1%}",
              help="The same share on the private histograms: far above 5%.")

# --- Figures 9-12, live ------------------------------------------------------------------
with tab_live:
    st.markdown(
        "Rejection rate at the 5% level against N, for the naive χ² test and the parametric "
        "bootstrap test, each point with its 95% Wilson interval. Korea vs Korea has no "
        "difference (the rate is the type-I error: it should stay near the dotted 5% line); "
        "the other pairs differ (the rate is the power: higher is better)."
    )
    with st.form("cal_form", border=True):
        f1, f2, f3 = st.columns(3)
        with f1:
            pair = st.selectbox("Populations A vs B", list(study.PAIRS),
                                format_func=PAIR_LABELS.get, key="cal_pair")
            m_live = st.radio("Bins M", list(M_LABELS), index=1, format_func=M_LABELS.get,
                              key="cal_m_live", horizontal=True)
        with f2:
            a1 = widgets.alpha_slider("Privacy level α₁ (A)", key="cal_a1", default=0.1)
            a2 = widgets.alpha_slider("Privacy level α₂ (B)", key="cal_a2", default=0.1)
            tests = st.multiselect("Tests", list(simulation.TESTS), default=list(simulation.TESTS),
                                   format_func={"bootstrap": "parametric bootstrap",
                                                "chisq": "naive χ²"}.get, key="cal_tests")
        with f3:
            reps = st.select_slider("Replicates R per point", [50, 100, 200, 500, 1000],
                                    value=100, key="cal_reps",
                                    help="More replicates, narrower intervals: the interval "
                                    "half-width at 5% is about 1.96·√(0.05·0.95/R).")
            n_boot = st.select_slider("Bootstrap replicates B", [100, 200, 500, 1000], value=100,
                                      key="cal_boot")
            live_seed = st.number_input("Seed", min_value=0, max_value=2**31 - 1, value=2022,
                                        key="cal_live_seed")
        ns_live = st.multiselect(
            "Sample sizes N", widgets.N_GRID, default=list(study.PAPER_N),
            format_func=widgets.fmt_number, key="cal_ns",
            help="The paper's grid is 10ᵏ and 5·10ᵏ for k = 3…7.",
        )
        submitted = st.form_submit_button("Run simulation", type="primary",
                                          icon=":material/play_arrow:")

    params = dict(pair=pair, m=int(m_live), ns=tuple(sorted(ns_live)), a1=a1, a2=a2,
                  tests=tuple(tests), reps=int(reps), n_boot=int(n_boot), seed=int(live_seed))
    last = st.session_state.get("cal_result")
    if submitted or last is None:
        if not ns_live or not tests:
            widgets.error("Choose at least one sample size N and one test.")
        else:
            units = sum(simulation.work_units(params["m"], reps, n_boot, t)
                        for t in tests) * len(ns_live)
            seconds = simulation.estimate_seconds(units, machine_speed())
            if units > MAX_UNITS:
                command = (
                    f"python -m dpcore.study --pairs {pair} --m {params['m']} "
                    f"--alphas {a1:g},{a2:g} --n {' '.join(map(str, params['ns']))} "
                    f"--tests {' '.join(tests)} --reps {reps} --boot {n_boot} "
                    f"--seed {params['seed']} --out my_study.csv"
                )
                widgets.error(
                    f"This run would take about {seconds / 60:.1f} minutes here "
                    f"(R·B·M·points = {units:,.0f} simulated bins, more than the page's "
                    f"{MAX_UNITS:,.0f}). Lower R, B or the number of N values, or run it with "
                    f"the study command: `{command}`."
                )
            else:
                p1, p2 = study.cell_probabilities(pair, params["m"])
                bar = st.progress(0.0, text=f"Simulating… about {seconds:.0f} s")
                table = simulation.rejection_curve(
                    p1, p2, params["ns"], a1, a2, tests=tests, reps=reps, n_boot=n_boot,
                    rng=params["seed"],
                    progress=lambda f: bar.progress(f, text=f"Simulating… {f:.0%}"),
                )
                bar.empty()
                last = {"params": params, "table": table}
                st.session_state["cal_result"] = last
    if last is not None:
        if last["params"] != params:
            st.info("The settings above differ from the last completed run: the chart below "
                    "shows that run, described in its caption.", icon=":material/history:")
        shown = last["params"]
        st.plotly_chart(figures.rejection_figure(last["table"]), key="cal_fig_live")
        effect = study.PAIRS[shown["pair"]][2]
        meaning = "type-I error" if effect == "type-I error" else f"power ({effect})"
        st.caption(
            f"{PAIR_LABELS[shown['pair']]}, M = {shown['m']}, α₁ = {shown['a1']:g}, "
            f"α₂ = {shown['a2']:g}, R = {shown['reps']} per point, B = {shown['n_boot']}, "
            f"seed {shown['seed']}. The rate is the {meaning}."
        )
        st.dataframe(last["table"], hide_index=True, key="cal_table_live")
        st.download_button("Download these rates (CSV)",
                           last["table"].to_csv(index=False).encode(), file_name="rates.csv",
                           mime="text/csv", icon=":material/download:", on_click="ignore",
                           key="cal_dl_live")

# --- The shipped study ---------------------------------------------------------------
with tab_paper:
    results = shipped_results(study.results_stamp())
    if results is None or results.empty:
        st.info("The results file of the full study is not in this copy of the project; make it "
                f"with `{study.PAPER_COMMAND}`.")
    else:
        reps_s = ", ".join(f"{r:,}" for r in sorted(set(results["reps"])))
        boots = sorted(set(pd.to_numeric(results["n_boot"], errors="coerce").dropna().astype(int)))
        boot_text = ", ".join(f"{b:,}" for b in boots) if boots else "–"
        expected = len(study.paper_grid())
        st.markdown(
            f"The paper's grid, {len(results):,} settings, each with R = {reps_s} "
            f"replicates and B = {boot_text} bootstrap replicates (B = 500 bounds the p-value's "
            "Monte Carlo error by 0.022 and keeps the study to minutes on two cores). It was "
            "made by this command, which regenerates it exactly:"
        )
        st.code(study.PAPER_COMMAND, language="bash")
        if len(results) < expected:
            st.warning(f"This file holds {len(results):,} of the grid's {expected:,} settings "
                       "(a study still running, or stopped early).")
        g1, g2, g3, g4 = st.columns(4)
        pairs_f = g1.multiselect("Pairs", list(study.PAIRS), default=list(study.PAIRS),
                                 format_func=PAIR_LABELS.get, key="cal_f_pairs")
        ms_f = g2.multiselect("M", [86, 18, 9], default=[86, 18, 9], key="cal_f_m")
        privacy = sorted({(a, b) for a, b in zip(results["alpha1"], results["alpha2"])},
                         reverse=True)
        priv_f = g3.multiselect("Privacy (α₁, α₂)", privacy, default=privacy,
                                format_func=lambda ab: f"{ab[0]:g}, {ab[1]:g}", key="cal_f_priv")
        tests_f = g4.multiselect("Tests", list(simulation.TESTS), default=list(simulation.TESTS),
                                 key="cal_f_tests")
        keep = (
            results["pair"].isin(pairs_f) & results["m"].isin(ms_f)
            & results["test"].isin(tests_f)
            & pd.Series(list(zip(results["alpha1"], results["alpha2"])),
                        index=results.index).isin(priv_f)
        )
        chosen = results[keep]
        if chosen.empty:
            st.info("No settings match these filters.")
        else:
            st.plotly_chart(figures.study_figure(chosen), key="cal_fig_paper")
            st.dataframe(chosen, hide_index=True, key="cal_table_paper")
            st.download_button("Download the selected rows (CSV)",
                               chosen.to_csv(index=False).encode(),
                               file_name="calibration_study.csv", mime="text/csv",
                               icon=":material/download:", on_click="ignore", key="cal_dl_paper")

with st.expander("What the curves say", expanded=False):
    st.markdown(
        "- **The naive χ² test does not hold its level.** On private histograms its type-I "
        "error is far above 5% — often near 100% — and falls to 5% only when the counts are so "
        "large that the noise no longer matters: tens of millions of people at α = 0.01. Its "
        "high 'power' is the same defect: it rejects everything.\n"
        "- **The parametric bootstrap test holds its level**, close to 5%, at every N where its "
        "null can be estimated, with one or with different privacy levels for A and B "
        "(Figure 12).\n"
        "- **Power costs data.** The bootstrap test's power rises with N; stronger privacy "
        "(smaller α), more bins M and smaller differences all need more people for the same "
        "power: Korea vs USA is found with thousands, the Seoul area vs the rest of Korea needs "
        "tens of thousands at α = 0.1.\n"
        "- When privacy is so strong that a histogram's debiased total N̂ is 0, the bootstrap "
        "test cannot be run; such replicates count as not rejecting and are listed as "
        "*undefined*."
    )
