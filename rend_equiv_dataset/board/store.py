"""The leaderboard folder: results files with their history, and tables that change in one atomic step.

Layout of ``LEADERBOARD/``::

    .lock                                   taken by every submission (flock; released if the process dies)
    .pending                                the results file a submission is writing (gone once it is published)
    current -> boards/000007                the one pointer; a submission renames a new one into place last
                                            (a copy where links do not survive may hold the text boards/000007)
    leaderboard.json, leaderboard.md        links to current/… (figure reading: one row per model)
    panels.json, panels.md                  links to current/… (judge panels: one row per panel)
    boards/000007/manifest.json             every submission, per table and model, oldest first
    boards/000007/{leaderboard,panels}.{json,md}
    results/<org>/<name>/results_<UTC time>.json   one figure-reading submission (HF results shape)
    results/<org>/<name>/results_<UTC time>/       its report plots and report.md
    panels/<org>/<name>/results_<UTC time>.json    one judge-panel submission (and its folder)

A submission writes its results file and assets under new names, then a new
board folder, then renames a fresh ``current`` link over the old one. Readers
resolve ``current`` once, so they see the old board or the new one, never a
mix. A kill before that rename leaves files that no manifest names; the next
submission removes them under the lock (``.pending`` says which). Result names sort by time, so the
latest result of a model is the last name in its folder, and the manifest
lists it last: nothing else has to be read to find it.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import shutil
import tempfile
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
from rend_equiv_dataset.io import atomic_write_text, locked
from rend_equiv_dataset.reports import markdown_table

FORMAT = 1
LOCK_WAIT_S = 120.0
_BOARD = re.compile(r"^boards/(\d{6})$")
_STAMP = "%Y-%m-%dT%H-%M-%S.%fZ"
_RESULT = re.compile(r"^results_(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{6}Z)\.json$")
PENDING = ".pending"
# what a leaderboard folder may hold before its first board is published (a first submission under way or killed)
_BOARD_ENTRIES = {".lock", PENDING, "boards", "results", "panels", "leaderboard.json", "leaderboard.md", "panels.json", "panels.md"}
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
    return json.dumps(_finite(payload), indent=2, sort_keys=True, allow_nan=False, ensure_ascii=False) + "\n"


def _compact(payload: Any) -> str:
    """One-line JSON for the board's own files (its values came from JSON already, so they are finite)."""
    return json.dumps(payload, sort_keys=True, allow_nan=False, ensure_ascii=False, separators=(",", ":")) + "\n"


def _finite(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


@dataclass(frozen=True)
class Snapshot:
    """One board as a reader sees it: the folder, its version and its manifest."""

    folder: Path
    version: int
    fingerprint: str | None = None
    submissions: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)

    @property
    def board_dir(self) -> Path:
        return self.folder / "boards" / f"{self.version:06d}"

    def history(self, kind: Kind, name: str) -> tuple[str, ...]:
        """Relative paths of ``name``'s submissions to the ``kind`` table, oldest first."""
        return tuple(self.submissions.get(kind.value, {}).get(name, ()))

    def names(self, kind: Kind) -> list[str]:
        return sorted(self.submissions.get(kind.value, {}))

    def rows(self, kind: Kind) -> list[dict[str, Any]]:
        """The table of ``kind``: one row per model, its latest submission (best first)."""
        if self.version == 0:
            return []
        path = self.board_dir / f"{TABLES[kind].stem}.json"
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise InputError(f"unreadable table: {err}", file=str(path)) from None
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            raise InputError("expected a JSON list of rows", file=str(path))
        return rows

    def load(self, relative: str) -> dict[str, Any]:
        """One results file of this board (a path from :meth:`history`)."""
        path = self.folder / relative
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise InputError(f"unreadable results file: {err}", file=str(path)) from None
        if not isinstance(payload, dict) or not isinstance(payload.get("config"), dict) or not isinstance(payload.get("results"), dict):
            raise InputError("expected {'config': {...}, 'results': {...}}", file=str(path))
        return payload

    def assets(self, relative: str) -> Path:
        """The folder of plots and report text beside a results file."""
        return self.folder / relative.removesuffix(".json")


def read_board(folder: str | Path) -> Snapshot:
    """The board that ``folder/current`` names (version 0 and empty when there is none yet)."""
    folder = Path(folder)
    pointer = folder / "current"
    if pointer.is_symlink():
        target = os.readlink(pointer)
    elif pointer.is_file() and pointer.stat().st_size < 64:  # a copy made where links do not survive (an upload)
        target = pointer.read_text(encoding="utf-8").strip()
    elif pointer.exists():
        raise InputError("expected a link to boards/NNNNNN", file=str(pointer))
    else:
        return Snapshot(folder, 0)
    match = _BOARD.match(target)
    if not match:
        raise InputError(f"expected a link to boards/NNNNNN, got {target!r}", file=str(pointer))
    path = folder / target / "manifest.json"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise InputError(f"unreadable manifest: {err}", file=str(path)) from None
    return _snapshot(folder, int(match.group(1)), manifest, path)


def _snapshot(folder: Path, version: int, manifest: Any, path: Path) -> Snapshot:
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or manifest.get("version") != version:
        raise InputError(f"expected a manifest of format {FORMAT} for version {version}", file=str(path))
    submissions = manifest.get("submissions")
    if not isinstance(submissions, dict) or set(submissions) - {k.value for k in Kind}:
        raise InputError("field 'submissions': expected {figures: {...}, panels: {...}}", file=str(path))
    checked: dict[str, dict[str, tuple[str, ...]]] = {}
    for kind, models in submissions.items():
        prefix = TABLES[Kind(kind)].folder + "/"
        if not isinstance(models, dict):
            raise InputError(f"field 'submissions.{kind}': expected an object", file=str(path))
        for name, paths in models.items():
            ok = isinstance(paths, list) and paths and all(
                isinstance(p, str) and p.startswith(prefix + name + "/") and ".." not in p and _RESULT.match(p.rsplit("/", 1)[1]) for p in paths
            )
            if not ok:
                raise InputError(f"field 'submissions.{kind}.{name}': expected a list of {prefix}{name}/results_TIME.json", file=str(path))
        checked[kind] = {name: tuple(paths) for name, paths in models.items()}
    fingerprint = manifest.get("dataset_fingerprint")
    if fingerprint is not None and not isinstance(fingerprint, str):
        raise InputError("field 'dataset_fingerprint': expected a string or null", file=str(path))
    return Snapshot(folder, version, fingerprint, checked)


def check_board_dir(leaderboard: str | Path, option: str = "--leaderboard") -> Path:
    """A leaderboard folder a submission may write: new, empty, or holding a board; writable; its board readable."""
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
        if "current" not in names and names and (".lock" not in names or names - _BOARD_ENTRIES):
            raise InputError(f"folder {folder} holds files but no board (no 'current' link); not a leaderboard folder", field=option)
        read_board(folder)
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


def submit_payload(
    leaderboard: str | Path,
    kind: Kind,
    payload: dict[str, Any],
    assets: Mapping[str, bytes] | None = None,
    *,
    now: datetime | None = None,
    wait_s: float = LOCK_WAIT_S,
) -> Path:
    """Add one submission to ``kind``'s table and publish the new board; returns the results file.

    ``payload`` is ``{"config": {"model_name", "submission_sha256", ...}, "results": {task: {...}}}``.
    Resubmitting what is already the model's latest submission (same
    ``submission_sha256``) changes nothing. A figure-reading board ranks one
    release: a payload for another dataset fingerprint is refused.
    """
    folder = check_board_dir(leaderboard)
    table = TABLES[kind]
    name = payload["config"]["model_name"]
    with _writes(folder):
        folder.mkdir(exist_ok=True)
        with _board_lock(folder, wait_s):
            snapshot = read_board(folder)
            _sweep(snapshot)
            history = snapshot.history(kind, name)
            if history and snapshot.load(history[-1])["config"].get("submission_sha256") == payload["config"]["submission_sha256"]:
                return folder / history[-1]
            fingerprint = snapshot.fingerprint
            if kind is Kind.FIGURES:
                new = payload["config"]["dataset_fingerprint"]
                if fingerprint is not None and new != fingerprint:
                    raise InputError(f"this leaderboard ranks dataset {fingerprint[:16]}…; the predictions are for {new[:16]}…", field="--leaderboard")
                fingerprint = new
            stamp = _stamp(now or datetime.now(timezone.utc), history)
            relative = f"{table.folder}/{name}/results_{stamp.strftime(_STAMP)}.json"
            if not isinstance(name, str) or ".." in name or not _PENDING_PATH.match(relative):
                raise InputError(f"expected NAME or ORG/NAME of letters, digits, '.', '_', '-', got {name!r}", field="model_name")
            payload = {**payload, "config": {**payload["config"], "submitted_at": stamp.isoformat().replace("+00:00", "Z")}}
            atomic_write_text(folder / PENDING, json.dumps([relative]) + "\n")  # what to clear if this submission is killed
            if assets:
                _write_assets(folder / relative.removesuffix(".json"), assets)
            atomic_write_text(folder / relative, dumps(payload))
            submissions = {k.value: dict(snapshot.submissions.get(k.value, {})) for k in Kind}
            submissions[kind.value][name] = (*history, relative)
            rows = {k: snapshot.rows(k) for k in Kind}
            rows[kind] = [r for r in rows[kind] if r["model_name"] != name] + [table_row(table, payload, len(history) + 1, relative)]
            _publish(folder, snapshot.version + 1, fingerprint, submissions, rows)
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


def _write_assets(target: Path, assets: Mapping[str, bytes]) -> None:
    """Write the files of ``assets`` into a new folder ``target``, renamed into place whole."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        os.chmod(staging, 0o755)
        for name, data in assets.items():
            if "/" in name or name.startswith("."):
                raise ValueError(f"asset name {name!r} must be a plain file name")
            (staging / name).write_bytes(data)
        os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _publish(folder: Path, version: int, fingerprint: str | None,
             submissions: dict[str, dict[str, tuple[str, ...]]], rows: dict[Kind, list[dict[str, Any]]]) -> None:
    """Write board ``version`` beside the current one, then rename the ``current`` link onto it."""
    boards = folder / "boards"
    boards.mkdir(exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{version:06d}.", dir=boards))
    try:
        os.chmod(staging, 0o755)
        manifest = {"format": FORMAT, "version": version, "dataset_fingerprint": fingerprint,
                    "submissions": {k: {n: list(p) for n, p in sorted(v.items())} for k, v in submissions.items()}}
        files = {"manifest.json": _compact(manifest)}
        for kind, table in TABLES.items():
            ordered = sort_rows(table, rows[kind])
            files[f"{table.stem}.json"] = _compact(ordered)
            files[f"{table.stem}.md"] = table_markdown(table, ordered)
        for name, text in files.items():
            with open(staging / name, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(staging, boards / f"{version:06d}")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    for table in TABLES.values():
        for suffix in ("json", "md"):
            _link(folder / f"{table.stem}.{suffix}", f"current/{table.stem}.{suffix}")
    _link(folder / "current", f"boards/{version:06d}")
    (folder / PENDING).unlink(missing_ok=True)
    _sync_dir(folder)


def _link(path: Path, target: str) -> None:
    """Point the symlink ``path`` at ``target`` by renaming a new link over it (atomic)."""
    if path.is_symlink() and os.readlink(path) == target:
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.link")
    temporary.unlink(missing_ok=True)
    os.symlink(target, temporary)
    os.replace(temporary, path)


def _sync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sweep(snapshot: Snapshot) -> None:
    """Remove what a killed submission left and boards older than the previous one.

    A submission names its results file in ``.pending`` before writing it and
    removes ``.pending`` after the link swap, so only the files it names (and
    their temporary siblings) are looked at, however long the history. Runs
    under the lock, so nothing it removes is being written.
    """
    folder = snapshot.folder
    for pattern in (".*.link", ".*.tmp"):  # half-made links, a half-written .pending
        for entry in folder.glob(pattern):
            entry.unlink(missing_ok=True)
    keep_boards = {f"{v:06d}" for v in (snapshot.version, snapshot.version - 1)}
    if (folder / "boards").is_dir():
        for entry in (folder / "boards").iterdir():
            if entry.name not in keep_boards:
                _remove(entry)
    pending = folder / PENDING
    if not pending.is_file():
        return
    listed = {p for models in snapshot.submissions.values() for paths in models.values() for p in paths}
    try:
        unfinished = json.loads(pending.read_text(encoding="utf-8"))
    except ValueError:
        unfinished = []  # torn while being written: the submission never got as far as writing its files
    for relative in unfinished if isinstance(unfinished, list) else []:
        if not isinstance(relative, str) or relative in listed or not _PENDING_PATH.match(relative):
            continue
        path = folder / relative
        stem = path.name.removesuffix(".json")
        if path.parent.is_dir():
            for entry in path.parent.iterdir():
                if entry.name in (path.name, stem) or entry.name.startswith(f".{stem}"):
                    _remove(entry)
    pending.unlink()


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)
