"""Panel report speed: the vectorised report against a naive Python-loop implementation, in the same run.

Synthesises the paper's main configuration (seeded): 463 problems × 7 solvers = 3,241 candidates, 7
judges of varying strictness with correlated errors, per-assertion results (5–40 assertions each) so
the coverage signal is ≈ 83% accurate (panel ≈ 81%, pivotal share ≈ 20%: near the paper's 82.4% / 16.2%). Then times

* vectorised — :func:`rend_equiv_dataset.panels.metrics.panel_report.build_report`: every sub-panel
  (C(7,3), C(7,5), C(7,6)), 10,000-resample problem-clustered intervals, 2,000 permutation controls,
  the 13-level coverage sweep, the policy table, n_eff with its interval;
* naive — the same quantities with loops: replacement outcomes enumerated judge by judge, each
  bootstrap resample gathering its rows, each permuted signal re-scored query by query;

checks that the deterministic numbers agree, and prints the times and ratios.

    python benchmarks/panel.py [--seed 0] [--resamples 10000] [--permutations 2000]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rend_equiv_dataset.panels.records import load_panel_records  # noqa: E402
from rend_equiv_dataset.panels.metrics.coverage import SWEEP_LEVELS  # noqa: E402
from rend_equiv_dataset.panels.metrics.panel_report import build_report  # noqa: E402
from rend_equiv_dataset.panels.metrics.source import panel_from_records  # noqa: E402

K, PROBLEMS, SOLVERS = 7, 463, 7


def synthesize(seed: int) -> list[dict]:
    """3,241 full-form records with correlated judges and one-sided coverage signals."""
    rng = np.random.Generator(np.random.PCG64(seed))
    strictness = np.array([-0.6, -0.3, 0.0, 0.2, 0.4, 0.6, 0.9])  # a lean toward rejecting
    skill = np.array([1.6, 1.4, 1.5, 1.2, 1.3, 1.1, 1.0])
    judges = [f"judge-{j}" for j in range(K)]
    records = []
    for p in range(PROBLEMS):
        difficulty = rng.normal(0.0, 1.0)
        n_assert = int(rng.integers(5, 41))
        for s in range(SOLVERS):
            correct = rng.random() < 1 / (1 + np.exp(-(1.6 - 0.8 * difficulty)))
            passed = [True] * n_assert
            if not correct:
                # most bugs show on a late assertion only: the source-order prefix misses them
                first = int(rng.integers(0, n_assert)) if rng.random() < 0.6 else n_assert - 1
                passed = [i < first or rng.random() < 0.5 for i in range(n_assert)]
                passed[first] = False
            shared = rng.normal(0.0, 1.0)  # a query-level confusion all judges share
            logit = skill * (1.0 if correct else -1.0) * 0.85 - strictness - 1.0 * shared + rng.normal(0, 1.0, K)
            votes = (logit > 0).astype(int).tolist()
            records.append({
                "problem_id": f"P{p}", "benchmark": "synthetic", "candidate_id": f"P{p}-s{s}", "solver": f"solver-{s}",
                "code": "", "assertions_passed": passed, "status": "ok", "label": int(correct), "votes": votes,
                "judges": judges, "judge_source": "simulated",
            })
    return records


# ----------------------------------------------------------------------------- naive reference
def naive_gains(votes: list[list[int]], labels: list[int], signal: list[int], k: int) -> tuple[list[float], list[bool], list[int]]:
    gains, pivotal, base = [], [], []
    for ballots, y, v in zip(votes, labels, signal):
        s = sum(ballots)
        decided = int(2 * s > k)
        outcomes = []
        changed = False
        for j in range(k):
            replaced = list(ballots)
            replaced[j] = v
            outcomes.append(int(2 * sum(replaced) > k) == y)
            for w in (0, 1):
                replaced[j] = w
                changed |= int(2 * sum(replaced) > k) != decided
        gains.append(sum(outcomes) / k - (decided == y))
        pivotal.append(changed)
        base.append(int(decided == y))
    return gains, pivotal, base


BOOTSTRAP_SECONDS = [0.0]  # time the naive run spends in resampling loops (linear in the resample count)


def naive_bootstrap(num: np.ndarray, den: np.ndarray, problems: list[str], n_resamples: int, seed: int) -> list[tuple[float, float]]:
    started = time.perf_counter()
    rows_of: dict[str, list[int]] = {}
    for i, p in enumerate(problems):
        rows_of.setdefault(p, []).append(i)
    clusters = [np.array(rows_of[p]) for p in sorted(rows_of)]
    rng = np.random.default_rng(seed)
    stats = []
    for _ in range(n_resamples):
        rows = np.concatenate([clusters[c] for c in rng.integers(0, len(clusters), len(clusters))])
        with np.errstate(invalid="ignore", divide="ignore"):
            stats.append(num[rows].sum(axis=0) / den[rows].sum(axis=0))
    table = np.array(stats)
    BOOTSTRAP_SECONDS[0] += time.perf_counter() - started
    return [tuple(np.nanpercentile(table[:, j], [2.5, 97.5])) for j in range(table.shape[1])]


def naive_n_eff(errors: np.ndarray) -> float:
    k = errors.shape[1]
    phis = []
    for a, b in itertools.combinations(range(k), 2):
        if errors[:, a].std() > 0 and errors[:, b].std() > 0:
            phis.append(np.corrcoef(errors[:, a], errors[:, b])[0, 1])
    return k / (1 + (k - 1) * float(np.mean(phis)))


def naive_report(records: list[dict], coverage: float, n_resamples: int, n_permutations: int, seed: int) -> dict:
    votes = [r["votes"] for r in records]
    labels = [r["label"] for r in records]
    problems = [r["problem_id"] for r in records]

    def signal_at(c: float) -> list[int]:
        out = []
        for r in records:
            t = r["assertions_passed"]
            q = max(1, min(len(t), int(np.floor(c * len(t) + 0.5 + 1e-9))))
            out.append(int(len(t) > 0 and all(t[:q])))
        return out

    signal = signal_at(coverage)
    gains, pivotal, base = naive_gains(votes, labels, signal, K)
    g, piv = np.array(gains), np.array(pivotal, dtype=float)
    out: dict = {"pivotal_gain": float((g * piv).sum() / piv.sum()), "nonpivotal_gain": float((g * (1 - piv)).sum() / (1 - piv).sum())}
    out["pivotal_ci"] = naive_bootstrap((g * piv)[:, None], piv[:, None], problems, n_resamples, seed)[0]
    # error rate and gain by margin
    margins = np.array([abs(2 * sum(v) - K) for v in votes])
    wrong = 1.0 - np.array(base)
    at = np.column_stack([margins == m for m in range(1, K + 1, 2)]).astype(float)
    naive_bootstrap(np.column_stack([wrong[:, None] * at, g[:, None] * at]), np.column_stack([at, at]), problems, n_resamples, seed)
    # every sub-panel
    subpanels = {}
    for size in (3, 5, 6):
        rows = []
        nums, dens = [], []
        for subset in itertools.combinations(range(K), size):
            sub = [[v[j] for j in subset] for v in votes]
            sg, sp, _ = naive_gains(sub, labels, signal, size)
            sg_, sp_ = np.array(sg), np.array(sp, dtype=float)
            rows.append(float((sg_ * sp_).sum() / sp_.sum()))
            nums.append(sg_ * sp_)
            dens.append(sp_)
        naive_bootstrap(np.column_stack(nums), np.column_stack(dens), problems, n_resamples, seed)
        subpanels[size] = rows
    out["subpanels"] = subpanels
    # permutation control
    rng = np.random.default_rng(seed)
    n_err = sum(int(s != y) for s, y in zip(signal, labels))
    piv_rows = [i for i in range(len(records)) if pivotal[i]]
    perm = []
    for _ in range(n_permutations):
        wrong_at = set(rng.permutation(len(records))[:n_err].tolist())
        total = 0.0
        for i in piv_rows:
            v = 1 - labels[i] if i in wrong_at else labels[i]
            s = sum(votes[i])
            outcomes = [int(2 * (s - b + v) > K) == labels[i] for b in votes[i]]
            total += sum(outcomes) / K - base[i]
        perm.append(total / len(piv_rows))
    out["permutation_mean"] = float(np.mean(perm))
    # coverage sweep
    nums, dens = [], []
    for c in SWEEP_LEVELS:
        sg, sp, _ = naive_gains(votes, labels, signal_at(c), K)
        nums.append(np.array(sg) * np.array(sp))
        dens.append(np.array(sp, dtype=float))
    naive_bootstrap(np.column_stack(nums), np.column_stack(dens), problems, n_resamples, seed)
    # n_eff and its bootstrap
    errors = (np.array(votes) != np.array(labels)[:, None]).astype(float)
    sig_err = (np.array(signal) != np.array(labels)).astype(float)
    out["n_eff"] = naive_n_eff(errors)
    out["n_eff_with_signal"] = float(np.mean([naive_n_eff(np.column_stack([np.delete(errors, j, axis=1), sig_err])) for j in range(K)]))
    rows_of: dict[str, list[int]] = {}
    for i, p in enumerate(problems):
        rows_of.setdefault(p, []).append(i)
    clusters = [np.array(rows_of[p]) for p in sorted(rows_of)]
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    for _ in range(n_resamples):
        rows = np.concatenate([clusters[c] for c in rng.integers(0, len(clusters), len(clusters))])
        naive_n_eff(errors[rows])
        [naive_n_eff(np.column_stack([np.delete(errors[rows], j, axis=1), sig_err[rows]])) for j in range(K)]
    BOOTSTRAP_SECONDS[0] += time.perf_counter() - started
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--resamples", type=int, default=10_000)
    parser.add_argument("--permutations", type=int, default=2_000)
    parser.add_argument("--naive-resamples", type=int, default=1_000,
                        help="resamples the naive run actually draws; its resampling time is scaled linearly to --resamples")
    args = parser.parse_args()

    records = synthesize(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        start = time.perf_counter()
        loaded = load_panel_records(path)
        data = panel_from_records(loaded, 0.2)
        load_s = time.perf_counter() - start
    start = time.perf_counter()
    import sklearn.metrics  # noqa: F401  (a one-off library import, timed on its own)

    import_s = time.perf_counter() - start
    start = time.perf_counter()
    report = build_report(data, coverage=0.2, n_resamples=args.resamples, n_permutations=args.permutations, seed=args.seed)
    fast_s = time.perf_counter() - start

    naive_resamples = min(args.naive_resamples, args.resamples)
    start = time.perf_counter()
    naive = naive_report(records, 0.2, naive_resamples, args.permutations, args.seed)
    measured = time.perf_counter() - start
    resampling = BOOTSTRAP_SECONDS[0]
    naive_s = measured - resampling + resampling * args.resamples / naive_resamples

    assert abs(naive["pivotal_gain"] - report["pivotal"]["gain"]) < 1e-12
    assert naive["nonpivotal_gain"] == report["nonpivotal"]["gain"] == 0.0
    for size, gains in naive["subpanels"].items():
        mine = [row["pivotal_gain"] for row in report["subpanels"][str(size)]["rows"]]
        assert np.allclose(mine, gains, atol=1e-12), size
    assert abs(naive["n_eff"] - report["n_eff"]["panel"]) < 1e-9
    assert abs(naive["n_eff_with_signal"] - report["n_eff"]["with_signal"]) < 1e-9
    assert abs(naive["permutation_mean"] - report["permutation_control"]["mean_gain"]) < 0.005

    print(f"records: {data.n} × k={data.k} ({report['n_problems']} problems), signal accuracy {report['accuracy']['signal_only']:.4f}, "
          f"panel accuracy {report['accuracy']['panel']:.4f}, pivotal share {report['call_rate']:.3f}")
    print(f"pivotal gain {report['pivotal']['gain']:+.4f} CI [{report['pivotal']['ci'][0]:+.4f}, {report['pivotal']['ci'][1]:+.4f}] "
          f"(naive CI [{naive['pivotal_ci'][0]:+.4f}, {naive['pivotal_ci'][1]:+.4f}]); non-pivotal gain {report['nonpivotal']['gain']}")
    print(f"load + validate 3,241 records (JSONL): {load_s:.2f} s; first import of scikit-learn: {import_s:.2f} s")
    print(f"full report, vectorised: {fast_s:.2f} s   ({args.resamples} resamples, {args.permutations} permutations, "
          f"{sum(v['n_subsets'] for v in report['subpanels'].values())} sub-panels, {len(SWEEP_LEVELS)} coverage levels)")
    print(f"full report, naive loops: {measured:.2f} s measured with {naive_resamples} resamples "
          f"({resampling:.2f} s of it resampling) → {naive_s:.1f} s at {args.resamples} resamples")
    print(f"ratio naive / vectorised: {naive_s / fast_s:.1f}×   (target: vectorised under 10 s)")


if __name__ == "__main__":
    main()
