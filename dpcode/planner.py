"""The page "Privacy–utility planner" as code (Son, Park & Jung 2022, section 5): the two
distributions the test must tell apart and their total-variation distance, then the open
tab's search: the N per group needed at ε (power against N), the strongest ε affordable
with N per group (power against ε), the frontier of both tests, or the report (both
searches, and the frontier when the page had computed it).

Every simulated setting (N, ε_A, ε_B, test) draws from a stream derived from the seed and
the setting alone, so the script's searches simulate exactly the page's settings and give
its numbers, whatever the page's server had simulated before."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpcode import EMBED_LIMIT, Cell, Program, array_literal, literal, show
from dpviz.text import N_, _

TABS = ("data", "privacy", "frontier", "report")
STEM = "privacy_utility_planner"


@dataclass(frozen=True)
class Side:
    """One distribution as the page has it: a built-in population (``kind`` "population",
    its key ``source``), or an uploaded column: counts per bin (``kind`` "counts") or one
    value per person, binned into age groups (``kind`` "values"), its numbers ``values``."""

    kind: str
    source: str | None = None
    values: np.ndarray | None = None


@dataclass(frozen=True)
class View:
    """The settings the view's code needs (the page's Settings and comparison, without the
    interface). ``b`` is None when B is A with an ``effect``: ("shift", k) with k signed
    (+ older, − younger), or ("tilt", d, direction). ``width``: the age groups' width, None
    for the rows of a file of counts (their labels ``bin_labels``). ``frontier``: the
    frontier the page shows, ("grid", low, high, points) as the Frontier tab computes it or
    ("levels", (ε, …)) as the report holds it, None if it shows none; ``labels``: the page's
    labels of the numbers it shows."""

    tab: str
    a: Side
    b: Side | None
    effect: tuple | None
    width: int | None
    bin_labels: tuple | None
    names: tuple[str, str]
    test: str
    level: float
    power: float
    alpha1: float
    alpha2: float
    n: int
    reps: int
    n_boot: int
    seed: int
    frontier: tuple | None
    frontier_stale: bool
    labels: dict


def _side(name: str, side: Side, files: dict[str, str]) -> list[str]:
    """The code that gives distribution ``name`` ("p1" or "p2")."""
    which = "A" if name == "p1" else "B"
    if side.kind == "population":
        return [f"{name} = datasets.proportions(datasets.age_histogram("
                f"{literal(side.source)}, WIDTH).to_numpy())  # {which}"]
    var = f"{'counts' if side.kind == 'counts' else 'ages'}_{which.lower()}"
    what = ("counts per bin" if side.kind == "counts" else "one value (age) per person")
    if side.values.size <= EMBED_LIMIT:
        lines = [f"# {which}: the uploaded file's column, {what}",
                 f"{var} = {array_literal(side.values)}"]
    else:
        file = f"{STEM}_{which.lower()}.csv"
        files[file] = "value\n" + "\n".join(repr(float(v)) for v in side.values) + "\n"
        lines = [f"# {which}: the uploaded file's column, {what}, saved beside this script",
                 f"{var} = pd.read_csv({literal(file)})"
                 "['value'].to_numpy()"]
    if side.kind == "counts":
        lines.append(f"{name} = datasets.proportions({var})")
    else:
        lines.append(f"{name} = datasets.proportions(datasets.bin_values({var}, width=WIDTH))"
                     "  # counts per age group")
    return lines


def _effect(effect: tuple) -> list[str]:
    if effect[0] == "shift":
        k = effect[1]
        towards = "the last bins (older)" if k > 0 else "the first bins (younger)"
        return [f"# B is A moved {abs(k)} bin{'s' if abs(k) > 1 else ''} towards {towards}; "
                "the mass that passes",
                "# the end stays in the end bin",
                f"SHIFT = {k}",
                "p2 = planner.shift_distribution(p1, SHIFT)"]
    _kind, d, direction = effect
    towards = "last" if direction > 0 else "first"
    return [f"# B is A's exponential tilt towards the {towards} bins at total-variation "
            "distance D",
            f"D, DIRECTION = {literal(d)}, {direction}",
            "p2 = planner.tilt_to_distance(p1, D, direction=DIRECTION)"]


def _data(v: View, files: dict[str, str], script: bool) -> str:
    uploaded = [s for s in (v.a, v.b) if s is not None and s.kind != "population"]
    lines = ["import dpviz"]
    if any(s.values.size > EMBED_LIMIT for s in uploaded):
        lines.append("import pandas as pd")
    lines += ["from dpcore import datasets, planner", ""]
    if v.width is not None:
        groups = "single years of age" if v.width == 1 else f"{v.width}-year age groups"
        lines += [f"WIDTH = {v.width}  # the bins: {groups}",
                  "labels = datasets.age_bin_labels(WIDTH)"]
    else:
        lines.append(f"labels = {literal(list(v.bin_labels))}  # the rows of the uploaded file")
    lines += _side("p1", v.a, files)
    lines += _side("p2", v.b, files) if v.b is not None else _effect(v.effect)
    lines += [f"name_a, name_b = {literal(v.names[0])}, {literal(v.names[1])}",
              "",
              "# ½ Σ|p1 − p2|: the share of people who would have to change bin to turn A "
              "into B",
              f"print({literal(v.labels['tv'] + ':')}, planner.total_variation(p1, p2))",
              f"print({literal(v.labels['bins'] + ':')}, len(p1))",
              "",
              "fig_distributions = dpviz.planner.planner_distributions_figure(",
              "    labels, p1, p2, name_a=name_a, name_b=name_b)",
              show("fig_distributions", f"{STEM}_distributions.html", script)]
    return "\n".join(lines)


def _settings(v: View) -> str:
    test = ("Algorithm 1 of Son, Park & Jung (2022)" if v.test == "bootstrap" else
            "this project's normal-score test")
    return "\n".join([
        f"TEST = {literal(v.test)}  # {test}",
        f"LEVEL = {literal(v.level)}  # the test's significance level",
        f"POWER = {literal(v.power)}  # the target power",
        f"EPS_A, EPS_B = {literal(v.alpha1)}, {literal(v.alpha2)}  # the privacy levels of the "
        "two releases (α in Son, Park & Jung 2022)",
        f"N = {literal(v.n)}  # people per group in your plan",
        f"REPS = {literal(v.reps)}  # replicates R: private histogram pairs per simulated setting",
        f"N_BOOT = {literal(v.n_boot)}  # bootstrap replicates B of the test",
        f"SEED = {literal(v.seed)}",
    ])


def _printed(label: str, value: str) -> str:
    return f"print({literal(label + ':')}, {value})"


def _data_search(v: View, script: bool, *, mine: bool) -> str:
    lab = v.labels
    lines = [
        *(["import json", ""] if mine else []),
        "data_plan = planner.required_sample_size(",
        "    p1, p2, EPS_A, EPS_B, power=POWER, level=LEVEL, test=TEST, reps=REPS,",
        "    n_boot=N_BOOT, rng=SEED)",
        _printed(_("Search"), "data_plan.status"),
        "found = data_plan.n is not None  # else no N searched is enough: its status says why",
        _printed(lab["n_needed"], "data_plan.n if found else data_plan.status"),
    ]
    if mine:
        lines += [
            "# (low, high): from the largest simulated N clearly below the target power to "
            "the",
            "# smallest clearly above it (JSON writes ∞ as Infinity)",
            _printed(lab["n_interval"], "json.dumps(data_plan.interval)"),
            _printed(lab["your_n"], "N"),
            "# Your N against the interval: reached, not_reached or undetermined",
            _printed(_("Verdict on your N"), "planner.plan_verdict(data_plan, N)"),
        ]
    lines += [
        "# The simulated points: rejections among the R pairs at each N searched",
        "for row in data_plan.points.itertuples():",
        f"    print({literal(lab['points_n'])}.format(x=row.n) + ':', row.rejections)",
        "",
        "estimate = data_plan.n if data_plan.status in ('found', 'stopped') else None",
        "fig_power_n = dpviz.planner.planner_power_figure(",
        "    data_plan.points, x='n', target=POWER, estimate=estimate,",
        "    interval=data_plan.interval if estimate is not None else None, level=LEVEL)",
        show("fig_power_n", f"{STEM}_power_against_n.html", script),
    ]
    return "\n".join(lines)


def _privacy_search(v: View, script: bool, *, mine: bool) -> str:
    lab = v.labels
    lines = [
        *(["import json", ""] if mine else []),
        "# ε_B/ε_A is kept as the search moves ε_A",
        "privacy_plan = planner.strongest_privacy(",
        "    p1, p2, N, power=POWER, level=LEVEL, test=TEST, alpha_ratio=EPS_B / EPS_A,",
        "    reps=REPS, n_boot=N_BOOT, rng=SEED)",
        _printed(_("Search"), "privacy_plan.status"),
        "found = privacy_plan.alpha is not None  # else no ε_A searched is enough: see status",
        _printed(lab["alpha_needed"], "privacy_plan.alpha if found else privacy_plan.status"),
    ]
    if mine:
        lines += [
            "# (low, high) around it, as for N (JSON writes ∞ as Infinity)",
            _printed(lab["alpha_interval"], "json.dumps(privacy_plan.interval)"),
            _printed(lab["your_alpha"], "EPS_A"),
            "# Your ε_A against the interval: reached, not_reached or undetermined",
            _printed(_("Verdict on your ε"), "planner.plan_verdict(privacy_plan, EPS_A)"),
        ]
    lines += [
        "# The simulated points: rejections among the R pairs at each ε_A searched",
        "for row in privacy_plan.points.itertuples():",
        f"    print({literal(lab['points_alpha'])}.format(x=row.alpha1) + ':', row.rejections)",
        "",
        "estimate = privacy_plan.alpha if privacy_plan.status in ('found', 'stopped') else None",
        "fig_power_eps = dpviz.planner.planner_power_figure(",
        "    privacy_plan.points, x='alpha1', target=POWER, estimate=estimate,",
        "    interval=privacy_plan.interval if estimate is not None else None, level=LEVEL)",
        show("fig_power_eps", f"{STEM}_power_against_eps.html", script),
    ]
    return "\n".join(lines)


def _frontier(v: View, script: bool) -> str:
    lab = v.labels
    if v.frontier[0] == "grid":
        _kind, low, high, points = v.frontier
        alphas = [f"LOW, HIGH, POINTS = {literal(low)}, {literal(high)}, {points}  "
                  "# the range of ε and its points",
                  "alphas = planner.alpha_grid(LOW, HIGH, POINTS)  # log-spaced, one "
                  "significant digit"]
    else:
        alphas = [f"alphas = {literal(list(v.frontier[1]))}  # the frontier's privacy levels"]
    invalid = literal(_("{test}: invalid, does not hold its level (type-I error above the "
                        "level)"))
    return "\n".join([
        "import pandas as pd",
        "",
        *alphas,
        "# At each ε_A: the N each test needs (TEST and the naive χ² test), and its type-I "
        "error",
        "# at that N (both histograms drawn from the pooled distribution: no difference)",
        "table = planner.frontier(",
        "    p1, p2, alphas, power=POWER, level=LEVEL, tests=(TEST, 'chisq'),",
        "    alpha_ratio=EPS_B / EPS_A, reps=REPS, n_boot=N_BOOT, rng=SEED)",
        "for row in table.itertuples():",
        "    where = dict(alpha=row.alpha1, test=row.test)",
        "    # The N needed (where the search found none, its status)",
        f"    print({literal(lab['frontier_n'])}.format(**where) + ':',",
        "          int(row.n) if pd.notna(row.n) else row.status)",
        "    if pd.notna(row.type1):",
        f"        print({literal(lab['frontier_type1'])}.format(**where) + ':', row.type1)",
        "    if not row.valid:  # its type-I error is clearly above the level",
        f"        print({invalid}.format(test=f'{{row.test}} (ε_A = {{row.alpha1:g}})'))",
        "",
        "fig_frontier = dpviz.planner.planner_frontier_figure(",
        "    table, current=(EPS_A, N), level=LEVEL, power=POWER)",
        show("fig_frontier", f"{STEM}_frontier.html", script),
    ])


# The searches' Markdown cells (translated where shown: _(_DATA_MD)).
_DATA_MD = N_("## How much data?\n\nThe smallest number of people per group N at which the test "
              "reaches the target power at ε_A, ε_B. Each setting searched is simulated as in "
              "Algorithm 2: R pairs of histograms are drawn, released with Laplace noise "
              "Lap(2/ε) and tested; the power is the share of rejections, with a 95% Wilson "
              "interval. The search brackets the target by factors of 10, then bisects on a log "
              "scale (power is assumed to grow with N).")
_PRIVACY_MD = N_("## How much privacy?\n\nThe smallest privacy level ε_A (the strongest privacy) "
                 "at which the test still reaches the target power with N people per group, "
                 "simulated and searched as for N (power is assumed to grow with ε).")
_FRONTIER_MD = N_("## Frontier\n\nThe N per group each test needs across privacy levels: the "
                  "test planned for and the naive χ² test, whose type-I error is checked at the "
                  "N it needs. On private histograms the naive test does not hold its level, so "
                  "its N cannot be planned on.")


def program(view: View, *, link: str, title: str) -> Program:
    """The view's program: the comparison, the plan's settings and the open tab's search."""
    files: dict[str, str] = {}
    cells = [
        Cell("markdown", _("## What the test must detect\n\nTwo distributions over the "
                           "same bins, A (p1) and B (p2); the test must tell them apart from "
                           "their private histograms.")),
        Cell("code", _data(view, files, False), script=_data(view, {}, True)),
        Cell("markdown", _("## Your plan\n\nThe test, its level, the target power, the "
                           "privacy levels, the people per group, and the accuracy of the "
                           "simulation.")),
        Cell("code", _settings(view)),
    ]
    if view.tab in ("data", "report"):
        cells += [Cell("markdown", _(_DATA_MD)),
                  Cell("code", _data_search(view, False, mine=view.tab == "data"),
                       script=_data_search(view, True, mine=view.tab == "data"))]
    if view.tab in ("privacy", "report"):
        cells += [Cell("markdown", _(_PRIVACY_MD)),
                  Cell("code", _privacy_search(view, False, mine=view.tab == "privacy"),
                       script=_privacy_search(view, True, mine=view.tab == "privacy"))]
    if view.frontier is not None and view.tab in ("frontier", "report"):
        cells += [Cell("markdown", _(_FRONTIER_MD)),
                  Cell("code", _frontier(view, False), script=_frontier(view, True))]
    elif view.tab == "frontier":
        why = (_("The page showed a frontier computed with other settings than these when "
                 "this code was made: the frontier is computed on its button, *Compute the "
                 "frontier*. Press it, then download the code again for the frontier's code.")
               if view.frontier_stale else
               _("The page had not computed the frontier at these settings when this code was "
                 "made: the frontier is computed on its button, *Compute the frontier*. Press "
                 "it, then download the code again for the frontier's code."))
        cells.append(Cell("markdown", f"{_(_FRONTIER_MD)}\n\n{why}"))
    return Program(title=title, link=link, stem=STEM, cells=tuple(cells), files=files)
