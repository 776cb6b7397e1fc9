"""dpviz: the figures and the HTML report of the differential-privacy dashboard.

Pure functions from numbers (as :mod:`dpcore` computes them) to Plotly figures
and HTML; no Streamlit, and nothing here computes a result the dashboard
reports. One module per topic:

- :mod:`dpviz.style`        -- the Okabe-Ito palette and the colour of each
  meaning, the shared layout, translucent fills and log-axis helpers
- :mod:`dpviz.homogeneity`  -- comparing two private histograms and the tests'
  calibration: histograms, bootstrap null distribution, debiasing, null
  statistics, rejection rates, the calibration study
- :mod:`dpviz.fdp`          -- trade-off curves, the attacker's test, δ(ε)
- :mod:`dpviz.gaussian`     -- the Gaussian mechanism: privacy loss, calibrations,
  releases
- :mod:`dpviz.ldp`          -- k-ary randomized response: counts and MSE
- :mod:`dpviz.substitution` -- random substitution against l
- :mod:`dpviz.planner`      -- the privacy-utility planner: power, frontier,
  distributions
- :mod:`dpviz.risk`         -- what a release means for one person: two privacy
  levels side by side
- :mod:`dpviz.describe`     -- a figure in one sentence (``figure_summary``) and as
  a table (``figure_table``), for screen readers and the report
- :mod:`dpviz.export`       -- a figure's numbers (``figure_data``) and a
  standalone HTML page (``figure_html``)
- :mod:`dpviz.report`       -- the one-page HTML report (``html_report``)
- :mod:`dpviz.poll`, :mod:`dpviz.attack`, :mod:`dpviz.classhist` -- the Class activities'
  figures: the poll's shares and interval, the attacker game's trade-off plot, the class
  histogram's releases and budget
- :mod:`dpviz.text`         -- the figures' words in the reader's language
  (``use_translation``)

``import dpviz`` imports every module, so ``dpviz.fdp.tradeoff_figure(...)``
works without importing the submodule.
"""

from dpviz import (attack, classhist, describe, export, fdp, gaussian, homogeneity, ldp, planner,
                   poll, report, risk, style, substitution, text)

__all__ = ["attack", "classhist", "describe", "export", "fdp", "gaussian", "homogeneity", "ldp",
           "planner", "poll", "report", "risk", "style", "substitution", "text"]
