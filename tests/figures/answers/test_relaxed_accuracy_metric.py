"""The relaxed_accuracy evaluate module: its card's example runs, and bad inputs name their parameter."""

import doctest
from pathlib import Path

import pytest

from rend_equiv_dataset.errors import InputError

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "metrics" / "relaxed_accuracy"


@pytest.fixture(scope="module")
def metric():
    import sys

    import evaluate

    sys.path.insert(0, str(ROOT))
    return evaluate.load(str(FOLDER))


def test_card_example_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))
    result = doctest.testfile(str(FOLDER / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3 and result.failed == 0


def test_agrees_with_grade(metric):
    from rend_equiv_dataset.figures.answers.grade import grade

    outputs = ["Answer: 12", "The value is about 55 thousand.", "no idea"]
    results = metric.compute(predictions=outputs, references=["12", "55", "3"], answer_type="number",
                             question=["?", "How many, in thousands?", "?"])
    expected = [grade(o, t, "number", question=q) for o, t, q in zip(outputs, ["12", "55", "3"], ["?", "How many, in thousands?", "?"])]
    assert results["answers"] == [g.answer for g in expected] == ["12", "55", None]
    assert results["relaxed_accuracy"] == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"predictions": ["1"], "references": ["1", "2"]}, "references"),
        ({"predictions": ["1"], "references": ["1"], "answer_type": ["number", "label"]}, "answer_type"),
        ({"predictions": ["1"], "references": ["1"], "answer_type": "text"}, "answer_type"),
        ({"predictions": ["1"], "references": ["1"], "labels": [[], []]}, "labels"),
        ({"predictions": [], "references": []}, "predictions"),
    ],
)
def test_bad_inputs_name_the_parameter(metric, kwargs, field):
    with pytest.raises(InputError) as err:
        metric.compute(**kwargs)
    assert err.value.field == field
