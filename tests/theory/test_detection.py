"""Lemma 1 (commutes), Theorem 7 (detection probabilities) and the canonical edit transforms."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.theory import (
    answer_distance,
    commutes,
    default_labels,
    detection_probability,
    edit_transform,
    joint_centralizer,
    mixture,
    suite_detection_probability,
    to_label_map,
    uniform_permutations,
)
from rend_equiv_dataset.theory.centralizers import all_permutations
from rend_equiv_dataset.theory.permutations import from_label_map
from rend_equiv_dataset.transforms import IDENTITY, Affine, LabelMap

SWAP_AB = LabelMap.from_pairs({"A": "B", "B": "A"})

affine_errors = st.builds(Affine, st.floats(-3, 3), st.floats(-3, 3))
weights = st.floats(0.0, 10.0)


@st.composite
def affine_distribution(draw):
    items = draw(st.lists(st.tuples(weights, affine_errors), min_size=1, max_size=6))
    if sum(w for w, _ in items) == 0:
        items[0] = (1.0, items[0][1])
    return items


def test_commutes_on_hand_checked_pairs():
    scale, offset = edit_transform("scale"), edit_transform("offset")
    assert commutes(Affine(1.3, 0.0), scale) and not commutes(Affine(1.3, 0.0), offset)
    assert commutes(Affine(1.0, 2.0), offset) and not commutes(Affine(1.0, 2.0), scale)
    assert commutes(SWAP_AB, edit_transform("swap", m=5))
    assert not commutes(SWAP_AB, edit_transform("cycle", m=5))
    assert commutes(Affine(7.0, 7.0), IDENTITY) and commutes(IDENTITY, scale)


def test_numeric_and_label_maps_never_see_each_other():
    assert commutes(SWAP_AB, edit_transform("scale"))
    assert commutes(Affine(2.0, 1.0), edit_transform("swap", m=3))


def test_tau_uses_the_relative_distance_at_the_correct_answer():
    error, scale = Affine(1.0, 1.0), edit_transform("scale")  # residual β(1 − c) = −1
    # target φ(e(a*)) = 2(a* + 1): relative residual 1 / (2a* + 2)
    assert commutes(error, scale, tau=0.05, at=9.0)  # 1/20 = 0.05
    assert not commutes(error, scale, tau=0.05, at=8.0)  # 1/18
    assert not commutes(error, scale, tau=0.05, at=-1.0)  # zero target: exact only
    assert not commutes(error, scale)  # τ = 0 ignores a*


def test_labels_pointwise_and_globally():
    cycle = edit_transform("cycle", m=4)  # A→B→C→D→A
    error = LabelMap.from_pairs({"C": "D", "D": "C"})
    assert not commutes(error, cycle)
    # at a* = A: e(φ(A)) = e(B) = B and φ(e(A)) = φ(A) = B, so this instance sees nothing
    assert commutes(error, cycle, at="A")
    assert not commutes(error, cycle, at="B")
    assert commutes(error, cycle, tau=1.0)  # 0/1 distance: τ ≥ 1 lets everything through


def test_delete_max_pointwise_at_the_deleted_label_matches_the_global_count():
    labels = default_labels(5)
    delete = edit_transform("delete_max", labels=labels)
    errors = [to_label_map(tuple(int(x) for x in row), labels) for row in all_permutations(5)]
    pointwise = sum(commutes(e, delete, at="A") for e in errors)
    global_ = sum(commutes(e, delete) for e in errors)
    assert pointwise == global_ == math.factorial(3)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"tau": -0.1}, "tau"),
        ({"tau": math.inf}, "tau"),
        ({"tau": True}, "tau"),
        ({"tau": 0.1}, "at"),
        ({"tau": 0.1, "at": "A"}, "at"),
        ({"tau": 0.1, "at": math.nan}, "at"),
    ],
)
def test_commutes_rejects_bad_numeric_arguments(kwargs, field):
    with pytest.raises(InputError) as err:
        commutes(Affine(1.0, 1.0), Affine(2.0), **kwargs)
    assert err.value.field == field


def test_commutes_rejects_a_number_as_a_label_answer():
    with pytest.raises(InputError, match="as a label"):
        commutes(SWAP_AB, edit_transform("cycle", m=3), at=1.0)


def test_paper_matched_set_prediction_at_m_6():
    """Uniform label errors at m = 6: swap misses 48/720, cycle 6/720, the eightfold gap of §4.3."""
    errors = uniform_permutations(default_labels(6))
    swap, cycle = edit_transform("swap", m=6), edit_transform("cycle", m=6)
    missed_swap = 1 - detection_probability(swap, errors)
    missed_cycle = 1 - detection_probability(cycle, errors)
    assert missed_swap == pytest.approx(48 / 720)
    assert missed_cycle == pytest.approx(6 / 720)
    assert missed_swap / missed_cycle == pytest.approx(8.0)
    assert suite_detection_probability([swap, cycle], errors) == pytest.approx(1 - 1 / 720)


def test_mixture_of_affine_and_permutation_errors():
    """75% affine (half pure scale, half pure offset), 25% uniform permutations of 4 labels."""
    affine = [(1.0, Affine(1.1, 0.0)), (1.0, Affine(1.0, 2.0))]
    errors = mixture((0.75, affine), (0.25, uniform_permutations(default_labels(4))))
    scale, offset, swap = edit_transform("scale"), edit_transform("offset"), edit_transform("swap", m=4)
    assert detection_probability(scale, errors) == pytest.approx(0.375)
    assert suite_detection_probability([scale, offset], errors) == pytest.approx(0.75)
    # swap misses 2·2! = 4 of 24 permutations
    assert detection_probability(swap, errors) == pytest.approx(0.25 * 20 / 24)
    assert suite_detection_probability([scale, offset, swap], errors) == pytest.approx(0.75 + 0.25 * 20 / 24)


@given(affine_distribution())
def test_theorem_7_identity_detects_nothing(errors):
    assert detection_probability(IDENTITY, errors) == 0.0


@given(affine_distribution(), st.lists(st.sampled_from(["scale", "offset", "zoom"]), min_size=1, max_size=3))
def test_theorem_7_suite_is_at_least_its_best_member(errors, names):
    phis = [edit_transform(name) for name in names]
    best = max(detection_probability(phi, errors) for phi in phis)
    assert suite_detection_probability(phis, errors) >= best - 1e-12


@settings(max_examples=25)
@given(st.integers(3, 5).flatmap(lambda m: st.tuples(st.just(m), st.lists(weights, min_size=math.factorial(m), max_size=math.factorial(m)))))
def test_theorem_7_nested_sets_order_detection(case):
    """(iv) for any weights: U({swap, cycle}) ⊆ U({swap}), so the suite detects at least as much as the swap."""
    m, ws = case
    if sum(ws) == 0:
        ws[0] = 1.0
    labels = default_labels(m)
    errors = [(w, to_label_map(tuple(int(x) for x in row), labels)) for w, row in zip(ws, all_permutations(m))]
    swap, cycle = edit_transform("swap", m=m), edit_transform("cycle", m=m)
    assert suite_detection_probability([swap, cycle], errors) >= detection_probability(swap, errors) - 1e-12


@pytest.mark.parametrize("m", range(2, 7))
def test_detection_under_uniform_errors_is_one_minus_the_centralizer_share(m):
    errors = uniform_permutations(default_labels(m))
    for name in ("swap", "cycle", "delete_max"):
        phi = edit_transform(name, m=m)
        share = joint_centralizer([from_label_map(phi, default_labels(m))], m).order / math.factorial(m)
        assert detection_probability(phi, errors) == pytest.approx(1 - share)


def test_weights_are_normalised():
    errors = [(3.0, Affine(1.0, 1.0)), (1.0, Affine(2.0, 0.0))]
    assert detection_probability(edit_transform("scale"), errors) == pytest.approx(0.75)


@pytest.mark.parametrize(
    "errors",
    [
        [],
        [(0.0, Affine(2.0))],
        [(-1.0, Affine(2.0))],
        [(math.nan, Affine(2.0))],
        [(1.0, Affine(2.0), "extra")],
        [Affine(2.0)],
    ],
)
def test_bad_error_distributions_are_refused(errors):
    with pytest.raises(InputError) as err:
        detection_probability(edit_transform("scale"), errors)
    assert err.value.field == "errors"


def test_answer_distance():
    assert answer_distance(105.0, 100.0) == pytest.approx(0.05)
    assert answer_distance(-95.0, -100.0) == pytest.approx(0.05)
    assert answer_distance(0.0, 0.0) == 0.0 and answer_distance(1e-9, 0.0) == math.inf
    assert answer_distance("A", "A") == 0.0 and answer_distance("A", "B") == 1.0


def test_edit_transforms():
    assert edit_transform("scale") == Affine(2.0, 0.0)
    assert edit_transform("scale", scale=0.5) == Affine(0.5, 0.0)
    assert edit_transform("offset", shift=-3.0) == Affine(1.0, -3.0)
    assert edit_transform("zoom") == IDENTITY
    assert edit_transform("swap", m=3) == SWAP_AB
    assert edit_transform("delete_max", m=3) == LabelMap.from_pairs({"A": "B"})
    assert edit_transform("cycle", m=2) == SWAP_AB
    assert edit_transform("cycle", labels=("x", "y", "z"), m=3).mapping == {"x": "y", "y": "z", "z": "x"}


@pytest.mark.parametrize(
    ("args", "kwargs", "field"),
    [
        (("spin",), {}, "edit_type"),
        (("scale",), {"scale": 1.0}, "scale"),
        (("scale",), {"scale": -2.0}, "scale"),
        (("offset",), {"shift": 0.0}, "shift"),
        (("swap",), {}, "m"),
        (("swap",), {"m": 1}, "m"),
        (("cycle",), {"m": 0}, "m"),
        (("cycle",), {"m": 3, "labels": ("A", "B")}, "m"),
        (("cycle",), {"labels": ("A", "A")}, "labels"),
        (("delete_max",), {"labels": ("A",)}, "labels"),
    ],
)
def test_edit_transform_rejects(args, kwargs, field):
    with pytest.raises(InputError) as err:
        edit_transform(*args, **kwargs)
    assert err.value.field == field


def test_uniform_permutations_refuses_large_m():
    with pytest.raises(InputError, match="m <= 8"):
        uniform_permutations(default_labels(9))


def test_mixture_rejects_bad_part_weight():
    with pytest.raises(InputError, match="part's weight"):
        mixture((-0.5, [(1.0, Affine(2.0))]))
