"""Edits as a registry: one class per edit type g, holding everything about it (paper §3, §5).

An :class:`EditType` subclass holds, for one edit:

- ``propose``: the operator — base data, posed question and a seeded generator
  in, a :class:`Proposal` (edited data g(D) and JSON-able params) out, or
  ``None`` when it cannot apply to this chart and question;
- ``phi_rules``: its answer-transform φ_g for each question type it applies
  to (where it applies is exactly the keys); ``invariance = True`` marks an
  edit whose φ is the identity everywhere (zoom, the invariance control);
- ``point_change`` and :meth:`EditType.violations`: its difficulty controls;
- ``theory``: its canonical transform for the theory
  (:class:`rend_equiv_dataset.theory.detection.TheoryEdit`);
- ``suites``: the instance sets it is used in (``"main"``, ``"matched"``).

Decorating a class with :func:`register_edit` is all it takes to add an
edit: the generator proposes it wherever it applies (and checks the law
a*(g(D), q) = φ_g(a*(D, q)) before keeping it), the theory can name it, and
scoring computes its residuals from the transform written on its rows. The
paper's six edits are in :mod:`rend_equiv_dataset.figures.edits.operators`.

>>> edit_types()
('scale', 'offset', 'delete_max', 'swap', 'cycle', 'zoom')
>>> suite_edits("matched"), applicable_edits("argmin")
(('swap', 'cycle', 'zoom'), ('swap', 'cycle', 'zoom'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import numpy as np

from rend_equiv_dataset.figures.charts.data import ChartData
from rend_equiv_dataset.figures.edits import controls
from rend_equiv_dataset.figures.questions import QUESTION_TYPES, Question
from rend_equiv_dataset.theory.detection import TheoryEdit, register_theory_edit, unregister_theory_edit
from rend_equiv_dataset.transforms import IDENTITY, Transform

MAIN, MATCHED = "main", "matched"
"""Instance sets: the main set of each seed, and the matched swap-versus-cycle set (paper §4.3)."""

PhiRule = Callable[[ChartData, Question, Mapping[str, Any]], Transform]
"""(base data, question, edit params) -> φ_g."""


@dataclass(frozen=True)
class Proposal:
    """An edit's data change: the edited data and its JSON-able parameters."""

    data: ChartData
    params: Mapping[str, Any]


class EditType:
    """One edit type g. Subclass it, set the class attributes, and decorate with :func:`register_edit`."""

    name: ClassVar[str]
    """The edit type as written in releases (``variant`` of its renderings)."""
    phi_rules: ClassVar[Mapping[str, PhiRule]] = {}
    """Question type -> φ_g rule, for the question types the edit applies to."""
    invariance: ClassVar[bool] = False
    """True for an edit whose φ is the identity for every question (applies to all of them)."""
    point_change: ClassVar[int] = 0
    """How many points the edit adds (negative: removes) by definition; the controls expect it."""
    suites: ClassVar[frozenset[str]] = frozenset({MAIN})
    theory: ClassVar[TheoryEdit]

    @staticmethod
    def propose(data: ChartData, question: Question, rng: np.random.Generator) -> Proposal | None:
        """The operator g: propose edited data, or ``None`` when it does not apply here."""
        raise NotImplementedError

    def applies_to(self, question_type: str) -> bool:
        """Whether the edit is an equivariance edit (or the invariance control) for the question type."""
        return self.invariance or question_type in self.phi_rules

    def phi(self, data: ChartData, question: Question, params: Mapping[str, Any]) -> Transform:
        """φ_g for this edit with ``params`` on base ``data`` (``KeyError`` where it does not apply)."""
        if self.invariance:
            return IDENTITY
        return self.phi_rules[question.question_type](data, question, params)

    def violations(self, base: ChartData, edited: ChartData) -> tuple[str, ...]:
        """The difficulty controls the edited data breaks (paper §5); empty when it keeps them."""
        return controls.violations(base, edited, point_change=self.point_change)


EDITS: dict[str, EditType] = {}
"""Edit type -> its registered instance, in registration order (the order edits are listed)."""

E = TypeVar("E", bound=type[EditType])


def register_edit(cls: E) -> E:
    """Class decorator: register an edit type (and its theory transform) under ``cls.name``."""
    name = cls.__dict__.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{cls.__name__} needs a class attribute name (a non-empty string)")
    if name in EDITS:
        raise ValueError(f"an edit named {name!r} is already registered")
    if cls.propose is EditType.propose:
        raise ValueError(f"{cls.__name__} needs an operator: a propose(data, question, rng) staticmethod")
    theory = getattr(cls, "theory", None)
    if not isinstance(theory, TheoryEdit):
        raise ValueError(f"{cls.__name__} needs a theory transform: theory = TheoryEdit({name!r}, ...)")
    if theory.name != name:
        raise ValueError(f"{cls.__name__}.theory is named {theory.name!r}, expected {name!r}")
    if unknown := sorted(set(cls.phi_rules) - set(QUESTION_TYPES)):
        raise ValueError(f"{cls.__name__}.phi_rules names unknown question types {unknown}")
    register_theory_edit(cls.theory)
    EDITS[name] = cls()
    return cls


def unregister_edit(name: str) -> None:
    """Remove a registered edit and its theory transform (for tests that register a toy edit)."""
    EDITS.pop(name, None)
    unregister_theory_edit(name)


def edit_type(name: str) -> EditType:
    """The registered edit called ``name`` (``KeyError`` when there is none)."""
    return EDITS[name]


def edit_types() -> tuple[str, ...]:
    """Every registered edit type, in listing order."""
    return tuple(EDITS)


def suite_edits(suite: str) -> tuple[str, ...]:
    """The edits an instance set uses (each only where it applies to the question)."""
    return tuple(name for name, edit in EDITS.items() if suite in edit.suites)


def applicable_edits(question_type: str) -> tuple[str, ...]:
    """The registered edits that apply to a question type, zoom included."""
    return tuple(name for name, edit in EDITS.items() if edit.applies_to(question_type))


def transform_for(edit_type: str, data: ChartData, question: Question, params: Mapping[str, Any]) -> Transform:
    """φ_g of edit ``edit_type`` with ``params`` on base ``data`` (``KeyError`` if it does not apply)."""
    return EDITS[edit_type].phi(data, question, params)


def violations(base: ChartData, edited: ChartData, edit_type: str) -> tuple[str, ...]:
    """The difficulty controls an edit of type ``edit_type`` breaks."""
    return EDITS[edit_type].violations(base, edited)


class _Operators(Mapping[str, Callable[[ChartData, Question, np.random.Generator], "Proposal | None"]]):
    """Edit type -> operator, read live from the registry."""

    def __getitem__(self, name: str) -> Callable[[ChartData, Question, np.random.Generator], Proposal | None]:
        return EDITS[name].propose

    def __iter__(self) -> Iterator[str]:
        return iter(EDITS)

    def __len__(self) -> int:
        return len(EDITS)


OPERATORS: Mapping[str, Callable[[ChartData, Question, np.random.Generator], Proposal | None]] = _Operators()
"""Edit type -> operator, in listing order (a live view of :data:`EDITS`)."""
