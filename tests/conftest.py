"""Shared test settings."""

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Nothing is downloaded in tests: models and datasets are built locally.
os.environ.setdefault("HF_HUB_OFFLINE", "1")

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _private_datasets_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Give every test its own `datasets` cache.

    `datasets.load_dataset` caches a local folder under a key that two folders
    of the same name can share, so a test could read another test's rows.
    """
    cache = tmp_path_factory.mktemp("hf-datasets-cache")
    monkeypatch.setenv("HF_DATASETS_CACHE", str(cache))
    config = sys.modules.get("datasets.config")
    if config is not None:
        monkeypatch.setattr(config, "HF_DATASETS_CACHE", Path(cache))
