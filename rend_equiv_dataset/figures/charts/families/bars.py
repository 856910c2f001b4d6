"""Bar, grouped bar and stacked bar charts: one value label per bar or segment."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.figures.charts.drawing import (
    DPI,
    bar_label,
    bar_label_rotation,
    category_ticks,
    contrast,
    font,
    format_number,
    set_value_axis,
    style_axes,
    value_decimals,
    value_limits,
)
from rend_equiv_dataset.figures.charts.families.base import ChartFamily, register_family
from rend_equiv_dataset.figures.charts.families.sampling import series_sampler
from rend_equiv_dataset.figures.charts.styles import Style
from rend_equiv_dataset.figures.charts.vocab import CATEGORICAL_TOPICS, ORDERED_TOPICS

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def _draw_bars(fig: Figure, ax: Axes, data: ChartData, style: Style, stacked: bool) -> None:
    """Bar, grouped bar and stacked bar: one value label per bar or segment."""
    horizontal = style.orientation == "horizontal"
    decimals = value_decimals(data)
    n_series = len(data.series)
    n = len(data.categories)
    width = style.bar_width if stacked or n_series == 1 else style.bar_width / n_series
    totals = [sum(s.values[i] for s in data.series) for i in range(n)] if stacked else [
        max(s.values[i] for s in data.series) for i in range(n)]
    lows = [min(s.values[i] for s in data.series) for i in range(n)]
    limits = value_limits(data, totals, lows)
    category_axis = "y" if horizontal else "x"
    style_axes(ax, data, style, category_axis)
    category_ticks(ax, data, style, category_axis)
    set_value_axis(ax, data, style, "x" if horizontal else "y", limits)
    label_rotation = 0.0 if horizontal or stacked else bar_label_rotation(fig, ax, data, style, width, decimals)
    value_px = ax.get_position().height * fig.get_figheight() * DPI / (limits[1] - limits[0])
    label_px = 0.62 * font(style, 0.8) * DPI / 72
    bar = ax.barh if horizontal else ax.bar
    bottoms = [0.0] * n
    for j, series in enumerate(data.series):
        color = style.colors[j % len(style.colors)]
        positions = [float(i) if stacked else i + (j - (n_series - 1) / 2) * width for i in range(n)]
        extra: dict[str, Any] = ({"left": bottoms} if horizontal else {"bottom": bottoms}) if stacked else {}
        bar(positions, series.values, width, color=color, label=series.name, **extra)
        for position, value, below in zip(positions, series.values, bottoms):
            text = format_number(value, decimals, style.number_format)
            if stacked:
                bar_label(ax, style, horizontal, position, value, text, anchor=below + value / 2,
                           inside=True, color=contrast(color))
            elif label_rotation and value > 0 and (value - max(limits[0], 0.0)) * value_px > label_px * len(text) + 8 \
                    and value >= limits[1] - (label_px * len(text) + 8) / value_px:
                # an upright label that would rise past the axes top goes inside its bar's end
                ax.annotate(text, (position, value), xytext=(0, -3), textcoords="offset points", rotation=90,
                            ha="center", va="top", fontsize=font(style, 0.8), color=contrast(color))
            else:
                bar_label(ax, style, horizontal, position, value, text, rotation=label_rotation)
        if stacked:
            bottoms = [b + v for b, v in zip(bottoms, series.values)]


MIN_MARK_PX = 2.0
"""A non-zero bar must be at least this many pixels long, or an outlier has squashed it out of sight."""


def _hidden_bars(fig: Figure, style: Style) -> list[str]:
    """Bars an outlier makes too short to see (non-zero value, under :data:`MIN_MARK_PX` pixels)."""
    from matplotlib.patches import Rectangle

    horizontal = style.orientation == "horizontal"
    ax = fig.axes[0]
    to_px = ax.transData.transform
    problems = []
    for patch in ax.patches:
        if not isinstance(patch, Rectangle):
            continue
        (x0, y0), (x1, y1) = to_px([(patch.get_x(), patch.get_y()),
                                    (patch.get_x() + patch.get_width(), patch.get_y() + patch.get_height())])
        value = patch.get_width() if horizontal else patch.get_height()
        length = abs(x1 - x0) if horizontal else abs(y1 - y0)
        if value != 0 and length < MIN_MARK_PX:
            problems.append(f"a bar of {value:g} is {length:.1f} px long: an outlier hides it")
    return problems


_BAR_TOPICS = CATEGORICAL_TOPICS + ORDERED_TOPICS


class _Bars(ChartFamily):
    """What the three bar families share: a zero-based value axis and bars an outlier may hide."""

    lies_horizontal = True
    stacked = False

    def draw(self, fig: Figure, ax: Any, data: ChartData, style: Style) -> None:
        _draw_bars(fig, ax, data, style, self.stacked)

    def hidden_marks(self, fig: Figure, data: ChartData, style: Style) -> list[str]:
        return _hidden_bars(fig, style)


@register_family
class Bar(_Bars):
    family = Family.BAR
    category_counts = (4, 7)
    question_cycle = ("value", "argmax", "sum", "difference", "argmin", "value", "compare", "argmax")
    sample = staticmethod(series_sampler(Family.BAR, _BAR_TOPICS, (1, 1), walk=False))

    def table_problem(self, n_series: int, values: Sequence[float]) -> str | None:
        return None if n_series == 1 else f"a bar chart takes one series, the table has {n_series}"


@register_family
class GroupedBar(_Bars):
    family = Family.GROUPED_BAR
    category_counts = (4, 6)
    question_cycle = ("argmax", "value", "compare", "sum", "difference", "argmax", "argmin", "value")
    sample = staticmethod(series_sampler(Family.GROUPED_BAR, _BAR_TOPICS, (2, 3), walk=False))

    def table_problem(self, n_series: int, values: Sequence[float]) -> str | None:
        return None if n_series >= 2 else f"a grouped_bar chart takes several series, the table has {n_series}"


@register_family
class StackedBar(_Bars):
    """Stacked bars: the value axis shows the stack totals, and values cannot be negative."""

    family = Family.STACKED_BAR
    category_counts = (4, 6)
    question_cycle = ("value", "sum", "argmax", "argmin", "value", "compare", "difference", "sum")
    sample = staticmethod(series_sampler(Family.STACKED_BAR, _BAR_TOPICS, (2, 3), walk=False))
    stacked = True

    @staticmethod
    def _totals(data: ChartData) -> list[float]:
        return [sum(column) for column in zip(*(s.values for s in data.series))]

    def shown_values(self, data: ChartData) -> list[float]:
        return super().shown_values(data) + self._totals(data)

    def value_span(self, data: ChartData) -> float:
        return max(abs(t) for t in self._totals(data))

    def table_problem(self, n_series: int, values: Sequence[float]) -> str | None:
        if n_series < 2:
            return f"a stacked_bar chart takes several series, the table has {n_series}"
        if min(values) < 0:
            return "a stacked_bar chart cannot show negative values"
        return None
