"""Instances → a Hub-ready release folder (docs/design.md §3.4).

:func:`build_release` is a function over lists of :class:`Instance`, so any
source of instances (seeds, user tables) gives the same kind of release:

1. render every image of every instance into a cache beside the target
   (``.<name>.cache``; a killed build resumes from it);
2. assemble the rows of each config and write them as parquet shards, into a
   temporary folder beside the target: the per-image configs embed the PNG
   bytes, the per-instance configs refer to them by ``render_id`` (each image
   is stored once);
3. write the card and the sha256 manifest, then rename the folder into place
   (:func:`rend_equiv_dataset.io.atomic_dir`) and drop the cache.

The output bytes depend only on the instances, K and the library versions:
not on the number of workers, the process, the hash seed or the run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rend_equiv_dataset import hub, io, schema
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.generate import Instance
from rend_equiv_dataset.figures.release import images as image_cache
from rend_equiv_dataset.figures.release.card import ReleaseSettings, card_body, card_extra, card_license
from rend_equiv_dataset.figures.release.records import (
    instance_features,
    instance_row,
    rendering_features,
    rendering_rows,
)

# Instance sets a release may hold, and the per-image config derived from each.
INSTANCE_CONFIGS: dict[str, str] = schema.RENDERINGS_OF
ROWS_PER_SHARD = {schema.INSTANCES: 400, schema.MATCHED_CYCLE: 400,
                  schema.RENDERINGS: 4_000, schema.MATCHED_CYCLE_RENDERINGS: 4_000}
MANIFEST = "images.sha256"
DEFAULT_CONFIG = "renderings"
"""What ``load_dataset(folder)`` opens without a config name: the rows a model answers."""


@dataclass(frozen=True)
class ReleaseSummary:
    """What was written: rows per config and the shard paths."""

    folder: Path
    rows: dict[str, int]
    shards: dict[str, list[str]]


def cache_folder(out: Path) -> Path:
    """The resumable render cache beside ``out``."""
    return out.resolve().parent / f".{out.name}.cache"


def _check_ids(instance_sets: Mapping[str, Sequence[Instance]]) -> None:
    seen: set[str] = set()
    for name, instances in instance_sets.items():
        if name not in INSTANCE_CONFIGS:
            raise InputError(f"unknown instance set {name!r}; expected one of {sorted(INSTANCE_CONFIGS)}", field="config")
        for instance in instances:
            if instance.instance_id in seen:
                raise InputError(f"instance id {instance.instance_id!r} appears twice", field="instance_id")
            seen.add(instance.instance_id)


def build_release(
    instance_sets: Mapping[str, Sequence[Instance]],
    out: str | os.PathLike[str],
    settings: ReleaseSettings,
    *,
    workers: int = 1,
    overwrite: bool = False,
    progress: bool = True,
) -> ReleaseSummary:
    """Render and write a release of ``instance_sets`` ({"instances": [...], "matched_cycle": [...]})."""
    import datasets

    _check_ids(instance_sets)
    target = io.check_output_dir(out, overwrite=overwrite)
    with io.output_lock(target):  # before the cache: a refused second build leaves nothing behind
        io.check_output_dir(target, overwrite=overwrite)  # again: the lock may have put back a killed run's folder
        cache = cache_folder(target)
        everything = [instance for instances in instance_sets.values() for instance in instances]
        folders = list(image_cache.render_all(everything, settings.rerenders, cache, workers=workers, progress=progress))
        by_id = {instance.instance_id: folder for instance, folder in zip(everything, folders)}

        rows: dict[str, int] = {}
        shards: dict[str, list[str]] = {}
        written: list[hub.WrittenConfig] = []
        manifest: list[str] = []
        with io.atomic_dir(target, overwrite=overwrite) as staging:
            for name, instances in instance_sets.items():
                per_image = INSTANCE_CONFIGS[name]
                instance_rows, image_rows = [], []
                for instance in instances:
                    images = image_cache.load(by_id[instance.instance_id], len(instance.edits))
                    instance_rows.append(instance_row(instance, images))
                    image_rows.extend(rendering_rows(instance, images))
                for config, config_rows, config_features in (
                    (name, instance_rows, instance_features()),
                    (per_image, image_rows, rendering_features()),
                ):
                    dataset = datasets.Dataset.from_list(config_rows, features=config_features)
                    written.append(hub.write_config(staging, config, dataset, max_rows_per_shard=ROWS_PER_SHARD[config]))
                    shards[config] = list(written[-1].paths)
                    rows[config] = len(config_rows)
                manifest += [f"{hashlib.sha256(r['image']['bytes']).hexdigest()}  {r['render_id']}" for r in image_rows]
            (staging / MANIFEST).write_text("\n".join(manifest) + "\n", encoding="utf-8")
            default = DEFAULT_CONFIG if DEFAULT_CONFIG in rows else None
            metadata = hub.card_metadata(written, default=default, license=card_license(settings), extra=card_extra(rows))
            hub.write_card(staging, metadata, card_body(instance_sets, settings, rows))
        shutil.rmtree(cache, ignore_errors=True)
    return ReleaseSummary(target, rows, shards)
