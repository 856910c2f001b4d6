"""Benchmark: scoring 900 instances (3 seeds × 300) with every table and 10,000-resample intervals.

Synthesises a 900-instance ``renderings`` table (K = 8 re-renderings) and a
predictions set in memory (a mixed simulated reader plus log-probabilities and
K = 8 samples on every base rendering), then times

1. per-instance scoring (parsing, REA, residuals, ECS, baselines);
2. the full evaluation: every table and every template-clustered interval
   (10,000 resamples, vectorised);
3. the bootstrap alone, vectorised, for accuracy + combined AUROC + combined ECE,
   against a naive per-resample Python loop computing the same three statistics
   (scikit-learn AUROC on the resampled rows). The loop runs ``--naive``
   resamples and is extrapolated to 10,000 (printed as such).

Run: ``python benchmarks/score.py [--naive 1000]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rend_equiv_dataset.figures.scoring.predictions import Prediction  # noqa: E402
from rend_equiv_dataset.figures.scoring import metrics as m  # noqa: E402
from rend_equiv_dataset.figures.scoring.evaluation import Bootstrap, columns, evaluate  # noqa: E402
from rend_equiv_dataset.figures.scoring.instances import group_instances, score_instance  # noqa: E402
from rend_equiv_dataset.figures.scoring.simulate import simulate  # noqa: E402
from rend_equiv_dataset.figures.scoring.synthetic import synthetic_renderings  # noqa: E402

READER = "0.35*perfect+0.2*scale:1.3+0.15*offset:25+0.15*permute:swap+0.15*noise:0.1"


def predictions_for(renderings) -> dict[str, Prediction]:
    sim = simulate(renderings, READER, seed=0)
    rng = np.random.Generator(np.random.PCG64(1))
    bases = {r.render_id for r in renderings if r.role == "base"}
    out = {}
    for record in sim.records:
        extra = {}
        if record["render_id"] in bases:
            extra = {"logprob": float(-rng.exponential(0.5)), "samples": [record["output"] if rng.random() < 0.7 else "unsure" for _ in range(8)]}
        out[record["render_id"]] = Prediction(**record, **extra)
    return out


def naive_bootstrap(correct, combined, templates, n_resamples: int, seed: int = 0) -> np.ndarray:
    """The obvious way: one Python iteration per resample, rows gathered by cluster, scikit-learn AUROC."""
    from sklearn.metrics import roc_auc_score

    rng = np.random.Generator(np.random.PCG64(seed))
    clusters = sorted(set(templates.tolist()))
    members = {c: np.flatnonzero(templates == c) for c in clusters}
    conf = np.clip(combined, 0, 1)
    out = np.empty((n_resamples, 3))
    for r in range(n_resamples):
        drawn = rng.integers(0, len(clusters), size=len(clusters))
        rows = np.concatenate([members[clusters[i]] for i in drawn])
        y, s, c = correct[rows], combined[rows], conf[rows]
        auc = roc_auc_score(y, s) if 0 < y.sum() < y.size else np.nan
        bins = np.minimum((c * 10).astype(int), 9)
        ece = sum(abs(y[bins == b].sum() - c[bins == b].sum()) for b in range(10)) / len(rows)
        out[r] = (y.mean(), auc, ece)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--naive", type=int, default=1000, help="resamples for the naive loop (extrapolated to 10,000)")
    parser.add_argument("--resamples", type=int, default=10_000)
    args = parser.parse_args()

    start = time.perf_counter()
    import scipy.stats  # noqa: F401  (one-time import cost, reported apart from the per-run work)
    import sklearn.metrics  # noqa: F401

    print(f"one-time imports (scipy.stats, sklearn.metrics): {time.perf_counter() - start:.2f} s")
    renderings = synthetic_renderings(n_instances=300, seeds=(0, 1, 2), rerenders=8)
    predictions = predictions_for(renderings)
    print(f"{len(renderings)} renderings, {len({r.instance_id for r in renderings})} instances")

    start = time.perf_counter()
    instances = group_instances(renderings)
    scores = [score_instance(i, predictions) for i in instances]
    t_score = time.perf_counter() - start
    edit_rows = {i.base.instance_id: i.edits for i in instances}

    start, cpu = time.perf_counter(), time.process_time()
    report = evaluate(scores, edit_rows, n_resamples=args.resamples)
    t_eval, c_eval = time.perf_counter() - start, time.process_time() - cpu
    print(f"per-instance scoring: {t_score:.2f} s")
    print(f"all tables + {args.resamples} template-clustered resamples (vectorised): {t_eval:.2f} s wall, {c_eval:.2f} s CPU")
    print(f"scoring total: {t_score + t_eval:.2f} s (target < 5 s)")
    print(f"  accuracy {report['accuracy']:.3f} {report['accuracy_ci']}, IBEM n={report['ibem']['n']}, "
          f"combined AUROC {report['signals']['combined']['auroc']:.3f}")

    cols = columns(scores)
    correct, combined = cols.correct, cols.signals["combined"]
    boot = Bootstrap(cols.templates, args.resamples, seed=0)
    boot.add("accuracy", lambda W: m.weighted_mean(W, correct.astype(float)))
    boot.add("auroc", lambda W: m.auroc(W, correct, combined))
    boot.add("ece", lambda W: m.ece(W, correct, np.clip(combined, 0, 1)))
    start = time.perf_counter()
    fast = boot.run()
    t_fast = time.perf_counter() - start

    start = time.perf_counter()
    slow = naive_bootstrap(correct, combined, cols.templates, args.naive)
    t_slow = time.perf_counter() - start
    t_slow_full = t_slow * args.resamples / args.naive
    print(f"bootstrap, 3 statistics, {args.resamples} resamples: vectorised {t_fast:.3f} s; "
          f"naive loop {t_slow:.2f} s for {args.naive} resamples -> {t_slow_full:.1f} s for {args.resamples} (extrapolated)")
    print(f"  speed-up: {t_slow_full / t_fast:.0f}x (target >= 30x)")
    print(f"  (machine load average while running: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    naive_ci = np.nanpercentile(slow, [2.5, 97.5], axis=0)
    print(f"  intervals agree: accuracy vectorised {fast['accuracy']['ci']} vs naive {naive_ci[:, 0].round(4).tolist()}; "
          f"AUROC {np.round(fast['auroc']['ci'], 4).tolist()} vs {naive_ci[:, 1].round(4).tolist()}")


if __name__ == "__main__":
    main()
