"""The strict panel-record reader (docs/design.md §7.5): both forms, JSONL and parquet folders, and every bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.records import load_panel_records


def full(i: int = 0, **change: Any) -> dict[str, Any]:
    record = {
        "problem_id": f"HumanEval/{i}", "benchmark": "humaneval", "candidate_id": f"c{i}", "solver": "s",
        "code": "def f(): return 1", "assertions_passed": [True, True, False], "status": "ok", "label": 0,
        "votes": [1, 0, 1], "judges": ["a", "b", "c"], "judge_source": "simulated",
    }
    record.update(change)
    return record


def short(i: int = 0, **change: Any) -> dict[str, Any]:
    record = {"problem_id": f"p{i}", "label": 1, "votes": [1, 0, 1], "signal": 1}
    record.update(change)
    return record


def write(tmp_path: Path, records: list[Any], name: str = "r.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return path


def test_full_form_columns(tmp_path: Path) -> None:
    path = write(tmp_path, [full(0), full(1, assertions_passed=[True], label=1), full(2, status="timeout", assertions_passed=[True])])
    records = load_panel_records(path)
    assert (records.form, records.n, records.k, records.judges) == ("full", 3, 3, ("a", "b", "c"))
    assert records.labels == [0, 1, 0] and records.assertions == [[True, True, False], [True], [True]]
    assert records.status_counts() == {"ok": 2, "timeout": 1}
    assert records.clusters == ["humaneval/HumanEval/0", "humaneval/HumanEval/1", "humaneval/HumanEval/2"]
    assert records.signal is None and len(records.fingerprint) == 64


def test_short_form_with_meta_line_and_blank_lines(tmp_path: Path) -> None:
    path = write(tmp_path, ['{"meta": {"seed": 3}}', short(0), "", short(1, problem_id=7, signal=0)])
    records = load_panel_records(path)
    assert (records.form, records.signal, records.problems, records.meta) == ("short", [1, 0], ["p0", "7"], {"seed": 3})
    assert records.benchmarks is None


def test_benchmarks_qualify_problem_clusters(tmp_path: Path) -> None:
    path = write(tmp_path, [short(0, benchmark="mbpp", problem_id=1), short(1, benchmark="humaneval", problem_id=1)])
    assert load_panel_records(path).clusters == ["mbpp/1", "humaneval/1"]


def test_fingerprint_follows_the_bytes(tmp_path: Path) -> None:
    a = load_panel_records(write(tmp_path, [short(0)], "a.jsonl")).fingerprint
    b = load_panel_records(write(tmp_path, [short(0, signal=0)], "b.jsonl")).fingerprint
    assert a != b and a == load_panel_records(tmp_path / "a.jsonl").fingerprint


BAD = [
    ([short(0), short(1, votes=[1, 0])], 2, "votes", "expected 3 votes"),
    ([short(0, votes=[1, 2, 0])], 1, "votes[1]", "expected 0 or 1; found 2"),
    ([short(0, votes=[1, True, 0])], 1, "votes[1]", "found True"),
    ([short(0, votes=[1.0, 0, 0])], 1, "votes[0]", "found 1.0"),
    ([short(0, votes=["1", 0, 0])], 1, "votes[0]", "found '1'"),
    ([short(0, votes=[1])], 1, "votes", "k >= 2"),
    ([short(0, votes=[])], 1, "votes", "k >= 2"),
    ([short(0, votes="101")], 1, "votes", "list"),
    ([{k: v for k, v in short(0).items() if k != "label"}], 1, "label", "Field required"),
    ([short(0, label=None)], 1, "label", "found None"),
    ([short(0, signal=2)], 1, "signal", "found 2"),
    ([short(0, benchmark="a"), short(1)], 2, "benchmark", "names no benchmark"),
    ([short(0), short(1, benchmark="b")], 2, "benchmark", "names a benchmark"),
    ([short(0), full(1)], 2, "signal", "full-form record among short-form"),
    ([full(0), short(1)], 2, "signal", "short-form record among full-form"),
    ([full(0), full(1, judges=["b", "a", "c"])], 2, "judges", "same panel, same order"),
    ([full(0), full(1, judge_source="model")], 2, "judge_source", "differs"),
    ([full(0, judges=["a", "b"])], 1, "judges", "has 2 names for 3 votes"),
    ([full(0, label=1)], 1, "label", "contradicts status 'ok' with 2/3"),
    ([full(0, assertions_passed=[True], status="crash", label=1)], 1, "label", "contradicts status 'crash'"),
    ([full(0, assertions_passed=[], label=1)], 1, "label", "0/0 assertions"),
    ([full(0, assertions_passed=[1, 0])], 1, "assertions_passed[0]", "boolean"),
    ([full(0, status="passed")], 1, "status", "'ok', 'timeout', 'crash' or 'infra_error'"),
    ([full(0, judge_source="human")], 1, "judge_source", "found 'human'"),
    ([full(0, extra=1)], 1, "extra", "not a field"),
    ([short(0, problem_id=None)], 1, "problem_id", "found None"),
    ([short(0), "[1, 2]"], 2, None, "expected a JSON object, got list"),
    ([short(0), "{not json"], 2, None, "not valid JSON"),
]


@pytest.mark.parametrize(("rows", "line", "field", "message"), BAD)
def test_bad_records_name_file_line_and_field(tmp_path: Path, rows: list[Any], line: int, field: str | None, message: str) -> None:
    path = write(tmp_path, rows)
    with pytest.raises(InputError) as caught:
        load_panel_records(path)
    err = caught.value
    assert (Path(str(err.file)), err.line, err.field) == (path, line, field)
    assert message in err.message


def test_empty_and_missing_sources(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no records"):
        load_panel_records(write(tmp_path, []))
    with pytest.raises(InputError, match="no records"):
        load_panel_records(write(tmp_path, ['{"meta": {}}']))
    with pytest.raises(InputError, match="no such file"):
        load_panel_records(tmp_path / "absent.jsonl")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no parquet shards"):
        load_panel_records(tmp_path / "empty")


def _release(folder: Path, config: str, rows: list[dict[str, Any]], shards: int = 1) -> Path:
    import pyarrow as pa
    import pyarrow.parquet as pq

    target = folder / "data" / config
    target.mkdir(parents=True, exist_ok=True)
    step = -(-len(rows) // shards)
    for index in range(shards):
        part = rows[index * step : (index + 1) * step]
        pq.write_table(pa.Table.from_pylist(part), target / f"test-{index:05d}-of-{shards:05d}.parquet")
    return folder


def test_released_parquet_folder(tmp_path: Path) -> None:
    rows = [full(i, assertions_passed=[True] * (i % 3 + 1), label=1) if i % 2 else full(i) for i in range(10)]
    folder = _release(tmp_path / "release", "records", rows, shards=3)
    (folder / "data" / "problems").mkdir()
    records = load_panel_records(folder)
    assert records.n == 10 and records.form == "full" and records.labels == [i % 2 for i in range(10)]


def test_released_folder_reports_the_shard_and_row(tmp_path: Path) -> None:
    rows = [short(0), short(1), short(2, votes=[1, 1, 3])]
    folder = _release(tmp_path / "release", "records", rows, shards=2)
    with pytest.raises(InputError) as caught:
        load_panel_records(folder)
    assert Path(str(caught.value.file)).name == "test-00001-of-00002.parquet"
    assert (caught.value.line, caught.value.field) == (1, "votes[2]")


def test_release_with_one_config_per_benchmark_and_builder_fields(tmp_path: Path) -> None:
    # the layout `rend-equiv panel build` writes: data/<benchmark config>/, records.jsonl beside, extra fields
    extras = {"judge_lines": ["CORRECT", "INCORRECT", "CORRECT"], "operator": "boundary", "danger": []}
    folder = _release(tmp_path / "release", "mbpp_plus", [full(i, benchmark="mbpp+", **extras) for i in range(3)])
    _release(folder, "humaneval_plus", [full(i, benchmark="humaneval+", **extras) for i in range(2)])
    (folder / "records.jsonl").write_text("not read\n")
    records = load_panel_records(folder)
    assert records.n == 5 and records.benchmarks == ["humaneval+"] * 2 + ["mbpp+"] * 3


def test_builder_fields_are_checked(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        load_panel_records(write(tmp_path, [full(0, judge_lines=["CORRECT"])]))
    assert caught.value.field == "judge_lines" and "has 1 lines for 3 votes" in caught.value.message
    with pytest.raises(InputError) as caught:
        load_panel_records(write(tmp_path, [full(0, danger="os.system")]))
    assert caught.value.field == "danger"


def test_damaged_parquet_shard(tmp_path: Path) -> None:
    target = tmp_path / "release" / "data" / "records"
    target.mkdir(parents=True)
    (target / "test-00000-of-00001.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(InputError, match="not a readable parquet file"):
        load_panel_records(tmp_path / "release")
