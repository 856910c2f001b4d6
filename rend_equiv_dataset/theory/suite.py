"""Suite analysis: what a suite of named edits leaves undetectable, and what to add (paper §4.2–4.3).

For an error class and a suite of the library's edits this reports the
undetectable set U_0(G) (Theorem 2), whether the suite is complete for the
class (only the identity escapes), the single added edit that would shrink U
the most, and the composed-edit remark: applying the edits as one composed
edit never detects more, U_0({φ, ψ}) ⊆ U_0({φ∘ψ}).

>>> report = analyze_suite("permutation", ["swap", "zoom"], m=6)
>>> report.undetectable_count, report.complete, report.best_addition.edit_type
(48, False, 'cycle')
>>> analyze_suite("affine", ["scale", "offset"]).complete
True
>>> analyze_suite("permutation", ["swap", "cycle"], m=5).composed.undetectable_count   # the paper's S_5 remark
4
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.theory.affine import AffineUndetectable, affine_undetectable
from rend_equiv_dataset.theory.centralizers import (
    ENUMERATION_MAX_M,
    enumerate_centralizer,
    joint_centralizer,
)
from rend_equiv_dataset.theory.detection import THEORY_EDITS, edit_transform
from rend_equiv_dataset.theory.permutations import cycle_notation, default_labels, from_label_map, is_bijection
from rend_equiv_dataset.transforms import IDENTITY, Affine, LabelMap, Transform, to_json

LIST_LIMIT = 720
"""Undetectable sets up to this size are listed member by member."""

SEARCH_ALL_PAIRS_MAX_M = 12
"""Up to this m every swap pair and delete_max pair is tried as an addition; above, the canonical ones."""


class ErrorClass(str, enum.Enum):
    """The hypothesised error class E (paper §4.3)."""

    AFFINE = "affine"
    PERMUTATION = "permutation"


_ACTS_ON = {ErrorClass.AFFINE: "number", ErrorClass.PERMUTATION: "label"}


def applicable_edits(error_class: ErrorClass | str) -> tuple[str, ...]:
    """The registered edits that can detect errors of a class: those acting on its answers, and the identity.

    >>> applicable_edits("affine")[:3], applicable_edits("permutation")[:4]
    (('scale', 'offset', 'zoom'), ('delete_max', 'swap', 'cycle', 'zoom'))
    """
    acts_on = _ACTS_ON[ErrorClass(error_class)]
    return tuple(name for name, edit in THEORY_EDITS.items() if edit.acts_on in (acts_on, None))


@dataclass(frozen=True)
class Undetectable:
    """U_0 of some edits: its size (``None`` when infinite), completeness and description."""

    undetectable_count: int | None
    complete: bool
    description: str
    members: tuple[str, ...] | None = None
    dimension: int | None = None

    @property
    def size(self) -> int:
        """A ranking of sizes: the count, or for affine sets the dimension (0 is the identity alone)."""
        if self.undetectable_count is not None and self.dimension is None:
            return self.undetectable_count
        return self.dimension if self.dimension is not None else 0

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "undetectable_count": self.undetectable_count,
            "complete": self.complete,
            "undetectable": list(self.members) if self.members is not None else self.description,
        }


@dataclass(frozen=True)
class Addition:
    """One edit to add to the suite, and what it would leave."""

    edit_type: str
    transform: Transform
    result: Undetectable

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "edit": self.edit_type,
            "transform": to_json(self.transform),
            "undetectable_count": self.result.undetectable_count,
            "complete": self.result.complete,
        }


@dataclass(frozen=True)
class SuiteAnalysis:
    """The answer to "is this suite enough?" for one error class."""

    error_class: ErrorClass
    suite: tuple[str, ...]
    m: int | None
    method: str
    result: Undetectable
    best_addition: Addition | None
    composed: Undetectable | None
    class_size: int | None = field(default=None)

    @property
    def undetectable_count(self) -> int | None:
        return self.result.undetectable_count

    @property
    def complete(self) -> bool:
        return self.result.complete

    @property
    def undetectable_fraction(self) -> float | None:
        """|U| / m! for permutations: the share a uniform label error escapes with (Theorem 7 (iii)).

        >>> analyze_suite("permutation", ["cycle"], m=6).undetectable_fraction == 6 / 720
        True
        """
        count = self.result.undetectable_count
        if self.class_size is None or count is None:
            return None
        return count / self.class_size

    def to_json_dict(self) -> dict[str, Any]:
        """The ``--json`` object of ``rend-equiv theory``."""
        return {
            **self.result.to_json_dict(),
            "description": self.result.description,
            "error_class": self.error_class.value,
            "labels": self.m,
            "suite": list(self.suite),
            "method": self.method,
            "class_size": self.class_size,
            "undetectable_fraction": self.undetectable_fraction,
            "best_addition": self.best_addition.to_json_dict() if self.best_addition else None,
            "composed": self.composed.to_json_dict() if self.composed else None,
        }

    def explain(self) -> str:
        """One or two sentences for people."""
        where = f" on {self.m} labels" if self.m is not None else ""
        if self.error_class is ErrorClass.PERMUTATION:
            count, total = self.result.undetectable_count or 0, self.class_size or 1
            share = f"{self.undetectable_fraction:.3g}"
            size = f"{_readable(count)} of {self.m}! = {_readable(total)} label permutations ({share})"
        else:
            size = "1 affine error" if self.result.complete else "infinitely many affine errors"
        first = f"The suite {', '.join(self.suite)}{where} leaves {size} undetectable: {self.result.description}."
        if self.result.complete:
            return first + f" It is complete for the {self.error_class.value} class."
        if self.best_addition is None:
            return first + " No single library edit would shrink it."
        add = self.best_addition
        added = add.result.undetectable_count
        left = _readable(added) if added is not None else add.result.description
        verdict = "complete" if add.result.complete else "not complete"
        labels = default_labels(self.m) if self.m is not None else None
        return first + f" Adding {add.edit_type} {_show(add.transform, labels)} would leave {left} ({verdict})."


def analyze_suite(
    error_class: ErrorClass | str,
    suite: Sequence[str],
    *,
    m: int | None = None,
    enumerate_members: bool = False,
    list_limit: int = LIST_LIMIT,
) -> SuiteAnalysis:
    """Analyse a suite of named edits for an error class.

    Args:
        error_class: ``"affine"`` or ``"permutation"``.
        suite: edit names as in the generator (scale, offset, swap, cycle, zoom, delete_max).
        m: number of labels (permutation class only, m >= 2).
        enumerate_members: solve by brute force over S_m instead of the orbit method (m <= 8).
        list_limit: list the undetectable permutations when there are at most this many.

    >>> analyze_suite("affine", ["swap"])
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field 'suite': edit 'swap' does not apply to the affine error class; allowed: scale, offset, zoom
    """
    klass = _error_class(error_class)
    names = _check_suite(klass, suite)
    if klass is ErrorClass.AFFINE:
        if m is not None:
            raise InputError("the number of labels applies only to the permutation error class", field="labels")
        if enumerate_members:
            raise InputError("enumeration applies only to the permutation error class", field="enumerate")
        return _analyze_affine(names)
    if m is None or isinstance(m, bool) or not isinstance(m, int) or m < 2:
        raise InputError(f"the permutation class needs m >= 2 labels, got {m!r}", field="labels")
    if enumerate_members and m > ENUMERATION_MAX_M:
        raise InputError(f"enumeration of S_m is allowed for m <= {ENUMERATION_MAX_M} labels, got m={m}", field="labels")
    return _analyze_permutations(names, m, enumerate_members, list_limit)


def permutation_undetectable(
    phis: Sequence[Transform], labels: Sequence[str], *, enumerate_members: bool = False, list_limit: int = LIST_LIMIT
) -> Undetectable:
    """U_0(G) in S_m for label-map edits over ``labels``, as counts and (small) member lists.

    >>> u = permutation_undetectable([edit_transform("cycle", m=3)], ("A", "B", "C"))
    >>> u.undetectable_count, u.members
    (3, ('()', '(A B C)', '(A C B)'))
    """
    maps = [from_label_map(phi, labels) for phi in phis]
    m = len(labels)
    if enumerate_members:
        rows = enumerate_centralizer(maps, m)
        members = sorted(tuple(int(x) for x in row) for row in rows)
        return _perm_result(len(members), members if len(members) <= list_limit else None, labels, m)
    centralizer = joint_centralizer(maps, m)
    listed = centralizer.members() if centralizer.order <= list_limit else None
    return _perm_result(centralizer.order, listed, labels, m, centralizer.describe(labels))


def _analyze_affine(names: tuple[str, ...]) -> SuiteAnalysis:
    phis = [edit_transform(name) for name in names]
    result = _affine_result(affine_undetectable(phis))
    best = None
    if not result.complete:
        options = [
            Addition(name, edit_transform(name), _affine_result(affine_undetectable([*phis, edit_transform(name)])))
            for name in ("scale", "offset")
        ]
        best = _best(options, result.size)
    return SuiteAnalysis(ErrorClass.AFFINE, names, None, "closed form", result, best, _affine_composed(phis))


def _analyze_permutations(names: tuple[str, ...], m: int, enumerate_members: bool, list_limit: int) -> SuiteAnalysis:
    labels = default_labels(m)
    phis = [edit_transform(name, m=m) for name in names]
    result = permutation_undetectable(phis, labels, enumerate_members=enumerate_members, list_limit=list_limit)
    best = None
    if not result.complete:
        options = [
            Addition(kind, phi, permutation_undetectable([*phis, phi], labels, list_limit=0))
            for kind, phi in _label_candidates(labels)
        ]
        best = _best(options, result.size)
    moving = [phi for phi in phis if phi != IDENTITY]
    composed = None
    if len(moving) >= 2:
        composed = permutation_undetectable([_compose_in_order(moving)], labels, list_limit=list_limit)
    method = "enumeration" if enumerate_members else "orbits"
    return SuiteAnalysis(
        ErrorClass.PERMUTATION, names, m, method, result, best, composed, class_size=_factorial(m)
    )


def _label_candidates(labels: tuple[str, ...]) -> list[tuple[str, Transform]]:
    """Library label edits to try adding: every pair for swap and delete_max when m is small."""
    m = len(labels)
    if m <= SEARCH_ALL_PAIRS_MAX_M:
        swaps: list[Transform] = [LabelMap.from_pairs({a: b, b: a}) for a, b in itertools.combinations(labels, 2)]
        deletes: list[Transform] = [LabelMap.from_pairs({a: b}) for a, b in itertools.permutations(labels, 2)]
    else:
        swaps, deletes = [edit_transform("swap", labels=labels)], [edit_transform("delete_max", labels=labels)]
    return (
        [("delete_max", phi) for phi in deletes]
        + [("swap", phi) for phi in swaps]
        + [("cycle", edit_transform("cycle", labels=labels))]
    )


def _best(options: list[Addition], current: int) -> Addition | None:
    """The addition leaving the smallest U, if it shrinks U; ties go to the edit moving fewest labels."""

    def key(indexed: tuple[int, Addition]) -> tuple[int, int, int]:
        index, option = indexed
        moved = len(option.transform.pairs) if isinstance(option.transform, LabelMap) else 1
        return option.result.size, moved, index

    _, best = min(enumerate(options), key=key)
    return best if best.result.size < current else None


def _affine_result(u: AffineUndetectable) -> Undetectable:
    return Undetectable(u.count, u.complete, u.describe(), dimension=u.dimension)


def _affine_composed(phis: list[Transform]) -> Undetectable | None:
    moving = [phi for phi in phis if phi != IDENTITY]
    if len(moving) < 2:
        return None
    return _affine_result(affine_undetectable([_compose_in_order(moving)]))


def _compose_in_order(phis: list[Transform]) -> Transform:
    """The one edit that applies the suite's edits in order: φ_k ∘ … ∘ φ_1."""
    composed: Transform = IDENTITY
    for phi in phis:
        composed = phi.compose(composed)
    return composed


def _perm_result(
    count: int, members: list[tuple[int, ...]] | None, labels: Sequence[str], m: int, structure: str | None = None
) -> Undetectable:
    listed = tuple(cycle_notation(p, labels) for p in members) if members is not None else None
    if count == 1:
        description = "only the identity"
    elif count == _factorial(m):
        description = f"every permutation of the {m} labels"
    else:
        description = structure or f"{count} permutations of the {m} labels, found by enumeration"
    return Undetectable(count, count == 1, description, listed)


def _error_class(value: ErrorClass | str) -> ErrorClass:
    try:
        return ErrorClass(value)
    except ValueError:
        allowed = ", ".join(c.value for c in ErrorClass)
        raise InputError(f"unknown error class {value!r}; expected one of {allowed}", field="error_class") from None


def _check_suite(klass: ErrorClass, suite: Sequence[str]) -> tuple[str, ...]:
    names = tuple(suite)
    if not names:
        raise InputError("the suite needs at least one edit", field="suite")
    allowed = applicable_edits(klass)
    for name in names:
        if name not in THEORY_EDITS:
            raise InputError(f"unknown edit {name!r}; expected one of {', '.join(THEORY_EDITS)}", field="suite")
        if name not in allowed:
            raise InputError(
                f"edit {name!r} does not apply to the {klass.value} error class; allowed: {', '.join(allowed)}",
                field="suite",
            )
    return names


def _show(transform: Transform, labels: Sequence[str] | None) -> str:
    """A transform for people: cycle notation for permutations, arrows for other label maps, a formula for numbers.

    >>> _show(edit_transform("cycle", m=3), "ABC"), _show(edit_transform("delete_max", m=3), "ABC")
    ('(A B C)', 'A→B')
    >>> _show(Affine(2.0, 0.0), None), _show(Affine(1.0, -1.5), None)
    ('a ↦ 2·a', 'a ↦ a − 1.5')
    """
    if isinstance(transform, LabelMap) and labels is not None:
        perm = from_label_map(transform, labels)
        if is_bijection(perm):
            shown = cycle_notation(perm, labels)
            return shown if len(shown) <= 40 else shown[:30].rsplit(" ", 1)[0] + f" … {shown.split()[-1]}"
        return ", ".join(f"{a}→{b}" for a, b in transform.pairs)
    if isinstance(transform, Affine):
        scale = "a" if transform.scale == 1.0 else f"{transform.scale:g}·a"
        shift = "" if transform.shift == 0.0 else f" {'+' if transform.shift > 0 else '−'} {abs(transform.shift):g}"
        return f"a ↦ {scale}{shift}"
    return to_json(transform)


def _readable(count: int) -> str:
    """Exact up to 12 digits, then in scientific form (JSON keeps the exact integer).

    >>> _readable(48), _readable(2 * 10**40)
    ('48', '≈2.000e40')
    """
    digits = str(count)
    if len(digits) <= 12:
        return digits
    return f"≈{digits[0]}.{digits[1:4]}e{len(digits) - 1}"


def _factorial(m: int) -> int:
    out = 1
    for k in range(2, m + 1):
        out *= k
    return out
