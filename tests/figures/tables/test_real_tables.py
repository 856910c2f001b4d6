"""Real-shaped tables (OWID, Pew, Statista, OECD shapes): missing cells, footnotes, long decimals,
tiny and negative values, CJK labels, descending years, years as columns, refused tables, and the
ChartQA wordings of real questions."""

import json
import os
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.figures.questions import Question
from rend_equiv_dataset.figures.tables.build import hides_values, instances_from_tables
from rend_equiv_dataset.figures.tables.grid import is_missing, parse_grid, parse_number, split_header
from rend_equiv_dataset.figures.tables.questions import QuestionStatus, check_question, with_question_words
from rend_equiv_dataset.figures.charts.render import IllegibleChartError, installed_fallback_fonts, render
from rend_equiv_dataset.figures.charts.styles import base_style
from rend_equiv_dataset.figures.tables.build import Legibility
from rend_equiv_dataset.figures.tables.read import GivenQuestion, SourceTable, TableSet, load_tables, read_table

REAL = Path(__file__).parent / "data" / "tables" / "realworld"


def _table(name):
    return read_table(REAL / f"{name}.csv")


# ---------------------------------------------------------------- cells


@pytest.mark.parametrize("cell", ["", "nan", "NaN", "-", "\u2014", "\u2013", "n/a", "N/A", "NA", "..", "null", " "])
def test_missing_cells(cell):
    assert is_missing(cell) and parse_number(cell) is None


@pytest.mark.parametrize("cell, value", [("12.5*", 12.5), ("1,204\u2020", 1204.0), ("7 [2]", 7.0), ("45%*", 45.0),
                                         ("-3.1\u00b9", -3.1)])
def test_footnote_markers_after_numbers_are_dropped(cell, value):
    assert parse_number(cell)[0] == value


def test_a_missing_cell_drops_its_category_not_the_table():
    table = _table("revenue_statista")
    assert table.chart.categories == ("2017", "2018", "2020", "2021")  # 2019/20 had "-"; newest-first reversed
    assert table.chart.values() == (27.9, 30.4, 39.1, 46.2)
    assert "category '2019/20' dropped: no value for 'Revenue'" in table.notes
    assert "years written newest first are drawn oldest first" in table.notes


def test_a_mostly_missing_series_is_dropped_with_its_count():
    table = parse_grid(["Year", "A", "B"], [["2019", "1", "n/a"], ["2020", "2", "-"], ["2021", "3", "4"]])
    assert [c.name for c in table.columns] == ["A"] and table.categories == ("2019", "2020", "2021")
    assert table.notes == ("series 'B' dropped: 2 of 3 values missing",)


def test_bracketed_words_that_are_part_of_a_name_are_not_units():
    table = _table("regions_pew")
    assert table.chart.series_names == ("North America (and Caribbean)", "Europe", "Asia (excl. China)")
    assert table.chart.unit == "%"
    assert split_header("Sales (million units)") == ("Sales", "million units")


def test_tiny_values_are_drawn_in_a_smaller_unit_and_never_become_zero():
    chart = _table("emissions_tiny").chart
    assert chart.values() == (12.0, 45.0, 7.0)
    assert chart.unit == "×10⁻¹⁰ g/m3" and dict(chart.extra)["value_scale"] == "1e-10"
    build = instances_from_tables(load_tables(REAL / "emissions_tiny.csv"))
    assert build.instances and all(i.target != "0" for i in build.instances)
    given = GivenQuestion("emissions_tiny", "What is the concentration of Ozone?", "0.0000000045", "q.csv", 2)
    question, report = check_question(with_question_words(chart), given)
    assert report.status is QuestionStatus.KEPT and report.recomputed == "45"  # in the table's own unit too


def test_values_with_more_than_six_decimals_are_rounded_and_build():
    table = _table("ratios_precise")
    assert table.chart.values() == (1.234568, 0.987654, 1.5)
    assert table.notes == ("values with more than 6 decimals are rounded to 6",)
    assert instances_from_tables(load_tables(REAL / "ratios_precise.csv")).instances


def test_values_too_far_apart_for_six_decimals_are_refused_with_a_reason(tmp_path):
    (tmp_path / "wide.csv").write_text("Item,Mass\nA,0.000000001\nB,5000\n")
    with pytest.raises(InputError, match="precision: values from 1e-09 to 5000"):
        read_table(tmp_path / "wide.csv")


def test_duplicate_series_headers_are_refused():
    tables = load_tables(REAL)
    refusal = next(r for r in tables.refused if r.table_id == "sales_duplicate")
    assert (refusal.line, refusal.field) == (1, "column 3 ('Sales')")
    assert refusal.reason.startswith("duplicate_series")


def test_years_as_columns_become_a_line_chart_in_time_order():
    table = _table("co2_owid")
    chart = table.chart
    assert chart.family is Family.LINE and chart.categories == ("2005", "2010", "2015", "2020")
    assert chart.series_names == ("France", "Germany", "China", "Brazil")  # India lacks 2005
    assert chart.values("China") == (4.4, 6.3, 7.0, 7.4)
    assert chart.title == "Per capita CO2 emissions (tonnes)"


def test_titles_come_from_metadata_or_headers_never_the_table_id(tmp_path):
    assert _table("growth_oecd").chart.title == "GDP growth by country"
    assert _table("revenue_statista").chart.title == "Revenue"
    (tmp_path / "two_col_60.csv").write_text("Characteristic,Number of users in millions\n2019,3\n2020,4\n")
    assert read_table(tmp_path / "two_col_60.csv").chart.title == "Number of users"


def test_source_and_note_lines_at_the_end_are_kept_out_of_the_data_and_named(tmp_path):
    """Pew, Statista and OECD exports end with where the data come from; such lines are not categories."""
    path = tmp_path / "approval_pew.csv"
    path.write_text("Characteristic,Approve,Disapprove\nJan 2021,57%,41%\nApr 2021,59%,39%\nJul 2021,52%,46%\n"
                    "\nSource: Pew Research Center survey of U.S. adults.\n"
                    "Note: Those who did not give an answer are not shown.,,\n* early release\n")
    table = read_table(path)
    assert table.chart.categories == ("Jan 2021", "Apr 2021", "Jul 2021")
    assert [n for n in table.notes if n.startswith("footer")] == [
        "footer line kept out: 'Source: Pew Research Center survey of U.S. adults.'",
        "footer line kept out: 'Note: Those who did not give an answer are not shown.'",
        "footer line kept out: '* early release'"]


def test_a_last_row_that_only_looks_like_a_note_but_holds_values_stays_data(tmp_path):
    path = tmp_path / "sources.csv"
    path.write_text("Energy source,Share (%)\nCoal,35\nGas,25\nSolar,12\nSources unknown,3\n")
    assert read_table(path).chart.categories == ("Coal", "Gas", "Solar", "Sources unknown")
    ragged = tmp_path / "ragged.csv"
    ragged.write_text("Country,GDP\nA,1\nB,2\nC,3\nNot a note here\n")
    with pytest.raises(InputError, match="ragged_rows"):
        read_table(ragged)


def test_negative_values_build_with_a_zoom_that_shows_them_all():
    build = instances_from_tables(load_tables(REAL / "growth_oecd.csv"))
    assert build.instances
    for instance in build.instances:
        for edit in instance.edits:
            assert not hides_values(edit.data)
        zoom = next(e for e in instance.edits if e.edit_type == "zoom")
        assert zoom.data.value_range[0] <= -11.3


# ---------------------------------------------------------------- a folder


def test_a_folder_builds_every_usable_table_and_lists_each_unusable_one():
    tables = load_tables(REAL)
    assert [t.table_id for t in tables.tables] == ["cities_cjk", "co2_owid", "emissions_tiny", "growth_oecd",
                                                   "ratios_precise", "regions_pew", "revenue_statista"]
    assert [(r.table_id, r.line, r.field) for r in tables.refused] == [
        ("sales_duplicate", 1, "column 3 ('Sales')"),
        ("survey_text", 3, "column 2 ('Share of respondents')")]
    with pytest.raises(InputError, match="duplicate_series"):
        load_tables(REAL, strict=True)


def test_build_reports_every_refused_table_on_stderr_and_in_the_report(tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["build", "--from-tables", str(REAL), "--out", str(out), "--rerenders", "0", "--matched-cycle", "0",
                 "--workers", "1", "--no-progress"])
    assert code == 0
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("rend-equiv: table skipped")]
    assert len(err) == 2
    assert "sales_duplicate.csv:1: field \"column 3 ('Sales')\": duplicate_series" in err[0]
    assert "survey_text.csv:3: field \"column 2 ('Share of respondents')\": non_numeric_cell" in err[1]
    report = json.loads((out / "tables_report.json").read_text())
    assert [r["table_id"] for r in report["refused_tables"]] == ["sales_duplicate", "survey_text"]
    assert set(report["tables_without_instances"]) == {"sales_duplicate", "survey_text"}
    assert "co2_owid" in report["table_notes"]
    statuses = {q["question"]: (q["status"], q["detail"]) for q in report["question_reports"]}
    assert statuses["What share said yes?"] == ("not_built", "the table was refused")
    status, detail = statuses["What is the total revenue of the three largest years?"]
    assert status == "unrecognised" and detail == "unknown operation: 'three largest'"


def test_strict_stops_at_the_first_unusable_table_and_a_single_bad_file_exits_2(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["build", "--from-tables", str(REAL), "--out", str(out), "--strict", "--no-progress"]) == 2
    assert "sales_duplicate.csv:1" in capsys.readouterr().err and not out.exists()
    assert main(["build", "--from-tables", str(REAL / "survey_text.csv"), "--out", str(out), "--no-progress"]) == 2
    assert "survey_text.csv:3" in capsys.readouterr().err
    assert main(["build", "--strict", "--out", str(out)]) == 2


def test_a_table_that_gives_no_instance_is_named_with_why():
    # Linear B: a script no installed font draws, so the chart cannot be read
    chart = ChartData(Family.BAR, "Tablets", ("\U00010000", "\U00010001", "\U00010002"),
                      (Series("Count", (5.0, 7.0, 3.0)),))
    with pytest.raises(IllegibleChartError, match="no installed font draws"):
        render(chart, base_style())
    build = instances_from_tables(TableSet((SourceTable("tablets", chart, "tablets.csv"),), ()), legible=Legibility())
    assert build.instances == ()
    assert build.unbuilt == {"tablets": "the renderer cannot draw this table legibly"}


@pytest.mark.skipif(not os.environ.get("CI") and not installed_fallback_fonts(),
                    reason="Noto Sans CJK is installed by .ci/run; CI always runs this")
def test_cjk_labels_render_legibly():
    chart = _table("cities_cjk").chart
    assert chart.categories == ("北京", "上海", "广州", "深圳") and chart.unit == "百万"
    assert render(chart, base_style()).png.startswith(b"\x89PNG")
    build = instances_from_tables(load_tables(REAL / "cities_cjk.csv"), legible=Legibility())
    assert build.instances and not build.unbuilt


# ---------------------------------------------------------------- ChartQA wordings

REVENUE = with_question_words(ChartData(Family.BAR, "Revenue", ("2017", "2018", "2019", "2020", "2021"),
                                        (Series("Revenue", (27.9, 30.4, 35.0, 39.1, 46.2)),),
                                        x_label="Characteristic", unit="billion U.S. dollars"))
GROWTH = with_question_words(ChartData(Family.BAR, "GDP growth", ("Italy", "Spain", "Germany", "Poland", "Ireland"),
                                       (Series("GDP growth", (-8.9, -11.3, -3.7, -2.0, 6.2)),), x_label="Country",
                                       unit="%"))
PARTY = with_question_words(ChartData(Family.LINE, "Party", ("2014", "2016", "2018", "2020"),
                                      (Series("Democrats", (32, 33, 31, 33)), Series("Republicans", (23, 26, 26, 29))),
                                      x_label="Year", unit="%"))
VENDORS = with_question_words(ChartData(Family.PIE, "Vendors", ("Samsung", "Apple", "Xiaomi", "Others"),
                                        (Series("Share of shipments", (20.1, 17.3, 13.5, 49.1)),), x_label="Vendor",
                                        unit="%"))

KEPT = [
    (REVENUE, "What was the revenue in 2018?", "30.4", Question("value", "Revenue", ("2018",))),
    (REVENUE, "What was the revenue of the company in 2018?", "30.4", Question("value", "Revenue", ("2018",))),
    (REVENUE, "How much revenue did the company generate in 2019?", "35", Question("value", "Revenue", ("2019",))),
    (REVENUE, "In 2020, what was the revenue?", "39.1", Question("value", "Revenue", ("2020",))),
    (REVENUE, "What's the revenue in 2021?", "46.2", Question("value", "Revenue", ("2021",))),
    (REVENUE, "What is the difference in revenue between 2017 and 2021?", "18.3",
     Question("difference", "Revenue", ("2021", "2017"))),
    (REVENUE, "How much did the revenue increase from 2017 to 2021?", "18.3",
     Question("difference", "Revenue", ("2021", "2017"))),
    (REVENUE, "What is the total revenue from 2017 to 2021?", "178.6", Question("sum", "Revenue", ())),
    (REVENUE, "What is the sum of revenue in all years?", "178.6", Question("sum", "Revenue", ())),
    (REVENUE, "In which year was the revenue the highest?", "2021", Question("argmax", "Revenue", ())),
    (REVENUE, "Which year had the lowest revenue?", "2017", Question("argmin", "Revenue", ())),
    (REVENUE, "Which year has higher revenue, 2018 or 2019?", "2019", Question("compare", "Revenue", ("2018", "2019"))),
    (GROWTH, "What was the GDP growth of Spain?", "-11.3", Question("value", "GDP growth", ("Spain",))),
    (GROWTH, "Which country had the highest GDP growth?", "Ireland", Question("argmax", "GDP growth", ())),
    (GROWTH, "Which country has the lowest value?", "Spain", Question("argmin", "GDP growth", ())),
    (GROWTH, "What's the difference between Italy and Germany?", "5.2",
     Question("difference", "GDP growth", ("Germany", "Italy"))),
    (GROWTH, "How much more did Germany grow than Italy?", "5.2",
     Question("difference", "GDP growth", ("Germany", "Italy"))),
    (PARTY, "What was the share of Republicans in 2020?", "29", Question("value", "Republicans", ("2020",))),
    (PARTY, "In which year did Democrats have the lowest share?", "2018", Question("argmin", "Democrats", ())),
    (VENDORS, "What percentage of shipments did Apple have?", "17.3",
     Question("share", "Share of shipments", ("Apple",))),
    (VENDORS, "What is Samsung's share?", "20.1%", Question("share", "Share of shipments", ("Samsung",))),
    (VENDORS, "Which vendor has the largest share?", "Others", Question("argmax", "Share of shipments", ())),
    (VENDORS, "Which has a larger share, Apple or Xiaomi?", "Apple",
     Question("compare", "Share of shipments", ("Apple", "Xiaomi"))),
    (REVENUE, "What is the average revenue?", "35.72", Question("mean", "Revenue", ())),
    (PARTY, "What is the difference between Democrats and Republicans in 2014?", "9",
     Question("series_difference", "Democrats", ("2014",), "Republicans")),
    (GROWTH, "What's the sum of Italy and Spain?", "-20.2", Question("sum_of", "GDP growth", ("Italy", "Spain"))),
    (VENDORS, "Which has a smaller share, Apple or Xiaomi?", "Xiaomi",
     Question("compare_lower", "Share of shipments", ("Apple", "Xiaomi"))),
]


@pytest.mark.parametrize("chart, text, given, expected", KEPT, ids=[k[1] for k in KEPT])
def test_chartqa_wordings_are_parsed_and_kept(chart, text, given, expected):
    question, report = check_question(chart, GivenQuestion("t", text, given, "q.csv", 2))
    assert report.status is QuestionStatus.KEPT, report.detail
    assert question == expected


REFUSED = [
    (REVENUE, "What is the sum of the three largest bars?", "120.3", "unknown operation: 'three largest'"),
    (REVENUE, "What is the average revenue in 2019?", "35", "unknown operation: an average with one category named"),
    (REVENUE, "What is the ratio of 2021 to 2017?", "1.66", "unknown operation: 'ratio'"),
    (REVENUE, "What is the highest revenue?", "46.2", "unknown operation: the largest value"),
    (REVENUE, "What was the revenue in 2022?", "50", "unknown label: the question names no category"),
    (REVENUE, "What is the second largest revenue?", "39.1", "unknown operation: 'second'"),
    (GROWTH, "How many countries have negative growth?", "4", "unknown operation: 'how many countries'"),
    (GROWTH, "What's the sum of Italy, Spain and Germany?", "-23.9",
     "unknown operation: a sum of 3 named categories"),
    (GROWTH, "What is the difference between the highest and lowest growth?", "17.5",
     "unknown operation: a sum or difference of extremes"),
    (GROWTH, "Is Italy's growth higher than Spain's?", "Yes", "unknown operation: a yes/no question"),
    (PARTY, "Which party had more support in 2014, Democrats or Republicans?", "Democrats",
     "unknown operation: a difference or comparison between two series at one category"),
]


@pytest.mark.parametrize("chart, text, given, detail", REFUSED, ids=[r[1] for r in REFUSED])
def test_unknown_operations_are_never_kept_under_another_meaning(chart, text, given, detail):
    question, report = check_question(chart, GivenQuestion("t", text, given, "q.csv", 2))
    assert question is None and report.status is QuestionStatus.UNRECOGNISED
    assert report.detail.startswith(detail)


@pytest.mark.parametrize("given, kept", [("30.4", True), ("30", True), ("30.40", True), ("31", False),
                                         ("30.5", False), ("1,788", False)])
def test_answers_are_checked_at_their_own_precision(given, kept):
    question, report = check_question(REVENUE, GivenQuestion("t", "What was the revenue in 2018?", given, "q", 2))
    assert (report.status is QuestionStatus.KEPT) == kept


def test_a_disagreeing_answer_says_by_how_much():
    text = "What is the total revenue from 2017 to 2021?"
    question, report = check_question(REVENUE, GivenQuestion("t", text, "170", "q", 2))
    assert report.status is QuestionStatus.DISAGREES
    assert report.detail == "answer disagrees by 8.6: the table gives 178.6 (read as sum Revenue [])"


def test_rounded_answers_round_match_and_others_do_not():
    chart = with_question_words(ChartData(Family.BAR, "t", ("A", "B", "C"), (Series("Share", (1.83, 2.5, 0.7)),)))
    for given, status in (("1.8", QuestionStatus.KEPT), ("1.9", QuestionStatus.DISAGREES),
                          ("1.83", QuestionStatus.KEPT), ("1.830", QuestionStatus.KEPT)):
        _, report = check_question(chart, GivenQuestion("t", "What is the share of A?", given, "q", 2))
        assert report.status is status, given


def test_template_wording_never_says_value_of_value():
    chart = with_question_words(ChartData(Family.GROUPED_BAR, "", ("A", "B"), (Series("x", (1.0, 2.0)),
                                                                            Series("y", (2.0, 3.0)))))
    texts = [i.question for i in instances_from_tables(TableSet((SourceTable("t", chart, "t.csv"),), ())).instances]
    assert texts and not any("value of value" in t for t in texts)


# ---------------------------------------------------------------- digitizing real-shaped charts


class ReadingModel:
    """A stand-in digitizing model with the harness interface: it reads each chart image back as the
    table it was drawn from, in the prompt's format (TITLE line, then a pipe table)."""

    backend = "stand-in"

    def __init__(self, answers):
        self.answers = answers

    def generate(self, requests):
        from rend_equiv_dataset.harness.types import Completion

        return [Completion(self.answers[r.request_id]) for r in requests]


def test_digitize_real_shaped_charts_end_to_end(tmp_path):
    from rend_equiv_dataset.figures.tables.digitized import DigitizeRun, run_digitize

    names = ["co2_owid", "growth_oecd", "revenue_statista", "regions_pew", "cities_cjk"]
    images, answers = tmp_path / "images", {}
    images.mkdir()
    for name in names:
        chart = _table(name).chart
        (images / f"{name}.png").write_bytes(render(chart, base_style()).png)
        header = [chart.x_label, *(f"{s} ({chart.unit})" if chart.unit else s for s in chart.series_names)]
        rows = [[c, *(repr(s.values[i]) for s in chart.series)] for i, c in enumerate(chart.categories)]
        answers[f"{name}.png"] = f"TITLE: {chart.title}\n" + "\n".join(
            "| " + " | ".join(row) + " |" for row in [header, ["---"] * len(header), *rows])
    report = run_digitize(DigitizeRun(images=images, model="stand-in", out=tmp_path / "tables"),
                          load_model=lambda: ReadingModel(answers))
    assert (report.n, report.n_ok) == (len(names), len(names))
    tables = load_tables(tmp_path / "tables")
    assert tables.refused == ()
    for table in tables.tables:
        original = _table(table.table_id).chart
        assert table.chart.categories == original.categories
        assert [s.values for s in table.chart.series] == [s.values for s in original.series]
        assert table.chart.title == original.title and table.chart.unit == original.unit
    build = instances_from_tables(tables, legible=Legibility())
    assert {i.source.split(".")[0] for i in build.instances} == set(names)


# ---------------------------------------------------------------- Our World in Data's long layout

OWID_ONE_YEAR = """Entity,Code,Year,Share of electricity from renewables (%)
Germany,DEU,2019,40.1
France,FRA,2019,20.5*
Spain,ESP,2019,37.4
Italy,ITA,2019,n/a
Poland,POL,2019,15.2
"""


def test_owid_long_layout_of_one_year_has_the_entities_as_categories(tmp_path):
    (tmp_path / "renewables.csv").write_text(OWID_ONE_YEAR)
    table = read_table(tmp_path / "renewables.csv")
    assert table.chart.categories == ("Germany", "France", "Spain", "Poland")
    assert [s.name for s in table.chart.series] == ["Share of electricity from renewables"]
    assert table.chart.series[0].values == (40.1, 20.5, 37.4, 15.2) and table.chart.unit == "%"
    assert "every row is for 2019: column 'Year' dropped" in table.notes
    assert "column 'Code' dropped (codes of the entities)" in table.notes


def test_owid_long_layout_of_one_entity_has_the_years_as_categories():
    table = parse_grid(["Entity", "Code", "Year", "GDP growth (%)"],
                       [["Chile", "CHL", "2019", "0.7"], ["Chile", "CHL", "2020", "-6.1"], ["Chile", "CHL", "2021", "11.3"]])
    assert table.x_label == "Year" and table.categories == ("2019", "2020", "2021")
    assert table.columns[0].values == (0.7, -6.1, 11.3) and table.columns[0].unit == "%"


def test_owid_long_layout_of_entities_over_years_pivots_to_one_series_per_entity():
    rows = [["France", "2018", "5.1"], ["France", "2019", "5.3"], ["France", "2020", "4.6"],
            ["Chile", "2018", "4.4"], ["Chile", "2020", "4.0"]]
    table = parse_grid(["Entity", "Year", "CO2 per capita (t)"], rows)
    assert table.categories == ("2018", "2020")  # 2019 has no value for Chile: dropped, with a note
    assert [(c.name, c.unit, c.values) for c in table.columns] == [("France", "t", (5.1, 4.6)), ("Chile", "t", (4.4, 4.0))]
    assert "category '2019' dropped: no value for 'Chile'" in table.notes


def test_owid_long_layout_errors_name_the_row_of_the_file():
    from rend_equiv_dataset.figures.tables.grid import TableProblem

    rows = [["France", "2018", "5.1"], ["Chile", "2018", "4.4"], ["France", "2019", "about 5"]]
    with pytest.raises(TableProblem) as problem:
        parse_grid(["Entity", "Year", "CO2 per capita (t)"], rows)
    assert problem.value.row == 2 and "about 5" in problem.value.message
    with pytest.raises(TableProblem, match="one value column"):
        parse_grid(["Entity", "Year", "A", "B"], [["x", "2018", "1", "2"], ["y", "2019", "3", "4"]])
    with pytest.raises(TableProblem, match="two rows for 2018"):
        parse_grid(["Entity", "Year", "A"], [["x", "2018", "1"], ["y", "2019", "2"], ["x", "2018", "3"]])
