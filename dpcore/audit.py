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

from dpcore.validation import (
    category_count,
    nonnegative_scalar,
    one_of,
    positive_integer,
    positive_scalar,
)

__all__ = [
    "FAMILIES",
    "MAX_KRR_K",
    "MAX_REPS",
    "MECHANISMS",
    "audit_samples",
    "densities",
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
