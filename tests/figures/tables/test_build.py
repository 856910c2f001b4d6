"""Tables → instances: question recognition, answer checks, the law on every edit, and the round trip."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rend_equiv_dataset.figures.charts.canonical import format_answer, parse_target
from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.edits import edit_type
from rend_equiv_dataset.figures.questions import Question, answer
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.generate import generate_instances
from rend_equiv_dataset.figures.tables.build import (
    PILOT_FACTOR,
    export_instances,
    hides_values,
    instances_from_tables,
    matched_from_tables,
    template_questions,
)
from rend_equiv_dataset.figures.tables.questions import QuestionStatus, with_question_words
from rend_equiv_dataset.figures.tables.read import SourceTable, TableSet, load_tables

FIXTURES = Path(__file__).parent / "data" / "tables" / "chartqa"


def assert_law(instance):
    """Paper Eq. 1 on every edit, recomputed from the edited data, and on the stored strings."""
    question = Question.from_params(instance.question_type, instance.question_params)
    assert format_answer(answer(instance.data, question), instance.answer_type) == instance.target
    assert [e.edit_type for e in instance.edits].count("zoom") == 1
    for edit in instance.edits:
        assert edit_type(edit.edit_type).applies_to(instance.question_type)
        recomputed = format_answer(answer(edit.data, question), instance.answer_type)
        assert recomputed == edit.target
        via_transform = edit.transform.apply(parse_target(instance.target, instance.answer_type))
        assert format_answer(via_transform, instance.answer_type) == edit.target
        assert not hides_values(edit.data), edit.edit_type


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
                        ("party", QuestionStatus.KEPT)}  # Democrats − Republicans in 2014: a series_difference
    assert [i.target for i in by_source["party.csv"]] == ["9"]
    summary = build.summary()
    assert summary["questions"]["kept"] == 2 and len(summary["question_reports"]) == 1


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


def test_tables_with_negative_values_get_a_zoom_that_keeps_every_value_visible():
    chart = ChartData(family=Family.BAR, title="Growth", categories=("2019", "2020", "2021"),
                      series=(Series("Growth", (2.5, -3.1, 5.9)),), unit="%")
    build = instances_from_tables(_set(chart))
    posed = template_questions(with_question_words(chart), np.random.default_rng(0))
    assert len(build.instances) == len(posed) > 0
    for instance in build.instances:
        zoom = next(e for e in instance.edits if e.edit_type == "zoom")
        low, high = zoom.data.value_range
        assert low <= -3.1 and high >= 5.9
        assert not hides_values(zoom.data)
    assert not any("hide" in k for k in build.skipped)


def test_an_ordered_time_axis_is_never_relabelled():
    chart = ChartData(family=Family.BAR, title="Sales", categories=("2017", "2018", "2019", "2020", "2021", "2022"),
                      series=(Series("Sales", (3.0, 5.0, 4.0, 9.0, 7.0, 6.0)),))
    for suite in ("main", "full"):
        build = instances_from_tables(_set(chart), suite=suite)
        assert build.instances
        assert all(e.edit_type not in ("swap", "cycle") for i in build.instances for e in i.edits)
        assert any("ordered (time) axis" in k for k in build.skipped)
    assert matched_from_tables(_set(chart)).instances == ()


def test_instance_indices_differ_between_tables_and_slots():
    build = instances_from_tables(load_tables(FIXTURES))
    indices = [i.index for i in build.instances]
    assert len(set(indices)) == len(indices)
    matched = matched_from_tables(load_tables(FIXTURES))
    assert {i.index for i in matched.instances}.isdisjoint(indices)


_values = st.lists(st.integers(1, 10_000).map(lambda v: v / 4), min_size=3, max_size=7, unique=True)


@st.composite
def table_charts(draw):
    family = draw(st.sampled_from(list(Family)))
    first = draw(_values)
    n = len(first)
    n_series = 1 if family in (Family.BAR, Family.PIE, Family.SCATTER) else draw(st.integers(2, 3))
    column = st.lists(st.integers(-400, 10_000).map(lambda v: v / 4), min_size=n, max_size=n)
    series = [first] + [draw(column) for _ in range(n_series - 1)]
    if family is Family.STACKED_BAR:
        series = [[abs(v) for v in values] for values in series]
    x_values = tuple(draw(column)) if family is Family.SCATTER else None
    return ChartData(family=family, title="t", categories=tuple(f"C{i}" for i in range(n)),
                     series=tuple(Series(f"S{j}", tuple(v)) for j, v in enumerate(series)), x_label="Item",
                     x_values=x_values)


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
