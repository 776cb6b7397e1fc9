"""Page: random substitution and its l-extension (γ-diagonal matrices), record by record."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import dpviz
import pandas as pd
import streamlit as st

from ui import controls, links, sources
from ui import format as fmt
from ui import text
from ui.kit import page_header
from dpcore import datasets
from dpcore import substitution as rs

TITLE = "Random substitution"

GAMMA_GRID = links.SubstitutionParams.GAMMA_GRID
DEFAULT_GAMMA = 10.0
REPS_GRID = (10, 20, 50, 100, 200, 500)
DEFAULT_REPS = 100  # the source's 100 repetitions
# R releases of Algorithm 2 take about R·N²·(l + 1) binomial draws
# (extended_random_substitution); 5·10⁶ take about a quarter of a second, so R is
# reduced to stay within them (to 2 at least).
MAX_BINOMIALS = 5_000_000
MIN_REPS = 2
N_MAX = 200  # categories of the shapes and of an upload
DEFAULT_N = 50  # the source's N = 50
K_MAX = 86  # age groups: single years 0 … 84 and 85+
DEFAULT_GROUPS = 10
DEFAULT_RECORDS = 5_000  # the source's smaller n
DEFAULT_L = 2  # the smallest l with re-randomisation
L_CHART = 20  # the charts of error and cost show l = 1 … min(N − 1, 20), and the chosen l

UPLOAD = sources.UPLOAD
SHAPES = {"uniform": "Uniform (the source's shape)",
          "normal": "Normal (discretised, the source's shape)"}
SOURCES = {**SHAPES, **links.POPULATION_AGE_LABELS, UPLOAD: "Uploaded CSV file"}
DEFAULT_SOURCE = "normal"  # on uniform data the source's X̂*/l is unbiased: nothing to see
TABS = ("Release and reconstruction", "Accuracy", "Cost", "Privacy", "Bias")
SHORT = {"source": "X̂*/l (source)", "unbiased": "A⁻¹Y* (unbiased)"}
SYMBOLS = {"gamma": "γ", "n_categories": "the number of categories N", "rho1": "ρ₁",
           "rho2": "ρ₂", "reps": "R"}
LDP_TAB = "The guarantee"  # views/ldp.py's tab with k-RR's guarantee
FDP_TAB = "Trade-off curves"


def plain(message: str) -> str:
    """dpcore's messages in plain words: no code quotes, the page's symbols."""
    return text.plain(message, SYMBOLS)


fmt_big = fmt.fmt_big  # 4 significant digits; 10⁴ and above as 7.85·10⁷; ∞


def fmt_share(v: float) -> str:
    """A relative size in percent: 5.722%, 0.000%."""
    return f"{v + 0.0:.3%}"


def fmt_count(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 1e4 else f"{v + 0.0:,.1f}"


def amplification(eps: float) -> float:
    """e^ε, ∞ beyond the largest float."""
    return math.exp(eps) if eps < 709 else math.inf


@dataclass(frozen=True)
class Data:
    """The records' true counts X per category."""

    labels: list[str]
    counts: np.ndarray  # X, whole numbers
    what: str  # the data in words
    source: str


@dataclass(frozen=True)
class Settings:
    data: Data
    gamma: float
    l: int
    reps: int  # repetitions simulated (R, reduced to the budget)
    reps_chosen: int  # R on the slider (the paper grid's)
    seed: int

    @property
    def n_categories(self) -> int:
        return len(self.data.labels)

    @property
    def n(self) -> int:
        return int(self.data.counts.sum())

    @property
    def x(self) -> np.ndarray:
        return self.data.counts


# --- Controls ----------------------------------------------------------------------------------

def data_controls(seed: int) -> tuple[Data | None, str | None, bool]:
    """The data source's controls; the data, or why there is none and whether that is
    only a file not uploaded yet."""
    source = st.selectbox(
        "Data: the records' true values", list(SOURCES), index=list(SOURCES).index(DEFAULT_SOURCE),
        format_func=SOURCES.get, key="rs_source", bind="query-params",
        help="The source's two shapes (N categories, n records spread as evenly as whole "
        "numbers allow over a uniform or a discretised normal shape), the ages of a 2020 "
        "population grouped into N age groups (n records drawn from it), or your own CSV file.")
    if source == UPLOAD:
        with st.container(border=True):
            upload, problem = sources.category_upload(
                "rs", max_categories=N_MAX, value="value", record="record",
                examples="A, B, 20–29, …")
        if upload is None:
            return None, (problem or "Upload a CSV file, or pick a built-in data source."), \
                problem is None
        counts = upload.counts.astype(np.int64)
        st.caption(f"Categories N = {counts.size}, records n = {counts.sum():,}: your file's.")
        return Data(upload.labels, counts, upload.what, source), None, False
    if source in SHAPES:
        n_cat = controls.ranged_slider(
            "Categories N", 2, N_MAX, default=DEFAULT_N, key="rs_N",
            help="How many values u_1 … u_N a record can take. The source uses N = 50 and 100.")
    else:
        n_cat = controls.ranged_slider(
            "Categories N (age groups)", 2, K_MAX, default=DEFAULT_GROUPS, key="rs_N",
            help="The single years of age 0 … 84 and 85+ cut into N groups of (nearly) equal "
            "width: N = 86 is one group per year.")
    n = controls.log_slider(
        "Records n", controls.N_GRID, default=DEFAULT_RECORDS, key="rs_n",
        help="How many records are substituted. The source uses n = 5,000 and 50,000. Log "
        "scale, 1,000 to 50 million.")
    if source in SHAPES:
        counts = datasets.shape_counts(source, n_cat, n)
        labels = [str(j) for j in range(1, n_cat + 1)]
        what = (f"{n:,} records over N = {n_cat} categories in the "
                f"{datasets.SHAPES[source].lower()} shape (fixed counts, as in the source)")
    else:
        groups = datasets.age_groups(source, n_cat)
        counts = datasets.draw_histogram(datasets.proportions(groups.to_numpy()), n,
                                         rng=[seed, 0]).astype(np.int64)
        labels = list(groups.index)
        what = (f"{n:,} records drawn from the ages of {datasets.POPULATIONS[source]} (2020) "
                f"in N = {n_cat} groups")
    return Data(labels, counts, what, source), None, False


def read_controls() -> tuple[Settings | None, str | None, bool]:
    """All controls; returns (settings, problem, waiting)."""
    c1, c2, c3 = st.columns([1.25, 1, 1], gap="large")
    with c3:
        seed = controls.seed_control("rs_seed")
    with c2:
        gamma = float(controls.log_slider(
            "Amplification γ", GAMMA_GRID, default=DEFAULT_GAMMA, key="rs_gamma",
            help="A record keeps its value γ times as often as it moves to any one other "
            "value: every output is at most γ times more likely under one true value than "
            "under another. Larger γ, less privacy, better accuracy. The source uses 5 and 10. "
            "Log scale, 1.1 to 1,000."))
        st.caption(f"ε = ln γ = {math.log(gamma):.4g}: the local differential privacy of one "
                   "substitution (l = 1).")
    with c1:
        data, problem, waiting = data_controls(seed)
    if data is None:
        return None, problem, waiting
    n_cat = len(data.labels)
    with c2:
        if n_cat > 2:
            l = controls.ranged_slider(
                "Values per record l", 1, n_cat - 1, default=DEFAULT_L, key="rs_l",
                help="Algorithm 2: each record is substituted l times, a value already drawn "
                "is drawn again, and the record releases l distinct values (1 ≤ l < N). "
                "l = 1 is Algorithm 1. The source uses l = 1, 2 and 4.")
        else:
            l = 1
            st.caption("l = 1: with N = 2 categories a record releases one value.")
    with c3:
        chosen = int(controls.log_slider(
            "Repetitions R", REPS_GRID, default=DEFAULT_REPS, key="rs_reps",
            help="How many releases are simulated to measure the actual error, the mean cost "
            "and the bias (the source uses 100). More repetitions, smaller Monte Carlo error. "
            "Log scale, 10 to 500."))
        reps = min(chosen, max(MIN_REPS, MAX_BINOMIALS // (n_cat * n_cat * (l + 1))))
        if reps < chosen:
            st.caption(f"R is reduced to {reps:,} for N = {n_cat} and l = {l}, which keeps a "
                       "rerun under about a quarter of a second (about R·N²·(l + 1) ≤ 5·10⁶ "
                       f"random draws). The paper grid uses R = {chosen:,}.")
    return Settings(data, gamma, int(l), int(reps), chosen, seed), None, False


def summary(s: Settings) -> None:
    """The mechanism's probabilities and its privacy, as metrics and in one sentence."""
    n_cat = s.n_categories
    matrix = rs.gamma_diagonal_matrix(n_cat, s.gamma)
    keep, other = float(matrix[0, 0]), float(matrix[1, 0])
    eps_l = rs.extended_epsilon(n_cat, s.gamma, s.l)
    cols = st.columns(5)
    cols[0].metric("Categories N", f"{n_cat}", border=True,
                   help="How many values a record can take.")
    cols[1].metric("Records n", f"{s.n:,}", border=True, help="How many records are released.")
    cols[2].metric("Keep: γx", f"{keep:.4g}", border=True,
                   help="m_kk = γx = γ/(γ + N − 1): the probability that one substitution "
                   "keeps a record's value.")
    cols[3].metric("Each other value: x", f"{other:.4g}", border=True,
                   help="m_hk = x = 1/(γ + N − 1) for h ≠ k: the probability of one given "
                   "other value.")
    cols[4].metric(f"ε_l (l = {s.l})", f"{eps_l:.4g}", border=True,
                   help="The exact local differential privacy of what a record releases: its "
                   "set of l distinct values (ln γ at l = 1). See the tab Privacy.")
    extended = (
        "" if s.l == 1 else
        f" With l = {s.l} every record is substituted {s.l} times, a value already drawn is "
        f"drawn again, and the record releases its {s.l} distinct values: exactly "
        f"**ε_l = {eps_l:.4g}**, less than the source's bound "
        f"l × ln γ = {s.l * math.log(s.gamma):.4g}.")
    st.markdown(
        f"**In plain words.** Data: {s.data.what}. One substitution keeps a record's value with "
        f"probability γx = {keep:.2%} and otherwise moves it to one of the other "
        f"N − 1 = {n_cat - 1} values, each with probability x = {other:.4g}. Any output is at "
        f"most γ = {fmt.fmt_number(s.gamma)} times more likely under one true value than "
        f"under another: **ln γ = {math.log(s.gamma):.4g}-local differential privacy**, k-ary "
        f"randomized response with k = N.{extended}")
    reduced = f" (the slider's {s.reps_chosen:,}, reduced)" if s.reps < s.reps_chosen else ""
    kit.settings({
        "data": s.data.what, "categories N": n_cat, "records n": f"{s.n:,}",
        "amplification γ": fmt.fmt_number(s.gamma),
        "ε = ln γ (one substitution)": f"{math.log(s.gamma):.4g}",
        "values per record l": s.l, "repetitions R": f"{s.reps:,}{reduced}", "seed": s.seed})
    # The exact relative standard errors: no simulation, microseconds.
    errors = {kind: rs.expected_standard_error(s.x, s.gamma, s.l, estimator=kind)
              for kind in ("source", "unbiased")}
    if s.l == 1:
        kit.finding(
            f"With γ = {fmt.fmt_number(s.gamma)} and l = 1 (N = {n_cat} categories, "
            f"n = {s.n:,} records) every record's release is ε = ln γ = {eps_l:.3g}-locally "
            f"differentially private (k-ary randomized response with k = N); the reconstruction "
            f"M⁻¹Y has a relative standard error σ_X̂/‖X‖ of {errors['unbiased']:.3g} (exact).")
    else:
        kit.finding(
            f"With γ = {fmt.fmt_number(s.gamma)}, l = {s.l} (N = {n_cat} categories, "
            f"n = {s.n:,} records) every record's release is ε = {eps_l:.3g}-locally "
            f"differentially private, against {s.l * math.log(s.gamma):.3g} for the source's "
            f"bound l × ln γ; the unbiased reconstruction A⁻¹Y* has a relative standard error "
            f"σ_X̂/‖X‖ of {errors['unbiased']:.3g}, the source's X̂*/l "
            f"{errors['source']:.3g} (exact).")
    if reduced:
        kit.note(
            f"R is reduced from {s.reps_chosen:,} to {s.reps:,} for N = {n_cat} and l = {s.l}, "
            "which keeps a rerun under about a quarter of a second.")


# --- Shared simulations ----------------------------------------------------------------------

@st.cache_data(max_entries=16, show_spinner=False)
def simulated_errors(counts: tuple[int, ...], gamma: float, l: int, reps: int,
                     seed: int) -> pd.DataFrame:
    """error_table for the chosen l: R releases from the stream [seed, 2]."""
    return rs.error_table(np.array(counts, dtype=np.int64), gamma, [l], reps=reps,
                          rng=[seed, 2])


@st.cache_data(max_entries=4, show_spinner=False)
def simulated_estimates(counts: tuple[int, ...], gamma: float, l: int, reps: int,
                        seed: int) -> dict[str, np.ndarray]:
    """Both reconstructions of the same R releases as error_table's (stream [seed, 2])."""
    release = rs.extended_random_substitution(np.array(counts, dtype=np.int64), gamma, l,
                                              size=reps, rng=[seed, 2])
    return {"source": rs.reconstruct(release.counts, gamma, l=l),
            "unbiased": rs.reconstruct_unbiased(release.counts, gamma, l)}


def errors_of(s: Settings) -> pd.DataFrame:
    """The simulated and exact errors at the chosen l, one row per estimator."""
    table = simulated_errors(tuple(int(v) for v in s.x), s.gamma, s.l, s.reps, s.seed)
    return table.set_index("estimator")


def one_release(s: Settings) -> rs.ExtendedRelease:
    """The release of the first tab: Algorithm 2 (Algorithm 1 at l = 1), stream [seed, 1]."""
    return rs.extended_random_substitution(s.x, s.gamma, s.l, rng=[s.seed, 1])


def l_values(s: Settings) -> range:
    """The l of the charts of error and cost: 1 … min(N − 1, 20), extended to the chosen l."""
    return range(1, max(min(s.n_categories - 1, L_CHART), s.l) + 1)


# --- 1. Release and reconstruction -------------------------------------------------------------

def release_section(s: Settings) -> None:
    release = one_release(s)
    y = release.counts
    source = rs.reconstruct(y, s.gamma, l=s.l)
    unbiased = rs.reconstruct_unbiased(y, s.gamma, s.l)
    released = "Y" if s.l == 1 else "Y*"
    st.markdown(
        f"One release of {'Algorithm 1' if s.l == 1 else f'Algorithm 2 with l = {s.l}'}: "
        f"{released} counts how many records released each value"
        + ("." if s.l == 1 else f" (each record counts in {s.l} categories, so Y* sums to n·l; "
           "it is drawn divided by l).")
        + " The server knows M and inverts it.")
    cols = st.columns(4)
    one_error = {}
    for col, kind, estimate in ((cols[0], "source", source), (cols[1], "unbiased", unbiased)):
        # dpcore.substitution's relative error √(mean ‖X̂ − X‖²)/‖X‖, here of one release.
        error = one_error[kind] = rs._relative_error(estimate, s.x.astype(float))[0]
        col.metric(f"‖X̂ − X‖/‖X‖, {SHORT[kind]}", f"{error:.4g}", border=True,
                   help="The relative error of this one release's reconstruction: the length "
                   "of the error vector over the length of the true counts.")
    cols[2].metric("Random draws used", f"{release.draws:,}", border=True,
                   help="How many times Algorithm 2 drew a value, re-draws of a value already "
                   "in a record's set included.")
    cols[3].metric("n·l", f"{s.n * s.l:,}", border=True,
                   help="The values released: l per record. Draws beyond n·l are re-draws.")
    kit.chart(dpviz.substitution.substitution_counts_figure(
        s.data.labels, s.x, y, source, unbiased, l=s.l), key="rs_fig_counts",
        name="One release: true, released and reconstructed counts")
    if s.l == 1:
        kit.finding(
            f"One release of Algorithm 1 (seed {s.seed}): its reconstruction M⁻¹Y is off by "
            f"‖X̂ − X‖/‖X‖ = {one_error['unbiased']:.3g}.")
    else:
        kit.finding(
            f"One release of Algorithm 2 with l = {s.l} (seed {s.seed}): the reconstruction is "
            f"off by ‖X̂ − X‖/‖X‖ = {one_error['source']:.3g} for the source's X̂*/l and "
            f"{one_error['unbiased']:.3g} for the unbiased A⁻¹Y*; it took {release.draws:,} "
            f"random draws for n·l = {s.n * s.l:,} released values.")
    kit.note("Both reconstructions can go below 0: the released counts are pulled "
                        "towards the uniform distribution, and the reconstruction undoes that "
                        "on average, not count by count.")
    if s.l == 1:
        st.caption("At l = 1 both reconstructions are Theorem 3.2's: their markers coincide. "
                   "They can go below 0; the released Y is pulled towards the uniform "
                   "distribution, and the reconstruction undoes that on average.")
    else:
        st.caption("Re-randomisation makes the source's X̂*/l biased unless the data are "
                   "uniform (see the tab Bias); A⁻¹Y* is unbiased. Both can go below 0.")
    table = pd.DataFrame({"category": s.data.labels, "X (true)": s.x,
                          f"{released} (released)": y, "X̂*/l (source)": source,
                          "A⁻¹Y* (unbiased)": unbiased})
    kit.table(table, key="rs_counts_table", name="One release: counts per category",
                  hide_index=True, column_config={
        "X̂*/l (source)": st.column_config.NumberColumn(format="%.2f"),
        "A⁻¹Y* (unbiased)": st.column_config.NumberColumn(format="%.2f")})
    st.latex(r"\hat X = M^{-1}Y:\quad \hat X_i = \frac{\gamma + N - 1}{\gamma - 1}\,Y_i - "
             r"\frac{n}{\gamma - 1}\ \ (\text{Theorem 3.2}),\qquad "
             r"\frac{\hat X^*}{l} = \frac{M^{-1}Y^*}{l},\qquad "
             r"A^{-1}Y^*:\ \hat X_i = \frac{Y^*_i - b\,n}{a}")
    st.caption("A = aI + bJ is the exact expectation matrix of Algorithm 2, E[Y*] = AX (see the "
               "tab Bias); at l = 1, A = M and all three coincide.")


# --- 2. Accuracy -------------------------------------------------------------------------------

def accuracy_section(s: Settings) -> None:
    n_cat = s.n_categories
    st.markdown(
        f"The source measures accuracy by the relative standard error σ_X̂/‖X‖, with "
        f"σ_X̂² = E‖X̂ − X‖². Here it is simulated over R = {s.reps:,} releases and computed "
        "exactly; Theorem 4.1 bounds it, and Section 5 divides the bound by √l.")
    errors = errors_of(s)
    bound = float(errors["bound"].iloc[0])
    first, second = st.columns(3), st.columns(3)
    for col, kind in zip(first, ("source", "unbiased")):
        row = errors.loc[kind]
        col.metric(f"Simulated, {SHORT[kind]}", f"{row['actual']:.4g} ± {row['actual_se']:.2g}",
                   border=True,
                   help=f"√(mean ‖X̂ − X‖² over R = {s.reps:,} releases)/‖X‖ ± one Monte "
                   "Carlo standard error.")
    first[2].metric("Theorem 4.1 bound / √l", f"{bound:.4g}", border=True,
                    help="√(N(N − 1)(N + 2γ − 2))/((γ − 1)√n), divided by √l (Section 5.2).")
    for col, kind in zip(second, ("source", "unbiased")):
        col.metric(f"Exact, {SHORT[kind]}", f"{errors.loc[kind, 'exact']:.4g}", border=True,
                   help="√E‖X̂ − X‖²/‖X‖ from the exact variance (and squared bias) of "
                   "Algorithm 2 at these true counts.")
    curves = pd.DataFrame([
        {"l": j, "bound": rs.standard_error_bound(n_cat, s.n, s.gamma, j),
         "source": rs.expected_standard_error(s.x, s.gamma, j),
         "unbiased": rs.expected_standard_error(s.x, s.gamma, j, estimator="unbiased")}
        for j in l_values(s)])
    kit.chart(dpviz.substitution.substitution_error_figure(
        curves, current_l=s.l, points=errors.reset_index()), key="rs_fig_error",
        name="Relative standard error against l")
    above = curves[(curves["source"] > curves["bound"]) | (curves["unbiased"] > curves["bound"])]
    simulated = {kind: f"{errors.loc[kind, 'actual']:.3g} ± {errors.loc[kind, 'actual_se']:.2g}"
                 for kind in ("source", "unbiased")}
    kit.finding(
        f"Over R = {s.reps:,} simulated releases the relative standard error σ_X̂/‖X‖ is "
        + (f"{simulated['unbiased']} (exactly {errors.loc['unbiased', 'exact']:.3g})"
           if s.l == 1 else
           f"{simulated['source']} for the source's X̂*/l and {simulated['unbiased']} for the "
           f"unbiased A⁻¹Y* (exactly {errors.loc['source', 'exact']:.3g} and "
           f"{errors.loc['unbiased', 'exact']:.3g})")
        + f"; Theorem 4.1's bound / √l is {bound:.3g}.")
    if len(above):
        kit.note(
            "Theorem 5.2's 1/√l assumes the l draws of a record are independent; Algorithm 2 "
            "re-draws repeated values, so the exact errors fall more slowly: here the bound / √l "
            f"no longer bounds them from l = {int(above['l'].min())}.")
    st.caption(
        "At l = 1 the bound sits above the truth: it replaces ‖X‖ by its smallest possible "
        "value n/√N, which only uniform data reach. Its 1/√l (Theorem 5.2) assumes the l "
        "draws of a record are independent; Algorithm 2 re-draws repeated values, so the "
        "exact errors fall more slowly, and the source's X̂*/l rises again once its bias "
        "dominates."
        + (f" Here the bound / √l no longer bounds them from l = {int(above['l'].min())}."
           if len(above) else ""))
    st.latex(r"\frac{\sigma_{\hat X}}{\|X\|} \le \frac{\sqrt{N(N-1)(N+2\gamma-2)}}"
             r"{(\gamma-1)\sqrt{n}}\ \ (\text{Theorem 4.1}),\qquad "
             r"\frac{\sigma_{\hat X^*/l}}{\|X\|} \approx \frac{1}{\sqrt l}\,"
             r"\frac{\sigma_{\hat X}}{\|X\|}\ \ (\text{Theorem 5.2, independent draws})")
    paper_grid_section(s)


def grid_layout(table: pd.DataFrame) -> pd.DataFrame:
    """paper_grid's rows in the source's layout: one row per (shape, N, γ, n), a column
    group per l with the actual errors, the bound / √l and the mean draws."""
    rows = []
    for (shape, n_cat, gamma, n), group in table.groupby(["shape", "N", "gamma", "n"],
                                                         sort=False):
        row = {("data", "shape"): datasets.SHAPES[shape], ("data", "N"): int(n_cat),
               ("data", "γ"): float(gamma), ("data", "n"): int(n)}
        for l, cell in group.groupby("l", sort=True):
            by = cell.set_index("estimator")
            row |= {(f"l = {l}", "X̂*/l"): by.loc["source", "actual"],
                    (f"l = {l}", "A⁻¹Y*"): by.loc["unbiased", "actual"],
                    (f"l = {l}", "bound"): by.loc["source", "bound"],
                    (f"l = {l}", "draws"): by.loc["source", "draws"]}
        rows.append(row)
    wide = pd.DataFrame(rows)
    wide.columns = pd.MultiIndex.from_tuples(wide.columns)
    return wide


def paper_grid_section(s: Settings) -> None:
    reps = s.reps_chosen
    st.markdown("##### The source's experiment (Section 6)")
    st.markdown(
        f"Every cell of the source's grid: uniform and normal data, (N, γ) = (50, 5) and "
        f"(100, 10), n = 5,000 and 50,000, l = 1, 2 and 4: 24 cells, R = {reps:,} releases "
        "each (the source uses 100). Cost: the mean number of random draws, re-draws "
        "included.")
    results = st.session_state.setdefault("rs_grid_results", {})
    key = (reps, s.seed)
    if st.button("Run the paper grid", key="rs_grid_run", icon=":material/grid_on:",
                 help=f"Simulates all 24 cells with R = {reps:,} and seed {s.seed} (stream "
                 "[seed, 5]); a few seconds. The result is kept until R or the seed change."):
        bar = st.progress(0.0, text="Simulating the grid…")
        start = time.perf_counter()
        steps = len(rs.PAPER_SHAPES) * len(rs.PAPER_SETTINGS) * len(rs.PAPER_N) * len(rs.PAPER_L)
        table = rs.paper_grid(reps=reps, rng=[s.seed, 5], progress=lambda f, _: bar.progress(
            f, text=f"Simulating the grid… cell {round(f * steps)} of {steps}"))
        results[key] = {"table": table, "seconds": time.perf_counter() - start}
        bar.empty()
    if key not in results:
        st.caption("Not run yet with these settings"
                   + (" (a run with another R or seed is kept)." if results else "."))
        return
    result = results[key]
    wide = grid_layout(result["table"])
    counts = [c for c in wide.columns if c[1] in ("N", "n", "draws")]
    styled = wide.style.format("{:.4f}", subset=[c for c in wide.columns if c[0] != "data"]) \
        .format("{:,.0f}", subset=counts).format("{:g}", subset=[("data", "γ")])
    # Its CSV (and the report) get the full table: one row per cell and estimator.
    kit.table(styled, key="rs_grid_table", csv=result["table"], hide_index=True,
                  name=f"The source's grid, R = {reps}, seed {s.seed}")
    st.caption(f"For each l: the actual errors √(mean ‖X̂ − X‖²)/‖X‖ of X̂*/l (the source's) "
               "and of A⁻¹Y*, Theorem 4.1's bound / √l, and the mean number of random draws. "
               f"R = {reps:,} releases per cell, seed {s.seed}; ran in "
               f"{result['seconds']:.1f} s. Its CSV has every cell and estimator with the Monte "
               "Carlo standard errors, the exact errors, the relative bias, n·l and the exact "
               "expected draws.")


# --- 3. Cost -----------------------------------------------------------------------------------

def cost_section(s: Settings) -> None:
    n_cat = s.n_categories
    release = one_release(s)
    errors = errors_of(s)
    expected = rs.expected_draws(s.n, n_cat, s.gamma, s.l)
    collision = rs.collision_probability(n_cat, s.gamma, s.l)
    st.markdown(
        "Algorithm 2 draws until a record has l distinct values: a draw that repeats a value "
        "already in the record's set is drawn again. The extra draws are its cost.")
    cols = st.columns(3) + st.columns(3)
    cols[0].metric("Draws, this release", f"{release.draws:,}", border=True,
                   help="The release of the first tab (stream [seed, 1]).")
    cols[1].metric(f"Mean draws over R = {s.reps:,}", fmt_count(float(errors['draws'].iloc[0])),
                   border=True, help="The mean over the releases of the tab Accuracy.")
    cols[2].metric("Expected draws", fmt_count(expected), border=True,
                   help="Exactly: each of the l steps of a record is geometric, with a success "
                   "probability that depends on whether its own value is already in its set.")
    cols[3].metric("n·l", f"{s.n * s.l:,}", border=True, help="The values released.")
    cols[4].metric("Expected draws / (n·l)", f"{expected / (s.n * s.l):.4g}", border=True,
                   help="1 means no re-draws.")
    cols[5].metric("P[s ≥ 2] (Theorem 5.1)", fmt_big(collision), border=True,
                   help="The probability that l independent draws for one record repeat a "
                   "value: how often a record would release fewer than l distinct values "
                   "without re-draws.")
    table = pd.DataFrame([
        {"l": j, "draws_ratio": rs.expected_draws(s.n, n_cat, s.gamma, j) / (s.n * j),
         "collision": rs.collision_probability(n_cat, s.gamma, j)} for j in l_values(s)])
    kit.chart(dpviz.substitution.substitution_cost_figure(table, current_l=s.l), key="rs_fig_cost",
                  name="Cost of re-draws against l")
    ratio = expected / (s.n * s.l)
    kit.finding(
        "At l = 1 every record takes one random draw: no re-draws." if s.l == 1 else
        f"Algorithm 2 is expected to take {fmt_count(expected)} random draws for the "
        f"n·l = {s.n * s.l:,} released values ({ratio:.4g} per value, {ratio - 1:.1%} re-draws; "
        f"this release took {release.draws:,}); without re-draws, l = {s.l} independent draws "
        f"would repeat a value for a record with probability {fmt_big(collision)} "
        "(Theorem 5.1).")
    st.latex(r"P[s \ge 2] = 1 - \frac{(N - l + l\gamma)\prod_{i=1}^{l-1}(N - i)}"
             r"{(\gamma + N - 1)^l}\ \ (\text{Theorem 5.1})")
    st.caption("The own value, weighted γ, is the likeliest repeat: re-draws grow with γ and "
               "with l/N. Sampling from the counts here takes O(N²·l) work whatever n.")


# --- 4. Privacy --------------------------------------------------------------------------------

def privacy_section(s: Settings) -> None:
    n_cat = s.n_categories
    log_gamma = math.log(s.gamma)
    eps_l = rs.extended_epsilon(n_cat, s.gamma, s.l)
    eps_ordered = rs.extended_epsilon(n_cat, s.gamma, s.l, ordered=True)
    eps_bound = s.l * log_gamma
    st.markdown("**One substitution (l = 1).** The γ-diagonal matrix is γ-amplifying: "
                "every output is at most γ times more likely under one input than another.")
    cols = st.columns(3)
    cols[0].metric("γ-amplification", fmt.fmt_number(s.gamma), border=True,
                   help="max over outputs y and inputs u, v of P(y | u)/P(y | v) = γ.")
    cols[1].metric("ε = ln γ", f"{log_gamma:.4g}", border=True,
                   help="The local differential privacy of one substitution.")
    cols[2].metric("Condition number of M", fmt_big(rs.condition_number(n_cat, s.gamma)),
                   border=True, help="1 + N/(γ − 1): how much inverting M amplifies noise. "
                   "Strong privacy (γ near 1) means a large condition number.")
    st.markdown(f"**The l-extended release (l = {s.l}).** What a record releases is its set "
                "of l distinct values.")
    cols = st.columns(3)
    cols[0].metric("Source's bound γ^l: ε = l × ln γ", f"{eps_bound:.4g}", border=True,
                   help="Section 5.1. Exact for the multiset of l independent draws, without "
                   "re-randomisation.")
    cols[1].metric("Exact ε_l of the released set", f"{eps_l:.4g}", border=True,
                   help="ln[π/(1 − π)·(N − l)/l]: the largest ratio of the probabilities of one "
                   "released set under two true values.")
    cols[2].metric("ε if the order were released", f"{eps_ordered:.4g}", border=True,
                   help="ln γ + Σ_{j<l} ln(1 + (γ − 1)/(N − j)): the l values in the order "
                   "drawn, the worst case the record's own value drawn first.")
    if s.l > 1:
        st.caption(f"The bound overstates ε by {eps_bound - eps_l:.4g} "
                   f"(a factor {amplification(eps_bound - eps_l):.4g} in probability ratio): "
                   "the set hides which of its values was drawn first, and a repeated own "
                   "value is drawn again instead of being released twice.")
    table = pd.DataFrame([
        {"l": j, "bound": j * log_gamma,
         "ordered": rs.extended_epsilon(n_cat, s.gamma, j, ordered=True),
         "exact": rs.extended_epsilon(n_cat, s.gamma, j)} for j in range(1, n_cat)])
    kit.chart(dpviz.substitution.substitution_epsilon_figure(table, current_l=s.l,
                                                      log_gamma=log_gamma),
                  key="rs_fig_eps", name="Privacy ε against l")
    kit.finding(
        f"One substitution with γ = {fmt.fmt_number(s.gamma)} is exactly ε = ln γ = "
        f"{log_gamma:.3g}-locally differentially private; its price is the condition number "
        f"of M, {fmt_big(rs.condition_number(n_cat, s.gamma))}: how much inverting M "
        "amplifies noise." if s.l == 1 else
        f"The source's bound l × ln γ = {eps_bound:.3g} overstates the exact "
        f"ε_l = {eps_l:.3g} by a factor {fmt_big(amplification(eps_bound - eps_l))} in "
        "probability ratio: the released set hides the order of its values (released in the "
        f"order drawn, ε = {eps_ordered:.3g}).")
    st.latex(r"\pi = 1 - \prod_{j=0}^{l-1}\frac{N-1-j}{\gamma+N-1-j},\qquad "
             r"\varepsilon_l = \ln\!\Big[\frac{\pi}{1-\pi}\cdot\frac{N-l}{l}\Big]"
             r"\ \le\ \varepsilon_l^{\text{ordered}} = \ln\gamma + \sum_{j=1}^{l-1}"
             r"\ln\!\Big(1 + \frac{\gamma-1}{N-j}\Big)\ \le\ l\ln\gamma")
    breach_section(s, eps_l, eps_bound)
    links_section(s)


def breach_section(s: Settings, eps_l: float, eps_bound: float) -> None:
    st.markdown("##### Privacy breaches (Theorem 3.1)")
    st.markdown(
        "A ρ₁→ρ₂ breach: a property of a record with prior probability at most ρ₁ gets a "
        "posterior above ρ₂ after its release. A γ-amplifying release allows none when γ is "
        "below ρ₂(1 − ρ₁)/(ρ₁(1 − ρ₂)).")
    c1, c2 = st.columns(2)
    rho1 = c1.number_input(
        "ρ₁: prior", min_value=0.001, max_value=0.999, value=0.05, step=0.01, format="%.3g",
        key="rs_rho1", bind="query-params",
        help="The prior probability of the property, e.g. 0.05: 'this record's value is u_1'.")
    rho2 = c2.number_input(
        "ρ₂: posterior not to exceed", min_value=0.001, max_value=0.999, value=0.5, step=0.05,
        format="%.3g", key="rs_rho2", bind="query-params",
        help="The posterior the property must not exceed after the release; above ρ₁.")
    try:
        threshold = rs.breach_gamma(rho1, rho2)
    except ValueError as exc:
        kit.error(f"These probabilities cannot be used: {plain(str(exc))}")
        return
    rows = [("random substitution, l = 1: γ", math.log(s.gamma)),
            (f"l-extended release, l = {s.l}: e^ε_l (exact)", eps_l),
            (f"source's bound, l = {s.l}: γ^l", eps_bound)]
    table = pd.DataFrame([
        {"release": name, "amplification": fmt_big(amplification(eps)), "ε": eps,
         f"no {rho1:g}→{rho2:g} breach": "yes" if eps < math.log(threshold) else "no",
         "largest posterior": rs.posterior_bound(rho1, amplification(eps))}
        for name, eps in rows])
    kit.table(table, key="rs_breach_table", name="Privacy breaches (Theorem 3.1)",
                  hide_index=True, column_config={
        "ε": st.column_config.NumberColumn(format="%.4g"),
        "largest posterior": st.column_config.NumberColumn(format="%.4f")})
    kit.settings({"breach: prior ρ₁": f"{rho1:g}", "breach: posterior ρ₂": f"{rho2:g}"})
    safe = eps_l < math.log(threshold)
    kit.finding(
        f"A {rho1:g}→{rho2:g} privacy breach is impossible below an amplification of "
        f"{threshold:.4g} (ε < {math.log(threshold):.3g}): the release with l = {s.l} "
        + ("rules it out" if safe else "does not rule it out")
        + f" (ε_l = {eps_l:.3g}; a prior of {rho1:g} becomes a posterior of at most "
        f"{rs.posterior_bound(rho1, amplification(eps_l)):.4f}).")
    st.caption(f"No breach needs an amplification below ρ₂(1 − ρ₁)/(ρ₁(1 − ρ₂)) = "
               f"{threshold:.4g} (ε < {math.log(threshold):.4g}). The largest posterior is "
               "γρ₁/(γρ₁ + 1 − ρ₁) with the amplification in place of γ.")
    st.latex(r"\gamma < \frac{\rho_2(1-\rho_1)}{\rho_1(1-\rho_2)}\ \Longrightarrow\ "
             r"\text{no }\rho_1\to\rho_2\text{ breach},\qquad "
             r"P(\text{property}\mid y) \le \frac{\gamma\rho_1}{\gamma\rho_1 + 1 - \rho_1}")


def links_section(s: Settings) -> None:
    """l = 1 is k-RR with k = N and e^ε = γ: links to the LDP and the f-DP pages."""
    n_cat = s.n_categories
    log_gamma = math.log(s.gamma)
    st.markdown(
        f"##### l = 1 is k-ary randomized response\nOne substitution with a γ-diagonal matrix "
        f"is k-RR with k = N = {n_cat} and e^ε = γ: ε = ln γ = {log_gamma:.4g}.")
    eps = links.nearest_on_grid(log_gamma, links.LdpParams.EPS_GRID)
    query = {"ldp_tab": LDP_TAB, "ldp_eps": fmt.fmt_number(eps)}
    label = f"See k-RR at ε = {eps:g}"
    if s.data.source in datasets.POPULATIONS:
        query |= {"ldp_source": links.POPULATION_AGE_LABELS[s.data.source],
                  "ldp_k": str(n_cat)}
        label += f" with the same k = {n_cat} age groups"
    st.page_link("views/ldp.py", label=label + " on the randomized response page",
                 icon=":material/casino:", query_params=query,
                 help="Opens 'Randomized response (local DP)' on its guarantee: the same "
                 "mechanism, one user at a time, with its estimators.")
    if eps != log_gamma:
        st.caption(f"ln γ = {log_gamma:.4g} is not on that page's ε slider: the link opens it "
                   f"at the nearest value, {eps:g}.")
    gamma = links.nearest_on_grid(s.gamma, links.FdpParams.RS_GAMMA_GRID)
    k = min(n_cat, links.FdpParams.K_MAX)
    st.page_link(
        "views/fdp.py", label=f"See the trade-off curve of random substitution with "
        f"γ = {fmt.fmt_number(gamma)}, N = {k} on the f-DP page", icon=":material/shield:",
        query_params={"fdp_tab": FDP_TAB, "fdp_show_krr": "false", "fdp_show_rs": "true",
                      "fdp_rs_gamma": fmt.fmt_number(gamma), "fdp_rs_n": str(k)},
        help="Opens 'f-DP and Gaussian DP' on its trade-off curves with random substitution "
        "(k-RR with e^ε = γ, k = N): how well the best attacker can tell two true values "
        "apart from one released value.")
    if k != n_cat:
        st.caption(f"That page's N slider stops at {links.FdpParams.K_MAX}: the link opens it at "
                   f"N = {k}, not {n_cat}.")
    if gamma != s.gamma:
        st.caption(f"γ = {fmt.fmt_number(s.gamma)} is not on that page's γ slider: the link "
                   f"opens it at the nearest value, {fmt.fmt_number(gamma)}.")


# --- 5. Bias -----------------------------------------------------------------------------------

def bias_section(s: Settings) -> None:
    n_cat = s.n_categories
    pi = rs.inclusion_probability(n_cat, s.gamma, s.l)
    st.markdown(
        "With re-randomisation a record's own value is in its set with probability π and "
        "each other value with probability b = (l − π)/(N − 1). So E[Y*] = AX with "
        "A = aI + bJ, not l·MX as for l independent draws (l·γx on the diagonal), and the "
        "source's X̂*/l = M⁻¹Y*/l is biased unless the data are uniform. A⁻¹Y* is unbiased.")
    st.latex(r"\pi = 1 - \prod_{j=0}^{l-1}\frac{N-1-j}{\gamma+N-1-j},\quad "
             r"b = \frac{l-\pi}{N-1},\quad a = \pi - b,\qquad \mathbb E[Y^*] = (aI + bJ)X,"
             r"\qquad \hat X_i^{\text{unbiased}} = \frac{Y^*_i - b\,n}{a}")
    st.caption(f"Here π = {pi:.4g}, against l·γx = "
               f"{s.l * rs.inclusion_probability(n_cat, s.gamma, 1):.4g} in l·M.")
    errors = errors_of(s)
    estimates = simulated_estimates(tuple(int(v) for v in s.x), s.gamma, s.l, s.reps, s.seed)
    cols = st.columns(4)
    for col, kind in zip(cols, ("source", "unbiased")):
        col.metric(f"Relative bias, {SHORT[kind]}", fmt_share(errors.loc[kind, "bias"]),
                   border=True, help="‖E X̂ − X‖/‖X‖, exactly.")
    for col, kind in zip(cols[2:], ("source", "unbiased")):
        col.metric(f"Exact error, {SHORT[kind]}", f"{errors.loc[kind, 'exact']:.4g}",
                   border=True, help="√E‖X̂ − X‖²/‖X‖: variance and squared bias.")
    kit.chart(dpviz.substitution.substitution_bias_figure(
        s.data.labels, s.x, rs.reconstruction_bias(s.x, s.gamma, s.l), estimates),
        key="rs_fig_bias", name="Bias per category")
    st.caption(f"Markers: the mean of X̂ − X over the R = {s.reps:,} releases of the tab "
               "Accuracy, ± 2 standard errors of that mean.")
    source, unbiased = errors.loc["source", "exact"], errors.loc["unbiased", "exact"]
    if s.l == 1:
        st.markdown("At l = 1 there is no re-randomisation: both are Theorem 3.2's unbiased "
                    "reconstruction. Choose l ≥ 2 to see the bias.")
        kit.finding("At l = 1 there is no re-randomisation: the reconstruction M⁻¹Y is "
                        f"unbiased (Theorem 3.2), its relative standard error {source:.3g}.")
        return
    smaller = "the source's X̂*/l" if source < unbiased else "the unbiased A⁻¹Y*"
    kit.finding(
        f"The source's X̂*/l is biased by {fmt_share(errors.loc['source', 'bias'])} of ‖X‖ "
        f"(exactly), for any n with these proportions; A⁻¹Y* is unbiased. Here {smaller} has "
        f"the smaller total error ({source:.3g} for X̂*/l, {unbiased:.3g} for A⁻¹Y*); the "
        "variance part of either falls like 1/√n.")
    st.markdown(
        f"**Bias against variance.** Here {smaller} has the smaller total error "
        f"({source:.4g} for X̂*/l, {unbiased:.4g} for A⁻¹Y*): dividing by l·M instead of A "
        "shrinks the estimate towards the uniform distribution, which lowers its variance. "
        f"But its relative bias, {fmt_share(errors.loc['source', 'bias'])}, stays the same for "
        "any n with these proportions, while the variance part of either error falls like "
        "1/√n: with more records the unbiased reconstruction wins.")


# ------------------------------------------------------------------------------------------
kit = page_header(TITLE)
st.markdown(
    "**Random substitution** replaces each record's value u_k by u_h with probability "
    "m_hk, from a γ-diagonal matrix M: a value is kept γ times as often as it is moved to any "
    "one other value, so every release is at most γ times more likely under one true value "
    "than under another (ε = ln γ local differential privacy). The server still estimates "
    "the true counts X by inverting M. The **l-extended** version releases l distinct values "
    "per record, re-drawing repeats: more accuracy for the same γ, at a price in draws and in "
    "privacy.")
st.latex(r"M = xG = \frac{1}{\gamma + N - 1}\begin{pmatrix}\gamma & 1 & \cdots & 1 \\ "
         r"1 & \gamma & \cdots & 1 \\ \vdots & & \ddots & \vdots \\ "
         r"1 & 1 & \cdots & \gamma\end{pmatrix},\qquad \mathbb E[Y] = MX,\qquad "
         r"\hat X_i = \frac{\gamma + N - 1}{\gamma - 1}\,Y_i - \frac{n}{\gamma - 1}")
with st.container(border=True):
    SETTINGS, PROBLEM, WAITING = read_controls()
if SETTINGS is None:
    if WAITING:
        st.info(PROBLEM, icon=":material/upload_file:")
        kit.stop()
    kit.fail(PROBLEM)
with st.container(border=True):
    summary(SETTINGS)

# Only the open tab runs (the tab is bound to the URL, so it is tracked).
SECTIONS = {
    TABS[0]: release_section,
    TABS[1]: accuracy_section,
    TABS[2]: cost_section,
    TABS[3]: privacy_section,
    TABS[4]: bias_section,
}
for tab, section in zip(st.tabs(list(SECTIONS), key="rs_tab", bind="query-params"),
                        SECTIONS.values()):
    with tab:
        if tab.open is not False:
            try:
                section(SETTINGS)
            except ValueError as exc:  # dpcore's argument errors, in plain words
                kit.fail(f"These settings cannot be used: {plain(str(exc))}")
kit.end()
