"""ECS, REA, residuals and IBEM on a five-instance release, value by value (paper §3, §5)."""

import math

import pytest
from .release_fixture import TINY_OUTPUTS, tiny_rows

from rend_equiv_dataset.figures.scoring.predictions import Prediction
from rend_equiv_dataset.figures.release.read import check_renderings, rendering_from_row
from rend_equiv_dataset.figures.scoring.pipeline import score_predictions


@pytest.fixture(scope="module")
def run():
    renderings = check_renderings([rendering_from_row(r) for r in tiny_rows()])
    predictions = {k: Prediction(render_id=k, output=v) for k, v in TINY_OUTPUTS.items()}
    return score_predictions(renderings, predictions, n_resamples=200)


@pytest.fixture(scope="module")
def by_id(run):
    return {s.instance_id: s for s in run.scores}


def test_i1_pure_scale_error(by_id):
    s = by_id["s0-i1"]
    assert (s.answer, s.correct) == (15.0, False)
    assert s.rea == 0.75  # 15, 15, 15 agree; 14 is 6.7% off
    assert s.residuals == {"offset": pytest.approx(2.5 / 20), "scale": 0.0, "zoom": 0.0}
    assert s.ecs == pytest.approx(2 / 3)
    assert (s.flagged, s.ibem) == (False, True)
    assert s.combined == pytest.approx(2 / 3)


def test_i2_swap_consistent_confusion(by_id):
    s = by_id["s0-i2"]
    assert (s.answer, s.correct, s.rea) == ("B", False, 1.0)
    assert s.residuals == {"delete_max": 1.0, "swap": 0.0, "zoom": 0.0}
    assert s.ecs == pytest.approx(2 / 3)
    assert (s.flagged, s.ibem, s.combined) == (False, True, pytest.approx(2 / 3))


def test_i3_correct_with_boundary_agreement(by_id):
    s = by_id["s0-i3"]
    assert (s.answer, s.correct, s.rea) == (40.0, True, 0.75)
    assert s.residuals == {"scale": 0.0, "zoom": pytest.approx(0.05)}
    assert (s.ecs, s.flagged, s.ibem, s.combined) == (1.0, False, False, 0.75)


def test_i4_missing_rendering_counts_as_disagreement(by_id):
    s = by_id["s0-i4"]
    assert (s.answer, s.correct) == ("A", False)
    assert s.rea == 0.5  # A, A agree; B disagrees; the missing style3 is unanswered
    assert s.residuals == {"swap": 1.0, "zoom": 1.0}  # φ_swap(A) = C but answered A
    assert (s.ecs, s.flagged, s.ibem, s.combined) == (0.0, True, False, 0.0)


def test_i5_false_positive(by_id):
    s = by_id["s0-i5"]
    assert (s.correct, s.rea) == (True, 1.0)
    assert s.residuals == {"offset": pytest.approx(20 / 110), "zoom": pytest.approx(0.2)}
    assert (s.ecs, s.flagged, s.ibem) == (0.0, True, False)


def test_report_values(run):
    report = run.report
    assert report["n_instances"] == 5
    assert report["accuracy"] == pytest.approx(0.4)
    assert report["ibem"]["n"] == 2
    assert report["ibem"]["rate"] == pytest.approx(0.4)
    assert report["ibem"]["matched_fpr"] == pytest.approx(0.5)  # i5 of {i3, i5}
    assert report["ibem"]["at_threshold"] == {"ecs": 0.0, "combined": 0.0}
    # at the same FPR (one of two correct instances), the best ECS threshold lies above 2/3: i1 and i2 are flagged
    assert report["ibem"]["detection"]["ecs"] == 1.0
    # REA at the same FPR: the budget (one correct instance) covers REA = 0.75 (i3), so i1 is flagged, i2 (REA 1) not
    assert report["ibem"]["detection"]["rea"] == pytest.approx(0.5)
    assert report["ibem"]["corollary3"] == {"ecs": 0.0, "combined": 0.0, "identical": True}
    table = report["detection_by_edit"]
    assert {g: (row["flagged"], row["n"]) for g, row in table.items()} == {
        "delete_max": (1, 1), "offset": (1, 1), "scale": (0, 1), "swap": (0, 1), "zoom": (0, 2),
    }
    # i1's error fits exactly as a ×1.5 map: the theory says scale and zoom miss it, offset catches it
    assert (table["scale"]["predicted"], table["offset"]["predicted"], table["zoom"]["predicted"]) == (0.0, 1.0, 0.0)
    # i2 reads A as B but B as A on one edit and C on another: no single label map, no prediction
    assert table["swap"]["predicted"] is None and table["delete_max"]["predicted_n"] == 0
    assert report["no_residual_fraction"] == 0.0
    assert report["no_residual"]["oracle_best_edit"] == 1.0
    assert report["taxonomy"]["wrong"]["scale"] == 1
    assert report["taxonomy"]["wrong"]["inconsistent_label"] == 2
    assert report["edit_accuracy"]["scale"] == {"n": 2, "base_accuracy": 0.5, "edited_accuracy": 0.5, "difference": 0.0}
    auroc = report["signals"]["ecs"]["auroc"]
    # ECS: correct {1.0, 0.0}, wrong {2/3, 2/3, 0.0}: 1.0 beats all three, 0.0 loses twice and ties once (½)
    assert auroc == pytest.approx(3.5 / 6)
    assert not math.isnan(report["signals"]["combined"]["rc_auc"])
