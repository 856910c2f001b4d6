"""Resumable sandboxed execution of panel candidates (docs/design.md §4.1; paper §3).

One sandboxed execution per candidate gives its per-assertion pass vector
(:func:`execute`). Results are appended to a JSONL file and flushed one by one,
so a killed run resumes where it stopped (a torn last line is dropped on
resume); :class:`SandboxStart` overlaps starting the sandboxes with reading
the inputs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rend_equiv_dataset.errors import InputError

if TYPE_CHECKING:
    from rend_equiv_dataset.panels.candidates.mutants import Candidate
    from rend_equiv_dataset.panels.problems import Problem


def code_sha(code: str) -> str:
    """Short content hash that keys a result to the exact code executed.

    >>> code_sha("x = 1")
    '8ff436def1451285'
    """
    return hashlib.sha256(code.encode()).hexdigest()[:16]


def read_results(path: Path) -> dict[str, dict[str, Any]]:
    """Finished results by candidate_id; a torn last line (no newline) is cut off the file.

    A later line for the same candidate wins. A malformed complete line is an error.
    """
    from rend_equiv_dataset.io import cut_torn_tail, jsonl_rows

    if not path.exists():
        return {}
    cut_torn_tail(path)
    done: dict[str, dict[str, Any]] = {}
    for number, row in jsonl_rows(path):
        if not isinstance(row.get("candidate_id"), str):
            raise InputError("expected an object with candidate_id", file=str(path), line=number, field="candidate_id")
        done[row["candidate_id"]] = row
    return done


def result_row(problem: Problem, candidate: Candidate, run: Any) -> dict[str, Any]:
    """One execution as a JSON-ready row (the exec file's line)."""
    return {
        "problem_id": problem.problem_id,
        "benchmark": problem.benchmark,
        "candidate_id": candidate.candidate_id,
        "solver": candidate.solver,
        "operator": candidate.operator,
        "code": candidate.code,
        "code_sha": code_sha(candidate.code),
        "assertions_passed": list(run.passed),
        "status": run.status.value,
        "label": run.label,
        "danger": list(run.danger),
        "isolation": run.isolation,
        "seconds": round(run.seconds, 6),
        "detail": run.detail,
    }


class SandboxStart:
    """``jobs`` sandboxes whose servers are launched at once but waited for only in
    :meth:`wait`, so that their start overlaps reading the problems and candidates;
    :meth:`wait` hands them over ready (or raises what starting raised: a refusal to run
    without bubblewrap, say), :meth:`close` stops them."""

    def __init__(self, jobs: int = 1, *, allow_weak: bool = False) -> None:
        from rend_equiv_dataset.panels.sandbox import Sandbox

        self.boxes = [Sandbox(allow_weak=allow_weak, share=jobs) for _ in range(jobs)]
        for box in self.boxes:
            box.begin()

    def wait(self) -> list[Any]:
        for box in self.boxes:
            box.start()
        return self.boxes

    def close(self) -> None:
        close_all(self.boxes)


def close_all(boxes: Sequence[Any]) -> None:
    """Stop sandboxes side by side: every server is told first, then each is waited for."""
    for box in boxes:
        box.goodbye()
    for box in boxes:
        box.close()


class _NoBar:
    """The progress bar when it is hidden (tqdm loads only to be shown)."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def update(self, n: int = 1) -> None:
        return None


def execute(
    problems: dict[str, Problem],
    candidates: Sequence[Candidate],
    results_path: Path,
    *,
    sandbox: Any = None,
    progress: bool = True,
    allow_weak: bool = False,
    jobs: int = 1,
    starting: SandboxStart | None = None,
) -> list[dict[str, Any]]:
    """Run every candidate once (resuming from ``results_path``); rows in candidate order.

    Each row records the isolation mode it ran under. Without bubblewrap this refuses
    (:class:`InputError`) unless ``allow_weak`` (see :func:`~rend_equiv_dataset.panels.sandbox.choose_isolation`).
    ``jobs`` > 1 runs that many sandboxes side by side (the memory budget split among
    them); the file's lines stay in candidate order (a finished row waits for those
    before it, so a kill loses at most the rows finished ahead of a slower one).
    ``starting``: sandboxes already starting (:class:`SandboxStart`; then ``jobs`` and
    ``allow_weak`` are theirs), closed here like the ones made here.
    """
    import threading

    from rend_equiv_dataset.panels.sandbox import Sandbox

    done = read_results(results_path)
    todo = [c for c in candidates if done.get(c.candidate_id, {}).get("code_sha") != code_sha(c.code)]
    own = sandbox is None
    if starting is not None and own:
        boxes = starting.boxes
    else:
        jobs = max(1, min(jobs, len(todo))) if own else 1
        boxes = [Sandbox(allow_weak=allow_weak, share=jobs) for _ in range(jobs)] if own else [sandbox]
    lock, queue = threading.Lock(), iter(enumerate(todo))
    finished: dict[int, dict[str, Any]] = {}  # rows done but not yet written: an earlier one is still running
    written = 0
    errors: list[BaseException] = []
    try:
        if todo:
            if starting is not None and own:
                starting.wait()  # a refusal comes before any work
            for box in boxes:
                box.start()
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(candidates), initial=len(candidates) - len(todo), desc="executing candidates",
                       unit="cand")
        else:
            bar = _NoBar()
        from rend_equiv_dataset import io

        with io.private_appender(results_path) as out, bar:  # 0600: it holds every candidate's code and label
            def work(box: Any) -> None:
                nonlocal written
                try:
                    while True:
                        with lock:
                            position, candidate = next(queue, (-1, None))
                        if candidate is None or errors:
                            return
                        problem = problems[candidate.problem_id]
                        row = result_row(problem, candidate, box.run(problem, candidate.code))
                        with lock:
                            finished[position] = row
                            while written in finished:
                                ready = finished.pop(written)
                                out.write(json.dumps(ready) + "\n")
                                out.flush()
                                done[ready["candidate_id"]] = ready
                                written += 1
                            bar.update(1)
                except BaseException as err:  # noqa: BLE001 - raised again in the caller's thread
                    errors.append(err)

            if len(boxes) == 1:
                work(boxes[0])
            else:
                threads = [threading.Thread(target=work, args=(box,), daemon=True) for box in boxes]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
            if errors:
                raise errors[0]
    finally:
        if own and starting is not None:
            starting.close()
        elif own:
            close_all(boxes)
    return [done[c.candidate_id] for c in candidates]
