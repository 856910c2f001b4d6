"""The vectorised metrics against direct definitions, with ties and resampling weights."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from rend_equiv_dataset.figures.scoring import metrics as m
from rend_equiv_dataset.stats import cluster_codes, resample_counts


def naive_rc_auc(correct, score):
    """Mean over k of E[errors among the first k] / k, rows in descending score, ties in random order.

    A plain loop over rows: within a tie group each next row is an error with the group's error rate.
    """
    risks, errors, k = [], 0.0, 0
    for value in sorted(set(score.tolist()), reverse=True):
        group = correct[score == value]
        rate = float((~group).mean())
        for _ in range(group.size):
            k += 1
            errors += rate
            risks.append(errors / k)
    return float(np.mean(risks))


def expand(counts_row, codes, *arrays):
    """Rows repeated as many times as their cluster was drawn."""
    repeat = counts_row[codes].astype(int)
    return [np.repeat(a, repeat) for a in arrays]


data = st.integers(min_value=2, max_value=30).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), min_size=n, max_size=n),
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
    )
)


@given(data)
def test_auroc_matches_sklearn_on_resampled_rows(sample):
    correct, score, clusters = (np.array(x) for x in sample)
    codes, n_clusters = cluster_codes(clusters)
    counts = next(resample_counts(n_clusters, 5, seed=1))
    got = m.auroc(m.Weights(counts, codes), correct, score)
    for r in range(5):
        y, s = expand(counts[r], codes, correct, score)
        expected = roc_auc_score(y, s) if 0 < y.sum() < y.size else np.nan
        assert got[r] == pytest.approx(expected, nan_ok=True)


@given(data)
def test_rc_auc_is_the_tie_averaged_curve(sample):
    correct, score, clusters = (np.array(x) for x in sample)
    codes, n_clusters = cluster_codes(clusters)
    counts = next(resample_counts(n_clusters, 3, seed=2))
    got = m.rc_auc(m.Weights(counts, codes), correct, score)
    for r in range(3):
        y, s = expand(counts[r], codes, correct, score)
        if y.size == 0:
            assert np.isnan(got[r])
            continue
        assert got[r] == pytest.approx(naive_rc_auc(y, s), rel=1e-6)


def test_rc_auc_exact_without_ties():
    correct = np.array([True, False, True, False, True])
    score = np.array([0.9, 0.8, 0.7, 0.6, 0.5])
    # errors among first k: 0, 1, 1, 2, 2 -> (0 + 1/2 + 1/3 + 2/4 + 2/5) / 5
    assert m.rc_auc(m.Weights.unit(5), correct, score)[0] == pytest.approx((0 + 1 / 2 + 1 / 3 + 2 / 4 + 2 / 5) / 5)


def test_rc_auc_tie_group_in_expectation():
    # one tie group of 2 (one error) first, then a correct row: E_1 = 1/2, E_2 = 1, E_3 = 1
    correct = np.array([True, False, True])
    score = np.array([0.9, 0.9, 0.1])
    assert m.rc_auc(m.Weights.unit(3), correct, score)[0] == pytest.approx((0.5 / 1 + 1 / 2 + 1 / 3) / 3)


@given(data)
def test_ece_matches_binned_definition(sample):
    correct, score, clusters = (np.array(x) for x in sample)
    got = m.ece(m.Weights.unit(len(score)), correct, score)[0]
    bins = np.minimum((score * 10).astype(int), 9)
    expected = sum(abs(correct[bins == b].mean() - score[bins == b].mean()) * (bins == b).mean() for b in range(10) if (bins == b).any())
    assert got == pytest.approx(expected)


def test_point_weights_equal_unit_weights():
    rng = np.random.default_rng(3)
    correct, score = rng.random(40) < 0.6, rng.random(40).round(1)
    codes, n_clusters = cluster_codes(rng.integers(0, 7, 40))
    for stat in (m.auroc, m.rc_auc, m.ece):
        assert stat(m.Weights.point(codes, n_clusters), correct, score)[0] == pytest.approx(stat(m.Weights.unit(40), correct, score)[0])


def test_matched_fpr_ties_are_split_exactly():
    # correct scores 0.2, 0.2, 0.2, 0.9; budget 1 of 4 correct -> the tie at 0.2 is flagged with probability 1/3
    score = np.array([0.2, 0.2, 0.2, 0.9, 0.2, 0.9])
    correct = np.array([True, True, True, True, False, False])
    target = ~correct
    got = m.matched_fpr_detection(m.Weights.unit(6), score, correct, target, np.array([1.0]))[0]
    assert got == pytest.approx((1 / 3) / 2)


def test_matched_fpr_gap_values_are_flagged_while_budget_remains():
    # a wrong row at 0.5 lies between the flagged correct 0.3 and the unflagged correct 0.7
    score = np.array([0.3, 0.7, 0.5, 0.8])
    correct = np.array([True, True, False, False])
    got = m.matched_fpr_detection(m.Weights.unit(4), score, correct, ~correct, np.array([1.0]))[0]
    assert got == pytest.approx(0.5)


@given(st.lists(st.floats(0, 1), min_size=3, max_size=40), st.integers(0, 10))
def test_order_invariance(scores, seed):
    score = np.array(scores)
    rng = np.random.default_rng(seed)
    correct = rng.random(len(score)) < 0.5
    perm = rng.permutation(len(score))
    W = m.Weights.unit(len(score))
    for stat in (m.auroc, m.rc_auc, m.ece):
        assert stat(W, correct, score)[0] == pytest.approx(stat(W, correct[perm], score[perm])[0], nan_ok=True)


def pair_matrix_auroc(W, correct, score):
    """The former definition, kept as the reference: a quadratic form over a (correct × wrong) matrix of pairs."""
    y = np.asarray(correct, dtype=bool)
    s = np.asarray(score, dtype=np.float64)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    wins = (s[pos, None] > s[None, neg]) + 0.5 * (s[pos, None] == s[None, neg])
    pairs = (W.codes[pos][:, None] * W.n_clusters + W.codes[neg][None, :]).ravel()
    kernel = np.bincount(pairs, weights=wins.ravel(), minlength=W.n_clusters**2).reshape(W.n_clusters, W.n_clusters)
    top = ((W.counts @ kernel) * W.counts).sum(axis=1)
    bottom = W.sums(y.astype(np.float64)) * W.sums((~y).astype(np.float64))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(bottom > 0, top / np.where(bottom > 0, bottom, 1), np.nan)


@given(data, st.integers(0, 3))
def test_sort_based_auroc_equals_the_pair_matrix_form(sample, seed):
    correct, score, clusters = (np.array(x) for x in sample)
    codes, n_clusters = cluster_codes(clusters)
    counts = next(resample_counts(n_clusters, 7, seed=seed))
    W = m.Weights(counts, codes)
    np.testing.assert_array_equal(m.auroc(W, correct, score), pair_matrix_auroc(W, correct, score))


def test_sort_based_auroc_on_continuous_scores_in_small_blocks(monkeypatch):
    # many distinct scores force several blocks of resamples; the result must not depend on the block size
    rng = np.random.default_rng(5)
    correct, score = rng.random(3000) < 0.7, rng.normal(size=3000)
    codes, n_clusters = cluster_codes(rng.integers(0, 40, 3000))
    W = m.Weights(next(resample_counts(n_clusters, 60, seed=1)), codes)
    whole = m.auroc(W, correct, score)
    monkeypatch.setattr(m, "_BLOCK_CELLS", 3000 * 7)
    np.testing.assert_allclose(m.auroc(W, correct, score), whole, rtol=1e-12)
    np.testing.assert_allclose(whole, pair_matrix_auroc(W, correct, score), rtol=1e-12)
    assert m.auroc(m.Weights.unit(3000), correct, score)[0] == pytest.approx(roc_auc_score(correct, score), rel=1e-12)
