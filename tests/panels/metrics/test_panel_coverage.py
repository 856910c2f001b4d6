"""Signals at many coverage levels agree with the shared prefix rule (rend_equiv_dataset.panels.execution_signal)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.panels.execution_signal import COVERAGE_LEVELS, prefix_signal
from rend_equiv_dataset.panels.metrics.coverage import SWEEP_LEVELS, first_failures, signal_at_coverage, signals_at_levels

percent = st.integers(1, 100).map(lambda p: p / 100)


@given(st.lists(st.lists(st.booleans(), max_size=60), min_size=1, max_size=20), st.lists(percent, min_size=1, max_size=5))
def test_vectorised_levels_agree_with_the_shared_rule(vectors: list[list[bool]], levels: list[float]) -> None:
    sizes, first = first_failures(vectors)
    table = signals_at_levels(sizes, first, levels)
    for i, level in enumerate(levels):
        assert table[i].tolist() == [prefix_signal(v, level) if v else 0 for v in vectors]
        assert table[i].tolist() == [signal_at_coverage(v, level) for v in vectors]


def test_hand_values() -> None:
    # |T| = 14: q = 1 at 5% (0.7 + 0.5 → 1), 1 at 10% (1.4), 3 at 20% (2.8 + 0.5 → 3), 7 at 50%
    vectors = [[True] * 14, [True] * 2 + [False] * 12, [True] * 6 + [False] * 8, [False] + [True] * 13, []]
    sizes, first = first_failures(vectors)
    assert signals_at_levels(sizes, first, [0.05, 0.10, 0.20, 0.50]).tolist() == [
        [1, 1, 1, 0, 0],
        [1, 1, 1, 0, 0],
        [1, 0, 1, 0, 0],
        [1, 0, 0, 0, 0],
    ]


@pytest.mark.parametrize("coverage", [0.0, -0.1, 1.01, float("nan")])
def test_coverage_outside_the_unit_interval_is_refused(coverage: float) -> None:
    with pytest.raises(ValueError, match="coverage"):
        signals_at_levels(np.array([3]), np.array([3]), [coverage])


@given(st.lists(st.booleans(), min_size=1, max_size=30))
def test_signal_is_nested_in_the_full_suite_label(passed: list[bool]) -> None:
    sizes, first = first_failures([passed])
    table = signals_at_levels(sizes, first, SWEEP_LEVELS)
    if all(passed):  # a full-suite pass can never be rejected by the signal (paper §3)
        assert table.min() == 1
    assert np.all(np.diff(table[:, 0].astype(int)) <= 0)  # more coverage never turns a 0 into a 1


def test_sweep_uses_the_shared_thirteen_levels() -> None:
    assert SWEEP_LEVELS == COVERAGE_LEVELS and len(SWEEP_LEVELS) == 13
    assert {0.05, 0.10, 0.20, 0.50} <= set(SWEEP_LEVELS)
