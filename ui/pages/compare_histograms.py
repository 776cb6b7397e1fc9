"""The logic of the page "Compare two private histograms" (views/compare_histograms.py):
its settings, its computation, and the sentences and tables it shows. No layout here.

The view reads its controls into a :class:`Settings`, computes with
:func:`run_comparison` and writes what it shows with the builders below, each a pure
function of the settings and the result (tested in tests/test_ui_pages_compare_histograms.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from dpcore import datasets, histogram, homogeneity
from dpcore.homogeneity import HomogeneityResult
from ui import registry
from ui.sources import PairInput, SideInput
from ui.text import esc, t

TITLE = registry.COMPARE.title
LEVEL = 0.05  # the level of both tests
# Work cap per request: bootstrap replicates x bins. A cell draws 2 bins (about 2.5e-7 s
# here, simulation.seconds_per_unit), so the cap is about a second of random draws.
MAX_BOOT_CELLS = 4_000_000
MIN_BOOT = 10  # the fewest replicates the cap leaves


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
    alpha_a: float  # cmp_alpha_a: privacy level α₁ of histogram A
    alpha_b: float  # cmp_alpha_b
    boot: int  # cmp_boot: bootstrap replicates B as chosen (see n_boot)
    seed: int  # cmp_seed
    zoom: bool = False  # cmp_zoom: the debiasing chart zoomed on small counts

    @property
    def n_boot(self) -> int:
        """The bootstrap replicates run: ``boot``, limited by the work cap."""
        return limited_boot(self.boot, self.bins)

    def report_items(self) -> dict[str, str]:
        """The report's settings, label -> value."""
        return {
            t("Histogram A"): self.pair.a.name, t("Histogram B"): self.pair.b.name,
            t("Bins M"): f"{self.bins:,}",
            t("People N in A"): people(self.pair, self.pair.a, self.n_a),
            t("People N in B"): people(self.pair, self.pair.b, self.n_b),
            t("Privacy level α₁ (A)"): f"{self.alpha_a:g}",
            t("Privacy level α₂ (B)"): f"{self.alpha_b:g}",
            t("Bootstrap replicates B"): f"{self.n_boot:,}", t("Seed"): f"{self.seed}",
            t("Test level"): f"{LEVEL:.0%}",
        }


def uses_age_groups(source_a: str, source_b: str) -> bool:
    """Whether the bins are age groups (cmp_width is shown): a population is chosen."""
    return source_a in datasets.POPULATIONS or source_b in datasets.POPULATIONS


def limited_boot(boot: int, bins: int) -> int:
    """The bootstrap replicates the work cap allows with ``bins`` bins."""
    return boot if boot * bins <= MAX_BOOT_CELLS else max(MIN_BOOT, MAX_BOOT_CELLS // bins)


# --- the computation ----------------------------------------------------------------------


@st.cache_data(max_entries=64, show_spinner=False)
def run_comparison(pair: PairInput, n_a, n_b, alpha_a, alpha_b, n_boot, seed) -> HomogeneityResult:
    """Release (or take as released) histograms A and B and test them: the naive χ² test
    and the parametric bootstrap test."""
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


def boot_limit_note(bins: int, used: int) -> str:
    return t("With M = {m:,} bins the bootstrap was limited to B = {used:,} replicates to keep "
             "the page responsive.", m=bins, used=used)


def comparison_error(error: Exception) -> str:
    return t("The comparison cannot be computed: {error}", error=error)


def bootstrap_error(result: HomogeneityResult) -> str:
    return t("The bootstrap test cannot be run on these histograms. {error}",
             error=result.bootstrap_error)


def bootstrap_error_finding(result: HomogeneityResult) -> str:
    return t("The parametric bootstrap test cannot be run on these histograms: {error}",
             error=result.bootstrap_error)


def finds_difference(result: HomogeneityResult) -> bool:
    return result.bootstrap.pvalue < LEVEL


def verdict(settings: Settings, result: HomogeneityResult, *, markdown: bool = True) -> str:
    """The bootstrap test's verdict: for the page (Markdown, the finding in bold, the names
    escaped) or, with ``markdown=False``, for the report (plain text)."""
    boot = result.bootstrap
    found = t("finds") if finds_difference(result) else t("does not find")
    name_a, name_b = settings.pair.a.name, settings.pair.b.name
    if markdown:
        found, name_a, name_b = f"**{found}**", esc(name_a), esc(name_b)
    return t("At the 5% level the parametric bootstrap test {found} a difference between "
             "histogram A ({a}) and histogram B ({b}): p = {p:.3g} from {n_boot:,} bootstrap "
             "replicates.", found=found, a=name_a, b=name_b, p=boot.pvalue, n_boot=boot.n_boot)


def naive_finding(result: HomogeneityResult) -> str:
    naive = result.naive
    return t("The naive χ² test, which treats the noisy counts as exact, gives p = {p:.3g} "
             "(χ² = {stat:,.1f}, df = {df}); on private histograms it rejects far more often "
             "than its level, so it is shown for comparison only.",
             p=naive.pvalue, stat=naive.statistic, df=naive.df)


def noise_warning(side: NoisySide) -> str:
    return t("Histogram {label} is mostly noise: at α = {alpha:g} the noise on each count has "
             "standard deviation {noise:,.0f}, more than the average count per bin ({mean:,.1f})."
             " N̂ and both tests are unreliable here; increase N or α, or use wider bins.",
             label=side.label, alpha=side.alpha, noise=side.noise, mean=side.mean_count)


def noise_note(side: NoisySide) -> str:
    return t("Histogram {label} is mostly noise: at α = {alpha:g} the noise on each count has "
             "standard deviation {noise:,.0f}, more than the average count per bin ({mean:,.1f})"
             "; N̂ and both tests are unreliable here.",
             label=side.label, alpha=side.alpha, noise=side.noise, mean=side.mean_count)


def naive_help(result: HomogeneityResult) -> str:
    return t("χ² = {stat:,.1f} on df = M − 1 = {df}, referred to the χ² distribution as if the "
             "counts were not noisy.", stat=result.naive.statistic, df=result.naive.df)


def naive_caption(result: HomogeneityResult) -> str:
    return t("χ² = {stat:,.1f}, df = {df}", stat=result.naive.statistic, df=result.naive.df)


def bootstrap_caption(result: HomogeneityResult) -> str:
    boot = result.bootstrap
    return t("T = {stat:,.1f}; 5% critical value {crit:,.1f}", stat=boot.statistic,
             crit=boot.critical_value(LEVEL))


@dataclass(frozen=True)
class SizeEstimate:
    """The metric of one histogram's estimated N̂, against its true N when known."""

    label: str  # "Estimated N̂ (A)"
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
        out.append(SizeEstimate(t("Estimated N̂ ({side})", side=side), f"{n_hat:,}", delta,
                                caption))
    return out


def trace_names(settings: Settings) -> tuple[str, str]:
    """The legend names of histograms A and B in the chart (Plotly: not Markdown)."""
    return (t("A: {name}, α₁ = {alpha:g}", name=settings.pair.a.name, alpha=settings.alpha_a),
            t("B: {name}, α₂ = {alpha:g}", name=settings.pair.b.name, alpha=settings.alpha_b))


def method_note() -> str:
    return t("The parametric bootstrap test of Son, Park & Jung (2022, Algorithm 1) refers the "
             "statistic T to B histograms simulated under 'no difference' with the same noise; "
             "its p-value has a Monte Carlo standard error of at most 0.5/√B. The naive χ² test "
             "refers T to χ²(M − 1) as if the counts were not noisy.")


# --- tables -----------------------------------------------------------------------------------


def per_bin_table(settings: Settings, result: HomogeneityResult) -> pd.DataFrame:
    """Per bin: true, private, debiased and rescaled counts, and the pooled p̂₀."""
    return result.histogram_table(settings.pair.labels).reset_index()


def per_bin_format(column: str) -> str:
    """The printf format a column of the per-bin table is shown with."""
    if column == "p0_hat":
        return "%.4f"
    return "%.0f" if column.startswith("original") else "%.1f"


def summary_shown(summary: pd.DataFrame) -> pd.DataFrame:
    """The tests and estimates as shown: whole numbers with thousands separated, others
    with 4 significant digits (the CSV keeps the numbers)."""
    return summary.assign(value=[f"{v:,.0f}" if float(v).is_integer() else f"{v:.4g}"
                                 for v in summary["value"]])
