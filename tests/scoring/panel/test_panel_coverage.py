"""The signal at coverage c: all of the first q = max(1, min(|T|, ⌊c·|T| + 0.5⌋)) assertions pass."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.scoring.panel.coverage import (
    SWEEP_LEVELS,
    first_failures,
    prefix_length,
    signal_at_coverage,
    signal_random_subset,
    signals_at_levels,
)

percent = st.integers(1, 100).map(lambda p: p / 100)


@given(st.integers(0, 500), percent)
def test_prefix_length_is_the_rounded_half_up_share(size: int, coverage: float) -> None:
    exact = Fraction(round(coverage * 100), 100) * size + Fraction(1, 2)  # exact arithmetic, no float error
    assert prefix_length(size, coverage) == max(1, min(size, exact.numerator // exact.denominator))


def test_prefix_length_hand_values() -> None:
    assert [prefix_length(14, c) for c in (0.05, 0.10, 0.20, 0.50)] == [1, 1, 3, 7]  # 0.7→1, 1.4→1, 2.8→3, 7
    assert prefix_length(5, 0.1) == 1  # 0.5 rounds half up
    assert prefix_length(1, 0.02) == 1


@pytest.mark.parametrize("coverage", [0.0, -0.1, 1.01, float("nan")])
def test_coverage_outside_the_unit_interval_is_refused(coverage: float) -> None:
    with pytest.raises(ValueError, match="coverage"):
        prefix_length(10, coverage)
    with pytest.raises(ValueError, match="coverage"):
        signals_at_levels(np.array([3]), np.array([3]), [coverage])


@given(st.lists(st.lists(st.booleans(), max_size=15), min_size=1, max_size=20), st.lists(percent, min_size=1, max_size=5))
def test_vectorised_levels_agree_with_the_per_candidate_rule(vectors: list[list[bool]], levels: list[float]) -> None:
    sizes, first = first_failures(vectors)
    table = signals_at_levels(sizes, first, levels)
    for i, level in enumerate(levels):
        assert table[i].tolist() == [signal_at_coverage(v, level) for v in vectors]


@given(st.lists(st.booleans(), min_size=1, max_size=30))
def test_signal_is_nested_in_the_full_suite_label(passed: list[bool]) -> None:
    for level in SWEEP_LEVELS:
        if all(passed):  # a full-suite pass can never be rejected by the signal (paper §3)
            assert signal_at_coverage(passed, level) == 1
        assert signal_at_coverage(passed, level) >= signal_at_coverage(passed, 1.0)


def test_sweep_levels_are_the_papers_thirteen() -> None:
    assert len(SWEEP_LEVELS) == 13 and SWEEP_LEVELS[0] == 0.02 and SWEEP_LEVELS[-1] == 0.80
    assert {0.05, 0.10, 0.20, 0.50} <= set(SWEEP_LEVELS)


def test_random_subset_variant_is_seeded() -> None:
    passed = [True] * 9 + [False]
    draws = [signal_random_subset(passed, 0.5, np.random.Generator(np.random.PCG64(s))) for s in range(40)]
    again = [signal_random_subset(passed, 0.5, np.random.Generator(np.random.PCG64(s))) for s in range(40)]
    assert draws == again and set(draws) == {0, 1}  # the failing assertion is drawn sometimes
    assert signal_random_subset([], 0.5, np.random.default_rng(0)) == 0
