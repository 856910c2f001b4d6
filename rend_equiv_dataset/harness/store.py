"""Resume by content: append-only part files, one per process, merged at the end (docs/design.md §5).

A run is identified by its *run key*, a hash of everything that decides a
record's content (model, revision, backend, prompt templates, generation
settings — see :func:`rend_equiv_dataset.harness.provenance.run_key`). A
record is the pair (id, run key). Every process appends each finished record
to its own file ``OUT.parts/part-RANK.jsonl`` with one ``write`` call on an
``O_APPEND`` descriptor, so a SIGKILL can at worst leave a torn last line,
which readers drop and the next writer of that file cuts off. A record is done
only once its line is written, never when it starts.

Errors are records too (``{"error": {"class": ..., "message": ...}}``); they
count as done unless the run is asked to retry them, and they never reach the
predictions file. :meth:`RunStore.merge` writes the output atomically: the
``meta`` line, then one line per id, ordered by id, whatever the number of
processes or restarts that produced them; a success always wins over an error
for the same id. A store whose output or parts folder belongs to another run
key refuses to start (:class:`~rend_equiv_dataset.errors.InputError`), so
settings are never silently mixed. Each process holds an exclusive lock on
``OUT.parts/lock-RANK`` from :meth:`RunStore.open` until it exits (the kernel
drops it when a process is killed), so a second run started on the same output
while a process of the first is still alive stops with a clear message instead
of racing it; rank 0 keeps its lock through the merge.

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "preds.jsonl"
>>> store = RunStore(out, meta={"model": "m"}, key="k1")
>>> store.open(rank=0)
>>> w = store.writer(rank=0)
>>> w.append({"render_id": "b", "output": "2"}); w.append({"render_id": "a", "output": "1"})
>>> w.close()
>>> sorted(store.done_ids())
['a', 'b']
>>> store.merge(["a", "b"]).complete
True
>>> out.read_text().splitlines()[1]
'{"render_id": "a", "output": "1"}'
"""

from __future__ import annotations

import contextlib
import json
import shutil
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import ECHO_CHARS, atomic_write_text, check_output_file, echo, jsonl_rows, locked, LineAppender, read_json

KEY_FIELD = "run_key"
PART_GLOB = "part-*.jsonl"


@dataclass(frozen=True)
class MergeResult:
    """What the merge wrote: answered ids, ids with errors, ids never attempted."""

    answered: int
    errors: dict[str, dict[str, str]]
    missing: list[str]
    errors_path: Path | None = None

    @property
    def complete(self) -> bool:
        return not self.errors and not self.missing


def read_jsonl_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) of a JSONL file, dropping a torn (unterminated) last line.

    A line in the middle that is not a JSON object is corruption, not a torn
    write, and raises :class:`InputError` (see :func:`rend_equiv_dataset.io.jsonl_rows`).
    """
    return jsonl_rows(path, drop_torn_tail=True)


class PartWriter:
    """Appends finished records of one process; each record is one ``write`` of one line."""

    def __init__(self, path: Path, key: str) -> None:
        self.path = path
        self.key = key
        self._lines = LineAppender(path)

    def append(self, record: dict[str, Any]) -> None:
        self._lines.append({**record, KEY_FIELD: self.key})

    def close(self) -> None:
        self._lines.close()


@dataclass
class RunStore:
    """The output file, its parts folder and the run key that both must carry.

    Args:
        out: the final JSONL file (docs/design.md §7.3 for figure runs).
        meta: the provenance written as the output's first line ``{"meta": ...}``.
        key: the run key; stored in ``meta`` and on every part line.
        id_field: the record's id (``render_id`` for figure runs).
        inline_meta: write ``meta`` as the output's first line (docs/design.md §7.3); when
            False (panel files, whose readers take records only) it goes to
            ``OUT.meta.json`` next to the output instead.
    """

    out: Path
    meta: dict[str, Any]
    key: str
    id_field: str = "render_id"
    inline_meta: bool = True
    parts: Path = field(init=False)
    _lock_stack: contextlib.ExitStack | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.out = Path(self.out)
        self.parts = self.out.with_name(self.out.name + ".parts")
        self.meta = {**self.meta, KEY_FIELD: self.key}

    # -- starting -------------------------------------------------------------
    def open(self, rank: int = 0) -> None:
        """Check that existing output and parts belong to this run; create the parts folder.

        Then take this process's lock (``rank``), released by :meth:`close` or at exit.
        """
        check_output_file(self.out)
        self._check_output()
        self.parts.mkdir(exist_ok=True)
        run_file = self.parts / "run.json"
        if run_file.exists():
            self._check_meta(_load_json(run_file), run_file)
        else:
            atomic_write_text(run_file, json.dumps({"meta": self.meta}, sort_keys=True) + "\n")
        self._lock(rank)

    def _lock(self, rank: int) -> None:
        path = self.parts / f"lock-{rank:05d}"
        stack = contextlib.ExitStack()
        stack.enter_context(locked(path, what=f"process {rank} of another run on this output (still running)", field="--out"))
        self._lock_stack = stack

    def close(self) -> None:
        """Release this process's lock."""
        if self._lock_stack is not None:
            self._lock_stack.close()
            self._lock_stack = None

    @property
    def meta_file(self) -> Path:
        return self.out.with_name(self.out.name + ".meta.json")

    def _check_output(self) -> None:
        if not self.out.exists():
            return
        if not self.inline_meta:
            if not self.meta_file.exists():
                raise InputError(
                    f"exists without its {self.meta_file.name}, so it is not an output of this harness; "
                    "choose another --out or remove it",
                    file=self.out,
                    field="--out",
                )
            self._check_meta(_load_json(self.meta_file), self.meta_file)
            return
        first = next(read_jsonl_lines(self.out), None)
        if first is None or "meta" not in first[1]:
            raise InputError(
                "exists and is not a predictions file of this harness (no meta line); "
                "choose another --out or remove it",
                file=self.out,
                line=1,
                field="--out",
            )
        self._check_meta(first[1], self.out)

    def _check_meta(self, obj: dict[str, Any], where: Path) -> None:
        theirs = obj.get("meta", {})
        if not isinstance(theirs, dict):
            raise InputError(f"expected an object, got {type(theirs).__name__}", file=where, field="meta")
        if theirs.get(KEY_FIELD) == self.key:
            return
        differ = [k for k in sorted(set(theirs) | set(self.meta)) if theirs.get(k) != self.meta.get(k)]
        shown = [d for d in differ if d != KEY_FIELD] or [KEY_FIELD]
        detail = "; ".join(f"{k[:ECHO_CHARS]}: {echo(theirs.get(k))} there, {echo(self.meta.get(k))} now" for k in shown[:3])
        raise InputError(
            f"holds outputs of another model or settings ({detail}); "
            "choose another --out or remove it (and its .parts folder)",
            file=where,
            field="--out",
        )

    # -- during the run -------------------------------------------------------
    def writer(self, rank: int) -> PartWriter:
        return PartWriter(self.parts / f"part-{rank:05d}.jsonl", self.key)

    def _records(self) -> Iterator[dict[str, Any]]:
        """Every record on disk: the output's lines, then each part file's lines."""
        sources = [self.out] if self.out.exists() else []
        if self.parts.is_dir():
            sources += sorted(self.parts.glob(PART_GLOB))
        for path in sources:
            for number, obj in read_jsonl_lines(path):
                if "meta" in obj:
                    continue
                if path != self.out and obj.get(KEY_FIELD) != self.key:
                    raise InputError(
                        f"record of another run key {obj.get(KEY_FIELD)!r} (this run: {self.key!r})",
                        file=path,
                        line=number,
                        field=KEY_FIELD,
                    )
                if not isinstance(obj.get(self.id_field), str):
                    raise InputError("expected a string id", file=path, line=number, field=self.id_field)
                yield obj

    def done_ids(self, retry_errors: bool = False) -> set[str]:
        """Ids that need no work: answered, or failed when errors are not retried."""
        done: set[str] = set()
        for obj in self._records():
            if "error" not in obj or not retry_errors:
                done.add(obj[self.id_field])
        return done

    # -- the end --------------------------------------------------------------
    def merge(self, all_ids: Iterable[str]) -> MergeResult:
        """Write the output (meta line, then answers ordered by id) atomically.

        Errors go to ``OUT.errors.jsonl``. The parts folder is removed once every
        id is answered; otherwise it stays so a rerun can finish the work.
        """
        answers: dict[str, dict[str, Any]] = {}
        errors: dict[str, dict[str, str]] = {}
        for obj in self._records():
            rid = obj[self.id_field]
            if "error" in obj:
                errors.setdefault(rid, obj["error"])
            else:
                answers.setdefault(rid, {k: v for k, v in obj.items() if k != KEY_FIELD})
        for rid in answers:
            errors.pop(rid, None)
        wanted = list(all_ids)
        missing = sorted(set(wanted) - set(answers) - set(errors))
        meta_line = json.dumps({"meta": self.meta}, ensure_ascii=False, sort_keys=True)
        lines = [meta_line] if self.inline_meta else []
        lines += [json.dumps(answers[rid], ensure_ascii=False) for rid in sorted(answers)]
        if not self.inline_meta:
            atomic_write_text(self.meta_file, meta_line + "\n")
        atomic_write_text(self.out, "\n".join(lines) + "\n" if lines else "")
        errors_path = self._write_errors(errors)
        result = MergeResult(len(answers), errors, missing, errors_path)
        if result.complete and self.parts.is_dir():
            shutil.rmtree(self.parts)
        return result

    def _write_errors(self, errors: dict[str, dict[str, str]]) -> Path | None:
        path = self.out.with_name(self.out.name + ".errors.jsonl")
        if not errors:
            path.unlink(missing_ok=True)
            return None
        rows = [json.dumps({self.id_field: rid, "error": errors[rid]}) for rid in sorted(errors)]
        atomic_write_text(path, "\n".join(rows) + "\n")
        return path


def _load_json(path: Path) -> dict[str, Any]:
    obj = read_json(path)
    if not isinstance(obj, dict):
        raise InputError(f"expected a JSON object, got {type(obj).__name__}", file=path)
    return obj
