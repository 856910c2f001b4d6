"""A tiny randomly initialised model, built offline (DESIGN §5, tests and trying the harness).

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
IMAGE_SIZE = 32
PATCH_SIZE = 8
KINDS = ("vlm", "text")


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


def _text_config(vocab_size: int) -> Any:
    from transformers import LlamaConfig

    return LlamaConfig(
        vocab_size=vocab_size,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        max_position_embeddings=1024,
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
    )


def build_tiny_model(out: Path, kind: str = "vlm", seed: int = 0) -> Path:
    """Write a tiny random model, its tokenizer and (for ``vlm``) its processor to ``out``.

    The weights are drawn from a torch generator seeded with ``seed``.
    """
    import torch
    from transformers import CLIPVisionConfig, LlamaForCausalLM, LlavaConfig, LlavaForConditionalGeneration
    from transformers.models.llava.image_processing_pil_llava import LlavaImageProcessorPil
    from transformers import LlavaProcessor

    tokenizer = build_tokenizer()
    text_config = _text_config(len(tokenizer))
    torch.manual_seed(seed)
    if kind == "text":
        model: Any = LlamaForCausalLM(text_config)
        saver: Any = tokenizer
    else:
        vision = CLIPVisionConfig(
            hidden_size=32,
            intermediate_size=64,
            num_hidden_layers=2,
            num_attention_heads=2,
            image_size=IMAGE_SIZE,
            patch_size=PATCH_SIZE,
            projection_dim=32,
        )
        config = LlavaConfig(
            vision_config=vision,
            text_config=text_config,
            image_token_index=tokenizer.convert_tokens_to_ids("<image>"),
            vision_feature_select_strategy="default",
            vision_feature_layer=-1,
        )
        model = LlavaForConditionalGeneration(config)
        processor = LlavaImageProcessorPil(
            size={"shortest_edge": IMAGE_SIZE}, crop_size={"height": IMAGE_SIZE, "width": IMAGE_SIZE}
        )
        saver = LlavaProcessor(
            image_processor=processor,
            tokenizer=tokenizer,
            patch_size=PATCH_SIZE,
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
