"""What a harness reports: the same scoring run as ``rend-equiv score``, read into a few numbers (docs/design.md §8).

A harness sees one rendering at a time, but ECS, REA, IBEM and the AUROCs
need every rendering of an instance at once. So each sample carries its
rendering's light columns (:func:`sample_record`), and the harness's
aggregation step hands all of them to :func:`harness_metrics`, which groups
them by ``instance_id`` and scores them with
:func:`~rend_equiv_dataset.figures.scoring.pipeline.score_predictions` — the
function ``rend-equiv score`` calls — so the numbers are the report's own.

A reader that reads 15 for 10 on the base, a re-rendering and the zoom edit
is consistent and wrong: an IBEM case that the zoom edit cannot see (ECS 1).

>>> def row(render_id, role, variant):
...     return {"render_id": render_id, "instance_id": "i", "data_seed": 0, "template_id": "t", "family": "bar",
...             "question_type": "read_value", "role": role, "variant": variant, "question": "Value of A?",
...             "target": "10", "answer_type": "number", "labels": [], "transform": '{"kind": "identity"}'}
>>> records = [sample_record(row("i/base", "base", "base"), "15"), sample_record(row("i/s0", "rerender", "s0"), "15"),
...            sample_record(row("i/zoom", "edit", "zoom"), "It is 15.")]
>>> metrics = harness_metrics(records)
>>> metrics["accuracy"], metrics["ecs"], metrics["rea"], metrics["ibem_rate"], metrics["flagged_rate"]
(0.0, 1.0, 1.0, 1.0, 0.0)
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import parse_json
from rend_equiv_dataset.figures.release.read import RenderingRow, rendering_from_row
from rend_equiv_dataset.figures.scoring.instances import DEFAULT_THRESHOLD
from rend_equiv_dataset.figures.scoring.pipeline import ScoreRun, score_predictions
from rend_equiv_dataset.figures.scoring.predictions import Prediction
from rend_equiv_dataset.schema import RENDERING_TEXT_COLUMNS

ROW_FIELDS = RENDERING_TEXT_COLUMNS
"""The columns a sample carries to the aggregation step (every ``renderings`` column but the image)."""


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


METRICS: dict[str, Callable[[ScoreRun], Any]] = {
    "accuracy": lambda run: run.report["accuracy"],
    "ecs": lambda run: _mean([s.ecs for s in run.scores]),
    "rea": lambda run: _mean([s.rea for s in run.scores]),
    "flagged_rate": lambda run: _mean([float(s.flagged) for s in run.scores]),
    "ibem_rate": lambda run: run.report["ibem"]["rate"],
    "ecs_ibem_detection": lambda run: run.report["ibem"]["detection"].get("ecs"),
    "ecs_auroc": lambda run: run.report["signals"]["ecs"]["auroc"],
    "rea_auroc": lambda run: run.report["signals"]["rea"]["auroc"],
    "combined_auroc": lambda run: run.report["signals"]["combined"]["auroc"],
}
"""Harness metric name → where it is in the scoring run.

``accuracy``, ``ibem_rate``, ``ecs_ibem_detection`` (IBEM detection at the
matched false-positive rate) and the AUROCs are keys of ``report.json``
(docs/design.md §7.4); ``ecs``, ``rea`` and ``flagged_rate`` are means over
the lines of ``instances.jsonl``. A value the report leaves undefined (no
IBEM instance, one class only) is NaN.
"""


def sample_record(row: Mapping[str, Any], output: str | None) -> dict[str, Any]:
    """One answered rendering as a harness logs it: the row's light columns plus the raw ``output``.

    ``output`` ``None`` means the harness gave no answer (scored as unparseable,
    as a missing prediction is).
    """
    record = {name: _plain(row.get(name)) for name in ROW_FIELDS}
    record["output"] = output
    return record


def _plain(value: Any) -> Any:
    """Harness tables hold lists as numpy arrays or JSON text; keep plain values."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def rows_and_predictions(records: Sequence[Mapping[str, Any]]) -> tuple[list[RenderingRow], dict[str, Prediction]]:
    """The renderings and predictions a list of :func:`sample_record` values holds (checked; first one kept per id)."""
    rows: dict[str, RenderingRow] = {}
    predictions: dict[str, Prediction] = {}
    for number, record in enumerate(records, start=1):
        if not isinstance(record, Mapping):
            raise InputError(f"expected a sample record (a mapping), got {type(record).__name__}", line=number)
        row = rendering_from_row(_row_view(record), line=number)
        if row.render_id in rows:
            continue
        rows[row.render_id] = row
        output = record.get("output")
        if output is not None:
            if not isinstance(output, str):
                raise InputError(f"expected a string, got {type(output).__name__}", line=number, field="output")
            predictions[row.render_id] = Prediction(render_id=row.render_id, output=output)
    if not rows:
        raise InputError("no samples to score", field="samples")
    return list(rows.values()), predictions


def _row_view(record: Mapping[str, Any]) -> dict[str, Any]:
    row = {name: _plain(record.get(name)) for name in ROW_FIELDS}
    if isinstance(row["labels"], str):  # a TSV column holds the list as JSON text
        row["labels"] = parse_json(row["labels"], field="labels")
    if isinstance(row["data_seed"], str) and row["data_seed"].isdecimal():
        row["data_seed"] = int(row["data_seed"])
    return row


def score_samples(records: Sequence[Mapping[str, Any]], *, threshold: float = DEFAULT_THRESHOLD) -> ScoreRun:
    """Score sample records exactly as ``rend-equiv score`` scores the same outputs (point values; no bootstrap)."""
    rows, predictions = rows_and_predictions(records)
    return score_predictions(rows, predictions, threshold=threshold, n_resamples=0)


def _key(records: Sequence[Mapping[str, Any]]) -> str:
    return json.dumps([[r.get("render_id"), r.get("output")] for r in records], sort_keys=True, default=str)


_CACHE: dict[tuple[str, float], dict[str, float]] = {}
_CACHE_SIZE = 4


def harness_metrics(records: Sequence[Mapping[str, Any]], *, threshold: float = DEFAULT_THRESHOLD) -> dict[str, float]:
    """Every metric of :data:`METRICS` for the sample records (one scoring run per distinct set of records).

    A harness calls one aggregation per metric over the same records; the run
    is cached on their ids and outputs so the release is scored once.
    """
    key = (_key(records), threshold)
    if key not in _CACHE:
        run = score_samples(records, threshold=threshold)
        while len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = {name: _number(read(run)) for name, read in METRICS.items()}
    return dict(_CACHE[key])


def _number(value: Any) -> float:
    return math.nan if value is None else float(value)
