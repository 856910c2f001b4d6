"""Difficulty controls: near-ties, counts, value range, positivity — each can fail."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.edits.controls import (
    MAX_RANGE_RATIO,
    MIN_REL_GAP,
    has_min_gap,
    relative_gaps,
    value_span,
)
from rend_equiv_dataset.figures.edits import violations  # by edit type: each type's own controls


def chart(*values, family=Family.BAR, extra_series=()):
    series = (Series("s", values), *extra_series)
    return ChartData(family, "t", tuple("ABCDEFGH"[: len(values)]), series)


def test_relative_gaps_by_hand():
    assert relative_gaps((40.0, 10.0, 20.0)) == (0.5, 0.5)
    assert relative_gaps((100.0, 95.0)) == (0.05,)
    assert relative_gaps((0.0, 0.0)) == (0.0,)
    assert has_min_gap((100.0, 95.0)) and not has_min_gap((100.0, 95.1))


@given(st.lists(st.floats(1, 1000), min_size=2, max_size=8), st.floats(0.1, 10))
def test_gaps_are_scale_invariant_and_order_free(values, c):
    assert relative_gaps(values) == pytest.approx(relative_gaps([c * v for v in values]))
    assert relative_gaps(values) == relative_gaps(sorted(values, reverse=True))


def test_stacked_span_uses_totals():
    stacked = chart(10.0, 20.0, family=Family.STACKED_BAR, extra_series=(Series("t", (5.0, 30.0)),))
    assert value_span(stacked) == 50.0
    assert value_span(stacked.replace(family=Family.GROUPED_BAR)) == 30.0


def test_clean_edit_passes():
    base = chart(10.0, 20.0, 40.0)
    assert violations(base, chart(20.0, 40.0, 80.0), "scale") == ()
    assert violations(base, chart(10.0, 20.0), "delete_max") == ()


@pytest.mark.parametrize(
    ("edited", "kind", "problem"),
    [
        (chart(10.0, 20.0, 20.5), "offset", "near-tie"),
        (chart(10.0, 20.0), "scale", "point count"),
        (chart(10.0, 20.0, 40.0), "delete_max", "point count"),
        (chart(10.0, 20.0, 40.0, extra_series=(Series("u", (1.0, 2.0, 4.0)),)), "scale", "series count"),
        (chart(-10.0, 20.0, 40.0), "offset", "not positive"),
        (chart(10.0, 20.0, 40.0 * MAX_RANGE_RATIO + 1), "scale", "value range"),
        (chart(1.0, 2.0, 40.0 / MAX_RANGE_RATIO - 1), "scale", "value range"),
    ],
)
def test_each_control_can_fail(edited, kind, problem):
    found = violations(chart(10.0, 20.0, 40.0), edited, kind)
    assert any(problem in p for p in found), found


def test_near_tie_threshold_is_five_percent():
    assert MIN_REL_GAP == 0.05
