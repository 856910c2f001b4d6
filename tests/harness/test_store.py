"""The resume store: torn lines, run keys, ordering, errors, merge (docs/design.md §5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness.store import RunStore, read_jsonl_lines


def _store(tmp: Path, key: str = "k1", model: str = "m") -> RunStore:
    store = RunStore(tmp / "preds.jsonl", meta={"model": model}, key=key)
    store.open()
    return store


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_merge_orders_by_id_and_writes_meta_first(tmp_path: Path) -> None:
    store = _store(tmp_path)
    w0, w1 = store.writer(0), store.writer(1)
    w1.append({"render_id": "c", "output": "3"})
    w0.append({"render_id": "b", "output": "2"})
    w1.append({"render_id": "a", "output": "1"})
    w0.close(), w1.close()
    result = store.merge(["a", "b", "c"])
    assert result.complete and result.answered == 3
    lines = _lines(store.out)
    assert lines[0] == {"meta": {"model": "m", "run_key": "k1"}}
    assert [line["render_id"] for line in lines[1:]] == ["a", "b", "c"]
    assert all("run_key" not in line for line in lines[1:])
    assert not store.parts.exists()  # complete: parts removed


def test_torn_last_line_is_dropped_and_cut_before_appending(tmp_path: Path) -> None:
    store = _store(tmp_path)
    w = store.writer(0)
    w.append({"render_id": "a", "output": "1"})
    w.close()
    part = store.parts / "part-00000.jsonl"
    with open(part, "ab") as handle:
        handle.write(b'{"render_id": "b", "outp')  # a kill in the middle of a write
    assert store.done_ids() == {"a"}
    w = store.writer(0)  # the next writer of that file cuts the torn tail
    w.append({"render_id": "b", "output": "2"})
    w.close()
    assert [obj["render_id"] for _, obj in read_jsonl_lines(part)] == ["a", "b"]


def test_corrupt_middle_line_is_an_input_error(tmp_path: Path) -> None:
    store = _store(tmp_path)
    (store.parts / "part-00000.jsonl").write_text('{"render_id": "a", "output": "1", "run_key": "k1"}\nnot json\n{"x": 1}\n')
    with pytest.raises(InputError, match="part-00000.jsonl:2: not valid JSON"):
        store.done_ids()


def test_another_run_key_refuses_the_parts_and_the_output(tmp_path: Path) -> None:
    store = _store(tmp_path, key="k1")
    w = store.writer(0)
    w.append({"render_id": "a", "output": "1"})
    w.close()
    with pytest.raises(InputError, match="another model or settings.*model: 'm' there, 'other' now"):
        _store(tmp_path, key="k2", model="other")
    store.merge(["a"])
    with pytest.raises(InputError, match="another model or settings") as err:
        _store(tmp_path, key="k2", model="other")
    assert err.value.field == "--out"


def test_output_without_meta_is_not_overwritten(tmp_path: Path) -> None:
    (tmp_path / "preds.jsonl").write_text('{"render_id": "a", "output": "1"}\n')
    with pytest.raises(InputError, match="no meta line"):
        _store(tmp_path)


def test_part_line_of_another_key_is_refused(tmp_path: Path) -> None:
    store = _store(tmp_path)
    (store.parts / "part-00003.jsonl").write_text('{"render_id": "a", "output": "1", "run_key": "zz"}\n')
    with pytest.raises(InputError, match="another run key"):
        store.done_ids()


def test_errors_are_done_unless_retried_and_never_reach_the_output(tmp_path: Path) -> None:
    store = _store(tmp_path)
    w = store.writer(0)
    w.append({"render_id": "a", "output": "1"})
    w.append({"render_id": "b", "error": {"class": "OutOfMemoryError", "message": "oom"}})
    w.close()
    assert store.done_ids() == {"a", "b"}
    assert store.done_ids(retry_errors=True) == {"a"}
    result = store.merge(["a", "b", "c"])
    assert not result.complete and result.missing == ["c"]
    assert result.errors == {"b": {"class": "OutOfMemoryError", "message": "oom"}}
    assert [line.get("render_id") for line in _lines(store.out)[1:]] == ["a"]
    assert _lines(result.errors_path) == [{"render_id": "b", "error": {"class": "OutOfMemoryError", "message": "oom"}}]
    assert store.parts.exists()  # incomplete: kept for the rerun
    w = store.writer(1)  # a retry that succeeds wins over the error
    w.append({"render_id": "b", "output": "2"})
    w.append({"render_id": "c", "output": "3"})
    w.close()
    assert store.merge(["a", "b", "c"]).complete
    assert not result.errors_path.exists()


def test_records_in_the_output_count_as_done_after_a_merge(tmp_path: Path) -> None:
    store = _store(tmp_path)
    w = store.writer(0)
    w.append({"render_id": "a", "output": "1"})
    w.close()
    store.merge(["a"])
    again = _store(tmp_path)  # e.g. a later run with a larger --limit
    assert again.done_ids() == {"a"}


def test_a_kill_between_writing_the_output_and_removing_parts_loses_nothing(tmp_path: Path) -> None:
    store = _store(tmp_path)
    w = store.writer(0)
    for rid in "ab":
        w.append({"render_id": rid, "output": rid})
    w.close()
    parts_copy = (store.parts / "part-00000.jsonl").read_bytes()
    store.merge(["a", "b"])
    store.parts.mkdir()
    (store.parts / "part-00000.jsonl").write_bytes(parts_copy)  # as if the rmtree never ran
    assert _store(tmp_path).merge(["a", "b"]).answered == 2
    assert [line["render_id"] for line in _lines(store.out)[1:]] == ["a", "b"]


@given(
    st.lists(st.tuples(st.integers(0, 3), st.sampled_from("abcdefgh")), max_size=30),
    st.integers(0, 40),
)
def test_any_interleaving_merges_to_each_id_once(tmp_path_factory, writes, torn_at) -> None:
    """Appends from any ranks, a torn tail anywhere: each written id appears exactly once."""
    tmp = tmp_path_factory.mktemp("interleave")
    store = _store(tmp)
    writers = {rank: store.writer(rank) for rank in range(4)}
    for rank, rid in writes:
        writers[rank].append({"render_id": rid, "output": rid})
    for writer in writers.values():
        writer.close()
    with open(store.parts / "part-00000.jsonl", "ab") as handle:
        handle.write(b'{"render_id": "z", "output": "z"'[: torn_at % 30])
    result = store.merge(list("abcdefghz"))
    ids = [line["render_id"] for line in _lines(store.out)[1:]]
    assert ids == sorted({rid for _, rid in writes})
    assert result.missing == sorted(set("abcdefghz") - set(ids))


def test_a_live_process_of_another_run_blocks_the_same_rank(tmp_path: Path) -> None:
    first = _store(tmp_path)
    with pytest.raises(InputError, match="process 0 of another run on this output \\(still running\\) holds the lock"):
        _store(tmp_path)
    other_rank = RunStore(tmp_path / "preds.jsonl", meta={"model": "m"}, key="k1")
    other_rank.open(rank=1)  # another rank of the same run is fine
    first.close()
    _store(tmp_path).close()  # released: a new run may start
    other_rank.close()
