"""The verification signal at a test coverage level (panels paper §3, Verification signal; DESIGN §4.1).

For a candidate with assertion results in source order (|T| of them), the
signal at coverage c is "all of the first q assertions pass" with
q = max(1, min(|T|, ⌊c·|T| + 0.5⌋)). A candidate with no assertion result at
all (no usable code, a crash before any assertion) gets signal 0: nothing
was verified. Because results are per assertion, one execution serves every
coverage level. This is the one home of the rule: record writers and the
scorer both call it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

# The paper's 13 levels from 2% to 80% (they include the main sweep's 5/10/20/50%).
SWEEP_LEVELS: tuple[float, ...] = (0.02, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.50, 0.60, 0.70, 0.80)
DEFAULT_COVERAGE = 0.2
_HALF_UP_SLACK = 1e-9  # c·|T| lands on an exact half for decimal c; keep float error from rounding it down


def prefix_length(n_assertions: int, coverage: float) -> int:
    """q = max(1, min(|T|, ⌊c·|T| + 0.5⌋)), the number of leading assertions the signal checks.

    >>> [prefix_length(10, c) for c in (0.02, 0.05, 0.2, 0.25, 1.0)]
    [1, 1, 2, 3, 10]
    >>> prefix_length(3, 0.5)
    2
    """
    if not 0.0 < coverage <= 1.0:
        raise ValueError(f"coverage must be in (0, 1], got {coverage}")
    return max(1, min(n_assertions, math.floor(coverage * n_assertions + 0.5 + _HALF_UP_SLACK)))


def signal_at_coverage(assertions_passed: Sequence[bool], coverage: float) -> int:
    """1 when the first q assertions all pass (q from :func:`prefix_length`), else 0.

    >>> signal_at_coverage([True, True, False, True], 0.5), signal_at_coverage([True, True, False, True], 0.8)
    (1, 0)
    >>> signal_at_coverage([], 0.2)
    0
    """
    if len(assertions_passed) == 0:
        return 0
    q = prefix_length(len(assertions_passed), coverage)
    return int(all(assertions_passed[:q]))


def signal_random_subset(assertions_passed: Sequence[bool], coverage: float, rng: np.random.Generator) -> int:
    """The seeded random-subset variant: q assertions drawn without replacement must all pass.

    >>> signal_random_subset([True, True, True], 0.5, np.random.default_rng(0))
    1
    """
    if len(assertions_passed) == 0:
        return 0
    q = prefix_length(len(assertions_passed), coverage)
    chosen = rng.choice(len(assertions_passed), size=q, replace=False)
    return int(all(assertions_passed[int(i)] for i in chosen))


def first_failures(assertion_vectors: Sequence[Sequence[bool]]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(|T|, index of the first failing assertion or |T| when all pass) per candidate.

    >>> first_failures([[True, False], [True, True], []])
    (array([2, 2, 0]), array([1, 2, 0]))
    """
    sizes = np.array([len(v) for v in assertion_vectors], dtype=np.int64)
    first = np.array(
        [next((i for i, ok in enumerate(v) if not ok), len(v)) for v in assertion_vectors], dtype=np.int64
    )
    return sizes, first


def signals_at_levels(
    sizes: NDArray[np.int64], first_fail: NDArray[np.int64], levels: Sequence[float]
) -> NDArray[np.int8]:
    """Signals of every candidate at every level, (levels × candidates), from :func:`first_failures`.

    Agrees with :func:`signal_at_coverage` candidate by candidate.

    >>> sizes, first = first_failures([[True, True, False, True], []])
    >>> signals_at_levels(sizes, first, [0.5, 0.8]).tolist()
    [[1, 0], [0, 0]]
    """
    rows = []
    for level in levels:
        if not 0.0 < level <= 1.0:
            raise ValueError(f"coverage must be in (0, 1], got {level}")
        q = np.clip(np.floor(level * sizes + 0.5 + _HALF_UP_SLACK).astype(np.int64), 1, np.maximum(sizes, 1))
        rows.append((sizes > 0) & (first_fail >= q))
    return np.array(rows, dtype=np.int8).reshape(len(levels), sizes.shape[0])
