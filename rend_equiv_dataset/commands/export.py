"""``rend-equiv export``: a release in another harness's format (docs/design.md §7.1, §8)."""

from __future__ import annotations

import argparse

HELP = "write a release for another harness: a VLMEvalKit TSV, or lmms-eval task YAMLs"

FORMATS = ("vlmevalkit", "lmms-eval")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", required=True, choices=FORMATS, help="vlmevalkit: one TSV file; lmms-eval: a task folder")
    parser.add_argument("--data", required=True, help="release folder (with the renderings config)")
    parser.add_argument("--out", required=True,
                        help="vlmevalkit: the TSV to write (name it $LMUData/REND_EQUIV.tsv); lmms-eval: the task folder")
    parser.add_argument("--config", choices=("renderings", "matched_cycle_renderings"), default="renderings",
                        help="vlmevalkit: which config to write (default renderings; the matched set is REND_EQUIV_MATCHED_CYCLE)")


def run(args: argparse.Namespace) -> int:
    if args.format == "vlmevalkit":
        from rend_equiv_dataset.integrations.vlmevalkit.tsv import write_tsv

        count = write_tsv(args.data, args.out, args.config)
        print(f"{count} renderings -> {args.out}")
        return 0
    from rend_equiv_dataset.integrations.lmms_eval.task import write_task_folder

    tasks = write_task_folder(args.data, args.out)
    print(f"lmms-eval tasks {', '.join(tasks)} -> {args.out} (run with --include_path {args.out} --tasks {tasks[0]})")
    return 0
