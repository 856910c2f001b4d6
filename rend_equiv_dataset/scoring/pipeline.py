"""Score a predictions file against a release: read, validate, score, evaluate (DESIGN §3.5, §7.4).

>>> from rend_equiv_dataset.scoring.pipeline import ScoreRun
>>> ScoreRun.__doc__.splitlines()[0]
'Everything one scoring run produced.'
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rend_equiv_dataset import __version__
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.loaders.predictions import Prediction, Predictions, read_predictions
from rend_equiv_dataset.loaders.release import Rendering, dataset_fingerprint, load_renderings
from rend_equiv_dataset.scoring.bootstrap import DEFAULT_RESAMPLES
from rend_equiv_dataset.scoring.evaluation import evaluate, fit_errors
from rend_equiv_dataset.scoring.instances import DEFAULT_THRESHOLD, InstanceScore, group_instances, score_instance


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
    renderings: Sequence[Rendering],
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


def read_release_and_predictions(data_dir: str | Path, predictions_path: str | Path) -> tuple[list[Rendering], Predictions, str]:
    """Load a release and a predictions file checked against it; returns (renderings, predictions, fingerprint)."""
    renderings = load_renderings(data_dir)
    fingerprint = dataset_fingerprint(renderings)
    predictions = read_predictions(predictions_path, [r.render_id for r in renderings], fingerprint=fingerprint)
    return renderings, predictions, fingerprint


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
    renderings, predictions, fingerprint = read_release_and_predictions(data_dir, predictions_path)
    run = score_predictions(renderings, predictions.by_render_id, threshold=threshold, n_resamples=n_resamples, seed=seed)
    run.report["missing"] = {
        "count": len(predictions.missing),
        "policy": "a rendering without a prediction is unanswered: scored as an unparseable (wrong) answer",
        "examples": list(predictions.missing[:10]),
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
