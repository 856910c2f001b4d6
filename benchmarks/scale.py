"""Benchmark: how the commands grow with the release — time exponents and peak memory at three sizes spanning 100×.

Each path (``simulate``, ``score``, ``grade``) runs as a fresh ``rend-equiv``
subprocess on a synthetic release without images (3 data seeds, K = 8
re-renderings, 12 renderings per instance); its wall time and its own peak
RSS (``os.wait4``'s ``ru_maxrss``; inputs are made in other processes, as
a child's peak starts at its parent's size) are read. Per path the script prints the
time and peak RSS at each size, the log-log time exponent (over all sizes,
and between the two largest, where start-up costs no longer hide the
growth) and the ratio of the largest to the smallest peak RSS, and checks
exponent ≤ 1.1 and memory flat within ±20%. With ``--full`` the sizes are
900, 9,000 and 90,000 instances and score must stay below 2 GB.

Then the AUROC alone, in the same run on the same rows (with ties): the
library's sort-based AUROC against scikit-learn's ``roc_auc_score`` and the
naive pair-matrix form it replaced (point estimate and a clustered
bootstrap block), with times, ratios and the largest difference.

``--baseline SRC`` also runs ``score`` from an older source tree (put first
on ``PYTHONPATH``) at the sizes up to ``--baseline-max``, for before/after
numbers; never run an O(n²) baseline at 90,000 instances.

Adding a path (``build``, ``panel exec``, ...) is one function decorated
with :func:`path` that returns the command's arguments for a workspace.

Run: ``python benchmarks/scale.py [--full] [--sizes 300 3000 30000] [--paths score] [--baseline SRC]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rend_equiv_dataset.figures.scoring import metrics as m
from rend_equiv_dataset.figures.scoring.synthetic import (
    iter_synthetic_rows,
    write_synthetic_release,
)
from rend_equiv_dataset.stats import cluster_codes, resample_counts

SEEDS = (0, 1, 2)
RERENDERS = 8
READER = "0.35*perfect+0.2*scale:1.3+0.15*offset:25+0.15*permute:swap+0.15*noise:0.1"
MAX_EXPONENT = 1.1
FLAT = 0.2
SCORE_LIMIT_BYTES = 2 * 2**30


@dataclass
class Workspace:
    """One size's inputs, made on first use in ``folder``."""

    size: int
    folder: Path
    resamples: int
    made: dict[str, Path] = field(default_factory=dict)

    def release(self) -> Path:
        target = self.folder / "release"
        if not target.is_dir():
            make_in_child("release", target, self.size)
        return target

    def predictions(self) -> Path:
        target = self.folder / "predictions.jsonl"
        if not target.is_file():
            run_command(simulate(self), env=None)
        return target

    def grade_input(self) -> Path:
        target = self.folder / "outputs.jsonl"
        if not target.is_file():
            make_in_child("grade-input", target, self.size)
        return target


def rows(size: int) -> dict:
    return {"n_instances": size // len(SEEDS), "seeds": SEEDS, "rerenders": RERENDERS}


def make_in_child(kind: str, target: Path, size: int) -> None:
    """Make an input in a separate process: a child inherits its parent's peak RSS, so the parent must stay small."""
    subprocess.run([sys.executable, __file__, "--make", kind, str(target), str(size)], check=True)


def make(kind: str, target: Path, size: int) -> None:
    """A synthetic release without images, or outputs to grade (every rendering's target as a sentence, every third misread)."""
    if kind == "release":
        write_synthetic_release(target, **rows(size))
        return
    with open(target, "w", encoding="utf-8") as handle:
        for k, row in enumerate(iter_synthetic_rows(**rows(size))):
            said = row["target"] if k % 3 else "0"
            handle.write(json.dumps({"id": row["render_id"], "output": f"The answer is {said}.", "target": row["target"],
                                     "answer_type": row["answer_type"], "labels": row["labels"],
                                     "question": row["question"]}) + "\n")


PATHS: dict[str, Callable[[Workspace], list[str]]] = {}


def path(name: str) -> Callable[[Callable[[Workspace], list[str]]], Callable[[Workspace], list[str]]]:
    """Register a path: a function giving the ``rend-equiv`` arguments that run it on a workspace."""

    def register(function: Callable[[Workspace], list[str]]) -> Callable[[Workspace], list[str]]:
        PATHS[name] = function
        return function

    return register


@path("simulate")
def simulate(ws: Workspace) -> list[str]:
    return ["simulate", "--data", str(ws.release()), "--reader", READER, "--out", str(ws.folder / "predictions.jsonl")]


@path("score")
def score(ws: Workspace) -> list[str]:
    return ["score", "--data", str(ws.release()), "--predictions", str(ws.predictions()), "--out", str(ws.folder / "report"),
            "--resamples", str(ws.resamples)]


@path("grade")
def grade(ws: Workspace) -> list[str]:
    return ["grade", "--in", str(ws.grade_input()), "--out", str(ws.folder / "verdicts.jsonl")]


def run_command(args: list[str], env: dict[str, str] | None) -> tuple[float, int]:
    """Run ``python -m rend_equiv_dataset ARGS`` in a fresh process: (wall seconds, its peak RSS in bytes)."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-m", "rend_equiv_dataset", *args], env=env,
                                   stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            raise SystemExit(f"{args[0]} failed ({process.returncode}): {errors.read().decode()[-2000:]}")
    return elapsed, usage.ru_maxrss * 1024


def environment(source: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(source)}


def slope(sizes: list[int], times: list[float]) -> float:
    """Least-squares slope of log(time) on log(size)."""
    return float(np.polyfit(np.log(sizes), np.log(times), 1)[0])


def scaling(args: argparse.Namespace, root: Path) -> bool:
    """Every path at every size; prints the table and the checks, returns whether all pass."""
    workspaces = {n: Workspace(n, root / str(n), args.resamples) for n in args.sizes}
    for ws in workspaces.values():
        ws.folder.mkdir(parents=True, exist_ok=True)
    ok = True
    runs = [(name, function, environment(ROOT)) for name, function in PATHS.items() if name in args.paths]
    if args.baseline:
        runs.append(("score (baseline)", score, environment(Path(args.baseline).resolve())))
    print(f"{'path':<18}{'instances':>10}{'renderings':>12}{'time s':>9}{'peak RSS MB':>13}")
    for name, function, env in runs:
        sizes, times, peaks = [], [], []
        for n, ws in workspaces.items():
            if name.endswith("(baseline)") and n > args.baseline_max:
                continue
            seconds, peak = run_command(function(ws), env)
            sizes.append(n)
            times.append(seconds)
            peaks.append(peak)
            print(f"{name:<18}{n:>10,}{n * (1 + RERENDERS + 3):>12,}{seconds:>9.1f}{peak / 2**20:>13.0f}", flush=True)
        if len(sizes) < 2:
            continue
        exponent, tail = slope(sizes, times), slope(sizes[-2:], times[-2:])
        spread = max(peaks) / min(peaks) - 1
        verdict = "ok" if tail <= MAX_EXPONENT and spread <= FLAT else "FAIL"
        if name.endswith("(baseline)"):
            verdict = "(before)"
        else:
            ok &= verdict == "ok"
        print(f"{name:<18} time exponent {exponent:.2f} (largest two sizes {tail:.2f}); peak RSS {max(peaks) / min(peaks):.2f}× "
              f"the smallest size's  {verdict}")
        if name == "score" and sizes[-1] >= 90_000:
            under = peaks[-1] < SCORE_LIMIT_BYTES
            ok &= under
            print(f"score of {sizes[-1]:,} instances: {peaks[-1] / 2**30:.2f} GB peak RSS  {'ok' if under else 'FAIL'} (< 2 GB)")
    return ok


def pair_matrix_auroc(W: m.Weights, correct: np.ndarray, score_: np.ndarray) -> np.ndarray:
    """The naive form: a (correct × wrong) matrix of pair wins folded into a (cluster × cluster) kernel."""
    pos, neg = np.flatnonzero(correct), np.flatnonzero(~correct)
    wins = (score_[pos, None] > score_[None, neg]) + 0.5 * (score_[pos, None] == score_[None, neg])
    pairs = (W.codes[pos][:, None] * W.n_clusters + W.codes[neg][None, :]).ravel()
    kernel = np.bincount(pairs, weights=wins.ravel(), minlength=W.n_clusters**2).reshape(W.n_clusters, W.n_clusters)
    top = ((W.counts @ kernel) * W.counts).sum(axis=1)
    return top / (W.sums(correct.astype(float)) * W.sums((~correct).astype(float)))


def best_of(function: Callable[[], object], repeat: int = 3) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


def auroc_comparison(rows: list[int], resamples: int) -> bool:
    """Sort-based AUROC against scikit-learn and the pair-matrix form on the same rows (ECS-like ties, 3 rows a template)."""
    from sklearn.metrics import roc_auc_score

    ok = True
    print(f"\n{'rows':>7}{'sort-based ms':>15}{'sklearn ms':>12}{'pairs ms':>10}{'pairs/sort':>12}"
          f"{'boot sort ms':>14}{'boot pairs ms':>15}{'ratio':>8}{'max |diff|':>12}")
    for n in rows:
        rng = np.random.Generator(np.random.PCG64(n))
        correct = rng.random(n) < 0.7
        score_ = np.where(correct, rng.integers(1, 4, n), rng.integers(0, 4, n)) / 3.0
        codes, clusters = cluster_codes(np.arange(n) // len(SEEDS))
        unit = m.Weights.unit(n)
        t_sort, ours = best_of(lambda u=unit, y=correct, s=score_: m.auroc(u, y, s)[0])
        t_sk, theirs = best_of(lambda y=correct, s=score_: roc_auc_score(y, s))
        t_pairs, naive = best_of(lambda u=unit, y=correct, s=score_: pair_matrix_auroc(u, y, s)[0], repeat=1)
        boot = m.Weights(next(resample_counts(clusters, resamples, seed=0)), codes)
        t_boot, boot_ours = best_of(lambda w=boot, y=correct, s=score_: m.auroc(w, y, s), repeat=1)
        t_boot_pairs, boot_naive = best_of(lambda w=boot, y=correct, s=score_: pair_matrix_auroc(w, y, s), repeat=1)
        diff = max(abs(float(ours) - float(theirs)), abs(float(ours) - float(naive)),
                   float(np.max(np.abs(np.asarray(boot_ours) - np.asarray(boot_naive)))))
        ok &= diff < 1e-12
        print(f"{n:>7,}{t_sort * 1e3:>15.2f}{t_sk * 1e3:>12.2f}{t_pairs * 1e3:>10.1f}{t_pairs / t_sort:>11.0f}×"
              f"{t_boot * 1e3:>14.1f}{t_boot_pairs * 1e3:>15.1f}{t_boot_pairs / t_boot:>7.0f}×{diff:>12.1e}")
    print(f"(bootstrap columns: {resamples} template-clustered resamples at once)")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs=3, default=None, help="three instance counts (default 300 3000 30000)")
    parser.add_argument("--full", action="store_true", help="900, 9,000 and 90,000 instances")
    parser.add_argument("--paths", nargs="+", default=list(PATHS), choices=list(PATHS), help="paths to run (default all)")
    parser.add_argument("--resamples", type=int, default=10_000, help="score's bootstrap resamples (default 10000)")
    parser.add_argument("--baseline", default=None, help="older source tree whose score to run too (PYTHONPATH)")
    parser.add_argument("--baseline-max", type=int, default=3_000, help="largest size for the baseline (default 3000)")
    parser.add_argument("--auroc-rows", type=int, nargs="+", default=[1_000, 3_000, 9_000], help="AUROC comparison sizes")
    parser.add_argument("--workdir", default=None, help="where to write the releases (default: a temporary folder)")
    parser.add_argument("--make", nargs=3, metavar=("KIND", "TARGET", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make:
        make(args.make[0], Path(args.make[1]), int(args.make[2]))
        return 0
    args.sizes = args.sizes or ([900, 9_000, 90_000] if args.full else [300, 3_000, 30_000])
    if min(args.sizes) < len(SEEDS) or math.isclose(max(args.sizes) / min(args.sizes), 1.0):
        parser.error("--sizes needs three growing instance counts of at least 3")
    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp:
        ok = scaling(args, Path(tmp))  # first, while this process is small: children inherit its peak RSS
    ok &= auroc_comparison(args.auroc_rows, resamples=200)
    print("\nall checks pass" if ok else "\nsome checks FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
