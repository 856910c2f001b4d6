"""``rend-equiv panel score``: score panel records into report.json, report.md and plots (docs/design.md §7.1, §7.6)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.commands import non_negative, positive, seed

HELP = "score panel records: pivotal-stratified gain, gating, effective votes, the paper's tables"


def _coverage(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number in (0, 1], got {text!r}") from None
    if not math.isfinite(value) or not 0.0 < value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be in (0, 1] (a fraction: 0.2 is 20%), got {text}")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--records", required=True, help="records JSONL (full or short form) or a released panel folder")
    parser.add_argument("--coverage", type=_coverage, default=None,
                        help="test coverage of the signal, a fraction in (0, 1] (full-form records; default 0.2)")
    parser.add_argument("--out", required=True, help="report folder (report.json, report.md, plots)")
    parser.add_argument("--seed", type=seed, default=0, help="seed of the bootstrap and the permutation control")
    parser.add_argument("--resamples", type=non_negative, default=10_000, help="bootstrap resamples; 0 reports no intervals (default 10,000)")
    parser.add_argument("--permutations", type=positive, default=2_000, help="synthetic signals in the permutation control")
    parser.add_argument("--overwrite", action="store_true", help="replace a non-empty report folder")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.io import atomic_dir, check_output_dir
    from rend_equiv_dataset.panels.records import load_panel_records
    from rend_equiv_dataset.panels.metrics.coverage import DEFAULT_COVERAGE
    from rend_equiv_dataset.panels.metrics.render import draw_figures, render_markdown
    from rend_equiv_dataset.panels.metrics.panel_report import build_report
    from rend_equiv_dataset.reports import json_ready
    from rend_equiv_dataset.panels.metrics.source import panel_from_records

    check_output_dir(args.out, overwrite=args.overwrite)
    records = load_panel_records(args.records)
    if records.form == "short" and args.coverage is not None:
        raise InputError("short-form records carry their signal; --coverage applies to full-form records only", field="--coverage")
    coverage = (args.coverage if args.coverage is not None else DEFAULT_COVERAGE) if records.form == "full" else None
    data = panel_from_records(records, coverage)
    excluded = records.n - data.n
    if excluded:
        print(f"rend-equiv: note: {excluded} infra_error record(s) left out of scoring", file=sys.stderr)
    provenance = {"records": records.source, "records_sha256": records.fingerprint, "form": records.form,
                  "judge_source": records.judge_source, "status_counts": records.status_counts(),
                  "excluded_infra_error": excluded, "records_meta": records.meta}
    report = json_ready(build_report(data, coverage=coverage, n_resamples=args.resamples,
                                     n_permutations=args.permutations, seed=args.seed, provenance=provenance))
    with atomic_dir(args.out, overwrite=args.overwrite) as staging:
        folder = Path(staging)
        (folder / "report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        (folder / "report.md").write_text(render_markdown(report), encoding="utf-8")
        draw_figures(report, folder)
    print(f"panel report written to {args.out} (k={report['k']}, n={report['n']}, "
          f"pivotal gain {report['pivotal']['gain']}, call rate {report['call_rate']:.3f})")
    return 0
