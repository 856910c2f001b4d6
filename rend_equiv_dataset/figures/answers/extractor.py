"""An optional second reader: a language model asked, with one fixed prompt, which answer an output commits to.

``rend-equiv grade --extractor SPEC`` sends the outputs the rule reader
(:func:`~rend_equiv_dataset.figures.answers.parse.read_answer`) reads with low
confidence — or every output, on request — to a model, as VLMEvalKit does
with its LLM answer extractor. The model's reply is short (the answer alone,
or ``NONE``) and is read by the same rules, so its answer is compared with the
target exactly as the rule reader's is. Both readings and whether they agree
are written to the verdicts. Nothing here is needed to grade: the rules work
without a model.

``SPEC`` is one of:

- ``model:NAME`` — a local folder or cached Hub id, through the harness's
  transformers backend (``vllm:NAME`` for the vLLM backend);
- ``openai:URL`` or ``openai:URL#MODEL`` — any OpenAI-compatible
  ``/chat/completions`` endpoint (``URL`` is its base, e.g.
  ``http://127.0.0.1:8000/v1``); the key, if the server wants one, is read
  from the ``OPENAI_API_KEY`` environment variable.

>>> print(extraction_prompt("Exports fell to 30 from 42.", "What are the exports of Japan?", "number", ()))
... # doctest: +ELLIPSIS
You read a model's answer to a chart question and report the final answer it commits to.
...
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.io import parse_json

PROMPT = (
    "You read a model's answer to a chart question and report the final answer it commits to.\n"
    "Rules: report the value or label the response finally commits to, after any correction; "
    "numbers that describe other categories or periods are not the answer; "
    "if it gives several candidates without choosing, or no answer, reply NONE.\n"
    "Reply with the answer only ({kind}), no words around it.\n\n"
    "Question: {question}\n"
    "{labels}"
    "Response:\n<<<\n{output}\n>>>\n"
    "Final answer:"
)
"""The fixed extraction prompt (filled by :func:`extraction_prompt`)."""

MAX_OUTPUT_CHARS = 6000
"""Characters of an output shown to the extractor: its end, where answers are."""
MAX_NEW_TOKENS = 24
TIMEOUT_S = 60.0


def extraction_prompt(output: str, question: str | None, answer_type: str, labels: Sequence[str]) -> str:
    """The extraction prompt for one output (its last :data:`MAX_OUTPUT_CHARS` characters)."""
    kind = "a number, digits only" if answer_type == "number" else "one of the labels, as written"
    shown = output if len(output) <= MAX_OUTPUT_CHARS else "…" + output[-MAX_OUTPUT_CHARS:]
    listed = f"Labels: {', '.join(labels)}\n" if labels and answer_type == "label" else ""
    return PROMPT.format(kind=kind, question=question or "(not given)", labels=listed, output=shown)


class Extractor(Protocol):
    """Anything that answers a batch of extraction prompts, in order (``None`` where it failed)."""

    name: str

    def extract(self, prompts: Sequence[str]) -> list[str | None]: ...


@dataclass
class ModelExtractor:
    """A harness backend (transformers or vLLM) answering the prompts greedily."""

    name: str
    backend: str
    model: str

    def __post_init__(self) -> None:
        from rend_equiv_dataset.harness.backends import load_model

        self._model = load_model(self.backend, self.model)

    def extract(self, prompts: Sequence[str]) -> list[str | None]:
        from rend_equiv_dataset.harness.types import GenerationSettings, Request

        settings = GenerationSettings(max_new_tokens=MAX_NEW_TOKENS)
        requests = [Request(request_id=f"extract-{i}", text=prompt, settings=settings) for i, prompt in enumerate(prompts)]
        return [completion.text if completion.ok else None for completion in self._model.generate(requests)]


@dataclass
class OpenAIExtractor:
    """An OpenAI-compatible ``/chat/completions`` endpoint, called with plain urllib, temperature 0."""

    name: str
    url: str
    model: str

    def extract(self, prompts: Sequence[str]) -> list[str | None]:
        return [self._one(prompt) for prompt in prompts]

    def _one(self, prompt: str) -> str | None:
        body = {
            "model": self.model,
            "messages": [{"role": "user", "content": prompt}],
            "temperature": 0,
            "max_tokens": MAX_NEW_TOKENS,
        }
        headers = {"Content-Type": "application/json"}
        key = os.environ.get("OPENAI_API_KEY")
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(
            self.url.rstrip("/") + "/chat/completions", data=json.dumps(body).encode("utf-8"), headers=headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                reply = parse_json(response.read().decode("utf-8"), field="reply")
            content = reply["choices"][0]["message"]["content"]
        except (OSError, urllib.error.URLError, ValueError, InputError, KeyError, IndexError, TypeError):
            return None
        return content if isinstance(content, str) else None


def load_extractor(spec: str) -> Extractor:
    """The extractor a ``--extractor`` value names (see the module docstring); a bad value raises InputError."""
    kind, _, rest = spec.partition(":")
    if not rest:
        raise InputError(f"expected model:NAME, vllm:NAME or openai:URL[#MODEL], got {spec!r}", field="--extractor")
    if kind in ("model", "transformers"):
        return ModelExtractor(spec, "transformers", rest)
    if kind == "vllm":
        return ModelExtractor(spec, "vllm", rest)
    if kind == "openai":
        url, _, model = rest.partition("#")
        if not url.startswith(("http://", "https://")):
            raise InputError(f"expected an http(s) URL after openai:, got {url!r}", field="--extractor")
        return OpenAIExtractor(spec, url, model or "default")
    raise InputError(f"expected model:NAME, vllm:NAME or openai:URL[#MODEL], got {spec!r}", field="--extractor")


def is_none_reply(reply: str | None) -> bool:
    """Whether an extractor's reply says there is no answer (``NONE``) or is missing.

    >>> is_none_reply("NONE"), is_none_reply(" none."), is_none_reply("42")
    (True, True, False)
    """
    return reply is None or reply.strip().strip(".*`'\" ").upper() in ("NONE", "")
