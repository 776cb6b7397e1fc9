"""Privacy as an attacker sees it: threshold tests and simulated audits.

Companion of :mod:`dpcore.fdp` for the dashboard's page "f-DP and Gaussian DP":

- ``threshold_test``: the type-I and type-II errors of the attacker who
  rejects "the data set is D" when the output exceeds a threshold t, for the
  pairs N(0, 1) vs N(mu, 1) and Lap(0, 1) vs Lap(eps, 1), with the two
  densities (``densities``). Both likelihood ratios increase with the
  output, so every threshold test lies on the trade-off curve.
- ``audit_samples``: outputs of a mechanism on two neighbouring inputs, the
  raw material of an empirical trade-off curve
  (:func:`dpcore.fdp.empirical_tradeoff`).
- ``beta_hat_sd`` and ``krr_beta_hat_sd``: how far the auditor's estimate
  of beta at a fixed alpha scatters from audit to audit (the delta method for
  continuous outputs, repeated simulated audits for k-RR).
- ``gdp_epsilon``: the smallest eps for which mu-GDP gives (eps, delta)-DP,
  the inverse in eps of Corollary 2.13 (:func:`dpcore.fdp.gdp_delta`).

Conventions as in the rest of dpcore: data arguments positional, options
keyword-only, ``rng`` normalised by ``np.random.default_rng``, bad arguments
raise ``ValueError`` naming the parameter.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy import special, stats

from dpcore import fdp
from dpcore.validation import (
    category_count,
    finite_array,
    nonnegative_scalar,
    one_of,
    positive_integer,
    positive_scalar,
    probability_array,
)

__all__ = [
    "FAMILIES",
    "MAX_KRR_K",
    "MAX_REPS",
    "MECHANISMS",
    "audit_samples",
    "beta_hat_sd",
    "densities",
    "krr_beta_hat_sd",
    "threshold_for_alpha",
    "threshold_test",
]

FAMILIES = ("gaussian", "laplace")
# Mechanism -> (required parameters, optional parameters with their defaults).
MECHANISMS: dict[str, tuple[tuple[str, ...], dict[str, float]]] = {
    "gaussian": (("sigma",), {"sensitivity": 1.0}),
    "laplace": (("b",), {"sensitivity": 1.0}),
    "krr": (("eps", "k"), {}),
}
MAX_REPS = 100_000  # draws per input: enough for a smooth curve, a second or less
MAX_KRR_K = 1000  # fdp.empirical_tradeoff treats at most 1,000 distinct outputs as discrete


def threshold_test(family: str, shift, threshold):
    """Errors of the test "reject D when the output X exceeds t".

    Under D the output is N(0, 1) (``family="gaussian"``) or Lap(0, 1)
    (``"laplace"``); under D' it is shifted by ``shift`` (mu or eps).
    Returns (alpha, beta) = (P0(X > t), P1(X <= t)), vectorised over t.
    """
    family = one_of(family, "family", FAMILIES)
    shift = nonnegative_scalar(shift, "shift")
    t = np.asarray(threshold, dtype=float)
    if np.any(np.isnan(t)):
        raise ValueError("`threshold` must be a number (not NaN).")
    dist = stats.norm if family == "gaussian" else stats.laplace
    return dist.sf(t)[()], dist.cdf(t - shift)[()]


def threshold_for_alpha(family: str, alpha):
    """The threshold t whose test "reject D when X > t" has type-I error exactly ``alpha``:
    the (1 - alpha) quantile of N(0, 1) or Lap(0, 1) (the output under D), vectorised.
    With :func:`threshold_test` it gives the point of the trade-off curve at ``alpha``."""
    family = one_of(family, "family", FAMILIES)
    alpha = probability_array(alpha, "alpha")
    dist = stats.norm if family == "gaussian" else stats.laplace
    return dist.isf(alpha)[()]


def densities(family: str, shift, x):
    """The two output densities (under D and under D') at the points ``x``."""
    family = one_of(family, "family", FAMILIES)
    shift = nonnegative_scalar(shift, "shift")
    x = np.asarray(x, dtype=float)
    dist = stats.norm if family == "gaussian" else stats.laplace
    return dist.pdf(x), dist.pdf(x - shift)


def _params(mechanism: str, params) -> dict[str, float]:
    one_of(mechanism, "mechanism", MECHANISMS)
    if not isinstance(params, Mapping):
        raise ValueError("`params` must be a mapping of parameter names to values.")
    required, optional = MECHANISMS[mechanism]
    unknown = sorted(set(params) - set(required) - set(optional))
    if unknown:
        raise ValueError(
            f"`params` has unknown parameter(s) {', '.join(map(str, unknown))} for "
            f"{mechanism!r}; expected {', '.join((*required, *optional))}."
        )
    missing = [name for name in required if name not in params]
    if missing:
        raise ValueError(f"`{missing[0]}` is required for the {mechanism!r} mechanism.")
    out = {**optional, **params}
    if mechanism == "krr":
        eps = nonnegative_scalar(out["eps"], "eps")
        k = category_count(out["k"], "k", maximum=MAX_KRR_K)
        return {"eps": eps, "k": k}
    scale = "sigma" if mechanism == "gaussian" else "b"
    return {scale: positive_scalar(out[scale], scale),
            "sensitivity": positive_scalar(out["sensitivity"], "sensitivity")}


def audit_samples(mechanism: str, params, reps: int, *, rng=None):
    """Outputs of a mechanism on two neighbouring inputs, ``reps`` draws each.

    ``mechanism`` and ``params``:

    - ``"gaussian"``, ``{"sigma": s, "sensitivity": d}``: the query answers
      0 on D and d on D' (d defaults to 1); outputs N(0, s^2) and N(d, s^2);
      the exact curve is G_{d/s};
    - ``"laplace"``, ``{"b": b, "sensitivity": d}``: outputs Lap(0, b) and
      Lap(d, b); the exact curve is ``fdp.laplace_tradeoff(alpha, d/b)``;
    - ``"krr"``, ``{"eps": e, "k": k}``: k-ary randomised response of the
      true value 0 (on D) and 1 (on D'): report it with probability
      e^e/(e^e + k - 1), otherwise one of the k - 1 other values uniformly;
      outputs are integers 0 .. k-1 and the exact curve is
      ``fdp.krr_tradeoff(e, k)``.

    ``reps`` is at most ``MAX_REPS`` (100,000). Returns two float arrays of
    length ``reps``: the outputs on D and on D'.
    """
    params = _params(mechanism, params)
    reps = positive_integer(reps, "reps", maximum=MAX_REPS)
    rng = np.random.default_rng(rng)
    if mechanism == "gaussian":
        s, d = params["sigma"], params["sensitivity"]
        return rng.normal(0.0, s, reps), rng.normal(d, s, reps)
    if mechanism == "laplace":
        b, d = params["b"], params["sensitivity"]
        return rng.laplace(0.0, b, reps), rng.laplace(d, b, reps)
    eps, k = params["eps"], params["k"]
    # P(report the truth) = e^eps / (e^eps + k - 1), computed without overflow.
    keep = special.expit(eps - np.log(k - 1))

    def respond(truth: int) -> np.ndarray:
        honest = rng.random(reps) < keep
        other = rng.integers(0, k - 1, reps)
        other = other + (other >= truth)  # uniform over the k - 1 values != truth
        return np.where(honest, truth, other).astype(float)

    return respond(0), respond(1)


def beta_hat_sd(alpha, beta, slope, reps: int, reps1: int | None = None):
    """Standard deviation of the auditor's beta-hat at a fixed alpha, by the delta method.

    Parameters
    ----------
    alpha, beta : array_like
        Points (alpha, f(alpha)) of the exact trade-off curve f, in [0, 1].
    slope : array_like
        f'(alpha), <= 0 (:func:`dpcore.fdp.gdp_slope`, :func:`dpcore.fdp.laplace_slope`).
    reps : int
        Draws on D, the sample that estimates alpha.
    reps1 : int, optional
        Draws on D', the sample that estimates beta; `reps` if not given.

    Returns
    -------
    float or numpy.ndarray
        sqrt(beta (1 - beta)/reps1 + f'(alpha)^2 alpha (1 - alpha)/reps),
        broadcast over the arguments.

    Notes
    -----
    The auditor (:func:`audit_samples`, then :func:`dpcore.fdp.empirical_tradeoff`
    and :func:`dpcore.fdp.curve_at`) draws `reps` outputs on D and `reps1` on
    D', independently, and reads the empirical curve at alpha: it rejects above
    t-hat, where the empirical alpha-hat(t) = (share of the D sample above t)
    crosses alpha, and beta-hat = F1-hat(t-hat), the share of the D' sample at
    or below t-hat. With p0, p1 the two densities and t the exact threshold,
    t-hat - t ~ (alpha-hat(t) - alpha)/p0(t), so
    beta-hat - beta ~ (F1-hat(t) - beta) + p1(t)(t-hat - t)
    = (F1-hat(t) - beta) - f'(alpha)(alpha-hat(t) - alpha), as
    f'(alpha) = -p1(t)/p0(t). The two terms come from independent samples,
    with variances beta(1 - beta)/reps1 and alpha(1 - alpha)/reps. The first
    term alone, sqrt(beta(1 - beta)/R), ignores that the level of the test is
    itself estimated and is too small wherever |f'(alpha)| is not small. The
    formula needs continuous outputs whose likelihood ratio increases (threshold
    tests are then the best tests): the Gaussian and Laplace mechanisms. For
    k-RR use :func:`krr_beta_hat_sd`.
    """
    a = probability_array(alpha, "alpha", closed=True)
    b = probability_array(beta, "beta", closed=True)
    f1 = finite_array(slope, "slope")
    if np.any(f1 > 0):
        raise ValueError("`slope` must be <= 0: a trade-off curve does not increase.")
    reps = positive_integer(reps, "reps")
    reps1 = reps if reps1 is None else positive_integer(reps1, "reps1")
    return np.sqrt(b * (1 - b) / reps1 + f1 * f1 * a * (1 - a) / reps)[()]


def krr_beta_hat_sd(eps, k: int, reps: int, alpha, *, repeats: int = 400, rng=None):
    """Standard deviation of the auditor's beta-hat for k-RR, over simulated audits.

    Parameters
    ----------
    eps : float
        k-RR's eps, >= 0.
    k : int
        Categories, 2 to ``MAX_KRR_K``.
    reps : int
        Draws on each of the two inputs, at most ``MAX_REPS``.
    alpha : array_like
        Levels at which the empirical curve is read, in [0, 1].
    repeats : int, default 400
        Simulated audits; the sd has a relative standard error of about
        1/sqrt(2 repeats) (3.5 % for 400).
    rng : optional
        Anything ``np.random.default_rng`` accepts.

    Returns
    -------
    float or numpy.ndarray
        The sample sd (ddof = 1) of beta-hat at each alpha, shaped like `alpha`.

    Notes
    -----
    The auditor's curve for integer outputs is the Neyman-Pearson polygon of
    the two empirical distributions (:func:`dpcore.fdp.empirical_tradeoff`),
    a function of the category counts alone, so each audit draws the two
    multinomial count vectors (reps, row of the true value 0 or 1) instead of
    2 reps outputs. k-RR's k - 2 other categories have likelihood ratio 1:
    their empirical ratios tie at random, the order of the tests is random and
    the delta method of :func:`beta_hat_sd` does not apply.
    """
    eps = nonnegative_scalar(eps, "eps")
    k = category_count(k, "k", maximum=MAX_KRR_K)
    reps = positive_integer(reps, "reps", maximum=MAX_REPS)
    a = probability_array(alpha, "alpha", closed=True)
    repeats = positive_integer(repeats, "repeats", maximum=100_000)
    if repeats < 2:
        raise ValueError("`repeats` must be at least 2 for a standard deviation.")
    rng = np.random.default_rng(rng)
    keep = special.expit(eps - np.log(k - 1))  # P(report the truth), as in audit_samples
    other = (1.0 - keep) / (k - 1)
    row0 = np.full(k, other)
    row0[0] = keep
    row1 = np.full(k, other)
    row1[1] = keep
    counts0 = rng.multinomial(reps, row0 / row0.sum(), size=repeats)
    counts1 = rng.multinomial(reps, row1 / row1.sum(), size=repeats)
    estimates = np.array([fdp.curve_at(*fdp.tradeoff_discrete(c0 / reps, c1 / reps), a.ravel())
                          for c0, c1 in zip(counts0, counts1)])
    return estimates.std(axis=0, ddof=1).reshape(a.shape)[()]
