"""The Gaussian mechanism: calibrating the noise σ to (ε, δ), and its privacy loss.

The mechanism releases M(D) = f(D) + N(0, σ² I), where f has L2 sensitivity
Δ = max ||f(D₁) − f(D₂)||₂ over neighbouring data sets. Everything below depends
on σ and Δ only through μ = Δ/σ: the mechanism is exactly μ-GDP (Dong, Roth & Su
2022, Theorem 2.7), which links this module to :mod:`dpcore.fdp`.

Privacy loss [GMN25]. For an output o ~ M(D₁),
L = ln p_{M(D₁)}(o)/p_{M(D₂)}(o) ~ N(μ²/2, μ²) at the worst case ||f(D₁) − f(D₂)|| = Δ.

Three ways to pick σ for a target (ε, δ):

- **tail**: δ = P(L > ε) = Φ(Δ/(2σ) − εσ/Δ) = Φ(μ/2 − ε/μ), the source's final
  formula. Correction: the source calls P(L > ε) ≤ δ "the definition" of
  (ε, δ)-DP. It is a sufficient condition only; the definition,
  P(M(D₁) ∈ S) ≤ e^ε P(M(D₂) ∈ S) + δ for every S, holds with the smaller
  δ = E[(1 − e^{ε − L})₊] (Balle & Wang 2018, Theorem 5). The tail bound
  therefore over-protects: it asks for more noise than needed.
- **classical**: σ = Δ √(2 ln(1.25/δ)) / ε (Dwork & Roth 2014, Theorem A.1),
  proved for ε < 1 only (``CLASSICAL_MAX_EPS``); outside that range it is
  not a guarantee.
- **analytic**: the exact δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) (Balle &
  Wang 2018, Theorem 8), the same curve as Corollary 2.13 of Dong et al.

Numerics. Φ(a) − e^ε Φ(b) with a = μ/2 − ε/μ and b = a − μ cancels badly when
δ is tiny. Since b² − a² = 2ε exactly, for a < 0 it equals
½ e^{−a²/2} [erfcx(−a/√2) − erfcx(−b/√2)], a difference of two O(1) numbers
with no exponential factors left; its logarithm stays finite for δ far below
10⁻³⁰⁰. σ is solved for in log μ by Brent's method on log δ, to a relative
tolerance of about 1e-13.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize, special

from dpcore.validation import (
    finite_array,
    nonnegative_scalar,
    one_of,
    positive_integer,
    positive_scalar,
    probability,
    probability_array,
)

__all__ = [
    "CLASSICAL_MAX_EPS",
    "METHODS",
    "GaussianSetting",
    "ReleaseSummary",
    "SimulatedError",
    "calibration_table",
    "clipped_sum",
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_mu",
    "gaussian_sigma",
    "privacy_loss_moments",
    "query_sensitivity",
    "release",
    "release_summary",
    "sigma_table",
    "summarise_releases",
    "solve_gaussian",
]

METHODS = ("analytic", "tail", "classical")
METHOD_NAMES = {
    "analytic": "analytic (Balle & Wang, exact)",
    "tail": "tail bound P(L > ε) ≤ δ",
    "classical": "classical (Dwork & Roth)",
}
CLASSICAL_MAX_EPS = 1.0  # Dwork & Roth's Theorem A.1 is proved for ε < 1 only

_SQRT2 = math.sqrt(2.0)
_XTOL = 1e-14  # in log μ or in ε: Brent's method stops within this
_RTOL = 4 * np.finfo(float).eps


# ---------------------------------------------------------------------------
# δ as a function of ε and μ = Δ/σ
# ---------------------------------------------------------------------------


def _log_delta_analytic(eps: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """log δ(ε) of the Gaussian mechanism with μ = Δ/σ > 0, without cancellation."""
    eps, mu = np.broadcast_arrays(np.asarray(eps, float), np.asarray(mu, float))
    a = mu / 2 - eps / mu
    b = a - mu
    out = np.empty(a.shape)
    neg = a < 0
    if np.any(neg):
        an, bn = a[neg], b[neg]
        diff = special.erfcx(-an / _SQRT2) - special.erfcx(-bn / _SQRT2)
        with np.errstate(divide="ignore"):
            out[neg] = -0.5 * an * an + np.log(0.5 * diff)
    pos = ~neg
    if np.any(pos):
        # Φ(a) ≥ 1/2 here; e^ε Φ(b) = ½ e^{−a²/2} erfcx(−b/√2) (b < 0) never overflows,
        # even where ε itself is beyond exp's range.
        ap = a[pos]
        first = special.ndtr(ap)
        second = 0.5 * np.exp(-0.5 * ap * ap) * special.erfcx(-b[pos] / _SQRT2)
        with np.errstate(divide="ignore"):
            out[pos] = np.log(np.maximum(first - second, 0.0))
    return out


def _log_delta_tail(eps, mu):
    return special.log_ndtr(np.asarray(mu, float) / 2 - np.asarray(eps, float) / mu)


def _tail_delta(eps, mu):
    # Φ(a) directly for a ≥ 0 (it rounds to 1 where the analytic δ does), exp(log Φ(a))
    # below (it keeps the subnormal range that the analytic δ reaches).
    a = np.asarray(mu, float) / 2 - np.asarray(eps, float) / mu
    return np.where(a >= 0, special.ndtr(a), np.exp(special.log_ndtr(np.minimum(a, 0.0))))


def _log_delta_classical(eps, mu):
    # σ = Δ √(2 ln(1.25/δ))/ε  ⇔  δ = 1.25 exp(−ε²/(2μ²)); at ε = 0 it certifies nothing.
    eps = np.asarray(eps, float)
    return np.log(1.25) - 0.5 * (eps / mu) ** 2


_LOG_DELTA = {"analytic": _log_delta_analytic, "tail": _log_delta_tail,
              "classical": _log_delta_classical}


def _delta_from_mu(eps, mu, method: str) -> np.ndarray:
    """δ for μ ≥ 0, including the limits μ = 0 (no information) and μ = ∞ (no noise)."""
    eps, mu = np.broadcast_arrays(np.asarray(eps, float), np.asarray(mu, float))
    out = np.zeros(eps.shape)
    inner = (mu > 0) & np.isfinite(mu)
    if np.any(inner):
        with np.errstate(over="ignore"):  # ε/μ overflows to ∞ for tiny μ: δ = 0
            if method == "tail":
                out[inner] = _tail_delta(eps[inner], mu[inner])
            else:
                out[inner] = np.exp(_LOG_DELTA[method](eps[inner], mu[inner]))
    out[np.isinf(mu)] = 1.0
    if method == "classical":  # 1.25 exp(−ε²/2μ²) exceeds 1 for small ε/μ: no guarantee
        out = np.minimum(out, 1.0)
    return out


def gaussian_delta(eps, sigma, sensitivity=1.0, *, method: str = "analytic"):
    """δ for which the Gaussian mechanism with noise σ and sensitivity Δ is (ε, δ)-DP.

    ``method="analytic"`` is exact (the smallest such δ); ``"tail"`` is
    P(L > ε) = Φ(Δ/2σ − εσ/Δ), an upper bound on it; ``"classical"`` inverts
    Dwork & Roth's formula, δ = min(1, 1.25 exp(−ε²σ²/(2Δ²))), meaningful for
    ε < 1 only. Vectorised: ``eps``, ``sigma`` and ``sensitivity`` broadcast.
    """
    method = one_of(method, "method", METHODS)
    eps = finite_array(eps, "eps", sign="nonnegative")
    sigma = finite_array(sigma, "sigma", sign="positive")
    sens = finite_array(sensitivity, "sensitivity", sign="positive")
    with np.errstate(over="ignore"):
        mu = sens / sigma
    return _delta_from_mu(eps, mu, method)[()]


def privacy_loss_moments(sigma, sensitivity=1.0) -> tuple[float, float]:
    """Mean and variance of the privacy loss L ~ N(Δ²/(2σ²), Δ²/σ²) [GMN25]."""
    sigma = positive_scalar(sigma, "sigma")
    sens = positive_scalar(sensitivity, "sensitivity")
    mu2 = (sens / sigma) ** 2
    return 0.5 * mu2, mu2


# ---------------------------------------------------------------------------
# Solving for μ = Δ/σ, for ε, and for the completed set
# ---------------------------------------------------------------------------


def _no_solution(eps: float, delta: float, method: str) -> ValueError:
    if method == "tail":
        return ValueError(
            f"No noise level meets the tail bound at eps = {eps:g} and delta = {delta:g}: "
            "at eps = 0 the privacy loss exceeds 0 with probability at least 1/2, so `delta` "
            "must be at least 0.5 there. Raise `eps` or `delta`."
        )
    return ValueError(
        f"The classical calibration needs eps > 0 (it divides by eps), got eps = {eps:g}."
    )


def _mu_tail(eps: float, delta: float) -> float:
    """Closed form: Φ(μ/2 − ε/μ) = δ ⇔ μ²/2 − zμ − ε = 0 with z = Φ⁻¹(δ)."""
    z = float(special.ndtri(delta))
    root = math.sqrt(z * z + 2 * eps)
    if z <= 0:  # μ = z + √(z² + 2ε), rewritten to avoid cancellation
        return 2 * eps / (root - z) if eps > 0 else 0.0
    return z + root


def _mu_analytic(eps: float, delta: float) -> float:
    if eps == 0:  # δ(0) = 2Φ(μ/2) − 1 = erf(μ/(2√2))
        return 2 * _SQRT2 * float(special.erfinv(delta))
    log_target = math.log(delta)

    def gap(t: float) -> float:
        return float(_log_delta_analytic(eps, math.exp(t))) - log_target

    # The tail bound over-states δ, so its μ is a lower bracket; double for the upper one.
    lo = math.log(_mu_tail(eps, delta))
    hi = lo + math.log(2.0)
    while gap(hi) < 0:
        lo, hi = hi, hi + math.log(2.0)
    return math.exp(optimize.brentq(gap, lo, hi, xtol=_XTOL, rtol=_RTOL))


def _mu_scalar(eps: float, delta: float, method: str) -> float:
    if method == "tail":
        mu = _mu_tail(eps, delta)
    elif method == "classical":
        if eps == 0:
            raise _no_solution(eps, delta, method)
        mu = eps / math.sqrt(2 * math.log(1.25 / delta))
    else:
        mu = _mu_analytic(eps, delta)
    if not mu > 0:
        raise _no_solution(eps, delta, method)
    return mu


def gaussian_mu(eps, delta, *, method: str = "analytic"):
    """The largest μ = Δ/σ for which the mechanism is (ε, δ)-DP by ``method``.

    For ``"analytic"`` this is the μ of μ-GDP whose δ(ε) curve passes through
    (ε, δ). Vectorised over matching ``eps`` and ``delta``.
    """
    method = one_of(method, "method", METHODS)
    eps, delta = np.broadcast_arrays(finite_array(eps, "eps", sign="nonnegative"),
                                     probability_array(delta, "delta"))
    out = np.empty(eps.shape)
    for idx in np.ndindex(eps.shape):
        out[idx] = _mu_scalar(float(eps[idx]), float(delta[idx]), method)
    return out[()]


def gaussian_sigma(eps, delta, sensitivity=1.0, *, method: str = "analytic"):
    """The smallest σ for which the mechanism is (ε, δ)-DP by ``method``: σ = Δ/μ.

    ``"analytic"``: exact, to about 1e-13 relative; ``"tail"``: closed form
    from the source's formula; ``"classical"``: Δ √(2 ln(1.25/δ))/ε, a proved
    guarantee only for ε < 1. Raises ``ValueError`` when no σ exists (the
    tail bound at ε = 0 with δ < 1/2, the classical formula at ε = 0).
    """
    sens = finite_array(sensitivity, "sensitivity", sign="positive")
    return (sens / gaussian_mu(eps, delta, method=method))[()]


def _eps_scalar(delta: float, mu: float, method: str) -> float:
    if method == "tail":  # Φ(μ/2 − ε/μ) = δ ⇔ ε = μ(μ/2 − z)
        return max(0.0, mu * (mu / 2 - float(special.ndtri(delta))))
    if method == "classical":  # δ = 1.25 exp(−ε²/2μ²)
        return mu * math.sqrt(2 * math.log(1.25 / delta))
    log_target = math.log(delta)
    if float(_log_delta_analytic(0.0, mu)) <= log_target:
        return 0.0

    def gap(e: float) -> float:
        return float(_log_delta_analytic(e, mu)) - log_target

    # The tail bound's ε is an upper bracket (tail δ ≥ exact δ at every ε).
    hi = max(_eps_scalar(delta, mu, "tail"), 1e-300)
    while gap(hi) > 0:  # guards against rounding at the bracket only
        hi *= 2.0
    return float(optimize.brentq(gap, 0.0, hi, xtol=_XTOL, rtol=_RTOL))


def gaussian_epsilon(delta, sigma, sensitivity=1.0, *, method: str = "analytic"):
    """The smallest ε ≥ 0 for which the mechanism is (ε, δ)-DP by ``method``.

    Returns 0 when δ already holds at ε = 0 (for the analytic curve, when
    δ ≥ 2Φ(Δ/2σ) − 1). Vectorised over matching arguments.
    """
    method = one_of(method, "method", METHODS)
    delta = probability_array(delta, "delta")
    sigma = finite_array(sigma, "sigma", sign="positive")
    sens = finite_array(sensitivity, "sensitivity", sign="positive")
    delta, mu = np.broadcast_arrays(delta, sens / sigma)
    out = np.empty(delta.shape)
    for idx in np.ndindex(delta.shape):
        out[idx] = _eps_scalar(float(delta[idx]), float(mu[idx]), method)
    return out[()]


@dataclass(frozen=True)
class GaussianSetting:
    """A complete, consistent (ε, δ, σ, Δ) of the Gaussian mechanism under ``method``."""

    eps: float
    delta: float
    sigma: float
    sensitivity: float
    method: str
    solved: str  # which of the four was computed

    @property
    def mu(self) -> float:
        """μ = Δ/σ: the mechanism is μ-GDP."""
        return self.sensitivity / self.sigma

    def as_dict(self) -> dict:
        return dict(eps=self.eps, delta=self.delta, sigma=self.sigma,
                    sensitivity=self.sensitivity, mu=self.mu, method=self.method,
                    solved=self.solved)


def solve_gaussian(*, eps=None, delta=None, sigma=None, sensitivity=None,
                   method: str = "analytic") -> GaussianSetting:
    """Complete (ε, δ, σ, Δ) from any three of them; exactly one must be None.

    - σ or Δ missing: μ from (ε, δ), then σ = Δ/μ or Δ = μσ;
    - δ missing: δ(ε) at μ = Δ/σ;
    - ε missing: the smallest ε ≥ 0 with δ(ε) ≤ δ.

    Raises ``ValueError`` naming the parameter for bad values, when not
    exactly one is missing, or when the request has no solution (including a
    solved σ or Δ that overflows to ∞ or underflows to 0 in floating point).
    """
    method = one_of(method, "method", METHODS)
    given = dict(eps=eps, delta=delta, sigma=sigma, sensitivity=sensitivity)
    missing = [k for k, v in given.items() if v is None]
    if len(missing) != 1:
        raise ValueError(
            "Leave exactly one of `eps`, `delta`, `sigma`, `sensitivity` as None (the one to "
            f"solve for); got {len(missing)} missing: {', '.join(missing) or 'none'}."
        )
    solved = missing[0]
    if eps is not None:
        eps = nonnegative_scalar(eps, "eps")
    if delta is not None:
        delta = probability(delta, "delta")
    if sigma is not None:
        sigma = positive_scalar(sigma, "sigma")
    if sensitivity is not None:
        sensitivity = positive_scalar(sensitivity, "sensitivity")
    if solved == "delta":
        delta = float(_delta_from_mu(eps, sensitivity / sigma, method))
    elif solved == "eps":
        eps = _eps_scalar(delta, sensitivity / sigma, method)
    else:
        mu = _mu_scalar(eps, delta, method)
        if solved == "sigma":
            sigma = sensitivity / mu
        else:
            sensitivity = mu * sigma
        value = sigma if solved == "sigma" else sensitivity
        if not (np.isfinite(value) and value > 0):
            raise ValueError(
                f"The `{solved}` needed at `mu` = {mu:.3g} is beyond the range of "
                "floating-point numbers; choose less extreme values.")
    return GaussianSetting(eps=eps, delta=delta, sigma=sigma, sensitivity=sensitivity,
                           method=method, solved=solved)


# ---------------------------------------------------------------------------
# Tables for the page
# ---------------------------------------------------------------------------


def calibration_table(eps, delta, sensitivity=1.0) -> pd.DataFrame:
    """σ of each calibration for one (ε, δ, Δ), and how it compares with the exact one.

    Columns: ``method``, ``sigma``, ``ratio`` (σ / analytic σ), ``extra_noise``
    (ratio − 1), ``variance_ratio`` (ratio², the factor in noise variance, or
    in the data needed for the same accuracy), ``valid`` (False where the
    formula gives no guarantee: where it has no solution, and the classical
    one at ε ≥ ``CLASSICAL_MAX_EPS``) and ``note`` (why there is no solution:
    the ``ValueError`` message; "" otherwise).
    """
    eps = nonnegative_scalar(eps, "eps")
    delta = probability(delta, "delta")
    sens = positive_scalar(sensitivity, "sensitivity")
    rows = []
    for method in ("tail", "classical", "analytic"):
        try:
            sigma = sens / _mu_scalar(eps, delta, method)
            valid, note = True, ""
        except ValueError as exc:
            sigma, valid, note = np.nan, False, str(exc)
        if method == "classical" and valid and eps >= CLASSICAL_MAX_EPS:
            valid = False
        rows.append(dict(method=method, name=METHOD_NAMES[method], sigma=sigma,
                         valid=valid, note=note))
    table = pd.DataFrame(rows)
    exact = float(table.loc[table.method == "analytic", "sigma"].iloc[0])
    table["ratio"] = table.sigma / exact
    table["extra_noise"] = table.ratio - 1.0
    table["variance_ratio"] = table.ratio ** 2
    return table[["method", "name", "sigma", "ratio", "extra_noise", "variance_ratio",
                  "valid", "note"]]


def sigma_table(eps_values, delta_values, sensitivity=1.0) -> pd.DataFrame:
    """σ of the three calibrations on a grid of (ε, δ) pairs, one row per pair.

    Columns: ``eps``, ``delta``, ``sigma_analytic``, ``sigma_tail``,
    ``sigma_classical`` (NaN at ε = 0), ``classical_valid`` (ε < 1),
    ``tail_over_analytic``, ``classical_over_analytic``.
    """
    eps_values = np.atleast_1d(finite_array(eps_values, "eps_values", sign="nonnegative")).ravel()
    delta_values = np.atleast_1d(probability_array(delta_values, "delta_values")).ravel()
    sens = positive_scalar(sensitivity, "sensitivity")
    rows = []
    for e in eps_values:
        for d in delta_values:
            row = dict(eps=float(e), delta=float(d))
            for method in METHODS:
                try:
                    row[f"sigma_{method}"] = sens / _mu_scalar(float(e), float(d), method)
                except ValueError:
                    row[f"sigma_{method}"] = np.nan
            rows.append(row)
    table = pd.DataFrame(rows)
    table["classical_valid"] = table.eps < CLASSICAL_MAX_EPS
    table["tail_over_analytic"] = table.sigma_tail / table.sigma_analytic
    table["classical_over_analytic"] = table.sigma_classical / table.sigma_analytic
    return table


# ---------------------------------------------------------------------------
# Releasing a statistic
# ---------------------------------------------------------------------------

QUERIES = {
    "count": "a count (one person changes it by at most 1)",
    "sum": "a sum of values clipped to [0, U] (one person changes it by at most U)",
    "histogram": "a histogram (adding or removing one person changes one bin by 1)",
    "histogram_replace": "a histogram, neighbours differ by replacing one person "
                         "(two bins change by 1: L2 sensitivity √2)",
}


def query_sensitivity(query: str, *, upper=None) -> float:
    """L2 sensitivity of the queries the release demo offers (see ``QUERIES``)."""
    if query not in QUERIES:
        raise ValueError(f"`query` must be one of {', '.join(map(repr, QUERIES))}, got {query!r}.")
    if query == "sum":
        if upper is None:
            raise ValueError("`upper` (the clipping bound U of the sum) is required for a sum.")
        return positive_scalar(upper, "upper")
    return math.sqrt(2.0) if query == "histogram_replace" else 1.0


def release(true_value, sigma, *, size=None, rng=None) -> np.ndarray:
    """``true_value`` + N(0, σ²) noise, independently per entry.

    ``size`` independent releases are stacked on a new leading axis
    (``size=None``: one release, shaped like ``true_value``).
    """
    rng = np.random.default_rng(rng)
    value = finite_array(true_value, "true_value")
    sigma = positive_scalar(sigma, "sigma")
    shape = value.shape if size is None else (positive_integer(size, "size"), *value.shape)
    return value + rng.normal(0.0, sigma, size=shape)


def clipped_sum(values, upper, *, weights=None) -> float:
    """Σ min(max(x, 0), U) (times ``weights``, e.g. how many people have each value).

    Clipping to [0, U] is what bounds the sum's sensitivity by U.
    """
    upper = positive_scalar(upper, "upper")
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("`values` must be an array of numbers.") from None
    if not np.all(np.isfinite(x)):
        raise ValueError("`values` must be finite (no NaN or infinity).")
    clipped = np.clip(x, 0.0, upper)
    if weights is None:
        return float(clipped.sum())
    w = np.asarray(weights, dtype=float)
    if w.shape != x.shape:
        raise ValueError(f"`weights` must have the shape of `values`, got {w.shape} and {x.shape}.")
    return float(clipped @ w)


@dataclass(frozen=True)
class SimulatedError:
    """The error of simulated releases of one true value, to set beside the theory."""

    rmse: float  # √ mean (release − true)²
    negative_share: float  # share of releases below 0
    inside_share: float  # share within ± half_width of the true value


def summarise_releases(releases, true_value, *, half_width) -> SimulatedError:
    """Empirical RMSE, share below 0 and share within ± ``half_width`` of ``true_value``."""
    r = np.asarray(releases, dtype=float)
    if r.size == 0:
        raise ValueError("`releases` must not be empty.")
    true_value = float(true_value)
    half_width = nonnegative_scalar(half_width, "half_width")
    err = r - true_value
    # RMSE = ‖err/√n‖₂. math.hypot scales internally (by a power of two), so err² does not
    # overflow for errors beyond about 1e154 (a solved σ reaches 1e299); np.linalg.norm does
    # not scale (sqrt of a dot product: inf there). Dividing by √n first keeps the norm
    # itself within range wherever the RMSE is.
    rmse = math.hypot(*(err.ravel() / math.sqrt(err.size)).tolist())
    return SimulatedError(rmse=rmse,
                          negative_share=float(np.mean(r < 0)),
                          inside_share=float(np.mean(np.abs(err) <= half_width)))


@dataclass(frozen=True)
class ReleaseSummary:
    """Exact error of a Gaussian release of counts, per entry."""

    rmse: float  # = σ: the noise is unbiased
    half_width: float  # 95% (or ``level``) of releases fall within ± this of the truth
    p_negative: np.ndarray  # P(released count < 0) = Φ(−count/σ), per entry
    expected_negative: float  # expected number of negative entries


def release_summary(counts, sigma, *, level: float = 0.95) -> ReleaseSummary:
    """Closed-form error of releasing ``counts`` with N(0, σ²) noise."""
    counts = finite_array(counts, "counts", sign="nonnegative")
    sigma = positive_scalar(sigma, "sigma")
    level = probability(level, "level")
    p_neg = special.ndtr(-counts / sigma)
    return ReleaseSummary(rmse=sigma, half_width=float(special.ndtri(0.5 + level / 2)) * sigma,
                          p_negative=p_neg, expected_negative=float(np.sum(p_neg)))
