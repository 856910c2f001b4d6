"""``rend-equiv run``: a model over the ``renderings`` config into a predictions file.

Several processes (transformers backend)::

    accelerate launch --multi_gpu --num_processes N -m rend_equiv_dataset run ...

(on a machine without GPUs this runs N CPU processes). With vLLM, one process
per GPU: ``CUDA_VISIBLE_DEVICES=i rend-equiv run ... --shard i/N``, then the
same command without ``--shard`` merges. Rerunning a killed run resumes it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rend_equiv_dataset.commands import add_model_options, model_args, non_negative, non_negative_float, positive, seed

HELP = "run a model (transformers or vLLM) over the renderings config into a predictions file"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, required=True, help="release folder with a renderings config")
    add_model_options(parser, max_new_tokens=32)
    parser.add_argument("--samples", type=non_negative, default=0, help="K samples per rendering (paper: 8)")
    parser.add_argument("--temperature", type=non_negative_float, default=0.7, help="sampling temperature (paper: 0.7)")
    parser.add_argument("--logprobs", action="store_true", help="record the greedy answer's token log-probability")
    parser.add_argument("--perturb", action="store_true", help="also answer the reworded questions")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the samples")
    parser.add_argument("--limit", type=positive, default=None, help="only the first N renderings")
    parser.add_argument("--retry-errors", action="store_true", help="try failed renderings again")
    parser.add_argument("--shard", default=None, help="I/N: this independent process answers shard I of N")
    parser.add_argument("--out", type=Path, required=True, help="predictions JSONL (docs/design.md §7.3)")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.commands import require_harness

    require_harness()
    from rend_equiv_dataset.harness.figure_run import FigureRun, run_figures
    from rend_equiv_dataset.harness.sharding import parse_shard
    from rend_equiv_dataset.harness.types import GenerationSettings

    settings = GenerationSettings(
        max_new_tokens=args.max_new_tokens,
        samples=args.samples,
        temperature=args.temperature if args.samples else 0.0,  # greedy only: T plays no part
        logprobs=args.logprobs,
        seed=args.seed,
    )
    options = tuple(sorted(model_args(args.model_arg).items()))
    return run_figures(
        FigureRun(
            data=args.data,
            model=args.model,
            out=args.out,
            backend=args.backend,
            revision=args.revision,
            settings=settings,
            perturb=args.perturb,
            limit=args.limit,
            batch_size=args.batch_size,
            retry_errors=args.retry_errors,
            shard=None if args.shard is None else parse_shard(args.shard),
            backend_options=options,
        )
    )
