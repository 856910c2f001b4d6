"""``rend-equiv panel solve``: an LLM writes a candidate for every problem (resumable)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from rend_equiv_dataset.commands import add_model_options, model_args, non_negative_float, positive, seed

if TYPE_CHECKING:
    from rend_equiv_dataset.harness.panel_run import PanelRun

HELP = "run an LLM solver over code problems into a candidates file for panel exec/build"


def add_run_options(parser: argparse.ArgumentParser, max_new_tokens: int) -> None:
    """Options shared by ``panel solve`` and ``panel judge``: the model's and the run's."""
    add_model_options(parser, max_new_tokens=max_new_tokens, model_help="model folder or Hub id (text or vision-language)")
    parser.add_argument("--temperature", type=non_negative_float, default=0.0,
                        help="0 = greedy (paper: 0; 0.2 on LiveCodeBench)")
    parser.add_argument("--seed", type=seed, default=0)
    parser.add_argument("--limit", type=positive, default=None, help="only the first N items")
    parser.add_argument("--retry-errors", action="store_true")
    parser.add_argument("--shard", default=None, help="I/N: this independent process does shard I of N")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--problems", default="humaneval", help="humaneval or a problems file (evalplus, LiveCodeBench)")
    parser.add_argument("--solver-name", default=None, help="the solver's name in the candidates (default: model name)")
    add_run_options(parser, max_new_tokens=512)
    parser.add_argument("--out", type=Path, required=True, help="candidates JSONL")


def panel_run(args: argparse.Namespace, kind: str, name: str | None) -> PanelRun:
    """The typed run settings from the parsed options."""
    from rend_equiv_dataset.harness.panel_run import PanelRun
    from rend_equiv_dataset.harness.sharding import parse_shard

    return PanelRun(
        kind=kind,
        model=args.model,
        name=name or Path(args.model.rstrip("/")).name,
        out=args.out,
        backend=args.backend,
        revision=args.revision,
        temperature=args.temperature,
        max_new_tokens=args.max_new_tokens,
        seed=args.seed,
        batch_size=args.batch_size,
        retry_errors=args.retry_errors,
        shard=None if args.shard is None else parse_shard(args.shard),
        backend_options=tuple(sorted(model_args(args.model_arg).items())),
    )


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.commands import require_harness

    require_harness()
    from rend_equiv_dataset.panels.judges import SOLVER_TEMPLATE, build_solver_prompt, extract_code
    from rend_equiv_dataset.harness.panel_run import TextJob, inputs_fingerprint, run_text_jobs
    from rend_equiv_dataset.panels.problems import load_problems

    settings = panel_run(args, "solve", args.solver_name)
    problems = load_problems(args.problems).problems[: args.limit]
    jobs = [
        TextJob(f"{settings.name}/{p.problem_id}", build_solver_prompt(p), (("problem_id", p.problem_id),))
        for p in problems
    ]

    def to_record(job: TextJob, reply: str) -> dict[str, str]:
        return {
            "problem_id": dict(job.fields)["problem_id"],
            "candidate_id": job.job_id,
            "solver": settings.name,
            "code": extract_code(reply),
            "response": reply,
        }

    return run_text_jobs(settings, jobs, "candidate_id", SOLVER_TEMPLATE, inputs_fingerprint(args.problems), to_record)
