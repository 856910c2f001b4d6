"""Model backends, one module each; :func:`load_model` picks one by name.

A backend module is imported only when chosen, so vLLM need not be installed
to use transformers and neither is imported by ``import rend_equiv_dataset``.

>>> sorted(BACKENDS)
['transformers', 'vllm']
"""

from __future__ import annotations

import importlib
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness.types import Model

# name -> (module under this package, class)
BACKENDS: dict[str, tuple[str, str]] = {
    "transformers": ("transformers_backend", "TransformersModel"),
    "vllm": ("vllm_backend", "VLLMModel"),
}


def load_model(backend: str, model: str, **options: Any) -> Model:
    """Load ``model`` with ``backend``; bad names and missing installs raise InputError."""
    if backend not in BACKENDS:
        raise InputError(f"expected one of {sorted(BACKENDS)}, got {backend!r}", field="--backend")
    module_name, class_name = BACKENDS[backend]
    module = importlib.import_module(f"{__name__}.{module_name}")
    return getattr(module, class_name)(model, **options)
