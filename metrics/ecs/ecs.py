"""Equivariance-Consistency Score (ECS) as an ``evaluate`` metric; the rules live in rend_equiv_dataset."""

import datasets
import evaluate
from rend_equiv_dataset.figures.scoring.signals import ecs_result
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
ECS is a label-free reliability score for figure reading. Each instance is asked
on its base figure and on edited figures whose data were changed by an edit g
with a known answer-transform phi_g (scale, offset, delete_max, swap, cycle,
zoom). The residual rho_g = d(answer on g, phi_g(base answer)) is a relative
difference for numbers (tau = 0.05) and 0/1 for labels (tau = 0). ECS is the
mean over the edits of 1[rho_g <= tau_g]; an instance is flagged when
ECS < threshold (0.5 by default). `rend-equiv score` computes the same values.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of str, the model's raw output on each row of `references`.
    references: list of dict, rows of the release's `renderings` config without the image
        (`dataset.remove_columns("image")`): render_id, instance_id, role, variant, question,
        target, answer_type, labels, transform, ... Rows are grouped by instance_id; each
        instance needs its base row and at least one edit row.
    threshold: float in (0, 1], the flag threshold (default 0.5).
Returns:
    ecs: mean ECS over instances.
    flagged_rate: share of instances with ECS < threshold.
    ecs_per_instance: dict, instance_id -> ECS.
Examples:
    >>> def row(role, variant, target, transform='{"kind": "identity"}'):
    ...     return {"render_id": f"s0-1/{role}/{variant}", "instance_id": "s0-1", "data_seed": 0,
    ...             "template_id": "t1", "family": "bar", "question_type": "read_value", "role": role,
    ...             "variant": variant, "question": "How many visitors in Q3, in thousand?",
    ...             "target": target, "answer_type": "number", "labels": [], "transform": transform}
    >>> references = [row("base", "base", "15"),
    ...               row("edit", "scale", "30", '{"kind": "affine", "scale": 2.0, "shift": 0.0}'),
    ...               row("edit", "offset", "20", '{"kind": "affine", "scale": 1.0, "shift": 5.0}'),
    ...               row("edit", "zoom", "15")]
    >>> results = metric.compute(predictions=["15 thousand", "30", "22.5", "15"], references=references)
    >>> round(results["ecs"], 4), results["flagged_rate"]
    (0.6667, 0.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Ecs(RenderingsInput, evaluate.Metric):
    """ECS over instances (paper Eq. 2)."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": datasets.Value("string"), "references": reference_features()}),
            reference_urls=["https://arxiv.org/abs/2608.05675"],
        )

    def _compute(self, predictions, references, threshold=0.5):
        return ecs_result(score_outputs(predictions, references, threshold), threshold)
