"""``panel solve`` and ``panel judge`` with the tiny text model: files ``panel build`` reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.panels.candidates.read import load_candidates, load_verdicts


@pytest.fixture(scope="module")
def candidates(tiny_text: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("solve") / "cands.jsonl"
    argv = ["panel", "solve", "--model", str(tiny_text), "--limit", "2", "--max-new-tokens", "8"]
    assert main([*argv, "--solver-name", "tiny", "--out", str(out)]) == 0
    assert main([*argv, "--solver-name", "tiny", "--out", str(out), "--limit", "3"]) == 0  # resumes, adds one
    return out


def test_solve_writes_one_candidate_per_problem(candidates: Path) -> None:
    loaded = load_candidates(candidates)
    assert [c.problem_id for c in loaded] == ["HumanEval/0", "HumanEval/1", "HumanEval/2"]
    assert [c.candidate_id for c in loaded] == ["tiny/HumanEval/0", "tiny/HumanEval/1", "tiny/HumanEval/2"]
    assert all(c.solver == "tiny" for c in loaded)
    meta = json.loads(candidates.with_name("cands.jsonl.meta.json").read_text())["meta"]
    assert meta["kind"] == "solve" and meta["generation"]["temperature"] == 0.0 and meta["generation"]["samples"] == 0


def test_judge_verdicts_feed_panel_build(candidates: Path, tiny_text: Path, tmp_path: Path) -> None:
    out = tmp_path / "verdicts.jsonl"
    argv = ["panel", "judge", "--model", str(tiny_text), "--candidates", str(candidates), "--max-new-tokens", "4"]
    assert main([*argv, "--judge-name", "j1", "--out", str(out)]) == 0
    before = out.read_bytes()
    assert main([*argv, "--judge-name", "j1", "--out", str(out)]) == 0  # complete: nothing redone
    assert out.read_bytes() == before
    verdicts = load_verdicts(out)
    assert verdicts.judges == ["j1"] and len(verdicts.votes) == 3
    build = tmp_path / "panel"
    argv = ["panel", "build", "--candidates", str(candidates), "--judges", str(out), "--limit", "3"]
    assert main([*argv, "--out", str(build), "--no-progress"]) == 0
    records = [json.loads(line) for line in (build / "records.jsonl").read_text().splitlines()]
    assert len(records) == 3 and all(r["judges"] and len(r["votes"]) == 1 for r in records)


def test_judge_refuses_an_output_of_another_judge(candidates: Path, tiny_text: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "verdicts.jsonl"
    argv = ["panel", "judge", "--model", str(tiny_text), "--candidates", str(candidates), "--max-new-tokens", "4"]
    assert main([*argv, "--judge-name", "j1", "--out", str(out), "--limit", "1"]) == 0
    assert main([*argv, "--judge-name", "j2", "--out", str(out), "--limit", "1"]) == 2
    assert "another model or settings" in capsys.readouterr().err
    out.with_name("verdicts.jsonl.meta.json").unlink()
    assert main([*argv, "--judge-name", "j1", "--out", str(out), "--limit", "1"]) == 2  # not ours without meta


@pytest.mark.parametrize("option, value", [("--batch-size", "0"), ("--limit", "0"), ("--temperature", "-1")])
def test_bad_options_exit_2(tiny_text: Path, tmp_path: Path, option: str, value: str) -> None:
    argv = ["panel", "solve", "--model", str(tiny_text), "--out", str(tmp_path / "c.jsonl"), option, value]
    with pytest.raises(SystemExit) as exit_info:  # argparse refuses it, as every command's counts
        main(argv)
    assert exit_info.value.code == 2
    assert not (tmp_path / "c.jsonl").exists()
