"""How fast REND-EQUIV instances are generated, against the naive way, in one run.

1. Gap-free values: the generator draws m values on a log grid that
   guarantees the minimum relative gap (``families._spread``); the naive way
   draws uniform values and rejects near-ties. On a tight range (life
   expectancy 45–85, 8 points) rejection needs many draws.
2. Whole sets: instances per second for one seed's main set (300) and
   matched set (150), each instance from its own spawned stream, and the
   same set built in reverse order (the streams make order irrelevant).

Run: ``python benchmarks/generate_figures.py``; prints times and ratios.
"""

from __future__ import annotations

import time

import numpy as np

from rend_equiv_dataset.figures.charts.families.sampling import _spread
from rend_equiv_dataset.figures.edits.controls import has_min_gap
from rend_equiv_dataset.figures.generate import (
    generate_instance,
    generate_instances,
    generate_matched_cycle,
)

LOW, HIGH, M, DRAWS = 45.0, 85.0, 8, 2000


def naive_values(rng: np.random.Generator) -> tuple[np.ndarray, int]:
    """Uniform draws until no near-tie: returns the values and the number of tries."""
    tries = 0
    while True:
        tries += 1
        values = rng.uniform(LOW, HIGH, size=M)
        if has_min_gap(values):
            return values, tries


def time_it(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    rng = np.random.default_rng(0)
    tries = [naive_values(rng)[1] for _ in range(200)]
    naive = time_it(lambda: [naive_values(np.random.default_rng(i)) for i in range(DRAWS // 100)], repeat=1) * 100
    spread = time_it(lambda: [_spread(LOW, HIGH, M, np.random.default_rng(i)) for i in range(DRAWS)])
    print(f"gap-free values, {M} points in [{LOW:g}, {HIGH:g}], {DRAWS} draws:")
    print(f"  naive rejection  {naive * 1e3:9.1f} ms  (mean {np.mean(tries):.0f} tries per draw)")
    print(f"  log-grid spread  {spread * 1e3:9.1f} ms  -> {naive / spread:.0f}x faster")

    main_set = time_it(lambda: generate_instances(0), repeat=2)
    reverse = time_it(lambda: [generate_instance(0, i) for i in reversed(range(300))], repeat=2)
    matched = time_it(lambda: generate_matched_cycle(0), repeat=2)
    print("whole sets (seed 0):")
    print(f"  main set, 300 instances     {main_set * 1e3:7.1f} ms  ({300 / main_set:.0f} instances/s)")
    print(f"  same, built in reverse      {reverse * 1e3:7.1f} ms  (ratio {reverse / main_set:.2f})")
    print(f"  matched set, 150 instances  {matched * 1e3:7.1f} ms  ({150 / matched:.0f} instances/s)")


if __name__ == "__main__":
    main()
