"""Cells, headers and grids of chart tables: the one set of rules for imported and digitized tables.

The rules — cells and missing values, value scaling, Our World in Data's long layout,
time order, units and the default family — are written out in docs/tables.md
("Cells, headers and grids"); this module is their one implementation.

>>> table = parse_grid(["Party", "Share (%)"], [["A", "60"], ["B", "40"]])
>>> to_chart(table).family.value, to_chart(table).unit
('pie', '%')
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.charts.families import default_family, family_of
from rend_equiv_dataset.errors import InputError

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
_YEAR = re.compile(r"^(?:FY\s?)?(?P<year>1[5-9]\d\d|2\d\d\d)(?:[/-]\d{1,4})?$")
_FOOTNOTE = re.compile(r"(?:\s*(?:\*+|[†‡§¹²³⁴⁵⁶⁷⁸⁹⁰]+|\[(?:\d{1,2}|[a-z])\]))+$")
MISSING_CELLS = frozenset({"", "nan", "-", "--", "\u2013", "\u2014", "n/a", "na", "n.a.", "..", "...", "\u2026",
                           "null", "none"})
"""Cell texts (case folded, spaces stripped) that mean "no value"."""
_NOT_UNIT_WORDS = frozenset({"and", "or", "incl", "including", "excl", "excluding", "except", "without", "with",
                             "ex", "e.g", "i.e", "see", "not", "of", "for", "from", "to", "in", "only", "total",
                             "all", "plus", "other", "others", "former", "formerly", "also"})
ROUNDED_MIN_VALUE = 0.01
"""Values with more than six decimals are rounded to six when none is smaller than this (four
significant digits kept at least); smaller ones are re-expressed in a smaller unit."""
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
MAX_SCALED_VALUE = 1e9
"""Largest magnitude a rescaled value may take (float precision for six decimals)."""
MIN_SCALED_VALUE = 1e-5
"""Smallest non-zero magnitude a value may take, so an edit (×0.5) still fits in six decimals."""


class Problem(str, Enum):
    """Why a grid of cells is not a chart table; shared with the digitization parser."""

    EMPTY = "empty_table"
    RAGGED = "ragged_rows"
    TOO_FEW_CATEGORIES = "too_few_categories"
    DUPLICATE_CATEGORY = "duplicate_category"
    NON_NUMERIC = "non_numeric_cell"
    MIXED_UNITS = "mixed_units"
    NO_SERIES = "no_series"
    DUPLICATE_SERIES = "duplicate_series"
    PRECISION = "precision"


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
    notes: tuple[str, ...] = ()
    scale_exponent: int = 0

    @property
    def unit(self) -> str:
        return next((c.unit for c in self.columns if c.unit), "")


# --------------------------------------------------------------------------- cells


def parse_number(cell: str | int | float) -> tuple[float, str] | None:
    """A cell's value and the unit its text carries (``"%"``, a currency symbol, or ``""``).

    Returns ``None`` when the cell is not a number; never guesses.

    >>> parse_number("1,234.5"), parse_number("45%"), parse_number("$-3") , parse_number("-$3")
    ((1234.5, ''), (45.0, '%'), None, (-3.0, '$'))
    >>> parse_number("12,34"), parse_number("n/a"), parse_number(""), parse_number(True)
    (None, None, None, None)
    >>> parse_number("12.5*"), parse_number("7 [2]")
    ((12.5, ''), (7.0, ''))
    """
    if isinstance(cell, bool):
        return None
    if isinstance(cell, (int, float)):
        return (float(cell), "") if math.isfinite(cell) else None
    match = _NUMBER.match(strip_footnote(cell))
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


def strip_footnote(text: str) -> str:
    """The text without trailing footnote markers (``*``, ``†``, ``¹``, ``[3]``), stripped.

    >>> strip_footnote("2019/20*"), strip_footnote("Europe†"), strip_footnote("12 [a]"), strip_footnote("*")
    ('2019/20', 'Europe', '12', '*')
    """
    text = text.strip()
    stripped = _FOOTNOTE.sub("", text).strip()
    return stripped or text


def is_missing(cell: str | int | float) -> bool:
    """Whether a cell means "no value" (:data:`MISSING_CELLS`, or a float NaN).

    >>> [is_missing(c) for c in ("", " NaN ", "—", "n/a", "..", "0", 0.0, float("nan"))]
    [True, True, True, True, True, False, False, True]
    """
    if isinstance(cell, bool):
        return False
    if isinstance(cell, float):
        return math.isnan(cell)
    if isinstance(cell, int):
        return False
    return cell.strip().lower() in MISSING_CELLS


def _reads_as_unit(text: str) -> bool:
    """Whether bracketed header text is a unit rather than part of the name (``and Caribbean``)."""
    words = text.replace(".", " ").split()
    if not words or len(words) > 5 or not any(ch.isalpha() or ch in "%$€£¥" for ch in text):
        return False
    return words[0].lower() not in _NOT_UNIT_WORDS


def split_header(header: str) -> tuple[str, str]:
    """Split a series header into (name, unit) by the documented unit patterns.

    >>> split_header("Revenue (million USD)"), split_header("Share [%]"), split_header("Units sold")
    (('Revenue', 'million USD'), ('Share', '%'), ('Units sold', ''))
    >>> split_header("Revenue in million U.S. dollars")
    ('Revenue', 'million U.S. dollars')
    >>> split_header("North America (and Caribbean)"), split_header("Asia (excl. China) (%)")
    (('North America (and Caribbean)', ''), ('Asia (excl. China)', '%'))
    >>> split_header("Exports*")
    ('Exports', '')
    """
    text = strip_footnote(header)
    for pattern in (_UNIT_IN_BRACKETS, _UNIT_AFTER_IN):
        match = pattern.match(text)
        if match and match["name"].strip() and (pattern is _UNIT_AFTER_IN or _reads_as_unit(match["unit"])):
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
    Missing cells, footnote markers, long decimals, descending years and years
    as columns are handled by the rules of the module docstring, each leaving a note.

    >>> parse_grid(["Year", "Sales (k units)", "Returns (k units)"], [["2020", "1,200", "30"], ["2021", "1,350", "41"]])
    ParsedTable(x_label='Year', categories=('2020', '2021'), columns=(Column(name='Sales', unit='k units', values=(1200.0, 1350.0)), Column(name='Returns', unit='k units', values=(30.0, 41.0))), title=None, notes=(), scale_exponent=0)
    >>> table = parse_grid(["Year", "A", "B"], [["2021", "1", "n/a"], ["2020", "-", ""], ["2019", "2", "4"]])
    >>> table.categories, [c.values for c in table.columns]
    (('2019', '2021'), [(2.0, 1.0)])
    >>> table.notes
    ("series 'B' dropped: 2 of 3 values missing", "category '2020' dropped: no value for 'A'", 'years written newest first are drawn oldest first')
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
    notes: list[str] = []
    header, rows = from_long_layout(header, rows, notes)
    value_indices = [i for i in range(1, len(header)) if i != title_index]
    if not value_indices:
        raise TableProblem(Problem.NO_SERIES, "the table has no value column after the category column")
    title = _title_column(header, rows, title_index) if title_index is not None else None
    labels = _labels(rows)
    columns = [_column(header[i], [row[i] for row in rows], i) for i in value_indices]
    _check_series_names(columns)
    x_label = header[0]
    labels, columns = _drop_missing(labels, columns, notes)
    categories = _categories(labels)
    final = tuple(Column(c.name, c.unit, tuple(float(v) for v in c.values if v is not None)) for c in columns)
    _check_units(final)
    if is_descending(categories):
        categories = categories[::-1]
        final = tuple(Column(c.name, c.unit, c.values[::-1]) for c in final)
        notes.append("years written newest first are drawn oldest first")
    final, exponent = _fit_decimals(final, notes)
    return ParsedTable(x_label, categories, final, title, tuple(notes), exponent)


_LONG_KEYS = ("entity", "code", "year")


def from_long_layout(
    header: Sequence[str], rows: Sequence[Sequence[Any]], notes: list[str]
) -> tuple[list[str], list[list[Any]]]:
    """A table in Our World in Data's long layout (``Entity,[Code,]Year,…``) as a wide grid; others unchanged.

    Value cells are checked (with their own row) before anything moves, so an
    error still names the row of the file.

    >>> notes = []
    >>> from_long_layout(["Entity", "Code", "Year", "GDP"], [["France", "FRA", "2019", "2.7"], ["Chile", "CHL", "2019", "0.3"]], notes)
    (['Entity', 'GDP'], [['France', '2.7'], ['Chile', '0.3']])
    >>> notes
    ["column 'Code' dropped (codes of the entities)", "every row is for 2019: column 'Year' dropped"]
    >>> from_long_layout(["Entity", "Year", "GDP"], [["A", "2019", "1"], ["B", "2019", "2"], ["A", "2020", "3"]], [])
    (['Year', 'A', 'B'], [['2019', '1', '2'], ['2020', '3', '']])
    """
    keys = [str(h).strip().lower() for h in header]
    if keys[:3] != list(_LONG_KEYS) and keys[:2] != [_LONG_KEYS[0], _LONG_KEYS[2]]:
        return list(header), [list(row) for row in rows]
    has_code = keys[1] == "code"
    year_at = 2 if has_code else 1
    value_at = list(range(year_at + 1, len(header)))
    for i in value_at:
        _column(str(header[i]), [row[i] for row in rows], i)
    if has_code:
        notes.append(f"column {header[1]!r} dropped (codes of the entities)")
    entities = list(dict.fromkeys(str(row[0]).strip() for row in rows))
    years = list(dict.fromkeys(str(row[year_at]).strip() for row in rows))
    if len(years) == 1:
        notes.append(f"every row is for {years[0]}: column {header[year_at]!r} dropped")
        return [header[0], *(header[i] for i in value_at)], [[row[0], *(row[i] for i in value_at)] for row in rows]
    if len(entities) == 1:
        notes.append(f"every row is for {entities[0]}: the years are the categories")
        return [header[year_at], *(header[i] for i in value_at)], [[row[year_at], *(row[i] for i in value_at)] for row in rows]
    if len(value_at) != 1:
        raise TableProblem(
            Problem.NO_SERIES,
            f"a long table of {len(entities)} entities over {len(years)} years can show one value column, "
            f"got {len(value_at)}; keep one year, one entity or one value column",
            column=f"column {value_at[1] + 1} ({header[value_at[1]]!r})",
        )
    cells: dict[tuple[str, str], Any] = {}
    for r, row in enumerate(rows):
        key = (str(row[year_at]).strip(), str(row[0]).strip())
        if key in cells:
            raise TableProblem(Problem.DUPLICATE_CATEGORY, f"{key[1]!r} has two rows for {key[0]}", row=r,
                               column=f"column {year_at + 1} ({header[year_at]!r})")
        cells[key] = row[value_at[0]]
    name, unit = split_header(str(header[value_at[0]]))
    notes.append(f"long layout: years as categories, one series of {name!r} per entity")
    series = [f"{entity} ({unit})" if unit else entity for entity in entities]
    return [header[year_at], *series], [[year, *(cells.get((year, e), "") for e in entities)] for year in years]


@dataclass(frozen=True)
class _RawColumn:
    """A value column as read: missing cells are ``None``; ``rows`` are the data rows they came from."""

    name: str
    unit: str
    values: tuple[float | None, ...]
    where: str
    rows: tuple[int, ...]


def _labels(rows: Sequence[Sequence[Any]]) -> list[tuple[str, int]]:
    """Category labels with their data row; a row with no label is an error unless it is all missing."""
    labels = []
    for r, row in enumerate(rows):
        label = str(row[0]).strip()
        if not label:
            if all(is_missing(c) for c in row[1:]):
                continue
            raise TableProblem(Problem.NON_NUMERIC, "empty category label", row=r, column="column 1")
        labels.append((label, r))
    return labels


def _categories(labels: Sequence[tuple[str, int]]) -> tuple[str, ...]:
    """Unique category labels, footnote markers dropped when that keeps them unique."""
    seen: dict[str, int] = {}
    for label, r in labels:
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
    stripped = [strip_footnote(label) for label in seen]
    return tuple(stripped) if len(set(stripped)) == len(stripped) else tuple(seen)


def _column(header: str, cells: Sequence[Any], index: int) -> _RawColumn:
    name, unit = split_header(header)
    where = f"column {index + 1} ({header!r})" if header else f"column {index + 1}"
    if not name:
        raise TableProblem(Problem.NO_SERIES, "a value column has an empty header", column=where)
    values: list[float | None] = []
    cell_units = set()
    for r, cell in enumerate(cells):
        if is_missing(cell):
            values.append(None)
            continue
        parsed = parse_number(cell)
        if parsed is None:
            raise TableProblem(Problem.NON_NUMERIC, f"expected a number, got {str(cell)!r}", row=r, column=where)
        values.append(parsed[0])
        cell_units.add(parsed[1])
    if len(cell_units) > 1:
        raise TableProblem(
            Problem.MIXED_UNITS, f"cells mix units {sorted(cell_units)} in one column", column=where
        )
    cell_unit = next(iter(cell_units), "")
    if cell_unit and unit and cell_unit != unit:
        raise TableProblem(
            Problem.MIXED_UNITS, f"cells carry {cell_unit!r} but the header says {unit!r}", column=where
        )
    return _RawColumn(name, unit or cell_unit, tuple(values), where, tuple(range(len(cells))))


def _check_series_names(columns: Sequence[_RawColumn]) -> None:
    seen: dict[str, str] = {}
    for column in columns:
        key = " ".join(column.name.lower().split())
        if key in seen:
            raise TableProblem(Problem.DUPLICATE_SERIES,
                               f"series {column.name!r} is also the name of {seen[key]}; rename one of them",
                               column=column.where)
        seen[key] = column.where


def years_as_rows(table: ParsedTable) -> ParsedTable | None:
    """The table turned so its year columns become the category axis (one series per row),
    or ``None`` when its value columns are not all years or its rows are already ordered.

    >>> table = parse_grid(["Country", "2020", "2015", "2010"], [["France", "3", "2", "1"], ["Peru", "1", "2", "3"]])
    >>> turned = years_as_rows(table)
    >>> turned.categories, [(c.name, c.values) for c in turned.columns]
    (('2010', '2015', '2020'), [('France', (1.0, 2.0, 3.0)), ('Peru', (3.0, 2.0, 1.0))])
    """
    names = [c.name for c in table.columns]
    if (len(names) < 3 or not all(_YEAR.match(n) for n in names) or is_ordered_axis(table.categories)
            or len({c.unit for c in table.columns}) != 1):
        return None
    unit = table.columns[0].unit
    columns = tuple(Column(label, unit, tuple(c.values[i] for c in table.columns))
                    for i, label in enumerate(table.categories))
    categories = tuple(names)
    notes = [*table.notes, "years given as columns are drawn as categories, one series per row"]
    if is_descending(categories):
        categories = categories[::-1]
        columns = tuple(Column(c.name, c.unit, c.values[::-1]) for c in columns)
        notes.append("years written newest first are drawn oldest first")
    return ParsedTable("Year", categories, columns, table.title, tuple(notes), table.scale_exponent)


def _drop_missing(labels: list[tuple[str, int]], columns: list[_RawColumn], notes: list[str]
                  ) -> tuple[list[tuple[str, int]], list[_RawColumn]]:
    """Drop mostly-missing series, then categories still missing a value (notes say which and why)."""
    positions = [r for _, r in labels]
    kept = []
    for column in columns:
        missing = [r for r in positions if column.values[r] is None]
        if len(missing) * 2 > len(positions):
            notes.append(f"series {column.name!r} dropped: {len(missing)} of {len(positions)} values missing")
        else:
            kept.append(column)
    if not kept:
        raise TableProblem(Problem.NO_SERIES, "every series has more than half of its values missing",
                           column=", ".join(c.where for c in columns))
    rows = []
    for label, r in labels:
        gap = next((c for c in kept if c.values[r] is None), None)
        if gap is None:
            rows.append((label, r))
        else:
            notes.append(f"category {label!r} dropped: no value for {gap.name!r}")
    if len(rows) < 2:
        raise TableProblem(Problem.TOO_FEW_CATEGORIES,
                           f"a chart needs at least 2 categories, {len(rows)} remain after dropping the "
                           f"{len(labels) - len(rows)} with missing values")
    kept_rows = [r for _, r in rows]
    return rows, [_RawColumn(c.name, c.unit, tuple(c.values[r] for r in kept_rows), c.where,
                             tuple(range(len(kept_rows)))) for c in kept]


def _year_key(label: str) -> float | None:
    match = re.search(r"[-+]?\d+(?:\.\d+)?", label)
    return float(match.group()) if match else None


def is_descending(categories: Sequence[str]) -> bool:
    """Whether an ordered (numeric or year) axis is written strictly newest first."""
    if len(categories) < 2 or not is_ordered_axis(categories):
        return False
    keys = [_year_key(c) for c in categories]
    return all(a is not None and b is not None and a > b for a, b in zip(keys, keys[1:]))


def _exact_at(value: float, exponent: int) -> bool:
    scaled = value * 10.0**exponent
    return abs(scaled - round(scaled, 6)) <= 1e-10 * max(1.0, abs(scaled))


def _fit_decimals(columns: tuple[Column, ...], notes: list[str]) -> tuple[tuple[Column, ...], int]:
    """Values that need more than six decimals: rounded when they are not small, else re-expressed
    in a smaller unit (module docstring); returns the columns and the exponent k of ``10^-k``."""
    values = [v for c in columns for v in c.values]
    nonzero = [abs(v) for v in values if v != 0]
    if not nonzero or (min(nonzero) >= MIN_SCALED_VALUE and all(_exact_at(v, 0) for v in values)):
        return columns, 0
    if min(nonzero) >= ROUNDED_MIN_VALUE:
        notes.append("values with more than 6 decimals are rounded to 6")
        return tuple(Column(c.name, c.unit, tuple(float(round(v, 6)) for v in c.values)) for c in columns), 0
    exponent = math.ceil(-math.log10(min(nonzero)))
    factor = 10.0**exponent
    if max(nonzero) * factor > MAX_SCALED_VALUE:
        raise TableProblem(Problem.PRECISION,
                           f"values from {min(nonzero):g} to {max(nonzero):g} cannot all be shown to 6 decimals; "
                           f"give the smallest in a smaller unit or round them")
    power = f"×10{str(-exponent).translate(_SUPERSCRIPT)}"
    scaled = tuple(Column(c.name, f"{power} {c.unit}".strip(), tuple(float(round(v * factor, 6)) for v in c.values))
                   for c in columns)
    notes.append(f"values below {ROUNDED_MIN_VALUE:g} need more than 6 decimals: drawn in units of 10^-{exponent}")
    return scaled, exponent


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
        return default_family(1, shares=is_share, ordered_axis=False)
    return default_family(len(table.columns), shares=False, ordered_axis=is_ordered_axis(table.categories))


def _check_family(table: ParsedTable, family: Family) -> str | None:
    """Why ``table`` cannot be drawn as ``family``, or ``None`` when it can."""
    n = len(table.columns)
    values = [v for c in table.columns for v in c.values]
    return family_of(family).table_problem(n, values)


def to_chart(
    table: ParsedTable,
    *,
    family: Family | None = None,
    title: str | None = None,
    meta: Mapping[str, Any] | None = None,
) -> ChartData:
    """Chart data for a parsed table; a family the table cannot take raises :class:`InputError`.

    Precedence for each field: ``meta`` (JSON/meta file) over what the table says; ``family``
    (the user's choice) over both; the title falls back to ``title``, then to
    :func:`header_title` (never a file name or table id).
    """
    meta = dict(meta or {})
    if family is None and not meta.get("family") and (turned := years_as_rows(table)) is not None:
        table = turned
    chosen = family or (parse_family(meta["family"]) if meta.get("family") else infer_family(table))
    if (why := _check_family(table, chosen)) is not None:
        raise InputError(why, field="family")
    columns = table.columns
    x_values = None
    x_column = family_of(chosen).x_column
    if x_column:
        x_values, columns = columns[0].values, columns[1:]
    series = tuple(Series(c.name, c.values) for c in columns)
    y_label = series[0].name if len(series) == 1 else ""
    x_label = table.columns[0].name if x_column else table.x_label
    return ChartData(
        family=chosen,
        title=str(meta.get("title") or table.title or title or header_title(table)),
        categories=table.categories,
        series=series,
        x_label=str(meta.get("x_label", x_label)),
        y_label=str(meta.get("y_label", y_label)),
        unit=str(meta.get("unit", table.unit)),
        x_values=x_values,
        extra=tuple(sorted(_extra(table, meta).items())),
    )


def _extra(table: ParsedTable, meta: Mapping[str, Any]) -> dict[str, str]:
    extra = {str(k): str(v) for k, v in (meta.get("extra") or {}).items()}
    if table.scale_exponent:
        extra["value_scale"] = f"1e-{table.scale_exponent}"
    return extra


def header_title(table: ParsedTable) -> str:
    """A title read from the headers, for a table that gives none.

    >>> header_title(ParsedTable("Country", ("A", "B"), (Column("Exports", "bn USD", (1.0, 2.0)),)))
    'Exports by country'
    >>> header_title(ParsedTable("Year", ("2019", "2020"), (Column("Coal", "", (1.0, 2.0)), Column("Gas", "", (1.0, 2.0)))))
    'Coal and Gas by year'
    """
    names = [c.name for c in table.columns]
    if len(names) == 1:
        subject = names[0]
    elif len(names) <= 3:
        subject = ", ".join(names[:-1]) + " and " + names[-1]
    else:
        subject = f"{names[0]}, {names[1]} and {len(names) - 2} more"
    noun = table.x_label.strip()
    if noun and noun.lower() not in ("characteristic", "category", "label"):
        return f"{subject} by {noun.lower() if noun[:1].isupper() and noun[1:].islower() else noun}"
    return subject
