"""``rend-equiv import-predictions``: a harness's per-sample log as a predictions file (docs/design.md §7.3, §8.3)."""

from __future__ import annotations

import argparse

HELP = "convert an lmms-eval samples log or a VLMEvalKit predictions table into a predictions JSONL"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--from", dest="harness", required=True, choices=("lmms-eval", "vlmevalkit"), help="the harness that wrote LOG")
    parser.add_argument("log", metavar="LOG", help="lmms-eval: …_samples_rend_equiv.jsonl; vlmevalkit: <model>_REND_EQUIV.xlsx (or .tsv/.csv/.json/.jsonl)")
    parser.add_argument("--out", required=True, help="predictions JSONL to write (docs/design.md §7.3)")
    parser.add_argument("--data", default=None, help="release folder: check the render ids and record its fingerprint (recommended)")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.integrations.logs import import_predictions
    from rend_equiv_dataset.io import check_output_file

    check_output_file(args.out)
    count = import_predictions(args.harness, args.log, args.out, data=args.data)
    print(f"{count} predictions -> {args.out}")
    return 0
