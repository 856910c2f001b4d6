"""A tiny randomly initialised model, built offline (docs/design.md §5, tests and trying the harness).

Nothing is downloaded: the tokenizer is a byte-level BPE with no merges built
with the ``tokenizers`` library (256 byte tokens plus the chat and image
special tokens, so any generated id decodes), the chat template is written
here, and the weights are random. Two kinds:

- ``vlm``: a LLaVA-style model (CLIP vision tower + Llama text model) with
  LLaVA's PIL image processor, so torchvision is not needed. (A tiny
  Qwen2.5-VL needs torchvision for its processor, which the CPU test install
  does not have.)
- ``text``: a Llama causal LM with the same tokenizer, for judges and solvers.

The model exercises the real code path; its answers are noise.

``shape="7b"`` builds the same architecture at a real size, LLaVA-1.5-7B's
(CLIP ViT-L/14 at 336 px, a 32-layer 4096-wide Llama; about 7 billion
parameters), initialised directly on the given device in bfloat16 — for
measuring speed and memory on a GPU (``scripts/gpu_check.sh``), not for tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

SPECIAL_TOKENS = ("<pad>", "<|im_start|>", "<|im_end|>", "<image>")
CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}"
    "{% else %}{% for part in message['content'] %}"
    "{% if part['type'] == 'image' %}<image>{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}"
    "{% endfor %}{% endif %}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
KINDS = ("vlm", "text")

# name -> (text dims, vision dims); text: hidden, intermediate, layers, heads;
# vision: hidden, intermediate, layers, heads, image size, patch size
SHAPES: dict[str, tuple[tuple[int, int, int, int], tuple[int, int, int, int, int, int]]] = {
    "tiny": ((32, 64, 2, 2), (32, 64, 2, 2, 32, 8)),
    "7b": ((4096, 11008, 32, 32), (1024, 4096, 24, 16, 336, 14)),
}


def build_tokenizer() -> Any:
    """The byte-level tokenizer, as a transformers fast tokenizer."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    vocab = {token: i for i, token in enumerate([*SPECIAL_TOKENS, *alphabet])}
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in SPECIAL_TOKENS])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<pad>", eos_token="<|im_end|>")
    fast.padding_side = "left"
    fast.chat_template = CHAT_TEMPLATE
    return fast


def _text_config(vocab_size: int, shape: str) -> Any:
    from transformers import LlamaConfig

    hidden, intermediate, layers, heads = SHAPES[shape][0]
    return LlamaConfig(
        vocab_size=vocab_size,
        hidden_size=hidden,
        intermediate_size=intermediate,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=heads,
        max_position_embeddings=4096,
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
    )


def build_tiny_model(out: Path, kind: str = "vlm", seed: int = 0, shape: str = "tiny", device: str = "cpu") -> Path:
    """Write a random model, its tokenizer and (for ``vlm``) its processor to ``out``.

    The weights are drawn from torch's generator seeded with ``seed``.
    """
    import torch
    from transformers import LlamaForCausalLM, LlavaForConditionalGeneration, LlavaProcessor
    from transformers.models.llava.image_processing_pil_llava import LlavaImageProcessorPil

    tokenizer = build_tokenizer()
    text_config = _text_config(len(tokenizer), shape)
    image_size, patch_size = SHAPES[shape][1][4:]
    torch.manual_seed(seed)
    dtype = torch.float32 if shape == "tiny" else torch.bfloat16
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with torch.device(device):
            model: Any = (
                LlamaForCausalLM(text_config)
                if kind == "text"
                else LlavaForConditionalGeneration(_llava_config(tokenizer, text_config, SHAPES[shape][1]))
            )
    finally:
        torch.set_default_dtype(previous)
    if kind == "text":
        saver: Any = tokenizer
    else:
        processor = LlavaImageProcessorPil(
            size={"shortest_edge": image_size}, crop_size={"height": image_size, "width": image_size}
        )
        saver = LlavaProcessor(
            image_processor=processor,
            tokenizer=tokenizer,
            patch_size=patch_size,
            vision_feature_select_strategy="default",
            chat_template=CHAT_TEMPLATE,
            image_token="<image>",
            num_additional_image_tokens=1,
        )
    model.generation_config.pad_token_id = 0
    model.generation_config.eos_token_id = 2
    model.eval()
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    saver.save_pretrained(out)
    return out


def _llava_config(tokenizer: Any, text_config: Any, vision_dims: tuple[int, ...]) -> Any:
    from transformers import CLIPVisionConfig, LlavaConfig

    hidden, intermediate, layers, heads, image_size, patch_size = vision_dims
    vision = CLIPVisionConfig(
        hidden_size=hidden,
        intermediate_size=intermediate,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        image_size=image_size,
        patch_size=patch_size,
        projection_dim=hidden,
    )
    return LlavaConfig(
        vision_config=vision,
        text_config=text_config,
        image_token_index=tokenizer.convert_tokens_to_ids("<image>"),
        vision_feature_select_strategy="default",
        vision_feature_layer=-1,
    )
