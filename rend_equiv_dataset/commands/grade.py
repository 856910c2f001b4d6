"""``rend-equiv grade``: read free-text answers of any chart QA benchmark and mark them right or wrong."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rend_equiv_dataset.commands import default_workers, positive

if TYPE_CHECKING:
    from rend_equiv_dataset.figures.answers.extractor import Extractor
    from rend_equiv_dataset.figures.answers.grade import Grade, GradeRow
    from rend_equiv_dataset.figures.answers.parse import Reading

HELP = (
    "grade model outputs against targets: lines {id?, output, target, answer_type: number|label, question?, labels?} "
    "in, one {id, answer, correct, rule, confidence, evidence} per line out, in order; prints the accuracy and the "
    "share read with low confidence"
)
CHUNK = 64
"""Rows read, graded and written together (the extractor gets them as one batch); memory does not grow with the input."""
PARALLEL_CHUNK = 1024
"""Rows a worker process reads at a time when ``--workers`` is above 1 (at most two per worker are in flight)."""


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
    parser.add_argument("--workers", type=positive, default=None,
                        help="processes reading the outputs (default: one per core); verdicts are the same, in the same order")
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
    workers = default_workers() if args.workers is None else args.workers
    if extractor is not None:  # the model stays in this process, and is not forked
        workers = 1
    write_jsonl(out, _verdicts(rows, tally, extractor, args.extractor_on, args.in_path, workers))
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
    rows: Iterator[GradeRow], tally: _Tally, extractor: Extractor | None, extract_on: str, in_path: str, workers: int = 1
) -> Iterator[dict[str, Any]]:
    """One verdict per row, in order, a chunk at a time; raises InputError (file unwritten) on no rows."""
    from rend_equiv_dataset.errors import InputError

    for chunk, graded in _graded_chunks(rows, workers):
        yield from _chunk_verdicts(chunk, graded, tally, extractor, extract_on)
    if not tally.rows:
        raise InputError("no rows to grade", file=in_path)


def _chunks(rows: Iterator[GradeRow], size: int) -> Iterator[list[GradeRow]]:
    chunk: list[GradeRow] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _read_chunk(chunk: list[GradeRow]) -> list[tuple[Grade, Reading]]:
    """The rules' reading of each row of a chunk (in a worker process, or in this one)."""
    from rend_equiv_dataset.figures.answers.grade import grade_reading

    return [grade_reading(row.output, row.target, row.answer_type, question=row.question, labels=row.labels) for row in chunk]


def _graded_chunks(rows: Iterator[GradeRow], workers: int) -> Iterator[tuple[list[GradeRow], list[tuple[Grade, Reading]]]]:
    """(chunk, its readings) in input order; with ``workers`` > 1 and a fork start, read by a pool of processes,
    at most two chunks per worker in flight (memory stays flat), started only once the input fills two chunks."""
    import multiprocessing

    chunks = _chunks(rows, PARALLEL_CHUNK if workers > 1 else CHUNK)
    head = [chunk for _, chunk in zip(range(2), chunks)]
    if workers == 1 or len(head) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for chunk in (*head, *chunks):
            yield chunk, _read_chunk(chunk)
        return
    from collections import deque
    from itertools import chain

    with multiprocessing.get_context("fork").Pool(workers) as pool:
        pending: deque = deque()
        for chunk in chain(head, chunks):
            pending.append((chunk, pool.apply_async(_read_chunk, (chunk,))))
            if len(pending) >= 2 * workers:
                done, result = pending.popleft()
                yield done, result.get()
        while pending:
            done, result = pending.popleft()
            yield done, result.get()


def _chunk_verdicts(
    chunk: list[GradeRow], graded: list[tuple[Grade, Reading]], tally: _Tally, extractor: Extractor | None, extract_on: str
) -> list[dict[str, Any]]:
    from rend_equiv_dataset.figures.answers.grade import compare, target_answer
    from rend_equiv_dataset.figures.answers.parse import LOW_CONFIDENCE

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
