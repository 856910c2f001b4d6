"""Pivotal-vote code-judge panels, end to end: problems → candidates → sandbox → records → panel metrics.

- :mod:`.problems` — HumanEval, evalplus and LiveCodeBench problems with their assertions in source order;
- :mod:`.candidates` — candidate files and mutants of the canonical solutions;
- :mod:`.sandbox` — isolated execution, one pass/fail per assertion;
- :mod:`.judges` — simulated correlated judges and judge verdict files;
- :mod:`.execution_signal` — the execution signal at a coverage level;
- :mod:`.execution` — resumable sandboxed execution of candidates;
- :mod:`.build` — :func:`build_panel`, the whole pipeline in one call (``rend-equiv panel build``);
- :mod:`.panel_release`, :mod:`.records` — writing and reading panel records;
- :mod:`.metrics` — margins, pivotal gains, gating, effective votes, the panel report
  (:func:`~rend_equiv_dataset.panels.metrics.write_report`, ``rend-equiv panel score``).

:func:`build_panel`, :class:`PanelBuild` and :func:`load_panel_records` are
importable from here; they load their modules on first use.
"""

from __future__ import annotations

from rend_equiv_dataset.exports import lazy_getattr

_LAZY = {
    "PanelBuild": "rend_equiv_dataset.panels.build",
    "build_panel": "rend_equiv_dataset.panels.build",
    "load_panel_records": "rend_equiv_dataset.panels.records",
}

__all__ = sorted(_LAZY)


__getattr__ = lazy_getattr(__name__, _LAZY)
