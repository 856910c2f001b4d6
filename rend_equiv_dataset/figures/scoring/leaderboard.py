"""Figure-reading submissions: a scored predictions file as a results file of the Hugging Face leaderboard shape.

A submission is scored like ``rend-equiv score`` and stored by
:func:`rend_equiv_dataset.board.store.submit_payload` as
``LEADERBOARD/results/<org>/<name>/results_<UTC time>.json``::

    {"config": {"model_name", "model_sha", "model_dtype", "model_type", "params_billions",
                "dataset_fingerprint", "package_version", "versions", "generation", ...},
     "results": {"rend_equiv": {"accuracy", "accuracy_ci", "accuracy_stderr", ...}}}

the shape the Hugging Face leaderboard template reads (``config.model_name``,
``config.model_sha``, ``config.model_dtype``, ``results[task][metric]``).
Each headline metric carries its 95% cluster-bootstrap interval (``_ci``) and a
standard error read off that interval (``_stderr``: its width over 2 × 1.96).
The table keeps one row per model, its latest submission; every earlier one
stays in the model's folder and in the board's manifest.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rend_equiv_dataset.board.store import Kind, check_board_dir, submit_payload
from rend_equiv_dataset.board.store import check_model_name, library_versions, stderr_of
from rend_equiv_dataset.figures.scoring.pipeline import ScoreRun, score_files

TASK = "rend_equiv"


@dataclass(frozen=True)
class ModelInfo:
    """What the submitter says about the model; ``None`` falls back to the predictions' ``meta`` line."""

    revision: str | None = None
    dtype: str | None = None
    model_type: str | None = None
    params_billions: float | None = None


def _metric(results: dict[str, Any], key: str, value: Any, ci: Any) -> None:
    results[key] = value
    results[f"{key}_ci"] = list(ci) if ci else None
    results[f"{key}_stderr"] = stderr_of(ci)


def results_payload(run: ScoreRun, model_name: str, model: ModelInfo = ModelInfo()) -> dict[str, Any]:
    """The results file of one scored run: config (model and provenance) and every headline with its interval."""
    check_model_name(model_name)
    report = run.report
    provenance = report["provenance"]
    meta = provenance.get("predictions_meta") or {}
    signals, ibem = report["signals"], report["ibem"]
    results: dict[str, Any] = {}
    _metric(results, "accuracy", report["accuracy"], report.get("accuracy_ci"))
    _metric(results, "ecs_auroc", signals["ecs"]["auroc"], signals["ecs"].get("auroc_ci"))
    _metric(results, "ibem_detection", ibem["detection"]["ecs"], (ibem.get("detection_ci") or {}).get("ecs"))
    _metric(results, "combined_auroc", signals["combined"]["auroc"], signals["combined"].get("auroc_ci"))
    _metric(results, "rea_auroc", signals["rea"]["auroc"], signals["rea"].get("auroc_ci"))
    _metric(results, "ibem_rate", ibem["rate"], ibem.get("rate_ci"))
    _metric(results, "ibem_detection_at_threshold", ibem["at_threshold"]["ecs"], (ibem.get("at_threshold_ci") or {}).get("ecs"))
    _metric(results, "no_residual_fraction", report["no_residual_fraction"], (report.get("no_residual") or {}).get("ci"))
    results.update({
        "matched_fpr": ibem["matched_fpr"],
        "ibem_n": ibem["n"],
        "n_instances": report["n_instances"],
        "missing_renderings": report["missing"]["count"],
        "detection_by_edit": {g: {"rate": row["rate"], "ci": row.get("ci"), "predicted": row.get("predicted"), "n": row["n"]}
                              for g, row in report["detection_by_edit"].items()},
    })
    generation = {k: meta[k] for k in ("model", "backend", "generation", "prompt_template_hash", "seed") if k in meta}
    config = {
        "model_name": model_name,
        "model_sha": model.revision or meta.get("revision") or "unknown",
        "model_dtype": model.dtype or meta.get("dtype") or (meta.get("generation") or {}).get("dtype") or "unknown",
        "model_type": model.model_type,
        "params_billions": model.params_billions,
        "submission_sha256": provenance["predictions_sha256"],
        "predictions_sha256": provenance["predictions_sha256"],
        "dataset_fingerprint": provenance["dataset_fingerprint"],
        "package_version": provenance["package_version"],
        "versions": library_versions(),
        "generation": generation,
        "threshold": report["threshold"],
        "seeds": report["seeds"],
        "bootstrap": report.get("bootstrap"),
    }
    return {"config": config, "results": {TASK: results}}


def report_assets(run: ScoreRun) -> dict[str, bytes]:
    """The model page's files: the report's three plots and its Markdown text."""
    from rend_equiv_dataset.figures.scoring.plots import write_plots
    from rend_equiv_dataset.figures.scoring.report import markdown

    with tempfile.TemporaryDirectory() as tmp:
        paths = write_plots(run, Path(tmp))
        assets = {path.name: path.read_bytes() for path in paths}
    assets["report.md"] = markdown(run.report).encode("utf-8")
    return assets


def check_leaderboard_dir(leaderboard: str | Path) -> Path:
    """The leaderboard folder a submission may write (see :func:`rend_equiv_dataset.board.store.check_board_dir`)."""
    return check_board_dir(leaderboard)


def submit(run: ScoreRun, model_name: str, leaderboard: str | Path, model: ModelInfo = ModelInfo()) -> Path:
    """Store one scored run on the leaderboard and publish the new board; returns the results file path."""
    payload = results_payload(run, model_name, model)
    check_board_dir(leaderboard)
    return submit_payload(leaderboard, Kind.FIGURES, payload, report_assets(run))


@dataclass(frozen=True)
class ReleaseUploads:
    """The leaderboard app's scorer of uploads (:class:`rend_equiv_dataset.board.app.UploadScorer`).

    An upload is scored against ``data`` exactly like ``rend-equiv score`` and
    submitted like ``rend-equiv submit``.
    """

    data: Path
    resamples: int = 10_000

    @classmethod
    def checked(cls, data: str | Path, resamples: int = 10_000) -> ReleaseUploads:
        """A scorer over a folder that reads as a release (refused now, not at the first upload)."""
        from rend_equiv_dataset.figures.release.read import dataset_fingerprint

        release = Path(data)
        dataset_fingerprint(release)
        return cls(release, resamples)

    def __call__(self, upload: Path, model_name: str, leaderboard: Path) -> str:
        """Score and submit ``upload``; returns ``accuracy <value>``."""
        run = score_files(self.data, upload, n_resamples=self.resamples)
        submit(run, model_name, leaderboard)
        return f"accuracy {run.report['accuracy']:.3f}"
