"""Every image of one instance: base, K re-renderings, one per edit — rendered once, cached on disk.

An instance's images depend only on the instance and K (docs/design.md §6): the
base and every edit are drawn in the base style (paper §5), the
re-renderings in the first K styles of the instance's style stream that lay
out legibly (docs/design.md §3.2). So instance k gives the same bytes whether it is
rendered alone, in order, reversed or in another process.

The cache makes a killed build resumable: each instance is written to its own
folder named by a fingerprint of everything its pixels depend on, first under
a temporary name and then renamed, so a folder that exists is complete.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import zlib
from collections.abc import Iterable, Iterator, Sized
from dataclasses import replace
from pathlib import Path
from typing import Any

from rend_equiv_dataset import __version__
from rend_equiv_dataset.figures.charts.data import ChartData
from rend_equiv_dataset.figures.charts.render import IllegibleChartError, Rendering, render, warm_up
from rend_equiv_dataset.figures.charts.styles import Style, base_style, iter_styles
from rend_equiv_dataset.figures.generate import Instance
from rend_equiv_dataset.figures.release.records import InstanceImages, instance_record

# How many candidate styles may fail the legibility check before an instance is rejected.
MAX_REJECTED_STYLES = 24


def render_instance(instance: Instance, rerenders: int) -> InstanceImages:
    """Render base, ``rerenders`` re-renderings and every edit of ``instance``.

    >>> from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
    >>> from rend_equiv_dataset.figures.generate import Edit
    >>> from rend_equiv_dataset.transforms import IDENTITY
    >>> data = ChartData(Family.BAR, "Sales", ("North", "South"), (Series("Sales", (3.0, 4.5)),))
    >>> zoom = Edit("zoom", {"value_range": [0.0, 9.0]}, IDENTITY, data.replace(value_range=(0.0, 9.0)), "South")
    >>> inst = Instance("s0-bar-000", 0, 0, "bar-000", Family.BAR, "argmax", "Which region sells most?",
    ...                 "South", "label", data.categories, data, (zoom,))
    >>> images = render_instance(inst, rerenders=2)
    >>> [style.style_id for style, _ in images.rerenders], len(images.edits)
    (['r1', 'r2'], 1)
    """
    base, edits = _render_base_and_edits(instance)
    return InstanceImages(base.png, base.style, _render_rerenders(instance, rerenders), edits)


_BASE_DRAWINGS: dict[ChartData, Rendering] = {}
"""Base-style drawings made before the release (the table legibility check), by chart."""


def remember_base(data: ChartData, rendering: Rendering) -> None:
    """Keep a base-style drawing of ``data`` made elsewhere, so the release does not draw it again.

    Only :func:`~rend_equiv_dataset.figures.charts.render.render` output in
    :func:`~rend_equiv_dataset.figures.charts.styles.base_style` belongs here: the
    bytes are those a fresh render gives, so reusing them keeps every image
    identical. Pool workers are forked after the check, so they see it too.
    """
    _BASE_DRAWINGS[data] = rendering


def _base_drawing(data: ChartData) -> Rendering:
    known = _BASE_DRAWINGS.get(data)
    return known if known is not None else render(data, base_style())


def _render_base_and_edits(instance: Instance) -> tuple[Rendering, tuple[bytes, ...]]:
    """The base image and every edit's image, all in the base style."""
    base = _base_drawing(instance.data)
    return base, tuple(_base_drawing(edit.data).png for edit in instance.edits)


def _render_rerenders(instance: Instance, rerenders: int) -> tuple[tuple[Style, bytes], ...]:
    """The first ``rerenders`` styles of the instance's style stream that lay out legibly, drawn."""
    accepted: list[tuple[Style, bytes]] = []
    rejected = 0
    candidates = iter_styles(instance.data_seed, instance.index, instance.family.value)
    while len(accepted) < rerenders:
        candidate = next(candidates)
        try:
            result = render(instance.data, candidate)
        except IllegibleChartError:
            rejected += 1
            if rejected > MAX_REJECTED_STYLES:
                raise
            continue
        accepted.append((replace(result.style, style_id=f"r{len(accepted) + 1}"), result.png))
    return tuple(accepted)


# --------------------------------------------------------------------------- on-disk cache


@functools.lru_cache(maxsize=1)
def code_version() -> list[str]:
    """Library versions (zlib too: it deflates the PNGs) and a hash of the drawing code.

    So a cache never outlives a renderer or library change.
    """
    import matplotlib
    import numpy
    import PIL

    from rend_equiv_dataset.figures import charts

    code = hashlib.sha256()
    drawing_code = sorted(Path(str(charts.__file__)).parent.rglob("*.py"))  # renderer, canvas, styles, families
    for path in [*drawing_code, Path(str(sys.modules[__name__].__file__))]:
        code.update(path.read_bytes())
    return [__version__, matplotlib.__version__, numpy.__version__, PIL.__version__, zlib.ZLIB_RUNTIME_VERSION,
            code.hexdigest()]


def fingerprint(instance: Instance, rerenders: int) -> str:
    """Hash of everything an instance's images depend on (instance, K, drawing code and libraries)."""
    payload = json.dumps(
        {"instance": instance_record(instance), "rerenders": rerenders, "versions": code_version()},
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()[:20]


def cache_path(cache: Path, instance: Instance, rerenders: int) -> Path:
    return cache / f"{instance.instance_id}-{fingerprint(instance, rerenders)}"


def save(images: InstanceImages, folder: Path) -> None:
    """Write one instance's images atomically: a staging folder renamed into place (:func:`rend_equiv_dataset.io.atomic_dir`)."""
    from rend_equiv_dataset.io import atomic_dir

    folder.parent.mkdir(parents=True, exist_ok=True)
    with atomic_dir(folder) as staging:
        (staging / "base.png").write_bytes(images.base)
        for style, png in images.rerenders:
            (staging / f"{style.style_id}.png").write_bytes(png)
        for j, png in enumerate(images.edits):
            (staging / f"edit-{j}.png").write_bytes(png)
        styles = {"base": images.base_style.to_dict(), "rerenders": [s.to_dict() for s, _ in images.rerenders]}
        (staging / "styles.json").write_text(json.dumps(styles, sort_keys=True))


def load(folder: Path, n_edits: int) -> InstanceImages:
    """Read back what :func:`save` wrote."""
    from rend_equiv_dataset.io import read_json

    styles = read_json(folder / "styles.json")
    rerender_styles = [Style.from_json(json.dumps(s)) for s in styles["rerenders"]]
    return InstanceImages(
        base=(folder / "base.png").read_bytes(),
        base_style=Style.from_json(json.dumps(styles["base"])),
        rerenders=tuple((s, (folder / f"{s.style_id}.png").read_bytes()) for s in rerender_styles),
        edits=tuple((folder / f"edit-{j}.png").read_bytes() for j in range(n_edits)),
    )


def _init_worker(parent: int) -> None:
    """Pool worker set-up: interrupts are the parent's to handle (it terminates the pool), then warm up.

    A worker also dies, quietly, with its parent: if the parent is killed
    (SIGKILL leaves it no time to stop the pool) the kernel sends the worker
    SIGTERM, whose default action ends it without a traceback, instead of
    letting it fail on the broken result pipe.
    """
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(signal.SIGTERM)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(0)
    warm_up()


def _die_with_parent(signum: int) -> None:
    """Ask Linux to send ``signum`` to this process when its parent dies (``PR_SET_PDEATHSIG``); elsewhere a no-op."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    pr_set_pdeathsig = 1
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(pr_set_pdeathsig, signum, 0, 0, 0)


def _render_to_cache(job: tuple[Instance, int, Path]) -> Path:
    instance, rerenders, cache = job
    folder = cache_path(cache, instance, rerenders)
    if not folder.is_dir():
        save(render_instance(instance, rerenders), folder)
    return folder


def _render_part(job: tuple[int, str, Instance, int]) -> tuple[int, str, object]:
    """One half of an instance in a pool worker: its re-renderings, or its base and edits."""
    position, part, instance, rerenders = job
    if part == "rerenders":
        return position, part, _render_rerenders(instance, rerenders)
    return position, part, _render_base_and_edits(instance)


def render_all(
    instances: Iterable[Instance], rerenders: int, cache: Path, *, workers: int = 1, progress: bool = True,
    total: int | None = None,
) -> Iterator[Path]:
    """Render every instance into ``cache`` (skipping those already there); yields folders in order.

    ``instances`` is read once, as the work goes (a lazy plan is never held
    whole); ``total`` sizes the progress bar (default ``len(instances)`` when
    it has one). ``workers > 1`` uses a fork pool, one process per worker,
    each warmed up by :func:`~rend_equiv_dataset.figures.charts.render.warm_up`
    (docs/design.md §6). A pool job is half an instance (its K re-renderings,
    or its base and edits), queued as the plan is read, so only the instances
    in flight are in memory; the parent joins the halves and writes each
    instance's folder as soon as both are in. An instance's images never
    depend on the process or the order they were drawn in, so the bytes are
    those of one process.
    """
    from tqdm.auto import tqdm

    if total is None and isinstance(instances, Sized):
        total = len(instances)
    bar = tqdm(total=total, desc="rendering", unit="instance", disable=not progress)
    try:
        if workers <= 1:
            for instance in instances:
                yield _render_to_cache((instance, rerenders, cache))
                bar.update()
            return
        for folder in _render_in_pool(instances, rerenders, cache, workers):
            yield folder
            bar.update()
    finally:
        bar.close()


def _render_in_pool(instances: Iterable[Instance], rerenders: int, cache: Path, workers: int) -> Iterator[Path]:
    """:func:`render_all` over a fork pool: folders in plan order, the plan read by the pool's feeder thread."""
    import multiprocessing

    folders: dict[int, Path] = {}  # position -> cache folder, for positions read but not yet yielded
    ready: set[int] = set()  # positions whose folder is complete
    read = [0]  # positions the feeder has read, once it has read them all

    def parts() -> Iterator[tuple[int, str, Instance, int]]:
        position = -1
        for position, instance in enumerate(instances):
            folder = cache_path(cache, instance, rerenders)
            folders[position] = folder
            if folder.is_dir():
                ready.add(position)
            else:
                yield position, "rerenders", instance, rerenders
                yield position, "base", instance, rerenders
        read[0] = position + 1

    halves: dict[int, dict[str, Any]] = {}
    next_out = 0
    with multiprocessing.get_context("fork").Pool(workers, initializer=_init_worker, initargs=(os.getpid(),)) as pool:
        results = pool.imap_unordered(_render_part, parts(), chunksize=1)
        exhausted = False
        while True:
            while next_out in ready:
                ready.discard(next_out)
                yield folders.pop(next_out)
                next_out += 1
            if exhausted:
                if next_out < read[0]:  # cannot happen: every position read is cached or was rendered
                    raise RuntimeError(f"instance {next_out} of the plan was never rendered")
                return
            try:
                position, part, value = next(results)
            except StopIteration:  # the feeder has read the whole plan and every job is back
                exhausted = True
                continue
            halves.setdefault(position, {})[part] = value
            if len(halves[position]) < 2:
                continue
            got = halves.pop(position)
            base, edits = got["base"]
            save(InstanceImages(base.png, base.style, got["rerenders"], edits), folders[position])
            ready.add(position)
