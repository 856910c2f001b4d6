"""Harness logs as our predictions file (``rend-equiv import-predictions``; docs/design.md §7.3, §8.3).

- lmms-eval, run with ``--log_samples``, writes one JSON object per row to
  ``<model>/<date>_samples_<task>.jsonl``: the model's text under
  ``filtered_resps`` (``resps`` before the task's filters, when they differ)
  and each metric's value — for this task the row's sample record, which
  holds its ``render_id`` (the in-memory samples also keep the row as ``doc``).
- VLMEvalKit writes its predictions table ``<model>_<dataset>.xlsx`` (or
  ``.tsv``/``.csv``/``.json``/``.jsonl``): the dataset's TSV columns without the
  image plus ``prediction``.

Both become ``{"render_id", "output"}`` lines after a ``meta`` line naming
the harness and, when the release is given, its fingerprint; render ids are
checked against the release. Outputs are kept as the harness logged them and
read by the scorer, so ``rend-equiv score`` on the file reports what the
harness reported.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rend_equiv_dataset import __version__
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.release.read import (
    dataset_fingerprint,
    load_matched_renderings,
    load_renderings,
)
from rend_equiv_dataset.figures.scoring.predictions import write_predictions
from rend_equiv_dataset.io import echo, jsonl_rows

HARNESSES = ("lmms-eval", "vlmevalkit")
TABLE_SUFFIXES = (".xlsx", ".tsv", ".csv", ".json", ".jsonl")


def lmms_eval_outputs(path: str | Path) -> Iterator[tuple[int, str, str]]:
    """(line, render_id, output) for each line of an lmms-eval samples log."""
    path = Path(path)
    for number, sample in jsonl_rows(path):
        render_id = _render_id(sample)
        if render_id is None:
            raise InputError("expected the rendering's render_id in a metric's record or in doc (a REND-EQUIV task's samples log)",
                             file=path, line=number, field="render_id")
        yield number, render_id, _first_text(sample, path, number)


def _render_id(sample: Mapping[str, Any]) -> str | None:
    """lmms-eval's saved log drops ``doc`` but keeps each metric's value: our sample record, with the id."""
    from rend_equiv_dataset.integrations.scores import METRICS

    for value in [sample.get("doc"), *(sample.get(name) for name in METRICS)]:
        if isinstance(value, dict) and isinstance(value.get("render_id"), str) and value["render_id"]:
            return str(value["render_id"])
    return None


def _first_text(sample: Mapping[str, Any], path: Path, line: int) -> str:
    for name in ("filtered_resps", "resps"):
        value = sample.get(name)
        while isinstance(value, list) and value:
            value = value[0]
        if isinstance(value, str):
            return value
    raise InputError("expected the model's text in filtered_resps or resps", file=path, line=line, field="filtered_resps")


def vlmevalkit_outputs(path: str | Path) -> Iterator[tuple[int, str, str]]:
    """(row, render_id, output) for each answered row of a VLMEvalKit predictions table (row 1 is the first data row)."""
    path = Path(path)
    table = read_table(path)
    for name in ("render_id", "prediction"):
        if name not in table:
            raise InputError(f"expected a {name!r} column (a REND_EQUIV predictions table), found {echo(list(table))}", file=path, field=name)
    for number, (render_id, prediction) in enumerate(zip(table["render_id"], table["prediction"]), start=1):
        if not isinstance(render_id, str) or not render_id:
            raise InputError(f"expected a render id, got {echo(render_id)}", file=path, line=number, field="render_id")
        if prediction is None or (isinstance(prediction, float) and math.isnan(prediction)):
            continue  # not answered: scored as missing
        yield number, render_id, str(prediction)


def read_table(path: Path) -> dict[str, list[Any]]:
    """A VLMEvalKit table as columns of Python values (strings kept as written)."""
    suffix = path.suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise InputError(f"expected one of {', '.join(TABLE_SUFFIXES)}, got {suffix or 'no suffix'!r}", file=path)
    if not path.is_file():
        raise InputError("no such file", file=path)
    if suffix == ".jsonl":
        rows = [row for _, row in jsonl_rows(path)]
        frame_columns = sorted({k for row in rows for k in row})
        return {k: [row.get(k) for row in rows] for k in frame_columns}
    import pandas as pd

    try:
        text = {"dtype": str, "keep_default_na": False}  # ids, targets and outputs stay as written
        if suffix == ".xlsx":
            frame = pd.read_excel(path, **text)
        elif suffix == ".json":
            frame = pd.read_json(path, dtype=False)
        else:
            frame = pd.read_csv(path, sep="\t" if suffix == ".tsv" else ",", na_values=[], **text)
    except ImportError as err:
        raise InputError(f"reading {suffix} needs {err.name or 'openpyxl'}: pip install openpyxl", file=path) from None
    except (ValueError, OSError) as err:
        raise InputError(f"cannot read the table: {echo(str(err))}", file=path) from None
    return {str(k): frame[k].tolist() for k in frame.columns}


READERS = {"lmms-eval": lmms_eval_outputs, "vlmevalkit": vlmevalkit_outputs}


def import_predictions(harness: str, log: str | Path, out: str | Path, *, data: str | Path | None = None) -> int:
    """Convert a harness log into a predictions file; returns the number of predictions.

    With ``data`` (a release folder), every render id must be in the release
    (its ``renderings`` or matched set) and the fingerprint goes into ``meta``.
    """
    if harness not in READERS:
        raise InputError(f"expected one of {list(READERS)}, got {harness!r}", field="--from")
    log = Path(log)
    if not log.is_file():
        raise InputError("no such file", file=log, field="LOG")
    meta: dict[str, Any] = {"harness": harness, "source_log": log.name, "package_version": __version__}
    known: set[str] | None = None
    if data is not None:
        renderings = load_renderings(data)
        known = {r.render_id for r in renderings} | {r.render_id for r in load_matched_renderings(data)}
        meta["dataset_fingerprint"] = dataset_fingerprint(renderings)
    records = _checked(READERS[harness](log), log, known)
    if not records:
        raise InputError("the log holds no answered rendering", file=log)
    write_predictions(out, records, meta=meta)
    return len(records)


def _checked(outputs: Iterable[tuple[int, str, str]], log: Path, known: set[str] | None) -> list[dict[str, Any]]:
    seen: set[str] = set()
    records = []
    for number, render_id, output in outputs:
        if render_id in seen:
            raise InputError(f"render_id {echo(render_id)} answered twice", file=log, line=number, field="render_id")
        if known is not None and render_id not in known:
            raise InputError(f"render_id {echo(render_id)} is not in this release", file=log, line=number, field="render_id")
        seen.add(render_id)
        records.append({"render_id": render_id, "output": output})
    return records


def write_sample_predictions(records: Sequence[Mapping[str, Any]], path: str | Path, meta: dict[str, Any] | None = None) -> int:
    """Write harness sample records (:func:`~rend_equiv_dataset.integrations.scores.sample_record`) as predictions."""
    rows = [{"render_id": r["render_id"], "output": r["output"]} for r in records if r.get("output") is not None]
    first: dict[str, dict[str, Any]] = {}
    for row in rows:
        first.setdefault(row["render_id"], row)
    unique = list(first.values())
    fingerprint_rows = _fingerprint(records)
    write_predictions(path, unique, meta={**(meta or {}), "package_version": __version__, **fingerprint_rows})
    return len(unique)


_WRITTEN: dict[str, str] = {}


def write_sample_predictions_once(records: Sequence[Mapping[str, Any]], path: str | Path, meta: dict[str, Any] | None = None) -> None:
    """:func:`write_sample_predictions`, skipped when ``path`` already holds these records' outputs from this process
    (a harness aggregates each metric separately over the same records)."""
    key = json.dumps([[r.get("render_id"), r.get("output")] for r in records], default=str)
    if _WRITTEN.get(str(path)) != key or not Path(path).is_file():
        write_sample_predictions(records, path, meta)
        _WRITTEN[str(path)] = key


def _fingerprint(records: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """The fingerprint of the rows the records cover, when they are a whole ``renderings`` config."""
    from rend_equiv_dataset.integrations.scores import rows_and_predictions

    rows, _ = rows_and_predictions(records)
    return {"rows_fingerprint": dataset_fingerprint(rows)}

