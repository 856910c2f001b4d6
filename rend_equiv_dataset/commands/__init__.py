"""One module per ``rend-equiv`` subcommand: ``HELP``, ``configure(parser)``, ``run(args)``.

Modules here import only the standard library at import time; the work, and
its heavy imports, happen inside ``run``. Options shared by several commands
live here, once: the argparse types (every count is :func:`positive` or
:func:`non_negative`, checked by argparse, never by ``int`` and a test in
``run``) and the model options of every command that runs a model
(:func:`add_model_options`).
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Iterator, Sequence
from typing import Any

#: Largest seed accepted: every generator in use (numpy, torch) takes it.
MAX_SEED = 2**63 - 1


def seed(text: str) -> int:
    """An ``argparse`` type for seeds: an integer in [0, 2**63 - 1].

    >>> seed("7")
    7
    >>> seed("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected an integer from 0 to 9223372036854775807, got '-1'
    """
    stripped = text.strip()
    if not stripped.isdecimal() or len(stripped) > 19 or int(stripped) > MAX_SEED:
        raise argparse.ArgumentTypeError(f"expected an integer from 0 to {MAX_SEED}, got {text[:40]!r}")
    return int(stripped)


#: The modules of the ``harness`` extra that every model-running command needs.
HARNESS_MODULES = ("torch", "transformers")
HARNESS_INSTALL = 'pip install -e ".[harness]"'


def require_harness() -> None:
    """Refuse at once, in one line, when the ``harness`` extra (torch, transformers) cannot be imported.

    Raises :class:`~rend_equiv_dataset.errors.InputError` (exit status 2)
    naming the missing module and the install command.
    """
    import importlib

    from rend_equiv_dataset.errors import InputError

    for name in HARNESS_MODULES:
        try:
            importlib.import_module(name)
        except (ImportError, OSError) as err:
            raise InputError(f"this command runs a model and needs the harness extra, but {name} cannot be imported "
                             f"({str(err)[:120]}); install it with: {HARNESS_INSTALL}") from None


def count(text: str, minimum: int) -> int:
    """An integer of at least ``minimum``, or an ``argparse`` error naming what was found
    (the wording of ``build``'s :func:`~rend_equiv_dataset.commands.build.parse_count`)."""
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or value < minimum:
        raise argparse.ArgumentTypeError(f"expected an integer >= {minimum}, got {text[:40]!r}")
    return value


def positive(text: str) -> int:
    """An ``argparse`` type for counts of at least 1.

    >>> positive("3")
    3
    >>> positive("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected an integer >= 1, got '0'
    """
    return count(text, 1)


def non_negative(text: str) -> int:
    """An ``argparse`` type for counts of at least 0.

    >>> non_negative("x")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected an integer >= 0, got 'x'
    """
    return count(text, 0)


def default_workers() -> int:
    """One worker per core available to this process (the default of ``--workers`` and ``--jobs``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def non_negative_float(text: str) -> float:
    """An ``argparse`` type for a finite number of at least 0 (a temperature).

    >>> non_negative_float("0.7")
    0.7
    >>> non_negative_float("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a number >= 0, got '-1'
    """
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text[:40]!r}")
    return value


_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def model_arg(text: str) -> tuple[str, Any]:
    """An ``argparse`` type for ``--model-arg KEY=VALUE``; VALUE is an int, a float, true/false or null when it reads as one.

    >>> model_arg("tensor_parallel=2"), model_arg("dtype=bfloat16"), model_arg("eager=true"), model_arg("p=0.5")
    (('tensor_parallel', 2), ('dtype', 'bfloat16'), ('eager', True), ('p', 0.5))
    >>> model_arg("2")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected KEY=VALUE with KEY a Python name, got '2'
    """
    key, sep, value = text.partition("=")
    if not sep or not _KEY.match(key):
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE with KEY a Python name, got {text[:40]!r}")
    words: dict[str, Any] = {"true": True, "false": False, "null": None}
    if value in words:
        return key, words[value]
    for number in (int, float):
        try:
            parsed = number(value)
        except ValueError:
            continue
        if parsed == parsed and abs(parsed) != float("inf"):  # not nan, not inf: those stay text
            return key, parsed
    return key, value


def model_args(pairs: Sequence[tuple[str, Any]] | None) -> dict[str, Any]:
    """The ``--model-arg`` pairs as settings; a key given twice is an error (exit 2)."""
    from rend_equiv_dataset.errors import InputError

    settings: dict[str, Any] = {}
    for key, value in pairs or ():
        if key in settings:
            raise InputError(f"{key!r} given twice", field="--model-arg")
        settings[key] = value
    return settings


class _BackendNames(Sequence[str]):
    """The ``--backend`` choices, read from the backend registry only when argparse looks at them."""

    def _names(self) -> list[str]:
        from rend_equiv_dataset.harness.backends import backend_names

        return backend_names()

    def __getitem__(self, index: Any) -> Any:
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __contains__(self, name: object) -> bool:
        return name in self._names()


def add_model_options(parser: argparse.ArgumentParser, *, max_new_tokens: int, batch_size: int = 8,
                      model_help: str = "model folder or Hub id") -> None:
    """The options of every command that runs a model: which model, which backend and its settings, batch and length."""
    parser.add_argument("--model", required=True, help=model_help)
    parser.add_argument("--revision", default=None, help="Hub revision of --model")
    parser.add_argument("--backend", choices=_BackendNames(), default="transformers",
                        help="model backend (one module each under harness/backends/)")
    parser.add_argument("--model-arg", type=model_arg, action="append", default=None, metavar="KEY=VALUE",
                        help="a backend-specific setting, e.g. tensor_parallel=2 for vllm (repeatable)")
    parser.add_argument("--max-new-tokens", type=positive, default=max_new_tokens)
    parser.add_argument("--batch-size", type=positive, default=batch_size)
