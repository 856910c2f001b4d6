"""Attack code for the red-team suite (``test_redteam.py``): candidate sources, as an attacker
who has read the sandbox would write them.

Every channel defines ``store(data: bytes)`` and ``load() -> bytes | None`` (``None`` when
nothing is there) under a name the test chooses, so one candidate can leave data and a
later one can read it back. Syscall numbers are x86_64's.
"""

from __future__ import annotations

import textwrap

PRELUDE = """
import ctypes, os  # both loaded by the server before it forks: importable in every mode
_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long
NAME = {name!r}
KEY = {key}
"""

CHANNELS: dict[str, str] = {
    # SysV shared memory: a segment outlives its creator until IPC_RMID or the IPC namespace ends
    "ipc-shm": """
_libc.shmget.restype = ctypes.c_int
_libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
_libc.shmat.restype = ctypes.c_void_p
_libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
def store(data):
    ident = _libc.shmget(KEY, 65536, 0o1666)
    if ident < 0:
        return
    addr = _libc.shmat(ident, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        return
    blob = len(data).to_bytes(4, "little") + data
    ctypes.memmove(addr, blob, len(blob))
def load():
    ident = _libc.shmget(KEY, 0, 0)
    if ident < 0:
        return None
    addr = _libc.shmat(ident, None, 0o10000)
    if addr in (None, ctypes.c_void_p(-1).value):
        return None
    size = int.from_bytes(ctypes.string_at(addr, 4), "little")
    return ctypes.string_at(addr + 4, size) if 0 < size < 60000 else None
""",
    # SysV semaphore: one value survives (a marker)
    "ipc-sem": """
def store(data):
    ident = _libc.semget(KEY, 1, 0o1666)
    if ident >= 0:
        _libc.semctl(ident, 0, 16, 31337)  # SETVAL
def load():
    ident = _libc.semget(KEY, 1, 0)
    if ident >= 0 and _libc.semctl(ident, 0, 12) == 31337:  # GETVAL
        return b"MARK"
    return None
""",
    # SysV message queue
    "ipc-msg": """
class _Msg(ctypes.Structure):
    _fields_ = [("mtype", ctypes.c_long), ("mtext", ctypes.c_char * 8000)]
def store(data):
    ident = _libc.msgget(KEY, 0o1666)
    if ident < 0:
        return
    old = _Msg()
    while _libc.msgrcv(ident, ctypes.byref(old), 8000, 0, 0o4000) > 0:  # keep only the newest
        pass
    msg = _Msg(1, data)
    _libc.msgsnd(ident, ctypes.byref(msg), len(data), 0o4000)
def load():
    ident = _libc.msgget(KEY, 0)
    if ident < 0:
        return None
    msg = _Msg()
    got = _libc.msgrcv(ident, ctypes.byref(msg), 8000, 0, 0o4000)
    if got <= 0:
        return None
    data = msg.mtext[:got]
    _libc.msgsnd(ident, ctypes.byref(msg), got, 0o4000)  # put it back for the next reader
    return data
""",
    # POSIX message queue (mqueue fs of the IPC namespace)
    "ipc-posix-mq": """
_rt = _libc  # glibc >= 2.34 has mq_* in libc itself
_rt.mq_open.restype = ctypes.c_int
def store(data):
    attr = (ctypes.c_long * 4)(0, 1, 8192, 0)  # one message of 8 KiB: little of the uid's queue quota
    q = _rt.mq_open(("/" + NAME).encode(), 0o100 | 2 | 0o4000, 0o666, attr)  # O_NONBLOCK
    if q >= 0:
        buf = ctypes.create_string_buffer(1 << 16)
        while _rt.mq_receive(q, buf, 1 << 16, None) > 0:  # keep only the newest
            pass
        _rt.mq_send(q, data[:8000], len(data[:8000]), 0)
def load():
    q = _rt.mq_open(("/" + NAME).encode(), 2 | 0o4000, 0, None)
    if q < 0:
        return None
    buf = ctypes.create_string_buffer(1 << 16)
    got = _rt.mq_receive(q, buf, 1 << 16, None)
    if got <= 0:
        return None
    _rt.mq_send(q, buf.raw[:got], got, 0)
    return buf.raw[:got]
""",
    # kernel keyrings: the user keyring (-4) and the user-session keyring (-5) live per uid
    "keyring-user": """
def _find(ring):
    return _libc.syscall(250, ctypes.c_long(10), ctypes.c_long(ring), b"user", NAME.encode(), ctypes.c_long(0))
def store(data):
    _libc.syscall(248, b"user", NAME.encode(), data, ctypes.c_size_t(len(data)), ctypes.c_long(RING))
def load():
    key = _find(RING)
    if key < 0:
        return None
    buf = ctypes.create_string_buffer(32768)
    got = _libc.syscall(250, ctypes.c_long(11), ctypes.c_long(key), buf, ctypes.c_long(32768))
    return buf.raw[:got] if got > 0 else None
RING = -4
""",
    "keyring-user-session": "@keyring-user\nRING = -5\n",
    # files in world-writable places
    "file-tmp": "@file\nFOLDER = '/tmp'\n",
    "file-var-tmp": "@file\nFOLDER = '/var/tmp'\n",
    "file-dev-shm": "@file\nFOLDER = '/dev/shm'\n",
    "file-run-lock": "@file\nFOLDER = '/run/lock'\n",
    "file": """
def store(data):
    try:
        with open(os.path.join(FOLDER, NAME), "wb") as handle:
            handle.write(data)
        os.chmod(os.path.join(FOLDER, NAME), 0o666)
    except OSError:
        pass
def load():
    try:
        with open(os.path.join(FOLDER, NAME), "rb") as handle:
            return handle.read()
    except OSError:
        return None
""",
}

PERSISTENCE_CHANNELS = [name for name in CHANNELS if name != "file"]
FILE_FOLDERS = {"file-tmp": "/tmp", "file-var-tmp": "/var/tmp", "file-dev-shm": "/dev/shm", "file-run-lock": "/run/lock"}


def channel(name: str, label: str, key: int) -> str:
    """The source of channel ``name`` (with ``store``/``load``) under ``label`` and SysV ``key``."""
    body = CHANNELS[name]
    if body.startswith("@"):
        base, _, rest = body[1:].partition("\n")
        body = CHANNELS[base] + rest
    return PRELUDE.format(name=label, key=key) + body


def all_channels(label: str, key: int) -> str:
    """Every channel at once: ``store_all`` writes to all, ``load_any`` reads the first that has data."""
    parts = []
    for index, name in enumerate(PERSISTENCE_CHANNELS):
        src = channel(name, label, key + index).replace("def store(", f"def store_{index}(").replace(
            "def load(", f"def load_{index}(")
        src = src.replace("_find(", f"_find_{index}(")
        src = src.replace("RING", f"RING_{index}")
        src = src.replace("_libc", f"_libc_{index}").replace("_rt", f"_rt_{index}")  # own argtypes each
        parts.append(src)
    n = len(PERSISTENCE_CHANNELS)
    parts.append(f"""
def store_all(data):
    for i in range({n}):
        try:
            globals()["store_%d" % i](data)
        except Exception:
            pass
def load_any():
    for i in range({n}):
        try:
            got = globals()["load_%d" % i]()
        except Exception:
            got = None
        if got and got != b"MARK":
            return got
    return None
""")
    return "\n".join(parts)


def writer(name: str, label: str, key: int, token: bytes, prompt: str) -> str:
    """A HumanEval/53 candidate that leaves ``token`` in the channel and answers wrong."""
    return channel(name, label, key) + f"\nstore({token!r})\n" + prompt + "    return x + y + 1\n"


def reader(name: str, label: str, key: int, token: bytes, prompt: str) -> str:
    """A HumanEval/53 candidate that is right only when it finds ``token`` (or the marker)."""
    return (channel(name, label, key) + f"\n_got = load()\nFOUND = _got in ({token!r}, b'MARK')\n" + prompt
            + "    return x + y if FOUND else x + y + 1\n")


def dedent(code: str) -> str:
    return textwrap.dedent(code)
