"""ECS, REA and IBEM of model outputs on ``renderings`` rows — what ``metrics/ecs``, ``metrics/rea`` and ``metrics/ibem`` wrap.

The ``evaluate`` modules take ``predictions`` (one raw model output per row)
and ``references`` (the rows of the release's ``renderings`` config without
the image, as dicts). :func:`score_outputs` turns them into the same
:class:`~rend_equiv_dataset.figures.scoring.predictions.Prediction` records
and :class:`~rend_equiv_dataset.figures.release.read.RenderingRow` rows that
``rend-equiv score`` reads from files, and scores them with the same
:func:`~rend_equiv_dataset.figures.scoring.instances.score_instances`: one
parser (the question's unit included), one target reader, one residual, one
ECS, REA and IBEM rule. The summaries below only average what it returns.

A question asked in thousands: "55 thousand" on the base chart reads 55, so
"110" after a ×2 scale edit is consistent.

>>> rows = [
...     {"render_id": "i/base", "instance_id": "i", "data_seed": 0, "template_id": "t", "family": "bar",
...      "question_type": "read_value", "role": "base", "variant": "base",
...      "question": "How many visitors in Q3, in thousand?", "target": "55", "answer_type": "number",
...      "labels": [], "transform": '{"kind": "identity"}'},
...     {"render_id": "i/edit/scale", "instance_id": "i", "data_seed": 0, "template_id": "t", "family": "bar",
...      "question_type": "read_value", "role": "edit", "variant": "scale",
...      "question": "How many visitors in Q3, in thousand?", "target": "110", "answer_type": "number",
...      "labels": [], "transform": '{"kind": "affine", "scale": 2.0, "shift": 0.0}'},
... ]
>>> scores = score_outputs(["55 thousand", "110"], rows)
>>> ecs_result(scores)["ecs"], scores[0].correct
(1.0, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.release.read import COLUMNS, RenderingRow, check_renderings, rendering_from_row
from rend_equiv_dataset.figures.scoring.evaluation import columns, corollary3
from rend_equiv_dataset.figures.scoring.instances import DEFAULT_THRESHOLD, IBEM_REA, InstanceScore, score_instances
from rend_equiv_dataset.figures.scoring.pipeline import check_threshold
from rend_equiv_dataset.figures.scoring.predictions import Prediction

REFERENCES = "references"
PREDICTIONS = "predictions"


def renderings_from_references(references: Sequence[Mapping[str, Any]]) -> list[RenderingRow]:
    """Validate ``renderings`` rows given as dicts (extra keys such as ``image`` are ignored).

    A bad row raises :class:`InputError` naming its position (``line`` counts from 1) and field.
    """
    rows = [rendering_from_row(row, file=REFERENCES, line=i + 1) for i, row in enumerate(reference_rows(references))]
    return check_renderings(rows, file=REFERENCES)


def score_outputs(
    predictions: Sequence[str], references: Sequence[Mapping[str, Any]], threshold: float = DEFAULT_THRESHOLD
) -> list[InstanceScore]:
    """Score ``predictions[i]`` as the answer to ``references[i]``, grouped by instance (sorted by id)."""
    check_threshold(threshold, option="threshold")
    if len(predictions) != len(references):
        raise InputError(f"{len(predictions)} predictions for {len(references)} references", field=PREDICTIONS)
    for index, output in enumerate(predictions):
        if not isinstance(output, str):
            raise InputError(f"expected a model output string, got {output!r}", file=PREDICTIONS, line=index + 1)
    renderings = renderings_from_references(references)
    outputs = {r.render_id: Prediction(render_id=r.render_id, output=o) for r, o in zip(renderings, predictions)}
    return score_instances(renderings, outputs, threshold)


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values)


def ecs_result(scores: Sequence[InstanceScore], threshold: float = DEFAULT_THRESHOLD) -> dict[str, Any]:
    """Mean ECS, the share flagged (ECS < threshold), and ECS by instance id (paper Eq. 2)."""
    return {
        "ecs": _mean([s.ecs for s in scores]),
        "flagged_rate": _mean([s.ecs < threshold for s in scores]),
        "ecs_per_instance": {s.instance_id: s.ecs for s in scores},
    }


def rea_result(scores: Sequence[InstanceScore], rerenders: Mapping[str, int]) -> dict[str, Any]:
    """Mean REA, the share in the IBEM region (REA ≥ 0.75), and REA by instance id.

    ``rerenders`` (instance id → number of re-rendering rows) guards against
    an instance without any: its REA is undefined, not 0.
    """
    if empty := sorted(i for i, n in rerenders.items() if n == 0):
        raise InputError(f"instance {empty[0]!r} has no re-rendering rows; REA needs at least one",
                         file=REFERENCES, field="role")
    return {
        "rea": _mean([s.rea for s in scores]),
        "high_rea_rate": _mean([s.rea >= IBEM_REA for s in scores]),
        "rea_per_instance": {s.instance_id: s.rea for s in scores},
    }


def ibem_result(scores: Sequence[InstanceScore], threshold: float = DEFAULT_THRESHOLD) -> dict[str, Any]:
    """IBEM (REA ≥ 0.75 and wrong, paper §5): its rate and count, accuracy, and what ECS and min(REA, ECS) flag on it.

    The detections are at the threshold (the report's ``ibem.at_threshold`` and
    ``ibem.corollary3``), not at the matched false-positive rate.
    """
    both = corollary3(columns(scores), threshold)
    return {
        "ibem": _mean([s.ibem for s in scores]),
        "ibem_n": sum(s.ibem for s in scores),
        "n_instances": len(scores),
        "accuracy": _mean([s.correct for s in scores]),
        "ecs_detection": both["ecs"],
        "combined_detection": both["combined"],
        "same_flags": both["identical"],
    }


def rerender_counts(references: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Instance id → how many of its rows are re-renderings."""
    counts: dict[str, int] = {}
    for row in references:
        counts[row["instance_id"]] = counts.get(row["instance_id"], 0) + (row["role"] == "rerender")
    return counts


def reference_features() -> Any:
    """The ``datasets`` features of one reference: a ``renderings`` row without its image (docs/design.md §7.2 columns)."""
    import datasets

    from rend_equiv_dataset.schema import rendering_features

    return datasets.Features({name: feature for name, feature in rendering_features().items() if name in COLUMNS})


def reference_rows(references: Any) -> list[dict[str, Any]]:
    """``references`` (a list of dicts, or a ``datasets.Dataset``) as dicts with exactly the row columns.

    Extra keys (an ``image`` left in, other columns) are dropped; a missing
    column or a row that is not a dict raises :class:`InputError`.
    """
    if hasattr(references, "remove_columns") and hasattr(references, "to_list"):
        drop = [c for c in references.column_names if c not in COLUMNS]
        references = references.remove_columns(drop).to_list()
    if isinstance(references, (str, bytes, Mapping)) or not isinstance(references, Sequence):
        raise InputError(f"expected a list of renderings rows, got {type(references).__name__}", field=REFERENCES)
    rows = []
    for index, row in enumerate(references):
        if not isinstance(row, Mapping):
            raise InputError(f"expected a renderings row as a dict, got {type(row).__name__}", file=REFERENCES,
                             line=index + 1)
        if missing := [c for c in COLUMNS if c not in row]:
            raise InputError(f"the row lacks {missing}", file=REFERENCES, line=index + 1, field=missing[0])
        rows.append({c: row[c] for c in COLUMNS})
    return rows


class RenderingsInput:
    """``add``/``add_batch``/``compute`` of an ``evaluate.Metric`` whose references are ``renderings`` rows.

    Mixed in before ``evaluate.Metric`` (``class Ecs(RenderingsInput, evaluate.Metric)``): rows are
    reduced to the row columns on the way in (so a ``datasets.Dataset`` or rows with an image work),
    empty input is refused with an :class:`InputError` before evaluate sees it, and ``compute()``
    after ``add``/``add_batch`` scores what was added.
    """

    writer: Any

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> Any:
        """Add one output and its row (``evaluate.combine`` passes them as predictions=/references=)."""
        prediction = kwargs.pop(PREDICTIONS, prediction)
        reference = kwargs.pop(REFERENCES, reference)
        return super().add(prediction=prediction, reference=reference_rows([reference])[0], **kwargs)  # type: ignore[misc]

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        """Add outputs and their rows."""
        return super().add_batch(predictions=predictions, references=reference_rows(references), **kwargs)  # type: ignore[misc]

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        """Refuse empty input, then compute over what is given plus what was added."""
        if predictions is None and references is None:
            if self.writer is None:
                raise InputError("no input: pass predictions= and references=, or add them first", field=PREDICTIONS)
            return super().compute(**kwargs)  # type: ignore[misc]
        if predictions is None or len(predictions) == 0:
            raise InputError("no predictions: needs at least one model output", field=PREDICTIONS)
        return super().compute(predictions=list(predictions), references=reference_rows(references), **kwargs)  # type: ignore[misc]
