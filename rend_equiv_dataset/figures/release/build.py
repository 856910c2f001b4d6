"""Instances → a Hub-ready release folder (docs/design.md §3.4), written as the images are rendered.

:func:`build_release` is a function over sequences of :class:`Instance`, so
any source of instances (seeds, user tables) gives the same kind of release:

1. render every image of every instance into a cache beside the target
   (``.<name>.cache``; a killed build resumes from it);
2. as each instance's images come out of the cache, append its rows to the
   parquet shards of each config (:class:`~rend_equiv_dataset.hub.ConfigWriter`,
   at most one row group buffered), its image hashes to the manifest and its
   counts to the card, in a temporary folder beside the target: the per-image
   configs embed the PNG bytes, the per-instance configs refer to them by
   ``render_id`` (each image is stored once);
3. write the card, then rename the folder into place
   (:func:`rend_equiv_dataset.io.atomic_dir`) and drop the cache.

Memory does not grow with the number of instances: a plan of seeds
(:class:`~rend_equiv_dataset.figures.generate.SeedPlan`) is generated as it is
read, and no image outlives its row group. With ``shard=(i, n)`` the same
code writes shard ``i`` of ``n`` (:mod:`rend_equiv_dataset.figures.release.shards`),
and merging the shards gives the bytes of the single build.

The output bytes depend only on the instances, K and the library versions:
not on the number of workers, shards, the process, the hash seed or the run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rend_equiv_dataset import hub, io, schema
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.generate import Instance, SeedPlan
from rend_equiv_dataset.figures.release import images as image_cache
from rend_equiv_dataset.figures.release.card import (
    ReleaseCounts,
    ReleaseSettings,
    card_body,
    card_extra,
    card_license,
)
from rend_equiv_dataset.figures.release.plan import plan_slice, write_shard_record
from rend_equiv_dataset.figures.release.records import (
    InstanceImages,
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


def check_sets(instance_sets: Mapping[str, Sequence[Instance]]) -> None:
    """Refuse instance sets a release cannot hold: an unknown set, an instance id twice.

    Ids of seed plans are distinct by construction (seed and template slot,
    distinct seeds) and are not generated here; those of listed instances are checked.
    """
    seen: set[str] = set()
    for name, instances in instance_sets.items():
        if name not in INSTANCE_CONFIGS:
            raise InputError(f"unknown instance set {name!r}; expected one of {sorted(INSTANCE_CONFIGS)}", field="config")
        if isinstance(instances, SeedPlan):
            continue
        for instance in instances:
            if instance.instance_id in seen:
                raise InputError(f"instance id {instance.instance_id!r} appears twice", field="instance_id")
            seen.add(instance.instance_id)


def manifest_line(render_id: str, png: bytes) -> str:
    """One line of ``images.sha256``: the image's sha256, two spaces, its ``render_id``."""
    return f"{hashlib.sha256(png).hexdigest()}  {render_id}\n"


class ReleaseWriter:
    """The configs of a release (or of a shard), written as rows arrive.

    Per config a :class:`~rend_equiv_dataset.hub.ConfigWriter`; per per-image
    config a part of the image manifest on disk; the card's counts of the
    ``instances`` config. Rows come from rendered instances
    (:meth:`add_instance`) or as Arrow tables copied from shards
    (:meth:`add_table`); both give the same bytes for the same rows.
    """

    def __init__(self, staging: Path, set_names: Sequence[str]) -> None:
        self.staging = staging
        self.configs: list[str] = [c for name in set_names for c in (name, INSTANCE_CONFIGS[name])]
        features = {name: instance_features() for name in set_names}
        features.update({INSTANCE_CONFIGS[name]: rendering_features() for name in set_names})
        self.writers = {c: hub.ConfigWriter(staging, c, features[c], max_rows_per_shard=ROWS_PER_SHARD[c])
                        for c in self.configs}
        self.per_image = [INSTANCE_CONFIGS[name] for name in set_names]
        self._manifests = {c: (staging / f".{c}.sha256").open("w", encoding="utf-8") for c in self.per_image}
        self.counts = ReleaseCounts()

    def __enter__(self) -> ReleaseWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        for writer in self.writers.values():
            writer.__exit__()
        for part in self._manifests.values():
            part.close()

    def add_instance(self, name: str, instance: Instance, images: InstanceImages) -> None:
        """Append one rendered instance of set ``name``: its instance row and its image rows."""
        row = instance_row(instance, images)
        self.writers[name].add_rows([row])
        if name == schema.INSTANCES:
            self.counts.add(row)
        per_image = INSTANCE_CONFIGS[name]
        image_rows = rendering_rows(instance, images)
        self.writers[per_image].add_rows(image_rows)
        self._manifests[per_image].write("".join(manifest_line(r["render_id"], r["image"]["bytes"]) for r in image_rows))

    def add_table(self, config: str, table: Any) -> None:
        """Append rows of ``config`` given as an Arrow table of its schema (copied from a shard)."""
        self.writers[config].add_table(table.cast(self.writers[config].schema))
        if config == schema.INSTANCES:
            for row in table.select(["family", "question_type", "edits"]).to_pylist():
                self.counts.add(row)
        if config in self._manifests:
            images = table.column("image").combine_chunks().field("bytes").to_pylist()
            ids = table.column("render_id").to_pylist()
            self._manifests[config].write("".join(manifest_line(i, png) for i, png in zip(ids, images)))

    def close(self) -> list[hub.WrittenConfig]:
        """Finish every config's shards and join the manifest parts into ``images.sha256``."""
        written = [self.writers[c].close() for c in self.configs]
        lines = 0
        with (self.staging / MANIFEST).open("w", encoding="utf-8") as manifest:
            for config, part in self._manifests.items():
                part.close()
                path = self.staging / f".{config}.sha256"
                with path.open(encoding="utf-8") as lines_in:
                    for line in lines_in:
                        manifest.write(line)
                        lines += 1
                path.unlink()
            if not lines:
                manifest.write("\n")
        return written


def write_card(staging: Path, written: Sequence[hub.WrittenConfig], counts: ReleaseCounts,
               settings: ReleaseSettings) -> dict[str, int]:
    """Write the release's README.md card; returns the rows per config."""
    rows = {w.name: w.num_examples for w in written}
    default = DEFAULT_CONFIG if DEFAULT_CONFIG in rows else None
    metadata = hub.card_metadata(written, default=default, license=card_license(settings), extra=card_extra(rows))
    hub.write_card(staging, metadata, card_body(counts, settings, rows))
    return rows


def build_release(
    instance_sets: Mapping[str, Sequence[Instance]],
    out: str | os.PathLike[str],
    settings: ReleaseSettings,
    *,
    workers: int = 1,
    overwrite: bool = False,
    progress: bool = True,
    shard: tuple[int, int] | None = None,
) -> ReleaseSummary:
    """Render and write a release of ``instance_sets`` ({"instances": [...], "matched_cycle": [...]}).

    ``shard=(i, n)``: write shard ``i`` of ``n`` of that release instead (its
    slice of the plan, and a ``shard.json`` saying what it is); ``rend-equiv
    merge`` joins the shards into the release.
    """
    check_sets(instance_sets)
    plan = plan_slice(instance_sets, shard) if shard is not None else dict(instance_sets)
    target = io.check_output_dir(out, overwrite=overwrite)
    with io.output_lock(target):  # before the cache: a refused second build leaves nothing behind
        io.check_output_dir(target, overwrite=overwrite)  # again: the lock may have put back a killed run's folder
        cache = cache_folder(target)
        with io.atomic_dir(target, overwrite=overwrite) as staging, ReleaseWriter(staging, list(plan)) as writer:
            entries = [(name, instances) for name, instances in plan.items()]
            total = sum(len(instances) for _, instances in entries)
            folders = image_cache.render_all((i for _, instances in entries for i in instances), settings.rerenders,
                                             cache, workers=workers, progress=progress, total=total)
            for (name, instance), folder in zip(((n, i) for n, instances in entries for i in instances), folders):
                writer.add_instance(name, instance, image_cache.load(folder, len(instance.edits)))
            written = writer.close()
            if shard is None:
                rows = write_card(staging, written, writer.counts, settings)
            else:
                rows = write_shard_record(staging, instance_sets, settings, shard, written)
        shutil.rmtree(cache, ignore_errors=True)
    return ReleaseSummary(target, rows, {w.name: list(w.paths) for w in written})
