"""Model-running commands check their inputs (the harness extra, the model) before any work."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main

ROOT = Path(__file__).resolve().parents[2]

_WITHOUT_HARNESS = """
import sys
sys.modules["torch"] = None  # as if the harness extra were not installed
from rend_equiv_dataset.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("argv", [
    ["run", "--data", "DATA", "--model", "MODEL", "--out", "OUT/p.jsonl"],
    ["tiny-model", "--out", "OUT/model"],
    ["panel", "solve", "--model", "MODEL", "--out", "OUT/c.jsonl"],
    ["panel", "judge", "--candidates", "DATA/c.jsonl", "--model", "MODEL", "--out", "OUT/v.jsonl"],
    ["digitize", "--images", "DATA", "--model", "MODEL", "--out", "OUT/tables"],
])
def test_missing_harness_extra_is_one_line_with_the_install_command(tmp_path: Path, argv: list[str]) -> None:
    argv = [a.replace("DATA", str(tmp_path / "data")).replace("MODEL", str(tmp_path / "model"))
            .replace("OUT", str(tmp_path / "out")) for a in argv]
    done = subprocess.run([sys.executable, "-c", _WITHOUT_HARNESS, *argv], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and 'pip install -e ".[harness]"' in lines[0] and "torch" in lines[0]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("model", ["typo", "no-such-org/no-such-model", "bad id with spaces", "a/b/c"])
def test_a_model_that_is_neither_a_folder_nor_a_cached_hub_id_fails_at_once(
    release, tmp_path: Path, capsys, monkeypatch, model: str
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hub"))
    folder, _ = release
    out = tmp_path / "p.jsonl"
    started = time.monotonic()
    assert main(["run", "--data", str(folder), "--model", model, "--out", str(out)]) == 2
    assert time.monotonic() - started < 10
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--model" in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no output, no .parts folder


@pytest.mark.parametrize("argv", [
    ["run", "--data", "DATA", "--model", "MODEL", "--out", "OUT", "--seed", "-1"],
    ["tiny-model", "--out", "OUT", "--seed", "-1"],
    ["panel", "solve", "--model", "MODEL", "--out", "OUT", "--seed", "-1"],
])
def test_negative_seed_exits_2_in_one_line(tmp_path: Path, capsys, argv: list[str]) -> None:
    argv = [a.replace("DATA", str(tmp_path)).replace("MODEL", str(tmp_path)).replace("OUT", str(tmp_path / "o"))
            for a in argv]
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--seed" in err[0] and "'-1'" in err[0]


def test_run_refuses_a_folder_as_its_output_file(release, tiny_vlm: Path, tmp_path: Path, capsys) -> None:
    folder, _ = release
    (tmp_path / "taken").mkdir()
    assert main(["run", "--data", str(folder), "--model", str(tiny_vlm), "--out", str(tmp_path / "taken")]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]
