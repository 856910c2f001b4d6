"""Benchmark: what each entry point costs to start, in a fresh interpreter (CPU seconds and peak memory).

Entry points: ``import rend_equiv_dataset``, ``rend-equiv --help``, ``rend-equiv
grade`` on a two-line file, the curated API's lightest and heaviest names, and
``evaluate.load("metrics/<name>")`` for every metric module. Each runs in its
own interpreter (``--repeat`` times, the median kept) and is compared with the
naive way, in the same run:

- the package: against importing every one of its modules eagerly (what an
  ``__init__`` that imported its API would cost);
- ``evaluate.load``: against ``import evaluate`` alone — the floor no metric
  module can go below, since ``evaluate`` imports ``transformers.pipelines``
  (and with it torch) whenever transformers is installed — so the package's
  own share is the difference.

It also lists which heavy libraries each entry point loads.

Run: ``python benchmarks/imports.py [--repeat 3] [--no-evaluate]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "datasets", "pyarrow", "pandas", "scipy", "sklearn", "matplotlib", "PIL", "pydantic",
         "torch", "transformers", "evaluate", "gradio")

# Runs the code, then prints its own CPU seconds, peak RSS (MB) and the heavy libraries loaded.
PROBE = """
import resource, sys, json
{code}
r = resource.getrusage(resource.RUSAGE_SELF)
print("@@" + json.dumps([r.ru_utime + r.ru_stime - globals().get("_mark", 0.0), r.ru_maxrss / 1024,
                         sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r}))]))
"""
MARK = "import resource as _res\n_u = _res.getrusage(_res.RUSAGE_SELF)\n_mark = _u.ru_utime + _u.ru_stime\n"
"""Code before this line is not counted (``import evaluate``, when only the load's own cost is wanted)."""


def measure(code: str, repeat: int, cwd: Path) -> tuple[float, float, list[str]] | None:
    """Median CPU seconds and peak RSS (MB) of ``code`` in fresh interpreters, and the heavy modules it loaded.

    ``None`` when the code fails (an entry point this version of the package does not have).
    """
    cpu, rss, heavy = [], [], []
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", PROBE.format(code=code, heavy=HEAVY)], cwd=cwd, env=env,
                             capture_output=True, text=True)
        line = next((x for x in out.stdout.splitlines() if x.startswith("@@")), None)
        if out.returncode != 0 or line is None:
            return None
        c, m, h = json.loads(line[2:])
        cpu.append(c)
        rss.append(m)
        heavy = h
    return statistics.median(cpu), statistics.median(rss), heavy


def _row(name: str, result: tuple[float, float, list[str]] | None, baseline: float | None = None) -> str:
    if result is None:
        return f"{name:<44} {'(not in this version)':>22}"
    cpu, rss, heavy = result
    ratio = f"{baseline / cpu:6.1f}x" if baseline else "       "
    return f"{name:<44} {cpu:6.2f} CPU-s {rss:7.0f} MB {ratio}  {', '.join(heavy) or '-'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="fresh interpreters per entry point (median kept)")
    parser.add_argument("--no-evaluate", action="store_true", help="skip the evaluate.load rows (each costs seconds)")
    args = parser.parse_args()

    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts[:-1] if p.name == "__init__.py" else p.relative_to(ROOT).with_suffix("").parts)
        for p in (ROOT / "rend_equiv_dataset").rglob("*.py")
        if "sandbox" not in p.parts and p.name not in ("__main__.py",))
    # backends and the Gradio app import their optional libraries at module level by design
    eager_modules = [m for m in modules if ".backends." not in m and not m.endswith("board.app")]
    eager_code = f"import importlib\nfor m in {eager_modules!r}:\n    importlib.import_module(m)"

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "in.jsonl").write_text('{"output": "The answer is 12.4.", "target": "12", "answer_type": "number"}\n'
                                       '{"output": "Japan", "target": "Japan", "answer_type": "label"}\n')
        (work / "metrics").symlink_to(ROOT / "metrics")
        eager = measure(eager_code, args.repeat, work)
        print(f"{'entry point':<44} {'cost':>12} {'memory':>10} {'vs naive':>7}  heavy libraries loaded")
        print(_row("(naive) every package module, eagerly", eager))
        rows = {
            "import rend_equiv_dataset": "import rend_equiv_dataset",
            "rend-equiv --help": "import sys\nfrom rend_equiv_dataset.cli import main\n"
                                 "sys.argv = ['rend-equiv', '--help']\ntry:\n    main()\nexcept SystemExit:\n    pass",
            "rend-equiv grade (2 lines)": "from rend_equiv_dataset.cli import main\n"
                                          "main(['grade', '--in', 'in.jsonl', '--out', 'out.jsonl'])",
            "from rend_equiv_dataset import grade": "from rend_equiv_dataset import grade",
            "from rend_equiv_dataset import stratified_gain": "from rend_equiv_dataset import stratified_gain",
            "what metrics/{ecs,rea,ibem} import of ours": "import rend_equiv_dataset.figures.scoring.signals",
        }
        for name, code in rows.items():
            print(_row(name, measure(code, args.repeat, work), eager[0]))
        if args.no_evaluate:
            return
        floor = measure("import evaluate", args.repeat, work)
        print(_row("(floor) import evaluate", floor))
        for metric in sorted(p.name for p in (ROOT / "metrics").iterdir() if (p / f"{p.name}.py").is_file()):
            total = measure(f"import evaluate\nevaluate.load('metrics/{metric}')", args.repeat, work)
            share = measure(f"import evaluate\n{MARK}evaluate.load('metrics/{metric}')", args.repeat, work)
            assert total is not None and share is not None
            print(_row(f'evaluate.load("metrics/{metric}")', total) + f"   of which the load itself {share[0]:.2f} CPU-s")


if __name__ == "__main__":
    main()
