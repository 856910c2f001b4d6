"""The chart data model validates itself and round-trips through JSON."""

import pytest

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.errors import InputError


def _chart(**changes):
    base = {
        "family": Family.GROUPED_BAR,
        "title": "Revenue by quarter",
        "categories": ("Q1", "Q2", "Q3"),
        "series": (Series("2023", (1.0, 2.0, 3.0)), Series("2024", (2.0, 2.5, 4.0))),
        "x_label": "Quarter",
        "y_label": "Revenue",
        "unit": "M USD",
    }
    base.update(changes)
    return ChartData(**base)


def test_round_trip_is_exact_and_canonical():
    chart = _chart(value_range=(0.0, 5.0))
    assert ChartData.from_json(chart.to_json()) == chart
    assert ChartData.from_json(chart.to_json()).to_json() == chart.to_json()
    assert chart.values("2024") == (2.0, 2.5, 4.0)
    assert chart.values() == (1.0, 2.0, 3.0)


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"categories": ("Q1",), "series": (Series("a", (1.0,)),)}, "categories"),
        ({"categories": ("Q1", "Q1", "Q3")}, "categories"),
        ({"series": ()}, "series"),
        ({"series": (Series("a", (1.0, 2.0)),)}, "series"),
        ({"value_range": (3.0, 1.0)}, "value_range"),
        ({"x_values": (1.0,)}, "x_values"),
    ],
)
def test_invalid_charts_are_rejected_with_the_field(changes, field):
    with pytest.raises(InputError) as err:
        _chart(**changes)
    assert err.value.field == field


def test_non_finite_values_are_rejected():
    with pytest.raises(InputError):
        Series("a", (1.0, float("inf")))
