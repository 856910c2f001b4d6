"""Scoring figure reading: answer parsing, REA, ECS, IBEM, the paper's tables, simulated readers, submissions.

The pipeline, one module per step:

- :mod:`.instances` — per-instance signals (REA, ρ_g, ECS, IBEM, combined, baselines);
- :mod:`.metrics` — AUROC, RC-AUC, ECE and matched-FPR detection over resampled clusters;
- :mod:`.taxonomy` — fitted error maps of wrong answers and the theory's predicted detection;
- :mod:`.evaluation` — every table of the report, with template-clustered intervals;
- :mod:`.pipeline`, :mod:`.report`, :mod:`.plots` — files in, report folder out;
- :mod:`.simulate`, :mod:`.synthetic` — planted-error readers and in-memory releases;
- :mod:`.leaderboard` — submissions in the Hugging Face results shape;
- :mod:`.signals` — ECS, REA and IBEM of outputs on ``renderings`` rows (what ``metrics/`` wraps);
- :mod:`.predictions` — the predictions file reader.

Answers are read by :mod:`rend_equiv_dataset.figures.answers`; the cluster
bootstrap is :mod:`rend_equiv_dataset.stats`.

Names below are imported on first use, so ``import rend_equiv_dataset.figures.scoring`` stays light.

>>> from rend_equiv_dataset.figures.scoring import parse_answer
>>> parse_answer("The answer is 1,250.", "number")
1250.0
"""

from __future__ import annotations

from rend_equiv_dataset.exports import lazy_getattr

_EXPORTS = {
    "parse_answer": "rend_equiv_dataset.figures.answers.parse",
    "score_files": "pipeline",
    "score_predictions": "pipeline",
    "write_report": "report",
    "simulate": "simulate",
    "parse_spec": "simulate",
    "predicted_by_edit": "simulate",
    "score_outputs": "signals",
    "ecs_result": "signals",
    "rea_result": "signals",
    "ibem_result": "signals",
    "submit": "leaderboard",
}

__all__ = sorted(_EXPORTS)


__getattr__ = lazy_getattr(__name__, _EXPORTS)
