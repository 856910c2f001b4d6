"""``rend-equiv simulate``: write a predictions file from a simulated reader with planted errors."""

from __future__ import annotations

import argparse

from rend_equiv_dataset.commands import seed

HELP = "write predictions from a simulated reader with planted error classes (see scoring/simulate.py for SPEC)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, help="release folder (with the renderings config)")
    parser.add_argument(
        "--reader",
        required=True,
        help="reader SPEC, e.g. perfect, scale:1.5, affine:1.2,3, permute:swap, noise:0.2, 0.5*scale:2+0.5*perfect",
    )
    parser.add_argument("--seed", type=seed, default=0, help="seed of the reader's draws (default 0)")
    parser.add_argument("--out", required=True, help="predictions JSONL to write")


def run(args: argparse.Namespace) -> int:
    from itertools import chain

    from rend_equiv_dataset import __version__
    from rend_equiv_dataset.figures.scoring.predictions import write_predictions
    from rend_equiv_dataset.figures.scoring.simulate import parse_spec, simulated_records
    from rend_equiv_dataset.figures.scoring.stream import MAIN, MATCHED, JoinedRun
    from rend_equiv_dataset.io import check_output_file

    parse_spec(args.reader)
    check_output_file(args.out)
    with JoinedRun() as joined:  # the release on disk: the predictions are written as they are drawn, none kept
        joined.load_release(args.data)
        meta = {
            "model": f"simulated:{args.reader}",
            "backend": "simulated",
            "seed": args.seed,
            "dataset_fingerprint": joined.fingerprint(),
            "package_version": __version__,
        }
        parts = [
            simulated_records((i for i, _ in joined.instances(code, joined.instance_range(code))), args.reader, args.seed)
            for code in (MAIN, MATCHED)
        ]
        count = write_predictions(args.out, chain(*parts), meta)
    print(f"wrote {count} predictions to {args.out}")
    return 0
