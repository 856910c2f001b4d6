"""Lazy public names for a package's ``__init__`` (PEP 562): one rule for every curated API.

A package lists ``name -> module`` and sets ``__getattr__ = lazy_getattr(__name__, EXPORTS)``;
the module is imported when the name is first touched, and the name is then
kept in the package, so later lookups skip the hook. A module written without
a dot is relative to the package.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_getattr(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """The module-level ``__getattr__`` of ``package`` that loads each name of ``exports`` on first use.

    >>> getter = lazy_getattr("rend_equiv_dataset", {"seed_of": "nowhere"})
    >>> getter("missing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'rend_equiv_dataset' has no attribute 'missing'
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module if "." in module else f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
