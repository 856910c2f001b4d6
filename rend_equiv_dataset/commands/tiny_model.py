"""``rend-equiv tiny-model``: a tiny random VLM (or text model) built offline into a folder."""

from __future__ import annotations

import argparse
from pathlib import Path

from rend_equiv_dataset.commands import seed

HELP = "build a tiny randomly initialised model offline (for tests and trying the harness)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, required=True, help="folder to write the model into")
    parser.add_argument("--kind", choices=["vlm", "text"], default="vlm", help="vision-language or text-only")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the random weights")
    parser.add_argument(
        "--shape", choices=["tiny", "7b"], default="tiny", help="7b: LLaVA-1.5-7B-sized, for GPU speed checks"
    )
    parser.add_argument("--device", default="cpu", help="where to initialise the weights (cuda for --shape 7b)")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.commands import require_harness

    require_harness()
    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.harness.tiny import build_tiny_model

    if args.out.exists() and (not args.out.is_dir() or any(args.out.iterdir())):
        raise InputError("exists and is not empty", file=args.out, field="--out")
    build_tiny_model(args.out, kind=args.kind, seed=args.seed, shape=args.shape, device=args.device)
    print(f"random {args.shape} {args.kind} model written to {args.out}")
    return 0
