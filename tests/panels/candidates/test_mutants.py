"""Mutation operators and the offline candidate pool."""

import ast

import pytest

from rend_equiv_dataset.panels.candidates.mutants import (
    BUG_OPERATORS,
    REWRITE_OPERATORS,
    apply_operator,
    count_sites,
    mutation_pool,
)
from rend_equiv_dataset.panels.problems import load_humaneval

SOURCE = '''\
def helper(v):
    return v < 0


def score(xs, limit):
    """Sum the positives below limit."""
    total = 0
    found = False
    for i in range(len(xs)):
        if xs[i] > 0 and xs[i] < limit:
            total += xs[i] * 2
            found = True
        else:
            total = total - 1
    if not found:
        return -1
    return total == limit
'''


def _run(code, *args):
    namespace = {}
    exec(code, namespace)
    return namespace["score"](*args)


@pytest.mark.parametrize(
    ("operator", "site", "needle"),
    [
        ("boundary_flip", 0, "xs[i] >= 0"),
        ("comparison_flip", 0, "xs[i] < 0 and"),
        ("off_by_one", 0, "total = 1"),
        ("arithmetic_swap", 0, "total -= xs[i] * 2"),
        ("wrong_return", 0, "return not total == limit"),
        ("dropped_branch", 0, "    for i in range(len(xs)):\n        total = total - 1"),
        ("wrong_initial_value", 0, "total = 1"),
        ("swap_comparison", 0, "0 < xs[i]"),
        ("invert_if", 0, "if not (xs[i] > 0 and xs[i] < limit):"),
        ("rename_local", 0, "total_value = 0"),
    ],
)
def test_each_operator_changes_the_entry_function_only(operator, site, needle):
    mutated = apply_operator(SOURCE, "score", operator, site)
    assert mutated is not None and needle in mutated, mutated
    assert "def helper(v):\n    return v < 0" in mutated  # helpers are never mutated
    ast.parse(mutated)


@pytest.mark.parametrize("operator", REWRITE_OPERATORS)
def test_rewrites_preserve_behaviour(operator):
    for site in range(count_sites(SOURCE, "score", operator)):
        rewritten = apply_operator(SOURCE, "score", operator, site)
        for args in ([[1, 2, 3], 5], [[-1, 0], 3], [[4, 4], 16], [[], 0]):
            assert _run(rewritten, *args) == _run(SOURCE, *args)


def test_docstring_is_not_a_site_and_missing_sites_are_none():
    assert apply_operator(SOURCE, "score", "invert_if", 99) is None
    assert apply_operator(SOURCE, "nope", "boundary_flip", 0) is None
    assert all(count_sites("def f():\n    '''x < 1'''\n    return None\n", "f", op) == 0
               for op in ("boundary_flip", "comparison_flip"))


def test_pool_is_seeded_distinct_and_records_operators():
    pool = mutation_pool("P/1", SOURCE, "score", size=7, correct=3, seed=11)
    assert pool == mutation_pool("P/1", SOURCE, "score", size=7, correct=3, seed=11)
    assert pool != mutation_pool("P/1", SOURCE, "score", size=7, correct=3, seed=12)
    assert [c.solver for c in pool] == ["canonical", "rewrite", "rewrite", "mutant", "mutant", "mutant", "mutant"]
    assert len({c.code for c in pool}) == 7 and len({c.candidate_id for c in pool}) == 7
    for candidate in pool[1:]:
        kind, op = candidate.operator.split(":")
        assert op in (REWRITE_OPERATORS if kind == "rewrite" else BUG_OPERATORS)


def test_humaneval_pools_parse_and_mix_correct_and_buggy():
    problems = load_humaneval().problems[:20]
    pools = [mutation_pool(p.problem_id, p.prompt + p.canonical_solution, p.entry_point, seed=0) for p in problems]
    for pool in pools:
        for candidate in pool:
            ast.parse(candidate.code)
    solvers = [c.solver for pool in pools for c in pool]
    assert solvers.count("mutant") > solvers.count("canonical") > 0 and "rewrite" in solvers
