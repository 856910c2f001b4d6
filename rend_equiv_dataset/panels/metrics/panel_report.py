"""The panel report: report.json (docs/design.md §7.6), report.md with the paper's tables, and plots.

:func:`build_report` computes every number once; :mod:`.render` turns the
dict into markdown and figures. All rates and gains are fractions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

import numpy as np

from rend_equiv_dataset import __version__
from rend_equiv_dataset.stats import DEFAULT_RESAMPLES, cluster_bootstrap, percentile_interval
from rend_equiv_dataset.panels.metrics.analyses import (
    N_PERMUTATIONS,
    coverage_sweep,
    even_asymmetry,
    permutation_control,
    policy_table,
    subpanel_table,
    threshold_sweep,
)
from rend_equiv_dataset.panels.metrics.coverage import SWEEP_LEVELS
from rend_equiv_dataset.panels.metrics.data import PanelData
from rend_equiv_dataset.panels.metrics.effective import error_vectors, mean_upper, n_eff, n_eff_with_signal
from rend_equiv_dataset.panels.metrics.effective import correlation_from_moments
from rend_equiv_dataset.panels.metrics.gains import panel_correct, per_query_gain, stratified_gain
from rend_equiv_dataset.panels.metrics.intervals import n_eff_change_samples, ratio_intervals
from rend_equiv_dataset.panels.metrics.judges import error_by_margin, judge_table, region_rates, voter_stats
from rend_equiv_dataset.panels.metrics.replacement import MAJORITY_SIDE, Rule, RuleKind, expected_correct
from rend_equiv_dataset.panels.metrics.votes import margins, possible_margins, tallies


_ZERO = 1e-12  # float sums of k-ths: a gain within this of 0 is not counted as positive


def subpanel_sizes(k: int) -> list[int]:
    """Sub-panel sizes analysed for a k-judge panel: the odd sizes 3…k−1 and, for odd k, the even k−1.

    >>> subpanel_sizes(7), subpanel_sizes(9), subpanel_sizes(6), subpanel_sizes(3)
    ([3, 5, 6], [3, 5, 7, 8], [3, 5], [2])
    """
    sizes = list(range(3, k, 2))
    if k % 2 == 1 and k - 1 >= 2:
        sizes.append(k - 1)
    return sorted(sizes)


def build_report(
    data: PanelData,
    *,
    coverage: float | None = None,
    sweep_levels: Sequence[float] = SWEEP_LEVELS,
    n_resamples: int = DEFAULT_RESAMPLES,
    n_permutations: int = N_PERMUTATIONS,
    seed: int = 0,
    provenance: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Every number of the panel report, as JSON-ready values (NaN/inf become null on writing)."""
    report: dict[str, Any] = {"k": data.k, "n": data.n, "n_problems": int(np.unique(data.problems).size)}
    report["coverage"] = coverage
    report["accuracy"] = _accuracy(data)
    report.update(_gains(data, n_resamples, seed))
    report["n_eff"] = _n_eff(data, n_resamples, seed)
    report["phi"] = _phi(data)
    report["by_margin"] = _by_margin(data, n_resamples, seed)
    report["regions"] = {name: asdict(rates) for name, rates in region_rates(data.votes, data.labels).items()}
    report["judges"] = [{"name": name, **asdict(stats)} for name, stats in zip(data.judges, judge_table(data.votes, data.labels))]
    report["signal"] = asdict(voter_stats(data.labels, data.signal))
    report["subpanels"] = {str(size): _subpanels(data, size, n_resamples, seed) for size in subpanel_sizes(data.k)}
    report["even_asymmetry"] = [asdict(row) for row in even_asymmetry(data)]
    report["permutation_control"] = asdict(permutation_control(data, n_permutations, seed))
    report["coverage_sweep"] = (
        None if data.assertions is None else [asdict(row) for row in coverage_sweep(data, sweep_levels, n_resamples=n_resamples, seed=seed)]
    )
    report["policy"] = [asdict(row) for row in policy_table(data, n_resamples=n_resamples, seed=seed)]
    report["threshold_sweep"] = [asdict(row) for row in threshold_sweep(data)]
    report["by_benchmark"] = _by_benchmark(data)
    report["provenance"] = {
        "package_version": __version__,
        "seed": seed,
        "n_resamples": n_resamples,
        "n_permutations": n_permutations,
        **(provenance or {}),
    }
    return report


def _accuracy(data: PanelData) -> dict[str, Any]:
    y = data.labels
    fixed = [float(expected_correct(Rule(RuleKind.FIXED, j), data.votes, y, data.signal).mean()) for j in range(data.k)]
    judge_accuracy = (data.votes == y[:, None]).mean(axis=0)
    best = int(np.argmax(judge_accuracy))
    return {
        "panel": float(panel_correct(data.votes, y).mean()),
        "uniform": stratified_gain(data).rule_accuracy,
        "majority_side": float(expected_correct(MAJORITY_SIDE, data.votes, y, data.signal).mean()),
        "fixed": fixed,
        "signal_only": float(np.mean(data.signal == y)),
        "best_judge": float(judge_accuracy[best]),
        "best_judge_index": best,
        "best_judge_name": data.judges[best],
    }


def _gains(data: PanelData, n_resamples: int, seed: int) -> dict[str, Any]:
    gain, piv = per_query_gain(data)
    summary = stratified_gain(data)
    samples = cluster_bootstrap(gain * piv, data.problems, piv.astype(np.float64), n_resamples=n_resamples, seed=seed)[:, 0]
    ci = percentile_interval(samples)
    defined = samples[~np.isnan(samples)]
    wrong = panel_correct(data.votes, data.labels) == 0
    return {
        "pivotal": {
            "n": summary.n_pivotal,
            "fraction": summary.n_pivotal / data.n,
            "gain": summary.pivotal_gain,
            "ci": list(ci),
            "p_gain_le_zero": float(np.mean(defined <= 0)) if defined.size else math.nan,
            "panel_accuracy": float(1 - wrong[piv].mean()) if piv.any() else math.nan,
            "signal_accuracy": float(np.mean(data.signal[piv] == data.labels[piv])) if piv.any() else math.nan,
        },
        "nonpivotal": {"n": summary.n_nonpivotal, "gain": summary.nonpivotal_gain},
        "overall_gain": summary.rule_accuracy - summary.panel_accuracy,
        "call_rate": summary.n_pivotal / data.n,
        "errors": {"total": int(wrong.sum()), "pivotal": int(wrong[piv].sum()), "nonpivotal": int(wrong[~piv].sum())},
    }


def _n_eff(data: PanelData, n_resamples: int, seed: int) -> dict[str, Any]:
    errors = error_vectors(data.votes, data.labels)
    signal_errors = (data.signal != data.labels).astype(np.int8)
    panel, with_signal = n_eff(errors), n_eff_with_signal(errors, signal_errors)
    samples = n_eff_change_samples(errors, signal_errors, data.problems, n_resamples=n_resamples, seed=seed)
    finite = samples[np.isfinite(samples)]
    return {"panel": panel, "with_signal": with_signal, "change": with_signal - panel, "change_ci": list(percentile_interval(finite))}


def _phi(data: PanelData) -> dict[str, float]:
    x = np.column_stack([error_vectors(data.votes, data.labels), data.signal != data.labels]).astype(np.float64)
    phi = correlation_from_moments(np.float64(x.shape[0]), x.sum(axis=0), x.T @ x)
    k = data.k
    signal_pairs = phi[k, :k]
    signal_pairs = signal_pairs[~np.isnan(signal_pairs)]
    return {
        "judge_judge": float(mean_upper(phi[:k, :k])),
        "signal_judge": float(signal_pairs.mean()) if signal_pairs.size else math.nan,
    }


def _by_margin(data: PanelData, n_resamples: int, seed: int) -> list[dict[str, Any]]:
    m = margins(tallies(data.votes), data.k)
    wrong = (panel_correct(data.votes, data.labels) == 0).astype(np.float64)
    gain, _ = per_query_gain(data)
    levels = possible_margins(data.k)
    at = np.column_stack([m == level for level in levels]).astype(np.float64)
    cis = ratio_intervals(np.column_stack([wrong[:, None] * at, gain[:, None] * at]), data.problems, np.column_stack([at, at]),
                          n_resamples=n_resamples, seed=seed)
    rows = []
    for i, row in enumerate(error_by_margin(data.votes, data.labels)):
        count = at[:, i].sum()
        rows.append(
            {
                "margin": row.margin,
                "normalized_margin": row.margin / data.k,
                "n": row.n,
                "error_rate": row.error_rate,
                "ci": list(cis[i]),
                "uniform_gain": float((gain * at[:, i]).sum() / count) if count else math.nan,
                "gain_ci": list(cis[len(levels) + i]),
            }
        )
    return rows


def _subpanels(data: PanelData, size: int, n_resamples: int, seed: int) -> dict[str, Any]:
    rows = subpanel_table(data, size, n_resamples=n_resamples, seed=seed)
    pivotal_gains = [row.pivotal_gain for row in rows if row.n_pivotal]
    return {
        "n_subsets": len(rows),
        "all_nonpivotal_zero": all(row.nonpivotal_gain == 0.0 or row.n_nonpivotal == 0 for row in rows),  # exact, no tolerance
        "pivotal_positive": sum(gain > _ZERO for gain in pivotal_gains),
        "pivotal_gain_range": [min(pivotal_gains), max(pivotal_gains)] if pivotal_gains else [math.nan, math.nan],
        "rows": [{**asdict(row), "judges": [data.judges[j] for j in row.judges]} for row in rows],
    }


def _by_benchmark(data: PanelData) -> dict[str, Any] | None:
    if data.benchmarks is None:
        return None
    out = {}
    for name in sorted(set(data.benchmarks.tolist())):
        part = stratified_gain(data.subset(data.benchmarks == name))
        out[name] = {
            "n": part.n,
            "panel_accuracy": part.panel_accuracy,
            "uniform_accuracy": part.rule_accuracy,
            "pivotal": {"n": part.n_pivotal, "gain": part.pivotal_gain},
            "nonpivotal": {"n": part.n_nonpivotal, "gain": part.nonpivotal_gain},
        }
    return out



