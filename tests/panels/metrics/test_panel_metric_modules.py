"""The `evaluate` modules pivotal_gain and effective_votes: loaded by path, doctests run, thin over the library."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

import numpy as np
import pytest

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.panels.metrics import MAJORITY_SIDE, Fixed, PanelData, stratified_gain
from rend_equiv_dataset.panels.metrics.effective import n_eff, n_eff_with_signal

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def modules() -> dict:
    import evaluate

    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        return {name: evaluate.load(f"metrics/{name}") for name in ("pivotal_gain", "effective_votes")}


@pytest.mark.parametrize("name", ["pivotal_gain", "effective_votes"])
def test_doctested_examples_pass(modules: dict, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    module = sys.modules[type(modules[name]).__module__]
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3 and result.failed == 0
    assert (ROOT / "metrics" / name / "README.md").read_text().startswith("---\n")


def random_panel(seed: int, n: int = 80, k: int = 7) -> tuple[list, list, list]:
    rng = np.random.Generator(np.random.PCG64(seed))
    labels = rng.integers(0, 2, n)
    votes = np.where(rng.random((n, k)) < 0.7, labels[:, None], 1 - labels[:, None])
    signal = np.where(rng.random(n) < 0.85, labels, 1 - labels)
    return votes.astype(float).tolist(), labels.astype(float).tolist(), signal.astype(float).tolist()


@pytest.mark.parametrize("seed", [0, 1])
def test_pivotal_gain_equals_the_library(modules: dict, seed: int) -> None:
    votes, labels, signal = random_panel(seed)
    data = PanelData.from_arrays(votes, labels, signal)
    for kwargs, rule in [({}, None), ({"rule": "majority_side"}, MAJORITY_SIDE), ({"rule": "fixed", "judge_index": 2}, Fixed(2))]:
        out = modules["pivotal_gain"].compute(predictions=votes, references=labels, signal=signal, **kwargs)
        expected = stratified_gain(data) if rule is None else stratified_gain(data, rule)
        assert out["pivotal_gain"] == pytest.approx(expected.pivotal_gain)
        assert out["nonpivotal_gain"] == 0.0 and out["n_pivotal"] == expected.n_pivotal
        assert out["call_rate"] == pytest.approx(expected.n_pivotal / len(labels))


def test_effective_votes_equals_the_library(modules: dict) -> None:
    votes, labels, signal = random_panel(3)
    errors = (np.array(votes) != np.array(labels)[:, None]).astype(int)
    signal_errors = (np.array(signal) != np.array(labels)).astype(int)
    out = modules["effective_votes"].compute(predictions=votes, references=labels, signal=signal)
    assert out["n_eff"] == pytest.approx(n_eff(errors))
    assert out["n_eff_with_signal"] == pytest.approx(n_eff_with_signal(errors, signal_errors))
    assert "n_eff_with_signal" not in modules["effective_votes"].compute(predictions=votes, references=labels)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"predictions": [], "references": [], "signal": []}, "predictions"),
        ({"predictions": [[1, 0, 1], [1, 0]], "references": [1, 1], "signal": [1, 1]}, "predictions"),
        ({"predictions": [[1, 0, 2]], "references": [1], "signal": [1]}, "predictions"),
        ({"predictions": [[1], [0]], "references": [1, 0], "signal": [1, 0]}, "predictions"),
        ({"predictions": [[1, 0, 1]], "references": [0.5], "signal": [1]}, "references"),
        ({"predictions": [[1, 0, 1]], "references": [1], "signal": [3]}, "signal"),
        ({"predictions": [[1, 0, 1]], "references": [1], "signal": [1], "rule": "random"}, "rule"),
        ({"predictions": [[1, 0, 1]], "references": [1], "signal": [1], "rule": "fixed"}, "judge_index"),
        ({"predictions": [[1, 0, 1]], "references": [1], "signal": [1], "rule": "fixed", "judge_index": 3}, "judge_index"),
        ({"predictions": [[1, 0, 1]], "references": [1], "signal": [1], "judge_index": 0}, "judge_index"),
    ],
)
def test_pivotal_gain_bad_input(modules: dict, kwargs: dict, field: str) -> None:
    with pytest.raises(InputError) as caught:
        modules["pivotal_gain"].compute(**kwargs)
    assert caught.value.field == field


def test_effective_votes_bad_input(modules: dict) -> None:
    with pytest.raises(InputError, match="at least one query"):
        modules["effective_votes"].compute(predictions=[], references=[])
    with pytest.raises(InputError) as caught:
        modules["effective_votes"].compute(predictions=[[1, 0], [1, 1]], references=[1, 1], signal=[1, 7])
    assert caught.value.field == "signal"
