"""Benchmark: the cost of one submission to a leaderboard that already holds many models.

For each board size (``--sizes``, default 10, 100 and 1000 models) it times

1. the store: growing a board to that size one submission at a time
   (amortised cost per submission, view rebuilds included), then the next
   ``--next`` submissions to it (each: lock, results file, one appended log
   line; a view rebuild when the log has doubled);
2. the naive way, as the store did it before: every submission republishes
   the whole board (reads the previous manifest and tables, writes a new
   manifest listing every submission and all four table files, each synced,
   then swaps the links), timed on the same next submissions to a board of
   the same size.

Both end with the same table rows (checked). Prints milliseconds per
submission and the ratio naive / store. Run:
``python benchmarks/leaderboard.py [--sizes 10 100 1000] [--next 20]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rend_equiv_dataset.board.store import (  # noqa: E402
    TABLES,
    Kind,
    dumps,
    read_board,
    sort_rows,
    submit_payload,
    table_markdown,
    table_row,
)

START = datetime(2026, 1, 1, tzinfo=timezone.utc)


def payload(name: str, sha: str, accuracy: float) -> dict:
    results = {}
    for column in TABLES[Kind.FIGURES].columns:
        results[column] = accuracy
        results[f"{column}_ci"] = [accuracy - 0.05, accuracy + 0.05]
    return {"config": {"model_name": name, "submission_sha256": sha, "dataset_fingerprint": "f" * 64},
            "results": {"rend_equiv": results}}


def _synced(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


class Republisher:
    """The naive way: each submission rewrites the manifest (every submission) and every table, synced."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.version = 0
        folder.mkdir()

    def submit(self, data: dict, now: datetime) -> None:
        table = TABLES[Kind.FIGURES]
        name = data["config"]["model_name"]
        previous = self.folder / "boards" / f"{self.version:06d}"
        if self.version:
            manifest = json.loads((previous / "manifest.json").read_text())
            rows = {t.stem: json.loads((previous / f"{t.stem}.json").read_text()) for t in TABLES.values()}
        else:
            manifest, rows = {"submissions": {k.value: {} for k in Kind}}, {t.stem: [] for t in TABLES.values()}
        history = manifest["submissions"]["figures"].setdefault(name, [])
        relative = f"results/{name}/results_{now.strftime('%Y-%m-%dT%H-%M-%S.%fZ')}.json"
        (self.folder / relative).parent.mkdir(parents=True, exist_ok=True)
        _synced(self.folder / relative, dumps(data))
        history.append(relative)
        rows[table.stem] = [r for r in rows[table.stem] if r["model_name"] != name] + [table_row(table, data, len(history), relative)]
        self.version += 1
        board = self.folder / "boards" / f"{self.version:06d}"
        board.mkdir(parents=True)
        _synced(board / "manifest.json", json.dumps({"version": self.version, **manifest}, sort_keys=True))
        for t in TABLES.values():
            ordered = sort_rows(t, rows[t.stem])
            _synced(board / f"{t.stem}.json", json.dumps(ordered, sort_keys=True))
            _synced(board / f"{t.stem}.md", table_markdown(t, ordered))
        for t in TABLES.values():
            for suffix in ("json", "md"):
                link = self.folder / f".{t.stem}.{suffix}.link"
                os.symlink(f"current/{t.stem}.{suffix}", link)
                os.replace(link, self.folder / f"{t.stem}.{suffix}")
        os.symlink(f"boards/{self.version:06d}", self.folder / ".current.link")
        os.replace(self.folder / ".current.link", self.folder / "current")

    def rows(self) -> list[dict]:
        return json.loads((self.folder / "current" / "leaderboard.json").read_text())


def one_size(root: Path, models: int, extra: int) -> tuple[float, float, float]:
    """(amortised ms per submission growing the board, ms per next submission: store, naive)."""
    board = root / f"store-{models}"
    t0 = time.perf_counter()
    for i in range(models):
        submit_payload(board, Kind.FIGURES, payload(f"org/m{i}", str(i), (i % 97) / 97), now=START + timedelta(seconds=i))
    grow = (time.perf_counter() - t0) / models
    naive = Republisher(root / f"naive-{models}")
    for i in range(models):  # build the naive board's state (not timed)
        naive.submit(payload(f"org/m{i}", str(i), (i % 97) / 97), START + timedelta(seconds=i))
    news = [(payload(f"org/new{j}", f"n{j}", 0.5), START + timedelta(seconds=models + j)) for j in range(extra)]
    t0 = time.perf_counter()
    for data, now in news:
        submit_payload(board, Kind.FIGURES, data, now=now)
    store_s = (time.perf_counter() - t0) / extra
    t0 = time.perf_counter()
    for data, now in news:
        naive.submit(data, now)
    naive_s = (time.perf_counter() - t0) / extra
    strip = ("submitted_at",)
    assert [{k: v for k, v in r.items() if k not in strip} for r in read_board(board).rows(Kind.FIGURES)] == \
        [{k: v for k, v in r.items() if k not in strip} for r in naive.rows()], "the store and the naive way disagree"
    return grow * 1e3, store_s * 1e3, naive_s * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--next", type=int, default=20, help="submissions timed at each size")
    args = parser.parse_args()
    print(f"{'models':>7} {'grow (ms/sub)':>14} {'store (ms/sub)':>15} {'naive (ms/sub)':>15} {'naive/store':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for models in args.sizes:
            grow, store_ms, naive_ms = one_size(Path(tmp), models, args.next)
            print(f"{models:>7} {grow:>14.2f} {store_ms:>15.2f} {naive_ms:>15.2f} {naive_ms / store_ms:>11.1f}x")


if __name__ == "__main__":
    main()
