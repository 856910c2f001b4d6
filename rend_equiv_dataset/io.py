"""The one io home: reading JSON and JSONL input, writing files and folders atomically, locks and the file mode.

Every command reads and writes through here, so every input meets the same
limits and every output follows one policy.

Reading. :func:`jsonl_rows`, :func:`read_json` and :func:`parse_json` refuse,
with an :class:`~rend_equiv_dataset.errors.InputError` naming the file, line
and field, whatever would otherwise end in a traceback or a silently wrong
value: an unreadable or over-large file, a line over the size cap, bytes that
are not UTF-8, a broken gzip stream, JSON nested deeper than
:data:`MAX_DEPTH` (checked by a linear scan before the parser recurses),
``NaN``/``Infinity`` and numbers that overflow to infinity, strings holding a
lone UTF-16 surrogate (they cannot be written back as UTF-8) and duplicate
keys. Every echo of the offending input is cut to :data:`ECHO_CHARS`
characters (:func:`echo`), so a 1 MB bad id prints as one short line.

Writing. A file appears whole or not at all (:func:`atomic_writer`: written
beside its target, synced, renamed into place) and gets the mode an ordinary
file gets under the user's umask (0644 under the usual 022), never mkstemp's
private 0600. A folder is built in a staging folder beside its target and
renamed into place (:func:`atomic_dir`) under a lock on the target
(:func:`output_lock`), so two writers of one folder never race: the second
refuses at once. Whatever a killed writer left beside the target (a staging
folder, an old release moved aside by ``--overwrite``) is cleaned up or put
back by the next writer, before it starts.
"""

from __future__ import annotations

import contextlib
import fcntl
import gzip
import itertools
import json
import math
import os
import re
import shutil
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, cast

from rend_equiv_dataset.errors import InputError

#: Deepest nesting of arrays and objects accepted in one JSON value.
MAX_DEPTH = 64
#: Longest JSONL line accepted, in bytes (without its newline).
MAX_LINE_BYTES = 64 * 2**20
#: Largest input file accepted, in bytes (after gzip decompression).
MAX_FILE_BYTES = 8 * 2**30
#: Longest echo of a bad value in an error message, in characters.
ECHO_CHARS = 200

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# Only these can overflow a float: an exponent of three or more digits, or 309 digits in a row.
_BIG_EXPONENT = re.compile(r"[eE]\+?\d\d\d")
_LONG_DIGITS = re.compile(r"\d{309}")


def echo(value: object, limit: int = ECHO_CHARS) -> str:
    """``repr(value)`` cut to about ``limit`` characters, saying how long it was.

    >>> echo("abc")
    "'abc'"
    >>> echo("x" * 1_000_000, limit=12)
    "'xxxxxxxxxx… (1000002 characters)"
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit - 1]}… ({len(text)} characters)"


# --------------------------------------------------------------------------- reading


def _too_deep(text: str, max_depth: int) -> bool:
    """Whether arrays/objects nest deeper than ``max_depth`` (brackets inside strings do not count); linear."""
    if text.count("[") + text.count("{") <= max_depth:
        return False
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    depth = 0
    for char in brackets:
        if char in "[{":
            depth += 1
            if depth > max_depth:
                return True
        else:
            depth -= 1
    return False


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` refusing a key given twice; linear in the number of keys."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"duplicate key {echo(key)}")
            seen.add(key)
    return value


class _Refused(ValueError):
    """A value the JSON grammar allows but this reader refuses (the message is the user's)."""


# NaN/Infinity parse to floats so that the check after parsing can name their field.
_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=float)


def _path_join(path: str, key: object) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _first(value: Any, bad: Callable[[Any], bool], path: str = "") -> str | None:
    """The path (``a.b[2]``) of the first leaf for which ``bad`` holds, or of the object holding such a key."""
    if isinstance(value, dict):
        for key, item in value.items():
            if bad(key):
                return path
            found = _first(item, bad, _path_join(path, key))
            if found is not None:
                return found
        return None
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _first(item, bad, _path_join(path, index))
            if found is not None:
                return found
        return None
    return path if bad(value) else None


def _not_finite(value: Any) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _lone_surrogate(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _below(field: str | None, path: str) -> str | None:
    """``path`` inside ``field`` (``field.path``), cut to :data:`ECHO_CHARS`; None when both are empty."""
    joined = (_path_join(field, path) if path and not path.startswith("[") else field + path) if field else path
    joined = joined.encode("utf-8", "backslashreplace").decode("utf-8")  # a key may hold a lone surrogate
    return (joined if len(joined) <= ECHO_CHARS else echo(joined)) or None


def parse_json(text: str, *, file: str | os.PathLike[str] | None = None, line: int | None = None,
               field: str | None = None, max_depth: int = MAX_DEPTH) -> Any:
    """Parse one JSON value with this module's limits; any violation raises :class:`InputError`.

    ``file``, ``line`` and ``field`` say where ``text`` came from (``field``
    when it is a JSON string held in a field of a larger record); a bad value
    inside it is named by its path below ``field``.

    >>> parse_json('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> parse_json('{"meta": {"t": 1e999}}', file="p.jsonl", line=1)
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: p.jsonl:1: field 'meta.t': not a finite number (NaN, Infinity or too large for a float)
    >>> parse_json("[" * 100_000 + "]" * 100_000, file="p.json")
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: p.json: nested deeper than 64 levels
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if _too_deep(text, max_depth):
        raise InputError(f"nested deeper than {max_depth} levels", file=file, line=line, field=field)
    try:
        value = _DECODER.decode(text)
    except _Refused as err:
        raise InputError(str(err), file=file, line=line, field=field) from None
    except json.JSONDecodeError as err:
        raise InputError(f"not valid JSON ({err.msg} at column {err.colno})", file=file,
                         line=line if line is not None else err.lineno, field=field) from None
    except RecursionError:
        raise InputError("nested too deeply", file=file, line=line, field=field) from None
    except ValueError as err:  # e.g. an integer of more digits than Python converts
        raise InputError(f"not valid JSON ({str(err)[:ECHO_CHARS]})", file=file, line=line, field=field) from None
    if ("NaN" in text or "Infinity" in text or _BIG_EXPONENT.search(text) or _LONG_DIGITS.search(text)) and (
        (where := _first(value, _not_finite)) is not None
    ):
        raise InputError("not a finite number (NaN, Infinity or too large for a float)",
                         file=file, line=line, field=_below(field, where))
    if _SURROGATE_ESCAPE.search(text) and (where := _first(value, _lone_surrogate)) is not None:
        raise InputError("a lone UTF-16 surrogate (\\ud800-\\udfff) is not text",
                         file=file, line=line, field=_below(field, where))
    return value


def _open_binary(path: Path) -> IO[bytes]:
    try:
        if path.is_dir():
            raise IsADirectoryError(21, "is a folder, expected a file")
        return cast(IO[bytes], gzip.open(path, "rb")) if path.suffix == ".gz" else open(path, "rb")  # noqa: SIM115
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror or err}", file=path) from None


@contextlib.contextmanager
def _read_errors(path: Path) -> Iterator[None]:
    """Turn what a damaged or unreadable file raises while reading into :class:`InputError`."""
    try:
        yield
    except (EOFError, gzip.BadGzipFile, zlib.error) as err:
        raise InputError(f"not a readable gzip file ({err or 'truncated'})", file=path) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror or err}", file=path) from None


def read_bytes(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path`` (decompressed if it ends in ``.gz``), refusing more than ``max_bytes``."""
    path = Path(path)
    with _open_binary(path) as handle, _read_errors(path):
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise InputError(f"larger than {max_bytes} bytes", file=path)
    return data


def read_text(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of ``path`` (see :func:`read_bytes`); other bytes raise :class:`InputError`."""
    data = read_bytes(path, max_bytes=max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - data.rfind(b"\n", 0, err.start)
        raise InputError(f"not UTF-8 text (byte {column} of the line)", file=path, line=line) from None


def read_json(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """One JSON document from ``path``, with :func:`parse_json`'s limits."""
    return parse_json(read_text(path, max_bytes=max_bytes), file=path, max_depth=max_depth)


def jsonl_rows(
    path: str | Path,
    *,
    drop_torn_tail: bool = False,
    skip_blank: bool = True,
    max_line_bytes: int = MAX_LINE_BYTES,
    max_bytes: int = MAX_FILE_BYTES,
    max_depth: int = MAX_DEPTH,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each line of a ``.jsonl`` or ``.jsonl.gz`` file.

    Each line is parsed by :func:`parse_json` and must be a JSON object.

    Args:
        path: the file; a ``.gz`` suffix means gzip.
        drop_torn_tail: drop a last line without its newline (what a writer
            killed mid-``write`` leaves) instead of parsing it.
        skip_blank: skip blank lines; when False a blank line is an error
            (a final newline is not a blank line).
        max_line_bytes, max_bytes, max_depth: the limits, in bytes per line,
            bytes per file (decompressed) and nesting levels.

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
    lines = jsonl_lines(path, drop_torn_tail=drop_torn_tail, skip_blank=skip_blank, max_line_bytes=max_line_bytes,
                        max_bytes=max_bytes)
    for number, text in lines:
        yield number, json_object(text, file=Path(path), line=number, max_depth=max_depth)


def jsonl_lines(
    path: str | Path,
    *,
    drop_torn_tail: bool = False,
    skip_blank: bool = True,
    max_line_bytes: int = MAX_LINE_BYTES,
    max_bytes: int = MAX_FILE_BYTES,
) -> Iterator[tuple[int, str]]:
    """(line number, text) for each line of a ``.jsonl`` or ``.jsonl.gz`` file, unparsed: :func:`jsonl_rows` without
    the parsing, for a reader that parses elsewhere (another process) with :func:`json_object`. Same limits and errors."""
    path = Path(path)
    name = path
    total = 0
    with _open_binary(path) as handle, _read_errors(path):
        number = 0
        while True:
            raw = handle.readline(max_line_bytes + 2)
            if not raw:
                return
            number += 1
            total += len(raw)
            if total > max_bytes:
                raise InputError(f"larger than {max_bytes} bytes", file=name, line=number)
            ended = raw.endswith(b"\n")
            content = raw[:-1] if ended else raw
            if content.endswith(b"\r"):
                content = content[:-1]
            if len(content) > max_line_bytes:
                raise InputError(f"line longer than {max_line_bytes} bytes", file=name, line=number)
            if not ended and drop_torn_tail:
                return
            try:
                text = content.decode("utf-8")
            except UnicodeDecodeError as err:
                raise InputError(f"not UTF-8 text (byte {err.start + 1} of the line)", file=name, line=number) from None
            if not text.strip():
                if skip_blank:
                    continue
                raise InputError("blank line; expected one JSON object per line", file=name, line=number)
            yield number, text


def json_object(text: str, *, file: str | os.PathLike[str] | None = None, line: int | None = None,
                max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """One line of a ``.jsonl`` file parsed by :func:`parse_json`, which must be a JSON object."""
    row = parse_json(text, file=file, line=line, max_depth=max_depth)
    if not isinstance(row, dict):
        raise InputError(f"expected a JSON object, got {type(row).__name__}", file=file, line=line)
    return row


def read_parquet(path: str | Path, columns: Iterable[str] | None = None) -> Any:
    """A ``pyarrow.Table`` from one parquet file; a missing, empty, truncated or garbage file raises :class:`InputError`.

    With ``columns``, a column the file lacks is named as the field.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    wanted = None if columns is None else list(columns)
    try:
        if wanted is not None:
            names = set(pq.read_schema(path).names)
            if missing := [c for c in wanted if c not in names]:
                raise InputError(f"missing columns {missing}", file=path, field=missing[0])
        return pq.read_table(path, columns=wanted)
    except (pa.ArrowException, OSError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise InputError(f"not a readable parquet file ({reason[:ECHO_CHARS]})", file=path) from None


def parquet_batches(path: str | Path, columns: Iterable[str], *, batch_rows: int = 8192) -> Iterator[list[dict[str, Any]]]:
    """The rows of one parquet file as lists of dicts, ``batch_rows`` at a time (memory bounded by the batch).

    Errors as :func:`read_parquet`'s: a missing column is named as the field,
    an unreadable file raises :class:`InputError`.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    wanted = list(columns)
    try:
        handle = pq.ParquetFile(path)
        if missing := [c for c in wanted if c not in set(handle.schema_arrow.names)]:
            raise InputError(f"missing columns {missing}", file=path, field=missing[0])
        for batch in handle.iter_batches(batch_size=batch_rows, columns=wanted):
            yield batch.to_pylist()
    except (pa.ArrowException, OSError) as err:
        reason = getattr(err, "strerror", None) or str(err)
        raise InputError(f"not a readable parquet file ({reason[:ECHO_CHARS]})", file=path) from None


def cut_torn_tail(path: str | Path) -> None:
    """Truncate ``path`` after its last newline, removing a torn line left by a killed appender."""
    path = Path(path)
    if not path.is_file():
        return
    size = path.stat().st_size
    if size == 0:
        return
    with open(path, "r+b") as handle:
        step = 1 << 16
        end = size
        while end > 0:
            start = max(0, end - step)
            handle.seek(start)
            chunk = handle.read(end - start)
            if end == size and chunk.endswith(b"\n"):
                return
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                handle.truncate(start + cut + 1)
                return
            end = start
        handle.truncate(0)


def last_line(path: str | Path, *, max_line_bytes: int = MAX_LINE_BYTES) -> str | None:
    """The last newline-terminated line of ``path`` (without its newline), read from the end; a torn tail is skipped.

    None when the file is missing or holds no whole line. Its cost does not
    grow with the file.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "log.jsonl"
    >>> _ = p.write_bytes(b'{"a": 1}\\n{"a": 2}\\n{"a": 3')
    >>> last_line(p)
    '{"a": 2}'
    """
    path = Path(path)
    if not path.is_file():
        return None
    with _open_binary(path) as handle, _read_errors(path):
        end = handle.seek(0, os.SEEK_END)
        tail = b""
        while end > 0 and tail.count(b"\n") < 2 and len(tail) <= max_line_bytes + 2:
            start = max(0, end - (1 << 16))
            handle.seek(start)
            tail = handle.read(end - start) + tail
            end = start
    whole = tail[: tail.rfind(b"\n")] if b"\n" in tail else None
    if whole is None:
        return None
    line = whole[whole.rfind(b"\n") + 1:]
    if len(line) > max_line_bytes:
        raise InputError(f"line longer than {max_line_bytes} bytes", file=path)
    try:
        return line.decode("utf-8").removesuffix("\r")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start + 1} of the last line)", file=path) from None


# --------------------------------------------------------------------------- writing files


def file_mode() -> int:
    """The mode of a new ordinary file under the current umask (0o644 under umask 022)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def private_appender(path: str | Path) -> IO[str]:
    """``path`` opened for appending text, readable and writable by its owner only (0600; an
    existing file is narrowed to it): for results that hold executed code and its labels.

    >>> import tempfile; p = Path(tempfile.mkdtemp()) / "results.jsonl"
    >>> with private_appender(p) as handle:
    ...     _ = handle.write("{}\\n")
    >>> oct(p.stat().st_mode & 0o777)
    '0o600'
    """
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        os.fchmod(fd, 0o600)
    except OSError:
        os.close(fd)
        raise
    return os.fdopen(fd, "a", encoding="utf-8")


def _dir_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o777 & ~umask


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
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8") as handle:
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
    head = [json.dumps({"meta": meta}, allow_nan=False, sort_keys=True, ensure_ascii=False) + "\n"] if meta is not None else []
    return write_lines(path, itertools.chain(head, map(jsonl_line, rows))) - len(head)


def jsonl_line(row: dict[str, Any]) -> str:
    """One row as :func:`write_jsonl` writes it (with its newline)."""
    return json.dumps(row, allow_nan=False, ensure_ascii=False) + "\n"


def write_lines(path: str | Path, lines: Iterable[str]) -> int:
    """Write text lines (each with its newline, e.g. from :func:`jsonl_line`) atomically; returns the line count."""
    count = 0
    with atomic_writer(path) as handle:
        for line in lines:
            handle.write(line)
            count += 1
    return count


def write_json(path: str | Path, value: Any, *, indent: int | None = 2, sort_keys: bool = True,
               ensure_ascii: bool = False) -> None:
    """Write ``value`` as one JSON document (and a final newline) to ``path`` atomically.

    NaN and infinities are refused (``ValueError``); non-ASCII text is kept as
    is unless ``ensure_ascii``.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "report.json"
    >>> write_json(p, {"b": 1, "a": "é"}, indent=None)
    >>> p.read_text(encoding="utf-8")
    '{"a": "é", "b": 1}\\n'
    """
    text = json.dumps(value, indent=indent, sort_keys=sort_keys, allow_nan=False, ensure_ascii=ensure_ascii)
    atomic_write_text(path, text + "\n")


class LineAppender:
    """Appends JSON lines to a file, each line one ``write`` (a reader sees whole lines, or a torn last one).

    Opening cuts a torn last line that a killed appender left
    (:func:`cut_torn_tail`). With ``sync`` every line is synced to disk before
    :meth:`append` returns, so a line that was appended survives a crash.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "log.jsonl"
    >>> _ = p.write_text('{"a": 1}\\n{"a": 2')
    >>> with LineAppender(p) as log:
    ...     log.append({"a": 3})
    >>> p.read_text()
    '{"a": 1}\\n{"a": 3}\\n'
    """

    def __init__(self, path: str | Path, *, sync: bool = False) -> None:
        self.path = Path(path)
        self.sync = sync
        cut_torn_tail(self.path)
        self._fd: int | None = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, file_mode())

    def append(self, row: Any) -> None:
        """Append ``row`` as one JSON line (keys in their order); NaN and infinities are refused (``ValueError``)."""
        if self._fd is None:
            raise ValueError(f"{self.path} is closed")
        os.write(self._fd, (json.dumps(row, allow_nan=False, ensure_ascii=False) + "\n").encode("utf-8"))
        if self.sync:
            os.fsync(self._fd)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> LineAppender:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def atomic_symlink(path: str | Path, target: str) -> None:
    """Point the symbolic link ``path`` at ``target`` by renaming a new link over it: readers see the old or the new."""
    path = Path(path)
    if path.is_symlink() and os.readlink(path) == target:
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.link")
    temporary.unlink(missing_ok=True)
    os.symlink(target, temporary)
    os.replace(temporary, path)


def rename_into_place(partial: str | Path, final: str | Path) -> None:
    """Give a finished file written under a temporary name its final name (``os.replace``: readers see it whole or not).

    For writers that learn a file's name only after writing it (parquet shards named
    ``-NNNNN-of-NNNNN`` once their count is known); the folder itself is staged by :func:`atomic_dir`.
    """
    os.replace(partial, final)


def sync_dir(folder: str | Path) -> None:
    """Sync the entries of ``folder`` (renames and new names in it) to disk."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- locks

@contextlib.contextmanager
def locked(path: str | Path, *, what: str = "another process", field: str | None = None,
           remove: bool = False) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` (created if missing) for the ``with`` block.

    The lock is ``flock``-based, so it is released when the process dies, a
    kill included. A lock already held (by another process, or by another
    ``with`` block of this one) raises :class:`InputError` at once instead of
    waiting, naming ``what`` holds it. With ``remove`` the lock file is
    deleted on release (a waiter that locked the deleted file notices and
    locks the new one, so two holders never coexist).

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
    while True:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, file_mode())
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise InputError(f"{what} holds the lock; wait for it to finish", file=path, field=field) from None
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the holder before us removed this file on release: lock the new one
    try:
        yield
    finally:
        if remove:
            path.unlink(missing_ok=True)
        os.close(fd)


# --------------------------------------------------------------------------- writing folders


def check_output_dir(out: str | os.PathLike[str], *, overwrite: bool, option: str = "--out") -> Path:
    """Validate an output folder: refuse a file, a non-empty folder unless ``overwrite``, and an unwritable parent.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "x").write_text("1")
    1
    >>> check_output_dir(d, overwrite=False)
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field '--out': folder ... is not empty; pass --overwrite to replace it
    >>> check_output_dir(d / "x", overwrite=True)
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field '--out': .../x exists and is not a folder
    """
    target = Path(out)
    if not str(out).strip() or target.name in ("", ".", ".."):
        raise InputError(f"expected a folder name, got {echo(str(out))}", field=option)
    if target.exists() and not target.is_dir():
        raise InputError(f"{target} exists and is not a folder", field=option)
    try:
        non_empty = target.is_dir() and any(target.iterdir())
    except OSError as err:
        raise InputError(f"cannot list {target}: {err.strerror or err}", field=option) from None
    if non_empty and not overwrite:
        raise InputError(f"folder {target} is not empty; pass --overwrite to replace it", field=option)
    _check_parent(target, option)
    return target


def check_output_file(out: str | os.PathLike[str], *, option: str = "--out") -> Path:
    """Validate an output file path: refuse a folder, a missing parent folder and an unwritable one.

    >>> import tempfile
    >>> check_output_file(tempfile.mkdtemp())
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: field '--out': ... is a folder; expected a file path
    """
    target = Path(out)
    if not str(out).strip() or target.name in ("", ".", ".."):
        raise InputError(f"expected a file name, got {echo(str(out))}", field=option)
    if target.is_dir():
        raise InputError(f"{target} is a folder; expected a file path", field=option)
    _check_parent(target, option)
    return target


def _check_parent(target: Path, option: str) -> None:
    parent = target.absolute().parent
    if not parent.is_dir():
        raise InputError(f"parent folder {parent} does not exist", field=option)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"cannot write in {parent}", field=option)


def _beside(final: Path, kind: str) -> str:
    return f".{final.name}.{kind}-"


def recover_output_dir(final: Path) -> None:
    """Clean up after a writer of ``final`` that was killed; call with :func:`output_lock` held.

    A staging folder (``.NAME.partial-*``) is removed. An old release that
    ``--overwrite`` had moved aside (``.NAME.old-*``) is put back if the kill
    came before the new one was renamed into place, else removed.
    """
    parent = final.absolute().parent
    for entry in sorted(parent.glob(_beside(final, "partial") + "*")):
        shutil.rmtree(entry, ignore_errors=True)
    for entry in sorted(parent.glob(_beside(final, "old") + "*")):
        kept = entry / final.name
        if not os.path.lexists(final) and kept.is_dir():
            os.replace(kept, final)
        shutil.rmtree(entry, ignore_errors=True)


_HELD_OUTPUTS: set[str] = set()


@contextlib.contextmanager
def output_lock(target: str | os.PathLike[str], *, option: str = "--out") -> Iterator[Path]:
    """Hold the lock of the output folder ``target`` and repair what a killed writer left; yields the path.

    The lock is the file ``.NAME.lock`` beside ``target``, removed on release.
    A second writer of the same folder gets :class:`InputError` at once. Take
    it before any work that leaves files beside the target (a cache), so a
    refused writer leaves nothing behind. Nested in the same process (a
    command holding it around :func:`atomic_dir`) it is taken once.
    """
    final = Path(target)
    lock = final.absolute().parent / f".{final.name}.lock"
    key = str(lock)
    if key in _HELD_OUTPUTS:
        yield final
        return
    with locked(lock, what="another command writing this folder", field=option, remove=True):
        _HELD_OUTPUTS.add(key)
        try:
            recover_output_dir(final)
            yield final
        finally:
            _HELD_OUTPUTS.discard(key)


@contextlib.contextmanager
def atomic_dir(target: str | os.PathLike[str], *, overwrite: bool = False, option: str = "--out") -> Iterator[Path]:
    """Yield a staging folder beside ``target``; on success it replaces ``target``.

    Runs under :func:`output_lock` (re-entrant, so a caller may already hold
    it). On any exception (Ctrl-C included) the staging folder is removed and
    ``target`` is left as it was; after a SIGKILL the next writer does the
    same (:func:`recover_output_dir`). Replacing an existing folder takes two
    renames (old aside, new in); a kill between them is undone by the next
    writer, which puts the old folder back.

    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "release"
    >>> with atomic_dir(out) as staging:
    ...     _ = (staging / "a.txt").write_text("1")
    >>> sorted(p.name for p in out.parent.iterdir())
    ['release']
    """
    final = check_output_dir(target, overwrite=overwrite, option=option)
    with output_lock(final, option=option):
        check_output_dir(final, overwrite=overwrite, option=option)  # a recovered old folder counts
        parent = final.absolute().parent
        staging = Path(tempfile.mkdtemp(prefix=f"{_beside(final, 'partial')}{os.getpid()}-", dir=parent))
        os.chmod(staging, _dir_mode())  # mkdtemp makes 0700; an output is an ordinary folder
        try:
            yield staging
            if final.exists():
                retired = Path(tempfile.mkdtemp(prefix=f"{_beside(final, 'old')}{os.getpid()}-", dir=parent))
                os.replace(final, retired / final.name)
                os.replace(staging, final)
                shutil.rmtree(retired, ignore_errors=True)
            else:
                os.replace(staging, final)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise

