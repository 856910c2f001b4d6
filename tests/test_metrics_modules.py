"""The COMMON test of every ``evaluate`` module under metrics/ (docs/design.md §2, §6).

It discovers each folder ``metrics/<name>/`` — new metrics need no edit here —
and checks the layout evaluate 0.4.6 needs (folder name == file stem, one
import per line with no trailing comment, float64 features), the metric card
(inputs, outputs, a Python example, limitations, citation),
that ``evaluate.load`` works from a checkout, that empty input is refused with
an :class:`InputError`, runs the doctested examples of the module with
``metric`` bound to the loaded module, checks that ``add``/``add_batch`` then
``compute()`` equals one ``compute()`` and that ``evaluate.combine`` works, and
that each folder is a Hub Space (``requirements.txt``, ``app.py``, card YAML).
A new metric must be given example inputs in ``INPUTS`` below.
"""

import doctest
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
METRICS = ROOT / "metrics"
FOLDERS = sorted(p for p in METRICS.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))) if METRICS.is_dir() else []
CARD_TOPICS = ("input", "output", "limitation", "citation")


@pytest.fixture(autouse=True)
def checkout_on_path(monkeypatch):
    """evaluate copies the module into its cache: the package must import from this checkout (or an install)."""
    monkeypatch.syspath_prepend(str(ROOT))


_LOADED: dict = {}


def _load(folder):
    """Load once per folder per session (evaluate.load copies and imports the module each call)."""
    import evaluate

    if folder not in _LOADED:
        _LOADED[folder] = evaluate.load(str(folder))
    return _LOADED[folder]


def test_metrics_are_discovered():
    assert {"ecs", "rea", "ibem"} <= {p.name for p in FOLDERS}


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_layout_and_imports(folder):
    module = folder / f"{folder.name}.py"
    assert module.is_file(), f"{folder.name}/ needs {folder.name}.py (folder name == file stem)"
    for number, line in enumerate(module.read_text(encoding="utf-8").splitlines(), start=1):
        if re.match(r"^\s*(import|from)\s", line):
            assert "#" not in line, f"{module.name}:{number}: no trailing comment on an import line"
            assert not re.match(r"^\s*import\s+[^#]*,", line), f"{module.name}:{number}: one import per line"


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_metric_card(folder):
    card = (folder / "README.md").read_text(encoding="utf-8").lower()
    missing = [topic for topic in CARD_TOPICS if topic not in card]
    if "```python" not in card:
        missing.append("a ```python example")
    assert not missing, f"{folder.name}/README.md lacks {missing}"


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_loads_and_examples_run(folder):
    metric = _load(folder)
    module = sys.modules[type(metric).__module__]
    finder, runner = doctest.DocTestFinder(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    attempted = 0
    for test in finder.find(module, globs={"metric": metric}):
        if test.filename is None or not test.examples:
            continue
        result = runner.run(test, out=lambda text: print(text, end=""))
        assert result.failed == 0, f"{folder.name}: doctest {test.name} failed"
        attempted += result.attempted
    assert attempted > 0, f"{folder.name} has no doctested examples"


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_float64_features(folder):
    import datasets

    features = _load(folder).info.features
    for spec in features if isinstance(features, list) else [features]:
        for name, feature in spec.items():
            inner = getattr(feature, "feature", feature)
            if isinstance(inner, datasets.Value) and inner.dtype.startswith("float"):
                assert inner.dtype == "float64", f"{folder.name}: feature {name} is {inner.dtype}"


def _figure_inputs():
    from rend_equiv_dataset.figures.release.read import check_renderings, rendering_from_row
    from rend_equiv_dataset.figures.scoring.simulate import simulate
    from rend_equiv_dataset.figures.scoring.synthetic import synthetic_rows

    rows = synthetic_rows(n_instances=8, seeds=(0,), rerenders=3, values=(10, 60))
    renderings = check_renderings([rendering_from_row(r) for r in rows])
    answers = {r["render_id"]: r["output"] for r in simulate(renderings, "0.5*noise:0.2+0.5*scale:1.5", 1).records}
    return {"predictions": [answers[r["render_id"]] for r in rows], "references": rows}, {"threshold": 0.7}


def _panel_inputs(with_signal=True):
    import numpy as np

    rng = np.random.default_rng(5)
    labels = rng.integers(0, 2, 40)
    votes = np.where(rng.random((40, 5)) < 0.75, labels[:, None], 1 - labels[:, None])
    signal = np.where(rng.random(40) < 0.85, labels, 1 - labels)
    batched = {"predictions": votes.tolist(), "references": labels.tolist()}
    if with_signal:
        batched["signal"] = signal.tolist()
    return batched, {}


# name -> (per-example inputs, compute-only keyword arguments)
INPUTS = {
    "ecs": _figure_inputs,
    "rea": _figure_inputs,
    "ibem": _figure_inputs,
    "pivotal_gain": _panel_inputs,
    "effective_votes": lambda: _panel_inputs(with_signal=False),
    "relaxed_accuracy": lambda: (
        {"predictions": ["<think>about 12?</think>The answer is 12.4.", "Japan or France", "**France**", "30.5"],
         "references": ["12", "France", "France", "42.7"]},
        {"answer_type": ["number", "label", "label", "number"]},
    ),
}


def _fresh(folder):
    import evaluate

    return evaluate.load(str(folder))


def _close(a, b):
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], float):
            assert a[key] == pytest.approx(b[key]), key
        else:
            assert a[key] == b[key], key


def test_every_metric_has_example_inputs():
    assert {p.name for p in FOLDERS} <= set(INPUTS)


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_add_batch_and_add_then_compute_equal_one_compute(folder):
    batched, extra = INPUTS[folder.name]()
    whole = _fresh(folder).compute(**batched, **extra)
    metric = _fresh(folder)
    n = len(batched["predictions"])
    for start in range(0, n, 7):
        metric.add_batch(**{k: v[start:start + 7] for k, v in batched.items()})
    _close(metric.compute(**extra), whole)
    metric = _fresh(folder)
    for i in range(n):
        one = {k: v[i] for k, v in batched.items()}
        metric.add(prediction=one.pop("predictions"), reference=one.pop("references"), **one)
    _close(metric.compute(**extra), whole)


def test_combine_figure_metrics():
    import evaluate

    batched, extra = _figure_inputs()
    combined = evaluate.combine([str(METRICS / n) for n in ("ecs", "rea", "ibem")]).compute(**batched, **extra)
    assert {"ecs", "rea", "ibem", "flagged_rate", "high_rea_rate", "ibem_n"} <= set(combined)
    assert combined["ecs"] == pytest.approx(_fresh(METRICS / "ecs").compute(**batched, **extra)["ecs"])
    assert 0.0 <= combined["ibem"] <= 1.0


def test_combine_panel_metrics():
    import evaluate

    batched, _ = _panel_inputs()
    combined = evaluate.combine([str(METRICS / n) for n in ("pivotal_gain", "effective_votes")]).compute(**batched)
    assert {"pivotal_gain", "nonpivotal_gain", "n_eff", "n_eff_with_signal"} <= set(combined)
    assert combined["nonpivotal_gain"] == 0.0
    majority = evaluate.combine([str(METRICS / n) for n in ("pivotal_gain", "effective_votes")]).compute(
        **batched, rule="majority_side")
    alone = _fresh(METRICS / "pivotal_gain").compute(**batched, rule="majority_side")
    assert majority["rule_accuracy"] == alone["rule_accuracy"] and majority["n_eff"] == combined["n_eff"]


def test_figure_references_may_be_a_dataset_with_extra_columns():
    import datasets

    batched, extra = _figure_inputs()
    table = datasets.Dataset.from_list([{**r, "extra": 1} for r in batched["references"]])
    got = _fresh(METRICS / "ecs").compute(predictions=batched["predictions"], references=table, **extra)
    _close(got, _fresh(METRICS / "ecs").compute(**batched, **extra))


def test_bad_figure_references_name_the_row_and_field():
    from rend_equiv_dataset.errors import InputError

    batched, _ = _figure_inputs()
    rows = [dict(r) for r in batched["references"]]
    del rows[3]["transform"]
    with pytest.raises(InputError) as caught:
        _fresh(METRICS / "ecs").compute(predictions=batched["predictions"], references=rows)
    assert (caught.value.line, caught.value.field) == (4, "transform")
    rows = [dict(r) for r in batched["references"]]
    rows[2]["answer_type"] = "colour"
    with pytest.raises(InputError) as caught:
        _fresh(METRICS / "ecs").compute(predictions=batched["predictions"], references=rows)
    assert (caught.value.line, caught.value.field) == (3, "answer_type")
    with pytest.raises(InputError, match="re-rendering"):
        no_rerenders = [r for r in batched["references"] if r["role"] != "rerender"]
        _fresh(METRICS / "rea").compute(predictions=["1"] * len(no_rerenders), references=no_rerenders)
    with pytest.raises(InputError, match="no input"):
        _fresh(METRICS / "ibem").compute()


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_folder_is_a_hub_space(folder):
    import yaml

    requirements = (folder / "requirements.txt").read_text(encoding="utf-8").split()
    assert "rend-equiv" in requirements and any(r.startswith("evaluate") for r in requirements)
    app = (folder / "app.py").read_text(encoding="utf-8")
    assert "launch_gradio_widget(module)" in app and "evaluate.load(os.path.dirname" in app
    header = yaml.safe_load((folder / "README.md").read_text(encoding="utf-8").split("---")[1])
    assert header["sdk"] == "gradio" and header["app_file"] == "app.py"
    assert {"evaluate", "metric"} <= set(header["tags"])
    # evaluate 0.4.6's launch_gradio_widget uses gradio 3's gr.inputs, gone from gradio 4
    assert header["sdk_version"].startswith("3.") and header["title"]


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_empty_input_is_refused(folder):
    from rend_equiv_dataset.errors import InputError

    metric = _load(folder)
    features = metric.info.features
    spec = features[0] if isinstance(features, list) else features
    with pytest.raises(InputError):
        metric.compute(**{name: [] for name in spec})
