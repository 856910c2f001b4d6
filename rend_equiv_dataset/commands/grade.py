"""``rend-equiv grade``: read free-text answers of any chart QA benchmark and mark them right or wrong."""

from __future__ import annotations

import argparse

HELP = (
    "grade model outputs against targets: lines {id?, output, target, answer_type: number|label, question?, labels?} "
    "in, one {id, answer, correct} per line out, in order; prints the accuracy"
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--in", dest="in_path", required=True, help="outputs JSONL (or .jsonl.gz) to grade")
    parser.add_argument("--out", required=True, help="verdicts JSONL to write (replaced atomically)")


def run(args: argparse.Namespace) -> int:
    import json
    import os
    import tempfile
    from pathlib import Path

    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.figures.answers.grade import grade, grade_rows

    verdicts = []
    for row in grade_rows(args.in_path):
        result = grade(row.output, row.target, row.answer_type, question=row.question, labels=row.labels)
        verdicts.append({"id": row.id, "answer": result.answer, "correct": result.correct})
    if not verdicts:
        raise InputError("no rows to grade", file=args.in_path)
    out = Path(args.out)
    if not out.parent.is_dir():
        raise InputError("the folder to write into does not exist", file=args.out, field="--out")
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=out.parent, prefix=f".{out.name}.", suffix=".tmp", delete=False)
    try:
        with handle:
            for verdict in verdicts:
                handle.write(json.dumps(verdict, ensure_ascii=False) + "\n")
        os.replace(handle.name, out)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise
    correct = sum(v["correct"] for v in verdicts)
    unread = sum(v["answer"] is None for v in verdicts)
    print(f"accuracy {correct / len(verdicts):.4f} ({correct}/{len(verdicts)} correct, {unread} unparseable); wrote {out}")
    return 0
