"""Chart samplers: right family and shape, realistic words, no near-ties, deterministic."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.figures.charts.families import FAMILIES, PIE_TOTALS, SamplingError, family_of, sample_chart
from rend_equiv_dataset.figures.charts.families.sampling import _SMOOTH_REST, _spread
from rend_equiv_dataset.figures.charts.vocab import TOPICS
from rend_equiv_dataset.figures.edits.controls import MIN_REL_GAP, chart_has_min_gaps, has_min_gap


def _decimals(value: float) -> int:
    text = repr(value)
    return len(text.split(".")[1].rstrip("0")) if "." in text else 0


@settings(max_examples=60)
@given(st.sampled_from(FAMILIES), st.integers(0, 2**32 - 1))
def test_samplers_respect_family_shape_and_controls(family, seed):
    chart = sample_chart(family, np.random.default_rng(seed))
    assert isinstance(chart, ChartData) and chart.family is family
    low, high = family_of(family).category_counts
    assert low <= len(chart.categories) <= high
    assert chart_has_min_gaps(chart)
    assert all(v > 0 for s in chart.series for v in s.values)
    assert all(_decimals(v) <= 1 for s in chart.series for v in s.values)
    assert chart.value_range is None
    words = dict(chart.extra)
    assert words["quantity"] and words["category_noun"] and words["topic"]
    assert ChartData.from_json(chart.to_json()) == chart.replace(extra=tuple(sorted(chart.extra)))
    if family in (Family.GROUPED_BAR, Family.STACKED_BAR):
        assert 2 <= len(chart.series) <= 3
    if family in (Family.BAR, Family.SCATTER, Family.PIE):
        assert len(chart.series) == 1
    if family is Family.SCATTER:
        assert chart.x_values is not None and has_min_gap(chart.x_values, 0.02)
    else:
        assert chart.x_values is None


@settings(max_examples=60)
@given(st.integers(0, 2**32 - 1), st.integers(4, 6))
def test_pie_totals_keep_shares_short_after_delete_max(seed, m):
    chart = sample_chart(Family.PIE, np.random.default_rng(seed), categories=m)
    values = chart.values()
    total = sum(values)
    assert total in PIE_TOTALS and all(v == int(v) for v in values)
    assert total - max(values) in _SMOOTH_REST
    # every share before and after deleting the largest slice has at most two decimals
    for v in values:
        assert round(100 * v / total, 2) == 100 * v / total
        assert round(100 * v / (total - max(values)), 2) == pytest.approx(100 * v / (total - max(values)), abs=1e-12)


def test_line_charts_use_ordered_categories_in_order():
    rng = np.random.default_rng(11)
    for _ in range(30):
        chart = sample_chart(Family.LINE, rng)
        pool = next(t.categories for t in TOPICS if t.name == dict(chart.extra)["topic"])
        start = pool.index(chart.categories[0])
        assert chart.categories == pool[start:start + len(chart.categories)]


def test_fixed_category_count_and_determinism():
    a = sample_chart(Family.STACKED_BAR, np.random.default_rng(5), categories=6)
    b = sample_chart(Family.STACKED_BAR, np.random.default_rng(5), categories=6)
    assert a == b and len(a.categories) == 6
    assert a != sample_chart(Family.STACKED_BAR, np.random.default_rng(6), categories=6)


def test_spread_guarantees_the_gap_before_rounding():
    rng = np.random.default_rng(0)
    for _ in range(200):
        values = _spread(45.0, 85.0, 8, rng)
        assert has_min_gap(values, MIN_REL_GAP) and values.min() >= 45.0 and values.max() <= 85.0 + 1e-9
    with pytest.raises(SamplingError):
        _spread(50.0, 55.0, 8, rng)


def test_topics_have_enough_labels_and_room_for_gaps():
    for topic in TOPICS:
        assert len(topic.categories) >= 8 and len(set(topic.categories)) == len(topic.categories)
        assert 0 < topic.low < topic.high
        _spread(topic.low, topic.high, 8, np.random.default_rng(0))  # 8 points always fit
