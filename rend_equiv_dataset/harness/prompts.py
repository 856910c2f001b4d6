"""Every prompt the figure-reading harness sends, in one place (paper §6).

The figure prompt asks the chart question and asks for a bare answer, so the
scorer's parser (DESIGN §3.5) sees a number or a label. The perturbation
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

ANSWER_INSTRUCTION = "Answer with a single number or a single label from the chart, and nothing else."

FIGURE_TEMPLATE = "{question}\n" + ANSWER_INSTRUCTION

# Answer-preserving rewordings: each frames the unchanged question.
PERTURBATION_TEMPLATES: tuple[str, ...] = (
    "Look at the chart. {question}",
    "Using only the figure shown, answer this question: {question}",
    "Question about the image: {question}",
    "{question} Read the answer off the chart.",
)


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
