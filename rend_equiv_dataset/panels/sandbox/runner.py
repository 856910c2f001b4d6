"""The library side of the sandbox: start the fork-server, send jobs, read verdicts.

See the package docstring (:mod:`rend_equiv_dataset.panels.sandbox`) for what the
isolation does and does not protect against.
"""

from __future__ import annotations

import functools
import json
import math
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from rend_equiv_dataset.panels.sandbox.scan import danger_scan

SERVER = Path(__file__).with_name("_server.py")
SANDBOX_UID = 65534
GRACE_SECONDS = 3.0


class Status(str, Enum):
    """How one execution ended (DESIGN §7.5 ``status``)."""

    OK = "ok"  # every assertion was evaluated (each may pass or fail)
    TIMEOUT = "timeout"  # the wall-clock deadline or the CPU limit was hit (every assertion counts as failed)
    CRASH = "crash"  # the candidate did not load, died, or killed the sandbox
    INFRA_ERROR = "infra_error"  # the sandbox could not run the job


class Isolation(str, Enum):
    """``bwrap``: namespaces (preferred); ``uid``: root, a private uid per server; ``plain``: rlimits only."""

    BWRAP = "bwrap"
    UID = "uid"
    PLAIN = "plain"


@dataclass(frozen=True)
class Limits:
    """Resource limits of one candidate; the wall-clock timeout is calibrated per problem.

    timeout = max(timeout_floor, timeout_factor x the canonical solution's own time).
    """

    memory_bytes: int = 1 << 30
    file_bytes: int = 1 << 20
    processes: int = 32
    timeout_floor: float = 2.0
    timeout_factor: float = 10.0
    timeout_default: float = 10.0  # when there is no canonical solution to time

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

    @property
    def label(self) -> int:
        """The operational label: 1 iff the run completed and every assertion passed."""
        return int(self.status is Status.OK and bool(self.passed) and all(self.passed))


class _ProblemLike(Protocol):
    problem_id: str
    entry_point: str
    call: str
    context: str
    assertions: Any

    @property
    def reference_code(self) -> str: ...


@functools.lru_cache(maxsize=1)
def bwrap_works() -> bool:
    """True when ``bwrap`` is installed and runs this interpreter in the sandbox's exact setup."""
    if shutil.which("bwrap") is None:
        return False
    python = sys.executable
    probe = [*_bwrap_command(python, as_root=os.geteuid() == 0), "--", python, "-I", "-c", "import json"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=30, check=False).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def choose_isolation() -> Isolation:
    """The strongest isolation this machine allows."""
    if bwrap_works():
        return Isolation.BWRAP
    return Isolation.UID if os.geteuid() == 0 else Isolation.PLAIN


def _bwrap_command(python: str, *, as_root: bool) -> list[str]:
    """bubblewrap around the server: new PID/network/IPC/UTS namespaces, a read-only view of
    only the system and Python directories, a private /tmp.

    As root no user namespace is made: the server is root inside and each child switches
    to a private non-root uid (a uid mapped onto root would be exempt from RLIMIT_NPROC).
    As a normal user a user namespace maps the server to uid 65534.
    """
    system = ["/usr", "/bin", "/lib", "/lib32", "/lib64", "/sbin", "/etc/ld.so.cache", "/etc/ld.so.conf",
              "/etc/ld.so.conf.d", "/etc/localtime", "/etc/alternatives"]
    extra = sorted({sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(os.path.realpath(python)).parent.parent),
                    str(SERVER.parent)})
    args: list[str] = []
    bound: list[str] = []
    for path in system:
        args += ["--ro-bind-try", path, path]
        bound.append(path)
    made: set[str] = set()
    for path in extra:
        if any(path == b or path.startswith(b.rstrip("/") + "/") for b in bound):
            continue
        for ancestor in reversed(Path(path).parents):  # world-traversable parents (bwrap makes them 0700)
            name = str(ancestor)
            if name != "/" and name not in made and not any(name == b or name.startswith(b + "/") for b in bound):
                args += ["--perms", "0755", "--dir", name]
                made.add(name)
        args += ["--ro-bind", path, path]
        bound.append(path)
    # as root: keep only what the server needs (switch the child's uid, own and clean its folder, kill it)
    caps = ["--cap-drop", "ALL"] + [x for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_KILL", "CAP_CHOWN", "CAP_FOWNER",
                                                  "CAP_DAC_OVERRIDE") for x in ("--cap-add", cap)]
    users = caps if as_root else ["--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
    return [
        shutil.which("bwrap") or "bwrap", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
        "--unshare-cgroup-try", *users, "--die-with-parent", "--new-session", *args,
        "--proc", "/proc", "--dev", "/dev", "--size", str(256 << 20), "--tmpfs", "/tmp", "--remount-ro", "/",
        "--chdir", "/tmp",
    ]


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
    _proc: subprocess.Popen[bytes] | None = field(default=None, init=False, repr=False)
    _buffer: bytes = field(default=b"", init=False, repr=False)
    _timeouts: dict[str, float] = field(default_factory=dict, init=False, repr=False)
    starts: int = field(default=0, init=False)

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ server life

    def start(self) -> None:
        """Start the fork-server (under bubblewrap where it works)."""
        if self._proc is not None:
            return
        if self.isolation is None:
            self.isolation = choose_isolation()
        python = sys.executable
        as_root = os.geteuid() == 0
        uid = 200_000 + os.getpid() % 100_000 if as_root else SANDBOX_UID
        mode = self.isolation.value
        if self.isolation is Isolation.BWRAP and as_root:
            mode = "bwrap-uid"
        command = [python, "-I", "-B", str(SERVER), mode, str(uid)]
        if self.isolation is Isolation.BWRAP:
            command = [*_bwrap_command(python, as_root=as_root), "--", *command]
        log = open(self.server_log, "ab") if self.server_log else subprocess.DEVNULL  # noqa: SIM115
        try:
            self._proc = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, start_new_session=True, close_fds=True,
            )
        finally:
            if log is not subprocess.DEVNULL:
                log.close()
        self._buffer = b""
        self.starts += 1
        hello = self._read(time.monotonic() + 30)
        if hello is None or hello.get("ready") is not True:
            self._kill()
            raise RuntimeError("the sandbox server did not start")
        self.server_pid = int(hello["pid"])

    def close(self) -> None:
        """Stop the server; with bubblewrap its whole PID namespace goes with it."""
        proc = self._proc
        if proc is None:
            return
        try:
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self._kill()

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
        """The problem's wall-clock timeout, calibrated once on its canonical solution."""
        if problem.problem_id not in self._timeouts:
            seconds = None
            if problem.reference_code:
                run = self.execute(problem, problem.reference_code, timeout=self.limits.timeout_default * 6)
                seconds = run.seconds if run.status is Status.OK else None
            self._timeouts[problem.problem_id] = self.limits.timeout_for(seconds)
        return self._timeouts[problem.problem_id]

    def run(self, problem: _ProblemLike, code: str) -> Execution:
        """Execute one candidate against all of the problem's assertions."""
        return self.execute(problem, code, timeout=self.timeout_for(problem))

    def execute(self, problem: _ProblemLike, code: str, *, timeout: float) -> Execution:
        """Execute with an explicit wall-clock timeout (seconds)."""
        n = len(problem.assertions)
        try:
            self.start()
        except (OSError, RuntimeError) as err:
            return Execution((False,) * n, Status.INFRA_ERROR, f"sandbox start failed: {err}", 0.0,
                             tuple(danger_scan(code)))
        limits = {
            "cpu_seconds": math.ceil(timeout) + 1, "memory_bytes": self.limits.memory_bytes,
            "file_bytes": self.limits.file_bytes, "processes": self.limits.processes,
        }
        job = {"code": getattr(problem, "code_prefix", "") + code, "entry": problem.entry_point, "call": problem.call, "limits": limits}
        steps, done = [], 0
        for assertion in problem.assertions:
            steps.append([list(assertion.setup[done:]), assertion.source])
            done = len(assertion.setup)
        trusted = {"prelude": problem.reference_code, "context": problem.context, "steps": steps,
                   "timeout": timeout, "seed": 0}
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
        return _parse_reply(reply, n, danger)


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
