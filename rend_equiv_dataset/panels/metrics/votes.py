"""Vote tallies, margins, decisions and the pivotal set (panels paper §3).

A panel is a ``(queries, k)`` array of binary votes (1 = "correct"). Every
function here is pure numpy and works for odd and even ``k``; even panels use
the paper's tie convention: a tie is decided "incorrect".
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from rend_equiv_dataset.errors import InputError

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]


def as_binary(values: ArrayLike, *, field: str, ndim: int) -> NDArray[np.int8]:
    """Check that ``values`` is an ``ndim``-dimensional array of 0/1 and return it as int8.

    >>> as_binary([[1, 0], [0, 0]], field="votes", ndim=2).tolist()
    [[1, 0], [0, 0]]
    >>> as_binary([1, 2], field="labels", ndim=1)
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field 'labels': must hold only 0 and 1, found 2 at position 1
    >>> as_binary([[1, 0, 1], [1, 0]], field="votes", ndim=2)
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field 'votes': row 1 has 2 entries, row 0 has 3
    """
    if ndim == 2 and not isinstance(values, np.ndarray):
        _check_row_lengths(values, field)
    array = np.asarray(values)
    if array.ndim != ndim:
        raise InputError(f"must be a {ndim}-dimensional array of 0/1, got shape {array.shape}", field=field)
    if array.dtype == object or not (np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_):
        raise InputError(f"must hold numbers 0 and 1, got dtype {array.dtype}", field=field)
    bad = np.flatnonzero((array != 0) & (array != 1))
    if bad.size:
        where = np.unravel_index(bad[0], array.shape)
        position = where[0] if ndim == 1 else tuple(int(i) for i in where)
        raise InputError(f"must hold only 0 and 1, found {array[where].item()!r} at position {position}", field=field)
    return array.astype(np.int8)


def _check_row_lengths(rows: Any, field: str) -> None:
    lengths = [len(row) if hasattr(row, "__len__") else -1 for row in rows]
    for index, length in enumerate(lengths):
        if length != lengths[0]:
            raise InputError(f"row {index} has {length} entries, row 0 has {lengths[0]}", field=field)


def panel_size(votes: NDArray[np.integer]) -> int:
    """Number of judges ``k`` of a ``(queries, k)`` vote array; ``k >= 2`` is required."""
    k = int(votes.shape[1])
    if k < 2:
        raise InputError(f"a panel needs at least 2 judges, got k={k}", field="votes")
    return k


def tallies(votes: NDArray[np.integer]) -> IntArray:
    """s_i: number of "correct" votes per query (§3, Setup).

    >>> tallies(np.array([[1, 1, 0], [0, 0, 0]])).tolist()
    [2, 0]
    """
    return np.asarray(votes, dtype=np.int64).sum(axis=1)


def margins(s: ArrayLike, k: int) -> IntArray:
    """m_i = |2 s_i − k| (§3, Setup).

    >>> margins([0, 3, 4, 7], 7).tolist()
    [7, 1, 1, 7]
    """
    return np.abs(2 * np.asarray(s, dtype=np.int64) - k)


def decisions(s: ArrayLike, k: int) -> NDArray[np.int8]:
    """Majority decision 1[s_i > k/2]; for even k a tie is "incorrect" (Proposition 2).

    >>> decisions([2, 3, 4], 6).tolist()
    [0, 0, 1]
    """
    return (2 * np.asarray(s, dtype=np.int64) > k).astype(np.int8)


def pivotal(s: ArrayLike, k: int) -> BoolArray:
    """Queries where one replaced ballot can change the decision.

    Odd k: m_i = 1 (Proposition 1). Even k: s_i ∈ {k/2, k/2+1}
    (Proposition 2). Both are s_i ∈ {⌊k/2⌋, ⌊k/2⌋+1}.

    >>> pivotal([2, 3, 4, 5], 7).tolist()
    [False, True, True, False]
    >>> pivotal([2, 3, 4, 5], 6).tolist()
    [False, True, True, False]
    """
    low = k // 2
    tally = np.asarray(s, dtype=np.int64)
    return (tally == low) | (tally == low + 1)


def possible_margins(k: int) -> list[int]:
    """All margins a k-judge panel can show, narrowest first.

    >>> possible_margins(7), possible_margins(6)
    ([1, 3, 5, 7], [0, 2, 4, 6])
    """
    return list(range(k % 2, k + 1, 2))
