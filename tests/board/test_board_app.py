"""The leaderboard app's pages and its submission path, without a browser; the Space folder; the commands."""

from __future__ import annotations

import configparser
import os
import re
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from rend_equiv_dataset.board.app import AppSettings, choices, filter_rows, handle_submission, model_markdown, model_plots, table_html
from rend_equiv_dataset.board.store import TABLES, Kind, read_board, submit_payload
from rend_equiv_dataset.cli import main
from rend_equiv_dataset.errors import InputError

from .payloads import figure_payload

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2026, 1, 2, tzinfo=timezone.utc)


def names_in(page: str) -> list[str]:
    return re.findall(r'<tr class="model-row" data-model="([^"]+)">', page)


def test_table_sorts_filters_and_shows_intervals(tmp_path):
    board = tmp_path / "board"
    submit_payload(board, Kind.FIGURES, figure_payload("org/big", "1", 0.6, model_type="open", params_billions=70.0), now=T0)
    submit_payload(board, Kind.FIGURES, figure_payload("org/small", "2", 0.8, model_type="open", params_billions=2.0), now=T0)
    submit_payload(board, Kind.FIGURES, figure_payload("api/x", "3", 0.7, model_type="closed"), now=T0)
    rows = read_board(board).rows(Kind.FIGURES)
    table = TABLES[Kind.FIGURES]
    page = table_html(table, rows)
    assert names_in(page) == ["org/small", "api/x", "org/big"]
    assert "0.800 [0.750, 0.850]" in page and '<a href="?model=org/small">org/small</a>' in page
    rows[1]["ecs_auroc"] = 0.99
    assert names_in(table_html(table, rows, "ecs_auroc"))[0] == rows[1]["model_name"]
    assert choices(rows) == (["all", "closed", "open"], ["all", "< 3B", "15–80B"])
    assert [r["model_name"] for r in filter_rows(rows, "open", "15–80B")] == ["org/big"]
    assert names_in(table_html(table, filter_rows(rows, "closed"))) == ["api/x"]
    assert "no submissions yet" in table_html(table, [])


def test_model_page_lists_every_submission_latest_first(tmp_path):
    board = tmp_path / "board"
    submit_payload(board, Kind.FIGURES, figure_payload("org/a", "1", 0.5, model_sha="abc"), {"risk_coverage.png": b"\x89PNG"}, now=T0)
    submit_payload(board, Kind.FIGURES, figure_payload("org/a", "2", 0.9, model_sha="def"), {"reliability.png": b"\x89PNG"},
                   now=T0 + timedelta(days=1))
    snapshot = read_board(board)
    text = model_markdown(snapshot, "org/a")
    assert '| model_sha | `"def"` |' in text and "### Submissions (2, latest first)" in text
    assert text.index("| 2026-01-03T00:00:00Z | 0.900") < text.index("| 2026-01-02T00:00:00Z | 0.500")
    plots = model_plots(snapshot, "org/a")
    assert plots[0] is None and plots[1] is None and plots[2].endswith("results_2026-01-03T00-00-00.000000Z/reliability.png")
    assert model_markdown(snapshot, "nobody") == "No submission for `nobody`."


def test_uploads_are_validated_scored_and_added(tmp_path, release, predictions):
    board = tmp_path / "board"
    settings = AppSettings.checked(board, release, max_upload_bytes=10**6, resamples=20)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"render_id": "s0-0000/base", "output": "1"}\n{"render_id": "s0-0000/base", "output": "2"}\n')
    status = handle_submission(settings, str(bad), "org/bad")
    assert status.startswith("error: bad.jsonl") and "\n" not in status and str(tmp_path) not in status
    assert handle_submission(settings, str(predictions["perfect"]), "../evil").startswith("error: field 'model name'")
    assert handle_submission(settings, None, "org/x") == "error: field 'predictions': choose a predictions JSONL file to upload"
    small = AppSettings.checked(board, release, max_upload_bytes=100, resamples=20)
    assert "over the 100-byte upload limit" in handle_submission(small, str(predictions["perfect"]), "org/x")
    assert not board.exists() or read_board(board).version == 0
    assert handle_submission(settings, str(predictions["perfect"]), " org/good ") == "submitted org/good: accuracy 1.000"
    assert [r["model_name"] for r in read_board(board).rows(Kind.FIGURES)] == ["org/good"]
    closed = AppSettings.checked(board, None)
    assert handle_submission(closed, str(predictions["perfect"]), "org/y").startswith("error: this board takes no uploads")


def test_settings_refuse_a_release_that_does_not_read(tmp_path):
    with pytest.raises(InputError):
        AppSettings.checked(tmp_path / "board", tmp_path / "nothing")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="not a folder"):
        AppSettings.checked(tmp_path / "file")


def test_submit_records_the_template_fields(tmp_path, release, predictions):
    board = tmp_path / "board"
    args = ["submit", "--data", str(release), "--predictions", str(predictions["offset"]), "--model-name", "org/m", "--leaderboard", str(board),
            "--resamples", "50", "--revision", "0123abc", "--dtype", "bfloat16", "--model-type", "open", "--params", "7"]
    assert main(args) == 0
    snapshot = read_board(board)
    payload = snapshot.load(snapshot.history(Kind.FIGURES, "org/m")[-1])
    config, results = payload["config"], payload["results"]["rend_equiv"]
    assert (config["model_sha"], config["model_dtype"], config["model_type"], config["params_billions"]) == ("0123abc", "bfloat16", "open", 7.0)
    assert {"python", "numpy", "datasets", "evaluate"} <= set(config["versions"]) and len(config["dataset_fingerprint"]) == 64
    assert config["generation"]["backend"] == "simulated"
    for metric in ("accuracy", "ecs_auroc", "ibem_detection", "combined_auroc"):
        low, high = results[f"{metric}_ci"]
        assert low <= results[metric] <= high
        assert results[f"{metric}_stderr"] == pytest.approx((high - low) / (2 * 1.959963984540054))
    assert {p.name for p in snapshot.assets(snapshot.history(Kind.FIGURES, "org/m")[-1]).iterdir()} == {
        "detection_by_edit.png", "risk_coverage.png", "reliability.png", "report.md"}
    # a second, different predictions file for the same model: still one row, two submissions
    args[args.index(str(predictions["offset"]))] = str(predictions["scale"])
    assert main(args) == 0
    rows = read_board(board).rows(Kind.FIGURES)
    assert [(r["model_name"], r["submissions"]) for r in rows] == [("org/m", 2)]


@pytest.mark.parametrize("extra", [["--params", "-1"], ["--params", "nan"], ["--dtype", " "], ["--model-type", "x" * 200]])
def test_submit_refuses_bad_model_fields(tmp_path, release, predictions, extra):
    board = tmp_path / "board"
    args = ["submit", "--data", str(release), "--predictions", str(predictions["perfect"]), "--model-name", "m", "--leaderboard", str(board)]
    if extra[0] == "--params":  # refused by the option parser
        with pytest.raises(SystemExit) as exit_status:
            main([*args, *extra])
        assert exit_status.value.code == 2
    else:
        assert main([*args, *extra]) == 2
    assert not board.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write to a read-only folder (the next test covers the check)")
def test_submit_to_a_read_only_folder_exits_2(tmp_path, release, predictions, capsys):
    board = tmp_path / "board"
    submit_payload(board, Kind.FIGURES, figure_payload("a", "a", 0.5))
    board.chmod(0o555)
    try:
        args = ["submit", "--data", str(release), "--predictions", str(predictions["perfect"]), "--model-name", "m", "--leaderboard", str(board)]
        assert main(args) == 2
    finally:
        board.chmod(0o755)
    assert "read-only" in capsys.readouterr().err


def test_submit_to_a_folder_it_may_not_write_exits_2(tmp_path, release, predictions, capsys, monkeypatch):
    board = tmp_path / "board"
    board.mkdir()
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != board)
    args = ["submit", "--data", str(release), "--predictions", str(predictions["perfect"]), "--model-name", "m", "--leaderboard", str(board)]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"folder {board} is read-only" in err
    assert list(board.iterdir()) == []


def test_space_folder_matches_the_package():
    readme = (ROOT / "space" / "README.md").read_text()
    header = readme.split("---")[1]
    assert "sdk: gradio" in header and "app_file: app.py" in header
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    wanted = {line.strip() for line in config["options"]["install_requires"].strip().splitlines()}
    wanted |= {line.strip() for line in config["options.extras_require"]["space"].strip().splitlines()}
    listed = {line.strip() for line in (ROOT / "space" / "requirements.txt").read_text().splitlines() if line.strip() and not line.startswith("#")}
    assert listed == wanted


def test_importing_the_package_does_not_import_gradio():
    code = "import rend_equiv_dataset, rend_equiv_dataset.board.app, rend_equiv_dataset.cli, sys; print('gradio' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "False"


def test_serve_refuses_bad_options(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    assert main(["leaderboard", "serve", "--leaderboard", str(tmp_path / "file")]) == 2
    assert main(["leaderboard", "serve", "--leaderboard", str(tmp_path / "b"), "--data", str(tmp_path / "none")]) == 2
    for option, value in (("--resamples", "-1"), ("--port", "70000")):
        with pytest.raises(SystemExit) as exit_info:
            main(["leaderboard", "serve", "--leaderboard", str(tmp_path / "b"), option, value])
        assert exit_info.value.code == 2
    assert not (tmp_path / "b").exists()


def test_space_app_builds_the_same_app(tmp_path, monkeypatch):
    pytest.importorskip("gradio", reason="the Space app needs Gradio (pip install '.[space]')")
    import runpy

    board = tmp_path / "board"
    submit_payload(board, Kind.FIGURES, figure_payload("org/a", "1", 0.5), now=T0)
    monkeypatch.setenv("REND_EQUIV_LEADERBOARD", str(board))
    monkeypatch.delenv("REND_EQUIV_DATA", raising=False)
    namespace = runpy.run_path(str(ROOT / "space" / "app.py"), run_name="space_app")
    assert namespace["settings"] == AppSettings(board, None, 50 * 2**20, 10_000)
    assert type(namespace["demo"]).__name__ == "Blocks"
