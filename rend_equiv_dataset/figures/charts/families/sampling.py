"""Sampling chart data: the samplers the family objects use (docs/design.md §3.1).

Each sampler draws a topic from :mod:`rend_equiv_dataset.figures.charts.vocab`, then
categories and values, from a seeded ``np.random.Generator`` only. Values
are short decimals (0 or 1 decimal places; pie slices are integers) so that
exact answers and their edited versions stay short and exact, and every
series is free of near-ties (:func:`rend_equiv_dataset.figures.charts.ties.has_min_gap`).

The chart records its topic words in ``ChartData.extra`` (``topic``,
``quantity``, ``category_noun``) for the question templates.

>>> import numpy as np
>>> chart = sample_pie(np.random.default_rng(0), 6)
>>> len(chart.categories), sum(chart.values()) in PIE_TOTALS
(6, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.charts.vocab import (
    PIE_TOPICS,
    SCATTER_TOPICS,
    TOPICS,
    Topic,
)
from rend_equiv_dataset.figures.charts.ties import has_min_gap

PIE_TOTALS: tuple[int, ...] = (200, 250, 400, 500, 1000)
"""Pie totals S: 100·v/S has at most two decimals for integer slices v."""

_SMOOTH_REST: tuple[int, ...] = (50, 80, 100, 125, 200, 250, 400, 500, 800)
"""Allowed totals S − max after deleting the largest slice: 100/(S − max) has at most
two decimals, so shares stay short after delete_max (paper §5, docs/design.md §3.3)."""

T = TypeVar("T")

MAX_DRAWS = 200
_DRAW_GAP = 0.06
"""Relative gap values are drawn with: above the 5% control, so rounding rarely breaks it."""


class SamplingError(RuntimeError):
    """A sampler found no data meeting the controls within its draw budget (a bug, not bad input)."""


def _extra(topic_name: str, quantity: str, noun: str) -> tuple[tuple[str, str], ...]:
    return (("category_noun", noun), ("quantity", quantity), ("topic", topic_name))


def _pick(rng: np.random.Generator, pool: Sequence[T]) -> T:
    return pool[int(rng.integers(len(pool)))]


def _pick_many(rng: np.random.Generator, pool: Sequence[T], k: int) -> tuple[T, ...]:
    return tuple(pool[int(i)] for i in rng.choice(len(pool), size=k, replace=False))


def _categories(topic: Topic, m: int, rng: np.random.Generator) -> tuple[str, ...]:
    if topic.ordered:
        start = int(rng.integers(len(topic.categories) - m + 1))
        return topic.categories[start:start + m]
    return _pick_many(rng, topic.categories, m)


def _spread(low: float, high: float, m: int, rng: np.random.Generator) -> np.ndarray:
    """m sorted values in [low, high] whose log-spacing guarantees the minimum relative gap.

    Uniform points on the shortened log range plus i·d (d = the log gap) are a
    uniform draw of gap-respecting values: no rejection needed before rounding.
    """
    d = -np.log(1.0 - _DRAW_GAP)
    room = np.log(high) - np.log(low) - (m - 1) * d
    if room <= 0:
        raise SamplingError(f"{m} values with a {_DRAW_GAP:.0%} gap do not fit in [{low}, {high}]")
    return np.exp(np.log(low) + np.sort(rng.uniform(0.0, room, size=m)) + d * np.arange(m))


def _trend(m: int, rng: np.random.Generator) -> np.ndarray:
    """An ordering of m ranked values that reads as a noisy trend (for line charts)."""
    order = np.arange(m)
    for _ in range(m // 2):
        i = int(rng.integers(m - 1))
        order[[i, i + 1]] = order[[i + 1, i]]
    return order[::-1] if rng.random() < 0.5 else order


def _values(topic: Topic, m: int, rng: np.random.Generator, walk: bool = False) -> tuple[float, ...]:
    """m values in [low, high] with ``topic.decimals`` decimals and no near-ties.

    Bars get a random order; lines (``walk``) a noisy rising or falling trend.
    """
    for _ in range(MAX_DRAWS):
        ranked = _spread(topic.low, topic.high, m, rng)
        order = _trend(m, rng) if walk else rng.permutation(m)
        values = tuple(float(round(ranked[int(i)], topic.decimals)) for i in order)
        if has_min_gap(values):
            return values
    raise SamplingError(f"no gap-free values for topic {topic.name!r} with {m} points")


def series_sampler(family: Family, topics: tuple[Topic, ...], n_series: tuple[int, int],
                   walk: bool) -> Callable[[np.random.Generator, int], ChartData]:
    """A sampler of bar or line charts: ``n_series`` series of one topic; ``walk`` for a trend."""
    def sample(rng: np.random.Generator, m: int) -> ChartData:
        topic = _pick(rng, topics)
        k = int(rng.integers(n_series[0], n_series[1] + 1))
        categories = _categories(topic, m, rng)
        names = topic.series_pool[:k]
        series = tuple(Series(name, _values(topic, m, rng, walk)) for name in names)
        title = topic.title if k > 1 else f"{topic.title}, {names[0]}"
        return ChartData(
            family=family, title=title, categories=categories, series=series,
            x_label=topic.category_noun.capitalize(), y_label=topic.value_label, unit=topic.unit,
            extra=_extra(topic.name, topic.quantity, topic.category_noun),
        )
    return sample


def sample_scatter(rng: np.random.Generator, m: int) -> ChartData:
    topic = _pick(rng, SCATTER_TOPICS)
    categories = _pick_many(rng, topic.categories, m)
    for _ in range(MAX_DRAWS):
        xs = tuple(float(round(x, 1)) for x in rng.uniform(topic.x_low, topic.x_high, size=m))
        if has_min_gap(xs, 0.02):
            break
    else:
        raise SamplingError("no spread-out x values for a scatter chart")
    x_label = f"{topic.x_quantity.capitalize()} ({topic.x_unit})"
    return ChartData(
        family=Family.SCATTER, title=topic.title, categories=categories,
        series=(Series(topic.series_pool[0], _values(topic, m, rng)),),
        x_label=x_label, y_label=topic.value_label, unit=topic.unit, x_values=xs,
        extra=_extra(topic.name, topic.quantity, topic.category_noun),
    )


def _pie_slices(m: int, rng: np.random.Generator) -> tuple[int, ...] | None:
    """Integer slices with a nice total S and a largest slice M such that S − M is smooth."""
    total = _pick(rng, PIE_TOTALS)
    maxima = [total - rest for rest in _SMOOTH_REST if 1.2 * total / m < total - rest <= 0.55 * total]
    if not maxima:
        return None
    largest = _pick(rng, maxima)
    rest_total = total - largest
    weights = rng.uniform(0.35, 1.0, size=m - 1)
    rest = np.floor(weights / weights.sum() * rest_total).astype(int)
    rest[int(np.argmax(rest))] += rest_total - int(rest.sum())
    slices = (largest, *(int(v) for v in rest))
    if min(slices) < 1 or max(rest) >= largest or not has_min_gap(slices):
        return None
    order = rng.permutation(m)
    return tuple(slices[int(i)] for i in order)


def sample_pie(rng: np.random.Generator, m: int) -> ChartData:
    topic = _pick(rng, PIE_TOPICS)
    categories = _pick_many(rng, topic.categories, m)
    for _ in range(MAX_DRAWS):
        slices = _pie_slices(m, rng)
        if slices is not None:
            break
    else:
        raise SamplingError(f"no pie slices for {m} categories")
    return ChartData(
        family=Family.PIE, title=topic.title, categories=categories,
        series=(Series(topic.quantity.capitalize(), slices),),
        x_label="", y_label=f"{topic.quantity.capitalize()} ({topic.unit})", unit=topic.unit,
        extra=_extra(topic.name, topic.quantity, topic.category_noun),
    )


__all__ = ["PIE_TOTALS", "SamplingError", "TOPICS", "sample_pie", "sample_scatter", "series_sampler"]
