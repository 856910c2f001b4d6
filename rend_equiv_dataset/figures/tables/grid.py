"""Cells, headers and grids of chart tables: the one set of rules for imported and digitized tables.

A grid is a header row and data rows of cells. The first column holds the
category labels (its header is the x-axis label and may be empty); every
further column is one series named by its header, except a column headed
``title`` (any case), which holds the chart title.

Cells are numbers: ``1234``, ``1,234.5`` (thousands commas in strict groups of
three), ``-0.5``, ``1e-05``, ``45%``, ``$12`` (a leading ``$ € £ ¥``).

Units (documented patterns, applied to each series header):
``Revenue (million USD)`` or ``Revenue [million USD]`` → series ``Revenue``,
unit ``million USD``; ``Revenue in million U.S. dollars`` → unit ``million
U.S. dollars`` when the word after ``in`` is a scale word (thousand, million,
billion, trillion) or ``percent``; a column whose cells all end in ``%`` has
unit ``%``, and one whose cells all start with a currency symbol has that
symbol as its unit. A chart has one value axis, so all series must share one
unit (series without a unit take it).

Family (DESIGN §3.1), when nobody chose one: one series — ``pie`` when the
unit is ``%``, no value is negative and the values sum to 100 ± 1 (rounded
shares), otherwise ``bar``; several series — ``line`` when every category is
a number or a year (an ordered axis), otherwise ``grouped_bar``. ``scatter``
takes exactly two value columns, x then y, and the first column labels the
points.

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
