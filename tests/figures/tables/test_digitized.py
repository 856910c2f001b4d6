"""The strict parser of a model's table transcription, on hand-written outputs, and its failure counts."""

import pytest

from rend_equiv_dataset.figures.tables.digitized import (
    DIGITIZE_PROMPT,
    FailureReason,
    parse_model_table,
    summarize,
)

# (id, model output, categories, {series: values}, unit, title)
CLEAN = [
    (
        "markdown",
        "| Year | Sales |\n|---|---|\n| 2020 | 1.5 |\n| 2021 | 2 |",
        ("2020", "2021"), {"Sales": (1.5, 2.0)}, "", None,
    ),
    (
        "markdown_title",
        "TITLE: Revenue by region\n| Region | Revenue (million USD) |\n| --- | --- |\n| North | 1,250.5 |\n"
        "| South | 980 |",
        ("North", "South"), {"Revenue": (1250.5, 980.0)}, "million USD", "Revenue by region",
    ),
    (
        "no_outer_pipes",
        "Country | GDP\n--- | ---\nFrance | 2.9\nJapan | 4.2\nBrazil | 1.9",
        ("France", "Japan", "Brazil"), {"GDP": (2.9, 4.2, 1.9)}, "", None,
    ),
    (
        "aligned_separator",
        "| Party | Share (%) |\n|:------|------:|\n| A | 40 |\n| B | 35 |\n| C | 25 |",
        ("A", "B", "C"), {"Share": (40.0, 35.0, 25.0)}, "%", None,
    ),
    (
        "no_separator_row",
        "| Month | Visitors |\n| Jan | 120 |\n| Feb | 95 |",
        ("Jan", "Feb"), {"Visitors": (120.0, 95.0)}, "", None,
    ),
    (
        "csv_plain",
        "Year,Coal,Gas\n2019,10,20\n2020,8,24",
        ("2019", "2020"), {"Coal": (10.0, 8.0), "Gas": (20.0, 24.0)}, "", None,
    ),
    (
        "csv_quoted_thousands",
        'City,Population (thousands)\nLyon,"1,720"\nNice,"1,006.4"',
        ("Lyon", "Nice"), {"Population": (1720.0, 1006.4)}, "thousands", None,
    ),
    (
        "fence_plain",
        "```\n| Team | Wins |\n|---|---|\n| Red | 12 |\n| Blue | 9 |\n```",
        ("Red", "Blue"), {"Wins": (12.0, 9.0)}, "", None,
    ),
    (
        "fence_markdown_lang",
        "```markdown\n| Team | Wins |\n|---|---|\n| Red | 12 |\n| Blue | 9 |\n```",
        ("Red", "Blue"), {"Wins": (12.0, 9.0)}, "", None,
    ),
    (
        "fence_csv_with_prose_around",
        "Here is the table you asked for:\n\n```csv\nYear,Rate (%)\n2020,3.1\n2021,4.7\n```\nLet me know!",
        ("2020", "2021"), {"Rate": (3.1, 4.7)}, "%", None,
    ),
    (
        "fence_unclosed",
        "```\nItem,Cost ($)\nBread,2.5\nMilk,1.25\n",
        ("Bread", "Milk"), {"Cost": (2.5, 1.25)}, "$", None,
    ),
    (
        "percent_cells",
        "| Option | Share |\n|---|---|\n| Yes | 54% |\n| No | 46% |",
        ("Yes", "No"), {"Share": (54.0, 46.0)}, "%", None,
    ),
    (
        "percent_cells_and_header",
        "| Option | Share (%) |\n|---|---|\n| Yes | 54% |\n| No | 46% |",
        ("Yes", "No"), {"Share": (54.0, 46.0)}, "%", None,
    ),
    (
        "currency_cells",
        "| Product | Price |\n|---|---|\n| Tea | $3.50 |\n| Coffee | $4 |",
        ("Tea", "Coffee"), {"Price": (3.5, 4.0)}, "$", None,
    ),
    (
        "negative_values",
        "| Quarter | Growth (%) |\n|---|---|\n| Q1 | -1.2 |\n| Q2 | 0.4 |\n| Q3 | \u22120.3 |",
        ("Q1", "Q2", "Q3"), {"Growth": (-1.2, 0.4, -0.3)}, "%", None,
    ),
    (
        "unit_after_in",
        "| Year | Revenue in billion euros |\n|---|---|\n| 2022 | 12 |\n| 2023 | 14.5 |",
        ("2022", "2023"), {"Revenue": (12.0, 14.5)}, "billion euros", None,
    ),
    (
        "multi_series_with_units",
        "TITLE: Exports and imports\n| Year | Exports (bn USD) | Imports (bn USD) |\n|---|---|---|\n"
        "| 2021 | 1,050 | 980 |\n| 2022 | 1,120.5 | 1,010 |",
        ("2021", "2022"), {"Exports": (1050.0, 1120.5), "Imports": (980.0, 1010.0)}, "bn USD", "Exports and imports",
    ),
    (
        "deplot_linearised",
        "TITLE | Share of voters <0x0A> Party | Share <0x0A> Greens | 12 <0x0A> Liberals | 30",
        ("Greens", "Liberals"), {"Share": (12.0, 30.0)}, "", "Share of voters",
    ),
    (
        "title_lower_case",
        "title: Rainfall\nMonth,Rain (mm)\nMay,40\nJune,55",
        ("May", "June"), {"Rain": (40.0, 55.0)}, "mm", "Rainfall",
    ),
    (
        "windows_newlines_and_padding",
        "  | Day | Steps |\r\n|---|---|\r\n|  Mon  |  8,000  |\r\n| Tue | 10,250 |\r\n\r\n",
        ("Mon", "Tue"), {"Steps": (8000.0, 10250.0)}, "", None,
    ),
    (
        "scientific_notation",
        "| Sample | Concentration (mol/L) |\n|---|---|\n| A | 1e-05 |\n| B | 2.5E-4 |",
        ("A", "B"), {"Concentration": (1e-05, 2.5e-4)}, "mol/L", None,
    ),
]


@pytest.mark.parametrize("case", CLEAN, ids=[c[0] for c in CLEAN])
def test_clean_outputs_parse_exactly(case):
    _, text, categories, series, unit, title = case
    result = parse_model_table(text)
    assert result.ok, result.detail
    table = result.table
    assert table.categories == categories
    assert {c.name: c.values for c in table.columns} == series
    assert table.unit == unit
    assert table.title == title


# (id, model output, reason, words in the detail, expected category count)
MALFORMED = [
    ("empty", "", FailureReason.EMPTY_OUTPUT, "empty", None),
    ("whitespace", "  \n\t\n", FailureReason.EMPTY_OUTPUT, "empty", None),
    ("refusal", "I'm sorry, I cannot extract data from this image.", FailureReason.UNPARSEABLE, "no table", None),
    ("prose_before_unfenced_table", "Here is the data:\n| A | B |\n| x | 1 |\n| y | 2 |", FailureReason.UNPARSEABLE,
     "no table", None),
    ("single_column", "Year\n2020\n2021", FailureReason.UNPARSEABLE, "no table", None),
    ("header_only", "| Year | Sales |\n|---|---|", FailureReason.UNPARSEABLE, "no table", None),
    ("empty_fence", "```\n```", FailureReason.EMPTY_OUTPUT, "empty", None),
    ("one_row", "| Year | Sales |\n|---|---|\n| 2020 | 5 |", FailureReason.WRONG_CATEGORY_COUNT, "at least 2", None),
    ("ragged_long", "| Year | Sales |\n|---|---|\n| 2020 | 5 | 7 |\n| 2021 | 6 |", FailureReason.RAGGED_ROWS,
     "data row 1", None),
    ("ragged_short", "Year,A,B\n2020,1,2\n2021,3", FailureReason.RAGGED_ROWS, "data row 2", None),
    ("non_numeric_word", "| Year | Sales |\n|---|---|\n| 2020 | five |\n| 2021 | 6 |", FailureReason.NON_NUMERIC_CELL,
     "'five'", None),
    ("non_numeric_unit_in_cell", "| Year | Mass |\n|---|---|\n| 2020 | 5 kg |\n| 2021 | 6 kg |",
     FailureReason.NON_NUMERIC_CELL, "'5 kg'", None),
    ("non_numeric_approx", "| Year | Sales |\n|---|---|\n| 2020 | ~5 |\n| 2021 | 6 |", FailureReason.NON_NUMERIC_CELL,
     "'~5'", None),
    ("missing_cell_leaves_one_category", "| Year | Sales |\n|---|---|\n| 2020 |  |\n| 2021 | 6 |",
     FailureReason.WRONG_CATEGORY_COUNT, "missing values", None),
    ("non_numeric_word", "| Year | Sales |\n|---|---|\n| 2020 | many |\n| 2021 | 6 |", FailureReason.NON_NUMERIC_CELL,
     "'many'", None),
    ("non_numeric_bad_grouping", "Year,Sales\n2020,\"12,34\"\n2021,6", FailureReason.NON_NUMERIC_CELL, "'12,34'", None),
    ("csv_unquoted_thousands", "Year,Sales\n2020,1,234\n2021,987", FailureReason.RAGGED_ROWS, "data row 1", None),
    ("duplicate_category", "| Year | Sales |\n|---|---|\n| 2020 | 5 |\n| 2020 | 6 |", FailureReason.DUPLICATE_CATEGORY,
     "'2020'", None),
    ("mixed_percent", "| Option | Share |\n|---|---|\n| Yes | 54% |\n| No | 46 |", FailureReason.MIXED_UNITS, "mix",
     None),
    ("two_units", "| Year | A (USD) | B (%) |\n|---|---|---|\n| 1 | 2 | 3 |\n| 2 | 3 | 4 |", FailureReason.MIXED_UNITS,
     "different units", None),
    ("wrong_count_fewer", "| k | v |\n|---|---|\n| a | 1 |\n| b | 2 |", FailureReason.WRONG_CATEGORY_COUNT,
     "expected 3", 3),
    ("wrong_count_more", "k,v\na,1\nb,2\nc,3\nd,4", FailureReason.WRONG_CATEGORY_COUNT, "has 4", 3),
    ("mixed_pipes_and_commas", "Year, Sales\n| 2020 | 5 |\n| 2021 | 6 |", FailureReason.UNPARSEABLE, "no table", None),
    ("empty_series_header", "| Year | |\n|---|---|\n| 2020 | 5 |\n| 2021 | 6 |", FailureReason.UNPARSEABLE,
     "empty header", None),
    ("bad_csv_quote", 'Year,Sales\n2020,"5\n2021,6', FailureReason.UNPARSEABLE, "no table", None),
]


@pytest.mark.parametrize("case", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_malformed_outputs_are_characterized(case):
    _, text, reason, words, expected = case
    result = parse_model_table(text, expected_categories=expected)
    assert not result.ok and result.table is None
    assert result.reason is reason
    assert words in result.detail


def test_expected_count_that_matches_passes():
    assert parse_model_table("k,v\na,1\nb,2\nc,3", expected_categories=3).ok


def test_at_least_thirty_hand_written_outputs():
    assert len(CLEAN) + len(MALFORMED) >= 30


def test_summary_counts_every_reason_and_the_success_rate():
    outcomes = [parse_model_table(c[1]) for c in CLEAN] + [
        parse_model_table(c[1], expected_categories=c[4]) for c in MALFORMED
    ]
    report = summarize(outcomes)
    assert report.n == len(CLEAN) + len(MALFORMED)
    assert report.n_ok == len(CLEAN)
    assert sum(report.failures.values()) == len(MALFORMED)
    assert set(report.failures) == {r.value for r in FailureReason}
    assert report.failures["non_numeric_cell"] == 5
    assert report.failures["wrong_category_count"] == 4
    assert report.failures["model_error"] == 0
    assert report.to_dict()["success_rate"] == pytest.approx(len(CLEAN) / report.n)
    assert summarize([]).success_rate == 0.0


def test_prompt_documents_the_format_the_parser_reads():
    example = "\n".join(line for line in DIGITIZE_PROMPT.splitlines() if line.startswith(("TITLE", "|")))
    filled = example.replace("<the chart title>", "T").replace("<category axis title>", "Year")
    filled = filled.replace("<series 1 name (unit)>", "A (USD)").replace("<series 2 name (unit)>", "B (USD)")
    filled = filled.replace("<category 1>", "2020").replace("<number>", "1")
    result = parse_model_table(filled + "\n| 2021 | 2 | 3 |")
    assert result.ok and result.table.title == "T" and result.table.unit == "USD"
