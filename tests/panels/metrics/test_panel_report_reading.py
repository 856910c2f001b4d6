"""The panel report as read: coverage-sweep labels do not overlap; rates are fractions, as in report.json."""

import itertools
import json
import re

import numpy as np


def test_coverage_sweep_labels_do_not_overlap(tmp_path):
    from rend_equiv_dataset.panels.metrics.render import _coverage_plot

    coverages = [0.02, 0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8]
    rows = [{"coverage": c, "signal_accuracy": min(1.0, 0.8 + c / 4), "pivotal_gain": 0.1 + c / 10,
             "ci": [0.05, 0.2]} for c in coverages]
    figure = _coverage_plot(tmp_path / "sweep.png", rows)
    renderer = figure.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in figure.findobj(lambda a: hasattr(a, "get_text"))
             if t.get_visible() and t.get_text().strip()]
    assert len(boxes) > 10
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b), (a, b)


def test_panel_report_gives_rates_as_fractions(tmp_path):
    from rend_equiv_dataset.cli import main

    rng = np.random.default_rng(0)
    path = tmp_path / "records.jsonl"
    lines = []
    for i in range(60):
        label = int(rng.integers(2))
        votes = [label if rng.random() < 0.7 else 1 - label for _ in range(5)]
        lines.append(json.dumps({"problem_id": f"p{i % 12}", "label": label, "votes": votes,
                                 "signal": label if rng.random() < 0.85 else 1 - label}))
    path.write_text("\n".join(lines) + "\n")
    assert main(["panel", "score", "--records", str(path), "--resamples", "100", "--out", str(tmp_path / "out")]) == 0
    text = (tmp_path / "out" / "report.md").read_text()
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    values = text.replace("95%", "")  # a confidence level, not a rate
    assert not re.search(r"\d\s*%|\dpp", values), re.search(r".{20}\d\s*(%|pp).{5}", values)
    assert f"| {report['accuracy']['panel']:.4f} |" in text
