"""Privacy-utility planning: how much data and how much privacy a test needs.

Son, Park & Jung (2022), section 5, propose the power of the parametric
bootstrap test (Algorithm 1) as a measure of the utility of a DP histogram
mechanism. This module turns Algorithm 2 (REJECTRATE,
:func:`dpcore.simulation.reject_rate`) into the questions of someone who must
choose a privacy level:

- :func:`required_sample_size`: the smallest N per histogram at which the test
  reaches a target power at privacy levels (alpha_1, alpha_2);
- :func:`strongest_privacy`: the smallest alpha (strongest privacy) at which
  the test still reaches the target power with N records per histogram;
- :func:`frontier`: the first question over a grid of alpha, for the bootstrap
  test and for the naive chi-square test, with each test's type-I error at the
  N it needs (the naive test does not hold its level under DP, Figure 9).

Assumptions and method
----------------------
*Monotone power.* Power is taken to be non-decreasing in N and in alpha (more
data, less noise). This is not a theorem for a Monte Carlo calibrated test, but
it is what Figures 10-12 show, and ``tests/test_planner.py`` checks it on the
paper's populations. The searches rely on it only near the crossing of the
target.

*Search.* On a log scale: bracketing by steps of ``factor`` from ``start``,
then bisection of the bracket [a, b] (power(a) < target <= power(b)) until
b/a <= 1 + ``rtol``. Values are rounded to three significant digits, so every
simulated setting is a *cell* that later queries reuse (see :class:`CellCache`)
and the search ends. With ``batch`` = k > 1 each round simulates k points at
once (k-section), which an ``executor`` can run in parallel.

*Monte Carlo error.* Each power is a share of ``reps`` replicates with a Wilson
interval at ``confidence``. The estimate is the log-linear interpolation of
the estimated power between a and b. The interval (low, high) runs from the
largest simulated value at or below the estimate whose power interval lies
wholly below the target to the smallest at or above it whose interval lies
wholly at or above the target, each end refined by bisection to ``rtol``.
Under monotone power it holds the true crossing whenever the Wilson
intervals at its two ends hold.

*Randomness.* Cell (N, alpha_1, alpha_2, test) draws from a stream derived
from ``rng``'s seed sequence and from the cell alone, so a cell's result does
not depend on the search that asked for it, on the order of evaluation or on
the executor; the same seed gives the same plan.

The bootstrap test's power depends on B (``n_boot``, the p-value's
resolution); plans are for the B given.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import optimize

from dpcore import simulation
from dpcore.errors import ArgumentError
from dpcore.validation import (
    integer_in_range,
    one_of,
    positive_integer,
    positive_range,
    positive_scalar,
    probabilities,
    probability,
    probability_pair,
    sample_sizes,
)

__all__ = [
    "CellCache",
    "CellsMissing",
    "NOT_REACHED",
    "PrivacyPlan",
    "REACHED",
    "SampleSizePlan",
    "TYPICAL_CELLS",
    "UNDETERMINED",
    "alpha_grid",
    "frontier",
    "interval_verdict",
    "plan_verdict",
    "power_verdict",
    "required_sample_size",
    "shift_distribution",
    "strongest_privacy",
    "tilt_to_distance",
    "total_variation",
]

#: Search ranges: N per histogram, and alpha.
N_RANGE = (100, 10**8)
ALPHA_RANGE = (1e-3, 10.0)
#: Safety cap on the cells one search may simulate.
MAX_CELLS = 80

_STATUSES = ("found", "at_lower_bound", "unreachable", "stopped")


# ---------------------------------------------------------------------------
# Effects: an alternative built from one distribution
# ---------------------------------------------------------------------------


def total_variation(p, q) -> float:
    """Total-variation distance 1/2 sum |p_j - q_j| between two distributions.

    Source: beyond the source: the size of an effect for the planner (this
    project's; [SPJ22] describes its effects only as large or medium, section
    4.2).

    Parameters
    ----------
    p : array_like
        Bin probabilities of the first distribution.
    q : array_like
        Bin probabilities of the second, over the same number of bins.

    Returns
    -------
    float
        The distance, from 0 (equal) to 1 (disjoint supports).

    Raises
    ------
    ValueError
        If `p` or `q` is not a probability vector, or they differ in length.

    Examples
    --------
    >>> round(total_variation([0.5, 0.5], [0.2, 0.8]), 4)
    0.3
    >>> total_variation([0.5, 0.5], [1.0])
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `q` must be a 1-D array of at least 2 probabilities.
    """
    p, q = probability_pair(p, q, names=("p", "q"))
    return float(0.5 * np.abs(p - q).sum())


def shift_distribution(p, k: int) -> np.ndarray:
    """p moved k bins to the right (k < 0: to the left); the ends are open.

    For age histograms, k > 0 makes the population k bins older: bin j takes
    the mass of bin j - k, and the mass that passes the last bin (an open
    "85 and over") stays there; the first k bins become empty.

    Source: beyond the source: an alternative built by this project for the
    planner.

    Parameters
    ----------
    p : array_like
        Bin probabilities, M >= 2 bins.
    k : int
        Shift in bins, -(M - 1) <= k <= M - 1 (an integer-valued float passes).

    Returns
    -------
    numpy.ndarray
        Float array of length M summing to 1.

    Raises
    ------
    ValueError
        If `p` is not a probability vector or `k` is out of range.

    Examples
    --------
    >>> shift_distribution([0.5, 0.3, 0.2], 1)
    array([0. , 0.5, 0.5])
    >>> shift_distribution([0.5, 0.3, 0.2], -1)
    array([0.8, 0.2, 0. ])
    """
    p = probabilities(p, "p")
    m = p.size
    k = integer_in_range(k, "k", minimum=-(m - 1), maximum=m - 1)
    idx = np.clip(np.arange(m) + k, 0, m - 1)
    return np.bincount(idx, weights=p, minlength=m)


def _tilted(p: np.ndarray, theta: float, t: np.ndarray) -> np.ndarray:
    logw = np.where(p > 0, np.log(np.where(p > 0, p, 1.0)) + theta * t, -np.inf)
    logw -= logw.max()
    w = np.exp(logw)
    return w / w.sum()


def tilt_to_distance(p, distance: float, *, direction: int = 1) -> np.ndarray:
    """The exponential tilt q_j ∝ p_j exp(theta t_j) of p at total-variation ``distance``.

    t_j = j / (M - 1) (``direction`` = 1: mass moves to the upper bins, e.g. an
    older population) or 1 - j / (M - 1) (``direction`` = -1). The tilts are
    ordered by likelihood ratio, so the distance grows with theta from 0 to
    1 - p_end (all mass in the last non-empty bin, p_end its probability);
    theta is solved for with :func:`scipy.optimize.brentq`.

    Source: beyond the source: an alternative built by this project for the
    planner.

    Parameters
    ----------
    p : array_like
        Bin probabilities, M >= 2 bins.
    distance : float
        Target total-variation distance, 0 < distance < 1 - p_end.
    direction : {1, -1}, optional
        Keyword-only: 1 (default) tilts towards the upper bins, -1 towards the
        lower ones.

    Returns
    -------
    numpy.ndarray
        Float array q of length M summing to 1, at total-variation `distance`
        from `p` (to the solver's tolerance).

    Raises
    ------
    ValueError
        If `p` is not a probability vector, `direction` is not 1 or -1, or
        `distance` is not a finite number > 0 or is not below 1 - p_end.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> q = tilt_to_distance(p, 0.1)
    >>> np.round(q, 4)
    array([0.1401, 0.1652, 0.1947, 0.2295, 0.2705])
    >>> round(total_variation(p, q), 6)
    0.1
    >>> tilt_to_distance(p, 0.9)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `distance` must be below 0.8: a tilt of this distribution
    cannot move further than putting all its mass in its last bin, got 0.9.
    """
    p = probabilities(p, "p")
    if direction not in (1, -1):
        raise ArgumentError("`{name}` must be 1 or -1, got {value!r}.", name="direction",
                            value=direction)
    t = np.linspace(0.0, 1.0, p.size)
    if direction == -1:
        t = t[::-1]
    end = p[np.flatnonzero(p > 0)[np.argmax(t[p > 0])]]
    top = 1.0 - end
    distance = positive_scalar(distance, "distance")
    if distance >= top:
        raise ArgumentError(
            "`{name}` must be below {top:.4g}: a tilt of this distribution cannot move "
            "further than putting all its mass in its last bin, got {value:g}.",
            name="distance", top=top, value=distance,
        )

    def gap(theta):
        return 0.5 * np.abs(_tilted(p, theta, t) - p).sum() - distance

    hi = 1.0
    while gap(hi) < 0:
        hi *= 2.0
    return _tilted(p, optimize.brentq(gap, 0.0, hi, xtol=1e-12, rtol=1e-12), t)


# ---------------------------------------------------------------------------
# Cells: simulated settings, their streams and their cache
# ---------------------------------------------------------------------------


class CellCache:
    """A bounded, thread-safe store of simulated cells, least recently used out first.

    Pass one to several planner calls (or keep one per dashboard server) to
    reuse cells: a key holds the populations, the cell, the simulation
    settings and the seed, so a stored result is exactly what simulating
    again would give.

    Source: none (a cache of this project's; a cell is one setting of [SPJ22]
    Algorithm 2).

    Parameters
    ----------
    max_entries : int, optional
        Most cells kept (default 20,000); the least recently used go first.

    Attributes
    ----------
    max_entries : int
        As given.

    Methods
    -------
    get(key)
        The stored value, or None.
    put(key, value)
        Store a value.

    Raises
    ------
    ValueError
        If `max_entries` is not a positive integer.

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> q = tilt_to_distance(p, 0.1)
    >>> cache = CellCache()
    >>> first = required_sample_size(p, q, 1.0, 1.0, test="chisq", reps=100, cache=cache, rng=1)
    >>> again = required_sample_size(p, q, 1.0, 1.0, test="chisq", reps=100, cache=cache, rng=1)
    >>> first.simulated, again.simulated, again.recalled, len(cache)
    (15, 0, 15, 15)
    >>> small = CellCache(max_entries=2)
    >>> small.put("a", 1); small.put("b", 2); small.put("c", 3)
    >>> len(small), small.get("a"), small.get("c")
    (2, None, 3)
    """

    def __init__(self, max_entries: int = 20_000):
        self.max_entries = positive_integer(max_entries, "max_entries")
        self._data: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        """The value stored under `key` (now the most recently used), or None.

        Parameters
        ----------
        key : hashable
            A cell's key.

        Returns
        -------
        object or None
            The stored value, None if the key is not held.
        """
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
            return None

    def put(self, key, value) -> None:
        """Store `value` under `key`, dropping the least recently used beyond `max_entries`.

        Parameters
        ----------
        key : hashable
            A cell's key.
        value : object
            Its result (the planner stores the number of rejections).

        Returns
        -------
        None
        """
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.max_entries:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)


class CellsMissing(LookupError):
    """A search called with ``simulate=False`` needs cells its cache does not hold.

    ``missing`` is how many the search asked for at the point it stopped (more may follow:
    a search's next cells depend on the powers of the ones before).

    Source: none (this project's cache protocol, see :class:`CellCache`).

    Parameters
    ----------
    missing : int
        Number of cells the search asked for and did not find.

    Attributes
    ----------
    missing : int
        As given.

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> q = tilt_to_distance(p, 0.1)
    >>> required_sample_size(p, q, 1.0, 1.0, simulate=False)
    Traceback (most recent call last):
        ...
    dpcore.planner.CellsMissing: 1 cell(s) are not in the cache; search with simulate=True.
    """

    def __init__(self, missing: int):
        super().__init__(f"{missing} cell(s) are not in the cache; search with simulate=True.")
        self.missing = missing


def _digest(p: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(p, dtype=float).tobytes()).hexdigest()


def _bits(x: float) -> int:
    return int(np.float64(x).view(np.uint64))


def _simulate_cell(p1, p2, n, alpha1, alpha2, test, reps, n_boot, level, entropy, spawn_key,
                   progress=None) -> int:
    """Rejections of one cell, from its own stream (module level: executors pickle it)."""
    rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=spawn_key))
    res = simulation.reject_rate(p1, p2, int(n), alpha1, alpha2, test=test, reps=reps,
                                 n_boot=n_boot, level=level, rng=rng, progress=progress)
    return res.rejections


class _Cells:
    """Simulates (or recalls) cells of one comparison; counts and reports progress."""

    def __init__(self, p1, p2, *, reps, n_boot, level, confidence, rng, cache, executor,
                 progress, expected, simulate=True):
        self.p1, self.p2 = probability_pair(p1, p2)
        self.p0 = (self.p1 + self.p2) / 2
        self.reps = positive_integer(reps, "reps", maximum=simulation.MAX_REPS)
        self.n_boot = positive_integer(n_boot, "n_boot", maximum=simulation.MAX_BOOT)
        self.level = probability(level, "level")
        self.confidence = probability(confidence, "confidence")
        base = np.random.default_rng(rng).bit_generator.seed_seq
        self.entropy, self.spawn_key = base.entropy, tuple(base.spawn_key)
        self.cache = cache if cache is not None else CellCache()
        if not isinstance(self.cache, CellCache):
            raise ArgumentError("`{name}` must be a dpcore.planner.CellCache (or None).",
                                name="cache")
        if executor is not None and not callable(getattr(executor, "submit", None)):
            raise ArgumentError("`{name}` must have a submit(fn, *args) method "
                                "(a concurrent.futures executor or a dask.distributed Client).",
                                name="executor")
        self.executor = executor
        self.progress = progress
        self.expected = expected
        if not isinstance(simulate, bool):
            raise ArgumentError("`{name}` must be True or False.", name="simulate")
        self.simulate = simulate
        self.simulated = 0
        self.recalled = 0
        self.done = 0.0
        self.shown = 0.0
        self.digests = {id(self.p1): _digest(self.p1), id(self.p2): _digest(self.p2),
                        id(self.p0): _digest(self.p0)}

    def _args(self, cell):
        n, a1, a2, test, null = cell
        pa, pb = (self.p0, self.p0) if null else (self.p1, self.p2)
        key = (self.digests[id(pa)], self.digests[id(pb)], n, _bits(a1), _bits(a2), test,
               self.reps, self.n_boot if test in simulation.BOOTSTRAP_TESTS else 0, _bits(self.level),
               self.entropy, self.spawn_key)
        spawn = (*self.spawn_key, int(n), _bits(a1), _bits(a2),
                 simulation.TESTS.index(test), int(null))
        return key, (pa, pb, n, a1, a2, test, self.reps, self.n_boot, self.level,
                     self.entropy, spawn)

    def _tick(self, label: str, fraction: float = 1.0) -> None:
        if self.progress is not None:
            # The expected cell count is an estimate: when a search needs more, the total grows
            # with the work done, and the fraction shown holds still rather than step back.
            total = max(self.expected, self.done + 1.0)
            self.shown = max(self.shown, min(0.99, (self.done + fraction) / total))
            self.progress(self.shown, label)

    def rejections(self, cells: list[tuple]) -> list[int]:
        """Rejection counts of cells (n, alpha1, alpha2, test, null), simulating the new ones."""
        out: dict[int, int] = {}
        todo = []
        for i, cell in enumerate(cells):
            key, args = self._args(cell)
            hit = self.cache.get(key)
            if hit is None:
                todo.append((i, key, args))
            else:
                out[i] = hit
                self.recalled += 1
        if todo and not self.simulate:
            raise CellsMissing(len(todo))
        if self.executor is not None and len(todo) > 1:
            futures = [(i, key, self.executor.submit(_simulate_cell, *args))
                       for i, key, args in todo]
            for i, key, fut in futures:
                out[i] = int(fut.result())
                self.cache.put(key, out[i])
                self.done += 1
                self._tick(_label(cells[i]), 0.0)
        else:
            for i, key, args in todo:
                label = _label(cells[i])
                out[i] = _simulate_cell(*args,
                                        progress=lambda f, _, lab=label: self._tick(lab, f))
                self.cache.put(key, out[i])
                self.done += 1
        self.simulated += len(todo)
        return [out[i] for i in range(len(cells))]

    def row(self, cell, rejections: int) -> dict:
        n, a1, a2, test, null = cell
        low, high = simulation.binomial_interval(rejections, self.reps, self.confidence)
        return dict(n=int(n), alpha1=a1, alpha2=a2, test=test,
                    hypothesis="null" if null else "alternative",
                    power=rejections / self.reps, ci_low=low, ci_high=high,
                    rejections=rejections, reps=self.reps,
                    n_boot=self.n_boot if test in simulation.BOOTSTRAP_TESTS else np.nan)


def _label(cell) -> str:
    """A cell's progress label: "quantity=<power|type1> test=<test> n=<N> alpha1=… alpha2=…"."""
    n, a1, a2, test, null = cell
    return (f"quantity={'type1' if null else 'power'} test={test} n={int(n)} "
            f"alpha1={a1:g} alpha2={a2:g}")


def _snap(x: float) -> float:
    """x rounded to three significant digits."""
    return float(f"{x:.3g}")


def _snap_int(x: float) -> int:
    return max(1, int(round(_snap(x))))


# ---------------------------------------------------------------------------
# The monotone search
# ---------------------------------------------------------------------------


@dataclass
class _Outcome:
    status: str
    estimate: float
    low: float
    high: float
    points: dict = field(default_factory=dict)  # x -> (power, ci_low, ci_high)


def _search(evaluate, *, lo, hi, start, snap, target, rtol, factor=10.0, batch=1,
            max_cells=MAX_CELLS) -> _Outcome:
    """Smallest x in [lo, hi] with power(x) >= target, for power non-decreasing in x.

    ``evaluate(xs)`` returns (power, ci_low, ci_high) for each x; ``snap``
    rounds x to the grid of cells. See the module notes for the method.
    """
    pts: dict = {}

    def run(xs) -> bool:
        new = sorted({snap(min(hi, max(lo, x))) for x in xs} - pts.keys())
        new = new[: max(0, max_cells - len(pts))]
        if new:
            pts.update(zip(new, evaluate(new)))
        return bool(new)

    def above(x):
        return pts[x][0] >= target

    status = "found"
    run([start])
    while True:  # bracketing, then bisection of the bracket
        ups = [x for x in pts if above(x)]
        b = min(ups) if ups else None
        downs = [x for x in pts if not above(x) and (b is None or x < b)]
        a = max(downs) if downs else None
        if b is None:
            top = max(pts)
            if top >= hi:
                status = "unreachable"
                break
            step = [top * factor ** k for k in range(1, batch + 1)]
        elif a is None:
            bottom = min(pts)
            if bottom <= lo:
                status = "at_lower_bound"
                break
            step = [bottom / factor ** k for k in range(1, batch + 1)]
        elif b / a <= 1 + rtol:
            break
        else:
            step = [a * (b / a) ** (k / (batch + 1)) for k in range(1, batch + 1)]
            step = [x for x in step if a < snap(x) < b]
        if not step or not run(step):
            if len(pts) >= max_cells:
                status = "stopped"
            break

    if status == "unreachable":
        return _Outcome(status, math.nan, hi, math.inf, pts)
    if status == "at_lower_bound":
        return _Outcome(status, lo, 0.0, lo, pts)
    if status == "stopped" and (a is None or b is None):
        return _Outcome(status, math.nan, a or lo, b or math.inf, pts)
    (ra, *_), (rb, *_) = pts[a], pts[b]
    t = min(1.0, max(0.0, (target - ra) / (rb - ra))) if rb > ra else 1.0
    estimate = a * (b / a) ** t

    # The interval: the clearly-below and clearly-above values nearest the estimate.
    while True:
        clear_low = [x for x in pts if x <= estimate and pts[x][2] < target]
        clear_high = [x for x in pts if x >= estimate and pts[x][1] >= target]
        low = max(clear_low) if clear_low else None
        high = min(clear_high) if clear_high else None
        step = []
        if low is None:
            if min(pts) > lo:
                step.append(min(pts) / factor)
        else:
            u = min(x for x in pts if x > low and pts[x][2] >= target)
            if u / low > 1 + rtol:
                step.append(math.sqrt(low * u))
        if high is None:
            if max(pts) < hi:
                step.append(max(pts) * factor)
        else:
            g = max(x for x in pts if x < high and pts[x][1] < target)
            if high / g > 1 + rtol:
                step.append(math.sqrt(g * high))
        if not step or not run(step):
            if step and len(pts) >= max_cells:
                status = "stopped"
            break
    low = low if low is not None else (lo if min(pts) <= lo else 0.0)
    high = high if high is not None else math.inf
    return _Outcome(status, estimate, low, high, pts)


def _expected_cells(lo, hi, start, rtol, factor) -> float:
    """A rough count of the cells one search simulates (for progress bars)."""
    bracket = 1 + abs(math.log(start) - math.log(math.sqrt(lo * hi))) / math.log(factor) / 2
    halvings = math.log2(math.log(factor) / math.log1p(rtol))
    return bracket + 2 * halvings  # the bisection, then the two ends of the interval


#: Cells a search typically simulates at the default settings (9 to 16 measured).
TYPICAL_CELLS = round(_expected_cells(*N_RANGE, 10**5, 0.05, 10.0))


def _batch(batch, executor) -> int:
    if batch is None:
        return 2 if executor is not None else 1
    return positive_integer(batch, "batch", maximum=64)


def _range(bounds, name: str, *, integer: bool) -> tuple:
    lo, hi = positive_range(bounds, name)
    if integer:
        if hi > simulation.MAX_N:
            raise ArgumentError("`{name}`: N can be at most {maximum:,}.", name=name,
                                maximum=simulation.MAX_N)
        return _snap_int(lo), _snap_int(hi)
    return _snap(lo), _snap(hi)


def _evaluator(cells: _Cells, cell_of):
    """evaluate(xs) for :func:`_search`, keeping each simulated row by x."""
    rows: dict = {}

    def evaluate(xs):
        cs = [cell_of(x) for x in xs]
        for x, c, r in zip(xs, cs, cells.rejections(cs)):
            rows[x] = cells.row(c, r)
        return [(rows[x]["power"], rows[x]["ci_low"], rows[x]["ci_high"]) for x in xs]

    return evaluate, rows


def _points_frame(rows: dict) -> pd.DataFrame:
    rows = [rows[x] for x in sorted(rows)]
    columns = ["n", "alpha1", "alpha2", "test", "hypothesis", "power", "ci_low", "ci_high",
               "rejections", "reps", "n_boot"]
    return pd.DataFrame(rows, columns=columns)


# ---------------------------------------------------------------------------
# The two questions
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SampleSizePlan:
    """The smallest N per histogram that reaches the target power.

    ``n`` is the estimate (None if no N up to ``interval[0]`` reaches the
    target); ``interval`` = (low, high): N is above ``low`` and at most
    ``high`` (see the module notes; ``inf`` if no simulated N was clearly
    above the target); ``points``: every simulated N with its power and Wilson
    interval, sorted by N. ``status``: ``"found"``, ``"at_lower_bound"`` (the
    smallest N searched already reaches the target: ``n`` is that N),
    ``"unreachable"`` (the largest N searched does not), ``"stopped"`` (the
    cap on cells was hit). ``simulated`` and ``recalled`` count the cells run
    and those taken from the cache.

    Source: [SPJ22] section 5 (the power of the test as the utility of a DP
    mechanism), with powers from Algorithm 2; the search is this project's.
    Returned by :func:`required_sample_size`.

    Attributes
    ----------
    n : int or None
        The estimated smallest N per histogram.
    interval : tuple of (float, float)
        (low, high) around it, as above.
    points : pandas.DataFrame
        The simulated cells: ``n``, ``alpha1``, ``alpha2``, ``test``,
        ``hypothesis``, ``power``, ``ci_low``, ``ci_high``, ``rejections``,
        ``reps``, ``n_boot``.
    status : str
        ``"found"``, ``"at_lower_bound"``, ``"unreachable"`` or ``"stopped"``.
    power : float
        The target power.
    level : float
        The test's significance level.
    test : str
        The test planned for.
    alpha1 : float
        Privacy level of histogram A.
    alpha2 : float
        Privacy level of histogram B.
    reps : int
        Replicates R per cell.
    n_boot : int
        Bootstrap replicates B.
    simulated : int
        Cells simulated by this search.
    recalled : int
        Cells taken from the cache.

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> q = tilt_to_distance(p, 0.1)
    >>> plan = required_sample_size(p, q, 1.0, 1.0, reps=50, n_boot=50, rng=1)
    >>> plan.n, plan.interval, plan.status
    (612, (452, 698), 'found')
    """

    n: int | None
    interval: tuple[float, float]
    points: pd.DataFrame
    status: str
    power: float
    level: float
    test: str
    alpha1: float
    alpha2: float
    reps: int
    n_boot: int
    simulated: int
    recalled: int


@dataclass(frozen=True)
class PrivacyPlan:
    """The smallest alpha (strongest privacy) that reaches the target power at N.

    ``alpha`` is the estimate for alpha_1 (alpha_2 = ``alpha_ratio`` x alpha_1),
    None if even the largest alpha searched does not reach the target;
    ``interval`` = (low, high) for it; ``points``: every simulated alpha with
    its power, sorted by alpha. ``status`` as in :class:`SampleSizePlan`
    (``"at_lower_bound"``: the smallest alpha searched is enough).

    Source: [SPJ22] section 5 (the power of the test as the utility of a DP
    mechanism), with powers from Algorithm 2; the search is this project's.
    Returned by :func:`strongest_privacy`.

    Attributes
    ----------
    alpha : float or None
        The estimated smallest alpha_1.
    interval : tuple of (float, float)
        (low, high) around it.
    points : pandas.DataFrame
        The simulated cells, columns as in :class:`SampleSizePlan`.
    status : str
        ``"found"``, ``"at_lower_bound"``, ``"unreachable"`` or ``"stopped"``.
    power : float
        The target power.
    level : float
        The test's significance level.
    test : str
        The test planned for.
    n : int
        N per histogram.
    alpha_ratio : float
        alpha_2 / alpha_1.
    reps : int
        Replicates R per cell.
    n_boot : int
        Bootstrap replicates B.
    simulated : int
        Cells simulated by this search.
    recalled : int
        Cells taken from the cache.
    alpha2 : float or None
        ``alpha * alpha_ratio`` (a property).

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> q = tilt_to_distance(p, 0.1)
    >>> plan = strongest_privacy(p, q, 5000, reps=50, n_boot=50, rng=1)
    >>> plan.alpha, plan.alpha2, plan.interval, plan.status
    (0.0365, 0.0365, (0.034, 0.0421), 'found')
    """

    alpha: float | None
    interval: tuple[float, float]
    points: pd.DataFrame
    status: str
    power: float
    level: float
    test: str
    n: int
    alpha_ratio: float
    reps: int
    n_boot: int
    simulated: int
    recalled: int

    @property
    def alpha2(self) -> float | None:
        """alpha_2 = ``alpha_ratio`` x ``alpha`` (None if ``alpha`` is None)."""
        return None if self.alpha is None else self.alpha * self.alpha_ratio


def _common(power, level, rtol, factor):
    power = probability(power, "power")
    rtol = positive_scalar(rtol, "rtol")
    factor = positive_scalar(factor, "factor")
    if factor <= 1 + rtol:
        raise ArgumentError("`{name}` must be larger than 1 + `{name_rtol}`.", name="factor",
                            name_rtol="rtol")
    level = probability(level, "level")
    if power <= level:
        raise ArgumentError("`{name}` must be above `{name_level}` ({level:g}): any test rejects "
                            "with probability `{name_level}` when there is no difference, got "
                            "{value:g}.",
                            name="power", name_level="level", level=level, value=power)
    return power, rtol, factor


def required_sample_size(
    p1, p2, alpha1, alpha2, *, power: float = 0.8, level: float = 0.05,
    test: str = "bootstrap", reps: int = 500, n_boot: int = 500, n_range=N_RANGE,
    start: int | None = None, rtol: float = 0.05, factor: float = 10.0,
    confidence: float = 0.95, cache: CellCache | None = None, executor=None,
    batch: int | None = None, max_cells: int = MAX_CELLS, progress=None,
    simulate: bool = True, rng=None,
) -> SampleSizePlan:
    """Smallest N per histogram at which ``test`` reaches ``power`` (see the module notes).

    Source: [SPJ22] section 5, the power of the test as the utility of a DP
    histogram mechanism; each power is the rate of Algorithm 2 (REJECTRATE,
    :func:`dpcore.simulation.reject_rate`). The monotone search, its interval
    and the cell streams are this project's (module notes).

    Parameters
    ----------
    p1 : array_like
        Bin probabilities of population A.
    p2 : array_like
        Bin probabilities of population B (same M).
    alpha1 : float
        Privacy level of the release of A.
    alpha2 : float
        Privacy level of the release of B.
    power : float, optional
        Target power, in (0, 1) and above `level` (keyword-only; default 0.8).
    level : float, optional
        The test's significance level (keyword-only; default 0.05).
    test : {"bootstrap", "chisq", "normal_score"}, optional
        Algorithm 1, the naive chi-square test (which does not hold its level),
        or the normal-score contrast bootstrap (beyond the source); keyword-only,
        default ``"bootstrap"``.
    reps : int, optional
        Replicates R per cell (keyword-only; default 500).
    n_boot : int, optional
        Bootstrap replicates B (keyword-only; default 500).
    n_range : (int, int), optional
        Smallest and largest N searched (keyword-only; default 100 to 10**8).
    start : int, optional
        First N simulated (default: the geometric middle of ``n_range``,
        rounded to a power of ten).
    rtol : float, optional
        Relative precision of the bisection (keyword-only; default 0.05).
    factor : float, optional
        The bracketing step, > 1 + `rtol` (keyword-only; default 10).
    confidence : float, optional
        Confidence of the Wilson intervals behind ``interval`` (default 0.95).
    cache : CellCache, optional
        Cells to reuse and to add to.
    executor : optional
        Anything with ``submit(fn, *args)`` returning a future with
        ``result()``: a ``concurrent.futures`` executor, or a
        ``dask.distributed.Client`` (the cluster of ``python -m dpcore.study``).
    batch : int, optional
        Points simulated per round, 1 to 64 (default 1, or 2 with an executor).
    max_cells : int, optional
        Cap on the cells one search may add, 1 to 10,000 (default 80).
    progress : callable, optional
        ``progress(fraction, label)`` as cells complete: the fraction of the
        expected work done (non-decreasing, ending at 1.0 with the label
        ``"done"``) and the cell running, ``"quantity=<power|type1>
        test=<test> n=<N> alpha1=<α₁> alpha2=<α₂>"``.
    simulate : bool, optional
        False: recall every cell from ``cache`` and simulate none; a search that
        needs a cell the cache lacks raises :class:`CellsMissing`. (A dashboard
        answers a moved control this way at once, and simulates on request.)
    rng : None, int or numpy.random.Generator, optional
        Keyword-only; normalised with ``np.random.default_rng``, of which only
        the seed sequence is used (each cell draws from its own stream).

    Returns
    -------
    SampleSizePlan
        The estimate, its interval, the status and every simulated point.

    Raises
    ------
    ValueError
        If an argument is refused (the message names it), e.g. `power` not
        above `level`, `factor` not above 1 + `rtol`, or an `executor` without
        ``submit``.
    CellsMissing
        With ``simulate=False``, when the cache lacks a cell the search needs.

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> q = tilt_to_distance(p, 0.1)
    >>> plan = required_sample_size(p, q, 1.0, 1.0, reps=50, n_boot=50, rng=1)
    >>> plan.n, plan.interval, plan.status, plan.simulated
    (612, (452, 698), 'found', 16)
    >>> required_sample_size(p, q, 1.0, 1.0, power=0.05)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `power` must be above `level` (0.05): any test rejects with
    probability `level` when there is no difference, got 0.05.
    """
    power, rtol, factor = _common(power, level, rtol, factor)
    alpha1 = positive_scalar(alpha1, "alpha1")
    alpha2 = positive_scalar(alpha2, "alpha2")
    test = one_of(test, "test", simulation.TESTS)
    lo, hi = _range(n_range, "n_range", integer=True)
    start = _snap_int(start if start is not None else 10 ** round(math.log10(math.sqrt(lo * hi))))
    start = min(hi, max(lo, start))
    batch = _batch(batch, executor)
    max_cells = positive_integer(max_cells, "max_cells", maximum=10_000)
    cells = _Cells(p1, p2, reps=reps, n_boot=n_boot, level=level, confidence=confidence,
                   rng=rng, cache=cache, executor=executor, progress=progress,
                   expected=_expected_cells(lo, hi, start, rtol, factor), simulate=simulate)
    out = _plan_n(cells, alpha1, alpha2, test, power, lo, hi, start, rtol, factor, batch,
                  max_cells)
    if progress is not None:
        progress(1.0, "done")
    return out


def _plan_n(cells, alpha1, alpha2, test, power, lo, hi, start, rtol, factor, batch, max_cells):
    evaluate, rows = _evaluator(cells, lambda n: (int(n), alpha1, alpha2, test, False))
    sim0, rec0 = cells.simulated, cells.recalled
    res = _search(evaluate, lo=lo, hi=hi, start=start, snap=_snap_int, target=power, rtol=rtol,
                  factor=factor, batch=batch, max_cells=max_cells)
    points = _points_frame(rows)
    n = None if math.isnan(res.estimate) else int(math.ceil(res.estimate - 1e-9))
    return SampleSizePlan(
        n=n, interval=(res.low, res.high), points=points, status=res.status, power=power,
        level=cells.level, test=test, alpha1=alpha1, alpha2=alpha2, reps=cells.reps,
        n_boot=cells.n_boot, simulated=cells.simulated - sim0, recalled=cells.recalled - rec0,
    )


def strongest_privacy(
    p1, p2, n, *, power: float = 0.8, level: float = 0.05, test: str = "bootstrap",
    alpha_ratio: float = 1.0, reps: int = 500, n_boot: int = 500, alpha_range=ALPHA_RANGE,
    start: float | None = None, rtol: float = 0.05, factor: float = 10.0,
    confidence: float = 0.95, cache: CellCache | None = None, executor=None,
    batch: int | None = None, max_cells: int = MAX_CELLS, progress=None,
    simulate: bool = True, rng=None,
) -> PrivacyPlan:
    """Smallest alpha at which ``test`` reaches ``power`` with N = ``n`` per histogram.

    alpha_1 = alpha and alpha_2 = ``alpha_ratio`` x alpha; the search runs
    over ``alpha_range`` (default 0.001 to 10), from ``start`` (default 0.1).
    The other parameters are those of :func:`required_sample_size`.

    Source: [SPJ22] section 5, the power of the test as the utility of a DP
    histogram mechanism, with powers from Algorithm 2 (REJECTRATE); the search
    is this project's (module notes).

    Parameters
    ----------
    p1 : array_like
        Bin probabilities of population A.
    p2 : array_like
        Bin probabilities of population B (same M).
    n : int
        N, the same for both histograms (a pair (N, N) is accepted).
    power : float, optional
        Target power, in (0, 1) and above `level` (keyword-only; default 0.8).
    level : float, optional
        The test's significance level (keyword-only; default 0.05).
    test : {"bootstrap", "chisq", "normal_score"}, optional
        As in :func:`required_sample_size` (keyword-only).
    alpha_ratio : float, optional
        alpha_2 / alpha_1, > 0 (keyword-only; default 1).
    reps : int, optional
        Replicates R per cell (keyword-only; default 500).
    n_boot : int, optional
        Bootstrap replicates B (keyword-only; default 500).
    alpha_range : (float, float), optional
        Smallest and largest alpha searched (keyword-only; default 0.001 to 10).
    start : float, optional
        First alpha simulated (keyword-only; default 0.1).
    rtol : float, optional
        Relative precision of the bisection (keyword-only; default 0.05).
    factor : float, optional
        The bracketing step, > 1 + `rtol` (keyword-only; default 10).
    confidence : float, optional
        Confidence of the Wilson intervals (keyword-only; default 0.95).
    cache : CellCache, optional
        Cells to reuse and to add to (keyword-only).
    executor : optional
        As in :func:`required_sample_size` (keyword-only).
    batch : int, optional
        Points simulated per round (keyword-only; default 1, or 2 with an
        executor).
    max_cells : int, optional
        Cap on the cells the search may add (keyword-only; default 80).
    progress : callable, optional
        As in :func:`required_sample_size` (keyword-only).
    simulate : bool, optional
        As in :func:`required_sample_size` (keyword-only; default True).
    rng : None, int or numpy.random.Generator, optional
        As in :func:`required_sample_size` (keyword-only).

    Returns
    -------
    PrivacyPlan
        The estimate of alpha_1, its interval, the status and every simulated
        point.

    Raises
    ------
    ValueError
        If an argument is refused (the message names it), or `n` is a pair of
        different sizes.
    CellsMissing
        With ``simulate=False``, when the cache lacks a cell the search needs.

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> q = tilt_to_distance(p, 0.1)
    >>> plan = strongest_privacy(p, q, 5000, reps=50, n_boot=50, rng=1)
    >>> plan.alpha, plan.interval, plan.status
    (0.0365, (0.034, 0.0421), 'found')
    """
    power, rtol, factor = _common(power, level, rtol, factor)
    n = sample_sizes(n, maximum=simulation.MAX_N)
    if n[0] != n[1]:
        raise ArgumentError("`{name}` must be one size N for both histograms.", name="n")
    n = int(n[0])
    ratio = positive_scalar(alpha_ratio, "alpha_ratio")
    test = one_of(test, "test", simulation.TESTS)
    lo, hi = _range(alpha_range, "alpha_range", integer=False)
    start = _snap(min(hi, max(lo, positive_scalar(start, "start") if start is not None else 0.1)))
    batch = _batch(batch, executor)
    max_cells = positive_integer(max_cells, "max_cells", maximum=10_000)
    cells = _Cells(p1, p2, reps=reps, n_boot=n_boot, level=level, confidence=confidence,
                   rng=rng, cache=cache, executor=executor, progress=progress,
                   expected=_expected_cells(lo, hi, start, rtol, factor), simulate=simulate)

    evaluate, rows = _evaluator(
        cells, lambda a: (n, a, _snap(a * ratio) if ratio != 1 else a, test, False))
    res = _search(evaluate, lo=lo, hi=hi, start=start, snap=_snap, target=power, rtol=rtol,
                  factor=factor, batch=batch, max_cells=max_cells)
    points = _points_frame(rows)
    if progress is not None:
        progress(1.0, "done")
    alpha = None if math.isnan(res.estimate) else float(res.estimate)
    return PrivacyPlan(
        alpha=alpha, interval=(res.low, res.high), points=points, status=res.status,
        power=power, level=cells.level, test=test, n=n, alpha_ratio=ratio, reps=cells.reps,
        n_boot=cells.n_boot, simulated=cells.simulated, recalled=cells.recalled,
    )


# ---------------------------------------------------------------------------
# Verdicts: a simulated power, or a planned value, against the target
# ---------------------------------------------------------------------------

#: A simulated power, or a planned N or alpha, against the target power: the target is
#: reached, not reached, or the Monte Carlo error leaves it undetermined.
REACHED, NOT_REACHED, UNDETERMINED = "reached", "not_reached", "undetermined"


def power_verdict(ci_low: float, ci_high: float, target: float) -> str:
    """Whether a simulated power reaches ``target``, from its Monte Carlo interval.

    :data:`REACHED` when the interval lies at or above the target (``ci_low >= target``),
    :data:`NOT_REACHED` when it lies wholly below (``ci_high < target``), otherwise
    :data:`UNDETERMINED`: the interval holds the target, and the point estimate alone
    cannot tell on which side the power is. These are the "clearly above" and "clearly
    below" of the searches' intervals (see the module notes).

    Source: none (this project's reading of the Monte Carlo error of a power
    simulated by [SPJ22] Algorithm 2).

    Parameters
    ----------
    ci_low : float
        Lower end of the power's confidence interval.
    ci_high : float
        Upper end, >= `ci_low`.
    target : float
        Target power (not checked).

    Returns
    -------
    str
        :data:`REACHED`, :data:`NOT_REACHED` or :data:`UNDETERMINED`.

    Raises
    ------
    ValueError
        If not ``ci_low <= ci_high`` (NaN included).

    Examples
    --------
    >>> [power_verdict(low, high, 0.8) for low, high in [(0.82, 0.9), (0.7, 0.85), (0.5, 0.7)]]
    ['reached', 'undetermined', 'not_reached']
    >>> power_verdict(0.9, 0.8, 0.8)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: The interval must have ci_low <= ci_high, got (0.9, 0.8).
    """
    ci_low, ci_high = float(ci_low), float(ci_high)
    if not ci_low <= ci_high:
        raise ArgumentError("The interval must have {name_low} <= {name_high}, got "
                            "({low:g}, {high:g}).",
                            name_low="ci_low", name_high="ci_high", low=ci_low, high=ci_high)
    if ci_low >= target:
        return REACHED
    if ci_high < target:
        return NOT_REACHED
    return UNDETERMINED


def interval_verdict(value: float, interval) -> str:
    """Whether ``value`` reaches the target power, from a Monte Carlo interval.

    The interval (low, high] is that of the smallest value that does (an N, or an
    alpha).

    Under monotone power, a value at or above ``high`` (a simulated value whose power is
    clearly at or above the target) reaches it: :data:`REACHED`; a value at or below
    ``low`` (one clearly below) does not: :data:`NOT_REACHED`. A value strictly inside the
    interval is :data:`UNDETERMINED` at this number of replicates, whichever side of the
    point estimate it is on. ``low`` may be 0 and ``high`` infinite.

    Source: none (this project's reading of a plan's interval, see the module
    notes).

    Parameters
    ----------
    value : float
        The N or alpha in question, > 0.
    interval : (float, float)
        (low, high) with 0 <= low <= high, e.g. a plan's ``interval``.

    Returns
    -------
    str
        :data:`REACHED`, :data:`NOT_REACHED` or :data:`UNDETERMINED`.

    Raises
    ------
    ValueError
        If `value` is not a finite number > 0, or `interval` is not ordered as
        0 <= low <= high.

    Examples
    --------
    >>> [interval_verdict(n, (1200, 3000)) for n in (5000, 2000, 1000)]
    ['reached', 'undetermined', 'not_reached']
    >>> interval_verdict(2000, (3000, 1200))
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `interval` must be (low, high) with 0 <= low <= high, got
    (3000, 1200).
    """
    value = positive_scalar(value, "value")
    low, high = (float(x) for x in interval)
    if not 0 <= low <= high:
        raise ArgumentError("`{name}` must be (low, high) with 0 <= low <= high, got "
                            "({low:g}, {high:g}).",
                            name="interval", low=low, high=high)
    if value >= high:
        return REACHED
    if value <= low:
        return NOT_REACHED
    return UNDETERMINED


def plan_verdict(plan: SampleSizePlan | PrivacyPlan, value: float) -> str:
    """Whether ``value`` reaches the plan's target power.

    An N per group against a :class:`SampleSizePlan`, an alpha_1 against a
    :class:`PrivacyPlan`.

    :func:`interval_verdict` on the plan's interval, where its ends were checked against
    the Monte Carlo error. Otherwise :data:`UNDETERMINED`: a search that stopped at its cap
    before bracketing the target (no estimate), or one whose end of the search range
    decides it (``"unreachable"``: the largest value searched; ``"at_lower_bound"``: the
    smallest) while that value's power interval holds the target.

    Source: none (this project's reading of a plan, see the module notes).

    Parameters
    ----------
    plan : SampleSizePlan or PrivacyPlan
        The plan.
    value : float
        An N per histogram (for a :class:`SampleSizePlan`) or an alpha_1 (for a
        :class:`PrivacyPlan`), > 0.

    Returns
    -------
    str
        :data:`REACHED`, :data:`NOT_REACHED` or :data:`UNDETERMINED`.

    Raises
    ------
    ValueError
        As :func:`interval_verdict`, for `value`.

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> q = tilt_to_distance(p, 0.1)
    >>> plan = required_sample_size(p, q, 1.0, 1.0, reps=50, n_boot=50, rng=1)
    >>> plan.interval
    (452, 698)
    >>> [plan_verdict(plan, n) for n in (10_000, plan.n, 100)]
    ['reached', 'undetermined', 'not_reached']
    """
    estimate, x = (plan.n, "n") if isinstance(plan, SampleSizePlan) else (plan.alpha, "alpha1")
    if estimate is None and plan.status == "stopped":
        return UNDETERMINED
    if plan.status in ("unreachable", "at_lower_bound"):
        end = plan.interval[0] if plan.status == "unreachable" else plan.interval[1]
        rows = plan.points[plan.points[x] == end] if len(plan.points) else plan.points
        if rows.empty or power_verdict(rows["ci_low"].iloc[0], rows["ci_high"].iloc[0],
                                       plan.power) == UNDETERMINED:
            return UNDETERMINED
    return interval_verdict(value, plan.interval)


def alpha_grid(low: float, high: float, points: int) -> list[float]:
    """``points`` privacy levels from ``low`` to ``high``, log-spaced, largest first.

    They are rounded to one significant digit (duplicates merged): a frontier's
    default grid.

    Source: none (a grid of this project's for :func:`frontier`).

    Parameters
    ----------
    low : float
        Smallest alpha, > 0.
    high : float
        Largest alpha, >= `low`.
    points : int
        Number of levels before rounding and merging, 1 to 50.

    Returns
    -------
    list of float
        The levels, decreasing, without duplicates (at most `points`).

    Raises
    ------
    ValueError
        If `low` or `high` is not a finite number > 0, `high` < `low`, or
        `points` is not an integer from 1 to 50.

    Examples
    --------
    >>> alpha_grid(0.01, 1, 5)
    [1.0, 0.3, 0.1, 0.03, 0.01]
    >>> alpha_grid(1, 0.1, 3)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `high` must be at least `low`, got (1, 0.1).
    """
    low, high = positive_scalar(low, "low"), positive_scalar(high, "high")
    points = positive_integer(points, "points", maximum=50)
    if high < low:
        raise ArgumentError("`{name}` must be at least `{name_low}`, got ({low:g}, {high:g}).",
                            name="high", name_low="low", low=low, high=high)
    grid = np.geomspace(low, high, points) if high > low else np.array([low])
    return sorted({float(f"{a:.1g}") for a in grid}, reverse=True)


def frontier(
    p1, p2, alphas, *, power: float = 0.8, level: float = 0.05,
    tests=simulation.TESTS, alpha_ratio: float = 1.0, type1: bool = True,
    reps: int = 500, n_boot: int = 500, n_range=N_RANGE, rtol: float = 0.05,
    factor: float = 10.0, confidence: float = 0.95, cache: CellCache | None = None,
    executor=None, batch: int | None = None, max_cells: int = MAX_CELLS, progress=None,
    rng=None,
) -> pd.DataFrame:
    """The privacy-utility frontier: the N each test needs at each alpha.

    For each alpha in ``alphas`` (alpha_1 = alpha, alpha_2 = ``alpha_ratio`` x
    alpha) and each test, :func:`required_sample_size`; searches run from the
    largest alpha down and start at the N found for the previous one. With
    ``type1``, each test's type-I error is also simulated at the N it needs,
    with both histograms drawn from the pooled p0 = (p1 + p2)/2: a test whose
    Wilson interval for it lies wholly above ``level`` does not hold its level
    there, and ``valid`` is False.

    Source: [SPJ22] section 5 (power as the utility of a DP mechanism) over a
    grid of alpha, with powers and type-I errors from Algorithm 2; the naive
    test's failure to hold its level under DP is [SPJ22] Figure 9. The frontier
    itself is this project's.

    Parameters
    ----------
    p1 : array_like
        Bin probabilities of population A.
    p2 : array_like
        Bin probabilities of population B (same M).
    alphas : iterable of float
        1 to 50 privacy levels alpha_1, each > 0 (rounded to three significant
        digits, duplicates merged).
    power : float, optional
        Target power, in (0, 1) and above `level` (keyword-only; default 0.8).
    level : float, optional
        The test's significance level (keyword-only; default 0.05).
    tests : iterable of str, optional
        Non-empty subset of ``simulation.TESTS`` (keyword-only; default all).
    alpha_ratio : float, optional
        alpha_2 / alpha_1, > 0 (keyword-only; default 1).
    type1 : bool, optional
        Also simulate each test's type-I error at the N found (keyword-only;
        default True).
    reps : int, optional
        Replicates R per cell (keyword-only; default 500).
    n_boot : int, optional
        Bootstrap replicates B (keyword-only; default 500).
    n_range : (int, int), optional
        Smallest and largest N searched (keyword-only; default 100 to 10**8).
    rtol : float, optional
        Relative precision of the bisection (keyword-only; default 0.05).
    factor : float, optional
        The bracketing step (keyword-only; default 10).
    confidence : float, optional
        Confidence of the Wilson intervals (keyword-only; default 0.95).
    cache : CellCache, optional
        Cells to reuse and to add to (keyword-only).
    executor : optional
        As in :func:`required_sample_size` (keyword-only).
    batch : int, optional
        Points simulated per round (keyword-only).
    max_cells : int, optional
        Cap on the cells of each search (keyword-only; default 80).
    progress : callable, optional
        ``progress(fraction, label)`` as in :func:`required_sample_size`, over
        the whole frontier (keyword-only).
    rng : None, int or numpy.random.Generator, optional
        As in :func:`required_sample_size` (keyword-only).

    Returns
    -------
    pandas.DataFrame
        One row per (alpha, test): ``alpha1``, ``alpha2``, ``test``, ``n``,
        ``n_low``, ``n_high``, ``status``, ``type1``, ``type1_low``,
        ``type1_high``, ``valid``, ``simulated``.

    Raises
    ------
    ValueError
        If `alphas` is not a list of 1 to 50 positive levels, `tests` is empty
        or names an unknown test, or another argument is refused (the message
        names it).

    Examples
    --------
    >>> from dpcore.datasets import shape_probabilities
    >>> p = shape_probabilities("uniform", 5)
    >>> q = tilt_to_distance(p, 0.1)
    >>> table = frontier(p, q, [1.0, 0.1], tests=("bootstrap",), reps=50, n_boot=50, rng=1)
    >>> table[["alpha1", "test", "n", "n_low", "n_high", "type1", "valid"]]
       alpha1       test     n  n_low  n_high  type1  valid
    0     1.0  bootstrap   612    452     698   0.02   True
    1     0.1  bootstrap  2000   1940    2410   0.04   True
    """
    power, rtol, factor = _common(power, level, rtol, factor)
    try:
        alphas = sorted({_snap(positive_scalar(a, "alphas")) for a in alphas}, reverse=True)
    except TypeError:
        raise ArgumentError("`{name}` must be a list of privacy levels.",
                            name="alphas") from None
    if not alphas or len(alphas) > 50:
        raise ArgumentError("`{name}` must hold from 1 to 50 privacy levels.", name="alphas")
    tests = list(tests)
    if not tests or any(t not in simulation.TESTS for t in tests):
        raise ArgumentError("`{name}` must be a non-empty subset of {tests}.", name="tests",
                            tests=simulation.TESTS)
    ratio = positive_scalar(alpha_ratio, "alpha_ratio")
    lo, hi = _range(n_range, "n_range", integer=True)
    batch = _batch(batch, executor)
    max_cells = positive_integer(max_cells, "max_cells", maximum=10_000)
    per_search = _expected_cells(lo, hi, lo * 10, rtol, factor)
    cells = _Cells(p1, p2, reps=reps, n_boot=n_boot, level=level, confidence=confidence,
                   rng=rng, cache=cache, executor=executor, progress=progress,
                   expected=len(alphas) * len(tests) * (per_search + type1))
    rows = []
    for test in tests:
        start = _snap_int(math.sqrt(lo * hi))
        for a in alphas:
            a2 = _snap(a * ratio) if ratio != 1 else a
            plan = _plan_n(cells, a, a2, test, power, lo, hi, start, rtol, factor, batch,
                           max_cells)
            row = dict(alpha1=a, alpha2=a2, test=test, n=plan.n, n_low=plan.interval[0],
                       n_high=plan.interval[1], status=plan.status, type1=np.nan,
                       type1_low=np.nan, type1_high=np.nan, valid=True,
                       simulated=plan.simulated)
            if type1 and plan.n is not None:
                null = (plan.n, a, a2, test, True)
                r = cells.row(null, cells.rejections([null])[0])
                row.update(type1=r["power"], type1_low=r["ci_low"], type1_high=r["ci_high"],
                           valid=bool(r["ci_low"] <= cells.level))
            rows.append(row)
            if plan.n is not None:
                start = plan.n
    if progress is not None:
        progress(1.0, "done")
    return pd.DataFrame(rows)
