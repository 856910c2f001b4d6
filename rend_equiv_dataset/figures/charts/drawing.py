"""Drawing pieces every chart family shares: numbers as printed, fonts, wrapping, axes and labels.

A family's own drawing (bars, lines, points, slices) lives in its module under
:mod:`rend_equiv_dataset.figures.charts.families`; :mod:`.render` lays out the
figure, asks the chart's family to draw on it, and checks the result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from rend_equiv_dataset.figures.charts.data import ChartData
from rend_equiv_dataset.figures.charts.styles import Style

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

DPI = 100
MIN_FONT_POINTS = 7.0


def value_decimals(data: ChartData, cap: int = 3) -> int:
    """Fewest decimals (≤ ``cap``) that print every value of the chart exactly.

    >>> from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
    >>> value_decimals(ChartData(Family.BAR, "t", ("a", "b"), (Series("s", (1.0, 2.25)),)))
    2
    """
    values = [v for s in data.series for v in s.values] + list(data.x_values or ())
    for decimals in range(cap + 1):
        if all(abs(round(v, decimals) - v) <= 1e-9 * max(1.0, abs(v)) for v in values):
            return decimals
    return cap


def format_number(value: float, decimals: int, number_format: str) -> str:
    """A value as printed on the chart; ``comma`` groups thousands.

    >>> format_number(12345.5, 1, "comma"), format_number(12345.5, 1, "plain"), format_number(-0.0, 0, "plain")
    ('12,345.5', '12345.5', '0')
    """
    text = f"{value:,.{decimals}f}" if number_format == "comma" else f"{value:.{decimals}f}"
    return "0" if text.lstrip("-").strip("0.,") == "" else text


def tick_formatter(number_format: str) -> Any:
    from matplotlib.ticker import Formatter

    class _TickFormatter(Formatter):
        """Ticks with the fewest decimals (at most 4) that print every tick exactly (2.5, never "2"),
        grouped per the style."""

        decimals = 0

        def set_locs(self, locs: Any) -> None:
            super().set_locs(locs)
            self.decimals = next((d for d in range(5) if all(
                abs(round(x, d) - x) <= 1e-9 * max(1.0, abs(x)) for x in locs)), 4)

        def __call__(self, x: float, pos: int | None = None) -> str:
            return format_number(x, self.decimals, number_format)

    return _TickFormatter()


# --------------------------------------------------------------------------- axes and labels


def font(style: Style, factor: float = 1.0) -> float:
    return max(MIN_FONT_POINTS, style.font_size * style.font_scale * factor)


WRAP_CATEGORY_CHARS = 16
"""Category labels longer than this are wrapped onto several lines (at spaces) instead of clipping."""
WRAP_AXIS_TITLE_CHARS = 50
WRAP_TITLE_CHARS = 55
"""Axis titles and chart titles longer than these are wrapped (real tables carry long headers)."""


def wrap(text: str, chars: int) -> str:
    """``text`` broken at spaces into lines of at most ``chars`` characters (long words kept whole).

    >>> wrap("Share of respondents who use social media daily", 20)
    'Share of respondents\\nwho use social media\\ndaily'
    >>> wrap("Japan", 4)
    'Japan'
    """
    if len(text) <= chars:
        return text
    import textwrap

    return "\n".join(textwrap.wrap(text, chars, break_long_words=False)) or text


def category_labels(data: ChartData) -> list[str]:
    return [wrap(c, WRAP_CATEGORY_CHARS) for c in data.categories]


def line_extent(texts: list[str]) -> tuple[int, int]:
    """The longest line (characters) and the most lines among ``texts``."""
    split = [t.split("\n") for t in texts] or [[""]]
    return max(len(line) for lines in split for line in lines), max(len(lines) for lines in split)


def value_axis_label(data: ChartData) -> str:
    """The value-axis title, with the unit unless the title already names it (wrapped when long)."""
    if not data.unit or data.unit in data.y_label:
        return wrap(data.y_label, WRAP_AXIS_TITLE_CHARS)
    return wrap(f"{data.y_label} ({data.unit})", WRAP_AXIS_TITLE_CHARS)


def label_box(style: Style) -> dict[str, Any]:
    """A light box behind a value label so lines and markers never cross its digits."""
    return {"boxstyle": "round,pad=0.15", "facecolor": style.background, "edgecolor": "none", "alpha": 0.85}


def value_limits(data: ChartData, totals: list[float], lows: list[float]) -> tuple[float, float]:
    """Value-axis limits: ``data.value_range`` when set, else zero-based with room for the labels."""
    if data.value_range is not None:
        return data.value_range
    high, low = max(max(totals), 0.0), min(min(lows), 0.0)
    span = (high - low) or 1.0
    return (low - 0.12 * span if low < 0 else 0.0), high + 0.14 * span


def floating_limits(data: ChartData, values: list[float], below: float, above: float) -> tuple[float, float]:
    """Value-axis limits of a chart without bars: ``data.value_range`` when set, else the values'
    own range widened by ``below`` and ``above`` times their span (room for the value labels).

    >>> from rend_equiv_dataset.figures.charts.data import Family, Series
    >>> chart = ChartData(Family.LINE, "t", ("a", "b"), (Series("s", (10.0, 20.0)),))
    >>> floating_limits(chart, [10.0, 20.0], 0.1, 0.2)
    (9.0, 22.0)
    """
    if data.value_range is not None:
        return data.value_range
    span = (max(values) - min(values)) or abs(max(values)) or 1.0
    return min(values) - below * span, max(values) + above * span


def style_axes(ax: Axes, data: ChartData, style: Style, category_axis: str | None) -> None:
    ax.set_facecolor(style.background)
    ax.set_title(wrap(data.title, WRAP_TITLE_CHARS), fontsize=font(style, 1.2), fontweight=style.title_weight)
    ax.tick_params(labelsize=font(style, 0.9))
    # Every property is set both ways: the axes may be reused from a chart of another style.
    ax.spines["top"].set_visible(style.spines != "open")
    ax.spines["right"].set_visible(style.spines != "open")
    ax.grid(False)
    if style.grid != "none" and category_axis is not None:
        axes: Literal["both", "x", "y"] = "both" if style.grid == "both" else "y" if category_axis == "x" else "x"
        ax.grid(True, axis=axes, linestyle=style.grid_linestyle, linewidth=0.6, alpha=0.6)
    elif style.grid != "none":
        ax.grid(True, linestyle=style.grid_linestyle, linewidth=0.6, alpha=0.6)
    ax.set_axisbelow(True)


def category_ticks(ax: Axes, data: ChartData, style: Style, axis: str) -> None:
    positions = list(range(len(data.categories)))
    if axis == "x":
        ax.set_xticks(positions)
        ax.set_xticklabels(category_labels(data), rotation=style.tick_rotation,
                           ha="right" if 0 < style.tick_rotation < 90 else "center",
                           rotation_mode="anchor" if 0 < style.tick_rotation < 90 else "default")
        ax.set_xlim(-0.6, len(positions) - 0.4)
    else:
        ax.set_yticks(positions)
        ax.set_yticklabels(category_labels(data))
        ax.set_ylim(len(positions) - 0.4, -0.6)


def set_value_axis(ax: Axes, data: ChartData, style: Style, axis: str, limits: tuple[float, float]) -> None:
    formatter = tick_formatter(style.number_format)
    if axis == "y":
        ax.set_ylim(*limits)
        ax.yaxis.set_major_formatter(formatter)
        ax.set_ylabel(value_axis_label(data), fontsize=font(style))
        ax.set_xlabel(wrap(data.x_label, WRAP_AXIS_TITLE_CHARS), fontsize=font(style))
    else:
        ax.set_xlim(*limits)
        ax.xaxis.set_major_formatter(formatter)
        ax.set_xlabel(value_axis_label(data), fontsize=font(style))
        ax.set_ylabel(wrap(data.x_label, WRAP_AXIS_TITLE_CHARS), fontsize=font(style))


def bar_label(ax: Axes, style: Style, horizontal: bool, position: float, value: float, text: str,
               *, anchor: float | None = None, inside: bool = False, color: str = "black",
               rotation: float = 0.0) -> None:
    """A value label at the end of a bar (or centred in a stacked segment when ``inside``)."""
    at = value if anchor is None else anchor
    if inside:
        x, y = (at, position) if horizontal else (position, at)
        ax.text(x, y, text, fontsize=font(style, 0.8), color=color, ha="center", va="center")
        return
    sign = 1 if value >= 0 else -1
    if horizontal:
        ax.annotate(text, (at, position), xytext=(3 * sign, 0), textcoords="offset points",
                    ha="left" if sign > 0 else "right", va="center", fontsize=font(style, 0.8))
    else:
        ax.annotate(text, (position, at), xytext=(0, 3 * sign), textcoords="offset points", rotation=rotation,
                    ha="center", va="bottom" if sign > 0 else "top", fontsize=font(style, 0.8))


def contrast(color: str) -> str:
    red, green, blue = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.6 else "white"


def draw_legend(fig: Figure, ax: Axes, style: Style) -> None:
    handles, labels = ax.get_legend_handles_labels()
    if len(handles) < 2:
        return
    size = font(style, 0.9)
    position = ax.get_position()
    if style.legend_location == "right":
        fig.legend(handles, labels, loc="center left", bbox_to_anchor=(position.x1 + 0.01, position.y0 + position.height / 2),
                   fontsize=size, frameon=False)
    elif style.legend_location == "top":
        fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(position.x0 + position.width / 2, position.y1 + 0.055),
                   ncol=len(handles), fontsize=size, frameon=False)
    else:
        fig.legend(handles, labels, loc="lower center", bbox_to_anchor=(position.x0 + position.width / 2, 0.005),
                   ncol=len(handles), fontsize=size, frameon=False)


def bar_label_rotation(fig: Figure, ax: Axes, data: ChartData, style: Style, width: float, decimals: int) -> float:
    """Turn value labels upright (90°) when they are estimated to be wider than their bar."""
    axes_px = ax.get_position().width * fig.get_figwidth() * DPI
    bar_px = width * axes_px / len(data.categories)
    longest = max(len(format_number(v, decimals, style.number_format)) for s in data.series for v in s.values)
    label_px = 0.62 * font(style, 0.8) * DPI / 72 * longest
    return 90.0 if label_px > 0.8 * bar_px else 0.0
