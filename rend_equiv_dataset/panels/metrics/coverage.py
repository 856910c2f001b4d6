"""The verification signal at many coverage levels at once (panels paper §3, Figure 3; docs/design.md §4.1).

The rule itself — q = max(1, min(|T|, ⌊c·|T| + 0.5⌋)), signal = "the first
q assertions pass" — has one home, :mod:`rend_equiv_dataset.panels.execution_signal`
(shared with the record writer). This module only reduces each candidate's
assertion vector to (|T|, index of the first failure) once, so every level
is a comparison per candidate, with q looked up per distinct |T| from that
rule. A candidate with no assertion result at all (no usable code) has
signal 0: nothing was verified.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from rend_equiv_dataset.panels.execution_signal import COVERAGE_LEVELS, covered_count, prefix_signal

SWEEP_LEVELS: tuple[float, ...] = COVERAGE_LEVELS
DEFAULT_COVERAGE = 0.2


def signal_at_coverage(assertions_passed: Sequence[bool], coverage: float) -> int:
    """The shared prefix rule, with 0 for a candidate without any assertion result.

    >>> signal_at_coverage([True, True, False, True], 0.5), signal_at_coverage([True, True, False, True], 0.8)
    (1, 0)
    >>> signal_at_coverage([], 0.2)
    0
    """
    return prefix_signal(assertions_passed, coverage) if len(assertions_passed) else 0


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

    Equal, candidate by candidate, to :func:`signal_at_coverage`.

    >>> sizes, first = first_failures([[True, True, False, True], []])
    >>> signals_at_levels(sizes, first, [0.5, 0.8]).tolist()
    [[1, 0], [0, 0]]
    """
    distinct, where = np.unique(sizes, return_inverse=True)
    out = np.zeros((len(levels), sizes.shape[0]), dtype=np.int8)
    for row, level in enumerate(levels):
        q = np.array([covered_count(level, int(t)) if t > 0 else 1 for t in distinct], dtype=np.int64)
        out[row] = (sizes > 0) & (first_fail >= q[where.ravel()])
    return out
