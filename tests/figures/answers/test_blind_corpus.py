"""Blind corpora A to N as regression tables: outputs written and labelled by people who had not read the reader.

Each corpus was frozen (``blind/corpus_*.sha256``) before the reader first
ran on it; its rows are never relabelled. First blind runs: corpus A 0.873
of 740 outputs (``blind/corpus_a_first_run.txt``), corpus B 0.899 of 655 on
the rebuilt reader (``blind/corpus_b_first_run.txt``). The reader was then
improved on the failure classes each showed, by rules stated in general, so
these numbers are no longer blind: they guard against regressions, and each
threshold is what the reader reaches, never more. Corpus C (630 outputs) was
frozen before the reader's second pass and first run after it: 0.981, verbose
0.929, chain of thought 1.000, 0.5% false accepts (``blind/corpus_c_first_run.txt``);
its thresholds are that first run. Corpus D (644 outputs) was frozen before the
reader's third pass and first run on the reader before it: 0.901, verbose 0.822,
multilingual 0.838, 1.55% false accepts (``blind/corpus_d_first_run.txt``); the
third pass then worked on its failure classes, so its thresholds are what the
reader reaches, not a blind number. Corpus E (706 outputs) was frozen before the
third pass and first run after the work on D: 0.916, verbose 0.932, chain of
thought 0.976, 2.41% false accepts (``blind/corpus_e_first_run.txt``); the pass then
worked on E's classes too, so its thresholds are likewise reached, not blind.
Corpus F (671 outputs) was frozen and first run after the work on D and E:
0.911, verbose 0.928, chain of thought 0.970, 2.53% false accepts
(``blind/corpus_f_first_run.txt``); then worked on too. Corpus G (626 outputs) was
frozen after the third pass and run once: 0.920, verbose 0.874, chain of thought
0.979, 2.72% false accepts (``blind/corpus_g_first_run.txt``; the reader before
the pass: 0.891); its one general class (a readout of every category commits to
none) was then added, so its thresholds are reached, not blind. Corpus H (630
outputs) was frozen after that and run once on the reader as it stands: 0.919,
verbose 0.932, chain of thought 0.962, 2.70% false accepts (the reader before this
round: 0.906); the correction words its rows use (Dutch, Portuguese, Arabic, Korean,
Turkish) were then added, so its thresholds are what the reader reaches: 0.930.
The fourth pass raised D to H, studied, to 0.967, 0.952, 0.946, 0.955 and 0.954 before
corpus I was read. Corpus I (654 outputs) was frozen and first run then: 0.861 on the
reader as the pass started, 0.865 with the pass's first rules
(``blind/corpus_i_first_run.txt``); the pass then worked on I's classes, so its
thresholds are what the reader reaches: 0.943. Corpus J (675 outputs) was written
blind meanwhile, frozen after the pass and run once on its result: 0.892, verbose
0.858, chain of thought 0.956, multilingual 0.827, 1.8% false accepts (the reader as the
pass started: 0.859; ``blind/corpus_j_first_run.txt``). The fifth pass then worked on J's
classes (its thresholds are what the reader reaches: 0.944). Corpus K (700 outputs) was written
blind during the fifth pass, frozen and run once after it: 0.877, verbose 0.791, chain of thought
0.938, multilingual 0.860, 1.71% false accepts (the reader as the pass started: 0.867;
``blind/corpus_k_first_run.txt``); its classes were then worked on too, so its thresholds are what
the reader reaches: 0.910. Corpora L (705 outputs) and M (704) were written blind during the sixth pass,
mostly by seeded generators of templates, and frozen before their first runs: L was run on the reader as
the pass started, 0.935, verbose 0.950, multilingual 0.815, 0.3% false accepts (``blind/corpus_l_first_run.txt``),
and its classes were then worked on (its thresholds are what the reader reaches: 0.980); M was run once, on
the reader after the pass: 0.957, verbose 0.925, chain of thought 1.000, multilingual 0.926, 0.7% false
accepts (the reader as the pass started: 0.953; ``blind/corpus_m_first_run.txt``), its thresholds that run;
the correction words and "the correct answer is" of its correction rows (Russian, Vietnamese, Portuguese) were
then added, so every correction row of every corpus is read as its correction (M reaches 0.962). Corpus N
(644 outputs) was written by hand, one output at a time, frozen and run once on the reader as it stands: 0.863,
verbose 0.812, chain of thought 0.861, multilingual 0.769, 0.3% false accepts (``blind/corpus_n_first_run.txt``);
its thresholds are that run. Hand-written outputs are harder than the template-made L and M, as J and K were.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from rend_equiv_dataset.figures.answers.grade import grade

BLIND = Path(__file__).parent / "blind"
FIELDS = {"id", "output", "target", "answer_type", "question", "labels", "human_correct", "style", "class", "why"}

# corpus → (overall agreement, lowest agreement of any style, verbose, cot, largest share of false accepts, rows at least)
THRESHOLDS = {
    "corpus_a": (0.95, 0.90, 0.90, 0.90, 0.02, 600),
    # corpus B reached 0.9740 overall, multilingual 0.927, verbose 0.978; one false accept since a range no wider than the
    # tolerance is one answer (b-0306, which its writer counts as no answer)
    "corpus_b": (0.973, 0.926, 0.977, 1.0, 0.002, 600),
    "corpus_c": (0.98, 0.92, 0.92, 1.0, 0.005, 600),  # first blind run: 0.981 overall, verbose 0.929, 3 false accepts of 630
    "corpus_d": (0.967, 0.938, 0.938, 0.993, 0.005, 640),  # first blind run 0.901; reached after its classes: 0.967, verbose 0.939
    "corpus_e": (0.956, 0.918, 0.954, 0.982, 0.01, 700),  # first blind run 0.916; reached after its classes: 0.956, multilingual 0.918
    "corpus_f": (0.946, 0.89, 0.934, 0.977, 0.008, 670),  # first blind run 0.911; reached after its classes: 0.946, terse 0.890
    "corpus_g": (0.96, 0.919, 0.951, 1.0, 0.007, 620),  # first blind run 0.920 (verbose 0.874, 17 false accepts); reached: 0.960
    # corpus H: first blind run 0.919 (17 false accepts); reached 0.960, markdown 0.878; 0.959 since a range no wider than
    # the tolerance is one answer (h-0465, which its writer counts as no answer)
    "corpus_h": (0.958, 0.878, 0.946, 0.977, 0.016, 620),
    "corpus_i": (0.946, 0.846, 0.964, 0.969, 0.01, 650),  # first blind run 0.861 (the reader before the round; 0.865 with its first rules)
    "corpus_j": (0.943, 0.879, 0.928, 0.992, 0.006, 670),  # first blind run, after the fourth pass: 0.892; reached after its classes: 0.944
    "corpus_k": (0.91, 0.867, 0.867, 0.951, 0.015, 700),  # first blind run, after the fifth pass: 0.877 (verbose 0.791); reached: 0.910
    "corpus_l": (0.98, 0.933, 0.98, 0.993, 0.003, 700),  # first blind run, as the sixth pass started: 0.935; reached: 0.980
    "corpus_m": (0.957, 0.925, 0.925, 1.0, 0.0072, 700),  # first blind run, after the sixth pass: 0.957 (verbose 0.925)
    "corpus_n": (0.863, 0.769, 0.812, 0.861, 0.004, 640),  # first blind run, hand-written: 0.863 (verbose 0.812, multilingual 0.769)
}


def _rows(name: str) -> list[dict]:
    path = BLIND / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


_VERDICTS: dict[str, list[tuple[dict, bool]]] = {}


def _verdicts(name: str) -> list[tuple[dict, bool]]:
    if name not in _VERDICTS:
        _VERDICTS[name] = [
            (row, grade(row["output"], str(row["target"]), row["answer_type"], question=row["question"], labels=row["labels"] or ()).correct)
            for row in _rows(name)
        ]
    return _VERDICTS[name]


@pytest.mark.parametrize("name", sorted(THRESHOLDS))
def test_the_corpus_is_the_frozen_one(name):
    expected = (BLIND / f"{name}.sha256").read_text(encoding="utf-8").split()[0]
    assert hashlib.sha256((BLIND / f"{name}.jsonl").read_bytes()).hexdigest() == expected
    rows = _rows(name)
    assert len(rows) >= THRESHOLDS[name][5] and all(set(row) == FIELDS for row in rows)
    assert len({row["id"] for row in rows}) == len(rows)


@pytest.mark.parametrize("name", sorted(THRESHOLDS))
def test_agreement_overall_and_by_style(name):
    overall, lowest, verbose, cot, _, _ = THRESHOLDS[name]
    by_style: dict[str, list[bool]] = defaultdict(list)
    for row, correct in _verdicts(name):
        by_style["all"].append(correct == row["human_correct"])
        by_style[row["style"]].append(correct == row["human_correct"])
    share = {style: sum(agree) / len(agree) for style, agree in by_style.items()}
    assert share["all"] >= overall, share
    assert share["verbose"] >= verbose and share["cot"] >= cot, share
    assert min(share.values()) >= lowest, share


@pytest.mark.parametrize("name", sorted(THRESHOLDS))
def test_false_accepts_stay_under_the_bound(name):
    verdicts = _verdicts(name)
    false_accepts = [row["id"] for row, correct in verdicts if correct and not row["human_correct"]]
    assert len(false_accepts) <= THRESHOLDS[name][4] * len(verdicts), false_accepts


@pytest.mark.parametrize("name", sorted(THRESHOLDS))
def test_every_correction_row_is_read_as_the_correction(name):
    """A marker followed by a correction is never read as the marker (any language)."""
    rows = [(row, correct) for row, correct in _verdicts(name) if _CORRECTION_CLASS.search(row["class"])]
    assert len(rows) >= 12
    wrong = [row["id"] for row, correct in rows if correct != row["human_correct"] and row["id"] not in CORRECTION_MISSES]
    assert not wrong


_CORRECTION_CLASS = re.compile(r"correction|wait|recheck|re-check|actually")
CORRECTION_MISSES = {
    "n-0543": "blind miss on corpus N's first run: the output stays with '마이크로소프트 애저', a Korean transliteration of "
              "Microsoft Azure the reader does not know as the label, so no label is read on either side of the recheck",
    "k-0386": "blind miss on corpus K's first run: the correction names 'Die Linke', a German party name the reader "
              "does not know as the label Left",
    "j-0007": "blind miss on corpus J's first run: 'Hmm, rereading, the question asks about FY2021' ends the output "
              "with a reread, no correction word before the value it settles on",
    "i-0411": "Chinese 是/否 are not yes and no to the reader (是 is also the copula), so the corrected 否 is not read",
    "i-0443": "the correction names 'das Vereinigte Königreich': the CLDR name is 'Vereinigtes Königreich', and German "
              "adjective endings are not folded, so the corrected label is not found",
    "e-0255": "the correction re-assigns 98 to Санкт-Петербург and gives Moscow as 'в Москве': city names in Russian case "
              "forms are no alias the reader knows, so the first number after the correction is read",
}
"""Correction rows still read wrong, each with why (not because the marker was read)."""
