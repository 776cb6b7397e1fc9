"""Page: randomized response (k-RR), local differential privacy one user at a time."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import dpviz
import pandas as pd
import streamlit as st

from ui import controls, links, sources
from ui import format as fmt
from ui import text
from ui.kit import page_header
from dpcore import datasets, ldp

TITLE = "Randomized response (local DP)"

# ε on a log scale. Every value is also on the f-DP page's k-RR slider (its KRR_EPS_GRID),
# so the link to that page carries ε as it is.
EPS_GRID = links.LdpParams.EPS_GRID
DEFAULT_EPS = 1.0
# The f-DP page's k-RR controls and the random substitution page's γ, which links carry.
FDP_KRR_EPS_GRID = links.FdpParams.KRR_EPS_GRID
FDP_K_MAX = links.FdpParams.K_MAX
RS_GAMMA_GRID = links.SubstitutionParams.GAMMA_GRID
REPS_GRID = (50, 100, 200, 500, 1000, 2000)
DEFAULT_REPS = 200
MAX_CELLS = 400_000  # replicates × categories of one MSE run: about a second at most
DEMO_USERS = 20
MAX_CATEGORIES = 1000
K_MAX = 86  # age groups: single years 0 … 84 and 85+

UPLOAD = sources.UPLOAD
SOURCES = {
    "survey": "Survey: “Did you exercise yesterday?” (yes/no, k = 2)",
    "abc": "Three categories A, B, C (k = 3)",
    **links.POPULATION_AGE_LABELS,
    UPLOAD: "Uploaded CSV file",
}
ESTIMATOR_LABELS = {"unbiased": "unbiased", "clip": "clip and renormalise",
                    "simplex": "project onto the simplex", "ibu": "IBU (maximum likelihood)"}
TABS = ("One user at a time", "The aggregate", "Error versus privacy", "The guarantee")


def plain(message: str) -> str:
    """dpcore's messages in plain words: no code quotes, ε for eps."""
    return text.plain(message, {"eps": "ε"})


def fmt_prob(v: float) -> str:
    return f"{v:.4g}"


def fmt_ratio(v: float) -> str:
    return f"{v:,.0f}" if v >= 1e4 else f"{v:.4g}"


fmt_big = fmt.fmt_big  # 4 significant digits; 10⁴ and above as 7.85·10⁷ (fits a metric)


def fmt_count(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 1e4 else f"{v:,.1f}"


@dataclass(frozen=True)
class Data:
    """The users' true answers: counts per category, and a few users for the demo."""

    labels: list[str]
    counts: np.ndarray  # true counts n_v (whole numbers, as floats)
    demo: np.ndarray  # category indices of the users in the demo table
    what: str  # the data in words
    sampled: bool


# --- Reading an upload ------------------------------------------------------------------------

def upload_data(seed: int) -> tuple[Data | None, str | None]:
    """The upload controls; the data, or why there is none (None for 'no file yet')."""
    upload, problem = sources.category_upload("ldp", max_categories=MAX_CATEGORIES)
    if upload is None:
        return None, problem
    if upload.first is not None:  # the file's first users
        demo = upload.first[:DEMO_USERS]
    else:
        demo = np.random.default_rng([seed, 4]).choice(len(upload.labels), size=DEMO_USERS,
                                                       p=datasets.proportions(upload.counts))
    return Data(upload.labels, upload.counts, demo, upload.what, False), None


# --- Controls ----------------------------------------------------------------------------------

def builtin_probabilities(source: str) -> tuple[list[str], np.ndarray, str]:
    """The data source's controls; its labels, probabilities and description."""
    if source == "survey":
        yes = st.slider("True share answering “yes” (%)", 0, 100, 30, key="ldp_yes",
                        bind="query-params",
                        help="The share of users who really exercised yesterday. Only the "
                        "users know their answer; the server sees randomised reports.")
        return (["yes", "no"], datasets.proportions([yes, 100 - yes]),
                f"a yes/no survey with {yes}% true “yes”")
    if source == "abc":
        cols = st.columns(3)
        shares = [col.slider(f"Share of {c} (%)", 0, 100, d, key=f"ldp_share_{c.lower()}",
                             bind="query-params",
                             help=f"How common category {c} is among the users. The three "
                             "shares are divided by their sum, so they need not add up to 100.")
                  for col, c, d in zip(cols, "ABC", (50, 30, 20))]
        probs = datasets.proportions(shares)  # raises when all are 0
        st.caption("Shares used: " + ", ".join(f"{c} {p:.0%}" for c, p in zip("ABC", probs))
                   + " (a skewed default: 50/30/20%).")
        return ["A", "B", "C"], probs, "three categories A, B, C"
    k = st.slider("Age groups k", 2, K_MAX, 10, key="ldp_k", bind="query-params",
                  help="The single years of age 0 … 84 and 85+ cut into k groups of (nearly) "
                  "equal width: k = 86 is one group per year.")
    groups = datasets.age_groups(source, k)
    return (list(groups.index), datasets.proportions(groups.to_numpy()),
            f"ages of {datasets.POPULATIONS[source]} (2020) in {k} groups")


def read_controls() -> tuple[Data | None, float, str | None, bool]:
    """All controls; returns (data, ε, problem, waiting)."""
    c1, c2, c3 = st.columns(3, gap="large")
    with c3:
        seed = controls.seed_control("ldp_seed")
    with c2:
        eps = controls.log_slider(
            "Privacy level ε", EPS_GRID, default=DEFAULT_EPS, key="ldp_eps",
            help="Each user's privacy: a report is at most e^ε times more likely under one "
            "true answer than under another. Smaller ε, more lies, more privacy. Log scale, "
            "0.01 to 10.")
    with c1:
        source = st.selectbox(
            "Data: the users' true answers", list(SOURCES), format_func=SOURCES.get,
            key="ldp_source", bind="query-params",
            help="A yes/no survey question (k = 2), three categories (k = 3), the ages of a "
            "2020 population grouped into k groups, or your own CSV file.")
        if source == UPLOAD:
            with st.container(border=True):
                data, problem = upload_data(seed)
            if data is None:
                return None, eps, (problem or "Upload a CSV file, or pick a built-in data "
                                   "source."), problem is None
            with c2:
                st.caption(f"Users N = {data.counts.sum():,.0f}, as in your file.")
            return data, float(eps), None, False
        try:
            labels, probs, what = builtin_probabilities(source)
        except ValueError as exc:
            return None, eps, f"These shares cannot be used: {plain(str(exc))}", False
    with c2:
        n = controls.sample_size_slider("Users N", key="ldp_n", default=10_000)
    counts = datasets.draw_histogram(probs, n, rng=[seed, 0]).astype(float)
    demo = np.random.default_rng([seed, 4]).choice(len(labels), size=DEMO_USERS, p=probs)
    return Data(labels, counts, demo, f"{n:,} users drawn from {what}", True), float(eps), \
        None, False


def guarantee(data: Data, eps: float) -> None:
    """p, q and the ε-LDP guarantee, as metrics and in one sentence."""
    k = len(data.labels)
    p, q = ldp.krr_probabilities(eps, k)
    cols = st.columns(5)
    cols[0].metric("Categories k", f"{k}", border=True,
                   help="How many possible answers each user has.")
    cols[1].metric("Users N", f"{data.counts.sum():,.0f}", border=True,
                   help="How many users report.")
    cols[2].metric("p: tell the truth", fmt_prob(p), border=True,
                   help="p = e^ε/(e^ε + k − 1): the probability that a user reports the true "
                   "answer.")
    cols[3].metric("q: tell a given lie", fmt_prob(q), border=True,
                   help="q = (1 − p)/(k − 1) = 1/(e^ε + k − 1): the probability of reporting one "
                   "given other answer.")
    cols[4].metric("p/q = e^ε", fmt_ratio(p / q), border=True,
                   help="The largest ratio of the probabilities of one report under two true "
                   "answers: the ε-LDP guarantee.")
    others = "the other answer" if k == 2 else f"one of the other k − 1 = {k - 1} answers"
    kit.settings({"data": data.what, "categories k": k,
                      "users N": f"{data.counts.sum():,.0f}", "privacy ε": f"{eps:g}",
                      "p (truth)": fmt_prob(p), "q (a given lie)": fmt_prob(q)})
    kit.finding(
        f"Each user tells the truth with probability {p:.2%}; any report is at most "
        f"{fmt_ratio(p / q)} times more likely under one true answer than under another: "
        f"{eps:g}-local differential privacy.")
    st.markdown(
        f"**In plain words.** Data: {data.what}. Each user tells the truth with probability "
        f"p = {p:.2%} and otherwise reports {others} at random (each with probability "
        f"q = {fmt_prob(q)}). Whatever a user's true answer, any report is at most "
        f"p/q = $e^{{{eps:g}}}$ = {fmt_ratio(p / q)} times more likely under it than under another "
        f"answer: **{eps:g}-local differential privacy**. The server never sees a true answer, "
        "so it needs no trust."
    )


# --- 1. One user at a time -----------------------------------------------------------------------

FLIP = "ldp_flip"  # URL parameter and state: how often "Flip again" was pressed


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


def one_user(data: Data, eps: float, seed: int) -> None:
    k = len(data.labels)
    p, _ = ldp.krr_probabilities(eps, k)
    st.markdown(
        f"Each user flips a biased coin: a uniform number u between 0 and 1. If u < p = "
        f"{fmt_prob(p)} the user reports the true answer; otherwise "
        + ("the other answer" if k == 2 else f"one of the other {k - 1} answers, each equally "
           "likely") + f". Here are {len(data.demo)} users"
        + (" of your file (its first rows)." if not data.sampled else " drawn from the data.")
    )
    st.button("Flip again", key="ldp_flip_btn", on_click=_flip_again, icon=":material/casino:",
              help="The same users flip their coins again: new coins, new reports. The link "
              "to this view counts the flips, so it shows the same coins.")
    flipped = flips()
    table = ldp.krr_demo_table(data.demo, eps, k, labels=data.labels, rng=[seed, 3, flipped])
    shown = table.rename(columns={"user": "user", "true": "true answer", "coin": "coin u",
                                  "told_truth": "u < p: tells the truth",
                                  "reported": "reported answer"})
    kit.table(shown, key="ldp_demo_table", name="One user at a time", hide_index=True,
                  height=35 * (len(shown) + 1) + 3,
                  column_config={"coin u": st.column_config.NumberColumn(format="%.3f")})
    told = int(table["told_truth"].sum())
    st.caption(f"{told} of {len(table)} users told the truth (expected {len(table) * p:.1f}). "
               "A reported answer alone says little about a user: it may well be a lie.")
    kit.settings({"coin flips of the demo": flipped})
    kit.finding(
        f"In the demo, {told} of {len(table)} users told the truth (expected "
        f"{len(table) * p:.1f} at p = {p:.2%}): a single report may well be a lie, so it says "
        "little about its user.")


# --- 2. The aggregate ------------------------------------------------------------------------

def aggregate(data: Data, eps: float, seed: int) -> None:
    k = len(data.labels)
    p, q = ldp.krr_probabilities(eps, k)
    method = st.radio(
        "Estimator", list(ldp.ESTIMATORS), format_func=ESTIMATOR_LABELS.get, horizontal=True,
        key="ldp_method", bind="query-params",
        help="How the server turns reported counts into estimated true counts: "
        + "; ".join(f"{ESTIMATOR_LABELS[m]}: {d}" for m, d in ldp.ESTIMATORS.items())
        + ". The last three never go below 0 and add up to N.")
    reported = ldp.krr_perturb_counts(data.counts, eps, rng=[seed, 1])
    estimate = ldp.krr_estimate(reported, eps, method=method)
    lower, upper = ldp.krr_interval(estimate, data.counts, eps)
    two_se = (upper - lower) / 2
    if method != "unbiased":  # these estimators never go below 0: neither do their whiskers
        lower = np.maximum(lower, 0.0)
    err_est = float(np.abs(estimate - data.counts).sum())
    err_rep = float(np.abs(reported - data.counts).sum())
    m = st.columns(3)
    m[0].metric("Total absolute error of the estimate", fmt_count(err_est), border=True,
                help="Σ_v |n̂_v − n_v| over the categories, for the estimator chosen.")
    m[1].metric("… of the reported counts as they are", fmt_count(err_rep), border=True,
                help="Σ_v |N_v − n_v|: the reports are pulled towards the uniform "
                "distribution; the estimators undo that.")
    m[2].metric("Negative estimates", f"{int(np.sum(estimate < 0))}", border=True,
                help="Categories estimated below 0: only the unbiased estimator does that.")
    kit.chart(dpviz.ldp.krr_counts_figure(
        data.labels, data.counts, reported, estimate, lower, upper,
        estimator_name=ESTIMATOR_LABELS[method]), key="ldp_fig_counts",
        name="True, reported and estimated counts")
    kit.settings({"estimator": ESTIMATOR_LABELS[method]})
    kit.finding(
        f"From the reports, the {ESTIMATOR_LABELS[method]} estimate is off by "
        f"{fmt_count(err_est)} people in total over the {k} answers, against "
        f"{fmt_count(err_rep)} for the reported counts taken as they are.")
    st.caption("Whiskers: ± 2 standard errors of the unbiased estimator, from its exact "
               "variance at the true counts (about 95% of estimates fall within them). For "
               "the other estimators they are a guide, cut at 0: their errors are smaller, and "
               "not symmetric, near 0.")
    kit.note("Whiskers and ± 2 SE: from the unbiased estimator's exact variance at "
                        "the true counts; for the other estimators only a guide, cut at 0.")
    table = pd.DataFrame({"category": data.labels, "true n_v": data.counts,
                          "reported N_v": reported, "estimate n̂_v": estimate,
                          "± 2 SE": two_se})
    kit.table(table, key="ldp_counts_table", name="Counts per category", hide_index=True,
                  column_config={
        "true n_v": st.column_config.NumberColumn(format="%.0f"),
        "reported N_v": st.column_config.NumberColumn(format="%.0f"),
        "estimate n̂_v": st.column_config.NumberColumn(format="%.2f"),
        "± 2 SE": st.column_config.NumberColumn(format="%.2f")})
    st.markdown(
        "A category's reported count mixes its own truthful users with lies from everyone "
        "else; the expected mix is known, so the server can undo it:")
    st.latex(r"\mathbb{E}[N_v] = p\,n_v + q\,(N - n_v)\quad\Longrightarrow\quad "
             r"\hat n_v = \frac{N_v - Nq}{p - q},\qquad "
             r"\operatorname{Var}(\hat n_v) = \frac{N q(1-q)}{(p-q)^2} + "
             r"\frac{n_v(1-p-q)}{p-q}")
    st.caption(f"Here p = {fmt_prob(p)}, q = {fmt_prob(q)}, p − q = {fmt_prob(p - q)}: every "
               "reported count is divided by p − q, which is small when ε is small or k large.")


# --- 3. Error versus privacy ------------------------------------------------------------------

def mse_section(data: Data, eps: float, seed: int) -> None:
    k = len(data.labels)
    st.markdown(
        "How far off are the estimates, on average, at each ε? For the true counts above, "
        "R reported histograms are drawn at every ε of the slider, each estimator applied, "
        "and the squared errors averaged over replicates and categories. The dashed line is "
        "the unbiased estimator's exact MSE."
    )
    max_reps = max(REPS_GRID[0], MAX_CELLS // k)
    grid = tuple(r for r in REPS_GRID if r <= max_reps)
    reps = controls.log_slider(
        "Replicates R per ε", grid, default=min(DEFAULT_REPS, grid[-1]), key="ldp_reps",
        help=f"How many reported histograms are simulated at each ε. More replicates, "
        f"smaller Monte Carlo error (the bars: ± 2 SE). At most {grid[-1]:,} here.")
    if grid[-1] < REPS_GRID[-1]:
        st.caption(f"With k = {k} categories R stops at {grid[-1]:,}, which keeps a run "
                   "around a second.")
        kit.note(f"With k = {k} categories the replicates R stop at {grid[-1]:,}.")
    kit.settings({"replicates R per ε": f"{reps:,}"})
    run_key = (tuple(data.counts), int(reps), int(seed))
    last = st.session_state.get("ldp_mse_last")
    if last is None or last["key"] != run_key:
        bar = st.progress(0.0, text="Simulating…")
        table = ldp.krr_mse(
            data.counts, EPS_GRID, reps=int(reps), rng=[seed, 2],
            progress=lambda f, _: bar.progress(
                f, text=f"Simulating… ε {round(f * len(EPS_GRID))} of {len(EPS_GRID)}"))
        bar.empty()
        last = {"key": run_key, "table": table}
        st.session_state["ldp_mse_last"] = last
    table = last["table"]
    kit.chart(dpviz.ldp.krr_mse_figure(table, current_eps=eps, names=ESTIMATOR_LABELS),
                  key="ldp_fig_mse", name="Error against privacy")
    here = table[table["eps"] == eps].set_index("method")
    st.markdown(f"**MSE per category at ε = {eps:g}**")
    cols = st.columns(len(here) + 1)
    for col, (method, row) in zip(cols, here.iterrows()):
        col.metric(ESTIMATOR_LABELS[method], fmt_big(row["mse"]),
                   border=True, help=f"Mean squared error per category over {reps:,} "
                   f"replicates, ± {row['se']:.2g} (one standard error).")
    cols[-1].metric("theory (unbiased)", fmt_big(here.loc["unbiased", "theory"]), border=True,
                    help="The unbiased estimator's mean variance over the categories.")
    best = here["mse"].idxmin()
    if fmt_big(here.loc[best, "mse"]) == fmt_big(here.loc["unbiased", "mse"]):
        best = "unbiased"  # as good as the best, to the digits shown
    kit.finding(
        f"At ε = {eps:g} the unbiased estimate's mean squared error per category is "
        f"{fmt_big(here.loc['unbiased', 'mse'])} "
        f"(exactly {fmt_big(here.loc['unbiased', 'theory'])})"
        + ("; no other estimator does better here." if best == "unbiased" else
           f"; the best here, {ESTIMATOR_LABELS[best]}, reaches {fmt_big(here.loc[best, 'mse'])}.")
        + f" Simulated over R = {reps:,} replicates.")
    st.latex(r"\mathrm{MSE}_{\text{unbiased}} = \frac1k\sum_v \operatorname{Var}(\hat n_v) = "
             r"\frac{N q(1-q)}{(p-q)^2} + \frac{N}{k}\,\frac{1-p-q}{p-q}")
    st.markdown(
        "At small ε the unbiased estimator's error explodes like 1/ε²; the estimators that "
        "keep counts non-negative and adding up to N trade a little bias for much less "
        "variance there. At large ε everyone tells the truth and all agree.")
    with st.expander("All simulated numbers"):
        shown = table.assign(method=table["method"].map(ESTIMATOR_LABELS))
        kit.table(shown.rename(columns={"eps": "ε", "mse": "MSE", "se": "SE",
                                            "theory": "exact MSE"}),
                      key="ldp_mse_table", name="Simulated error against privacy",
                      hide_index=True)


# --- 4. The guarantee --------------------------------------------------------------------------

def substitution_link(data: Data, gamma: float) -> None:
    """A link to the random substitution page at the γ nearest to e^ε (and the same age
    groups, N = k, for a population)."""
    k = len(data.labels)
    linked = links.nearest_on_grid(gamma, RS_GAMMA_GRID)
    query = {"rs_tab": "Privacy", "rs_gamma": fmt.fmt_number(linked)}
    source = st.session_state.get("ldp_source")
    label = f"See random substitution with γ = {fmt.fmt_number(linked)}"
    if source in datasets.POPULATIONS:  # its age groups N: 2 … 86, as k here
        query |= {"rs_source": links.POPULATION_AGE_LABELS[source], "rs_N": str(k)}
        label += f" and the same N = {k} age groups"
    st.page_link(
        "views/substitution.py", label=label + " on its page", icon=":material/shuffle:",
        query_params=query,
        help="Opens 'Random substitution' on its privacy tab: the γ-diagonal matrix above, "
        "and its l-extension, where every record releases l distinct values.")
    if linked != gamma:
        st.caption(f"e^ε = {fmt_ratio(gamma)} is not on that page's γ slider: the link opens "
                   f"it at the nearest value, {fmt.fmt_number(linked)}.")


def guarantee_section(data: Data, eps: float) -> None:
    k = len(data.labels)
    p, q = ldp.krr_probabilities(eps, k)
    st.markdown(
        "For any two true answers v and w and any report y, the probability of y changes "
        "by at most the factor p/q: the worst case is y = v, reported truthfully under v "
        "and as a lie under w. That is ε-local differential privacy, for every user, "
        "whatever the others answer.")
    st.latex(r"p = \frac{e^\varepsilon}{e^\varepsilon + k - 1},\quad "
             r"q = \frac{1 - p}{k - 1} = \frac{1}{e^\varepsilon + k - 1},\qquad "
             r"\max_{v, w, y}\frac{P(y \mid v)}{P(y \mid w)} = \frac{p}{q} = e^\varepsilon")
    st.caption(f"Here k = {k}, ε = {eps:g}: p = {fmt_prob(p)}, q = {fmt_prob(q)}, "
               f"p/q = {fmt_ratio(p / q)}.")
    st.markdown(
        f"**Random substitution.** k-RR with e^ε = γ is exactly *random substitution* with a "
        f"γ-diagonal matrix: every answer is kept with weight γ and replaced by each other "
        f"answer with weight 1, each row divided by γ + k − 1. Here γ = $e^{{{eps:g}}}$ = "
        f"{fmt_ratio(p / q)}.")
    st.latex(r"P = \frac{1}{\gamma + k - 1}\begin{pmatrix}\gamma & 1 & \cdots & 1 \\ "
             r"1 & \gamma & \cdots & 1 \\ \vdots & & \ddots & \vdots \\ "
             r"1 & 1 & \cdots & \gamma\end{pmatrix},\qquad \gamma = e^\varepsilon")
    kit.finding(
        f"The worst case for a user is a report equal to their true answer: told truthfully "
        f"(p = {fmt_prob(p)}) under it, as a lie (q = {fmt_prob(q)}) under any other, a ratio "
        f"of e^ε = {fmt_ratio(p / q)}. k-RR with k = {k} is random substitution with a "
        f"γ-diagonal matrix, γ = e^ε = {fmt_ratio(p / q)}.")
    substitution_link(data, p / q)
    linked_eps = links.nearest_on_grid(eps, FDP_KRR_EPS_GRID)
    linked_k = min(k, FDP_K_MAX)
    st.page_link(
        "views/fdp.py", label=f"See the trade-off curve of {linked_k}-RR at ε = {linked_eps:g} "
        "on the f-DP page", icon=":material/shield:",
        query_params={"fdp_tab": "Trade-off curves", "fdp_krr_eps": fmt.fmt_number(linked_eps),
                      "fdp_krr_k": str(linked_k)},
        help="Opens 'f-DP and Gaussian DP' on its trade-off curves with k-RR at this ε and k: "
        "how well the best attacker can tell any two true answers apart from one report.")
    if linked_k != k:
        st.caption(f"That page's k slider stops at {FDP_K_MAX}: the link opens it at "
                   f"k = {linked_k}, not {k}.")
    if linked_eps != eps:
        st.caption(f"ε = {eps:g} is not on that page's slider: the link opens it at the "
                   f"nearest value, {linked_eps:g}.")


# ------------------------------------------------------------------------------------------
kit = page_header(TITLE)
st.markdown(
    "In **local** differential privacy no one is trusted with the raw data: each user "
    "randomises their own answer before sending it. **k-ary randomized response (k-RR)**: "
    "with probability p a user reports the true answer, otherwise one of the other k − 1 "
    "answers uniformly at random. No single report can be trusted, yet the server can "
    "estimate how many users gave each answer, because it knows how the lies are made."
)
st.latex(r"P(\text{report } y \mid \text{true } v) = \begin{cases} p = "
         r"\dfrac{e^\varepsilon}{e^\varepsilon + k - 1} & y = v \\[1ex] q = \dfrac{1 - p}{k - 1} "
         r"& y \ne v \end{cases}\qquad \frac{p}{q} = e^\varepsilon,\qquad "
         r"\hat n_v = \frac{N_v - Nq}{p - q}")
with st.container(border=True):
    DATA, EPS, PROBLEM, WAITING = read_controls()
if DATA is None:
    if WAITING:
        st.info(PROBLEM, icon=":material/upload_file:")
        kit.stop()
    kit.fail(PROBLEM)
SEED = int(st.session_state["ldp_seed"])
with st.container(border=True):
    guarantee(DATA, EPS)
kit.settings({"seed": SEED})

# Only the open tab runs (the tab is bound to the URL, so it is tracked).
SECTIONS = {
    TABS[0]: lambda: one_user(DATA, EPS, SEED),
    TABS[1]: lambda: aggregate(DATA, EPS, SEED),
    TABS[2]: lambda: mse_section(DATA, EPS, SEED),
    TABS[3]: lambda: guarantee_section(DATA, EPS),
}
for tab, section in zip(st.tabs(list(SECTIONS), key="ldp_tab", bind="query-params"),
                        SECTIONS.values()):
    with tab:
        if tab.open is not False:
            section()
kit.end()
