"""Hypothesis strategies for label maps on m labels (index tuples)."""

from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def permutation(draw: st.DrawFn, m: int) -> tuple[int, ...]:
    return tuple(draw(st.permutations(range(m))))


@st.composite
def delete_like(draw: st.DrawFn, m: int) -> tuple[int, ...]:
    """A delete_max map: one label sent to another, the rest fixed."""
    deleted, runner_up = draw(st.lists(st.integers(0, m - 1), min_size=2, max_size=2, unique=True))
    images = list(range(m))
    images[deleted] = runner_up
    return tuple(images)


@st.composite
def any_map(draw: st.DrawFn, m: int) -> tuple[int, ...]:
    return tuple(draw(st.lists(st.integers(0, m - 1), min_size=m, max_size=m)))


@st.composite
def suite(draw: st.DrawFn, min_m: int = 2, max_m: int = 6, max_size: int = 3, kinds: tuple[str, ...] = ("perm", "delete")):
    """(m, [maps]) with maps drawn from the requested kinds."""
    m = draw(st.integers(min_m, max_m))
    makers = {"perm": permutation, "delete": delete_like, "any": any_map}
    maps = draw(st.lists(st.sampled_from(kinds).flatmap(lambda k: makers[k](m)), max_size=max_size))
    return m, maps
