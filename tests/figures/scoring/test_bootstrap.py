"""The vectorised cluster bootstrap equals the naive resampling loop and respects its invariances."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rend_equiv_dataset.stats import (
    cluster_bootstrap,
    cluster_codes,
    percentile_interval,
    resample_counts,
)


def _naive(num, clusters, den, n_resamples, seed):
    """One resample at a time: draw clusters, gather their rows, take the ratio of sums."""
    codes, n_clusters = cluster_codes(clusters)
    out = []
    for counts in resample_counts(n_clusters, n_resamples, seed):
        for row in counts:
            drawn = np.repeat(np.arange(n_clusters), row.astype(int))
            rows = np.concatenate([np.flatnonzero(codes == c) for c in drawn])
            total = den[rows].sum()
            out.append(num[rows].sum() / total if total > 0 else np.nan)
    return np.array(out)


@settings(max_examples=30)
@given(
    arrays(np.float64, st.integers(1, 25), elements=st.floats(0, 1)),
    st.integers(1, 6),
    st.integers(0, 2**32 - 1),
)
def test_vectorised_equals_naive_loop(values, n_clusters, seed):
    rng = np.random.default_rng(seed)
    clusters = rng.integers(0, n_clusters, size=values.shape[0])
    den = (rng.random(values.shape[0]) < 0.7).astype(float)
    fast = cluster_bootstrap(values * den, clusters, den, n_resamples=40, seed=seed)[:, 0]
    slow = _naive(values * den, clusters, den, 40, seed)
    np.testing.assert_allclose(fast, slow, rtol=1e-12, equal_nan=True)


def test_row_order_does_not_matter():
    rng = np.random.default_rng(3)
    values, clusters = rng.random(50), rng.integers(0, 9, size=50)
    order = rng.permutation(50)
    a = cluster_bootstrap(values, clusters, n_resamples=500, seed=1)
    b = cluster_bootstrap(values[order], clusters[order], n_resamples=500, seed=1)
    np.testing.assert_allclose(a, b)


def test_one_cluster_gives_a_degenerate_interval_at_the_estimate():
    stats = cluster_bootstrap([1.0, 0.0, 1.0, 1.0], ["t"] * 4, n_resamples=100, seed=0)
    assert percentile_interval(stats[:, 0]) == (0.75, 0.75)


def test_interval_covers_the_mean_and_narrows_with_more_clusters():
    rng = np.random.default_rng(0)
    small = rng.random(30) < 0.6
    large = rng.random(3000) < 0.6
    lo_s, hi_s = percentile_interval(cluster_bootstrap(small, np.arange(30), n_resamples=2000)[:, 0])
    lo_l, hi_l = percentile_interval(cluster_bootstrap(large, np.arange(3000), n_resamples=2000)[:, 0])
    assert lo_l <= large.mean() <= hi_l
    assert hi_l - lo_l < hi_s - lo_s


def test_empty_subgroup_resamples_are_nan_and_ignored():
    stats = cluster_bootstrap([0.0, 1.0], ["a", "b"], [0.0, 1.0], n_resamples=200, seed=0)[:, 0]
    assert np.isnan(stats).any() and np.nanmax(stats) == 1.0
    assert percentile_interval(stats) == (1.0, 1.0)


def test_shape_mismatch_is_refused():
    with pytest.raises(ValueError):
        cluster_bootstrap([1.0, 0.0], ["a"], n_resamples=10)
    with pytest.raises(ValueError):
        cluster_bootstrap([1.0, 0.0], ["a", "b"], [1.0], n_resamples=10)
