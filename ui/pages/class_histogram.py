"""The page "Class histogram with a privacy budget" without its layout (issue 37, activity 3):
the teacher's settings, the budget meter, the releases, the comparison of two groups and the
page's sentences (views/class_histogram.py draws them).

Each student sends a raw value (one of the teacher's bins) and their group; the class
database keeps the raw values until the teacher closes the activity (dpclass.storage). The
teacher's screen never shows them: it shows releases only, each the truncated Laplace
histogram of Son, Park & Jung (2022) eq. (2.4) of every group at once
(dpcore.histogram.release_groups), drawn with fresh randomness inside the transaction that
checks the budget (Store.release). The releases' α add up (sequential composition,
dpcore.histogram.budget_spent); the groups are disjoint, so a release of all of them costs
its α once (parallel composition). Two groups of one release are compared with the tests of
the compare page (dpcore.homogeneity): Algorithm 1 of [SPJ22] when the release allows it,
else the calibrated normal-score test.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from dpclass import activities
from dpcore import histogram, homogeneity
from dpcore.homogeneity import BootstrapTestResult, DegenerateNullError
from ui import classroom, controls
from ui.format import fmt_number, fmt_sig
from ui.text import N_, error_text, esc, t

DEFAULT_QUESTION = N_("Hours you slept last night")
DEFAULT_BINS = ("< 5", "5–6", "6–7", "7–8", "8–9", "≥ 9")  # symbols: the same in any language
DEFAULT_GROUPS = (N_("The whole class"),)
# The total budget's choices: the compare page's log grid of α from 0.1 up, and beyond 10
# up to the class database's limit (activities.BUDGET_MAX).
BUDGET_GRID = tuple(a for a in controls.ALPHA_GRID if a >= 0.1) + (13.0, 16.0, 20.0)
DEFAULT_BUDGET = 2.0
ALPHA_MIN = activities.EPS_MIN  # the smallest α a release offers
N_BOOT = 999  # bootstrap replicates of a comparison: p-values to 1/1,000
LEVEL = 0.05  # the comparison's significance level, the compare page's
STUDENT_EVERY_S = 2 * classroom.LIVE_EVERY_S  # a student's screen looks for shared releases

RELEASE_NAME = N_("A release of the class histogram")
BUDGET_NAME = N_("The privacy budget spent")
SENT = "class_hist_sent"  # session state: code -> (group, value) this browser sent


# --- The teacher's settings ----------------------------------------------------------------

def lines(text: str) -> list[str]:
    """The labels a teacher typed, one per line: each stripped, blank lines dropped."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def config(question: str, bins_text: str, groups_text: str, budget: float) -> dict:
    """The activity's settings as the class database keeps them (ValueError naming the
    setting that is not accepted: the question, the bins, the groups or the budget)."""
    return activities.histogram_config(question, lines(bins_text), lines(groups_text), budget)


def alpha_options(budget: float) -> tuple[float, ...]:
    """The α a release may take: the log grid from :data:`ALPHA_MIN` up to the whole budget
    (the budget itself included). A release of more than is left is refused by the class
    database, in plain words."""
    budget = float(budget)
    grid = {a for a in controls.ALPHA_GRID if ALPHA_MIN <= a <= budget}
    return tuple(sorted(grid | {budget}))


def default_alpha(budget: float) -> float:
    """A first release's α: the grid's value nearest a quarter of the budget."""
    options = alpha_options(budget)
    return min(options, key=lambda a: abs(np.log(a) - np.log(budget / 4)))


def fresh_release(counts, alpha: float) -> np.ndarray:
    """The release Store.release draws: every group's histogram by eq. (2.4) at ``alpha``,
    from fresh randomness of the operating system. Never a fixed or shown seed: whoever
    knew it could take the noise off."""
    return histogram.release_groups(counts, alpha, rng=np.random.default_rng())


# --- The budget ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Meter:
    """The budget: what the releases spent (the sum of their α), of the total."""

    spent: float
    total: float
    releases: int

    @property
    def left(self) -> float:
        return max(self.total - self.spent, 0.0)

    @property
    def fraction(self) -> float:
        """Spent over total, from 0 to 1 (the progress bar)."""
        return min(max(self.spent / self.total, 0.0), 1.0)

    @property
    def exhausted(self) -> bool:
        """Nothing left, within the tolerance budget_check allows."""
        return self.spent >= self.total * (1 - 1e-9)


def meter(releases: list[tuple[float, np.ndarray]], total: float) -> Meter:
    """The budget after ``releases`` (Store.releases): sequential composition."""
    return Meter(histogram.budget_spent([a for a, _counts in releases]), float(total),
                 len(releases))


def meter_text(m: Meter) -> str:
    """The progress bar's words: spent, of the total, and left."""
    return t("Spent α = {spent} of the budget {total}: {left} left", spent=fmt_number(m.spent),
             total=fmt_number(m.total), left=fmt_number(m.left))


def meter_caption(groups: int) -> str:
    """How the budget is counted: all groups at once cost α once; releases add up."""
    if groups > 1:
        return t("Each release publishes the histograms of all {groups} groups together at "
                 "its α, and costs α once: a student is in one group only, so the groups are "
                 "disjoint (parallel composition). Releases add up: two releases at α = 0.5 "
                 "cost α = 1 (sequential composition). A release that would spend more than "
                 "is left is refused.", groups=groups)
    return t("Each release publishes the class histogram at its α. Releases add up: two "
             "releases at α = 0.5 cost α = 1 (sequential composition). A release that would "
             "spend more than is left is refused.")


def meter_finding(m: Meter) -> str:
    return t("{n} release(s) spent α = {spent} of the budget {total} ({left} left).",
             n=m.releases, spent=fmt_number(m.spent), total=fmt_number(m.total),
             left=fmt_number(m.left))


def over_budget_hint(alpha: float, m: Meter) -> str:
    return t("α = {alpha} is more than is left ({left}): this release would be refused.",
             alpha=fmt_number(alpha), left=fmt_number(m.left))


# --- The releases --------------------------------------------------------------------------

def release_label(k: int, alpha: float, newest: int) -> str:
    """A release as the chooser names it (1 the oldest)."""
    if k == newest:
        return t("Release {k} at α = {alpha} (the latest)", k=k, alpha=fmt_number(alpha))
    return t("Release {k} at α = {alpha}", k=k, alpha=fmt_number(alpha))


def release_caption(alpha: float) -> str:
    """What a release's numbers are, with its noise."""
    return t("Every count of every group released as max(0, C + Lap(2/α)) at α = {alpha} "
             "(Son, Park & Jung 2022, eq. 2.4): the noise has standard deviation {sd} "
             "before counts below 0 are set to 0. No true count is shown.",
             alpha=fmt_number(alpha), sd=fmt_sig(histogram.noise_sd(alpha), 3))


def release_finding(k: int, alpha: float, bins: list[str], groups: list[str],
                    noisy: np.ndarray) -> str:
    """A release's numbers in one sentence (the report's finding)."""
    parts = "; ".join(
        t("{group}: {counts}", group=g, counts=", ".join(
            f"{b} {v:,.1f}" for b, v in zip(bins, row)))
        for g, row in zip(groups, np.atleast_2d(noisy)))
    return t("Release {k} at α = {alpha}: {parts}.", k=k, alpha=fmt_number(alpha),
             parts=parts)


# --- Comparing two groups ------------------------------------------------------------------

TESTS = {"bootstrap": N_("the parametric bootstrap test (Algorithm 1 of Son, Park & Jung "
                         "2022)"),
         "calibrated": N_("the calibrated normal-score test (this project)")}


@dataclass(frozen=True)
class Comparison:
    """Two groups of one release compared: the test run (its name in ``TESTS``) and its
    result; ``degenerate``: the group (0 or 1 of the pair) whose estimated total N̂ of
    eq. (4.3) is 0, when that ruled Algorithm 1 out."""

    result: BootstrapTestResult
    degenerate: int | None = None

    @property
    def test(self) -> str:
        return self.result.test

    @property
    def finds_difference(self) -> bool:
        return self.result.rejects(LEVEL)


@st.cache_data(max_entries=64, show_spinner=False)
def compare(x1: tuple, x2: tuple, alpha: float, seed: int) -> Comparison:
    """Two groups' noisy counts of one release at ``alpha``, tested as the compare page
    tests two histograms: Algorithm 1 of [SPJ22] (both share α, where it keeps its level),
    unless a group's estimated total N̂ is 0 and its null cannot be simulated; then the
    calibrated normal-score test. ``N_BOOT`` replicates from ``seed``; the p-value is the
    Monte Carlo one, (1 + #{T_b ≥ T}) / (B + 1), never 0. Only released numbers are used."""
    try:
        return Comparison(homogeneity.parametric_bootstrap_test(
            x1, x2, alpha, alpha, n_boot=N_BOOT, rng=seed))
    except DegenerateNullError as error:
        return Comparison(homogeneity.calibrated_test(x1, x2, alpha, alpha, n_boot=N_BOOT,
                                                      rng=seed), degenerate=error.which - 1)


def comparison_seed(k: int, a: int, b: int) -> int:
    """The comparison's seed: fixed for a release and a pair of groups, so its p-value
    reads the same on every rerun (the noise was drawn already; only the test's replicates
    come from it)."""
    return 3_700_000 + 100 * k + 10 * a + b


def p_text(result: BootstrapTestResult) -> str:
    """The p-value as shown: its value, or "< 1/(B + 1)" when no replicate reached T (its
    smallest value: never 0)."""
    if result.below_resolution:
        return t("< {p}", p=fmt_sig(1 / (result.n_boot + 1), 2))
    return fmt_sig(result.pvalue, 3)


def comparison_sentence(name_a: str, name_b: str, c: Comparison, *,
                        markdown: bool = True) -> str:
    """The verdict at the 5 % level, the test named, its p-value; the group names escaped
    for the page (``markdown``) or as typed for the report."""
    if markdown:
        name_a, name_b = esc(name_a), esc(name_b)
    values = dict(test=t(TESTS[c.test]), a=name_a, b=name_b, p=p_text(c.result),
                  n_boot=f"{c.result.n_boot:,}")
    if c.finds_difference:
        text = (t("At the 5% significance level, {test} **finds** a difference between «{a}» "
                  "and «{b}» (p-value {p}, from {n_boot} bootstrap replicates).", **values)
                if markdown else
                t("At the 5% significance level, {test} finds a difference between «{a}» and "
                  "«{b}» (p-value {p}, from {n_boot} bootstrap replicates).", **values))
    else:
        text = (t("At the 5% significance level, {test} **does not find** a difference "
                  "between «{a}» and «{b}» (p-value {p}, from {n_boot} bootstrap "
                  "replicates).", **values)
                if markdown else
                t("At the 5% significance level, {test} does not find a difference between "
                  "«{a}» and «{b}» (p-value {p}, from {n_boot} bootstrap replicates).",
                  **values))
    return text


def test_choice(name_a: str, name_b: str, c: Comparison, alpha: float) -> str:
    """Why this test (Markdown, the group names escaped)."""
    if c.degenerate is None:
        return t("Both groups are released at the same α, where Algorithm 1 keeps its "
                 "significance level: it simulates the noisy histograms under 'no difference' "
                 "from the estimated totals N̂ and pooled shares p̂₀ of eq. (4.3) and counts how "
                 "often their χ² statistic T_b reaches the release's T. The p-value, (1 + the "
                 "number of T_b ≥ T) / (B + 1), is never 0.")
    group = esc((name_a, name_b)[c.degenerate])
    return t("Algorithm 1 cannot be run on this release: at α = {alpha} almost every noisy "
             "count of «{group}» is at or below 1/α = {limit}, so its estimated total N̂ "
             "(eq. 4.3) is 0 and its null cannot be simulated. The calibrated normal-score "
             "test (the compare page's) is defined for every release and is used instead. "
             "The p-value is never 0.", alpha=fmt_number(alpha), group=group,
             limit=fmt_number(1 / alpha))


def power_caption(alpha: float) -> str:
    return t("A class has few students per bin, and the noise of a release (standard "
             "deviation {sd} at α = {alpha}) can be as large as its counts: the test finds "
             "only large differences, and 'no difference found' says little. The test uses "
             "the release only, so it spends no more privacy.",
             sd=fmt_sig(histogram.noise_sd(alpha), 3), alpha=fmt_number(alpha))


def comparison_error(error: Exception) -> str:
    return t("The two groups cannot be compared on this release: {error}",
             error=error_text(error))


# --- The student's value -------------------------------------------------------------------

def sent_value(code: str) -> tuple[int, int] | None:
    """The (group, value) this browser sent for ``code`` in this session."""
    return st.session_state.get(SENT, {}).get(code)


def keep_sent(code: str, group: int, value: int) -> None:
    st.session_state.setdefault(SENT, {})[code] = (group, value)


def sent_text(bins: list[str], groups: list[str], group: int, value: int) -> str:
    """What the student sent (Markdown, their choices escaped)."""
    if len(groups) > 1:
        return t("Sent: «{value}», in «{group}».", value=esc(bins[value]),
                 group=esc(groups[group]))
    return t("Sent: «{value}».", value=esc(bins[value]))


def kept_note() -> str:
    return t("Your raw value is kept in the class database only until the teacher closes "
             "the activity; then it is deleted. Nobody sees it: the teacher's screen and "
             "the class see only noisy releases of the whole class's histogram.")


# --- Sentences -----------------------------------------------------------------------------

def teacher_caption(config: dict) -> str:
    return t("{bins} bins, {groups} group(s), a total privacy budget of α = {budget}. The "
             "raw values are never shown here: only releases, each with Laplace noise.",
             bins=len(config["bins"]), groups=len(config["groups"]),
             budget=fmt_number(config["budget"]))


def report_settings(config: dict) -> dict[str, str]:
    """The activity's settings as the report lists them (the teacher's text as typed: the
    report escapes it)."""
    return {t("question"): config["question"], t("bins"): " | ".join(config["bins"]),
            t("groups"): " | ".join(config["groups"]),
            t("total privacy budget α"): fmt_number(config["budget"])}


def forget(kit, said: list[str]) -> None:
    """Take out of the page's kit what a fragment gave it on its last run (its charts and
    ``said``, its findings): a fragment's rerun draws them again with the kit of the page's
    last full run, and the report holds each once."""
    names = {t(RELEASE_NAME), t(BUDGET_NAME)}
    kit.figures[:] = [(name, fig) for name, fig in kit.figures if name not in names]
    for text in said:
        if text in kit.findings:
            kit.findings.remove(text)
