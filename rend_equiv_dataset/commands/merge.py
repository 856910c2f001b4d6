"""``rend-equiv merge``: join the shards of a release built with ``build --shard I/N`` (docs/design.md §3.4, §7.1)."""

from __future__ import annotations

import argparse

HELP = "merge the shards of a release (rend-equiv build --shard I/N) into one release folder"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shards", nargs="+", metavar="SHARD", help="shard folders, in any order, all N of them")
    parser.add_argument("--out", required=True, help="the release folder to write")
    parser.add_argument("--overwrite", action="store_true", help="replace a non-empty output folder")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset import io
    from rend_equiv_dataset.figures.release.shards import merge_shards

    io.check_output_dir(args.out, overwrite=args.overwrite)
    summary = merge_shards(args.shards, args.out, overwrite=args.overwrite, progress=not args.no_progress)
    counts = ", ".join(f"{name} {n}" for name, n in summary.rows.items())
    print(f"wrote {summary.folder} ({counts} rows) from {len(args.shards)} shards")
    return 0
