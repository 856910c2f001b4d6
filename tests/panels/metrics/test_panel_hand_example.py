"""A 7-judge example whose every reported number was worked out by hand (see the comments).

Eight candidates, four problems (A–D), five assertions each. At 20% coverage
the signal checks the first assertion only (q = max(1, ⌊0.2·5 + 0.5⌋) = 1).

    query  votes          s  margin  label  signal  panel  uniform E[correct]
    q1     1 1 1 1 0 0 0  4  1       1      1       ✓      1            (pivotal)
    q2     1 1 1 0 0 0 0  3  1       1      1       ✗      4/7          (pivotal)
    q3     0 0 0 0 1 1 1  3  1       0      1       ✓      3/7          (pivotal)
    q4     1 1 1 1 1 0 0  5  3       0      0       ✗      0
    q5     1 1 1 1 1 1 1  7  7       1      1       ✓      1
    q6     0 0 0 0 0 0 0  0  7       0      0       ✓      1
    q7     1 1 1 1 0 0 0  4  1       0      0       ✗      4/7          (pivotal)
    q8     1 1 0 1 1 1 0  5  3       1      1       ✓      1

The uniform column averages the 7 leave-one-out outcomes: on q2 the 3 "1"
ballots leave s' = 3 (wrong) and the 4 "0" ballots give s' = 4 (right).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main

VOTES = [
    [1, 1, 1, 1, 0, 0, 0],
    [1, 1, 1, 0, 0, 0, 0],
    [0, 0, 0, 0, 1, 1, 1],
    [1, 1, 1, 1, 1, 0, 0],
    [1, 1, 1, 1, 1, 1, 1],
    [0, 0, 0, 0, 0, 0, 0],
    [1, 1, 1, 1, 0, 0, 0],
    [1, 1, 0, 1, 1, 1, 0],
]
LABELS = [1, 1, 0, 0, 1, 0, 0, 1]
T, F = True, False
ASSERTIONS = [
    [T, T, T, T, T],
    [T, T, T, T, T],
    [T, T, T, F, T],  # buggy, but the first three assertions pass: signal 1 up to q = 3
    [F, T, T, T, T],
    [T, T, T, T, T],
    [F, F, F, F, F],
    [F, T, T, T, T],
    [T, T, T, T, T],
]
PROBLEMS = ["A", "A", "B", "B", "C", "C", "D", "D"]
JUDGES = [f"judge-{j}" for j in range(7)]


def write_records(path: Path) -> Path:
    with open(path, "w", encoding="utf-8") as handle:
        for i, (votes, label, passed, problem) in enumerate(zip(VOTES, LABELS, ASSERTIONS, PROBLEMS)):
            record = {
                "problem_id": problem, "benchmark": "hand", "candidate_id": f"c{i + 1}", "solver": "by-hand",
                "code": "def f():\n    return 1\n", "assertions_passed": passed, "status": "ok", "label": label,
                "votes": votes, "judges": JUDGES, "judge_source": "file",
            }
            handle.write(json.dumps(record) + "\n")
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("hand")
    records = write_records(folder / "records.jsonl")
    out = folder / "report"
    status = main(["panel", "score", "--records", str(records), "--out", str(out), "--resamples", "2000", "--permutations", "4000"])
    assert status == 0
    assert {p.name for p in out.iterdir()} == {
        "report.json", "report.md", "error_rate_by_margin.png", "gain_by_margin.png", "coverage_sweep.png"
    }
    return json.loads((out / "report.json").read_text())


def test_size_and_coverage(report: dict) -> None:
    assert (report["k"], report["n"], report["n_problems"], report["coverage"]) == (7, 8, 4, 0.2)


def test_accuracies(report: dict) -> None:
    acc = report["accuracy"]
    assert acc["panel"] == 5 / 8  # q1 q3 q5 q6 q8
    assert acc["uniform"] == pytest.approx((1 + 4 / 7 + 3 / 7 + 0 + 1 + 1 + 4 / 7 + 1) / 8)  # = 39/56
    # majority side: q2 → 1 (right), q3 → 1 (wrong), q4 stays 1 (wrong), q7 → 0 (right): 6/8
    assert acc["majority_side"] == 6 / 8
    # fixed j: judges 0–2 hold a "1" on q2, so replacing them cannot lift q2; judges 3–6 fix q2 or q7
    assert acc["fixed"] == [5 / 8, 5 / 8, 5 / 8, 6 / 8, 6 / 8, 6 / 8, 6 / 8]
    assert acc["uniform"] == pytest.approx(sum(acc["fixed"]) / 7)
    assert acc["signal_only"] == 7 / 8  # wrong only on q3
    assert (acc["best_judge"], acc["best_judge_index"], acc["best_judge_name"]) == (6 / 8, 0, "judge-0")


def test_pivotal_and_nonpivotal_gain(report: dict) -> None:
    piv, non = report["pivotal"], report["nonpivotal"]
    assert piv["n"] == 4 and non["n"] == 4  # q1 q2 q3 q7
    assert piv["gain"] == pytest.approx((0 + 4 / 7 - 4 / 7 + 4 / 7) / 4)  # = 1/7
    assert non["gain"] == 0.0
    assert piv["fraction"] == report["call_rate"] == 0.5
    assert piv["panel_accuracy"] == 0.5 and piv["signal_accuracy"] == 0.75
    assert report["overall_gain"] == pytest.approx(39 / 56 - 5 / 8)
    low, high = piv["ci"]
    assert -4 / 7 - 1e-12 <= low <= 1 / 7 <= high <= 4 / 7 + 1e-12
    assert report["errors"] == {"total": 3, "pivotal": 2, "nonpivotal": 1}  # q2 q7 | q4


def test_by_margin(report: dict) -> None:
    rows = {row["margin"]: row for row in report["by_margin"]}
    assert [row["margin"] for row in report["by_margin"]] == [1, 3, 5, 7]
    assert (rows[1]["n"], rows[1]["error_rate"]) == (4, 0.5)  # q2 q7 wrong of q1 q2 q3 q7
    assert (rows[3]["n"], rows[3]["error_rate"]) == (2, 0.5)  # q4 wrong of q4 q8
    assert (rows[5]["n"], rows[5]["error_rate"]) == (0, None)  # no query: no rate
    assert (rows[7]["n"], rows[7]["error_rate"]) == (2, 0.0)
    assert rows[1]["uniform_gain"] == pytest.approx(1 / 7)
    assert rows[3]["uniform_gain"] == rows[7]["uniform_gain"] == 0.0
    assert rows[3]["gain_ci"] == rows[7]["gain_ci"] == [0.0, 0.0]
    assert rows[7]["ci"] == [0.0, 0.0]


def test_regions(report: dict) -> None:
    # pivotal: correct code q1 ✓ q2 ✗ → FNR 1/2; buggy q3 ✓ q7 ✗ → FPR 1/2
    # non-pivotal: correct code q5 q8 both accepted → FNR 0; buggy q4 ✗ q6 ✓ → FPR 1/2
    assert report["regions"] == {
        "pivotal": {"n": 4, "fnr": 0.5, "fpr": 0.5},
        "nonpivotal": {"n": 4, "fnr": 0.0, "fpr": 0.5},
    }


def test_judges(report: dict) -> None:
    judges = report["judges"]
    assert [j["name"] for j in judges] == JUDGES
    assert [j["reject_rate"] for j in judges] == [2 / 8, 2 / 8, 3 / 8, 3 / 8, 4 / 8, 5 / 8, 6 / 8]
    assert [j["accuracy"] for j in judges] == [6 / 8, 6 / 8, 5 / 8, 5 / 8, 4 / 8, 5 / 8, 4 / 8]
    # judge 0: TP 4, TN 2, FP 2 (q4 q7), FN 0 → balanced (1 + 2/4)/2, MCC 8/√(6·4·4·2)
    assert judges[0]["balanced_accuracy"] == 0.75
    assert judges[0]["mcc"] == pytest.approx(8 / math.sqrt(192))
    # judge 6: TP 1 (q5), FN 3, TN 3, FP 1 (q3) → balanced (1/4 + 3/4)/2, MCC (3 − 3)/… = 0
    assert judges[6]["balanced_accuracy"] == 0.5 and judges[6]["mcc"] == 0.0
    # the signal: wrong only on q3 (accepts buggy code): TP 4, TN 3, FP 1, FN 0
    signal = report["signal"]
    assert (signal["reject_rate"], signal["accuracy"], signal["balanced_accuracy"]) == (3 / 8, 7 / 8, (1 + 3 / 4) / 2)
    assert signal["mcc"] == pytest.approx(12 / math.sqrt(5 * 4 * 3 * 4))


def _phi(a: list[int], b: list[int]) -> float:
    n11 = sum(x and y for x, y in zip(a, b))
    n10 = sum(x and not y for x, y in zip(a, b))
    n01 = sum(not x and y for x, y in zip(a, b))
    n00 = sum(not x and not y for x, y in zip(a, b))
    return (n11 * n00 - n10 * n01) / math.sqrt((n11 + n10) * (n01 + n00) * (n11 + n01) * (n10 + n00))


def test_effective_votes(report: dict) -> None:
    errors = [[int(VOTES[i][j] != LABELS[i]) for i in range(8)] for j in range(7)]
    signal = [0, 0, 1, 0, 0, 0, 0, 0]  # wrong only on q3
    judge_phi = [_phi(errors[a], errors[b]) for a, b in itertools.combinations(range(7), 2)]
    panel = 7 / (1 + 6 * sum(judge_phi) / 21)
    swapped = []
    for j in range(7):
        voters = [errors[i] for i in range(7) if i != j] + [signal]
        phis = [_phi(voters[a], voters[b]) for a, b in itertools.combinations(range(7), 2)]
        swapped.append(7 / (1 + 6 * sum(phis) / 21))
    assert report["n_eff"]["panel"] == pytest.approx(panel)
    assert report["n_eff"]["with_signal"] == pytest.approx(sum(swapped) / 7)
    assert report["n_eff"]["change"] == pytest.approx(sum(swapped) / 7 - panel)
    assert report["phi"]["judge_judge"] == pytest.approx(sum(judge_phi) / 21)
    assert report["phi"]["signal_judge"] == pytest.approx(sum(_phi(signal, e) for e in errors) / 7)
    low, high = report["n_eff"]["change_ci"]
    assert low <= high


def test_policy_table(report: dict) -> None:
    rows = {row["policy"]: row for row in report["policy"]}
    assert rows["panel only"] == {"policy": "panel only", "accuracy": 5 / 8, "gain": 0.0, "ci": [0.0, 0.0], "call_rate": 0.0}
    for rule, accuracy in [("uniform", 39 / 56), ("majority_side", 6 / 8), ("fixed[0]", 5 / 8), ("fixed[6]", 6 / 8)]:
        universal, gated = rows[f"{rule}, universal"], rows[f"{rule}, gated"]
        assert universal["accuracy"] == pytest.approx(accuracy) and gated["accuracy"] == pytest.approx(accuracy)
        assert (universal["call_rate"], gated["call_rate"]) == (1.0, 0.5)
        assert universal["gain"] == pytest.approx(accuracy - 5 / 8)
    assert (rows["signal only"]["accuracy"], rows["signal only"]["call_rate"]) == (7 / 8, 1.0)
    assert rows["best judge (judge-0)"]["accuracy"] == 6 / 8


def test_subpanels(report: dict) -> None:
    assert {size: block["n_subsets"] for size, block in report["subpanels"].items()} == {"3": 35, "5": 21, "6": 7}
    assert all(block["all_nonpivotal_zero"] for block in report["subpanels"].values())


def test_even_asymmetry(report: dict) -> None:
    # Dropping one judge: q1 gives four 3-tallies (drop a "1") and three 4-tallies, q2/q3 three 2s and four 3s,
    # q4/q8 five 4s, q7 like q1. At s = 3 (a 3–3 tie, decided "incorrect"): q1 and q2 gain 3/6, q3 loses 3/6,
    # q7 gains 0. At s = 4: q4 and q7 gain 4/6 − 0, q1 and q8 gain 0. At s = 2: zero by Proposition 2.
    rows = {row["tally"]: row for row in report["even_asymmetry"]}
    assert (rows[2]["n"], rows[2]["gain"], rows[2]["pivotal"], rows[2]["margin"]) == (6, 0.0, False, 2)
    assert all(g in (0.0, None) for g in rows[2]["subset_gains"])
    assert (rows[3]["n"], rows[3]["pivotal"], rows[3]["margin"]) == (16, True, 0)
    assert rows[3]["gain"] == pytest.approx((4 * 0.5 + 4 * 0.5 - 4 * 0.5) / 16)
    assert (rows[4]["n"], rows[4]["pivotal"], rows[4]["margin"]) == (16, True, 2)
    assert rows[4]["gain"] == pytest.approx((5 * 2 / 3 + 3 * 2 / 3) / 16)


def test_permutation_control(report: dict) -> None:
    # One signal error placed uniformly among 8 queries: on a pivotal one (prob 1/2) it costs 4/7,
    # so the synthetic pivotal gain is (8/7 − 4/7)/4 = 1/7 or (8/7)/4 = 2/7, each half the time.
    control = report["permutation_control"]
    assert control["real_gain"] == pytest.approx(1 / 7)
    assert control["signal_accuracy"] == 7 / 8 and control["n_permutations"] == 4000
    assert control["mean_gain"] == pytest.approx(3 / 14, abs=0.01)
    assert control["range95"] == pytest.approx([1 / 7, 2 / 7])
    assert control["fraction_at_least_real"] == 1.0


def test_coverage_sweep(report: dict) -> None:
    # |T| = 5: q = 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4 for the 13 levels; q3 fails assertion 4 only,
    # so the signal is wrong on q3 up to 60% and perfect at 70% and 80%.
    rows = report["coverage_sweep"]
    assert [row["coverage"] for row in rows] == [0.02, 0.05, 0.08, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    for row in rows[:11]:
        assert row["signal_accuracy"] == 7 / 8 and row["pivotal_gain"] == pytest.approx(1 / 7)
    for row in rows[11:]:
        assert row["signal_accuracy"] == 1.0 and row["pivotal_gain"] == pytest.approx((4 / 7 + 4 / 7) / 4)


def test_by_benchmark_and_provenance(report: dict) -> None:
    assert report["by_benchmark"]["hand"]["pivotal"] == {"n": 4, "gain": pytest.approx(1 / 7)}
    prov = report["provenance"]
    assert prov["form"] == "full" and prov["judge_source"] == "file" and prov["status_counts"] == {"ok": 8}
    assert len(prov["records_sha256"]) == 64 and prov["n_resamples"] == 2000


def test_threshold_sweep_and_bootstrap_tail(report: dict) -> None:
    # margins 1,1,1,3,7,7,1,3: t = 1 calls 4/8, t = 3 calls 6/8, t = 5 the same, t = 7 all; accuracy never moves
    sweep = report["threshold_sweep"]
    assert [(r["max_margin"], r["call_rate"]) for r in sweep] == [(1, 0.5), (3, 0.75), (5, 0.75), (7, 1.0)]
    assert all(r["accuracy"] == pytest.approx(39 / 56) for r in sweep)
    assert 0.0 < report["pivotal"]["p_gain_le_zero"] < 1.0  # resamples of A/B (0, ±4/7) and D (+4/7) can go either way
