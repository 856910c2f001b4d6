"""Analyses checked against direct, loop-by-loop computations of the same definitions."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.stats import cluster_codes, resample_counts
from rend_equiv_dataset.panels.metrics import PanelData, even_asymmetry, permutation_control, policy_table, subpanel_table
from rend_equiv_dataset.panels.metrics.analyses import coverage_sweep, permutation_gains, subpanel_tallies
from rend_equiv_dataset.panels.metrics.coverage import signal_at_coverage
from rend_equiv_dataset.panels.metrics.data import AssertionResults
from rend_equiv_dataset.panels.metrics.effective import n_eff, n_eff_with_signal
from rend_equiv_dataset.panels.metrics.intervals import n_eff_change_samples
from rend_equiv_dataset.panels.metrics.panel_report import subpanel_sizes


def synthetic(n: int = 300, k: int = 7, seed: int = 0, with_assertions: bool = False) -> PanelData:
    rng = np.random.Generator(np.random.PCG64(seed))
    labels = (rng.random(n) < 0.7).astype(int)
    hard = rng.random(n)[:, None]
    votes = np.where(rng.random((n, k)) < 0.9 - 0.4 * hard, labels[:, None], 1 - labels[:, None])
    vectors = []
    for y in labels:
        size = int(rng.integers(1, 12))
        passed = [True] * size if y else list(rng.random(size) < 0.7)
        if not y and all(passed):
            passed[-1] = False
        vectors.append(passed)
    assertions = AssertionResults.from_vectors(vectors) if with_assertions else None
    signal = assertions.signals([0.2])[0] if assertions else np.where(rng.random(n) < 0.85, labels, 1 - labels)
    return PanelData.from_arrays(votes, labels, signal, rng.integers(0, n // 4, n), assertions=assertions)


def naive_uniform_gain(votes: np.ndarray, labels: np.ndarray, signal: np.ndarray) -> tuple[list[float], list[float]]:
    k = votes.shape[1]
    pivotal, other = [], []
    for ballots, y, v in zip(votes.tolist(), labels.tolist(), signal.tolist()):
        s = sum(ballots)
        base = int(2 * s > k) == y
        outcomes = [int(2 * (s - b + v) > k) == y for b in ballots]
        gain = sum(outcomes) / k - base
        (pivotal if any(int(2 * (s - b + w) > k) != int(2 * s > k) for b in ballots for w in (0, 1)) else other).append(gain)
    return pivotal, other


def test_every_subpanel_matches_a_loop_over_subsets() -> None:
    data = synthetic()
    rows = subpanel_table(data, 5, n_resamples=200)
    assert len(rows) == 21 and [row.judges for row in rows] == list(itertools.combinations(range(7), 5))
    for row in rows:
        pivotal, other = naive_uniform_gain(data.votes[:, list(row.judges)], data.labels, data.signal)
        assert row.n_pivotal == len(pivotal) and row.n_nonpivotal == len(other)
        assert row.pivotal_gain == pytest.approx(np.mean(pivotal))
        assert row.nonpivotal_gain == 0.0
        assert row.pivotal_ci[0] <= row.pivotal_gain <= row.pivotal_ci[1]


def test_subpanel_sizes_and_bad_size() -> None:
    assert subpanel_sizes(7) == [3, 5, 6]
    with pytest.raises(InputError, match="size"):
        subpanel_tallies(np.ones((2, 3), dtype=int), 4)


@given(st.integers(0, 1000), st.sampled_from([5, 7, 9]))
def test_even_asymmetry_zero_below_the_tie_in_every_subset(seed: int, k: int) -> None:
    data = synthetic(n=60, k=k, seed=seed)
    rows = even_asymmetry(data)
    below, tie, above = rows
    assert below.tally == (k - 1) // 2 - 1 and not below.pivotal and below.margin == above.margin == 2
    assert all(g == 0.0 or np.isnan(g) for g in below.subset_gains) and len(below.subset_gains) == k
    assert tie.pivotal and above.pivotal


def test_even_asymmetry_needs_an_even_size() -> None:
    with pytest.raises(InputError, match="even"):
        even_asymmetry(synthetic(n=20), 5)


def test_permutation_control_keeps_accuracy_and_matches_direct_recomputation() -> None:
    data = synthetic(n=200, seed=3)
    gains = permutation_gains(data, n_permutations=50, seed=11)
    # re-draw the same error sets the way the function does and score each synthetic signal directly
    rng = np.random.Generator(np.random.PCG64(11))
    n_errors = int((data.signal != data.labels).sum())
    keys = rng.random((50, data.n))
    for row, gain in zip(keys, gains):
        wrong = np.zeros(data.n, dtype=bool)
        wrong[np.argpartition(row, n_errors - 1)[:n_errors]] = True
        synthetic_signal = np.where(wrong, 1 - data.labels, data.labels)
        assert np.mean(synthetic_signal == data.labels) == np.mean(data.signal == data.labels)
        pivotal, _ = naive_uniform_gain(data.votes, data.labels, synthetic_signal)
        assert gain == pytest.approx(np.mean(pivotal))
    control = permutation_control(data, n_permutations=2000, seed=1)
    assert control.range95[0] <= control.mean_gain <= control.range95[1]
    assert control.real_gain == pytest.approx(np.mean(naive_uniform_gain(data.votes, data.labels, data.signal)[0]))


def test_permutation_control_is_reproducible_from_its_seed() -> None:
    data = synthetic(n=100)
    assert np.array_equal(permutation_gains(data, 300, seed=5), permutation_gains(data, 300, seed=5))
    assert not np.array_equal(permutation_gains(data, 300, seed=5), permutation_gains(data, 300, seed=6))


def test_coverage_sweep_uses_the_per_record_rule() -> None:
    data = synthetic(n=150, with_assertions=True)
    levels = [0.05, 0.2, 0.5, 0.8]
    rows = coverage_sweep(data, levels, n_resamples=100)
    assert data.assertions is not None
    for level, row in zip(levels, rows):
        signal = data.assertions.signals([level])[0]
        direct = [
            signal_at_coverage([True] * int(f) + [False] * int(size - f), level)
            for size, f in zip(data.assertions.sizes, data.assertions.first_fail)
        ]
        assert signal.tolist() == direct
        assert row.signal_accuracy == pytest.approx(np.mean(signal == data.labels))
        pivotal, _ = naive_uniform_gain(data.votes, data.labels, signal)
        assert row.pivotal_gain == pytest.approx(np.mean(pivotal))


def test_coverage_sweep_needs_full_form_records() -> None:
    with pytest.raises(InputError, match="assertions_passed"):
        coverage_sweep(synthetic(n=10), [0.2])


def test_policy_table_gated_rows_equal_universal_rows() -> None:
    data = synthetic(n=400, seed=8)
    rows = policy_table(data, n_resamples=300)
    by_name = {row.policy: row for row in rows}
    for name in [row.policy for row in rows if row.policy.endswith(", universal")]:
        gated = by_name[name.replace("universal", "gated")]
        assert gated.accuracy == pytest.approx(by_name[name].accuracy)
        assert gated.call_rate < by_name[name].call_rate == 1.0
    assert len(rows) == 1 + 2 * (1 + data.k + 1) + 2


def test_n_eff_change_bootstrap_matches_direct_recomputation_on_resamples() -> None:
    data = synthetic(n=120, seed=2)
    errors = (data.votes != data.labels[:, None]).astype(np.int8)
    signal_errors = (data.signal != data.labels).astype(np.int8)
    samples = n_eff_change_samples(errors, signal_errors, data.problems, n_resamples=20, seed=4)
    codes, n_clusters = cluster_codes(data.problems)
    counts = np.concatenate(list(resample_counts(n_clusters, 20, 4)))
    for sample, count in zip(samples, counts):
        weights = count[codes].astype(int)  # each row repeated as often as its cluster was drawn
        rows = np.repeat(np.arange(data.n), weights)
        direct = n_eff_with_signal(errors[rows], signal_errors[rows]) - n_eff(errors[rows])
        assert sample == pytest.approx(direct, rel=1e-9, abs=1e-9)
