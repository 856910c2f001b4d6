"""rend-equiv: the REND-EQUIV figure-reading benchmark and pivotal-vote code-judge panels.

The curated API is importable from here::

    from rend_equiv_dataset import generate_instances, build_release, score_files, grade
    from rend_equiv_dataset import load_panel_records, stratified_gain, n_eff

Each name loads its module on first use (PEP 562), so ``import
rend_equiv_dataset`` stays cheap: no numpy, datasets or torch until a name that
needs them is touched. :data:`API` says where each name lives; deeper modules
remain importable for everything else (docs/design.md, "Layout").
"""

from __future__ import annotations

from rend_equiv_dataset.exports import lazy_getattr

__version__ = "0.1.0"

API: dict[str, str] = {
    # the figure benchmark: instances, releases, answers, scoring
    "generate_instance": "rend_equiv_dataset.figures.generate",
    "generate_instances": "rend_equiv_dataset.figures.generate",
    "generate_matched_cycle": "rend_equiv_dataset.figures.generate",
    "build_release": "rend_equiv_dataset.figures.release.build",
    "ReleaseSettings": "rend_equiv_dataset.figures.release.card",
    "load_renderings": "rend_equiv_dataset.figures.release.read",
    "dataset_fingerprint": "rend_equiv_dataset.figures.release.read",
    "parse_answer": "rend_equiv_dataset.figures.answers.parse",
    "grade": "rend_equiv_dataset.figures.answers.grade",
    "score_predictions": "rend_equiv_dataset.figures.scoring.pipeline",
    "score_files": "rend_equiv_dataset.figures.scoring.pipeline",
    # the theory
    "edit_transform": "rend_equiv_dataset.theory.detection",
    "detection_probability": "rend_equiv_dataset.theory.detection",
    "analyze_suite": "rend_equiv_dataset.theory.suite",
    # code-judge panels: records, metrics, reports
    "PanelBuild": "rend_equiv_dataset.panels.build",
    "build_panel": "rend_equiv_dataset.panels.build",
    "load_panel_records": "rend_equiv_dataset.panels.records",
    "PanelData": "rend_equiv_dataset.panels.metrics.data",
    "stratified_gain": "rend_equiv_dataset.panels.metrics.gains",
    "n_eff": "rend_equiv_dataset.panels.metrics.effective",
    "write_report": "rend_equiv_dataset.panels.metrics.panel_report",
    # shared
    "InputError": "rend_equiv_dataset.errors",
}
"""Public name -> the module that defines it."""

__all__ = ["__version__", *API]


__getattr__ = lazy_getattr(__name__, API)


def __dir__() -> list[str]:
    return sorted({*globals(), *API})
