"""The per-instance signals as plain functions of raw outputs — the API the ``evaluate`` modules wrap.

Each takes one instance's model outputs as strings, parses them (DESIGN §3.5)
and applies the rule of :mod:`rend_equiv_dataset.figures.answers.relaxed`; scoring a
whole release uses the same rules through
:mod:`rend_equiv_dataset.figures.scoring.instances`.

>>> ecs_from_outputs("15", ["30", "22.5", "15"],
...                  ['{"kind": "affine", "scale": 2.0, "shift": 0.0}',
...                   '{"kind": "affine", "scale": 1.0, "shift": 5.0}',
...                   '{"kind": "identity"}'], "number")
0.6666666666666666
>>> rea_from_outputs("B", ["B", "b", "A", "B"], "label", ["A", "B"])
0.75
>>> ibem_summary([0.75, 1.0, 0.5], [0.0, 1.0, 0.0], [False, True, False])["ibem_n"]
1
"""

from __future__ import annotations

from collections.abc import Sequence

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.answers.relaxed import residual, residual_ok, within
from rend_equiv_dataset.figures.scoring.instances import DEFAULT_THRESHOLD, IBEM_REA
from rend_equiv_dataset.figures.answers.parse import parse_answer
from rend_equiv_dataset.schema import ANSWER_TYPES
from rend_equiv_dataset.transforms import from_json


def _check_type(answer_type: str) -> None:
    if answer_type not in ANSWER_TYPES:
        raise InputError(f"expected one of {ANSWER_TYPES}, got {answer_type!r}", field="answer_type")


def residuals_from_outputs(
    base_output: str,
    edit_outputs: Sequence[str],
    edit_transforms: Sequence[str],
    answer_type: str,
    labels: Sequence[str] = (),
    question: str | None = None,
) -> list[float | None]:
    """ρ_g = d(ŷ_g, φ_g(ŷ)) for each edit (paper Eq. 2); ``None`` where an answer is unparseable."""
    _check_type(answer_type)
    if len(edit_outputs) != len(edit_transforms):
        raise InputError(f"{len(edit_outputs)} edit outputs but {len(edit_transforms)} transforms", field="edit_transforms")
    if not edit_outputs:
        raise InputError("an instance needs at least one edit (the zoom edit)", field="edit_outputs")
    base = parse_answer(base_output, answer_type, labels, question)
    return [
        residual(parse_answer(out, answer_type, labels, question), base, from_json(phi), answer_type)
        for out, phi in zip(edit_outputs, edit_transforms)
    ]


def ecs_from_outputs(
    base_output: str,
    edit_outputs: Sequence[str],
    edit_transforms: Sequence[str],
    answer_type: str,
    labels: Sequence[str] = (),
    question: str | None = None,
) -> float:
    """ECS = mean over edits of 1[ρ_g ≤ τ_g] (paper Eq. 2; τ = 5% for numbers, 0 for labels)."""
    values = residuals_from_outputs(base_output, edit_outputs, edit_transforms, answer_type, labels, question)
    return sum(residual_ok(r, answer_type) for r in values) / len(values)


def rea_from_outputs(
    base_output: str, rerender_outputs: Sequence[str], answer_type: str, labels: Sequence[str] = (), question: str | None = None
) -> float:
    """REA: share of the re-renderings whose answer agrees with the base answer (same tolerance)."""
    _check_type(answer_type)
    if not rerender_outputs:
        raise InputError("REA needs at least one re-rendering output", field="rerender_outputs")
    base = parse_answer(base_output, answer_type, labels, question)
    agree = [within(parse_answer(o, answer_type, labels, question), base, answer_type) for o in rerender_outputs]
    return sum(agree) / len(agree)


def ibem_summary(
    rea: Sequence[float], ecs: Sequence[float], correct: Sequence[bool], threshold: float = DEFAULT_THRESHOLD
) -> dict[str, float | int | bool | None]:
    """IBEM (REA ≥ 0.75 and wrong, paper §5) and what ECS and min(REA, ECS) flag on it (Corollary 3)."""
    if not (len(rea) == len(ecs) == len(correct)):
        raise InputError(f"rea, ecs and correct differ in length: {len(rea)}, {len(ecs)}, {len(correct)}", field="correct")
    if not (0.0 < threshold <= 1.0):
        raise InputError(f"must be in (0, 1], got {threshold!r}", field="threshold")
    ibem = [i for i, (r, ok) in enumerate(zip(rea, correct)) if r >= IBEM_REA and not ok]
    ecs_flags = {i for i in ibem if ecs[i] < threshold}
    combined_flags = {i for i in ibem if min(rea[i], ecs[i]) < threshold}
    n = len(ibem)
    return {
        "ibem_n": n,
        "ibem_rate": n / len(rea) if rea else None,
        "ecs_detection": len(ecs_flags) / n if n else None,
        "combined_detection": len(combined_flags) / n if n else None,
        "same_flags": ecs_flags == combined_flags,
    }
