"""Which renderings this process answers (docs/design.md §5: data parallelism).

Two ways to run several processes:

- under ``accelerate launch`` (transformers backend): :func:`process_context`
  builds an Accelerate ``PartialState`` (``cpu=True`` when there is no GPU, so
  ``--multi_gpu --num_processes N`` works on CPU) and the ids are split with
  ``split_between_processes``;
- independent processes, one per GPU (vLLM): ``--shard I/N`` picks the same
  contiguous slice with :func:`shard_slice`, no communication at all.

Either way the *full*, ordered id list is split, never the list of pending
ids: a process's share does not depend on what other processes have already
written, so no two processes can answer the same id, whatever the number of
processes in this run or the last one.

>>> shard_slice(["a", "b", "c", "d", "e"], index=0, count=2)
['a', 'b', 'c']
>>> shard_slice(["a", "b", "c", "d", "e"], index=1, count=2)
['d', 'e']
>>> parse_shard("1/4")
(1, 4)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from rend_equiv_dataset.errors import InputError

T = TypeVar("T")


def shard_slice(items: Sequence[T], index: int, count: int) -> list[T]:
    """Contiguous slice ``index`` of ``count``, sizes differing by at most one.

    The same split as Accelerate's ``split_between_processes``.
    """
    base, extra = divmod(len(items), count)
    start = index * base + min(index, extra)
    return list(items[start : start + base + (1 if index < extra else 0)])


def parse_shard(text: str) -> tuple[int, int]:
    """Parse ``I/N`` (0 <= I < N) for ``--shard``."""
    try:
        index, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise InputError(f"expected I/N such as 0/4, got {text!r}", field="--shard") from None
    if not 0 <= index < count:
        raise InputError(f"expected 0 <= I < N, got {text!r}", field="--shard")
    return index, count


@dataclass
class ProcessContext:
    """This process's place in the run."""

    rank: int
    world: int
    device: str
    split: Callable[[list[str]], list[str]]
    barrier: Callable[[], None]

    @property
    def is_main(self) -> bool:
        return self.rank == 0


def _no_barrier() -> None:
    return None


def launched_by_accelerate() -> bool:
    """True inside ``accelerate launch`` / ``torchrun`` with more than one process."""
    return int(os.environ.get("WORLD_SIZE", "1")) > 1


def process_context(shard: tuple[int, int] | None = None) -> ProcessContext:
    """The context for this process: Accelerate's, a fixed ``--shard``, or a single process."""
    if shard is not None:
        index, count = shard
        device = _default_device()
        return ProcessContext(
            index, count, device, lambda ids: shard_slice(ids, index, count), _no_barrier
        )
    if launched_by_accelerate():
        return _accelerate_context()
    return ProcessContext(0, 1, _default_device(), list, _no_barrier)


def single_process(device: str = "cpu") -> ProcessContext:
    """A one-process context that imports nothing (a run that never shards, or a test)."""
    return ProcessContext(0, 1, device, list, _no_barrier)


def _default_device() -> str:
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def _accelerate_context() -> ProcessContext:
    import torch
    from accelerate import PartialState

    state = PartialState(cpu=not torch.cuda.is_available())

    def split(ids: list[str]) -> list[str]:
        with state.split_between_processes(ids) as mine:
            return list(mine)

    return ProcessContext(
        state.process_index, state.num_processes, str(state.device), split, state.wait_for_everyone
    )


