"""What a reader sees first: the score report explains its two IBEM detections; plots hide no line."""

import io
import json

import numpy as np
import pytest
from PIL import Image

from rend_equiv_dataset.figures.scoring.pipeline import score_predictions
from rend_equiv_dataset.figures.scoring.plots import risk_coverage_plot, signal_styles
from rend_equiv_dataset.figures.scoring.predictions import Prediction
from rend_equiv_dataset.figures.scoring.report import markdown
from rend_equiv_dataset.figures.scoring.simulate import simulate
from rend_equiv_dataset.figures.scoring.synthetic import synthetic_renderings


@pytest.fixture(scope="module")
def commuting_run():
    """A reader whose errors mostly commute with the edits: ECS misses IBEM at the threshold."""
    rows = synthetic_renderings(n_instances=60, rerenders=4, values=(1, 40))
    records = simulate(rows, "0.4*scale:1.5+0.3*permute:swap+0.3*perfect").records
    return score_predictions(rows, {r["render_id"]: Prediction(**r) for r in records}, n_resamples=50)


def test_the_report_opens_by_explaining_both_ibem_detections(commuting_run):
    report = commuting_run.report
    text = markdown(report)
    head = "\n".join(text.splitlines()[:12])
    assert head.startswith("# REND-EQUIV score report\n\nHow to read the IBEM numbers.")
    assert "**at the threshold**" in head and "**at matched FPR**" in head
    at, matched = report["ibem"]["at_threshold"]["ecs"], report["ibem"]["detection"]["ecs"]
    assert at == 0.0 and matched > 0.5
    assert f"Here ECS detects 0.000 of IBEM at the threshold and {matched:.3f} at matched FPR" in head
    assert f"- ECS detection on IBEM at matched FPR: {matched:.3f}" in text


def test_no_explanation_of_a_gap_when_there_is_none(commuting_run):
    report = json.loads(json.dumps(commuting_run.report))
    report["ibem"]["detection"]["ecs"] = report["ibem"]["at_threshold"]["ecs"]
    assert "Here ECS detects" not in markdown(report)


def test_signal_styles_are_distinct_and_narrow_in_drawing_order():
    styles = signal_styles(["ecs", "rea", "combined", "logprob"])
    widths = [s["linewidth"] for s in styles.values()]
    assert widths == sorted(widths, reverse=True) and len(set(widths)) == 4
    assert len({s["color"] for s in styles.values()}) == 4
    assert [s["zorder"] for s in styles.values()] == [2, 3, 4, 5]


def _rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def test_coinciding_ecs_and_combined_lines_both_show(commuting_run, tmp_path):
    from rend_equiv_dataset.figures.scoring.evaluation import columns

    cols = columns(commuting_run.scores)

    def risk(values):
        errors = (~cols.correct)[np.argsort(-values, kind="stable")].astype(float)
        return np.cumsum(errors) / np.arange(1, errors.size + 1)

    # on this run the ECS and min(REA, ECS) curves are the same curve: drawn plainly, one would cover the other
    assert np.allclose(risk(cols.signals["ecs"]), risk(cols.signals["combined"]))
    path = tmp_path / "risk.png"
    risk_coverage_plot(commuting_run, path)
    image = np.asarray(Image.open(io.BytesIO(path.read_bytes())).convert("RGB"))
    height, width, _ = image.shape
    # the axes occupy (0.1, 0.12, 0.62, 0.78) of the figure; the legend is outside them
    axes = image[int(height * 0.10): int(height * 0.88), int(width * 0.10): int(width * 0.72)]
    styles = signal_styles(list(cols.signals))
    for name in ("ecs", "combined", "rea"):
        visible = np.all(axes == _rgb(styles[name]["color"]), axis=-1).sum()
        assert visible > 30, f"{name}'s line is hidden ({visible} pixels)"
