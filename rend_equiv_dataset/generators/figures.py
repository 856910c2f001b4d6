"""REND-EQUIV instances: chart data, a question, its exact answer and the edit suite G.

The types here are what rendering, the release writer and scoring read
(DESIGN §3.1, §3.3). An :class:`Instance` is one base chart with one
question; each :class:`Edit` is one element g of its suite G, carrying the
edited data g(D), the answer-transform φ_g and the exact answer of the
edited chart, so that paper Eq. 1 holds::

    a*(g(D), q) = φ_g(a*(D, q))        and, as strings,
    format_answer(edit.transform.apply(parse(instance.target))) == edit.target

Every instance carries exactly one ``zoom`` edit (φ = identity, the
invariance control of paper §3) plus the equivariance edits that apply to
its question type, so ``len(instance.edits)`` is in {1, 2, 3}.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rend_equiv_dataset.charts.data import ChartData, Family
from rend_equiv_dataset.transforms import Transform

EDIT_TYPES: tuple[str, ...] = ("scale", "offset", "delete_max", "swap", "cycle", "zoom")
"""Edit kinds of DESIGN §3.3, in the order edits are listed on an instance."""

ANSWER_TYPES: tuple[str, ...] = ("number", "label")


@dataclass(frozen=True)
class Edit:
    """One edit g of an instance's data, with its answer-transform φ_g.

    Attributes:
        edit_type: one of :data:`EDIT_TYPES`.
        params: JSON-able parameters of the edit, e.g. ``{"series": "2024", "factor": 2.0}``
            for scale, ``{"series": "2024", "delta": -5.0}`` for offset,
            ``{"series": ..., "deleted": "Japan"}`` for delete_max,
            ``{"labels": ["France", "Japan"]}`` for swap, ``{"cycle": [...]}`` for cycle,
            ``{"value_range": [0.0, 120.0]}`` for zoom.
        transform: φ_g as a :mod:`rend_equiv_dataset.transforms` object (JSON per DESIGN §7.2).
            Identity only for zoom.
        data: the edited chart data g(D). Drawn in the base style.
        target: canonical answer string of the edited chart, recomputed from ``data``;
            equals ``format_answer(transform.apply(base answer))``.
    """

    edit_type: str
    params: Mapping[str, Any]
    transform: Transform
    data: ChartData
    target: str


@dataclass(frozen=True)
class Instance:
    """One REND-EQUIV instance (DESIGN §3.1): base chart, question, exact answer, edits.

    Attributes:
        instance_id: unique across seeds, e.g. ``"s0-bar-007"`` (matched set: ``"s0-mc-042"``).
        data_seed: the data seed that generated it.
        index: position in its seed's list (``generate_instance(seed, index)`` rebuilds it).
        template_id: the template slot, shared across seeds (``"bar-007"``, ``"mc-042"``);
            the bootstrap clusters on it. Same slot, same family and question type.
        family: the chart family.
        question_type: one of the types in :mod:`rend_equiv_dataset.charts.questions`
            (``value``, ``difference``, ``sum``, ``argmax``, ``argmin``, ``compare``, ``share``).
        question: question text; the same text is asked of the base and every edit.
        target: canonical answer string for the base chart (``format_answer``).
        answer_type: ``"number"`` or ``"label"``.
        labels: the instance's label set (its categories), for label matching in scoring.
        data: the base chart data.
        edits: the suite G in :data:`EDIT_TYPES` order; exactly one ``zoom``.
        question_params: JSON-able parameters the question was built from (series name,
            categories it names), enough to recompute the answer from any edited data.
    """

    instance_id: str
    data_seed: int
    index: int
    template_id: str
    family: Family
    question_type: str
    question: str
    target: str
    answer_type: str
    labels: tuple[str, ...]
    data: ChartData
    edits: tuple[Edit, ...]
    question_params: Mapping[str, Any] = field(default_factory=dict)

    def edit(self, edit_type: str) -> Edit:
        """The edit of the given type (raises ``KeyError`` when the instance has none)."""
        for e in self.edits:
            if e.edit_type == edit_type:
                return e
        raise KeyError(edit_type)
