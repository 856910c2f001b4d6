"""The COMMON test of every ``evaluate`` module under metrics/ (DESIGN §2, §6).

It discovers each folder ``metrics/<name>/`` — new metrics need no edit here —
and checks the layout evaluate 0.4.6 needs (folder name == file stem, one
import per line with no trailing comment, float64 features), the metric card,
that ``evaluate.load`` works from a checkout, that empty input is refused with
an :class:`InputError`, and runs the doctested examples of the module with
``metric`` bound to the loaded module.
"""

import doctest
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
METRICS = ROOT / "metrics"
FOLDERS = sorted(p for p in METRICS.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))) if METRICS.is_dir() else []
CARD_TOPICS = ("input", "output", "example", "limitation", "citation")


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


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_empty_input_is_refused(folder):
    from rend_equiv_dataset.errors import InputError

    metric = _load(folder)
    features = metric.info.features
    spec = features[0] if isinstance(features, list) else features
    with pytest.raises(InputError):
        metric.compute(**{name: [] for name in spec})
