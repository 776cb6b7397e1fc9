"""Check issue 17's targets on the shipped calibration grids and print the figures.

    .venv/bin/python scripts/check_calibration.py

1. Size: every cell of the extended null grid (and the paper grid's Korea vs Korea cells),
   per test, against the band [0.025, 0.075]; the cells outside are listed.
2. Power: on the paper grid's Korea vs USA and central vs noncentral cells where Algorithm 1's
   measured size (Korea vs Korea, same M, alpha and N) lies within the band, the normal-score
   test's power minus Algorithm 1's, with the cells where it is lower by more than two
   standard errors of the difference (independent simulations) listed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dpcore import study  # noqa: E402

LOW, HIGH = study.LEVEL_BAND
KEY = ["m", "alpha1", "alpha2", "n", "n2"]


def size_report(table: pd.DataFrame, name: str) -> None:
    null = table[table["pair"] == "korea_vs_korea"]
    print(f"Type-I error, {name}: {null.drop_duplicates(KEY).shape[0]} settings")
    for test, rows in null.groupby("test", sort=False):
        out = rows[(rows["rate"] < LOW) | (rows["rate"] > HIGH)]
        print(f"  {test:<13} rate {rows['rate'].min():.3f} to {rows['rate'].max():.3f}; "
              f"outside [{LOW}, {HIGH}] in {len(out)} of {len(rows)}")
        if test == "normal_score":
            for r in out.itertuples():
                print(f"    M={r.m} alpha=({r.alpha1:g}, {r.alpha2:g}) N=({r.n:,}, {r.n2:,}): "
                      f"{r.rate:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]")


def power_report(paper: pd.DataFrame) -> None:
    null = paper[(paper["pair"] == "korea_vs_korea") & (paper["test"] == "bootstrap")]
    ok = null[(null["rate"] >= LOW) & (null["rate"] <= HIGH)][KEY]
    print("Power where Algorithm 1 keeps its level (paper grid, Korea vs USA and central vs "
          "noncentral):")
    for pair in ("korea_vs_usa", "central_vs_noncentral"):
        rows = paper[paper["pair"] == pair].merge(ok, on=KEY)
        wide = rows.pivot_table(index=KEY, columns="test", values="rate")
        reps = int(rows["reps"].iloc[0])
        a, b = wide["bootstrap"], wide["normal_score"]
        se = np.sqrt((a * (1 - a) + b * (1 - b)) / reps)
        diff = b - a
        lower = wide[(diff < -2 * np.maximum(se, 1 / reps))]
        print(f"  {pair}: {len(wide)} cells; normal_score - bootstrap from {diff.min():+.3f} "
              f"to {diff.max():+.3f} (mean {diff.mean():+.3f}); lower by more than 2 SE in "
              f"{len(lower)}")
        for key, r in lower.iterrows():
            print(f"    M={key[0]} alpha=({key[1]:g}, {key[2]:g}) N={key[3]:,}: "
                  f"bootstrap {r['bootstrap']:.3f}, normal_score {r['normal_score']:.3f}")


def main() -> int:
    extended = study.load_extended()
    paper = study.load_results()
    if extended is not None:
        size_report(extended, "extended null grid")
    if paper is not None:
        size_report(paper, "paper grid")
        if "normal_score" in set(paper["test"]):
            power_report(paper)
    return 0


if __name__ == "__main__":
    sys.exit(main())
