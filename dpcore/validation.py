"""Argument validators of the dpcore package, in one place.

Every validator takes the value and the name of the parameter it was passed
as, returns the value normalised (a float, an int or a NumPy array) and raises
:class:`dpcore.errors.ArgumentError` (a ``ValueError``) whose message names the
parameter in backticks and keeps its template and fields (``name`` is the
parameter), so that callers (and the dashboard, in its reader's language) can
show it.

Checks bound to one module's own quantities (the γ > 1 of random
substitution, the k ≥ 2 of k-RR, the age-group widths) stay in their module,
built on these.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from dpcore.errors import ArgumentError

__all__ = [
    "category_count",
    "category_indices",
    "count_array",
    "finite_array",
    "finite_scalar",
    "integer_in_range",
    "nonnegative_scalar",
    "one_of",
    "positive_integer",
    "positive_range",
    "positive_scalar",
    "probabilities",
    "probability",
    "probability_array",
    "probability_pair",
    "real_vector",
    "same_shape",
    "sample_sizes",
    "whole_count_array",
]


# ---------------------------------------------------------------------------
# Scalars
# ---------------------------------------------------------------------------


def positive_scalar(value, name: str) -> float:
    """Return `value` as a float, requiring a finite number > 0.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    value : object
        The argument to check: anything ``float()`` converts (a number, a NumPy
        scalar, a numeric string).
    name : str
        The parameter's name, for the message.

    Returns
    -------
    float
        `value` as a float, finite and > 0.

    Raises
    ------
    ValueError
        If `value` cannot be converted to a float ("`name` must be a positive
        number"), or is not finite or not > 0 ("`name` must be a finite number > 0").

    Examples
    --------
    >>> positive_scalar(2, "alpha")
    2.0
    >>> positive_scalar(0, "alpha")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `alpha` must be a finite number > 0, got 0.
    """
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be a positive number, got {value!r}.", name=name, value=value) from None
    if not np.isfinite(out) or out <= 0:
        raise ArgumentError("`{name}` must be a finite number > 0, got {value!r}.", name=name,
                            value=value)
    return out


def finite_scalar(value, name: str) -> float:
    """Return `value` as a float, requiring a finite real number (``bool`` is not one).

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    value : object
        The argument to check: an instance of ``numbers.Real`` (int, float,
        NumPy integer or float scalar); strings and ``bool`` are refused.
    name : str
        The parameter's name, for the message.

    Returns
    -------
    float
        `value` as a float.

    Raises
    ------
    ValueError
        If `value` is not a real number or is a ``bool`` ("`name` must be a
        number"), or is NaN or infinite ("`name` must be finite").

    Examples
    --------
    >>> finite_scalar(-3, "lo")
    -3.0
    >>> finite_scalar(True, "lo")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `lo` must be a number, got True.
    >>> finite_scalar(float("inf"), "lo")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `lo` must be finite, got inf.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ArgumentError("`{name}` must be a number, got {value!r}.", name=name, value=value)
    if not math.isfinite(value):
        raise ArgumentError("`{name}` must be finite, got {value!r}.", name=name, value=value)
    return float(value)


def nonnegative_scalar(value, name: str) -> float:
    """Return `value` as a float, requiring a finite number >= 0.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    value : object
        The argument to check: anything ``float()`` converts.
    name : str
        The parameter's name, for the message.

    Returns
    -------
    float
        `value` as a float, finite and >= 0.

    Raises
    ------
    ValueError
        If `value` cannot be converted to a float ("`name` must be a number"), or
        is not finite or is negative ("`name` must be a finite number >= 0").

    Examples
    --------
    >>> nonnegative_scalar(0, "distance")
    0.0
    >>> nonnegative_scalar(-0.5, "distance")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `distance` must be a finite number >= 0, got -0.5.
    """
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be a number, got {value!r}.", name=name, value=value) from None
    if not np.isfinite(out) or out < 0:
        raise ArgumentError("`{name}` must be a finite number >= 0, got {value!r}.", name=name,
                            value=value)
    return out


def positive_integer(value, name: str, *, maximum: int | None = None) -> int:
    """Return `value` as an int, requiring an integer >= 1 (and <= `maximum`).

    Only integer types pass (``bool`` and floats such as ``3.0`` do not); see
    :func:`integer_in_range` for a check that accepts integer-valued floats.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    value : object
        The argument to check: an instance of ``numbers.Integral`` (int or a
        NumPy integer), not ``bool``.
    name : str
        The parameter's name, for the message.
    maximum : int, optional
        Largest value allowed (keyword-only); None (default) sets no bound.

    Returns
    -------
    int
        `value` as an int, from 1 to `maximum`.

    Raises
    ------
    ValueError
        If `value` is not an integer or is below 1 ("`name` must be a positive
        integer"), or is above `maximum` ("`name` must be at most ...").

    Examples
    --------
    >>> positive_integer(500, "reps", maximum=100_000)
    500
    >>> positive_integer(3.0, "reps")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `reps` must be a positive integer, got 3.0.
    >>> positive_integer(200_000, "reps", maximum=100_000)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `reps` must be at most 100,000, got 200,000.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ArgumentError("`{name}` must be a positive integer, got {value!r}.", name=name,
                            value=value)
    out = int(value)
    if out < 1:
        raise ArgumentError("`{name}` must be a positive integer, got {value!r}.", name=name,
                            value=out)
    if maximum is not None and out > maximum:
        raise ArgumentError("`{name}` must be at most {maximum:,}, got {value:,}.", name=name,
                            maximum=maximum, value=out)
    return out


def category_count(value, name: str, *, maximum: int) -> int:
    """Return `value` as an int from 2 to `maximum`: a number of categories.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    value : object
        The argument to check: an integer (as in :func:`positive_integer`).
    name : str
        The parameter's name, for the message.
    maximum : int
        Largest number of categories allowed (keyword-only).

    Returns
    -------
    int
        `value` as an int, from 2 to `maximum`.

    Raises
    ------
    ValueError
        If `value` is not a positive integer or exceeds `maximum` (the messages
        of :func:`positive_integer`), or is 1 ("`name` must be at least 2").

    Examples
    --------
    >>> category_count(4, "k", maximum=1000)
    4
    >>> category_count(1, "k", maximum=1000)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `k` must be at least 2 (a single category reveals nothing), got 1.
    """
    out = positive_integer(value, name, maximum=maximum)
    if out < 2:
        raise ArgumentError("`{name}` must be at least 2 (a single category reveals nothing), "
                            "got {value}.", name=name, value=out)
    return out


def integer_in_range(value, name: str, *, minimum: int, maximum: int) -> int:
    """Return `value` as an int in [`minimum`, `maximum`].

    Integer-valued floats (``3.0``) are accepted; ``bool`` is not.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    value : object
        The argument to check: an integer, or a finite integer-valued real
        number such as ``3.0``.
    name : str
        The parameter's name, for the message.
    minimum : int
        Smallest value allowed, included (keyword-only).
    maximum : int
        Largest value allowed, included (keyword-only).

    Returns
    -------
    int
        `value` as an int, from `minimum` to `maximum`.

    Raises
    ------
    ValueError
        If `value` is a ``bool``, not a number or not a whole number ("`name`
        must be an integer"), or lies outside the range ("`name` must be an
        integer from `minimum` to `maximum`").

    Examples
    --------
    >>> integer_in_range(18.0, "m", minimum=2, maximum=100_000)
    18
    >>> integer_in_range(1, "m", minimum=2, maximum=100_000)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `m` must be an integer from 2 to 100,000, got 1.
    """
    if isinstance(value, (bool, np.bool_)):
        raise ArgumentError("`{name}` must be an integer, got {value!r}.", name=name, value=value)
    if isinstance(value, numbers.Integral):
        out = int(value)
    elif isinstance(value, numbers.Real) and math.isfinite(value) and float(value).is_integer():
        out = int(value)
    else:
        raise ArgumentError("`{name}` must be an integer, got {value!r}.", name=name, value=value)
    if out < minimum or out > maximum:
        raise ArgumentError("`{name}` must be an integer from {minimum:,} to {maximum:,}, "
                            "got {value:,}.", name=name, minimum=minimum, maximum=maximum,
                            value=out)
    return out


def probability(value, name: str, *, closed: bool = False) -> float:
    """Return `value` as a float in (0, 1), or in [0, 1] with ``closed=True``.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    value : object
        The argument to check: a single number (a 0-d array passes, a longer
        array does not).
    name : str
        The parameter's name, for the message.
    closed : bool, optional
        Keyword-only. False (default): 0 and 1 are refused; True: they pass.

    Returns
    -------
    float
        `value` as a float in (0, 1) or [0, 1].

    Raises
    ------
    ValueError
        If `value` is not a number inside the interval, NaN included ("`name`
        must be a probability ..."), or is an array with one or more dimensions
        ("`name` must be a single number").

    Examples
    --------
    >>> probability(0.05, "level")
    0.05
    >>> probability(1, "level", closed=True)
    1.0
    >>> probability(1, "level")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `level` must be a probability strictly between 0 and 1, got 1.
    """
    arr = probability_array(value, name, closed=closed)
    if arr.ndim:
        raise ArgumentError("`{name}` must be a single number, got an array of shape {shape}.",
                            name=name, shape=arr.shape)
    return float(arr)


def one_of(value, name: str, choices):
    """Return `value`, requiring it to be one of `choices` (a sequence or a mapping's keys).

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    value : object
        The argument to check.
    name : str
        The parameter's name, for the message.
    choices : sequence or mapping
        The values allowed (for a mapping, its keys), listed in the message.

    Returns
    -------
    object
        `value` itself, unchanged.

    Raises
    ------
    ValueError
        If `value` is not in `choices` (an unhashable value is not in a
        mapping): "`name` must be one of ...".

    Examples
    --------
    >>> one_of("chisq", "test", ("bootstrap", "chisq"))
    'chisq'
    >>> one_of("t", "test", ("bootstrap", "chisq"))
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `test` must be one of 'bootstrap', 'chisq', got 't'.
    """
    try:
        ok = value in choices
    except TypeError:  # unhashable, for a mapping
        ok = False
    if not ok:
        listed = ", ".join(map(repr, choices))
        raise ArgumentError("`{name}` must be one of {choices}, got {value!r}.", name=name,
                            choices=listed, value=value)
    return value


def positive_range(bounds, name: str) -> tuple[float, float]:
    """Return `bounds` = (low, high) as two floats with 0 < low < high, both finite.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    bounds : sequence of two numbers
        The pair (low, high).
    name : str
        The parameter's name, for the message.

    Returns
    -------
    tuple of (float, float)
        (low, high) as floats, 0 < low < high.

    Raises
    ------
    ValueError
        If `bounds` is not a pair ("`name` must be a pair (low, high)"), an end
        is not a finite number > 0 (the messages of :func:`positive_scalar`), or
        low >= high ("`name` must have low < high").

    Examples
    --------
    >>> positive_range((100, 10**8), "n_range")
    (100.0, 100000000.0)
    >>> positive_range((10, 1), "n_range")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `n_range` must have low < high, got (10, 1).
    """
    try:
        lo, hi = bounds
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be a pair (low, high).", name=name) from None
    lo = positive_scalar(lo, name)
    hi = positive_scalar(hi, name)
    if not lo < hi:
        raise ArgumentError("`{name}` must have low < high, got ({low:g}, {high:g}).", name=name,
                            low=lo, high=hi)
    return lo, hi


def sample_sizes(n, name: str = "n", *, maximum: int) -> np.ndarray:
    """Return `n`, one size for both samples or a pair (n1, n2), as an int64 array of 2.

    Each size must be an integer from 1 to `maximum`.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    n : int or sequence of two ints
        One size for both samples, or the pair (n1, n2) as a tuple, list or
        NumPy array. ``bool`` and floats are refused.
    name : str, optional
        The parameter's name, for the message (default ``"n"``).
    maximum : int
        Largest size allowed (keyword-only).

    Returns
    -------
    numpy.ndarray
        int64 array ``[n1, n2]`` (``[n, n]`` for a single size).

    Raises
    ------
    ValueError
        If a sequence does not hold exactly two sizes ("`name` must be an
        integer or a pair"), or a size is not an integer from 1 to `maximum`.

    Examples
    --------
    >>> sample_sizes(1000, maximum=10**9)
    array([1000, 1000])
    >>> sample_sizes((1000, 5000), maximum=10**9)
    array([1000, 5000])
    >>> sample_sizes(0, maximum=10**9)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `n` must be an integer from 1 to 1,000,000,000 (or a pair), got 0.
    """
    values = n if isinstance(n, (tuple, list, np.ndarray)) else (n, n)
    if len(values) != 2:
        raise ArgumentError("`{name}` must be an integer or a pair (n1, n2).", name=name)
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 1 <= v <= maximum:
            raise ArgumentError("`{name}` must be an integer from 1 to {maximum:,} (or a pair), "
                                "got {value!r}.", name=name, maximum=maximum, value=v)
        out.append(int(v))
    return np.array(out, dtype=np.int64)


# ---------------------------------------------------------------------------
# Arrays
# ---------------------------------------------------------------------------


def finite_array(value, name: str, *, sign: str | None = None) -> np.ndarray:
    """Return `value` as a float array of finite numbers.

    ``sign``: None (any), ``"nonnegative"`` (every entry >= 0) or
    ``"positive"`` (every entry > 0).

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    value : array_like
        A number or an array of numbers, any shape.
    name : str
        The parameter's name, for the message.
    sign : (None, 'nonnegative', 'positive'), optional
        Keyword-only: the sign every entry must have (default None: any).

    Returns
    -------
    numpy.ndarray
        float64 array of the shape of `value` (0-d for a number).

    Raises
    ------
    ValueError
        If `value` is not numeric ("`name` must be a number or an array of
        numbers"), holds NaN or infinity ("`name` must be finite"), or breaks
        `sign` ("`name` must be > 0" or "`name` must be >= 0").

    Examples
    --------
    >>> finite_array([1, 2.5], "x")
    array([1. , 2.5])
    >>> finite_array([0, 1], "x", sign="positive")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `x` must be > 0, got [0, 1].
    """
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be a number or an array of numbers.", name=name) from None
    if not np.all(np.isfinite(arr)):
        raise ArgumentError("`{name}` must be finite (no NaN or infinity), got {value!r}.",
                            name=name, value=value)
    if sign == "positive" and np.any(arr <= 0):
        raise ArgumentError("`{name}` must be > 0, got {value!r}.", name=name, value=value)
    if sign == "nonnegative" and np.any(arr < 0):
        raise ArgumentError("`{name}` must be >= 0, got {value!r}.", name=name, value=value)
    return arr


def probability_array(value, name: str, *, closed: bool = False) -> np.ndarray:
    """Return `value` as a float array with every entry in (0, 1), or in [0, 1] if ``closed``.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    value : array_like
        A number or an array of numbers, any shape.
    name : str
        The parameter's name, for the message.
    closed : bool, optional
        Keyword-only. False (default): 0 and 1 are refused; True: they pass.

    Returns
    -------
    numpy.ndarray
        float64 array of the shape of `value`.

    Raises
    ------
    ValueError
        If an entry is outside the interval, is NaN, or `value` is not numeric:
        "`name` must be a probability ...".

    Examples
    --------
    >>> probability_array([0.2, 0.5], "p")
    array([0.2, 0.5])
    >>> probability_array([0.0, 0.5], "p")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `p` must be a probability strictly between 0 and 1, got [0.0, 0.5].
    """
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        arr = np.asarray(np.nan)
    inside = (arr >= 0) & (arr <= 1) if closed else (arr > 0) & (arr < 1)
    if not np.all(inside):  # NaN is outside either way
        if closed:
            raise ArgumentError("`{name}` must be a probability in [0, 1], got {value!r}.",
                                name=name, value=value)
        raise ArgumentError("`{name}` must be a probability strictly between 0 and 1, "
                            "got {value!r}.", name=name, value=value)
    return arr


def real_vector(values, name: str) -> np.ndarray:
    """Return `values` as a 1-D float array (NaN and infinity pass: check them after).

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    values : array_like
        The numbers to check.
    name : str
        The parameter's name, for the message.

    Returns
    -------
    numpy.ndarray
        1-D float64 array (possibly empty, possibly with NaN or infinity).

    Raises
    ------
    ValueError
        If `values` is not numeric ("`name` must be an array of numbers") or is
        not one-dimensional ("`name` must be one-dimensional").

    Examples
    --------
    >>> real_vector([1, 2.5, float("nan")], "values")
    array([1. , 2.5, nan])
    >>> real_vector([[1, 2]], "values")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `values` must be one-dimensional, got 2 dimensions.
    """
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be an array of numbers.", name=name) from None
    if arr.ndim != 1:
        raise ArgumentError("`{name}` must be one-dimensional, got {ndim} dimensions.", name=name,
                            ndim=arr.ndim)
    return arr


def count_array(values, name: str, *, min_bins: int = 1) -> np.ndarray:
    """Return `values` as a float array of finite, non-negative counts.

    Bins are on the last axis (at least `min_bins`); leading axes (if any)
    are batches.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    values : array_like
        Counts, at least one axis; the last axis holds the bins.
    name : str
        The parameter's name, for the message.
    min_bins : int, optional
        Keyword-only: smallest number of bins on the last axis (default 1).

    Returns
    -------
    numpy.ndarray
        float64 array of the shape of `values`. Fractional counts pass (see
        :func:`whole_count_array` for whole ones).

    Raises
    ------
    ValueError
        If `values` is not numeric, is a single number (0-d), has fewer than
        `min_bins` bins, holds NaN or infinity, or holds a negative count.

    Examples
    --------
    >>> count_array([[1, 2], [3, 4.5]], "counts").shape
    (2, 2)
    >>> count_array([1, -1], "counts")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `counts` must not contain negative counts.
    """
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be an array of numbers.", name=name) from None
    if arr.ndim == 0:
        raise ArgumentError("`{name}` must be an array of counts (bins on the last axis).",
                            name=name)
    if arr.shape[-1] < min_bins:
        raise ArgumentError("`{name}` must have at least {min_bins} bins, got {bins}.", name=name,
                            min_bins=min_bins, bins=arr.shape[-1])
    if not np.all(np.isfinite(arr)):
        raise ArgumentError("`{name}` must contain only finite numbers (no NaN or infinity).",
                            name=name)
    if np.any(arr < 0):
        raise ArgumentError("`{name}` must not contain negative counts.", name=name)
    return arr


def whole_count_array(values, name: str, *, min_bins: int = 1) -> np.ndarray:
    """Return `values` as an int64 array of counts of records: :func:`count_array`, whole.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    values : array_like
        Counts, at least one axis; the last axis holds the bins. Whole-valued
        floats such as ``2.0`` pass.
    name : str
        The parameter's name, for the message.
    min_bins : int, optional
        Keyword-only: smallest number of bins on the last axis (default 1).

    Returns
    -------
    numpy.ndarray
        int64 array of the shape of `values`.

    Raises
    ------
    ValueError
        For the reasons of :func:`count_array`, or if a count is not a whole
        number ("`name` must be whole numbers").

    Examples
    --------
    >>> whole_count_array([3.0, 0, 7], "counts")
    array([3, 0, 7])
    >>> whole_count_array([1.5, 2], "counts")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `counts` must be whole numbers (counts of records or users).
    """
    arr = count_array(values, name, min_bins=min_bins)
    if np.any(arr != np.round(arr)):
        raise ArgumentError("`{name}` must be whole numbers (counts of records or users).",
                            name=name)
    return arr.astype(np.int64)


def category_indices(values, name: str, k: int) -> np.ndarray:
    """Return `values` as an int64 array of category indices 0 … `k` − 1.

    Integer-valued floats are accepted.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    values : array_like
        Category indices, any shape (an empty array passes).
    name : str
        The parameter's name, for the message.
    k : int
        Number of categories.

    Returns
    -------
    numpy.ndarray
        int64 array of the shape of `values`, every entry in 0 … `k` − 1.

    Raises
    ------
    ValueError
        If `values` is not numeric, holds a non-finite or fractional number
        ("`name` must be whole numbers 0 … k − 1"), or an index outside
        0 … `k` − 1 ("`name` must lie in 0 … k − 1").

    Examples
    --------
    >>> category_indices([0, 2, 1.0], "answers", 3)
    array([0, 2, 1])
    >>> category_indices([0, 3], "answers", 3)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `answers` must lie in 0 … 2, got 0 … 3.
    """
    try:
        arr = np.asarray(values)
        if not np.issubdtype(arr.dtype, np.integer):
            arr = np.asarray(arr, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be an array of category indices 0 … {last}.",
                            name=name, last=k - 1) from None
    if arr.dtype.kind == "f" and (not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr))):
        raise ArgumentError("`{name}` must be whole numbers 0 … {last} (category indices).",
                            name=name, last=k - 1)
    arr = arr.astype(np.int64, copy=False)
    if arr.size and (arr.min() < 0 or arr.max() >= k):
        raise ArgumentError("`{name}` must lie in 0 … {last}, got {low} … {high}.", name=name,
                            last=k - 1, low=arr.min(), high=arr.max())
    return arr


def same_shape(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    """Require two arrays to have the same shape.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    a : numpy.ndarray
        The first array (anything with a ``shape``).
    b : numpy.ndarray
        The second array.
    name_a : str
        The first array's parameter name, for the message.
    name_b : str
        The second array's parameter name, for the message.

    Returns
    -------
    None
        Returns nothing when the shapes agree.

    Raises
    ------
    ValueError
        If ``a.shape != b.shape``: "`name_a` and `name_b` must have the same
        shape (same bins)".

    Examples
    --------
    >>> import numpy as np
    >>> same_shape(np.zeros(3), np.ones(3), "x1", "x2")
    >>> same_shape(np.zeros(3), np.ones(4), "x1", "x2")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `x1` and `x2` must have the same shape (same bins), got (3,) and (4,).
    """
    if a.shape != b.shape:
        raise ArgumentError(
            "`{name_a}` and `{name_b}` must have the same shape (same bins), "
            "got {shape_a} and {shape_b}.", name_a=name_a, name_b=name_b, shape_a=a.shape,
            shape_b=b.shape)


def probabilities(p, name: str) -> np.ndarray:
    """Return `p` as a 1-D float array of at least 2 probabilities, renormalised to sum to 1.

    The entries must be finite, non-negative and sum to 1 within 1e-8.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    p : array_like
        Bin probabilities, 1-D.
    name : str
        The parameter's name, for the message.

    Returns
    -------
    numpy.ndarray
        float64 array ``p / p.sum()``, so that it sums to 1 to rounding.

    Raises
    ------
    ValueError
        If `p` is not numeric, not 1-D or has fewer than 2 entries, holds a
        non-finite or negative entry, or does not sum to 1 within 1e-8.

    Examples
    --------
    >>> probabilities([0.25, 0.75], "p0")
    array([0.25, 0.75])
    >>> probabilities([0.5, 0.6], "p0")
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `p0` must sum to 1, got 1.1.
    """
    try:
        arr = np.asarray(p, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be an array of probabilities.", name=name) from None
    if arr.ndim != 1 or arr.size < 2:
        raise ArgumentError("`{name}` must be a 1-D array of at least 2 probabilities.", name=name)
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ArgumentError("`{name}` must hold finite, non-negative probabilities.", name=name)
    if abs(arr.sum() - 1.0) > 1e-8:
        raise ArgumentError("`{name}` must sum to 1, got {total:.6g}.", name=name, total=arr.sum())
    return arr / arr.sum()


def probability_pair(p1, p2, names: tuple[str, str] = ("p1", "p2")):
    """Return two :func:`probabilities` over the same number of bins M.

    Source: none (input checking, this project's own); no equation of the references.

    Parameters
    ----------
    p1 : array_like
        Bin probabilities of the first distribution, as in :func:`probabilities`.
    p2 : array_like
        Bin probabilities of the second, over the same number of bins.
    names : tuple of (str, str), optional
        Their parameters' names, for the messages (default ``("p1", "p2")``).

    Returns
    -------
    tuple of (numpy.ndarray, numpy.ndarray)
        The two arrays, each renormalised to sum to 1, of the same length M.

    Raises
    ------
    ValueError
        For the reasons of :func:`probabilities`, or if the two have different
        numbers of bins.

    Examples
    --------
    >>> a, b = probability_pair([0.5, 0.5], [0.2, 0.8])
    >>> print(a, b)
    [0.5 0.5] [0.2 0.8]
    >>> probability_pair([0.5, 0.5], [0.2, 0.3, 0.5])
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `p1` has 2 bins but `p2` has 3: the two histograms must share the same bins
    (same M) to be compared; bin both the same way.
    """
    a, b = probabilities(p1, names[0]), probabilities(p2, names[1])
    if a.size != b.size:
        raise ArgumentError(
            "`{name_a}` has {bins_a} bins but `{name_b}` has {bins_b}: the two histograms "
            "must share the same bins (same M) to be compared; bin both the same way.",
            name_a=names[0], bins_a=a.size, name_b=names[1], bins_b=b.size)
    return a, b
