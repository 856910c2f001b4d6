"""Equivariance-Consistency Score (ECS) as an ``evaluate`` metric; the math lives in rend_equiv_dataset."""

import datasets
import evaluate
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.scoring.signals import ecs_from_outputs

_CITATION = """\
@article{rendequiv2026,
  title={Consistency Has a Computable Blind Spot: A Commutation Theory of Label-Free Reliability for Vision-Language Figure Reading},
  journal={arXiv preprint arXiv:2608.05675},
  year={2026}
}
"""

_DESCRIPTION = """\
ECS is a label-free reliability score for figure reading. Each instance is asked
on its base figure and on edited figures whose data were changed by an edit g
with a known answer-transform phi_g (scale, offset, delete_max, swap, cycle,
zoom). The residual rho_g = d(answer on g, phi_g(base answer)) is a relative
difference for numbers (tau = 0.05) and 0/1 for labels (tau = 0). ECS is the
mean over the edits of 1[rho_g <= tau_g]; an instance is flagged when
ECS < threshold (0.5 by default).
"""

_KWARGS_DESCRIPTION = """
Args:
    base_output: list of str, the model's raw output on each base figure.
    edit_outputs: list of list of str, the outputs on each instance's edited figures.
    edit_transforms: list of list of str, each edit's answer-transform as JSON
        ({"kind": "affine", "scale": c, "shift": d}, {"kind": "label_map", "map": {...}}, {"kind": "identity"}).
    answer_type: list of str, "number" or "label".
    labels: list of list of str, the instance's category labels (empty for numbers).
    threshold: float in (0, 1], the flag threshold (default 0.5).
Returns:
    ecs: mean ECS over instances.
    flagged_rate: share of instances with ECS < threshold.
    ecs_per_instance: list of float.
Examples:
    >>> results = metric.compute(
    ...     base_output=["The answer is 15.", "B"],
    ...     edit_outputs=[["30", "22.5", "15"], ["A", "B"]],
    ...     edit_transforms=[
    ...         ['{"kind": "affine", "scale": 2.0, "shift": 0.0}', '{"kind": "affine", "scale": 1.0, "shift": 5.0}', '{"kind": "identity"}'],
    ...         ['{"kind": "label_map", "map": {"A": "B", "B": "A"}}', '{"kind": "identity"}'],
    ...     ],
    ...     answer_type=["number", "label"],
    ...     labels=[[], ["A", "B", "C"]],
    ... )
    >>> [round(x, 4) for x in results["ecs_per_instance"]], results["flagged_rate"]
    ([0.6667, 1.0], 0.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Ecs(evaluate.Metric):
    """ECS over instances (paper Eq. 2)."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "base_output": datasets.Value("string"),
                    "edit_outputs": datasets.Sequence(datasets.Value("string")),
                    "edit_transforms": datasets.Sequence(datasets.Value("string")),
                    "answer_type": datasets.Value("string"),
                    "labels": datasets.Sequence(datasets.Value("string")),
                }
            ),
            reference_urls=["https://arxiv.org/abs/2608.05675"],
        )

    def compute(self, *, base_output=None, threshold=0.5, **kwargs):
        """Check for empty input first (evaluate fails obscurely on it), then compute."""
        if not base_output:
            raise InputError("no instances: base_output is empty", field="base_output")
        return super().compute(base_output=base_output, threshold=threshold, **kwargs)

    def _compute(self, base_output, edit_outputs, edit_transforms, answer_type, labels, threshold=0.5):
        if not 0.0 < threshold <= 1.0:
            raise InputError(f"must be in (0, 1], got {threshold!r}", field="threshold")
        values = [
            ecs_from_outputs(base, outs, phis, kind, labs)
            for base, outs, phis, kind, labs in zip(base_output, edit_outputs, edit_transforms, answer_type, labels)
        ]
        return {
            "ecs": sum(values) / len(values),
            "flagged_rate": sum(v < threshold for v in values) / len(values),
            "ecs_per_instance": values,
        }
