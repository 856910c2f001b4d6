"""``rend-equiv submit``: validate and score a predictions file, store it on a leaderboard, regenerate the table."""

from __future__ import annotations

import argparse

HELP = "score a predictions file and add it to a leaderboard folder (HF results shape; idempotent)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, help="release folder (with the renderings config)")
    parser.add_argument("--predictions", required=True, help="predictions JSONL (DESIGN §7.3)")
    parser.add_argument("--model-name", required=True, help="NAME or ORG/NAME shown on the leaderboard")
    parser.add_argument("--leaderboard", required=True, help="leaderboard folder (created if missing)")
    parser.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.figures.scoring.leaderboard import check_leaderboard_dir, check_model_name, submit
    from rend_equiv_dataset.figures.scoring.pipeline import score_files

    check_model_name(args.model_name)
    check_leaderboard_dir(args.leaderboard)
    if args.resamples < 0:
        raise InputError(f"must be >= 0, got {args.resamples}", field="--resamples")
    result = score_files(args.data, args.predictions, n_resamples=args.resamples)
    path = submit(result, args.model_name, args.leaderboard)
    print(f"submitted {args.model_name}: accuracy {result.report['accuracy']:.3f}; results in {path}")
    return 0
