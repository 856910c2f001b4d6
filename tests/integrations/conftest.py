"""Fixtures for the harness integrations: a small local release with images and its `rend-equiv score` report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from figures.scoring.release_fixture import TINY_OUTPUTS, write_predictions

from integrations.standin import write_image_release
from rend_equiv_dataset.cli import main


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_image_release(tmp_path_factory.mktemp("release") / "rend-equiv")


@pytest.fixture(scope="module")
def score_report(release: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, list[dict]]:
    """``rend-equiv score`` on the scripted outputs: (report.json, instances.jsonl lines)."""
    work = tmp_path_factory.mktemp("score")
    predictions = write_predictions(TINY_OUTPUTS, work / "preds.jsonl")
    assert main(["score", "--data", str(release), "--predictions", str(predictions), "--resamples", "50",
                 "--out", str(work / "report")]) == 0
    report = json.loads((work / "report" / "report.json").read_text())
    lines = [json.loads(x) for x in (work / "report" / "instances.jsonl").read_text().splitlines()]
    return report, lines


def expected_metrics(report: dict, instances: list[dict]) -> dict[str, float]:
    """The harness metrics as read off `rend-equiv score`'s files (docs/design.md §7.4)."""
    def mean(key: str) -> float:
        return sum(float(x[key]) for x in instances) / len(instances)

    return {
        "accuracy": report["accuracy"],
        "ecs": mean("ecs"),
        "rea": mean("rea"),
        "flagged_rate": mean("flagged"),
        "ibem_rate": report["ibem"]["rate"],
        "ecs_ibem_detection": report["ibem"]["detection"]["ecs"],
        "ecs_auroc": report["signals"]["ecs"]["auroc"],
        "rea_auroc": report["signals"]["rea"]["auroc"],
        "combined_auroc": report["signals"]["combined"]["auroc"],
    }
