"""The page "Random substitution" as code (Kang, Lee & Hong 2009): the records' true counts
X, the γ-diagonal matrix M of one substitution and the exact ε_l of the l-extended release,
then the open tab's numbers: one release and its two reconstructions, the accuracy over R
releases, the cost of re-draws, the privacy (and Theorem 3.1's breaches), or the bias.

Every random step uses the page's own stream of the seed ([seed, 0] a population's
records, [seed, 1] the one release, [seed, 2] the R releases of the tabs Accuracy, Cost and
Bias), so the script's draws are the page's."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dpcode import EMBED_LIMIT, Cell, Program, array_literal, literal, show
from dpviz.text import N_, _

TABS = ("release", "accuracy", "cost", "privacy", "bias")
KINDS = ("source", "unbiased")  # X̂*/l = M⁻¹Y*/l (Kang, Lee & Hong's) and A⁻¹Y* (unbiased)
STEM = "random_substitution"


@dataclass(frozen=True)
class Source:
    """The true counts: a shape (``kind`` "uniform" or "normal", ``k`` categories, ``n``
    records), a population (``kind`` its key: ``n`` records drawn into ``k`` age groups)
    or an upload (``kind`` "upload": its ``labels`` and ``counts``)."""

    kind: str
    k: int | None = None
    n: int | None = None
    labels: tuple[str, ...] | None = None
    counts: np.ndarray | None = None


@dataclass(frozen=True)
class View:
    """The settings the view's code needs (the page's Settings, without the interface).

    ``reps``: the R simulated (``reps_chosen``, the R chosen, when the page reduced it);
    ``l_chart``: the charts of error and cost show l = 1 … min(k − 1, l_chart) and the
    chosen l; ``breach``: (ρ₁, ρ₂) of the tab Privacy when they can be used, else None;
    ``labels``: the page's labels of the numbers it shows (name -> label), with
    ``breach_rows`` (the breach table's rows) and ``breach_columns`` (its columns of the
    largest posterior and of the verdict)."""

    source: Source
    gamma: float
    l: int
    reps: int
    reps_chosen: int
    seed: int
    tab: str
    l_chart: int
    breach: tuple[float, float] | None
    labels: dict = field(default_factory=dict)


def _print(label: str, value: str) -> str:
    """A line that prints ``label: value`` (the label as a string literal)."""
    return f"print({literal(label + ':')}, {value})"


def _data(v: View, files: dict[str, str]) -> str:
    src = v.source
    lines = ["import numpy as np", "from dpcore import datasets, substitution", "",
             f"SEED = {literal(v.seed)}  # every random step uses its own stream [SEED, i]"]
    if src.kind == "upload":
        if src.counts.size <= EMBED_LIMIT:
            lines.append(f"counts = {array_literal(src.counts)}  # X, from the uploaded file")
        else:
            files[f"{STEM}_counts.csv"] = "count\n" + "\n".join(
                str(int(c)) for c in src.counts) + "\n"
            lines += ["import pandas as pd", "",
                      f"counts = pd.read_csv({literal(f'{STEM}_counts.csv')})['count']"
                      ".to_numpy()  # X, the uploaded counts, saved beside this script"]
        lines.append(f"labels = {literal(list(src.labels))}")
    elif src.kind in ("uniform", "normal"):
        lines += [f"K, N_RECORDS = {src.k}, {src.n}  # categories k and records N "
                  "(Kang, Lee & Hong write N and n)",
                  "# Fixed counts, spread as evenly as whole numbers allow (the source's "
                  "theorems hold X fixed)",
                  f"counts = datasets.shape_counts({literal(src.kind)}, K, N_RECORDS)",
                  "labels = [str(j) for j in range(1, K + 1)]"]
    else:
        lines += [f"K, N_RECORDS = {src.k}, {src.n}  # age groups k and records N",
                  f"groups = datasets.age_groups({literal(src.kind)}, K)  "
                  "# the 2020 population's ages in k groups",
                  "labels = list(groups.index)",
                  "probs = datasets.proportions(groups.to_numpy())",
                  "counts = datasets.draw_histogram(probs, N_RECORDS, rng=[SEED, 0])"
                  ".astype(np.int64)"]
    return "\n".join(lines)


def _summary(v: View) -> str:
    lab = v.labels
    return "\n".join([
        f"GAMMA = {literal(v.gamma)}  # amplification γ",
        f"L = {v.l}  # values per record l (l = 1: Algorithm 1)",
        "k = len(counts)",
        "N = int(counts.sum())",
        "M = substitution.gamma_diagonal_matrix(k, GAMMA)  # M = xG, x = 1/(γ + k − 1)",
        "keep, other = float(M[0, 0]), float(M[1, 0])  # γx on the diagonal, x elsewhere",
        "eps_l = substitution.extended_epsilon(k, GAMMA, L)  # exact, of the released set",
        _print(lab["k"], "k"),
        _print(lab["n"], "N"),
        _print(lab["keep"], "keep"),
        _print(lab["other"], "other"),
        _print(lab["eps_l"], "eps_l"),
    ])


def _errors(v: View) -> list[str]:
    """The R releases of the tabs Accuracy, Cost and Bias, as the page runs them."""
    reduced = ([f"# R = {v.reps_chosen} was chosen; the page reduces it to keep its R·k²·(l + 1) "
                "random draws", "# within its time budget."] if v.reps < v.reps_chosen else [])
    return [*reduced, f"REPS = {v.reps}  # releases R",
            "# R releases of Algorithm 2 (stream [SEED, 2]) and both reconstructions of each:",
            "# simulated and exact errors, the bias and the mean draws, one row per estimator.",
            "errors = substitution.error_table(counts, GAMMA, [L], reps=REPS, rng=[SEED, 2])"
            ".set_index('estimator')"]


def _release(v: View, script: bool) -> str:
    lab = v.labels
    released = "Y (released)" if v.l == 1 else "Y* (released)"
    return "\n".join([
        "import math", "", "import pandas as pd", "import dpviz", "",
        "release = substitution.extended_random_substitution(counts, GAMMA, L, rng=[SEED, 1])",
        "Y = release.counts  # how many records released each value (sums to N·l)",
        "estimates = {",
        "    'source': substitution.reconstruct(Y, GAMMA, l=L),  # X̂*/l = M⁻¹Y*/l",
        "    'unbiased': substitution.reconstruct_unbiased(Y, GAMMA, L),  # A⁻¹Y*",
        "}",
        "",
        "",
        "def relative_error(estimate):",
        "    \"\"\"‖X̂ − X‖/‖X‖: the error vector's length over the true counts'.\"\"\"",
        "    return math.sqrt(np.sum((estimate - counts) ** 2)) / float(np.linalg.norm(counts))",
        "",
        "",
        *(_print(lab[f"release_{kind}"], f"relative_error(estimates[{kind!r}])")
          for kind in KINDS),
        _print(lab["draws_used"], "int(release.draws)"),
        _print(lab["nl"], "N * L"),
        "",
        "table = pd.DataFrame({'category': labels, 'X (true)': counts, "
        f"{released!r}: Y,",
        "                      'X̂*/l (source)': estimates['source'],",
        "                      'A⁻¹Y* (unbiased)': estimates['unbiased']})",
        "print(table.to_string(index=False))",
        "",
        "fig = dpviz.substitution.substitution_counts_figure(",
        "    labels, counts, Y, estimates['source'], estimates['unbiased'], l=L)",
        show("fig", f"{STEM}_counts.html", script),
    ])


def _l_values() -> str:
    return "l_values = range(1, max(min(k - 1, L_CHART), L) + 1)  # the l of the chart"


def _accuracy(v: View, script: bool) -> str:
    lab = v.labels
    lines = ["import pandas as pd", "import dpviz", "", *_errors(v)]
    for kind in KINDS:
        lines += [_print(lab[f"simulated_{kind}"], f"float(errors.loc[{kind!r}, 'actual'])"),
                  _print(lab[f"simulated_se_{kind}"],
                         f"float(errors.loc[{kind!r}, 'actual_se'])")]
    lines.append(_print(lab["bound"], "float(errors['bound'].iloc[0])"))
    lines += [_print(lab[f"exact_{kind}"], f"float(errors.loc[{kind!r}, 'exact'])")
              for kind in KINDS]
    lines += [
        "",
        f"L_CHART = {v.l_chart}",
        _l_values(),
        "curves = pd.DataFrame([",
        "    {'l': j,  # Theorem 4.1's bound / √l, and the exact errors of both",
        "     'bound': substitution.standard_error_bound(k, N, GAMMA, j),",
        "     'source': substitution.expected_standard_error(counts, GAMMA, j),",
        "     'unbiased': substitution.expected_standard_error(counts, GAMMA, j, "
        "estimator='unbiased')}",
        "    for j in l_values])",
        "above = curves[(curves['source'] > curves['bound']) | (curves['unbiased'] > "
        "curves['bound'])]",
        "if len(above):  # Theorem 5.2's 1/√l assumes independent draws; Algorithm 2 re-draws",
        "    " + _print(lab["above"], "int(above['l'].min())"),
        "",
        "fig = dpviz.substitution.substitution_error_figure(curves, current_l=L, "
        "points=errors.reset_index())",
        show("fig", f"{STEM}_error.html", script),
    ]
    return "\n".join(lines)


def _cost(v: View, script: bool) -> str:
    lab = v.labels
    return "\n".join([
        "import pandas as pd", "import dpviz", "",
        "release = substitution.extended_random_substitution(counts, GAMMA, L, rng=[SEED, 1])",
        *_errors(v),
        "expected = substitution.expected_draws(N, k, GAMMA, L)  # exactly",
        "collision = substitution.collision_probability(k, GAMMA, L)  # Theorem 5.1",
        _print(lab["draws_release"], "int(release.draws)"),
        _print(lab["mean_draws"], "float(errors['draws'].iloc[0])"),
        _print(lab["expected_draws"], "expected"),
        _print(lab["nl"], "N * L"),
        _print(lab["draws_ratio"], "expected / (N * L)"),
        _print(lab["collision"], "collision"),
        "",
        f"L_CHART = {v.l_chart}",
        _l_values(),
        "cost = pd.DataFrame([",
        "    {'l': j, 'draws_ratio': substitution.expected_draws(N, k, GAMMA, j) / (N * j),",
        "     'collision': substitution.collision_probability(k, GAMMA, j)}",
        "    for j in l_values])",
        "fig = dpviz.substitution.substitution_cost_figure(cost, current_l=L)",
        show("fig", f"{STEM}_cost.html", script),
    ])


def _privacy(v: View, script: bool) -> str:
    lab = v.labels
    return "\n".join([
        "import math", "", "import pandas as pd", "import dpviz", "",
        "log_gamma = math.log(GAMMA)  # ε of one substitution",
        "eps_bound = L * math.log(GAMMA)  # Kang, Lee & Hong's bound γ^l (Section 5.1)",
        "eps_ordered = substitution.extended_epsilon(k, GAMMA, L, ordered=True)",
        "condition = substitution.condition_number(k, GAMMA)  # 1 + k/(γ − 1): inverting M",
        _print(lab["gamma"], "GAMMA"),
        _print(lab["log_gamma"], "log_gamma"),
        _print(lab["condition"], "condition"),
        _print(lab["eps_bound"], "eps_bound"),
        _print(lab["eps_exact"], "eps_l"),
        _print(lab["eps_ordered"], "eps_ordered"),
        "",
        "table = pd.DataFrame([",
        "    {'l': j, 'bound': j * log_gamma,",
        "     'ordered': substitution.extended_epsilon(k, GAMMA, j, ordered=True),",
        "     'exact': substitution.extended_epsilon(k, GAMMA, j)}",
        "    for j in range(1, k)])",
        "fig = dpviz.substitution.substitution_epsilon_figure(table, current_l=L, "
        "log_gamma=log_gamma)",
        show("fig", f"{STEM}_epsilon.html", script),
    ])


def _breach(v: View) -> str:
    lab = v.labels
    rho1, rho2 = v.breach
    rows = "\n".join(f"    {literal(name)}: {eps}," for name, eps in
                     zip(lab["breach_rows"], ("log_gamma", "eps_l", "eps_bound")))
    posterior = lab["breach_columns"][0]  # as the page's labels name it
    # The verdict's column and words as the page's table shows them
    verdict = _("no {rho1}→{rho2} breach", rho1=f"{rho1:g}", rho2=f"{rho2:g}")
    yes, no = literal(_("yes")), literal(_("no"))
    return "\n".join([
        f"RHO1, RHO2 = {literal(rho1)}, {literal(rho2)}  # the prior ρ₁ and the posterior ρ₂",
        "threshold = substitution.breach_gamma(RHO1, RHO2)  # ρ₂(1 − ρ₁)/(ρ₁(1 − ρ₂))",
        _print(lab["threshold"], "threshold"),
        "",
        "",
        "def amplification(eps):",
        "    \"\"\"e^ε, ∞ beyond the largest float.\"\"\"",
        "    return math.exp(eps) if eps < 709 else math.inf",
        "",
        "",
        "releases = {  # the rows of the page's table: each release's ε",
        rows,
        "}",
        f"COLUMNS = {literal((posterior, verdict))}",
        "for name, eps in releases.items():",
        "    posterior = substitution.posterior_bound(RHO1, amplification(eps))",
        "    print(f'{name}: {COLUMNS[0]}:', posterior)",
        f"    print(f'{{name}}: {{COLUMNS[1]}}:', {yes} if eps < math.log(threshold) else {no})",
    ])


def _bias(v: View, script: bool) -> str:
    lab = v.labels
    lines = ["import dpviz", "", *_errors(v)]
    lines += [_print(lab[f"bias_{kind}"], f"float(errors.loc[{kind!r}, 'bias'])")
              for kind in KINDS]
    lines += [_print(lab[f"bias_exact_{kind}"], f"float(errors.loc[{kind!r}, 'exact'])")
              for kind in KINDS]
    lines += [
        "# π: the probability that a record's own value is in its set of l values",
        _print(lab["pi"], "substitution.inclusion_probability(k, GAMMA, L)"),
        _print(lab["l_gamma_x"], "L * substitution.inclusion_probability(k, GAMMA, 1)"),
        "",
        "# The same R releases as error_table's (the same stream), for the chart's markers",
        "releases = substitution.extended_random_substitution(counts, GAMMA, L, size=REPS, "
        "rng=[SEED, 2])",
        "estimates = {'source': substitution.reconstruct(releases.counts, GAMMA, l=L),",
        "             'unbiased': substitution.reconstruct_unbiased(releases.counts, GAMMA, L)}",
        "bias = substitution.reconstruction_bias(counts, GAMMA, L)  # E[X̂*/l] − X, exactly",
        "fig = dpviz.substitution.substitution_bias_figure(labels, counts, bias, estimates)",
        show("fig", f"{STEM}_bias.html", script),
    ]
    return "\n".join(lines)


# Each tab's code and its introduction (translated where shown: _(text)).
_TABS = {
    "release": (_release, N_("One release of Algorithm 2 (Algorithm 1 at l = 1): each record "
                             "is substituted l times, a value already drawn is drawn again, and "
                             "Y* counts the released values. The server knows M and inverts it: "
                             "X̂ = M⁻¹Y (Theorem 3.2), Kang, Lee & Hong's X̂*/l = M⁻¹Y*/l, and "
                             "the unbiased A⁻¹Y*, where E[Y*] = AX (A = M at l = 1).")),
    "accuracy": (_accuracy, N_("The relative standard error σ_X̂/‖X‖, simulated over R releases "
                               "and computed exactly, against Theorem 4.1's bound divided by √l "
                               "(Theorem 5.2).")),
    "cost": (_cost, N_("Algorithm 2 draws until a record has l distinct values: the extra draws "
                       "are its cost. Theorem 5.1: how often l independent draws would repeat a "
                       "value.")),
    "privacy": (_privacy, N_("One substitution is γ-amplifying: ε = ln γ. The l-extended release "
                             "(a set of l distinct values) is exactly ε_l-LDP, below Kang, Lee & "
                             "Hong's bound l × ln γ.")),
    "bias": (_bias, N_("With re-randomisation E[Y*] = AX with A = aI + bJ, not l·MX: "
                       "Kang, Lee & Hong's X̂*/l is biased unless the data are uniform; A⁻¹Y* is "
                       "unbiased.")),
}


def program(view: View, *, link: str, title: str) -> Program:
    """The view's program: the true counts, M and ε_l, and the open tab (``view.tab``, one
    of :data:`TABS`) with its numbers and figure."""
    files: dict[str, str] = {}
    cells = [
        Cell("markdown", _("## The true counts X\n\nN records, each with one of k values; "
                           "X counts the records per value.")),
        Cell("code", _data(view, files)),
        Cell("markdown", _("## One substitution: the γ-diagonal matrix M\n\nA record keeps "
                           "its value with probability γx and moves to each other value with "
                           "probability x = 1/(γ + k − 1). With l values per record, the "
                           "released set is exactly ε_l-locally differentially private.")),
        Cell("code", _summary(view)),
    ]
    if view.tab in _TABS:
        build, text = _TABS[view.tab]
        cells += [Cell("markdown", f"## {view.labels['tab']}\n\n{_(text)}"),
                  Cell("code", build(view, False), script=build(view, True))]
        if view.tab == "privacy" and view.breach is not None:
            cells += [Cell("markdown", _("## Privacy breaches (Theorem 3.1)\n\nA "
                                         "γ-amplifying release allows no ρ₁→ρ₂ breach when γ "
                                         "is below ρ₂(1 − ρ₁)/(ρ₁(1 − ρ₂)); a prior ρ₁ "
                                         "becomes a posterior of at most "
                                         "γρ₁/(γρ₁ + 1 − ρ₁).")),
                      Cell("code", _breach(view))]
    return Program(title=title, link=link, stem=STEM, cells=tuple(cells), files=files)
