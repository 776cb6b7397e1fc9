"""The paper's calibration study, cell by cell, in parallel on Dask.

Run ``python -m dpcore.study --help``. A *cell* is one setting of Algorithm 2
(REJECTRATE) of Son, Park & Jung (2022): a pair of populations, a binning M,
privacy levels (alpha_1, alpha_2), a histogram size N and a test. The grid of
section 4.2 (Figures 9-12) is

- pairs: Korea vs Korea (type-I error), Korea vs USA (large effect), Korea
  central vs noncentral (medium effect);
- M in {86, 18, 9} (1-, 5- and 10-year age groups);
- alpha_1 = alpha_2 in {1, 0.1, 0.01}, and Figure 12's (0.1, 0.05);
- N in {10^k, 5 x 10^k : k = 3..7}, the same for both histograms;
- the naive chi-square test and the parametric bootstrap test (Algorithm 1);
  here also the normal-score contrast bootstrap (beyond the source).

The extended null grid (:func:`extended_grid`) goes beyond the source where
Algorithm 1's size is in question: Korea vs Korea, M in {9, 18, 86}, all nine
pairs alpha_1, alpha_2 in {1, 0.1, 0.01}, N_A in {10^3, 10^4, 10^5} and
N_B / N_A in {1, 10, 100}. A cell's ``n`` is N_A and ``n2`` is N_B.

Cells run on a ``dask.distributed`` cluster: a local one by default, or an
existing one (``--scheduler ADDRESS``). Cell i draws from
``np.random.SeedSequence(seed).spawn(number of cells)[i]`` with i its place in
the full grid, so the results do not depend on the number of workers, the
order in which cells finish, or resuming. Rows are appended to the CSV as
cells finish (a rerun skips cells already there) and the file is rewritten in
grid order at the end.
"""

from __future__ import annotations

import argparse
import csv
import functools
import itertools
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from dpcore import datasets, simulation

PAIRS = {
    "korea_vs_korea": ("korea", "korea", "type-I error"),
    "korea_vs_usa": ("korea", "usa", "large effect"),
    "central_vs_noncentral": ("korea_central", "korea_noncentral", "medium effect"),
}
WIDTH_OF_M = {86: 1, 18: 5, 9: 10}
PAPER_ALPHAS = ((1.0, 1.0), (0.1, 0.1), (0.01, 0.01), (0.1, 0.05))
PAPER_N = tuple(m * 10**k for k in range(3, 8) for m in (1, 5))
EXTENDED_ALPHAS = tuple((a1, a2) for a1 in (1.0, 0.1, 0.01) for a2 in (1.0, 0.1, 0.01))
EXTENDED_N = (10**3, 10**4, 10**5)
EXTENDED_RATIOS = (1, 10, 100)

#: The shipped results of the full paper grid for the source's two tests, and the
#: command that made them.
RESULTS_FILE = "calibration_study.csv"
PAPER_COMMAND = (
    "python -m dpcore.study --tests bootstrap chisq --reps 1000 --boot 500 --seed 2022 "
    "--workers 2 --out dpcore/data/calibration_study.csv"
)

#: The shipped results of the normal-score test on the paper grid's two pairs with an
#: effect, for its power (its size is the extended null grid's), in its own file and seed
#: so the source's tests keep their streams; and the command that made them.
SCORE_RESULTS_FILE = "calibration_study_normal_score.csv"
SCORE_PAIRS = ("korea_vs_usa", "central_vs_noncentral")
SCORE_COMMAND = (
    "python -m dpcore.study --pairs korea_vs_usa central_vs_noncentral --tests normal_score "
    "--reps 1000 --boot 500 --seed 2024 --workers 2 "
    "--out dpcore/data/calibration_study_normal_score.csv"
)


def shipped_paper_grid() -> list[Cell]:
    """The paper-grid cells the shipped files hold: the source's two tests everywhere,
    the normal-score test on the two pairs with an effect."""
    return paper_grid(tests=("bootstrap", "chisq")) + paper_grid(pairs=SCORE_PAIRS,
                                                                 tests=("normal_score",))

#: The shipped results of the extended null grid, and the command that made them.
EXTENDED_FILE = "calibration_null_extended.csv"
EXTENDED_COMMAND = (
    "python -m dpcore.study --extended --reps 1000 --boot 500 --seed 2026 --workers 2 "
    "--out dpcore/data/calibration_null_extended.csv"
)

COLUMNS = [
    "cell", "pair", "effect", "population_a", "population_b", "m", "alpha1", "alpha2", "n",
    "n2", "test", "rate", "ci_low", "ci_high", "rejections", "undefined", "reps", "n_boot", "level",
    "seed", "seconds",
]


@dataclass(frozen=True)
class Cell:
    """One setting of Algorithm 2; ``index`` is its place in the full grid.

    ``n`` is N_A, the size of histogram A; ``n2`` is N_B.
    """

    index: int
    pair: str
    m: int
    alpha1: float
    alpha2: float
    n: int
    n2: int
    test: str

    @property
    def key(self) -> tuple:
        return (self.pair, self.m, self.alpha1, self.alpha2, self.n, self.n2, self.test)


def paper_grid(
    pairs=tuple(PAIRS), ms=(86, 18, 9), alphas=PAPER_ALPHAS, ns=PAPER_N,
    tests=simulation.TESTS, ratios=(1,),
) -> list[Cell]:
    """The grid as a list of cells, in a fixed order (index = position).

    Each N in ``ns`` is N_A; N_B = ratio x N_A for each of ``ratios``.
    """
    for r in ratios:
        if not float(r) > 0:
            raise ValueError(f"`ratios`: N_B / N_A must be positive, got {r!r}.")
    for name in pairs:
        if name not in PAIRS:
            raise ValueError(f"`pairs`: unknown pair {name!r}; choose from {list(PAIRS)}.")
    for m in ms:
        if m not in WIDTH_OF_M:
            raise ValueError(f"`ms`: M must be one of {list(WIDTH_OF_M)} (age groups), got {m}.")
    combos = itertools.product(pairs, ms, alphas, ns, ratios, tests)
    return [
        Cell(i, pair, int(m), float(a1), float(a2), int(n), int(round(n * r)), test)
        for i, (pair, m, (a1, a2), n, r, test) in enumerate(combos)
    ]


def extended_grid(tests=simulation.TESTS) -> list[Cell]:
    """The extended null grid: Korea vs Korea over M, all nine alpha pairs, N_A and N_B / N_A."""
    return paper_grid(("korea_vs_korea",), (9, 18, 86), EXTENDED_ALPHAS, EXTENDED_N, tests,
                      EXTENDED_RATIOS)


def _results_source(name: str = RESULTS_FILE):
    import importlib.resources

    return importlib.resources.files("dpcore").joinpath("data", name)


def results_stamp(name: str | None = None) -> float | None:
    """Modification time of a shipped results file (None if absent), for caches; without
    ``name`` the latest of the paper grid's two files."""
    if name is None:
        stamps = [results_stamp(n) for n in (RESULTS_FILE, SCORE_RESULTS_FILE)]
        stamps = [s for s in stamps if s is not None]
        return max(stamps) if stamps else None
    source = _results_source(name)
    return Path(str(source)).stat().st_mtime if source.is_file() else None


def _load(name: str) -> pd.DataFrame | None:
    source = _results_source(name)
    if not source.is_file():
        return None
    with source.open("rb") as fh:
        return pd.read_csv(fh)


def load_results() -> pd.DataFrame | None:
    """The shipped results of the full paper grid, all three tests (None if absent).

    The source's tests come from ``RESULTS_FILE``, the normal-score test from
    ``SCORE_RESULTS_FILE`` (each file's ``cell`` numbers its own grid).
    """
    parts = [t for t in (_load(RESULTS_FILE), _load(SCORE_RESULTS_FILE)) if t is not None]
    return pd.concat(parts, ignore_index=True) if parts else None


def load_extended() -> pd.DataFrame | None:
    """The shipped results of the extended null grid (None if the file is absent)."""
    return _load(EXTENDED_FILE)


#: The band in which a test's measured type-I error counts as keeping the 5% level.
LEVEL_BAND = (0.025, 0.075)


@dataclass(frozen=True)
class MeasuredSize:
    """The tests' measured type-I errors at the simulated setting nearest to a query.

    ``m``, ``alpha1``, ``alpha2``, ``n1``, ``n2``: the simulated setting, written in
    the query's order (A first; ``swapped`` says the grid holds it as B, A);
    ``exact``: the query is that setting; ``inside``: the query lies within the
    simulated range on every axis (M, each alpha, each N and N_B / N_A), so the
    nearest setting is a neighbour rather than an extrapolation; ``rates``:
    test -> (rate, ci_low, ci_high), Korea vs Korea (both histograms from the same
    population), R replicates each.
    """

    m: int
    alpha1: float
    alpha2: float
    n1: int
    n2: int
    swapped: bool
    exact: bool
    inside: bool
    reps: int
    rates: dict

    def keeps_level(self, test: str, band=LEVEL_BAND) -> bool | None:
        """Whether ``test``'s measured type-I error lies within ``band`` (None: not simulated)."""
        if test not in self.rates:
            return None
        return band[0] <= self.rates[test][0] <= band[1]


def _null_table() -> pd.DataFrame | None:
    """Every simulated null setting: the paper grid's Korea vs Korea rows and the
    extended grid, one row per (setting, test). Read once per version of the files."""
    stamps = []
    for name in (RESULTS_FILE, SCORE_RESULTS_FILE, EXTENDED_FILE):
        source = _results_source(name)
        stamps.append((str(source), source.stat().st_mtime_ns if source.is_file() else None))
    return _null_table_of(tuple(stamps))


@functools.lru_cache(maxsize=2)
def _null_table_of(stamps: tuple) -> pd.DataFrame | None:
    parts = [t for t in (load_results(), load_extended()) if t is not None]
    if not parts:
        return None
    table = pd.concat(parts, ignore_index=True)
    table = table[table["pair"] == "korea_vs_korea"]
    if "n2" not in table:
        table = table.assign(n2=table["n"])
    return table.drop_duplicates(["m", "alpha1", "alpha2", "n", "n2", "test"], keep="last")


_SETTING = ["m", "alpha1", "alpha2", "n", "n2"]
_INDEXED: dict[int, tuple] = {}  # id(table) -> (table, its settings, their log10 grid, rows)


def _indexed(table: pd.DataFrame) -> tuple[pd.DataFrame, np.ndarray, dict]:
    """The table's distinct settings, their log10 values and each one's rows, computed once
    per table (the shipped one is the same object on every call)."""
    held = _INDEXED.get(id(table))
    if held is None or held[0] is not table:
        settings = table.drop_duplicates(_SETTING)
        grid = np.log10(settings[_SETTING].to_numpy(float))
        rows = {key: part for key, part in table.groupby(_SETTING, sort=False)}
        held = (table, settings, grid, rows)
        if len(_INDEXED) > 8:
            _INDEXED.clear()
        _INDEXED[id(table)] = held
    return held[1:]


def measured_size(m, alpha1, alpha2, n1, n2, *, table: pd.DataFrame | None = None):
    """The measured type-I errors at the simulated setting nearest to (M, alpha, N).

    Nearest in the sum over M, alpha_1, alpha_2, N_A and N_B of the absolute
    differences of log10 values, with A and B exchanged where that is nearer (the
    grid holds N_B >= N_A). ``table`` defaults to the shipped grids. Returns a
    :class:`MeasuredSize`, or None when no grid is shipped. Sizes below 1 are
    taken as 1.
    """
    table = _null_table() if table is None else table
    if table is None or table.empty:
        return None
    query = np.log10(np.maximum([m, alpha1, alpha2, n1, n2], [1, 1e-300, 1e-300, 1, 1]))
    settings, grid, rows = _indexed(table)
    swap = query[[0, 2, 1, 4, 3]]
    d_plain = np.abs(grid - query).sum(axis=1)
    d_swap = np.abs(grid - swap).sum(axis=1)
    best = int(np.argmin(np.minimum(d_plain, d_swap)))
    swapped = bool(d_swap[best] < d_plain[best])
    row = settings.iloc[best]
    key = (row["m"], row["alpha1"], row["alpha2"], row["n"], row["n2"])
    here = rows[key]
    rates = {r.test: (float(r.rate), float(r.ci_low), float(r.ci_high))
             for r in here.itertuples()}
    q = swap if swapped else query
    lo, hi = grid.min(axis=0), grid.max(axis=0)
    ratio = q[4] - q[3]
    ratios = grid[:, 4] - grid[:, 3]
    inside = bool(np.all((q >= lo - 1e-9) & (q <= hi + 1e-9))
                  and ratios.min() - 1e-9 <= ratio <= ratios.max() + 1e-9)
    a1, a2, s1, s2 = float(key[1]), float(key[2]), int(key[3]), int(key[4])
    if swapped:
        a1, a2, s1, s2 = a2, a1, s2, s1
    exact = bool(min(d_plain[best], d_swap[best]) < 1e-9)
    return MeasuredSize(int(key[0]), a1, a2, s1, s2, swapped, exact, inside,
                        int(here["reps"].iloc[0]), rates)


def cell_probabilities(pair: str, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Bin probabilities of the pair's two populations at M bins."""
    a, b, _ = PAIRS[pair]
    width = WIDTH_OF_M[m]
    return tuple(
        datasets.proportions(datasets.age_histogram(pop, width).to_numpy()) for pop in (a, b)
    )


def run_cell(cell: Cell, *, reps: int, n_boot: int, seed: int, n_cells: int,
             level: float = 0.05) -> dict:
    """Run one cell with its own stream; returns one CSV row."""
    stream = np.random.SeedSequence(seed).spawn(n_cells)[cell.index]
    p1, p2 = cell_probabilities(cell.pair, cell.m)
    start = time.perf_counter()
    res = simulation.reject_rate(
        p1, p2, (cell.n, cell.n2), cell.alpha1, cell.alpha2, test=cell.test, reps=reps,
        n_boot=n_boot,
        level=level, rng=np.random.default_rng(stream),
    )
    a, b, effect = PAIRS[cell.pair]
    return {
        "cell": cell.index, "pair": cell.pair, "effect": effect, "population_a": a,
        "population_b": b, "m": cell.m, "alpha1": cell.alpha1, "alpha2": cell.alpha2,
        "n": cell.n, "n2": cell.n2, "test": cell.test, "rate": res.rate, "ci_low": res.ci_low,
        "ci_high": res.ci_high, "rejections": res.rejections, "undefined": res.n_undefined,
        "reps": reps, "n_boot": n_boot if cell.test in simulation.BOOTSTRAP_TESTS else "",
        "level": level,
        "seed": seed, "seconds": round(time.perf_counter() - start, 3),
    }


def _done_keys(path: Path, cells: list[Cell]) -> set[tuple]:
    """Keys of the cells already in ``path``, checking they belong to this grid."""
    if not path.exists() or path.stat().st_size == 0:
        return set()
    table = pd.read_csv(path)
    index = {c.key: c.index for c in cells}
    done = set()
    for r in table.itertuples():
        key = (r.pair, int(r.m), float(r.alpha1), float(r.alpha2), int(r.n), int(r.n2), r.test)
        if index.get(key, -1) != r.cell:
            raise SystemExit(
                f"{path} was made with another grid (cell {r.cell} is not {key} here), so its "
                "random streams do not match this run; use another --out or the same grid."
            )
        done.add(key)
    return done


def _check_resume(path: Path, reps: int, n_boot: int, seed: int) -> None:
    if not path.exists() or path.stat().st_size == 0:
        return
    table = pd.read_csv(path)
    if len(table) and (
        set(table["reps"]) != {reps} or set(table["seed"]) != {seed}
        or set(table.loc[table["test"].isin(simulation.BOOTSTRAP_TESTS), "n_boot"].astype(int))
        - {n_boot}
    ):
        raise SystemExit(
            f"{path} holds results made with other --reps/--boot/--seed; "
            "use another --out or delete it."
        )


def _estimate(cells: list[Cell], reps: int, n_boot: int, workers: int) -> float:
    per_unit = simulation.seconds_per_unit()
    units = sum(simulation.work_units(c.m, reps, n_boot, c.test) for c in cells)
    return simulation.estimate_seconds(units, per_unit, workers=workers)


def _fmt_seconds(s: float) -> str:
    return f"{s / 60:.1f} min" if s >= 90 else f"{s:.0f} s"


def run_study(
    cells: list[Cell], out: Path, *, reps: int, n_boot: int, seed: int, workers: int = 2,
    scheduler: str | None = None, n_cells: int | None = None, log=print,
) -> pd.DataFrame:
    """Run the cells not yet in ``out`` on Dask; returns the table in grid order."""
    from dask.distributed import Client, LocalCluster, as_completed

    n_cells = n_cells or len(cells)
    out.parent.mkdir(parents=True, exist_ok=True)
    _check_resume(out, reps, n_boot, seed)
    done = _done_keys(out, cells)
    todo = [c for c in cells if c.key not in done]
    log(f"{len(cells)} cells, {len(cells) - len(todo)} already in {out}, {len(todo)} to run "
        f"(R = {reps}, B = {n_boot}, seed = {seed}).")
    if todo:
        log(f"Estimated run time: about {_fmt_seconds(_estimate(todo, reps, n_boot, workers))} "
            f"on {workers} worker(s) of this machine.")
        # Largest cells first, so the workers finish together.
        todo.sort(key=lambda c: -simulation.work_units(c.m, reps, n_boot, c.test))
        cluster = None
        if scheduler is None:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   host="127.0.0.1", dashboard_address=":0")
        client = Client(scheduler or cluster)
        try:
            new_file = not out.exists() or out.stat().st_size == 0
            with out.open("a", newline="") as fh:
                writer = csv.DictWriter(fh, fieldnames=COLUMNS)
                if new_file:
                    writer.writeheader()
                futures = [
                    client.submit(run_cell, c, reps=reps, n_boot=n_boot, seed=seed,
                                  n_cells=n_cells, pure=False)
                    for c in todo
                ]
                start = time.perf_counter()
                for k, fut in enumerate(as_completed(futures), 1):
                    row = fut.result()
                    writer.writerow(row)
                    fh.flush()
                    elapsed = time.perf_counter() - start
                    log(f"[{k}/{len(todo)}] {row['pair']} M={row['m']} "
                        f"alpha=({row['alpha1']:g}, {row['alpha2']:g}) "
                        f"N=({row['n']:,}, {row['n2']:,}) "
                        f"{row['test']}: rate {row['rate']:.3f} "
                        f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}]  "
                        f"elapsed {_fmt_seconds(elapsed)}")
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    table = pd.read_csv(out).sort_values("cell", kind="stable").reset_index(drop=True)
    table.to_csv(out, index=False)
    return table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m dpcore.study",
        description="Type-I error and power of the DP homogeneity tests over the paper's grid.",
    )
    parser.add_argument("--out", type=Path, default=Path("calibration_study.csv"),
                        help="CSV to write (appended to and resumed; default %(default)s)")
    parser.add_argument("--html", type=Path, default=None,
                        help="HTML plot to write (default: the CSV name with .html)")
    parser.add_argument("--reps", type=int, default=1000, help="replicates R per cell")
    parser.add_argument("--boot", type=int, default=500, help="bootstrap replicates B")
    parser.add_argument("--seed", type=int, default=2022)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                        help="local cluster worker processes (default %(default)s)")
    parser.add_argument("--scheduler", default=None,
                        help="address of an existing Dask scheduler (instead of a local cluster)")
    parser.add_argument("--pairs", nargs="+", default=list(PAIRS), choices=list(PAIRS))
    parser.add_argument("--m", nargs="+", type=int, default=[86, 18, 9], choices=[86, 18, 9])
    parser.add_argument("--n", nargs="+", type=int, default=list(PAPER_N),
                        help="sizes N_A of histogram A (default: the paper's)")
    parser.add_argument("--ratio", nargs="+", type=float, default=[1.0],
                        help="N_B / N_A values (default 1: equal sizes, as in the paper)")
    parser.add_argument("--extended", action="store_true",
                        help="the extended null grid (Korea vs Korea, M in 9 18 86, all nine "
                             "alpha pairs of 1 0.1 0.01, N_A in 1e3 1e4 1e5, N_B/N_A in 1 10 "
                             "100); --pairs/--m/--n/--ratio/--alphas are then ignored"),
    parser.add_argument("--alphas", nargs="+", default=[f"{a},{b}" for a, b in PAPER_ALPHAS],
                        help="alpha1,alpha2 pairs (default: the paper's)")
    parser.add_argument("--tests", nargs="+", default=list(simulation.TESTS),
                        choices=list(simulation.TESTS))
    parser.add_argument("--max-cells", type=int, default=5000,
                        help="refuse grids larger than this (default %(default)s)")
    args = parser.parse_args(argv)
    try:
        alphas = [tuple(float(v) for v in a.split(",")) for a in args.alphas]
        if any(len(a) != 2 or min(a) <= 0 for a in alphas):
            raise ValueError
    except ValueError:
        parser.error("--alphas takes pairs like 0.1,0.05 of positive numbers")
    if args.reps < 1 or args.boot < 1 or args.workers < 1:
        parser.error("--reps, --boot and --workers must be positive")
    if min(args.n) < 1 or min(args.ratio) <= 0:
        parser.error("--n must be positive integers and --ratio positive numbers")
    if args.extended:
        cells = extended_grid(args.tests)
    else:
        cells = paper_grid(args.pairs, args.m, alphas, args.n, args.tests, args.ratio)
    if len(cells) > args.max_cells:
        parser.error(f"the grid has {len(cells):,} cells, more than --max-cells {args.max_cells:,}")
    table = run_study(cells, args.out, reps=args.reps, n_boot=args.boot, seed=args.seed,
                      workers=args.workers, scheduler=args.scheduler)
    html = args.html or args.out.with_suffix(".html")
    # Imported here, not at the top: dpcore is numerics only and must not pull in plotly
    # (dpviz) when imported; only this command, which writes the plot, needs it.
    import dpviz

    dpviz.homogeneity.study_figure(table).write_html(html, include_plotlyjs="cdn")
    print(f"Wrote {args.out} ({len(table)} cells) and {html}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
