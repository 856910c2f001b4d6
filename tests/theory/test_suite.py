"""Suite analysis: undetectable sets, completeness, the best addition and the composed-edit remark."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.theory import analyze_suite, default_labels, edit_transform, permutation_undetectable
from rend_equiv_dataset.theory.suite import ErrorClass, applicable_edits


@pytest.mark.parametrize(
    ("suite", "count", "complete", "undetectable"),
    [
        (["scale"], None, False, "{a ↦ α·a : α ∈ ℝ} (pure scale errors)"),
        (["offset"], None, False, "{a ↦ a + β : β ∈ ℝ} (pure offset errors)"),
        (["zoom"], None, False, "{a ↦ α·a + β : α, β ∈ ℝ} (every affine error)"),
        (["scale", "offset"], 1, True, "{a ↦ a} (the identity only)"),
        (["scale", "offset", "zoom"], 1, True, "{a ↦ a} (the identity only)"),
    ],
)
def test_affine_suites(suite, count, complete, undetectable):
    report = analyze_suite("affine", suite)
    assert report.to_json_dict()["undetectable_count"] == count
    assert report.complete is complete
    assert report.to_json_dict()["undetectable"] == undetectable


def test_affine_best_addition_completes_a_single_edit():
    assert analyze_suite("affine", ["scale"]).best_addition.edit_type == "offset"
    assert analyze_suite("affine", ["offset", "zoom"]).best_addition.edit_type == "scale"
    assert analyze_suite("affine", ["scale", "offset"]).best_addition is None


def test_affine_composed_edit_is_incomplete():
    """scale then offset as one edit, a ↦ 2a + 1, leaves the errors fixing −1."""
    composed = analyze_suite("affine", ["scale", "offset"]).composed
    assert composed.undetectable_count is None and not composed.complete
    assert "fix the answer -1" in composed.description


@pytest.mark.parametrize("m", range(3, 9))
def test_permutation_single_edits(m):
    assert analyze_suite("permutation", ["swap"], m=m).undetectable_count == 2 * math.factorial(m - 2)
    assert analyze_suite("permutation", ["cycle"], m=m).undetectable_count == m
    assert analyze_suite("permutation", ["delete_max"], m=m).undetectable_count == math.factorial(m - 2)
    assert analyze_suite("permutation", ["zoom"], m=m).undetectable_count == math.factorial(m)


def test_swap_leaves_the_confusion_it_swaps():
    report = analyze_suite("permutation", ["swap"], m=4)
    assert report.to_json_dict()["undetectable"] == ["()", "(C D)", "(A B)", "(A B)(C D)"]


def test_composed_swap_and_5_cycle_leaves_four_while_separate_leave_one():
    report = analyze_suite("permutation", ["swap", "cycle"], m=5)
    assert report.undetectable_count == 1 and report.complete
    assert report.composed.undetectable_count == 4
    assert len(report.composed.members) == 4


@given(st.integers(3, 7), st.lists(st.sampled_from(["swap", "cycle", "delete_max", "zoom"]), min_size=1, max_size=3))
def test_orbits_and_enumeration_agree_and_composition_never_detects_more(m, suite):
    by_orbits = analyze_suite("permutation", suite, m=m)
    by_enumeration = analyze_suite("permutation", suite, m=m, enumerate_members=True)
    assert by_orbits.undetectable_count == by_enumeration.undetectable_count
    assert by_orbits.result.members == by_enumeration.result.members
    if by_orbits.composed is not None:
        assert by_orbits.composed.undetectable_count >= by_orbits.undetectable_count


@given(st.integers(3, 8), st.lists(st.sampled_from(["swap", "cycle", "delete_max", "zoom"]), min_size=1, max_size=3))
def test_best_addition_is_the_minimum_over_library_edits(m, suite):
    report = analyze_suite("permutation", suite, m=m)
    if report.complete:
        assert report.best_addition is None
        return
    labels = default_labels(m)
    base = [edit_transform(name, m=m) for name in suite]
    single = [edit_transform(name, m=m) for name in ("swap", "cycle", "delete_max")]
    canonical_best = min(permutation_undetectable([*base, phi], labels, list_limit=0).undetectable_count for phi in single)
    assert report.best_addition.result.undetectable_count <= canonical_best
    assert report.best_addition.result.undetectable_count < report.undetectable_count


def test_best_addition_prefers_the_edit_moving_fewest_labels():
    """At m = 3 a swap leaves {id, (A B)}; delete_max A→B and the 3-cycle both complete it."""
    report = analyze_suite("permutation", ["swap"], m=3)
    assert report.best_addition.edit_type == "delete_max"
    assert report.best_addition.result.complete


def test_swap_at_m_6_is_completed_by_the_cycle():
    report = analyze_suite("permutation", ["swap", "zoom"], m=6)
    assert report.best_addition.edit_type == "cycle"
    assert report.best_addition.result.undetectable_count == 1
    assert "Adding cycle (A B C D E F) would leave 1 (complete)" in report.explain()


def test_large_m_is_exact_and_not_listed():
    report = analyze_suite("permutation", ["swap", "delete_max"], m=40)
    assert report.undetectable_count == math.factorial(38)
    assert report.to_json_dict()["undetectable"] == report.result.description
    assert "38!" in report.result.description


def test_json_shape():
    payload = analyze_suite("permutation", ["cycle"], m=6).to_json_dict()
    assert {"undetectable_count", "complete", "undetectable"} <= set(payload)
    assert isinstance(payload["undetectable_count"], int) and isinstance(payload["complete"], bool)
    assert payload["undetectable"] == ["()", "(A B C D E F)", "(A C E)(B D F)", "(A D)(B E)(C F)", "(A E C)(B F D)", "(A F E D C B)"]


def test_explanations_are_short():
    for report in (analyze_suite("affine", ["scale"]), analyze_suite("permutation", ["swap", "cycle"], m=6)):
        text = report.explain()
        assert 1 <= text.count(". ") + 1 <= 3


def test_applicable_edits_cover_the_library():
    from rend_equiv_dataset.theory.detection import EDIT_TYPES

    assert set(applicable_edits(ErrorClass.AFFINE)) | set(applicable_edits(ErrorClass.PERMUTATION)) == set(EDIT_TYPES)
    assert applicable_edits(ErrorClass.AFFINE) == ("scale", "offset", "zoom")
    assert applicable_edits(ErrorClass.PERMUTATION) == ("delete_max", "swap", "cycle", "zoom")


@pytest.mark.parametrize(
    ("args", "kwargs", "field", "message"),
    [
        (("affine", ["swap"]), {}, "suite", "does not apply to the affine error class; allowed: scale, offset, zoom"),
        (("permutation", ["scale"]), {"m": 4}, "suite", "allowed: delete_max, swap, cycle, zoom"),
        (("permutation", ["spin"]), {"m": 4}, "suite", "unknown edit 'spin'"),
        (("permutation", []), {"m": 4}, "suite", "at least one edit"),
        (("permutation", ["swap"]), {"m": 1}, "labels", "m >= 2"),
        (("permutation", ["swap"]), {}, "labels", "m >= 2"),
        (("affine", ["scale"]), {"m": 4}, "labels", "only to the permutation error class"),
        (("affine", ["scale"]), {"enumerate_members": True}, "enumerate", "only to the permutation"),
        (("permutation", ["swap"]), {"m": 9, "enumerate_members": True}, "labels", "m <= 8"),
        (("linear", ["scale"]), {}, "error_class", "expected one of affine, permutation"),
    ],
)
def test_bad_input(args, kwargs, field, message):
    with pytest.raises(InputError, match=message) as err:
        analyze_suite(*args, **kwargs)
    assert err.value.field == field
