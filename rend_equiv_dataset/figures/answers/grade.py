"""Grading free-text outputs against targets: the rule behind ``rend-equiv grade`` and ``metrics/relaxed_accuracy``.

One output is read by :func:`~rend_equiv_dataset.figures.answers.parse.parse_answer`
and compared by :func:`~rend_equiv_dataset.figures.answers.relaxed.is_correct`
(within 5% relative for numbers, the same label otherwise). The answer is
reported as its canonical string (``format_number`` for numbers, the label
as given), or ``None`` when nothing could be read.

Targets from other benchmarks are accepted as written there: a number target
may carry separators, a unit or ``%`` (``"1,200"``, ``"45%"``); a label
target is matched to ``labels`` case- and space-insensitively. Without
``labels``, the target is the only label the output can be matched to.

>>> grade("The answer is **1,204**.", "1200", "number")
Grade(answer='1204', correct=True)
>>> grade("Japan or France", "Japan", "label", labels=["Japan", "France"])
Grade(answer=None, correct=False)
>>> grade("It is 45 %", "45%", "number")
Grade(answer='45', correct=True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.answers.labels import normalize_label
from rend_equiv_dataset.figures.answers.parse import ParsedAnswer, Reading, parse_answer, read_answer
from rend_equiv_dataset.figures.answers.relaxed import within
from rend_equiv_dataset.figures.charts.canonical import format_number

ANSWER_TYPES = ("number", "label")


class Grade(NamedTuple):
    """The canonical answer read from an output (``None``: unparseable) and whether it is correct."""

    answer: str | None
    correct: bool


YES_NO = frozenset({"yes", "no"})
"""Targets of a yes/no question (normalised)."""


def target_answer(target: str, answer_type: str, labels: Sequence[str] = ()) -> float | str | None:
    """A target as a number or label; ``None`` if a number target holds no number.

    >>> target_answer("1,200", "number"), target_answer("45%", "number"), target_answer("japan", "label", ["Japan"])
    (1200.0, 45.0, 'Japan')
    """
    if answer_type == "number":
        try:
            return float(target)
        except ValueError:
            parsed = parse_answer(target, "number")
            return parsed if isinstance(parsed, float) else None
    key = normalize_label(target)
    return next((label for label in labels if normalize_label(label) == key), target)


def grade(
    output: str | None,
    target: str,
    answer_type: str,
    *,
    question: str | None = None,
    labels: Sequence[str] = (),
) -> Grade:
    """Read ``output`` and compare it with ``target`` (see the module docstring)."""
    return grade_reading(output, target, answer_type, question=question, labels=labels)[0]


def grade_reading(
    output: str | None,
    target: str,
    answer_type: str,
    *,
    question: str | None = None,
    labels: Sequence[str] = (),
) -> tuple[Grade, Reading]:
    """:func:`grade` with the :class:`~rend_equiv_dataset.figures.answers.parse.Reading` behind it (rule, confidence, evidence).

    A number with a scale word, under a question that names no unit, is also
    correct as written ("365.82 billion" for 365.82).

    >>> grade_reading("Revenue reached 365.82 billion dollars.", "365.82", "number")[0]
    Grade(answer='365820000000', correct=True)
    """
    if answer_type not in ANSWER_TYPES:
        raise InputError(f"must be one of {list(ANSWER_TYPES)}, got {answer_type!r}", field="answer_type")
    labels = tuple(labels)
    if answer_type == "label" and normalize_label(target) in YES_NO and not any(normalize_label(label) in YES_NO for label in labels):
        labels = ("Yes", "No")  # a yes/no question over a chart's categories: the answer is one of yes and no
    reference = target_answer(target, answer_type, labels)
    if answer_type == "label" and not labels:
        labels = (target,)
    reading = read_answer(output, answer_type, labels, question)
    return compare(reading, reference, answer_type), reading


def compare(reading: Reading, reference: float | str | None, answer_type: str) -> Grade:
    """The :class:`Grade` of one reading against a reference already read by :func:`target_answer`."""
    parsed = reading.value
    if parsed is None:
        return Grade(None, False)
    answer = format_number(float(parsed)) if answer_type == "number" else str(parsed)
    if reference is None:
        return Grade(answer, False)
    spread = reading.spread if answer_type == "number" else 0.0
    correct = _within_range(parsed, spread, reference, answer_type)
    if not correct and answer_type == "number":
        correct = any(_within_range(value, spread * value / parsed if isinstance(parsed, float) and parsed else 0.0, reference, answer_type)
                      for value in reading.also)
    return Grade(answer, correct)


def _within_range(value: ParsedAnswer, spread: float, reference: float | str, answer_type: str) -> bool:
    """A value within the tolerance of the reference; a narrow range (``spread``, half its width) only when both ends are."""
    if not spread or not isinstance(value, float):
        return within(value, reference, answer_type)
    return within(value - spread, reference, answer_type) and within(value + spread, reference, answer_type) and within(float(value) + spread, reference, answer_type)


@dataclass(frozen=True)
class GradeRow:
    """One line of a ``grade`` input file, checked."""

    id: Any
    output: str | None
    target: str
    answer_type: str
    question: str | None
    labels: tuple[str, ...]


_FIELDS = frozenset({"id", "output", "target", "answer_type", "question", "labels"})


def grade_rows(path: str | Path) -> Iterator[GradeRow]:
    """The rows of a ``grade`` input file; a bad line raises :class:`InputError` naming the file, line and field.

    Each line is ``{"id"?, "output", "target", "answer_type", "question"?, "labels"?}``;
    ``id`` defaults to the line number, ``output`` may be ``null`` (no answer),
    a number ``target`` may be a JSON number, other fields are ignored.
    """
    from rend_equiv_dataset.io import jsonl_rows

    for line, row in jsonl_rows(path):
        yield check_row(row, str(path), line)


def check_row(row: dict[str, Any], file: str, line: int) -> GradeRow:
    """One parsed line of a ``grade`` input file, checked (see :func:`grade_rows`); ``file`` and ``line`` name it in errors."""
    def bad(field: str, message: str) -> InputError:
        return InputError(message, file=file, line=line, field=field)

    for field in ("output", "target", "answer_type"):
        if field not in row:
            raise bad(field, "missing")
    answer_type = row["answer_type"]
    if answer_type not in ANSWER_TYPES:
        raise bad("answer_type", f"must be one of {list(ANSWER_TYPES)}, got {answer_type!r}")
    output = row["output"]
    if output is not None and not isinstance(output, str):
        raise bad("output", f"expected a string or null, got {type(output).__name__}")
    target = row["target"]
    if answer_type == "number" and isinstance(target, (int, float)) and not isinstance(target, bool):
        target = repr(float(target))
    if not isinstance(target, str) or not target.strip():
        raise bad("target", f"expected a non-empty string, got {target!r}")
    if answer_type == "number" and target_answer(target, "number") is None:
        raise bad("target", f"a number target must hold a number, got {target!r}")
    question = row.get("question")
    if question is not None and not isinstance(question, str):
        raise bad("question", f"expected a string or null, got {type(question).__name__}")
    labels = row.get("labels")
    if labels is None:
        labels = []
    if not isinstance(labels, list) or not all(isinstance(label, str) for label in labels):
        raise bad("labels", "expected a list of strings or null")
    identifier = row.get("id", line)
    if identifier is None:
        identifier = line
    if not isinstance(identifier, (str, int)) or isinstance(identifier, bool):
        raise bad("id", f"expected a string or integer, got {type(identifier).__name__}")
    return GradeRow(identifier, output, target, answer_type, question, tuple(labels))
