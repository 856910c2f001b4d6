"""Draw a :class:`ChartData` in a :class:`Style` to PNG bytes, legibly and reproducibly.

The fast, deterministic path of docs/design.md §6: an object-oriented
``matplotlib.figure.Figure`` on a ``FigureCanvasAgg`` (no pyplot state),
margins fixed per template from the style and the label lengths (no
``tight_layout``, no ``bbox_inches="tight"``), one draw, then the RGB pixels
of the Agg buffer deflated at level 1 into a PNG; matplotlib defaults and a single
font family (DejaVu Sans, with Noto Sans CJK for the glyphs it lacks) inside every call.

Every image is checked before it is returned (docs/design.md §3.2, "every one
legible"): each text's window extent must lie inside the canvas and overlap no
other text or the legend, every character must have a glyph in an installed
font, and no bar may be squashed out of sight by an outlier. Long titles,
axis titles and category labels are wrapped rather than clipped. A failing layout is redrawn with rotated category
ticks, a smaller font or a larger canvas (:data:`LAYOUT_LADDER`); if none
works, :class:`IllegibleChartError` is raised and nothing is emitted.

Every family can be read from its image: bars, stacked segments, line points
and pie slices carry value labels, scatter points carry their label and value,
and ``ChartData.value_range`` sets the value-axis limits (the zoom edit).

>>> from rend_equiv_dataset.figures.charts.data import ChartData, Family, Series
>>> chart = ChartData(Family.BAR, "Sales", ("North", "South"), (Series("Sales", (3.0, 4.5)),), unit="k")
>>> result = render(chart, base_style())
>>> result.png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", result.size
(True, (640, 480))
>>> render(chart, base_style()).png == result.png
True
"""

from __future__ import annotations

import contextlib
import math
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rend_equiv_dataset.figures.charts.data import ChartData, Family
from rend_equiv_dataset.figures.charts.styles import Style, base_style

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "DPI",
    "IllegibleChartError",
    "LAYOUT_LADDER",
    "Rendering",
    "configure_matplotlib",
    "draw",
    "format_number",
    "legibility_problems",
    "render",
    "value_decimals",
    "warm_up",
]

DPI = 100
FONT_FAMILY = "DejaVu Sans"
FALLBACK_FONTS = ("Noto Sans CJK JP",)
"""Fonts asked for a glyph DejaVu Sans lacks (Chinese, Japanese, Korean), when installed
(Debian ``fonts-noto-cjk``, installed by ``.ci/run``). Text DejaVu Sans covers draws the same
pixels with or without them; a glyph no font has makes the chart illegible (:func:`missing_glyphs`)."""
MIN_FONT_POINTS = 7.0
# Layout fixes tried in order: (tick rotation in degrees, font scale, canvas scale).
# Upright (90°) ticks rather than slanted ones: the overlap check compares axis-aligned boxes,
# which slanted neighbours always fail.
LAYOUT_LADDER: tuple[tuple[float, float, float], ...] = (
    (0.0, 1.0, 1.0),
    (90.0, 1.0, 1.0),
    (90.0, 0.85, 1.0),
    (90.0, 0.9, 1.3),
    (90.0, 0.8, 1.5),
    (90.0, 0.75, 2.0),
)
_OVERLAP_TOLERANCE_PX = 0.5


class IllegibleChartError(RuntimeError):
    """No layout of this chart in this style passes the legibility check."""


@dataclass(frozen=True)
class Rendering:
    """A PNG and the style it was finally drawn in (after layout fixes)."""

    png: bytes
    style: Style
    size: tuple[int, int]


# --------------------------------------------------------------------------- numbers


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


def _tick_formatter(number_format: str) -> Any:
    from matplotlib.ticker import Formatter

    class _TickFormatter(Formatter):  # type: ignore[misc]
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


# --------------------------------------------------------------------------- matplotlib set-up


def configure_matplotlib() -> None:
    """matplotlib defaults and one font family: what every worker starts from (docs/design.md §6)."""
    import matplotlib

    matplotlib.rcdefaults()
    matplotlib.rcParams["font.family"] = [FONT_FAMILY, *installed_fallback_fonts()]


def installed_fallback_fonts() -> tuple[str, ...]:
    """The :data:`FALLBACK_FONTS` matplotlib can find on this machine."""
    global _INSTALLED_FALLBACKS
    if _INSTALLED_FALLBACKS is None:
        from matplotlib import font_manager

        names = {font.name for font in font_manager.fontManager.ttflist}
        _INSTALLED_FALLBACKS = tuple(f for f in FALLBACK_FONTS if f in names)
    return _INSTALLED_FALLBACKS


_INSTALLED_FALLBACKS: tuple[str, ...] | None = None
_DRAWN_CODEPOINTS: frozenset[int] | None = None


def missing_glyphs(data: ChartData) -> str:
    """The characters of the chart's texts that neither DejaVu Sans nor an installed fallback font draws.

    >>> from rend_equiv_dataset.figures.charts.data import Series
    >>> missing_glyphs(ChartData(Family.BAR, "Sales €", ("Köln", "Zürich"), (Series("s", (1.0, 2.0)),)))
    ''
    >>> missing_glyphs(ChartData(Family.BAR, "t", ("\U00010000", "b"), (Series("s", (1.0, 2.0)),)))
    '\U00010000'
    """
    global _DRAWN_CODEPOINTS
    if _DRAWN_CODEPOINTS is None:
        from matplotlib import font_manager
        from matplotlib.ft2font import FT2Font

        drawn: set[int] = set()
        for family in (FONT_FAMILY, *installed_fallback_fonts()):
            path = font_manager.findfont(font_manager.FontProperties(family=family), fallback_to_default=False)
            drawn.update(FT2Font(path).get_charmap())
        _DRAWN_CODEPOINTS = frozenset(drawn)
    texts = [data.title, data.x_label, data.y_label, data.unit, *data.categories, *data.series_names]
    return "".join(sorted({ch for text in texts for ch in text
                           if not ch.isspace() and ord(ch) not in _DRAWN_CODEPOINTS}))


def warm_up() -> None:
    """Pool initializer of a worker process: configure matplotlib, draw once so fonts and caches load.

    It changes the process's global matplotlib settings, so it is meant for
    worker processes; :func:`render` itself never leaves settings changed.
    """
    from rend_equiv_dataset.figures.charts.data import Series

    configure_matplotlib()
    render(ChartData(Family.BAR, "warm-up", ("a", "b"), (Series("s", (1.0, 2.0)),)), base_style())


# --------------------------------------------------------------------------- drawing


def _font(style: Style, factor: float = 1.0) -> float:
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


def _categories(data: ChartData) -> list[str]:
    return [wrap(c, WRAP_CATEGORY_CHARS) for c in data.categories]


def _lines(texts: list[str]) -> tuple[int, int]:
    """The longest line (characters) and the most lines among ``texts``."""
    split = [t.split("\n") for t in texts] or [[""]]
    return max(len(line) for lines in split for line in lines), max(len(lines) for lines in split)


def _value_axis_label(data: ChartData) -> str:
    """The value-axis title, with the unit unless the title already names it (wrapped when long)."""
    if not data.unit or data.unit in data.y_label:
        return wrap(data.y_label, WRAP_AXIS_TITLE_CHARS)
    return wrap(f"{data.y_label} ({data.unit})", WRAP_AXIS_TITLE_CHARS)


def _label_box(style: Style) -> dict[str, Any]:
    """A light box behind a value label so lines and markers never cross its digits."""
    return {"boxstyle": "round,pad=0.15", "facecolor": style.background, "edgecolor": "none", "alpha": 0.85}


def _margins(data: ChartData, style: Style, width_in: float, height_in: float) -> dict[str, float]:
    """Fixed margins of the template, in figure fractions, from the style and the label lengths."""
    font_in = _font(style) / 72.0
    longest, label_lines = _lines(_categories(data))
    horizontal = style.orientation == "horizontal" and data.family.value != "pie"
    rotation = math.radians(style.tick_rotation)
    label_extent = 0.6 * font_in * longest
    label_depth = 1.2 * font_in * label_lines
    extra_axis_lines = _value_axis_label(data).count("\n")
    extra_x_lines = wrap(data.x_label, WRAP_AXIS_TITLE_CHARS).count("\n")
    if horizontal:
        extra_axis_lines, extra_x_lines = extra_x_lines, extra_axis_lines
    left = 0.35 + 2.2 * font_in + (label_extent if horizontal else 6 * 0.6 * font_in) + 1.2 * font_in * extra_axis_lines
    bottom = 0.25 + 2.4 * font_in + 1.2 * font_in * extra_x_lines
    if not horizontal:
        bottom += label_extent * math.sin(rotation) + label_depth * math.cos(rotation)
    top = 0.25 + 2.0 * font_in + 1.44 * font_in * wrap(data.title, WRAP_TITLE_CHARS).count("\n")
    right = 0.3
    if len(data.series) > 1:
        names = max(len(s.name) for s in data.series)
        if style.legend_location == "right":
            right += 0.6 + 0.6 * font_in * names
        elif style.legend_location == "top":
            top += 2.0 * font_in
        else:
            bottom += 2.2 * font_in
    if data.family is Family.PIE:
        left = right = 0.3 + 0.6 * font_in * longest
        bottom = 0.3
    return {
        "left": min(0.45, left / width_in),
        "right": 1 - min(0.45, right / width_in),
        "bottom": min(0.45, bottom / height_in),
        "top": 1 - min(0.3, top / height_in),
    }


def _value_limits(data: ChartData, totals: list[float], lows: list[float]) -> tuple[float, float]:
    """Value-axis limits: ``data.value_range`` when set, else zero-based with room for the labels."""
    if data.value_range is not None:
        return data.value_range
    high, low = max(max(totals), 0.0), min(min(lows), 0.0)
    span = (high - low) or 1.0
    return (low - 0.12 * span if low < 0 else 0.0), high + 0.14 * span


def _style_axes(ax: Axes, data: ChartData, style: Style, category_axis: str | None) -> None:
    ax.set_facecolor(style.background)
    ax.set_title(wrap(data.title, WRAP_TITLE_CHARS), fontsize=_font(style, 1.2), fontweight=style.title_weight)
    ax.tick_params(labelsize=_font(style, 0.9))
    if style.spines == "open":
        ax.spines["top"].set_visible(False)
        ax.spines["right"].set_visible(False)
    value_axis = {"x": "y", "y": "x", None: None}[category_axis]
    if style.grid != "none" and category_axis is not None:
        axes = "both" if style.grid == "both" else value_axis
        ax.grid(True, axis=axes, linestyle=style.grid_linestyle, linewidth=0.6, alpha=0.6)
    elif style.grid != "none":
        ax.grid(True, linestyle=style.grid_linestyle, linewidth=0.6, alpha=0.6)
    ax.set_axisbelow(True)


def _category_ticks(ax: Axes, data: ChartData, style: Style, axis: str) -> None:
    positions = list(range(len(data.categories)))
    if axis == "x":
        ax.set_xticks(positions)
        ax.set_xticklabels(_categories(data), rotation=style.tick_rotation,
                           ha="right" if 0 < style.tick_rotation < 90 else "center",
                           rotation_mode="anchor" if 0 < style.tick_rotation < 90 else "default")
        ax.set_xlim(-0.6, len(positions) - 0.4)
    else:
        ax.set_yticks(positions)
        ax.set_yticklabels(_categories(data))
        ax.set_ylim(len(positions) - 0.4, -0.6)


def _set_value_axis(ax: Axes, data: ChartData, style: Style, axis: str, limits: tuple[float, float]) -> None:
    formatter = _tick_formatter(style.number_format)
    if axis == "y":
        ax.set_ylim(*limits)
        ax.yaxis.set_major_formatter(formatter)
        ax.set_ylabel(_value_axis_label(data), fontsize=_font(style))
        ax.set_xlabel(wrap(data.x_label, WRAP_AXIS_TITLE_CHARS), fontsize=_font(style))
    else:
        ax.set_xlim(*limits)
        ax.xaxis.set_major_formatter(formatter)
        ax.set_xlabel(_value_axis_label(data), fontsize=_font(style))
        ax.set_ylabel(wrap(data.x_label, WRAP_AXIS_TITLE_CHARS), fontsize=_font(style))


def _bar_label(ax: Axes, style: Style, horizontal: bool, position: float, value: float, text: str,
               *, anchor: float | None = None, inside: bool = False, color: str = "black",
               rotation: float = 0.0) -> None:
    """A value label at the end of a bar (or centred in a stacked segment when ``inside``)."""
    at = value if anchor is None else anchor
    if inside:
        xy, align = ((at, position), {"ha": "center", "va": "center"}) if horizontal else (
            (position, at), {"ha": "center", "va": "center"})
        ax.text(*xy, text, fontsize=_font(style, 0.8), color=color, **align)
        return
    sign = 1 if value >= 0 else -1
    if horizontal:
        ax.annotate(text, (at, position), xytext=(3 * sign, 0), textcoords="offset points",
                    ha="left" if sign > 0 else "right", va="center", fontsize=_font(style, 0.8))
    else:
        ax.annotate(text, (position, at), xytext=(0, 3 * sign), textcoords="offset points", rotation=rotation,
                    ha="center", va="bottom" if sign > 0 else "top", fontsize=_font(style, 0.8))


def _contrast(color: str) -> str:
    red, green, blue = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.6 else "white"


def _legend(fig: Figure, ax: Axes, style: Style) -> None:
    handles, labels = ax.get_legend_handles_labels()
    if len(handles) < 2:
        return
    size = _font(style, 0.9)
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


def _bar_label_rotation(fig: Figure, ax: Axes, data: ChartData, style: Style, width: float, decimals: int) -> float:
    """Turn value labels upright (90°) when they are estimated to be wider than their bar."""
    axes_px = ax.get_position().width * fig.get_figwidth() * DPI
    bar_px = width * axes_px / len(data.categories)
    longest = max(len(format_number(v, decimals, style.number_format)) for s in data.series for v in s.values)
    label_px = 0.62 * _font(style, 0.8) * DPI / 72 * longest
    return 90.0 if label_px > 0.8 * bar_px else 0.0


def _draw_bars(fig: Figure, ax: Axes, data: ChartData, style: Style) -> None:
    """Bar, grouped bar and stacked bar: one value label per bar or segment."""
    horizontal = style.orientation == "horizontal"
    decimals = value_decimals(data)
    n_series = len(data.series)
    stacked = data.family is Family.STACKED_BAR
    n = len(data.categories)
    width = style.bar_width if stacked or n_series == 1 else style.bar_width / n_series
    totals = [sum(s.values[i] for s in data.series) for i in range(n)] if stacked else [
        max(s.values[i] for s in data.series) for i in range(n)]
    lows = [min(s.values[i] for s in data.series) for i in range(n)]
    limits = _value_limits(data, totals, lows)
    category_axis = "y" if horizontal else "x"
    _style_axes(ax, data, style, category_axis)
    _category_ticks(ax, data, style, category_axis)
    _set_value_axis(ax, data, style, "x" if horizontal else "y", limits)
    label_rotation = 0.0 if horizontal or stacked else _bar_label_rotation(fig, ax, data, style, width, decimals)
    value_px = ax.get_position().height * fig.get_figheight() * DPI / (limits[1] - limits[0])
    label_px = 0.62 * _font(style, 0.8) * DPI / 72
    bar = ax.barh if horizontal else ax.bar
    bottoms = [0.0] * n
    for j, series in enumerate(data.series):
        color = style.colors[j % len(style.colors)]
        positions = [float(i) if stacked else i + (j - (n_series - 1) / 2) * width for i in range(n)]
        extra = ({"left": bottoms} if horizontal else {"bottom": bottoms}) if stacked else {}
        bar(positions, series.values, width, color=color, label=series.name, **extra)
        for position, value, below in zip(positions, series.values, bottoms):
            text = format_number(value, decimals, style.number_format)
            if stacked:
                _bar_label(ax, style, horizontal, position, value, text, anchor=below + value / 2,
                           inside=True, color=_contrast(color))
            elif label_rotation and value > 0 and (value - max(limits[0], 0.0)) * value_px > label_px * len(text) + 8 \
                    and value >= limits[1] - (label_px * len(text) + 8) / value_px:
                # an upright label that would rise past the axes top goes inside its bar's end
                ax.annotate(text, (position, value), xytext=(0, -3), textcoords="offset points", rotation=90,
                            ha="center", va="top", fontsize=_font(style, 0.8), color=_contrast(color))
            else:
                _bar_label(ax, style, horizontal, position, value, text, rotation=label_rotation)
        if stacked:
            bottoms = [b + v for b, v in zip(bottoms, series.values)]


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
                        fontsize=_font(style, 0.8), color=color, bbox=_label_box(style), zorder=4)
    values = [v for s in data.series for v in s.values]
    _style_axes(ax, data, style, "x")
    _category_ticks(ax, data, style, "x")
    if data.value_range is not None:
        limits = data.value_range
    else:
        span = (max(values) - min(values)) or abs(max(values)) or 1.0
        limits = (min(values) - 0.15 * span, max(values) + 0.18 * span)
    _set_value_axis(ax, data, style, "y", limits)


# Candidate label positions around a scatter point: (dx, dy) in points, ha, va.
_SCATTER_OFFSETS = (((0, 5), "center", "bottom"), ((0, -5), "center", "top"),
                    ((6, 0), "left", "center"), ((-6, 0), "right", "center"))


def _place_scatter_labels(fig: Figure, ax: Axes, points: list[tuple[float, float]], texts: list[str],
                          style: Style) -> list[tuple[tuple[int, int], str, str]]:
    """Greedy label placement: for each point the first offset whose estimated box hits no placed box."""
    size_px = _font(style, 0.8) * DPI / 72
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
    _style_axes(ax, data, style, None)
    x_span = (max(xs) - min(xs)) or 1.0
    ax.set_xlim(min(xs) - 0.12 * x_span, max(xs) + 0.12 * x_span)
    ax.xaxis.set_major_formatter(_tick_formatter(style.number_format))
    if data.value_range is not None:
        limits = data.value_range
    else:
        span = (max(ys) - min(ys)) or abs(max(ys)) or 1.0
        limits = (min(ys) - 0.12 * span, max(ys) + 0.2 * span)
    _set_value_axis(ax, data, style, "y", limits)
    texts = [f"{label}: {format_number(y, decimals, style.number_format)}" for label, y in zip(data.categories, ys)]
    placements = _place_scatter_labels(fig, ax, list(zip(xs, ys)), texts, style)
    for x, y, text, ((dx, dy), ha, va) in zip(xs, ys, texts, placements):
        ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", ha=ha, va=va,
                    fontsize=_font(style, 0.8), bbox=_label_box(style), zorder=4)


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
    wedges, _ = ax.pie(values, labels=_categories(data), colors=colors, startangle=style.pie_start_angle,
                       counterclock=False, labeldistance=1.08, radius=radius,
                       textprops={"fontsize": _font(style, 0.9)},
                       wedgeprops={"linewidth": 1.0, "edgecolor": style.background})
    for wedge, value, color in zip(wedges, values, colors):
        angle = math.radians((wedge.theta1 + wedge.theta2) / 2)
        share = 100 * value / total if total else 0.0
        # Values already in percent are the one percentage shown; other values get their share beside them.
        text = (f"{format_number(value, decimals, style.number_format)}%" if data.unit == "%"
                else f"{format_number(value, decimals, style.number_format)}\n({share:.1f}%)")
        ax.text(0.68 * radius * math.cos(angle), 0.68 * radius * math.sin(angle), text,
                ha="center", va="center", fontsize=_font(style, 0.75), color=_contrast(color))
    ax.set_title(wrap(data.title, WRAP_TITLE_CHARS), fontsize=_font(style, 1.2), fontweight=style.title_weight)
    ax.set_aspect("equal")
    ax.set_xlim(-1.1, 1.1)
    ax.set_ylim(-1.1, 1.1)
    ax.set_facecolor(style.background)


_DRAWERS: dict[Family, Callable[[Figure, Any, ChartData, Style], None]] = {
    Family.BAR: _draw_bars,
    Family.GROUPED_BAR: _draw_bars,
    Family.STACKED_BAR: _draw_bars,
    Family.LINE: _draw_line,
    Family.SCATTER: _draw_scatter,
    Family.PIE: _draw_pie,
}


def _draw_on(fig: Figure, data: ChartData, style: Style) -> None:
    """Size, colour and lay out the empty ``fig`` for ``style``, then draw ``data`` on one axes."""
    width_in, height_in = (v * style.canvas_scale for v in style.figure_size)
    fig.set_size_inches(width_in, height_in, forward=False)
    fig.set_facecolor(style.background)
    fig.subplots_adjust(**_margins(data, style, width_in, height_in))
    ax = fig.add_subplot(1, 1, 1)
    _DRAWERS[data.family](fig, ax, data, style)
    if data.family is not Family.PIE:  # slices are labelled in place
        _legend(fig, ax, style)
    _fix_title(ax)


def _fix_title(ax: Axes) -> None:
    """Pin the title at the axes top (y=1.0), as the fixed template puts it.

    An explicit ``y`` turns off matplotlib's automatic title placement, which
    measures every y tick label on each draw to dodge top-side x ticks or a y
    offset text ("1e6"). This template has neither (ticks at the bottom, our
    formatters print no offset), so the title lands exactly where automatic
    placement would put it, and the draw skips about a sixth of its work.
    """
    title = ax.title
    ax.set_title(title.get_text(), fontsize=title.get_fontsize(), fontweight=title.get_fontweight(), y=1.0)


def _new_figure(style: Style) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    width_in, height_in = (v * style.canvas_scale for v in style.figure_size)
    fig = Figure(figsize=(width_in, height_in), dpi=DPI, facecolor=style.background)
    FigureCanvasAgg(fig)
    return fig


def draw(data: ChartData, style: Style) -> Figure:
    """The figure of ``data`` in ``style`` on an Agg canvas (not yet drawn)."""
    fig = _new_figure(style)
    _draw_on(fig, data, style)
    return fig


# Figures kept for reuse by :func:`render`, one per (thread, canvas size in pixels), oldest first.
_REUSED_FIGURES: dict[tuple[int, int, int], Figure] = {}
_MAX_REUSED_FIGURES = 12


def _reused_figure(style: Style) -> Figure:
    """An empty figure of ``style``'s canvas size, reused across renders of this thread.

    Reuse keeps the Agg renderer of that size, and with it matplotlib's text
    metrics cache (keyed by renderer), instead of building both per image.
    The figure is emptied (axes removed without the wasted ``Axes.clear``,
    then ``Figure.clear``) and :func:`_draw_on` sets everything a fresh
    figure would get from its arguments (size, face colour, margins), so the
    pixels do not depend on what was drawn before.
    """
    import threading

    width_in, height_in = (v * style.canvas_scale for v in style.figure_size)
    key = (threading.get_ident(), round(width_in * DPI), round(height_in * DPI))
    fig = _REUSED_FIGURES.pop(key, None)
    if fig is None:
        fig = _new_figure(style)
        while len(_REUSED_FIGURES) >= _MAX_REUSED_FIGURES:
            del _REUSED_FIGURES[next(iter(_REUSED_FIGURES))]
    else:
        for ax in list(fig.axes):
            fig.delaxes(ax)
        fig.clear()
    _REUSED_FIGURES[key] = fig
    return fig


# --------------------------------------------------------------------------- legibility


def _texts(fig: Figure) -> Iterator[Any]:
    """Every visible, non-empty text of the figure that a reader needs, plus legend boxes."""
    for ax in fig.axes:
        yield ax.title
        yield ax.xaxis.label
        yield ax.yaxis.label
        for axis, (low, high) in ((ax.xaxis, ax.get_xlim()), (ax.yaxis, ax.get_ylim())):
            low, high = min(low, high), max(low, high)
            pad = 1e-9 * max(1.0, abs(high - low))
            for tick in axis.get_major_ticks():
                if tick.label1.get_visible() and low - pad <= tick.get_loc() <= high + pad:
                    yield tick.label1
        yield from ax.texts
    yield from fig.legends


def legibility_problems(fig: Figure) -> list[str]:
    """Why a drawn figure is not legible: texts outside the canvas or overlapping (empty when legible)."""
    renderer = fig.canvas.get_renderer()
    width, height = fig.canvas.get_width_height()
    boxes: list[tuple[str, Any]] = []
    for artist in _texts(fig):
        if not artist.get_visible() or (hasattr(artist, "get_text") and not artist.get_text().strip()):
            continue
        name = artist.get_text() if hasattr(artist, "get_text") else "legend"
        boxes.append((name, artist.get_window_extent(renderer)))
    problems = []
    tol = _OVERLAP_TOLERANCE_PX
    for name, box in boxes:
        if box.x0 < -tol or box.y0 < -tol or box.x1 > width + tol or box.y1 > height + tol:
            problems.append(f"{name!r} is clipped by the canvas")
    for i, (name_a, a) in enumerate(boxes):
        for name_b, b in boxes[i + 1:]:
            if min(a.x1, b.x1) - max(a.x0, b.x0) > tol and min(a.y1, b.y1) - max(a.y0, b.y0) > tol:
                problems.append(f"{name_a!r} overlaps {name_b!r}")
    return problems


MIN_MARK_PX = 2.0
"""A non-zero bar must be at least this many pixels long, or an outlier has squashed it out of sight."""


def hidden_marks(fig: Figure, data: ChartData, style: Style) -> list[str]:
    """Bars an outlier makes too short to see (non-zero value, under :data:`MIN_MARK_PX` pixels)."""
    if data.family not in (Family.BAR, Family.GROUPED_BAR, Family.STACKED_BAR):
        return []
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


def _png_chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def _encode(fig: Figure) -> tuple[bytes, tuple[int, int]]:
    """The drawn canvas as an 8-bit RGB PNG, straight from the Agg RGBA buffer.

    Every row is stored with PNG's "Up" filter (difference to the row above,
    one numpy subtraction) and deflated at level 1: about half the time of
    Pillow's adaptive filters at ``compress_level=1``, for files of the same
    size. No metadata chunks, so the bytes depend on the pixels alone.
    """
    import numpy as np

    rgba = np.asarray(fig.canvas.buffer_rgba())
    height, width = rgba.shape[:2]
    rgb = rgba[:, :, :3].reshape(height, 3 * width)
    rows = np.empty((height, 1 + 3 * width), dtype=np.uint8)
    rows[:, 0] = 2  # filter type Up
    rows[0, 1:] = rgb[0]
    np.subtract(rgb[1:], rgb[:-1], out=rows[1:, 1:])  # modulo 256, as PNG defines it
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit truecolour, no interlace
    png = b"".join((b"\x89PNG\r\n\x1a\n", _png_chunk(b"IHDR", header),
                    _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)), _png_chunk(b"IEND", b"")))
    return png, (width, height)


_CONFIGURED_RC: dict[str, Any] | None = None


def _raw_rc() -> dict[str, Any]:
    """matplotlib's settings as stored (no validation; the backend, which never affects Agg pixels, left out)."""
    import matplotlib

    raw = dict.copy(matplotlib.rcParams)
    raw.pop("backend", None)
    return raw


def _rc_configured() -> bool:
    """Whether the settings already are exactly what :func:`configure_matplotlib` makes them.

    True in a warmed-up worker: then :func:`_attempt` draws without saving,
    resetting and restoring every setting per image (``rcdefaults`` validates
    each of them), which is the same state reached the long way.
    """
    global _CONFIGURED_RC
    import matplotlib

    if _CONFIGURED_RC is None:
        with matplotlib.rc_context():
            configure_matplotlib()
            _CONFIGURED_RC = _raw_rc()
    return _raw_rc() == _CONFIGURED_RC


def _attempt(data: ChartData, style: Style) -> tuple[Rendering | None, list[str]]:
    import matplotlib

    configured = _rc_configured()
    with contextlib.nullcontext() if configured else matplotlib.rc_context():
        if not configured:
            configure_matplotlib()
        fig = _reused_figure(style)
        _draw_on(fig, data, style)
        fig.canvas.draw()
        problems = legibility_problems(fig) or hidden_marks(fig, data, style)
        if problems:
            return None, problems
        png, size = _encode(fig)
    return Rendering(png, style, size), []


def _expected_rotation(data: ChartData, style: Style) -> float:
    """Rotate category ticks up front when their estimated width overflows their slot (saves a redraw)."""
    if data.family in (Family.PIE, Family.SCATTER) or (
        style.orientation == "horizontal" and data.family.value in ("bar", "grouped_bar", "stacked_bar")
    ):
        return 0.0
    slot_px = style.figure_size[0] * style.canvas_scale * DPI * 0.7 / len(data.categories)
    label_px = 0.62 * _font(style, 0.9) * DPI / 72 * max(len(c) for c in data.categories)
    return 0.0 if label_px <= 0.9 * slot_px else 90.0


def render(data: ChartData, style: Style) -> Rendering:
    """Render ``data`` in ``style``, fixing the layout until it is legible (docs/design.md §3.2, §6).

    Raises:
        IllegibleChartError: no layout in :data:`LAYOUT_LADDER` is legible.
    """
    if missing := missing_glyphs(data):
        raise IllegibleChartError(f"chart {data.title!r} has characters no installed font draws: {missing[:8]!r}")
    problems: list[str] = []
    first_rotation = max(style.tick_rotation, _expected_rotation(data, style))
    for rotation, font_scale, canvas_scale in LAYOUT_LADDER:
        attempt_style = style.with_layout(
            tick_rotation=max(first_rotation, rotation),
            font_scale=style.font_scale * font_scale,
            canvas_scale=style.canvas_scale * canvas_scale,
        )
        result, problems = _attempt(data, attempt_style)
        if result is not None:
            return result
    raise IllegibleChartError(f"chart {data.title!r} in style {style.style_id!r} is not legible: {problems[:3]}")
