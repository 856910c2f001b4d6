"""Re-rendering agreement (REA) as an ``evaluate`` metric; the math lives in rend_equiv_dataset."""

import datasets
import evaluate
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.scoring.signals import rea_from_outputs

_CITATION = """\
@article{khanbayov2026consensus,
  title={When does consensus mean correctness? Measuring the agreement-accuracy coupling with semantics-preserving re-rendering},
  author={Khanbayov, R. and Kurban, H.},
  journal={arXiv preprint arXiv:2608.05670},
  year={2026}
}
"""

_DESCRIPTION = """\
REA is the invariance signal: the share of K cosmetic re-renderings of a figure
(same data, same exact answer) on which the model's answer agrees with its answer
on the base figure, within 5% relative for numbers and exactly for labels
(matched case- and space-insensitively). An unparseable answer never agrees.
"""

_KWARGS_DESCRIPTION = """
Args:
    base_output: list of str, the model's raw output on each base figure.
    rerender_outputs: list of list of str, the outputs on each instance's re-renderings.
    answer_type: list of str, "number" or "label".
    labels: list of list of str, the instance's category labels (empty for numbers).
Returns:
    rea: mean REA over instances.
    high_rea_rate: share of instances with REA >= 0.75 (the IBEM region).
    rea_per_instance: list of float.
Examples:
    >>> results = metric.compute(
    ...     base_output=["40", "B"],
    ...     rerender_outputs=[["40", "41", "39", "50"], ["b", "B", "Answer: B", "A"]],
    ...     answer_type=["number", "label"],
    ...     labels=[[], ["A", "B"]],
    ... )
    >>> results["rea_per_instance"], results["rea"], results["high_rea_rate"]
    ([0.75, 0.75], 0.75, 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Rea(evaluate.Metric):
    """REA over instances."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "base_output": datasets.Value("string"),
                    "rerender_outputs": datasets.Sequence(datasets.Value("string")),
                    "answer_type": datasets.Value("string"),
                    "labels": datasets.Sequence(datasets.Value("string")),
                }
            ),
            reference_urls=["https://arxiv.org/abs/2608.05670"],
        )

    def compute(self, *, base_output=None, **kwargs):
        """Check for empty input first (evaluate fails obscurely on it), then compute."""
        if not base_output:
            raise InputError("no instances: base_output is empty", field="base_output")
        return super().compute(base_output=base_output, **kwargs)

    def _compute(self, base_output, rerender_outputs, answer_type, labels):
        values = [
            rea_from_outputs(base, outs, kind, labs)
            for base, outs, kind, labs in zip(base_output, rerender_outputs, answer_type, labels)
        ]
        return {
            "rea": sum(values) / len(values),
            "high_rea_rate": sum(v >= 0.75 for v in values) / len(values),
            "rea_per_instance": values,
        }
