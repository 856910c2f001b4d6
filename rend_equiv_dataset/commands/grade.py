"""``rend-equiv grade``: read free-text answers of any chart QA benchmark and mark them right or wrong."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from itertools import chain, islice
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

    def count(self, mark: tuple[bool, bool, bool, str]) -> None:
        """One verdict's (correct, unread, low confidence, rule)."""
        correct, unread, low, rule = mark
        self.rows += 1
        self.correct += correct
        self.unread += unread
        self.low += low
        self.rules[rule] = self.rules.get(rule, 0) + 1


def run(args: argparse.Namespace) -> int:
    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.io import check_output_file, write_jsonl, write_lines

    out = check_output_file(args.out)
    tally = _Tally()
    if args.extractor:
        from rend_equiv_dataset.figures.answers.extractor import load_extractor
        from rend_equiv_dataset.figures.answers.grade import grade_rows

        extractor = load_extractor(args.extractor)  # the model stays in this process: rows are read here, in order
        rows = _progress(grade_rows(args.in_path), disable=args.no_progress)
        write_jsonl(out, _verdicts(rows, tally, extractor, args.extractor_on, str(args.in_path)))
    else:
        from rend_equiv_dataset.io import jsonl_lines

        extractor = None
        workers = default_workers() if args.workers is None else args.workers
        lines = _progress(jsonl_lines(args.in_path), disable=args.no_progress)
        write_lines(out, _verdict_lines(lines, str(args.in_path), tally, workers))
    if not tally.rows:  # pragma: no cover - the writers raise it before the file is kept
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


def _progress(rows: Iterator[Any], *, disable: bool) -> Iterator[Any]:
    if disable:
        return rows
    from tqdm.auto import tqdm

    return iter(tqdm(rows, desc="grading", unit="line", mininterval=1.0, leave=False, disable=None))  # None: off when not a terminal


def _verdict(row: GradeRow, result: Grade, reading: Reading) -> dict[str, Any]:
    """The verdict line of one row (the extractor adds its fields to it)."""
    return {
        "id": row.id,
        "answer": result.answer,
        "correct": result.correct,
        "rule": reading.rule,
        "confidence": reading.confidence,
        "evidence": reading.evidence,
    }


def _mark(verdict: dict[str, Any], reading: Reading) -> tuple[bool, bool, bool, str]:
    from rend_equiv_dataset.figures.answers.parse import LOW_CONFIDENCE

    return bool(verdict["correct"]), verdict["answer"] is None, reading.confidence < LOW_CONFIDENCE, reading.rule


def _chunks(items: Iterator[Any], size: int) -> Iterator[list[Any]]:
    rest = iter(items)
    return iter(lambda: list(islice(rest, size)), [])


def _grade_lines(file: str, lines: list[tuple[int, str]]) -> tuple[str, list[tuple[bool, bool, bool, str]]]:
    """Parse, check, read and write one chunk of input lines (in a worker process, or in this one):
    (the chunk's verdict lines, each row's mark for the tally); a bad line raises InputError naming it."""
    from rend_equiv_dataset.figures.answers.grade import check_row, grade_reading
    from rend_equiv_dataset.io import json_object, jsonl_line

    written: list[str] = []
    marks = []
    for number, text in lines:
        row = check_row(json_object(text, file=file, line=number), file, number)
        result, reading = grade_reading(row.output, row.target, row.answer_type, question=row.question, labels=row.labels)
        verdict = _verdict(row, result, reading)
        written.append(jsonl_line(verdict))
        marks.append(_mark(verdict, reading))
    return "".join(written), marks


def _verdict_lines(lines: Iterator[tuple[int, str]], file: str, tally: _Tally, workers: int) -> Iterator[str]:
    """The verdict lines of every input line, in input order, a chunk at a time, counted into ``tally``; raises
    InputError (file unwritten) on no rows."""
    from rend_equiv_dataset.errors import InputError

    for text, marks in _graded_chunks(lines, file, workers):
        for mark in marks:
            tally.count(mark)
        yield text
    if not tally.rows:
        raise InputError("no rows to grade", file=file)


def _graded_chunks(lines: Iterator[tuple[int, str]], file: str, workers: int) -> Iterator[tuple[str, list[tuple[bool, bool, bool, str]]]]:
    """:func:`_grade_lines` of each chunk, in input order. With ``workers`` > 1 (and a fork start) a pool of processes
    reads the chunks, at most two per worker in flight so that memory stays flat; it starts only once the input
    fills two chunks."""
    import multiprocessing
    from collections import deque

    chunks = _chunks(lines, PARALLEL_CHUNK if workers > 1 else CHUNK)
    head = list(islice(chunks, 2))
    if workers == 1 or len(head) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        yield from (_grade_lines(file, chunk) for chunk in chain(head, chunks))
        return
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        pending: deque = deque()
        for chunk in chain(head, chunks):
            pending.append(pool.apply_async(_grade_lines, (file, chunk)))
            while len(pending) >= 2 * workers or (pending and pending[0].ready()):
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def _verdicts(
    rows: Iterator[GradeRow], tally: _Tally, extractor: Extractor, extract_on: str, file: str
) -> Iterator[dict[str, Any]]:
    """With a second reader: one verdict per row, in order, a chunk at a time (the extractor gets each chunk as one
    batch); raises InputError (file unwritten) on no rows."""
    from rend_equiv_dataset.errors import InputError
    from rend_equiv_dataset.figures.answers.grade import grade_reading

    for chunk in _chunks(rows, CHUNK):
        graded = [grade_reading(row.output, row.target, row.answer_type, question=row.question, labels=row.labels) for row in chunk]
        yield from _chunk_verdicts(chunk, graded, tally, extractor, extract_on)
    if not tally.rows:
        raise InputError("no rows to grade", file=file)


def _chunk_verdicts(
    chunk: list[GradeRow], graded: list[tuple[Grade, Reading]], tally: _Tally, extractor: Extractor, extract_on: str
) -> list[dict[str, Any]]:
    from rend_equiv_dataset.figures.answers.extractor import extraction_prompt, is_none_reply
    from rend_equiv_dataset.figures.answers.grade import compare, target_answer
    from rend_equiv_dataset.figures.answers.parse import LOW_CONFIDENCE, read_answer

    verdicts = [_verdict(row, result, reading) for row, (result, reading) in zip(chunk, graded)]
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
        tally.count(_mark(verdict, reading))
    return verdicts
