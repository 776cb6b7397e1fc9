"""Page: the Gaussian mechanism, calibrating its noise σ to (ε, δ), and its privacy loss.

Layout and controls only: the settings, numbers, sentences and tables come from
ui/pages/gaussian.py. The controls are read into the page's Settings.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import streamlit as st

import dpviz
from dpcore import gaussian
from ui import controls, links, notation, oneperson, registry, sources
from ui.format import fmt_param, fmt_prob_pct, fmt_sci, fmt_sig, headed
from ui.kit import PageKit, page_header
from ui.links import FdpParams
from ui.pages import gaussian as page
from ui.pages.gaussian import (METHOD_LABELS, QUANTITIES, SYMBOLS, TOP_AGE, UPLOAD, Release,
                               Settings, Solution, fmt_answer, fmt_shown, latex_number)
from ui.text import N_, error_text, plain, t

SOLVE_KEY = "gauss_solve"
DATA_HELP = {
    "query": N_("Count: people (in an age group); one person changes it by at most 1. Sum: of "
                "values clipped to [0, U]; one person changes it by at most U. Histogram: one "
                "count per group."),
    "neighbours": N_("Add or remove one person: one bin changes by 1, Δ = 1. Replace one "
                     "person: one bin loses 1 and another gains 1, Δ = √2 (L2 norm)."),
}


# --- The four values, solved -----------------------------------------------------------------


def read_controls() -> tuple[Settings, Solution]:
    """Solve for, the calibration, and the four synced inputs; solve the missing one."""
    c1, c2 = st.columns([1, 2])
    with c1:
        # Set through Session State (the button of the release demo switches it to σ), so no
        # default= here: its default is the Session State value.
        if st.session_state.get(SOLVE_KEY) is None:
            st.session_state[SOLVE_KEY] = page.SOLVE_DEFAULT
        solve = st.segmented_control(
            t("Solve for"), list(QUANTITIES), required=True,
            format_func=lambda k: QUANTITIES[k].symbol, key=SOLVE_KEY, bind="query-params",
            help=t("Which of ε, δ, σ and Δ the page computes from the other three. Its row "
                   "below is greyed out and shows the value found."))
        if solve is None:  # a browser history entry without it: back to the default
            st.rerun()
    with c2:
        method = st.segmented_control(
            t("Calibration used to solve"), list(METHOD_LABELS), default="analytic",
            required=True, format_func=lambda k: t(METHOD_LABELS[k]), key="gauss_method",
            bind="query-params",
            help=t("Analytic: the exact δ(ε) of Balle & Wang (2018), the least noise that "
                   "gives (ε, δ)-DP. Tail bound: P(L > ε) ≤ δ, sufficient but asks for more "
                   "noise. Classical: σ = Δ√(2 ln(1.25/δ))/ε (Dwork & Roth), proved for ε < 1 "
                   "only."))
    rows = [st.columns(2, gap="large"), st.columns(2, gap="large")]
    slots = {"eps": rows[0][0], "delta": rows[0][1], "sigma": rows[1][0],
             "sensitivity": rows[1][1]}

    def draw(name: str, *, value=None) -> float:
        q = QUANTITIES[name]
        solved = name == solve
        with slots[name]:
            return controls.synced_log_input(
                t("{label} (solved)", label=t(q.label)) if solved else t(q.label), q.grid,
                key=q.key, default=page.DEFAULTS[name], min_value=q.min_value,
                max_value=q.max_value, help=t(q.help), disabled=solved, value=value,
                number_label=t(q.number_label), step=q.step, format_func=q.slider_format)

    # The three given rows first: the solved row is filled in with their values.
    given = {name: draw(name) for name in QUANTITIES if name != solve}
    s = Settings(solve=solve, method=method, **{name: given.get(name) for name in QUANTITIES})
    setting, problem = page.solve(s)
    if setting is None:  # no solution: the solved row keeps its last value
        return s, Solution({**given, solve: draw(solve)}, None, problem)
    draw(solve, value=getattr(setting, solve))
    return s, Solution({k: getattr(setting, k) for k in QUANTITIES}, setting)


def results(kit: PageKit, s: Settings, sol: Solution) -> None:
    """The completed set as metrics, and what it means in one sentence."""
    with kit.leading():  # presenting: first under the title, with the calibrations' chart
        cols = st.columns(5)
    helps = [t(q.help) for q in QUANTITIES.values()] + [t(page.MU_HELP)]
    for col, (label, shown, value), help in zip(cols, page.result_metrics(s, sol), helps):
        if value is None:
            col.metric(label, shown, border=True, help=help)
        else:
            kit.metric(label, value, shown, where=col, border=True, help=help,
                       given=not label.endswith(t("(solved)")) and label != t("μ = Δ/σ"))
    setting, method = sol.setting, t(METHOD_LABELS[s.method])
    if setting is None:
        problem = t("No {symbol} fits these values with the {method} calibration. {problem}",
                    symbol=QUANTITIES[s.solve].symbol, method=method, problem=sol.problem)
        kit.error(problem)
        kit.code_problem = problem
        return
    if setting.delta >= 1:
        kit.error(t("With the {method} calibration δ = 1 here: it certifies nothing at this ε. "
                    "Raise σ or ε, or use the analytic calibration.", method=method))
        return
    if setting.delta == 0:
        st.info(t("δ is below 10⁻³⁰⁰ here: as good as 0."), icon=":material/info:")
    if s.method == "classical" and setting.eps >= gaussian.CLASSICAL_MAX_EPS:
        note, warning = page.classical_results_texts(setting.eps)
        kit.note(note)
        st.warning(warning, icon=":material/warning:")
    sentence, verdict = page.plain_sentence(setting)
    st.markdown(sentence)
    kit.finding(verdict)


# --- 1. Three calibrations -------------------------------------------------------------------


def calibration_metric(kit: PageKit, col, r) -> None:
    """One calibration's σ, how it compares with the exact σ, and why (a caption)."""
    label = t("σ, {name}", name=r.name)
    if not np.isfinite(r.sigma):
        col.metric(label, t("no solution"), border=True, help=plain(r.note, SYMBOLS))
        col.caption(plain(r.note, SYMBOLS))
    elif r.method == "analytic":
        kit.metric(label, r.sigma, fmt_shown(r.sigma), where=col, border=True,
                   delta=t("the reference"),
                   delta_color="off", delta_arrow="off",
                   help=t("The smallest σ with δ(ε) ≤ δ: exact."))
        col.caption(t("The exact calibration: the least noise that gives (ε, δ)-DP."))
    else:
        kit.metric(label, r.sigma, fmt_shown(r.sigma), where=col,
                   delta=t("{ratio}× the exact σ", ratio=fmt_sig(r.ratio, 3)),
                   delta_color="off", delta_arrow="off", border=True,
                   help=t("σ of this calibration and how it compares with the exact σ."))
        col.caption(page.extra_noise_caption(r))


def calibrations(kit: PageKit, s: Settings, sol: Solution) -> Settings:
    eps, delta, sens = sol.eps, sol.delta, sol.sensitivity
    st.markdown(t("For ε = {eps}, δ = {delta} and Δ = {sens}: the σ each calibration asks for. "
                  "All three protect, where they apply; the exact one adds the least noise.",
                  eps=fmt_shown(eps), delta=fmt_shown(delta), sens=fmt_shown(sens)))
    try:
        table = page.calibrations(eps, delta, sens)
    except ValueError as exc:
        kit.error(t("The calibrations cannot be compared here: {why}",
                    why=error_text(exc, SYMBOLS)))
        return s
    rows = {r.method: r for r in table.itertuples()}
    with kit.leading():
        kit.chart(dpviz.gaussian.calibration_figure(table), key="gauss_fig_cal",
                  name=t("Noise σ of the three calibrations"))
    for col, method in zip(st.columns(3), ("analytic", "tail", "classical")):
        calibration_metric(kit, col, rows[method])
    tail, classical = rows["tail"], rows["classical"]
    if np.isfinite(tail.sigma):
        finding, paragraph = page.tail_bound_texts(rows["analytic"].sigma, tail)
        kit.finding(finding)
        st.markdown(paragraph)
    else:
        st.markdown(t("**The tail bound has no solution here.** {why}",
                      why=plain(tail.note, SYMBOLS)))
    if np.isfinite(classical.sigma) and not classical.valid:
        note, warning = page.classical_texts(eps, classical)
        kit.note(note)
        st.warning(warning, icon=":material/warning:")
    shown = page.calibration_frame(table)
    # σ written as people write it (a NumberColumn's printf format would show 5.79e+05);
    # the CSV keeps the numbers.
    # The notes are sentences: under the table, not in a column that ran past its edge (the
    # CSV and the report keep the column; issue 36).
    on_screen = [c for c in shown.columns if c != "note"]
    kit.table(page.written(shown, shown.columns[1:2], fmt_shown), csv=shown,
              key="gauss_cal_table", name=t("The three calibrations"), hide_index=True,
              column_order=on_screen,
              column_config=headed(page.calibration_headers(), dict(zip(shown.columns[2:5], (
                  st.column_config.NumberColumn(format="%.4f"),
                  st.column_config.NumberColumn(format="%+.1f%%"),
                  st.column_config.NumberColumn(
                      format="%.3f", help=t("(σ / exact σ)²: how many times more data the same "
                                            "accuracy needs.")))))))
    notes = [f"**{name}**: {note}" for name, note in zip(shown[on_screen[0]], shown["note"])
             if note]
    if notes:
        st.caption("  \n".join(notes))
    with st.expander(t("The three calibrations' formulas"), expanded=False):
        calibration_formulas()
    return s


def calibration_formulas() -> None:
    st.latex(t(r"\begin{aligned}\text{tail bound:}\quad & \Phi\Big(\frac{\Delta}{2\sigma} - "
             r"\frac{\varepsilon\sigma}{\Delta}\Big) = \delta \\ \text{classical:}\quad & "
             r"\sigma = \frac{\Delta\sqrt{2\ln(1.25/\delta)}}{\varepsilon}\quad(\varepsilon < 1)"
             r" \\ \text{analytic:}\quad & \Phi\Big(\frac{\Delta}{2\sigma} - "
             r"\frac{\varepsilon\sigma}{\Delta}\Big) - e^{\varepsilon}\,\Phi\Big("
             r"-\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\Big) = \delta"
             r"\end{aligned}"))


# --- 2. The privacy-loss distribution --------------------------------------------------------


def privacy_loss(kit: PageKit, s: Settings, sol: Solution) -> Settings:
    setting = sol.setting
    loss = page.privacy_loss(setting)
    st.markdown(t(
        "For an output o of the mechanism on D, the **privacy loss** "
        r"$L = \ln \frac{p_D(o)}{p_{D'}(o)}$ says how much more likely o is with one person's "
        "data than without. For the Gaussian mechanism it is itself Gaussian. (ε, δ)-DP bounds "
        "it by ε except on a tail: how big may that tail be?"))
    left, right = st.columns([3, 2])
    with left:
        s = replace(s, loss_log=st.toggle(
            t("Log scale"), value=True, key="gauss_loss_log", bind="query-params",
            help=t("Draw the density on a log axis, where small tails are visible.")))
        if not loss.var > 0:  # μ² = (Δ/σ)² underflows: L is 0 to machine precision
            st.info(t("With μ = Δ/σ = {mu} the privacy loss is 0 to machine precision (its "
                      "variance μ² is below the smallest floating-point number): there is no "
                      "distribution to draw. The numbers are on the right.",
                      mu=fmt_param(setting.mu)), icon=":material/info:")
        else:
            loss_fig = dpviz.gaussian.privacy_loss_figure(
                loss.mean, loss.var, setting.eps, tail_delta=loss.tail, exact_delta=loss.exact,
                log_y=s.loss_log)
            if s.loss_log:
                loss_fig.update_yaxes(title_text=t("density (log scale)"))
            kit.chart(loss_fig, key="gauss_fig_loss", name=t("The privacy-loss distribution"))
            if s.loss_log:
                st.caption(t("On the log scale the shaded areas are not to scale (they fill "
                             "down to the axis): compare the two curves; the areas are the "
                             "numbers on the right."))
    with right:
        m1, m2 = st.columns(2)
        kit.metric(t("P(L > ε): tail bound"), loss.tail, fmt_sci(loss.tail), where=m1,
                   border=True,
                  help=t("The probability that the privacy loss exceeds ε: the whole shaded "
                         "tail."))
        kit.metric(t("Exact δ(ε)"), loss.exact, fmt_sci(loss.exact), where=m2, border=True,
                  help=t("E[(1 − e^(ε − L))₊]: the tail weighted by how far each output breaks "
                         "the ε bound. The smallest δ for which the mechanism is (ε, δ)-DP."))
        finding, paragraph = page.privacy_loss_texts(setting, loss)
        kit.finding(finding)
        st.markdown(paragraph)
        with st.expander(t("The privacy loss and the two δ's in formulas"), expanded=False):
            loss_formulas(loss)
    with st.expander(t("Where the privacy loss comes from")):
        st.markdown(t("Take neighbours D, D′ with f(D′) − f(D) = Δ (the worst case) and an "
                      "output o = f(D) + Z, Z ~ N(0, σ²). The two densities differ only in "
                      "their means, so"))
        st.latex(r"L = \ln\frac{e^{-(o - f(D))^2/2\sigma^2}}{e^{-(o - f(D'))^2/2\sigma^2}}"
                 r"= \frac{(Z - \Delta)^2 - Z^2}{2\sigma^2} = \frac{\Delta^2}{2\sigma^2} - "
                 r"\frac{\Delta Z}{\sigma^2}")
        st.markdown(t(
            r"a linear function of Z: Gaussian with mean $\Delta^2/2\sigma^2$ and variance "
            r"$\Delta^2/\sigma^2$. Hence $P(L > \varepsilon) = \Phi(\Delta/2\sigma - "
            r"\varepsilon\sigma/\Delta)$, the tail bound. Balle & Wang (2018, Theorem 8) show "
            r"the smallest δ is $\mathbb{E}[(1 - e^{\varepsilon - L})_+]$, which gives the "
            r"analytic formula; the classical $\sigma = \Delta\sqrt{2\ln(1.25/\delta)}/\varepsilon$"
            r" bounds the tail for ε < 1 only. Everything depends on σ and Δ only through "
            r"$\mu = \Delta/\sigma$."))
    return s


def loss_formulas(loss) -> None:
    """The privacy loss's distribution, P(L > ε) and the exact δ(ε), in LaTeX."""
    st.latex(r"L \sim N\Big(\frac{\Delta^2}{2\sigma^2},\ \frac{\Delta^2}{\sigma^2}\Big)"
             rf"= N({latex_number(loss.mean)},\ {latex_number(loss.var)})")
    st.latex(r"P(L > \varepsilon) = \Phi\Big(\frac{\Delta}{2\sigma} - "
             r"\frac{\varepsilon\sigma}{\Delta}\Big)")
    st.latex(r"\begin{aligned}\delta(\varepsilon) &= \mathbb{E}\big[(1 - "
             r"e^{\varepsilon - L})_+\big] \\ &= "
             r"\Phi\Big(\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\Big) - "
             r"e^{\varepsilon}\,\Phi\Big(-\frac{\Delta}{2\sigma} - "
             r"\frac{\varepsilon\sigma}{\Delta}\Big)\end{aligned}")


# --- 3. As μ-GDP -----------------------------------------------------------------------------


def as_gdp(kit: PageKit, s: Settings, sol: Solution) -> Settings:
    setting = sol.setting
    mu = setting.mu
    curve = page.privacy_curve(setting)
    st.markdown(t(
        "The Gaussian mechanism is exactly **μ-GDP with μ = Δ/σ = {mu}** (Dong, Roth & Su "
        "2022): one number that gives (ε, δ(ε))-DP for every ε at once. Its δ(ε) curve is the "
        "analytic calibration's: the markers, computed by the calibration, lie on it. The tail "
        "bound's δ lies above it everywhere.", mu=fmt_param(mu)))
    left, right = st.columns([3, 2])
    with left:
        # μ and δ in the legend as the metrics and sentences give them (issue 36: μ to 4
        # digits, not 6; δ as 1.0·10⁻⁵, not 1·10⁻⁵)
        gdp_fig = dpviz.fdp.delta_curve_figure(
            curve.eps_line, curve.delta_line, mu=float(f"{mu:.4g}"),
            point=(setting.eps, curve.exact,
                   f"ε = {fmt_shown(setting.eps)} → δ = {fmt_sci(curve.exact)}"),
            others=curve.others)
        for trace in gdp_fig.data:  # dpviz.fdp names its traces with :g (δ = 1e-05)
            trace.name = page.without_e_notation(trace.name or "") or None
        if gdp_fig.layout.yaxis.type == "log":
            gdp_fig.update_yaxes(title_text=t("δ(ε) (log scale)"))
        kit.chart(gdp_fig, key="gauss_fig_gdp", name=t("Privacy curve δ(ε) as Gaussian DP"))
        kit.finding(t("The mechanism is μ-GDP with μ = Δ/σ = {mu}: (ε, δ(ε))-DP for every ε at "
                      "once, with δ({eps}) = {delta}.", mu=fmt_param(mu),
                      eps=fmt_shown(setting.eps), delta=fmt_sci(curve.exact)))
    with right:
        kit.metric(t("μ = Δ/σ"), mu, fmt_param(mu), border=True,
                  help=t("The mechanism is μ-GDP: no test separates D from D′ better than "
                         "N(0, 1) from N(μ, 1)."))
        kit.metric(page.gdp_delta_label(setting), curve.exact, fmt_sci(curve.exact),
                   border=True, help=t("The exact δ: the μ-GDP curve read at the page's ε."))
        with st.expander(t("δ(ε) of μ-GDP in a formula"), expanded=False):
            st.latex(r"\begin{aligned}\delta(\varepsilon) &= \Phi\Big(-\frac{\varepsilon}{\mu} + "
                     r"\frac{\mu}{2}\Big) - e^{\varepsilon}\,\Phi\Big(-\frac{\varepsilon}{\mu}"
                     r" - \frac{\mu}{2}\Big) \\ \mu &= \Delta/\sigma\end{aligned}")
        link = links.to_fdp_gaussian(mu)
        linked = link.used["mu"]
        link.show(t("See G_μ with μ = {mu} on the f-DP page", mu=fmt_param(linked)),
                  help=t("Opens 'f-DP and Gaussian DP' on its trade-off curves, with this μ."))
        if mu > FdpParams.MU_MAX:
            st.caption(t("μ = {mu} is beyond that page's slider, which stops at {max}: the "
                         "link opens it at μ = {linked}.", mu=fmt_param(mu),
                         max=fmt_param(FdpParams.MU_MAX), linked=fmt_param(linked)))
        elif abs(linked - mu) > 1e-9:
            st.caption(t("That page's slider moves in steps of {step}: μ = {mu} is rounded to "
                         "{linked} there.", step=fmt_param(FdpParams.MU_STEP), mu=fmt_param(mu),
                         linked=fmt_param(linked)))
    return s


# --- 4. Releasing a statistic ----------------------------------------------------------------


def _use_query_sensitivity(value: float) -> None:
    """Button callback: the query's Δ goes into the Δ row; σ is solved again for it."""
    st.session_state[QUANTITIES["sensitivity"].key] = float(value)
    st.session_state[SOLVE_KEY] = "sigma"


def query_controls(r: Release, upload) -> Release:
    """The query, and what it needs: the age group, the clipping bound or the bins."""
    queries = ["count", "histogram"] if r.counts_upload else list(page.QUERY_LABELS)
    query = st.radio(t("Query"), queries, format_func=lambda k: t(page.QUERY_LABELS[k]),
                     key="gauss_query", bind="query-params", horizontal=True,
                     help=t(DATA_HELP["query"]))
    r = replace(r, query=query, ages=None)
    if query == "count" and not r.uploaded:
        return replace(r, ages=st.slider(
            t("Age group to count"), 0, TOP_AGE, (65, TOP_AGE), key="gauss_ages",
            bind="query-params", help=t("Count the people aged from … to … ({top} stands for "
                                        "{top} and over).", top=TOP_AGE)))
    if query == "count":
        st.caption(t("The count of people: the total of your counts.") if r.counts_upload
                   else t("The count of people: the number of values in the column."))
        return r
    if query == "sum":
        return replace(r, upper=st.number_input(
            t("Clipping bound U"), min_value=1e-6, max_value=1e9, value=float(TOP_AGE),
            step=1.0, key="gauss_upper", bind="query-params",
            help=t("Each value is clipped to [0, U] before summing, so one person moves the sum "
                   "by at most U: Δ = U. For ages the natural U is {top}, the top-coded last "
                   "age.", top=TOP_AGE)))
    if r.counts_upload:
        st.caption(t("The histogram: your {n} counts, one per row.", n=len(upload.table)))
    else:
        r = replace(r, width=st.radio(
            t("Age groups"), [5, 10], format_func=lambda w: t(sources.AGE_BINNINGS[w]),
            key="gauss_width", bind="query-params", horizontal=True,
            help=t("5-year (0–4 … 80–84, 85+) or 10-year (0–9 … 70–79, 80+) groups; uploaded "
                   "values are read as ages.")))
    return replace(r, neighbours=st.radio(
        t("Neighbouring data sets differ by"), list(page.NEIGHBOUR_LABELS),
        format_func=lambda k: t(page.NEIGHBOUR_LABELS[k]), key="gauss_neighbours",
        bind="query-params", help=t(DATA_HELP["neighbours"])))


def query_guarantee(kit: PageKit, r: Release, setting, method: str) -> None:
    """The guarantee for this query at the page's σ, and the button to use its Δ.

    The query's ε comes from the page's calibration (``method``), as the page's ε does:
    for a query of the page's Δ (as the page shows it) it is the page's ε itself, never a
    value recomputed another way. (The exact analytic ε of a tail-bound or classical σ is
    a different number, 0 for a tiny ε: "(0, δ)-DP" beside a page at ε > 0. It is said
    separately, named as the exact ε.)"""
    q_sens = gaussian.query_sensitivity(r.kind, upper=r.upper)
    same = page.same_as_shown(q_sens, setting.sensitivity)
    try:
        q_eps, exact = page.query_epsilon(setting, q_sens, method)
    except ValueError as exc:
        q_eps = None
        kit.error(t("No guarantee can be stated at this δ: {why}", why=error_text(exc, SYMBOLS)))
    if q_eps is not None:
        values = dict(delta=fmt_shown(setting.delta), eps=fmt_shown(q_eps),
                      sens=fmt_shown(q_sens), sigma=fmt_shown(setting.sigma))
        kit.metric(page.query_eps_label(setting), q_eps, values["eps"], border=True,
                  help=t("The smallest ε with (ε, δ)-DP for this query's sensitivity at the "
                         "page's σ and δ, by the page's calibration."))
        st.caption(t("Query sensitivity Δ = {sens}; noise σ = {sigma}: this release is ({eps}, "
                     "{delta})-DP.", **values))
        if exact is not None:
            st.caption(page.exact_query_caption(method, exact))
        kit.finding(page.guarantee_finding(r, setting.sigma, q_sens, q_eps, setting.delta))
    if not same:
        st.info(page.other_sensitivity_text(q_sens, setting), icon=":material/info:")
        st.button(t("Use this query's sensitivity above"), key="gauss_use_sens",
                  on_click=_use_query_sensitivity, args=(q_sens,),
                  icon=":material/arrow_upward:",
                  help=t("Sets Δ above to this query's sensitivity and solves for σ again, so "
                         "the release gets the page's (ε, δ)."))


def release_demo(kit: PageKit, s: Settings, sol: Solution) -> Settings:
    setting = sol.setting
    st.markdown(t("Release a statistic of real data with the page's σ. The noise does not "
                  "depend on the data, only on σ: a count of millions and a count of ten get "
                  "the same ± {sigma}.", sigma=fmt_shown(setting.sigma)))
    c1, c2, c3 = st.columns(3)
    with c1:
        source = st.selectbox(
            t("Data"), list(page.SOURCE_LABELS),
            index=list(page.SOURCE_LABELS).index(Release().source),
            format_func=page.source_label, key="gauss_source",
            bind="query-params",
            help=t("A built-in 2020 population by single year of age (0 … 84, 85+), from which "
                   "N people are drawn, or a column of your own CSV file."))
        r, upload = Release(source=source), None
        if source == UPLOAD:
            with st.container(border=True):
                upload, problem = sources.upload_control(key="gauss_file")
                if upload is not None:
                    r = replace(r, n=None, file_kind=upload.kind, column=sources.kept_choice(
                        st.selectbox, t("Column to release"), list(upload.table.columns),
                        upload_key="gauss_file", key="gauss_col",
                        help=t("Which column of your file holds the data.")))
        else:
            r = replace(r, n=controls.sample_size_slider(
                t("People N drawn from the population"), key="gauss_n", default=Release().n))
        r = replace(r, seed=controls.seed_control("gauss_seed"))
    if source == UPLOAD and upload is None:
        if problem:
            kit.error(problem)
        else:
            st.info(t("Upload a CSV file, or pick a built-in population."),
                    icon=":material/upload_file:")
        return s
    with c2:
        r = query_controls(r, upload)
    rng = np.random.default_rng(r.seed)  # the people drawn, then the noise
    try:
        data = page.release_data(r, upload.table if upload else None, rng)
    except page.Unreleasable as exc:
        kit.error(str(exc))
        return s
    r = replace(r, code_data=page.code_data(r, upload.table if upload else None))
    with c3:
        query_guarantee(kit, r, setting, s.method)
    if r.kind in ("count", "sum"):
        scalar_release(kit, r, data.true_value, setting.sigma, rng)
    else:
        histogram_release(kit, data.labels, data.counts, setting.sigma, rng)
    return replace(s, release=r)


def scalar_release(kit: PageKit, r: Release, true_value: float, sigma: float, rng) -> None:
    rel = page.scalar_release(true_value, sigma, rng)
    summary, sim = rel.summary, rel.simulated
    st.markdown(t("**Query:** {what}. True answer **{true}**.", what=page.query_words(r),
                  true=fmt_answer(true_value)))
    m = st.columns(4)
    kit.number(t("True answer"), true_value)
    kit.number(t("RMSE, simulated"), sim.rmse)
    kit.number(t("Share of simulated releases within"), sim.inside_share)
    kit.number(t("Share of simulated releases below 0"), sim.negative_share)
    kit.metric(t("One release"), rel.releases[0], fmt_answer(rel.releases[0]), where=m[0],
               border=True,
                help=t("The true answer plus one draw of N(0, σ²): what would be published."))
    kit.metric(t("RMSE (theory = σ)"), summary.rmse, fmt_shown(summary.rmse), where=m[1],
               border=True,
                delta=t("simulated {v}", v=fmt_param(sim.rmse)), delta_color="off",
                delta_arrow="off",
                help=t("Root mean squared error: σ, the noise is unbiased. Simulated: over "
                       "{n:,} releases.", n=page.N_RELEASES))
    kit.metric(t("95% of releases within"), summary.half_width,
               f"± {fmt_param(summary.half_width)}", where=m[2], border=True,
                delta=t("simulated {v:.1%}", v=sim.inside_share), delta_color="off",
                delta_arrow="off", help=t("1.96 σ either side of the true answer."))
    kit.metric(t("Chance of a negative release"), float(summary.p_negative),
               fmt_prob_pct(float(summary.p_negative)), where=m[3], border=True, delta=t("simulated {v}", v=fmt_prob_pct(sim.negative_share)),
                delta_color="off", delta_arrow="off",
                help=t("Φ(−true/σ): a count released below 0. Post-processing (rounding, "
                       "clipping at 0) costs no privacy but adds bias."))
    kit.chart(dpviz.gaussian.release_distribution_figure(rel.releases, true_value, sigma,
                                                         half_width=summary.half_width),
              key="gauss_fig_release", name=t("Simulated releases of the answer"))
    kit.finding(page.scalar_finding(page.query_words(r, name=str), true_value, rel))


def histogram_release(kit: PageKit, labels, counts, sigma: float, rng) -> None:
    released = gaussian.release(counts, sigma, rng=rng)
    summary = gaussian.release_summary(counts, sigma)
    st.markdown(t("**Query:** a histogram of {n} counts, {people:,.0f} people; N(0, σ²) noise "
                  "on every count.", n=len(labels), people=counts.sum()))
    m = st.columns(4)
    kit.metric(t("RMSE per bin (= σ)"), summary.rmse, fmt_shown(summary.rmse), where=m[0],
               border=True,
                help=t("Each count gets its own N(0, σ²) noise."))
    kit.metric(t("Expected negative bins"), summary.expected_negative,
               fmt_sig(summary.expected_negative, 3), where=m[1], border=True,
                help=t("Σ Φ(−count/σ) over the bins."))
    kit.metric(t("Largest P(negative) of a bin"), float(np.max(summary.p_negative)),
               fmt_prob_pct(float(np.max(summary.p_negative))), where=m[2], border=True,
                help=t("For the smallest count: Φ(−count/σ)."))
    negative = int(np.sum(released < 0))
    kit.metric(t("Negative bins in this release"), negative, f"{negative}", where=m[3],
               border=True,
                help=t("Bins of the release drawn here that fell below 0."))
    kit.chart(dpviz.gaussian.histogram_release_figure(labels, counts, released,
                                                      half_width=summary.half_width),
              key="gauss_fig_hist", name=t("The released histogram"))
    kit.finding(page.histogram_finding(labels, sigma, summary, released))
    st.caption(t("Bars: the release; whiskers ± {half}, where 95% of releases of each count "
                 "fall.", half=fmt_param(summary.half_width)))


# --- 5. The σ table --------------------------------------------------------------------------


def sigma_tables(kit: PageKit, s: Settings, sol: Solution) -> Settings:
    st.markdown(t("σ for common (ε, δ) at Δ = {sens}: the analytic (exact) σ; rows ε, columns "
                  "δ. The full table below has all three calibrations.",
                  sens=fmt_shown(sol.sensitivity)))
    table = page.sigma_table(float(sol.sensitivity))
    pivot = page.sigma_pivot(table)
    st.markdown(t("**Exact (analytic) σ**"))
    kit.table(page.written(pivot, pivot.columns, fmt_param), key="gauss_pivot",
              name=t("Noise table (σ): exact calibration"),
              csv=pivot.rename_axis("ε").reset_index())
    full = page.sigma_full(table)
    st.markdown(t("**All three calibrations**"))
    shown = page.written(page.written(full, ["δ"], fmt_sci), full.columns[2:5], fmt_param)
    kit.table(shown, csv=full, key="gauss_full_table",
              name=t("Noise table (σ): all three calibrations"), hide_index=True,
              column_config=headed(page.sigma_headers(), {
                  c: st.column_config.NumberColumn(format="%.3f") for c in full.columns[6:8]}))
    st.caption(t("The classical σ is not a guarantee for ε ≥ 1; the tail bound's σ always "
                 "protects but is larger than needed."))
    return s


# --- The page --------------------------------------------------------------------------------


def needs_setting(section):
    """A section that needs the complete set: without one, it says so instead."""
    def run(kit: PageKit, s: Settings, sol: Solution) -> Settings:
        if not sol.complete:
            st.info(t("This part needs a complete setting: see the message above."),
                    icon=":material/info:")
            return s
        return section(kit, s, sol)
    return run


# Only the open tab runs (the tab is bound to the URL, so it is tracked).
SECTIONS = dict(zip(page.TABS, (calibrations, needs_setting(privacy_loss), needs_setting(as_gdp),
                                needs_setting(release_demo), sigma_tables)))


def main() -> None:
    kit = page_header(t(page.TITLE))
    kit.try_this(registry.GAUSSIAN, list(page.EXPERIMENTS))
    st.markdown(t(
        "The Gaussian mechanism releases a query's answer plus normal noise, "
        r"$M(D) = f(D) + N(0, \sigma^2)$. How much noise gives (ε, δ)-differential privacy "
        "depends on the query's **L2 sensitivity** "
        r"$\Delta = \max \lVert f(D) - f(D') \rVert_2$ {in_source} over neighbouring data "
        "sets D, D′: how far one person can move the answer. Set three of ε, δ, σ and Δ and "
        "the page finds the fourth, then shows where the number comes from.",
        in_source=notation.in_source("Δ₂f", page.DR14)))
    with st.container(border=True):
        s, sol = read_controls()
    with st.container(border=True):
        results(kit, s, sol)
    tabs = st.tabs([t(label) for label in SECTIONS], key=page.TAB_KEY, bind="query-params")
    for (label, section), tab in zip(SECTIONS.items(), tabs):
        with tab:
            if tab.open is not False:
                s = section(kit, replace(s, tab=label), sol)
    kit.settings(s)
    if sol.complete and kit.code_problem is None:
        kit.code(page.code_builder(s, sol.setting))
    if sol.setting is not None and 0 < sol.setting.delta < 1:  # δ = 0: no ε at this δ
        oneperson.section(kit, page.one_person(sol.setting),
                          page.one_person_comparison(sol.setting), key="gauss_op")
    kit.end()


main()
