"""``rend-equiv build --engine ray``: the shards of ``build --shard I/N`` as Ray tasks, merged into one release.

Ray does the distribution: each shard is one task (one CPU) that builds its
slice of the plan exactly as ``rend-equiv build --shard I/N`` would, into a
folder beside ``--out``; Ray reruns a task whose worker dies (``max_retries``),
and the rerun resumes from the shard's render cache. When every task is
done, this process checks and merges the shards
(:func:`~rend_equiv_dataset.figures.release.shards.merge_shards`), so the
release is byte-identical to a single-process build of the same plan.

On a cluster (``--address auto``) every node must import this package at the
same version and see the folder of ``--out`` (a shared filesystem): the
tasks write the shards there and this process reads them back. Without a
shared filesystem, run ``rend-equiv build --shard I/N`` on each machine (a
SLURM array, a Kubernetes indexed job) and ``rend-equiv merge`` where the
shards are gathered.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rend_equiv_dataset import io
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.generate import Instance
from rend_equiv_dataset.figures.release.build import (
    ReleaseSummary,
    build_release,
    check_sets,
)
from rend_equiv_dataset.figures.release.card import ReleaseSettings
from rend_equiv_dataset.figures.release.plan import SHARD_FILE
from rend_equiv_dataset.figures.release.shards import merge_shards, read_shard

RAY_INSTALL = 'pip install -e ".[ray]"'
MAX_RETRIES = 3
"""How many times Ray reruns a shard whose worker died (a killed process, a lost node)."""


def import_ray() -> Any:
    """The ``ray`` module, or an :class:`InputError` naming the extra to install."""
    try:
        import ray
    except ImportError as err:
        raise InputError(f"needs Ray, but ray cannot be imported ({str(err)[:120]}); install the ray extra: "
                         f"{RAY_INSTALL}", field="--engine") from None
    return ray


def shard_folder(root: Path, index: int, count: int) -> Path:
    """Where shard ``index`` of ``count`` is built."""
    return root / f"shard-{index:05d}-of-{count:05d}"


def build_shard(instance_sets: Mapping[str, Sequence[Instance]], folder: str, settings: ReleaseSettings,
                shard: tuple[int, int]) -> str:
    """One task: build shard ``shard`` into ``folder``, unless a finished one of the same plan is there."""
    path = Path(folder)
    if (path / SHARD_FILE).is_file():
        done = read_shard(path)
        if (done.index, done.count) == shard:
            return folder
    build_release(instance_sets, path, settings, workers=1, progress=False, overwrite=True, shard=shard)
    return folder


def build_on_ray(
    instance_sets: Mapping[str, Sequence[Instance]],
    out: str | os.PathLike[str],
    settings: ReleaseSettings,
    *,
    address: str | None = None,
    shards: int | None = None,
    overwrite: bool = False,
    progress: bool = True,
) -> ReleaseSummary:
    """Build the release of ``instance_sets`` as ``shards`` Ray tasks (default: one per cluster CPU) and merge it.

    Uses the Ray session already started in this process, if any; otherwise
    connects to ``address`` (``"auto"``: the cluster this machine belongs
    to; ``None``: a Ray started here for this build, stopped after it).
    """
    ray = import_ray()
    check_sets(instance_sets)
    target = io.check_output_dir(out, overwrite=overwrite)
    total = sum(len(instances) for instances in instance_sets.values())
    with io.output_lock(target):
        started = not ray.is_initialized()
        if started:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
        try:
            count = shards if shards is not None else int(ray.cluster_resources().get("CPU", 1))
            count = max(1, min(count, total))
            root = target.absolute().parent / f".{target.name}.shards-{count}"
            root.mkdir(exist_ok=True)
            task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES)(build_shard)
            plan = ray.put(dict(instance_sets))
            pending = [task.remote(plan, str(shard_folder(root, i, count)), settings, (i, count)) for i in range(count)]
            _wait(ray, pending, progress)
            folders = [Path(folder) for folder in ray.get(pending)]
        finally:
            if started:
                ray.shutdown()
        for folder in folders:
            if not (folder / SHARD_FILE).is_file():
                raise InputError(f"shard {folder.name} was built by a Ray worker but is not visible here: --out must be "
                                 "on a filesystem every node shares", field="--out")
        summary = merge_shards(folders, target, overwrite=overwrite, progress=progress)
        shutil.rmtree(root, ignore_errors=True)
    return summary


def _wait(ray: Any, pending: list[Any], progress: bool) -> None:
    """Wait for every task, with a progress bar of finished shards; a task that failed for good raises here."""
    from tqdm.auto import tqdm

    left = list(pending)
    with tqdm(total=len(left), desc="shards on ray", unit="shard", disable=not progress) as bar:
        while left:
            done, left = ray.wait(left, num_returns=1)
            try:
                ray.get(done)
            except ray.exceptions.RayTaskError as err:  # the task's own error, without Ray's traceback
                cause = getattr(err, "cause", None)
                if isinstance(cause, InputError):
                    raise InputError(cause.message, file=cause.file, line=cause.line, field=cause.field) from None
                raise
            bar.update(len(done))
