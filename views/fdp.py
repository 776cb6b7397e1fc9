"""Page: f-DP and Gaussian DP, privacy as hypothesis testing (Dong, Roth & Su 2022).

Layout and controls only: the settings, numbers, sentences and tables come from
ui/pages/fdp.py. Each section reads its controls into the page's Settings and returns them.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import streamlit as st

import dpviz
from dpcore import audit
from ui import controls, links, oneperson
from ui.format import fmt_delta, fmt_number, fmt_prob, fmt_share, fmt_sig, headed, worded
from ui.kit import PageKit, page_header
from ui.pages import fdp as page
from ui.pages.fdp import ALPHA, COLORS, DEFAULT, Settings, key
from ui.text import t

# --- controls bound to the URL, keyed and defaulted by their setting ------------------------


def slider(where, label: str, lo, hi, name: str, *, help: str, step=None, disabled=False):
    return where.slider(label, lo, hi, getattr(DEFAULT, name), step=step, key=key(name),
                        bind="query-params", help=help, disabled=disabled)


def select(where, label: str, grid, name: str, *, help: str, fmt=fmt_number, disabled=False):
    return where.select_slider(label, options=grid, value=getattr(DEFAULT, name),
                               format_func=fmt, key=key(name), help=help, bind="query-params",
                               disabled=disabled)


def toggle(label: str, name: str, *, help: str) -> bool:
    return st.toggle(label, value=getattr(DEFAULT, name), key=key(name), bind="query-params",
                     help=help)


def radio(where, label: str, labels: dict, name: str, *, help: str, horizontal=False):
    links.use_earlier_label(key(name))  # a link may name the option by its earlier label
    return where.radio(label, list(labels), horizontal=horizontal, key=key(name),
                       format_func=lambda v: t(labels[v]), bind="query-params", help=help)


def numeric_link(control):
    """``control`` that also takes a link's plain number for one of its steps ("1e-06", as
    a number box wrote it before the control had named steps)."""
    def make(where, label, grid, name, **kwargs):
        k = key(name)
        values = st.query_params.get_all(k) if k in st.query_params else []
        linked = False
        if k not in st.session_state and len(values) == 1:
            step = page.grid_value(values[0], grid)
            if step is not None:
                st.session_state[k] = step
                linked = True
        value = control(where, label, grid, name, **kwargs)
        if linked:  # the Share link names the step as the control writes it
            links.keep_in_link(k)
        return value
    return make


def mu_slider(where, label: str, name: str, *, help: str, disabled=False) -> float:
    return slider(where, label, 0.0, page.MU_MAX, name, step=page.MU_STEP, help=help,
                  disabled=disabled)


# --- In plain words (above the tabs) --------------------------------------------------------


def shift_slider(where, family: str) -> float:
    """The shift μ (Gaussian, 0 … 5) or ε (Laplace, 0 … 10), one control bound to ``fdp_mu``.

    Streamlit gives a slider with another range a new identity, which keeps its own value:
    when the family changes the range, the value held (clamped into the new range) is
    written into the new slider, so the shift stays where the reader left it."""
    k, top = key("mu"), page.shift_max(family)
    held, moved = st.session_state.get(f"{k}_held"), st.session_state.get(f"{k}_top") != top
    carried = held is not None and moved
    if carried:
        if k in st.session_state:  # the old range's slider, as this run left it
            held = st.session_state[k]
            del st.session_state[k]  # … lets go of the key
        st.session_state[k] = min(held, top)
    st.session_state[f"{k}_top"] = top
    value = where.slider(
        t("Shift between the two outputs: μ (ε for Laplace)"), 0.0, top,
        None if carried else DEFAULT.mu, step=page.MU_STEP, key=k, bind="query-params",
        help=t("How far apart the answers on D and D′ are, in units of the noise: μ from 0 "
               "to 5 for the Gaussian outputs, ε from 0 to 10 for the Laplace ones. 0: the "
               "outputs are identically distributed (perfect privacy); 5: easy to tell apart."))
    st.session_state[f"{k}_held"] = value
    if carried:  # a value set so is not written to the address by the slider: write it
        links.keep_in_link(k)
    if carried and held > top:
        where.caption(t("{held:g} is beyond this range; {top:g} is used.", held=held, top=top))
    return value


def plain_words(kit: PageKit, s: Settings) -> Settings:
    """The pair of outputs and their shift (shared with the attacker's test), in one sentence."""
    c1, c2, c3 = st.columns([2, 2, 1])
    family = radio(c1, t("Outputs on D and on D′"), page.FAMILY_LABELS, "family",
                   horizontal=True,
                   help=t("The two output distributions the attacker must tell apart: the "
                          "Gaussian mechanism's (unit noise, the answers differing by μ) or "
                          "the Laplace mechanism's (unit scale, the answers differing by ε)."))
    legacy = legacy_threshold(family)
    s = replace(
        s,
        family=family,
        mu=shift_slider(c2, family),
        say_alpha=select(c3, t("False accusations allowed α"), page.SAY_ALPHA_GRID,
                         "say_alpha", fmt=fmt_share,
                         help=t("The attacker's type-I error α: how often it may accuse "
                                "wrongly. The sentence below and the attacker's test (section "
                                "1) both use it; the test's threshold t is the one that gives "
                                "exactly this α.")))
    if legacy:
        c3.caption(legacy)
        kit.note(legacy)
    sentence, finding = page.plain_words(s)
    kit.number(t("Type-II error β"), page.best_beta(s))
    with kit.leading():  # presenting: first under the title, with the trade-off curve
        st.markdown(sentence)
    kit.finding(finding)
    return s


def legacy_threshold(family: str) -> str:
    """A link from before the threshold followed α carries t: on the run that reads the
    link, α is set from it (page.alpha_from_threshold) and the note saying so is returned."""
    if page.LEGACY_THRESHOLD not in st.query_params:
        return ""
    text = st.query_params[page.LEGACY_THRESHOLD]
    del st.query_params[page.LEGACY_THRESHOLD]
    k = key("say_alpha")
    if k in st.session_state:
        return ""
    if k in st.query_params:  # the link's α wins; the note says what became of its t
        return page.threshold_dropped(family, text)
    alpha, note = page.alpha_from_threshold(family, text)
    if alpha is not None:
        st.session_state[k] = alpha
    return note


# --- 1. The attacker's test -----------------------------------------------------------------


def attacker_test(kit: PageKit, s: Settings) -> Settings:
    """1. The attacker's threshold test on the two output densities, and its trade-off curve."""
    test = page.attacker_test(s)
    helps = (t("The attacker rejects 'the data set is D' (accuses) when the output X exceeds "
               "t: the t whose test wrongly accuses exactly α of the time (α is set above). "
               "A larger α lowers t: more false accusations, fewer misses β."),
             t("α = P₀(X > t): how often the attacker accuses when the data set is really D "
               "(the α chosen above)."),
             t("β = P₁(X ≤ t): how often the attacker misses when the data set is really D′."),
             t("1 for a coin flip (no information); 0 for a perfect attacker."))
    values = (test.threshold, test.alpha, test.beta, test.alpha + test.beta)
    for where, (label, shown), value, help_text in zip(
            st.columns(4), page.attacker_metrics(test).items(), values, helps):
        kit.metric(label, value, shown, where=where, border=True, help=help_text,
                   given=label == t("Type-I error α"))
    left, right = st.columns([3, 2])
    with left:
        kit.chart(dpviz.fdp.attacker_test_figure(test.xs, test.pdf0, test.pdf1, test.threshold,
                                                 alpha=fmt_prob(test.alpha),
                                                 beta=fmt_prob(test.beta),
                                                 names=test.output_names,
                                                 threshold_text=fmt_sig(test.threshold)),
                  key="fdp_fig_test", name=t("The attacker's threshold test"))
    with right, kit.leading():
        kit.chart(dpviz.fdp.tradeoff_figure(
            [(test.curve_name, ALPHA, test.curve, COLORS["gdp" if s.gaussian else "laplace"],
              "solid")],
            point=(test.alpha, test.beta, t("threshold t = {t}", t=fmt_sig(test.threshold))),
            corner=True,
            height=470),
            key="fdp_fig_test_curve", name=t("The test's point on the trade-off curve"))
    kit.finding(page.attacker_finding(s, test))
    st.markdown(t(
        "Every threshold gives one point (α, β). The best attacker at each α is the "
        "Neyman–Pearson likelihood-ratio test; here the likelihood ratio grows with X, so the "
        "threshold tests *are* the best tests and their points trace the whole trade-off curve "
        "T(P, Q). The diagonal Id(α) = 1 − α is a coin flip (perfect privacy); the corner "
        "(0, 0) an attacker who is never wrong (no privacy)."))
    with st.expander(t("The formulas"), expanded=False):
        attacker_formulas(s)
    return s


def attacker_formulas(s: Settings) -> None:
    st.latex(r"T(P,Q)(\alpha) = \inf_{\phi}\{\beta_\phi : \alpha_\phi \le \alpha\},\qquad "
             r"G_\mu(\alpha) = T\big(N(0,1), N(\mu,1)\big)(\alpha) = "
             r"\Phi\big(\Phi^{-1}(1-\alpha) - \mu\big)")
    if s.gaussian:
        st.latex(r"\alpha = P_0(X > t) = 1 - \Phi(t),\qquad \beta = P_1(X \le t) = \Phi(t - \mu)")
    else:
        st.latex(
            r"T\big(\mathrm{Lap}(0,1), \mathrm{Lap}(\varepsilon,1)\big)(\alpha) = "
            r"\begin{cases} 1 - e^{\varepsilon}\alpha & \alpha < e^{-\varepsilon}/2 \\ "
            r"e^{-\varepsilon}/(4\alpha) & e^{-\varepsilon}/2 \le \alpha \le 1/2 \\ "
            r"e^{-\varepsilon}(1-\alpha) & \alpha > 1/2 \end{cases}")


# --- 2. Trade-off curves --------------------------------------------------------------------


def curve_box(show: str, label: str, help: str, *params, caption: str | None = None) -> dict:
    """A curve's switch and its parameters (partials of the controls above, side by side
    when there are two), greyed out while the curve is off."""
    with st.container(border=True):
        v = {show: toggle(label, show, help=help)}
        for where, draw in zip(st.columns(2) if len(params) == 2 else [st], params):
            v[draw.keywords["name"]] = draw(where, disabled=not v[show])
        if caption:
            st.caption(caption)
    return v


def curve_switches() -> dict:
    """Each curve's switch and its parameters, in a box of its own."""
    sensitivity = partial(slider, label=t("sensitivity Δ"), lo=0.1, hi=5.0, step=0.1,
                          help=t("How much one person can change the query's answer."))
    return {
        **curve_box("show_g", t("Gaussian DP (μ-GDP)"),
                    t("The trade-off curve G_μ of N(0,1) vs N(μ,1)."),
                    partial(mu_slider, label=t("μ of Gaussian DP"), name="g_mu",
                            help=t("μ-GDP: no test beats G_μ. Smaller μ, more privacy."))),
        **curve_box("show_ed", t("(ε, δ)-DP"),
                    t("The curve f_ε,δ of (ε, δ)-differential privacy."),
                    partial(select, label=t("ε of (ε, δ)-DP"), grid=page.EPS_GRID, name="ed_eps",
                            help=t("(ε, δ)-DP is exactly f_ε,δ-DP.")),
                    partial(select, label=t("δ of (ε, δ)-DP"), grid=page.DELTA_GRID,
                            name="ed_delta",
                            fmt=fmt_delta, help=t("The probability with which ε may fail; the "
                                                  "curve starts at 1 − δ."))),
        **curve_box("show_gauss", t("Gaussian mechanism"),
                    t("Adds N(0, σ²) noise to a query of sensitivity Δ: G_{Δ/σ}."),
                    partial(select, label=t("noise σ"), grid=page.SCALE_GRID, name="gauss_sigma",
                            help=t("Standard deviation of the Gaussian noise.")),
                    partial(sensitivity, name="gauss_sens")),
        **curve_box("show_lap", t("Laplace mechanism"),
                    t("Adds Lap(b) noise to a query of sensitivity Δ: ε = Δ/b."),
                    partial(select, label=t("noise scale b"), grid=page.SCALE_GRID, name="lap_b",
                            help=t("Scale of the Laplace noise (its sd is √2·b).")),
                    partial(sensitivity, name="lap_sens")),
        **curve_box("show_krr", t("k-ary randomised response"),
                    t("Reports the true category with probability e^ε/(e^ε + k − 1), otherwise "
                      "one of the k − 1 others at random."),
                    partial(select, label=t("ε of k-RR"), grid=page.KRR_EPS_GRID, name="krr_eps",
                            help=t("Its nominal privacy level: k-RR is ε-DP.")),
                    partial(slider, label=t("categories k"), lo=2, hi=page.K_MAX, name="krr_k",
                            help=t("Number of possible answers."))),
        **curve_box("show_rs", t("Random substitution"),
                    t("Keeps a category with γ times the probability of any other (a γ-diagonal "
                      "matrix, Kang, Lee & Hong 2009): k-RR with privacy level ε = ln γ and k "
                      "categories (N in Kang, Lee & Hong 2009)."),
                    partial(select, label=t("γ (> 1)"), grid=page.GAMMA_GRID, name="rs_gamma",
                            help=t("Ratio of keeping to substituting probabilities; its privacy "
                                   "level is ε = ln γ.")),
                    partial(slider, label=page.rs_categories_label(), lo=2, hi=page.K_MAX,
                            name="rs_n", help=t("Number of categories k of one person's "
                                                "value."))),
        **curve_box("show_hist", t("Private histogram (Compare page)"),
                    t("The truncated Laplace histogram X = max(0, C + Lap(2/ε)) of the page "
                      "'Compare two private histograms'."),
                    partial(select, label=page.hist_level_label(),
                            grid=controls.ALPHA_GRID, name="hist_alpha",
                            help=t("Noise Lap(2/ε) on every count. Log scale, 0.001 to 10.")),
                    caption=t("Neighbouring histograms: one person moves from one bin to "
                              "another, so one count goes down by 1 and another up by 1. Each "
                              "of the two bins is a Laplace shift of 1 at scale 2/ε, and the "
                              "curve is the product of the two; truncating at 0 is "
                              "post-processing and cannot lower it.")),
    }


def target_controls() -> dict:
    """The target curve to check every curve against, and the δ of the table's ε."""
    t1, t2, t3 = st.columns([2, 3, 2])
    v = {"target": radio(t1, t("Target curve"), page.TARGET_LABELS, "target", horizontal=True,
                         help=t("The guarantee to check every curve against: μ*-GDP or "
                                "(ε*, δ*)-DP."))}
    if v["target"] == "gdp":
        v["target_mu"] = mu_slider(t2, t("target μ*"), "target_mu",
                                   help=t("A curve meets μ*-GDP if it never dips below the "
                                        "Gaussian DP curve G_μ*."))
    else:
        e1, e2 = t2.columns(2)
        v["target_eps"] = select(e1, t("target ε*"), page.EPS_GRID, "target_eps",
                                 help=t("A curve meets (ε*, δ*)-DP if it never dips below "
                                        "f_ε*,δ*."))
        v["target_delta"] = select(e2, t("target δ*"), page.DELTA_GRID, "target_delta",
                                   fmt=fmt_delta, help=t("The δ of the target (ε*, δ*)-DP."))
    v["table_delta"] = select(t3, t("δ for the table's ε"), page.DELTA_GRID, "table_delta",
                              fmt=fmt_delta,
                              help=t("The table gives, for each curve, the smallest ε with "
                                     "(ε, δ)-DP at this δ."))
    return v


def tradeoff_curves(kit: PageKit, s: Settings) -> Settings:
    """2. Trade-off curves of mechanisms, their tightest μ and ε, and a target."""
    st.markdown(t(
        "Each mechanism has its own trade-off curve; the higher the curve, the more private the "
        "mechanism. A curve that stays above the target everywhere meets it. Switch curves on "
        "and off and move their parameters; every curve is drawn on {n:,} values of α.",
        n=ALPHA.size))
    # The chart's column two thirds wide: at three fifths the curves' table under the chart
    # ran past its edge at 1,280 px (issue 36).
    left, chart = st.columns([1, 2])
    with left:
        s = replace(s, **curve_switches())
    with chart, st.container(border=True):
        s = replace(s, **target_controls())
    shown = page.curves(s)
    table, failing = page.curve_table(shown, s)
    target_name, target_fn = page.target(s)
    delta = fmt_delta(s.table_delta)
    with chart:
        kit.chart(dpviz.fdp.tradeoff_figure(
            [(c.name, ALPHA, c.beta, c.color, c.dash) for c in shown],
            target=(target_name, ALPHA, target_fn(ALPHA)), failing=failing, height=780),
            key="fdp_fig_curves", name=t("Trade-off curves and the target"))
        for i, row in enumerate(table.itertuples(index=False)):
            # G_μ's tightest μ is its μ, a setting
            kit.number(t("{curve}: tightest μ", curve=row[0]), float(row[1]),
                       given=s.show_g and i == 0)
            kit.number(t("{curve}: smallest ε at δ", curve=row[0]), float(row[2]))
        if shown:
            for finding in page.curve_findings(table, s):
                kit.finding(finding)
            # μ and ε written as the findings write them (one number, one form); the CSV
            # keeps the numbers
            shown_table = worded(table, {page.TIGHTEST_MU: fmt_sig, page.SMALLEST_EPS: fmt_sig})
            kit.table(shown_table, csv=table, key="fdp_table",
                      name=t("Privacy parameters of the curves"),
                      hide_index=True, column_config=headed(page.curve_headers(), {
                          page.TIGHTEST_MU: st.column_config.Column(
                              help=t("Smallest μ with the curve ≥ G_μ everywhere (∞: no μ "
                                     "works, e.g. when the curve has δ > 0).")),
                          page.SMALLEST_EPS: st.column_config.Column(
                              help=t("Smallest ε with the curve ≥ f_ε,δ, δ = {delta}.",
                                     delta=delta))}))
            st.caption(t(
                "δ = {delta}. Target: {target}; where a curve lies below it (by more than "
                "{tol}) it is shaded in red. μ and ε are exact, not read off the grid: "
                "polygons (f_ε,δ, k-RR, random substitution) at their vertices; the Laplace "
                "curve by its closed forms μ = 2Φ⁻¹(1 − e^(−ε/2)/2) and ε = max(0, ε_L + "
                "2 ln(1 − δ)); the histogram's by a solver on its exact pieces. For the "
                "Gaussian curves ε is the exact conversion of μ-GDP (Corollary 2.13): they "
                "start vertically, which no grid can see, and δ = 0 needs ε = ∞.", delta=delta,
                target=target_name, tol=fmt_sig(page.FAIL_TOL)))
        else:
            st.info(t("Switch on at least one curve to see its privacy parameters."))
    kit.note(t(
        "Every curve is drawn and checked against the target on {n:,} values of α; its "
        "tightest μ and smallest ε are exact: polygons (f_ε,δ, k-RR, random substitution) "
        "read at their vertices, the Laplace curve in closed form (its worst point, α = β = "
        "e^(−ε/2)/2, lies below the grid's first point once ε is large), the histogram by a "
        "solver on its exact pieces, and for the Gaussian curves ε is the exact conversion of "
        "μ-GDP (Corollary 2.13). f_ε,δ(α) = max{{0, 1 − δ − e^ε α, "
        "e^(−ε)(1 − δ − α)}}: the Korean blog review of Dong, Roth & Su (2022) that this page "
        "follows prints the last factor as e^ε; e^(−ε) is correct (Dong, Roth & Su 2022, "
        "eq. 5).", n=ALPHA.size))
    with st.expander(t("The formulas"), expanded=False):
        st.latex(r"f_{\varepsilon,\delta}(\alpha) = \max\big\{0,\; 1 - \delta - e^{\varepsilon}"
                 r"\alpha,\; e^{-\varepsilon}(1 - \delta - \alpha)\big\}")
        st.markdown(t(
            r"The Korean blog review of Dong, Roth & Su (2022) prints the last term with "
            r"$e^{\varepsilon}$; the correct factor is $e^{-\varepsilon}$ (Dong, Roth & Su "
            r"2022, eq. 5): only then is "
            r"$f_{\varepsilon,\delta}$ symmetric and convex, and it is what the page computes."))
        st.latex(t(r"\text{tightest } \mu = \max_\alpha \big[\Phi^{-1}(1-\alpha) - "
                 r"\Phi^{-1}(f(\alpha))\big],\qquad \text{smallest } \varepsilon = "
                 r"\max_\alpha \log\max\Big\{\frac{1-\delta-f(\alpha)}{\alpha},\;"
                 r"\frac{1-\delta-\alpha}{f(\alpha)}\Big\}"))
        st.latex(r"\text{Laplace: } \mu = 2\,\Phi^{-1}\big(1 - e^{-\varepsilon/2}/2\big),\qquad "
                 r"\varepsilon(\delta) = \max\{0,\; \varepsilon_L + 2\ln(1-\delta)\},\qquad "
                 r"f_{\varepsilon,0}: \mu = 2\,\Phi^{-1}"
                 r"\big(e^{\varepsilon}/(1+e^{\varepsilon})\big)")
    return s


# --- 3. Group privacy -----------------------------------------------------------------------


def group_privacy(kit: PageKit, s: Settings) -> Settings:
    """3. Group privacy: G_μ to G_kμ, and Theorem 2.14 for a general curve."""
    st.markdown(t(
        "Protecting a group of k people at once (a family, a household) is weaker: D and D′ "
        r"now differ in k records. An f-DP mechanism is $[1 - (1 - f)^{\circ k}]$-DP for "
        r"groups of k, with $(1 - f)^{\circ k}$ the map $x \mapsto 1 - f(x)$ applied k times "
        r"(Theorem 2.14); for μ-GDP this is exactly kμ-GDP."))
    with st.expander(t("The formula"), expanded=False):
        st.latex(t(r"f \text{ for one person} \;\Longrightarrow\; 1 - (1 - f)^{\circ k} \text{ "
                 r"for groups of } k,\qquad G_\mu \;\Longrightarrow\; G_{k\mu}"))
    c1, c2, c3, c4 = st.columns(4)
    s = replace(
        s,
        group_k=slider(c1, t("Group size k"), 1, 10, "group_k",
                       help=t("Number of people whose data may change together.")),
        group_mu=mu_slider(c2, t("μ (one person)"), "group_mu",
                           help=t("The mechanism's μ-GDP for one person.")),
        group_curve=radio(c3, t("General curve f"), page.GROUP_CURVE_LABELS, "group_curve",
                          help=t("A curve that is not Gaussian, to apply Theorem 2.14 to.")),
        group_eps=select(c4, t("ε (one person)"), page.EPS_GRID, "group_eps",
                         help=t("ε of the general curve f.")))
    general, gap = page.group_general_curves(s)
    left, right = st.columns(2)
    with left:
        kit.chart(dpviz.fdp.tradeoff_figure(page.group_gdp_curves(s), height=520),
                  key="fdp_fig_group_gdp", name=t("Group privacy of Gaussian DP"))
    with right:
        kit.chart(dpviz.fdp.tradeoff_figure(general, height=520), key="fdp_fig_group_f",
                  name=t("Group privacy of a general curve"))
        st.caption(page.group_caption(s, gap))
        kit.number(page.group_gap_label(s), gap)
    for finding in page.group_findings(s, gap):
        kit.finding(finding)
    return s


# --- 4. Composition -------------------------------------------------------------------------


def composition(kit: PageKit, s: Settings) -> Settings:
    """4. Composition: √n·μ for Gaussian DP, the exact ε-DP composition and its CLT."""
    st.markdown(t(
        "Running several private mechanisms on the same data composes their privacy losses. "
        "For Gaussian DP the rule is exact and simple: μ₁-, …, μₙ-GDP compose to "
        r"$\sqrt{\mu_1^2 + \cdots + \mu_n^2}$-GDP, so n runs of μ-GDP give $\sqrt{n}\,\mu$ "
        "(Corollary 3.3). The n-fold composition of an ε-DP mechanism is not an f_ε,δ curve "
        "at all, but by the central limit theorem (Theorem 3.5) it is close to a Gaussian "
        "curve."))
    with st.expander(t("The formulas"), expanded=False):
        st.latex(r"G_{\mu_1}\otimes\cdots\otimes G_{\mu_n} = "
                 r"G_{\sqrt{\mu_1^2+\cdots+\mu_n^2}},\qquad "
                 r"f_{\varepsilon,0}^{\otimes n} \approx G_{2\sqrt{n}\tanh(\varepsilon/2)}")
    c1, c2, c3 = st.columns(3)
    s = replace(
        s,
        comp_n=slider(c1, t("Number of mechanisms n"), 1, 200, "comp_n",
                      help=t("How many releases are composed (up to 200).")),
        comp_mu=mu_slider(c2, t("μ of each (Gaussian DP)"), "comp_mu",
                          help=t("Each release is μ-GDP.")),
        comp_eps=select(c3, t("ε of each (ε-DP)"), page.EPS_GRID, "comp_eps",
                        help=t("Each release is ε-DP.")))
    c = page.composition(s)
    left, right = st.columns(2)
    with left:
        kit.chart(dpviz.fdp.tradeoff_figure(page.composition_gdp_curves(s, c), height=520),
                  key="fdp_fig_comp_gdp", name=t("Composition of Gaussian DP"))
        kit.metric(page.total_mu_label(s), c.total_mu, fmt_sig(c.total_mu),
                   help=t("√n·μ, exactly."))
    with right:
        kit.chart(dpviz.fdp.tradeoff_figure(page.composition_eps_curves(s, c), height=520),
                  key="fdp_fig_comp_eps", name=t("Composition of ε-DP and its CLT approximation"))
        k1, k2 = st.columns(2)
        kit.metric(t("μ of the CLT approximation"), c.clt, fmt_sig(c.clt), where=k1,
                  help=t("2√n·tanh(ε/2) (Theorem 3.5); about √n·ε for small ε."))
        kit.metric(t("Largest gap, exact vs CLT"), c.clt_gap, f"{c.clt_gap:.3f}", where=k2,
                  help=t("Largest vertical distance between the two curves on the α grid; it "
                         "shrinks as n grows with √n·ε fixed."))
        st.caption(t("The exact curve: Binomial({n}, q) against Binomial({n}, 1 − q), "
                     "q = 1/(1 + e^ε), the n-fold product of randomised response.", n=s.comp_n))
    for finding in page.composition_findings(s, c):
        kit.finding(finding)
    return s


# --- 5. Conversions -------------------------------------------------------------------------


def conversions(kit: PageKit, s: Settings) -> Settings:
    """5. δ(ε) of μ-GDP, and μ from a target (ε, δ)."""
    st.markdown(t(
        "μ-GDP implies (ε, δ)-DP for **every** ε ≥ 0 at once, with δ given by a whole curve "
        "(Corollary 2.13). Read the δ that goes with your ε off it, or go the other way: which "
        "μ gives the (ε, δ) you were asked for?"))
    with st.expander(t("The formula"), expanded=False):
        st.latex(r"\delta(\varepsilon) = \Phi\Big(-\frac{\varepsilon}{\mu} + "
                 r"\frac{\mu}{2}\Big) - e^{\varepsilon}\,\Phi\Big(-\frac{\varepsilon}{\mu} - "
                 r"\frac{\mu}{2}\Big)")
    left, right = st.columns([3, 2])
    with left:
        c1, c2 = st.columns(2)
        s = replace(s, conv_mu=mu_slider(c1, t("μ"), "conv_mu",
                                         help=t("The mechanism is μ-GDP.")),
                    conv_eps=slider(c2, t("ε to read off"), 0.0, 10.0, "conv_eps", step=0.05,
                                    help=t("Which ε to read the curve at.")))
        eps_line, delta_line, delta = page.delta_reading(s)
        delta_fig = dpviz.fdp.delta_curve_figure(eps_line, delta_line, mu=s.conv_mu,
                                                 point=(s.conv_eps, delta, t(
                                                     "ε = {eps:g} → δ = {delta}", eps=s.conv_eps,
                                                     delta=fmt_prob(delta))))
        if delta_fig.layout.yaxis.type == "log":
            delta_fig.update_yaxes(title_text=t("δ(ε) (log scale)"))
        kit.chart(delta_fig, key="fdp_fig_delta", name=t("Conversion from μ-GDP to (ε, δ)-DP"))
        kit.metric(page.conv_delta_label(s), delta, fmt_prob(delta),
                   help=t("The mechanism is (ε, δ(ε))-DP."))
    with right, st.container(border=True):
        st.markdown(t("**From (ε, δ) to μ**"))
        s = replace(
            s,
            inv_eps=st.number_input(t("target ε"), min_value=0.0, max_value=50.0,
                                    value=DEFAULT.inv_eps, step=0.1, key=key("inv_eps"),
                                    bind="query-params", help=t("The ε you must guarantee.")),
            inv_delta=numeric_link(select)(st, t("target δ"), page.INV_DELTA_GRID, "inv_delta",
                                           fmt=fmt_delta,
                                           help=t("The δ you must guarantee (10⁻¹² to 0.5).")))
        inv = page.inverse(s)
        kit.number(t("Check: δ at that μ"), inv.check)
        kit.metric(t("Largest μ with δ(ε) ≤ target δ"), inv.mu, fmt_sig(inv.mu, 6),
                  help=t("μ = fdp.gdp_mu(ε, δ): any μ-GDP mechanism with this μ or less is "
                         "(ε, δ)-DP."))
        st.caption(t("Check: δ({eps:g}) at μ = {mu} is {check}.", eps=s.inv_eps,
                     mu=fmt_sig(inv.mu, 6), check=fmt_prob(inv.check)))
        st.caption(t("The Gaussian mechanism with sensitivity 1 needs noise σ ≥ {sigma} for "
                     "this.", sigma=fmt_sig(inv.sigma)))
    for finding in page.conversion_findings(s, delta, inv):
        kit.finding(finding)
    return s


# --- 6. An auditor's view -------------------------------------------------------------------


def audit_controls(s: Settings) -> Settings:
    """The audited mechanism and its parameter, the draws R and the seed."""
    c1, c2, c3 = st.columns(3)
    with c1:
        mech = radio(st, t("Mechanism"), page.MECHANISM_LABELS, "aud_mech", horizontal=True,
                     help=t("The mechanism the auditor runs."))
        s = replace(s, aud_mech=mech)
        if mech == "gaussian":
            s = replace(s, aud_sigma=select(
                st, t("noise σ"), page.SCALE_GRID, "aud_sigma",
                help=t("Gaussian noise N(0, σ²) on a query of sensitivity 1: G_{1/σ}.")))
        elif mech == "laplace":
            s = replace(s, aud_b=select(
                st, t("noise scale b"), page.SCALE_GRID, "aud_b",
                help=t("Laplace noise Lap(b) on a query of sensitivity 1: ε = 1/b.")))
        else:
            e1, e2 = st.columns(2)
            s = replace(s, aud_eps=select(e1, t("ε of k-RR"), page.KRR_EPS_GRID, "aud_eps",
                                          help=t("k-RR's privacy level.")),
                        aud_k=slider(e2, t("categories k"), 2, page.K_MAX, "aud_k",
                                     help=t("Number of possible answers.")))
    with c2:
        s = replace(s, aud_reps=select(
            st, t("Draws R on each input"), page.REPS_GRID, "aud_reps",
            help=t("Runs of the mechanism on each of the two inputs; at most {cap:,}.",
                   cap=audit.MAX_REPS)))
        st.caption(t("R is capped at {cap:,} draws per input, which keeps a run under a "
                     "second.", cap=audit.MAX_REPS))
    with c3, st.expander(t("Random seed"), expanded=False):
        return replace(s, seed=controls.seed_control(key("seed")))


def audit_run(s: Settings):
    """The empirical curve of this run: the one from the last run of the session if that had
    the same mechanism, draws and seed, else drawn now, with a progress bar."""
    run_key = (s.aud_mech, tuple(sorted(page.audit_params(s).items())), int(s.aud_reps),
               int(s.seed))
    last = st.session_state.get("fdp_audit_last")
    if last is None or last["key"] != run_key:
        bar = st.progress(0.0, text=t("Running the mechanism…"))
        emp_a, emp_b = page.audit_tradeoff(s, progress=lambda done: bar.progress(
            done / s.aud_reps, text=t("Running the mechanism… {done:,} of {reps:,} draws",
                                      done=done, reps=s.aud_reps)))
        bar.empty()
        last = {"key": run_key, "alpha": emp_a, "beta": emp_b}
        st.session_state["fdp_audit_last"] = last
    return last["alpha"], last["beta"]


def auditor(kit: PageKit, s: Settings) -> Settings:
    """6. Simulated outputs on two neighbouring inputs: the empirical curve."""
    st.markdown(t(
        "An auditor cannot read the mechanism's code, only run it: on two neighbouring inputs "
        "(query answers 0 and 1), R times each. The empirical trade-off curve of the outputs "
        "estimates the true one; where it falls clearly below the claimed curve, the claim is "
        "false."))
    s = audit_controls(s)
    emp_a, emp_b = audit_run(s)
    theory = page.audit_theory(s)
    plot_a, plot_b = page.thin(emp_a, emp_b)
    # Halves: in two fifths the estimates' table ran past its edge at 1,280 px (issue 36).
    left, right = st.columns(2)
    with left:
        kit.chart(dpviz.fdp.tradeoff_figure([
            (t("exact: {mechanism}", mechanism=page.audited_mechanism(s)), ALPHA, theory,
             COLORS["gdp"], "solid"),
            (t("empirical, R = {reps:,}", reps=s.aud_reps), plot_a, plot_b, COLORS["laplace"],
             "solid"),
        ], height=540), key="fdp_fig_audit", name=t("The auditor's empirical trade-off curve"))
    with right:
        table = page.audit_table(s, emp_a, emp_b)
        for row in table.itertuples(index=False):
            for column, value in zip(table.columns[1:], row[1:]):
                kit.number(t("{column} at α = {level:g}", column=t(column), level=row[0]),
                           float(value))
        kit.table(table, key="fdp_audit_table", name=t("The auditor's estimates"),
                  hide_index=True, column_config=headed(page.audit_headers(), {
                      c: st.column_config.NumberColumn(format="%.4f")
                      for c in (page.BETA_HAT, page.BETA_EXACT, page.SPREAD,
                                page.MU_IMPLIED)}))
        st.caption(page.audit_caption())
    kit.finding(page.audit_finding(s, table))
    kit.note(page.audit_note())
    return s


# --- The page -------------------------------------------------------------------------------

# Only the open tab runs (the tab is bound to the URL, so it is tracked): a slider change
# recomputes and redraws one section's charts, not all of them.
SECTIONS = dict(zip(page.TABS, (attacker_test, tradeoff_curves, group_privacy, composition,
                                conversions, auditor)))


def main() -> None:
    kit = page_header(t(page.TITLE))
    kit.try_this(page.PAGE_SPEC, list(page.EXPERIMENTS))
    st.markdown(t(page.INTRO))
    with st.container(border=True):
        s = plain_words(kit, DEFAULT)
    tabs = st.tabs([t(label) for label in SECTIONS], key=page.TAB_KEY, bind="query-params")
    for (label, section), tab in zip(SECTIONS.items(), tabs):
        with tab:
            if tab.open is not False:
                s = section(kit, replace(s, tab=label))
    kit.settings(s)
    kit.code(page.code_builder(s))
    oneperson.section(kit, page.one_person(s), page.one_person_comparison(s), key="fdp_op")
    kit.end()


main()
