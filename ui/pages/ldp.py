"""The page "Randomized response (local DP)" without its layout: its settings, its data,
its computations and its sentences and tables (views/ldp.py draws them).

Random streams (documented for the tests): the data from ``[seed, 0]``, the reported
counts from ``[seed, 1]``, the MSE simulation from ``[seed, 2]``, the coins of the demo
from ``[seed, 3, flips]``, its users from ``[seed, 4]`` and the per-category comparison of
the estimators at the current ε from ``[seed, 5]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import dpcode
import dpcode.ldp
from dpcore import datasets, ldp
from ui import links, sources
from ui.cache import counted
from ui.controls import DEFAULT_SEED
from ui.format import fmt_big, fmt_count, fmt_number, fmt_param, fmt_pct, fmt_prob, fmt_sig
from ui.kit import Experiment
from ui.links import capped_note, nearest_note
from ui.text import N_, esc, t

TITLE = N_("Randomized response (local DP)")
PARAMS = links.LdpParams  # what other pages' links may set here: keys, ε grid, tab label

# ε on a log scale. Every value is also on the f-DP page's k-RR slider (its KRR_EPS_GRID),
# so the link to that page carries ε as it is.
EPS_GRID = PARAMS.EPS_GRID
DEFAULT_EPS = 1.0
REPS_GRID = (50, 100, 200, 500, 1000, 2000)
DEFAULT_REPS = 200
MAX_CELLS = 400_000  # replicates × categories of one MSE run: about a second at most
CATEGORY_REPS = 5000  # replicates of the per-category comparison at one ε …
CATEGORY_CELLS = 1_600_000  # … fewer with many categories: R·k within this, well under a second
CLEAR = 3.0  # a difference in MSE counts when beyond this many Monte Carlo standard errors
LISTED = 6  # categories named in a sentence; more are counted
DEMO_USERS = 20
MAX_CATEGORIES = 1000
K_MAX = 86  # age groups: single years 0 … 84 and 85+
DEFAULT_K = 10
DEFAULT_N = 10_000
DEFAULT_YES = 30
CATEGORIES = ("A", "B", "C")
DEFAULT_SHARES = (50, 30, 20)

UPLOAD = sources.UPLOAD
DEFAULT_SOURCE = "survey"
SOURCES = {  # the option labels in English (source_label: in the reader's language)
    "survey": N_("Survey: “Did you exercise yesterday?” (yes/no, k = 2)"),
    "abc": N_("Three categories A, B, C (k = 3)"),
    **links.POPULATION_AGE_LABELS,
    UPLOAD: sources.UPLOAD_SOURCE,
}
ESTIMATOR_LABELS = {"unbiased": N_("unbiased"), "clip": N_("clip and renormalise"),
                    "simplex": N_("project onto the simplex"),
                    "ibu": N_("IBU (maximum likelihood)")}
CONSTRAINED = ("clip", "simplex", "ibu")  # the estimators that respect n_v ≥ 0 and Σ n_v = N
TABS = (N_("One user at a time"), N_("The aggregate"), N_("Error versus privacy"),
        PARAMS.GUARANTEE_TAB)
SYMBOLS = {"eps": "ε"}  # dpcore's argument names as the page writes them

# "Try this" (ui.kit): each sets the page up through its URL, every other control at its
# default (tests/test_page_ldp.py checks that what each says to notice is on the page).
EXPERIMENTS = (
    Experiment(
        N_("Set ε = 0.1 and watch the estimated counts scatter around the truth"),
        N_("At ε = 0.1 a user tells the truth with p just above one half, so the reports of "
           "10,000 users hardly differ from a coin toss: the whiskers (± 2 standard errors) of "
           "the estimated counts are more than ± 1,000 people wide, against 3,000 true “yes”. "
           "Press “New draw” to watch the estimates jump."),
        {"ldp_eps": "0.1", "ldp_tab": "The aggregate"}),
    Experiment(
        N_("Set k = 20 age groups at ε = 1: most reports are lies"),
        N_("With k = 20 answers, **p: tell the truth** is only about 0.13 at ε = 1: about 7 in 8 "
           "reports are lies, each spread over 19 other answers. In the table of 20 users, "
           "count the ones with u < p."),
        {"ldp_source": links.POPULATION_AGE_LABELS["korea"], "ldp_k": "20", "ldp_eps": "1"}),
)


# An upload of categories: one answer per user (ui.sources.category_upload).
UPLOAD_WORDS = sources.CategoryWords(
    kind=N_("one answer per user (a column of categories)"),
    help=N_("Found from the file (the default): counts per category when the file looks like "
            "a histogram (a column headed count, counts, n, freq, …, or text labels that are "
            "all different beside one column of numbers), else one answer per user; the page "
            "says which it read. One answer per user: a column of categories, text (yes, no, "
            "…) or numbers, one row per user; the first row names the columns. Counts per "
            "category: one row per category, a column of whole numbers (a first column of "
            "text labels is allowed)."),
    column_help=N_("Which column of your file holds the answers or the counts."),
    what=N_('the {n:,.0f} answers in column "{column}"'),
    not_whole=N_('Column "{column}" has a count that is not a whole number; counts of users '
                 "must be 0, 1, 2, …"),
    found=sources.FoundWords(
        option=N_("found from the file"),
        counts=N_('Read as counts per category: {k} categories, {n} users, from column '
                  '"{column}". If your file holds one answer per user, choose that above.'),
        values=N_('Read as one answer per user: {n} answers in column "{column}", {k} '
                  "categories. If your file holds counts per category, choose that above."),
        counts_refused=N_("(The file was read as counts per category. If it holds one answer "
                          "per user, choose that above.)"),
        values_refused=N_("(The file was read as one answer per user. If it holds counts per "
                          "category, choose that above.)")))


def source_label(source: str) -> str:
    """A data source's option label (a key of SOURCES) in the reader's language."""
    return links.source_option_label(source, SOURCES)


# --- The data and the settings -------------------------------------------------------------

@dataclass(frozen=True)
class Data:
    """The users' true answers: counts per category, and a few users for the demo."""

    labels: list[str]
    counts: np.ndarray  # true counts n_v (whole numbers, as floats)
    demo: np.ndarray  # category indices of the users in the demo table
    what: str  # the data in words (a file's column name in it as the user wrote it)
    sampled: bool  # drawn from a built-in source; False for a file
    file_kind: str | None = None  # a file's kind as read: "counts" or "categories"

    @property
    def k(self) -> int:
        return len(self.labels)

    @property
    def users(self) -> str:
        """N, as the page writes it."""
        return f"{self.counts.sum():,.0f}"

    @property
    def what_md(self) -> str:
        """The data in words for Markdown: a file's text escaped."""
        return self.what if self.sampled else esc(self.what)


@dataclass(frozen=True)
class Settings:
    """Every setting of the view: the value of every control bound to the URL (the data
    source and its controls, N, ε, the seed, the open tab and the controls of the tabs),
    with the data they give. A tab's own control is None until that tab reads it: only
    the open tab runs."""

    data: Data
    source: str = DEFAULT_SOURCE  # ldp_source
    yes: int = DEFAULT_YES  # ldp_yes: the survey's true share of "yes" (%)
    shares: tuple[int, ...] = DEFAULT_SHARES  # ldp_share_a, _b, _c: A, B, C (%)
    k: int = DEFAULT_K  # ldp_k: age groups of a population
    n: int = DEFAULT_N  # ldp_n: users drawn from a built-in source
    eps: float = DEFAULT_EPS  # ldp_eps
    seed: int = DEFAULT_SEED  # ldp_seed
    tab: str = TABS[0]  # ldp_tab
    flips: int | None = None  # ldp_flip: presses of "Flip again" (tab 1)
    method: str | None = None  # ldp_method: the estimator (tab 2)
    reps: int | None = None  # ldp_reps: replicates R per ε (tab 3)

    @property
    def pq(self) -> tuple[float, float]:
        """k-RR's p (tell the truth) and q (tell a given lie)."""
        return ldp.krr_probabilities(self.eps, self.data.k)

    def report_items(self) -> dict[str, object]:
        """The settings in the report: label -> value, as the page writes them."""
        p, q = self.pq
        items = {t("data"): self.data.what, t("categories k"): self.data.k,
                 t("users N"): self.data.users, t("privacy ε"): f"{self.eps:g}",
                 t("p (truth)"): fmt_prob(p), t("q (a given lie)"): fmt_prob(q),
                 t("seed"): self.seed}
        if self.flips is not None:
            items[t("coin flips of the demo")] = self.flips
        if self.method is not None:
            items[t("estimator")] = t(ESTIMATOR_LABELS[self.method])
        if self.reps is not None:
            items[t("replicates R per ε")] = f"{self.reps:,}"
        return items


def builtin_probabilities(source: str, *, yes: int = DEFAULT_YES, shares=DEFAULT_SHARES,
                          k: int = DEFAULT_K):
    """A built-in source's labels, probabilities and description; ValueError for shares
    that are all 0."""
    if source == "survey":
        return ([t("yes"), t("no")], datasets.proportions([yes, 100 - yes]),
                t("a yes/no survey with {yes}% true “yes”", yes=yes))
    if source == "abc":
        return list(CATEGORIES), datasets.proportions(shares), t("three categories A, B, C")
    groups = datasets.age_groups(source, k)
    return (list(groups.index), datasets.proportions(groups.to_numpy()),
            t("ages of {population} (2020) in {k} groups",
              population=t(datasets.POPULATIONS[source]), k=k))


def shares_used(probs) -> str:
    return t("Shares used: {shares} (a skewed default: 50/30/20%).",
             shares=", ".join(f"{c} {fmt_pct(p)}" for c, p in zip(CATEGORIES, probs)))


def demo_users(probs, seed: int) -> np.ndarray:
    """The users of the demo, drawn from the probabilities (stream [seed, 4])."""
    return np.random.default_rng([seed, 4]).choice(len(probs), size=DEMO_USERS, p=probs)


def sampled_data(labels: list[str], probs, n: int, seed: int, what: str) -> Data:
    """n users drawn from a built-in source (stream [seed, 0])."""
    counts = datasets.draw_histogram(probs, n, rng=[seed, 0]).astype(float)
    return Data(labels, counts, demo_users(probs, seed),
                t("{n} users drawn from {what}", n=f"{n:,}", what=what), True)


def file_data(upload: sources.CategoryCounts, seed: int) -> Data:
    """An upload's counts; the demo shows its first users (a file of counts: users drawn
    from it)."""
    demo = (upload.first[:DEMO_USERS] if upload.first is not None
            else demo_users(datasets.proportions(upload.counts), seed))
    return Data(upload.labels, upload.counts, demo, upload.what, False,
                "categories" if upload.first is not None else "counts")


def category_reps(k: int) -> int:
    """The replicates R of the per-category comparison with k categories."""
    return max(REPS_GRID[0], min(CATEGORY_REPS, CATEGORY_CELLS // k))


def reps_grid(k: int) -> tuple[int, ...]:
    """The replicates R offered with k categories: R·k stays within MAX_CELLS."""
    most = max(REPS_GRID[0], MAX_CELLS // k)
    return tuple(r for r in REPS_GRID if r <= most)


# --- The view as code (dpcode.ldp) -----------------------------------------------------------

TAB_CODES = dict(zip(TABS, dpcode.ldp.TABS))


def code_builder(s: Settings):
    """The view's code for the kit's Code button: link -> Program."""
    if s.data.sampled:
        source = dpcode.ldp.Source(s.source, n=s.n, yes=s.yes, shares=tuple(s.shares), k=s.k)
    else:
        source = dpcode.ldp.Source("upload", labels=tuple(s.data.labels), counts=s.data.counts,
                                   first=s.data.demo, file_kind=s.data.file_kind)
    labels = {m: t(label) for m, label in ESTIMATOR_LABELS.items()}
    labels["theory"] = t("theory (unbiased)")

    def build(link: str) -> dpcode.Program:
        return dpcode.ldp.program(
            source=source, eps=s.eps, seed=s.seed, tab=TAB_CODES[s.tab], flips=s.flips or 0,
            method=s.method, reps=s.reps, eps_grid=EPS_GRID, labels=labels,
            demo_users=DEMO_USERS, link=link, title=t(TITLE))
    return build


# --- The guarantee (above the tabs) ---------------------------------------------------------

def guarantee_finding(s: Settings) -> str:
    p, q = s.pq
    return t("Each user tells the truth with probability {p}; any report is at most "
             "{ratio} times more likely under one true answer than under another: "
             "ε = {eps}-local differential privacy.", p=fmt_pct(p, 4), ratio=fmt_param(p / q),
             eps=f"{s.eps:g}")


def in_plain_words(s: Settings) -> str:
    p, q = s.pq
    k = s.data.k
    others = (t("the other answer") if k == 2 else
              t("one of the other k − 1 = {k1} answers", k1=k - 1))
    return t("**In plain words.** Data: {what}. Each user tells the truth with probability "
             "p = {p} and otherwise reports {others} at random (each with probability "
             "q = {q}). Whatever a user's true answer, any report is at most "
             "p/q = $e^{{{eps}}}$ = {ratio} times more likely under it than under another "
             "answer: **ε = {eps}-local differential privacy**. The server never sees a true "
             "answer, so it needs no trust.", what=s.data.what_md, p=fmt_pct(p, 4), others=others,
             q=fmt_prob(q), eps=f"{s.eps:g}", ratio=fmt_param(p / q))


# --- 1. One user at a time -------------------------------------------------------------------

def demo_intro(s: Settings) -> str:
    k = s.data.k
    p, _ = s.pq
    others = (t("the other answer") if k == 2 else
              t("one of the other {k1} answers, each equally likely", k1=k - 1))
    values = dict(p=fmt_prob(p), others=others, users=len(s.data.demo))
    if s.data.sampled:
        return t("Each user flips a biased coin: a uniform number u between 0 and 1. If u < "
                 "p = {p} the user reports the true answer; otherwise {others}. Here are "
                 "{users} users drawn from the data.", **values)
    return t("Each user flips a biased coin: a uniform number u between 0 and 1. If u < p = "
             "{p} the user reports the true answer; otherwise {others}. Here are {users} users "
             "of your file (its first rows).", **values)


def demo_table(s: Settings) -> pd.DataFrame:
    """The demo's users, their coins and reports (stream [seed, 3, flips]), with the page's
    column names."""
    table = ldp.krr_demo_table(s.data.demo, s.eps, s.data.k, labels=s.data.labels,
                               rng=[s.seed, 3, s.flips or 0])
    return table.rename(columns={"true": "true answer", "coin": "coin u",
                                 "told_truth": "u < p: tells the truth",
                                 "reported": "reported answer"})


def demo_caption(told: int, users: int, p: float) -> str:
    return t("{told} of {users} users told the truth (expected {expected:.1f}). A reported "
             "answer alone says little about a user: it may well be a lie.",
             told=told, users=users, expected=users * p)


def demo_finding(told: int, users: int, p: float) -> str:
    return t("In the demo, {told} of {users} users told the truth (expected {expected:.1f} "
             "at p = {p}): a single report may well be a lie, so it says little about its "
             "user.", told=told, users=users, expected=users * p, p=fmt_prob(p))


# --- 2. The aggregate --------------------------------------------------------------------------

def estimator_help() -> str:
    return t("How the server turns reported counts into estimated true counts: {each}. The "
             "last three never go below 0 and add up to N.",
             each="; ".join(f"{t(ESTIMATOR_LABELS[m])}: {t(d)}"
                            for m, d in ldp.ESTIMATORS.items()))


@dataclass(frozen=True)
class Aggregate:
    """The reported counts (stream [seed, 1]), an estimator's estimate and its whiskers."""

    reported: np.ndarray
    estimate: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    two_se: np.ndarray  # ± 2 standard errors of the unbiased estimator
    error: float  # Σ_v |n̂_v − n_v|
    error_reported: float  # Σ_v |N_v − n_v|

    @property
    def negatives(self) -> int:
        return int(np.sum(self.estimate < 0))


def aggregate(s: Settings) -> Aggregate:
    counts = s.data.counts
    reported = ldp.krr_perturb_counts(counts, s.eps, rng=[s.seed, 1])
    estimate = ldp.krr_estimate(reported, s.eps, method=s.method)
    lower, upper = ldp.krr_interval(estimate, counts, s.eps)
    two_se = (upper - lower) / 2
    if s.method != "unbiased":  # these estimators never go below 0: neither do their whiskers
        lower = np.maximum(lower, 0.0)
    return Aggregate(reported, estimate, lower, upper, two_se,
                     float(np.abs(estimate - counts).sum()),
                     float(np.abs(reported - counts).sum()))


def counts_table(s: Settings, a: Aggregate) -> pd.DataFrame:
    return pd.DataFrame({"category": s.data.labels, "true n_v": s.data.counts,
                         "reported N_v": a.reported, "estimate n̂_v": a.estimate,
                         "± 2 SE": a.two_se})


def aggregate_finding(s: Settings, a: Aggregate) -> str:
    return t("From the reports, the {estimator} estimate is off by {error} people in total "
             "over the {k} answers, against {reported} for the reported counts taken as they "
             "are.", estimator=t(ESTIMATOR_LABELS[s.method]), error=fmt_count(a.error),
             k=s.data.k, reported=fmt_count(a.error_reported))


def pq_caption(s: Settings) -> str:
    p, q = s.pq
    return t("Here p = {p}, q = {q}, p − q = {d}: every reported count is divided by p − q, "
             "which is small when ε is small or k large.",
             p=fmt_prob(p), q=fmt_prob(q), d=fmt_prob(p - q))


# --- Category by category: each estimator against the unbiased one, and what a whisker covers

@counted(st.cache_data(max_entries=1, show_spinner=False))
def category_errors(counts: tuple[float, ...], eps: float, seed: int) -> pd.DataFrame:
    """Every estimator's MSE per category and its whiskers' coverage at ε, from
    ``category_reps(k)`` reported histograms of the true counts (stream [seed, 5]), all
    estimators on the same ones (dpcore.ldp.krr_category_errors)."""
    return ldp.krr_category_errors(np.array(counts), eps, reps=category_reps(len(counts)),
                                   rng=[seed, 5])


def method_errors(errors: pd.DataFrame, method: str) -> pd.DataFrame:
    """One estimator's rows of ``category_errors``, indexed by category, with ``verdict``:
    "larger", "smaller" (its MSE against the unbiased estimator's, beyond CLEAR Monte Carlo
    standard errors of the paired difference), "same" (the same estimates in every
    replicate) or "unclear"."""
    rows = errors[errors["method"] == method].set_index("category")
    diff, se = rows["diff"].to_numpy(), rows["diff_se"].to_numpy()
    verdict = np.select([(se == 0) & (diff == 0), diff > CLEAR * se, diff < -CLEAR * se],
                        ["same", "larger", "smaller"], "unclear")
    return rows.assign(verdict=verdict)


def _pct(v: float) -> str:
    """A share of replicates in percent, one decimal, never a rounded 0% or 100%."""
    text = f"{v:.1%}"
    if text == "100.0%" and v < 1:
        return "> 99.9%"
    return "< 0.1%" if text == "0.0%" and v > 0 else text


def _names(labels, which, md: bool) -> str:
    names = [esc(v) if md else str(v) for v in np.asarray(labels, dtype=object)[which]]
    if len(names) > LISTED:
        return t("{n} categories", n=f"{len(names):,}")
    return ", ".join(names)


def _ratio_part(verdict: str, names: str, ratio: np.ndarray) -> str:
    """Where an estimator's MSE is larger or smaller than the unbiased one's, with the range
    of the MSE ratios when there is one: "smaller on C, D (0.44 to 0.63 times)"; one whole
    phrase per case."""
    ratio = ratio[np.isfinite(ratio)]
    if not ratio.size:
        return (t("larger on {names}", names=names) if verdict == "larger"
                else t("smaller on {names}", names=names))
    lo, hi = _times(ratio.min()), _times(ratio.max())
    if lo == hi:
        return (t("larger on {names} ({r} times)", names=names, r=lo) if verdict == "larger"
                else t("smaller on {names} ({r} times)", names=names, r=lo))
    return (t("larger on {names} ({lo} to {hi} times)", names=names, lo=lo, hi=hi)
            if verdict == "larger" else
            t("smaller on {names} ({lo} to {hi} times)", names=names, lo=lo, hi=hi))


def _times(ratio: float) -> str:
    """A ratio of MSEs with 3 significant digits, trailing zeros kept: 1.00, 0.995, 1.22."""
    return f"{ratio:#.3g}"


def _ratio_text(ratio: float) -> str:
    return (t("{r} times the unbiased estimator's", r=_times(ratio)) if np.isfinite(ratio)
            else t("above the unbiased estimator's, which is 0"))


VERDICT_WORDS = {"larger": N_("larger"), "smaller": N_("smaller"),
                 "unclear": N_("not clearly different at this R")}


def comparison(s: Settings, errors: pd.DataFrame, method: str, *, md: bool = True) -> str:
    """Where ``method``'s MSE is larger or smaller than the unbiased estimator's, on the
    same replicates: the largest category first, then the others grouped by verdict.
    ``md``: category labels escaped for Markdown."""
    rows = method_errors(errors, method)
    counts, labels = s.data.counts, s.data.labels
    top = int(np.argmax(counts))
    verdict = rows["verdict"].iloc[top]
    values = dict(name=_names(labels, [top], md), n=f"{counts[top]:,.0f}",
                  estimator=t(ESTIMATOR_LABELS[method]))
    head = (t("On the largest category, {name} ({n} users), the estimate ({estimator}) equals "
              "the unbiased one in every replicate.", **values) if verdict == "same" else
            t("On the largest category, {name} ({n} users), the mean squared error of the "
              "estimate ({estimator}) is {ratio}: {verdict}.",
              ratio=_ratio_text(rows["ratio"].iloc[top]), verdict=t(VERDICT_WORDS[verdict]),
              **values))
    others = np.arange(len(counts)) != top
    parts = []
    for verdict in ("larger", "smaller", "unclear", "same"):
        which = others & (rows["verdict"].to_numpy() == verdict)
        if not which.any():
            continue
        names = _names(labels, which, md)
        if verdict in ("larger", "smaller"):
            parts.append(_ratio_part(verdict, names, rows["ratio"].to_numpy()[which]))
        elif verdict == "unclear":
            parts.append(t("not clearly different on {names}", names=names))
        else:
            parts.append(t("the same estimates as the unbiased one on {names}", names=names))
    tail = (t(" On the other categories: {parts}.", parts="; ".join(parts)) if parts else "")
    return head + tail


def coverage_sentence(s: Settings, errors: pd.DataFrame, method: str, *,
                      md: bool = True) -> str:
    """What share of the replicates the whiskers of ``method`` contained the true count:
    the lowest and highest category, and the largest category."""
    rows = method_errors(errors, method)
    cover, labels = rows["coverage"].to_numpy(), s.data.labels
    lo, hi, top = int(np.argmin(cover)), int(np.argmax(cover)), int(np.argmax(s.data.counts))
    values = dict(reps=f"{category_reps(s.data.k):,}", lo=_pct(cover[lo]),
                  lo_name=_names(labels, [lo], md), hi=_pct(cover[hi]),
                  hi_name=_names(labels, [hi], md), top=_pct(cover[top]),
                  se=f"{100 * rows['coverage_se'].max():.1f}")
    if values["lo"] == values["hi"]:
        return t("In R = {reps} simulated reports at these settings, the whiskers contained the "
                 "true count in {lo} of them, in every category (Monte Carlo standard error at "
                 "most {se} percentage points).", **values)
    return t("In R = {reps} simulated reports at these settings, the whiskers contained the "
             "true count in {lo} ({lo_name}) to {hi} ({hi_name}) of them, {top} on the largest "
             "category (Monte Carlo standard error at most {se} percentage points).", **values)


def whisker_caption(s: Settings, errors: pd.DataFrame, *, md: bool = True) -> str:
    """The whiskers of the chosen estimator: what they are, what they covered in the
    replicates and, for the constrained estimators, where their MSE is larger or smaller
    than the unbiased estimator's."""
    if s.method == "unbiased":
        return t("Whiskers: ± 2 standard errors of the unbiased estimator, from its exact "
                 "variance at the true counts. {coverage} An estimate with a normal "
                 "distribution is within ± 2 standard errors 95.45% of the time.",
                 coverage=coverage_sentence(s, errors, s.method, md=md))
    return t("Whiskers: the estimate ({estimator}) ± 2 standard errors of the unbiased estimator "
             "(its exact variance at the true counts), cut at 0; not this estimator's own "
             "standard errors. {coverage} {comparison} (On the same simulated reports; a "
             "difference in mean squared error counts when beyond {clear:g} Monte Carlo "
             "standard errors.)", estimator=t(ESTIMATOR_LABELS[s.method]), clear=CLEAR,
             coverage=coverage_sentence(s, errors, s.method, md=md),
             comparison=comparison(s, errors, s.method, md=md))


def whisker_name(s: Settings) -> str:
    """The whiskers in the chart's legend."""
    return (t("± 2 SE") if s.method == "unbiased" else
            t("± 2 SE of the unbiased estimator"))


def whisker_notes(s: Settings, errors: pd.DataFrame) -> list[str]:
    """Per category, for the chart's hover: what the whisker covered and, for the
    constrained estimators, the MSE against the unbiased estimator's."""
    rows = method_errors(errors, s.method)
    reps = f"{category_reps(s.data.k):,}"
    notes = []
    for _, row in rows.iterrows():
        note = t("whisker contained the true count in {c} of {reps} simulated reports",
                 c=_pct(row["coverage"]), reps=reps)
        if s.method != "unbiased":
            note += "<br>" + (
                t("the same estimates as the unbiased estimator in every replicate")
                if row["verdict"] == "same" else
                t("MSE {ratio}: {verdict}", ratio=_ratio_text(row["ratio"]),
                  verdict=t(VERDICT_WORDS[row["verdict"]])))
        notes.append(note)
    return notes


def per_category_list(s: Settings, errors: pd.DataFrame) -> str:
    """``comparison`` for each estimator that keeps counts non-negative, as a Markdown list."""
    return "\n".join(f"- {comparison(s, errors, m)}" for m in CONSTRAINED)


def per_category_note(s: Settings, errors: pd.DataFrame) -> str:
    """``per_category_intro`` and ``per_category_list`` in one paragraph for the report."""
    return t("Category by category at ε = {eps}, on R = {reps} further simulated reports "
             "(a difference counts when beyond {clear:g} Monte Carlo standard errors): {each}",
             eps=f"{s.eps:g}", reps=f"{category_reps(s.data.k):,}", clear=CLEAR,
             each=" ".join(comparison(s, errors, m, md=False) for m in CONSTRAINED))


def per_category_intro(s: Settings) -> str:
    return t("**Category by category at ε = {eps}.** An average over the categories can hide "
             "categories where an estimator does worse. On R = {reps} further simulated "
             "reports at ε = {eps}, each estimator against the unbiased one (a difference "
             "counts when beyond {clear:g} Monte Carlo standard errors):",
             eps=f"{s.eps:g}", reps=f"{category_reps(s.data.k):,}", clear=CLEAR)


# --- 3. Error versus privacy -------------------------------------------------------------------

@counted(st.cache_data(max_entries=1, show_spinner=False))
def mse_table(counts: tuple[float, ...], reps: int, seed: int, _progress=None) -> pd.DataFrame:
    """Every estimator's MSE per category at every ε of the grid: R reported histograms
    each (stream [seed, 2]). ``_progress(fraction, label)`` (not part of the cache key) is
    told 0 at the start, then after each ε; a cached result replays what it showed."""
    if _progress is not None:
        _progress(0.0, "")
    return ldp.krr_mse(np.array(counts), EPS_GRID, reps=int(reps), rng=[seed, 2],
                       progress=_progress)


def mse_at(table: pd.DataFrame, eps: float) -> pd.DataFrame:
    """The rows of one ε, by estimator."""
    return table[table["eps"] == eps].set_index("method")


def mse_finding(s: Settings, here: pd.DataFrame) -> str:
    best = here["mse"].idxmin()
    if fmt_big(here.loc[best, "mse"]) == fmt_big(here.loc["unbiased", "mse"]):
        best = "unbiased"  # as good as the best, to the digits shown
    values = dict(eps=f"{s.eps:g}", mse=fmt_big(here.loc["unbiased", "mse"]),
                  exact=fmt_big(here.loc["unbiased", "theory"]), reps=f"{s.reps:,}")
    if best == "unbiased":
        return t("At ε = {eps} the unbiased estimate's mean squared error per category is {mse} "
                 "(exactly {exact}); no other estimator does better here. Simulated over "
                 "R = {reps} replicates.", **values)
    return t("At ε = {eps} the unbiased estimate's mean squared error per category is {mse} "
             "(exactly {exact}); the best here, {name}, reaches {best_mse}. Simulated over "
             "R = {reps} replicates.", **values, name=t(ESTIMATOR_LABELS[best]),
             best_mse=fmt_big(here.loc[best, "mse"]))


def mse_shown(table: pd.DataFrame) -> pd.DataFrame:
    """The simulated numbers with the page's column names and estimator labels."""
    shown = table.assign(method=table["method"].map(lambda m: t(ESTIMATOR_LABELS[m])))
    return shown.rename(columns={"eps": "ε", "mse": "MSE", "se": "SE", "theory": "exact MSE"})


# --- 4. The guarantee ----------------------------------------------------------------------------

def guarantee_caption(s: Settings) -> str:
    p, q = s.pq
    return t("Here k = {k}, ε = {eps}: p = {p}, q = {q}, p/q = {ratio}.", k=s.data.k,
             eps=f"{s.eps:g}", p=fmt_prob(p), q=fmt_prob(q), ratio=fmt_param(p / q))


def substitution_text(s: Settings) -> str:
    p, q = s.pq
    return t("**Random substitution.** k-RR with e^ε = γ is exactly *random substitution* "
             "with a γ-diagonal matrix: every answer is kept with weight γ and replaced by "
             "each other answer with weight 1, each row divided by γ + k − 1. Here "
             "γ = $e^{{{eps}}}$ = {ratio}.", eps=f"{s.eps:g}", ratio=fmt_param(p / q))


def guarantee_tab_finding(s: Settings) -> str:
    p, q = s.pq
    return t("The worst case for a user is a report equal to their true answer: told "
             "truthfully (p = {p}) under it, as a lie (q = {q}) under any other, a ratio of "
             "e^ε = {ratio}. k-RR with k = {k} is random substitution with a γ-diagonal "
             "matrix, γ = e^ε = {ratio}.",
             p=fmt_prob(p), q=fmt_prob(q), ratio=fmt_param(p / q), k=s.data.k)


def substitution_link(s: Settings) -> tuple[links.PageLink, str, list[str]]:
    """The link to random substitution at γ = e^ε (and, for a population, the same age
    groups, N = k): the link, its label and what it could not carry as it is."""
    p, q = s.pq
    link = links.to_substitution(p / q, source=s.source, n=s.data.k)
    gamma = link.used["gamma"]
    label = (t("See random substitution with γ = {gamma} and the same N = {k} age groups on "
               "its page", gamma=fmt_number(gamma), k=s.data.k)
             if s.source in datasets.POPULATIONS else
             t("See random substitution with γ = {gamma} on its page", gamma=fmt_number(gamma)))
    notes = [] if gamma == p / q else [
        nearest_note(t("e^ε = {ratio}", ratio=fmt_param(p / q)), t("γ slider"), fmt_number(gamma))]
    return link, label, notes


def fdp_link(s: Settings) -> tuple[links.PageLink, str, list[str]]:
    """The link to k-RR's trade-off curve on the f-DP page: the link, its label and what
    it could not carry as it is."""
    k = s.data.k
    link = links.to_fdp_krr(s.eps, k)
    eps, linked_k = link.used["eps"], link.used["k"]
    label = t("See the trade-off curve of {k}-RR at ε = {eps} on the f-DP page",
              k=linked_k, eps=f"{eps:g}")
    notes = []
    if linked_k != k:
        notes.append(capped_note("k", links.FdpParams.K_MAX, linked_k, k))
    if eps != s.eps:
        notes.append(nearest_note(t("ε = {eps}", eps=f"{s.eps:g}"), t("slider"), f"{eps:g}"))
    return link, label, notes
