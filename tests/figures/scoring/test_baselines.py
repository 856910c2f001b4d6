"""Baseline signals from the predictions' optional fields (paper Appendix C; docs/design.md §3.5)."""

import math

import pytest
from .release_fixture import TINY_OUTPUTS, tiny_rows

from rend_equiv_dataset.figures.scoring.predictions import Prediction
from rend_equiv_dataset.figures.release.read import check_renderings, rendering_from_row
from rend_equiv_dataset.figures.scoring.instances import group_instances, score_instance


@pytest.fixture(scope="module")
def instances():
    return {i.base.instance_id: i for i in group_instances(check_renderings([rendering_from_row(r) for r in tiny_rows()]))}


def _predictions(**base_fields):
    out = {k: Prediction(render_id=k, output=v) for k, v in TINY_OUTPUTS.items()}
    out["s0-i1/base"] = Prediction(render_id="s0-i1/base", output="15", **base_fields)
    return out


def test_no_optional_fields_no_baselines(instances):
    assert score_instance(instances["s0-i1"], _predictions()).baselines == {}


def test_logprob_is_taken_from_the_base_answer(instances):
    assert score_instance(instances["s0-i1"], _predictions(logprob=-0.7)).baselines == {"logprob": -0.7}


def test_self_consistency_and_semantic_entropy(instances):
    # eight samples: 15, 15.2 and "about 15" cluster together (within 5%); 20 twice; one unparseable
    samples = ["15", "15.2", "about 15", "The answer is 15", "15", "20", "20.0", "no idea"]
    baselines = score_instance(instances["s0-i1"], _predictions(samples=samples)).baselines
    assert baselines["self_consistency"] == pytest.approx(5 / 8)
    p = [5 / 8, 2 / 8, 1 / 8]
    assert baselines["semantic_entropy"] == pytest.approx(sum(x * math.log(x) for x in p))


def test_label_samples_cluster_case_insensitively(instances):
    out = {k: Prediction(render_id=k, output=v) for k, v in TINY_OUTPUTS.items()}
    out["s0-i2/base"] = Prediction(render_id="s0-i2/base", output="B", samples=["B", "b", "Answer: B", "A"])
    baselines = score_instance(instances["s0-i2"], out).baselines
    assert baselines["self_consistency"] == 0.75
    assert baselines["semantic_entropy"] == pytest.approx(0.75 * math.log(0.75) + 0.25 * math.log(0.25))


def test_perturbation_pools_styles_and_rewordings(instances):
    # pool: base 15, re-renderings 15, 15, 15, 14 (14 is its own cluster), rewordings 15 and 30
    preds = _predictions(perturbed=["15", "30"])
    baselines = score_instance(instances["s0-i1"], preds).baselines
    p = [5 / 7, 1 / 7, 1 / 7]  # seven answers: five 15s, the 14, the 30
    assert baselines["perturbation"] == pytest.approx(sum(x * math.log(x) for x in p))


def test_perfectly_stable_pool_has_zero_entropy(instances):
    out = {k: Prediction(render_id=k, output=v) for k, v in TINY_OUTPUTS.items()}
    out["s0-i5/base"] = Prediction(render_id="s0-i5/base", output="100", perturbed=["100", "1e2"])
    assert score_instance(instances["s0-i5"], out).baselines["perturbation"] == 0.0
