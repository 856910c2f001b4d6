"""Splitting renderings over processes: a partition, the same as Accelerate's."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness.sharding import parse_shard, process_context, shard_slice


@given(st.lists(st.text(max_size=3), max_size=40, unique=True), st.integers(1, 9))
def test_shards_partition_the_ids_in_order(ids: list[str], count: int) -> None:
    shards = [shard_slice(ids, i, count) for i in range(count)]
    assert [x for shard in shards for x in shard] == ids
    sizes = [len(s) for s in shards]
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)


@given(st.integers(0, 30), st.integers(1, 6))
def test_shards_match_accelerates_split_between_processes(n: int, count: int) -> None:
    from accelerate import PartialState

    ids = [f"r{i}" for i in range(n)]
    state = PartialState(cpu=True)  # one process; emulate each rank of `count`
    for rank in range(count):
        state.num_processes, state.process_index = count, rank
        try:
            with state.split_between_processes(ids) as theirs:
                assert shard_slice(ids, rank, count) == list(theirs)
        finally:
            state.num_processes, state.process_index = 1, 0


@pytest.mark.parametrize("text", ["1", "a/b", "2/2", "-1/3", "0/0", "1/2/3"])
def test_bad_shard_is_an_input_error(text: str) -> None:
    with pytest.raises(InputError) as err:
        parse_shard(text)
    assert err.value.field == "--shard"


def test_fixed_shard_context_takes_its_slice() -> None:
    ctx = process_context((1, 3))
    assert (ctx.rank, ctx.world, ctx.is_main) == (1, 3, False)
    assert ctx.split(list("abcdefg")) == ["d", "e"]


def test_single_process_context_takes_everything(monkeypatch) -> None:
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    ctx = process_context()
    assert (ctx.rank, ctx.world, ctx.is_main, ctx.device) == (0, 1, True, "cpu")
    assert ctx.split(["a", "b"]) == ["a", "b"]


def test_importing_the_harness_and_the_cli_loads_no_heavy_library() -> None:
    import subprocess
    import sys

    code = (
        "import sys, rend_equiv_dataset.harness, rend_equiv_dataset.cli;"
        "print(sorted(m for m in ('torch', 'transformers', 'vllm', 'accelerate', 'datasets') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
