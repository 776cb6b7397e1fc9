"""ui/pages/fdp.py: the f-DP page's settings, curves, numbers and sentences, tested directly
(no Streamlit run). Expected numbers come from scipy.stats and dpcore.fdp."""

from __future__ import annotations

import math
import re
from dataclasses import fields, replace

import numpy as np
import pytest
from scipy import stats

from dpcore import audit, fdp
from ui.links import FdpParams
from ui.pages import fdp as page
from ui.pages.fdp import Settings

SENTENCE = re.compile(
    r"With (?P<sym>[με]) = (?P<shift>[0-9.]+).*at most (?P<apct>[0-9.]+)% of the time "
    r"\(type-I error α = (?P<alpha>[0-9.]+)\) still misses the truth at least "
    r"(?P<bpct>[0-9.]+)% of the time \(type-II error β = \S+\((?P=alpha)\) = "
    r"(?P<beta>[0-9.]+)\)"
)


def sentence(s: Settings) -> re.Match:
    text, _finding = page.plain_words(s)
    match = SENTENCE.search(text)
    assert match and text.startswith("**In plain words.**"), text
    return match


def table(s: Settings):
    frame, _failing = page.curve_table(page.curves(s), s)
    return frame.set_index(page.CURVE)


def row(frame, prefix: str):
    [name] = [n for n in frame.index if n.startswith(prefix)]
    return frame.loc[name]


# ---------------------------------------------------------------------------
# the settings: keys, grids, the report
# ---------------------------------------------------------------------------

def test_keys_and_grids_follow_the_link_contract():
    keys = page.KEYS
    assert set(keys) == {f.name for f in fields(Settings)}
    assert all(k.startswith("fdp_") for k in keys.values()) and len(set(keys.values())) == len(keys)
    assert (keys["tab"], keys["g_mu"], keys["krr_eps"], keys["krr_k"], keys["rs_gamma"],
            keys["rs_n"], keys["show_krr"], keys["show_rs"]) == (
        FdpParams.TAB, FdpParams.G_MU, FdpParams.KRR_EPS, FdpParams.KRR_K, FdpParams.RS_GAMMA,
        FdpParams.RS_N, FdpParams.SHOW_KRR, FdpParams.SHOW_RS)
    # No threshold key: the attacker's threshold is solved from the one α (issue 18).
    assert "fdp_t" not in keys.values() and FdpParams.CURVES_TAB in page.TABS
    # Every k-RR ε a link carries is on the slider (which starts at 0); 50 ends the others.
    assert page.KRR_EPS_GRID[0] == 0.0 and set(FdpParams.KRR_EPS_GRID) <= set(page.KRR_EPS_GRID)
    assert page.KRR_EPS_GRID[-1] == 20.0 and page.EPS_GRID[-1] == 50.0
    assert page.GAMMA_GRID == FdpParams.RS_GAMMA_GRID


def test_the_report_lists_the_plain_words_box_then_the_open_tab():
    items = {tab: Settings(tab=tab).report_items() for tab in page.TABS}
    box = {"outputs on D and D′": "Gaussian: N(0,1) vs N(μ,1)", "shift μ": "1",
           "false accusations allowed α": "0.05"}
    for tab, got in items.items():
        assert list(got.items())[:3] == list(box.items()), tab
    assert items[page.ATTACKER] == {**box, "attacker's threshold t": "1.645"}
    assert items[page.CURVES] == {**box, "curves shown": (
        "Gaussian DP, μ = 0.5; (ε, δ)-DP, ε = 1, δ = 0; Gaussian mechanism, σ = 1.5, Δ = 1; "
        "Laplace mechanism, b = 1, Δ = 1; 4-RR, ε = 1"), "target": "μ*-GDP, μ* = 1",
        "δ for the table's ε": "10⁻⁵"}
    assert items[page.GROUP] == {**box, "group size k": 3, "μ (one person)": "0.5",
                                 "general curve f": "Laplace, ε = 0.5"}
    assert items[page.COMPOSITION] == {**box, "number of mechanisms n": 10, "μ of each": "0.5",
                                       "ε of each": "0.5"}
    assert items[page.CONVERSIONS] == {**box, "μ": "1", "ε to read off": "1", "target ε": "1",
                                       "target δ": "10⁻⁵"}
    assert items[page.AUDITOR] == {**box, "audited mechanism": "Gaussian DP, μ = 1",
                                   "draws R on each input": "10,000", "seed": 2022}
    laplace = Settings(family="laplace", mu=2.5, aud_mech="krr", aud_eps=2.0, aud_k=5,
                       tab=page.AUDITOR, show_krr=False)
    got = laplace.report_items()
    assert got["shift ε"] == "2.5" and got["outputs on D and D′"].startswith("Laplace")
    assert got["audited mechanism"] == "5-RR, ε = 2"
    none_on = replace(Settings(tab=page.CURVES), show_g=False, show_ed=False, show_gauss=False,
                      show_lap=False, show_krr=False)
    assert none_on.report_items()["curves shown"] == "none"


# ---------------------------------------------------------------------------
# in plain words, 1. the attacker's test
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mu", [0.0, 0.5, 1.3, 5.0])
def test_plain_sentence_follows_mu(mu):
    match = sentence(Settings(mu=mu))
    expected = stats.norm.cdf(stats.norm.ppf(0.95) - mu)
    assert match["sym"] == "μ" and float(match["shift"]) == mu
    assert float(match["alpha"]) == 0.05 and match["apct"] == "5"
    assert float(match["beta"]) == pytest.approx(expected, abs=5e-5)
    assert float(match["bpct"]) == pytest.approx(100 * expected, abs=0.51)


def test_plain_sentence_other_alpha_and_laplace():
    match = sentence(Settings(say_alpha=0.01, family="laplace", mu=2.0))
    assert match["sym"] == "ε" and float(match["alpha"]) == 0.01
    # Laplace curve below e^{-ε}/2 = 0.068: 1 - e^ε α
    assert float(match["beta"]) == pytest.approx(1 - math.exp(2.0) * 0.01, abs=5e-5)
    _text, finding = page.plain_words(Settings(say_alpha=0.01, family="laplace", mu=2.0))
    assert finding.startswith("With ε = 2 (Laplace), an attacker who wrongly accuses at most 1%")
    # No information at all: it misses as often as a coin flip would.
    assert float(sentence(Settings(mu=0.0, say_alpha=0.05))["beta"]) == pytest.approx(0.95)


@pytest.mark.parametrize("family", ["gaussian", "laplace"])
def test_alpha_moves_the_threshold_and_beta(family):
    dist = stats.norm if family == "gaussian" else stats.laplace
    seen = set()
    for alpha in (0.01, 0.2, 0.5):
        test = page.attacker_test(Settings(family=family, mu=1.5, say_alpha=alpha))
        assert test.threshold == pytest.approx(dist.isf(alpha), abs=1e-12)
        assert test.beta == pytest.approx(dist.cdf(test.threshold - 1.5), abs=1e-12)
        seen.add((test.threshold, test.beta))
    assert len(seen) == 3
    finding = page.attacker_finding(Settings(), page.attacker_test(Settings()))
    assert finding.startswith("The best attacker at α = 0.05 accuses when the output exceeds "
                              "t = 1.645")


# ---------------------------------------------------------------------------
# 2. trade-off curves: the table and the target
# ---------------------------------------------------------------------------

def test_default_curves_and_their_table():
    frame = table(Settings())
    assert list(frame.columns) == [page.TIGHTEST_MU, page.SMALLEST_EPS, page.MEETS]
    assert len(frame) == 5  # G_μ, f_ε,δ, Gaussian, Laplace, k-RR are on by default


def test_table_reads_mu_of_gaussian_and_eps_of_krr():
    frame = table(Settings(gauss_sigma=2.0, gauss_sens=1.5, krr_eps=2.0, krr_k=5,
                           table_delta=0.0))
    gauss = row(frame, "Gaussian mechanism")
    assert gauss[page.TIGHTEST_MU] == pytest.approx(1.5 / 2.0, abs=1e-9)
    assert math.isinf(gauss[page.SMALLEST_EPS])  # not ε-DP for any ε at δ = 0
    krr = row(frame, "5-RR")
    assert krr[page.SMALLEST_EPS] == pytest.approx(2.0, abs=1e-9)
    assert krr[page.TIGHTEST_MU] == pytest.approx(
        fdp.tightest_gdp_mu(*fdp.krr_tradeoff(2.0, 5)), rel=1e-12)
    assert row(frame, "Laplace mechanism")[page.SMALLEST_EPS] == pytest.approx(1.0, abs=1e-6)
    assert row(frame, "(ε, δ)-DP")[page.SMALLEST_EPS] == pytest.approx(1.0, abs=1e-9)  # δ = 0


def test_table_eps_at_positive_delta_is_the_exact_conversion():
    eps = row(table(Settings(table_delta=1e-6)), "Gaussian mechanism")[page.SMALLEST_EPS]
    assert float(fdp.gdp_delta(eps, 1 / 1.5)) == pytest.approx(1e-6, rel=1e-6)  # σ = 1.5, Δ = 1


def test_f_eps_delta_with_positive_delta_has_no_mu():
    frame = table(Settings(ed_eps=50.0, ed_delta=1e-12))
    assert math.isinf(row(frame, "(ε, δ)-DP")[page.TIGHTEST_MU])


def test_random_substitution_and_histogram_rows():
    frame = table(Settings(show_rs=True, show_hist=True, rs_gamma=5.0, rs_n=7, hist_alpha=0.5,
                           table_delta=0.0))
    assert row(frame, "random substitution")[page.SMALLEST_EPS] == pytest.approx(math.log(5.0))
    # The histogram mechanism at level α is α-DP (two bins, Lap(2/α) each).
    assert row(frame, "private histogram")[page.SMALLEST_EPS] == pytest.approx(0.5, abs=1e-3)


# Every curve switched on, at the sliders' ordinary, strongest and weakest settings.
ALL_ON = Settings(show_rs=True, show_hist=True)
ALL_SETTINGS = {
    "default": ALL_ON,
    "weak privacy": replace(ALL_ON, g_mu=5.0, ed_eps=50.0, gauss_sigma=0.1, gauss_sens=5.0,
                            lap_b=0.1, lap_sens=5.0, krr_eps=20.0, krr_k=100, rs_gamma=1000.0,
                            rs_n=100, hist_alpha=10.0, table_delta=1e-12),
    "strong privacy": replace(ALL_ON, g_mu=0.05, ed_eps=0.0, gauss_sigma=10.0, gauss_sens=0.1,
                              lap_b=10.0, lap_sens=0.1, krr_eps=0.0, krr_k=2, rs_gamma=1.1,
                              rs_n=2, hist_alpha=0.001, table_delta=0.01),
    "positive delta": replace(ALL_ON, ed_eps=3.0, ed_delta=1e-3, lap_b=0.2, table_delta=1e-3),
}
SCAN = np.logspace(-40, 0, 10**6)  # log-spaced type-I errors, tiny ones included


def exact_curve(c: page.Curve, s: Settings):
    """(alpha, beta, 1 - beta) of a curve of the table on a fine scan, from dpcore.fdp's exact
    curve (not the page's grid); 1 - beta without rounding where beta is near 1."""
    name = c.name
    # a polygon's worst point is a vertex: scan it too (between points a polygon's μ and ε
    # vary to first order)
    a = SCAN if c.vertices is None else np.unique(np.r_[SCAN, c.vertices[0]])
    if name.startswith(("Gaussian DP", "Gaussian mechanism")):
        mu = s.g_mu if name.startswith("Gaussian DP") else s.gauss_sens / s.gauss_sigma
        b = fdp.gdp_tradeoff(a, mu)
        keep = b > 0  # G_μ > 0 for α < 1: drop the points where it underflows (μ = 50)
        return a[keep], b[keep], stats.norm.cdf(mu - stats.norm.isf(a[keep]))
    if name.startswith("(ε, δ)-DP"):
        b = fdp.epsdelta_tradeoff(a, s.ed_eps, s.ed_delta)
        return a, b, np.where(b > 0.5, s.ed_delta + np.exp(s.ed_eps) * a, 1 - b)
    if name.startswith("Laplace mechanism"):
        eps = s.lap_sens / s.lap_b
        b = fdp.laplace_tradeoff(a, eps)
        return a, b, np.where(a <= np.exp(-eps) / 2, np.exp(eps) * a, 1 - b)
    if c.vertices is not None:  # k-RR, random substitution: the polygon itself
        va, vb = c.vertices
        return a, np.interp(a, va, vb), np.interp(a, va, 1 - vb)  # 1 - vb: no rounding
    assert name.startswith("private histogram")
    level = s.hist_alpha
    alpha, beta = fdp.laplace_histogram_errors(np.linspace(-level, level, 10**6), level)
    return alpha, beta, 1 - beta


def scan_mu(a, b, miss):
    inner = (a < 1) & (miss > 0)
    a, b, miss = a[inner], b[inner], miss[inner]
    return float(np.max(stats.norm.isf(a) - np.where(b > 0.5, stats.norm.isf(miss),
                                                     stats.norm.ppf(b))))


def scan_delta(a, b, miss, eps):
    """sup [1 - beta - e^eps alpha] and its mirror [1 - alpha - e^eps beta] over the scan."""
    with np.errstate(over="ignore"):
        e = np.exp(eps)
        return float(max(np.max(miss - e * a), np.max(1 - a - e * b)))


@pytest.mark.parametrize("name", list(ALL_SETTINGS))
def test_every_curves_mu_and_eps_are_exact_against_a_fine_scan(name):
    """The table's μ is never below a 10⁶-point scan of the exact curve (the unsafe side)
    and within the scan's resolution of it; its ε at the table's δ gives δ(ε) ≤ δ on the
    scan, and ε − 0.001 does not (G_μ's ε, the exact conversion, is tested in test_fdp)."""
    s = ALL_SETTINGS[name]
    shown = page.curves(s)
    assert len(shown) == 7
    frame = table(s)
    for c in shown:
        a, b, miss = exact_curve(c, s)
        mu, eps = frame.loc[c.name, page.TIGHTEST_MU], frame.loc[c.name, page.SMALLEST_EPS]
        scanned = scan_mu(a, b, miss)
        if np.isinf(scanned):
            assert np.isinf(mu), c.name
        else:
            assert mu >= scanned - 1e-9, c.name
            assert mu == pytest.approx(scanned, rel=1e-5, abs=1e-6), c.name
        if eps > 700:  # G_50 at δ = 10⁻¹²: ε = 1601, its worst α = e^(−ε)-ish is no double
            assert c.name.startswith("Gaussian mechanism") and np.isfinite(eps)
        elif np.isfinite(eps):
            assert scan_delta(a, b, miss, eps) <= s.table_delta + 1e-9, c.name
            if eps > 1e-3:
                assert scan_delta(a, b, miss, eps - 1e-3) > s.table_delta, c.name
        else:
            assert scan_delta(a, b, miss, 700.0) > s.table_delta, c.name


def test_laplace_row_is_exact_at_large_eps():
    """A grid of 1,000 α misses the Laplace curve's worst point α = β = e^(−ε/2)/2 at large ε:
    the table's μ is the closed form 2Φ⁻¹(1 − e^(−ε/2)/2), not the grid's smaller value."""
    for b, sens, exact in ((0.2, 3.0, 6.9073), (0.1, 3.0, 10.2395), (0.1, 5.0, 13.5181)):
        s = Settings(lap_b=b, lap_sens=sens, table_delta=1e-5)
        eps = sens / b  # 15, 30, 50
        laplace = row(table(s), "Laplace mechanism")
        assert laplace[page.TIGHTEST_MU] == pytest.approx(exact, abs=1e-4)
        assert laplace[page.TIGHTEST_MU] > fdp.tightest_gdp_mu(
            page.ALPHA, fdp.laplace_tradeoff(page.ALPHA, eps)) + 0.03
        assert laplace[page.SMALLEST_EPS] == pytest.approx(eps + 2 * math.log1p(-1e-5),
                                                           abs=1e-9)


def test_gaussian_mechanism_above_the_target_mu_fails():
    s = Settings(target="gdp", target_mu=1.0, gauss_sigma=0.5)  # μ = 2 > 1
    frame, failing = page.curve_table(page.curves(s), s)
    assert frame.set_index(page.CURVE).loc["Gaussian mechanism, σ = 0.5, Δ = 1", page.MEETS] == "no"
    assert any(name.startswith("Gaussian mechanism") for name, _a, _b in failing)
    s = replace(s, gauss_sigma=2.0)  # μ = 0.5 < 1
    frame, failing = page.curve_table(page.curves(s), s)
    assert row(frame.set_index(page.CURVE), "Gaussian mechanism")[page.MEETS] == "yes"
    assert not any(name.startswith("Gaussian mechanism") for name, _a, _b in failing)
    verdict, numbers = page.curve_findings(frame, s)
    assert verdict.startswith("Against the target μ*-GDP, μ* = 1: meets it:")
    assert numbers.startswith("Tightest μ-GDP and smallest ε at δ = 10⁻⁵: Gaussian DP, μ = 0.5: "
                               "μ = 0.5")


def test_epsdelta_target():
    s = Settings(target="epsdelta", target_eps=1.0, target_delta=1e-5)
    frame = table(s)
    assert row(frame, "4-RR")[page.MEETS] == "yes"  # 1-DP
    assert row(frame, "Laplace mechanism")[page.MEETS] == "yes"  # ε = 1
    assert row(frame, "(ε, δ)-DP")[page.MEETS] == "yes"  # the same curve, δ = 0
    assert row(table(replace(s, krr_eps=2.0)), "4-RR")[page.MEETS] == "no"
    assert page.target(s)[0] == "(ε*, δ*)-DP, ε* = 1, δ* = 10⁻⁵"


# ---------------------------------------------------------------------------
# 3.-5. group privacy, composition, conversions
# ---------------------------------------------------------------------------

def test_group_curves():
    s = Settings(group_k=4, group_mu=0.5)
    one, group = page.group_gdp_curves(s)
    assert group[0] == "Gaussian DP, kμ = 2 (groups of 4)"
    np.testing.assert_allclose(group[2], fdp.gdp_tradeoff(page.ALPHA, 2.0))
    curves, gap = page.group_general_curves(s)  # Laplace: Theorem 2.14 is exact
    assert gap < 1e-6 and "exact for the group" in curves[2][0]
    curves, gap = page.group_general_curves(replace(s, group_curve="epsdp"))
    assert "textbook group privacy" in curves[2][0] and gap > 0
    assert page.group_findings(s, 0.0)[0] == ("A 0.5-GDP mechanism protects groups of 4 people "
                                              "at 2-GDP (kμ).")


def test_composition_numbers():
    s = Settings(comp_n=16, comp_mu=0.5, comp_eps=0.5)
    c = page.composition(s)
    assert c.total_mu == pytest.approx(2.0)
    assert c.clt == pytest.approx(2 * 4 * math.tanh(0.25), rel=1e-12)
    assert any("√n·μ = 2, 16 releases" in name for name, *_ in page.composition_gdp_curves(s, c))
    # Beyond nε = 700 the textbook curve (0 for every α > 0) is left out.
    big = Settings(comp_n=200, comp_eps=50.0)
    assert len(page.composition_eps_curves(big, page.composition(big))) == 3


def test_conversion_reads_delta_off_the_curve():
    _eps, _delta, delta = page.delta_reading(Settings(conv_mu=2.0, conv_eps=3.0))
    expected = stats.norm.cdf(-1.5 + 1.0) - math.exp(3.0) * stats.norm.cdf(-1.5 - 1.0)
    assert delta == pytest.approx(expected, rel=1e-9)


def test_conversion_inverse_gives_the_target_delta():
    inv = page.inverse(Settings(inv_eps=2.0, inv_delta=1e-6))
    mu = inv.mu
    delta = (stats.norm.cdf(-2.0 / mu + mu / 2)
             - math.exp(2.0) * stats.norm.cdf(-2.0 / mu - mu / 2))
    assert delta == pytest.approx(1e-6, rel=1e-6) and inv.sigma == pytest.approx(1 / mu)
    finding = page.conversion_findings(Settings(inv_eps=2.0, inv_delta=1e-6), 0.1, inv)[1]
    assert finding.startswith(f"(2, 10⁻⁶)-DP holds for any μ-GDP mechanism with μ ≤ {mu:.6g}")


def test_inverse_is_exact_at_the_smallest_delta():
    """At ε = 0 and δ = 1e-12 the root μ ≈ 2.5e-12 is found to relative accuracy."""
    inv = page.inverse(Settings(inv_eps=0.0, inv_delta=1e-12))
    assert f"{inv.check:.4g}" == "1e-12"  # the page's check caption


# ---------------------------------------------------------------------------
# 6. the auditor
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("mech", ["gaussian", "laplace", "krr"])
def test_auditor_estimate_is_close_to_the_exact_curve(mech):
    s = Settings(aud_mech=mech, aud_reps=100_000)
    done = []
    emp_a, emp_b = page.audit_tradeoff(s, progress=done.append)
    assert done == list(range(10_000, 100_001, 10_000))
    frame = page.audit_table(s, emp_a, emp_b)
    assert list(frame[page.LEVEL]) == list(page.AUDIT_LEVELS)
    # Standard error at most 0.5/sqrt(R) = 0.0016 per error rate.
    assert (frame[page.BETA_HAT] - frame[page.BETA_EXACT]).abs().max() < 0.01, frame
    # and within 5 of the table's own sd of β̂ (about 1 in 10⁶ per level by chance)
    assert ((frame[page.BETA_HAT] - frame[page.BETA_EXACT]).abs()
            <= 5 * frame[page.SPREAD] + 1e-12).all(), frame
    plot_a, _plot_b = page.thin(emp_a, emp_b)
    assert len(plot_a) <= page.MAX_PLOTTED and plot_a[0] == emp_a[0] and plot_a[-1] == emp_a[-1]


def test_auditor_same_seed_same_curve():
    def estimates(seed):
        s = Settings(aud_reps=1000, seed=seed)
        return page.audit_table(s, *page.audit_tradeoff(s))
    assert estimates(2022).equals(estimates(2022)) and not estimates(2022).equals(estimates(7))
    finding = page.audit_finding(Settings(aud_reps=1000), estimates(2022))
    assert finding.startswith("From 1,000 runs on each of two neighbouring inputs, the "
                              "empirical trade-off curve of the Gaussian DP, μ = 1 is within")
    assert finding.endswith("at α = 0.01, 0.05, 0.1, 0.25, 0.5.")


def test_the_auditors_sd_is_the_delta_method_or_simulated_audits():
    levels = np.array(page.AUDIT_LEVELS)
    s = Settings(aud_mech="gaussian", aud_sigma=0.5, aud_reps=20_000)  # G_2
    frame = page.audit_table(s, *page.audit_tradeoff(s))
    beta = stats.norm.cdf(stats.norm.isf(levels) - 2.0)
    slope = -stats.norm.pdf(stats.norm.isf(levels) - 2.0) / stats.norm.pdf(stats.norm.isf(levels))
    np.testing.assert_allclose(frame[page.BETA_EXACT], beta, rtol=1e-12)
    np.testing.assert_allclose(
        frame[page.SPREAD], np.sqrt((beta * (1 - beta) + slope**2 * levels * (1 - levels))
                                    / 20_000), rtol=1e-12)
    s = Settings(aud_mech="laplace", aud_b=0.5, aud_reps=1000)  # ε = 2
    np.testing.assert_allclose(page.audit_spread(s), audit.beta_hat_sd(
        levels, fdp.laplace_tradeoff(levels, 2.0), fdp.laplace_slope(levels, 2.0), 1000))
    s = Settings(aud_mech="krr", aud_eps=1.0, aud_k=4, aud_reps=5000, seed=3)
    np.testing.assert_array_equal(page.audit_spread(s), audit.krr_beta_hat_sd(
        1.0, 4, 5000, levels, repeats=page.AUDIT_REPEATS, rng=3))
    caption = page.audit_caption()
    assert "√((β(1 − β) + f′(α)²·α(1 − α))/R)" in caption and "400 simulated audits" in caption
    assert "√((β(1 − β) + f′(α)²·α(1 − α))/R)" in page.audit_note()


# ---------------------------------------------------------------------------
# issue 18: one α, numbers as people write them, readable legends, notation
# ---------------------------------------------------------------------------

E_NOTATION = re.compile(r"\d[eE][-+]?\d")
STATES = [Settings(family=f, mu=mu, say_alpha=a) for f in ("gaussian", "laplace")
          for mu in (0.0, 1.0, 2.5, 5.0) for a in page.SAY_ALPHA_GRID]


def shown_pair(text: str) -> tuple[str, str]:
    """The α and β the plain-words sentence prints."""
    match = re.search(r"\(type-I error α = (?P<alpha>\S+)\).*\(type-II error β = [^=]*= "
                      r"(?P<beta>[^)]+)\)", text)
    assert match, text
    return match["alpha"], match["beta"]


@pytest.mark.parametrize("s", STATES, ids=lambda s: f"{s.family}-{s.mu:g}-{s.say_alpha:g}")
def test_the_sentence_and_the_attackers_test_print_the_same_alpha_and_beta(s):
    sentence_text, _finding = page.plain_words(s)
    test = page.attacker_test(s)
    shown = page.attacker_metrics(test)
    assert shown_pair(sentence_text) == (shown["Type-I error α"], shown["Type-II error β"])
    # The threshold is the one that gives exactly this α, and the test's β is the curve's.
    alpha, beta = audit.threshold_test(s.family, s.mu, test.threshold)
    assert (alpha, beta) == pytest.approx((s.say_alpha, test.beta), abs=1e-9)
    curve = fdp.gdp_tradeoff if s.gaussian else fdp.laplace_tradeoff
    assert test.beta == pytest.approx(float(curve(s.say_alpha, s.mu)), abs=1e-12)
    assert test.alpha == s.say_alpha
    threshold = shown["Attacker's threshold t"]
    assert f"t = {threshold}" in page.attacker_finding(s, test)


@pytest.mark.parametrize("s", STATES, ids=lambda s: f"{s.family}-{s.mu:g}-{s.say_alpha:g}")
def test_every_alpha_beta_and_share_is_written_without_e_notation_or_a_false_zero(s):
    sentence_text, finding = page.plain_words(s)
    test = page.attacker_test(s)
    for text in (sentence_text, finding, page.attacker_finding(s, test),
                 *page.attacker_metrics(test).values()):
        assert not E_NOTATION.search(text), text
        if test.beta > 0:
            assert "0.0000" not in text and "= 0)" not in text and " 0%" not in text, text


def test_a_tiny_beta_reads_in_powers_of_ten():
    s = Settings(mu=5.0, say_alpha=0.5)
    text, _finding = page.plain_words(s)
    assert "misses the truth at least 2.87·10⁻⁵% of the time" in text
    assert shown_pair(text)[1] == "2.867·10⁻⁷"


def all_trace_names(s: Settings) -> list[str]:
    names = [page.attacker_test(s).curve_name, *page.attacker_test(s).output_names]
    names += [c.name for c in page.curves(s)]
    names += [page.target(s)[0], page.target(replace(s, target="epsdelta"))[0]]
    for curve in ("laplace", "epsdp"):
        g = replace(s, group_curve=curve)
        names += [c[0] for c in page.group_gdp_curves(g) + page.group_general_curves(g)[0]]
    c = page.composition(s)
    names += [n[0] for n in page.composition_gdp_curves(s, c) + page.composition_eps_curves(s, c)]
    names += [page.audited_mechanism(replace(s, aud_mech=m)) for m in page.MECHANISM_LABELS]
    return names


def test_legend_and_hover_names_are_plain_text():
    s = Settings(show_rs=True, show_hist=True, comp_n=1)
    for name in all_trace_names(s):
        assert not any(mark in name for mark in ("^", "_", "⊗")), name
        assert not E_NOTATION.search(name), name
    names = all_trace_names(s)
    assert names[names.index("(ε, 0)-DP, ε = 0.5, one release") + 1] == (
        "exact composition: (ε, 0)-DP, 1 release")


def test_alpha_and_beta_are_said_once_to_be_the_attackers_errors_not_the_privacy_level():
    assert "α and β are the type-I and type-II errors of the attacker's test" in page.INTRO
    assert "not the privacy level: that is ε or μ" in page.INTRO
    rs = [c.name for c in page.curves(Settings(show_rs=True)) if "substitution" in c.name]
    assert rs == ["random substitution, γ = 3 (ε = ln γ = 1.099), k = 10"]
    hist = [c.name for c in page.curves(Settings(show_hist=True)) if "histogram" in c.name]
    assert hist == ["private histogram, ε = 0.5"]
    assert "(N in Kang, Lee & Hong 2009)" in page.RS_CATEGORIES_LABEL
    assert "ε (α in Son, Park & Jung 2022)" in page.HIST_LEVEL_LABEL
