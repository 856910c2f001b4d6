"""The one reader of a release's ``renderings`` configs (columns in :mod:`rend_equiv_dataset.schema`), for scoring and runs.

Scoring needs only the light columns of each row, so the parquet files the
dataset card lists for ``renderings`` are read with pyarrow and ``columns=``;
the embedded PNGs are never decoded (:func:`load_renderings`). A model run
needs the images too: :func:`load_rendering_images` checks the rows the same
way, then gives the table with the images left undecoded, and
:func:`decode_image` decodes one when it is answered (so a broken image fails
that rendering only).

The files are read directly, not through ``load_dataset``'s Arrow cache: with
datasets 5.2 that cache is keyed by the folder's *name* and config only, so two
different releases in folders with the same name (``release/``) would share
one cache entry and the second would load the first one's rows. The files are resolved through
``datasets.load_dataset_builder`` so the card's ``configs:`` section stays the
one source of truth for where the data lives.

:func:`dataset_fingerprint` is the one definition of a release's identity:
sha256 over the sorted ``render_id``/``target`` pairs. Harnesses write it into
the predictions ``meta`` line; scoring and submission check it.
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.schema import (
    ANSWER_TYPES,
    BASE,
    MATCHED_CYCLE_RENDERINGS,
    RENDERING_TEXT_COLUMNS,
    RENDERINGS,
    ROLES,
)
from rend_equiv_dataset.io import ECHO_CHARS, read_parquet
from rend_equiv_dataset.transforms import Transform, from_json

if TYPE_CHECKING:
    import datasets
    from PIL import Image

CONFIG = RENDERINGS
MATCHED_CONFIG = MATCHED_CYCLE_RENDERINGS
"""The m=6 swap-versus-cycle set's renderings (paper §4.3), same columns as ``renderings``."""
COLUMNS = RENDERING_TEXT_COLUMNS


@dataclass(frozen=True)
class RenderingRow:
    """One image a model answers: a row of the ``renderings`` config without its image."""

    render_id: str
    instance_id: str
    data_seed: int
    template_id: str
    family: str
    question_type: str
    role: str
    variant: str
    question: str
    target: str
    answer_type: str
    labels: tuple[str, ...]
    transform: Transform


def dataset_fingerprint(data: str | Path | Iterable[RenderingRow]) -> str:
    """sha256 over the sorted ``render_id``/``target`` pairs of a release.

    Accepts a release folder or already-loaded renderings. Two releases with
    the same images to answer and the same correct answers share a fingerprint.

    >>> rows = [_example("r2", "7"), _example("r1", "B")]
    >>> dataset_fingerprint(rows) == dataset_fingerprint(list(reversed(rows)))
    True
    >>> dataset_fingerprint(rows)[:12]
    '00216436cd2c'
    """
    renderings = load_renderings(data) if isinstance(data, (str, Path)) else list(data)
    digest = hashlib.sha256()
    for render_id, target in sorted((r.render_id, r.target) for r in renderings):
        digest.update(json.dumps([render_id, target], ensure_ascii=False).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def renderings_files(data_dir: str | Path, config: str = CONFIG) -> list[Path]:
    """The parquet files of a renderings-shaped config, as the dataset card lists them."""
    root = Path(data_dir)
    if not root.is_dir():
        raise InputError(f"expected a release folder, found {'a file' if root.exists() else 'nothing'}", file=root)
    import datasets

    from rend_equiv_dataset.hub import read_card_metadata

    read_card_metadata(root)  # a broken card is named before the datasets library reads it
    try:
        builder = datasets.load_dataset_builder(str(root), config)
    except (ValueError, TypeError, KeyError, FileNotFoundError, datasets.exceptions.DatasetNotFoundError) as err:
        raise InputError(f"no {config!r} config in this folder's dataset card: {str(err)[:ECHO_CHARS]}", file=root) from None
    files = sorted({Path(str(f)) for split in (builder.config.data_files or {}).values() for f in split})
    if not files:
        raise InputError(f"the {config!r} config lists no data files", file=root)
    return files


def has_config(data_dir: str | Path, config: str) -> bool:
    """Whether the release folder holds ``config`` (a sub-folder of ``data/``)."""
    from rend_equiv_dataset.hub import config_names

    return config in config_names(data_dir)


def load_matched_renderings(data_dir: str | Path) -> list[RenderingRow]:
    """The ``matched_cycle_renderings`` rows, or ``[]`` when the release has no matched set."""
    return load_renderings(data_dir, MATCHED_CONFIG) if has_config(data_dir, MATCHED_CONFIG) else []


def load_renderings(data_dir: str | Path, config: str = CONFIG) -> list[RenderingRow]:
    """Read and validate every row of a renderings-shaped config of a release folder (images skipped)."""
    rows: list[RenderingRow] = []
    for path in renderings_files(data_dir, config):
        table = read_parquet(path, COLUMNS)
        rows.extend(rendering_from_row(row, file=path, line=i + 1) for i, row in enumerate(table.to_pylist()))
    return check_renderings(rows, file=Path(data_dir))


def load_rendering_images(data_dir: str | Path, config: str = CONFIG) -> datasets.Dataset:
    """Every row of a renderings-shaped config with its image left undecoded, for a model run.

    The rows are checked as :func:`load_renderings` checks them; the table keeps
    the files' row order, and ``image`` holds ``{"bytes", "path"}`` values for
    :func:`decode_image`.
    """
    import datasets
    import pyarrow as pa

    load_renderings(data_dir, config)
    table = pa.concat_tables([read_parquet(path, (*COLUMNS, "image")) for path in renderings_files(data_dir, config)])
    return datasets.Dataset(table).cast_column("image", datasets.Image(decode=False))


def decode_image(value: Any) -> Image.Image:
    """Decode an undecoded ``datasets.Image`` value (``{"bytes", "path"}``) to RGB."""
    from PIL import Image

    if isinstance(value, Image.Image):
        return value.convert("RGB")
    data = value.get("bytes") if isinstance(value, dict) else None
    if data is None and isinstance(value, dict) and value.get("path"):
        data = Path(value["path"]).read_bytes()
    if data is None:
        raise ValueError("the image has neither bytes nor a path")
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def rendering_from_row(row: Mapping[str, Any], *, file: str | Path | None = None, line: int | None = None) -> RenderingRow:
    """Validate one row of §7.2 (as a plain mapping) into a :class:`RenderingRow`."""

    def need(name: str, kind: type | tuple[type, ...]) -> Any:
        value = row.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise InputError(f"expected {getattr(kind, '__name__', kind)}, got {value!r}", file=file, line=line, field=name)
        return value

    strings = {name: need(name, str) for name in COLUMNS if name not in ("data_seed", "labels")}
    labels = row.get("labels")
    if not isinstance(labels, (list, tuple)) or not all(isinstance(x, str) for x in labels):
        raise InputError(f"expected a list of strings, got {labels!r}", file=file, line=line, field="labels")
    if strings["role"] not in ROLES:
        raise InputError(f"expected one of {ROLES}, got {strings['role']!r}", file=file, line=line, field="role")
    if strings["answer_type"] not in ANSWER_TYPES:
        raise InputError(f"expected one of {ANSWER_TYPES}, got {strings['answer_type']!r}", file=file, line=line, field="answer_type")
    try:
        transform = from_json(strings.pop("transform"))
    except InputError as err:
        raise InputError(err.message, file=file, line=line, field="transform") from None
    return RenderingRow(data_seed=need("data_seed", int), labels=tuple(labels), transform=transform, **strings)


def check_renderings(rows: Sequence[RenderingRow], *, file: str | Path | None = None) -> list[RenderingRow]:
    """Check table-level rules: unique render ids, one base row per instance."""
    if not rows:
        raise InputError("the renderings config is empty", file=file)
    seen: set[str] = set()
    bases: dict[str, int] = {}
    for row in rows:
        if row.render_id in seen:
            raise InputError(f"duplicate render_id {row.render_id!r}", file=file, field="render_id")
        seen.add(row.render_id)
        bases[row.instance_id] = bases.get(row.instance_id, 0) + (row.role == BASE)
    if bad := sorted(i for i, n in bases.items() if n != 1):
        raise InputError(f"instance {bad[0]!r} has {bases[bad[0]]} base rows, expected exactly 1", file=file, field="role")
    return list(rows)


def _example(render_id: str, target: str) -> RenderingRow:
    """A minimal rendering for doctests."""
    from rend_equiv_dataset.transforms import IDENTITY

    return RenderingRow(render_id, "i", 0, "t", "bar", "read", "base", "base", "q?", target, "number", (), IDENTITY)
