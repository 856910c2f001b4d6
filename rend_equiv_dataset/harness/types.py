"""The narrow model interface: typed requests in, completions out (docs/design.md §5).

Every backend implements one method, :meth:`Model.generate`, over a batch of
:class:`Request` objects. A request carries zero or more images and one user
text (text-only requests serve the judges and solvers), plus its
:class:`GenerationSettings`. The backend answers each request with a
:class:`Completion`: the greedy text, and when asked, K sampled texts and the
greedy answer's token log-probability (paper §6: greedy answers; K=8 samples at
T=0.7; token logprob). A request the backend could not answer (out of memory,
a bad image) gets a completion with :attr:`Completion.error` set instead of a
text, so one bad rendering never stops a run.

>>> s = GenerationSettings(samples=8, temperature=0.7, logprobs=True)
>>> s.to_dict()["samples"], s.wants_samples
(8, True)
>>> Request("r1", "How tall is B?", settings=s).images
()
>>> Completion.failed(MemoryError("no room")).error
ErrorInfo(error_class='MemoryError', message='no room')
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from PIL.Image import Image

from rend_equiv_dataset.errors import InputError


@dataclass(frozen=True)
class GenerationSettings:
    """How to generate. The greedy answer is always produced (temperature 0).

    Attributes:
        max_new_tokens: cap on generated tokens per text.
        samples: K extra samples per request (0 = none); paper §6 uses K=8.
        temperature: sampling temperature for the K samples; paper §6 uses 0.7.
        logprobs: also return the greedy text's summed token log-probability.
        seed: seeds the samples; each request draws from ``(seed, request_id)``
            so samples do not depend on batching, process count or resumption.
    """

    max_new_tokens: int = 32
    samples: int = 0
    temperature: float = 0.7
    logprobs: bool = False
    seed: int = 0

    def __post_init__(self) -> None:
        if self.max_new_tokens < 1:
            raise InputError(f"must be >= 1, got {self.max_new_tokens}", field="--max-new-tokens")
        if self.samples < 0:
            raise InputError(f"must be >= 0, got {self.samples}", field="--samples")
        if self.samples and not self.temperature > 0:
            raise InputError(
                f"sampling needs a temperature > 0, got {self.temperature}", field="--temperature"
            )

    @property
    def wants_samples(self) -> bool:
        return self.samples > 0

    def greedy_only(self) -> GenerationSettings:
        """The same settings without samples or log-probabilities (perturbation prompts)."""
        return GenerationSettings(max_new_tokens=self.max_new_tokens, seed=self.seed)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Request:
    """One prompt for a model: user text plus images, in that order of the chat turn."""

    request_id: str
    text: str
    images: tuple[Image, ...] = ()
    settings: GenerationSettings = field(default_factory=GenerationSettings)
    system: str | None = None


@dataclass(frozen=True)
class ErrorInfo:
    """Why a request has no answer: the exception class and its message."""

    error_class: str
    message: str

    @classmethod
    def from_exception(cls, exc: BaseException) -> ErrorInfo:
        return cls(type(exc).__name__, str(exc)[:500])


@dataclass(frozen=True)
class Completion:
    """A model's answer to one request; exactly one of ``text`` and ``error`` is set."""

    text: str | None
    logprob: float | None = None
    samples: tuple[str, ...] | None = None
    error: ErrorInfo | None = None

    @classmethod
    def failed(cls, exc: BaseException) -> Completion:
        return cls(text=None, error=ErrorInfo.from_exception(exc))

    @property
    def ok(self) -> bool:
        return self.error is None


def request_seed(seed: int, request_id: str) -> int:
    """The sampling seed of one request: a hash of the run seed and the request id.

    >>> request_seed(0, "r1") == request_seed(0, "r1") != request_seed(1, "r1")
    True
    """
    digest = hashlib.sha256(f"{seed}\0{request_id}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def user_content(request: Request) -> list[dict[str, Any]]:
    """The user turn as chat content parts: one image part per image, then the text."""
    return [*({"type": "image"} for _ in request.images), {"type": "text", "text": request.text}]


class Model(Protocol):
    """What every backend provides."""

    backend: str

    def generate(self, requests: Sequence[Request]) -> list[Completion]:
        """Answer each request, in order; failures are per request, never raised."""
        ...
