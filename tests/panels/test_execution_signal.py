"""Coverage signals: the q rule, nesting, the random-subset variant."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.panels.execution_signal import (
    COVERAGE_LEVELS,
    MAIN_COVERAGES,
    covered_count,
    prefix_signal,
    random_subset_signal,
    signal_accuracy,
    subset_rng,
)


def test_levels_match_the_paper():
    assert len(COVERAGE_LEVELS) == 13 and COVERAGE_LEVELS[0] == 0.02 and COVERAGE_LEVELS[-1] == 0.80
    assert set(MAIN_COVERAGES) <= set(COVERAGE_LEVELS)


@pytest.mark.parametrize(
    ("c", "n", "q"),
    [(0.2, 7, 1), (0.2, 8, 2), (0.25, 2, 1), (0.25, 6, 2), (0.5, 3, 2), (0.02, 100, 2), (0.8, 1, 1), (0.05, 10, 1),
     (0.1, 15, 2), (0.5, 1, 1)],
)
def test_covered_count_rounds_half_up(c, n, q):
    assert covered_count(c, n) == q


@given(st.sampled_from(COVERAGE_LEVELS), st.integers(1, 2000))
def test_covered_count_equals_integer_rounding_at_every_level(c, n):
    percent = round(c * 100)  # every level is a whole percent
    assert covered_count(c, n) == max(1, min(n, (percent * n + 50) // 100))


@pytest.mark.parametrize(("c", "n"), [(0.0, 5), (1.5, 5), (math.nan, 5), (0.2, 0)])
def test_covered_count_rejects_bad_input(c, n):
    with pytest.raises(ValueError):
        covered_count(c, n)


@given(st.lists(st.booleans(), min_size=1, max_size=60))
def test_signals_are_nested_and_one_sided(passed):
    signals = [prefix_signal(passed, c) for c in COVERAGE_LEVELS]
    assert all(a >= b for a, b in zip(signals, signals[1:]))  # more coverage never accepts more
    if all(passed):  # a full-suite pass passes every subset: no false rejection
        assert all(signals)
        assert random_subset_signal(passed, 0.3, np.random.default_rng(1)) == 1


def test_random_subset_is_seeded_and_per_candidate():
    passed = [True] * 9 + [False]
    draws = [random_subset_signal(passed, 0.5, subset_rng(7, "c1", 0.5)) for _ in range(3)]
    assert len(set(draws)) == 1
    many = [random_subset_signal(passed, 0.5, subset_rng(7, f"c{i}", 0.5)) for i in range(200)]
    assert 0.3 < np.mean(many) < 0.7  # P(miss the one failure) = 0.5


def test_signal_accuracy():
    assert signal_accuracy([1, 0, 1], [1, 0, 0]) == pytest.approx(2 / 3)
    with pytest.raises(ValueError):
        signal_accuracy([], [])
