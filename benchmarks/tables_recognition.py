"""Recognising a question as a template: enumerate every question vs one pattern per template.

Tier 1 of :func:`rend_equiv_dataset.figures.tables.questions.recognise` matches a
question against the exact text a template produces for the chart. The naive
way formats every (type, series, categories) question — m² pairs for the
two-category types — and compares strings; the package turns each template
into a pattern whose category slot matches only the chart's labels.

Run from the repository root: ``python benchmarks/tables_recognition.py``.
Prints best-of-5 times per question and the ratio to the naive way, measured
in the same run, and checks that both ways find the same readings.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series  # noqa: E402
from rend_equiv_dataset.figures.questions import QUESTION_TYPES, Question, pose, question_text  # noqa: E402
from rend_equiv_dataset.figures.tables.questions import recognise, with_question_words  # noqa: E402


def naive(chart: ChartData, text: str) -> set[Question]:
    fold = " ".join(text.lower().split()).rstrip("?. ")
    found = set()
    for name, qtype in QUESTION_TYPES.items():
        if chart.family not in qtype.families:
            continue
        n = qtype.n_categories
        pairs = [()] if n == 0 else [(c,) for c in chart.categories] if n == 1 else [
            (a, b) for a in chart.categories for b in chart.categories if a != b]
        series_pairs = [(s, o) for s in chart.series_names for o in chart.series_names if s != o] \
            if qtype.n_series == 2 else [(s, "") for s in chart.series_names]
        for series, other in series_pairs:
            for categories in pairs:
                question = Question(name, series, categories, other)
                if " ".join(question_text(chart, question).lower().split()).rstrip("?. ") == fold:
                    found.add(question)
    return found


def best_of(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    rng = np.random.default_rng(0)
    print(f"{'categories':>10}{'series':>8}{'naive ms/q':>12}{'patterns ms/q':>15}{'naive/patterns':>16}")
    for m, n_series in ((6, 1), (12, 3), (24, 3), (40, 4)):
        chart = with_question_words(ChartData(
            family=Family.GROUPED_BAR if n_series > 1 else Family.BAR, title="t",
            categories=tuple(f"Region {i}" for i in range(m)),
            series=tuple(Series(f"{2020 + j}", tuple(float(v) for v in rng.permutation(m) + 1)) for j in range(n_series)),
            x_label="Region"))
        texts = [question_text(chart, pose(name, chart, rng))
                 for name in ("value", "difference", "argmax", "compare", "sum_of")]
        for text in texts:
            assert set(recognise(chart, text).readings) == naive(chart, text), text
        slow = best_of(lambda: [naive(chart, t) for t in texts]) / len(texts)
        fast = best_of(lambda: [recognise(chart, t) for t in texts]) / len(texts)
        print(f"{m:>10}{n_series:>8}{slow * 1e3:>12.2f}{fast * 1e3:>15.3f}{slow / fast:>16.1f}")


if __name__ == "__main__":
    main()
