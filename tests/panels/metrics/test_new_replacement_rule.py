"""A replacement rule defined in this file alone joins the registry and every computation that takes a rule.

The toy rule ``last`` always replaces the panel's last judge: it must give
exactly what ``Fixed(k - 1)`` gives, through the universal and the gated
decisions, the expected correctness and the stratified gain; and the registry
refuses what it cannot use instead of falling back to another rule.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass
from typing import ClassVar

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.panels.metrics import RULES, Fixed, PanelData, Rule, register_rule, rule_named, stratified_gain
from rend_equiv_dataset.panels.metrics.replacement import (
    expected_correct,
    gated_decisions,
    replacement_indices,
    rule_parameters,
    unregister_rule,
    universal_decisions,
)


@dataclass(frozen=True)
class Last(Rule):
    """Always the panel's last judge."""

    kind: ClassVar[str] = "last"

    def indices(self, votes, rng):
        return np.full(votes.shape[0], votes.shape[1] - 1, dtype=np.int64)

    def expected_correct(self, votes, labels, signal):
        rows = np.arange(votes.shape[0])
        s = votes.sum(axis=1) - votes[rows, self.indices(votes, None)] + np.asarray(signal)
        k = votes.shape[1]
        return ((2 * s > k).astype(np.int64) == labels).astype(np.float64)


@pytest.fixture(autouse=True)
def toy_rule():
    register_rule(Last)
    yield
    unregister_rule("last")


@st.composite
def panels(draw: st.DrawFn) -> PanelData:
    k, n = draw(st.integers(2, 9)), draw(st.integers(1, 30))
    bits = st.lists(st.integers(0, 1), min_size=n, max_size=n)
    votes = np.array([draw(st.lists(st.integers(0, 1), min_size=k, max_size=k)) for _ in range(n)])
    return PanelData.from_arrays(votes, draw(bits), draw(bits), draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))


def test_the_toy_rule_is_registered_by_name():
    assert "last" in RULES and list(RULES)[:3] == ["uniform", "fixed", "majority_side"]
    rule = rule_named("last")
    assert isinstance(rule, Last) and rule.name == "last" and not rule.randomized and rule_parameters("last") == ()


@given(panels())
def test_the_toy_rule_agrees_with_fixing_the_last_judge(data: PanelData) -> None:
    toy, fixed = rule_named("last"), Fixed(data.k - 1)
    y, rng = data.labels.astype(np.int64), np.random.default_rng(0)
    assert np.array_equal(replacement_indices(toy, data.votes, rng), replacement_indices(fixed, data.votes, rng))
    assert np.array_equal(universal_decisions(data.votes, data.signal, toy, rng),
                          universal_decisions(data.votes, data.signal, fixed, rng))
    gated_toy, called = gated_decisions(data.votes, data.signal, toy, rng)
    gated_fixed, _ = gated_decisions(data.votes, data.signal, fixed, rng)
    assert np.array_equal(gated_toy, gated_fixed)
    assert np.array_equal(expected_correct(toy, data.votes, y, data.signal), expected_correct(fixed, data.votes, y, data.signal))
    np.testing.assert_equal(astuple(stratified_gain(data, toy)), astuple(stratified_gain(data, fixed)))  # NaN where a region is empty


def test_a_hand_checked_panel():
    votes, signal, labels = np.array([[1, 1, 0], [0, 0, 1], [1, 0, 1]]), np.array([1, 1, 0]), np.array([1, 1, 0])
    # last judge replaced: tallies 2+1=3 -> 1, 0+1=1 -> 0, 1+0=1 -> 0
    assert expected_correct(rule_named("last"), votes, labels, signal).tolist() == [1.0, 0.0, 1.0]


def test_the_registry_refuses_what_it_cannot_use():
    with pytest.raises(ValueError, match="unknown replacement rule 'nearest'; known: uniform, fixed, majority_side, last"):
        rule_named("nearest")
    with pytest.raises(ValueError, match="rule 'last' takes no parameters"):
        rule_named("last", index=1)
    with pytest.raises(ValueError, match="rule 'fixed' takes index"):
        rule_named("fixed")
    with pytest.raises(ValueError, match="already registered"):
        register_rule(type("Other", (Last,), {"kind": "last"}))
    with pytest.raises(TypeError, match="needs a class attribute kind"):
        register_rule(type("Nameless", (Last,), {}))


def test_a_rule_without_its_correctness_cannot_be_built():
    class HalfDone(Rule):
        kind: ClassVar[str] = "half_done"

        def indices(self, votes, rng):
            return np.zeros(votes.shape[0], dtype=np.int64)

    with pytest.raises(TypeError, match="abstract"):
        HalfDone()


def test_a_fixed_rule_checks_its_judge():
    with pytest.raises(ValueError, match="judge index >= 0"):
        Fixed(-1)
    with pytest.raises(ValueError, match="out of range for a panel of 3 judges"):
        expected_correct(Fixed(3), np.array([[1, 0, 1]]), np.array([1]), np.array([1]))
