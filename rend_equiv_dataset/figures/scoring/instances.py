"""Per-instance signals: correctness, REA, residuals, ECS, IBEM, baselines (paper §3, §5; docs/design.md §3.5).

An instance is one base rendering with its K re-renderings and its edits
(rows of the ``renderings`` config sharing an ``instance_id``). For each:

- ``correct``: the base answer against the base target (5% / exact);
- ``rea``: fraction of re-renderings whose answer agrees with the base answer;
- ``residuals[g]`` = ρ_g = d(ŷ_g, φ_g(ŷ)); undefined (``None``) when either
  answer is unparseable, which counts as a violation;
- ``ecs`` = mean over edits (zoom included) of 1[ρ_g ≤ τ_g] (Eq. 2);
- ``flagged`` = ECS < threshold; ``ibem`` = REA ≥ 0.75 and wrong (§5);
- ``combined`` = min(REA, ECS) (§4.2, Corollary 3);
- baselines when the predictions carry them (Appendix C): ``logprob`` (the
  base answer's log-probability), ``self_consistency`` (share of the K
  samples in the modal answer's cluster), ``semantic_entropy`` (negated
  entropy of sample clusters, so higher means more confident) and
  ``perturbation`` (negated entropy of one pool: the base, re-rendering and
  question-rewording answers).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.scoring.predictions import Prediction
from rend_equiv_dataset.figures.release.read import RenderingRow
from rend_equiv_dataset.figures.answers.relaxed import clusters, entropy, is_correct, residual, residual_ok, target_value, within
from rend_equiv_dataset.figures.answers.parse import ParsedAnswer, parse_answer
from rend_equiv_dataset.schema import BASE, EDIT, LABEL, NUMBER, RERENDER
from rend_equiv_dataset.transforms import Affine, Identity, LabelMap

DEFAULT_THRESHOLD = 0.5
"""The paper's theory-grounded ECS threshold (§6); 0.70 is its cross-validated one."""
IBEM_REA = 0.75
"""IBEM: REA ≥ 0.75 and wrong (paper §5, Headline quantity)."""
BASELINES = ("logprob", "self_consistency", "semantic_entropy", "perturbation")


@dataclass
class InstanceRenderings:
    """The renderings of one instance, grouped."""

    base: RenderingRow
    rerenders: list[RenderingRow] = field(default_factory=list)
    edits: dict[str, RenderingRow] = field(default_factory=dict)


@dataclass
class InstanceScore:
    """Every per-instance quantity the report uses."""

    instance_id: str
    data_seed: int
    template_id: str
    family: str
    question_type: str
    answer_type: str
    target: str
    answer: ParsedAnswer
    correct: bool
    rea: float
    residuals: dict[str, float | None]
    ecs: float
    flagged: bool
    ibem: bool
    combined: float
    edit_correct: dict[str, bool]
    edit_answers: dict[str, ParsedAnswer]
    baselines: dict[str, float] = field(default_factory=dict)

    def residual_flags(self) -> dict[str, bool]:
        """Edit → whether that edit produced a residual above τ (a detection)."""
        return {g: not residual_ok(r, self.answer_type) for g, r in self.residuals.items()}


_TRANSFORM_TYPES = {NUMBER: (Identity, Affine), LABEL: (Identity, LabelMap)}


def group_instances(renderings: Sequence[RenderingRow]) -> list[InstanceRenderings]:
    """Group rows by ``instance_id`` (sorted), checking the edit rows' transforms fit the answer type."""
    groups: dict[str, list[RenderingRow]] = defaultdict(list)
    for row in renderings:
        groups[row.instance_id].append(row)
    instances = []
    for instance_id in sorted(groups):
        rows = groups[instance_id]
        base = next((r for r in rows if r.role == BASE), None)
        if base is None:
            raise InputError(f"instance {instance_id!r} has no base rendering", field="role")
        instance = InstanceRenderings(base)
        for row in sorted(rows, key=lambda r: r.render_id):
            if row.role == RERENDER:
                instance.rerenders.append(row)
            elif row.role == EDIT:
                _add_edit(instance, row)
        if not instance.edits:
            raise InputError(f"instance {instance_id!r} has no edit rows; ECS needs at least the zoom edit", field="role")
        instances.append(instance)
    return instances


def _add_edit(instance: InstanceRenderings, row: RenderingRow) -> None:
    if row.variant in instance.edits:
        raise InputError(f"instance {row.instance_id!r} has two {row.variant!r} edits", field="variant")
    if row.answer_type != instance.base.answer_type or not isinstance(row.transform, _TRANSFORM_TYPES[row.answer_type]):
        raise InputError(
            f"render {row.render_id!r}: a {row.transform.kind} transform does not apply to {row.answer_type} answers",
            field="transform",
        )
    instance.edits[row.variant] = row


def _parsed(row: RenderingRow, predictions: Mapping[str, Prediction]) -> ParsedAnswer:
    prediction = predictions.get(row.render_id)
    if prediction is None:
        return None
    text = prediction.answer if prediction.answer is not None else prediction.output
    return parse_answer(text, row.answer_type, row.labels, row.question)


def score_instance(instance: InstanceRenderings, predictions: Mapping[str, Prediction], threshold: float = DEFAULT_THRESHOLD) -> InstanceScore:
    """All signals of one instance (see the module docstring for each rule)."""
    base = instance.base
    kind = base.answer_type
    answer = _parsed(base, predictions)
    correct = is_correct(answer, base.target, kind)
    rerender_answers = [_parsed(r, predictions) for r in instance.rerenders]
    rea = sum(within(a, answer, kind) for a in rerender_answers) / len(rerender_answers) if rerender_answers else 0.0
    residuals: dict[str, float | None] = {}
    edit_answers: dict[str, ParsedAnswer] = {}
    edit_correct: dict[str, bool] = {}
    for variant, row in sorted(instance.edits.items()):
        edit_answers[variant] = _parsed(row, predictions)
        residuals[variant] = residual(edit_answers[variant], answer, row.transform, kind)
        edit_correct[variant] = is_correct(edit_answers[variant], row.target, kind)
    ecs = sum(residual_ok(r, kind) for r in residuals.values()) / len(residuals)
    return InstanceScore(
        instance_id=base.instance_id,
        data_seed=base.data_seed,
        template_id=base.template_id,
        family=base.family,
        question_type=base.question_type,
        answer_type=kind,
        target=base.target,
        answer=answer,
        correct=correct,
        rea=rea,
        residuals=residuals,
        ecs=ecs,
        flagged=ecs < threshold,
        ibem=rea >= IBEM_REA and not correct,
        combined=min(rea, ecs),
        edit_correct=edit_correct,
        edit_answers=edit_answers,
        baselines=_baselines(instance, predictions, answer, rerender_answers),
    )


def _baselines(
    instance: InstanceRenderings, predictions: Mapping[str, Prediction], answer: ParsedAnswer, rerender_answers: list[ParsedAnswer]
) -> dict[str, float]:
    base = instance.base
    kind, labels = base.answer_type, base.labels
    found: dict[str, float] = {}
    prediction = predictions.get(base.render_id)
    if prediction is not None and prediction.logprob is not None:
        found["logprob"] = prediction.logprob
    if prediction is not None and prediction.samples:
        sizes = clusters([parse_answer(s, kind, labels, base.question) for s in prediction.samples], kind)
        found["self_consistency"] = max(sizes) / len(prediction.samples)
        found["semantic_entropy"] = -entropy(sizes)
    reworded = [
        parse_answer(text, kind, row.labels, row.question)
        for row in [base, *instance.rerenders]
        if (p := predictions.get(row.render_id)) is not None and p.perturbed
        for text in p.perturbed
    ]
    if reworded:
        found["perturbation"] = -entropy(clusters([answer, *rerender_answers, *reworded], kind))
    return {k: v for k, v in found.items() if math.isfinite(v)}


def score_instances(
    renderings: Sequence[RenderingRow], predictions: Mapping[str, Prediction], threshold: float = DEFAULT_THRESHOLD
) -> list[InstanceScore]:
    """Score every instance of a release (sorted by ``instance_id``)."""
    return [score_instance(i, predictions, threshold) for i in group_instances(renderings)]


__all__ = ["BASELINES", "DEFAULT_THRESHOLD", "IBEM_REA", "InstanceRenderings", "InstanceScore", "group_instances", "score_instance",
           "score_instances", "target_value"]
