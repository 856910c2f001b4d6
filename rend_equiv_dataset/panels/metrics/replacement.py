"""Single-ballot replacement rules and margin-gated verification (panels paper §3, §6, Algorithm 1).

A rule R names which judge's ballot the verification signal replaces:

* ``uniform`` — a judge drawn uniformly at random; its accuracy is reported as
  the exact expectation over the k choices (§4), never as a sampled draw;
* ``fixed`` — always judge ``index``;
* ``majority_side`` — a judge who voted with the current decision (for even k
  a tie counts as the "incorrect" side). On a pivotal query this lets the
  signal overturn the majority when they disagree: it is decision-equivalent
  to the signal casting two votes (§6, Alternative deployment policies).

Replacing one ballot moves the tally by at most one, so only pivotal queries
can change (Propositions 1–2); :func:`gated_decisions` calls the signal only
there (Algorithm 1) and gives the same decisions as the universal rule.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import cast

import numpy as np
from numpy.typing import NDArray

from rend_equiv_dataset.panels.metrics.votes import decisions, pivotal, tallies

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


class RuleKind(enum.Enum):
    """The single-ballot replacement rules compared in Table 7."""

    UNIFORM = "uniform"
    FIXED = "fixed"
    MAJORITY_SIDE = "majority_side"


@dataclass(frozen=True)
class Rule:
    """A replacement rule; ``index`` is the replaced judge for ``FIXED`` only."""

    kind: RuleKind
    index: int | None = None

    def __post_init__(self) -> None:
        if (self.kind is RuleKind.FIXED) != (self.index is not None):
            raise ValueError("a fixed rule needs an index; other rules take none")

    @property
    def name(self) -> str:
        """Short name used in reports: ``uniform``, ``fixed[3]``, ``majority_side``."""
        return f"fixed[{self.index}]" if self.kind is RuleKind.FIXED else self.kind.value


UNIFORM = Rule(RuleKind.UNIFORM)
MAJORITY_SIDE = Rule(RuleKind.MAJORITY_SIDE)


def uniform_expected_correct(s: IntArray, k: int, labels: NDArray[np.integer], signal: NDArray[np.integer]) -> FloatArray:
    """Exact expected correctness of each query when a uniformly random judge is replaced (§4).

    Of the k equally likely choices, s replace a "correct" ballot (tally
    s − 1 + v*) and k − s an "incorrect" one (tally s + v*); the average of
    the k outcomes is computed in closed form.

    >>> uniform_expected_correct(np.array([3]), 7, np.array([1]), np.array([1])).tolist()
    [0.5714285714285714]
    """
    s = np.asarray(s, dtype=np.int64)
    v = np.asarray(signal, dtype=np.int64)
    y = np.asarray(labels, dtype=np.int64)
    drop_one = decisions(s - 1 + v, k) == y
    drop_zero = decisions(s + v, k) == y
    return (s * drop_one + (k - s) * drop_zero) / k


def fixed_decisions(votes: NDArray[np.integer], signal: NDArray[np.integer], index: int) -> NDArray[np.int8]:
    """Decisions when judge ``index`` is always replaced by the signal.

    >>> fixed_decisions(np.array([[1, 1, 0]]), np.array([0]), 0).tolist()
    [0]
    """
    k = votes.shape[1]
    s = tallies(votes) - votes[:, index] + np.asarray(signal, dtype=np.int64)
    return decisions(s, k)


def majority_side_decisions(s: IntArray, k: int, signal: NDArray[np.integer]) -> NDArray[np.int8]:
    """Decisions when a judge on the side of the current decision is replaced (§6).

    >>> majority_side_decisions(np.array([4, 4, 6]), 7, np.array([0, 1, 0])).tolist()
    [0, 1, 1]
    """
    current = decisions(s, k).astype(np.int64)
    return decisions(np.asarray(s, dtype=np.int64) - current + np.asarray(signal, dtype=np.int64), k)


def signal_twice_decisions(s: IntArray, k: int, signal: NDArray[np.integer]) -> NDArray[np.int8]:
    """Majority of the k ballots plus two ballots for the signal (k + 2 voters).

    >>> signal_twice_decisions(np.array([4, 3]), 7, np.array([0, 1])).tolist()
    [0, 1]
    """
    return decisions(np.asarray(s, dtype=np.int64) + 2 * np.asarray(signal, dtype=np.int64), k + 2)


def replacement_indices(rule: Rule, votes: NDArray[np.integer], rng: np.random.Generator) -> IntArray:
    """The judge each query's rule replaces (one draw per query for ``uniform``).

    ``majority_side`` takes the first judge (lowest index) who voted with
    the current decision; which one does not matter to the decision.

    >>> replacement_indices(MAJORITY_SIDE, np.array([[0, 1, 1], [1, 0, 0]]), np.random.default_rng(0)).tolist()
    [1, 1]
    """
    n, k = votes.shape
    if rule.kind is RuleKind.FIXED:
        return np.full(n, rule.index, dtype=np.int64)
    if rule.kind is RuleKind.UNIFORM:
        return cast(IntArray, rng.integers(0, k, size=n, dtype=np.int64))
    current = decisions(tallies(votes), k)
    return np.argmax(votes == current[:, None], axis=1).astype(np.int64)


def substitute(votes: NDArray[np.integer], signal: NDArray[np.integer], indices: IntArray) -> NDArray[np.int8]:
    """Decisions after query i's ballot ``indices[i]`` is replaced by ``signal[i]``.

    >>> substitute(np.array([[1, 1, 0]]), np.array([0]), np.array([1])).tolist()
    [0]
    """
    rows = np.arange(votes.shape[0])
    s = tallies(votes) - votes[rows, indices] + np.asarray(signal, dtype=np.int64)
    return decisions(s, votes.shape[1])


def universal_decisions(
    votes: NDArray[np.integer], signal: NDArray[np.integer], rule: Rule, rng: np.random.Generator
) -> NDArray[np.int8]:
    """Decisions when the rule is applied to every query (the signal is always called)."""
    return substitute(votes, signal, replacement_indices(rule, votes, rng))


def gated_decisions(
    votes: NDArray[np.integer], signal: NDArray[np.integer], rule: Rule, rng: np.random.Generator
) -> tuple[NDArray[np.int8], NDArray[np.bool_]]:
    """Margin-gated verification (Algorithm 1, extended to even k by Proposition 2).

    The signal is called, and the rule applied, only on pivotal queries; the
    other queries keep the panel decision, which no single ballot could change.
    For ``uniform`` the draw is made for every query (then used only where
    called), so a gated and a universal run with the same seed see the same
    choices. Returns (decisions, called); ``called.mean()`` is the call rate.

    >>> v = np.array([[1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1]])
    >>> d, called = gated_decisions(v, np.array([1, 0]), MAJORITY_SIDE, np.random.default_rng(0))
    >>> d.tolist(), called.tolist()
    ([1, 1], [True, False])
    """
    k = votes.shape[1]
    s = tallies(votes)
    called = pivotal(s, k)
    indices = replacement_indices(rule, votes, rng)
    out = decisions(s, k)
    rows = np.flatnonzero(called)
    out[rows] = substitute(votes[rows], np.asarray(signal)[rows], indices[rows])
    return out, called


def expected_correct(
    rule: Rule, votes: NDArray[np.integer], labels: NDArray[np.integer], signal: NDArray[np.integer]
) -> FloatArray:
    """Per-query (expected) correctness of the rule: exact over the k choices for ``uniform``."""
    k = votes.shape[1]
    s = tallies(votes)
    y = np.asarray(labels, dtype=np.int64)
    if rule.kind is RuleKind.UNIFORM:
        return uniform_expected_correct(s, k, y, signal)
    if rule.kind is RuleKind.FIXED:
        assert rule.index is not None
        return (fixed_decisions(votes, signal, rule.index) == y).astype(np.float64)
    return (majority_side_decisions(s, k, signal) == y).astype(np.float64)
