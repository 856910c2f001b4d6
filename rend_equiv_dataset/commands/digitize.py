"""``rend-equiv digitize``: a model transcribes chart images into tables for ``build --from-tables``.

Real figures come without their data (paper §6 "Transfer to real figures",
Appendix D). The model is asked for each chart's table in the format of
:data:`rend_equiv_dataset.figures.tables.digitized.DIGITIZE_PROMPT`; each answer is
parsed strictly, and every failure is kept and counted by reason in
``TABLES/_digitize/report.json`` with the raw output. A killed run resumes:
answers are appended as they come (beside ``TABLES``) and the table folder is
written atomically at the end.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rend_equiv_dataset.commands import add_model_options, model_args

HELP = "transcribe chart images into tables with a model (for build --from-tables), counting failures by reason"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--images", type=Path, required=True, help="folder of chart images (.png, .jpg, .webp)")
    add_model_options(parser, max_new_tokens=512, batch_size=4,
                      model_help="model folder or Hub id (disjoint from the models you evaluate)")
    parser.add_argument("--retry-errors", action="store_true", help="ask again for images whose request failed")
    parser.add_argument("--overwrite", action="store_true", help="replace a non-empty output folder")
    parser.add_argument("--out", type=Path, required=True, help="folder of tables to write")


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.commands import require_harness

    require_harness()
    from rend_equiv_dataset.harness.resumable import check_model_argument
    from rend_equiv_dataset.figures.tables.digitized import DigitizeRun, run_digitize

    check_model_argument(args.model, args.revision)
    report = run_digitize(DigitizeRun(
        images=args.images, model=args.model, out=args.out, backend=args.backend, revision=args.revision,
        max_new_tokens=args.max_new_tokens, batch_size=args.batch_size, retry_errors=args.retry_errors,
        overwrite=args.overwrite, backend_options=tuple(sorted(model_args(args.model_arg).items())),
    ))
    failures = ", ".join(f"{n} {reason}" for reason, n in report.failures.items() if n) or "none"
    print(f"digitized {report.n_ok}/{report.n} charts ({report.success_rate:.1%}); failures: {failures}; "
          f"tables in {args.out}, report in {args.out}/_digitize/report.json")
    if report.failures["model_error"] or report.failures["image_error"]:
        print("some requests failed; rerun with --retry-errors --overwrite to ask again for those only")
    return 0
