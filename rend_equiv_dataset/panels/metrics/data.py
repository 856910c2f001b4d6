"""The scorer's input: votes, labels, signal and the problem clusters, validated once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.metrics.coverage import first_failures, signals_at_levels
from rend_equiv_dataset.panels.metrics.votes import as_binary, panel_size


@dataclass(frozen=True)
class AssertionResults:
    """Per-candidate assertion results reduced to what every coverage level needs (§3)."""

    sizes: NDArray[np.int64]
    first_fail: NDArray[np.int64]

    @classmethod
    def from_vectors(cls, vectors: Sequence[Sequence[bool]]) -> AssertionResults:
        sizes, first = first_failures(vectors)
        return cls(sizes, first)

    def signals(self, levels: Sequence[float]) -> NDArray[np.int8]:
        """(levels × candidates) signals."""
        return signals_at_levels(self.sizes, self.first_fail, levels)


@dataclass(frozen=True)
class PanelData:
    """A k-judge panel over n queries.

    Attributes:
        votes: (n, k) 0/1 verdicts, 1 = "correct".
        labels: (n,) operational labels (1 = all assertions pass).
        signal: (n,) verification signal.
        problems: (n,) cluster label of each query (the bootstrap resamples problems).
        benchmarks: (n,) benchmark of each query, or None when the records name none.
        assertions: per-assertion results for the coverage sweep (full-form records only).
        judges: judge names, k of them.
    """

    votes: NDArray[np.int8]
    labels: NDArray[np.int8]
    signal: NDArray[np.int8]
    problems: NDArray[np.str_]
    benchmarks: NDArray[np.str_] | None = None
    assertions: AssertionResults | None = None
    judges: tuple[str, ...] = field(default=())

    @property
    def n(self) -> int:
        return int(self.votes.shape[0])

    @property
    def k(self) -> int:
        return int(self.votes.shape[1])

    @classmethod
    def from_metric_inputs(cls, predictions: ArrayLike, references: ArrayLike, signal: ArrayLike) -> PanelData:
        """:meth:`from_arrays` for the ``evaluate`` modules, whose votes are ``predictions`` and labels
        ``references``: errors name those inputs.

        >>> PanelData.from_metric_inputs([[1, 0, 1]], [1, 0], [1])
        Traceback (most recent call last):
        ...
        rend_equiv_dataset.errors.InputError: field 'references': has 2 entries for 1 queries
        """
        names = {"votes": "predictions", "labels": "references"}
        try:
            return cls.from_arrays(predictions, references, signal)
        except InputError as err:
            raise InputError(err.message, field=names.get(str(err.field), err.field)) from None

    @classmethod
    def from_arrays(
        cls,
        votes: ArrayLike,
        labels: ArrayLike,
        signal: ArrayLike,
        problems: ArrayLike | None = None,
        *,
        benchmarks: ArrayLike | None = None,
        assertions: AssertionResults | None = None,
        judges: Sequence[str] | None = None,
    ) -> PanelData:
        """Validate and build; ``problems`` defaults to one cluster per query.

        >>> PanelData.from_arrays([[1, 0, 1]], [1], [1]).k
        3
        >>> PanelData.from_arrays([[1, 0, 1]], [1, 0], [1])
        Traceback (most recent call last):
        ...
        rend_equiv_dataset.errors.InputError: field 'labels': has 2 entries for 1 queries
        """
        v = as_binary(votes, field="votes", ndim=2)
        k = panel_size(v)
        n = v.shape[0]
        if n == 0:
            raise InputError("no queries to score", field="votes")
        y = _same_length(as_binary(labels, field="labels", ndim=1), n, "labels")
        sig = _same_length(as_binary(signal, field="signal", ndim=1), n, "signal")
        clusters = np.arange(n).astype(str) if problems is None else np.asarray(problems).astype(str)
        _same_length(clusters, n, "problems")
        bench = None if benchmarks is None else _same_length(np.asarray(benchmarks).astype(str), n, "benchmarks")
        if assertions is not None:
            _same_length(assertions.sizes, n, "assertions_passed")
        names = tuple(judges) if judges else tuple(f"judge_{j}" for j in range(k))
        if len(names) != k:
            raise InputError(f"has {len(names)} names for k={k} judges", field="judges")
        return cls(v, y, sig, clusters, bench, assertions, names)

    def subset(self, rows: NDArray[np.bool_]) -> PanelData:
        """The same panel on the selected queries."""
        return PanelData(
            self.votes[rows],
            self.labels[rows],
            self.signal[rows],
            self.problems[rows],
            None if self.benchmarks is None else self.benchmarks[rows],
            None
            if self.assertions is None
            else AssertionResults(self.assertions.sizes[rows], self.assertions.first_fail[rows]),
            self.judges,
        )


def _same_length(array: NDArray[Any], n: int, field_name: str) -> NDArray[Any]:
    if array.shape[0] != n:
        raise InputError(f"has {array.shape[0]} entries for {n} queries", field=field_name)
    return array
