"""Write lmms-eval task YAMLs for one release folder (``rend-equiv export --format lmms-eval``; docs/design.md §8.1).

Each YAML includes the packaged template by absolute path and names the
release: ``dataset_path`` (the folder), ``dataset_name`` (the config) and
the task name. lmms-eval reads the folder with ``datasets.load_dataset``,
so nothing is downloaded.
"""

from __future__ import annotations

import json
from pathlib import Path

from rend_equiv_dataset.errors import InputError
from rend_equiv_dataset.figures.release.read import has_config, load_renderings
from rend_equiv_dataset.io import atomic_write_text
from rend_equiv_dataset.schema import MATCHED_CYCLE_RENDERINGS, RENDERINGS

TEMPLATE = Path(__file__).with_name("_default_template_yaml")
TASKS: dict[str, str] = {"rend_equiv": RENDERINGS, "rend_equiv_matched_cycle": MATCHED_CYCLE_RENDERINGS}
"""Task name → the release config it runs over."""


def task_yaml(task: str, release: Path, config: str) -> str:
    """One task's YAML text (JSON-quoted strings are valid YAML scalars)."""
    return "\n".join([
        f"include: {json.dumps(str(TEMPLATE))}",
        f"task: {task}",
        f"dataset_path: {json.dumps(str(release))}",
        f"dataset_name: {config}",
        "",
    ])


def write_task_folder(release: str | Path, out: str | Path) -> list[str]:
    """Write ``<task>.yaml`` into ``out`` for each config the release holds; returns the task names.

    The release is read first (a broken one is refused before anything is written).
    """
    folder = Path(release).absolute()
    load_renderings(folder)
    target = Path(out)
    if target.exists() and not target.is_dir():
        raise InputError("exists and is not a folder", file=target, field="--out")
    written = []
    for task, config in TASKS.items():
        if config == RENDERINGS or has_config(folder, config):
            atomic_write_text(target / f"{task}.yaml", task_yaml(task, folder, config))
            written.append(task)
    return written
