"""The lmms-eval task end to end on a local release with a scripted stand-in model (docs/design.md §8.1).

Each run's metrics must equal, exactly, what `rend-equiv score` reports on the
same outputs. Where lmms-eval is installed the real evaluator runs the task;
everywhere, the vendored contract (:mod:`integrations.lmms_eval_contract`) does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from integrations.conftest import expected_metrics
from integrations.lmms_eval_contract import load_yaml_config, run_task
from integrations.standin import StandIn
from rend_equiv_dataset.cli import main
from rend_equiv_dataset.figures.release.read import dataset_fingerprint, load_renderings
from rend_equiv_dataset.figures.scoring.predictions import read_predictions
from rend_equiv_dataset.harness.prompts import figure_prompt
from rend_equiv_dataset.integrations.lmms_eval.utils import PREDICTIONS_ENV


def _tasks(release: Path, tmp_path: Path) -> Path:
    out = tmp_path / "tasks"
    assert main(["export", "--format", "lmms-eval", "--data", str(release), "--out", str(out)]) == 0
    return out


def _score(release: Path, predictions: Path, out: Path) -> dict:
    assert main(["score", "--data", str(release), "--predictions", str(predictions), "--resamples", "0", "--out", str(out)]) == 0
    lines = [json.loads(x) for x in (out / "instances.jsonl").read_text().splitlines()]
    return expected_metrics(json.loads((out / "report.json").read_text()), lines)


def test_export_names_the_release_and_the_packaged_template(release, tmp_path):
    tasks = _tasks(release, tmp_path)
    assert sorted(p.name for p in tasks.iterdir()) == ["rend_equiv.yaml"]  # no matched set in this release
    config = load_yaml_config(str(tasks / "rend_equiv.yaml"))
    assert config["task"] == "rend_equiv" and config["dataset_name"] == "renderings" and config["test_split"] == "test"
    assert Path(config["dataset_path"]) == release.absolute()
    assert [m["metric"] for m in config["metric_list"]][:2] == ["accuracy", "ecs"]
    assert config["generation_kwargs"]["temperature"] == 0


def test_contract_run_reports_what_rend_equiv_score_reports(release, score_report, tmp_path, monkeypatch):
    monkeypatch.setenv(PREDICTIONS_ENV, str(tmp_path / "from-aggregation.jsonl"))
    model = StandIn()
    results, samples = run_task(str(_tasks(release, tmp_path) / "rend_equiv.yaml"),
                                lambda visuals, prompt, kwargs: model.answer(visuals[0], prompt))
    assert results == expected_metrics(*score_report)
    questions = {r.question for r in load_renderings(release)}
    assert set(model.prompts) == {figure_prompt(q) for q in questions} and len(model.prompts) == len(samples)
    scaled = next(s["accuracy"] for s in samples if s["accuracy"]["render_id"] == "s0-i1/base")
    assert (scaled["answer"], scaled["correct"]) == ("15", False)  # our reader, in the per-sample log

    log = tmp_path / "samples_rend_equiv.jsonl"
    log.write_text("".join(json.dumps(s) + "\n" for s in samples))
    imported = tmp_path / "imported.jsonl"
    assert main(["import-predictions", "--from", "lmms-eval", str(log), "--data", str(release), "--out", str(imported)]) == 0
    assert _score(release, imported, tmp_path / "r1") == results
    assert read_predictions(imported).meta["dataset_fingerprint"] == dataset_fingerprint(release)

    written = tmp_path / "from-aggregation.jsonl"
    assert _score(release, written, tmp_path / "r2") == results
    assert main(["submit", "--data", str(release), "--predictions", str(written), "--model-name", "org/stand-in",
                 "--resamples", "0", "--leaderboard", str(tmp_path / "board")]) == 0


def test_real_lmms_eval_run_reports_what_rend_equiv_score_reports(release, score_report, tmp_path, monkeypatch):
    pytest.importorskip("lmms_eval", reason="lmms-eval is not installed (see docs/design.md §8.1)")
    from lmms_eval.api.model import lmms
    from lmms_eval.evaluator import simple_evaluate
    from lmms_eval.loggers.evaluation_tracker import EvaluationTracker
    from lmms_eval.tasks import TaskManager

    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv(PREDICTIONS_ENV, str(tmp_path / "from-aggregation.jsonl"))
    script = StandIn()

    class StandInModel(lmms):
        def generate_until(self, requests):
            out = []
            for request in requests:
                prompt, _kwargs, doc_to_visual, doc_id, task, split = request.args
                out.append(script.answer(doc_to_visual(self.task_dict[task][split][doc_id])[0], prompt))
            return out

        def loglikelihood(self, requests):
            raise NotImplementedError

        def generate_until_multi_round(self, requests):
            raise NotImplementedError

    tasks = _tasks(release, tmp_path)
    tracker = EvaluationTracker(output_path=str(tmp_path / "runs"))
    run = simple_evaluate(model=StandInModel(), tasks=["rend_equiv"], task_manager=TaskManager(include_path=str(tasks)),
                          log_samples=True, bootstrap_iters=0, evaluation_tracker=tracker)
    results = {k.split(",")[0]: v for k, v in run["results"]["rend_equiv"].items() if k.endswith(",none") and "stderr" not in k}
    assert results == expected_metrics(*score_report)
    # what `lmms-eval --log_samples --output_path runs` does after the run:
    tracker.save_results_aggregated(results=run, samples=run["samples"], datetime_str="2026-01-01T00-00-00")
    tracker.save_results_samples(task_name="rend_equiv", samples=run["samples"]["rend_equiv"])
    (log,) = (tmp_path / "runs").rglob("*_samples_rend_equiv.jsonl")
    imported = tmp_path / "imported.jsonl"
    assert main(["import-predictions", "--from", "lmms-eval", str(log), "--data", str(release), "--out", str(imported)]) == 0
    assert _score(release, imported, tmp_path / "r") == results
    assert _score(release, tmp_path / "from-aggregation.jsonl", tmp_path / "r2") == results
