"""The page "Gaussian mechanism" (views/gaussian.py) without its layout: its settings, the
set of (ε, δ, σ, Δ) it solves, and the numbers, sentences and tables built from them.

Every function here is a function of the page's :class:`Settings` (or of plain values
taken from them) and of dpcore.gaussian's results; the view reads the controls into a
``Settings`` and draws what these return.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

import dpcode
import dpcode.gaussian
import dpviz
from dpcore import datasets, fdp, gaussian, risk, uploads
from dpcore.gaussian import CLASSICAL_MAX_EPS
from dpcore.errors import ArgumentError
from ui.cache import counted
from ui.controls import DEFAULT_SEED, as_shown
from ui.format import fmt_number, fmt_param, fmt_sci, fmt_sig, sig_text, times_ten
from ui.kit import Experiment
from ui import oneperson, sources
from ui.sources import AGE_BINNINGS, UPLOAD
from ui.text import N_, error_text, error_words, esc, plain, t

CALIBRATION_COLORS = dpviz.gaussian.CALIBRATION_COLORS
TITLE = N_("Gaussian mechanism")
# The textbook that writes the L2 sensitivity Δ₂f and bounds δ by the loss's tail,
# P(L > ε), in its proof of the classical calibration: Dwork & Roth (2014), Definition 3.8 and
# Appendix A ([DR14] in docs/references.md; the blog note [GMN25] reads δ the same way).
DR14 = "Dwork & Roth 2014"
DR14_TAIL = N_("the classical analysis (Dwork & Roth 2014, Appendix A)")
TAB_KEY = "gauss_tab"  # the open tab's widget key and URL parameter
TABS = CALIBRATIONS, LOSS, GDP, RELEASE, TABLE = (
    N_("Three calibrations"), N_("Privacy loss"), N_("As μ-GDP"), N_("Release a statistic"),
    N_("σ table"))

# dpcore's argument names as the page writes them, in its plain-words messages.
SYMBOLS = {"eps": "ε", "delta": "δ", "sigma": "σ", "sensitivity": "Δ", "mu": "μ", "upper": "U"}

# --- The four quantities and their controls -------------------------------------------------

EPS_GRID = (0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0,
            5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0)
DELTA_GRID = tuple(float(f"{m}e{k}") for k in range(-12, 0) for m in (1, 2, 5))  # 1e-12 … 0.5
SIGMA_GRID = tuple(float(f"{m}e{k}") for k in range(-2, 4) for m in (1, 1.5, 2, 3, 5, 7)) + (
    10_000.0,)
SENS_GRID = tuple(float(f"{m}e{k}") for k in range(-2, 3) for m in (1, 1.5, 2, 3, 5, 7)) + (
    1000.0,)

DEFAULT_EPS, DEFAULT_DELTA, DEFAULT_SENS = 1.0, 1e-5, 1.0
SOLVE_DEFAULT = "sigma"
METHOD_LABELS = {"analytic": N_("analytic (exact)"), "tail": N_("tail bound"),
                 "classical": N_("classical")}
# dpcore.gaussian.calibration_table's names of the calibrations, as the page shows them.
CALIBRATION_NAMES = {"tail": N_("tail bound P(L > ε) ≤ δ"),
                     "classical": N_("classical (Dwork & Roth)"),
                     "analytic": N_("analytic (Balle & Wang, exact)")}


def calibration_name(method: str, name: str) -> str:
    """A calibration's name (dpcore's ``name`` for ``method``) in the reader's language."""
    return t(CALIBRATION_NAMES[method]) if CALIBRATION_NAMES.get(method) == name else name


@dataclass(frozen=True)
class Quantity:
    """One of ε, δ, σ and Δ: its symbol, its row of controls (key, labels, scale) and help."""

    key: str
    symbol: str
    label: str
    number_label: str
    grid: tuple
    min_value: float
    max_value: float
    step: float
    help: str
    slider_format: object = fmt_number


QUANTITIES = {
    "eps": Quantity(
        "gauss_eps", "ε", N_("ε: privacy-loss bound"), N_("exact ε"), EPS_GRID, 0.0, 10_000.0,
        0.1,
        N_("How much one person may change the odds of any outcome: at most a factor e^ε. "
           "Smaller ε, stronger privacy, more noise.")),
    "delta": Quantity(
        "gauss_delta", "δ", N_("δ: failure probability"), N_("exact δ"), DELTA_GRID, 1e-300,
        0.999, 1e-6,
        N_("The probability with which the ε promise may fail. Take it well below 1/n for n "
           "people (10⁻⁵ … 10⁻¹²)."), partial(fmt_sci, digits=1)),
    "sigma": Quantity(
        "gauss_sigma", "σ", N_("σ: noise standard deviation"), N_("exact σ"), SIGMA_GRID, 1e-6,
        1e9, 0.1,
        N_("Standard deviation of the Gaussian noise N(0, σ²) added to the query's answer. "
           "More noise, more privacy, less accuracy.")),
    "sensitivity": Quantity(
        "gauss_sens", "Δ", N_("Δ: L2 sensitivity of the query"), N_("exact Δ"), SENS_GRID, 1e-6,
        1e9, 0.1,
        N_("How far one person can move the query's answer, Δ = max ‖f(D) − f(D′)‖₂ over "
           "neighbouring data sets: 1 for a count, U for a sum of values in [0, U], √2 for a "
           "histogram when one person is replaced.")),
}
# The controls' defaults; σ's is the one solved from the others' (its row is solved first).
DEFAULTS = {"eps": DEFAULT_EPS, "delta": DEFAULT_DELTA, "sensitivity": DEFAULT_SENS,
            "sigma": float(gaussian.gaussian_sigma(DEFAULT_EPS, DEFAULT_DELTA, DEFAULT_SENS))}
MU_HELP = N_("The Gaussian mechanism is exactly μ-GDP with μ = Δ/σ: no test tells D from D′ "
             "better than one tells N(0, 1) from N(μ, 1).")

GDP_EPS_CAP = 1000.0  # the δ(ε) chart's ε axis ends here at the latest (or at 1.5 ε)

# The σ table.
TABLE_EPS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
TABLE_DELTA = (1e-3, 1e-5, 1e-6, 1e-8, 1e-10, 1e-12)

# The release demo.
N_RELEASES = 10_000
SOURCE_LABELS = {k: v for k, v in sources.SOURCE_LABELS.items()  # English (source_label)
                 if k in datasets.POPULATIONS or k == UPLOAD}
TOP_AGE = 85  # the population table's last age: 85 and over
QUERY_LABELS = {"count": N_("a count"), "sum": N_("a sum of clipped values"),
                "histogram": N_("a histogram")}
NEIGHBOUR_LABELS = {"histogram": N_("add or remove one person (Δ = 1)"),
                    "histogram_replace": N_("replace one person (Δ = √2)")}


def source_label(source: str) -> str:
    """The release's data source (a key of SOURCE_LABELS) in the reader's language."""
    return sources.source_label(source)


# ---------------------------------------------------------------------------------------
# The settings
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Release:
    """The release tab's settings, once its data can be released."""

    source: str = "korea"
    n: int | None = 10_000  # people drawn from a built-in population (None for an upload)
    seed: int = DEFAULT_SEED
    column: str | None = None  # the uploaded file's column to release
    file_kind: str | None = None  # the upload's "counts" or "values"
    query: str = "count"
    ages: tuple[int, int] | None = (65, TOP_AGE)  # the age group counted (built-in data)
    upper: float | None = None  # the sum's clipping bound U
    width: int | None = None  # the histogram's age groups (5 or 10 years)
    neighbours: str | None = None  # "histogram" (add or remove) or "histogram_replace"
    code_data: tuple | None = None  # the uploaded data for the view's code (code_data())

    @property
    def uploaded(self) -> bool:
        return self.source == UPLOAD

    @property
    def counts_upload(self) -> bool:
        """An uploaded file of counts (one per row), not of values."""
        return self.uploaded and self.file_kind == "counts"

    @property
    def kind(self) -> str:
        """The query as dpcore.gaussian.query_sensitivity names it."""
        return self.neighbours if self.query == "histogram" else self.query

    def report_items(self) -> dict[str, object]:
        data = source_label(self.source)
        if self.uploaded:
            data = t('{source}, column "{column}"', source=data, column=self.column)
        items = {t("data"): data,
                 t("query"): t(QUERY_LABELS.get(self.kind, QUERY_LABELS["histogram"]))}
        if not self.uploaded:
            items |= {t("people N"): f"{self.n:,}", t("seed"): self.seed}
        if self.kind == "count" and not self.uploaded:
            items[t("age group")] = "{}–{}".format(*self.ages)
        elif self.kind == "sum":
            items[t("clipping bound U")] = fmt_shown(self.upper)
        elif self.kind in NEIGHBOUR_LABELS:
            if not self.counts_upload:
                items[t("age groups")] = t(AGE_BINNINGS[self.width])
            items[t("neighbouring data sets differ by")] = t(NEIGHBOUR_LABELS[self.kind])
        return items


@dataclass(frozen=True)
class Settings:
    """Everything the page's URL holds: what is solved for and how, the three given values
    (the solved one is None: it is a result), the open tab and its controls."""

    tab: str = CALIBRATIONS
    solve: str = SOLVE_DEFAULT
    method: str = "analytic"
    eps: float | None = DEFAULT_EPS
    delta: float | None = DEFAULT_DELTA
    sigma: float | None = None
    sensitivity: float | None = DEFAULT_SENS
    loss_log: bool = True  # the privacy-loss density on a log axis
    release: Release | None = None  # the release tab's, once its data can be released

    def report_items(self) -> dict[str, object]:
        """The settings the report lists: the four values (the solved one as found), then
        those of the open tab."""
        setting, _ = solve(self)
        items = {t("solved for"): QUANTITIES[self.solve].symbol,
                 t("calibration"): t(METHOD_LABELS[self.method])}
        for name, q in QUANTITIES.items():
            if setting is None and name == self.solve:
                items[t(q.label)] = t("no solution")
            else:
                items[t(q.label)] = fmt_shown(getattr(setting or self, name))
        if self.tab == LOSS and setting is not None:
            items[t("privacy-loss density axis")] = t("log scale") if self.loss_log else t("linear")
        if self.release is not None:
            items |= self.release.report_items()
        return items


def solve(s: Settings) -> tuple[gaussian.GaussianSetting | None, str | None]:
    """The complete set from the three given values; or None and why not, in plain words."""
    given = {name: getattr(s, name) for name in QUANTITIES if name != s.solve}
    try:
        return gaussian.solve_gaussian(**given, **{s.solve: None}, method=s.method), None
    except ValueError as exc:
        return None, error_text(exc, SYMBOLS)


@dataclass(frozen=True)
class Solution:
    """The four values as the page uses them: the completed set, or (without a solution)
    the given values and the solved row's last value, with the reason."""

    values: dict
    setting: gaussian.GaussianSetting | None
    problem: str | None = None

    @property
    def complete(self) -> bool:
        return self.setting is not None

    @property
    def eps(self) -> float:
        return self.values["eps"]

    @property
    def delta(self) -> float:
        return self.values["delta"]

    @property
    def sensitivity(self) -> float:
        return self.values["sensitivity"]


BOX_FORMAT = "%.6g"  # the number boxes' format (ui.controls.synced_log_input's default)


def fmt_shown(v: float) -> str:
    """One of ε, δ, σ and Δ written as its number box shows it (six significant digits,
    :data:`BOX_FORMAT`), but as people write numbers: 578,998 (not 578998), 9.024·10⁻⁵ and
    1.0·10⁻⁵ (not 9.024e-05), 3.73063. Every metric, sentence and report setting of the
    four uses it, so none of them reads otherwise than the control beside it."""
    if not math.isfinite(v):
        return fmt_param(v)
    x = as_shown(v, BOX_FORMAT)
    if x == 0:
        return "0"
    if abs(x) < 1e-3 or abs(x) >= 1e9:
        mantissa, exponent = f"{x:.5e}".split("e")
        mantissa = mantissa.rstrip("0")
        mantissa += "0" if mantissa.endswith(".") else ""  # 1.0·10⁻⁵, as fmt_sci writes it
        return times_ten(float(mantissa) * 10.0 ** int(exponent),
                         len(mantissa.split(".")[1]))
    if abs(x) >= 1e4:
        decimals = max(0, 6 - (math.floor(math.log10(abs(x))) + 1))
        text = f"{x:,.{decimals}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    return sig_text(x, 6)


def same_as_shown(a: float, b: float) -> bool:
    """Two values of ε, δ, σ or Δ that read the same (:func:`fmt_shown`): the page treats
    them as one. A value carried through the URL or left by a solution
    (0.9999999999975212) is never called different from the 1 it reads as."""
    return fmt_shown(a) == fmt_shown(b)


def latex_number(v: float, digits: int = 4) -> str:
    """``v`` for LaTeX as people write it: 9.024 \\cdot 10^{-5}, 703{,}500, 0.5 (never
    9.024e-05, which LaTeX would print as it is)."""
    if not math.isfinite(v):
        return r"\infty" if v > 0 else r"-\infty"
    if 1e4 <= abs(v) < 1e9:
        return f"{float(f'{v:.{digits}g}'):,.0f}".replace(",", "{,}")
    text = sig_text(v, digits)
    if "·10" in text:
        mantissa, power = text.split("·10")
        exponent = power.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789"))
        return rf"{mantissa} \cdot 10^{{{int(exponent)}}}"
    return text


def one_person(setting: gaussian.GaussianSetting) -> oneperson.Level:
    """What the release means for one person: the Gaussian mechanism is exactly μ-GDP with
    μ = Δ/σ ([DRS22] Theorem 2.7), read from G_μ; it also meets (ε, δ)-DP, whose δ the
    section says the meaning of."""
    return oneperson.Level(
        risk.Guarantee.gaussian(setting.mu), f"μ = Δ/σ = {fmt_param(setting.mu)}",
        t("The Gaussian mechanism with σ = {sigma} and Δ = {sens} is exactly μ-GDP with "
          "μ = Δ/σ = {mu}: the numbers below are read from G_μ, the tightest description of "
          "this release. It also meets (ε, δ)-DP at ε = {eps}, δ = {delta}.",
          sigma=fmt_shown(setting.sigma), sens=fmt_shown(setting.sensitivity),
          mu=fmt_param(setting.mu), eps=fmt_shown(setting.eps), delta=fmt_shown(setting.delta)),
        also=risk.Guarantee.approximate(setting.eps, setting.delta))


def one_person_comparison(setting: gaussian.GaussianSetting) -> oneperson.Comparison:
    """Compare with another ε at this δ: the Gaussian mechanism calibrated exactly to it."""
    def level(eps: float) -> oneperson.Level:
        mu = float(gaussian.gaussian_mu(eps, setting.delta))
        return oneperson.Level(risk.Guarantee.gaussian(mu), t(
            "ε = {eps} at this δ (μ = {mu})", eps=fmt_param(eps), mu=fmt_param(mu)))
    return oneperson.Comparison(t("Compare with ε (same δ)"), oneperson.EPS_GRID, 10.0, level)


def fmt_quantity(name: str, v: float, digits: int = 5) -> str:
    """ε, δ, σ or Δ as the results show it: as its control shows it (:func:`fmt_shown`).
    ``name`` and ``digits`` are kept for callers; the control's precision decides."""
    return fmt_shown(v)


def fmt_answer(v: float) -> str:
    """A query's true or released answer: six significant digits, thousands separated,
    never in e-notation (4,123,460, not 4.12346e+06; 1,575.59)."""
    if not math.isfinite(v):
        return fmt_param(v)
    if 1e4 <= abs(v) < 1e15:
        return f"{float(f'{v:.6g}'):,.0f}"
    text = sig_text(v, 6)
    if "·10" not in text and abs(v) >= 1000:
        whole, _, decimals = text.partition(".")
        return f"{int(whole):,}" + (f".{decimals}" if decimals else "")
    return text


_E_NUMBER = re.compile(r"(\d+(?:\.\d+)?)[eE]([+\-−]?\d+)")


def without_e_notation(text: str) -> str:
    """``text`` with every number in e-notation written as people write it: "δ = 1e-05" as
    "δ = 1·10⁻⁵" (for labels built elsewhere, e.g. dpviz.fdp's legend of the δ(ε) curve)."""
    def power(m: re.Match) -> str:
        exponent = int(m.group(2).replace("−", "-"))
        return f"{m.group(1)}·10{str(exponent).translate(str.maketrans('-0123456789', '⁻⁰¹²³⁴⁵⁶⁷⁸⁹'))}"
    return _E_NUMBER.sub(power, text)


def fmt_pct_change(v: float) -> str:
    """A relative change in percent to one decimal, never in e-notation: 12.3%, 0.0%."""
    return f"{100 * v:,.1f}%"


def result_metrics(s: Settings, sol: Solution) -> list[tuple[str, str, float | None]]:
    """(label, shown, value) of ε, δ, σ and Δ as the results show them, then μ; the value
    is None where there is none (no solution)."""
    out = []
    for name, q in QUANTITIES.items():
        solved = name == s.solve
        if sol.setting is None and solved:
            out.append((t("{symbol}: no solution", symbol=q.symbol), "—", None))
        else:
            out.append((t("{symbol} (solved)", symbol=q.symbol) if solved else q.symbol,
                        fmt_quantity(name, sol.values[name]), sol.values[name]))
    # μ to the digits every sentence, metric and chart of the page gives it (issue 36: the
    # metrics said 0.26805 here and 0.2681 on the μ-GDP tab)
    out.append((t("μ = Δ/σ"), fmt_param(sol.setting.mu) if sol.setting else "—",
                sol.setting.mu if sol.setting else None))
    return out


def gdp_delta_label(setting: gaussian.GaussianSetting) -> str:
    return t("δ(ε) at ε = {eps}", eps=fmt_shown(setting.eps))


def query_eps_label(setting: gaussian.GaussianSetting) -> str:
    return t("ε for this query at δ = {delta}", delta=fmt_shown(setting.delta))


def code_data(r: Release, table: pd.DataFrame | None) -> tuple | None:
    """The uploaded data of a release as the view's code embeds it: ("counts", counts,
    labels) or ("values", values); None for a built-in population."""
    if not r.uploaded:
        return None
    if r.counts_upload:
        return ("counts", *uploaded_counts(r, table))
    return ("values", table[r.column].dropna().to_numpy())


TAB_CODES = dict(zip(TABS, dpcode.gaussian.TABS))


def code_builder(s: Settings, setting: gaussian.GaussianSetting):
    """The view's code (dpcode.gaussian) for the kit's Code button: link -> Program."""
    r = s.release
    release = same = None
    if r is not None:
        release = dpcode.gaussian.ReleaseCode(
            source=r.source, n=r.n, seed=r.seed, kind=r.kind, ages=r.ages, upper=r.upper,
            width=r.width, data=r.code_data)
        same = same_as_shown(gaussian.query_sensitivity(r.kind, upper=r.upper),
                             setting.sensitivity)

    def build(link: str) -> dpcode.Program:
        return dpcode.gaussian.program(
            given={name: getattr(s, name) for name in QUANTITIES if name != s.solve},
            solve=s.solve, method=s.method, tab=TAB_CODES[s.tab],
            labels={"gdp_delta": gdp_delta_label(setting),
                    "query_eps": query_eps_label(setting)},
            release=release, same_sensitivity=bool(same), eps_cap=GDP_EPS_CAP,
            table_eps=TABLE_EPS, table_delta=TABLE_DELTA, link=link, title=t(TITLE))
    return build


def plain_sentence(setting: gaussian.GaussianSetting) -> tuple[str, str]:
    """What the completed set means (Markdown), and the report's verdict."""
    s = setting
    values = dict(sigma=fmt_shown(s.sigma), sens=fmt_shown(s.sensitivity), eps=fmt_shown(s.eps),
                  delta=fmt_shown(s.delta), mu=fmt_param(s.mu),
                  power=latex_number(s.eps) if s.eps < 1e4 else r"\varepsilon",
                  what=t("a count") if same_as_shown(s.sensitivity, 1.0) else t("a query"))
    sentence = t(
        "**In plain words.** Adding Gaussian noise with σ = {sigma} to a query that one person "
        "can change by at most Δ = {sens} makes the release ({eps}, {delta})-differentially "
        "private: whatever one person's data, no set of outcomes becomes more than "
        "$e^{{{power}}}$ times more likely, except with probability δ = {delta}. It is μ-GDP "
        "with μ = Δ/σ = {mu}: telling whether one person is in the data is as hard as telling "
        "$N(0, 1)$ from $N({mu}, 1)$.", **values)
    verdict = t("With σ = {sigma}, the release of {what} of sensitivity Δ = {sens} is ({eps}, "
                "{delta})-DP, and μ-GDP with μ = Δ/σ = {mu}.", **values)
    if s.method != "analytic" and 0 < s.delta < 1:
        exact = float(gaussian.gaussian_delta(s.eps, s.sigma, s.sensitivity))
        values = dict(method=t(METHOD_LABELS[s.method]), exact=fmt_shown(exact))
        # One more whole sentence, one per relation of the exact δ to the δ given.
        if same_as_shown(exact, s.delta):
            more = t("Solved with the {method} calibration; the exact δ at this σ and ε is "
                     "{exact}, the same.", **values)
        elif exact < s.delta:
            more = t("Solved with the {method} calibration; the exact δ at this σ and ε is "
                     "{exact}, smaller: this calibration over-protects.", **values)
        else:
            more = t("Solved with the {method} calibration; the exact δ at this σ and ε is "
                     "{exact}, larger: this is not a guarantee.", **values)
        sentence, verdict = f"{sentence} {more}", f"{verdict} {more}"
    return sentence, verdict


def classical_results_texts(eps: float) -> tuple[str, str]:
    """The classical formula at ε ≥ 1: the report's note, and the page's warning."""
    return (t("Not a guarantee: the classical formula σ = Δ√(2 ln(1.25/δ))/ε is proved for "
              "ε < 1 only; at ε = {eps} it may give less noise than (ε, δ)-DP needs.",
              eps=fmt_shown(eps)),
            t("**Not a guarantee.** The classical formula σ = Δ√(2 ln(1.25/δ))/ε is proved for "
              "ε < 1 only; at ε = {eps} it may give less noise than (ε, δ)-DP needs. See the "
              "exact δ below, or use the analytic calibration.", eps=fmt_shown(eps)))


# ---------------------------------------------------------------------------------------
# 1. Three calibrations
# ---------------------------------------------------------------------------------------


def calibration_notes(table: pd.DataFrame, eps: float) -> pd.DataFrame:
    """``gaussian.calibration_table(eps, …)`` with a note on each calibration without a
    guarantee.

    dpcore notes only why a calibration has no solution; a classical σ computed at
    ε ≥ ``CLASSICAL_MAX_EPS`` (``valid`` False, no note) gets the reason here.
    """
    out = table.copy()
    out["name"] = [calibration_name(m, n) for m, n in zip(out["method"], out["name"])]
    unproved = (out["method"] == "classical") & ~out["valid"].astype(bool) & (out["note"] == "")
    # dpcore's refusals, said in the reader's language with the page's symbols.
    out["note"] = [error_words(note, SYMBOLS) if isinstance(note, ArgumentError) else note
                   for note in out["note"]]
    out.loc[unproved, "note"] = t("not a guarantee: the classical formula is proved for "
                                  "ε < {max} only (here ε = {eps})",
                                  max=fmt_param(CLASSICAL_MAX_EPS), eps=fmt_shown(eps))
    return out


def calibrations(eps: float, delta: float, sens: float) -> pd.DataFrame:
    """The σ of each calibration at (ε, δ, Δ), with its notes (raises ValueError)."""
    return calibration_notes(gaussian.calibration_table(eps, delta, sens), eps)


def extra_noise_caption(row) -> str:
    """How a calibration's σ compares with the exact one, in noise and in data."""
    values = dict(extra=fmt_pct_change(abs(row.extra_noise)),
                  ratio=fmt_sig(row.variance_ratio, 3))
    if row.extra_noise >= 0:
        return t("{extra} more noise; {ratio}× the variance, so {ratio}× as much "
                 "data for the same accuracy.", **values)
    return t("{extra} less noise; {ratio}× the variance, so {ratio}× as much data "
             "for the same accuracy.", **values)


def tail_bound_texts(exact_sigma: float, tail) -> tuple[str, str]:
    """The tail bound's σ against the exact one: the finding, and the page's paragraph."""
    values = dict(exact=fmt_shown(exact_sigma), sigma=fmt_shown(tail.sigma),
                  extra=fmt_pct_change(tail.extra_noise), ratio=fmt_sig(tail.variance_ratio, 3))
    finding = t("The exact (analytic) calibration needs σ = {exact}; the tail bound asks for "
                "{sigma}, {extra} more noise ({ratio}× the data for the same "
                "accuracy).", **values)
    paragraph = t("**The tail bound is sufficient, not necessary.** Asking P(L > ε) ≤ δ "
                  "protects, but over-protects: it wants σ = {sigma}, {extra} more noise "
                  "than the exact {exact}. Noise variance grows {ratio}×: the same accuracy "
                  "would need {ratio}× as many people.", **values)
    return finding, paragraph


def classical_texts(eps: float, classical) -> tuple[str, str]:
    """The classical σ beyond ε < 1: the report's note, and the page's warning."""
    values = dict(eps=fmt_shown(eps), sigma=fmt_shown(classical.sigma))
    note = t("Classical formula: not a guarantee at ε = {eps}; σ = Δ√(2 ln(1.25/δ))/ε = {sigma} "
             "is proved for ε < 1 only.", **values)
    verdict = (t("It is even below the exact σ: that mechanism would **not** be (ε, δ)-DP.")
               if classical.ratio < 1 else
               t("Here it happens to lie above the exact σ, but nothing proves that in "
                 "general."))
    warning = t("**Classical formula: not a guarantee at ε = {eps}.** σ = Δ√(2 ln(1.25/δ))/ε = "
                "{sigma} is proved for ε < 1 only. ", **values) + verdict
    return note, warning


# The three calibrations' table: its CSV's column names, and its headers as shown.
CALIBRATION_COLUMNS = {"calibration": N_("calibration"), "σ": N_("σ"),
                       "× the exact σ": N_("× the exact σ"),
                       "extra noise (%)": N_("extra noise (%)"),
                       "variance factor (data needed)": N_("variance factor (data needed)"),
                       "guarantee": N_("guarantee"), "note": N_("note")}


def calibration_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The three calibrations as the page's table (and its CSV) shows them; the page heads
    its columns with :func:`calibration_headers`."""
    return pd.DataFrame(dict(zip(CALIBRATION_COLUMNS, (
        table["name"], table["sigma"], table["ratio"], 100 * table["extra_noise"],
        table["variance_ratio"], [t("yes") if v else t("no") for v in table["valid"]],
        [plain(n, SYMBOLS) for n in table["note"]]))))


def calibration_headers() -> dict[str, str]:
    """The calibrations table's headers in the reader's language, by column."""
    return {column: t(label) for column, label in CALIBRATION_COLUMNS.items()}


# ---------------------------------------------------------------------------------------
# 2. The privacy-loss distribution, 3. as μ-GDP
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrivacyLoss:
    """The privacy loss L ~ N(mean, var), P(L > ε) and the exact δ(ε)."""

    mean: float
    var: float
    tail: float
    exact: float


def privacy_loss(s: gaussian.GaussianSetting) -> PrivacyLoss:
    mean, var = gaussian.privacy_loss_moments(s.sigma, s.sensitivity)
    return PrivacyLoss(mean, var,
                       float(gaussian.gaussian_delta(s.eps, s.sigma, s.sensitivity,
                                                     method="tail")),
                       float(gaussian.gaussian_delta(s.eps, s.sigma, s.sensitivity,
                                                     method="analytic")))


def privacy_loss_texts(s: gaussian.GaussianSetting, loss: PrivacyLoss) -> tuple[str, str]:
    """P(L > ε) against the exact δ: the finding, and the page's paragraph."""
    ratio = (t("{ratio} times", ratio=fmt_sig(loss.tail / loss.exact, 3)) if loss.exact > 0
             else t("infinitely many times"))
    values = dict(eps=fmt_shown(s.eps), tail=fmt_sci(loss.tail), exact=fmt_sci(loss.exact),
                  ratio=ratio)
    finding = t("The privacy loss exceeds ε = {eps} with probability {tail}, but the mechanism "
                "is (ε, δ)-DP already with δ = {exact}, {ratio} smaller: reading δ as "
                "P(L > ε) over-states it.", **values)
    paragraph = t(
        "At ε = {eps}, the loss exceeds ε with probability **{tail}**, but the mechanism is "
        "(ε, δ)-DP already with δ = **{exact}**, {ratio} smaller. An output whose loss is just "
        "above ε breaks the promise only a little; the definition charges it only that excess, "
        "$1 - e^{{\\varepsilon - L}}$, not all of it. Reading δ as $P(L > \\varepsilon)$, as "
        "{source} does, is sufficient but over-states δ.", source=t(DR14_TAIL), **values)
    return finding, paragraph


@dataclass(frozen=True)
class PrivacyCurve:
    """δ(ε) of μ-GDP on an ε axis, the calibrations' δ beside it, and δ at the page's ε."""

    eps_line: np.ndarray
    delta_line: np.ndarray
    others: list  # the analytic calibration's markers and the tail bound's curve
    exact: float


def privacy_curve(s: gaussian.GaussianSetting) -> PrivacyCurve:
    # ε from 0 to where δ(ε) is about 10⁻¹² (at most GDP_EPS_CAP), and past the page's ε.
    reach = float(gaussian.gaussian_epsilon(1e-12, s.sigma, s.sensitivity))
    eps_max = max(min(reach, GDP_EPS_CAP), 1.5 * s.eps, 1.0)
    eps_line = np.linspace(0.0, eps_max, 400)
    eps_points = np.linspace(0.0, eps_max, 15)
    others = [
        dict(name=t("analytic calibration δ(ε) at σ, Δ"), eps=eps_points,
             delta=gaussian.gaussian_delta(eps_points, s.sigma, s.sensitivity),
             color=CALIBRATION_COLORS["analytic"], mode="markers"),
        dict(name=t("tail bound P(L > ε)"), eps=eps_line,
             delta=gaussian.gaussian_delta(eps_line, s.sigma, s.sensitivity, method="tail"),
             color=CALIBRATION_COLORS["tail"], dash="dash"),
    ]
    return PrivacyCurve(eps_line, fdp.gdp_delta(eps_line, s.mu), others,
                        float(gaussian.gaussian_delta(s.eps, s.sigma, s.sensitivity)))


# ---------------------------------------------------------------------------------------
# 4. Releasing a statistic
# ---------------------------------------------------------------------------------------


class Unreleasable(ValueError):
    """Data that cannot be released; the message says why, ready to show."""


@dataclass(frozen=True)
class Data:
    """What is released: the true answer of a count or sum, or a histogram's counts."""

    true_value: float | None = None
    labels: list | None = None
    counts: np.ndarray | None = None


def uploaded_counts(r: Release, table: pd.DataFrame) -> tuple[np.ndarray, list[str]]:
    """The counts of an uploaded file of counts and their labels (its first column of labels,
    else 1 … m); ValueError for an unusable column."""
    counts = uploads.counts_from_column(table[r.column], name=None)  # dpcore's
    labels = ([str(v) for v in table.index] if not isinstance(table.index, pd.RangeIndex)
              else [str(j) for j in range(1, len(counts) + 1)])
    return counts, labels


def release_data(r: Release, table: pd.DataFrame | None, rng) -> Data:
    """The data of the release and its true answer. Draws the people of a built-in
    population from ``rng`` (which the release's noise then continues)."""
    try:
        if not r.uploaded:
            probs = datasets.proportions(datasets.age_histogram(r.source, 1).to_numpy())
            by_age = datasets.draw_histogram(probs, r.n, rng=rng)
            ages = np.arange(by_age.size)
        elif r.counts_upload:
            counts, labels = uploaded_counts(r, table)
        else:
            values = table[r.column].dropna().to_numpy()
            if values.size == 0:
                raise uploads.UploadError(N_('Column "{column}" has no values.'),
                                             column=r.column)
    except ValueError as exc:
        raise Unreleasable(t("This data cannot be released: {why}",
                             why=error_text(exc, SYMBOLS))) from exc
    if r.kind == "count":
        if not r.uploaded:
            lo, hi = r.ages
            return Data(true_value=float(by_age[lo:hi + 1].sum()))
        return Data(true_value=float(counts.sum()) if r.counts_upload else float(values.size))
    if r.kind == "sum":
        return Data(true_value=gaussian.clipped_sum(ages, r.upper, weights=by_age)
                    if not r.uploaded else gaussian.clipped_sum(values, r.upper))
    if not r.uploaded:
        return Data(labels=datasets.age_bin_labels(r.width),
                    counts=datasets.regroup_ages(by_age, r.width))
    if not r.counts_upload:
        if np.any(values < 0):
            raise Unreleasable(t('Column "{column}" has a negative value ({value}); a '
                                 "histogram of ages needs values of 0 or more.",
                                 column=r.column, value=fmt_answer(values.min())))
        return Data(labels=datasets.age_bin_labels(r.width),
                    counts=datasets.bin_values(values, width=r.width).astype(float))
    return Data(labels=labels, counts=counts)


def query_words(r: Release, name=esc) -> str:
    """The count or sum released, in words; ``name`` writes the column's name (esc for
    Markdown, str for the report)."""
    if r.kind == "count":
        if r.uploaded:
            return t("people in your file")
        lo, hi = r.ages
        return (t("people aged {lo}–{hi}", lo=lo, hi=hi) if hi < TOP_AGE
                else t("people aged {lo} and over", lo=lo))
    if r.uploaded:
        return t('the sum of "{column}" clipped to [0, {upper}]', column=name(r.column),
                 upper=fmt_shown(r.upper))
    return t("the sum of ages clipped to [0, {upper}]", upper=fmt_shown(r.upper))


def query_epsilon(setting: gaussian.GaussianSetting, q_sens: float,
                  method: str) -> tuple[float, float | None]:
    """The query's ε at the page's σ and δ by the page's calibration, and (for the tail
    bound and the classical formula) the exact analytic ε beside it, else None.

    A query whose Δ reads as the page's Δ (:func:`same_as_shown`) gets the page's ε itself.
    The ε of a tail-bound or classical σ is computed with that calibration, as the page's
    ε is: the exact ε of such a σ is smaller, 0 at a tiny ε (the tail bound at ε = 10⁻⁴,
    δ = 10⁻⁵ over-protects so much that the exact δ(0) is below δ), and printed alone as
    "this release is (0, δ)-DP" it contradicted the page's ε > 0. Raises ValueError."""
    if same_as_shown(q_sens, setting.sensitivity):
        q_eps = setting.eps
    else:
        q_eps = float(gaussian.gaussian_epsilon(setting.delta, setting.sigma, q_sens,
                                                method=method))
    exact = (None if method == "analytic" else
             float(gaussian.gaussian_epsilon(setting.delta, setting.sigma, q_sens)))
    return q_eps, exact


def exact_query_caption(method: str, exact: float) -> str:
    """The exact ε beside the query's ε of a tail-bound or classical σ."""
    if exact == 0:
        return t("That ε comes from the {method} calibration, as the page's does. The exact "
                 "(analytic) ε of this σ is 0: with this much noise the release is even "
                 "(0, δ)-DP, at the same δ.", method=t(METHOD_LABELS[method]))
    return t("That ε comes from the {method} calibration, as the page's does; the exact "
             "(analytic) ε of this σ is {exact}.", method=t(METHOD_LABELS[method]),
             exact=fmt_shown(exact))


def other_sensitivity_text(q_sens: float, setting: gaussian.GaussianSetting) -> str:
    """A query whose Δ reads otherwise than the page's: why its ε is not the page's."""
    values = dict(q=fmt_shown(q_sens), page=fmt_shown(setting.sensitivity),
                  eps=fmt_shown(setting.eps))
    if setting.solved == "sensitivity":
        return t("This query's sensitivity is Δ = {q}, not the Δ = {page} found above, so its "
                 "ε differs from the page's ε = {eps}.", **values)
    return t("This query's sensitivity is Δ = {q}, not the Δ = {page} set above, so its ε "
             "differs from the page's ε = {eps}.", **values)


def guarantee_finding(r: Release, sigma: float, q_sens: float, q_eps: float,
                      delta: float) -> str:
    return t("Releasing {query} with σ = {sigma} (query sensitivity Δ = {sens}) is ({eps}, "
             "{delta})-DP.", query=t(QUERY_LABELS.get(r.kind, "a histogram")),
             sigma=fmt_shown(sigma), sens=fmt_shown(q_sens), eps=fmt_shown(q_eps),
             delta=fmt_shown(delta))


@dataclass(frozen=True)
class ScalarRelease:
    """N_RELEASES releases of one true answer, their exact and their simulated error."""

    releases: np.ndarray
    summary: gaussian.ReleaseSummary
    simulated: gaussian.SimulatedError


def scalar_release(true_value: float, sigma: float, rng) -> ScalarRelease:
    releases = gaussian.release(true_value, sigma, size=N_RELEASES, rng=rng)
    summary = gaussian.release_summary(true_value, sigma)
    return ScalarRelease(releases, summary, gaussian.summarise_releases(
        releases, true_value, half_width=summary.half_width))


def scalar_finding(what: str, true_value: float, rel: ScalarRelease) -> str:
    return t("The true answer ({what}) is {true}; one release gives {first}, and 95% "
             "of releases fall within ± {half} (RMSE σ = {rmse}).", what=what,
             true=fmt_answer(true_value), first=fmt_answer(rel.releases[0]),
             half=fmt_param(rel.summary.half_width), rmse=fmt_shown(rel.summary.rmse))


def histogram_finding(labels, sigma: float, summary, released) -> str:
    return t("Each of the {n} counts gets N(0, σ²) noise, σ = {sigma}: {expected} bins are "
             "expected below 0, {negative} in this release.", n=len(labels),
             sigma=fmt_shown(sigma), expected=fmt_sig(summary.expected_negative, 3),
             negative=int(np.sum(released < 0)))


# ---------------------------------------------------------------------------------------
# 5. The σ table
# ---------------------------------------------------------------------------------------


@counted(st.cache_data(max_entries=16, show_spinner=False))
def sigma_table(sensitivity: float) -> pd.DataFrame:
    return gaussian.sigma_table(TABLE_EPS, TABLE_DELTA, sensitivity=sensitivity)


def sigma_pivot(table: pd.DataFrame) -> pd.DataFrame:
    """The exact σ with ε in rows and δ in columns."""
    pivot = table.pivot(index="eps", columns="delta", values="sigma_analytic")
    pivot = pivot[list(TABLE_DELTA)]
    pivot.columns = [t("δ = {delta}", delta=fmt_sci(d)) for d in pivot.columns]
    pivot.index = [t("ε = {eps:g}", eps=e) for e in pivot.index]
    return pivot


def written(frame: pd.DataFrame, columns, fmt) -> pd.DataFrame:
    """``frame`` with ``columns`` written by ``fmt`` (as text): what a table shows, never in
    e-notation; its CSV keeps the numbers."""
    out = frame.copy()
    for c in columns:
        out[c] = [fmt(float(v)) for v in frame[c]]
    return out


# The σ table's columns as its CSV names them, and their headers as shown.
SIGMA_COLUMNS = {"eps": "ε", "delta": "δ", "sigma_analytic": N_("σ analytic"),
                 "sigma_tail": N_("σ tail bound"), "sigma_classical": N_("σ classical"),
                 "classical_valid": N_("classical valid (ε < 1)"),
                 "tail_over_analytic": N_("tail / analytic"),
                 "classical_over_analytic": N_("classical / analytic")}


def sigma_full(table: pd.DataFrame) -> pd.DataFrame:
    """All three calibrations, one row per (ε, δ), columns named as its CSV names them
    (the page heads them with :func:`sigma_headers`)."""
    return table.rename(columns=SIGMA_COLUMNS)


def sigma_headers() -> dict[str, str]:
    """The σ table's headers in the reader's language, by column (ε and δ as they are)."""
    return {name: t(name) for key, name in SIGMA_COLUMNS.items() if key not in ("eps", "delta")}


# ---------------------------------------------------------------------------------------
# Try this: guided experiments (ui.kit.PageKit.try_this)
# ---------------------------------------------------------------------------------------

EXPERIMENTS = (
    Experiment(
        N_("Ask for δ = 10⁻¹² and watch σ grow only like √log(1/δ)"),
        N_("δ is ten million times smaller than the default 10⁻⁵, yet σ (solved) grows only from "
           "3.73063 to 6.55782, not even twice as much noise: σ grows like √(2 ln(1/δ)), so a "
           "tiny δ is cheap."),
        {"gauss_delta": "1e-12"}),
    Experiment(
        N_("Switch to the classical calibration at ε = 10 and see it promise what it cannot keep"),
        N_("The classical σ = Δ√(2 ln(1.25/δ))/ε = 0.484481 is proved for ε < 1 only. Here it is "
           "below the exact σ 0.499889: the exact δ at this σ is 2.3·10⁻⁵, larger than the "
           "10⁻⁵ asked for, so the release is not (10, 10⁻⁵)-DP (see the warning and the plain "
           "words)."),
        {"gauss_method": METHOD_LABELS["classical"], "gauss_eps": "10"}),
)
