"""The dashboard's interface layer: what every page is built from. No numerics here (they
are in :mod:`dpcore`) and no figures (:mod:`dpviz`).

- :mod:`ui.registry`  -- the pages: script, title, icon, section, card, URL path
- :mod:`ui.text`      -- ``t`` (every shown string), ``esc`` (every user-provided string)
- :mod:`ui.format`    -- numbers and names as the pages write them
- :mod:`ui.notation`  -- one symbol per meaning on every page, and the sources' own symbols
- :mod:`ui.controls`  -- log-scale sliders, ranged sliders, exact-number boxes, the seed
- :mod:`ui.sources`   -- data sources and uploads, two histograms over common bins
- :mod:`ui.links`     -- the view's address, unusable link values, typed cross-page links
- :mod:`ui.kit`       -- the page kit: header, exports, report, the end of a page
- :mod:`ui.tabs`      -- a page whose tabs run one at a time; :mod:`ui.progress` its bars
- :mod:`ui.pages`     -- each page's settings, cached computations and sentences
- :mod:`ui.cache`     -- resources cached for the whole server
- :mod:`ui.internals` -- every use of a Streamlit name that is not public
"""
