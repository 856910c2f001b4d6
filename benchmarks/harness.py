"""How fast the harness answers, against the naive way, in one run.

Batching: the tiny offline VLM answering 32 renderings in batches of 8 (left
padding, one ``generate`` per batch) against one request at a time (the naive
loop). The tiny model is dominated by per-call overhead, so this measures the
harness's batching on CPU, not a real model's arithmetic (scripts/gpu_check.sh
measures renderings/second of a 7B-sized model on a GPU).

Run from the repository root: ``PYTHONPATH=. python benchmarks/harness.py``;
prints times and the ratio.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from PIL import Image

from rend_equiv_dataset.harness.backends.transformers_backend import TransformersModel
from rend_equiv_dataset.harness.tiny import build_tiny_model
from rend_equiv_dataset.harness.types import GenerationSettings, Request


def _timed(fn, repeats: int = 3) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def bench_batching(tmp: Path) -> None:
    folder = build_tiny_model(tmp / "tiny", kind="vlm")
    settings = GenerationSettings(max_new_tokens=8)
    requests = [
        Request(f"r{i}", f"What is the value of item {i:02d}?", (Image.new("RGB", (64, 48), (i * 7, 90, 160)),), settings)
        for i in range(32)
    ]
    batched, single = TransformersModel(str(folder), batch_size=8), TransformersModel(str(folder), batch_size=1)
    batched.generate(requests[:8])  # warm-up
    t_batched = _timed(lambda: batched.generate(requests))
    t_single = _timed(lambda: single.generate(requests))
    print(f"batching: 32 renderings, batch 8 {t_batched:.3f} s vs one at a time {t_single:.3f} s "
          f"-> {t_single / t_batched:.1f}x")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bench_batching(Path(tmp))


if __name__ == "__main__":
    main()
