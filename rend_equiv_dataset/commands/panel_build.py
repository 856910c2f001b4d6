"""`rend-equiv panel build`: problems × candidates × judges → a Hub-ready panel-records folder."""

from __future__ import annotations

import argparse
from typing import Any

from rend_equiv_dataset.commands import non_negative, positive, seed

HELP = "build code-judge panel records (execution + judges) as a Hub-ready dataset folder"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--problems", default="humaneval", help="humaneval (default), or an evalplus / LiveCodeBench JSONL")
    parser.add_argument("--candidates", default="mutants", help="mutants (default: offline mutation pool) or a JSONL file")
    parser.add_argument("--judges", default="simulated", help="simulated (default) or a verdicts JSONL file")
    parser.add_argument("--k", type=non_negative, default=None, help="panel size for simulated judges (default 7)")
    parser.add_argument("--seed", type=seed, default=0, help="seed for mutants, judges, random subsets")
    parser.add_argument("--per-problem", type=non_negative, default=7, help="mutation pool size per problem")
    parser.add_argument("--correct-per-problem", type=non_negative, default=3,
                        help="of which canonical + equivalent rewrites (the rest are bug mutants)")
    parser.add_argument("--limit", type=non_negative, default=None, help="use only the first N problems")
    parser.add_argument("--out", required=True, help="output folder")
    parser.add_argument("--overwrite", action="store_true", help="replace a non-empty --out")
    parser.add_argument("--allow-weak-sandbox", action="store_true",
                        help="without bubblewrap, run candidates with weaker isolation instead of refusing "
                             "(root: a private uid; a normal user: limits only)")
    parser.add_argument("--jobs", type=positive, default=None,
                        help="sandboxes executing candidates side by side (default: one per core)")
    parser.add_argument("--no-progress", action="store_true", help="hide progress bars")


def run(args: argparse.Namespace) -> int:
    import sys

    from rend_equiv_dataset.commands import default_workers
    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.panels.judges import DIFFICULTY_WEIGHT, default_judges, simulate_votes
    from rend_equiv_dataset.panels.candidates.mutants import mutation_pool
    from rend_equiv_dataset.panels.build import execute
    from rend_equiv_dataset.io import check_output_dir, output_lock
    from rend_equiv_dataset.panels.candidates.read import load_candidates, load_verdicts
    from rend_equiv_dataset.panels.problems import load_problems

    out = check_output_dir(args.out, overwrite=args.overwrite)
    if args.per_problem < 1 or args.correct_per_problem < 1 or args.correct_per_problem > args.per_problem:
        raise InputError("need 1 <= --correct-per-problem <= --per-problem", field="--correct-per-problem")
    problems = load_problems(args.problems)
    if args.limit is not None:
        problems.problems = problems.problems[: args.limit]
    for excluded in problems.excluded:
        print(f"excluded {excluded.problem_id}: {excluded.reason}", file=sys.stderr)
    by_id = problems.by_id()
    if args.candidates == "mutants":
        missing = [p.problem_id for p in problems.problems if not p.canonical_solution]
        if missing:
            raise InputError(f"mutation needs canonical solutions; {len(missing)} problems have none "
                             f"(e.g. {missing[0]!r}); pass a candidates file", field="--candidates")
        candidates = [c for p in problems.problems for c in mutation_pool(
            p.problem_id, p.reference_code, p.entry_point, size=args.per_problem,
            correct=args.correct_per_problem, seed=args.seed)]
    else:
        candidates = load_candidates(args.candidates, known_problems=set(by_id) if args.limit is None else None)
        candidates = [c for c in candidates if c.problem_id in by_id]
    if not candidates:
        raise InputError("no candidates to build from", field="--candidates")

    # every input is checked before the sandbox runs anything
    if args.judges == "simulated":
        k = 7 if args.k is None else args.k
        if not 1 <= k <= 9:
            raise InputError(f"simulated panels have 1..9 judges, got {k}", field="--k")
        verdicts = None
    else:
        verdicts = load_verdicts(args.judges)
        if args.k is not None and args.k != len(verdicts.judges):
            raise InputError(f"--k {args.k} but the verdict file has {len(verdicts.judges)} judges", field="--k")
        for candidate in candidates:
            verdicts.panel(candidate.candidate_id, file=args.judges)

    with output_lock(out):
        check_output_dir(out, overwrite=args.overwrite)  # again: the lock may have put back a killed run's folder
        cache = out.absolute().parent / f".{out.name}.exec-cache.jsonl"
        results = execute(by_id, candidates, cache, progress=not args.no_progress, allow_weak=args.allow_weak_sandbox,
                          jobs=default_workers() if args.jobs is None else args.jobs)
        if verdicts is None:
            roster = default_judges(k)
            judges = [j.name for j in roster]
            votes: Any = simulate_votes([r["label"] for r in results], [r["candidate_id"] for r in results], roster,
                                   seed=args.seed)
            lines = [["CORRECT" if v else "INCORRECT" for v in row] for row in votes]
            source = "simulated"
            judge_info = {"model": "shared difficulty + per-judge skill and leniency",
                          "difficulty_weight": DIFFICULTY_WEIGHT,
                          "judges": [{"name": j.name, "skill": j.skill, "leniency": j.leniency} for j in roster]}
        else:
            judges = verdicts.judges
            panels = [verdicts.panel(r["candidate_id"], file=args.judges) for r in results]
            votes = [p[0] for p in panels]
            lines = [p[1] for p in panels]
            source = "file"
            judge_info = {"file": str(args.judges), "unparseable_first_lines": verdicts.unparseable}
        summary = _write(args, out, results, votes, judges, lines, source, judge_info, problems)
        cache.unlink(missing_ok=True)
    if summary["infra_errors"]:
        print(f"rend-equiv: note: {summary['infra_errors']} candidate(s) could not be run (infra_error); "
              "they are left out of the signal accuracy", file=sys.stderr)
    print(f"{summary['n_records']} records, {summary['n_problems']} problems, "
          f"label base rate {summary['label_base_rate']:.4f} -> {out}")
    return 0


def _write(args: argparse.Namespace, out: Any, results: list[dict[str, Any]], votes: Any, judges: list[str],
           lines: list[list[str]], source: str, judge_info: dict[str, Any], problems: Any) -> dict[str, Any]:
    from rend_equiv_dataset import __version__
    from rend_equiv_dataset.panels.build import make_records, write_release

    records = make_records(results, votes, judges, lines, source)
    provenance = {
        "package": f"rend-equiv {__version__}", "problems": args.problems, "candidates": args.candidates,
        "judge_source": source, "judges": judges, "judge_settings": judge_info, "seed": args.seed,
        "per_problem": args.per_problem, "correct_per_problem": args.correct_per_problem,
        "excluded_problems": [e.problem_id for e in problems.excluded],
        "isolation": sorted({str(r.get("isolation") or "unrecorded") for r in results}),
    }
    return write_release(out, records, problems, provenance, overwrite=args.overwrite)
