"""Model harnesses: run VLMs over REND-EQUIV and LLMs as judges or solvers (docs/design.md §5).

The public surface is small: typed requests in, completions out
(:mod:`~rend_equiv_dataset.harness.types`), a backend chosen by name
(:func:`~rend_equiv_dataset.harness.backends.load_model`), and the resumable
store that every run writes through (:mod:`~rend_equiv_dataset.harness.store`).
Importing this package does not import torch, transformers or vLLM.

>>> from rend_equiv_dataset.harness import GenerationSettings, Request
>>> Request("r1", "Which bar is tallest?", settings=GenerationSettings(samples=8)).settings.samples
8
"""

from rend_equiv_dataset.harness.backends import backend_names, load_model, register_backend
from rend_equiv_dataset.harness.store import MergeResult, RunStore
from rend_equiv_dataset.harness.types import (
    Completion,
    ErrorInfo,
    GenerationSettings,
    Model,
    Request,
)

__all__ = [
    "Completion",
    "ErrorInfo",
    "GenerationSettings",
    "MergeResult",
    "Model",
    "Request",
    "RunStore",
    "backend_names",
    "load_model",
    "register_backend",
]
