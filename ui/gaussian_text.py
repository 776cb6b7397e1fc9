"""Text for the Gaussian mechanism page built from dpcore.gaussian's results."""

from __future__ import annotations

import pandas as pd

from dpcore.gaussian import CLASSICAL_MAX_EPS

__all__ = ["calibration_notes"]


def calibration_notes(table: pd.DataFrame, eps: float) -> pd.DataFrame:
    """``gaussian.calibration_table(eps, …)`` with a note on each calibration without a guarantee.

    dpcore notes only why a calibration has no solution; a classical σ computed at
    ε ≥ ``CLASSICAL_MAX_EPS`` (``valid`` False, no note) gets the reason here.
    """
    out = table.copy()
    unproved = (out["method"] == "classical") & ~out["valid"].astype(bool) & (out["note"] == "")
    out.loc[unproved, "note"] = ("not a guarantee: the classical formula is proved for "
                                 f"ε < {CLASSICAL_MAX_EPS:g} only (here ε = {eps:g})")
    return out
