"""A new edit type is one registered class: it flows through generation, the theory and scoring.

The toy edit ``double`` is defined in this file alone: it doubles the
question's series, so on a value question φ = a ↦ 2a. Nothing else in the
package names it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rend_equiv_dataset.figures.charts.canonical import format_answer, parse_target
from rend_equiv_dataset.figures.charts.data import Series
from rend_equiv_dataset.figures.edits import EditType, Proposal, edit_types, register_edit, unregister_edit
from rend_equiv_dataset.figures.generate import generate_instance, template_of, verify_law
from rend_equiv_dataset.figures.questions import Question
from rend_equiv_dataset.figures.release.records import InstanceImages, rendering_rows
from rend_equiv_dataset.figures.release.read import rendering_from_row
from rend_equiv_dataset.figures.charts.styles import base_style
from rend_equiv_dataset.figures.scoring.instances import group_instances, score_instance
from rend_equiv_dataset.figures.scoring.predictions import Prediction
from rend_equiv_dataset.theory import analyze_suite, applicable_edits, commutes, edit_transform
from rend_equiv_dataset.theory.detection import TheoryEdit
from rend_equiv_dataset.transforms import Affine


def _double(data, question, rng):
    series = tuple(Series(s.name, tuple(2.0 * v for v in s.values)) if s.name == question.series else s
                   for s in data.series)
    return Proposal(data.replace(series=series), {"series": question.series, "factor": 2.0})


class Double(EditType):
    name = "double"
    propose = staticmethod(_double)
    phi_rules = {"value": lambda data, question, params: Affine(2.0, 0.0)}
    theory = TheoryEdit("double", "number", lambda labels, scale, shift: Affine(2.0, 0.0))


@pytest.fixture
def double() -> Iterator[type[EditType]]:
    register_edit(Double)
    try:
        yield Double
    finally:
        unregister_edit("double")


VALUE_INDEX = 0   # bar slot 0 asks a value question
ARGMAX_INDEX = 1  # grouped-bar slot 0 asks an argmax question


def test_the_index_choice_is_what_the_tests_assume():
    assert template_of(VALUE_INDEX)[2] == "value" and template_of(ARGMAX_INDEX)[2] == "argmax"


def test_generation_proposes_it_where_it_applies_and_the_law_holds(double):
    assert edit_types()[-1] == "double"
    for seed in range(3):
        inst = generate_instance(seed, VALUE_INDEX)
        edit = inst.edit("double")
        assert edit.transform == Affine(2.0, 0.0) and edit.params["factor"] == 2.0
        question = Question.from_params(inst.question_type, inst.question_params)
        assert edit.data.values(question.series) == tuple(2.0 * v for v in inst.data.values(question.series))
        assert verify_law(inst.data, edit.data, question, edit.transform) == edit.target
        assert format_answer(edit.transform.apply(parse_target(inst.target, "number")), "number") == edit.target
        assert [e.edit_type for e in inst.edits][-1] == "double"
    assert "double" not in [e.edit_type for e in generate_instance(0, ARGMAX_INDEX).edits]


def test_instances_it_does_not_apply_to_are_unchanged(double):
    with_toy = generate_instance(0, ARGMAX_INDEX)
    unregister_edit("double")
    assert generate_instance(0, ARGMAX_INDEX) == with_toy
    register_edit(Double)


def test_unregistering_restores_the_default_build(double):
    with_toy = generate_instance(0, VALUE_INDEX)
    unregister_edit("double")
    without = generate_instance(0, VALUE_INDEX)
    register_edit(Double)
    assert [e.edit_type for e in with_toy.edits] == [e.edit_type for e in without.edits] + ["double"]


def test_the_theory_knows_its_transform(double):
    phi = edit_transform("double")
    assert phi == Affine(2.0, 0.0)
    assert not commutes(Affine(1.0, 3.0), phi)  # an offset error moves the residual: detected
    assert commutes(Affine(1.5, 0.0), phi)       # a scaling error commutes with doubling: blind spot
    assert "double" in applicable_edits("affine") and "double" not in applicable_edits("permutation")
    report = analyze_suite("affine", ["double"])
    assert not report.complete
    assert analyze_suite("affine", ["double", "offset"]).complete


def test_scoring_computes_its_residual(double):
    inst = generate_instance(0, VALUE_INDEX)
    images = InstanceImages(b"base", base_style(), (), tuple(b"edit" for _ in inst.edits))
    rows = [rendering_from_row({k: v for k, v in row.items() if k != "image"}) for row in rendering_rows(inst, images)]
    double_row = next(r for r in rows if r.variant == "double")
    assert double_row.render_id == f"{inst.instance_id}/edit/double" and double_row.transform == Affine(2.0, 0.0)
    [grouped] = group_instances(rows)
    # the model reads every chart right except the doubled one, where it repeats the base answer
    answers = {r.render_id: r.target for r in rows}
    answers[double_row.render_id] = inst.target
    predictions = {rid: Prediction(render_id=rid, output=text) for rid, text in answers.items()}
    score = score_instance(grouped, predictions)
    assert set(score.residuals) == {e.edit_type for e in inst.edits}
    assert score.residuals["double"] == pytest.approx(0.5)   # |a − 2a| / |2a|
    assert all(score.residuals[g] == pytest.approx(0.0) for g in score.residuals if g != "double")
    assert score.residual_flags()["double"] and not score.residual_flags()["zoom"]


def test_registration_is_checked():
    class Nameless(EditType):
        theory = Double.theory

    class Mislabelled(Double):
        name = "triple"

    class UnknownQuestion(Double):
        name = "double"
        phi_rules = {"median": Double.phi_rules["value"]}

    class NoOperator(EditType):
        name = "double"
        theory = Double.theory

    class NoTheory(EditType):
        name = "double"
        propose = staticmethod(_double)

    for cls, message in ((Nameless, "needs a class attribute name"), (Mislabelled, "theory is named"),
                         (UnknownQuestion, "unknown question types"), (NoOperator, "needs an operator"),
                         (NoTheory, "needs a theory transform")):
        with pytest.raises(ValueError, match=message):
            register_edit(cls)
    with pytest.raises(ValueError, match="already registered"):
        register_edit(type("Scale2", (Double,), {"name": "scale"}))
    assert "double" not in edit_types()
