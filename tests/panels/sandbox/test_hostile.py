"""Hostile candidates: the sandbox survives, the caller lives, no false pass, nothing left behind.

Every candidate here would pass only if its attack worked (or is plainly wrong
otherwise). Each runs under every isolation mode this machine supports.
"""

from __future__ import annotations

import os
import socket
import textwrap

import pytest

from rend_equiv_dataset.panels.sandbox import Isolation, Sandbox, Status


HOSTILE: dict[str, str] = {
    "infinite_loop": """
        def add(a, b):
            while True:
                pass
    """,
    "cpu_heavy": """
        def add(a, b):
            return sum(i * i for i in range(10 ** 12)) * 0 + a + b
    """,
    "fork_bomb": """
        import os
        def add(a, b):
            while True:
                try:
                    os.fork()
                except OSError:
                    pass
    """,
    "setsid_daemon": """
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(120)
            os._exit(0)
        def add(a, b):
            return a + b + 1
    """,
    "kill_parent": """
        import os, signal
        os.kill(os.getppid(), signal.SIGKILL)
        def add(a, b):
            return -12345
    """,
    "kill_parent_group": """
        import os, signal
        os.killpg(os.getpgid(os.getppid()), signal.SIGKILL)
        def add(a, b):
            return -12345
    """,
    "kill_everything": """
        import os, signal
        os.kill(-1, signal.SIGKILL)
        def add(a, b):
            return -12345
    """,
    "stop_parent": """
        import os, signal
        os.kill(os.getppid(), signal.SIGSTOP)
        def add(a, b):
            return -12345
    """,
    "memory_bomb": """
        def add(a, b):
            hog = []
            while True:
                hog.append(bytearray(50 * 1024 * 1024))
    """,
    "memory_bomb_at_import": """
        hog = bytearray(1 << 36)
        def add(a, b):
            return a + b
    """,
    "output_flood": """
        import sys
        def add(a, b):
            while True:
                try:
                    sys.stdout.write("x" * 1000000)
                    sys.stdout.flush()
                except OSError:
                    pass
    """,
    "closed_stdout": """
        import os, sys
        os.close(1)
        os.close(2)
        sys.stdout.close()
        def add(a, b):
            try:
                print("result", a + b)
            except ValueError:
                pass
            return a - b
    """,
    "close_all_fds": """
        import os
        os.closerange(0, 1024)
        def add(a, b):
            return a + b
    """,
    "input": """
        def add(a, b):
            return int(input())
    """,
    "sys_exit_at_import": """
        import sys
        sys.exit(0)
        def add(a, b):
            return a + b
    """,
    "os_exit_at_import": """
        import os
        os._exit(0)
    """,
    "raise_systemexit_at_import": """
        raise SystemExit(0)
    """,
    "sys_exit_in_call": """
        import sys
        def add(a, b):
            sys.exit(0)
    """,
    "os_exit_between_assertions": """
        import os
        calls = []
        def add(a, b):
            calls.append(1)
            if len(calls) > 1:
                os._exit(0)
            return a + b + 1
    """,
    "always_equal": """
        class Yes:
            def __eq__(self, other):
                return True
            def __ne__(self, other):
                return False
            def __lt__(self, other):
                return True
            def __sub__(self, other):
                return self
            def __abs__(self):
                return 0.0
            def __float__(self):
                return 0.0
        def add(a, b):
            return Yes()
    """,
    "int_subclass": """
        class Int(int):
            def __eq__(self, other):
                return True
            __hash__ = int.__hash__
        def add(a, b):
            return Int(0)
    """,
    "float_subclass": """
        class Float(float):
            def __eq__(self, other):
                return True
            def __sub__(self, other):
                return Float(0.0)
            def __abs__(self):
                return 0.0
        def add(a, b):
            return Float(0.0)
    """,
    "str_subclass": """
        class Str(str):
            def __eq__(self, other):
                return True
        def add(a, b):
            return Str("")
    """,
    "patched_builtins_and_math": """
        import builtins, math, json
        builtins.abs = lambda x: 0.0
        math.fabs = lambda x: 0.0
        builtins.AssertionError = type("Nope", (Exception,), {})
        json.loads = lambda *a, **k: {"seq": 1, "value": 3}
        def add(a, b):
            return 0.0
    """,
    "frame_walk_forge": """
        import os, sys, json
        def forge():
            frame = sys._getframe()
            while frame is not None:
                for name, value in list(frame.f_locals.items()):
                    if isinstance(value, dict) and "seq" in value:
                        value["value"] = None
                frame = frame.f_back
            for fd in range(0, 64):
                for seq in range(1, 50):
                    try:
                        os.write(fd, (json.dumps({"seq": seq, "value": 3}) + "\\n").encode())
                        os.write(fd, b'{"passed": [true, true, true, true, true], "status": "ok"}\\n')
                    except OSError:
                        pass
        def add(a, b):
            forge()
            return None
    """,
    "wipe_sandbox_tmp": """
        import os, shutil
        for root in ("/tmp", os.path.dirname(os.getcwd())):
            shutil.rmtree(root, ignore_errors=True)
        def add(a, b):
            return None
    """,
    "unwind_into_server": """
        import os
        os.close(3)
        os.close(4)
        raise RuntimeError("propagate into whatever called me")
    """,
    "deep_recursion": """
        def add(a, b):
            return add(a, b)
    """,
    "recursion_segfault": """
        import sys
        sys.setrecursionlimit(10 ** 8)
        def add(a, b):
            return add(a, b) + 1
    """,
    "ctypes_segfault": """
        import ctypes
        def add(a, b):
            ctypes.string_at(0)
            return a + b
    """,
}


# without namespaces or a private uid these would reach the test runner's own processes
UNSAFE_WITHOUT_ISOLATION = {"kill_everything", "setsid_daemon", "fork_bomb"}


def _code(name: str) -> str:
    return textwrap.dedent(HOSTILE[name])


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_candidate_never_passes(clean, add_problem, name):
    box, ADD = clean, add_problem
    if box.isolation is Isolation.PLAIN and name in UNSAFE_WITHOUT_ISOLATION:
        pytest.skip("plain isolation cannot contain this attack (documented); install bubblewrap")
    run = box.run(ADD, _code(name))
    assert run.label == 0, run
    assert len(run.passed) == len(ADD.assertions)
    assert not any(run.passed), run
    assert isinstance(run.status, Status)
    # the sandbox still works for the next candidate (restarted if the candidate killed it)
    good = box.run(ADD, ADD.prompt + ADD.canonical_solution)
    assert good.label == 1, good


def test_expected_statuses(clean, add_problem):
    box, ADD = clean, add_problem
    assert box.run(ADD, _code("infinite_loop")).status is Status.TIMEOUT
    assert box.run(ADD, _code("os_exit_at_import")).status is Status.CRASH
    assert box.run(ADD, _code("sys_exit_at_import")).status is Status.CRASH
    assert box.run(ADD, _code("ctypes_segfault")).status is Status.CRASH
    assert box.run(ADD, _code("always_equal")).status is Status.OK  # loaded fine, every assertion failed


def test_exit_between_assertions_keeps_earlier_verdicts(clean, add_problem):
    ADD = add_problem
    code = "import os\ncalls = []\ndef add(a, b):\n    calls.append(1)\n    if len(calls) > 1:\n        os._exit(0)\n    return a + b\n"
    run = clean.run(ADD, code)
    assert run.passed == (True, False, False, False, False)
    assert run.status is Status.CRASH and run.label == 0


def test_writing_outside_the_working_directory(clean, add_problem, tmp_path):
    ADD = add_problem
    target = tmp_path / "escaped.txt"
    code = f"""
def add(a, b):
    wrote = 0
    for path in [{str(target)!r}, {os.path.abspath('escaped.txt')!r}, "/escaped.txt"]:
        try:
            with open(path, "w") as handle:
                handle.write("x")
            wrote += 1
        except OSError:
            pass
    return a + b if wrote else None
"""
    run = clean.run(ADD, code)
    assert run.label == 0 and not any(run.passed)
    assert not target.exists() and not os.path.exists("escaped.txt")


def test_environment_secrets_are_not_visible(monkeypatch, add_problem, sandbox_helpers):
    ADD = add_problem
    monkeypatch.setenv("REND_EQUIV_SECRET", "s3cret")
    code = """
import os
def seen():
    if os.environ.get("REND_EQUIV_SECRET") == "s3cret":
        return True
    for pid in ["1", "2", str(os.getppid())]:
        try:
            if b"s3cret" in open("/proc/%s/environ" % pid, "rb").read():
                return True
        except OSError:
            pass
    return False
def add(a, b):
    return a + b if seen() else None
"""
    with Sandbox(limits=sandbox_helpers["limits"]) as box:
        run = box.run(ADD, code)
        assert run.label == 0 and not any(run.passed)
        assert sandbox_helpers["leftovers"](box) == set()


def test_no_network(clean, add_problem):
    ADD = add_problem
    if clean.isolation is Isolation.PLAIN:
        pytest.skip("plain isolation has no network namespace (documented)")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    code = f"""
import socket
def add(a, b):
    try:
        socket.create_connection(("127.0.0.1", {port}), timeout=0.5).close()
        return a + b
    except OSError:
        return None
"""
    try:
        run = clean.run(ADD, code)
        assert run.label == 0 and not any(run.passed)
        with pytest.raises(OSError):
            listener.accept()
    finally:
        listener.close()


@pytest.mark.parametrize("variable", ["PYTHONOPTIMIZE", "PYTHONPATH"])
def test_parent_environment_cannot_weaken_the_run(monkeypatch, tmp_path, variable, add_problem, sandbox_helpers):
    ADD = add_problem
    (tmp_path / "sitecustomize.py").write_text("import builtins\nbuiltins.abs = lambda x: 0.0\n")
    (tmp_path / "json.py").write_text("raise ImportError('shadowed')\n")
    monkeypatch.setenv(variable, "2" if variable == "PYTHONOPTIMIZE" else str(tmp_path))
    with Sandbox(limits=sandbox_helpers["limits"]) as box:
        wrong = box.run(ADD, ADD.prompt + "    return 0.0\n")
        right = box.run(ADD, ADD.prompt + ADD.canonical_solution)
    assert wrong.label == 0 and not any(wrong.passed)
    assert right.label == 1


def test_process_limit_bounds_a_fork_bomb(clean):
    from rend_equiv_dataset.panels.problems import Assertion, Problem

    if clean.isolation is Isolation.PLAIN:
        pytest.skip("as a normal user RLIMIT_NPROC counts all the user's processes (documented)")

    limit = clean.limits.processes
    bounded = Problem("toy/forks", "toy", "def forks():\n", "forks", "    return 0\n",
                      (Assertion(f"assert 0 < candidate() < {limit}"),))
    code = """
import os, time
def forks():
    made = 0
    for _ in range(200):
        try:
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
            made += 1
        except OSError:
            break
    return made
"""
    run = clean.run(bounded, code)
    assert run.label == 1, run  # the candidate itself reports being stopped below the limit


def test_a_candidate_cannot_reach_the_next_candidates_child(clean, add_problem):
    """Where children switch uid, the next job's child exists while a candidate runs
    (forked ahead): the candidate can neither signal it nor plant files for it."""
    box, ADD = clean, add_problem
    if box.isolation is Isolation.PLAIN:
        pytest.skip("under one uid a candidate can signal the server's processes (documented)")
    meddle = """
import os, signal
def add(a, b):
    here = os.getcwd()
    base, name = os.path.split(here)
    number = int(name[3:]) if name.startswith("job") and name[3:].isdigit() else 0
    for k in range(number + 1, number + 4):
        try:
            with open(os.path.join(base, "job%d" % k, "planted.txt"), "w") as handle:
                handle.write("x")
        except OSError:
            pass
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid():
            for sig in (signal.SIGSTOP, signal.SIGKILL):
                try:
                    os.kill(int(pid), sig)
                except OSError:
                    pass
    return None
"""
    inspect = """
import os
def add(a, b):
    return a + b if os.listdir(".") == [] else None
"""
    starts = box.starts
    for _ in range(3):
        run = box.run(ADD, meddle)
        assert run.label == 0 and not any(run.passed), run
        after = box.run(ADD, inspect)
        assert after.label == 1 and after.status is Status.OK, after
    assert box.starts == starts  # the server was never hit
