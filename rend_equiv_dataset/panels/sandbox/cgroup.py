"""A control group that caps a sandbox's processes together: memory and process count.

Per-process limits do not add up to a job limit: 32 processes of 1 GiB each
exceed a 24 GiB machine. Where this process may create control groups (root,
with the memory and pids controllers of cgroup v2, or of cgroup v1 as
many container hosts still mount them), each sandbox server joins a group of
its own, made inside this process's group, as its first act (through the
group's ``cgroup.procs`` files, opened here and passed down: :meth:`JobCgroup.open_procs`),
so that it holds the server, the zygote and every candidate process: ``memory.max`` (v1:
``memory.limit_in_bytes``) caps their memory together, files in tmpfs
(``/tmp``, ``/dev/shm``) included, and ``pids.max`` their number. Every
candidate process raises its out-of-memory score to the maximum (and the
server and zygote lower theirs where the kernel lets them), so that at the cap
the kernel kills a candidate process rather than them. Where the ``cpu`` controller
can be used too, the whole job, server included, gets a CPU quota of one core
(``cpu.max``; v1: ``cpu.cfs_quota_us``), and inside it the candidates have a group of their
own with the least weight (v2: ``cpu.weight`` 1 beside the server's leaf at 10,000; v1:
``cpu.shares`` 2 beside the server's 1,024), which the zygote joins at start-up, so every
candidate is born inside (:meth:`JobCgroup.open_cpu_procs`). So a burner that forks gets
no more than one core however many processes it starts, the server still runs as soon as it
has work (reading replies, timing the job), and what the server spends on a candidate's
replies comes out of that job's core, never a neighbour's: with no more sandboxes than
cores, the jobs' quotas add up to the machine and none can starve another. Elsewhere, ``None`` is
returned and the per-process limits are lowered instead
(:func:`~rend_equiv_dataset.panels.sandbox.runner.job_processes`). Groups left
by a killed run are removed by the next one.

>>> JobCgroup.create(1 << 30, 40, root=Path("/nonexistent")) is None
True
"""

from __future__ import annotations

import itertools
import logging
import os
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

log = logging.getLogger(__name__)

__all__ = ["CPU_PERIOD", "SERVER_MEMORY", "SERVER_PROCESSES", "JobCgroup"]

SERVER_MEMORY = 256 << 20
"""Memory of the server, the zygote and a child's interpreter, on top of the candidate's own budget."""
SERVER_PROCESSES = 8
"""Processes that are not the candidate's: the server, the zygote, a child forked ahead, and slack."""

CPU_PERIOD = 100_000
"""The CPU quota's period in microseconds; a job gets one period per period (one core)."""
_QUOTA_V2 = {"cpu.max": f"{CPU_PERIOD} {CPU_PERIOD}"}
_QUOTA_V1 = {"cpu.cfs_period_us": CPU_PERIOD, "cpu.cfs_quota_us": CPU_PERIOD}
_LEAST = {2: ("cpu.weight", 1), 1: ("cpu.shares", 2)}
"""The candidates' weight inside the job's quota: the least the kernel takes (the server's is the most, v2, or the default, v1)."""
_SERVER_WEIGHT_V2 = 10_000
_NAMES = itertools.count()
_PREFIX = "rend-equiv-sandbox-"


@dataclass(frozen=True)
class JobCgroup:
    """The group directories of one sandbox (one for cgroup v2; the memory, pids and cpu ones for v1)."""

    directories: tuple[Path, ...]
    version: int
    cpu: Path | None = None  # the candidates' CPU group, inside the job's (v1: below its cpu group; v2: a leaf)
    limits: tuple[tuple[str, str], ...] = ()  # (file, value) written, read back by :meth:`in_force`
    joins: tuple[Path, ...] = ()  # where the server joins when not the directories (v2 with cpu: its leaf)

    @property
    def server_groups(self) -> tuple[Path, ...]:
        """The groups the server writes itself into."""
        return self.joins or self.directories

    @classmethod
    def create(cls, memory_bytes: int, processes: int, *, root: Path = Path("/")) -> JobCgroup | None:
        """A new group capped at ``memory_bytes`` and ``processes``, or None where none can be made.

        ``root`` is where ``/proc`` and ``/sys`` are looked for (tests use a fake tree).
        """
        try:
            mounts = _mounts(root)
            own = _own_groups(root)
        except OSError:
            return None
        name = f"{_PREFIX}{os.getpid()}-{next(_NAMES)}"
        unified = next((m for m, (fstype, _) in mounts.items() if fstype == "cgroup2"), None)
        if unified is not None and "" in own:
            parent = _inside(root, unified, own[""])
            try:
                enabled = (parent / "cgroup.subtree_control").read_text().split()
            except OSError:
                enabled = []
            if "memory" in enabled and "pids" in enabled:
                group = cls._make([parent / name], 2)
                limits: dict[str, int | str] = {"memory.max": memory_bytes, "pids.max": processes}
                if "cpu" in enabled:
                    limits.update(_QUOTA_V2)
                if group is not None and group._limit(limits):
                    return group if "cpu" not in enabled else group._nest_cpu_v2()
        places = {}
        for controller in ("memory", "pids"):
            mount = next((m for m, (fstype, options) in mounts.items()
                          if fstype == "cgroup" and controller in options), None)
            if mount is None or controller not in own:
                return None
            places[controller] = _inside(root, mount, own[controller]) / name
        group = cls._make([places["memory"], places["pids"]], 1)
        limits = {"memory.limit_in_bytes": memory_bytes, "pids.max": processes}
        if group is None or not group._limit(limits):
            return None
        mount = next((m for m, (fstype, options) in mounts.items() if fstype == "cgroup" and "cpu" in options), None)
        if mount is not None and "cpu" in own:
            job = cls._make([_inside(root, mount, own["cpu"]) / name], 1)
            if job is not None and job._limit(_QUOTA_V1):
                candidates = job._leaf("candidates", {**_QUOTA_V1, _LEAST[1][0]: _LEAST[1][1]})
                if candidates is not None:  # the server joins the job's cpu group, the zygote the candidates'
                    return replace(group, directories=group.directories + job.directories, cpu=candidates,
                                   limits=group.limits + job.limits)
                job.remove()
        return group

    def _nest_cpu_v2(self) -> JobCgroup:
        """The job's group split into a leaf for the server and one for the candidates, with the cpu
        controller enabled between them (a v2 group with controllers for its children holds no
        processes itself). Without the split (the kernel refused a step), the job's group as it is:
        server and candidates share its quota at one weight."""
        job, before = self.directories[0], self.limits
        server = self._leaf("server", {"cpu.weight": _SERVER_WEIGHT_V2}, enable="+cpu")
        candidates = self._leaf("candidates", {**_QUOTA_V2, _LEAST[2][0]: _LEAST[2][1]}) if server else None
        if server is None or candidates is None:
            for leaf in (job / "candidates", job / "server"):
                _rmdir(leaf)
            try:  # processes may live in the job's group again
                (job / "cgroup.subtree_control").write_text("-cpu")
            except OSError:
                pass
            return replace(self, cpu=job, limits=before)
        return replace(self, cpu=candidates, joins=(server,))

    def _leaf(self, name: str, limits: Mapping[str, int | str], enable: str = "") -> Path | None:
        """A group ``name`` inside the job's last directory with ``limits`` written (and recorded for
        :meth:`in_force`); ``enable`` is first written to the job's ``cgroup.subtree_control``."""
        job = self.directories[-1]
        leaf = job / name
        try:
            if enable:
                (job / "cgroup.subtree_control").write_text(enable)
            leaf.mkdir()
            for key, value in limits.items():
                (leaf / key).write_text(str(value))
        except OSError as err:
            log.debug("sandbox: no CPU group %s: %s", leaf, err)
            _rmdir(leaf)
            return None
        object.__setattr__(self, "limits", self.limits + tuple((str(leaf / k), str(v)) for k, v in limits.items()))
        return leaf

    @classmethod
    def _make(cls, directories: list[Path], version: int) -> JobCgroup | None:
        made: list[Path] = []
        for directory in directories:
            _sweep(directory.parent)
            try:
                directory.mkdir()
            except OSError as err:
                log.debug("sandbox: no control group at %s: %s", directory, err)
                JobCgroup(tuple(made), version).remove()
                return None
            made.append(directory)
        return cls(tuple(made), version)

    def _limit(self, limits: Mapping[str, int | str]) -> bool:
        """Write each limit into the directory that has its file; False (and the group removed) if one fails."""
        written = []
        for key, value in limits.items():
            try:
                target = next(d / key for d in self.directories if (d / key).exists())
                target.write_text(str(value))
                written.append((str(target), str(value)))
                if self.version == 1 and key == "memory.limit_in_bytes":  # swap may not extend it
                    swap = target.with_name("memory.memsw.limit_in_bytes")
                    if swap.exists():
                        swap.write_text(str(value))
            except (OSError, StopIteration) as err:
                log.debug("sandbox: cannot set %s in %s: %s", key, self.directories, err)
                self.remove()
                return False
        object.__setattr__(self, "limits", self.limits + tuple(written))
        return True

    def in_force(self) -> bool:
        """Every limit reads back as written and the group holds processes (the server joined)."""
        for path, value in self.limits:
            try:
                if Path(path).read_text().split() != value.split():
                    return False
            except OSError:
                return False
        try:  # the server joined: its group holds processes
            return bool((self.server_groups[0] / "cgroup.procs").read_text().split())
        except OSError:
            return False

    def open_cpu_procs(self) -> int | None:
        """The candidates' CPU group's ``cgroup.procs``, opened for writing (None where there is none)."""
        if self.cpu is None:
            return None
        try:
            return os.open(self.cpu / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
        except OSError:
            return None

    def open_procs(self) -> list[int]:
        """The group's ``cgroup.procs`` files, opened for writing, for the server to join through.

        The server writes "0" (itself) into each as its first act, so every
        process it starts is inside; it need not see the cgroup filesystem.
        """
        fds: list[int] = []
        try:
            for directory in self.server_groups:
                fds.append(os.open(directory / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC))
        except OSError:
            for fd in fds:
                os.close(fd)
            return []
        return fds

    def members(self) -> list[int]:
        """The processes in the group now (the candidates' CPU group's too)."""
        pids: set[int] = set()
        for directory in {*self.directories, *self.joins, *([self.cpu] if self.cpu is not None else [])}:
            try:
                pids.update(int(x) for x in (directory / "cgroup.procs").read_text().split())
            except OSError:
                pass
        return sorted(pids)

    def kill_all(self) -> None:
        """SIGKILL every process in the group (a v1 ``cgroup.procs`` lists them by host pid)."""
        for pid in self.members():
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def remove(self) -> None:
        """Remove the group once its processes are gone (each is retried for up to a second), leaves first."""
        inner = [d for d in (self.cpu, *self.joins) if d is not None and d not in self.directories]
        for directory in [*inner, *self.directories]:
            for _ in range(100):
                if _rmdir(directory):
                    break
                time.sleep(0.01)  # processes still exiting
            else:
                log.warning("sandbox: could not remove the control group %s", directory)


def _rmdir(directory: Path) -> bool:
    """Remove one group folder; True when it is gone (or was never there)."""
    try:
        directory.rmdir()
    except FileNotFoundError:
        pass
    except OSError:
        return False
    return True


def _mounts(root: Path) -> dict[Path, tuple[str, set[str]]]:
    """cgroup mounts from ``/proc/self/mountinfo``: mount point -> (type, super options)."""
    found = {}
    for line in (root / "proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        tail = fields[fields.index("-") + 1:]
        if len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            found[Path(fields[4])] = (tail[0], set(tail[2].split(",")))
    return found


def _own_groups(root: Path) -> dict[str, str]:
    """This process's group per controller from ``/proc/self/cgroup`` ("" is cgroup v2's)."""
    groups = {}
    for line in (root / "proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            groups[controller] = path
    return groups


def _inside(root: Path, mount: Path, group: str) -> Path:
    return root / str(mount).lstrip("/") / group.lstrip("/")


def _sweep(parent: Path) -> None:
    """Remove groups left by sandboxes whose process is gone (a killed run); an empty group is removable."""
    try:
        entries = list(parent.iterdir())
    except OSError:
        return
    for entry in entries:
        if not entry.name.startswith(_PREFIX):
            continue
        try:
            pid = int(entry.name[len(_PREFIX):].split("-")[0])
            os.kill(pid, 0)
            continue  # its sandbox's process still runs
        except ProcessLookupError:
            pass
        except (ValueError, PermissionError):
            continue
        for leaf in ("candidates", "server"):  # a job's own groups go first
            _rmdir(entry / leaf)
        _rmdir(entry)
