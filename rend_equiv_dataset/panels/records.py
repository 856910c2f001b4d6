"""Strict reader of code-judge panel records (docs/design.md §7.5).

Two forms are accepted, one per file:

* full — ``problem_id``, ``benchmark``, ``candidate_id``, ``solver``, ``code``,
  ``assertions_passed`` ([bool], source order), ``status`` ∈ {ok, timeout,
  crash, infra_error}, ``label`` (1 = all assertions pass), ``votes``
  ([0|1] × k), ``judges`` ([str] × k), ``judge_source`` ∈ {model, file,
  simulated}; optionally the builder's ``judge_lines`` (each judge's raw
  first line), ``operator`` (the mutation), ``danger`` (scan flags) and ``isolation``
  (the sandbox mode); the
  signal is computed at a coverage level;
* short — ``problem_id``, ``label``, ``votes``, ``signal`` (0|1), and an
  optional ``benchmark``.

A source is a JSONL file (an optional first line ``{"meta": {...}}`` is kept
as provenance) or a released panel folder of parquet shards
(``data/<config>/*.parquet``, one config per benchmark, or a single
``records`` config; read with pyarrow). Every problem is reported as
an :class:`~rend_equiv_dataset.errors.InputError` naming the file, line (row
for parquet) and field: votes of different lengths, non-binary votes, k < 2,
a missing label, a label that contradicts the assertions, judges in a
different order, a mix of forms, or records of which only some name a
benchmark.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
)

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import echo, jsonl_rows, read_parquet



def _binary(value: Any) -> int:
    """0 or 1 as an integer: booleans, floats and strings are refused, not coerced."""
    if type(value) is not int or value not in (0, 1):
        raise ValueError(f"expected 0 or 1; found {value!r}")
    return value


Binary = Annotated[int, BeforeValidator(_binary)]
RECORDS_CONFIG = "records"


class Status(str, enum.Enum):
    """Outcome of executing a candidate against its full test suite."""

    OK = "ok"
    TIMEOUT = "timeout"
    CRASH = "crash"
    INFRA_ERROR = "infra_error"


class JudgeSource(str, enum.Enum):
    """Where the verdicts came from."""

    MODEL = "model"
    FILE = "file"
    SIMULATED = "simulated"


def _check_votes(votes: list[int]) -> list[int]:
    if len(votes) < 2:
        raise ValueError(f"a panel needs at least 2 votes (k >= 2), found {len(votes)}")
    return votes


class ShortRecord(BaseModel):
    """Short form: the signal is given directly."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    problem_id: StrictStr | StrictInt
    label: Binary
    votes: list[Binary]
    signal: Binary
    benchmark: StrictStr | None = None

    _votes = field_validator("votes")(_check_votes)


class FullRecord(BaseModel):
    """Full form: one executed candidate with its per-assertion results and the panel's votes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    problem_id: StrictStr | StrictInt
    benchmark: StrictStr
    candidate_id: StrictStr | StrictInt
    solver: StrictStr
    code: StrictStr
    assertions_passed: list[StrictBool]
    status: Status
    label: Binary
    votes: list[Binary]
    judges: list[StrictStr]
    judge_source: JudgeSource
    # written by the record builder (rend-equiv panel build) beside the contract fields
    judge_lines: list[StrictStr] | None = None
    operator: StrictStr | None = None
    danger: list[StrictStr] | None = None
    isolation: StrictStr | None = None  # the sandbox's isolation mode

    _votes = field_validator("votes")(_check_votes)

    def inconsistency(self) -> tuple[str, str] | None:
        """(field, message) of the first cross-field contradiction, or None."""
        k = len(self.votes)
        if len(self.judges) != k:
            return "judges", f"has {len(self.judges)} names for {k} votes"
        if self.judge_lines is not None and len(self.judge_lines) != k:
            return "judge_lines", f"has {len(self.judge_lines)} lines for {k} votes"
        passed = self.status is Status.OK and len(self.assertions_passed) > 0 and all(self.assertions_passed)
        if self.label != int(passed):
            return "label", (
                f"label {self.label} contradicts status {self.status.value!r} with "
                f"{sum(self.assertions_passed)}/{len(self.assertions_passed)} assertions passed "
                "(1 iff the run finished and every assertion passed)"
            )
        return None


@dataclass
class PanelRecords:
    """Validated records of one source, as columns."""

    form: Literal["full", "short"]
    problems: list[str] = field(default_factory=list)
    benchmarks: list[str] | None = None
    labels: list[int] = field(default_factory=list)
    votes: list[list[int]] = field(default_factory=list)
    signal: list[int] | None = None
    assertions: list[list[bool]] | None = None
    statuses: list[str] | None = None
    judges: tuple[str, ...] = ()
    judge_source: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    fingerprint: str = ""
    source: str = ""

    @property
    def n(self) -> int:
        return len(self.labels)

    @property
    def k(self) -> int:
        return len(self.votes[0])

    def status_counts(self) -> dict[str, int] | None:
        """Records per execution status (full form), e.g. ``{"ok": 3000, "timeout": 12}``."""
        if self.statuses is None:
            return None
        return {status.value: self.statuses.count(status.value) for status in Status if status.value in self.statuses}

    @property
    def clusters(self) -> list[str]:
        """Problem cluster per record; ids are qualified by benchmark so benchmarks never share a cluster."""
        if self.benchmarks is None:
            return list(self.problems)
        return [f"{b}/{p}" for b, p in zip(self.benchmarks, self.problems)]


def load_panel_records(source: str | Path) -> PanelRecords:
    """Read and validate panel records from a JSONL file or a released parquet folder.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "r.jsonl"
    >>> _ = f.write_text('{"problem_id": "p", "label": 1, "votes": [1, 0, 1], "signal": 1}\\n')
    >>> r = load_panel_records(f)
    >>> r.form, r.k, r.votes
    ('short', 3, [[1, 0, 1]])
    >>> _ = f.write_text('{"problem_id": "p", "label": 1, "votes": [1, 2, 1], "signal": 1}\\n')
    >>> load_panel_records(f)
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: ...r.jsonl:1: field 'votes[1]': expected 0 or 1; found 2
    """
    path = Path(source)
    if path.is_dir():
        return _collect(_parquet_rows(path), str(path), _fingerprint(_parquet_files(path)))
    if not path.is_file():
        raise InputError("no such file or folder", file=str(path), field="--records")
    return _collect(_jsonl_rows(path), str(path), _fingerprint([path]))


def _fingerprint(files: Sequence[Path]) -> str:
    digest = hashlib.sha256()
    for file in files:
        try:
            with open(file, "rb") as handle:
                for chunk in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(chunk)
        except OSError as err:
            raise InputError(f"cannot read: {err.strerror or err}", file=str(file)) from None
    return digest.hexdigest()


def _jsonl_rows(path: Path) -> Iterator[tuple[str, int, Any]]:
    for number, row in jsonl_rows(path):
        yield str(path), number, row


def _parquet_files(folder: Path) -> list[Path]:
    """Shards of a release: ``data/records/`` if present, else every config under ``data/`` (one per benchmark)."""
    data = folder / "data"
    if (data / RECORDS_CONFIG).is_dir():
        files = sorted((data / RECORDS_CONFIG).glob("*.parquet"))
    elif data.is_dir():
        files = sorted(data.glob("*/*.parquet"))
    else:
        files = sorted(folder.glob("*.parquet"))
    if not files:
        raise InputError("no parquet shards found (expected data/<config>/*.parquet)", file=str(folder), field="--records")
    return files


def _parquet_rows(folder: Path) -> Iterator[tuple[str, int, Any]]:
    for file in _parquet_files(folder):
        rows = read_parquet(file).to_pylist()
        for number, row in enumerate(rows, start=1):
            yield str(file), number, {key: value for key, value in row.items() if value is not None}


def _validation_error(err: ValidationError, file: str, line: int) -> InputError:
    first = err.errors()[0]
    loc = first["loc"]
    name = str(loc[0]) if loc else "record"
    name += "".join(f"[{part}]" for part in loc[1:] if isinstance(part, int))
    message = first["msg"].removeprefix("Value error, ")
    if first["type"] not in ("missing", "value_error", "extra_forbidden"):
        message += f"; found {echo(first['input'])}"
    if first["type"] == "extra_forbidden":
        message = "is not a field of panel records (docs/design.md §7.5)"
    return InputError(message, file=file, line=line, field=name)


def _parse(obj: Any, file: str, line: int) -> FullRecord | ShortRecord:
    if not isinstance(obj, dict):
        raise InputError(f"expected a JSON object, found {type(obj).__name__}", file=file, line=line)
    model: type[FullRecord] | type[ShortRecord] = ShortRecord if "signal" in obj else FullRecord
    try:
        record = model.model_validate(obj)
    except ValidationError as err:
        raise _validation_error(err, file, line) from None
    if isinstance(record, FullRecord) and (problem := record.inconsistency()) is not None:
        raise InputError(problem[1], file=file, line=line, field=problem[0])
    return record


def _collect(rows: Iterator[tuple[str, int, Any]], source: str, fingerprint: str) -> PanelRecords:
    out: PanelRecords | None = None
    meta: dict[str, Any] = {}
    first_line = ""
    for file, line, obj in rows:
        if out is None and isinstance(obj, dict) and set(obj) == {"meta"} and isinstance(obj["meta"], dict):
            meta = obj["meta"]
            continue
        record = _parse(obj, file, line)
        if out is None:
            out = _start(record)
            first_line = f"{file}:{line}"
        _append(out, record, file, line, first_line)
    if out is None:
        raise InputError("no records", file=source)
    out.meta, out.fingerprint, out.source = meta, fingerprint, source
    return out


def _start(record: FullRecord | ShortRecord) -> PanelRecords:
    if isinstance(record, FullRecord):
        return PanelRecords(
            form="full", benchmarks=[], assertions=[], statuses=[],
            judges=tuple(record.judges), judge_source=record.judge_source.value,
        )
    return PanelRecords(form="short", benchmarks=[] if record.benchmark is not None else None, signal=[])


def _append(out: PanelRecords, record: FullRecord | ShortRecord, file: str, line: int, first: str) -> None:
    def fail(message: str, name: str) -> InputError:
        return InputError(message, file=file, line=line, field=name)

    form = "full" if isinstance(record, FullRecord) else "short"
    if form != out.form:
        raise fail(f"a {form}-form record among {out.form}-form records (first at {first})", "signal")
    if out.votes and len(record.votes) != out.k:
        raise fail(f"expected {out.k} votes like {first}, found {len(record.votes)}", "votes")
    has_benchmark = record.benchmark is not None
    if has_benchmark != (out.benchmarks is not None):
        state = "names no benchmark" if not has_benchmark else "names a benchmark"
        raise fail(f"this record {state} but {first} does not agree; give every record a benchmark or none", "benchmark")
    if isinstance(record, FullRecord):
        if tuple(record.judges) != out.judges:
            raise fail(f"judges {record.judges} differ from {list(out.judges)} at {first} (same panel, same order)", "judges")
        if record.judge_source.value != out.judge_source:
            raise fail(f"judge_source {record.judge_source.value!r} differs from {out.judge_source!r} at {first}", "judge_source")
        _extend(out.assertions, list(record.assertions_passed))
        _extend(out.statuses, record.status.value)
    else:
        _extend(out.signal, record.signal)
    out.problems.append(str(record.problem_id))
    if out.benchmarks is not None:
        out.benchmarks.append(str(record.benchmark))
    out.labels.append(record.label)
    out.votes.append(list(record.votes))


def _extend(column: list[Any] | None, value: Any) -> None:
    if column is None:  # _start creates every column its form needs
        raise RuntimeError("record column missing for this form")
    column.append(value)
