"""Edit operators g and the difficulty controls they must keep (DESIGN §3.3, paper §5).

The answer-transform φ_g of each edit is decided per question type in
:mod:`rend_equiv_dataset.figures.questions`; the generator
(:mod:`rend_equiv_dataset.figures.generate`) checks the law
a*(g(D), q) = φ_g(a*(D, q)) before it keeps an edit.
"""

from rend_equiv_dataset.figures.edits.controls import MIN_REL_GAP, has_min_gap, violations
from rend_equiv_dataset.figures.edits.operators import OPERATORS, Proposal

__all__ = ["MIN_REL_GAP", "OPERATORS", "Proposal", "has_min_gap", "violations"]
