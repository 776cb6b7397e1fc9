"""The privacy–utility planner's logic: its settings, its searches and its words.

Son, Park & Jung (2022), section 5, propose the power of the parametric bootstrap test as
the utility of a DP histogram mechanism. The page (views/planner.py) asks dpcore.planner
the two questions of someone who must choose: the N per group needed at a privacy level ε,
the strongest ε affordable with N per group, and the whole ε-N frontier for a bootstrap
test and the naive χ² test. The bootstrap test is the user's choice (``Settings.test``):
the source's Algorithm 1 (the default, as every link made before the choice) or this
project's normal-score test (dpcore.homogeneity.normal_score_test), which keeps its level
in more settings than Algorithm 1 (not where counts and noise are of one size; see
dpcore.homogeneity) and costs more per simulated setting.

Here: :class:`Settings` (everything the URL holds, what the report lists), the comparison
the test must detect (:class:`Comparison`), the searches, and the sentences and tables the
page shows. No layout: the view draws; this module is tested directly
(tests/test_ui_pages_planner.py).

Every simulated setting ("cell") draws from a stream derived from the seed and the cell
alone, and one bounded planner.CellCache per server keeps them: the same URL and seed give
the same numbers, a setting seen before is reused, and the page says how many were
simulated now and how many reused. So the searches are not wrapped in ``st.cache_data``
(a cached plan would repeat the counts of its first run); the cell cache is their bound.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import ClassVar

import numpy as np
import pandas as pd
import streamlit as st

import dpcode
import dpcode.planner
import dpviz
from dpcore import datasets, planner, risk, simulation, uploads
from ui import oneperson, sources
from ui import text as ui_text
from ui.cache import counted
from ui.format import fmt_seconds, worded
from ui.kit import Experiment
from ui.text import N_, t

TITLE = N_("Privacy–utility planner")
UPLOAD = sources.UPLOAD
# Short names in the boxes (and the URL); the full ones in the help. In English here, in
# the reader's language from source_label.
SOURCES = {**{k: v.split(" (")[0] for k, v in datasets.POPULATIONS.items()},
           UPLOAD: sources.UPLOAD_SOURCE}
MODES = {"two": N_("Two populations"), "effect": N_("One population and an effect")}
EFFECTS = {"shift": N_("A shift by whole age groups"), "tilt": N_("A total-variation distance")}
DIRECTIONS = {"older": N_("older (last bins)"), "younger": N_("younger (first bins)")}
# The bootstrap tests the searches can plan for (simulation.BOOTSTRAP_TESTS), as the control
# labels them; the frontier also runs the naive χ² test beside the one chosen.
TESTS = {"bootstrap": N_("parametric bootstrap (Algorithm 1)"),
         "normal_score": N_("normal-score test")}
LEVELS = (0.01, 0.05, 0.1)
POWERS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99)
REPS_GRID = (50, 100, 200, 500, 1000, 2000)
BOOT_GRID = (50, 100, 200, 500, 1000, 2000)
TABS = (N_("How much data?"), N_("How much privacy?"), N_("Frontier"), N_("Report"))
DATA_TAB, PRIVACY_TAB, FRONTIER_TAB, REPORT_TAB = TABS
# Work caps in drawn bins R·2M·(B + 1) (simulation.work_units), fixed so that what is
# accepted does not depend on how busy the server is; about 1e-7 s per bin here.
MAX_SEARCH_UNITS = 2e8  # a data or privacy search: about 20 s here
MAX_FRONTIER_UNITS = 1e9  # the frontier (run by a button): about 2 minutes here
FRONTIER_POINTS = (2, 10)
DISTANCE_RANGE = (0.001, 0.999)  # the total-variation distance d a box takes
CACHE_CELLS = 20_000
# dpcore's argument names as the page calls them (a symbol must not contain its name).
SYMBOLS = {"distance": "d", "alpha1": "ε_A", "alpha2": "ε_B", "alpha_ratio": "ε_B/ε_A",
           "reps": "R", "n_boot": "B"}
SOURCE_NOTE = N_("Son, J., Park, M.-J. & Jung, S. (2022). A parametric bootstrap test for "
               "comparing differentially private histograms. The Korean Journal of Applied "
               "Statistics 35(1) [SPJ22]; section 5: the power of the test as the utility of a "
               "DP mechanism.")
REPORT_NOTES = (
    N_("Power is estimated by simulation (Algorithm 2 of Son, Park & Jung 2022): R pairs of "
       "histograms are drawn, released with Laplace noise Lap(2/ε) (Lap(2/α) in Son, Park & Jung "
       "2022), and tested; the power is the share of rejections, with a 95% Wilson interval."),
    N_("The searches assume that power grows with N and with ε. The interval of an estimate runs "
       "from the largest simulated value whose power is clearly below the target to the smallest "
       "clearly above it."),
    N_("The naive χ² test does not hold its level on private histograms: its type-I error is far "
       "above the level, so its power cannot be planned on."),
)

# Guided experiments ("Try this"): each sets the page up through its URL, all else default
# (R = B = 100: a search takes about a second).
EXPERIMENTS = (
    Experiment(
        N_("Ask for 80% power at ε = 0.01 and read how many people you need"),
        N_("*N needed per group* is about 45,000, with its Monte Carlo interval beside it: "
           "more than eight times the N that ε = 0.1 needs for the same difference. Your "
           "planned N = 10,000 is marked *not enough*."),
        {"plan_alpha": "0.01", "plan_power": "80%", "plan_reps": "100", "plan_boot": "100"}),
    Experiment(
        N_("Keep N = 10,000 people per group and find the strongest privacy for 80% power"),
        N_("*Strongest privacy ε* is about 0.05, below your ε = 0.1, which is marked "
           "*affordable*: with 10,000 people per group the test keeps 80% power at about twice "
           "as strong privacy."),
        {"plan_tab": "How much privacy?", "plan_n": "10,000", "plan_reps": "100",
         "plan_boot": "100"}),
)


def error_text(error: BaseException) -> str:
    """An error's message as the page shows it (ui.text.error_text), with its symbols."""
    return ui_text.error_text(error, SYMBOLS)


def short_name(source: str) -> str:
    """A population's short name in the reader's language."""
    return sources.population_short(source)


def source_label(source: str) -> str:
    """A source's option label (a key of SOURCES) in the reader's language."""
    return short_name(source) if source in datasets.POPULATIONS else t(SOURCES[source])


# --- The settings -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """Every setting the page's URL holds; ``Settings()`` is the page at its defaults.

    A control the page does not draw (the effect's controls with two populations, the age
    groups for uploaded counts alone, the frontier's controls on another tab) is None in
    the settings the page reads (start from :meth:`unset`). ``alpha2`` is ``alpha1`` unless
    ``separate``.
    """

    mode: str | None = "two"
    source_a: str | None = "korea_central"
    source_b: str | None = "korea_noncentral"
    base: str | None = "korea"
    effect: str | None = "shift"
    direction: str | None = "older"
    shift: int | None = 1
    distance: float | None = 0.05  # about Korea central vs noncentral (0.057 in 10-year groups)
    width: int | None = 10  # 10-year groups, M = 9: a search takes about a second
    test: str | None = "bootstrap"  # Algorithm 1: links made before the choice open as before
    level: float | None = 0.05
    power: float | None = 0.8
    alpha1: float | None = 0.1
    separate: bool | None = False
    alpha2: float | None = 0.1
    n: int | None = 10_000
    reps: int | None = 200
    n_boot: int | None = 200
    seed: int | None = 2022
    frontier_range: tuple[float, float] | None = (0.01, 1.0)
    frontier_points: int | None = 5
    tab: str | None = DATA_TAB

    # The URL parameter (= widget key) of each setting.
    KEYS: ClassVar[dict[str, str]] = {
        "mode": "plan_mode", "source_a": "plan_a", "source_b": "plan_b", "base": "plan_base",
        "effect": "plan_effect", "direction": "plan_direction", "shift": "plan_shift",
        "distance": "plan_tv", "width": "plan_width", "test": "plan_test", "level": "plan_level",
        "power": "plan_power", "alpha1": "plan_alpha", "separate": "plan_alpha_sep",
        "alpha2": "plan_alpha2", "n": "plan_n", "reps": "plan_reps", "n_boot": "plan_boot",
        "seed": "plan_seed", "frontier_range": "plan_fr_range",
        "frontier_points": "plan_fr_points", "tab": "plan_tab"}

    @classmethod
    def unset(cls) -> Settings:
        """No control read yet: every setting None."""
        return cls(**{f.name: None for f in fields(cls)})

    @property
    def ratio(self) -> float:
        return self.alpha2 / self.alpha1

    @property
    def same_alpha(self) -> bool:
        return self.alpha1 == self.alpha2

    @property
    def sign(self) -> int:
        """The effect's direction: +1 towards the last bins (older), -1 the first."""
        return 1 if self.direction == "older" else -1

    def one_person(self) -> oneperson.Level:
        """What the plan's privacy level means for one person: each group's histogram is
        ε-DP at its level; a person is in one group, and the larger ε bounds both."""
        eps = max(self.alpha1, self.alpha2)
        what = t("Each group's histogram is released with ε-differential privacy at {levels}."
                 "{larger}", levels=self.alpha_words(),
                 larger="" if self.same_alpha else t(" Below, the larger ε, which bounds both."))
        return oneperson.Level(risk.Guarantee.pure(eps), f"ε = {eps:g}", what)

    def alpha_words(self) -> str:
        return t("ε = {alpha:g}", alpha=self.alpha1) if self.same_alpha else \
            t("ε_A = {alpha1:g}, ε_B = {alpha2:g}", alpha1=self.alpha1, alpha2=self.alpha2)

    def report_items(self) -> dict[str, str]:
        """The report's settings (after the comparison's: Comparison.report_items)."""
        test = (t("parametric bootstrap test (Algorithm 1) at the {level:.0%} significance level",
                  level=self.level) if self.test == "bootstrap" else
                t("normal-score test (this project) at the {level:.0%} significance level",
                  level=self.level))
        return {
            t("Test"): test,
            t("Target power"): f"{self.power:.0%}",
            t("Privacy level"): self.alpha_words(),
            t("People per group N (plan)"): f"{self.n:,}",
            t("Replicates R, bootstrap B"): f"{self.reps:,}, {self.n_boot:,}",
            t("Seed"): f"{self.seed}",
        }


DEFAULT = Settings()


def test_name(test: str) -> str:
    """A test in words, as the sentences name it: "the parametric bootstrap test"."""
    return {"bootstrap": t("the parametric bootstrap test"),
            "normal_score": t("the normal-score test"),
            "chisq": t("the naive χ² test")}[test]


def frontier_tests(s: Settings) -> tuple[str, str]:
    """The tests of the frontier: the bootstrap test chosen and the naive χ² test."""
    return (s.test, "chisq")


# --- The comparison -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Problem:
    message: str
    waiting: bool = False  # only a file not uploaded yet


@dataclass(frozen=True)
class Comparison:
    """The two distributions the test must tell apart, over common bins.

    The names are as the user gave them (for charts, tables and the report);
    ``difference_md`` is ``difference`` with them escaped, for Markdown.
    """

    labels: list[str]
    p1: np.ndarray
    p2: np.ndarray
    name_a: str
    name_b: str
    difference: str  # for the plain sentences: "a difference as large as …"
    what: str  # the comparison in a few words, for the settings table
    difference_md: str
    # What the distributions were read from, for the view's code (code_builder): the
    # upload, if any, and the column of it each side ("A", "B") took.
    upload: sources.Upload | None = None
    columns: dict[str, str] = field(default_factory=dict)

    @property
    def m(self) -> int:
        return len(self.labels)

    @property
    def tv(self) -> float:
        return planner.total_variation(self.p1, self.p2)

    @property
    def key(self) -> tuple:
        return (tuple(self.p1.tolist()), tuple(self.p2.tolist()))

    def report_items(self) -> dict[str, str]:
        """The report's first settings: what is compared."""
        return {t("Comparison"): self.what,
                t("Difference (total-variation distance)"): f"{self.tv:.4f}",
                t("Bins M"): f"{self.m}"}


def only_counts(chosen: list[str], upload: sources.Upload | None) -> bool:
    """Whether the bins are the rows of an uploaded file of counts (no age groups)."""
    return all(s == UPLOAD for s in chosen) and upload is not None and upload.kind == "counts"


def side_probabilities(source: str, side: str, upload: sources.Upload | None,
                       column: str | None, width: int | None, m: int) -> np.ndarray:
    """The probabilities of one population or uploaded column; raises ValueError."""
    if source in datasets.POPULATIONS:
        return datasets.proportions(datasets.age_histogram(source, width).to_numpy())
    if upload.kind == "counts":
        counts = uploads.counts_from_column(upload.table[column], name=side)
        if len(counts) != m:
            raise uploads.UploadError(N_(
                'Column "{column}" has {bins} bins but the age groups chosen have {m}. Pick the '
                "age grouping with {bins} bins, if there is one, or upload counts for 86, 18 or "
                "9 age groups."), column=column, bins=len(counts), m=m)
        return datasets.proportions(counts)
    values = upload.table[column].dropna().to_numpy()
    if values.size == 0:
        raise uploads.UploadError(N_('Column "{column}" has no values.'),
                                     column=column)
    return datasets.proportions(sources.age_counts(values, column, width=width))


def effect_distribution(p: np.ndarray, s: Settings) -> np.ndarray:
    """B built from A by the effect of ``s``; raises ValueError (a distance too large)."""
    if s.effect == "shift":
        return planner.shift_distribution(p, s.sign * int(s.shift))
    return planner.tilt_to_distance(p, float(s.distance), direction=s.sign)


def bin_labels(width: int | None, m: int, upload: sources.Upload | None) -> list[str]:
    if width is not None:
        return datasets.age_bin_labels(width)
    return sources.row_labels(upload, m)


def side_name(source: str, column: str | None, mark=str) -> str:
    """A population's short name, or the uploaded column's (through ``mark``)."""
    if source in datasets.POPULATIONS:
        return short_name(source)
    return t('your column "{column}"', column=mark(column))


def tilt_words(s: Settings) -> str:
    """Where a tilt moves the people, as a noun phrase: "older ages", "the first bins"."""
    if s.width is None:
        return t("the last bins") if s.sign > 0 else t("the first bins")
    return t("older ages") if s.sign > 0 else t("younger ages")


# A shift's phrases in whole templates (fields {name}, {k}, {years}), by the shift's unit
# ("bins": no age groups; "groups": single years; "groups_years": wider age groups, their
# years said), one bin or group or more, and direction: (B's name, the difference to
# detect, what is compared).
SHIFT_PHRASES = {
    ("bins", "one", "older"): (
        N_("{name}, shifted 1 bin towards the last bins"),
        N_("a difference as large as {name} against the same population shifted 1 bin "
           "towards the last bins"),
        N_("{name} against itself shifted 1 bin towards the last bins")),
    ("bins", "one", "younger"): (
        N_("{name}, shifted 1 bin towards the first bins"),
        N_("a difference as large as {name} against the same population shifted 1 bin "
           "towards the first bins"),
        N_("{name} against itself shifted 1 bin towards the first bins")),
    ("bins", "more", "older"): (
        N_("{name}, shifted {k} bins towards the last bins"),
        N_("a difference as large as {name} against the same population shifted {k} bins "
           "towards the last bins"),
        N_("{name} against itself shifted {k} bins towards the last bins")),
    ("bins", "more", "younger"): (
        N_("{name}, shifted {k} bins towards the first bins"),
        N_("a difference as large as {name} against the same population shifted {k} bins "
           "towards the first bins"),
        N_("{name} against itself shifted {k} bins towards the first bins")),
    ("groups", "one", "older"): (
        N_("{name}, 1 age group older"),
        N_("a difference as large as {name} against the same population 1 age group older"),
        N_("{name} against itself 1 age group older")),
    ("groups", "one", "younger"): (
        N_("{name}, 1 age group younger"),
        N_("a difference as large as {name} against the same population 1 age group "
           "younger"),
        N_("{name} against itself 1 age group younger")),
    ("groups", "more", "older"): (
        N_("{name}, {k} age groups older"),
        N_("a difference as large as {name} against the same population {k} age groups "
           "older"),
        N_("{name} against itself {k} age groups older")),
    ("groups", "more", "younger"): (
        N_("{name}, {k} age groups younger"),
        N_("a difference as large as {name} against the same population {k} age groups "
           "younger"),
        N_("{name} against itself {k} age groups younger")),
    ("groups_years", "one", "older"): (
        N_("{name}, 1 age group ({years} years) older"),
        N_("a difference as large as {name} against the same population 1 age group "
           "({years} years) older"),
        N_("{name} against itself 1 age group ({years} years) older")),
    ("groups_years", "one", "younger"): (
        N_("{name}, 1 age group ({years} years) younger"),
        N_("a difference as large as {name} against the same population 1 age group "
           "({years} years) younger"),
        N_("{name} against itself 1 age group ({years} years) younger")),
    ("groups_years", "more", "older"): (
        N_("{name}, {k} age groups ({years} years) older"),
        N_("a difference as large as {name} against the same population {k} age groups "
           "({years} years) older"),
        N_("{name} against itself {k} age groups ({years} years) older")),
    ("groups_years", "more", "younger"): (
        N_("{name}, {k} age groups ({years} years) younger"),
        N_("a difference as large as {name} against the same population {k} age groups "
           "({years} years) younger"),
        N_("{name} against itself {k} age groups ({years} years) younger")),
}


def shift_phrases(s: Settings, name: str) -> tuple[str, str, str]:
    """A shift's (B's name, the difference, what is compared): "Korea, 1 age group (10
    years) older", each one whole template of :data:`SHIFT_PHRASES`."""
    k = int(s.shift)
    unit = ("bins" if s.width is None else "groups" if s.width == 1 else "groups_years")
    key = (unit, "one" if k == 1 else "more", "older" if s.sign > 0 else "younger")
    years = k * s.width if s.width is not None else None
    return tuple(t(template, name=name, k=k, years=years) for template in SHIFT_PHRASES[key])


def phrases(s: Settings, columns: dict[str, str], mark=str) -> tuple[str, str, str, str]:
    """(name A, name B, the difference, what is compared), users' names through ``mark``."""
    if s.mode == "two":
        a = side_name(s.source_a, columns.get("A"), mark)
        b = side_name(s.source_b, columns.get("B"), mark)
        return (a, b, t("a difference as large as {a} vs {b}", a=a, b=b),
                t("{a} vs {b}", a=a, b=b))
    name = side_name(s.base, columns.get("A"), mark)
    if s.effect == "shift":
        return (name, *shift_phrases(s, name))
    towards = tilt_words(s)
    return (name, t("{name}, tilted (d = {d:g})", name=name, d=s.distance),
            t("a difference of total-variation distance {d:g} from {name} (towards {towards})",
              d=s.distance, name=name, towards=towards),
            t("{name} against its tilt towards {towards} at distance {d:g}", name=name,
              towards=towards, d=s.distance))


def make_comparison(s: Settings, p1: np.ndarray, p2: np.ndarray, labels: list[str],
                    columns: dict[str, str], upload: sources.Upload | None = None) -> Comparison:
    name_a, name_b, difference, what = phrases(s, columns)
    return Comparison(labels, p1, p2, name_a, name_b, difference, what,
                      phrases(s, columns, ui_text.esc)[2], upload, dict(columns))


def same_distribution(comp: Comparison) -> Problem | None:
    if comp.tv >= 1e-12:
        return None
    return Problem(t(
        "A and B have the same distribution: there is no difference to detect. Any test then "
        "rejects at most as often as its level, whatever N and ε, so no target power can be "
        "reached. Pick two different populations, or an effect."))


# --- Cost ---------------------------------------------------------------------------------------

def setting_units(m: int, s: Settings) -> float:
    """Work of one simulated setting of the chosen test: drawn bins weighted by the test's
    cost per bin (simulation.work_units)."""
    return simulation.work_units(m, s.reps, s.n_boot, s.test)


def search_units(m: int, s: Settings) -> float:
    """Work of a typical search: planner.TYPICAL_CELLS simulated settings of the chosen test."""
    return planner.TYPICAL_CELLS * setting_units(m, s)


def setting_bins(m: int, s: Settings) -> float:
    """Bins one simulated setting draws, R·2M·(B + 1), whatever the test costs per bin."""
    return simulation.work_units(m, s.reps, s.n_boot, "bootstrap")


def accuracy_caption(m: int, s: Settings, speed: float) -> str:
    units = setting_units(m, s)
    if s.test == "bootstrap":  # the words of the page before the choice of test
        return t(
            "One simulated setting draws R·2M·(B + 1) = {units:,.0f} bins, about {one:.2g} s "
            "here; a search simulates about {cells} settings: about {search}. Settings "
            "simulated before on this server, with the same seed, are reused.", units=units,
            one=simulation.estimate_seconds(units, speed), cells=planner.TYPICAL_CELLS,
            search=fmt_seconds(simulation.estimate_seconds(search_units(m, s), speed)))
    return t(
        "One simulated setting of {test} draws R·2M·(B + 1) = {bins:,.0f} bins, counted as "
        "{units:,.0f} at its cost per bin, about {one:.2g} s here; a search simulates about "
        "{cells} settings: about {search}. Settings simulated before on this server, with the "
        "same seed and test, are reused.", test=test_name(s.test), bins=setting_bins(m, s),
        units=units, one=simulation.estimate_seconds(units, speed), cells=planner.TYPICAL_CELLS,
        search=fmt_seconds(simulation.estimate_seconds(search_units(m, s), speed)))


def search_refusal(comp: Comparison, s: Settings, speed: float) -> str | None:
    """Why a search at these settings is refused (its estimated time), or None."""
    units = search_units(comp.m, s)
    if units <= MAX_SEARCH_UNITS:
        return None
    time = fmt_seconds(simulation.estimate_seconds(units, speed))
    if s.test == "bootstrap":  # the words of the page before the choice of test
        return t(
            "This search would take about {time} here: about {cells} settings of R·2M·(B + 1) "
            "= {one:,.0f} drawn bins each, more than the page's cap of {cap:,.0f} per search. "
            "Lower R or B (in the accuracy settings) or use wider age groups (fewer bins M).",
            time=time, cells=planner.TYPICAL_CELLS, one=setting_units(comp.m, s),
            cap=MAX_SEARCH_UNITS)
    return t(
        "This search would take about {time} here: about {cells} settings of R·2M·(B + 1) = "
        "{bins:,.0f} drawn bins each, counted as {one:,.0f} each at the cost per bin of {test}, "
        "more than the page's cap of {cap:,.0f} per search. Lower R or B (in the accuracy "
        "settings), use wider age groups (fewer bins M), or choose the parametric bootstrap "
        "test.", time=time, cells=planner.TYPICAL_CELLS, bins=setting_bins(comp.m, s),
        one=setting_units(comp.m, s), test=test_name(s.test), cap=MAX_SEARCH_UNITS)


def frontier_units(m: int, s: Settings, alphas) -> float:
    """Work of a frontier: at each ε a search and a type-I check for each of its tests (the
    chosen bootstrap test and the naive one), each weighted by its cost."""
    return len(alphas) * (planner.TYPICAL_CELLS + 1) * sum(
        simulation.work_units(m, s.reps, s.n_boot, test) for test in frontier_tests(s))


def alpha_list(alphas) -> str:
    return ", ".join(f"{a:g}" for a in alphas)


def frontier_caption(m: int, s: Settings, alphas, speed: float) -> str:
    seconds = simulation.estimate_seconds(frontier_units(m, s, alphas), speed)
    values = dict(alphas=alpha_list(alphas), searches=len(alphas) * 2,
                  time=fmt_seconds(seconds))
    if s.same_alpha:
        return t("ε = {alphas}: about {searches} searches, {time} here (less for settings "
                 "simulated before).", **values)
    return t("ε = {alphas} (ε_B = {ratio:.3g} ε_A): about {searches} searches, {time} here "
             "(less for settings simulated before).", **values, ratio=s.ratio)


def frontier_refusal(m: int, s: Settings, alphas, speed: float) -> str | None:
    units = frontier_units(m, s, alphas)
    if units <= MAX_FRONTIER_UNITS:
        return None
    time = fmt_seconds(simulation.estimate_seconds(units, speed))
    if s.test == "bootstrap":  # the words of the page before the choice of test
        return t(
            "This frontier would take about {time} here ({units:,.0f} drawn bins, more than "
            "the page's cap of {cap:,.0f}). Use fewer points, lower R or B, or wider age "
            "groups.", time=time, units=units, cap=MAX_FRONTIER_UNITS)
    return t(
        "This frontier would take about {time} here ({units:,.0f} drawn bins counted at each "
        "test's cost per bin, more than the page's cap of {cap:,.0f}). Use fewer points, lower "
        "R or B, wider age groups, or the parametric bootstrap test.", time=time, units=units,
        cap=MAX_FRONTIER_UNITS)


# --- The searches -------------------------------------------------------------------------------

@counted(st.cache_resource(max_entries=1, show_spinner=False))
def cell_cache() -> planner.CellCache:
    """One bounded cache of simulated cells per server, shared by every session."""
    return planner.CellCache(CACHE_CELLS)


def sample_size_plan(comp: Comparison, s: Settings, progress=None, *,
                     simulate: bool = True) -> planner.SampleSizePlan:
    """The N needed per group at the settings' ε (cells kept in :func:`cell_cache`);
    ``simulate`` False: from the cache alone, else planner.CellsMissing."""
    return planner.required_sample_size(
        comp.p1, comp.p2, s.alpha1, s.alpha2, power=s.power, level=s.level, test=s.test,
        reps=s.reps, n_boot=s.n_boot, cache=cell_cache(), progress=progress,
        simulate=simulate, rng=s.seed)


def privacy_plan(comp: Comparison, s: Settings, progress=None, *,
                 simulate: bool = True) -> planner.PrivacyPlan:
    """The strongest ε affordable with the settings' N, ε_B/ε_A kept (``simulate``: as
    :func:`sample_size_plan`)."""
    return planner.strongest_privacy(
        comp.p1, comp.p2, s.n, power=s.power, level=s.level, test=s.test, alpha_ratio=s.ratio,
        reps=s.reps, n_boot=s.n_boot, cache=cell_cache(), progress=progress,
        simulate=simulate, rng=s.seed)


def recalled(search, comp: Comparison, s: Settings):
    """``search``'s plan if every setting it needs was simulated before on this server (at
    once, nothing simulated), else None."""
    try:
        return search(comp, s, simulate=False)
    except planner.CellsMissing:
        return None


def offer_text(comp: Comparison, s: Settings, searches: int, speed: float) -> str:
    """What pressing *Simulate* costs, and why the page waits for it after a control moved."""
    time = fmt_seconds(simulation.estimate_seconds(searches * search_units(comp.m, s), speed))
    work = (t("a search of about {cells} settings", cells=planner.TYPICAL_CELLS)
            if searches == 1 else
            t("{searches} searches of about {cells} settings each", searches=searches,
              cells=planner.TYPICAL_CELLS))
    return t(
        "These settings have not been simulated on this server yet: press *Simulate* "
        "({work}, {time} here). The page "
        "simulates by itself when it or a tab is opened; after a control moves, it shows at "
        "once what was simulated before and waits for you to ask for more.",
        work=work, time=time)


def frontier_alphas(s: Settings) -> list[float]:
    low, high = s.frontier_range
    return planner.alpha_grid(float(low), float(high), int(s.frontier_points))


def frontier(comp: Comparison, s: Settings, progress=None) -> pd.DataFrame:
    """The N each test (:func:`frontier_tests`) needs across the frontier's ε, with its type-I
    error there."""
    return planner.frontier(
        comp.p1, comp.p2, frontier_alphas(s), power=s.power, level=s.level,
        tests=frontier_tests(s), alpha_ratio=s.ratio, reps=s.reps, n_boot=s.n_boot,
        cache=cell_cache(), progress=progress, rng=s.seed)


def frontier_params(comp: Comparison, s: Settings, alphas) -> dict:
    """What a frontier depends on; ``alphas`` None: all but its privacy levels."""
    params = dict(comp=comp.key, test=s.test, level=s.level, power=s.power, ratio=s.ratio,
                  reps=s.reps, n_boot=s.n_boot, seed=s.seed)
    return params if alphas is None else params | {"alphas": tuple(alphas)}


def frontier_for(last: dict | None, comp: Comparison, s: Settings) -> pd.DataFrame | None:
    """The frontier ``last`` computed ({"params", "table"}), if it was computed for these
    settings (any ε grid)."""
    if last is None:
        return None
    params = dict(last["params"])
    params.pop("alphas")
    return last["table"] if params == frontier_params(comp, s, None) else None


# --- Figures ------------------------------------------------------------------------------------

def distributions_figure(comp: Comparison):
    return dpviz.planner.planner_distributions_figure(
        comp.labels, comp.p1, comp.p2, name_a=comp.name_a, name_b=comp.name_b)


def distributions_name(comp: Comparison) -> str:
    return t("The two distributions: {a} and {b}", a=comp.name_a, b=comp.name_b)


def data_figure(plan: planner.SampleSizePlan, s: Settings):
    from ui.pages import planner_text  # it imports this module

    estimate = plan.n if plan.status in ("found", "stopped") else None
    return dpviz.planner.planner_power_figure(
        plan.points, x="n", target=s.power, estimate=estimate,
        interval=plan.interval if estimate is not None else None, level=s.level,
        estimate_text=planner_text.n_full(plan) if estimate is not None else None)


def privacy_figure(plan: planner.PrivacyPlan, s: Settings):
    from ui.pages import planner_text  # it imports this module

    estimate = plan.alpha if plan.status in ("found", "stopped") else None
    return dpviz.planner.planner_power_figure(
        plan.points, x="alpha1", target=s.power, estimate=estimate,
        interval=plan.interval if estimate is not None else None, level=s.level,
        estimate_text=planner_text.alpha_full(plan) if estimate is not None else None)


def data_figure_name(s: Settings) -> str:
    """The data chart's name as the page and report show it."""
    eps = (t("ε = {eps:g}", eps=s.alpha1) if s.same_alpha else
           t("ε_A = {a:g}, ε_B = {b:g}", a=s.alpha1, b=s.alpha2))
    return t("Power against N at {eps}", eps=eps)


def data_figure_file(s: Settings) -> str:
    """The name its download files are made from (power_against_n_at_alpha_0_1.csv): kept
    with the symbol it had, α, and never translated, so people's scripts keep finding it."""
    alphas = (f"α = {s.alpha1:g}" if s.same_alpha else
              f"α₁ = {s.alpha1:g}, α₂ = {s.alpha2:g}")
    return f"Power against N at {alphas}"


def privacy_figure_name(s: Settings) -> str:
    return t("Power against ε with N = {n:,} per group", n=s.n)


def privacy_figure_file(s: Settings) -> str:
    """Its download files' name (power_against_alpha_with_n_….csv): kept, as above."""
    return f"Power against α with N = {s.n:,} per group"


# The headers of the tables of simulated points and of the frontier as shown, by column (their
# CSV keeps the column names).
TABLE_HEADERS = {"test": N_("test"), "hypothesis": N_("hypothesis"), "power": N_("power"),
                 "ci_low": N_("ci_low"), "ci_high": N_("ci_high"),
                 "rejections": N_("rejections"), "reps": N_("reps"), "n_boot": N_("n_boot"),
                 "n_low": N_("n_low"), "n_high": N_("n_high"), "status": N_("status"),
                 "type1_low": N_("type1_low"), "type1_high": N_("type1_high"),
                 "simulated": N_("simulated")}


def table_headers() -> dict[str, str]:
    """TABLE_HEADERS in the reader's language."""
    return {column: t(label) for column, label in TABLE_HEADERS.items()}


# The cells of those tables that hold names (their CSV keeps the names), as shown.
HYPOTHESES = {"null": N_("null: no difference"), "alternative": N_("alternative: your difference")}
STATUSES = {"found": N_("found"), "at_lower_bound": N_("reached at the smallest N searched"),
            "unreachable": N_("not reached at the largest N searched"),
            "stopped": N_("stopped at the cap on simulations")}


# The frontier table's columns on screen (its CSV and the report keep all of them).
FRONTIER_SHOWN = ("test", "alpha1", "alpha2", "n", "status", "type1", "valid")


def type1_texts(table: pd.DataFrame) -> list[str]:
    """Each frontier row's type-I error with its 95% interval, "0.052 (0.041–0.066)"; "—"
    where none was simulated."""
    return ["—" if pd.isna(v) else f"{v:.3f} ({lo:.3f}–{hi:.3f})"
            for v, lo, hi in zip(table["type1"], table["type1_low"], table["type1_high"])]


def cells_shown(table: pd.DataFrame) -> pd.DataFrame:
    """A table of simulated points or of the frontier as shown: its tests, hypotheses and
    search statuses in the reader's words (give the table itself to the kit as ``csv=``)."""
    return worded(table, {"test": dpviz.planner._test_name,
                          "hypothesis": lambda h: t(HYPOTHESES[h]) if h in HYPOTHESES else h,
                          "status": lambda x: t(STATUSES[x]) if x in STATUSES else x})


# The privacy points table: its name shown, and the name of its file (kept, as above).
PRIVACY_POINTS = (N_("Simulated power against ε"), "Simulated power against α")


def frontier_figure(table: pd.DataFrame, s: Settings, level: float, power: float):
    return dpviz.planner.planner_frontier_figure(table, current=(s.alpha1, s.n), level=level,
                                                 power=power)


# --- The numbers the page shows, and the view as code (dpcode.planner) -------------------------

# The labels of the numbers the page shows: its metrics, and the numbers of its tables
# (templates, filled with a row's N, ε_A or test).
NUMBER_LABELS = {
    "tv": N_("Effect size: total-variation distance"),
    "bins": N_("Bins M"),
    "n_needed": N_("N needed per group"),
    "n_interval": N_("Monte Carlo interval for N"),
    "your_n": N_("Your planned N"),
    "points_n": N_("rejections at N = {x:,}"),
    "points_alpha": N_("rejections at ε_A = {x:g}"),
    "frontier_n": N_("N needed at ε_A = {alpha:g} ({test})"),
    "frontier_type1": N_("type-I error at ε_A = {alpha:g} ({test})"),
}


def number_labels(s: Settings) -> dict[str, str]:
    """The labels of the numbers the page shows, translated (the tables' as templates), with
    those of the privacy tab's metrics: ε, or ε_A when B has its own."""
    labels = {key: t(label) for key, label in NUMBER_LABELS.items()}
    if s.same_alpha:
        labels.update(alpha_needed=t("Strongest privacy ε"),
                      alpha_interval=t("Monte Carlo interval for ε"), your_alpha=t("Your ε"))
    else:
        labels.update(alpha_needed=t("Strongest privacy ε_A"),
                      alpha_interval=t("Monte Carlo interval for ε_A"), your_alpha=t("Your ε_A"))
    return labels


def estimate_value(plan):
    """A plan's estimate (N or ε_A) as the view's code prints it: the number, or the search's
    status when it found none (the metric then shows "> …" or "not found")."""
    estimate = plan.n if isinstance(plan, planner.SampleSizePlan) else plan.alpha
    return estimate if estimate is not None else plan.status


def frontier_numbers(table: pd.DataFrame, labels: dict[str, str]) -> dict[str, object]:
    """The frontier's numbers by label: the N each test needs at each ε_A (its search's status
    where it found none) and its type-I error there."""
    numbers: dict[str, object] = {}
    for row in table.itertuples():
        where = dict(alpha=row.alpha1, test=row.test)
        numbers[labels["frontier_n"].format(**where)] = (int(row.n) if pd.notna(row.n)
                                                         else row.status)
        if pd.notna(row.type1):
            numbers[labels["frontier_type1"].format(**where)] = float(row.type1)
    return numbers


TAB_CODES = dict(zip(TABS, dpcode.planner.TABS))


def code_side(comp: Comparison, source: str, side: str) -> dpcode.planner.Side:
    """One distribution as the code gives it: a population, or the uploaded column."""
    if source in datasets.POPULATIONS:
        return dpcode.planner.Side("population", source=source)
    column = comp.upload.table[comp.columns[side]]
    if comp.upload.kind == "counts":
        return dpcode.planner.Side("counts",
                                   values=uploads.counts_from_column(column, name=side))
    return dpcode.planner.Side("values", values=column.dropna().to_numpy())


def code_builder(comp: Comparison, s: Settings, *, frontier: tuple | None = None,
                 frontier_stale: bool = False):
    """The view's code for the kit's Code button: link -> Program. ``frontier``: the frontier
    the view shows (dpcode.planner.View.frontier), ``frontier_stale``: it shows one computed
    with other settings (the code then has none)."""
    labels = number_labels(s)

    def build(link: str) -> dpcode.Program:
        two = s.mode == "two"
        chosen = (s.source_a, s.source_b) if two else (s.base,)
        effect = (None if two else ("shift", s.sign * int(s.shift)) if s.effect == "shift"
                  else ("tilt", float(s.distance), s.sign))
        view = dpcode.planner.View(
            tab=TAB_CODES[s.tab], a=code_side(comp, chosen[0], "A"),
            b=code_side(comp, chosen[1], "B") if two else None, effect=effect, width=s.width,
            bin_labels=None if s.width is not None else tuple(comp.labels),
            names=(comp.name_a, comp.name_b), test=s.test, level=s.level, power=s.power,
            alpha1=s.alpha1, alpha2=s.alpha2, n=s.n, reps=s.reps, n_boot=s.n_boot, seed=s.seed,
            frontier=frontier, frontier_stale=frontier_stale, labels=labels)
        return dpcode.planner.program(view, link=link, title=t(TITLE))
    return build
