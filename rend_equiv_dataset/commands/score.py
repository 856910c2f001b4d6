"""``rend-equiv score``: score a predictions file and write a report folder (docs/design.md §7.1, §7.4).

Three forms: the whole run (``--data --predictions --out REPORT``); one shard
of it (``--shard I/N``, ``--out`` then names a part folder); and the merge of
every shard's part folder into the report (``--merge PART... --out REPORT``),
equal to the unsharded report.
"""

from __future__ import annotations

import argparse

from rend_equiv_dataset.commands import non_negative, seed

HELP = "score a predictions file against a release: ECS, REA, IBEM, the paper's tables and plots"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", help="release folder (with the renderings config)")
    parser.add_argument("--predictions", help="predictions JSONL (docs/design.md §7.3)")
    parser.add_argument("--threshold", type=float, default=0.5, help="ECS flag threshold in (0, 1] (default 0.5)")
    parser.add_argument("--out", required=True,
                        help="report folder to write (replaced if it is a report folder); with --shard, the part folder")
    parser.add_argument("--resamples", type=non_negative, default=10_000, help="bootstrap resamples; 0 reports no intervals (default 10000)")
    parser.add_argument("--seed", type=seed, default=0, help="bootstrap seed (default 0)")
    parser.add_argument("--shard", default=None,
                        help="I/N: score only shard I of N (contiguous slices of the sorted instance ids) into a part folder")
    parser.add_argument("--merge", nargs="+", metavar="PART", default=None,
                        help="merge the part folders of shards 0..N-1 into one report (settings come from the parts)")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.figures.scoring.pipeline import check_threshold

    if args.merge is not None:
        if args.data or args.predictions or args.shard:
            raise InputError("--merge takes part folders only; --data, --predictions and --shard belong to the shards",
                             field="--merge")
        from rend_equiv_dataset.figures.scoring.parts import merge_parts

        _summary(merge_parts(args.merge, args.out).report, args.out)
        return 0
    for option, value in (("--data", args.data), ("--predictions", args.predictions)):
        if not value:
            raise InputError("required unless --merge is given", field=option)
    check_threshold(args.threshold)
    settings = {"threshold": args.threshold, "n_resamples": args.resamples, "seed": args.seed}
    if args.shard is not None:
        from rend_equiv_dataset.figures.scoring.parts import write_part
        from rend_equiv_dataset.harness.sharding import parse_shard

        shard = parse_shard(args.shard)
        part = write_part(args.data, args.predictions, args.out, shard, **settings)
        print(f"scored shard {shard[0]}/{shard[1]}: {len(part.columns)} instances; part in {args.out}")
        return 0
    from rend_equiv_dataset.figures.scoring.report import score_to_report

    _summary(score_to_report(args.data, args.predictions, args.out, **settings).report, args.out)
    return 0


def _summary(report: dict, out: str) -> None:
    detection = report["ibem"]["at_threshold"]["ecs"] if report["ibem"]["n"] else None
    print(
        f"accuracy {report['accuracy']:.3f}; IBEM n={report['ibem']['n']}; "
        f"ECS detection on IBEM at the threshold {detection if detection is not None else float('nan'):.3f}; report in {out}"
    )
