"""Reading judge and solver replies: the first-line verdict parser, code extraction.

The prompts themselves are in :mod:`rend_equiv_dataset.harness.prompts` (every
prompt in one module); they are re-exported here.

Judges score a candidate blindly (paper §4): the prompt shows the problem
statement and the candidate code only — no tests, no execution results, no
solver identity — and asks for the verdict on the FIRST line of the reply.
:func:`parse_verdict` reads that line and nothing else.

Solvers get the problem prompt and return code; :func:`extract_code` takes the
code out of a free-form reply (a fenced block when there is one).

For power analysis without model calls, :func:`simulate_votes` draws correlated
judges (records say ``judge_source: simulated``).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rend_equiv_dataset.harness.prompts import JUDGE_TEMPLATE, SOLVER_TEMPLATE, build_judge_prompt, build_solver_prompt

__all__ = ["JUDGE_TEMPLATE", "SOLVER_TEMPLATE", "build_judge_prompt", "build_solver_prompt", "extract_code",
           "first_line", "parse_verdict", "simulate_votes"]


_VERDICT = re.compile(r"^[\s>*_#`\"'\[(]*(INCORRECT|CORRECT)\b", re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)


def parse_verdict(text: str) -> int | None:
    """Read the verdict from the first non-empty line: 1 CORRECT, 0 INCORRECT, None otherwise.

    Markdown decoration around the word (``**CORRECT**``, ``# INCORRECT``) is
    allowed; a first line that says anything else is unparseable (None) — the
    verdict is never searched for further down the reply.

    >>> parse_verdict("CORRECT\\nThe loop covers all cases.")
    1
    >>> parse_verdict("  **Incorrect** - off by one")
    0
    >>> parse_verdict("The code is CORRECT")
    >>> parse_verdict("")
    >>> parse_verdict("CORRECTNESS: unclear")
    """
    for line in text.splitlines():
        if line.strip():
            match = _VERDICT.match(line)
            if match is None:
                return None
            return 0 if match.group(1).upper() == "INCORRECT" else 1
    return None


def first_line(text: str) -> str:
    """The first non-empty line of a reply, stripped (stored as the judge's raw line).

    >>> first_line("\\n  CORRECT  \\nbecause")
    'CORRECT'
    """
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def extract_code(text: str) -> str:
    """The code in a solver reply: the first ```python block (or the first fenced
    block of any language), else the whole reply. An unclosed fence runs to the end.

    >>> extract_code("Here:\\n```python\\ndef f(x):\\n    return x\\n```\\nDone.")
    'def f(x):\\n    return x\\n'
    >>> extract_code("def g():\\n    return 1")
    'def g():\\n    return 1'
    """
    blocks = _FENCE.findall(text)
    if not blocks:
        return text
    for language, body in blocks:
        if language.lower() in {"python", "py", "python3"}:
            return body
    return blocks[0][1]


# --------------------------------------------------------------------------- simulated judges


@dataclass(frozen=True)
class SimulatedJudge:
    """A simulated judge: ``skill`` separates correct from buggy code, ``leniency`` shifts toward CORRECT."""

    name: str
    skill: float
    leniency: float


# Chosen so that a 9-judge panel has n_eff = k / (1 + (k-1) phi) ~= 2 on a balanced pool (the
# motivating "nine judges, two effective votes"), single judges are 75-87% accurate, and strict
# judges (negative leniency) outnumber lenient ones, as in the paper's panel (§5, Table 5).
DIFFICULTY_WEIGHT = 1.55
_SKILLS = (1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.1, 2.2)
_LENIENCIES = (-0.9, -0.6, -0.45, -0.3, -0.15, 0.0, 0.15, 0.3, -0.75)


def default_judges(k: int) -> list[SimulatedJudge]:
    """The first ``k`` of the documented simulated roster (k ≤ 9).

    >>> [j.name for j in default_judges(3)]
    ['sim-judge-1', 'sim-judge-2', 'sim-judge-3']
    """
    if not 1 <= k <= len(_SKILLS):
        raise ValueError(f"k must be in 1..{len(_SKILLS)}, got {k}")
    return [SimulatedJudge(f"sim-judge-{j + 1}", _SKILLS[j], _LENIENCIES[j]) for j in range(k)]


def simulate_votes(
    labels: Sequence[int],
    keys: Sequence[str],
    judges: Sequence[SimulatedJudge],
    *,
    seed: int = 0,
    difficulty_weight: float = DIFFICULTY_WEIGHT,
) -> np.ndarray:
    """Correlated judge votes (n × k, 1 = CORRECT) for power analysis.

    Each candidate i has a shared difficulty d_i ~ N(0, 1); judge j votes
    CORRECT iff  (2y_i − 1)(skill_j − w·d_i) + leniency_j + ε_ij > 0  with
    ε_ij ~ N(0, 1) independent. A hard candidate (large d_i) pulls every judge
    toward the wrong verdict at once — that shared term is what correlates their
    error vectors. Randomness is drawn per candidate from (seed, key), so a
    candidate's votes do not depend on the others.

    >>> votes = simulate_votes([1, 0, 1], ["a", "b", "c"], default_judges(7), seed=3)
    >>> votes.shape, set(votes.ravel().tolist()) <= {0, 1}
    ((3, 7), True)
    """
    if len(labels) != len(keys):
        raise ValueError("labels and keys must have the same length")
    skill = np.array([j.skill for j in judges])
    leniency = np.array([j.leniency for j in judges])
    votes = np.zeros((len(labels), len(judges)), dtype=np.int64)
    for i, (label, key) in enumerate(zip(labels, keys)):
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(zlib.crc32(key.encode()),))))
        difficulty = rng.standard_normal()
        noise = rng.standard_normal(len(judges))
        sign = 1.0 if label else -1.0
        votes[i] = (sign * (skill - difficulty_weight * difficulty) + leniency + noise > 0).astype(np.int64)
    return votes
