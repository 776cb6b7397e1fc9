"""dpcore: the computations behind the differential-privacy dashboard.

Pure numerical code (numpy, scipy, pandas); no user interface. One module per
topic:

- :mod:`dpcore.histogram`   -- the truncated Laplace histogram mechanism, eq. (2.4)
- :mod:`dpcore.homogeneity` -- chi-square and parametric bootstrap tests of two
  differentially private histograms (Son, Park & Jung 2022)
- :mod:`dpcore.datasets`    -- the shipped 2020 population tables, the paper's
  shapes, binning and upload parsing
"""

__all__ = ["datasets", "histogram", "homogeneity"]
