"""`rend-equiv build --from-tables`: the same release as the synthetic build, and exit 2 on bad tables."""

import json
import shutil
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.figures.generate import generate_instances, generate_matched_cycle
from rend_equiv_dataset.figures.tables.build import TABLE_REPORT, export_release, release_rows
from rend_equiv_dataset.figures.release import ReleaseSettings, build_release
from rend_equiv_dataset.transforms import from_json

FIXTURES = Path(__file__).parent / "data" / "tables" / "chartqa"


def _load(folder, config, columns):
    # datasets.load_dataset caches by folder name; read the shards themselves
    return release_rows(folder, config, columns)


def _check_renderings_law(folder):
    rows = _load(folder, "renderings", ["render_id", "instance_id", "role", "target", "transform", "answer_type"])
    base = {r["instance_id"]: r for r in rows if r["role"] == "base"}
    for row in rows:
        if row["role"] != "edit":
            continue
        start = base[row["instance_id"]]
        if row["answer_type"] == "label":
            assert from_json(row["transform"]).apply(start["target"]) == row["target"], row["render_id"]
        else:
            moved = from_json(row["transform"]).apply(float(start["target"]))
            assert moved == pytest.approx(float(row["target"]), rel=1e-9, abs=1e-9), row["render_id"]


@pytest.fixture(scope="module")
def synthetic_release(tmp_path_factory):
    out = tmp_path_factory.mktemp("synthetic") / "release"
    instances = {"instances": generate_instances(0, per_family=1)[:4], "matched_cycle": generate_matched_cycle(0, n=1)}
    build_release(instances, out, ReleaseSettings(seeds=(0,), per_family=1, rerenders=0, matched_cycle=1),
                  workers=1, progress=False)
    return out


def test_release_from_tables_exported_from_a_release_has_the_same_answers(synthetic_release, tmp_path, capsys):
    export_release(synthetic_release, tmp_path / "tables")
    out = tmp_path / "from_tables"
    status = main(["build", "--from-tables", str(tmp_path / "tables"), "--rerenders", "0", "--workers", "1",
                   "--matched-cycle", "0",
                   "--no-progress", "--out", str(out)])
    assert status == 0, capsys.readouterr().err
    assert "user questions: 4 kept, none dropped" in capsys.readouterr().out

    columns = ["instance_id", "question", "target", "question_type", "data", "source"]
    original = {r["instance_id"]: r for r in _load(synthetic_release, "instances", columns)}
    rebuilt = _load(out, "instances", columns)
    assert len(rebuilt) == len(original)
    for row in rebuilt:
        source = original[row["source"].removesuffix(".csv")]
        assert (row["question"], row["target"], row["question_type"], row["data"]) == (
            source["question"], source["target"], source["question_type"], source["data"])
        assert row["instance_id"].startswith("s0-t-")
    assert {original[k]["source"] for k in original} == {"synthetic"}
    _check_renderings_law(out)

    card = (out / "README.md").read_text()
    for config in ("instances", "renderings"):
        assert f"config_name: {config}" in card
    assert "rend-equiv build --from-tables" in card
    report = json.loads((out / TABLE_REPORT).read_text())
    assert report["questions"]["kept"] == 4 and report["n_instances"] == 4


def test_fixture_tables_give_all_configs_with_a_source_column(tmp_path, capsys):
    tables = tmp_path / "tables"
    tables.mkdir()
    for name in ("brands.csv", "revenue.csv", "revenue.title.txt", "vendors.csv"):
        shutil.copy(FIXTURES / name, tables / name)
    questions = (FIXTURES / "questions.csv").read_text().splitlines()
    (tables / "questions.csv").write_text("\n".join(q for q in questions if not q.startswith("party")) + "\n")
    out = tmp_path / "release"
    status = main(["build", "--from-tables", str(tables), "--table-suite", "pilot", "--rerenders", "0",
                   "--matched-cycle", "1", "--workers", "1", "--no-progress", "--out", str(out)])
    assert status == 0, capsys.readouterr().err
    assert "user questions: 1 kept, 1 disagrees;" in capsys.readouterr().out
    instances = _load(out, "instances", ["source", "edits"])
    assert {r["source"] for r in instances} == {"brands.csv", "revenue.csv", "vendors.csv"}
    kinds = {tuple(e["type"] for e in row["edits"]) for row in instances}
    assert kinds <= {("scale", "zoom"), ("zoom",)} and ("scale", "zoom") in kinds
    matched = _load(out, "matched_cycle", ["source", "edits"])
    assert [r["source"] for r in matched] == ["brands.csv"]
    assert [e["type"] for e in matched[0]["edits"]] == ["swap", "cycle", "zoom"]
    _check_renderings_law(out)
    report = json.loads((out / TABLE_REPORT).read_text())
    assert [(r["table_id"], r["status"], r["line"]) for r in report["question_reports"]] == [("vendors", "disagrees", 3)]
    card = (out / "README.md").read_text()
    assert "--matched-cycle 1" in card and "keeps their license" in card


BAD_TABLES = [
    ("ragged.csv", "Year,Sales\n2020,1\n2021,2,3\n", "ragged.csv:3: field 'column 3': ragged_rows"),
    ("empty.csv", "", "empty.csv:1: empty_table"),
    ("dup.csv", "Year,Sales\n2020,1\n2020,2\n", "dup.csv:3: field 'column 1': duplicate_category"),
    ("text.csv", "Year,Sales (USD)\n2020,1\n2021,about 2\n", "text.csv:3: field \"column 2 ('Sales (USD)')\": non_numeric_cell"),
    ("one.csv", "Year,Sales\n2020,1\n", "one.csv:1: too_few_categories"),
]


@pytest.mark.parametrize("name, text, message", BAD_TABLES, ids=[b[0] for b in BAD_TABLES])
def test_bad_tables_exit_2_naming_file_line_and_column(tmp_path, capsys, name, text, message):
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / name).write_text(text)
    out = tmp_path / "out"
    assert main(["build", "--from-tables", str(tables), "--out", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not out.exists()


def test_bad_options_and_questions_exit_2(tmp_path, capsys):
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "sales.csv").write_text("Year,Sales\n2020,1\n2021,2\n")
    out = tmp_path / "out"
    assert main(["build", "--from-tables", str(tables), "--family", "donut", "--out", str(out)]) == 2
    assert "field '--family': unknown chart family 'donut'" in capsys.readouterr().err
    assert main(["build", "--family", "bar", "--out", str(out)]) == 2
    assert "field '--family': only applies with --from-tables" in capsys.readouterr().err
    (tmp_path / "two.csv").write_text("Year,A,B\n2020,1,2\n2021,2,3\n")
    assert main(["build", "--from-tables", str(tmp_path / "two.csv"), "--family", "pie", "--out", str(out)]) == 2
    assert "two.csv: field 'family': a pie chart takes one series, the table has 2" in capsys.readouterr().err
    (tables / "questions.csv").write_text("table_id,question,answer\nsales,What is the total?,3\nsale,Q?,1\n")
    assert main(["build", "--from-tables", str(tables), "--out", str(tmp_path / "out2")]) == 2
    assert "questions.csv:3: field 'table_id': unknown table 'sale'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["build", "--from-tables", str(tables), "--table-suite", "all", "--out", str(out)])
    assert exit_info.value.code == 2
    assert not (tmp_path / "out2").exists()
