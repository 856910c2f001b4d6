"""Edit operators: each changes exactly what docs/design.md §3.3 says, and nothing else."""

import numpy as np
import pytest

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.questions import Question, answer
from rend_equiv_dataset.figures.edits.operators import (
    OPERATORS,
    SCALE_FACTORS,
    cycle,
    delete_max,
    offset,
    scale,
    swap,
    zoom,
)
from rend_equiv_dataset.figures.generate import EDIT_TYPES


def grouped():
    return ChartData(Family.GROUPED_BAR, "t", ("A", "B", "C", "D", "E", "F"),
                     (Series("x", (10.0, 30.5, 20.0, 5.5, 14.0, 25.0)),
                      Series("y", (3.0, 4.0, 5.0, 6.0, 7.0, 8.0))))


def scatter():
    return ChartData(Family.SCATTER, "t", ("P", "Q", "R"), (Series("y", (2.0, 9.0, 4.0)),),
                     x_values=(1.0, 2.0, 3.0))


RNG = np.random.default_rng


def test_table_covers_every_edit_type_in_order():
    assert tuple(OPERATORS) == EDIT_TYPES


def test_scale_multiplies_only_the_question_series():
    for seed in range(10):
        p = scale(grouped(), Question("value", "x", ("A",)), RNG(seed))
        c = p.params["factor"]
        assert c in SCALE_FACTORS and c != 1 and c > 0
        assert p.data.values("x") == tuple(round(c * v, 6) for v in grouped().values("x"))
        assert p.data.values("y") == grouped().values("y")
        assert p.data.categories == grouped().categories


def test_scale_values_carry_no_float_noise():
    chart = ChartData(Family.BAR, "t", ("A", "B"), (Series("s", (12.3, 0.7)),))
    factors = set()
    for seed in range(30):
        p = scale(chart, Question("sum", "s", ()), RNG(seed))
        factors.add(p.params["factor"])
        assert all(repr(v) == repr(round(v, 2)) for v in p.data.values("s"))
    assert factors == set(SCALE_FACTORS)


def test_offset_adds_a_nonzero_integer_and_keeps_values_positive():
    signs = set()
    for seed in range(40):
        p = offset(grouped(), Question("sum", "x", ()), RNG(seed))
        delta = p.params["delta"]
        assert delta != 0 and delta == int(delta)
        signs.add(delta > 0)
        assert p.data.values("x") == tuple(v + delta for v in grouped().values("x"))
        assert min(p.data.values("x")) > 0
        assert p.data.values("y") == grouped().values("y")
    assert signs == {True, False}


def test_delete_max_removes_the_category_from_every_series_and_x_values():
    p = delete_max(grouped(), Question("argmax", "x", ()), RNG(0))
    assert p.params == {"series": "x", "deleted": "B"}
    assert p.data.categories == ("A", "C", "D", "E", "F")
    assert p.data.values("y") == (3.0, 5.0, 6.0, 7.0, 8.0)
    s = delete_max(scatter(), Question("argmax", "y", ()), RNG(0))
    assert s.data.categories == ("P", "R") and s.data.x_values == (1.0, 3.0)


def test_delete_max_refuses_to_delete_a_named_category_or_leave_one_point():
    assert delete_max(grouped(), Question("value", "x", ("B",)), RNG(0)) is None
    two = ChartData(Family.BAR, "t", ("A", "B"), (Series("s", (1.0, 2.0)),))
    assert delete_max(two, Question("argmax", "s", ()), RNG(0)) is None


def test_swap_exchanges_the_answer_with_another_label():
    q = Question("argmax", "x", ())
    partners = set()
    for seed in range(40):
        p = swap(grouped(), q, RNG(seed))
        first, second = p.params["labels"]
        assert first == "B" and second != "B"
        partners.add(second)
        assert p.params["map"] == {"B": second, second: "B"}
        assert [s.values for s in p.data.series] == [s.values for s in grouped().series]
        assert answer(p.data, q) == second
    assert len(partners) > 2


def test_swap_on_compare_exchanges_the_two_named_labels():
    p = swap(grouped(), Question("compare", "x", ("E", "A")), RNG(0))
    assert p.params["labels"] == ["E", "A"]
    assert p.data.categories == ("E", "B", "C", "D", "A", "F")


def test_cycle_is_one_m_cycle_over_all_labels():
    for seed in range(20):
        p = cycle(grouped(), Question("argmax", "x", ()), RNG(seed))
        mapping, order = p.params["map"], p.params["cycle"]
        assert sorted(order) == sorted(grouped().categories)
        label, seen = order[0], []
        for _ in range(6):
            seen.append(label)
            label = mapping[label]
        assert label == order[0] and len(set(seen)) == 6  # a single 6-cycle
        assert p.data.categories == tuple(mapping[c] for c in grouped().categories)
    assert cycle(grouped(), Question("compare", "x", ("A", "B")), RNG(0)) is None


@pytest.mark.parametrize("family", [Family.BAR, Family.STACKED_BAR, Family.LINE, Family.SCATTER, Family.PIE])
def test_zoom_changes_only_the_value_range_and_shows_every_value(family):
    base = ChartData(family, "t", ("A", "B", "C"),
                     (Series("s", (10.0, 30.0, 20.0)), Series("u", (5.0, 6.0, 7.0))) if family is Family.STACKED_BAR
                     else (Series("s", (10.0, 30.0, 20.0)),),
                     x_values=(1.0, 2.0, 3.0) if family is Family.SCATTER else None)
    for seed in range(10):
        p = zoom(base, Question("argmax", "s", ()), RNG(seed))
        low, high = p.data.value_range
        assert p.data.replace(value_range=None) == base
        assert list(p.params["value_range"]) == [low, high]
        top = 43.0 if family is Family.STACKED_BAR else (60.0 if family is Family.PIE else 30.0)
        assert high > top and low <= 10.0
        if family not in (Family.LINE, Family.SCATTER):
            assert low == 0.0
