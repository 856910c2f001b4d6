"""The question types asked only of user questions on imported tables: which of two is lower,
the sum and the average of two named categories, the average of a whole series, the difference
of two series at one category.

Each is checked for its exact answer on hand-checked tables, its ChartQA wordings (kept and
refused with the reason), its edits and φ_g (the law a*(g(D), q) = φ_g(a*(D, q)) by hypothesis),
and the table build keeping it."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.edits import registry
from rend_equiv_dataset.figures.generate import verify_law
from rend_equiv_dataset.figures.questions import QUESTION_TYPES, Question, answer, question_text
from rend_equiv_dataset.figures.tables.build import instances_from_tables
from rend_equiv_dataset.figures.tables.questions import QuestionStatus, check_question, with_question_words
from rend_equiv_dataset.figures.tables.read import GivenQuestion, SourceTable, TableSet
from rend_equiv_dataset.transforms import IDENTITY, Affine, LabelMap

NEW_TYPES = ("compare_lower", "sum_of", "mean", "mean_of", "series_difference")

SALES = with_question_words(ChartData(Family.BAR, "Sales", ("2019", "2020", "2021", "2022"),
                                      (Series("Sales", (12.5, 8.0, 20.25, 15.0)),), x_label="Year",
                                      unit="million units"))
POLL = with_question_words(ChartData(Family.GROUPED_BAR, "Approval", ("Jan", "Feb", "Mar"),
                                     (Series("Approve", (41.0, 44.0, 39.0)), Series("Disapprove", (52.0, 49.0, 55.0))),
                                     x_label="Month", unit="%"))
SHARES = with_question_words(ChartData(Family.PIE, "Browsers", ("Chrome", "Safari", "Edge", "Other"),
                                       (Series("Share", (64.7, 18.6, 5.3, 11.4)),), x_label="Browser", unit="%"))


# ---------------------------------------------------------------- exact answers, by hand


@pytest.mark.parametrize("question, exact", [
    (Question("compare_lower", "Sales", ("2019", "2020")), "2020"),
    (Question("compare_lower", "Sales", ("2021", "2022")), "2022"),
    (Question("sum_of", "Sales", ("2019", "2021")), 32.75),
    (Question("mean", "Sales", ()), 13.9375),  # 55.75 / 4
    (Question("mean_of", "Sales", ("2020", "2022")), 11.5),
    (Question("mean_of", "Disapprove", ("Jan", "Mar")), 53.5),
    (Question("compare_lower", "Approve", ("Feb", "Mar")), "Mar"),
    (Question("series_difference", "Disapprove", ("Feb",), "Approve"), 5.0),
    (Question("series_difference", "Approve", ("Mar",), "Disapprove"), -16.0),
])
def test_exact_answers_on_hand_checked_tables(question, exact):
    chart = POLL if question.series in POLL.series_names else SALES
    assert answer(chart, question) == exact


def test_the_new_types_are_not_asked_by_the_synthetic_set():
    from rend_equiv_dataset.figures.charts.families import family_of
    cycles = {t for family in Family for t in family_of(family).question_cycle}
    assert cycles.isdisjoint(NEW_TYPES)


def test_each_new_type_carries_its_equivariance_edits():
    assert registry.applicable_edits("compare_lower") == ("swap", "zoom")
    assert registry.applicable_edits("sum_of") == ("scale", "offset", "zoom")
    assert registry.applicable_edits("mean") == ("scale", "offset", "zoom")
    assert registry.applicable_edits("mean_of") == ("scale", "offset", "zoom")
    assert registry.applicable_edits("series_difference") == ("offset", "zoom")  # scaling one series is no function


def test_a_two_series_question_round_trips_through_its_params():
    question = Question("series_difference", "Disapprove", ("Feb",), "Approve")
    assert question.params() == {"series": "Disapprove", "categories": ["Feb"], "other_series": "Approve"}
    assert Question.from_params("series_difference", question.params()) == question
    assert Question("value", "s", ("A",)).params() == {"series": "s", "categories": ["A"]}  # stored bytes unchanged
    assert repr(question).endswith("categories=('Feb',), other_series='Approve')")


@pytest.mark.parametrize("qtype, params", [
    ("series_difference", {"series": "a", "categories": ["A"]}),
    ("series_difference", {"series": "a", "categories": ["A"], "other_series": "a"}),
    ("series_difference", {"series": "a", "categories": ["A"], "other_series": 3}),
    ("value", {"series": "a", "categories": ["A"], "other_series": "b"}),
])
def test_bad_second_series_raises_input_error(qtype, params):
    from rend_equiv_dataset.errors import InputError
    with pytest.raises(InputError) as err:
        Question.from_params(qtype, params)
    assert err.value.field == "question_params.other_series"


def test_phi_of_each_edit_is_the_documented_one():
    rng = np.random.default_rng(3)
    sum_of = Question("sum_of", "Sales", ("2019", "2021"))
    proposal = registry.edit_type("offset").propose(SALES, sum_of, rng)
    delta = proposal.params["delta"]
    assert registry.transform_for("offset", SALES, sum_of, proposal.params) == Affine(1.0, 2 * delta)
    mean = Question("mean", "Sales", ())
    assert registry.transform_for("offset", SALES, mean, {"delta": 3.0}) == Affine(1.0, 3.0)
    assert registry.transform_for("scale", SALES, mean, {"factor": 1.5}) == Affine(1.5, 0.0)
    lower = Question("compare_lower", "Sales", ("2019", "2020"))
    swap = registry.edit_type("swap").propose(SALES, lower, rng)
    assert swap.params["labels"] == ["2019", "2020"]
    phi = registry.transform_for("swap", SALES, lower, swap.params)
    assert phi == LabelMap.from_pairs({"2019": "2020", "2020": "2019"})
    assert answer(swap.data, lower) == "2019" == phi.apply(answer(SALES, lower))


# ---------------------------------------------------------------- the law, by hypothesis

short = st.integers(1, 4000).map(lambda v: v / 4)  # quarters: scaled and offset values stay exact


@st.composite
def charts_and_questions(draw):
    m = draw(st.integers(3, 7))
    values = draw(st.lists(short, min_size=m, max_size=m, unique=True))
    other = draw(st.lists(short, min_size=m, max_size=m))
    family = draw(st.sampled_from([Family.BAR, Family.LINE, Family.GROUPED_BAR]))
    series = (Series("a", tuple(values)),) + ((Series("b", tuple(other)),) if family is Family.GROUPED_BAR else ())
    chart = ChartData(family, "t", tuple(f"c{i}" for i in range(m)), series)
    kind = draw(st.sampled_from(NEW_TYPES))
    n = QUESTION_TYPES[kind].n_categories
    named = tuple(draw(st.permutations(chart.categories))[:n])
    if QUESTION_TYPES[kind].n_series == 2:
        chart = chart.replace(family=Family.GROUPED_BAR, series=(Series("a", tuple(values)), Series("b", tuple(other))))
        return chart, Question(kind, "a", named, "b"), draw(st.integers(0, 2**32 - 1))
    return chart, Question(kind, "a", named), draw(st.integers(0, 2**32 - 1))


@settings(max_examples=150, deadline=None)
@given(charts_and_questions())
def test_the_law_holds_for_every_edit_of_the_new_types(case):
    chart, question, seed = case
    rng = np.random.default_rng(seed)
    for kind in registry.applicable_edits(question.question_type):
        edit = registry.edit_type(kind)
        proposal = edit.propose(chart, question, rng)
        assert proposal is not None, kind
        phi = edit.phi(chart, question, proposal.params)
        assert edit.invariance or phi != IDENTITY  # an equivariance edit really moves the answer
        expected, found = phi.apply(answer(chart, question)), answer(proposal.data, question)
        if isinstance(found, str):
            assert found == expected
        else:
            assert found == pytest.approx(expected, rel=1e-9, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(charts_and_questions())
def test_edits_left_out_really_do_not_move_or_are_no_function_of_the_answer(case):
    chart, question, seed = case
    rng = np.random.default_rng(seed)
    if question.question_type in ("sum_of", "mean_of"):
        swapped = registry.edit_type("swap").propose(chart, question, rng)
        assert answer(swapped.data, question) == answer(chart, question)  # φ would be the identity: not listed
    if question.question_type == "compare_lower":
        scaled = registry.edit_type("scale").propose(chart, question, rng)
        assert answer(scaled.data, question) == answer(chart, question)
    if question.question_type == "series_difference":
        # scaling the minuend series gives c·a − b: no function of a − b alone, so scale is not listed
        scaled = registry.edit_type("scale").propose(chart, question, rng)
        factor, row = scaled.params["factor"], chart.categories.index(question.categories[0])
        a, b = chart.values("a")[row], chart.values("b")[row]
        assert answer(scaled.data, question) == pytest.approx(factor * a - b)


def test_verify_law_accepts_the_new_types_on_a_table():
    question = Question("mean", "Sales", ())
    edited = SALES.replace(series=(Series("Sales", tuple(v * 2 for v in SALES.values("Sales"))),))
    assert verify_law(SALES, edited, question, Affine(2.0)) == "27.875"


# ---------------------------------------------------------------- ChartQA wordings

KEPT = [
    (SALES, "Which year had lower sales, 2019 or 2020?", "2020", Question("compare_lower", "Sales", ("2019", "2020"))),
    (SALES, "Which is smaller, 2021 or 2022?", "2022", Question("compare_lower", "Sales", ("2021", "2022"))),
    (SALES, "Which year saw fewer sales: 2022 or 2019?", "2019", Question("compare_lower", "Sales", ("2022", "2019"))),
    (SALES, "Which has the lower sales: 2019 or 2020?", "2020", Question("compare_lower", "Sales", ("2019", "2020"))),
    (SALES, "What is the sum of 2019 and 2021?", "32.75", Question("sum_of", "Sales", ("2019", "2021"))),
    (SALES, "What is the total of 2019 and 2020 sales?", "20.5", Question("sum_of", "Sales", ("2019", "2020"))),
    (SALES, "What were the combined sales in 2020 and 2022?", "23", Question("sum_of", "Sales", ("2020", "2022"))),
    (SALES, "What is the average sales?", "13.94", Question("mean", "Sales", ())),
    (SALES, "What is the mean of all the years?", "13.9", Question("mean", "Sales", ())),
    (SALES, "What is the average sales from 2019 to 2022?", "13.94", Question("mean", "Sales", ())),
    (SALES, "What is the average of 2020 and 2022?", "11.5", Question("mean_of", "Sales", ("2020", "2022"))),
    (POLL, "What is the average of Approve in Jan and Mar?", "40", Question("mean_of", "Approve", ("Jan", "Mar"))),
    (POLL, "Which month had less Disapprove, Jan or Feb?", "Feb", Question("compare_lower", "Disapprove", ("Jan", "Feb"))),
    (POLL, "What is the sum of Disapprove in Feb and Mar?", "104", Question("sum_of", "Disapprove", ("Feb", "Mar"))),
    (SHARES, "Which has a lower share, Edge or Other?", "Edge", Question("compare_lower", "Share", ("Edge", "Other"))),
    (POLL, "What's the difference between Approve and Disapprove in Feb?", "5",
     Question("series_difference", "Disapprove", ("Feb",), "Approve")),
    (POLL, "What is the gap between Disapprove and Approve in Mar?", "16",
     Question("series_difference", "Disapprove", ("Mar",), "Approve")),
    (POLL, "How much more is Disapprove than Approve in Jan?", "11",
     Question("series_difference", "Disapprove", ("Jan",), "Approve")),
    (POLL, "How much lower was Disapprove than Approve in Jan?", "-11",
     Question("series_difference", "Approve", ("Jan",), "Disapprove")),
]


@pytest.mark.parametrize("chart, text, given, expected", KEPT, ids=[k[1] for k in KEPT])
def test_chartqa_wordings_of_the_new_types_are_kept(chart, text, given, expected):
    question, report = check_question(chart, GivenQuestion("t", text, given, "q.csv", 2))
    assert report.status is QuestionStatus.KEPT, report.detail
    assert question == expected


REFUSED = [
    (SALES, "What is the ratio of 2021 to 2019?", "1.62", QuestionStatus.UNRECOGNISED, "unknown operation: 'ratio'"),
    (SALES, "How many times larger is 2021 than 2020?", "2.53", QuestionStatus.UNRECOGNISED,
     "unknown operation: 'times'"),
    (SALES, "What is the average of the two largest years?", "17.63", QuestionStatus.UNRECOGNISED,
     "unknown operation: 'two largest'"),
    (SALES, "What is the average of 2019, 2020 and 2021?", "13.58", QuestionStatus.UNRECOGNISED,
     "unknown operation: an average of 3 named categories (of two or of all are asked)"),
    (SALES, "What was the average sales in 2021?", "20.25", QuestionStatus.UNRECOGNISED,
     "unknown operation: an average with one category named (over what is not said)"),
    (SALES, "What is the difference between the average and 2019?", "1.44", QuestionStatus.UNRECOGNISED,
     "unknown operation: an average combined with another operation"),
    (SALES, "Which year had the highest average sales?", "2021", QuestionStatus.UNRECOGNISED,
     "unknown operation: an average combined with another operation"),
    (SALES, "Which is higher or lower, 2019 or 2020?", "2019", QuestionStatus.UNRECOGNISED,
     "unknown operation: both higher and lower words in one comparison"),
    (SALES, "What is the sum of 2019 and 2021?", "32.7", QuestionStatus.DISAGREES,
     "answer disagrees by 0.05: the table gives 32.75 (read as sum_of Sales ['2019', '2021'])"),
    (SALES, "Which year had lower sales, 2019 or 2020?", "2019", QuestionStatus.DISAGREES,
     "answer disagrees: the table gives 2020 (read as compare_lower Sales ['2019', '2020'])"),
    (SALES, "What is the average sales?", "14", QuestionStatus.KEPT, "read as mean Sales []"),
    (SALES, "What is the average sales?", "13.9", QuestionStatus.KEPT, "read as mean Sales []"),
    (SALES, "What is the average sales?", "13.93", QuestionStatus.DISAGREES, "answer disagrees by 0.0075"),
    (SHARES, "What is the sum of Edge and Other?", "16.7", QuestionStatus.NOT_APPLICABLE,
     "a sum_of question does not apply to a pie chart"),
    (POLL, "How much did Approve increase over Disapprove in Feb?", "5", QuestionStatus.UNRECOGNISED,
     "unknown operation: a difference or comparison between two series at one category"),
    (POLL, "Which is higher in Feb, Approve or Disapprove?", "Disapprove", QuestionStatus.UNRECOGNISED,
     "unknown operation: a difference or comparison between two series at one category"),
    (POLL, "What's the difference between Approve and Disapprove in Feb?", "6", QuestionStatus.DISAGREES,
     "answer disagrees by 1: the table gives 5 (read as series_difference Disapprove ['Feb'])"),
]


@pytest.mark.parametrize("chart, text, given, status, detail", REFUSED, ids=[f"{r[1]} {r[2]}" for r in REFUSED])
def test_new_type_wordings_are_refused_with_the_exact_reason(chart, text, given, status, detail):
    question, report = check_question(chart, GivenQuestion("t", text, given, "q.csv", 2))
    assert report.status is status
    assert report.detail.startswith(detail), report.detail
    assert (question is not None) == (status is QuestionStatus.KEPT)


def test_a_tie_makes_the_lower_of_two_ill_posed():
    chart = with_question_words(ChartData(Family.BAR, "t", ("A", "B", "C"), (Series("v", (3.0, 3.0, 5.0)),)))
    _, report = check_question(chart, GivenQuestion("t", "Which is smaller, A or B?", "A", "q", 2))
    assert report.status is QuestionStatus.NOT_APPLICABLE and report.detail == "the two categories have the same value"


@pytest.mark.parametrize("kind", NEW_TYPES)
def test_template_text_reads_naturally_and_is_recognised_back(kind):
    if QUESTION_TYPES[kind].n_series == 2:
        chart, question = POLL, Question(kind, "Disapprove", ("Feb",), "Approve")
    else:
        chart, question = SALES, Question(kind, "Sales", ("2019", "2021")[:QUESTION_TYPES[kind].n_categories])
    text = question_text(chart, question)
    assert "value of value" not in text and text.endswith("?")
    from rend_equiv_dataset.figures.charts.canonical import format_answer
    given = format_answer(answer(chart, question), QUESTION_TYPES[kind].answer_type)
    found, report = check_question(chart, GivenQuestion("t", text, given, "q", 2))
    assert report.status is QuestionStatus.KEPT and found == question, report.detail


def test_question_text_of_the_new_types():
    assert question_text(SALES, Question("sum_of", "Sales", ("2019", "2021"))) == \
        "What is the sum of the sales of 2019 and 2021, in million units?"
    assert question_text(SALES, Question("mean", "Sales", ())) == \
        "What is the average sales across all years, in million units?"
    assert question_text(POLL, Question("compare_lower", "Approve", ("Jan", "Mar"))) == \
        "Which has the lower approval in the Approve series: Jan or Mar?"
    assert question_text(POLL, Question("series_difference", "Disapprove", ("Feb",), "Approve")) == \
        "By how much does Disapprove exceed Approve in Feb?"


def test_the_table_build_keeps_the_new_types_with_their_edits():
    questions = (GivenQuestion("sales", "What is the sum of 2019 and 2021?", "32.75", "q.csv", 2),
                 GivenQuestion("sales", "Which year had lower sales, 2019 or 2020?", "2020", "q.csv", 3),
                 GivenQuestion("sales", "What is the average sales?", "13.94", "q.csv", 4))
    tables = TableSet((SourceTable("sales", SALES, "sales.csv"),), questions)
    build = instances_from_tables(tables)
    assert [r.status for r in build.questions] == [QuestionStatus.KEPT] * 3
    got = {i.question_type: (i.target, [e.edit_type for e in i.edits]) for i in build.instances}
    assert got["sum_of"][0] == "32.75" and "zoom" in got["sum_of"][1]
    assert set(got["sum_of"][1]) <= {"scale", "offset", "zoom"} and len(got["sum_of"][1]) >= 2
    assert got["compare_lower"] == ("2020", ["zoom"])  # no swap: relabelling years would draw time out of order
    assert got["mean"][0] == "13.9375" and got["mean"][1][-1] == "zoom" and len(got["mean"][1]) >= 2


def test_the_table_build_swaps_the_two_named_labels_of_a_lower_of_two():
    chart = with_question_words(ChartData(Family.BAR, "Exports", ("France", "Japan", "Peru", "Chile"),
                                          (Series("Exports", (12.0, 30.5, 8.0, 9.5)),), x_label="Country"))
    given = GivenQuestion("exports", "Which country exports less, Japan or Chile?", "Chile", "q.csv", 2)
    build = instances_from_tables(TableSet((SourceTable("exports", chart, "exports.csv"),), (given,)))
    (inst,) = [i for i in build.instances if i.question_type == "compare_lower"]
    swap = inst.edit("swap")
    assert inst.target == "Chile" and swap.params["labels"] == ["Japan", "Chile"] and swap.target == "Japan"


def test_the_table_build_offsets_the_first_series_of_a_two_series_difference():
    given = GivenQuestion("poll", "What's the difference between Approve and Disapprove in Feb?", "5", "q.csv", 2)
    build = instances_from_tables(TableSet((SourceTable("poll", POLL, "poll.csv"),), (given,)))
    (inst,) = [i for i in build.instances if i.question_type == "series_difference"]
    assert inst.target == "5" and [e.edit_type for e in inst.edits] == ["offset", "zoom"]
    assert inst.question_params == {"series": "Disapprove", "categories": ["Feb"], "other_series": "Approve"}
    offset = inst.edit("offset")
    assert offset.params["series"] == "Disapprove" and offset.target == format(5 + offset.params["delta"], "g")
