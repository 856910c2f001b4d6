"""``rend-equiv panel judge``: an LLM judges every candidate blindly (resumable)."""

from __future__ import annotations

import argparse
from pathlib import Path

HELP = "run an LLM judge over candidates into a verdicts file for panel build"


def configure(parser: argparse.ArgumentParser) -> None:
    from rend_equiv_dataset.commands.panel_solve import add_run_options

    parser.add_argument("--problems", default="humaneval", help="humaneval or a problems file")
    parser.add_argument("--candidates", type=Path, required=True, help="candidates JSONL (panel solve, or your own)")
    parser.add_argument("--judge-name", default=None, help="the judge's name in the verdicts (default: model name)")
    add_run_options(parser, max_new_tokens=64)
    parser.add_argument("--out", type=Path, required=True, help="verdicts JSONL")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.commands import require_harness

    require_harness()
    from rend_equiv_dataset.commands.panel_solve import panel_run
    from rend_equiv_dataset.panels.judges import JUDGE_TEMPLATE, build_judge_prompt
    from rend_equiv_dataset.harness.panel_run import TextJob, inputs_fingerprint, run_text_jobs
    from rend_equiv_dataset.panels.candidates.read import load_candidates
    from rend_equiv_dataset.panels.problems import load_problems

    settings = panel_run(args, "judge", args.judge_name)
    problems = load_problems(args.problems).by_id()
    candidates = load_candidates(args.candidates, known_problems=set(problems))[: args.limit]
    jobs = [TextJob(c.candidate_id, build_judge_prompt(problems[c.problem_id], c.code)) for c in candidates]

    def to_record(job: TextJob, reply: str) -> dict[str, str]:
        return {"candidate_id": job.job_id, "judge": settings.name, "response": reply}

    inputs = inputs_fingerprint(args.problems, str(args.candidates))
    return run_text_jobs(settings, jobs, "candidate_id", JUDGE_TEMPLATE, inputs, to_record)
