"""Cluster bootstrap intervals, vectorised (docs/design.md §6).

Rows that share a cluster (a REND-EQUIV template under several data seeds, a
code problem with several candidates) are correlated, so intervals resample
whole clusters: "900 rows are 300 templates under three seeds" (paper §6,
Uncertainty), "task-level bootstrap" (panels paper §5).

The work is done once per cluster, not once per resample: rows are reduced to
per-cluster sums with :func:`numpy.bincount`, and each block of resamples is a
matrix of cluster draw counts (resamples × clusters) multiplied into those
sums. A statistic that is not a ratio of sums (AUROC, say) can take the same
count matrices as row weights through :func:`resample_counts`.

>>> import numpy as np
>>> correct = np.array([1, 1, 0, 1, 0, 0], dtype=float)
>>> template = np.array(["a", "a", "b", "b", "c", "c"])
>>> stats = cluster_bootstrap(correct, template, n_resamples=2000, seed=0)
>>> stats.shape
(2000, 1)
>>> low, high = percentile_interval(stats[:, 0])
>>> 0.0 <= low <= 0.5 <= high <= 1.0
True
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import ArrayLike, NDArray

DEFAULT_RESAMPLES = 10_000
_CHUNK_CELLS = 1_000_000  # resamples × clusters per block: bounds memory at ~8 MB of counts (the draws do not depend on it)


def cluster_codes(clusters: ArrayLike) -> tuple[NDArray[np.intp], int]:
    """Map cluster labels to codes 0..C-1 (sorted label order); returns (codes, C)."""
    _, codes = np.unique(np.asarray(clusters), return_inverse=True)
    codes = codes.ravel()
    return codes, int(codes.max()) + 1 if codes.size else 0


def cluster_sums(values: ArrayLike, codes: NDArray[np.intp], n_clusters: int) -> NDArray[np.float64]:
    """Per-cluster column sums of ``values`` (rows × stats) → (clusters × stats)."""
    matrix = np.asarray(values, dtype=np.float64)
    if matrix.ndim == 1:
        matrix = matrix[:, None]
    return np.stack([np.bincount(codes, weights=column, minlength=n_clusters) for column in matrix.T], axis=1)


def resample_counts(
    n_clusters: int, n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0
) -> Iterator[NDArray[np.float64]]:
    """Yield blocks of cluster draw counts, each (block × n_clusters), n_resamples rows in all.

    Row r of a block counts how often each cluster was drawn in resample r
    (C draws with replacement). The stream depends only on ``seed``,
    ``n_clusters`` and ``n_resamples``, so results are reproducible.

    >>> blocks = list(resample_counts(3, n_resamples=5, seed=1))
    >>> sum(b.shape[0] for b in blocks), blocks[0].sum(axis=1).tolist()
    (5, [3.0, 3.0, 3.0, 3.0, 3.0])
    """
    if n_clusters < 1:
        raise ValueError("the bootstrap needs at least one cluster")
    rng = np.random.Generator(np.random.PCG64(seed))
    block = max(1, min(n_resamples, _CHUNK_CELLS // n_clusters))
    done = 0
    while done < n_resamples:
        size = min(block, n_resamples - done)
        draws = rng.integers(0, n_clusters, size=(size, n_clusters))
        flat = (draws + (np.arange(size) * n_clusters)[:, None]).ravel()
        yield np.bincount(flat, minlength=size * n_clusters).reshape(size, n_clusters).astype(np.float64)
        done += size


def cluster_bootstrap(
    numerator: ArrayLike,
    clusters: ArrayLike,
    denominator: ArrayLike | None = None,
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> NDArray[np.float64]:
    """Bootstrap ratio-of-sums statistics by resampling clusters.

    Args:
        numerator: per-row values, shape (rows,) or (rows, stats). With the
            default denominator, each statistic is a mean over rows (an
            accuracy, a rate, a mean gain).
        clusters: per-row cluster label (template id, problem id).
        denominator: per-row weights of the same shape, for a ratio of sums
            (a rate within a subgroup: numerator = hit & in_group, denominator
            = in_group). Defaults to 1 per row.
        n_resamples: number of resamples (10,000 in the papers).
        seed: seed of the resampling stream.

    Returns:
        (n_resamples, stats) array of resampled statistics; a resample whose
        denominator is 0 gives NaN for that statistic.

    >>> import numpy as np
    >>> x = np.array([[1.0, 0.0], [1.0, 1.0]])
    >>> cluster_bootstrap(x, ["p", "p"], n_resamples=3, seed=0).tolist()
    [[1.0, 0.5], [1.0, 0.5], [1.0, 0.5]]
    """
    num = np.asarray(numerator, dtype=np.float64)
    num = num[:, None] if num.ndim == 1 else num
    den = np.ones_like(num) if denominator is None else np.asarray(denominator, dtype=np.float64)
    den = den[:, None] if den.ndim == 1 else den
    if den.shape != num.shape:
        raise ValueError(f"denominator shape {den.shape} differs from numerator shape {num.shape}")
    codes, n_clusters = cluster_codes(clusters)
    if codes.shape[0] != num.shape[0]:
        raise ValueError(f"{codes.shape[0]} cluster labels for {num.shape[0]} rows")
    num_sums, den_sums = cluster_sums(num, codes, n_clusters), cluster_sums(den, codes, n_clusters)
    out = np.empty((n_resamples, num.shape[1]))
    row = 0
    with np.errstate(invalid="ignore", divide="ignore"):
        for counts in resample_counts(n_clusters, n_resamples, seed):
            top, bottom = counts @ num_sums, counts @ den_sums
            out[row : row + len(counts)] = np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1.0), np.nan)
            row += len(counts)
    return out


def percentile_interval(samples: ArrayLike, level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of bootstrap samples, ignoring NaN resamples.

    >>> percentile_interval([0.0, 1.0, 2.0, 3.0, 4.0], level=0.5)
    (1.0, 3.0)
    """
    values = np.asarray(samples, dtype=np.float64)
    values = values[~np.isnan(values)]
    if values.size == 0:
        return (float("nan"), float("nan"))
    tail = (1.0 - level) / 2.0 * 100.0
    low, high = np.percentile(values, [tail, 100.0 - tail])
    return (float(low), float(high))
