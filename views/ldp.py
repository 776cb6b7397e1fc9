"""Page: randomized response (k-RR), local differential privacy one user at a time.

Layout and widgets only: the settings, data, computations and sentences are
ui/pages/ldp.py's.
"""

from __future__ import annotations

from dataclasses import replace

import dpviz
import streamlit as st

from dpcore import ldp
from ui import controls, oneperson, registry, sources
from ui.format import fmt_big, fmt_count, fmt_param, fmt_prob, fmt_sig, headed
from ui.kit import PageKit, page_header
from ui.pages import ldp as page
from ui.progress import ProgressBar
from ui.tabs import run_open_tab, settings_or_stop, show_links
from ui.text import N_, error_text, t

P = page.PARAMS  # this page's URL keys and tab label that other pages' links set
FLIP = "ldp_flip"  # URL parameter and state: how often "Flip again" was pressed


# --- Controls ----------------------------------------------------------------------------------

def builtin_controls(source: str) -> dict:
    """The controls of a built-in data source: its settings (yes, shares or k)."""
    if source == "survey":
        return {"yes": st.slider(
            t("True share answering “yes” (%)"), 0, 100, page.DEFAULT_YES, key="ldp_yes",
            bind="query-params",
            help=t("The share of users who really exercised yesterday. Only the users know "
                   "their answer; the server sees randomised reports."))}
    if source == "abc":
        return {"shares": tuple(
            col.slider(t("Share of {c} (%)", c=c), 0, 100, d, key=f"ldp_share_{c.lower()}",
                       bind="query-params",
                       help=t("How common category {c} is among the users. The three shares "
                              "are divided by their sum, so they need not add up to 100.", c=c))
            for col, c, d in zip(st.columns(3), page.CATEGORIES, page.DEFAULT_SHARES))}
    return {"k": st.slider(
        t("Age groups k"), 2, page.K_MAX, page.DEFAULT_K, key=P.K, bind="query-params",
        help=t("The single years of age 0 … 84 and 85+ cut into k groups of (nearly) equal "
               "width: k = 86 is one group per year."))}


def read_controls() -> tuple[page.Settings | None, str | None, bool]:
    """All controls above the tabs; returns (settings, problem, waiting for a file)."""
    # The data source on a row of its own: in a third of the row its label was cut
    # ("Survey: “Did you exercise yester", issue 36).
    source = st.selectbox(
        t("Data: the users' true answers"), list(page.SOURCES),
        format_func=page.source_label, key=P.SOURCE, bind="query-params",
        help=t("A yes/no survey question (k = 2), three categories (k = 3), the ages of a "
               "2020 population grouped into k groups, or your own CSV file."))
    c1, c2, c3 = st.columns(3, gap="large")
    with c3:
        seed = controls.seed_control("ldp_seed")
    with c2:
        eps = float(controls.log_slider(
            t("Privacy level ε"), page.EPS_GRID, default=page.DEFAULT_EPS, key=P.EPS,
            help=t("Each user's privacy: a report is at most e^ε times more likely under one "
                   "true answer than under another. Smaller ε, more lies, more privacy. Log "
                   "scale, 0.01 to 10.")))
    with c1:
        if source == page.UPLOAD:
            with st.container(border=True):
                upload, problem = sources.category_upload(
                    "ldp", max_categories=page.MAX_CATEGORIES, words=page.UPLOAD_WORDS)
            if upload is None:
                return None, (problem or t("Upload a CSV file, or pick a built-in data "
                                           "source.")), problem is None
            data = page.file_data(upload, seed)
            with c2:
                st.caption(t("Users N = {n}, as in your file.", n=data.users))
            return page.Settings(data, source=source, eps=eps, seed=seed), None, False
        chosen = builtin_controls(source)
        try:
            labels, probs, what = page.builtin_probabilities(source, **chosen)
        except ValueError as exc:  # shares that are all 0
            return None, t("These shares cannot be used: {why}",
                           why=error_text(exc, page.SYMBOLS)), False
        if source == "abc":
            st.caption(page.shares_used(probs))
    with c2:
        n = controls.sample_size_slider(t("Users N"), key="ldp_n", default=page.DEFAULT_N)
    data = page.sampled_data(labels, probs, n, seed, what)
    return page.Settings(data, source=source, n=n, eps=eps, seed=seed, **chosen), None, False


def guarantee(kit: PageKit, s: page.Settings) -> None:
    """p, q and the ε-LDP guarantee, as metrics and in one sentence."""
    p, q = s.pq
    with kit.leading():  # presenting: first under the title, with the open tab's chart
        cols = st.columns(5)
    kit.metric(t("Categories k"), s.data.k, f"{s.data.k}", where=cols[0], border=True,
                   help=t("How many possible answers each user has."))
    kit.metric(t("Users N"), float(s.data.counts.sum()), s.data.users, where=cols[1],
               border=True, help=t("How many users report."), given=s.data.sampled)
    kit.metric(t("p: tell the truth"), p, fmt_prob(p), where=cols[2], border=True,
                   help=t("p = e^ε/(e^ε + k − 1): the probability that a user reports the "
                          "true answer."))
    kit.metric(t("q: tell a given lie"), q, fmt_prob(q), where=cols[3], border=True,
                   help=t("q = (1 − p)/(k − 1) = 1/(e^ε + k − 1): the probability of "
                          "reporting one given other answer."))
    kit.metric(t("p/q = e^ε"), p / q, fmt_param(p / q), where=cols[4], border=True,
                   help=t("The largest ratio of the probabilities of one report under two "
                          "true answers: the ε-LDP guarantee."))
    kit.settings(s)
    kit.finding(page.guarantee_finding(s))
    st.markdown(page.in_plain_words(s))


# --- 1. One user at a time -----------------------------------------------------------------------

def flips() -> int:
    """How often "Flip again" was pressed: kept in the URL, so a link shows the same coins.

    A URL value that is not a whole number ≥ 0 is dropped and 0 is used; the page kit
    then names it among the link's settings that could not be used.
    """
    text = st.query_params.get(FLIP)
    if text is not None:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if value >= 0:
            st.session_state[FLIP] = value
            return value
        st.query_params.pop(FLIP)
        st.session_state[FLIP] = 0
        return 0
    value = int(st.session_state.get(FLIP, 0))
    if value:  # back from another page: the URL shows it again
        st.query_params[FLIP] = str(value)
    return value


def _flip_again() -> None:
    value = flips() + 1
    st.session_state[FLIP] = value
    st.query_params[FLIP] = str(value)


def flip_control(s: page.Settings) -> page.Settings:
    st.button(t("Flip again"), key="ldp_flip_btn", on_click=_flip_again,
              icon=":material/casino:",
              help=t("The same users flip their coins again: new coins, new reports. The link "
                     "to this view counts the flips, so it shows the same coins."))
    return replace(s, flips=flips())


def one_user(kit: PageKit, s: page.Settings) -> None:
    st.markdown(page.demo_intro(s))
    s = flip_control(s)
    table = page.demo_table(s)
    kit.table(table, key="ldp_demo_table", name=t("One user at a time"), hide_index=True,
              height=35 * (len(table) + 1) + 3, column_config=headed(
                  {"user": t("user"), "true answer": t("true answer"), "coin u": t("coin u"),
                   "u < p: tells the truth": t("u < p: tells the truth"),
                   "reported answer": t("reported answer")},
                  {"coin u": st.column_config.NumberColumn(format="%.3f")}))
    told = int(table["u < p: tells the truth"].sum())
    kit.number(t("Users who told the truth"), told)
    p, _ = s.pq
    st.caption(page.demo_caption(told, len(table), p))
    kit.settings(s)
    kit.code(page.code_builder(s))
    kit.finding(page.demo_finding(told, len(table), p))


# --- 2. The aggregate ------------------------------------------------------------------------

def estimator_control(s: page.Settings) -> page.Settings:
    method = st.radio(
        t("Estimator"), list(ldp.ESTIMATORS), format_func=lambda m: t(page.ESTIMATOR_LABELS[m]),
        horizontal=True, key="ldp_method", bind="query-params", help=page.estimator_help())
    return replace(s, method=method)


def aggregate(kit: PageKit, s: page.Settings) -> None:
    s = estimator_control(s)
    a = page.aggregate(s)
    m = st.columns(3)
    kit.metric(t("Total absolute error of the estimate"), a.error, fmt_count(a.error),
               where=m[0], border=True,
                help=t("Σ_v |n̂_v − n_v| over the categories, for the estimator chosen."))
    kit.metric(t("… of the reported counts as they are"), a.error_reported,
               fmt_count(a.error_reported), where=m[1], border=True,
                help=t("Σ_v |N_v − n_v|: the reports are pulled towards the uniform "
                       "distribution; the estimators undo that."))
    kit.metric(t("Negative estimates"), a.negatives, f"{a.negatives}", where=m[2], border=True,
                help=t("Categories estimated below 0: only the unbiased estimator does that."))
    errors = page.category_errors(tuple(s.data.counts), s.eps, s.seed)
    with kit.leading():
        kit.chart(dpviz.ldp.krr_counts_figure(
            s.data.labels, s.data.counts, a.reported, a.estimate, a.lower, a.upper,
            estimator_name=t(page.ESTIMATOR_LABELS[s.method]),
            whisker_name=page.whisker_name(s), whisker_notes=page.whisker_notes(s, errors)),
            key="ldp_fig_counts", name=t("True, reported and estimated counts"))
    kit.settings(s)
    kit.code(page.code_builder(s))
    kit.finding(page.aggregate_finding(s, a))
    st.caption(page.whisker_caption(s, errors))
    kit.note(page.whisker_caption(s, errors, md=False))
    whole, decimals = (st.column_config.NumberColumn(format=f) for f in ("%.0f", "%.2f"))
    kit.table(page.counts_table(s, a), key="ldp_counts_table", name=t("Counts per category"),
              hide_index=True, column_config=headed(
                  {"category": t("category"), "true n_v": t("true n_v"),
                   "reported N_v": t("reported N_v"), "estimate n̂_v": t("estimate n̂_v")},
                  {"true n_v": whole, "reported N_v": whole, "estimate n̂_v": decimals,
                   "± 2 SE": decimals}))
    st.markdown(t("A category's reported count mixes its own truthful users with lies from "
                  "everyone else; the expected mix is known, so the server can undo it."))
    with st.expander(t("The unbiased estimate and its variance as formulas"), expanded=False):
        st.latex(r"\mathbb{E}[N_v] = p\,n_v + q\,(N - n_v)\quad\Longrightarrow\quad "
                 r"\hat n_v = \frac{N_v - Nq}{p - q},\qquad "
                 r"\operatorname{Var}(\hat n_v) = \frac{N q(1-q)}{(p-q)^2} + "
                 r"\frac{n_v(1-p-q)}{p-q}")
    st.caption(page.pq_caption(s))


# --- 3. Error versus privacy ------------------------------------------------------------------

def reps_control(kit: PageKit, s: page.Settings) -> page.Settings:
    k = s.data.k
    grid = page.reps_grid(k)
    most = f"{grid[-1]:,}"
    reps = controls.log_slider(
        t("Replicates R per ε"), grid, default=min(page.DEFAULT_REPS, grid[-1]), key="ldp_reps",
        help=t("How many reported histograms are simulated at each ε. More replicates, "
               "smaller Monte Carlo error (the bars: ± 2 SE). At most {most} here.", most=most))
    if grid[-1] < page.REPS_GRID[-1]:
        st.caption(t("With k = {k} categories R stops at {most}, which keeps a run around a "
                     "second.", k=k, most=most))
        kit.note(t("With k = {k} categories the replicates R stop at {most}.", k=k, most=most))
    return replace(s, reps=int(reps))


def mse_section(kit: PageKit, s: page.Settings) -> None:
    st.markdown(t(
        "How far off are the estimates, on average, at each ε? For the true counts above, "
        "R reported histograms are drawn at every ε of the slider, each estimator applied, "
        "and the squared errors averaged over replicates and categories. The dashed line is "
        "the unbiased estimator's exact MSE."))
    s = reps_control(kit, s)
    kit.settings(s)
    steps = len(page.EPS_GRID)
    table = page.mse_table(tuple(s.data.counts), s.reps, s.seed, _progress=ProgressBar(
        t("Simulating…"),
        lambda f: t("Simulating… ε {done} of {steps}", done=round(f * steps), steps=steps)))
    names = {m: t(label) for m, label in page.ESTIMATOR_LABELS.items()}
    with kit.leading():
        kit.chart(dpviz.ldp.krr_mse_figure(table, current_eps=s.eps, names=names),
                  key="ldp_fig_mse", name=t("Error against privacy"))
    here = page.mse_at(table, s.eps)
    st.markdown(t("**MSE per category at ε = {eps}**", eps=f"{s.eps:g}"))
    cols = st.columns(len(here) + 1)
    for col, (method, row) in zip(cols, here.iterrows()):
        kit.metric(names[method], float(row["mse"]), fmt_big(row["mse"]), where=col,
                   border=True,
                   help=t("Mean squared error per category over {reps} replicates, ± {se} "
                          "(one standard error).", reps=f"{s.reps:,}", se=fmt_sig(row["se"], 2)))
    kit.metric(t("theory (unbiased)"), float(here.loc["unbiased", "theory"]),
               fmt_big(here.loc["unbiased", "theory"]), where=cols[-1], border=True,
                    help=t("The unbiased estimator's mean variance over the categories."))
    kit.finding(page.mse_finding(s, here))
    kit.code(page.code_builder(s))
    with st.expander(t("The unbiased estimator's exact MSE as a formula"), expanded=False):
        st.latex(t(r"\mathrm{MSE}_{\text{unbiased}} = \frac1k\sum_v \operatorname{Var}(\hat n_v) = "
                 r"\frac{N q(1-q)}{(p-q)^2} + \frac{N}{k}\,\frac{1-p-q}{p-q}"))
    st.markdown(t(
        "At small ε the unbiased estimator's error grows like 1/ε²; at large ε nearly everyone "
        "tells the truth and the estimators nearly agree."))
    errors = page.category_errors(tuple(s.data.counts), s.eps, s.seed)
    st.markdown(page.per_category_intro(s))
    st.markdown(page.per_category_list(s, errors))
    kit.note(page.per_category_note(s, errors))
    with st.expander(t("All simulated numbers")):
        kit.table(page.mse_shown(table), key="ldp_mse_table",
                  name=t("Simulated error against privacy"), hide_index=True,
                  column_config=headed({"method": t("method"), "exact MSE": t("exact MSE")}))


# --- 4. The guarantee --------------------------------------------------------------------------

def guarantee_section(kit: PageKit, s: page.Settings) -> None:
    st.markdown(t(
        "For any two true answers v and w and any report y, the probability of y changes "
        "by at most the factor p/q: the worst case is y = v, reported truthfully under v "
        "and as a lie under w. That is ε-local differential privacy, for every user, "
        "whatever the others answer."))
    st.latex(r"p = \frac{e^\varepsilon}{e^\varepsilon + k - 1},\quad "
             r"q = \frac{1 - p}{k - 1} = \frac{1}{e^\varepsilon + k - 1},\qquad "
             r"\max_{v, w, y}\frac{P(y \mid v)}{P(y \mid w)} = \frac{p}{q} = e^\varepsilon")
    st.caption(page.guarantee_caption(s))
    st.markdown(page.substitution_text(s))
    with st.expander(t("The γ-diagonal matrix as a formula"), expanded=False):
        st.latex(r"P = \frac{1}{\gamma + k - 1}\begin{pmatrix}\gamma & 1 & \cdots & 1 \\ "
                 r"1 & \gamma & \cdots & 1 \\ \vdots & & \ddots & \vdots \\ "
                 r"1 & 1 & \cdots & \gamma\end{pmatrix},\qquad \gamma = e^\varepsilon")
    kit.finding(page.guarantee_tab_finding(s))
    kit.code(page.code_builder(s))
    helps = (t("Opens 'Random substitution' on its privacy tab: the γ-diagonal matrix above, "
               "and its l-extension, where every record releases l distinct values."),
             t("Opens 'f-DP and Gaussian DP' on its trade-off curves with k-RR at this ε and "
               "k: how well the best attacker can tell any two true answers apart from one "
               "report."))
    show_links((page.substitution_link(s), page.fdp_link(s)), helps)


# ------------------------------------------------------------------------------------------

INTRO = N_("In **local** differential privacy no one is trusted with the raw data: each user "
           "randomises their own answer before sending it. **k-ary randomized response "
           "(k-RR)** (Kairouz, Bonawitz & Ramage 2016): with probability p a user reports the "
           "true answer, otherwise one of the other k − 1 answers uniformly at random. No "
           "single report can be trusted, yet the server can estimate how many users gave each "
           "answer, because it knows how the lies are made.")
SECTIONS = dict(zip(page.TABS, (one_user, aggregate, mse_section, guarantee_section)))


def main() -> None:
    kit = page_header(t(page.TITLE))
    kit.try_this(registry.LDP, list(page.EXPERIMENTS))
    st.markdown(t(INTRO))
    with st.expander(t("k-RR as a formula"), expanded=False):
        st.latex(t(r"P(\text{report } y \mid \text{true } v) = \begin{cases} p = "
                 r"\dfrac{e^\varepsilon}{e^\varepsilon + k - 1} & y = v \\[1ex] q = "
                 r"\dfrac{1 - p}{k - 1} & y \ne v \end{cases}\qquad \frac{p}{q} = e^\varepsilon,"
                 r"\qquad \hat n_v = \frac{N_v - Nq}{p - q}"))
    settings = settings_or_stop(kit, read_controls)
    with st.container(border=True):
        guarantee(kit, settings)
    run_open_tab(kit, settings, SECTIONS, key=P.TAB)  # only the open tab runs
    oneperson.section(kit, oneperson.pure_eps(settings.eps, t(
        "k-RR is ε-LDP: a report is at most e^ε times more likely under one true answer than "
        "under another. Read “in the data” below as “gave this answer rather than that one”.")),
        oneperson.eps_comparison(), key="ldp_op")
    kit.end()


main()
