"""Tables per second and images per second of a build from tables, against the synthetic build, same run.

A build from tables (``rend-equiv build --from-tables``) reads and checks each
table and its questions, draws every chart once for the legibility check, and
renders the release images. The check's drawings are kept for the release
(``figures/release/images.py``: ``remember_base``), so a table image should cost
about what a synthetic one does. Three ways, in one process, same K:

- synthetic: instances from seeds, rendered (base, K re-renderings, every edit);
- tables: a folder of tables (exported synthetic charts plus the real-shaped
  fixtures) read, questions checked, legibility checked, rendered;
- tables, drawing twice: the same, with the legibility drawings thrown away
  (the naive way: every base and edit image drawn again for the release).

    python benchmarks/tables.py [--per-family 2] [--rerenders 4]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rend_equiv_dataset.figures.charts import render as render_module  # noqa: E402
from rend_equiv_dataset.figures.generate import generate_instances  # noqa: E402
from rend_equiv_dataset.figures.release import images  # noqa: E402
from rend_equiv_dataset.figures.tables.build import Legibility, export_instances, instances_from_tables  # noqa: E402
from rend_equiv_dataset.figures.tables.read import load_tables  # noqa: E402

REAL = Path(__file__).resolve().parents[1] / "tests" / "figures" / "tables" / "data" / "tables" / "realworld"


def _render(instances, rerenders: int) -> int:  # type: ignore[no-untyped-def]
    n = 0
    for instance in instances:
        drawn = images.render_instance(instance, rerenders)
        n += 1 + len(drawn.rerenders) + len(drawn.edits)
    return n


def synthetic(per_family: int, rerenders: int) -> int:
    return _render(generate_instances(0, per_family=per_family), rerenders)


def from_tables(folder: Path, rerenders: int, *, reuse: bool) -> tuple[int, int]:
    images._BASE_DRAWINGS.clear()
    tables = load_tables(folder)
    build = instances_from_tables(tables, legible=Legibility())
    if not reuse:
        images._BASE_DRAWINGS.clear()
    return len(tables.tables), _render(build.instances, rerenders)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-family", type=int, default=2)
    parser.add_argument("--rerenders", type=int, default=4)
    args = parser.parse_args()
    render_module.warm_up()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "tables"
        export_instances(generate_instances(1, per_family=args.per_family), folder)
        for table in REAL.glob("*.csv"):
            shutil.copy(table, folder / table.name)
        for side in REAL.glob("*.title.txt"):
            shutil.copy(side, folder / side.name)
        rows = []
        with Clock() as clock:
            n = synthetic(args.per_family, args.rerenders)
        rows.append(("synthetic (seeds)", None, n, clock))
        with Clock() as clock:
            n_tables, n = from_tables(folder, args.rerenders, reuse=True)
        rows.append(("tables, legibility drawings reused", n_tables, n, clock))
        with Clock() as clock:
            n_tables, n = from_tables(folder, args.rerenders, reuse=False)
        rows.append(("tables, drawing twice (naive)", n_tables, n, clock))
    print(f"K={args.rerenders}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("                                     tables/s   images/s   CPU-ms/image   vs synthetic per image")
    base_per_image = rows[0][3].cpu / rows[0][2]
    for name, n_tables, n, clock in rows:
        tables = f"{n_tables / clock.wall:8.1f}" if n_tables else "       -"
        per_image = clock.cpu / n
        print(f"{name:36s} {tables}   {n / clock.wall:8.1f}   {1000 * per_image:12.1f}   {per_image / base_per_image:6.2f}x"
              f"   ({n} images)")


class Clock:
    """Wall time and CPU time of this process."""

    def __enter__(self) -> Clock:
        self._start = (time.perf_counter(), time.process_time())
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall = time.perf_counter() - self._start[0]
        self.cpu = time.process_time() - self._start[1]


if __name__ == "__main__":
    main()
