"""One io home: atomic renames, temporary files, locks and JSON parsing live in ``io.py`` alone.

Every other module writes, locks and reads JSON through
:mod:`rend_equiv_dataset.io`, so every output gets the same atomicity and file
mode and every input the same limits. The check reads the syntax tree, so
code held in a string (a program generated for the sandbox) does not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "rend_equiv_dataset"

#: The calls that only io.py may make (module, function).
FORBIDDEN = {
    ("os", "replace"), ("os", "rename"), ("tempfile", "mkstemp"), ("tempfile", "NamedTemporaryFile"),
    ("fcntl", "flock"), ("fcntl", "lockf"), ("json", "loads"), ("json", "load"),
}

ALLOWED = {
    "io.py",  # the one home
    "panels/sandbox/_server.py",  # the standalone sandbox server runs without the package, so it keeps its own
}

#: Files being rewritten on other branches right now; each comes off this list when its rewrite is merged.
IN_FLIGHT = {
    "panels/sandbox/",  # the sandbox client is being rewritten
}


def _allowed(relative: str) -> bool:
    return relative in ALLOWED or any(relative == p or (p.endswith("/") and relative.startswith(p)) for p in IN_FLIGHT)


def forbidden_calls(source: str) -> list[tuple[int, str]]:
    """(line, ``module.function``) of each forbidden call or import in ``source``.

    >>> forbidden_calls("import os\\nos.replace('a', 'b')\\nx = 'json.loads(s)'\\n")
    [(2, 'os.replace')]
    >>> forbidden_calls("from json import loads as parse\\n")
    [(1, 'json.loads')]
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (node.value.id, node.attr) in FORBIDDEN:
            found.append((node.lineno, f"{node.value.id}.{node.attr}"))
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names if (node.module, a.name) in FORBIDDEN]
    return sorted(found)


def _modules() -> list[str]:
    return sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("relative", [m for m in _modules() if not _allowed(m)])
def test_only_io_renames_locks_and_parses_json(relative):
    calls = forbidden_calls((PACKAGE / relative).read_text(encoding="utf-8"))
    assert calls == [], f"{relative}: {calls}: write, lock and read JSON through rend_equiv_dataset.io"


def test_the_check_sees_each_forbidden_call():
    for module, function in sorted(FORBIDDEN):
        assert forbidden_calls(f"import {module}\n{module}.{function}(x)\n") == [(2, f"{module}.{function}")]
