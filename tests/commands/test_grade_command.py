"""`rend-equiv grade`: one verdict per input line in order, accuracy printed, bad lines exit 2 naming line and field."""

import json

import pytest

from rend_equiv_dataset.cli import main

ROWS = [
    {"id": "a", "output": "The answer is 30.5 bn USD.", "target": "30.5", "answer_type": "number",
     "question": "What are the exports of Japan, in bn USD?"},
    {"output": "<think>maybe France</think>Japan", "target": "Japan", "answer_type": "label", "labels": ["Japan", "France"]},
    {"id": 7, "output": "Japan or France", "target": "Japan", "answer_type": "label", "labels": ["Japan", "France"]},
    {"id": "d", "output": "About 55,000 visitors.", "target": 55, "answer_type": "number",
     "question": "How many visitors came in Q3, in thousands?"},
    {"id": "e", "output": "I cannot tell from the chart.", "target": "12", "answer_type": "number"},
    {"id": "f", "output": None, "target": "12", "answer_type": "number"},
    {"id": "g", "output": "The ChartQA answer is 45%.", "target": "45%", "answer_type": "number"},
    {"id": "h", "output": "2018", "target": "2019", "answer_type": "label", "labels": ["2018", "2019"]},
]


def _write(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def _read(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_verdicts_in_order_with_default_ids(tmp_path, capsys):
    out = tmp_path / "verdicts.jsonl"
    assert main(["grade", "--in", str(_write(tmp_path / "in.jsonl", ROWS)), "--out", str(out)]) == 0
    assert _read(out) == [
        {"id": "a", "answer": "30.5", "correct": True},
        {"id": 2, "answer": "Japan", "correct": True},
        {"id": 7, "answer": None, "correct": False},
        {"id": "d", "answer": "55", "correct": True},
        {"id": "e", "answer": None, "correct": False},
        {"id": "f", "answer": None, "correct": False},
        {"id": "g", "answer": "45", "correct": True},
        {"id": "h", "answer": "2018", "correct": False},
    ]
    printed = capsys.readouterr().out
    assert "accuracy 0.5000 (4/8 correct, 3 unparseable)" in printed


def test_blank_lines_keep_line_numbers_as_ids(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text("\n" + json.dumps({"output": "3", "target": "3", "answer_type": "number"}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["grade", "--in", str(path), "--out", str(out)]) == 0
    assert _read(out) == [{"id": 2, "answer": "3", "correct": True}]


@pytest.mark.parametrize(
    ("bad", "where"),
    [
        ({"output": "3", "target": "3"}, "field 'answer_type': missing"),
        ({"output": "3", "target": "3", "answer_type": "float"}, "field 'answer_type'"),
        ({"output": 3, "target": "3", "answer_type": "number"}, "field 'output'"),
        ({"output": "3", "target": "n/a", "answer_type": "number"}, "field 'target'"),
        ({"output": "3", "target": "", "answer_type": "label"}, "field 'target'"),
        ({"output": "3", "target": "A", "answer_type": "label", "labels": "A,B"}, "field 'labels'"),
        ({"output": "3", "target": "3", "answer_type": "number", "question": 5}, "field 'question'"),
        ({"output": "3", "target": "3", "answer_type": "number", "id": [1]}, "field 'id'"),
        ('{"output": "3", "target": ', "not valid JSON"),
    ],
)
def test_bad_line_exits_2_naming_file_line_and_field(tmp_path, capsys, bad, where):
    path = _write(tmp_path / "in.jsonl", [ROWS[0], bad])
    out = tmp_path / "out.jsonl"
    assert main(["grade", "--in", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"{path}:2" in err and where in err
    assert not out.exists()


def test_empty_input_and_missing_folder_exit_2(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    assert main(["grade", "--in", str(empty), "--out", str(tmp_path / "o.jsonl")]) == 2
    good = _write(tmp_path / "in.jsonl", ROWS[:1])
    assert main(["grade", "--in", str(good), "--out", str(tmp_path / "nope" / "o.jsonl")]) == 2
    assert main(["grade", "--in", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "o.jsonl")]) == 2


def test_rewrite_replaces_the_file_and_leaves_no_temporary(tmp_path):
    out = tmp_path / "verdicts.jsonl"
    out.write_text("old\n", encoding="utf-8")
    assert main(["grade", "--in", str(_write(tmp_path / "in.jsonl", ROWS[:2])), "--out", str(out)]) == 0
    assert len(_read(out)) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "verdicts.jsonl"]
