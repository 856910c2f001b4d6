"""``rend-equiv run`` in one process: the predictions contract, provenance, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.renderings_folder import write_renderings
from rend_equiv_dataset import __version__
from rend_equiv_dataset.cli import main
from rend_equiv_dataset.harness import prompts
from rend_equiv_dataset.figures.release.read import dataset_fingerprint

RECORD_KEYS = {"render_id", "output", "answer", "logprob", "samples", "perturbed"}


def _read(path: Path) -> tuple[dict, list[dict]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return lines[0]["meta"], lines[1:]


def check_predictions_contract(records: list[dict]) -> None:
    """docs/design.md §7.3, checked field by field."""
    for record in records:
        assert set(record) <= RECORD_KEYS and {"render_id", "output"} <= set(record)
        assert isinstance(record["render_id"], str) and isinstance(record["output"], str)
        if "logprob" in record:
            assert isinstance(record["logprob"], float)
        for key in ("samples", "perturbed"):
            if key in record:
                assert isinstance(record[key], list) and all(isinstance(s, str) for s in record[key])


def _run(release: Path, model: Path, out: Path, *extra: str) -> int:
    return main(["run", "--data", str(release), "--model", str(model), "--out", str(out), "--max-new-tokens", "3", *extra])


def test_greedy_run_covers_every_rendering_once_with_meta(release, tiny_vlm: Path, tmp_path: Path) -> None:
    folder, ids = release
    out = tmp_path / "preds.jsonl"
    assert _run(folder, tiny_vlm, out) == 0
    meta, records = _read(out)
    assert [r["render_id"] for r in records] == ids
    check_predictions_contract(records)
    assert all(set(r) == {"render_id", "output"} for r in records)  # nothing asked, nothing extra
    assert meta["model"] == str(tiny_vlm) and meta["backend"] == "transformers"
    assert meta["revision"].startswith("local-") and meta["package_version"] == __version__
    assert meta["prompt_template_hash"] == prompts.template_hash()
    assert meta["dataset_fingerprint"] == dataset_fingerprint(folder)
    assert meta["generation"] == {
        "max_new_tokens": 3, "samples": 0, "temperature": 0.0, "logprobs": False, "seed": 0, "perturb": False
    }
    assert not out.with_name("preds.jsonl.parts").exists()
    assert _run(folder, tiny_vlm, out) == 0  # already complete: same bytes
    assert _read(out)[1] == records


def test_samples_logprobs_and_perturbations_when_asked(release, tiny_vlm: Path, tmp_path: Path) -> None:
    folder, ids = release
    out = tmp_path / "rich.jsonl"
    args = ("--samples", "2", "--temperature", "0.7", "--logprobs", "--perturb", "--limit", "3")
    assert _run(folder, tiny_vlm, out, *args) == 0
    meta, records = _read(out)
    check_predictions_contract(records)
    assert len(records) == 3
    for r in records:
        assert len(r["samples"]) == 2 and r["logprob"] < 0
        assert len(r["perturbed"]) == len(prompts.PERTURBATION_TEMPLATES)
    assert meta["generation"]["samples"] == 2 and meta["generation"]["perturb"] is True


def test_bad_image_is_recorded_and_the_run_continues(tiny_vlm: Path, tmp_path: Path, capsys) -> None:
    folder = tmp_path / "rel"
    ids = write_renderings(folder, 4, bad_image_ids=frozenset({"r002"}))
    out = tmp_path / "p.jsonl"
    assert _run(folder, tiny_vlm, out) == 0
    assert [r["render_id"] for r in _read(out)[1]] == ["r000", "r001", "r003"]
    errors = [json.loads(line) for line in out.with_name("p.jsonl.errors.jsonl").read_text().splitlines()]
    assert errors == [{"render_id": "r002", "error": {"class": "UnidentifiedImageError", "message": errors[0]["error"]["message"]}}]
    assert "--retry-errors" in capsys.readouterr().err
    assert _run(folder, tiny_vlm, out, "--retry-errors") == 0  # retried, fails again, still recorded
    assert len(_read(out)[1]) == 3 and len(ids) == 4


def test_output_of_other_settings_is_refused(release, tiny_vlm: Path, tmp_path: Path, capsys) -> None:
    folder, _ = release
    out = tmp_path / "p.jsonl"
    assert _run(folder, tiny_vlm, out, "--limit", "2") == 0
    before = out.read_bytes()
    assert _run(folder, tiny_vlm, out, "--limit", "2", "--logprobs") == 2
    err = capsys.readouterr().err
    assert "another model or settings" in err and "generation" in err and "--out" in err
    assert out.read_bytes() == before
    assert _run(folder, tiny_vlm, out, "--limit", "2", "--temperature", "0.3") == 0  # T without samples: same run


@pytest.mark.parametrize(
    "change, message",
    [
        ({"--model": "./no/such/model"}, "no model folder"),
        ({"--data": "MISSING"}, "is not a folder"),
        ({"--data": "EMPTY"}, "no 'renderings' config.*rend-equiv build"),
        ({"--data": "OTHER_CONFIG"}, "no 'renderings' config.*rend-equiv build"),
        ({"--backend": "vllm"}, "vLLM is not installed"),
        ({"--shard": "2/2"}, "expected 0 <= I < N"),
        ({"--samples": "2", "--temperature": "0"}, "temperature > 0"),
    ],
)
def test_bad_input_exits_2_with_a_message(release, tiny_vlm: Path, tmp_path: Path, capsys, change, message) -> None:
    import importlib.util
    import re

    if change.get("--backend") == "vllm" and importlib.util.find_spec("vllm") is not None:
        pytest.skip("vLLM is installed here")
    folder, _ = release
    (tmp_path / "EMPTY").mkdir()
    other = tmp_path / "OTHER_CONFIG"
    (other / "data").mkdir(parents=True)
    (other / "README.md").write_text("---\nconfigs:\n- config_name: instances\n  data_files: data/*.parquet\n---\n")
    import shutil

    shutil.copy(next((folder / "renderings").glob("*.parquet")), other / "data" / "x.parquet")
    args = {"--data": str(folder), "--model": str(tiny_vlm), "--out": str(tmp_path / "p.jsonl"), "--limit": "1"}
    for key, value in change.items():
        args[key] = str(tmp_path / value) if key == "--data" else value
    argv = ["run", *[x for kv in args.items() for x in kv]]
    assert main(argv) == 2
    assert re.search(message, capsys.readouterr().err)


def test_two_releases_in_folders_of_the_same_name_are_not_confused(tmp_path: Path) -> None:
    """Regression: datasets' cache keys a local folder by its name; the harness must not."""
    from rend_equiv_dataset.figures.release.read import load_rendering_images as load_renderings

    small, big = tmp_path / "a" / "release", tmp_path / "b" / "release"
    write_renderings(small, 2)
    write_renderings(big, 5)
    assert len(load_renderings(small)) == 2 and len(load_renderings(big)) == 5

