"""Relaxed accuracy of free-text chart answers as an ``evaluate`` metric; the rules live in rend_equiv_dataset."""

import datasets
import evaluate
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.answers.grade import ANSWER_TYPES
from rend_equiv_dataset.figures.answers.grade import grade_reading
from rend_equiv_dataset.figures.answers.parse import LOW_CONFIDENCE

_CITATION = """\
@article{khanbayov2026consensus,
  title={When does consensus mean correctness? Measuring the agreement-accuracy coupling with semantics-preserving re-rendering},
  author={Khanbayov, R. and Kurban, H.},
  journal={arXiv preprint arXiv:2608.05675},
  year={2026}
}
"""

_DESCRIPTION = """\
Relaxed accuracy (ChartQA's rule: numbers within 5% relative, labels exact) of
free-text model outputs, with the answer read the way a careful human grader
reads it: explicit markers (Answer:, Final answer, \\boxed{}, a bold phrase at
the end) win, reasoning blocks are skipped, hedges ("Japan or France") and
unfinished arithmetic ("30.5 - 12") are no answer, comparisons are read by the
question's direction, units and scale words are read in the question's unit.
The same code serves `rend-equiv grade` and scoring.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions: list of str, the model's raw outputs.
    references: list of str, the targets ("30.5", "45%", "Japan").
    answer_type: "number" or "label" for every item, or a list of them (default "number").
    question: optional list of str, the questions (units, direction, categories named).
    labels: optional list of list of str, each item's category labels (label answers).
Returns:
    relaxed_accuracy: share of outputs whose answer is correct.
    unparseable_rate: share of outputs with no answer read.
    answers: list of the canonical answers read (None where unparseable).
    correct: list of bool.
Examples:
    >>> results = metric.compute(
    ...     predictions=["<think>12 or 13?</think>The answer is 12.4.", "Japan or France", "France is lower than Japan."],
    ...     references=["12", "Japan", "Japan"],
    ...     answer_type=["number", "label", "label"],
    ...     question=["What is the value?", "Which is higher?", "Which is higher?"],
    ...     labels=[[], ["Japan", "France"], ["Japan", "France"]],
    ... )
    >>> results["correct"], results["answers"]
    ([True, False, True], ['12.4', None, 'Japan'])
    >>> round(results["relaxed_accuracy"], 4), round(results["unparseable_rate"], 4)
    (0.6667, 0.3333)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class RelaxedAccuracy(evaluate.Metric):
    """Relaxed accuracy over free-text outputs."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": datasets.Value("string"),
                    "references": datasets.Value("string"),
                }
            ),
            reference_urls=["https://arxiv.org/abs/2608.05675"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Check for empty input first (evaluate fails obscurely on it), then compute.

        Without ``predictions`` the batches given to ``add``/``add_batch`` are computed.
        """
        if predictions is None and references is None:
            return super().compute(**kwargs)
        if not predictions:
            raise InputError("no outputs: predictions is empty", field="predictions")
        if references is None or len(references) != len(predictions):
            found = "none" if references is None else len(references)
            raise InputError(f"expected {len(predictions)} references, one per prediction, got {found}", field="references")
        return super().compute(predictions=predictions, references=references, **kwargs)

    def _compute(self, predictions, references, answer_type="number", question=None, labels=None):
        n = len(predictions)
        kinds = [answer_type] * n if isinstance(answer_type, str) else list(answer_type)
        questions = [None] * n if question is None else list(question)
        label_sets = [[] for _ in range(n)] if labels is None else list(labels)
        for name, values in (("answer_type", kinds), ("question", questions), ("labels", label_sets)):
            if len(values) != n:
                raise InputError(f"expected {n} values, one per prediction, got {len(values)}", field=name)
        for index, kind in enumerate(kinds):
            if kind not in ANSWER_TYPES:
                raise InputError(f"item {index}: must be one of {list(ANSWER_TYPES)}, got {kind!r}", field="answer_type")
        readings = [
            grade_reading(output, target, kind, question=q, labels=labs or ())
            for output, target, kind, q, labs in zip(predictions, references, kinds, questions, label_sets)
        ]
        grades = [g for g, _ in readings]
        return {
            "relaxed_accuracy": sum(g.correct for g in grades) / n,
            "unparseable_rate": sum(g.answer is None for g in grades) / n,
            "low_confidence_rate": sum(r.confidence < LOW_CONFIDENCE for _, r in readings) / n,
            "answers": [g.answer for g in grades],
            "correct": [g.correct for g in grades],
        }
