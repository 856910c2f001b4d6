"""The vLLM backend: offline ``LLM.chat`` with image inputs (docs/design.md §5).

vLLM is imported only when this backend is chosen; when it is missing the user
is told how to install it. Requests become OpenAI-style chat conversations
(images as PNG data URLs, then the text) and ``SamplingParams``:

- greedy: ``SamplingParams(n=1, temperature=0, logprobs=1)`` (logprobs only when asked);
- samples: ``SamplingParams(n=K, temperature=T, seed=request_seed(...))`` as a
  second prompt of the same conversation (paper §6: K=8, T=0.7).

Several GPUs: run one independent process per GPU, ``CUDA_VISIBLE_DEVICES=i
rend-equiv run ... --backend vllm --shard i/N``, then the same command without
``--shard`` to merge. Tensor parallelism (``--model-arg tensor_parallel=N``) is for
models that do not fit one GPU.

The request building (:func:`build_conversation`, :func:`build_sampling`) and
the output conversion (:func:`to_completion`) are plain functions, tested
without vLLM.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from typing import Any

from PIL.Image import Image

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness.backends import register_backend
from rend_equiv_dataset.harness.types import Completion, Request, request_seed

INSTALL_HINT = 'vLLM is not installed; on a CUDA machine run: pip install "rend-equiv[harness,vllm]"'


def image_data_url(image: Image) -> str:
    """A PNG data URL for one image (the OpenAI chat format vLLM reads)."""
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def build_conversation(request: Request) -> list[dict[str, Any]]:
    """The chat messages for one request: optional system turn, then images and text.

    >>> build_conversation(Request("r", "Hi?"))
    [{'role': 'user', 'content': [{'type': 'text', 'text': 'Hi?'}]}]
    """
    messages: list[dict[str, Any]] = []
    if request.system is not None:
        messages.append({"role": "system", "content": request.system})
    parts: list[dict[str, Any]] = [
        {"type": "image_url", "image_url": {"url": image_data_url(im)}} for im in request.images
    ]
    parts.append({"type": "text", "text": request.text})
    messages.append({"role": "user", "content": parts})
    return messages


def build_sampling(request: Request, sampling_params: Any) -> list[Any]:
    """``SamplingParams`` for one request: greedy first, then the K samples when asked.

    ``sampling_params`` is vLLM's ``SamplingParams`` class (a fake in tests).
    """
    s = request.settings
    params = [
        sampling_params(
            n=1, temperature=0.0, max_tokens=s.max_new_tokens, logprobs=1 if s.logprobs else None
        )
    ]
    if s.wants_samples:
        params.append(
            sampling_params(
                n=s.samples,
                temperature=s.temperature,
                top_p=1.0,
                top_k=-1,
                max_tokens=s.max_new_tokens,
                seed=request_seed(s.seed, request.request_id),
            )
        )
    return params


def sequence_logprob(completion: Any) -> float | None:
    """The summed log-probability of a vLLM ``CompletionOutput``'s chosen tokens."""
    token_logprobs = getattr(completion, "logprobs", None)
    if token_logprobs:
        return float(sum(step[tid].logprob for tid, step in zip(completion.token_ids, token_logprobs)))
    cumulative = getattr(completion, "cumulative_logprob", None)
    return None if cumulative is None else float(cumulative)


def to_completion(request: Request, greedy: Any, sampled: Any | None) -> Completion:
    """Convert vLLM ``RequestOutput`` objects (greedy, and samples or None) to a Completion."""
    first = greedy.outputs[0]
    logprob = sequence_logprob(first) if request.settings.logprobs else None
    if request.settings.logprobs and logprob is None:
        raise ValueError("vLLM returned no log-probabilities although logprobs=1 was requested")
    samples = None
    if request.settings.wants_samples:
        if sampled is None or len(sampled.outputs) != request.settings.samples:
            got = 0 if sampled is None else len(sampled.outputs)
            raise ValueError(f"expected {request.settings.samples} samples, vLLM returned {got}")
        samples = tuple(o.text for o in sampled.outputs)
    return Completion(first.text, logprob, samples)


@register_backend("vllm")
class VLLMModel:
    """A vLLM engine answering :class:`Request` batches."""

    backend = "vllm"

    def __init__(
        self,
        model: str,
        revision: str | None = None,
        device: str = "cuda",
        batch_size: int = 64,
        tensor_parallel: int = 1,
        max_model_len: int | None = None,
        images_per_prompt: int = 1,
        engine: Any = None,
        sampling_params: Any = None,
    ) -> None:
        if engine is None or sampling_params is None:
            try:
                import vllm
            except ImportError:
                raise InputError(INSTALL_HINT, field="--backend") from None
            sampling_params = vllm.SamplingParams
            options: dict[str, Any] = {"max_model_len": max_model_len} if max_model_len else {}
            if images_per_prompt:  # text-only models (judges, solvers) take no multimodal limits
                options["limit_mm_per_prompt"] = {"image": images_per_prompt}
            engine = vllm.LLM(
                model=model, revision=revision, tensor_parallel_size=tensor_parallel, seed=0, **options
            )
        self.llm = engine
        self.sampling_params = sampling_params
        self.batch_size = batch_size

    def generate(self, requests: Sequence[Request]) -> list[Completion]:
        """Answer every request; a failing batch is retried one request at a time."""
        out: list[Completion] = []
        for start in range(0, len(requests), self.batch_size):
            chunk = list(requests[start : start + self.batch_size])
            try:
                out += self._batch(chunk)
            except Exception:  # noqa: BLE001 - isolate the failing request(s)
                out += [self._single(r) for r in chunk]
        return out

    def _single(self, request: Request) -> Completion:
        try:
            return self._batch([request])[0]
        except Exception as err:  # noqa: BLE001 - recorded, the run goes on
            return Completion.failed(err)

    def _batch(self, chunk: list[Request]) -> list[Completion]:
        conversations: list[list[dict[str, Any]]] = []
        params: list[Any] = []
        owners: list[int] = []
        for i, request in enumerate(chunk):
            conversation = build_conversation(request)
            for p in build_sampling(request, self.sampling_params):
                conversations.append(conversation)
                params.append(p)
                owners.append(i)
        outputs = self.llm.chat(conversations, sampling_params=params, use_tqdm=False)
        per_request: list[list[Any]] = [[] for _ in chunk]
        for owner, output in zip(owners, outputs):
            per_request[owner].append(output)
        return [
            to_completion(r, outs[0], outs[1] if len(outs) > 1 else None)
            for r, outs in zip(chunk, per_request)
        ]
