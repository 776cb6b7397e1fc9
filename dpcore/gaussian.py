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

from dpcore.errors import ArgumentError
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

    Parameters
    ----------
    eps : float or array_like
        ε ≥ 0, the privacy-loss budget.
    sigma : float or array_like
        σ > 0, the standard deviation of the Gaussian noise.
    sensitivity : float or array_like, optional
        Δ > 0, the L2 sensitivity of the released statistic (default 1).
    method : {"analytic", "tail", "classical"}, optional
        The relation between ε, δ, σ and Δ (see Notes); default ``"analytic"``.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        δ in [0, 1], in the broadcast shape of ``eps``, ``sigma`` and ``sensitivity``
        (a NumPy scalar when all three are scalars). It depends on σ and Δ only
        through μ = Δ/σ.

    Raises
    ------
    ValueError
        If ``method`` is not one of ``METHODS``, ``eps`` is negative or not finite, or
        ``sigma`` or ``sensitivity`` is not a finite number > 0.

    Notes
    -----
    With μ = Δ/σ:

    - ``"analytic"``: δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ), [BW18] Theorem 8, the
      same curve as the μ-GDP bound of [DRS22] Corollary 2.13; computed without
      cancellation (module notes), so that tiny δ keep their relative accuracy.
    - ``"tail"``: δ = Φ(Δ/(2σ) − εσ/Δ), the final formula of [GMN25], there set to
      P(L > ε) for the privacy loss L ~ N(Δ²/2σ², Δ²/σ²). [GMN25] takes P(L > ε) ≤ δ
      as the definition of (ε, δ)-DP; it is only sufficient ([BW18]), so this δ is
      larger than the exact one.
    - ``"classical"``: [DR14] Theorem A.1, σ = Δ √(2 ln(1.25/δ))/ε, solved for δ by
      this project and capped at 1. The theorem is proved for ε < 1 only
      (``CLASSICAL_MAX_EPS``): for ε ≥ 1 the value is not a guarantee.

    Examples
    --------
    >>> from dpcore.gaussian import gaussian_delta
    >>> print(round(float(gaussian_delta(1.0, 2.0)), 4))
    0.0068
    >>> [round(float(gaussian_delta(1.0, 2.0, method=m)), 4)
    ...  for m in ("analytic", "tail", "classical")]
    [0.0068, 0.0401, 0.1692]
    >>> gaussian_delta([0.5, 1.0, 2.0], 2.0).round(4)
    array([0.0524, 0.0068, 0.    ])
    """
    method = one_of(method, "method", METHODS)
    eps = finite_array(eps, "eps", sign="nonnegative")
    sigma = finite_array(sigma, "sigma", sign="positive")
    sens = finite_array(sensitivity, "sensitivity", sign="positive")
    with np.errstate(over="ignore"):
        mu = sens / sigma
    return _delta_from_mu(eps, mu, method)[()]


def privacy_loss_moments(sigma, sensitivity=1.0) -> tuple[float, float]:
    """Mean and variance of the privacy loss L ~ N(Δ²/(2σ²), Δ²/σ²) [GMN25].

    L = ln p_{M(D₁)}(o)/p_{M(D₂)}(o) for an output o ~ M(D₁), at the worst case
    ‖f(D₁) − f(D₂)‖₂ = Δ.

    Parameters
    ----------
    sigma : float
        σ > 0, the standard deviation of the Gaussian noise.
    sensitivity : float, optional
        Δ > 0, the L2 sensitivity of the released statistic (default 1).

    Returns
    -------
    tuple of (float, float)
        (E[L], Var[L]) = (Δ²/(2σ²), Δ²/σ²) = (μ²/2, μ²) with μ = Δ/σ.

    Raises
    ------
    ValueError
        If ``sigma`` or ``sensitivity`` is not a finite number > 0.

    Notes
    -----
    [GMN25] derives L = s²/(2σ²) + (s/σ²) z, z ~ N(0, σ²), for a scalar query with
    s = f(D₁) − f(D₂), and takes |s| = Δ as the worst case. For a vector query
    with isotropic noise N(0, σ² I) the law is the same with ‖s‖₂ in place of
    |s|, which is how this project applies it.

    Examples
    --------
    >>> from dpcore.gaussian import privacy_loss_moments
    >>> privacy_loss_moments(2.0)
    (0.125, 0.25)
    >>> privacy_loss_moments(1.0, sensitivity=3.0)
    (4.5, 9.0)
    """
    sigma = positive_scalar(sigma, "sigma")
    sens = positive_scalar(sensitivity, "sensitivity")
    mu2 = (sens / sigma) ** 2
    return 0.5 * mu2, mu2


# ---------------------------------------------------------------------------
# Solving for μ = Δ/σ, for ε, and for the completed set
# ---------------------------------------------------------------------------


def _no_solution(eps: float, delta: float, method: str) -> ArgumentError:
    if method == "tail":
        return ArgumentError(
            "No noise level meets the tail bound at {name_a} = {eps:g} and {name_b} = {delta:g}: "
            "at {name_a} = 0 the privacy loss exceeds 0 with probability at least 1/2, so "
            "`{name_b}` must be at least 0.5 there. Raise `{name_a}` or `{name_b}`.",
            name_a="eps", name_b="delta", eps=eps, delta=delta,
        )
    return ArgumentError(
        "The classical calibration needs {name} > 0 (it divides by {name}), got {name} = {eps:g}.",
        name="eps", eps=eps,
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

    Parameters
    ----------
    eps : float or array_like
        ε ≥ 0.
    delta : float or array_like
        δ, strictly between 0 and 1; broadcast against ``eps``.
    method : {"analytic", "tail", "classical"}, optional
        The calibration (see :func:`gaussian_delta`); default ``"analytic"``.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        μ > 0, in the broadcast shape of ``eps`` and ``delta``. The Gaussian
        mechanism is (ε, δ)-DP by ``method`` for every σ ≥ Δ/μ.

    Raises
    ------
    ValueError
        If ``method`` is not one of ``METHODS``, ``eps`` is negative or not finite,
        ``delta`` is not strictly between 0 and 1, the shapes do not broadcast, or no
        μ > 0 exists: the tail bound at ε = 0 with δ ≤ 1/2, the classical formula at
        ε = 0.

    Notes
    -----
    ``"tail"``: Φ(μ/2 − ε/μ) = δ of [GMN25] is the quadratic μ²/2 − zμ − ε = 0 with
    z = Φ⁻¹(δ), solved in closed form by this project. ``"classical"``:
    μ = ε/√(2 ln(1.25/δ)), [DR14] Theorem A.1. ``"analytic"``: the root of the exact
    δ(ε) of [BW18] Theorem 8, by Brent's method on log δ in log μ (relative
    tolerance about 1e-13); at ε = 0, μ = 2√2 erf⁻¹(δ) exactly.

    Examples
    --------
    >>> from dpcore.gaussian import gaussian_delta, gaussian_mu
    >>> mu = gaussian_mu(1.0, 1e-5)
    >>> print(round(float(mu), 4))
    0.2681
    >>> print(f"{float(gaussian_delta(1.0, 1.0, sensitivity=mu)):.6g}")
    1e-05
    >>> gaussian_mu([0.5, 1.0, 2.0], 1e-5).round(4)
    array([0.1422, 0.2681, 0.5016])
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

    Parameters
    ----------
    eps : float or array_like
        ε ≥ 0.
    delta : float or array_like
        δ, strictly between 0 and 1.
    sensitivity : float or array_like, optional
        Δ > 0, the L2 sensitivity of the released statistic (default 1).
    method : {"analytic", "tail", "classical"}, optional
        The calibration (see :func:`gaussian_delta`); default ``"analytic"``.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        σ = Δ/μ with μ from :func:`gaussian_mu`, in the broadcast shape of the
        arguments.

    Raises
    ------
    ValueError
        If ``sensitivity`` is not a finite number > 0, or for any reason
        :func:`gaussian_mu` gives: a bad ``method``, ``eps`` or ``delta``, or no σ
        (the tail bound at ε = 0 with δ ≤ 1/2, where δ = 1/2 needs infinite
        noise; the classical formula at ε = 0).

    Notes
    -----
    ``"tail"`` solves δ = Φ(Δ/(2σ) − εσ/Δ) of [GMN25] for σ; ``"classical"`` is
    [DR14] Theorem A.1; ``"analytic"`` inverts [BW18] Theorem 8.

    Examples
    --------
    At (ε, δ) = (1, 1e-5) the exact σ is about 3.73 Δ; the tail bound and the
    classical formula ask for more noise:

    >>> from dpcore.gaussian import gaussian_sigma
    >>> [round(float(gaussian_sigma(1.0, 1e-5, method=m)), 4)
    ...  for m in ("analytic", "tail", "classical")]
    [3.7306, 4.3791, 4.8448]
    >>> print(round(float(gaussian_sigma(1.0, 1e-5, sensitivity=2.0)), 4))
    7.4613
    >>> gaussian_sigma(0.0, 0.1, method="tail")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: No noise level meets the tail bound at eps = 0 and delta = 0.1: ...
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

    Parameters
    ----------
    delta : float or array_like
        δ, strictly between 0 and 1.
    sigma : float or array_like
        σ > 0, the standard deviation of the Gaussian noise.
    sensitivity : float or array_like, optional
        Δ > 0, the L2 sensitivity of the released statistic (default 1).
    method : {"analytic", "tail", "classical"}, optional
        The calibration (see :func:`gaussian_delta`); default ``"analytic"``.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        ε ≥ 0, in the broadcast shape of the arguments.

    Raises
    ------
    ValueError
        If ``method`` is not one of ``METHODS``, ``delta`` is not strictly between 0
        and 1, ``sigma`` or ``sensitivity`` is not a finite number > 0, or the shapes
        do not broadcast.

    Notes
    -----
    ``"tail"``: ε = max(0, μ(μ/2 − Φ⁻¹(δ))), [GMN25]'s δ = Φ(μ/2 − ε/μ) solved for ε
    by this project; ``"classical"``: ε = μ √(2 ln(1.25/δ)), [DR14] Theorem A.1
    (a guarantee only where that ε is below 1); ``"analytic"``: the root of [BW18]
    Theorem 8's δ(ε) by Brent's method, bracketed by the tail bound's ε.

    Examples
    --------
    >>> from dpcore.gaussian import gaussian_epsilon, gaussian_sigma
    >>> sigma = gaussian_sigma(1.0, 1e-5)
    >>> print(round(float(gaussian_epsilon(1e-5, sigma)), 6))
    1.0

    At σ = Δ = 1 the exact δ(0) is 2Φ(1/2) − 1 ≈ 0.383, so δ = 0.5 holds at ε = 0:

    >>> print(float(gaussian_epsilon(0.5, 1.0)))
    0.0
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
    """A complete, consistent (ε, δ, σ, Δ) of the Gaussian mechanism under ``method``.

    The result of :func:`solve_gaussian`, a container of this project.

    Attributes
    ----------
    eps : float
        ε ≥ 0.
    delta : float
        δ: strictly between 0 and 1 when given; in [0, 1] when solved.
    sigma : float
        σ > 0, the noise standard deviation.
    sensitivity : float
        Δ > 0, the L2 sensitivity.
    method : str
        The calibration: ``"analytic"``, ``"tail"`` or ``"classical"``.
    solved : str
        Which of ``"eps"``, ``"delta"``, ``"sigma"``, ``"sensitivity"`` was computed.
    mu : float
        Δ/σ (a property): the mechanism is μ-GDP ([DRS22] Theorem 2.7).

    Examples
    --------
    >>> from dpcore.gaussian import solve_gaussian
    >>> setting = solve_gaussian(eps=1.0, delta=1e-5, sensitivity=1.0)
    >>> setting.solved, round(setting.sigma, 4), round(setting.mu, 4)
    ('sigma', 3.7306, 0.2681)
    """

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
        """The setting as a plain dict.

        Returns
        -------
        dict
            Keys ``eps``, ``delta``, ``sigma``, ``sensitivity``, ``mu``, ``method``,
            ``solved``.

        Examples
        --------
        >>> from dpcore.gaussian import solve_gaussian
        >>> d = solve_gaussian(eps=1.0, delta=None, sigma=2.0, sensitivity=2.0).as_dict()
        >>> sorted(d), d["mu"]
        (['delta', 'eps', 'method', 'mu', 'sensitivity', 'sigma', 'solved'], 1.0)
        """
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

    Parameters
    ----------
    eps : float or None, optional
        ε ≥ 0, or None to solve for it.
    delta : float or None, optional
        δ strictly between 0 and 1, or None to solve for it.
    sigma : float or None, optional
        σ > 0, the noise standard deviation, or None to solve for it.
    sensitivity : float or None, optional
        Δ > 0, the L2 sensitivity, or None to solve for it.
    method : {"analytic", "tail", "classical"}, optional
        The calibration (see :func:`gaussian_delta`); default ``"analytic"``.

    Returns
    -------
    GaussianSetting
        All four values, the ``method`` and which one was ``solved``.

    Raises
    ------
    ValueError
        If ``method`` is not one of ``METHODS``; if not exactly one of ``eps``,
        ``delta``, ``sigma``, ``sensitivity`` is None; if a given value is out of
        range (the message names it); if no σ or Δ exists (see
        :func:`gaussian_sigma`) or the solved one is not a finite float > 0.

    Notes
    -----
    The relations are those of :func:`gaussian_delta`, :func:`gaussian_epsilon` and
    :func:`gaussian_mu`: [BW18] Theorem 8 (``"analytic"``), [GMN25] (``"tail"``),
    [DR14] Theorem A.1 (``"classical"``). Solving for any one of the four is this
    project's.

    Examples
    --------
    >>> from dpcore.gaussian import solve_gaussian
    >>> round(solve_gaussian(eps=1.0, delta=1e-5, sensitivity=1.0).sigma, 4)
    3.7306
    >>> round(solve_gaussian(eps=1.0, sigma=1.0, sensitivity=1.0).delta, 4)
    0.1269
    >>> round(solve_gaussian(delta=0.1269367, sigma=1.0, sensitivity=1.0).eps, 4)
    1.0
    >>> solve_gaussian(eps=1.0, delta=1e-5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: Leave exactly one of `eps`, `delta`, `sigma`, `sensitivity` as
    None ...
    """
    method = one_of(method, "method", METHODS)
    given = dict(eps=eps, delta=delta, sigma=sigma, sensitivity=sensitivity)
    missing = [k for k, v in given.items() if v is None]
    if not missing:
        raise ArgumentError(
            "Leave exactly one of `{name_a}`, `{name_b}`, `{name_c}`, `{name_d}` as None (the one "
            "to solve for); got 0 missing: none.",
            name_a="eps", name_b="delta", name_c="sigma", name_d="sensitivity",
        )
    if len(missing) != 1:
        raise ArgumentError(
            "Leave exactly one of `{name_a}`, `{name_b}`, `{name_c}`, `{name_d}` as None (the one "
            "to solve for); got {count} missing: {missing}.",
            name_a="eps", name_b="delta", name_c="sigma", name_d="sensitivity",
            count=len(missing), missing=", ".join(missing),
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
            raise ArgumentError(
                "The `{name}` needed at `{name_b}` = {mu:.3g} is beyond the range of "
                "floating-point numbers; choose less extreme values.",
                name=solved, name_b="mu", mu=mu)
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
    the :class:`dpcore.errors.ArgumentError` refusing it, whose ``str()`` is its
    message; "" otherwise).

    Parameters
    ----------
    eps : float
        ε ≥ 0.
    delta : float
        δ, strictly between 0 and 1.
    sensitivity : float, optional
        Δ > 0, the L2 sensitivity (default 1).

    Returns
    -------
    pandas.DataFrame
        One row per method, in the order ``"tail"``, ``"classical"``, ``"analytic"``,
        with the columns ``method``, ``name`` (the label of ``METHOD_NAMES``),
        ``sigma`` (NaN where there is no solution), ``ratio``, ``extra_noise``,
        ``variance_ratio``, ``valid`` and ``note``, as above.

    Raises
    ------
    ValueError
        If ``eps`` is negative or not finite, ``delta`` is not strictly between 0
        and 1, or ``sensitivity`` is not a finite number > 0. A calibration without
        a solution does not raise: its row has ``valid`` False and the message in
        ``note``.

    Notes
    -----
    The calibrations are [GMN25] (``"tail"``), [DR14] Theorem A.1
    (``"classical"``) and [BW18] Theorem 8 (``"analytic"``); the comparison table
    is this project's.

    Examples
    --------
    >>> from dpcore.gaussian import calibration_table
    >>> calibration_table(0.5, 1e-5)[["method", "sigma", "ratio", "valid"]].round(3)
          method  sigma  ratio  valid
    0       tail  8.645  1.229   True
    1  classical  9.690  1.378   True
    2   analytic  7.032  1.000   True
    >>> calibration_table(2.0, 1e-5).valid.tolist()  # classical: proved for ε < 1 only
    [True, False, True]
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
            sigma, valid, note = np.nan, False, exc
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

    Parameters
    ----------
    eps_values : float or array_like
        The ε values, each ≥ 0 (flattened).
    delta_values : float or array_like
        The δ values, each strictly between 0 and 1 (flattened).
    sensitivity : float, optional
        Δ > 0, the L2 sensitivity (default 1).

    Returns
    -------
    pandas.DataFrame
        One row per pair, ε varying slowest, with the columns above. A σ is NaN
        where its calibration has no solution: the classical one at ε = 0, and the
        tail bound at ε = 0 with δ ≤ 1/2 (``sigma_tail`` NaN too).

    Raises
    ------
    ValueError
        If an ``eps_values`` entry is negative or not finite, a ``delta_values``
        entry is not strictly between 0 and 1, or ``sensitivity`` is not a finite
        number > 0.

    Notes
    -----
    [GMN25] (tail), [DR14] Theorem A.1 (classical), [BW18] Theorem 8 (analytic);
    the grid is this project's.

    Examples
    --------
    >>> from dpcore.gaussian import sigma_table
    >>> table = sigma_table([0.5, 1.0, 2.0], 1e-5)
    >>> columns = ["eps", "sigma_analytic", "sigma_tail", "sigma_classical", "classical_valid"]
    >>> table[columns].round(3)
       eps  sigma_analytic  sigma_tail  sigma_classical  classical_valid
    0  0.5           7.032       8.645            9.690             True
    1  1.0           3.731       4.379            4.845            False
    2  2.0           1.994       2.244            2.422            False
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
    """L2 sensitivity of the queries the release demo offers (see ``QUERIES``).

    Parameters
    ----------
    query : {"count", "sum", "histogram", "histogram_replace"}
        The query, a key of ``QUERIES``.
    upper : float, optional
        U > 0, the clipping bound of a ``"sum"`` (required there, ignored otherwise).

    Returns
    -------
    float
        Δ: 1 for a count and for a histogram under adding or removing one person,
        √2 for a histogram under replacing one person (two bins change by 1), U for
        a sum of values clipped to [0, U].

    Raises
    ------
    ValueError
        If ``query`` is not a key of ``QUERIES``, or for ``"sum"`` if ``upper`` is
        missing or not a finite number > 0.

    Notes
    -----
    The Δ of [GMN25]'s Gaussian mechanism, for the queries of this project's
    release demo; the values are the standard ones, not taken from the sources.

    Examples
    --------
    >>> from dpcore.gaussian import query_sensitivity
    >>> query_sensitivity("count"), round(query_sensitivity("histogram_replace"), 4)
    (1.0, 1.4142)
    >>> query_sensitivity("sum", upper=100)
    100.0
    """
    if query not in QUERIES:
        raise ArgumentError("`{name}` must be one of {choices}, got {value!r}.", name="query",
                            choices=", ".join(map(repr, QUERIES)), value=query)
    if query == "sum":
        if upper is None:
            raise ArgumentError("`{name}` (the clipping bound U of the sum) is required for a sum.",
                                name="upper")
        return positive_scalar(upper, "upper")
    return math.sqrt(2.0) if query == "histogram_replace" else 1.0


def release(true_value, sigma, *, size=None, rng=None) -> np.ndarray:
    """``true_value`` + N(0, σ²) noise, independently per entry.

    ``size`` independent releases are stacked on a new leading axis
    (``size=None``: one release, shaped like ``true_value``).

    Parameters
    ----------
    true_value : float or array_like
        f(D), the exact statistic (finite).
    sigma : float
        σ > 0, the noise standard deviation.
    size : int, optional
        The number of independent releases (≥ 1); None (default) for one.
    rng : None, int or numpy.random.Generator, optional
        The random source, normalised by ``np.random.default_rng``.

    Returns
    -------
    numpy.ndarray or numpy.float64
        M(D) = f(D) + N(0, σ² I): shaped like ``true_value`` (a NumPy scalar for a
        scalar), or ``(size, *true_value.shape)``.

    Raises
    ------
    ValueError
        If ``true_value`` is not finite, ``sigma`` is not a finite number > 0, or
        ``size`` is not a positive integer.

    Notes
    -----
    The Gaussian mechanism M(D) = f(D) + N(0, σ²) of [GMN25].

    Examples
    --------
    >>> from dpcore.gaussian import release
    >>> print(round(float(release(10.0, 1.0, rng=1)), 4))
    10.3456
    >>> release([5.0, 7.0], 2.0, size=3, rng=1).round(3)
    array([[5.691, 8.643],
           [5.661, 4.394],
           [6.811, 7.893]])
    """
    rng = np.random.default_rng(rng)
    value = finite_array(true_value, "true_value")
    sigma = positive_scalar(sigma, "sigma")
    shape = value.shape if size is None else (positive_integer(size, "size"), *value.shape)
    return value + rng.normal(0.0, sigma, size=shape)


def clipped_sum(values, upper, *, weights=None) -> float:
    """Σ min(max(x, 0), U) (times ``weights``, e.g. how many people have each value).

    Clipping to [0, U] is what bounds the sum's sensitivity by U.

    Parameters
    ----------
    values : array_like
        The values x (finite numbers).
    upper : float
        U > 0, the clipping bound.
    weights : array_like, optional
        A weight per value, in the shape of ``values`` (None: every weight 1).

    Returns
    -------
    float
        Σ_i w_i min(max(x_i, 0), U).

    Raises
    ------
    ValueError
        If ``upper`` is not a finite number > 0, ``values`` is not an array of
        finite numbers, or ``weights`` does not have the shape of ``values``.

    Notes
    -----
    A helper of this project's release demo (the ``"sum"`` query of
    :func:`query_sensitivity`); not from the sources.

    Examples
    --------
    >>> from dpcore.gaussian import clipped_sum
    >>> clipped_sum([-2.0, 0.5, 3.0], 1.0)
    1.5
    >>> clipped_sum([0.5, 3.0], 1.0, weights=[10, 2])
    7.0
    """
    upper = positive_scalar(upper, "upper")
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ArgumentError("`{name}` must be an array of numbers.", name="values") from None
    if not np.all(np.isfinite(x)):
        raise ArgumentError("`{name}` must be finite (no NaN or infinity).", name="values")
    clipped = np.clip(x, 0.0, upper)
    if weights is None:
        return float(clipped.sum())
    w = np.asarray(weights, dtype=float)
    if w.shape != x.shape:
        raise ArgumentError(
            "`{name}` must have the shape of `{name_b}`, got {shape} and {shape_b}.",
            name="weights", name_b="values", shape=w.shape, shape_b=x.shape)
    return float(clipped @ w)


@dataclass(frozen=True)
class SimulatedError:
    """The error of simulated releases of one true value, to set beside the theory.

    The result of :func:`summarise_releases`, a container of this project.

    Attributes
    ----------
    rmse : float
        √ mean (release − true)², the empirical root mean squared error.
    negative_share : float
        The share of releases below 0.
    inside_share : float
        The share of releases within ± ``half_width`` of the true value.

    Examples
    --------
    >>> from dpcore.gaussian import SimulatedError
    >>> SimulatedError(rmse=2.0, negative_share=0.0, inside_share=0.95).inside_share
    0.95
    """

    rmse: float  # √ mean (release − true)²
    negative_share: float  # share of releases below 0
    inside_share: float  # share within ± half_width of the true value


def summarise_releases(releases, true_value, *, half_width) -> SimulatedError:
    """Empirical RMSE, share below 0 and share within ± ``half_width`` of ``true_value``.

    Parameters
    ----------
    releases : array_like
        The released values (any shape, not empty).
    true_value : float
        The exact value they release.
    half_width : float
        ≥ 0: a release within ± this of ``true_value`` counts as inside.

    Returns
    -------
    SimulatedError
        ``rmse``, ``negative_share`` and ``inside_share`` over all entries of
        ``releases``.

    Raises
    ------
    ValueError
        If ``releases`` is empty or ``half_width`` is negative or not finite.

    Notes
    -----
    This project's check of :func:`release_summary` by simulation. The RMSE is
    computed with ``math.hypot`` so that it does not overflow for errors beyond
    about 1e154.

    Examples
    --------
    With σ = 2, about 95% of releases fall within ± 1.96σ = 3.92 and the RMSE is
    close to σ:

    >>> from dpcore.gaussian import release, summarise_releases
    >>> r = release(10.0, 2.0, size=10_000, rng=1)
    >>> s = summarise_releases(r, 10.0, half_width=3.92)
    >>> round(s.rmse, 3), s.negative_share, s.inside_share
    (1.997, 0.0, 0.9518)
    """
    r = np.asarray(releases, dtype=float)
    if r.size == 0:
        raise ArgumentError("`{name}` must not be empty.", name="releases")
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
    """Exact error of a Gaussian release of counts, per entry.

    The result of :func:`release_summary`, a container of this project.

    Attributes
    ----------
    rmse : float
        The root mean squared error, = σ (the noise is unbiased).
    half_width : float
        ``level`` (e.g. 95%) of releases fall within ± this of the truth.
    p_negative : numpy.ndarray
        P(released count < 0) = Φ(−count/σ), per entry.
    expected_negative : float
        The expected number of negative entries, Σ ``p_negative``.

    Examples
    --------
    >>> from dpcore.gaussian import release_summary
    >>> release_summary([10.0], 2.0).rmse
    2.0
    """

    rmse: float  # = σ: the noise is unbiased
    half_width: float  # 95% (or ``level``) of releases fall within ± this of the truth
    p_negative: np.ndarray  # P(released count < 0) = Φ(−count/σ), per entry
    expected_negative: float  # expected number of negative entries


def release_summary(counts, sigma, *, level: float = 0.95) -> ReleaseSummary:
    """Closed-form error of releasing ``counts`` with N(0, σ²) noise.

    Parameters
    ----------
    counts : float or array_like
        The exact counts, finite and ≥ 0.
    sigma : float
        σ > 0, the noise standard deviation.
    level : float, optional
        The coverage of ``half_width``, strictly between 0 and 1 (default 0.95).

    Returns
    -------
    ReleaseSummary
        ``rmse`` = σ, ``half_width`` = Φ⁻¹(1/2 + level/2) σ, ``p_negative`` =
        Φ(−count/σ) per entry and ``expected_negative`` = Σ ``p_negative``.

    Raises
    ------
    ValueError
        If ``counts`` has a negative or non-finite entry, ``sigma`` is not a finite
        number > 0, or ``level`` is not strictly between 0 and 1.

    Notes
    -----
    Properties of N(0, σ²) noise on the counts released by [GMN25]'s mechanism;
    the summary is this project's.

    Examples
    --------
    >>> from dpcore.gaussian import release_summary
    >>> s = release_summary([0.0, 2.0, 10.0], 2.0)
    >>> round(s.half_width, 3), s.p_negative.round(4), round(s.expected_negative, 4)
    (3.92, array([0.5   , 0.1587, 0.    ]), 0.6587)
    """
    counts = finite_array(counts, "counts", sign="nonnegative")
    sigma = positive_scalar(sigma, "sigma")
    level = probability(level, "level")
    p_neg = special.ndtr(-counts / sigma)
    return ReleaseSummary(rmse=sigma, half_width=float(special.ndtri(0.5 + level / 2)) * sigma,
                          p_negative=p_neg, expected_negative=float(np.sum(p_neg)))
