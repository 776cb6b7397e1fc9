"""The page "Compare two private histograms" as code: release (or take) histograms A and B,
run the naive χ² test, Algorithm 1 of Son, Park & Jung (2022) and the normal-score test,
print the page's numbers and draw its three charts."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpcode import EMBED_LIMIT, Cell, Program, array_literal, literal, show
from dpviz.text import _

LEVEL = 0.05


@dataclass(frozen=True)
class Side:
    """One histogram as the page has it: its name, and either the ``dpcore`` expression that
    gives its values (a built-in source) or the values themselves (from an upload), which
    are ``fixed`` counts or proportions to draw N people from."""

    name: str
    values: np.ndarray
    fixed: bool
    expression: str | None = None  # e.g. datasets.shape_probabilities('uniform', 20)
    column: str | None = None  # the uploaded file's column it came from


def _side_code(label: str, side: Side, files: dict[str, str], stem: str) -> str:
    var = f"hist_{label.lower()}"
    what = "counts" if side.fixed else "proportions"
    if side.expression is not None:
        return f"# Histogram {label}: {what}\n{var} = {side.expression}\nname_{label.lower()} = " \
               f"{literal(side.name)}"
    lines = [f"# Histogram {label}: {what} from the uploaded file's column "
             f"(its name is name_{label.lower()} below), binned as the page did"]
    if side.values.size <= EMBED_LIMIT:
        lines.append(f"{var} = {array_literal(side.values)}")
    else:
        file = f"{stem}_{label.lower()}.csv"
        files[file] = "value\n" + "\n".join(repr(float(v)) for v in side.values) + "\n"
        lines.append(f"{var} = pd.read_csv({literal(file)})['value'].to_numpy()  "
                     "# saved beside this script")
    lines.append(f"name_{label.lower()} = {literal(side.name)}")
    return "\n".join(lines)


def program(*, a: Side, b: Side, labels: list[str], private: bool, n_a: int | None,
            n_b: int | None, alpha_a: float, alpha_b: float, n_boot: int, seed: int,
            null_test: str, zoom: bool, link: str, title: str,
            size_check: tuple[int, int] | None = None) -> Program:
    """The view's program. ``private``: both histograms are uploaded private counts (tested as
    they are); else A and B are drawn with ``n_a``/``n_b`` people (None: used as counts).
    ``size_check``: (R, B) of the size check the page ran at this setting; the program runs
    it too."""
    stem = "compare_histograms"
    files: dict[str, str] = {}
    uses_pandas = any(s.expression is None and s.values.size > EMBED_LIMIT for s in (a, b))
    imports = ("import pandas as pd\n\n" if uses_pandas else "") + \
        "from dpcore import datasets, homogeneity"
    cells = [
        Cell("markdown", _("## The data\n\nHistograms A and B over common bins.")),
        Cell("code", "\n\n".join([imports, _side_code("A", a, files, stem),
                                  _side_code("B", b, files, stem),
                                  f"bin_labels = {literal(list(labels))}"])),
    ]
    settings = (f"EPS_A, EPS_B = {literal(alpha_a)}, {literal(alpha_b)}  "
                "# privacy levels (α in Son, Park & Jung 2022)\n"
                f"N_BOOT = {literal(n_boot)}  # bootstrap replicates B\n"
                f"SEED = {literal(seed)}")
    if private:
        run = ("# Both histograms are already private: test them as they are.\n"
               "result = homogeneity.release_and_test(hist_a, hist_b, EPS_A, EPS_B, "
               "n_boot=N_BOOT, private=True, rng=SEED)")
    else:
        run = (f"N_A, N_B = {literal(n_a)}, {literal(n_b)}  # people drawn (None: the counts "
               "are used as they are)\n"
               "# Draw the true histograms C (when N is given), release them with Laplace "
               "noise\n# X = max(0, C + Lap(2/ε)) (eq. 2.4) and run the three tests.\n"
               "result = homogeneity.sample_and_test(\n"
               "    hist_a, hist_b, N_A, N_B, EPS_A, EPS_B, n_boot=N_BOOT, rng=SEED)")
    cells += [
        Cell("markdown", _("## Release and test\n\nThe naive χ² test (eq. 2.3), the "
                           "parametric bootstrap test (Algorithm 1) and the normal-score test "
                           "(this project). Bootstrap p-values are (1 + #{T_b ≥ T}) / (B + 1), "
                           "never 0.")),
        Cell("code", settings + "\n" + run),
        Cell("markdown", _("## The numbers the page shows")),
        Cell("code", "\n".join([
            _printed(_("Naive χ² test p-value"), "result.naive.pvalue"),
            "if result.bootstrap is not None:",
            "    " + _printed(_("Parametric bootstrap p-value"), "result.bootstrap.pvalue"),
            "else:",
            "    " + _printed(_("Algorithm 1 cannot be run"), "result.bootstrap_error"),
            _printed(_("Normal-score test p-value"), "result.normal_score.pvalue"),
            _printed(_("Calibrated normal-score test p-value"), "result.calibrated.pvalue"),
            _printed(_("Estimated N̂ ({side})", side="A"), "result.estimate.n1_hat"),
            _printed(_("Estimated N̂ ({side})", side="B"), "result.estimate.n2_hat"),
            _printed(_("χ² statistic T"), "result.naive.statistic"),
            _printed(_("Degrees of freedom"), "result.naive.df"),
        ])),
        *(_size_check_cells(*size_check) if size_check else ()),
        Cell("markdown", _("## The charts")),
        Cell("code", _figures(null_test, zoom), script=_figures(null_test, zoom, script=True)),
    ]
    return Program(title=title, link=link, stem=stem, cells=tuple(cells), files=files)


def _size_check_cells(reps: int, n_boot: int) -> tuple[Cell, ...]:
    """The size check the page ran: both verdict tests under the null fitted to the data."""
    return (
        Cell("markdown", _("## The size check at this setting\n\nBoth histograms drawn "
                           "from the fitted null (the calibrated test's p̂₀ and N̂, the same "
                           "ε), released and tested {reps:,} times: how often Algorithm 1 and "
                           "the calibrated test reject when nothing differs.",
                           reps=reps)),
        Cell("code", "\n".join([
            "from dpcore import simulation",
            "",
            "est = result.calibrated.estimate",
            "check = simulation.size_check(",
            "    est.p0_hat, max(1, est.n1_hat), max(1, est.n2_hat), EPS_A, EPS_B,",
            f"    reps={literal(reps)}, n_boot={literal(n_boot)}, rng=SEED)",
            "print(check[['test', 'rate', 'ci_low', 'ci_high', 'reps', 'n_boot']])",
        ])),
    )


def _printed(label: str, value: str) -> str:
    """A line that prints ``label: value`` (the label, as the page shows it, a string literal;
    ``value`` the code of the value)."""
    return f"print({literal(label + ':')}, {value})"


def _figures(null_test: str, zoom: bool, *, script: bool = False) -> str:
    boot = f"result.{null_test}"
    reference = "naive test's reference" if null_test == "bootstrap" else \
        "large-sample reference"

    def shown(name: str, indent: str = "") -> str:
        return show(f"fig_{name}", f"compare_{name}.html", script, indent)

    parts = [
        "import dpviz",
        "",
        "fig_hist = dpviz.homogeneity.histograms_figure(",
        "    bin_labels, result.private1, result.private2,",
        "    original_a=result.original1, original_b=result.original2,",
        "    name_a='A: ' + name_a, name_b='B: ' + name_b)",
        shown("hist"),
        "",
        f"null = {boot}",
        "if null is not None:",
        "    fig_null = dpviz.homogeneity.null_distribution_figure(",
        f"        null.null_distribution, null.statistic, null.critical_value({LEVEL}),",
        f"        df=result.naive.df, level={LEVEL}, reference={literal(reference)})",
        shown("null", "    "),
        "",
        "fig_debias = dpviz.homogeneity.debias_figure(",
        "    EPS_A, EPS_B, result.private1, result.private2,",
        "    result.estimate.c1_tilde, result.estimate.c2_tilde, name_a='A', name_b='B',",
        f"    zoom={literal(zoom)})",
        shown("debias"),
    ]
    return "\n".join(parts)
