"""The figure-reading run: a model over the ``renderings`` config into predictions (DESIGN §7.3).

For each rendering: the greedy answer to :func:`~rend_equiv_dataset.harness.prompts.figure_prompt`,
optionally K samples and the token log-probability, and with ``perturb`` the
greedy answers to the reworded prompts (paper §6, perturbation uncertainty).
Work is split over processes by :mod:`~rend_equiv_dataset.harness.sharding`,
stored and resumed by :mod:`~rend_equiv_dataset.harness.store`.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rend_equiv_dataset import __version__
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness import prompts
from rend_equiv_dataset.harness.provenance import dataset_fingerprint, model_revision, run_key
from rend_equiv_dataset.harness.renderings import decode_image, load_renderings
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


def check_model_argument(model: str, revision: str | None = None) -> None:
    """``--model`` must be a model folder, or a Hub model id that is cached or (online) exists.

    Checked before any work, in at most one request without retries: a typo
    fails at once instead of after the backend's retries, and leaves no
    ``.parts`` folder behind. With ``HF_HUB_OFFLINE`` set, a Hub id must be
    in the local cache.
    """
    from rend_equiv_dataset.io import echo

    if Path(model).expanduser().is_dir():
        return
    looks_like_path = model.startswith((".", "/", "~")) or model.count("/") > 1
    if looks_like_path:
        raise InputError(f"no model folder at {echo(model)}", field="--model")
    from huggingface_hub import HfApi, constants
    from huggingface_hub.errors import GatedRepoError, HFValidationError, RepositoryNotFoundError, RevisionNotFoundError
    from huggingface_hub.utils import validate_repo_id

    try:
        validate_repo_id(model)
    except HFValidationError:
        raise InputError(f"{echo(model)} is neither a model folder nor a Hub model id", field="--model") from None
    if (Path(constants.HF_HUB_CACHE) / f"models--{model.replace('/', '--')}").is_dir():
        return
    offline = constants.HF_HUB_OFFLINE or os.environ.get("HF_HUB_OFFLINE", "").upper() in {"1", "ON", "YES", "TRUE"}
    if offline:
        raise InputError(f"no model folder {echo(model)}, and the Hub model {echo(model)} is not in the local cache "
                         "(HF_HUB_OFFLINE is set)", field="--model")
    try:
        HfApi().model_info(model, revision=revision, timeout=10)
    except GatedRepoError:
        return
    except (RepositoryNotFoundError, RevisionNotFoundError):
        raise InputError(f"no model folder {echo(model)} and no such model on the Hub"
                         + (f" at revision {echo(revision)}" if revision else ""), field="--model") from None
    except Exception as err:  # no network: the Hub client raises its transport's own errors
        raise InputError(f"no model folder {echo(model)}, it is not in the local cache and the Hub cannot be reached "
                         f"({type(err).__name__}); pass a model folder", field="--model") from None


def run_figures(run: FigureRun) -> int:
    """Run (or resume) ``run``; returns the exit status."""
    check_model_argument(run.model, run.revision)
    ctx = process_context(run.shard)
    table = load_renderings(run.data)
    if run.limit is not None:
        table = table.select(range(min(run.limit, len(table))))
    all_ids: list[str] = list(table["render_id"])
    fields = run.key_fields()
    meta = {**fields, "dataset_fingerprint": dataset_fingerprint(run.data), "package_version": __version__}
    store = RunStore(run.out, meta=meta, key=run_key(fields))
    store.open(rank=ctx.rank)
    try:
        return _run_locked(run, ctx, table, all_ids, store)
    finally:
        store.close()


def _run_locked(run: FigureRun, ctx: ProcessContext, table: Any, all_ids: list[str], store: RunStore) -> int:
    mine = ctx.split(all_ids)
    done = store.done_ids(retry_errors=run.retry_errors)
    pending = [rid for rid in mine if rid not in done]
    if pending:
        options = dict(run.backend_options)
        model = _load(run, ctx, options)
        _answer(run, ctx, table, pending, len(mine), model, store)
    ctx.barrier()
    if run.shard is not None:
        print(f"shard {ctx.rank}/{ctx.world} done; merge with the same command without --shard", file=sys.stderr)
        return 0
    if not ctx.is_main:
        return 0
    return _report(store.merge(all_ids), run.out)


def _load(run: FigureRun, ctx: ProcessContext, options: dict[str, Any]) -> Model:
    from rend_equiv_dataset.harness.backends import load_model

    return load_model(
        run.backend, run.model, revision=run.revision, device=ctx.device, batch_size=run.batch_size, **options
    )


def _answer(
    run: FigureRun, ctx: ProcessContext, table: Any, pending: list[str], total: int, model: Model, store: RunStore
) -> None:
    from tqdm.auto import tqdm

    row_of = {rid: i for i, rid in enumerate(table["render_id"])}
    writer = store.writer(ctx.rank)
    started = time.perf_counter()
    bar = tqdm(total=total, initial=total - len(pending), desc=f"process {ctx.rank}", position=ctx.rank, unit="render")
    try:
        for chunk in _chunks(pending, run.batch_size):
            rows = table.select([row_of[rid] for rid in chunk])
            for record in _records(run, rows, model):
                writer.append(record)
                bar.update(1)
    finally:
        writer.close()
        bar.close()
    _print_speed(ctx, bar.n - (total - len(pending)), time.perf_counter() - started)


def _print_speed(ctx: ProcessContext, answered: int, seconds: float) -> None:
    """This process's answering speed (model loading excluded) and, on a GPU, its peak memory."""
    line = f"process {ctx.rank}: {answered} renderings in {seconds:.1f} s ({answered / max(seconds, 1e-9):.2f} renderings/s)"
    if ctx.device.startswith("cuda"):
        import torch

        line += f", peak GPU memory {torch.cuda.max_memory_allocated() / 2**30:.1f} GiB"
    print(line, file=sys.stderr)


def _chunks(items: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


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
        return {"render_id": rid, "error": {"class": failure.error_class, "message": failure.message}}
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
