"""The commutation theory as a tool: which reading errors an edit suite cannot detect (paper §4).

An error e escapes an edit g exactly when it commutes with the edit's
answer-transform φ_g (Lemma 1); a suite misses the joint centralizer
U_τ(G) = ∩_g C_τ(φ_g) (Theorem 2). This package computes it for affine errors
(closed form, Theorem 4) and label permutations (exact for any m, by orbits;
by enumeration as a cross-check, Proposition 5), analyses suites, and predicts
detection rates under an error distribution (Theorem 7).

>>> from rend_equiv_dataset.theory import analyze_suite, edit_transform, suite_detection_probability
>>> analyze_suite("permutation", ["swap"], m=6).undetectable_count
48
"""

from rend_equiv_dataset.theory.affine import (
    AffineToleranceRegion,
    AffineUndetectable,
    affine_undetectable,
    commutator_residual,
)
from rend_equiv_dataset.theory.centralizers import (
    ENUMERATION_MAX_M,
    JointCentralizer,
    enumerate_centralizer,
    joint_centralizer,
)
from rend_equiv_dataset.theory.detection import (
    EDIT_TYPES,
    THEORY_EDITS,
    TheoryEdit,
    answer_distance,
    commutes,
    detection_probability,
    edit_transform,
    mixture,
    register_theory_edit,
    suite_detection_probability,
    uniform_permutations,
    unregister_theory_edit,
)
from rend_equiv_dataset.theory.permutations import (
    centralizer_order,
    centralizer_order_of_type,
    cycle_notation,
    cycle_type,
    default_labels,
    from_label_map,
    to_label_map,
)
from rend_equiv_dataset.theory.suite import (
    ErrorClass,
    SuiteAnalysis,
    Undetectable,
    analyze_suite,
    applicable_edits,
    permutation_undetectable,
)

__all__ = [
    "EDIT_TYPES",
    "ENUMERATION_MAX_M",
    "THEORY_EDITS",
    "TheoryEdit",
    "AffineToleranceRegion",
    "AffineUndetectable",
    "ErrorClass",
    "JointCentralizer",
    "SuiteAnalysis",
    "Undetectable",
    "affine_undetectable",
    "analyze_suite",
    "applicable_edits",
    "answer_distance",
    "centralizer_order",
    "centralizer_order_of_type",
    "commutator_residual",
    "commutes",
    "cycle_notation",
    "cycle_type",
    "default_labels",
    "detection_probability",
    "edit_transform",
    "enumerate_centralizer",
    "from_label_map",
    "joint_centralizer",
    "mixture",
    "permutation_undetectable",
    "register_theory_edit",
    "suite_detection_probability",
    "to_label_map",
    "uniform_permutations",
    "unregister_theory_edit",
]
