"""Execution signals from one per-assertion vector (paper §3, docs/design.md §4.1).

The signal at coverage c is "all of the first q assertions pass", with
q = max(1, min(|T|, ⌊c·|T| + 0.5⌋)) in source order; a seeded random-subset
variant draws the q assertions uniformly instead. One execution of the full
suite gives every coverage level.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

# the paper's 13 levels from 2% to 80% (Section 5), which include the main sweep's 5/10/20/50%
COVERAGE_LEVELS: tuple[float, ...] = (0.02, 0.05, 0.08, 0.10, 0.15, 0.20, 0.25, 0.30, 0.40, 0.50, 0.60, 0.70, 0.80)
MAIN_COVERAGES: tuple[float, ...] = (0.05, 0.10, 0.20, 0.50)


def covered_count(coverage: float, n_assertions: int) -> int:
    """q = max(1, min(|T|, ⌊c·|T| + 0.5⌋)) (paper §3: round half up).

    c is taken as the decimal it is written as, so exact halves round up
    (in binary floating point 0.7·45 + 0.5 is just below 32).

    >>> covered_count(0.2, 7), covered_count(0.02, 7), covered_count(0.5, 9), covered_count(1.0, 3)
    (1, 1, 5, 3)
    >>> covered_count(0.7, 45)
    32
    """
    if not 0.0 < coverage <= 1.0 or math.isnan(coverage):
        raise ValueError(f"coverage must be in (0, 1], got {coverage!r}")
    if n_assertions < 1:
        raise ValueError(f"a problem needs at least one assertion, got {n_assertions}")
    exact = Fraction(repr(float(coverage))) * n_assertions + Fraction(1, 2)
    return max(1, min(n_assertions, math.floor(exact)))


def prefix_signal(passed: Sequence[bool], coverage: float) -> int:
    """1 iff the first q assertions (source order) all pass.

    >>> prefix_signal([True, True, False, True], 0.5), prefix_signal([True, True, False, True], 0.75)
    (1, 0)
    """
    q = covered_count(coverage, len(passed))
    return int(all(passed[:q]))


def random_subset_signal(passed: Sequence[bool], coverage: float, rng: np.random.Generator) -> int:
    """1 iff q assertions drawn uniformly without replacement (seeded) all pass.

    >>> rng = np.random.default_rng(0)
    >>> random_subset_signal([True] * 5, 0.4, rng), random_subset_signal([False] * 5, 0.4, rng)
    (1, 0)
    """
    q = covered_count(coverage, len(passed))
    chosen = rng.choice(len(passed), size=q, replace=False)
    return int(all(passed[i] for i in chosen))


def subset_rng(seed: int, candidate_key: str, coverage: float) -> np.random.Generator:
    """The random-subset draw for one candidate and coverage: independent of order and of other candidates."""
    import zlib

    key = (zlib.crc32(candidate_key.encode()), int(round(coverage * 10_000)))
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


def signal_accuracy(labels: Sequence[int], signals: Sequence[int]) -> float:
    """Fraction of candidates where the signal equals the operational label.

    >>> signal_accuracy([1, 0, 0, 1], [1, 1, 0, 1])
    0.75
    """
    if len(labels) != len(signals) or not labels:
        raise ValueError("labels and signals must be non-empty and of equal length")
    return float(np.mean(np.asarray(labels) == np.asarray(signals)))
