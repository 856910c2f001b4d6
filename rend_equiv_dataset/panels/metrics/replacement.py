"""Single-ballot replacement rules and margin-gated verification (panels paper §3, §6, Algorithm 1).

A rule R names which judge's ballot the verification signal replaces. Rules
are a registry like the edits: one class per rule (:class:`Rule`, registered
with :func:`register_rule`), each saying which judge it replaces and how often
its decision is right; nothing dispatches on a rule's name. The paper's rules:

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

import abc
import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from rend_equiv_dataset.panels.metrics.votes import decisions, pivotal, tallies

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


class Rule(abc.ABC):
    """One single-ballot replacement rule. Subclass it, implement both methods, decorate with :func:`register_rule`.

    ``indices`` says which judge each query's rule replaces; ``expected_correct``
    says how often the rule's decision is right on each query (an exact
    expectation for a randomized rule, which sets ``randomized = True``: the
    policy table then derives its gated column from that expectation instead of
    sampling one draw). There is no default: a rule that does not say both
    cannot be built.
    """

    kind: ClassVar[str]
    """The rule's registered name (``uniform``, ``fixed``, ``majority_side``), as ``pivotal_gain``'s ``rule=`` takes it."""
    randomized: ClassVar[bool] = False

    @property
    def name(self) -> str:
        """Short name used in reports: ``uniform``, ``fixed[3]``, ``majority_side``."""
        return self.kind

    @abc.abstractmethod
    def indices(self, votes: NDArray[np.integer], rng: np.random.Generator) -> IntArray:
        """The judge whose ballot the signal replaces, per query."""

    @abc.abstractmethod
    def expected_correct(self, votes: NDArray[np.integer], labels: IntArray, signal: NDArray[np.integer]) -> FloatArray:
        """Per-query (expected) correctness of the rule's decision."""


RULES: dict[str, type[Rule]] = {}
"""Every registered rule class by name, in registration order."""

R = TypeVar("R", bound=type[Rule])


def register_rule(cls: R) -> R:
    """Class decorator: make ``cls`` a rule that the library and ``pivotal_gain`` know by name."""
    name = cls.__dict__.get("kind")
    if not isinstance(name, str) or not name:
        raise TypeError(f"{cls.__name__} needs a class attribute kind")
    if name in RULES and RULES[name] is not cls:
        raise ValueError(f"a replacement rule named {name!r} is already registered ({RULES[name].__name__})")
    RULES[name] = cls
    return cls


def unregister_rule(name: str) -> None:
    """Forget a registered rule (tests register toy rules and remove them again)."""
    RULES.pop(name, None)


def rule_named(name: str, **params: Any) -> Rule:
    """The registered rule ``name`` built with ``params`` (``rule_named("fixed", index=2)``).

    >>> rule_named("majority_side").name, rule_named("fixed", index=2).name
    ('majority_side', 'fixed[2]')
    """
    if name not in RULES:
        raise ValueError(f"unknown replacement rule {name!r}; known: {', '.join(RULES)}")
    try:
        return RULES[name](**params)
    except TypeError:
        raise ValueError(f"rule {name!r} takes {', '.join(rule_parameters(name)) or 'no parameters'}, "
                         f"got {sorted(params)}") from None


def rule_parameters(name: str) -> tuple[str, ...]:
    """The parameters the registered rule ``name`` is built with (its dataclass fields).

    >>> rule_parameters("fixed"), rule_parameters("uniform")
    (('index',), ())
    """
    cls = RULES[name]
    return tuple(f.name for f in dataclasses.fields(cls)) if dataclasses.is_dataclass(cls) else ()


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

    >>> replacement_indices(MAJORITY_SIDE, np.array([[0, 1, 1], [1, 0, 0]]), np.random.default_rng(0)).tolist()
    [1, 1]
    """
    return rule.indices(votes, rng)


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
    return rule.expected_correct(votes, np.asarray(labels, dtype=np.int64), signal)


@register_rule
@dataclass(frozen=True)
class Uniform(Rule):
    """A judge drawn uniformly at random; its accuracy is the exact expectation over the k choices (§4)."""

    kind: ClassVar[str] = "uniform"
    randomized: ClassVar[bool] = True

    def indices(self, votes: NDArray[np.integer], rng: np.random.Generator) -> IntArray:
        n, k = votes.shape
        return cast(IntArray, rng.integers(0, k, size=n, dtype=np.int64))

    def expected_correct(self, votes: NDArray[np.integer], labels: IntArray, signal: NDArray[np.integer]) -> FloatArray:
        return uniform_expected_correct(tallies(votes), votes.shape[1], labels, signal)


@register_rule
@dataclass(frozen=True)
class Fixed(Rule):
    """Always judge ``index``.

    >>> Fixed(1).expected_correct(np.array([[1, 1, 0]]), np.array([1]), np.array([0])).tolist()
    [0.0]
    """

    index: int
    kind: ClassVar[str] = "fixed"

    def __post_init__(self) -> None:
        if not isinstance(self.index, (int, np.integer)) or isinstance(self.index, bool) or self.index < 0:
            raise ValueError(f"a fixed rule needs a judge index >= 0, got {self.index!r}")

    @property
    def name(self) -> str:
        return f"fixed[{self.index}]"

    def _check(self, votes: NDArray[np.integer]) -> None:
        if self.index >= votes.shape[1]:
            raise ValueError(f"judge index {self.index} is out of range for a panel of {votes.shape[1]} judges")

    def indices(self, votes: NDArray[np.integer], rng: np.random.Generator) -> IntArray:
        self._check(votes)
        return np.full(votes.shape[0], self.index, dtype=np.int64)

    def expected_correct(self, votes: NDArray[np.integer], labels: IntArray, signal: NDArray[np.integer]) -> FloatArray:
        self._check(votes)
        return (fixed_decisions(votes, signal, self.index) == labels).astype(np.float64)


@register_rule
@dataclass(frozen=True)
class MajoritySide(Rule):
    """A judge who voted with the current decision (for even k a tie counts as the "incorrect" side).

    :meth:`indices` takes the first such judge (lowest index); which one does
    not matter to the decision.
    """

    kind: ClassVar[str] = "majority_side"

    def indices(self, votes: NDArray[np.integer], rng: np.random.Generator) -> IntArray:
        current = decisions(tallies(votes), votes.shape[1])
        return np.argmax(votes == current[:, None], axis=1).astype(np.int64)

    def expected_correct(self, votes: NDArray[np.integer], labels: IntArray, signal: NDArray[np.integer]) -> FloatArray:
        return (majority_side_decisions(tallies(votes), votes.shape[1], signal) == labels).astype(np.float64)


UNIFORM: Rule = Uniform()
MAJORITY_SIDE: Rule = MajoritySide()
