"""One module per ``rend-equiv`` subcommand: ``HELP``, ``configure(parser)``, ``run(args)``.

Modules here import only the standard library at import time; the work, and
its heavy imports, happen inside ``run``. Option types shared by several
commands live here.
"""

from __future__ import annotations

import argparse
import os

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
