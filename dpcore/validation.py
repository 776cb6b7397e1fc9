"""Argument validators of the dpcore package, in one place.

Every validator takes the value and the name of the parameter it was passed
as, returns the value normalised (a float, an int or a NumPy array) and raises
``ValueError`` whose message names the parameter in backticks, so that callers
(and the dashboard) can show it as it is.

Checks bound to one module's own quantities (the γ > 1 of random
substitution, the k ≥ 2 of k-RR, the age-group widths) stay in their module,
built on these.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

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

    Parameters
    ----------
    value : object
        The argument to check.
    name : str
        The parameter's name, for the message.

    Returns
    -------
    float
    """
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be a positive number, got {value!r}.") from None
    if not np.isfinite(out) or out <= 0:
        raise ValueError(f"`{name}` must be a finite number > 0, got {value!r}.")
    return out


def finite_scalar(value, name: str) -> float:
    """Return `value` as a float, requiring a finite real number (``bool`` is not one)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"`{name}` must be a number, got {value!r}.")
    if not math.isfinite(value):
        raise ValueError(f"`{name}` must be finite, got {value!r}.")
    return float(value)


def nonnegative_scalar(value, name: str) -> float:
    """Return `value` as a float, requiring a finite number >= 0."""
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be a number, got {value!r}.") from None
    if not np.isfinite(out) or out < 0:
        raise ValueError(f"`{name}` must be a finite number >= 0, got {value!r}.")
    return out


def positive_integer(value, name: str, *, maximum: int | None = None) -> int:
    """Return `value` as an int, requiring an integer >= 1 (and <= `maximum`).

    Only integer types pass (``bool`` and floats such as ``3.0`` do not); see
    :func:`integer_in_range` for a check that accepts integer-valued floats.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"`{name}` must be a positive integer, got {value!r}.")
    out = int(value)
    if out < 1:
        raise ValueError(f"`{name}` must be a positive integer, got {out}.")
    if maximum is not None and out > maximum:
        raise ValueError(f"`{name}` must be at most {maximum:,}, got {out:,}.")
    return out


def category_count(value, name: str, *, maximum: int) -> int:
    """Return `value` as an int from 2 to `maximum`: a number of categories."""
    out = positive_integer(value, name, maximum=maximum)
    if out < 2:
        raise ValueError(f"`{name}` must be at least 2 (a single category reveals nothing), "
                         f"got {out}.")
    return out


def integer_in_range(value, name: str, *, minimum: int, maximum: int) -> int:
    """Return `value` as an int in [`minimum`, `maximum`].

    Integer-valued floats (``3.0``) are accepted; ``bool`` is not.
    """
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"`{name}` must be an integer, got {value!r}.")
    if isinstance(value, numbers.Integral):
        out = int(value)
    elif isinstance(value, numbers.Real) and math.isfinite(value) and float(value).is_integer():
        out = int(value)
    else:
        raise ValueError(f"`{name}` must be an integer, got {value!r}.")
    if out < minimum or out > maximum:
        raise ValueError(f"`{name}` must be an integer from {minimum:,} to {maximum:,}, "
                         f"got {out:,}.")
    return out


def probability(value, name: str, *, closed: bool = False) -> float:
    """Return `value` as a float in (0, 1), or in [0, 1] with ``closed=True``."""
    arr = probability_array(value, name, closed=closed)
    if arr.ndim:
        raise ValueError(f"`{name}` must be a single number, got an array of shape {arr.shape}.")
    return float(arr)


def one_of(value, name: str, choices):
    """Return `value`, requiring it to be one of `choices` (a sequence or a mapping's keys)."""
    try:
        ok = value in choices
    except TypeError:  # unhashable, for a mapping
        ok = False
    if not ok:
        listed = ", ".join(map(repr, choices))
        raise ValueError(f"`{name}` must be one of {listed}, got {value!r}.")
    return value


def positive_range(bounds, name: str) -> tuple[float, float]:
    """Return `bounds` = (low, high) as two floats with 0 < low < high, both finite."""
    try:
        lo, hi = bounds
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be a pair (low, high).") from None
    lo = positive_scalar(lo, name)
    hi = positive_scalar(hi, name)
    if not lo < hi:
        raise ValueError(f"`{name}` must have low < high, got ({lo:g}, {hi:g}).")
    return lo, hi


def sample_sizes(n, name: str = "n", *, maximum: int) -> np.ndarray:
    """Return `n`, one size for both samples or a pair (n1, n2), as an int64 array of 2.

    Each size must be an integer from 1 to `maximum`.
    """
    values = n if isinstance(n, (tuple, list, np.ndarray)) else (n, n)
    if len(values) != 2:
        raise ValueError(f"`{name}` must be an integer or a pair (n1, n2).")
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 1 <= v <= maximum:
            raise ValueError(f"`{name}` must be an integer from 1 to {maximum:,} (or a pair), "
                             f"got {v!r}.")
        out.append(int(v))
    return np.array(out, dtype=np.int64)


# ---------------------------------------------------------------------------
# Arrays
# ---------------------------------------------------------------------------


def finite_array(value, name: str, *, sign: str | None = None) -> np.ndarray:
    """Return `value` as a float array of finite numbers.

    ``sign``: None (any), ``"nonnegative"`` (every entry >= 0) or
    ``"positive"`` (every entry > 0).
    """
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be a number or an array of numbers.") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"`{name}` must be finite (no NaN or infinity), got {value!r}.")
    if sign == "positive" and np.any(arr <= 0):
        raise ValueError(f"`{name}` must be > 0, got {value!r}.")
    if sign == "nonnegative" and np.any(arr < 0):
        raise ValueError(f"`{name}` must be >= 0, got {value!r}.")
    return arr


def probability_array(value, name: str, *, closed: bool = False) -> np.ndarray:
    """Return `value` as a float array with every entry in (0, 1), or in [0, 1] if ``closed``."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        arr = np.asarray(np.nan)
    inside = (arr >= 0) & (arr <= 1) if closed else (arr > 0) & (arr < 1)
    if not np.all(inside):  # NaN is outside either way
        where = "in [0, 1]" if closed else "strictly between 0 and 1"
        raise ValueError(f"`{name}` must be a probability {where}, got {value!r}.")
    return arr


def real_vector(values, name: str) -> np.ndarray:
    """Return `values` as a 1-D float array (NaN and infinity pass: check them after)."""
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be an array of numbers.") from None
    if arr.ndim != 1:
        raise ValueError(f"`{name}` must be one-dimensional, got {arr.ndim} dimensions.")
    return arr


def count_array(values, name: str, *, min_bins: int = 1) -> np.ndarray:
    """Return `values` as a float array of finite, non-negative counts.

    Bins are on the last axis (at least `min_bins`); leading axes (if any)
    are batches.
    """
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be an array of numbers.") from None
    if arr.ndim == 0:
        raise ValueError(f"`{name}` must be an array of counts (bins on the last axis).")
    if arr.shape[-1] < min_bins:
        raise ValueError(f"`{name}` must have at least {min_bins} bins, got {arr.shape[-1]}.")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"`{name}` must contain only finite numbers (no NaN or infinity).")
    if np.any(arr < 0):
        raise ValueError(f"`{name}` must not contain negative counts.")
    return arr


def whole_count_array(values, name: str, *, min_bins: int = 1) -> np.ndarray:
    """Return `values` as an int64 array of counts of records: :func:`count_array`, whole."""
    arr = count_array(values, name, min_bins=min_bins)
    if np.any(arr != np.round(arr)):
        raise ValueError(f"`{name}` must be whole numbers (counts of records or users).")
    return arr.astype(np.int64)


def category_indices(values, name: str, k: int) -> np.ndarray:
    """Return `values` as an int64 array of category indices 0 … `k` − 1.

    Integer-valued floats are accepted.
    """
    try:
        arr = np.asarray(values)
        if not np.issubdtype(arr.dtype, np.integer):
            arr = np.asarray(arr, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be an array of category indices 0 … {k - 1}.") from None
    if arr.dtype.kind == "f" and (not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr))):
        raise ValueError(f"`{name}` must be whole numbers 0 … {k - 1} (category indices).")
    arr = arr.astype(np.int64, copy=False)
    if arr.size and (arr.min() < 0 or arr.max() >= k):
        raise ValueError(f"`{name}` must lie in 0 … {k - 1}, got {arr.min()} … {arr.max()}.")
    return arr


def same_shape(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    """Require two arrays to have the same shape."""
    if a.shape != b.shape:
        raise ValueError(
            f"`{name_a}` and `{name_b}` must have the same shape (same bins), "
            f"got {a.shape} and {b.shape}."
        )


def probabilities(p, name: str) -> np.ndarray:
    """Return `p` as a 1-D float array of at least 2 probabilities, renormalised to sum to 1.

    The entries must be finite, non-negative and sum to 1 within 1e-8.
    """
    try:
        arr = np.asarray(p, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be an array of probabilities.") from None
    if arr.ndim != 1 or arr.size < 2:
        raise ValueError(f"`{name}` must be a 1-D array of at least 2 probabilities.")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ValueError(f"`{name}` must hold finite, non-negative probabilities.")
    if abs(arr.sum() - 1.0) > 1e-8:
        raise ValueError(f"`{name}` must sum to 1, got {arr.sum():.6g}.")
    return arr / arr.sum()


def probability_pair(p1, p2, names: tuple[str, str] = ("p1", "p2")):
    """Return two :func:`probabilities` over the same number of bins M."""
    a, b = probabilities(p1, names[0]), probabilities(p2, names[1])
    if a.size != b.size:
        raise ValueError(
            f"`{names[0]}` has {a.size} bins but `{names[1]}` has {b.size}: the two histograms "
            "must share the same bins (same M) to be compared; bin both the same way."
        )
    return a, b
