"""Hub-ready dataset folders: parquet shards per config + a README.md card.

A release folder looks like the Hub expects (docs/design.md §3.4)::

    OUT/README.md                                   card: YAML `configs` + `dataset_info`, prose
    OUT/data/<config>/test-00000-of-00001.parquet

Every config has one split, ``test`` (the benchmark is for evaluation only).
The card's ``dataset_info`` gives each split's ``num_examples`` and
``num_bytes``, so ``datasets`` checks a folder's rows against its card, and
so ``datasets.load_dataset(OUT, config)`` reads it locally and
:func:`push_folder` publishes the same bytes. Callers write the folder with
:func:`rend_equiv_dataset.io.atomic_dir`, so an interrupted build leaves no
half-written release.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rend_equiv_dataset.errors import InputError

if TYPE_CHECKING:
    import datasets

DEFAULT_SPLIT = "test"
"""The one split of every released config: REND-EQUIV and the panels are evaluation sets."""


@dataclass(frozen=True)
class WrittenConfig:
    """One config's split as written: its features, shard paths and sizes (the card's ``dataset_info``)."""

    name: str
    features: datasets.Features
    paths: tuple[str, ...]
    num_examples: int
    num_bytes: int
    """Size of the rows as Arrow data read back from the shards, images included (a split's ``num_bytes``)."""
    download_size: int
    """Size of the parquet files on disk."""
    split: str = DEFAULT_SPLIT


def shard_path(config: str, split: str = DEFAULT_SPLIT, index: int = 0, count: int = 1) -> str:
    """Relative path of one parquet shard, in the Hub's naming scheme.

    >>> shard_path("renderings", index=1, count=3)
    'data/renderings/test-00001-of-00003.parquet'
    """
    return f"data/{config}/{split}-{index:05d}-of-{count:05d}.parquet"


def write_config(
    folder: str | os.PathLike[str],
    config: str,
    dataset: datasets.Dataset,
    *,
    split: str = DEFAULT_SPLIT,
    max_rows_per_shard: int = 2_000,
) -> WrittenConfig:
    """Write ``dataset`` as parquet shards of ``config``; images are embedded as bytes.

    Returns what was written (shard paths relative to ``folder``, row count
    and sizes). The bytes depend only on the rows and the library versions,
    so the same rows give the same files.
    """
    import pyarrow.parquet as pq
    from datasets.table import embed_table_storage

    table = embed_table_storage(dataset.with_format("arrow")[:])
    count = max(1, -(-table.num_rows // max_rows_per_shard))
    paths = []
    for index in range(count):
        relative = shard_path(config, split, index, count)
        path = Path(folder) / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        chunk = table.slice(index * max_rows_per_shard, max_rows_per_shard)
        pq.write_table(chunk, path, compression="zstd", write_statistics=False)
        paths.append(relative)
    files = [Path(folder) / relative for relative in paths]
    num_bytes = sum(pq.read_table(path).nbytes for path in files)  # as a reader gets them
    download_size = sum(path.stat().st_size for path in files)
    return WrittenConfig(config, dataset.features, tuple(paths), table.num_rows, num_bytes, download_size, split)


def card_metadata(
    written: Sequence[WrittenConfig],
    *,
    default: str | None = None,
    license: str = "apache-2.0",
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The YAML header of a dataset card: ``license``, ``configs`` and ``dataset_info``.

    ``configs`` lists each config's ``data_files`` (``default`` marks the one
    ``load_dataset(folder)`` opens without a config name); ``dataset_info``
    gives each config's features and its split's ``num_examples`` and
    ``num_bytes``, plus ``download_size`` and ``dataset_size``.
    """
    names = [w.name for w in written]
    if len(set(names)) != len(names):
        raise InputError(f"a config is written twice: {names}", field="config")
    if default is not None and default not in names:
        raise InputError(f"default config {default!r} is not one of {names}", field="default")

    def config_entry(w: WrittenConfig) -> dict[str, Any]:
        entry: dict[str, Any] = {"config_name": w.name}
        if w.name == default:
            entry["default"] = True
        entry["data_files"] = [{"split": w.split, "path": f"data/{w.name}/{w.split}-*.parquet"}]
        return entry

    return {
        "license": license,
        **(extra or {}),
        "configs": [config_entry(w) for w in written],
        "dataset_info": [
            {
                "config_name": w.name,
                "features": w.features._to_yaml_list(),
                "splits": [{"name": w.split, "num_bytes": w.num_bytes, "num_examples": w.num_examples}],
                "download_size": w.download_size,
                "dataset_size": w.num_bytes,
            }
            for w in written
        ],
    }


def write_card(folder: str | os.PathLike[str], metadata: Mapping[str, Any], body: str) -> Path:
    """Write README.md: a YAML front matter block then the Markdown body."""
    from huggingface_hub import DatasetCard

    card = DatasetCard(f"---\n{_yaml(metadata)}---\n\n{body.strip()}\n")
    path = Path(folder) / "README.md"
    path.write_text(str(card), encoding="utf-8")
    return path


def read_card_metadata(folder: str | os.PathLike[str], *, max_bytes: int = 4 * 2**20) -> dict[str, Any]:
    """The YAML header of ``folder``'s README.md ({} when it has none); a broken header raises InputError.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "README.md").write_text("---\\nconfigs: [unclosed\\n---\\nbody\\n")
    >>> read_card_metadata(d)
    Traceback (most recent call last):
    ...
    rend_equiv_dataset.errors.InputError: .../README.md:2: not valid YAML (expected ',' or ']', but got '<stream end>')
    """
    import yaml

    from rend_equiv_dataset.io import ECHO_CHARS, read_text

    path = Path(folder) / "README.md"
    if not path.is_file():
        return {}
    text = read_text(path, max_bytes=max_bytes)
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return {}
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        raise InputError("the YAML header opened by '---' is never closed", file=path, line=1)
    try:
        metadata = yaml.safe_load("\n".join(lines[1:end]))
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        line = None if mark is None else mark.line + 2
        raise InputError(f"not valid YAML ({str(err.problem)[:ECHO_CHARS]})", file=path, line=line) from None
    except (yaml.YAMLError, RecursionError) as err:
        reason = "nested too deeply" if isinstance(err, RecursionError) else str(err)[:ECHO_CHARS]
        raise InputError(f"not valid YAML ({reason})", file=path) from None
    if metadata is None:
        return {}
    if not isinstance(metadata, dict):
        raise InputError(f"the YAML header must be a mapping, got {type(metadata).__name__}", file=path, line=2)
    return metadata


def _yaml(metadata: Mapping[str, Any]) -> str:
    import yaml

    return yaml.safe_dump(dict(metadata), sort_keys=False, allow_unicode=True)


def push_folder(folder: str | os.PathLike[str], repo_id: str, *, private: bool = False, token: str | None = None) -> str:
    """Publish a release folder to the Hub as a dataset repository; returns the commit URL."""
    from huggingface_hub import HfApi

    api = HfApi(token=token)
    api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
    info = api.upload_folder(folder_path=str(folder), repo_id=repo_id, repo_type="dataset")
    return str(info)


def config_names(folder: str | os.PathLike[str]) -> Sequence[str]:
    """Configs present in a release folder (sub-folders of ``data/``), sorted."""
    data = Path(folder) / "data"
    return sorted(p.name for p in data.iterdir() if p.is_dir()) if data.is_dir() else []
