"""Panel records (DESIGN §7.5) → :class:`PanelData`, with the signal at a coverage level for full-form records."""

from __future__ import annotations

from rend_equiv_dataset.loaders.panel_records import PanelRecords
from rend_equiv_dataset.scoring.panel.data import AssertionResults, PanelData


def panel_from_records(records: PanelRecords, coverage: float | None) -> PanelData:
    """Columns of validated records as a panel; full form needs ``coverage``, short form takes none.

    >>> import numpy as np
    >>> r = PanelRecords(form="short", problems=["p", "q"], labels=[1, 0], votes=[[1, 1, 0], [0, 0, 1]], signal=[1, 0])
    >>> panel_from_records(r, None).signal.tolist()
    [1, 0]
    """
    if records.form == "short":
        if coverage is not None or records.signal is None:
            raise ValueError("short-form records carry their own signal; pass coverage=None")
        signal = records.signal
        assertions = None
        judges = None
    else:
        if coverage is None or records.assertions is None:
            raise ValueError("full-form records need a coverage level")
        assertions = AssertionResults.from_vectors(records.assertions)
        signal = assertions.signals([coverage])[0]
        judges = records.judges
    return PanelData.from_arrays(
        records.votes, records.labels, signal, records.clusters,
        benchmarks=records.benchmarks, assertions=assertions, judges=judges,
    )
