"""The library side of the sandbox: start the fork-server, send jobs, read verdicts.

See the package docstring (:mod:`rend_equiv_dataset.sandbox`) for what the
isolation does and does not protect against.
"""

from __future__ import annotations

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

from rend_equiv_dataset.sandbox.scan import danger_scan

SERVER = Path(__file__).with_name("_server.py")
SANDBOX_UID = 65534
GRACE_SECONDS = 5.0


class Status(str, Enum):
    """How one execution ended (DESIGN §7.5 ``status``)."""

    OK = "ok"  # every assertion was evaluated (each may pass or fail)
    TIMEOUT = "timeout"  # the wall-clock deadline or the CPU limit was hit
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


def bwrap_works() -> bool:
    """True when ``bwrap`` is installed and can create the namespaces the sandbox uses."""
    exe = shutil.which("bwrap")
    if exe is None:
        return False
    probe = [exe, "--unshare-all", "--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
             "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=20, check=False).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def choose_isolation() -> Isolation:
    """The strongest isolation this machine allows."""
    if bwrap_works():
        return Isolation.BWRAP
    return Isolation.UID if os.geteuid() == 0 else Isolation.PLAIN


def _bwrap_command(python: str) -> list[str]:
    binds: list[str] = []
    for path in ("/usr", "/bin", "/lib", "/lib32", "/lib64", "/sbin", "/etc/ld.so.cache", "/etc/ld.so.conf",
                 "/etc/ld.so.conf.d", "/etc/localtime", "/etc/alternatives"):
        binds += ["--ro-bind-try", path, path]
    extra = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(os.path.realpath(python)).parent.parent),
             str(SERVER.parent)}
    for path in sorted(extra):
        if path not in {"/usr", "/"}:
            binds += ["--ro-bind", path, path]
    return [
        shutil.which("bwrap") or "bwrap", "--unshare-all", "--unshare-user", "--uid", str(SANDBOX_UID),
        "--gid", str(SANDBOX_UID), "--die-with-parent", "--new-session", *binds,
        "--proc", "/proc", "--dev", "/dev", "--size", str(256 << 20), "--tmpfs", "/tmp", "--remount-ro", "/",
        "--chdir", "/tmp",
    ]


@dataclass
class Sandbox:
    """A running fork-server; one :meth:`run` per candidate. Use as a context manager.

    >>> from rend_equiv_dataset.loaders.problems import load_humaneval
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
        uid = SANDBOX_UID if self.isolation is Isolation.BWRAP else 200_000 + os.getpid() % 100_000
        command = [python, "-I", "-B", str(SERVER), self.isolation.value, str(uid)]
        if self.isolation is Isolation.BWRAP:
            command = [*_bwrap_command(python), "--", *command]
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
        danger = tuple(danger_scan(code))
        n = len(problem.assertions)
        try:
            self.start()
        except (OSError, RuntimeError) as err:
            return Execution((False,) * n, Status.INFRA_ERROR, f"sandbox start failed: {err}", 0.0, danger)
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
        if not self._write(str(len(head)).encode() + b"\n" + head + json.dumps(trusted).encode() + b"\n"):
            self._kill()
            return Execution((False,) * n, Status.CRASH, "sandbox server died", 0.0, danger)
        reply = self._read(started + timeout + GRACE_SECONDS + 2 * timeout)
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
