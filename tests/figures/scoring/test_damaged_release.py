"""A damaged release folder ends every reading command with status 2 and one line naming the file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main

from .release_fixture import TINY_OUTPUTS, tiny_rows, write_predictions, write_release


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_release(tiny_rows(), tmp_path_factory.mktemp("good") / "release")


def _shard(folder: Path) -> Path:
    return next(folder.glob("data/renderings/*.parquet"))


DAMAGE = {
    "truncated_parquet": lambda d: _shard(d).write_bytes(_shard(d).read_bytes()[: _shard(d).stat().st_size // 2]),
    "empty_parquet": lambda d: _shard(d).write_bytes(b""),
    "garbage_parquet": lambda d: _shard(d).write_bytes(b"PAR1 but not really" * 50),
    "broken_yaml": lambda d: (d / "README.md").write_text("---\nconfigs: [unclosed\n  - x: {\n---\nbody\n"),
    "unclosed_yaml": lambda d: (d / "README.md").write_text("---\nconfigs: []\nbody\n"),
    "deep_yaml": lambda d: (d / "README.md").write_text("---\nconfigs: " + "[" * 5000 + "]" * 5000 + "\n---\n"),
    "yaml_not_a_mapping": lambda d: (d / "README.md").write_text("---\n- a\n- b\n---\n"),
    "card_not_utf8": lambda d: (d / "README.md").write_bytes(b"---\nlicense: \xff\n---\n"),
}
NAMED = {"truncated_parquet": "parquet", "empty_parquet": "parquet", "garbage_parquet": "parquet"}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("command", ["score", "simulate"])
def test_damaged_release_exits_2_naming_the_file(good: Path, tmp_path: Path, capsys, damage: str, command: str) -> None:
    data = tmp_path / "release"
    shutil.copytree(good, data)
    DAMAGE[damage](data)
    damaged = _shard(data) if damage in NAMED else data / "README.md"
    if command == "score":
        preds = write_predictions(TINY_OUTPUTS, tmp_path / "p.jsonl")
        argv = ["score", "--data", str(data), "--predictions", str(preds), "--out", str(tmp_path / "report")]
    else:
        argv = ["simulate", "--data", str(data), "--reader", "scale:1.5", "--out", str(tmp_path / "sim.jsonl")]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(damaged) in err
    assert not (tmp_path / "report").exists() and not (tmp_path / "sim.jsonl").exists()
