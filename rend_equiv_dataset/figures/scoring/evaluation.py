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
from collections.abc import Callable, Mapping, Sequence
from array import array
from dataclasses import dataclass, field
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
class EditColumns:
    """Per-instance arrays of one edit type: carried, residual above τ, edited answer correct, predicted detection."""

    present: NDArray[np.bool_]
    flagged: NDArray[np.bool_]
    correct: NDArray[np.bool_]
    predicted: NDArray[np.float64]
    """The theory's detection probability under the instance's fitted error; NaN when there is none."""


@dataclass
class Columns:
    """Per-instance arrays every table of the report reads: the sufficient statistics of a scoring run.

    A few numbers per instance (no answers, no renderings), so a run of any
    size holds them at once, and shards of a run concatenate into the
    unsharded columns (:meth:`concat`): the report is a function of them
    alone (:func:`evaluate_columns`).
    """

    correct: NDArray[np.bool_]
    ibem: NDArray[np.bool_]
    high_rea: NDArray[np.bool_]
    no_residual: NDArray[np.bool_]
    seeds: NDArray[np.int64]
    templates: NDArray[np.str_]
    signals: dict[str, NDArray[np.float64]]
    edits: dict[str, EditColumns] = field(default_factory=dict)
    error_class: NDArray[np.str_] = field(default_factory=lambda: np.array([], dtype=str))
    """The fitted error class of each wrong instance ("" for a correct one)."""

    def __len__(self) -> int:
        return int(self.correct.size)

    def arrays(self) -> dict[str, NDArray]:
        """Flat name → array mapping (for ``numpy.savez``; no pickled objects)."""
        out: dict[str, NDArray] = {name: getattr(self, name) for name in _PLAIN}
        out.update({f"signal/{name}": values for name, values in self.signals.items()})
        for g, edit in self.edits.items():
            out.update({f"edit/{g}/{part}": getattr(edit, part) for part in _EDIT_PARTS})
        return out

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, NDArray]) -> Columns:
        """Inverse of :meth:`arrays`."""
        signals = {k.split("/", 1)[1]: np.asarray(v, dtype=np.float64) for k, v in arrays.items() if k.startswith("signal/")}
        names = sorted({k.split("/")[1] for k in arrays if k.startswith("edit/")})
        edits = {g: EditColumns(*(np.asarray(arrays[f"edit/{g}/{part}"]) for part in _EDIT_PARTS)) for g in names}
        return cls(**{name: np.asarray(arrays[name]) for name in _PLAIN}, signals=_ordered(signals), edits=edits)

    @classmethod
    def concat(cls, parts: Sequence[Columns]) -> Columns:
        """The columns of consecutive runs, one after the other (a signal or edit a part lacks is NaN / absent there)."""
        names = _ordered({name: np.empty(0) for part in parts for name in part.signals})
        edits = sorted({g for part in parts for g in part.edits})

        def edit_part(part: Columns, g: str, name: str) -> NDArray:
            if g in part.edits:
                return getattr(part.edits[g], name)
            return np.full(len(part), np.nan) if name == "predicted" else np.zeros(len(part), dtype=bool)

        return cls(
            **{name: np.concatenate([getattr(part, name) for part in parts]) for name in _PLAIN},
            signals={n: np.concatenate([p.signals.get(n, np.full(len(p), np.nan)) for p in parts]) for n in names},
            edits={g: EditColumns(*(np.concatenate([edit_part(p, g, x) for p in parts]) for x in _EDIT_PARTS)) for g in edits},
        )


_PLAIN = ("correct", "ibem", "high_rea", "no_residual", "seeds", "templates", "error_class")
_EDIT_PARTS = ("present", "flagged", "correct", "predicted")


def _ordered(signals: dict[str, NDArray[np.float64]]) -> dict[str, NDArray[np.float64]]:
    """ECS, REA, combined first, then the baselines by name (the report's order)."""
    head = [name for name in ("ecs", "rea", "combined") if name in signals]
    return {name: signals[name] for name in [*head, *sorted(set(signals) - set(head))]}


class ColumnsBuilder:
    """Collect :class:`Columns` one instance at a time, in compact arrays (a few bytes per instance)."""

    def __init__(self) -> None:
        self._flags = {name: array("b") for name in ("correct", "ibem", "high_rea", "no_residual")}
        self._seeds = array("q")
        self._templates: list[str] = []
        self._classes: list[str] = []
        self._signals: dict[str, tuple[array, array]] = {}
        self._edits: dict[str, tuple[array, array, array, array]] = {}

    def add(self, score: InstanceScore, edit_rows: Mapping[str, RenderingRow] | None = None) -> tuple[str, Transform | None] | None:
        """Add one instance; returns its fitted error (class, map) when it is wrong and ``edit_rows`` are given."""
        index = len(self._seeds)
        flags = score.residual_flags()
        states: dict[str, bool] = {"correct": score.correct, "ibem": score.ibem, "high_rea": score.rea >= IBEM_REA,
                                   "no_residual": not any(flags.values())}
        for name, state in states.items():
            self._flags[name].append(bool(state))
        self._seeds.append(score.data_seed)
        self._templates.append(score.template_id)
        error = None
        if not score.correct and edit_rows is not None:
            error = instance_error(score, {g: r.target for g, r in edit_rows.items()})
        self._classes.append(error[0] if error is not None else "")
        for name, value in (("ecs", score.ecs), ("rea", score.rea), ("combined", score.combined), *score.baselines.items()):
            where, values = self._signals.setdefault(name, (array("q"), array("d")))
            where.append(index)
            values.append(value)
        for g in score.residuals:
            predicted = math.nan
            if error is not None and error[1] is not None and edit_rows is not None:
                predicted = predicted_detection(error[1], edit_rows[g].transform, score.answer_type, _target(score))
            where, flagged, correct, chance = self._edits.setdefault(g, (array("q"), array("b"), array("b"), array("d")))
            where.append(index)
            flagged.append(flags[g])
            correct.append(bool(score.edit_correct[g]))
            chance.append(predicted)
        return error

    def build(self) -> Columns:
        """The collected columns."""
        n = len(self._seeds)

        def spread(where: array, values: array, fill: Any, dtype: Any) -> NDArray:
            out = np.full(n, fill, dtype=dtype)
            out[np.frombuffer(where, dtype=np.int64)] = np.frombuffer(values, dtype=np.dtype(values.typecode))
            return out

        flags = {name: np.frombuffer(values, dtype=np.int8).astype(bool) for name, values in self._flags.items()}
        return Columns(
            **flags,
            seeds=np.frombuffer(self._seeds, dtype=np.int64).copy(),
            templates=np.array(self._templates, dtype=str),
            error_class=np.array(self._classes, dtype=str),
            signals=_ordered({name: spread(w, v, np.nan, np.float64) for name, (w, v) in self._signals.items()}),
            edits={
                g: EditColumns(spread(w, array("b", [1]) * len(w), False, bool), spread(w, f, False, bool),
                               spread(w, c, False, bool), spread(w, p, np.nan, np.float64))
                for g, (w, f, c, p) in sorted(self._edits.items())
            },
        )


def columns(scores: Sequence[InstanceScore], edit_rows: Mapping[str, Mapping[str, RenderingRow]] | None = None) -> Columns:
    """The columns of in-memory scores; without ``edit_rows`` no error is fitted (classes "" and predictions NaN)."""
    builder = ColumnsBuilder()
    for s in scores:
        builder.add(s, None if edit_rows is None else edit_rows[s.instance_id])
    return builder.build()


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
            from threadpoolctl import threadpool_limits

            # the products are small (a block is ~1M cells): BLAS threads cost more than they save, 40× on a busy machine
            with threadpool_limits(limits=1, user_api="blas"):
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


def detection_by_edit(cols: Columns, n_resamples: int, seed: int) -> dict[str, dict]:
    """Table 1: per edit type, IBEM instances with a residual above τ, with intervals and the theory's prediction."""
    from scipy.stats import binomtest

    boot = Bootstrap(cols.templates, n_resamples, seed)
    table: dict[str, dict] = {}
    for g, edit in cols.edits.items():
        has = cols.ibem & edit.present
        hit = (has & edit.flagged).astype(np.float64)
        boot.add(g, _subset(m.weighted_mean, has, hit))
        n, flagged = int(has.sum()), int(hit.sum())
        exact = binomtest(flagged, n).proportion_ci(method="exact") if n else None
        predicted = edit.predicted[has & ~np.isnan(edit.predicted)]
        table[g] = {
            "flagged": flagged,
            "n": n,
            "rate": flagged / n if n else None,
            "ci_exact": [float(exact.low), float(exact.high)] if exact else None,
            "predicted": float(np.mean(predicted)) if predicted.size else None,
            "predicted_n": int(predicted.size),
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


def _share(mask: NDArray[np.bool_], within: NDArray[np.bool_]) -> float | None:
    """|mask ∩ within| / |within|, or ``None`` when ``within`` is empty."""
    n = int(within.sum())
    return int((mask & within).sum()) / n if n else None


def no_residual(cols: Columns, threshold: float) -> dict:
    """IBEM instances with no residual on any edit (the joint-centralizer mass, Theorem 2), and the oracle bound."""
    from scipy.stats import binomtest

    n = int(cols.ibem.sum())
    none = int((cols.ibem & cols.no_residual).sum())
    ci = binomtest(none, n).proportion_ci(method="exact") if n else None
    return {
        "count": none,
        "n": n,
        "fraction": none / n if n else None,
        "ci_exact": [float(ci.low), float(ci.high)] if ci else None,
        "oracle_best_edit": (n - none) / n if n else None,
        "suite_at_threshold": _share(cols.signals["ecs"] < threshold, cols.ibem),
    }


def corollary3(cols: Columns, threshold: float) -> dict:
    """On IBEM, the combined signal min(REA, ECS) flags exactly what ECS flags when threshold ≤ 0.75 (Corollary 3)."""
    ecs = cols.ibem & (cols.signals["ecs"] < threshold)
    combined = cols.ibem & (cols.signals["combined"] < threshold)
    return {
        "ecs": _share(ecs, cols.ibem),
        "combined": _share(combined, cols.ibem),
        "identical": bool(np.array_equal(ecs, combined)),
    }


def _rates(cols: Columns, rows: NDArray[np.bool_], threshold: float) -> tuple[float | None, float | None]:
    """(IBEM detection, false-positive rate on correct) of ECS < threshold among ``rows``."""
    flagged = cols.signals["ecs"] < threshold
    return _share(flagged, cols.ibem & rows), _share(flagged, cols.correct & rows)


def threshold_cv(cols: Columns, default: float) -> list[dict]:
    """Fit the ECS threshold on one seed (Youden's J for flagging wrong answers), test on the other seeds."""
    seeds = sorted(set(cols.seeds.tolist()))
    if len(seeds) < 2:
        return []
    out = []
    for train_seed in seeds:
        train = cols.seeds == train_seed
        chosen = max(CV_GRID, key=lambda t: (_youden(cols, train, t), -abs(t - default), -t))
        (det_c, fpr_c), (det_d, fpr_d) = _rates(cols, ~train, chosen), _rates(cols, ~train, default)
        out.append({
            "train_seed": train_seed,
            "threshold": chosen,
            "test_detection": det_c,
            "test_fpr": fpr_c,
            "default_detection": det_d,
            "default_fpr": fpr_d,
        })
    return out


def _youden(cols: Columns, rows: NDArray[np.bool_], threshold: float) -> float:
    flagged = cols.signals["ecs"] < threshold
    tpr = _share(flagged, ~cols.correct & rows)
    fpr = _share(flagged, cols.correct & rows)
    return (tpr or 0.0) - (fpr or 0.0)


def per_seed(cols: Columns, threshold: float) -> dict[str, dict]:
    """Accuracy, AUROC per signal, IBEM size and ECS detection for each data seed."""
    out = {}
    for seed in sorted(set(cols.seeds.tolist())):
        mask = cols.seeds == seed
        det, fpr = _rates(cols, mask, threshold)
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


def matched_cycle(cols: Columns) -> dict | None:
    """Swap versus cycle on instances carrying both (paper §4.3): flagged counts, discordant pairs, exact McNemar."""
    from scipy.stats import binomtest

    if "swap" not in cols.edits or "cycle" not in cols.edits:
        return None
    both = cols.edits["swap"].present & cols.edits["cycle"].present
    if not both.any():
        return None
    swap, cycle = cols.edits["swap"].flagged, cols.edits["cycle"].flagged

    def block(group: NDArray[np.bool_]) -> dict:
        only_swap = int((group & swap & ~cycle).sum())
        only_cycle = int((group & cycle & ~swap).sum())
        discordant = only_swap + only_cycle
        return {
            "n": int(group.sum()),
            "swap_flagged": int((group & swap).sum()),
            "cycle_flagged": int((group & cycle).sum()),
            "only_swap": only_swap,
            "only_cycle": only_cycle,
            "mcnemar_p": float(binomtest(only_cycle, discordant).pvalue) if discordant else None,
        }

    return {"all": block(both), "wrong": block(both & ~cols.correct)}


def edit_accuracy(cols: Columns) -> dict[str, dict]:
    """Base versus edited accuracy per edit type, over the instances carrying the edit (paper §5, difficulty controls)."""
    out = {}
    for g, edit in cols.edits.items():
        n = int(edit.present.sum())
        base = int((cols.correct & edit.present).sum()) / n
        edited = int((edit.correct & edit.present).sum()) / n
        out[g] = {"n": n, "base_accuracy": base, "edited_accuracy": edited, "difference": edited - base}
    return out


def fit_errors(
    scores: Sequence[InstanceScore], edit_rows: Mapping[str, Mapping[str, RenderingRow]]
) -> dict[str, tuple[str, Transform | None]]:
    """The fitted error (class, map) of every instance whose base answer is wrong."""
    return {
        s.instance_id: instance_error(s, {g: r.target for g, r in edit_rows[s.instance_id].items()})
        for s in scores
        if not s.correct
    }


def evaluate(
    scores: Sequence[InstanceScore],
    edit_rows: Mapping[str, Mapping[str, RenderingRow]],
    *,
    threshold: float = 0.5,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = 0,
) -> dict:
    """Every table of the report (docs/design.md §7.4) from in-memory per-instance scores."""
    return evaluate_columns(columns(scores, edit_rows), threshold=threshold, n_resamples=n_resamples, seed=seed)


def evaluate_columns(cols: Columns, *, threshold: float = 0.5, n_resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> dict:
    """Every table of the report (docs/design.md §7.4) from the per-instance columns."""
    boot = Bootstrap(cols.templates, n_resamples, seed)
    add_headline_stats(boot, cols, threshold)
    stats = boot.run()
    table1 = detection_by_edit(cols, n_resamples, seed)
    wrong_classes = cols.error_class[~cols.correct].tolist()
    return {
        "n_instances": len(cols),
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
            "corollary3": corollary3(cols, threshold),
        },
        "signals": signal_table(stats, cols),
        "combined_gain": {"auroc": stats["combined_gain.auroc"]["value"], "ci": stats["combined_gain.auroc"]["ci"]},
        "detection_by_edit": table1,
        "fisher": fisher_tests(table1),
        **_no_residual_keys(no_residual(cols, threshold), stats["no_residual"]["ci"]),
        "threshold_cv": threshold_cv(cols, threshold),
        "per_seed": per_seed(cols, threshold),
        "matched_cycle": matched_cycle(cols),
        "edit_accuracy": edit_accuracy(cols),
        "taxonomy": {
            "wrong": taxonomy_counts(wrong_classes),
            "ibem": taxonomy_counts(cols.error_class[cols.ibem].tolist()),
        },
        "bootstrap": {"n_resamples": n_resamples, "seed": seed, "clusters": "template_id"},
    }


def _no_residual_keys(block: dict, ci: float | list[float] | None) -> dict:
    return {"no_residual_fraction": block["fraction"], "no_residual": {**block, "ci": ci}}
