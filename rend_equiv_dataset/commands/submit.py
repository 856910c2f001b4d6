"""``rend-equiv submit``: validate and score a predictions file, add it to a leaderboard folder, publish the new board."""

from __future__ import annotations

import argparse
import math

from rend_equiv_dataset.commands import non_negative

HELP = "score a predictions file and add it to a leaderboard folder (HF results shape; one row per model, history kept)"


def _billions(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of billions of parameters, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0 (billions of parameters), got {text}")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, help="release folder (with the renderings config)")
    parser.add_argument("--predictions", required=True, help="predictions JSONL (one object per rendering; optional meta line first)")
    parser.add_argument("--model-name", required=True, help="NAME or ORG/NAME shown on the leaderboard")
    parser.add_argument("--leaderboard", required=True, help="leaderboard folder (created if missing)")
    parser.add_argument("--resamples", type=non_negative, default=10_000, help="bootstrap resamples; 0 reports no intervals (default 10000)")
    parser.add_argument("--revision", default=None, help="model commit sha (default: the predictions' meta revision)")
    parser.add_argument("--dtype", default=None, help="model dtype, e.g. bfloat16 (default: from the predictions' meta)")
    parser.add_argument("--model-type", default=None, help="a label to filter by, e.g. open, closed, fine-tuned")
    parser.add_argument("--params", type=_billions, default=None, help="model size in billions of parameters")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.board.store import check_model_name
    from rend_equiv_dataset.figures.scoring.leaderboard import ModelInfo, check_leaderboard_dir, submit
    from rend_equiv_dataset.figures.scoring.pipeline import score_files

    check_model_name(args.model_name)
    check_leaderboard_dir(args.leaderboard)
    for option in ("revision", "dtype", "model_type"):
        value = getattr(args, option)
        if value is not None and (not value.strip() or len(value) > 128 or not value.isprintable()):
            raise InputError(f"expected 1 to 128 printable characters, got {value!r}", field="--" + option.replace("_", "-"))
    result = score_files(args.data, args.predictions, n_resamples=args.resamples)
    info = ModelInfo(revision=args.revision, dtype=args.dtype, model_type=args.model_type, params_billions=args.params)
    path = submit(result, args.model_name, args.leaderboard, info)
    print(f"submitted {args.model_name}: accuracy {result.report['accuracy']:.3f}; results in {path}")
    return 0
