"""Reading JSONL input files (optionally gzip-compressed) with errors that name file and line."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
