"""The import graph of the package: arrows run down only, and there is no circle.

Every module's imports are read with :mod:`ast` (module-level and inside
functions alike, since a lazy import is still a dependency), resolved to
modules of the package (``from pkg import name`` counts as importing
``pkg.name`` when that is a module, else ``pkg``'s ``__init__``), and then:

- ``figures`` never imports ``panels`` and ``panels`` never imports ``figures``;
- the core (``transforms``, ``theory``, ``io``, ``schema``, ``stats``,
  ``errors``, ``hub``, ``reports``, the shared ``harness`` and the leaderboard
  ``board``) imports neither product, nor ``commands``; the root core below the
  harness does not import the harness either;
- nothing but ``cli`` and ``commands`` imports ``commands``, and the harness
  imports neither ``panels`` nor a command;
- inside ``figures`` arrows follow the pipeline down (charts ← questions,
  answers ← edits ← generate ← release ← tables, run ← scoring), and the scorer
  reads a release only through its reader, never a writer;
- no module reaches itself by following imports (no cycle).

And one home per chart family: no module outside ``figures/charts/families``
names a ``Family`` member in code; callers ask the family object (``family_of``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "rend_equiv_dataset"
ROOT = Path(__file__).resolve().parents[1] / PACKAGE
CORE = ("transforms", "theory", "io", "schema", "stats", "errors", "hub", "reports", "harness", "board", "exports")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The longest package module that ``name`` starts with (``a.b.func`` → ``a.b``)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _imports(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
        for name in names:
            if name.split(".")[0] != PACKAGE:
                continue
            target = _resolve(name, modules)
            if target is not None and target != module:
                found.add(target)
    return found


GRAPH = {name: _imports(name, path, _modules()) for name, path in _modules().items()}


def _area(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _arrows(source_areas: tuple[str, ...], target_areas: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{src} -> {dst}"
        for src, targets in GRAPH.items()
        if _area(src) in source_areas
        for dst in targets
        if _area(dst) in target_areas
    )


def test_the_graph_sees_the_package():
    assert "rend_equiv_dataset.figures.generate" in GRAPH
    assert "rend_equiv_dataset.figures.charts.data" in GRAPH["rend_equiv_dataset.figures.generate"]
    assert "rend_equiv_dataset.errors" in GRAPH["rend_equiv_dataset.io"] or GRAPH["rend_equiv_dataset.io"] == set()


def test_function_level_and_relative_imports_count(tmp_path):
    fake = tmp_path / PACKAGE
    (fake / "sub").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "sub" / "__init__.py").write_text("from . import leaf\n")
    (fake / "sub" / "leaf.py").write_text("def f():\n    from rend_equiv_dataset.other import thing\n")
    (fake / "other.py").write_text("thing = 1\n")
    modules = {f"{PACKAGE}": fake / "__init__.py", f"{PACKAGE}.sub": fake / "sub" / "__init__.py",
               f"{PACKAGE}.sub.leaf": fake / "sub" / "leaf.py", f"{PACKAGE}.other": fake / "other.py"}
    assert _imports(f"{PACKAGE}.sub.leaf", modules[f"{PACKAGE}.sub.leaf"], modules) == {f"{PACKAGE}.other"}
    assert _imports(f"{PACKAGE}.sub", modules[f"{PACKAGE}.sub"], modules) == {f"{PACKAGE}.sub.leaf"}


def test_figures_and_panels_never_import_each_other():
    assert _arrows(("figures",), ("panels",)) == []
    assert _arrows(("panels",), ("figures",)) == []


def test_the_core_imports_no_product_and_no_shell():
    assert _arrows(CORE, ("figures", "panels", "commands", "cli")) == []
    below_the_harness = tuple(area for area in CORE if area not in ("harness", "board"))
    assert _arrows(below_the_harness, ("harness", "board")) == []


def test_the_shared_harness_serves_both_products_without_importing_panels():
    assert _arrows(("harness",), ("panels", "commands", "cli")) == []


def test_only_the_cli_imports_commands():
    outside = list(_arrows(tuple({_area(m) for m in GRAPH} - {"commands", "cli"}), ("commands",)))
    assert outside == []


FIGURE_LAYERS = {"charts": 0, "questions": 1, "answers": 1, "edits": 2, "generate": 3, "release": 4,
                 "tables": 5, "run": 5, "scoring": 6}
"""Pipeline order of the figure benchmark: a module may import its own layer or a lower one."""


def _figure_layer(module: str) -> int | None:
    parts = module.split(".")
    return FIGURE_LAYERS[parts[2]] if len(parts) > 2 and parts[1] == "figures" else None


def test_figures_arrows_follow_the_pipeline_down():
    assert set(FIGURE_LAYERS) | {"__init__"} >= {p.stem for p in (ROOT / "figures").iterdir()
                                                 if p.suffix == ".py" or (p / "__init__.py").exists()}
    upward = sorted(
        f"{src} -> {dst}"
        for src, targets in GRAPH.items()
        for dst in targets
        if _figure_layer(src) is not None and _figure_layer(dst) is not None
        and _figure_layer(dst) > _figure_layer(src)
    )
    assert upward == []


def test_the_scorer_reads_releases_and_never_writes_them():
    writes = sorted(f"{src} -> {dst}" for src, targets in GRAPH.items() if src.startswith(f"{PACKAGE}.figures.scoring")
                    for dst in targets if dst.startswith(f"{PACKAGE}.figures.release") and dst != f"{PACKAGE}.figures.release.read")
    assert writes == []


def _cycle() -> list[str] | None:
    """One import cycle as a path of modules, or ``None`` (iterative depth-first search)."""
    state: dict[str, int] = {}
    for start in sorted(GRAPH):
        if state.get(start):
            continue
        stack: list[tuple[str, list[str]]] = [(start, sorted(GRAPH[start]))]
        path = [start]
        state[start] = 1
        while stack:
            node, todo = stack[-1]
            if not todo:
                state[node] = 2
                stack.pop()
                path.pop()
                continue
            nxt = todo.pop()
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if not state.get(nxt):
                state[nxt] = 1
                stack.append((nxt, sorted(GRAPH[nxt])))
                path.append(nxt)
    return None


def test_no_import_cycle():
    assert _cycle() is None


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
    ({"a": {"b"}, "b": {"a"}}, ["a", "b", "a"]),
])
def test_the_cycle_finder_finds_cycles(monkeypatch, graph, expected):
    monkeypatch.setitem(globals(), "GRAPH", graph)
    assert _cycle() == expected


def _top_level_classes() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, path in _modules().items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(name)
    return found


def test_names_say_which_product():
    """A reader meeting ``signals``, ``report``, ``Instance`` or ``Rendering`` knows which one it is."""
    stems: dict[str, list[str]] = {}
    for name in GRAPH:
        stems.setdefault(name.rpartition(".")[2], []).append(name)
    for stem in ("signals", "report", "resumable", "execution_signal", "panel_report"):
        assert len(stems.get(stem, [])) <= 1, stems[stem]
    classes = _top_level_classes()
    for cls in ("Instance", "Rendering", "RenderingRow", "InstanceRenderings", "EditType"):
        assert len(classes.get(cls, [])) <= 1, classes[cls]


FAMILY_PACKAGE = f"{PACKAGE}.figures.charts.families"


def _family_member_references(tree: ast.AST) -> list[str]:
    """``Family.<MEMBER>`` in code (attribute access on the name ``Family``; docstrings do not count)."""
    return [f"Family.{node.attr} (line {node.lineno})" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Family"
            and node.attr.isupper()]


def test_only_the_family_modules_name_a_family():
    """What differs between chart families is asked of the family object, never branched on outside it."""
    offenders = []
    for module, path in _modules().items():
        if module == FAMILY_PACKAGE or module.startswith(FAMILY_PACKAGE + "."):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        offenders += [f"{module}: {ref}" for ref in _family_member_references(tree)]
    assert offenders == []


def test_the_family_rule_sees_branches_and_skips_docstrings():
    code = '""">>> ChartData(Family.BAR, ...)"""\nif chart.family is Family.PIE or kind in (Family.LINE,):\n    pass\n'
    assert _family_member_references(ast.parse(code)) == ["Family.PIE (line 2)", "Family.LINE (line 2)"]
