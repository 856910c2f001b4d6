"""Near-ties: the minimum relative gap between ranked values of a series (paper §5).

Chart sampling keeps every series free of near-ties, and the difficulty
controls of :mod:`rend_equiv_dataset.figures.edits.controls` require the same
of every edited chart, so the rule lives here, below both.

>>> has_min_gap((10.0, 20.0, 30.0))
True
>>> has_min_gap((10.0, 10.2, 30.0))   # 2% apart: a near-tie
False
"""

from __future__ import annotations

from collections.abc import Sequence

from rend_equiv_dataset.figures.charts.data import ChartData

MIN_REL_GAP = 0.05
"""Smallest allowed (b - a) / max(|a|, |b|) between consecutive ranked values of a series."""


def relative_gaps(values: Sequence[float]) -> tuple[float, ...]:
    """Relative gaps between consecutive ranked values.

    >>> relative_gaps((30.0, 10.0, 20.0))
    (0.5, 0.3333333333333333)
    """
    ranked = sorted(values)
    gaps = []
    for low, high in zip(ranked, ranked[1:]):
        scale = max(abs(low), abs(high))
        gaps.append(0.0 if scale == 0 else (high - low) / scale)
    return tuple(gaps)


def has_min_gap(values: Sequence[float], min_gap: float = MIN_REL_GAP) -> bool:
    """Whether no two values of a series are nearer than ``min_gap`` (relative)."""
    return all(gap >= min_gap for gap in relative_gaps(values))


def chart_has_min_gaps(data: ChartData, min_gap: float = MIN_REL_GAP) -> bool:
    """Whether every series of the chart is free of near-ties."""
    return all(has_min_gap(s.values, min_gap) for s in data.series)
