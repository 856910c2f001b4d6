"""Reading the release's ``renderings`` config for a run (DESIGN §7.2).

The images stay undecoded until a rendering is answered, so an image that
cannot be decoded fails that rendering only (it is recorded as an error).

The parquet files the card names (:func:`rend_equiv_dataset.figures.release.read.renderings_files`,
shared with the scorer) are read directly, not through
``load_dataset``'s Arrow cache: with datasets 5.2 that cache is keyed by the
folder's *name* and config only, so two different releases in folders with the
same name (``release/``) silently share one cache entry and the second one
loads the first one's rows (seen here). Reading the files also spares each
process of a run a copy of every image.
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow as pa
from PIL import Image

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import read_parquet

CONFIG = "renderings"
REQUIRED_COLUMNS = ("render_id", "image", "question")


def load_renderings(data_dir: Path) -> Any:
    """The ``renderings`` config of a release folder as one ``datasets.Dataset``.

    Splits, if several, are concatenated in name order. Raises InputError when
    the folder, the config, a required column or a unique ``render_id`` is missing.
    """
    import datasets

    from rend_equiv_dataset.figures.release.read import renderings_files

    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise InputError("is not a folder", file=data_dir, field="--data")
    try:
        paths = renderings_files(data_dir)
    except InputError as err:
        raise InputError(f"{err.message}; build a release with `rend-equiv build`", file=data_dir, field="--data")
    table = datasets.Dataset(pa.concat_tables([read_parquet(path) for path in paths]))
    for column in REQUIRED_COLUMNS:
        if column not in table.column_names:
            raise InputError(f"the {CONFIG!r} config has no column {column!r}", file=data_dir, field=column)
    ids = table["render_id"]
    if len(set(ids)) != len(ids):
        dup = next(i for i, n in Counter(ids).items() if n > 1)
        raise InputError(f"render_id {dup!r} is not unique", file=data_dir, field="render_id")
    return table.cast_column("image", datasets.Image(decode=False))


def decode_image(value: Any) -> Image.Image:
    """Decode an undecoded ``datasets.Image`` value (``{"bytes", "path"}``) to RGB."""
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
