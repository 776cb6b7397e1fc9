"""The page "Test calibration" as code: the open tab's numbers and figure. The naive χ²
statistic under no difference, with and without DP (Figures 2–3 of Son, Park & Jung 2022);
a live simulation of rejection rates against N (Algorithm 2, Figures 9–12); or the shipped
results of the paper's grid or of the extended null grid, filtered as on the page.

The draws use the page's settings and seed, so the script's numbers are the page's; the
shipped results are read from dpcore's data, as the page reads them."""

from __future__ import annotations

from dataclasses import dataclass

from dpcode import Cell, Program, literal, show
from dpviz.text import N_, _

TABS = ("null", "live", "paper", "extended")
STEM = "test_calibration"
LIVE_COLUMNS = ("rate", "ci_low", "ci_high")  # the live table's columns printed per row


@dataclass(frozen=True)
class Null:
    """The null distributions' settings: shape p₀, bins M, people per histogram N, ε,
    replicates (pairs of histograms) and seed."""

    shape: str
    m: int
    n: int
    eps: float
    reps: int
    seed: int


@dataclass(frozen=True)
class Live:
    """The settings of the live run shown (not the form's, when they differ)."""

    pair: str
    m: int
    ns: tuple[int, ...]
    eps_a: float
    eps_b: float
    tests: tuple[str, ...]
    reps: int
    n_boot: int
    seed: int


@dataclass(frozen=True)
class Shipped:
    """A shipped results file (``which``: "paper" or "extended") and the page's filter, as
    (column, values kept) for each column it narrows: "pair", "m", "privacy" ((ε_A, ε_B)
    pairs), "test", "alpha1", "alpha2", "n" or "ratio" (N_B / N_A). A column whose every
    value in the file is kept is left out (the code does not filter it)."""

    which: str
    keep: tuple[tuple[str, tuple], ...] = ()


def _show(name: str, script: bool) -> str:
    return show("fig", f"{STEM}_{name}.html", script)


def _null(v: Null, labels: dict[str, str], script: bool) -> str:
    return "\n".join([
        "import numpy as np",
        "import dpviz",
        "from dpcore import datasets, simulation",
        "",
        f"SHAPE = {literal(v.shape)}  # the null proportions p₀ of both histograms",
        f"M = {v.m}  # bins",
        f"N = {v.n}  # people per histogram",
        f"EPS = {literal(v.eps)}  # privacy level of both releases (α in the paper)",
        f"REPS = {v.reps}  # pairs of histograms drawn",
        f"SEED = {v.seed}",
        "",
        "p0 = datasets.shape_probabilities(SHAPE, M)",
        "# REPS times: two histograms C of N counts from Multinomial(N, p0), released as",
        "# X = max(0, C + Lap(2/ε)) (eq. 2.4); the statistic T (eq. 2.3) on C and on X.",
        "ns = simulation.null_statistics(p0, N, EPS, reps=REPS, rng=SEED)",
        "critical = simulation.chi2_critical_value(ns.df)  # the χ²(M − 1) 5% critical value",
        "rejected = int(np.sum(ns.with_dp > critical))",
        f"print({literal(labels['df'] + ':')}, ns.df)",
        f"print({literal(labels['mean_without'] + ':')}, float(ns.without_dp.mean()))",
        f"print({literal(labels['mean_with'] + ':')}, float(ns.with_dp.mean()))",
        f"print({literal(labels['type1_without'] + ':')}, "
        "float(np.mean(ns.without_dp > critical)))",
        f"print({literal(labels['type1_with'] + ':')}, rejected / len(ns.with_dp))",
        "",
        "fig = dpviz.homogeneity.null_statistics_figure(ns.without_dp, ns.with_dp, ns.df, "
        "alpha=EPS)",
        _show("null", script),
    ])


def _live(v: Live, labels: dict[str, str], script: bool) -> str:
    return "\n".join([
        "import dpviz",
        "from dpcore import simulation, study",
        "",
        f"PAIR = {literal(v.pair)}  # populations A and B: 2020 age distributions",
        f"M = {v.m}  # bins: age groups",
        f"NS = {literal(list(v.ns))}  # people per histogram N, one point each",
        f"EPS_A, EPS_B = {literal(v.eps_a)}, {literal(v.eps_b)}  # privacy levels of A and B",
        f"TESTS = {literal(list(v.tests))}",
        f"REPS = {v.reps}  # replicates R per point",
        f"N_BOOT = {v.n_boot}  # bootstrap replicates B of each bootstrap test",
        f"SEED = {v.seed}",
        "",
        "p_a, p_b = study.cell_probabilities(PAIR, M)",
        "# At each N, REPS times: draw histograms A and B of N people, release them with",
        "# Laplace noise, test at the 5% level; the rate is the share rejected, with its 95%",
        "# Wilson interval (REJECTRATE, Algorithm 2).",
        "table = simulation.rejection_curve(p_a, p_b, NS, EPS_A, EPS_B, tests=TESTS, reps=REPS,",
        "                                   n_boot=N_BOOT, rng=SEED)",
        f"ROW = {literal(labels['row'])}",
        "for row in table.itertuples(index=False):",
        f"    for column in {literal(LIVE_COLUMNS)}:",
        "        label = ROW.format(column=column, n=row.n, test=row.test)",
        "        print(f'{label}:', float(getattr(row, column)))",
        "",
        "fig = dpviz.homogeneity.rejection_figure(table)",
        _show("rates", script),
    ])


_FILTER_NAMES = {"pair": "PAIRS", "m": "M", "privacy": "PRIVACY", "test": "TESTS",
                 "alpha1": "EPS_A", "alpha2": "EPS_B", "n": "N_A", "ratio": "RATIOS"}
_FILTER_NOTES = {"privacy": "  # (ε_A, ε_B)", "ratio": "  # N_B / N_A",
                 "n": "  # people in histogram A"}


def _condition(column: str) -> str:
    name = _FILTER_NAMES[column]
    if column == "privacy":
        return f"privacy.isin({name})"
    if column == "ratio":
        return f"(results['n2'] / results['n']).round(6).isin({name})"
    return f"results[{column!r}].isin({name})"


def _shipped(v: Shipped, labels: dict[str, str], script: bool) -> str:
    paper = v.which == "paper"
    by_privacy = any(column == "privacy" for column, _ in v.keep)
    lines = ["import dpviz", *(["import pandas as pd"] if by_privacy else [])]
    lines += [
        "from dpcore import study",
        "",
        "# One row per setting and test: its rate, 95% interval, R (reps) and B (n_boot).",
        f"results = study.{'load_results' if paper else 'load_extended'}()",
    ]
    if v.keep:
        lines.append("# The page's filters (a column whose every value is kept is not "
                     "filtered)")
        for column, values in v.keep:
            lines.append(f"{_FILTER_NAMES[column]} = {literal(list(values))}"
                         f"{_FILTER_NOTES.get(column, '')}")
        if by_privacy:
            lines.append("privacy = pd.Series(list(zip(results['alpha1'], results['alpha2'])), "
                         "index=results.index)")
        conditions = [_condition(column) for column, _ in v.keep]
        lines.append("chosen = results[" + "\n                 & ".join(conditions) + "]")
    else:
        lines.append("chosen = results  # the page's filters keep every row")
    keys = ("pair=row.pair, test=row.test, m=row.m,\n"
            "                       a1=row.alpha1, a2=row.alpha2, n=row.n" if paper else
            "test=row.test, m=row.m, a1=row.alpha1,\n"
            "                       a2=row.alpha2, n=row.n, n2=row.n2")
    lines += [
        "",
        f"ROW = {literal(labels['row'])}",
        "for row in chosen.itertuples(index=False):",
        f"    label = ROW.format(column='rate', {keys})",
        "    print(f'{label}:', float(row.rate))",
        "",
    ]
    if paper:
        lines.append("fig = dpviz.homogeneity.study_figure(chosen)")
    else:
        lines += ["# The dotted 5% level and the shaded band [2.5%, 7.5%] a calibrated test's",
                  "# type-I error should lie in: the function's defaults.",
                  "fig = dpviz.homogeneity.extended_null_figure(chosen)"]
    lines.append(_show(v.which, script))
    return "\n".join(lines)


# Each tab's introduction (translated where shown: _(_INTROS[tab])).
_INTROS = {
    "null": N_("Under 'no difference' the naive statistic T should follow the χ²(M − 1) "
               "density. Without privacy it does; with privacy the noise shifts it right and "
               "spreads it (Son, Park & Jung 2022, section 2.3, Figures 2–3). The naive "
               "type-I error is the share of T above the χ² 5% critical value."),
    "live": N_("The rejection rate at the 5% level against N, each point with its 95% Wilson "
               "interval (Son, Park & Jung 2022, section 4.2, Algorithm 2 and Figures 9–12; "
               "the parametric bootstrap test is their Algorithm 1). With no difference "
               "the rate is the type-I error; with a difference, the power."),
    "paper": N_("This project's run of the paper's grid (Son, Park & Jung 2022, section 4.2: "
                "Algorithm 2 at every setting), shipped with dpcore "
                "(`dpcore.study.PAPER_COMMAND` and `SCORE_COMMAND` regenerate it), "
                "filtered as on the page."),
    "extended": N_("The extended null grid beyond the paper (Korea vs Korea: every rate is a "
                   "type-I error), shipped with dpcore (`dpcore.study.EXTENDED_COMMAND` "
                   "regenerates it), filtered as on the page."),
}


def program(*, tab: str, settings, labels: dict[str, str], link: str, title: str) -> Program:
    """The view's program: the open ``tab`` (one of :data:`TABS`) with its ``settings``
    (:class:`Null`, :class:`Live` or :class:`Shipped`); ``labels``: the page's labels,
    "tab" (the tab's title), "df", "mean_without", "mean_with", "type1_without" and
    "type1_with" (the null tab's metrics) or "row" (the label template of a table's cell:
    ``{column} at …``, filled from the row)."""
    build = {"null": _null, "live": _live, "paper": _shipped, "extended": _shipped}[tab]
    cells = (Cell("markdown", f"## {labels['tab']}\n\n{_(_INTROS[tab])}"),
             Cell("code", build(settings, labels, False), script=build(settings, labels, True)))
    return Program(title=title, link=link, stem=STEM, cells=cells)
