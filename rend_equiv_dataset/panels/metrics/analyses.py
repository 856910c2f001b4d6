"""The paper's analyses over one panel (panels paper §5–6, Tables 3, 6, 7; Supplementary A; Figure 3).

* :func:`subpanel_table` — every sub-panel of a size (all C(k, k′)), pivotal /
  non-pivotal gains (Table 3);
* :func:`even_asymmetry` — even sub-panels, gain by signed tally around k′/2:
  a structural zero at s = k′/2 − 1 (Proposition 2, Table 6);
* :func:`permutation_control` — synthetic signals with the real signal's
  accuracy and permuted error locations (Supplementary A);
* :func:`coverage_sweep` — signal accuracy and pivotal gain per coverage (Figure 3);
* :func:`policy_table` — gating × replacement rule, baselines, call rates (Table 7).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.stats import DEFAULT_RESAMPLES
from rend_equiv_dataset.panels.metrics.data import PanelData
from rend_equiv_dataset.panels.metrics.gains import panel_correct
from rend_equiv_dataset.panels.metrics.intervals import Interval, ratio_intervals
from rend_equiv_dataset.panels.metrics.replacement import (
    MAJORITY_SIDE,
    UNIFORM,
    Fixed,
    expected_correct,
    gated_decisions,
    uniform_expected_correct,
)
from rend_equiv_dataset.panels.metrics.votes import decisions, pivotal, tallies

FloatArray = NDArray[np.float64]
N_PERMUTATIONS = 2_000
_CHUNK_CELLS = 4_000_000


def _ratio(num: FloatArray, den: FloatArray) -> FloatArray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def subpanel_tallies(votes: NDArray[np.integer], size: int) -> tuple[list[tuple[int, ...]], NDArray[np.int64]]:
    """All C(k, size) judge subsets and their tallies, (queries × subsets), in one product.

    >>> subsets, s = subpanel_tallies(np.array([[1, 0, 1]]), 2)
    >>> subsets, s.tolist()
    ([(0, 1), (0, 2), (1, 2)], [[1, 2, 1]])
    """
    k = votes.shape[1]
    if not 2 <= size <= k:
        raise InputError(f"sub-panel size must be in [2, {k}], got {size}", field="size")
    subsets = list(itertools.combinations(range(k), size))
    member = np.zeros((k, len(subsets)), dtype=np.int64)
    for column, subset in enumerate(subsets):
        member[list(subset), column] = 1
    return subsets, np.asarray(votes, dtype=np.int64) @ member


@dataclass(frozen=True)
class SubpanelRow:
    """One sub-panel of Table 3 (fractions)."""

    judges: tuple[int, ...]
    n_pivotal: int
    pivotal_gain: float
    pivotal_ci: Interval
    n_nonpivotal: int
    nonpivotal_gain: float
    panel_accuracy: float
    uniform_accuracy: float


def _subpanel_gains(data: PanelData, size: int) -> tuple[list[tuple[int, ...]], NDArray[np.int64], FloatArray]:
    subsets, s = subpanel_tallies(data.votes, size)
    y, v = data.labels[:, None].astype(np.int64), data.signal[:, None].astype(np.int64)
    gain = uniform_expected_correct(s, size, y, v) - (decisions(s, size) == y)
    return subsets, s, gain


def subpanel_table(data: PanelData, size: int, *, n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> list[SubpanelRow]:
    """Uniform-replacement gain of every sub-panel of ``size`` judges, by region (Table 3)."""
    subsets, s, gain = _subpanel_gains(data, size)
    piv = pivotal(s, size)
    y = data.labels[:, None]
    base = (decisions(s, size) == y).astype(np.float64)
    cis = ratio_intervals(gain * piv, data.problems, piv.astype(np.float64), n_resamples=n_resamples, seed=seed)
    piv_n, non_n = piv.sum(axis=0), (~piv).sum(axis=0)
    piv_gain = _ratio((gain * piv).sum(axis=0), piv_n)
    non_gain = _ratio((gain * ~piv).sum(axis=0), non_n)
    return [
        SubpanelRow(
            judges=subset,
            n_pivotal=int(piv_n[j]),
            pivotal_gain=float(piv_gain[j]),
            pivotal_ci=cis[j],
            n_nonpivotal=int(non_n[j]),
            nonpivotal_gain=float(non_gain[j]),
            panel_accuracy=float(base[:, j].mean()),
            uniform_accuracy=float((base[:, j] + gain[:, j]).mean()),
        )
        for j, subset in enumerate(subsets)
    ]


@dataclass(frozen=True)
class TallyRow:
    """Gain at one signed tally s of an even sub-panel, pooled over subsets and per subset (Table 6)."""

    tally: int
    margin: int
    pivotal: bool
    n: int
    gain: float
    subset_gains: tuple[float, ...]


def even_asymmetry(data: PanelData, size: int | None = None) -> list[TallyRow]:
    """Gain by tally s ∈ {k′/2 − 1, k′/2, k′/2 + 1} over all even sub-panels of ``size`` (default k − 1 or k).

    Proposition 2 predicts an exact zero at s = k′/2 − 1 (an incorrect-leaning
    bare majority), though its margin equals that of s = k′/2 + 1.
    """
    size = size if size is not None else (data.k if data.k % 2 == 0 else data.k - 1)
    if size % 2 or size < 2:
        raise InputError(f"the asymmetry check needs an even sub-panel size >= 2, got {size}", field="size")
    _, s, gain = _subpanel_gains(data, size)
    rows = []
    for tally in (size // 2 - 1, size // 2, size // 2 + 1):
        at = s == tally
        per_subset = _ratio((gain * at).sum(axis=0), at.sum(axis=0))
        total = int(at.sum())
        rows.append(
            TallyRow(
                tally=tally,
                margin=abs(2 * tally - size),
                pivotal=bool(pivotal(np.array([tally]), size)[0]),
                n=total,
                gain=float((gain * at).sum() / total) if total else float("nan"),
                subset_gains=tuple(float(g) for g in per_subset),
            )
        )
    return rows


@dataclass(frozen=True)
class PermutationControl:
    """Real pivotal gain against synthetic signals of equal accuracy (Supplementary A)."""

    real_gain: float
    mean_gain: float
    range95: Interval
    fraction_at_least_real: float
    n_permutations: int
    signal_accuracy: float


def permutation_gains(data: PanelData, n_permutations: int = N_PERMUTATIONS, seed: int = 0) -> FloatArray:
    """Pivotal uniform-replacement gain of synthetic signals with the real number of errors at random queries.

    A query's expected correctness depends on the signal only through
    whether it is right, so the pivotal gain is a base sum plus the sum of
    per-query deltas over the permuted error locations. Draws are made in
    blocks: a random key per (permutation, query), the E smallest keys mark
    the errors.
    """
    k, y = data.k, data.labels.astype(np.int64)
    s = tallies(data.votes)
    piv = pivotal(s, k)
    n_piv = int(piv.sum())
    if n_piv == 0:
        return np.full(n_permutations, np.nan)
    base = panel_correct(data.votes, data.labels)
    right = (uniform_expected_correct(s, k, y, y) - base) * piv
    wrong = (uniform_expected_correct(s, k, y, 1 - y) - base) * piv
    delta = wrong - right
    n_errors = int((data.signal != data.labels).sum())
    n = data.n
    rng = np.random.Generator(np.random.PCG64(seed))
    totals = np.empty(n_permutations)
    block = max(1, _CHUNK_CELLS // n)
    for start in range(0, n_permutations, block):
        size = min(block, n_permutations - start)
        if n_errors in (0, n):
            extra = np.full(size, delta.sum() if n_errors else 0.0)
        else:
            keys = rng.random((size, n))
            chosen = np.argpartition(keys, n_errors - 1, axis=1)[:, :n_errors]
            extra = delta[chosen].sum(axis=1)
        totals[start : start + size] = right.sum() + extra
    return totals / n_piv


def permutation_control(data: PanelData, n_permutations: int = N_PERMUTATIONS, seed: int = 0) -> PermutationControl:
    """Supplementary A: where does the real signal's pivotal gain fall among equal-accuracy synthetic ones?"""
    real = _pivotal_gain(data, data.signal)
    gains = permutation_gains(data, n_permutations, seed)
    low, high = np.percentile(gains, [2.5, 97.5])
    return PermutationControl(
        real_gain=real,
        mean_gain=float(gains.mean()),
        range95=(float(low), float(high)),
        fraction_at_least_real=float(np.mean(gains >= real - 1e-12)),
        n_permutations=n_permutations,
        signal_accuracy=float(np.mean(data.signal == data.labels)),
    )


def _pivotal_gain(data: PanelData, signal: NDArray[np.integer]) -> float:
    s = tallies(data.votes)
    piv = pivotal(s, data.k)
    if not piv.any():
        return float("nan")
    gain = uniform_expected_correct(s, data.k, data.labels, signal) - panel_correct(data.votes, data.labels)
    return float(gain[piv].mean())


@dataclass(frozen=True)
class CoverageRow:
    """One coverage level of Figure 3."""

    coverage: float
    signal_accuracy: float
    pivotal_gain: float
    ci: Interval


def coverage_sweep(
    data: PanelData, levels: Sequence[float], *, n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0
) -> list[CoverageRow]:
    """Signal accuracy and pivotal uniform-replacement gain at each coverage level, with clustered CIs."""
    if data.assertions is None:
        raise InputError("the coverage sweep needs per-assertion results (full-form records)", field="assertions_passed")
    signals = data.assertions.signals(levels).T.astype(np.int64)  # queries × levels
    s = tallies(data.votes)[:, None]
    y = data.labels[:, None].astype(np.int64)
    piv = pivotal(s, data.k)
    gain = uniform_expected_correct(s, data.k, y, signals) - (decisions(s, data.k) == y)
    den = np.broadcast_to(piv, gain.shape).astype(np.float64)
    cis = ratio_intervals(gain * piv, data.problems, den, n_resamples=n_resamples, seed=seed)
    n_piv = den.sum(axis=0)
    gains = _ratio((gain * piv).sum(axis=0), n_piv)
    accuracy = (signals == y).mean(axis=0)
    return [CoverageRow(float(c), float(accuracy[i]), float(gains[i]), cis[i]) for i, c in enumerate(levels)]


@dataclass(frozen=True)
class ThresholdRow:
    """Uniform replacement applied where the margin is at most ``max_margin`` (§5, margin-threshold sweep)."""

    max_margin: int
    call_rate: float
    accuracy: float


def threshold_sweep(data: PanelData) -> list[ThresholdRow]:
    """Accuracy and call rate when the signal is called on every query with margin ≤ t, for each t.

    Every t that covers the pivotal set gives the same accuracy (Proposition 1):
    calls outside it cannot change a single-substitution decision.
    """
    s = tallies(data.votes)
    m = np.abs(2 * s - data.k)
    base = panel_correct(data.votes, data.labels)
    replaced = uniform_expected_correct(s, data.k, data.labels, data.signal)
    rows = []
    for t in range(data.k % 2, data.k + 1, 2):
        called = m <= t
        rows.append(ThresholdRow(t, float(called.mean()), float(np.where(called, replaced, base).mean())))
    return rows


@dataclass(frozen=True)
class PolicyRow:
    """One policy of Table 7: accuracy, gain over the panel (with CI) and verifier call rate."""

    policy: str
    accuracy: float
    gain: float
    ci: Interval
    call_rate: float


def _policy_columns(data: PanelData, seed: int) -> list[tuple[str, FloatArray, float]]:
    y = data.labels.astype(np.int64)
    s = tallies(data.votes)
    piv = pivotal(s, data.k)
    rng = np.random.Generator(np.random.PCG64(seed))
    columns: list[tuple[str, FloatArray, float]] = [("panel only", panel_correct(data.votes, y), 0.0)]
    rules = [UNIFORM, *(Fixed(j) for j in range(data.k)), MAJORITY_SIDE]
    for rule in rules:
        universal = expected_correct(rule, data.votes, y, data.signal)
        if rule.randomized:  # an exact expectation: gating keeps it on pivotal queries, the panel elsewhere
            gated = np.where(piv, universal, columns[0][1])
        else:
            gated = (gated_decisions(data.votes, data.signal, rule, rng)[0] == y).astype(np.float64)
        columns.append((f"{rule.name}, universal", universal, 1.0))
        columns.append((f"{rule.name}, gated", gated, float(piv.mean())))
    columns.append(("signal only", (data.signal == y).astype(np.float64), 1.0))
    best = int(np.argmax((data.votes == y[:, None]).mean(axis=0)))
    columns.append((f"best judge ({data.judges[best]})", (data.votes[:, best] == y).astype(np.float64), 0.0))
    return columns


def policy_table(data: PanelData, *, n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> list[PolicyRow]:
    """Table 7: each replacement rule universal and gated (Algorithm 1), signal-only and the best judge.

    Uniform rows are exact expectations; gated rows are computed, not copied,
    so their equality with the universal rows is Proposition 1 observed.
    """
    columns = _policy_columns(data, seed)
    base = columns[0][1]
    diffs = np.column_stack([correct - base for _, correct, _ in columns])
    cis = ratio_intervals(diffs, data.problems, n_resamples=n_resamples, seed=seed)
    return [
        PolicyRow(name, float(correct.mean()), float((correct - base).mean()), cis[i], rate)
        for i, (name, correct, rate) in enumerate(columns)
    ]
