"""What a release means for one person: how sure an attacker can become, in odds.

An attacker wants to know whether one person is in the data (or, for local privacy, which
of two answers a person gave) and believes so beforehand with probability π, the *prior*.
After the release the attacker either updates the belief (Bayes' rule) or decides, "in" or
"out". Every guarantee the dashboard shows bounds both:

- **How sure after** (odds). Under ε-DP every outcome's likelihood ratio lies in
  [e^{−ε}, e^ε], so the posterior odds are at most e^ε times the prior odds:
  posterior ≤ e^ε·π / (e^ε·π + 1 − π) (Bayes' rule; the odds explanation studied by
  Nanayakkara et al., USENIX Security 2023). An attacker 50% sure beforehand is at most 73.1% sure after an
  ε = 1 release. Under (ε, δ)-DP with δ > 0, and under μ-GDP with μ > 0, no bound below
  certainty holds for every outcome: some outcomes (of total probability at most δ under
  (ε, δ), and rarer the larger they are under G_μ) can make the attacker sure.
- **The best guess** (the trade-off function). With a test of false-alarm rate α ("in"
  said of someone who is out) and miss rate f(α), the attacker guesses wrong with
  probability (1 − π)·α + π·f(α); the best attacker guesses right with probability
  1 − min_α [(1 − π)·α + π·f(α)]. The trade-off functions here are symmetric (f = f⁻¹),
  so this equals 1 − min_α [π·α + (1 − π)·f(α)], the form with the roles of "in" and "out"
  swapped. Without any release the best guess is right with probability max(π, 1 − π).
- **The power at a false-alarm rate**: 1 − f(α), the f-DP reading ([DRS22] Definition 2.1);
  at α = 5%, how often the attacker catches a person who is in while accusing at most 5%
  of those who are out.

The two readings agree where both apply: under pure ε at π = 1/2 the best guess is right
with probability e^ε/(1 + e^ε), the posterior bound at 1/2.

Closed forms (derived in this module's docstrings, tested against numerical minimisation
over :mod:`dpcore.fdp`'s curves):

- f_{ε,δ}: the minimum of a linear function over a convex polygon is at a vertex
  (0, 1 − δ), (k, k) with k = (1 − δ)/(1 + e^ε), (1 − δ, 0):
  error = (1 − δ)·min(π, 1 − π, 1/(1 + e^ε)).
- Laplace at shift ε (T(Lap(0, 1), Lap(ε, 1))): the threshold t solving
  e^{2t − ε} = (1 − π)/π gives error = e^{−ε/2}·√(π(1 − π)) when that t lies in [0, ε];
  otherwise the attacker does best ignoring the release: error = min(π, 1 − π, …) covers
  both cases.
- G_μ: N(0, 1) against N(μ, 1), threshold t = μ/2 + ln((1 − π)/π)/μ:
  error = (1 − π)·Φ(−μ/2 − L/μ) + π·Φ(−μ/2 + L/μ), L = ln((1 − π)/π).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special, stats

from dpcore import fdp
from dpcore.errors import ArgumentError
from dpcore.validation import nonnegative_scalar, one_of, probability, probability_array

__all__ = [
    "KINDS",
    "PRIORS",
    "ALPHA",
    "Guarantee",
    "guess_error",
    "posterior_bound",
    "risk_table",
    "side_by_side",
]

# The guarantees: pure ε-DP (f_{ε,0}), (ε, δ)-DP (f_{ε,δ}), μ-GDP (G_μ), and the Laplace
# mechanism's own curve at shift ε (an ε-DP mechanism whose attacker does a little worse
# than f_{ε,0} allows, away from the curve's ends).
KINDS = ("eps", "epsdelta", "gdp", "laplace")
PRIORS = (0.01, 0.1, 0.5)  # the priors every page shows
ALPHA = 0.05  # the false-alarm rate of the f-DP reading


@dataclass(frozen=True)
class Guarantee:
    """A privacy guarantee for one person: ``kind`` in :data:`KINDS` and its parameter(s).

    Build with :meth:`pure`, :meth:`approximate`, :meth:`gaussian` or :meth:`laplace`.
    Source: the trade-off functions of [DRS22] (:mod:`dpcore.fdp`); the readings
    (:meth:`posterior`, :meth:`guess_right`, :meth:`power`) are this project's.

    Attributes
    ----------
    kind : str
        "eps" (ε-DP, f_{ε,0}), "epsdelta" ((ε, δ)-DP, f_{ε,δ}), "gdp" (μ-GDP, G_μ) or
        "laplace" (the Laplace mechanism's own curve at shift ε).
    eps : float
        ε, for "eps", "epsdelta" and "laplace".
    delta : float
        δ, for "epsdelta" only.
    mu : float
        μ, for "gdp".

    Raises
    ------
    ValueError
        If ``kind`` is none of :data:`KINDS`, a parameter is out of range, or ``delta`` is
        given to another kind.

    Examples
    --------
    >>> from dpcore.risk import Guarantee
    >>> g = Guarantee.approximate(1.0, 1e-5)
    >>> g.bounded, round(float(g.power(0.05)), 4)
    (False, 0.1359)
    """

    kind: str
    eps: float = 0.0
    delta: float = 0.0
    mu: float = 0.0

    def __post_init__(self):
        one_of(self.kind, "kind", KINDS)
        object.__setattr__(self, "eps", nonnegative_scalar(self.eps, "eps"))
        object.__setattr__(self, "mu", nonnegative_scalar(self.mu, "mu"))
        object.__setattr__(self, "delta", probability(self.delta, "delta", closed=True))
        if self.kind != "epsdelta" and self.delta:
            raise ArgumentError("`{name}` applies to (eps, delta)-DP only, got {value!r}.",
                                name="delta", value=self.delta)

    @classmethod
    def pure(cls, eps) -> "Guarantee":
        """ε-DP (also ε-LDP between two answers, and γ-amplification with ε = ln γ)."""
        return cls("eps", eps=eps)

    @classmethod
    def approximate(cls, eps, delta) -> "Guarantee":
        """(ε, δ)-DP."""
        return cls("epsdelta", eps=eps, delta=delta)

    @classmethod
    def gaussian(cls, mu) -> "Guarantee":
        """μ-GDP (the Gaussian mechanism with σ = Δ/μ is exactly G_μ)."""
        return cls("gdp", mu=mu)

    @classmethod
    def laplace(cls, eps) -> "Guarantee":
        """The Laplace mechanism at shift ε = Δ/b: its exact trade-off curve."""
        return cls("laplace", eps=eps)

    @property
    def bounded(self) -> bool:
        """Whether every outcome's likelihood ratio is bounded (a finite posterior bound)."""
        if self.kind == "gdp":
            return self.mu == 0.0
        return self.delta == 0.0

    @property
    def amplification(self) -> float:
        """The largest likelihood ratio of one outcome, e^ε (∞ when unbounded)."""
        if not self.bounded:
            return float("inf")
        return 1.0 if self.kind == "gdp" else float(np.exp(self.eps))

    def tradeoff(self, alpha):
        """The trade-off function f(α) of the guarantee (:mod:`dpcore.fdp`)."""
        if self.kind == "gdp":
            return fdp.gdp_tradeoff(alpha, self.mu)
        if self.kind == "laplace":
            return fdp.laplace_tradeoff(alpha, self.eps)
        return fdp.epsdelta_tradeoff(alpha, self.eps, self.delta)

    def power(self, alpha=ALPHA):
        """The best attacker's power 1 − f(α) at false-alarm rate α."""
        return 1.0 - self.tradeoff(alpha)

    def posterior(self, prior):
        """How sure an attacker with ``prior`` can become at most (:func:`posterior_bound`)."""
        return posterior_bound(self, prior)

    def guess_right(self, prior):
        """The best attacker's chance of guessing right (1 − :func:`guess_error`)."""
        return 1.0 - guess_error(self, prior)


def posterior_bound(guarantee: Guarantee, prior):
    """The most an attacker with ``prior`` π can believe the person is in, after any outcome.

    e^ε·π / (e^ε·π + 1 − π) under a bounded guarantee (pure ε, the Laplace mechanism,
    μ = 0), computed as expit(ε + logit π); 1 when no bound below certainty holds for every
    outcome ((ε, δ) with δ > 0, μ-GDP with μ > 0).

    Parameters
    ----------
    guarantee : Guarantee
    prior : float or array_like
        π, strictly between 0 and 1.

    Returns
    -------
    numpy.ndarray
        Shaped like ``prior``, in [π, 1].

    Raises
    ------
    ValueError
        If an entry of ``prior`` is not strictly between 0 and 1.

    Notes
    -----
    Source: Bayes' rule; the testing view is this project's reading of [DRS22]'s
    trade-off functions.
    The likelihood ratio of any outcome under D′ (person in) and D (out) is at most e^ε, so
    posterior odds ≤ e^ε × prior odds (Bayes' rule). In the testing view: the posterior of
    a test that says "in" is π(1 − f(α)) / (π(1 − f(α)) + (1 − π)α), whose supremum over α
    is reached as α → 0 where (1 − f(α))/α → −f′(0) = e^ε; it is 1 when f(0) < 1 (δ > 0)
    or f′(0) = −∞ (G_μ).

    Examples
    --------
    >>> from dpcore.risk import Guarantee, posterior_bound
    >>> round(float(posterior_bound(Guarantee.pure(1.0), 0.5)), 4)
    0.7311
    >>> round(float(posterior_bound(Guarantee.pure(10.0), 0.5)), 7)
    0.9999546
    >>> float(posterior_bound(Guarantee.gaussian(0.5), 0.5))
    1.0
    """
    p = probability_array(prior, "prior")
    if not guarantee.bounded:
        return np.ones_like(p)
    eps = 0.0 if guarantee.kind == "gdp" else guarantee.eps
    return special.expit(eps + special.logit(p))


def guess_error(guarantee: Guarantee, prior):
    """The best attacker's chance of guessing wrong: min_α [(1 − π)·α + π·f(α)].

    Parameters
    ----------
    guarantee : Guarantee
    prior : float or array_like
        π, the attacker's prior that the person is in, strictly between 0 and 1.

    Returns
    -------
    numpy.ndarray
        Shaped like ``prior``, in [0, min(π, 1 − π)].

    Raises
    ------
    ValueError
        If an entry of ``prior`` is not strictly between 0 and 1.

    Notes
    -----
    Source: this project's closed forms (module docstring) over [DRS22]'s trade-off
    functions; for G_μ with μ > 0 the Bayes test rejects for
    X > t = μ/2 + L/μ, L = ln((1 − π)/π) (Neyman-Pearson with the prior odds).

    Examples
    --------
    >>> from dpcore.risk import Guarantee, guess_error
    >>> round(1 - float(guess_error(Guarantee.pure(1.0), 0.5)), 4)
    0.7311
    >>> round(float(guess_error(Guarantee.pure(1.0), 0.1)), 4)  # best: ignore the release
    0.1
    >>> round(float(guess_error(Guarantee.gaussian(1.0), 0.5)), 4)  # Phi(-1/2)
    0.3085
    """
    p = probability_array(prior, "prior")
    trivial = np.minimum(p, 1.0 - p)
    g = guarantee
    if g.kind in ("eps", "epsdelta"):
        return (1.0 - g.delta) * np.minimum(trivial, special.expit(-g.eps))
    if g.kind == "laplace":
        return np.minimum(trivial, np.exp(-g.eps / 2.0) * np.sqrt(p * (1.0 - p)))
    if g.mu == 0.0:
        return trivial
    mu = g.mu
    log_odds = np.log1p(-p) - np.log(p)  # L = ln((1 - π)/π)
    return ((1.0 - p) * stats.norm.cdf(-mu / 2.0 - log_odds / mu)
            + p * stats.norm.cdf(-mu / 2.0 + log_odds / mu))


def risk_table(guarantee: Guarantee, priors=PRIORS) -> pd.DataFrame:
    """One row per prior: how sure after, the best guess before and after.

    Source: this project (:func:`posterior_bound`, :func:`guess_error`).

    Parameters
    ----------
    guarantee : Guarantee
    priors : sequence of float
        The attacker's priors π, each strictly between 0 and 1 (:data:`PRIORS` by default).

    Returns
    -------
    pandas.DataFrame
        Columns ``prior``, ``posterior_bound`` (NaN when no bound below certainty holds for
        every outcome), ``guess_right_before`` = max(π, 1 − π), ``guess_right_after``.

    Raises
    ------
    ValueError
        If a prior is not strictly between 0 and 1.

    Examples
    --------
    >>> from dpcore.risk import Guarantee, risk_table
    >>> risk_table(Guarantee.pure(1.0)).round(4).to_string(index=False)
    ' prior  posterior_bound  guess_right_before  guess_right_after\\n  0.01           0.0267                0.99             0.9900\\n  0.10           0.2320                0.90             0.9000\\n  0.50           0.7311                0.50             0.7311'
    """
    p = probability_array(np.atleast_1d(np.asarray(priors, dtype=float)), "prior")
    bound = posterior_bound(guarantee, p) if guarantee.bounded else np.full(p.shape, np.nan)
    return pd.DataFrame({
        "prior": p,
        "posterior_bound": bound,
        "guess_right_before": np.maximum(p, 1.0 - p),
        "guess_right_after": guarantee.guess_right(p),
    })


def side_by_side(first: Guarantee, second: Guarantee, priors=PRIORS,
                 alpha=ALPHA) -> pd.DataFrame:
    """Two guarantees' readings, one row per (guarantee, prior), for a side-by-side.

    Source: this project (:func:`risk_table`, :meth:`Guarantee.power`).

    Parameters
    ----------
    first : Guarantee
        The page's level.
    second : Guarantee
        The level set beside it.
    priors : sequence of float
        The attacker's priors, each strictly between 0 and 1.
    alpha : float
        The false-alarm rate of the power, in [0, 1] (5% by default).

    Returns
    -------
    pandas.DataFrame
        :func:`risk_table`'s columns plus ``level`` (0 for ``first``, 1 for ``second``) and
        ``power``, the best attacker's power at false-alarm rate ``alpha``.

    Raises
    ------
    ValueError
        If a prior or ``alpha`` is out of range.

    Examples
    --------
    >>> from dpcore.risk import Guarantee, side_by_side
    >>> t = side_by_side(Guarantee.pure(1.0), Guarantee.pure(10.0), priors=[0.5])
    >>> t[["level", "posterior_bound"]].round(5).values.tolist()
    [[0.0, 0.73106], [1.0, 0.99995]]
    """
    alpha = probability(alpha, "alpha", closed=True)
    frames = []
    for level, g in enumerate((first, second)):
        frame = risk_table(g, priors)
        frame.insert(0, "level", level)
        frame["power"] = float(g.power(alpha))
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)
