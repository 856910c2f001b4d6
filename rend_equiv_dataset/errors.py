"""Errors that reach the user.

:class:`InputError` is the one exception for bad input anywhere at a boundary
(a command-line argument, a file, a ``compute`` call). It names where the
problem is (file, line, field), what was expected and what was found, so the
command line can print it as one line and exit with status 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike


@dataclass
class InputError(Exception):
    """Bad input, reported with its location.

    Args:
        message: what is wrong: the expectation and what was found.
        file: the file that holds the bad input, if any.
        line: 1-based line number in ``file``, if the file is line-oriented.
        field: the field, column, option or parameter name.

    >>> str(InputError("expected an integer, got 'x'", file="p.jsonl", line=3, field="votes"))
    "p.jsonl:3: field 'votes': expected an integer, got 'x'"
    >>> str(InputError("must be >= 1, got 0", field="--per-family"))
    "field '--per-family': must be >= 1, got 0"
    """

    message: str
    file: str | PathLike[str] | None = None
    line: int | None = None
    field: str | None = None

    def __post_init__(self) -> None:
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.file is not None:
            where.append(f"{self.file}:{self.line}" if self.line is not None else str(self.file))
        if self.field is not None:
            where.append(f"field {self.field!r}")
        return ": ".join([*where, self.message])
