"""Answer parsing on real-looking model outputs (docs/design.md §3.5)."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rend_equiv_dataset.figures.answers.parse import normalize_label, parse_answer

LABELS = ("Apples", "Bananas", "New York", "North", "North East", "Q1 2020", "2019")

NUMBER_CASES = [
    ("42", 42.0),
    ("42.", 42.0),
    ("The answer is 42.", 42.0),
    ("The answer is 1,234.", 1234.0),
    ("Answer: 1,234,567.89", 1234567.89),
    ("Final answer: -3.5", -3.5),
    ("final answer: +7", 7.0),
    ("The value is −12.25", -12.25),
    ("About 45%", 45.0),
    ("The share of Apples is 37.5 %.", 37.5),
    ("$1,200", 1200.0),
    ("It is $ 3.10 per unit", 3.10),
    ("€15", 15.0),
    ("12 kg", 12.0),
    ("The total is 250 units.", 250.0),
    ("1.2e3", 1200.0),
    ("The answer is 2.5E-2", 0.025),
    ("Approximately 3.4 million", 3.4e6),
    ("1.5 billion dollars", 1.5e9),
    ("Around 12k", 12000.0),
    ("The value is 2.1M.", 2.1e6),
    ("It reached 4 thousand", 4000.0),
    (".75", 0.75),
    ("The difference between 2019 and 2020 is 15.", 15.0),
    ("In 2019 the value was 48.", 48.0),
    ("The bar for Q3 reaches about 61.", 61.0),
    ("Looking at the chart, Apples = 30 and Bananas = 20, so the sum is 50.", 50.0),
    ("The answer is 0", 0.0),
    ("0.0", 0.0),
    ("  17  \n", 17.0),
    ("**23**", 23.0),
    ("Answer: **8.5**", 8.5),
    ("The highest value is 99.9 (in March).", 99.9),
    ("seven", 7.0),
    ("The answer is twelve.", 12.0),
    ("-0.5", -0.5),
    ("Value: 3,000", 3000.0),
    ("The answer is 10, because the bar ends at 10.", 10.0),
    ("I think it is roughly 5.", 5.0),
    ("The sum of the values is 1,050.", 1050.0),
    # Chinese, Japanese and Korean write numbers against the characters around them
    ("Answer: ２０１９年", 2019.0),
    ("答案：约42%", 42.0),
    ("合計は１，２５０です。", 1250.0),
    ("정답: 42개", 42.0),
]

UNPARSEABLE_NUMBERS = [
    "",
    "   ",
    "I cannot determine the value from the chart.",
    "The answer is unclear.",
    "N/A",
    "Sorry, I can't help with that.",
    "The model id is gpt4o",  # digits glued to Latin letters are no number
]

LABEL_CASES = [
    ("Apples", "Apples"),
    ("apples", "Apples"),
    ("APPLES", "Apples"),
    ("The answer is Bananas.", "Bananas"),
    ("Answer: new york", "New York"),
    ("newyork", "New York"),
    ("New  York has the largest value.", "New York"),
    ("The largest category is North East.", "North East"),
    ("North", "North"),
    ("north east", "North East"),
    ("Q1 2020", "Q1 2020"),
    ("The answer is q1 2020", "Q1 2020"),
    ("2019", "2019"),
    ("**Bananas**", "Bananas"),
    ("'Apples'", "Apples"),
    ("Looking at the chart, the tallest bar is Apples, then Bananas. The answer is Bananas.", "Bananas"),
    ("Bananas is larger than Apples.", "Bananas"),
    ("Final answer: APPLES", "Apples"),
]

UNPARSEABLE_LABELS = [
    "Cherries",
    "Pineapples",
    "None of them",
    "",
    "The answer is 42",
    "NorthEastern",
]


@pytest.mark.parametrize(("text", "expected"), NUMBER_CASES)
def test_numbers(text, expected):
    assert parse_answer(text, "number") == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("text", UNPARSEABLE_NUMBERS)
def test_unparseable_numbers_are_none(text):
    assert parse_answer(text, "number") is None


@pytest.mark.parametrize(("text", "expected"), LABEL_CASES)
def test_labels(text, expected):
    assert parse_answer(text, "label", LABELS) == expected


@pytest.mark.parametrize("text", UNPARSEABLE_LABELS)
def test_unparseable_labels_are_none(text):
    assert parse_answer(text, "label", LABELS) is None


def test_table_is_large_enough():
    assert len(NUMBER_CASES) + len(UNPARSEABLE_NUMBERS) + len(LABEL_CASES) + len(UNPARSEABLE_LABELS) >= 60


@pytest.mark.parametrize("value", [None, 12, 3.5, ["a"], {"x": 1}])
def test_non_string_output_is_unparseable(value):
    assert parse_answer(value, "number") is None
    assert parse_answer(value, "label", LABELS) is None


@given(st.text(max_size=200), st.sampled_from(["number", "label"]))
def test_never_raises(text, answer_type):
    result = parse_answer(text, answer_type, LABELS)
    assert result is None or isinstance(result, (float, str))
    if isinstance(result, str):
        assert result in LABELS


@given(st.floats(min_value=-1e9, max_value=1e9, allow_nan=False).map(lambda x: round(x, 4)))
def test_round_trip_of_formatted_numbers(value):
    assert parse_answer(f"The answer is {value:,}", "number") == pytest.approx(value, rel=1e-9, abs=1e-9)


def test_normalize_label_ignores_case_and_spaces():
    assert normalize_label("North  East") == normalize_label("northeast")


UNIT_CASES = [
    ("How many visitors in Q3 2023, in thousand?", "55", 55.0),
    ("How many visitors in Q3 2023, in thousand?", "About 55 thousand visitors.", 55.0),
    ("How many visitors in Q3 2023, in thousand?", "55k", 55.0),
    ("How many visitors in Q3 2023, in thousand?", "1.2 million", 1200.0),
    ("What are the exports of Chile, in bn USD?", "12.5 bn USD", 12.5),
    ("What are the exports of Chile, in bn USD?", "The answer is 12.5", 12.5),
    ("What is the median income, in k USD?", "$45k", 45.0),
    ("What is the median income, in k USD?", "45 k USD", 45.0),
    ("What is the budget of Legal, in k EUR?", "120", 120.0),
    ("What percentage of the total budget does Legal account for?", "23.5%", 23.5),
    ("What is the value of the first bar?", "1.5 million", 1.5e6),
    (None, "2 thousand", 2000.0),
]


@pytest.mark.parametrize(("question", "text", "expected"), UNIT_CASES)
def test_numbers_are_read_in_the_question_unit(question, text, expected):
    assert parse_answer(text, "number", question=question) == pytest.approx(expected)


LONG_COT = "Let me look at the bars again. Japan is about 30, France 12, maybe 13. " * 20000


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (LONG_COT + "\n\nFinal answer: 30.5", 30.5),
        ("<think>" + LONG_COT + "</think>\n\n30.5", 30.5),
        ("The answer is 12. " + "To answer this, look again. " * 30000 + "Answer: 30.5", 30.5),
        ("12 " * 300000, 12.0),
        ("1, " * 200000 + "\nSo the value is 5.", 5.0),
        ("answer " * 100000, None),
        ("<think>" * 50000, None),
        ("-" * 100000 + "\n7", 7.0),
    ],
)
def test_megabyte_outputs_are_read(text, expected):
    result = parse_answer(text, "number", ("Japan", "France"), "What are the exports of Japan?")
    assert result == expected


@given(st.text(alphabet="0123456789 .,-−–%$kMB\u2009\u00a0abcinorsth<>/=+*()", max_size=300))
def test_number_like_noise_never_raises(text):
    result = parse_answer(text, "number", ("Japan",), "What is the value for Japan, in thousands?")
    assert result is None or isinstance(result, float)


_PROSE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz JFC.,:;()0123456789-%\n", max_size=400)


@given(_PROSE, st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).map(lambda x: round(x, 3)))
def test_a_final_marker_wins_over_any_prose_before_it(prose, value):
    assume("answer" not in prose and "boxed" not in prose)
    text = f"{prose}\n\nFinal answer: {value}"
    assert parse_answer(text, "number", ("Japan", "France"), "What is the value for Japan?") == pytest.approx(value)


@given(_PROSE, st.sampled_from(["42", "The answer is Apples.", "Bananas is larger than Apples.", "30.5 - 12 = 18.5", "Apples or Bananas"]),
       st.sampled_from(["number", "label"]))
def test_reasoning_blocks_never_change_the_answer(reasoning, output, answer_type):
    assume("<" not in reasoning)
    bare = parse_answer(output, answer_type, LABELS)
    assert parse_answer(f"<think>{reasoning}</think>\n{output}", answer_type, LABELS) == bare
    assert parse_answer(f"{reasoning}</think>\n\n{output}", answer_type, LABELS) == bare


@given(st.sampled_from(LABELS), st.sampled_from(LABELS))
def test_two_labels_joined_by_or_are_never_credited(first, second):
    assume(normalize_label(first) != normalize_label(second))
    assert parse_answer(f"{first} or {second}", "label", LABELS) is None
    assert parse_answer(f"The answer is {first} or {second}.", "label", LABELS) is None
