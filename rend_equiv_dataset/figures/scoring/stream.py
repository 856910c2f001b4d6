"""A release and a predictions file joined on disk, read back one instance at a time (docs/design.md §7.4).

Scoring a release of a million renderings must not hold a million
renderings and a million predictions in memory. :class:`JoinedRun` loads the
``renderings`` rows (and the matched swap-versus-cycle set) and the
predictions into a temporary SQLite file, validating every row and line as
it goes, checks the rules across rows there (unique render ids, one base row
per instance, predictions for known ids only, each once), and then yields
the instances in ``instance_id`` order with their predictions. Memory is
bounded by one parquet batch, SQLite's page cache and one instance, whatever
the size of the release.

The rules are those of :func:`~rend_equiv_dataset.figures.release.read.load_renderings`
and :func:`~rend_equiv_dataset.figures.scoring.predictions.read_predictions`,
with the same messages; :meth:`JoinedRun.fingerprint` is
:func:`~rend_equiv_dataset.figures.release.read.dataset_fingerprint` computed
from the sorted rows on disk (tested equal).
"""

from __future__ import annotations

import hashlib
import json
import pickle
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.release.read import (
    COLUMNS,
    MATCHED_CONFIG,
    has_config,
    rendering_from_row,
    renderings_files,
)
from rend_equiv_dataset.figures.scoring.instances import (
    InstanceRenderings,
    group_instances,
)
from rend_equiv_dataset.figures.scoring.predictions import (
    Prediction,
    duplicate_error,
    prediction_lines,
    unknown_error,
)
from rend_equiv_dataset.harness.sharding import shard_slice
from rend_equiv_dataset.io import parquet_batches
from rend_equiv_dataset.schema import BASE, RENDERINGS

MAIN, MATCHED = 0, 1
"""Config codes: the ``renderings`` config and the matched swap-versus-cycle set."""
_BATCH = 1024
_CACHE_KIB = 4 * 1024
_SCHEMA = """
CREATE TABLE renderings (config INTEGER NOT NULL, render_id TEXT NOT NULL, instance_id TEXT NOT NULL,
                         role TEXT NOT NULL, target TEXT NOT NULL, row BLOB NOT NULL);
CREATE TABLE predictions (line INTEGER NOT NULL, render_id TEXT NOT NULL, prediction BLOB NOT NULL);
"""


@dataclass(frozen=True)
class Missing:
    """Renderings of the scored instances without a prediction."""

    count: int
    examples: list[str]


class JoinedRun:
    """The temporary database of one scoring run; use as a context manager (the file is removed on exit)."""

    def __init__(self) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="rend-equiv-score-")
        self.db = sqlite3.connect(Path(self._folder.name) / "joined.sqlite", isolation_level=None)
        for pragma in ("journal_mode=OFF", "synchronous=OFF", f"cache_size=-{_CACHE_KIB}", "temp_store=FILE"):
            self.db.execute(f"PRAGMA {pragma}")
        self.db.executescript(_SCHEMA)
        self.meta: dict[str, Any] = {}
        self.rows = {MAIN: 0, MATCHED: 0}

    def __enter__(self) -> JoinedRun:
        return self

    def __exit__(self, *exc: object) -> None:
        self.db.close()
        self._folder.cleanup()

    # -- loading ---------------------------------------------------------------------------------------------------

    def load_release(self, data_dir: str | Path) -> None:
        """Load and check the ``renderings`` config and, when present, the matched set."""
        self._load_config(data_dir, RENDERINGS, MAIN)
        if has_config(data_dir, MATCHED_CONFIG):
            self._load_config(data_dir, MATCHED_CONFIG, MATCHED)

    def _load_config(self, data_dir: str | Path, config: str, code: int) -> None:
        self.db.execute("BEGIN")
        for path in renderings_files(data_dir, config):
            line = 0
            for batch in parquet_batches(path, COLUMNS, batch_rows=_BATCH):
                records = []
                for row in batch:
                    line += 1
                    r = rendering_from_row(row, file=path, line=line)
                    records.append((code, r.render_id, r.instance_id, r.role, r.target, pickle.dumps(r, protocol=5)))
                self.db.executemany("INSERT INTO renderings VALUES (?, ?, ?, ?, ?, ?)", records)
                self.rows[code] += len(records)
        self.db.execute("COMMIT")
        self.db.execute("CREATE INDEX IF NOT EXISTS by_instance ON renderings (config, instance_id, render_id)")
        self.db.execute("CREATE INDEX IF NOT EXISTS by_render ON renderings (config, render_id)")
        self._check_config(Path(data_dir), code)

    def _check_config(self, root: Path, code: int) -> None:
        """Unique render ids and one base row per instance, as ``check_renderings`` (the first offender in file order)."""
        if not self.rows[code]:
            raise InputError("the renderings config is empty", file=root)
        duplicate = self.db.execute(
            "SELECT r.render_id FROM renderings r WHERE r.config = ? AND EXISTS (SELECT 1 FROM renderings e "
            "WHERE e.config = r.config AND e.render_id = r.render_id AND e.rowid < r.rowid) ORDER BY r.rowid LIMIT 1",
            (code,),
        ).fetchone()
        if duplicate is not None:
            raise InputError(f"duplicate render_id {duplicate[0]!r}", file=root, field="render_id")
        bad = self.db.execute(
            "SELECT instance_id, SUM(role = ?) AS n FROM renderings WHERE config = ? GROUP BY instance_id "
            "HAVING n != 1 ORDER BY instance_id LIMIT 1",
            (BASE, code),
        ).fetchone()
        if bad is not None:
            raise InputError(f"instance {bad[0]!r} has {bad[1]} base rows, expected exactly 1", file=root, field="role")

    def load_predictions(self, path: str | Path, fingerprint: str | None) -> None:
        """Load and check a predictions file: every line valid, ids of the release, each once, at least one."""
        path = Path(path)
        self.db.execute("BEGIN")
        records: list[tuple[int, str, bytes]] = []
        for number, value in prediction_lines(path, fingerprint=fingerprint):
            if not isinstance(value, Prediction):
                self.meta = value
                continue
            records.append((number, value.render_id, pickle.dumps(value, protocol=5)))
            if len(records) == _BATCH:
                self.db.executemany("INSERT INTO predictions VALUES (?, ?, ?)", records)
                records = []
        self.db.executemany("INSERT INTO predictions VALUES (?, ?, ?)", records)
        self.db.execute("COMMIT")
        self.db.execute("CREATE INDEX predicted ON predictions (render_id, line)")
        self._check_predictions(path)

    def _check_predictions(self, path: Path) -> None:
        """The first line (in file order) answering an id twice or an id the release lacks."""
        if self.db.execute("SELECT 1 FROM predictions LIMIT 1").fetchone() is None:
            raise InputError("no predictions in the file", file=path)
        duplicate = self.db.execute(
            "SELECT p.line, p.render_id FROM predictions p WHERE EXISTS (SELECT 1 FROM predictions e "
            "WHERE e.render_id = p.render_id AND e.line < p.line) ORDER BY p.line LIMIT 1"
        ).fetchone()
        unknown = self.db.execute(
            "SELECT p.line, p.render_id FROM predictions p WHERE NOT EXISTS (SELECT 1 FROM renderings r "
            "WHERE r.config IN (0, 1) AND r.render_id = p.render_id) ORDER BY p.line LIMIT 1"
        ).fetchone()
        if duplicate is not None and (unknown is None or duplicate[0] < unknown[0]):
            raise duplicate_error(duplicate[1], path, duplicate[0])
        if unknown is not None:
            raise unknown_error(unknown[1], path, unknown[0])

    # -- reading ---------------------------------------------------------------------------------------------------

    def fingerprint(self) -> str:
        """sha256 over the sorted ``render_id``/``target`` pairs of the ``renderings`` config (``dataset_fingerprint``)."""
        digest = hashlib.sha256()
        rows = self.db.execute("SELECT render_id, target FROM renderings WHERE config = ? ORDER BY render_id", (MAIN,))
        for render_id, target in rows:
            digest.update(json.dumps([render_id, target], ensure_ascii=False).encode("utf-8"))
            digest.update(b"\n")
        return digest.hexdigest()

    def instance_range(self, code: int, shard: tuple[int, int] | None = None) -> tuple[str, str] | None:
        """The first and last instance id of a shard (``shard_slice`` of the sorted ids); ``None`` when it is empty."""
        (count,) = self.db.execute("SELECT COUNT(DISTINCT instance_id) FROM renderings WHERE config = ?", (code,)).fetchone()
        picked = shard_slice(range(count), *shard) if shard is not None else range(count)
        if not picked:
            return None
        query = "SELECT DISTINCT instance_id FROM renderings WHERE config = ? ORDER BY instance_id LIMIT 1 OFFSET ?"
        return (self.db.execute(query, (code, picked[0])).fetchone()[0], self.db.execute(query, (code, picked[-1])).fetchone()[0])

    def count_instances(self, code: int, bounds: tuple[str, str] | None) -> int:
        """Instances between the bounds (inclusive)."""
        if bounds is None:
            return 0
        query = "SELECT COUNT(DISTINCT instance_id) FROM renderings WHERE config = ? AND instance_id BETWEEN ? AND ?"
        return int(self.db.execute(query, (code, *bounds)).fetchone()[0])

    def instances(self, code: int, bounds: tuple[str, str] | None) -> Iterator[tuple[InstanceRenderings, dict[str, Prediction]]]:
        """Each instance between the bounds, in ``instance_id`` order, with the predictions of its renderings."""
        if bounds is None:
            return
        rows = self.db.execute(
            "SELECT r.instance_id, r.row, p.prediction FROM renderings r LEFT JOIN predictions p ON p.render_id = r.render_id "
            "WHERE r.config = ? AND r.instance_id BETWEEN ? AND ? ORDER BY r.instance_id, r.render_id",
            (code, *bounds),
        )
        current: str | None = None
        group: list[Any] = []
        answers: dict[str, Prediction] = {}
        for instance_id, row, prediction in rows:
            if instance_id != current and group:
                yield group_instances(group)[0], answers
                group, answers = [], {}
            current = instance_id
            rendering = pickle.loads(row)
            group.append(rendering)
            if prediction is not None:
                answers[rendering.render_id] = pickle.loads(prediction)
        if group:
            yield group_instances(group)[0], answers

    def missing(self, code: int, bounds: tuple[str, str] | None, examples: int = 10) -> Missing:
        """Renderings between the bounds without a prediction: their count and the first ``examples`` ids in order."""
        if bounds is None:
            return Missing(0, [])
        where = (
            "FROM renderings r WHERE r.config = ? AND r.instance_id BETWEEN ? AND ? "
            "AND NOT EXISTS (SELECT 1 FROM predictions p WHERE p.render_id = r.render_id)"
        )
        (count,) = self.db.execute(f"SELECT COUNT(*) {where}", (code, *bounds)).fetchone()
        first = self.db.execute(f"SELECT r.render_id {where} ORDER BY r.render_id LIMIT ?", (code, *bounds, examples))
        return Missing(int(count), [r for (r,) in first])

    def answered(self, code: int, bounds: tuple[str, str] | None) -> bool:
        """Whether any rendering between the bounds has a prediction."""
        if bounds is None:
            return False
        row = self.db.execute(
            "SELECT 1 FROM renderings r JOIN predictions p ON p.render_id = r.render_id "
            "WHERE r.config = ? AND r.instance_id BETWEEN ? AND ? LIMIT 1",
            (code, *bounds),
        ).fetchone()
        return row is not None
