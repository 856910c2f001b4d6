"""``rend-equiv score | simulate | submit`` end to end on a small release folder (docs/design.md §7.1, §7.4)."""

import json

import pytest
from .release_fixture import TINY_OUTPUTS, tiny_rows, write_predictions, write_release

from rend_equiv_dataset.board.store import Kind, read_board
from rend_equiv_dataset.cli import main
from rend_equiv_dataset.figures.release.read import dataset_fingerprint, load_renderings
from rend_equiv_dataset.figures.scoring.synthetic import synthetic_rows

REPORT_KEYS = {"n_instances", "accuracy", "threshold", "ibem", "signals", "detection_by_edit", "no_residual_fraction"}
INSTANCE_KEYS = {"instance_id", "correct", "rea", "ecs", "flagged", "ibem", "residuals"}


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    return write_release(tiny_rows(), tmp_path_factory.mktemp("tiny") / "release")


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    return write_release(synthetic_rows(n_instances=30, seeds=(0, 1), rerenders=3), tmp_path_factory.mktemp("syn") / "release")


def test_release_round_trip_and_fingerprint(release):
    renderings = load_renderings(release)
    assert len(renderings) == len(tiny_rows())
    assert dataset_fingerprint(release) == dataset_fingerprint(renderings)


def test_score_writes_every_artifact(release, tmp_path, capsys):
    preds = write_predictions(TINY_OUTPUTS, tmp_path / "p.jsonl", meta={"model": "hand", "dataset_fingerprint": dataset_fingerprint(release)})
    out = tmp_path / "report"
    assert main(["score", "--data", str(release), "--predictions", str(preds), "--out", str(out), "--resamples", "200"]) == 0
    report = json.loads((out / "report.json").read_text())
    assert REPORT_KEYS <= set(report)
    assert {"n", "rate", "detection", "matched_fpr"} <= set(report["ibem"])
    assert {"ecs", "rea", "combined"} <= set(report["ibem"]["detection"])
    assert all({"auroc", "rc_auc", "ece"} <= set(v) for v in report["signals"].values())
    assert all({"flagged", "n", "rate", "ci", "predicted"} <= set(v) for v in report["detection_by_edit"].values())
    assert report["missing"]["count"] == 1  # s0-i4/style3
    assert report["provenance"]["predictions_meta"]["model"] == "hand"
    lines = [json.loads(x) for x in (out / "instances.jsonl").read_text().splitlines()]
    assert len(lines) == 5 and all(INSTANCE_KEYS <= set(x) for x in lines)
    assert "Table 1" in (out / "report.md").read_text()
    for name in ("detection_by_edit.png", "risk_coverage.png", "reliability.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # a second run replaces the report folder in place
    assert main(["score", "--data", str(release), "--predictions", str(preds), "--out", str(out), "--resamples", "50"]) == 0
    assert json.loads((out / "report.json").read_text())["bootstrap"]["n_resamples"] == 50


def test_simulate_then_score(synthetic, tmp_path):
    preds = tmp_path / "sim.jsonl"
    assert main(["simulate", "--data", str(synthetic), "--reader", "scale:1.5", "--seed", "1", "--out", str(preds)]) == 0
    meta = json.loads(preds.read_text().splitlines()[0])["meta"]
    assert meta["dataset_fingerprint"] == dataset_fingerprint(synthetic)
    out = tmp_path / "report"
    assert main(["score", "--data", str(synthetic), "--predictions", str(preds), "--out", str(out), "--resamples", "100"]) == 0
    table = json.loads((out / "report.json").read_text())["detection_by_edit"]
    assert table["scale"]["rate"] == 0.0 and table["zoom"]["rate"] == 0.0
    assert table["offset"]["rate"] == table["offset"]["predicted"]


def test_submit_is_idempotent(synthetic, tmp_path):
    preds = tmp_path / "sim.jsonl"
    main(["simulate", "--data", str(synthetic), "--reader", "0.5*offset:30+0.5*perfect", "--out", str(preds)])
    board = tmp_path / "board"
    args = ["submit", "--data", str(synthetic), "--predictions", str(preds), "--model-name", "org/sim-1", "--leaderboard", str(board), "--resamples", "100"]
    assert main(args) == 0
    snapshot = {p.relative_to(board): p.read_bytes() for p in board.rglob("*") if p.is_file()}
    assert main(args) == 0
    assert {p.relative_to(board): p.read_bytes() for p in board.rglob("*") if p.is_file()} == snapshot
    results = [p for p in snapshot if p.name.startswith("results_")]
    assert len(results) == 1
    payload = json.loads(snapshot[results[0]])
    assert payload["config"]["model_name"] == "org/sim-1"
    assert {"package_version", "dataset_fingerprint", "predictions_sha256"} <= set(payload["config"])
    assert "accuracy" in payload["results"]["rend_equiv"]
    rows = json.loads(snapshot[type(results[0])("leaderboard.json")])
    assert [r["model_name"] for r in rows] == ["org/sim-1"]
    # a second model joins the table
    perfect = tmp_path / "perfect.jsonl"
    main(["simulate", "--data", str(synthetic), "--reader", "perfect", "--out", str(perfect)])
    assert main(["submit", "--data", str(synthetic), "--predictions", str(perfect), "--model-name", "perfect", "--leaderboard", str(board),
                 "--resamples", "0"]) == 0
    assert [r["model_name"] for r in read_board(board).rows(Kind.FIGURES)] == ["perfect", "org/sim-1"]
    rows = json.loads((board / "leaderboard.json").read_text())  # the reader above brought the table files up to date
    assert [r["model_name"] for r in rows] == ["perfect", "org/sim-1"]
    assert "| 1 | perfect |" in (board / "leaderboard.md").read_text()


BAD = {
    "truncated": '{"render_id": "s0-i1/base", "output": "15"}\n{"render_id": "s0-i1/sty',
    "unknown_id": '{"render_id": "nope", "output": "1"}\n',
    "nan": '{"render_id": "s0-i1/base", "output": "1", "logprob": NaN}\n',
    "duplicate": '{"render_id": "s0-i1/base", "output": "1"}\n{"render_id": "s0-i1/base", "output": "2"}\n',
    "empty": "",
    "other_dataset": '{"meta": {"dataset_fingerprint": "' + "f" * 64 + '"}}\n{"render_id": "s0-i1/base", "output": "1"}\n',
    "wrong_type": '{"render_id": "s0-i1/base", "output": ["1"]}\n',
}


@pytest.mark.parametrize("name", sorted(BAD))
@pytest.mark.parametrize("command", ["score", "submit"])
def test_bad_predictions_exit_2_and_write_nothing(release, tmp_path, capsys, name, command):
    preds = tmp_path / "bad.jsonl"
    preds.write_text(BAD[name], encoding="utf-8")
    target = tmp_path / "target"
    tail = ["--out", str(target)] if command == "score" else ["--model-name", "m", "--leaderboard", str(target)]
    assert main([command, "--data", str(release), "--predictions", str(preds), *tail]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(preds) in err
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["bad.jsonl"]


@pytest.mark.parametrize(
    "extra",
    [["--threshold", "0"], ["--threshold", "1.5"], ["--threshold", "nan"], ["--resamples", "-1"]],
)
def test_bad_options(release, tmp_path, extra):
    preds = write_predictions(TINY_OUTPUTS, tmp_path / "p.jsonl")
    try:
        status = main(["score", "--data", str(release), "--predictions", str(preds), "--out", str(tmp_path / "r"), *extra])
    except SystemExit as exit_info:  # argparse refuses a count that is not one
        status = exit_info.code
    assert status == 2
    assert not (tmp_path / "r").exists()


def test_refuses_to_replace_a_folder_that_is_not_a_report(release, tmp_path):
    preds = write_predictions(TINY_OUTPUTS, tmp_path / "p.jsonl")
    keep = tmp_path / "precious"
    keep.mkdir()
    (keep / "notes.txt").write_text("keep me")
    assert main(["score", "--data", str(release), "--predictions", str(preds), "--out", str(keep)]) == 2
    assert (keep / "notes.txt").read_text() == "keep me"


@pytest.mark.parametrize("case", ["missing", "file", "no_card"])
def test_bad_data_folder(tmp_path, case):
    preds = write_predictions(TINY_OUTPUTS, tmp_path / "p.jsonl")
    data = tmp_path / "data"
    if case == "file":
        data.write_text("x")
    elif case == "no_card":
        data.mkdir()
    assert main(["score", "--data", str(data), "--predictions", str(preds), "--out", str(tmp_path / "r")]) == 2
    assert not (tmp_path / "r").exists()


def test_bad_model_name(release, tmp_path):
    preds = write_predictions(TINY_OUTPUTS, tmp_path / "p.jsonl")
    assert main(["submit", "--data", str(release), "--predictions", str(preds), "--model-name", "../evil", "--leaderboard", str(tmp_path / "b")]) == 2
    assert not (tmp_path / "b").exists()


def test_simulate_bad_reader(release, tmp_path):
    assert main(["simulate", "--data", str(release), "--reader", "scale:two", "--out", str(tmp_path / "p.jsonl")]) == 2
    assert not (tmp_path / "p.jsonl").exists()


def test_leaderboard_refuses_another_dataset(release, synthetic, tmp_path):
    board = tmp_path / "board"
    tiny = write_predictions(TINY_OUTPUTS, tmp_path / "tiny.jsonl")
    assert main(["submit", "--data", str(release), "--predictions", str(tiny), "--model-name", "a", "--leaderboard", str(board), "--resamples", "0"]) == 0
    before = {p: p.read_bytes() for p in board.rglob("*") if p.is_file()}
    other = tmp_path / "other.jsonl"
    main(["simulate", "--data", str(synthetic), "--reader", "perfect", "--out", str(other)])
    assert main(["submit", "--data", str(synthetic), "--predictions", str(other), "--model-name", "b", "--leaderboard", str(board), "--resamples", "0"]) == 2
    assert {p: p.read_bytes() for p in board.rglob("*") if p.is_file()} == before


def test_leaderboard_with_a_corrupt_results_file_is_refused(release, tmp_path):
    board = tmp_path / "board"
    (board / "results" / "x").mkdir(parents=True)
    (board / "results" / "x" / "results_000000000000.json").write_text("{not json")
    tiny = write_predictions(TINY_OUTPUTS, tmp_path / "tiny.jsonl")
    assert main(["submit", "--data", str(release), "--predictions", str(tiny), "--model-name", "a", "--leaderboard", str(board)]) == 2
    assert not (board / "leaderboard.json").exists()
