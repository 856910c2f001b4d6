"""Per-judge and per-region diagnostics (panels paper §5: Table 5, Figure 2, FNR/FPR by region).

Reject rate, accuracy, balanced accuracy and the Matthews correlation
coefficient (MCC) per judge come from scikit-learn; the panel's error rate
by margin and its false-negative / false-positive rates inside and outside
the pivotal region are counted here.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from rend_equiv_dataset.panels.metrics.votes import decisions, margins, pivotal, possible_margins, tallies


@dataclass(frozen=True)
class JudgeStats:
    """One voter's Table 5 row (fractions)."""

    reject_rate: float
    accuracy: float
    balanced_accuracy: float
    mcc: float


def voter_stats(labels: NDArray[np.integer], verdicts: NDArray[np.integer]) -> JudgeStats:
    """Table 5 row for one voter (a judge, the signal or the panel).

    >>> voter_stats(np.array([1, 1, 0, 0]), np.array([1, 0, 0, 0]))
    JudgeStats(reject_rate=0.75, accuracy=0.75, balanced_accuracy=0.75, mcc=0.5773502691896258)
    """
    from sklearn.metrics import accuracy_score, balanced_accuracy_score, matthews_corrcoef

    y = np.asarray(labels, dtype=np.int64)
    v = np.asarray(verdicts, dtype=np.int64)
    if np.unique(y).size < 2:
        balanced = float("nan")  # a single-class label set has no balanced accuracy
    else:
        balanced = float(balanced_accuracy_score(y, v))
    with warnings.catch_warnings():
        # one class in both y and v: scikit-learn warns and returns MCC 0 (no discrimination to measure)
        warnings.simplefilter("ignore", UserWarning)
        mcc = float(matthews_corrcoef(y, v))
    return JudgeStats(
        reject_rate=float(np.mean(v == 0)),
        accuracy=float(accuracy_score(y, v)),
        balanced_accuracy=balanced,
        mcc=mcc,
    )


def judge_table(votes: NDArray[np.integer], labels: NDArray[np.integer]) -> list[JudgeStats]:
    """Table 5: one :class:`JudgeStats` per judge column."""
    return [voter_stats(labels, votes[:, j]) for j in range(votes.shape[1])]


@dataclass(frozen=True)
class RegionRates:
    """Panel false-negative and false-positive rates in one region (NaN when the region has no such query)."""

    n: int
    fnr: float
    fpr: float


def _rate(hits: NDArray[np.bool_], among: NDArray[np.bool_]) -> float:
    count = int(among.sum())
    return float(hits[among].sum() / count) if count else float("nan")


def region_rates(votes: NDArray[np.integer], labels: NDArray[np.integer]) -> dict[str, RegionRates]:
    """FNR (correct code voted incorrect) and FPR (buggy code voted correct), pivotal vs non-pivotal (§5).

    >>> v = np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1], [0, 0, 0]])
    >>> region_rates(v, np.array([1, 1, 0, 1]))["pivotal"]
    RegionRates(n=2, fnr=0.5, fpr=nan)
    """
    k = votes.shape[1]
    s = tallies(votes)
    d = decisions(s, k)
    y = np.asarray(labels)
    piv = pivotal(s, k)
    out = {}
    for name, region in (("pivotal", piv), ("nonpivotal", ~piv)):
        out[name] = RegionRates(
            n=int(region.sum()),
            fnr=_rate(d == 0, region & (y == 1)),
            fpr=_rate(d == 1, region & (y == 0)),
        )
    return out


@dataclass(frozen=True)
class MarginRow:
    """Panel error rate at one margin (Figure 2)."""

    margin: int
    n: int
    error_rate: float


def error_by_margin(votes: NDArray[np.integer], labels: NDArray[np.integer]) -> list[MarginRow]:
    """Panel error rate at each possible margin, narrowest first (NaN where no query has that margin).

    >>> error_by_margin(np.array([[1, 1, 0], [1, 0, 0], [1, 1, 1]]), np.array([1, 1, 0]))
    [MarginRow(margin=1, n=2, error_rate=0.5), MarginRow(margin=3, n=1, error_rate=1.0)]
    """
    k = votes.shape[1]
    s = tallies(votes)
    wrong = decisions(s, k) != np.asarray(labels)
    m = margins(s, k)
    rows = []
    for margin in possible_margins(k):
        at = m == margin
        rows.append(MarginRow(margin, int(at.sum()), _rate(wrong, at)))
    return rows
