"""Question templates: text, exact answer a*(D, q) and answer type.

One small table, :data:`QUESTION_TYPES`, keyed by question type. Each entry
says how to pose the question on a chart and how to compute its exact answer
from any chart data (the base or an edited one). Which edits apply to a
question type, and their answer-transform φ_g, is said by each edit's class
(:mod:`rend_equiv_dataset.figures.edits.registry`).

A question names categories by label, so its answer on edited data is found
by label: after a swap of two labels, "Which has the higher exports, France
or Japan?" reads the bars now labelled France and Japan.

>>> from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
>>> chart = ChartData(Family.BAR, "Exports", ("France", "Japan", "Peru"),
...                   (Series("2024", (12.0, 30.5, 8.0)),))
>>> answer(chart, Question("argmax", "2024", ()))
'Japan'
>>> answer(chart, Question("sum", "2024", ()))
50.5
>>> answer(chart, Question("difference", "2024", ("Japan", "France")))
18.5
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.figures.charts.families import family_of
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.transforms import Answer


@dataclass(frozen=True, repr=False)
class Question:
    """A posed question: its type, the series it asks about and the categories it names.

    ``other_series`` is the second series of a question about two series
    (``series_difference``: ``series`` minus ``other_series``); empty otherwise,
    and then left out of the stored params and of the repr.
    """

    question_type: str
    series: str
    categories: tuple[str, ...]
    other_series: str = ""

    def __repr__(self) -> str:
        other = f", other_series={self.other_series!r}" if self.other_series else ""
        return (f"Question(question_type={self.question_type!r}, series={self.series!r}, "
                f"categories={self.categories!r}{other})")

    def params(self) -> dict[str, Any]:
        """JSON-able form stored on the instance."""
        params: dict[str, Any] = {"series": self.series, "categories": list(self.categories)}
        if self.other_series:
            params["other_series"] = self.other_series
        return params

    @classmethod
    def from_params(cls, question_type: str, params: Mapping[str, Any]) -> Question:
        """Rebuild a question from its stored type and params (e.g. a release row).

        >>> Question.from_params("compare", {"series": "2024", "categories": ["Peru", "Chile"]})
        Question(question_type='compare', series='2024', categories=('Peru', 'Chile'))
        >>> Question.from_params("median", {"series": "2024", "categories": []})
        Traceback (most recent call last):
        ...
        rend_equiv_dataset.errors.InputError: field 'question_type': unknown question type 'median'; expected one of value, difference, sum, argmax, argmin, compare, share, compare_lower, sum_of, mean, mean_of, series_difference
        """
        if question_type not in QUESTION_TYPES:
            raise InputError(f"unknown question type {question_type!r}; expected one of {', '.join(QUESTION_TYPES)}",
                             field="question_type")
        if not isinstance(params, Mapping):
            raise InputError(f"must be an object, got {type(params).__name__}", field="question_params")
        series, categories = params.get("series"), params.get("categories")
        if not isinstance(series, str):
            raise InputError(f"series must be a string, got {series!r}", field="question_params.series")
        expected = QUESTION_TYPES[question_type].n_categories
        if (not isinstance(categories, (list, tuple)) or len(categories) != expected
                or not all(isinstance(c, str) for c in categories) or len(set(categories)) != len(categories)):
            raise InputError(f"a {question_type} question names {expected} distinct categories (strings), "
                             f"got {categories!r}", field="question_params.categories")
        other = params.get("other_series", "")
        if QUESTION_TYPES[question_type].n_series == 2:
            if not isinstance(other, str) or not other or other == series:
                raise InputError(f"a {question_type} question names a second series other than {series!r}, "
                                 f"got {other!r}", field="question_params.other_series")
        elif other != "":
            raise InputError(f"a {question_type} question names one series, got a second: {other!r}",
                             field="question_params.other_series")
        return cls(question_type, series, tuple(categories), other)


# --- exact answers a*(D, q) -------------------------------------------------------------------

def _value_of(data: ChartData, series: str, category: str) -> float:
    return data.values(series)[data.categories.index(category)]


def _value(data: ChartData, q: Question) -> float:
    return _value_of(data, q.series, q.categories[0])


def _difference(data: ChartData, q: Question) -> float:
    first, second = q.categories
    return _value_of(data, q.series, first) - _value_of(data, q.series, second)


def _sum(data: ChartData, q: Question) -> float:
    return float(sum(data.values(q.series)))


def _argmax(data: ChartData, q: Question) -> str:
    values = data.values(q.series)
    return data.categories[max(range(len(values)), key=values.__getitem__)]


def _argmin(data: ChartData, q: Question) -> str:
    values = data.values(q.series)
    return data.categories[min(range(len(values)), key=values.__getitem__)]


def _compare(data: ChartData, q: Question) -> str:
    first, second = q.categories
    return first if _value_of(data, q.series, first) > _value_of(data, q.series, second) else second


def _compare_lower(data: ChartData, q: Question) -> str:
    first, second = q.categories
    return first if _value_of(data, q.series, first) < _value_of(data, q.series, second) else second


def _series_difference(data: ChartData, q: Question) -> float:
    return _value_of(data, q.series, q.categories[0]) - _value_of(data, q.other_series, q.categories[0])


def _sum_of(data: ChartData, q: Question) -> float:
    return float(sum(_value_of(data, q.series, c) for c in q.categories))


def _mean(data: ChartData, q: Question) -> float:
    values = data.values(q.series)
    return float(sum(values)) / len(values)


def _mean_of(data: ChartData, q: Question) -> float:
    return _sum_of(data, q) / len(q.categories)


def _share(data: ChartData, q: Question) -> float:
    """Pie share in percent: 100 · v / S."""
    return 100.0 * _value(data, q) / sum(data.values(q.series))


@dataclass(frozen=True)
class QuestionType:
    """One row of the question table.

    Attributes:
        name: the question type.
        answer_type: ``"number"`` or ``"label"``.
        n_categories: how many categories the question names (0, 1 or 2).
        template: text template with ``{quantity}``, ``{noun}``, ``{nouns}``, ``{a}``, ``{b}``, ``{ser}``.
        answer: a*(D, q).
        families: chart families the question is asked on.
        n_series: how many series the question names (2: ``series`` and ``other_series``).
    """

    name: str
    answer_type: str
    n_categories: int
    template: str
    answer: Callable[[ChartData, Question], Answer]
    families: frozenset[Family]
    n_series: int = 1


_ALL = frozenset(Family)
_SERIES = frozenset(f for f in Family if family_of(f).lookup == "value")
_SHARES = frozenset(f for f in Family if family_of(f).lookup == "share")

QUESTION_TYPES: dict[str, QuestionType] = {
    t.name: t
    for t in (
        QuestionType("value", "number", 1, "What is the value of {quantity} for {a}{ser}{unit}?", _value, _SERIES),
        QuestionType("difference", "number", 2,
                     "By how much does the value of {quantity} for {a} exceed that for {b}{ser}{unit}?",
                     _difference, _SERIES),
        QuestionType("sum", "number", 0, "What is the total {quantity} across all {nouns}{ser}{unit}?", _sum, _SERIES),
        QuestionType("argmax", "label", 0, "Which {noun} has the highest {quantity}{ser}?", _argmax, _ALL),
        QuestionType("argmin", "label", 0, "Which {noun} has the lowest {quantity}{ser}?", _argmin, _ALL),
        QuestionType("compare", "label", 2, "Which has the higher {quantity}{ser}: {a} or {b}?", _compare, _ALL),
        QuestionType("share", "number", 1, "What percentage of the total {quantity} does {a} account for?",
                     _share, _SHARES),
        QuestionType("compare_lower", "label", 2, "Which has the lower {quantity}{ser}: {a} or {b}?",
                     _compare_lower, _ALL),
        QuestionType("sum_of", "number", 2, "What is the sum of the {quantity} of {a} and {b}{ser}{unit}?",
                     _sum_of, _SERIES),
        QuestionType("mean", "number", 0, "What is the average {quantity} across all {nouns}{ser}{unit}?",
                     _mean, _SERIES),
        QuestionType("mean_of", "number", 2, "What is the average {quantity} of {a} and {b}{ser}{unit}?",
                     _mean_of, _SERIES),
        QuestionType("series_difference", "number", 1, "By how much does {s1} exceed {s2} in {a}{unit}?",
                     _series_difference, _SERIES, n_series=2),
    )
}
"""The question table (docs/design.md §3.1, §3.3). Keys are the question types.

The first seven are the synthetic set's (each family's ``question_cycle`` draws
from them); ``compare_lower`` (which of two is smaller: a type of its own, so
its answer and its φ per edit stay one table row), ``sum_of`` and ``mean_of``
(of two named categories), ``mean`` (of the whole series) and
``series_difference`` (two series at one category) are asked only of
user questions on imported tables (:mod:`rend_equiv_dataset.figures.tables.questions`).
"""


def answer(data: ChartData, question: Question) -> Answer:
    """The exact answer a*(D, q) of ``question`` on ``data``."""
    return QUESTION_TYPES[question.question_type].answer(data, question)


def _plural(noun: str) -> str:
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def question_text(data: ChartData, question: Question) -> str:
    """The question as asked (same text for the base chart and every edit).

    >>> from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
    >>> chart = ChartData(Family.GROUPED_BAR, "Exports", ("France", "Japan"),
    ...     (Series("2023", (1.0, 2.0)), Series("2024", (2.0, 3.0))), unit="bn USD",
    ...     extra=(("category_noun", "country"), ("quantity", "exports")))
    >>> question_text(chart, Question("sum", "2024", ()))
    'What is the total exports across all countries in the 2024 series, in bn USD?'
    >>> question_text(chart.replace(extra=()), Question("value", "2024", ("Japan",)))
    'What is the value for Japan in the 2024 series, in bn USD?'
    """
    words = dict(data.extra)
    noun = words.get("category_noun", "category")
    a, b = (*question.categories, "", "")[:2]
    template = QUESTION_TYPES[question.question_type].template
    quantity = words.get("quantity", "value")
    text = template.format(
        quantity=quantity, noun=noun, nouns=_plural(noun), a=a, b=b, s1=question.series, s2=question.other_series,
        ser=f" in the {question.series} series" if len(data.series) > 1 else "",
        unit=f", in {data.unit}" if data.unit and data.unit != "%" else "",
    )
    return text.replace("the value of value ", "the value ") if quantity == "value" else text


def pose(question_type: str, data: ChartData, rng: np.random.Generator) -> Question:
    """Pose a question of ``question_type`` on ``data``: draw the series and named categories.

    Two named categories are drawn so the first has the larger value (a positive
    difference). A share question never names the largest slice, so delete_max applies.
    """
    qtype = QUESTION_TYPES[question_type]
    series = data.series_names[int(rng.integers(len(data.series)))]
    values = data.values(series)
    candidates = list(range(len(data.categories)))
    if question_type == "share":
        candidates.remove(values.index(max(values)))
    picked = [int(i) for i in rng.choice(candidates, size=qtype.n_categories, replace=False)]
    if question_type == "difference":
        picked.sort(key=lambda i: -values[i])
    return Question(question_type, series, tuple(data.categories[i] for i in picked))
