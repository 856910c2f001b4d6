"""Label maps on m labels as index tuples, and conversion to and from :class:`LabelMap`.

Internally a map on m labels is a tuple ``p`` of images of ``0..m-1``
(``p[i]`` is where label ``i`` goes); a permutation is such a tuple that is a
bijection. Tuples are hashable, fast to compose and index numpy arrays
directly. The public face of a label map is the shared
:class:`~rend_equiv_dataset.transforms.LabelMap`, over an explicit label tuple.

>>> labels = default_labels(4)
>>> labels
('A', 'B', 'C', 'D')
>>> swap = from_label_map(LabelMap.from_pairs({"A": "B", "B": "A"}), labels)
>>> swap
(1, 0, 2, 3)
>>> cycle_type(swap)
{1: 2, 2: 1}
>>> cycle_notation(compose((1, 2, 3, 0), swap), labels)
'(A C D)'
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.transforms import IDENTITY, Identity, LabelMap, Transform

Perm = tuple[int, ...]
"""Images of ``0..m-1``; a bijection for a permutation, any map for a label map."""


def default_labels(m: int) -> tuple[str, ...]:
    """Labels ``A, B, …, Z`` for m ≤ 26, ``L1 … Lm`` beyond.

    >>> default_labels(3)
    ('A', 'B', 'C')
    >>> default_labels(27)[-1]
    'L27'
    """
    if m <= 26:
        return tuple(chr(ord("A") + i) for i in range(m))
    return tuple(f"L{i + 1}" for i in range(m))


def is_bijection(p: Perm) -> bool:
    """Whether the index map ``p`` permutes ``0..m-1``.

    >>> is_bijection((1, 0, 2)), is_bijection((1, 1, 2))
    (True, False)
    """
    return sorted(p) == list(range(len(p)))


def compose(f: Perm, g: Perm) -> Perm:
    """f∘g, ``x ↦ f(g(x))`` (the order of :meth:`LabelMap.compose`).

    >>> compose((1, 2, 0), (1, 0, 2))
    (2, 1, 0)
    """
    return tuple(f[x] for x in g)


def inverse(p: Perm) -> Perm:
    """The inverse of a permutation.

    >>> inverse((1, 2, 0))
    (2, 0, 1)
    """
    out = [0] * len(p)
    for x, y in enumerate(p):
        out[y] = x
    return tuple(out)


def cycles(p: Perm) -> list[tuple[int, ...]]:
    """The cycles of a permutation, each starting at its smallest point, fixed points included.

    >>> cycles((1, 2, 0, 3))
    [(0, 1, 2), (3,)]
    """
    seen = [False] * len(p)
    out = []
    for start in range(len(p)):
        if seen[start]:
            continue
        cycle = []
        x = start
        while not seen[x]:
            seen[x] = True
            cycle.append(x)
            x = p[x]
        out.append(tuple(cycle))
    return out


def cycle_type(p: Perm) -> dict[int, int]:
    """Cycle type {j: c_j}: the permutation has c_j cycles of length j.

    >>> cycle_type((1, 2, 0, 4, 3, 5))
    {1: 1, 2: 1, 3: 1}
    """
    return dict(sorted(Counter(len(c) for c in cycles(p)).items()))


def centralizer_order_of_type(cycle_counts: dict[int, int]) -> int:
    """|C_{S_m}(σ)| = ∏_j j^{c_j} · c_j! for σ with c_j cycles of length j (paper Proposition 5).

    >>> centralizer_order_of_type({1: 4, 2: 1})   # a swap in S_6: 2·(6−2)!
    48
    >>> centralizer_order_of_type({6: 1})         # a 6-cycle
    6
    """
    order = 1
    for length, count in cycle_counts.items():
        order *= length**count * math.factorial(count)
    return order


def centralizer_order(p: Perm) -> int:
    """Order of the centralizer of the permutation ``p`` in S_m, by its cycle type.

    >>> centralizer_order((1, 0, 2, 3, 4))        # swap in S_5: 2·3!
    12
    >>> centralizer_order((1, 2, 3, 4, 0))        # 5-cycle
    5
    """
    if not is_bijection(p):
        raise InputError(f"the cycle-type formula needs a permutation, got the map {p}", field="phi")
    return centralizer_order_of_type(cycle_type(p))


def from_label_map(transform: Transform, labels: Sequence[str]) -> Perm:
    """The index map of a label map (or the identity) over ``labels``.

    Labels the map moves must be in ``labels``; labels it does not list are fixed.

    >>> from_label_map(LabelMap.from_pairs({"C": "A"}), ("A", "B", "C"))
    (0, 1, 0)
    >>> from_label_map(LabelMap.from_pairs({"Z": "A"}), ("A", "B"))
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field 'map': label 'Z' is not one of the 2 labels A, B
    """
    index = _label_index(labels)
    if isinstance(transform, Identity):
        return tuple(range(len(labels)))
    if not isinstance(transform, LabelMap):
        raise InputError(f"expected a label map, got a {transform.kind} transform", field="kind")
    images = list(range(len(labels)))
    for source, target in transform.pairs:
        for label in (source, target):
            if label not in index:
                raise InputError(
                    f"label {label!r} is not one of the {len(labels)} labels {', '.join(labels)}", field="map"
                )
        images[index[source]] = index[target]
    return tuple(images)


def to_label_map(p: Perm, labels: Sequence[str]) -> Transform:
    """The :class:`LabelMap` of an index map over ``labels`` (:data:`IDENTITY` when it moves nothing).

    >>> to_label_map((1, 0, 2), ("A", "B", "C"))
    LabelMap(pairs=(('A', 'B'), ('B', 'A')))
    >>> to_label_map((0, 1), ("A", "B")) == IDENTITY
    True
    """
    if len(p) != len(labels):
        raise InputError(f"a map on {len(p)} labels needs {len(p)} label names, got {len(labels)}", field="labels")
    pairs = {labels[i]: labels[j] for i, j in enumerate(p) if i != j}
    return LabelMap.from_pairs(pairs) if pairs else IDENTITY


def cycle_notation(p: Perm, labels: Sequence[str] | None = None) -> str:
    """Cycle notation without fixed points; ``()`` for the identity.

    >>> cycle_notation((1, 0, 3, 2), ("A", "B", "C", "D"))
    '(A B)(C D)'
    >>> cycle_notation((0, 1, 2))
    '()'
    """
    names = labels if labels is not None else [str(i) for i in range(len(p))]
    parts = ["(" + " ".join(names[x] for x in c) + ")" for c in cycles(p) if len(c) > 1]
    return "".join(parts) or "()"


def _label_index(labels: Sequence[str]) -> dict[str, int]:
    if len(set(labels)) != len(labels):
        raise InputError("labels must be distinct", field="labels")
    return {label: i for i, label in enumerate(labels)}
