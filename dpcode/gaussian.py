"""The page "Gaussian mechanism" as code: complete (ε, δ, σ, Δ) from three of them, then the
open tab's numbers: the three calibrations, the privacy-loss distribution, the mechanism as
μ-GDP, a release of real data, or the σ tables."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpcode import EMBED_LIMIT, Cell, Program, array_literal, literal, show
from dpviz.text import _

SYMBOLS = {"eps": "ε", "delta": "δ", "sigma": "σ", "sensitivity": "Δ"}
TABS = ("calibrations", "loss", "gdp", "release", "tables")
N_RELEASES = 10_000  # the releases the page simulates of a count or a sum


@dataclass(frozen=True)
class ReleaseCode:
    """The release tab's settings. ``data``: None for a built-in population (``source``,
    ``n`` people drawn), else the upload: ("counts", counts, labels) or ("values",
    values)."""

    source: str
    n: int | None
    seed: int
    kind: str  # count, sum, histogram or histogram_replace
    ages: tuple[int, int] | None
    upper: float | None
    width: int | None
    data: tuple | None = None


def _solve(given: dict, solve: str, method: str) -> str:
    args = ", ".join(f"{name}={literal(given[name]) if name != solve else None}"
                     for name in SYMBOLS)
    lines = ["from dpcore import gaussian", "",
             f"# Three of ε, δ, σ, Δ are given; {SYMBOLS[solve]} is solved with the "
             f"{method!r} calibration.",
             f"METHOD = {literal(method)}",
             f"setting = gaussian.solve_gaussian({args}, method=METHOD)", ""]
    for name, symbol in SYMBOLS.items():
        label = _("{symbol} (solved)", symbol=symbol) if name == solve else symbol
        lines.append(_printed(label, f"setting.{name}"))
    lines.append(_printed(_("μ = Δ/σ"), "setting.mu"))
    return "\n".join(lines)


def _printed(label: str, value: str) -> str:
    """A line that prints ``label: value`` (the label, as the page shows it, a string literal;
    ``value`` the code of the value)."""
    return f"print({literal(label + ':')}, {value})"


def program(*, given: dict, solve: str, method: str, tab: str, labels: dict[str, str],
            release: ReleaseCode | None, same_sensitivity: bool, eps_cap: float,
            table_eps, table_delta, link: str, title: str) -> Program:
    """The view's program: ``given`` the three values set (name -> value), ``solve`` the one
    solved, ``tab`` one of :data:`TABS`; ``labels`` the page's labels that carry numbers
    ("query_eps", "gdp_delta"); ``release`` the release tab's settings, whose query has
    the page's Δ when ``same_sensitivity``; ``eps_cap`` where the δ(ε) chart ends at the
    latest; ``table_eps``, ``table_delta`` the σ table's rows and columns."""
    files: dict[str, str] = {}
    cells = [Cell("markdown", _("## The four values\n\nε, δ, σ and Δ of the Gaussian "
                                "mechanism M(D) = f(D) + N(0, σ²); μ = Δ/σ.")),
             Cell("code", _solve(given, solve, method))]
    if tab == "calibrations":
        cells += [Cell("markdown", _("## Three calibrations\n\nThe σ each calibration asks "
                                     "for at this (ε, δ, Δ): analytic (exact, Balle & Wang "
                                     "2018), tail bound P(L > ε) ≤ δ, and the classical "
                                     "formula.")),
                  Cell("code", _calibrations(), script=_calibrations(script=True))]
    elif tab == "loss":
        cells += [Cell("markdown", _("## The privacy-loss distribution\n\nL ~ N(Δ²/2σ², "
                                     "Δ²/σ²); P(L > ε) is the tail bound, E[(1 − e^(ε − L))₊] "
                                     "the exact δ(ε).")),
                  Cell("code", _loss(), script=_loss(script=True))]
    elif tab == "gdp":
        cells += [Cell("markdown", _("## As μ-GDP\n\nThe mechanism is μ-GDP with μ = Δ/σ "
                                     "(Dong, Roth & Su 2022): δ(ε) for every ε at once.")),
                  Cell("code", _gdp(labels["gdp_delta"], eps_cap),
                       script=_gdp(labels["gdp_delta"], eps_cap, script=True))]
    elif tab == "release" and release is not None:
        cells += [Cell("markdown", _("## Releasing a statistic\n\nThe data, its true "
                                     "answer, and N(0, σ²) noise at the σ above.")),
                  Cell("code", _release(release, labels["query_eps"], files, same_sensitivity),
                       script=_release(release, labels["query_eps"], {}, same_sensitivity,
                                       script=True))]
    elif tab == "tables":
        cells += [Cell("markdown", _("## The σ tables\n\nσ for common (ε, δ) at this Δ, by "
                                     "the three calibrations.")),
                  Cell("code", _tables(table_eps, table_delta))]
    return Program(title=title, link=link, stem="gaussian_mechanism", cells=tuple(cells),
                   files=files)


def _show(name: str, script: bool, indent: str = "") -> str:
    return show(f"fig_{name}", f"gaussian_{name}.html", script, indent)


def _calibrations(script: bool = False) -> str:
    from dpcore.gaussian import METHOD_NAMES  # noqa: PLC0415 - dpcode imports without dpcore

    # The calibrations' names as the page shows them: dpcore's, in the reader's language.
    names = {method: _(name) for method, name in METHOD_NAMES.items()}
    translated = names != METHOD_NAMES
    label = literal(_("σ, {name}") + ":")
    no_solution = literal(_("no solution"))
    renamed = [
        "NAMES = {  # the calibrations' names, as the dashboard says them",
        *(f"    {literal(method)}: {literal(name)}," for method, name in names.items()),
        "}",
        "table['name'] = table['method'].map(NAMES)",
    ] if translated else []
    return "\n".join([
        "import numpy as np",
        "import dpviz",
        "",
        "table = gaussian.calibration_table(setting.eps, setting.delta, setting.sensitivity)",
        *renamed,
        "for row in table.itertuples():",
        f"    label = {label}.format(name=row.name)",
        "    if np.isfinite(row.sigma):",
        "        print(label, row.sigma)",
        "    else:  # why, as dpcore says it",
        f"        print(label, {no_solution}, f'({{row.note}})')",
        "print(table.to_string(index=False))",
        "",
        "fig_calibrations = dpviz.gaussian.calibration_figure(table)",
        _show("calibrations", script),
    ])


def _loss(script: bool = False) -> str:
    return "\n".join([
        "import dpviz",
        "",
        "mean, var = gaussian.privacy_loss_moments(setting.sigma, setting.sensitivity)",
        "tail = float(gaussian.gaussian_delta(setting.eps, setting.sigma, setting.sensitivity,",
        "                                     method='tail'))",
        "exact = float(gaussian.gaussian_delta(setting.eps, setting.sigma, setting.sensitivity,",
        "                                      method='analytic'))",
        _printed(_("P(L > ε): tail bound"), "tail"),
        _printed(_("Exact δ(ε)"), "exact"),
        "",
        "if var > 0:",
        "    fig_loss = dpviz.gaussian.privacy_loss_figure(mean, var, setting.eps,",
        "                                                  tail_delta=tail, exact_delta=exact,",
        "                                                  log_y=True)",
        _show("loss", script, "    "),
    ])


def _gdp(delta_label: str, eps_cap: float, script: bool = False) -> str:
    return "\n".join([
        "import numpy as np",
        "import dpviz",
        "from dpcore import fdp",
        "",
        "exact = float(gaussian.gaussian_delta(setting.eps, setting.sigma, setting.sensitivity))",
        _printed(_("μ = Δ/σ"), "setting.mu"),
        f"print({literal(delta_label + ':')}, exact)",
        "",
        "# The curve δ(ε) of μ-GDP, from ε = 0 to where δ is about 10⁻¹² (at most "
        f"{eps_cap:g}).",
        "reach = float(gaussian.gaussian_epsilon(1e-12, setting.sigma, setting.sensitivity))",
        f"eps_line = np.linspace(0.0, max(min(reach, {literal(float(eps_cap))}), "
        "1.5 * setting.eps, 1.0), 400)",
        "fig_gdp = dpviz.fdp.delta_curve_figure(eps_line, fdp.gdp_delta(eps_line, setting.mu),",
        "                                       mu=setting.mu, point=(setting.eps, exact))",
        _show("gdp", script),
    ])


def _data(r: ReleaseCode, files: dict[str, str]) -> list[str]:
    """Lines that set up the data of the release (and draw the people from ``rng``)."""
    if r.data is None:
        return [
            f"# {r.n:,} people drawn from the 2020 population {r.source!r} by single year of age",
            "probs = datasets.proportions(datasets.age_histogram("
            f"{literal(r.source)}, 1).to_numpy())",
            f"by_age = datasets.draw_histogram(probs, {literal(r.n)}, rng=rng)",
            "ages = np.arange(by_age.size)",
        ]
    kind, values, *rest = r.data
    name = "counts" if kind == "counts" else "values"
    if np.size(values) <= EMBED_LIMIT:
        lines = [f"# The uploaded file's column ({kind})", f"{name} = {array_literal(values)}"]
    else:
        file = f"gaussian_mechanism_{name}.csv"
        files[file] = "value\n" + "\n".join(repr(float(v)) for v in values) + "\n"
        lines = ["import pandas as pd", "",
                 f"{name} = pd.read_csv({literal(file)})['value'].to_numpy()  "
                 "# the uploaded column, saved beside this script"]
    if kind == "counts":
        lines.append(f"labels = {literal(list(rest[0]))}")
    return lines


def _answer(r: ReleaseCode) -> list[str]:
    """Lines that compute the true answer (``true_value``) or histogram (``counts``)."""
    uploaded = r.data is not None
    if r.kind == "count":
        if not uploaded:
            lo, hi = r.ages
            return [f"true_value = float(by_age[{lo}:{hi + 1}].sum())  # people aged {lo}–{hi}"]
        return ["true_value = float(counts.sum())" if r.data[0] == "counts"
                else "true_value = float(values.size)"]
    if r.kind == "sum":
        return [f"UPPER = {literal(r.upper)}  # each value clipped to [0, U]: Δ = U",
                "true_value = gaussian.clipped_sum(ages, UPPER, weights=by_age)" if not uploaded
                else "true_value = gaussian.clipped_sum(values, UPPER)"]
    if not uploaded:
        return [f"labels = datasets.age_bin_labels({r.width})",
                f"counts = datasets.regroup_ages(by_age, {r.width})"]
    if r.data[0] == "values":
        return [f"labels = datasets.age_bin_labels({r.width})",
                f"counts = datasets.bin_values(values, width={r.width}).astype(float)"]
    return []


def _release(r: ReleaseCode, eps_label: str, files: dict[str, str], same_sensitivity: bool,
             script: bool = False) -> str:
    upper = f", upper={literal(r.upper)}" if r.kind == "sum" else ""
    lines = ["import numpy as np", "import dpviz", "from dpcore import datasets", "",
             f"rng = np.random.default_rng({literal(r.seed)})  # the people drawn, then the noise",
             *_data(r, files), *_answer(r), "",
             "# The guarantee for this query's sensitivity at the page's σ and δ",
             f"query_sensitivity = gaussian.query_sensitivity({literal(r.kind)}{upper})",
             *(["query_eps = setting.eps  # the query's Δ is the page's Δ: the page's ε"]
               if same_sensitivity else
               ["query_eps = float(gaussian.gaussian_epsilon(setting.delta, setting.sigma,",
                "                                            query_sensitivity, method=METHOD))"]),
             f"print({literal(eps_label + ':')}, query_eps)", ""]
    if r.kind in ("count", "sum"):
        lines += [
            f"releases = gaussian.release(true_value, setting.sigma, size={N_RELEASES}, rng=rng)",
            "summary = gaussian.release_summary(true_value, setting.sigma)",
            "simulated = gaussian.summarise_releases(releases, true_value,",
            "                                        half_width=summary.half_width)",
            _printed(_("True answer"), "true_value"),
            _printed(_("One release"), "releases[0]"),
            _printed(_("RMSE (theory = σ)"), "summary.rmse"),
            _printed(_("RMSE, simulated"), "simulated.rmse"),
            _printed(_("95% of releases within"), "summary.half_width"),
            _printed(_("Share of simulated releases within"), "simulated.inside_share"),
            _printed(_("Chance of a negative release"), "float(summary.p_negative)"),
            _printed(_("Share of simulated releases below 0"), "simulated.negative_share"),
            "",
            "fig_release = dpviz.gaussian.release_distribution_figure(",
            "    releases, true_value, setting.sigma, half_width=summary.half_width)",
            _show("release", script),
        ]
    else:
        lines += [
            "released = gaussian.release(counts, setting.sigma, rng=rng)",
            "summary = gaussian.release_summary(counts, setting.sigma)",
            _printed(_("RMSE per bin (= σ)"), "summary.rmse"),
            _printed(_("Expected negative bins"), "summary.expected_negative"),
            _printed(_("Largest P(negative) of a bin"), "float(np.max(summary.p_negative))"),
            _printed(_("Negative bins in this release"), "int(np.sum(released < 0))"),
            "",
            "fig_release = dpviz.gaussian.histogram_release_figure(",
            "    labels, counts, released, half_width=summary.half_width)",
            _show("release", script),
        ]
    return "\n".join(lines)


def _tables(table_eps, table_delta) -> str:
    return "\n".join([
        "# rows ε, columns δ: σ of the three calibrations",
        f"EPS_VALUES = {literal(list(table_eps))}",
        f"DELTA_VALUES = {literal(list(table_delta))}",
        "table = gaussian.sigma_table(EPS_VALUES, DELTA_VALUES, sensitivity=setting.sensitivity)",
        "print(table.to_string(index=False))",
    ])
