"""The io home: every limit of the readers, and folders that survive kills."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import (
    ECHO_CHARS,
    MAX_DEPTH,
    atomic_dir,
    check_output_dir,
    cut_torn_tail,
    echo,
    jsonl_rows,
    locked,
    output_lock,
    parse_json,
    read_json,
    write_jsonl,
)

ROOT = Path(__file__).resolve().parents[1]


def _rows(path: Path, **options) -> list[tuple[int, dict]]:
    return list(jsonl_rows(path, **options))


def _error(path: Path, **options) -> InputError:
    with pytest.raises(InputError) as caught:
        _rows(path, **options)
    return caught.value


# --------------------------------------------------------------------------- depth


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_json_nested_100000_deep_is_refused_by_every_reader(tmp_path: Path, opener: str) -> None:
    closer = "]" if opener == "[" else "}"
    deep = opener * 100_000 + "1" + closer * 100_000
    line = tmp_path / "deep.jsonl"
    line.write_text('{"ok": 1}\n{"x": ' + deep + "}\n")
    err = _error(line)
    assert (err.line, err.message) == (2, f"nested deeper than {MAX_DEPTH} levels")
    whole = tmp_path / "deep.json"
    whole.write_text(deep)
    with pytest.raises(InputError, match="nested deeper"):
        read_json(whole)
    with pytest.raises(InputError, match="nested deeper") as caught:
        parse_json(deep, file="f", line=7, field="metadata")
    assert caught.value.field == "metadata"


def test_depth_limit_is_exact_and_ignores_brackets_in_strings(tmp_path: Path) -> None:
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) == _nested(MAX_DEPTH)
    with pytest.raises(InputError, match="nested deeper"):
        parse_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    brackets = '"' + "[{" * 10_000 + '\\"' + '"'
    assert parse_json('{"s": ' + brackets + "}") == {"s": "[{" * 10_000 + '"'}


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


@given(st.recursive(st.integers() | st.text(alphabet="[]{}\"\\ab"), lambda kids: st.lists(kids, max_size=3)
                    | st.dictionaries(st.text(alphabet="[]{}\"\\ab", max_size=3), kids, max_size=3), max_leaves=30))
def test_depth_scan_agrees_with_the_parsed_value(value: object) -> None:
    def depth(v: object) -> int:
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        return 0

    text = json.dumps(value)
    limit = max(depth(value), 1)
    assert parse_json(text, max_depth=limit) == value
    if depth(value) >= 1:
        with pytest.raises(InputError, match="nested deeper"):
            parse_json(text, max_depth=depth(value) - 1)


# --------------------------------------------------------------------------- size, bytes, files


def test_line_and_file_size_caps(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    path.write_text('{"a": 1}\n{"a": "' + "x" * 100 + '"}\n{"a": 2}\n')
    err = _error(path, max_line_bytes=50)
    assert (err.line, err.message) == (2, "line longer than 50 bytes")
    assert [row for _, row in _rows(path, max_line_bytes=200)][2] == {"a": 2}
    err = _error(path, max_bytes=60)
    assert err.line == 2 and "larger than 60 bytes" in err.message
    with pytest.raises(InputError, match="larger than 10 bytes"):
        read_json(tmp_path / "big.jsonl", max_bytes=10)


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"a": 1}\n{"a": "\xff\xfe"}\n')
    err = _error(path)
    assert (err.line, err.message) == (2, "not UTF-8 text (byte 8 of the line)")
    whole = tmp_path / "bad.json"
    whole.write_bytes(b'{\n"a": "\xc3"}')
    with pytest.raises(InputError, match="not UTF-8") as caught:
        read_json(whole)
    assert caught.value.line == 2


def test_gzip_garbage_and_truncation(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl.gz"
    good.write_bytes(gzip.compress(b'{"a": 1}\n{"a": 2}\n' * 50))
    assert len(_rows(good)) == 100
    truncated = tmp_path / "cut.jsonl.gz"
    truncated.write_bytes(good.read_bytes()[:-12])
    assert "not a readable gzip file" in _error(truncated).message
    garbage = tmp_path / "junk.jsonl.gz"
    garbage.write_bytes(b"this is not gzip at all\n")
    assert "not a readable gzip file" in _error(garbage).message
    corrupt = bytearray(good.read_bytes())
    corrupt[20] ^= 0xFF
    flipped = tmp_path / "flipped.jsonl.gz"
    flipped.write_bytes(bytes(corrupt))
    with pytest.raises(InputError):
        _rows(flipped)


def test_unreadable_files(tmp_path: Path) -> None:
    assert "cannot read" in _error(tmp_path / "missing.jsonl").message
    assert "is a folder" in _error(tmp_path).message
    with pytest.raises(InputError, match="cannot read"):
        read_json(tmp_path / "missing.json")


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize(("text", "field"), [
    ('{"meta": {"temperature": 1e999}}', "meta.temperature"),
    ('{"meta": {"temperature": -1E+400}}', "meta.temperature"),
    ('{"x": [1, NaN]}', "x[1]"),
    ('{"x": {"y": [[Infinity]]}}', "x.y[0][0]"),
    ('{"x": 1' + "0" * 400 + ".5}", "x"),
])
def test_non_finite_numbers_are_refused_naming_the_field(tmp_path: Path, text: str, field: str) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"meta": {}}\n' + text + "\n")
    err = _error(path)
    assert (err.line, err.field) == (2, field)
    assert "not a finite number" in err.message


def test_finite_numbers_that_look_big_are_kept() -> None:
    assert parse_json('{"a": 1e308, "b": 1e-999, "c": "NaN Infinity 1e999"}') == {
        "a": 1e308, "b": 0.0, "c": "NaN Infinity 1e999"}


def test_a_lone_surrogate_in_a_meta_line_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"meta": {"model": "m\\ud800x"}}\n')
    err = _error(path)
    assert (err.line, err.field) == (1, "meta.model")
    assert "surrogate" in err.message
    path.write_text('{"meta": {"\\udfff": 1}}\n')
    err = _error(path)
    assert (err.field, err.message) == ("meta", "a lone UTF-16 surrogate (\\ud800-\\udfff) is not text")
    str(err).encode("utf-8")  # the message itself can be printed
    assert parse_json('{"a": "\\ud83d\\ude00"}') == {"a": "\U0001F600"}  # a proper pair is text


def test_duplicate_keys_are_named_at_any_depth(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"a": {"b": 1, "b": 2}}\n')
    err = _error(path)
    assert (err.line, err.message) == (1, "duplicate key 'b'")


def test_duplicate_key_check_is_linear() -> None:
    keys = ", ".join(f'"k{i}": {i}' for i in range(20_000))
    started = time.process_time()  # CPU time: a loaded machine does not inflate it
    assert len(parse_json("{" + keys + "}")) == 20_000
    with pytest.raises(InputError, match="duplicate key 'k19999'"):
        parse_json("{" + keys + ', "k19999": 0}')
    assert time.process_time() - started < 1.0  # the quadratic check took about 10 s


def test_error_echoes_are_capped(tmp_path: Path) -> None:
    huge = "x" * 1_000_000
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({huge: 1, "y": 2}).replace('"y"', json.dumps(huge)) + "\n")
    err = _error(path)
    assert "duplicate key" in err.message and len(str(err)) < ECHO_CHARS + 150
    assert echo(huge).endswith("… (1000002 characters)") and len(echo(huge)) < ECHO_CHARS + 30
    path.write_text(json.dumps({huge: [1, float("inf")]}, allow_nan=True) + "\n")
    err = _error(path)
    assert len(err.field or "") < ECHO_CHARS + 30 and len(str(err)) < 2 * ECHO_CHARS + 150


def test_giant_integer_is_an_input_error() -> None:
    with pytest.raises(InputError, match="not valid JSON"):
        parse_json("[" + "9" * 5000 + "]")


# --------------------------------------------------------------------------- lines


def test_torn_tail_is_dropped_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "parts.jsonl"
    path.write_text('{"a": 1}\n{"a": 2')
    assert _rows(path, drop_torn_tail=True) == [(1, {"a": 1})]
    err = _error(path)
    assert err.line == 2 and "not valid JSON" in err.message
    path.write_text('{"a": 1}\n{"a": 2}')  # complete but unterminated: a finished file without final newline
    assert [row for _, row in _rows(path)] == [{"a": 1}, {"a": 2}]
    assert _rows(path, drop_torn_tail=True) == [(1, {"a": 1})]


def test_blank_lines_bom_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}\r\n\r\n{"a": 2}\r\n')
    assert _rows(path) == [(1, {"a": 1}), (3, {"a": 2})]
    err = _error(path, skip_blank=False)
    assert (err.line, err.message) == (2, "blank line; expected one JSON object per line")


def test_cut_torn_tail(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_bytes(b'{"a": 1}\n' + b"x" * 200_000)
    cut_torn_tail(path)
    assert path.read_bytes() == b'{"a": 1}\n'
    cut_torn_tail(path)
    assert path.read_bytes() == b'{"a": 1}\n'
    path.write_bytes(b"no newline at all")
    cut_torn_tail(path)
    assert path.read_bytes() == b""


_FINITE = st.floats(allow_nan=False, allow_infinity=False)
_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | _FINITE | st.text(),
                       lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=5), kids, max_size=4),
                       max_leaves=20)


@given(st.lists(st.dictionaries(st.text(max_size=6), _VALUES, max_size=4), max_size=5))
def test_what_write_jsonl_writes_jsonl_rows_reads_back(rows: list[dict]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rows.jsonl"
        write_jsonl(path, rows, meta={"model": "m"})
        read = [row for _, row in jsonl_rows(path)]
    assert read == [{"meta": {"model": "m"}}, *rows]


# --------------------------------------------------------------------------- locks and folders


def _python(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, timeout=120)


def test_lock_refuses_a_second_holder_and_removes_its_file(tmp_path: Path) -> None:
    lock = tmp_path / ".out.lock"
    with locked(lock, remove=True):
        with pytest.raises(InputError, match="holds the lock"):
            with locked(lock):
                pass
        assert lock.exists()
        other = _python("import sys\nfrom rend_equiv_dataset.io import locked\nwith locked(sys.argv[1]): pass", str(lock))
        assert other.returncode == 1 and "holds the lock" in other.stderr
    assert not lock.exists()


def test_output_lock_nests_in_one_process(tmp_path: Path) -> None:
    out = tmp_path / "release"
    with output_lock(out), atomic_dir(out) as staging:  # a command holds it around the folder write
        (staging / "a.txt").write_text("a")
    assert (out / "a.txt").read_text() == "a" and sorted(p.name for p in tmp_path.iterdir()) == ["release"]


def test_check_output_dir_refuses_files_and_full_folders(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="exists and is not a folder"):
        check_output_dir(tmp_path / "file", overwrite=True)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("1")
    with pytest.raises(InputError, match="not empty"):
        check_output_dir(tmp_path / "full", overwrite=False)
    with pytest.raises(InputError, match="does not exist"):
        check_output_dir(tmp_path / "no" / "out", overwrite=False)
    assert check_output_dir(tmp_path / "full", overwrite=True) == tmp_path / "full"


_KILLED_WRITER = """
import os, signal, sys
from pathlib import Path
from rend_equiv_dataset.io import atomic_dir
out, when = Path(sys.argv[1]), sys.argv[2]
real_replace = os.replace
def replace(src, dst):
    if when == "between_renames" and Path(dst).name == out.name and Path(dst).parent != out.parent:
        real_replace(src, dst)
        os.kill(os.getpid(), signal.SIGKILL)  # the old folder is aside, the new one not yet in place
    real_replace(src, dst)
os.replace = replace
with atomic_dir(out, overwrite=True) as staging:
    (staging / "new.txt").write_text("new")
    if when == "writing":
        os.kill(os.getpid(), signal.SIGKILL)
"""


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_sigkill_while_writing_leaves_nothing_after_the_next_run(tmp_path: Path) -> None:
    out = tmp_path / "release"
    killed = _python(_KILLED_WRITER, str(out), "writing")
    assert killed.returncode == -signal.SIGKILL
    assert [name.split("-")[0] for name in _leftovers(tmp_path)] == [".release.lock", ".release.partial"]
    with atomic_dir(out) as staging:
        (staging / "a.txt").write_text("a")
    assert _leftovers(tmp_path) == [] and sorted(p.name for p in out.iterdir()) == ["a.txt"]


def test_overwrite_killed_between_renames_restores_the_old_folder(tmp_path: Path) -> None:
    out = tmp_path / "release"
    out.mkdir()
    (out / "old.txt").write_text("old")
    killed = _python(_KILLED_WRITER, str(out), "between_renames")
    assert killed.returncode == -signal.SIGKILL
    assert not out.exists()  # the kill came between the two renames
    with pytest.raises(InputError, match="not empty"):  # the next run puts the old folder back first
        with atomic_dir(out, overwrite=False):
            pass
    assert sorted(p.name for p in out.iterdir()) == ["old.txt"] and _leftovers(tmp_path) == []


def test_a_second_writer_of_one_folder_refuses_at_once(tmp_path: Path) -> None:
    out = tmp_path / "release"
    with atomic_dir(out) as staging:
        (staging / "a.txt").write_text("a")
        other = _python("import sys\nfrom rend_equiv_dataset.io import atomic_dir\n"
                        "with atomic_dir(sys.argv[1], overwrite=True): pass", str(out))
        assert other.returncode == 1 and "another command writing this folder holds the lock" in other.stderr
        assert [name.split("-")[0] for name in _leftovers(tmp_path)] == [".release.lock", ".release.partial"]
    assert _leftovers(tmp_path) == [] and (out / "a.txt").read_text() == "a"


def test_overwrite_replaces_and_mode_is_an_ordinary_folder(tmp_path: Path) -> None:
    out = tmp_path / "release"
    out.mkdir()
    (out / "old.txt").write_text("old")
    with atomic_dir(out, overwrite=True) as staging:
        (staging / "new.txt").write_text("new")
    assert sorted(p.name for p in out.iterdir()) == ["new.txt"] and _leftovers(tmp_path) == []
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o777 & ~umask
