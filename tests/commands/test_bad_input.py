"""Every command keeps the 0 / 2 (one line) / 1 contract on bad options, outputs and inputs, before any work."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main

SHORT_RECORDS = "".join(json.dumps({"problem_id": f"p{i}", "label": i % 2, "votes": [1, 0, 1], "signal": 1}) + "\n"
                        for i in range(6))


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.mark.parametrize("argv", [
    ["score", "--data", "D", "--predictions", "P", "--out", "O", "--seed", "-1"],
    ["simulate", "--data", "D", "--reader", "scale:2", "--out", "O", "--seed", "-1"],
    ["panel", "build", "--out", "O", "--seed", "-1"],
    ["panel", "score", "--records", "R", "--out", "O", "--seed", "-1"],
    ["panel", "score", "--records", "R", "--out", "O", "--seed", "1e3"],
    ["panel", "score", "--records", "R", "--out", "O", "--seed", str(2**63)],
])
def test_a_bad_seed_exits_2_in_one_line(tmp_path: Path, capsys, argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path / a) if a in ("D", "P", "O", "R") else a for a in argv])
    assert exit_info.value.code == 2
    line = _one_line(capsys)
    assert "--seed" in line and "expected an integer from 0" in line
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def outputs(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    (tmp_path / "file").write_text("mine")
    records = tmp_path / "records.jsonl"
    records.write_text(SHORT_RECORDS)
    return {"full": tmp_path / "full", "file": tmp_path / "file", "records": records}


@pytest.mark.parametrize("taken", ["full", "file"])
@pytest.mark.parametrize("command", ["panel build", "panel score"])
def test_an_output_folder_that_is_a_file_or_not_empty_is_refused(outputs, capsys, taken: str, command: str) -> None:
    argv = command.split() + ["--out", str(outputs[taken])]
    argv += ["--records", str(outputs["records"])] if command == "panel score" else ["--limit", "1"]
    assert main(argv) == 2
    line = _one_line(capsys)
    assert "--out" in line and ("not empty" in line or "not a folder" in line)
    assert (outputs["full"] / "keep.txt").read_text() == "mine" and outputs["file"].read_text() == "mine"


def test_simulate_refuses_a_folder_as_its_output_file(tmp_path: Path, capsys) -> None:
    from figures.scoring.release_fixture import tiny_rows, write_release

    data = write_release(tiny_rows(), tmp_path / "release")
    (tmp_path / "taken").mkdir()
    assert main(["simulate", "--data", str(data), "--reader", "scale:2", "--out", str(tmp_path / "taken")]) == 2
    assert "is a folder" in _one_line(capsys)


def test_panel_build_checks_the_judges_file_before_running_anything(tmp_path: Path, capsys) -> None:
    out = tmp_path / "panel"
    started = time.monotonic()
    assert main(["panel", "build", "--judges", str(tmp_path / "missing.jsonl"), "--limit", "40", "--no-progress",
                 "--out", str(out)]) == 2
    assert time.monotonic() - started < 15  # nothing was executed
    line = _one_line(capsys)
    assert "missing.jsonl" in line and "cannot read" in line
    assert list(tmp_path.iterdir()) == []  # no execution cache beside the output


def test_panel_build_checks_every_verdict_before_running_anything(tmp_path: Path, capsys) -> None:
    verdicts = tmp_path / "verdicts.jsonl"
    verdicts.write_text(json.dumps({"candidate_id": "nobody", "judge": "j1", "verdict": "CORRECT"}) + "\n")
    assert main(["panel", "build", "--judges", str(verdicts), "--limit", "1", "--no-progress",
                 "--out", str(tmp_path / "panel")]) == 2
    assert "has no verdict from" in _one_line(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["verdicts.jsonl"]


def test_panel_build_with_infra_error_runs_finishes_with_a_note(tmp_path: Path, capsys, monkeypatch) -> None:
    from rend_equiv_dataset.panels import sandbox
    from rend_equiv_dataset.panels.sandbox.runner import Execution, Status

    class Unavailable:
        """A sandbox that cannot start: every run is an infra_error with no pass vector."""

        isolation = None

        def __init__(self, **options) -> None:  # noqa: ANN003
            pass

        def start(self) -> None:
            pass

        def run(self, problem, code):  # noqa: ANN001, ANN201
            return Execution((), Status.INFRA_ERROR, "sandbox start failed: no bubblewrap", 0.0, ())

        def begin(self) -> None:
            pass

        def goodbye(self) -> None:
            pass

        def close(self) -> None:
            pass

    monkeypatch.setattr(sandbox, "Sandbox", Unavailable)
    out = tmp_path / "panel"
    assert main(["panel", "build", "--limit", "2", "--per-problem", "3", "--correct-per-problem", "1",
                 "--no-progress", "--out", str(out)]) == 0
    assert "6 candidate(s) could not be run (infra_error)" in capsys.readouterr().err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["by_status"] == {"infra_error": 6} and summary["infra_errors"] == 6
    assert summary["signal_accuracy"] == {} and summary["random_subset_signal_accuracy"] == {}
    assert "Runs with status `infra_error` (6 here) are left out" in (out / "README.md").read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["panel"]


BAD_PREDICTIONS = {
    "deep": ('{"render_id": "s0-i1/base", "output": ' + "[" * 100_000 + "]" * 100_000 + "}\n", 1, None,
             "nested deeper"),
    "surrogate_in_meta": ('{"meta": {"model": "m\\udc80"}}\n', 1, "meta.model", "surrogate"),
    "overflow_in_meta": ('{"meta": {"temperature": 1e400}}\n', 1, "meta.temperature", "not a finite number"),
    "not_utf8": (b'{"render_id": "s0-i1/base", "output": "\xff"}\n', 1, None, "not UTF-8"),
    "megabyte_id": ('{"render_id": "' + "x" * 1_000_000 + '", "output": "1"}\n', 1, "render_id", "not in this release"),
}


@pytest.mark.parametrize("name", sorted(BAD_PREDICTIONS))
def test_score_refuses_bad_predictions_in_one_short_line(tmp_path: Path, capsys, name: str) -> None:
    from figures.scoring.release_fixture import tiny_rows, write_release

    data = write_release(tiny_rows(), tmp_path / "release")
    text, line, field, words = BAD_PREDICTIONS[name]
    preds = tmp_path / "p.jsonl"
    preds.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    assert main(["score", "--data", str(data), "--predictions", str(preds), "--out", str(tmp_path / "r")]) == 2
    err = _one_line(capsys)
    assert f"{preds}:{line}" in err and words in err and len(err) < 600
    assert field is None or f"field '{field}'" in err
    assert not (tmp_path / "r").exists()
