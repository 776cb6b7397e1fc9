"""Page: the privacy-utility planner. How much data, how much privacy, for a target power.

Son, Park & Jung (2022), section 5, propose the power of the parametric
bootstrap test as the utility of a DP histogram mechanism. This page asks
dpcore.planner the two questions of someone who must choose: the N per group
needed at a privacy level α, the strongest α affordable with N per group,
and the whole α-N frontier for the bootstrap test and the naive χ² test.

Every simulated setting ("cell") draws from a stream derived from the seed and
the cell alone, and one bounded planner.CellCache per server keeps them: the
same URL and seed give the same numbers, and a setting seen before is reused.
Only the open tab runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import dpviz
import pandas as pd
import streamlit as st

from ui import controls, registry, sources
from ui import format as fmt
from ui import text
from ui.kit import page_header
from dpcore import datasets, planner, simulation
from ui import planner_text

TITLE = "Privacy–utility planner"
UPLOAD = sources.UPLOAD
# Short names in the boxes (and the URL); the full ones in the help.
SOURCES = {**{k: v.split(" (")[0] for k, v in datasets.POPULATIONS.items()},
           UPLOAD: "Uploaded CSV file"}
MODES = {"two": "Two populations", "effect": "One population and an effect"}
EFFECTS = {"shift": "A shift by whole age groups", "tilt": "A total-variation distance"}
DIRECTIONS = {"older": "older (last bins)", "younger": "younger (first bins)"}
DEFAULT_WIDTH = 10  # 10-year groups, M = 9: a search takes about a second at the defaults
LEVELS = (0.01, 0.05, 0.1)
POWERS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99)
REPS_GRID = (50, 100, 200, 500, 1000, 2000)
BOOT_GRID = (50, 100, 200, 500, 1000, 2000)
DEFAULT_REPS = DEFAULT_BOOT = 200
DEFAULT_ALPHA = 0.1
DEFAULT_N = 10_000
DEFAULT_TV = 0.05  # about Korea central vs noncentral (0.057 in 10-year groups)
TABS = ("How much data?", "How much privacy?", "Frontier", "Report")
# Work caps in drawn bins R·2M·(B + 1) (simulation.work_units), fixed so that what is
# accepted does not depend on how busy the server is; about 1e-7 s per bin here.
MAX_SEARCH_UNITS = 2e8  # a data or privacy search: about 20 s here
MAX_FRONTIER_UNITS = 1e9  # the frontier (run by a button): about 2 minutes here
FRONTIER_POINTS = (2, 10)
CACHE_CELLS = 20_000
# dpcore's argument names as the page calls them (a symbol must not contain its name).
SYMBOLS = {"distance": "d", "alpha1": "α₁", "alpha2": "α₂", "alpha_ratio": "α₂/α₁",
           "reps": "R", "n_boot": "B"}
SOURCE_NOTE = ("Son, J., Park, M.-J. & Jung, S. (2022). A parametric bootstrap test for "
               "comparing differentially private histograms. The Korean Journal of Applied "
               "Statistics 35(1) [SPJ22]; section 5: the power of the test as the utility of a "
               "DP mechanism.")


def plain(message: str) -> str:
    return text.plain(message, SYMBOLS)


@st.cache_resource(max_entries=1, show_spinner=False)
def cell_cache() -> planner.CellCache:
    """One bounded cache of simulated cells per server, shared by every session."""
    return planner.CellCache(CACHE_CELLS)


@st.cache_resource(max_entries=1, show_spinner=False)
def machine_speed() -> float:
    return simulation.seconds_per_unit()


def fmt_seconds(seconds: float) -> str:
    if seconds < 1:
        return "under a second"
    if seconds < 90:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.1f} minutes"


def short_name(source: str) -> str:
    return datasets.POPULATIONS[source].split(" (")[0]


# --- The comparison -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Comparison:
    """The two distributions the test must tell apart, over common bins."""

    labels: list[str]
    p1: np.ndarray
    p2: np.ndarray
    name_a: str
    name_b: str
    difference: str  # for the plain sentences: "a difference as large as …"
    what: str  # the comparison in a few words, for the settings table

    @property
    def m(self) -> int:
        return len(self.labels)

    @property
    def tv(self) -> float:
        return planner.total_variation(self.p1, self.p2)

    @property
    def key(self) -> tuple:
        return (tuple(self.p1.tolist()), tuple(self.p2.tolist()))


@dataclass(frozen=True)
class Problem:
    message: str
    waiting: bool = False  # only a file not uploaded yet


def source_box(label: str, *, key: str, default: str) -> str:
    return st.selectbox(
        label, list(SOURCES), index=list(SOURCES).index(default), format_func=SOURCES.get,
        key=key, bind="query-params",
        help="A population by age in 2020, built in ("
        + "; ".join(datasets.POPULATIONS.values())
        + "), or a column of your own CSV file (counts per bin, or one value per person "
        "such as ages).")


def binning(chosen: list[str], upload) -> tuple[int | None, int | None]:
    """(age-group width, M): the age groups radio, or M from a file of counts alone."""
    only_counts = all(s == UPLOAD for s in chosen) and upload is not None \
        and upload.kind == "counts"
    if only_counts:
        st.caption(f"Bins: M = {len(upload.table)}, one per row of your file.")
        return None, len(upload.table)
    width = st.radio(
        "Age groups (bins M)", list(sources.AGE_BINNINGS),
        index=list(sources.AGE_BINNINGS).index(DEFAULT_WIDTH),
        format_func=sources.AGE_BINNINGS.get, key="plan_width", bind="query-params",
        horizontal=True,
        help="How the private histograms will be published: single years (0 … 84, 85+), "
        "5-year or 10-year groups. More bins spread the same people thinner under the same "
        "noise: more data is needed, and each simulation costs more.")
    return int(width), len(datasets.age_bin_labels(width))


def read_side(source: str, side: str, upload, column, width, m) -> tuple[str, np.ndarray]:
    """(name, probabilities) of one population or uploaded column; raises ValueError."""
    if source in datasets.POPULATIONS:
        hist = datasets.age_histogram(source, width)
        return short_name(source), datasets.proportions(hist.to_numpy())
    if upload.kind == "counts":
        counts = datasets.counts_from_column(upload.table[column], name=side)
        if len(counts) != m:
            raise datasets.UploadError(
                f'Column "{column}" has {len(counts)} bins but the age groups chosen have {m}. '
                f"Pick the age grouping with {len(counts)} bins, if there is one, or upload "
                "counts for 86, 18 or 9 age groups.")
    else:
        values = upload.table[column].dropna().to_numpy()
        if values.size == 0:
            raise datasets.UploadError(f'Column "{column}" has no values.')
        if np.any(values < 0):
            raise datasets.UploadError(
                f'Column "{column}" has a negative value ({values.min():g}); ages must be 0 '
                "or more.")
        counts = datasets.bin_values(values, width=width).astype(float)
    return f'your column "{column}"', datasets.proportions(counts)


def labels_for(width, m, upload) -> list[str]:
    if width is not None:
        return datasets.age_bin_labels(width)
    if not isinstance(upload.table.index, pd.RangeIndex):
        return [str(v) for v in upload.table.index]
    return [str(j) for j in range(1, m + 1)]


def comparison_controls() -> tuple[Comparison | None, Problem | None]:
    """The controls of 'what should the test detect'; the comparison, or the problem."""
    mode = st.radio(
        "Describe the difference by", list(MODES), format_func=MODES.get, key="plan_mode",
        bind="query-params", horizontal=True,
        help="Two populations: the difference between two real distributions, e.g. the Seoul "
        "area against the rest of Korea. One population and an effect: the smallest "
        "difference worth detecting, built from one distribution.")
    if mode == "two":
        c1, c2 = st.columns(2)
        with c1:
            src_a = source_box("Population A", key="plan_a", default="korea_central")
        with c2:
            src_b = source_box("Population B", key="plan_b", default="korea_noncentral")
        chosen = [src_a, src_b]
    else:
        c1, c2 = st.columns(2)
        with c1:
            src_a = source_box("Population", key="plan_base", default="korea")
            effect = st.radio(
                "Effect", list(EFFECTS), format_func=EFFECTS.get, key="plan_effect",
                bind="query-params",
                help="A shift: everyone k age groups older (or younger), the ends kept "
                "open. A distance: the exponential tilt of the population whose "
                "total-variation distance from it is d.")
        chosen = [src_a]
    upload, columns = None, {}
    if UPLOAD in chosen:
        with st.container(border=True):
            upload, problem = sources.upload_control(key="plan_file")
            if upload is None:
                return None, Problem(problem or "Upload a CSV file to use it, or pick a "
                                     "built-in population.", waiting=problem is None)
            cols = st.columns(2)
            for i, (src, side) in enumerate(zip(chosen, ("A", "B"))):
                if src == UPLOAD:
                    with cols[i]:
                        columns[side] = sources.column_picker(
                            upload, side if mode == "two" else "the population",
                            index=i if chosen.count(UPLOAD) == 2 else 0,
                            key=f"plan_col_{side.lower()}")
    width, m = binning(chosen, upload)
    try:
        name_a, p1 = read_side(src_a, "A", upload, columns.get("A"), width, m)
        if mode == "two":
            name_b, p2 = read_side(src_b, "B", upload, columns.get("B"), width, m)
            difference = f"a difference as large as {name_a} vs {name_b}"
            what = f"{name_a} vs {name_b}"
        else:
            name_b, p2, difference, what = effect_controls(effect, name_a, p1, width, c2)
    except ValueError as exc:  # UploadError and dpcore's argument errors
        return None, Problem(f"These distributions cannot be used: {plain(str(exc))}")
    labels = labels_for(width, m, upload)
    comp = Comparison(labels, p1, p2, name_a, name_b, difference, what)
    if comp.tv < 1e-12:
        return comp, Problem(
            "A and B have the same distribution: there is no difference to detect. Any test "
            "then rejects at most as often as its level, whatever N and α, so no target power "
            "can be reached. Pick two different populations, or an effect.")
    return comp, None


def effect_controls(effect: str, name: str, p: np.ndarray, width, column):
    """B built from A by the effect; (name B, p2, difference, what). Raises ValueError."""
    m = p.size
    ages = width is not None
    with column:
        direction = st.radio(
            "Towards", list(DIRECTIONS), format_func=DIRECTIONS.get, key="plan_direction",
            bind="query-params", horizontal=True,
            help="Which way B differs from A: more people in the last bins (older), or in the "
            "first bins (younger).")
        sign = 1 if direction == "older" else -1
        if effect == "shift":
            k = controls.ranged_slider(
                "Shift k (age groups)" if ages else "Shift k (bins)", 1, m - 1, default=1,
                key="plan_shift",
                help="B is A moved k bins: with 10-year groups, k = 1 is everyone ten years "
                "older (or younger). Mass that passes the last (or first) bin stays there.")
            q = planner.shift_distribution(p, sign * int(k))
            if ages:
                years = f" ({k * width} years)" if width > 1 else ""
                words = f"{k} age group{'s' if k > 1 else ''}{years} " \
                    f"{'older' if sign > 0 else 'younger'}"
            else:
                words = f"shifted {k} bin{'s' if k > 1 else ''} towards the " \
                    f"{'last' if sign > 0 else 'first'} bins"
            return (f"{name}, {words}", q,
                    f"a difference as large as {name} against the same population {words}",
                    f"{name} against itself {words}")
        d = st.number_input(
            "Total-variation distance d", min_value=0.001, max_value=0.999, value=DEFAULT_TV,
            step=0.01, format="%.3f", key="plan_tv", bind="query-params",
            help="½ Σ|p_j − q_j|: the share of people who would have to change group to turn A "
            "into B. Korea central vs noncentral is 0.057 in 10-year groups.")
        q = planner.tilt_to_distance(p, float(d), direction=sign)
        towards = ("older ages" if sign > 0 else "younger ages") if ages else \
            ("the last bins" if sign > 0 else "the first bins")
        return (f"{name}, tilted (d = {d:g})", q,
                f"a difference of total-variation distance {d:g} from {name} (towards {towards})",
                f"{name} against its tilt towards {towards} at distance {d:g}")


# --- The choices and the accuracy settings ---------------------------------------------------

@dataclass(frozen=True)
class Settings:
    alpha1: float
    alpha2: float
    n: int
    level: float
    power: float
    reps: int
    n_boot: int
    seed: int

    @property
    def ratio(self) -> float:
        return self.alpha2 / self.alpha1

    @property
    def same_alpha(self) -> bool:
        return self.alpha1 == self.alpha2

    def alpha_words(self) -> str:
        return f"α = {self.alpha1:g}" if self.same_alpha else \
            f"α₁ = {self.alpha1:g}, α₂ = {self.alpha2:g}"


def level_power_controls() -> tuple[float, float]:
    c1, c2 = st.columns(2)
    level = c1.select_slider(
        "Significance level", LEVELS, value=0.05, format_func=lambda v: f"{v:.0%}",
        key="plan_level", bind="query-params",
        help="The test's level: how often it may find a difference when there is none.")
    power = c2.select_slider(
        "Target power", POWERS, value=0.8, format_func=lambda v: f"{v:.0%}",
        key="plan_power", bind="query-params",
        help="How often the test must find the difference described. 80% is the usual "
        "choice; 90% needs more data or weaker privacy.")
    return float(level), float(power)


def choice_controls() -> tuple[float, float, int]:
    c1, c2 = st.columns(2)
    with c1:
        alpha1 = controls.alpha_slider("Privacy level α (α₁ for A)", key="plan_alpha",
                                      default=DEFAULT_ALPHA)
        separate = st.checkbox(
            "A different level α₂ for B", key="plan_alpha_sep", bind="query-params",
            help="The two histograms may be released at different privacy levels (the "
            "paper's Figure 12). The question 'how much privacy?' then keeps the ratio "
            "α₂/α₁ fixed.")
        alpha2 = controls.alpha_slider("Privacy level α₂ for B", key="plan_alpha2",
                                      default=DEFAULT_ALPHA) if separate else alpha1
    with c2:
        n = controls.sample_size_slider("People per group N (your plan)", key="plan_n",
                                       default=DEFAULT_N)
        st.caption("The tab *How much data?* starts from your α, *How much privacy?* from your "
                   "N; the frontier marks both.")
    return float(alpha1), float(alpha2), int(n)


def accuracy_controls(m: int | None) -> tuple[int, int, int]:
    c1, c2, c3 = st.columns(3)
    reps = c1.select_slider(
        "Replicates R per setting", REPS_GRID, value=DEFAULT_REPS, format_func=fmt.fmt_number,
        key="plan_reps", bind="query-params",
        help="Private histogram pairs simulated at each setting (N, α). More replicates give "
        "narrower Wilson intervals: at 80% power the half-width is about "
        "1.96·√(0.8·0.2/R), 0.055 for R = 200.")
    n_boot = c2.select_slider(
        "Bootstrap replicates B", BOOT_GRID, value=DEFAULT_BOOT, format_func=fmt.fmt_number,
        key="plan_boot", bind="query-params",
        help="Bootstrap replicates of each test (Algorithm 1). The p-value moves in steps of "
        "1/B; plans are for the B given.")
    with c3:
        seed = controls.seed_control("plan_seed")
    if m is not None:
        units = simulation.work_units(m, reps, n_boot)
        st.caption(
            f"One simulated setting draws R·2M·(B + 1) = {units:,.0f} bins, about "
            f"{simulation.estimate_seconds(units, machine_speed()):.2g} s here; a search "
            f"simulates about {planner.TYPICAL_CELLS} settings: about "
            f"{fmt_seconds(simulation.estimate_seconds(planner.TYPICAL_CELLS * units, machine_speed()))}"
            ". Settings simulated before on this server, with the same seed, are reused.")
    return int(reps), int(n_boot), int(seed)


def search_refusal(comp: Comparison, s: Settings) -> str | None:
    """Why a search at these settings is refused (its estimated time), or None."""
    units = planner.TYPICAL_CELLS * simulation.work_units(comp.m, s.reps, s.n_boot)
    if units <= MAX_SEARCH_UNITS:
        return None
    seconds = simulation.estimate_seconds(units, machine_speed())
    return (f"This search would take about {fmt_seconds(seconds)} here: about "
            f"{planner.TYPICAL_CELLS} settings of R·2M·(B + 1) = "
            f"{simulation.work_units(comp.m, s.reps, s.n_boot):,.0f} drawn bins each, more than "
            f"the page's cap of {MAX_SEARCH_UNITS:,.0f} per search. Lower R or B (in the "
            "accuracy settings) or use wider age groups (fewer bins M).")


# --- The searches -----------------------------------------------------------------------------

def progress_bar():
    """A progress callback that shows a bar only while cells are simulated, and its remover."""
    slot = st.empty()

    def progress(fraction: float, label: str) -> None:
        if fraction < 1:
            slot.progress(min(1.0, max(0.0, fraction)),
                          text=f"Simulating the {planner_text.progress_text(label)}…")

    return progress, slot.empty


def sample_size_plan(comp: Comparison, s: Settings) -> planner.SampleSizePlan:
    progress, done = progress_bar()
    try:
        return planner.required_sample_size(
            comp.p1, comp.p2, s.alpha1, s.alpha2, power=s.power, level=s.level,
            reps=s.reps, n_boot=s.n_boot, cache=cell_cache(), progress=progress, rng=s.seed)
    finally:
        done()


def privacy_plan(comp: Comparison, s: Settings) -> planner.PrivacyPlan:
    progress, done = progress_bar()
    try:
        return planner.strongest_privacy(
            comp.p1, comp.p2, s.n, power=s.power, level=s.level, alpha_ratio=s.ratio,
            reps=s.reps, n_boot=s.n_boot, cache=cell_cache(), progress=progress, rng=s.seed)
    finally:
        done()


def n_text(plan: planner.SampleSizePlan) -> str:
    if plan.n is None:
        return f"> {plan.interval[0]:,.0f}" if plan.status == "unreachable" else "not found"
    return f"≤ {plan.n:,}" if plan.status == "at_lower_bound" else f"{plan.n:,}"


def n_interval_text(plan: planner.SampleSizePlan) -> str:
    low, high = plan.interval
    if plan.status == "at_lower_bound":
        return f"≤ {high:,.0f}"
    if plan.n is None:
        return "–"
    return f"{low:,.0f} – {high:,.0f}" if math.isfinite(high) else f"above {low:,.0f}"


def alpha_text(plan: planner.PrivacyPlan) -> str:
    if plan.alpha is None:
        return f"> {plan.interval[0]:.3g}" if plan.status == "unreachable" else "not found"
    return f"≤ {plan.alpha:.3g}" if plan.status == "at_lower_bound" else f"{plan.alpha:.3g}"


def alpha_interval_text(plan: planner.PrivacyPlan) -> str:
    low, high = plan.interval
    if plan.status == "at_lower_bound":
        return f"≤ {high:.3g}"
    if plan.alpha is None:
        return "–"
    return f"{low:.3g} – {high:.3g}" if math.isfinite(high) else f"above {low:.3g}"


def data_figure(plan: planner.SampleSizePlan, s: Settings):
    estimate = plan.n if plan.status in ("found", "stopped") else None
    return dpviz.planner.planner_power_figure(
        plan.points, x="n", target=s.power, estimate=estimate,
        interval=plan.interval if estimate is not None else None, level=s.level)


def privacy_figure(plan: planner.PrivacyPlan, s: Settings):
    estimate = plan.alpha if plan.status in ("found", "stopped") else None
    return dpviz.planner.planner_power_figure(
        plan.points, x="alpha1", target=s.power, estimate=estimate,
        interval=plan.interval if estimate is not None else None, level=s.level)


def data_figure_name(s: Settings) -> str:
    return f"Power against N at {s.alpha_words()}"


def privacy_figure_name(s: Settings) -> str:
    return f"Power against α with N = {s.n:,} per group"


def sentence_box(text: str, ok: bool) -> None:
    (st.success if ok else st.warning)(text, icon=":material/lightbulb:" if ok else
                                       ":material/warning:")


def points_table(points: pd.DataFrame, key: str, name: str) -> None:
    kit.table(points, key=key, name=name, hide_index=True, column_config={
        "n": st.column_config.NumberColumn("N", format="localized"),
        "alpha1": st.column_config.NumberColumn("α₁", format="%.4g"),
        "alpha2": st.column_config.NumberColumn("α₂", format="%.4g"),
        "power": st.column_config.NumberColumn(format="%.3f"),
        "ci_low": st.column_config.NumberColumn(format="%.3f"),
        "ci_high": st.column_config.NumberColumn(format="%.3f")})


# --- 1. How much data? --------------------------------------------------------------------------

def data_section(comp: Comparison, s: Settings) -> None:
    st.markdown(f"The smallest number of people per group N at which the test finds "
                f"{comp.difference} with {s.power:.0%} power, at your {s.alpha_words()}.")
    plan = sample_size_plan(comp, s)
    c1, c2, c3 = st.columns(3)
    c1.metric(
        "N needed per group", n_text(plan), border=True,
        delta=f"for {s.power:.0%} power at {s.alpha_words()}", delta_color="off",
        delta_arrow="off",
        help="The estimate: where the simulated power crosses the target, interpolated on a "
        "log scale between the two nearest simulated N.")
    c2.metric(
        "Monte Carlo interval for N", n_interval_text(plan), border=True,
        delta=f"from {len(plan.points)} simulated N", delta_color="off", delta_arrow="off",
        help="From the largest simulated N whose power is clearly below the target to the "
        "smallest clearly above it (95% Wilson intervals), under monotone power.")
    enough = plan.n is not None and s.n >= plan.n
    if plan.n is not None:
        verdict = "enough" if enough else f"{plan.n - s.n:,} short"
    else:
        verdict = "not enough" if plan.status == "unreachable" else "unknown"
    c3.metric("Your planned N", f"{s.n:,}", border=True, delta=verdict,
              delta_color="normal" if enough else "inverse", delta_arrow="off",
              help="The N of your plan, above, against the N needed.")
    sentence = planner_text.describe_sample_size(plan, comp.difference)
    sentence_box(sentence, plan.status in ("found", "at_lower_bound"))
    kit.finding(sentence)
    kit.chart(data_figure(plan, s), key="plan_fig_data", name=data_figure_name(s))
    st.caption(
        f"Each point: the share of R = {s.reps:,} simulated pairs of private histograms in which "
        f"the test rejected at the {s.level:.0%} level, with its 95% Wilson interval. "
        f"{plan.simulated} settings simulated now, {plan.recalled} reused. Seed {s.seed}.")
    with st.expander("The simulated points"):
        points_table(plan.points, "plan_points_data", "Simulated power against N")


# --- 2. How much privacy? -----------------------------------------------------------------------

def privacy_section(comp: Comparison, s: Settings) -> None:
    ratio = "" if s.same_alpha else f" (α₂ = {s.ratio:.3g} α₁ throughout)"
    st.markdown(f"The smallest privacy level α (the strongest privacy) at which the test still "
                f"finds {comp.difference} with {s.power:.0%} power, with your N = {s.n:,} "
                f"people per group{ratio}.")
    plan = privacy_plan(comp, s)
    c1, c2, c3 = st.columns(3)
    c1.metric(
        "Strongest privacy α" if s.same_alpha else "Strongest privacy α₁", alpha_text(plan),
        border=True, delta=f"for {s.power:.0%} power with N = {s.n:,}", delta_color="off",
        delta_arrow="off",
        help="The estimate: where the simulated power crosses the target, interpolated on a "
        "log scale between the two nearest simulated α. Smaller α = stronger privacy = more "
        "noise.")
    c2.metric(
        "Monte Carlo interval for α" + ("" if s.same_alpha else "₁"), alpha_interval_text(plan),
        border=True,
        delta=f"from {len(plan.points)} simulated α", delta_color="off", delta_arrow="off",
        help="From the largest simulated α whose power is clearly below the target to the "
        "smallest clearly above it (95% Wilson intervals), under monotone power.")
    ok = plan.alpha is not None and s.alpha1 >= plan.alpha
    if plan.alpha is not None:
        verdict = "affordable" if ok else "too strong for the target"
    else:
        verdict = "too strong for the target" if plan.status == "unreachable" else "unknown"
    c3.metric("Your α" if s.same_alpha else "Your α₁", f"{s.alpha1:g}", border=True,
              delta=verdict, delta_color="normal" if ok else "inverse", delta_arrow="off",
              help="The α of your plan, above, against the strongest affordable.")
    sentence = planner_text.describe_privacy(plan, comp.difference)
    sentence_box(sentence, plan.status in ("found", "at_lower_bound"))
    kit.finding(sentence)
    kit.chart(privacy_figure(plan, s), key="plan_fig_privacy", name=privacy_figure_name(s))
    st.caption(
        f"Each point: the share of R = {s.reps:,} simulated pairs of private histograms of "
        f"N = {s.n:,} each in which the test rejected at the {s.level:.0%} level, with its 95% "
        f"Wilson interval. {plan.simulated} settings simulated now, {plan.recalled} reused. "
        f"Seed {s.seed}.")
    with st.expander("The simulated points"):
        points_table(plan.points, "plan_points_privacy", "Simulated power against α")


# --- 3. Frontier --------------------------------------------------------------------------------

def frontier_params(comp: Comparison, s: Settings, alphas) -> dict:
    """What a frontier depends on; ``alphas`` None: all but its privacy levels."""
    params = dict(comp=comp.key, level=s.level, power=s.power, ratio=s.ratio, reps=s.reps,
                  n_boot=s.n_boot, seed=s.seed)
    return params if alphas is None else params | {"alphas": tuple(alphas)}


def current_frontier(comp: Comparison, s: Settings) -> pd.DataFrame | None:
    """The last frontier computed, if it was computed for these settings (any α grid)."""
    last = st.session_state.get("plan_frontier")
    if last is None:
        return None
    params = dict(last["params"])
    params.pop("alphas")
    return last["table"] if params == frontier_params(comp, s, None) else None


def frontier_controls() -> list[float]:
    c1, c2 = st.columns([2, 1])
    low, high = c1.select_slider(
        "Range of α", controls.ALPHA_GRID, value=(0.01, 1.0), format_func=fmt.fmt_number,
        key="plan_fr_range", bind="query-params",
        help="The privacy levels of the frontier: from the strongest privacy (left) to the "
        "weakest (right). Log scale, 0.001 to 10.")
    points = c2.slider("Points", *FRONTIER_POINTS, value=5, key="plan_fr_points",
                       bind="query-params",
                       help="How many privacy levels, log-spaced over the range and rounded to "
                       "one significant digit.")
    return planner.alpha_grid(float(low), float(high), int(points))


def frontier_summary(table: pd.DataFrame, level: float) -> str | None:
    """One sentence on the naive test's invalid points, if any."""
    bad = table[(table["test"] == "chisq") & ~table["valid"].astype(bool)]
    if bad.empty:
        return None
    worst = bad.loc[bad["type1"].idxmax()]
    alphas = ", ".join(f"{a:g}" for a in sorted(bad["alpha1"], reverse=True))
    return (f"The naive χ² test seems to need fewer people at α = {alphas}, but it does not "
            f"hold its {level:.0%} level there: with no difference at all it rejects up to "
            f"{worst['type1']:.0%} of the time (at α = {worst['alpha1']:g}), so its 'power' "
            "means nothing. Only the bootstrap test's N can be planned on.")


def frontier_section(comp: Comparison, s: Settings) -> None:
    st.markdown(
        "The N per group needed for the target power across privacy levels, for the "
        "parametric bootstrap test and for the naive χ² test, with each test's type-I error "
        "checked at the N it needs (the data drawn from the pooled distribution, no "
        "difference). A test whose type-I error is clearly above the level is marked "
        "*invalid*.")
    alphas = frontier_controls()
    units = len(alphas) * (planner.TYPICAL_CELLS + 1) * sum(
        simulation.work_units(comp.m, s.reps, s.n_boot, t) for t in simulation.TESTS)
    seconds = simulation.estimate_seconds(units, machine_speed())
    st.caption(f"α = {', '.join(f'{a:g}' for a in alphas)}"
               + ("" if s.same_alpha else f" (α₂ = {s.ratio:.3g} α₁)")
               + f": about {len(alphas) * 2} searches, {fmt_seconds(seconds)} here (less for "
               "settings simulated before).")
    run = st.button("Compute the frontier", type="primary", icon=":material/play_arrow:",
                    key="plan_fr_run",
                    help="Runs a search for the N needed at each α, for both tests, and checks "
                    "each test's type-I error there.")
    params = frontier_params(comp, s, alphas)
    if run:
        if units > MAX_FRONTIER_UNITS:
            kit.error(
                f"This frontier would take about {fmt_seconds(seconds)} here ({units:,.0f} "
                f"drawn bins, more than the page's cap of {MAX_FRONTIER_UNITS:,.0f}). Use "
                "fewer points, lower R or B, or wider age groups.")
        else:
            progress, done = progress_bar()
            try:
                table = planner.frontier(
                    comp.p1, comp.p2, alphas, power=s.power, level=s.level,
                    alpha_ratio=s.ratio, reps=s.reps, n_boot=s.n_boot, cache=cell_cache(),
                    progress=progress, rng=s.seed)
            finally:
                done()
            st.session_state["plan_frontier"] = {"params": params, "table": table}
    last = st.session_state.get("plan_frontier")
    if last is None:
        st.info("Press *Compute the frontier* to draw it.", icon=":material/timeline:")
        return
    if last["params"] != params:
        st.info("The settings have changed since this frontier was computed: it shows the "
                "last one computed. Press the button to update it.", icon=":material/history:")
        kit.note("The frontier was computed with other settings than those listed "
                            "(the last one computed is shown).")
    frontier_outputs(last["table"], s, last["params"]["level"], last["params"]["power"],
                     "plan")


def frontier_sentence(table: pd.DataFrame, power: float) -> str | None:
    """The N the bootstrap test needs at each α of a frontier, in one sentence."""
    rows = table[table["test"] == "bootstrap"].sort_values("alpha1", ascending=False)
    if rows.empty:
        return None
    parts = []
    for _, row in rows.iterrows():
        n = pd.to_numeric(row["n"], errors="coerce")
        low = pd.to_numeric(row["n_low"], errors="coerce")
        if pd.notna(n):
            parts.append(f"N = {n:,.0f} at α = {row['alpha1']:g}")
        elif pd.notna(low) and math.isfinite(low) and low > 0:
            parts.append(f"more than {low:,.0f} at α = {row['alpha1']:g}")
        else:
            parts.append(f"an N not found at α = {row['alpha1']:g}")
    return (f"For {power:.0%} power the parametric bootstrap test needs "
            + "; ".join(parts) + " per group.")


def frontier_findings(table: pd.DataFrame, level: float, power: float) -> list[str]:
    """The frontier in plain words: the N the bootstrap test needs, the naive test's flaw."""
    return [text for text in (frontier_sentence(table, power), frontier_summary(table, level))
            if text]


def frontier_outputs(table: pd.DataFrame, s: Settings, level: float, power: float,
                     prefix: str, *, warn: bool = True) -> None:
    """The frontier's chart and table (keys start with ``prefix``); its findings go to the
    report, and with ``warn`` the naive test's flaw is shown as a warning."""
    kit.chart(dpviz.planner.planner_frontier_figure(
        table, current=(s.alpha1, s.n), level=level, power=power),
        key=f"{prefix}_fig_frontier", name="The privacy-utility frontier")
    st.caption("Solid: the parametric bootstrap test; dashed: the naive χ² test; bars: the Monte "
               "Carlo intervals of N. The star is your plan: above the bootstrap curve there is "
               "enough data for the target power, below it not.")
    if warn:
        summary = frontier_summary(table, level)
        if summary:
            st.warning(summary, icon=":material/gpp_bad:")
    for sentence in frontier_findings(table, level, power):
        kit.finding(sentence)
    kit.table(table, key=f"{prefix}_frontier_table", name="The frontier", hide_index=True,
                  column_config={
        "alpha1": st.column_config.NumberColumn("α₁", format="%.3g"),
        "alpha2": st.column_config.NumberColumn("α₂", format="%.3g"),
        "n": st.column_config.NumberColumn("N needed", format="localized"),
        "n_low": st.column_config.NumberColumn(format="localized"),
        "n_high": st.column_config.NumberColumn(format="localized"),
        "type1": st.column_config.NumberColumn("type-I error", format="%.3f"),
        "type1_low": st.column_config.NumberColumn(format="%.3f"),
        "type1_high": st.column_config.NumberColumn(format="%.3f"),
        "valid": st.column_config.CheckboxColumn("holds its level")})


# --- 4. Report ----------------------------------------------------------------------------------

def parameters(comp: Comparison, s: Settings) -> dict[str, str]:
    return {
        "Comparison": comp.what,
        "Difference (total-variation distance)": f"{comp.tv:.4f}",
        "Bins M": f"{comp.m}",
        "Test": f"parametric bootstrap test (Algorithm 1) at the {s.level:.0%} level",
        "Target power": f"{s.power:.0%}",
        "Privacy level": s.alpha_words(),
        "People per group N (plan)": f"{s.n:,}",
        "Replicates R, bootstrap B": f"{s.reps:,}, {s.n_boot:,}",
        "Seed": f"{s.seed}",
    }


REPORT_NOTES = (
    "Power is estimated by simulation (Algorithm 2 of the source): R pairs of histograms are "
    "drawn, released with Laplace noise Lap(2/α), and tested; the power is the share of "
    "rejections, with a 95% Wilson interval.",
    "The searches assume that power grows with N and with α. The interval of an estimate runs "
    "from the largest simulated value whose power is clearly below the target to the smallest "
    "clearly above it.",
    "The naive χ² test does not hold its level on private histograms: its type-I error is far "
    "above the level, so its power cannot be planned on.",
    f"Source: {SOURCE_NOTE}",
)


def report_section(comp: Comparison, s: Settings) -> None:
    data_plan = sample_size_plan(comp, s)
    privacy_plan_ = privacy_plan(comp, s)
    frontier = current_frontier(comp, s)
    st.markdown("##### In plain words")
    c1, c2 = st.columns(2)
    c1.metric("N needed per group", n_text(data_plan), border=True,
              help=f"At {s.alpha_words()}; see the tab How much data?")
    c2.metric("Strongest privacy α" if s.same_alpha else "Strongest privacy α₁",
              alpha_text(privacy_plan_), border=True,
              help=f"With N = {s.n:,} per group; see the tab How much privacy?")
    sentences = [planner_text.describe_sample_size(data_plan, comp.difference),
                 planner_text.describe_privacy(privacy_plan_, comp.difference)]
    for sentence in sentences:
        kit.finding(sentence)
    if frontier is not None:
        sentences += frontier_findings(frontier, s.level, s.power)
    st.markdown("\n".join(f"- {text}" for text in sentences))
    st.markdown("##### Settings")
    st.dataframe(pd.DataFrame(list(parameters(comp, s).items()), columns=["setting", "value"]),
                 hide_index=True, key="plan_report_settings")
    kit.report_button(
        key="plan_dl_report",
        help="A one-page, self-contained HTML file to send to someone without the dashboard: "
        "the findings, the settings, every chart and table below. The Report button at the "
        "top of the page gives the same file.")
    st.caption("The report holds these findings and settings, the charts and tables below "
               "(the two distributions, power against N and against α, the simulated points"
               + (", the frontier)" if frontier is not None else
                  "; compute the frontier on its tab to add it)")
               + " and notes on the method.")
    with st.expander("The charts and tables of the report", expanded=False):
        kit.chart(data_figure(data_plan, s), key="plan_report_fig_data",
                      name=data_figure_name(s))
        points_table(data_plan.points, "plan_report_points_data", "Simulated power against N")
        kit.chart(privacy_figure(privacy_plan_, s), key="plan_report_fig_privacy",
                      name=privacy_figure_name(s))
        points_table(privacy_plan_.points, "plan_report_points_privacy",
                     "Simulated power against α")
        if frontier is not None:
            frontier_outputs(frontier, s, s.level, s.power, "plan_report", warn=False)


# --- Explanation --------------------------------------------------------------------------------

def explanation() -> None:
    with st.expander("What the planner computes, and what it assumes", expanded=False):
        st.markdown(
            "**Power.** Two histograms of N people each are released with the Laplace "
            "mechanism, $X_i = \\max\\{0,\\, C_i + \\mathrm{Lap}(2/\\alpha_i)\\}$. The "
            "parametric bootstrap test "
            "(Algorithm 1) asks whether the two populations differ. Its **power** is how often "
            "it finds the difference you described; the planner estimates it by simulation "
            "(Algorithm 2): R replicate pairs are drawn and tested, and the power is the share "
            "of rejections.")
        st.latex(r"\widehat{\mathrm{power}}(N, \alpha) = \frac{1}{R}\sum_{r=1}^{R} "
                 r"I\big(p_r < \text{level}\big),\qquad "
                 r"\mathrm{TV}(p_A, p_B) = \tfrac12 \sum_{j=1}^{M} |p_{Aj} - p_{Bj}|")
        st.markdown(
            "**The two questions.** With π the target power, the planner finds the smallest N "
            "at your α, and the smallest α (the strongest privacy) at your N:")
        st.latex(r"N^*(\alpha) = \min\{N : \mathrm{power}(N, \alpha) \ge \pi\},\qquad "
                 r"\alpha^*(N) = \min\{\alpha : \mathrm{power}(N, \alpha) \ge \pi\}")
        st.markdown(
            "**Monotonicity.** Power is assumed to grow with N (more data) and with α (less "
            "noise). It is what the paper's Figures 10–12 show, but not a theorem for a "
            "simulated test. The search brackets the target by factors of 10, then bisects on "
            "a log scale to 5%, and interpolates between the two nearest points.\n\n"
            "**Monte Carlo interval.** Each point has a 95% Wilson interval. The interval of "
            "the estimate runs from the largest simulated value whose power is clearly below "
            "the target to the smallest clearly above it. It holds the true crossing when those "
            "two Wilson intervals do. More replicates R narrow it.\n\n"
            "**Reproducible.** Every setting (N, α₁, α₂, test) draws from its own random "
            "stream, derived from the seed, so the same address with the same seed gives the same "
            "numbers. Settings already simulated on this server are reused.\n\n"
            "**The naive χ² test** compares the noisy counts with the χ² distribution, as if "
            "there were no noise. On private histograms it rejects far too often, even when "
            "there is no difference. The *Frontier* tab shows that its type-I error is far "
            "above the level wherever it seems to need less data.")
        st.page_link(registry.CALIBRATION.script,
                     label="Type-I error of both tests: see the page Test calibration",
                     icon=":material/tune:",
                     help="How often each test rejects when there is no difference, against N, "
                     "as in the paper's Figures 9–12.")
        st.caption(f"Source: {SOURCE_NOTE}")


# ------------------------------------------------------------------------------------------
kit = page_header(TITLE)
st.markdown(
    "Differential privacy costs accuracy: the smaller the privacy level α, the more noise, and "
    "the more people are needed to see a difference between two groups. Following Son, Park & "
    "Jung (2022, section 5), this page measures utility as the **power** of the parametric "
    "bootstrap test: how often it finds the difference that matters to you. It answers two "
    "questions: *how much data* does a privacy level need, and *how much privacy* can a "
    "sample size afford?")

with st.container(border=True):
    st.markdown("##### 1. What should the test detect?")
    left, right = st.columns([1.3, 1], gap="large")
    with left:
        COMP, PROBLEM = comparison_controls()
        LEVEL, POWER = level_power_controls()
    with right:
        if COMP is not None:
            st.metric("Effect size: total-variation distance", f"{COMP.tv:.3f}", border=True,
                      help="½ Σ|p_Aj − p_Bj|: the share of people who would have to change "
                      "group to turn A into B. The smaller, the more data a test needs.")
            kit.chart(dpviz.planner.planner_distributions_figure(
                COMP.labels, COMP.p1, COMP.p2, name_a=COMP.name_a, name_b=COMP.name_b),
                key="plan_fig_dist",
                name=f"The two distributions: {COMP.name_a} and {COMP.name_b}")
            st.caption(f"M = {COMP.m} bins. The test must tell these two distributions apart "
                       "from their private histograms.")
        if PROBLEM is not None:
            if PROBLEM.waiting:
                st.info(PROBLEM.message, icon=":material/upload_file:")
            else:
                kit.error(PROBLEM.message)

with st.container(border=True):
    st.markdown("##### 2. Your plan: privacy level and people per group")
    ALPHA1, ALPHA2, N_PLAN = choice_controls()

with st.expander("Accuracy of the simulation: replicates, bootstrap, seed and cost"):
    REPS, N_BOOT, SEED = accuracy_controls(COMP.m if COMP is not None else None)

if PROBLEM is not None:
    explanation()
    kit.stop()

SETTINGS = Settings(ALPHA1, ALPHA2, N_PLAN, LEVEL, POWER, REPS, N_BOOT, SEED)
kit.settings(parameters(COMP, SETTINGS))
for NOTE in REPORT_NOTES:
    kit.note(NOTE)
REFUSAL = search_refusal(COMP, SETTINGS)
SECTIONS = {TABS[0]: data_section, TABS[1]: privacy_section, TABS[2]: frontier_section,
            TABS[3]: report_section}
for tab, (name, section) in zip(st.tabs(list(SECTIONS), key="plan_tab", bind="query-params"),
                                SECTIONS.items()):
    with tab:
        if tab.open is False:
            continue
        if REFUSAL is not None and section is not frontier_section:
            kit.error(REFUSAL)
            continue
        try:
            section(COMP, SETTINGS)
        except ValueError as exc:  # dpcore's argument errors, in plain words
            kit.error(f"These settings cannot be used: {plain(str(exc))}")

explanation()
kit.end()
