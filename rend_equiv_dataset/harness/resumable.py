"""The model-run skeleton every harness shares: figure runs, judge and solver runs, digitization.

A run is a list of ids, a resumable :class:`~rend_equiv_dataset.harness.store.RunStore`
and a way to answer a batch of ids with a model. :func:`run_resumable` does
the rest, the same way for every kind of run: open the store (taking this
process's lock), keep this process's share of the ids that are not done yet,
load the model only when some are pending, answer them in batches with one
store line per id (an error is a line too, :func:`error_record`), then wait
for the other processes and merge on the main one.

>>> import tempfile, pathlib
>>> from rend_equiv_dataset.harness.sharding import single_process
>>> from rend_equiv_dataset.harness.store import RunStore
>>> store = RunStore(pathlib.Path(tempfile.mkdtemp()) / "out.jsonl", meta={"model": "echo"}, key="k")
>>> answer = lambda model, ids: [{"render_id": i, "output": model(i)} for i in ids]
>>> result = run_resumable(store, ["b", "a"], answer, load_model=lambda: str.upper, ctx=single_process())
>>> result.answered, result.merged.complete, store.out.read_text().splitlines()[1]
(2, True, '{"render_id": "a", "output": "A"}')
>>> run_resumable(store, ["b", "a"], answer, load_model=lambda: 1 / 0, ctx=single_process()).answered   # all done
0
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rend_equiv_dataset.errors import InputError

from rend_equiv_dataset.harness.sharding import ProcessContext
from rend_equiv_dataset.harness.store import MergeResult, RunStore
from rend_equiv_dataset.harness.types import ErrorInfo

M = TypeVar("M")


@dataclass(frozen=True)
class RunResult:
    """What one process did: how many ids it answered, in how many seconds, and the merge (main process)."""

    answered: int
    seconds: float
    merged: MergeResult | None


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


def error_record(id_field: str, job_id: str, error: ErrorInfo, prefix: str = "") -> dict[str, Any]:
    """The store line of an id that has no answer (kept, so a rerun skips it unless it retries errors).

    >>> error_record("image", "a.png", ErrorInfo("OSError", "truncated"), prefix="image: ")
    {'image': 'a.png', 'error': {'class': 'OSError', 'message': 'image: truncated'}}
    """
    return {id_field: job_id, "error": {"class": error.error_class, "message": prefix + error.message}}


def batches(items: Sequence[str], size: int) -> Iterator[list[str]]:
    """Consecutive batches of at most ``size`` items."""
    for start in range(0, len(items), size):
        yield list(items[start : start + size])


def run_resumable(
    store: RunStore,
    ids: Sequence[str],
    answer: Callable[[M, list[str]], Iterable[dict[str, Any]]],
    *,
    load_model: Callable[[], M],
    ctx: ProcessContext,
    batch_size: int = 8,
    retry_errors: bool = False,
    merge: bool = True,
    progress: str = "process",
    unit: str = "it",
) -> RunResult:
    """Answer every id of this process that the store does not hold yet, then merge on the main process.

    ``answer(model, batch)`` returns one store record per id of the batch (an
    answer or an :func:`error_record`). ``merge=False`` (a fixed ``--shard``)
    leaves the merge to a later run without a shard.
    """
    from tqdm.auto import tqdm

    store.open(rank=ctx.rank)
    try:
        mine = ctx.split(list(ids))
        done = store.done_ids(retry_errors=retry_errors)
        pending = [i for i in mine if i not in done]
        answered, started = 0, time.perf_counter()
        if pending:
            model = load_model()
            started = time.perf_counter()
            writer = store.writer(ctx.rank)
            bar = tqdm(total=len(mine), initial=len(mine) - len(pending), desc=f"{progress} {ctx.rank}",
                       position=ctx.rank, unit=unit)
            try:
                for batch in batches(pending, batch_size):
                    for record in answer(model, batch):
                        writer.append(record)
                        answered += 1
                        bar.update(1)
            finally:
                writer.close()
                bar.close()
        seconds = time.perf_counter() - started
        ctx.barrier()
        merged = store.merge(list(ids)) if merge and ctx.is_main else None
        return RunResult(answered, seconds, merged)
    finally:
        store.close()
