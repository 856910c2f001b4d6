"""Results of ``panel exec --shard I/N`` runs joined into one results file, in candidate order.

Each shard executes the contiguous slice of the candidates file that
:func:`~rend_equiv_dataset.harness.sharding.shard_slice` gives it, into its own
results file (resumable as any ``panel exec`` run). :func:`merge_results`
checks that the files hold every candidate exactly once, for the code the
candidates file has now, and writes the rows in candidate order: the file a
single ``panel exec`` over all candidates writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rend_equiv_dataset import io
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.execution import code_sha
from rend_equiv_dataset.panels.candidates.read import Candidate


def _rows(path: Path) -> dict[str, tuple[int, dict[str, Any]]]:
    """A results file's rows by candidate_id, with their line (a later line for a candidate wins, as on resume)."""
    found: dict[str, tuple[int, dict[str, Any]]] = {}
    for line, row in io.jsonl_rows(path):
        if not isinstance(row.get("candidate_id"), str):
            raise InputError("expected an object with candidate_id", file=path, line=line, field="candidate_id")
        found[row["candidate_id"]] = (line, row)
    return found


def merge_results(candidates: Sequence[Candidate], parts: Sequence[str | Path], out: str | Path) -> int:
    """Write the rows of ``parts`` to ``out`` in candidate order (atomically); returns the row count.

    Refused (:class:`InputError`, nothing written): a candidate in two files,
    a candidate in none, a row for a candidate the file does not list, a row
    for other code than the candidate's (``code_sha``).
    """
    by_id: dict[str, dict[str, Any]] = {}
    source: dict[str, Path] = {}
    wanted = {c.candidate_id: c for c in candidates}
    for part in map(Path, parts):
        for candidate_id, (line, row) in _rows(part).items():
            if candidate_id in source:
                raise InputError(f"candidate {candidate_id!r} is also in {source[candidate_id]}: the shards overlap",
                                 file=part, line=line, field="candidate_id")
            candidate = wanted.get(candidate_id)
            if candidate is None:
                raise InputError(f"candidate {candidate_id!r} is not in the candidates file", file=part, line=line,
                                 field="candidate_id")
            if row.get("code_sha") != code_sha(candidate.code):
                raise InputError(f"ran other code than candidate {candidate_id!r} has now; run its shard again",
                                 file=part, line=line, field="code_sha")
            by_id[candidate_id], source[candidate_id] = row, part
    missing = [c.candidate_id for c in candidates if c.candidate_id not in by_id]
    if missing:
        raise InputError(f"{len(missing)} candidate(s) in no results file, first {missing[0]!r}: a shard is missing or "
                         "unfinished", field="RESULTS")
    return io.write_jsonl(out, (by_id[c.candidate_id] for c in candidates))
