"""The figure-reading run: a model over the ``renderings`` config into predictions (docs/design.md §7.3).

For each rendering: the greedy answer to :func:`~rend_equiv_dataset.harness.prompts.figure_prompt`,
optionally K samples and the token log-probability, and with ``perturb`` the
greedy answers to the reworded prompts (paper §6, perturbation uncertainty).
Work is split over processes by :mod:`~rend_equiv_dataset.harness.sharding`,
stored and resumed by :mod:`~rend_equiv_dataset.harness.store`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rend_equiv_dataset import __version__
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness import prompts
from rend_equiv_dataset.harness.provenance import dataset_fingerprint, model_revision, run_key
from rend_equiv_dataset.figures.release.read import decode_image, load_rendering_images
from rend_equiv_dataset.harness.resumable import check_model_argument, error_record, run_resumable
from rend_equiv_dataset.harness.sharding import ProcessContext, process_context
from rend_equiv_dataset.harness.store import MergeResult, RunStore
from rend_equiv_dataset.harness.types import Completion, ErrorInfo, GenerationSettings, Model, Request


@dataclass(frozen=True)
class FigureRun:
    """Everything a figure-reading run is told (parsed once from the command line)."""

    data: Path
    model: str
    out: Path
    backend: str = "transformers"
    revision: str | None = None
    settings: GenerationSettings = GenerationSettings()
    perturb: bool = False
    limit: int | None = None
    batch_size: int = 8
    retry_errors: bool = False
    shard: tuple[int, int] | None = None
    backend_options: tuple[tuple[str, Any], ...] = ()

    def model_revision(self) -> str:
        """See :func:`~rend_equiv_dataset.harness.provenance.model_revision`."""
        return model_revision(self.model, self.revision)

    def key_fields(self) -> dict[str, Any]:
        """What decides a record's content: the run key hashes exactly these."""
        return {
            "model": self.model,
            "revision": self.model_revision(),
            "backend": self.backend,
            "prompt_template_hash": prompts.template_hash(),
            "generation": {**self.settings.to_dict(), "perturb": self.perturb},
        }


def _renderings(data_dir: Path) -> Any:
    if not data_dir.is_dir():
        raise InputError("is not a folder", file=data_dir, field="--data")
    try:
        return load_rendering_images(data_dir)
    except InputError as err:
        raise InputError(f"{err.message}; build a release with `rend-equiv build`", file=err.file or data_dir,
                         line=err.line, field=err.field or "--data") from None


def run_figures(run: FigureRun) -> int:
    """Run (or resume) ``run``; returns the exit status."""
    check_model_argument(run.model, run.revision)
    ctx = process_context(run.shard)
    table = _renderings(Path(run.data))
    if run.limit is not None:
        table = table.select(range(min(run.limit, len(table))))
    all_ids: list[str] = list(table["render_id"])
    row_of = {rid: i for i, rid in enumerate(all_ids)}
    fields = run.key_fields()
    meta = {**fields, "dataset_fingerprint": dataset_fingerprint(run.data), "package_version": __version__}
    store = RunStore(run.out, meta=meta, key=run_key(fields))

    def answer(model: Model, batch: list[str]) -> list[dict[str, Any]]:
        return _records(run, table.select([row_of[rid] for rid in batch]), model)

    result = run_resumable(store, all_ids, answer, load_model=lambda: _load(run, ctx, dict(run.backend_options)),
                           ctx=ctx, batch_size=run.batch_size, retry_errors=run.retry_errors,
                           merge=run.shard is None, unit="render")
    if result.answered:
        _print_speed(ctx, result.answered, result.seconds)
    if run.shard is not None:
        print(f"shard {ctx.rank}/{ctx.world} done; merge with the same command without --shard", file=sys.stderr)
        return 0
    if result.merged is None:
        return 0
    return _report(result.merged, run.out)


def _load(run: FigureRun, ctx: ProcessContext, options: dict[str, Any]) -> Model:
    from rend_equiv_dataset.harness.backends import load_model

    return load_model(run.backend, run.model, options=options, revision=run.revision, device=ctx.device, batch_size=run.batch_size)


def _print_speed(ctx: ProcessContext, answered: int, seconds: float) -> None:
    """This process's answering speed (model loading excluded) and, on a GPU, its peak memory."""
    line = f"process {ctx.rank}: {answered} renderings in {seconds:.1f} s ({answered / max(seconds, 1e-9):.2f} renderings/s)"
    if ctx.device.startswith("cuda"):
        import torch

        line += f", peak GPU memory {torch.cuda.max_memory_allocated() / 2**30:.1f} GiB"
    print(line, file=sys.stderr)


def _records(run: FigureRun, rows: Any, model: Model) -> list[dict[str, Any]]:
    """Ask the model about a batch of rows; one record (answer or error) per row."""
    requests: list[Request] = []
    owner: list[int] = []
    failed: dict[int, ErrorInfo] = {}
    for i, row in enumerate(rows):
        try:
            image = decode_image(row["image"])
        except Exception as err:  # noqa: BLE001 - a bad image fails its rendering only
            failed[i] = ErrorInfo.from_exception(err)
            continue
        for request in _requests_for(run, row, image):
            requests.append(request)
            owner.append(i)
    answers: dict[int, list[Completion]] = {}
    for i, completion in zip(owner, model.generate(requests)):
        answers.setdefault(i, []).append(completion)
    return [
        _record(run, row["render_id"], failed.get(i), answers.get(i, [])) for i, row in enumerate(rows)
    ]


def _requests_for(run: FigureRun, row: dict[str, Any], image: Any) -> list[Request]:
    rid = row["render_id"]
    out = [Request(rid, prompts.figure_prompt(row["question"]), (image,), run.settings)]
    if run.perturb:
        greedy = run.settings.greedy_only()
        out += [
            Request(f"{rid}#p{j}", text, (image,), greedy)
            for j, text in enumerate(prompts.perturbed_questions(row["question"]))
        ]
    return out


def _record(run: FigureRun, rid: str, failure: ErrorInfo | None, done: list[Completion]) -> dict[str, Any]:
    failure = failure or next((c.error for c in done if c.error is not None), None)
    if failure is not None:
        return error_record("render_id", rid, failure)
    main, perturbed = done[0], done[1:]
    record: dict[str, Any] = {"render_id": rid, "output": main.text}
    if run.settings.logprobs:
        record["logprob"] = main.logprob
    if run.settings.wants_samples:
        record["samples"] = list(main.samples or ())
    if run.perturb:
        record["perturbed"] = [c.text for c in perturbed]
    return record


def _report(result: MergeResult, out: Path) -> int:
    print(f"{result.answered} renderings answered -> {out}", file=sys.stderr)
    if result.errors:
        print(
            f"{len(result.errors)} renderings failed (see {result.errors_path}); "
            "rerun with --retry-errors to try them again",
            file=sys.stderr,
        )
    if result.missing:
        print(f"{len(result.missing)} renderings not yet answered; rerun to finish", file=sys.stderr)
        return 1
    return 0
