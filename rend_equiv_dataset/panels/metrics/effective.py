"""Effective votes n_eff = k / (1 + (k − 1) φ̄) (panels paper §2, after Kohli 2026; Table 4).

φ̄ is the mean pairwise Pearson correlation (the φ coefficient) of the
voters' binary error vectors e_j = 1[vote_j ≠ label]. A pair in which one
vector is constant (a voter that is never, or always, wrong) has no defined
correlation and is left out of the mean; with no defined pair n_eff is NaN.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]


def error_vectors(votes: NDArray[np.integer], labels: NDArray[np.integer]) -> NDArray[np.int8]:
    """e[i, j] = 1 when voter j is wrong on query i.

    >>> error_vectors(np.array([[1, 0], [0, 0]]), np.array([1, 1])).tolist()
    [[0, 1], [1, 1]]
    """
    return (np.asarray(votes) != np.asarray(labels)[:, None]).astype(np.int8)


def correlation_from_moments(n: ArrayLike, sums: FloatArray, cross: FloatArray) -> FloatArray:
    """Pearson correlations of binary columns from n, column sums and the cross-product matrix.

    Works on stacks: ``n`` (...), ``sums`` (..., v), ``cross`` (..., v, v).
    Undefined entries (a constant column) are NaN. Bootstrap resamples use
    this on resampled moments, so it is the one formula for φ.
    """
    count = np.asarray(n, dtype=np.float64)[..., None, None]
    mean = sums / count[..., 0]
    cov = cross / count - mean[..., :, None] * mean[..., None, :]
    var = np.diagonal(cov, axis1=-2, axis2=-1)
    scale = np.sqrt(var[..., :, None] * var[..., None, :])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(scale > 1e-12, cov / np.where(scale > 1e-12, scale, 1.0), np.nan)


def mean_pairwise_phi(errors: NDArray[np.integer]) -> float:
    """φ̄: mean over pairs i < j of the correlation of error columns i and j.

    >>> mean_pairwise_phi(np.array([[1, 1], [0, 0], [1, 1]]))
    1.0
    """
    e = np.asarray(errors, dtype=np.float64)
    phi = correlation_from_moments(np.float64(e.shape[0]), e.sum(axis=0), e.T @ e)
    return float(mean_upper(phi))


def mean_upper(phi: FloatArray) -> FloatArray:
    """Mean of the defined (non-NaN) off-diagonal pairs of stacked correlation matrices (..., v, v)."""
    rows, cols = np.triu_indices(phi.shape[-1], k=1)
    pairs = phi[..., rows, cols]
    defined = ~np.isnan(pairs)
    count = defined.sum(axis=-1)
    total = np.where(defined, pairs, 0.0).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def n_eff_from_phi(phi_bar: float | FloatArray, k: int) -> FloatArray:
    """n_eff = k / (1 + (k − 1) φ̄).

    >>> float(n_eff_from_phi(0.0, 7)), float(n_eff_from_phi(1.0, 7))
    (7.0, 1.0)
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        return k / (1.0 + (k - 1) * np.asarray(phi_bar, dtype=np.float64))


def n_eff(errors: NDArray[np.integer]) -> float:
    """Effective number of independent voters among the columns of ``errors``.

    >>> n_eff(np.array([[1, 1, 1], [0, 0, 0]]))  # identical judges
    1.0
    >>> n_eff(np.array([[1, 0], [0, 1], [1, 0], [0, 1]]))  # a perfectly anti-correlated pair
    inf
    """
    return float(n_eff_from_phi(mean_pairwise_phi(errors), errors.shape[1]))


def n_eff_stack(phi: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(panel, with_signal) n_eff from stacked (..., k+1, k+1) correlations; the last voter is the signal.

    ``with_signal`` is the mean over j of n_eff with judge j's error vector
    replaced by the signal's (docs/design.md §7.6): its φ̄ uses the judges other than
    j plus the signal. Bootstrap resamples pass a stack of matrices.
    """
    k = phi.shape[-1] - 1
    panel = n_eff_from_phi(mean_upper(phi[..., :k, :k]), k)
    swapped = []
    for j in range(k):
        keep = [voter for voter in range(k + 1) if voter != j]
        swapped.append(n_eff_from_phi(mean_upper(phi[..., keep, :][..., :, keep]), k))
    return panel, np.mean(np.stack(swapped), axis=0)


def n_eff_with_signal(errors: NDArray[np.integer], signal_errors: NDArray[np.integer]) -> float:
    """Mean over j of n_eff when judge j's error vector is replaced by the signal's (docs/design.md §7.6).

    >>> e = np.array([[1, 1, 0], [0, 0, 1], [1, 0, 0], [0, 1, 1]])
    >>> by_hand = [n_eff(e), n_eff(e[:, [0, 0, 2]]), n_eff(e[:, [0, 1, 0]])]
    >>> bool(np.isclose(n_eff_with_signal(e, e[:, 0]), np.mean(by_hand)))
    True
    """
    both = np.column_stack([np.asarray(errors), np.asarray(signal_errors)]).astype(np.float64)
    phi = correlation_from_moments(np.float64(both.shape[0]), both.sum(axis=0), both.T @ both)
    return float(n_eff_stack(phi)[1])
