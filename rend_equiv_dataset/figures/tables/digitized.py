"""Strict parsing of a model's transcription of a chart into a table, with failure reasons.

Real figures come without their data. The paper's pilot (§6 "Transfer to real
figures", Appendix D, §9) asks a model to digitize each chart, re-plots the
extracted table and applies edits to it; it *characterizes* extraction
failures instead of dropping them (94.8% success on in-scope ChartQA charts).
This module is the parser and the failure taxonomy; the command
``rend-equiv digitize`` runs the model and writes the tables and the report.

The documented output format (:data:`DIGITIZE_PROMPT` asks for it)::

    TITLE: Revenue by region
    | Region | Revenue (million USD) |
    | --- | --- |
    | North | 1,250.5 |
    | South | 980 |

- An optional first line ``TITLE: ...`` (DePlot's ``TITLE | ...`` too).
- A header row, then one row per category; the first column holds the
  category labels, each further column one series (units in the header as in
  :mod:`rend_equiv_dataset.figures.tables.read`).
- Cells separated by ``|`` (leading and trailing pipes optional, a ``---``
  separator row after the header allowed) or, when no line has a ``|``, by
  commas with CSV quoting (``"1,234"``).
- DePlot-style linearisation (``<0x0A>`` between rows) is read as new lines.
- If the output holds a fenced code block (``` or ```csv ...), only the
  first block is read and text around it is ignored; otherwise the whole
  output must be the table (prose lines make it unparseable).

Cells are parsed as numbers by the same rules as imported tables; nothing is
guessed or repaired.

>>> result = parse_model_table("| Year | Sales |\\n|---|---|\\n| 2020 | 1.5 |\\n| 2021 | 2 |")
>>> result.ok, result.table.categories, result.table.columns[0].values
(True, ('2020', '2021'), (1.5, 2.0))
>>> parse_model_table("I cannot read this chart.").reason
<FailureReason.UNPARSEABLE: 'unparseable'>
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.tables.grid import ParsedTable, Problem, TableProblem, parse_grid
from rend_equiv_dataset.harness.prompts import DIGITIZE_PROMPT

_FENCE = re.compile(r"```[^\n`]*\n(?P<body>.*?)(?:```|\Z)", re.DOTALL)
_SEPARATOR_CELL = re.compile(r"^:?-{3,}:?$")
_TITLE = re.compile(r"^\|?\s*title\s*[:|]\s*(?P<title>.*?)\s*\|?$", re.IGNORECASE)


class FailureReason(str, Enum):
    """Why a model's output did not give a usable table (counted in the digitization report)."""

    MODEL_ERROR = "model_error"
    IMAGE_ERROR = "image_error"
    EMPTY_OUTPUT = "empty_output"
    UNPARSEABLE = "unparseable"
    RAGGED_ROWS = "ragged_rows"
    WRONG_CATEGORY_COUNT = "wrong_category_count"
    DUPLICATE_CATEGORY = "duplicate_category"
    NON_NUMERIC_CELL = "non_numeric_cell"
    MIXED_UNITS = "mixed_units"


_FROM_PROBLEM = {
    Problem.EMPTY: FailureReason.WRONG_CATEGORY_COUNT,
    Problem.TOO_FEW_CATEGORIES: FailureReason.WRONG_CATEGORY_COUNT,
    Problem.RAGGED: FailureReason.RAGGED_ROWS,
    Problem.DUPLICATE_CATEGORY: FailureReason.DUPLICATE_CATEGORY,
    Problem.NON_NUMERIC: FailureReason.NON_NUMERIC_CELL,
    Problem.MIXED_UNITS: FailureReason.MIXED_UNITS,
    Problem.NO_SERIES: FailureReason.UNPARSEABLE,
    Problem.DUPLICATE_SERIES: FailureReason.UNPARSEABLE,
    Problem.PRECISION: FailureReason.NON_NUMERIC_CELL,
}


@dataclass(frozen=True)
class Digitized:
    """The outcome of parsing one output: a table, or a failure reason with a detail."""

    table: ParsedTable | None = None
    reason: FailureReason | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.table is not None


def _failure(reason: FailureReason, detail: str) -> Digitized:
    return Digitized(reason=reason, detail=detail)


def parse_model_table(text: str, *, expected_categories: int | None = None) -> Digitized:
    """Parse a model's table output strictly (format in the module docstring).

    ``expected_categories``, when known (a gold table, the figure's metadata),
    makes a different row count a ``wrong_category_count`` failure.

    >>> parse_model_table("```\\nCountry,GDP (%)\\nA,1.5%\\nB,2\\n```").reason
    <FailureReason.MIXED_UNITS: 'mixed_units'>
    >>> parse_model_table("x | y\\nA | 1\\nB | 2", expected_categories=3).detail
    'expected 3 categories, the table has 2'
    """
    if not text or not text.strip():
        return _failure(FailureReason.EMPTY_OUTPUT, "the output is empty")
    lines = _table_lines(text)
    if not lines:
        return _failure(FailureReason.EMPTY_OUTPUT, "the fenced block is empty")
    title = None
    if lines and (match := _TITLE.match(lines[0])):
        title, lines = match["title"].strip() or None, lines[1:]
    grid = _split_cells(lines)
    if grid is None or len(grid) < 2 or len(grid[0]) < 2:
        return _failure(FailureReason.UNPARSEABLE, "no table with a header row and at least two columns")
    try:
        table = parse_grid(grid[0], grid[1:])
    except TableProblem as problem:
        where = f" (data row {problem.row + 1})" if problem.row is not None else ""
        return _failure(_FROM_PROBLEM[problem.problem], f"{problem.message}{where}")
    if expected_categories is not None and len(table.categories) != expected_categories:
        return _failure(
            FailureReason.WRONG_CATEGORY_COUNT,
            f"expected {expected_categories} categories, the table has {len(table.categories)}",
        )
    if title is not None:
        table = ParsedTable(table.x_label, table.categories, table.columns, title)
    return Digitized(table=table)


def _table_lines(text: str) -> list[str]:
    """The non-blank lines that should hold the table: the first fenced block, or everything."""
    text = text.replace("<0x0A>", "\n").replace("\r\n", "\n")
    fence = _FENCE.search(text)
    if fence is not None:
        text = fence["body"]
    return [line.strip() for line in text.split("\n") if line.strip()]


def _split_cells(lines: list[str]) -> list[list[str]] | None:
    """Split lines into cells: pipes when any line has one, else CSV; ``None`` when it is not a table."""
    if any("|" in line for line in lines):
        if not all("|" in line for line in lines):
            return None
        rows = [_pipe_cells(line) for line in lines]
        if len(rows) > 1 and all(_SEPARATOR_CELL.match(c.replace(" ", "")) for c in rows[1]):
            rows = [rows[0], *rows[2:]]
        return rows
    if not all("," in line for line in lines):
        return None
    try:
        return [[c.strip() for c in row] for row in csv.reader(lines, strict=True)]
    except csv.Error:
        return None


def _pipe_cells(line: str) -> list[str]:
    inner = line[1:] if line.startswith("|") else line
    inner = inner[:-1] if inner.endswith("|") else inner
    return [c.strip() for c in inner.split("|")]


@dataclass(frozen=True)
class DigitizeReport:
    """Counts of a digitization run: successes and failures by reason (paper Appendix D)."""

    n: int
    n_ok: int
    failures: dict[str, int]

    @property
    def success_rate(self) -> float:
        return self.n_ok / self.n if self.n else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "n_ok": self.n_ok, "success_rate": self.success_rate, "failures": self.failures}


def summarize(outcomes: Iterable[Digitized]) -> DigitizeReport:
    """Count outcomes by failure reason; every reason appears, zero or not.

    >>> report = summarize([parse_model_table("a,b\\nx,1\\ny,2"), parse_model_table("")])
    >>> report.n, report.n_ok, report.success_rate, report.failures["empty_output"]
    (2, 1, 0.5, 1)
    """
    outcomes = list(outcomes)
    counts = Counter(o.reason.value for o in outcomes if o.reason is not None)
    failures = {reason.value: counts.get(reason.value, 0) for reason in FailureReason}
    return DigitizeReport(len(outcomes), sum(o.ok for o in outcomes), failures)


# --------------------------------------------------------------------------- running a model

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
REPORT_FOLDER = "_digitize"


def list_images(folder: Path) -> list[Path]:
    """Chart images in ``folder`` (not recursive, hidden files skipped), in name order."""
    if not folder.is_dir():
        raise InputError("is not a folder", file=folder, field="--images")
    images = sorted(p for p in folder.iterdir()
                    if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES and not p.name.startswith("."))
    if not images:
        raise InputError(f"holds no {', '.join(IMAGE_SUFFIXES)} images", file=folder, field="--images")
    stems = Counter(p.stem for p in images)
    if (twice := next((s for s, n in stems.items() if n > 1), None)) is not None:
        raise InputError(f"two images share the name {twice!r}; a table is named after its image",
                         file=folder, field="--images")
    return images


def table_grid(table: ParsedTable) -> list[list[str]]:
    """The CSV rows of a parsed table (header first), in the import format of :mod:`.tables`."""
    header = [table.x_label] + [f"{c.name} ({c.unit})" if c.unit else c.name for c in table.columns]
    rows = [[label, *(repr(c.values[i]) for c in table.columns)] for i, label in enumerate(table.categories)]
    return [header, *rows]


@dataclass(frozen=True)
class DigitizeRun:
    """One ``rend-equiv digitize`` run: images in, a table folder and a failure report out."""

    images: Path
    model: str
    out: Path
    backend: str = "transformers"
    revision: str | None = None
    max_new_tokens: int = 512
    batch_size: int = 4
    retry_errors: bool = False
    overwrite: bool = False
    backend_options: tuple[tuple[str, Any], ...] = ()  # ``--model-arg`` settings

    @property
    def store_path(self) -> Path:
        """Raw outputs so far, beside the target: a killed run resumes from them."""
        return self.out.resolve().parent / f".{self.out.name}.digitize.jsonl"

    def key_fields(self) -> dict[str, Any]:
        from rend_equiv_dataset.harness.provenance import local_model_revision

        folder = Path(self.model).expanduser()
        revision = self.revision or (local_model_revision(folder) if folder.is_dir() else None)
        return {"task": "digitize", "model": self.model, "revision": revision, "backend": self.backend,
                "prompt": DIGITIZE_PROMPT, "max_new_tokens": self.max_new_tokens}


def run_digitize(run: DigitizeRun, load_model: Callable[[], Any] | None = None) -> DigitizeReport:
    """Ask the model for each image's table (resumably), parse strictly, write tables and report.

    ``load_model`` returns an object with the harness's ``generate`` (tests pass
    a stand-in); by default the harness backend named in ``run`` is loaded, and
    only when some image still needs an answer.
    """
    from rend_equiv_dataset import io
    from rend_equiv_dataset.harness.provenance import run_key
    from rend_equiv_dataset.harness.resumable import run_resumable
    from rend_equiv_dataset.harness.sharding import single_process
    from rend_equiv_dataset.harness.store import RunStore

    images = list_images(run.images)
    io.check_output_dir(run.out, overwrite=run.overwrite)
    fields = run.key_fields()
    store = RunStore(run.store_path, meta=fields, key=run_key(fields), id_field="image")
    by_name = {p.name: p for p in images}
    ids = list(by_name)
    result = run_resumable(store, ids, lambda model, batch: _ask(model, [by_name[n] for n in batch], run),
                           load_model=load_model or (lambda: _load_backend(run)), ctx=single_process(),
                           batch_size=run.batch_size, retry_errors=run.retry_errors, progress="digitize",
                           unit="image")
    if result.merged is None:
        raise RuntimeError("a single-process run always merges")
    records = {r["image"]: r for _, r in _read_records(run.store_path)}
    errors = result.merged.errors
    outcomes = {name: _outcome(records.get(name), errors.get(name)) for name in ids}
    report = summarize(outcomes.values())
    _write_tables(run, outcomes, records, errors, report)
    return report


def _load_backend(run: DigitizeRun) -> Any:
    from rend_equiv_dataset.harness.backends import load_model
    from rend_equiv_dataset.harness.sharding import process_context

    return load_model(run.backend, run.model, options=dict(run.backend_options), revision=run.revision,
                      device=process_context().device, batch_size=run.batch_size)


def _ask(model: Any, batch: list[Path], run: DigitizeRun) -> list[dict[str, Any]]:
    """One store record per image of the batch: the model's output, or why there is none."""
    from PIL import Image

    from rend_equiv_dataset.harness.resumable import error_record
    from rend_equiv_dataset.harness.types import ErrorInfo, GenerationSettings, Request

    settings = GenerationSettings(max_new_tokens=run.max_new_tokens)
    records, requests = [], []
    for path in batch:
        try:
            with Image.open(path) as image:
                requests.append(Request(path.name, DIGITIZE_PROMPT, (image.convert("RGB"),), settings))
        except Exception as err:  # noqa: BLE001 - an unreadable image fails alone
            records.append(error_record("image", path.name, ErrorInfo.from_exception(err), prefix="image: "))
    for request, completion in zip(requests, model.generate(requests)):
        if completion.error is not None:
            records.append(error_record("image", request.request_id, completion.error))
        else:
            records.append({"image": request.request_id, "output": completion.text})
    return records


def _read_records(path: Path) -> Iterable[tuple[int, dict[str, Any]]]:
    from rend_equiv_dataset.harness.store import read_jsonl_lines

    return ((n, r) for n, r in read_jsonl_lines(path) if "meta" not in r)


def _outcome(record: dict[str, Any] | None, error: dict[str, str] | None) -> Digitized:
    if record is None:
        message = (error or {}).get("message", "no answer")
        reason = FailureReason.IMAGE_ERROR if message.startswith("image: ") else FailureReason.MODEL_ERROR
        return _failure(reason, f"{(error or {}).get('class', 'Error')}: {message}")
    return parse_model_table(record.get("output") or "")


def _write_tables(run: DigitizeRun, outcomes: dict[str, Digitized], records: dict[str, Any],
                  errors: dict[str, Any], report: DigitizeReport) -> None:
    import json

    from rend_equiv_dataset import io
    from rend_equiv_dataset.figures.tables.export import write_csv

    per_image = []
    with io.atomic_dir(run.out, overwrite=run.overwrite) as staging:
        for name, outcome in outcomes.items():
            stem = Path(name).stem
            if outcome.table is not None:
                write_csv(staging / f"{stem}.csv", table_grid(outcome.table))
                if outcome.table.title:
                    (staging / f"{stem}.title.txt").write_text(outcome.table.title + "\n", encoding="utf-8")
            per_image.append({"image": name, "ok": outcome.ok,
                              "reason": None if outcome.reason is None else outcome.reason.value,
                              "detail": outcome.detail, "output": (records.get(name) or {}).get("output"),
                              "error": errors.get(name)})
        folder = staging / REPORT_FOLDER
        folder.mkdir()
        body = {**report.to_dict(), "provenance": run.key_fields(), "images": per_image}
        (folder / "report.json").write_text(json.dumps(body, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if not errors:  # with failed requests the answers stay, so --retry-errors asks only for those
        run.store_path.unlink(missing_ok=True)
