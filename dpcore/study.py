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
from dpcore.errors import ArgumentError

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
    """The paper-grid cells the shipped files hold.

    The source's two tests everywhere, the normal-score test on the two pairs
    with an effect. Each part numbers its own cells from 0, as each shipped file
    does (``RESULTS_FILE``, ``SCORE_RESULTS_FILE``).

    Source: the grid of [SPJ22] section 4.2 (Figures 9-12); the normal-score
    test is beyond the source.

    Returns
    -------
    list of Cell
        960 cells: 720 of the bootstrap and chi-square tests over the three
        pairs, then 240 of the normal-score test over the two pairs with an
        effect.

    Examples
    --------
    >>> cells = shipped_paper_grid()
    >>> len(cells), cells[0].test, cells[-1].test, cells[-1].index
    (960, 'bootstrap', 'normal_score', 239)
    """
    return paper_grid(tests=("bootstrap", "chisq")) + paper_grid(pairs=SCORE_PAIRS,
                                                                 tests=("normal_score",))

#: The shipped results of the extended null grid: the first three tests in one file, the
#: calibrated test (twice the normal-score test's cost per replicate, so B = 200) in its
#: own file and seed; and the two commands that made them, one per line.
EXTENDED_FILE = "calibration_null_extended.csv"
EXTENDED_CALIBRATED_FILE = "calibration_null_extended_calibrated.csv"
EXTENDED_FILES = (EXTENDED_FILE, EXTENDED_CALIBRATED_FILE)
EXTENDED_COMMAND = (
    "python -m dpcore.study --extended --tests bootstrap chisq normal_score --reps 1000 "
    "--boot 500 --seed 2026 --workers 2 --out dpcore/data/calibration_null_extended.csv\n"
    "python -m dpcore.study --extended --tests calibrated --reps 1000 --boot 200 --seed 2027 "
    "--workers 2 --out dpcore/data/calibration_null_extended_calibrated.csv"
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

    Source: a setting of [SPJ22] Algorithm 2 (REJECTRATE) over the grid of
    section 4.2; unequal sizes N_B != N_A are beyond the source.

    Attributes
    ----------
    index : int
        Place in the full grid; cell i draws from the i-th stream spawned from
        the seed (see :func:`run_cell`).
    pair : str
        A key of `PAIRS`: ``"korea_vs_korea"``, ``"korea_vs_usa"`` or
        ``"central_vs_noncentral"``.
    m : int
        Number of bins M: 86, 18 or 9 (1-, 5- or 10-year age groups).
    alpha1 : float
        Privacy level of histogram A.
    alpha2 : float
        Privacy level of histogram B.
    n : int
        N_A, the size of histogram A.
    n2 : int
        N_B, the size of histogram B.
    test : str
        ``"bootstrap"``, ``"chisq"`` or ``"normal_score"``.
    key : tuple
        (pair, m, alpha1, alpha2, n, n2, test): the setting without its index,
        as a results file is matched against a grid.

    Examples
    --------
    >>> cell = Cell(0, "korea_vs_korea", 9, 1.0, 1.0, 1000, 1000, "chisq")
    >>> cell.key
    ('korea_vs_korea', 9, 1.0, 1.0, 1000, 1000, 'chisq')
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
        """The setting without its index: (pair, m, alpha1, alpha2, n, n2, test)."""
        return (self.pair, self.m, self.alpha1, self.alpha2, self.n, self.n2, self.test)


def paper_grid(
    pairs=tuple(PAIRS), ms=(86, 18, 9), alphas=PAPER_ALPHAS, ns=PAPER_N,
    tests=simulation.TESTS, ratios=(1,),
) -> list[Cell]:
    """The grid as a list of cells, in a fixed order (index = position).

    Each N in ``ns`` is N_A; N_B = ratio x N_A for each of ``ratios``.
    The order is that of ``itertools.product(pairs, ms, alphas, ns, ratios,
    tests)``.

    Source: [SPJ22] section 4.2 (Figures 9-12): the three pairs, M in
    {86, 18, 9}, alpha in {1, 0.1, 0.01} and Figure 12's (0.1, 0.05), N in
    {10^k, 5 x 10^k : k = 3..7}. The normal-score test and ratios other than 1
    are beyond the source.

    Parameters
    ----------
    pairs : iterable of str, optional
        Keys of `PAIRS` (default all three).
    ms : iterable of int, optional
        Numbers of bins, each 86, 18 or 9 (default all three).
    alphas : iterable of (float, float), optional
        Pairs (alpha_1, alpha_2) (default `PAPER_ALPHAS`). Not checked here.
    ns : iterable of int, optional
        Sizes N_A (default `PAPER_N`). Not checked here.
    tests : iterable of str, optional
        Tests (default all of ``simulation.TESTS``). Not checked here.
    ratios : iterable of float, optional
        N_B / N_A values, each > 0 (default ``(1,)``); N_B is rounded to an
        integer.

    Returns
    -------
    list of Cell
        One cell per combination, ``index`` counting from 0.

    Raises
    ------
    ValueError
        If a ratio is not positive, a pair is not a key of `PAIRS`, or an M is
        not 86, 18 or 9 (the message names `ratios`, `pairs` or `ms`).

    Examples
    --------
    >>> len(paper_grid())  # 3 pairs x 3 M x 4 alpha pairs x 10 N x 4 tests
    1440
    >>> paper_grid(pairs=("korea_vs_usa",), ms=(9,), alphas=((0.1, 0.05),), ns=(1000,),
    ...            tests=("chisq",), ratios=(1, 10))[1]
    Cell(index=1, pair='korea_vs_usa', m=9, alpha1=0.1, alpha2=0.05, n=1000, n2=10000, test='chisq')
    >>> paper_grid(ms=(20,))
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `ms`: M must be one of [86, 18, 9] (age groups), got 20.
    """
    for r in ratios:
        if not float(r) > 0:
            raise ArgumentError("`{name}`: N_B / N_A must be positive, got {value!r}.",
                                name="ratios", value=r)
    for name in pairs:
        if name not in PAIRS:
            raise ArgumentError("`{name}`: unknown pair {value!r}; choose from {choices}.",
                                name="pairs", value=name, choices=list(PAIRS))
    for m in ms:
        if m not in WIDTH_OF_M:
            raise ArgumentError("`{name}`: M must be one of {choices} (age groups), got {value}.",
                                name="ms", choices=list(WIDTH_OF_M), value=m)
    combos = itertools.product(pairs, ms, alphas, ns, ratios, tests)
    return [
        Cell(i, pair, int(m), float(a1), float(a2), int(n), int(round(n * r)), test)
        for i, (pair, m, (a1, a2), n, r, test) in enumerate(combos)
    ]


def extended_grid(tests=simulation.TESTS) -> list[Cell]:
    """The extended null grid: Korea vs Korea over M, all nine alpha pairs, N_A and N_B / N_A.

    M in {9, 18, 86}, (alpha_1, alpha_2) in {1, 0.1, 0.01}^2, N_A in
    {10^3, 10^4, 10^5} and N_B / N_A in {1, 10, 100}.

    Source: beyond the source: this project's extension of the type-I error
    study of [SPJ22] section 4.2 (Figures 9, 10 and 12(a)) to unequal privacy
    levels and sizes.

    Parameters
    ----------
    tests : iterable of str, optional
        Tests (default all of ``simulation.TESTS``).

    Returns
    -------
    list of Cell
        243 cells per test, ``index`` counting from 0.

    Examples
    --------
    >>> cells = extended_grid(tests=("bootstrap",))
    >>> len(cells), cells[-1].m, cells[-1].n, cells[-1].n2
    (243, 86, 100000, 10000000)
    """
    return paper_grid(("korea_vs_korea",), (9, 18, 86), EXTENDED_ALPHAS, EXTENDED_N, tests,
                      EXTENDED_RATIOS)


def _results_source(name: str = RESULTS_FILE):
    import importlib.resources

    return importlib.resources.files("dpcore").joinpath("data", name)


def results_stamp(name: str | None = None) -> float | None:
    """Modification time of a shipped results file (None if absent), for caches.

    Without ``name`` the latest of the paper grid's two files.

    Source: none (file bookkeeping of this project).

    Parameters
    ----------
    name : str or tuple of str, optional
        A file name in ``dpcore/data`` such as `RESULTS_FILE`, `SCORE_RESULTS_FILE`
        or `EXTENDED_FILE`, or a tuple of them (the latest of those shipped, e.g.
        `EXTENDED_FILES`); None (default) for the paper grid's two files.

    Returns
    -------
    float or None
        The file's modification time in seconds since the epoch, or None if no
        such file is shipped.

    Examples
    --------
    >>> results_stamp(RESULTS_FILE) is not None
    True
    >>> results_stamp("no_such_file.csv") is None
    True
    """
    if name is None or isinstance(name, tuple):
        names = (RESULTS_FILE, SCORE_RESULTS_FILE) if name is None else name
        stamps = [results_stamp(n) for n in names]
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

    Source: this project's run of [SPJ22] Algorithm 2 over the grid of section
    4.2 (the commands `PAPER_COMMAND` and `SCORE_COMMAND`: R = 1000, B = 500).

    Returns
    -------
    pandas.DataFrame or None
        One row per cell with the columns `COLUMNS` (pair, M, alphas, sizes,
        test, rate and Wilson interval, ...); None if neither file is shipped.

    Examples
    --------
    >>> table = load_results()
    >>> table.shape
    (960, 21)
    >>> sorted(table["test"].unique())
    ['bootstrap', 'chisq', 'normal_score']
    """
    parts = [t for t in (_load(RESULTS_FILE), _load(SCORE_RESULTS_FILE)) if t is not None]
    return pd.concat(parts, ignore_index=True) if parts else None


def load_extended() -> pd.DataFrame | None:
    """The shipped results of the extended null grid (None if neither file is shipped).

    The first three tests come from ``EXTENDED_FILE``, the calibrated test from
    ``EXTENDED_CALIBRATED_FILE`` (each file's ``cell`` numbers its own grid).

    Source: this project's runs of the extended grid (:func:`extended_grid`,
    beyond the source; the commands `EXTENDED_COMMAND`: R = 1000, B = 500, and
    B = 200 for the calibrated test).

    Returns
    -------
    pandas.DataFrame or None
        One row per cell with the columns `COLUMNS`; None if neither file is
        shipped.

    Examples
    --------
    >>> table = load_extended()
    >>> table.shape
    (972, 21)
    >>> set(table["pair"])
    {'korea_vs_korea'}
    """
    parts = [t for t in (_load(name) for name in EXTENDED_FILES) if t is not None]
    return pd.concat(parts, ignore_index=True) if parts else None


#: The band in which a test's measured type-I error counts as keeping the 5% level (the
#: calibration page's summary; the compare page's verdicts come from the intervals, see
#: :func:`size_verdict`).
LEVEL_BAND = (0.025, 0.075)

#: The nominal level the measured sizes are judged against.
LEVEL = 0.05

#: A simulated setting counts as near a query when, on every axis (M, each alpha, each
#: N), they differ by at most this factor: the grids step by a factor 5 or 10 in alpha
#: and N, so a query within a factor 2 of a cell lies in that cell's own part of the
#: step, nearer to it than to any other; farther, the page offers to simulate the query.
NEAR_FACTOR = 2.0


def size_verdict(ci_low: float, ci_high: float, level: float = LEVEL) -> str:
    """A test's verdict at a setting from the 95% interval of its measured size.

    ``"liberal"`` when the whole interval lies above ``level`` (its small p-values
    are not to be trusted), ``"conservative"`` when it lies below (it keeps its level
    but rejects less often than ``level`` when nothing differs), else ``"keeps"``.

    Source: this project's rule (beyond the source), one-sided on the interval of
    the measured type-I error of [SPJ22] Algorithm 2.

    Parameters
    ----------
    ci_low : float
        The lower end of the 95% interval of the measured rejection rate under the null.
    ci_high : float
        Its upper end.
    level : float, optional
        The nominal level (default 0.05).

    Returns
    -------
    str
        ``"liberal"``, ``"conservative"`` or ``"keeps"``.

    Examples
    --------
    >>> size_verdict(0.068, 0.091), size_verdict(0.0003, 0.006), size_verdict(0.047, 0.076)
    ('liberal', 'conservative', 'keeps')
    """
    if ci_low > level:
        return "liberal"
    if ci_high < level:
        return "conservative"
    return "keeps"


@dataclass(frozen=True)
class MeasuredSize:
    """The tests' measured type-I errors at the simulated setting nearest to a query.

    ``m``, ``alpha1``, ``alpha2``, ``n1``, ``n2``: the simulated setting, written in
    the query's order (A first; ``swapped`` says the grid holds it as B, A);
    ``exact``: the query is that setting; ``inside``: the query lies within the
    simulated range on every axis (M, each alpha, each N and N_B / N_A), so the
    nearest setting is a neighbour rather than an extrapolation; ``rates``:
    test -> (rate, ci_low, ci_high), Korea vs Korea (both histograms from the same
    population), R replicates each; ``distance``: the largest |log10| difference
    between the query and the setting on one axis (``near`` and ``factor`` read it).

    Source: this project's lookup in the shipped results of [SPJ22] Algorithm 2
    (the paper grid's Korea vs Korea rows and the extended grid). Returned by
    :func:`measured_size`.

    Attributes
    ----------
    m : int
        Number of bins M of the simulated setting.
    alpha1 : float
        Its privacy level of histogram A (in the query's order).
    alpha2 : float
        Its privacy level of histogram B.
    n1 : int
        Its size N_A.
    n2 : int
        Its size N_B.
    swapped : bool
        True if the grid holds the setting as (B, A).
    exact : bool
        True if the query is the simulated setting itself.
    inside : bool
        True if the query lies within the simulated range on every axis.
    reps : int
        Replicates R behind each rate.
    rates : dict
        test name -> (rate, ci_low, ci_high), for each test simulated there.
    distance : float
        The largest |log10(query / setting)| over the axes M, alpha_1, alpha_2,
        N_A, N_B (0 when exact).
    near : bool
        Inside the simulated range and within `NEAR_FACTOR` on every axis
        (read-only property).
    factor : float
        10 ** distance (read-only property).

    Examples
    --------
    >>> size = measured_size(18, 0.1, 0.1, 10_000, 10_000)
    >>> size.exact, size.reps, sorted(size.rates)
    (True, 1000, ['bootstrap', 'calibrated', 'chisq', 'normal_score'])
    >>> size.rates["chisq"][0]
    0.873
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
    distance: float = 0.0

    @property
    def near(self) -> bool:
        """True when the query is inside the simulated range and within a factor
        `NEAR_FACTOR` of this setting on every axis."""
        return bool(self.inside and self.distance <= np.log10(NEAR_FACTOR) + 1e-9)

    @property
    def factor(self) -> float:
        """The largest factor between the query and this setting on one axis (1 if exact)."""
        return float(10 ** self.distance)

    def verdict(self, test: str) -> str | None:
        """:func:`size_verdict` of ``test``'s measured size here (None: not simulated).

        Parameters
        ----------
        test : str
            A test name, a key of `rates`.

        Returns
        -------
        str or None
            ``"liberal"``, ``"conservative"`` or ``"keeps"``; None if `test` was not
            simulated at this setting.

        Examples
        --------
        >>> size = measured_size(18, 0.1, 0.1, 10_000, 10_000)
        >>> size.verdict("chisq"), size.verdict("other")
        ('liberal', None)
        """
        if test not in self.rates:
            return None
        return size_verdict(self.rates[test][1], self.rates[test][2])

    def keeps_level(self, test: str, band=LEVEL_BAND) -> bool | None:
        """Whether ``test``'s measured type-I error lies within ``band`` (None: not simulated).

        Parameters
        ----------
        test : str
            A test name, a key of `rates`.
        band : tuple of (float, float), optional
            The closed band (low, high) for the rate (default `LEVEL_BAND`,
            0.025 to 0.075 around the 5% level).

        Returns
        -------
        bool or None
            True if the rate lies in the band, False if not, None if `test` was
            not simulated at this setting.

        Examples
        --------
        >>> size = measured_size(18, 0.1, 0.1, 10_000, 10_000)
        >>> size.keeps_level("bootstrap"), size.keeps_level("chisq"), size.keeps_level("other")
        (True, False, None)
        """
        if test not in self.rates:
            return None
        return band[0] <= self.rates[test][0] <= band[1]


def _null_table() -> pd.DataFrame | None:
    """Every simulated null setting: the paper grid's Korea vs Korea rows and the
    extended grid, one row per (setting, test). Read once per version of the files."""
    stamps = []
    for name in (RESULTS_FILE, SCORE_RESULTS_FILE) + EXTENDED_FILES:
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


def measured_size(m, alpha1, alpha2, n1, n2, *, table: pd.DataFrame | None = None,
                  tests=None):
    """The measured type-I errors at the simulated setting nearest to (M, alpha, N).

    Nearest in the sum over M, alpha_1, alpha_2, N_A and N_B of the absolute
    differences of log10 values, with A and B exchanged where that is nearer (the
    grid holds N_B >= N_A). ``table`` defaults to the shipped grids. Returns a
    :class:`MeasuredSize`, or None when no grid is shipped. Sizes below 1 are
    taken as 1.

    Source: this project's lookup (beyond the source) in the shipped type-I
    error results of [SPJ22] Algorithm 2: the paper grid's Korea vs Korea rows
    (section 4.2, Figures 9-10 and 12(a)) and the extended grid.

    Parameters
    ----------
    m : int
        Number of bins M of the query.
    alpha1 : float
        Privacy level of histogram A.
    alpha2 : float
        Privacy level of histogram B.
    n1 : int
        Size N_A.
    n2 : int
        Size N_B.
    table : pandas.DataFrame, optional
        Keyword-only: results with the columns of `COLUMNS` (at least ``m``,
        ``alpha1``, ``alpha2``, ``n``, ``n2``, ``test``, ``rate``, ``ci_low``,
        ``ci_high``, ``reps``), null rows only (a given table is not filtered);
        default the shipped grids' Korea vs Korea rows (:func:`load_results` and
        :func:`load_extended`). The query is not validated.
    tests : iterable of str, optional
        Keyword-only: consider only settings where every one of these tests was
        simulated (default: every setting).

    Returns
    -------
    MeasuredSize or None
        The nearest simulated setting and its tests' rates; None if there is no
        table or it is empty.

    Examples
    --------
    >>> size = measured_size(18, 0.1, 1, 100_000, 10_000)
    >>> size.exact, size.swapped, size.alpha1, size.n1
    (True, True, 0.1, 100000)
    >>> size = measured_size(20, 0.1, 0.1, 12_000, 120_000)  # not simulated: a neighbour
    >>> size.exact, size.inside, size.m, size.n1, size.n2, size.near, round(size.factor, 2)
    (False, True, 18, 10000, 100000, True, 1.2)
    >>> measured_size(86, 0.1, 0.1, 2.2e5, 2.2e5).near  # over a factor 2 from every N
    False
    """
    table = _null_table() if table is None else table
    if table is None or table.empty:
        return None
    query = np.log10(np.maximum([m, alpha1, alpha2, n1, n2], [1, 1e-300, 1e-300, 1, 1]))
    if tests is not None:
        tests = set(tests)
        has_all = table.groupby(_SETTING)["test"].transform(lambda x: tests <= set(x))
        table = table[has_all.astype(bool)]
        if table.empty:
            return None
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
    distance = 0.0 if exact else float(np.abs(grid[best] - q).max())
    return MeasuredSize(int(key[0]), a1, a2, s1, s2, swapped, exact, inside,
                        int(here["reps"].iloc[0]), rates, distance)


def cell_probabilities(pair: str, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Bin probabilities of the pair's two populations at M bins.

    Source: [SPJ22] Algorithm 2 line 3, p_1 and p_2 the proportions of the
    populations A and B (section 4.2, Figure 7), in age groups of 1, 5 or 10
    years for M = 86, 18 or 9.

    Parameters
    ----------
    pair : str
        A key of `PAIRS`.
    m : int
        Number of bins M: 86, 18 or 9.

    Returns
    -------
    tuple of (numpy.ndarray, numpy.ndarray)
        p_1 and p_2, each of length M and summing to 1.

    Raises
    ------
    KeyError
        If `pair` is not a key of `PAIRS` or `m` not one of 86, 18, 9.

    Examples
    --------
    >>> import numpy as np
    >>> p_korea, p_usa = cell_probabilities("korea_vs_usa", 9)
    >>> np.round(p_korea, 3)
    array([0.077, 0.092, 0.131, 0.133, 0.16 , 0.167, 0.13 , 0.071, 0.039])
    """
    a, b, _ = PAIRS[pair]
    width = WIDTH_OF_M[m]
    return tuple(
        datasets.proportions(datasets.age_histogram(pop, width).to_numpy()) for pop in (a, b)
    )


def run_cell(cell: Cell, *, reps: int, n_boot: int, seed: int, n_cells: int,
             level: float = 0.05) -> dict:
    """Run one cell with its own stream; returns one CSV row.

    The stream is ``np.random.SeedSequence(seed).spawn(n_cells)[cell.index]``,
    so the row depends on the cell and the seed alone.

    Source: [SPJ22] Algorithm 2 (REJECTRATE) at one setting of section 4.2,
    through :func:`dpcore.simulation.reject_rate`.

    Parameters
    ----------
    cell : Cell
        The setting.
    reps : int
        Replicates R (keyword-only).
    n_boot : int
        Bootstrap replicates B (keyword-only).
    seed : int
        Seed of the whole grid (keyword-only).
    n_cells : int
        Number of cells in the full grid, greater than ``cell.index``
        (keyword-only).
    level : float, optional
        Test level (keyword-only; default 0.05).

    Returns
    -------
    dict
        One row with the keys `COLUMNS`: the setting, ``rate``, ``ci_low``,
        ``ci_high``, ``rejections``, ``undefined``, ``reps``, ``n_boot`` ("" for
        the chi-square test), ``level``, ``seed`` and the run time ``seconds``.

    Raises
    ------
    ValueError
        If an argument is refused by :func:`dpcore.simulation.reject_rate`.

    Examples
    --------
    >>> cell = paper_grid(pairs=("korea_vs_usa",), ms=(9,), alphas=((1.0, 1.0),), ns=(1000,),
    ...                   tests=("chisq",))[0]
    >>> row = run_cell(cell, reps=20, n_boot=20, seed=1, n_cells=1)
    >>> row["pair"], row["test"], row["rejections"], row["rate"]
    ('korea_vs_usa', 'chisq', 20, 1.0)
    """
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
    """Run the cells not yet in ``out`` on Dask; returns the table in grid order.

    Rows are appended to ``out`` as cells finish; a rerun skips the cells
    already there, after checking that the file was made with the same grid,
    R, B and seed. At the end the file is rewritten sorted by ``cell``.

    Source: [SPJ22] Algorithm 2 (REJECTRATE) over the grid of section 4.2, one
    :func:`run_cell` per cell; the Dask scheduling is this project's.

    Parameters
    ----------
    cells : list of Cell
        The cells to run (e.g. :func:`paper_grid`).
    out : pathlib.Path
        CSV file to append to and resume from; its folder is created.
    reps : int
        Replicates R per cell (keyword-only).
    n_boot : int
        Bootstrap replicates B (keyword-only).
    seed : int
        Seed of the grid (keyword-only).
    workers : int, optional
        Worker processes of the local cluster (keyword-only; default 2).
    scheduler : str, optional
        Address of an existing Dask scheduler, instead of a local cluster
        (keyword-only).
    n_cells : int, optional
        Number of cells of the full grid, for the streams (keyword-only;
        default ``len(cells)``).
    log : callable, optional
        Receives each progress message (keyword-only; default ``print``).

    Returns
    -------
    pandas.DataFrame
        The whole content of `out`, sorted by ``cell``.

    Raises
    ------
    SystemExit
        If `out` holds results of another grid or of other R, B or seed.

    Examples
    --------
    Not run here: it starts a Dask cluster (use ``python -m dpcore.study``).

    >>> cells = paper_grid(pairs=("korea_vs_korea",), ms=(9,), ns=(1000,))
    >>> len(cells)
    16
    >>> table = run_study(cells, Path("small.csv"), reps=100, n_boot=100, seed=1)  # doctest: +SKIP
    """
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
    """The command ``python -m dpcore.study``: run a grid, write its CSV and an HTML plot.

    Parses the options (``--help`` lists them), builds :func:`paper_grid` or
    :func:`extended_grid`, runs it with :func:`run_study` and writes the plot of
    ``dpviz.homogeneity.study_figure``.

    Source: [SPJ22] section 4.2 (the grid and Figures 9-12), as in
    :func:`run_study`.

    Parameters
    ----------
    argv : list of str, optional
        The command-line arguments; None (default) reads ``sys.argv``.

    Returns
    -------
    int
        0 on success.

    Raises
    ------
    SystemExit
        With code 2 for invalid options (argparse prints the message to
        stderr), and as :func:`run_study` does.

    Examples
    --------
    A grid larger than ``--max-cells`` is refused before anything runs:

    >>> import contextlib, io
    >>> err = io.StringIO()
    >>> with contextlib.redirect_stderr(err):
    ...     main(["--max-cells", "10"])
    Traceback (most recent call last):
        ...
    SystemExit: 2
    >>> print(err.getvalue().splitlines()[-1])
    python -m dpcore.study: error: the grid has 1,440 cells, more than --max-cells 10
    """
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
