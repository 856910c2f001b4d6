"""`panel exec --shard I/N` + `rend-equiv merge --candidates`: the merged file is the single run's, in candidate order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.candidates.read import load_candidates
from rend_equiv_dataset.panels.exec_merge import merge_results
from rend_equiv_dataset.panels.problems import load_humaneval


def _candidates(tmp_path: Path) -> Path:
    rows = []
    for problem in load_humaneval().problems[:3]:
        rows.append({"problem_id": problem.problem_id, "candidate_id": f"{problem.problem_id}/good", "solver": "s1",
                     "code": problem.prompt + problem.canonical_solution})
        rows.append({"problem_id": problem.problem_id, "candidate_id": f"{problem.problem_id}/bad", "solver": "s2",
                     "code": problem.prompt + "    return None\n"})
    path = tmp_path / "cands.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _exec(candidates: Path, out: Path, *extra: str) -> None:
    assert main(["panel", "exec", "--problems", "humaneval", "--candidates", str(candidates), "--out", str(out),
                 "--jobs", "1", "--no-progress", *extra]) == 0


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("exec-shards")
    candidates = _candidates(root)
    _exec(candidates, root / "single.jsonl")
    for i in range(4):
        _exec(candidates, root / f"part{i}.jsonl", "--shard", f"{i}/4")
    return root, candidates


def _comparable(path: Path) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:  # how long a run took is not part of its result
        row.pop("seconds", None)
    return rows


def test_shards_merged_in_any_order_are_the_single_run(runs):
    root, candidates = runs
    sizes = [len(Path(root / f"part{i}.jsonl").read_text().splitlines()) for i in range(4)]
    assert sizes == [2, 2, 1, 1]
    out = root / "merged.jsonl"
    assert main(["merge", "--candidates", str(candidates), *(str(root / f"part{i}.jsonl") for i in (3, 1, 0, 2)),
                 "--out", str(out)]) == 0
    assert _comparable(out) == _comparable(root / "single.jsonl")
    assert [r["candidate_id"] for r in _comparable(out)] == [c.candidate_id for c in load_candidates(candidates)]


def test_merge_refuses_missing_overlapping_or_stale_results(runs, tmp_path):
    root, candidates = runs
    cands = load_candidates(candidates)
    parts = [root / f"part{i}.jsonl" for i in range(4)]
    out = tmp_path / "merged.jsonl"
    with pytest.raises(InputError, match="in no results file"):
        merge_results(cands, parts[:3], out)
    with pytest.raises(InputError, match="shards overlap"):
        merge_results(cands, [*parts, root / "single.jsonl"], out)
    stale = tmp_path / "stale.jsonl"
    row = json.loads(parts[3].read_text())
    stale.write_text(json.dumps({**row, "code_sha": "0" * 16}) + "\n")
    with pytest.raises(InputError, match="other code") as err:
        merge_results(cands, [*parts[:3], stale], out)
    assert err.value.line == 1 and err.value.field == "code_sha"
    with pytest.raises(InputError, match="not in the candidates file"):
        merge_results(cands[:-1], parts, out)
    assert not out.exists()
