"""The functions the lmms-eval task YAML names (``!function utils.…``; docs/design.md §8.1).

lmms-eval calls ``doc_to_visual``, ``doc_to_text`` and ``process_results``
once per row of the ``renderings`` config, then each metric's aggregation
once over every row's ``process_results`` value. The per-row value is the
row's light columns with the raw output (:func:`~rend_equiv_dataset.integrations.scores.sample_record`),
so the aggregation can group rows by instance and score them with the
scorer of ``rend-equiv score``
(:func:`~rend_equiv_dataset.integrations.scores.harness_metrics`).

Set ``REND_EQUIV_PREDICTIONS=PATH`` to have the aggregation also write the
run's outputs as our predictions file (docs/design.md §7.3), ready for
``rend-equiv score`` and ``rend-equiv submit``; ``rend-equiv
import-predictions --from lmms-eval`` does the same from a samples log.

This module imports nothing from lmms-eval.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rend_equiv_dataset.figures.answers.grade import grade
from rend_equiv_dataset.figures.release.read import decode_image
from rend_equiv_dataset.harness.prompts import figure_prompt
from rend_equiv_dataset.integrations.scores import (
    METRICS,
    harness_metrics,
    sample_record,
)

PREDICTIONS_ENV = "REND_EQUIV_PREDICTIONS"


def doc_to_visual(doc: Mapping[str, Any]) -> list[Any]:
    """The rendering's image, as one RGB PIL image."""
    return [decode_image(doc["image"])]


def doc_to_text(doc: Mapping[str, Any], lmms_eval_specific_kwargs: Mapping[str, Any] | None = None) -> str:
    """Our prompt for the rendering's question (the one ``rend-equiv run`` sends)."""
    return figure_prompt(doc["question"])


def process_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, dict[str, Any]]:
    """One row's value for every metric: its light columns, the raw output, and our reader's answer and grade.

    The answer and grade are for the log; the aggregation re-reads ``output``
    through the scorer, as ``rend-equiv score`` does.
    """
    output = results[0] if results else None
    record = sample_record(doc, output)
    graded = grade(output, doc["target"], doc["answer_type"], question=doc["question"], labels=list(doc["labels"]))
    record["answer"], record["correct"] = graded.answer, graded.correct
    return {name: record for name in METRICS}


def _aggregation(name: str) -> Callable[[Sequence[Mapping[str, Any]]], float]:
    def aggregate(items: Sequence[Mapping[str, Any]]) -> float:
        path = os.environ.get(PREDICTIONS_ENV)
        if path:
            from rend_equiv_dataset.integrations.logs import (
                write_sample_predictions_once,
            )

            write_sample_predictions_once(items, path, meta={"harness": "lmms-eval"})
        return harness_metrics(items)[name]

    aggregate.__name__ = aggregate.__qualname__ = f"aggregate_{name}"
    aggregate.__doc__ = f"``{name}`` over every row's record (see :data:`~rend_equiv_dataset.integrations.scores.METRICS`)."
    return aggregate


aggregate_accuracy = _aggregation("accuracy")
aggregate_ecs = _aggregation("ecs")
aggregate_rea = _aggregation("rea")
aggregate_flagged_rate = _aggregation("flagged_rate")
aggregate_ibem_rate = _aggregation("ibem_rate")
aggregate_ecs_ibem_detection = _aggregation("ecs_ibem_detection")
aggregate_ecs_auroc = _aggregation("ecs_auroc")
aggregate_rea_auroc = _aggregation("rea_auroc")
aggregate_combined_auroc = _aggregation("combined_auroc")
