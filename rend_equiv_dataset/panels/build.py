"""Building a panel-records release in one call (docs/design.md §4.1, §7.5; paper §3–4).

Pipeline: problems → candidates (mutants of the canonical solutions, or a
file) → one sandboxed execution per candidate
(:mod:`~rend_equiv_dataset.panels.execution`) → k judges' votes (simulated, or
a verdicts file) → records and a Hub-ready folder
(:mod:`~rend_equiv_dataset.panels.panel_release`). :func:`build_panel` checks
every input before the sandbox runs anything; ``rend-equiv panel build`` is a
thin shell over it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.execution import execute

SIMULATED_K = 7
"""Panel size of simulated judges when none is given."""


@dataclass(frozen=True)
class PanelBuild:
    """What a panel build is made of; the fields are ``panel build``'s options (errors name those options)."""

    problems: str = "humaneval"
    candidates: str = "mutants"
    judges: str = "simulated"
    k: int | None = None
    seed: int = 0
    per_problem: int = 7
    correct_per_problem: int = 3
    limit: int | None = None
    allow_weak_sandbox: bool = False
    jobs: int = 1
    progress: bool = True


def build_panel(out: str | Path, build: PanelBuild = PanelBuild(), *, overwrite: bool = False) -> dict[str, Any]:
    """Build the panel-records folder ``out`` from ``build``; returns the release summary.

    Resumable: executions are cached beside ``out`` until the folder is
    written. Bad input raises :class:`~rend_equiv_dataset.errors.InputError`
    before anything runs, and nothing is left half-written.
    """
    from rend_equiv_dataset.io import check_output_dir, output_lock
    from rend_equiv_dataset.panels.problems import load_problems

    out = check_output_dir(out, overwrite=overwrite)
    if build.per_problem < 1 or build.correct_per_problem < 1 or build.correct_per_problem > build.per_problem:
        raise InputError("need 1 <= --correct-per-problem <= --per-problem", field="--correct-per-problem")
    problems = load_problems(build.problems)
    if build.limit is not None:
        problems.problems = problems.problems[: build.limit]
    for excluded in problems.excluded:
        print(f"excluded {excluded.problem_id}: {excluded.reason}", file=sys.stderr)
    by_id = problems.by_id()
    candidates = _candidates(build, problems, by_id)
    k, verdicts = _judges(build, candidates)

    with output_lock(out):
        check_output_dir(out, overwrite=overwrite)  # again: the lock may have put back a killed run's folder
        cache = out.absolute().parent / f".{out.name}.exec-cache.jsonl"
        results = execute(by_id, candidates, cache, progress=build.progress, allow_weak=build.allow_weak_sandbox,
                          jobs=build.jobs)
        summary = _release(out, build, results, k, verdicts, problems, overwrite=overwrite)
        cache.unlink(missing_ok=True)
    return summary


def _candidates(build: PanelBuild, problems: Any, by_id: dict[str, Any]) -> list[Any]:
    from rend_equiv_dataset.panels.candidates.mutants import mutation_pool
    from rend_equiv_dataset.panels.candidates.read import load_candidates

    if build.candidates == "mutants":
        missing = [p.problem_id for p in problems.problems if not p.canonical_solution]
        if missing:
            raise InputError(f"mutation needs canonical solutions; {len(missing)} problems have none "
                             f"(e.g. {missing[0]!r}); pass a candidates file", field="--candidates")
        candidates = [c for p in problems.problems for c in mutation_pool(
            p.problem_id, p.reference_code, p.entry_point, size=build.per_problem,
            correct=build.correct_per_problem, seed=build.seed)]
    else:
        candidates = load_candidates(build.candidates, known_problems=set(by_id) if build.limit is None else None)
        candidates = [c for c in candidates if c.problem_id in by_id]
    if not candidates:
        raise InputError("no candidates to build from", field="--candidates")
    return candidates


def _judges(build: PanelBuild, candidates: list[Any]) -> tuple[int, Any]:
    """The panel size and the verdicts (``None``: simulated), every verdict checked now."""
    from rend_equiv_dataset.panels.candidates.read import load_verdicts

    if build.judges == "simulated":
        k = SIMULATED_K if build.k is None else build.k
        if not 1 <= k <= 9:
            raise InputError(f"simulated panels have 1..9 judges, got {k}", field="--k")
        return k, None
    verdicts = load_verdicts(build.judges)
    if build.k is not None and build.k != len(verdicts.judges):
        raise InputError(f"--k {build.k} but the verdict file has {len(verdicts.judges)} judges", field="--k")
    for candidate in candidates:
        verdicts.panel(candidate.candidate_id, file=build.judges)
    return len(verdicts.judges), verdicts


def _release(out: Path, build: PanelBuild, results: list[dict[str, Any]], k: int, verdicts: Any, problems: Any,
             *, overwrite: bool) -> dict[str, Any]:
    from rend_equiv_dataset import __version__
    from rend_equiv_dataset.panels.judges import DIFFICULTY_WEIGHT, default_judges, simulate_votes
    from rend_equiv_dataset.panels.panel_release import make_records, write_release

    if verdicts is None:
        roster = default_judges(k)
        judges = [j.name for j in roster]
        votes: Any = simulate_votes([r["label"] for r in results], [r["candidate_id"] for r in results], roster,
                                    seed=build.seed)
        lines = [["CORRECT" if v else "INCORRECT" for v in row] for row in votes]
        source = "simulated"
        judge_info: dict[str, Any] = {
            "model": "shared difficulty + per-judge skill and leniency", "difficulty_weight": DIFFICULTY_WEIGHT,
            "judges": [{"name": j.name, "skill": j.skill, "leniency": j.leniency} for j in roster]}
    else:
        judges = verdicts.judges
        panels = [verdicts.panel(r["candidate_id"], file=build.judges) for r in results]
        votes = [p[0] for p in panels]
        lines = [p[1] for p in panels]
        source = "file"
        judge_info = {"file": str(build.judges), "unparseable_first_lines": verdicts.unparseable}
    records = make_records(results, votes, judges, lines, source)
    provenance = {
        "package": f"rend-equiv {__version__}", "problems": build.problems, "candidates": build.candidates,
        "judge_source": source, "judges": judges, "judge_settings": judge_info, "seed": build.seed,
        "per_problem": build.per_problem, "correct_per_problem": build.correct_per_problem,
        "excluded_problems": [e.problem_id for e in problems.excluded],
        "isolation": sorted({str(r.get("isolation") or "unrecorded") for r in results}),
    }
    return write_release(out, records, problems, provenance, overwrite=overwrite)
