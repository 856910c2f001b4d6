"""Chart data → ChartQA-shaped tables: the export direction of bring-your-own-data.

:func:`write_table_dir` writes ``ID.csv`` + ``ID.meta.json`` per chart and a
``questions.csv``, atomically, in exactly the format
:func:`rend_equiv_dataset.figures.tables.read.load_tables` reads, so export followed
by import gives back the same charts (bar the axis range, which only the zoom
edit sets). Charts that would not read back unchanged are refused.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rend_equiv_dataset.figures.charts.data import ChartData, Series
from rend_equiv_dataset.figures.charts.families import family_of
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.tables.grid import TableProblem, parse_grid, to_chart
from rend_equiv_dataset.figures.tables.read import QUESTION_FILES, QUESTION_KEYS


def chart_to_grid(chart: ChartData) -> tuple[list[str], list[list[str]]]:
    """The ChartQA-shaped header and rows of a chart (scatter: x column, then y).

    Values are written with ``repr`` so they read back bit-exactly.

    >>> from rend_equiv_dataset.figures.charts.data import Family
    >>> chart = ChartData(family=Family.BAR, title="t", categories=("A", "B"),
    ...                   series=(Series("Revenue", (1.5, 2.0)),), x_label="Region", unit="%")
    >>> chart_to_grid(chart)
    (['Region', 'Revenue (%)'], [['A', '1.5'], ['B', '2.0']])
    """
    def head(name: str) -> str:
        return f"{name} ({chart.unit})" if chart.unit else name

    columns = list(chart.series)
    x_column = family_of(chart).x_column
    header = ["" if x_column else chart.x_label]
    if x_column:
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
    from rend_equiv_dataset.io import atomic_dir

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
            write_csv(staging / "questions.csv", [list(QUESTION_KEYS), *map(list, questions)])
    return Path(out)


def write_csv(path: Path, rows: Sequence[Sequence[str]]) -> None:
    """Write rows as UTF-8 CSV with ``\n`` line ends (the format :func:`read_table` reads)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)
