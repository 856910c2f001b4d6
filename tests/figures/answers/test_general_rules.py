"""Rules stated in general after corpus B's failure classes, each on outputs written here (none from a corpus).

- A sign stated in words (before or after the number, in several languages)
  makes the number negative; a question that names the decrease itself asks
  its size, so the size is right too.
- Month, quarter, country and world-region labels match their CLDR names in
  other languages (babel), and ``3Q22`` is the third quarter of 2022.
- A first-person commitment ("I'll go with 9.8") is where the answer is, as
  after a marker.
- An output that ends saying it cannot tell which item answers gives no answer.
- Ranges and hedges written as other languages and writers do ("somewhere
  from 125 to 135", "12 ila 13 milyar arasında", "— ou peut-être 212") are no answer.
- A country name before a currency word ("US dollars") names the currency,
  not the category; a JSON ``"answer"`` key is a marker; ``× 10⁶`` is an
  exponent; an expression with a bracketed operand is read to its result; a
  number written out in units under a question in millions or billions is
  converted.
- A comparison in French, Spanish, Italian, German or Russian ("plus élevées
  que", "höher als") decides between its two items as "higher than" does.
- An arrow ending the output ("A (30) vs B (12) → A") leads to its conclusion.
- A number the output labels with the quantity the question asks (average,
  mean, median, total, sum, difference) is the answer, wherever it stands
  among the operands.
- Number words carry the fraction after them: "three and a half", "one-fifth",
  "two thirds".
- A label the question names as its series or period ("in the 2021 series")
  is context in the output, not a candidate answer, unless the question
  offers it as an option.
- "A, B and C ... for X, Y and Z respectively": the number in the asked
  category's place.
- Under a ratio or "how many times" question, ``A:B`` and "the ratio is A to
  B" are read as A/B.
- Chinese numerals are numbers: 十 百 千 万 亿 by position, 点 the decimal point.
- A final answer naming only another category with its value ("Answer:
  Chile 11.0" when Peru was asked) is that value, never a number from before.
- Superlatives and comparatives of temperature, rainfall and price name an
  end of the scale: warmest/wettest are the highest, coldest/driest/cheapest
  the lowest.
- Under a question asking a difference, the number stated as the amount of a
  comparison ("3.2 bn higher than Chile's (14.2 vs 11.0)") is the answer.
- A city label matches CLDR's names of its city in other languages, a
  language label its CLDR names, a label with parentheses each of its parts,
  and a name of several capitalised words its initials in capitals.
- Labels named after a ranking connective ("ahead of", "followed by",
  "devant", "seguido de", "далее следуют", "其次", "تليها") are ranked below the
  one before it: context, not candidates.
- A deficit named as the sentence's subject gives its size after a copula
  ("The deficit in fiscal 2023 was about 1.7 trillion", "Das Defizit betrug
  845 Mio.", "Дефицит составил 3,2 трлн"): the balance is that size negative,
  and a question that names the deficit takes the size.
- A question asking the gap, spread or margin *between* two items asks a
  difference, and "combined" a total; "account for" and "make up" state a
  number as a copula does; a country code in capitals keeps its meaning with a
  possessive ("the UK's").
- A year label is also its two digits after an apostrophe ("'22", "’22"), and
  a quarter label also its glued statistical form ("2023Q3").
- Answer markers in Turkish, Polish, Indonesian, Vietnamese, Arabic and Hindi
  ("Cevap:", "Odpowiedź:", "Jawaban:", "Đáp án:", "الإجابة:", "उत्तर:").
- A concluding last sentence ("Based on this, …", "Therefore …") about another
  category with its one value is what the output commits to, and so is a
  last sentence stating the actual or correct value ("The actual rate is
  about 80%", "La cifra correcta … es 90 millones").
- A unit in parentheses without "in" ("(millions)", "(billion US dollars)")
  is the unit the question asks in, as "(in millions)" is.
- A yes/no target over a chart's category labels is graded against yes and
  no, which are also their words in eleven languages (ja, oui, sì, да, はい …).
- Corrections in more languages: "Moment, …", "pensándolo bien", "guardando
  meglio", "хотя нет", "przepraszam, pomyłka", "je me corrige".
- World Bank country names match their country ("Korea, Rep.", "Congo, Dem.
  Rep.", "Egypt, Arab Rep."), as do Ivory Coast, DR Congo and EU-27; another
  country's name that holds a label's word ("North Korea", "Equatorial
  Guinea") is not a mention of the label.
- Under a question in percent, a count in every so many ("one in three
  adults", "nine out of ten") is that share in percent.
- A JSON key ``final_answer`` (or ``correct_answer``) is a marker: it supersedes
  a first guess before it.
- The asked quantity named right after its number ("a 16-point gap", "a 4.5
  percentage point margin") labels it as the answer; "cumulative" asks a total
  (but a percentage "of total sales" is not the total).
- First-person commitments in other languages ("Me quedo con 133,5 %", "je
  retiens", "ich bleibe bei") are where the answer is; a year after a
  preposition in Dutch, German, French, Spanish or Italian ("voor 2020") is a date.
- A runner-up named against the one item ahead of it ("second only to China",
  "behind only the United States") names that item as the extreme.
- Under a question in a unit of measure with an SI prefix ("(MW)", "(mm)",
  "(Mt)"), a number written in the same unit with another prefix ("1.23 GW",
  "2.2 metres", "37.4 Gt") is converted.
- A bound before a number ("over 90%", "more than 1,000") is not the value
  when the sentence also states one; the World Bank's regions (MENA, SSA, ECA,
  EAP) are their names.
- Stacked scale words multiply: "1.2 thousand million", "3,1 mil milhões",
  "5 mil millones", "1.2 thousand M".
"""

from __future__ import annotations

import pytest

from rend_equiv_dataset.figures.answers.grade import grade

BALANCE = "What is the trade balance of Chile in 2019, in million EUR?"
TEMPERATURE = "What is the average July temperature in Vostok, in °C?"
CHANGE = "What was the change in retail sales in 2020, in %?"

# (output, target, question, a careful grader's verdict)
SIGN_WORDS = [
    ("A deficit of 120 million euros.", "-120", BALANCE, True),
    ("Chile ran a 120 million deficit that year.", "-120", BALANCE, True),
    ("120 million deficit", "120", BALANCE, False),
    ("Un déficit de 120 millions d'euros.", "-120", BALANCE, True),
    ("Ein Defizit von 120 Mio. EUR.", "-120", BALANCE, True),
    ("Hubo un déficit de 120 millones.", "-120", BALANCE, True),
    ("智利2019年贸易逆差，赤字120百万欧元。", "-120", BALANCE, True),
    ("It averages 65 degrees below zero.", "-65", TEMPERATURE, True),
    ("Vostok: 65 °C below zero in July.", "-65", TEMPERATURE, True),
    ("Il fait 65 degrés sous zéro.", "-65", TEMPERATURE, True),
    ("沃斯托克七月平均气温为零下65摄氏度。", "-65", TEMPERATURE, True),
    ("Las ventas minoristas cayeron un 3,4 %.", "-3.4", CHANGE, True),
    ("Las ventas minoristas cayó un 3,4 % en 2020.", "-3.4", CHANGE, True),
    ("2020年零售额下降了3.4%。", "-3.4", CHANGE, True),
    ("2020年零售额下降了3.4%。", "3.4", CHANGE, False),
    ("Retail sales grew 3.4% in 2020.", "-3.4", CHANGE, False),
]


@pytest.mark.parametrize(("output", "target", "question", "expected"), SIGN_WORDS)
def test_a_sign_stated_in_words_makes_the_number_negative(output, target, question, expected):
    assert grade(output, target, "number", question=question).correct is expected


@pytest.mark.parametrize(
    ("output", "question"),
    [
        ("A deficit of 120 million.", "What is the trade deficit of Chile in 2019, in million EUR?"),
        ("Exports fell by 7.5%.", "By how much did exports fall in 2020, in %?"),
        ("a 7.5% decline", "How large was the decline in exports, in %?"),
    ],
)
def test_a_question_naming_the_decrease_asks_its_size(output, question):
    target = "120" if "deficit" in question else "7.5"
    assert grade(output, target, "number", question=question).correct
    assert grade(output, "-" + target, "number", question=question).correct


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
QUARTERS = ("Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023")
COUNTRIES = ("Brazil", "Mexico", "United Kingdom", "South Korea", "Egypt")
REGIONS = ("Europe", "Latin America", "Northern America", "Africa")

# (output, labels, the label a careful grader reads, or None)
TRANSLATED = [
    ("agosto", MONTHS, "Aug"),
    ("Der regenreichste Monat ist der Oktober.", MONTHS, "Oct"),
    ("十一月", MONTHS, "Nov"),
    ("11月です。", MONTHS, "Nov"),
    ("It rained a lot two years ago.", MONTHS, None),  # "ago" is an Italian/Spanish short form, not a word here
    ("2Q23", QUARTERS, "Q2 2023"),
    ("1Q 2023", QUARTERS, "Q1 2023"),
    ("Le 4e trimestre 2023.", QUARTERS, "Q4 2023"),
    ("El 2.º trimestre de 2023.", QUARTERS, "Q2 2023"),
    ("2023年第1四半期", QUARTERS, "Q1 2023"),
    ("第四季度", QUARTERS, "Q4 2023"),
    ("Brezilya", COUNTRIES, "Brazil"),
    ("المكسيك", COUNTRIES, "Mexico"),
    ("Reino Unido", COUNTRIES, "United Kingdom"),
    ("대한민국", COUNTRIES, "South Korea"),
    ("Ai Cập", COUNTRIES, "Egypt"),
    ("Lateinamerika", REGIONS, "Latin America"),
    ("Amérique septentrionale", REGIONS, "Northern America"),
    ("非洲", REGIONS, "Africa"),
]


@pytest.mark.parametrize(("output", "labels", "expected"), TRANSLATED)
def test_month_quarter_country_and_region_names_in_other_languages(output, labels, expected):
    question = "Which category has the highest value?"
    for label in labels:
        assert grade(output, label, "label", question=question, labels=labels).correct is (label == expected), label


FIGURE = "What is the value of imports for Peru, in bn USD?"
PEERS = ("Peru", "Chile", "Bolivia")


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("The bar reads 14.2, though trade statistics suggest nearer 16. I'll go with 16.", "14.2", False),
        ("The bar reads 14.2, though trade statistics suggest nearer 16. I'll go with 16.", "16", True),
        ("Could be 14.2 or 16; I'd settle on 14.2.", "14.2", True),
        ("Other sources say 16, but I'm sticking with 14.2 from the chart.", "14.2", True),
    ],
)
def test_a_first_person_commitment_is_the_answer(output, target, expected):
    assert grade(output, target, "number", question=FIGURE, labels=PEERS).correct is expected


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("Chile and Peru are nearly equal; it is difficult to tell which is larger.", None),
        ("Peru and Chile look alike, and I can't tell which bar is taller.", None),
        ("Too close to call between Peru and Chile.", None),
        ("It is hard to say which is larger at first, but Peru's bar is taller.", "Peru"),
        ("Peru has the highest imports.", "Peru"),
    ],
)
def test_an_output_that_cannot_tell_which_gives_no_answer(output, expected):
    question = "Which country has the highest imports?"
    for label in PEERS:
        assert grade(output, label, "label", question=question, labels=PEERS).correct is (label == expected), label


@pytest.mark.parametrize(
    "output",
    [
        "Adding the bars I get somewhere from 40 to 44.",
        "Anywhere between 40 and 44 bn.",
        "Peru'nun ithalatı 14 ila 15 milyar dolar arasında.",
        "Pérou : 14,2 milliards — ou peut-être 16, difficile à lire.",
        "14.2; or perhaps 16",
        "Approximately 14-16, the bar ends past the gridline.",
        "In the range of 14-16%.",
    ],
)
def test_ranges_and_hedges_in_several_languages_are_no_answer(output):
    for target in ("14.2", "14", "16", "40", "44"):
        assert not grade(output, target, "number", question=FIGURE, labels=PEERS).correct, target


@pytest.mark.parametrize(
    ("output", "target", "question", "labels", "expected"),
    [
        ("Peru's imports total 14.2 billion US dollars.", "14.2", FIGURE, ("Peru", "United States"), True),
        ("Canada imported 14.2 billion Canadian dollars; the US 20.", "20", "What are the imports of the United States, in bn?",
         ("Canada", "United States"), True),
        ('{"answer": "14.2 bn USD", "confidence": 0.9}', "14.2", FIGURE, PEERS, True),
        ("{'answer': 16, 'unit': 'bn USD', 'score': 0.4}", "14.2", FIGURE, PEERS, False),
        ("3.4 × 10⁶", "3400000", "What is the population of Lima?", (), True),
        ("About 3.4 x 10⁶ people", "3400000", "What is the population of Lima?", (), True),
        ("2.1 × 10⁻³", "0.0021", "What is the density, in g/cm3?", (), True),
        ("12 - (-3.5) = 15.5", "15.5", "By how much does A exceed B?", (), True),
        ("14 200 000 000 USD", "14.2", FIGURE, PEERS, True),
        ("1,200", "1200", "How many visitors came, in thousands?", (), True),
    ],
)
def test_currency_names_json_keys_exponents_and_units(output, target, question, labels, expected):
    assert grade(output, target, "number", question=question, labels=labels).correct is expected


@pytest.mark.parametrize(
    ("output", "question", "expected"),
    [
        ("Le Chili a des importations plus faibles que le Pérou.", "Which has the higher imports: Peru or Chile?", "Peru"),
        ("Le Chili a des importations plus faibles que le Pérou.", "Which has the lower imports: Peru or Chile?", "Chile"),
        ("Chile tiene importaciones más altas que Perú.", "Which has the higher imports: Peru or Chile?", "Chile"),
        ("Chile hat höhere Importe als Peru.", "Which has the higher imports: Peru or Chile?", "Chile"),
        ("Peru hat niedrigere Importe als Chile.", "Which has the higher imports: Peru or Chile?", "Chile"),
        ("Peru (14.2) vs Chile (11.0) → Peru", "Which has the higher imports: Peru or Chile?", "Peru"),
        ("Peru 14.2, Chile 11.0 => Chile is lower", "Which has the lower imports: Peru or Chile?", "Chile"),
    ],
)
def test_comparisons_in_other_languages_and_arrow_conclusions(output, question, expected):
    for label in ("Peru", "Chile"):
        assert grade(output, label, "label", question=question, labels=PEERS).correct is (label == expected), label


def test_an_arrow_to_a_result_is_the_answer():
    assert grade("14.2 - 11.0 → 3.2", "3.2", "number", question="By how much do Peru's imports exceed Chile's?").correct


@pytest.mark.parametrize(
    ("output", "target", "question", "expected"),
    [
        ("Peru 14.2, Chile 11.0, mean 12.6.", "12.6", "What is the average imports of Peru and Chile?", True),
        ("Max 14.2 (Peru), min 11.0 (Chile); gap 3.2.", "3.2", "What is the difference between the highest and lowest imports?", True),
        ("The median is 14.2; the average is about 12.6.", "12.6", "What is the average imports?", True),
        ("The median is 14.2; the average is about 12.6.", "14.2", "What is the median imports?", True),
        ("Sum: 25.2 (14.2 + 11.0)", "25.2", "What is the total imports of Peru and Chile?", True),
        ("The total is not 30; Peru 14.2 and Chile 11.0 make 25.2.", "30", "What is the total imports of Peru and Chile?", False),
    ],
)
def test_a_number_labelled_as_the_asked_quantity_is_the_answer(output, target, question, expected):
    assert grade(output, target, "number", question=question, labels=PEERS).correct is expected


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("Peru's imports are about three and a half times Bolivia's.", "3.5", True),
        ("Roughly one-fifth of the total.", "0.2", True),
        ("Two thirds of it.", "0.667", True),
        ("Three quarters of the total.", "0.75", True),
        ("One and a quarter.", "1.25", True),
        ("Three and a half times.", "3", False),
    ],
)
def test_number_words_carry_their_fraction(output, target, expected):
    assert grade(output, target, "number", question="What share of the total is it?").correct is expected


SERIES = ("Peru", "Chile", "Bolivia", "2021", "2022")


@pytest.mark.parametrize(
    ("output", "question", "expected"),
    [
        ("Chile is higher. Wait, in the 2021 series Peru's bar is taller. Peru.", "Which has the higher imports in the 2021 series: Peru or Chile?",
         "Peru"),
        ("For 2022, Bolivia.", "Which country has the lowest imports for 2022?", "Bolivia"),
        ("In 2021.", "Which year had the higher imports for Peru: 2021 or 2022?", "2021"),
    ],
)
def test_a_label_the_question_names_as_its_series_is_context(output, question, expected):
    for label in SERIES:
        assert grade(output, label, "label", question=question, labels=SERIES).correct is (label == expected), label


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("Imports were 14.2, 11.0 and 3.1 bn USD for Peru, Chile and Bolivia respectively.", "11.0", True),
        ("Imports were 14.2, 11.0 and 3.1 bn USD for Peru, Chile and Bolivia respectively.", "14.2", False),
        ("In 2022 the figures were 14.2 and 11.0 for Peru and Chile respectively.", "11.0", True),
        ("Les importations sont de 14,2 et 11,0 pour le Pérou et le Chili respectivement.", "11.0", True),
    ],
)
def test_respectively_pairs_numbers_and_categories_in_order(output, target, expected):
    question = "What are the imports of Chile in 2022, in bn USD?"
    assert grade(output, target, "number", question=question, labels=SERIES).correct is expected


@pytest.mark.parametrize(
    ("output", "question", "target", "expected"),
    [
        ("14.2:11", "How many times larger are Peru's imports than Chile's?", "1.29", True),
        ("The ratio is 14 to 11, roughly 1.3.", "What is the ratio of Peru's imports to Chile's?", "1.27", True),
        ("Peru's imports are 1.3 times Chile's.", "How many times as large are Peru's imports as Chile's?", "1.29", True),
        ("14.2:11", "How many times larger are Peru's imports than Chile's?", "14.2", False),
        ("The ratio is 14 to 11.", "What is the ratio of Peru's imports to Chile's?", "14", False),
    ],
)
def test_a_ratio_is_read_as_its_quotient(output, question, target, expected):
    assert grade(output, target, "number", question=question, labels=PEERS).correct is expected


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("十四点二", "14.2", True),
        ("大约一千一百万。", "11000000", True),
        ("秘鲁的进口额为三百零五亿美元。", "30500000000", True),
        ("十四点二", "142", False),
        ("十四或十五", "14", False),
    ],
)
def test_chinese_numerals_are_numbers(output, target, expected):
    assert grade(output, target, "number", question="What are the imports of Peru?").correct is expected


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("Peru: 14.2 bn USD\nChile: 11.0 bn USD\n\nAnswer: Chile 11.0", "14.2", False),
        ("Peru: 14.2 bn USD\nChile: 11.0 bn USD\n\nAnswer: Peru 14.2", "14.2", True),
        ("Peru is 14.2 and Chile 11.0.\nFinal answer: Chile, 11.0 bn USD", "14.2", False),
    ],
)
def test_a_final_answer_about_another_category_is_read_as_given(output, target, expected):
    assert grade(output, target, "number", question=FIGURE, labels=PEERS).correct is expected


CITIES = ("Lima", "Quito", "La Paz", "Santiago")


@pytest.mark.parametrize(
    ("output", "question", "expected"),
    [
        ("Quito is colder than Lima, but La Paz is the coldest of all.", "Which city has the lowest average temperature?", "La Paz"),
        ("The wettest city is Quito (1,100 mm); Lima gets 15 mm.", "Which city has the highest rainfall?", "Quito"),
        ("Lima is warmer than Quito.", "Which is warmer: Lima or Quito?", "Lima"),
        ("Santiago is the cheapest.", "Which city has the lowest rent?", "Santiago"),
    ],
)
def test_superlatives_of_temperature_rainfall_and_price(output, question, expected):
    for label in CITIES:
        assert grade(output, label, "label", question=question, labels=CITIES).correct is (label == expected), label


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("Peru's imports are 3.2 bn USD higher than Chile's (14.2 vs 11.0).", "3.2", True),
        ("Peru's imports are 3.2 bn USD higher than Chile's (14.2 vs 11.0).", "14.2", False),
        ("Peru is 2.1 higher than Bolivia and 3.2 higher than Chile.", "3.2", True),
    ],
)
def test_the_amount_of_a_comparison_answers_a_difference_question(output, target, expected):
    question = "By how much does Peru's value exceed Chile's?"
    assert grade(output, target, "number", question=question, labels=PEERS).correct is expected


PLATFORMS = ("Facebook", "YouTube", "X (Twitter)", "TikTok")
AIRPORTS = ("Atlanta (ATL)", "Dubai (DXB)", "London Heathrow (LHR)")
CLOUDS = ("Amazon Web Services", "Microsoft Azure", "Google Cloud")
TOKYO_CITIES = ("東京", "大阪", "Москва")
LANGUAGE_LABELS = ("English", "Spanish", "German", "Japanese")


@pytest.mark.parametrize(
    ("output", "labels", "expected"),
    [
        ("The smallest share is Twitter's, at 12%.", PLATFORMS, "X (Twitter)"),
        ("The busiest airport is ATL, with 104.7 million passengers.", AIRPORTS, "Atlanta (ATL)"),
        ("Heathrow is third; the busiest is Atlanta.", AIRPORTS, "Atlanta (ATL)"),
        ("AWS leads the market at 31%.", CLOUDS, "Amazon Web Services"),
        ("aws leads the market at 31%.", CLOUDS, None),  # initials count in capitals only
        ("The city with the most visitors is Tokyo.", TOKYO_CITIES, "東京"),
        ("The largest is Moscow.", TOKYO_CITIES, "Москва"),
        ("La segunda lengua más usada es el español.", LANGUAGE_LABELS, "Spanish"),
        ("Die zweithäufigste Sprache ist Deutsch.", LANGUAGE_LABELS, "German"),
        ("二番目に多いのは日本語です。", LANGUAGE_LABELS, "Japanese"),
    ],
)
def test_cities_languages_parts_and_initials_name_their_label(output, labels, expected):
    for label in labels:
        assert grade(output, label, "label", question="Which is it?", labels=labels).correct is (label == expected), label


PARTNERS = ("Germany", "Italy", "Belgium", "Spain", "United States")


@pytest.mark.parametrize(
    "output",
    [
        "Germany is first, ahead of Italy, Belgium and Spain.",
        "Le premier client est l'Allemagne, avec 14 %, devant l'Italie, la Belgique et l'Espagne.",
        "El principal destino es Alemania, seguida de Italia y Bélgica.",
        "Il primo partner è la Germania (14 %), seguita dalla Spagna e dal Belgio.",
        "O principal destino foi a Alemanha, bem à frente dos Estados Unidos e da Itália.",
        "Крупнейший партнёр — Германия, далее следуют Италия и Бельгия.",
        "最大的伙伴是德国，其次是意大利和比利时。",
        "أكبر شريك هو ألمانيا، تليها إيطاليا ثم بلجيكا.",
    ],
)
def test_labels_after_a_ranking_connective_are_context(output):
    question = "Which country was the largest trading partner in 2023?"
    for label in PARTNERS:
        assert grade(output, label, "label", question=question, labels=PARTNERS).correct is (label == "Germany"), label


def test_a_ranking_connective_with_two_labels_before_it_decides_nothing():
    output = "Germany or Italy, ahead of Spain."
    assert not any(grade(output, label, "label", question="Which is largest?", labels=PARTNERS).correct for label in PARTNERS)


@pytest.mark.parametrize(
    ("output", "target", "question", "expected"),
    [
        ("The federal budget deficit in fiscal 2023 was about 1.7 trillion dollars, up from 1.38 trillion in 2022.", "-1.7",
         "What was the federal budget balance in FY2023, in trillion USD?", True),
        ("The federal budget deficit in fiscal 2023 was about 1.7 trillion dollars.", "1.7",
         "What was the federal budget deficit in FY2023, in trillion USD?", True),
        ("The deficit appears to be roughly 850 billion dollars.", "-845", "What was the goods trade balance, in billion USD?", True),
        ("Das Handelsbilanzdefizit betrug 2022 rund 845 Mio. USD.", "-845", "What was the trade balance in 2022, in million USD?", True),
        ("Дефицит бюджета составил 3,2 трлн рублей.", "-3.2", "What was the budget balance, in trillion rubles?", True),
        ("Le déficit commercial s'élevait à 99,6 milliards d'euros.", "-99.6", "What was the trade balance, in billion euros?", True),
        ("贸易逆差为845亿美元。", "-84.5", "What was the trade balance, in billion USD?", True),
        ("The trade deficit was 845 billion.", "845", "What was the trade deficit?", True),
        ("The deficit turned into a surplus of 3.1 billion.", "3.1", "What was the balance, in billions?", True),
        ("The deficit turned into a surplus of 3.1 billion.", "-3.1", "What was the balance, in billions?", False),
        ("The trade balance was 845 million.", "-845", "What was the trade balance, in millions?", False),
    ],
)
def test_a_deficit_named_as_the_subject_is_a_negative_balance(output, target, question, expected):
    assert grade(output, target, "number", question=question).correct is expected


@pytest.mark.parametrize(
    ("output", "target", "question"),
    [
        ("O saldo foi de 3,1 mil milhões de euros.", "3.1", "What was the budget balance, in billion euros?"),
        ("Se exportaron 5 mil millones de dólares.", "5", "What were exports, in billion USD?"),
        ("It came to 3 thousand million pounds.", "3", "What was it, in billion GBP?"),
        ("The total is 1.2 thousand M EUR.", "1.2", "What is the total, in billion EUR?"),
    ],
)
def test_stacked_scale_words_multiply(output, target, question):
    assert grade(output, target, "number", question=question).correct
    assert not grade(output, str(float(target) / 1000), "number", question=question).correct


@pytest.mark.parametrize(
    ("output", "target", "question", "labels"),
    [
        ("The gap between the United States (42.9%) and the United Kingdom (27.8%) is 15.1 percentage points.", "15.1",
         "By how many percentage points does the US obesity rate exceed the UK's?", ("United States", "United Kingdom", "France")),
        ("The Democrat got 51.3 percent, against 46.8 percent for the Republican, a margin of 4.5 points.", "4.5",
         "What was the margin between the Democratic and Republican vote shares, in percentage points?", ("Democratic", "Republican")),
        ("Chrome has 65.2% and Safari 18.7%; together the two leaders account for roughly 84% of usage.", "83.9",
         "What is the combined market share of the top two browsers, in %?", ("Chrome", "Safari", "Edge")),
        ("Japan's gap is 21.3%, but South Korea has the largest gender pay gap at 31.1%.", "31.1",
         "What is the gender pay gap in South Korea, in %?", ("South Korea", "Japan", "Israel")),
    ],
)
def test_gaps_margins_and_combined_shares_are_read_as_asked(output, target, question, labels):
    assert grade(output, target, "number", question=question, labels=labels).correct


@pytest.mark.parametrize(
    ("output", "labels", "expected"),
    [
        ("'22", ("2019", "2020", "2021", "2022"), "2022"),
        ("Sales bottomed out in ’20.", ("2019", "2020", "2021", "2022"), "2020"),
        ("22", ("2019", "2020", "2021", "2022"), None),  # two digits alone are a number, not a year
        ("2023Q3", ("Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023"), "Q3 2023"),
        ("Growth peaked in 2023q2.", ("Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023"), "Q2 2023"),
    ],
)
def test_apostrophe_years_and_glued_quarters_name_their_label(output, labels, expected):
    for label in labels:
        assert grade(output, label, "label", question="When was it highest?", labels=labels).correct is (label == expected), label


@pytest.mark.parametrize("marker", ["Cevap:", "Odpowiedź:", "Jawaban:", "Đáp án:", "الإجابة:", "उत्तर:"])
def test_answer_markers_in_more_languages(marker):
    output = f"2020: 49, 2021: 110, 2022: 161.1. {marker} 161.1"
    question = "What was the net income in 2021, in billion USD?"
    labels = ("2020", "2021", "2022")
    assert grade(output, "161.1", "number", question=question, labels=labels).correct
    assert not grade(output, "110", "number", question=question, labels=labels).correct


def test_a_concluding_sentence_about_another_category_is_the_commitment():
    labels, question = ("Germany", "France", "Spain"), "What is the share of renewables in France, in %?"
    wrong = "Germany is shown at 38.1% and France at 42.3%. Based on this, the share for Germany is 38.1%."
    right = "Germany is shown at 38.1% and France at 42.3%. Therefore the share for France is 42.3%."
    assert not grade(wrong, "42.3", "number", question=question, labels=labels).correct
    assert grade(right, "42.3", "number", question=question, labels=labels).correct


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("The chart shows 73.8% for Morocco; UNESCO puts it closer to 80%. The actual literacy rate is about 80%.", "73.8", False),
        ("The chart shows 73.8% for Morocco; UNESCO puts it closer to 80%. The actual literacy rate is about 80%.", "80", True),
        ("Marruecos: 73,8 %. Otras fuentes dan 80 %. La cifra correcta a considerar es 80 %.", "73.8", False),
        ("Morocco is at 73.8%. That is the correct reading of the bar.", "73.8", True),
    ],
)
def test_a_last_sentence_stating_the_actual_value_commits_to_it(output, target, expected):
    question = "What was the literacy rate in Morocco in 2018, in %?"
    assert grade(output, target, "number", question=question, labels=("Morocco", "Algeria")).correct is expected


@pytest.mark.parametrize(
    ("output", "target", "question"),
    [
        ("中国的人口约为14.1亿。", "1412", "What is China's population (millions)?"),
        ("China's population is about 1.41 billion.", "1412", "What is China's population (millions)?"),
        ("El PIB de México fue de 1,79 billones de dólares.", "1790", "What was Mexico's GDP in 2023 (billion US dollars)?"),
        ("グラフによると、訪日外国人旅行者数は2,507万人でした。", "25.07", "How many visitors came in 2023 (millions)?"),
        ("The company earned 350 million yuan.", "350", "What was the revenue (million yuan)?"),
    ],
)
def test_a_unit_in_parentheses_is_the_unit_asked(output, target, question):
    assert grade(output, target, "number", question=question).correct
    assert not grade(output, str(float(target) * 1000), "number", question=question).correct


YEARS_3 = ("2012", "2017", "2022")


@pytest.mark.parametrize(
    ("output", "target"),
    [
        ("To check, 53% > 50%, so a majority is satisfied.\n\nAnswer: Yes", "Yes"),
        ("Risposta: sì. Anzi no: guardando meglio, il valore del 2022 è inferiore, quindi la risposta è no.", "No"),
        ("Ответ: да. Хотя нет, если присмотреться, столбец 2022 года ниже, так что ответ — нет.", "No"),
        ("答え：いいえ。", "No"),
        ("Antwort: ja.", "Yes"),
    ],
)
def test_a_yes_no_target_is_graded_against_yes_and_no(output, target):
    question = "Was the value in 2022 higher than in 2012?"
    assert grade(output, target, "label", question=question, labels=YEARS_3).correct
    other = "No" if target == "Yes" else "Yes"
    assert not grade(output, other, "label", question=question, labels=YEARS_3).correct


@pytest.mark.parametrize(
    ("output", "target", "wrong"),
    [
        ("Antwort: 30,5 %. Moment, ich habe die falsche Säule abgelesen – für Frankreich sind es 42,7 %.", "42.7", "30.5"),
        ("Respuesta: 42,7 %. Aunque, pensándolo bien, esa es la barra de Chile; para Francia sería 30,5 %.", "30.5", "42.7"),
        ("Odpowiedź: 7,3%. Przepraszam, pomyłka — wartość wynosi 6,5%.", "6.5", "7.3"),
        ("Réponse : 30,5 %. Je me corrige : c'est 42,7 %.", "42.7", "30.5"),
    ],
)
def test_corrections_in_more_languages_supersede_the_marker(output, target, wrong):
    question = "What share of French adults read a book every week (%)?"
    assert grade(output, target, "number", question=question).correct
    assert not grade(output, wrong, "number", question=question).correct


WORLD_BANK = ("Korea, Rep.", "Congo, Dem. Rep.", "Egypt, Arab Rep.", "Côte d'Ivoire", "EU-27")


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("South Korea has the lowest fertility rate, at 0.78.", "Korea, Rep."),
        ("The lowest rate belongs to the Republic of Korea.", "Korea, Rep."),
        ("North Korea has the lowest fertility rate in the chart.", None),
        ("The Democratic Republic of the Congo is lowest.", "Congo, Dem. Rep."),
        ("Egypt is lowest.", "Egypt, Arab Rep."),
        ("Ivory Coast is lowest.", "Côte d'Ivoire"),
        ("The European Union is lowest.", "EU-27"),
    ],
)
def test_world_bank_names_and_rival_names(output, expected):
    question = "Which has the lowest rate?"
    for label in WORLD_BANK:
        assert grade(output, label, "label", question=question, labels=WORLD_BANK).correct is (label == expected), label


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("About one in three adults said they use TikTok.", "33", True),
        ("Nearly nine in ten Nigerians say religion is very important.", "88", True),
        ("3 out of 4 respondents agreed.", "75", True),
        ("3 out of 4 respondents agreed.", "3", False),
    ],
)
def test_a_count_in_every_so_many_is_a_share_in_percent(output, target, expected):
    assert grade(output, target, "number", question="What share of adults agreed (%)?").correct is expected


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ('{"first_guess": 30.5, "final_answer": 42.7}', "42.7", True),
        ('{"first_guess": 42.7, "final_answer": 30.5}', "42.7", False),
        ("{'reading': 42.7, 'correct_answer': 30.5}", "30.5", True),
    ],
)
def test_a_final_answer_key_is_a_marker(output, target, expected):
    assert grade(output, target, "number", question="What share uses the internet daily (%)?").correct is expected


@pytest.mark.parametrize(
    ("output", "target", "question"),
    [
        ("Women in Niger: 27%, compared with 43% among men, a 16-point gap.", "16",
         "What is the gap between male and female literacy in Niger (percentage points)?"),
        ("China added 75.9 GW in 2023. The cumulative total reached 441 GW.", "441",
         "What was China's cumulative installed wind capacity in 2023 (GW)?"),
        ("Online sales were 190 million out of a 500 million total, which works out to 38% of all sales.", "38",
         "What percentage of total sales came from online channels (in %)?"),
    ],
)
def test_the_quantity_named_after_its_number(output, target, question):
    assert grade(output, target, "number", question=question, labels=("2022", "2023", "Niger", "Online")).correct


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("La inflación fue del 133,5 %... no, espera, esa cifra es de 2022; fue del 211,4 %. Me quedo con 133,5 %.", "211.4", False),
        ("La inflación fue del 133,5 %... no, espera, esa cifra es de 2022; fue del 211,4 %. Me quedo con 133,5 %.", "133.5", True),
        ("Nee, wacht: dat is het cijfer voor 2020; in 2023 was het 211,4 procent.", "211.4", True),
    ],
)
def test_commitments_and_dated_years_in_other_languages(output, target, expected):
    question = "What was Argentina's inflation rate in 2023 (%)?"
    assert grade(output, target, "number", question=question, labels=("2020", "2022", "2023")).correct is expected


@pytest.mark.parametrize(
    "output",
    [
        "The United Kingdom spends the second-highest share, 2.2% of GDP, behind only the United States at 3.4%.",
        "France is second only to the United States.",
    ],
)
def test_a_runner_up_names_the_extreme_ahead_of_it(output):
    labels = ("United States", "United Kingdom", "France")
    for label in labels:
        assert grade(output, label, "label", question="Which country spent the most?", labels=labels).correct is (label == "United States")


@pytest.mark.parametrize(
    ("output", "target", "question", "expected"),
    [
        ("1.23 GW", "1234.5", "What was the total installed capacity in 2022 (MW)?", True),
        ("1.23 GW", "1.23", "What was the total installed capacity in 2022 (MW)?", False),
        ("Mumbai receives about 2.2 metres of rain per year.", "2167", "What is the average annual rainfall in Mumbai (mm)?", True),
        ("Emissions were 37.4 Gt.", "37400", "What were emissions (Mt)?", True),
        ("Generation reached 29,000 terawatt-hours.", "29", "What was generation (PWh)?", False),  # no such prefix here
        ("It is 42 m long.", "42", "How long is it?", True),
    ],
)
def test_units_of_measure_with_another_prefix_are_converted(output, target, question, expected):
    assert grade(output, target, "number", question=question).correct is expected


def test_a_bound_gives_way_to_the_value_stated_with_it():
    output = "Over 90% of households in South Korea have broadband, the highest in the chart — the bar reads 97.5%."
    question = "What share of South Korean households have broadband (%)?"
    assert grade(output, "97.5", "number", question=question, labels=("South Korea", "Japan")).correct
    assert not grade(output, "90", "number", question=question, labels=("South Korea", "Japan")).correct
    assert grade("Over 90% of households have broadband.", "90", "number", question=question).correct


def test_world_bank_regions_are_their_names():
    labels = ("MENA", "Sub-Saharan Africa", "South Asia")
    output = "The **Middle East & North Africa** region has the highest youth unemployment."
    for label in labels:
        assert grade(output, label, "label", question="Which region is highest?", labels=labels).correct is (label == "MENA")


# Rules of the fifth pass, each stated in general; the outputs are written here in new wordings.


@pytest.mark.parametrize(
    ("output", "target", "question", "expected"),
    [
        ("Output shrank by **2.1%** that year.", "-2.1", "What was output growth in 2009 (%)?", True),
        ("It ran a deficit of just 1.4% of GDP.", "-1.4", "What was the budget balance (% of GDP)?", True),
        ("O PIB teve uma queda de 4,1% em 2020.", "-4.1", "What was GDP growth in 2020 (%)?", True),
        ("La economía registró una caída del 11,3 %.", "-11.3", "What was GDP growth in 2020 (%)?", True),
        ("Ülkenin dış ticaret açığı 12,4 milyar dolar oldu.", "-12.4", "What was the trade balance (billion USD)?", True),
        ("उत्पादन में 3.2% की गिरावट आई।", "-3.2", "What was the change in output (%)?", True),
        ("Output shrank by **2.1%** that year.", "2.1", "What was output growth in 2009 (%)?", False),
    ],
)
def test_decreases_in_words_sign_the_number(output, target, question, expected):
    assert grade(output, target, "number", question=question).correct is expected


@pytest.mark.parametrize(
    ("output", "target", "question", "expected"),
    [
        ("The policy rate stands at 450 bps.", "4.5", "What is the policy rate (%)?", True),
        ("The policy rate stands at 450 bps.", "450", "What is the policy rate (%)?", False),
        ("The spread widened to 175 basis points.", "175", "How wide was the spread (bps)?", True),
        ("($1,204)", "-1204", "What was the operating result (million USD)?", True),
        ("(3.5)", "3.5", "What was the operating result (million USD)?", False),
        ("Sales were ₹4,52,300 crore in FY2024.", "452300", "What were sales in FY2024 (crore INR)?", True),
        ("Sales were about ₹4.5 lakh crore.", "450000", "What were sales (crore INR)?", True),
    ],
)
def test_basis_points_accounting_brackets_and_indian_scales(output, target, question, expected):
    assert grade(output, target, "number", question=question).correct is expected


def test_a_year_glued_to_a_period_prefix_in_the_question_is_not_the_answer():
    output = "वित्त वर्ष 2024 में कंपनी का मुनाफ़ा ₹18,951 करोड़ रहा।"
    assert grade(output, "18951", "number", question="What was the company's profit in FY2024 (crore INR)?").correct


def test_number_words_that_count_the_items_shown_are_no_value():
    output = "Peru's inflation was 8.5% in 2022. Peru thus had the highest rate of the four economies."
    assert grade(output, "8.5", "number", question="What was Peru's inflation in 2022 (%)?", labels=("Peru", "Chile", "Bolivia", "Ecuador")).correct


def test_the_question_restated_is_no_claim_and_a_concluding_yes_or_no_commits():
    question = "Was coal's share higher than gas's in 2015?"
    labels = ("Coal", "Gas", "Nuclear")
    assert grade("Was coal's share higher than gas's in 2015? Yes at first glance — hmm, coal is 31% and gas 34%. So no, it was lower.",
                 "No", "label", question=question, labels=labels).correct
    assert grade("Coal supplied 31% against 34% for gas, so no.", "No", "label", question=question, labels=labels).correct
    assert not grade("Coal supplied 31% against 34% for gas, so no.", "Yes", "label", question=question, labels=labels).correct


def test_a_json_answer_left_empty_is_no_answer_and_a_revised_one_supersedes():
    question = "What was the share of Party B (%)?"
    assert not grade('{"shares": {"Party A": 41.0, "Party B": 33.2}, "answer": null}', "33.2", "number", question=question).correct
    assert grade('{"first_answer": 41.0, "corrected_answer": 33.2}', "33.2", "number", question=question).correct


@pytest.mark.parametrize(
    ("output", "target", "labels", "expected"),
    [
        ("The leader is West Texas Intermediate.", "WTI", ("Brent", "WTI", "Dubai"), True),
        ("The leader is West Texas Intermediate.", "Brent", ("Brent", "WTI", "Dubai"), False),
        ("Most seats went to the Scottish National Party.", "SNP", ("SNP", "Labour", "Conservative"), True),
        ("The Tories took the most seats.", "Conservative", ("SNP", "Labour", "Conservative"), True),
        ("Prince Edward Island & Nova Scotia", "Prince Edward Island and Nova Scotia", ("Prince Edward Island and Nova Scotia", "Ontario"), True),
        ("It peaked in August 2021.", "Aug 2021", ("Jun 2021", "Aug 2021", "Oct 2021"), True),
    ],
)
def test_acronyms_spelled_out_ampersands_party_nicknames_and_month_names(output, target, labels, expected):
    assert grade(output, target, "label", question="Which one is it?", labels=labels).correct is expected


def test_a_runner_up_named_after_the_answer_is_context():
    labels = ("Jan", "Apr", "Jul", "Oct")
    output = "Demand is highest in October, driven by heating. April is the second-highest month."
    assert grade(output, "Oct", "label", question="In which month is demand highest?", labels=labels).correct
    output = "Demand is highest in October. April is the second-highest month."
    assert grade(output, "Apr", "label", question="In which month is demand second-highest?", labels=labels).correct


def test_a_year_offered_beside_a_year_label_is_a_hedge():
    labels = ("2014", "2016", "2018")
    assert not grade("The lines cross in 2015 or 2016.", "2016", "label", question="In which year do the lines cross?", labels=labels).correct


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        # the number bound to the asked item wins over one in a clause naming none
        ("In 2021 the chart shows 52.1%, the highest of the group; Spain follows at 44.0%.", "44.0", True),
        # a label followed by an amount in dollars is that label's amount, not a currency
        ("By segment: Cloud $12.4B, Spain ads $3.1B and Devices $7.0B.", "3.1", True),
        # a multiple stated as a comparison is context
        ("Spain's exports were $44.0 billion, up from $11.0 billion, about 4 times as much.", "44.0", True),
        # the whole a share is taken of is context
        ("Spain earned $44.0 billion, about 30% of the group's total revenue of $146.7 billion.", "44.0", True),
        # a number in an aside is context
        ("Spain earned $44.0 billion (the group as a whole made $146.7 billion).", "44.0", True),
    ],
)
def test_the_number_bound_to_the_asked_item_is_the_answer(output, target, expected):
    labels = ("Cloud", "Spain ads", "Devices", "Italy", "Spain")
    question = "What was the value for Spain (billion USD)?" if "ads" not in output else "What was Spain ads revenue (billion USD)?"
    assert grade(output, target, "number", question=question, labels=labels).correct is expected


@pytest.mark.parametrize(
    ("output", "target", "question", "expected"),
    [
        ("The company swung to a loss: net income was $(412) million.", "-412", "What was net income in 2020 (million USD)?", True),
        ("$3.57T", "3.57", "What was India's GDP in 2023 (trillion USD)?", True),
        ("Nel 2020 il PIL è calato del 9,0%.", "-9", "What was Italy's GDP change in 2020 (%)?", True),
        ("Growth was negative in 2020, at 4.1%, before rebounding to 2.6%.", "-4.1", "What was growth in 2020 (%)?", True),
        ("ВВП составил около 2,24 трлн долларов.", "2240", "Каким был ВВП в 2022 году (млрд долларов)?", True),
        ("Reform surged to 14.3% of the vote, up 12.3 points from 2019.", "12.3", "By how many percentage points did its share change?", True),
        ("10h 56m", "10.93", "What is the average daily screen time (hours)?", True),
        ("Total = 79.2 + 40.9 + 28.0 = 148.1. Heathrow = 79.2. 79.2 / 148.1 = 0.535 ≈ 53.5%.", "53.5", "What share did Heathrow handle (%)?", True),
    ],
)
def test_signs_scales_points_hours_and_the_unit_asked(output, target, question, expected):
    labels = ("Heathrow", "Gatwick", "Stansted") if "Heathrow" in output else ()
    assert grade(output, target, "number", question=question, labels=labels).correct is expected


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("The DPRK stands far above the others; South Korea spends about 2.7%.", "North Korea", True),
        ("The States remain well ahead, with China second.", "United States", True),
        ("Japan recorded the lowest rate, with China and India close behind.", "Japan", True),
        ("Japan leads. China finished second, and India was third.", "Japan", True),
    ],
)
def test_more_country_names_and_runners_up(output, target, expected):
    labels = ("United States", "China", "India", "Japan", "North Korea", "South Korea")
    question = "Which country is lowest?" if "lowest" in output else "Which country is highest?"
    assert grade(output, target, "label", question=question, labels=labels).correct is expected


def test_england_is_not_the_united_kingdom():
    assert not grade("England", "United Kingdom", "label", question="Which country?", labels=("United Kingdom", "France")).correct


def test_a_relative_clause_naming_the_extreme_points_back_to_its_item():
    labels = ("Arsenal", "Chelsea", "Everton")
    output = "Chelsea looks tallest. Wait, no — Chelsea had 70, but Arsenal scored 88, which is the highest on the chart."
    assert grade(output, "Arsenal", "label", question="Which team scored the most?", labels=labels).correct
    assert not grade(output, "Chelsea", "label", question="Which team scored the most?", labels=labels).correct


@pytest.mark.parametrize(
    ("output", "target", "labels", "question", "expected"),
    [
        ("Man City topped the table, ahead of Real Madrid and PSG.", "PSG", ("Manchester City", "Real Madrid", "PSG"),
         "Which club earned the most?", False),  # the leader unread: those behind it are still no answer
        ("Paris Saint-Germain has the largest wage bill, ahead of Barcelona.", "PSG", ("PSG", "Barcelona"), "Which club pays the most?", True),
        ("Latin America had the thinnest margin, compared with 20% in North America.", "LatAm", ("North America", "LatAm"),
         "Which region had the lowest margin?", True),
    ],
)
def test_leaders_acronyms_with_hyphens_and_more_extremes(output, target, labels, question, expected):
    assert grade(output, target, "label", question=question, labels=labels).correct is expected


def test_an_amount_in_brackets_after_a_copula_is_negative():
    output = "Operating cash flow in 2021 was (238), reflecting working-capital outflows."
    assert grade(output, "-238", "number", question="What was operating cash flow in 2021 (million USD)?").correct
    assert not grade(output, "238", "number", question="What was operating cash flow in 2021 (million USD)?").correct


@pytest.mark.parametrize(
    ("output", "target", "labels", "expected"),
    [
        ("Aramco was by far the most profitable, ahead of Apple.", "Saudi Aramco", ("Saudi Aramco", "Apple", "Walmart"), True),
        ("Aramco was by far the most profitable, ahead of Apple.", "Apple", ("Saudi Aramco", "Apple", "Walmart"), False),
        ("aramco, maybe", "Saudi Aramco", ("Saudi Aramco", "Apple", "Walmart"), False),  # a label's own word counts capitalised
        ("Sudan showed the largest change.", "South Sudan", ("Chad", "Mali", "South Sudan"), False),  # a country of its own
    ],
)
def test_a_word_only_one_label_holds_names_it(output, target, labels, expected):
    assert grade(output, target, "label", question="Which one is highest?", labels=labels).correct is expected


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("Maryland (98,461), Massachusetts (96,505) and New Jersey (96,346) are above 96,000. Hawaii (94,814) and "
         "California (91,905) are not. That's 3 states.", "3", True),
        ("Maryland (98,461) and Massachusetts (96,505) are above 96,000. Hawaii (94,814) is not. That's 2 states.", "3", False),
        ("Only 1 state clears it: Maryland (98,461). Hawaii (94,814) is not above.", "1", True),
    ],
)
def test_a_count_question_commits_to_the_number_that_names_what_it_counts(output, target, expected):
    question = "How many states have a median household income above $96,000?"
    labels = ("Maryland", "Massachusetts", "New Jersey", "Hawaii", "California")
    assert grade(output, target, "number", question=question, labels=labels).correct is expected


def test_a_sentence_that_refers_back_to_the_asked_category_speaks_of_it():
    output = ("Rwanda has the highest representation of women in parliament. Women hold 61.3% of seats there, ahead of "
              "Cuba (53.4%).\n\nThis reflects the 2003 constitution, which reserves 30% of seats for women.")
    question = "What percentage of seats are held by women in Rwanda (%)?"
    labels = ("Rwanda", "Cuba", "Mexico")
    assert grade(output, "61.3", "number", question=question, labels=labels).correct
    assert not grade(output, "30", "number", question=question, labels=labels).correct


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("The value appears to be somewhere between 42 and 43 percent.", "42.5", True),
        ("The value appears to be somewhere between 42 and 43 percent.", "44.5", False),  # the far end is 5.6% off
        ("Approximately 60-62%, the bar ends just past the 60% gridline.", "61", True),
        ("Around 1,200 to 1,250 MW, I think.", "1225", True),
        ("Entre 60 et 65 %, d'après le graphique.", "62.5", False),  # wider than the tolerance: no answer
        ("Summing all bars I get somewhere from 125 to 135.", "130", False),
        ("It is 42 or 43.", "42.5", False),  # two candidates, however close
    ],
)
def test_a_range_no_wider_than_the_tolerance_is_one_answer(output, target, expected):
    assert grade(output, target, "number", question="What share said yes (%)?").correct is expected


@pytest.mark.parametrize(
    ("output", "target"),
    [
        ("Según el gráfico, India registró un déficit comercial de 46 mil millones de dólares.", "-46"),
        ("Согласно графику, в 2023 году у Японии наблюдался дефицит торгового баланса в размере 293 млрд долларов.", "-293"),
        ("في عام 2015، انخفضت القيمة بنسبة 8.5%.", "-8.5"),
        ("En 2016, la valeur a reculé de 6,7 %.", "-6.7"),
        ("2017 में मान 21.4% घटा।", "-21.4"),
        ("चार्ट के अनुसार, 2023 में जापान का 472 अरब डॉलर का व्यापार घाटा रहा।", "-472"),
        ("Secondo il grafico, la Germania ha registrato un disavanzo commerciale di 812 miliardi di dollari.", "-812"),
    ],
)
def test_signs_in_words_and_years_in_more_languages(output, target):
    assert grade(output, target, "number", question="What is the value (in billions)?").correct
    assert not grade(output, target.lstrip("-"), "number", question="What is the value (in billions)?").correct


@pytest.mark.parametrize(
    ("question", "scale"),
    [
        ("¿Qué valor muestra el gráfico para India? (en miles de millones de dólares)", 1e9),
        ("图中墨西哥的数值是多少？（单位：百万）", 1e6),
        ("图中中国的数值是多少？（单位：十亿美元）", 1e9),
        ("グラフにおける値はいくつですか？（単位：10億ドル）", 1e9),
        ("图中的数值是多少？（单位：亿元）", 1e8),
    ],
)
def test_units_asked_in_stacked_scale_words(question, scale):
    from rend_equiv_dataset.figures.answers.parse import question_scale

    assert question_scale(question) == scale


def test_items_joined_to_a_comparison_are_what_it_compared_against():
    labels = ("Labour", "Conservative", "Reform UK", "Liberal Democrats")
    output = "Looking at the chart, the Lib Dems rank first. Its value of 32.0% is well above that of Reform UK (10.7%) and Conservative (8.0%)."
    assert not grade(output, "Conservative", "label", question="Which party has the highest value?", labels=labels).correct


@pytest.mark.parametrize(
    ("question", "target"),
    [
        ("What was Alphabet's revenue in Q4 2021 (in billions of US dollars)?", "60.7"),
        ("By how much did Alphabet's revenue fall in Q4 2021 (in billions of US dollars)?", "-13.8"),
    ],
)
def test_a_change_by_an_amount_to_a_level_answers_the_level_unless_the_change_is_asked(question, target):
    output = "Between Q3 2021 and Q4 2021, Alphabet's revenue fell by $13.8 billion to $60.7 billion."
    assert grade(output, target, "number", question=question).correct


@pytest.mark.parametrize(
    ("output", "target"),
    [
        ("Looking at the chart, 18- to 29-year-olds rank first, at 51%.", "18-29"),
        ("Adults 65 and older had the highest share.", "65+"),
        ("Those aged 30 to 49 led.", "30-49"),
    ],
)
def test_age_groups_as_prose_writes_them(output, target):
    labels = ("18-29", "30-49", "50-64", "65+")
    assert grade(output, target, "label", question="Which age group had the highest share?", labels=labels).correct
    assert not grade(output, "50-64", "label", question="Which age group had the highest share?", labels=labels).correct


@pytest.mark.parametrize(
    ("output", "target", "expected"),
    [
        ("Based on the axis, I'd put Vienna in the 31.7–32.8°C range.", "32.2", True),
        ("The value for Q1 2022 is somewhere between 12.4 and $12.9 billion.", "12.6", True),
        ("Based on the axis, I'd put Wind in the 250–302 TWh range.", "296", False),  # wider than the tolerance
    ],
)
def test_ranges_written_with_a_unit_and_a_currency_sign(output, target, expected):
    assert grade(output, target, "number", question="What is the value?").correct is expected


@pytest.mark.parametrize("output", ["It's most likely India, though South Africa is close.", "Most probably India."])
def test_most_likely_is_no_superlative_of_the_measure(output):
    labels = ("Sweden", "South Africa", "India", "Germany")
    assert grade(output, "India", "label", question="Which country had the lowest share of renewables?", labels=labels).correct


@pytest.mark.parametrize(
    ("output", "target"),
    [
        ("Ответ: 371 млн\n\nПодождите, я неправильно прочитал ось. Столбец доходит до 476 млн, поэтому правильный ответ — 476 млн.", "476"),
        ("Đáp án: 83%\n\nKhoan đã, tôi đọc nhầm trục. Cột đạt tới 61%, vì vậy đáp án đúng là 61%.", "61"),
        ("Resposta: 22,1%\n\nEspere, li o eixo errado. A barra chega a 16,4%, então a resposta correta é 16,4%.", "16.4"),
        ("Réponse : 30\n\nAttendez, la bonne réponse est 42.", "42"),
    ],
)
def test_a_correct_answer_named_after_a_correction_in_other_languages(output, target):
    assert grade(output, target, "number", question="What is the value?").correct
