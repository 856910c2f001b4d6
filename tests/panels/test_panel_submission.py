"""``rend-equiv panel submit``: a ``panel score`` report onto the leaderboard's panel table."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from rend_equiv_dataset.board.store import Kind, read_board
from rend_equiv_dataset.cli import main


def short_records(path: Path, n: int = 60, k: int = 5, seed: int = 0) -> Path:
    rng = np.random.Generator(np.random.PCG64(seed))
    lines = []
    for i in range(n):
        y = int(rng.random() < 0.7)
        votes = [int(y if rng.random() < 0.75 else 1 - y) for _ in range(k)]
        lines.append(json.dumps({"problem_id": f"p{i // 3}", "label": y, "votes": votes, "signal": int(y if rng.random() < 0.9 else 1 - y)}))
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("panel")
    records = short_records(folder / "records.jsonl")
    out = folder / "report"
    assert main(["panel", "score", "--records", str(records), "--out", str(out), "--resamples", "200", "--permutations", "100"]) == 0
    return out


def test_panel_submit_adds_one_row_per_panel(report, tmp_path):
    board = tmp_path / "board"
    assert main(["panel", "submit", "--report", str(report), "--panel-name", "org/five-judges", "--leaderboard", str(board)]) == 0
    assert main(["panel", "submit", "--report", str(report), "--panel-name", "org/five-judges", "--leaderboard", str(board)]) == 0
    snapshot = read_board(board)
    rows = snapshot.rows(Kind.PANELS)
    expected = json.loads((report / "report.json").read_text())
    assert len(rows) == 1 and rows[0]["submissions"] == 1
    row = rows[0]
    assert row["pivotal_gain"] == expected["pivotal"]["gain"] and row["pivotal_gain_ci"] == expected["pivotal"]["ci"]
    assert row["call_rate"] == expected["call_rate"]
    assert (row["n_eff"], row["n_eff_with_signal"]) == (expected["n_eff"]["panel"], expected["n_eff"]["with_signal"])
    assert row["panel_accuracy"] == expected["accuracy"]["panel"]
    assert snapshot.rows(Kind.FIGURES) == []
    assets = snapshot.assets(snapshot.history(Kind.PANELS, "org/five-judges")[0])
    assert {"report.md", "error_rate_by_margin.png", "gain_by_margin.png"} <= {p.name for p in assets.iterdir()}
    assert "| 1 | org/five-judges | 1 |" in (board / "panels.md").read_text()


@pytest.mark.parametrize("case", ["missing", "not_json", "no_gain", "bad_ci"])
def test_panel_submit_refuses_a_bad_report(report, tmp_path, case, capsys):
    folder = tmp_path / "report"
    folder.mkdir()
    data = json.loads((report / "report.json").read_text())
    if case == "not_json":
        (folder / "report.json").write_text("{")
    elif case == "no_gain":
        del data["pivotal"]["gain"]
        (folder / "report.json").write_text(json.dumps(data))
    elif case == "bad_ci":
        data["pivotal"]["ci"] = [0.1]
        (folder / "report.json").write_text(json.dumps(data))
    board = tmp_path / "board"
    assert main(["panel", "submit", "--report", str(folder), "--panel-name", "p", "--leaderboard", str(board)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not board.exists() or read_board(board).version == 0
