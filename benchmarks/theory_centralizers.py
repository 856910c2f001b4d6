"""Joint centralizers: naive loop over S_m vs vectorised enumeration vs the orbit method.

Run from the repository root: ``python benchmarks/theory_centralizers.py``.
Prints best-of-5 times and the ratio to the naive way, measured in the same run.
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rend_equiv_dataset.theory.centralizers import all_permutations, enumerate_centralizer, joint_centralizer  # noqa: E402


def naive(maps: list[tuple[int, ...]], m: int) -> int:
    """The textbook way: compose both ways for every σ in S_m, in Python."""
    count = 0
    for sigma in itertools.permutations(range(m)):
        if all(all(sigma[f[x]] == f[sigma[x]] for x in range(m)) for f in maps):
            count += 1
    return count


def best_of(fn: Callable[[], int], repeat: int = 5) -> tuple[float, int]:
    times, result = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    print(f"{'suite':<22}{'m':>4}{'naive s':>11}{'numpy s':>11}{'orbits s':>11}{'naive/numpy':>13}{'naive/orbits':>14}")
    for m in (6, 7, 8):
        all_permutations(m)  # warm the cache: the table is built once per process
        swap, cycle = (1, 0, *range(2, m)), (*range(1, m), 0)
        delete = (1, *range(1, m))
        for name, maps in (("swap", [swap]), ("swap+cycle", [swap, cycle]), ("delete_max+swap", [delete, swap])):
            t_naive, n1 = best_of(lambda: naive(maps, m), repeat=3)
            t_numpy, n2 = best_of(lambda: len(enumerate_centralizer(maps, m)))
            t_orbit, n3 = best_of(lambda: joint_centralizer(maps, m).order)
            assert n1 == n2 == n3, (name, m, n1, n2, n3)
            print(
                f"{name:<22}{m:>4}{t_naive:>11.5f}{t_numpy:>11.5f}{t_orbit:>11.5f}"
                f"{t_naive / t_numpy:>13.1f}{t_naive / t_orbit:>14.1f}"
            )
    print("\norbit method beyond enumeration (naive would visit m! permutations):")
    for m in (20, 100, 1000):
        swap, cycle = (1, 0, *range(2, m)), (*range(1, m), 0)
        t, order = best_of(lambda: joint_centralizer([swap, cycle], m).order, repeat=3)
        t_swap, order_swap = best_of(lambda: joint_centralizer([swap], m).order, repeat=3)
        assert order == 1 and order_swap == 2 * math.factorial(m - 2)
        print(f"  m={m:<5} swap+cycle {t:.4f} s   swap alone {t_swap:.4f} s   (m! has {len(str(math.factorial(m)))} digits)")


if __name__ == "__main__":
    main()
