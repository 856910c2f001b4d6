"""Problem-clustered bootstrap intervals for the panel metrics (panels paper §4: 10,000 task-level resamples).

Thin over :mod:`rend_equiv_dataset.stats`: every interval here is
a ratio of per-query sums resampled by problem, and several statistics share
one set of resamples.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from rend_equiv_dataset.stats import (
    DEFAULT_RESAMPLES,
    cluster_bootstrap,
    cluster_codes,
    cluster_sums,
    percentile_interval,
    resample_counts,
)
from rend_equiv_dataset.panels.metrics.effective import correlation_from_moments, n_eff_stack

Interval = tuple[float, float]


def ratio_intervals(
    numerator: ArrayLike,
    clusters: ArrayLike,
    denominator: ArrayLike | None = None,
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
    level: float = 0.95,
) -> list[Interval]:
    """95% percentile intervals of column ratios sum(num)/sum(den), resampling clusters.

    >>> ratio_intervals([1.0, 1.0, 1.0], ["a", "a", "b"], n_resamples=100)
    [(1.0, 1.0)]
    """
    stats = cluster_bootstrap(numerator, clusters, denominator, n_resamples=n_resamples, seed=seed)
    return [percentile_interval(stats[:, j], level) for j in range(stats.shape[1])]


def n_eff_change_samples(
    errors: NDArray[np.integer],
    signal_errors: NDArray[np.integer],
    clusters: ArrayLike,
    *,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> NDArray[np.float64]:
    """Bootstrap samples of n_eff(with signal) − n_eff(panel) (Table 4), resampling clusters.

    Each query contributes its first and second moments of the k + 1 error
    vectors; a resample's correlations come from the resampled moment sums,
    so no resample touches the rows again.
    """
    x = np.column_stack([np.asarray(errors), np.asarray(signal_errors)]).astype(np.float64)
    v = x.shape[1]
    moments = np.column_stack([np.ones(x.shape[0]), x, (x[:, :, None] * x[:, None, :]).reshape(x.shape[0], v * v)])
    codes, n_clusters = cluster_codes(clusters)
    sums = cluster_sums(moments, codes, n_clusters)
    out = []
    for counts in resample_counts(n_clusters, n_resamples, seed):
        block = counts @ sums
        phi = correlation_from_moments(block[:, 0], block[:, 1 : 1 + v], block[:, 1 + v :].reshape(-1, v, v))
        panel, with_signal = n_eff_stack(phi)
        out.append(with_signal - panel)
    return np.concatenate(out) if out else np.empty(0)  # no resamples: no interval
