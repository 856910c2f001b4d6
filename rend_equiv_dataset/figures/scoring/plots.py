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


def _figure(width: float = 6.4, height: float = 4.0):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(figure)
    return figure


def _save(figure, path: Path) -> None:
    figure.savefig(path, metadata={"Software": None})


PALETTE = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C")
DASHES = ("-", "--", "-.", ":")


def signal_styles(names: list[str]) -> dict[str, dict]:
    """One look per signal such that no line can hide another.

    Lines are drawn in the given order, each narrower than the one before and
    with its own colour and dash pattern, so where two signals coincide (ECS
    and min(REA, ECS) often do) the earlier, wider line shows on both sides of
    the later one.

    >>> styles = signal_styles(["ecs", "rea", "combined"])
    >>> [s["linewidth"] for s in styles.values()], [s["zorder"] for s in styles.values()]
    ([4.0, 2.75, 1.5], [2, 3, 4])
    """
    n = len(names)
    widths = np.linspace(4.0, 1.5, n) if n > 1 else np.array([2.0])
    return {
        name: {"color": PALETTE[i % len(PALETTE)], "linestyle": DASHES[i % len(DASHES)] if i else "-",
               "linewidth": float(widths[i]), "zorder": 2 + i}
        for i, name in enumerate(names)
    }


def _legend_outside(figure, ax) -> None:
    """The legend right of the axes, so it covers no line."""
    ax.set_position((0.1, 0.12, 0.62, 0.78))
    ax.legend(loc="center left", bbox_to_anchor=(1.02, 0.5), fontsize="small", frameon=False)


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
    ax.scatter([i for i, p in enumerate(predicted) if p is not None], [p for p in predicted if p is not None],
               color="#DD8452", zorder=3, marker="D", label="predicted")
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
    figure = _figure(7.4, 4.0)
    ax = figure.add_subplot()
    drawn = {name: values for name, values in cols.signals.items() if (~np.isnan(values)).any()}
    styles = signal_styles(list(drawn))
    for name, values in drawn.items():
        have = ~np.isnan(values)
        order = np.argsort(-values[have], kind="stable")
        errors = (~cols.correct[have])[order].astype(float)
        k = np.arange(1, errors.size + 1)
        ax.plot(k / errors.size, np.cumsum(errors) / k, label=name, **styles[name])
    ax.set_xlabel("coverage")
    ax.set_ylabel("risk (error rate)")
    ax.set_title("Risk–coverage")
    _legend_outside(figure, ax)
    _save(figure, path)


def reliability_plot(run: ScoreRun, path: Path) -> None:
    """Accuracy against mean confidence per bin, for signals that are probabilities."""
    cols = columns(run.scores)
    figure = _figure(7.4, 4.0)
    ax = figure.add_subplot()
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, zorder=1)
    maybe = {name: confidence(name, values) for name, values in cols.signals.items()}
    drawn = {name: conf for name, conf in maybe.items() if conf is not None and (~np.isnan(cols.signals[name])).any()}
    styles = signal_styles(list(drawn))
    markers = "osD^v<>p"
    for i, (name, conf) in enumerate(drawn.items()):
        have = ~np.isnan(cols.signals[name])
        bins = reliability_bins(cols.correct[have], conf[have])
        size = 4 + 2 * (len(drawn) - 1 - i)  # earlier markers larger: a coinciding later one sits inside
        ax.plot([b["confidence"] for b in bins], [b["accuracy"] for b in bins], marker=markers[i % len(markers)],
                markersize=size, label=name, **styles[name])
    ax.set_xlabel("confidence")
    ax.set_ylabel("accuracy")
    ax.set_title("Reliability")
    _legend_outside(figure, ax)
    _save(figure, path)


def write_plots(run: ScoreRun, folder: Path) -> list[Path]:
    """Write the three plots into ``folder``; returns their paths."""
    paths = [folder / "detection_by_edit.png", folder / "risk_coverage.png", folder / "reliability.png"]
    detection_plot(run.report, paths[0])
    risk_coverage_plot(run, paths[1])
    reliability_plot(run, paths[2])
    return paths
