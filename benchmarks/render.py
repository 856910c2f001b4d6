"""Images per second of the build's render path against the naive way, in the same run.

The build path (docs/design.md §6): object-oriented Figure on the text-caching
Agg canvas (figures/charts/agg.py: each string shaped once, one renderer per
canvas size), one figure and axes per family and orientation, reused at any
size (only the data artists are drawn anew), fixed margins and title
position, one draw with a legibility check, PNG deflated at level 1 from the
Agg buffer, one fork-pool worker per core (jobs of half an instance). The naive way: pyplot figures, tight_layout,
savefig(bbox_inches="tight"), one process, no legibility check. Both draw the
same images (base, K re-renderings and every edit of the same instances).

Last, the whole build as a user runs it: ``rend-equiv build`` in a fresh
interpreter (start-up, generation, rendering, parquet and card writing), its
images per second of wall time against the naive rate above.

    python benchmarks/render.py [--per-family 3] [--rerenders 8] [--workers N]
                                [--build-per-family 10] [--build-matched 30]
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rend_equiv_dataset.figures.charts import render as render_module  # noqa: E402
from rend_equiv_dataset.figures.charts.families import family_of  # noqa: E402
from rend_equiv_dataset.figures.charts.styles import base_style  # noqa: E402
from rend_equiv_dataset.commands import default_workers  # noqa: E402
from rend_equiv_dataset.figures.generate import generate_instances  # noqa: E402
from rend_equiv_dataset.figures.release.images import render_all, render_instance  # noqa: E402

# Only the canvas differs between the two ways; the chart content is drawn by the same functions.


def naive_png(data, style) -> bytes:  # type: ignore[no-untyped-def]
    """The usual script: pyplot state, tight_layout, savefig(bbox_inches="tight")."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    size = tuple(v * style.canvas_scale for v in style.figure_size)
    fig = plt.figure(figsize=size, dpi=render_module.DPI)
    ax = fig.add_subplot(1, 1, 1)
    family_of(data).draw(fig, ax, data, style)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight", dpi=render_module.DPI)
    plt.close(fig)
    return buffer.getvalue()


def naive(jobs) -> int:  # type: ignore[no-untyped-def]
    for data, style in jobs:
        naive_png(data, style)
    return len(jobs)


def one_process(instances, rerenders: int):  # type: ignore[no-untyped-def]
    """The build path in this process; returns the (data, style) of every image it drew."""
    jobs = []
    for instance in instances:
        images = render_instance(instance, rerenders)
        jobs.append((instance.data, images.base_style))
        jobs += [(instance.data, style) for style, _ in images.rerenders]
        jobs += [(edit.data, base_style()) for edit in instance.edits]
    return jobs


def build_path(instances, rerenders: int, workers: int) -> int:  # type: ignore[no-untyped-def]
    with tempfile.TemporaryDirectory() as cache:
        folders = list(render_all(instances, rerenders, Path(cache), workers=workers, progress=False))
        return sum(len(list(folder.glob("*.png"))) for folder in folders)


def whole_build(per_family: int, matched: int, rerenders: int, workers: int) -> tuple[int, float]:
    """Images written by ``rend-equiv build`` in a fresh interpreter, and its wall time."""
    import pyarrow.parquet as pq

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "release"
        command = [sys.executable, "-m", "rend_equiv_dataset.cli", "build", "--per-family", str(per_family),
                   "--matched-cycle", str(matched), "--rerenders", str(rerenders), "--workers", str(workers),
                   "--out", str(out), "--no-progress"]
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=Path(__file__).resolve().parents[1])
        wall = time.perf_counter() - start
        images = sum(pq.ParquetFile(path).metadata.num_rows
                     for config in ("renderings", "matched_cycle_renderings")
                     for path in (out / "data" / config).glob("*.parquet"))
    return images, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-family", type=int, default=3)
    parser.add_argument("--rerenders", type=int, default=8)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--build-per-family", type=int, default=10, help="instances per family of the whole build")
    parser.add_argument("--build-matched", type=int, default=30, help="matched-cycle instances of the whole build")
    args = parser.parse_args()
    instances = generate_instances(0, per_family=args.per_family)
    render_module.warm_up()

    with Clock() as one:
        jobs = one_process(instances, args.rerenders)
    with Clock() as naive_clock:
        naive(jobs)
    with Clock() as pool:
        n_build = build_path(instances, args.rerenders, args.workers)

    n = len(jobs)
    assert n_build == n, (n_build, n)
    print(f"{n} images; {len(instances)} instances, K={args.rerenders}; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores")
    print("                                            wall images/s   images per CPU-s   ratio (wall, CPU)")
    for name, clock in (("naive: pyplot + tight_layout + bbox tight", naive_clock),
                        ("build path, 1 process", one),
                        (f"build path, {args.workers} fork workers + cache", pool)):
        print(f"{name:44s} {n / clock.wall:10.1f} {n / clock.cpu:18.1f}"
              f"   {naive_clock.wall / clock.wall:5.2f}x {naive_clock.cpu / clock.cpu:5.2f}x")
    print(f"(on an idle machine the pool's wall rate approaches {args.workers} x the per-CPU-s rate: "
          f"{args.workers * n / pool.cpu:.1f} images/s, {args.workers * naive_clock.cpu / pool.cpu:.2f}x naive)")

    images, wall = whole_build(args.build_per_family, args.build_matched, args.rerenders, args.workers)
    print(f"whole `rend-equiv build --per-family {args.build_per_family} --matched-cycle {args.build_matched} "
          f"--workers {args.workers}` (start-up and writing included): {images} images in {wall:.1f} s, "
          f"{images / wall:.1f} images/s, {images / wall / (n / naive_clock.wall):.2f}x naive")


class Clock:
    """Wall time and CPU time of this process and its reaped children (the pool's workers)."""

    def __enter__(self) -> Clock:
        self._start = (time.perf_counter(), _cpu())
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self._start[0]
        self.cpu = _cpu() - self._start[1]


def _cpu() -> float:
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
