"""Report plots, drawn with matplotlib's object-oriented API on Agg (no pyplot state).

- ``detection_by_edit.png``: Table 1 as bars with 95% intervals and the theory's predicted rate;
- ``risk_coverage.png``: risk–coverage curves of every signal;
- ``reliability.png``: reliability diagrams of the signals that are probabilities.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from rend_equiv_dataset.figures.scoring.evaluation import columns, confidence
from rend_equiv_dataset.figures.scoring.metrics import reliability_bins
from rend_equiv_dataset.figures.scoring.pipeline import ScoreRun


def _figure(width: float = 6.4, height: float = 4.0):  # type: ignore[no-untyped-def]
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(figure)
    return figure


def _save(figure, path: Path) -> None:  # type: ignore[no-untyped-def]
    figure.savefig(path, metadata={"Software": None})


def detection_plot(report: dict, path: Path) -> None:
    """Observed detection per edit type with intervals, and the predicted rate as a marker."""
    table = report["detection_by_edit"]
    edits = list(table)
    figure = _figure()
    ax = figure.add_subplot()
    x = np.arange(len(edits))
    rates = np.array([table[g]["rate"] if table[g]["rate"] is not None else np.nan for g in edits], dtype=float)
    low = [rates[i] - table[g]["ci"][0] if table[g].get("ci") else 0.0 for i, g in enumerate(edits)]
    high = [table[g]["ci"][1] - rates[i] if table[g].get("ci") else 0.0 for i, g in enumerate(edits)]
    ax.bar(x, np.nan_to_num(rates), yerr=[np.nan_to_num(low), np.nan_to_num(high)], capsize=4, color="#4C72B0", label="observed")
    predicted = [table[g]["predicted"] for g in edits]
    ax.scatter([i for i, p in enumerate(predicted) if p is not None], [p for p in predicted if p is not None], color="#DD8452", zorder=3, marker="D", label="predicted")
    ax.set_xticks(x, [f"{g}\n{table[g]['flagged']}/{table[g]['n']}" for g in edits])
    ax.set_ylim(0, 1.25)
    ax.set_yticks([0.0, 0.25, 0.5, 0.75, 1.0])
    ax.set_ylabel("detection on IBEM")
    ax.set_title("Detection by edit type (95% cluster-bootstrap intervals)")
    ax.legend(loc="upper center", ncols=2, frameon=False)
    _save(figure, path)


def risk_coverage_plot(run: ScoreRun, path: Path) -> None:
    """Error rate among the most confident k instances, against coverage k/n, per signal."""
    cols = columns(run.scores)
    figure = _figure()
    ax = figure.add_subplot()
    for name, values in cols.signals.items():
        have = ~np.isnan(values)
        if not have.any():
            continue
        order = np.argsort(-values[have], kind="stable")
        errors = (~cols.correct[have])[order].astype(float)
        k = np.arange(1, errors.size + 1)
        ax.plot(k / errors.size, np.cumsum(errors) / k, label=name)
    ax.set_xlabel("coverage")
    ax.set_ylabel("risk (error rate)")
    ax.set_title("Risk–coverage")
    ax.legend(fontsize="small")
    _save(figure, path)


def reliability_plot(run: ScoreRun, path: Path) -> None:
    """Accuracy against mean confidence per bin, for signals that are probabilities."""
    cols = columns(run.scores)
    figure = _figure()
    ax = figure.add_subplot()
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1)
    for name, values in cols.signals.items():
        have = ~np.isnan(values)
        conf = confidence(name, values)
        if conf is None or not have.any():
            continue
        bins = reliability_bins(cols.correct[have], conf[have])
        ax.plot([b["confidence"] for b in bins], [b["accuracy"] for b in bins], marker="o", label=name)
    ax.set_xlabel("confidence")
    ax.set_ylabel("accuracy")
    ax.set_title("Reliability")
    ax.legend(fontsize="small")
    _save(figure, path)


def write_plots(run: ScoreRun, folder: Path) -> list[Path]:
    """Write the three plots into ``folder``; returns their paths."""
    paths = [folder / "detection_by_edit.png", folder / "risk_coverage.png", folder / "reliability.png"]
    detection_plot(run.report, paths[0])
    risk_coverage_plot(run, paths[1])
    reliability_plot(run, paths[2])
    return paths
