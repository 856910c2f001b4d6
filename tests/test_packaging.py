"""The package builds as a wheel and an sdist that `twine check --strict` accepts, README as long description."""

import email
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    # no isolation: build with this environment's setuptools, nothing downloaded
    result = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--skip-dependency-check",
                             "--outdir", str(out), str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    (wheel,) = out.glob("rend_equiv-*.whl")
    (sdist,) = out.glob("rend_equiv-*.tar.gz")
    return wheel, sdist


def test_twine_accepts_both(dist):
    result = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, dist)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("PASSED") == 2


def test_wheel_metadata_and_contents(dist):
    wheel, _ = dist
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(info))
        entry_points = archive.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert metadata["Name"] == "rend-equiv"
    assert (metadata["License-Expression"] or metadata["License"]) == "Apache-2.0"
    assert metadata["Description-Content-Type"] == "text/markdown"
    assert metadata.get_payload().strip().startswith("# rend-equiv")
    assert "rend_equiv_dataset/py.typed" in names and any(n.endswith("licenses/LICENSE") for n in names)
    assert "rend_equiv_dataset/integrations/lmms_eval/_default_template_yaml" in names  # lmms-eval's --include_path needs it
    assert "rend-equiv = rend_equiv_dataset.cli:main" in entry_points
    assert not any(n.startswith(("tests/", "metrics/")) for n in names)


def test_sdist_carries_the_metrics_modules_and_tests(dist):
    _, sdist = dist
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for name in ("README.md", "LICENSE", "setup.cfg", "pyproject.toml", "metrics/ecs/ecs.py", "metrics/ecs/app.py",
                 "metrics/ecs/requirements.txt", "tests/test_metrics_modules.py", "rend_equiv_dataset/cli.py"):
        assert name in names, name
    assert not any("__pycache__" in n for n in names)
