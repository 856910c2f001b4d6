"""The laws of single-ballot replacement (panels paper Propositions 1–2, Algorithm 1, §6) and of n_eff."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.panels.metrics import (
    MAJORITY_SIDE,
    UNIFORM,
    PanelData,
    Rule,
    RuleKind,
    decisions,
    gated_decisions,
    margins,
    n_eff,
    pivotal,
    stratified_gain,
    tallies,
    uniform_expected_correct,
)
from rend_equiv_dataset.panels.metrics.effective import n_eff_with_signal
from rend_equiv_dataset.panels.metrics.replacement import (
    expected_correct,
    majority_side_decisions,
    signal_twice_decisions,
    substitute,
    universal_decisions,
)


@st.composite
def panels(draw: st.DrawFn, k: st.SearchStrategy[int] = st.integers(2, 9)) -> PanelData:  # noqa: B008 - strategies are immutable values
    size = draw(k)
    n = draw(st.integers(1, 40))
    bits = st.lists(st.integers(0, 1), min_size=n, max_size=n)
    votes = np.array([draw(st.lists(st.integers(0, 1), min_size=size, max_size=size)) for _ in range(n)])
    problems = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    return PanelData.from_arrays(votes, draw(bits), draw(bits), problems)


def all_rules(k: int) -> list[Rule]:
    return [UNIFORM, MAJORITY_SIDE, *(Rule(RuleKind.FIXED, j) for j in range(k))]


@given(panels())
def test_nonpivotal_gain_is_exactly_zero_for_every_single_ballot_rule(data: PanelData) -> None:
    for rule in all_rules(data.k):
        gain = stratified_gain(data, rule)
        assert gain.nonpivotal_gain == 0.0 or gain.n_nonpivotal == 0


@given(panels(), st.integers(0, 2**32 - 1))
def test_arbitrary_per_query_substitution_changes_no_nonpivotal_decision(data: PanelData, seed: int) -> None:
    rng = np.random.default_rng(seed)
    indices = rng.integers(0, data.k, size=data.n)
    replacement = rng.integers(0, 2, size=data.n)
    s = tallies(data.votes)
    after = substitute(data.votes, replacement, indices)
    fixed = ~pivotal(s, data.k)
    assert np.array_equal(after[fixed], decisions(s, data.k)[fixed])


@given(st.integers(2, 10), st.data())
def test_pivotal_set_is_exactly_where_some_replacement_changes_the_decision(k: int, data: st.DataObject) -> None:
    votes = np.array(data.draw(st.lists(st.integers(0, 1), min_size=k, max_size=k)))
    before = int(2 * votes.sum() > k)
    can_change = any(
        int(2 * (votes.sum() - votes[j] + value) > k) != before for j in range(k) for value in (0, 1)
    )
    assert bool(pivotal(np.array([votes.sum()]), k)[0]) == can_change


@given(panels(), st.integers(0, 2**32 - 1))
def test_gated_decisions_equal_universal_decisions_for_every_rule(data: PanelData, seed: int) -> None:
    for rule in all_rules(data.k):
        universal = universal_decisions(data.votes, data.signal, rule, np.random.default_rng(seed))
        gated, called = gated_decisions(data.votes, data.signal, rule, np.random.default_rng(seed))
        assert np.array_equal(gated, universal)
        assert np.array_equal(called, pivotal(tallies(data.votes), data.k))


@given(panels(k=st.sampled_from([2, 4, 6, 8, 10])))
def test_even_panels_structural_zero_below_the_tie(data: PanelData) -> None:
    k = data.k
    s = tallies(data.votes)
    below = s == k // 2 - 1
    for rule in all_rules(k):
        gain = expected_correct(rule, data.votes, data.labels, data.signal) - (decisions(s, k) == data.labels)
        assert np.all(gain[below] == 0.0)
    assert not pivotal(np.array([k // 2 - 1]), k)[0]
    assert margins(np.array([k // 2 - 1]), k)[0] == margins(np.array([k // 2 + 1]), k)[0] == 2


@pytest.mark.parametrize("k", [2, 4, 6, 8])
def test_even_panels_can_gain_at_the_tie_and_the_bare_correct_majority(k: int) -> None:
    # s = k/2: a tie decided "incorrect" on correct code; the signal says correct.
    tie = np.array([[1] * (k // 2) + [0] * (k // 2)])
    assert uniform_expected_correct(tallies(tie), k, np.array([1]), np.array([1]))[0] > 0.0
    # s = k/2 + 1: a bare "correct" majority on buggy code; the signal says incorrect.
    bare = np.array([[1] * (k // 2 + 1) + [0] * (k // 2 - 1)])
    assert uniform_expected_correct(tallies(bare), k, np.array([0]), np.array([0]))[0] > 0.0
    assert decisions(tallies(tie), k)[0] == 0 and decisions(tallies(bare), k)[0] == 1


@given(panels())
def test_exact_uniform_expectation_equals_brute_force_enumeration(data: PanelData) -> None:
    exact = uniform_expected_correct(tallies(data.votes), data.k, data.labels, data.signal)
    for i in range(data.n):
        outcomes = []
        for j in range(data.k):
            ballots = data.votes[i].astype(int).tolist()
            ballots[j] = int(data.signal[i])
            outcomes.append(int(2 * sum(ballots) > data.k) == data.labels[i])
        assert exact[i] == pytest.approx(sum(outcomes) / data.k, abs=1e-12)


@given(panels())
def test_uniform_accuracy_is_the_mean_of_the_fixed_index_accuracies(data: PanelData) -> None:
    fixed = [stratified_gain(data, Rule(RuleKind.FIXED, j)).rule_accuracy for j in range(data.k)]
    assert stratified_gain(data, UNIFORM).rule_accuracy == pytest.approx(np.mean(fixed), abs=1e-12)


@given(panels())
def test_majority_side_is_the_signal_counting_twice(data: PanelData) -> None:
    s = tallies(data.votes)
    majority = majority_side_decisions(s, data.k, data.signal)
    twice = signal_twice_decisions(s, data.k, data.signal)
    piv = pivotal(s, data.k)
    assert np.array_equal(majority[piv], twice[piv])
    assert np.array_equal(majority, twice)  # and, for the paper's rule, everywhere


@given(panels())
def test_majority_side_replaces_a_judge_on_the_decided_side(data: PanelData) -> None:
    indices = Rule(RuleKind.MAJORITY_SIDE)
    from rend_equiv_dataset.panels.metrics.replacement import replacement_indices

    chosen = replacement_indices(indices, data.votes, np.random.default_rng(0))
    d = decisions(tallies(data.votes), data.k)
    assert np.array_equal(data.votes[np.arange(data.n), chosen], d)


@given(st.integers(2, 9), st.lists(st.integers(0, 1), min_size=2, max_size=60).filter(lambda e: 0 < sum(e) < len(e)))
def test_n_eff_is_one_for_identical_judges(k: int, errors: list[int]) -> None:
    matrix = np.tile(np.array(errors)[:, None], (1, k))
    assert n_eff(matrix) == pytest.approx(1.0)
    assert n_eff_with_signal(matrix, np.array(errors)) == pytest.approx(1.0)


@pytest.mark.parametrize("k", [3, 7, 9])
def test_n_eff_tends_to_k_for_independent_errors(k: int) -> None:
    # φ̄ of independent columns has standard deviation ≈ 1/sqrt(n · pairs), so |n_eff − k| ≈ k(k−1)|φ̄|
    # must fall inside a band that shrinks like 1/sqrt(n): checked at 4 standard deviations.
    rng = np.random.Generator(np.random.PCG64(k))
    pairs = k * (k - 1) / 2
    for n in (500, 5_000, 200_000):
        errors = (rng.random((n, k)) < 0.3).astype(np.int8)
        assert abs(n_eff(errors) - k) < 4 * k * (k - 1) / np.sqrt(n * pairs)
    assert abs(n_eff(errors) - k) < 0.02 * k


def test_n_eff_matches_the_definition_on_a_small_case() -> None:
    e = np.array([[1, 1, 0], [0, 1, 0], [1, 0, 1], [0, 0, 1]])
    phis = [np.corrcoef(e[:, a], e[:, b])[0, 1] for a, b in itertools.combinations(range(3), 2)]
    assert n_eff(e) == pytest.approx(3 / (1 + 2 * np.mean(phis)))


@given(panels())
def test_every_threshold_covering_the_pivotal_set_gives_the_same_accuracy(data: PanelData) -> None:
    from rend_equiv_dataset.panels.metrics.analyses import threshold_sweep

    rows = threshold_sweep(data)
    covering = [row for row in rows if row.max_margin >= 2 - data.k % 2]  # odd k: t >= 1; even k: t >= 2
    assert len({row.accuracy for row in covering}) == 1
    assert covering[-1].call_rate == 1.0 and covering[-1].accuracy == pytest.approx(stratified_gain(data).rule_accuracy, abs=1e-12)
