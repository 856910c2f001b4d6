"""Answer-transforms φ_g as data: the one algebra shared by generator, theory and scoring.

An edit g of a chart's data changes the correct answer by a known map φ_g
(paper §3, Eq. 1: a*(g(D), q) = φ_g(a*(D, q))). The same maps describe a
reader's systematic errors e (paper §4), so one implementation serves both.

Three kinds, each a small frozen dataclass that serialises to the JSON of
docs/design.md §7.2:

- :class:`Identity` — ``{"kind": "identity"}`` (zoom, re-renderings);
- :class:`Affine` — ``{"kind": "affine", "scale": c, "shift": d}``, a ↦ c·a + d;
- :class:`LabelMap` — ``{"kind": "label_map", "map": {"A": "B", ...}}``; labels
  not in the map are fixed. It need not be a bijection (delete_max sends the
  deleted label to the runner-up and fixes the others).

Composition follows function composition: ``f.compose(g)`` is f∘g, that is
``x ↦ f(g(x))``.

>>> scale = Affine(2.0, 0.0)
>>> scale.apply(3.5)
7.0
>>> Affine(1.0, 5.0).compose(scale) == Affine(2.0, 5.0)
True
>>> swap = LabelMap.from_pairs({"A": "B", "B": "A"})
>>> swap.apply("A"), swap.apply("C")
('B', 'C')
>>> swap.compose(swap) == IDENTITY
True
>>> from_json(to_json(scale)) == scale
True
>>> to_json(LabelMap.from_pairs({"B": "C"}))
'{"kind": "label_map", "map": {"B": "C"}}'
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rend_equiv_dataset.errors import InputError

Answer = float | str


@dataclass(frozen=True)
class Identity:
    """The identity map; every error commutes with it (paper Lemma 1, Corollary 3)."""

    kind = "identity"

    def apply(self, answer: Answer) -> Answer:
        return answer

    def compose(self, inner: Transform) -> Transform:
        return _simplify(inner)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True)
class Affine:
    """a ↦ scale·a + shift on numeric answers."""

    scale: float
    shift: float = 0.0
    kind = "affine"

    def __post_init__(self) -> None:
        for name in ("scale", "shift"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise InputError(f"must be a finite number, got {value!r}", field=name)
        object.__setattr__(self, "scale", float(self.scale))
        object.__setattr__(self, "shift", float(self.shift))

    def apply(self, answer: Answer) -> float:
        if isinstance(answer, str):
            raise TypeError(f"an affine transform applies to numbers, got label {answer!r}")
        return self.scale * float(answer) + self.shift

    def compose(self, inner: Transform) -> Transform:
        if isinstance(inner, Identity):
            return _simplify(self)
        if not isinstance(inner, Affine):
            raise TypeError(f"cannot compose an affine map with a {inner.kind} map")
        return _simplify(Affine(self.scale * inner.scale, self.scale * inner.shift + self.shift))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "scale": self.scale, "shift": self.shift}


@dataclass(frozen=True)
class LabelMap:
    """A map on category labels; labels not listed are fixed.

    Stored canonically: fixed points dropped, pairs sorted by source label, so
    equal maps compare equal and serialise to the same bytes.
    """

    pairs: tuple[tuple[str, str], ...]
    kind = "label_map"

    def __post_init__(self) -> None:
        for source, target in self.pairs:
            if not isinstance(source, str) or not isinstance(target, str):
                raise InputError(f"labels must be strings, got {source!r} -> {target!r}", field="map")
        sources = [s for s, _ in self.pairs]
        if len(set(sources)) != len(sources):
            raise InputError("a label appears twice as a source", field="map")
        canonical = tuple(sorted((s, t) for s, t in self.pairs if s != t))
        object.__setattr__(self, "pairs", canonical)

    @classmethod
    def from_pairs(cls, mapping: Mapping[str, str]) -> LabelMap:
        return cls(tuple(mapping.items()))

    @property
    def mapping(self) -> dict[str, str]:
        return dict(self.pairs)

    def apply(self, answer: Answer) -> Answer:
        if not isinstance(answer, str):
            raise TypeError(f"a label map applies to labels, got number {answer!r}")
        return self.mapping.get(answer, answer)

    def compose(self, inner: Transform) -> Transform:
        if isinstance(inner, Identity):
            return _simplify(self)
        if not isinstance(inner, LabelMap):
            raise TypeError(f"cannot compose a label map with a {inner.kind} map")
        outer, first = self.mapping, inner.mapping
        labels = set(outer) | set(first)
        composed = {x: outer.get(first.get(x, x), first.get(x, x)) for x in sorted(labels)}
        return _simplify(LabelMap.from_pairs(composed))

    def is_bijection_on(self, labels: tuple[str, ...] | list[str]) -> bool:
        """Whether this map permutes ``labels`` (and moves nothing outside them)."""
        images = [self.apply(x) for x in labels]
        return set(images) == set(labels) and set(self.mapping) <= set(labels)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "map": dict(self.pairs)}


Transform = Identity | Affine | LabelMap

IDENTITY = Identity()


def _simplify(transform: Transform) -> Transform:
    """Return :data:`IDENTITY` for maps that act as the identity."""
    if isinstance(transform, Affine) and transform.scale == 1.0 and transform.shift == 0.0:
        return IDENTITY
    if isinstance(transform, LabelMap) and not transform.pairs:
        return IDENTITY
    return transform


def _identity_from(payload: dict[str, Any]) -> Transform:
    return IDENTITY


def _affine_from(payload: dict[str, Any]) -> Transform:
    return Affine(payload["scale"], payload.get("shift", 0.0))


def _label_map_from(payload: dict[str, Any]) -> Transform:
    mapping = payload["map"]
    if not isinstance(mapping, dict):
        raise InputError(f"must be an object of label -> label, got {type(mapping).__name__}", field="map")
    return LabelMap.from_pairs(mapping)


_PARSERS: dict[str, tuple[frozenset[str], frozenset[str], Callable[[dict[str, Any]], Transform]]] = {
    # kind: (required keys, optional keys, constructor)
    "identity": (frozenset(), frozenset(), _identity_from),
    "affine": (frozenset({"scale"}), frozenset({"shift"}), _affine_from),
    "label_map": (frozenset({"map"}), frozenset(), _label_map_from),
}

KINDS: tuple[str, ...] = tuple(_PARSERS)


def from_dict(payload: Mapping[str, Any]) -> Transform:
    """Build a transform from its JSON object, validating kind and keys.

    >>> from_dict({"kind": "affine", "scale": 1.0, "shift": -2.5})
    Affine(scale=1.0, shift=-2.5)
    >>> from_dict({"kind": "rotate"})
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field 'kind': unknown transform kind 'rotate'; expected one of identity, affine, label_map
    """
    if not isinstance(payload, Mapping):
        raise InputError(f"a transform must be a JSON object, got {type(payload).__name__}")
    kind = payload.get("kind")
    if kind not in _PARSERS:
        raise InputError(f"unknown transform kind {kind!r}; expected one of {', '.join(KINDS)}", field="kind")
    required, optional, build = _PARSERS[kind]
    keys = set(payload) - {"kind"}
    if missing := required - keys:
        raise InputError(f"a {kind} transform needs {sorted(missing)}", field="kind")
    if extra := keys - required - optional:
        raise InputError(f"unexpected keys {sorted(extra)} for a {kind} transform", field="kind")
    return _simplify(build(dict(payload)))


def to_json(transform: Transform) -> str:
    """Serialise to the canonical JSON string stored in datasets (docs/design.md §7.2)."""
    return json.dumps(transform.to_dict(), allow_nan=False)


def from_json(text: str) -> Transform:
    """Parse a transform JSON string; bad input raises :class:`InputError`."""
    from rend_equiv_dataset.io import parse_json

    if not isinstance(text, str):
        raise InputError(f"transform must be a JSON string, got {type(text).__name__}")
    return from_dict(parse_json(text))
