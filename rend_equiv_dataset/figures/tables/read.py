"""Bring-your-own chart tables: CSV/JSON tables and a questions file → chart data.

This is the import side of the real-figure transfer (paper §6 "Transfer to
real figures", Appendix D; docs/design.md §3): a researcher brings the table behind a
chart (ChartQA ships one CSV per chart) and gets the same matched invariance
and equivariance sets as the synthetic release.

Formats read (a directory may mix them; one table per file, ``table_id`` =
the file stem):

- **CSV / TSV, ChartQA shape.** Header row, then one row per category, read
  by the grid rules of :mod:`rend_equiv_dataset.figures.tables.grid` (category
  column, one column per series, optional ``title`` column, units, numbers).
- **JSON**: ``{"columns": [...], "rows": [[...], ...]}`` with the same
  meaning as the CSV, cells strings or numbers, and optional ``title``,
  ``family``, ``x_label``, ``y_label``, ``unit``, ``extra``; no other keys.
- **Side files** beside ``NAME.csv``: ``NAME.title.txt`` (the title, one
  line) and ``NAME.meta.json`` (any of ``title``, ``family``, ``x_label``,
  ``y_label``, ``unit``, ``extra``). Without a title anywhere the title is
  read from the headers ("Exports by country"), never the table id.
- **Questions file** ``questions.csv`` (header ``table_id,question,answer``)
  or ``questions.jsonl`` (one object with those three keys per line).

Files whose names start with ``_`` or ``.``, and sub-folders, are ignored (a
digitization report lives in ``_digitize/``).

The family is the user's choice, else ``family`` from the JSON or meta file,
else inferred (:func:`~rend_equiv_dataset.figures.tables.grid.infer_family`).
Writing tables back is :mod:`rend_equiv_dataset.figures.tables.export`.

Every problem is an :class:`~rend_equiv_dataset.errors.InputError` naming the
file, the line and the column; nothing is repaired silently (what the grid
rules drop or re-express is listed in :attr:`SourceTable.notes`). A folder is
read whole: each unusable table becomes a :class:`Refusal` in
:attr:`TableSet.refused` and the usable ones are built; ``strict=True`` stops
at the first unusable table instead, and a single file always raises.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "exports.csv").write_text(
...     "Country,Exports (bn USD)\\nFrance,\\"1,250.5\\"\\nJapan,980\\n")
>>> table = read_table(folder / "exports.csv")
>>> table.chart.family.value, table.chart.categories, table.chart.values(), table.chart.unit
('bar', ('France', 'Japan'), (1250.5, 980.0), 'bn USD')
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import echo, jsonl_rows, parse_json, read_text
from rend_equiv_dataset.figures.tables.grid import Problem, TableProblem, parse_family, parse_grid, to_chart

# A table file larger than this is not a chart's table.
MAX_TABLE_BYTES = 64 * 2**20

TABLE_SUFFIXES = (".csv", ".tsv", ".json")
QUESTION_FILES = ("questions.csv", "questions.jsonl")
QUESTION_KEYS = ("table_id", "question", "answer")
META_KEYS = frozenset({"title", "family", "x_label", "y_label", "unit", "extra"})


@dataclass(frozen=True)
class SourceTable:
    """One imported table: its id, the chart data built from it and the file it came from."""

    table_id: str
    chart: ChartData
    source: str
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Refusal:
    """A table in a folder that could not be used, where and why (one line of the summary)."""

    table_id: str
    file: str
    line: int | None
    field: str | None
    reason: str

    @classmethod
    def from_error(cls, table_id: str, error: InputError) -> Refusal:
        return cls(table_id, str(error.file), error.line, error.field, error.message)

    def to_dict(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "file": self.file, "line": self.line, "field": self.field,
                "reason": self.reason}

    def __str__(self) -> str:
        return str(InputError(self.reason, file=self.file, line=self.line, field=self.field))


@dataclass(frozen=True)
class GivenQuestion:
    """A user-supplied question about one table, with the answer the user expects."""

    table_id: str
    question: str
    answer: str
    file: str
    line: int


@dataclass(frozen=True)
class TableSet:
    """Tables read from a file or folder, in table-id order, and any given questions."""

    tables: tuple[SourceTable, ...]
    questions: tuple[GivenQuestion, ...]
    refused: tuple[Refusal, ...] = ()

    def by_id(self) -> dict[str, SourceTable]:
        return {t.table_id: t for t in self.tables}


# --------------------------------------------------------------------------- files


def read_table(path: str | Path, *, family: Family | None = None, root: Path | None = None) -> SourceTable:
    """Read one CSV/TSV/JSON table (and its side files) into a :class:`SourceTable`."""
    path = Path(path)
    source = str(path.relative_to(root)) if root is not None else path.name
    if path.suffix == ".json":
        header, rows, lines, meta = _read_json_table(path)
        footer: list[str] = []
    elif path.suffix in (".csv", ".tsv"):
        header, rows, lines, footer = _read_csv_grid(path)
        meta = _read_side_files(path)
    else:
        raise InputError(f"expected a .csv, .tsv or .json table, got {path.suffix or 'no suffix'!r}", file=path)
    try:
        parsed = parse_grid(header, rows)
    except TableProblem as problem:
        raise _located(problem, path, lines) from None
    try:
        chart = to_chart(parsed, family=family, meta=meta)
    except InputError as err:
        raise InputError(err.message, file=path, field=err.field) from None
    return SourceTable(path.stem, chart, source, (*parsed.notes, *(f"footer line kept out: {text!r}" for text in footer)))


def _located(problem: TableProblem, path: Path, lines: Sequence[int] | None) -> InputError:
    """The user-facing error for a grid problem: CSV rows by line, JSON rows by ``rows[i]``."""
    field = problem.column
    line = None
    if lines is not None:
        line = lines[0] if problem.row is None else lines[problem.row + 1]
    elif problem.row is not None:
        field = f"rows[{problem.row}]" + (f" {problem.column}" if problem.column else "")
    return InputError(f"{problem.problem.value}: {problem.message}", file=path, line=line, field=field)


def _read_text(path: Path) -> str:
    return read_text(path, max_bytes=MAX_TABLE_BYTES).removeprefix("\ufeff")


# A last line that only says where the data come from or what it means (Pew, Statista and OECD
# exports end so): one filled cell starting with one of these.
_FOOTER = re.compile(r"^(?:sources?|notes?|data|survey|©|\*)(?:\b|\s|:|$)", re.IGNORECASE)


def _read_csv_grid(path: Path) -> tuple[list[str], list[list[str]], list[int], list[str]]:
    """Header, data rows, the line of every grid row (header first) and the footer lines kept out.

    Blank lines are skipped. Trailing lines with a single filled cell that
    starts like a source or a note ("Source: Pew Research Center", "Note: ...",
    "* estimate") are not data: they are returned apart, in file order.
    """
    text = _read_text(path)
    delimiter = "\t" if path.suffix == ".tsv" else ","
    reader = csv.reader(text.splitlines(), delimiter=delimiter, strict=True)
    grid: list[list[str]] = []
    lines: list[int] = []
    try:
        for row in reader:
            if row and any(cell.strip() for cell in row):
                grid.append(row)
                lines.append(reader.line_num)
    except csv.Error as err:
        raise InputError(f"malformed CSV: {err}", file=path, line=reader.line_num) from None
    if not grid:
        raise InputError(f"{Problem.EMPTY.value}: the file holds no header and no rows", file=path, line=1)
    footer: list[str] = []
    while len(grid) > 2:
        filled = [cell.strip() for cell in grid[-1] if cell.strip()]
        if len(filled) != 1 or not grid[-1][0].strip() or not _FOOTER.match(filled[0]):
            break
        footer.insert(0, filled[0])
        grid.pop()
        lines.pop()
    return grid[0], grid[1:], lines, footer


def _read_json_table(path: Path) -> tuple[list[str], list[list[Any]], None, dict[str, Any]]:
    payload = _load_json(path)
    if not isinstance(payload, dict):
        raise InputError(f"a JSON table must be an object, got {type(payload).__name__}", file=path)
    if extra := set(payload) - META_KEYS - {"columns", "rows"}:
        raise InputError(f"unexpected keys {sorted(extra)}; expected columns, rows and {sorted(META_KEYS)}",
                         file=path, field=sorted(extra)[0])
    for key in ("columns", "rows"):
        if not isinstance(payload.get(key), list):
            raise InputError(f"must be a list, got {type(payload.get(key)).__name__}", file=path, field=key)
    header = payload["columns"]
    if not all(isinstance(h, str) for h in header):
        raise InputError("column headers must be strings", file=path, field="columns")
    rows = payload["rows"]
    for r, row in enumerate(rows):
        if not isinstance(row, list) or not all(isinstance(c, (str, int, float)) for c in row):
            raise InputError("each row must be a list of strings and numbers", file=path, field=f"rows[{r}]")
    meta = {k: payload[k] for k in META_KEYS if k in payload}
    _check_meta(meta, path)
    return header, rows, None, meta


def _load_json(path: Path) -> Any:
    return parse_json(_read_text(path), file=path)


def _check_meta(meta: Mapping[str, Any], path: Path) -> None:
    for key, value in meta.items():
        if key == "extra":
            if not isinstance(value, dict):
                raise InputError("must be an object", file=path, field=key)
        elif not isinstance(value, str):
            raise InputError(f"must be a string, got {type(value).__name__}", file=path, field=key)
    if meta.get("family"):
        parse_family(meta["family"], file=path)


def _read_side_files(path: Path) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    meta_path = path.with_name(f"{path.stem}.meta.json")
    if meta_path.exists():
        meta = _load_json(meta_path)
        if not isinstance(meta, dict):
            raise InputError("a meta file must be a JSON object", file=meta_path)
        if extra := set(meta) - META_KEYS:
            raise InputError(f"unexpected keys {sorted(extra)}; expected {sorted(META_KEYS)}", file=meta_path,
                             field=sorted(extra)[0])
        _check_meta(meta, meta_path)
    title_path = path.with_name(f"{path.stem}.title.txt")
    if title_path.exists():
        if "title" in meta:
            raise InputError(f"the title is given twice: here and in {meta_path.name}", file=title_path)
        lines = [line.strip() for line in _read_text(title_path).splitlines() if line.strip()]
        if len(lines) != 1:
            raise InputError(f"a title file holds one line, found {len(lines)}", file=title_path)
        meta["title"] = lines[0]
    return meta


def read_questions(path: str | Path, table_ids: Sequence[str], refused: Sequence[str] = ()) -> tuple[GivenQuestion, ...]:
    """Read a questions file (``table_id``, ``question``, ``answer``) against the known table ids.

    Questions about a ``refused`` table are read (and later reported as not built).
    """
    path = Path(path)
    if path.suffix == ".jsonl":
        records = _question_records_jsonl(path)
    else:
        records = _question_records_csv(path)
    known = set(table_ids) | set(refused)
    questions = []
    for line, record in records:
        for key in ("table_id", "question", "answer"):
            if not record[key].strip():
                raise InputError("must not be empty", file=path, line=line, field=key)
        if record["table_id"] not in known:
            raise InputError(f"unknown table {record['table_id']!r}; the tables are {sorted(known)}",
                             file=path, line=line, field="table_id")
        questions.append(GivenQuestion(record["table_id"], record["question"].strip(), record["answer"].strip(),
                                       str(path), line))
    return tuple(questions)


def _question_records_csv(path: Path) -> list[tuple[int, dict[str, str]]]:
    reader = csv.reader(_read_text(path).splitlines(), strict=True)
    try:
        header = next(reader, None)
        if header is None or [h.strip() for h in header] != list(QUESTION_KEYS):
            raise InputError(f"the header must be {','.join(QUESTION_KEYS)}, got {header}", file=path, line=1)
        records = []
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != 3:
                raise InputError(f"{Problem.RAGGED.value}: expected 3 cells, got {len(row)}", file=path,
                                 line=reader.line_num)
            records.append((reader.line_num, dict(zip(QUESTION_KEYS, row))))
    except csv.Error as err:
        raise InputError(f"malformed CSV: {err}", file=path, line=reader.line_num) from None
    return records


def _question_records_jsonl(path: Path) -> list[tuple[int, dict[str, str]]]:
    records = []
    for line, record in jsonl_rows(path, max_bytes=MAX_TABLE_BYTES):
        if set(record) != set(QUESTION_KEYS):
            raise InputError(f"expected exactly the keys {list(QUESTION_KEYS)}, got {echo(sorted(record))}",
                             file=path, line=line)
        for key in QUESTION_KEYS:
            value = record[key]
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                raise InputError(f"must be a string, got {type(value).__name__}", file=path, line=line, field=key)
            record[key] = repr(value) if isinstance(value, float) else str(value)
        records.append((line, record))
    return records


def _is_table_file(path: Path) -> bool:
    name = path.name
    if name.startswith(("_", ".")) or not path.is_file() or name in QUESTION_FILES:
        return False
    if name.endswith((".meta.json", ".title.txt")):
        return False
    return path.suffix in TABLE_SUFFIXES


def load_tables(path: str | Path, *, family: Family | None = None, strict: bool = False) -> TableSet:
    """Read a table file or a folder of tables (plus an optional questions file).

    ``family`` (the user's choice) applies to every table. Table ids must be
    unique across formats (``a.csv`` and ``a.json`` together are an error).
    In a folder an unusable table is refused (listed in :attr:`TableSet.refused`)
    and the others are read, unless ``strict``; a folder with no usable table,
    or a single unusable file, raises.
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"no such file or folder: {path}", field="--from-tables")
    if path.is_file():
        return TableSet((read_table(path, family=family),), ())
    files = sorted(p for p in path.iterdir() if _is_table_file(p))
    if not files:
        raise InputError(f"no .csv, .tsv or .json tables in {path}", field="--from-tables")
    tables: dict[str, SourceTable] = {}
    refused: list[Refusal] = []
    sources: dict[str, Path] = {}
    for file in files:
        if file.stem in sources:
            raise InputError(f"table id {file.stem!r} is also used by {sources[file.stem].name}", file=file)
        sources[file.stem] = file
        try:
            table = read_table(file, family=family, root=path)
        except InputError as err:
            if strict:
                raise
            refused.append(Refusal.from_error(file.stem, err))
            continue
        tables[table.table_id] = table
    if not tables:
        lines = "; ".join(str(r) for r in refused)
        raise InputError(f"no usable table in {path}: {lines}", field="--from-tables")
    question_files = [path / name for name in QUESTION_FILES if (path / name).is_file()]
    if len(question_files) > 1:
        raise InputError("give questions.csv or questions.jsonl, not both", file=question_files[1])
    questions = (read_questions(question_files[0], list(tables), [r.table_id for r in refused])
                 if question_files else ())
    return TableSet(tuple(tables[k] for k in sorted(tables)), questions, tuple(refused))
