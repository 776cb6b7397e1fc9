"""Plain-language text for the privacy–utility planner page.

dpcore.planner returns numbers and structured results (a SampleSizePlan, a
PrivacyPlan, progress labels of the form ``"quantity=power test=bootstrap
n=1000 alpha1=0.1 alpha2=0.1"``); this module turns them into the sentences
the page shows and the report carries.
"""

from __future__ import annotations

import math

from dpcore.planner import PrivacyPlan, SampleSizePlan

__all__ = ["describe_privacy", "describe_sample_size", "fmt_alpha", "progress_text"]


def fmt_alpha(a: float) -> str:
    """A privacy level α to three significant digits."""
    return f"{a:.3g}"


def _privacy_words(alpha1: float, alpha2: float) -> str:
    if alpha1 == alpha2:
        return f"privacy level α = {fmt_alpha(alpha1)} for both releases"
    return f"privacy levels α₁ = {fmt_alpha(alpha1)} and α₂ = {fmt_alpha(alpha2)}"


def _test_words(test: str, level: float) -> str:
    name = "DP bootstrap test" if test == "bootstrap" else "naive chi-square test"
    return f"the {name} at the {level:.0%} level"


def _goal(plan, difference: str) -> str:
    return (f"{_test_words(plan.test, plan.level)} to detect {difference} "
            f"{plan.power:.0%} of the time")


def describe_sample_size(plan: SampleSizePlan, difference: str) -> str:
    """One plain sentence on a :class:`dpcore.planner.SampleSizePlan`, for stakeholders.

    ``difference`` names what is to be detected, e.g. "a difference as large
    as Korea central vs noncentral".
    """
    what = (f"{_test_words(plan.test, plan.level)} detects {difference} "
            f"{plan.power:.0%} of the time")
    goal = _goal(plan, difference)
    privacy = _privacy_words(plan.alpha1, plan.alpha2)
    if plan.status == "at_lower_bound":
        return (f"At {privacy}, even {plan.n:,} people per group are enough: {what} "
                "(smaller groups were not searched).")
    if plan.status == "unreachable":
        return (f"At {privacy}, even {int(plan.interval[0]):,} people per group are not "
                f"enough for {goal}: weaken the privacy (a larger α) or accept a lower power.")
    if plan.n is None:
        return (f"At {privacy}, the search stopped at its cap on simulations before finding "
                f"how many people per group are needed for {goal}.")
    low, high = plan.interval
    span = (f"between {int(low):,} and {int(high):,}" if math.isfinite(high)
            else f"above {int(low):,}")
    return (f"At {privacy}, about {plan.n:,} people per group ({span}, allowing for "
            f"simulation error) are needed so that {what}.")


def describe_privacy(plan: PrivacyPlan, difference: str) -> str:
    """One plain sentence on a :class:`dpcore.planner.PrivacyPlan`.

    Smaller α means stronger privacy.
    """
    what = (f"{_test_words(plan.test, plan.level)} still detects {difference} "
            f"{plan.power:.0%} of the time")
    goal = _goal(plan, difference)
    ratio = "" if plan.alpha_ratio == 1 else f" (and α₂ = {plan.alpha_ratio:g} α₁)"
    if plan.status == "at_lower_bound":
        return (f"With {plan.n:,} people per group, even privacy level α = "
                f"{fmt_alpha(plan.alpha)}{ratio}, the strongest searched, is affordable: "
                f"{what}.")
    if plan.status == "unreachable":
        return (f"With {plan.n:,} people per group, no privacy level up to α = "
                f"{fmt_alpha(plan.interval[0])} is weak enough for {goal}: more people per "
                "group are needed.")
    if plan.alpha is None:
        return (f"With {plan.n:,} people per group, the search stopped at its cap on "
                "simulations before finding the strongest affordable privacy.")
    low, high = plan.interval
    span = (f"between {fmt_alpha(low)} and {fmt_alpha(high)}" if math.isfinite(high)
            else f"above {fmt_alpha(low)}")
    return (f"With {plan.n:,} people per group, privacy level α = {fmt_alpha(plan.alpha)}"
            f"{ratio} ({span}, allowing for simulation error) is the strongest at which {what}; "
            "a larger α (weaker privacy) detects it more often, a smaller α less often.")


def progress_text(label: str) -> str:
    """What a planner progress label says is running, in words.

    ``"quantity=power test=bootstrap n=1000 alpha1=0.1 alpha2=0.1"`` becomes
    ``"power of the bootstrap test at N = 1,000, α = 0.1"``; a label of
    another form (``"done"``, ``""``) is returned as it is.
    """
    fields = dict(part.split("=", 1) for part in label.split() if "=" in part)
    if not {"quantity", "test", "n", "alpha1", "alpha2"} <= fields.keys():
        return label
    what = "type-I error" if fields["quantity"] == "type1" else "power"
    test = "bootstrap" if fields["test"] == "bootstrap" else "chi-square"
    a1, a2 = fields["alpha1"], fields["alpha2"]
    alphas = f"α = {a1}" if a1 == a2 else f"α = ({a1}, {a2})"
    return f"{what} of the {test} test at N = {int(fields['n']):,}, {alphas}"
