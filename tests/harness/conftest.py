"""Fixtures for the harness tests: a tiny offline model and a small renderings folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.renderings_folder import write_renderings


@pytest.fixture(scope="session")
def tiny_vlm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from rend_equiv_dataset.harness.tiny import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("models") / "tiny-vlm", kind="vlm", seed=0)


@pytest.fixture(scope="session")
def tiny_text(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from rend_equiv_dataset.harness.tiny import build_tiny_model

    return build_tiny_model(tmp_path_factory.mktemp("models") / "tiny-text", kind="text", seed=0)


@pytest.fixture(scope="session")
def release(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    folder = tmp_path_factory.mktemp("release")
    return folder, write_renderings(folder, 6)
