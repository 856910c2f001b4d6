"""``build --engine ray``: Ray tasks build the shards, the merge is the single-process build byte for byte,
and a shard whose worker is killed is built again."""

import hashlib
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.errors import InputError

PLAN = ["--seeds", "0", "--per-family", "1", "--rerenders", "1", "--matched-cycle", "1", "--no-progress"]


def digests(folder):
    files = sorted(p for p in Path(folder).rglob("*") if p.is_file())
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def test_without_ray_the_engine_names_the_extra(monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails as if it were not installed
    from rend_equiv_dataset.figures.release.ray_engine import import_ray

    with pytest.raises(InputError, match=r'pip install -e "\.\[ray\]"'):
        import_ray()
    assert main(["build", *PLAN, "--engine", "ray", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--engine" in err[0] and ".[ray]" in err[0]
    assert not (tmp_path / "out").exists()


@pytest.fixture(scope="module")
def ray_local():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=80 * 2**20)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def single(tmp_path_factory):
    out = tmp_path_factory.mktemp("single") / "release"
    assert main(["build", *PLAN, "--workers", "1", "--out", str(out)]) == 0
    return out


def test_a_ray_build_is_the_single_process_build(ray_local, single, tmp_path):
    out = tmp_path / "release"
    assert main(["build", *PLAN, "--engine", "ray", "--shards", "3", "--out", str(out)]) == 0
    assert digests(out) == digests(single)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["release"]  # shards and caches are gone


def _shard_tasks():
    """Pids of Ray workers running a shard now (Ray titles a busy worker ``ray::<task>``)."""
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "cmdline").read_bytes().startswith(b"ray::build_shard"):
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the Ray worker through /proc")
def test_a_killed_worker_s_shard_is_built_again(ray_local, single, tmp_path):
    out = tmp_path / "release"
    killed = []

    def kill_one_worker():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            caches = list(tmp_path.glob(".release.shards-*/.shard-*.cache/*"))
            pids = _shard_tasks()
            if caches and pids:  # a shard is half rendered: kill its worker in the middle of it
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
            time.sleep(0.02)

    killer = threading.Thread(target=kill_one_worker)
    killer.start()
    try:
        assert main(["build", *PLAN, "--engine", "ray", "--shards", "2", "--out", str(out)]) == 0
    finally:
        killer.join()
    assert killed, "no shard task was seen running"
    assert digests(out) == digests(single)
