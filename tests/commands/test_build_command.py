"""`rend-equiv build`: bad input exits 2 with one line; same seed gives the same bytes however it is built."""

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.figures.release.build import cache_folder

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--per-family", "1", "--rerenders", "1", "--matched-cycle", "1", "--no-progress"]


def _digests(folder):
    files = sorted(p for p in Path(folder).rglob("*") if p.is_file())
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def _subprocess(args, hash_seed):
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "rend_equiv_dataset", "build", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref") / "release"
    assert main(["build", "--seeds", "0", "--workers", "1", "--out", str(out), *SMALL]) == 0
    return out


def test_two_workers_other_hash_seed_same_bytes(reference, tmp_path):
    out = tmp_path / "release"
    proc = _subprocess(["--seeds", "0", "--workers", "2", "--out", str(out), *SMALL], hash_seed=12345)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert _digests(out) == _digests(reference)
    assert any(name.endswith(".parquet") for name in _digests(out))


def test_killed_build_leaves_no_release_and_resumes_to_the_same_bytes(reference, tmp_path):
    out = tmp_path / "release"
    proc = _subprocess(["--seeds", "0", "--workers", "1", "--out", str(out), *SMALL], hash_seed=7)
    cache = cache_folder(out)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if cache.is_dir() and sum(1 for p in cache.iterdir() if not p.name.startswith(".")) >= 2:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the build finished before it could be interrupted"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert not out.exists()
    done = {p.name for p in cache.iterdir() if not p.name.startswith(".")}
    assert len(done) >= 2
    assert main(["build", "--seeds", "0", "--workers", "1", "--out", str(out), *SMALL]) == 0
    assert _digests(out) == _digests(reference)
    assert not cache.exists()


def test_different_seeds_share_no_ids(reference, tmp_path):
    out = tmp_path / "release"
    assert main(["build", "--seeds", "1", "--workers", "1", "--out", str(out), *SMALL]) == 0
    for config in ("instances", "matched_cycle"):
        ids = [set(pq.read_table(next((folder / "data" / config).glob("*.parquet")), columns=["instance_id"])
                   .column(0).to_pylist()) for folder in (reference, out)]
        assert ids[0] and ids[1] and not ids[0] & ids[1]
    renders = [set(pq.read_table(next((folder / "data/renderings").glob("*.parquet")), columns=["render_id"])
                   .column(0).to_pylist()) for folder in (reference, out)]
    assert not renders[0] & renders[1]


@pytest.mark.parametrize(
    "args, option",
    [
        (["--seeds", "a"], "--seeds"),
        (["--seeds", "-1"], "--seeds"),
        (["--seeds", "1.5"], "--seeds"),
        (["--seeds", "0,0"], "--seeds"),
        (["--seeds", ""], "--seeds"),
        (["--per-family", "0"], "--per-family"),
        (["--per-family", "two"], "--per-family"),
        (["--rerenders", "-1"], "--rerenders"),
        (["--workers", "0"], "--workers"),
        (["--matched-cycle", "-3"], "--matched-cycle"),
        (["--push-to-hub", "not a repo"], "--push-to-hub"),
    ],
)
def test_bad_values_exit_2_with_one_line_naming_the_option(args, option, tmp_path, capsys):
    out = tmp_path / "release"
    assert main(["build", "--out", str(out), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and option in err[0] and "expected" in err[0]
    assert not out.exists()


def test_output_folder_checks(tmp_path, capsys):
    full = tmp_path / "full"
    full.mkdir()
    (full / "keep.txt").write_text("mine")
    assert main(["build", "--out", str(full), *SMALL]) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert (full / "keep.txt").read_text() == "mine"
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["build", "--out", str(blocker / "release"), *SMALL]) == 2
    assert "--out" in capsys.readouterr().err


def test_overwrite_replaces_a_non_empty_folder(tmp_path):
    out = tmp_path / "release"
    out.mkdir()
    (out / "old.txt").write_text("old")
    args = ["--per-family", "1", "--rerenders", "0", "--matched-cycle", "0", "--no-progress"]
    assert main(["build", "--workers", "1", "--out", str(out), "--overwrite", *args]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "data", "images.sha256"]
    assert sorted(p.name for p in (out / "data").iterdir()) == ["instances", "renderings"]


def test_unknown_option_exits_2_naming_it(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["build", "--colour", "red"])
    assert exit_info.value.code == 2
    assert "--colour" in capsys.readouterr().err.strip().splitlines()[-1]


def test_push_to_hub_uploads_the_written_folder(tmp_path, monkeypatch, capsys):
    from rend_equiv_dataset import hub

    pushed = []
    monkeypatch.setattr(hub, "push_folder", lambda folder, repo_id: pushed.append((Path(folder), repo_id)) or "url")
    out = tmp_path / "release"
    args = ["--per-family", "1", "--rerenders", "0", "--matched-cycle", "0", "--no-progress", "--workers", "1"]
    assert main(["build", "--out", str(out), "--push-to-hub", "someone/rend-equiv", *args]) == 0
    assert pushed == [(out, "someone/rend-equiv")]
    assert (out / "README.md").is_file()


def _processes_mentioning(text):
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and text in (entry / "cmdline").read_bytes().decode(errors="replace"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _build_until_rendering(out):
    """A 2-worker build in a subprocess, returned once its render cache holds a first image."""
    proc = _subprocess(["--workers", "2", "--out", str(out), "--per-family", "5", "--rerenders", "2",
                        "--matched-cycle", "0", "--no-progress"], hash_seed=0)
    cache = cache_folder(out)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None and not (cache.is_dir() and any(cache.iterdir())):
        time.sleep(0.05)
    assert proc.poll() is None, "the build finished before it could be interrupted"
    return proc


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to look for leftover workers")
def test_terminated_build_stops_its_workers_and_leaves_no_release(tmp_path):
    out = tmp_path / "terminated-release"
    proc = _build_until_rendering(out)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.strip() == "rend-equiv: interrupted"
    assert not out.exists()
    time.sleep(0.5)
    assert _processes_mentioning(str(out)) == []


# --------------------------------------------------------------------------- kills and concurrent builds

_KILL_AT = """
import os, signal, sys
from pathlib import Path
from rend_equiv_dataset import hub
from rend_equiv_dataset.cli import main

point, argv = sys.argv[1], sys.argv[2:]
out = Path(argv[argv.index("--out") + 1])

def die():
    os.kill(os.getpid(), signal.SIGKILL)

if point == "write_phase":  # a config's shards are in the staging folder, the release is not yet renamed into place
    real_close = hub.ConfigWriter.close
    def close(self):
        real_close(self)
        die()
    hub.ConfigWriter.close = close
elif point == "between_renames":  # --overwrite: the old release is moved aside, the new one not yet in
    real_replace = os.replace
    def replace(src, dst):
        real_replace(src, dst)
        if Path(dst).name == out.name and Path(dst).parent != out.parent:
            die()
    os.replace = replace
sys.exit(main(argv))
"""


def _build_killed_at(point, args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", _KILL_AT, point, "build", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def _hidden(folder):
    return sorted(p.name for p in Path(folder).iterdir() if p.name.startswith("."))


def test_sigkill_in_the_write_phase_leaves_nothing_hidden_after_the_next_run(reference, tmp_path):
    out = tmp_path / "release"
    args = ["--seeds", "0", "--workers", "1", "--out", str(out), *SMALL]
    killed = _build_killed_at("write_phase", args)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert not out.exists()
    assert {name.split("-")[0] for name in _hidden(tmp_path)} == {".release.cache", ".release.lock", ".release.partial"}
    assert main(["build", *args]) == 0
    assert _hidden(tmp_path) == [] and _digests(out) == _digests(reference)


def test_overwrite_killed_between_its_renames_restores_the_old_release(reference, tmp_path):
    out = tmp_path / "release"
    assert main(["build", "--seeds", "0", "--workers", "1", "--out", str(out), *SMALL]) == 0
    before = _digests(out)
    killed = _build_killed_at("between_renames", ["--seeds", "1", "--workers", "1", "--out", str(out), "--overwrite",
                                                  *SMALL])
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert not out.exists()  # killed with the old release aside and the new one not yet in place
    assert main(["build", "--seeds", "0", "--workers", "1", "--out", str(out), *SMALL]) == 2  # old one is back
    assert _digests(out) == before
    assert _hidden(tmp_path) == [".release.cache"]  # the killed build's renders, kept to resume it
    assert main(["build", "--seeds", "1", "--workers", "1", "--out", str(out), "--overwrite", *SMALL]) == 0
    assert _digests(out) != before and _hidden(tmp_path) == []


def test_a_second_build_into_one_out_refuses_and_leaves_no_cache(tmp_path, capsys):
    out = tmp_path / "release"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom rend_equiv_dataset.io import output_lock\n"
                               "with output_lock(sys.argv[1]):\n    print('held', flush=True)\n    time.sleep(120)",
         str(out)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"  # the first build is under way
        assert main(["build", "--seeds", "0", "--workers", "1", "--out", str(out), *SMALL]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "another command writing this folder holds the lock" in err[0]
        assert _hidden(tmp_path) == [".release.lock"] and not out.exists()  # no cache of the refused build
    finally:
        holder.kill()
        holder.wait()


def test_orphaned_workers_exit_quietly_when_the_build_is_killed(tmp_path):
    out = tmp_path / "orphans"
    proc = _build_until_rendering(out)
    proc.send_signal(signal.SIGKILL)
    started = time.monotonic()
    err = proc.stderr.read()  # end of file only once every worker holding the pipe has exited
    assert time.monotonic() - started < 30
    assert "Traceback" not in err and "BrokenPipeError" not in err, err[-2000:]
    proc.wait()
