"""Shared Streamlit controls for the dashboard's pages.

Pages import these to lay out the same controls the same way: the data
source picker (built-in populations, the paper's shapes, uploads), log-scale
sliders for privacy levels and sample sizes, the seed control and the error
display. All numerics stay in :mod:`dpcore`.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from urllib.parse import urlencode

import numpy as np
import pandas as pd
import streamlit as st
from pandas.io.formats.style import Styler

import dpviz
from dpcore import datasets

# Log-scale grids for select sliders, rounded to two significant figures.
# Ten steps a decade: they contain the paper's levels 0.01, 0.05, 0.1, 0.5, 1.
ALPHA_GRID = tuple(float(f"{v:.2g}") for v in np.logspace(-3, 1, 41))
# Sample sizes 1, 2, 5 x 10^k from 10^3 to 5 x 10^7 (the paper's range).
N_GRID = tuple(int(m * 10**k) for k in range(3, 8) for m in (1, 2, 5))
BOOT_GRID = (100, 200, 500, 1000, 2000, 5000, 10_000)
DEFAULT_SEED = 2022

# Sliders that other pages link to: a link carries a value of the target page's grid.
# views/ldp.py: ldp_eps. Every value is also on the f-DP page's k-RR slider.
LDP_EPS_GRID = (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0)
# views/fdp.py: fdp_krr_eps on its KRR_EPS_GRID, fdp_krr_k 2 … 100.
FDP_KRR_EPS_GRID = (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
                    1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0, 8.0, 10.0, 12.0,
                    15.0, 20.0)
FDP_K_MAX = 100
# views/fdp.py: its random substitution curve, fdp_rs_gamma on its GAMMA_GRID, fdp_rs_n 2 … 100.
FDP_RS_GAMMA_GRID = (1.1, 1.2, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0, 1000.0)
# views/substitution.py: rs_gamma (it contains the source's γ = 5 and 10).
RS_GAMMA_GRID = (1.1, 1.25, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0, 100.0, 200.0,
                 500.0, 1000.0)

UPLOAD = "upload"
# The data source "ages of a 2020 population in k groups" (views/ldp.py, views/substitution.py).
POPULATION_AGE_LABELS = {k: f"Population 2020 by age: {v}"
                         for k, v in datasets.POPULATIONS.items()}
AGE_BINNINGS = {1: "Single years (86 bins)", 5: "5-year groups (18 bins)", 10: "10-year groups (9 bins)"}


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def times_ten(v: float, decimals: int) -> str:
    """``v`` in scientific notation as people write it: 7.85·10⁷, 1.0·10⁻⁵."""
    mantissa, exponent = f"{v:.{decimals}e}".split("e")
    return f"{mantissa}·10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def fmt_big(v: float) -> str:
    """4 significant digits; 10⁴ and above as 7.85·10⁷; ∞."""
    if math.isinf(v):
        return "∞"
    if abs(v) < 1e4:
        return f"{v + 0.0:.4g}"  # + 0.0: no "-0"
    return times_ten(v, 2)


def fmt_number(v: float) -> str:
    """Compact label for slider values: 0.001, 0.05, 1, 10; 5,000; 50M."""
    if v >= 1_000_000:
        return f"{v / 1_000_000:g}M"
    if v >= 1000:
        return f"{v:,.0f}"
    return f"{v:g}"


def log_slider(label: str, grid, *, default, key: str, help: str | None = None):
    """A select slider over a log-spaced grid, bound to the page URL."""
    return st.select_slider(
        label, options=grid, value=default, format_func=fmt_number, key=key, help=help,
        bind="query-params",
    )


def alpha_slider(label: str, *, key: str, default: float = 0.1):
    return log_slider(
        label, ALPHA_GRID, default=default, key=key,
        help="Privacy level α of the Laplace mechanism: noise Lap(2/α) is added to every "
        "count. Smaller α = stronger privacy = more noise. Log scale, 0.001 to 10.",
    )


def sample_size_slider(label: str, *, key: str, default: int = 10_000):
    return log_slider(
        label, N_GRID, default=default, key=key,
        help="Number of people N in the histogram, drawn as Multinomial(N, p). "
        "Log scale, 1,000 to 50 million.",
    )


def _whole_number(text) -> int | None:
    """A query parameter's value as an int ("1,000" and "12.0" too), or None."""
    try:
        value = float(str(text).replace(",", ""))
    except ValueError:
        return None
    return int(value) if np.isfinite(value) and value == int(value) else None


def ranged_slider(label: str, min_value: int, max_value: int, *, default: int, key: str,
                  help: str | None = None) -> int:
    """An integer slider whose range follows other settings, kept in the URL parameter ``key``.

    The URL holds the value chosen (absent: ``default``); the slider shows it
    clamped to its current range, and a caption says when it is clamped. So a
    value is kept when the range changes and comes back when the range allows
    it again, and a reload of the URL shows the same. The slider itself (key
    ``f"{key}_slider"``) is not bound to the URL: Streamlit gives a bound slider
    with a new range a new identity, which resets it or fails on a URL value
    beyond the range. A move of the slider is written to the URL parameter.
    """
    slider_key, moved_key = f"{key}_slider", f"{key}_moved"
    lo, hi = int(min_value), int(max_value)
    default = int(default)

    def _moved() -> None:
        st.session_state[moved_key] = int(st.session_state[slider_key])

    moved = st.session_state.pop(moved_key, None)
    if moved is not None:  # the user moved the slider: the URL follows
        if moved == default:
            st.query_params.pop(key, None)
        else:
            st.query_params[key] = str(moved)
    raw = st.query_params.get(key)
    wanted = _whole_number(raw)
    if raw is not None and wanted is None:  # unusable: dropped, and named by page_footer
        st.query_params.pop(key, None)
        st.session_state[key] = default
    else:  # a usable value, or one the user just moved away from: nothing to name
        st.session_state.pop(key, None)
    wanted = default if wanted is None else wanted
    value = min(max(wanted, lo), hi)
    if st.session_state.get(slider_key) != value:
        st.session_state[slider_key] = value
    st.slider(label, lo, hi, key=slider_key, on_change=_moved, help=help)
    if value != wanted:
        st.caption(f"{label}: {wanted:,} is outside {lo} … {hi}; {value:,} is used.")
    return value


def _refilled(value, last_key: str, rerun_key: str, default):
    """A number box's value, never None: a box without a value of its own (e.g. a
    browser history entry without its URL parameter) gets one rerun to refill it from
    session state, then its last value (or ``default``). Remembers the value as the last."""
    if value is None:
        if not st.session_state.get(rerun_key):
            st.session_state[rerun_key] = True
            st.rerun()
        value = st.session_state.get(last_key, default)
    st.session_state[rerun_key] = False
    st.session_state[last_key] = value
    return value


def seed_control(key: str = "seed") -> int:
    """Seed input with a "New draw" button; the same seed gives the same view.

    The seed (key ``key``, bound to the URL) is any whole number from 0 to
    2³¹ − 1. Streamlit leaves a bound widget's default value out of the URL, so
    the number input is created with ``value=None`` (no default of its own) and
    gets DEFAULT_SEED from ``st.session_state.setdefault``: every seed, 0 and
    DEFAULT_SEED included, round-trips through the URL, and no "default value
    and Session State" warning arises when "New draw" sets the seed. An empty
    box (the user cleared it, or a browser history entry without this
    parameter) is refilled with the last seed. The box and the button share a
    row that wraps: in a narrow column the button moves below the box.
    """
    last_key, rerun_key = f"{key}_last", f"{key}_rerun"
    st.session_state.setdefault(key, DEFAULT_SEED)
    if st.session_state.get(key) is None:
        st.session_state[key] = st.session_state.get(last_key, DEFAULT_SEED)

    def _new_draw():
        st.session_state[key] = int(np.random.default_rng().integers(0, 1_000_000))

    def _typed():
        if st.session_state.get(key) is None:  # the box was cleared: put the last seed back
            st.session_state[key] = st.session_state.get(last_key, DEFAULT_SEED)

    with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
        seed = st.number_input(
            "Seed", min_value=0, max_value=2**31 - 1, value=None, step=1, key=key,
            on_change=_typed, bind="query-params",
            help="Random seed. The same seed and settings reproduce exactly the same view.",
        )
        st.button("New draw", key=f"{key}_new", on_click=_new_draw, wrap=True,
                  help="Draw new data and noise (picks a new seed).", icon=":material/casino:")
    return int(_refilled(seed, last_key, rerun_key, DEFAULT_SEED))


# ---------------------------------------------------------------------------
# Data sources
# ---------------------------------------------------------------------------

SOURCE_LABELS = {
    **{k: f"Population 2020: {v}" for k, v in datasets.POPULATIONS.items()},
    **{k: f"Shape: {v}" for k, v in datasets.SHAPES.items()},
    UPLOAD: "Uploaded CSV file",
}


def source_picker(side: str, *, default: str, key: str) -> str:
    """Selectbox of data sources for histogram `side` ("A" or "B")."""
    keys = list(SOURCE_LABELS)
    return st.selectbox(
        f"Histogram {side}", keys, index=keys.index(default), format_func=SOURCE_LABELS.get,
        key=key, bind="query-params",
        help="A built-in 2020 population by age, one of the paper's shapes "
        "(section 2.3: uniform, increasing, normal), or a column of your own CSV file.",
    )


@dataclass(frozen=True)
class Upload:
    """A parsed, validated upload: a table of numeric columns and how to read it."""

    table: pd.DataFrame
    kind: str  # "counts" or "values"


def upload_control(key: str = "upload") -> tuple[Upload | None, str | None]:
    """File uploader with its options.

    Returns the parsed upload, or None and why not (no file yet, or what is
    wrong with the file, in plain words).
    """
    st.markdown("**Your CSV file**")
    kind = st.radio(
        "The file holds", ["counts", "values"], horizontal=True, key=f"{key}_kind",
        format_func={"counts": "counts per bin (one row per bin)",
                     "values": "raw values to bin (one row per person)"}.get,
        help="Counts: each row is a bin, each column a histogram (a first column of text "
        "labels is allowed). Raw values: each column lists one value per person, e.g. ages.",
    )
    file = st.file_uploader(
        "CSV file: one column, or two columns for A and B", type=["csv", "txt"], key=key,
        help="Comma-, semicolon- or tab-separated, UTF-8, up to 5 MB. An optional header row "
        "names the columns.",
    )
    if file is None:
        return None, None
    try:
        table = datasets.read_csv_upload(file.getvalue())
    except datasets.UploadError as exc:
        return None, f"This file cannot be used: {exc}"
    return Upload(table=table, kind=kind), None


def column_picker(upload: Upload, side: str, *, index: int, key: str) -> str:
    cols = list(upload.table.columns)
    return st.selectbox(
        f"Column for {side}", cols, index=min(index, len(cols) - 1), key=key,
        help="Which column of your file is histogram " + side + ".",
    )


def error(message: str) -> None:
    """Show a plain-language error, the same way on every page."""
    st.error(message, icon=":material/error:")


def show_error(message: str) -> None:
    """Show a plain-language error (never a traceback) and stop the page."""
    error(message)
    stop()


def stop() -> None:
    """Stop the page early, still giving it its link and its note on the URL."""
    page_footer()
    st.stop()


def plain(message: str, symbols: dict[str, str] | None = None) -> str:
    """dpcore's messages in plain words: no code quotes, argument names as the page's symbols.

    ``symbols`` maps argument names to what the page calls them (``{"eps": "ε"}``);
    a mapped name is replaced wherever it stands as a word, quoted or not.
    """
    symbols = symbols or {}
    text = re.sub(r"`(\w+)`", lambda m: symbols.get(m.group(1), m.group(1)), message)
    for name, symbol in symbols.items():
        text = re.sub(rf"\b{re.escape(name)}\b", symbol, text)
    return text


# ---------------------------------------------------------------------------
# An upload of categories: one value per record, or counts per category
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CategoryCounts:
    """Counts per category read from an uploaded file.

    ``first``: the category index of every record in file order (a file of one
    value per record), None for a file of counts.
    """

    labels: list[str]
    counts: np.ndarray  # whole numbers, as floats
    first: np.ndarray | None
    what: str  # the data in words


def category_upload(prefix: str, *, max_categories: int, value: str = "answer",
                    record: str = "user",
                    examples: str = "yes, no, …") -> tuple[CategoryCounts | None, str | None]:
    """The upload controls of a page of categories; the counts, or why there are none.

    Widget keys ``{prefix}_file_kind`` (bound to the URL), ``{prefix}_file`` and
    ``{prefix}_col``. The file holds one ``value`` per ``record`` (a column of
    categories, text or numbers) or counts per category (whole numbers, with
    an optional first column of labels). Returns (None, None) while no file is
    uploaded, (None, what is wrong in plain words) for a file that cannot be used.
    """
    kinds = {"categories": f"one {value} per {record} (a column of categories)",
             "counts": "counts per category (one row per category)"}
    kind = st.radio(
        "The file holds", list(kinds), format_func=kinds.get, key=f"{prefix}_file_kind",
        bind="query-params",
        help=f"One {value} per {record}: a column of categories, text ({examples}) or "
        f"numbers, one row per {record}; the first row names the columns. Counts per "
        "category: one row per category, a column of whole numbers (a first column of text "
        "labels is allowed).")
    file = st.file_uploader(
        "CSV file", type=["csv", "txt"], key=f"{prefix}_file",
        help="Comma-, semicolon- or tab-separated, UTF-8, up to 5 MB, at most "
        f"{max_categories:,} categories.")
    if file is None:
        return None, None
    try:
        table = (datasets.read_answers_upload(file.getvalue()) if kind == "categories"
                 else datasets.read_csv_upload(file.getvalue()))
    except datasets.UploadError as exc:
        return None, f"This file cannot be used: {exc}"
    column = st.selectbox("Column", list(table.columns), key=f"{prefix}_col",
                          help=f"Which column of your file holds the {value}s or the counts.")
    try:
        if kind == "categories":
            labels, counts, index = datasets.categories_from_column(
                table[column], max_categories=max_categories)
            return CategoryCounts(labels, counts, index,
                                  f'the {counts.sum():,.0f} {value}s in column "{column}"'), None
        counts = datasets.counts_from_column(table[column], name="of counts")
        if np.any(counts != np.round(counts)):
            raise datasets.UploadError(
                f'Column "{column}" has a count that is not a whole number; counts of {record}s '
                "must be 0, 1, 2, …")
        if counts.size > max_categories:
            raise datasets.UploadError(
                f"Your file has {counts.size:,} categories; at most {max_categories:,} are "
                "supported.")
    except ValueError as exc:  # UploadError and dpcore argument errors
        return None, f"This file cannot be used: {plain(str(exc))}"
    labels = ([str(v) for v in table.index] if not isinstance(table.index, pd.RangeIndex)
              else [str(j) for j in range(1, counts.size + 1)])
    return CategoryCounts(labels, counts, None, f'the counts in column "{column}"'), None


# ---------------------------------------------------------------------------
# Two histograms over common bins
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SideInput:
    """One histogram as the user chose it.

    ``values`` are probabilities to sample from (``fixed`` False) or counts
    to use as they are (``fixed`` True).
    """

    name: str
    values: np.ndarray
    fixed: bool


@dataclass(frozen=True)
class PairInput:
    """Histograms A and B over common bins, or why they cannot be had.

    When ``problem`` is set the other fields may be None; ``waiting`` marks
    the harmless case of a file not uploaded yet.
    """

    labels: list[str] | None
    a: SideInput | None
    b: SideInput | None
    private: bool = False  # both are uploaded, already private histograms
    problem: str | None = None
    waiting: bool = False

    @property
    def sampled(self) -> bool:
        """True when at least one histogram is drawn with a sample size N."""
        return self.a is None or not (self.a.fixed and self.b.fixed)

    def stop_if_unusable(self) -> None:
        """Show why the pair cannot be used (after the controls) and stop."""
        if self.problem is None:
            return
        if self.waiting:
            st.info(self.problem, icon=":material/upload_file:")
            stop()
        show_error(self.problem)


def _binning_control(sources: list[str], upload: Upload | None, key: str):
    """Return (width, m): age-group width, or the number of equal-width bins."""
    any_pop = any(s in datasets.POPULATIONS for s in sources)
    upload_counts = upload is not None and upload.kind == "counts" and UPLOAD in sources
    if any_pop:
        width = st.radio(
            "Age groups (bins M)", list(AGE_BINNINGS), index=1, format_func=AGE_BINNINGS.get,
            key=f"{key}_width", bind="query-params", horizontal=True,
            help="The paper's three binnings: 1-year (0..84, 85+), 5-year (0–4 … 80–84, 85+) "
            "and 10-year (0–9 … 70–79, 80+) age groups.",
        )
        return int(width), len(datasets.age_bin_labels(width))
    if upload_counts:
        m = len(upload.table)
        st.caption(f"Bins: M = {m}, one per row of your file.")
        return None, m
    m = st.slider(
        "Bins M", min_value=2, max_value=200, value=20, key=f"{key}_m", bind="query-params",
        help="Number of equal-width bins for the shapes (and for raw uploaded values).",
    )
    return None, int(m)


def _labels(width, m, upload: Upload | None, sources, lo_hi) -> list[str]:
    if width is not None:
        return datasets.age_bin_labels(width)
    if upload is not None and UPLOAD in sources:
        if upload.kind == "counts" and not isinstance(upload.table.index, pd.RangeIndex):
            return [str(v) for v in upload.table.index]
        if upload.kind == "values" and lo_hi is not None:
            edges = np.linspace(lo_hi[0], lo_hi[1], m + 1)
            return [f"{a:.4g}–{b:.4g}" for a, b in zip(edges[:-1], edges[1:])]
    return [str(j) for j in range(1, m + 1)]


def histogram_pair_control(key: str = "pair") -> PairInput:
    """Pick histograms A and B (source, binning, upload) and resolve them.

    Never stops the page: when the choices cannot be combined (no file yet,
    an unusable file, bins that do not match) the result carries the reason,
    so the page can draw its other controls first and then call
    ``PairInput.stop_if_unusable``.
    """
    c1, c2 = st.columns(2)
    with c1:
        src_a = source_picker("A", default="korea_central", key=f"{key}_a")
    with c2:
        src_b = source_picker("B", default="korea_noncentral", key=f"{key}_b")
    sources = [src_a, src_b]
    upload = None
    col_a = col_b = None
    if UPLOAD in sources:
        with st.container(border=True):
            upload, problem = upload_control(key=f"{key}_file")
            if upload is None:
                return PairInput(
                    None, None, None,
                    problem=problem or "Upload a CSV file to use it as a histogram, or pick a "
                    "built-in source.",
                    waiting=problem is None,
                )
            cols = st.columns(2)
            if src_a == UPLOAD:
                with cols[0]:
                    col_a = column_picker(upload, "A", index=0, key=f"{key}_col_a")
            if src_b == UPLOAD:
                with cols[1]:
                    col_b = column_picker(upload, "B", index=1 if src_a == UPLOAD else 0,
                                          key=f"{key}_col_b")
    width, m = _binning_control(sources, upload, key)

    lo_hi = None
    if upload is not None and upload.kind == "values":
        chosen = [upload.table[c].dropna() for c in (col_a, col_b) if c is not None]
        if any(len(v) == 0 for v in chosen):
            return PairInput(None, None, None, problem="A chosen column of your file has no values.")
        if width is None:
            allv = pd.concat(chosen)
            lo, hi = float(allv.min()), float(allv.max())
            # All values equal: one unit-wide range around them.
            lo_hi = (lo, hi) if hi > lo else (lo - 0.5, hi + 0.5)

    def side(src: str, name: str, col: str | None) -> SideInput:
        if src in datasets.POPULATIONS:
            hist = datasets.age_histogram(src, width)
            return SideInput(datasets.POPULATIONS[src], datasets.proportions(hist.to_numpy()), False)
        if src in datasets.SHAPES:
            return SideInput(datasets.SHAPES[src], datasets.shape_probabilities(src, m), False)
        if upload.kind == "counts":
            counts = datasets.counts_from_column(upload.table[col], name=name)
            if len(counts) != m:
                raise datasets.UploadError(
                    f"Histogram {name} (column \"{col}\") has {len(counts)} bins but the age "
                    f"groups chosen have {m}. Pick the age grouping with {len(counts)} bins, "
                    "if there is one, or upload counts for 86, 18 or 9 age groups."
                )
        else:
            values = upload.table[col].dropna().to_numpy()
            if width is not None and np.any(values < 0):
                raise datasets.UploadError(
                    f"Column \"{col}\" has a negative value ({values.min():g}); ages must be 0 "
                    "or more."
                )
            if width is not None:
                counts = datasets.bin_values(values, width=width).astype(float)
            else:
                counts = datasets.bin_values(values, m=m, lo=lo_hi[0], hi=lo_hi[1]).astype(float)
        return SideInput(f"your column \"{col}\"", counts, True)

    try:
        a = side(src_a, "A", col_a)
        b = side(src_b, "B", col_b)
    except ValueError as exc:  # UploadError and dpcore argument errors
        return PairInput(None, None, None, problem=f"These histograms cannot be compared: {exc}")
    private = False
    if upload is not None:
        use = st.radio(
            "Use the uploaded histogram(s)", ["as_is", "sample"], horizontal=True,
            key=f"{key}_use",
            format_func={"as_is": "as they are", "sample": "as proportions: draw N people"}.get,
            help="As they are: your counts are the true histogram C. As proportions: draw "
            "Multinomial(N, counts / total) with the N chosen below.",
        )
        if use == "sample":
            a = SideInput(a.name, datasets.proportions(a.values), False) if a.fixed else a
            b = SideInput(b.name, datasets.proportions(b.values), False) if b.fixed else b
        elif src_a == UPLOAD and src_b == UPLOAD and upload.kind == "counts":
            private = st.checkbox(
                "These counts are already differentially private (test them as they are)",
                key=f"{key}_private",
                help="For two published private histograms X₁, X₂: no noise is added; give "
                "the privacy levels α₁, α₂ they were released with.",
            )
    return PairInput(_labels(width, m, upload, sources, lo_hi), a, b, private)


# ---------------------------------------------------------------------------
# A log-scale slider with an exact number input beside it
# ---------------------------------------------------------------------------


def nearest_on_grid(value, grid):
    """The grid value nearest to ``value`` in log scale (the first one for value ≤ 0)."""
    if value is None or not value > 0:  # also NaN
        return grid[0]
    if value >= grid[-1]:
        return grid[-1]
    distance = np.abs(np.log(np.asarray(grid, dtype=float)) - np.log(float(value)))
    return grid[int(np.argmin(distance))]


def synced_log_input(label: str, grid, *, key: str, default: float, min_value: float,
                     max_value: float, help: str, disabled: bool = False, value=None,
                     number_label: str | None = None, format: str = "%.6g",
                     step: float | None = None, format_func=fmt_number) -> float:
    """A log-scale select slider and an exact number input, side by side, kept in sync.

    The number input (key ``key``) is the source of truth: it holds the exact
    value, which this returns. The select slider (key ``f"{key}_slider"``, not
    bound to the URL) shows the grid value nearest to it in log scale and is a
    quick way to set it: moving it copies its grid value into the number input.
    Code may set ``st.session_state[key]`` alone (before this is called, e.g. in
    a callback): the slider follows on the next call.

    ``value``: a value computed elsewhere to show (e.g. solved for, with
    ``disabled``). It is written into the number input's state before the
    widget is created when it lies within [min_value, max_value], and is
    returned as it is. Outside those bounds the number input keeps its last
    value, a caption says so, and the slider goes to the end of its grid.

    URL and state: an enabled number input is bound to the URL
    (``bind="query-params"``); a disabled one shows a computed value, not a
    setting, and stays out of the URL (a value in the URL would override the
    computed one on a page's first run). The page's default comes from
    ``st.session_state.setdefault`` and the number input is created with
    ``value=None``: no default value, so no "default value and Session State"
    warning, and every value, 0 included, round-trips through the URL. An
    empty box (the user cleared it, or a browser history entry without this
    parameter) is refilled with the last value.
    """
    slider_key, last_key = f"{key}_slider", f"{key}_last"
    bound_key, rerun_key = f"{key}_bound", f"{key}_rerun"
    default = float(default)
    st.session_state.setdefault(key, default)
    if st.session_state.get(key) is None:
        st.session_state[key] = st.session_state.get(last_key, default)
    forced = None if value is None else float(value)
    fits = forced is not None and min_value <= forced <= max_value
    if fits and st.session_state.get(key) != forced:
        st.session_state[key] = forced
    bind = not disabled
    if bind and st.session_state.get(bound_key) is False:
        # Bound again (it was computed until now): a write puts its value in the URL.
        st.session_state[key] = st.session_state[key]
    st.session_state[bound_key] = bind

    def _from_slider():
        st.session_state[key] = float(st.session_state[slider_key])

    def _from_number():
        typed = st.session_state.get(key)
        if typed is None:  # the box was cleared: put the last value back
            st.session_state[key] = st.session_state.get(last_key, default)
        else:
            st.session_state[slider_key] = nearest_on_grid(typed, grid)

    lo, hi = fmt_number(grid[0]), fmt_number(grid[-1])
    c_slider, c_number = st.columns([3, 1], vertical_alignment="bottom")
    # The number input is created first (it is drawn to the right): the slider then
    # follows the value it resolved, including one read from the URL.
    with c_number:
        number = st.number_input(
            number_label or f"Exact {label}", min_value=float(min_value),
            max_value=float(max_value), value=None, step=step, format=format, key=key,
            disabled=disabled, on_change=_from_number,
            bind="query-params" if bind else None,
            help=f"{help} Type an exact value from {min_value:g} to {max_value:g}; the "
            "slider shows the nearest step of its scale.",
        )
    number = float(_refilled(number, last_key, rerun_key, default))
    shown = forced if forced is not None else float(number)
    snapped = nearest_on_grid(shown, grid)
    if st.session_state.get(slider_key) != snapped:
        st.session_state[slider_key] = snapped
    with c_slider:
        st.select_slider(
            label, options=grid, format_func=format_func, key=slider_key, disabled=disabled,
            on_change=_from_slider,
            help=f"{help} Log scale, {lo} to {hi}; the box beside it takes any exact value.",
        )
    if forced is not None and not fits:
        st.caption(f"The value found, {forced:.6g}, lies outside this box's range "
                   f"({min_value:g} to {max_value:g}); it is shown in the results only.")
    return shown


# ---------------------------------------------------------------------------
# The page kit: title, shareable link, exports, one-click report, URL check
# ---------------------------------------------------------------------------
#
# A page calls page_header(title) first and page_footer() last; in between,
# chart() and table() draw figures and tables with their exports and collect
# them for the page's report, and finding() / settings() give the report its
# plain-language verdict and its parameters.

_KIT = "_page_kit"
REPORT_TABLE_ROWS = 200  # rows of a table kept in a report


@dataclass
class PageKit:
    title: str
    url_in: dict[str, list[str]]  # the link's values of controls that take them on this run
    notice: object  # st container for the note on invalid URL values
    report_slot: object  # st.empty inside the report popover
    link_slot: object  # st.empty inside the share popover
    findings: list[str] = field(default_factory=list)
    parameters: dict[str, str] = field(default_factory=dict)
    figures: list[tuple[str, object]] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    source: str = ""  # the link to this view, set by page_footer


def _kit() -> PageKit | None:
    return st.session_state.get(_KIT)


def _query_pairs() -> list[tuple[str, str]]:
    return [(k, v) for k in st.query_params for v in st.query_params.get_all(k)]


def view_link() -> str:
    """The address of this view: the page and every setting in the URL, seed included."""
    base = (st.context.url or "").split("?")[0]
    query = urlencode(_query_pairs())
    return f"{base}?{query}" if query else base


GREEK_NAMES = dict(zip(
    "αβγδεζηθικλμνξοπρςστυφχψω",
    ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
     "sigma sigma tau upsilon phi chi psi omega").split()))


def _slug(text: str) -> str:
    """A file name for ``text``: lower-case ASCII words joined by "_".

    Greek letters become their names ("Power against α" -> "power_against_alpha",
    "χ²" -> "chi2", "α₁" -> "alpha1"); accents, superscripts and subscripts fall back to
    their base characters (Unicode compatibility decomposition, NFKD); other symbols
    separate words.
    """
    # NFKD: "²" -> "2", "₁" -> "1", "é" -> "e" + accent, "µ" (micro) -> "μ", "ϵ" -> "ε".
    chars = [c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)]
    out: list[str] = []
    for i, char in enumerate(chars):
        name = GREEK_NAMES.get(char.lower())
        if name is None:
            out.append(char)
            continue
        before = out[-1] if out else ""
        after = chars[i + 1] if i + 1 < len(chars) else ""
        # A name is a word of its own, except that digits may follow it (α₁ -> alpha1).
        out.append(("_" if before.isascii() and before.isalnum() else "") + name
                   + ("_" if after.isalpha() else ""))
    ascii_text = "".join(out).lower()
    return re.sub(r"[^a-z0-9]+", "_", ascii_text).strip("_") or "export"


def page_header(title: str) -> None:
    """The page title with its "Share this view" and "Report" buttons; starts the kit."""
    st.session_state[_KIT] = None
    # The link's values that controls take on this run: those of controls that do not
    # hold a value yet. A control that does (from an earlier run) keeps it, and the URL
    # follows the control; a page may also set it (the seed's "New draw").
    url_in = {k: st.query_params.get_all(k) for k in st.query_params
              if k not in st.session_state}
    # One row that wraps: in a narrow window the two buttons move below the title rather
    # than shrink until their labels are cut.
    header = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    header.title(title, width="stretch")
    with header.popover("Share", icon=":material/link:", width="content",
                        help="A link to exactly this view: every setting, the seed included."):
        st.markdown("**Link to this view**")
        link_slot = st.empty()
        st.caption("Copy it with the button at the right of the box. Opening it shows this page "
                   "with the same settings and the same random draws.")
    with header.popover("Report", icon=":material/description:", width="content",
                        help="A one-page HTML report of this view, to send to someone without "
                        "the app."):
        report_slot = st.empty()
        report_slot.caption("The report is ready once the page has its results.")
    st.session_state[_KIT] = PageKit(title=title, url_in=url_in, notice=st.container(),
                                     report_slot=report_slot, link_slot=link_slot)


def chart(fig, *, key: str, name: str, **kwargs) -> None:
    """A Plotly chart with its data (CSV) and itself (standalone HTML) to download."""
    st.plotly_chart(fig, key=key, **kwargs)
    slug = _slug(name)
    with st.container(horizontal=True, gap="small"):
        st.download_button("Data (CSV)", lambda f=fig: dpviz.export.figure_data(f).to_csv(
            index=False), file_name=f"{slug}.csv", mime="text/csv", on_click="ignore",
            icon=":material/table:", key=f"{key}_csv", type="tertiary",
            help="The numbers plotted, one row per point.")
        st.download_button("Chart (HTML)", lambda f=fig: dpviz.export.figure_html(f, name),
                           file_name=f"{slug}.html", mime="text/html", on_click="ignore",
                           icon=":material/download:", key=f"{key}_html", type="tertiary",
                           help="This chart as an interactive page that opens without the app.")
    kit = _kit()
    if kit is not None:
        kit.figures.append((name, fig))


def table(frame: pd.DataFrame, *, key: str, name: str, csv: pd.DataFrame | None = None,
          **kwargs) -> None:
    """A table with a CSV download (``csv``: the frame to export, if not ``frame``)."""
    st.dataframe(frame, key=key, **kwargs)
    data = frame if csv is None else csv
    if isinstance(data, Styler):
        data = data.data
    st.download_button("Table (CSV)", lambda d=data: d.to_csv(index=False),
                       file_name=f"{_slug(name)}.csv", mime="text/csv", on_click="ignore",
                       icon=":material/table:", key=f"{key}_csv", type="tertiary",
                       help="This table as a CSV file.")
    kit = _kit()
    if kit is not None:
        kit.tables.append((name, data.head(REPORT_TABLE_ROWS)))


def finding(text: str) -> None:
    """Give the page's report a plain-language verdict (shown first in the report)."""
    kit = _kit()
    if kit is not None:
        kit.findings.append(text)


def settings(values: dict) -> None:
    """Give the page's report the settings behind its results (label -> value)."""
    kit = _kit()
    if kit is not None:
        kit.parameters.update({str(k): str(v) for k, v in values.items()})


def report_note(text: str) -> None:
    """A method note or caveat for the page's report."""
    kit = _kit()
    if kit is not None:
        kit.notes.append(text)


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


def _same(url_values: list[str], value) -> bool:
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


def _url_form(key: str) -> list | None:
    """The URL form of the value of the widget ``key`` bound to the URL; None if there is none.

    Streamlit writes a bound widget's value to the URL through the widget's serializer:
    the label an option is shown with (selectbox, radio, multiselect, select slider:
    their ``format_func``), a list of numbers (slider), a number (number input), true or
    false (checkbox, toggle), the text (text input). The serializer is reached through
    Streamlit's session state internals; where they differ from Streamlit 1.67's, there
    is no URL form and the value itself is compared.
    """
    try:
        from streamlit.runtime.state.session_state_proxy import get_session_state

        state = get_session_state()._state
        metadata = state.get_widget_metadata(state.get_widget_id_from_key(key))
        if metadata is None or metadata.bind != "query-params":
            return None
        form = metadata.serializer(st.session_state[key])
    except Exception:  # other internals (another Streamlit version): no URL form
        return None
    return list(form) if isinstance(form, (list, tuple)) else [form]


def invalid_url_settings(url_in: dict[str, list[str]]) -> list[str]:
    """Keys of the link whose values the page could not use, or used only in part.

    ``url_in``: the link's values for controls that take their value from it on this
    run (see page_header). On that first run Streamlit keeps a usable value in the URL
    as it is; it drops a value it cannot use (not a number, out of range, not one of
    the options) and one equal to the widget's default; and it rewrites a value it
    used in part (a multiselect's values that are not options are left out, an end of
    a range that is not an option goes back to its default). So a key whose value is
    gone from the URL or rewritten is named unless its value, read loosely, describes
    the widget's value now: the value itself, or the URL form Streamlit writes for it
    (an option's label, e.g. ``5-year groups (18 bins)`` for the option 5).
    """
    bad = []
    for key, values in url_in.items():
        if key not in st.session_state or st.query_params.get_all(key) == values:
            continue
        value = st.session_state[key]
        form = _url_form(key)
        if not (_same(values, value) or (form is not None and _same(values, form))):
            bad.append(key)
    return bad


REPORT_HELP = "Findings, settings, every chart and table of this view."


def _report_builder(kit: PageKit, source: str):
    """Makes the page's report when called: from ``kit`` as it is then (the page adds to it
    until page_footer), with the link page_footer gives the view, or else ``source``.
    It runs when the download is pressed, outside the script run: no Streamlit calls."""

    def build() -> str:
        return dpviz.report.html_report(
            kit.title, findings=list(kit.findings), parameters=dict(kit.parameters),
            figures=list(kit.figures), tables=list(kit.tables), notes=list(kit.notes),
            source=kit.source or source)

    return build


def report_button(*, key: str, help: str = REPORT_HELP) -> None:
    """The page's one-page HTML report to download: the file of the header's Report button.

    For a page that offers its report in its own place too (e.g. a Report tab). The
    report is made when the button is pressed, from everything the page gives its
    report in this run (before and after this call) and the link to this view.
    """
    kit = _kit()
    if kit is None:
        return
    st.download_button("Download the report (HTML)", _report_builder(kit, view_link()),
                       file_name=f"{_slug(kit.title)}_report.html", mime="text/html",
                       on_click="ignore", icon=":material/download:", type="primary",
                       key=key, help=help)


def page_footer() -> None:
    """Ends the page: the link to this view, its report, and the note on unusable link values."""
    kit = _kit()
    if kit is None:
        return
    kit.source = view_link()
    kit.link_slot.code(kit.source or "(the address appears when the page is opened in a "
                       "browser)", language=None, wrap_lines=True)
    bad = invalid_url_settings(kit.url_in)
    if bad:
        kit.notice.warning(
            "Some settings in the link could not be used and were reset to their defaults: "
            + ", ".join(bad) + ". Everything else is as the link says.",
            icon=":material/link_off:")
    with kit.report_slot.container():
        report_button(key="page_report_download")
        st.caption(f"{len(kit.findings)} finding(s), {len(kit.figures)} chart(s), "
                   f"{len(kit.tables)} table(s).")
