"""``rend-equiv tiny-model``: built offline, loadable by the Auto classes, no torchvision."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.harness.tiny import build_tokenizer


def test_tokenizer_round_trips_any_text_and_has_the_chat_tokens() -> None:
    tok = build_tokenizer()
    text = "Wert: 1 234,5 € — ΔB?"
    assert tok.decode(tok(text)["input_ids"]) == text
    assert tok.convert_tokens_to_ids("<image>") == 3 and tok.eos_token == "<|im_end|>"
    prompt = tok.apply_chat_template([{"role": "user", "content": "hi"}], add_generation_prompt=True, tokenize=False)
    assert prompt == "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"


def test_command_builds_a_loadable_vlm_and_refuses_a_non_empty_folder(tmp_path: Path, capsys) -> None:
    from transformers import AutoModelForImageTextToText, AutoProcessor

    out = tmp_path / "m"
    assert main(["tiny-model", "--out", str(out), "--seed", "1"]) == 0
    config = json.loads((out / "config.json").read_text())
    assert config["model_type"] == "llava"
    processor = AutoProcessor.from_pretrained(out)
    model = AutoModelForImageTextToText.from_pretrained(out)
    assert sum(p.numel() for p in model.parameters()) < 1_000_000
    if importlib.util.find_spec("torchvision") is None:
        assert type(processor.image_processor).__name__.endswith("Pil")
    assert main(["tiny-model", "--out", str(out)]) == 2
    assert "not empty" in capsys.readouterr().err


def test_seed_decides_the_weights(tmp_path: Path) -> None:
    from rend_equiv_dataset.harness.tiny import build_tiny_model

    a = build_tiny_model(tmp_path / "a", kind="text", seed=0)
    b = build_tiny_model(tmp_path / "b", kind="text", seed=0)
    c = build_tiny_model(tmp_path / "c", kind="text", seed=1)
    weights = [(p / "model.safetensors").read_bytes() for p in (a, b, c)]
    assert weights[0] == weights[1] != weights[2]
    from rend_equiv_dataset.harness.provenance import local_model_revision

    # different weights, different revision: their outputs never share a resume key
    assert local_model_revision(a) == local_model_revision(b) != local_model_revision(c)


def test_hub_model_revision_is_the_cached_commit(tmp_path: Path, monkeypatch) -> None:
    from rend_equiv_dataset.harness.provenance import model_revision

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    assert model_revision("org/not-cached", None) == "default"
    assert model_revision("org/not-cached", "v1") == "v1"
    snapshot = tmp_path / "hub" / "models--org--cached" / "snapshots" / ("a" * 40)
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text("{}")
    (tmp_path / "hub" / "models--org--cached" / "refs").mkdir()
    (tmp_path / "hub" / "models--org--cached" / "refs" / "main").write_text("a" * 40)
    assert model_revision("org/cached", None) == "a" * 40


def test_large_shape_path_builds_in_bfloat16_and_restores_the_default_dtype(tmp_path: Path, monkeypatch) -> None:
    """The `--shape 7b` path (bfloat16, built on a device), exercised at tiny size."""
    import torch
    from transformers import AutoModelForImageTextToText

    from rend_equiv_dataset.harness import tiny

    monkeypatch.setitem(tiny.SHAPES, "7b", tiny.SHAPES["tiny"])
    out = tiny.build_tiny_model(tmp_path / "m", shape="7b", device="cpu")
    assert torch.get_default_dtype() == torch.float32
    model = AutoModelForImageTextToText.from_pretrained(out)
    from safetensors import safe_open

    with safe_open(str(out / "model.safetensors"), framework="pt") as weights:
        assert {weights.get_tensor(name).dtype for name in weights.keys()} == {torch.bfloat16}
    assert model.config.vision_config.image_size == 32
