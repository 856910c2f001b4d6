"""Images per second of the build's render path against the naive way, in the same run.

The build path (DESIGN §6): object-oriented Figure + FigureCanvasAgg, fixed
margins, one draw with a legibility check, Pillow PNG at compress_level=1,
one fork-pool worker per core. The naive way: pyplot figures, tight_layout,
savefig(bbox_inches="tight"), one process, no legibility check. Both draw the
same images (base, K re-renderings and every edit of the same instances).

    python benchmarks/render.py [--per-family 3] [--rerenders 8] [--workers N]
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rend_equiv_dataset.charts import render as render_module  # noqa: E402
from rend_equiv_dataset.charts.styles import base_style  # noqa: E402
from rend_equiv_dataset.commands.build import default_workers  # noqa: E402
from rend_equiv_dataset.generators.figures import generate_instances  # noqa: E402
from rend_equiv_dataset.release.images import render_all, render_instance  # noqa: E402

# Only the canvas differs between the two ways; the chart content is drawn by the same functions.


def naive_png(data, style) -> bytes:  # type: ignore[no-untyped-def]
    """The usual script: pyplot state, tight_layout, savefig(bbox_inches="tight")."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    size = tuple(v * style.canvas_scale for v in style.figure_size)
    fig = plt.figure(figsize=size, dpi=render_module.DPI)
    ax = fig.add_subplot(1, 1, 1)
    render_module._DRAWERS[data.family](fig, ax, data, style)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-family", type=int, default=3)
    parser.add_argument("--rerenders", type=int, default=8)
    parser.add_argument("--workers", type=int, default=default_workers())
    args = parser.parse_args()
    instances = generate_instances(0, per_family=args.per_family)
    render_module.warm_up()

    start = time.perf_counter()
    jobs = one_process(instances, args.rerenders)
    one_s = time.perf_counter() - start

    start = time.perf_counter()
    naive(jobs)
    naive_s = time.perf_counter() - start

    start = time.perf_counter()
    n_build = build_path(instances, args.rerenders, args.workers)
    build_s = time.perf_counter() - start

    n = len(jobs)
    naive_rate = n / naive_s
    print(f"{n} images ({n_build} from the pool); {len(instances)} instances, K={args.rerenders}")
    print(f"naive: pyplot + tight_layout + bbox_inches='tight', 1 process: {naive_rate:6.1f} images/s")
    print(f"build path, 1 process:                        {n / one_s:6.1f} images/s  ratio {n / one_s / naive_rate:4.2f}x")
    print(f"build path, {args.workers} fork workers + on-disk cache:  {n_build / build_s:6.1f} images/s"
          f"  ratio {n_build / build_s / naive_rate:4.2f}x")


if __name__ == "__main__":
    main()
