"""The page "Randomized response (local DP)" as code: the users' true answers, k-ary
randomized response (Kairouz, Bonawitz & Ramage 2016) at ε, and the open tab's numbers:
one user at a time, the aggregate and its estimators, the error against ε, the guarantee.

Every random step uses the page's own stream of the seed ([seed, 0] the users drawn,
[seed, 1] the reports, [seed, 2] the error study, [seed, 3, flips] the demo's coins,
[seed, 4] the demo's users), so the script's draws are the page's."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpcode import EMBED_LIMIT, Cell, Program, array_literal, literal, show
from dpviz.text import _

TABS = ("user", "aggregate", "error", "guarantee")


@dataclass(frozen=True)
class Source:
    """The true answers: a built-in source (``kind`` "survey", "abc" or a population, with
    its own settings and ``n`` users drawn), or an upload (``kind`` "upload": its
    ``labels``, ``counts`` and the demo's users ``first``, as category indices: a file's
    first users, or users the page drew from its counts; ``file_kind``: how the page read
    the file, "categories" (one answer per user) or "counts" (counts per category))."""

    kind: str
    n: int | None = None
    yes: int | None = None
    shares: tuple[int, ...] | None = None
    k: int | None = None
    labels: tuple[str, ...] | None = None
    counts: np.ndarray | None = None
    first: np.ndarray | None = None
    file_kind: str | None = None


def _data(src: Source, seed: int, demo_users: int, files: dict[str, str]) -> str:
    lines = ["from dpcore import datasets, ldp", ""]
    if src.kind == "upload":
        counted = src.file_kind != "counts"
        read = ("the uploaded answers, one per user, counted per category" if counted
                else "counts per category, as read from the uploaded file")
        if src.counts.size <= EMBED_LIMIT:
            lines.append(f"counts = {array_literal(src.counts)}  # {read}")
        else:
            files["randomized_response_counts.csv"] = "count\n" + "\n".join(
                repr(float(v)) for v in src.counts) + "\n"
            lines += ["import pandas as pd", "",
                      "counts = pd.read_csv('randomized_response_counts.csv')['count']"
                      f".to_numpy()  # {read}, saved beside this script"]
        lines.append(f"labels = {literal(list(src.labels))}")
        if counted:
            lines.append(f"demo = {array_literal(src.first[:demo_users])}  "
                         "# the file's first users, as the page has them (category indices)")
        else:  # a file of counts has no users in order: the page draws the demo's
            lines.append(f"demo = np.random.default_rng([{seed}, 4]).choice(len(counts), "
                         f"size={demo_users}, p=datasets.proportions(counts))  "
                         "# users drawn from the counts, as the page draws them")
        return "\n".join(lines)
    if src.kind == "survey":
        lines += ["labels = ['yes', 'no']",
                  f"probs = datasets.proportions([{src.yes}, {100 - src.yes}])"
                  f"  # {src.yes}% true 'yes'"]
    elif src.kind == "abc":
        lines += ["labels = ['A', 'B', 'C']",
                  f"probs = datasets.proportions({literal(list(src.shares))})"]
    else:
        lines += [f"groups = datasets.age_groups({literal(src.kind)}, {src.k})  "
                  "# the 2020 population in k age groups",
                  "labels = list(groups.index)",
                  "probs = datasets.proportions(groups.to_numpy())"]
    lines += [f"N_USERS = {literal(src.n)}",
              f"counts = datasets.draw_histogram(probs, N_USERS, rng=[{seed}, 0]).astype(float)",
              f"demo = np.random.default_rng([{seed}, 4]).choice(len(probs), "
              f"size={demo_users}, p=probs)"]
    return "\n".join(lines)


def program(*, source: Source, eps: float, seed: int, tab: str, flips: int, method: str | None,
            reps: int | None, eps_grid, labels: dict[str, str], demo_users: int, link: str,
            title: str) -> Program:
    """The view's program: the data ``source``, ε, the seed and the open ``tab`` (one of
    :data:`TABS`) with its setting (``flips`` of the demo's coins, the estimator ``method``,
    ``reps`` per ε over ``eps_grid``); ``labels``: the page's labels of the estimators'
    MSE metrics (estimator -> label) and of the theory ("theory")."""
    files: dict[str, str] = {}
    cells = [
        Cell("markdown", _("## The true answers\n\nOne answer per user among k categories.")),
        Cell("code", "import numpy as np\n\n" + _data(source, seed, demo_users, files)),
        Cell("markdown", _("## k-RR at ε\n\nEach user reports the true answer with probability "
                           "p = e^ε/(e^ε + k − 1), and each other answer with "
                           "q = 1/(e^ε + k − 1).")),
        Cell("code", "\n".join([
            f"EPS = {literal(eps)}",
            "k = len(labels)",
            "p, q = ldp.krr_probabilities(EPS, k)",
            _printed(_("Categories k"), "k"),
            _printed(_("Users N"), "counts.sum()"),
            _printed(_("p: tell the truth"), "p"),
            _printed(_("q: tell a given lie"), "q"),
            _printed(_("p/q = e^ε"), "p / q"),
        ])),
    ]
    if tab == "user":
        cells += [Cell("markdown", _("## One user at a time")), Cell("code", "\n".join([
            f"FLIPS = {flips}  # presses of 'Flip again': each gives new coins",
            f"table = ldp.krr_demo_table(demo, EPS, k, labels=labels, rng=[{seed}, 3, FLIPS])",
            "print(table.to_string(index=False))",
            _printed(_("Users who told the truth"), "int(table['told_truth'].sum())"),
        ]))]
    elif tab == "aggregate":
        cells += [Cell("markdown", _("## The aggregate\n\nThe reported counts of all users, "
                                     "and the estimate of the true counts from them.")),
                  Cell("code", "\n".join([
                      f"METHOD = {literal(method)}  # the estimator",
                      f"reported = ldp.krr_perturb_counts(counts, EPS, rng=[{seed}, 1])",
                      "estimate = ldp.krr_estimate(reported, EPS, method=METHOD)",
                      "lower, upper = ldp.krr_interval(estimate, counts, EPS)  # ± 2 SE",
                      "if METHOD != 'unbiased':  # never below 0: neither are its whiskers",
                      "    lower = np.maximum(lower, 0.0)",
                      _printed(_("Total absolute error of the estimate"),
                               "float(np.abs(estimate - counts).sum())"),
                      _printed(_("… of the reported counts as they are"),
                               "float(np.abs(reported - counts).sum())"),
                      _printed(_("Negative estimates"), "int(np.sum(estimate < 0))"),
                  ])),
                  Cell("code", _aggregate_figure(False), script=_aggregate_figure(True))]
    elif tab == "error":
        cells += [Cell("markdown", _("## Error against privacy\n\nR reported histograms at "
                                     "every ε of the grid, every estimator applied.")),
                  Cell("code", "\n".join([
                      f"EPS_GRID = {literal(list(eps_grid))}",
                      f"REPS = {literal(reps)}  # replicates R per ε",
                      f"table = ldp.krr_mse(counts, EPS_GRID, reps=REPS, rng=[{seed}, 2])",
                      "here = table[table['eps'] == EPS].set_index('method')",
                      f"LABELS = {literal(dict_items(labels))}",
                      "for method, row in here.iterrows():",
                      "    print(f'{dict(LABELS)[method]}:', row['mse'])",
                      f"print({literal(labels['theory'] + ':')}, here.loc['unbiased', 'theory'])",
                  ])),
                  Cell("code", _mse_figure(False), script=_mse_figure(True))]
    return Program(title=title, link=link, stem="randomized_response", cells=tuple(cells),
                   files=files)


def _printed(label: str, value: str) -> str:
    """A line that prints ``label: value`` (the label, as the page shows it, a string literal;
    ``value`` the code of the value)."""
    return f"print({literal(label + ':')}, {value})"


def dict_items(labels: dict[str, str]) -> list[tuple[str, str]]:
    return [(k, v) for k, v in labels.items() if k != "theory"]


def _aggregate_figure(script: bool) -> str:
    return ("import dpviz\n\nfig = dpviz.ldp.krr_counts_figure(\n"
            "    labels, counts, reported, estimate, lower, upper, estimator_name=METHOD)\n"
            + show("fig", "randomized_response_counts.html", script))


def _mse_figure(script: bool) -> str:
    return ("import dpviz\n\nfig = dpviz.ldp.krr_mse_figure(table, current_eps=EPS, "
            "names=dict(LABELS))\n" + show("fig", "randomized_response_mse.html", script))
