"""Index-tuple permutations, cycle types and the centralizer-order formula (Proposition 5)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.theory.centralizers import enumerate_centralizer
from rend_equiv_dataset.theory.permutations import (
    centralizer_order,
    centralizer_order_of_type,
    compose,
    cycle_notation,
    cycle_type,
    cycles,
    default_labels,
    from_label_map,
    inverse,
    is_bijection,
    to_label_map,
)
from rend_equiv_dataset.transforms import IDENTITY, Affine, LabelMap
from .strategies import any_map, permutation


@pytest.mark.parametrize("m", range(1, 7))
def test_formula_equals_enumeration_for_every_permutation(m):
    for p in itertools.permutations(range(m)):
        assert centralizer_order(p) == len(enumerate_centralizer([p], m)), p


@given(st.integers(1, 9).flatmap(permutation))
def test_cycle_type_partitions_m(p):
    counts = cycle_type(p)
    assert sum(length * count for length, count in counts.items()) == len(p)
    assert sorted(x for c in cycles(p) for x in c) == list(range(len(p)))


@given(st.integers(1, 8).flatmap(lambda m: st.tuples(permutation(m), permutation(m))))
def test_compose_matches_label_map_compose(pair):
    f, g = pair
    labels = default_labels(len(f))
    composed = to_label_map(f, labels).compose(to_label_map(g, labels))
    assert composed == to_label_map(compose(f, g), labels)


@given(st.integers(1, 30).flatmap(any_map))
def test_label_map_round_trip(f):
    labels = default_labels(len(f))
    assert from_label_map(to_label_map(f, labels), labels) == f


@given(st.integers(1, 9).flatmap(permutation))
def test_inverse(p):
    assert compose(p, inverse(p)) == tuple(range(len(p)))


def test_hand_checked_orders():
    assert centralizer_order((1, 0, 2, 3, 4, 5)) == 2 * math.factorial(4) == 48
    assert centralizer_order((1, 2, 3, 4, 5, 0)) == 6
    assert centralizer_order((1, 0, 3, 2)) == 8  # (A B)(C D): 2^2 · 2!
    assert centralizer_order(tuple(range(5))) == 120
    assert centralizer_order_of_type({3: 2}) == 18  # 3^2 · 2!


def test_formula_refuses_a_non_bijection():
    with pytest.raises(InputError, match="needs a permutation"):
        centralizer_order((1, 1, 2))


def test_conversions():
    labels = ("x", "y", "z")
    assert from_label_map(IDENTITY, labels) == (0, 1, 2)
    assert from_label_map(LabelMap.from_pairs({"x": "z", "z": "x"}), labels) == (2, 1, 0)
    assert to_label_map((0, 1, 2), labels) == IDENTITY
    assert cycle_notation((1, 2, 0), labels) == "(x y z)"
    assert not is_bijection((0, 0, 2))
    assert default_labels(26)[-1] == "Z" and default_labels(30)[0] == "L1"


@pytest.mark.parametrize(
    ("transform", "labels", "message"),
    [
        (LabelMap.from_pairs({"Q": "A"}), ("A", "B"), "label 'Q' is not one of"),
        (Affine(2.0), ("A", "B"), "expected a label map"),
        (IDENTITY, ("A", "A"), "distinct"),
    ],
)
def test_from_label_map_rejects(transform, labels, message):
    with pytest.raises(InputError, match=message):
        from_label_map(transform, labels)


def test_to_label_map_rejects_wrong_label_count():
    with pytest.raises(InputError, match="needs 3 label names"):
        to_label_map((0, 1, 2), ("A", "B"))
