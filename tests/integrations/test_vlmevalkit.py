"""The VLMEvalKit dataset end to end on a local release with a scripted stand-in model (docs/design.md §8.2).

VLMEvalKit's packages (``ms-vlmeval``, ``nvidia-vlmeval``) need torch 2.14 and
a torchvision that does not load with the pinned torch 2.13, so where
``vlmeval`` cannot be imported the tests load the vendored copy of the
interface used (``vendored_vlmeval/``). The inference loop below is
VLMEvalKit's (``vlmeval/inference.py``): ``build_prompt`` per row, the model's
text in a ``prediction`` column, the image column dropped, the table dumped.
"""

from __future__ import annotations

import base64
import csv
import importlib
import json
import sys
from pathlib import Path

import pandas as pd
import pytest
from PIL import Image

from integrations.conftest import expected_metrics
from integrations.standin import StandIn, png
from rend_equiv_dataset.cli import main
from rend_equiv_dataset.figures.release.read import load_renderings
from rend_equiv_dataset.figures.scoring.predictions import read_predictions
from rend_equiv_dataset.harness.prompts import figure_prompt
from rend_equiv_dataset.integrations.vlmevalkit.tsv import COLUMNS

VENDORED = Path(__file__).with_name("vendored_vlmeval")


@pytest.fixture()
def vlmeval(monkeypatch):
    try:
        return importlib.import_module("vlmeval.dataset")
    except Exception:  # noqa: BLE001 - not installed, or installed against another torch
        for name in [m for m in sys.modules if m == "vlmeval" or m.startswith("vlmeval.")]:
            monkeypatch.delitem(sys.modules, name)
        monkeypatch.syspath_prepend(str(VENDORED))
        return importlib.import_module("vlmeval.dataset")


@pytest.fixture()
def lmudata(release, tmp_path, monkeypatch) -> Path:
    root = tmp_path / "LMUData"
    root.mkdir()
    assert main(["export", "--format", "vlmevalkit", "--data", str(release), "--out", str(root / "REND_EQUIV.tsv")]) == 0
    monkeypatch.setenv("LMUData", str(root))
    return root


def test_the_tsv_holds_vlmevalkit_columns_and_the_exact_pngs(release, lmudata):
    with open(lmudata / "REND_EQUIV.tsv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    assert tuple(rows[0]) == COLUMNS
    assert [r["index"] for r in rows] == [str(i) for i in range(len(rows))]
    assert [r["render_id"] for r in rows] == sorted(r.render_id for r in load_renderings(release))
    first = rows[0]
    assert base64.b64decode(first["image"]) == png(first["render_id"])
    assert first["answer"] == first["target"] and json.loads(first["labels"]) == []


def test_export_is_the_same_bytes_twice(release, lmudata, tmp_path):
    again = tmp_path / "again.tsv"
    assert main(["export", "--format", "vlmevalkit", "--data", str(release), "--out", str(again)]) == 0
    assert again.read_bytes() == (lmudata / "REND_EQUIV.tsv").read_bytes()


def _infer(dataset, model: StandIn) -> list[dict]:
    """VLMEvalKit's inference loop over every row; returns the predictions table's rows."""
    rows = []
    for i in range(len(dataset)):
        line = dataset.data.iloc[i]
        message = dataset.build_prompt(line)
        images = [Image.open(m["value"]) for m in message if m["type"] == "image"]
        text = "".join(m["value"] for m in message if m["type"] == "text")
        row = {k: v for k, v in dict(line).items() if k != "image"}
        row["prediction"] = model.answer(images[0], text)
        rows.append(row)
    return rows


@pytest.mark.parametrize("suffix", [".xlsx", ".tsv"])
def test_dataset_run_reports_what_rend_equiv_score_reports(release, lmudata, score_report, vlmeval, tmp_path, suffix):
    from rend_equiv_dataset.integrations.vlmevalkit import register

    cls = register()
    assert register() is cls and vlmeval.DATASET_CLASSES.count(cls) == 1
    dataset = vlmeval.build_dataset("REND_EQUIV")
    assert isinstance(dataset, cls)
    model = StandIn()
    rows = _infer(dataset, model)
    assert set(model.prompts) == {figure_prompt(r.question) for r in load_renderings(release)}
    saved = Image.open(dataset.build_prompt(0)[0]["value"])
    assert saved.format == "PNG"  # the PNG as released, not re-encoded

    table = tmp_path / f"stand-in_REND_EQUIV{suffix}"
    frame = pd.DataFrame(rows)
    if suffix == ".xlsx":  # VLMEvalKit's default predictions table
        frame.to_excel(table, index=False)
    else:
        frame.to_csv(table, sep="\t", index=False)
    result = dataset.evaluate(str(table))
    metrics = result.iloc[0].to_dict()
    assert metrics == expected_metrics(*score_report)

    beside = tmp_path / "stand-in_REND_EQUIV_predictions.jsonl"
    assert set(read_predictions(beside, [r.render_id for r in load_renderings(release)]).by_render_id) == {r["render_id"] for r in rows}
    imported = tmp_path / "imported.jsonl"
    assert main(["import-predictions", "--from", "vlmevalkit", str(table), "--data", str(release), "--out", str(imported)]) == 0
    out = tmp_path / "report"
    assert main(["score", "--data", str(release), "--predictions", str(imported), "--resamples", "0", "--out", str(out)]) == 0
    lines = [json.loads(x) for x in (out / "instances.jsonl").read_text().splitlines()]
    assert expected_metrics(json.loads((out / "report.json").read_text()), lines) == metrics


def test_a_missing_tsv_names_the_export_command(vlmeval, tmp_path, monkeypatch):
    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.integrations.vlmevalkit import register

    monkeypatch.setenv("LMUData", str(tmp_path))
    register()
    with pytest.raises(InputError, match="rend-equiv export --format vlmevalkit"):
        vlmeval.build_dataset("REND_EQUIV")


def test_real_vlmevalkit_inference_then_evaluate(release, lmudata, score_report, vlmeval, tmp_path):
    inference = pytest.importorskip("vlmeval.inference", reason="VLMEvalKit is not importable (see docs/design.md §8.2)")
    from rend_equiv_dataset.integrations.vlmevalkit import register

    register()
    dataset = vlmeval.build_dataset("REND_EQUIV")
    script = StandIn()

    class StandInVLM:  # VLMEvalKit's model interface: generate(message, dataset) over image and text parts
        is_api = False

        def set_dump_image(self, dump_image):
            self.dump_image = dump_image

        def use_custom_prompt(self, dataset_name):
            return False

        def generate(self, message, dataset=None):
            image = next(Image.open(m["value"]) for m in message if m["type"] == "image")
            return script.answer(image, "".join(m["value"] for m in message if m["type"] == "text"))

    work = tmp_path / "work"
    work.mkdir()
    inference.infer_data_job(StandInVLM(), work_dir=str(work), model_name="stand-in", dataset=dataset)
    (table,) = [p for p in work.rglob("stand-in_REND_EQUIV.*") if p.suffix in (".xlsx", ".tsv", ".csv", ".json")]
    assert dataset.evaluate(str(table)).iloc[0].to_dict() == expected_metrics(*score_report)
