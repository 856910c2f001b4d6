"""`rend-equiv panel build`: problems × candidates × judges → a Hub-ready panel-records folder."""

from __future__ import annotations

import argparse
import sys

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
    from rend_equiv_dataset.commands import default_workers
    from rend_equiv_dataset.panels import PanelBuild, build_panel

    build = PanelBuild(
        problems=args.problems, candidates=args.candidates, judges=args.judges, k=args.k, seed=args.seed,
        per_problem=args.per_problem, correct_per_problem=args.correct_per_problem, limit=args.limit,
        allow_weak_sandbox=args.allow_weak_sandbox, jobs=default_workers() if args.jobs is None else args.jobs,
        progress=not args.no_progress)
    summary = build_panel(args.out, build, overwrite=args.overwrite)
    if summary["infra_errors"]:
        print(f"rend-equiv: note: {summary['infra_errors']} candidate(s) could not be run (infra_error); "
              "they are left out of the signal accuracy", file=sys.stderr)
    print(f"{summary['n_records']} records, {summary['n_problems']} problems, "
          f"label base rate {summary['label_base_rate']:.4f} -> {args.out}")
    return 0
