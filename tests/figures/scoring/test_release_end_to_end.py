"""Scoring a tiny real release: build → simulate → score, observed detection against the theory."""

import json

import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.figures.scoring.predictions import read_predictions
from rend_equiv_dataset.figures.release.read import dataset_fingerprint, load_matched_renderings, load_renderings
from rend_equiv_dataset.figures.scoring.simulate import predicted_by_edit, simulate


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    out = tmp_path_factory.mktemp("build") / "release"
    args = ["build", "--per-family", "1", "--rerenders", "2", "--matched-cycle", "3", "--workers", "1", "--no-progress", "--out", str(out)]
    assert main(args) == 0
    return out


def _score(release, tmp_path, reader):
    preds = tmp_path / f"{reader}.jsonl"
    assert main(["simulate", "--data", str(release), "--reader", reader, "--out", str(preds)]) == 0
    out = tmp_path / f"report-{reader}"
    assert main(["score", "--data", str(release), "--predictions", str(preds), "--out", str(out), "--resamples", "200"]) == 0
    return json.loads((out / "report.json").read_text()), preds


def test_release_reads_and_fingerprint_is_stable(release):
    renderings = load_renderings(release)
    assert {r.role for r in renderings} == {"base", "rerender", "edit"}
    assert dataset_fingerprint(release) == dataset_fingerprint(list(reversed(renderings)))
    assert {r.variant for r in load_matched_renderings(release) if r.role == "edit"} >= {"swap", "cycle"}


def test_perfect_reader_on_a_real_release(release, tmp_path):
    report, preds = _score(release, tmp_path, "perfect")
    assert report["accuracy"] == 1.0 and report["ibem"]["n"] == 0
    assert report["missing"]["count"] == 0
    assert report["provenance"]["dataset_fingerprint"] == dataset_fingerprint(release)
    assert read_predictions(preds).meta["dataset_fingerprint"] == dataset_fingerprint(release)


@pytest.mark.parametrize("reader", ["scale:1.5", "offset:40", "permute:swap", "permute:cycle"])
def test_observed_detection_equals_theory(release, tmp_path, reader):
    report, _ = _score(release, tmp_path, reader)
    renderings = load_renderings(release)
    predicted = predicted_by_edit(renderings, simulate(renderings, reader))
    observed = {g: row["rate"] for g, row in report["detection_by_edit"].items() if row["n"]}
    assert observed == predicted
    assert observed.get("zoom", 0.0) == 0.0


def test_swap_versus_cycle_on_the_matched_set(release, tmp_path):
    report, _ = _score(release, tmp_path, "permute:swap")
    wrong = report["matched_cycle"]["wrong"]
    assert wrong["n"] == 3 and wrong["swap_flagged"] == 0 and wrong["cycle_flagged"] == 3
    assert report["matched_cycle"]["predicted_undetectable_ratio"] == {"6": 8.0}
