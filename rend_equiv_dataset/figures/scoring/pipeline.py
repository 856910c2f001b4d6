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
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from rend_equiv_dataset import __version__, schema
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.release.read import RenderingRow
from rend_equiv_dataset.figures.scoring.evaluation import Columns, ColumnsBuilder, evaluate_columns, matched_cycle
from rend_equiv_dataset.figures.scoring.instances import DEFAULT_THRESHOLD, InstanceScore, group_instances, instance_line, score_instance
from rend_equiv_dataset.figures.scoring.predictions import Prediction
from rend_equiv_dataset.stats import DEFAULT_RESAMPLES

MISSING_POLICY = "a rendering without a prediction is unanswered: scored as an unparseable (wrong) answer"
MISSING_EXAMPLES = 10


@dataclass
class ScoreRun:
    """Everything one scoring run produced.

    ``columns`` are the per-instance arrays the report and plots read. An
    in-memory run (:func:`score_predictions`) also keeps every
    :class:`InstanceScore` and fitted error; a run over files streams those
    to ``instances.jsonl`` instead and keeps neither.
    """

    report: dict[str, Any]
    columns: Columns
    scores: list[InstanceScore] = field(default_factory=list)
    errors: dict[str, tuple[str, Any]] = field(default_factory=dict)


@dataclass
class ScoredPart:
    """What scoring all instances of a release, or one shard of them, leaves for the report: its sufficient statistics.

    The per-instance columns of the ``renderings`` config and of the matched
    set, and counts. Parts of consecutive shards merge into the report of the
    whole run exactly (:func:`report_from_parts`): the columns concatenate in
    ``instance_id`` order, the counts add up, and the intervals are computed
    from the merged columns with the run's seed.
    """

    columns: Columns
    matched: Columns
    matched_sizes: list[int]
    matched_answered: bool
    n_renderings: int
    missing_count: int
    missing_examples: list[str]
    matched_missing: int
    provenance: dict[str, Any]
    settings: dict[str, Any]
    shard: tuple[int, int] | None = None


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
    builder = ColumnsBuilder()
    scores, errors = [], {}
    for instance in group_instances(renderings):
        score = score_instance(instance, predictions, threshold)
        scores.append(score)
        if (error := builder.add(score, instance.edits)) is not None:
            errors[score.instance_id] = error
    cols = builder.build()
    report = evaluate_columns(cols, threshold=threshold, n_resamples=n_resamples, seed=seed)
    report["n_renderings"] = len(renderings)
    return ScoreRun(report, cols, scores, errors)


def score_matched(matched: Sequence[RenderingRow], predictions: dict[str, Prediction], threshold: float) -> dict[str, Any] | None:
    """Swap versus cycle on the matched set (paper §4.3), with the predicted ratio 2(m−2)!/m; ``None`` if unanswered."""
    if not matched or not any(r.render_id in predictions for r in matched):
        return None
    builder = ColumnsBuilder()
    for instance in group_instances(matched):
        builder.add(score_instance(instance, predictions, threshold))
    sizes = sorted({len(r.labels) for r in matched if r.role == schema.BASE})
    return _matched_block(builder.build(), sizes)


def _matched_block(cols: Columns, sizes: Sequence[int]) -> dict[str, Any] | None:
    result = matched_cycle(cols)
    if result is None:
        return None
    result["predicted_undetectable_ratio"] = {str(m): 2 * math.factorial(m - 2) / m for m in sorted(sizes) if m >= 2}
    return result


def score_part(
    data_dir: str | Path,
    predictions_path: str | Path,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    shard: tuple[int, int] | None = None,
    instances_out: IO[str] | None = None,
) -> ScoredPart:
    """Score a predictions file against a release folder, streaming (see :mod:`.stream`).

    With ``shard`` = (I, N) only the I-th of N contiguous slices of the
    sorted instance ids is scored (an instance's renderings are never split);
    the whole file and release are still validated. Each instance's line of
    ``instances.jsonl`` goes to ``instances_out`` as it is scored.
    """
    from rend_equiv_dataset.figures.scoring.stream import MAIN, MATCHED, JoinedRun

    check_threshold(threshold)
    with JoinedRun() as joined:
        joined.load_release(data_dir)
        fingerprint = joined.fingerprint()
        joined.load_predictions(predictions_path, fingerprint)
        bounds = joined.instance_range(MAIN, shard)
        builder = ColumnsBuilder()
        n_renderings = 0
        for instance, answers in _progress(joined.instances(MAIN, bounds), joined.count_instances(MAIN, bounds)):
            score = score_instance(instance, answers, threshold)
            error = builder.add(score, instance.edits)
            n_renderings += 1 + len(instance.rerenders) + len(instance.edits)
            if instances_out is not None:
                instances_out.write(instance_line(score, error))
        matched_bounds = joined.instance_range(MATCHED, shard)
        matched, sizes = ColumnsBuilder(), set()
        answered = joined.answered(MATCHED, matched_bounds)
        if answered:
            for instance, answers in joined.instances(MATCHED, matched_bounds):
                matched.add(score_instance(instance, answers, threshold))
                sizes.add(len(instance.base.labels))
        missing = joined.missing(MAIN, bounds, MISSING_EXAMPLES)
        return ScoredPart(
            columns=builder.build(),
            matched=matched.build(),
            matched_sizes=sorted(sizes),
            matched_answered=answered,
            n_renderings=n_renderings,
            missing_count=missing.count,
            missing_examples=missing.examples,
            matched_missing=joined.missing(MATCHED, matched_bounds, 0).count,
            provenance={
                "package_version": __version__,
                "dataset_fingerprint": fingerprint,
                "predictions_sha256": sha256_file(predictions_path),
                "predictions_meta": joined.meta,
            },
            settings={"threshold": float(threshold), "n_resamples": int(n_resamples), "seed": int(seed)},
            shard=shard,
        )


def _progress(items: Any, total: int) -> Any:
    from tqdm.auto import tqdm

    return tqdm(items, total=total, unit="instance", desc="score", disable=None, leave=False)


def report_from_parts(parts: Sequence[ScoredPart]) -> ScoreRun:
    """The report of a run from the parts of its shards, in shard order (one part for an unsharded run)."""
    settings = parts[0].settings
    cols = Columns.concat([p.columns for p in parts])
    report = evaluate_columns(cols, threshold=settings["threshold"], n_resamples=settings["n_resamples"], seed=settings["seed"])
    report["n_renderings"] = sum(p.n_renderings for p in parts)
    if report["matched_cycle"] is None and any(p.matched_answered for p in parts):
        sizes = sorted({m for p in parts for m in p.matched_sizes})
        report["matched_cycle"] = _matched_block(Columns.concat([p.matched for p in parts]), sizes)
    report["missing"] = {
        "count": sum(p.missing_count for p in parts),
        "policy": MISSING_POLICY,
        "examples": sorted(x for p in parts for x in p.missing_examples)[:MISSING_EXAMPLES],
        "matched_cycle_count": sum(p.matched_missing for p in parts),
    }
    report["provenance"] = dict(parts[0].provenance)
    return ScoreRun(report, cols)


def score_files(
    data_dir: str | Path,
    predictions_path: str | Path,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    instances_out: IO[str] | None = None,
) -> ScoreRun:
    """Score a predictions file against a release folder, with provenance in the report (streamed; see :func:`score_part`)."""
    part = score_part(data_dir, predictions_path, threshold=threshold, n_resamples=n_resamples, seed=seed,
                      instances_out=instances_out)
    return report_from_parts([part])


def sha256_file(path: str | Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
