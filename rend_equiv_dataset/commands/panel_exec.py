"""`rend-equiv panel exec`: run candidates in the sandbox, resumably, into a results file."""

from __future__ import annotations

import argparse

from rend_equiv_dataset.commands import positive

HELP = "execute candidate solutions against every assertion (sandboxed, resumable)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--problems", required=True, help="humaneval, or an evalplus / LiveCodeBench JSONL file")
    parser.add_argument("--candidates", required=True, help="JSONL: problem_id, candidate_id, solver, code")
    parser.add_argument("--out", required=True, help="results JSONL (appended; a rerun resumes)")
    parser.add_argument("--allow-weak-sandbox", action="store_true",
                        help="without bubblewrap, run candidates with weaker isolation instead of refusing "
                             "(root: a private uid; a normal user: limits only), and run where a promised layer "
                             "(seccomp, Landlock, network, control group...) is missing: records name it")
    parser.add_argument("--jobs", type=positive, default=None,
                        help="sandboxes running side by side (default: one per core); the results file "
                             "lists candidates in their order whatever this is")
    parser.add_argument("--shard", default=None, metavar="I/N",
                        help="execute only slice I of N of the candidates (one machine's share); "
                             "rend-equiv merge --candidates joins the N results files in candidate order")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from rend_equiv_dataset.commands import default_workers
    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.panels.build import SandboxStart, execute

    out = Path(args.out)
    if out.is_dir() or not out.resolve().parent.is_dir():
        raise InputError(f"expected a file path in an existing folder, got {args.out!r}", field="--out")
    jobs = default_workers() if args.jobs is None else args.jobs
    starting = SandboxStart(jobs, allow_weak=args.allow_weak_sandbox)  # the servers start while inputs are read
    try:
        from rend_equiv_dataset.panels.candidates.read import load_candidates
        from rend_equiv_dataset.panels.problems import load_problems

        problems = load_problems(args.problems)
        for excluded in problems.excluded:
            print(f"excluded {excluded.problem_id}: {excluded.reason}", file=sys.stderr)
        by_id = problems.by_id()
        candidates = load_candidates(args.candidates, known_problems=set(by_id))
        if args.shard is not None:
            from rend_equiv_dataset.harness.sharding import parse_shard, shard_slice

            candidates = shard_slice(candidates, *parse_shard(args.shard))
        rows = execute(by_id, candidates, out, progress=not args.no_progress, starting=starting)
    finally:
        starting.close()
    passed = sum(row["label"] for row in rows)
    modes = ", ".join(sorted({str(row.get("isolation") or "unrecorded") for row in rows})) or "none"
    print(f"{len(rows)} candidates executed ({passed} pass the full suite; isolation: {modes}) -> {out}")
    return 0
