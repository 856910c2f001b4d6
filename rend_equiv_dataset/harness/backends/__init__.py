"""Model backends, one module each, registered by name; :func:`load_model` picks one.

A backend is a module ``<name>_backend.py`` in this package whose class
implements :class:`~rend_equiv_dataset.harness.types.Model` and is decorated
with ``@register_backend("<name>")``. The names come from the module names,
so listing them (the ``--backend`` choices) imports no backend: a module is
imported only when chosen, so vLLM need not be installed to use transformers
and neither is imported by ``import rend_equiv_dataset``. A backend registered
from anywhere else (a plugin, a test) is listed too.

>>> [name for name in backend_names() if name in ("transformers", "vllm")]
['transformers', 'vllm']
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from rend_equiv_dataset.errors import InputError

if TYPE_CHECKING:
    from rend_equiv_dataset.harness.types import Model

SUFFIX = "_backend"
#: The settings every backend takes from the run itself; ``--model-arg`` sets the others.
RUN_SETTINGS = ("model", "revision", "device", "batch_size")

_REGISTERED: dict[str, type] = {}
T = TypeVar("T", bound=type)


def register_backend(name: str) -> Callable[[T], T]:
    """Class decorator: make the class a model backend called ``name``."""

    def register(cls: T) -> T:
        _REGISTERED[name] = cls
        return cls

    return register


def backend_names() -> list[str]:
    """Every backend's name: the modules of this package named ``<name>_backend`` and any registered elsewhere."""
    found = {m.name.removesuffix(SUFFIX) for m in pkgutil.iter_modules(__path__) if m.name.endswith(SUFFIX)}
    return sorted(found | set(_REGISTERED))


def backend_class(name: str) -> type:
    """The class of backend ``name``, importing its module if it is not registered yet."""
    if name not in backend_names():
        raise InputError(f"expected one of {backend_names()}, got {name!r}", field="--backend")
    if name not in _REGISTERED:
        importlib.import_module(f"{__name__}.{name}{SUFFIX}")
    if name not in _REGISTERED:
        raise InputError(f"module {name}{SUFFIX} registers no backend (decorate its class with @register_backend({name!r}))",
                         field="--backend")
    return _REGISTERED[name]


def backend_options(name: str) -> list[str]:
    """The settings of backend ``name`` that ``--model-arg KEY=VALUE`` may set (its constructor's other keywords)."""
    parameters = inspect.signature(backend_class(name)).parameters
    keywords = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [name for name, p in parameters.items() if name not in RUN_SETTINGS and p.kind in keywords]


def load_model(backend: str, model: str, *, options: Mapping[str, Any] | None = None, **run_settings: Any) -> Model:
    """Load ``model`` with ``backend``; bad names, unknown ``options`` and missing installs raise InputError.

    ``run_settings`` are the :data:`RUN_SETTINGS` the run decides;
    ``options`` the backend-specific ones a user gave as ``--model-arg``.
    """
    cls = backend_class(backend)
    options = dict(options or {})
    allowed = backend_options(backend)
    for key in options:
        if key not in allowed:
            raise InputError(f"backend {backend!r} has no setting {key!r}; it takes {allowed}", field="--model-arg")
    model_object: Model = cls(model, **run_settings, **options)
    return model_object
