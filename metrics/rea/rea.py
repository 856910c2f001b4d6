"""Re-rendering agreement (REA) as an ``evaluate`` metric; the rules live in rend_equiv_dataset."""

import datasets
import evaluate
from rend_equiv_dataset.figures.scoring.signals import rea_result
from rend_equiv_dataset.figures.scoring.signals import RenderingsInput
from rend_equiv_dataset.figures.scoring.signals import reference_features
from rend_equiv_dataset.figures.scoring.signals import rerender_counts
from rend_equiv_dataset.figures.scoring.signals import score_outputs

_CITATION = """\
@article{khanbayov2026consensus,
  title={When does consensus mean correctness? Measuring the agreement-accuracy coupling with semantics-preserving re-rendering},
  author={Khanbayov, R. and Kurban, H.},
  journal={arXiv preprint arXiv:2608.05675},
  year={2026}
}
"""

_DESCRIPTION = """\
REA is the invariance signal: the share of K cosmetic re-renderings of a figure
(same data, same exact answer) on which the model's answer agrees with its answer
on the base figure, within 5% relative for numbers and exactly for labels
(matched case- and space-insensitively). An unparseable answer never agrees.
`rend-equiv score` computes the same values.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of str, the model's raw output on each row of `references`.
    references: list of dict, rows of the release's `renderings` config without the image
        (`dataset.remove_columns("image")`). Rows are grouped by instance_id; each instance
        needs its base row, at least one re-rendering row and one edit row.
    threshold: float in (0, 1], accepted so that `evaluate.combine` can pass it; unused.
Returns:
    rea: mean REA over instances.
    high_rea_rate: share of instances with REA >= 0.75 (the IBEM region).
    rea_per_instance: dict, instance_id -> REA.
Examples:
    >>> def row(role, variant):
    ...     return {"render_id": f"s0-1/{role}/{variant}", "instance_id": "s0-1", "data_seed": 0,
    ...             "template_id": "t1", "family": "bar", "question_type": "argmax", "role": role,
    ...             "variant": variant, "question": "Which region sells most?", "target": "B",
    ...             "answer_type": "label", "labels": ["A", "B"], "transform": '{"kind": "identity"}'}
    >>> references = [row("base", "base"), row("rerender", "r1"), row("rerender", "r2"),
    ...               row("rerender", "r3"), row("rerender", "r4"), row("edit", "zoom")]
    >>> results = metric.compute(predictions=["B", "b", "Answer: B", "A", "B", "B"], references=references)
    >>> results["rea"], results["high_rea_rate"]
    (0.75, 1.0)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Rea(RenderingsInput, evaluate.Metric):
    """REA over instances."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features({"predictions": datasets.Value("string"), "references": reference_features()}),
            reference_urls=["https://arxiv.org/abs/2608.05675", "https://arxiv.org/abs/2608.05675"],
        )

    def _compute(self, predictions, references, threshold=0.5):
        return rea_result(score_outputs(predictions, references, threshold), rerender_counts(references))
