"""``rend-equiv grade``: read free-text answers of any chart QA benchmark and mark them right or wrong."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rend_equiv_dataset.figures.answers.extractor import Extractor
    from rend_equiv_dataset.figures.answers.grade import GradeRow

HELP = (
    "grade model outputs against targets: lines {id?, output, target, answer_type: number|label, question?, labels?} "
    "in, one {id, answer, correct, rule, confidence, evidence} per line out, in order; prints the accuracy and the "
    "share read with low confidence"
)
CHUNK = 64
"""Rows read, graded and written together (the extractor gets them as one batch); memory does not grow with the input."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--in", dest="in_path", required=True, help="outputs JSONL (or .jsonl.gz) to grade")
    parser.add_argument("--out", required=True, help="verdicts JSONL to write (replaced atomically)")
    parser.add_argument(
        "--extractor",
        default=None,
        metavar="SPEC",
        help="optional second reader: model:NAME (transformers), vllm:NAME, or openai:URL[#MODEL] "
        "(an OpenAI-compatible endpoint); asked with a fixed prompt where the rules read with low confidence",
    )
    parser.add_argument(
        "--extractor-on",
        choices=("low", "all"),
        default="low",
        help="which outputs the extractor reads: those read with low confidence (default) or all; "
        "its answer replaces the rules' only on low-confidence rows, both are logged",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


@dataclass
class _Tally:
    rows: int = 0
    correct: int = 0
    unread: int = 0
    low: int = 0
    extracted: int = 0
    agreed: int = 0
    rules: dict[str, int] = field(default_factory=dict)


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.figures.answers.grade import grade_rows
    from rend_equiv_dataset.io import check_output_file, write_jsonl

    out = check_output_file(args.out)
    extractor = None
    if args.extractor:
        from rend_equiv_dataset.figures.answers.extractor import load_extractor

        extractor = load_extractor(args.extractor)
    tally = _Tally()
    rows = _progress(grade_rows(args.in_path), disable=args.no_progress)
    write_jsonl(out, _verdicts(rows, tally, extractor, args.extractor_on, args.in_path))
    if not tally.rows:  # pragma: no cover - _verdicts raises before the file is kept
        raise InputError("no rows to grade", file=args.in_path)
    n = tally.rows
    line = (
        f"accuracy {tally.correct / n:.4f} ({tally.correct}/{n} correct, {tally.unread} unparseable); "
        f"low confidence {tally.low / n:.4f} ({tally.low}/{n})"
    )
    if extractor is not None:
        share = f"{tally.agreed / tally.extracted:.4f}" if tally.extracted else "n/a"
        line += f"; extractor read {tally.extracted}, agreed with the rules on {share}"
    print(f"{line}; wrote {out}")
    return 0


def _progress(rows: Iterator[GradeRow], *, disable: bool) -> Iterator[GradeRow]:
    if disable:
        return rows
    from tqdm.auto import tqdm

    return iter(tqdm(rows, desc="grading", unit="line", mininterval=1.0, leave=False, disable=None))  # None: off when not a terminal


def _verdicts(
    rows: Iterator[GradeRow], tally: _Tally, extractor: Extractor | None, extract_on: str, in_path: str
) -> Iterator[dict[str, Any]]:
    """One verdict per row, in order, a chunk at a time; raises InputError (file unwritten) on no rows."""
    from rend_equiv_dataset.errors import InputError

    chunk: list[GradeRow] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == CHUNK:
            yield from _grade_chunk(chunk, tally, extractor, extract_on)
            chunk = []
    if chunk:
        yield from _grade_chunk(chunk, tally, extractor, extract_on)
    if not tally.rows:
        raise InputError("no rows to grade", file=in_path)


def _grade_chunk(chunk: list[GradeRow], tally: _Tally, extractor: Extractor | None, extract_on: str) -> list[dict[str, Any]]:
    from rend_equiv_dataset.figures.answers.grade import compare, grade_reading, target_answer
    from rend_equiv_dataset.figures.answers.parse import LOW_CONFIDENCE

    graded = [
        grade_reading(row.output, row.target, row.answer_type, question=row.question, labels=row.labels) for row in chunk
    ]
    verdicts: list[dict[str, Any]] = []
    for row, (result, reading) in zip(chunk, graded):
        verdicts.append({
            "id": row.id,
            "answer": result.answer,
            "correct": result.correct,
            "rule": reading.rule,
            "confidence": reading.confidence,
            "evidence": reading.evidence,
        })
    if extractor is not None:
        from rend_equiv_dataset.figures.answers.extractor import extraction_prompt, is_none_reply
        from rend_equiv_dataset.figures.answers.parse import read_answer

        asked = [
            i for i, (row, (_, reading)) in enumerate(zip(chunk, graded))
            if row.output and (extract_on == "all" or reading.confidence < LOW_CONFIDENCE)
        ]
        prompts = [extraction_prompt(chunk[i].output or "", chunk[i].question, chunk[i].answer_type, chunk[i].labels) for i in asked]
        replies = extractor.extract(prompts) if prompts else []
        for i, reply in zip(asked, replies):
            row, (result, reading) = chunk[i], graded[i]
            labels = row.labels or ((row.target,) if row.answer_type == "label" else ())
            second = None if is_none_reply(reply) else read_answer(reply, row.answer_type, labels, row.question)
            reference = target_answer(row.target, row.answer_type, row.labels)
            second_grade = compare(second, reference, row.answer_type) if second is not None else None
            second_answer = second_grade.answer if second_grade is not None else None
            agree = second_answer == result.answer
            verdict = verdicts[i]
            verdict.update({"rule_answer": result.answer, "extractor_answer": second_answer, "extractor_reply": reply, "agree": agree})
            tally.extracted += 1
            tally.agreed += agree
            if reading.confidence < LOW_CONFIDENCE and reply is not None:
                verdict["answer"] = second_answer
                verdict["correct"] = bool(second_grade.correct) if second_grade is not None else False
                verdict["rule"] = "extractor"
    for verdict, (_, reading) in zip(verdicts, graded):
        tally.rows += 1
        tally.correct += bool(verdict["correct"])
        tally.unread += verdict["answer"] is None
        tally.low += reading.confidence < LOW_CONFIDENCE
        tally.rules[reading.rule] = tally.rules.get(reading.rule, 0) + 1
    return verdicts
