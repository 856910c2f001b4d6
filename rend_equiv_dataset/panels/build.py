"""Code-judge panel records and their release (docs/design.md §4.1, §7.5; paper §3–4).

Pipeline: problems → candidates → one sandboxed execution per candidate (the
per-assertion vector; :func:`execute`) → k judges' votes → records
(:func:`make_records`) → a Hub-ready folder, one config per benchmark, with a
card reporting the counts, the label base rate and the signal accuracy at every
coverage (:func:`write_release`).

Execution results are appended to a JSONL file and flushed one by one, so a
killed run resumes where it stopped (a torn last line is dropped on resume).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.reports import json_ready, markdown_table

if TYPE_CHECKING:  # numpy and the record reader load only where records are summarized, not on `panel exec`
    import numpy as np

    from rend_equiv_dataset.panels.candidates.mutants import Candidate
    from rend_equiv_dataset.panels.problems import Problem, ProblemSet

JUDGE_SOURCES = ("model", "file", "simulated")
RECORD_FIELDS = ("problem_id", "benchmark", "candidate_id", "solver", "code", "assertions_passed", "status", "label",
                 "votes", "judges", "judge_source")
EXTRA_FIELDS = ("operator", "judge_lines", "danger", "isolation")


def code_sha(code: str) -> str:
    """Short content hash that keys a result to the exact code executed.

    >>> code_sha("x = 1")
    '8ff436def1451285'
    """
    return hashlib.sha256(code.encode()).hexdigest()[:16]


# ------------------------------------------------------------------ resumable execution


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
        for box in self.boxes:
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
            for box in boxes:
                box.close()
    return [done[c.candidate_id] for c in candidates]


# ------------------------------------------------------------------ records


def make_records(
    results: Sequence[dict[str, Any]],
    votes: np.ndarray | Sequence[Sequence[int]],
    judges: Sequence[str],
    judge_lines: Sequence[Sequence[str]],
    judge_source: str,
) -> list[dict[str, Any]]:
    """Full-form panel records (docs/design.md §7.5) plus ``operator``, ``judge_lines``, ``danger``, ``isolation``."""
    if judge_source not in JUDGE_SOURCES:
        raise ValueError(f"judge_source must be one of {JUDGE_SOURCES}, got {judge_source!r}")
    records = []
    for row, row_votes, lines in zip(results, votes, judge_lines, strict=True):
        records.append({
            "problem_id": row["problem_id"],
            "benchmark": row["benchmark"],
            "candidate_id": row["candidate_id"],
            "solver": row["solver"],
            "code": row["code"],
            "assertions_passed": [bool(p) for p in row["assertions_passed"]],
            "status": row["status"],
            "label": int(row["label"]),
            "votes": [int(v) for v in row_votes],
            "judges": list(judges),
            "judge_source": judge_source,
            "operator": row.get("operator", ""),
            "judge_lines": list(lines),
            "danger": list(row.get("danger", [])),
            "isolation": str(row.get("isolation", "")),
        })
    return records


def summarize(records: Sequence[dict[str, Any]], *, seed: int = 0) -> dict[str, Any]:
    """Counts, label base rate and signal accuracy at each coverage (prefix, and random subset).

    Signal accuracy leaves out ``infra_error`` runs: the sandbox did not run
    them, so their pass vector says nothing about the candidate (and may be
    empty). With no other run the accuracies are empty.
    """
    import numpy as np

    from rend_equiv_dataset.panels.execution_signal import (
        COVERAGE_LEVELS,
        MAIN_COVERAGES,
        prefix_signal,
        random_subset_signal,
        signal_accuracy,
        subset_rng,
    )
    from rend_equiv_dataset.panels.records import Status

    labels = [r["label"] for r in records]
    scored = [r for r in records if r["status"] != Status.INFRA_ERROR.value]
    scored_labels = [r["label"] for r in scored]
    prefix = {
        f"{c:.2f}": signal_accuracy(scored_labels, [prefix_signal(r["assertions_passed"], c) for r in scored])
        for c in COVERAGE_LEVELS
    } if scored else {}
    random_subset = {
        f"{c:.2f}": signal_accuracy(scored_labels, [
            random_subset_signal(r["assertions_passed"], c, subset_rng(seed, r["candidate_id"], c)) for r in scored])
        for c in MAIN_COVERAGES
    } if scored else {}
    k = len(records[0]["votes"]) if records else 0
    votes = np.array([r["votes"] for r in records]) if records else np.zeros((0, 0))
    return {
        "n_records": len(records),
        "n_problems": len({r["problem_id"] for r in records}),
        "by_benchmark": dict(sorted(Counter(r["benchmark"] for r in records).items())),
        "by_solver": dict(sorted(Counter(r["solver"] for r in records).items())),
        "by_status": dict(sorted(Counter(r["status"] for r in records).items())),
        "infra_errors": len(records) - len(scored),
        "label_base_rate": float(np.mean(labels)) if labels else float("nan"),
        "signal_accuracy": prefix,
        "random_subset_signal_accuracy": random_subset,
        "k": k,
        "judge_reject_rate": [float(1 - votes[:, j].mean()) for j in range(k)] if len(records) else [],
        "danger_flagged": sum(bool(r["danger"]) for r in records),
    }


# ------------------------------------------------------------------ release


def config_name(benchmark: str) -> str:
    """Hub config name of a benchmark.

    >>> config_name("humaneval+"), config_name("mbpp+"), config_name("livecodebench")
    ('humaneval_plus', 'mbpp_plus', 'livecodebench')
    """
    return benchmark.replace("+", "_plus").replace("-", "_")


PROBLEM_LICENSES = {
    "humaneval": ("mit", "HumanEval (openai/human-eval): MIT"),
    "humaneval+": ("apache-2.0", "HumanEval+ (evalplus): Apache-2.0, over HumanEval's MIT problems"),
    "mbpp+": ("apache-2.0", "MBPP+ (evalplus): Apache-2.0, over MBPP's CC-BY-4.0 problems"),
}
"""Benchmark → (Hub license id, the statement on the card): rows carry their problems' licence."""


def card_license(benchmarks: Sequence[str]) -> tuple[str, list[str]]:
    """The card's ``license`` id and one line per benchmark.

    One licence for every benchmark in the release is that licence's id; a mix
    (or a benchmark whose licence is not known here) is ``other``, each named.

    >>> card_license(["humaneval"])
    ('mit', ['HumanEval (openai/human-eval): MIT'])
    >>> card_license(["humaneval", "livecodebench"])[0]
    'other'
    """
    lines, ids = [], set()
    for benchmark in sorted(set(benchmarks)):
        spdx, line = PROBLEM_LICENSES.get(benchmark, ("other", f"{benchmark}: the licence of the problem files supplied"))
        ids.add(spdx)
        lines.append(line)
    return (ids.pop() if len(ids) == 1 else "other"), lines


def features() -> Any:
    import datasets

    string, strings = datasets.Value("string"), datasets.List(datasets.Value("string"))
    return datasets.Features({
        "problem_id": string, "benchmark": string, "candidate_id": string, "solver": string, "code": string,
        "assertions_passed": datasets.List(datasets.Value("bool")), "status": string,
        "label": datasets.Value("int64"), "votes": datasets.List(datasets.Value("int64")), "judges": strings,
        "judge_source": string, "operator": string, "judge_lines": strings, "danger": strings,
        "isolation": string,
    })


def write_release(
    out: str | os.PathLike[str],
    records: Sequence[dict[str, Any]],
    problems: ProblemSet,
    provenance: dict[str, Any],
    *,
    overwrite: bool = False,
) -> dict[str, Any]:
    """Write the Hub-ready folder (parquet per benchmark config + card + records.jsonl); returns the summary."""
    import datasets

    from rend_equiv_dataset import hub, io

    summary = summarize(records, seed=int(provenance.get("seed", 0)))
    feats = features()
    groups: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        groups.setdefault(config_name(record["benchmark"]), []).append(record)
    license_id, license_lines = card_license([record["benchmark"] for record in records])
    with io.atomic_dir(out, overwrite=overwrite) as staging:
        written = []
        for name, rows in sorted(groups.items()):
            table = {key: [row[key] for row in rows] for key in feats}
            written.append(hub.write_config(staging, name, datasets.Dataset.from_dict(table, features=feats)))
        with (staging / "records.jsonl").open("w", encoding="utf-8") as handle:
            for record in records:
                handle.write(json.dumps(record) + "\n")
        io.write_json(staging / "summary.json", json_ready({**summary, "provenance": provenance}), sort_keys=False,
                      ensure_ascii=True)  # NaN (no records to average) as null: JSON has no NaN
        extra = {"pretty_name": "Code-judge panel records (rend-equiv)", "language": ["en"],
                 "tags": ["code", "llm-as-a-judge", "judge-panels", "verification"],
                 "annotations_creators": ["machine-generated"], "language_creators": ["machine-generated"]}
        default = written[0].name if written else None
        hub.write_card(staging, hub.card_metadata(written, default=default, license=license_id, extra=extra),
                       card_body(summary, problems, provenance, license_lines))
    return summary


def _table(rows: Iterable[tuple[Any, ...]], header: tuple[str, ...]) -> str:
    return "\n".join(markdown_table(header, rows))


def card_body(summary: dict[str, Any], problems: ProblemSet, provenance: dict[str, Any],
              license_lines: Sequence[str] = ()) -> str:
    """The card's Markdown: what the records are, counts, base rate, signal accuracy by coverage."""
    excluded = "\n".join(f"- `{e.problem_id}`: {e.reason}" for e in problems.excluded) or "- none"
    base_rate = "n/a" if summary["label_base_rate"] != summary["label_base_rate"] else f"{summary['label_base_rate']:.4f}"
    coverage = _table(((c, f"{a:.4f}") for c, a in summary["signal_accuracy"].items()), ("coverage c", "accuracy"))
    random_cov = _table(((c, f"{a:.4f}") for c, a in summary["random_subset_signal_accuracy"].items()),
                        ("coverage c", "accuracy"))
    return f"""
# Code-judge panel records (rend-equiv)

One row per candidate solution: its code, the pass/fail vector of the full test
suite in source order (`assertions_passed`), the operational label
(`label` = 1 iff the run finished and every assertion passed), the execution
`status` (ok, timeout, crash, infra_error; a run that timed out has every
assertion failed, since how far it got would depend on machine speed), and the k judges' votes
(`votes`, 1 = CORRECT) with each judge's raw first line (`judge_lines`).
`judge_source` says where the votes come from: `simulated` votes are drawn from
a documented model of correlated judges (shared per-candidate difficulty, a
skill and a leniency per judge; `rend_equiv_dataset.panels.judges`) and are
for power analysis only.

The verification signal at coverage c is "the first q = max(1, min(|T|,
floor(c*|T| + 0.5))) assertions pass"; it is computed from `assertions_passed`.

## Provenance

```json
{json.dumps(provenance, indent=2, sort_keys=True)}
```

## Counts

- records: {summary["n_records"]}, problems: {summary["n_problems"]}, k = {summary["k"]}
- by benchmark: {summary["by_benchmark"]}
- by solver: {summary["by_solver"]}
- by status: {summary["by_status"]}
- candidates whose code matches a danger pattern: {summary["danger_flagged"]}
- label base rate (share of candidates passing the full suite): {base_rate}

Problems excluded because their assertions could not be parsed:

{excluded}

## Signal accuracy by coverage (first q assertions, source order)

Runs with status `infra_error` ({summary["infra_errors"]} here) are left out: the sandbox did not run them.

{coverage}

## Signal accuracy, random assertion subsets (seeded)

{random_cov}

## Judges' reject rates

{_table(((j, f"{r:.4f}") for j, r in zip(provenance.get("judges", []), summary["judge_reject_rate"])), ("judge", "reject rate"))}

## Loading

```python
import datasets
records = datasets.load_dataset("path/to/this/folder", "{config_name(next(iter(summary["by_benchmark"]), "humaneval"))}", split="test")
```

Every config has one split, `test`.

## License

Each row carries a problem (its prompt and tests) from a published benchmark and keeps that
benchmark's licence:

{chr(10).join(f"- {line}" for line in license_lines) or "- none"}

The candidates, verdicts and records generated by the `rend-equiv` package are Apache-2.0.
"""
