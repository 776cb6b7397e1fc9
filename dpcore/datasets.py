"""Population tables, the paper's bin shapes and binning (uploads: dpcore.uploads).

The shipped table ``dpcore/data/population_age_2020.csv`` holds the 2020
population by single year of age (0..84 and 85+) of the USA and of Korea, the
latter also split into the central and noncentral regions; see
``dpcore/data/README.md`` for its provenance.

The shapes of `shape_probabilities` are the multinomial parameters p0 of
Son, Park & Jung (2022), section 2.3.
"""

from __future__ import annotations

import functools
import importlib.resources

import numpy as np
import pandas as pd
from scipy import stats

from dpcore.validation import (
    finite_scalar,
    integer_in_range,
    one_of,
    probabilities,
    real_vector,
)

__all__ = [
    "AGE_WIDTHS",
    "POPULATIONS",
    "SHAPES",
    "age_bin_index",
    "age_bin_labels",
    "age_groups",
    "age_histogram",
    "regroup_ages",
    "bin_values",
    "draw_histogram",
    "load_population",
    "proportions",
    "shape_counts",
    "shape_probabilities",
]

POPULATIONS = {
    "usa": "USA",
    "korea": "Korea",
    "korea_central": "Korea central (Seoul, Incheon, Gyeonggi)",
    "korea_noncentral": "Korea noncentral (other 14 regions)",
}

SHAPES = {"uniform": "Uniform", "increasing": "Increasing", "normal": "Normal"}

AGE_WIDTHS = (1, 5, 10)

_DATA_FILE = "population_age_2020.csv"
_TOP_AGE = 85          # last row of the table: 85 and over
_MAX_M = 100_000
_MAX_N = 10**12
_EN_DASH = "\u2013"


# ---------------------------------------------------------------------------
# argument checks bound to the age tables (the others: dpcore.validation)
# ---------------------------------------------------------------------------

def _width_iv(width) -> int:
    if isinstance(width, (bool, np.bool_)) or width not in AGE_WIDTHS:
        raise ValueError(f"`width` must be 1, 5 or 10, got {width!r}.")
    return int(width)


def _last_bin(width: int) -> int:
    """Index of the open-ended top bin: it starts at 85 (widths 1, 5) or 80 (width 10)."""
    start = _TOP_AGE if width in (1, 5) else 80
    return start // width


# ---------------------------------------------------------------------------
# population table and age bins
# ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _population_table() -> pd.DataFrame:
    source = importlib.resources.files("dpcore").joinpath("data", _DATA_FILE)
    with source.open("rb") as fh:
        table = pd.read_csv(fh, index_col="age")
    table = table[list(POPULATIONS)].astype(np.int64)
    expected = np.arange(_TOP_AGE + 1)
    if not np.array_equal(table.index.to_numpy(), expected):
        raise RuntimeError(f"{_DATA_FILE}: ages must be 0..{_TOP_AGE} in order.")
    return table


def load_population() -> pd.DataFrame:
    """The 2020 population by single year of age.

    Returns
    -------
    pandas.DataFrame
        86 rows indexed by ``age`` 0..85 (85 means 85 and over), one int64
        column of persons per key of `POPULATIONS`. A fresh copy on each call.
    """
    return _population_table().copy()


def age_bin_labels(width: int) -> list[str]:
    """Labels of the age bins of a given width.

    Parameters
    ----------
    width : {1, 5, 10}
        Bin width in years. The top bin is open-ended: "85+" for widths 1 and
        5, "80+" for width 10.

    Returns
    -------
    list of str
        86, 18 or 9 labels, e.g. ``"0–4", ..., "80–84", "85+"`` for width 5.
    """
    width = _width_iv(width)
    last = _last_bin(width)
    if width == 1:
        labels = [str(a) for a in range(last)]
    else:
        labels = [f"{k * width}{_EN_DASH}{k * width + width - 1}" for k in range(last)]
    return labels + [f"{last * width}+"]


def age_bin_index(ages, width: int) -> np.ndarray:
    """Bin index of each age, ``min(floor(age / width), last)``.

    Parameters
    ----------
    ages : array_like
        Non-negative finite ages; fractional ages are floored.
    width : {1, 5, 10}
        Bin width; the last bin holds every age from 85 (widths 1, 5) or 80
        (width 10) upwards.

    Returns
    -------
    numpy.ndarray
        int64 indices into ``age_bin_labels(width)``, same shape as `ages`.
    """
    width = _width_iv(width)
    try:
        arr = np.asarray(ages, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("`ages` must be numbers.") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError("`ages` must be finite (no NaN or infinity).")
    if np.any(arr < 0):
        raise ValueError("`ages` must be non-negative.")
    return np.minimum(np.floor(arr / width), _last_bin(width)).astype(np.int64)


def regroup_ages(counts_by_age, width: int) -> np.ndarray:
    """Single-year counts (ages 0, 1, …, 85+) summed into the bins of ``width`` years.

    Returns float counts aligned with ``age_bin_labels(width)``.
    """
    counts = np.asarray(counts_by_age, dtype=float)
    if counts.ndim != 1 or counts.size != _TOP_AGE + 1:
        raise ValueError(f"`counts_by_age` must hold {_TOP_AGE + 1} counts, one per age "
                         f"0 to {_TOP_AGE}+, got shape {counts.shape}.")
    index = age_bin_index(np.arange(counts.size), width)
    return np.bincount(index, weights=counts, minlength=_last_bin(_width_iv(width)) + 1)


def age_histogram(population: str, width: int = 1) -> pd.Series:
    """Population counts summed into age bins.

    Parameters
    ----------
    population : str
        A key of `POPULATIONS`.
    width : {1, 5, 10}, optional
        Bin width in years (default 1).

    Returns
    -------
    pandas.Series
        int64 counts indexed by ``age_bin_labels(width)``, named `population`.
        The total equals the population's total.
    """
    one_of(population, "population", POPULATIONS)
    width = _width_iv(width)
    column = _population_table()[population]
    counts = np.zeros(_last_bin(width) + 1, dtype=np.int64)
    np.add.at(counts, age_bin_index(column.index.to_numpy(), width), column.to_numpy())
    return pd.Series(counts, index=age_bin_labels(width), name=population, dtype=np.int64)


def age_groups(population: str, k: int) -> pd.Series:
    """Population counts in k age groups of (nearly) equal width, for 2 ≤ k ≤ 86.

    The single years 0 … 84 and the open group 85+ are cut at
    round(86 j / k), j = 1 … k − 1; the last group is open-ended ("… +").
    """
    k = integer_in_range(k, "k", minimum=2, maximum=_TOP_AGE + 1)
    single = age_histogram(population, 1).to_numpy()
    cuts = np.round(np.linspace(0, _TOP_AGE + 1, k + 1)).astype(int)
    counts = np.add.reduceat(single, cuts[:-1])
    labels = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        if hi == _TOP_AGE + 1:
            labels.append(f"{lo}+")
        elif hi - lo == 1:
            labels.append(str(lo))
        else:
            labels.append(f"{lo}{_EN_DASH}{hi - 1}")
    return pd.Series(counts, index=labels, name=population, dtype=np.int64)


# ---------------------------------------------------------------------------
# shapes, binning and sampling
# ---------------------------------------------------------------------------

def shape_probabilities(shape: str, m: int) -> np.ndarray:
    """Multinomial parameter p0 of one of the paper's three shapes.

    With bins j = 1..M (Son, Park & Jung 2022, section 2.3):

    - ``"uniform"``:    p_j = 1/M
    - ``"increasing"``: p_j = j / sum_{i=1}^M i
    - ``"normal"``:     p_j proportional to phi(-3 + 6 (j-1)/(M-1)), phi the
      N(0, 1) density, i.e. the density at M equally spaced points on [-3, 3].

    Parameters
    ----------
    shape : {"uniform", "increasing", "normal"}
        A key of `SHAPES`.
    m : int
        Number of bins M, 2 <= M <= 100,000.

    Returns
    -------
    numpy.ndarray
        Float array of length M summing to 1.
    """
    one_of(shape, "shape", SHAPES)
    m = integer_in_range(m, "m", minimum=2, maximum=_MAX_M)
    j = np.arange(1, m + 1, dtype=np.float64)
    if shape == "uniform":
        return np.full(m, 1.0 / m)
    if shape == "increasing":
        return j / (m * (m + 1) / 2)
    weights = stats.norm.pdf(-3.0 + 6.0 * (j - 1) / (m - 1))
    return weights / weights.sum()


def shape_counts(shape: str, m: int, n: int) -> np.ndarray:
    """n records spread over M bins as closely as whole numbers allow to a shape.

    The counts n·p_j of ``shape_probabilities(shape, m)`` rounded down, the
    remaining records given one each to the bins with the largest remainders
    (ties to the lower bin), so the counts sum to n and differ from n·p_j by
    less than 1. Uniform data with M dividing n is exactly n/M per bin.
    """
    p = shape_probabilities(shape, m)
    n = integer_in_range(n, "n", minimum=0, maximum=_MAX_N)
    exact = n * p
    counts = np.floor(exact).astype(np.int64)
    short = n - int(counts.sum())
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[:short]] += 1
    return counts


def _bin_values_iv(values, width, m, lo, hi):
    arr = real_vector(values, "values")
    if arr.size == 0:
        raise ValueError("`values` must not be empty.")
    if not np.all(np.isfinite(arr)):
        raise ValueError("`values` must be finite (drop NaN before binning).")
    if (width is None) == (m is None):
        raise ValueError("Give exactly one of `width` (age bins) or `m` (equal-width bins).")
    if width is not None:
        if lo is not None or hi is not None:
            raise ValueError("`lo` and `hi` apply only with `m`, not with `width`.")
        return arr, _width_iv(width), None, None, None
    m = integer_in_range(m, "m", minimum=2, maximum=_MAX_M)
    bounds = []
    for name, given, default in (("lo", lo, arr.min()), ("hi", hi, arr.max())):
        if given is None:
            bounds.append(float(default))
            continue
        bounds.append(finite_scalar(given, name))
    lo, hi = bounds
    if not lo < hi:
        raise ValueError(f"`lo` must be less than `hi`, got lo={lo:g}, hi={hi:g} "
                         "(give both when all values are equal).")
    return arr, None, m, lo, hi


def bin_values(values, *, width=None, m=None, lo=None, hi=None) -> np.ndarray:
    """Counts of raw values in age bins or in `m` equal-width bins.

    Parameters
    ----------
    values : array_like
        1-D, non-empty, finite. Drop missing values (NaN) before calling, e.g.
        ``column.dropna()`` on a column of `read_csv_upload`.
    width : {1, 5, 10}, optional
        Age bins as in `age_bin_index`; values must then be non-negative.
    m : int, optional
        Number of equal-width bins over [lo, hi], 2 <= m <= 100,000.
    lo, hi : float, optional
        Range of the `m` bins; default the minimum and maximum of `values`.
        The top edge is inclusive; values outside [lo, hi] are not counted.

    Returns
    -------
    numpy.ndarray
        int64 counts, of length 86, 18 or 9 (`width`) or `m`.

    Notes
    -----
    Exactly one of `width` and `m` must be given. The edges of the `m` bins
    are ``np.linspace(lo, hi, m + 1)``, as in ``np.histogram``.
    """
    arr, width, m, lo, hi = _bin_values_iv(values, width, m, lo, hi)
    if width is not None:
        index = age_bin_index(arr, width)
        return np.bincount(index, minlength=_last_bin(width) + 1).astype(np.int64)
    counts, _ = np.histogram(arr, bins=m, range=(lo, hi))
    return counts.astype(np.int64)


def draw_histogram(p, n: int, *, rng=None) -> np.ndarray:
    """One histogram drawn from Multinomial(n, p).

    Parameters
    ----------
    p : array_like
        Bin probabilities: 1-D, at least 2 entries, non-negative, summing to 1
        within 1e-8 (renormalised exactly before sampling).
    n : int
        Total count, 0 <= n <= 10**12.
    rng : None, int or numpy.random.Generator, optional
        Source of randomness, normalised with ``np.random.default_rng``.

    Returns
    -------
    numpy.ndarray
        int64 counts summing to `n`.
    """
    p = probabilities(p, "p")
    n = integer_in_range(n, "n", minimum=0, maximum=_MAX_N)
    rng = np.random.default_rng(rng)
    return rng.multinomial(n, p).astype(np.int64)


def proportions(counts) -> np.ndarray:
    """Counts divided by their total.

    Parameters
    ----------
    counts : array_like
        1-D, finite, non-negative, with a positive total.

    Returns
    -------
    numpy.ndarray
        Float array summing to 1.
    """
    arr = real_vector(counts, "counts")
    if not np.all(np.isfinite(arr)):
        raise ValueError("`counts` must be finite (no NaN or infinity).")
    if np.any(arr < 0):
        raise ValueError("`counts` must be non-negative.")
    total = arr.sum()
    if not total > 0:
        raise ValueError("`counts` must have a positive total.")
    return arr / total
