"""The one io home: reading JSONL input, writing files atomically, locks and the file mode.

Every command reads and writes through here, so every output follows one
policy: a file appears whole or not at all (written beside its target, then
renamed into place), and it gets the mode an ordinary file gets under the
user's umask (0644 under the usual 022), never mkstemp's private 0600.
"""

from __future__ import annotations

import contextlib
import fcntl
import gzip
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from rend_equiv_dataset.errors import InputError


def jsonl_rows(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line of a ``.jsonl`` or ``.jsonl.gz`` file.

    Bad JSON, a line that is not a JSON object, undecodable text or a broken
    gzip stream raise :class:`InputError` naming the file (and line).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "rows.jsonl"
    >>> _ = p.write_text('{"a": 1}\\n\\n[2]\\n')
    >>> rows = jsonl_rows(p)
    >>> next(rows)
    (1, {'a': 1})
    >>> next(rows)
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: ...rows.jsonl:3: expected a JSON object, got list
    """
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        handle = opener(path, "rt", encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot open: {err.strerror or err}", file=str(path)) from None
    with handle:
        try:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                except json.JSONDecodeError as err:
                    raise InputError(f"not valid JSON: {err.msg}", file=str(path), line=number) from None
                if not isinstance(row, dict):
                    raise InputError(f"expected a JSON object, got {type(row).__name__}", file=str(path), line=number)
                yield number, row
        except UnicodeDecodeError as err:
            raise InputError(f"not UTF-8 text: {err.reason}", file=str(path)) from None
        except (EOFError, gzip.BadGzipFile) as err:
            raise InputError(f"unreadable: {err}", file=str(path)) from None


def file_mode() -> int:
    """The mode of a new ordinary file under the current umask (0o644 under umask 022)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@contextlib.contextmanager
def atomic_writer(path: str | Path, *, binary: bool = False) -> Iterator[IO[Any]]:
    """Yield a handle on a temporary file beside ``path``; on success it replaces ``path``.

    On any exception (Ctrl-C included) the temporary file is removed and
    ``path`` is left as it was. The finished file is synced before the rename
    and gets :func:`file_mode`.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_writer(p) as handle:
    ...     _ = handle.write("whole")
    >>> p.read_text(), oct(p.stat().st_mode & 0o777) == oct(file_mode())
    ('whole', True)
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb" if binary else "w", **({} if binary else {"encoding": "utf-8"})) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, file_mode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (see :func:`atomic_writer`)."""
    with atomic_writer(path) as handle:
        handle.write(text)


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_writer`)."""
    with atomic_writer(path, binary=True) as handle:
        handle.write(data)


def write_jsonl(path: str | Path, rows: Iterable[dict[str, Any]], *, meta: dict[str, Any] | None = None) -> int:
    """Write ``rows`` as JSONL atomically, after an optional ``{"meta": ...}`` first line; returns the row count.

    NaN and infinities are refused (``ValueError``): JSON has no such numbers.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "rows.jsonl"
    >>> write_jsonl(p, [{"a": 1}, {"b": "é"}], meta={"model": "m"})
    2
    >>> p.read_text(encoding="utf-8").splitlines()
    ['{"meta": {"model": "m"}}', '{"a": 1}', '{"b": "é"}']
    """
    count = 0
    with atomic_writer(path) as handle:
        if meta is not None:
            handle.write(json.dumps({"meta": meta}, allow_nan=False, sort_keys=True, ensure_ascii=False) + "\n")
        for row in rows:
            handle.write(json.dumps(row, allow_nan=False, ensure_ascii=False) + "\n")
            count += 1
    return count


@contextlib.contextmanager
def locked(path: str | Path, *, what: str = "another process", field: str | None = None) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` (created if missing) for the ``with`` block.

    The lock is ``flock``-based, so it is released when the process dies, a
    kill included. A lock already held raises :class:`InputError` at once
    instead of waiting, naming ``what`` holds it.

    >>> import tempfile, pathlib
    >>> lock = pathlib.Path(tempfile.mkdtemp()) / ".lock"
    >>> with locked(lock):
    ...     with locked(lock, what="another submission"):
    ...         pass
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: ...: another submission holds the lock; wait for it to finish
    """
    path = Path(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, file_mode())
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise InputError(f"{what} holds the lock; wait for it to finish", file=str(path), field=field) from None
        yield
    finally:
        os.close(fd)
