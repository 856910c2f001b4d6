"""Pivotal-stratified gain: what a verification signal adds to a k-judge panel, where it can add it.

Thin over rend_equiv_dataset.panels.metrics; the rules live there.
"""

import datasets
import evaluate
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.metrics.data import PanelData
from rend_equiv_dataset.panels.metrics.gains import stratified_gain
from rend_equiv_dataset.panels.metrics.replacement import RULES
from rend_equiv_dataset.panels.metrics.replacement import rule_named
from rend_equiv_dataset.panels.metrics.replacement import rule_parameters

_CITATION = """
@article{pivotal_vote_2026,
  title={Blind to the Pivotal Vote: Aggregate Independence Metrics Miss Where Verification Actually Helps},
  year={2026},
  journal={arXiv preprint arXiv:2608.06940}
}
"""

_DESCRIPTION = """
A panel of k judges votes 0/1 on each query; the decision is the majority (an even-k tie is "incorrect").
A verification signal replaces one judge's ballot under a replacement rule (uniform-random: the exact
expectation over the k choices; majority-side; or a fixed judge). Only pivotal queries can change
(odd k: margin |2s - k| = 1; even k: s in {k/2, k/2 + 1}), so the gain is reported separately on pivotal and
non-pivotal queries; the non-pivotal gain is exactly zero. call_rate is the share of queries on which
margin-gated verification (Algorithm 1) calls the signal.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `list` of `float`): the panel's ballots per query: the k judges' verdicts,
        0 or 1 (1 = "correct").
    references (`list` of `float`): the label per query, 0 or 1.
    signal (`list` of `float`): the verification signal's verdict per query, 0 or 1.
    rule (`str`): "uniform" (default), "majority_side" or "fixed".
    judge_index (`int`): the replaced judge for rule="fixed".
Returns:
    pivotal_gain (`float`): mean accuracy gain over the panel on pivotal queries (a fraction).
    nonpivotal_gain (`float`): the same on the other queries; exactly 0.0.
    n_pivotal (`int`), n_nonpivotal (`int`): query counts per region.
    panel_accuracy (`float`), rule_accuracy (`float`): accuracy before and after replacement.
    call_rate (`float`): share of queries on which the gated rule calls the signal.
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/pivotal_gain")
    >>> votes = [[1, 1, 1, 0, 0, 0, 0], [0, 0, 0, 0, 1, 1, 1], [1, 1, 1, 1, 1, 1, 0]]
    >>> results = metric.compute(predictions=votes, references=[1, 0, 1], signal=[1, 0, 1])
    >>> round(results["pivotal_gain"], 4), results["nonpivotal_gain"], results["n_pivotal"]
    (0.2857, 0.0, 2)
    >>> results = metric.compute(predictions=votes, references=[1, 0, 1], signal=[1, 0, 1], rule="majority_side")
    >>> results["pivotal_gain"], results["rule_accuracy"], round(results["call_rate"], 4)
    (0.5, 1.0, 0.6667)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class PivotalGain(evaluate.Metric):
    """Pivotal-stratified accuracy gain of single-ballot replacement (panels paper §3-5, Table 2)."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": datasets.Sequence(datasets.Value("float64")),
                    "references": datasets.Value("float64"),
                    "signal": datasets.Value("float64"),
                }
            ),
            reference_urls=["https://arxiv.org/abs/2608.06940"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Check for empty input before evaluate stores it (evaluate fails obscurely on it)."""
        if predictions is None and references is None and kwargs.get("signal") is None:
            if self.writer is None:
                raise InputError("no input: pass predictions=, references= and signal=, or add them first",
                                 field="predictions")
            return super().compute(**kwargs)
        for name, value in (("predictions", predictions), ("references", references), ("signal", kwargs.get("signal"))):
            if value is None or len(value) == 0:
                raise InputError("needs at least one query", field=name)
        return super().compute(predictions=predictions, references=references, **kwargs)

    def _compute(self, predictions, references, signal, rule="uniform", judge_index=None):
        data = PanelData.from_metric_inputs(predictions, references, signal)
        chosen = _rule(rule, judge_index, data.k)
        gain = stratified_gain(data, chosen)
        return {
            "pivotal_gain": gain.pivotal_gain,
            "nonpivotal_gain": gain.nonpivotal_gain,
            "n_pivotal": gain.n_pivotal,
            "n_nonpivotal": gain.n_nonpivotal,
            "panel_accuracy": gain.panel_accuracy,
            "rule_accuracy": gain.rule_accuracy,
            "call_rate": gain.n_pivotal / gain.n,
        }


def _rule(name, judge_index, k):
    if name not in RULES:
        raise InputError(f"must be one of {sorted(RULES)}, got {name!r}", field="rule")
    takes_index = "index" in rule_parameters(name)
    if judge_index is not None and not takes_index:
        indexed = sorted(r for r in RULES if "index" in rule_parameters(r))
        raise InputError(f"applies to rule={indexed} only, got rule={name!r}", field="judge_index")
    if takes_index and (not isinstance(judge_index, int) or isinstance(judge_index, bool) or not 0 <= judge_index < k):
        raise InputError(f"must be an integer judge index in [0, {k}), got {judge_index!r}", field="judge_index")
    return rule_named(name, **({"index": judge_index} if takes_index else {}))
