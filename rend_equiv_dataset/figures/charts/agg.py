"""An Agg canvas that draws text exactly as matplotlib's does, without measuring or shaping the same string twice.

matplotlib 3.11's ``RendererAgg.draw_text`` looks up the fonts and shapes the
string (``FT2Font._layout``) on every call, then rasterizes it glyph by glyph,
building the same rotation matrix in numpy for each glyph; and every time a
text is measured (for the layout, the axis labels, the legibility check)
``Text._get_layout`` looks up its font again to read the line metrics. A
benchmark draws the same strings (tick labels, category names, value labels)
at a few sizes thousands of times, and this was about a third of each image's
time (docs/design.md §6). :class:`TextCachingRenderer` keeps the shaped glyph
run per (font properties, dpi, string) and the line metrics per (font
properties, dpi), and builds the rotation once per text; the glyphs are
rendered by the same FreeType and Agg calls in the same order, so the pixels
are matplotlib's own (``tests/figures/charts/test_agg.py`` compares every
family, and single texts at several angles, sizes and scripts, with the stock
canvas byte for byte). :class:`TextCachingCanvas` also keeps a renderer per
canvas size, so a figure reused at several sizes keeps matplotlib's text
metrics cache too.

Text the fast path does not cover (mathtext, non-antialiased text, font
features or languages, generic families such as "sans-serif") is drawn by the
stock renderer, and so is every text where the private calls it relies on are
missing or, checked once per process, do not give the stock renderer's pixels.

>>> from matplotlib.figure import Figure
>>> fig = Figure(figsize=(2, 1), dpi=100)
>>> _ = TextCachingCanvas(fig); _ = fig.text(0.1, 0.5, "Sales 2019")
>>> fig.canvas.draw(); type(fig.canvas.get_renderer()).__name__
'TextCachingRenderer'
"""

from __future__ import annotations

import logging
import math
import os
import threading
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag
from matplotlib.font_manager import font_family_aliases, fontManager, get_font

from matplotlib.ft2font import FT2Font

try:
    from matplotlib.ft2font import RenderMode

    _HAS_RENDER_MODE = True
except ImportError:  # pragma: no cover - matplotlib < 3.10
    _HAS_RENDER_MODE = False

_FAST_TEXT = (_HAS_RENDER_MODE and hasattr(RendererAgg, "_prepare_font")
              and all(hasattr(FT2Font, name) for name in ("_layout", "_set_transform", "_render_glyph")))
"""Whether this matplotlib draws text through the calls this renderer makes itself (3.11 does)."""

__all__ = ["TextCachingCanvas", "TextCachingRenderer"]

log = logging.getLogger(__name__)

_MAX_RUNS = 4096
"""Shaped strings kept per thread; a chart has a few dozen, a worker's whole build a few thousand."""

_MAX_RENDERERS = 6
"""Canvas sizes whose renderer a canvas keeps (a style has one of five sizes; a 640x480 buffer is 1.2 MB)."""

_RUNS: dict[Any, Any] = {}
"""Shaped glyph runs by (thread, font properties, dpi, hinting, string). A run holds the ``FT2Font``
objects it was shaped with, which, like matplotlib's own font cache, belong to one thread of one
process: an ``FT2Font`` reads its file through a file descriptor that a forked child shares with its
parent, so two workers using the parent's fonts corrupt each other's glyphs. Hence the thread in the
key and the clearing in every forked child."""
os.register_at_fork(after_in_child=_RUNS.clear)

_HEIGHTS: dict[Any, tuple[float, float, float] | tuple[None, None, None]] = {}
"""Line metrics by (font properties, dpi): plain numbers, valid in every thread and process."""


_AGREES: bool | None = None
"""Whether this renderer's text pixels equal the stock renderer's in this process: checked once, on
rotated two-line text, before the first text is drawn (None: not yet; False while checking, and for
good where they differ or the check fails, say under a matplotlib whose private calls changed)."""


def _fast_path_agrees() -> bool:
    global _AGREES
    if _AGREES is None:
        _AGREES = False  # the stock drawing below, and any text drawn while checking, go the stock way
        try:
            from matplotlib.figure import Figure

            def pixels(canvas_class: type) -> bytes:
                fig = Figure(figsize=(1.6, 0.8), dpi=100)
                fig.text(0.05, 0.25, "Ag 1,234.5\n-0.7% Köln", fontsize=9, rotation=20, family="DejaVu Sans")
                canvas = canvas_class(fig)
                canvas.draw()
                return bytes(canvas.buffer_rgba())

            stock = pixels(FigureCanvasAgg)
            _AGREES = True
            _AGREES = pixels(TextCachingCanvas) == stock
        except Exception as err:  # noqa: BLE001 - any failure means: draw the stock way
            log.debug("text caching check failed: %r", err)
            _AGREES = False
        if not _AGREES:
            log.warning("charts: this matplotlib draws text differently from the text-caching renderer; "
                        "using matplotlib's own (same images, slower)")
    return _AGREES


def _cacheable(prop: Any) -> bool:
    """Whether ``prop`` names its fonts: a generic family ("sans-serif") resolves through settings that may change."""
    return not font_family_aliases.intersection(prop.get_family())


class TextCachingRenderer(RendererAgg):
    """``RendererAgg`` whose plain text reuses each string's shaped glyph run."""

    def _get_font_height_metrics(self, prop):
        """(ascent, descent, line gap) of ``prop`` at this dpi, computed as ``Text._get_layout`` does, once.

        ``Text._get_layout`` asks a renderer with this method for these metrics
        instead of looking up the font and reading its tables itself, which it
        otherwise does for every text each time it is measured or drawn.
        """
        if not (_FAST_TEXT and _fast_path_agrees() and _cacheable(prop)):
            return None, None, None
        metrics = _HEIGHTS.get((prop, self.dpi))
        if metrics is None:
            metrics = None, None, None
            font = get_font(fontManager._find_fonts_by_props(prop))
            for table_name, gap, ascent, descent in (("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
                                                     ("hhea", "lineGap", "ascent", "descent")):
                table = font.get_sfnt_table(table_name)
                if table is not None:
                    scale = 1 / font.get_sfnt_table("head")["unitsPerEm"] * prop.get_size_in_points() * self.dpi / 72
                    metrics = table[ascent] * scale, -table[descent] * scale, table[gap] * scale
                    break
            if len(_HEIGHTS) >= _MAX_RUNS:
                _HEIGHTS.clear()
            _HEIGHTS[(prop.copy(), self.dpi)] = metrics
        return metrics

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        if (not _FAST_TEXT or not _fast_path_agrees() or ismath or not gc.get_antialiased() or not _cacheable(prop)
                or (mtext is not None and (mtext.get_fontfeatures() or mtext.get_language()))):
            return super().draw_text(gc, x, y, s, prop, angle, ismath=ismath, mtext=mtext)
        flags = get_hinting_flag()
        thread = threading.get_ident()
        run = _RUNS.get((thread, prop, self.dpi, flags, s))
        if run is None:
            font = self._prepare_font(prop)
            run = [(item.ft_object, item.glyph_index, item.x, item.y) for item in font._layout(s, flags=flags)]
            if len(_RUNS) >= _MAX_RUNS:
                _RUNS.clear()
            _RUNS[(thread, prop.copy(), self.dpi, flags, s)] = run
        self._draw_run(gc, x, y, angle, prop.get_size_in_points(), flags, run)
        return None

    def _draw_run(self, gc, x, y, angle, size, flags, run):
        """``RendererAgg._draw_text_glyphs_and_boxes`` for plain text: the same calls, the matrix built once."""
        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        matrix = [[round(0x10000 * cos), round(-0x10000 * sin)], [round(0x10000 * sin), round(0x10000 * cos)]]
        top = self.height
        for font, glyph_index, dx, dy in run:  # dy is upwards
            font.set_size(size, self.dpi)
            font._set_transform(matrix, [round(0x40 * (x + dx * cos - dy * sin)),
                                         round(0x40 * (top - y + dx * sin + dy * cos))])  # FreeType's y is upwards
            bitmap = font._render_glyph(glyph_index, flags, RenderMode.NORMAL)
            buffer = bitmap.buffer
            self._renderer.draw_text_image(buffer, bitmap.left, int(top) - bitmap.top + buffer.shape[0], 0, gc)


class TextCachingCanvas(FigureCanvasAgg):
    """``FigureCanvasAgg`` drawing with a :class:`TextCachingRenderer`, the last few sizes' renderers kept.

    A figure reused at several sizes switches between its renderers instead
    of allocating a new one each time, which would also empty matplotlib's
    text metrics cache (keyed by renderer). ``FigureCanvasAgg.draw`` clears
    the renderer before drawing, so nothing of an earlier chart remains.
    """

    def __init__(self, figure: Any = None) -> None:
        super().__init__(figure)
        self._renderers: dict[tuple[int, int, float], TextCachingRenderer] = {}

    def get_renderer(self) -> RendererAgg:
        width, height = self.get_width_height(physical=True)
        key = width, height, self.figure.dpi
        if self._lastKey != key:
            renderer = self._renderers.pop(key, None) or TextCachingRenderer(width, height, self.figure.dpi)
            self._renderers[key] = renderer  # most recently used last
            while len(self._renderers) > _MAX_RENDERERS:
                del self._renderers[next(iter(self._renderers))]
            self.renderer = renderer
            self._lastKey = key  # type: ignore[assignment]  # matplotlib's stub types it None; Agg stores this tuple
        return self.renderer
