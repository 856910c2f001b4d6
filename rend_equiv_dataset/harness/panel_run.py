"""LLM judges and solvers over code problems (pivotal-vote-panels.md §4), resumable.

- Solvers: the problem's prompt (:func:`~rend_equiv_dataset.panels.judges.build_solver_prompt`),
  temperature 0 (0.2 on LiveCodeBench in the paper: ``--temperature 0.2``);
  the reply's code (:func:`~rend_equiv_dataset.panels.judges.extract_code`)
  becomes a candidate line ``problem_id, candidate_id, solver, code`` that
  ``panel exec`` / ``panel build --candidates`` read.
- Judges: the blind prompt (problem and code only,
  :func:`~rend_equiv_dataset.panels.judges.build_judge_prompt`) at
  temperature 0; the reply becomes a verdict line ``candidate_id, judge,
  response`` whose first line ``panel build --judges`` parses. One file per
  judge model; concatenate them for a panel.

The prompts live with every other prompt in :mod:`rend_equiv_dataset.harness.prompts`
and the replies are read by :mod:`rend_equiv_dataset.panels.judges`; this module runs them with the same interface, sharding and resume
store as the figure run. The inputs' fingerprint is part of the run key, so
verdicts on changed candidates are never reused.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rend_equiv_dataset import __version__
from rend_equiv_dataset.harness.provenance import model_revision, run_key
from rend_equiv_dataset.harness import prompts
from rend_equiv_dataset.harness.resumable import check_model_argument, error_record, run_resumable
from rend_equiv_dataset.harness.sharding import ProcessContext, process_context
from rend_equiv_dataset.harness.store import RunStore
from rend_equiv_dataset.harness.types import Completion, GenerationSettings, Model, Request


@dataclass(frozen=True)
class TextJob:
    """One prompt to send; ``fields`` go into its output line."""

    job_id: str
    prompt: str
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class PanelRun:
    """A judge or solver run, parsed once from the command line."""

    kind: str  # "judge" or "solve"
    model: str
    name: str
    out: Path
    backend: str = "transformers"
    revision: str | None = None
    temperature: float = 0.0
    max_new_tokens: int = 256
    seed: int = 0
    batch_size: int = 8
    retry_errors: bool = False
    shard: tuple[int, int] | None = None
    backend_options: tuple[tuple[str, Any], ...] = ()  # ``--model-arg`` settings

    def settings(self) -> GenerationSettings:
        """Greedy at temperature 0; otherwise one sample at ``temperature`` (its text is the reply)."""
        samples = 1 if self.temperature > 0 else 0
        return GenerationSettings(self.max_new_tokens, samples, self.temperature, False, self.seed)

    def reply(self, completion: Completion) -> str:
        if self.temperature > 0:
            return (completion.samples or ("",))[0]
        return completion.text or ""


def inputs_fingerprint(*paths_or_specs: str) -> str:
    """sha256 of the input files' bytes (a spec like ``humaneval`` is hashed as text)."""
    digest = hashlib.sha256()
    for item in paths_or_specs:
        path = Path(item)
        digest.update(path.read_bytes() if path.is_file() else item.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def run_text_jobs(
    run: PanelRun,
    jobs: list[TextJob],
    id_field: str,
    template: str,
    inputs: str,
    to_record: Callable[[TextJob, str], dict[str, Any]],
) -> int:
    """Answer every job (resuming), then merge the output ordered by id; returns the exit status."""
    check_model_argument(run.model, run.revision)
    ctx = process_context(run.shard)
    revision = model_revision(run.model, run.revision)
    fields = {
        "kind": run.kind,
        "model": run.model,
        "name": run.name,
        "revision": revision,
        "backend": run.backend,
        "prompt_template_hash": prompts.prompt_hash(template),
        "generation": run.settings().to_dict(),
        "inputs_fingerprint": inputs,
    }
    store = RunStore(run.out, {**fields, "package_version": __version__}, run_key(fields), id_field, inline_meta=False)
    by_id = {job.job_id: job for job in jobs}
    settings = run.settings()

    def answer(model: Model, batch: list[str]) -> list[dict[str, Any]]:
        chunk = [by_id[jid] for jid in batch]
        replies = model.generate([Request(j.job_id, j.prompt, (), settings) for j in chunk])
        return [_record(run, id_field, job, reply, to_record) for job, reply in zip(chunk, replies)]

    result = run_resumable(store, list(by_id), answer, load_model=lambda: _load(run, ctx), ctx=ctx,
                           batch_size=run.batch_size, retry_errors=run.retry_errors, merge=run.shard is None)
    if result.merged is None:
        return 0
    print(f"{result.merged.answered} {run.kind} replies -> {run.out}", file=sys.stderr)
    if result.merged.errors:
        print(f"{len(result.merged.errors)} failed (see {result.merged.errors_path}); rerun with --retry-errors",
              file=sys.stderr)
    return 0


def _load(run: PanelRun, ctx: ProcessContext) -> Model:
    from rend_equiv_dataset.harness.backends import load_model

    options = {"images_per_prompt": 0} if run.backend == "vllm" else {}  # text-only prompts
    return load_model(run.backend, run.model, options={**options, **dict(run.backend_options)}, revision=run.revision,
                      device=ctx.device, batch_size=run.batch_size)


def _record(
    run: PanelRun, id_field: str, job: TextJob, answer: Completion, to_record: Callable[[TextJob, str], dict[str, Any]]
) -> dict[str, Any]:
    if answer.error is not None:
        return error_record(id_field, job.job_id, answer.error)
    return to_record(job, run.reply(answer))
