"""Argument checks shared by the dpcore modules.

Each helper raises ``ValueError`` whose message names the parameter in
backticks, so that callers (and the dashboard) can show it as it is.
"""

from __future__ import annotations

import numbers

import numpy as np


def positive_scalar(value, name: str) -> float:
    """Return `value` as a float, requiring a finite number > 0."""
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"`{name}` must be a positive number, got {value!r}.") from None
    if not np.isfinite(out) or out <= 0:
        raise ValueError(f"`{name}` must be a finite number > 0, got {value!r}.")
    return out


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
    """Return `value` as an int, requiring an integer >= 1 (and <= `maximum`)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"`{name}` must be a positive integer, got {value!r}.")
    out = int(value)
    if out < 1:
        raise ValueError(f"`{name}` must be a positive integer, got {out}.")
    if maximum is not None and out > maximum:
        raise ValueError(f"`{name}` must be at most {maximum:,}, got {out:,}.")
    return out


def count_array(values, name: str, *, min_bins: int = 1) -> np.ndarray:
    """Return `values` as a float array of finite, non-negative counts.

    Bins are on the last axis; leading axes (if any) are batches.
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


def same_shape(a: np.ndarray, b: np.ndarray, name_a: str, name_b: str) -> None:
    """Require two arrays to have the same shape."""
    if a.shape != b.shape:
        raise ValueError(
            f"`{name_a}` and `{name_b}` must have the same shape (same bins), "
            f"got {a.shape} and {b.shape}."
        )
