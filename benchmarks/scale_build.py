"""Benchmark: peak memory and time of writing a release, streamed against the whole-config way, across 100×.

Rendering costs ≈ 0.1–0.3 CPU-s per instance here, so the 30,000-instance end
of the curve is measured on the write path with cheap images: real instances
(``SeedPlan``, generated as read) whose images are random bytes of a PNG's size
(``--image-kib``, default 4; random bytes compress like PNG data, not at all).
Every measurement runs in a fresh process and reports its peak RSS
(``ru_maxrss``) and wall time:

1. ``stream`` — the build's writer (:class:`ReleaseWriter`: parquet shards
   written a row group at a time, manifest and card counts added up per row);
2. ``naive`` — the way the build wrote before: every row of a config in a list,
   ``datasets.Dataset.from_list``, ``embed_table_storage``, ``pq.write_table``
   per shard, every shard read back to count its bytes (run up to
   ``--naive-max`` instances; its memory grows with the rows);
3. with ``--real N1,N2,...``: the whole ``rend-equiv build`` (rendering
   included, 2 workers) at those per-family counts, for the real image sizes.

Prints peak RSS per size, its spread (max/min; flat means ≤ 1.2), the time
exponent (slope of log time on log size; linear is 1) and the naive/stream
memory ratio where both ran.

Run: ``python benchmarks/scale_build.py`` (300, 3,000, 30,000 instances; about
two minutes) or ``--sizes 300,3000 --real 5,50``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _fake_images(instance, rerenders: int, size: int, rng: np.random.Generator):
    from rend_equiv_dataset.figures.charts.styles import base_style
    from rend_equiv_dataset.figures.release.records import InstanceImages

    style = base_style()
    def png() -> bytes:
        return rng.bytes(size)
    from dataclasses import replace

    return InstanceImages(png(), style, tuple((replace(style, style_id=f"r{k + 1}"), png()) for k in range(rerenders)),
                          tuple(png() for _ in instance.edits))


def _plan(n: int):
    from rend_equiv_dataset.figures.generate import SeedPlan

    per_seed = 300
    seeds = tuple(range(-(-n // per_seed)))
    return SeedPlan.main(seeds, per_family=50)[:n]


def child_stream(n: int, out: Path, size: int, rerenders: int) -> None:
    """The build's write path over ``n`` instances with cheap images."""
    from rend_equiv_dataset.figures.release.build import ReleaseWriter

    rng = np.random.Generator(np.random.PCG64(0))
    out.mkdir()
    with ReleaseWriter(out, ["instances"]) as writer:
        for instance in _plan(n):
            writer.add_instance("instances", instance, _fake_images(instance, rerenders, size, rng))
        writer.close()


def child_naive(n: int, out: Path, size: int, rerenders: int) -> None:
    """The previous write path: whole configs as lists, ``Dataset.from_list``, embed, write, read back."""
    import datasets
    import pyarrow.parquet as pq
    from datasets.table import embed_table_storage

    from rend_equiv_dataset.figures.release.build import ROWS_PER_SHARD
    from rend_equiv_dataset.figures.release.records import (
        instance_features,
        instance_row,
        rendering_features,
        rendering_rows,
    )
    from rend_equiv_dataset.hub import shard_path

    rng = np.random.Generator(np.random.PCG64(0))
    instance_rows, image_rows = [], []
    for instance in _plan(n):
        images = _fake_images(instance, rerenders, size, rng)
        instance_rows.append(instance_row(instance, images))
        image_rows.extend(rendering_rows(instance, images))
    for config, rows, features in (("instances", instance_rows, instance_features()),
                                   ("renderings", image_rows, rendering_features())):
        dataset = datasets.Dataset.from_list(rows, features=features)
        table = embed_table_storage(dataset.with_format("arrow")[:])
        per = ROWS_PER_SHARD[config]
        count = max(1, -(-table.num_rows // per))
        paths = []
        for index in range(count):
            path = out / shard_path(config, index=index, count=count)
            path.parent.mkdir(parents=True, exist_ok=True)
            pq.write_table(table.slice(index * per, per), path, compression="zstd", write_statistics=False)
            paths.append(path)
        sum(pq.read_table(path).nbytes for path in paths)


def measure(mode: str, n: int, size: int, rerenders: int) -> dict[str, float]:
    """Run one measurement in a fresh process; its peak RSS (MiB), CPU time and wall time (s)."""
    with tempfile.TemporaryDirectory(prefix="scale-build-") as tmp:
        started = time.perf_counter()
        result = subprocess.run([sys.executable, __file__, "--child", mode, str(n), str(Path(tmp) / "out"), str(size),
                                 str(rerenders)], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        seconds = time.perf_counter() - started
        if result.returncode:
            raise SystemExit(f"{mode} {n} failed:\n{result.stderr[-2000:]}")
        return {**json.loads(result.stdout.strip().splitlines()[-1]), "seconds": seconds}


def measure_real(per_family: int, workers: int) -> dict[str, float]:
    """The whole ``rend-equiv build`` (rendering included) at ``per_family`` per family, one seed, no matched set."""
    with tempfile.TemporaryDirectory(prefix="scale-build-") as tmp:
        command = [sys.executable, "-c", "import resource, sys\nfrom rend_equiv_dataset.cli import main\n"
                   "code = main(sys.argv[1:])\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "
                   "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\nsys.exit(code)",
                   "build", "--per-family", str(per_family), "--matched-cycle", "0", "--workers", str(workers),
                   "--no-progress", "--out", str(Path(tmp) / "release")]
        started = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        seconds = time.perf_counter() - started
        if result.returncode:
            raise SystemExit(f"build --per-family {per_family} failed:\n{result.stderr[-2000:]}")
        parent, children = (int(x) for x in result.stdout.strip().splitlines()[-1].split())
        return {"rss_mib": parent / 1024, "workers_rss_mib": children / 1024, "seconds": seconds}


def exponent(sizes: list[int], values: list[float]) -> float:
    """Slope of log(value) on log(size), least squares."""
    x, y = np.log(np.asarray(sizes, float)), np.log(np.asarray(values, float))
    return float(np.polyfit(x, y, 1)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="300,3000,30000", help="instances on the write path (default 300,3000,30000)")
    parser.add_argument("--naive-max", type=int, default=3000, help="largest size the naive way runs at (default 3000)")
    parser.add_argument("--image-kib", type=float, default=4.0, help="bytes of each cheap image, KiB (default 4)")
    parser.add_argument("--rerenders", type=int, default=8, help="K (default 8)")
    parser.add_argument("--real", default="", help="also run the real build at these --per-family counts, e.g. 5,50")
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, n, out, size, rerenders = args.child
        {"stream": child_stream, "naive": child_naive}[mode](int(n), Path(out), int(size), int(rerenders))
        usage = resource.getrusage(resource.RUSAGE_SELF)
        print(json.dumps({"rss_mib": usage.ru_maxrss / 1024, "cpu_s": usage.ru_utime + usage.ru_stime}))
        return

    sizes = [int(s) for s in args.sizes.split(",")]
    size = int(args.image_kib * 1024)
    print(f"write path, cheap images of {args.image_kib:g} KiB, K={args.rerenders} "
          f"(≈{1 + args.rerenders + 2.6:.1f} images per instance)")
    print("(s: CPU seconds of the process; the machine may be shared, so wall time is not compared)")
    print(f"{'instances':>10} {'stream MiB':>11} {'stream s':>9} {'naive MiB':>10} {'naive s':>8} {'naive/stream':>13}")
    stream, naive = [], []
    for n in sizes:
        s = measure("stream", n, size, args.rerenders)
        stream.append(s)
        v = measure("naive", n, size, args.rerenders) if n <= args.naive_max else None
        naive.append(v)
        print(f"{n:>10,} {s['rss_mib']:>11.0f} {s['cpu_s']:>9.1f} "
              + (f"{v['rss_mib']:>10.0f} {v['cpu_s']:>8.1f} {v['rss_mib'] / s['rss_mib']:>12.2f}x" if v else
                 f"{'-':>10} {'-':>8} {'-':>13}"), flush=True)
    rss = [s["rss_mib"] for s in stream]
    print(f"stream: peak RSS max/min {max(rss) / min(rss):.2f} over {sizes[-1] / sizes[0]:g}x the instances; "
          f"CPU-time exponent {exponent(sizes, [s['cpu_s'] for s in stream]):.2f}")
    ran = [(n, v) for n, v in zip(sizes, naive) if v]
    if len(ran) > 1:
        grow = (ran[-1][1]["rss_mib"] - ran[0][1]["rss_mib"]) / (ran[-1][0] - ran[0][0])
        print(f"naive: peak RSS grows {grow:.3f} MiB per instance "
              f"({grow * 1024 / ((1 + args.rerenders + 2.6) * args.image_kib):.1f}x the image bytes)")
    if args.real:
        per_families = [int(x) for x in args.real.split(",")]
        print("\nreal `rend-equiv build` (rendering included, 2 workers, one seed, no matched set)")
        print(f"{'instances':>10} {'parent MiB':>11} {'worker MiB':>11} {'seconds':>8} {'s/instance':>11}")
        for per_family in per_families:
            r = measure_real(per_family, 2)
            n = 6 * per_family
            print(f"{n:>10,} {r['rss_mib']:>11.0f} {r['workers_rss_mib']:>11.0f} {r['seconds']:>8.1f} "
                  f"{r['seconds'] / n:>11.3f}", flush=True)


if __name__ == "__main__":
    main()
