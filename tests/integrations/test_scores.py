"""Harness metrics come from the scorer of `rend-equiv score`, whatever order or shape the harness logs samples in."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from figures.scoring.release_fixture import TINY_OUTPUTS, tiny_rows
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.release.read import rendering_from_row
from rend_equiv_dataset.figures.scoring.pipeline import score_predictions
from rend_equiv_dataset.figures.scoring.predictions import Prediction
from rend_equiv_dataset.integrations.scores import METRICS, harness_metrics, sample_record

RECORDS = [sample_record(row, TINY_OUTPUTS.get(row["render_id"])) for row in tiny_rows()]


def _direct() -> dict[str, float]:
    rows = [rendering_from_row(r) for r in tiny_rows()]
    run = score_predictions(rows, {k: Prediction(render_id=k, output=v) for k, v in TINY_OUTPUTS.items()}, n_resamples=0)
    return {name: float(read(run)) for name, read in METRICS.items()}


@settings(max_examples=15)
@given(st.permutations(RECORDS))
def test_the_order_of_samples_does_not_matter(records):
    assert harness_metrics(records) == _direct()


def test_hand_checked_values_of_the_tiny_release():
    metrics = harness_metrics(RECORDS)
    assert metrics["accuracy"] == 0.4 and metrics["ibem_rate"] == 0.4 and metrics["ecs_ibem_detection"] == 1.0
    # REA per instance: i1 3/4 (14 is 6.7% off 15), i2 4/4, i3 3/4 (50 is 25% off 40), i4 2/4 (B, and one unanswered), i5 4/4
    assert metrics["rea"] == pytest.approx((0.75 + 1.0 + 0.75 + 0.5 + 1.0) / 5)


def test_a_repeated_sample_is_counted_once_and_the_first_output_kept():
    repeated = [*RECORDS, {**RECORDS[0], "output": "999"}]
    assert harness_metrics(repeated) == harness_metrics(RECORDS)


def test_an_undefined_metric_is_nan_not_an_error():
    correct = [sample_record(row, row["target"]) for row in tiny_rows()]
    metrics = harness_metrics(correct)
    assert metrics["accuracy"] == 1.0 and metrics["ibem_rate"] == 0.0
    assert math.isnan(metrics["ecs_ibem_detection"]) and math.isnan(metrics["ecs_auroc"])


@pytest.mark.parametrize("change, field", [({"role": "nope"}, "role"), ({"labels": None}, "labels"), ({"output": 3}, "output")])
def test_a_malformed_sample_names_its_position_and_field(change, field):
    records = [*RECORDS[:2], {**RECORDS[2], **change}]
    with pytest.raises(InputError) as err:
        harness_metrics(records)
    assert err.value.line == 3 and err.value.field == field
