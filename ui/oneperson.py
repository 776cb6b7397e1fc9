"""What this means for one person: the section every tool page shows under its privacy
setting.

An attacker wants to know whether one person's record is in the data (or, under local
privacy, which answer a person gave). For the priors 1%, 10% and 50%, the section says how
sure the attacker can become at most (the odds bound of pure ε), or, where no bound below
certainty holds for every outcome ((ε, δ) with δ > 0, μ-GDP), how often the best attacker
guesses right; the f-DP reading (the best attacker's power at a 5% false-alarm rate); and
a side-by-side of the page's level with a second level the reader picks, in words and as a
small chart. The numbers are :mod:`dpcore.risk`'s; this module only lays them out.

A page calls :func:`section` with its :class:`Level` and a :class:`Comparison`: the control
of the second level (a slider over its grid, bound to the page URL as ``<key>_vs``) and how
a value of it becomes a level.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
import streamlit as st

import dpviz
from dpcore import risk
from ui.format import fmt_param, headed
from ui.text import t

SUFFIX = "_vs"  # the second level's widget key (and URL parameter): the page's key + this
EPS_GRID = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0)
MU_GRID = (0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0)
GAMMA_GRID = (1.1, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0)

pct = dpviz.risk.percent  # one form of every share, in the sentences, table and chart


@dataclass(frozen=True)
class Level:
    """A privacy level as the page sets it: its guarantee, and its name as the page writes
    the setting ("ε = 1", "σ/Δ = 2"); ``what`` says which guarantee the numbers read
    (shown under the section's heading)."""

    guarantee: risk.Guarantee
    name: str
    what: str = ""
    also: risk.Guarantee | None = None  # an (ε, δ) the same release meets: what δ adds


@dataclass(frozen=True)
class Comparison:
    """The second level's control: ``label`` (the slider's), its ``grid`` and ``default``,
    and ``level(value)`` the :class:`Level` of a value of it."""

    label: str
    grid: tuple
    default: float
    level: Callable[[float], Level]


def pure_eps(eps: float, what: str = "") -> Level:
    """A pure ε guarantee named "ε = …"."""
    return Level(risk.Guarantee.pure(eps), f"ε = {fmt_param(eps)}", what)


def eps_comparison(default: float = 10.0) -> Comparison:
    """Compare with another ε (pure ε-DP)."""
    return Comparison(t("Compare with ε"), EPS_GRID, default, pure_eps)


def gdp_level(mu: float, what: str = "") -> Level:
    return Level(risk.Guarantee.gaussian(mu), f"μ = {fmt_param(mu)}", what)


def odds_sentence(level: Level, prior: float = 0.5) -> str:
    """The level in one sentence at ``prior``: how sure after (pure ε), or the best guess."""
    g = level.guarantee
    if g.bounded:
        return t("At {level}, an attacker who is {prior} sure beforehand that a person is in "
                 "the data can be at most **{after}** sure after seeing the release.",
                 level=level.name, prior=pct(prior), after=pct(float(g.posterior(prior))))
    return t("At {level}, an attacker who is {prior} sure beforehand guesses right whether a "
             "person is in the data at most **{after}** of the time (without the release, "
             "{before}). No bound below certainty holds for every outcome: rare outcomes can "
             "make the attacker sure.",
             level=level.name, prior=pct(prior),
             after=pct(float(g.guess_right(prior))), before=pct(max(prior, 1 - prior)))


def compare_sentence(level: Level, other: Level, prior: float = 0.5) -> str:
    """The two levels in one sentence at ``prior``."""
    a, b = level.guarantee, other.guarantee
    if a.bounded and b.bounded:
        return t("Side by side: an attacker {prior} sure beforehand can be at most **{first}** "
                 "sure after a release at {level}, and at most **{second}** at {other}.",
                 prior=pct(prior), first=pct(float(a.posterior(prior))),
                 second=pct(float(b.posterior(prior))), level=level.name, other=other.name)
    return t("Side by side: an attacker {prior} sure beforehand guesses right at most "
             "**{first}** of the time at {level}, and at most **{second}** at {other}.",
             prior=pct(prior), first=pct(float(a.guess_right(prior))),
             second=pct(float(b.guess_right(prior))), level=level.name, other=other.name)


def power_sentence(level: Level) -> str:
    """The f-DP reading: the best attacker's power at a 5% false-alarm rate."""
    power = float(level.guarantee.power(risk.ALPHA))
    return t("In the f-DP reading: an attacker who wrongly accuses at most 5% of the people "
             "who are not in the data catches a person who is in at most **{power}** of the "
             "time (without the release, 5%).", power=pct(power))


def delta_sentence(level: Level) -> str:
    """What δ adds, under (ε, δ)-DP with δ > 0 (the level's, or the one it also meets);
    "" otherwise."""
    g = level.also or level.guarantee
    if g.kind != "epsdelta" or not g.delta:
        return ""
    return t("What δ = {delta} adds: at any false-alarm rate α the attacker's power may reach "
             "e^ε·α + δ instead of e^ε·α, so even an attacker who never accuses anyone wrongly "
             "catches the person with probability up to δ.", delta=fmt_param(g.delta))


def shown_table(table: pd.DataFrame) -> pd.DataFrame:
    """:func:`dpcore.risk.risk_table` with its shares written as the sentences write them."""
    shown = table.copy().astype(object)
    for column in shown.columns:
        shown[column] = [("—" if pd.isna(v) else pct(float(v))) for v in table[column]]
    return shown


def markdown_table(shown: pd.DataFrame) -> str:
    """:func:`shown_table` as a Markdown table under :func:`table_headers`, numbers right."""
    headers = table_headers()
    head = "| " + " | ".join(headers[c] for c in shown.columns) + " |"
    rule = "|" + "|".join("---:" for _ in shown.columns) + "|"
    rows = ["| " + " | ".join(str(v) for v in row) + " |" for row in shown.itertuples(index=False)]
    return "\n".join([head, rule, *rows])


def table_headers() -> dict[str, str]:
    return {
        "prior": t("Attacker's belief before"),
        "posterior_bound": t("Most sure after"),
        "guess_right_before": t("Best guess right, without the release"),
        "guess_right_after": t("Best guess right, with it"),
    }


def section(kit, level: Level, comparison: Comparison, *, key: str) -> None:
    """The section: heading, the level's sentences and table, and the side-by-side."""
    st.subheader(t("What this means for one person"), anchor=False)
    if level.what:
        st.caption(level.what)
    table = risk.risk_table(level.guarantee)
    sentence = odds_sentence(level)
    st.markdown(sentence)  # the report carries the section's table and chart
    # Three rows, shown whole as a Markdown table (no column to cut, read at 3 m); the
    # report carries it as it is shown (the chart's CSV has the numbers).
    shown = shown_table(table)
    st.markdown(markdown_table(shown))
    kit.table(shown, key=f"{key}_table", drawn=False,
              name=t("What {level} means for one person", level=level.name),
              file="one_person", column_config=headed(table_headers()))
    if not level.guarantee.bounded:
        st.caption(t("Most sure after: “—” where no bound below certainty holds for every "
                     "outcome."))
    st.markdown(power_sentence(level))
    extra = delta_sentence(level)
    if extra:
        st.markdown(extra)
    value = st.select_slider(comparison.label, options=comparison.grid,
                             value=comparison.default, key=f"{key}{SUFFIX}",
                             format_func=fmt_param, bind="query-params",
                             help=t("A second privacy level, to set beside this page's."))
    other = comparison.level(float(value))
    both = risk.side_by_side(level.guarantee, other.guarantee)
    st.markdown(compare_sentence(level, other))
    kit.chart(dpviz.risk.side_by_side_figure(both, (level.name, other.name)),
              key=f"{key}_side_by_side", name=t("{first} against {second}", first=level.name,
                                                   second=other.name),
              file="one_person_side_by_side")
