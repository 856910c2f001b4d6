"""Tables → instances: question recognition, answer checks, the law on every edit, and the round trip."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rend_equiv_dataset.charts.answers import format_answer, parse_target
from rend_equiv_dataset.charts.data import ChartData, Family, Series
from rend_equiv_dataset.charts.questions import QUESTION_TYPES, Question, answer
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.generators.figures import generate_instances
from rend_equiv_dataset.generators.from_tables import (
    PILOT_FACTOR,
    QuestionStatus,
    check_question,
    export_instances,
    ill_posed,
    instances_from_tables,
    matched_from_tables,
    recognise,
    with_question_words,
)
from rend_equiv_dataset.loaders.tables import GivenQuestion, SourceTable, TableSet, load_tables

FIXTURES = Path(__file__).parents[1] / "data" / "tables" / "chartqa"


def assert_law(instance):
    """Paper Eq. 1 on every edit, recomputed from the edited data, and on the stored strings."""
    question = Question.from_params(instance.question_type, instance.question_params)
    assert format_answer(answer(instance.data, question), instance.answer_type) == instance.target
    assert [e.edit_type for e in instance.edits].count("zoom") == 1
    for edit in instance.edits:
        assert edit.edit_type in QUESTION_TYPES[instance.question_type].edits
        recomputed = format_answer(answer(edit.data, question), instance.answer_type)
        assert recomputed == edit.target
        via_transform = edit.transform.apply(parse_target(instance.target, instance.answer_type))
        assert format_answer(via_transform, instance.answer_type) == edit.target


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
            question = Question(name, chart.series_names[-1], categories)
            from rend_equiv_dataset.charts.questions import question_text

            assert recognise(chart, question_text(chart, question)).question == question


def _enumerated_readings(chart, text):
    """The naive tier 1: format every (type, series, categories) and compare."""
    from rend_equiv_dataset.charts.questions import question_text

    fold = lambda t: " ".join(t.lower().split()).rstrip("?. ")  # noqa: E731
    found = set()
    for name, qtype in QUESTION_TYPES.items():
        if chart.family not in qtype.families:
            continue
        n = qtype.n_categories
        pairs = [()] if n == 0 else [(c,) for c in chart.categories] if n == 1 else [
            (a, b) for a in chart.categories for b in chart.categories if a != b]
        for series in chart.series_names:
            for categories in pairs:
                question = Question(name, series, categories)
                if fold(question_text(chart, question)) == fold(text):
                    found.add(question)
    return found


_labels = st.lists(st.sampled_from(["Peru", "peru x", "Chile", "or", "Japan or Peru", "2020", "The", "a"]),
                   min_size=3, max_size=6, unique_by=str.lower)


@settings(max_examples=60)
@given(labels=_labels, data=st.data())
def test_template_patterns_agree_with_enumerating_every_question(labels, data):
    from rend_equiv_dataset.charts.questions import question_text

    family = data.draw(st.sampled_from([Family.BAR, Family.GROUPED_BAR, Family.PIE]))
    n_series = 2 if family is Family.GROUPED_BAR else 1
    chart = _chart(family=family, categories=tuple(labels), series=tuple(
        Series(f"S{j}", tuple(float(i + 1 + j) for i in range(len(labels)))) for j in range(n_series)))
    name = data.draw(st.sampled_from([t for t, q in QUESTION_TYPES.items() if family in q.families]))
    categories = tuple(data.draw(st.permutations(labels))[:QUESTION_TYPES[name].n_categories])
    text = question_text(chart, Question(name, chart.series_names[-1], categories))
    expected = _enumerated_readings(chart, text)
    assert Question(name, chart.series_names[-1], categories) in expected
    assert set(recognise(chart, text).readings) == expected


def test_question_types_that_do_not_apply_to_the_family_are_reported():
    pie = _chart(family=Family.PIE, series=(Series("Share", (40.0, 30.0, 20.0, 10.0)),), unit="%")
    recognition = recognise(pie, "What is the share of Japan?")
    assert recognition.question == Question("share", "Share", ("Japan",))
    recognition = recognise(pie, "What is the total share?")
    assert recognition.question is None and "does not apply to a pie chart" in recognition.detail
    assert recognise(_chart(), "What percentage of the total exports does Peru account for?").question is None


def test_two_readings_make_a_question_ambiguous():
    # "the total of Peru": the value of the quantity "total" for Peru, or the sum of a quantity "Peru"
    recognition = recognise(_chart(), "What is the total of Peru?")
    assert {q.question_type for q in recognition.readings} == {"value", "sum"}
    question, report = check_question(_chart(), _given("What is the total of Peru?", "8"))
    assert question is None and report.status is QuestionStatus.AMBIGUOUS
    assert "value Exports ['Peru']" in report.detail


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


# ---------------------------------------------------------------- instances


def _set(*charts, questions=()):
    return TableSet(tuple(SourceTable(f"t{i}", c, f"t{i}.csv") for i, c in enumerate(charts)), tuple(questions))


def test_fixture_folder_builds_law_abiding_instances_with_sources():
    build = instances_from_tables(load_tables(FIXTURES))
    assert build.instances
    for instance in build.instances:
        assert_law(instance)
        assert instance.source.endswith((".csv", ".json"))
        assert instance.instance_id.startswith("s0-t-")
    by_source = {}
    for instance in build.instances:
        by_source.setdefault(instance.source, []).append(instance)
    # revenue.csv has one kept user question: only that one is asked of it
    assert [(i.question, i.target) for i in by_source["revenue.csv"]] == [("What was the revenue in 2018?", "1788.25")]
    # vendors' only question disagrees, so the templates ask theirs instead
    assert {i.question_type for i in by_source["vendors.csv"]} >= {"share", "argmax"}
    statuses = {(q.table_id, q.status) for q in build.questions}
    assert statuses == {("revenue", QuestionStatus.KEPT), ("vendors", QuestionStatus.DISAGREES),
                        ("party", QuestionStatus.UNRECOGNISED)}
    summary = build.summary()
    assert summary["questions"]["kept"] == 1 and len(summary["question_reports"]) == 2


def test_pilot_suite_is_a_x2_scale_plus_zoom():
    build = instances_from_tables(load_tables(FIXTURES), suite="pilot")
    kinds = {tuple(e.edit_type for e in i.edits) for i in build.instances}
    assert kinds <= {("scale", "zoom"), ("zoom",)} and ("scale", "zoom") in kinds
    for instance in build.instances:
        assert_law(instance)
        for edit in instance.edits:
            if edit.edit_type == "scale":
                assert edit.params["factor"] == PILOT_FACTOR


def test_full_suite_adds_the_cycle_and_matched_set_needs_five_categories():
    tables = load_tables(FIXTURES)
    full = instances_from_tables(tables, suite="full")
    assert any(e.edit_type == "cycle" for i in full.instances for e in i.edits)
    matched = matched_from_tables(tables)
    assert matched.instances and {i.source for i in matched.instances} == {"brands.csv"}
    for instance in matched.instances:
        assert [e.edit_type for e in instance.edits] == ["swap", "cycle", "zoom"]
        assert instance.question_type in ("argmax", "argmin")
        assert_law(instance)


def test_unknown_suite_is_refused():
    with pytest.raises(InputError) as err:
        instances_from_tables(load_tables(FIXTURES), suite="everything")
    assert err.value.field == "--table-suite"


def test_same_seed_same_instances_and_tables_do_not_disturb_each_other():
    tables = load_tables(FIXTURES)
    first = instances_from_tables(tables, seed=3)
    assert instances_from_tables(tables, seed=3) == first
    alone = TableSet(tuple(t for t in tables.tables if t.table_id == "energy"), ())
    energy = [i for i in first.instances if i.source == "energy.csv"]
    assert list(instances_from_tables(alone, seed=3).instances) == energy
    other_seed = instances_from_tables(tables, seed=4)
    assert {i.instance_id for i in other_seed.instances}.isdisjoint({i.instance_id for i in first.instances})


def test_instance_indices_differ_between_tables_and_slots():
    build = instances_from_tables(load_tables(FIXTURES))
    indices = [i.index for i in build.instances]
    assert len(set(indices)) == len(indices)
    matched = matched_from_tables(load_tables(FIXTURES))
    assert {i.index for i in matched.instances}.isdisjoint(indices)


_values = st.lists(st.integers(1, 10_000).map(lambda v: v / 4), min_size=3, max_size=7, unique=True)


@st.composite
def table_charts(draw):
    family = draw(st.sampled_from([Family.BAR, Family.GROUPED_BAR, Family.LINE, Family.PIE, Family.STACKED_BAR]))
    first = draw(_values)
    n = len(first)
    n_series = 1 if family in (Family.BAR, Family.PIE) else draw(st.integers(2, 3))
    series = [first] + [draw(st.lists(st.integers(1, 10_000).map(lambda v: v / 4), min_size=n, max_size=n))
                        for _ in range(n_series - 1)]
    return ChartData(family=family, title="t", categories=tuple(f"C{i}" for i in range(n)),
                     series=tuple(Series(f"S{j}", tuple(v)) for j, v in enumerate(series)), x_label="Item")


@settings(max_examples=40)
@given(chart=table_charts(), seed=st.integers(0, 2**32 - 1), suite=st.sampled_from(["main", "full", "pilot"]))
def test_equivariance_law_holds_for_every_edit_built_from_any_table(chart, seed, suite):
    build = instances_from_tables(_set(chart), seed=seed, suite=suite)
    for instance in build.instances:
        assert_law(instance)


# ---------------------------------------------------------------- round trip


def test_synthetic_instances_exported_as_tables_come_back_with_the_same_answers(tmp_path):
    synthetic = generate_instances(0, per_family=3)
    export_instances(synthetic, tmp_path / "tables")
    tables = load_tables(tmp_path / "tables")
    assert len(tables.tables) == len(synthetic) and len(tables.questions) == len(synthetic)
    build = instances_from_tables(tables, seed=0)
    assert all(q.status is QuestionStatus.KEPT for q in build.questions)
    rebuilt = {i.source.removesuffix(".csv"): i for i in build.instances}
    assert set(rebuilt) == {i.instance_id for i in synthetic}
    for original in synthetic:
        again = rebuilt[original.instance_id]
        assert (again.question, again.target, again.question_type, again.answer_type) == (
            original.question, original.target, original.question_type, original.answer_type)
        assert again.data == original.data
        assert dict(again.question_params) == dict(original.question_params)
        assert_law(again)
