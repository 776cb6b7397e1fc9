"""Every control shows the value the page computes with, over random link states.

For each page, Hypothesis draws link states (URL parameters from the controls' own grids
and ranges, out-of-range and long-float values among them), opens the page at each with
AppTest, and reads every keyed control's shown value. Meanwhile every public function of
dpcore records the arguments it is called with (and some their results). For each control
the page's spec names the dpcore arguments it feeds; the test asserts that every call made
in the run got the value the control shows, that the report's settings print that value,
and that no text on the page (prose, captions, alerts, metrics, widget labels, report
findings and settings, chart titles and legends) writes a number in e-notation or a
probability strictly between 0 and 1 as "0" or "1". The count of (state, control) checks
is printed per page (pytest -s), for the closing note of issue 18.

The states are drawn with ``derandomize=True``: the same states on every run and machine,
so a failure reproduces; search more widely with the environment variable
VALUES_IN_USE_EXAMPLES (e.g. 50).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import math
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pytest
import streamlit as st
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from streamlit.testing.v1 import AppTest

from browserkit import number
from conftest import APP_PATH, LAST_KIT, run
from pagekit import link_view
from ui import controls, links, registry
from ui.format import fmt_share
from ui.pages import calibration as cal_page
from ui.pages import fdp as fdp_page
from ui.pages import gaussian as gauss_page
from ui.pages import substitution as rs_page

# Link states per page, each with up to two slider moves.
EXAMPLES = int(os.environ.get("VALUES_IN_USE_EXAMPLES", "12"))

# --- what dpcore is called with ----------------------------------------------------------------

MODULES = ("audit", "datasets", "fdp", "gaussian", "histogram", "homogeneity", "ldp",
           "planner", "simulation", "study", "substitution")
Call = tuple[str, dict, object]  # (module.function, arguments, result)


@pytest.fixture
def calls(monkeypatch) -> list[Call]:
    """Every call of a public dpcore function in this test: its arguments and result."""
    made: list[Call] = []
    for name in MODULES:
        module = importlib.import_module(f"dpcore.{name}")
        for attr, fn in list(vars(module).items()):
            if attr.startswith("_") or not inspect.isfunction(fn) or fn.__module__ != module.__name__:
                continue
            signature = inspect.signature(fn)

            def recorded(*args, _fn=fn, _sig=signature, _name=f"{name}.{attr}", **kwargs):
                result = _fn(*args, **kwargs)
                try:
                    bound = _sig.bind(*args, **kwargs)
                    bound.apply_defaults()
                    made.append((_name, dict(bound.arguments), result))
                except TypeError:
                    pass
                return result

            monkeypatch.setattr(module, attr, functools.wraps(fn)(recorded))
    return made


# --- the pages' specs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Use:
    """A control's value reaches dpcore as the argument ``arg`` of ``function`` (or, with
    ``arg`` "return.<name>", as that attribute of its result)."""

    function: str
    arg: str
    map: Callable = staticmethod(lambda v: v)  # the control's value as dpcore takes it


@dataclass(frozen=True)
class Spec:
    page: registry.PageSpec
    params: dict[str, hs.SearchStrategy]  # URL parameter -> its URL text
    uses: dict[str, list[Use]]  # a control's widget key -> where its value goes
    report: dict[str, str] = field(default_factory=dict)  # widget key -> report setting label
    metrics: dict[str, str | tuple] = field(default_factory=dict)  # widget key -> metric label(s)
    # widget key -> a metric label pattern whose group 1 is the control's value ("ε_l (l = 2)")
    labels: dict[str, str] = field(default_factory=dict)
    probabilities: dict[str, Callable] = field(default_factory=dict)  # metric -> true value
    # Sliders a reader may move after arriving (a move may change another control's range):
    # widget key -> a select slider's option values, or None for a slider's whole range.
    moves: dict[str, tuple | None] = field(default_factory=dict)


def texts(values) -> hs.SearchStrategy:
    """One of ``values`` as a link writes it."""
    return hs.sampled_from([controls.fmt_number(v) if isinstance(v, (int, float)) and
                            not isinstance(v, bool) else str(v) for v in values])


def floats(lo: float, hi: float) -> hs.SearchStrategy:
    """Any float from lo to hi, log-uniform, written with all its digits (a round trip)."""
    return hs.floats(math.log10(lo), math.log10(hi)).map(lambda e: repr(10.0 ** e))


def ints(lo: int, hi: int) -> hs.SearchStrategy:
    return hs.integers(lo, hi).map(str)


ALPHAS = controls.ALPHA_GRID
G = gauss_page.QUANTITIES

SPECS = [
    Spec(registry.COMPARE,
         {"cmp_alpha_a": texts(ALPHAS), "cmp_alpha_b": texts(ALPHAS),
          "cmp_n": texts(controls.N_GRID[:9]), "cmp_boot": texts((100, 200, 500, 1000)),
          "cmp_seed": ints(0, 10_000), "cmp_width": texts((5, 10))},
         {"cmp_alpha_a": [Use("homogeneity.sample_and_test", "alpha1"),
                          Use("homogeneity.parametric_bootstrap_test", "alpha1")],
          "cmp_alpha_b": [Use("homogeneity.sample_and_test", "alpha2"),
                          Use("homogeneity.parametric_bootstrap_test", "alpha2")],
          "cmp_n": [Use("homogeneity.sample_and_test", "n1"),
                    Use("homogeneity.sample_and_test", "n2")],
          "cmp_boot": [Use("homogeneity.parametric_bootstrap_test", "n_boot"),
                       Use("homogeneity.normal_score_test", "n_boot")],
          "cmp_seed": [Use("homogeneity.sample_and_test", "rng")],
          "cmp_width": [Use("datasets.age_histogram", "width")]},
         moves={"cmp_alpha_a": ALPHAS, "cmp_n": controls.N_GRID[:9]},
         report={"cmp_alpha_a": "Privacy level ε_A (A)", "cmp_alpha_b": "Privacy level ε_B (B)",
                 "cmp_n": "People N in A", "cmp_boot": "Bootstrap replicates B",
                 "cmp_seed": "Seed"}),
    Spec(registry.CALIBRATION,
         {"cal_m": texts(cal_page.NULL_M_OPTIONS), "cal_alpha": texts(ALPHAS),
          "cal_n": ints(cal_page.NULL_N_MIN, 2_000_000),
          "cal_reps_null": texts(cal_page.NULL_REPS_OPTIONS[:3]), "cal_seed": ints(0, 10_000)},
         {"cal_m": [Use("datasets.shape_probabilities", "m")],
          "cal_n": [Use("simulation.null_statistics", "n")],
          "cal_alpha": [Use("simulation.null_statistics", "alpha")],
          "cal_reps_null": [Use("simulation.null_statistics", "reps")],
          "cal_seed": [Use("simulation.null_statistics", "rng")]},
         report={"cal_m": "Null distributions: bins M",
                 "cal_n": "Null distributions: histogram size N",
                 "cal_alpha": "Null distributions: privacy level ε",
                 "cal_reps_null": "Null distributions: replicates",
                 "cal_seed": "Null distributions: seed"}),
    Spec(registry.PLANNER,
         {"plan_alpha": texts(ALPHAS[10:35]), "plan_power": texts((0.5, 0.8, 0.9)),
          "plan_level": texts((0.01, 0.05, 0.1)), "plan_width": texts((5, 10)),
          "plan_seed": ints(0, 10_000)},
         {"plan_alpha": [Use("planner.required_sample_size", "alpha1"),
                         Use("planner.required_sample_size", "alpha2")],
          "plan_power": [Use("planner.required_sample_size", "power")],
          "plan_level": [Use("planner.required_sample_size", "level")],
          "plan_seed": [Use("planner.required_sample_size", "rng")],
          "plan_width": [Use("datasets.age_histogram", "width")]},
         report={"plan_alpha": "Privacy level", "plan_power": "Target power",
                 "plan_seed": "Seed"}),
    Spec(registry.FDP,
         {"fdp_mu": texts(np.round(np.arange(0.0, 5.01, 0.25), 2)),
          "fdp_say_alpha": hs.sampled_from([fmt_share(a) for a in fdp_page.SAY_ALPHA_GRID])},
         {"fdp_mu": [Use("fdp.gdp_tradeoff", "mu"), Use("audit.densities", "shift")],
          "fdp_say_alpha": [Use("audit.threshold_for_alpha", "alpha")]},
         moves={"fdp_mu": None, "fdp_say_alpha": fdp_page.SAY_ALPHA_GRID},
         report={"fdp_mu": "shift μ", "fdp_say_alpha": "false accusations allowed α"},
         metrics={"fdp_say_alpha": "Type-I error α"},
         probabilities={"Type-I error α": lambda w: w["fdp_say_alpha"],
                        "Type-II error β": lambda w: _beta(w)}),
    Spec(registry.GAUSSIAN,
         {"gauss_solve": texts(("ε", "δ", "σ", "Δ")), "gauss_eps": floats(0.01, 50.0),
          "gauss_delta": floats(1e-12, 0.1), "gauss_sigma": floats(0.01, 10_000.0),
          "gauss_sens": floats(0.01, 1000.0)},
         {G["eps"].key: [Use("gaussian.calibration_table", "eps")],
          G["delta"].key: [Use("gaussian.calibration_table", "delta")],
          G["sensitivity"].key: [Use("gaussian.calibration_table", "sensitivity")],
          G["sigma"].key: [Use("gaussian.solve_gaussian", "return.sigma")]},
         moves={f"{q.key}_slider": q.grid for q in G.values()},
         report={q.key: q.label for q in G.values()},
         metrics={q.key: (q.symbol, f"{q.symbol} (solved)") for q in G.values()}),
    Spec(registry.LDP,
         {"ldp_eps": texts(links.LdpParams.EPS_GRID), "ldp_n": texts(controls.N_GRID[:9]),
          "ldp_seed": ints(0, 10_000)},
         {"ldp_eps": [Use("ldp.krr_probabilities", "eps")],
          "ldp_n": [Use("datasets.draw_histogram", "n")]},
         moves={"ldp_eps": links.LdpParams.EPS_GRID, "ldp_n": controls.N_GRID[:9]},
         report={"ldp_eps": "privacy ε", "ldp_n": "users N"},
         metrics={"ldp_n": "Users N"},
         probabilities={"p: tell the truth": lambda w: _krr(w)[0],
                        "q: tell a given lie": lambda w: _krr(w)[1]}),
    Spec(registry.SUBSTITUTION,
         {"rs_gamma": texts(links.SubstitutionParams.GAMMA_GRID), "rs_N": ints(2, 200),
          "rs_l": ints(1, 99), "rs_reps": texts(rs_page.REPS_GRID), "rs_seed": ints(0, 10_000)},
         {"rs_N_slider": [Use("substitution.extended_epsilon", "n_categories"),
                          Use("substitution.gamma_diagonal_matrix", "n_categories")],
          "rs_gamma": [Use("substitution.extended_epsilon", "gamma"),
                       Use("substitution.extended_random_substitution", "gamma")],
          "rs_l_slider": [Use("substitution.extended_epsilon", "l"),
                          Use("substitution.extended_random_substitution", "l"),
                          Use("substitution.reconstruct", "l")]},
         report={"rs_N_slider": "categories k", "rs_gamma": "amplification γ",
                 "rs_l_slider": "values per record l", "rs_n": "records N"},
         metrics={"rs_N_slider": "Categories k", "rs_n": "Records N"},
         labels={"rs_l_slider": r"ε_l \(l = (\d+)\)"},
         moves={"rs_N_slider": None, "rs_l_slider": None,
                "rs_gamma": links.SubstitutionParams.GAMMA_GRID}),
]


def _beta(widgets: dict) -> float:
    from dpcore import fdp

    return float(fdp.gdp_tradeoff(widgets["fdp_say_alpha"], widgets["fdp_mu"]))


def _krr(widgets: dict) -> tuple[float, float]:
    from dpcore import ldp

    return ldp.krr_probabilities(widgets["ldp_eps"], 2)


# --- what the page shows -------------------------------------------------------------------

E_NOTATION = re.compile(r"\d[eE][+\-−]?\d")


def shown_texts(at: AppTest) -> list[str]:
    """Every text the page shows as prose or labels, and what its report says."""
    out = [m.value for m in at.markdown] + [c.value for c in at.caption]
    out += [e.value for kind in ("info", "warning", "error", "success") for e in at.get(kind)]
    out += [f"{m.label}: {m.value}" for m in at.metric]
    out += [tab.label for tab in at.tabs] + [e.label for e in at.expander]
    for kind in ("slider", "select_slider", "number_input", "selectbox", "radio", "toggle",
                 "multiselect", "segmented_control"):
        out += [str(getattr(w, "label", "")) for w in at.get(kind)]
    if LAST_KIT:
        kit = LAST_KIT[-1]
        out += list(kit.findings) + list(kit.notes)
        out += [f"{k}: {v}" for k, v in kit.parameters.items()]
        for _, fig in kit.figures:
            layout = fig.layout
            out.append(str(layout.title.text or ""))
            out += [str(a.text or "") for a in layout.annotations or ()]
            out += [str(trace.name or "") for trace in fig.data]
    return out


def close(a, b) -> bool:
    """Two values of one control, numbers to 1e-9 relative (a number box's as it shows
    them), anything else equal."""
    if isinstance(a, Boxed):
        return a.agrees(b)
    if isinstance(a, (int, float, np.integer, np.floating)) and not isinstance(a, bool):
        try:
            return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-300)
        except (TypeError, ValueError):
            return False
    return a == b


def shown_values(at: AppTest) -> dict:
    """Every keyed control's value as the reader sees it: a number box's value as its
    format writes it (a box with "%.6g" shows 31.6228 for 31.622776601683793)."""
    widgets = link_view(at)["widgets"]
    for box in at.number_input:
        fmt = box.proto.format
        if box.key in widgets and fmt and widgets[box.key] is not None:
            widgets[box.key] = Boxed(float(fmt % widgets[box.key]), fmt)
    return widgets


@dataclass(frozen=True)
class Boxed:
    """A number box's shown value and its format: a value in use agrees with it when the
    box would write it the same (a solved σ = 3.730631634815942 shows as 3.73063)."""

    shown: float
    fmt: str

    def agrees(self, used) -> bool:
        return float(self.fmt % float(used)) == self.shown


NUMBER = re.compile(r"[-−]?\d[\d,]*(?:\.\d+)?(?:·10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?%?")
SUPERSCRIPT = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def reads_as(text: str, value) -> bool:
    """Whether the first number written in ``text`` is ``value`` to the digits it shows:
    "3.73063" for 3.730631634815942, "1.0·10⁻⁵" for 1e-05, "5%" for 0.05, "10,000"."""
    if isinstance(value, str):
        return value in text
    match = NUMBER.search(str(text))
    if match is None:
        return False
    written = match.group()
    mantissa, _, exponent = written.rstrip("%").partition("·10")
    decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
    scale = (10.0 ** int(exponent.translate(SUPERSCRIPT)) if exponent else 1.0) * (
        0.01 if written.endswith("%") else 1.0)
    return abs(number(written) - float(value)) <= 0.5 * 10.0 ** -decimals * scale * (1 + 1e-9)


def value_of(use: Use, arguments: dict, result):
    if use.arg.startswith("return."):
        return getattr(result, use.arg.removeprefix("return."))
    return arguments.get(use.arg)


def move(at: AppTest, key: str, options: tuple | None, where: float) -> None:
    """Move the slider ``key`` to the point ``where`` of its range (0: its start, 1: its
    end), or to that point of ``options`` (a select slider's values), and run."""
    for kind in ("slider", "select_slider"):
        found = [w for w in at.get(kind) if w.key == key and not w.disabled]
        if found:
            w = found[0]
            if options is not None:
                w.set_value(options[round(where * (len(options) - 1))])
            elif isinstance(w.min, int):
                w.set_value(w.min + round(where * (w.max - w.min)))
            else:
                step = w.step or 0.01
                w.set_value(round((w.min + where * (w.max - w.min)) / step) * step)
            run(at)
            return


def open_at(spec: Spec, query: dict[str, str], made: list[Call]) -> AppTest:
    at = AppTest.from_file(str(APP_PATH), default_timeout=60)
    run(at)
    for key, value in query.items():
        at.query_params[key] = value
    at.switch_page(spec.page.script)
    st.cache_data.clear()  # every computation runs again, and its dpcore calls are seen
    made.clear()
    return run(at)


@pytest.mark.parametrize("spec", SPECS, ids=[s.page.name for s in SPECS])
def test_every_control_shows_the_value_in_use(spec, calls, capsys):
    checked: Counter = Counter()

    moves = (hs.lists(hs.tuples(hs.sampled_from(sorted(spec.moves)), hs.floats(0, 1)),
                      max_size=2) if spec.moves else hs.just([]))

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(query=hs.fixed_dictionaries({}, optional=spec.params), moved=moves)
    def check(query, moved):
        at = open_at(spec, query, calls)
        for key, where in moved:  # the reader moves sliders: each run is checked as a link's
            calls.clear()
            st.cache_data.clear()
            move(at, key, spec.moves[key], where)
            checked[("moves", "")] += 1
        query = {**query, "moved": moved} if moved else query
        widgets = shown_values(at)
        for key, uses in spec.uses.items():
            if key not in widgets:
                continue
            shown = widgets[key]
            for use in uses:
                seen = [value_of(use, args, result) for name, args, result in calls
                        if name == use.function]
                seen = [v for v in seen if v is not None and np.ndim(v) == 0]
                wrong = [v for v in seen if not close(use.map(shown), v)]
                assert not wrong, (f"{spec.page.name} at {query}: {key} shows {shown!r}, "
                                   f"but {use.function} got {use.arg} = {wrong[:3]}")
                if seen:
                    checked[(key, use.function)] += 1
        shown_metrics = {m.label: m.value for m in at.metric}
        report = LAST_KIT[-1].parameters if LAST_KIT else {}
        said = [(f"report {spec.report.get(k)}", report.get(spec.report.get(k)), k)
                for k in spec.report]
        for key, labels in spec.metrics.items():
            labels = (labels,) if isinstance(labels, str) else labels
            said += [(f"metric {label}", shown_metrics[label], key) for label in labels
                     if label in shown_metrics][:1]
        for where, text, key in said:
            if text is None or key not in widgets:
                continue
            value = widgets[key].shown if isinstance(widgets[key], Boxed) else widgets[key]
            assert reads_as(text, value), (
                f"{spec.page.name} at {query}: {key} shows {value!r}, {where} says {text!r}")
            checked[(key, where.split()[0])] += 1
        for key, pattern in spec.labels.items():
            for label in shown_metrics:
                match = re.fullmatch(pattern, label)
                if match and key in widgets:
                    assert reads_as(match.group(1), widgets[key]), (
                        f"{spec.page.name} at {query}: {key} shows {widgets[key]!r}, the "
                        f"metric is labelled {label!r}")
                    checked[(key, "label")] += 1
        for text in shown_texts(at):
            assert not E_NOTATION.search(text), (
                f"{spec.page.name} at {query}: e-notation in {text!r}")
        metrics = {m.label: m.value for m in at.metric}
        for label, truth in spec.probabilities.items():
            if label in metrics:
                p = truth(widgets)
                assert metrics[label] not in ("0", "1") or p in (0.0, 1.0), (
                    f"{spec.page.name} at {query}: {label} shows {metrics[label]}, it is {p!r}")
                assert math.isclose(number(metrics[label]), p, rel_tol=5e-3), (label, p)

    check()
    # Every control of the spec was checked in some state, each use in at least one.
    n_moves = checked.pop(("moves", ""), 0)
    missing = ({(k, u.function) for k, uses in spec.uses.items() for u in uses}
               | {(k, "report") for k in spec.report} | {(k, "metric") for k in spec.metrics}
               | {(k, "label") for k in spec.labels}) - set(checked)
    assert not missing, f"never checked: {missing}"
    with capsys.disabled():
        print(f"\n{spec.page.name}: {sum(checked.values())} checks of "
              f"{len(spec.uses)} controls over {EXAMPLES} link states and {n_moves} slider "
              f"moves, 0 differing")
