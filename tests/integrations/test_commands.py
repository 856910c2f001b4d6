"""`rend-equiv export` and `rend-equiv import-predictions` on bad input: one line naming file, line and field, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.integrations.vlmevalkit.tsv import COLUMNS


def _fails(argv: list[str], capsys) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("rend-equiv: error: ")
    return err


def _sample(render_id: str | None, text: str = "7") -> str:
    """A saved lmms-eval samples line: the id is in the metrics' record (``doc`` is dropped on saving)."""
    record = {} if render_id is None else {"render_id": render_id, "output": text}
    return json.dumps({"doc_id": 0, "target": "1", "filtered_resps": text, "accuracy": record, "ecs": record}) + "\n"


@pytest.mark.parametrize("lines, expected", [
    ([_sample("s0-i1/base"), _sample("nope")], ":2: field 'render_id': render_id 'nope' is not in this release"),
    ([_sample("s0-i1/base"), _sample("s0-i1/base")], ":2: field 'render_id': render_id 's0-i1/base' answered twice"),
    ([_sample(None)], ":1: field 'render_id'"),
    (['{"doc": {"render_id": "s0-i1/base"}, "resps": []}\n'], ":1: field 'filtered_resps'"),
    (['{"doc": {"render_id": "s0-i1/base"}, "filtered_resps": ["x"]'], ":1"),
])
def test_a_bad_lmms_eval_log_is_named_and_nothing_is_written(release, tmp_path: Path, capsys, lines, expected):
    log = tmp_path / "samples.jsonl"
    log.write_text("".join(lines))
    out = tmp_path / "preds.jsonl"
    err = _fails(["import-predictions", "--from", "lmms-eval", str(log), "--data", str(release), "--out", str(out)], capsys)
    assert expected in err and str(log) in err
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["samples.jsonl"]


@pytest.mark.parametrize("text, expected", [
    ("index\tprediction\n0\t7\n", "field 'render_id': expected a 'render_id' column"),
    ("render_id\tanswer\ns0-i1/base\t7\n", "field 'prediction'"),
    ("render_id\tprediction\ns0-i1/base\t7\nzzz\t1\n", ":2: field 'render_id': render_id 'zzz' is not in this release"),
])
def test_a_bad_vlmevalkit_table_is_named(release, tmp_path: Path, capsys, text, expected):
    table = tmp_path / "m_REND_EQUIV.tsv"
    table.write_text(text)
    out = tmp_path / "preds.jsonl"
    err = _fails(["import-predictions", "--from", "vlmevalkit", str(table), "--data", str(release), "--out", str(out)], capsys)
    assert expected in err and not out.exists()


def test_an_unknown_table_suffix_and_a_missing_log_are_refused(tmp_path: Path, capsys):
    (tmp_path / "m.parquet").write_bytes(b"x")
    assert "expected one of .xlsx" in _fails(["import-predictions", "--from", "vlmevalkit", str(tmp_path / "m.parquet"),
                                              "--out", str(tmp_path / "p.jsonl")], capsys)
    assert "no such file" in _fails(["import-predictions", "--from", "lmms-eval", str(tmp_path / "none.jsonl"),
                                     "--out", str(tmp_path / "p.jsonl")], capsys)


def test_without_a_release_the_log_is_converted_unchecked(tmp_path: Path, capsys):
    log = tmp_path / "samples.jsonl"
    log.write_text(_sample("any/id", " 42 "))
    out = tmp_path / "preds.jsonl"
    assert main(["import-predictions", "--from", "lmms-eval", str(log), "--out", str(out)]) == 0
    meta, line = (json.loads(x) for x in out.read_text().splitlines())
    assert line == {"render_id": "any/id", "output": " 42 "} and meta["meta"]["harness"] == "lmms-eval"
    assert "dataset_fingerprint" not in meta["meta"]


def test_an_in_memory_lmms_eval_sample_names_its_row_under_doc(tmp_path: Path):
    log = tmp_path / "samples.jsonl"
    log.write_text(json.dumps({"doc_id": 0, "doc": {"render_id": "r1"}, "resps": [["7 "]], "filtered_resps": ["7"]}) + "\n")
    out = tmp_path / "preds.jsonl"
    assert main(["import-predictions", "--from", "lmms-eval", str(log), "--out", str(out)]) == 0
    assert json.loads(out.read_text().splitlines()[1]) == {"render_id": "r1", "output": "7"}


@pytest.mark.parametrize("fmt", ["vlmevalkit", "lmms-eval"])
def test_export_refuses_a_folder_that_is_not_a_release(tmp_path: Path, capsys, fmt):
    out = tmp_path / ("x.tsv" if fmt == "vlmevalkit" else "tasks")
    err = _fails(["export", "--format", fmt, "--data", str(tmp_path / "missing"), "--out", str(out)], capsys)
    assert "missing" in err and not out.exists()


def test_export_vlmevalkit_refuses_a_folder_as_its_file(release, tmp_path: Path, capsys):
    assert "is a folder" in _fails(["export", "--format", "vlmevalkit", "--data", str(release), "--out", str(tmp_path)], capsys)


def test_a_release_with_the_matched_set_exports_both(tmp_path: Path):
    from integrations.lmms_eval_contract import load_yaml_config
    from integrations.standin import write_image_release

    release = write_image_release(tmp_path / "release", matched=True)
    tasks = tmp_path / "tasks"
    assert main(["export", "--format", "lmms-eval", "--data", str(release), "--out", str(tasks)]) == 0
    assert sorted(p.name for p in tasks.iterdir()) == ["rend_equiv.yaml", "rend_equiv_matched_cycle.yaml"]
    assert load_yaml_config(str(tasks / "rend_equiv_matched_cycle.yaml"))["dataset_name"] == "matched_cycle_renderings"
    tsv = tmp_path / "REND_EQUIV_MATCHED_CYCLE.tsv"
    assert main(["export", "--format", "vlmevalkit", "--data", str(release), "--config", "matched_cycle_renderings",
                 "--out", str(tsv)]) == 0
    ids = [line.split("\t")[COLUMNS.index("render_id")] for line in tsv.read_text().splitlines()[1:]]
    assert ids and all(i.startswith("m-s0-i") for i in ids)


def test_vlmevalkit_export_of_a_config_the_release_lacks_is_refused(release, tmp_path: Path, capsys):
    out = tmp_path / "m.tsv"
    err = _fails(["export", "--format", "vlmevalkit", "--data", str(release), "--config", "matched_cycle_renderings",
                  "--out", str(out)], capsys)
    assert "field '--config'" in err and not out.exists()
