"""Every prompt the package sends to a model, in one place.

- Figure reading (paper §6): :func:`figure_prompt` and the rewordings of
  :func:`perturbed_questions`;
- digitizing a chart into a table (the real-figure pilot): :data:`DIGITIZE_PROMPT`;
- code-judge panels: the blind judge prompt (:func:`build_judge_prompt`) and
  the solver prompt (:func:`build_solver_prompt`); their replies are read by
  :mod:`rend_equiv_dataset.panels.judges`.

The figure prompt asks the chart question and asks for a bare answer, so the
scorer's parser (docs/design.md §3.5) sees a number or a label. The perturbation
prompts are the question-rewording half of perturbation uncertainty (paper §6,
"mechanically reworded via verified, answer-preserving templates"): each one
only frames the original question — the question text itself is kept
verbatim, so the correct answer cannot change (checked by
:func:`perturbed_questions`). The rendering-style half of that baseline comes
from the K re-renderings that the release already holds.

Changing any text here changes :func:`template_hash`, which is part of every
run's resume key and of the predictions file's ``meta`` line, so outputs made
with different prompts are never mixed.

>>> figure_prompt("What is the value of B?")
'What is the value of B?\\nAnswer with a single number or a single label from the chart, and nothing else.'
>>> len(perturbed_questions("Which bar is tallest?")) == len(PERTURBATION_TEMPLATES)
True
>>> len(template_hash())
16
"""

from __future__ import annotations

import hashlib
import json
from typing import Protocol

ANSWER_INSTRUCTION = "Answer with a single number or a single label from the chart, and nothing else."

FIGURE_TEMPLATE = "{question}\n" + ANSWER_INSTRUCTION

# Answer-preserving rewordings: each frames the unchanged question.
PERTURBATION_TEMPLATES: tuple[str, ...] = (
    "Look at the chart. {question}",
    "Using only the figure shown, answer this question: {question}",
    "Question about the image: {question}",
    "{question} Read the answer off the chart.",
)


DIGITIZE_PROMPT = (
    "Transcribe the data of this chart as a table. Answer with the table only, in this format:\n"
    "TITLE: <the chart title>\n"
    "| <category axis title> | <series 1 name (unit)> | <series 2 name (unit)> |\n"
    "| --- | --- | --- |\n"
    "| <category 1> | <number> | <number> |\n"
    "One row per category (bar, slice, x tick or point), one column per series, "
    "numbers without units in the cells; put units in the header in parentheses."
)


class _HasPrompt(Protocol):
    @property
    def prompt(self) -> str: ...

    @property
    def entry_point(self) -> str: ...


JUDGE_TEMPLATE = """\
You are reviewing a candidate solution to a programming problem.
Decide whether the code is a correct and complete solution for every valid input.
You cannot run the code.

Answer format: the FIRST line of your reply must be exactly one word,
CORRECT or INCORRECT. You may explain your reasoning after that line.

## Problem

{problem}

## Candidate solution

```python
{code}
```
"""

SOLVER_TEMPLATE = """\
Complete the following Python function `{entry_point}`.
Return the whole function (with any imports and helpers it needs) in one
```python fenced block, and nothing that runs at import time besides definitions.

```python
{prompt}
```
"""


def figure_prompt(question: str) -> str:
    """The prompt for one rendering's question (the greedy, sampled and logprob runs)."""
    return FIGURE_TEMPLATE.format(question=question)


def perturbed_questions(question: str) -> list[str]:
    """The reworded prompts for perturbation uncertainty, one per template.

    Each contains the original question verbatim (the answer-preservation check).
    """
    prompts = [figure_prompt(t.format(question=question)) for t in PERTURBATION_TEMPLATES]
    for prompt in prompts:
        if question not in prompt:  # a template that dropped the question is a bug here
            raise RuntimeError(f"perturbation template lost the question: {prompt!r}")
    return prompts


def template_hash(*extra: str) -> str:
    """A short hash of every template in use (plus ``extra`` texts, e.g. a judge prompt)."""
    payload = json.dumps([FIGURE_TEMPLATE, list(PERTURBATION_TEMPLATES), list(extra)])
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def prompt_hash(*texts: str) -> str:
    """A short hash of one run's prompt template(s), for its resume key.

    >>> prompt_hash(JUDGE_TEMPLATE) == prompt_hash(JUDGE_TEMPLATE) != prompt_hash(SOLVER_TEMPLATE)
    True
    """
    return hashlib.sha256("".join(texts).encode()).hexdigest()[:16]


def build_judge_prompt(problem: _HasPrompt, code: str) -> str:
    """The blind judge prompt: problem statement and code only (paper §4).

    >>> from types import SimpleNamespace
    >>> p = SimpleNamespace(prompt="def f(x):\\n    '''Return x + 1.'''\\n", entry_point="f")
    >>> text = build_judge_prompt(p, "def f(x):\\n    return x + 1\\n")
    >>> "FIRST line" in text and "return x + 1" in text and "assert" not in text
    True
    """
    return JUDGE_TEMPLATE.format(problem=problem.prompt.strip("\n"), code=code.strip("\n"))


def build_solver_prompt(problem: _HasPrompt) -> str:
    """The solver prompt: the problem's prompt (signature and docstring).

    >>> from types import SimpleNamespace
    >>> p = SimpleNamespace(prompt="def f(x):\\n    '''Return x + 1.'''\\n", entry_point="f")
    >>> "`f`" in build_solver_prompt(p)
    True
    """
    return SOLVER_TEMPLATE.format(entry_point=problem.entry_point, prompt=problem.prompt.strip("\n"))
