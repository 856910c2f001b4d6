"""Score shards: one part folder per ``rend-equiv score --shard I/N``, merged into the one report (docs/design.md §7.4).

A part folder holds the shard's ``instances.jsonl`` lines, its per-instance
columns (``columns.npz``, ``matched.npz``: the sufficient statistics of every
table, see :class:`~rend_equiv_dataset.figures.scoring.evaluation.Columns`)
and ``part.json`` (which shard, the settings, the provenance and the counts).
:func:`merge_parts` checks that the parts cover shards 0..N−1 once each and
agree on the release, the predictions file, the settings and the package
version, then computes the report from the concatenated columns with the
run's seed: the merged report equals the unsharded one exactly.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.scoring.evaluation import Columns
from rend_equiv_dataset.figures.scoring.pipeline import (
    ScoredPart,
    ScoreRun,
    report_from_parts,
    score_part,
)
from rend_equiv_dataset.figures.scoring.report import (
    check_report_dir,
    write_report_files,
)
from rend_equiv_dataset.io import atomic_dir, read_json, write_json

FORMAT = "rend-equiv score part 1"
PART = "part.json"
COLUMNS = "columns.npz"
MATCHED = "matched.npz"
INSTANCES = "instances.jsonl"
_AGREE = ("settings", "provenance")
_COUNTS = ("n_renderings", "missing_count", "missing_examples", "matched_missing", "matched_sizes", "matched_answered")


def write_part(data_dir: str | Path, predictions_path: str | Path, out: str | Path, shard: tuple[int, int], **settings: Any) -> ScoredPart:
    """Score shard ``shard`` = (I, N) into the part folder ``out`` (written atomically)."""
    target = check_report_dir(out, marker=PART)
    with atomic_dir(target, overwrite=True) as folder:
        with open(folder / INSTANCES, "w", encoding="utf-8") as handle:
            part = score_part(data_dir, predictions_path, shard=shard, instances_out=handle, **settings)
        _save(folder / COLUMNS, part.columns)
        _save(folder / MATCHED, part.matched)
        record = {"format": FORMAT, "shard": list(shard), "n_instances": len(part.columns)}
        record.update({key: getattr(part, key) for key in (*_AGREE, *_COUNTS)})
        write_json(folder / PART, record, ensure_ascii=True)
    return part


def _save(path: Path, columns: Columns) -> None:
    arrays: dict[str, Any] = dict(columns.arrays())
    np.savez(path, **arrays)


def read_part(folder: str | Path) -> ScoredPart:
    """Read one part folder, checking its files and fields."""
    root = Path(folder)
    path = root / PART
    if not path.is_file():
        raise InputError(f"not a score part folder (no {PART})", file=root)
    record = read_json(path)
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise InputError(f"expected format {FORMAT!r}", file=path, field="format")
    for key in ("shard", "n_instances", *_AGREE, *_COUNTS):
        if key not in record:
            raise InputError("missing field", file=path, field=key)
    shard = record["shard"]
    if not (isinstance(shard, list) and len(shard) == 2 and all(isinstance(x, int) for x in shard) and 0 <= shard[0] < shard[1]):
        raise InputError(f"expected [I, N] with 0 <= I < N, got {shard!r}", file=path, field="shard")
    columns, matched = _columns(root / COLUMNS), _columns(root / MATCHED)
    if len(columns) != record["n_instances"]:
        raise InputError(f"{len(columns)} instances in {COLUMNS}, {record['n_instances']} in {PART}", file=path, field="n_instances")
    if not (root / INSTANCES).is_file():
        raise InputError(f"missing {INSTANCES}", file=root)
    return ScoredPart(columns=columns, matched=matched, shard=(shard[0], shard[1]),
                      **{key: record[key] for key in (*_AGREE, *_COUNTS)})


def _columns(path: Path) -> Columns:
    try:
        with np.load(path, allow_pickle=False) as arrays:
            return Columns.from_arrays({name: arrays[name] for name in arrays.files})
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise InputError(f"not a readable columns file ({str(err)[:200]})", file=path) from None


def check_parts(parts: Sequence[ScoredPart], folders: Sequence[Path]) -> list[int]:
    """The order of ``parts`` by shard index, after checking they cover 0..N−1 once each and agree."""
    counts = {p.shard[1] if p.shard else 1 for p in parts}
    if len(counts) != 1:
        raise InputError(f"the parts come from different shard counts {sorted(counts)}", field="--merge")
    (total,) = counts
    seen: dict[int, Path] = {}
    for part, folder in zip(parts, folders):
        index = part.shard[0] if part.shard else 0
        if index in seen:
            raise InputError(f"shard {index}/{total} is given twice ({seen[index]} and {folder})", field="--merge")
        seen[index] = folder
    if missing := sorted(set(range(total)) - set(seen)):
        raise InputError(f"shard {missing[0]}/{total} is missing; every shard 0..{total - 1} is needed", field="--merge")
    first = parts[0]
    for part, folder in zip(parts[1:], folders[1:]):
        for key in _AGREE:
            if getattr(part, key) != getattr(first, key):
                raise InputError(f"{key} differ from {folders[0]}'s: {getattr(part, key)} vs {getattr(first, key)}",
                                 file=folder / PART, field=key)
    indices = [p.shard[0] if p.shard else 0 for p in parts]
    return sorted(range(len(parts)), key=indices.__getitem__)


def merge_parts(folders: Sequence[str | Path], out: str | Path) -> ScoreRun:
    """Merge part folders into one report folder (``out``, written atomically), equal to the unsharded run's."""
    paths = [Path(f) for f in folders]
    parts = [read_part(path) for path in paths]
    order = check_parts(parts, paths)
    run = report_from_parts([parts[k] for k in order])
    target = check_report_dir(out)
    with atomic_dir(target, overwrite=True) as folder:
        with open(folder / INSTANCES, "wb") as handle:
            for k in order:
                with open(paths[k] / INSTANCES, "rb") as source:
                    shutil.copyfileobj(source, handle)
        write_report_files(run, folder)
    return run
