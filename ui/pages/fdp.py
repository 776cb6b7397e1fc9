"""The page "f-DP and Gaussian DP" (views/fdp.py) without its layout: its settings, the
curves and numbers it computes from them, and its sentences and tables.

Every function here is a function of the page's :class:`Settings` (or of plain values
taken from them): the view reads the controls into a ``Settings`` and draws what these
return. Dong, Roth & Su (2022), *Gaussian differential privacy*, JRSSB 84.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

import dpcode
import dpcode.fdp
import dpviz
from dpcore import audit, fdp, risk
from ui import notation, oneperson, registry
from ui.cache import counted
from ui.controls import DEFAULT_SEED
from ui.format import fmt_delta, fmt_pct, fmt_prob, fmt_sig
from ui.kit import Experiment
from ui.links import FdpParams
from ui.text import N_, esc, t

COLORS = dpviz.fdp.FDP_COLORS
TITLE = N_("f-DP and Gaussian DP")

# Every curve of the page is evaluated on this grid of type-I errors.
ALPHA = np.linspace(0.0, 1.0, 1000)
FAIL_TOL = 1e-9  # a curve fails a target where it lies this far below it

# k-RR's exact polygon loses its smallest type-II errors to rounding beyond e^eps ~ 1e15
# (see the notes on dpcore.fdp.tradeoff_discrete): its slider stops at 20.
KRR_EPS_GRID = (0.0, *FdpParams.KRR_EPS_GRID)
EPS_GRID = (*KRR_EPS_GRID, 30.0, 40.0, 50.0)
DELTA_GRID = (0.0, 1e-12, 1e-10, 1e-8, 1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.02, 0.05, 0.1, 0.2)
SCALE_GRID = (0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0,
              6.0, 8.0, 10.0)
# The target δ of the conversion to μ: 1, 2 and 5 times each power of ten, 10⁻¹² to 0.5
# (a select slider that writes δ as 2·10⁻⁶, where a number box wrote 2e-06).
INV_DELTA_GRID = tuple(float(f"{m}e-{k}") for k in range(12, 0, -1) for m in (1, 2, 5)) + (
    0.2, 0.5)
GAMMA_GRID = FdpParams.RS_GAMMA_GRID
REPS_GRID = (100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000)
# The attacker's type-I error α (one control: the sentence and the threshold test use it).
SAY_ALPHA_GRID = (0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
# The URL parameter of the attacker's threshold slider of earlier versions of the page: the
# threshold now follows α, and a link that carries t opens at the α nearest to its test's.
LEGACY_THRESHOLD = "fdp_t"


def alpha_from_threshold(family: str, text: str) -> tuple[float | None, str]:
    """An earlier link's threshold ``text`` as the step of SAY_ALPHA_GRID nearest (in log
    scale) to its test's type-I error, and a sentence saying so; for a t that is not a finite
    number, None and a sentence saying it was left out."""
    from ui.links import nearest_on_grid

    try:
        threshold = float(text)
    except ValueError:
        threshold = float("nan")
    if not np.isfinite(threshold):
        return None, t("This link set the attacker's threshold t = {t}, which is not a number: "
                       "it was left out (the threshold now follows α).", t=esc(text))
    alpha = float(audit.threshold_test(family, 0.0, threshold)[0])
    nearest = float(nearest_on_grid(alpha, SAY_ALPHA_GRID))
    return nearest, t(
        "This link set the attacker's threshold t = {t}, a control the page no longer has "
        "(the threshold now follows α). Its test's α = {alpha}; the link opens at the "
        "nearest α on the slider, {nearest}.", t=f"{threshold:g}", alpha=fmt_pct(alpha),
        nearest=fmt_pct(nearest))


def threshold_dropped(family: str, text: str) -> str:
    """The note for an earlier link that set both α and the threshold t: α is used, and the
    threshold follows it (the two were separate controls then)."""
    alpha, note = alpha_from_threshold(family, text)
    if alpha is None:
        return note
    exact = float(audit.threshold_test(family, 0.0, float(text))[0])
    return t("This link also set the attacker's threshold t = {t} (α = {alpha}), a control "
             "the page no longer has: the threshold now follows the link's α.",
             t=f"{float(text):g}", alpha=fmt_pct(exact))
MU_STEP, MU_MAX = FdpParams.MU_STEP, FdpParams.MU_MAX  # every μ slider: 0 … 5 by 0.05
# The shift of "In plain words" for the Laplace outputs: ε up to 10, the compare and k-RR
# pages' largest ε (μ keeps 0 … 5).
LAPLACE_EPS_MAX = 10.0


def shift_max(family: str) -> float:
    """The largest shift of "In plain words" for ``family``'s outputs."""
    return MU_MAX if family == "gaussian" else LAPLACE_EPS_MAX
K_MAX = FdpParams.K_MAX  # categories of k-RR and random substitution: 2 … 100
AUDIT_CHUNK = 10_000  # draws per input between two updates of the progress bar
AUDIT_LEVELS = (0.01, 0.05, 0.1, 0.25, 0.5)
MAX_PLOTTED = 2000  # points of an empirical curve drawn (all are used for the numbers)

TAB_KEY = FdpParams.TAB  # the open tab's widget key and URL parameter
TABS = ATTACKER, CURVES, GROUP, COMPOSITION, CONVERSIONS, AUDITOR = (
    N_("The attacker's test"), FdpParams.CURVES_TAB, N_("Group privacy"), N_("Composition"),
    N_("Conversions"), N_("An auditor's view"))

# The page's introduction: the attacker's test, and what α and β mean here (said once).
INTRO = N_(
    "Differential privacy can be read as a promise about an **attacker's hypothesis test**. "
    "The attacker sees the output of a mechanism and must decide: was it run on the data "
    "set D, or on D′, the same data with one person changed? Any decision rule makes two "
    "kinds of mistakes, a false accusation (type-I error α) and a miss (type-II error β). "
    "On this page, as in Dong, Roth & Su (2022), α and β are the type-I and type-II errors "
    "of the attacker's test (not the privacy level: that is ε or μ). A mechanism is "
    "**f-DP** when no test can have β below f(α): the **trade-off curve** f *is* the privacy "
    "guarantee. The Gaussian curves G_μ give one number, μ, that puts every mechanism on "
    "one scale (Dong, Roth & Su 2022, *Gaussian differential privacy*, JRSSB 84).")
# Labels that name a source's own symbol (said once, where the quantity first appears): in
# English here, in the reader's language from rs_categories_label and hist_level_label.
RS_CATEGORIES_LABEL = f"categories k (N in {notation.KLH09})"
HIST_LEVEL_LABEL = f"Privacy level ε (α in {notation.SPJ22}) of the histogram"


def rs_categories_label() -> str:
    """The label of random substitution's categories k, with the source's N."""
    return t("categories k {note}", note=notation.in_source("N", notation.KLH09))


def hist_level_label() -> str:
    """The label of the private histogram's privacy level, with the source's α."""
    return t("Privacy level {eps} of the histogram", eps=notation.privacy_level())

# Guided experiments ("Try this"): URL values as the widgets write them.
EXPERIMENTS = (
    Experiment(
        N_("Compose 10 releases of (1, 0)-DP and compare them with 10 releases of 1-GDP"),
        N_("Ten (1, 0)-DP releases compose to a curve within 0.075 of Gaussian DP with "
           "μ = 2√10·tanh(1/2) ≈ 2.923 (the central limit theorem), far above the textbook "
           "(10, 0)-DP curve; ten 1-GDP releases compose to exactly √10 ≈ 3.162-GDP."),
        {TAB_KEY: "Composition", "fdp_comp_n": "10", "fdp_comp_eps": "1", "fdp_comp_mu": "1"}),
    Experiment(
        N_("Set μ = 1 and read the attacker's best β at α = 5%"),
        N_("An attacker who may accuse wrongly 5% of the time still misses 74% of the time "
           "(β = 0.7405): a 1-GDP release hides one person well against this attacker. Move μ "
           "up to 3 and watch β fall."),
        {"fdp_mu": "1", "fdp_say_alpha": "5%"}),
)
PAGE_SPEC = registry.FDP

# Option labels of the radios (a link writes the label).
FAMILY_LABELS = {"gaussian": N_("Gaussian: N(0,1) vs N(μ,1)"),
                 "laplace": N_("Laplace: Lap(0,1) vs Lap(ε,1)")}
# Labels in words; links made earlier carry raw notation (links.EARLIER_LABELS).
TARGET_LABELS = {"gdp": N_("μ*-GDP"), "epsdelta": N_("(ε*, δ*)-DP")}
GROUP_CURVE_LABELS = {"laplace": N_("Laplace, Lap(0,1) vs Lap(ε,1)"),
                      "epsdp": N_("(ε, 0)-DP (any ε-DP mechanism)")}
MECHANISM_LABELS = {"gaussian": N_("Gaussian"), "laplace": N_("Laplace"), "krr": N_("k-RR")}

# The columns of the curves' table and of the auditor's table (also their CSV columns, in
# English; the page heads them with t()).
CURVE, TIGHTEST_MU, SMALLEST_EPS, MEETS = (N_("curve"), N_("tightest μ"), N_("smallest ε at δ"),
                                           N_("meets the target"))
LEVEL, BETA_HAT, BETA_EXACT, SPREAD, MU_IMPLIED = (N_("α"), N_("β̂ (empirical)"),
                                                   N_("β (exact)"), N_("sd of β̂"),
                                                   N_("μ implied by β̂"))
AUDIT_REPEATS = 400  # simulated audits behind k-RR's sd of β̂ (relative error about 3.5 %)


# ---------------------------------------------------------------------------------------
# The settings
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """Everything the page's URL holds: each control's value, the seed and the open tab.

    A field's default is its control's default; its widget key is :func:`key` of its name.
    Only the open tab's controls are read; the others keep their defaults here.
    """

    tab: str = ATTACKER
    # In plain words (above the tabs): the two outputs, their shift, the α of the sentence.
    family: str = "gaussian"
    mu: float = 1.0
    say_alpha: float = 0.05
    # 2. Trade-off curves: each curve on or off, with its parameters; the target.
    show_g: bool = True
    g_mu: float = 0.5
    show_ed: bool = True
    ed_eps: float = 1.0
    ed_delta: float = 0.0
    show_gauss: bool = True
    gauss_sigma: float = 1.5
    gauss_sens: float = 1.0
    show_lap: bool = True
    lap_b: float = 1.0
    lap_sens: float = 1.0
    show_krr: bool = True
    krr_eps: float = 1.0
    krr_k: int = 4
    show_rs: bool = False
    rs_gamma: float = 3.0
    rs_n: int = 10
    show_hist: bool = False
    hist_alpha: float = 0.5
    target: str = "gdp"
    target_mu: float = 1.0
    target_eps: float = 1.0
    target_delta: float = 1e-5
    table_delta: float = 1e-5
    # 3. Group privacy.
    group_k: int = 3
    group_mu: float = 0.5
    group_curve: str = "laplace"
    group_eps: float = 0.5
    # 4. Composition.
    comp_n: int = 10
    comp_mu: float = 0.5
    comp_eps: float = 0.5
    # 5. Conversions.
    conv_mu: float = 1.0
    conv_eps: float = 1.0
    inv_eps: float = 1.0
    inv_delta: float = 1e-5
    # 6. An auditor's view.
    aud_mech: str = "gaussian"
    aud_sigma: float = 1.0
    aud_b: float = 1.0
    aud_eps: float = 1.0
    aud_k: int = 4
    aud_reps: int = 10_000
    seed: int = DEFAULT_SEED

    @property
    def threshold(self) -> float:
        """The attacker's threshold t: the one whose test has type-I error exactly α."""
        return float(audit.threshold_for_alpha(self.family, self.say_alpha))

    @property
    def gaussian(self) -> bool:
        """Whether the plain-words box (and the attacker's test) shows Gaussian outputs."""
        return self.family == "gaussian"

    def report_items(self) -> dict[str, object]:
        """The settings the report lists: the plain-words box's, then the open tab's."""
        items = {t("outputs on D and D′"): t(FAMILY_LABELS[self.family]),
                 t("shift {sym}", sym="μ" if self.gaussian else "ε"): f"{self.mu:g}",
                 t("false accusations allowed α"): fmt_prob(self.say_alpha)}
        if self.tab == ATTACKER:
            items[t("attacker's threshold t")] = fmt_sig(self.threshold)
        elif self.tab == CURVES:
            items |= {t("curves shown"): "; ".join(c.name for c in curves(self)) or t("none"),
                      t("target"): target(self)[0],
                      t("δ for the table's ε"): fmt_delta(self.table_delta)}
        elif self.tab == GROUP:
            items |= {t("group size k"): self.group_k, t("μ (one person)"): f"{self.group_mu:g}",
                      t("general curve f"): group_curve_name(self)}
        elif self.tab == COMPOSITION:
            items |= {t("number of mechanisms n"): self.comp_n,
                      t("μ of each"): f"{self.comp_mu:g}", t("ε of each"): f"{self.comp_eps:g}"}
        elif self.tab == CONVERSIONS:
            items |= {t("μ"): f"{self.conv_mu:g}", t("ε to read off"): f"{self.conv_eps:g}",
                      t("target ε"): f"{self.inv_eps:g}", t("target δ"): fmt_delta(self.inv_delta)}
        elif self.tab == AUDITOR:
            items |= {t("audited mechanism"): audited_mechanism(self),
                      t("draws R on each input"): f"{self.aud_reps:,}", t("seed"): self.seed}
        return items


DEFAULT = Settings()
# Widget keys: "fdp_" and the field's name, but for the keys other pages' links set.
_KEYS = {"tab": TAB_KEY, "g_mu": FdpParams.G_MU,
         "show_krr": FdpParams.SHOW_KRR, "show_rs": FdpParams.SHOW_RS,
         "krr_eps": FdpParams.KRR_EPS, "krr_k": FdpParams.KRR_K,
         "rs_gamma": FdpParams.RS_GAMMA, "rs_n": FdpParams.RS_N}
KEYS = {f.name: _KEYS.get(f.name, f"fdp_{f.name}") for f in fields(Settings)}


def key(name: str) -> str:
    """The widget key (and URL parameter) of the setting ``name``."""
    return KEYS[name]


def grid_value(text: str, grid) -> float | None:
    """The step of ``grid`` a link's number stands for ("1e-06", as the number box that the
    target δ once was wrote it), or None when it names none."""
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    return next((g for g in grid if np.isclose(g, value, rtol=1e-9, atol=0)), None)


# ---------------------------------------------------------------------------------------
# In plain words, and 1. the attacker's test
# ---------------------------------------------------------------------------------------


def _shift(s: Settings) -> str:
    return f"μ = {s.mu:g}" if s.gaussian else t("ε = {mu:g} (Laplace)", mu=s.mu)


def one_person(s: Settings, shift: float | None = None) -> oneperson.Level:
    """What the two outputs of "In plain words" mean for one person, at their shift (or at
    ``shift``): G_μ for the Gaussian outputs, the Laplace curve at ε for the Laplace ones
    (an ε-DP mechanism: the odds bound is e^ε's)."""
    at = replace(s, mu=s.mu if shift is None else shift)
    if s.gaussian:
        return oneperson.gdp_level(at.mu, t(
            "The outputs N(0, 1) and N(μ, 1) above: the Gaussian mechanism, μ-GDP."))
    return oneperson.Level(risk.Guarantee.laplace(at.mu), _shift(at), t(
        "The outputs Lap(0, 1) and Lap(ε, 1) above: the Laplace mechanism, ε-DP; the best "
        "guess is read from its own trade-off curve."))


def one_person_comparison(s: Settings) -> oneperson.Comparison:
    """Compare with another shift of the same outputs."""
    if s.gaussian:
        return oneperson.Comparison(t("Compare with μ"), oneperson.MU_GRID, 3.0,
                                    lambda mu: one_person(s, mu))
    return oneperson.Comparison(t("Compare with ε"), oneperson.EPS_GRID, 10.0,
                                lambda eps: one_person(s, eps))


def best_beta(s: Settings) -> float:
    """The smallest type-II error of any test at the chosen type-I error α: the curve at α."""
    return float(fdp.gdp_tradeoff(s.say_alpha, s.mu) if s.gaussian
                 else fdp.laplace_tradeoff(s.say_alpha, s.mu))


def plain_words(s: Settings) -> tuple[str, str]:
    """The box's sentence (Markdown) and its finding: β at the sentence's α, written as the
    attacker's test (section 1) writes them."""
    values = dict(shift=_shift(s), a_pct=fmt_pct(s.say_alpha), b_pct=fmt_pct(best_beta(s)),
                  alpha=fmt_prob(s.say_alpha), beta=fmt_prob(best_beta(s)),
                  coin=fmt_pct(1 - s.say_alpha), curve="G_μ" if s.gaussian else "f_Lap")
    sentence = t("**In plain words.** With {shift}, an attacker who wrongly accuses at most "
                 "{a_pct} of the time (type-I error α = {alpha}) still misses the truth at "
                 "least {b_pct} of the time (type-II error β = {curve}({alpha}) = {beta}). "
                 "Without any information it would miss {coin}; an attacker who can see "
                 "everything, never.", **values)
    finding = t("With {shift}, an attacker who wrongly accuses at most {a_pct} of the time "
                "still misses the truth at least {b_pct} of the time (β = {beta}); without "
                "any information it would miss {coin}.", **values)
    return sentence, finding


@dataclass(frozen=True)
class AttackerTest:
    """The threshold test's errors, the two output densities and the trade-off curve."""

    alpha: float
    beta: float
    threshold: float
    xs: np.ndarray
    pdf0: np.ndarray
    pdf1: np.ndarray
    curve_name: str
    curve: np.ndarray
    output_names: tuple[str, str]


def attacker_test(s: Settings) -> AttackerTest:
    """The best test at the chosen α: its threshold t (type-I error exactly α) and its β,
    the trade-off curve at α (the threshold tests are the Neyman–Pearson tests here)."""
    mu, threshold = s.mu, s.threshold
    alpha, beta = s.say_alpha, best_beta(s)
    tail = 4.0 if s.gaussian else 6.0  # Laplace tails are heavier
    xs = np.linspace(min(-tail, threshold - 1.0), max(mu + tail, threshold + 1.0), 600)
    pdf0, pdf1 = audit.densities(s.family, mu, xs)
    if s.gaussian:
        return AttackerTest(alpha, beta, threshold, xs, pdf0, pdf1,
                            t("Gaussian DP, μ = {mu:g}", mu=mu),
                            fdp.gdp_tradeoff(ALPHA, mu),
                            (t("N(0, 1): output on D"), t("N({mu:g}, 1): output on D′", mu=mu)))
    return AttackerTest(alpha, beta, threshold, xs, pdf0, pdf1,
                        t("Laplace curve, ε = {mu:g}", mu=mu),
                        fdp.laplace_tradeoff(ALPHA, mu),
                        (t("Lap(0, 1): output on D"), t("Lap({mu:g}, 1): output on D′", mu=mu)))


def attacker_metrics(test: AttackerTest) -> dict[str, str]:
    """The section's metrics, label -> value, as the sentence above the tabs writes them."""
    return {t("Attacker's threshold t"): fmt_sig(test.threshold),
            t("Type-I error α"): fmt_prob(test.alpha), t("Type-II error β"): fmt_prob(test.beta),
            t("α + β"): fmt_prob(test.alpha + test.beta)}


def attacker_finding(s: Settings, test: AttackerTest) -> str:
    shown = attacker_metrics(test)
    return t("The best attacker at α = {alpha} accuses when the output exceeds t = {t}: it "
             "wrongly accuses with probability α = {alpha} and misses with probability "
             "β = {beta} (α + β = {total}; 1 is a coin flip).",
             t=shown[t("Attacker's threshold t")], alpha=shown[t("Type-I error α")],
             beta=shown[t("Type-II error β")], total=shown[t("α + β")])


# ---------------------------------------------------------------------------------------
# 2. Trade-off curves
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Curve:
    """A mechanism's trade-off curve on ALPHA, as the chart draws it, with its exact privacy
    parameters for the table (from dpcore.fdp's closed forms or its exact pieces, not the
    grid)."""

    name: str
    beta: np.ndarray
    color: str
    mu: float  # tightest μ: the smallest μ with the curve ≥ G_μ
    eps_at: Callable[[float], float]  # δ ↦ the smallest ε with the curve ≥ f_ε,δ
    dash: str = "solid"
    vertices: tuple | None = None  # a polygon's vertices (α, β), where the target is checked
    code: tuple = ()  # (kind, parameters) as dpcode.fdp writes the curve


@counted(st.cache_data(max_entries=32, show_spinner=False))
def histogram_curve(level: float) -> np.ndarray:
    """The truncated Laplace histogram mechanism's curve (a convolution: worth caching)."""
    return fdp.laplace_histogram_tradeoff(ALPHA, level)


def _polygon(name: str, vertices, color: str, dash: str = "solid", *, code: tuple) -> Curve:
    """A polygon, read at its vertices: exact, since G_μ and f_ε,δ are convex."""
    return Curve(name, fdp.tradeoff_on_grid(*vertices, ALPHA), color,
                 mu=fdp.tightest_gdp_mu(*vertices),
                 eps_at=partial(fdp.tightest_epsilon, *vertices), dash=dash, vertices=vertices,
                 code=code)


def _gaussian(name: str, mu: float, color: str, dash: str = "solid", *,
              code: tuple) -> Curve:
    """G_μ: its tightest μ is μ, its ε the exact conversion of Corollary 2.13."""
    return Curve(name, fdp.gdp_tradeoff(ALPHA, mu), color, mu=mu,
                 eps_at=partial(fdp.gdp_epsilon, mu), dash=dash, code=code)


def curves(s: Settings) -> list[Curve]:
    """The curves switched on, in the order of their switches."""
    out = []
    if s.show_g:
        out.append(_gaussian(t("Gaussian DP, μ = {mu:g}", mu=s.g_mu), s.g_mu, COLORS["gdp"],
                             code=("gdp", {"mu": s.g_mu})))
    if s.show_ed:
        out.append(Curve(t("(ε, δ)-DP, ε = {eps:g}, δ = {delta}", eps=s.ed_eps,
                           delta=fmt_delta(s.ed_delta)),
                         fdp.epsdelta_tradeoff(ALPHA, s.ed_eps, s.ed_delta), COLORS["epsdelta"],
                         mu=fdp.epsdelta_gdp_mu(s.ed_eps, s.ed_delta),
                         eps_at=partial(fdp.epsdelta_epsilon, s.ed_eps, s.ed_delta),
                         vertices=fdp.epsdelta_vertices(s.ed_eps, s.ed_delta),
                         code=("epsdelta", {"eps": s.ed_eps, "delta": s.ed_delta})))
    if s.show_gauss:
        out.append(_gaussian(t("Gaussian mechanism, σ = {sigma:g}, Δ = {sens:g}",
                               sigma=s.gauss_sigma, sens=s.gauss_sens),
                             s.gauss_sens / s.gauss_sigma, COLORS["gaussian"], "dash",
                             code=("gdp", {"mu": dpcode.Code(  # μ = Δ/σ
                                 f"{s.gauss_sens!r} / {s.gauss_sigma!r}")})))
    if s.show_lap:
        eps = s.lap_sens / s.lap_b
        out.append(Curve(t("Laplace mechanism, b = {b:g}, Δ = {sens:g}", b=s.lap_b,
                           sens=s.lap_sens),
                         fdp.laplace_tradeoff(ALPHA, eps), COLORS["laplace"],
                         mu=fdp.laplace_gdp_mu(eps), eps_at=partial(fdp.laplace_epsilon, eps),
                         code=("laplace", {"eps": dpcode.Code(  # ε = Δ/b
                             f"{s.lap_sens!r} / {s.lap_b!r}")})))
    if s.show_krr:
        out.append(_polygon(t("{k}-RR, ε = {eps:g}", k=s.krr_k, eps=s.krr_eps),
                            fdp.krr_tradeoff(s.krr_eps, s.krr_k), COLORS["krr"],
                            code=("polygon", {"eps": s.krr_eps, "k": s.krr_k})))
    if s.show_rs:
        out.append(_polygon(t("random substitution, γ = {gamma:g} (ε = ln γ = {eps}), k = {n}",
                              gamma=s.rs_gamma, eps=fmt_sig(float(np.log(s.rs_gamma))),
                              n=s.rs_n),
                            fdp.krr_tradeoff(float(np.log(s.rs_gamma)), s.rs_n), COLORS["krr"],
                            "dot", code=("polygon", {"gamma": s.rs_gamma, "k": s.rs_n})))
    if s.show_hist:
        out.append(Curve(t("private histogram, ε = {level:g}", level=s.hist_alpha),
                         histogram_curve(s.hist_alpha), COLORS["histogram"],
                         mu=fdp.laplace_histogram_gdp_mu(s.hist_alpha),
                         eps_at=partial(fdp.laplace_histogram_epsilon, s.hist_alpha),
                         code=("histogram", {"level": s.hist_alpha})))
    return out


def target(s: Settings):
    """The target curve's name and the curve itself, a function of α."""
    if s.target == "gdp":
        return (t("μ*-GDP, μ* = {mu:g}", mu=s.target_mu),
                lambda a: fdp.gdp_tradeoff(a, s.target_mu))
    return (t("(ε*, δ*)-DP, ε* = {eps:g}, δ* = {delta}", eps=s.target_eps,
              delta=fmt_delta(s.target_delta)),
            lambda a: fdp.epsdelta_tradeoff(a, s.target_eps, s.target_delta))


def curve_table(shown: list[Curve], s: Settings) -> tuple[pd.DataFrame, list[tuple]]:
    """Each curve's tightest μ, smallest ε at the table's δ and whether it meets the target;
    and where each curve lies below the target, as (name, α, β) for the chart."""
    target_fn = target(s)[1]
    rows, failing = [], []
    for c in shown:
        fails, below = fdp.below_target(ALPHA, c.beta, target_fn, vertices=c.vertices,
                                        tol=FAIL_TOL)
        if np.any(below):
            failing.append((c.name, ALPHA[below], c.beta[below]))
        rows.append({CURVE: c.name, TIGHTEST_MU: c.mu, SMALLEST_EPS: c.eps_at(s.table_delta),
                     MEETS: t("no") if fails else t("yes")})
    return pd.DataFrame(rows, columns=[CURVE, TIGHTEST_MU, SMALLEST_EPS, MEETS]), failing


def curve_findings(table: pd.DataFrame, s: Settings) -> list[str]:
    """Which curves meet the target; each curve's tightest μ and smallest ε."""
    meets = list(table.loc[table[MEETS] == t("yes"), CURVE])
    fails = list(table.loc[table[MEETS] == t("no"), CURVE])
    values = dict(target=target(s)[0], meets="; ".join(meets), fails="; ".join(fails))
    if meets and fails:
        verdict = t("Against the target {target}: meets it: {meets}; falls below it: {fails}.",
                    **values)
    elif meets:
        verdict = t("Against the target {target}: meets it: {meets}.", **values)
    elif fails:
        verdict = t("Against the target {target}: no curve meets it; falls below it: "
                    "{fails}.", **values)
    else:
        verdict = t("Against the target {target}: no curve meets it.", **values)
    each = [t("{curve}: μ = {mu}, ε = {eps}", curve=r[CURVE], mu=fmt_sig(r[TIGHTEST_MU]),
              eps=fmt_sig(r[SMALLEST_EPS])) for _, r in table.iterrows()]
    numbers = t("Tightest μ-GDP and smallest ε at δ = {delta}: {curves}.",
                delta=fmt_delta(s.table_delta), curves="; ".join(each))
    return [verdict, numbers]


def curve_headers() -> dict[str, str]:
    """The curves' table's headers in the reader's language, by column."""
    return {column: t(column) for column in (CURVE, TIGHTEST_MU, SMALLEST_EPS, MEETS)}


def audit_headers() -> dict[str, str]:
    """The auditor's table's headers in the reader's language, by column."""
    return {column: t(column) for column in (LEVEL, BETA_HAT, BETA_EXACT, SPREAD, MU_IMPLIED)}


# ---------------------------------------------------------------------------------------
# 3. Group privacy
# ---------------------------------------------------------------------------------------


def group_curve_name(s: Settings) -> str:
    """The general curve f for one person."""
    if s.group_curve == "laplace":
        return t("Laplace, ε = {eps:g}", eps=s.group_eps)
    return t("(ε, 0)-DP, ε = {eps:g}", eps=s.group_eps)


def group_gdp_curves(s: Settings) -> list[tuple]:
    """G_μ for one person and G_kμ for the group, as the chart draws them."""
    k, mu = s.group_k, s.group_mu
    return [(t("Gaussian DP, μ = {mu:g} (one person)", mu=mu), ALPHA, fdp.gdp_tradeoff(ALPHA, mu),
             COLORS["gdp"], "solid"),
            (t("Gaussian DP, kμ = {kmu:g} (groups of {k})", kmu=k * mu, k=k), ALPHA,
             fdp.gdp_tradeoff(ALPHA, k * mu), COLORS["gdp"], "dash")]


def group_general_curves(s: Settings) -> tuple[list[tuple], float]:
    """f for one person, Theorem 2.14's curve for groups of k and the textbook kε curve, as
    the chart draws them; and how far the group curve lies from the textbook one (for the
    Laplace curve the largest absolute difference, for f_ε,0 the largest excess)."""
    k, eps = s.group_k, s.group_eps
    if s.group_curve == "laplace":
        def f_one(a):
            return fdp.laplace_tradeoff(a, eps)
        classic = fdp.laplace_tradeoff(ALPHA, k * eps)
        classic_name = t("Laplace, ε = kε = {keps:g} (exact for the group)", keps=k * eps)
        color = COLORS["laplace"]
    else:
        def f_one(a):
            return fdp.epsdelta_tradeoff(a, eps)
        classic = fdp.epsdelta_tradeoff(ALPHA, k * eps)
        classic_name = t("(kε, 0)-DP, kε = {keps:g} (textbook group privacy)", keps=k * eps)
        color = COLORS["epsdelta"]
    group_beta = fdp.group_tradeoff(f_one, k, ALPHA)
    gap = (float(np.max(np.abs(group_beta - classic))) if s.group_curve == "laplace"
           else float(np.max(group_beta - classic)))
    return [(t("{name} (one person)", name=group_curve_name(s)), ALPHA, f_one(ALPHA), color,
             "solid"),
            (t("groups of {k}: 1 − (1 − f) applied {k} times (Theorem 2.14)", k=k), ALPHA,
             group_beta, color, "dash"),
            (classic_name, ALPHA, classic, COLORS["identity"], "longdash")], gap


def group_caption(s: Settings, gap: float) -> str:
    if s.group_curve == "laplace":
        return t("For the Laplace curve the group bound is exact: it coincides with "
                 "Lap(0,1) vs Lap(kε,1) (largest difference {gap}).", gap=fmt_sig(gap, 2))
    return t("The group curve lies above the textbook kε-DP curve by up to {gap}: "
             "Theorem 2.14 gives more than 'ε becomes kε'.", gap=fmt_sig(gap, 3))


def group_findings(s: Settings, gap: float) -> list[str]:
    k, eps = s.group_k, s.group_eps
    first = t("A {mu:g}-GDP mechanism protects groups of {k} people at {kmu:g}-GDP (kμ).",
              mu=s.group_mu, k=k, kmu=k * s.group_mu)
    if s.group_curve == "laplace":
        return [first, t("For the Laplace curve with ε = {eps:g} the group bound of Theorem "
                         "2.14 is exact: Lap(0,1) vs Lap({keps:g},1) (largest difference "
                         "{gap}).", eps=eps, keps=k * eps, gap=fmt_sig(gap, 2))]
    return [first, t("For an {eps:g}-DP mechanism, Theorem 2.14's curve for groups of {k} "
                     "lies above the textbook {keps:g}-DP curve by up to {gap}.", eps=eps,
                     k=k, keps=k * eps, gap=fmt_sig(gap, 3))]


# ---------------------------------------------------------------------------------------
# 4. Composition
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Composition:
    """n mechanisms of μ-GDP and of ε-DP, composed."""

    total_mu: float  # √n·μ
    exact: np.ndarray  # the exact n-fold composition of f_ε,0 on ALPHA
    clt: float  # μ of its CLT approximation, 2√n·tanh(ε/2)
    clt_beta: np.ndarray
    clt_gap: float  # largest vertical distance between the two on ALPHA


def composition(s: Settings) -> Composition:
    n, eps = s.comp_n, s.comp_eps
    exact = fdp.tradeoff_on_grid(*fdp.composition_epsdp(eps, n), ALPHA)
    clt = fdp.clt_mu(eps, n)
    clt_beta = fdp.gdp_tradeoff(ALPHA, clt)
    return Composition(float(np.sqrt(n) * s.comp_mu), exact, clt, clt_beta,
                       float(np.max(np.abs(exact - clt_beta))))


def composition_gdp_curves(s: Settings, c: Composition) -> list[tuple]:
    return [(t("Gaussian DP, μ = {mu:g}, one release", mu=s.comp_mu), ALPHA,
             fdp.gdp_tradeoff(ALPHA, s.comp_mu), COLORS["gdp"], "solid"),
            (t("Gaussian DP, √n·μ = {total}, {releases}", total=fmt_sig(c.total_mu, 3),
               releases=releases(s.comp_n)), ALPHA,
             fdp.gdp_tradeoff(ALPHA, c.total_mu), COLORS["gdp"], "dash")]


def releases(n: int) -> str:
    """"1 release", "10 releases"."""
    return t("1 release") if n == 1 else t("{n} releases", n=n)


def composition_eps_curves(s: Settings, c: Composition) -> list[tuple]:
    n, eps = s.comp_n, s.comp_eps
    out = [(t("(ε, 0)-DP, ε = {eps:g}, one release", eps=eps), ALPHA,
            fdp.epsdelta_tradeoff(ALPHA, eps), COLORS["epsdelta"], "solid"),
           (t("exact composition: (ε, 0)-DP, {releases}", releases=releases(n)), ALPHA, c.exact,
            COLORS["epsdelta"], "dash"),
           (t("CLT: Gaussian DP, μ = {mu}", mu=fmt_sig(c.clt, 3)), ALPHA, c.clt_beta,
            COLORS["gdp"], "dot")]
    if n * eps <= 700:  # beyond e^700 the textbook curve is 0 for every α > 0 (e^nε overflows)
        out.append((t("(nε, 0)-DP, nε = {neps:g} (textbook composition)", neps=n * eps), ALPHA,
                    fdp.epsdelta_tradeoff(ALPHA, n * eps), COLORS["identity"], "longdash"))
    return out


def composition_findings(s: Settings, c: Composition) -> list[str]:
    return [t("{n} mechanisms of {mu:g}-GDP compose to exactly {total}-GDP (√n·μ).",
              n=s.comp_n, mu=s.comp_mu, total=fmt_sig(c.total_mu)),
            t("{n} mechanisms of {eps:g}-DP compose to a curve close to {clt}-GDP by the "
              "central limit theorem (2√n·tanh(ε/2)); the largest gap between the exact curve "
              "and the CLT curve is {gap:.3f}.", n=s.comp_n, eps=s.comp_eps,
              clt=fmt_sig(c.clt), gap=c.clt_gap)]


# ---------------------------------------------------------------------------------------
# 5. Conversions
# ---------------------------------------------------------------------------------------


def delta_reading(s: Settings) -> tuple[np.ndarray, np.ndarray, float]:
    """δ(ε) of μ-GDP on ε from 0 to 10, and its value at the ε read off."""
    eps_line = np.linspace(0.0, 10.0, 500)
    return (eps_line, fdp.gdp_delta(eps_line, s.conv_mu),
            float(fdp.gdp_delta(s.conv_eps, s.conv_mu)))


@dataclass(frozen=True)
class Inverse:
    """μ from a target (ε, δ)."""

    mu: float  # the largest μ with δ(target ε) ≤ target δ
    check: float  # δ(target ε) at that μ
    sigma: float  # the Gaussian mechanism's σ for it, at sensitivity 1


def inverse(s: Settings) -> Inverse:
    mu = float(fdp.gdp_mu(s.inv_eps, s.inv_delta))
    return Inverse(mu, float(fdp.gdp_delta(s.inv_eps, mu)),
                   1.0 / mu if mu > 0 else float("inf"))


def conversion_findings(s: Settings, delta: float, inv: Inverse) -> list[str]:
    return [t("μ = {mu:g} GDP implies (ε, δ(ε))-DP for every ε, with δ({eps:g}) = {delta}.",
              mu=s.conv_mu, eps=s.conv_eps, delta=fmt_prob(delta)),
            t("({eps:g}, {delta})-DP holds for any μ-GDP mechanism with μ ≤ {mu}: for "
              "the Gaussian mechanism with sensitivity 1, noise σ ≥ {sigma}.", eps=s.inv_eps,
              delta=fmt_delta(s.inv_delta), mu=fmt_sig(inv.mu, 6), sigma=fmt_sig(inv.sigma))]


# ---------------------------------------------------------------------------------------
# 6. An auditor's view
# ---------------------------------------------------------------------------------------


def audit_params(s: Settings) -> dict:
    """The audited mechanism's parameters, as dpcore.audit takes them."""
    if s.aud_mech == "gaussian":
        return {"sigma": s.aud_sigma}
    if s.aud_mech == "laplace":
        return {"b": s.aud_b}
    return {"eps": s.aud_eps, "k": s.aud_k}


def audited_mechanism(s: Settings) -> str:
    """The audited mechanism and its exact privacy, in words."""
    if s.aud_mech == "gaussian":
        return t("Gaussian DP, μ = {mu}", mu=fmt_sig(1 / s.aud_sigma, 3))
    if s.aud_mech == "laplace":
        return t("Laplace, ε = {eps}", eps=fmt_sig(1 / s.aud_b, 3))
    return t("{k}-RR, ε = {eps:g}", k=s.aud_k, eps=s.aud_eps)


def audit_theory(s: Settings, alpha=ALPHA) -> np.ndarray:
    """The audited mechanism's exact trade-off curve at ``alpha`` (by default on ALPHA)."""
    if s.aud_mech == "gaussian":
        return fdp.gdp_tradeoff(alpha, 1.0 / s.aud_sigma)
    if s.aud_mech == "laplace":
        return fdp.laplace_tradeoff(alpha, 1.0 / s.aud_b)
    return fdp.tradeoff_on_grid(*fdp.krr_tradeoff(s.aud_eps, s.aud_k), alpha)


@counted(st.cache_data(max_entries=32, show_spinner=False))
def _krr_spread(eps: float, k: int, reps: int, seed: int) -> np.ndarray:
    return audit.krr_beta_hat_sd(eps, k, reps, np.array(AUDIT_LEVELS), repeats=AUDIT_REPEATS,
                                 rng=seed)


def audit_spread(s: Settings) -> np.ndarray:
    """How far β̂ scatters from audit to audit at each of AUDIT_LEVELS (its sd): the delta
    method √((β(1 − β) + f′(α)² α(1 − α))/R) for the Gaussian and Laplace mechanisms,
    AUDIT_REPEATS simulated audits for k-RR (dpcore.audit)."""
    if s.aud_mech == "krr":
        return _krr_spread(s.aud_eps, s.aud_k, s.aud_reps, s.seed)
    levels = np.array(AUDIT_LEVELS)
    slope = (fdp.gdp_slope(levels, 1.0 / s.aud_sigma) if s.aud_mech == "gaussian"
             else fdp.laplace_slope(levels, 1.0 / s.aud_b))
    return audit.beta_hat_sd(levels, audit_theory(s, levels), slope, s.aud_reps)


def audit_tradeoff(s: Settings, progress=None) -> tuple[np.ndarray, np.ndarray]:
    """The empirical trade-off curve of R draws of the mechanism on each of two neighbouring
    inputs; ``progress(done)`` after every AUDIT_CHUNK draws."""
    rng = np.random.default_rng(s.seed)
    chunks, done = [], 0
    while done < s.aud_reps:
        size = min(AUDIT_CHUNK, s.aud_reps - done)
        chunks.append(audit.audit_samples(s.aud_mech, audit_params(s), size, rng=rng))
        done += size
        if progress is not None:
            progress(done)
    return fdp.empirical_tradeoff(np.concatenate([c[0] for c in chunks]),
                                  np.concatenate([c[1] for c in chunks]))


def thin(alpha, beta, n=MAX_PLOTTED):
    """At most n points of a long curve, evenly spread along it, both ends kept."""
    if len(alpha) <= n:
        return alpha, beta
    idx = np.unique(np.round(np.linspace(0, len(alpha) - 1, n)).astype(int))
    return alpha[idx], beta[idx]


def audit_table(s: Settings, emp_a, emp_b) -> pd.DataFrame:
    """The best test of each level: the empirical curve read at α (fdp.curve_at), the exact
    β, the sd of β̂ (audit_spread) and the μ the estimate implies."""
    exact = audit_theory(s, np.array(AUDIT_LEVELS))
    spread = audit_spread(s)
    rows = []
    for level, b_exact, sd in zip(AUDIT_LEVELS, exact, spread):
        b_hat = float(fdp.curve_at(emp_a, emp_b, level))
        rows.append({LEVEL: level, BETA_HAT: b_hat, BETA_EXACT: float(b_exact),
                     SPREAD: float(sd), MU_IMPLIED: fdp.tightest_gdp_mu([level], [b_hat])})
    return pd.DataFrame(rows)


def audit_caption() -> str:
    """What the auditor's table shows, and how far β̂ scatters."""
    return t("β̂: the empirical curve at α, the best test of level α on these draws. sd of β̂: "
             "how far it scatters from audit to audit. For the Gaussian and Laplace mechanisms "
             "√((β(1 − β) + f′(α)²·α(1 − α))/R), f′ the exact curve's slope (delta method): "
             "the test's level is itself estimated from the R draws on D, so √(β(1 − β)/R) "
             "alone is too small. For k-RR, whose other categories tie, it is measured over "
             "{repeats} simulated audits. β̂ lies a little below β where many tests are tried; "
             "gaps within about two sd are noise. μ implied: Φ⁻¹(1 − α) − Φ⁻¹(β̂).",
             repeats=AUDIT_REPEATS)


def audit_note() -> str:
    return t("β̂ scatters around the exact β by about its sd, √((β(1 − β) + f′(α)²·α(1 − α))/R) "
             "for Gaussian and Laplace outputs (f′ the curve's slope: the level α is estimated "
             "too) and measured over {repeats} simulated audits for k-RR; it lies a little below "
             "β where many tests are tried. Gaps within about two sd are noise.",
             repeats=AUDIT_REPEATS)


def audit_finding(s: Settings, table: pd.DataFrame) -> str:
    gap = float((table[BETA_HAT] - table[BETA_EXACT]).abs().max())
    return t("From {reps:,} runs on each of two neighbouring inputs, the empirical trade-off "
             "curve of the {mechanism} is within {gap:.4f} of the exact one at α = {levels}.",
             reps=s.aud_reps, mechanism=audited_mechanism(s), gap=gap,
             levels=", ".join(f"{a:g}" for a in AUDIT_LEVELS))


# ---------------------------------------------------------------------------------------
# The view as code (dpcode.fdp)
# ---------------------------------------------------------------------------------------


def group_gap_label(s: Settings) -> str:
    return (t("Largest difference, group bound vs Laplace at kε") if s.group_curve == "laplace"
            else t("Largest excess of the group curve over kε-DP"))


def total_mu_label(s: Settings) -> str:
    return t("μ of {n} composed {mu:g}-GDP mechanisms", n=s.comp_n, mu=s.comp_mu)


def conv_delta_label(s: Settings) -> str:
    return t("δ(ε) at ε = {eps:g} for μ = {mu:g}", eps=s.conv_eps, mu=s.conv_mu)


TAB_CODES = dict(zip(TABS, dpcode.fdp.TABS))


def code_builder(s: Settings):
    """The view's code for the kit's Code button: link -> Program."""
    target_name = target(s)[0]
    view = dpcode.fdp.View(
        tab=TAB_CODES[s.tab], family=s.family, mu=s.mu, say_alpha=s.say_alpha,
        curves=(tuple((c.code[0], c.name, c.code[1]) for c in curves(s)) if s.tab == CURVES
                else ()),
        target=(("gdp", target_name, s.target_mu) if s.target == "gdp"
                else ("epsdelta", target_name, s.target_eps, s.target_delta)),
        table_delta=s.table_delta, fail_tol=FAIL_TOL,
        group=(s.group_k, s.group_mu, s.group_curve, s.group_eps),
        composition=(s.comp_n, s.comp_mu, s.comp_eps),
        conversion=(s.conv_mu, s.conv_eps, s.inv_eps, s.inv_delta),
        audit=(s.aud_mech, audit_params(s), s.aud_reps, s.seed, AUDIT_CHUNK, AUDIT_LEVELS,
               AUDIT_REPEATS),
        labels={"tab": t(s.tab), "group_gap": group_gap_label(s), "total_mu": total_mu_label(s),
                "conv_delta": conv_delta_label(s)})

    def build(link: str) -> dpcode.Program:
        return dpcode.fdp.program(view, link=link, title=t(TITLE))
    return build
