"""Candidate and verdict files (JSONL) for code-judge panels (docs/design.md §4.1).

Candidates: one object per line with ``problem_id``, ``candidate_id``, ``solver``,
``code`` (all strings; ``operator`` optional). Verdicts: one line per candidate ×
judge with ``candidate_id``, ``judge`` and either ``verdict`` (0/1 or
"CORRECT"/"INCORRECT") or ``response`` (a judge's reply; its first line is parsed
with :func:`~rend_equiv_dataset.panels.judges.parse_verdict`). A reply whose
first line is not a verdict counts as INCORRECT and is kept as its raw line, so
it stays visible in the records; :attr:`Verdicts.unparseable` counts them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import jsonl_rows
from rend_equiv_dataset.panels.candidates.mutants import Candidate


def _string(row: dict[str, Any], name: str, path: Path, line: int, *, required: bool = True) -> str:
    if name not in row:
        if required:
            raise InputError("missing required field", file=str(path), line=line, field=name)
        return ""
    value = row[name]
    if not isinstance(value, str):
        raise InputError(f"expected a string, got {type(value).__name__}", file=str(path), line=line, field=name)
    if required and name != "code" and not value.strip():
        raise InputError("must not be empty", file=str(path), line=line, field=name)
    return value


def load_candidates(path: str | Path, known_problems: set[str] | None = None) -> list[Candidate]:
    """Candidates from a JSONL file, in file order; ids must be unique.

    With ``known_problems``, a candidate for an unknown problem is an error (named by line).
    """
    path = Path(path)
    out: list[Candidate] = []
    seen: set[str] = set()
    for line, row in jsonl_rows(path):
        problem_id = _string(row, "problem_id", path, line)
        candidate_id = _string(row, "candidate_id", path, line)
        solver = _string(row, "solver", path, line)
        code = _string(row, "code", path, line)
        operator = _string(row, "operator", path, line, required=False)
        if candidate_id in seen:
            raise InputError(f"duplicate candidate_id {candidate_id!r}", file=str(path), line=line, field="candidate_id")
        if known_problems is not None and problem_id not in known_problems:
            raise InputError(f"unknown problem {problem_id!r} (not in the problems file)", file=str(path), line=line,
                             field="problem_id")
        seen.add(candidate_id)
        out.append(Candidate(problem_id, candidate_id, solver, code, operator))
    if not out:
        raise InputError("no candidates in file", file=str(path))
    return out


@dataclass
class Verdicts:
    """Votes and raw first lines by candidate and judge; ``judges`` in first-seen order."""

    judges: list[str] = field(default_factory=list)
    votes: dict[str, dict[str, tuple[int, str]]] = field(default_factory=dict)
    unparseable: int = 0

    def panel(self, candidate_id: str, *, file: str = "") -> tuple[list[int], list[str]]:
        """The candidate's votes and raw lines in ``judges`` order; every judge must have voted."""
        mine = self.votes.get(candidate_id, {})
        missing = [j for j in self.judges if j not in mine]
        if missing:
            raise InputError(f"candidate {candidate_id!r} has no verdict from {missing}", file=file or None,
                             field="judge")
        return [mine[j][0] for j in self.judges], [mine[j][1] for j in self.judges]


def _vote(row: dict[str, Any], path: Path, line: int) -> tuple[int, str, bool]:
    if "verdict" in row:
        value = row["verdict"]
        if value in (0, 1) and not isinstance(value, float):
            return int(value), "CORRECT" if value else "INCORRECT", True
        if isinstance(value, str) and value.strip().upper() in ("CORRECT", "INCORRECT"):
            return int(value.strip().upper() == "CORRECT"), value.strip().upper(), True
        raise InputError(f"expected 0, 1, 'CORRECT' or 'INCORRECT', got {value!r}", file=str(path), line=line,
                         field="verdict")
    if "response" in row:
        from rend_equiv_dataset.panels.judges import first_line, parse_verdict  # numpy: only for verdict files

        text = _string(row, "response", path, line)
        parsed = parse_verdict(text)
        return (parsed if parsed is not None else 0), first_line(text), parsed is not None
    raise InputError("missing required field (verdict or response)", file=str(path), line=line, field="verdict")


def load_verdicts(path: str | Path) -> Verdicts:
    """Verdicts from a JSONL file (one line per candidate × judge)."""
    path = Path(path)
    result = Verdicts()
    for line, row in jsonl_rows(path):
        candidate_id = _string(row, "candidate_id", path, line)
        judge = _string(row, "judge", path, line)
        vote, raw, parsed = _vote(row, path, line)
        mine = result.votes.setdefault(candidate_id, {})
        if judge in mine:
            raise InputError(f"second verdict from judge {judge!r} for {candidate_id!r}", file=str(path), line=line,
                             field="judge")
        if judge not in result.judges:
            result.judges.append(judge)
        mine[judge] = (vote, raw)
        result.unparseable += not parsed
    if not result.votes:
        raise InputError("no verdicts in file", file=str(path))
    return result
