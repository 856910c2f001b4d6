"""User questions about imported tables: recognising them as templates and checking their answers.

A question a user brings with a table (DESIGN §3; paper §6 "Transfer to real
figures") is kept only when its answer can be recomputed from the table and
agrees with the given one — numbers within :data:`ANSWER_RTOL` relative
(ChartQA's relaxed accuracy), labels after case and space folding. The kept
question's target is the *recomputed* exact answer; every other question gets
a :class:`QuestionStatus` and a reason, and is reported, never silently fixed.

Recognising a free-text question means matching it to one of the package's
templates (:mod:`rend_equiv_dataset.figures.questions`), in two documented
tiers (:func:`recognise`):

1. the exact text a template produces for this chart (case, spaces and a
   final ``?`` folded), over every series and named category;
2. the explicit patterns of :data:`PATTERNS`, where ``{a}``/``{b}`` match
   only the table's category labels and ``{ser}`` only its series names.
   A "difference between A and B" is read as larger minus smaller.

Several different readings make a question ``ambiguous``; none makes it
``unrecognised``; a question type the chart's family does not ask (a value
question on a pie) is ``not_applicable``, and so is a label question whose
answer is a tie, or a number question whose exact answer is 0 (no scale edit
moves it).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from rend_equiv_dataset.figures.charts.canonical import format_answer
from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.figures.questions import QUESTION_TYPES, Question, answer, question_text
from rend_equiv_dataset.figures.tables.grid import parse_number
from rend_equiv_dataset.figures.tables.read import GivenQuestion

ANSWER_RTOL = 0.05
"""Relative tolerance between a given numeric answer and the recomputed one (ChartQA relaxed accuracy)."""

# Free-text patterns, per question type (tier 2 of :func:`recognise`). Matched against the
# question lower-cased, spaces collapsed, final "?" or "." removed. {a}, {b}: a category label;
# {ser}: a series name; (?P<q>...): the quantity, used to pick a series when it names one.
_SER = r"(?: (?:in|for) the {ser} series)?"
PATTERNS: dict[str, tuple[str, ...]] = {
    "value": (
        r"what (?:is|was|are|were) the (?P<q>.+?) (?:of|for|in) {a}" + _SER,
        r"what (?:is|was|are|were) {a}'s (?P<q>.+?)" + _SER,
        r"how (?:much|many) (?P<q>.+?) (?:did|does|do|had|has|have|was|were|in|for) {a}(?: have| had| get| got)?" + _SER,
    ),
    "difference": (
        r"what (?:is|was) the difference (?:in (?:the )?(?P<q>.+?) )?between {a} and {b}" + _SER,
        r"by how much (?:does|did|is|was) (?:the value of )?(?:(?P<q>.+?) (?:for|of|in) )?{a} exceed (?:that (?:for|of|in) )?{b}" + _SER,
    ),
    "sum": (
        r"what (?:is|was) the (?:total|sum)(?: of)?(?: the| all)?(?: (?P<q>.+?))?(?: (?:across|of|for|over) all (?:the )?\w+)?" + _SER,
    ),
    "argmax": (
        r"which (?:\w+ )?(?:\w+ )?(?:has|had|have|shows|showed|recorded|is|was) the (?:highest|largest|greatest|biggest|maximum|most)(?: (?P<q>.+?))?" + _SER,
    ),
    "argmin": (
        r"which (?:\w+ )?(?:\w+ )?(?:has|had|have|shows|showed|recorded|is|was) the (?:lowest|smallest|least|minimum|fewest)(?: (?P<q>.+?))?" + _SER,
    ),
    "compare": (
        r"which (?:has|had|is|was|shows) (?:the )?(?:higher|larger|greater|bigger|more)(?: (?P<q>.+?))?" + _SER + r"[,:]? {a} or {b}",
    ),
    "share": (
        r"what (?:percentage|share|proportion|percent) of the total(?: (?P<q>.+?))? (?:does|did) {a} (?:account for|represent|make up)",
        r"what (?:is|was) the (?:percentage|share|proportion)(?: of (?P<q>.+?))? (?:of|for) {a}",
    ),
}


class QuestionStatus(str, Enum):
    """What happened to a user-given question."""

    KEPT = "kept"
    DISAGREES = "disagrees"
    UNRECOGNISED = "unrecognised"
    AMBIGUOUS = "ambiguous"
    NOT_APPLICABLE = "not_applicable"
    BAD_ANSWER = "bad_answer"
    NOT_BUILT = "not_built"


@dataclass(frozen=True)
class QuestionReport:
    """The fate of one user question, with where it came from and why."""

    table_id: str
    file: str
    line: int
    question: str
    given: str
    status: QuestionStatus
    detail: str = ""
    recomputed: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "file": self.file, "line": self.line, "question": self.question,
                "given": self.given, "status": self.status.value, "detail": self.detail,
                "recomputed": self.recomputed}


# --------------------------------------------------------------------------- wording


def with_question_words(chart: ChartData) -> ChartData:
    """Fill the template words a table does not give (``quantity``, ``category_noun``) from its labels.

    >>> from rend_equiv_dataset.figures.charts.data import Series
    >>> chart = ChartData(Family.BAR, "t", ("2019", "2020"), (Series("Revenue", (1.0, 2.0)),), x_label="Year")
    >>> dict(with_question_words(chart).extra)
    {'category_noun': 'year', 'quantity': 'revenue'}
    """
    words = dict(chart.extra)
    if "quantity" not in words:
        label = chart.y_label or (chart.series[0].name if len(chart.series) == 1 else "")
        words["quantity"] = label.lower() if label else "value"
    if "category_noun" not in words:
        noun = chart.x_label.strip().lower() if chart.family is not Family.SCATTER else ""
        words["category_noun"] = noun if re.fullmatch(r"[a-z]+", noun) and noun != "characteristic" else "category"
    return chart.replace(extra=tuple(sorted(words.items())))


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower()).rstrip("?. ").strip()


def _label_keys(labels: Iterable[str]) -> dict[str, str]:
    """Labels by their folded form (lower case, spaces collapsed), as they appear in a folded question."""
    return {" ".join(label.lower().split()): label for label in labels}


# --------------------------------------------------------------------------- recognition


@dataclass(frozen=True)
class Recognition:
    """The template reading(s) of a question text; exactly one makes it recognised."""

    readings: tuple[Question, ...]
    detail: str = ""

    @property
    def question(self) -> Question | None:
        return self.readings[0] if len(self.readings) == 1 else None


def _applicable(chart: ChartData) -> list[str]:
    return [name for name, qtype in QUESTION_TYPES.items() if chart.family in qtype.families]


_SLOT = ("\ue000", "\ue001")
"""Private-use characters standing for the named categories while a template becomes a pattern."""


def _template_readings(chart: ChartData, text: str) -> set[Question]:
    """Tier 1: the question is, up to case and spaces, the text a template produces for this chart.

    Each (type, series) template is turned into a pattern whose category slot
    matches only the chart's labels, so the cost grows with m rather than with
    the m² pairs of categories (``benchmarks/tables_recognition.py`` compares
    the two).
    """
    folded = _fold(text)
    labels = _label_keys(chart.categories)
    slot = f"(?P<x>{_alternation(labels)})"
    found = set()
    for name in _applicable(chart):
        n = QUESTION_TYPES[name].n_categories
        for series in chart.series_names:
            shape = re.escape(_fold(question_text(chart, Question(name, series, _SLOT[:n]))))
            # With two slots a label holding the words between them could split two ways:
            # fix the first slot to each label in turn; the second is then determined.
            firsts = [()] if n < 2 else [(a,) for a in labels]
            for first in firsts:
                pattern = shape.replace(_SLOT[0], re.escape(first[0]) if first else slot).replace(_SLOT[1], slot)
                match = re.fullmatch(pattern, folded)
                if match is None:
                    continue
                categories = tuple(labels[c] for c in (*first, *([match["x"]] if n else [])))
                if len(set(categories)) == n:
                    found.add(Question(name, series, categories))
    return found


def _alternation(labels: Iterable[str]) -> str:
    ordered = sorted({label.lower() for label in labels}, key=lambda s: (-len(s), s))
    return "|".join(re.escape(label) for label in ordered)


def _pattern_readings(chart: ChartData, text: str, types: Iterable[str]) -> tuple[set[Question], str]:
    folded = _fold(text)
    labels = _label_keys(chart.categories)
    names = _label_keys(chart.series_names)
    slots = {"a": f"(?P<a>{_alternation(labels)})", "b": f"(?P<b>{_alternation(labels)})",
             "ser": f"(?P<ser>{_alternation(names)})"}
    found, why = set(), ""
    for name in types:
        for pattern in PATTERNS.get(name, ()):
            match = re.fullmatch(pattern.format(**slots), folded)
            if match is None:
                continue
            groups = match.groupdict()
            series = _series(groups, names)
            if series is None:
                why = f"the question names no series of the table ({', '.join(chart.series_names)})"
                continue
            categories = tuple(labels[groups[k]] for k in ("a", "b") if groups.get(k))
            if len(categories) == 2 and categories[0] == categories[1]:
                continue
            found.add(_oriented(chart, Question(name, series, categories), pattern))
    return found, why


def _series(groups: Mapping[str, str | None], names: Mapping[str, str]) -> str | None:
    if groups.get("ser"):
        return names[groups["ser"]]
    quantity = (groups.get("q") or "").strip()
    if quantity in names:
        return names[quantity]
    return next(iter(names.values())) if len(names) == 1 else None


def _oriented(chart: ChartData, question: Question, pattern: str) -> Question:
    """"Difference between A and B" is larger minus smaller (documented reading)."""
    if question.question_type == "difference" and "between" in pattern:
        first, second = question.categories
        values = dict(zip(chart.categories, chart.values(question.series)))
        if values[first] < values[second]:
            return Question("difference", question.series, (second, first))
    return question


def recognise(chart: ChartData, text: str) -> Recognition:
    """Match a free-text question to the package's templates (tiers in the module docstring).

    >>> from rend_equiv_dataset.figures.charts.data import Series
    >>> chart = with_question_words(ChartData(Family.BAR, "t", ("France", "Japan", "Peru"),
    ...     (Series("Exports", (12.0, 30.5, 8.0)),), x_label="Country"))
    >>> recognise(chart, "Which country has the highest exports?").question
    Question(question_type='argmax', series='Exports', categories=())
    >>> recognise(chart, "What was the exports of peru?").question
    Question(question_type='value', series='Exports', categories=('Peru',))
    >>> recognise(chart, "Why is Japan so big?").detail
    'matches no template pattern'
    """
    exact = _template_readings(chart, text)
    if exact:
        return Recognition(tuple(sorted(exact, key=repr)))
    found, why = _pattern_readings(chart, text, _applicable(chart))
    if found:
        return Recognition(tuple(sorted(found, key=repr)))
    other = [t for t in QUESTION_TYPES if t not in _applicable(chart)]
    elsewhere, _ = _pattern_readings(chart, text, other)
    if elsewhere:
        kinds = sorted({q.question_type for q in elsewhere})
        return Recognition((), f"a {'/'.join(kinds)} question does not apply to a {chart.family.value} chart")
    return Recognition((), why or "matches no template pattern")


# --------------------------------------------------------------------------- given answers


def _agrees(exact: float | str, given: str) -> bool | None:
    """Whether a given answer agrees with the exact one; ``None`` when it is not even a number."""
    if isinstance(exact, str):
        return _fold(given) == _fold(exact)
    parsed = parse_number(given)
    if parsed is None:
        return None
    return abs(parsed[0] - exact) <= ANSWER_RTOL * abs(exact) if exact != 0 else abs(parsed[0]) <= 1e-9


def check_question(chart: ChartData, given: GivenQuestion) -> tuple[Question | None, QuestionReport]:
    """Recognise a user question and check its answer against the table (never repairs it)."""
    base = {"table_id": given.table_id, "file": given.file, "line": given.line, "question": given.question,
            "given": given.answer}
    recognition = recognise(chart, given.question)
    if recognition.question is None:
        if len(recognition.readings) > 1:
            readings = "; ".join(f"{q.question_type} {q.series} {list(q.categories)}" for q in recognition.readings)
            return None, QuestionReport(**base, status=QuestionStatus.AMBIGUOUS, detail=f"readings: {readings}")
        status = QuestionStatus.NOT_APPLICABLE if "does not apply" in recognition.detail else QuestionStatus.UNRECOGNISED
        return None, QuestionReport(**base, status=status, detail=recognition.detail)
    question = recognition.question
    qtype = QUESTION_TYPES[question.question_type]
    exact = answer(chart, question)
    recomputed = format_answer(exact, qtype.answer_type)
    if (why := ill_posed(chart, question)) is not None:
        return None, QuestionReport(**base, status=QuestionStatus.NOT_APPLICABLE, detail=why, recomputed=recomputed)
    agrees = _agrees(exact, given.answer)
    if agrees is None:
        return None, QuestionReport(**base, status=QuestionStatus.BAD_ANSWER,
                                    detail=f"a {question.question_type} question needs a number", recomputed=recomputed)
    if not agrees:
        detail = f"the table gives {recomputed}" + (f" (tolerance {ANSWER_RTOL:.0%})" if qtype.answer_type == "number" else "")
        return None, QuestionReport(**base, status=QuestionStatus.DISAGREES, detail=detail, recomputed=recomputed)
    return question, QuestionReport(**base, status=QuestionStatus.KEPT, recomputed=recomputed)


def ill_posed(chart: ChartData, question: Question) -> str | None:
    """Why a question has no single answer on this data (a tie), or a degenerate one (0), else ``None``."""
    values = dict(zip(chart.categories, chart.values(question.series)))
    ranked = sorted(values.values())
    if question.question_type == "argmax" and ranked[-1] == ranked[-2]:
        return "two categories tie for the highest value"
    if question.question_type == "argmin" and ranked[0] == ranked[1]:
        return "two categories tie for the lowest value"
    if question.question_type == "compare" and values[question.categories[0]] == values[question.categories[1]]:
        return "the two categories have the same value"
    if question.question_type == "share" and sum(values.values()) <= 0:
        return "the series total is not positive"
    if QUESTION_TYPES[question.question_type].answer_type == "number" and answer(chart, question) == 0:
        return "the exact answer is 0, which no scale edit moves"
    return None
