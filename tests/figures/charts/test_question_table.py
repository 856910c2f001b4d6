"""Question table: hand-checked exact answers, the applicability table and φ_g rules."""

import numpy as np
import pytest

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.questions import (
    QUESTION_TYPES,
    Question,
    answer,
    pose,
    question_text,
)
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.edits import applicable_edits, transform_for
from rend_equiv_dataset.transforms import IDENTITY, Affine, LabelMap

WORDS = (("category_noun", "country"), ("quantity", "exports"), ("topic", "exports"))


def bar(values=(12.0, 30.5, 8.0, 19.5), family=Family.BAR, unit="bn USD"):
    return ChartData(family, "Exports", ("France", "Japan", "Peru", "Chile")[: len(values)],
                     (Series("2024", values),), unit=unit, extra=WORDS)


def grouped():
    return ChartData(Family.GROUPED_BAR, "Exports", ("France", "Japan", "Peru"),
                     (Series("2023", (10.0, 4.0, 7.0)), Series("2024", (2.0, 9.0, 5.5))),
                     unit="bn USD", extra=WORDS)


def pie():
    # total 200, largest 100: shares are v/2; after deleting the largest, v.
    return ChartData(Family.PIE, "Mix", ("Coal", "Gas", "Wind", "Solar"),
                     (Series("Generation", (100.0, 45.0, 35.0, 20.0)),), unit="TWh",
                     extra=(("category_noun", "source"), ("quantity", "generation")))


# --- exact answers, checked by hand -----------------------------------------------------------

@pytest.mark.parametrize(
    ("chart", "question", "expected"),
    [
        (bar(), Question("value", "2024", ("Peru",)), 8.0),
        (bar(), Question("difference", "2024", ("Japan", "France")), 18.5),
        (bar(), Question("sum", "2024", ()), 70.0),
        (bar(), Question("argmax", "2024", ()), "Japan"),
        (bar(), Question("argmin", "2024", ()), "Peru"),
        (bar(), Question("compare", "2024", ("Chile", "France")), "Chile"),
        (bar(), Question("compare", "2024", ("France", "Chile")), "Chile"),
        (grouped(), Question("value", "2023", ("Japan",)), 4.0),
        (grouped(), Question("argmax", "2023", ()), "France"),
        (grouped(), Question("argmax", "2024", ()), "Japan"),
        (grouped(), Question("argmin", "2024", ()), "France"),
        (grouped(), Question("sum", "2024", ()), 16.5),
        (grouped(), Question("difference", "2024", ("Peru", "France")), 3.5),
        (pie(), Question("share", "Generation", ("Gas",)), 22.5),
        (pie(), Question("share", "Generation", ("Solar",)), 10.0),
        (pie(), Question("argmax", "Generation", ()), "Coal"),
    ],
)
def test_exact_answers_on_small_charts(chart, question, expected):
    assert answer(chart, question) == expected


def test_answers_follow_labels_not_positions():
    swapped = bar().replace(categories=("Chile", "Japan", "Peru", "France"))
    assert answer(swapped, Question("compare", "2024", ("Chile", "France"))) == "France"
    assert answer(swapped, Question("value", "2024", ("France",))) == 19.5


# --- the applicability table (docs/design.md §3.3) --------------------------------------------------

EXPECTED_EDITS = {
    "value": {"scale", "offset", "zoom"},
    "difference": {"scale", "zoom"},
    "sum": {"scale", "offset", "zoom"},
    "argmax": {"delete_max", "swap", "cycle", "zoom"},
    "argmin": {"swap", "cycle", "zoom"},
    "compare": {"swap", "zoom"},
    "share": {"delete_max", "zoom"},
    # asked only of user questions on imported tables
    "compare_lower": {"swap", "zoom"},
    "sum_of": {"scale", "offset", "zoom"},
    "mean": {"scale", "offset", "zoom"},
    "mean_of": {"scale", "offset", "zoom"},
    "series_difference": {"offset", "zoom"},
}


def test_applicability_table_is_exactly_the_designed_one():
    assert {name: set(applicable_edits(name)) for name in QUESTION_TYPES} == EXPECTED_EDITS


@pytest.mark.parametrize("qtype", sorted(QUESTION_TYPES))
def test_every_question_type_has_zoom_and_an_answer_type(qtype):
    t = QUESTION_TYPES[qtype]
    assert "zoom" in applicable_edits(qtype)
    assert t.answer_type in ("number", "label")
    assert len(applicable_edits(qtype)) >= 2  # at least one equivariance edit besides zoom


def test_identity_edits_are_excluded_because_they_really_are_identities():
    """The excluded pairs are those whose φ would be the identity: check on data."""
    chart = bar()
    scaled = chart.replace(series=(Series("2024", tuple(2 * v for v in chart.values())),))
    shifted = chart.replace(series=(Series("2024", tuple(v + 3 for v in chart.values())),))
    argmax_q, diff_q = Question("argmax", "2024", ()), Question("difference", "2024", ("Japan", "France"))
    assert answer(scaled, argmax_q) == answer(chart, argmax_q)
    assert answer(shifted, argmax_q) == answer(chart, argmax_q)
    assert answer(shifted, diff_q) == answer(chart, diff_q)
    without_max = chart.replace(categories=("France", "Peru", "Chile"),
                                series=(Series("2024", (12.0, 8.0, 19.5)),))
    assert answer(without_max, Question("argmin", "2024", ())) == answer(chart, Question("argmin", "2024", ()))
    big = pie()
    doubled = big.replace(series=(Series("Generation", tuple(2 * v for v in big.values())),))
    assert answer(doubled, Question("share", "Generation", ("Gas",))) == 22.5


# --- φ_g rules -------------------------------------------------------------------------------

def test_phi_rules_by_hand():
    chart = bar()
    value_q, sum_q = Question("value", "2024", ("Peru",)), Question("sum", "2024", ())
    assert transform_for("scale", chart, value_q, {"factor": 1.5}) == Affine(1.5, 0.0)
    assert transform_for("offset", chart, value_q, {"delta": -3.0}) == Affine(1.0, -3.0)
    assert transform_for("offset", chart, sum_q, {"delta": 2.0}) == Affine(1.0, 8.0)  # n = 4 categories
    argmax_q = Question("argmax", "2024", ())
    assert transform_for("delete_max", chart, argmax_q, {}) == LabelMap.from_pairs({"Japan": "Chile"})
    assert transform_for("zoom", chart, argmax_q, {}) == IDENTITY
    share_q = Question("share", "Generation", ("Gas",))
    assert transform_for("delete_max", pie(), share_q, {}) == Affine(2.0, 0.0)  # S/(S-max) = 200/100
    with pytest.raises(KeyError):
        transform_for("scale", chart, argmax_q, {"factor": 2.0})


def test_question_text_names_series_only_on_multi_series_charts():
    single = question_text(bar(), Question("argmax", "2024", ()))
    assert single == "Which country has the highest exports?"
    multi = question_text(grouped(), Question("compare", "2024", ("Peru", "France")))
    assert multi == "Which has the higher exports in the 2024 series: Peru or France?"
    assert question_text(bar(), Question("value", "2024", ("Peru",))).endswith("for Peru, in bn USD?")
    assert "%" not in question_text(bar(unit="%"), Question("value", "2024", ("Peru",)))
    cities = bar().replace(extra=(("category_noun", "city"), ("quantity", "rent")))
    assert "all cities" in question_text(cities, Question("sum", "2024", ()))


def test_pose_draws_valid_questions():
    rng = np.random.default_rng(3)
    for _ in range(50):
        q = pose("difference", bar(), rng)
        assert answer(bar(), q) > 0 and len(set(q.categories)) == 2
        share = pose("share", pie(), rng)
        assert share.categories != ("Coal",)  # never the largest slice
        assert pose("argmax", grouped(), rng).series in ("2023", "2024")


def test_question_params_round_trip():
    q = Question("compare", "2024", ("Peru", "France"))
    assert Question.from_params("compare", q.params()) == q
    assert Question.from_params("argmax", {"series": "s", "categories": []}) == Question("argmax", "s", ())


@pytest.mark.parametrize(
    ("qtype", "params", "field"),
    [
        ("median", {"series": "s", "categories": []}, "question_type"),
        ("value", ["s", ["A"]], "question_params"),
        ("value", {"categories": ["A"]}, "question_params.series"),
        ("value", {"series": 3, "categories": ["A"]}, "question_params.series"),
        ("value", {"series": "s"}, "question_params.categories"),
        ("value", {"series": "s", "categories": "A"}, "question_params.categories"),
        ("value", {"series": "s", "categories": ["A", "B"]}, "question_params.categories"),
        ("compare", {"series": "s", "categories": ["A", "A"]}, "question_params.categories"),
        ("compare", {"series": "s", "categories": ["A", 2]}, "question_params.categories"),
    ],
)
def test_bad_question_params_raise_input_error(qtype, params, field):
    with pytest.raises(InputError) as err:
        Question.from_params(qtype, params)
    assert err.value.field == field
