"""Selective-prediction metrics over resampled clusters: AUROC, RC-AUC, ECE, matched-FPR detection.

Every function takes :class:`Weights`: for each of R resamples, how many times
each cluster (template) was drawn, and which cluster each row belongs to. A
row counts as many times as its cluster was drawn. :meth:`Weights.unit` gives
the plain estimate (every row once), and the blocks of
:func:`rend_equiv_dataset.stats.resample_counts` give the
10,000-resample bootstrap, so one vectorised code path serves both
(docs/design.md §6). Rows are reduced to per-cluster sums once (``np.bincount``), so a
statistic costs a (R × clusters) product, never a loop over resamples.
Scores are confidences: higher means "more likely correct". Ties are handled
in expectation over a random order of tied rows, so no result depends on row
order.

>>> import numpy as np
>>> W = Weights.unit(4)
>>> correct = np.array([1, 1, 0, 0], dtype=bool)
>>> float(auroc(W, correct, np.array([0.9, 0.8, 0.3, 0.8]))[0])
0.875
>>> round(float(rc_auc(W, correct, np.array([0.9, 0.8, 0.3, 0.1]))[0]), 6)  # (0 + 0 + 1/3 + 2/4) / 4
0.208333
>>> float(ece(W, correct, np.array([1.0, 1.0, 0.0, 0.0]))[0])
0.0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]


@dataclass(frozen=True)
class Weights:
    """Cluster draw counts (resamples × clusters) and each row's cluster code.

    The counts' dtype sets the arithmetic: float64 for point estimates,
    float32 for bootstrap blocks (whole counts are exact; the ~1e-7 relative
    rounding of sums is far below any interval's width, and it halves the
    memory traffic of the (resamples × groups) arrays).
    """

    counts: Array
    codes: NDArray[np.intp]

    @classmethod
    def unit(cls, n_rows: int) -> Weights:
        """Every row once, each its own cluster (the plain, unresampled estimate)."""
        return cls(np.ones((1, n_rows)), np.arange(n_rows))

    @classmethod
    def point(cls, codes: NDArray[np.intp], n_clusters: int) -> Weights:
        """Every cluster drawn once: the plain estimate, on the clustered layout."""
        return cls(np.ones((1, n_clusters)), codes)

    @property
    def n_clusters(self) -> int:
        return self.counts.shape[1]

    def subset(self, mask: NDArray[np.bool_]) -> Weights:
        """The same resamples restricted to the rows in ``mask``."""
        return Weights(self.counts, self.codes[mask])

    def sums(self, values: NDArray[np.float64]) -> Array:
        """Σ (row weight × value) per resample."""
        per_cluster = np.bincount(self.codes, weights=np.asarray(values, dtype=np.float64), minlength=self.n_clusters)
        return self.counts @ per_cluster.astype(self.counts.dtype)

    def total(self) -> Array:
        return self.sums(np.ones(len(self.codes)))

    def group_sums(self, groups: NDArray[np.intp], n_groups: int, values: NDArray[np.float64]) -> Array:
        """(resamples × groups) weighted sums of ``values`` per group of rows."""
        flat = self.codes * n_groups + groups
        table = np.bincount(flat, weights=np.asarray(values, dtype=np.float64), minlength=self.n_clusters * n_groups)
        return self.counts @ table.reshape(self.n_clusters, n_groups).astype(self.counts.dtype)


def _ratio(top: Array, bottom: Array) -> Array:
    top, bottom = np.asarray(top, dtype=np.float64), np.asarray(bottom, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1), np.nan)


def _groups(score: NDArray[np.float64], descending: bool = False) -> tuple[NDArray[np.intp], int]:
    """Tie groups of ``score`` as codes in ascending (or descending) score order."""
    values, codes = np.unique(np.asarray(score, dtype=np.float64), return_inverse=True)
    codes = codes.ravel()
    return (len(values) - 1 - codes if descending else codes), len(values)


def weighted_mean(W: Weights, values: NDArray[np.float64]) -> Array:
    """Σ w·x / Σ w per resample; NaN when no row is drawn."""
    return _ratio(W.sums(values), W.total())


def auroc(W: Weights, correct: NDArray[np.bool_], score: NDArray[np.float64]) -> Array:
    """Area under the ROC curve of ``score`` separating correct from wrong (ties count ½).

    As a quadratic form in the cluster counts: K[c, d] sums, over correct rows
    of cluster c and wrong rows of cluster d, 1[s_i > s_j] + ½·1[s_i = s_j];
    the numerator of resample r is counts_r·K·counts_r. NaN when a resample
    has no correct or no wrong row.
    """
    y = np.asarray(correct, dtype=bool)
    s = np.asarray(score, dtype=np.float64)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    wins = (s[pos, None] > s[None, neg]) + 0.5 * (s[pos, None] == s[None, neg])
    pairs = (W.codes[pos][:, None] * W.n_clusters + W.codes[neg][None, :]).ravel()
    kernel = np.bincount(pairs, weights=wins.ravel(), minlength=W.n_clusters**2).reshape(W.n_clusters, W.n_clusters)
    kernel = kernel.astype(W.counts.dtype)
    top = ((W.counts @ kernel) * W.counts).sum(axis=1)
    return _ratio(top, W.sums(y.astype(np.float64)) * W.sums((~y).astype(np.float64)))


def _harmonic(n: int) -> Array:
    """H[k] = 1 + 1/2 + … + 1/k for k = 0..n."""
    return np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, n + 1))])


def _cluster_table(W: Weights, groups: NDArray[np.intp], n_groups: int, values: NDArray[np.float64]) -> NDArray[np.float64]:
    """(clusters × groups) sums of ``values``: the per-cluster reduction every resample reuses."""
    flat = W.codes * n_groups + groups
    table = np.bincount(flat, weights=np.asarray(values, dtype=np.float64), minlength=W.n_clusters * n_groups)
    return np.asarray(table, dtype=np.float64).reshape(W.n_clusters, n_groups)


def _times(W: Weights, table: NDArray[np.float64]) -> Array:
    return W.counts @ table.astype(W.counts.dtype)


def rc_auc(W: Weights, correct: NDArray[np.bool_], score: NDArray[np.float64]) -> Array:
    """Area under the risk–coverage curve (lower is better).

    Rows are answered most-confident first; the risk at coverage k/N is the
    error rate among the first k, and RC-AUC = (1/N) Σ_k E_k / k. Within a tie
    group errors arrive at the group's mean rate r = e/w, so a group after W₀
    rows and E errors adds Σ_{j=1..w} (E + j·r)/(W₀ + j) = r·w + (E − r·W₀)(H[W₀+w] − H[W₀])
    (H the harmonic numbers; weights are whole counts). Between groups that
    hold errors E is constant, so only those groups and the spans between
    them are evaluated: the cost grows with the number of error groups, not
    with the number of distinct scores.
    """
    codes, n = _groups(score, descending=True)
    err = 1.0 - np.asarray(correct, dtype=np.float64)
    rows = _cluster_table(W, codes, n, np.ones_like(err))
    errors = _cluster_table(W, codes, n, err)
    cols = np.flatnonzero(errors.sum(axis=0) > 0)
    total = W.total()
    if cols.size == 0:
        return _ratio(np.zeros_like(total), total)
    before_rows = (np.cumsum(rows, axis=1) - rows)[:, cols]
    before_errors = (np.cumsum(errors, axis=1) - errors)[:, cols]
    w, e = _times(W, rows[:, cols]), _times(W, errors[:, cols])
    w0, e0 = _times(W, before_rows), _times(W, before_errors)
    harmonic = _harmonic(int(float(total.max()) + 0.5))
    w0_i = (w0 + 0.5).astype(np.intp)
    end_i = (w0 + w + 0.5).astype(np.intp)
    next_i = np.concatenate([w0_i[:, 1:], (total[:, None] + 0.5).astype(np.intp)], axis=1)
    rate = np.where(w > 0, e / np.where(w > 0, w, 1), 0.0)
    inner = rate * w + (e0 - rate * w0) * (harmonic[end_i] - harmonic[w0_i])
    span = (e0 + e) * (harmonic[next_i] - harmonic[end_i])
    return _ratio((inner + span).sum(axis=1), total)


def ece(W: Weights, correct: NDArray[np.bool_], confidence: NDArray[np.float64], n_bins: int = 10) -> Array:
    """Expected calibration error with ``n_bins`` equal-width bins on [0, 1] (1.0 in the last bin).

    ECE = Σ_b (n_b / n)·|acc_b − conf_b| = Σ_b |Σ_b correct − Σ_b conf| / n.
    """
    conf = np.asarray(confidence, dtype=np.float64)
    bins = np.minimum((conf * n_bins).astype(np.intp), n_bins - 1)
    y = np.asarray(correct, dtype=np.float64)
    gap = np.abs(W.group_sums(bins, n_bins, y) - W.group_sums(bins, n_bins, conf)).sum(axis=1)
    return _ratio(gap, W.total())


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
    W: Weights,
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
    >>> W = Weights.unit(5)
    >>> score = np.array([0.1, 0.2, 0.2, 0.9, 0.15])
    >>> correct = np.array([True, True, True, True, False])
    >>> target = ~correct
    >>> float(matched_fpr_detection(W, score, correct, target, np.array([1.0]))[0])
    1.0
    >>> float(matched_fpr_detection(W, score, correct, target, np.array([0.0]))[0])
    0.0
    """
    codes, n = _groups(score)
    good_table = _cluster_table(W, codes, n, np.asarray(correct, dtype=np.float64))
    hit_table = _cluster_table(W, codes, n, np.asarray(target, dtype=np.float64))
    cols = np.flatnonzero(hit_table.sum(axis=0) > 0)  # only groups holding target rows matter
    good = _times(W, good_table[:, cols])
    hits = _times(W, hit_table[:, cols])
    room = budget[:, None] - _times(W, (np.cumsum(good_table, axis=1) - good_table)[:, cols])
    eps = 1e-6
    with np.errstate(invalid="ignore", divide="ignore"):
        partial = np.clip(room / np.where(good > 0, good, 1), 0.0, 1.0)
    share = np.where(good > 0, np.where(room >= good - eps, 1.0, partial), (room >= -eps).astype(np.float64))
    return _ratio((share * hits).sum(axis=1), hits.sum(axis=1))
