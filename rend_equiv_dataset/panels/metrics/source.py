"""Panel records (docs/design.md §7.5) → :class:`PanelData`, with the signal at a coverage level for full-form records."""

from __future__ import annotations

import numpy as np

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.records import PanelRecords, Status
from rend_equiv_dataset.panels.metrics.data import AssertionResults, PanelData


def scorable_rows(records: PanelRecords) -> np.ndarray:
    """Rows to score: all but ``infra_error`` runs, whose label says nothing about the candidate.

    A timeout or a crash is the candidate's failure and stays (label 0); an
    infrastructure error is the harness's, so the record is left out and
    counted in the report's provenance.
    """
    if records.statuses is None:
        return np.ones(records.n, dtype=bool)
    keep = np.array([status != Status.INFRA_ERROR.value for status in records.statuses], dtype=bool)
    if not keep.any():
        raise InputError(f"all {records.n} records are infra_error runs: nothing to score", file=records.source, field="status")
    return keep


def panel_from_records(records: PanelRecords, coverage: float | None) -> PanelData:
    """Columns of validated records as a panel; full form needs ``coverage``, short form takes none.

    >>> r = PanelRecords(form="short", problems=["p", "q"], labels=[1, 0], votes=[[1, 1, 0], [0, 0, 1]], signal=[1, 0])
    >>> panel_from_records(r, None).signal.tolist()
    [1, 0]
    """
    keep = scorable_rows(records)
    if records.form == "short":
        if coverage is not None or records.signal is None:
            raise ValueError("short-form records carry their own signal; pass coverage=None")
        signal = np.asarray(records.signal)
        assertions = None
        judges = None
    else:
        if coverage is None or records.assertions is None:
            raise ValueError("full-form records need a coverage level")
        assertions = AssertionResults.from_vectors(records.assertions)
        signal = assertions.signals([coverage])[0]
        judges = records.judges
    data = PanelData.from_arrays(
        records.votes, records.labels, signal, records.clusters,
        benchmarks=records.benchmarks, assertions=assertions, judges=judges,
    )
    return data if keep.all() else data.subset(keep)
