"""Selective-prediction metrics over weighted rows: AUROC, RC-AUC, ECE, matched-FPR detection.

Every function takes a weight matrix ``W`` of shape (resamples, rows): row r
of ``W`` says how many times each instance is counted in resample r. A single
row of ones gives the plain estimate; the cluster bootstrap
(:mod:`rend_equiv_dataset.scoring.bootstrap`) supplies count matrices, so one
vectorised code path serves the point value and all 10,000 resamples
(DESIGN §6). Scores are confidences: higher means "more likely correct".
Ties are handled in expectation over a random order of tied rows, so no
result depends on row order.

>>> import numpy as np
>>> W = np.ones((1, 4))
>>> correct = np.array([1, 1, 0, 0], dtype=bool)
>>> float(auroc(W, correct, np.array([0.9, 0.8, 0.3, 0.8]))[0])
0.875
>>> round(float(rc_auc(W, correct, np.array([0.9, 0.8, 0.3, 0.1]))[0]), 6)  # (0 + 0 + 1/3 + 2/4) / 4
0.208333
>>> float(ece(W, correct, np.array([1.0, 1.0, 0.0, 0.0]))[0])
0.0
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from scipy.special import digamma

Array = NDArray[np.float64]


def _groups(score: NDArray[np.float64], descending: bool = False) -> tuple[NDArray[np.intp], int]:
    """Tie groups of ``score`` as codes in ascending (or descending) score order."""
    values, codes = np.unique(score, return_inverse=True)
    codes = codes.ravel()
    if descending:
        codes = len(values) - 1 - codes
    return codes, len(values)


def _group_sums(W: Array, codes: NDArray[np.intp], n_groups: int, values: Array) -> Array:
    """(resamples × groups) sums of ``W * values`` per tie group."""
    onehot = np.zeros((len(codes), n_groups))
    onehot[np.arange(len(codes)), codes] = values
    return W @ onehot


def weighted_mean(W: Array, values: NDArray[np.float64]) -> Array:
    """Σ w·x / Σ w per resample; NaN when the weights sum to 0."""
    total = W.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, (W @ np.asarray(values, dtype=np.float64)) / np.where(total > 0, total, 1), np.nan)


def auroc(W: Array, correct: NDArray[np.bool_], score: NDArray[np.float64]) -> Array:
    """Area under the ROC curve of ``score`` separating correct from wrong (ties count ½).

    NaN when a resample has no correct or no wrong row.
    """
    codes, n = _groups(np.asarray(score, dtype=np.float64))
    y = np.asarray(correct, dtype=np.float64)
    pos = _group_sums(W, codes, n, y)
    neg = _group_sums(W, codes, n, 1.0 - y)
    neg_below = np.cumsum(neg, axis=1) - neg
    top = (pos * (neg_below + 0.5 * neg)).sum(axis=1)
    bottom = pos.sum(axis=1) * neg.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1), np.nan)


def rc_auc(W: Array, correct: NDArray[np.bool_], score: NDArray[np.float64]) -> Array:
    """Area under the risk–coverage curve (lower is better).

    Rows are answered most-confident first; the risk at coverage k/n is the
    error rate among the first k, and RC-AUC is its mean over k = 1..n. A row
    counted w times contributes w steps; within a tie group errors arrive at
    the group's mean rate, which gives the closed form
    Σ_{j=1..w} (E + j·r)/(W₀ + j) = r·w + (E − r·W₀)(ψ(W₀+w+1) − ψ(W₀+1)).
    """
    codes, n = _groups(np.asarray(score, dtype=np.float64), descending=True)
    err = 1.0 - np.asarray(correct, dtype=np.float64)
    w = _group_sums(W, codes, n, np.ones_like(err))
    e = _group_sums(W, codes, n, err)
    w_before = np.cumsum(w, axis=1) - w
    e_before = np.cumsum(e, axis=1) - e
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(w > 0, e / np.where(w > 0, w, 1), 0.0)
        steps = rate * w + (e_before - rate * w_before) * (digamma(w_before + w + 1) - digamma(w_before + 1))
        total = w.sum(axis=1)
        return np.where(total > 0, steps.sum(axis=1) / np.where(total > 0, total, 1), np.nan)


def ece(W: Array, correct: NDArray[np.bool_], confidence: NDArray[np.float64], n_bins: int = 10) -> Array:
    """Expected calibration error with ``n_bins`` equal-width bins on [0, 1] (1.0 in the last bin).

    ECE = Σ_b (n_b / n)·|acc_b − conf_b| = Σ_b |Σ_b correct − Σ_b conf| / n.
    """
    conf = np.asarray(confidence, dtype=np.float64)
    bins = np.minimum((conf * n_bins).astype(np.intp), n_bins - 1)
    y = np.asarray(correct, dtype=np.float64)
    gap = np.abs(_group_sums(W, bins, n_bins, y) - _group_sums(W, bins, n_bins, conf)).sum(axis=1)
    total = W.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, gap / np.where(total > 0, total, 1), np.nan)


def reliability_bins(correct: NDArray[np.bool_], confidence: NDArray[np.float64], n_bins: int = 10) -> list[dict[str, float]]:
    """Per-bin count, mean confidence and accuracy, for reliability diagrams.

    >>> reliability_bins(np.array([True, False]), np.array([0.95, 0.05]), n_bins=2)
    [{'low': 0.0, 'high': 0.5, 'n': 1, 'confidence': 0.05, 'accuracy': 0.0}, {'low': 0.5, 'high': 1.0, 'n': 1, 'confidence': 0.95, 'accuracy': 1.0}]
    """
    conf = np.asarray(confidence, dtype=np.float64)
    bins = np.minimum((conf * n_bins).astype(np.intp), n_bins - 1)
    out = []
    for b in range(n_bins):
        mask = bins == b
        if mask.any():
            out.append({
                "low": b / n_bins,
                "high": (b + 1) / n_bins,
                "n": int(mask.sum()),
                "confidence": float(conf[mask].mean()),
                "accuracy": float(np.asarray(correct)[mask].mean()),
            })
    return out


def matched_fpr_detection(
    W: Array,
    score: NDArray[np.float64],
    correct: NDArray[np.bool_],
    target: NDArray[np.bool_],
    budget: Array,
) -> Array:
    """Detection on ``target`` rows when flagging the lowest scores up to a false-positive budget.

    ``budget`` (one per resample) is the weight of correct rows allowed to be
    flagged — the anchor signal's own false positives. Tie groups are filled
    in ascending score order: a group fits wholly while the budget lasts, the
    group that exhausts it is flagged fractionally (a randomised threshold, so
    the false-positive rate is matched exactly, ties included), and a group
    with no correct rows is flagged when no correct row above the budget lies
    below it. Returns the expected flagged share of ``target`` rows.

    >>> import numpy as np
    >>> W = np.ones((1, 5))
    >>> score = np.array([0.1, 0.2, 0.2, 0.9, 0.15])
    >>> correct = np.array([True, True, True, True, False])
    >>> target = ~correct
    >>> float(matched_fpr_detection(W, score, correct, target, np.array([1.0]))[0])
    1.0
    >>> float(matched_fpr_detection(W, score, correct, target, np.array([0.0]))[0])
    0.0
    """
    codes, n = _groups(np.asarray(score, dtype=np.float64))
    ok = np.asarray(correct, dtype=np.float64)
    good = _group_sums(W, codes, n, ok)
    hits = _group_sums(W, codes, n, np.asarray(target, dtype=np.float64))
    good_before = np.cumsum(good, axis=1) - good
    room = budget[:, None] - good_before
    eps = 1e-9
    with np.errstate(invalid="ignore", divide="ignore"):
        partial = np.clip(room / np.where(good > 0, good, 1), 0.0, 1.0)
    share = np.where(good > 0, np.where(room >= good - eps, 1.0, partial), (room >= -eps).astype(np.float64))
    top = (share * hits).sum(axis=1)
    bottom = hits.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1), np.nan)
