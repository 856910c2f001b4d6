"""Leaderboard submissions in the Hugging Face results shape, regenerated atomically.

A submission is scored like ``rend-equiv score`` and stored as
``LEADERBOARD/results/<model_name>/results_<sha12>.json`` with
``{"config": {"model_name", ...provenance}, "results": {"rend_equiv": {...}}}``
(the shape of the Open LLM Leaderboard results files). The file holds no
timestamp, and its name comes from the predictions' sha256, so resubmitting
the same file rewrites the same bytes: submission is idempotent. Then
``leaderboard.json`` and ``leaderboard.md`` are regenerated from every
results file. A leaderboard ranks one release: a submission for another
dataset fingerprint is refused. Everything is validated before anything is written, and every
file is written to a temporary name and renamed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import atomic_write_text
from rend_equiv_dataset.figures.scoring.pipeline import ScoreRun

TASK = "rend_equiv"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?$")
COLUMNS = ("accuracy", "auroc_combined", "auroc_ecs", "auroc_rea", "ibem_rate", "ibem_detection_ecs", "no_residual_fraction")


def check_model_name(name: str) -> str:
    """``name`` or ``org/name``: letters, digits, ``.``, ``_``, ``-``; at most 96 characters.

    >>> check_model_name("Qwen/Qwen2.5-VL-7B-Instruct")
    'Qwen/Qwen2.5-VL-7B-Instruct'
    >>> check_model_name("../x")
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field '--model-name': expected NAME or ORG/NAME of letters, digits, '.', '_', '-' (at most 96 characters), got '../x'
    """
    if not isinstance(name, str) or len(name) > 96 or not _NAME.match(name) or ".." in name:
        raise InputError(
            f"expected NAME or ORG/NAME of letters, digits, '.', '_', '-' (at most 96 characters), got {name!r}",
            field="--model-name",
        )
    return name


def results_payload(run: ScoreRun, model_name: str) -> dict[str, Any]:
    """The results file: config (model and provenance) and the headline results."""
    report = run.report
    provenance = report["provenance"]
    signals = report["signals"]
    results = {
        "accuracy": report["accuracy"],
        "accuracy_ci": report["accuracy_ci"],
        "auroc_combined": signals["combined"]["auroc"],
        "auroc_ecs": signals["ecs"]["auroc"],
        "auroc_rea": signals["rea"]["auroc"],
        "ibem_n": report["ibem"]["n"],
        "ibem_rate": report["ibem"]["rate"],
        "ibem_detection_ecs": report["ibem"]["at_threshold"]["ecs"],
        "ibem_detection_matched_fpr": report["ibem"]["detection"],
        "matched_fpr": report["ibem"]["matched_fpr"],
        "no_residual_fraction": report["no_residual_fraction"],
        "detection_by_edit": {g: row["rate"] for g, row in report["detection_by_edit"].items()},
        "n_instances": report["n_instances"],
        "missing_renderings": report["missing"]["count"],
    }
    return {
        "config": {
            "model_name": model_name,
            "package_version": provenance["package_version"],
            "dataset_fingerprint": provenance["dataset_fingerprint"],
            "predictions_sha256": provenance["predictions_sha256"],
            "predictions_meta": provenance["predictions_meta"],
            "threshold": report["threshold"],
            "seeds": report["seeds"],
        },
        "results": {TASK: results},
    }


def _dumps(payload: Any) -> str:
    from rend_equiv_dataset.figures.scoring.report import clean

    return json.dumps(clean(payload), indent=2, sort_keys=True, allow_nan=False) + "\n"


def read_results(leaderboard: Path) -> list[dict[str, Any]]:
    """Every results file under ``leaderboard/results``, validated, sorted by path."""
    rows = []
    for path in sorted((leaderboard / "results").glob("**/results_*.json")):
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
            config, results = payload["config"], payload["results"][TASK]
            rows.append({"model_name": config["model_name"], "dataset_fingerprint": config["dataset_fingerprint"], "predictions_sha256": config["predictions_sha256"], **{k: results[k] for k in COLUMNS}})
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise InputError(f"not a results file of this leaderboard: {err!r}", file=path) from None
    return rows


def table_markdown(rows: list[dict[str, Any]]) -> str:
    """The leaderboard as a Markdown table."""
    header = "| rank | model | " + " | ".join(COLUMNS) + " |"
    lines = ["# REND-EQUIV leaderboard", "", header, "|" + " --- |" * (len(COLUMNS) + 2)]
    for rank, row in enumerate(rows, start=1):
        values = " | ".join("—" if row[k] is None else f"{row[k]:.3f}" for k in COLUMNS)
        lines.append(f"| {rank} | {row['model_name']} | {values} |")
    return "\n".join(lines) + "\n"


def check_leaderboard_dir(leaderboard: str | Path) -> Path:
    """The leaderboard folder: created if missing, its parent must exist; existing results must read."""
    folder = Path(leaderboard)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder} exists and is not a folder", field="--leaderboard")
    if not folder.resolve().parent.is_dir():
        raise InputError(f"parent folder {folder.resolve().parent} does not exist", field="--leaderboard")
    if folder.is_dir():
        read_results(folder)
    return folder


def submit(run: ScoreRun, model_name: str, leaderboard: str | Path) -> Path:
    """Store one submission and regenerate the tables; returns the results file path."""
    check_model_name(model_name)
    folder = check_leaderboard_dir(leaderboard)
    payload = results_payload(run, model_name)
    fingerprint = payload["config"]["dataset_fingerprint"]
    others = {r["dataset_fingerprint"] for r in read_results(folder)} if folder.is_dir() else set()
    if others - {fingerprint}:
        raise InputError(
            f"this leaderboard ranks dataset {sorted(others)[0][:16]}…; the predictions are for {fingerprint[:16]}…",
            field="--leaderboard",
        )
    path = folder / "results" / model_name / f"results_{payload['config']['predictions_sha256'][:12]}.json"
    atomic_write_text(path, _dumps(payload))
    rows = sorted(read_results(folder), key=lambda r: (-(r["accuracy"] or 0.0), r["model_name"], r["predictions_sha256"]))
    atomic_write_text(folder / "leaderboard.json", _dumps(rows))
    atomic_write_text(folder / "leaderboard.md", table_markdown(rows))
    return path
