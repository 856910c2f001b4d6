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


@pytest.mark.parametrize("value", [Int(3), object(), [1, Int(2)], {"a": object()}, range(3), type, 1j])
def test_subclasses_and_objects_are_refused(value):
    with pytest.raises(TypeError):
        server.encode(value)


@pytest.mark.parametrize(
    "raw",
    [{"$x": [1]}, {"$t": 1}, {"$f": "1.0"}, {"a": 1, "b": 2}, {"$d": [[1]]}, {"$b": 5}, {"$t": [1], "$s": [2]},
     {"$s": [[1]]}, {"$d": [[[1], 2]]}],
)
def test_malformed_trees_are_rejected(raw):
    with pytest.raises(server.CandidateError):
        server.decode(raw)


def test_depth_is_bounded():
    deep = []
    for _ in range(200):
        deep = [deep]
    with pytest.raises(TypeError):
        server.encode(deep)
