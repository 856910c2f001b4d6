"""The six chart families as objects, one module each, registered by their :class:`Family`.

- :mod:`.base` — :class:`~.base.ChartFamily` (what a family holds), :func:`~.base.register_family`
  and :func:`~.base.family_of`;
- :mod:`.bars` (bar, grouped bar, stacked bar), :mod:`.line`, :mod:`.scatter`, :mod:`.pie` — the families;
- :mod:`.sampling` — the seeded samplers of chart data they use.

>>> import numpy as np
>>> chart = sample_chart(Family.PIE, np.random.default_rng(0), categories=6)
>>> len(chart.categories), sum(chart.values()) in PIE_TOTALS
(6, True)
"""

from __future__ import annotations

import numpy as np

from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.figures.charts.families import bars, line, pie, scatter  # noqa: F401  (registering them)
from rend_equiv_dataset.figures.charts.families.base import FAMILY_KINDS, ChartFamily, family_of, register_family
from rend_equiv_dataset.figures.charts.families.sampling import PIE_TOTALS, TOPICS, SamplingError

FAMILIES: tuple[Family, ...] = tuple(family for family in Family if family in FAMILY_KINDS)
"""Every registered family, in the enum's order (what tables may be drawn as, what tests sweep)."""

PAPER_FAMILIES: tuple[Family, ...] = (
    Family.BAR, Family.GROUPED_BAR, Family.STACKED_BAR, Family.LINE, Family.SCATTER, Family.PIE,
)
"""The paper release's families, in their order: seed generation uses these, so main-set instance
``index`` belongs to ``PAPER_FAMILIES[index % 6]`` and registering a new family changes no
published instance unless a build asks for it (``families=`` of the generators)."""


def sample_chart(family: Family, rng: np.random.Generator, categories: int | None = None) -> ChartData:
    """Draw one chart of ``family``; ``categories`` fixes the number of categories.

    >>> rng = np.random.default_rng(1)
    >>> chart = sample_chart(Family.GROUPED_BAR, rng, categories=5)
    >>> len(chart.categories), 2 <= len(chart.series) <= 3
    (5, True)
    """
    kind = family_of(family)
    if categories is None:
        low, high = kind.category_counts
        categories = int(rng.integers(low, high + 1))
    return kind.sample(rng, categories)


def default_family(n_series: int, *, shares: bool, ordered_axis: bool) -> Family:
    """The family a table is drawn as when nobody chose one.

    One series: a pie when it holds shares of a whole, else bars; several: lines
    over an ordered axis (years, numbers), else grouped bars.

    >>> default_family(1, shares=True, ordered_axis=False).value, default_family(3, shares=False, ordered_axis=True).value
    ('pie', 'line')
    """
    if n_series == 1:
        return Family.PIE if shares else Family.BAR
    return Family.LINE if ordered_axis else Family.GROUPED_BAR


__all__ = [
    "ChartFamily", "FAMILIES", "FAMILY_KINDS", "PAPER_FAMILIES", "PIE_TOTALS", "SamplingError", "TOPICS",
    "default_family", "family_of", "register_family", "sample_chart",
]
