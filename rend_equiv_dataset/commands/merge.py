"""``rend-equiv merge``: join what sharded runs wrote (docs/design.md §7.1).

- release shards (``rend-equiv build --shard I/N``) into one release folder,
  byte-identical to a single build;
- with ``--candidates``: ``panel exec --shard I/N`` results files into one
  results file in candidate order.
"""

from __future__ import annotations

import argparse

HELP = "merge the shards of a release (build --shard I/N) or of panel exec results (--candidates) into one"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shards", nargs="+", metavar="SHARD",
                        help="shard folders of one release, or with --candidates results files, all N in any order")
    parser.add_argument("--out", required=True, help="the release folder (or with --candidates the results file) to write")
    parser.add_argument("--candidates", default=None, metavar="CANDS.jsonl",
                        help="merge panel exec results: the candidates file the shards executed")
    parser.add_argument("--overwrite", action="store_true", help="replace a non-empty output folder")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset import io

    if args.candidates is not None:
        from rend_equiv_dataset.panels.candidates.read import load_candidates
        from rend_equiv_dataset.panels.exec_merge import merge_results

        out = io.check_output_file(args.out)
        rows = merge_results(load_candidates(args.candidates), args.shards, out)
        print(f"wrote {rows} results in candidate order from {len(args.shards)} files -> {out}")
        return 0
    from rend_equiv_dataset.figures.release.shards import merge_shards

    io.check_output_dir(args.out, overwrite=args.overwrite)
    summary = merge_shards(args.shards, args.out, overwrite=args.overwrite, progress=not args.no_progress)
    counts = ", ".join(f"{name} {n}" for name, n in summary.rows.items())
    print(f"wrote {summary.folder} ({counts} rows) from {len(args.shards)} shards")
    return 0
