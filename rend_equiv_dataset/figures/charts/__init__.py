"""Charts of REND-EQUIV: what a chart says, how it looks, and how it is drawn.

- :mod:`.data` — the chart data model (:class:`~.data.ChartData`, families, series);
  every other part reads charts through it;
- :mod:`.vocab` and :mod:`.families` — realistic words and seeded samplers of
  chart data for the six families;
- :mod:`.styles` — cosmetic styles, never changing what a chart says;
- :mod:`.render` — a chart in a style to PNG bytes, legibly and reproducibly;
- :mod:`.canonical` — the canonical answer strings stored as targets.
"""
