"""Isolated execution of candidate code, per assertion (DESIGN §4.2, §6; paper §8).

How it works
------------
A lean fork-server (:mod:`._server`, standard library only) runs in its own
isolated interpreter (``python -I``: no ``PYTHON*`` variables such as
``PYTHONOPTIMIZE`` or ``PYTHONPATH``, no user site, a clean environment). For each
candidate it forks ONE child that loads the candidate code and answers calls.
The server runs the problem's trusted test code itself, in source order, with
``candidate`` bound to a proxy: each call's arguments go to the child as JSON,
the child's return value comes back as JSON of exact builtin types (``int``,
``float``, ``str``, ``bool``, ``None``, ``list``, ``tuple``, ``dict``, ``set``,
``bytes`` — never a subclass), and is rebuilt there as fresh objects. Every
assertion is therefore evaluated in the PARENT on plain values; the candidate
can choose what it returns and nothing else. Forging a pass means returning the
right values — which is what passing means. Replies must come one per request,
in order; anything else on the channel is tampering and voids every verdict of
that candidate. Calls whose arguments are literals in a leading run of plain
``assert`` statements are sent in one batch up front (one round trip instead of
one per assertion); the child is forked before the tests reach the server —
ahead of its job, in fact, so that forking and setting it up overlap other work
(where children switch to a private uid, while the previous candidate runs: it
stays root, out of that candidate's reach, until its own job comes).

Each child gets: its own session and process group; CPU-time, address-space,
file-size, process-count, open-file limits; standard input from ``/dev/null``
and output into a size-capped file; a private working directory; a wall-clock
deadline calibrated on the canonical solution (``Limits.timeout_for``, with a
floor). After each candidate the server (a child subreaper) kills and reaps
every process the candidate left. Where bubblewrap works
(:data:`Isolation.BWRAP`), the server runs in new PID, network, IPC and UTS
namespaces with a read-only view of only the system and Python directories, a
private size-limited ``/tmp``, ``--die-with-parent`` and no network at all;
killing the server ends the whole namespace. The candidate never runs as root:
started by root, the children switch to a private non-root uid (a uid that maps
onto root — as bubblewrap's own user namespace would do — is exempt from
RLIMIT_NPROC, so no user namespace is made); started by a normal user, a user
namespace maps the server to uid 65534. (Started by root, the server itself —
trusted code that only handles plain values — stays root inside the namespaces
with six capabilities: set uid/gid, kill, chown, fowner, dac_override.) A run
that times out keeps no verdict at all, since how far it got depends on the
machine's speed. Without bubblewrap, as root, each server's
children switch to a private uid (:data:`Isolation.UID`); otherwise only the
rlimits and process-group cleanup apply (:data:`Isolation.PLAIN`).
:func:`danger_scan` records which risky capabilities the source mentions.

What it protects against (each is a test in ``tests/sandbox/test_hostile.py``):
infinite and CPU-heavy loops, fork bombs, setsid daemons, killing the server or
its process group (the job is a crash, the server restarts, the caller lives),
memory bombs, output floods, closed stdout, ``input()``, ``sys.exit``/``os._exit``
/``SystemExit`` before or between assertions, always-equal objects and
``int``/``float``/``str`` subclasses with forged ``__eq__``, patched builtins or
``math`` (the test code never runs in the candidate's interpreter), walking
frames to the result channel, writing outside the working directory, reading
environment secrets, sockets, deep recursion and segfaults via ``ctypes``.

What it does NOT protect against: kernel exploits and side channels; a candidate
reading files the sandbox can see (the system and Python directories, read-only);
a candidate that finds expected outputs by itself (hard-coding, or searching its
own memory for remnants of earlier jobs' test code — each child is forked before
its own job's tests are sent, ahead of its job, but the server's memory is not
wiped and, where children switch uid, still holds the previous job's tests);
denial of service within the limits (it may use its full CPU and memory budget).
Without bubblewrap as a normal user (:data:`Isolation.PLAIN`) there is NO network
isolation, a candidate can signal other processes of the same user, and a
double-forked daemon may escape the process-group cleanup. In
:data:`Isolation.UID` mode the server drops into an empty network namespace, and
modules it did not preload cannot be imported when the interpreter lives in a
directory the private uid cannot read.
"""

from rend_equiv_dataset.panels.sandbox.runner import Execution, Isolation, Limits, Sandbox, Status, choose_isolation
from rend_equiv_dataset.panels.sandbox.scan import danger_scan

__all__ = ["Execution", "Isolation", "Limits", "Sandbox", "Status", "choose_isolation", "danger_scan"]
