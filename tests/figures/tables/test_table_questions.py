"""Recognising user questions as templates, and checking their answers against the table."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.questions import QUESTION_TYPES, Question
from rend_equiv_dataset.figures.tables.questions import (
    QuestionStatus,
    check_question,
    ill_posed,
    recognise,
    with_question_words,
)
from rend_equiv_dataset.figures.tables.read import GivenQuestion


def _chart(family=Family.BAR, categories=("France", "Japan", "Peru", "Chile"), series=None, **kw):
    series = series or (Series("Exports", (12.0, 30.5, 8.0, 20.0)),)
    return with_question_words(ChartData(family=family, title="t", categories=categories, series=series,
                                         x_label="Country", **kw))


def _given(question, answer, table_id="t"):
    return GivenQuestion(table_id, question, answer, "questions.csv", 2)


# ---------------------------------------------------------------- recognition


MULTI = _chart(family=Family.GROUPED_BAR, series=(Series("2023", (12.0, 30.5, 8.0, 20.0)),
                                                  Series("2024", (14.0, 28.0, 9.5, 25.0))))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("What is the exports of Japan?", Question("value", "Exports", ("Japan",))),
        ("what was the exports for peru", Question("value", "Exports", ("Peru",))),
        ("What is Chile's exports?", Question("value", "Exports", ("Chile",))),
        ("What is the difference between Peru and Japan?", Question("difference", "Exports", ("Japan", "Peru"))),
        ("By how much does Japan exceed Chile?", Question("difference", "Exports", ("Japan", "Chile"))),
        ("What is the total exports?", Question("sum", "Exports", ())),
        ("What is the sum of all exports?", Question("sum", "Exports", ())),
        ("Which country has the highest exports?", Question("argmax", "Exports", ())),
        ("Which country had the lowest exports?", Question("argmin", "Exports", ())),
        ("Which has the higher exports: Peru or Chile?", Question("compare", "Exports", ("Peru", "Chile"))),
        ("Which is greater, Japan or France?", Question("compare", "Exports", ("Japan", "France"))),
    ],
)
def test_free_text_patterns(text, expected):
    assert recognise(_chart(), text).question == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("What is the value for Japan in the 2024 series?", Question("value", "2024", ("Japan",))),
        ("Which country has the highest value in the 2023 series?", Question("argmax", "2023", ())),
        ("What is the 2024 of Peru?", Question("value", "2024", ("Peru",))),
    ],
)
def test_several_series_need_the_series_named(text, expected):
    assert recognise(MULTI, text).question == expected


def test_unnamed_series_on_a_multi_series_chart_is_unrecognised_with_reason():
    recognition = recognise(MULTI, "Which country has the highest exports?")
    assert recognition.question is None and "names no series" in recognition.detail


def test_exact_template_text_is_recognised_for_every_type_and_family():
    pie = _chart(family=Family.PIE, series=(Series("Share", (40.0, 30.0, 20.0, 10.0)),), unit="%")
    for chart in (_chart(), MULTI, pie):
        for name, qtype in QUESTION_TYPES.items():
            if chart.family not in qtype.families:
                continue
            categories = tuple(chart.categories[1:1 + qtype.n_categories])
            if qtype.n_series == 2 and len(chart.series) < 2:
                continue
            other = chart.series_names[0] if qtype.n_series == 2 else ""
            question = Question(name, chart.series_names[-1], categories, other)
            from rend_equiv_dataset.figures.questions import question_text

            assert recognise(chart, question_text(chart, question)).question == question


def _enumerated_readings(chart, text):
    """The naive tier 1: format every (type, series, categories) and compare."""
    from rend_equiv_dataset.figures.questions import question_text

    fold = lambda t: " ".join(t.lower().split()).rstrip("?. ")  # noqa: E731
    found = set()
    for name, qtype in QUESTION_TYPES.items():
        if chart.family not in qtype.families:
            continue
        n = qtype.n_categories
        pairs = [()] if n == 0 else [(c,) for c in chart.categories] if n == 1 else [
            (a, b) for a in chart.categories for b in chart.categories if a != b]
        series_pairs = [(s, o) for s in chart.series_names for o in chart.series_names if s != o] \
            if qtype.n_series == 2 else [(s, "") for s in chart.series_names]
        for series, other in series_pairs:
            for categories in pairs:
                question = Question(name, series, categories, other)
                if fold(question_text(chart, question)) == fold(text):
                    found.add(question)
    return found


_labels = st.lists(st.sampled_from(["Peru", "peru x", "Chile", "or", "Japan or Peru", "2020", "The", "a"]),
                   min_size=3, max_size=6, unique_by=str.lower)


@settings(max_examples=60)
@given(labels=_labels, data=st.data())
def test_template_patterns_agree_with_enumerating_every_question(labels, data):
    from rend_equiv_dataset.figures.questions import question_text

    family = data.draw(st.sampled_from([Family.BAR, Family.GROUPED_BAR, Family.PIE]))
    n_series = 2 if family is Family.GROUPED_BAR else 1
    chart = _chart(family=family, categories=tuple(labels), series=tuple(
        Series(f"S{j}", tuple(float(i + 1 + j) for i in range(len(labels)))) for j in range(n_series)))
    name = data.draw(st.sampled_from([t for t, q in QUESTION_TYPES.items()
                                      if family in q.families and q.n_series <= n_series]))
    categories = tuple(data.draw(st.permutations(labels))[:QUESTION_TYPES[name].n_categories])
    other = chart.series_names[0] if QUESTION_TYPES[name].n_series == 2 else ""
    question = Question(name, chart.series_names[-1], categories, other)
    text = question_text(chart, question)
    expected = _enumerated_readings(chart, text)
    assert question in expected
    assert set(recognise(chart, text).readings) == expected


def test_question_types_that_do_not_apply_to_the_family_are_reported():
    pie = _chart(family=Family.PIE, series=(Series("Share", (40.0, 30.0, 20.0, 10.0)),), unit="%")
    recognition = recognise(pie, "What is the share of Japan?")
    assert recognition.question == Question("share", "Share", ("Japan",))
    recognition = recognise(pie, "What is the total share?")
    assert recognition.question is None and "does not apply to a pie chart" in recognition.detail
    assert recognise(_chart(), "What percentage of the total exports does Peru account for?").question is None


def test_a_total_of_one_named_category_is_not_read_as_the_sum_of_all():
    # "the total of Peru" is neither the sum of all bars nor a value question whose quantity is "total"
    recognition = recognise(_chart(), "What is the total of Peru?")
    assert recognition.question is None and recognition.detail == "unknown operation: a sum with one category named (over what is not said)"
    question, report = check_question(_chart(), _given("What is the total of Peru?", "8"))
    assert question is None and report.status is QuestionStatus.UNRECOGNISED


def test_category_labels_that_look_like_series_names():
    chart = _chart(categories=("2019", "2020", "2021", "2022"), family=Family.GROUPED_BAR,
                   series=(Series("2020", (1.0, 2.0, 3.0, 4.0)), Series("Cost", (4.0, 3.0, 2.0, 1.0))))
    question, report = check_question(chart, _given("What is the 2020 of 2021?", "3"))
    assert question == Question("value", "2020", ("2021",)) and report.status is QuestionStatus.KEPT
    question, report = check_question(chart, _given("Which is greater, 2019 or 2021?", "2021"))
    assert question is None and report.status is QuestionStatus.UNRECOGNISED


# ---------------------------------------------------------------- given answers


@pytest.mark.parametrize(
    "text, given, status, recomputed",
    [
        ("What is the exports of Japan?", "30.5", QuestionStatus.KEPT, "30.5"),
        ("What is the exports of Japan?", "31", QuestionStatus.KEPT, "30.5"),  # 1.6% off: within 5%
        ("What is the exports of Japan?", "32.1", QuestionStatus.DISAGREES, "30.5"),  # 5.2% off
        ("What is the exports of Japan?", "about thirty", QuestionStatus.BAD_ANSWER, "30.5"),
        ("What is the total exports?", "70.5", QuestionStatus.KEPT, "70.5"),
        ("Which country has the highest exports?", " japan ", QuestionStatus.KEPT, "Japan"),
        ("Which country has the highest exports?", "Peru", QuestionStatus.DISAGREES, "Japan"),
        ("Why is Japan so big?", "1", QuestionStatus.UNRECOGNISED, None),
    ],
)
def test_given_answers_are_checked_not_repaired(text, given, status, recomputed):
    question, report = check_question(_chart(), _given(text, given))
    assert report.status is status
    assert report.recomputed == recomputed
    assert (question is not None) == (status is QuestionStatus.KEPT)
    assert (report.file, report.line, report.given) == ("questions.csv", 2, given)


def test_ties_make_label_questions_ill_posed():
    tied = _chart(series=(Series("Exports", (30.0, 30.0, 8.0, 20.0)),))
    assert "tie" in ill_posed(tied, Question("argmax", "Exports", ()))
    assert ill_posed(tied, Question("argmin", "Exports", ())) is None
    assert ill_posed(tied, Question("compare", "Exports", ("France", "Japan"))) is not None
    question, report = check_question(tied, _given("Which country has the highest exports?", "France"))
    assert question is None and report.status is QuestionStatus.NOT_APPLICABLE
