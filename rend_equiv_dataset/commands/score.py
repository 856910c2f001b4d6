"""``rend-equiv score``: score a predictions file and write a report folder (docs/design.md §7.1, §7.4)."""

from __future__ import annotations

import argparse

from rend_equiv_dataset.commands import non_negative, seed

HELP = "score a predictions file against a release: ECS, REA, IBEM, the paper's tables and plots"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, help="release folder (with the renderings config)")
    parser.add_argument("--predictions", required=True, help="predictions JSONL (docs/design.md §7.3)")
    parser.add_argument("--threshold", type=float, default=0.5, help="ECS flag threshold in (0, 1] (default 0.5)")
    parser.add_argument("--out", required=True, help="report folder to write (replaced if it is a report folder)")
    parser.add_argument("--resamples", type=non_negative, default=10_000, help="bootstrap resamples; 0 reports no intervals (default 10000)")
    parser.add_argument("--seed", type=seed, default=0, help="bootstrap seed (default 0)")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.figures.scoring.pipeline import check_threshold, score_files
    from rend_equiv_dataset.figures.scoring.report import check_report_dir, write_report

    check_threshold(args.threshold)
    check_report_dir(args.out)
    result = score_files(args.data, args.predictions, threshold=args.threshold, n_resamples=args.resamples, seed=args.seed)
    out = write_report(result, args.out)
    report = result.report
    print(
        f"accuracy {report['accuracy']:.3f}; IBEM n={report['ibem']['n']}; "
        f"ECS detection on IBEM at the threshold {report['ibem']['at_threshold']['ecs'] if report['ibem']['n'] else float('nan'):.3f}; report in {out}"
    )
    return 0
