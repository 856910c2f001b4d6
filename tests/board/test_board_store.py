"""The leaderboard folder: one row per model, history, atomic publication under kills, and concurrent submits."""

from __future__ import annotations

import errno
import json
import multiprocessing
import os
import re
import shutil
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from rend_equiv_dataset.board import store
from rend_equiv_dataset.board.store import TABLES, Kind, read_board, submit_payload
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import locked

from .payloads import figure_payload

T0 = datetime(2026, 1, 2, 3, 4, 5, 123456, tzinfo=timezone.utc)


def files(folder: Path) -> dict[str, bytes]:
    """Every file (links followed) under ``folder``, by relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_one_row_per_model_and_history_kept(tmp_path):
    board = tmp_path / "board"
    first = submit_payload(board, Kind.FIGURES, figure_payload("org/a", "a1", 0.5), now=T0)
    submit_payload(board, Kind.FIGURES, figure_payload("org/b", "b1", 0.7), now=T0 + timedelta(seconds=1))
    latest = submit_payload(board, Kind.FIGURES, figure_payload("org/a", "a2", 0.9), now=T0 + timedelta(seconds=2))
    assert first.name == "results_2026-01-02T03-04-05.123456Z.json"
    snapshot = read_board(board)
    rows = snapshot.rows(Kind.FIGURES)
    assert [(r["model_name"], r["accuracy"], r["submissions"]) for r in rows] == [("org/a", 0.9, 2), ("org/b", 0.7, 1)]
    assert rows[0]["accuracy_ci"] == [0.85, 0.95] and rows[0]["submitted_at"] == "2026-01-02T03:04:07.123456Z"
    history = snapshot.history(Kind.FIGURES, "org/a")
    assert [board / h for h in history] == [first, latest]
    # the latest result of a model is the last name in its folder: nothing has to be read to find it
    assert sorted((board / "results" / "org" / "a").glob("results_*.json"))[-1] == latest
    assert json.loads(first.read_text())["results"]["rend_equiv"]["accuracy"] == 0.5
    # the links at the top are the current board's tables
    assert json.loads((board / "leaderboard.json").read_text()) == rows
    markdown = (board / "leaderboard.md").read_text().splitlines()
    assert markdown[4] == "| 1 | org/a | 2 | 0.900 [0.850, 0.950] | 0.800 [0.750, 0.850] | 0.700 [0.650, 0.750] | 0.600 [0.550, 0.650] |"
    assert markdown[5].startswith("| 2 | org/b | 1 | 0.700 [0.650, 0.750] |")
    assert read_board(board).rows(Kind.PANELS) == []


def test_resubmitting_the_latest_changes_nothing_but_an_older_one_comes_back(tmp_path):
    board = tmp_path / "board"
    submit_payload(board, Kind.FIGURES, figure_payload("m", "x", 0.5), now=T0)
    submit_payload(board, Kind.FIGURES, figure_payload("m", "y", 0.6), now=T0 + timedelta(seconds=1))
    before = files(board)
    again = submit_payload(board, Kind.FIGURES, figure_payload("m", "y", 0.6), now=T0 + timedelta(seconds=2))
    assert files(board) == before and again.name == "results_2026-01-02T03-04-06.123456Z.json"
    submit_payload(board, Kind.FIGURES, figure_payload("m", "x", 0.5), now=T0 + timedelta(seconds=3))
    rows = read_board(board).rows(Kind.FIGURES)
    assert [(r["accuracy"], r["submissions"]) for r in rows] == [(0.5, 3)]


def test_names_keep_submission_order_when_the_clock_goes_back(tmp_path):
    board = tmp_path / "board"
    a = submit_payload(board, Kind.FIGURES, figure_payload("m", "x", 0.5), now=T0)
    b = submit_payload(board, Kind.FIGURES, figure_payload("m", "y", 0.6), now=T0 - timedelta(hours=1))
    assert a.name < b.name == "results_2026-01-02T03-04-05.123457Z.json"


def test_rows_sort_best_first_with_missing_values_last(tmp_path):
    board = tmp_path / "board"
    for i, (name, acc) in enumerate([("c", None), ("b", 0.5), ("a", 0.5), ("d", 0.9)]):
        submit_payload(board, Kind.FIGURES, figure_payload(name, name, acc), now=T0 + timedelta(seconds=i))
    assert [r["model_name"] for r in read_board(board).rows(Kind.FIGURES)] == ["d", "a", "b", "c"]
    by_ecs = store.sort_rows(TABLES[Kind.FIGURES], read_board(board).rows(Kind.FIGURES), "ecs_auroc")
    assert [r["model_name"] for r in by_ecs] == ["d", "a", "b", "c"]


def test_another_release_is_refused_and_nothing_changes(tmp_path):
    board = tmp_path / "board"
    submit_payload(board, Kind.FIGURES, figure_payload("a", "a", 0.5), now=T0)
    before = files(board)
    with pytest.raises(InputError, match="ranks dataset ffffffffffffffff"):
        submit_payload(board, Kind.FIGURES, figure_payload("b", "b", 0.5, fingerprint="e" * 64))
    assert files(board) == before


@pytest.mark.parametrize(("line", "field"), [
    ("{not json", "log.jsonl:2: not valid JSON"),
    ('{"kind": "tables", "path": "results/b/results_2026-01-02T03-04-05.123456Z.json", "row": {"model_name": "b"}}', "field 'kind'"),
    ('{"kind": "figures", "path": "results/a/../../x", "row": {"model_name": "a"}}', "field 'path'"),
    ('{"kind": "figures", "path": "results/a/results_2026-01-02T03-04-05.123456Z.json", "row": [1]}', "field 'row'"),
])
def test_a_broken_log_line_is_refused_by_readers_naming_line_and_field(tmp_path, line, field):
    board = tmp_path / "board"
    submit_payload(board, Kind.FIGURES, figure_payload("a", "a", 0.5), now=T0)
    submit_payload(board, Kind.FIGURES, figure_payload("b", "b", 0.5), now=T0)
    log = (board / "log.jsonl").read_text().splitlines()
    (board / "log.jsonl").write_text("\n".join([log[0], line, *log[1:]]) + "\n")
    with pytest.raises(InputError, match=re.escape(field)):
        read_board(board)


def test_a_torn_last_line_is_not_on_the_board_and_the_next_submission_cuts_it(tmp_path):
    board = tmp_path / "board"
    submit_payload(board, Kind.FIGURES, figure_payload("a", "a", 0.5), now=T0)
    with open(board / "log.jsonl", "a") as handle:
        handle.write('{"kind": "figures", "path": "resu')
    assert read_board(board).version == 1
    submit_payload(board, Kind.FIGURES, figure_payload("b", "b", 0.7), now=T0)
    assert [r["model_name"] for r in read_board(board).rows(Kind.FIGURES)] == ["b", "a"]
    assert len((board / "log.jsonl").read_text().splitlines()) == 2


def test_the_top_tables_are_views_rebuilt_when_the_log_doubles_or_a_reader_finds_them_behind(tmp_path):
    board = tmp_path / "board"
    versions = []
    for i in range(9):
        submit_payload(board, Kind.FIGURES, figure_payload(f"m{i}", str(i), 0.5), now=T0 + timedelta(seconds=i))  # equal-length lines
        versions.append(json.loads((board / "current" / "manifest.json").read_text())["version"])
    # a submission rebuilds them only when the log has about doubled: O(1) amortised per submission
    assert versions == [1, 2, 2, 4, 4, 4, 4, 8, 8]
    assert len(json.loads((board / "leaderboard.json").read_text())) == 8
    rows = read_board(board).rows(Kind.FIGURES)  # the reader finds them behind and rebuilds them
    assert len(rows) == 9 and json.loads((board / "leaderboard.json").read_text()) == rows
    assert sorted(p.name for p in (board / "boards").iterdir()) == ["000008", "000009"]
    # a reader that cannot take the lock still gets the whole board from the log
    submit_payload(board, Kind.FIGURES, figure_payload("m9", "9", 0.95), now=T0 + timedelta(seconds=9))
    with locked(board / ".lock"):
        assert [r["model_name"] for r in read_board(board).rows(Kind.FIGURES)][0] == "m9"
    assert len(json.loads((board / "leaderboard.json").read_text())) == 9


def test_a_submission_reads_nothing_that_grows_with_the_board(tmp_path, monkeypatch):
    board = tmp_path / "board"
    for i in range(8):
        submit_payload(board, Kind.FIGURES, figure_payload(f"m{i}", str(i), 0.5), now=T0 + timedelta(seconds=i))
    read = []
    real = store.jsonl_rows
    monkeypatch.setattr(store, "jsonl_rows", lambda *a, **k: read.append(a) or real(*a, **k))
    for i in range(8, 15):  # log 8 -> 15 lines: under twice what the views cover
        submit_payload(board, Kind.FIGURES, figure_payload(f"m{i}", str(i), 0.5), now=T0 + timedelta(seconds=i))
    assert read == []
    submit_payload(board, Kind.FIGURES, figure_payload("m15", "15", 0.5), now=T0 + timedelta(seconds=15))
    assert len(read) == 1  # the log doubled: one rebuild


def test_a_folder_that_is_not_a_leaderboard_is_refused(tmp_path):
    folder = tmp_path / "precious"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep")
    with pytest.raises(InputError, match="not a leaderboard folder"):
        submit_payload(folder, Kind.FIGURES, figure_payload("a", "a", 0.5))
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]


def test_a_held_lock_past_the_wait_is_bad_input(tmp_path):
    board = tmp_path / "board"
    board.mkdir()
    with locked(board / ".lock"):
        with pytest.raises(InputError, match="another submission holds the lock"):
            submit_payload(board, Kind.FIGURES, figure_payload("a", "a", 0.5), wait_s=0.1)
    assert read_board(board).version == 0


def test_a_read_only_file_system_is_bad_input(tmp_path, monkeypatch):
    board = tmp_path / "board"

    def refuse(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(store, "atomic_write_text", refuse)
    with pytest.raises(InputError, match="cannot write to leaderboard folder .*Read-only file system"):
        submit_payload(board, Kind.FIGURES, figure_payload("a", "a", 0.5))
    assert read_board(board).version == 0


# --- kills -----------------------------------------------------------------------------------------------

STEPS = ("replace", "fsync", "symlink", "rename")  # every call that makes a write durable or visible


def _submit_and_die_at(board: Path, step: int) -> None:
    """In a forked child: submit, but die like ``kill -9`` (no cleanup) just before file-system call ``step``."""
    calls = [0]
    for name in STEPS:
        real = getattr(os, name)

        def patched(*args, _real=real, **kwargs):
            calls[0] += 1
            if calls[0] == step:
                os._exit(137)
            return _real(*args, **kwargs)

        setattr(os, name, patched)
    submit_payload(board, Kind.FIGURES, figure_payload("org/new", "n", 0.8), {"plot.png": b"png", "report.md": b"text"},
                   now=T0 + timedelta(seconds=10))
    os._exit(0)


def _run_child(board: Path, step: int) -> int:
    process = multiprocessing.get_context("fork").Process(target=_submit_and_die_at, args=(board, step))
    process.start()
    process.join(30)
    return process.exitcode


def _check_consistent(board: Path) -> list[str]:
    """The board reads whole: its tables agree with its manifest and the top links; returns the figure models."""
    snapshot = read_board(board)
    rows = snapshot.rows(Kind.FIGURES)
    if snapshot.version == 0:  # no board yet: the links at the top lead nowhere
        assert not (board / "leaderboard.json").exists() and not (board / "leaderboard.md").exists()
        return []
    assert sorted(r["model_name"] for r in rows) == snapshot.names(Kind.FIGURES)
    for row in rows:
        history = snapshot.history(Kind.FIGURES, row["model_name"])
        assert row["results_file"] == history[-1] and row["submissions"] == len(history)
        assert snapshot.load(history[-1])["config"]["model_name"] == row["model_name"]
    assert json.loads((board / "leaderboard.json").read_text()) == rows
    assert (board / "leaderboard.md").read_text() == store.table_markdown(TABLES[Kind.FIGURES], rows)
    return [r["model_name"] for r in rows]


@pytest.mark.parametrize("old", [[], ["org/old"]], ids=["first", "second"])
def test_a_kill_at_any_step_leaves_the_old_board_or_the_new_one(tmp_path, old):
    base = tmp_path / "base"
    base.mkdir()
    if old:
        submit_payload(base, Kind.FIGURES, figure_payload("org/old", "o", 0.5), now=T0)
    new = sorted(["org/new", *old])
    # how many steps does a whole submission take?
    probe = tmp_path / "probe"
    shutil.copytree(base, probe, symlinks=True)
    assert _run_child(probe, 10**6) == 0
    assert _check_consistent(probe) == new
    total = 0
    while True:  # find the step count: the first step number the child survives
        total += 1
        trial = tmp_path / f"count{total}"
        shutil.copytree(base, trial, symlinks=True)
        if _run_child(trial, total) == 0:
            break
        shutil.rmtree(trial)
    assert total > 6, "a submission writes results, assets, a board and a link"
    outcomes = set()
    for step in range(1, total):
        board = tmp_path / f"kill{step}"
        shutil.copytree(base, board, symlinks=True)
        assert _run_child(board, step) == 137
        models = _check_consistent(board)
        assert models in (old, new), f"step {step}: {models}"
        outcomes.add(len(models))
        # the next submission finishes the job and sweeps what the killed one left
        submit_payload(board, Kind.FIGURES, figure_payload("org/new", "n", 0.8), {"plot.png": b"png", "report.md": b"text"})
        assert _check_consistent(board) == new
        snapshot = read_board(board)
        listed = {p for paths in snapshot.submissions["figures"].values() for p in paths}
        on_disk = {p.relative_to(board).as_posix() for p in (board / "results").rglob("results_*.json")}
        assert on_disk == listed, f"step {step}: stray results {on_disk - listed}"
        assert not [p for p in board.rglob(".*") if p.name != ".lock"], f"step {step}: temporary files left"
        assert len(list((board / "boards").iterdir())) <= 2
        entries = snapshot.history(Kind.FIGURES, "org/new")
        assert len(entries) == 1 and (board / entries[0].removesuffix(".json") / "plot.png").read_bytes() == b"png"
    assert outcomes == {len(old), len(new)}, "kills before the link swap keep the old board, kills after it show the new one"


# --- concurrency -------------------------------------------------------------------------------------------


def test_concurrent_submits_from_threads_lose_nothing(tmp_path):
    board = tmp_path / "board"
    errors: list[BaseException] = []

    def one(i: int) -> None:
        try:
            submit_payload(board, Kind.FIGURES, figure_payload(f"org/m{i % 6}", f"s{i}", i / 100))
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(18)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    snapshot = read_board(board)
    assert snapshot.version == 18
    assert sorted(r["model_name"] for r in snapshot.rows(Kind.FIGURES)) == [f"org/m{i}" for i in range(6)]
    assert sum(len(snapshot.history(Kind.FIGURES, f"org/m{i}")) for i in range(6)) == 18
    assert all(row["submissions"] == 3 for row in snapshot.rows(Kind.FIGURES))
    _check_consistent(board)


def _submit_many(board: str, worker: int) -> None:
    for j in range(4):
        submit_payload(board, Kind.FIGURES if j % 2 else Kind.PANELS, _panel_or_figure(worker, j))


def _panel_or_figure(worker: int, j: int) -> dict:
    payload = figure_payload(f"w{worker}/m{j}", f"{worker}-{j}", 0.5)
    if j % 2 == 0:
        payload["results"] = {"rend_equiv_panels": {"pivotal_gain": 0.1 * worker, "call_rate": 0.2}}
        payload["config"]["dataset_fingerprint"] = None
    return payload


def test_concurrent_submits_from_processes_lose_nothing(tmp_path):
    board = tmp_path / "board"
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_submit_many, args=(str(board), w)) for w in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert [p.exitcode for p in processes] == [0, 0, 0, 0]
    snapshot = read_board(board)
    assert snapshot.version == 16
    assert sorted(r["model_name"] for r in snapshot.rows(Kind.FIGURES)) == sorted(f"w{w}/m{j}" for w in range(4) for j in (1, 3))
    panels = snapshot.rows(Kind.PANELS)
    assert sorted(r["model_name"] for r in panels) == sorted(f"w{w}/m{j}" for w in range(4) for j in (0, 2))
    assert [r["pivotal_gain"] for r in panels][:2] == [0.30000000000000004, 0.30000000000000004]


@pytest.mark.parametrize("name", ["../x", "a/b/c", "/abs", "a/..", ""])
def test_a_name_that_is_not_a_path_segment_is_refused(tmp_path, name):
    with pytest.raises(InputError, match="model_name"):
        submit_payload(tmp_path / "board", Kind.FIGURES, figure_payload(name, "s", 0.5))
    assert not list((tmp_path / "board").rglob("results_*"))
