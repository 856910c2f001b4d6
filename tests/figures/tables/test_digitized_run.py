"""`rend-equiv digitize`: images → tables + a failure report; resumable; the tiny offline model end to end."""

import json
from pathlib import Path

import pytest
from PIL import Image

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness.types import Completion
from rend_equiv_dataset.figures.tables.digitized import DigitizeRun, run_digitize
from rend_equiv_dataset.figures.tables.read import load_tables

ANSWERS = {
    "a.png": "TITLE: Sales\n| Year | Sales (USD) |\n|---|---|\n| 2020 | 1,200 |\n| 2021 | 1,350.5 |",
    "b.png": "```csv\nParty,Share (%)\nGreens,12\nLiberals,30\nOthers,58\n```",
    "c.png": "I am unable to read this chart.",
    "d.png": "| Year | Sales |\n|---|---|\n| 2020 | lots |\n| 2021 | 6 |",
}


class ScriptedModel:
    """A stand-in with the harness interface: answers from a table, fails on request."""

    backend = "scripted"

    def __init__(self, answers, fail=()):
        self.answers, self.fail, self.asked = answers, set(fail), []

    def generate(self, requests):
        self.asked += [r.request_id for r in requests]
        assert all(len(r.images) == 1 and "table" in r.text for r in requests)
        return [Completion.failed(MemoryError("out of memory")) if r.request_id in self.fail
                else Completion(self.answers[r.request_id]) for r in requests]


def _images(folder: Path, names) -> Path:
    folder.mkdir()
    for i, name in enumerate(names):
        Image.new("RGB", (16, 16), (i * 40, 0, 0)).save(folder / name)
    return folder


def _run(tmp_path, **changes):
    fields = {"images": tmp_path / "images", "model": "scripted", "out": tmp_path / "tables", "batch_size": 3}
    fields.update(changes)
    return DigitizeRun(**fields)


def test_tables_and_failures_by_reason(tmp_path):
    _images(tmp_path / "images", ANSWERS)
    (tmp_path / "images" / "e.png").write_bytes(b"not a png")
    model = ScriptedModel(ANSWERS)
    report = run_digitize(_run(tmp_path), load_model=lambda: model)
    assert (report.n, report.n_ok) == (5, 2)
    assert {k: v for k, v in report.failures.items() if v} == {
        "unparseable": 1, "non_numeric_cell": 1, "image_error": 1}
    tables = load_tables(tmp_path / "tables")
    assert [t.table_id for t in tables.tables] == ["a", "b"]
    a, b = (t.chart for t in tables.tables)
    assert (a.title, a.values(), a.unit) == ("Sales", (1200.0, 1350.5), "USD")
    assert (b.family.value, b.categories) == ("pie", ("Greens", "Liberals", "Others"))
    body = json.loads((tmp_path / "tables" / "_digitize" / "report.json").read_text())
    assert body["success_rate"] == 0.4 and body["provenance"]["prompt"].startswith("Transcribe")
    by_image = {r["image"]: r for r in body["images"]}
    assert by_image["c.png"]["output"] == ANSWERS["c.png"] and by_image["c.png"]["reason"] == "unparseable"
    assert by_image["e.png"]["reason"] == "image_error"
    # a failed request keeps the answers beside the folder, for --retry-errors
    assert (tmp_path / ".tables.digitize.jsonl").exists()


def test_a_killed_run_resumes_without_asking_again(tmp_path):
    _images(tmp_path / "images", ANSWERS)

    class Killed(ScriptedModel):
        def generate(self, requests):
            if len(self.asked) >= 3:
                raise KeyboardInterrupt
            return super().generate(requests)

    first = Killed(ANSWERS)
    with pytest.raises(KeyboardInterrupt):
        run_digitize(_run(tmp_path), load_model=lambda: first)
    assert not (tmp_path / "tables").exists()
    second = ScriptedModel(ANSWERS)
    report = run_digitize(_run(tmp_path), load_model=lambda: second)
    assert second.asked == ["d.png"] and report.n_ok == 2
    assert not list(tmp_path.glob(".tables*"))


def test_model_errors_are_counted_and_retried_on_request(tmp_path):
    _images(tmp_path / "images", ANSWERS)
    report = run_digitize(_run(tmp_path), load_model=lambda: ScriptedModel(ANSWERS, fail={"a.png"}))
    assert report.failures["model_error"] == 1 and report.n_ok == 1
    retry = ScriptedModel(ANSWERS)
    report = run_digitize(_run(tmp_path, retry_errors=True, overwrite=True), load_model=lambda: retry)
    assert retry.asked == ["a.png"] and report.n_ok == 2


def test_bad_arguments(tmp_path):
    with pytest.raises(InputError) as err:
        run_digitize(_run(tmp_path), load_model=lambda: ScriptedModel(ANSWERS))
    assert err.value.field == "--images"
    _images(tmp_path / "images", [])
    with pytest.raises(InputError, match="holds no"):
        run_digitize(_run(tmp_path), load_model=lambda: ScriptedModel(ANSWERS))
    Image.new("RGB", (4, 4)).save(tmp_path / "images" / "x.png")
    Image.new("RGB", (4, 4)).save(tmp_path / "images" / "x.jpg")
    with pytest.raises(InputError, match="share the name 'x'"):
        run_digitize(_run(tmp_path), load_model=lambda: ScriptedModel(ANSWERS))
    (tmp_path / "images" / "x.jpg").unlink()
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "old.csv").write_text("k,v\n")
    with pytest.raises(InputError, match="not empty") as err:
        run_digitize(_run(tmp_path), load_model=lambda: ScriptedModel(ANSWERS))
    assert err.value.field == "--out"


def test_command_line_errors_exit_2(tmp_path, capsys):
    assert main(["digitize", "--images", str(tmp_path / "none"), "--model", "/no/such/model",
                 "--out", str(tmp_path / "t")]) == 2
    assert "--model" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["digitize", "--images", str(tmp_path), "--model", "m", "--batch-size", "0", "--out", "t"])
    assert exit_info.value.code == 2


@pytest.mark.slow
def test_tiny_offline_model_end_to_end(tmp_path, capsys):
    """Plumbing only: the tiny random model's outputs are noise, so they are characterized, not parsed."""
    from rend_equiv_dataset.harness.tiny import build_tiny_model

    model = build_tiny_model(tmp_path / "tiny", kind="vlm", seed=0)
    _images(tmp_path / "images", ["one.png", "two.png"])
    argv = ["digitize", "--images", str(tmp_path / "images"), "--model", str(model), "--max-new-tokens", "8",
            "--out", str(tmp_path / "tables")]
    assert main(argv) == 0
    assert "digitized " in capsys.readouterr().out
    body = json.loads((tmp_path / "tables" / "_digitize" / "report.json").read_text())
    assert body["n"] == 2 and sum(body["failures"].values()) == 2 - body["n_ok"]
    assert {r["image"] for r in body["images"]} == {"one.png", "two.png"}
    assert all(isinstance(r["output"], str) for r in body["images"])
    assert body["provenance"]["revision"].startswith("local-")
