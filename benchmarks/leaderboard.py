"""Benchmark: one submission to a leaderboard that already holds many models.

Builds a board of ``--models`` models (two submissions each) with hand-made
results payloads, then times

1. one more whole submission (lock, results file, new board, link swap; the
   fsyncs that make it durable are most of it);
2. the table step as the store does it: the previous board's rows, the new
   model's row replaced;
3. the naive table step: reading every results file on disk and keeping the
   latest per model (what a glob-and-parse regeneration does).

Steps 2 and 3 give the same rows (checked). Run: ``python benchmarks/leaderboard.py [--models 500]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rend_equiv_dataset.board.store import TABLES, Kind, read_board, sort_rows, submit_payload, table_row  # noqa: E402


def payload(name: str, sha: str, accuracy: float) -> dict:
    results = {}
    for column in TABLES[Kind.FIGURES].columns:
        results[column] = accuracy
        results[f"{column}_ci"] = [accuracy - 0.05, accuracy + 0.05]
    return {"config": {"model_name": name, "submission_sha256": sha, "dataset_fingerprint": "f" * 64}, "results": {"rend_equiv": results}}


def naive_rows(folder: Path) -> list[dict]:
    """Read every results file; keep each model's latest."""
    latest: dict[str, tuple[str, dict, int]] = {}
    for path in sorted((folder / "results").rglob("results_*.json")):
        data = json.loads(path.read_text())
        name = data["config"]["model_name"]
        count = latest[name][2] + 1 if name in latest else 1
        latest[name] = (path.relative_to(folder).as_posix(), data, count)
    rows = [table_row(TABLES[Kind.FIGURES], data, count, relative) for relative, data, count in latest.values()]
    return sort_rows(TABLES[Kind.FIGURES], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=500)
    args = parser.parse_args()
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    with tempfile.TemporaryDirectory() as tmp:
        board = Path(tmp) / "board"
        t0 = time.perf_counter()
        for i in range(2 * args.models):
            submit_payload(board, Kind.FIGURES, payload(f"org/m{i % args.models}", str(i), (i % 97) / 97), now=start + timedelta(seconds=i))
        build = time.perf_counter() - t0
        t0 = time.perf_counter()
        submit_payload(board, Kind.FIGURES, payload("org/new", "new", 0.5))
        one = time.perf_counter() - t0
        t0 = time.perf_counter()
        snapshot = read_board(board)
        latest = snapshot.history(Kind.FIGURES, "org/new")
        kept = [r for r in snapshot.rows(Kind.FIGURES) if r["model_name"] != "org/new"]
        rows = sort_rows(TABLES[Kind.FIGURES], [*kept, table_row(TABLES[Kind.FIGURES], snapshot.load(latest[-1]), len(latest), latest[-1])])
        incremental = time.perf_counter() - t0
        t0 = time.perf_counter()
        naive = naive_rows(board)
        naive_s = time.perf_counter() - t0
        assert rows == naive == snapshot.rows(Kind.FIGURES), "the naive rebuild and the store disagree"
    print(f"board of {args.models} models x 2 submissions built in {build:.2f} s ({build / (2 * args.models) * 1e3:.1f} ms per submission)")
    print(f"one more whole submission: {one * 1e3:.1f} ms")
    print(f"table step, store (previous rows + one results file): {incremental * 1e3:.2f} ms")
    print(f"table step, naive (reads all {2 * args.models + 1} results files): {naive_s * 1e3:.2f} ms")
    print(f"ratio naive / store table step: {naive_s / incremental:.1f}x")


if __name__ == "__main__":
    main()
