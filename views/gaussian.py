"""Page: the Gaussian mechanism, calibrating its noise σ to (ε, δ), and its privacy loss."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import dpviz
import pandas as pd
import streamlit as st

from ui import controls, sources
from ui import format as fmt
from ui.kit import page_header
from dpcore import datasets, fdp, gaussian
CALIBRATION_COLORS = dpviz.gaussian.CALIBRATION_COLORS
from ui import gaussian_text

TITLE = "Gaussian mechanism"

# --- The four quantities and their controls -------------------------------------------------

EPS_GRID = (0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0,
            5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0)
DELTA_GRID = tuple(float(f"{m}e{k}") for k in range(-12, 0) for m in (1, 2, 5))  # 1e-12 … 0.5
SIGMA_GRID = tuple(float(f"{m}e{k}") for k in range(-2, 4) for m in (1, 1.5, 2, 3, 5, 7)) + (10_000.0,)
SENS_GRID = tuple(float(f"{m}e{k}") for k in range(-2, 3) for m in (1, 1.5, 2, 3, 5, 7)) + (1000.0,)

DEFAULT_EPS, DEFAULT_DELTA, DEFAULT_SENS = 1.0, 1e-5, 1.0
SOLVE_DEFAULT = "sigma"
METHOD_LABELS = {"analytic": "analytic (exact)", "tail": "tail bound", "classical": "classical"}

def fmt_sci(v: float, digits: int = 2) -> str:
    """δ-style numbers: 1.0·10⁻⁵, 3.7·10⁻¹², 0.05; 0 and 1 as they are."""
    if v == 0 or not np.isfinite(v):
        return f"{v:g}"
    if 1e-3 <= abs(v) < 1e4:
        return f"{v:.{digits + 1}g}"
    return fmt.times_ten(v, digits - 1)


def fmt_value(v: float, digits: int = 4) -> str:
    """ε, σ, Δ, μ: 4 significant digits, thousands separated, huge and tiny in powers of ten."""
    if not np.isfinite(v):
        return "∞" if v > 0 else "—"
    if v != 0 and (abs(v) < 1e-3 or abs(v) >= 1e9):
        return fmt_sci(v, digits)
    if abs(v) >= 1e4:
        return f"{v:,.0f}"
    return f"{v:.{digits}g}"


def fmt_slider_delta(v: float) -> str:
    return fmt_sci(v, 1) if v < 1e-3 else f"{v:g}"


def fmt_pct(v: float) -> str:
    """A probability in percent, never rounded to a misleading 0% or 100%."""
    if v == 0:
        return "0"
    if v < 1e-4:
        return fmt_sci(v)
    text = f"{100 * v:.3g}%"
    return "99.99+%" if text == "100%" and v < 1 else text


@dataclass(frozen=True)
class Quantity:
    key: str
    symbol: str
    label: str
    number_label: str
    grid: tuple
    min_value: float
    max_value: float
    step: float
    help: str
    slider_format: object = fmt.fmt_number


QUANTITIES = {
    "eps": Quantity(
        "gauss_eps", "ε", "ε: privacy-loss bound", "exact ε", EPS_GRID, 0.0, 10_000.0, 0.1,
        "How much one person may change the odds of any outcome: at most a factor e^ε. "
        "Smaller ε, stronger privacy, more noise."),
    "delta": Quantity(
        "gauss_delta", "δ", "δ: failure probability", "exact δ", DELTA_GRID, 1e-300, 0.999, 1e-6,
        "The probability with which the ε promise may fail. Take it well below 1/n for n "
        "people (10⁻⁵ … 10⁻¹²).", fmt_slider_delta),
    "sigma": Quantity(
        "gauss_sigma", "σ", "σ: noise standard deviation", "exact σ", SIGMA_GRID, 1e-6, 1e9, 0.1,
        "Standard deviation of the Gaussian noise N(0, σ²) added to the query's answer. "
        "More noise, more privacy, less accuracy."),
    "sensitivity": Quantity(
        "gauss_sens", "Δ", "Δ: L2 sensitivity of the query", "exact Δ", SENS_GRID, 1e-6, 1e9, 0.1,
        "How far one person can move the query's answer, Δ = max ‖f(D) − f(D′)‖₂ over "
        "neighbouring data sets: 1 for a count, U for a sum of values in [0, U], √2 for a "
        "histogram when one person is replaced."),
}
DEFAULTS = {"eps": DEFAULT_EPS, "delta": DEFAULT_DELTA, "sensitivity": DEFAULT_SENS,
            "sigma": float(gaussian.gaussian_sigma(DEFAULT_EPS, DEFAULT_DELTA, DEFAULT_SENS))}

# The f-DP page's G_μ slider: 0 … 5 in steps of 0.05, on its tab "Trade-off curves".
FDP_MU_STEP, FDP_MU_MAX = 0.05, 5.0
GDP_EPS_CAP = 1000.0  # the δ(ε) chart's ε axis ends here at the latest (or at 1.5 ε)

# The σ table.
TABLE_EPS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
TABLE_DELTA = (1e-3, 1e-5, 1e-6, 1e-8, 1e-10, 1e-12)

# The release demo.
N_RELEASES = 10_000
UPLOAD = sources.UPLOAD
SOURCE_LABELS = {**{k: f"Population 2020: {v}" for k, v in datasets.POPULATIONS.items()},
                 UPLOAD: "Uploaded CSV file"}
TOP_AGE = 85  # the population table's last age: 85 and over
QUERY_LABELS = {"count": "a count", "sum": "a sum of clipped values", "histogram": "a histogram"}
NEIGHBOUR_LABELS = {"histogram": "add or remove one person (Δ = 1)",
                    "histogram_replace": "replace one person (Δ = √2)"}


def plain(message: str) -> str:
    """dpcore's messages in plain words: no code quotes, symbols for the parameter names."""
    symbols = {"eps": "ε", "delta": "δ", "sigma": "σ", "sensitivity": "Δ", "mu": "μ",
               "upper": "U"}
    text = re.sub(r"`(\w+)`", lambda m: symbols.get(m.group(1), m.group(1)), message)
    return re.sub(r"\b(eps|delta)\b", lambda m: symbols[m.group(1)], text)


@st.cache_data(max_entries=16, show_spinner=False)
def sigma_table(sensitivity: float) -> pd.DataFrame:
    return gaussian.sigma_table(TABLE_EPS, TABLE_DELTA, sensitivity=sensitivity)


# --- The state the sections share ------------------------------------------------------------

@dataclass(frozen=True)
class State:
    """The four values as the controls hold them, and the solved set when there is one."""

    values: dict  # eps, delta, sigma, sensitivity: the completed set, or the widgets' values
    method: str
    solve: str
    setting: gaussian.GaussianSetting | None
    problem: str | None = None  # why there is no setting, in plain words

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


def read_controls() -> State:
    """Solve for, the calibration, and the four synced inputs; solve the missing one."""
    c1, c2 = st.columns([1, 2])
    with c1:
        # Set through Session State (the button of the release demo switches it to σ), so no
        # default= here: its default is the Session State value.
        if st.session_state.get("gauss_solve") is None:
            st.session_state["gauss_solve"] = SOLVE_DEFAULT
        solve = st.segmented_control(
            "Solve for", list(QUANTITIES), required=True,
            format_func=lambda k: QUANTITIES[k].symbol, key="gauss_solve", bind="query-params",
            help="Which of ε, δ, σ and Δ the page computes from the other three. Its row "
            "below is greyed out and shows the value found.",
        )
        if solve is None:  # a browser history entry without it: back to the default
            st.rerun()
    with c2:
        method = st.segmented_control(
            "Calibration used to solve", list(METHOD_LABELS), default="analytic",
            required=True, format_func=METHOD_LABELS.get, key="gauss_method",
            bind="query-params",
            help="Analytic: the exact δ(ε) of Balle & Wang (2018), the least noise that gives "
            "(ε, δ)-DP. Tail bound: P(L > ε) ≤ δ, sufficient but asks for more noise. "
            "Classical: σ = Δ√(2 ln(1.25/δ))/ε (Dwork & Roth), proved for ε < 1 only.",
        )
    rows = [st.columns(2, gap="large"), st.columns(2, gap="large")]
    slots = {"eps": rows[0][0], "delta": rows[0][1], "sigma": rows[1][0],
             "sensitivity": rows[1][1]}

    def draw(name: str, *, value=None) -> float:
        q = QUANTITIES[name]
        solved = name == solve
        with slots[name]:
            return controls.synced_log_input(
                q.label + (" (solved)" if solved else ""), q.grid, key=q.key,
                default=DEFAULTS[name], min_value=q.min_value, max_value=q.max_value,
                help=q.help, disabled=solved, value=value, number_label=q.number_label,
                step=q.step, format_func=q.slider_format,
            )

    # The three given rows first: the solved row is filled in with their values.
    values = {name: draw(name) for name in QUANTITIES if name != solve}
    try:
        setting = gaussian.solve_gaussian(**{**values, solve: None}, method=method)
    except ValueError as exc:  # no solution: the solved row keeps its last value
        values[solve] = draw(solve)
        return State(values=values, method=method, solve=solve, setting=None,
                     problem=plain(str(exc)))
    draw(solve, value=getattr(setting, solve))
    return State(values={k: getattr(setting, k) for k in QUANTITIES}, method=method,
                 solve=solve, setting=setting)


def results(state: State) -> None:
    """The completed set as metrics, and what it means in one sentence."""
    s = state.setting
    cols = st.columns(5)
    for col, name in zip(cols, QUANTITIES):
        q = QUANTITIES[name]
        solved = name == state.solve
        label = q.symbol
        if s is None and solved:
            label, shown = f"{q.symbol}: no solution", "—"
        else:
            v = state.values[name]
            shown = fmt_sci(v) if name == "delta" else fmt_value(v, 5)
            label += " (solved)" if solved else ""
        col.metric(label, shown, border=True, help=q.help)
    cols[4].metric("μ = Δ/σ", fmt_value(s.mu, 5) if s else "—", border=True,
                   help="The Gaussian mechanism is exactly μ-GDP with μ = Δ/σ: no test tells "
                   "D from D′ better than one tells N(0, 1) from N(μ, 1).")
    kit.settings({
        "solved for": QUANTITIES[state.solve].symbol,
        "calibration": METHOD_LABELS[state.method],
        **{QUANTITIES[name].label: ("no solution" if s is None and name == state.solve
                                    else fmt_sci(state.values[name]) if name == "delta"
                                    else fmt_value(state.values[name], 6))
           for name in QUANTITIES},
    })
    if s is None:
        kit.error(f"No {QUANTITIES[state.solve].symbol} fits these values with the "
                      f"{METHOD_LABELS[state.method]} calibration. {state.problem}")
        return
    if s.delta >= 1:
        kit.error(f"With the {METHOD_LABELS[state.method]} calibration δ = 1 here: it "
                      "certifies nothing at this ε. Raise σ or ε, or use the analytic "
                      "calibration.")
        return
    if s.delta == 0:
        st.info("δ is below 10⁻³⁰⁰ here: as good as 0.", icon=":material/info:")
    if state.method == "classical" and s.eps >= gaussian.CLASSICAL_MAX_EPS:
        kit.note(
            f"Not a guarantee: the classical formula σ = Δ√(2 ln(1.25/δ))/ε is proved for "
            f"ε < 1 only; at ε = {s.eps:g} it may give less noise than (ε, δ)-DP needs.")
        st.warning(
            f"**Not a guarantee.** The classical formula σ = Δ√(2 ln(1.25/δ))/ε is proved for "
            f"ε < 1 only; at ε = {s.eps:g} it may give less noise than (ε, δ)-DP needs. "
            "See the exact δ below, or use the analytic calibration.",
            icon=":material/warning:",
        )
    exact = float(gaussian.gaussian_delta(s.eps, s.sigma, s.sensitivity))
    power = f"{s.eps:.4g}" if s.eps < 1e4 else r"\varepsilon"
    sentence = (
        f"**In plain words.** Adding Gaussian noise with σ = {fmt_value(s.sigma)} to a query "
        f"that one person can change by at most Δ = {fmt_value(s.sensitivity)} makes the "
        f"release ({fmt_value(s.eps)}, {fmt_sci(s.delta)})-differentially private: whatever "
        f"one person's data, no set of outcomes becomes more than $e^{{{power}}}$ times more "
        f"likely, except with probability δ = {fmt_sci(s.delta)}. It is μ-GDP with "
        f"μ = Δ/σ = {fmt_value(s.mu)}: telling whether one person is in the data is as hard "
        f"as telling $N(0, 1)$ from $N({fmt_value(s.mu)}, 1)$."
    )
    what = "a count" if s.sensitivity == 1 else "a query"
    verdict = (f"With σ = {fmt_value(s.sigma)}, the release of {what} of sensitivity "
               f"Δ = {fmt_value(s.sensitivity)} is ({fmt_value(s.eps)}, {fmt_sci(s.delta)})-DP, "
               f"and μ-GDP with μ = Δ/σ = {fmt_value(s.mu)}.")
    if state.method != "analytic" and 0 < s.delta < 1:
        relation = ("smaller: this calibration over-protects" if exact < s.delta
                    else "larger: this is not a guarantee" if exact > s.delta else "the same")
        sentence += (f" Solved with the {METHOD_LABELS[state.method]} calibration; the exact "
                     f"δ at this σ and ε is {fmt_sci(exact)}, {relation}.")
        verdict += (f" Solved with the {METHOD_LABELS[state.method]} calibration; the exact δ "
                    f"at this σ and ε is {fmt_sci(exact)}, {relation}.")
    st.markdown(sentence)
    kit.finding(verdict)


# --- 1. Three calibrations --------------------------------------------------------------------

def calibrations(state: State) -> None:
    eps, delta, sens = state.eps, state.delta, state.sensitivity
    st.markdown(
        f"For ε = {fmt_value(eps)}, δ = {fmt_sci(delta)} and Δ = {fmt_value(sens)}: the σ "
        "each calibration asks for. All three protect, where they apply; the exact one adds "
        "the least noise."
    )
    try:
        table = gaussian_text.calibration_notes(gaussian.calibration_table(eps, delta, sens), eps)
    except ValueError as exc:
        kit.error(f"The calibrations cannot be compared here: {plain(str(exc))}")
        return
    rows = {r.method: r for r in table.itertuples()}
    kit.chart(dpviz.gaussian.calibration_figure(table), key="gauss_fig_cal",
                  name="Noise σ of the three calibrations")
    cols = st.columns(3)
    for col, method in zip(cols, ("analytic", "tail", "classical")):
        r = rows[method]
        if not np.isfinite(r.sigma):
            col.metric(f"σ, {r.name}", "no solution", border=True, help=plain(r.note))
            col.caption(plain(r.note))
            continue
        if method == "analytic":
            col.metric(f"σ, {r.name}", fmt_value(r.sigma), border=True, delta="the reference",
                       delta_color="off", delta_arrow="off",
                       help="The smallest σ with δ(ε) ≤ δ: exact.")
            col.caption("The exact calibration: the least noise that gives (ε, δ)-DP.")
            continue
        col.metric(f"σ, {r.name}", fmt_value(r.sigma), delta=f"{r.ratio:.3g}× the exact σ",
                   delta_color="off", delta_arrow="off", border=True,
                   help="σ of this calibration and how it compares with the exact σ.")
        more = "more" if r.extra_noise >= 0 else "less"
        col.caption(f"{abs(r.extra_noise):.1%} {more} noise; {r.variance_ratio:.3g}× the "
                    f"variance, so {r.variance_ratio:.3g}× as much data for the same accuracy.")
    tail, classical = rows["tail"], rows["classical"]
    if np.isfinite(tail.sigma):
        kit.finding(
            f"The exact (analytic) calibration needs σ = {fmt_value(rows['analytic'].sigma)}; "
            f"the tail bound asks for {fmt_value(tail.sigma)}, {tail.extra_noise:.1%} more "
            f"noise ({tail.variance_ratio:.3g}× the data for the same accuracy).")
        st.markdown(
            f"**The tail bound is sufficient, not necessary.** Asking P(L > ε) ≤ δ protects, "
            f"but over-protects: it wants σ = {fmt_value(tail.sigma)}, {tail.extra_noise:.1%} "
            f"more noise than the exact {fmt_value(rows['analytic'].sigma)}. Noise variance "
            f"grows {tail.variance_ratio:.3g}×: the same accuracy would need "
            f"{tail.variance_ratio:.3g}× as many people."
        )
    else:
        st.markdown(f"**The tail bound has no solution here.** {plain(tail.note)}")
    if np.isfinite(classical.sigma) and not classical.valid:
        verdict = ("It is even below the exact σ: that mechanism would **not** be "
                   "(ε, δ)-DP." if classical.ratio < 1 else
                   "Here it happens to lie above the exact σ, but nothing proves that in "
                   "general.")
        kit.note(
            f"Classical formula: not a guarantee at ε = {fmt_value(eps)}; "
            f"σ = Δ√(2 ln(1.25/δ))/ε = {fmt_value(classical.sigma)} is proved for ε < 1 only.")
        st.warning(
            f"**Classical formula: not a guarantee at ε = {fmt_value(eps)}.** "
            f"σ = Δ√(2 ln(1.25/δ))/ε = {fmt_value(classical.sigma)} is proved for ε < 1 only. "
            + verdict, icon=":material/warning:",
        )
    shown = pd.DataFrame({
        "calibration": table["name"],
        "σ": table["sigma"],
        "× the exact σ": table["ratio"],
        "extra noise (%)": 100 * table["extra_noise"],
        "variance factor (data needed)": table["variance_ratio"],
        "guarantee": ["yes" if v else "no" for v in table["valid"]],
        "note": [plain(n) for n in table["note"]],
    })
    kit.table(shown, key="gauss_cal_table", name="The three calibrations",
                  hide_index=True, column_config={
        "σ": st.column_config.NumberColumn(format="%.5g"),
        "× the exact σ": st.column_config.NumberColumn(format="%.4f"),
        "extra noise (%)": st.column_config.NumberColumn(format="%+.1f%%"),
        "variance factor (data needed)": st.column_config.NumberColumn(
            format="%.3f", help="(σ / exact σ)²: how many times more data the same accuracy "
            "needs."),
    })
    st.latex(r"\begin{aligned}\text{tail bound:}\quad & \Phi\Big(\frac{\Delta}{2\sigma} - "
             r"\frac{\varepsilon\sigma}{\Delta}\Big) = \delta \\ \text{classical:}\quad & "
             r"\sigma = \frac{\Delta\sqrt{2\ln(1.25/\delta)}}{\varepsilon}\quad(\varepsilon < 1)"
             r" \\ \text{analytic:}\quad & \Phi\Big(\frac{\Delta}{2\sigma} - "
             r"\frac{\varepsilon\sigma}{\Delta}\Big) - e^{\varepsilon}\,\Phi\Big("
             r"-\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\Big) = \delta"
             r"\end{aligned}")


# --- 2. The privacy-loss distribution ----------------------------------------------------------

def privacy_loss(state: State) -> None:
    s = state.setting
    mean, var = gaussian.privacy_loss_moments(s.sigma, s.sensitivity)
    tail = float(gaussian.gaussian_delta(s.eps, s.sigma, s.sensitivity, method="tail"))
    exact = float(gaussian.gaussian_delta(s.eps, s.sigma, s.sensitivity, method="analytic"))
    st.markdown(
        "For an output o of the mechanism on D, the **privacy loss** "
        r"$L = \ln \frac{p_D(o)}{p_{D'}(o)}$ says how much more likely o is with one "
        "person's data than without. For the Gaussian mechanism it is itself Gaussian. "
        "(ε, δ)-DP bounds it by ε except on a tail: how big may that tail be?"
    )
    left, right = st.columns([3, 2])
    with left:
        log_y = st.toggle("Log scale", value=True, key="gauss_loss_log", bind="query-params",
                          help="Draw the density on a log axis, where small tails are visible.")
        if not var > 0:  # μ² = (Δ/σ)² underflows: L is 0 to machine precision
            st.info(f"With μ = Δ/σ = {fmt_value(s.mu)} the privacy loss is 0 to machine "
                    "precision (its variance μ² is below the smallest floating-point number): "
                    "there is no distribution to draw. The numbers are on the right.",
                    icon=":material/info:")
        else:
            loss_fig = dpviz.gaussian.privacy_loss_figure(mean, var, s.eps, tail_delta=tail,
                                                   exact_delta=exact, log_y=log_y)
            if log_y:
                loss_fig.update_yaxes(title_text="density (log scale)")
            kit.chart(loss_fig, key="gauss_fig_loss", name="The privacy-loss distribution")
        if log_y and var > 0:
            st.caption("On the log scale the shaded areas are not to scale (they fill down to "
                       "the axis): compare the two curves; the areas are the numbers on the "
                       "right.")
    with right:
        m1, m2 = st.columns(2)
        m1.metric("P(L > ε): tail bound", fmt_sci(tail), border=True,
                  help="The probability that the privacy loss exceeds ε: the whole shaded tail.")
        m2.metric("Exact δ(ε)", fmt_sci(exact), border=True,
                  help="E[(1 − e^(ε − L))₊]: the tail weighted by how far each output breaks "
                  "the ε bound. The smallest δ for which the mechanism is (ε, δ)-DP.")
        ratio = f"{tail / exact:.3g} times" if exact > 0 else "infinitely many times"
        kit.settings({"privacy-loss density axis": "log scale" if log_y else "linear"})
        kit.finding(
            f"The privacy loss exceeds ε = {fmt_value(s.eps)} with probability "
            f"{fmt_sci(tail)}, but the mechanism is (ε, δ)-DP already with δ = {fmt_sci(exact)}, "
            f"{ratio} smaller: reading δ as P(L > ε) over-states it.")
        st.markdown(
            f"At ε = {fmt_value(s.eps)}, the loss exceeds ε with probability "
            f"**{fmt_sci(tail)}**, but the mechanism is (ε, δ)-DP already with δ = "
            f"**{fmt_sci(exact)}**, {ratio} smaller. An output whose loss is just above ε "
            "breaks the promise only a little; the definition charges it only that excess, "
            r"$1 - e^{\varepsilon - L}$, not all of it. Reading δ as $P(L > \varepsilon)$, "
            "as the source note does, is sufficient but over-states δ."
        )
        st.latex(r"L \sim N\Big(\frac{\Delta^2}{2\sigma^2},\ \frac{\Delta^2}{\sigma^2}\Big)"
                 rf"= N({mean:.4g},\ {var:.4g})")
        st.latex(r"P(L > \varepsilon) = \Phi\Big(\frac{\Delta}{2\sigma} - "
                 r"\frac{\varepsilon\sigma}{\Delta}\Big)")
        st.latex(r"\begin{aligned}\delta(\varepsilon) &= \mathbb{E}\big[(1 - "
                 r"e^{\varepsilon - L})_+\big] \\ &= "
                 r"\Phi\Big(\frac{\Delta}{2\sigma} - \frac{\varepsilon\sigma}{\Delta}\Big) - "
                 r"e^{\varepsilon}\,\Phi\Big(-\frac{\Delta}{2\sigma} - "
                 r"\frac{\varepsilon\sigma}{\Delta}\Big)\end{aligned}")
    with st.expander("Where the privacy loss comes from"):
        st.markdown(
            "Take neighbours D, D′ with f(D′) − f(D) = Δ (the worst case) and an output "
            "o = f(D) + Z, Z ~ N(0, σ²). The two densities differ only in their means, so"
        )
        st.latex(r"L = \ln\frac{e^{-(o - f(D))^2/2\sigma^2}}{e^{-(o - f(D'))^2/2\sigma^2}}"
                 r"= \frac{(Z - \Delta)^2 - Z^2}{2\sigma^2} = \frac{\Delta^2}{2\sigma^2} - "
                 r"\frac{\Delta Z}{\sigma^2}")
        st.markdown(
            r"a linear function of Z: Gaussian with mean $\Delta^2/2\sigma^2$ and variance "
            r"$\Delta^2/\sigma^2$. Hence $P(L > \varepsilon) = \Phi(\Delta/2\sigma - "
            r"\varepsilon\sigma/\Delta)$, the tail bound. Balle & Wang (2018, Theorem 8) show "
            r"the smallest δ is $\mathbb{E}[(1 - e^{\varepsilon - L})_+]$, which gives the "
            r"analytic formula; the classical $\sigma = \Delta\sqrt{2\ln(1.25/\delta)}/\varepsilon$"
            r" bounds the tail for ε < 1 only. Everything depends on σ and Δ only through "
            r"$\mu = \Delta/\sigma$."
        )


# --- 3. As μ-GDP -----------------------------------------------------------------------------

def as_gdp(state: State) -> None:
    s = state.setting
    mu = s.mu
    exact = float(gaussian.gaussian_delta(s.eps, s.sigma, s.sensitivity))
    st.markdown(
        f"The Gaussian mechanism is exactly **μ-GDP with μ = Δ/σ = {fmt_value(mu)}** (Dong, "
        "Roth & Su 2022): one number that gives (ε, δ(ε))-DP for every ε at once. Its δ(ε) "
        "curve is the analytic calibration's: the markers, computed by the calibration, lie on "
        "it. The tail bound's δ lies above it everywhere."
    )
    # ε from 0 to where δ(ε) is about 10⁻¹² (at most GDP_EPS_CAP), and past the page's ε.
    reach = float(gaussian.gaussian_epsilon(1e-12, s.sigma, s.sensitivity))
    eps_max = max(min(reach, GDP_EPS_CAP), 1.5 * s.eps, 1.0)
    eps_line = np.linspace(0.0, eps_max, 400)
    eps_points = np.linspace(0.0, eps_max, 15)
    others = [
        dict(name="analytic calibration δ(ε) at σ, Δ", eps=eps_points,
             delta=gaussian.gaussian_delta(eps_points, s.sigma, s.sensitivity),
             color=CALIBRATION_COLORS["analytic"], mode="markers"),
        dict(name="tail bound P(L > ε)", eps=eps_line,
             delta=gaussian.gaussian_delta(eps_line, s.sigma, s.sensitivity, method="tail"),
             color=CALIBRATION_COLORS["tail"], dash="dash"),
    ]
    left, right = st.columns([3, 2])
    with left:
        gdp_fig = dpviz.fdp.delta_curve_figure(eps_line, fdp.gdp_delta(eps_line, mu), mu=mu,
                                             point=(s.eps, exact), others=others)
        if gdp_fig.layout.yaxis.type == "log":
            gdp_fig.update_yaxes(title_text="δ(ε) (log scale)")
        kit.chart(gdp_fig, key="gauss_fig_gdp", name="Privacy curve δ(ε) as Gaussian DP")
        kit.finding(
            f"The mechanism is μ-GDP with μ = Δ/σ = {fmt_value(mu)}: (ε, δ(ε))-DP for every ε "
            f"at once, with δ({fmt_value(s.eps)}) = {fmt_sci(exact)}.")
    with right:
        st.metric("μ = Δ/σ", fmt_value(mu), border=True,
                  help="The mechanism is μ-GDP: no test separates D from D′ better than "
                  "N(0, 1) from N(μ, 1).")
        st.metric(f"δ(ε) at ε = {fmt_value(s.eps)}", fmt_sci(exact), border=True,
                  help="The exact δ: the μ-GDP curve read at the page's ε.")
        st.latex(r"\begin{aligned}\delta(\varepsilon) &= \Phi\Big(-\frac{\varepsilon}{\mu} + "
                 r"\frac{\mu}{2}\Big) - e^{\varepsilon}\,\Phi\Big(-\frac{\varepsilon}{\mu} - "
                 r"\frac{\mu}{2}\Big) \\ \mu &= \Delta/\sigma\end{aligned}")
        linked = round(min(max(mu, 0.0), FDP_MU_MAX) / FDP_MU_STEP) * FDP_MU_STEP
        linked = round(linked, 2)
        st.page_link(
            "views/fdp.py", label=f"See G_μ with μ = {linked:g} on the f-DP page",
            icon=":material/shield:",
            query_params={"fdp_tab": "Trade-off curves", "fdp_g_mu": f"{linked:g}"},
            help="Opens 'f-DP and Gaussian DP' on its trade-off curves, with this μ.",
        )
        if mu > FDP_MU_MAX:
            st.caption(f"μ = {fmt_value(mu)} is beyond that page's slider, which stops at "
                       f"{FDP_MU_MAX:g}: the link opens it at μ = {linked:g}.")
        elif abs(linked - mu) > 1e-9:
            st.caption(f"That page's slider moves in steps of {FDP_MU_STEP:g}: μ = "
                       f"{fmt_value(mu)} is rounded to {linked:g} there.")


# --- 4. Releasing a statistic -------------------------------------------------------------------

def _use_query_sensitivity(value: float) -> None:
    """Button callback: the query's Δ goes into the Δ row; σ is solved again for it."""
    st.session_state[QUANTITIES["sensitivity"].key] = float(value)
    st.session_state["gauss_solve"] = "sigma"


def release_demo(state: State) -> None:
    s = state.setting
    st.markdown(
        "Release a statistic of real data with the page's σ. The noise does not depend on "
        "the data, only on σ: a count of millions and a count of ten get the same ± "
        f"{fmt_value(s.sigma)}."
    )
    c1, c2, c3 = st.columns(3)
    with c1:
        source = st.selectbox(
            "Data", list(SOURCE_LABELS), index=1, format_func=SOURCE_LABELS.get,
            key="gauss_source", bind="query-params",
            help="A built-in 2020 population by single year of age (0 … 84, 85+), from which "
            "N people are drawn, or a column of your own CSV file.")
        upload = None
        if source == UPLOAD:
            with st.container(border=True):
                upload, problem = sources.upload_control(key="gauss_file")
                if upload is not None:
                    column = st.selectbox(
                        "Column to release", list(upload.table.columns), key="gauss_col",
                        help="Which column of your file holds the data.")
        else:
            n = controls.sample_size_slider("People N drawn from the population", key="gauss_n",
                                           default=10_000)
        seed = controls.seed_control("gauss_seed")
    if source == UPLOAD and upload is None:
        if problem:
            kit.error(problem)
        else:
            st.info("Upload a CSV file, or pick a built-in population.",
                    icon=":material/upload_file:")
        return
    counts_upload = upload is not None and upload.kind == "counts"
    with c2:
        queries = ["count", "histogram"] if counts_upload else list(QUERY_LABELS)
        query = st.radio(
            "Query", queries, format_func=QUERY_LABELS.get, key="gauss_query",
            bind="query-params", horizontal=True,
            help="Count: people (in an age group); one person changes it by at most 1. "
            "Sum: of values clipped to [0, U]; one person changes it by at most U. "
            "Histogram: one count per group.")
        upper = None
        if query == "count" and upload is None:
            age_lo, age_hi = st.slider(
                "Age group to count", 0, TOP_AGE, (65, TOP_AGE), key="gauss_ages",
                bind="query-params",
                help=f"Count the people aged from … to … ({TOP_AGE} stands for {TOP_AGE} and "
                "over).")
        elif query == "count":
            st.caption("The count of people: " + ("the total of your counts." if counts_upload
                                                   else "the number of values in the column."))
        elif query == "sum":
            upper = st.number_input(
                "Clipping bound U", min_value=1e-6, max_value=1e9, value=float(TOP_AGE),
                step=1.0, key="gauss_upper", bind="query-params",
                help=f"Each value is clipped to [0, U] before summing, so one person moves the "
                f"sum by at most U: Δ = U. For ages the natural U is {TOP_AGE}, the top-coded "
                "last age.")
        else:
            if counts_upload:
                st.caption(f"The histogram: your {len(upload.table)} counts, one per row.")
            else:
                width = st.radio(
                    "Age groups", [5, 10], format_func=sources.AGE_BINNINGS.get,
                    key="gauss_width", bind="query-params", horizontal=True,
                    help="5-year (0–4 … 80–84, 85+) or 10-year (0–9 … 70–79, 80+) groups; "
                    "uploaded values are read as ages.")
            neighbours = st.radio(
                "Neighbouring data sets differ by", list(NEIGHBOUR_LABELS),
                format_func=NEIGHBOUR_LABELS.get, key="gauss_neighbours", bind="query-params",
                help="Add or remove one person: one bin changes by 1, Δ = 1. Replace one "
                "person: one bin loses 1 and another gains 1, Δ = √2 (L2 norm).")
            query = neighbours

    # The data and the true answer.
    rng = np.random.default_rng(seed)
    try:
        if upload is None:
            probs = datasets.proportions(datasets.age_histogram(source, 1).to_numpy())
            by_age = datasets.draw_histogram(probs, n, rng=rng)
            ages = np.arange(by_age.size)
        elif counts_upload:
            counts = datasets.counts_from_column(upload.table[column], name="to release")
            labels = ([str(v) for v in upload.table.index]
                      if not isinstance(upload.table.index, pd.RangeIndex)
                      else [str(j) for j in range(1, len(counts) + 1)])
        else:
            values = upload.table[column].dropna().to_numpy()
            if values.size == 0:
                raise datasets.UploadError(f'Column "{column}" has no values.')
    except ValueError as exc:
        kit.error(f"This data cannot be released: {plain(str(exc))}")
        return

    if query == "count":
        if upload is None:
            true_value = float(by_age[age_lo:age_hi + 1].sum())
            what = (f"people aged {age_lo}–{age_hi}" if age_hi < TOP_AGE
                    else f"people aged {age_lo} and over")
        else:
            true_value = float(counts.sum()) if counts_upload else float(values.size)
            what = "people in your file"
    elif query == "sum":
        if upload is None:
            true_value = gaussian.clipped_sum(ages, upper, weights=by_age)
            what = f"the sum of ages clipped to [0, {upper:g}]"
        else:
            true_value = gaussian.clipped_sum(values, upper)
            what = f"the sum of \"{column}\" clipped to [0, {upper:g}]"
    else:
        if upload is None:
            labels = datasets.age_bin_labels(width)
            counts = datasets.regroup_ages(by_age, width)
        elif not counts_upload:
            if np.any(values < 0):
                kit.error(f'Column "{column}" has a negative value ({values.min():g}); '
                              "a histogram of ages needs values of 0 or more.")
                return
            labels = datasets.age_bin_labels(width)
            counts = datasets.bin_values(values, width=width).astype(float)

    # The settings behind the release, for the report.
    released = {"data": SOURCE_LABELS[source] + (f', column "{column}"' if upload else ""),
                "query": QUERY_LABELS.get(query, QUERY_LABELS["histogram"])}
    if upload is None:
        released["people N"] = f"{n:,}"
        released["seed"] = seed
    if query == "count" and upload is None:
        released["age group"] = f"{age_lo}–{age_hi}"
    elif query == "sum":
        released["clipping bound U"] = f"{upper:g}"
    elif query in NEIGHBOUR_LABELS:
        if not counts_upload:
            released["age groups"] = sources.AGE_BINNINGS[width]
        released["neighbouring data sets differ by"] = NEIGHBOUR_LABELS[query]
    kit.settings(released)

    # The guarantee for this query at the page's σ.
    q_sens = gaussian.query_sensitivity(query, upper=upper)
    with c3:
        try:
            q_eps = float(gaussian.gaussian_epsilon(s.delta, s.sigma, q_sens))
        except ValueError as exc:
            q_eps = None
            kit.error(f"No guarantee can be stated at this δ: {plain(str(exc))}")
        if q_eps is not None:
            st.metric(f"ε for this query at δ = {fmt_sci(s.delta)}", fmt_value(q_eps),
                      border=True,
                      help="The exact smallest ε with (ε, δ)-DP for this query's sensitivity "
                      "at the page's σ and δ.")
            st.caption(f"Query sensitivity Δ = {fmt_value(q_sens)}; noise σ = "
                       f"{fmt_value(s.sigma)}: this release is ({fmt_value(q_eps)}, "
                       f"{fmt_sci(s.delta)})-DP.")
            kit.finding(
                f"Releasing {QUERY_LABELS.get(query, 'a histogram')} with σ = "
                f"{fmt_value(s.sigma)} (query sensitivity Δ = {fmt_value(q_sens)}) is "
                f"({fmt_value(q_eps)}, {fmt_sci(s.delta)})-DP.")
        if not math.isclose(q_sens, s.sensitivity, rel_tol=1e-12):
            st.info(f"This query's sensitivity is Δ = {fmt_value(q_sens)}, not the Δ = "
                    f"{fmt_value(s.sensitivity)} set above, so its ε differs from the page's "
                    f"ε = {fmt_value(s.eps)}.", icon=":material/info:")
            st.button("Use this query's sensitivity above", key="gauss_use_sens",
                      on_click=_use_query_sensitivity, args=(q_sens,),
                      icon=":material/arrow_upward:",
                      help="Sets Δ above to this query's sensitivity and solves for σ again, "
                      "so the release gets the page's (ε, δ).")

    if query in ("count", "sum"):
        scalar_release(true_value, what, s.sigma, rng)
    else:
        histogram_release(labels, counts, s.sigma, rng)


def scalar_release(true_value: float, what: str, sigma: float, rng) -> None:
    releases = gaussian.release(true_value, sigma, size=N_RELEASES, rng=rng)
    summary = gaussian.release_summary(true_value, sigma)
    sim = gaussian.summarise_releases(releases, true_value, half_width=summary.half_width)
    sim_rmse, sim_negative, sim_inside = sim.rmse, sim.negative_share, sim.inside_share
    st.markdown(f"**Query:** {what}. True answer **{true_value:,.6g}**.")
    m = st.columns(4)
    m[0].metric("One release", f"{releases[0]:,.6g}", border=True,
                help="The true answer plus one draw of N(0, σ²): what would be published.")
    m[1].metric("RMSE (theory = σ)", fmt_value(summary.rmse), border=True,
                delta=f"simulated {fmt_value(sim_rmse)}", delta_color="off", delta_arrow="off",
                help=f"Root mean squared error: σ, the noise is unbiased. Simulated: over "
                f"{N_RELEASES:,} releases.")
    m[2].metric("95% of releases within", f"± {fmt_value(summary.half_width)}", border=True,
                delta=f"simulated {sim_inside:.1%}", delta_color="off", delta_arrow="off",
                help="1.96 σ either side of the true answer.")
    m[3].metric("Chance of a negative release", fmt_pct(float(summary.p_negative)),
                border=True, delta=f"simulated {fmt_pct(sim_negative)}", delta_color="off",
                delta_arrow="off",
                help="Φ(−true/σ): a count released below 0. Post-processing (rounding, "
                "clipping at 0) costs no privacy but adds bias.")
    kit.chart(dpviz.gaussian.release_distribution_figure(releases, true_value, sigma,
                                                      half_width=summary.half_width),
                  key="gauss_fig_release", name="Simulated releases of the answer")
    kit.finding(
        f"The true answer ({what}) is {true_value:,.6g}; one release gives "
        f"{releases[0]:,.6g}, and 95% of releases fall within ± "
        f"{fmt_value(summary.half_width)} (RMSE σ = {fmt_value(summary.rmse)}).")


def histogram_release(labels, counts, sigma: float, rng) -> None:
    released = gaussian.release(counts, sigma, rng=rng)
    summary = gaussian.release_summary(counts, sigma)
    st.markdown(f"**Query:** a histogram of {len(labels)} counts, {counts.sum():,.0f} people; "
                "N(0, σ²) noise on every count.")
    m = st.columns(4)
    m[0].metric("RMSE per bin (= σ)", fmt_value(summary.rmse), border=True,
                help="Each count gets its own N(0, σ²) noise.")
    m[1].metric("Expected negative bins", f"{summary.expected_negative:.3g}", border=True,
                help="Σ Φ(−count/σ) over the bins.")
    m[2].metric("Largest P(negative) of a bin", fmt_pct(float(np.max(summary.p_negative))),
                border=True, help="For the smallest count: Φ(−count/σ).")
    m[3].metric("Negative bins in this release", f"{int(np.sum(released < 0))}", border=True,
                help="Bins of the release drawn here that fell below 0.")
    kit.chart(dpviz.gaussian.histogram_release_figure(labels, counts, released,
                                                   half_width=summary.half_width),
                  key="gauss_fig_hist", name="The released histogram")
    kit.finding(
        f"Each of the {len(labels)} counts gets N(0, σ²) noise, σ = {fmt_value(sigma)}: "
        f"{summary.expected_negative:.3g} bins are expected below 0, "
        f"{int(np.sum(released < 0))} in this release.")
    st.caption(f"Bars: the release; whiskers ± {fmt_value(summary.half_width)}, where 95% of "
               "releases of each count fall.")


# --- 5. The σ table -----------------------------------------------------------------------------

def sigma_tables(state: State) -> None:
    sens = state.sensitivity
    st.markdown(f"σ for common (ε, δ) at Δ = {fmt_value(sens)}: the analytic (exact) σ; rows "
                "ε, columns δ. The full table below has all three calibrations.")
    table = sigma_table(float(sens))
    pivot = table.pivot(index="eps", columns="delta", values="sigma_analytic")
    pivot = pivot[list(TABLE_DELTA)]
    pivot.columns = [f"δ = {fmt_sci(d)}" for d in pivot.columns]
    pivot.index = [f"ε = {e:g}" for e in pivot.index]
    st.markdown("**Exact (analytic) σ**")
    kit.table(pivot, key="gauss_pivot", name="Noise table (σ): exact calibration",
                  csv=pivot.rename_axis("ε").reset_index(), column_config={
        c: st.column_config.NumberColumn(format="%.4g") for c in pivot.columns})
    full = table.rename(columns={
        "eps": "ε", "delta": "δ", "sigma_analytic": "σ analytic", "sigma_tail": "σ tail bound",
        "sigma_classical": "σ classical", "classical_valid": "classical valid (ε < 1)",
        "tail_over_analytic": "tail / analytic", "classical_over_analytic":
        "classical / analytic"})
    st.markdown("**All three calibrations**")
    kit.table(full, key="gauss_full_table", name="Noise table (σ): all three calibrations",
                  hide_index=True, column_config={
        "δ": st.column_config.NumberColumn(format="%.0e"),
        **{c: st.column_config.NumberColumn(format="%.4g")
           for c in ("σ analytic", "σ tail bound", "σ classical")},
        **{c: st.column_config.NumberColumn(format="%.3f")
           for c in ("tail / analytic", "classical / analytic")},
    })
    st.caption("The classical σ is not a guarantee for ε ≥ 1; the tail bound's σ always "
               "protects but is larger than needed.")


# ------------------------------------------------------------------------------------------
kit = page_header(TITLE)
st.markdown(
    "The Gaussian mechanism releases a query's answer plus normal noise, "
    r"$M(D) = f(D) + N(0, \sigma^2)$. How much noise gives (ε, δ)-differential privacy "
    "depends on the query's **L2 sensitivity** "
    r"$\Delta = \max \lVert f(D) - f(D') \rVert_2$ over neighbouring data sets D, D′: "
    "how far one person can move the answer. Set three of ε, δ, σ and Δ and the page finds "
    "the fourth, then shows where the number comes from."
)
with st.container(border=True):
    STATE = read_controls()
with st.container(border=True):
    results(STATE)


def needs_setting(section):
    def run(state: State) -> None:
        if not state.complete:
            st.info("This part needs a complete setting: see the message above.",
                    icon=":material/info:")
            return
        section(state)
    return run


# Only the open tab runs (the tab is bound to the URL, so it is tracked).
SECTIONS = {
    "Three calibrations": calibrations,
    "Privacy loss": needs_setting(privacy_loss),
    "As μ-GDP": needs_setting(as_gdp),
    "Release a statistic": needs_setting(release_demo),
    "σ table": sigma_tables,
}
for tab, section in zip(st.tabs(list(SECTIONS), key="gauss_tab", bind="query-params"),
                        SECTIONS.values()):
    with tab:
        if tab.open is not False:
            section(STATE)
kit.end()
