"""The logic of the page "Test calibration" (views/calibration.py): its settings, its
computations, and the sentences and tables it shows. No layout here.

The page has four tabs, each with settings of its own: the null distributions
(:class:`NullSettings`), the live simulation of rejection rates in a form
(:class:`LiveSettings`), the filters of the shipped full-scale study
(:class:`StudyFilter`) and those of the shipped extended null grid
(:class:`ExtendedFilter`); :class:`Settings` holds them all with the open tab. The sentences
are pure functions of these and of the rates (tested in tests/test_ui_pages_calibration.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import dpcode
import dpcode.calibration
import dpviz
from dpcore import datasets, planner, risk, simulation, study
from ui import oneperson, registry, sources
from ui.cache import counted
from ui.format import fmt_people, fmt_peoples, fmt_sig, percent_decimals_apart, worded
from ui.notation import SPJ22, in_source, privacy_level
from ui.kit import Experiment
from ui.text import N_, label_family, t

TITLE = registry.CALIBRATION.title
LEVEL = 0.05  # the level of every test on this page
TARGET_POWER = 0.8  # the power the sentences measure each test against
TABS = (N_("Null distributions"), N_("Type-I error and power"), N_("The paper at full scale"),
        N_("Beyond the paper: unequal N and ε"))
TEST_LABELS = {"bootstrap": N_("parametric bootstrap"), "chisq": N_("naive χ²"),
               "normal_score": N_("normal-score contrast"),
               "calibrated": N_("calibrated normal-score")}
# The paper's two tests: shown by default in the live run and the full-scale study (the
# normal-score contrast bootstrap, this project's, is one more option there).
PAPER_TESTS = ("bootstrap", "chisq")
# Work cap of a live run: simulated bins R·(B + 1)·2M summed over its points (about a minute
# here). Fixed, so what is accepted does not depend on how busy the server is.
MAX_UNITS = 1e9

# The null distributions' controls: options and defaults.
NULL_M_OPTIONS, NULL_M_DEFAULT = (5, 10, 20, 50, 100, 200), 20
NULL_N_MIN, NULL_N_MAX, NULL_N_DEFAULT, NULL_N_STEP = 100, 10_000_000, 5050, 50
NULL_ALPHA_DEFAULT = 0.5
NULL_REPS_OPTIONS, NULL_REPS_DEFAULT = (200, 500, 1000, 2000, 5000), 1000
# Null draws (replicates × bins M) computed at once when a control moves; more wait for the
# Simulate button (kit.ask), unless the page or tab was just opened. 100,000 take about
# 0.05 s here; the largest setting, 5,000 × 200, about 0.7 s of one core.
NULL_QUICK_DRAWS = 100_000
# The live simulation's controls.
M_LABELS = {86: N_("86 (single years)"), 18: N_("18 (5-year groups)"),
            9: N_("9 (10-year groups)")}
LIVE_M_DEFAULT = 18
LIVE_ALPHA_DEFAULT = 0.1
LIVE_REPS_OPTIONS, LIVE_REPS_DEFAULT = (50, 100, 200, 500, 1000), 100
LIVE_BOOT_OPTIONS, LIVE_BOOT_DEFAULT = (100, 200, 500, 1000), 100
# The full-scale study's filter of bins.
STUDY_M_OPTIONS = (86, 18, 9)
# The extended null grid: its filters' options (the grid of dpcore.study.extended_grid) and
# the band a calibrated test's type-I error should lie in.
EXTENDED_M_OPTIONS = (86, 18, 9)
EXTENDED_ALPHA_OPTIONS = (1.0, 0.1, 0.01)
EXTENDED_N_OPTIONS = study.EXTENDED_N
EXTENDED_RATIO_OPTIONS = study.EXTENDED_RATIOS
TARGET_BAND = (0.025, 0.075)
# The labels of the numbers the page shows: the null distributions' metrics, and the cells
# of its tables of rates ("{column} at" the row's setting). The view's code prints them.
NULL_LABELS = {"df": N_("χ² reference mean (df)"), "mean_without": N_("Mean without DP"),
               "mean_with": N_("Mean with DP"),
               "type1_without": N_("Naive type-I error without DP"),
               "type1_with": N_("Naive type-I error with DP")}
LIVE_ROW = N_("{column} at N = {n:,}, {test}")
STUDY_ROW = N_("{column} at {pair}, {test}, M = {m}, ε_A = {a1:g}, ε_B = {a2:g}, N = {n:,}")
EXTENDED_ROW = N_("{column} at {test}, M = {m}, ε_A = {a1:g}, ε_B = {a2:g}, N_A = {n:,}, "
                  "N_B = {n2:,}")
# The headers of the tables of rates as shown (their CSV keeps the column names).
RATE_HEADERS = {"cell": N_("cell"), "pair": N_("pair"), "effect": N_("effect"),
                "population_a": N_("population_a"), "population_b": N_("population_b"),
                "test": N_("test"), "rate": N_("rate"), "ci_low": N_("ci_low"),
                "ci_high": N_("ci_high"), "rejections": N_("rejections"),
                "undefined": N_("undefined"), "reps": N_("reps"), "n_boot": N_("n_boot"),
                "level": N_("level"), "seed": N_("seed"), "seconds": N_("seconds")}

# Guided experiments ("Try this"): each sets the page up through its URL, all else default.
EXPERIMENTS = (
    Experiment(
        N_("Set ε = 0.01 and watch the naive χ² test reject identical histograms"),
        N_("There is no difference at all, yet *Naive type-I error with DP* is far above the "
           "test's 5% level (near 100%), while *Naive type-I error without DP* stays near 5%: "
           "the noise, not the data, makes the naive test reject."),
        {"cal_alpha": "0.01"}),
    Experiment(
        N_("Compare Korea with the USA at ε = 0.01 and see the power fall"),
        N_("A large difference, yet at ε = 0.01 the parametric bootstrap test's power at "
           "N = 10,000 people per histogram is close to 0 (at the default ε = 0.1 it is 100% "
           "there); it finds the difference only from about N = 50,000 on. Ten times stronger "
           "privacy costs about ten times the people."),
        {"cal_tab": "Type-I error and power", "cal_pair": "Korea vs USA (large effect)",
         "cal_a1": "0.01", "cal_a2": "0.01", "cal_tests": "parametric bootstrap",
         "cal_reps": "50"}),
)


@label_family(study.PAIRS)
def pair_label(pair: str) -> str:
    """A pair of populations with its effect: "Korea vs USA (large effect)"."""
    a, b, effect = study.PAIRS[pair]
    return t("{a} vs {b} ({effect})", a=sources.population_short(a),
             b=sources.population_short(b), effect=t(effect))


def test_label(test: str) -> str:
    return t(TEST_LABELS.get(test, test))


def rates_shown(table: pd.DataFrame) -> pd.DataFrame:
    """A table of rates as the page shows it: pairs, effects, populations and tests in the
    reader's words (its CSV keeps the names: the page kit's ``csv=``)."""
    def pair(p):
        a, b, _ = study.PAIRS[p]
        return t("{a} vs {b}", a=sources.population_short(a), b=sources.population_short(b))

    return worded(table, {"pair": lambda p: pair(p) if p in study.PAIRS else p,
                          "effect": t, "population_a": sources.population_short,
                          "population_b": sources.population_short, "test": test_label})


def m_label(m: int) -> str:
    return t(M_LABELS[m])


def privacy_label(levels: tuple[float, float]) -> str:
    """Privacy levels (ε_A, ε_B) as the filter shows them: "0.1, 0.1"."""
    return f"{levels[0]:g}, {levels[1]:g}"


def alpha_label(alpha: float) -> str:
    """One privacy level as a filter shows it: "0.01"."""
    return f"{alpha:g}"


def ratio_label(ratio: float) -> str:
    """N_B / N_A as a filter shows it: "10"."""
    return f"{ratio:g}"


def setting_label(row) -> str:
    """A setting of the extended grid: "M = 86, (ε_A, ε_B) = (0.01, 0.1), (N_A, N_B) =
    (1,000, 10,000)"."""
    return t("M = {m}, (ε_A, ε_B) = ({a1:g}, {a2:g}), (N_A, N_B) = ({n:,}, {n2:,})",
             m=int(row["m"]), a1=row["alpha1"], a2=row["alpha2"], n=int(row["n"]),
             n2=int(row["n2"]))


def one_person(tab: str, null: "NullSettings", live: "LiveSettings") -> oneperson.Level:
    """What a release at the open tab's privacy level means for one person: the live
    simulation's larger ε (a person is in one histogram; the weaker level bounds both) on
    its tab, else the null distributions' ε."""
    if tab == t(TABS[1]):
        eps = max(live.a1, live.a2)
        what = t("The simulation's histograms are released at ε_A = {a:g} and ε_B = {b:g}; "
                 "below, the larger, which bounds both.", a=live.a1, b=live.a2)
    else:
        eps = null.alpha
        what = t("Each histogram of the null distributions (first tab) is released with "
                 "ε-differential privacy at ε = {eps:g}.", eps=eps)
    return oneperson.Level(risk.Guarantee.pure(eps), f"ε = {eps:g}", what)


# --- a number box that shows the value in use ------------------------------------------------


def privacy_label_first() -> str:
    """The label of a page's first privacy control, with Son, Park & Jung (2022)'s symbol:
    "Privacy level ε (α in Son, Park & Jung 2022)"."""
    return t("Privacy level {eps}", eps=privacy_level())


def privacy_help(side: str | None = None, *, shared: bool = False) -> str:
    """The help of a privacy control (ε of the Laplace mechanism): of both histograms
    (``side`` None), of histogram ``side`` ("A" or "B"), or, ``shared``, of the planner's
    first control (ε of both histograms, or ε_A of histogram A when B has its own)."""
    source = in_source("α", SPJ22)
    if shared:
        return t("Privacy level ε, or ε_A of histogram A when B has its own, {source}: the "
                 "Laplace mechanism adds noise Lap(2/ε) to every count. Smaller ε = stronger "
                 "privacy = more noise. Log scale, 0.001 to 10.", source=source)
    if side is not None:
        return t("Privacy level ε of histogram {side} {source}: the Laplace mechanism adds "
                 "noise Lap(2/ε) to every count. Smaller ε = stronger privacy = more noise. "
                 "Log scale, 0.001 to 10.", side=side, source=source)
    return t("Privacy level ε {source}: the Laplace mechanism adds noise Lap(2/ε) to every "
             "count. Smaller ε = stronger privacy = more noise. Log scale, 0.001 to 10.",
             source=source)


def outside_note(symbol: str, asked: float, used: float, low: float, high: float) -> str:
    """Why a number outside a box's range was replaced by the range's nearest end."""
    if asked < low:
        return t("{symbol} = {asked} is below the smallest the page allows, {low}: "
                 "{symbol} = {used} is used.", symbol=symbol, asked=_num(asked),
                 low=_num(low), used=_num(used))
    return t("{symbol} = {asked} is above the largest the page allows, {high}: "
             "{symbol} = {used} is used.", symbol=symbol, asked=_num(asked),
             high=_num(high), used=_num(used))


def _num(v: float) -> str:
    return f"{int(v):,}" if float(v) == int(v) else fmt_sig(float(v), 6)


def number_box(label: str, low: float, high: float, *, default, key: str, symbol: str,
               url_in: dict, **kwargs):
    """A number box, kept in the URL parameter ``key``, that shows the value the page
    computes with. A number typed (or linked) outside [low, high] is not refused by the
    box, which then turned red and kept the old value silently ("Press Enter to apply"):
    it is replaced by the range's nearest end, which the box shows, and a caption says
    so. ``url_in``: the kit's link values in use (a linked value replaced here is said by
    the caption, not named as unusable)."""
    note_key = f"{key}_outside"
    whole = isinstance(default, int)

    def used(v: float):
        clamped = min(max(v, low), high)
        return int(round(clamped)) if whole else float(clamped)

    def clamp() -> None:
        v = st.session_state.get(key)
        if v is None:
            st.session_state[key] = default
            v = default
        if used(v) != v:
            st.session_state[key] = used(v)
            st.session_state[note_key] = (v, used(v))
        else:
            st.session_state.pop(note_key, None)

    pending_key, carried_key = f"{key}_pending", f"{key}_link_in"
    if pending_key in st.session_state:  # the rerun after a linked value outside the range
        st.session_state[key] = st.session_state.pop(pending_key)
        url_in.update(st.session_state.pop(carried_key, {}))
    value = st.number_input(label, value=default, key=key, bind="query-params",
                            on_change=clamp, **kwargs)
    if used(value) != value:
        # A link's value outside the range: Streamlit seeds the box from the URL on the
        # first run whatever the session holds, so the value in use is set on a rerun (the
        # link's other values, to be checked at the end of the page, carried over to it).
        st.session_state[pending_key] = used(value)
        st.session_state[note_key] = (value, used(value))
        st.session_state[carried_key] = {k: v for k, v in url_in.items() if k != key}
        st.rerun()
    note = st.session_state.get(note_key)
    if note is not None and note[1] == value:
        st.caption(outside_note(symbol, note[0], note[1], low, high))
    else:
        st.session_state.pop(note_key, None)
    return value


# --- settings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class NullSettings:
    """The null distributions (Figures 2–3)."""

    shape: str  # cal_shape: a key of dpcore.datasets.SHAPES
    m: int  # cal_m: bins
    n: int  # cal_n: counts per histogram
    alpha: float  # cal_alpha
    reps: int  # cal_reps_null: pairs of histograms drawn
    seed: int  # cal_seed

    @property
    def quick(self) -> bool:
        """Whether drawing these null statistics is quick enough for every moved control."""
        return self.reps * self.m <= NULL_QUICK_DRAWS

    def report_items(self) -> dict[str, str]:
        return {
            t("Null distributions: shape p₀"): t(datasets.SHAPES[self.shape]),
            t("Null distributions: bins M"): f"{self.m}",
            t("Null distributions: histogram size N"): f"{self.n:,}",
            t("Null distributions: privacy level ε"): f"{self.alpha:g}",
            t("Null distributions: replicates"): f"{self.reps:,}",
            t("Null distributions: seed"): f"{self.seed}",
        }


@dataclass(frozen=True)
class LiveSettings:
    """A live simulation of rejection rates against N (Figures 9–12): the form's settings,
    or those of the run shown."""

    pair: str  # cal_pair: a key of dpcore.study.PAIRS
    m: int  # cal_m_live: 86, 18 or 9 age groups
    ns: tuple[int, ...]  # cal_ns: sample sizes, sorted
    a1: float  # cal_a1
    a2: float  # cal_a2
    tests: tuple[str, ...]  # cal_tests: of simulation.TESTS
    reps: int  # cal_reps: replicates R per point
    n_boot: int  # cal_boot: bootstrap replicates B
    seed: int  # cal_live_seed

    @property
    def effect(self) -> str:
        """The pair's effect: "type-I error" (no difference) or the size of the difference."""
        return study.PAIRS[self.pair][2]

    @property
    def units(self) -> float:
        """Bins the run draws (its cost is about linear in it)."""
        return sum(simulation.work_units(self.m, self.reps, self.n_boot, test)
                   for test in self.tests) * len(self.ns)

    def command(self) -> str:
        """The study command that runs these settings outside the page."""
        return (f"python -m dpcore.study --pairs {self.pair} --m {self.m} "
                f"--alphas {self.a1:g},{self.a2:g} --n {' '.join(map(str, self.ns))} "
                f"--tests {' '.join(self.tests)} --reps {self.reps} --boot {self.n_boot} "
                f"--seed {self.seed} --out my_study.csv")

    def report_items(self) -> dict[str, str]:
        return {
            t("Simulation: populations A vs B"): pair_label(self.pair),
            t("Simulation: bins M"): f"{self.m}",
            t("Simulation: privacy levels ε_A, ε_B"): f"{self.a1:g}, {self.a2:g}",
            t("Simulation: tests"): ", ".join(test_label(test) for test in self.tests),
            t("Simulation: sample sizes N"): fmt_peoples(self.ns),
            t("Simulation: replicates R per point"): f"{self.reps:,}",
            t("Simulation: bootstrap replicates B"): f"{self.n_boot:,}",
            t("Simulation: seed"): f"{self.seed}",
        }


@dataclass(frozen=True)
class StudyFilter:
    """Which settings of the shipped full-scale study are shown."""

    pairs: tuple[str, ...]  # cal_f_pairs
    ms: tuple[int, ...]  # cal_f_m
    privacy: tuple[tuple[float, float], ...]  # cal_f_priv: (ε_A, ε_B)
    tests: tuple[str, ...]  # cal_f_tests

    def select(self, results: pd.DataFrame) -> pd.DataFrame:
        """The rows of ``results`` that the filter keeps."""
        levels = pd.Series(list(zip(results["alpha1"], results["alpha2"])), index=results.index)
        keep = (results["pair"].isin(self.pairs) & results["m"].isin(self.ms)
                & results["test"].isin(self.tests) & levels.isin(self.privacy))
        return results[keep]

    def report_items(self) -> dict[str, str]:
        none = t("none")
        return {
            t("Full-scale study: pairs"): ", ".join(pair_label(p) for p in self.pairs) or none,
            t("Full-scale study: M"): ", ".join(map(str, self.ms)) or none,
            t("Full-scale study: privacy (ε_A, ε_B)"):
                "; ".join(privacy_label(ab) for ab in self.privacy) or none,
            t("Full-scale study: tests"): ", ".join(test_label(x) for x in self.tests) or none,
            t("Full-scale study: made by"): study.PAPER_COMMAND,
            t("Full-scale study, normal-score test: made by"): study.SCORE_COMMAND,
        }


def size_ratio(results: pd.DataFrame) -> pd.Series:
    """N_B / N_A of each row (to 6 decimals, so that 10 is 10)."""
    return (results["n2"] / results["n"]).round(6)


@dataclass(frozen=True)
class ExtendedFilter:
    """Which settings of the shipped extended null grid are shown."""

    ms: tuple[int, ...]  # cal_x_m
    tests: tuple[str, ...]  # cal_x_tests
    alpha1s: tuple[float, ...]  # cal_x_a1
    alpha2s: tuple[float, ...]  # cal_x_a2
    ns: tuple[int, ...]  # cal_x_n: N_A
    ratios: tuple[float, ...]  # cal_x_ratio: N_B / N_A

    def select(self, results: pd.DataFrame) -> pd.DataFrame:
        """The rows of ``results`` that the filter keeps."""
        keep = (results["m"].isin(self.ms) & results["test"].isin(self.tests)
                & results["alpha1"].isin(self.alpha1s) & results["alpha2"].isin(self.alpha2s)
                & results["n"].isin(self.ns) & size_ratio(results).isin(self.ratios))
        return results[keep]

    def report_items(self) -> dict[str, str]:
        none = t("none")
        return {
            t("Beyond the paper: M"): ", ".join(map(str, self.ms)) or none,
            t("Beyond the paper: tests"): ", ".join(test_label(x) for x in self.tests) or none,
            t("Beyond the paper: ε_A"): ", ".join(map(alpha_label, self.alpha1s)) or none,
            t("Beyond the paper: ε_B"): ", ".join(map(alpha_label, self.alpha2s)) or none,
            t("Beyond the paper: N_A"): ", ".join(f"{n:,}" for n in self.ns) or none,
            t("Beyond the paper: N_B / N_A"): ", ".join(map(ratio_label, self.ratios)) or none,
            t("Beyond the paper: made by"): study.EXTENDED_COMMAND,
        }


@dataclass(frozen=True)
class Settings:
    """Every setting of the page's URL: the open tab and each tab's settings."""

    tab: str  # cal_tab: one of TABS
    null: NullSettings
    live: LiveSettings | None  # the form's; for the report, the run shown (None: none yet)
    study: StudyFilter | None  # None: no results of the full-scale study
    extended: ExtendedFilter | None = None  # None: no results of the extended grid

    def report_items(self) -> dict[str, str]:
        """The report's settings: of each tab that shows results."""
        return {**self.null.report_items(),
                **(self.live.report_items() if self.live else {}),
                **(self.study.report_items() if self.study else {}),
                **(self.extended.report_items() if self.extended else {})}


# --- computations ---------------------------------------------------------------------------


@counted(st.cache_data(max_entries=32, show_spinner=False))
def null_stats(shape: str, m: int, n: int, alpha: float, reps: int, seed: int):
    return simulation.null_statistics(
        datasets.shape_probabilities(shape, m), n, alpha, reps=reps, rng=seed
    )


@counted(st.cache_resource(max_entries=32, show_spinner=False))
def null_figure(null: NullSettings):
    """The null statistics of ``null`` against the χ² density, kept as sent (a shared
    resource: only read after this)."""
    ns = null_stats(null.shape, null.m, null.n, null.alpha, null.reps, null.seed)
    return dpviz.style.SentFigure(dpviz.homogeneity.null_statistics_figure(
        ns.without_dp, ns.with_dp, ns.df, alpha=null.alpha))


@counted(st.cache_resource(max_entries=4, show_spinner=False))
def shipped_results(stamp: float | None) -> pd.DataFrame | None:
    """The shipped study; ``stamp`` (the file's modification time) renews the cache. A
    resource, shared and only read (a cached copy would be unpickled on every rerun)."""
    return study.load_results()


@counted(st.cache_resource(max_entries=4, show_spinner=False))
def extended_results(stamp: float | None) -> pd.DataFrame | None:
    """The shipped extended null grid; ``stamp`` (the file's modification time) renews the
    cache. A resource, as :func:`shipped_results`."""
    return study.load_extended()


@dataclass(frozen=True)
class Shown:
    """What a tab of shipped results shows for one filter: the rows kept, the table as
    shown, its figure (None when no row is kept) and its findings. Made once per results
    file and filter and shared (:func:`study_shown`, :func:`extended_shown`), so that a rerun
    for a control of another tab neither filters, hashes nor draws these again."""

    chosen: pd.DataFrame
    table: pd.DataFrame
    figure: object | None
    findings: tuple[str, ...]


@counted(st.cache_resource(max_entries=32, show_spinner=False))
def study_shown(stamp: float | None, chosen_filter: StudyFilter) -> Shown:
    """The full-scale study through ``chosen_filter`` (the figure's facets take seconds to
    lay out; kept as sent, dpviz.style.SentFigure). The findings are in the interface's
    words: the cache key must name the language once the interface has a choice."""
    chosen = chosen_filter.select(shipped_results(stamp))
    if chosen.empty:
        return Shown(chosen, chosen, None, ())
    return Shown(chosen, paper_table(chosen),
                 dpviz.style.SentFigure(dpviz.homogeneity.study_figure(chosen)),
                 tuple(study_findings(chosen)))


@counted(st.cache_resource(max_entries=32, show_spinner=False))
def extended_shown(stamp: float | None, chosen_filter: ExtendedFilter) -> Shown:
    """The extended null grid through ``chosen_filter`` (as :func:`study_shown`)."""
    chosen = chosen_filter.select(extended_results(stamp))
    if chosen.empty:
        return Shown(chosen, chosen, None, ())
    return Shown(chosen, chosen, dpviz.style.SentFigure(dpviz.homogeneity.extended_null_figure(
        chosen, level=LEVEL, band=TARGET_BAND)), tuple(extended_findings(chosen)))


@counted(st.cache_resource(max_entries=16, show_spinner=False))
def rates_figure(live: LiveSettings, _table: pd.DataFrame):
    """The rejection rates of the live run of ``live`` against N (keyed by the run's
    settings, which give its table: the table is not hashed on every rerun). A resource,
    shared and never copied: a
    cached copy would be unpickled, and so validated again by Plotly, on every rerun. The
    figure is only read after this, and kept as it is sent (dpviz.style.SentFigure: its
    conversion for sending is not redone on every draw)."""
    return dpviz.style.SentFigure(dpviz.homogeneity.rejection_figure(_table))


@counted(st.cache_resource(max_entries=1, show_spinner=False))
def live_runs() -> planner.CellCache:
    """The live runs simulated on this server, by their settings (bounded, the least
    recently used out first)."""
    return planner.CellCache(16)


def simulate(live: LiveSettings, progress) -> pd.DataFrame:
    """The rejection rates of a live run; ``progress(fraction, label)`` follows it while it
    is simulated. Kept per settings on the server (the same settings and seed give the same
    rates): the run at the defaults, which every new session shows first, is simulated
    once, not once a session. Shared: only read after this."""
    runs = live_runs()
    table = runs.get(live)
    if table is None:
        p1, p2 = study.cell_probabilities(live.pair, live.m)
        table = simulation.rejection_curve(p1, p2, live.ns, live.a1, live.a2,
                                           tests=live.tests, reps=live.reps,
                                           n_boot=live.n_boot, rng=live.seed,
                                           progress=progress)
        runs.put(live, table)
    return table


@dataclass(frozen=True)
class NullSummary:
    """The naive statistic under no difference, with and without DP, in numbers."""

    df: int
    mean_without: float
    mean_with: float
    type1_without: float  # share of statistics above the χ² 5% critical value
    type1_with: float
    pairs: int  # histogram pairs drawn
    clearly_above: bool  # the 95% interval of type1_with lies above the level


def null_summary(ns: simulation.NullStatistics) -> NullSummary:
    crit = simulation.chi2_critical_value(ns.df)
    rejected = int(np.sum(ns.with_dp > crit))
    low, _ = simulation.binomial_interval(rejected, len(ns.with_dp))
    return NullSummary(ns.df, float(ns.without_dp.mean()), float(ns.with_dp.mean()),
                       float(np.mean(ns.without_dp > crit)), rejected / len(ns.with_dp),
                       len(ns.with_dp), low > LEVEL)


# --- sentences ------------------------------------------------------------------------------


def null_offer(null: NullSettings) -> str:
    """What the Simulate button of the null distributions would draw."""
    return t("{reps:,} pairs of histograms of M = {m} bins take longer to draw than a moved "
             "control should ({draws:,} draws of counts; up to {quick:,} are drawn at once): "
             "press *Simulate*. Settings drawn before in this session show at once.",
             reps=null.reps, m=null.m, draws=null.reps * null.m, quick=NULL_QUICK_DRAWS)


def null_finding(null: NullSettings, summary: NullSummary) -> str:
    values = dict(shape=t(datasets.SHAPES[null.shape]), m=null.m, n=null.n, alpha=null.alpha,
                  without=summary.type1_without, pairs=summary.pairs,
                  with_dp=summary.type1_with, level=LEVEL)
    if summary.clearly_above:
        return t("Null distributions ({shape}, M = {m}, N = {n:,}, ε = {alpha:g}): with no "
                 "difference, the naive χ² test rejects {without:.1%} of {pairs:,} histogram "
                 "pairs without privacy and {with_dp:.1%} with privacy, against its "
                 "{level:.0%} level: with privacy it does not hold its level.", **values)
    return t("Null distributions ({shape}, M = {m}, N = {n:,}, ε = {alpha:g}): with no "
             "difference, the naive χ² test rejects {without:.1%} of {pairs:,} histogram pairs "
             "without privacy and {with_dp:.1%} with privacy, against its {level:.0%} level: "
             "here its type-I error with privacy is not clearly above the level.", **values)


def _worst_setting(rows: pd.DataFrame, worst: pd.Series) -> str:
    """Where the worst rate of ``rows`` was simulated: its N, and its M and (ε_A, ε_B) where
    the rows differ in them ("N = 10,000, M = 18, ε_A = 0.1, ε_B = 0.1")."""
    n = fmt_people(worst["n"])
    by_m = "m" in rows and rows["m"].nunique() > 1
    by_eps = "alpha1" in rows and rows[["alpha1", "alpha2"]].drop_duplicates().shape[0] > 1
    if by_m and by_eps:
        return t("N = {n}, M = {m}, ε_A = {a1:g}, ε_B = {a2:g}", n=n, m=worst["m"],
                 a1=worst["alpha1"], a2=worst["alpha2"])
    if by_m:
        return t("N = {n}, M = {m}", n=n, m=worst["m"])
    if by_eps:
        return t("N = {n}, ε_A = {a1:g}, ε_B = {a2:g}", n=n, a1=worst["alpha1"],
                 a2=worst["alpha2"])
    return t("N = {n}", n=n)


def type1_sentence(rows: pd.DataFrame, test: str, where: str) -> str:
    """The type-I error verdict of one test from rows of rates with no difference.

    A setting is clearly above the level when its whole 95% Wilson interval is. By chance
    alone about 2.5% of the intervals lie above the true rate, so a test holds its level
    when at most 5% of its settings (and at least one allowed) are clearly above it.
    Each case is one whole sentence (one setting or several; none, few or many clearly
    above the level).
    """
    n = len(rows)
    over = rows[rows["ci_low"] > LEVEL]
    values = dict(where=where, name=test_label(test), level=LEVEL)
    if n == 1:
        # One setting: at most that one is clearly above the level, within what chance gives.
        values["rate"] = rows["rate"].iloc[0]
        if over.empty:
            return t("{where}: the {name} test's type-I error is {rate:.1%} over 1 setting; "
                     "none is clearly above the {level:.0%} level (no 95% interval lies above "
                     "it): the test holds its level.", **values)
        return t("{where}: the {name} test's type-I error is {rate:.1%} over 1 setting; 1 of "
                 "them is clearly above the {level:.0%} level, about as many as chance alone "
                 "gives with 95% intervals: the test holds its level up to Monte Carlo error.",
                 **values)
    values.update(n=n, low=rows["rate"].min(), high=rows["rate"].max(), k=len(over))
    if over.empty:
        return t("{where}: the {name} test's type-I error is {low:.1%} to {high:.1%} over {n} "
                 "settings; none is clearly above the {level:.0%} level (no 95% interval lies "
                 "above it): the test holds its level.", **values)
    if len(over) == 1:
        return t("{where}: the {name} test's type-I error is {low:.1%} to {high:.1%} over {n} "
                 "settings; {k} of them is clearly above the {level:.0%} level, about as many "
                 "as chance alone gives with 95% intervals: the test holds its level up to "
                 "Monte Carlo error.", **values)
    if len(over) <= 0.05 * n:
        return t("{where}: the {name} test's type-I error is {low:.1%} to {high:.1%} over {n} "
                 "settings; {k} of them are clearly above the {level:.0%} level, about as many "
                 "as chance alone gives with 95% intervals: the test holds its level up to "
                 "Monte Carlo error.", **values)
    worst = over.loc[over["rate"].idxmax()]
    return t("{where}: the {name} test's type-I error is {low:.1%} to {high:.1%} over {n} "
             "settings, clearly above the {level:.0%} level in {k} of them (up to {rate:.0%}, "
             "at {at}): the test does not hold its level.", **values, rate=worst["rate"],
             at=_worst_setting(rows, worst))


def _rate_at(row) -> str:
    """A power and its 95% interval at one N, with the decimals that keep each apart from
    the target (so that no rate judged below it reads as the target)."""
    values = (row["rate"], row["ci_low"], row["ci_high"])
    decimals = percent_decimals_apart(values, TARGET_POWER)
    rate, low, high = (f"{v:.{decimals}%}" for v in values)
    return t("{rate} at N = {n} (95% interval {low} to {high})", rate=rate,
             n=fmt_people(row["n"]), low=low, high=high)


def power_sentence(rows: pd.DataFrame, test: str, where: str) -> str:
    """How the power of one test grows with N, from rows of rates with a difference.

    Whether the power reaches TARGET_POWER at an N is decided from the rate's 95% Wilson
    interval (dpcore.planner.power_verdict), never from the rate alone: reached when the
    interval lies at or above the target, not reached when it lies below, undetermined at
    this number of replicates when it holds the target. Each case is one whole sentence
    (the power at one N, or at the first and last N; then what the intervals decide).
    """
    rows = rows.sort_values("n")
    verdicts = [planner.power_verdict(low, high, TARGET_POWER)
                for low, high in zip(rows["ci_low"], rows["ci_high"])]
    reached = [n for n, v in zip(rows["n"], verdicts) if v == planner.REACHED]
    open_ = [n for n, v in zip(rows["n"], verdicts)
             if v == planner.UNDETERMINED and (not reached or n < reached[0])]
    values = dict(where=where, name=test_label(test), first=_rate_at(rows.iloc[0]),
                  target=f"{TARGET_POWER:.0%}")
    if reached:
        values["n"] = fmt_people(reached[0])
    if open_:
        values.update(open=fmt_peoples(open_), reps=int(rows["reps"].iloc[0]))
    if len(rows) == 1:
        # One N: reached, undetermined or not reached there.
        if reached:
            text = t("{where}: the {name} test's power is {first}; it first reaches {target} at "
                     "N = {n}, the smallest N simulated whose 95% interval lies at or above "
                     "{target}.", **values)
        elif open_:
            text = t("{where}: the {name} test's power is {first}; whether it reaches {target} "
                     "at N = {open} is undetermined with R = {reps:,} replicates per point (the "
                     "95% intervals hold {target}): more replicates (*Replicates R per point*) "
                     "narrow the intervals.", **values)
        else:
            text = t("{where}: the {name} test's power is {first}; it does not reach {target} "
                     "at the N simulated: every 95% interval lies below {target}.", **values)
    else:
        values["last"] = _rate_at(rows.iloc[-1])
        if reached and not open_:
            text = t("{where}: the {name} test's power is {first} and {last}; it first reaches "
                     "{target} at N = {n}, the smallest N simulated whose 95% interval lies at "
                     "or above {target}.", **values)
        elif reached:
            text = t("{where}: the {name} test's power is {first} and {last}; it reaches "
                     "{target} at N = {n}, the smallest N simulated whose 95% interval lies at "
                     "or above {target}; whether it does at N = {open} is undetermined with "
                     "R = {reps:,} replicates per point (the intervals hold {target}): more "
                     "replicates (*Replicates R per point*) narrow the intervals.", **values)
        elif open_ and len(open_) < len(rows):
            text = t("{where}: the {name} test's power is {first} and {last}; whether it "
                     "reaches {target} at N = {open} is undetermined with R = {reps:,} "
                     "replicates per point (the 95% intervals hold {target}): more replicates "
                     "(*Replicates R per point*) narrow the intervals. At the other N simulated "
                     "it does not reach {target}.", **values)
        elif open_:
            text = t("{where}: the {name} test's power is {first} and {last}; whether it "
                     "reaches {target} at N = {open} is undetermined with R = {reps:,} "
                     "replicates per point (the 95% intervals hold {target}): more replicates "
                     "(*Replicates R per point*) narrow the intervals.", **values)
        else:
            text = t("{where}: the {name} test's power is {first} and {last}; it does not "
                     "reach {target} at the N simulated: every 95% interval lies below "
                     "{target}.", **values)
    if test == "chisq":  # one more whole sentence
        text += t(" This 'power' is not to be trusted: on private histograms the naive test "
                  "rejects far too often even when there is no difference.")
    return text


def live_findings(shown: LiveSettings, table: pd.DataFrame) -> list[str]:
    """Per test of the run shown: its type-I error (no difference) or its power."""
    where = pair_label(shown.pair)
    sentence = type1_sentence if shown.effect == "type-I error" else power_sentence
    return [sentence(table[table["test"] == test], test, where) for test in shown.tests]


def live_caption(shown: LiveSettings) -> str:
    meaning = (t("type-I error") if shown.effect == "type-I error"
               else t("power ({effect})", effect=t(shown.effect)))
    return t("{pair}, M = {m}, ε_A = {a1:g}, ε_B = {a2:g}, R = {reps} per point, B = {n_boot}, "
             "seed {seed}. The rate is the {meaning}.", pair=pair_label(shown.pair), m=shown.m,
             a1=shown.a1, a2=shown.a2, reps=shown.reps, n_boot=shown.n_boot, seed=shown.seed,
             meaning=meaning)


def too_long(live: LiveSettings, seconds: float) -> str:
    """Why a run is refused, with the study command that runs it instead (Markdown)."""
    return t("This run would take about {minutes:.1f} minutes here (R·B·M·points = {units:,.0f} "
             "simulated bins, more than the page's {cap:,.0f}). Lower R, B or the number of N "
             "values, or run it with the study command: `{command}`.", minutes=seconds / 60,
             units=live.units, cap=MAX_UNITS, command=live.command())


def study_findings(chosen: pd.DataFrame) -> list[str]:
    """The type-I error verdict of each test on the chosen settings with no difference."""
    null = chosen[chosen["effect"] == "type-I error"]
    where = t("Full-scale study, Korea vs Korea")
    return [type1_sentence(null[null["test"] == test], test, where)
            for test in simulation.TESTS if test in set(null["test"])]


def privacy_levels(results: pd.DataFrame) -> list[tuple[float, float]]:
    """The study's privacy levels (ε_A, ε_B), weakest privacy first."""
    return sorted({(a, b) for a, b in zip(results["alpha1"], results["alpha2"])}, reverse=True)


def study_intro(results: pd.DataFrame) -> str:
    reps = ", ".join(f"{r:,}" for r in sorted(set(results["reps"])))
    boots = sorted(set(pd.to_numeric(results["n_boot"], errors="coerce").dropna().astype(int)))
    boot_text = ", ".join(f"{b:,}" for b in boots) if boots else "–"
    return t("The paper's grid, {settings:,} settings, each with R = {reps} replicates and "
             "B = {boots} bootstrap replicates (B = 500 bounds the p-value's Monte Carlo error "
             "by 0.022 and keeps the study to minutes on two cores). It was made by this "
             "command, which regenerates it exactly:", settings=len(results), reps=reps,
             boots=boot_text)


def tests_in(results: pd.DataFrame) -> tuple[str, ...]:
    """The tests a results file holds (all of simulation.TESTS if it does not say)."""
    if "test" not in results:
        return simulation.TESTS
    return tuple(x for x in simulation.TESTS if x in set(results["test"]))


def partial_study(results: pd.DataFrame) -> str | None:
    """What a results file that does not hold the whole grid of its tests lacks (a file
    made before the normal-score test holds the paper's two); None when it holds it."""
    tests = set(tests_in(results))
    expected = len([c for c in study.shipped_paper_grid() if c.test in tests])
    if len(results) >= expected:
        return None
    return t("This file holds {have:,} of the grid's {expected:,} settings (a study still "
             "running, or stopped early).", have=len(results), expected=expected)


def missing_study() -> str:
    return t("The results file of the full study is not in this copy of the project; make it "
             "with `{command}`.", command=study.PAPER_COMMAND)


# --- the extended null grid -----------------------------------------------------------------


def band_text(band: tuple[float, float] = TARGET_BAND) -> str:
    return f"[{band[0]:.1%}, {band[1]:.1%}]"


@dataclass(frozen=True)
class VerdictCount:
    """One test's type-I errors over some settings, each judged by its 95% interval
    (study.size_verdict: too liberal above 5%, conservative below, else keeps its level)."""

    settings: int  # settings shown
    liberal: int  # the whole 95% interval above 5%
    conservative: int  # the whole 95% interval below 5%
    keeps: int  # the interval contains 5%
    low: float  # the smallest rate
    high: float  # the largest rate
    worst: pd.Series  # the row whose rate is farthest from the level


def verdict_count(rows: pd.DataFrame) -> VerdictCount:
    """Count ``rows`` (one test's rates, at least one) by the verdict of each interval."""
    verdicts = [study.size_verdict(low, high) for low, high in zip(rows["ci_low"],
                                                                     rows["ci_high"])]
    rate = rows["rate"]
    worst = rows.loc[(rate - LEVEL).abs().idxmax()]
    return VerdictCount(len(rows), verdicts.count("liberal"), verdicts.count("conservative"),
                        verdicts.count("keeps"), float(rate.min()), float(rate.max()), worst)


def verdict_sentence(rows: pd.DataFrame, test: str) -> str:
    """One test's type-I error over the extended grid's chosen settings, each judged by its
    95% interval against 5%."""
    c = verdict_count(rows)
    decimals = max(1, percent_decimals_apart([c.low, c.high], LEVEL))

    def pct(v: float) -> str:
        return f"{v:.{decimals}%}"

    head = t("Beyond the paper, the {name} test", name=test_label(test))
    if c.settings == 1:
        row = rows.iloc[0]
        rate = t("{rate} (95% interval {low}–{high})", rate=pct(row["rate"]),
                 low=pct(row["ci_low"]), high=pct(row["ci_high"]))
        if c.liberal:
            return t("{head}: at the one setting shown its type-I error is {rate}, too "
                     "liberal: the whole interval lies above 5%.", head=head, rate=rate)
        if c.conservative:
            return t("{head}: at the one setting shown its type-I error is {rate}, "
                     "conservative: the whole interval lies below 5%, so it keeps its level "
                     "but can miss real differences.", head=head, rate=rate)
        return t("{head}: at the one setting shown its type-I error is {rate}: the interval "
                 "holds 5%, so it keeps its level.", head=head, rate=rate)
    text = t("{head}, over {n} settings (rates from {low} to {high}): its 95% interval lies "
             "above 5% (too liberal) in {liberal}, below 5% (conservative: it keeps its level "
             "but can miss real differences) in {conservative}, and holds 5% (it keeps its "
             "level) in {keeps}.", head=head, n=c.settings, low=pct(c.low), high=pct(c.high),
             liberal=c.liberal, conservative=c.conservative, keeps=c.keeps)
    if c.liberal or c.conservative:
        text += t(" The farthest from 5%: {worst} at {at}.", worst=pct(c.worst["rate"]),
                  at=setting_label(c.worst))
    return text


def extended_findings(chosen: pd.DataFrame) -> list[str]:
    """Per test shown (in the order of simulation.TESTS): its type-I error by intervals."""
    shown = set(chosen["test"])
    tests = [x for x in simulation.TESTS if x in shown] + sorted(shown - set(simulation.TESTS))
    return [verdict_sentence(chosen[chosen["test"] == test], test) for test in tests]


def extended_caption(results: pd.DataFrame) -> str:
    """What the extended grid is, with its R and B and the bootstrap p-value."""
    reps = ", ".join(f"{r:,}" for r in sorted(set(results["reps"])))
    boots = sorted(set(pd.to_numeric(results["n_boot"], errors="coerce").dropna().astype(int)))
    boot_text = ", ".join(f"{b:,}" for b in boots) if boots else "–"
    return t(
        "Beyond the paper's grid, where Algorithm 1's level is in question: Korea vs Korea "
        "(no difference, so every rate is a type-I error), M = 86, 18 or 9 age groups, every "
        "pair of privacy levels ε_A, ε_B in {{1, 0.1, 0.01}}, N_A = 1,000, 10,000 or 100,000 "
        "people in histogram A and N_B = 1, 10 or 100 times as many in B; {settings:,} "
        "settings in this file. Each rate counts the rejections at the {level:.0%} "
        "significance level in R = {reps} replicates, with its 95% Wilson interval; a bootstrap test draws "
        "B = {boots} bootstrap statistics T_b and its p-value is (1 + #{{T_b ≥ T}})/(B + 1). "
        "A test keeps its level at a setting when that interval holds 5%; the chart shades "
        "{band} as a scale. These commands regenerate the files exactly:",
        settings=len(results), level=LEVEL, reps=reps, boots=boot_text, band=band_text())


def partial_extended(results: pd.DataFrame) -> str | None:
    """What an extended-grid file that does not hold the whole grid lacks; None when whole."""
    expected = len(study.extended_grid())
    if len(results) >= expected:
        return None
    return t("This file holds {have:,} of the grid's {expected:,} settings (a study still "
             "running, or stopped early).", have=len(results), expected=expected)


def missing_extended() -> str:
    return t("The results file of the extended null grid ({name}) is not in this copy of the "
             "project; make it with `{command}`.", name=study.EXTENDED_FILE,
             command=study.EXTENDED_COMMAND)


def paper_table(chosen: pd.DataFrame) -> pd.DataFrame:
    """The full-scale study's rows as its table shows them: without the column n2 (N_B)
    where it is empty or equal to n everywhere, as in the paper's grid (equal sizes), so
    the table and its download keep the paper's columns."""
    if "n2" in chosen and (chosen["n2"].isna() | (chosen["n2"] == chosen["n"])).all():
        return chosen.drop(columns="n2")
    return chosen


# --- the numbers shown and the view's code -----------------------------------------------------


def live_numbers(table: pd.DataFrame) -> dict[str, float]:
    """The live table's rates and 95% intervals, by label ("rate at N = 1,000, bootstrap")."""
    return {t(LIVE_ROW, column=column, n=row.n, test=row.test): float(getattr(row, column))
            for row in table.itertuples(index=False)
            for column in dpcode.calibration.LIVE_COLUMNS}


def study_numbers(chosen: pd.DataFrame) -> dict[str, float]:
    """The full-scale study's rates shown, by label (the row's pair, test and setting)."""
    return {t(STUDY_ROW, column="rate", pair=row.pair, test=row.test, m=row.m, a1=row.alpha1,
              a2=row.alpha2, n=row.n): float(row.rate)
            for row in chosen.itertuples(index=False)}


def extended_numbers(chosen: pd.DataFrame) -> dict[str, float]:
    """The extended grid's rates shown, by label (the row's test and setting)."""
    return {t(EXTENDED_ROW, column="rate", test=row.test, m=row.m, a1=row.alpha1,
              a2=row.alpha2, n=row.n, n2=row.n2): float(row.rate)
            for row in chosen.itertuples(index=False)}


def narrowed(results: pd.DataFrame, chosen_filter: StudyFilter | ExtendedFilter) -> tuple:
    """The filter's (column, values kept) for each column it narrows in ``results``: a
    column whose every value in the file is kept is left out (dpcode.calibration.Shipped)."""
    if isinstance(chosen_filter, StudyFilter):
        columns = (("pair", chosen_filter.pairs, results["pair"]),
                   ("m", chosen_filter.ms, results["m"]),
                   ("privacy", chosen_filter.privacy,
                    list(zip(results["alpha1"], results["alpha2"]))),
                   ("test", chosen_filter.tests, results["test"]))
    else:
        columns = (("m", chosen_filter.ms, results["m"]),
                   ("test", chosen_filter.tests, results["test"]),
                   ("alpha1", chosen_filter.alpha1s, results["alpha1"]),
                   ("alpha2", chosen_filter.alpha2s, results["alpha2"]),
                   ("n", chosen_filter.ns, results["n"]),
                   ("ratio", chosen_filter.ratios, size_ratio(results)))
    return tuple((column, tuple(kept)) for column, kept, values in columns
                 if not set(values) <= set(kept))


def code_builder(settings, results: pd.DataFrame | None = None):
    """The open tab's code for the kit's Code button: link -> Program. ``settings``: the
    tab's, :class:`NullSettings`, the :class:`LiveSettings` of the run shown, or a
    :class:`StudyFilter` or :class:`ExtendedFilter` with the ``results`` it filters."""
    code = dpcode.calibration
    if isinstance(settings, NullSettings):
        tab, labels = 0, {key: t(label) for key, label in NULL_LABELS.items()}
        view = code.Null(settings.shape, settings.m, settings.n, settings.alpha, settings.reps,
                         settings.seed)
    elif isinstance(settings, LiveSettings):
        tab, labels = 1, {"row": t(LIVE_ROW)}
        view = code.Live(settings.pair, settings.m, settings.ns, settings.a1, settings.a2,
                         settings.tests, settings.reps, settings.n_boot, settings.seed)
    elif isinstance(settings, StudyFilter):
        tab, labels = 2, {"row": t(STUDY_ROW)}
        view = code.Shipped("paper", narrowed(results, settings))
    else:
        tab, labels = 3, {"row": t(EXTENDED_ROW)}
        view = code.Shipped("extended", narrowed(results, settings))
    labels["tab"] = t(TABS[tab])

    def build(link: str) -> dpcode.Program:
        return code.program(tab=code.TABS[tab], settings=view, labels=labels, link=link,
                            title=t(TITLE))
    return build
