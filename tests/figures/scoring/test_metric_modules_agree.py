"""The `evaluate` modules and `rend-equiv score` agree on every input: same parser, same rules.

Each case is a small release (synthetic rows, some asked "in thousand", whose
outputs then say "thousand"), a simulated reader's outputs in several
wordings, and a threshold; the per-instance ECS and REA and the IBEM numbers
of the modules must equal those of the scorer's report.
"""

import json
from pathlib import Path

import evaluate
import numpy as np
import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.figures.scoring.pipeline import score_predictions
from rend_equiv_dataset.figures.scoring.predictions import Prediction
from rend_equiv_dataset.figures.scoring.simulate import simulate
from rend_equiv_dataset.figures.scoring.synthetic import synthetic_rows
from rend_equiv_dataset.figures.release.read import check_renderings, rendering_from_row
from .release_fixture import write_predictions, write_release

ROOT = Path(__file__).resolve().parents[3]
IN_THOUSAND = "What is the value, in thousand?"


@pytest.fixture(scope="module")
def modules():
    import sys

    sys.path.insert(0, str(ROOT))
    return {name: evaluate.load(str(ROOT / "metrics" / name)) for name in ("ecs", "rea", "ibem")}


def _case(seed: int, spec: str):
    """Rows (every third instance asked in thousands) and one output per row, worded at random."""
    rows = synthetic_rows(n_instances=9, seeds=(seed,), rerenders=3, values=(10, 60))
    thousands = {r["instance_id"] for r in rows if r["answer_type"] == "number" and int(r["instance_id"][-1]) % 3 == 0}
    for row in rows:
        if row["instance_id"] in thousands:
            row["question"] = IN_THOUSAND
    renderings = check_renderings([rendering_from_row(r) for r in rows])
    answers = {r["render_id"]: r["output"] for r in simulate(renderings, spec, seed).records}
    rng = np.random.default_rng(seed)
    outputs = []
    for row in rows:
        text = answers[row["render_id"]]
        style = int(rng.integers(4))
        if row["instance_id"] in thousands and style < 2:
            text = f"{text} thousand"
        elif style == 2:
            text = f"The answer is {text}."
        elif style == 3 and rng.random() < 0.3:
            text = "I cannot read this chart."
        outputs.append(text)
    return rows, outputs


def _module_results(modules, rows, outputs, threshold):
    references = [dict(r) for r in rows]
    return {name: m.compute(predictions=outputs, references=references, threshold=threshold)
            for name, m in modules.items()}


def _assert_agree(results, report, instances):
    by_id = {line["instance_id"]: line for line in instances}
    assert results["ecs"]["ecs_per_instance"] == {i: line["ecs"] for i, line in by_id.items()}
    assert results["rea"]["rea_per_instance"] == {i: line["rea"] for i, line in by_id.items()}
    assert results["ecs"]["flagged_rate"] == pytest.approx(np.mean([line["flagged"] for line in instances]))
    ibem = results["ibem"]
    assert ibem["ibem_n"] == report["ibem"]["n"] == sum(line["ibem"] for line in instances)
    assert ibem["ibem"] == pytest.approx(report["ibem"]["rate"])
    assert ibem["accuracy"] == pytest.approx(report["accuracy"])
    assert ibem["ecs_detection"] == report["ibem"]["corollary3"]["ecs"]
    assert ibem["combined_detection"] == report["ibem"]["corollary3"]["combined"]
    assert ibem["same_flags"] == report["ibem"]["corollary3"]["identical"]


CASES = [(seed, spec, threshold)
         for seed, spec in enumerate(["perfect", "scale:1.5", "offset:4", "0.5*affine:1.2,3+0.5*permute:swap",
                                      "noise:0.2", "0.3*permute:random+0.7*noise:0.05"])
         for threshold in (0.5, 0.7)]


@pytest.mark.parametrize(("seed", "spec", "threshold"), CASES)
def test_modules_agree_with_the_scorer(modules, seed, spec, threshold):
    rows, outputs = _case(seed, spec)
    renderings = check_renderings([rendering_from_row(r) for r in rows])
    predictions = {r["render_id"]: Prediction(render_id=r["render_id"], output=o) for r, o in zip(rows, outputs)}
    run = score_predictions(renderings, predictions, threshold=threshold, n_resamples=0)
    instances = [{"instance_id": s.instance_id, "ecs": s.ecs, "rea": s.rea, "flagged": s.flagged, "ibem": s.ibem}
                 for s in run.scores]
    _assert_agree(_module_results(modules, rows, outputs, threshold), run.report, instances)


def test_the_command_line_and_the_modules_agree_on_a_question_in_thousands(modules, tmp_path):
    # base "55 thousand" for a question asked in thousands reads 55; "110" after a ×2 scale is consistent
    rows = synthetic_rows(n_instances=1, seeds=(0,), rerenders=2, label_share=0.0, values=(55, 56))
    for row in rows:
        row["question"] = "How many visitors in Q3, in thousand?"
    scale = next(r for r in rows if r["variant"] == "scale")
    scale["transform"] = json.dumps({"kind": "affine", "scale": 2.0, "shift": 0.0})
    scale["target"] = "110.0"
    outputs = {r["render_id"]: "55 thousand" for r in rows}
    for row in rows:
        if row["role"] == "edit":
            outputs[row["render_id"]] = json.loads(row["transform"]).get("scale", 1.0) * 55 + json.loads(
                row["transform"]).get("shift", 0.0)
            outputs[row["render_id"]] = repr(outputs[row["render_id"]])
    outputs[scale["render_id"]] = "110"
    release = write_release(rows, tmp_path / "release")
    preds = write_predictions(outputs, tmp_path / "preds.jsonl")
    assert main(["score", "--data", str(release), "--predictions", str(preds), "--resamples", "0",
                 "--out", str(tmp_path / "report")]) == 0
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    instances = [json.loads(line) for line in (tmp_path / "report" / "instances.jsonl").read_text().splitlines()]
    results = _module_results(modules, rows, [outputs[r["render_id"]] for r in rows], 0.5)
    _assert_agree(results, report, instances)
    assert results["ecs"]["ecs"] == 1.0 and instances[0]["correct"] is True and instances[0]["ecs"] == 1.0
