"""Accuracy and pivotal-stratified gain of a replacement rule (panels paper §4–5, Tables 2–4).

The gain of a rule on a query is its (expected) correctness minus the
panel's. It is reported separately on pivotal and non-pivotal queries; the
non-pivotal gain is exactly zero for every single-ballot rule (Proposition 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from rend_equiv_dataset.panels.metrics.data import PanelData
from rend_equiv_dataset.panels.metrics.replacement import UNIFORM, Rule, expected_correct
from rend_equiv_dataset.panels.metrics.votes import decisions, pivotal, tallies

FloatArray = NDArray[np.float64]


def panel_correct(votes: NDArray[np.integer], labels: NDArray[np.integer]) -> FloatArray:
    """1.0 where the majority decision matches the label.

    >>> panel_correct(np.array([[1, 1, 0], [1, 0, 0]]), np.array([1, 1])).tolist()
    [1.0, 0.0]
    """
    return (decisions(tallies(votes), votes.shape[1]) == np.asarray(labels)).astype(np.float64)


@dataclass(frozen=True)
class StratifiedGain:
    """Gain of a rule over the panel, overall and by region (fractions)."""

    n: int
    n_pivotal: int
    panel_accuracy: float
    rule_accuracy: float
    pivotal_gain: float
    nonpivotal_gain: float

    @property
    def n_nonpivotal(self) -> int:
        return self.n - self.n_pivotal


def _mean_or_nan(values: FloatArray) -> float:
    return float(values.mean()) if values.size else float("nan")


def per_query_gain(data: PanelData, rule: Rule = UNIFORM) -> tuple[FloatArray, NDArray[np.bool_]]:
    """(gain per query, pivotal mask): the rule's expected correctness minus the panel's."""
    base = panel_correct(data.votes, data.labels)
    gain = expected_correct(rule, data.votes, data.labels, data.signal) - base
    return gain, pivotal(tallies(data.votes), data.k)


def stratified_gain(data: PanelData, rule: Rule = UNIFORM) -> StratifiedGain:
    """Table 2 for one panel: accuracy before and after the rule, and its gain by region.

    >>> d = PanelData.from_arrays([[1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 0]], [1, 1], [1, 0])
    >>> g = stratified_gain(d)
    >>> g.n_pivotal, round(g.pivotal_gain, 4), g.nonpivotal_gain
    (1, 0.5714, 0.0)
    """
    gain, piv = per_query_gain(data, rule)
    base = panel_correct(data.votes, data.labels)
    return StratifiedGain(
        n=data.n,
        n_pivotal=int(piv.sum()),
        panel_accuracy=float(base.mean()),
        rule_accuracy=float((base + gain).mean()),
        pivotal_gain=_mean_or_nan(gain[piv]),
        nonpivotal_gain=_mean_or_nan(gain[~piv]),
    )
