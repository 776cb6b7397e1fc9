"""Links: the address of this view, link values the page could not use, and typed links
from one page to another.

A page that other pages link to declares here, once, what a link may set on it: the URL
parameter of each control (which is also the control's widget key on that page), the
values a control takes (its grid), and the label of each tab a link opens. The target page
builds its controls from these names and the linking page builds its link with a function
below, so a renamed key, label or grid changes both at once; tests/test_ui_links.py opens
every link on its target and checks that each value is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

import numpy as np
import streamlit as st

from dpcore import datasets
from ui import internals, registry
from ui.format import fmt_number
from ui.text import N_, label_family, t

# ---------------------------------------------------------------------------------------
# What other pages may set on a page: URL parameters (= widget keys), grids, tab labels
# ---------------------------------------------------------------------------------------

# Data sources "ages of a 2020 population in k groups" (ldp, substitution): option labels,
# in English (population_age_label gives them in the reader's language).
POPULATION_AGE = N_("Population 2020 by age: {population}")
POPULATION_AGE_LABELS = {k: POPULATION_AGE.format(population=v)
                         for k, v in datasets.POPULATIONS.items()}


@label_family(datasets.POPULATIONS)
def population_age_label(source: str) -> str:
    """The option label of a built-in population's ages in the reader's language (its URL
    value, which a link to the option carries)."""
    return t(POPULATION_AGE, population=t(datasets.POPULATIONS[source]))


def source_option_label(source: str, table: dict[str, str]) -> str:
    """A category data source's option label in the reader's language: a population in age
    groups (:data:`POPULATION_AGE_LABELS`), else its English label in ``table``, translated."""
    if source in POPULATION_AGE_LABELS:
        return population_age_label(source)
    return t(table[source])


class FdpParams:
    """The f-DP page (views/fdp.py)."""

    TAB = "fdp_tab"
    CURVES_TAB = N_("Trade-off curves")
    G_MU = "fdp_g_mu"  # μ of G_μ: a slider 0 … MU_MAX in steps of MU_STEP
    MU_STEP, MU_MAX = 0.05, 5.0
    SHOW_KRR, SHOW_RS = "fdp_show_krr", "fdp_show_rs"
    KRR_EPS, KRR_K = "fdp_krr_eps", "fdp_krr_k"
    KRR_EPS_GRID = (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
                    1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0,
                    15.0, 20.0)
    K_MAX = 100  # k of k-RR and N of random substitution: 2 … K_MAX
    RS_GAMMA, RS_N = "fdp_rs_gamma", "fdp_rs_n"
    RS_GAMMA_GRID = (1.1, 1.2, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0, 1000.0)


class LdpParams:
    """The randomized response page (views/ldp.py)."""

    TAB = "ldp_tab"
    GUARANTEE_TAB = N_("The guarantee")
    EPS = "ldp_eps"
    # Every value is also on the f-DP page's k-RR slider, so links carry ε as it is.
    EPS_GRID = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0)
    SOURCE, K = "ldp_source", "ldp_k"


class SubstitutionParams:
    """The random substitution page (views/substitution.py)."""

    TAB = "rs_tab"
    PRIVACY_TAB = N_("Privacy")
    GAMMA = "rs_gamma"
    # Contains the source's γ = 5 and 10.
    GAMMA_GRID = (1.1, 1.25, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0, 100.0,
                  200.0, 500.0, 1000.0)
    SOURCE, N = "rs_source", "rs_N"


# Option labels that links made earlier carry and that are labelled otherwise now, by URL
# key: the earlier label -> the option it named. An option's label is its URL value, so a
# renamed option keeps its earlier label here and such links still open that option. The
# options of the keys in LABEL_OPTIONS are their labels (a tab's): the option named is the
# label in the reader's language.
EARLIER_LABELS = {
    # The calibration page's tab: ε is the privacy level on every page (issue 18).
    "cal_tab": {"Beyond the paper: unequal N and α": "Beyond the paper: unequal N and ε"},
    SubstitutionParams.SOURCE: {"Normal (discretised, the source's shape)": "normal"},
    # The f-DP page's radios, once labelled in raw notation (f_ε*,δ*).
    "fdp_target": {"G_μ*": "gdp", "f_ε*,δ*": "epsdelta"},
    "fdp_group_curve": {"f_ε,0 (any ε-DP mechanism)": "epsdp"},
}
LABEL_OPTIONS = {"cal_tab"}


def earlier_option(key: str, label: str):
    """The option an earlier label of the control ``key`` named (None if it is none), as the
    control holds it: a tab's label in the reader's language."""
    option = EARLIER_LABELS.get(key, {}).get(label)
    return t(option) if option is not None and key in LABEL_OPTIONS else option


def nearest_on_grid(value, grid):
    """The grid value nearest to ``value`` in log scale (the first one for value ≤ 0)."""
    if value is None or not value > 0:  # also NaN
        return grid[0]
    if value >= grid[-1]:
        return grid[-1]
    distance = np.abs(np.log(np.asarray(grid, dtype=float)) - np.log(float(value)))
    return grid[int(np.argmin(distance))]


# ---------------------------------------------------------------------------------------
# Typed links between pages
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PageLink:
    """A link to a page with some of its settings; ``used`` holds the values it carries
    after snapping to the target's grids (the linking page says when they differ)."""

    page: registry.PageSpec
    query: dict[str, str]
    used: dict[str, float]

    def show(self, label: str, *, help: str) -> None:
        st.page_link(self.page.script, label=label, icon=self.page.icon,
                     query_params=self.query or None, help=help)


def to_fdp_gaussian(mu: float) -> PageLink:
    """The f-DP page's trade-off curves with G_μ at ``mu`` (clipped and rounded to its slider)."""
    p = FdpParams
    linked = round(round(min(max(mu, 0.0), p.MU_MAX) / p.MU_STEP) * p.MU_STEP, 2)
    return PageLink(registry.FDP, {p.TAB: t(p.CURVES_TAB), p.G_MU: f"{linked:g}"},
                    {"mu": linked})


def to_fdp_krr(eps: float, k: int) -> PageLink:
    """The f-DP page's trade-off curves with k-RR at ε (nearest step) and k (≤ K_MAX)."""
    p = FdpParams
    linked_eps = nearest_on_grid(eps, p.KRR_EPS_GRID)
    linked_k = min(int(k), p.K_MAX)
    return PageLink(registry.FDP, {p.TAB: t(p.CURVES_TAB), p.KRR_EPS: fmt_number(linked_eps),
                                   p.KRR_K: str(linked_k)}, {"eps": linked_eps, "k": linked_k})


def to_fdp_substitution(gamma: float, n: int) -> PageLink:
    """The f-DP page's trade-off curves with random substitution alone, at γ and N."""
    p = FdpParams
    linked_gamma = nearest_on_grid(gamma, p.RS_GAMMA_GRID)
    linked_n = min(int(n), p.K_MAX)
    return PageLink(registry.FDP, {p.TAB: t(p.CURVES_TAB), p.SHOW_KRR: "false", p.SHOW_RS: "true",
                                   p.RS_GAMMA: fmt_number(linked_gamma), p.RS_N: str(linked_n)},
                    {"gamma": linked_gamma, "n": linked_n})


def _ages(source: str | None, groups: int | None, source_key: str, groups_key: str) -> dict:
    """A built-in population's ages in ``groups`` groups, as a page's data source takes them
    from a link, labelled in the reader's language (nothing for any other source)."""
    if source in POPULATION_AGE_LABELS and groups is not None:
        return {source_key: population_age_label(source), groups_key: str(int(groups))}
    return {}


def to_ldp(eps: float, *, source: str | None = None, k: int | None = None) -> PageLink:
    """The randomized response page's guarantee at ε; with a built-in population
    ``source``, also its ages in ``k`` groups."""
    p = LdpParams
    linked = nearest_on_grid(eps, p.EPS_GRID)
    query = {p.TAB: t(p.GUARANTEE_TAB), p.EPS: fmt_number(linked),
             **_ages(source, k, p.SOURCE, p.K)}
    return PageLink(registry.LDP, query, {"eps": linked})


def to_substitution(gamma: float, *, source: str | None = None,
                    n: int | None = None) -> PageLink:
    """The random substitution page's privacy tab at γ; with a built-in population
    ``source``, also its ages in ``n`` groups."""
    p = SubstitutionParams
    linked = nearest_on_grid(gamma, p.GAMMA_GRID)
    query = {p.TAB: t(p.PRIVACY_TAB), p.GAMMA: fmt_number(linked),
             **_ages(source, n, p.SOURCE, p.N)}
    return PageLink(registry.SUBSTITUTION, query, {"gamma": linked})


def to_page(page: registry.PageSpec) -> PageLink:
    """A page at its defaults."""
    return PageLink(page, {}, {})


# ---------------------------------------------------------------------------------------
# This view's address, and the link values it could not use
# ---------------------------------------------------------------------------------------


def query_pairs() -> list[tuple[str, str]]:
    return [(k, v) for k in st.query_params for v in st.query_params.get_all(k)]


def view_link() -> str:
    """The address of this view: the page and every setting in the URL, seed included."""
    base = (st.context.url or "").split("?")[0]
    query = urlencode(query_pairs())
    return f"{base}?{query}" if query else base


def use_earlier_label(key: str) -> None:
    """Before the control ``key`` is made: a link that names an option by an earlier label
    (``EARLIER_LABELS``) selects that option. Only on the run that first reads the link,
    when the control holds no value yet."""
    values = st.query_params.get_all(key) if key in st.query_params else []
    option = earlier_option(key, values[0]) if len(values) == 1 else None
    if key not in st.session_state and option is not None:
        st.session_state[key] = option


def keep_in_link(key: str) -> None:
    """After a page set the bound widget ``key`` from an older form of its link value (a
    plain number for one of its named steps): the address names the value as the widget
    writes it, so the view's Share link carries it (Streamlit drops the older form)."""
    form = internals.url_form(key)
    if form is None:
        return
    written = [str(f) for f in form]
    if (st.query_params.get_all(key) if key in st.query_params else []) != written:
        internals.rewrite_link_value(key, written)


def link_values_in_use() -> dict[str, list[str]]:
    """The link's values that controls take on this run: those of controls that do not hold
    a value yet. A control that does (from an earlier run) keeps it, and the URL follows the
    control; a page may also set it (the seed's "New draw")."""
    return {k: st.query_params.get_all(k) for k in st.query_params if k not in st.session_state}


def _same_one(text: str, value) -> bool:
    """Whether one URL text describes one value (loosely: numbers, case, true/false)."""
    if value is None:
        return text == ""
    if isinstance(value, (bool, np.bool_)):
        return text.lower() in (str(bool(value)).lower(), str(int(value)))
    try:
        if float(text) == float(value):
            return True
    except (TypeError, ValueError):
        pass
    return str(text).strip().lower() == str(value).strip().lower()


def same(url_values: list[str], value) -> bool:
    """Whether a URL value still describes a widget's value.

    Loosely: numbers by value ("0.50" and 0.5), text and true/false regardless of case,
    and the items of a list in any order (a range given high end first is the same
    range), each URL item matching one item of the value.
    """
    values = list(value) if isinstance(value, (list, tuple)) else [value]
    if len(values) != len(url_values):
        return False
    unmatched = list(values)
    for text in url_values:
        match = next((i for i, v in enumerate(unmatched) if _same_one(text, v)), None)
        if match is None:
            return False
        unmatched.pop(match)
    return True


def unusable(url_in: dict[str, list[str]]) -> list[str]:
    """Keys of the link whose values the page could not use, or used only in part.

    ``url_in``: :func:`link_values_in_use` at the start of the run. On that first run
    Streamlit keeps a usable value in the URL as it is; it drops a value it cannot use (not
    a number, out of range, not one of the options) and one equal to the widget's default;
    and it rewrites a value it used in part (a multiselect's values that are not options are
    left out, an end of a range that is not an option goes back to its default). So a key
    whose value is gone from the URL or rewritten is named unless its value, read loosely,
    describes the widget's value now: the value itself, or the URL form Streamlit writes for
    it (an option's label, e.g. ``5-year groups (18 bins)`` for the option 5), or an
    option's earlier label (``EARLIER_LABELS``) for the option it holds.
    """
    bad = []
    for key, values in url_in.items():
        if key not in st.session_state or st.query_params.get_all(key) == values:
            continue
        value = st.session_state[key]
        form = internals.url_form(key)
        earlier = [earlier_option(key, v) for v in values]
        if not (same(values, value) or (form is not None and same(values, form))
                or (len(earlier) == 1 and earlier[0] is not None and earlier[0] == value)):
            bad.append(key)
    return bad


def unusable_note(keys: list[str]) -> str:
    return t("Some settings in the link could not be used and were reset to their defaults: "
             "{keys}. Everything else is as the link says.", keys=", ".join(keys))


# Notes on what a link could not carry

def nearest_note(value: str, slider: str, linked: str) -> str:
    """A value a link carries snapped to the target page's slider, in words."""
    return t("{value} is not on that page's {slider}: the link opens it at the nearest value, "
             "{linked}.", value=value, slider=slider, linked=linked)


def capped_note(symbol: str, most: int, linked: int, wanted: int) -> str:
    """A value a link carries cut to the end of the target page's slider, in words."""
    return t("That page's {symbol} slider stops at {most}: the link opens it at "
             "{symbol} = {linked}, not {wanted}.", symbol=symbol, most=most, linked=linked,
             wanted=wanted)

