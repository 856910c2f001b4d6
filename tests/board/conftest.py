"""A small synthetic release and predictions files for the leaderboard tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main


@pytest.fixture(scope="session")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import datasets

    from rend_equiv_dataset.figures.scoring.synthetic import synthetic_rows
    from rend_equiv_dataset.hub import card_metadata, write_card, write_config

    folder = tmp_path_factory.mktemp("board-release") / "release"
    folder.mkdir()
    dataset = datasets.Dataset.from_list(synthetic_rows(n_instances=20, seeds=(0,), rerenders=2))
    written = write_config(folder, "renderings", dataset)
    write_card(folder, card_metadata([written], default="renderings"), "Test release.")
    return folder


@pytest.fixture(scope="session")
def predictions(release: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Simulated predictions files: a perfect reader, an offset misreader, a scale misreader."""
    folder = tmp_path_factory.mktemp("board-predictions")
    files = {}
    for name, reader in {"perfect": "perfect", "offset": "0.5*offset:30+0.5*perfect", "scale": "scale:1.5"}.items():
        files[name] = folder / f"{name}.jsonl"
        assert main(["simulate", "--data", str(release), "--reader", reader, "--out", str(files[name])]) == 0
    return files
