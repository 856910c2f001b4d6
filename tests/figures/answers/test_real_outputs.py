"""Real-looking model outputs, each with the answer a careful human grader reads in it.

The outputs are written the way Qwen2-VL, LLaVA, InternVL and GPT-4o answer
chart questions: terse and verbose, with reasoning blocks, both answer types,
and every rule of the reader (``rend_equiv_dataset/figures/answers/parse.py``).
``expected`` is the canonical answer the human reads (``None``: no answer —
a hedge, a refusal, unfinished working); the human's verdict is whether that
answer is within tolerance of the target. ``benchmarks/answers.py`` prints the
share of verdicts the reader gets right next to the common ChartQA rule.

A table row is ``(context, output, expected, rule)``; ``context`` names the
question, its labels and its target in :data:`CONTEXTS`. Terse answers are
also written in each model's style by :data:`STYLES`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from rend_equiv_dataset.figures.answers.grade import grade, target_answer
from rend_equiv_dataset.figures.answers.parse import parse_answer
from rend_equiv_dataset.figures.answers.relaxed import within
from rend_equiv_dataset.figures.charts.canonical import format_number

COUNTRIES = ("Japan", "France", "Germany", "Chile")
CONTEXTS: dict[str, tuple[str, str, tuple[str, ...], str]] = {
    # name: (answer_type, question, labels, target)
    "exports": ("number", "What are the exports of Japan, in bn USD?", COUNTRIES, "30.5"),
    "exports_2020": ("number", "What is the value of exports for Japan in the 2020 series, in bn USD?", COUNTRIES, "30.5"),
    "visitors": ("number", "How many visitors came in Q3 2023, in thousands?", ("Q1 2023", "Q2 2023", "Q3 2023", "Q4 2023"), "55"),
    "share": ("number", "What percentage of the total budget does Legal account for?", ("Legal", "HR", "IT", "Sales"), "23.5"),
    "fraction": ("number", "What fraction of the total budget does Legal account for?", ("Legal", "HR", "IT", "Sales"), "0.235"),
    "difference": ("number", "By how much does the value for Apples exceed that for Bananas?", ("Apples", "Bananas", "Cherries"), "18.5"),
    "total": ("number", "What is the total revenue across all regions, in M EUR?", ("North", "South", "East", "West"), "1204"),
    "year_value": ("number", "What is the value of sales in 2019?", ("2017", "2018", "2019", "2020"), "48"),
    "change": ("number", "What is the change in profit for Chile between 2019 and 2020, in bn USD?", COUNTRIES, "-3.5"),
    "units": ("number", "What is the median income of Legal, in k USD?", ("Legal", "HR", "IT", "Sales"), "45"),
    "plain": ("number", "What is the value of the tallest bar?", (), "12.5"),
    "count": ("number", "How many bars exceed 20?", (), "25"),
    "highest": ("label", "Which country has the highest exports?", COUNTRIES, "Japan"),
    "higher": ("label", "Which has the higher exports: Japan or France?", COUNTRIES, "Japan"),
    "lowest": ("label", "Which country has the lowest exports?", COUNTRIES, "Chile"),
    "month": ("label", "Which month has the highest sales?", ("Mar", "Apr", "May", "Jun"), "May"),
    "quarter": ("label", "Which quarter has the most visitors?", ("Q1 2022", "Q2 2022", "Q3 2022", "Q4 2022"), "Q3 2022"),
    "year": ("label", "Which year has the highest sales?", ("2017", "2018", "2019", "2020"), "2019"),
    "fruit": ("label", "Which fruit has the lowest price?", ("Apples", "Bananas", "Cherries"), "Cherries"),
    "language": ("label", "Which language has the most stars?", ("Go", "Rust", "Python"), "Go"),
    "city": ("label", "Which city has the largest population?", ("New York", "Boston", "San Francisco"), "New York"),
}

# Terse answers: (context, answer phrase, expected).
TERSE = [
    ("exports", "30.5", "30.5"),
    ("exports", "30.5 bn USD", "30.5"),
    ("exports", "$30.5 billion", "30.5"),
    ("exports", "30,5", "30.5"),
    ("exports", "３０．５", "30.5"),
    ("exports", "about 31", "31"),
    ("exports", "12", "12"),
    ("exports", "thirty", "30"),
    ("visitors", "55", "55"),
    ("visitors", "55 thousand", "55"),
    ("visitors", "55,000", "55"),
    ("visitors", "55k", "55"),
    ("visitors", "55\u202f000", "55"),
    ("visitors", "fifty-five thousand", "55"),
    ("share", "23.5%", "23.5"),
    ("share", "23.5 percent", "23.5"),
    ("share", "24%", "24"),
    ("fraction", "23.5%", "0.235"),
    ("fraction", "0.235", "0.235"),
    ("difference", "18.5", "18.5"),
    ("difference", "30.5 − 12 = 18.5", "18.5"),
    ("difference", "30.5 - 12", None),
    ("total", "1,204", "1204"),
    ("total", "1\u2009204 M EUR", "1204"),
    ("total", "€1.2 billion", "1200"),
    ("total", "1.204,0", "1204"),
    ("year_value", "48", "48"),
    ("year_value", "48 units", "48"),
    ("change", "−3.5", "-3.5"),
    ("change", "–3.5 bn USD", "-3.5"),
    ("change", "minus 3.5", "-3.5"),
    ("change", "-3.5", "-3.5"),
    ("units", "$45k", "45"),
    ("units", "45,000 USD", "45"),
    ("plain", "12.5", "12.5"),
    ("plain", "12½", "12.5"),
    ("count", "twenty-five", "25"),
    ("count", "25 bars", "25"),
    ("count", "Twenty five", "25"),
    ("highest", "Japan", "Japan"),
    ("highest", "japan", "Japan"),
    ("highest", "JAPAN", "Japan"),
    ("highest", "France", "France"),
    ("highest", "Japan or France", None),
    ("highest", "Not Japan — France", "France"),
    ("higher", "Japan", "Japan"),
    ("lowest", "Chile", "Chile"),
    ("month", "May", "May"),
    ("month", "may", "May"),
    ("month", "April", "Apr"),
    ("month", "June", "Jun"),
    ("quarter", "Q3 2022", "Q3 2022"),
    ("quarter", "Q3-2022", "Q3 2022"),
    ("quarter", "2022 Q3", "Q3 2022"),
    ("quarter", "q3 2022", "Q3 2022"),
    ("quarter", "Q2 2022", "Q2 2022"),
    ("year", "2019", "2019"),
    ("year", "FY2019", "2019"),
    ("year", "2018", "2018"),
    ("fruit", "Cherries", "Cherries"),
    ("fruit", "Cherry", "Cherries"),
    ("fruit", "cherries", "Cherries"),
    ("fruit", "Banana", "Bananas"),
    ("language", "Go", "Go"),
    ("language", "go", "Go"),
    ("language", "Rust", "Rust"),
    ("city", "New York", "New York"),
    ("city", "NewYork", "New York"),
    ("city", "new-york", "New York"),
    ("city", "Boston", "Boston"),
]

# How each model family writes a terse answer A.
STYLES = {
    "qwen2vl": "{a}",
    "llava": "{a}.",
    "llava_sentence": "The answer is {a}.",
    "internvl": "Answer: {a}",
    "gpt4o": (
        "To answer this, I looked at the chart's bars and the y-axis, which has gridlines every 10 units "
        "from 0 to 50.\n\nComparing the heights carefully, the relevant value stands out.\n\n**Final answer:** {a}"
    ),
    "reasoning": "<think>\nThe axis goes from 0 to 50. First guess 17? Let me look again; the bar is labelled.\n</think>\n\n{a}",
}

# Verbose outputs written out in full: (context, output, expected, rule).
VERBOSE = [
    # -- markers win ------------------------------------------------------------------------
    ("exports", "Looking at the chart, Japan's bar reaches just above 30. The answer is 30.5.", "30.5", "marker"),
    ("exports", "The bar for France is at 12 and Germany at 8. Final answer: 30.5", "30.5", "marker"),
    ("exports", "Japan: 30.5, France: 12, Germany: 8, Chile: 4.\nAnswer: 30.5", "30.5", "marker"),
    ("exports", "We need Japan's exports. Reading the chart gives \\boxed{30.5}.", "30.5", "marker"),
    ("exports", "Reading the bars: France 12, Germany 8. Japan's exports are **30.5 bn USD**.", "30.5", "marker"),
    ("exports", "The answer is 30.5. (France, by comparison, is at 12 bn USD.)", "30.5", "marker"),
    ("exports", "Answer: 12\n\nWait, that is France. Final Answer: 30.5", "30.5", "marker"),
    ("exports", "The answer is: 30.5 bn USD", "30.5", "marker"),
    ("exports", "**Answer:** 30.5", "30.5", "marker"),
    ("exports", "### Final Answer\n30.5 bn USD", "30.5", "marker"),
    ("exports", "\\boxed{30.5} is my reading, though France is 12.", "30.5", "marker"),
    ("exports", "The correct answer is 31.", "31", "marker"),
    ("exports", "Final answer: I cannot read the value from this chart.", None, "refusal"),
    ("exports", "The answer is not clear from the image.", None, "refusal"),
    ("exports", "Answer: N/A", None, "refusal"),
    ("total", "North 400 + South 300 + East 254 + West 250 = 1,204.\n\nThe answer is 1,204 M EUR.", "1204", "marker"),
    ("total", "Adding the four regions: 400 + 300 + 254 + 250.\nFinal answer: \\boxed{1204}", "1204", "marker"),
    ("total", "The answer is 400 + 300 + 254 + 250 = 1204.", "1204", "arithmetic"),
    ("total", "The answer is 400 + 300 + 254 + 250.", None, "arithmetic"),
    ("difference", "The answer is 30.5 − 12.", None, "arithmetic"),
    ("difference", "Apples is 30.5 and Bananas is 12, so the difference is 30.5 - 12 = 18.5.", "18.5", "arithmetic"),
    ("difference", "Apples = 30.5, Bananas = 12. 30.5 − 12 = 18.5", "18.5", "arithmetic"),
    ("difference", "The difference is 30.5 minus 12, which gives 18.5.", "18.5", "arithmetic"),
    ("difference", "Apples exceed Bananas by 18.5.", "18.5", "committed"),
    ("difference", "Apples (30.5) exceed Bananas (12) by 18.5 units.", "18.5", "committed"),
    ("difference", "The value for Apples is 30.5 and for Bananas is 12. Subtracting: 30.5 - 12.", None, "arithmetic"),
    ("highest", "Looking at the chart, Japan has the highest bar. The answer is Japan.", "Japan", "marker"),
    ("highest", "France is second. Final answer: Japan", "Japan", "marker"),
    ("highest", "The answer is **Japan**.", "Japan", "marker"),
    ("highest", "Answer: Japan (30.5 bn USD)", "Japan", "marker"),
    ("highest", "The answer is Japan or France; the bars look similar.", None, "hedge"),
    ("highest", "Final answer: either Japan or France.", None, "hedge"),
    ("highest", "\\boxed{\\text{Japan}}", "Japan", "marker"),
    ("highest", "The country with the highest exports is **Japan**.", "Japan", "marker"),
    # -- reasoning blocks ------------------------------------------------------------------
    ("exports", "<think>\nFrance looks like 12. Germany 8. Japan is the tallest, about 30.5.\n</think>\n\n30.5", "30.5", "think"),
    ("exports", "<think>The answer is 12? No, that is France.</think>\nThe answer is 30.5.", "30.5", "think"),
    ("exports", "France 12, Germany 8, so Japan must be 30.5 by the gridlines.\n</think>\n\n30.5 bn USD", "30.5", "think"),
    ("exports", "<think>\nLet me read the chart. Japan's bar ends between 30 and 31, closer to 30.5", None, "think"),
    ("exports", "<think>\nJapan's bar ends at about 30.5. Final answer: 30.5\n", "30.5", "think"),
    ("exports", "<think>The bars: Japan 30.5, France 12.</think>", None, "think"),
    ("highest", "<think>France is 12, Japan is 30.5, so Japan is higher.</think>\n\nJapan", "Japan", "think"),
    ("highest", "<think>\nCould it be France? No, France is at 12.\n</think>\nThe answer is Japan.", "Japan", "think"),
    ("highest", "<think>Japan vs France... Japan is taller</think>\n\n**Japan**", "Japan", "think"),
    ("lowest", "<think>Chile is shortest. Not France.</think>Chile", "Chile", "think"),
    ("year", "<think>2018 was 40, 2019 was 48, 2020 was 45.</think>\n2019", "2019", "think"),
    ("visitors", "<think>Q3 bar ≈ 55 on a thousands axis.</think>\n\nAbout 55 thousand visitors.", "55", "think"),
    # -- leading bare answer ---------------------------------------------------------------
    ("exports", "30.5\n\nJapan's bar reaches 30.5 on the axis, well above France at 12.", "30.5", "lead"),
    ("exports", "30.5 bn USD. The bar for Japan is the tallest; France follows at 12.", "30.5", "lead"),
    ("exports", "30.5 - Japan's exports are the largest in the chart.", "30.5", "lead"),
    ("highest", "Japan. Its bar is clearly taller than those of France, Germany and Chile.", "Japan", "lead"),
    ("highest", "Japan\n\nExplanation: the Japan bar reaches 30.5 while France only reaches 12.", "Japan", "lead"),
    ("highest", "**Japan**\n\nThe tallest bar is Japan's, followed by France.", "Japan", "lead"),
    ("lowest", "Chile. It has the shortest bar at 4 bn USD, below Germany's 8.", "Chile", "lead"),
    ("month", "May. Sales peak in May at 120 units before falling in June.", "May", "lead"),
    ("language", "Go. The Go bar is the tallest, ahead of Rust and Python.", "Go", "lead"),
    ("year", "2019. Sales in 2019 reached 48, more than in 2018 or 2020.", "2019", "lead"),
    ("highest", "Japan\n\nWait, actually France is higher on closer inspection.", "France", "correction"),
    ("exports", "12\n\nActually, that is France; Japan is 30.5.", "30.5", "correction"),
    # -- last committed statement ----------------------------------------------------------
    ("exports", "Japan is 30.5 bn USD, while France is 12 bn USD.", "30.5", "other-category"),
    ("exports", "France is 12 bn USD, while Japan is 30.5 bn USD.", "30.5", "other-category"),
    ("exports", "France exports 12 bn USD and Japan exports 30.5 bn USD.", "30.5", "other-category"),
    ("exports", "The value for Japan is 30.5, compared to 12 for France.", "30.5", "other-category"),
    ("exports", "For Japan, the exports amount to 30.5 bn USD. France follows with 12 and Germany with 8.", "30.5", "other-category"),
    ("exports", "Japan leads with 30.5 bn USD, followed by France with 12 bn USD.", "30.5", "other-category"),
    ("exports", "Germany: 8. France: 12. Japan: 30.5.", "30.5", "other-category"),
    ("exports", "The chart shows exports for four countries. Japan's exports are 30.5 bn USD.", "30.5", "committed"),
    ("exports", "Japan's exports are 30.5 bn USD. This is read from the y-axis, whose gridlines are at 30 and 35.", "30.5", "working-after"),
    ("exports", "Japan's exports are about 30.5 bn USD. The axis ranges from 0 to 40 in steps of 5.", "30.5", "working-after"),
    ("exports", "The exports of Japan are 30.5 bn USD. To verify, the bar ends just above the 30 gridline.", "30.5", "working-after"),
    ("exports_2020", "In the 2020 series, Japan's exports were 30.5 bn USD.", "30.5", "question-copy"),
    ("exports_2020", "Looking at the 2020 series, the value for Japan is approximately 30.5.", "30.5", "question-copy"),
    ("exports_2020", "For 2020, Japan: 30.5 bn USD.", "30.5", "question-copy"),
    ("year_value", "In 2019, sales were 48.", "48", "question-copy"),
    ("year_value", "The value of sales in 2019 is 48 units.", "48", "question-copy"),
    ("year_value", "Sales rose from 40 in 2018 to 48 in 2019.", "48", "question-copy"),
    ("year_value", "Sales in 2019 reached 48, the peak of the 2017-2020 period.", "48", "question-copy"),
    ("change", "Chile's profit went from 10 in 2019 to 6.5 in 2020, a change of -3.5 bn USD.", "-3.5", "question-copy"),
    ("change", "Between 2019 and 2020 the profit of Chile changed by −3.5 bn USD.", "-3.5", "question-copy"),
    ("change", "The profit fell by 3.5 bn USD, so the change is –3.5.", "-3.5", "committed"),
    ("exports", "It is 30.5 at first glance, but on closer inspection the bar reaches 42.7.", "42.7", "correction"),
    ("exports", "It seems to be 30.5, but looking more closely it is 31.", "31", "correction"),
    ("exports", "Japan's value is 12. Actually, 12 is France; Japan's value is 30.5.", "30.5", "correction"),
    ("exports", "Japan's exports are 28. Wait, let me recheck: the bar ends at 30.5.", "30.5", "correction"),
    ("exports", "I initially read 25, but the correct reading is 30.5.", "30.5", "correction"),
    ("exports", "Japan's exports are 30 or 31 bn USD.", None, "hedge"),
    ("exports", "Japan's exports are somewhere between 30 and 31 bn USD.", "30.5", "narrow-range"),  # within the tolerance
    ("exports", "Japan's exports are somewhere between 28 and 33 bn USD.", None, "hedge"),
    ("exports", "It could be 30 or 35; the chart is blurry.", None, "hedge"),
    ("exports", "Japan's exports are not 12 but 30.5 bn USD.", "30.5", "negation"),
    ("exports", "The value is not 12; it is 30.5.", "30.5", "negation"),
    ("exports", "I'm unable to determine the exact exports of Japan from this chart.", None, "refusal"),
    ("exports", "Sorry, I cannot see the chart.", None, "refusal"),
    ("exports", "The chart does not show a value for Japan.", None, "refusal"),
    ("exports", "Japan's exports total thirty point five billion dollars.", "30.5", "number-words"),
    ("visitors", "About 55,000 visitors came in Q3 2023.", "55", "units"),
    ("visitors", "There were 55 thousand visitors in Q3 2023.", "55", "units"),
    ("visitors", "Q3 2023 had about 55k visitors.", "55", "units"),
    ("visitors", "The Q3 2023 bar reaches 55 on the axis (in thousands).", "55", "units"),
    ("visitors", "In Q3 2023, the number of visitors was 55 thousand, up from 48 thousand in Q2 2023.", "55", "units"),
    ("visitors", "The Q3 bar shows 55,000.", "55", "units"),
    ("share", "Legal accounts for 23.5% of the total budget.", "23.5", "percent"),
    ("share", "The Legal slice is labelled 23.5%, the second-largest after Sales at 31%.", "23.5", "other-category"),
    ("share", "Legal: 23.5%. HR: 18%. IT: 27.5%. Sales: 31%.", "23.5", "other-category"),
    ("share", "Legal accounts for roughly a quarter of the budget, 23.5 percent.", "23.5", "percent"),
    ("fraction", "Legal accounts for 23.5% of the budget.", "0.235", "percent"),
    ("fraction", "The Legal share is 0.235 of the total.", "0.235", "percent"),
    ("units", "The median income of Legal is $45,000.", "45", "units"),
    ("units", "Legal's median income is 45k USD.", "45", "units"),
    ("units", "Legal earns a median of 45 thousand dollars.", "45", "units"),
    ("total", "North contributes 400, South 300, East 254 and West 250, for a total of 1,204 M EUR.", "1204", "committed"),
    ("total", "Summing all regions: 400 + 300 + 254 + 250 = 1204 M EUR.", "1204", "arithmetic"),
    ("total", "The total revenue is 1.204 billion EUR.", "1204", "units"),
    ("total", "Therefore, the total revenue is approximately 1,200 M EUR.", "1200", "committed"),
    ("plain", "The tallest bar is about 12.5 units high.", "12.5", "committed"),
    ("plain", "The tallest bar reaches 12,5 on the axis.", "12.5", "decimal-comma"),
    ("plain", "The tallest bar is 1,250 units, far above the rest.", "1250", "thousands"),
    ("plain", "The value of the tallest bar is 12.5\u00a0units.", "12.5", "committed"),
    ("count", "Twenty-five bars exceed 20.", "25", "number-words"),
    ("count", "There are twenty five such bars.", "25", "number-words"),
    ("count", "I count twenty twenty bars.", None, "number-words"),
    ("count", "Counting the bars above the 20 line gives 25.", "25", "question-copy"),
    # -- labels: comparisons and negations -------------------------------------------------
    ("higher", "France has lower exports than Japan.", "Japan", "comparison"),
    ("higher", "Japan has higher exports than France.", "Japan", "comparison"),
    ("higher", "Japan's exports are greater than France's.", "Japan", "comparison"),
    ("higher", "France does not have higher exports than Japan.", "Japan", "comparison"),
    ("higher", "Japan exceeds France in exports.", "Japan", "comparison"),
    ("higher", "France trails Japan.", "Japan", "comparison"),
    ("higher", "Comparing Japan and France, Japan is higher.", "Japan", "comparison"),
    ("higher", "Between Japan and France, Japan has the higher exports.", "Japan", "comparison"),
    ("higher", "Japan has higher exports, 30.5 vs 12 bn USD for France.", "Japan", "comparison"),
    ("higher", "France has higher exports than Japan.", "France", "comparison"),
    ("higher", "It is Japan, not France.", "Japan", "negation"),
    ("higher", "Not Japan — France has the higher exports.", "France", "negation"),
    ("higher", "Japan or France, it is hard to tell.", None, "hedge"),
    ("higher", "Both Japan and France have similar exports.", None, "hedge"),
    ("lowest", "Chile has the lowest exports.", "Chile", "comparison"),
    ("lowest", "Japan has the highest exports, while Chile has the lowest.", "Chile", "comparison"),
    ("lowest", "Chile's exports are lower than those of Germany.", "Chile", "comparison"),
    ("lowest", "Germany's exports are higher than Chile's.", "Chile", "comparison"),
    ("lowest", "The lowest exports belong to Chile, at 4 bn USD.", "Chile", "comparison"),
    ("lowest", "Japan is the highest and Chile is the lowest.", "Chile", "comparison"),
    ("lowest", "Germany is not the lowest; Chile is.", "Chile", "negation"),
    ("highest", "Japan has the highest exports, while Chile has the lowest.", "Japan", "comparison"),
    ("highest", "Japan has the highest exports at 30.5 bn USD. France follows with 12 bn USD.", "Japan", "committed"),
    ("highest", "France and Germany are close, but Japan clearly has the highest exports.", "Japan", "comparison"),
    ("highest", "The tallest bar belongs to Japan.", "Japan", "comparison"),
    ("highest", "Japan's bar is the tallest in the chart.", "Japan", "comparison"),
    ("highest", "Looking at the bars: France 12, Germany 8, Chile 4, Japan 30.5. Japan has the most.", "Japan", "committed"),
    ("highest", "The country with the highest exports is France, at 12 bn USD. Actually, Japan's bar is taller, so Japan.", "Japan", "correction"),
    ("highest", "At first glance it looks like France, but Japan has the highest exports.", "Japan", "correction"),
    ("highest", "It seems to be France, but on closer inspection it is Japan.", "Japan", "correction"),
    ("highest", "Japan has the highest exports, but France is close behind.", "Japan", "comparison"),
    ("highest", "Chile has the lowest exports.", None, "comparison"),
    ("highest", "The country with the highest exports is Japan.\n\nFrance is second and Germany third.", "Japan", "working-after"),
    ("highest", "Japan does not have the highest exports; France does.", "France", "negation"),
    ("highest", "Either Japan or France has the highest exports.", None, "hedge"),
    ("highest", "I can't tell which country has the highest exports.", None, "refusal"),
    ("highest", "The highest is Japan.", "Japan", "comparison"),
    ("highest", "Rather than France, it is Japan that leads.", "Japan", "negation"),
    # -- labels: aliases and ordinary words ------------------------------------------------
    ("month", "Sales are highest in May.", "May", "alias"),
    ("month", "The peak month is May, with 120 units.", "May", "alias"),
    ("month", "Sales may be highest in June.", "Jun", "ordinary-word"),
    ("month", "It may be April; April has the tallest bar.", "Apr", "ordinary-word"),
    ("month", "The highest sales are in the month of June.", "Jun", "alias"),
    ("month", "Sales peak in April at 95 units.", "Apr", "alias"),
    ("month", "The answer is may.", "May", "ordinary-word"),
    ("language", "Go has the most stars.", "Go", "ordinary-word"),
    ("language", "Let's go through the bars: Rust has the most stars.", "Rust", "ordinary-word"),
    ("language", "To go by the chart, Python has the most stars.", "Python", "ordinary-word"),
    ("language", "The most starred language is Go.", "Go", "ordinary-word"),
    ("language", "Answer: go", "Go", "ordinary-word"),
    ("quarter", "Visitors peak in Q3-2022.", "Q3 2022", "alias"),
    ("quarter", "The most visitors came in 2022 Q3, about 55 thousand.", "Q3 2022", "alias"),
    ("quarter", "Q3 2022 has the most visitors, ahead of Q2 2022.", "Q3 2022", "alias"),
    ("quarter", "Q2 2022 has fewer visitors than Q3 2022.", "Q3 2022", "comparison"),
    ("year", "Sales were highest in 2019.", "2019", "alias"),
    ("year", "The highest sales were in FY2019.", "2019", "alias"),
    ("year", "Sales peaked in 2018.", "2018", "alias"),
    ("year", "2019 has higher sales than 2018.", "2019", "comparison"),
    ("year", "The highest sales, 48 units, were recorded in 2019.", "2019", "alias"),
    ("fruit", "Cherries have the lowest price.", "Cherries", "alias"),
    ("fruit", "The cherry bar is the shortest.", "Cherries", "alias"),
    ("fruit", "A banana costs more than a cherry.", "Cherries", "comparison"),
    ("fruit", "Bananas have a lower price than apples.", "Bananas", "comparison"),
    ("fruit", "The lowest price is for bananas.", "Bananas", "alias"),
    ("city", "New York has the largest population.", "New York", "alias"),
    ("city", "The largest city is NEW YORK.", "New York", "alias"),
    ("city", "New York's population is larger than Boston's.", "New York", "comparison"),
    ("city", "San Francisco is smaller than New York.", "New York", "comparison"),
    ("city", "Boston has the smallest population.", None, "comparison"),
    # -- long, multi-paragraph outputs (GPT-4o, InternVL, reasoning models) -----------------
    ("exports", (
        "To find Japan's exports, I'll examine the bar chart.\n\n"
        "1. The y-axis shows exports in bn USD, from 0 to 40.\n"
        "2. France's bar reaches 12, Germany's 8 and Chile's 4.\n"
        "3. Japan's bar is the tallest and ends at 30.5.\n\n"
        "So Japan's exports are 30.5 bn USD."
    ), "30.5", "committed"),
    ("exports", (
        "Step 1: Locate Japan on the x-axis.\nStep 2: Follow the bar up to the y-axis.\n"
        "Step 3: The bar ends halfway between 30 and 31.\n\nTherefore, Japan's exports are approximately 30.5 bn USD."
    ), "30.5", "committed"),
    ("exports", (
        "The chart compares four countries. Japan: 30.5 bn USD. France: 12 bn USD. Germany: 8 bn USD. "
        "Chile: 4 bn USD. The gridlines are every 5 units."
    ), "30.5", "other-category"),
    ("exports", (
        "Let me analyze this chart.\n\nThe bars show exports in bn USD. The Japan bar reaches about 30.5.\n\n"
        "Let me double-check with the gridlines at 30 and 35: the bar is just above 30. Yes, 30.5."
    ), "30.5", "committed"),
    ("highest", (
        "To determine which country has the highest exports, compare the bar heights:\n\n"
        "- Japan: 30.5 bn USD\n- France: 12 bn USD\n- Germany: 8 bn USD\n- Chile: 4 bn USD\n\n"
        "Japan has the highest exports."
    ), "Japan", "committed"),
    ("highest", (
        "- Japan: 30.5\n- France: 12\n- Germany: 8\n- Chile: 4\n\nThe highest value belongs to Japan, "
        "which is more than twice France's value."
    ), "Japan", "committed"),
    ("highest", (
        "Looking at the chart, France's bar appears tall at first, but Japan's bar clearly extends further. "
        "Germany and Chile are much lower.\n\nThus, the country with the highest exports is Japan."
    ), "Japan", "committed"),
    ("highest", (
        "<think>\nThe question asks which country has the highest exports. Bars: Japan about 30, France 12, "
        "Germany 8, Chile 4. Wait, is France perhaps higher? No, France is at 12. So Japan.\n</think>\n\n"
        "Japan has the highest exports, at roughly 30.5 bn USD."
    ), "Japan", "think"),
    ("lowest", (
        "Reading the four bars from left to right: Japan (30.5), France (12), Germany (8), Chile (4).\n"
        "The shortest bar is Chile's, so Chile has the lowest exports."
    ), "Chile", "committed"),
    ("visitors", (
        "The chart shows quarterly visitors in thousands. Q1 2023: 40, Q2 2023: 48, Q3 2023: 55, Q4 2023: 50.\n\n"
        "In Q3 2023, there were 55 thousand visitors."
    ), "55", "units"),
    ("total", (
        "Let's add up the revenue of each region:\n- North: 400\n- South: 300\n- East: 254\n- West: 250\n\n"
        "Total = 400 + 300 + 254 + 250 = 1,204 M EUR"
    ), "1204", "arithmetic"),
    ("difference", (
        "From the chart, Apples = 30.5 and Bananas = 12.\n\nDifference = 30.5 − 12 = 18.5\n\n"
        "So Apples exceed Bananas by 18.5."
    ), "18.5", "arithmetic"),
    ("difference", "Apples: 30.5\nBananas: 12\n\n30.5 − 12", None, "arithmetic"),
    ("share", (
        "The pie chart has four slices: Sales 31%, IT 27.5%, Legal 23.5% and HR 18%. "
        "These add up to 100%. Legal's share is 23.5%."
    ), "23.5", "other-category"),
    # -- more hedges, refusals and non-answers ---------------------------------------------
    ("exports", "Japan's exports are roughly 30 to 35 bn USD.", None, "hedge"),
    ("exports", "The value is either 30 or 31.", None, "hedge"),
    ("exports", "I'm not sure; maybe 30 or maybe 40.", None, "hedge"),
    ("exports", "The image is too low-resolution to read the values.", None, "refusal"),
    ("exports", "There is no data for Japan in this chart.", None, "refusal"),
    ("exports", "I don't know.", None, "refusal"),
    ("exports", "Answer: unknown", None, "refusal"),
    ("total", "Answer: 400 + 300 + 254 + 250", None, "arithmetic"),
    ("highest", "It's difficult to say whether Japan or France has the highest exports.", None, "hedge"),
    ("highest", "Japan and France both have high exports.", None, "hedge"),
    ("highest", "The chart does not show exports.", None, "refusal"),
    ("highest", "Answer: Japan/France", None, "hedge"),
    ("highest", "I cannot determine this from the image.", None, "refusal"),
    ("lowest", "Either Germany or Chile.", None, "hedge"),
    ("lowest", "The answer is Germany or Chile.", None, "hedge"),
    ("month", "It may be higher in spring.", None, "ordinary-word"),
    ("month", "Sales may go up over time.", None, "ordinary-word"),
    ("language", "Let's go through the chart.", None, "ordinary-word"),
    ("year", "Sales were highest in 2021.", None, "alias"),
    ("fruit", "Grapes have the lowest price.", None, "alias"),
    # -- harder phrasings ------------------------------------------------------------------
    ("exports", "Japan's bar sits at 30.5, about two and a half times France's 12.", "30.5", "other-category"),
    ("exports", "Approximately 30.5 (bn USD) for Japan; the other countries are all below 15.", "30.5", "lead"),
    ("exports", "Based on the chart, the exports of Japan are around **30.5** billion US dollars.", "30.5", "marker"),
    ("exports", "The exports of Japan: 30.5 bn USD (the highest among the four countries shown).", "30.5", "committed"),
    ("exports", "Japan exported goods worth 30.5 bn USD, which is 18.5 more than France.", "30.5", "working-after"),
    ("exports", "Japan — 30.5 bn USD", "30.5", "committed"),
    ("exports", "Value for Japan ≈ 30.5", "30.5", "committed"),
    ("exports", "Japan's exports are 30.5 bn USD, roughly 41% of the total shown.", "30.5", "working-after"),
    ("exports", "The value is 30.5, not 35.", "30.5", "negation"),
    ("exports", "Japan: ~30.5 bn USD", "30.5", "committed"),
    ("exports", "It's hard to be exact, but Japan's exports look like about 30.5 bn USD.", "30.5", "committed"),
    ("exports", "My best estimate is 30.5.", "30.5", "committed"),
    ("exports", "The exports of Japan amounted to USD 30.5 bn in the period shown.", "30.5", "committed"),
    ("visitors", "Q3 2023 saw 55.0k visitors.", "55", "units"),
    ("visitors", "55 (thousand)", "55", "units"),
    ("visitors", "Roughly 0.055 million visitors came in Q3 2023.", "55", "units"),
    ("share", "Legal: 23.5 %", "23.5", "percent"),
    ("share", "Legal makes up 23.5% of the budget, while HR makes up 18%.", "23.5", "other-category"),
    ("fraction", "Legal accounts for 23.5 percent, i.e. 0.235 of the budget.", "0.235", "percent"),
    ("change", "Chile's profit decreased by 3.5 bn USD between 2019 and 2020.", "-3.5", "committed"),
    ("change", "The change is −3.5 bn USD (from 10 to 6.5).", "-3.5", "committed"),
    ("total", "The total is 1.2 thousand M EUR.", "1200", "units"),
    ("total", "Total revenue: EUR 1,204 M", "1204", "units"),
    ("count", "There are 25 of them.", "25", "committed"),
    ("count", "25. Bars above 20 are shaded darker.", "25", "lead"),
    ("highest", "Japan stands out as the leader in exports.", "Japan", "comparison"),
    ("highest", "The answer: Japan.", "Japan", "marker"),
    ("highest", "Japan, with 30.5 bn USD.", "Japan", "lead"),
    ("highest", "France has the second-highest exports; Japan has the highest.", "Japan", "comparison"),
    ("highest", "Highest exports: Japan (30.5 bn USD). Lowest: Chile (4 bn USD).", "Japan", "comparison"),
    ("higher", "Japan (30.5 vs 12).", "Japan", "lead"),
    ("higher", "Japan's exports (30.5) exceed France's (12).", "Japan", "comparison"),
    ("lowest", "Chile, whose bar is the shortest.", "Chile", "lead"),
    ("lowest", "The country with the least exports is Chile.", "Chile", "comparison"),
    ("month", "Answer: MAY", "May", "ordinary-word"),
    ("month", "The highest bar is for the month of May.", "May", "ordinary-word"),
    ("quarter", "The third quarter of 2022 (Q3) has the most visitors.", "Q3 2022", "alias"),
    ("year", "Sales peaked in the year 2019.", "2019", "alias"),
    ("fruit", "The cheapest fruit is cherries.", "Cherries", "alias"),
    ("city", "The most populous city is New York City.", "New York", "alias"),
    # -- written without running the reader (a second blind batch) ------------------------
    ("exports", "Based on the bar chart, Japan has exports of approximately 30.5 billion USD.", "30.5", "committed"),
    ("exports", "The bar representing Japan reaches a height of 30.5, indicating exports of 30.5 bn USD.", "30.5", "committed"),
    ("exports", "Japan's exports: 30.5 bn USD\nFrance's exports: 12 bn USD", "30.5", "other-category"),
    ("exports", "The y-axis is labelled in bn USD. Japan reaches 30.5.", "30.5", "working-after"),
    ("exports", "I estimate Japan's exports at 30.5 bn USD, though it could be slightly higher.", "30.5", "committed"),
    ("exports", "30.5 or so.", "30.5", "lead"),
    ("exports", "Japan: 30.5; France: 12; Germany: 8; Chile: 4. Japan's value is what was asked: 30.5.", "30.5", "committed"),
    ("exports", "**30.5 bn USD**", "30.5", "marker"),
    ("exports", "The exports of Japan are shown as 30.5 on the chart. However, the label is partially hidden, so 30 is also possible.", None, "hedge"),
    ("visitors", "The chart indicates 55 thousand visitors in Q3 2023, compared to 48 thousand in Q2 2023.", "55", "units"),
    ("visitors", "Q3 2023: 55 (in thousands)", "55", "units"),
    ("share", "According to the pie chart, the Legal department accounts for 23.5% of the total budget.", "23.5", "percent"),
    ("share", "23.5% (Legal) out of 100%.", "23.5", "lead"),
    ("difference", "The difference between Apples and Bananas is 18.5 units (30.5 vs 12).", "18.5", "committed"),
    ("difference", "Apples - Bananas = 18.5", "18.5", "arithmetic"),
    ("total", "Adding them up gives a total of 1204 M EUR.", "1204", "committed"),
    ("change", "The profit of Chile dropped from 10 bn USD in 2019 to 6.5 bn USD in 2020, which means the change is -3.5 bn USD.", "-3.5", "committed"),
    ("count", "Looking at the chart, I can count 25 bars that are taller than the 20 mark.", "25", "committed"),
    ("highest", "From the chart, it is evident that Japan has the highest exports among the four countries.", "Japan", "comparison"),
    ("highest", "Japan's exports are the highest, followed by France, Germany, and Chile.", "Japan", "comparison"),
    ("highest", "The highest bar corresponds to Japan, with exports of about 30.5 bn USD.", "Japan", "comparison"),
    ("highest", "Answer: The country with the highest exports is Japan.", "Japan", "marker"),
    ("highest", "France? No — Japan has the highest exports.", "Japan", "correction"),
    ("higher", "Japan has the higher exports (30.5 bn USD versus 12 bn USD).", "Japan", "comparison"),
    ("higher", "The exports of France are smaller than those of Japan, so Japan.", "Japan", "comparison"),
    ("lowest", "Chile has the smallest bar, indicating the lowest exports.", "Chile", "comparison"),
    ("lowest", "The lowest is Chile (4), then Germany (8).", "Chile", "comparison"),
    ("month", "The month with the highest sales is May.", "May", "ordinary-word"),
    ("quarter", "Q3 2022 had the highest number of visitors.", "Q3 2022", "alias"),
    ("year", "Sales in 2019 were the highest at 48 units.", "2019", "alias"),
    ("fruit", "Cherries are the cheapest fruit shown.", "Cherries", "alias"),
    ("language", "Go, with the most stars.", "Go", "lead"),
]


@dataclass(frozen=True)
class Case:
    """One output with the question it answers and the answer a careful human reads."""

    name: str
    answer_type: str
    question: str
    labels: tuple[str, ...]
    target: str
    output: str
    expected: str | None
    rule: str

    @property
    def human_correct(self) -> bool:
        """The human's verdict: the answer read is within tolerance of the target."""
        if self.expected is None:
            return False
        read = float(self.expected) if self.answer_type == "number" else self.expected
        return within(read, target_answer(self.target, self.answer_type, self.labels), self.answer_type)


def _cases() -> list[Case]:
    cases = []
    for context, phrase, expected in TERSE:
        kind, question, labels, target = CONTEXTS[context]
        for style, template in STYLES.items():
            cases.append(Case(f"{context}-{style}-{phrase}", kind, question, labels, target, template.format(a=phrase), expected, f"terse:{style}"))
    for context, output, expected, rule in VERBOSE:
        kind, question, labels, target = CONTEXTS[context]
        cases.append(Case(f"{context}-{rule}-{output[:40]}", kind, question, labels, target, output, expected, rule))
    return cases


CASES = _cases()


def _read(case: Case) -> str | None:
    parsed = parse_answer(case.output, case.answer_type, case.labels, case.question)
    if parsed is None:
        return None
    return format_number(float(parsed)) if case.answer_type == "number" else str(parsed)


def test_the_table_is_large_and_covers_both_types():
    assert len(CASES) >= 400
    assert {c.answer_type for c in CASES} == {"number", "label"}
    assert sum(c.expected is None for c in CASES) >= 40
    assert sum(c.human_correct for c in CASES) >= 150
    assert sum(c.rule.startswith("terse") for c in CASES) >= 200
    assert sum(not c.rule.startswith("terse") for c in CASES) >= 150


# Outputs the reader gets wrong, with why; each must keep failing (strict) until the rule is added.
KNOWN_MISSES: dict[str, str] = {}


def _marks(case: Case) -> list:
    reason = KNOWN_MISSES.get(case.output)
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name, marks=_marks(c)) for c in CASES])
def test_reads_what_a_careful_human_reads(case):
    assert _read(case) == case.expected


@pytest.mark.parametrize("case", CASES[::7], ids=[c.name for c in CASES[::7]])
def test_grade_gives_the_human_verdict(case):
    result = grade(case.output, case.target, case.answer_type, question=case.question, labels=case.labels)
    assert result == (case.expected, case.human_correct)
