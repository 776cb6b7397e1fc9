"""The planner page's numbers in words: answers, verdicts, captions, the report's sentences
and table (ui.pages.planner holds its settings, comparison, costs and searches)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dpcore import planner, simulation
from ui.format import estimate_parts, fmt_sig, fmt_sig_count
from ui.pages.planner import (REPORT_NOTES, REPS_GRID, SOURCE_NOTE, Comparison, Settings,
                              alpha_list, test_name)
from ui.text import t


def n_estimate(n: float) -> str:
    """An estimate of the N needed without a finite interval, to three significant digits
    (the simulated N at the ends of an interval have three)."""
    return fmt_sig_count(n, 3)


def _about(parts: tuple[str, str, str]) -> str:
    return t("about {estimate}", estimate=parts[0])


def _span(parts: tuple[str, str, str]) -> str:
    return t("{low}–{high}", low=parts[1], high=parts[2])


def n_text(plan: planner.SampleSizePlan) -> str:
    """The N needed as its metric shows it: "about 450,000" (to the precision of its Monte
    Carlo interval, which the metric beside it shows)."""
    if plan.n is None:
        return t("> {n:,.0f}", n=plan.interval[0]) if plan.status == "unreachable" else \
            t("not found")
    if plan.status == "at_lower_bound":
        return t("≤ {n}", n=n_estimate(plan.n))
    parts = estimate_parts(plan.n, *plan.interval)
    return _about(parts) if parts else t("about {n}", n=n_estimate(plan.n))


def n_interval_text(plan: planner.SampleSizePlan) -> str:
    low, high = plan.interval
    if plan.status == "at_lower_bound":
        return t("≤ {high:,.0f}", high=high)
    if plan.n is None:
        return "–"
    parts = estimate_parts(plan.n, low, high)
    return _span(parts) if parts else t("above {low:,.0f}", low=low)


def _with_interval(parts: tuple[str, str, str], error: bool) -> str:
    """ "about 450,000 (436,000–486,000)" as ui.format.fmt_estimate writes it; ``error``: the
    interval said to allow for simulation error."""
    if error:
        return t("about {estimate} ({low}–{high}, allowing for simulation error)",
                 estimate=parts[0], low=parts[1], high=parts[2])
    return t("about {estimate} ({low}–{high})", estimate=parts[0], low=parts[1], high=parts[2])


def n_with_interval(plan: planner.SampleSizePlan, *, error: bool = False) -> str:
    """The N needed with its interval: "about 450,000 (436,000–486,000)"."""
    parts = estimate_parts(plan.n, *plan.interval)
    if parts:
        return _with_interval(parts, error)
    if error:
        return t("about {n} (above {low:,.0f}, allowing for simulation error)",
                 n=n_estimate(plan.n), low=plan.interval[0])
    return t("about {n} (above {low:,.0f})", n=n_estimate(plan.n), low=plan.interval[0])


def n_full(plan: planner.SampleSizePlan) -> str:
    """The N needed as a metric's help states it in full: with its interval if it has one."""
    if plan.n is not None and plan.status != "at_lower_bound":
        return n_with_interval(plan)
    return n_text(plan)


def alpha_text(plan: planner.PrivacyPlan) -> str:
    """The strongest ε as its metric shows it: "about 0.05" (to the precision of its Monte
    Carlo interval, which the metric beside it shows)."""
    if plan.alpha is None:
        return t("> {alpha}", alpha=fmt_sig(plan.interval[0], 3)) \
            if plan.status == "unreachable" else t("not found")
    if plan.status == "at_lower_bound":
        return t("≤ {alpha}", alpha=fmt_sig(plan.alpha, 3))
    parts = estimate_parts(plan.alpha, *plan.interval, count=False)
    return _about(parts) if parts else t("about {alpha}", alpha=fmt_sig(plan.alpha, 3))


def alpha_interval_text(plan: planner.PrivacyPlan) -> str:
    low, high = plan.interval
    if plan.status == "at_lower_bound":
        return t("≤ {high}", high=fmt_sig(high, 3))
    if plan.alpha is None:
        return "–"
    parts = estimate_parts(plan.alpha, low, high, count=False)
    return _span(parts) if parts else t("above {low}", low=fmt_sig(low, 3))


def alpha_full(plan: planner.PrivacyPlan) -> str:
    """The strongest ε as a metric's help states it in full: with its interval if it has
    one."""
    if plan.alpha is not None and plan.status != "at_lower_bound":
        return alpha_with_interval(plan)
    return alpha_text(plan)


def alpha_with_interval(plan: planner.PrivacyPlan, *, error: bool = False) -> str:
    """The strongest ε with its interval: "about 0.05 (0.045–0.06)"."""
    parts = estimate_parts(plan.alpha, *plan.interval, count=False)
    if parts:
        return _with_interval(parts, error)
    if error:
        return t("about {alpha} (above {low}, allowing for simulation error)",
                 alpha=fmt_sig(plan.alpha, 3), low=fmt_sig(plan.interval[0], 3))
    return t("about {alpha} (above {low})", alpha=fmt_sig(plan.alpha, 3),
             low=fmt_sig(plan.interval[0], 3))


@dataclass(frozen=True)
class Verdict:
    """A planned value against a plan: ``state`` (dpcore.planner.REACHED, NOT_REACHED or
    UNDETERMINED), ``label`` (a few words under the value) and ``sentence``."""

    state: str
    label: str
    sentence: str


def _undetermined_case(plan, value: float) -> str | None:
    """Why ``value`` is undetermined against ``plan``: "inside" (it lies inside the Monte
    Carlo interval), "below_end" or "above_end" (the interval decides, but its end is the
    end of the range searched, not clear of the target: dpcore.planner.plan_verdict); None
    when the search stopped without an estimate."""
    estimate = plan.n if isinstance(plan, planner.SampleSizePlan) else plan.alpha
    if plan.status == "stopped" and estimate is None:
        return None
    if planner.interval_verdict(value, plan.interval) == planner.UNDETERMINED:
        return "inside"
    return "below_end" if plan.status == "unreachable" else "above_end"


def _more_replicates(reps: int) -> str:
    """How to narrow the Monte Carlo interval of a plan made with ``reps`` replicates: the
    page's control of R."""
    if reps < max(REPS_GRID):
        return t("More replicates narrow it: raise *Replicates R per setting* (under *Accuracy "
                 "of the simulation*; {reps:,} now, up to {most:,}); the Wilson intervals "
                 "behind the verdict shrink as 1/√R, four times R about halving them.",
                 reps=reps, most=max(REPS_GRID))
    return t("R is already the page's largest, {most:,}.", most=max(REPS_GRID))


def data_verdict(plan: planner.SampleSizePlan, s: Settings) -> Verdict:
    """Your planned N against the N needed, decided from the Monte Carlo interval
    (dpcore.planner.plan_verdict), never from the estimate alone."""
    state = planner.plan_verdict(plan, s.n)
    low, high = plan.interval
    low_text = t("{n:,.0f}", n=low)
    high_text = t("{n:,.0f}", n=high) if math.isfinite(high) else "∞"
    if state == planner.REACHED:
        return Verdict(state, t("enough"), t(
            "Your N = {n:,} per group is enough: it is at or above {high}, the upper end of "
            "the Monte Carlo interval of the N needed, so the test detects the difference at "
            "least {power:.0%} of the time (under monotone power, allowing for simulation "
            "error).", n=s.n, high=high_text, power=plan.power))
    if state == planner.NOT_REACHED:
        if plan.status == "unreachable":
            return Verdict(state, t("not enough"), t(
                "Your N = {n:,} per group is not enough: even {low} people per group, the "
                "most searched, detect the difference less than {power:.0%} of the time.",
                n=s.n, low=low_text, power=plan.power))
        return Verdict(state, t("not enough"), t(
            "Your N = {n:,} per group is not enough: it is at or below {low}, the lower end "
            "of the Monte Carlo interval of the N needed, so the test detects the difference "
            "less than {power:.0%} of the time (under monotone power, allowing for "
            "simulation error).", n=s.n, low=low_text, power=plan.power))
    case = _undetermined_case(plan, s.n)
    if case is None:
        return Verdict(state, t("unknown"), t(
            "Whether your N = {n:,} per group is enough is unknown: the search stopped at its "
            "cap on simulations before bracketing the N needed.", n=s.n))
    values = dict(n=s.n, reps=plan.reps, low=low_text, high=high_text, power=plan.power)
    if case == "inside":
        why = t("Whether your N = {n:,} per group is enough cannot be told at R = {reps:,} "
                "replicates: it lies inside the Monte Carlo interval of the N needed, "
                "{interval}.", **values, interval=n_interval_text(plan))
    elif case == "below_end":
        why = t("Whether your N = {n:,} per group is enough cannot be told at R = {reps:,} "
                "replicates: the power simulated at {low}, the end of the range searched, is "
                "below {power:.0%} but within Monte Carlo error of it.", **values)
    else:
        why = t("Whether your N = {n:,} per group is enough cannot be told at R = {reps:,} "
                "replicates: the power simulated at {high}, the end of the range searched, is "
                "at or above {power:.0%} but within Monte Carlo error of it.", **values)
    sentences = [why, _more_replicates(plan.reps)]
    if plan.status == "found" and math.isfinite(high):
        # After the advice on R: plan on the interval's upper end.
        sentences.append(
            t("Or plan on N = {high} or more, the upper end of the interval.", high=high_text)
            if plan.reps < max(REPS_GRID) else
            t("Instead, plan on N = {high} or more, the upper end of the interval.",
              high=high_text))
    return Verdict(state, t("undetermined at R = {reps:,}", reps=plan.reps),
                   " ".join(sentences))


def privacy_verdict(plan: planner.PrivacyPlan, s: Settings) -> Verdict:
    """Your ε against the strongest affordable, decided from the Monte Carlo interval
    (dpcore.planner.plan_verdict), never from the estimate alone."""
    state = planner.plan_verdict(plan, s.alpha1)
    symbol = t("ε") if s.same_alpha else t("ε_A")
    alpha = f"{s.alpha1:g}"
    low, high = plan.interval
    low_text, high_text = fmt_sig(low, 3), fmt_sig(high, 3)
    if state == planner.REACHED:
        return Verdict(state, t("affordable"), t(
            "Your {symbol} = {alpha} is affordable: it is at or above {high}, the upper end of "
            "the Monte Carlo interval of the strongest affordable {symbol}, so with N = {n:,} "
            "per group the test detects the difference at least {power:.0%} of the time "
            "(under monotone power, allowing for simulation error).", symbol=symbol,
            alpha=alpha, high=high_text, n=plan.n, power=plan.power))
    if state == planner.NOT_REACHED:
        if plan.status == "unreachable":
            return Verdict(state, t("too strong for the target"), t(
                "Your {symbol} = {alpha} is too strong for the target: even {symbol} = {low}, "
                "the weakest privacy searched, detects the difference less than {power:.0%} "
                "of the time with N = {n:,} per group.", symbol=symbol, alpha=alpha,
                low=low_text, power=plan.power, n=plan.n))
        return Verdict(state, t("too strong for the target"), t(
            "Your {symbol} = {alpha} is too strong for the target: it is at or below {low}, "
            "the lower end of the Monte Carlo interval of the strongest affordable {symbol}, "
            "so with N = {n:,} per group the test detects the difference less than "
            "{power:.0%} of the time (under monotone power, allowing for simulation error).",
            symbol=symbol, alpha=alpha, low=low_text, n=plan.n, power=plan.power))
    case = _undetermined_case(plan, s.alpha1)
    if case is None:
        return Verdict(state, t("unknown"), t(
            "Whether your {symbol} = {alpha} is affordable is unknown: the search stopped at "
            "its cap on simulations before bracketing the strongest affordable {symbol}.",
            symbol=symbol, alpha=alpha))
    values = dict(symbol=symbol, alpha=alpha, reps=plan.reps, low=low_text, high=high_text,
                  power=plan.power)
    if case == "inside":
        why = t("Whether your {symbol} = {alpha} is affordable cannot be told at R = {reps:,} "
                "replicates: it lies inside the Monte Carlo interval of the strongest "
                "affordable {symbol}, {interval}.", **values,
                interval=alpha_interval_text(plan))
    elif case == "below_end":
        why = t("Whether your {symbol} = {alpha} is affordable cannot be told at R = {reps:,} "
                "replicates: the power simulated at {low}, the end of the range searched, is "
                "below {power:.0%} but within Monte Carlo error of it.", **values)
    else:
        why = t("Whether your {symbol} = {alpha} is affordable cannot be told at R = {reps:,} "
                "replicates: the power simulated at {high}, the end of the range searched, is "
                "at or above {power:.0%} but within Monte Carlo error of it.", **values)
    sentences = [why, _more_replicates(plan.reps)]
    if plan.status == "found" and math.isfinite(high):
        # After the advice on R: choose the interval's upper end.
        sentences.append(
            t("Or choose {symbol} = {high} or more (weaker privacy), the upper end of the "
              "interval.", symbol=symbol, high=high_text)
            if plan.reps < max(REPS_GRID) else
            t("Instead, choose {symbol} = {high} or more (weaker privacy), the upper end of "
              "the interval.", symbol=symbol, high=high_text))
    return Verdict(state, t("undetermined at R = {reps:,}", reps=plan.reps),
                   " ".join(sentences))


def good_news(plan) -> bool:
    """Whether a plan's sentence is good news (an estimate or a lower bound)."""
    return plan.status in ("found", "at_lower_bound")


# --- Sentences ----------------------------------------------------------------------------------

def data_intro(comp: Comparison, s: Settings) -> str:
    return t("The smallest number of people per group N at which the test finds {difference} "
             "with {power:.0%} power, at your {alphas}.", difference=comp.difference_md,
             power=s.power, alphas=s.alpha_words())


def privacy_intro(comp: Comparison, s: Settings) -> str:
    values = dict(difference=comp.difference_md, power=s.power, n=s.n)
    if s.same_alpha:
        return t("The smallest privacy level ε (the strongest privacy) at which the test still "
                 "finds {difference} with {power:.0%} power, with your N = {n:,} people per "
                 "group.", **values)
    return t("The smallest privacy level ε (the strongest privacy) at which the test still "
             "finds {difference} with {power:.0%} power, with your N = {n:,} people per group "
             "(ε_B = {ratio:.3g} ε_A throughout).", **values, ratio=s.ratio)


def data_caption(plan: planner.SampleSizePlan, s: Settings) -> str:
    return t("Each point: the share of R = {reps:,} simulated pairs of private histograms in "
             "which the test rejected at the {level:.0%} significance level, with its 95% "
             "Wilson interval. {simulated} settings simulated now, {recalled} reused. Seed {seed}.",
             reps=s.reps, level=s.level, simulated=plan.simulated, recalled=plan.recalled,
             seed=s.seed)


def privacy_caption(plan: planner.PrivacyPlan, s: Settings) -> str:
    return t("Each point: the share of R = {reps:,} simulated pairs of private histograms of "
             "N = {n:,} each in which the test rejected at the {level:.0%} significance "
             "level, with its 95% Wilson interval. {simulated} settings simulated now, {recalled} reused. Seed "
             "{seed}.", reps=s.reps, n=s.n, level=s.level, simulated=plan.simulated,
             recalled=plan.recalled, seed=s.seed)


def _privacy_words(alpha1: float, alpha2: float) -> str:
    if alpha1 == alpha2:
        return t("privacy level ε = {alpha} for both releases", alpha=fmt_sig(alpha1, 3))
    return t("privacy levels ε_A = {alpha1} and ε_B = {alpha2}", alpha1=fmt_sig(alpha1, 3),
             alpha2=fmt_sig(alpha2, 3))


def _test_words(test: str, level: float) -> str:
    if test == "bootstrap":
        return t("the DP bootstrap test at the {level:.0%} significance level", level=level)
    if test == "normal_score":
        return t("the normal-score test at the {level:.0%} significance level", level=level)
    return t("the naive chi-square test at the {level:.0%} significance level", level=level)


def describe_sample_size(plan: planner.SampleSizePlan, difference: str) -> str:
    """One plain sentence on a :class:`dpcore.planner.SampleSizePlan`, for stakeholders.

    ``difference`` names what is to be detected, e.g. "a difference as large
    as Korea central vs noncentral".
    """
    values = dict(privacy=_privacy_words(plan.alpha1, plan.alpha2),
                  test=_test_words(plan.test, plan.level), difference=difference,
                  power=plan.power)
    if plan.status == "at_lower_bound":
        return t("At {privacy}, even {n:,} people per group are enough: {test} detects "
                 "{difference} {power:.0%} of the time (smaller groups were not searched).",
                 **values, n=plan.n)
    if plan.status == "unreachable":
        return t("At {privacy}, even {n:,} people per group are not enough for {test} to "
                 "detect {difference} {power:.0%} of the time: weaken the privacy (a larger ε) "
                 "or accept a lower power.", **values, n=int(plan.interval[0]))
    if plan.n is None:
        return t("At {privacy}, the search stopped at its cap on simulations before finding "
                 "how many people per group are needed for {test} to detect {difference} "
                 "{power:.0%} of the time.", **values)
    return t("At {privacy}, {n} people per group are needed so that {test} detects "
             "{difference} {power:.0%} of the time.", **values,
             n=n_with_interval(plan, error=True))


def describe_privacy(plan: planner.PrivacyPlan, difference: str) -> str:
    """One plain sentence on a :class:`dpcore.planner.PrivacyPlan`.

    Smaller ε means stronger privacy.
    """
    values = dict(n=plan.n, test=_test_words(plan.test, plan.level), difference=difference,
                  power=plan.power, ratio=plan.alpha_ratio)
    same = plan.alpha_ratio == 1  # else ε_B = ratio × ε_A is said
    if plan.status == "at_lower_bound":
        alpha = fmt_sig(plan.alpha, 3)
        if same:
            return t("With {n:,} people per group, even privacy level ε = {alpha}, the strongest "
                     "searched, is affordable: {test} still detects {difference} {power:.0%} of "
                     "the time.", **values, alpha=alpha)
        return t("With {n:,} people per group, even privacy level ε = {alpha} (and ε_B = "
                 "{ratio:g} ε_A), the strongest searched, is affordable: {test} still detects "
                 "{difference} {power:.0%} of the time.", **values, alpha=alpha)
    if plan.status == "unreachable":
        return t("With {n:,} people per group, no privacy level up to ε = {alpha} is weak "
                 "enough for {test} to detect {difference} {power:.0%} of the time: more "
                 "people per group are needed.", **values,
                 alpha=fmt_sig(plan.interval[0], 3))
    if plan.alpha is None:
        return t("With {n:,} people per group, the search stopped at its cap on simulations "
                 "before finding the strongest affordable privacy.", n=plan.n)
    alpha = alpha_with_interval(plan, error=True)
    if same:
        return t("With {n:,} people per group, a privacy level ε of {alpha} is the strongest at "
                 "which {test} still detects {difference} {power:.0%} of the time; a larger ε "
                 "(weaker privacy) detects it more often, a smaller ε less often.", **values,
                 alpha=alpha)
    return t("With {n:,} people per group, a privacy level ε of {alpha} (and ε_B = {ratio:g} "
             "ε_A) is the strongest at which {test} still detects {difference} {power:.0%} of "
             "the time; a larger ε (weaker privacy) detects it more often, a smaller ε less "
             "often.", **values, alpha=alpha)


def progress_text(label: str) -> str:
    """What a planner progress label says is running, in words.

    ``"quantity=power test=bootstrap n=1000 alpha1=0.1 alpha2=0.1"`` becomes
    ``"power of the bootstrap test at N = 1,000, ε = 0.1"``; a label of
    another form (``"done"``, ``""``) is returned as it is.
    """
    fields_ = dict(part.split("=", 1) for part in label.split() if "=" in part)
    if not {"quantity", "test", "n", "alpha1", "alpha2"} <= fields_.keys():
        return label
    a1, a2 = fields_["alpha1"], fields_["alpha2"]
    test = {"bootstrap": t("bootstrap"), "normal_score": t("normal-score")}.get(
        fields_["test"], t("chi-square"))
    return t("{what} of the {test} test at N = {n:,}, {alphas}",
             what=t("type-I error") if fields_["quantity"] == "type1" else t("power"),
             test=test,
             n=int(fields_["n"]),
             alphas=t("ε = {a}", a=a1) if a1 == a2 else t("ε = ({a1}, {a2})", a1=a1, a2=a2))


def frontier_test(table: pd.DataFrame) -> str:
    """The bootstrap test a frontier was computed for (the one beside the naive test); a
    frontier computed before the choice of test, or an empty one: Algorithm 1."""
    tests = set(table["test"]) if "test" in table else set()
    return next((test for test in simulation.BOOTSTRAP_TESTS if test in tests), "bootstrap")


def frontier_sentence(table: pd.DataFrame, power: float) -> str | None:
    """The N the frontier's bootstrap test needs at each ε, in one sentence."""
    test = frontier_test(table)
    rows = table[table["test"] == test].sort_values("alpha1", ascending=False)
    if rows.empty:
        return None
    parts = []
    for _, row in rows.iterrows():
        n = pd.to_numeric(row["n"], errors="coerce")
        low = pd.to_numeric(row["n_low"], errors="coerce")
        high = pd.to_numeric(row.get("n_high", np.nan), errors="coerce")
        rounded = (estimate_parts(n, low, high) if pd.notna(n) and pd.notna(low)
                   and pd.notna(high) else None)
        if rounded:
            parts.append(t("N = {n} at ε = {alpha:g}", n=_with_interval(rounded, False),
                           alpha=row["alpha1"]))
        elif pd.notna(n):
            parts.append(t("N = {n} at ε = {alpha:g}", n=n_estimate(n), alpha=row["alpha1"]))
        elif pd.notna(low) and math.isfinite(low) and low > 0:
            parts.append(t("more than {low:,.0f} at ε = {alpha:g}", low=low,
                           alpha=row["alpha1"]))
        else:
            parts.append(t("an N not found at ε = {alpha:g}", alpha=row["alpha1"]))
    return t("For {power:.0%} power {test} needs {parts} per group.", power=power,
             test=test_name(test), parts="; ".join(parts))


def frontier_n_texts(table: pd.DataFrame) -> list[str]:
    """The frontier table's N needed as it shows them: "about 5,000" to the precision of each
    row's Monte Carlo interval (n_low, n_high), never 5,043; its CSV keeps the numbers."""
    texts = []
    for _, row in table.iterrows():
        n = pd.to_numeric(row["n"], errors="coerce")
        low = pd.to_numeric(row.get("n_low", np.nan), errors="coerce")
        high = pd.to_numeric(row.get("n_high", np.nan), errors="coerce")
        if pd.isna(n):
            texts.append("–")
            continue
        parts = estimate_parts(n, low, high) if pd.notna(low) and pd.notna(high) else None
        texts.append(t("about {n}", n=parts[0]) if parts else n_estimate(n))
    return texts


def frontier_summary(table: pd.DataFrame, level: float) -> str | None:
    """One sentence on the naive test's invalid points, if any."""
    bad = table[(table["test"] == "chisq") & ~table["valid"].astype(bool)]
    if bad.empty:
        return None
    worst = bad.loc[bad["type1"].idxmax()]
    return t("The naive χ² test seems to need fewer people at ε = {alphas}, but it does not "
             "hold its {level:.0%} level there: with no difference at all it rejects up to "
             "{type1:.0%} of the time (at ε = {alpha:g}), so its 'power' means nothing. Only "
             "{test}'s N can be planned on.",
             alphas=alpha_list(sorted(bad["alpha1"], reverse=True)), level=level,
             type1=worst["type1"], alpha=worst["alpha1"], test=_short_name(frontier_test(table)))


def _short_name(test: str) -> str:
    """The bootstrap test as "Only …'s N" names it: "the bootstrap test"."""
    return t("the bootstrap test") if test == "bootstrap" else test_name(test)


def frontier_intro(test: str) -> str:
    """What the frontier tab computes, for the chosen bootstrap test."""
    return t("The N per group needed for the target power across privacy levels, for {test} "
             "and for the naive χ² test, with each test's type-I error checked at the N it "
             "needs (the data drawn from the pooled distribution, no difference). A test whose "
             "type-I error is clearly above the level is marked *invalid*.",
             test=test_name(test))


def frontier_caption(table: pd.DataFrame) -> str:
    """Under the frontier's chart: its lines and the star, for the test it was computed for."""
    test = frontier_test(table)
    curve = t("bootstrap") if test == "bootstrap" else t("normal-score")
    return t("Solid: {test}; dashed: the naive χ² test; bars: the Monte Carlo intervals of N. "
             "The star is your plan: well above the {curve} curve and its bars there is "
             "enough data for the target power, well below not; near them the curve does not "
             "decide it: the tab *How much data?* does, at your ε, from its Monte Carlo "
             "interval.", test=test_name(test), curve=curve)


def frontier_findings(table: pd.DataFrame, level: float, power: float) -> list[str]:
    """The frontier in plain words: the N its bootstrap test needs, the naive test's flaw."""
    return [text for text in (frontier_sentence(table, power), frontier_summary(table, level))
            if text]


# --- The report ---------------------------------------------------------------------------------

def report_caption(with_frontier: bool) -> str:
    """What the report holds, under its download button."""
    if with_frontier:
        return t("The report holds these findings and settings, the charts and tables below (the "
                 "two distributions, power against N and against ε, the simulated points, the "
                 "frontier) and notes on the method.")
    return t("The report holds these findings and settings, the charts and tables below (the "
             "two distributions, power against N and against ε, the simulated points; compute "
             "the frontier on its tab to add it) and notes on the method.")


def source_line() -> str:
    return t("Source: {source}", source=t(SOURCE_NOTE))


def report_notes() -> list[str]:
    """The report's notes on the method, and its source."""
    return [*(t(note) for note in REPORT_NOTES), source_line()]


def report_table(comp: Comparison, s: Settings) -> pd.DataFrame:
    """The settings of the report, as the Report tab lists them."""
    items = {**comp.report_items(), **s.report_items()}
    return pd.DataFrame(list(items.items()), columns=[t("setting"), t("value")])
