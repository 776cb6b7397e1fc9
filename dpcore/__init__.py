"""dpcore: the computations behind the differential-privacy dashboard.

Pure numerical code (numpy, scipy, pandas): no user interface and no sentences
for the screen. Sources are cited by the keys of ``docs/references.md``. One
module per topic:

- :mod:`dpcore.audit`        -- the attacker's threshold tests and simulated
  outputs of a mechanism on two neighbouring inputs ([DRS22], trade-off curves)
- :mod:`dpcore.datasets`     -- the shipped 2020 population tables, the shapes of
  [SPJ22] section 2.3, binning
- :mod:`dpcore.errors`       -- the errors of refused arguments, which keep their message's
  template and fields (a caller can say them in another language)
- :mod:`dpcore.fdp`          -- trade-off functions, f-DP and μ-GDP, their
  conversions, composition and group privacy ([DRS22])
- :mod:`dpcore.gaussian`     -- the Gaussian mechanism: σ for (ε, δ) by the tail bound
  ([GMN25]), the exact δ(ε) ([BW18]) and the classical formula ([DR14])
- :mod:`dpcore.histogram`    -- the truncated Laplace histogram mechanism, [SPJ22] eq. (2.4)
- :mod:`dpcore.homogeneity`  -- the chi-square and parametric bootstrap tests of two
  private histograms, [SPJ22] eqs. (2.3), (4.1)-(4.3) and Algorithm 1
- :mod:`dpcore.ldp`          -- k-ary randomized response and its estimators ([KBR16])
- :mod:`dpcore.planner`      -- the N or α a test needs to reach a target power
  ([SPJ22] section 5, built on Algorithm 2)
- :mod:`dpcore.simulation`   -- type-I error and power by Monte Carlo, [SPJ22]
  Algorithm 2 (REJECTRATE) and Figures 2-3, 9-12
- :mod:`dpcore.study`        -- the [SPJ22] calibration grid run cell by cell on Dask
- :mod:`dpcore.substitution` -- random substitution and l-extended random substitution
  ([KLH09]), exact errors and privacy
- :mod:`dpcore.uploads`      -- uploaded CSV files read safely (counts, values, answers)
- :mod:`dpcore.validation`   -- the argument checks every module uses (each names the
  parameter it refuses)
"""

__version__ = "0.22.0"  # the release of the distribution "dpcore" (pyproject.toml)

__all__ = [
    "audit",
    "datasets",
    "errors",
    "fdp",
    "gaussian",
    "histogram",
    "homogeneity",
    "ldp",
    "planner",
    "simulation",
    "study",
    "substitution",
    "uploads",
    "validation",
]
