"""The figure and perturbation prompts (paper §6) and their hash."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rend_equiv_dataset.harness import prompts


@given(st.text(min_size=1, max_size=80).filter(lambda q: "{" not in q and "}" not in q))
def test_perturbations_keep_the_question_verbatim_and_differ(question: str) -> None:
    reworded = prompts.perturbed_questions(question)
    assert len(reworded) == len(prompts.PERTURBATION_TEMPLATES) == 4
    assert all(question in p and p.endswith(prompts.ANSWER_INSTRUCTION) for p in reworded)
    assert len(set(reworded)) == len(reworded)
    assert prompts.figure_prompt(question) not in reworded


def test_template_hash_changes_with_any_template(monkeypatch) -> None:
    before = prompts.template_hash()
    assert prompts.template_hash() == before and prompts.template_hash("judge") != before
    monkeypatch.setattr(prompts, "PERTURBATION_TEMPLATES", ("Q: {question}",))
    assert prompts.template_hash() != before
    monkeypatch.undo()
    monkeypatch.setattr(prompts, "FIGURE_TEMPLATE", "{question}")
    assert prompts.template_hash() != before
