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
so a failure reproduces; raise EXAMPLES locally to search more widely.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import math
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
from ui.pages import calibration as cal_page
from ui.pages import gaussian as gauss_page
from ui.pages import substitution as rs_page

EXAMPLES = 10  # link states per page

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
    report: dict[str, str] = field(default_factory=dict)  # widget key -> report label pattern
    probabilities: dict[str, Callable] = field(default_factory=dict)  # metric -> true value


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
          "cmp_width": [Use("datasets.age_histogram", "width")]}),
    Spec(registry.CALIBRATION,
         {"cal_m": texts(cal_page.NULL_M_OPTIONS), "cal_alpha": texts(ALPHAS),
          "cal_n": ints(cal_page.NULL_N_MIN, 2_000_000),
          "cal_reps_null": texts(cal_page.NULL_REPS_OPTIONS[:3]), "cal_seed": ints(0, 10_000)},
         {"cal_m": [Use("datasets.shape_probabilities", "m")],
          "cal_n": [Use("simulation.null_statistics", "n")],
          "cal_alpha": [Use("simulation.null_statistics", "alpha")],
          "cal_reps_null": [Use("simulation.null_statistics", "reps")],
          "cal_seed": [Use("simulation.null_statistics", "rng")]}),
    Spec(registry.PLANNER,
         {"plan_alpha": texts(ALPHAS[10:35]), "plan_power": texts((0.5, 0.8, 0.9)),
          "plan_level": texts((0.01, 0.05, 0.1)), "plan_width": texts((5, 10)),
          "plan_seed": ints(0, 10_000)},
         {"plan_alpha": [Use("planner.required_sample_size", "alpha1"),
                         Use("planner.required_sample_size", "alpha2")],
          "plan_power": [Use("planner.required_sample_size", "power")],
          "plan_level": [Use("planner.required_sample_size", "level")],
          "plan_seed": [Use("planner.required_sample_size", "rng")],
          "plan_width": [Use("datasets.age_histogram", "width")]}),
    Spec(registry.FDP,
         {"fdp_mu": texts(np.round(np.arange(0.0, 5.01, 0.25), 2)),
          "fdp_t": texts(np.round(np.arange(-1.0, 6.01, 0.5), 2))},
         {"fdp_mu": [Use("fdp.gdp_tradeoff", "mu"), Use("audit.threshold_test", "shift")],
          "fdp_t": [Use("audit.threshold_test", "threshold")]}),
    Spec(registry.GAUSSIAN,
         {"gauss_solve": texts(("ε", "δ", "σ", "Δ")), "gauss_eps": floats(0.01, 50.0),
          "gauss_delta": floats(1e-12, 0.1), "gauss_sigma": floats(0.01, 10_000.0),
          "gauss_sens": floats(0.01, 1000.0)},
         {G["eps"].key: [Use("gaussian.calibration_table", "eps")],
          G["delta"].key: [Use("gaussian.calibration_table", "delta")],
          G["sensitivity"].key: [Use("gaussian.calibration_table", "sensitivity")],
          G["sigma"].key: [Use("gaussian.solve_gaussian", "return.sigma")]}),
    Spec(registry.LDP,
         {"ldp_eps": texts(links.LdpParams.EPS_GRID), "ldp_n": texts(controls.N_GRID[:9]),
          "ldp_seed": ints(0, 10_000)},
         {"ldp_eps": [Use("ldp.krr_probabilities", "eps")],
          "ldp_n": [Use("datasets.draw_histogram", "n")]},
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
                          Use("substitution.reconstruct", "l")]}),
]


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


def value_of(use: Use, arguments: dict, result):
    if use.arg.startswith("return."):
        return getattr(result, use.arg.removeprefix("return."))
    return arguments.get(use.arg)


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

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(query=hs.fixed_dictionaries({}, optional=spec.params))
    def check(query):
        at = open_at(spec, query, calls)
        widgets = shown_values(at)
        for key, uses in spec.uses.items():
            if key not in widgets:
                continue
            shown = widgets[key]
            for use in uses:
                seen = [value_of(use, args, result) for name, args, result in calls
                        if name == use.function]
                seen = [v for v in seen if v is not None]
                wrong = [v for v in seen if not close(use.map(shown), v)]
                assert not wrong, (f"{spec.page.name} at {query}: {key} shows {shown!r}, "
                                   f"but {use.function} got {use.arg} = {wrong[:3]}")
                if seen:
                    checked[(key, use.function)] += 1
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
    missing = {(k, u.function) for k, uses in spec.uses.items() for u in uses} - set(checked)
    assert not missing, f"never checked: {missing}"
    with capsys.disabled():
        print(f"\n{spec.page.name}: {sum(checked.values())} checks of "
              f"{len(spec.uses)} controls over {EXAMPLES} link states, 0 differing")
