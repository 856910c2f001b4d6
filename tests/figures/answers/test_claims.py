"""The reader on outputs written for its failure classes (issue 21), none taken from the blind corpora.

Each row is an output a careful grader reads one way: the asked-for item
among others, commitment and corrections, labels by other names, numbers as
locales and languages write them, and the confidence each reading carries.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rend_equiv_dataset.figures.answers.grade import grade
from rend_equiv_dataset.figures.answers.parse import HIGH, LOW, LOW_CONFIDENCE, parse_answer, read_answer

COUNTRIES = ("United States", "United Kingdom", "Germany", "France", "Japan")
YEARS = ("2019", "2020", "2021", "2022")
CITIES = ("北京", "上海", "广州", "深圳")

# (output, question, labels, expected number or None)
ASKED_ITEM = [
    ("Germany 38, France 42.", "What are the exports of France?", COUNTRIES, 42.0),
    ("Germany exported 38 bn and France 42 bn.", "What are the exports of Germany, in bn USD?", COUNTRIES, 38.0),
    ("The U.S. recorded 42.7, the UK 30.1.", "What are the exports of the United Kingdom?", COUNTRIES, 30.1),
    ("Revenue hit 365.8 in 2022, up from 274.5 in 2021.", "What was the revenue in 2021?", YEARS, 274.5),
    ("In 2021 revenue was 274.5; by 2022 it had climbed to 365.8.", "What was the revenue in 2022?", YEARS, 365.8),
    ("Sales rose to 48, compared with 40 a year earlier.", "What were the sales?", (), 48.0),
    ("The answer is 42 — France exceeds Germany (38) by 4.", "What are the exports of France?", COUNTRIES, 42.0),
    ("42 billion USD. This is the second highest after the United States (55).", "What are the exports of France, in billion USD?",
     COUNTRIES, 42.0),
    ("Japan: 12\nFrance: 30\nTotal: 42", "What is the total of Japan and France?", COUNTRIES, 42.0),
    ("US = 55, China = 52. Average = (55 + 52) / 2", "What is the average of the US and China?", COUNTRIES, None),
    ("Germany's exports are 38 billion, France's are 42 billion, meaning France exports 4 billion more.",
     "How much more does France export than Germany, in billion?", COUNTRIES, 4.0),
    ("In 2020 the value was 17.", "What is the value in 2020?", (), 17.0),
    ("The peak came in 2019.", "What is the highest value?", (), None),
    ("It dropped from 48 in 2019 to 40 in 2020.", "What was the value in 2019?", YEARS, 48.0),
    ("It dropped from 48 in 2019 to 40 in 2020.", "What was the value in 2020?", YEARS, 40.0),
    ("The share is 0.235, i.e. 23.5%.", "What percentage does Legal account for?", (), 23.5),
    ("深圳占20%，上海占31%。", "What percentage of the visitors does 上海 account for?", CITIES, 31.0),
    ("2020年为151.2，而2022年为174.9。", "What is the value for 2022?", YEARS, 174.9),
]

COMMITMENT = [
    ("Answer: 30.5? No, 42.7.", 42.7),
    ("The answer is 4.6. Wait, no - 6.4", 6.4),
    ("Final answer: 12\n\nHmm, actually, re-checking the axis, the bar ends at 14.", 14.0),
    ("Some reports put it at 55, but the chart shows 61.", 61.0),
    ("It is 30 rather than 40.", 30.0),
    ("Antwort: 12. Nein, 15.", 15.0),
    ("答案是12。不对，应该是15。", 15.0),
    ("Réponse : 8,5. En fait, c'est 9,5.", 9.5),
    ("<think>The answer is 55. Hmm, wait, the legend says otherwise; actually it is 61.</think>", 61.0),
    ("Japón tiene 30, Francia 12.\n\nRespuesta: 42", 42.0),
    ("Japan 30, Frankreich 12. Die Antwort ist 42.", 42.0),
    ("日本は30、フランスは12。答えは42です。", 42.0),
    ("일본 30, 프랑스 12. 정답: 42", 42.0),
    ("Япония 30, Франция 12. Ответ: 42", 42.0),
    ("It is either 42 or 45.", None),
    ("42, 45", None),
    ("42 (or maybe 45)", None),
    ("Entre 30 y 40.", None),
    ("Zwischen 30 und 40 Prozent.", None),
    ("大约30或40。", None),
    ("Soit 3,5, soit 4,5.", None),
    ("Values:\n- Japan: 30\n- France: 42\n- ", None),
]

NUMBERS = [
    ("1'234.5", 1234.5),
    ("1 234 567,25", 1234567.25),
    ("1.234.567", 1234567.0),
    ("12,34,567.5", 1234567.5),
    ("Roughly 2.4x.", 2.4),
    ("About 2.5 times as large.", 2.5),
    ("≈ 7.7 × 10^3", 7700.0),
    ("A deficit of 845.", -845.0),
    ("Profit fell by 8.9% between the two years.", -8.9),
    ("Negative 12.3.", -12.3),
    ("Deficit: 45.2", -45.2),
    ("Exports declined 8.9% year over year.", -8.9),
    ("A surplus of 4.1.", 4.1),
    ("4,5 Mrd. €", 4.5e9),
    ("12 mil millones", 12e9),
    ("La valeur est de quarante-deux.", 42.0),
    ("Es sind dreiundzwanzig.", 23.0),
    ("Son cincuenta y cinco.", 55.0),
    ("الإجابة: -٨٫٩", -8.9),
    ("उत्तर: ४२", 42.0),
    ("2億8460万", 284600000.0),
    ("약 3억 2천만", 320000000.0),
    ("42 Millionen Euro", 42e6),
    ("3,5 milliards", 3.5e9),
]


@pytest.mark.parametrize(("output", "question", "labels", "expected"), ASKED_ITEM)
def test_the_claim_about_the_asked_item_is_read(output, question, labels, expected):
    assert parse_answer(output, "number", labels, question) == (pytest.approx(expected) if expected is not None else None)


@pytest.mark.parametrize(("output", "expected"), COMMITMENT)
def test_the_final_commitment_is_read(output, expected):
    value = parse_answer(output, "number", ("Japan", "France"), "What is the value?")
    assert value == (pytest.approx(expected) if expected is not None else None)


@pytest.mark.parametrize(("output", "expected"), NUMBERS)
def test_numbers_as_written(output, expected):
    assert parse_answer(output, "number") == pytest.approx(expected)


def test_a_ratio_question_reads_a_ratio():
    assert parse_answer("The ratio of A to B is 13:3.", "number", question="What is the ratio of A to B?") == pytest.approx(13 / 3)
    assert parse_answer("35:12", "number", question="What is the ratio of the largest to the smallest?") == pytest.approx(35 / 12)


def test_a_scale_word_under_a_question_without_unit_is_also_right_as_written():
    assert grade("Revenue reached 365.82 billion dollars.", "365.82", "number").correct
    assert grade("Revenue reached 365.82 billion dollars.", "365820000000", "number").correct
    assert not grade("Revenue reached 365.82 billion dollars.", "365.82", "number", question="What is the revenue, in M USD?").correct


# (output, question, labels, expected label or None)
LABELS = [
    ("The U.S. leads, ahead of the UK.", "Which country has the highest exports?", COUNTRIES, "United States"),
    ("Britain, narrowly ahead of the U.S.", "Which country has the highest exports?", COUNTRIES, "United Kingdom"),
    ("USA", "Which country has the highest exports?", COUNTRIES, "United States"),
    ("Let us see: Germany.", "Which country has the highest exports?", COUNTRIES, "Germany"),
    ("Deutschland hat die höchsten Exporte.", "Which country has the highest exports?", COUNTRIES, "Germany"),
    ("答案是美国。", "Which country has the highest exports?", COUNTRIES, "United States"),
    ("APAC", "Which region is largest?", ("North America", "Asia-Pacific", "Europe"), "Asia-Pacific"),
    ("LatAm is smallest.", "Which region is smallest?", ("North America", "Latin America", "Europe"), "Latin America"),
    ("从图中看，上海最高，北京次之。", "Which city has the most visitors?", CITIES, "上海"),
    ("The answer is Shenzhen.", "Which city has the most visitors?", CITIES, "深圳"),
    ("It peaked in the second quarter of 2022.", "Which quarter was highest?", ("Q1 2022", "Q2 2022", "Q3 2022"), "Q2 2022"),
    ("It peaked in FY21.", "Which year was highest?", YEARS, "2021"),
    ("Japan > Germany > France", "Which country has the lowest exports?", COUNTRIES, "France"),
    ("France < Japan < Germany", "Which country has the highest exports?", COUNTRIES, "Germany"),
    ("Revenue peaked in 2021, up from 2019.", "Which year has the highest revenue?", YEARS, "2021"),
    ("Japan or France.", "Which country has the highest exports?", COUNTRIES, None),
    ("The fourth quarter (31.8) is highest.", "Which quarter is highest?", ("Q1 2022", "Q2 2022", "Q3 2022", "Q4 2022"), "Q4 2022"),
    ("Q4", "Which quarter is highest?", ("Q4 2021", "Q4 2022"), None),
    ("France has the lowest exports (12), well below Japan (30).", "Which country has the lowest exports?", COUNTRIES, "France"),
    ("Japan (30) is higher than France (12).", "Which country has the lowest exports?", COUNTRIES, "France"),
    ("Japan is above France.", "Which country has the lowest exports?", COUNTRIES, "France"),
    ("Yes. Wait, no — B is larger.", "Is A larger than B?", ("Yes", "No"), "No"),
    ("No. Actually, yes: A is slightly larger.", "Is A larger than B?", ("Yes", "No"), "Yes"),
    ("Yes, A is larger than B.", "Is A larger than B?", ("Yes", "No"), "Yes"),
]


@pytest.mark.parametrize(("output", "question", "labels", "expected"), LABELS)
def test_labels_by_other_names(output, question, labels, expected):
    assert parse_answer(output, "label", labels, question) == expected


def test_every_reading_says_why_and_how_sure():
    plain = read_answer("42", "number")
    assert (plain.value, plain.rule, plain.confidence) == (42.0, "plain", HIGH)
    corrected = read_answer("Answer: 30.5? No, 42.7.", "number")
    assert (corrected.rule, corrected.evidence) == ("corrected-marker", "42.7.")
    unsure = read_answer("Japan 41 and France 45. Chile 12.", "number", ("Japan", "France", "Chile"), "What is the value?")
    assert unsure.confidence < LOW_CONFIDENCE and unsure.rule == "committed"
    refusal = read_answer("I cannot read the values from this chart.", "number")
    assert (refusal.value, refusal.rule, refusal.confidence) == (None, "refusal", HIGH)
    nothing = read_answer("The bars are blue and tall.", "number")
    assert (nothing.value, nothing.rule, nothing.confidence) == (None, "none", LOW)


def _latin_locales() -> list[str]:
    from babel.localedata import locale_identifiers

    return sorted(locale_identifiers())


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(_latin_locales()),
    st.integers(min_value=-10**9, max_value=10**9),
    st.integers(min_value=0, max_value=99),
)
def test_a_number_formatted_in_any_cldr_locale_reads_back(locale, whole, cents):
    """Law: every CLDR locale's decimal format (Latin digits, two decimals) reads back as the number."""
    from babel.numbers import format_decimal

    value = whole + (cents / 100 if whole >= 0 else -cents / 100)
    text = format_decimal(value, format="#,##0.00", locale=locale, numbering_system="latn")
    assert parse_answer(text, "number") == pytest.approx(value, abs=1e-9)


NATIVE_ZERO = {"ar_EG": "\u0660", "fa": "\u06f0", "bn": "\u09e6", "mr": "\u0966", "my": "\u1040", "th": "\u0e50"}
"""The zero of each locale's own digits (Arabic-Indic, extended Arabic-Indic, Bengali, Devanagari, Myanmar, Thai)."""


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(NATIVE_ZERO)), st.integers(min_value=0, max_value=10**6), st.integers(0, 99))
def test_a_number_in_native_digits_reads_back(locale, whole, cents):
    """Law: the locale's default format (its own separators) written in its own digits reads back as the number."""
    from babel.numbers import format_decimal

    value = whole + cents / 100
    text = format_decimal(value, format="#,##0.00", locale=locale, numbering_system="default")
    zero = ord(NATIVE_ZERO[locale])
    native = "".join(chr(zero + int(c)) if c.isdigit() else c for c in text)
    assert parse_answer(native, "number") == pytest.approx(value, abs=1e-9)


FRUITS = ("Apples", "Bananas", "Cherries")
# (output, answer type, labels, question, expected), in the languages models answer in
MULTILINGUAL = [
    ("Laut dem Diagramm liegt Deutschland bei 38, Frankreich bei 42.", "number", COUNTRIES, "What are the exports of France?", 42.0),
    ("Selon le graphique, l'Allemagne est à 38 et la France à 42.", "number", COUNTRIES, "What are the exports of France?", 42.0),
    ("Según el gráfico, Alemania tiene 38 y Francia 42.", "number", COUNTRIES, "What are the exports of France?", 42.0),
    ("Secondo il grafico, la Germania ha 38 e la Francia 42.", "number", COUNTRIES, "What are the exports of France?", 42.0),
    ("根据图表，德国为38，法国为42。", "number", COUNTRIES, "What are the exports of France?", 42.0),
    ("グラフによると、ドイツは38、フランスは42です。", "number", COUNTRIES, "What are the exports of France?", 42.0),
    ("차트에 따르면 독일은 38, 프랑스는 42입니다.", "number", COUNTRIES, "What are the exports of France?", 42.0),
    ("По графику Германия — 38, Франция — 42.", "number", COUNTRIES, "What are the exports of France?", 42.0),
    ("Il valore è circa 42,5 milioni.", "number", COUNTRIES, "What is the value, in millions?", 42.5),
    ("O valor é de aproximadamente 1.234,5.", "number", COUNTRIES, "What is the value?", 1234.5),
    ("大概是30到40之间。", "number", COUNTRIES, "What is the value?", None),
    ("30から40の間です。", "number", COUNTRIES, "What is the value?", None),
    ("30에서 40 사이입니다.", "number", COUNTRIES, "What is the value?", None),
    ("От 30 до 40.", "number", COUNTRIES, "What is the value?", None),
    ("Zuerst dachte ich 38, aber tatsächlich ist es 42.", "number", COUNTRIES, "What is the value?", 42.0),
    ("Al principio pensé que era 38, pero en realidad es 42.", "number", COUNTRIES, "What is the value?", 42.0),
    ("最初は38だと思いましたが、実際は42です。", "number", COUNTRIES, "What is the value?", 42.0),
    ("一开始我以为是38，但实际上是42。", "number", COUNTRIES, "What is the value?", 42.0),
    ("처음에는 38이라고 생각했지만 실제로는 42입니다.", "number", COUNTRIES, "What is the value?", 42.0),
    ("Frankreich hat die niedrigsten Exporte, Deutschland die höchsten.", "label", COUNTRIES,
     "Which country has the highest exports?", "Germany"),
    ("La France a les exportations les plus faibles.", "label", COUNTRIES, "Which country has the lowest exports?", "France"),
    ("日本の輸出が最も少ない。", "label", COUNTRIES, "Which country has the lowest exports?", "Japan"),
    ("일본의 수출이 가장 적습니다.", "label", COUNTRIES, "Which country has the lowest exports?", "Japan"),
    ("Respuesta: Japón", "label", COUNTRIES, "Which country has the lowest exports?", "Japan"),
    ("Antwort: Japan oder Frankreich", "label", COUNTRIES, "Which country has the lowest exports?", None),
    ("答案：日本或法国", "label", COUNTRIES, "Which country has the lowest exports?", None),
]


@pytest.mark.parametrize(("output", "answer_type", "labels", "question", "expected"), MULTILINGUAL)
def test_multilingual_outputs(output, answer_type, labels, question, expected):
    value = parse_answer(output, answer_type, labels, question)
    assert value == (pytest.approx(expected) if isinstance(expected, float) else expected)
