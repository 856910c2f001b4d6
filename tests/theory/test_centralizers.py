"""Joint centralizers: the orbit method against brute force, and the paper's laws (Theorem 2, Prop. 5, Cor. 3, 6)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.theory.centralizers import (
    ENUMERATION_MAX_M,
    all_permutations,
    enumerate_centralizer,
    joint_centralizer,
)
from rend_equiv_dataset.theory.permutations import centralizer_order, compose

from .strategies import permutation, suite


def swap(m: int) -> tuple[int, ...]:
    return (1, 0, *range(2, m))


def cycle(m: int) -> tuple[int, ...]:
    return (*range(1, m), 0)


def delete_max(m: int) -> tuple[int, ...]:
    return (1, *range(1, m))


def as_set(rows: np.ndarray) -> set[tuple[int, ...]]:
    return {tuple(int(x) for x in row) for row in rows}


@pytest.mark.parametrize("m", range(3, 9))
def test_swap_leaves_2_times_m_minus_2_factorial_and_cycle_leaves_m(m):
    assert joint_centralizer([swap(m)], m).order == 2 * math.factorial(m - 2)
    assert joint_centralizer([cycle(m)], m).order == m
    assert len(enumerate_centralizer([swap(m)], m)) == 2 * math.factorial(m - 2)
    assert len(enumerate_centralizer([cycle(m)], m)) == m


@pytest.mark.parametrize("m", range(3, 9))
def test_corollary_6_boundaries(m):
    swap_left, cycle_left = joint_centralizer([swap(m)], m).order, joint_centralizer([cycle(m)], m).order
    if m == 3:
        assert swap_left < cycle_left  # 2 < 3: the swap is preferable
    elif m == 4:
        assert swap_left == cycle_left == 4
    else:
        assert swap_left > cycle_left
    if m == 6:
        assert (swap_left, cycle_left) == (48, 6)


def test_cycle_centralizer_is_the_cyclic_group_it_generates():
    m = 7
    powers = {tuple(range(m))}
    p = cycle(m)
    for _ in range(m):
        powers.add(p)
        p = compose(cycle(m), p)
    assert set(joint_centralizer([cycle(m)], m).members()) == powers


@pytest.mark.parametrize("m", [3, 5, 6, 9, 20, 100])
def test_swap_plus_cycle_leaves_only_the_identity(m):
    assert joint_centralizer([swap(m), cycle(m)], m).members() == [tuple(range(m))]


@pytest.mark.parametrize("m", [2, 5, 9, 40])
def test_delete_max_fixes_the_deleted_label_and_the_runner_up(m):
    u = joint_centralizer([delete_max(m)], m)
    assert u.order == math.factorial(m - 2)
    if u.order <= 1000:
        assert all(p[0] == 0 and p[1] == 1 for p in u.members())


def test_large_m_closed_forms():
    m = 60
    assert joint_centralizer([swap(m)], m).order == 2 * math.factorial(m - 2)
    assert joint_centralizer([cycle(m)], m).order == m
    double = (1, 0, 3, 2, *range(4, m))  # (A B)(C D): 2^2 · 2! · (m − 4)!
    assert joint_centralizer([double], m).order == 8 * math.factorial(m - 4) == centralizer_order(double)


@given(st.integers(1, 12).flatmap(permutation))
def test_orbit_method_equals_cycle_type_formula(p):
    assert joint_centralizer([p], len(p)).order == centralizer_order(p)


@given(suite(min_m=2, max_m=6, max_size=3))
def test_orbit_method_equals_enumeration_on_permutation_and_delete_suites(case):
    m, maps = case
    u = joint_centralizer(maps, m)
    brute = as_set(enumerate_centralizer(maps, m))
    assert u.method == "orbits"
    assert u.order == len(brute)
    assert set(u.members()) == brute


@given(suite(min_m=1, max_m=5, max_size=2, kinds=("any", "perm")))
def test_any_label_maps_are_exact_by_orbits_or_enumeration(case):
    m, maps = case
    u = joint_centralizer(maps, m)
    assert set(u.members()) == as_set(enumerate_centralizer(maps, m))


@given(suite(max_m=6, max_size=3), st.data())
def test_undetectable_set_shrinks_as_edits_are_added(case, data):
    """Theorem 2: U(G ∪ {φ}) ⊆ U(G)."""
    m, maps = case
    extra = data.draw(permutation(m))
    before = set(joint_centralizer(maps, m).members())
    after = set(joint_centralizer([*maps, extra], m).members())
    assert after <= before


@given(suite(max_m=6, max_size=3))
def test_adding_the_identity_never_changes_the_undetectable_set(case):
    """Corollary 3."""
    m, maps = case
    assert joint_centralizer([*maps, tuple(range(m))], m).members() == joint_centralizer(maps, m).members()


@given(st.integers(2, 6).flatmap(lambda m: st.tuples(permutation(m), permutation(m))))
def test_composed_edit_leaves_at_least_the_separate_edits(pair):
    """Remark on composed edits: U({φ, ψ}) ⊆ U({φ∘ψ})."""
    phi, psi = pair
    m = len(phi)
    separate = set(joint_centralizer([phi, psi], m).members())
    composed = set(joint_centralizer([compose(phi, psi)], m).members())
    assert separate <= composed


def test_composed_swap_and_5_cycle_leaves_four():
    assert joint_centralizer([swap(5), cycle(5)], 5).order == 1
    assert joint_centralizer([compose(cycle(5), swap(5))], 5).order == 4
    assert joint_centralizer([compose(swap(5), cycle(5))], 5).order == 4


@given(suite(max_m=6, max_size=3, kinds=("perm",)))
def test_joint_centralizer_of_permutations_is_a_subgroup(case):
    m, maps = case
    members = set(joint_centralizer(maps, m).members())
    assert tuple(range(m)) in members
    for a in list(members)[:10]:
        for b in list(members)[:10]:
            assert compose(a, b) in members


def test_describe_names_the_structure():
    text = joint_centralizer([swap(6)], 6).describe("ABCDEF")
    assert text == "A, B map among themselves (2 ways); C, D, E, F are permuted freely (4!); 2 · 4! = 48"
    double = joint_centralizer([(1, 0, 3, 2, 4, 5)], 6).describe("ABCDEF")
    assert double.startswith("the groups {A, B}, {C, D} are exchanged (2!), each in 2 ways")


def test_enumeration_is_vectorised_over_all_permutations():
    table = all_permutations(5)
    assert table.shape == (120, 5)
    assert len({tuple(r) for r in table.tolist()}) == 120
    with pytest.raises(ValueError):
        table[0, 0] = 3  # read-only cache


def test_enumeration_refuses_large_m():
    with pytest.raises(InputError, match=f"m <= {ENUMERATION_MAX_M}"):
        enumerate_centralizer([], ENUMERATION_MAX_M + 1)


def test_merging_several_labels_into_one_is_solved_by_orbits():
    m = 12
    collapse = (0, 0, 0, *range(3, m))  # B and C both go to A: σ fixes A, may swap B and C
    u = joint_centralizer([collapse], m)
    assert (u.method, u.order) == ("orbits", 2 * math.factorial(m - 3))


def test_two_merges_into_look_alike_targets_fall_back_to_enumeration():
    two_deletes = (0, 0, 2, 2, 4, 5)  # B -> A and D -> C: σ may exchange the pairs
    u = joint_centralizer([two_deletes], 6)
    assert (u.method, u.order) == ("enumeration", 2 * 2)
    assert (2, 3, 0, 1, 4, 5) in u.members()
    with pytest.raises(InputError, match="allowed for m <= 8"):
        joint_centralizer([(0, 0, 2, 2, *range(4, 9))], 9)


@pytest.mark.parametrize(
    ("maps", "m", "message"),
    [
        ([(0, 1)], 3, "must list 3 images"),
        ([(0, 1, 3)], 3, "must list 3 images"),
        ([(0, -1, 2)], 3, "must list 3 images"),
        ([], 0, "integer >= 1"),
        ([], True, "integer >= 1"),
    ],
)
def test_bad_maps_are_refused(maps, m, message):
    with pytest.raises(InputError, match=message):
        joint_centralizer(maps, m)
