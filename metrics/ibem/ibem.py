"""Invariance-blind error mass (IBEM) as an ``evaluate`` metric; the rules live in rend_equiv_dataset."""

import datasets
import evaluate
from rend_equiv_dataset.figures.scoring.signals import ibem_result
from rend_equiv_dataset.figures.scoring.signals import RenderingsInput
from rend_equiv_dataset.figures.scoring.signals import reference_features
from rend_equiv_dataset.figures.scoring.signals import score_outputs

_CITATION = """\
@misc{rendequiv2026,
  title={Consistency Has a Computable Blind Spot: A Commutation Theory of Label-Free Reliability for Vision-Language Figure Reading},
  year={2026},
  eprint={2608.05675},
  archivePrefix={arXiv}
}
"""

_DESCRIPTION = """\
IBEM is the set of instances an invariance signal rates high-confidence
(REA >= 0.75) whose base answer is nonetheless wrong (5% relative for numbers,
exact for labels). The metric reports its rate and size, the accuracy, the share
of IBEM that ECS flags (ECS < threshold) and the share that the combined signal
min(REA, ECS) flags. By Corollary 3 the two flag the same instances whenever
threshold <= 0.75. These detections are at the threshold; the score report also
gives detection at a matched false-positive rate. `rend-equiv score` computes the
same values (`ibem.n`, `ibem.rate`, `ibem.corollary3`).
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of str, the model's raw output on each row of `references`.
    references: list of dict, rows of the release's `renderings` config without the image
        (`dataset.remove_columns("image")`). Rows are grouped by instance_id; each instance
        needs its base row and at least one edit row.
    threshold: float in (0, 1], the ECS flag threshold (default 0.5).
Returns:
    ibem: share of instances in IBEM (a rate); ibem_n: their number; n_instances; accuracy;
    ecs_detection, combined_detection: shares of IBEM flagged (None when IBEM is empty);
    same_flags: whether ECS and min(REA, ECS) flag the same IBEM instances.
Examples:
    >>> def rows(instance, target):
    ...     def row(role, variant, transform='{"kind": "identity"}'):
    ...         return {"render_id": f"{instance}/{role}/{variant}", "instance_id": instance, "data_seed": 0,
    ...                 "template_id": instance, "family": "bar", "question_type": "read_value", "role": role,
    ...                 "variant": variant, "question": "What is the value?", "target": target,
    ...                 "answer_type": "number", "labels": [], "transform": transform}
    ...     return [row("base", "base"), row("rerender", "r1"), row("rerender", "r2"),
    ...             row("edit", "offset", '{"kind": "affine", "scale": 1.0, "shift": 10.0}')]
    >>> references = rows("s0-1", "10") + rows("s0-2", "20")
    >>> outputs = ["15", "15", "15", "20",   "20", "20", "20", "30"]
    >>> results = metric.compute(predictions=outputs, references=references)
    >>> results["ibem"], results["ibem_n"], results["accuracy"], results["ecs_detection"]
    (0.5, 1, 0.5, 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Ibem(RenderingsInput, evaluate.Metric):
    """IBEM and its detection (paper §5, Corollary 3)."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": datasets.Value("string"), "references": reference_features()}),
            reference_urls=["https://arxiv.org/abs/2608.05675"],
        )

    def _compute(self, predictions, references, threshold=0.5):
        return ibem_result(score_outputs(predictions, references, threshold), threshold)
