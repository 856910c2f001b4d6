"""Shards of a release, checked and merged into the bytes of one build.

``rend-equiv build --shard I/N`` writes shard ``I`` of ``N``: its slice of the
release's plan (:mod:`rend_equiv_dataset.figures.release.plan`: the main
set's instances, then the matched set's, in the single build's order), as a
folder of its own::

    SHARD/data/<config>/test-*.parquet    its rows, written as a release writes them
    SHARD/shard.json                      what it is (below)

``shard.json`` says which shard it is (``index``, ``count``), which part of
the plan it holds (``range`` of plan positions, ``instances`` per set), the
plan (its sets, the build settings, the code and library versions the bytes
depend on), its rows and files per config with each file's sha256, and its
own ``fingerprint`` (sha256 over those). :func:`merge_shards` checks that the
shards come from one plan, the same code and settings, cover it exactly once
and are intact, then copies their rows, in plan order, through the same
writer a single build uses: the release is byte-identical to a build on one
machine.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rend_equiv_dataset import hub, io
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.release.build import (
    INSTANCE_CONFIGS,
    ReleaseSummary,
    ReleaseWriter,
    check_sets,
    write_card,
)
from rend_equiv_dataset.figures.release.card import ReleaseSettings
from rend_equiv_dataset.figures.release.plan import (
    FORMAT,
    SHARD_FILE,
    fingerprint,
    plan_range,
    sha256_file,
)


@dataclass(frozen=True)
class Shard:
    """A shard folder and its checked ``shard.json``."""

    folder: Path
    index: int
    count: int
    start: int
    stop: int
    plan: dict[str, Any]
    configs: dict[str, Any]


def read_shard(folder: str | os.PathLike[str]) -> Shard:
    """Read and check one shard's ``shard.json`` (the files themselves are checked as they are merged)."""
    root = Path(folder)
    path = root / SHARD_FILE
    if not path.is_file():
        raise InputError(f"not a release shard: no {SHARD_FILE} (build one with rend-equiv build --shard I/N)", file=root)
    record = io.read_json(path)
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        found = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise InputError(f"expected {FORMAT!r}, got {found!r}", file=path, field="format")

    def need(name: str, kind: type) -> Any:
        value = record.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise InputError(f"expected {kind.__name__}, got {io.echo(value)}", file=path, field=name)
        return value

    index, count, span = need("index", int), need("count", int), need("range", list)
    plan, configs = need("plan", dict), need("configs", dict)
    if not 0 <= index < count:
        raise InputError(f"expected 0 <= index < count, got {index}/{count}", file=path, field="index")
    if len(span) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in span):
        raise InputError(f"expected [start, stop], got {io.echo(span)}", file=path, field="range")
    if need("fingerprint", str) != fingerprint(configs):
        raise InputError("does not match the shard's configs and files", file=path, field="fingerprint")
    for key in ("sets", "settings", "code"):
        if not isinstance(plan.get(key), dict):
            raise InputError(f"expected an object, got {io.echo(plan.get(key))}", file=path, field=f"plan.{key}")
    for name, entry in plan["sets"].items():
        length = entry.get("length") if isinstance(entry, dict) else None
        if not isinstance(length, int) or isinstance(length, bool) or length < 0:
            raise InputError(f"expected a count of instances, got {io.echo(length)}", file=path,
                             field=f"plan.sets.{name}.length")
    return Shard(root, index, count, span[0], span[1], plan, configs)


def check_cover(shards: Sequence[Shard]) -> list[Shard]:
    """Check the shards are one plan's, built alike, each once, covering it exactly; returns them in order."""
    if not shards:
        raise InputError("expected at least one shard folder", field="SHARD")
    first = shards[0]
    for shard in shards[1:]:
        for key, what in (("code", "code and library versions"), ("settings", "build settings"), ("sets", "plan")):
            if shard.plan[key] != first.plan[key]:
                raise InputError(f"built with other {what} than {first.folder} ({_difference(first.plan[key], shard.plan[key])})",
                                 file=shard.folder / SHARD_FILE, field=f"plan.{key}")
        if shard.count != first.count:
            raise InputError(f"is one of {shard.count} shards, {first.folder} one of {first.count}",
                             file=shard.folder / SHARD_FILE, field="count")
    by_index: dict[int, Shard] = {}
    for shard in shards:
        if shard.index in by_index:
            raise InputError(f"shard {shard.index}/{shard.count} is given twice (also {by_index[shard.index].folder})",
                             file=shard.folder / SHARD_FILE, field="index")
        by_index[shard.index] = shard
    if missing := [i for i in range(first.count) if i not in by_index]:
        raise InputError(f"the plan is not covered: shard(s) {', '.join(f'{i}/{first.count}' for i in missing)} missing",
                         field="SHARD")
    lengths = [int(s["length"]) for s in first.plan["sets"].values()]
    ordered = [by_index[i] for i in range(first.count)]
    for shard in ordered:
        if (shard.start, shard.stop) != plan_range(lengths, shard.index, shard.count):
            raise InputError(f"holds plan positions {shard.start}..{shard.stop}, expected "
                             f"{plan_range(lengths, shard.index, shard.count)}", file=shard.folder / SHARD_FILE,
                             field="range")
    return ordered


def _difference(a: Mapping[str, Any], b: Mapping[str, Any]) -> str:
    keys = sorted(k for k in {*a, *b} if a.get(k) != b.get(k))
    return ", ".join(f"{k}: {io.echo(a.get(k), 40)} vs {io.echo(b.get(k), 40)}" for k in keys[:3])


def _copy_rows(writer: ReleaseWriter, config: str, shard: Shard) -> None:
    """Append a shard's rows of ``config`` to the release, after checking each file's sha256."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = shard.configs.get(config, {}).get("files") if isinstance(shard.configs.get(config), dict) else None
    if not isinstance(files, dict):
        raise InputError(f"lists no files of config {config!r}", file=shard.folder / SHARD_FILE, field="configs")
    for relative, digest in sorted(files.items()):
        path = shard.folder / relative
        if Path(relative).is_absolute() or ".." in Path(relative).parts or not path.is_file():
            raise InputError(f"missing shard file {relative!r}", file=shard.folder, field="configs")
        if sha256_file(path) != digest:
            raise InputError("changed since the shard was built (sha256 differs)", file=path)
        for batch in pq.ParquetFile(path).iter_batches(batch_size=hub.IMAGE_ROW_GROUP):
            writer.add_table(config, pa.Table.from_batches([batch]))


def merge_shards(folders: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], *, overwrite: bool = False,
                 progress: bool = True) -> ReleaseSummary:
    """Check the shards and write the release they make, byte-identical to the single build of their plan."""
    from tqdm.auto import tqdm

    shards = check_cover([read_shard(folder) for folder in folders])
    plan = shards[0].plan
    sets = list(plan["sets"])
    check_sets(dict.fromkeys(sets, ()))
    settings = ReleaseSettings.from_json(plan["settings"])
    with io.atomic_dir(out, overwrite=overwrite) as staging, ReleaseWriter(staging, sets) as writer:
        steps = [(config, shard) for name in sets for config in (name, INSTANCE_CONFIGS[name]) for shard in shards]
        for config, shard in tqdm(steps, desc="merging", unit="part", disable=not progress):
            _copy_rows(writer, config, shard)
        written = writer.close()
        rows = write_card(staging, written, writer.counts, settings)
    return ReleaseSummary(Path(out), rows, {w.name: list(w.paths) for w in written})
