"""Edits g and the difficulty controls they must keep (paper §3, §5).

Each edit type is one registered class (:mod:`.registry`): its operator, its
answer-transform φ_g per question type, where it applies, its controls and
its theory transform. The paper's six are in :mod:`.operators`; the
generator (:mod:`rend_equiv_dataset.figures.generate`) checks the law
a*(g(D), q) = φ_g(a*(D, q)) before it keeps an edit.
"""

from rend_equiv_dataset.figures.edits.controls import MIN_REL_GAP, has_min_gap
from rend_equiv_dataset.figures.edits.registry import (
    EDITS,
    OPERATORS,
    EditType,
    Proposal,
    applicable_edits,
    edit_type,
    edit_types,
    register_edit,
    suite_edits,
    transform_for,
    unregister_edit,
    violations,
)
from rend_equiv_dataset.figures.edits import operators  # noqa: F401  (registers the paper's six edits)

__all__ = [
    "EDITS", "MIN_REL_GAP", "OPERATORS", "EditType", "Proposal", "applicable_edits", "edit_type", "edit_types",
    "has_min_gap", "register_edit", "suite_edits", "transform_for", "unregister_edit", "violations",
]
