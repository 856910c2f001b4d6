"""The paper's evaluation of one model on any number of data seeds (paper §5–6, Appendix C; docs/design.md §3.5, §7.4).

:func:`evaluate` turns per-instance scores into the report dictionary: the
headline numbers with template-clustered bootstrap intervals (10,000
resamples, one vectorised pass per block of resamples), Table 1 (detection by
edit type next to the theory's prediction), Table 2 (every signal's AUROC,
RC-AUC, ECE and IBEM detection at a matched false-positive rate), the Fisher
tests, the no-residual fraction, the oracle bound, threshold
cross-validation, per-seed values, the swap-versus-cycle comparison, the
difficulty-control check and the error taxonomy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from rend_equiv_dataset.figures.release.read import RenderingRow
from rend_equiv_dataset.figures.scoring import metrics as m
from rend_equiv_dataset.stats import DEFAULT_RESAMPLES, cluster_codes, percentile_interval, resample_counts
from rend_equiv_dataset.figures.scoring.instances import IBEM_REA, InstanceScore
from rend_equiv_dataset.figures.scoring.taxonomy import instance_error, predicted_detection, taxonomy_counts
from rend_equiv_dataset.schema import NUMBER
from rend_equiv_dataset.transforms import Transform

NUMERIC_EDITS = ("scale", "offset")
NON_NUMERIC_EDITS = ("swap", "zoom")
PROBABILITY_SIGNALS = frozenset({"ecs", "rea", "combined", "self_consistency", "logprob"})
CV_GRID = tuple(round(0.05 * k, 2) for k in range(1, 21))
Stat = Callable[[m.Weights], NDArray[np.float64]]


@dataclass
class Columns:
    """Per-instance arrays the statistics read."""

    correct: NDArray[np.bool_]
    ibem: NDArray[np.bool_]
    high_rea: NDArray[np.bool_]
    no_residual: NDArray[np.bool_]
    seeds: NDArray[np.int64]
    templates: NDArray[np.str_]
    signals: dict[str, NDArray[np.float64]]


def columns(scores: Sequence[InstanceScore]) -> Columns:
    """Arrays of the per-instance quantities; a baseline an instance lacks is NaN."""
    names = ["ecs", "rea", "combined", *sorted({k for s in scores for k in s.baselines})]
    signals = {
        "ecs": np.array([s.ecs for s in scores]),
        "rea": np.array([s.rea for s in scores]),
        "combined": np.array([s.combined for s in scores]),
    }
    for name in names[3:]:
        signals[name] = np.array([s.baselines.get(name, math.nan) for s in scores])
    return Columns(
        correct=np.array([s.correct for s in scores], dtype=bool),
        ibem=np.array([s.ibem for s in scores], dtype=bool),
        high_rea=np.array([s.rea >= IBEM_REA for s in scores], dtype=bool),
        no_residual=np.array([not any(s.residual_flags().values()) for s in scores], dtype=bool),
        seeds=np.array([s.data_seed for s in scores], dtype=np.int64),
        templates=np.array([s.template_id for s in scores]),
        signals=signals,
    )


def confidence(name: str, values: NDArray[np.float64]) -> NDArray[np.float64] | None:
    """The signal as a probability for ECE, or ``None`` when it is not one (entropies)."""
    if name not in PROBABILITY_SIGNALS:
        return None
    if name == "logprob":
        return np.exp(np.minimum(values, 0.0))
    return np.clip(values, 0.0, 1.0)


class Bootstrap:
    """Collect statistics, then evaluate them all on each block of template-clustered resamples."""

    def __init__(self, templates: NDArray[np.str_], n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> None:
        self.codes, self.n_clusters = cluster_codes(templates)
        self.n_resamples, self.seed = n_resamples, seed
        self.stats: dict[str, Stat] = {}
        self.differences: dict[str, tuple[str, str]] = {}

    def add(self, key: str, stat: Stat) -> None:
        self.stats[key] = stat

    def add_difference(self, key: str, left: str, right: str) -> None:
        """A statistic that is ``left − right`` of two added ones, resample by resample."""
        self.differences[key] = (left, right)

    def run(self) -> dict[str, dict[str, float | list[float] | None]]:
        """Point value and 95% percentile interval of every statistic."""
        whole = m.Weights.point(self.codes, self.n_clusters)
        points = {k: float(f(whole)[0]) for k, f in self.stats.items()}
        samples: dict[str, list[NDArray[np.float64]]] = {k: [] for k in self.stats}
        if self.n_resamples > 0 and self.n_clusters > 0:
            for counts in resample_counts(self.n_clusters, self.n_resamples, self.seed):
                weights = m.Weights(counts.astype(np.float32), self.codes)
                for key, stat in self.stats.items():
                    samples[key].append(stat(weights))
        for key, (left, right) in self.differences.items():
            points[key] = points[left] - points[right]
            samples[key] = [a - b for a, b in zip(samples[left], samples[right])]
        out: dict[str, dict[str, float | list[float] | None]] = {}
        for key, point in points.items():
            ci = percentile_interval(np.concatenate(samples[key])) if samples[key] else (math.nan, math.nan)
            out[key] = {"value": _num(point), "ci": None if math.isnan(ci[0]) else [ci[0], ci[1]]}
        return out


def _num(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def _subset(stat: Callable[..., NDArray[np.float64]], mask: NDArray[np.bool_], *arrays: NDArray) -> Stat:
    """A statistic on the rows in ``mask`` only."""
    picked = [a[mask] for a in arrays]
    return lambda W: stat(W.subset(mask), *picked)


def _ecs_budget(cols: Columns, threshold: float) -> Stat:
    flagged_correct = (cols.signals["ecs"] < threshold) & cols.correct
    return lambda W: W.sums(flagged_correct.astype(np.float64))


def _at_threshold(cols: Columns, name: str, threshold: float) -> Stat:
    flagged = (cols.signals[name] < threshold).astype(np.float64)
    return lambda W: m.weighted_mean(W.subset(cols.ibem), flagged[cols.ibem])


def _matched(cols: Columns, name: str, threshold: float) -> Stat:
    """IBEM detection of a signal at ECS's false-positive rate (every signal, ECS included, by the same rule).

    The operating point is the most favourable threshold among those whose
    false-positive rate on correct instances equals ECS's at ``threshold``
    (see :func:`~rend_equiv_dataset.figures.scoring.metrics.matched_fpr_detection`),
    so no signal is handicapped by where its threshold falls inside a gap
    between correct scores; ECS's detection at the threshold itself is
    reported apart (``ibem.at_threshold``).
    """
    values = cols.signals[name]
    have = ~np.isnan(values)
    budget = _ecs_budget(cols, threshold)
    correct_share = _correct_share(cols, have)
    return lambda W: m.matched_fpr_detection(
        W.subset(have), values[have], cols.correct[have], cols.ibem[have], budget(W) * correct_share(W)
    )


def _correct_share(cols: Columns, have: NDArray[np.bool_]) -> Stat:
    """Scales ECS's false-positive budget to the rows where a baseline exists (same FPR)."""
    correct = cols.correct.astype(np.float64)
    with_signal = (cols.correct & have).astype(np.float64)

    def share(W: m.Weights) -> NDArray[np.float64]:
        total = W.sums(correct)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total > 0, W.sums(with_signal) / np.where(total > 0, total, 1), 0.0)

    return share


def add_headline_stats(boot: Bootstrap, cols: Columns, threshold: float) -> None:
    """Register every headline statistic that gets an interval."""
    everyone = np.ones(len(cols.correct), dtype=bool)
    boot.add("accuracy", lambda W: m.weighted_mean(W, cols.correct.astype(np.float64)))
    boot.add("ibem.rate", lambda W: m.weighted_mean(W, cols.ibem.astype(np.float64)))
    boot.add("no_residual", _subset(m.weighted_mean, cols.ibem, cols.no_residual.astype(np.float64)))
    boot.add("ibem.matched_fpr", _subset(m.weighted_mean, cols.correct, (cols.signals["ecs"] < threshold).astype(np.float64)))
    for name, values in cols.signals.items():
        have = ~np.isnan(values)
        for region, mask in (("all", everyone & have), ("high_rea", cols.high_rea & have)):
            boot.add(f"{name}.{region}.auroc", _subset(m.auroc, mask, cols.correct, values))
            boot.add(f"{name}.{region}.rc_auc", _subset(m.rc_auc, mask, cols.correct, values))
            conf = confidence(name, values)
            if conf is not None:
                boot.add(f"{name}.{region}.ece", _subset(m.ece, mask, cols.correct, conf))
        boot.add(f"ibem.detection.{name}", _matched(cols, name, threshold))
    for name in ("ecs", "combined"):
        boot.add(f"ibem.at_threshold.{name}", _at_threshold(cols, name, threshold))
    boot.add_difference("combined_gain.auroc", "combined.all.auroc", "rea.all.auroc")


def signal_table(stats: dict, cols: Columns) -> dict[str, dict]:
    """``signals`` of docs/design.md §7.4: AUROC (scikit-learn), RC-AUC and ECE per signal, overall and REA ≥ 0.75."""
    from sklearn.metrics import roc_auc_score

    table = {}
    for name, values in cols.signals.items():
        have = ~np.isnan(values)
        entry: dict = {"n": int(have.sum())}
        for region, mask in (("all", have), ("high_rea", cols.high_rea & have)):
            y = cols.correct[mask]
            sk = float(roc_auc_score(y, values[mask])) if 0 < y.sum() < y.size else None
            block = {
                "n": int(mask.sum()),
                "auroc": sk,
                "auroc_ci": stats[f"{name}.{region}.auroc"]["ci"],
                "rc_auc": stats[f"{name}.{region}.rc_auc"]["value"],
                "rc_auc_ci": stats[f"{name}.{region}.rc_auc"]["ci"],
                "ece": stats.get(f"{name}.{region}.ece", {}).get("value"),
                "ece_ci": stats.get(f"{name}.{region}.ece", {}).get("ci"),
            }
            if region == "all":
                entry.update({k: v for k, v in block.items() if k != "n"})
            else:
                entry["high_rea"] = block
        table[name] = entry
    return table


def detection_by_edit(
    scores: Sequence[InstanceScore],
    errors: dict[str, Transform | None],
    edit_rows: dict[str, dict[str, RenderingRow]],
    templates: NDArray[np.str_],
    n_resamples: int,
    seed: int,
) -> dict[str, dict]:
    """Table 1: per edit type, IBEM instances with a residual above τ, with intervals and the theory's prediction."""
    from scipy.stats import binomtest

    edits = sorted({g for s in scores for g in s.residuals})
    boot = Bootstrap(templates, n_resamples, seed)
    table: dict[str, dict] = {}
    flags = [s.residual_flags() if s.ibem else {} for s in scores]
    for g in edits:
        has = np.array([g in f for f in flags])
        hit = np.array([f.get(g, False) for f in flags], dtype=np.float64)
        boot.add(g, _subset(m.weighted_mean, has, hit))
        n, flagged = int(has.sum()), int(hit.sum())
        exact = binomtest(flagged, n).proportion_ci(method="exact") if n else None
        predicted = [
            predicted_detection(e, edit_rows[s.instance_id][g].transform, s.answer_type, _target(s))
            for s in scores
            if s.ibem and g in s.residuals and (e := errors.get(s.instance_id)) is not None
        ]
        table[g] = {
            "flagged": flagged,
            "n": n,
            "rate": flagged / n if n else None,
            "ci_exact": [float(exact.low), float(exact.high)] if exact else None,
            "predicted": float(np.mean(predicted)) if predicted else None,
            "predicted_n": len(predicted),
        }
    for g, result in boot.run().items():
        table[g]["ci"] = result["ci"]
    return table


def _target(score: InstanceScore) -> float | str:
    return float(score.target) if score.answer_type == NUMBER else score.target


def fisher_tests(table: dict[str, dict]) -> list[dict]:
    """Fisher exact tests on Table 1: numeric vs non-numeric, scale vs offset, swap vs zoom; Bonferroni over the three."""
    from scipy.stats import fisher_exact

    def pooled(edits: Sequence[str]) -> tuple[int, int]:
        return sum(table[g]["flagged"] for g in edits if g in table), sum(table[g]["n"] for g in edits if g in table)

    comparisons = [("numeric", NUMERIC_EDITS, "non_numeric", NON_NUMERIC_EDITS), ("scale", ("scale",), "offset", ("offset",)),
                   ("swap", ("swap",), "zoom", ("zoom",))]
    out: list[dict[str, Any]] = []
    for left, left_edits, right, right_edits in comparisons:
        (a, n1), (b, n2) = pooled(left_edits), pooled(right_edits)
        if n1 == 0 or n2 == 0:
            out.append({"comparison": f"{left} vs {right}", "counts": [[a, n1 - a], [b, n2 - b]], "p": None, "p_bonferroni": None})
            continue
        p = float(fisher_exact([[a, n1 - a], [b, n2 - b]]).pvalue)
        out.append({"comparison": f"{left} vs {right}", "counts": [[a, n1 - a], [b, n2 - b]], "p": p, "p_bonferroni": min(1.0, p * len(comparisons))})
    return out


def no_residual(scores: Sequence[InstanceScore], threshold: float) -> dict:
    """IBEM instances with no residual on any edit (the joint-centralizer mass, Theorem 2), and the oracle bound."""
    from scipy.stats import binomtest

    ibem = [s for s in scores if s.ibem]
    none = sum(not any(s.residual_flags().values()) for s in ibem)
    n = len(ibem)
    ci = binomtest(none, n).proportion_ci(method="exact") if n else None
    return {
        "count": none,
        "n": n,
        "fraction": none / n if n else None,
        "ci_exact": [float(ci.low), float(ci.high)] if ci else None,
        "oracle_best_edit": (n - none) / n if n else None,
        "suite_at_threshold": sum(s.ecs < threshold for s in ibem) / n if n else None,
    }


def corollary3(scores: Sequence[InstanceScore], threshold: float) -> dict:
    """On IBEM, the combined signal min(REA, ECS) flags exactly what ECS flags when threshold ≤ 0.75 (Corollary 3)."""
    ibem = [s for s in scores if s.ibem]
    ecs = {s.instance_id for s in ibem if s.ecs < threshold}
    combined = {s.instance_id for s in ibem if s.combined < threshold}
    n = len(ibem)
    return {
        "ecs": len(ecs) / n if n else None,
        "combined": len(combined) / n if n else None,
        "identical": ecs == combined,
    }


def _rates(scores: Sequence[InstanceScore], threshold: float) -> tuple[float | None, float | None]:
    """(IBEM detection, false-positive rate on correct) of ECS < threshold."""
    ibem = [s for s in scores if s.ibem]
    good = [s for s in scores if s.correct]
    det = sum(s.ecs < threshold for s in ibem) / len(ibem) if ibem else None
    fpr = sum(s.ecs < threshold for s in good) / len(good) if good else None
    return det, fpr


def threshold_cv(scores: Sequence[InstanceScore], default: float) -> list[dict]:
    """Fit the ECS threshold on one seed (Youden's J for flagging wrong answers), test on the other seeds."""
    seeds = sorted({s.data_seed for s in scores})
    if len(seeds) < 2:
        return []
    out = []
    for train_seed in seeds:
        train = [s for s in scores if s.data_seed == train_seed]
        test = [s for s in scores if s.data_seed != train_seed]
        chosen = max(CV_GRID, key=lambda t: (_youden(train, t), -abs(t - default), -t))
        (det_c, fpr_c), (det_d, fpr_d) = _rates(test, chosen), _rates(test, default)
        out.append({
            "train_seed": train_seed,
            "threshold": chosen,
            "test_detection": det_c,
            "test_fpr": fpr_c,
            "default_detection": det_d,
            "default_fpr": fpr_d,
        })
    return out


def _youden(scores: Sequence[InstanceScore], threshold: float) -> float:
    wrong = [s for s in scores if not s.correct]
    good = [s for s in scores if s.correct]
    tpr = sum(s.ecs < threshold for s in wrong) / len(wrong) if wrong else 0.0
    fpr = sum(s.ecs < threshold for s in good) / len(good) if good else 0.0
    return tpr - fpr


def per_seed(scores: Sequence[InstanceScore], cols: Columns, threshold: float) -> dict[str, dict]:
    """Accuracy, AUROC per signal, IBEM size and ECS detection for each data seed."""
    out = {}
    for seed in sorted(set(cols.seeds.tolist())):
        mask = cols.seeds == seed
        chosen = [s for s in scores if s.data_seed == seed]
        det, fpr = _rates(chosen, threshold)
        out[str(seed)] = {
            "n": int(mask.sum()),
            "accuracy": float(cols.correct[mask].mean()),
            "auroc": {name: _seed_auroc(cols.correct, v, mask & ~np.isnan(v)) for name, v in cols.signals.items()},
            "ibem_n": int(cols.ibem[mask].sum()),
            "ibem_detection": det,
            "fpr": fpr,
        }
    return out


def _seed_auroc(correct: NDArray[np.bool_], values: NDArray[np.float64], mask: NDArray[np.bool_]) -> float | None:
    if not mask.any():
        return None
    return _num(float(m.auroc(m.Weights.unit(int(mask.sum())), correct[mask], values[mask])[0]))


def matched_cycle(scores: Sequence[InstanceScore]) -> dict | None:
    """Swap versus cycle on instances carrying both (paper §4.3): flagged counts, discordant pairs, exact McNemar."""
    from scipy.stats import binomtest

    both = [s for s in scores if "swap" in s.residuals and "cycle" in s.residuals]
    if not both:
        return None

    def block(group: Sequence[InstanceScore]) -> dict:
        flags = [s.residual_flags() for s in group]
        swap = sum(f["swap"] for f in flags)
        cycle = sum(f["cycle"] for f in flags)
        only_swap = sum(f["swap"] and not f["cycle"] for f in flags)
        only_cycle = sum(f["cycle"] and not f["swap"] for f in flags)
        discordant = only_swap + only_cycle
        return {
            "n": len(group),
            "swap_flagged": swap,
            "cycle_flagged": cycle,
            "only_swap": only_swap,
            "only_cycle": only_cycle,
            "mcnemar_p": float(binomtest(only_cycle, discordant).pvalue) if discordant else None,
        }

    return {"all": block(both), "wrong": block([s for s in both if not s.correct])}


def edit_accuracy(scores: Sequence[InstanceScore]) -> dict[str, dict]:
    """Base versus edited accuracy per edit type, over the instances carrying the edit (paper §5, difficulty controls)."""
    out = {}
    for g in sorted({g for s in scores for g in s.edit_correct}):
        having = [s for s in scores if g in s.edit_correct]
        base = sum(s.correct for s in having) / len(having)
        edited = sum(s.edit_correct[g] for s in having) / len(having)
        out[g] = {"n": len(having), "base_accuracy": base, "edited_accuracy": edited, "difference": edited - base}
    return out


def fit_errors(
    scores: Sequence[InstanceScore], edit_rows: dict[str, dict[str, RenderingRow]]
) -> dict[str, tuple[str, Transform | None]]:
    """The fitted error (class, map) of every instance whose base answer is wrong."""
    return {
        s.instance_id: instance_error(s, {g: r.target for g, r in edit_rows[s.instance_id].items()})
        for s in scores
        if not s.correct
    }


def evaluate(
    scores: Sequence[InstanceScore],
    edit_rows: dict[str, dict[str, RenderingRow]],
    *,
    threshold: float = 0.5,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> dict:
    """Every table of the report (docs/design.md §7.4) from per-instance scores."""
    cols = columns(scores)
    boot = Bootstrap(cols.templates, n_resamples, seed)
    add_headline_stats(boot, cols, threshold)
    stats = boot.run()
    fitted = fit_errors(scores, edit_rows)
    errors = {k: e for k, (_, e) in fitted.items()}
    table1 = detection_by_edit(scores, errors, edit_rows, cols.templates, n_resamples, seed)
    ibem_ids = {s.instance_id for s in scores if s.ibem}
    return {
        "n_instances": len(scores),
        "seeds": sorted(set(cols.seeds.tolist())),
        "accuracy": stats["accuracy"]["value"],
        "accuracy_ci": stats["accuracy"]["ci"],
        "threshold": threshold,
        "ibem": {
            "n": int(cols.ibem.sum()),
            "rate": stats["ibem.rate"]["value"],
            "rate_ci": stats["ibem.rate"]["ci"],
            "matched_fpr": stats["ibem.matched_fpr"]["value"],
            "matched_fpr_ci": stats["ibem.matched_fpr"]["ci"],
            "detection": {name: stats[f"ibem.detection.{name}"]["value"] for name in cols.signals},
            "detection_ci": {name: stats[f"ibem.detection.{name}"]["ci"] for name in cols.signals},
            "at_threshold": {name: stats[f"ibem.at_threshold.{name}"]["value"] for name in ("ecs", "combined")},
            "at_threshold_ci": {name: stats[f"ibem.at_threshold.{name}"]["ci"] for name in ("ecs", "combined")},
            "corollary3": corollary3(scores, threshold),
        },
        "signals": signal_table(stats, cols),
        "combined_gain": {"auroc": stats["combined_gain.auroc"]["value"], "ci": stats["combined_gain.auroc"]["ci"]},
        "detection_by_edit": table1,
        "fisher": fisher_tests(table1),
        **_no_residual_keys(no_residual(scores, threshold), stats["no_residual"]["ci"]),
        "threshold_cv": threshold_cv(scores, threshold),
        "per_seed": per_seed(scores, cols, threshold),
        "matched_cycle": matched_cycle(scores),
        "edit_accuracy": edit_accuracy(scores),
        "taxonomy": {
            "wrong": taxonomy_counts([c for c, _ in fitted.values()]),
            "ibem": taxonomy_counts([c for k, (c, _) in fitted.items() if k in ibem_ids]),
        },
        "bootstrap": {"n_resamples": n_resamples, "seed": seed, "clusters": "template_id"},
    }


def _no_residual_keys(block: dict, ci: float | list[float] | None) -> dict:
    return {"no_residual_fraction": block["fraction"], "no_residual": {**block, "ci": ci}}
