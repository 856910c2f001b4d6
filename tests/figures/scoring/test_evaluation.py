"""The paper's evaluation on a simulated three-seed run: matched FPR, Corollary 3, CV, per-seed, intervals."""

import numpy as np
import pytest

from rend_equiv_dataset.figures.scoring.predictions import Prediction
from rend_equiv_dataset.figures.scoring.pipeline import score_predictions
from rend_equiv_dataset.figures.scoring.simulate import simulate
from rend_equiv_dataset.figures.scoring.synthetic import synthetic_renderings

READER = "0.3*perfect+0.2*scale:1.4+0.2*offset:30+0.15*permute:swap+0.15*noise:0.08"


@pytest.fixture(scope="module")
def run():
    renderings = synthetic_renderings(n_instances=80, seeds=(0, 1, 2), rerenders=4)
    sim = simulate(renderings, READER, seed=4)
    rng = np.random.default_rng(0)
    predictions = {}
    for record in sim.records:
        extra = {"logprob": float(-rng.exponential())} if record["render_id"].endswith("/base") else {}
        predictions[record["render_id"]] = Prediction(**record, **extra)
    return score_predictions(renderings, predictions, n_resamples=1000, seed=7)


def test_ibem_is_rea_high_and_wrong(run):
    ibem = [s for s in run.scores if s.ibem]
    assert ibem and all(s.rea >= 0.75 and not s.correct for s in ibem)
    assert run.report["ibem"]["n"] == len(ibem)


@pytest.mark.parametrize("threshold", [0.1, 0.34, 0.5, 0.67, 0.75])
def test_corollary3_combined_flags_exactly_what_ecs_flags_on_ibem(run, threshold):
    ibem = [s for s in run.scores if s.ibem]
    assert {s.instance_id for s in ibem if s.combined < threshold} == {s.instance_id for s in ibem if s.ecs < threshold}


def test_corollary3_in_the_report(run):
    block = run.report["ibem"]["corollary3"]
    assert block["identical"] and block["ecs"] == block["combined"] == run.report["ibem"]["at_threshold"]["ecs"]


def test_matched_fpr_anchor_and_baselines(run):
    report = run.report
    correct = [s for s in run.scores if s.correct]
    assert report["ibem"]["matched_fpr"] == pytest.approx(sum(s.ecs < 0.5 for s in correct) / len(correct))
    detection = report["ibem"]["detection"]
    assert set(detection) == {"ecs", "rea", "combined", "logprob"}
    # the matched operating point is the best one at that FPR, so ECS does at least as well as at its threshold
    assert detection["ecs"] >= report["ibem"]["at_threshold"]["ecs"] - 1e-12
    assert all(0.0 <= v <= 1.0 for v in detection.values())


def test_signal_table_has_every_signal_and_region(run):
    signals = run.report["signals"]
    assert set(signals) == {"ecs", "rea", "combined", "logprob"}
    for row in signals.values():
        assert 0.0 <= row["auroc"] <= 1.0 and row["auroc_ci"][0] <= row["auroc_ci"][1]
        assert {"auroc", "rc_auc", "ece"} <= set(row["high_rea"])


def test_intervals_contain_point_values(run):
    report = run.report
    low, high = report["accuracy_ci"]
    assert low <= report["accuracy"] <= high
    for row in report["detection_by_edit"].values():
        if row["n"]:
            assert row["ci"][0] - 1e-9 <= row["rate"] <= row["ci"][1] + 1e-9


def test_threshold_cross_validation_uses_every_seed(run):
    cv = run.report["threshold_cv"]
    assert [row["train_seed"] for row in cv] == [0, 1, 2]
    for row in cv:
        assert 0.0 < row["threshold"] <= 1.0
        assert 0.0 <= row["test_fpr"] <= 1.0


def test_per_seed_values_recombine(run):
    per_seed = run.report["per_seed"]
    n = sum(v["n"] for v in per_seed.values())
    assert n == run.report["n_instances"] == 240
    pooled = sum(v["accuracy"] * v["n"] for v in per_seed.values()) / n
    assert pooled == pytest.approx(run.report["accuracy"])


def test_fisher_and_no_residual(run):
    report = run.report
    tests = {t["comparison"]: t for t in report["fisher"]}
    assert set(tests) == {"numeric vs non_numeric", "scale vs offset", "swap vs zoom"}
    for t in tests.values():
        if t["p"] is not None:
            assert t["p_bonferroni"] == pytest.approx(min(1.0, 3 * t["p"]))
    block = report["no_residual"]
    assert block["ci"][0] - 1e-9 <= block["fraction"] <= block["ci"][1] + 1e-9
    assert block["fraction"] + block["oracle_best_edit"] == pytest.approx(1.0)
    assert block["suite_at_threshold"] <= block["oracle_best_edit"] + 1e-12


def test_edit_accuracy_and_taxonomy(run):
    report = run.report
    assert set(report["edit_accuracy"]) >= {"scale", "offset", "zoom", "swap", "delete_max"}
    wrong = sum(not s.correct for s in run.scores)
    assert sum(report["taxonomy"]["wrong"].values()) == wrong
    assert report["taxonomy"]["wrong"]["scale"] > 0 and report["taxonomy"]["wrong"]["offset"] > 0


def test_same_seed_same_report(run):
    renderings = synthetic_renderings(n_instances=80, seeds=(0, 1, 2), rerenders=4)
    predictions = {r["render_id"]: Prediction(**r) for r in simulate(renderings, READER, seed=4).records}
    first = score_predictions(renderings, predictions, n_resamples=300, seed=1).report
    second = score_predictions(renderings, predictions, n_resamples=300, seed=1).report
    assert first == second


def _score(seed, k, correct, ecs, rea=1.0):
    from rend_equiv_dataset.figures.scoring.instances import InstanceScore

    return InstanceScore(
        instance_id=f"s{seed}-{k}", data_seed=seed, template_id=f"t{k}", family="bar", question_type="read",
        answer_type="number", target="1", answer=1.0 if correct else 2.0, correct=correct, rea=rea,
        residuals={}, ecs=ecs, flagged=ecs < 0.5, ibem=rea >= 0.75 and not correct, combined=min(rea, ecs),
        edit_correct={}, edit_answers={},
    )


def test_threshold_cv_by_hand():
    from rend_equiv_dataset.figures.scoring.evaluation import columns, threshold_cv

    # seed 0: wrong answers sit at ECS 2/3, correct ones at 1 -> any threshold in (2/3, 1] separates them;
    # the grid point nearest the default 0.5 is 0.70. Seed 1 is tested with it: its wrong answers (ECS 2/3)
    # are all caught at 0.70 and none at 0.5; its correct ECS-0.6 instance is a false positive at 0.70 only.
    scores = [_score(0, k, k % 2 == 0, 1.0 if k % 2 == 0 else 2 / 3) for k in range(8)]
    scores += [_score(1, 10 + k, k < 4, [1.0, 1.0, 1.0, 0.6, 2 / 3, 2 / 3, 2 / 3, 2 / 3][k]) for k in range(8)]
    first = threshold_cv(columns(scores), 0.5)[0]
    assert first == {
        "train_seed": 0, "threshold": 0.7,
        "test_detection": 1.0, "test_fpr": 0.25, "default_detection": 0.0, "default_fpr": 0.0,
    }
