"""``rend-equiv panel score`` end to end: report files, forms, folders, and exit 2 on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rend_equiv_dataset.cli import main

REQUIRED = {  # docs/design.md §7.6
    "k": None, "n": None, "call_rate": None,
    "accuracy": {"panel", "uniform", "majority_side", "fixed", "signal_only", "best_judge"},
    "pivotal": {"n", "gain", "ci"}, "nonpivotal": {"n", "gain"}, "n_eff": {"panel", "with_signal"},
}


def records(n: int = 60, k: int = 5, seed: int = 0, form: str = "short", benchmark: str | None = None) -> list[dict[str, Any]]:
    rng = np.random.Generator(np.random.PCG64(seed))
    out = []
    for i in range(n):
        y = int(rng.random() < 0.7)
        votes = [int(y if rng.random() < 0.75 else 1 - y) for _ in range(k)]
        if form == "short":
            row: dict[str, Any] = {"problem_id": f"p{i // 3}", "label": y, "votes": votes, "signal": int(y if rng.random() < 0.9 else 1 - y)}
            if benchmark:
                row["benchmark"] = benchmark
        else:
            passed = [True] * 6 if y else [bool(b) for b in rng.random(6) < 0.6]
            if not y and all(passed):
                passed[-1] = False
            row = {"problem_id": f"p{i // 3}", "benchmark": benchmark or "b", "candidate_id": str(i), "solver": "s", "code": "x",
                   "assertions_passed": passed, "status": "ok", "label": y, "votes": votes,
                   "judges": [f"j{j}" for j in range(k)], "judge_source": "simulated"}
        out.append(row)
    return out


def write(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def score(*args: str) -> int:
    return main(["panel", "score", "--resamples", "300", "--permutations", "200", *args])


def test_short_form_report(tmp_path: Path) -> None:
    path = write(tmp_path / "r.jsonl", records())
    assert score("--records", str(path), "--out", str(tmp_path / "out")) == 0
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    for key, inner in REQUIRED.items():
        assert key in report and (inner is None or inner <= set(report[key]))
    assert report["coverage"] is None and report["coverage_sweep"] is None
    assert len(report["accuracy"]["fixed"]) == 5 and report["nonpivotal"]["gain"] == 0.0
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"report.json", "report.md", "error_rate_by_margin.png", "gain_by_margin.png"}
    text = (tmp_path / "out" / "report.md").read_text()
    for title in ("Table 2", "Table 4", "Table 5", "Table 3", "Table 6", "Table 7", "Figure 2", "Supplementary A"):
        assert title in text


def test_full_form_report_and_coverage_changes_the_signal(tmp_path: Path) -> None:
    path = write(tmp_path / "r.jsonl", records(form="full", k=7))
    assert score("--records", str(path), "--out", str(tmp_path / "a"), "--coverage", "0.2") == 0
    assert score("--records", str(path), "--out", str(tmp_path / "b"), "--coverage", "1") == 0
    a = json.loads((tmp_path / "a" / "report.json").read_text())
    b = json.loads((tmp_path / "b" / "report.json").read_text())
    assert a["coverage"] == 0.2 and len(a["coverage_sweep"]) == 13
    assert b["accuracy"]["signal_only"] == 1.0  # full coverage is the label itself
    assert a["accuracy"]["signal_only"] < 1.0
    assert (tmp_path / "a" / "coverage_sweep.png").stat().st_size > 0


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    path = write(tmp_path / "r.jsonl", records(form="full"))
    for name in ("a", "b"):
        assert score("--records", str(path), "--out", str(tmp_path / name)) == 0
    for file in ("report.json", "report.md", "error_rate_by_margin.png", "coverage_sweep.png"):
        assert (tmp_path / "a" / file).read_bytes() == (tmp_path / "b" / file).read_bytes()


def test_released_folder(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    shard = tmp_path / "release" / "data" / "records"
    shard.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(records(form="full")), shard / "test-00000-of-00001.parquet")
    assert score("--records", str(tmp_path / "release"), "--out", str(tmp_path / "out")) == 0
    assert json.loads((tmp_path / "out" / "report.json").read_text())["n"] == 60


def test_two_benchmarks_are_broken_down(tmp_path: Path) -> None:
    rows = records(benchmark="mbpp") + records(seed=1, benchmark="humaneval")
    assert score("--records", str(write(tmp_path / "r.jsonl", rows)), "--out", str(tmp_path / "out")) == 0
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert sorted(report["by_benchmark"]) == ["humaneval", "mbpp"]
    assert report["n_problems"] == 40  # p0..p19 in each benchmark are different problems


def test_non_empty_output_needs_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "r.jsonl", records())
    out = tmp_path / "out"
    assert score("--records", str(path), "--out", str(out)) == 0
    assert score("--records", str(path), "--out", str(out)) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert score("--records", str(path), "--out", str(out), "--overwrite") == 0


@pytest.mark.parametrize(
    ("rows", "args", "expected"),
    [
        ([{"problem_id": "p", "label": 1, "votes": [1, 0, 1], "signal": 1}, {"problem_id": "q", "label": 1, "votes": [1, 0], "signal": 1}],
         [], "r.jsonl:2: field 'votes': expected 3 votes"),
        ([{"problem_id": "p", "label": 1, "votes": [1, 0, 5], "signal": 1}], [], "r.jsonl:1: field 'votes[2]': expected 0 or 1; found 5"),
        ([{"problem_id": "p", "label": 1, "votes": [1], "signal": 1}], [], "r.jsonl:1: field 'votes': a panel needs at least 2 votes"),
        ([{"problem_id": "p", "votes": [1, 0, 1], "signal": 1}], [], "r.jsonl:1: field 'label': Field required"),
        ([{"problem_id": "p", "label": 1, "votes": [1, 0, 1], "signal": 1, "benchmark": "a"},
          {"problem_id": "p", "label": 1, "votes": [1, 0, 1], "signal": 1}], [], "r.jsonl:2: field 'benchmark'"),
        ([{"problem_id": "p", "label": 1, "votes": [1, 0, 1], "signal": 1}], ["--coverage", "0.2"], "field '--coverage': short-form records"),
    ],
)
def test_bad_input_exits_2_with_line_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str], rows: list[Any], args: list[str], expected: str) -> None:
    path = write(tmp_path / "r.jsonl", rows)
    assert score("--records", str(path), "--out", str(tmp_path / "out"), *args) == 2
    err = capsys.readouterr().err.strip()
    assert expected in err and err.count("\n") == 0
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("coverage", ["0", "1.5", "-0.2", "nan", "abc"])
def test_coverage_outside_unit_interval_exits_2(tmp_path: Path, coverage: str) -> None:
    path = write(tmp_path / "r.jsonl", records(form="full"))
    result = subprocess.run(
        [sys.executable, "-m", "rend_equiv_dataset", "panel", "score", "--records", str(path), "--out", str(tmp_path / "o"), "--coverage", coverage],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parents[3],
    )
    assert result.returncode == 2 and "--coverage" in result.stderr and "(0, 1]" in result.stderr


def test_infra_errors_are_left_out_and_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = records(form="full")
    for row in rows[:5]:
        row.update(status="infra_error", label=0, assertions_passed=[False] * 6)
    assert score("--records", str(write(tmp_path / "r.jsonl", rows)), "--out", str(tmp_path / "out")) == 0
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["n"] == 55 and report["provenance"]["excluded_infra_error"] == 5
    assert report["provenance"]["status_counts"] == {"ok": 55, "infra_error": 5}
    assert "5 infra_error record(s) left out" in capsys.readouterr().err
    for row in rows:
        row.update(status="infra_error", label=0)
    assert score("--records", str(write(tmp_path / "all.jsonl", rows)), "--out", str(tmp_path / "out2")) == 2
    assert "field 'status': all 60 records are infra_error runs" in capsys.readouterr().err


def test_zero_resamples_reports_points_without_intervals(tmp_path: Path) -> None:
    """``--resamples 0`` means no bootstrap, as in ``score`` and ``submit``: the same points, intervals null."""
    path = write(tmp_path / "r.jsonl", records())
    assert main(["panel", "score", "--records", str(path), "--resamples", "0", "--permutations", "20", "--out", str(tmp_path / "a")]) == 0
    assert main(["panel", "score", "--records", str(path), "--resamples", "50", "--permutations", "20", "--out", str(tmp_path / "b")]) == 0
    none, some = (json.loads((tmp_path / f / "report.json").read_text()) for f in ("a", "b"))
    assert none["provenance"]["n_resamples"] == 0 and none["k"] == some["k"] and none["n"] == some["n"]
    assert none["pivotal"]["gain"] == some["pivotal"]["gain"]
    assert none["pivotal"]["ci"] == [None, None] and None not in some["pivotal"]["ci"]
