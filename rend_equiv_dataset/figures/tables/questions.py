"""User questions about imported tables: recognising them as templates and checking their answers.

A question a user brings with a table (paper §6 "Transfer to real figures")
is kept only when its answer can be recomputed from the table and agrees with
the given one *at the given answer's own precision* — a number given with one
decimal must equal the exact answer rounded half-up to one decimal
(:func:`agrees_at_precision`), a label must match after case and space
folding. The kept question's target is the *recomputed* exact answer; every
other question gets a :class:`QuestionStatus` and a reason that says what
failed (an unknown operation, no known label, an answer that disagrees by
how much), and is reported, never silently fixed.

Recognising a free-text question means parsing it into one of the package's
question types with its parameters (:mod:`rend_equiv_dataset.figures.questions`),
in three documented tiers (:func:`recognise`):

1. the exact text a template produces for this chart (case, spaces and a
   final ``?`` folded), over every series and named category;
2. the explicit patterns of :data:`PATTERNS`, where ``{a}``/``{b}`` match
   only the table's category labels and ``{ser}`` only its series names, and
   the free words of the quantity may not hold an operation word (``three
   largest``, ``average``); a "difference between A and B" is larger minus smaller;
3. the reading of ChartQA's many wordings (:func:`parse_question`): the
   category labels and series names the question mentions, and its operation
   words (``difference``, ``how much more … than``, ``increase from A to B``,
   ``total``, ``sum of A and B``, ``average``, ``highest``, ``which … higher``,
   ``which … lower``). An operation the package has no question type for (a
   ratio — no edit moves it exactly: a scale of the series leaves it as it is —,
   the top three, a count, the second largest, the sum of three named bars, a
   difference between two series, the highest *value*) is reported as an
   unknown operation, never read as another type.

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
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from enum import Enum
from typing import Any

from rend_equiv_dataset.figures.charts.canonical import format_answer
from rend_equiv_dataset.figures.charts.data import ChartData
from rend_equiv_dataset.figures.charts.families import family_of
from rend_equiv_dataset.figures.questions import QUESTION_TYPES, Question, answer, question_text
from rend_equiv_dataset.figures.tables.grid import parse_number
from rend_equiv_dataset.figures.tables.read import GivenQuestion


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
    "compare_lower": (
        r"which (?:has|had|is|was|shows) (?:the )?(?:lower|smaller|less|fewer)(?: (?P<q>.+?))?" + _SER + r"[,:]? {a} or {b}",
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

    >>> from rend_equiv_dataset.figures.charts.data import Family, Series
    >>> chart = ChartData(Family.BAR, "t", ("2019", "2020"), (Series("Revenue", (1.0, 2.0)),), x_label="Year")
    >>> dict(with_question_words(chart).extra)
    {'category_noun': 'year', 'quantity': 'revenue'}
    >>> two = ChartData(Family.LINE, "Per capita CO2 emissions (tonnes)", ("2019", "2020"),
    ...     (Series("France", (4.0, 5.0)), Series("Peru", (1.0, 2.0))), x_label="Year")
    >>> dict(with_question_words(two).extra)["quantity"]
    'per capita CO2 emissions'
    """
    words = dict(chart.extra)
    if "quantity" not in words:
        label = chart.y_label or (chart.series[0].name if len(chart.series) == 1 else "") or _title_quantity(chart.title)
        words["quantity"] = " ".join(w if any(c.isupper() for c in w[1:]) else w.lower() for w in label.split()) \
            if label else "value"
    if "category_noun" not in words:
        noun = "" if family_of(chart).x_column else chart.x_label.strip().lower()
        words["category_noun"] = noun if re.fullmatch(r"[a-z]+", noun) and noun != "characteristic" else "category"
    return chart.replace(extra=tuple(sorted(words.items())))


def _title_quantity(title: str) -> str:
    """A title that names one quantity ("Per capita CO2 emissions (tonnes)"), without its unit; else ""."""
    name = re.sub(r"\s*[(\[][^()\[\]]*[)\]]\s*$", "", title).strip()
    if not name or len(name.split()) > 6 or re.search(r"\b(?:by|and|vs|versus|of)\b|[,:;]", name, re.IGNORECASE):
        return ""
    return name


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
        two = QUESTION_TYPES[name].n_series == 2
        pairs = [(s, o) for s in chart.series_names for o in chart.series_names if s != o] if two \
            else [(s, "") for s in chart.series_names]
        for series, other in pairs:
            literal = _fold(question_text(chart, Question(name, series, _SLOT[:n], other)))
            head = literal.split(_SLOT[0])[0]
            if not folded.startswith(head):  # the words before the first slot are literal
                continue
            shape = re.escape(literal)
            # With two slots a label holding the words between them could split two ways:
            # fix the first slot to each label the text has there in turn; the second is then determined.
            firsts = [()] if n < 2 else [(a,) for a in labels if folded.startswith(a, len(head))]
            for first in firsts:
                pattern = shape.replace(_SLOT[0], re.escape(first[0]) if first else slot).replace(_SLOT[1], slot)
                match = re.fullmatch(pattern, folded)
                if match is None:
                    continue
                categories = tuple(labels[c] for c in (*first, *([match["x"]] if n else [])))
                if len(set(categories)) == n:
                    found.add(Question(name, series, categories, other))
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
            quantity = (groups.get("q") or "").strip()
            if quantity not in names and (word := operation_word(quantity)) is not None:
                why = f"unknown operation: {word!r}"
                continue
            if quantity not in names and _mentions(quantity, chart.categories):
                continue
            series = _series(groups, names)
            if series is None:
                why = f"the question names no series of the table ({', '.join(chart.series_names)})"
                continue
            categories = tuple(labels[groups[k]] for k in ("a", "b") if groups.get(k))
            if len(categories) == 2 and categories[0] == categories[1]:
                continue
            kind = family_of(chart).lookup if name == "value" else name
            found.add(_oriented(chart, Question(kind, series, categories), pattern))
    return found, why


def _series(groups: Mapping[str, str | None], names: Mapping[str, str]) -> str | None:
    if series := groups.get("ser"):
        return names[series]
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


def recognise(chart: ChartData, text: str, given: str | None = None) -> Recognition:
    """Parse a free-text question into a question type and parameters (tiers in the module docstring).

    ``given``, the answer the user expects, tells a superlative question asking
    for a label (argmax) from one asking for the largest value (no question type).

    >>> from rend_equiv_dataset.figures.charts.data import Family, Series
    >>> chart = with_question_words(ChartData(Family.BAR, "t", ("France", "Japan", "Peru"),
    ...     (Series("Exports", (12.0, 30.5, 8.0)),), x_label="Country"))
    >>> recognise(chart, "Which country has the highest exports?").question
    Question(question_type='argmax', series='Exports', categories=())
    >>> recognise(chart, "What was the exports of peru?").question
    Question(question_type='value', series='Exports', categories=('Peru',))
    >>> recognise(chart, "How much more did Japan export than France?").question
    Question(question_type='difference', series='Exports', categories=('Japan', 'France'))
    >>> recognise(chart, "What is the sum of the two largest bars?").detail
    "unknown operation: 'two largest'"
    >>> recognise(chart, "Why is Japan so big?").detail
    'unknown operation: the question asks for no value, total, difference, extreme or comparison'
    """
    exact = _template_readings(chart, text)
    if exact:
        return Recognition(tuple(sorted(exact, key=repr)))
    unknown = operation_word(_fold(text), strict=True)
    lookups = ["value"] if family_of(chart).lookup != "value" else []  # a lookup on a pie asks for the slice's share
    found, why = _pattern_readings(chart, text, [*_applicable(chart), *lookups])
    if found and unknown is None:
        return Recognition(tuple(sorted(found, key=repr)))
    other = [t for t in QUESTION_TYPES if t not in _applicable(chart) and t not in lookups]
    elsewhere, _ = _pattern_readings(chart, text, other)
    if elsewhere and unknown is None:
        kinds = sorted({q.question_type for q in elsewhere})
        return Recognition((), f"a {'/'.join(kinds)} question does not apply to a {chart.family.value} chart")
    parsed = parse_question(chart, text, given)
    if parsed.question is not None and chart.family not in QUESTION_TYPES[parsed.question.question_type].families:
        kind = parsed.question.question_type
        return Recognition((), f"a {kind} question does not apply to a {chart.family.value} chart")
    if parsed.question is None and why and not parsed.detail.startswith("unknown operation"):
        return Recognition((), why)
    return parsed


# --------------------------------------------------------------------------- tier 3: ChartQA wordings

_UNKNOWN_OPERATIONS: tuple[tuple[str, str], ...] = (
    (r"\b(?:top|first|last|bottom) (?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b", ""),
    (r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten) (?:largest|highest|biggest|greatest|smallest|lowest|"
     r"top|most|least|bars|countries|years|categories)\b", ""),
    (r"\b(?:median|mode|ratio|times|twice|double|half|quotient|product|proportion between)\b", ""),
    (r"\b(?:second|third|fourth|fifth)\b", ""),
    (r"\b(?:leftmost|rightmost|left|right|middle|first bar|last bar)\b", ""),
    (r"\b(?:percentage|percent) (?:change|increase|decrease|growth|difference)\b|\bgrowth rate\b|\bcagr\b", ""),
    (r"\bhow many (?:\w+ )?(?:years|countries|categories|bars|items|regions|companies|brands|times|states)\b", ""),
    (r"\b(?:above|below|exceeds? \d|over \d|under \d|more than \d|less than \d)\b", ""),
    (r"\b(?:others|other than|except|excluding|remaining|rest)\b", ""),
)
_HIGH = r"highest|largest|greatest|biggest|maximum|max|most|peak|top|best"
_LOW = r"lowest|smallest|least|minimum|min|fewest|bottom|worst"
_MORE = r"higher|larger|greater|bigger|more|exceeds?|over"
_LESS = r"lower|smaller|less|fewer"
_MEAN = r"average|mean|averages|avg"


def operation_word(text: str, *, strict: bool = False) -> str | None:
    """The first operation the package has no question type for, in folded ``text``, else ``None``.

    With ``strict`` only the unambiguous ones (``ratio``, ``top 3``, ``second``…);
    otherwise any word that changes what is computed (as in a quantity phrase).

    >>> operation_word("the three largest bars"), operation_word("ratio of exports", strict=True)
    ('three largest', 'ratio')
    >>> operation_word("exports"), operation_word("revenue in 2018", strict=True)
    (None, None)
    """
    for pattern, _ in _UNKNOWN_OPERATIONS:
        if (match := re.search(pattern, text)) is not None:
            return match.group()
    if not strict:
        loose = rf"\b(?:{_HIGH}|{_LOW}|{_MORE}|{_LESS}|{_MEAN}|difference|sum|total|combined|and|or|between|than|change)\b"
        if (match := re.search(loose, text)) is not None:
            return match.group()
    return None


def _mentions(text: str, labels: Iterable[str]) -> list[tuple[int, int, str]]:
    """Non-overlapping whole-word occurrences of labels in folded ``text``, longest first, in text order."""
    keys = _label_keys(labels)
    taken: list[tuple[int, int, str]] = []
    for key in sorted(keys, key=lambda k: (-len(k), k)):
        for match in re.finditer(rf"(?<![\w]){re.escape(key)}(?![\w])", text):
            if all(match.end() <= a or match.start() >= b for a, b, _ in taken):
                taken.append((match.start(), match.end(), keys[key]))
    return sorted(taken)


def _masked(text: str, spans: Iterable[tuple[int, int, str]]) -> str:
    """``text`` with each mentioned label replaced by a placeholder, so label words are not operation words."""
    out, last = [], 0
    for start, end, _ in sorted(spans):
        out += [text[last:start], " \ue010 "]
        last = end
    return "".join(out + [text[last:]])


def _is_label_answer(chart: ChartData, given: str | None) -> bool | None:
    if given is None:
        return None
    return _fold(given) in _label_keys(chart.categories) or parse_number(given) is None


def parse_question(chart: ChartData, text: str, given: str | None = None) -> Recognition:
    """Tier 3 of :func:`recognise`: read a ChartQA-style wording from its mentions and operation words.

    >>> from rend_equiv_dataset.figures.charts.data import Family, Series
    >>> chart = ChartData(Family.LINE, "t", ("2018", "2019", "2020"), (Series("Revenue", (30.4, 39.1, 46.2)),))
    >>> parse_question(chart, "How much did the revenue increase from 2018 to 2020?").question
    Question(question_type='difference', series='Revenue', categories=('2020', '2018'))
    >>> parse_question(chart, "In which year was the revenue the highest?").question
    Question(question_type='argmax', series='Revenue', categories=())
    >>> parse_question(chart, "What was the highest revenue?", given="46.2").detail
    'unknown operation: the largest value (a number), not which category has it'
    >>> parse_question(chart, "What was the revenue in 2017?").detail
    'unknown label: the question names no category of the table (2018, 2019, 2020)'
    """
    folded = _fold(text).replace("\u2019", "'")
    categories = _mentions(folded, chart.categories)
    series_spans = [m for m in _mentions(folded, chart.series_names)
                    if not any(a <= m[0] < b for a, b, _ in categories)]
    rest = _masked(folded, [*categories, *series_spans])
    if (word := operation_word(rest, strict=True)) is not None:
        return Recognition((), f"unknown operation: {word!r}")
    named = list(dict.fromkeys(c for _, _, c in categories))
    mentioned_series = list(dict.fromkeys(s for _, _, s in series_spans))
    high = re.search(rf"\b(?:{_HIGH})\b", rest) is not None
    low = re.search(rf"\b(?:{_LOW})\b", rest) is not None
    difference = re.search(r"\b(?:difference|gap|differ|exceeds?|increase[sd]?|decrease[sd]?|rise|rose|grow|grew|"
                           r"drop(?:ped)?|fall|fell|decline[sd]?|change[sd]?)\b|\bhow (?:much|many) (?:more|less|fewer|"
                           r"higher|lower|larger|smaller|bigger|greater)\b", rest) is not None
    total = re.search(r"\b(?:sum|total|combined|altogether|add(?:ed)? up|together)\b", rest) is not None
    mean = re.search(rf"\b(?:{_MEAN})\b", rest) is not None
    more = re.search(rf"\b(?:{_MORE})\b", rest) is not None
    less = re.search(rf"\b(?:{_LESS})\b", rest) is not None
    asks_which = re.match(r"(?:which|who|what \w+ (?:has|had|have|is|was|shows?|recorded)|in which|when|what (?:year|"
                          r"country|category|month|region|brand|company|state|city|group|option|answer|party|age group)\b)",
                          rest) is not None
    yes_no = re.match(r"(?:is|are|was|were|does|did|do|has|have|can) ", rest) is not None
    if yes_no:
        return Recognition((), "unknown operation: a yes/no question")
    if (high or low) and (difference or total):
        return Recognition((), "unknown operation: a sum or difference of extremes")
    if mean and (high or low or difference or total or more or less):
        return Recognition((), "unknown operation: an average combined with another operation")
    over_time = re.search(r"\b(?:increase[sd]?|decrease[sd]?|rise|rose|grow|grew|drop(?:ped)?|fall|fell|decline[sd]?|"
                          r"change[sd]?)\b", rest) is not None
    if difference and not over_time and len(mentioned_series) == 2 and len(named) == 1 and not (total or mean):
        return Recognition((_series_difference_question(chart, mentioned_series, named[0], rest),))
    series = _series_of(chart, mentioned_series, len(named))
    if isinstance(series, Recognition):
        return series
    if difference:
        if len(named) != 2:
            if len(named) == 1 and len(mentioned_series) == 2:
                return Recognition((), "unknown operation: a difference between two series at one category")
            return _unknown_labels(chart, f"a difference names 2 categories, this names {len(named)}")
        return Recognition((_difference_question(chart, series, named, categories, rest),))
    if total or mean:
        whole, pair = ("mean", "mean_of") if mean else ("sum", "sum_of")
        if len(named) == 2 and re.search(r"\bfrom\b", rest) and set(named) == {chart.categories[0], chart.categories[-1]}:
            return Recognition((Question(whole, series, ()),))  # "from the first to the last": all of them
        if len(named) == 2:
            return Recognition((Question(pair, series, tuple(named)),))
        if len(named) == 1:
            return Recognition((), f"unknown operation: {'an average' if mean else 'a sum'} with one category named "
                                   f"(over what is not said)")
        if named:
            return Recognition((), f"unknown operation: {'an average' if mean else 'a sum'} of {len(named)} named "
                                   f"categories (of two or of all are asked)")
        return Recognition((Question(whole, series, ()),))
    if high or low:
        if high and low:
            return Recognition((), "unknown operation: both the highest and the lowest")
        if named:
            return Recognition((), "unknown operation: an extreme among named categories")
        if _is_label_answer(chart, given) is False and not asks_which:
            return Recognition((), "unknown operation: the largest value (a number), not which category has it"
                               if high else "unknown operation: the smallest value (a number), not which category has it")
        return Recognition((Question("argmax" if high else "argmin", series, ()),))
    if len(named) == 2 and (more or less):
        if more and less:
            return Recognition((), "unknown operation: both higher and lower words in one comparison")
        return Recognition((Question("compare_lower" if less else "compare", series, tuple(named)),))
    if len(named) == 1 and re.search(r"\b(?:what|how (?:much|many))\b|^(?:in|according|as of|during)\b", rest):
        return Recognition((Question(family_of(chart).lookup, series, tuple(named)),))
    if not named:
        return _unknown_labels(chart, "the question names no category of the table")
    if len(named) > 1:
        return Recognition((), f"unknown operation: {len(named)} categories named without a difference or comparison")
    return Recognition((), "unknown operation: the question asks for no value, total, difference, extreme or comparison")


def _series_of(chart: ChartData, mentioned: list[str], n_named: int) -> str | Recognition:
    if len(chart.series) == 1:
        return chart.series[0].name
    if len(mentioned) == 1:
        return mentioned[0]
    if len(mentioned) == 2 and n_named == 1:
        return Recognition((), "unknown operation: a difference or comparison between two series at one category")
    if not mentioned:
        return Recognition((), f"unknown label: the question names no series of the table "
                               f"({', '.join(chart.series_names)})")
    return Recognition((), f"unknown operation: {len(mentioned)} series named ({', '.join(mentioned)})")


def _series_difference_question(chart: ChartData, mentioned: list[str], category: str, rest: str) -> Question:
    """A difference between two series at one category, oriented as :func:`_difference_question` orients
    categories: "A more/higher than B" → A − B, "A less/lower than B" → B − A, else larger minus smaller."""
    first, second = mentioned
    if re.search(rf"\b(?:{_MORE}|{_LESS})\b", rest) and "than" in rest:
        if re.search(rf"\b(?:{_LESS})\b", rest):
            return Question("series_difference", second, (category,), first)
        return Question("series_difference", first, (category,), second)
    values = {name: chart.values(name)[chart.categories.index(category)] for name in (first, second)}
    if values[first] < values[second]:
        first, second = second, first
    return Question("series_difference", first, (category,), second)


def _unknown_labels(chart: ChartData, why: str) -> Recognition:
    shown = ", ".join(chart.categories[:8]) + (", …" if len(chart.categories) > 8 else "")
    prefix = "unknown label" if "no category" in why else "unknown operation"
    return Recognition((), f"{prefix}: {why} ({shown})")


def _difference_question(chart: ChartData, series: str, named: list[str], spans: list[tuple[int, int, str]],
                         rest: str) -> Question:
    """Orientation: "A exceed B", "how much more A than B" → A − B; "increase from A to B" → B − A;
    "decrease from A to B" → A − B; "difference between A and B" → larger minus smaller."""
    first, second = named
    if re.search(r"\b(?:increase[sd]?|rise|rose|grow|grew|change[sd]?)\b", rest) and "from" in rest:
        return Question("difference", series, (second, first))
    if re.search(r"\b(?:decrease[sd]?|drop(?:ped)?|fall|fell|decline[sd]?)\b", rest) and "from" in rest:
        return Question("difference", series, (first, second))
    if re.search(rf"\b(?:{_MORE}|{_LESS})\b", rest) and "than" in rest:
        if re.search(rf"\b(?:{_LESS})\b", rest):
            return Question("difference", series, (second, first))
        return Question("difference", series, (first, second))
    values = dict(zip(chart.categories, chart.values(series)))
    ordered = (first, second) if values[first] >= values[second] else (second, first)
    return Question("difference", series, ordered)


# --------------------------------------------------------------------------- given answers


def agrees_at_precision(exact: float, given: float, given_text: str) -> bool:
    """Whether ``exact`` rounded half-up to the decimals ``given_text`` shows equals ``given``.

    >>> agrees_at_precision(1.83, 1.8, "1.8"), agrees_at_precision(30.5, 31.0, "31"), agrees_at_precision(98.0, 95.0, "95")
    (True, True, False)
    >>> agrees_at_precision(1788.25, 1788.25, "1,788.25"), agrees_at_precision(2.55, 2.6, "2.6")
    (True, True)
    """
    number = re.sub(r"[^\d.eE+-]", "", given_text.replace("\u2212", "-"))
    if "e" in number.lower():
        return abs(exact - given) <= 1e-9 * max(1.0, abs(exact))
    decimals = len(number.split(".", 1)[1]) if "." in number else 0
    try:
        # 12 significant digits first: float noise (2.4999999999999996 for 2.5) never decides a rounding
        rounded = Decimal(f"{exact:.12g}").quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    except InvalidOperation:
        return False
    return rounded == Decimal(repr(given)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def _value_scale(chart: ChartData) -> float:
    """How many of the table's own units one drawn unit is (``extra["value_scale"]``, else 1)."""
    try:
        return float(dict(chart.extra).get("value_scale", "1"))
    except ValueError:
        return 1.0


def _agreement(exact: float | str, given: str, scale: float = 1.0) -> tuple[bool | None, float]:
    """Whether a given answer agrees with the exact one, and by how much it is off (numbers).

    ``None`` when the given answer is not even a number; a number may be given in the
    drawn unit or, for a table drawn in a smaller unit, in the table's own unit (``scale``).
    """
    if isinstance(exact, str):
        return _fold(given) == _fold(exact), 0.0
    parsed = parse_number(given)
    if parsed is None:
        return None, 0.0
    value = parsed[0]
    candidates = [exact] + ([exact * scale] if scale != 1.0 else [])
    if any(agrees_at_precision(c, value, given) for c in candidates):
        return True, 0.0
    return False, value - exact


def check_question(chart: ChartData, given: GivenQuestion) -> tuple[Question | None, QuestionReport]:
    """Recognise a user question and check its answer against the table (never repairs it)."""
    base: dict[str, Any] = {"table_id": given.table_id, "file": given.file, "line": given.line, "question": given.question,
            "given": given.answer}
    recognition = recognise(chart, given.question, given.answer)
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
    agrees, off = _agreement(exact, given.answer, _value_scale(chart))
    reading = f"read as {question.question_type} {question.series} {list(question.categories)}"
    if agrees is None:
        return None, QuestionReport(**base, status=QuestionStatus.BAD_ANSWER,
                                    detail=f"a {question.question_type} question needs a number ({reading})",
                                    recomputed=recomputed)
    if not agrees:
        if qtype.answer_type == "number":
            detail = f"answer disagrees by {format_answer(abs(off), 'number')}: the table gives {recomputed} ({reading})"
        else:
            detail = f"answer disagrees: the table gives {recomputed} ({reading})"
        return None, QuestionReport(**base, status=QuestionStatus.DISAGREES, detail=detail, recomputed=recomputed)
    return question, QuestionReport(**base, status=QuestionStatus.KEPT, detail=reading, recomputed=recomputed)


def ill_posed(chart: ChartData, question: Question) -> str | None:
    """Why a question has no single answer on this data (a tie), or a degenerate one (0), else ``None``."""
    values = dict(zip(chart.categories, chart.values(question.series)))
    ranked = sorted(values.values())
    if question.question_type == "argmax" and ranked[-1] == ranked[-2]:
        return "two categories tie for the highest value"
    if question.question_type == "argmin" and ranked[0] == ranked[1]:
        return "two categories tie for the lowest value"
    if question.question_type in ("compare", "compare_lower") and values[question.categories[0]] == values[question.categories[1]]:
        return "the two categories have the same value"
    if question.question_type == "share" and sum(values.values()) <= 0:
        return "the series total is not positive"
    if QUESTION_TYPES[question.question_type].answer_type == "number" and answer(chart, question) == 0:
        return "the exact answer is 0, which no scale edit moves"
    return None
