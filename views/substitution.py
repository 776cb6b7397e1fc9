"""Page: random substitution and its l-extension (γ-diagonal matrices), record by record.

Layout and widgets only: the settings, data, computations and sentences are
ui/pages/substitution.py's.
"""

from __future__ import annotations

import math
from dataclasses import replace

import dpviz
import streamlit as st

from dpcore import substitution as rs
from ui import controls, links, oneperson, registry, sources
from ui.format import fmt_big, fmt_count, fmt_number, fmt_prob, fmt_rel, fmt_sig, headed
from ui.kit import PageKit, page_header
from ui.pages import substitution as page
from ui.progress import ProgressBar
from ui.tabs import run_open_tab, settings_or_stop, show_links
from ui.text import N_, error_text, t

P = page.PARAMS  # this page's URL keys and tab label that other pages' links set


# --- Controls ----------------------------------------------------------------------------------

def data_controls(seed: int, where=st) -> tuple[page.Data | None, str | None, bool]:
    """The data source's controls, its choice in ``where``; the data, or why there is none
    and whether that is only a file not uploaded yet."""
    names = list(page.SOURCES)
    links.use_earlier_label(P.SOURCE)
    source = where.selectbox(
        t("Data: the records' true values"), names, index=names.index(page.DEFAULT_SOURCE),
        format_func=page.source_label, key=P.SOURCE, bind="query-params",
        help=t("Uniform or normal data, as in Kang, Lee & Hong's (2009) experiments (N "
               "records spread over k categories as evenly as whole numbers allow; Kang, Lee & "
               "Hong (2009) do not say which normal, so it is discretised as in Son, Park & "
               "Jung 2022, section 2.3), the ages of a 2020 population grouped into k age "
               "groups (N records drawn from it), or your own CSV file."))
    if source == page.UPLOAD:
        with st.container(border=True):
            upload, problem = sources.category_upload(
                "rs", max_categories=page.N_MAX, words=page.UPLOAD_WORDS)
        if upload is None:
            return None, (problem or t("Upload a CSV file, or pick a built-in data source.")), \
                problem is None
        data = page.file_data(upload)
        st.caption(t("Categories k = {n_cat} (N in Kang, Lee & Hong 2009), records N = {n} "
                     "(n in Kang, Lee & Hong 2009): your file's.",
                     n_cat=data.counts.size, n=f"{data.counts.sum():,}"))
        return data, None, False
    if source in page.SHAPES:
        n_cat = controls.ranged_slider(
            page.categories_label(), 2, page.N_MAX, default=page.DEFAULT_N, key=P.N,
            help=t("How many values u_1 … u_k a record can take. Kang, Lee & Hong (2009) call "
                   "it N and use N = 50 and 100."))
    else:
        n_cat = controls.ranged_slider(
            page.categories_label(ages=True), 2, page.K_MAX, default=page.DEFAULT_GROUPS,
            key=P.N,
            help=t("The single years of age 0 … 84 and 85+ cut into k groups of (nearly) equal "
                   "width: k = 86 is one group per year."))
    n = controls.people_slider(
        page.records_label(), controls.N_GRID, default=page.DEFAULT_RECORDS, key="rs_n",
        help=t("How many records are substituted. Kang, Lee & Hong (2009) call it n and use "
               "n = 5,000 and 50,000. Log scale, 1,000 to 50 million."))
    return page.builtin_data(source, n_cat, n, seed), None, False


def read_controls() -> tuple[page.Settings | None, str | None, bool]:
    """All controls above the tabs; returns (settings, problem, waiting for a file)."""
    # The data source on a row of its own: in the first column its label was cut (issue 36).
    source_row = st.container()
    c1, c2, c3 = st.columns([1.25, 1, 1], gap="large")
    with c3:
        seed = controls.seed_control("rs_seed")
    with c2:
        gamma = float(controls.log_slider(
            t("Amplification γ"), page.GAMMA_GRID, default=page.DEFAULT_GAMMA, key=P.GAMMA,
            help=t("A record keeps its value γ times as often as it moves to any one other "
                   "value: every output is at most γ times more likely under one true value "
                   "than under another. Larger γ, less privacy, better accuracy. Kang, Lee & "
                   "Hong (2009) use 5 and 10. Log scale, 1.1 to 1,000.")))
        st.caption(t("ε = ln γ = {eps}: the local differential privacy of one substitution "
                     "(l = 1).", eps=fmt_sig(math.log(gamma))))
    with c1:
        data, problem, waiting = data_controls(seed, source_row)
    if data is None:
        return None, problem, waiting
    n_cat = len(data.labels)
    with c2:
        if n_cat > 2:
            l = controls.ranged_slider(
                t("Values per record l"), 1, n_cat - 1, default=page.DEFAULT_L, key="rs_l",
                help=t("Algorithm 2: each record is substituted l times, a value already drawn "
                       "is drawn again, and the record releases l distinct values (1 ≤ l < k). "
                       "l = 1 is Algorithm 1. Kang, Lee & Hong (2009) use l = 1, 2 and 4."))
        else:
            l = 1
            st.caption(t("l = 1: with k = 2 categories a record releases one value."))
    with c3:
        used, chosen = reps_control(n_cat, int(l))
        s = page.Settings(data, gamma, int(l), used, chosen, seed)
        if s.reduced:
            st.caption(page.reduced_caption(s))
    return s, None, False


REPS_KEY = "rs_reps"


def reps_control(n_cat: int, l: int) -> tuple[int, int]:
    """Repetitions R: (the R in use, the R chosen). The control shows the R in use: its
    steps stop at the R the budget allows for these k and l (page.reps_cap), and below the
    grid's smallest step the R in use is written instead of a slider. The URL parameter
    ``rs_reps`` keeps the R chosen (the paper grid's), so it comes back when k or l allow
    it; a move of the slider is written to it. Not bound to the URL itself: Streamlit would
    drop a URL value beyond the options of the moment."""
    moved_key = f"{REPS_KEY}_moved"
    cap = page.reps_cap(n_cat, l)

    def _moved() -> None:
        moved = st.session_state.get(REPS_KEY)
        if moved is not None:
            st.session_state[moved_key] = int(moved)

    moved = st.session_state.pop(moved_key, None)
    if moved is not None:  # the user moved the slider: the URL follows
        if moved == page.DEFAULT_REPS:
            st.query_params.pop(REPS_KEY, None)
        else:
            st.query_params[REPS_KEY] = str(moved)
    raw = st.query_params.get(REPS_KEY)
    chosen = page.reps_from_url(raw) if raw is not None else None
    if raw is not None and chosen is None:  # unusable: dropped, and named by the page kit
        st.query_params.pop(REPS_KEY, None)
    chosen = page.DEFAULT_REPS if chosen is None else chosen
    used = min(chosen, cap)
    options = page.reps_options(used, cap)
    help_text = t("How many releases are simulated to measure the actual error, the mean cost "
                  "and the bias (Kang, Lee & Hong (2009) use 100). More repetitions, smaller "
                  "Monte Carlo error. Log scale, 10 to 500; at most {cap} for these k and l.",
                  cap=f"{min(cap, page.REPS_GRID[-1]):,}")
    if st.session_state.get(REPS_KEY) != used:
        st.session_state[REPS_KEY] = used
    if len(options) < 2:
        st.markdown(t("Repetitions R = {reps}", reps=f"{used:,}"), help=help_text)
    else:
        st.select_slider(t("Repetitions R"), options=options, format_func=fmt_number,
                         key=REPS_KEY, on_change=_moved, help=help_text)
    return used, chosen


def summary(kit: PageKit, s: page.Settings) -> None:
    """The mechanism's probabilities and its privacy, as metrics and in one sentence."""
    keep, other = page.keep_and_move(s)
    eps_l = page.epsilon_l(s)
    label = page.labels(s)
    with kit.leading():  # presenting: first under the title, with the release's chart
        cols = st.columns(5)
    kit.metric(label["k"], s.n_categories, f"{s.n_categories}", where=cols[0], border=True,
               help=t("How many values a record can take."), given=True)
    kit.metric(label["n"], s.n, f"{s.n:,}", where=cols[1], border=True,
               help=t("How many records are released."), given=s.source != page.UPLOAD)
    kit.metric(label["keep"], keep, fmt_prob(keep), where=cols[2], border=True,
               help=t("m_ii = γx = γ/(γ + k − 1): the probability that one substitution "
                      "keeps a record's value."))
    kit.metric(label["other"], other, fmt_prob(other), where=cols[3], border=True,
               help=t("m_ji = x = 1/(γ + k − 1) for j ≠ i: the probability of one given "
                      "other value."))
    kit.metric(label["eps_l"], eps_l, fmt_sig(eps_l), where=cols[4], border=True,
               help=t("The exact local differential privacy of what a record releases: its "
                      "set of l distinct values (ln γ at l = 1). See the tab Privacy."))
    st.markdown(page.in_plain_words(s))
    kit.settings(s)
    kit.finding(page.summary_finding(s))
    if s.reduced:
        kit.note(page.reduced_note(s))


# --- 1. Release and reconstruction -------------------------------------------------------------

def release_section(kit: PageKit, s: page.Settings) -> None:
    release = page.one_release(s)
    y = release.counts
    estimates = page.reconstructions(s, y)
    st.markdown(page.release_intro(s))
    cols = st.columns(4)
    errors = page.one_release_errors(s, estimates)
    label = page.labels(s)
    for col, kind in zip(cols, page.KINDS):
        kit.metric(label[f"release_{kind}"], errors[kind], fmt_sig(errors[kind]), where=col,
                   border=True,
                   help=t("The relative error of this one release's reconstruction: the length "
                          "of the error vector over the length of the true counts."))
    kit.metric(label["draws_used"], int(release.draws), f"{release.draws:,}", where=cols[2],
               border=True,
               help=t("How many times Algorithm 2 drew a value, re-draws of a value already "
                      "in a record's set included."))
    kit.metric(label["nl"], s.n * s.l, f"{s.n * s.l:,}", where=cols[3], border=True,
               help=t("The values released: l per record. Draws beyond N·l are re-draws."))
    with kit.leading():
        kit.chart(dpviz.substitution.substitution_counts_figure(
            s.data.labels, s.x, y, estimates["source"], estimates["unbiased"], l=s.l),
            key="rs_fig_counts",
            name=t("One release: true, released and reconstructed counts"))
    kit.code(page.code_builder(s))
    kit.finding(page.release_finding(s, errors, release.draws))
    kit.note(t("Both reconstructions can go below 0: the released counts are pulled towards "
               "the uniform distribution, and the reconstruction undoes that on average, not "
               "count by count."))
    st.caption(t("At l = 1 both reconstructions are Theorem 3.2's: their markers coincide. They "
                 "can go below 0; the released Y is pulled towards the uniform distribution, "
                 "and the reconstruction undoes that on average.") if s.l == 1 else
               t("Re-randomisation makes Kang, Lee & Hong's (2009) X̂*/l biased unless the data "
                 "are uniform "
                 "(see the tab Bias); A⁻¹Y* is unbiased. Both can go below 0."))
    decimals = st.column_config.NumberColumn(format="%.2f")
    kit.table(page.release_table(s, y, estimates), key="rs_counts_table",
              name=t("One release: counts per category"), hide_index=True,
              column_config=headed(page.release_headers(s), {"X̂*/l (source)": decimals,
                                                             "A⁻¹Y* (unbiased)": decimals}))
    with st.expander(t("The reconstructions as formulas"), expanded=False):
        st.latex(t(r"\hat X = M^{-1}Y:\quad \hat X_i = \frac{\gamma + k - 1}{\gamma - 1}\,Y_i - "
                 r"\frac{N}{\gamma - 1}\ \ (\text{Theorem 3.2}),\qquad "
                 r"\frac{\hat X^*}{l} = \frac{M^{-1}Y^*}{l},\qquad "
                 r"A^{-1}Y^*:\ \hat X_i = \frac{Y^*_i - b\,N}{a}"))
        st.caption(t("A = a·I + b·J is the exact expectation matrix of Algorithm 2, E[Y*] = A·X "
                     "(see the tab Bias); at l = 1, A = M and all three coincide."))


# --- 2. Accuracy -------------------------------------------------------------------------------

def accuracy_section(kit: PageKit, s: page.Settings) -> None:
    reps = f"{s.reps:,}"
    st.markdown(t(
        "Kang, Lee & Hong (2009) measure accuracy by the relative standard error σ_X̂/‖X‖, with "
        "σ_X̂² = E‖X̂ − X‖². Here it is simulated over R = {reps} releases and computed "
        "exactly; Theorem 4.1 bounds it, and Section 5 divides the bound by √l.", reps=reps))
    errors = page.errors_of(s)
    label = page.labels(s)
    first, second = st.columns(3), st.columns(3)
    for col, kind in zip(first, page.KINDS):
        row = errors.loc[kind]
        kit.metric(label[f"simulated_{kind}"], float(row["actual"]),
                   page.plus_minus(row["actual"], row["actual_se"]), where=col, border=True,
                   help=t("√(mean ‖X̂ − X‖² over R = {reps} releases)/‖X‖ ± one Monte Carlo "
                          "standard error.", reps=reps))
        kit.number(label[f"simulated_se_{kind}"], float(row["actual_se"]))
    bound = float(errors["bound"].iloc[0])
    kit.metric(label["bound"], bound, fmt_sig(bound), where=first[2], border=True,
               help=t("√(k(k − 1)(k + 2γ − 2))/((γ − 1)√N), divided by √l (Section 5.2)."))
    for col, kind in zip(second, page.KINDS):
        exact = float(errors.loc[kind, "exact"])
        kit.metric(label[f"exact_{kind}"], exact, fmt_sig(exact), where=col, border=True,
                   help=t("√E‖X̂ − X‖²/‖X‖ from the exact variance (and squared bias) of "
                          "Algorithm 2 at these true counts."))
    curves = page.error_curves(s)
    kit.chart(dpviz.substitution.substitution_error_figure(
        curves, current_l=s.l, points=errors.reset_index()), key="rs_fig_error",
        name=t("Relative standard error against l"))
    above = page.first_l_above_bound(curves)
    if above is not None:
        kit.number(label["above"], above)
    kit.code(page.code_builder(s))
    kit.finding(page.accuracy_finding(s, errors))
    if above is not None:
        kit.note(page.above_note(above))
    st.caption(page.accuracy_caption(above))
    with st.expander(t("Theorems 4.1 and 5.2 as formulas"), expanded=False):
        st.latex(t(r"\frac{\sigma_{\hat X}}{\|X\|} \le \frac{\sqrt{k(k-1)(k+2\gamma-2)}}"
                 r"{(\gamma-1)\sqrt{N}}\ \ (\text{Theorem 4.1}),\qquad "
                 r"\frac{\sigma_{\hat X^*/l}}{\|X\|} \approx \frac{1}{\sqrt l}\,"
                 r"\frac{\sigma_{\hat X}}{\|X\|}\ \ (\text{Theorem 5.2, independent draws})"))
    paper_grid_section(kit, s)


def paper_grid_section(kit: PageKit, s: page.Settings) -> None:
    reps = s.reps_chosen
    st.markdown(t("##### Kang, Lee & Hong's (2009) experiment (Section 6)"))
    st.markdown(page.grid_intro(reps))
    results = st.session_state.setdefault("rs_grid_results", {})  # this session's runs
    key = (reps, s.seed)
    if st.button(t("Run the paper grid"), key="rs_grid_run", icon=":material/grid_on:",
                 help=t("Simulates all 24 cells with R = {reps} and seed {seed} (stream [seed, "
                        "5]); a few seconds. The result is kept until R or the seed change.",
                        reps=f"{reps:,}", seed=s.seed)):
        steps = page.PAPER_CELLS
        results[key] = page.paper_grid(reps, s.seed, _progress=ProgressBar(
            t("Simulating the grid…"),
            lambda f: t("Simulating the grid… cell {done} of {steps}", done=round(f * steps),
                        steps=steps)))
    if key not in results:
        st.caption(t("Not run yet with these settings (a run with another R or seed is kept).")
                   if results else t("Not run yet with these settings."))
        return
    result = results[key]
    wide = page.grid_layout(result["table"])
    data = t("data")  # the headers as page.grid_layout writes them
    counts = [c for c in wide.columns if c[1] in ("k", "N", t("draws"))]
    styled = wide.style.format("{:.4f}", subset=[c for c in wide.columns if c[0] != data]) \
        .format("{:,.0f}", subset=counts).format("{:g}", subset=[(data, "γ")])
    # Its CSV (and the report) get the full table: one row per cell and estimator. Its name
    # is its CSV file's name, kept as it was.
    kit.table(styled, key="rs_grid_table", csv=result["table"], hide_index=True,
              name=t("The source's grid, R = {reps}, seed {seed}", reps=reps, seed=s.seed))
    st.caption(page.grid_caption(reps, s.seed, result["seconds"]))


# --- 3. Cost -----------------------------------------------------------------------------------

def cost_section(kit: PageKit, s: page.Settings) -> None:
    release = page.one_release(s)
    errors = page.errors_of(s)
    cost = page.Cost.of(s)
    st.markdown(t(
        "Algorithm 2 draws until a record has l distinct values: a draw that repeats a value "
        "already in the record's set is drawn again. The extra draws are its cost."))
    label = page.labels(s)
    mean_draws = float(errors["draws"].iloc[0])
    ratio = cost.expected / (s.n * s.l)
    cols = st.columns(3) + st.columns(3)
    kit.metric(label["draws_release"], int(release.draws), f"{release.draws:,}", where=cols[0],
               border=True, help=t("The release of the first tab (stream [seed, 1])."))
    kit.metric(label["mean_draws"], mean_draws, fmt_count(mean_draws), where=cols[1],
               border=True, help=t("The mean over the releases of the tab Accuracy."))
    kit.metric(label["expected_draws"], cost.expected, fmt_count(cost.expected), where=cols[2],
               border=True,
               help=t("Exactly: each of the l steps of a record is geometric, with a success "
                      "probability that depends on whether its own value is already in its "
                      "set."))
    kit.metric(label["nl"], s.n * s.l, f"{s.n * s.l:,}", where=cols[3], border=True,
               help=t("The values released."))
    kit.metric(label["draws_ratio"], ratio, fmt_sig(ratio), where=cols[4], border=True,
               help=t("1 means no re-draws."))
    kit.metric(label["collision"], cost.collision, fmt_big(cost.collision), where=cols[5],
               border=True,
               help=t("The probability that l independent draws for one record repeat a "
                      "value: how often a record would release fewer than l distinct values "
                      "without re-draws."))
    kit.chart(dpviz.substitution.substitution_cost_figure(page.cost_table(s), current_l=s.l),
              key="rs_fig_cost", name=t("Cost of re-draws against l"))
    kit.code(page.code_builder(s))
    kit.finding(page.cost_finding(s, cost, release.draws))
    with st.expander(t("Theorem 5.1 as a formula"), expanded=False):
        st.latex(t(r"P[s \ge 2] = 1 - \frac{(k - l + l\gamma)\prod_{i=1}^{l-1}(k - i)}"
                 r"{(\gamma + k - 1)^l}\ \ (\text{Theorem 5.1})"))
    st.caption(t("The own value, weighted γ, is the likeliest repeat: re-draws grow with γ and "
                 "with l/k. Sampling from the counts here takes O(k²·l) work whatever N."))


# --- 4. Privacy --------------------------------------------------------------------------------

def privacy_section(kit: PageKit, s: page.Settings) -> None:
    e = page.Privacy.of(s)
    label = page.labels(s)
    st.markdown(t("**One substitution (l = 1).** The γ-diagonal matrix is γ-amplifying: every "
                  "output is at most γ times more likely under one input than another."))
    cols = st.columns(3)
    kit.metric(label["gamma"], s.gamma, fmt_number(s.gamma), where=cols[0], border=True,
               help=t("max over outputs y and inputs u, v of P(y | u)/P(y | v) = γ."),
               given=True)
    kit.metric(label["log_gamma"], e.log_gamma, fmt_sig(e.log_gamma), where=cols[1],
               border=True, help=t("The local differential privacy of one substitution."))
    kit.metric(label["condition"], rs.condition_number(s.n_categories, s.gamma),
               page.condition_number(s), where=cols[2], border=True,
               help=t("1 + k/(γ − 1): how much inverting M amplifies noise. Strong privacy "
                      "(γ near 1) means a large condition number."))
    st.markdown(t("**The l-extended release (l = {l}).** What a record releases is its set of l "
                  "distinct values.", l=s.l))
    cols = st.columns(3)
    kit.metric(label["eps_bound"], e.eps_bound, fmt_sig(e.eps_bound), where=cols[0],
               border=True,
               help=t("Section 5.1. Exact for the multiset of l independent draws, without "
                      "re-randomisation."))
    kit.metric(label["eps_exact"], e.eps_l, fmt_sig(e.eps_l), where=cols[1], border=True,
               help=t("ln[π/(1 − π)·(k − l)/l]: the largest ratio of the probabilities of "
                      "one released set under two true values."))
    kit.metric(label["eps_ordered"], e.eps_ordered, fmt_sig(e.eps_ordered), where=cols[2],
               border=True,
               help=t("ln γ + Σ_{j<l} ln(1 + (γ − 1)/(k − j)): the l values in the order "
                      "drawn, the worst case the record's own value drawn first."))
    if s.l > 1:
        st.caption(page.overstated_caption(e))
    kit.chart(dpviz.substitution.substitution_epsilon_figure(
        page.epsilon_table(s), current_l=s.l, log_gamma=e.log_gamma), key="rs_fig_eps",
        name=t("Privacy ε against l"))
    kit.finding(page.privacy_finding(s, e))
    with st.expander(t("ε_l as a formula"), expanded=False):
        st.latex(t(r"\pi = 1 - \prod_{j=0}^{l-1}\frac{k-1-j}{\gamma+k-1-j},\qquad "
                 r"\varepsilon_l = \ln\!\Big[\frac{\pi}{1-\pi}\cdot\frac{k-l}{l}\Big]"
                 r"\ \le\ \varepsilon_l^{\text{ordered}} = \ln\gamma + \sum_{j=1}^{l-1}"
                 r"\ln\!\Big(1 + \frac{\gamma-1}{k-j}\Big)\ \le\ l\ln\gamma"))
    s = breach_section(kit, s, e)
    kit.code(page.code_builder(s))
    links_section(s)


def breach_controls(s: page.Settings) -> page.Settings:
    c1, c2 = st.columns(2)
    rho1 = c1.number_input(
        t("ρ₁: prior"), min_value=0.001, max_value=0.999, value=page.DEFAULT_RHO1, step=0.01,
        format="%.3g", key="rs_rho1", bind="query-params",
        help=t("The prior probability of the property, e.g. 0.05: 'this record's value is "
               "u_1'."))
    rho2 = c2.number_input(
        t("ρ₂: posterior not to exceed"), min_value=0.001, max_value=0.999,
        value=page.DEFAULT_RHO2, step=0.05, format="%.3g", key="rs_rho2", bind="query-params",
        help=t("The posterior the property must not exceed after the release; above ρ₁."))
    return replace(s, rho1=rho1, rho2=rho2)


def breach_section(kit: PageKit, s: page.Settings, e: page.Privacy) -> page.Settings:
    """Theorem 3.1's breaches at the ρ₁ and ρ₂ chosen; returns the settings with them."""
    st.markdown(t("##### Privacy breaches (Theorem 3.1)"))
    st.markdown(t(
        "A ρ₁→ρ₂ breach: a property of a record with prior probability at most ρ₁ gets a "
        "posterior above ρ₂ after its release. A γ-amplifying release allows none when γ is "
        "below ρ₂(1 − ρ₁)/(ρ₁(1 − ρ₂))."))
    s = breach_controls(s)
    try:
        threshold = rs.breach_gamma(s.rho1, s.rho2)
    except ValueError as exc:
        kit.error(t("These probabilities cannot be used: {why}",
                    why=error_text(exc, page.SYMBOLS)))
        return s
    table = page.breach_table(s, e, threshold)
    kit.number(page.labels(s)["threshold"], threshold)
    posterior, _ = page.breach_columns(s)
    for release, value in zip(table["release"], table[posterior]):
        kit.number(page.breach_label(release, t(posterior)), float(value))
    kit.table(page.breach_shown(table), key="rs_breach_table", csv=table,
              name=t("Privacy breaches (Theorem 3.1)"), hide_index=True,
              column_config=headed(page.breach_headers(s)))
    kit.settings(s)
    kit.finding(page.breach_finding(s, e, threshold))
    st.caption(page.breach_caption(threshold))
    with st.expander(t("Theorem 3.1 as a formula"), expanded=False):
        st.latex(t(r"\gamma < \frac{\rho_2(1-\rho_1)}{\rho_1(1-\rho_2)}\ \Longrightarrow\ "
                 r"\text{no }\rho_1\to\rho_2\text{ breach},\qquad "
                 r"P(\text{property}\mid y) \le \frac{\gamma\rho_1}{\gamma\rho_1 + 1 - \rho_1}"))
    return s


def links_section(s: page.Settings) -> None:
    """l = 1 is k-RR with e^ε = γ: links to the LDP and the f-DP pages."""
    st.markdown(t("##### l = 1 is k-ary randomized response\nOne substitution with a γ-diagonal "
                  "matrix is k-RR with k = {n_cat} and e^ε = γ: ε = ln γ = {eps}.",
                  n_cat=s.n_categories, eps=fmt_sig(math.log(s.gamma))))
    helps = (t("Opens 'Randomized response (local DP)' on its guarantee: the same mechanism, "
               "one user at a time, with its estimators."),
             t("Opens 'f-DP and Gaussian DP' on its trade-off curves with random substitution "
               "(k-RR with e^ε = γ, the same k): how well the best attacker can tell two true "
               "values "
               "apart from one released value."))
    show_links((page.ldp_link(s), page.fdp_link(s)), helps)


# --- 5. Bias -----------------------------------------------------------------------------------

def bias_section(kit: PageKit, s: page.Settings) -> None:
    st.markdown(t(
        "With re-randomisation a record's own value is in its set with probability π and "
        "each other value with probability b = (l − π)/(k − 1). So E[Y*] = AX with "
        "A = aI + bJ, not l·MX as for l independent draws (l·γx on the diagonal), and Kang, "
        "Lee & Hong's (2009) X̂*/l = M⁻¹Y*/l is biased unless the data are uniform. A⁻¹Y* is "
        "unbiased."))
    with st.expander(t("π, a and b as formulas"), expanded=False):
        st.latex(t(r"\pi = 1 - \prod_{j=0}^{l-1}\frac{k-1-j}{\gamma+k-1-j},\quad "
                 r"b = \frac{l-\pi}{k-1},\quad a = \pi - b,\qquad \mathbb E[Y^*] = (aI + bJ)X,"
                 r"\qquad \hat X_i^{\text{unbiased}} = \frac{Y^*_i - b\,N}{a}"))
    st.caption(page.bias_caption(s))
    label = page.labels(s)
    pi, independent = page.inclusion(s)
    kit.number(label["pi"], pi)
    kit.number(label["l_gamma_x"], independent)
    errors = page.errors_of(s)
    cols = st.columns(4)
    for col, kind in zip(cols, page.KINDS):
        bias = float(errors.loc[kind, "bias"])
        kit.metric(label[f"bias_{kind}"], bias, fmt_rel(bias), where=col, border=True,
                   help=t("‖E X̂ − X‖/‖X‖, exactly."))
    for col, kind in zip(cols[2:], page.KINDS):
        exact = float(errors.loc[kind, "exact"])
        kit.metric(label[f"bias_exact_{kind}"], exact, fmt_sig(exact), where=col, border=True,
                   help=t("√E‖X̂ − X‖²/‖X‖: variance and squared bias."))
    kit.chart(dpviz.substitution.substitution_bias_figure(
        s.data.labels, s.x, rs.reconstruction_bias(s.x, s.gamma, s.l), page.estimates_of(s)),
        key="rs_fig_bias", name=t("Bias per category"))
    st.caption(t("Markers: the mean of X̂ − X over the R = {reps} releases of the tab Accuracy, "
                 "± 2 standard errors of that mean.", reps=f"{s.reps:,}"))
    st.markdown(t("At l = 1 there is no re-randomisation: both are Theorem 3.2's unbiased "
                  "reconstruction. Choose l ≥ 2 to see the bias.") if s.l == 1 else
                page.bias_against_variance(errors))
    kit.code(page.code_builder(s))
    kit.finding(page.bias_finding(s, errors))


# ------------------------------------------------------------------------------------------

INTRO = N_("**Random substitution** (Kang, Lee & Hong 2009) replaces each record's value "
           "u_i by u_j with probability m_ji, from a γ-diagonal matrix M: a value is kept γ "
           "times as often as it is moved to any one other value, so every release is at most "
           "γ times more likely under one true value than under another (ε = ln γ local "
           "differential privacy). The server still estimates the true counts X by inverting M. "
           "The **l-extended** version releases l distinct values per record, re-drawing "
           "repeats: more accuracy for the same γ, at a price in draws and in privacy.")
SECTIONS = dict(zip(page.TABS, (release_section, accuracy_section, cost_section,
                                privacy_section, bias_section)))


def main() -> None:
    kit = page_header(t(page.TITLE))
    kit.try_this(registry.SUBSTITUTION, list(page.EXPERIMENTS))
    st.markdown(t(INTRO))
    with st.expander(t("The γ-diagonal matrix M and its inversion"), expanded=False):
        st.latex(r"M = xG = \frac{1}{\gamma + k - 1}\begin{pmatrix}\gamma & 1 & \cdots & 1 \\ "
                 r"1 & \gamma & \cdots & 1 \\ \vdots & & \ddots & \vdots \\ "
                 r"1 & 1 & \cdots & \gamma\end{pmatrix},\qquad \mathbb E[Y] = MX,\qquad "
                 r"\hat X_i = \frac{\gamma + k - 1}{\gamma - 1}\,Y_i - \frac{N}{\gamma - 1}")
    settings = settings_or_stop(kit, read_controls)
    with st.container(border=True):
        summary(kit, settings)
    # Only the open tab runs; dpcore's argument errors stop the page, in plain words.
    run_open_tab(kit, settings, SECTIONS, key=P.TAB, fail=lambda exc: t(
        "These settings cannot be used: {why}", why=error_text(exc, page.SYMBOLS)))
    oneperson.section(kit, page.one_person(settings), page.one_person_comparison(settings),
                      key="rs_op")
    kit.end()


main()
