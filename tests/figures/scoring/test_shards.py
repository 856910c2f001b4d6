"""``score --shard I/N`` and ``score --merge``: the merged report equals the unsharded one, byte for byte."""

import json
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.figures.release.read import dataset_fingerprint, load_renderings
from rend_equiv_dataset.figures.scoring.pipeline import score_files, score_predictions
from rend_equiv_dataset.figures.scoring.predictions import Prediction, read_predictions
from rend_equiv_dataset.figures.scoring.stream import JoinedRun
from rend_equiv_dataset.figures.scoring.synthetic import synthetic_rows

from .release_fixture import TINY_OUTPUTS, tiny_rows, write_predictions, write_release

FILES = ("report.json", "instances.jsonl", "report.md", "risk_coverage.png", "reliability.png", "detection_by_edit.png")
READER = "0.4*perfect+0.2*scale:1.3+0.2*permute:swap+0.2*noise:0.1"


def write_release_with_matched(rows, matched, folder: Path) -> Path:
    import datasets

    from rend_equiv_dataset.hub import card_metadata, write_card, write_config

    folder.mkdir(parents=True)
    written = [write_config(folder, "renderings", datasets.Dataset.from_list(rows)),
               write_config(folder, "matched_cycle_renderings", datasets.Dataset.from_list(matched))]
    write_card(folder, card_metadata(written, default="renderings"), "Test release.")
    return folder


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """A synthetic release with a matched set, a simulated predictions file with lines dropped, and its full report."""
    root = tmp_path_factory.mktemp("shards")
    matched = [{**r, "render_id": "m-" + r["render_id"], "instance_id": "m-" + r["instance_id"]}
               for r in synthetic_rows(n_instances=6, seeds=(0,), rerenders=2, label_share=1.0, cycle=True)]
    release = write_release_with_matched(synthetic_rows(n_instances=25, seeds=(0, 1, 2), rerenders=3), matched, root / "release")
    full = root / "p-full.jsonl"
    assert main(["simulate", "--data", str(release), "--reader", READER, "--out", str(full)]) == 0
    lines = full.read_text().splitlines()
    preds = root / "p.jsonl"
    preds.write_text("\n".join(line for k, line in enumerate(lines) if k % 17 != 5) + "\n")
    report = root / "report"
    assert main(["score", "--data", str(release), "--predictions", str(preds), "--out", str(report), "--resamples", "300", "--seed", "3"]) == 0
    return release, preds, report


def shard_and_merge(release, preds, root: Path, count: int, order) -> Path:
    parts = []
    for index in range(count):
        part = root / f"part{index}"
        args = ["score", "--data", str(release), "--predictions", str(preds), "--out", str(part), "--resamples", "300", "--seed", "3"]
        assert main([*args, "--shard", f"{index}/{count}"]) == 0
        parts.append(part)
    merged = root / "merged"
    assert main(["score", "--merge", *(str(parts[k]) for k in order), "--out", str(merged)]) == 0
    return merged


@pytest.mark.parametrize("count, order", [(1, [0]), (3, [2, 0, 1]), (4, [0, 1, 2, 3])])
def test_merged_shards_equal_the_unsharded_report(scored, tmp_path, count, order):
    release, preds, report = scored
    merged = shard_and_merge(release, preds, tmp_path, count, order)
    for name in FILES:
        assert (merged / name).read_bytes() == (report / name).read_bytes(), name
    data = json.loads((merged / "report.json").read_text())
    assert data["missing"]["count"] > 0 and data["matched_cycle"]["all"]["n"] == 6


def test_more_shards_than_instances(tmp_path):
    release = write_release(tiny_rows(), tmp_path / "release")
    preds = write_predictions(TINY_OUTPUTS, tmp_path / "p.jsonl")
    report = tmp_path / "report"
    assert main(["score", "--data", str(release), "--predictions", str(preds), "--out", str(report), "--resamples", "300", "--seed", "3"]) == 0
    merged = shard_and_merge(release, preds, tmp_path, 8, list(range(8)))
    assert json.loads((tmp_path / "part7" / "part.json").read_text())["n_instances"] == 0
    for name in FILES:
        assert (merged / name).read_bytes() == (report / name).read_bytes(), name


def test_merge_refuses_incomplete_or_disagreeing_parts(scored, tmp_path, capsys):
    release, preds, _ = scored
    base = ["score", "--data", str(release), "--predictions", str(preds), "--resamples", "50"]
    for index in (0, 1):
        assert main([*base, "--out", str(tmp_path / f"a{index}"), "--shard", f"{index}/3"]) == 0
    assert main([*base, "--seed", "1", "--out", str(tmp_path / "b2"), "--shard", "2/3"]) == 0
    cases = [
        ([tmp_path / "a0", tmp_path / "a1"], "shard 2/3 is missing"),
        ([tmp_path / "a0", tmp_path / "a0", tmp_path / "a1"], "given twice"),
        ([tmp_path / "a0", tmp_path / "a1", tmp_path / "b2"], "settings differ"),
        ([tmp_path / "a0", tmp_path], "not a score part folder"),
    ]
    for parts, message in cases:
        assert main(["score", "--merge", *map(str, parts), "--out", str(tmp_path / "merged")]) == 2
        assert message in capsys.readouterr().err
        assert not (tmp_path / "merged").exists()
    assert main(["score", "--merge", str(tmp_path / "a0"), "--data", str(release), "--out", str(tmp_path / "m")]) == 2
    assert main(["score", "--out", str(tmp_path / "m"), "--predictions", str(preds)]) == 2
    assert main([*base, "--out", str(tmp_path / "m"), "--shard", "3/3"]) == 2


def test_streamed_fingerprint_is_the_release_fingerprint(scored):
    release, _, _ = scored
    with JoinedRun() as joined:
        joined.load_release(release)
        assert joined.fingerprint() == dataset_fingerprint(release)


def test_streamed_score_equals_the_in_memory_score(scored):
    release, preds, _ = scored
    renderings = load_renderings(release)
    predictions = read_predictions(preds).by_render_id
    in_memory = score_predictions(renderings, predictions, n_resamples=200, seed=5).report
    streamed = score_files(release, preds, n_resamples=200, seed=5).report
    for key in ("missing", "provenance", "matched_cycle"):
        streamed.pop(key)
        in_memory.pop(key, None)
    assert json.dumps(streamed, sort_keys=True) == json.dumps(in_memory, sort_keys=True)


def test_in_memory_runs_keep_scores_and_streamed_runs_do_not(scored):
    release, preds, _ = scored
    assert score_files(release, preds, n_resamples=0).scores == []
    rows = load_renderings(release)
    run = score_predictions(rows, {r.render_id: Prediction(render_id=r.render_id, output=r.target) for r in rows}, n_resamples=0)
    assert len(run.scores) == len(run.columns) == 75 and run.report["accuracy"] == 1.0
