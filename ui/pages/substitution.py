"""The page "Random substitution" without its layout: its settings, its data, its
computations and its sentences and tables (views/substitution.py draws them).

Random streams (documented for the tests): a population's records from ``[seed, 0]``
(the shapes' counts are fixed: ``datasets.shape_counts``), the release of the first tab
(and its draws on the tab Cost) from ``[seed, 1]``, the R releases of the tabs Accuracy,
Cost and Bias from ``[seed, 2]`` and the paper grid from ``[seed, 5]``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import dpcode
import dpcode.substitution
from dpcore import datasets
from dpcore import risk
from dpcore import substitution as rs
from ui import links, oneperson, sources
from ui.cache import counted
from ui.format import fmt_big, fmt_count, fmt_number, fmt_param, fmt_prob, fmt_rel, fmt_sig
from ui.kit import Experiment
from ui.links import capped_note, nearest_note
from ui.notation import KLH09, in_source
from ui.text import N_, esc, t

TITLE = N_("Random substitution")
PARAMS = links.SubstitutionParams  # what other pages' links may set here: keys, γ grid, tab

GAMMA_GRID = PARAMS.GAMMA_GRID
DEFAULT_GAMMA = 10.0
REPS_GRID = (10, 20, 50, 100, 200, 500)
DEFAULT_REPS = 100  # the source's 100 repetitions
# R releases of Algorithm 2 take about R·N²·(l + 1) binomial draws
# (extended_random_substitution); 5·10⁶ take about a quarter of a second, so R is
# reduced to stay within them (to 2 at least).
MAX_BINOMIALS = 5_000_000
MIN_REPS = 2
N_MAX = 200  # categories of the shapes and of an upload
DEFAULT_N = 50  # the source's N = 50
K_MAX = 86  # age groups: single years 0 … 84 and 85+
DEFAULT_GROUPS = 10
DEFAULT_RECORDS = 5_000  # the source's smaller n
DEFAULT_L = 2  # the smallest l with re-randomisation
L_CHART = 20  # the charts of error and cost show l = 1 … min(N − 1, 20), and the chosen l
DEFAULT_RHO1, DEFAULT_RHO2 = 0.05, 0.5

UPLOAD = sources.UPLOAD
# The source's experiments use uniform and normal data; it does not say which normal, so the
# normal shape is the discretisation of Son, Park & Jung (2022, section 2.3). The normal
# option's earlier label, which links may carry, is in links.EARLIER_LABELS.
SHAPES = {"uniform": N_("Uniform (the source's shape)"),  # labels are URL values: kept
          "normal": N_("Normal (discretised as in Son, Park & Jung 2022)")}
# The option labels in English (source_label: in the reader's language).
SOURCES = {**SHAPES, **links.POPULATION_AGE_LABELS, UPLOAD: sources.UPLOAD_SOURCE}
DEFAULT_SOURCE = "normal"  # on uniform data the source's X̂*/l is unbiased: nothing to see
TABS = (N_("Release and reconstruction"), N_("Accuracy"), N_("Cost"), PARAMS.PRIVACY_TAB,
        N_("Bias"))
SHORT = {"source": N_("X̂*/l (source)"), "unbiased": N_("A⁻¹Y* (unbiased)")}
KINDS = tuple(SHORT)  # the two reconstructions: the source's X̂*/l and the unbiased A⁻¹Y*
SYMBOLS = {"gamma": "γ", "n_categories": "the number of categories k", "rho1": "ρ₁",
           "rho2": "ρ₂", "reps": "R"}  # dpcore's argument names as the page writes them


# "Try this" (ui.kit): each sets the page up through its URL, every other control at its
# default (tests/test_page_substitution.py checks that what each says to notice is on the page).
EXPERIMENTS = (
    Experiment(
        N_("Raise l to 10 at γ = 5 and watch ε_l grow while the error falls"),
        N_("Each record now releases 10 distinct values: **ε_l** is above ε = ln γ of one "
           "substitution (the caption under γ), while the exact error of the unbiased A⁻¹Y* is "
           "less than half its value at l = 1 (the chart's curves against l). More values per "
           "record buy accuracy with privacy, until re-draws and bias take over at larger l."),
        {"rs_gamma": "5", "rs_l": "10", "rs_tab": "Accuracy"}),
    Experiment(
        N_("Set l = 10 and watch Kang, Lee & Hong's X̂*/l stay biased"),
        N_("The relative bias of X̂*/l (source) is above 30% of ‖X‖, that of the unbiased A⁻¹Y* "
           "is 0: re-drawing repeated values makes dividing by l·M wrong unless the data are "
           "uniform. More records shrink the variance, not this bias."),
        {"rs_l": "10", "rs_tab": "Bias"}),
)


# An upload of categories: one value per record (ui.sources.category_upload).
UPLOAD_WORDS = sources.CategoryWords(
    kind=N_("one value per record (a column of categories)"),
    help=N_("One value per record: a column of categories, text (A, B, 20–29, …) or numbers, "
            "one row per record; the first row names the columns. Counts per category: one row "
            "per category, a column of whole numbers (a first column of text labels is "
            "allowed)."),
    column_help=N_("Which column of your file holds the values or the counts."),
    what=N_('the {n:,.0f} values in column "{column}"'),
    not_whole=N_('Column "{column}" has a count that is not a whole number; counts of records '
                 "must be 0, 1, 2, …"))


def source_label(source: str) -> str:
    """A data source's option label (a key of SOURCES) in the reader's language."""
    return links.source_option_label(source, SOURCES)


def amplification(eps: float) -> float:
    """e^ε, ∞ beyond the largest float."""
    return math.exp(eps) if eps < 709 else math.inf


def short(kind: str) -> str:
    return t(SHORT[kind])


# Notation (ui.notation): k categories and N records, as on every page; Kang, Lee & Hong
# (2009) write N for the categories and n for the records, which the first controls say once.
CITE = "Kang, Lee & Hong (2009)"


def categories_label(ages: bool = False) -> str:
    """The categories' control: k, with the source's N said once."""
    return (t("Age groups k {note}", note=in_source("N", KLH09)) if ages else
            t("Categories k {note}", note=in_source("N", KLH09)))


def records_label() -> str:
    """The records' control: N, with the source's n said once."""
    return t("Records N {note}", note=in_source("n", KLH09))


def plus_minus(value: float, se: float) -> str:
    """A simulated value ± its Monte Carlo standard error, never in e-notation."""
    return f"{fmt_sig(value)} ± {fmt_sig(se, 2)}"


# --- The data and the settings -------------------------------------------------------------

@dataclass(frozen=True)
class Data:
    """The records' true counts X per category."""

    labels: list[str]
    counts: np.ndarray  # X, whole numbers
    what: str  # the data in words (a file's column name in it as the user wrote it)
    source: str  # rs_source

    @property
    def what_md(self) -> str:
        """The data in words for Markdown: a file's text escaped."""
        return esc(self.what) if self.source == UPLOAD else self.what


@dataclass(frozen=True)
class Settings:
    """Every setting of the view: the value of every control bound to the URL and the data
    they give. The data source (rs_source), its N (rs_N: the number of categories) and n
    (rs_n: the records) are the data's; a file gives its own N and n. The breach's ρ₁ and
    ρ₂ are None until the tab Privacy reads them: only the open tab runs."""

    data: Data
    gamma: float  # rs_gamma
    l: int  # rs_l, within 1 … N − 1
    reps: int  # repetitions simulated (R, reduced to the budget)
    reps_chosen: int  # rs_reps: R on the slider (the paper grid's)
    seed: int  # rs_seed
    tab: str = TABS[0]  # rs_tab
    rho1: float | None = None  # rs_rho1
    rho2: float | None = None  # rs_rho2

    @property
    def source(self) -> str:
        return self.data.source

    @property
    def n_categories(self) -> int:
        return len(self.data.labels)

    @property
    def n(self) -> int:
        return int(self.data.counts.sum())

    @property
    def x(self) -> np.ndarray:
        return self.data.counts

    @property
    def reduced(self) -> bool:
        return self.reps < self.reps_chosen

    def report_items(self) -> dict[str, object]:
        """The settings in the report: label -> value, as the page writes them."""
        reps = f"{self.reps:,}" if not self.reduced else t(
            "{reps} (reduced from the {chosen} chosen)", reps=f"{self.reps:,}",
            chosen=f"{self.reps_chosen:,}")
        items = {t("data"): self.data.what, t("categories k"): self.n_categories,
                 t("records N"): f"{self.n:,}", t("amplification γ"): fmt_number(self.gamma),
                 t("ε = ln γ (one substitution)"): fmt_sig(math.log(self.gamma)),
                 t("values per record l"): self.l, t("repetitions R"): reps, t("seed"): self.seed}
        if self.rho1 is not None:
            items |= {t("breach: prior ρ₁"): fmt_prob(self.rho1),
                      t("breach: posterior ρ₂"): fmt_prob(self.rho2)}
        return items


def builtin_data(source: str, n_cat: int, n: int, seed: int) -> Data:
    """A shape's counts (fixed: the source's theorems hold X fixed) or n records drawn from a
    population's ages in n_cat groups (stream [seed, 0])."""
    if source in SHAPES:
        return Data([str(j) for j in range(1, n_cat + 1)], datasets.shape_counts(source, n_cat, n),
                    t("{n} records over k = {n_cat} categories in the {shape} shape (fixed "
                      "counts, as Kang, Lee & Hong's (2009) theorems hold them)", n=f"{n:,}",
                      n_cat=n_cat,
                      shape=t(datasets.SHAPES[source]).lower()), source)
    groups = datasets.age_groups(source, n_cat)
    counts = datasets.draw_histogram(datasets.proportions(groups.to_numpy()), n,
                                     rng=[seed, 0]).astype(np.int64)
    return Data(list(groups.index), counts,
                t("{n} records drawn from the ages of {population} (2020) in k = {n_cat} groups",
                  n=f"{n:,}", population=t(datasets.POPULATIONS[source]), n_cat=n_cat), source)


def file_data(upload: sources.CategoryCounts) -> Data:
    return Data(upload.labels, upload.counts.astype(np.int64), upload.what, UPLOAD)


def reps_cap(n_cat: int, l: int) -> int:
    """The largest R with R·N²·(l + 1) within MAX_BINOMIALS (MIN_REPS at least)."""
    return max(MIN_REPS, MAX_BINOMIALS // (n_cat * n_cat * (l + 1)))


def budget_reps(chosen: int, n_cat: int, l: int) -> int:
    """R reduced so that R·k²·(l + 1) stays within MAX_BINOMIALS (to MIN_REPS at least)."""
    return min(chosen, reps_cap(n_cat, l))


def reps_from_url(text) -> int | None:
    """R as a link writes it ("100", "1,000", "13"): a whole number from MIN_REPS to the
    grid's largest step, or None (unusable). A value between the grid's steps is kept: the
    control offers it as a step of its own (an R reduced to the budget and then chosen)."""
    try:
        value = float(str(text).replace(",", ""))
    except ValueError:
        return None
    if not (math.isfinite(value) and value == int(value)):
        return None
    return int(value) if MIN_REPS <= value <= REPS_GRID[-1] else None


def reps_options(used: int, cap: int) -> tuple[int, ...]:
    """The R control's steps: the grid's steps up to the budget's cap, with the R in use as
    a step of its own (so the control shows the R in use, never a larger one)."""
    return tuple(sorted({r for r in REPS_GRID if r <= cap} | {used}))


def reduced_caption(s: Settings) -> str:
    return t("R = {chosen} chosen is reduced to R = {reps} for k = {n_cat} categories and "
             "l = {l}, which keeps a rerun under about a quarter of a second (about "
             "R·k²·(l + 1) ≤ 5·10⁶ random draws); R = {chosen} comes back when k or l allow it. "
             "The paper grid uses R = {chosen}.", reps=f"{s.reps:,}", n_cat=s.n_categories,
             l=s.l, chosen=f"{s.reps_chosen:,}")


# --- The summary (above the tabs) ------------------------------------------------------------

def keep_and_move(s: Settings) -> tuple[float, float]:
    """One substitution's probabilities: keep the value (γx), move to one given other (x)."""
    matrix = rs.gamma_diagonal_matrix(s.n_categories, s.gamma)
    return float(matrix[0, 0]), float(matrix[1, 0])


def epsilon_l(s: Settings) -> float:
    return rs.extended_epsilon(s.n_categories, s.gamma, s.l)


def one_person(s: Settings, gamma: float | None = None) -> oneperson.Level:
    """What the release means for one record at γ (this page's, or ``gamma``), with this
    page's k and l: the release is ε_l-LDP (:func:`epsilon_l`), whose odds bound it is."""
    g = s.gamma if gamma is None else gamma
    eps = rs.extended_epsilon(s.n_categories, g, s.l)
    return oneperson.Level(
        risk.Guarantee.pure(eps), t("γ = {gamma} (ε = {eps})", gamma=fmt_param(g),
                                    eps=fmt_sig(eps)),
        t("What one record releases is ε-LDP with ε = {eps} (ln γ at l = 1): read “in the "
          "data” below as “the record holds this value rather than that one”.",
          eps=fmt_sig(eps)))


def one_person_comparison(s: Settings) -> oneperson.Comparison:
    """Compare with another γ, at this page's k and l."""
    return oneperson.Comparison(t("Compare with γ"), oneperson.GAMMA_GRID, 20.0,
                                lambda g: one_person(s, g))


def in_plain_words(s: Settings) -> str:
    keep, other = keep_and_move(s)
    eps_l = epsilon_l(s)
    extended = "" if s.l == 1 else t(
        " With l = {l} every record is substituted {l} times, a value already drawn is drawn "
        "again, and the record releases its {l} distinct values: exactly **ε_l = {eps_l}**, "
        "less than Kang, Lee & Hong's (2009) bound l × ln γ = {bound}.",
        l=s.l, eps_l=fmt_sig(eps_l), bound=fmt_sig(s.l * math.log(s.gamma)))
    return t("**In plain words.** Data: {what}. One substitution keeps a record's value with "
             "probability γx = {keep} and otherwise moves it to one of the other "
             "k − 1 = {others} values, each with probability x = {other}. Any output is at "
             "most γ = {gamma} times more likely under one true value than under another: "
             "**ε = ln γ = {log_gamma}-local differential privacy**, k-ary randomized response "
             "with k = {k}.{extended}", what=s.data.what_md, keep=fmt_prob(keep),
             others=s.n_categories - 1, other=fmt_prob(other), gamma=fmt_number(s.gamma),
             log_gamma=fmt_sig(math.log(s.gamma)), k=s.n_categories, extended=extended)


def summary_finding(s: Settings) -> str:
    # The exact relative standard errors: no simulation, microseconds.
    errors = {kind: rs.expected_standard_error(s.x, s.gamma, s.l, estimator=kind)
              for kind in KINDS}
    eps_l = epsilon_l(s)
    if s.l == 1:
        return t("With γ = {gamma} and l = 1 (k = {n_cat} categories, N = {n} records) every "
                 "record's release is ε = ln γ = {eps_l}-locally differentially private "
                 "(k-ary randomized response); the reconstruction M⁻¹Y has a "
                 "relative standard error σ_X̂/‖X‖ of {unbiased} (exact).",
                 gamma=fmt_number(s.gamma), n_cat=s.n_categories, n=f"{s.n:,}",
                 eps_l=fmt_sig(eps_l, 3), unbiased=fmt_sig(errors["unbiased"], 3))
    return t("With γ = {gamma}, l = {l} (k = {n_cat} categories, N = {n} records) every "
             "record's release is ε_l = {eps_l}-locally differentially private, against "
             "{bound} for Kang, Lee & Hong's (2009) bound l × ln γ; the unbiased reconstruction "
             "A⁻¹Y* has a relative standard error σ_X̂/‖X‖ of {unbiased}, Kang, Lee & Hong's "
             "X̂*/l {source} (exact).", gamma=fmt_number(s.gamma), l=s.l, n_cat=s.n_categories,
             n=f"{s.n:,}", eps_l=fmt_sig(eps_l, 3), bound=fmt_sig(s.l * math.log(s.gamma), 3),
             unbiased=fmt_sig(errors["unbiased"], 3), source=fmt_sig(errors["source"], 3))


def reduced_note(s: Settings) -> str:
    return t("R is reduced from {chosen} to {reps} for k = {n_cat} and l = {l}, which keeps a "
             "rerun under about a quarter of a second.", chosen=f"{s.reps_chosen:,}",
             reps=f"{s.reps:,}", n_cat=s.n_categories, l=s.l)


# --- The labels of the numbers shown, and the view as code (dpcode.substitution) ---------------

TAB_CODES = dict(zip(TABS, dpcode.substitution.TABS))


def labels(s: Settings) -> dict[str, str]:
    """The labels of the numbers the view shows (its metrics, and numbers of its captions and
    tables), by name: the view shows them and its code prints them, the same strings."""
    found = {
        "k": t("Categories k"), "n": t("Records N"), "keep": t("Keep: γx"),
        "other": t("Each other value: x"), "eps_l": t("ε_l (l = {l})", l=s.l),
        "draws_used": t("Random draws used"), "nl": t("N·l"),
        "bound": t("Theorem 4.1 bound / √l"), "above": t("First l above the bound / √l"),
        "draws_release": t("Draws, this release"),
        "mean_draws": t("Mean draws over R = {reps}", reps=f"{s.reps:,}"),
        "expected_draws": t("Expected draws"), "draws_ratio": t("Expected draws / (N·l)"),
        "collision": t("P[s ≥ 2] (Theorem 5.1)"),
        "gamma": t("γ-amplification"), "log_gamma": t("ε = ln γ"),
        "condition": t("Condition number of M"),
        "eps_bound": t("Kang, Lee & Hong's bound γ^l: ε = l × ln γ"),
        "eps_exact": t("Exact ε_l of the released set"),
        "eps_ordered": t("ε if the order were released"),
        "threshold": t("No breach below ρ₂(1 − ρ₁)/(ρ₁(1 − ρ₂))"),
        "pi": t("π"), "l_gamma_x": t("l·γx"),
    }
    for kind in KINDS:
        found |= {f"release_{kind}": t("‖X̂ − X‖/‖X‖, {short}", short=short(kind)),
                  f"simulated_{kind}": t("Simulated, {short}", short=short(kind)),
                  f"simulated_se_{kind}": t("Simulated, {short}: Monte Carlo SE",
                                            short=short(kind)),
                  f"exact_{kind}": t("Exact, {short}", short=short(kind)),
                  f"bias_{kind}": t("Relative bias, {short}", short=short(kind)),
                  f"bias_exact_{kind}": t("Exact error, {short}", short=short(kind))}
    return found


def breach_label(release: str, column: str) -> str:
    """The label of a number of the breach table: its row's release and its column."""
    return f"{release}: {column}"


def code_builder(s: Settings):
    """The view's code for the kit's Code button: link -> Program."""
    if s.source == UPLOAD:
        source = dpcode.substitution.Source(UPLOAD, labels=tuple(s.data.labels), counts=s.x)
    else:
        source = dpcode.substitution.Source(s.source, k=s.n_categories, n=s.n)
    names = labels(s) | {"tab": t(s.tab)}
    breach = None
    if s.rho1 is not None:
        posterior, verdict = breach_columns(s)  # the largest posterior as the labels say it
        names |= {"breach_rows": breach_names(s), "breach_columns": (t(posterior), verdict)}
        breach = (s.rho1, s.rho2)

    def build(link: str) -> dpcode.Program:
        usable = breach
        if usable is not None:
            try:  # the page shows an error instead of the breaches (and offers their code)
                rs.breach_gamma(*usable)
            except ValueError:
                usable = None
        view = dpcode.substitution.View(
            source=source, gamma=s.gamma, l=s.l, reps=s.reps, reps_chosen=s.reps_chosen,
            seed=s.seed, tab=TAB_CODES[s.tab], l_chart=L_CHART, breach=usable, labels=names)
        return dpcode.substitution.program(view, link=link, title=t(TITLE))
    return build


# --- Simulations shared by the tabs ------------------------------------------------------------

@counted(st.cache_data(max_entries=16, show_spinner=False))
def simulated_errors(counts: tuple[int, ...], gamma: float, l: int, reps: int,
                     seed: int) -> pd.DataFrame:
    """error_table for the chosen l: R releases from the stream [seed, 2]."""
    return rs.error_table(np.array(counts, dtype=np.int64), gamma, [l], reps=reps,
                          rng=[seed, 2])


@counted(st.cache_data(max_entries=4, show_spinner=False))
def simulated_estimates(counts: tuple[int, ...], gamma: float, l: int, reps: int,
                        seed: int) -> dict[str, np.ndarray]:
    """Both reconstructions of the same R releases as error_table's (stream [seed, 2])."""
    release = rs.extended_random_substitution(np.array(counts, dtype=np.int64), gamma, l,
                                              size=reps, rng=[seed, 2])
    return {"source": rs.reconstruct(release.counts, gamma, l=l),
            "unbiased": rs.reconstruct_unbiased(release.counts, gamma, l)}


def _counts_key(s: Settings) -> tuple[int, ...]:
    return tuple(int(v) for v in s.x)


def errors_of(s: Settings) -> pd.DataFrame:
    """The simulated and exact errors at the chosen l, one row per estimator."""
    return simulated_errors(_counts_key(s), s.gamma, s.l, s.reps, s.seed).set_index("estimator")


def estimates_of(s: Settings) -> dict[str, np.ndarray]:
    return simulated_estimates(_counts_key(s), s.gamma, s.l, s.reps, s.seed)


def one_release(s: Settings) -> rs.ExtendedRelease:
    """The release of the first tab: Algorithm 2 (Algorithm 1 at l = 1), stream [seed, 1]."""
    return rs.extended_random_substitution(s.x, s.gamma, s.l, rng=[s.seed, 1])


def l_values(s: Settings) -> range:
    """The l of the charts of error and cost: 1 … min(N − 1, 20), extended to the chosen l."""
    return range(1, max(min(s.n_categories - 1, L_CHART), s.l) + 1)


# --- 1. Release and reconstruction -------------------------------------------------------------

def released_name(s: Settings) -> str:
    return "Y" if s.l == 1 else "Y*"


def reconstructions(s: Settings, y: np.ndarray) -> dict[str, np.ndarray]:
    return {"source": rs.reconstruct(y, s.gamma, l=s.l),
            "unbiased": rs.reconstruct_unbiased(y, s.gamma, s.l)}


def one_release_errors(s: Settings, estimates: dict[str, np.ndarray]) -> dict[str, float]:
    """dpcore.substitution's relative error √(mean ‖X̂ − X‖²)/‖X‖, here of one release."""
    return {kind: rs._relative_error(estimates[kind], s.x.astype(float))[0] for kind in KINDS}


def release_intro(s: Settings) -> str:
    if s.l == 1:
        return t("One release of Algorithm 1: Y counts how many records released each value. "
                 "The server knows M and inverts it.")
    return t("One release of Algorithm 2 with l = {l}: Y* counts how many records released "
             "each value (each record counts in {l} categories, so Y* sums to N·l; it is drawn "
             "divided by l). The server knows M and inverts it.", l=s.l)


def release_finding(s: Settings, errors: dict[str, float], draws: int) -> str:
    if s.l == 1:
        return t("One release of Algorithm 1 (seed {seed}): its reconstruction M⁻¹Y is off by "
                 "‖X̂ − X‖/‖X‖ = {unbiased}.", seed=s.seed,
                 unbiased=fmt_sig(errors["unbiased"], 3))
    return t("One release of Algorithm 2 with l = {l} (seed {seed}): the reconstruction is off "
             "by ‖X̂ − X‖/‖X‖ = {source} for Kang, Lee & Hong's (2009) X̂*/l and {unbiased} for "
             "the unbiased A⁻¹Y*; it took {draws} random draws for N·l = {values} released "
             "values.", l=s.l, seed=s.seed, source=fmt_sig(errors["source"], 3),
             unbiased=fmt_sig(errors["unbiased"], 3), draws=f"{draws:,}",
             values=f"{s.n * s.l:,}")


def release_table(s: Settings, y: np.ndarray, estimates: dict[str, np.ndarray]) -> pd.DataFrame:
    return pd.DataFrame({"category": s.data.labels, "X (true)": s.x,
                         f"{released_name(s)} (released)": y,
                         "X̂*/l (source)": estimates["source"],
                         "A⁻¹Y* (unbiased)": estimates["unbiased"]})


# --- 2. Accuracy -------------------------------------------------------------------------------

def error_curves(s: Settings) -> pd.DataFrame:
    """Theorem 4.1's bound / √l and both exact errors at every l of the chart."""
    return pd.DataFrame([
        {"l": j, "bound": rs.standard_error_bound(s.n_categories, s.n, s.gamma, j),
         "source": rs.expected_standard_error(s.x, s.gamma, j),
         "unbiased": rs.expected_standard_error(s.x, s.gamma, j, estimator="unbiased")}
        for j in l_values(s)])


def first_l_above_bound(curves: pd.DataFrame) -> int | None:
    """The first l at which an exact error exceeds the bound / √l, if any."""
    above = curves[(curves["source"] > curves["bound"]) | (curves["unbiased"] > curves["bound"])]
    return int(above["l"].min()) if len(above) else None


def accuracy_finding(s: Settings, errors: pd.DataFrame) -> str:
    simulated = {kind: f"{fmt_sig(errors.loc[kind, 'actual'], 3)} ± "
                       f"{fmt_sig(errors.loc[kind, 'actual_se'], 2)}" for kind in KINDS}
    values = dict(reps=f"{s.reps:,}", unbiased=simulated["unbiased"],
                  bound=fmt_sig(float(errors["bound"].iloc[0]), 3))
    if s.l == 1:
        return t("Over R = {reps} simulated releases the relative standard error σ_X̂/‖X‖ is "
                 "{unbiased} (exactly {exact}); Theorem 4.1's bound / √l is {bound}.",
                 **values, exact=fmt_sig(errors.loc["unbiased", "exact"], 3))
    return t("Over R = {reps} simulated releases the relative standard error σ_X̂/‖X‖ is "
             "{source} for Kang, Lee & Hong's (2009) X̂*/l and {unbiased} for the unbiased "
             "A⁻¹Y* (exactly {exact_source} and {exact_unbiased}); Theorem 4.1's bound / √l "
             "is {bound}.", **values, source=simulated["source"],
             exact_source=fmt_sig(errors.loc["source", "exact"], 3),
             exact_unbiased=fmt_sig(errors.loc["unbiased", "exact"], 3))


def above_note(first: int) -> str:
    return t("Theorem 5.2's 1/√l assumes the l draws of a record are independent; Algorithm 2 "
             "re-draws repeated values, so the exact errors fall more slowly: here the bound / "
             "√l no longer bounds them from l = {first}.", first=first)


def accuracy_caption(first: int | None) -> str:
    return t("At l = 1 the bound sits above the truth: it replaces ‖X‖ by its smallest "
             "possible value N/√k, which only uniform data reach. Its 1/√l (Theorem 5.2) "
             "assumes the l draws of a record are independent; Algorithm 2 re-draws repeated "
             "values, so the exact errors fall more slowly, and Kang, Lee & Hong's (2009) X̂*/l "
             "rises again "
             "once its bias dominates.{here}", here="" if first is None else t(
                 " Here the bound / √l no longer bounds them from l = {first}.", first=first))


PAPER_CELLS = (len(rs.PAPER_SHAPES) * len(rs.PAPER_SETTINGS) * len(rs.PAPER_N)
               * len(rs.PAPER_L))


@counted(st.cache_data(max_entries=4, show_spinner=False))
def paper_grid(reps: int, seed: int, _progress=None) -> dict:
    """The source's Section 6 grid with R = reps (stream [seed, 5]) and how long it took:
    {"table", "seconds"}. ``_progress(fraction, label)`` (not part of the cache key) is told 0
    at the start, then after each cell; a cached result replays what it showed."""
    if _progress is not None:
        _progress(0.0, "")
    start = time.perf_counter()
    table = rs.paper_grid(reps=reps, rng=[seed, 5], progress=_progress)
    return {"table": table, "seconds": time.perf_counter() - start}


def grid_layout(table: pd.DataFrame) -> pd.DataFrame:
    """paper_grid's rows in Kang, Lee & Hong's layout: one row per (shape, k, γ, N), a column
    group per l with the actual errors, the bound / √l and the mean draws."""
    rows = []
    for (shape, n_cat, gamma, n), group in table.groupby(["shape", "N", "gamma", "n"],
                                                         sort=False):
        data = t("data")
        row = {(data, t("shape")): t(datasets.SHAPES[shape]), (data, "k"): int(n_cat),
               (data, "γ"): float(gamma), (data, "N"): int(n)}
        for l, cell in group.groupby("l", sort=True):
            by = cell.set_index("estimator")
            row |= {(f"l = {l}", "X̂*/l"): by.loc["source", "actual"],
                    (f"l = {l}", "A⁻¹Y*"): by.loc["unbiased", "actual"],
                    (f"l = {l}", t("bound")): by.loc["source", "bound"],
                    (f"l = {l}", t("draws")): by.loc["source", "draws"]}
        rows.append(row)
    wide = pd.DataFrame(rows)
    wide.columns = pd.MultiIndex.from_tuples(wide.columns)
    return wide


def grid_intro(reps: int) -> str:
    return t("Every cell of Kang, Lee & Hong's (2009) grid: uniform and normal data, (k, γ) = "
             "(50, 5) and (100, 10), N = 5,000 and 50,000, l = 1, 2 and 4: 24 cells, R = {reps} "
             "releases each (Kang, Lee & Hong use 100). They do not say which normal: here it "
             "is the discretisation of Son, Park & Jung (2022, section 2.3), so the normal rows "
             "need not be their data. Cost: the mean number of random draws, re-draws "
             "included. Its CSV keeps Kang, Lee & Hong's letters: N for the categories k, n for "
             "the records N.", reps=f"{reps:,}")


def grid_caption(reps: int, seed: int, seconds: float) -> str:
    return t("For each l: the actual errors √(mean ‖X̂ − X‖²)/‖X‖ of X̂*/l (Kang, Lee & Hong's) "
             "and "
             "of A⁻¹Y*, Theorem 4.1's bound / √l, and the mean number of random draws. "
             "R = {reps} releases per cell, seed {seed}; ran in {seconds:.1f} s. Its CSV has "
             "every cell and estimator with the Monte Carlo standard errors, the exact errors, "
             "the relative bias, N·l and the exact expected draws.",
             reps=f"{reps:,}", seed=seed, seconds=seconds)


# --- 3. Cost -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Cost:
    expected: float  # expected draws of a release
    collision: float  # P[s ≥ 2], Theorem 5.1

    @classmethod
    def of(cls, s: Settings) -> Cost:
        return cls(rs.expected_draws(s.n, s.n_categories, s.gamma, s.l),
                   rs.collision_probability(s.n_categories, s.gamma, s.l))


def cost_table(s: Settings) -> pd.DataFrame:
    return pd.DataFrame([
        {"l": j, "draws_ratio": rs.expected_draws(s.n, s.n_categories, s.gamma, j) / (s.n * j),
         "collision": rs.collision_probability(s.n_categories, s.gamma, j)}
        for j in l_values(s)])


def cost_finding(s: Settings, cost: Cost, draws: int) -> str:
    if s.l == 1:
        return t("At l = 1 every record takes one random draw: no re-draws.")
    ratio = cost.expected / (s.n * s.l)
    return t("Algorithm 2 is expected to take {expected} random draws for the N·l = {values} "
             "released values ({ratio} per value, {redraws} re-draws; this release "
             "took {draws}); without re-draws, l = {l} independent draws would repeat a value "
             "for a record with probability {collision} (Theorem 5.1).",
             expected=fmt_count(cost.expected), values=f"{s.n * s.l:,}", ratio=fmt_sig(ratio),
             redraws=f"{fmt_sig(100 * (ratio - 1), 3)}%", draws=f"{draws:,}", l=s.l,
             collision=fmt_prob(cost.collision))


# --- 4. Privacy --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Privacy:
    """ε of one substitution and of the l-extended release."""

    log_gamma: float  # ε = ln γ of one substitution
    eps_l: float  # the exact ε_l of the released set
    eps_ordered: float  # ε if the l values were released in the order drawn
    eps_bound: float  # Kang, Lee & Hong's bound l × ln γ

    @classmethod
    def of(cls, s: Settings) -> Privacy:
        return cls(math.log(s.gamma), epsilon_l(s),
                   rs.extended_epsilon(s.n_categories, s.gamma, s.l, ordered=True),
                   s.l * math.log(s.gamma))


def condition_number(s: Settings) -> str:
    return fmt_big(rs.condition_number(s.n_categories, s.gamma))


def epsilon_table(s: Settings) -> pd.DataFrame:
    log_gamma = math.log(s.gamma)
    return pd.DataFrame([
        {"l": j, "bound": j * log_gamma,
         "ordered": rs.extended_epsilon(s.n_categories, s.gamma, j, ordered=True),
         "exact": rs.extended_epsilon(s.n_categories, s.gamma, j)}
        for j in range(1, s.n_categories)])


def overstated_caption(e: Privacy) -> str:
    return t("The bound overstates ε by {excess} (a factor {factor} in probability "
             "ratio): the set hides which of its values was drawn first, and a repeated own "
             "value is drawn again instead of being released twice.",
             excess=fmt_sig(e.eps_bound - e.eps_l),
             factor=fmt_big(amplification(e.eps_bound - e.eps_l)))


def privacy_finding(s: Settings, e: Privacy) -> str:
    if s.l == 1:
        return t("One substitution with γ = {gamma} is exactly ε = ln γ = {log_gamma}-"
                 "locally differentially private; its price is the condition number of M, "
                 "{condition}: how much inverting M amplifies noise.",
                 gamma=fmt_number(s.gamma), log_gamma=fmt_sig(e.log_gamma, 3),
                 condition=condition_number(s))
    return t("Kang, Lee & Hong's (2009) bound l × ln γ = {bound} overstates the exact ε_l = "
             "{eps_l} by a factor {factor} in probability ratio: the released set hides the "
             "order of its values (released in the order drawn, ε = {ordered}).",
             bound=fmt_sig(e.eps_bound, 3), eps_l=fmt_sig(e.eps_l, 3),
             factor=fmt_big(amplification(e.eps_bound - e.eps_l)),
             ordered=fmt_sig(e.eps_ordered, 3))


def breach_table(s: Settings, e: Privacy, threshold: float) -> pd.DataFrame:
    """Theorem 3.1 for one substitution, the l-extended release and Kang, Lee & Hong's bound
    (the numbers; the page shows them with ``breach_shown``)."""
    posterior, verdict = breach_columns(s)
    rows = zip(breach_names(s), (e.log_gamma, e.eps_l, e.eps_bound))
    return pd.DataFrame([
        {"release": name, "amplification": fmt_big(amplification(eps)), "ε": eps,
         verdict: "yes" if eps < math.log(threshold) else "no",
         posterior: rs.posterior_bound(s.rho1, amplification(eps))}
        for name, eps in rows])


def breach_names(s: Settings) -> tuple[str, str, str]:
    """The breach table's rows: one substitution, the l-extended release, the source's bound."""
    return (t("random substitution, l = 1: γ"),
            t("l-extended release, l = {l}: e^ε_l (exact)", l=s.l),
            t("Kang, Lee & Hong's bound, l = {l}: γ^l", l=s.l))


def breach_columns(s: Settings) -> tuple[str, str]:
    """The breach table's columns of the largest posterior and of the verdict."""
    return "largest posterior", f"no {s.rho1:g}→{s.rho2:g} breach"


def breach_finding(s: Settings, e: Privacy, threshold: float) -> str:
    values = dict(rho1=fmt_prob(s.rho1), rho2=fmt_prob(s.rho2), threshold=fmt_sig(threshold),
                  eps=fmt_sig(math.log(threshold), 3), l=s.l, eps_l=fmt_sig(e.eps_l, 3),
                  posterior=fmt_prob(rs.posterior_bound(s.rho1, amplification(e.eps_l))))
    if e.eps_l < math.log(threshold):
        return t("A {rho1}→{rho2} privacy breach is impossible below an amplification of "
                 "{threshold} (ε < {eps}): the release with l = {l} rules it out (ε_l = "
                 "{eps_l}; a prior of {rho1} becomes a posterior of at most {posterior}).",
                 **values)
    return t("A {rho1}→{rho2} privacy breach is impossible below an amplification of "
             "{threshold} (ε < {eps}): the release with l = {l} does not rule it out (ε_l = "
             "{eps_l}; a prior of {rho1} becomes a posterior of at most {posterior}).",
             **values)


def breach_shown(table: pd.DataFrame) -> pd.DataFrame:
    """``breach_table`` as the page shows it: ε to 4 significant digits, the largest
    posterior as a probability (0.99995, never a rounded 1), as text, and the verdict in
    words; its CSV keeps the numbers (and the headers, breach_headers)."""
    verdict = table.columns[3]
    return table.assign(**{"ε": table["ε"].map(fmt_sig),
                           "largest posterior": table["largest posterior"].map(fmt_prob),
                           verdict: table[verdict].map({"yes": t("yes"), "no": t("no")})})


def breach_headers(s: Settings) -> dict[str, str]:
    """The breach table's headers as the page shows them, by column (its CSV keeps the
    columns' names)."""
    posterior, verdict = breach_columns(s)
    return {"release": t("release"), "amplification": t("amplification"),
            verdict: t("no {rho1}→{rho2} breach", rho1=f"{s.rho1:g}", rho2=f"{s.rho2:g}"),
            posterior: t("largest posterior")}


def release_headers(s: Settings) -> dict[str, str]:
    """The release table's headers as the page shows them, by column (its CSV keeps the
    columns' names)."""
    released = released_name(s)
    return {"category": t("category"), "X (true)": t("X (true)"),
            f"{released} (released)": t("{released} (released)", released=released),
            "X̂*/l (source)": t(SHORT["source"]), "A⁻¹Y* (unbiased)": t(SHORT["unbiased"])}


def breach_caption(threshold: float) -> str:
    return t("No breach needs an amplification below ρ₂(1 − ρ₁)/(ρ₁(1 − ρ₂)) = {threshold} "
             "(ε < {eps}). The largest posterior is γρ₁/(γρ₁ + 1 − ρ₁) with the "
             "amplification in place of γ.", threshold=fmt_sig(threshold),
             eps=fmt_sig(math.log(threshold)))


def ldp_link(s: Settings) -> tuple[links.PageLink, str, list[str]]:
    """l = 1 is k-RR with e^ε = γ: the link to the randomized response page's
    guarantee (with the same age groups for a population), its label and what it could not
    carry as it is."""
    log_gamma = math.log(s.gamma)
    link = links.to_ldp(log_gamma, source=s.source, k=s.n_categories)
    eps = link.used["eps"]
    label = (t("See k-RR at ε = {eps} with the same k = {k} age groups on the randomized "
               "response page", eps=fmt_number(eps), k=s.n_categories)
             if s.source in datasets.POPULATIONS else
             t("See k-RR at ε = {eps} on the randomized response page", eps=fmt_number(eps)))
    notes = [] if eps == log_gamma else [
        nearest_note(t("ln γ = {log_gamma}", log_gamma=fmt_sig(log_gamma)), t("ε slider"),
                     fmt_number(eps))]
    return link, label, notes


def fdp_link(s: Settings) -> tuple[links.PageLink, str, list[str]]:
    """The link to random substitution's trade-off curve on the f-DP page, its label and what
    it could not carry as it is."""
    link = links.to_fdp_substitution(s.gamma, s.n_categories)
    gamma, n = link.used["gamma"], link.used["n"]
    label = t("See the trade-off curve of random substitution with γ = {gamma}, k = {n} on the "
              "f-DP page", gamma=fmt_number(gamma), n=n)
    notes = []
    if n != s.n_categories:
        notes.append(capped_note("k", links.FdpParams.K_MAX, n, s.n_categories))
    if gamma != s.gamma:
        notes.append(nearest_note(t("γ = {gamma}", gamma=fmt_number(s.gamma)), t("γ slider"),
                                  fmt_number(gamma)))
    return link, label, notes


# --- 5. Bias -----------------------------------------------------------------------------------

def inclusion(s: Settings) -> tuple[float, float]:
    """π, the probability that a record's own value is in its set of l values, and l·γx,
    what l independent draws would give."""
    return (rs.inclusion_probability(s.n_categories, s.gamma, s.l),
            s.l * rs.inclusion_probability(s.n_categories, s.gamma, 1))


def bias_caption(s: Settings) -> str:
    pi, independent = inclusion(s)
    return t("Here π = {pi}, against l·γx = {independent} in l·M.", pi=fmt_prob(pi),
             independent=fmt_sig(independent))


def smaller_error(errors: pd.DataFrame) -> str:
    source_smaller = errors.loc["source", "exact"] < errors.loc["unbiased", "exact"]
    return t("Kang, Lee & Hong's (2009) X̂*/l") if source_smaller else t("the unbiased A⁻¹Y*")


def bias_finding(s: Settings, errors: pd.DataFrame) -> str:
    source, unbiased = errors.loc["source", "exact"], errors.loc["unbiased", "exact"]
    if s.l == 1:
        return t("At l = 1 there is no re-randomisation: the reconstruction M⁻¹Y is unbiased "
                 "(Theorem 3.2), its relative standard error {source}.",
                 source=fmt_sig(source, 3))
    return t("Kang, Lee & Hong's (2009) X̂*/l is biased by {bias} of ‖X‖ (exactly), for any N "
             "with these proportions; A⁻¹Y* is unbiased. Here {smaller} has the smaller total "
             "error ({source} for X̂*/l, {unbiased} for A⁻¹Y*); the variance part of either "
             "falls like 1/√N.", bias=fmt_rel(errors.loc["source", "bias"]),
             smaller=smaller_error(errors), source=fmt_sig(source, 3),
             unbiased=fmt_sig(unbiased, 3))


def bias_against_variance(errors: pd.DataFrame) -> str:
    return t("**Bias against variance.** Here {smaller} has the smaller total error "
             "({source} for X̂*/l, {unbiased} for A⁻¹Y*): dividing by l·M instead of A "
             "shrinks the estimate towards the uniform distribution, which lowers its "
             "variance. But its relative bias, {bias}, stays the same for any N with these "
             "proportions, while the variance part of either error falls like 1/√N: with more "
             "records the unbiased reconstruction wins.", smaller=smaller_error(errors),
             source=fmt_sig(errors.loc["source", "exact"]),
             unbiased=fmt_sig(errors.loc["unbiased", "exact"]),
             bias=fmt_rel(errors.loc["source", "bias"]))
