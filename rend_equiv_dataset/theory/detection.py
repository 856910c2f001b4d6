"""Which errors an edit detects, and how often under an error distribution (paper Lemma 1, Theorem 7).

An error e escapes edit g at the correct answer a* when the residual
d(e(φ_g(a*)), φ_g(e(a*))) ≤ τ (Lemma 1): e lies in the centralizer C_τ(φ_g).
Under a distribution P over errors the detection probability of an edit is
π_τ(g) = 1 − P(C_τ(φ_g)) and of a suite π_τ(G) = 1 − P(U_τ(G)) (Theorem 7).

What ``at`` (the correct answer a*) means, by kind:

- affine error and affine edit (numbers): the commutator is the same at
  every answer (Theorem 4), so at τ = 0 ``at`` is not needed and ignored. For
  τ > 0 the distance is relative to the target φ(e(a*)) (docs/design.md §3.5), so
  ``at`` must be given, as a number.
- label maps (permutations, and maps that are not bijections such as
  delete_max): ``at=None`` asks whether the two maps commute as maps on every
  label (e∘φ = φ∘e, the centralizer of Proposition 5); a label asks whether
  they commute at that correct answer only, which is what one instance
  observes (for delete_max, the deleted label). Labels are compared 0/1, so any
  τ ≥ 1 lets every error escape.
- an identity on either side commutes with everything (Corollary 3); an
  affine map and a label map act on different answer types, each as the
  identity on the other's answers, so they commute too: a numeric edit cannot
  see a label error, nor a label edit a numeric one.

>>> scale, swap = edit_transform("scale"), edit_transform("swap", m=4)
>>> commutes(Affine(1.2, 0.0), scale), commutes(Affine(1.0, 3.0), scale)
(True, False)
>>> commutes(LabelMap.from_pairs({"A": "B", "B": "A"}), swap)     # confusing A with B: invisible to the swap
True
>>> errors = [(0.75, Affine(1.0, 2.0)), (0.25, Affine(1.5, 0.0))]
>>> detection_probability(scale, errors), suite_detection_probability([scale, edit_transform("offset")], errors)
(0.75, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rend_equiv_dataset import schema
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.theory.affine import commutator_residual, commutes_exactly
from rend_equiv_dataset.theory.centralizers import ENUMERATION_MAX_M, all_permutations
from rend_equiv_dataset.theory.permutations import default_labels, to_label_map
from rend_equiv_dataset.transforms import IDENTITY, Affine, Answer, Identity, LabelMap, Transform

EDIT_TYPES: tuple[str, ...] = schema.EDIT_TYPES
"""The paper's edits, named as in the release. :data:`THEORY_EDITS` may hold more."""

ErrorDistribution = Sequence[tuple[float, Transform]]


def answer_distance(answer: Answer, target: Answer) -> float:
    """d of docs/design.md §3.5: numbers relative to the target, labels 0/1.

    A number at a zero target is at distance 0 when equal and infinite otherwise.

    >>> answer_distance(105.0, 100.0), answer_distance("A", "A"), answer_distance("A", "B")
    (0.05, 0.0, 1.0)
    >>> answer_distance(1.0, 0.0)
    inf
    """
    if isinstance(answer, str) or isinstance(target, str):
        return 0.0 if answer == target else 1.0
    if target == 0.0:
        return 0.0 if answer == 0.0 else math.inf
    return abs(float(answer) - float(target)) / abs(float(target))


def commutes(error: Transform, phi: Transform, *, tau: float = 0.0, at: float | str | None = None) -> bool:
    """Whether the error escapes the edit: d(e(φ(a*)), φ(e(a*))) ≤ τ (Lemma 1).

    ``at`` is the correct answer a*. Numbers (affine error and edit): ignored at
    τ = 0, where the commutator is the same at every answer (Theorem 4);
    required for τ > 0, where the distance is relative to the target. Labels
    (permutations and non-bijective maps such as delete_max): ``None`` asks
    whether the maps commute on every label; a label asks at that answer only.
    An identity, or an affine map against a label map, always commutes.

    >>> commutes(Affine(1.0, 1.0), Affine(2.0, 0.0), tau=0.05, at=100.0)   # residual 1 on a target of 202
    True
    >>> cycle = edit_transform("cycle", m=3)
    >>> commutes(LabelMap.from_pairs({"A": "B", "B": "A"}), cycle), commutes(cycle, cycle)
    (False, True)
    """
    _check_tau(tau)
    if isinstance(error, Identity) or isinstance(phi, Identity):
        return True
    if isinstance(error, Affine) and isinstance(phi, Affine):
        return _affine_commutes(error, phi, tau, at)
    if isinstance(error, LabelMap) and isinstance(phi, LabelMap):
        return _labels_commute(error, phi, tau, at)
    return True


def detection_probability(
    phi: Transform, errors: ErrorDistribution, *, tau: float = 0.0, at: float | str | None = None
) -> float:
    """π_τ(g) = 1 − P(C_τ(φ_g)) with the weights normalised (Theorem 7 (i)).

    >>> detection_probability(IDENTITY, [(1.0, Affine(3.0, 1.0))])   # Theorem 7 (ii)
    0.0
    """
    return suite_detection_probability([phi], errors, tau=tau, at=at)


def suite_detection_probability(
    phis: Sequence[Transform], errors: ErrorDistribution, *, tau: float = 0.0, at: float | str | None = None
) -> float:
    """π_τ(G) = 1 − P(U_τ(G)): the mass of errors some edit of the suite detects (Theorem 7 (iii)).

    >>> errors = uniform_permutations(default_labels(5))
    >>> swap, cycle = edit_transform("swap", m=5), edit_transform("cycle", m=5)
    >>> round(suite_detection_probability([swap], errors), 4), suite_detection_probability([swap, cycle], errors)
    (0.9, 0.9916666666666667)
    """
    weights = _weights(errors)
    detected = math.fsum(
        w for w, (_, e) in zip(weights, errors) if not all(commutes(e, p, tau=tau, at=at) for p in phis)
    )
    return detected / math.fsum(weights)


def uniform_permutations(labels: Sequence[str], weight: float = 1.0) -> list[tuple[float, Transform]]:
    """Every permutation of ``labels`` with equal weight summing to ``weight`` (m ≤ 8).

    >>> len(uniform_permutations(("A", "B", "C")))
    6
    """
    if len(labels) > ENUMERATION_MAX_M:
        raise InputError(
            f"a uniform distribution over S_m is enumerated for m <= {ENUMERATION_MAX_M}, got m={len(labels)}",
            field="labels",
        )
    table = all_permutations(len(labels))
    share = weight / len(table)
    return [(share, to_label_map(tuple(int(x) for x in row), labels)) for row in table]


def mixture(*parts: tuple[float, ErrorDistribution]) -> list[tuple[float, Transform]]:
    """Mix error distributions: each part's weights are normalised, then scaled by the part's weight.

    "75% affine with these α, β; 25% permutations uniformly":

    >>> mix = mixture((0.75, [(1, Affine(1.0, 2.0)), (1, Affine(0.5, 0.0))]), (0.25, uniform_permutations("ABC")))
    >>> len(mix), math.fsum(w for w, _ in mix)
    (8, 1.0)
    """
    out: list[tuple[float, Transform]] = []
    for weight, errors in parts:
        if not (math.isfinite(weight) and weight >= 0.0):
            raise InputError(f"a part's weight must be a finite number >= 0, got {weight!r}", field="weight")
        out.extend((weight * w, e) for w, e in zip(_normalised(errors), (e for _, e in errors)))
    return out


MakeTransform = Callable[[tuple[str, ...], float, float], Transform]
"""(labels with the current answer first, scale, shift) -> φ. Numeric edits ignore the labels."""


@dataclass(frozen=True)
class TheoryEdit:
    """What the theory knows of an edit: its canonical answer-transform φ and the answers it acts on.

    Attributes:
        name: the edit type.
        acts_on: ``"number"`` (an affine φ), ``"label"`` (a label map φ) or ``None``
            (φ = identity, an invariance control that applies to both error classes).
        make: builds φ from the labels (label edits only), ``scale`` and ``shift``.
    """

    name: str
    acts_on: str | None
    make: MakeTransform


THEORY_EDITS: dict[str, TheoryEdit] = {}
"""Edit type -> :class:`TheoryEdit`. The figure benchmark's edit registry
(:mod:`rend_equiv_dataset.figures.edits.registry`) adds each edit class's own entry here."""


def register_theory_edit(edit: TheoryEdit) -> None:
    """Add an edit to :data:`THEORY_EDITS` (again with the same entry is a no-op; another entry is refused)."""
    if edit.acts_on not in (*schema.ANSWER_TYPES, None):
        raise ValueError(f"{edit.name}: acts_on must be one of {schema.ANSWER_TYPES} or None, got {edit.acts_on!r}")
    known = THEORY_EDITS.get(edit.name)
    if known is not None and known != edit:
        raise ValueError(f"a different theory edit is already registered as {edit.name!r}")
    THEORY_EDITS[edit.name] = edit


def unregister_theory_edit(name: str) -> None:
    """Remove an edit from :data:`THEORY_EDITS` (nothing when it is not there)."""
    THEORY_EDITS.pop(name, None)


def _zoom(names: tuple[str, ...], scale: float, shift: float) -> Transform:
    return IDENTITY


def _scale(names: tuple[str, ...], scale: float, shift: float) -> Transform:
    if not (math.isfinite(scale) and scale > 0.0 and scale != 1.0):
        raise InputError(f"the scale edit needs c > 0 and c != 1, got {scale!r}", field="scale")
    return Affine(scale, 0.0)


def _offset(names: tuple[str, ...], scale: float, shift: float) -> Transform:
    if not (math.isfinite(shift) and shift != 0.0):
        raise InputError(f"the offset edit needs a finite shift != 0, got {shift!r}", field="shift")
    return Affine(1.0, shift)


def _swap(names: tuple[str, ...], scale: float, shift: float) -> Transform:
    return LabelMap.from_pairs({names[0]: names[1], names[1]: names[0]})


def _delete_max(names: tuple[str, ...], scale: float, shift: float) -> Transform:
    return LabelMap.from_pairs({names[0]: names[1]})


def _cycle(names: tuple[str, ...], scale: float, shift: float) -> Transform:
    return LabelMap.from_pairs({x: names[(i + 1) % len(names)] for i, x in enumerate(names)})


SCALE = TheoryEdit("scale", schema.NUMBER, _scale)
OFFSET = TheoryEdit("offset", schema.NUMBER, _offset)
DELETE_MAX = TheoryEdit("delete_max", schema.LABEL, _delete_max)
SWAP = TheoryEdit("swap", schema.LABEL, _swap)
CYCLE = TheoryEdit("cycle", schema.LABEL, _cycle)
ZOOM = TheoryEdit("zoom", None, _zoom)
for _edit in (SCALE, OFFSET, DELETE_MAX, SWAP, CYCLE, ZOOM):
    register_theory_edit(_edit)


def edit_transform(
    edit_type: str,
    *,
    m: int | None = None,
    labels: Sequence[str] | None = None,
    scale: float = 2.0,
    shift: float = 1.0,
) -> Transform:
    """The canonical answer-transform φ of a named edit (docs/design.md §3.3).

    Numeric edits: ``scale`` a ↦ scale·a (scale > 0, ≠ 1), ``offset`` a ↦ a + shift
    (shift ≠ 0). Label edits act on ``labels`` (default ``A, B, …`` for ``m``)
    with the current answer first: ``swap`` exchanges labels 1 and 2,
    ``delete_max`` sends the deleted maximum (label 1) to the runner-up (label
    2), ``cycle`` sends label i to label i+1 and the last to the first.
    ``zoom`` is the identity.

    >>> edit_transform("cycle", m=3)
    LabelMap(pairs=(('A', 'B'), ('B', 'C'), ('C', 'A')))
    >>> edit_transform("delete_max", labels=["Japan", "France", "Chile"])
    LabelMap(pairs=(('Japan', 'France'),))
    >>> edit_transform("rotate")
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field 'edit_type': unknown edit 'rotate'; expected one of scale, offset, delete_max, swap, cycle, zoom
    """
    edit = THEORY_EDITS.get(edit_type)
    if edit is None:
        raise InputError(f"unknown edit {edit_type!r}; expected one of {', '.join(THEORY_EDITS)}", field="edit_type")
    names = _edit_labels(m, labels) if edit.acts_on == schema.LABEL else ()
    return edit.make(names, scale, shift)


def _edit_labels(m: int | None, labels: Sequence[str] | None) -> tuple[str, ...]:
    if labels is None:
        if m is None:
            raise InputError("a label edit needs the number of labels m or the labels", field="m")
        if isinstance(m, bool) or not isinstance(m, int) or m < 2:
            raise InputError(f"a label edit needs m >= 2 labels, got {m!r}", field="m")
        return default_labels(m)
    names = tuple(labels)
    if len(names) < 2 or len(set(names)) != len(names) or not all(isinstance(x, str) for x in names):
        raise InputError(f"a label edit needs at least 2 distinct string labels, got {names!r}", field="labels")
    if m is not None and m != len(names):
        raise InputError(f"m={m} disagrees with the {len(names)} labels given", field="m")
    return names


def _check_tau(tau: float) -> None:
    if isinstance(tau, bool) or not isinstance(tau, (int, float)) or not math.isfinite(tau) or tau < 0.0:
        raise InputError(f"must be a finite number >= 0, got {tau!r}", field="tau")


def _affine_commutes(error: Affine, phi: Affine, tau: float, at: float | str | None) -> bool:
    if commutes_exactly(error, phi):
        return True
    if tau == 0.0:
        return False
    if at is None or isinstance(at, (str, bool)) or not math.isfinite(at):
        raise InputError(
            f"numeric answers at tau > 0 need the correct answer a* as a finite number, got {at!r}", field="at"
        )
    target = phi.apply(error.apply(at))
    return answer_distance(target + commutator_residual(error, phi), target) <= tau


def _labels_commute(error: LabelMap, phi: LabelMap, tau: float, at: float | str | None) -> bool:
    if tau >= 1.0:
        return True
    if at is None:
        return error.compose(phi) == phi.compose(error)
    if not isinstance(at, str):
        raise InputError(f"label answers need the correct answer a* as a label, got {at!r}", field="at")
    return error.apply(phi.apply(at)) == phi.apply(error.apply(at))


def _normalised(errors: ErrorDistribution) -> list[float]:
    weights = _weights(errors)
    total = math.fsum(weights)
    return [w / total for w in weights]


def _weights(errors: ErrorDistribution) -> list[float]:
    if len(errors) == 0:
        raise InputError("the error distribution is empty", field="errors")
    weights = []
    for index, item in enumerate(errors):
        if not (isinstance(item, tuple) and len(item) == 2):
            raise InputError(f"entry {index} must be a (weight, transform) pair, got {item!r}", field="errors")
        weight = item[0]
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not math.isfinite(weight) or weight < 0:
            raise InputError(f"entry {index} needs a finite weight >= 0, got {weight!r}", field="errors")
        weights.append(float(weight))
    if math.fsum(weights) <= 0.0:
        raise InputError("the error weights sum to 0; at least one must be positive", field="errors")
    return weights
