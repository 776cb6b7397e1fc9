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
from dpcore.errors import ArgumentError
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

    Parameters
    ----------
    family : {"gaussian", "laplace"}
        The noise family (``FAMILIES``).
    shift : float
        The mean of the output under D': mu for the Gaussian pair, eps for the
        Laplace pair; >= 0.
    threshold : float or array_like
        The threshold t; any real number, +-inf included, but not NaN.

    Returns
    -------
    alpha, beta : numpy.float64 or numpy.ndarray
        The type-I error P0(X > t) and the type-II error P1(X <= t), each shaped
        like `threshold`.

    Raises
    ------
    ValueError
        If `family` is not one of ``FAMILIES``, `shift` is not a finite number >= 0,
        or `threshold` holds NaN.

    Notes
    -----
    Source: for the Gaussian pair, the test of [DRS22]'s derivation of G_mu as the
    review seed 001 gives it: alpha(t) = 1 - Phi(t), beta(t) = Phi(t - mu). The
    Laplace pair is this project's. Neither likelihood ratio decreases in x, so each
    threshold test is most powerful (Neyman-Pearson) and (alpha, beta) lies on
    :func:`dpcore.fdp.gdp_tradeoff` or :func:`dpcore.fdp.laplace_tradeoff`.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.audit import threshold_test
    >>> from dpcore.fdp import laplace_tradeoff
    >>> a, b = threshold_test("gaussian", 1.0, 1.6449)
    >>> round(float(a), 4), round(float(b), 4)
    (0.05, 0.7405)
    >>> a, b = threshold_test("laplace", 1.0, [0.0, 1.0])
    >>> np.round(a, 4), np.round(b, 4)
    (array([0.5   , 0.1839]), array([0.1839, 0.5   ]))
    >>> bool(np.allclose(laplace_tradeoff(a, 1.0), b))
    True
    """
    family = one_of(family, "family", FAMILIES)
    shift = nonnegative_scalar(shift, "shift")
    t = np.asarray(threshold, dtype=float)
    if np.any(np.isnan(t)):
        raise ArgumentError("`{name}` must be a number (not NaN).", name="threshold")
    dist = stats.norm if family == "gaussian" else stats.laplace
    return dist.sf(t)[()], dist.cdf(t - shift)[()]


def threshold_for_alpha(family: str, alpha):
    """The threshold t whose test "reject D when X > t" has type-I error exactly ``alpha``.

    It is the (1 - alpha) quantile of N(0, 1) or Lap(0, 1) (the output under D),
    vectorised. With :func:`threshold_test` it gives the point of the trade-off
    curve at ``alpha``.

    Parameters
    ----------
    family : {"gaussian", "laplace"}
        The noise family (``FAMILIES``).
    alpha : float or array_like
        Type-I errors, strictly between 0 and 1.

    Returns
    -------
    numpy.float64 or numpy.ndarray
        The thresholds t, shaped like `alpha`.

    Raises
    ------
    ValueError
        If `family` is not one of ``FAMILIES``, or an entry of `alpha` is not strictly
        between 0 and 1.

    Notes
    -----
    Source: for the Gaussian pair, t = Phi^{-1}(1 - alpha) of [DRS22]'s derivation
    of G_mu (review seed 001); the Laplace quantile is this project's.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.audit import threshold_for_alpha, threshold_test
    >>> round(float(threshold_for_alpha("gaussian", 0.05)), 4)
    1.6449
    >>> np.round(threshold_for_alpha("laplace", [0.05, 0.5]), 4)  # log 10 and 0
    array([2.3026, 0.    ])
    >>> a, b = threshold_test("gaussian", 1.0, threshold_for_alpha("gaussian", 0.05))
    >>> round(float(a), 4), round(float(b), 4)  # the point (0.05, G_1(0.05))
    (0.05, 0.7405)
    """
    family = one_of(family, "family", FAMILIES)
    alpha = probability_array(alpha, "alpha")
    dist = stats.norm if family == "gaussian" else stats.laplace
    return dist.isf(alpha)[()]


def densities(family: str, shift, x):
    """The two output densities (under D and under D') at the points ``x``.

    Parameters
    ----------
    family : {"gaussian", "laplace"}
        The noise family (``FAMILIES``): N(0, 1) and N(shift, 1), or Lap(0, 1) and
        Lap(shift, 1).
    shift : float
        The mean under D' (mu or eps), >= 0.
    x : float or array_like
        The points; not checked (NaN gives NaN).

    Returns
    -------
    p0, p1 : numpy.float64 or numpy.ndarray
        The density under D and the density under D' at `x`, each shaped like `x`.

    Raises
    ------
    ValueError
        If `family` is not one of ``FAMILIES``, or `shift` is not a finite number >= 0.

    Notes
    -----
    Source: this project's (the page's figure of the attacker's test); the Gaussian
    pair is that of [DRS22]'s G_mu. The ratio p1/p0 is the likelihood ratio of the
    Neyman-Pearson test: exp(mu x - mu^2/2) for the Gaussian pair, and for the
    Laplace pair increasing from e^{-eps} to e^{eps} between x = 0 and x = eps.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.audit import densities
    >>> p0, p1 = densities("gaussian", 1.0, [0.0, 0.5])
    >>> np.round(p0, 4), np.round(p1 / p0, 4)
    (array([0.3989, 0.3521]), array([0.6065, 1.    ]))
    >>> p0, p1 = densities("laplace", 1.0, [0.0, 0.5, 2.0])
    >>> np.round(p1 / p0, 4)
    array([0.3679, 1.    , 2.7183])
    """
    family = one_of(family, "family", FAMILIES)
    shift = nonnegative_scalar(shift, "shift")
    x = np.asarray(x, dtype=float)
    dist = stats.norm if family == "gaussian" else stats.laplace
    return dist.pdf(x), dist.pdf(x - shift)


def _params(mechanism: str, params) -> dict[str, float]:
    one_of(mechanism, "mechanism", MECHANISMS)
    if not isinstance(params, Mapping):
        raise ArgumentError("`{name}` must be a mapping of parameter names to values.",
                            name="params")
    required, optional = MECHANISMS[mechanism]
    unknown = sorted(set(params) - set(required) - set(optional))
    if unknown:
        raise ArgumentError(
            "`{name}` has unknown parameter(s) {unknown} for {mechanism!r}; expected {expected}.",
            name="params", unknown=", ".join(map(str, unknown)), mechanism=mechanism,
            expected=", ".join((*required, *optional)),
        )
    missing = [name for name in required if name not in params]
    if missing:
        raise ArgumentError("`{name}` is required for the {mechanism!r} mechanism.",
                            name=missing[0], mechanism=mechanism)
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

    Parameters
    ----------
    mechanism : {"gaussian", "laplace", "krr"}
        The mechanism (a key of ``MECHANISMS``).
    params : mapping
        Its parameters, as listed above: ``sigma`` or ``b`` finite and > 0,
        ``sensitivity`` finite and > 0 (default 1), ``eps`` finite and >= 0,
        ``k`` an integer from 2 to ``MAX_KRR_K``.
    reps : int
        Draws on each input, 1 to ``MAX_REPS``.
    rng : None, int or numpy.random.Generator, optional
        Keyword-only; normalised by ``np.random.default_rng``. The draws on D come
        first, then those on D'.

    Returns
    -------
    samples0, samples1 : numpy.ndarray
        float64 arrays of length `reps`: the outputs on D and on D'.

    Raises
    ------
    ValueError
        If `mechanism` is not one of ``MECHANISMS``; `params` is not a mapping, has a
        key the mechanism does not take or lacks a required one; a parameter is out
        of range (``sigma``, ``b``, ``sensitivity``, ``eps``, ``k``, named in the
        message); or `reps` is not an integer from 1 to ``MAX_REPS``.

    Notes
    -----
    Source: this project's simulated audit. The Gaussian mechanism with
    sigma = Delta/mu is mu-GDP ([DRS22], as the review seed 001 states); k-RR is
    [KBR16]'s. Feed the two samples to :func:`dpcore.fdp.empirical_tradeoff`.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.audit import audit_samples
    >>> from dpcore.fdp import curve_at, empirical_tradeoff, gdp_tradeoff
    >>> x0, x1 = audit_samples("gaussian", {"sigma": 1.0}, 20_000, rng=1)
    >>> x0.shape, x0.dtype
    ((20000,), dtype('float64'))
    >>> a, b = empirical_tradeoff(x0, x1)
    >>> round(float(curve_at(a, b, 0.05)), 2), round(float(gdp_tradeoff(0.05, 1.0)), 2)
    (0.74, 0.74)
    >>> audit_samples("krr", {"eps": 1.0, "k": 4}, 8, rng=1)
    (array([2., 2., 0., 1., 0., 0., 3., 0.]), array([1., 3., 1., 1., 1., 1., 1., 1.]))
    >>> audit_samples("gaussian", {"b": 1.0}, 10)
    Traceback (most recent call last):
        ...
    dpcore.errors.ArgumentError: `params` has unknown parameter(s) b for 'gaussian'; expected sigma,
    sensitivity.
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
    alpha : float or array_like
        Type-I errors alpha of points (alpha, f(alpha)) of the exact trade-off
        curve f, in [0, 1].
    beta : float or array_like
        The type-II errors f(alpha) of the same points, in [0, 1].
    slope : float or array_like
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

    Raises
    ------
    ValueError
        If an entry of `alpha` or `beta` is not in [0, 1], `slope` holds a
        non-finite or positive entry, or `reps` or `reps1` is not a positive integer.

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

    Source: this project's delta-method derivation (above); the references do not
    treat the auditor's error.

    Examples
    --------
    For G_1 at alpha = 0.05 and 10,000 draws on each input, the estimated level
    nearly doubles the spread of beta-hat:

    >>> import numpy as np
    >>> from dpcore.audit import beta_hat_sd
    >>> from dpcore.fdp import gdp_slope, gdp_tradeoff
    >>> a = 0.05
    >>> b = gdp_tradeoff(a, 1.0)
    >>> round(float(beta_hat_sd(a, b, gdp_slope(a, 1.0), 10_000)), 4)
    0.0081
    >>> round(float(np.sqrt(b * (1 - b) / 10_000)), 4)  # the first term alone
    0.0044
    """
    a = probability_array(alpha, "alpha", closed=True)
    b = probability_array(beta, "beta", closed=True)
    f1 = finite_array(slope, "slope")
    if np.any(f1 > 0):
        raise ArgumentError("`{name}` must be <= 0: a trade-off curve does not increase.",
                            name="slope")
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
    alpha : float or array_like
        Levels at which the empirical curve is read, in [0, 1].
    repeats : int, default 400
        Keyword-only. Simulated audits, 2 to 100,000; the sd has a relative
        standard error of about 1/sqrt(2 repeats) (3.5 % for 400).
    rng : None, int or numpy.random.Generator, optional
        Keyword-only; anything ``np.random.default_rng`` accepts.

    Returns
    -------
    float or numpy.ndarray
        The sample sd (ddof = 1) of beta-hat at each alpha, shaped like `alpha`.

    Raises
    ------
    ValueError
        If `eps` is not a finite number >= 0, `k` is not an integer from 2 to
        ``MAX_KRR_K``, `reps` is not an integer from 1 to ``MAX_REPS``, an entry of
        `alpha` is not in [0, 1], or `repeats` is not an integer from 2 to 100,000.

    Notes
    -----
    The auditor's curve for integer outputs is the Neyman-Pearson polygon of
    the two empirical distributions (:func:`dpcore.fdp.empirical_tradeoff`),
    a function of the category counts alone, so each audit draws the two
    multinomial count vectors (reps, row of the true value 0 or 1) instead of
    2 reps outputs. k-RR's k - 2 other categories have likelihood ratio 1:
    their empirical ratios tie at random, the order of the tests is random and
    the delta method of :func:`beta_hat_sd` does not apply.

    Source: this project's simulation; k-RR is [KBR16]'s.

    Examples
    --------
    >>> import numpy as np
    >>> from dpcore.audit import krr_beta_hat_sd
    >>> np.round(krr_beta_hat_sd(1.0, 4, 1000, [0.1, 0.5], rng=1), 3)
    array([0.02 , 0.017])
    """
    eps = nonnegative_scalar(eps, "eps")
    k = category_count(k, "k", maximum=MAX_KRR_K)
    reps = positive_integer(reps, "reps", maximum=MAX_REPS)
    a = probability_array(alpha, "alpha", closed=True)
    repeats = positive_integer(repeats, "repeats", maximum=100_000)
    if repeats < 2:
        raise ArgumentError("`{name}` must be at least 2 for a standard deviation.",
                            name="repeats")
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
