"""The leaderboard folder: results files with their history, one appended line per submission, lazily rebuilt tables.

Layout of ``LEADERBOARD/``::

    .lock                                   taken by every submission (flock; released if the process dies)
    .pending                                the results file a submission is writing (gone once it is published)
    log.jsonl                               one line per published submission, oldest first: its kind, results
                                            file and table row; appending the line publishes the submission
    dataset_fingerprint                     the release the figure-reading table ranks (set by its first submission)
    current -> boards/000007                the tables as of log line 7 (a view of the log, rebuilt lazily)
    leaderboard.json, leaderboard.md        links to current/… (figure reading: one row per model)
    panels.json, panels.md                  links to current/… (judge panels: one row per panel)
    boards/000007/manifest.json             the view's version and how many bytes of the log it covers
    boards/000007/{leaderboard,panels}.{json,md}
    results/<org>/<name>/results_<UTC time>.json   one figure-reading submission (HF results shape)
    results/<org>/<name>/results_<UTC time>/       its report plots and report.md
    panels/<org>/<name>/results_<UTC time>.json    one judge-panel submission (and its folder)

A submission, under the lock, writes its results file and assets under new
names and then appends one line to ``log.jsonl`` (synced): that append is the
one step that publishes it, so a kill leaves the old board or the new one,
never a mix. It reads nothing that grows with the board: the model's earlier
results are the names in its own folder (names sort by time, so the latest is
the last), and the release a figure board ranks is one small file. A kill
before the append leaves files that no log line names; the next submission
removes them under the lock (``.pending`` says which) and cuts a torn last line.

:func:`read_board` reads the log and returns the tables as of its last line.
The table files at the top are views of the log: rebuilt by a reader that
finds them behind (when it can take the lock), and by a submission once the
log has doubled since the last rebuild, so a submission costs O(1) amortised
however many models the board holds.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from enum import Enum
from importlib import metadata
from pathlib import Path
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import (
    LineAppender, atomic_dir, atomic_symlink, atomic_write_text, jsonl_rows, last_line, locked, parse_json, read_json,
    read_text, sync_dir,
)
from rend_equiv_dataset.reports import json_ready, markdown_table

FORMAT = 2
LOCK_WAIT_S = 120.0
LOG = "log.jsonl"
FINGERPRINT = "dataset_fingerprint"
_BOARD = re.compile(r"^boards/(\d{6})$")
_STAMP = "%Y-%m-%dT%H-%M-%S.%fZ"
_RESULT = re.compile(r"^results_(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{6}Z)\.json$")
PENDING = ".pending"
# what a leaderboard folder may hold before its first board is published (a first submission under way or killed)
_BOARD_ENTRIES = {".lock", PENDING, LOG, FINGERPRINT, "current", "boards", "results", "panels",
                  "leaderboard.json", "leaderboard.md", "panels.json", "panels.md"}
_NOT_WRITABLE = {errno.EACCES, errno.EPERM, errno.EROFS}
_PENDING_PATH = re.compile(r"^(results|panels)/[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?/results_[0-9TZ.-]+\.json$")


Z95 = 1.959963984540054
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?$")
LIBRARIES = ("numpy", "scipy", "scikit-learn", "matplotlib", "datasets", "evaluate", "pydantic")


def check_model_name(name: str, option: str = "--model-name") -> str:
    """``name`` or ``org/name``: letters, digits, ``.``, ``_``, ``-``; at most 96 characters.

    >>> check_model_name("Qwen/Qwen2.5-VL-7B-Instruct")
    'Qwen/Qwen2.5-VL-7B-Instruct'
    >>> check_model_name("../x")
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field '--model-name': expected NAME or ORG/NAME of letters, digits, '.', '_', '-' (at most 96 characters), got '../x'
    """
    if not isinstance(name, str) or len(name) > 96 or not _NAME.match(name) or ".." in name:
        raise InputError(
            f"expected NAME or ORG/NAME of letters, digits, '.', '_', '-' (at most 96 characters), got {name!r}",
            field=option,
        )
    return name


def library_versions() -> dict[str, str | None]:
    """Python and the scoring libraries' versions (``None`` for one not installed)."""
    versions: dict[str, str | None] = {"python": sys.version.split()[0]}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def stderr_of(ci: Any) -> float | None:
    """Standard error read off a 95% interval: its width over 2 × 1.96.

    >>> round(stderr_of([0.5, 0.5 + 2 * 1.959963984540054 * 0.1]), 12)
    0.1
    """
    if not ci or ci[0] is None or ci[1] is None:
        return None
    return (float(ci[1]) - float(ci[0])) / (2 * Z95)


class Kind(str, Enum):
    """The two tables of a leaderboard."""

    FIGURES = "figures"
    PANELS = "panels"


@dataclass(frozen=True)
class Table:
    """Where one kind of submission lives and which headline metrics its table shows (all higher-better)."""

    kind: Kind
    folder: str
    task: str
    stem: str
    title: str
    columns: tuple[str, ...]
    labels: tuple[str, ...]


TABLES: dict[Kind, Table] = {
    Kind.FIGURES: Table(
        Kind.FIGURES, "results", "rend_equiv", "leaderboard", "REND-EQUIV leaderboard",
        ("accuracy", "ecs_auroc", "ibem_detection", "combined_auroc"),
        ("accuracy", "ECS AUROC", "IBEM detection (ECS)", "combined AUROC"),
    ),
    Kind.PANELS: Table(
        Kind.PANELS, "panels", "rend_equiv_panels", "panels", "Judge panels",
        ("pivotal_gain", "call_rate", "n_eff", "n_eff_with_signal", "panel_accuracy"),
        ("pivotal gain", "call rate", "n_eff", "n_eff with signal", "panel accuracy"),
    ),
}
ROW_CONFIG = ("model_sha", "model_dtype", "model_type", "params_billions", "dataset_fingerprint", "package_version", "submitted_at")


def dumps(payload: Any) -> str:
    """Canonical JSON text: sorted keys, two-space indent, non-finite floats as ``null``."""
    return json.dumps(json_ready(payload), indent=2, sort_keys=True, allow_nan=False, ensure_ascii=False) + "\n"


def _compact(payload: Any) -> str:
    """One-line JSON for the board's own files (its values came from JSON already, so they are finite)."""
    return json.dumps(payload, sort_keys=True, allow_nan=False, ensure_ascii=False, separators=(",", ":")) + "\n"


@dataclass(frozen=True)
class Snapshot:
    """One board as a reader sees it: the folder, its version (published submissions), history and tables."""

    folder: Path
    version: int
    fingerprint: str | None = None
    submissions: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    tables: Mapping[str, tuple[dict[str, Any], ...]] = field(default_factory=dict)

    def history(self, kind: Kind, name: str) -> tuple[str, ...]:
        """Relative paths of ``name``'s submissions to the ``kind`` table, oldest first."""
        return tuple(self.submissions.get(kind.value, {}).get(name, ()))

    def names(self, kind: Kind) -> list[str]:
        return sorted(self.submissions.get(kind.value, {}))

    def rows(self, kind: Kind) -> list[dict[str, Any]]:
        """The table of ``kind``: one row per model, its latest submission (best first)."""
        return [dict(row) for row in self.tables.get(kind.value, ())]

    def load(self, relative: str) -> dict[str, Any]:
        """One results file of this board (a path from :meth:`history`)."""
        path = self.folder / relative
        payload = read_json(path)
        if not isinstance(payload, dict) or not isinstance(payload.get("config"), dict) or not isinstance(payload.get("results"), dict):
            raise InputError("expected {'config': {...}, 'results': {...}}", file=str(path))
        return payload

    def assets(self, relative: str) -> Path:
        """The folder of plots and report text beside a results file."""
        return self.folder / relative.removesuffix(".json")


def _log_entry(entry: dict[str, Any], path: Path, line: int) -> tuple[Kind, str, dict[str, Any]]:
    """(kind, results file, row) of one log line, checked."""
    try:
        kind = Kind(entry.get("kind"))
    except ValueError:
        raise InputError(f"expected one of {[k.value for k in Kind]}, got {entry.get('kind')!r}",
                         file=str(path), line=line, field="kind") from None
    row = entry.get("row")
    if not isinstance(row, dict) or not isinstance(row.get("model_name"), str):
        raise InputError("expected a table row with a model_name", file=str(path), line=line, field="row")
    relative, name = entry.get("path"), row["model_name"]
    prefix = f"{TABLES[kind].folder}/{name}/"
    if not (isinstance(relative, str) and relative.startswith(prefix) and ".." not in relative and _PENDING_PATH.match(relative)):
        raise InputError(f"expected {prefix}results_TIME.json, got {relative!r}", file=str(path), line=line, field="path")
    return kind, relative, row


def read_board(folder: str | Path, *, refresh: bool = True) -> Snapshot:
    """The board as of the last line of ``folder/log.jsonl`` (version 0 and empty when there is none yet).

    A torn last line (a submission killed while appending it) is not part of
    the board. With ``refresh``, table files at the top that are behind the
    log are rebuilt when the folder's lock is free (:func:`refresh_views`).
    """
    folder = Path(folder)
    log = folder / LOG
    if not log.is_file():
        if (folder / "current").exists() or (folder / "current").is_symlink():
            raise InputError(f"a leaderboard of an older format (no {LOG}); submit to a new folder", file=str(folder))
        return Snapshot(folder, 0)
    history: dict[str, dict[str, list[str]]] = {k.value: {} for k in Kind}
    latest: dict[str, dict[str, dict[str, Any]]] = {k.value: {} for k in Kind}
    fingerprint: str | None = None
    version = 0
    for number, entry in jsonl_rows(log, drop_torn_tail=True, skip_blank=False):
        kind, relative, row = _log_entry(entry, log, number)
        name = row["model_name"]
        paths = history[kind.value].setdefault(name, [])
        paths.append(relative)
        latest[kind.value][name] = {**row, "submissions": len(paths), "results_file": relative}
        if kind is Kind.FIGURES and fingerprint is None and isinstance(row.get("dataset_fingerprint"), str):
            fingerprint = row["dataset_fingerprint"]
        version = number
    snapshot = Snapshot(
        folder, version, fingerprint,
        {k: {n: tuple(p) for n, p in models.items()} for k, models in history.items() if models},
        {k.value: tuple(sort_rows(TABLES[k], list(latest[k.value].values()))) for k in Kind},
    )
    if refresh and _view(folder).get("version", 0) != version:
        refresh_views(folder)
    return snapshot


def check_board_dir(leaderboard: str | Path, option: str = "--leaderboard") -> Path:
    """A leaderboard folder a submission may write: new, empty, or holding a board; writable. Reads no history."""
    folder = Path(leaderboard)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder} exists and is not a folder", field=option)
    parent = folder.resolve().parent
    if not parent.is_dir():
        raise InputError(f"parent folder {parent} does not exist", field=option)
    writable = folder if folder.is_dir() else parent
    if not os.access(writable, os.W_OK | os.X_OK):
        raise InputError(f"folder {writable} is read-only", field=option)
    if folder.is_dir():
        names = {p.name for p in folder.iterdir() if not p.name.endswith((".link", ".tmp"))}
        if "current" in names and LOG not in names:
            raise InputError(f"folder {folder} is a leaderboard of an older format (no {LOG}); submit to a new folder", field=option)
        if LOG not in names and names and (".lock" not in names or names - _BOARD_ENTRIES):
            raise InputError(f"folder {folder} holds files but no board (no {LOG}); not a leaderboard folder", field=option)
    return folder


@contextmanager
def _board_lock(folder: Path, wait_s: float) -> Iterator[None]:
    """The folder's lock, waiting up to ``wait_s`` for another submission to finish."""
    deadline = time.monotonic() + wait_s
    stack = ExitStack()
    while True:
        try:
            stack.enter_context(locked(folder / ".lock", what="another submission", field="--leaderboard"))
            break
        except InputError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.02)
    with stack:
        yield


@contextmanager
def _writes(folder: Path, option: str = "--leaderboard") -> Iterator[None]:
    """Turn 'cannot write here' errors into bad input (exit 2) naming the folder."""
    try:
        yield
    except OSError as err:
        if err.errno in _NOT_WRITABLE:
            raise InputError(f"cannot write to leaderboard folder {folder}: {err.strerror}", field=option) from None
        raise


def _model_history(folder: Path, table: Table, name: str) -> tuple[str, ...]:
    """The published results files of ``name`` (the names in its folder sort by time); run after :func:`_sweep`."""
    models = folder / table.folder / name
    if not models.is_dir():
        return ()
    found = sorted(p.name for p in models.iterdir() if _RESULT.match(p.name) and p.is_file())
    return tuple(f"{table.folder}/{name}/{n}" for n in found)


def submit_payload(
    leaderboard: str | Path,
    kind: Kind,
    payload: dict[str, Any],
    assets: Mapping[str, bytes] | None = None,
    *,
    now: datetime | None = None,
    wait_s: float = LOCK_WAIT_S,
) -> Path:
    """Add one submission to ``kind``'s table by appending it to the board's log; returns the results file.

    ``payload`` is ``{"config": {"model_name", "submission_sha256", ...}, "results": {task: {...}}}``.
    Resubmitting what is already the model's latest submission (same
    ``submission_sha256``) changes nothing. A figure-reading board ranks one
    release: a payload for another dataset fingerprint is refused. The cost
    does not grow with the number of models on the board (amortised; see the
    module docstring).
    """
    folder = check_board_dir(leaderboard)
    table = TABLES[kind]
    name = payload["config"]["model_name"]
    if not isinstance(name, str) or ".." in name or not _NAME.match(name):
        raise InputError(f"expected NAME or ORG/NAME of letters, digits, '.', '_', '-', got {name!r}", field="model_name")
    with _writes(folder):
        folder.mkdir(exist_ok=True)
        with _board_lock(folder, wait_s):
            _sweep(folder)
            history = _model_history(folder, table, name)
            if history and Snapshot(folder, 0).load(history[-1])["config"].get("submission_sha256") == payload["config"]["submission_sha256"]:
                return folder / history[-1]
            fingerprint = _fingerprint(folder)
            new_fingerprint = None
            if kind is Kind.FIGURES:
                new_fingerprint = payload["config"]["dataset_fingerprint"]
                if fingerprint is not None and new_fingerprint != fingerprint:
                    raise InputError(f"this leaderboard ranks dataset {fingerprint[:16]}…; the predictions are for {new_fingerprint[:16]}…",
                                     field="--leaderboard")
            stamp = _stamp(now or datetime.now(timezone.utc), history)
            relative = f"{table.folder}/{name}/results_{stamp.strftime(_STAMP)}.json"
            payload = {**payload, "config": {**payload["config"], "submitted_at": stamp.isoformat().replace("+00:00", "Z")}}
            atomic_write_text(folder / PENDING, json.dumps([relative]) + "\n")  # what to clear if this submission is killed
            if assets:
                _write_assets(folder / relative.removesuffix(".json"), assets)
            atomic_write_text(folder / relative, dumps(payload))
            with LineAppender(folder / LOG, sync=True) as log:  # the one step that publishes the submission
                log.append({"kind": kind.value, "path": relative, "row": table_row(table, payload, len(history) + 1, relative)})
            if fingerprint is None and new_fingerprint is not None:
                atomic_write_text(folder / FINGERPRINT, new_fingerprint + "\n")
            if _views_due(folder):
                _write_views(read_board(folder, refresh=False))
            (folder / PENDING).unlink()
    return folder / relative


def _stamp(now: datetime, history: tuple[str, ...]) -> datetime:
    """``now`` in UTC, moved past the latest submission's time so names keep sorting by submission order."""
    now = now.astimezone(timezone.utc)
    if history:
        match = _RESULT.match(history[-1].rsplit("/", 1)[1])
        assert match is not None  # checked when the manifest was read
        latest = datetime.strptime(match.group(1), _STAMP).replace(tzinfo=timezone.utc)
        if now <= latest:
            now = latest + timedelta(microseconds=1)
    return now


def table_row(table: Table, payload: dict[str, Any], submissions: int, relative: str) -> dict[str, Any]:
    """One table row: the model, its provenance, each headline metric and its 95% interval."""
    config, results = payload["config"], payload["results"][table.task]
    row: dict[str, Any] = {"model_name": config["model_name"], "submissions": submissions, "results_file": relative}
    row.update({key: config.get(key) for key in ROW_CONFIG})
    for column in table.columns:
        row[column] = results.get(column)
        row[f"{column}_ci"] = results.get(f"{column}_ci")
    return row


def sort_rows(table: Table, rows: list[dict[str, Any]], column: str | None = None) -> list[dict[str, Any]]:
    """Best first by ``column`` (default: the table's first headline); missing values last, then by name."""
    column = column or table.columns[0]

    def key(row: dict[str, Any]) -> tuple[bool, float, str]:
        value = row.get(column)
        return (value is None, -(value if value is not None else 0.0), row["model_name"])

    return sorted(rows, key=key)


def table_markdown(table: Table, rows: list[dict[str, Any]]) -> str:
    """The table as Markdown: rank, model, submissions, each headline as ``value [low, high]``."""
    body = [[rank, row["model_name"], row["submissions"],
             *(format_metric(row.get(c), row.get(f"{c}_ci")) for c in table.columns)]
            for rank, row in enumerate(rows, start=1)]
    lines = [f"# {table.title}", "", *markdown_table(["rank", "model", "submissions", *table.labels], body)]
    return "\n".join(lines) + "\n"


def format_metric(value: float | None, ci: list[float] | None = None) -> str:
    """``0.700 [0.583, 0.817]``; ``—`` for a missing value.

    >>> format_metric(0.7, [0.58333, 0.81667]), format_metric(None)
    ('0.700 [0.583, 0.817]', '—')
    """
    if value is None:
        return "—"
    text = f"{value:.3f}"
    if ci and ci[0] is not None and ci[1] is not None:
        text += f" [{ci[0]:.3f}, {ci[1]:.3f}]"
    return text


def _fingerprint(folder: Path) -> str | None:
    """The release the figure-reading table ranks, or None before its first submission."""
    path = folder / FINGERPRINT
    return read_text(path, max_bytes=1024).strip() if path.is_file() else None


def _view(folder: Path) -> dict[str, Any]:
    """The manifest of the board ``current`` names (``{}`` when there is none or it is unreadable: a view to rebuild)."""
    current = _current(folder)
    if current is None:
        return {}
    try:
        manifest = read_json(folder / "boards" / current / "manifest.json", max_bytes=4096)
    except InputError:
        return {}
    return manifest if isinstance(manifest, dict) and manifest.get("format") == FORMAT else {}


def _current(folder: Path) -> str | None:
    """The board folder name that ``current`` points at (a link, or a small file where links do not survive)."""
    pointer = folder / "current"
    if pointer.is_symlink():
        target = os.readlink(pointer)
    elif pointer.is_file() and pointer.stat().st_size < 64:  # a copy made where links do not survive (an upload)
        target = read_text(pointer).strip()
    else:
        return None
    match = _BOARD.match(target)
    return f"{int(match.group(1)):06d}" if match else None


def _views_due(folder: Path) -> bool:
    """Whether the log has doubled since the views were last rebuilt (so rebuilds cost O(1) per submission, amortised)."""
    covered = _view(folder).get("log_bytes")
    return not isinstance(covered, int) or (folder / LOG).stat().st_size >= 2 * covered


def refresh_views(folder: str | Path) -> bool:
    """Rebuild the table files at the top from the log if the folder's lock is free; returns whether it did.

    A reader calls this when it finds them behind. It gives up, leaving them
    as they were, when a submission holds the lock (that submission or the
    next reader rebuilds them) or the folder cannot be written (a read-only
    copy): the tables :func:`read_board` returns come from the log either way.
    """
    folder = Path(folder)
    if not os.access(folder, os.W_OK | os.X_OK):
        return False
    try:
        with locked(folder / ".lock", what="another submission"):
            snapshot = read_board(folder, refresh=False)
            if _view(folder).get("version", 0) == snapshot.version:
                return False
            _write_views(snapshot)
    except InputError:
        return False
    except OSError as err:
        if err.errno in _NOT_WRITABLE:
            return False
        raise
    return True


def _write_views(snapshot: Snapshot) -> None:
    """Write the tables of ``snapshot`` as a new board folder and rename ``current`` onto it; call under the lock."""
    folder = snapshot.folder
    boards = folder / "boards"
    boards.mkdir(exist_ok=True)
    name = f"{snapshot.version:06d}"
    manifest = {"format": FORMAT, "version": snapshot.version, "log_bytes": (folder / LOG).stat().st_size,
                "dataset_fingerprint": snapshot.fingerprint}
    with atomic_dir(boards / name, overwrite=True, option="--leaderboard") as staging:
        (staging / "manifest.json").write_text(_compact(manifest), encoding="utf-8")
        for kind, table in TABLES.items():
            rows = snapshot.rows(kind)
            (staging / f"{table.stem}.json").write_text(_compact(rows), encoding="utf-8")
            (staging / f"{table.stem}.md").write_text(table_markdown(table, rows), encoding="utf-8")
    previous = _current(folder)
    for table in TABLES.values():
        for suffix in ("json", "md"):
            atomic_symlink(folder / f"{table.stem}.{suffix}", f"current/{table.stem}.{suffix}")
    atomic_symlink(folder / "current", f"boards/{name}")
    sync_dir(folder)
    for entry in boards.iterdir():  # keep the one a reader may still be reading
        if entry.name not in (name, previous):
            _remove(entry)


def _write_assets(target: Path, assets: Mapping[str, bytes]) -> None:
    """Write the files of ``assets`` into a new folder ``target``, renamed into place whole."""
    for name in assets:
        if "/" in name or name.startswith("."):
            raise ValueError(f"asset name {name!r} must be a plain file name")
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_dir(target, option="--leaderboard") as staging:
        for name, data in assets.items():
            (staging / name).write_bytes(data)


def _sweep(folder: Path) -> None:
    """Remove what a killed submission or rebuild left; call under the lock.

    A submission names its results file in ``.pending`` before writing it and
    removes ``.pending`` after appending its log line, so only the files it
    names (and their temporary siblings) are looked at, however long the
    history: they are kept if the log's last line names them (the kill came
    after the append), else removed.
    """
    for pattern in (".*.link", ".*.tmp"):  # half-made links, a half-written .pending
        for entry in folder.glob(pattern):
            entry.unlink(missing_ok=True)
    if (folder / "boards").is_dir():
        for entry in (folder / "boards").glob(".*"):  # a view rebuild that was killed
            _remove(entry)
    pending = folder / PENDING
    if not pending.is_file():
        return
    try:
        unfinished = parse_json(read_text(pending), file=pending)
    except InputError:
        unfinished = []  # torn while being written: the submission never got as far as writing its files
    last = last_line(folder / LOG)
    published = parse_json(last, file=folder / LOG) if last is not None else {}
    if not isinstance(published, dict):
        raise InputError("expected a JSON object on the last line", file=str(folder / LOG))
    for relative in unfinished if isinstance(unfinished, list) else []:
        if not isinstance(relative, str) or relative == published.get("path") or not _PENDING_PATH.match(relative):
            continue
        path = folder / relative
        stem = path.name.removesuffix(".json")
        if path.parent.is_dir():
            for entry in path.parent.iterdir():
                if entry.name in (path.name, stem) or entry.name.startswith(f".{stem}"):
                    _remove(entry)
    row = published.get("row")
    if published.get("kind") == Kind.FIGURES.value and isinstance(row, dict) and isinstance(row.get("dataset_fingerprint"), str) \
            and not (folder / FINGERPRINT).exists():
        atomic_write_text(folder / FINGERPRINT, f"{row['dataset_fingerprint']}\n")  # killed before writing it
    pending.unlink()


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
