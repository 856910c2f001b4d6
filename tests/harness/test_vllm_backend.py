"""vLLM request building and output conversion, with fakes (vLLM is GPU-only)."""

from __future__ import annotations

import base64
import importlib.util
import io
from dataclasses import dataclass, field
from typing import Any

import pytest
from PIL import Image

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness.backends.vllm_backend import (
    INSTALL_HINT,
    VLLMModel,
    build_conversation,
    build_sampling,
    to_completion,
)
from rend_equiv_dataset.harness.types import GenerationSettings, Request, request_seed

HAS_VLLM = importlib.util.find_spec("vllm") is not None


class FakeSamplingParams:
    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = kwargs


@dataclass
class FakeLogprob:
    logprob: float


@dataclass
class FakeCompletionOutput:
    text: str
    token_ids: list[int] = field(default_factory=list)
    logprobs: list[dict[int, FakeLogprob]] | None = None
    cumulative_logprob: float | None = None


@dataclass
class FakeRequestOutput:
    outputs: list[FakeCompletionOutput]


class FakeLLM:
    """Answers greedy prompts with the conversation's text reversed, samples with numbered copies."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.calls: list[tuple[list, list]] = []
        self.fail_on = fail_on

    def chat(self, conversations: list, sampling_params: list, use_tqdm: bool) -> list[FakeRequestOutput]:
        self.calls.append((conversations, sampling_params))
        outs = []
        for conv, params in zip(conversations, sampling_params):
            text = conv[-1]["content"][-1]["text"]
            if self.fail_on is not None and self.fail_on in text:
                raise RuntimeError("engine failed on this prompt")
            n = params.kwargs["n"]
            if n == 1 and params.kwargs["temperature"] == 0.0:
                lp = [{5: FakeLogprob(-0.5)}, {7: FakeLogprob(-0.25)}] if params.kwargs["logprobs"] else None
                outs.append(FakeRequestOutput([FakeCompletionOutput(text[::-1], [5, 7], lp)]))
            else:
                outs.append(FakeRequestOutput([FakeCompletionOutput(f"{text}-{i}") for i in range(n)]))
        return outs


def _image() -> Image.Image:
    return Image.new("RGB", (8, 6), (10, 20, 30))


def test_conversation_puts_images_as_png_data_urls_before_the_text() -> None:
    request = Request("r1", "What is B?", (_image(),), system="Be brief.")
    messages = build_conversation(request)
    assert messages[0] == {"role": "system", "content": "Be brief."}
    image_part, text_part = messages[1]["content"]
    assert text_part == {"type": "text", "text": "What is B?"}
    url = image_part["image_url"]["url"]
    assert image_part["type"] == "image_url" and url.startswith("data:image/png;base64,")
    decoded = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert decoded.size == (8, 6) and decoded.getpixel((0, 0)) == (10, 20, 30)


def test_greedy_only_sampling_params() -> None:
    (greedy,) = build_sampling(Request("r", "q", settings=GenerationSettings(max_new_tokens=9)), FakeSamplingParams)
    assert greedy.kwargs == {"n": 1, "temperature": 0.0, "max_tokens": 9, "logprobs": None}


def test_samples_and_logprobs_sampling_params() -> None:
    settings = GenerationSettings(samples=8, temperature=0.7, logprobs=True, seed=3)
    greedy, sampled = build_sampling(Request("r", "q", settings=settings), FakeSamplingParams)
    assert greedy.kwargs["logprobs"] == 1 and greedy.kwargs["n"] == 1
    assert sampled.kwargs["n"] == 8 and sampled.kwargs["temperature"] == 0.7
    assert sampled.kwargs["seed"] == request_seed(3, "r")


def test_conversion_sums_chosen_token_logprobs() -> None:
    settings = GenerationSettings(logprobs=True)
    out = FakeRequestOutput([FakeCompletionOutput("12", [5, 7], [{5: FakeLogprob(-0.5), 9: FakeLogprob(-1.0)}, {7: FakeLogprob(-0.25)}])])
    done = to_completion(Request("r", "q", settings=settings), out, None)
    assert done.text == "12" and done.logprob == pytest.approx(-0.75) and done.samples is None


def test_conversion_falls_back_to_cumulative_logprob_and_rejects_none() -> None:
    settings = GenerationSettings(logprobs=True)
    out = FakeRequestOutput([FakeCompletionOutput("x", cumulative_logprob=-2.0)])
    assert to_completion(Request("r", "q", settings=settings), out, None).logprob == -2.0
    with pytest.raises(ValueError, match="no log-probabilities"):
        to_completion(Request("r", "q", settings=settings), FakeRequestOutput([FakeCompletionOutput("x")]), None)


def test_conversion_checks_the_sample_count() -> None:
    settings = GenerationSettings(samples=3)
    greedy = FakeRequestOutput([FakeCompletionOutput("g")])
    sampled = FakeRequestOutput([FakeCompletionOutput("s")] * 2)
    with pytest.raises(ValueError, match="expected 3 samples, vLLM returned 2"):
        to_completion(Request("r", "q", settings=settings), greedy, sampled)


def test_model_maps_outputs_back_to_requests_with_samples_only_when_asked() -> None:
    llm = FakeLLM()
    model = VLLMModel("m", engine=llm, sampling_params=FakeSamplingParams, batch_size=2)
    plain = GenerationSettings()
    rich = GenerationSettings(samples=2, logprobs=True)
    requests = [Request("a", "ab", settings=rich), Request("b", "cd", settings=plain), Request("c", "ef", settings=rich)]
    done = model.generate(requests)
    assert [d.text for d in done] == ["ba", "dc", "fe"]
    assert done[0].samples == ("ab-0", "ab-1") and done[1].samples is None
    assert done[0].logprob == pytest.approx(-0.75) and done[1].logprob is None
    assert len(llm.calls) == 2 and len(llm.calls[0][0]) == 3  # batch 1: a (greedy + samples), b


def test_a_failing_request_is_recorded_and_the_rest_answered() -> None:
    model = VLLMModel("m", engine=FakeLLM(fail_on="bad"), sampling_params=FakeSamplingParams)
    done = model.generate([Request("a", "good"), Request("b", "bad"), Request("c", "fine")])
    assert [d.text for d in done] == ["doog", None, "enif"]
    assert done[1].error is not None and done[1].error.error_class == "RuntimeError"


@pytest.mark.skipif(HAS_VLLM, reason="vLLM is installed here; the missing-install message cannot be shown")
def test_missing_vllm_says_how_to_install() -> None:
    with pytest.raises(InputError, match="pip install") as err:
        VLLMModel("m")
    assert err.value.message == INSTALL_HINT and err.value.field == "--backend"


@pytest.mark.vllm
@pytest.mark.skipif(not HAS_VLLM, reason="vLLM is not installed (GPU-only); request building is tested with fakes")
def test_real_sampling_params_accept_our_arguments() -> None:
    from vllm import SamplingParams

    settings = GenerationSettings(samples=8, temperature=0.7, logprobs=True)
    greedy, sampled = build_sampling(Request("r", "q", settings=settings), SamplingParams)
    assert greedy.logprobs == 1 and sampled.n == 8 and sampled.temperature == 0.7


class RecordingLLM(FakeLLM):
    """A fake ``vllm.LLM`` that records how it was constructed."""

    made: list[dict[str, Any]] = []

    def __init__(self, **kwargs: Any) -> None:
        super().__init__()
        RecordingLLM.made.append(kwargs)


@pytest.fixture
def fake_vllm(monkeypatch):  # type: ignore[no-untyped-def]
    import sys
    import types

    module = types.ModuleType("vllm")
    module.LLM = RecordingLLM
    module.SamplingParams = FakeSamplingParams
    monkeypatch.setitem(sys.modules, "vllm", module)
    RecordingLLM.made = []
    return RecordingLLM


def test_engine_options_for_vision_and_text_models(fake_vllm) -> None:
    VLLMModel("org/vlm", revision="abc", tensor_parallel=2)
    VLLMModel("org/judge", images_per_prompt=0, max_model_len=4096)
    vision, text = fake_vllm.made
    assert vision == {"model": "org/vlm", "revision": "abc", "tensor_parallel_size": 2, "seed": 0,
                      "limit_mm_per_prompt": {"image": 1}}  # fmt: skip
    assert "limit_mm_per_prompt" not in text and text["max_model_len"] == 4096


def test_figure_run_through_the_vllm_backend(fake_vllm, release, tmp_path, monkeypatch) -> None:
    """`rend-equiv run --backend vllm` end to end, with the engine faked (the Hub id is in a local cache)."""
    import json

    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_CACHE", str(tmp_path / "hub"))
    (tmp_path / "hub" / "models--org--some-vlm").mkdir(parents=True)

    from rend_equiv_dataset.cli import main
    from rend_equiv_dataset.harness import prompts

    folder, ids = release
    out = tmp_path / "p.jsonl"
    argv = ["run", "--data", str(folder), "--model", "org/some-vlm", "--backend", "vllm", "--out", str(out)]
    assert main([*argv, "--samples", "3", "--logprobs", "--shard", "0/2"]) == 0  # one GPU's shard
    assert not out.exists()
    assert main([*argv, "--samples", "3", "--logprobs"]) == 0  # the rest, then the merge
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0]["meta"]["backend"] == "vllm" and lines[0]["meta"]["revision"] == "default"
    records = lines[1:]
    assert [r["render_id"] for r in records] == ids
    question = "What is the value of item r000?"
    assert records[0]["output"] == prompts.figure_prompt(question)[::-1]
    assert records[0]["samples"] == [f"{prompts.figure_prompt(question)}-{i}" for i in range(3)]
    assert records[0]["logprob"] == pytest.approx(-0.75)
