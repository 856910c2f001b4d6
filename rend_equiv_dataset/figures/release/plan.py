"""The plan of a release and the part of it one shard builds (docs/design.md §3.4).

A release's plan is its instance sets in order (the main set, then the
matched set). ``rend-equiv build --shard I/N`` builds the contiguous slice
:func:`~rend_equiv_dataset.harness.sharding.shard_slice` gives of the plan
positions, and records in ``shard.json`` (:func:`write_shard_record`) which
shard it is, which positions it holds, the plan (its sets, the build
settings, the code and library versions its bytes depend on), its rows and
files per config with each file's sha256, and its own ``fingerprint``
(sha256 over those). :mod:`rend_equiv_dataset.figures.release.shards` checks
and merges them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rend_equiv_dataset import hub, io
from rend_equiv_dataset.figures.generate import Instance, SeedPlan
from rend_equiv_dataset.figures.release.card import ReleaseSettings, library_versions
from rend_equiv_dataset.figures.release.images import code_version
from rend_equiv_dataset.harness.sharding import shard_slice

SHARD_FILE = "shard.json"
FORMAT = "rend-equiv-release-shard/1"


def plan_range(lengths: Sequence[int], index: int, count: int) -> tuple[int, int]:
    """Plan positions ``[start, stop)`` of shard ``index`` of ``count`` over sets of ``lengths``.

    >>> plan_range([6, 1], 0, 4), plan_range([6, 1], 3, 4)
    ((0, 2), (6, 7))
    """
    positions = shard_slice(range(sum(lengths)), index, count)
    start = positions[0] if positions else sum(len(shard_slice(range(sum(lengths)), i, count)) for i in range(index))
    return start, start + len(positions)


def plan_slice(instance_sets: Mapping[str, Sequence[Instance]], shard: tuple[int, int]) -> dict[str, Sequence[Instance]]:
    """The part of each instance set that shard ``(index, count)`` builds (a slice of a lazy plan stays lazy)."""
    start, stop = plan_range([len(v) for v in instance_sets.values()], *shard)
    part, offset = {}, 0
    for name, instances in instance_sets.items():
        part[name] = instances[max(start - offset, 0):max(min(stop - offset, len(instances)), 0)]
        offset += len(instances)
    return part


def _set_identity(instances: Sequence[Instance]) -> dict[str, Any]:
    """What a set is: a seed plan by its seeds, a list by the sha256 of its instance ids."""
    if isinstance(instances, SeedPlan):
        p = instances.positions
        return {"length": len(instances), "kind": instances.kind, "seeds": list(instances.seeds),
                "per_seed": instances.per_seed, "positions": [p.start, p.stop, p.step]}
    ids = hashlib.sha256("\n".join(i.instance_id for i in instances).encode("utf-8")).hexdigest()
    return {"length": len(instances), "ids_sha256": ids}


def plan_record(instance_sets: Mapping[str, Sequence[Instance]], settings: ReleaseSettings) -> dict[str, Any]:
    """The plan every shard of one release shares: its sets, settings and the versions its bytes depend on."""
    return {"sets": {name: _set_identity(v) for name, v in instance_sets.items()}, "settings": settings.to_json(),
            "code": {"render": code_version(), "libraries": library_versions()}}


def sha256_file(path: Path) -> str:
    """The sha256 of a file, read a MiB at a time."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(2**20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_shard_record(staging: Path, instance_sets: Mapping[str, Sequence[Instance]], settings: ReleaseSettings,
                       shard: tuple[int, int], written: Sequence[hub.WrittenConfig]) -> dict[str, int]:
    """Write ``shard.json`` into a built shard's folder; returns its rows per config."""
    index, count = shard
    start, stop = plan_range([len(v) for v in instance_sets.values()], index, count)
    configs: dict[str, dict[str, Any]] = {
        w.name: {"rows": w.num_examples, "files": {p: sha256_file(staging / p) for p in w.paths}} for w in written}
    record = {"format": FORMAT, "index": index, "count": count, "range": [start, stop],
              "instances": {name: len(v) for name, v in plan_slice(instance_sets, shard).items()},
              "plan": plan_record(instance_sets, settings), "configs": configs,
              "fingerprint": fingerprint(configs)}
    io.atomic_write_text(staging / SHARD_FILE, json.dumps(record, indent=1, sort_keys=True) + "\n")
    return {name: int(c["rows"]) for name, c in configs.items()}


def fingerprint(configs: Mapping[str, Any]) -> str:
    """A shard's fingerprint: sha256 over its configs' rows and files' sha256."""
    return hashlib.sha256(json.dumps(configs, sort_keys=True).encode("utf-8")).hexdigest()
