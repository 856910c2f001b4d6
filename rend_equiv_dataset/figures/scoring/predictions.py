"""Strict reader for predictions files.

One JSON object per line: an optional first line ``{"meta": {...}}``, then one
line per rendering ``{"render_id", "output", "answer"?, "logprob"?,
"samples"?, "perturbed"?}``. Every rule is checked and a violation raises
:class:`~rend_equiv_dataset.errors.InputError` naming the file, line and field:

- each line is one complete JSON object, read by
  :func:`rend_equiv_dataset.io.jsonl_rows` with its limits (a truncated last
  line is an error, not dropped: a scored file must be whole; NaN, Infinity,
  numbers too large for a float, lone surrogates, duplicate keys and deep
  nesting are rejected); blank lines are rejected except one final newline;
- unknown fields are rejected (``extra="forbid"``), types are strict;
- a ``render_id`` appears at most once and must belong to the release;
- a ``meta.dataset_fingerprint``, when present, must equal the release's.

Missing renderings policy: a rendering of the release without a line is
*unanswered*. It is scored as an unparseable output (wrong, and never agreeing
with anything), and the count is reported as ``missing`` in the report.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import echo, jsonl_rows, write_jsonl


class Prediction(BaseModel):
    """One rendering's model output."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    render_id: str = Field(min_length=1)
    output: str
    answer: str | None = None
    logprob: float | None = None
    samples: list[str] | None = None
    perturbed: list[str] | None = None


class Meta(BaseModel):
    """The optional first line's ``meta`` object; provenance fields are free-form."""

    model_config = ConfigDict(extra="allow", strict=True, allow_inf_nan=False)

    dataset_fingerprint: str | None = None


@dataclass
class Predictions:
    """A validated predictions file."""

    by_render_id: dict[str, Prediction]
    meta: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None
    missing: tuple[str, ...] = ()


def _validated(model: type[BaseModel], value: dict[str, Any], path: Path, line: int) -> Any:
    try:
        return model.model_validate(value)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or None
        raise InputError(f"{first['msg']}, got {echo(first.get('input'))}", file=path, line=line, field=where) from None


def prediction_lines(path: str | Path, *, fingerprint: str | None = None) -> Iterator[tuple[int, Prediction | dict[str, Any]]]:
    """(line number, :class:`Prediction` or the ``meta`` dict) for each line, validated one at a time.

    The per-line rules of the module docstring; the rules across lines
    (duplicates, ids of the release) are the caller's.
    """
    path = Path(path)
    for number, value in jsonl_rows(path, skip_blank=False):
        if "meta" in value:
            yield number, _read_meta(value, path, number, fingerprint)
        else:
            yield number, _validated(Prediction, value, path, number)


def read_predictions(
    path: str | Path,
    render_ids: Iterable[str] | None = None,
    *,
    fingerprint: str | None = None,
) -> Predictions:
    """Read and validate a predictions file against a release's ``render_ids``.

    Args:
        path: the JSONL file.
        render_ids: the release's render ids; unknown ids are errors and
            missing ones are listed in :attr:`Predictions.missing`.
        fingerprint: the release's :func:`~rend_equiv_dataset.figures.release.read.dataset_fingerprint`;
            a different ``meta.dataset_fingerprint`` is an error.
    """
    path = Path(path)
    known = None if render_ids is None else set(render_ids)
    meta: dict[str, Any] = {}
    by_id: dict[str, Prediction] = {}
    for number, prediction in prediction_lines(path, fingerprint=fingerprint):
        if not isinstance(prediction, Prediction):
            meta = prediction
            continue
        if prediction.render_id in by_id:
            raise duplicate_error(prediction.render_id, path, number)
        if known is not None and prediction.render_id not in known:
            raise unknown_error(prediction.render_id, path, number)
        by_id[prediction.render_id] = prediction
    if not by_id:
        raise InputError("no predictions in the file", file=path)
    missing = () if known is None else tuple(sorted(known - set(by_id)))
    return Predictions(by_id, meta, path, missing)


def duplicate_error(render_id: str, path: Path, line: int) -> InputError:
    """A render id answered twice."""
    return InputError(f"duplicate render_id {echo(render_id)}", file=path, line=line, field="render_id")


def unknown_error(render_id: str, path: Path, line: int) -> InputError:
    """A render id the release does not have."""
    return InputError(f"render_id {echo(render_id)} is not in this release", file=path, line=line, field="render_id")


def _read_meta(value: dict[str, Any], path: Path, line: int, fingerprint: str | None) -> dict[str, Any]:
    if line != 1:
        raise InputError("a meta line is allowed only as the first line", file=path, line=line, field="meta")
    if set(value) != {"meta"} or not isinstance(value["meta"], dict):
        raise InputError("expected exactly {\"meta\": {...}}", file=path, line=line, field="meta")
    meta = _validated(Meta, value["meta"], path, line)
    found = meta.dataset_fingerprint
    if fingerprint is not None and found is not None and found != fingerprint:
        raise InputError(
            f"predictions are for another dataset: fingerprint {found[:16]}… but this release is {fingerprint[:16]}…",
            file=path,
            line=line,
            field="meta.dataset_fingerprint",
        )
    return dict(value["meta"])


def write_predictions(path: str | Path, predictions: Iterable[dict[str, Any]], meta: dict[str, Any] | None = None) -> int:
    """Write a predictions file atomically (validated rows after an optional meta line), row by row; returns the count."""

    def validated() -> Iterator[dict[str, Any]]:
        for record in predictions:
            Prediction.model_validate(record)
            yield record

    return write_jsonl(path, validated(), meta=meta)
