"""Canonical answer strings: one fixed rule, exact round trips, clear refusals."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.figures.charts.canonical import format_answer, format_number, parse_target


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0, "0"),
        (-0.0, "0"),
        (-1e-9, "0"),
        (3.0, "3"),
        (2.5, "2.5"),
        (0.1 + 0.2, "0.3"),
        (18.450000000000003, "18.45"),
        (-17.25, "-17.25"),
        (1234567.0, "1234567"),
        (1.5625, "1.5625"),
        (0.1234564, "0.123456"),
    ],
)
def test_format_number_fixed_rule(value, text):
    assert format_number(value) == text


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, True, "3"])
def test_format_number_refuses_non_numbers(bad):
    with pytest.raises(ValueError):
        format_number(bad)


@given(st.integers(-10**8, 10**8), st.integers(0, 2))
def test_short_decimals_round_trip_exactly(units, decimals):
    value = units / 10**decimals
    text = format_answer(value, "number")
    assert parse_target(text, "number") == value
    assert format_answer(parse_target(text, "number"), "number") == text
    assert "e" not in text and "," not in text


def test_labels_are_kept_verbatim_and_types_checked():
    assert format_answer("Côte d'Ivoire", "label") == "Côte d'Ivoire"
    assert parse_target("Japan", "label") == "Japan"
    with pytest.raises(TypeError):
        format_answer(3.0, "label")
    with pytest.raises(TypeError):
        format_answer("Japan", "number")
    with pytest.raises(ValueError):
        format_answer("Japan", "text")
    with pytest.raises(ValueError):
        parse_target("1", "text")
