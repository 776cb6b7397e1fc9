"""ui.oneperson: the sentences and table of what a privacy level means for one person, with
the numbers of dpcore.risk written out here from their closed forms."""

from __future__ import annotations

import math

from dpcore import risk
from ui import oneperson


def test_pure_eps_says_the_odds_bound():
    level = oneperson.pure_eps(1.0)
    assert level.name == "ε = 1"
    sentence = oneperson.odds_sentence(level)
    assert f"at most **{100 * math.e / (1 + math.e):.1f}%** sure after" in sentence


def test_an_unbounded_level_says_there_is_no_bound_and_gives_the_best_guess():
    level = oneperson.gdp_level(1.0)
    sentence = oneperson.odds_sentence(level)
    # G_1 at π = 1/2: right with probability Φ(1/2) = 69.1%
    assert "at most **69.1%** of the time" in sentence and "No bound below certainty" in sentence
    table = oneperson.markdown_table(oneperson.shown_table(risk.risk_table(level.guarantee)))
    head, rule, *rows = table.splitlines()
    assert head.count("|") == 5 and rule == "|---:|---:|---:|---:|" and len(rows) == 3
    assert all(row.split("|")[2].strip() == "—" for row in rows)  # no posterior bound


def test_delta_is_said_only_where_a_release_has_one():
    pure = oneperson.pure_eps(1.0)
    assert oneperson.delta_sentence(pure) == ""
    gauss = oneperson.Level(risk.Guarantee.gaussian(1.0), "μ = 1",
                            also=risk.Guarantee.approximate(1.0, 1e-5))
    assert "e^ε·α + δ" in oneperson.delta_sentence(gauss)


def test_power_at_five_percent():
    # 1 − f_{1,0}(0.05) = e·0.05 = 13.6%
    assert "**13.6%**" in oneperson.power_sentence(oneperson.pure_eps(1.0))


def test_the_side_by_side_sentence_names_both_levels():
    text = oneperson.compare_sentence(oneperson.pure_eps(1.0), oneperson.pure_eps(10.0))
    assert "**73.1%**" in text and "**99.995%**" in text and "ε = 10" in text
