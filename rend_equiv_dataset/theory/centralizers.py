"""Joint centralizers in S_m: the label errors no edit of a suite can detect (paper Theorem 2).

For a suite of label maps φ_1…φ_k on m labels, the undetectable set in the
permutation class at τ = 0 is U_0(G) = {σ ∈ S_m : σ∘φ_g = φ_g∘σ for all g}.
Two exact ways to compute it:

- :func:`joint_centralizer` — any m. A permutation commuting with the
  permutations of the suite is an isomorphism of the orbits of the group
  H = ⟨φ_1…φ_k⟩ they generate, fixed once the image of one point per orbit is
  chosen; so |U| = ∏ over classes of isomorphic orbits of n! · a^n, with n the
  orbits in the class and a the automorphisms of one of them. For one
  permutation this is the cycle-type formula ∏ j^{c_j} c_j! (Proposition 5).
  Label maps that are not bijections (delete_max) enter as colourings: a
  permutation commuting with such a map preserves its refined colour classes,
  and for maps whose moved labels land in singleton classes (delete_max, and
  any map that merges labels into distinct single targets) that is also
  sufficient. Other non-bijective maps fall back to enumeration.
- :func:`enumerate_centralizer` — m ≤ :data:`ENUMERATION_MAX_M`, by testing all m!
  permutations at once with numpy; the cross-check.

>>> swap, cycle = (1, 0, 2, 3, 4, 5), (1, 2, 3, 4, 5, 0)
>>> joint_centralizer([swap], 6).order, joint_centralizer([cycle], 6).order
(48, 6)
>>> joint_centralizer([swap, cycle], 6).order     # swap + m-cycle: only the identity
1
>>> len(enumerate_centralizer([swap], 6))
48
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.theory.permutations import Perm, is_bijection

ENUMERATION_MAX_M = 8
"""Largest m whose m! permutations are enumerated (8! = 40,320 rows)."""


@dataclass(frozen=True)
class _OrbitClass:
    """n isomorphic orbits of H, each with a automorphisms: n! · a^n centralizer elements."""

    orbits: tuple[tuple[int, ...], ...]
    automorphisms: int

    @property
    def order(self) -> int:
        n = len(self.orbits)
        return math.factorial(n) * math.prod([self.automorphisms] * n)


@dataclass(frozen=True)
class JointCentralizer:
    """The joint centralizer of a suite of label maps in S_m.

    Attributes:
        m: number of labels.
        order: |U_0(G)|, exact.
        method: ``"orbits"`` (any m) or ``"enumeration"`` (all m! permutations).
    """

    m: int
    order: int
    method: str
    _maps: tuple[Perm, ...]
    _classes: tuple[_OrbitClass, ...] | None
    _colors: tuple[int, ...]

    def members(self, limit: int | None = None) -> list[Perm]:
        """The members, sorted; refuses (InputError) when there are more than ``limit``.

        >>> joint_centralizer([(1, 2, 0)], 3).members()
        [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
        """
        if limit is not None and self.order > limit:
            raise InputError(f"{self.order} members, more than the limit of {limit} to list", field="limit")
        if self._classes is None:
            rows = enumerate_centralizer(self._maps, self.m)
            return sorted(tuple(int(x) for x in row) for row in rows)
        return sorted(self._iter_members())

    def describe(self, labels: Sequence[str]) -> str:
        """The structure in words: which labels move among which, and the factors of the order.

        >>> joint_centralizer([(1, 0, 2, 3, 4, 5)], 6).describe("ABCDEF")
        'A, B map among themselves (2 ways); C, D, E, F are permuted freely (4!); 2 · 4! = 48'
        >>> joint_centralizer([(1, 2, 3, 0)], 4).describe("ABCD")
        'A, B, C, D map among themselves (4 ways); 4'
        """
        if self._classes is None:
            return f"{self.order} permutations found by enumeration"
        parts, factors = [], []
        for cls in self._classes:
            phrase, factor = _class_phrase(cls, labels)
            parts.append(phrase)
            if factor:
                factors.append(factor)
        formula = " · ".join(factors) if factors else "1"
        total = f" = {self.order}" if len(factors) > 1 and self.order < 10**12 else ""
        return "; ".join(parts) + f"; {formula}{total}"

    def _iter_members(self) -> Iterator[Perm]:
        per_class = [list(_class_members(c, self._maps, self._colors)) for c in self._classes or ()]
        for parts in itertools.product(*per_class):
            sigma = [0] * self.m
            for part in parts:
                for x, y in part.items():
                    sigma[x] = y
            yield tuple(sigma)


def _class_phrase(cls: _OrbitClass, labels: Sequence[str]) -> tuple[str, str]:
    """Words and the factor n! · a^n for one class of isomorphic orbits ('' when the factor is 1)."""
    n, a = len(cls.orbits), cls.automorphisms
    size = len(cls.orbits[0])
    if size == 1:
        names = _names([o[0] for o in cls.orbits], labels)
        return (f"{names} fixed", "") if n == 1 else (f"{names} are permuted freely ({n}!)", f"{n}!")
    if n == 1:
        names = _names(cls.orbits[0], labels)
        return (f"{names} fixed", "") if a == 1 else (f"{names} map among themselves ({a} ways)", str(a))
    groups = ", ".join("{" + _names(o, labels) + "}" for o in cls.orbits)
    if a == 1:
        return f"the groups {groups} are exchanged ({n}!)", f"{n}!"
    return f"the groups {groups} are exchanged ({n}!), each in {a} ways", f"{n}! · {a}^{n}"


def _names(points: Sequence[int], labels: Sequence[str], show: int = 8) -> str:
    names = [labels[x] for x in points]
    if len(names) <= show:
        return ", ".join(names)
    return ", ".join(names[: show - 2]) + f", …, {names[-1]} ({len(names)} labels)"


def joint_centralizer(maps: Sequence[Perm], m: int) -> JointCentralizer:
    """U_0(G) in S_m for a suite of index maps on m labels, exactly (paper Theorem 2).

    >>> joint_centralizer([], 4).order                          # no edit: all of S_4
    24
    >>> joint_centralizer([(1, 1, 2, 3, 4)], 5).order           # delete_max A -> B: fix A and B
    6
    >>> joint_centralizer([(1, 0, 2, 3, 4), (1, 2, 3, 4, 0)], 5).members()
    [(0, 1, 2, 3, 4)]
    """
    checked = _check_maps(maps, m)
    bijections = [p for p in checked if is_bijection(p)]
    others = [p for p in checked if not is_bijection(p)]
    colors = _refined_colors(others, m)
    if all(_color_determined(f, colors) for f in others):
        classes = _orbit_classes(bijections, colors, m)
        order = math.prod(c.order for c in classes)
        return JointCentralizer(m, order, "orbits", tuple(bijections), tuple(classes), tuple(colors))
    if m > ENUMERATION_MAX_M:
        raise InputError(
            f"this suite has a label map that is neither a permutation nor delete_max-like; it is solved by "
            f"enumeration, allowed for m <= {ENUMERATION_MAX_M} labels, got m={m}",
            field="labels",
        )
    order = len(enumerate_centralizer(checked, m))
    return JointCentralizer(m, order, "enumeration", tuple(checked), None, tuple(colors))


@lru_cache(maxsize=ENUMERATION_MAX_M + 1)
def all_permutations(m: int) -> np.ndarray:
    """All m! permutations of ``0..m-1`` as rows, in lexicographic order (read-only).

    >>> all_permutations(3).tolist()
    [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
    """
    _check_enumerable(m)
    table = np.array(list(itertools.permutations(range(m))), dtype=np.int8).reshape(-1, m)
    table.setflags(write=False)
    return table


def enumerate_centralizer(maps: Sequence[Perm], m: int) -> np.ndarray:
    """Rows of all σ ∈ S_m with σ∘f = f∘σ for every map f, by brute force over S_m.

    Vectorised: ``S[:, f]`` is σ∘f and ``f[S]`` is f∘σ for every σ at once.

    >>> enumerate_centralizer([(1, 0, 2)], 3).tolist()
    [[0, 1, 2], [1, 0, 2]]
    """
    table = all_permutations(m)
    keep = np.ones(len(table), dtype=bool)
    for f in _check_maps(maps, m):
        images = np.asarray(f, dtype=np.int8)
        keep &= np.all(table[:, images] == images[table], axis=1)
    return table[keep]


def _check_enumerable(m: int) -> None:
    if m > ENUMERATION_MAX_M:
        raise InputError(
            f"enumeration of S_m is allowed for m <= {ENUMERATION_MAX_M} labels, got m={m}", field="labels"
        )
    if m < 1:
        raise InputError(f"needs at least one label, got m={m}", field="labels")


def _check_maps(maps: Sequence[Perm], m: int) -> list[Perm]:
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise InputError(f"the number of labels must be an integer >= 1, got {m!r}", field="labels")
    out = []
    for index, f in enumerate(maps):
        f = tuple(f)
        if len(f) != m or not all(isinstance(y, (int, np.integer)) and 0 <= y < m for y in f):
            raise InputError(f"map {index} must list {m} images in 0..{m - 1}, got {f}", field="maps")
        out.append(tuple(int(y) for y in f))
    return out


def _refined_colors(maps: Sequence[Perm], m: int) -> list[int]:
    """Stable colour refinement of the labels under the maps: an automorphism invariant."""
    colors = [0] * m
    n_classes = 1
    while True:
        preimages: list[list[list[int]]] = [[[] for _ in range(m)] for _ in maps]
        for k, f in enumerate(maps):
            for x, y in enumerate(f):
                preimages[k][y].append(colors[x])
        signatures = [
            (
                colors[x],
                tuple((colors[f[x]], f[x] == x) for f in maps),
                tuple(tuple(sorted(pre[x])) for pre in preimages),
            )
            for x in range(m)
        ]
        ranks = {sig: rank for rank, sig in enumerate(sorted(set(signatures)))}
        colors = [ranks[sig] for sig in signatures]
        if len(ranks) == n_classes:
            return colors
        n_classes = len(ranks)


def _color_determined(f: Perm, colors: Sequence[int]) -> bool:
    """Whether preserving the colours already forces commuting with ``f``.

    True when every label f moves lands on a label alone in its colour class:
    then σ fixes f(x), and σ(x), sharing x's colour, has the same image.
    """
    sizes = Counter(colors)
    return all(sizes[colors[y]] == 1 for x, y in enumerate(f) if x != y)


def _orbits(perms: Sequence[Perm], m: int) -> list[tuple[int, ...]]:
    seen = [False] * m
    orbits = []
    for start in range(m):
        if seen[start]:
            continue
        seen[start] = True
        orbit, stack = [start], [start]
        while stack:
            x = stack.pop()
            for p in perms:
                if not seen[p[x]]:
                    seen[p[x]] = True
                    orbit.append(p[x])
                    stack.append(p[x])
        orbits.append(tuple(sorted(orbit)))
    return orbits


def _extend(x0: int, y0: int, perms: Sequence[Perm], colors: Sequence[int]) -> dict[int, int] | None:
    """The H-equivariant map on x0's orbit with x0 ↦ y0, if one exists (colours preserved)."""
    if colors[x0] != colors[y0]:
        return None
    sigma = {x0: y0}
    stack = [x0]
    while stack:
        x = stack.pop()
        for p in perms:
            a, b = p[x], p[sigma[x]]
            if a in sigma:
                if sigma[a] != b:
                    return None
            elif colors[a] != colors[b]:
                return None
            else:
                sigma[a] = b
                stack.append(a)
    return sigma


OrbitKey = tuple[int, tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...]]


def _orbit_key(orbit: tuple[int, ...], perms: Sequence[Perm], colors: Sequence[int]) -> OrbitKey:
    """An isomorphism invariant of an orbit: size, colours, each generator's cycle lengths on it."""
    members = set(orbit)
    lengths = []
    for p in perms:
        seen: set[int] = set()
        counts: Counter[int] = Counter()
        for x in orbit:
            if x in seen:
                continue
            n, y = 0, x
            while y not in seen:
                seen.add(y)
                y, n = p[y], n + 1
            counts[n] += 1
        lengths.append(tuple(sorted(counts.items())))
    return (len(orbit), tuple(sorted(colors[x] for x in members)), tuple(lengths))


def _orbit_classes(perms: Sequence[Perm], colors: Sequence[int], m: int) -> list[_OrbitClass]:
    groups: dict[OrbitKey, list[list[tuple[int, ...]]]] = {}
    for orbit in _orbits(perms, m):
        classes = groups.setdefault(_orbit_key(orbit, perms, colors), [])
        for members in classes:
            if any(_extend(orbit[0], y, perms, colors) for y in members[0]):
                members.append(orbit)
                break
        else:
            classes.append([orbit])
    out = []
    for classes in groups.values():
        for orbits in classes:
            out.append(_class_images(orbits, perms, colors))
    return out


def _class_images(orbits: list[tuple[int, ...]], perms: Sequence[Perm], colors: Sequence[int]) -> _OrbitClass:
    """The class with the automorphism count of its first orbit (the base point's valid images)."""
    own = sum(_extend(orbits[0][0], y, perms, colors) is not None for y in orbits[0])
    return _OrbitClass(tuple(orbits), own)


def _class_members(cls: _OrbitClass, perms: Sequence[Perm], colors: Sequence[int]) -> Iterator[dict[int, int]]:
    """Every isomorphism of the class's orbits onto themselves, as a point map."""
    orbits = cls.orbits
    valid = [
        [[y for y in target if _extend(source[0], y, perms, colors) is not None] for target in orbits]
        for source in orbits
    ]
    for arrangement in itertools.permutations(range(len(orbits))):
        choices = [valid[i][j] for i, j in enumerate(arrangement)]
        for picks in itertools.product(*choices):
            sigma: dict[int, int] = {}
            for source, y in zip(orbits, picks):
                sigma.update(_extend(source[0], y, perms, colors) or {})
            yield sigma
