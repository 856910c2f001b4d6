"""Charts of REND-EQUIV: what a chart says, how it looks, and how it is drawn.

- :mod:`.data` — the chart data model (:class:`~.data.ChartData`, families, series);
  every other part reads charts through it;
- :mod:`.families` — the six chart families as objects (sampling, drawing, zoom
  meaning, legibility, table rules), looked up with ``family_of``; :mod:`.vocab` — their words;
- :mod:`.styles` — cosmetic styles, never changing what a chart says;
- :mod:`.drawing` — drawing pieces the families share; :mod:`.render` — a chart in a
  style to PNG bytes, legibly and reproducibly;
- :mod:`.canonical` — the canonical answer strings stored as targets.
"""
