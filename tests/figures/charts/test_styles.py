"""Cosmetic styles: deterministic from (seed, index), distinct, and validated."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.figures.charts.styles import (
    Style,
    base_style,
    iter_styles,
    rerender_styles,
    style_rng,
)
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.charts.families import FAMILIES, family_of


def test_the_bar_families_and_only_they_are_drawn_horizontally():
    """The flag lives on the family object (docs/design.md §3.2: "orientation where meaningful")."""
    assert [f.value for f in FAMILIES if family_of(f).lies_horizontal] == ["bar", "grouped_bar", "stacked_bar"]

@given(seed=st.integers(0, 2**32 - 1), index=st.integers(0, 10_000), orientable=st.booleans())
def test_k_styles_are_distinct_differ_from_base_and_repeat_exactly(seed, index, orientable):
    styles = rerender_styles(seed, index, 8, orientable)
    keys = [s.key() for s in styles]
    assert len(set(keys)) == 8
    assert base_style().key() not in keys
    assert [s.style_id for s in styles] == [f"r{k}" for k in range(1, 9)]
    assert styles == rerender_styles(seed, index, 8, orientable)
    if not orientable:
        assert {s.orientation for s in styles} == {"vertical"}


def test_every_cosmetic_dimension_varies_across_instances():
    styles = [s for index in range(40) for s in rerender_styles(0, index, 8, True)]
    for name in ("palette", "background", "font_size", "figure_size", "grid", "bar_width", "marker",
                 "legend_location", "number_format", "orientation", "spines"):
        assert len({getattr(s, name) for s in styles}) > 1, name
    assert {s.orientation for s in styles} == {"vertical", "horizontal"}


def test_styles_depend_on_seed_and_index_and_not_on_order():
    assert rerender_styles(0, 1, 8, True) != rerender_styles(1, 1, 8, True)
    assert rerender_styles(0, 1, 8, True) != rerender_styles(0, 2, 8, True)
    forward = [rerender_styles(0, i, 3, False) for i in range(5)]
    backward = [rerender_styles(0, i, 3, False) for i in reversed(range(5))][::-1]
    assert forward == backward


def test_first_k_of_the_stream_are_the_k_styles():
    stream = iter_styles(3, 4, False)
    first = [next(stream) for _ in range(5)]
    assert [s.key() for s in first] == [s.key() for s in rerender_styles(3, 4, 5, False)]


def test_style_stream_is_not_the_data_stream():
    data = np.random.Generator(np.random.PCG64(np.random.SeedSequence(0, spawn_key=(5,)))).integers(1 << 30, size=4)
    assert not np.array_equal(style_rng(0, 5).integers(1 << 30, size=4), data)


def test_json_round_trip_and_bad_values():
    style = rerender_styles(0, 0, 1, True)[0].with_layout(tick_rotation=90.0, canvas_scale=1.3)
    assert Style.from_json(style.to_json()) == style
    with pytest.raises(InputError, match="palette"):
        Style(palette="rainbow")
    with pytest.raises(InputError, match="unknown style keys"):
        Style.from_json('{"style_id": "x", "sparkle": true}')
    with pytest.raises(InputError, match="--rerenders"):
        rerender_styles(0, 0, -1, True)
