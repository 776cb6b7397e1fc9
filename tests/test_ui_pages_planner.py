"""ui.pages.planner: the planner page's settings, comparison, costs, sentences and tables, from
dpcore.planner's structured results (pure functions, tested without the page)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from dpcore import planner, study
from ui.pages import planner as page

M9 = study.cell_probabilities("central_vs_noncentral", 9)
CHEAP = dict(reps=200, n_boot=100)
EMPTY = pd.DataFrame()


def sample_size_plan(**changes) -> planner.SampleSizePlan:
    fields = dict(n=7914, interval=(7500.0, 8350.0), points=EMPTY, status="found", power=0.8,
                  level=0.05, test="bootstrap", alpha1=0.1, alpha2=0.1, reps=500, n_boot=500,
                  simulated=12, recalled=0)
    return planner.SampleSizePlan(**{**fields, **changes})


def privacy_plan(**changes) -> planner.PrivacyPlan:
    fields = dict(alpha=0.0512, interval=(0.045, 0.06), points=EMPTY, status="found", power=0.8,
                  level=0.05, test="bootstrap", n=20_000, alpha_ratio=1.0, reps=500, n_boot=500,
                  simulated=12, recalled=0)
    return planner.PrivacyPlan(**{**fields, **changes})


def test_plain_sentences_carry_the_numbers_of_real_plans():
    p1, p2 = M9
    plan = planner.required_sample_size(p1, p2, 0.1, 0.1, rng=2, **CHEAP)
    text = page.describe_sample_size(plan, "a difference as large as A vs B")
    assert f"{plan.n:,}" in text and "α = 0.1" in text and "80%" in text
    assert f"{int(plan.interval[0]):,}" in text and "A vs B" in text
    priv = planner.strongest_privacy(p1, p2, 20_000, rng=2, **CHEAP)
    text = page.describe_privacy(priv, "it")
    assert f"{priv.alpha:.3g}" in text and "20,000" in text and "stronger" not in text
    never = planner.required_sample_size(p1, p1 * 0 + 1 / 9, 0.001, 0.001, n_range=(100, 1000),
                                         rng=2, **CHEAP)
    assert never.status == "unreachable" and never.n is None
    assert "not enough" in page.describe_sample_size(never, "it")


def test_sample_size_sentence_for_each_status():
    found = page.describe_sample_size(sample_size_plan(), "it")
    assert found == ("At privacy level α = 0.1 for both releases, about 7,914 people per group "
                     "(between 7,500 and 8,350, allowing for simulation error) are needed so "
                     "that the DP bootstrap test at the 5% level detects it 80% of the time.")
    open_ended = sample_size_plan(interval=(7500.0, math.inf), alpha2=0.05, test="chisq")
    text = page.describe_sample_size(open_ended, "it")
    assert "above 7,500" in text and "α₁ = 0.1 and α₂ = 0.05" in text
    assert "naive chi-square test" in text
    lower = page.describe_sample_size(
        sample_size_plan(status="at_lower_bound", n=100), "it")
    assert "even 100 people per group are enough" in lower
    stopped = page.describe_sample_size(sample_size_plan(status="stopped", n=None), "it")
    assert "cap on simulations" in stopped


def test_privacy_sentence_for_each_status():
    found = page.describe_privacy(privacy_plan(), "it")
    assert "privacy level α = 0.0512 (between 0.045 and 0.06" in found
    assert "a smaller α less often" in found
    ratio = page.describe_privacy(privacy_plan(alpha_ratio=0.5), "it")
    assert "(and α₂ = 0.5 α₁)" in ratio
    lower = page.describe_privacy(
        privacy_plan(status="at_lower_bound", alpha=0.001), "it")
    assert "α = 0.001, the strongest searched, is affordable" in lower
    never = page.describe_privacy(
        privacy_plan(status="unreachable", alpha=None, interval=(10.0, math.inf)), "it")
    assert "no privacy level up to α = 10 is weak enough" in never
    stopped = page.describe_privacy(privacy_plan(status="stopped", alpha=None), "it")
    assert "cap on simulations" in stopped


@pytest.mark.parametrize("label, text", [
    ("quantity=power test=bootstrap n=12000 alpha1=0.1 alpha2=0.1",
     "power of the bootstrap test at N = 12,000, α = 0.1"),
    ("quantity=type1 test=chisq n=500 alpha1=0.1 alpha2=0.05",
     "type-I error of the chi-square test at N = 500, α = (0.1, 0.05)"),
    ("done", "done"),
    ("", ""),
])
def test_progress_text(label, text):
    assert page.progress_text(label) == text


def test_progress_text_reads_the_labels_the_planner_sends(progress_log):
    p1, p2 = M9
    planner.required_sample_size(p1, p2, 0.3, 0.3, rng=1, progress=progress_log, **CHEAP)
    shown = [page.progress_text(label) for label in progress_log.labels[:-1]]
    assert shown and all(t.startswith("power of the bootstrap test at N = ") for t in shown)
    assert all(t.endswith(", α = 0.3") for t in shown)


def test_alphas_in_the_sentences_have_three_significant_digits():
    text = page.describe_privacy(privacy_plan(alpha=0.123456, interval=(0.1, 10.0)), "it")
    assert "α = 0.123 (between 0.1 and 10," in text
