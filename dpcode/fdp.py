"""The page "f-DP and Gaussian DP" as code (Dong, Roth & Su 2022): the attacker's best test
at the chosen α, then the open tab's numbers: the trade-off curves and their privacy
parameters, group privacy, composition, conversions, or an audit by simulation."""

from __future__ import annotations

from dataclasses import dataclass

from dpcode import Cell, Program, literal, show
from dpviz.text import _

TABS = ("attacker", "curves", "group", "composition", "conversions", "auditor")
ALPHA_GRID = "ALPHA = np.linspace(0.0, 1.0, 1000)  # the type-I errors the curves are read at"


@dataclass(frozen=True)
class View:
    """The settings the view's code needs (the page's Settings, without the interface)."""

    tab: str
    family: str
    mu: float
    say_alpha: float
    curves: tuple  # ((kind, name, params), ...) of the curves switched on
    target: tuple  # ("gdp", name, mu) or ("epsdelta", name, eps, delta)
    table_delta: float
    fail_tol: float
    group: tuple  # (k, mu, curve, eps)
    composition: tuple  # (n, mu, eps)
    conversion: tuple  # (mu, eps, inv_eps, inv_delta)
    audit: tuple  # (mechanism, params dict, reps, seed, chunk, levels, repeats)
    labels: dict  # the page's labels that carry numbers


def _show(name: str, script: bool) -> str:
    return show(f"fig_{name}", f"fdp_{name}.html", script)


def _printed(label: str, value: str) -> str:
    """A line that prints ``label: value`` (the label, as the page shows it, a string literal;
    ``value`` the code of the value)."""
    return f"print({literal(label + ':')}, {value})"


def _label(template: str) -> str:
    """A label's template (the page's message, in the reader's language) and its colon, as
    a string literal the code fills with ``.format(...)``."""
    return literal(template + ":")


def _braced(text: str) -> str:
    """``text`` as a part of a ``.format`` template: its braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")


def _attacker(v: View) -> str:
    curve = "fdp.gdp_tradeoff" if v.family == "gaussian" else "fdp.laplace_tradeoff"
    return "\n".join([
        "import numpy as np",
        "from dpcore import audit, fdp",
        "",
        f"FAMILY = {literal(v.family)}  # the outputs on D and D′: N(0, 1) and N(μ, 1), or Laplace",
        f"MU = {literal(v.mu)}  # their shift (ε for Laplace)",
        f"ALPHA_SAID = {literal(v.say_alpha)}  # the false accusations allowed",
        "threshold = float(audit.threshold_for_alpha(FAMILY, ALPHA_SAID))",
        f"beta = float({curve}(ALPHA_SAID, MU))  # the trade-off curve at α",
        _printed(_("Attacker's threshold t"), "threshold"),
        _printed(_("Type-I error α"), "ALPHA_SAID"),
        _printed(_("Type-II error β"), "beta"),
        _printed(_("α + β"), "ALPHA_SAID + beta"),
    ])


_CURVE_CODE = {
    # kind -> (beta on ALPHA, tightest μ, smallest ε at δ = TABLE_DELTA, vertices or None)
    "gdp": ("fdp.gdp_tradeoff(ALPHA, {mu})", "{mu}", "fdp.gdp_epsilon({mu}, TABLE_DELTA)",
            None),
    "epsdelta": ("fdp.epsdelta_tradeoff(ALPHA, {eps}, {delta})",
                 "fdp.epsdelta_gdp_mu({eps}, {delta})",
                 "fdp.epsdelta_epsilon({eps}, {delta}, TABLE_DELTA)",
                 "fdp.epsdelta_vertices({eps}, {delta})"),
    "laplace": ("fdp.laplace_tradeoff(ALPHA, {eps})", "fdp.laplace_gdp_mu({eps})",
                "fdp.laplace_epsilon({eps}, TABLE_DELTA)", None),
    "polygon": ("fdp.tradeoff_on_grid(*{vertices}, ALPHA)",
                "fdp.tightest_gdp_mu(*{vertices})",
                "fdp.tightest_epsilon(*{vertices}, TABLE_DELTA)", "{vertices}"),
    "histogram": ("fdp.laplace_histogram_tradeoff(ALPHA, {level})",
                  "fdp.laplace_histogram_gdp_mu({level})",
                  "fdp.laplace_histogram_epsilon({level}, TABLE_DELTA)", None),
}


def _curves(v: View, script: bool) -> str:
    lines = ["import numpy as np", "import dpviz", "from dpcore import fdp", "", ALPHA_GRID,
             f"TABLE_DELTA = {literal(v.table_delta)}  # the δ of the table's smallest ε", "",
             "curves = []  # (name, β on ALPHA, tightest μ, smallest ε at TABLE_DELTA, vertices)"]
    for kind, name, params in v.curves:
        beta, mu, eps, vertices = _CURVE_CODE[kind]
        args = {k: literal(p) for k, p in params.items()}
        if "gamma" in params:  # random substitution: k-RR's polygon at ε = ln γ
            args["eps"] = f"float(np.log({literal(params['gamma'])}))"
        if kind == "polygon":
            lines.append(f"vertices = fdp.krr_tradeoff({args['eps']}, {args['k']})")
            args["vertices"] = "vertices"
        lines.append(f"curves.append(({literal(name)}, {beta.format(**args)}, "
                     f"{mu.format(**args)},\n               {eps.format(**args)}, "
                     f"{vertices.format(**args) if vertices else None}))")
    if v.target[0] == "gdp":
        target = f"lambda a: fdp.gdp_tradeoff(a, {literal(v.target[2])})"
    else:
        target = (f"lambda a: fdp.epsdelta_tradeoff(a, {literal(v.target[2])}, "
                  f"{literal(v.target[3])})")
    # The page's labels (templates in the reader's language), filled in by the code
    tightest, smallest = _label(_("{curve}: tightest μ")), _label(_("{curve}: smallest ε at δ"))
    meets = _label("{curve}: " + _braced(_("meets the target")))
    yes, no = literal(_("yes")), literal(_("no"))
    lines += [
        "",
        f"target = {target}  # {v.target[1]}",
        "for name, beta, mu, eps, vertices in curves:",
        "    fails, below = fdp.below_target(ALPHA, beta, target, vertices=vertices, "
        f"tol={literal(v.fail_tol)})",
        f"    print({tightest}.format(curve=name), float(mu))",
        f"    print({smallest}.format(curve=name), float(eps))",
        f"    print({meets}.format(curve=name), {no} if fails else {yes})",
        "",
        "fig_curves = dpviz.fdp.tradeoff_figure(",
        "    [(name, ALPHA, beta, None, 'solid') for name, beta, *_ in curves],",
        f"    target=({literal(v.target[1])}, ALPHA, target(ALPHA)))",
        _show("curves", script),
    ]
    return "\n".join(lines)


def _group(v: View, script: bool) -> str:
    k, mu, curve, eps = v.group
    one = ("fdp.laplace_tradeoff(a, EPS)" if curve == "laplace"
           else "fdp.epsdelta_tradeoff(a, EPS)")
    gap = ("float(np.max(np.abs(group_beta - textbook)))  # exact: the curves coincide"
           if curve == "laplace" else
           "float(np.max(group_beta - textbook))  # Theorem 2.14 gives more than kε")
    return "\n".join([
        "import numpy as np", "import dpviz", "from dpcore import fdp", "", ALPHA_GRID,
        f"K, MU, EPS = {k}, {literal(mu)}, {literal(eps)}  # group size, μ and ε of one person",
        "# Gaussian DP: groups of k get kμ-GDP.",
        "group_gdp = fdp.gdp_tradeoff(ALPHA, K * MU)",
        f"def f_one(a):\n    return {one}",
        "group_beta = fdp.group_tradeoff(f_one, K, ALPHA)  # Theorem 2.14",
        f"textbook = {one.replace('(a, EPS)', '(ALPHA, K * EPS)')}  # ε becomes kε",
        f"gap = {gap}",
        f"print({literal(v.labels['group_gap'] + ':')}, gap)",
        "",
        "fig_group = dpviz.fdp.tradeoff_figure([",
        "    ('one person', ALPHA, f_one(ALPHA), None, 'solid'),",
        "    ('groups of k (Theorem 2.14)', ALPHA, group_beta, None, 'dash'),",
        "    ('kε', ALPHA, textbook, None, 'longdash')])",
        _show("group", script),
    ])


def _composition(v: View, script: bool) -> str:
    n, mu, eps = v.composition
    return "\n".join([
        "import numpy as np", "import dpviz", "from dpcore import fdp", "", ALPHA_GRID,
        f"N, MU, EPS = {n}, {literal(mu)}, {literal(eps)}  # releases, μ-GDP and ε-DP of each",
        "total_mu = float(np.sqrt(N) * MU)  # n μ-GDP releases are √n·μ-GDP, exactly",
        "exact = fdp.tradeoff_on_grid(*fdp.composition_epsdp(EPS, N), ALPHA)",
        "clt = fdp.clt_mu(EPS, N)  # 2√n·tanh(ε/2), Theorem 3.5",
        "gap = float(np.max(np.abs(exact - fdp.gdp_tradeoff(ALPHA, clt))))",
        f"print({literal(v.labels['total_mu'] + ':')}, total_mu)",
        _printed(_("μ of the CLT approximation"), "clt"),
        _printed(_("Largest gap, exact vs CLT"), "gap"),
        "",
        "fig_composition = dpviz.fdp.tradeoff_figure([",
        "    ('n-fold ε-DP, exact', ALPHA, exact, None, 'solid'),",
        "    ('CLT: G_μ', ALPHA, fdp.gdp_tradeoff(ALPHA, clt), None, 'dash')])",
        _show("composition", script),
    ])


def _conversions(v: View, script: bool) -> str:
    mu, eps, inv_eps, inv_delta = v.conversion
    return "\n".join([
        "import numpy as np", "import dpviz", "from dpcore import fdp", "",
        f"MU, EPS = {literal(mu)}, {literal(eps)}",
        "delta = float(fdp.gdp_delta(EPS, MU))  # Corollary 2.13",
        f"print({literal(v.labels['conv_delta'] + ':')}, delta)",
        f"TARGET_EPS, TARGET_DELTA = {literal(inv_eps)}, {literal(inv_delta)}",
        "mu = float(fdp.gdp_mu(TARGET_EPS, TARGET_DELTA))",
        _printed(_("Largest μ with δ(ε) ≤ target δ"), "mu"),
        _printed(_("Check: δ at that μ"), "float(fdp.gdp_delta(TARGET_EPS, mu))"),
        "",
        "eps_line = np.linspace(0.0, 10.0, 500)",
        "fig_conversions = dpviz.fdp.delta_curve_figure(eps_line, fdp.gdp_delta(eps_line, MU),",
        "                                               mu=MU, point=(EPS, delta))",
        _show("conversions", script),
    ])


def _auditor(v: View, script: bool) -> str:
    mech, params, reps, seed, chunk, levels, repeats = v.audit
    if mech == "gaussian":
        theory = f"fdp.gdp_tradeoff(LEVELS, 1.0 / {literal(params['sigma'])})"
        spread = (f"audit.beta_hat_sd(LEVELS, exact, fdp.gdp_slope(LEVELS, "
                  f"1.0 / {literal(params['sigma'])}), REPS)")
    elif mech == "laplace":
        theory = f"fdp.laplace_tradeoff(LEVELS, 1.0 / {literal(params['b'])})"
        spread = (f"audit.beta_hat_sd(LEVELS, exact, fdp.laplace_slope(LEVELS, "
                  f"1.0 / {literal(params['b'])}), REPS)")
    else:
        theory = (f"fdp.tradeoff_on_grid(*fdp.krr_tradeoff({literal(params['eps'])}, "
                  f"{params['k']}), LEVELS)")
        spread = (f"audit.krr_beta_hat_sd({literal(params['eps'])}, {params['k']}, REPS, "
                  f"LEVELS, repeats={repeats}, rng=SEED)  # simulated audits")
    # The columns of the page's table, in the reader's language (its labels: "{column} at α")
    columns = (literal(_("β̂ (empirical)")), literal(_("β (exact)")), literal(_("sd of β̂")),
               literal(_("μ implied by β̂")))
    at_level = _label(_("{column} at α = {level:g}"))
    return "\n".join([
        "import numpy as np", "import dpviz", "from dpcore import audit, fdp", "",
        f"MECHANISM, PARAMS = {literal(mech)}, {params!r}",
        f"REPS, SEED = {reps}, {seed}  # draws on each of two neighbouring inputs",
        f"LEVELS = np.array({literal(list(levels))})",
        "rng = np.random.default_rng(SEED)",
        f"chunks = [audit.audit_samples(MECHANISM, PARAMS, min({chunk}, REPS - done), rng=rng)",
        f"          for done in range(0, REPS, {chunk})]",
        "emp_alpha, emp_beta = fdp.empirical_tradeoff(np.concatenate([c[0] for c in chunks]),",
        "                                             np.concatenate([c[1] for c in chunks]))",
        f"exact = {theory}",
        f"spread = {spread}",
        f"AT_LEVEL = {at_level}  # the label of a column's value at α",
        "for level, b_exact, sd in zip(LEVELS, exact, spread):",
        "    b_hat = float(fdp.curve_at(emp_alpha, emp_beta, level))",
        f"    print(AT_LEVEL.format(column={columns[0]}, level=level), b_hat)",
        f"    print(AT_LEVEL.format(column={columns[1]}, level=level), float(b_exact))",
        f"    print(AT_LEVEL.format(column={columns[2]}, level=level), float(sd))",
        f"    print(AT_LEVEL.format(column={columns[3]}, level=level),",
        "          fdp.tightest_gdp_mu([level], [b_hat]))",
        "",
        "fig_audit = dpviz.fdp.tradeoff_figure([('empirical', emp_alpha, emp_beta, None, "
        "'solid')])",
        _show("audit", script),
    ])


_TABS = {"curves": _curves, "group": _group, "composition": _composition,
         "conversions": _conversions, "auditor": _auditor}


def program(view: View, *, link: str, title: str) -> Program:
    cells = [Cell("markdown", _("## The attacker's best test\n\nThe outputs on D and D′, "
                                "and the threshold test with type-I error α: its type-II "
                                "error β is the trade-off curve at α.")),
             Cell("code", _attacker(view))]
    if view.tab in _TABS:
        build = _TABS[view.tab]
        cells += [Cell("markdown", f"## {view.labels['tab']}"),
                  Cell("code", build(view, False), script=build(view, True))]
    return Program(title=title, link=link, stem="f_dp_and_gaussian_dp", cells=tuple(cells))
