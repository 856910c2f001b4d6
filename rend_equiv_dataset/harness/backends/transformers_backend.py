"""The transformers backend: ``AutoModelForImageTextToText`` + ``AutoProcessor`` (docs/design.md §5).

Chat templates build the prompts, requests are batched with left padding, the
model runs on CPU or one GPU (the device Accelerate assigns to this process).
Text-only models (judges, solvers) load as ``AutoModelForCausalLM`` with their
tokenizer through the same :class:`TransformersModel`.

- Greedy answer: ``do_sample=False``.
- Token log-probability: the sum of the greedy tokens' log-probabilities
  (``compute_transition_scores``, normalised logits), up to and including EOS.
- K samples (paper §6: K=8, T=0.7): plain temperature sampling (top-k and
  top-p off), one request at a time with torch's generator seeded from
  :func:`~rend_equiv_dataset.harness.types.request_seed`, so a rendering's
  samples do not depend on batching, the number of processes or resumption.
  (transformers samples from torch's global generator; it is seeded right
  before each call.)

A batch that fails (out of memory, an image the processor rejects) is split
and retried until the failure is isolated to single requests, which get a
failed :class:`~rend_equiv_dataset.harness.types.Completion`; the rest of the
run goes on.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness.backends import register_backend
from rend_equiv_dataset.harness.types import (
    Completion,
    GenerationSettings,
    Request,
    request_seed,
    user_content,
)


@register_backend("transformers")
class TransformersModel:
    """A Hugging Face model answering :class:`Request` batches.

    Args:
        model: a local folder or a Hub id (already in the local cache when offline).
        revision: the Hub revision; ``None`` for the default.
        device: ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.
        batch_size: requests per forward batch.
    """

    backend = "transformers"

    def __init__(
        self, model: str, revision: str | None = None, device: str = "cpu", batch_size: int = 8
    ) -> None:
        import torch
        import transformers as tf

        if batch_size < 1:
            raise InputError(f"must be >= 1, got {batch_size}", field="--batch-size")
        self.batch_size = batch_size
        self.device = device
        self._torch = torch
        try:
            config = tf.AutoConfig.from_pretrained(model, revision=revision)
        except (OSError, ValueError) as err:
            raise InputError(f"cannot load a model config from {model!r}: {err}", field="--model") from None
        self.vision = type(config) in tf.MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING
        dtype = torch.bfloat16 if device.startswith("cuda") else torch.float32
        if self.vision:
            self.processor = tf.AutoProcessor.from_pretrained(model, revision=revision)
            self.tokenizer = self.processor.tokenizer
            auto_model: Any = tf.AutoModelForImageTextToText
        else:
            self.tokenizer = tf.AutoTokenizer.from_pretrained(model, revision=revision)
            self.processor = self.tokenizer
            auto_model = tf.AutoModelForCausalLM
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token_id is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        placement = {"device_map": device} if device.startswith("cuda") else {}  # load straight onto the GPU
        loaded = auto_model.from_pretrained(model, revision=revision, dtype=dtype, **placement)
        self.model = (loaded if placement else loaded.to(device)).eval()
        self._eos = _eos_ids(self.model, self.tokenizer)

    # -- the interface ----------------------------------------------------------
    def generate(self, requests: Sequence[Request]) -> list[Completion]:
        """Answer every request, in order; failures come back per request."""
        results: list[Completion | None] = [None] * len(requests)
        groups: dict[GenerationSettings, list[int]] = {}
        for i, request in enumerate(requests):
            groups.setdefault(request.settings, []).append(i)
        for indices in groups.values():
            for start in range(0, len(indices), self.batch_size):
                chunk = indices[start : start + self.batch_size]
                for i, done in zip(chunk, self._isolated([requests[i] for i in chunk])):
                    results[i] = done
        return [r for r in results if r is not None]

    def _isolated(self, chunk: list[Request]) -> list[Completion]:
        """Run a batch; on failure split it until the failing requests are alone."""
        try:
            return self._batch(chunk)
        except Exception as err:  # noqa: BLE001 - recorded per request, the run goes on
            if _is_oom(err) and self.device.startswith("cuda"):
                self._torch.cuda.empty_cache()
            if len(chunk) == 1:
                return [Completion.failed(err)]
            half = len(chunk) // 2
            return self._isolated(chunk[:half]) + self._isolated(chunk[half:])

    # -- one batch ----------------------------------------------------------------
    def _batch(self, chunk: list[Request]) -> list[Completion]:
        settings = chunk[0].settings
        inputs = self._encode(chunk)
        torch = self._torch
        with torch.inference_mode():
            out = self.model.generate(
                **inputs,
                do_sample=False,
                max_new_tokens=settings.max_new_tokens,
                output_scores=settings.logprobs,
                return_dict_in_generate=True,
                pad_token_id=self.tokenizer.pad_token_id,
            )
        new_tokens = out.sequences[:, inputs["input_ids"].shape[1] :]
        texts = self.tokenizer.batch_decode(new_tokens, skip_special_tokens=True)
        logprobs = self._logprobs(out, new_tokens) if settings.logprobs else [None] * len(chunk)
        samples = [self._samples(r) if settings.wants_samples else None for r in chunk]
        return [Completion(t, lp, s) for t, lp, s in zip(texts, logprobs, samples)]

    def _encode(self, chunk: list[Request]) -> Any:
        prompts = [self._prompt(r) for r in chunk]
        if self.vision:
            images = [list(r.images) for r in chunk] if any(r.images for r in chunk) else None
            enc = self.processor(text=prompts, images=images, padding=True, return_tensors="pt")
        else:
            if any(r.images for r in chunk):
                raise ValueError("this model is text-only; the request carries images")
            enc = self.tokenizer(prompts, padding=True, return_tensors="pt", add_special_tokens=False)
        return enc.to(self.device)

    def _prompt(self, request: Request) -> str:
        messages: list[dict[str, Any]] = []
        if request.system is not None:
            messages.append({"role": "system", "content": request.system})
        content: Any = user_content(request) if self.vision else request.text
        messages.append({"role": "user", "content": content})
        if getattr(self.processor, "chat_template", None) is None:
            if self.vision:
                raise ValueError("the processor has no chat template")
            return "\n\n".join(m["content"] for m in messages) + "\n"
        return str(self.processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False))

    def _logprobs(self, out: Any, new_tokens: Any) -> list[float]:
        """Sum of the greedy tokens' log-probabilities, up to and including EOS."""
        torch = self._torch
        scores = self.model.compute_transition_scores(out.sequences, out.scores, normalize_logits=True)
        is_eos = torch.isin(new_tokens, torch.tensor(self._eos, device=new_tokens.device))
        after_eos = (torch.cumsum(is_eos.int(), dim=1) - is_eos.int()) > 0
        scores = scores.float().masked_fill(after_eos, 0.0)
        return [float(v) for v in scores.sum(dim=1).cpu()]

    def _samples(self, request: Request) -> tuple[str, ...]:
        settings = request.settings
        inputs = self._encode([request])
        torch = self._torch
        torch.manual_seed(request_seed(settings.seed, request.request_id))
        with torch.inference_mode():
            seqs = self.model.generate(
                **inputs,
                do_sample=True,
                temperature=settings.temperature,
                top_k=0,
                top_p=1.0,
                num_return_sequences=settings.samples,
                max_new_tokens=settings.max_new_tokens,
                pad_token_id=self.tokenizer.pad_token_id,
            )
        new = seqs[:, inputs["input_ids"].shape[1] :]
        return tuple(self.tokenizer.batch_decode(new, skip_special_tokens=True))


def _eos_ids(model: Any, tokenizer: Any) -> list[int]:
    eos = model.generation_config.eos_token_id
    if eos is None:
        eos = tokenizer.eos_token_id
    ids = eos if isinstance(eos, list) else [eos]
    return [int(i) for i in ids if i is not None]


def _is_oom(err: BaseException) -> bool:
    return "out of memory" in str(err).lower() or type(err).__name__ == "OutOfMemoryError"


def model_exists_locally(model: str) -> bool:
    """True when ``model`` names an existing folder (otherwise it is treated as a Hub id)."""
    return os.path.isdir(os.path.expanduser(model))
