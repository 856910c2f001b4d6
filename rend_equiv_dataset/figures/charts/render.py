"""Draw a :class:`ChartData` in a :class:`Style` to PNG bytes, legibly and reproducibly.

The fast, deterministic path of docs/design.md §6: an object-oriented
``matplotlib.figure.Figure`` on an Agg canvas that shapes each string once
(:class:`~rend_equiv_dataset.figures.charts.agg.TextCachingCanvas`, matplotlib's
pixels exactly; no pyplot state), one figure and axes reused per family and
orientation, margins fixed per template from the style and the label lengths
(no ``tight_layout``, no ``bbox_inches="tight"``), one draw, then the RGB
pixels of the Agg buffer deflated at level 1 into a PNG; matplotlib defaults
and a single font family (DejaVu Sans, with Noto Sans CJK for the glyphs it
lacks) inside every call.

Every image is checked before it is returned (docs/design.md §3.2, "every one
legible"): each text's window extent must lie inside the canvas and overlap no
other text or the legend, every character must have a glyph in an installed
font, and no bar may be squashed out of sight by an outlier. Long titles,
axis titles and category labels are wrapped rather than clipped. A failing layout is redrawn with rotated category
ticks, a smaller font or a larger canvas (:data:`LAYOUT_LADDER`); if none
works, :class:`IllegibleChartError` is raised and nothing is emitted.

This module lays out the figure and checks it; the chart's family object
(:func:`rend_equiv_dataset.figures.charts.families.family_of`) draws it, says
which of its marks an outlier may hide, and what ``ChartData.value_range``
(the zoom edit) means for it. Every family can be read from its image: bars,
stacked segments, line points and pie slices carry value labels, scatter
points carry their label and value.

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
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rend_equiv_dataset.figures.charts.data import ChartData
from rend_equiv_dataset.figures.charts.drawing import (
    DPI,
    MIN_FONT_POINTS,
    WRAP_AXIS_TITLE_CHARS,
    WRAP_CATEGORY_CHARS,
    WRAP_TITLE_CHARS,
    category_labels,
    draw_legend,
    font,
    format_number,
    line_extent,
    value_axis_label,
    value_decimals,
    wrap,
)
from rend_equiv_dataset.figures.charts.families import FAMILIES, family_of
from rend_equiv_dataset.figures.charts.styles import Style, base_style

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.backends.backend_agg import FigureCanvasAgg

__all__ = [
    "DPI",
    "IllegibleChartError",
    "LAYOUT_LADDER",
    "MIN_FONT_POINTS",
    "Rendering",
    "WRAP_AXIS_TITLE_CHARS",
    "WRAP_CATEGORY_CHARS",
    "WRAP_TITLE_CHARS",
    "configure_matplotlib",
    "draw",
    "format_number",
    "hidden_marks",
    "legibility_problems",
    "render",
    "value_decimals",
    "warm_up",
    "wrap",
]

FONT_FAMILY = "DejaVu Sans"
FALLBACK_FONTS = ("Noto Sans CJK JP",)
"""Fonts asked for a glyph DejaVu Sans lacks (Chinese, Japanese, Korean), when installed
(Debian ``fonts-noto-cjk``, installed by ``.ci/run``). Text DejaVu Sans covers draws the same
pixels with or without them; a glyph no font has makes the chart illegible (:func:`missing_glyphs`)."""
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

    >>> from rend_equiv_dataset.figures.charts.data import Family, Series
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
    render(ChartData(FAMILIES[0], "warm-up", ("a", "b"), (Series("s", (1.0, 2.0)),)), base_style())


# --------------------------------------------------------------------------- layout


def _margins(data: ChartData, style: Style, width_in: float, height_in: float) -> dict[str, float]:
    """Fixed margins of the template, in figure fractions, from the style and the label lengths."""
    font_in = font(style) / 72.0
    longest, label_lines = line_extent(category_labels(data))
    kind = family_of(data)
    horizontal = style.orientation == "horizontal" and kind.has_value_axis
    rotation = math.radians(style.tick_rotation)
    label_extent = 0.6 * font_in * longest
    label_depth = 1.2 * font_in * label_lines
    extra_axis_lines = value_axis_label(data).count("\n")
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
    left, right, bottom, top = kind.frame_margins(left, right, bottom, top, font_in, longest)
    return {
        "left": min(0.45, left / width_in),
        "right": 1 - min(0.45, right / width_in),
        "bottom": min(0.45, bottom / height_in),
        "top": 1 - min(0.3, top / height_in),
    }


def _draw_on(fig: Figure, data: ChartData, style: Style) -> None:
    """Size, colour and lay out ``fig`` for ``style``, then draw ``data`` on its one axes.

    ``fig`` is empty, or holds the emptied axes of a chart of the same template
    (:func:`_template_figure`), which is drawn on again.
    """
    width_in, height_in = (v * style.canvas_scale for v in style.figure_size)
    fig.set_size_inches(width_in, height_in, forward=False)
    fig.set_facecolor(style.background)
    fig.subplots_adjust(**_margins(data, style, width_in, height_in))
    ax = fig.axes[0] if fig.axes else fig.add_subplot(1, 1, 1)
    kind = family_of(data)
    kind.draw(fig, ax, data, style)
    if kind.shows_legend:
        draw_legend(fig, ax, style)
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
    from matplotlib.figure import Figure

    from rend_equiv_dataset.figures.charts.agg import TextCachingCanvas

    width_in, height_in = (v * style.canvas_scale for v in style.figure_size)
    fig = Figure(figsize=(width_in, height_in), dpi=DPI, facecolor=style.background)
    TextCachingCanvas(fig)
    return fig


def draw(data: ChartData, style: Style) -> Figure:
    """The figure of ``data`` in ``style`` on an Agg canvas (not yet drawn)."""
    fig = _new_figure(style)
    _draw_on(fig, data, style)
    return fig


# Figures kept for reuse by :func:`render`, one per (thread, template), least recently used first.
_REUSED_FIGURES: dict[tuple[Any, ...], Figure] = {}
_MAX_REUSED_FIGURES = 24


def _template(data: ChartData, style: Style) -> tuple[Any, ...]:
    """What a chart's axes are reused across: family and orientation (the rest is set on every draw)."""
    return family_of(data).family, style.orientation


def _empty_data(fig: Figure) -> None:
    """Remove what a chart drew from its data (marks, value labels, legend), keeping the axes and ticks."""
    ax = fig.axes[0]
    for container in list(ax.containers):
        container.remove()
    for artist in [*ax.patches, *ax.lines, *ax.collections, *ax.texts, *ax.images, *ax.artists]:
        artist.remove()
    for legend in list(fig.legends):
        legend.remove()


def _template_figure(data: ChartData, style: Style) -> Figure:
    """A figure for ``data`` in ``style``, reused across renders of this thread.

    A chart of the same template drawn before leaves its axes, ticks and
    texts in place: only its data artists are removed, and :func:`_draw_on`
    sets again every property the template has (all of them fixed by the
    style, canvas size included), so matplotlib updates the kept ticks instead
    of building new ones. The canvas keeps one Agg renderer per size
    (:class:`~rend_equiv_dataset.figures.charts.agg.TextCachingCanvas`), and
    with it matplotlib's text metrics cache. The pixels do not depend on what
    was drawn before.
    """
    import threading

    key = (threading.get_ident(), _template(data, style))
    fig = _REUSED_FIGURES.pop(key, None)
    if fig is not None:
        _empty_data(fig)
    else:
        fig = _new_figure(style)
        while len(_REUSED_FIGURES) >= _MAX_REUSED_FIGURES:
            del _REUSED_FIGURES[next(iter(_REUSED_FIGURES))]
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
    renderer = _agg_canvas(fig).get_renderer()
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




def hidden_marks(fig: Figure, data: ChartData, style: Style) -> list[str]:
    """Marks of the drawn chart too small to see, as its family judges them (bars an outlier squashes)."""
    return family_of(data).hidden_marks(fig, data, style)


def _agg_canvas(fig: Figure) -> FigureCanvasAgg:
    """The figure's Agg canvas (every figure here is drawn on one)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas
    if not isinstance(canvas, FigureCanvasAgg):
        raise TypeError(f"expected a figure on an Agg canvas, got {type(canvas).__name__}")
    return canvas


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

    rgba = np.asarray(_agg_canvas(fig).buffer_rgba())
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

    raw: dict[str, Any] = dict.copy(matplotlib.rcParams)  # type: ignore[arg-type]  # a dict at run time; the stub says Mapping
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
        fig = _template_figure(data, style)
        _draw_on(fig, data, style)
        fig.canvas.draw()
        problems = legibility_problems(fig) or hidden_marks(fig, data, style)
        if problems:
            return None, problems
        png, size = _encode(fig)
    return Rendering(png, style, size), []


def _expected_rotation(data: ChartData, style: Style) -> float:
    """Rotate category ticks up front when their estimated width overflows their slot (saves a redraw)."""
    kind = family_of(data)
    if not kind.category_ticks or (style.orientation == "horizontal" and kind.lies_horizontal):
        return 0.0
    slot_px = style.figure_size[0] * style.canvas_scale * DPI * 0.7 / len(data.categories)
    label_px = 0.62 * font(style, 0.9) * DPI / 72 * max(len(c) for c in data.categories)
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
