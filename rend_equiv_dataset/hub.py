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

from rend_equiv_dataset import io
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


IMAGE_ROW_GROUP = 100
"""Rows per parquet row group in a config with images (``datasets``' Arrow batch size for images).

Rows are buffered only up to one row group, so writing never holds more than
100 images, and a reader (the Hub's viewer, ``load_dataset`` streaming) gets
one row without decoding a whole shard. Configs without images write one row
group per shard.
"""


def _has_image(features: datasets.Features) -> bool:
    import datasets

    return any(isinstance(feature, datasets.Image) for feature in features.values())


class ConfigWriter:
    """Stream the rows of one config's split into parquet shards, one row group at a time.

    Rows come in as Python mappings (:meth:`add_rows`) or as Arrow tables of
    the config's schema (:meth:`add_table`, e.g. read back from another
    writer's files); either way the bytes depend only on the sequence of rows,
    ``max_rows_per_shard`` and the library versions, not on how the rows were
    batched on the way in. Shards are written under temporary names and get
    their ``-of-NNNNN`` names in :meth:`close`, once their number is known.
    ``num_bytes`` is the Arrow size of the rows written (what a reader gets
    back, counted one row group at a time as each shard is closed).

    >>> import tempfile, datasets
    >>> features = datasets.Features({"id": datasets.Value("string")})
    >>> folder = tempfile.mkdtemp()
    >>> with ConfigWriter(folder, "things", features, max_rows_per_shard=2) as writer:
    ...     writer.add_rows([{"id": "a"}, {"id": "b"}, {"id": "c"}])
    ...     written = writer.close()
    >>> written.paths, written.num_examples
    (('data/things/test-00000-of-00002.parquet', 'data/things/test-00001-of-00002.parquet'), 3)
    """

    def __init__(self, folder: str | os.PathLike[str], config: str, features: datasets.Features, *,
                 split: str = DEFAULT_SPLIT, max_rows_per_shard: int = 2_000) -> None:
        if max_rows_per_shard < 1:
            raise InputError(f"expected at least 1 row per shard, got {max_rows_per_shard}", field="max_rows_per_shard")
        self.folder, self.config, self.features, self.split = Path(folder), config, features, split
        self.max_rows = max_rows_per_shard
        self.group_rows = min(IMAGE_ROW_GROUP, max_rows_per_shard) if _has_image(features) else max_rows_per_shard
        self.schema = features.arrow_schema
        self._pending: list[Any] = []  # pyarrow tables, fewer rows than one row group in all
        self._pending_rows = 0
        self._shard_rows = 0
        self._writer: Any = None
        self._files: list[Path] = []
        self.num_rows = 0
        self.num_bytes = 0

    def __enter__(self) -> ConfigWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._writer is not None:  # abandoned mid-way: release the file; the caller's staging folder goes
            self._writer.close()
            self._writer = None

    def add_rows(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Append rows given as mappings in Arrow storage form (an image as ``{"bytes": ..., "path": None}``)."""
        import pyarrow as pa

        try:
            table = pa.Table.from_pylist(list(rows), schema=self.schema)
        except (pa.ArrowInvalid, pa.ArrowTypeError) as err:
            raise InputError(f"a row does not fit config {self.config!r}: {str(err)[:200]}", field=self.config) from None
        self.add_table(table)

    def add_table(self, table: Any) -> None:
        """Append the rows of a pyarrow table with this config's columns and types."""
        if not table.schema.equals(self.schema, check_metadata=False):
            raise InputError(f"the rows do not have the columns and types of config {self.config!r}", field=self.config)
        table = table.replace_schema_metadata(self.schema.metadata)
        while table.num_rows:
            room = min(self.group_rows - self._pending_rows, self.max_rows - self._shard_rows - self._pending_rows)
            head, table = table.slice(0, room), table.slice(room)
            self._pending.append(head)
            self._pending_rows += head.num_rows
            if self._pending_rows == self.group_rows or self._shard_rows + self._pending_rows == self.max_rows:
                self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self._pending:
            return
        group = pa.concat_tables(self._pending).combine_chunks()
        self._pending, self._pending_rows = [], 0
        if self._writer is None:
            path = self.folder / "data" / self.config / f".{self.split}-{len(self._files):05d}.parquet.partial"
            path.parent.mkdir(parents=True, exist_ok=True)
            self._writer = pq.ParquetWriter(path, self.schema, compression="zstd", write_statistics=False)
            self._files.append(path)
        self._writer.write_table(group, row_group_size=group.num_rows)
        self.num_rows += group.num_rows
        self._shard_rows += group.num_rows
        if self._shard_rows == self.max_rows:
            self._close_shard()

    def _close_shard(self) -> None:
        """Close the open shard and add the Arrow size of its rows as a reader gets them, a row group at a time."""
        import pyarrow.parquet as pq

        self._writer.close()
        self._writer, self._shard_rows = None, 0
        shard = pq.ParquetFile(self._files[-1])
        self.num_bytes += sum(shard.read_row_group(i).nbytes for i in range(shard.num_row_groups))

    def close(self) -> WrittenConfig:
        """Write what is buffered, name the shards, and say what was written."""
        self._flush()
        if self._writer is not None:
            self._close_shard()
        if not self._files:  # an empty split is still one (empty) shard, so the config loads
            self._write_empty()
        paths = []
        for index, partial in enumerate(self._files):
            relative = shard_path(self.config, self.split, index, len(self._files))
            io.rename_into_place(partial, self.folder / relative)
            paths.append(relative)
        download_size = sum((self.folder / relative).stat().st_size for relative in paths)
        return WrittenConfig(self.config, self.features, tuple(paths), self.num_rows, self.num_bytes, download_size,
                             self.split)

    def _write_empty(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = self.folder / "data" / self.config / f".{self.split}-00000.parquet.partial"
        path.parent.mkdir(parents=True, exist_ok=True)
        pq.write_table(pa.Table.from_pylist([], schema=self.schema), path, compression="zstd", write_statistics=False)
        self._files.append(path)


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
    and sizes). The rows go through :class:`ConfigWriter` a row group at a
    time, so the same rows give the same files as any other way of feeding it.
    """
    from datasets.table import embed_table_storage

    table = dataset.with_format("arrow")
    with ConfigWriter(folder, config, dataset.features, split=split, max_rows_per_shard=max_rows_per_shard) as writer:
        for start in range(0, len(dataset), IMAGE_ROW_GROUP):
            writer.add_table(embed_table_storage(table[start:start + IMAGE_ROW_GROUP]))
        return writer.close()


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
