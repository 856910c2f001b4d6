"""Error taxonomy of wrong answers, computed rather than hand-labelled (docs/design.md §3.5, paper §4.3 and §6).

For an instance whose base answer is wrong, the model's answers on the base
and on each edited figure are paired with their correct answers. Numeric
errors are fitted as one affine map e(a) = α·a + β across those pairs (least
squares); label errors as one label map, completed to a permutation by
closing its chains. The fitted map is the error the theory reasons about
(Lemma 1), so :func:`predicted_detection` can place the theory's prediction
next to the observed detection, edit by edit (Theorem 7 (i)).

Classes: ``scale`` (β ≈ 0), ``offset`` (α ≈ 1), ``affine`` (both move),
``permutation``, ``non_affine`` (no affine map fits within 5%),
``inconsistent_label`` (one label read as two, or two as one),
``undetermined`` (too few distinct targets to separate α from β: every map
through the one point fits) and ``unparseable``.

>>> fit_error([(10.0, 20.0), (20.0, 40.0)], "number")
('scale', Affine(scale=2.0, shift=0.0))
>>> fit_error([("A", "B")], "label")
('permutation', LabelMap(pairs=(('A', 'B'), ('B', 'A'))))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from rend_equiv_dataset.figures.answers.relaxed import TOLERANCE, relative_difference, target_value
from rend_equiv_dataset.figures.scoring.instances import InstanceScore
from rend_equiv_dataset.figures.answers.parse import ParsedAnswer
from rend_equiv_dataset.theory.detection import commutes
from rend_equiv_dataset.transforms import Affine, LabelMap, Transform

CLASSES = ("scale", "offset", "affine", "permutation", "non_affine", "inconsistent_label", "undetermined", "unparseable")
_EXACT = 1e-6


def fit_error(pairs: Sequence[tuple[float | str, ParsedAnswer]], answer_type: str) -> tuple[str, Transform | None]:
    """Fit one error map to (correct answer, model answer) pairs; returns (class, map or None).

    The first pair is the base rendering's; when its answer is unparseable
    the class is ``unparseable``. Other unparseable answers (say, a label
    that is not on the edited chart) carry no value to fit and are skipped.
    """
    if not pairs or pairs[0][1] is None:
        return "unparseable", None
    pairs = [(t, a) for t, a in pairs if a is not None]
    if answer_type == "label":
        return _fit_labels([(str(t), str(a)) for t, a in pairs])
    return _fit_affine([(float(t), float(a)) for t, a in pairs])  # type: ignore[arg-type]


def _fit_affine(pairs: list[tuple[float, float]]) -> tuple[str, Transform | None]:
    x = np.array([t for t, _ in pairs])
    y = np.array([a for _, a in pairs])
    if np.unique(x).size < 2:
        return "undetermined", None
    alpha, beta = (float(np.round(v, 9)) for v in np.polyfit(x, y, 1))  # snap float noise of exact fits
    fitted = alpha * x + beta
    if max(relative_difference(float(f), float(v)) for f, v in zip(fitted, y)) > TOLERANCE["number"]:
        return "non_affine", None
    scale_like = abs(beta) <= _EXACT * max(1.0, float(np.abs(y).max()))
    offset_like = abs(alpha - 1.0) <= _EXACT
    if offset_like:
        return "offset", Affine(1.0, float(beta))
    if scale_like:
        return "scale", Affine(float(alpha), 0.0)
    return "affine", Affine(float(alpha), float(beta))


def _fit_labels(pairs: list[tuple[str, str]]) -> tuple[str, Transform | None]:
    mapping: dict[str, str] = {}
    for target, answer in pairs:
        if mapping.setdefault(target, answer) != answer:
            return "inconsistent_label", None
    if len(set(mapping.values())) != len(mapping):
        return "inconsistent_label", None
    return "permutation", LabelMap.from_pairs(_close_chains(mapping))


def _close_chains(mapping: dict[str, str]) -> dict[str, str]:
    """Complete a partial injective label map to a permutation: each chain's end maps to its start."""
    closed = dict(mapping)
    images = set(mapping.values())
    for start in sorted(s for s in mapping if s not in images):
        end = mapping[start]
        while end in mapping:
            end = mapping[end]
        closed[end] = start
    return closed


def instance_error(score: InstanceScore, edit_targets: dict[str, str]) -> tuple[str, Transform | None]:
    """Fit the error of one instance from its base and edited answers."""
    kind = score.answer_type
    pairs = [(target_value(score.target, kind), score.answer)]
    pairs += [(target_value(edit_targets[g], kind), score.edit_answers[g]) for g in sorted(score.edit_answers)]
    return fit_error(pairs, kind)


def taxonomy_counts(classes: Sequence[str]) -> dict[str, int]:
    """Count per class, every class listed (zeros included)."""
    counts = Counter(classes)
    return {name: int(counts.get(name, 0)) for name in CLASSES}


def predicted_detection(
    error: Transform, phi: Transform, answer_type: str, at: float | str
) -> bool:
    """Whether the theory says ``error`` leaves a residual on the edit with transform ``phi`` at a* (Lemma 1)."""
    return not commutes(error, phi, tau=TOLERANCE[answer_type], at=at)
