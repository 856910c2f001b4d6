"""The shared answer-transform algebra: composition laws and the JSON contract."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.transforms import IDENTITY, Affine, LabelMap, from_dict, from_json, to_json

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
labels = st.sampled_from(list("ABCDEF"))
label_maps = st.dictionaries(labels, labels, max_size=6).map(LabelMap.from_pairs)


@given(finite, finite, finite, finite, finite)
def test_affine_composition_is_function_composition(c1, d1, c2, d2, a):
    f, g = Affine(c1, d1), Affine(c2, d2)
    composed = f.compose(g)
    expected = f.apply(g.apply(a))
    assert composed.apply(a) == pytest.approx(expected, rel=1e-9, abs=1e-3)


@given(label_maps, label_maps, labels)
def test_label_map_composition_is_function_composition(f, g, x):
    assert f.compose(g).apply(x) == f.apply(g.apply(x))


@given(label_maps)
def test_identity_is_neutral(f):
    assert IDENTITY.compose(f) == f.compose(IDENTITY)
    assert f.compose(IDENTITY).apply("A") == f.apply("A")


@given(st.one_of(label_maps, st.builds(Affine, finite, finite)))
def test_json_round_trip(transform):
    assert from_json(to_json(transform)) == from_json(to_json(from_json(to_json(transform))))
    assert from_json(to_json(transform)).apply("A" if isinstance(transform, LabelMap) else 1.5) == transform.apply(
        "A" if isinstance(transform, LabelMap) else 1.5
    )


def test_contract_json_shapes():
    assert json.loads(to_json(IDENTITY)) == {"kind": "identity"}
    assert json.loads(to_json(Affine(2.0, 0.0))) == {"kind": "affine", "scale": 2.0, "shift": 0.0}
    assert json.loads(to_json(LabelMap.from_pairs({"B": "C", "A": "A"}))) == {"kind": "label_map", "map": {"B": "C"}}


def test_trivial_maps_simplify_to_identity():
    assert from_dict({"kind": "affine", "scale": 1, "shift": 0}) == IDENTITY
    assert from_dict({"kind": "label_map", "map": {"A": "A"}}) == IDENTITY


def test_swap_is_an_involution_and_delete_max_is_not_a_bijection():
    swap = LabelMap.from_pairs({"A": "B", "B": "A"})
    assert swap.compose(swap) == IDENTITY
    assert swap.is_bijection_on(("A", "B", "C"))
    assert not LabelMap.from_pairs({"A": "B"}).is_bijection_on(("A", "B", "C"))


@pytest.mark.parametrize(
    "payload, field",
    [
        ({"kind": "affine"}, "kind"),
        ({"kind": "affine", "scale": "2"}, "scale"),
        ({"kind": "affine", "scale": float("nan")}, "scale"),
        ({"kind": "affine", "scale": 2, "offset": 1}, "kind"),
        ({"kind": "label_map", "map": ["A", "B"]}, "map"),
        ({"kind": "label_map", "map": {"A": 3}}, "map"),
        ({"scale": 2}, "kind"),
    ],
)
def test_bad_transforms_name_the_field(payload, field):
    with pytest.raises(InputError) as err:
        from_dict(payload)
    assert err.value.field == field


def test_bad_json_is_an_input_error():
    with pytest.raises(InputError):
        from_json("{not json")
    with pytest.raises(TypeError):
        Affine(2.0).apply("A")
    with pytest.raises(TypeError):
        Affine(2.0).compose(LabelMap.from_pairs({"A": "B"}))
