"""Offline candidate pools: mutants and equivalent rewrites of canonical solutions.

Without a solver harness, candidates come from the canonical solutions
(docs/design.md §4.1): realistic bug operators applied once each via ``ast`` —

============================  =============================================
operator                      change
============================  =============================================
``boundary_flip``             ``<`` ↔ ``<=``, ``>`` ↔ ``>=``
``comparison_flip``           ``==`` ↔ ``!=``, ``<`` ↔ ``>``, ``in`` ↔ ``not in``
``off_by_one``                an integer literal k → k + 1 or k − 1
``arithmetic_swap``           ``+`` ↔ ``-``, ``*`` ↔ ``+``, ``/`` ↔ ``//``, ``%`` ↔ ``//``
``wrong_return``              ``return True`` ↔ ``return False``; ``return cond`` → ``return not cond``
``dropped_branch``            an ``if`` without ``else`` is removed; with ``else`` only the else stays
``wrong_initial_value``       ``x = 0`` → ``x = 1`` (and 1 → 0, ``True`` ↔ ``False``, ``''`` → ``' '``)
============================  =============================================

— and semantically equivalent rewrites of the correct solution, so the pool is
not all-buggy: ``swap_comparison`` (``a < b`` → ``b > a`` on side-effect-free
operands), ``invert_if`` (``if c: A else: B`` → ``if not c: B else: A``),
``rename_local`` (a local variable renamed consistently). The original canonical
solution is in the pool as ``canonical``. All code is normalised by
``ast.unparse`` so style does not give the mutants away. Mutation sites are
inside the entry-point function only (helpers from the prompt are kept).
Choices are seeded per problem, so a problem's pool does not depend on which
other problems are built. A mutant may turn out equivalent: the label always
comes from execution, never from the operator.
"""

from __future__ import annotations

import ast
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads only where mutants are drawn, not when a candidates file is read
    import numpy as np

BUG_OPERATORS = ("boundary_flip", "comparison_flip", "off_by_one", "arithmetic_swap", "wrong_return",
                 "dropped_branch", "wrong_initial_value")
REWRITE_OPERATORS = ("swap_comparison", "invert_if", "rename_local")

_BOUNDARY = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
_COMPARISON = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.In: ast.NotIn,
               ast.NotIn: ast.In, ast.LtE: ast.GtE, ast.GtE: ast.LtE}
_ARITHMETIC = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.Div: ast.FloorDiv,
               ast.FloorDiv: ast.Div, ast.Mod: ast.FloorDiv}
_MIRROR = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE, ast.Eq: ast.Eq, ast.NotEq: ast.NotEq}


@dataclass(frozen=True)
class Candidate:
    """One candidate solution; ``operator`` says how it was made ("" for solver output)."""

    problem_id: str
    candidate_id: str
    solver: str
    code: str
    operator: str = ""


# ------------------------------------------------------------------ sites


def _entry(module: ast.Module, entry_point: str) -> ast.FunctionDef | None:
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == entry_point:
            return node  # type: ignore[return-value]
    return None


def _body_nodes(func: ast.FunctionDef) -> Iterator[ast.AST]:
    body = func.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]  # skip the docstring
    for stmt in body:
        yield from ast.walk(stmt)


def _pure(node: ast.AST) -> bool:
    return all(isinstance(n, (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Load, ast.Slice,
                              ast.UnaryOp, ast.USub, ast.BinOp, ast.operator)) for n in ast.walk(node))


def _int_constant(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


# each site function: node -> list of mutated-in-place actions (callables applying one change)
Action = Callable[[], None]


def _sites(operator: str, func: ast.FunctionDef) -> list[tuple[ast.AST, int]]:
    """(node, variant) pairs where ``operator`` applies, in a stable walk order."""
    sites: list[tuple[ast.AST, int]] = []
    parents = {child: node for node in ast.walk(func) for child in ast.iter_child_nodes(node)}
    for node in _body_nodes(func):
        if operator == "boundary_flip" and isinstance(node, ast.Compare):
            sites += [(node, i) for i, op in enumerate(node.ops) if type(op) in _BOUNDARY]
        elif operator in ("comparison_flip",) and isinstance(node, ast.Compare):
            sites += [(node, i) for i, op in enumerate(node.ops) if type(op) in _COMPARISON]
        elif operator == "off_by_one" and _int_constant(node) and not isinstance(parents.get(node), ast.UnaryOp):
            sites += [(node, 0), (node, 1)]
        elif operator == "arithmetic_swap" and isinstance(node, (ast.BinOp, ast.AugAssign)) \
                and type(node.op) in _ARITHMETIC:
            sites.append((node, 0))
        elif operator == "wrong_return" and isinstance(node, ast.Return) and node.value is not None:
            value = node.value
            if (isinstance(value, ast.Constant) and type(value.value) is bool) or isinstance(
                    value, (ast.Compare, ast.BoolOp)) or (isinstance(value, ast.UnaryOp)
                                                          and isinstance(value.op, ast.Not)):
                sites.append((node, 0))
        elif operator == "dropped_branch" and isinstance(node, ast.If):
            sites.append((node, 0))
        elif operator == "wrong_initial_value" and isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                and (type(node.value.value) in (int, bool) or node.value.value == ""):
            sites.append((node, 0))
        elif operator == "swap_comparison" and isinstance(node, ast.Compare) and len(node.ops) == 1 \
                and type(node.ops[0]) in _MIRROR and _pure(node.left) and _pure(node.comparators[0]):
            sites.append((node, 0))
        elif operator == "invert_if" and isinstance(node, ast.If) and node.orelse:
            sites.append((node, 0))
    if operator == "rename_local":
        sites += [(func, i) for i, _ in enumerate(_locals(func))]
    return sites


def _locals(func: ast.FunctionDef) -> list[str]:
    params = {a.arg for a in func.args.args + func.args.kwonlyargs + func.args.posonlyargs}
    declared = {n for node in ast.walk(func) if isinstance(node, (ast.Global, ast.Nonlocal)) for n in node.names}
    nested = any(isinstance(n, (ast.FunctionDef, ast.Lambda, ast.ClassDef, ast.AsyncFunctionDef))
                 for stmt in func.body for n in ast.walk(stmt))
    if nested or any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in {"locals", "eval", "exec", "vars"}
                     for n in ast.walk(func)):
        return []
    stored = []
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id not in params | declared:
            if node.id not in stored:
                stored.append(node.id)
    return stored


def _apply(operator: str, node: ast.AST, variant: int, func: ast.FunctionDef, parents: dict) -> None:
    if operator == "boundary_flip":
        node.ops[variant] = _BOUNDARY[type(node.ops[variant])]()  # type: ignore[attr-defined]
    elif operator == "comparison_flip":
        node.ops[variant] = _COMPARISON[type(node.ops[variant])]()  # type: ignore[attr-defined]
    elif operator == "off_by_one":
        node.value += 1 if variant == 0 else -1  # type: ignore[attr-defined]
    elif operator == "arithmetic_swap":
        node.op = _ARITHMETIC[type(node.op)]()  # type: ignore[attr-defined]
    elif operator == "wrong_return":
        value = node.value  # type: ignore[attr-defined]
        if isinstance(value, ast.Constant):
            value.value = not value.value
        elif isinstance(value, ast.UnaryOp):
            node.value = value.operand  # type: ignore[attr-defined]
        else:
            node.value = ast.UnaryOp(ast.Not(), value)  # type: ignore[attr-defined]
    elif operator == "dropped_branch":
        assert isinstance(node, ast.stmt)  # a branch with an else is a statement (if, for, while)
        replacement = node.orelse or [ast.Pass()]  # type: ignore[attr-defined]
        _replace_stmt(parents[node], node, replacement)
    elif operator == "wrong_initial_value":
        value = node.value.value  # type: ignore[attr-defined]
        node.value.value = (not value) if type(value) is bool else (" " if value == "" else (0 if value == 1 else value + 1))  # type: ignore[attr-defined]
    elif operator == "swap_comparison":
        node.left, node.comparators = node.comparators[0], [node.left]  # type: ignore[attr-defined]
        node.ops = [_MIRROR[type(node.ops[0])]()]  # type: ignore[attr-defined]
    elif operator == "invert_if":
        node.test = ast.UnaryOp(ast.Not(), node.test)  # type: ignore[attr-defined]
        node.body, node.orelse = node.orelse, node.body  # type: ignore[attr-defined]
    elif operator == "rename_local":
        old = _locals(func)[variant]
        taken = {n.id for n in ast.walk(func) if isinstance(n, ast.Name)} | {a.arg for a in func.args.args}
        new = next(f"{old}_{i}" if i else f"{old}_value" for i in range(1000) if (f"{old}_{i}" if i else f"{old}_value") not in taken)
        for sub in ast.walk(func):
            if isinstance(sub, ast.Name) and sub.id == old:
                sub.id = new
    else:
        raise ValueError(f"unknown operator {operator!r}")


def _replace_stmt(parent: ast.AST, old: ast.stmt, new: list[ast.stmt]) -> None:
    for name in ("body", "orelse", "finalbody"):
        block = getattr(parent, name, None)
        if isinstance(block, list) and any(s is old for s in block):
            index = next(i for i, s in enumerate(block) if s is old)
            block[index:index + 1] = new
            return
    for handler in getattr(parent, "handlers", []):
        if any(s is old for s in handler.body):
            _replace_stmt(handler, old, new)
            return


def apply_operator(code: str, entry_point: str, operator: str, site: int) -> str | None:
    """The code with ``operator`` applied at its ``site``-th site; None when there is no such site.

    >>> src = "def f(x):\\n    if x < 3:\\n        return True\\n    return False\\n"
    >>> print(apply_operator(src, "f", "boundary_flip", 0), end="")
    def f(x):
        if x <= 3:
            return True
        return False
    >>> print(apply_operator(src, "f", "invert_if", 0))
    None
    """
    module = ast.parse(code)
    func = _entry(module, entry_point)
    if func is None:
        return None
    sites = _sites(operator, func)
    if site >= len(sites):
        return None
    node, variant = sites[site]
    parents = {child: parent for parent in ast.walk(func) for child in ast.iter_child_nodes(parent)}
    _apply(operator, node, variant, func, parents)
    result = ast.unparse(ast.fix_missing_locations(module)) + "\n"
    return None if result == ast.unparse(ast.parse(code)) + "\n" else result


def count_sites(code: str, entry_point: str, operator: str) -> int:
    """How many places ``operator`` can change in the entry-point function."""
    func = _entry(ast.parse(code), entry_point)
    return 0 if func is None else len(_sites(operator, func))


def problem_rng(seed: int, problem_id: str) -> np.random.Generator:
    """One generator per (seed, problem): pools do not depend on the other problems."""
    import numpy as np

    key = (zlib.crc32(problem_id.encode()),)
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


def mutation_pool(problem_id: str, code: str, entry_point: str, *, size: int = 7, correct: int = 3,
                  seed: int = 0) -> list[Candidate]:
    """``size`` candidates: ``canonical``, then up to ``correct − 1`` rewrites, then bug mutants.

    Operators are drawn uniformly among those with a site, then a site uniformly
    (seeded per problem); no two candidates share code. Fewer than ``size`` come
    back when the function has too few distinct mutation sites.

    >>> src = "def f(xs):\\n    total = 0\\n    for x in xs:\\n        if x > 0:\\n            total += x\\n    return total\\n"
    >>> pool = mutation_pool("P/1", src, "f", size=5, correct=2, seed=0)
    >>> [c.solver for c in pool]
    ['canonical', 'rewrite', 'mutant', 'mutant', 'mutant']
    >>> pool == mutation_pool("P/1", src, "f", size=5, correct=2, seed=0)
    True
    """
    rng = problem_rng(seed, problem_id)
    base = ast.unparse(ast.parse(code)) + "\n"
    pool = [Candidate(problem_id, f"{problem_id}#c0", "canonical", base, "canonical")]
    seen = {base}
    plan = [("rewrite", REWRITE_OPERATORS, max(0, correct - 1)), ("mutant", BUG_OPERATORS, size - max(1, correct))]
    for kind, operators, wanted in plan:
        options = [(op, s) for op in operators for s in range(count_sites(code, entry_point, op))]
        by_op: dict[str, list[int]] = {}
        for op, s in options:
            by_op.setdefault(op, []).append(s)
        made = 0
        while made < wanted and by_op:
            op = sorted(by_op)[int(rng.integers(len(by_op)))]
            sites = by_op[op]
            s = sites.pop(int(rng.integers(len(sites))))
            if not sites:
                del by_op[op]
            new = apply_operator(code, entry_point, op, s)
            if new is None or new in seen:
                continue
            seen.add(new)
            pool.append(Candidate(problem_id, f"{problem_id}#c{len(pool)}", kind, new, f"{kind}:{op}"))
            made += 1
    return pool[:size]
