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

from dpcore.errors import ArgumentError
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
        raise ArgumentError("`{name}` must be 1, 5 or 10, got {value!r}.", name="width",
                            value=width)
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

    Source: the data shipped with this project (``dpcore/data/README.md``: U.S.
    Census Bureau 2020 Demographic Analysis, Middle series; Korean resident
    registration, end of 2020), the populations of [SPJ22] section 4.2 (Figure 7,
    Table 1). The USA total matches Table 1 exactly; the Korean total is about
    0.9% above it, its regions 0.5% to 1.4% (see the README).

    Returns
    -------
    pandas.DataFrame
        86 rows indexed by ``age`` 0..85 (85 means 85 and over), one int64
        column of persons per key of `POPULATIONS`. A fresh copy on each call.

    Raises
    ------
    RuntimeError
        If the shipped table's ages are not 0..85 in order (a damaged file).

    Examples
    --------
    >>> table = load_population()
    >>> table.shape
    (86, 4)
    >>> list(table.columns)
    ['usa', 'korea', 'korea_central', 'korea_noncentral']
    >>> int(table["usa"].sum())  # [SPJ22] Table 1: 332,599,000
    332599000
    """
    return _population_table().copy()


def age_bin_labels(width: int) -> list[str]:
    """Labels of the age bins of a given width.

    Source: [SPJ22] section 4.2, whose numbers of bins M = 86, 18 and 9 are the
    1-, 5- and 10-year age groups of Figure 7's single years 0..84 and 85+ (the
    9 ten-year groups end with 80+).

    Parameters
    ----------
    width : {1, 5, 10}
        Bin width in years. The top bin is open-ended: "85+" for widths 1 and
        5, "80+" for width 10.

    Returns
    -------
    list of str
        86, 18 or 9 labels, e.g. ``"0–4", ..., "80–84", "85+"`` for width 5.

    Raises
    ------
    ValueError
        If `width` is not 1, 5 or 10.

    Examples
    --------
    >>> age_bin_labels(10)
    ['0–9', '10–19', '20–29', '30–39', '40–49', '50–59', '60–69', '70–79', '80+']
    >>> len(age_bin_labels(1)), len(age_bin_labels(5))
    (86, 18)
    >>> age_bin_labels(2)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `width` must be 1, 5 or 10, got 2.
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

    Source: the age bins of [SPJ22] section 4.2 (see :func:`age_bin_labels`);
    the indexing itself is this project's.

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

    Raises
    ------
    ValueError
        If `width` is not 1, 5 or 10, or `ages` is not numeric, not finite or
        has a negative entry (the messages name `ages`).

    Examples
    --------
    >>> age_bin_index([0, 4.9, 5, 37, 90], 5)
    array([ 0,  0,  1,  7, 17])
    >>> age_bin_index([-1], 5)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `ages` must be non-negative.
    """
    width = _width_iv(width)
    try:
        arr = np.asarray(ages, dtype=np.float64)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be numbers.", name="ages") from None
    if not np.all(np.isfinite(arr)):
        raise ArgumentError("`{name}` must be finite (no NaN or infinity).", name="ages")
    if np.any(arr < 0):
        raise ArgumentError("`{name}` must be non-negative.", name="ages")
    return np.minimum(np.floor(arr / width), _last_bin(width)).astype(np.int64)


def regroup_ages(counts_by_age, width: int) -> np.ndarray:
    """Single-year counts (ages 0, 1, …, 85+) summed into the bins of ``width`` years.

    Returns float counts aligned with ``age_bin_labels(width)``.

    Source: the age bins of [SPJ22] section 4.2 (see :func:`age_bin_labels`).

    Parameters
    ----------
    counts_by_age : array_like
        86 counts, one per age 0..84 and a last one for 85 and over. Only the
        shape is checked (not the sign or finiteness of the counts).
    width : {1, 5, 10}
        Bin width in years.

    Returns
    -------
    numpy.ndarray
        Float array of 86, 18 or 9 sums, aligned with ``age_bin_labels(width)``.

    Raises
    ------
    ValueError
        If `counts_by_age` does not hold 86 counts in one dimension, or `width`
        is not 1, 5 or 10.

    Examples
    --------
    >>> import numpy as np
    >>> regroup_ages(np.ones(86), 10)  # the top bin 80+ holds ages 80..84 and 85+
    array([10., 10., 10., 10., 10., 10., 10., 10.,  6.])
    >>> regroup_ages(np.ones(18), 5)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `counts_by_age` must hold 86 counts, one per age 0 to 85+, got
    shape (18,).
    """
    counts = np.asarray(counts_by_age, dtype=float)
    if counts.ndim != 1 or counts.size != _TOP_AGE + 1:
        raise ArgumentError("`{name}` must hold {size} counts, one per age 0 to {top}+, got shape "
                            "{shape}.", name="counts_by_age", size=_TOP_AGE + 1, top=_TOP_AGE,
                            shape=counts.shape)
    index = age_bin_index(np.arange(counts.size), width)
    return np.bincount(index, weights=counts, minlength=_last_bin(_width_iv(width)) + 1)


def age_histogram(population: str, width: int = 1) -> pd.Series:
    """Population counts summed into age bins.

    Source: the populations and bins of [SPJ22] section 4.2 (Figure 7, Table 1;
    see :func:`load_population` for the data).

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

    Raises
    ------
    ValueError
        If `population` is not a key of `POPULATIONS` or `width` is not 1, 5
        or 10.

    Examples
    --------
    >>> h = age_histogram("korea", 10)
    >>> h.head(3)
    0–9      3970070
    10–19    4793336
    20–29    6806153
    Name: korea, dtype: int64
    >>> len(h), int(h.sum()) == int(load_population()["korea"].sum())
    (9, True)
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
    The cuts are rounded with ``np.round`` (halves to even).

    Source: beyond the source: a grouping of this project (the paper uses only
    k = 86, 18 and 9, the 1-, 5- and 10-year groups of :func:`age_histogram`).

    Parameters
    ----------
    population : str
        A key of `POPULATIONS`.
    k : int
        Number of groups, 2 <= k <= 86 (an integer-valued float passes).

    Returns
    -------
    pandas.Series
        k int64 counts named `population`, indexed by labels such as "0–21",
        a single age such as "7", and the open "64+"; they sum to the
        population's total.

    Raises
    ------
    ValueError
        If `k` is not an integer from 2 to 86, or `population` is not a key of
        `POPULATIONS`.

    Examples
    --------
    >>> age_groups("korea", 4)
    0–21     10020266
    22–42    14808724
    43–63    17822456
    64+       9177577
    Name: korea, dtype: int64
    >>> age_groups("korea", 1)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `k` must be an integer from 2 to 86, got 1.
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

    Source: [SPJ22] section 2.3 (the three p0 of Figures 2-3). The normal shape
    is also the normal data of the random substitution page, which [KLH09] does
    not specify.

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

    Raises
    ------
    ValueError
        If `shape` is not a key of `SHAPES` or `m` is not an integer from 2 to
        100,000.

    Examples
    --------
    >>> shape_probabilities("increasing", 4)
    array([0.1, 0.2, 0.3, 0.4])
    >>> import numpy as np
    >>> np.round(shape_probabilities("normal", 5), 4)
    array([0.0066, 0.1942, 0.5983, 0.1942, 0.0066])
    >>> shape_probabilities("uniform", 1)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `m` must be an integer from 2 to 100,000, got 1.
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

    Source: the shapes of [SPJ22] section 2.3; the rounding (largest
    remainders) is this project's.

    Parameters
    ----------
    shape : {"uniform", "increasing", "normal"}
        A key of `SHAPES`.
    m : int
        Number of bins M, 2 <= M <= 100,000.
    n : int
        Number of records, 0 <= n <= 10**12.

    Returns
    -------
    numpy.ndarray
        int64 counts of length M summing to `n`.

    Raises
    ------
    ValueError
        If `shape`, `m` or `n` is refused (as in :func:`shape_probabilities`;
        `n` must be an integer from 0 to 10**12).

    Examples
    --------
    >>> shape_counts("increasing", 4, 11)  # n p = 1.1, 2.2, 3.3, 4.4
    array([1, 2, 3, 5])
    >>> shape_counts("uniform", 3, 10)
    array([4, 3, 3])
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
        raise ArgumentError("`{name}` must not be empty.", name="values")
    if not np.all(np.isfinite(arr)):
        raise ArgumentError("`{name}` must be finite (drop NaN before binning).", name="values")
    if (width is None) == (m is None):
        raise ArgumentError("Give exactly one of `{name_a}` (age bins) or `{name_b}` (equal-width "
                            "bins).", name_a="width", name_b="m")
    if width is not None:
        if lo is not None or hi is not None:
            raise ArgumentError("`{name_a}` and `{name_b}` apply only with `{name_c}`, not with "
                                "`{name_d}`.", name_a="lo", name_b="hi", name_c="m",
                                name_d="width")
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
        raise ArgumentError("`{name_a}` must be less than `{name_b}`, got {name_a}={value_a:g}, "
                            "{name_b}={value_b:g} (give both when all values are equal).",
                            name_a="lo", name_b="hi", value_a=lo, value_b=hi)
    return arr, None, m, lo, hi


def bin_values(values, *, width=None, m=None, lo=None, hi=None) -> np.ndarray:
    """Counts of raw values in age bins or in `m` equal-width bins.

    Source: none (binning of raw data, this project's); the age bins are those
    of [SPJ22] section 4.2 (see :func:`age_bin_labels`).

    Parameters
    ----------
    values : array_like
        1-D, non-empty, finite. Drop missing values (NaN) before calling, e.g.
        ``column.dropna()`` on a column of `read_csv_upload`.
    width : {1, 5, 10}, optional
        Age bins as in `age_bin_index`; values must then be non-negative.
    m : int, optional
        Number of equal-width bins over [lo, hi], 2 <= m <= 100,000.
    lo : float, optional
        Lower end of the range of the `m` bins; default the minimum of `values`.
    hi : float, optional
        Upper end of the range of the `m` bins; default the maximum of `values`.
        The top edge is inclusive; values outside [lo, hi] are not counted.

    Returns
    -------
    numpy.ndarray
        int64 counts, of length 86, 18 or 9 (`width`) or `m`.

    Raises
    ------
    ValueError
        If `values` is not a non-empty 1-D array of finite numbers; if not
        exactly one of `width` and `m` is given; if `lo` or `hi` is given with
        `width`; if `width`, `m`, `lo` or `hi` is refused, or lo >= hi. With
        `width`, a negative value is refused with the message of
        :func:`age_bin_index` (which names `ages`).

    Notes
    -----
    Exactly one of `width` and `m` must be given. The edges of the `m` bins
    are ``np.linspace(lo, hi, m + 1)``, as in ``np.histogram``.

    Examples
    --------
    >>> bin_values([3, 7, 12, 90], width=10)
    array([2, 1, 0, 0, 0, 0, 0, 0, 1])
    >>> bin_values([0.1, 0.4, 0.5, 1.0], m=2)  # edges 0.1, 0.55, 1.0
    array([3, 1])
    >>> bin_values([1, 2], width=10, m=2)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: Give exactly one of `width` (age bins) or `m` (equal-width bins).
    """
    arr, width, m, lo, hi = _bin_values_iv(values, width, m, lo, hi)
    if width is not None:
        index = age_bin_index(arr, width)
        return np.bincount(index, minlength=_last_bin(width) + 1).astype(np.int64)
    counts, _ = np.histogram(arr, bins=m, range=(lo, hi))
    return counts.astype(np.int64)


def draw_histogram(p, n: int, *, rng=None) -> np.ndarray:
    """One histogram drawn from Multinomial(n, p).

    Source: [SPJ22] eq. (2.1), C ~ Multinomial(N, p), the model of a true
    histogram (Algorithm 2 line 3 draws C_1, C_2 this way).

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

    Raises
    ------
    ValueError
        If `p` is not a probability vector (the messages of
        :func:`dpcore.validation.probabilities`) or `n` is not an integer from
        0 to 10**12.

    Examples
    --------
    >>> draw_histogram([0.2, 0.3, 0.5], 100, rng=1)
    array([20, 37, 43])
    >>> draw_histogram([0.2, 0.3], 100, rng=1)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `p` must sum to 1, got 0.5.
    """
    p = probabilities(p, "p")
    n = integer_in_range(n, "n", minimum=0, maximum=_MAX_N)
    rng = np.random.default_rng(rng)
    return rng.multinomial(n, p).astype(np.int64)


def proportions(counts) -> np.ndarray:
    """Counts divided by their total.

    Source: the proportions p_1, p_2 of populations A and B in [SPJ22]
    Algorithm 2 line 3 (here of any histogram).

    Parameters
    ----------
    counts : array_like
        1-D, finite, non-negative, with a positive total.

    Returns
    -------
    numpy.ndarray
        Float array summing to 1.

    Raises
    ------
    ValueError
        If `counts` is not 1-D numeric, holds NaN, infinity or a negative
        count, or has total 0.

    Examples
    --------
    >>> proportions([1, 3])
    array([0.25, 0.75])
    >>> proportions([0, 0])
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `counts` must have a positive total.
    """
    arr = real_vector(counts, "counts")
    if not np.all(np.isfinite(arr)):
        raise ArgumentError("`{name}` must be finite (no NaN or infinity).", name="counts")
    if np.any(arr < 0):
        raise ArgumentError("`{name}` must be non-negative.", name="counts")
    total = arr.sum()
    if not total > 0:
        raise ArgumentError("`{name}` must have a positive total.", name="counts")
    return arr / total
