"""The transformers backend on the tiny offline models (CPU)."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest
from PIL import Image

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness.backends import load_model
from rend_equiv_dataset.harness.backends.transformers_backend import TransformersModel
from rend_equiv_dataset.harness.types import GenerationSettings, Request


def _image(shade: int) -> Image.Image:
    return Image.new("RGB", (40, 30), (shade, 100, 200))


@pytest.fixture(scope="module")
def vlm(tiny_vlm: Path) -> TransformersModel:
    return TransformersModel(str(tiny_vlm), batch_size=4)


def test_tiny_model_needs_no_torchvision(vlm: TransformersModel) -> None:
    assert vlm.vision
    if importlib.util.find_spec("torchvision") is None:
        assert "Pil" in type(vlm.processor.image_processor).__name__


def test_greedy_only_has_no_samples_or_logprobs(vlm: TransformersModel) -> None:
    settings = GenerationSettings(max_new_tokens=4)
    done = vlm.generate([Request(f"r{i}", f"Value of {i}?", (_image(i * 50),), settings) for i in range(3)])
    assert len(done) == 3
    assert all(d.ok and isinstance(d.text, str) and d.samples is None and d.logprob is None for d in done)


def test_samples_and_logprobs_when_asked(vlm: TransformersModel) -> None:
    settings = GenerationSettings(max_new_tokens=4, samples=3, temperature=0.7, logprobs=True)
    done = vlm.generate([Request("r1", "Value?", (_image(0),), settings), Request("r2", "Max?", (_image(90),), settings)])
    for d in done:
        assert d.samples is not None and len(d.samples) == 3 and all(isinstance(s, str) for s in d.samples)
        assert d.logprob is not None and math.isfinite(d.logprob) and d.logprob < 0


def test_samples_do_not_depend_on_batching(tiny_vlm: Path, vlm: TransformersModel) -> None:
    settings = GenerationSettings(max_new_tokens=6, samples=2, temperature=1.0, seed=5)
    requests = [Request(f"r{i}", "Value?", (_image(i * 60),), settings) for i in range(3)]
    together = vlm.generate(requests)
    alone = TransformersModel(str(tiny_vlm), batch_size=1).generate(requests[2:])
    assert together[2].samples == alone[0].samples
    other_seed = GenerationSettings(max_new_tokens=6, samples=2, temperature=1.0, seed=6)
    assert vlm.generate([Request("r2", "Value?", (_image(120),), other_seed)])[0].samples != alone[0].samples


def test_logprob_equals_the_sum_of_step_logprobs(vlm: TransformersModel) -> None:
    """Recompute the greedy text's log-probability by teacher forcing, independently."""
    import torch

    settings = GenerationSettings(max_new_tokens=3, logprobs=True)
    request = Request("r", "Value?", (_image(30),), settings)
    done = vlm.generate([request])[0]
    inputs = vlm._encode([request])
    with torch.inference_mode():
        out = vlm.model.generate(**inputs, do_sample=False, max_new_tokens=3, pad_token_id=0)
        new = out[:, inputs["input_ids"].shape[1] :]
        full = {**inputs, "input_ids": out, "attention_mask": torch.ones_like(out)}
        logits = vlm.model(**full).logits[0, inputs["input_ids"].shape[1] - 1 : -1]
    steps = torch.log_softmax(logits.float(), dim=-1).gather(1, new[0][:, None]).squeeze(1)
    eos = (new[0] == 2).nonzero()
    stop = int(eos[0]) + 1 if len(eos) else len(new[0])
    assert done.logprob == pytest.approx(float(steps[:stop].sum()), abs=1e-3)


def test_a_failing_request_is_isolated_and_the_rest_answered(vlm: TransformersModel, monkeypatch) -> None:
    real = vlm._batch

    def oom_on_r2(chunk):
        if any(r.request_id == "r2" for r in chunk):
            raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real(chunk)

    monkeypatch.setattr(vlm, "_batch", oom_on_r2)
    settings = GenerationSettings(max_new_tokens=2)
    done = vlm.generate([Request(f"r{i}", "Value?", (_image(i),), settings) for i in range(4)])
    assert [d.ok for d in done] == [True, True, False, True]
    assert done[2].error.error_class == "RuntimeError" and "out of memory" in done[2].error.message


def test_text_only_model_through_the_same_interface(tiny_text: Path) -> None:
    model = load_model("transformers", str(tiny_text), batch_size=2)
    assert not model.vision
    done = model.generate(
        [Request("j1", "Is this code correct?", system="You are a judge."), Request("j2", "Solve it.")]
    )
    assert all(d.ok and isinstance(d.text, str) for d in done)
    refused = model.generate([Request("j3", "Look", (_image(0),))])[0]
    assert not refused.ok and "text-only" in refused.error.message


def test_missing_model_folder_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError) as err:
        TransformersModel(str(tmp_path / "nowhere"))
    assert err.value.field == "--model"


def test_unknown_backend_is_an_input_error() -> None:
    with pytest.raises(InputError, match="expected one of"):
        load_model("onnx", "m")
