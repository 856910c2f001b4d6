"""`panel build` / `panel exec`: records, the release folder, resumable execution, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.panels.execution import read_results
from rend_equiv_dataset.panels.panel_release import RECORD_FIELDS
from rend_equiv_dataset.panels.candidates.read import load_candidates, load_verdicts
from rend_equiv_dataset.panels.problems import load_humaneval

FIXTURES = Path(__file__).parent / "fixtures"


def _candidates_file(tmp_path: Path, n_problems: int = 2) -> Path:
    rows = []
    for problem in load_humaneval().problems[:n_problems]:
        rows.append({"problem_id": problem.problem_id, "candidate_id": f"{problem.problem_id}/good", "solver": "s1",
                     "code": problem.prompt + problem.canonical_solution})
        rows.append({"problem_id": problem.problem_id, "candidate_id": f"{problem.problem_id}/bad", "solver": "s2",
                     "code": problem.prompt + "    return None\n"})
    path = tmp_path / "cands.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    out = tmp_path_factory.mktemp("panel") / "release"
    code = main(["panel", "build", "--limit", "4", "--per-problem", "5", "--correct-per-problem", "2", "--k", "7",
                 "--seed", "3", "--no-progress", "--out", str(out)])
    assert code == 0
    return out


def test_release_loads_with_full_form_records(release):
    rows = datasets.load_dataset(str(release), "humaneval", split="test")
    assert len(rows) > 4 and set(RECORD_FIELDS) <= set(rows.column_names)
    for row in rows:
        assert len(row["votes"]) == 7 and len(row["judges"]) == 7 and len(row["judge_lines"]) == 7
        assert row["judge_source"] == "simulated" and row["status"] in {"ok", "timeout", "crash", "infra_error"}
        assert row["label"] == int(row["status"] == "ok" and all(row["assertions_passed"]))
        assert set(row["votes"]) <= {0, 1}
    assert sum(row["solver"] == "canonical" for row in rows) == 4
    assert all(row["label"] == 1 for row in rows if row["solver"] in ("canonical", "rewrite"))


def test_card_states_humaneval_mit_licence_and_one_test_split(release):
    from huggingface_hub import DatasetCard

    card = DatasetCard.load(release / "README.md")
    data = card.data.to_dict()
    assert data["license"] == "mit"
    assert "HumanEval (openai/human-eval): MIT" in card.text
    assert data["configs"] == [{"config_name": "humaneval", "default": True,
                                "data_files": [{"split": "test", "path": "data/humaneval/test-*.parquet"}]}]
    (info,) = data["dataset_info"]
    assert info["splits"][0]["name"] == "test" and info["splits"][0]["num_examples"] == len(
        (release / "records.jsonl").read_text().splitlines())


def test_card_reports_counts_base_rate_and_signal_accuracy(release):
    card = (release / "README.md").read_text()
    summary = json.loads((release / "summary.json").read_text())
    records = [json.loads(line) for line in (release / "records.jsonl").read_text().splitlines()]
    base_rate = sum(r["label"] for r in records) / len(records)
    assert summary["label_base_rate"] == pytest.approx(base_rate)
    assert f"{base_rate:.4f}" in card and f"records: {len(records)}, problems: 4, k = 7" in card
    assert len(summary["signal_accuracy"]) == 13
    for coverage in ("0.02", "0.05", "0.10", "0.20", "0.50", "0.80"):
        assert f"| {coverage} |" in card
    accuracy = list(summary["signal_accuracy"].values())
    assert accuracy == sorted(accuracy)  # one-sided errors: more coverage is never less accurate
    assert "config_name: humaneval" in card
    # nested proxy: the signal never rejects a full-suite pass
    assert all(r["assertions_passed"][0] for r in records if r["label"] == 1)


@pytest.mark.parametrize("jobs", ["1", "3"])
def test_build_is_byte_identical_whatever_the_number_of_sandboxes(release, tmp_path, jobs):
    out = tmp_path / "again"
    assert main(["panel", "build", "--limit", "4", "--per-problem", "5", "--correct-per-problem", "2", "--k", "7",
                 "--seed", "3", "--no-progress", "--jobs", jobs, "--out", str(out)]) == 0
    files = sorted(p.relative_to(release) for p in release.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert [(release / f).read_bytes() for f in files] == [(out / f).read_bytes() for f in files]


def test_build_with_candidate_and_verdict_files(tmp_path):
    candidates = _candidates_file(tmp_path)
    verdict_rows = []
    for cand in load_candidates(candidates):
        verdict_rows.append({"candidate_id": cand.candidate_id, "judge": "j1", "verdict": 1})
        verdict_rows.append({"candidate_id": cand.candidate_id, "judge": "j2", "response": "INCORRECT\nbecause"})
        verdict_rows.append({"candidate_id": cand.candidate_id, "judge": "j3", "response": "I am not sure."})
    verdicts = tmp_path / "verdicts.jsonl"
    verdicts.write_text("".join(json.dumps(r) + "\n" for r in verdict_rows))
    out = tmp_path / "rel"
    assert main(["panel", "build", "--limit", "2", "--candidates", str(candidates), "--judges", str(verdicts),
                 "--no-progress", "--out", str(out)]) == 0
    records = [json.loads(x) for x in (out / "records.jsonl").read_text().splitlines()]
    assert [r["label"] for r in records] == [1, 0, 1, 0]
    assert all(r["votes"] == [1, 0, 0] and r["judges"] == ["j1", "j2", "j3"] for r in records)
    assert records[0]["judge_lines"] == ["CORRECT", "INCORRECT", "I am not sure."]
    assert all(r["judge_source"] == "file" for r in records)
    assert load_verdicts(verdicts).unparseable == 4


def test_exec_is_resumable_and_drops_a_torn_last_line(tmp_path):
    candidates = _candidates_file(tmp_path)
    out = tmp_path / "results.jsonl"
    args = ["panel", "exec", "--problems", "humaneval", "--candidates", str(candidates), "--out", str(out),
            "--no-progress"]
    assert main(args) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 4 and [json.loads(x)["label"] for x in lines] == [1, 0, 1, 0]
    # a kill in the middle of writing the 4th line: it is torn; the rest stay
    out.write_text("\n".join(lines[:3]) + "\n" + lines[3][:25])
    assert main(args) == 0
    again = out.read_text().splitlines()
    assert again[:3] == lines[:3] and len(again) == 4
    assert json.loads(again[3])["candidate_id"] == json.loads(lines[3])["candidate_id"]
    assert main(args) == 0 and out.read_text().splitlines() == again  # nothing left to do
    assert list(read_results(out)) == [json.loads(x)["candidate_id"] for x in lines]


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        ({"candidate_id": "a", "solver": "s", "code": "x"}, "problem_id", "missing"),
        ({"problem_id": "HumanEval/0", "candidate_id": "a", "solver": "s", "code": 3}, "code", "expected a string"),
        ({"problem_id": "HumanEval/0", "candidate_id": "", "solver": "s", "code": "x"}, "candidate_id", "empty"),
        ({"problem_id": "Nope/1", "candidate_id": "a", "solver": "s", "code": "x"}, "problem_id", "unknown problem"),
    ],
)
def test_malformed_candidate_files_exit_2_with_line_and_field(tmp_path, capsys, row, field, message):
    path = tmp_path / "c.jsonl"
    good = {"problem_id": "HumanEval/0", "candidate_id": "ok", "solver": "s", "code": "x"}
    path.write_text(json.dumps(good) + "\n" + json.dumps(row) + "\n")
    code = main(["panel", "exec", "--problems", "humaneval", "--candidates", str(path), "--out",
                 str(tmp_path / "r.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and f"{path}:2" in err and f"field '{field}'" in err and message in err


def test_duplicate_candidates_and_bad_verdicts(tmp_path):
    from rend_equiv_dataset.errors import InputError

    row = json.dumps({"problem_id": "P", "candidate_id": "a", "solver": "s", "code": "x"})
    dup = tmp_path / "dup.jsonl"
    dup.write_text(row + "\n" + row + "\n")
    with pytest.raises(InputError, match="duplicate") as info:
        load_candidates(dup)
    assert info.value.line == 2
    bad = tmp_path / "v.jsonl"
    bad.write_text(json.dumps({"candidate_id": "a", "judge": "j", "verdict": 2}) + "\n")
    with pytest.raises(InputError) as info:
        load_verdicts(bad)
    assert info.value.field == "verdict" and info.value.line == 1
    twice = tmp_path / "v2.jsonl"
    line = json.dumps({"candidate_id": "a", "judge": "j", "verdict": 1})
    twice.write_text(line + "\n" + line + "\n")
    with pytest.raises(InputError, match="second verdict"):
        load_verdicts(twice)


@pytest.mark.parametrize(
    "extra",
    [["--k", "12"], ["--per-problem", "2", "--correct-per-problem", "3"], ["--seed", "-1"], ["--k", "x"],
     ["--jobs", "0"]],
)
def test_bad_build_options_exit_2(tmp_path, extra):
    argv = ["panel", "build", "--limit", "1", "--no-progress", "--out", str(tmp_path / "o"), *extra]
    if extra[-1] in ("-1", "x", "0"):  # argparse types reject these with exit status 2
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
    else:
        assert main(argv) == 2
    assert not (tmp_path / "o").exists()


def test_missing_judge_verdict_is_named(tmp_path, capsys):
    candidates = _candidates_file(tmp_path, n_problems=1)
    verdicts = tmp_path / "v.jsonl"
    verdicts.write_text(json.dumps({"candidate_id": "HumanEval/0/good", "judge": "j1", "verdict": 1}) + "\n")
    code = main(["panel", "build", "--limit", "1", "--candidates", str(candidates), "--judges", str(verdicts),
                 "--no-progress", "--out", str(tmp_path / "o")])
    assert code == 2 and "HumanEval/0/bad" in capsys.readouterr().err


def test_livecodebench_without_canonical_cannot_be_mutated(tmp_path, capsys):
    code = main(["panel", "build", "--problems", str(FIXTURES / "livecodebench_small.jsonl"), "--no-progress",
                 "--out", str(tmp_path / "o")])
    assert code == 2 and "canonical" in capsys.readouterr().err


def test_release_is_read_by_panel_score(release, tmp_path):
    report_dir = tmp_path / "report"
    assert main(["panel", "score", "--records", str(release), "--out", str(report_dir)]) == 0
    report = json.loads((report_dir / "report.json").read_text())
    records = (release / "records.jsonl").read_text().splitlines()
    assert report["k"] == 7 and report["n"] == len(records)
