"""Each metrics/<name>/ folder works as a Hub Space would run it: in a fresh environment
that has only `evaluate` and this package's wheel installed, away from the checkout.

Slow (it builds the wheel and installs the wheel's dependencies from the package
index into a new virtual environment: 40 s to 3 minutes here with a warm pip cache).
"""

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
METRICS = ROOT / "metrics"
NAMES = sorted(p.name for p in METRICS.iterdir() if (p / f"{p.name}.py").is_file())

# Run inside the fresh environment: load each Space folder, run its doctested examples.
CHECK = """
import doctest, sys
from pathlib import Path
import evaluate
import rend_equiv_dataset
assert "site-packages" in rend_equiv_dataset.__file__, rend_equiv_dataset.__file__
failed = attempted = 0
for folder in sorted(p for p in Path(sys.argv[1]).iterdir() if p.is_dir()):
    metric = evaluate.load(str(folder))
    module = sys.modules[type(metric).__module__]
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(module, globs={"metric": metric}):
        if test.examples:
            result = runner.run(test)
            failed += result.failed
            attempted += result.attempted
    print(folder.name, "ok")
print("attempted", attempted, "failed", failed)
sys.exit(1 if failed or not attempted else 0)
"""


def _run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert result.returncode == 0, f"{command[:4]} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.mark.slow
def test_each_metric_folder_loads_with_only_evaluate_and_the_wheel(tmp_path):
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(dist), str(ROOT)],
         cwd=tmp_path)
    (wheel,) = dist.glob("rend_equiv-*.whl")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    requirements = {(METRICS / name / "requirements.txt").read_text().strip() for name in NAMES}
    assert len(requirements) == 1  # every Space needs the same two things
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    environ.update(HF_HOME=str(tmp_path / "hf"), HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    lines = [str(wheel) if line == "rend-equiv" else line for line in requirements.pop().split()]
    _run([str(python), "-m", "pip", "install", "-q", "--prefer-binary", *lines], env=environ, cwd=tmp_path)
    spaces = tmp_path / "metrics"  # the panel cards load "metrics/<name>" from the working folder
    for name in NAMES:
        shutil.copytree(METRICS / name, spaces / name)
    result = _run([str(python), "-c", CHECK, str(spaces)], env=environ, cwd=tmp_path)
    assert all(f"{name} ok" in result.stdout for name in NAMES)
