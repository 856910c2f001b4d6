"""Invariance-blind error mass (IBEM) as an ``evaluate`` metric; the math lives in rend_equiv_dataset."""

import datasets
import evaluate
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.scoring.signals import ibem_summary

_CITATION = """\
@article{rendequiv2026,
  title={Consistency Has a Computable Blind Spot: A Commutation Theory of Label-Free Reliability for Vision-Language Figure Reading},
  journal={arXiv preprint arXiv:2608.05675},
  year={2026}
}
"""

_DESCRIPTION = """\
IBEM is the set of instances an invariance signal rates high-confidence
(REA >= 0.75) whose base answer is nonetheless wrong. The metric reports its
size and rate, the share of it that ECS flags (ECS < threshold), and the share
that the combined signal min(REA, ECS) flags. By Corollary 3 the two flag the
same instances whenever threshold <= 0.75.
"""

_KWARGS_DESCRIPTION = """
Args:
    rea: list of float, REA per instance.
    ecs: list of float, ECS per instance.
    correct: list of int (0/1), whether the base answer is correct.
    threshold: float in (0, 1], the ECS flag threshold (default 0.5).
Returns:
    ibem_n, ibem_rate, ecs_detection, combined_detection, same_flags.
Examples:
    >>> results = metric.compute(rea=[0.75, 1.0, 0.5, 1.0], ecs=[0.0, 1.0, 0.0, 2 / 3], correct=[0, 1, 0, 0])
    >>> results["ibem_n"], results["ibem_rate"], results["ecs_detection"], results["same_flags"]
    (2, 0.5, 0.5, True)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Ibem(evaluate.Metric):
    """IBEM and its detection (paper §5, Corollary 3)."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "rea": datasets.Value("float64"),
                    "ecs": datasets.Value("float64"),
                    "correct": datasets.Value("int64"),
                }
            ),
            reference_urls=["https://arxiv.org/abs/2608.05675"],
        )

    def compute(self, *, rea=None, threshold=0.5, **kwargs):
        """Check for empty input first (evaluate fails obscurely on it), then compute."""
        if rea is None or len(rea) == 0:
            raise InputError("no instances: rea is empty", field="rea")
        return super().compute(rea=rea, threshold=threshold, **kwargs)

    def _compute(self, rea, ecs, correct, threshold=0.5):
        for name, values in (("rea", rea), ("ecs", ecs)):
            if any(not 0.0 <= v <= 1.0 for v in values):
                raise InputError("every value must be in [0, 1]", field=name)
        if any(c not in (0, 1) for c in correct):
            raise InputError("every value must be 0 or 1", field="correct")
        return ibem_summary(list(rea), list(ecs), [bool(c) for c in correct], threshold)
