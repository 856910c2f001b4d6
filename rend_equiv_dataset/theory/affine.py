"""Affine reading errors e(a) = αa + β against affine edits φ(a) = ca + d (paper Theorem 4).

The commutator of two affine maps is a constant,

    e(φ(a)) − φ(e(a)) = (αca + αd + β) − (cαa + cβ + d) = d(α − 1) + β(1 − c),

so an error escapes an edit at every answer exactly when it escapes it at one
(pointwise = global). For the scale edit (d = 0) this is β(1 − c), for the
offset edit (c = 1) it is d(α − 1). At τ = 0 the undetectable set of a suite is
the solution set of one linear equation per edit in (α − 1, β): all of
E_aff, a line through the identity, or the identity alone.

>>> scale, offset = Affine(2.0, 0.0), Affine(1.0, 3.0)
>>> commutator_residual(Affine(1.5, 4.0), scale)   # β(1 − c) = 4·(1 − 2)
-4.0
>>> affine_undetectable([scale]).describe()
'{a ↦ α·a : α ∈ ℝ} (pure scale errors)'
>>> affine_undetectable([scale, offset]).complete
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.transforms import Affine, Identity, Transform

REL_TOL = 1e-9
"""A commutator this small relative to its two terms is float rounding of zero."""


def affine_params(transform: Transform) -> tuple[float, float]:
    """(scale, shift) of an affine map or the identity; a label map is refused.

    >>> affine_params(Affine(2.0, -1.0)), affine_params(Identity())
    ((2.0, -1.0), (1.0, 0.0))
    """
    if isinstance(transform, Identity):
        return 1.0, 0.0
    if isinstance(transform, Affine):
        return transform.scale, transform.shift
    raise InputError(f"the affine error class takes affine maps, got a {transform.kind} transform", field="kind")


def commutator_terms(error: Transform, phi: Transform) -> tuple[float, float]:
    """The two terms d(α − 1) and β(1 − c) whose sum is e∘φ − φ∘e (Theorem 4)."""
    alpha, beta = affine_params(error)
    c, d = affine_params(phi)
    return d * (alpha - 1.0), beta * (1.0 - c)


def commutator_residual(error: Transform, phi: Transform) -> float:
    """e(φ(a)) − φ(e(a)) = d(α − 1) + β(1 − c), the same at every answer a (Theorem 4).

    >>> commutator_residual(Affine(3.0, 0.0), Affine(1.0, 2.0))   # offset: δ(α − 1)
    4.0
    """
    first, second = commutator_terms(error, phi)
    return first + second


def commutes_exactly(error: Transform, phi: Transform) -> bool:
    """Whether e∘φ = φ∘e as maps (τ = 0), up to float rounding of a zero commutator.

    >>> commutes_exactly(Affine(3.0, 0.0), Affine(2.0, 0.0)), commutes_exactly(Affine(1.0, 1.0), Affine(2.0, 0.0))
    (True, False)
    """
    first, second = commutator_terms(error, phi)
    return abs(first + second) <= REL_TOL * max(abs(first), abs(second))


@dataclass(frozen=True)
class AffineUndetectable:
    """U_0(G) within E_aff = {a ↦ αa + β}: solutions of d_g(α − 1) + (1 − c_g)β = 0 for every g.

    Attributes:
        dimension: 2 (every affine error), 1 (a line through the identity) or 0 (the identity only).
        constraint: for dimension 1, the row (p, q) of p(α − 1) + qβ = 0.
    """

    dimension: int
    constraint: tuple[float, float] | None = None

    @property
    def complete(self) -> bool:
        """Only the identity escapes: every non-identity affine error is detected."""
        return self.dimension == 0

    @property
    def count(self) -> int | None:
        """1 when only the identity escapes, ``None`` (infinitely many) otherwise."""
        return 1 if self.dimension == 0 else None

    @property
    def fixed_point(self) -> float | None:
        """For a line with p, q ≠ 0: the answer k every undetectable error fixes (αk + β = k)."""
        if self.dimension != 1 or self.constraint is None:
            return None
        p, q = self.constraint
        return None if p == 0.0 or q == 0.0 else p / q

    def contains(self, error: Transform) -> bool:
        """Whether the error escapes every edit of the suite.

        >>> affine_undetectable([Affine(2.0, 0.0)]).contains(Affine(0.5, 0.0))
        True
        """
        alpha, beta = affine_params(error)
        if self.dimension == 2:
            return True
        if self.dimension == 0:
            return alpha == 1.0 and beta == 0.0
        p, q = self.constraint or (0.0, 0.0)
        first, second = p * (alpha - 1.0), q * beta
        return abs(first + second) <= REL_TOL * max(abs(first), abs(second))

    def describe(self) -> str:
        """The set in words and symbols.

        >>> affine_undetectable([Affine(1.0, 5.0)]).describe()
        '{a ↦ a + β : β ∈ ℝ} (pure offset errors)'
        >>> affine_undetectable([Affine(2.0, -4.0)]).describe()
        '{a ↦ α·a + 4·(1 − α) : α ∈ ℝ} (errors that fix the answer 4)'
        """
        if self.dimension == 2:
            return "{a ↦ α·a + β : α, β ∈ ℝ} (every affine error)"
        if self.dimension == 0:
            return "{a ↦ a} (the identity only)"
        p, q = self.constraint or (0.0, 0.0)
        if p == 0.0:
            return "{a ↦ α·a : α ∈ ℝ} (pure scale errors)"
        if q == 0.0:
            return "{a ↦ a + β : β ∈ ℝ} (pure offset errors)"
        k = _short(p / q)
        shown = f"({k})" if p / q < 0 else k
        return f"{{a ↦ α·a + {shown}·(1 − α) : α ∈ ℝ}} (errors that fix the answer {k})"


def affine_undetectable(phis: Sequence[Transform]) -> AffineUndetectable:
    """U_0(G) for a suite of affine answer-transforms (Theorem 2 with Theorem 4).

    {scale} leaves the pure scale errors, {offset} the pure offsets, both only
    the identity; identity edits add no equation (Corollary 3).

    >>> affine_undetectable([]).dimension, affine_undetectable([Identity()]).dimension
    (2, 2)
    >>> affine_undetectable([Affine(1.0, 1.0)]).contains(Affine(1.0, -7.0))
    True
    """
    rows = []
    for phi in phis:
        c, d = affine_params(phi)
        if d != 0.0 or c != 1.0:
            rows.append((d, 1.0 - c))
    if not rows:
        return AffineUndetectable(2)
    first = rows[0]
    for row in rows[1:]:
        cross = first[0] * row[1] - first[1] * row[0]
        if abs(cross) > REL_TOL * math.hypot(*first) * math.hypot(*row):
            return AffineUndetectable(0)
    return AffineUndetectable(1, first)


@dataclass(frozen=True)
class AffineToleranceRegion:
    """U_τ(G) for affine errors over a range of correct answers, τ > 0 (relative distance).

    The residual of edit g at the correct answer a is |d_g(α − 1) + β(1 − c_g)|
    divided by the target |φ_g(e(a))| = |c_g(αa + β) + d_g| (docs/design.md §3.5's
    relative difference). An error is undetectable over [low, high] when for
    every edit that ratio is ≤ τ at every a in the range; the target is linear
    in a, so its smallest magnitude sits at an end of the range, or is 0 where
    it changes sign (then only an exactly commuting error escapes, as the
    relative distance to a zero target is 0 or infinite).

    >>> region = AffineToleranceRegion((Affine(2.0, 0.0),), tau=0.05, low=10.0, high=100.0)
    >>> region.contains(Affine(1.0, 0.4)), region.contains(Affine(1.0, 2.0))
    (True, False)
    """

    phis: tuple[Transform, ...]
    tau: float
    low: float
    high: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.tau) and self.tau >= 0.0):
            raise InputError(f"must be a finite number >= 0, got {self.tau!r}", field="tau")
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low <= self.high):
            raise InputError(f"needs finite low <= high, got [{self.low!r}, {self.high!r}]", field="answers")
        for phi in self.phis:
            affine_params(phi)

    def slack(self, error: Transform, phi: Transform) -> float:
        """The largest commutator this edit tolerates for this error: τ · min over the range of |target|."""
        alpha, beta = affine_params(error)
        c, d = affine_params(phi)
        ends = [c * (alpha * a + beta) + d for a in (self.low, self.high)]
        smallest = 0.0 if ends[0] * ends[1] <= 0.0 else min(abs(v) for v in ends)
        return self.tau * smallest

    def contains(self, error: Transform) -> bool:
        """Whether no edit's residual exceeds τ anywhere in the answer range."""
        return all(
            commutes_exactly(error, phi) or abs(commutator_residual(error, phi)) <= self.slack(error, phi)
            for phi in self.phis
        )

    def describe(self) -> str:
        """The defining inequalities, one per edit."""
        parts = []
        for phi in self.phis:
            c, d = affine_params(phi)
            if c == 1.0 and d == 0.0:
                continue
            parts.append(
                f"|{_short(d)}·(α − 1) + (1 − {_short(c)})·β| ≤ {_short(self.tau)} · min_a |{_short(c)}·(α·a + β) + {_short(d)}|"
            )
        if not parts:
            return "{a ↦ α·a + β : α, β ∈ ℝ} (every affine error)"
        where = f" for a in [{_short(self.low)}, {_short(self.high)}]"
        return "{(α, β) : " + " and ".join(parts) + where + "}"


def _short(value: float) -> str:
    return f"{value:g}"
