"""Line charts: markers at every category, each labelled with its value; a trend over an ordered axis."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.figures.charts.drawing import (
    category_ticks,
    floating_limits,
    font,
    format_number,
    label_box,
    set_value_axis,
    style_axes,
    value_decimals,
)
from rend_equiv_dataset.figures.charts.families.base import ChartFamily, register_family
from rend_equiv_dataset.figures.charts.families.sampling import series_sampler
from rend_equiv_dataset.figures.charts.styles import Style
from rend_equiv_dataset.figures.charts.vocab import ORDERED_TOPICS

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def _line_label_offsets(data: ChartData) -> list[list[tuple[float, float, str, str]]]:
    """Where each point's value label goes: (dx, dy, ha, va) in points, per series and category.

    One series: peaks above, dips below. Several: at each category the highest
    series is labelled above, the lowest below and the others to the right, so
    labels of nearby points never stack.
    """
    above, below, right = (0.0, 6.0, "center", "bottom"), (0.0, -6.0, "center", "top"), (7.0, 0.0, "left", "center")
    n = len(data.categories)
    if len(data.series) == 1:
        values = data.series[0].values
        offsets = []
        for x, value in enumerate(values):
            neighbours = values[max(0, x - 1):x] + values[x + 1:x + 2]
            offsets.append(above if value >= sum(neighbours) / len(neighbours) else below)
        return [offsets]
    table = [[right] * n for _ in data.series]
    for x in range(n):
        order = sorted(range(len(data.series)), key=lambda j: (data.series[j].values[x], -j))
        table[order[-1]][x] = above
        table[order[0]][x] = below
    return table


def _draw_line(fig: Figure, ax: Axes, data: ChartData, style: Style) -> None:
    """Line chart: markers at every category, each labelled with its value."""
    decimals = value_decimals(data)
    positions = list(range(len(data.categories)))
    offsets = _line_label_offsets(data)
    for j, series in enumerate(data.series):
        color = style.colors[j % len(style.colors)]
        ax.plot(positions, series.values, color=color, marker=style.marker, linewidth=style.line_width,
                markersize=4 + style.line_width, label=series.name)
        for x, value, (dx, dy, ha, va) in zip(positions, series.values, offsets[j]):
            ax.annotate(format_number(value, decimals, style.number_format), (x, value), xytext=(dx, dy),
                        textcoords="offset points", ha=ha, va=va,
                        fontsize=font(style, 0.8), color=color, bbox=label_box(style), zorder=4)
    values = [v for s in data.series for v in s.values]
    style_axes(ax, data, style, "x")
    category_ticks(ax, data, style, "x")
    set_value_axis(ax, data, style, "y", floating_limits(data, values, 0.15, 0.18))


class FloatingBaseline(ChartFamily):
    """A family without bars: its zoomed value axis may start above zero, below the smallest value."""

    def zoom_range(self, data: ChartData, rng: np.random.Generator,
                   headroom: tuple[float, float]) -> tuple[float, float]:
        _, top = super().zoom_range(data, rng, headroom)
        smallest = min(v for s in data.series for v in s.values)
        return float(np.floor(smallest * rng.uniform(0.3, 0.85))), top


@register_family
class Line(FloatingBaseline):
    family = Family.LINE
    category_counts = (5, 8)
    question_cycle = ("value", "argmax", "sum", "difference", "argmin", "argmax", "compare", "value")
    sample = staticmethod(series_sampler(Family.LINE, ORDERED_TOPICS, (1, 3), walk=True))

    def draw(self, fig: Figure, ax: Any, data: ChartData, style: Style) -> None:
        _draw_line(fig, ax, data, style)
