"""Scatter charts of labelled points: each point carries its label and its y value."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.figures.charts.drawing import (
    DPI,
    floating_limits,
    font,
    format_number,
    label_box,
    set_value_axis,
    style_axes,
    tick_formatter,
    value_decimals,
)
from rend_equiv_dataset.figures.charts.families.base import register_family
from rend_equiv_dataset.figures.charts.families.line import FloatingBaseline
from rend_equiv_dataset.figures.charts.families.sampling import sample_scatter
from rend_equiv_dataset.figures.charts.styles import Style

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


# Candidate label positions around a scatter point: (dx, dy) in points, ha, va.
_SCATTER_OFFSETS = (((0, 5), "center", "bottom"), ((0, -5), "center", "top"),
                    ((6, 0), "left", "center"), ((-6, 0), "right", "center"))


def _place_scatter_labels(fig: Figure, ax: Axes, points: list[tuple[float, float]], texts: list[str],
                          style: Style) -> list[tuple[tuple[int, int], str, str]]:
    """Greedy label placement: for each point the first offset whose estimated box hits no placed box."""
    size_px = font(style, 0.8) * DPI / 72
    placed: list[tuple[float, float, float, float]] = []
    choices = []
    for (x, y), text in zip(points, texts):
        px, py = ax.transData.transform((x, y))
        width, height = 0.62 * size_px * len(text) + 4, 1.3 * size_px + 4
        chosen = _SCATTER_OFFSETS[0]
        for offset in _SCATTER_OFFSETS:
            (dx, dy), ha, va = offset
            cx = px + dx * DPI / 72 - {"left": 0, "center": width / 2, "right": width}[ha]
            cy = py + dy * DPI / 72 - {"bottom": 0, "center": height / 2, "top": height}[va]
            box = (cx, cy, cx + width, cy + height)
            if all(box[2] <= b[0] or b[2] <= box[0] or box[3] <= b[1] or b[3] <= box[1] for b in placed):
                chosen = offset
                break
        (dx, dy), ha, va = chosen
        cx = px + dx * DPI / 72 - {"left": 0, "center": width / 2, "right": width}[ha]
        cy = py + dy * DPI / 72 - {"bottom": 0, "center": height / 2, "top": height}[va]
        placed.append((cx, cy, cx + width, cy + height))
        choices.append(chosen)
    return choices


def _draw_scatter(fig: Figure, ax: Axes, data: ChartData, style: Style) -> None:
    """Scatter of labelled points: each point carries its label and its y value."""
    decimals = value_decimals(data)
    xs = list(data.x_values) if data.x_values is not None else [float(i) for i in range(len(data.categories))]
    ys = list(data.values())
    color = style.colors[0]
    ax.scatter(xs, ys, color=color, marker=style.marker, s=16 + 12 * style.line_width, zorder=3)
    style_axes(ax, data, style, None)
    x_span = (max(xs) - min(xs)) or 1.0
    ax.set_xlim(min(xs) - 0.12 * x_span, max(xs) + 0.12 * x_span)
    ax.xaxis.set_major_formatter(tick_formatter(style.number_format))
    set_value_axis(ax, data, style, "y", floating_limits(data, ys, 0.12, 0.2))
    texts = [f"{label}: {format_number(y, decimals, style.number_format)}" for label, y in zip(data.categories, ys)]
    placements = _place_scatter_labels(fig, ax, list(zip(xs, ys)), texts, style)
    for x, y, text, ((dx, dy), ha, va) in zip(xs, ys, texts, placements):
        ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", ha=ha, va=va,
                    fontsize=font(style, 0.8), bbox=label_box(style), zorder=4)


@register_family
class Scatter(FloatingBaseline):
    """A scatter chart: x from the first value column of a table, y from the second."""

    family = Family.SCATTER
    category_counts = (5, 8)
    question_cycle = ("value", "argmax", "difference", "argmin", "value", "compare", "argmax")
    sample = staticmethod(sample_scatter)
    category_ticks = False
    x_column = True

    def draw(self, fig: Figure, ax: Any, data: ChartData, style: Style) -> None:
        _draw_scatter(fig, ax, data, style)

    def table_problem(self, n_series: int, values: Sequence[float]) -> str | None:
        return None if n_series == 2 else f"a scatter chart takes two value columns (x, then y), the table has {n_series}"
