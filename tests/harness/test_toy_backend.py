"""A new backend is one module and its test: a toy backend defined in this file alone runs through ``rend-equiv run``.

Registering the class is all it takes: ``--backend`` lists it, ``--model-arg``
reaches its constructor, and the run writes its answers like any backend's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from rend_equiv_dataset.cli import main
from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.harness.backends import backend_names, backend_options, load_model, register_backend
from rend_equiv_dataset.harness.types import Completion, Request


@register_backend("toy")
class ToyModel:
    """Answers every request with the same text."""

    backend = "toy"

    def __init__(self, model: str, revision: str | None = None, device: str = "cpu", batch_size: int = 8,
                 answer: str = "7", shout: bool = False) -> None:
        self.model, self.batch_size = model, batch_size
        self.answer = answer.upper() if shout else answer

    def generate(self, requests: Sequence[Request]) -> list[Completion]:
        return [Completion(text=self.answer) for _ in requests]


def test_the_registry_lists_it_and_reads_its_settings():
    assert backend_names() == ["toy", "transformers", "vllm"]
    assert backend_options("toy") == ["answer", "shout"]
    model = load_model("toy", "m", options={"answer": "yes", "shout": True}, batch_size=2)
    assert isinstance(model, ToyModel) and model.answer == "YES" and model.batch_size == 2


def test_an_unknown_backend_or_setting_is_bad_input():
    with pytest.raises(InputError, match="field '--backend': expected one of \\['toy', 'transformers', 'vllm'\\], got 'onnx'"):
        load_model("onnx", "m")
    with pytest.raises(InputError, match="field '--model-arg': backend 'toy' has no setting 'tensor_parallel'; it takes \\['answer', 'shout'\\]"):
        load_model("toy", "m", options={"tensor_parallel": 2})


def test_rend_equiv_run_uses_it_with_its_model_args(release, tmp_path: Path) -> None:
    folder, ids = release
    model = tmp_path / "toy-model"
    model.mkdir()
    out = tmp_path / "preds.jsonl"
    argv = ["run", "--data", str(folder), "--model", str(model), "--backend", "toy", "--model-arg", "answer=forty two",
            "--model-arg", "shout=true", "--out", str(out)]
    assert main(argv) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines[0]["meta"]["backend"] == "toy"
    assert [(r["render_id"], r["output"]) for r in lines[1:]] == [(i, "FORTY TWO") for i in ids]


def test_a_model_arg_given_twice_or_malformed_exits_2(release, tmp_path: Path, capsys) -> None:
    folder, _ = release
    base = ["run", "--data", str(folder), "--model", str(tmp_path), "--backend", "toy", "--out", str(tmp_path / "p.jsonl")]
    assert main([*base, "--model-arg", "answer=1", "--model-arg", "answer=2"]) == 2
    assert "field '--model-arg': 'answer' given twice" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main([*base, "--model-arg", "answer"])
    assert exit_info.value.code == 2
