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


def _core(rows):
    """The contract keys of each verdict (extra keys say why)."""
    return [{key: row[key] for key in ("id", "answer", "correct")} for row in rows]


def test_verdicts_in_order_with_default_ids(tmp_path, capsys):
    out = tmp_path / "verdicts.jsonl"
    assert main(["grade", "--in", str(_write(tmp_path / "in.jsonl", ROWS)), "--out", str(out)]) == 0
    assert _core(_read(out)) == [
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
    assert "low confidence 0.1250 (1/8)" in printed


def test_blank_lines_keep_line_numbers_as_ids(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_text("\n" + json.dumps({"output": "3", "target": "3", "answer_type": "number"}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["grade", "--in", str(path), "--out", str(out)]) == 0
    assert _core(_read(out)) == [{"id": 2, "answer": "3", "correct": True}]


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


def test_every_verdict_says_why_and_how_sure(tmp_path):
    out = tmp_path / "verdicts.jsonl"
    assert main(["grade", "--in", str(_write(tmp_path / "in.jsonl", ROWS)), "--out", str(out)]) == 0
    verdicts = _read(out)
    assert [v["rule"] for v in verdicts] == ["marker", "lead", "committed", "lead", "refusal", "none", "marker", "plain"]
    assert [v["confidence"] for v in verdicts] == [0.95, 0.95, 0.75, 0.95, 0.95, 0.4, 0.95, 0.95]
    assert verdicts[0]["evidence"] == "30.5 bn USD."


def test_verdicts_get_the_project_file_mode(tmp_path):
    from rend_equiv_dataset.io import file_mode

    out = tmp_path / "verdicts.jsonl"
    assert main(["grade", "--in", str(_write(tmp_path / "in.jsonl", ROWS[:1])), "--out", str(out)]) == 0
    assert out.stat().st_mode & 0o777 == file_mode()


def test_verdicts_stream_without_holding_the_input(tmp_path, monkeypatch):
    """Rows are graded and written a chunk at a time: the writer sees the first verdicts before the last row is read."""
    import rend_equiv_dataset.commands.grade as command

    seen: list[int] = []
    real = command._grade_lines

    def spy(file, chunk):
        seen.append(len(chunk))
        return real(file, chunk)

    monkeypatch.setattr(command, "_grade_lines", spy)
    rows = [{"output": str(i), "target": str(i), "answer_type": "number"} for i in range(3 * command.CHUNK + 5)]
    out = tmp_path / "verdicts.jsonl"
    assert main(["grade", "--in", str(_write(tmp_path / "in.jsonl", rows)), "--out", str(out), "--workers", "1"]) == 0
    assert seen == [command.CHUNK] * 3 + [5]
    assert all(v["correct"] for v in _read(out))


MIXED = [
    {"output": "Japan is 30.5, while France is 12.", "target": "12", "answer_type": "number",
     "question": "What are the exports of France?", "labels": ["Japan", "France"]},
    {"output": "Answer: 30.5? No, 42.7.", "target": "42.7", "answer_type": "number"},
    {"output": "France has lower exports than Japan.", "target": "Japan", "answer_type": "label",
     "question": "Which has the higher exports?", "labels": ["Japan", "France"]},
    {"output": "Japan or France.", "target": "Japan", "answer_type": "label", "labels": ["Japan", "France"]},
    {"output": None, "target": "3", "answer_type": "number"},
]


def test_worker_processes_write_the_same_bytes_as_one(tmp_path, monkeypatch):
    """``--workers 3`` reads chunks in a pool and writes exactly what one process writes, in input order."""
    import rend_equiv_dataset.commands.grade as command

    monkeypatch.setattr(command, "PARALLEL_CHUNK", 7)  # many chunks, a short last one
    rows = [dict(row, id=i) for i in range(23) for row in MIXED]
    source = _write(tmp_path / "in.jsonl", rows)
    one, three = tmp_path / "one.jsonl", tmp_path / "three.jsonl"
    assert main(["grade", "--in", str(source), "--out", str(one), "--workers", "1", "--no-progress"]) == 0
    assert main(["grade", "--in", str(source), "--out", str(three), "--workers", "3", "--no-progress"]) == 0
    assert three.read_bytes() == one.read_bytes()
    assert [v["id"] for v in _read(three)] == [row["id"] for row in rows]


def test_a_bad_line_with_workers_leaves_nothing_written(tmp_path, monkeypatch):
    import rend_equiv_dataset.commands.grade as command

    monkeypatch.setattr(command, "PARALLEL_CHUNK", 8)
    rows = [{"output": "1", "target": "1", "answer_type": "number"}] * 100 + [{"output": "1", "target": "1", "answer_type": "word"}]
    out = tmp_path / "verdicts.jsonl"
    code = main(["grade", "--in", str(_write(tmp_path / "in.jsonl", rows)), "--out", str(out), "--workers", "2", "--no-progress"])
    left = sorted(p.name for p in tmp_path.iterdir())
    assert (code, left) == (2, ["in.jsonl"])


def test_a_bad_line_late_in_a_long_file_leaves_nothing_written(tmp_path):
    rows = [{"output": "1", "target": "1", "answer_type": "number"}] * 500 + [{"output": "1", "target": "1"}]
    out = tmp_path / "verdicts.jsonl"
    assert main(["grade", "--in", str(_write(tmp_path / "in.jsonl", rows)), "--out", str(out)]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


class _Stub:
    """An OpenAI-compatible chat endpoint on 127.0.0.1 answering each prompt from a table of replies."""

    def __init__(self, reply):
        import http.server
        import threading

        self.prompts = []
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the http.server name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                assert self.path == "/v1/chat/completions" and body["temperature"] == 0
                prompt = body["messages"][0]["content"]
                stub.prompts.append(prompt)
                payload = json.dumps({"choices": [{"message": {"content": reply(prompt)}}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def test_an_endpoint_extractor_reads_only_the_unsure_rows_and_both_readings_are_logged(tmp_path, capsys):
    stub = _Stub(lambda prompt: "45" if "Japan 41" in prompt else "NONE")
    try:
        rows = [
            {"id": "sure", "output": "The answer is 30.5.", "target": "30.5", "answer_type": "number"},
            {"id": "unsure", "output": "Japan 41 and France 45. Chile 12.", "target": "45", "answer_type": "number",
             "question": "What is the value?", "labels": ["Japan", "France", "Chile"]},
            {"id": "nothing", "output": "The bars are blue.", "target": "3", "answer_type": "number"},
        ]
        out = tmp_path / "verdicts.jsonl"
        argv = ["grade", "--in", str(_write(tmp_path / "in.jsonl", rows)), "--out", str(out), "--extractor", f"openai:{stub.url}#m"]
        assert main(argv) == 0
    finally:
        stub.close()
    verdicts = {v["id"]: v for v in _read(out)}
    assert "extractor_answer" not in verdicts["sure"]
    assert verdicts["unsure"]["answer"] == "45" and verdicts["unsure"]["correct"] is True
    assert verdicts["nothing"]["extractor_answer"] is None and verdicts["nothing"]["agree"] is True
    assert len(stub.prompts) == 2 and "The bars are blue." in stub.prompts[1]
    assert "extractor read 2" in capsys.readouterr().out


def test_the_extractor_replaces_a_low_confidence_reading(tmp_path):
    from rend_equiv_dataset.figures.answers.parse import read_answer

    output = "Japan 41 and France 45. Chile 12."
    assert read_answer(output, "number", ("Japan", "France", "Chile"), "What is the value?").confidence < 0.5
    stub = _Stub(lambda prompt: "45")
    try:
        rows = [{"id": 1, "output": output, "target": "45", "answer_type": "number", "question": "What is the value?",
                 "labels": ["Japan", "France", "Chile"]}]
        out = tmp_path / "verdicts.jsonl"
        argv = ["grade", "--in", str(_write(tmp_path / "in.jsonl", rows)), "--out", str(out), "--extractor",
                f"openai:{stub.url}", "--extractor-on", "all"]
        assert main(argv) == 0
    finally:
        stub.close()
    [verdict] = _read(out)
    assert verdict["extractor_answer"] == "45" and verdict["answer"] == "45" and verdict["correct"] is True
    assert verdict["rule"] == "extractor" and verdict["rule_answer"] != "45" and verdict["agree"] is False


def test_an_unreachable_endpoint_keeps_the_rule_reading(tmp_path):
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    rows = [{"id": 1, "output": "Japan 41 and France 45. Chile 12.", "target": "41", "answer_type": "number"}]
    out = tmp_path / "verdicts.jsonl"
    argv = ["grade", "--in", str(_write(tmp_path / "in.jsonl", rows)), "--out", str(out), "--extractor",
            f"openai:http://127.0.0.1:{port}/v1", "--extractor-on", "all"]
    assert main(argv) == 0
    [verdict] = _read(out)
    assert verdict["extractor_reply"] is None and verdict["rule"] != "extractor"


@pytest.mark.parametrize("spec", ["model", "openai:ftp://x", "gpt:foo", "openai:"])
def test_a_bad_extractor_spec_exits_2(tmp_path, capsys, spec):
    argv = ["grade", "--in", str(_write(tmp_path / "in.jsonl", ROWS[:1])), "--out", str(tmp_path / "o.jsonl"), "--extractor", spec]
    assert main(argv) == 2
    assert "--extractor" in capsys.readouterr().err


def test_a_tiny_local_model_is_an_extractor(tmp_path):
    pytest.importorskip("transformers")
    from rend_equiv_dataset.harness.tiny import build_tiny_model

    model = build_tiny_model(tmp_path / "tiny-text", kind="text", seed=0)
    rows = [{"id": 1, "output": "Japan 41 and France 45. Chile 12.", "target": "41", "answer_type": "number"}]
    out = tmp_path / "verdicts.jsonl"
    argv = ["grade", "--in", str(_write(tmp_path / "in.jsonl", rows)), "--out", str(out), "--extractor", f"model:{model}",
            "--extractor-on", "all", "--no-progress"]
    assert main(argv) == 0
    [verdict] = _read(out)
    assert isinstance(verdict["extractor_reply"], str) and "agree" in verdict
