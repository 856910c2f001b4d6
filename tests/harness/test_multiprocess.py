"""Several processes under ``accelerate launch`` on CPU, and SIGKILL-and-resume (docs/design.md §5)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.renderings_folder import write_renderings
from rend_equiv_dataset.cli import main

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(ROOT),
        HF_DATASETS_CACHE=str(tmp / "hf-cache"),
        HF_HUB_OFFLINE="1",
        TOKENIZERS_PARALLELISM="false",
        OMP_NUM_THREADS="1",
    )
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _command(processes: int, run_args: list[str]) -> list[str]:
    if processes == 1:
        return [sys.executable, "-m", "rend_equiv_dataset", "run", *run_args]
    return [
        sys.executable, "-m", "accelerate.commands.launch",
        "--multi_gpu", "--num_processes", str(processes), "--num_machines", "1",
        "--mixed_precision", "no", "--dynamo_backend", "no", "--main_process_port", str(_free_port()),
        "-m", "rend_equiv_dataset", "run", *run_args,
    ]  # fmt: skip


def _start(processes: int, run_args: list[str], tmp: Path) -> subprocess.Popen:
    return subprocess.Popen(
        _command(processes, run_args), env=_env(tmp), cwd=tmp, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip


def _part_lines(parts: Path) -> list[dict]:
    """Complete lines of every part file (a torn tail is not a record)."""
    out = []
    for path in sorted(parts.glob("part-*.jsonl")) if parts.is_dir() else []:
        data = path.read_bytes()
        out += [json.loads(line) for line in data[: data.rfind(b"\n") + 1].splitlines() if line.strip()]
    return out


def _tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (torch's launcher starts workers in new sessions)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo += children.get(current, [])
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has released its files and locks


def _sigkill_all(proc: subprocess.Popen) -> None:
    """SIGKILL the launcher and every worker, and wait until all are gone.

    The tree is frozen first (SIGSTOP, again until no new process appears), so a
    worker forked while the kill is under way cannot escape it as an orphan.
    """
    stopped: list[int] = []
    while fresh := [pid for pid in _tree(proc.pid) if pid not in stopped]:
        for pid in fresh:
            try:
                os.kill(pid, signal.SIGSTOP)
            except ProcessLookupError:
                pass
        stopped += fresh
    for pid in stopped:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in stopped) and time.monotonic() < deadline:
        time.sleep(0.01)


def _wait_for_locks(parts: Path, timeout: float = 30) -> None:
    """Wait until the killed run's lock files are free: the kernel drops a dead process's locks as it tears the
    process down, which on a loaded machine may come a moment after the process is reported gone."""
    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.io import locked

    deadline = time.monotonic() + timeout
    for lock in sorted(parts.glob("lock-*")) if parts.is_dir() else []:
        while True:
            try:
                with locked(lock):
                    break
            except InputError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)


def _kill_when(proc: subprocess.Popen, parts: Path, lines: int, timeout: float = 240) -> None:
    """SIGKILL the whole process group once the parts hold ``lines`` records (-1: parts folder exists)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready = parts.is_dir() if lines < 0 else len(_part_lines(parts)) >= lines
        if ready:
            _sigkill_all(proc)
            _wait_for_locks(parts)
            return
        if proc.poll() is not None:
            pytest.fail(f"the run ended before it could be killed:\n{proc.stdout.read()}")
        time.sleep(0.01)
    _sigkill_all(proc)
    pytest.fail("the run never reached the kill point")


def _finish(processes: int, run_args: list[str], tmp: Path) -> str:
    done = subprocess.run(
        _command(processes, run_args), env=_env(tmp), cwd=tmp, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stderr


def _records(out: Path) -> list[dict]:
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert "meta" in lines[0]
    return lines[1:]


def _score(data: Path, preds: Path, report: Path) -> dict:
    assert main(["score", "--data", str(data), "--predictions", str(preds), "--out", str(report)]) == 0
    return json.loads((report / "report.json").read_text())


def test_build_run_with_one_and_two_processes_then_score(built_release: Path, tiny_vlm: Path, tmp_path: Path) -> None:
    """Build a release, run it in one process (with every baseline) and in two, score both."""
    from rend_equiv_dataset.figures.release.read import load_renderings

    ids = sorted(r.render_id for r in load_renderings(built_release))
    common = ["--data", str(built_release), "--model", str(tiny_vlm), "--max-new-tokens", "2", "--batch-size", "4"]
    rich = ["--samples", "2", "--logprobs", "--perturb"]
    assert main(["run", *common, *rich, "--out", str(tmp_path / "one.jsonl")]) == 0  # one process, this one
    log = _finish(2, [*common, "--out", str(tmp_path / "two.jsonl")], tmp_path)
    assert f"{len(ids)} renderings answered" in log
    for name in ("one.jsonl", "two.jsonl"):
        assert [r["render_id"] for r in _records(tmp_path / name)] == ids  # each exactly once
    one = _score(built_release, tmp_path / "one.jsonl", tmp_path / "report-one")
    two = _score(built_release, tmp_path / "two.jsonl", tmp_path / "report-two")
    assert one["n_instances"] == two["n_instances"] == 6
    baselines = {"logprob", "self_consistency", "semantic_entropy", "perturbation"}
    assert baselines <= set(one["signals"]) and not baselines & set(two["signals"])


def test_sigkill_at_several_points_then_resume_with_other_process_counts(tiny_vlm: Path, tmp_path: Path) -> None:
    data = tmp_path / "release"
    ids = write_renderings(data, 12)
    out = tmp_path / "preds.jsonl"
    parts = tmp_path / "preds.jsonl.parts"
    args = ["--data", str(data), "--model", str(tiny_vlm), "--out", str(out),
            "--max-new-tokens", "6", "--batch-size", "1", "--perturb", "--samples", "2", "--logprobs"]  # fmt: skip

    _kill_when(_start(1, args, tmp_path), parts, lines=-1)  # killed while starting
    assert _part_lines(parts) == [] and not out.exists()

    _kill_when(_start(1, args, tmp_path), parts, lines=3)  # one process, mid-run
    first = _part_lines(parts)
    assert len(first) >= 3 and not out.exists()
    with open(parts / "part-00000.jsonl", "ab") as handle:  # and a kill in the middle of a write
        handle.write(b'{"render_id": "r011", "output": "tor')

    _kill_when(_start(2, args, tmp_path), parts, lines=len(first) + 3)  # two processes, mid-run
    before = _part_lines(parts)
    before_ids = [r["render_id"] for r in before]
    assert len(before_ids) == len(set(before_ids)), "a rendering was answered twice"
    assert before[: len(first)] == first or {r["render_id"] for r in first} <= set(before_ids)
    assert not out.exists()

    assert main(["run", *args]) == 0  # resume with one process (this one)
    records = _records(out)
    assert [r["render_id"] for r in records] == ids
    by_id = {r["render_id"]: r for r in records}
    for old in before:  # nothing answered before the kills was lost or redone
        assert by_id[old["render_id"]] == {k: v for k, v in old.items() if k != "run_key"}
    assert all(len(r["samples"]) == 2 and "logprob" in r and len(r["perturbed"]) == 4 for r in records)
    assert not parts.exists()


def test_panel_judge_resumes_after_sigkill(tiny_text: Path, tmp_path: Path) -> None:
    from rend_equiv_dataset.panels.candidates.read import load_verdicts

    cands = tmp_path / "cands.jsonl"
    rows = [
        {"problem_id": f"HumanEval/{i % 4}", "candidate_id": f"c{i:02d}", "solver": "s", "code": f"def f():\n    return {i}\n"}
        for i in range(10)
    ]
    cands.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out, parts = tmp_path / "verdicts.jsonl", tmp_path / "verdicts.jsonl.parts"
    args = ["panel", "judge", "--model", str(tiny_text), "--candidates", str(cands), "--judge-name", "j",
            "--max-new-tokens", "48", "--batch-size", "1", "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "rend_equiv_dataset", *args], env=_env(tmp_path), cwd=tmp_path,
        start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    _kill_when(proc, parts, lines=3)
    before = _part_lines(parts)
    assert len(before) >= 3 and not out.exists()
    assert main(args) == 0  # resume in this process
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["candidate_id"] for line in lines] == [r["candidate_id"] for r in rows]
    by_id = {line["candidate_id"]: line for line in lines}
    assert all(by_id[b["candidate_id"]]["response"] == b["response"] for b in before)
    assert len(load_verdicts(out).votes) == 10
