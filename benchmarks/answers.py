"""Benchmark: how often answer reading agrees with a careful human, and how its time grows with the output.

1. Agreement. On every case of ``tests/figures/answers/test_real_outputs.py``
   (real-looking outputs, each with the answer a careful human reads), the
   share of right/wrong verdicts that match the human's, for

   - this package's reader (``rend_equiv_dataset.figures.answers``, as ``grade`` uses it);
   - the ChartQA relaxed-accuracy rule as common harnesses implement it (lmms-eval's
     ``relaxed_correctness``: strip the output, ``float()`` of the whole string — a
     trailing ``%`` divided by 100 — within 5% of the target, else case-insensitive
     exact match).

   Broken down by terse/verbose outputs and by answer type. The same on the
   blind corpora A to G (``tests/figures/answers/blind/corpus_*.jsonl``:
   outputs written by people who had not read the reader, labelled by a careful
   human; each first run is in ``corpus_*_first_run.txt``, and every corpus but C
   was studied after its first run), by style, with
   the false accepts (reader right, human wrong) and the share read with
   low confidence.

2. Time. Outputs of 1 KB, 10 KB, 100 KB and 1 MB — a model looping on numbers,
   a chain of thought ending in an answer, and one in non-ASCII text (full-width
   digits, narrow no-break spaces, minus signs: the normalisation pass) — read as numbers and as labels;
   best of ``--repeat`` runs, with the growth ratio to the previous size (10×
   the text: a ratio near 10 is linear, near 100 quadratic). The previous
   reader's number rule (the last number after a copula, found by searching
   the whole prefix before each number) runs on the same outputs up to
   ``--naive-max`` bytes for comparison.

3. ``grade`` throughput. ``--lines`` short outputs (default 100,000; terse,
   sentence and marker styles, both answer types) written to a JSONL file and
   graded by ``rend-equiv grade`` in this process with ``--workers 1``:
   microseconds per line (wall and CPU), next to the ChartQA rule on the same
   rows in the same run; then with the default ``--workers`` (one process per
   core). With ``--before DIR`` (another checkout of the package, e.g. ``git
   worktree add DIR <commit>``), the same file is graded by that checkout's
   ``grade`` in a subprocess (one process each), next to this one's run the
   same way, and the ratio printed.

Every corpus is reported; their first runs are the blind numbers (the reader
was improved on the classes each later showed, C's aside).

Run: ``python benchmarks/answers.py [--repeat 3] [--naive-max 10000] [--lines 100000] [--before DIR]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rend_equiv_dataset.commands import default_workers  # noqa: E402
from rend_equiv_dataset.figures.answers.grade import grade  # noqa: E402
from rend_equiv_dataset.figures.answers.grade import grade_reading  # noqa: E402
from rend_equiv_dataset.figures.answers.parse import LOW_CONFIDENCE, parse_answer  # noqa: E402

CORPORA = tuple(ROOT / "tests" / "figures" / "answers" / "blind" / f"corpus_{name}.jsonl" for name in "abcdefg")

LABELS = ("Japan", "France", "Germany", "Chile")
NUMBER_QUESTION = "What are the exports of Japan, in bn USD?"
LABEL_QUESTION = "Which country has the highest exports?"
SIZES = (1_000, 10_000, 100_000, 1_000_000)


def load_cases():
    path = ROOT / "tests" / "figures" / "answers" / "test_real_outputs.py"
    spec = importlib.util.spec_from_file_location("real_outputs_table", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.CASES


def chartqa_relaxed(prediction: str, target: str, max_relative_change: float = 0.05) -> bool:
    """lmms-eval's ChartQA ``relaxed_correctness`` on a stripped output."""
    prediction = prediction.strip()

    def to_float(text: str) -> float | None:
        try:
            return float(text.rstrip("%")) / 100.0 if text.endswith("%") else float(text)
        except ValueError:
            return None

    prediction_float, target_float = to_float(prediction), to_float(target)
    if prediction_float is not None and target_float:
        return abs(prediction_float - target_float) / abs(target_float) <= max_relative_change
    return prediction.lower() == target.lower()


def agreement(cases) -> None:
    groups = {
        "all": lambda c: True,
        "terse": lambda c: c.rule.startswith("terse"),
        "verbose": lambda c: not c.rule.startswith("terse"),
        "number": lambda c: c.answer_type == "number",
        "label": lambda c: c.answer_type == "label",
    }
    ours = {}
    theirs = {}
    for case in cases:
        verdict = grade(case.output, case.target, case.answer_type, question=case.question, labels=case.labels).correct
        ours[case.name] = verdict == case.human_correct
        theirs[case.name] = chartqa_relaxed(case.output, case.target) == case.human_correct
    print(f"Agreement with a careful human grader on {len(cases)} outputs (share of verdicts right)")
    print(f"{'outputs':<10}{'n':>6}{'this reader':>14}{'ChartQA rule':>14}")
    for name, keep in groups.items():
        chosen = [c for c in cases if keep(c)]
        share = sum(ours[c.name] for c in chosen) / len(chosen)
        base = sum(theirs[c.name] for c in chosen) / len(chosen)
        print(f"{name:<10}{len(chosen):>6}{share:>14.1%}{base:>14.1%}")
    print()


def corpus_agreement(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    groups: dict[str, list[tuple[bool, bool, bool, bool]]] = defaultdict(list)
    for row in rows:
        result, reading = grade_reading(row["output"], str(row["target"]), row["answer_type"], question=row.get("question"),
                                        labels=row.get("labels") or ())
        human = row["human_correct"]
        peer = chartqa_relaxed(row["output"] or "", str(row["target"]))
        entry = (result.correct == human, peer == human, result.correct and not human, reading.confidence < LOW_CONFIDENCE)
        groups["all"].append(entry)
        groups[row["style"]].append(entry)
    print(f"Blind corpus {path.stem[-1].upper()} ({path.name}, {len(rows)} outputs; its first blind run: {path.stem}_first_run.txt; "
          "every corpus but C was studied after its first run)")
    print(f"{'style':<14}{'n':>6}{'this reader':>14}{'ChartQA rule':>14}{'false accepts':>15}{'low conf.':>11}")
    for name, entries in sorted(groups.items(), key=lambda kv: (kv[0] != "all", kv[0])):
        n = len(entries)
        print(f"{name:<14}{n:>6}{sum(e[0] for e in entries) / n:>14.1%}{sum(e[1] for e in entries) / n:>14.1%}"
              f"{sum(e[2] for e in entries):>15}{sum(e[3] for e in entries) / n:>11.1%}")
    print()


SHORT_LINES = (
    ("30.5", "30.5", "number", "What are the exports of Japan, in bn USD?", []),
    ("The answer is 1,204.", "1204", "number", "What is the total revenue, in M EUR?", []),
    ("Japan is 30.5, while France is 12.", "12", "number", "What are the exports of France?", list(LABELS)),
    ("France", "Japan", "label", "Which country has the highest exports?", list(LABELS)),
    ("Japan has the highest exports.", "Japan", "label", "Which country has the highest exports?", list(LABELS)),
    ("**Final answer:** about 55 thousand", "55", "number", "How many visitors came in Q3, in thousands?", []),
)


_TIMED_GRADE = (
    "import sys, time\n"
    "from rend_equiv_dataset.cli import main\n"
    "start = time.perf_counter()\n"
    "assert main(['grade', '--in', sys.argv[1], '--out', sys.argv[2], '--no-progress'] + sys.argv[3:]) == 0\n"
    "print(time.perf_counter() - start)\n"
)
"""``grade`` timed inside a fresh interpreter (imports and start-up excluded), for two checkouts compared alike."""


def _grade_in_subprocess(checkout: Path, source: Path, out: Path) -> float:
    import os
    import subprocess

    env = dict(os.environ, PYTHONPATH=str(checkout))
    options = ["--workers", "1"] if "--workers" in (checkout / "rend_equiv_dataset" / "commands" / "grade.py").read_text(encoding="utf-8") else []
    # run outside any checkout: "python -c" puts the working folder first on sys.path, ahead of PYTHONPATH
    result = subprocess.run([sys.executable, "-c", _TIMED_GRADE, str(source), str(out), *options], env=env, check=True,
                            capture_output=True, text=True, cwd=source.parent)
    return float(result.stdout.strip().splitlines()[-1])


def grade_throughput(lines: int, before: Path | None = None) -> None:
    from rend_equiv_dataset.cli import main as cli

    rows = [SHORT_LINES[i % len(SHORT_LINES)] for i in range(lines)]
    with tempfile.TemporaryDirectory() as folder:
        source, out = Path(folder) / "in.jsonl", Path(folder) / "out.jsonl"
        with source.open("w", encoding="utf-8") as handle:
            for i, (output, target, kind, question, labels) in enumerate(rows):
                handle.write(json.dumps({"id": i, "output": output, "target": target, "answer_type": kind,
                                         "question": question, "labels": labels}) + "\n")
        start, cpu = time.perf_counter(), time.process_time()
        assert cli(["grade", "--in", str(source), "--out", str(out), "--no-progress", "--workers", "1"]) == 0
        ours, ours_cpu = time.perf_counter() - start, time.process_time() - cpu
        workers = default_workers()
        start = time.perf_counter()
        assert cli(["grade", "--in", str(source), "--out", str(out), "--no-progress", "--workers", str(workers)]) == 0
        pooled = time.perf_counter() - start
        compared = None
        if before is not None:
            compared = (_grade_in_subprocess(ROOT, source, out), _grade_in_subprocess(before, source, out))
    start = time.perf_counter()
    for output, target, _, _, _ in rows:
        chartqa_relaxed(output, target)
    peer = time.perf_counter() - start
    print(f"grade on {lines:,} short lines, one process: {ours / lines * 1e6:.1f} µs per line (file in and out included; "
          f"CPU {ours_cpu / lines * 1e6:.1f} µs); ChartQA rule on the same outputs: {peer / lines * 1e6:.2f} µs per line "
          f"(ratio {ours / peer:.0f}×)")
    print(f"grade with --workers {workers} (the default here: one per core): {pooled / lines * 1e6:.1f} µs per line "
          f"({ours / pooled:.2f}× one process)")
    if compared is not None:
        now, then = compared
        print(f"  in fresh interpreters: this checkout {now / lines * 1e6:.1f} µs per line, {before} {then / lines * 1e6:.1f} µs per line "
              f"(this / before: {now / then:.2f})")
    print()


def looping(size: int) -> str:
    unit = "30.5, 31.2, 29.8, 30.1, "
    return (unit * (size // len(unit) + 1))[:size]


def chain_of_thought(size: int) -> str:
    unit = (
        "Looking at the chart again, Japan's bar reaches about 30, France is at 12 and Germany at 8; "
        "the gridlines are every 5 units, so let me check the answer once more. "
    )
    ending = "\n\nTherefore Japan has the highest exports. Final answer: 30.5"
    body = (unit * (size // len(unit) + 1))[: max(0, size - len(ending))]
    return body + ending


def unicode_chain_of_thought(size: int) -> str:
    unit = "Japan’s bar reaches about ３０．５ (France: 1\u202f200 thousand, change −3.5 – check). "
    ending = "\n\nFinal answer: **30.5**"
    body = (unit * (size // len(unit) + 1))[: max(0, size - len(ending))]
    return body + ending


_COPULA = re.compile(r"(?:\bis|\bare|\bwas|\bwere|=|:|\bequals|\bof|\babout|\baround|\bapproximately|≈)\s*$", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])[-+]?\d+(?:\.\d+)?")


def previous_number_rule(text: str) -> float | None:
    """The previous reader's unmarked number rule: the last number that follows a copula (a prefix search per number)."""
    matches = list(_NUMBER.finditer(text))
    if not matches:
        return None
    after_copula = [m for m in matches if _COPULA.search(text[: m.start()])]
    return float((after_copula or matches)[-1].group(0).replace(",", ""))


def best_time(function, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return best


def timing(repeat: int, naive_max: int) -> None:
    print(f"Time to read one output (best of {repeat}); ×: growth from the previous size (10× the text)")
    print(f"{'output':<18}{'size':>10}{'number':>11}{'×':>7}{'label':>11}{'×':>7}{'previous rule':>15}{'×':>8}")
    kinds = (("looping numbers", looping), ("chain of thought", chain_of_thought), ("non-ASCII thought", unicode_chain_of_thought))
    for name, make in kinds:
        previous: tuple[float, float, float | None] | None = None
        for size in SIZES:
            text = make(size)
            number = best_time(lambda: parse_answer(text, "number", LABELS, NUMBER_QUESTION), repeat)
            label = best_time(lambda: parse_answer(text, "label", LABELS, LABEL_QUESTION), repeat)
            naive = best_time(lambda: previous_number_rule(text), 1) if size <= naive_max else None
            ratios = ["" if previous is None or p is None or now is None else f"{now / p:.1f}"
                      for now, p in zip((number, label, naive), previous or (None, None, None))]
            naive_text = f"{naive * 1e3:.1f} ms" if naive is not None else "skipped"
            print(f"{name:<18}{size:>10,}{number * 1e3:>8.1f} ms{ratios[0]:>7}{label * 1e3:>8.1f} ms{ratios[1]:>7}"
                  f"{naive_text:>15}{ratios[2]:>8}")
            previous = (number, label, naive)
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing; the best is printed (default 3)")
    parser.add_argument("--naive-max", type=int, default=10_000, help="largest output the previous rule is timed on (default 10000)")
    parser.add_argument("--lines", type=int, default=100_000, help="short lines graded for the throughput (default 100000)")
    parser.add_argument("--before", type=Path, default=None,
                        help="another checkout of the package whose grade is timed on the same file (default: none)")
    args = parser.parse_args()
    agreement(load_cases())
    for corpus in CORPORA:
        corpus_agreement(corpus)
    grade_throughput(args.lines, args.before)
    timing(args.repeat, args.naive_max)


if __name__ == "__main__":
    main()
