"""The logic of the page "Compare two private histograms" (views/compare_histograms.py):
its settings, its computation, and the sentences and tables it shows. No layout here.

The view reads its controls into a :class:`Settings`, computes with
:func:`run_comparison` and writes what it shows with the builders below, each a pure
function of the settings and the result (tested in tests/test_ui_pages_compare_histograms.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

import dpcode
import dpcode.compare
from dpcore import datasets, histogram, homogeneity, planner, risk, simulation, study
from dpcore.homogeneity import BootstrapTestResult, HomogeneityResult
from ui import notation, oneperson, registry
from ui.cache import counted
from ui.format import fmt_p, fmt_sig, sig_text
from ui.kit import Experiment
from ui.sources import AGE_BINNINGS, SOURCE_LABELS, PairInput, SideInput
from ui.text import N_, error_text, esc, t

TITLE = registry.COMPARE.title
LEVEL = 0.05  # the level of both tests
# Work cap per request: bootstrap replicates x bins. The page runs Algorithm 1 (1 unit a
# cell) and the normal-score test with its calibration (3.7 + 3.7 units: the second level
# costs what the first does, simulation._COST), 8.4 units where it ran 4.7 before the
# calibration; both caps were scaled by 4.7 / 8.4 to keep the time they stand for: about
# a second of work for the cap,
MAX_BOOT_CELLS = 2_200_000
MIN_BOOT = 10  # the fewest replicates the cap leaves
# and, for the cells run at once after a moved control, about 0.1 core-s of the server's
# time (measured by benchmarks/change_cpu.py). More wait for *Simulate*, so that a class
# moving sliders at B = 10,000 costs reruns, not bootstraps.
QUICK_BOOT_CELLS = 28_000

#: The bootstrap tests the page runs, by the URL value of cmp_null_test.
BOOT_TESTS = ("bootstrap", "normal_score", "calibrated")
TEST_NAMES = {"bootstrap": N_("Algorithm 1"), "normal_score": N_("normal-score test"),
              "calibrated": N_("calibrated normal-score test")}
#: The tests the page's verdict and its size check are about: Algorithm 1 (the source's)
#: and the calibrated normal-score test (this project's trusted one).
VERDICT_TESTS = ("bootstrap", "calibrated")


@dataclass(frozen=True)
class Settings:
    """What the page computes from: every setting its URL holds, and the histograms the
    chosen sources give (``pair``, resolved by ui.sources)."""

    pair: PairInput  # histograms A and B over common bins (usable: labels, a and b set)
    source_a: str  # cmp_a: a key of ui.sources.SOURCE_LABELS
    source_b: str  # cmp_b
    width: int | None  # cmp_width: age groups of so many years; None without a population
    bins: int  # M: cmp_m for shapes and binned values, else as the age groups or file give it
    n_a: int | None  # cmp_n: people drawn for A; None when nothing is drawn
    separate_n: bool  # cmp_n_sep: B has a sample size of its own
    n_b: int | None  # cmp_n_b when separate_n, else n_a
    alpha_a: float  # cmp_alpha_a: privacy level ε_A of histogram A (α₁ in SPJ22)
    alpha_b: float  # cmp_alpha_b
    boot: int  # cmp_boot: bootstrap replicates B as chosen (see n_boot)
    seed: int  # cmp_seed
    zoom: bool = False  # cmp_zoom: the debiasing chart zoomed on small counts
    null_test: str = "bootstrap"  # cmp_null_test: whose null distribution the chart shows

    @property
    def n_boot(self) -> int:
        """The bootstrap replicates run: ``boot``, limited by the work cap."""
        return limited_boot(self.boot, self.bins)

    @property
    def quick(self) -> bool:
        """Whether the bootstraps run at once after a moved control (else on request)."""
        return self.n_boot * self.bins <= QUICK_BOOT_CELLS

    def run_key(self) -> tuple:
        """What :func:`run_comparison` computes from, hashable: to remember in the session
        which comparisons were run (they are in the server's cache)."""
        sides = tuple((side.name, side.fixed, hashlib.sha1(side.values.tobytes()).hexdigest())
                      for side in (self.pair.a, self.pair.b))
        return (sides, self.pair.private, self.n_a, self.n_b, self.alpha_a, self.alpha_b,
                self.n_boot, self.seed)

    def report_items(self) -> dict[str, str]:
        """The report's settings, label -> value."""
        return {
            t("Histogram A"): self.pair.a.name, t("Histogram B"): self.pair.b.name,
            t("Bins M"): f"{self.bins:,}",
            t("People N in A"): people(self.pair, self.pair.a, self.n_a),
            t("People N in B"): people(self.pair, self.pair.b, self.n_b),
            t("Privacy level ε_A (A)"): fmt_eps(self.alpha_a),
            t("Privacy level ε_B (B)"): fmt_eps(self.alpha_b),
            t("Bootstrap replicates B"): f"{self.n_boot:,}", t("Seed"): f"{self.seed}",
            t("Significance level"): f"{LEVEL:.0%}",
            t("Null distribution shown"): t(TEST_NAMES[self.null_test]),
        }


# --- numbers and symbols as the page writes them ----------------------------------------------


def fmt_eps(value: float) -> str:
    """A privacy level as the controls show it (0.001 … 10), never in e-notation."""
    return sig_text(value, 6)


def one_person(s: Settings) -> oneperson.Level:
    """What the releases mean for one person: each histogram is ε-DP at its own level, and
    a person is in one of them; the weaker level (the larger ε) bounds them both."""
    eps = max(s.alpha_a, s.alpha_b)
    return oneperson.Level(
        risk.Guarantee.pure(eps), f"ε = {fmt_eps(eps)}",
        t("Each histogram is released with ε-differential privacy: a person in histogram A "
          "at ε_A = {a}, a person in B at ε_B = {b}. Below, the larger of the two, which "
          "bounds both.", a=fmt_eps(s.alpha_a), b=fmt_eps(s.alpha_b)))


def shown_p(p: float) -> str:
    """A naive p-value as the page shows it: :func:`ui.format.fmt_p` (2.68·10⁻¹⁵; one that
    underflowed to 0 as "< 10⁻³⁰⁰")."""
    return fmt_p(p)


def privacy_help(side: str, *, first: bool) -> str:
    """The help of histogram ``side``'s privacy control; the first names the source's α."""
    if first:
        return t("Privacy level ε_{side} of histogram {side} {source}: the Laplace mechanism "
                 "adds noise Lap(2/ε_{side}) to every count of histogram {side}. Smaller ε = "
                 "stronger privacy = more noise. Log scale, 0.001 to 10.", side=side,
                 source=notation.in_source("α" + ("₁" if side == "A" else "₂"),
                                           notation.SPJ22))
    return t("Privacy level ε_{side} of histogram {side}: the Laplace mechanism adds noise "
             "Lap(2/ε_{side}) to every count of histogram {side}. Smaller ε = stronger privacy "
             "= more noise. Log scale, 0.001 to 10.", side=side)


def privacy_caption() -> str:
    """Said once, by the first privacy control: the source's own symbol."""
    return t("ε is the privacy level {note}: noise Lap(2/ε) on every count.",
             note=notation.in_source("α", notation.SPJ22))


def advanced_caption(boot: int, seed: int) -> str:
    """The values of the collapsed advanced controls, said beside them."""
    return t("B = {boot:,} replicates, seed {seed}", boot=boot, seed=seed)


# --- guided experiments ("Try this") ------------------------------------------------------

#: The page's guided experiments, each a link (the page's URL parameters) and what to notice;
#: tests/test_page_compare_histograms.py opens each and checks the notice on the page.
_KOREA = SOURCE_LABELS["korea"]  # a selectbox's URL value is its option's label
EXPERIMENTS = (
    Experiment(
        N_("Set A = B and watch the naive test reject identical populations"),
        N_("Both histograms are drawn from the same population (Korea, N = 10,000 each) with "
           "strong privacy, ε_A = ε_B = 0.05. The naive χ² test's p-value is tiny: it takes the "
           "noise for a difference. The parametric bootstrap test of Son, Park & Jung (2022) "
           "simulates that noise and does not reject (p well above 5%)."),
        {"cmp_a": _KOREA, "cmp_b": _KOREA, "cmp_alpha_a": "0.05", "cmp_alpha_b": "0.05"}),
    Experiment(
        N_("Give A and B different ε and see which test keeps its significance level"),
        N_("Again the same population on both sides (Korea, single years: M = 86 bins, N = 1,000 "
           "each), but ε_A = 0.01 and ε_B = 1. Algorithm 1 now rejects (p < 5%) although nothing "
           "differs, and the yellow note under the verdict says why: in simulations at these "
           "settings it rejects almost every time. The calibrated normal-score test keeps its 5% "
           "significance level and does not reject. Histogram A is mostly noise here, so no test "
           "could find a real difference either."),
        {"cmp_a": _KOREA, "cmp_b": _KOREA, "cmp_width": AGE_BINNINGS[1], "cmp_n": "1,000",
         "cmp_alpha_a": "0.01", "cmp_alpha_b": "1"}),
)


def uses_age_groups(source_a: str, source_b: str) -> bool:
    """Whether the bins are age groups (cmp_width is shown): a population is chosen."""
    return source_a in datasets.POPULATIONS or source_b in datasets.POPULATIONS


def limited_boot(boot: int, bins: int) -> int:
    """The bootstrap replicates the work cap allows with ``bins`` bins."""
    return boot if boot * bins <= MAX_BOOT_CELLS else max(MIN_BOOT, MAX_BOOT_CELLS // bins)


# --- the computation ----------------------------------------------------------------------


@counted(st.cache_data(max_entries=64, show_spinner=False))
def run_comparison(pair: PairInput, n_a, n_b, alpha_a, alpha_b, n_boot, seed) -> HomogeneityResult:
    """Release (or take as released) histograms A and B and test them: the naive χ² test,
    the parametric bootstrap test (Algorithm 1) and the normal-score test."""
    if pair.private:
        return homogeneity.release_and_test(
            pair.a.values, pair.b.values, alpha_a, alpha_b, n_boot=n_boot, private=True, rng=seed
        )
    return homogeneity.sample_and_test(
        pair.a.values, pair.b.values,
        None if pair.a.fixed else n_a, None if pair.b.fixed else n_b,
        alpha_a, alpha_b, n_boot=n_boot, rng=seed,
    )


@dataclass(frozen=True)
class NoisySide:
    """A histogram whose noise is larger than its average count per bin."""

    label: str  # "A" or "B"
    alpha: float
    noise: float  # standard deviation of the noise on each count
    mean_count: float  # people per bin


def noisy_sides(settings: Settings, result: HomogeneityResult) -> list[NoisySide]:
    """The histograms that are mostly noise (their tests are unreliable)."""
    found = []
    for label, alpha, orig, n_hat in (
        ("A", settings.alpha_a, result.original1, result.estimate.n1_hat),
        ("B", settings.alpha_b, result.original2, result.estimate.n2_hat),
    ):
        mean_count = (n_hat if orig is None else orig.sum()) / settings.bins
        noise = histogram.noise_sd(alpha)
        if noise > mean_count:
            found.append(NoisySide(label, alpha, noise, mean_count))
    return found


# --- sentences ------------------------------------------------------------------------------


def people(pair: PairInput, side: SideInput, n) -> str:
    """The N of one histogram in words, for the report's settings."""
    if pair.private:
        return t("unknown (already private counts)")
    if side.fixed:
        return t("{n:,.0f} (as uploaded)", n=side.values.sum())
    return f"{n:,}"


def boot_limit_info(bins: int, wanted: int, used: int, seconds: float) -> str:
    return t("With M = {m:,} bins the bootstrap is limited to B = {used:,} replicates to keep "
             "the page responsive: B = {wanted:,} would take about {seconds:,.0f} s here.",
             m=bins, used=used, wanted=wanted, seconds=seconds)


def boot_offer(bins: int, n_boot: int) -> str:
    """What the Simulate button of the comparison would run."""
    return t("B = {n_boot:,} bootstrap replicates of M = {m:,} bins ({cells:,} simulated "
             "counts per test) take longer than a moved control should (up to {quick:,} run at "
             "once): press *Simulate*. Settings run before in this session show at once.",
             n_boot=n_boot, m=bins, cells=n_boot * bins, quick=QUICK_BOOT_CELLS)


def boot_limit_note(bins: int, used: int) -> str:
    return t("With M = {m:,} bins the bootstrap was limited to B = {used:,} replicates to keep "
             "the page responsive.", m=bins, used=used)


def comparison_error(error: Exception) -> str:
    return t("The comparison cannot be computed: {error}", error=error_text(error))


def bootstrap_error(result: HomogeneityResult) -> str:
    return t("The bootstrap test cannot be run on these histograms. {error}",
             error=error_text(result.bootstrap_error))


def bootstrap_error_finding(result: HomogeneityResult) -> str:
    return t("The parametric bootstrap test cannot be run on these histograms: {error}",
             error=error_text(result.bootstrap_error))


def finds_difference(result: HomogeneityResult, test: str = "bootstrap") -> bool:
    """The test's verdict at the 5% significance level (p-value < 5%, the same as T > critical
    value)."""
    return getattr(result, test).rejects(LEVEL)


def pvalue_text(boot: BootstrapTestResult) -> str:
    """The p-value as shown: (1 + #{T_b ≥ T}) / (B + 1), or "< 1/(B + 1)" when no
    replicate reached T (the p-value is then its smallest value, never 0)."""
    if boot.below_resolution:
        return t("< {p}", p=fmt_sig(1 / (boot.n_boot + 1), 2))
    return fmt_sig(boot.pvalue, 3)


def _p_words(boot: BootstrapTestResult) -> str:
    if boot.test == "calibrated":
        if boot.below_resolution:
            return t("p < 1/(B + 1) = {p}, {n_boot:,} replicates at each of two levels; "
                     "uncalibrated p = {single}", p=fmt_sig(1 / (boot.n_boot + 1), 2),
                     n_boot=boot.n_boot, single=fmt_sig(boot.pvalue_single, 3))
        return t("p = {p} from {n_boot:,} replicates at each of two levels; uncalibrated "
                 "p = {single}", p=fmt_sig(boot.pvalue, 3), n_boot=boot.n_boot,
                 single=fmt_sig(boot.pvalue_single, 3))
    if boot.below_resolution:
        return t("p < 1/(B + 1) = {p} (none of the {n_boot:,} replicates reached T)",
                 p=fmt_sig(1 / (boot.n_boot + 1), 2), n_boot=boot.n_boot)
    return t("p = {p} from {n_boot:,} replicates", p=fmt_sig(boot.pvalue, 3),
             n_boot=boot.n_boot)


def verdict(settings: Settings, result: HomogeneityResult, *, markdown: bool = True) -> str:
    """Both bootstrap tests' verdicts: for the page (Markdown, the findings in bold, the
    names escaped) or, with ``markdown=False``, for the report (plain text)."""
    name_a, name_b = settings.pair.a.name, settings.pair.b.name
    if markdown:
        name_a, name_b = esc(name_a), esc(name_b)
    parts = []
    for test, boot in (("bootstrap", result.bootstrap), ("calibrated", result.calibrated)):
        if boot is None:
            continue
        label = (t("the parametric bootstrap test (Algorithm 1)") if test == "bootstrap"
                 else t("the calibrated normal-score test"))
        values = dict(test=label, p=_p_words(boot))
        # Each test's verdict is one whole clause (on the page, its finding in bold).
        if boot.rejects(LEVEL):
            parts.append(t("{test} **finds** a difference ({p})", **values) if markdown
                         else t("{test} finds a difference ({p})", **values))
        else:
            parts.append(t("{test} **does not find** a difference ({p})", **values)
                         if markdown else
                         t("{test} does not find a difference ({p})", **values))
    return t("At the 5% significance level, between histogram A ({a}) and histogram B ({b}): "
             "{parts}.",
             a=name_a, b=name_b, parts=t("; ").join(parts))


def tests_disagree(result: HomogeneityResult) -> bool:
    return (result.bootstrap is not None
            and result.bootstrap.rejects(LEVEL) != result.normal_score.rejects(LEVEL))


def size_query(settings: Settings, result: HomogeneityResult) -> tuple[float, float, bool]:
    """N_A and N_B to look the measured type-I error up with, and whether they are
    estimated: the drawn or uploaded sizes when known, else the normal-score test's
    estimated totals (already private counts)."""
    known = result.original1 is not None
    if known:
        return float(result.original1.sum()), float(result.original2.sum()), False
    est = result.normal_score.estimate
    return max(est.n1_total, 1.0), max(est.n2_total, 1.0), True


def measured_size(settings: Settings, result: HomogeneityResult) -> study.MeasuredSize | None:
    """The shipped grids' measured sizes at the nearest setting where both of the verdict's
    tests were simulated."""
    n1, n2, _ = size_query(settings, result)
    return study.measured_size(settings.bins, settings.alpha_a, settings.alpha_b, n1, n2,
                               tests=VERDICT_TESTS)


def _rate_words(rate: tuple[float, float, float]) -> str:
    return t("{rate} (95% interval {low}–{high})", rate=f"{rate[0]:.1%}", low=f"{rate[1]:.1%}",
             high=f"{rate[2]:.1%}")


def _setting_words(size: study.MeasuredSize) -> str:
    return t("M = {m}, ε_A = {a1}, ε_B = {a2}, N = ({n1}, {n2})", m=size.m,
             a1=fmt_eps(size.alpha1), a2=fmt_eps(size.alpha2), n1=f"{size.n1:,}",
             n2=f"{size.n2:,}")


def _factor_words(factor: float) -> str:
    """A factor between two settings as the sentences write it: 1.2, 3.2, 100, 5,000."""
    return f"{factor:.2g}" if factor < 10 else f"{round(factor, -int(np.log10(factor)) + 1):,.0f}"


def _where_words(size: study.MeasuredSize, estimated: bool) -> str:
    """Where the shipped grid measured the level, as one whole phrase: at these settings or
    at the nearest simulated one and how far it is; inside or outside the simulated range;
    with N known or estimated from the private counts."""
    if size.exact:
        where = t("at these settings")
    elif size.near:
        where = t("at the nearest simulated setting ({setting}), within a factor {factor} of "
                  "yours on every axis", setting=_setting_words(size),
                  factor=_factor_words(size.factor))
    elif size.inside:
        where = t("at the nearest simulated setting ({setting}), a factor {factor} from yours "
                  "on one axis, too far to stand for it", setting=_setting_words(size),
                  factor=_factor_words(size.factor))
    else:
        where = t("at the nearest simulated setting ({setting}), a factor {factor} from yours "
                  "on one axis and outside the simulated range, too far to stand for it",
                  setting=_setting_words(size), factor=_factor_words(size.factor))
    return (t("{where} (N estimated from the private counts)", where=where) if estimated
            else where)


def size_words(name: str, rate: tuple[float, float, float]) -> str:
    """One test's measured size under 'no difference' and what its interval says."""
    verdict_ = study.size_verdict(rate[1], rate[2])
    values = dict(test=name, rate=_rate_words(rate))
    if verdict_ == "liberal":
        return t("{test} rejected {rate} of the time: too liberal, its interval lies above "
                 "5%, so do not trust its small p-values", **values)
    if verdict_ == "conservative":
        return t("{test} rejected {rate} of the time: conservative, its interval lies below "
                 "5%; it keeps its level but rejects less often than 5% when nothing "
                 "differs, so it can miss real differences", **values)
    return t("{test} rejected {rate} of the time, keeping its 5% significance level", **values)


def trust_kind(alg1: tuple[float, float, float], ours: tuple[float, float, float]) -> str:
    """Which test the page trusts from the two measured sizes: "ok" (both keep their level,
    conservative included), "alg1" (only the calibrated test does), "ours" (only Algorithm 1
    does), "none" (both are too liberal)."""
    alg1_ok = study.size_verdict(alg1[1], alg1[2]) != "liberal"
    ours_ok = study.size_verdict(ours[1], ours[2]) != "liberal"
    return {(True, True): "ok", (False, True): "alg1", (True, False): "ours",
            (False, False): "none"}[(alg1_ok, ours_ok)]


def _trust_words(kind: str) -> str:
    return {
        "ok": t("Either can be trusted here."),
        "alg1": t("Trust the calibrated normal-score test here."),
        "ours": t("Trust Algorithm 1 here."),
        "none": t("Neither keeps its level here: read both p-values with care."),
    }[kind]


def size_sentence(where: str, rates: dict, sims: str) -> tuple[str, str]:
    """(kind, sentence) of :func:`trust_kind` for the two verdict tests' measured sizes."""
    alg1, ours = rates["bootstrap"], rates["calibrated"]
    kind = trust_kind(alg1, ours)
    text = t("Under 'no difference', {where}: {alg1}; {ours} ({sims}). {trust}", where=where,
             alg1=size_words(t("Algorithm 1"), alg1),
             ours=size_words(t("the calibrated normal-score test"), ours), sims=sims,
             trust=_trust_words(kind))
    return kind, text


def calibration_sentence(settings: Settings, result: HomogeneityResult) -> tuple[str, str] | None:
    """What the shipped null grids say about the two verdict tests' level near these
    settings, and which to trust: (kind, sentence) with kind as :func:`trust_kind`, or
    None without grids. A setting not near the grid says so (see :func:`needs_check`)."""
    size = measured_size(settings, result)
    if size is None:
        return None
    _, _, estimated = size_query(settings, result)
    sims = t("Korea vs Korea, {reps:,} simulated pairs", reps=size.reps)
    kind, text = size_sentence(_where_words(size, estimated), size.rates, sims)
    if not (size.exact or size.near):
        text += " " + t("The grid does not answer for your setting: check it below.")
    return kind, text


def needs_check(settings: Settings, result: HomogeneityResult) -> bool:
    """Whether the grids do not answer for these settings: no simulated setting within
    a factor `study.NEAR_FACTOR` on every axis (or no grid at all)."""
    size = measured_size(settings, result)
    return size is None or not (size.exact or size.near)


@dataclass(frozen=True)
class SizeCheck:
    """What a size check simulates: the null fitted to the data (the calibrated test's p̂₀
    and N̂ᵢ), the privacy levels and the seed."""

    p0: tuple  # p̂₀, one per bin
    n1: int
    n2: int
    alpha_a: float
    alpha_b: float
    seed: int
    reps: int  # simulation.SIZE_CHECK_REPS when made
    boot: int  # simulation.SIZE_CHECK_BOOT when made

    @property
    def units(self) -> float:
        """Work units of the check (simulation.work_units), for its time estimate."""
        return sum(simulation.work_units(len(self.p0), self.reps, self.boot, test)
                   for test in simulation.SIZE_CHECK_TESTS)


def size_check_of(settings: Settings, result: HomogeneityResult) -> SizeCheck:
    est = result.calibrated.estimate
    return SizeCheck(tuple(float(v) for v in est.p0_hat), max(1, int(est.n1_hat)),
                     max(1, int(est.n2_hat)), settings.alpha_a, settings.alpha_b, settings.seed,
                     simulation.SIZE_CHECK_REPS, simulation.SIZE_CHECK_BOOT)


@counted(st.cache_resource(max_entries=1, show_spinner=False))
def size_checks() -> planner.CellCache:
    """The size checks simulated on this server, by what they simulate (bounded, the least
    recently used out first)."""
    return planner.CellCache(16)


def checked_size(check: SizeCheck) -> pd.DataFrame | None:
    """The size check's table if it was run on this server, else None."""
    return size_checks().get(check)


def run_size_check(check: SizeCheck, progress) -> pd.DataFrame:
    """Simulate the two verdict tests' size under the fitted null (simulation.size_check),
    ``progress(fraction, label)`` following it; kept per check on the server. Shared: only
    read after this."""
    table = size_checks().get(check)
    if table is None:
        table = simulation.size_check(np.array(check.p0), check.n1, check.n2, check.alpha_a,
                                      check.alpha_b, reps=check.reps, n_boot=check.boot,
                                      rng=check.seed, progress=progress)
        size_checks().put(check, table)
    return table


def size_check_offer(check: SizeCheck, seconds: float) -> str:
    return t("Simulate both tests {reps:,} times at your own setting, under the null fitted to "
             "your data (p̂₀ and N̂ = ({n1}, {n2}), your ε), with B = {boot:,}: about "
             "{seconds:.0f} s.", reps=check.reps, n1=f"{check.n1:,}", n2=f"{check.n2:,}",
             boot=check.boot, seconds=seconds)


def size_check_sentence(check: SizeCheck, table: pd.DataFrame) -> tuple[str, str]:
    """(kind, sentence) of the size check: as :func:`size_sentence`, at the user's setting."""
    rates = {r.test: (float(r.rate), float(r.ci_low), float(r.ci_high))
             for r in table.itertuples()}
    where = t("at your setting, under the null fitted to your data (N̂ = ({n1}, {n2}))",
              n1=f"{check.n1:,}", n2=f"{check.n2:,}")
    sims = t("{reps:,} simulated pairs per test, B = {boot:,}, seed {seed}",
             reps=check.reps, boot=check.boot, seed=check.seed)
    return size_sentence(where, rates, sims)


def naive_finding(result: HomogeneityResult) -> str:
    naive = result.naive
    p = shown_p(naive.pvalue)
    return t("The naive χ² test, which treats the noisy counts as exact, gives p {p} "
             "(χ² = {stat:,.1f}, df = {df}); on private histograms it rejects far more often "
             "than its level, so it is shown for comparison only.",
             p=p if p.startswith("<") else f"= {p}", stat=naive.statistic, df=naive.df)


def noise_warning(side: NoisySide) -> str:
    return t("Histogram {label} is mostly noise: at ε_{label} = {alpha} the noise on each count "
             "has standard deviation {noise:,.0f}, more than the average count per bin "
             "({mean:,.1f}). N̂ and both tests are unreliable here; increase N or ε_{label}, or "
             "use wider bins.", label=side.label, alpha=fmt_eps(side.alpha), noise=side.noise,
             mean=side.mean_count)


def noise_note(side: NoisySide) -> str:
    return t("Histogram {label} is mostly noise: at ε_{label} = {alpha} the noise on each count "
             "has standard deviation {noise:,.0f}, more than the average count per bin "
             "({mean:,.1f}); N̂ and both tests are unreliable here.", label=side.label,
             alpha=fmt_eps(side.alpha), noise=side.noise, mean=side.mean_count)


def naive_help(result: HomogeneityResult) -> str:
    return t("χ² = {stat:,.1f} on df = M − 1 = {df}, referred to the χ² distribution as if the "
             "counts were not noisy.", stat=result.naive.statistic, df=result.naive.df)


def naive_caption(result: HomogeneityResult) -> str:
    return t("χ² = {stat:,.1f}, df = {df}", stat=result.naive.statistic, df=result.naive.df)


def bootstrap_caption(boot: BootstrapTestResult) -> str:
    """T and the critical value: T > critical value exactly when p < 5%."""
    crit = boot.critical_value(LEVEL)
    crit_text = (t("none (B too small to reject at the 5% significance level)")
                 if crit == float("inf")
                 else f"{crit:,.1f}")
    return t("T = {stat:,.1f}; 5% critical value {crit}", stat=boot.statistic, crit=crit_text)


def calibrated_caption(boot: BootstrapTestResult) -> str:
    """The calibrated test's T, critical value and the uncalibrated p-value it corrects."""
    return t("{caption}; uncalibrated (normal-score test) p = {single}",
             caption=bootstrap_caption(boot), single=fmt_sig(boot.pvalue_single, 3))


def null_result(result: HomogeneityResult, test: str) -> BootstrapTestResult | None:
    """The bootstrap test whose null distribution the chart shows."""
    return getattr(result, test)


def null_caption(test: str) -> str:
    if test == "bootstrap":
        return t("Green: Algorithm 1's statistic on B histograms simulated under 'no "
                 "difference' from the estimated N̂ᵢ and p̂₀, with the same noise. Dotted: the "
                 "χ²(M − 1) density the naive test assumes; where the two differ, the naive "
                 "p-value is wrong.")
    if test == "calibrated":
        return t("Green: the normal-score statistic on B histograms simulated under 'no "
                 "difference', as for the normal-score test. The calibrated test draws, from "
                 "the estimates of each, one more histogram pair (a second level): where those "
                 "fall lighter than the first level, the simulated null is lighter than the "
                 "true one, and its 5% critical value moves up by as much.")
    return t("Green: the normal-score statistic on B histograms simulated under 'no "
             "difference' from its estimated totals and p̂₀, with the same noise, the estimates "
             "recomputed on each. Dotted: χ²(M − 1), its large-sample reference without noise.")


@dataclass(frozen=True)
class SizeEstimate:
    """The metric of one histogram's estimated N̂, against its true N when known."""

    label: str  # "Estimated N̂ (A)"
    n_hat: int
    value: str
    delta: str | None
    caption: str


def size_estimates(result: HomogeneityResult) -> list[SizeEstimate]:
    """N̂ of histograms A and B, each against its true N when known."""
    out = []
    for side, n_hat, orig in (("A", result.estimate.n1_hat, result.original1),
                              ("B", result.estimate.n2_hat, result.original2)):
        delta = None if orig is None else t("{d:+,.0f} vs true N", d=n_hat - orig.sum())
        caption = (t("true N unknown (private input)") if orig is None
                   else t("true N = {n:,.0f}", n=orig.sum()))
        out.append(SizeEstimate(t("Estimated N̂ ({side})", side=side), n_hat, f"{n_hat:,}",
                                delta, caption))
    return out


def code_builder(settings: Settings, *, size_check: SizeCheck | None = None):
    """The view's code (dpcode.compare) for the kit's Code button: link -> Program; with
    ``size_check`` (one the page ran), the program runs it too."""
    def side(s: SideInput) -> dpcode.compare.Side:
        return dpcode.compare.Side(s.name, s.values, s.fixed, s.expression)

    def build(link: str) -> dpcode.Program:
        pair = settings.pair
        return dpcode.compare.program(
            a=side(pair.a), b=side(pair.b), labels=list(pair.labels), private=pair.private,
            n_a=None if pair.private or pair.a.fixed else settings.n_a,
            n_b=None if pair.private or pair.b.fixed else settings.n_b,
            alpha_a=settings.alpha_a, alpha_b=settings.alpha_b, n_boot=settings.n_boot,
            seed=settings.seed, null_test=settings.null_test, zoom=settings.zoom, link=link,
            title=t(TITLE),
            size_check=None if size_check is None else (size_check.reps, size_check.boot))
    return build


def trace_names(settings: Settings) -> tuple[str, str]:
    """The legend names of histograms A and B in the chart (Plotly: not Markdown)."""
    return (t("A: {name}, ε_A = {eps}", name=settings.pair.a.name, eps=fmt_eps(settings.alpha_a)),
            t("B: {name}, ε_B = {eps}", name=settings.pair.b.name, eps=fmt_eps(settings.alpha_b)))


def method_note() -> str:
    return t("The parametric bootstrap test of Son, Park & Jung (2022, Algorithm 1) refers the "
             "statistic T to B histograms simulated under 'no difference' with the same noise. "
             "The normal-score test (this project) does the same with a statistic built from "
             "normal scores of the private counts, refitted on every simulated pair; its "
             "calibrated version (a fast double bootstrap, Davidson & MacKinnon 2007) corrects "
             "the simulated null where it is too light, and the verdict follows it. Where each "
             "keeps its 5% significance level was measured by simulation, as the page says. "
             "The p-values are (1 + #{{T_b ≥ T}}) / (B + 1) (the calibrated one with its "
             "critical value moved), never 0, with a Monte Carlo standard error of at most "
             "0.5/√B; Son, Park & Jung (2022)'s #{{T_b > T}} / B "
             "(their Algorithm 1, line 11) is in the results table. The naive χ² test refers T to "
             "χ²(M − 1) as if the counts were not noisy. The privacy level is written ε "
             "{note}.", note=notation.in_source("α", notation.SPJ22))


# --- tables -----------------------------------------------------------------------------------


def per_bin_table(settings: Settings, result: HomogeneityResult) -> pd.DataFrame:
    """Per bin: true, private, debiased and rescaled counts, and the pooled p̂₀."""
    return result.histogram_table(settings.pair.labels).reset_index()


#: The per-bin table's headers as shown (its CSV keeps the column names).
_PER_BIN_HEADERS = {"original": "C", "private": "X", "debiased": "C̃", "rescaled": "Ĉ"}


def per_bin_header(column: str) -> str:
    """The shown header of a per-bin column: its symbol and histogram, "C̃ (A)"."""
    if column == "p0_hat":
        return "p̂₀"
    kind, _, side = column.rpartition("_")
    return t("{symbol} ({side})", symbol=_PER_BIN_HEADERS[kind], side=side) \
        if kind in _PER_BIN_HEADERS else column


def per_bin_format(column: str) -> str:
    """The printf format a column of the per-bin table is shown with."""
    if column == "p0_hat":
        return "%.4f"
    return "%.0f" if column.startswith("original") else "%.1f"


#: The results table's quantities in words, as shown (the CSV keeps their names).
SUMMARY_NAMES = {
    "alpha_A": N_("privacy level ε_A"), "alpha_B": N_("privacy level ε_B"), "bins_M": N_("bins M"),
    "N_A": N_("people N in A"), "N_B": N_("people N in B"),
    "N_hat_A": N_("estimated N̂ of A (eq. 4.3)"), "N_hat_B": N_("estimated N̂ of B (eq. 4.3)"),
    "chisq_statistic": N_("naive χ² statistic"), "chisq_df": N_("naive χ² degrees of freedom"),
    "chisq_pvalue": N_("naive χ² p-value"),
    "bootstrap_statistic_T": N_("Algorithm 1: statistic T"),
    "bootstrap_replicates_B": N_("Algorithm 1: replicates B"),
    "bootstrap_critical_value_5pct": N_("Algorithm 1: 5% critical value"),
    "bootstrap_pvalue": N_("Algorithm 1: p-value (1 + #{T_b ≥ T}) / (B + 1)"),
    "bootstrap_pvalue_source_line11": N_("Algorithm 1: #{T_b > T} / B, line 11 of Son, Park & "
                                         "Jung (2022)"),
    "normal_score_N_hat_A": N_("normal-score test: estimated N of A"),
    "normal_score_N_hat_B": N_("normal-score test: estimated N of B"),
    "normal_score_statistic_T": N_("normal-score test: statistic T"),
    "normal_score_replicates_B": N_("normal-score test: replicates B"),
    "normal_score_critical_value_5pct": N_("normal-score test: 5% critical value"),
    "normal_score_pvalue": N_("normal-score test: p-value"),
    "calibrated_critical_value_5pct": N_("calibrated normal-score test: 5% critical value"),
    "calibrated_pvalue": N_("calibrated normal-score test: p-value (fast double bootstrap)"),
}


def _summary_value(quantity: str, value: float) -> str:
    if quantity == "chisq_pvalue":  # may underflow to 0: "< 10⁻³⁰⁰", never "0"
        return shown_p(value) if value <= 0 else fmt_sig(value, 4)
    if value.is_integer():
        return f"{value:,.0f}"
    return f"{value:,.1f}" if abs(value) >= 1000 else fmt_sig(value, 4)


def summary_shown(summary: pd.DataFrame) -> pd.DataFrame:
    """The tests and estimates as shown: each quantity in words, whole numbers and numbers
    from 1,000 on with thousands separated, others with 4 significant digits (never
    e-notation: 2.68·10⁻¹⁵), the naive p-value never "0"; the CSV keeps the names and the
    numbers."""
    return summary.assign(
        quantity=[t(SUMMARY_NAMES[q]) if q in SUMMARY_NAMES else q
                  for q in summary["quantity"]],
        value=[_summary_value(q, float(v)) for q, v in zip(summary["quantity"],
                                                            summary["value"])])
