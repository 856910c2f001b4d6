"""Bring-your-own chart tables: CSV/JSON tables and a questions file → chart data.

This is the import side of the real-figure transfer (paper §6 "Transfer to
real figures", Appendix D; DESIGN §3): a researcher brings the table behind a
chart (ChartQA ships one CSV per chart) and gets the same matched invariance
and equivariance sets as the synthetic release.

Formats read (a directory may mix them; one table per file, ``table_id`` =
the file stem):

- **CSV / TSV, ChartQA shape.** Header row, then one row per category. The
  first column holds the category labels (its header becomes the x-axis
  label, and may be empty); every further column is one series named by its
  header. A column headed ``title`` (any case) holds the chart title and is
  not a series. Cells are numbers: ``1234``, ``1,234.5`` (thousands commas in
  strict groups of three), ``-0.5``, ``1e-05``, ``45%``, ``$12`` (a leading
  ``$ € £ ¥``).
- **JSON**: ``{"columns": [...], "rows": [[...], ...]}`` with the same
  meaning as the CSV, cells strings or numbers, and optional ``title``,
  ``family``, ``x_label``, ``y_label``, ``unit``, ``extra``; no other keys.
- **Side files** beside ``NAME.csv``: ``NAME.title.txt`` (the title, one
  line) and ``NAME.meta.json`` (any of ``title``, ``family``, ``x_label``,
  ``y_label``, ``unit``, ``extra``). Without a title anywhere the title is
  the table id.
- **Questions file** ``questions.csv`` (header ``table_id,question,answer``)
  or ``questions.jsonl`` (one object with those three keys per line).

Files whose names start with ``_`` or ``.``, and sub-folders, are ignored (a
digitization report lives in ``_digitize/``).

Units (documented patterns, applied to each series header):
``Revenue (million USD)`` or ``Revenue [million USD]`` → series ``Revenue``,
unit ``million USD``; ``Revenue in million U.S. dollars`` → unit ``million
U.S. dollars`` when the word after ``in`` is a scale word (thousand, million,
billion, trillion) or ``percent``; a column whose cells all end in ``%`` has
unit ``%``, and one whose cells all start with a currency symbol has that
symbol as its unit. A chart has one value axis, so all series must share one
unit (series without a unit take it).

Family (DESIGN §3.1): chosen by the user, else from ``family`` in the JSON or
meta file, else inferred — one series: ``pie`` when the unit is ``%``, no
value is negative and the values sum to 100 ± 1 (rounded shares), otherwise
``bar``; several series: ``line`` when every category is a number or a year
(an ordered axis), otherwise ``grouped_bar``. ``scatter`` takes exactly two
value columns, x then y, and the first column labels the points.

Every problem is an :class:`~rend_equiv_dataset.errors.InputError` naming the
file, the line and the column; nothing is repaired silently.

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
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from rend_equiv_dataset.charts.data import ChartData, Family, Series
from rend_equiv_dataset.errors import InputError

TABLE_SUFFIXES = (".csv", ".tsv", ".json")
QUESTION_FILES = ("questions.csv", "questions.jsonl")
META_KEYS = frozenset({"title", "family", "x_label", "y_label", "unit", "extra"})
CURRENCY_SYMBOLS = "$€£¥"
PIE_SUM_TOLERANCE = 1.0

_NUMBER = re.compile(
    r"^(?P<sign>[-+\u2212]?)\s*(?P<currency>[$€£¥]?)\s*"
    r"(?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d*)?|\.\d+)"
    r"(?P<exponent>[eE][-+]?\d+)?\s*(?P<percent>%?)$"
)
_UNIT_IN_BRACKETS = re.compile(r"^(?P<name>.*?)\s*[(\[](?P<unit>[^()\[\]]+)[)\]]\s*$")
_UNIT_AFTER_IN = re.compile(
    r"^(?P<name>.+?)\s+in\s+(?P<unit>(?:thousands?|millions?|billions?|trillions?|percent)\b.*)$",
    re.IGNORECASE,
)
_ORDERED_CATEGORY = re.compile(r"^(?:[-+]?\d+(?:\.\d+)?|(?:FY|Q[1-4]\s)?'?\d{2,4}(?:[/-]\d{1,4})?\*?)$")


class Problem(str, Enum):
    """Why a grid of cells is not a chart table; shared with the digitization parser."""

    EMPTY = "empty_table"
    RAGGED = "ragged_rows"
    TOO_FEW_CATEGORIES = "too_few_categories"
    DUPLICATE_CATEGORY = "duplicate_category"
    NON_NUMERIC = "non_numeric_cell"
    MIXED_UNITS = "mixed_units"
    NO_SERIES = "no_series"


@dataclass
class TableProblem(Exception):
    """A grid that is not a valid chart table; ``row`` and ``column`` are 0-based grid positions."""

    problem: Problem
    message: str
    row: int | None = None
    column: str | None = None

    def __post_init__(self) -> None:
        super().__init__(self.message)


@dataclass(frozen=True)
class Column:
    """One value column: series name, unit and values in category order."""

    name: str
    unit: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class ParsedTable:
    """A validated table: the category column plus one or more value columns."""

    x_label: str
    categories: tuple[str, ...]
    columns: tuple[Column, ...]
    title: str | None = None

    @property
    def unit(self) -> str:
        return next((c.unit for c in self.columns if c.unit), "")


@dataclass(frozen=True)
class SourceTable:
    """One imported table: its id, the chart data built from it and the file it came from."""

    table_id: str
    chart: ChartData
    source: str


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

    def by_id(self) -> dict[str, SourceTable]:
        return {t.table_id: t for t in self.tables}


# --------------------------------------------------------------------------- cells


def parse_number(cell: str | int | float) -> tuple[float, str] | None:
    """A cell's value and the unit its text carries (``"%"``, a currency symbol, or ``""``).

    Returns ``None`` when the cell is not a number; never guesses.

    >>> parse_number("1,234.5"), parse_number("45%"), parse_number("$-3") , parse_number("-$3")
    ((1234.5, ''), (45.0, '%'), None, (-3.0, '$'))
    >>> parse_number("12,34"), parse_number("n/a"), parse_number(""), parse_number(True)
    (None, None, None, None)
    """
    if isinstance(cell, bool):
        return None
    if isinstance(cell, (int, float)):
        return (float(cell), "") if math.isfinite(cell) else None
    match = _NUMBER.match(cell.strip())
    if match is None:
        return None
    text = match["digits"].replace(",", "") + (match["exponent"] or "")
    value = float(text)
    if not math.isfinite(value):
        return None
    if match["sign"] in ("-", "\u2212"):
        value = -value
    unit = "%" if match["percent"] else match["currency"]
    if match["percent"] and match["currency"]:
        return None
    return value, unit


def split_header(header: str) -> tuple[str, str]:
    """Split a series header into (name, unit) by the documented unit patterns.

    >>> split_header("Revenue (million USD)"), split_header("Share [%]"), split_header("Units sold")
    (('Revenue', 'million USD'), ('Share', '%'), ('Units sold', ''))
    >>> split_header("Revenue in million U.S. dollars")
    ('Revenue', 'million U.S. dollars')
    """
    text = header.strip()
    for pattern in (_UNIT_IN_BRACKETS, _UNIT_AFTER_IN):
        match = pattern.match(text)
        if match and match["name"].strip():
            return match["name"].strip(), match["unit"].strip()
    return text, ""


def is_ordered_axis(categories: Sequence[str]) -> bool:
    """Whether every category reads as a number or a year (``2019``, ``'19``, ``2019/20``, ``FY2020``).

    >>> is_ordered_axis(["2019", "2020", "2021*"]), is_ordered_axis(["France", "2020"])
    (True, False)
    """
    return all(_ORDERED_CATEGORY.match(c.strip()) for c in categories)


# --------------------------------------------------------------------------- grids


def parse_grid(header: Sequence[str], rows: Sequence[Sequence[str | int | float]]) -> ParsedTable:
    """Validate a header and rows of cells into a :class:`ParsedTable`.

    Raises :class:`TableProblem` with the 0-based row and the column header.

    >>> parse_grid(["Year", "Sales (k units)", "Returns (k units)"], [["2020", "1,200", "30"], ["2021", "1,350", "41"]])
    ParsedTable(x_label='Year', categories=('2020', '2021'), columns=(Column(name='Sales', unit='k units', values=(1200.0, 1350.0)), Column(name='Returns', unit='k units', values=(30.0, 41.0))), title=None)
    """
    header = [str(h).strip() for h in header]
    title_index = next((i for i, h in enumerate(header) if i > 0 and h.lower() == "title"), None)
    if not rows:
        raise TableProblem(Problem.EMPTY, "the table has a header but no rows")
    for r, row in enumerate(rows):
        if len(row) != len(header):
            raise TableProblem(
                Problem.RAGGED,
                f"row has {len(row)} cells but the header has {len(header)}",
                row=r,
                column=f"column {min(len(row), len(header)) + 1}",
            )
    value_indices = [i for i in range(1, len(header)) if i != title_index]
    if not value_indices:
        raise TableProblem(Problem.NO_SERIES, "the table has no value column after the category column")
    categories = _categories(rows)
    columns = tuple(_column(header[i], [row[i] for row in rows], i) for i in value_indices)
    title = _title_column(header, rows, title_index) if title_index is not None else None
    _check_units(columns)
    return ParsedTable(header[0], categories, columns, title)


def _categories(rows: Sequence[Sequence[Any]]) -> tuple[str, ...]:
    seen: dict[str, int] = {}
    for r, row in enumerate(rows):
        label = str(row[0]).strip()
        if not label:
            raise TableProblem(Problem.NON_NUMERIC, "empty category label", row=r, column="column 1")
        if label in seen:
            raise TableProblem(
                Problem.DUPLICATE_CATEGORY,
                f"category {label!r} repeats the one in data row {seen[label] + 1}",
                row=r,
                column="column 1",
            )
        seen[label] = r
    if len(seen) < 2:
        raise TableProblem(Problem.TOO_FEW_CATEGORIES, f"a chart needs at least 2 categories, got {len(seen)}")
    return tuple(seen)


def _column(header: str, cells: Sequence[Any], index: int) -> Column:
    name, unit = split_header(header)
    where = f"column {index + 1} ({header!r})" if header else f"column {index + 1}"
    if not name:
        raise TableProblem(Problem.NO_SERIES, "a value column has an empty header", column=where)
    values, cell_units = [], set()
    for r, cell in enumerate(cells):
        parsed = parse_number(cell)
        if parsed is None:
            raise TableProblem(Problem.NON_NUMERIC, f"expected a number, got {str(cell)!r}", row=r, column=where)
        values.append(parsed[0])
        cell_units.add(parsed[1])
    if len(cell_units) > 1:
        raise TableProblem(
            Problem.MIXED_UNITS, f"cells mix units {sorted(cell_units)} in one column", column=where
        )
    (cell_unit,) = cell_units
    if cell_unit and unit and cell_unit != unit:
        raise TableProblem(
            Problem.MIXED_UNITS, f"cells carry {cell_unit!r} but the header says {unit!r}", column=where
        )
    return Column(name, unit or cell_unit, tuple(values))


def _title_column(header: Sequence[str], rows: Sequence[Sequence[Any]], index: int) -> str | None:
    titles = {str(row[index]).strip() for row in rows} - {""}
    if len(titles) > 1:
        raise TableProblem(Problem.NON_NUMERIC, f"the title column holds {len(titles)} different titles",
                           column=header[index])
    return titles.pop() if titles else None


def _check_units(columns: Sequence[Column]) -> None:
    units = sorted({c.unit for c in columns} - {""})
    if len(units) > 1:
        raise TableProblem(
            Problem.MIXED_UNITS,
            f"series have different units {units}; a chart has one value axis, split the table",
            column=", ".join(c.name for c in columns if c.unit),
        )


# --------------------------------------------------------------------------- family


def parse_family(value: str, *, field: str = "family", file: str | Path | None = None) -> Family:
    """A :class:`Family` from its name; unknown names raise :class:`InputError` listing the choices.

    >>> parse_family("grouped_bar")
    <Family.GROUPED_BAR: 'grouped_bar'>
    """
    try:
        return Family(value)
    except ValueError:
        choices = ", ".join(f.value for f in Family)
        raise InputError(f"unknown chart family {value!r}; expected one of {choices}", file=file, field=field) from None


def infer_family(table: ParsedTable) -> Family:
    """The family a table is drawn as when nobody chose one (rule in the module docstring).

    >>> one = ParsedTable("Party", ("A", "B"), (Column("Share", "%", (60.0, 40.0)),))
    >>> infer_family(one).value
    'pie'
    """
    if len(table.columns) == 1:
        values = table.columns[0].values
        is_share = table.unit == "%" and min(values) >= 0 and abs(sum(values) - 100.0) <= PIE_SUM_TOLERANCE
        return Family.PIE if is_share else Family.BAR
    return Family.LINE if is_ordered_axis(table.categories) else Family.GROUPED_BAR


def _check_family(table: ParsedTable, family: Family) -> str | None:
    """Why ``table`` cannot be drawn as ``family``, or ``None`` when it can."""
    n = len(table.columns)
    values = [v for c in table.columns for v in c.values]
    if family in (Family.BAR, Family.PIE) and n != 1:
        return f"a {family.value} chart takes one series, the table has {n}"
    if family in (Family.GROUPED_BAR, Family.STACKED_BAR) and n < 2:
        return f"a {family.value} chart takes several series, the table has {n}"
    if family in (Family.PIE, Family.STACKED_BAR) and min(values) < 0:
        return f"a {family.value} chart cannot show negative values"
    if family is Family.PIE and sum(values) <= 0:
        return "a pie chart needs a positive total"
    if family is Family.SCATTER and n != 2:
        return f"a scatter chart takes two value columns (x, then y), the table has {n}"
    return None


def to_chart(
    table: ParsedTable,
    *,
    family: Family | None = None,
    title: str | None = None,
    meta: Mapping[str, Any] | None = None,
) -> ChartData:
    """Chart data for a parsed table; a family the table cannot take raises :class:`InputError`.

    Precedence for each field: ``meta`` (JSON/meta file) over what the table says; ``family``
    (the user's choice) over both; the title falls back to ``title``.
    """
    meta = dict(meta or {})
    chosen = family or (parse_family(meta["family"]) if meta.get("family") else infer_family(table))
    if (why := _check_family(table, chosen)) is not None:
        raise InputError(why, field="family")
    columns = table.columns
    x_values = None
    if chosen is Family.SCATTER:
        x_values, columns = columns[0].values, columns[1:]
    series = tuple(Series(c.name, c.values) for c in columns)
    y_label = series[0].name if len(series) == 1 else ""
    x_label = table.x_label if chosen is not Family.SCATTER else table.columns[0].name
    return ChartData(
        family=chosen,
        title=str(meta.get("title") or table.title or title or ""),
        categories=table.categories,
        series=series,
        x_label=str(meta.get("x_label", x_label)),
        y_label=str(meta.get("y_label", y_label)),
        unit=str(meta.get("unit", table.unit)),
        x_values=x_values,
        extra=tuple(sorted((str(k), str(v)) for k, v in (meta.get("extra") or {}).items())),
    )


# --------------------------------------------------------------------------- files


def read_table(path: str | Path, *, family: Family | None = None, root: Path | None = None) -> SourceTable:
    """Read one CSV/TSV/JSON table (and its side files) into a :class:`SourceTable`."""
    path = Path(path)
    source = str(path.relative_to(root)) if root is not None else path.name
    if path.suffix == ".json":
        header, rows, lines, meta = _read_json_table(path)
    elif path.suffix in (".csv", ".tsv"):
        header, rows, lines = _read_csv_grid(path)
        meta = _read_side_files(path)
    else:
        raise InputError(f"expected a .csv, .tsv or .json table, got {path.suffix or 'no suffix'!r}", file=path)
    try:
        parsed = parse_grid(header, rows)
    except TableProblem as problem:
        raise _located(problem, path, lines) from None
    try:
        chart = to_chart(parsed, family=family, title=path.stem, meta=meta)
    except InputError as err:
        raise InputError(err.message, file=path, field=err.field) from None
    return SourceTable(path.stem, chart, source)


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
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text ({err.reason} at byte {err.start})", file=path) from None
    except OSError as err:
        raise InputError(f"cannot read: {err.strerror}", file=path) from None


def _read_csv_grid(path: Path) -> tuple[list[str], list[list[str]], list[int]]:
    """Header, data rows and the line of every grid row (header first); blank lines are skipped."""
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
    return grid[0], grid[1:], lines


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
    try:
        return json.loads(_read_text(path))
    except json.JSONDecodeError as err:
        raise InputError(f"invalid JSON: {err.msg} (column {err.colno})", file=path, line=err.lineno) from None


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


def read_questions(path: str | Path, table_ids: Sequence[str]) -> tuple[GivenQuestion, ...]:
    """Read a questions file (``table_id``, ``question``, ``answer``) against the known table ids."""
    path = Path(path)
    if path.suffix == ".jsonl":
        records = _question_records_jsonl(path)
    else:
        records = _question_records_csv(path)
    known = set(table_ids)
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


_QUESTION_KEYS = ("table_id", "question", "answer")


def _question_records_csv(path: Path) -> list[tuple[int, dict[str, str]]]:
    reader = csv.reader(_read_text(path).splitlines(), strict=True)
    try:
        header = next(reader, None)
        if header is None or [h.strip() for h in header] != list(_QUESTION_KEYS):
            raise InputError(f"the header must be {','.join(_QUESTION_KEYS)}, got {header}", file=path, line=1)
        records = []
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != 3:
                raise InputError(f"{Problem.RAGGED.value}: expected 3 cells, got {len(row)}", file=path,
                                 line=reader.line_num)
            records.append((reader.line_num, dict(zip(_QUESTION_KEYS, row))))
    except csv.Error as err:
        raise InputError(f"malformed CSV: {err}", file=path, line=reader.line_num) from None
    return records


def _question_records_jsonl(path: Path) -> list[tuple[int, dict[str, str]]]:
    records = []
    for line, text in enumerate(_read_text(path).splitlines(), start=1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(f"invalid JSON: {err.msg} (column {err.colno})", file=path, line=line) from None
        if not isinstance(record, dict) or set(record) != set(_QUESTION_KEYS):
            keys = sorted(record) if isinstance(record, dict) else type(record).__name__
            raise InputError(f"expected exactly the keys {list(_QUESTION_KEYS)}, got {keys}", file=path, line=line)
        for key in _QUESTION_KEYS:
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


def load_tables(path: str | Path, *, family: Family | None = None) -> TableSet:
    """Read a table file or a folder of tables (plus an optional questions file).

    ``family`` (the user's choice) applies to every table. Table ids must be
    unique across formats (``a.csv`` and ``a.json`` together are an error).
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
    for file in files:
        table = read_table(file, family=family, root=path)
        if table.table_id in tables:
            raise InputError(f"table id {table.table_id!r} is also used by {tables[table.table_id].source}",
                             file=file)
        tables[table.table_id] = table
    question_files = [path / name for name in QUESTION_FILES if (path / name).is_file()]
    if len(question_files) > 1:
        raise InputError("give questions.csv or questions.jsonl, not both", file=question_files[1])
    questions = read_questions(question_files[0], list(tables)) if question_files else ()
    return TableSet(tuple(tables[k] for k in sorted(tables)), questions)


# --------------------------------------------------------------------------- export


def chart_to_grid(chart: ChartData) -> tuple[list[str], list[list[str]]]:
    """The ChartQA-shaped header and rows of a chart (scatter: x column, then y).

    Values are written with ``repr`` so they read back bit-exactly.

    >>> chart = ChartData(family=Family.BAR, title="t", categories=("A", "B"),
    ...                   series=(Series("Revenue", (1.5, 2.0)),), x_label="Region", unit="%")
    >>> chart_to_grid(chart)
    (['Region', 'Revenue (%)'], [['A', '1.5'], ['B', '2.0']])
    """
    def head(name: str) -> str:
        return f"{name} ({chart.unit})" if chart.unit else name

    columns = [s for s in chart.series]
    header = [chart.x_label if chart.family is not Family.SCATTER else ""]
    if chart.family is Family.SCATTER:
        columns = [Series(chart.x_label or "x", chart.x_values or ()), *columns]
    header += [head(s.name) for s in columns]
    rows = [[label, *(repr(s.values[i]) for s in columns)] for i, label in enumerate(chart.categories)]
    return header, rows


def chart_meta(chart: ChartData) -> dict[str, Any]:
    """The side-file fields that make a re-imported chart equal the original (bar the axis range)."""
    return {
        "title": chart.title,
        "family": chart.family.value,
        "x_label": chart.x_label,
        "y_label": chart.y_label,
        "unit": chart.unit,
        "extra": dict(chart.extra),
    }


def check_exportable(chart: ChartData, table_id: str) -> None:
    """Raise :class:`InputError` unless the chart's CSV reads back as the same chart.

    Labels with outer spaces, series headed ``title`` or names that look like
    ``name (unit)`` without a unit would not survive the CSV shape.
    """
    header, rows = chart_to_grid(chart)
    try:
        back = to_chart(parse_grid(header, rows), meta=chart_meta(chart))
    except (TableProblem, InputError) as err:
        raise InputError(f"cannot be written as a table: {err}", field=table_id) from None
    if back != chart.replace(value_range=None):
        raise InputError("cannot be written as a table that reads back unchanged "
                         "(labels with outer spaces or names that look like units)", field=table_id)


def write_table_dir(
    charts: Sequence[tuple[str, ChartData]],
    questions: Sequence[tuple[str, str, str]],
    out: str | Path,
    *,
    overwrite: bool = False,
) -> Path:
    """Write charts as ``ID.csv`` + ``ID.meta.json`` and ``questions.csv``, atomically.

    ``questions`` holds ``(table_id, question, answer)`` triples. The folder is
    what :func:`load_tables` reads, so export followed by import is exact.
    """
    from rend_equiv_dataset.hub import atomic_dir

    ids = [table_id for table_id, _ in charts]
    if len(set(ids)) != len(ids):
        raise InputError("table ids must be unique", field="table_id")
    for table_id, chart in charts:
        if not table_id or table_id.startswith(("_", ".")) or "/" in table_id or table_id in QUESTION_FILES:
            raise InputError(f"not usable as a file name: {table_id!r}", field="table_id")
        check_exportable(chart, table_id)
    with atomic_dir(out, overwrite=overwrite) as staging:
        for table_id, chart in charts:
            header, rows = chart_to_grid(chart)
            write_csv(staging / f"{table_id}.csv", [header, *rows])
            meta = json.dumps(chart_meta(chart), sort_keys=True, ensure_ascii=False, indent=1)
            (staging / f"{table_id}.meta.json").write_text(meta + "\n", encoding="utf-8")
        if questions:
            write_csv(staging / "questions.csv", [list(_QUESTION_KEYS), *map(list, questions)])
    return Path(out)


def write_csv(path: Path, rows: Sequence[Sequence[str]]) -> None:
    """Write rows as UTF-8 CSV with ``\n`` line ends (the format :func:`read_table` reads)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
