"""Difficulty controls of paper §5, in one place.

An edited instance should be no harder to read than its base: the same
number of series and points, a comparable value range, and no new
near-ties. Near-ties are ruled out in base and edited data alike by a
minimum relative gap between consecutive ranked values of every series
(docs/design.md §3.1). The generator resamples whatever fails these checks.

>>> has_min_gap((10.0, 20.0, 30.0))
True
>>> has_min_gap((10.0, 10.2, 30.0))   # 2% apart: a near-tie
False
"""

from __future__ import annotations


from rend_equiv_dataset.figures.charts.data import ChartData
from rend_equiv_dataset.figures.charts.families import family_of
from rend_equiv_dataset.figures.charts.ties import MIN_REL_GAP, chart_has_min_gaps, has_min_gap, relative_gaps

__all__ = ["MIN_REL_GAP", "MAX_RANGE_RATIO", "chart_has_min_gaps", "has_min_gap", "relative_gaps", "value_span", "violations"]

MAX_RANGE_RATIO = 2.5
"""Largest allowed ratio between the value spans of edited and base data (either way)."""

def value_span(data: ChartData) -> float:
    """Largest magnitude the value axis must show (stack totals for stacked bars)."""
    return family_of(data).value_span(data)


def violations(base: ChartData, edited: ChartData, *, point_change: int = 0) -> tuple[str, ...]:
    """The difficulty controls an edit breaks (empty when it keeps them all).

    ``point_change`` is how many points the edit adds by definition (delete_max: -1);
    each edit type says its own (:attr:`rend_equiv_dataset.figures.edits.registry.EditType.point_change`).

    >>> from rend_equiv_dataset.figures.charts.data import Family, Series
    >>> base = ChartData(Family.BAR, "t", ("A", "B", "C"), (Series("s", (10.0, 20.0, 30.0)),))
    >>> violations(base, base.replace(series=(Series("s", (10.0, 20.0, 30.5)),)))
    ()
    >>> violations(base, base.replace(series=(Series("s", (10.0, 20.0, 200.0)),)))
    ('value range changes by more than 2.5x',)
    """
    problems = []
    if len(edited.series) != len(base.series):
        problems.append("series count changes")
    expected_points = len(base.categories) + point_change
    if len(edited.categories) != expected_points:
        problems.append(f"point count {len(edited.categories)}, expected {expected_points}")
    if not chart_has_min_gaps(edited):
        problems.append(f"near-tie: ranked values closer than {MIN_REL_GAP:.0%}")
    if min(v for s in edited.series for v in s.values) <= 0:
        problems.append("a value is not positive")
    ratio = value_span(edited) / value_span(base)
    if not 1 / MAX_RANGE_RATIO <= ratio <= MAX_RANGE_RATIO:
        problems.append(f"value range changes by more than {MAX_RANGE_RATIO}x")
    return tuple(problems)
