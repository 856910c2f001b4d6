"""Each chart family object: what zoom means for it, its legibility check, its table rules, its questions."""

import numpy as np
import pytest

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.charts.families import FAMILIES, FAMILY_KINDS, default_family, family_of
from rend_equiv_dataset.figures.charts.families.base import ChartFamily, register_family
from rend_equiv_dataset.figures.charts.render import draw, hidden_marks
from rend_equiv_dataset.figures.charts.styles import base_style
from rend_equiv_dataset.figures.questions import QUESTION_TYPES

HEADROOM = (1.15, 1.8)


def _chart(family: Family, *series: tuple[float, ...], x_values=None) -> ChartData:
    named = tuple(Series(f"s{i}", values) for i, values in enumerate(series))
    return ChartData(family, "t", tuple("ABCD"[:len(series[0])]), named, x_values=x_values)


def test_every_family_is_registered_once_in_enum_order():
    assert FAMILIES == tuple(Family) and set(FAMILY_KINDS) == set(Family)
    assert all(family_of(f).family is f and family_of(f.value) is family_of(f) for f in Family)
    chart = _chart(Family.LINE, (1.0, 2.0))
    assert family_of(chart) is FAMILY_KINDS[Family.LINE]


def test_registering_a_family_twice_or_without_drawing_is_refused():
    with pytest.raises(ValueError, match="already registered"):
        register_family(type("Again", (ChartFamily,), {"family": Family.BAR, "sample": staticmethod(lambda r, m: None),
                                                        "draw": lambda *a: None}))
    with pytest.raises(ValueError, match="needs a class attribute family"):
        register_family(type("Nameless", (ChartFamily,), {}))


@pytest.mark.parametrize("family", [Family.BAR, Family.GROUPED_BAR])
def test_bar_zoom_is_zero_based_headroom_over_the_largest_value(family):
    chart = _chart(family, (10.0, 40.0, 25.0), (5.0, 30.0, 12.0))
    u = np.random.default_rng(3).uniform(*HEADROOM)
    assert family_of(family).zoom_range(chart, np.random.default_rng(3), HEADROOM) == (0.0, float(np.ceil(40.0 * u)))


def test_stacked_zoom_covers_the_stack_totals():
    chart = _chart(Family.STACKED_BAR, (10.0, 40.0, 25.0), (5.0, 30.0, 12.0))
    kind = family_of(Family.STACKED_BAR)
    assert kind.value_span(chart) == 70.0
    assert sorted(kind.shown_values(chart))[-3:] == [37.0, 40.0, 70.0]
    u = np.random.default_rng(5).uniform(*HEADROOM)
    assert kind.zoom_range(chart, np.random.default_rng(5), HEADROOM) == (0.0, float(np.ceil(70.0 * u)))


@pytest.mark.parametrize("family", [Family.LINE, Family.SCATTER])
def test_line_and_scatter_zoom_may_start_above_zero(family):
    chart = _chart(family, (20.0, 50.0, 35.0), x_values=(1.0, 2.0, 3.0))
    rng = np.random.default_rng(7)
    top = float(np.ceil(50.0 * rng.uniform(*HEADROOM)))
    low = float(np.floor(20.0 * rng.uniform(0.3, 0.85)))
    assert family_of(family).zoom_range(chart, np.random.default_rng(7), HEADROOM) == (low, top)
    assert 0.0 < low < 20.0 < 50.0 < top


def test_pie_zoom_scales_the_total_and_has_no_value_axis():
    chart = _chart(Family.PIE, (50.0, 150.0, 200.0))
    rng = np.random.default_rng(11)
    rng.uniform(*HEADROOM)  # the value-axis draw the pie skips
    top = float(np.ceil(400.0 * rng.uniform(*HEADROOM)))
    kind = family_of(Family.PIE)
    assert kind.zoom_range(chart, np.random.default_rng(11), HEADROOM) == (0.0, top)
    assert not kind.has_value_axis and all(family_of(f).has_value_axis for f in Family if f is not Family.PIE)


def test_pie_frame_margins_leave_room_for_slice_names_only():
    assert family_of(Family.PIE).frame_margins(1.0, 2.0, 3.0, 4.0, 0.1, 10) == pytest.approx((0.9, 0.9, 0.3, 4.0))
    assert family_of(Family.BAR).frame_margins(1.0, 2.0, 3.0, 4.0, 0.1, 10) == (1.0, 2.0, 3.0, 4.0)


def test_only_bars_report_bars_an_outlier_hides():
    squashed = _chart(Family.BAR, (0.001, 1000.0))
    fig = draw(squashed, base_style())
    fig.canvas.draw()
    assert len(hidden_marks(fig, squashed, base_style())) == 1
    line = squashed.replace(family=Family.LINE)
    fig = draw(line, base_style())
    fig.canvas.draw()
    assert hidden_marks(fig, line, base_style()) == []


@pytest.mark.parametrize(("family", "n_series", "values", "problem"), [
    (Family.BAR, 2, [1.0, 2.0], "a bar chart takes one series, the table has 2"),
    (Family.PIE, 1, [-1.0, 3.0], "a pie chart cannot show negative values"),
    (Family.PIE, 1, [0.0, 0.0], "a pie chart needs a positive total"),
    (Family.GROUPED_BAR, 1, [1.0, 2.0], "a grouped_bar chart takes several series, the table has 1"),
    (Family.STACKED_BAR, 2, [-1.0, 2.0], "a stacked_bar chart cannot show negative values"),
    (Family.SCATTER, 3, [1.0, 2.0], "a scatter chart takes two value columns (x, then y), the table has 3"),
    (Family.LINE, 4, [-1.0, 2.0], None),
    (Family.GROUPED_BAR, 2, [-1.0, 2.0], None),
])
def test_table_rules(family, n_series, values, problem):
    assert family_of(family).table_problem(n_series, values) == problem


def test_default_family_of_a_table():
    assert [default_family(1, shares=True, ordered_axis=True), default_family(1, shares=False, ordered_axis=True),
            default_family(2, shares=False, ordered_axis=True), default_family(2, shares=False, ordered_axis=False)] \
        == [Family.PIE, Family.BAR, Family.LINE, Family.GROUPED_BAR]


def test_questions_follow_the_family_lookup():
    assert QUESTION_TYPES["share"].families == {Family.PIE}
    assert QUESTION_TYPES["value"].families == set(Family) - {Family.PIE}
    for family in Family:
        kind = family_of(family)
        assert kind.lookup in kind.question_cycle
        assert all(family in QUESTION_TYPES[t].families for t in kind.question_cycle)
