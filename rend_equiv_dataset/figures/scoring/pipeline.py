"""Score a predictions file against a release: read, validate, score, evaluate (docs/design.md §3.5, §7.4).

A reader that reads every number ×1.5 is invisible to the scale and zoom
edits and caught by the offset edit wherever the commutator exceeds 5%:

>>> from rend_equiv_dataset.figures.scoring.simulate import simulate
>>> from rend_equiv_dataset.figures.scoring.synthetic import synthetic_renderings
>>> rows = synthetic_renderings(n_instances=10, rerenders=2, values=(1, 20))
>>> preds = {r["render_id"]: Prediction(**r) for r in simulate(rows, "scale:1.5").records}
>>> table = score_predictions(rows, preds, n_resamples=100).report["detection_by_edit"]
>>> table["scale"]["rate"], table["offset"]["rate"], table["zoom"]["rate"]
(0.0, 1.0, 0.0)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rend_equiv_dataset import __version__, schema
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.scoring.predictions import Prediction, Predictions, read_predictions
from rend_equiv_dataset.figures.release.read import RenderingRow, dataset_fingerprint, load_matched_renderings, load_renderings
from rend_equiv_dataset.stats import DEFAULT_RESAMPLES
from rend_equiv_dataset.figures.scoring.evaluation import evaluate, fit_errors, matched_cycle
from rend_equiv_dataset.figures.scoring.instances import DEFAULT_THRESHOLD, InstanceScore, group_instances, score_instance


@dataclass
class ScoreRun:
    """Everything one scoring run produced."""

    report: dict[str, Any]
    scores: list[InstanceScore]
    errors: dict[str, tuple[str, Any]]


def check_threshold(threshold: float, option: str = "--threshold") -> float:
    """The ECS threshold must be a number in (0, 1]."""
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool) or not (0.0 < threshold <= 1.0):
        raise InputError(f"must be a number in (0, 1], got {threshold!r}", field=option)
    return float(threshold)


def score_predictions(
    renderings: Sequence[RenderingRow],
    predictions: dict[str, Prediction],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> ScoreRun:
    """Score in-memory renderings and predictions (no files); the report lacks provenance."""
    check_threshold(threshold)
    instances = group_instances(renderings)
    scores = [score_instance(i, predictions, threshold) for i in instances]
    edit_rows = {i.base.instance_id: i.edits for i in instances}
    report = evaluate(scores, edit_rows, threshold=threshold, n_resamples=n_resamples, seed=seed)
    report["n_renderings"] = len(renderings)
    return ScoreRun(report, scores, fit_errors(scores, edit_rows))


def read_release_and_predictions(
    data_dir: str | Path, predictions_path: str | Path
) -> tuple[list[RenderingRow], list[RenderingRow], Predictions, str]:
    """Load a release and a predictions file checked against it.

    Returns (renderings, matched-cycle renderings, predictions, fingerprint).
    The fingerprint covers the ``renderings`` config; a predictions file may
    also answer the matched swap-versus-cycle set.
    """
    renderings = load_renderings(data_dir)
    matched = load_matched_renderings(data_dir)
    fingerprint = dataset_fingerprint(renderings)
    known = [r.render_id for r in renderings] + [r.render_id for r in matched]
    predictions = read_predictions(predictions_path, known, fingerprint=fingerprint)
    return renderings, matched, predictions, fingerprint


def score_matched(matched: Sequence[RenderingRow], predictions: dict[str, Prediction], threshold: float) -> dict[str, Any] | None:
    """Swap versus cycle on the matched set (paper §4.3), with the predicted ratio 2(m−2)!/m; ``None`` if unanswered."""
    import math

    if not matched or not any(r.render_id in predictions for r in matched):
        return None
    scores = [score_instance(i, predictions, threshold) for i in group_instances(matched)]
    result = matched_cycle(scores)
    if result is None:
        return None
    sizes = sorted({len(r.labels) for r in matched if r.role == schema.BASE})
    result["predicted_undetectable_ratio"] = {str(m): 2 * math.factorial(m - 2) / m for m in sizes if m >= 2}
    return result


def score_files(
    data_dir: str | Path,
    predictions_path: str | Path,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> ScoreRun:
    """Score a predictions file against a release folder, with provenance in the report."""
    check_threshold(threshold)
    renderings, matched, predictions, fingerprint = read_release_and_predictions(data_dir, predictions_path)
    run = score_predictions(renderings, predictions.by_render_id, threshold=threshold, n_resamples=n_resamples, seed=seed)
    matched_ids = {r.render_id for r in matched}
    missing = [m for m in predictions.missing if m not in matched_ids]
    if run.report["matched_cycle"] is None:
        run.report["matched_cycle"] = score_matched(matched, predictions.by_render_id, threshold)
    run.report["missing"] = {
        "count": len(missing),
        "policy": "a rendering without a prediction is unanswered: scored as an unparseable (wrong) answer",
        "examples": missing[:10],
        "matched_cycle_count": len(predictions.missing) - len(missing),
    }
    run.report["provenance"] = {
        "package_version": __version__,
        "dataset_fingerprint": fingerprint,
        "predictions_sha256": sha256_file(predictions_path),
        "predictions_meta": predictions.meta,
    }
    return run


def sha256_file(path: str | Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
