"""Sharded builds: N shards merged are byte for byte the single build; the merge refuses what does not cover the plan."""

import hashlib
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.generate import (
    SeedPlan,
    generate_instances,
    generate_matched_cycle,
)
from rend_equiv_dataset.figures.release.plan import plan_range
from rend_equiv_dataset.figures.release.shards import merge_shards

# K=8: the renderings config has more than one row group (100 rows), cut elsewhere than the shards are
PLAN = ["--seeds", "0,1", "--per-family", "1", "--rerenders", "8", "--matched-cycle", "1", "--no-progress"]


def digests(folder):
    files = sorted(p for p in Path(folder).rglob("*") if p.is_file())
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The single build of PLAN and its four shards (built in one render cache's worth of time: same instances)."""
    root = tmp_path_factory.mktemp("sharded")
    assert main(["build", *PLAN, "--workers", "1", "--out", str(root / "single")]) == 0
    for i in range(4):
        assert main(["build", *PLAN, "--workers", "1", "--shard", f"{i}/4", "--out", str(root / f"shard{i}")]) == 0
    return root


def test_four_shards_merged_in_any_order_are_the_single_build(built, tmp_path):
    shards = [str(built / f"shard{i}") for i in (2, 0, 3, 1)]
    assert main(["merge", *shards, "--out", str(tmp_path / "merged"), "--no-progress"]) == 0
    assert digests(tmp_path / "merged") == digests(built / "single")
    renderings = pq.ParquetFile(built / "single/data/renderings/test-00000-of-00001.parquet")
    groups = [renderings.metadata.row_group(i).num_rows for i in range(renderings.num_row_groups)]
    assert groups[0] == 100 and len(groups) > 1
    assert sorted(json.loads((built / f"shard{i}/shard.json").read_text())["configs"]["renderings"]["rows"]
                  for i in range(4)) != [100] * 4


def test_a_shard_says_what_it_holds(built):
    records = [json.loads((built / f"shard{i}" / "shard.json").read_text()) for i in range(4)]
    assert [(r["index"], r["count"]) for r in records] == [(i, 4) for i in range(4)]
    assert [r["range"] for r in records] == [[0, 4], [4, 8], [8, 11], [11, 14]]  # 12 main + 2 matched instances
    assert sum(r["instances"]["instances"] for r in records) == 12
    assert sum(r["instances"]["matched_cycle"] for r in records) == 2
    assert len({json.dumps(r["plan"], sort_keys=True) for r in records}) == 1
    assert records[0]["plan"]["settings"]["seeds"] == [0, 1]
    ids = pq.read_table(built / "shard1" / "data/instances/test-00000-of-00001.parquet", columns=["instance_id"])
    assert ids.column(0).to_pylist() == [i.instance_id for i in generate_instances(0, 1)[4:6]] + \
        [i.instance_id for i in generate_instances(1, 1)[:2]]


def _refused(shards, out, match):
    with pytest.raises(InputError, match=match):
        merge_shards([str(s) for s in shards], out, progress=False)
    assert not Path(out).exists()


def test_merge_refuses_a_missing_or_repeated_shard(built, tmp_path):
    out = tmp_path / "merged"
    _refused([built / "shard0", built / "shard1", built / "shard3"], out, r"shard\(s\) 2/4 missing")
    _refused([built / f"shard{i}" for i in (0, 1, 2, 3, 3)], out, "given twice")
    _refused([built / "single"], out, "not a release shard")


def test_merge_refuses_shards_of_other_settings_or_counts(built, tmp_path):
    other = tmp_path / "other"
    assert main(["build", *PLAN[:-3], "--matched-cycle", "0", "--no-progress", "--workers", "1", "--shard", "3/4",
                 "--out", str(other)]) == 0
    _refused([built / "shard0", built / "shard1", built / "shard2", other], tmp_path / "merged", "other build settings")
    halves = tmp_path / "half"
    assert main(["build", *PLAN, "--workers", "1", "--shard", "1/2", "--out", str(halves)]) == 0
    _refused([built / "shard0", halves], tmp_path / "merged", "is one of 2 shards")


def test_merge_refuses_a_changed_shard_file_or_record(built, tmp_path):
    import shutil

    copy = tmp_path / "shard2"
    shutil.copytree(built / "shard2", copy)
    shard = next((copy / "data/renderings").glob("*.parquet"))
    shard.write_bytes(shard.read_bytes()[:-10] + b"0123456789")
    _refused([built / "shard0", built / "shard1", copy, built / "shard3"], tmp_path / "merged", "sha256 differs")
    record = json.loads((copy / "shard.json").read_text())
    record["range"] = [7, 11]
    (copy / "shard.json").write_text(json.dumps(record))
    _refused([built / "shard0", built / "shard1", copy, built / "shard3"], tmp_path / "merged", "fingerprint|range")
    (copy / "shard.json").write_text("{not json")
    _refused([copy], tmp_path / "merged", "shard.json")


def test_merge_command_exits_2_with_one_line(built, tmp_path, capsys):
    assert main(["merge", str(built / "shard0"), "--out", str(tmp_path / "merged")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing" in err[0]
    assert not (tmp_path / "merged").exists()


@pytest.mark.parametrize("args, option", [
    (["--shard", "4/4"], "--shard"), (["--shard", "x"], "--shard"), (["--address", "auto"], "--address"),
    (["--engine", "ray", "--shard", "0/2"], "--shard"), (["--shards", "2"], "--shards"),
])
def test_bad_shard_options_exit_2_naming_them(args, option, tmp_path, capsys):
    assert main(["build", *PLAN, *args, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and option in err[0]
    assert not (tmp_path / "out").exists()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=3), st.integers(1, 12))
def test_shard_ranges_tile_the_plan_exactly_once(lengths, count):
    ranges = [plan_range(lengths, i, count) for i in range(count)]
    assert ranges[0][0] == 0 and ranges[-1][1] == sum(lengths)
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    assert max(b - a for a, b in ranges) - min(b - a for a, b in ranges) <= 1


def test_seed_plan_is_the_lists_it_stands_for():
    main_plan, matched = SeedPlan.main((3, 1), per_family=1), SeedPlan.matched((3, 1), 2)
    assert list(main_plan) == generate_instances(3, 1) + generate_instances(1, 1)
    assert list(matched) == generate_matched_cycle(3, 2) + generate_matched_cycle(1, 2)
    assert list(main_plan[5:8]) == list(main_plan)[5:8] and main_plan[-1] == list(main_plan)[-1]
    import pickle

    assert list(pickle.loads(pickle.dumps(main_plan[2:4]))) == list(main_plan)[2:4]
