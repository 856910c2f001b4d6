"""Comparing answers: correctness, agreement, residuals (paper §3, docs/design.md §3.5).

One distance serves every rule. Numbers use the relative difference
``|x − y| / |y|`` (ChartQA's relaxed accuracy; ``y = 0`` needs ``x = 0``);
labels use 0/1. Tolerances τ: 0.05 for numbers, 0 for labels. An
unparseable answer (``None``) is never correct and never agrees.

>>> from rend_equiv_dataset.transforms import IDENTITY, Affine, LabelMap
>>> is_correct(104.0, "100", "number"), is_correct(106.0, "100", "number")
(True, False)
>>> residual(20.0, 10.0, Affine(2.0, 0.0), "number")
0.0
>>> residual("B", "A", LabelMap.from_pairs({"A": "B", "B": "A"}), "label")
0.0
>>> residual(None, 3.0, IDENTITY, "number") is None
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rend_equiv_dataset.figures.answers.parse import ParsedAnswer
from rend_equiv_dataset.transforms import Transform

TOLERANCE: dict[str, float] = {"number": 0.05, "label": 0.0}
"""τ_g by answer type (docs/design.md §3.5): relative 5% for numbers, exact for labels."""


def relative_difference(x: float, y: float) -> float:
    """|x − y| / |y|; when y = 0, 0 if x = 0 else infinity.

    >>> relative_difference(11.0, 10.0)
    0.1
    >>> relative_difference(0.0, 0.0), relative_difference(1.0, 0.0)
    (0.0, inf)
    """
    if y == 0.0:
        return 0.0 if x == 0.0 else math.inf
    return abs(x - y) / abs(y)


def distance(x: ParsedAnswer, y: ParsedAnswer, answer_type: str) -> float | None:
    """d(x, y): relative difference for numbers, 0/1 for labels; ``None`` if either is unparseable."""
    if x is None or y is None:
        return None
    if answer_type == "number":
        return relative_difference(float(x), float(y))
    return 0.0 if x == y else 1.0


def within(x: ParsedAnswer, y: ParsedAnswer, answer_type: str) -> bool:
    """Whether d(x, y) ≤ τ for the answer type (``y`` is the reference)."""
    d = distance(x, y, answer_type)
    return d is not None and d <= TOLERANCE[answer_type]


def target_value(target: str, answer_type: str) -> float | str:
    """The canonical target string as a number or label."""
    return float(target) if answer_type == "number" else target


def is_correct(answer: ParsedAnswer, target: str, answer_type: str) -> bool:
    """Relaxed accuracy: within 5% of the target for numbers, exact label otherwise."""
    return within(answer, target_value(target, answer_type), answer_type)


def residual(edited: ParsedAnswer, base: ParsedAnswer, transform: Transform, answer_type: str) -> float | None:
    """ρ_g = d(ŷ_g, φ_g(ŷ)): the edited answer against the transformed base answer (paper Eq. 2)."""
    if base is None or edited is None:
        return None
    return distance(edited, transform.apply(base), answer_type)


def residual_ok(value: float | None, answer_type: str) -> bool:
    """1[ρ_g ≤ τ_g]; an undefined residual (unparseable answer) counts as a violation."""
    return value is not None and value <= TOLERANCE[answer_type]


def clusters(answers: Sequence[ParsedAnswer], answer_type: str) -> list[int]:
    """Sizes of equivalence clusters of parsed answers (Kuhn et al.'s semantic clusters).

    Each answer joins the first cluster whose representative it is within τ of;
    every unparseable answer is its own cluster.

    >>> clusters([10.0, 10.2, 12.0, None, None], "number")
    [2, 1, 1, 1]
    """
    reps: list[ParsedAnswer] = []
    sizes: list[int] = []
    for answer in answers:
        for index, rep in enumerate(reps):
            if answer is not None and within(answer, rep, answer_type):
                sizes[index] += 1
                break
        else:
            reps.append(answer)
            sizes.append(1)
    return sizes


def entropy(sizes: Sequence[int]) -> float:
    """Shannon entropy (nats) of cluster frequencies.

    >>> round(entropy([1, 1]), 6) == round(math.log(2), 6)
    True
    """
    total = sum(sizes)
    return -sum((n / total) * math.log(n / total) for n in sizes if n) if total else 0.0



__all__ = [
    "TOLERANCE",
    "clusters",
    "distance",
    "entropy",
    "is_correct",
    "relative_difference",
    "residual",
    "residual_ok",
    "target_value",
    "within",
]
