"""Judge prompt, first-line verdict parser and code extraction."""

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.panels.judges import (
    build_judge_prompt,
    build_solver_prompt,
    extract_code,
    parse_verdict,
)

PROBLEM = SimpleNamespace(prompt="def inc(x):\n    '''Return x + 1.'''\n", entry_point="inc")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("CORRECT", 1),
        ("INCORRECT", 0),
        ("correct\nbut slow", 1),
        ("\n\n  Incorrect: fails on []", 0),
        ("**CORRECT**", 1),
        ("# INCORRECT", 0),
        ("Verdict: CORRECT", None),  # the verdict must open the first line
        ("I think it is INCORRECT", None),
        ("CORRECTLY handles it", None),
        ("", None),
        ("   \n  ", None),
        ("maybe\nCORRECT", None),  # later lines are never read
    ],
)
def test_parse_verdict_reads_only_the_first_line(text, expected):
    assert parse_verdict(text) == expected


@given(st.text())
def test_parse_verdict_never_crashes(text):
    assert parse_verdict(text) in (0, 1, None)


def test_judge_prompt_is_blind():
    code = "def inc(x):\n    return x + 1\n"
    text = build_judge_prompt(PROBLEM, code)
    assert PROBLEM.prompt.strip() in text and code.strip() in text
    assert "assert" not in text and "solver" not in text.lower()
    assert "FIRST line" in text and "CORRECT or INCORRECT" in text


def test_solver_prompt_names_the_entry_point():
    assert "`inc`" in build_solver_prompt(PROBLEM)
    assert PROBLEM.prompt.strip() in build_solver_prompt(PROBLEM)


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        ("```python\nx = 1\n```", "x = 1\n"),
        ("text\n```py\ny = 2\n```\n```python\nz = 3\n```", "y = 2\n"),
        ("```\nplain = 1\n```", "plain = 1\n"),
        ("```js\nvar a\n```\n```python\nb = 1\n```", "b = 1\n"),
        ("```python\nunclosed = 1\n", "unclosed = 1\n"),
        ("no fence at all", "no fence at all"),
    ],
)
def test_extract_code(reply, code):
    assert extract_code(reply) == code


# ----------------------------------------------------------------- simulated judges

import numpy as np  # noqa: E402

from rend_equiv_dataset.panels.judges import default_judges, simulate_votes  # noqa: E402


def _n_eff(votes, labels):
    errors = (votes != np.asarray(labels)[:, None]).astype(float)
    corr = np.corrcoef(errors.T)
    k = votes.shape[1]
    phi = corr[np.triu_indices(k, 1)].mean()
    return k / (1 + (k - 1) * phi)


def _pool(n, seed=0):
    rng = np.random.default_rng(seed)
    labels = (rng.random(n) < 0.5).astype(int).tolist()
    return labels, [f"cand-{i}" for i in range(n)]


def test_nine_simulated_judges_are_worth_about_two():
    labels, keys = _pool(6000)
    votes = simulate_votes(labels, keys, default_judges(9), seed=1)
    assert 1.7 < _n_eff(votes, labels) < 2.4
    accuracy = (votes == np.asarray(labels)[:, None]).mean(axis=0)
    assert accuracy.min() > 0.7 and accuracy.max() < 0.92


def test_errors_are_correlated_only_through_shared_difficulty():
    labels, keys = _pool(4000)
    independent = simulate_votes(labels, keys, default_judges(9), seed=1, difficulty_weight=0.0)
    assert _n_eff(independent, labels) > 7.0


def test_simulation_is_seeded_and_order_independent():
    labels, keys = _pool(50)
    votes = simulate_votes(labels, keys, default_judges(7), seed=4)
    again = simulate_votes(labels[::-1], keys[::-1], default_judges(7), seed=4)
    assert np.array_equal(votes, again[::-1])
    assert not np.array_equal(votes, simulate_votes(labels, keys, default_judges(7), seed=5))


def test_strict_judges_outnumber_lenient_ones():
    judges = default_judges(7)
    assert sum(j.leniency < 0 for j in judges) > sum(j.leniency > 0 for j in judges)
    with pytest.raises(ValueError):
        default_judges(0)
