"""A job's processes are capped together by a control group where the machine allows one."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from rend_equiv_dataset.panels.problems import Assertion, Problem
from rend_equiv_dataset.panels.sandbox import Sandbox
from rend_equiv_dataset.panels.sandbox.cgroup import SERVER_MEMORY, SERVER_PROCESSES, JobCgroup, _mounts, _own_groups


V1_MOUNTINFO = """\
22 1 0:21 / / rw,relatime - overlay overlay rw
30 25 0:26 / /sys/fs/cgroup rw,nosuid - tmpfs tmpfs rw,mode=755
33 30 0:29 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
34 30 0:30 /docker/abc /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
35 30 0:31 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
36 30 0:32 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
"""
V1_CGROUP = "9:pids:/\n4:memory:/process_api/abc\n2:cpu,cpuacct:/\n0::/\n"


def test_mounts_and_own_groups_are_read_from_proc_for_cgroup_v1_and_v2(tmp_path):
    (tmp_path / "proc/self").mkdir(parents=True)
    (tmp_path / "proc/self/mountinfo").write_text(V1_MOUNTINFO)
    (tmp_path / "proc/self/cgroup").write_text(V1_CGROUP)
    mounts = _mounts(tmp_path)
    assert mounts[Path("/sys/fs/cgroup/memory")] == ("cgroup", {"rw", "memory"})
    assert mounts[Path("/sys/fs/cgroup/cpu,cpuacct")][1] >= {"cpu", "cpuacct"}
    assert mounts[Path("/sys/fs/cgroup/unified")][0] == "cgroup2"
    assert Path("/sys/fs/cgroup") not in mounts  # a tmpfs
    assert _own_groups(tmp_path) == {"pids": "/", "memory": "/process_api/abc", "cpu": "/", "cpuacct": "/", "": "/"}


def test_no_group_where_the_hierarchies_are_missing_or_read_only(tmp_path):
    assert JobCgroup.create(1 << 30, 40, root=tmp_path) is None  # no /proc at all
    (tmp_path / "proc/self").mkdir(parents=True)
    (tmp_path / "proc/self/mountinfo").write_text(V1_MOUNTINFO)
    (tmp_path / "proc/self/cgroup").write_text(V1_CGROUP)
    assert JobCgroup.create(1 << 30, 40, root=tmp_path) is None  # the folders exist nowhere
    (tmp_path / "sys/fs/cgroup/memory/process_api/abc").mkdir(parents=True)
    (tmp_path / "sys/fs/cgroup/pids").mkdir(parents=True)
    # plain folders take the new group's folder but have no limit files: refused, and nothing left behind
    assert JobCgroup.create(1 << 30, 40, root=tmp_path) is None
    assert list((tmp_path / "sys/fs/cgroup/memory/process_api/abc").iterdir()) == []


def test_a_v2_job_is_split_into_a_server_leaf_and_a_candidates_leaf_of_least_weight(tmp_path):
    """cgroup v2 holds no processes in a group that gives controllers to its children: the server gets a
    leaf of the most weight, the candidates one of the least with the one-core quota, both inside the
    job's quota, and every value written is read back by in_force."""
    job = tmp_path / "rend-equiv-sandbox-1-0"
    job.mkdir()
    group = JobCgroup((job,), 2)._nest_cpu_v2()
    assert group.server_groups == (job / "server",) and group.cpu == job / "candidates"
    assert (job / "cgroup.subtree_control").read_text() == "+cpu"
    assert (job / "server/cpu.weight").read_text() == "10000"
    assert (job / "candidates/cpu.weight").read_text() == "1"
    assert (job / "candidates/cpu.max").read_text() == "100000 100000"
    assert {path for path, _ in group.limits} >= {str(job / "server/cpu.weight"), str(job / "candidates/cpu.max")}


def test_a_v2_job_the_kernel_will_not_split_keeps_one_group_for_server_and_candidates(tmp_path):
    job = tmp_path / "gone"  # no such folder: the first leaf cannot be made
    group = JobCgroup((job,), 2)._nest_cpu_v2()
    assert group.cpu == job and group.server_groups == (job,)
    assert not (tmp_path / "gone").exists()
    job = tmp_path / "half"
    job.mkdir()
    (job / "candidates").write_text("")  # a file in the way: the second leaf cannot be made
    group = JobCgroup((job,), 2, limits=(("memory.max", "1"),))._nest_cpu_v2()
    assert group.cpu == job and group.server_groups == (job,) and group.limits == (("memory.max", "1"),)
    assert (job / "cgroup.subtree_control").read_text() == "-cpu"


def test_a_group_is_removed_leaves_first(tmp_path):
    job = tmp_path / "job"
    (job / "candidates").mkdir(parents=True)
    (job / "server").mkdir()
    JobCgroup((job,), 2, cpu=job / "candidates", joins=(job / "server",)).remove()
    assert not job.exists()


def _real_group() -> JobCgroup | None:
    if os.geteuid() != 0:
        return None
    group = JobCgroup.create(64 << 20, 8)
    if group is not None:
        group.remove()
    return group


needs_cgroups = pytest.mark.skipif(_real_group() is None, reason="no control group can be made here")

PROBLEM = Problem("toy/hog", "toy", "def hog():\n", "hog", "    return 0\n", (Assertion("assert candidate() < 4"),))

HOG = """
import os, select, time
def hog():
    # four processes of 400 MB each: under the per-process limit, over the job's cap together;
    # counted once each has either allocated or died (they share the job's one core)
    r, w = os.pipe()
    kids = []
    for _ in range(4):
        pid = os.fork()
        if pid == 0:
            block = b"x" * (400 << 20)
            os.write(w, b"x")
            time.sleep(20)
            os._exit(0)
        kids.append(pid)
    os.close(w)
    alive, got, deadline = set(kids), 0, time.monotonic() + 10
    while alive and got < len(alive) and time.monotonic() < deadline:
        if select.select([r], [], [], 0.05)[0]:
            got += len(os.read(r, 8))
        for pid in list(alive):
            if os.waitpid(pid, os.WNOHANG) != (0, 0):
                alive.discard(pid)
    return len(alive)
"""


@needs_cgroups
def test_the_server_the_zygote_and_every_candidate_process_are_in_the_group_and_it_goes_with_close(
        sandbox_helpers, add_problem):
    ADD, limits = add_problem, sandbox_helpers["limits"]
    box = Sandbox(limits=limits, allow_weak=True)
    box.start()
    try:
        group = box._cgroup
        assert isinstance(group, JobCgroup), box.job_caps
        assert "cgroup" in box.job_caps
        assert box.run(ADD, ADD.prompt + ADD.canonical_solution).label == 1
        below = {pid for pid in sandbox_helpers["descendants"](box._proc.pid)
                 if Path(f"/proc/{pid}/comm").read_text().strip() != "bwrap"}  # bubblewrap's own stay outside
        assert len(below) >= 3 and below <= set(group.members())  # server, zygote, the next job's child
        # candidates are the kernel's first choice at the cap (read from outside, /proc is not in their view:
        # the next job's child, forked ahead, raises its score while it sets itself up)
        deadline, scores = time.monotonic() + 5, set()
        while "1000" not in scores and time.monotonic() < deadline:
            scores = set()
            for pid in sandbox_helpers["descendants"](box._proc.pid):
                try:
                    scores.add(Path(f"/proc/{pid}/oom_score_adj").read_text().strip())
                except OSError:  # gone meanwhile
                    pass
            time.sleep(0.05)
        assert "1000" in scores
        cap = group.directories[0] / ("memory.limit_in_bytes" if group.version == 1 else "memory.max")
        assert int(cap.read_text()) >= limits.memory_bytes + SERVER_MEMORY - 4096
        pids = next(d / "pids.max" for d in group.directories if (d / "pids.max").exists())
        assert int(pids.read_text()) == limits.processes + SERVER_PROCESSES
    finally:
        box.close()
    assert not any(d.exists() for d in group.directories)


@needs_cgroups
@pytest.mark.timeout(120)
def test_processes_of_one_job_share_one_memory_cap_and_the_server_survives_it(sandbox_helpers, add_problem):
    ADD, limits = add_problem, sandbox_helpers["limits"]
    box = Sandbox(limits=limits, allow_weak=True)
    box.start()
    try:
        group = box._cgroup
        assert isinstance(group, JobCgroup)
        run = box.execute(PROBLEM, HOG, timeout=15)  # page faults of four processes on the job's one core
        alive = (group.directories[0] / ("memory.max_usage_in_bytes" if group.version == 1 else "memory.peak"))
        peak = int(alive.read_text()) if alive.exists() else 0
        assert 0 < peak <= limits.memory_bytes + SERVER_MEMORY  # 1.6 GB asked for, the cap held
        assert run.label == 1, run  # the candidate itself saw some of its four processes killed
        assert box.starts == 1  # the kernel killed candidate processes, not the server or the zygote
        assert box.run(ADD, ADD.prompt + ADD.canonical_solution).label == 1
    finally:
        box.close()


@needs_cgroups
def test_a_group_left_by_a_killed_run_is_removed_by_the_next():
    group = JobCgroup.create(64 << 20, 8)
    assert group is not None
    dead = 2**22 + 12345  # above pid_max: no process has it
    stale = [d.with_name(f"rend-equiv-sandbox-{dead}-0") for d in group.directories]
    for directory in stale:
        directory.mkdir()
    group.remove()
    again = JobCgroup.create(64 << 20, 8)
    assert again is not None
    try:
        assert not any(d.exists() for d in stale)
    finally:
        again.remove()


@needs_cgroups
def test_a_server_that_cannot_join_its_group_falls_back_to_lowered_limits(monkeypatch, sandbox_helpers, add_problem):
    ADD, limits = add_problem, sandbox_helpers["limits"]
    made = []
    real_create = JobCgroup.create

    def create(*args, **kwargs):  # noqa: ANN002, ANN003
        made.append(real_create(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(JobCgroup, "create", create)
    monkeypatch.setattr(JobCgroup, "open_procs", lambda self: [os.open("/dev/null", os.O_RDONLY)])  # unwritable
    box = Sandbox(limits=limits, allow_weak=True)
    box.start()
    try:
        assert box._cgroup is None and "per-process limits" in box.job_caps
        assert made and not any(d.exists() for d in made[0].directories)  # the unused group is removed
        assert box.run(ADD, ADD.prompt + ADD.canonical_solution).label == 1
    finally:
        box.close()
