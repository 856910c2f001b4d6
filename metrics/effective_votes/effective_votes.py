"""Effective votes n_eff = k / (1 + (k - 1) * mean pairwise phi) of a judge panel, with and without a signal.

Thin over rend_equiv_dataset.panels.metrics.effective; the formula lives there.
"""

import datasets
import evaluate
import numpy as np
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.metrics.data import PanelData
from rend_equiv_dataset.panels.metrics.effective import error_vectors
from rend_equiv_dataset.panels.metrics.effective import mean_pairwise_phi
from rend_equiv_dataset.panels.metrics.effective import n_eff
from rend_equiv_dataset.panels.metrics.effective import n_eff_with_signal

_CITATION = """
@article{kohli_2026_nine_judges,
  title={Nine judges, two effective votes: correlated errors undermine LLM evaluation panels},
  author={Kohli, G.},
  year={2026},
  journal={arXiv preprint arXiv:2605.29800}
}
@article{pivotal_vote_2026,
  title={Blind to the Pivotal Vote: Aggregate Independence Metrics Miss Where Verification Actually Helps},
  year={2026},
  journal={arXiv preprint arXiv:2608.06940}
}
"""

_DESCRIPTION = """
Each judge's binary error vector is 1 where its verdict differs from the label. phi_bar is the mean pairwise
Pearson (phi) correlation of those vectors and n_eff = k / (1 + (k - 1) * phi_bar): k for independent errors,
1 for identical judges. With a signal, n_eff_with_signal is the mean over j of n_eff with judge j's error
vector replaced by the signal's. Pairs with a constant error vector (a judge never or always wrong) have no
correlation and are left out of the mean.
"""

_KWARGS_DESCRIPTION = """
Args:
    predictions (`list` of `list` of `float`): the panel's ballots per query: the k judges' verdicts, 0 or 1.
    references (`list` of `float`): the label per query, 0 or 1.
    signal (`list` of `float`, optional): a verification signal's verdict per query, 0 or 1, for all the
        queries at once (given to `compute`, after any `add_batch`).
    rule, judge_index: accepted and unused, so that `evaluate.combine` with `pivotal_gain` can pass them.
Returns:
    n_eff (`float`): effective number of independent judges.
    phi_bar (`float`): mean pairwise correlation of the judges' error vectors.
    n_eff_with_signal (`float`, with signal only): mean over j of n_eff with judge j replaced by the signal.
Examples:
    >>> import evaluate
    >>> metric = evaluate.load("metrics/effective_votes")
    >>> votes = [[1, 1, 1], [0, 0, 0], [1, 1, 1], [0, 0, 0]]
    >>> metric.compute(predictions=votes, references=[1, 1, 0, 0])
    {'n_eff': 1.0, 'phi_bar': 1.0}
    >>> votes = [[1, 1, 1], [0, 1, 1], [0, 0, 0], [1, 0, 1], [1, 0, 0], [1, 1, 1]]
    >>> results = metric.compute(predictions=votes, references=[1, 0, 0, 0, 1, 1], signal=[0, 1, 0, 1, 1, 0])
    >>> round(results["n_eff"], 4), round(results["phi_bar"], 4), round(results["n_eff_with_signal"], 4)
    (1.9246, 0.2794, 2.6291)
"""


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class EffectiveVotes(evaluate.Metric):
    """Effective votes of a judge panel (Kohli 2026; panels paper Table 4)."""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=datasets.Features(
                {
                    "predictions": datasets.Sequence(datasets.Value("float64")),
                    "references": datasets.Value("float64"),
                }
            ),
            reference_urls=["https://arxiv.org/abs/2605.29800", "https://arxiv.org/abs/2608.06940"],
        )

    def compute(self, *, predictions=None, references=None, **kwargs):
        """Check for empty input before evaluate stores it (evaluate fails obscurely on it)."""
        if predictions is None and references is None:
            if self.writer is None:
                raise InputError("no input: pass predictions= and references=, or add them first", field="predictions")
            return super().compute(**kwargs)
        for name, value in (("predictions", predictions), ("references", references)):
            if value is None or len(value) == 0:
                raise InputError("needs at least one query", field=name)
        return super().compute(predictions=predictions, references=references, **kwargs)

    def _compute(self, predictions, references, signal=None, rule=None, judge_index=None):
        # rule and judge_index belong to pivotal_gain: accepted so that evaluate.combine can pass them
        if signal is not None and len(signal) != len(predictions):
            raise InputError(f"{len(signal)} signal values for {len(predictions)} queries", field="signal")
        data = PanelData.from_metric_inputs(predictions, references, references if signal is None else signal)
        errors = error_vectors(data.votes, data.labels)
        out = {"n_eff": n_eff(errors), "phi_bar": mean_pairwise_phi(errors)}
        if signal is not None:
            signal_errors = (data.signal != data.labels).astype(np.int8)
            out["n_eff_with_signal"] = n_eff_with_signal(errors, signal_errors)
        return out
