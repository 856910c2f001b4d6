"""Table import: ChartQA-shaped CSV, JSON, side files, questions, and every bad input named by file/line/column."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.tables.export import chart_to_grid, write_table_dir
from rend_equiv_dataset.figures.tables.grid import is_descending, parse_number, split_header
from rend_equiv_dataset.figures.tables.read import load_tables, read_table

FIXTURES = Path(__file__).parent / "data" / "tables" / "chartqa"


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- real-looking tables


def test_chartqa_single_series_with_thousands_separators_and_unit_after_in():
    table = read_table(FIXTURES / "revenue.csv")
    chart = table.chart
    assert table.table_id == "revenue"
    assert chart.family is Family.BAR
    assert chart.title == "Annual revenue of Example Corp from 2016 to 2019"
    assert chart.categories == ("2016", "2017", "2018", "2019")
    assert chart.values() == (1234.5, 1502.0, 1788.25, 2010.0)
    assert chart.series_names == ("Revenue",)
    assert chart.unit == "million U.S. dollars"
    assert (chart.x_label, chart.y_label) == ("Characteristic", "Revenue")


def test_multi_series_percent_cells_over_years_is_a_line_chart():
    chart = read_table(FIXTURES / "party.csv").chart
    assert chart.family is Family.LINE
    assert chart.series_names == ("Democrats", "Republicans", "Independents")
    assert chart.values("Republicans") == (23.0, 26.0, 26.0, 29.0)
    assert chart.unit == "%"
    assert chart.title == "Democrats, Republicans and Independents by year"  # from the headers, never the id


def test_one_series_of_shares_summing_to_100_is_a_pie():
    chart = read_table(FIXTURES / "vendors.csv").chart
    assert chart.family is Family.PIE
    assert chart.unit == "%"
    assert sum(chart.values()) == pytest.approx(100.0)


def test_title_column_and_named_categories_give_a_grouped_bar():
    chart = read_table(FIXTURES / "energy.csv").chart
    assert chart.family is Family.GROUPED_BAR
    assert chart.title == "Electricity generation by source"
    assert chart.series_names == ("Coal", "Gas")
    assert chart.values("Gas") == (520.0, 110.25, 1290.0)
    assert chart.unit == "TWh"


def test_json_table_mixes_string_and_number_cells_and_keeps_its_labels():
    chart = read_table(FIXTURES / "budget.json").chart
    assert chart.family is Family.BAR
    assert chart.values() == (1250.5, 980.0, 310.0)
    assert (chart.title, chart.y_label, chart.unit) == ("Departmental budget", "Budget", "k EUR")


def test_folder_reads_every_table_in_id_order_with_questions():
    tables = load_tables(FIXTURES)
    assert [t.table_id for t in tables.tables] == ["brands", "budget", "energy", "party", "revenue", "vendors"]
    assert [t.source for t in tables.tables][1] == "budget.json"
    assert [(q.table_id, q.line) for q in tables.questions] == [("revenue", 2), ("vendors", 3), ("party", 4)]
    assert tables.questions[0].answer == "1,788.25"


def test_user_family_overrides_inference_and_is_checked(tmp_path):
    assert load_tables(FIXTURES / "vendors.csv", family=Family.BAR).tables[0].chart.family is Family.BAR
    chart = read_table(FIXTURES / "energy.csv", family=Family.STACKED_BAR).chart
    assert chart.family is Family.STACKED_BAR
    with pytest.raises(InputError) as err:
        read_table(FIXTURES / "party.csv", family=Family.PIE)
    assert err.value.field == "family" and "one series" in err.value.message
    assert str(err.value.file).endswith("party.csv")


def test_scatter_takes_x_then_y(tmp_path):
    two_units = "Country,GDP per capita (k USD),Life expectancy (years)\nA,10,70\nB,20,75\n"
    with pytest.raises(InputError, match="mixed_units"):
        read_table(_write(tmp_path, "u.csv", two_units), family=Family.SCATTER)
    chart = read_table(_write(tmp_path, "s.csv", "Country,GDP,Life expectancy\nA,10,70\nB,20,75\n"),
                       family=Family.SCATTER).chart
    assert chart.x_values == (10.0, 20.0) and chart.values() == (70.0, 75.0)
    assert chart.x_label == "GDP" and chart.series_names == ("Life expectancy",)
    with pytest.raises(InputError, match="two value columns"):
        read_table(_write(tmp_path, "b.csv", "k,v\nA,1\nB,2\n"), family=Family.SCATTER)


# ---------------------------------------------------------------- cells and headers


@pytest.mark.parametrize(
    "cell, expected",
    [
        ("1,234", (1234.0, "")),
        ("1,234,567.25", (1234567.25, "")),
        (" 45% ", (45.0, "%")),
        ("-2.5", (-2.5, "")),
        ("\u22122.5", (-2.5, "")),
        ("$1,200", (1200.0, "$")),
        ("€3", (3.0, "€")),
        ("1e-05", (1e-05, "")),
        ("1.5e+20", (1.5e20, "")),
        (".5", (0.5, "")),
        (7, (7.0, "")),
        ("12,34", None),
        ("1,2345", None),
        ("1.2.3", None),
        ("12 kg", None),
        ("", None),
        ("N/A", None),
        ("$5%", None),
        (float("nan"), None),
        ("1e999", None),
        (False, None),
    ],
)
def test_parse_number(cell, expected):
    assert parse_number(cell) == expected


@pytest.mark.parametrize(
    "header, expected",
    [
        ("Revenue (million USD)", ("Revenue", "million USD")),
        ("Share (%)", ("Share", "%")),
        ("Share [%]", ("Share", "%")),
        ("Sales in thousands", ("Sales", "thousands")),
        ("Share in percent", ("Share", "percent")),
        ("Made in China", ("Made in China", "")),
        ("GDP (PPP) (bn USD)", ("GDP (PPP)", "bn USD")),
        ("(USD)", ("(USD)", "")),
        ("2024", ("2024", "")),
    ],
)
def test_split_header(header, expected):
    assert split_header(header) == expected


# ---------------------------------------------------------------- bad input


BAD_CSV = [
    ("ragged_long", "Year,Sales\n2020,1\n2021,2,3\n", 3, "column 3", "ragged_rows"),
    ("ragged_short", "Year,Sales,Cost\n2020,1,2\n2021,2\n", 3, "column 3", "ragged_rows"),
    ("header_only", "Year,Sales\n", 1, None, "empty_table"),
    ("duplicate", "Year,Sales\n2020,1\n2021,2\n2020,3\n", 4, "column 1", "duplicate_category"),
    ("non_numeric", "Year,Sales (USD)\n2020,1\n2021,about 2\n", 3, "column 2 ('Sales (USD)')", "non_numeric_cell"),
    ("empty_cell", "Year,Sales\n2020,1\n2021,\n", 1, None, "too_few_categories"),
    ("empty_label", "Year,Sales\n2020,1\n,2\n", 3, "column 1", "non_numeric_cell"),
    ("one_category", "Year,Sales\n2020,1\n", 1, None, "too_few_categories"),
    ("no_series", "Year\n2020\n2021\n", 1, None, "no_series"),
    ("mixed_percent", "Year,Share\n2020,10%\n2021,12\n", 1, "column 2 ('Share')", "mixed_units"),
    ("header_vs_cell", "Year,Share (USD)\n2020,10%\n2021,12%\n", 1, "column 2 ('Share (USD)')", "mixed_units"),
    ("two_units", "Year,A (USD),B (%)\n2020,1,2\n2021,2,3\n", 1, "A, B", "mixed_units"),
    ("blank_lines_count", "Year,Sales\n\n2020,1\n\n2021,x\n", 5, "column 2 ('Sales')", "non_numeric_cell"),
]


@pytest.mark.parametrize("name, text, line, column, problem", BAD_CSV, ids=[b[0] for b in BAD_CSV])
def test_bad_csv_names_file_line_and_column(tmp_path, name, text, line, column, problem):
    path = _write(tmp_path, f"{name}.csv", text)
    with pytest.raises(InputError) as err:
        read_table(path)
    assert err.value.file == path
    assert err.value.line == line
    assert err.value.field == column
    assert err.value.message.startswith(problem)


def test_empty_and_whitespace_files(tmp_path):
    for text in ("", "\n\n  \n"):
        with pytest.raises(InputError, match="empty_table") as err:
            read_table(_write(tmp_path, "e.csv", text))
        assert err.value.line == 1


def test_malformed_csv_quote_and_non_utf8(tmp_path):
    with pytest.raises(InputError, match="malformed CSV") as err:
        read_table(_write(tmp_path, "q.csv", 'Year,Sales\n2020,"1\n'))
    assert err.value.line is not None
    path = tmp_path / "latin.csv"
    path.write_bytes("Year,Ventes\n2020,1\n2021,é\n".encode("latin-1"))
    with pytest.raises(InputError, match="not UTF-8"):
        read_table(path)


@pytest.mark.parametrize(
    "text, field",
    [
        ('{"columns": ["a", "b"], "rows": [["x", 1], ["y", "z"]]}', "rows[1] column 2 ('b')"),
        ('{"columns": ["a", "b"], "rows": [["x", 1], ["y"]]}', "rows[1] column 2"),
        ('{"columns": ["a", "b"], "rows": [["x", 1], ["y", true]]}', "rows[1] column 2 ('b')"),
        ('{"columns": ["a", "b"], "rows": [["x", 1], ["y", null]]}', "rows[1]"),
        ('{"columns": ["a", "b"], "rows": "x"}', "rows"),
        ('{"columns": ["a", 3], "rows": []}', "columns"),
        ('{"columns": ["a", "b"], "rows": [["x", 1], ["y", 2]], "colour": "red"}', "colour"),
        ('{"columns": ["a", "b"], "rows": [["x", 1], ["y", 2]], "family": "donut"}', "family"),
        ('{"columns": ["a", "b"], "rows": [["x", 1], ["y", 2]], "title": 5}', "title"),
        ('{"columns": ["a", "b"], "rows": [["x", 1], ["x", 2]]}', "rows[1] column 1"),
    ],
)
def test_bad_json_tables_name_the_field(tmp_path, text, field):
    path = _write(tmp_path, "t.json", text)
    with pytest.raises(InputError) as err:
        read_table(path)
    assert err.value.file == path and err.value.field == field


def test_invalid_json_reports_its_line(tmp_path):
    with pytest.raises(InputError, match="not valid JSON") as err:
        read_table(_write(tmp_path, "t.json", '{\n "columns": [\n'))
    assert err.value.line == 3


def test_unknown_family_lists_the_choices(tmp_path):
    _write(tmp_path, "t.csv", "a,b\nx,1\ny,2\n")
    _write(tmp_path, "t.meta.json", '{"family": "donut"}')
    with pytest.raises(InputError, match="unknown chart family 'donut'; expected one of bar") as err:
        load_tables(tmp_path, strict=True)
    assert err.value.field == "family"


def test_side_files_are_checked(tmp_path):
    _write(tmp_path, "t.csv", "a,b\nx,1\ny,2\n")
    _write(tmp_path, "t.title.txt", "One\nTwo\n")
    with pytest.raises(InputError, match="one line"):
        load_tables(tmp_path, strict=True)
    _write(tmp_path, "t.title.txt", "One\n")
    _write(tmp_path, "t.meta.json", '{"title": "Other"}')
    with pytest.raises(InputError, match="given twice"):
        load_tables(tmp_path, strict=True)
    _write(tmp_path, "t.meta.json", '{"legend": "left"}')
    with pytest.raises(InputError, match="unexpected keys") as err:
        load_tables(tmp_path, strict=True)
    assert err.value.field == "legend"


def test_questions_naming_unknown_tables_and_bad_rows(tmp_path):
    _write(tmp_path, "sales.csv", "Year,Sales\n2020,1\n2021,2\n")
    _write(tmp_path, "questions.csv", "table_id,question,answer\nsales,What?,1\nsalez,What?,2\n")
    with pytest.raises(InputError, match="unknown table 'salez'") as err:
        load_tables(tmp_path)
    assert (err.value.line, err.value.field) == (3, "table_id")
    _write(tmp_path, "questions.csv", "table_id,question,answer\nsales,,1\n")
    with pytest.raises(InputError) as err:
        load_tables(tmp_path)
    assert (err.value.line, err.value.field) == (2, "question")
    _write(tmp_path, "questions.csv", "table,question,answer\nsales,What?,1\n")
    with pytest.raises(InputError, match="header must be") as err:
        load_tables(tmp_path)
    _write(tmp_path, "questions.csv", "table_id,question,answer\nsales,What?,1,2\n")
    with pytest.raises(InputError, match="ragged_rows") as err:
        load_tables(tmp_path)
    assert err.value.line == 2


def test_questions_jsonl(tmp_path):
    _write(tmp_path, "sales.csv", "Year,Sales\n2020,1\n2021,2\n")
    _write(tmp_path, "questions.jsonl", '{"table_id": "sales", "question": "Q?", "answer": 2.5}\n\n')
    assert load_tables(tmp_path).questions[0].answer == "2.5"
    _write(tmp_path, "questions.jsonl", '{"table_id": "sales", "question": "Q?"}\n')
    with pytest.raises(InputError, match="exactly the keys") as err:
        load_tables(tmp_path)
    assert err.value.line == 1
    _write(tmp_path, "questions.jsonl", '\n{"table_id": "sales", "question": "Q?", "answer": [1]}\n')
    with pytest.raises(InputError) as err:
        load_tables(tmp_path)
    assert (err.value.line, err.value.field) == (2, "answer")
    _write(tmp_path, "questions.csv", "table_id,question,answer\n")
    with pytest.raises(InputError, match="not both"):
        load_tables(tmp_path)


def test_folder_level_problems(tmp_path):
    with pytest.raises(InputError, match="no such file") as err:
        load_tables(tmp_path / "missing")
    assert err.value.field == "--from-tables"
    with pytest.raises(InputError, match="no .csv"):
        load_tables(tmp_path)
    _write(tmp_path, "a.csv", "k,v\nx,1\ny,2\n")
    _write(tmp_path, "a.json", '{"columns": ["k", "v"], "rows": [["x", 1], ["y", 2]]}')
    with pytest.raises(InputError, match="also used by"):
        load_tables(tmp_path)
    with pytest.raises(InputError, match="expected a .csv"):
        read_table(_write(tmp_path, "a.xlsx", ""))


def test_ignored_files(tmp_path):
    _write(tmp_path, "a.csv", "k,v\nx,1\ny,2\n")
    _write(tmp_path, "_report.json", "{}")
    _write(tmp_path, ".hidden.csv", "nonsense")
    (tmp_path / "sub").mkdir()
    _write(tmp_path / "sub", "b.csv", "nonsense")
    assert [t.table_id for t in load_tables(tmp_path).tables] == ["a"]


# ---------------------------------------------------------------- export round trip

_label = st.text(alphabet="abcdefgh XYZ0123-", min_size=1, max_size=8).map(str.strip).filter(bool)


@st.composite
def charts(draw):
    family = draw(st.sampled_from([Family.BAR, Family.GROUPED_BAR, Family.LINE, Family.STACKED_BAR, Family.SCATTER]))
    n = draw(st.integers(2, 7))
    categories = draw(st.lists(_label, min_size=n, max_size=n, unique=True).filter(lambda c: not is_descending(c)))
    n_series = {Family.BAR: 1, Family.SCATTER: 1}.get(family, draw(st.integers(2, 4)))
    # Series names are distinct up to case (a question names them folded); "x" heads a scatter's x column.
    names = draw(st.lists(_label.filter(lambda s: s.lower() not in ("title", "x")), min_size=n_series,
                          max_size=n_series, unique_by=str.lower))
    low = 0.0 if family is Family.STACKED_BAR else -1e9
    # Values a real table holds: six decimals at most, none so small it would be re-expressed in a smaller unit.
    number = st.floats(low, 1e9, allow_nan=False).map(lambda v: round(v, 6)).filter(lambda v: v == 0 or abs(v) >= 1e-5)
    values = st.lists(number, min_size=n, max_size=n)
    series = tuple(Series(name, tuple(draw(values))) for name in names)
    x_values = tuple(draw(values)) if family is Family.SCATTER else None
    return ChartData(family=family, title=draw(_label), categories=tuple(categories), series=series,
                     x_label=draw(st.sampled_from(["", "Year", "GDP"])), y_label=draw(_label),
                     unit=draw(st.sampled_from(["", "%", "million USD", "k units"])), x_values=x_values,
                     value_range=(-1.0, 1.0))


@given(charts=st.lists(charts(), min_size=1, max_size=3))
def test_export_then_import_is_exact(tmp_path_factory, charts):
    out = tmp_path_factory.mktemp("export") / "tables"
    items = [(f"t{i}", c) for i, c in enumerate(charts)]
    write_table_dir(items, [("t0", "What is it?", "1")], out)
    back = load_tables(out)
    assert [t.chart for t in back.tables] == [c.replace(value_range=None) for _, c in items]
    assert [(q.table_id, q.question, q.answer) for q in back.questions] == [("t0", "What is it?", "1")]


def test_export_refuses_charts_that_would_not_read_back(tmp_path):
    chart = ChartData(family=Family.BAR, title="t", categories=("A", "B"),
                      series=(Series("Revenue (USD)", (1.0, 2.0)),))
    with pytest.raises(InputError, match="reads back unchanged") as err:
        write_table_dir([("x", chart)], [], tmp_path / "out")
    assert err.value.field == "x"
    assert not (tmp_path / "out").exists()
    good = chart.replace(series=(Series("Revenue", (1.0, 2.0)),))
    for bad_id in ("", "_x", "a/b", "questions.csv"):
        with pytest.raises(InputError, match="file name"):
            write_table_dir([(bad_id, good)], [], tmp_path / "out")
    with pytest.raises(InputError, match="unique"):
        write_table_dir([("a", good), ("a", good)], [], tmp_path / "out")


def test_grid_of_a_scatter_chart():
    chart = ChartData(family=Family.SCATTER, title="t", categories=("A", "B"), series=(Series("y", (3.0, 4.0)),),
                      x_label="x", x_values=(1.0, 2.0))
    assert chart_to_grid(chart) == (["", "x", "y"], [["A", "1.0", "3.0"], ["B", "2.0", "4.0"]])
