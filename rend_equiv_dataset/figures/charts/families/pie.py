"""Pie charts: slices named outside, value and share inside; no value axis."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.figures.charts.drawing import (
    WRAP_TITLE_CHARS,
    category_labels,
    contrast,
    font,
    format_number,
    value_decimals,
    wrap,
)
from rend_equiv_dataset.figures.charts.families.base import ChartFamily, register_family
from rend_equiv_dataset.figures.charts.families.sampling import sample_pie
from rend_equiv_dataset.figures.charts.styles import Style

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def _draw_pie(fig: Figure, ax: Axes, data: ChartData, style: Style) -> None:
    """Pie: slices named outside, value and share inside; no value axis.

    A pie has no value axis, so ``value_range`` (the zoom edit) sets how much of
    the frame it fills: radius = total / value_range[1], in a fixed frame.
    """
    decimals = value_decimals(data)
    values = list(data.values())
    total = sum(values)
    radius = 1.0 if data.value_range is None else min(1.0, total / data.value_range[1])
    colors = [style.colors[i % len(style.colors)] for i in range(len(values))]
    wedges, _ = ax.pie(values, labels=category_labels(data), colors=colors, startangle=style.pie_start_angle,
                       counterclock=False, labeldistance=1.08, radius=radius,
                       textprops={"fontsize": font(style, 0.9)},
                       wedgeprops={"linewidth": 1.0, "edgecolor": style.background})
    for wedge, value, color in zip(wedges, values, colors):
        angle = math.radians((wedge.theta1 + wedge.theta2) / 2)
        share = 100 * value / total if total else 0.0
        # Values already in percent are the one percentage shown; other values get their share beside them.
        text = (f"{format_number(value, decimals, style.number_format)}%" if data.unit == "%"
                else f"{format_number(value, decimals, style.number_format)}\n({share:.1f}%)")
        ax.text(0.68 * radius * math.cos(angle), 0.68 * radius * math.sin(angle), text,
                ha="center", va="center", fontsize=font(style, 0.75), color=contrast(color))
    ax.set_title(wrap(data.title, WRAP_TITLE_CHARS), fontsize=font(style, 1.2), fontweight=style.title_weight)
    ax.set_aspect("equal")
    ax.set_xlim(-1.1, 1.1)
    ax.set_ylim(-1.1, 1.1)
    ax.set_facecolor(style.background)


@register_family
class Pie(ChartFamily):
    """A pie: read as shares of the total; zoom sets how much of its frame it fills."""

    family = Family.PIE
    category_counts = (4, 6)
    question_cycle = ("share", "argmax", "compare", "share", "argmin", "argmax")
    sample = staticmethod(sample_pie)
    lookup = "share"
    has_value_axis = False
    category_ticks = False
    shows_legend = False

    def draw(self, fig: Figure, ax: Any, data: ChartData, style: Style) -> None:
        _draw_pie(fig, ax, data, style)

    def frame_margins(self, left: float, right: float, bottom: float, top: float,
                      font_in: float, longest: int) -> tuple[float, float, float, float]:
        """Room for the slice names on both sides; no axis titles below."""
        side = 0.3 + 0.6 * font_in * longest
        return side, side, 0.3, top

    def zoom_range(self, data: ChartData, rng: np.random.Generator,
                   headroom: tuple[float, float]) -> tuple[float, float]:
        """(0, top) with top = ``headroom`` times the total: the pie takes total/top of its full radius.

        The draw a value axis would take comes first and goes unused, so seeded
        instances stay those of earlier releases.
        """
        rng.uniform(*headroom)
        return 0.0, float(np.ceil(sum(data.values()) * rng.uniform(*headroom)))

    def table_problem(self, n_series: int, values: Sequence[float]) -> str | None:
        if n_series != 1:
            return f"a pie chart takes one series, the table has {n_series}"
        if min(values) < 0:
            return "a pie chart cannot show negative values"
        if sum(values) <= 0:
            return "a pie chart needs a positive total"
        return None
